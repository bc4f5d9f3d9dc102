/*
 * secure.c: the facts il_exec_secure (il_secure.h) decides on, gathered
 * for an open file, once for the drivers' refusal (tools/elf.c) and the
 * library's exec note (counted.c).  Raw system calls only: the library
 * calls no libc function on an exec path, and the drivers link this
 * object with the rest of the core.
 */
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/vfs.h>

#include "il.h"
#include "il_secure.h"
#include "sys.h"

static int
in_bset(int c)
{
    return il_sc6(SYS_prctl, PR_CAPBSET_READ, c, 0, 0, 0, 0) == 1;
}

int
il_exec_secure_fd(int fd, const struct stat *st)
{
    unsigned char x[XATTR_CAPS_SZ_3];
    struct statfs sf;
    long n = il_sc6(SYS_fgetxattr, fd, (long)"security.capability", (long)x, sizeof x, 0, 0);
    if (!il_exec_maybe_secure(st->st_mode, n) || il_sc6(SYS_fstatfs, fd, (long)&sf, 0, 0, 0, 0) < 0)
        return 0;
    struct il_exec_facts f = {st->st_mode,
                              st->st_uid,
                              st->st_gid,
                              (unsigned)il_sys_getuid(),
                              (unsigned)il_sc6(SYS_getgid, 0, 0, 0, 0, 0, 0),
                              (sf.f_flags & ST_NOSUID) != 0,
                              il_sc6(SYS_prctl, PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0, 0) == 1,
                              x,
                              n,
                              in_bset};
    return il_exec_secure(&f);
}
