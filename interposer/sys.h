/*
 * sys.h: raw system calls, for the interposer.
 *
 * Why not libc's wrappers: every function the library imports costs the
 * dynamic loader a symbol lookup in every measured process (about 800
 * instructions each, measured with callgrind), and libc's wrappers are
 * not all async-signal-safe on paper (getrusage, ioctl, syscall).  A
 * system call made here is one instruction into the kernel: safe in a
 * signal handler and in _exit, binding nothing, setting no errno.
 *
 * Each returns what the kernel returns: a result >= 0, or -errno.
 * x86-64 and AArch64 are written out; elsewhere syscall(2) is used
 * (and errno read back), which costs one import.
 */
#ifndef IL_SYS_H
#define IL_SYS_H

#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/syscall.h>

#if defined(__x86_64__)
static inline long
il_sc6(long n, long a, long b, long c, long d, long e, long f)
{
    register long r10 __asm__("r10") = d;
    register long r8 __asm__("r8") = e;
    register long r9 __asm__("r9") = f;
    long ret;
    __asm__ volatile("syscall"
                     : "=a"(ret)
                     : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
                     : "rcx", "r11", "memory");
    return ret;
}
#elif defined(__aarch64__)
static inline long
il_sc6(long n, long a, long b, long c, long d, long e, long f)
{
    register long x8 __asm__("x8") = n;
    register long x0 __asm__("x0") = a;
    register long x1 __asm__("x1") = b;
    register long x2 __asm__("x2") = c;
    register long x3 __asm__("x3") = d;
    register long x4 __asm__("x4") = e;
    register long x5 __asm__("x5") = f;
    __asm__ volatile("svc 0"
                     : "+r"(x0)
                     : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5)
                     : "memory");
    return x0;
}
#else
#include <errno.h>
#include <unistd.h>
static inline long
il_sc6(long n, long a, long b, long c, long d, long e, long f)
{
    long r = syscall(n, a, b, c, d, e, f);
    return r == -1 ? -errno : r;
}
#endif

#define IL_SC(n, a, b, c) il_sc6((n), (long)(a), (long)(b), (long)(c), 0, 0, 0)

struct stat;
struct rusage;
struct rlimit;
struct utsname;
struct timespec;
struct pollfd;

static inline long
il_sys_openat(int dir, const char *p, int fl, int mode)
{
    return il_sc6(SYS_openat, dir, (long)p, fl, mode, 0, 0);
}
static inline long
il_sys_open(const char *p, int fl, int mode)
{
    return il_sys_openat(AT_FDCWD, p, fl, mode);
}
static inline long
il_sys_read(int fd, void *b, size_t n)
{
    return IL_SC(SYS_read, fd, b, n);
}
static inline long
il_sys_write(int fd, const void *b, size_t n)
{
    return IL_SC(SYS_write, fd, b, n);
}
struct iovec;
static inline long
il_sys_writev(int fd, const struct iovec *v, int n)
{
    return IL_SC(SYS_writev, fd, v, n);
}
static inline long
il_sys_pread(int fd, void *b, size_t n, long off)
{
    return il_sc6(SYS_pread64, fd, (long)b, (long)n, off, 0, 0);
}
static inline long
il_sys_close(int fd)
{
    return IL_SC(SYS_close, fd, 0, 0);
}
static inline long
il_sys_fstat(int fd, struct stat *st)
{
    return il_sc6(SYS_newfstatat, fd, (long)"", (long)st, AT_EMPTY_PATH, 0, 0);
}
static inline long
il_sys_stat(const char *p, struct stat *st, int flags)
{
    return il_sc6(SYS_newfstatat, AT_FDCWD, (long)p, (long)st, flags, 0, 0);
}
static inline long
il_sys_fcntl(int fd, int cmd, long arg)
{
    return IL_SC(SYS_fcntl, fd, cmd, arg);
}
static inline long
il_sys_ioctl(int fd, unsigned long req, long arg)
{
    return IL_SC(SYS_ioctl, fd, req, arg);
}
static inline long
il_sys_unlink(const char *p)
{
    return IL_SC(SYS_unlinkat, AT_FDCWD, p, 0);
}
static inline long
il_sys_rmdir(const char *p)
{
    return IL_SC(SYS_unlinkat, AT_FDCWD, p, AT_REMOVEDIR);
}
static inline long
il_sys_getpid(void)
{
    return IL_SC(SYS_getpid, 0, 0, 0);
}
static inline long
il_sys_getppid(void)
{
    return IL_SC(SYS_getppid, 0, 0, 0);
}
static inline long
il_sys_gettid(void)
{
    return IL_SC(SYS_gettid, 0, 0, 0);
}
static inline long
il_sys_getuid(void)
{
    return IL_SC(SYS_getuid, 0, 0, 0);
}
static inline long
il_sys_getrusage(int who, struct rusage *ru)
{
    return IL_SC(SYS_getrusage, who, ru, 0);
}
static inline long
il_sys_getrlimit(int res, struct rlimit *rl)
{
    return il_sc6(SYS_prlimit64, 0, res, 0, (long)rl, 0, 0);
}
static inline long
il_sys_uname(struct utsname *u)
{
    return IL_SC(SYS_uname, u, 0, 0);
}
static inline long
il_sys_getcwd(char *b, size_t n)
{
    return IL_SC(SYS_getcwd, b, n, 0);
}
static inline long
il_sys_brk(void *p)
{
    return IL_SC(SYS_brk, p, 0, 0);
}
static inline long
il_sys_personality(unsigned long p)
{
    return IL_SC(SYS_personality, p, 0, 0);
}
static inline long
il_sys_getaffinity(size_t n, void *mask)
{
    return IL_SC(SYS_sched_getaffinity, 0, n, mask);
}
static inline long
il_sys_sched_yield(void)
{
    return IL_SC(SYS_sched_yield, 0, 0, 0);
}
/* The kernel's signal sets are 64 bits here; glibc's sigset_t is larger
 * only for room.  Bit sig-1 is signal sig. */
typedef uint64_t il_sigset;
#define IL_SIGBIT(sig) ((il_sigset)1 << ((sig)-1))
/* every signal but glibc's two internal ones (SIGCANCEL 32, SIGSETXID 33),
 * which glibc never blocks either */
#define IL_SIGALL (~(il_sigset)0 & ~IL_SIGBIT(32) & ~IL_SIGBIT(33))
static inline long
il_sys_sigprocmask(int how, const il_sigset *s, il_sigset *old)
{
    return il_sc6(SYS_rt_sigprocmask, how, (long)s, (long)old, 8, 0, 0);
}
static inline long
il_sys_sigpending(il_sigset *s)
{
    return IL_SC(SYS_rt_sigpending, s, 8, 0);
}
static inline long
il_sys_sigtimedwait(const il_sigset *s, const struct timespec *t)
{
    return il_sc6(SYS_rt_sigtimedwait, (long)s, 0, (long)t, 8, 0, 0);
}
static inline long
il_sys_tgkill(long pid, long tid, int sig)
{
    return IL_SC(SYS_tgkill, pid, tid, sig);
}
static inline long
il_sys_kill(long pid, int sig)
{
    return IL_SC(SYS_kill, pid, sig, 0);
}
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434 /* one number on every architecture (Linux 5.3) */
#endif
static inline long
il_sys_pidfd_open(long pid)
{
    return IL_SC(SYS_pidfd_open, pid, 0, 0);
}
static inline long
il_sys_ppoll(struct pollfd *f, unsigned n, const struct timespec *t)
{
    return il_sc6(SYS_ppoll, (long)f, n, (long)t, 0, 8, 0);
}
static inline long
il_sys_mmap(void *a, size_t n, int prot, int fl, int fd, long off)
{
    return il_sc6(SYS_mmap, (long)a, (long)n, prot, fl, fd, off);
}
static inline long
il_sys_perf_event_open(void *attr, int pid, int cpu, int group, unsigned long fl)
{
    return il_sc6(SYS_perf_event_open, (long)attr, pid, cpu, group, (long)fl, 0);
}
static inline long
il_sys_exit_group(int st)
{
    return IL_SC(SYS_exit_group, st, 0, 0);
}

#endif
