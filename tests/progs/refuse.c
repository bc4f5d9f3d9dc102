/*
 * refuse: run a program under a seccomp filter that refuses one kind of
 * system call, to reach the error paths no setting reaches.
 *
 *   refuse WHAT PROG [ARG...]
 *       WHAT is mmap-noreserve (an anonymous private MAP_NORESERVE mmap
 *       fails with ENOMEM: the library's record buffer, which is mapped
 *       so when the command line does not fit the static one;
 *       tests/system/interposer_input.sh) or personality (personality(2)
 *       fails with EPERM: interloper run's --aslr; tests/system/run.sh),
 *       or pidfd-kill (pidfd_open(2) kills the process with SIGSYS, as
 *       a filter of older allow-lists whose default action is to kill
 *       does: review13b; tests/system/run.sh), or pidfd-enosys
 *       (pidfd_open(2) fails with ENOSYS, every other call is allowed, as
 *       under a filter that knows nothing newer than Linux 5.2; any filter
 *       makes the library read "Seccomp: 2": review14b).
 *       Exit status 125 when the filter cannot be installed here, 126
 *       when PROG cannot be executed, 2 for a bad WHAT.
 */
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
    struct sock_filter mmap_f[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_mmap, 0, 3),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[3])),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOMEM),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_filter pers_f[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_personality, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_filter pidfd_f[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 434 /* pidfd_open */, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_filter nosys_f[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 434 /* pidfd_open */, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog p;
    if (argc < 3) {
        fputs("usage: refuse mmap-noreserve|personality|pidfd-kill|pidfd-enosys PROG [ARG...]\n",
              stderr);
        return 2;
    }
    if (!strcmp(argv[1], "mmap-noreserve"))
        p = (struct sock_fprog){sizeof mmap_f / sizeof mmap_f[0], mmap_f};
    else if (!strcmp(argv[1], "personality"))
        p = (struct sock_fprog){sizeof pers_f / sizeof pers_f[0], pers_f};
    else if (!strcmp(argv[1], "pidfd-kill"))
        p = (struct sock_fprog){sizeof pidfd_f / sizeof pidfd_f[0], pidfd_f};
    else if (!strcmp(argv[1], "pidfd-enosys"))
        p = (struct sock_fprog){sizeof nosys_f / sizeof nosys_f[0], nosys_f};
    else {
        fprintf(stderr,
                "refuse: %s: expected mmap-noreserve, personality, pidfd-kill or pidfd-enosys\n",
                argv[1]);
        return 2;
    }
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &p))
        return perror("refuse"), 125;
    execv(argv[2], argv + 2);
    return perror(argv[2]), 126;
}
