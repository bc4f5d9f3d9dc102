/*
 * sigsafe.c: small async-signal-safe helpers.  Nothing here allocates, takes
 * a lock or touches stdio, because the finish path may run in a signal
 * handler or inside _exit(); system calls are raw (sys.h).
 */
#include <elf.h>
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "il.h"
#include "sys.h"

/* The one instance of the interposer's state (il.h).  Zero-initialised,
 * so it lives in .bss and only the pages touched cost a page fault. */
struct il_state il;

size_t
il_strlcpy(char *dst, const char *src, size_t n)
{
    size_t len = strlen(src);
    if (n) {
        size_t c = len < n - 1 ? len : n - 1;
        il_copy_short(dst, src, c); /* names and paths: word moves beat a call */
        dst[c] = 0;
    }
    return len;
}

const char il_digit_pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233"
    "34353637383940414243444546474849505152535455565758596061626364656667"
    "6869707172737475767778798081828384858687888990919293949596979899";

char *
il_fmt_u64(char *p, uint64_t v)
{
    /* the digits counted first, then written in place from the end, two
     * per division: this formats every number of a record */
    static const uint64_t pow10[20] = {
        1ULL,
        10ULL,
        100ULL,
        1000ULL,
        10000ULL,
        100000ULL,
        1000000ULL,
        10000000ULL,
        100000000ULL,
        1000000000ULL,
        10000000000ULL,
        100000000000ULL,
        1000000000000ULL,
        10000000000000ULL,
        100000000000000ULL,
        1000000000000000ULL,
        10000000000000000ULL,
        100000000000000000ULL,
        1000000000000000000ULL,
        10000000000000000000ULL,
    };
    if (v < 10) { /* most of a record's numbers: statuses, offsets, counts of rare events */
        p[0] = (char)('0' + v);
        p[1] = 0;
        return p + 1;
    }
    /* digits from the bit length: log10(2) ~ 1233 / 4096 */
    int t = (64 - __builtin_clzll(v)) * 1233 >> 12;
    int n = t + 1 - (v < pow10[t]);
    char *q = p + n;
    *q = 0;
    il_fmt_back_u64(q, v);
    return q;
}

char *
il_fmt_i64(char *p, int64_t v)
{
    if (v < 0) {
        *p++ = '-';
        return il_fmt_u64(p, (uint64_t)0 - (uint64_t)v);
    }
    return il_fmt_u64(p, (uint64_t)v);
}

/* every byte's two hex digits */
const char il_hex2[513] =
    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
    "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
    "404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f"
    "606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"
    "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
    "a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
    "c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
    "e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";

char *
il_fmt_hex(char *p, uint64_t v)
{
    /* two digits a byte, one two-byte move each: an address is 11-12 */
    const char *hx = il_hex2;
    int n = v ? (67 - __builtin_clzll(v)) / 4 : 1;
    *p++ = '0';
    *p++ = 'x';
    char *q = p + n;
    *q = 0;
    for (; v > 0xff; v >>= 8)
        __builtin_memcpy(q -= 2, hx + 2 * (v & 0xff), 2);
    if (v > 0xf)
        __builtin_memcpy(q - 2, hx + 2 * v, 2);
    else
        q[-1] = hx[2 * v + 1];
    return p + n;
}

char *
il_cat(char *p, const char *s)
{
    while (*s)
        *p++ = *s++;
    *p = 0;
    return p;
}

/* Append at most max bytes of s, and "..." if s was longer. */
char *
il_catn(char *p, const char *s, size_t max)
{
    size_t n = 0;
    while (s[n] && n < max)
        *p++ = s[n++];
    *p = 0;
    return s[n] ? il_cat(p, "...") : p;
}

/*
 * Write all of s; 0, or the errno that stopped it, with *done the bytes
 * that went.  A descriptor opened non-blocking (a FIFO) is waited on for
 * at most *budget_ms, which the waits use up: one budget can bound a
 * record and the newline that ends it.
 */
int
il_write_upto(int fd, const char *s, size_t n, size_t *done, int *budget_ms)
{
    *done = 0;
    while (*done < n) {
        long w = il_sys_write(fd, s + *done, n - *done);
        if (w == -EINTR)
            continue;
        if (w == -EAGAIN && *budget_ms > 0) {
            struct pollfd p = {fd, POLLOUT, 0};
            struct timespec t = {0, 100 * 1000000L};
            il_sys_ppoll(&p, 1, &t);
            *budget_ms -= 100;
            continue;
        }
        if (w < 0)
            return (int)-w;
        if (w == 0)
            return EIO;
        *done += (size_t)w;
    }
    return 0;
}

/* Write all of s; 0, or the errno that stopped it.  A slow FIFO is waited
 * on for at most two seconds. */
int
il_write_all(int fd, const char *s, size_t n)
{
    size_t done;
    int budget = IL_WRITE_WAIT_MS;
    return il_write_upto(fd, s, n, &done, &budget);
}

/* One line on stderr: "interloper: " a b c "\n", with one write(2);
 * a warning, which INTERLOPER_QUIET (interloper run -q) silences.  The
 * record keeps every fact a warning states. */
void
il_msg(const char *a, const char *b, const char *c)
{
    il_warn(0, a, b, c);
}

/* A warning, or, where stops, why the library stops the program, which is
 * said under INTERLOPER_QUIET too (review11c). */
void
il_warn(int stops, const char *a, const char *b, const char *c)
{
    if (stops || !il.cfg.quiet)
        il_say(a, b, c);
}

/* Take the signals of mask that our own writes raised: pending now, not
 * in before (what was pending before them), so that they never reach the
 * program (the record's writing, output.c, and il_say). */
void
il_sig_take(il_sigset before, il_sigset mask)
{
    il_sigset now;
    if (il_sys_sigpending(&now) < 0)
        return;
    il_sigset ours = now & ~before & mask;
    struct timespec zero = {0, 0};
    while (ours && il_sys_sigtimedwait(&ours, &zero) > 0)
        ;
}

/*
 * Standard error is the file descriptor 2 was at the constructor, and
 * nothing else.  A program started with it closed (`2>&-`, as cron and
 * daemons start programs), or that closes it and opens a file of its own,
 * which then gets number 2 (open(2) returns the lowest free one), must
 * find in that file only what it wrote: no warning, summary or record of
 * ours (outside13 F2: they went into the program's data file).  So the
 * library notes the file once, with one fstat(2) as the constructor's
 * first look, and writes to descriptor 2 only while it is still that
 * file; otherwise the line is not said (the record's "errors" keep every
 * fact a warning states).
 */
void
il_note_stderr(void)
{
    struct stat st;
    if (il_sys_fstat(2, &st) < 0) {
        il.err2 = -1;
        return;
    }
    il.err2 = 1;
    il.err_dev = st.st_dev;
    il.err_ino = st.st_ino;
}

/* Is fd the file descriptor 2 was at the constructor? */
static int
is_stderr(int fd)
{
    struct stat st;
    return il_sys_fstat(fd, &st) == 0 && st.st_dev == il.err_dev && st.st_ino == il.err_ino;
}

/* Where a line for standard error goes: our copy while it is still that
 * file, else descriptor 2 while it is, else -1 (nowhere: a write to it
 * fails with EBADF and changes nothing). */
int
il_stderr_fd(void)
{
    if (il.err_fd >= 0 && is_stderr(il.err_fd))
        return il.err_fd;
    if (!il.err2)
        return 2; /* before the constructor's look: as the process was started */
    return il.err2 > 0 && is_stderr(2) ? 2 : -1;
}

/* The same line, said whatever INTERLOPER_QUIET says: why the library
 * stops the program, and the lines INTERLOPER_DEBUG asked for. */
void
il_say(const char *a, const char *b, const char *c)
{
    char line[IL_ERROR_MAX + IL_ERRSHORT + 64];
    size_t n = 0;
    const char *parts[] = {"interloper: ", a, b, c};
    for (int i = 0; i < 4; i++) {
        if (!parts[i])
            continue;
        size_t l = strlen(parts[i]);
        if (l > sizeof line - 2 - n)
            l = sizeof line - 2 - n;
        memcpy(line + n, parts[i], l);
        n += l;
    }
    line[n++] = '\n';
    /* a standard error that is a pipe nobody reads raises SIGPIPE: ours
     * to take, not the program's, which it would kill before main
     * (review11d): blocked around the write, and one it raised taken */
    int fd = il_stderr_fd();
    if (fd < 0)
        return; /* closed, or now a file of the program's (output.c) */
    il_sigset pipe = IL_SIGBIT(SIGPIPE), old, before = 0;
    il_sys_sigprocmask(SIG_BLOCK, &pipe, &old);
    il_sys_sigpending(&before);
    il_write_all(fd, line, n);
    il_sig_take(before, pipe);
    il_sys_sigprocmask(SIG_SETMASK, &old, NULL);
}

void
il_debug(const char *a, const char *b, const char *c)
{
    if (!il.cfg.debug)
        return;
    char line[IL_ERROR_MAX];
    char *p = il_cat(line, "debug[");
    p = il_fmt_i64(p, il_sys_getpid());
    p = il_cat(p, "]: ");
    il_strlcpy(p, a ? a : "", sizeof line - (size_t)(p - line));
    il_say(line, b, c);
}

/*
 * "ENOSPC (no space left on device)": the errno's name and meaning,
 * without strerror(3), which may consult the locale and allocate.
 * buf holds at least 64 bytes.
 */
const char *
il_errname(int err, char *buf)
{
    static const struct {
        int err;
        char text[48]; /* not a pointer: no relocation at load */
    } t[] = {
        {ENOSPC, "ENOSPC (no space left on device)"},
        {EDQUOT, "EDQUOT (disk quota exceeded)"},
        {EIO, "EIO (input/output error)"},
        {EPIPE, "EPIPE (the reader has gone)"},
        {ENXIO, "ENXIO (a FIFO with no reader)"},
        {EAGAIN, "EAGAIN (the reader does not read)"},
        {EFBIG, "EFBIG (file too large)"},
        {ENOENT, "ENOENT (no such file or directory)"},
        {EACCES, "EACCES (permission denied)"},
        {EPERM, "EPERM (operation not permitted)"},
        {EROFS, "EROFS (read-only file system)"},
        {ELOOP, "ELOOP (a symbolic link, not followed here)"},
        {EISDIR, "EISDIR (is a directory)"},
        {ENOTDIR, "ENOTDIR (not a directory)"},
        {EMFILE, "EMFILE (too many open files)"},
        {ENFILE, "ENFILE (too many open files in the system)"},
        {ENAMETOOLONG, "ENAMETOOLONG (file name too long)"},
        {EBADF, "EBADF (bad file descriptor)"},
        {EINVAL, "EINVAL (invalid argument)"},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (t[i].err == err)
            return t[i].text;
    il_fmt_i64(il_cat(buf, "errno "), err);
    return buf;
}

pid_t
il_gettid(void)
{
    return (pid_t)il_sys_gettid();
}

/* The highest descriptor we place ours at: just under the descriptor
 * limit, but not above 1023 (IL_FD_MAX), so that the kernel's table does
 * not grow and select(2) users are not surprised.  A system call: before
 * main nothing asks it unless a placement at IL_FD_MAX finds the limit
 * lower (dup_high), or a backend other than perf needs it, or no counter
 * was placed where a counted-in marker may wait (il_counted_late). */
int
il_fd_top(void)
{
    struct rlimit rl;
    long lim = IL_FD_MAX + 1;
    if (il_sys_getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        (long)rl.rlim_cur < lim)
        lim = (long)rl.rlim_cur;
    return (int)lim - 1;
}

/*
 * A copy of src at the highest free number at or below top (and above
 * low), close-on-exec, so that the program's own descriptors keep the
 * numbers they would have without us; -1 if none is free up there.
 */
static int
dup_high(int src, int top, int low)
{
    for (int want = top; want > low && want > top - 64; want--) {
        /* the lowest free descriptor at or above want: want itself when
         * it is free (one system call, the common case), else one past
         * top, given back, and the next lower tried */
        long nfd = il_sys_fcntl(src, F_DUPFD_CLOEXEC, want);
        if (nfd == -EINVAL && want == top && (il.fd_top = il_fd_top()) < top) {
            /* the limit is below top: IL_FD_MAX, taken without asking it,
             * or lowered since top was taken */
            top = il.fd_top;
            if (il.counted_late) /* the counted-in marker may be at top */
                il.counted_late(0);
            want = top + 1;
            continue;
        }
        if (nfd < 0)
            return -1;
        if (nfd <= top)
            return (int)nfd;
        il_sys_close((int)nfd);
    }
    return -1;
}

/* Move one of our descriptors up there (dup_high); returns the new
 * descriptor, or fd itself if none is free up there. */
int
il_fd_place(int fd, int top)
{
    int nfd = dup_high(fd, top, fd);
    if (nfd < 0)
        return fd;
    il_sys_close(fd);
    return nfd;
}

static int
keep_top(void)
{
    /* the limit not asked yet: IL_FD_MAX, which dup_high corrects */
    return il.fd_next > 0 ? il.fd_next : il.fd_top ? il.fd_top : IL_FD_MAX;
}

static void
kept(int fd)
{
    if (fd > 0)
        il.fd_next = fd - 1;
}

/* One more descriptor of ours, placed below the ones placed before (a
 * single system call each, where the first try is free). */
int
il_fd_keep(int fd)
{
    int placed = il_fd_place(fd, keep_top());
    if (placed != fd)
        kept(placed);
    return placed;
}

/* A copy of src kept up there like il_fd_keep's, src left open: one
 * system call where the first try is free; -1 when none is free. */
int
il_fd_keep_high(int src)
{
    int fd = dup_high(src, keep_top(), src > 2 ? src : 2);
    if (fd >= 0)
        kept(fd);
    return fd;
}

/* The same, or failing that a copy anywhere above stderr; -1 when none
 * can be taken. */
int
il_fd_keep_dup(int src)
{
    int fd = il_fd_keep_high(src);
    if (fd >= 0)
        return fd;
    long low = il_sys_fcntl(src, F_DUPFD_CLOEXEC, 3);
    return low < 0 ? -1 : (int)low;
}

/* UTC "YYYY-MM-DDTHH:MM:SSZ" without gmtime_r, which may read the time
 * zone database and allocate. Civil-from-days after H. Hinnant.  Returns
 * the end (the NUL). */
char *
il_iso8601(const struct timespec *ts, char out[32])
{
    int64_t s = ts->tv_sec;
    int64_t days = s / 86400, rem = s % 86400;
    if (rem < 0) {
        rem += 86400;
        days--;
    }
    int64_t z = days + 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    /* within an era all is small and not negative: 32-bit unsigned
     * arithmetic, whose divisions by constants are the shortest */
    uint32_t doe = (uint32_t)(z - era * 146097); /* [0, 146096] */
    uint32_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t y = (int64_t)yoe + era * 400;
    uint32_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    uint32_t mp = (5 * doy + 2) / 153;
    uint32_t d = doy - (153 * mp + 2) / 5 + 1;
    uint32_t m = mp < 10 ? mp + 3 : mp - 9;
    if (m <= 2)
        y++;
    char *p = out;
    if (y < 0 || y > 9999) { /* not a four-digit year: as it is */
        p = il_fmt_i64(p, y);
    } else {
        uint32_t yy = (uint32_t)y;
        __builtin_memcpy(p, il_digit_pairs + 2 * (yy / 100), 2);
        __builtin_memcpy(p + 2, il_digit_pairs + 2 * (yy % 100), 2);
        p += 4;
    }
    uint32_t r = (uint32_t)rem; /* [0, 86399] */
    const uint32_t f[5] = {m, d, r / 3600, r % 3600 / 60, r % 60};
    static const char sep[6] = "-T::Z";
    *p++ = '-';
    for (int i = 0; i < 5; i++) {
        __builtin_memcpy(p, il_digit_pairs + 2 * f[i], 2);
        p[2] = sep[i];
        p += 3;
    }
    *p = 0;
    return p;
}

uint64_t
il_ts_ns(const struct timespec *a, const struct timespec *b)
{
    int64_t ns = (int64_t)(b->tv_sec - a->tv_sec) * 1000000000 + (b->tv_nsec - a->tv_nsec);
    return ns > 0 ? (uint64_t)ns : 0;
}

uint64_t
il_tv_ns(const struct timeval *tv)
{
    return (uint64_t)tv->tv_sec * 1000000000u + (uint64_t)tv->tv_usec * 1000u;
}

/*
 * Copy n bytes of src to dst as valid UTF-8, replacing every byte that is
 * not part of a well-formed sequence with U+FFFD.  Command lines and host
 * names are bytes, but JSON strings must be Unicode.  Returns the length.
 */
size_t
il_utf8_sanitize(const char *src, size_t n, char *dst, size_t dstsz)
{
    const unsigned char *s = (const unsigned char *)src;
    size_t i = 0, o = 0;
    while (i < n && o + 4 < dstsz) {
        unsigned c = s[i];
        size_t len = 0;
        unsigned min = 0;
        if (c < 0x80)
            len = 1;
        else if (c >= 0xc2 && c <= 0xdf)
            len = 2, min = 0x80;
        else if (c >= 0xe0 && c <= 0xef)
            len = 3, min = 0x800;
        else if (c >= 0xf0 && c <= 0xf4)
            len = 4, min = 0x10000;
        int good = len > 0 && i + len <= n;
        unsigned cp = len == 1 ? c : (c & (0x7f >> len));
        for (size_t k = 1; good && k < len; k++) {
            if ((s[i + k] & 0xc0) != 0x80)
                good = 0;
            cp = (cp << 6) | (s[i + k] & 0x3f);
        }
        if (good && len > 1 && (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)))
            good = 0;
        if (good) {
            memcpy(dst + o, s + i, len);
            o += len;
            i += len;
        } else {
            memcpy(dst + o, "\xef\xbf\xbd", 3);
            o += 3;
            i++;
        }
    }
    dst[o] = 0;
    return o;
}

/* A problem found after the configuration was parsed, for the record. */
void
il_late_error(const char *a, const char *b)
{
    if (il.nlate >= IL_LATE_MAX)
        return;
    char *p = il.late_errors[il.nlate++];
    size_t n = il_strlcpy(p, a, IL_ERROR_MAX);
    if (n < IL_ERROR_MAX)
        il_strlcpy(p + n, b, IL_ERROR_MAX - n);
}

/* getenv(3) over a given environment: not on the signal-safe list, and
 * the finish path may need the variables before our constructor ran. */
const char *
il_getenv(char *const *env, const char *name)
{
    size_t n = strlen(name);
    for (; env && *env; env++)
        if (!strncmp(*env, name, n) && (*env)[n] == '=')
            return *env + n + 1;
    return NULL;
}

/* For a thread that must not end the process its own way, because
 * another thread is ending it (finish.c). */
void
il_block_forever(void)
{
    /* with every signal blocked: a signal sent to the process then goes
     * to the ender, or to a thread still running the program, never to
     * one that can only wait here */
    il_sigset all = IL_SIGALL;
    il_sys_sigprocmask(SIG_BLOCK, &all, NULL);
    for (;;)
        il_sys_ppoll(NULL, 0, NULL);
}

/* The first n-1 bytes of a small file, NUL-terminated: their count, or -1
 * if unreadable. */
int
il_read_small(const char *path, char *b, size_t n)
{
    long fd = il_sys_open(path, O_RDONLY | O_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    long r = il_sys_read((int)fd, b, n - 1);
    il_sys_close((int)fd);
    if (r < 0)
        return -1;
    b[r] = 0;
    return (int)r;
}

/*
 * Map the pages of [from, to) writable now, with one madvise
 * (MADV_POPULATE_WRITE, Linux 5.14): the library's own memory then costs
 * no page fault the program's counters would count (the kernel counts
 * page-fault events only for faults taken by the program's instructions).
 * On older kernels nothing happens, and the pages fault as they are used.
 */
void
il_populate(const void *from, const void *to)
{
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
    uintptr_t a = (uintptr_t)from & ~(uintptr_t)4095;
    uintptr_t b = ((uintptr_t)to + 4095) & ~(uintptr_t)4095;
    IL_SC(SYS_madvise, a, b - a, MADV_POPULATE_WRITE);
}

/*
 * The auxiliary vector: on the initial stack, after the environment's
 * terminating NULL.  In a set-user-ID program ld.so has unset variables
 * in place (LD_PRELOAD and the like), which shifts the array down and
 * leaves as many NULLs again before the vector: skip them (the vector
 * never starts with AT_NULL).  envp must be the initial one.
 */
const unsigned long *
il_auxv(char **envp)
{
    if (!envp)
        return NULL;
    char **e = envp;
    while (*e)
        e++;
    while (!*e)
        e++;
    return (const unsigned long *)e;
}

/* The auxiliary vector's entry of this type (il.auxv), or dflt. */
unsigned long
il_auxval(unsigned long type, unsigned long dflt)
{
    for (const unsigned long *a = il.auxv; a && a[0] != AT_NULL; a += 2)
        if (a[0] == type)
            return a[1];
    return dflt;
}
