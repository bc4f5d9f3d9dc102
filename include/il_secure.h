/*
 * il_secure.h: does an exec of a program run secure (AT_SECURE), so that
 * ld.so ignores LD_PRELOAD and the program is not measured?  One rule for
 * the drivers, which refuse such a program before any run (tools/elf.c),
 * and for the library, which says at the exec that its record is the
 * process's last (interposer/counted.c).
 *
 * A set-user-ID or set-group-ID program: secure when the exec changes
 * the effective user or group from our real one (cap_bprm_creds_from_file:
 * is_setid), so only where its owner or group is not ours (root running a
 * set-user-ID-root program is not: outside14 F6, the drivers refused it
 * all the same), and neither a nosuid mount nor no_new_privs makes the
 * exec ignore the bit (fs/exec.c, bprm_fill_uid).
 *
 * File capabilities:
 * Linux's rule (security/commoncap.c: get_file_caps,
 * cap_bprm_creds_from_file): for a real user other than root, an exec is
 * secure when the file's capabilities are honoured and either their
 * effective bit is set or the new permitted set, (file permitted AND the
 * bounding set) OR (file inheritable AND ours), is not within the new
 * ambient set, which the file's capabilities clear.  Taken here only on
 * proof, so that nothing false is said: a real user other than root; a
 * version 2 attribute, or a version 3 one whose root is uid 0 (one of
 * another root is honoured only in some user namespaces); not on a nosuid
 * mount; and the effective bit with every permitted capability in the
 * bounding set (else the exec fails), or (without no_new_privs, which
 * keeps the permitted set within ours) a permitted capability in the
 * bounding set.
 * il_exec_secure is pure; il_exec_secure_fd (interposer/secure.c) gathers
 * its facts for an open file by raw system calls, for both callers.
 */
#ifndef IL_SECURE_H
#define IL_SECURE_H

#include <endian.h>
#include <linux/capability.h>
#include <stdint.h>
#include <string.h>

/* What decides: the file's mode, owner and group and its
 * security.capability attribute (ncaps bytes at caps, ncaps <= 0: none);
 * our real user and group; whether its mount is nosuid (set-user-ID bits
 * and capabilities ignored) and whether no_new_privs is set; in_bset(c):
 * is capability c in the bounding set. */
struct il_exec_facts {
    unsigned mode, uid, gid, ruid, rgid;
    int nosuid, nnp;
    const void *caps;
    long ncaps;
    int (*in_bset)(int);
};

/* Does the file need the facts beyond its mode and attribute to tell? */
static inline int
il_exec_maybe_secure(unsigned mode, long ncaps)
{
    return (mode & 06000) || ncaps > 0;
}

/* 1 surely secure by set-user-ID or set-group-ID, 2 surely secure by file
 * capabilities, 0 not, or not surely. */
static inline int
il_exec_secure(const struct il_exec_facts *f)
{
    if (f->nosuid)
        return 0;
    /* the kernel applies set-group-ID only with group execute, and
     * neither bit for an owner or group the user namespace cannot map,
     * which stat shows as the overflow id, 65534 by default: no proof
     * there (review14c M3) */
    if (!f->nnp && (((f->mode & 04000) && f->uid != f->ruid && f->uid != 65534) ||
                    ((f->mode & 02010) == 02010 && f->gid != f->rgid && f->gid != 65534)))
        return 1;
    uint32_t w[XATTR_CAPS_SZ_3 / 4];
    long n = f->ncaps;
    if (f->ruid == 0 || n < (long)XATTR_CAPS_SZ_2 || n > (long)sizeof w)
        return 0;
    memcpy(w, f->caps, (size_t)n);
    for (long i = 0; i < n / 4; i++)
        w[i] = le32toh(w[i]); /* little-endian on disk */
    uint32_t rev = w[0] & VFS_CAP_REVISION_MASK;
    if (!(rev == VFS_CAP_REVISION_2 && n == (long)XATTR_CAPS_SZ_2) &&
        !(rev == VFS_CAP_REVISION_3 && n == (long)XATTR_CAPS_SZ_3 && w[5] == 0))
        return 0;
    uint64_t perm = w[1] | (uint64_t)w[3] << 32, in = 0;
    for (int c = 0; c < 64; c++)
        if ((perm >> c & 1) && f->in_bset(c))
            in |= (uint64_t)1 << c;
    if (w[0] & VFS_CAP_FLAGS_EFFECTIVE)
        /* with a permitted capability outside the bounding set the exec
         * fails (EPERM: bprm_caps_from_vfs_caps) unless our inheritable
         * set supplies it, which is not looked at: no proof either way
         * (review14a M2) */
        return in == perm ? 2 : 0;
    return !f->nnp && in ? 2 : 0;
}

struct stat;
/* Does exec'ing the open file fd, of status st, surely run secure, so
 * that ld.so ignores LD_PRELOAD?  1 by set-user-ID or set-group-ID, 2 by
 * file capabilities (outside14 H1: such a program, run by a user other
 * than root, ran unmeasured with no word), else 0. */
int il_exec_secure_fd(int fd, const struct stat *st);

#endif
