/*
 * il_fcaps.h: does an exec of a program that bears file capabilities run
 * secure (AT_SECURE), so that ld.so ignores LD_PRELOAD and the program is
 * not measured?  One rule for the drivers, which refuse such a program
 * before any run (tools/elf.c), and for the library, which says at the
 * exec that its record is the process's last (interposer/counted.c).
 *
 * Linux's rule (security/commoncap.c: get_file_caps,
 * cap_bprm_creds_from_file): for a real user other than root, an exec is
 * secure when the file's capabilities are honoured and either their
 * effective bit is set or the new permitted set, (file permitted AND the
 * bounding set) OR (file inheritable AND ours), is not within the new
 * ambient set, which the file's capabilities clear.  Taken here only on
 * proof, so that nothing false is said: a real user other than root; a
 * version 2 attribute, or a version 3 one whose root is uid 0 (one of
 * another root is honoured only in some user namespaces); not on a nosuid
 * mount; and the effective bit, or (without no_new_privs, which keeps the
 * permitted set within ours) a permitted capability in the bounding set.
 * Pure: the caller gathers the facts by its own system calls (the library
 * has no libc calls on an exec path).
 */
#ifndef IL_FCAPS_H
#define IL_FCAPS_H

#include <endian.h>
#include <linux/capability.h>
#include <stdint.h>
#include <string.h>

/* x: the security.capability attribute's n bytes (n <= 0: none);
 * nosuid: the file's mount ignores set-user-ID bits and capabilities;
 * ruid: the real user id; nnp: no_new_privs is set; in_bset(c): is
 * capability c in the bounding set.  1 surely secure, else 0. */
static inline int
il_fcaps_secure(const void *x, long n, int nosuid, unsigned ruid, int nnp, int (*in_bset)(int))
{
    uint32_t w[XATTR_CAPS_SZ_3 / 4];
    if (ruid == 0 || nosuid || n < (long)XATTR_CAPS_SZ_2 || n > (long)sizeof w)
        return 0;
    memcpy(w, x, (size_t)n);
    for (long i = 0; i < n / 4; i++)
        w[i] = le32toh(w[i]); /* little-endian on disk */
    uint32_t rev = w[0] & VFS_CAP_REVISION_MASK;
    if (!(rev == VFS_CAP_REVISION_2 && n == (long)XATTR_CAPS_SZ_2) &&
        !(rev == VFS_CAP_REVISION_3 && n == (long)XATTR_CAPS_SZ_3 && w[5] == 0))
        return 0;
    if (w[0] & VFS_CAP_FLAGS_EFFECTIVE)
        return 1;
    if (nnp)
        return 0;
    uint64_t perm = w[1] | (uint64_t)w[3] << 32;
    for (int c = 0; c < 64; c++)
        if ((perm >> c & 1) && in_bset(c))
            return 1;
    return 0;
}

#endif
