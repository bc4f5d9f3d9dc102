/*
 * util.c: small async-signal-safe helpers.  Nothing here allocates, takes
 * a lock or touches stdio, because the finish path may run in a signal
 * handler or inside _exit().
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "il.h"

/* The one instance of the interposer's state (il.h).  Defined here, with
 * the helpers every part links, so that the tools can share the code.
 * Zero-initialised, so it lives in .bss and only the pages touched cost a
 * page fault; out_fd is set to -1 by the constructor. */
struct il_state il;

size_t
il_strlcpy(char *dst, const char *src, size_t n)
{
    size_t len = strlen(src);
    if (n) {
        size_t c = len < n - 1 ? len : n - 1;
        memcpy(dst, src, c);
        dst[c] = 0;
    }
    return len;
}

char *
il_fmt_u64(char *p, uint64_t v)
{
    char tmp[24];
    int i = 0;
    do {
        tmp[i++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (i)
        *p++ = tmp[--i];
    *p = 0;
    return p;
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

char *
il_fmt_hex(char *p, uint64_t v)
{
    static const char hx[] = "0123456789abcdef";
    char tmp[20];
    int i = 0;
    *p++ = '0';
    *p++ = 'x';
    do {
        tmp[i++] = hx[v & 15];
        v >>= 4;
    } while (v);
    while (i)
        *p++ = tmp[--i];
    *p = 0;
    return p;
}

char *
il_cat(char *p, const char *s)
{
    while (*s)
        *p++ = *s++;
    *p = 0;
    return p;
}

/* Write all of s; 0, or the errno that stopped it. */
int
il_write_all(int fd, const char *s, size_t n)
{
    while (n) {
        ssize_t w = write(fd, s, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return errno;
        }
        s += w;
        n -= (size_t)w;
    }
    return 0;
}

/* One line on stderr: "interloper: " a b c "\n", with one write(2). */
void
il_msg(const char *a, const char *b, const char *c)
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
    int saved = errno;
    il_write_all(2, line, n);
    errno = saved;
}

void
il_debug(const char *a, const char *b, const char *c)
{
    if (il.cfg.debug) {
        char pre[48];
        char *p = il_cat(pre, "debug[");
        p = il_fmt_i64(p, getpid());
        il_cat(p, "]: ");
        char line[IL_ERROR_MAX];
        p = il_cat(line, pre);
        size_t room = sizeof line - (size_t)(p - line) - 1;
        il_strlcpy(p, a ? a : "", room);
        il_msg(line, b, c);
    }
}

pid_t
il_gettid(void)
{
    return (pid_t)syscall(SYS_gettid);
}

long
il_sys_perf_event_open(struct perf_event_attr *a, pid_t pid, int cpu, int group,
                       unsigned long flags)
{
    return syscall(SYS_perf_event_open, a, pid, cpu, group, flags);
}

/*
 * Move one of our descriptors out of the program's way, so that the
 * program's first open() still returns 3, as it would without us.  The
 * target is just under min(RLIMIT_NOFILE, 1024): high enough that no sane
 * program has it open, low enough not to grow the kernel's fd table.
 */
int
il_move_fd_high(int fd)
{
    struct rlimit rl;
    long lim = 1024;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        (long)rl.rlim_cur < lim)
        lim = (long)rl.rlim_cur;
    long floor = lim > 128 ? lim - 64 : lim / 2;
    if (floor <= fd)
        return fd;
    int nfd = fcntl(fd, F_DUPFD_CLOEXEC, (int)floor);
    if (nfd < 0)
        return fd;
    close(fd);
    return nfd;
}

/* UTC "YYYY-MM-DDTHH:MM:SSZ" without gmtime_r, which may read the time
 * zone database and allocate. Civil-from-days after H. Hinnant. */
void
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
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t y = yoe + era * 400;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    int64_t d = doy - (153 * mp + 2) / 5 + 1;
    int64_t m = mp < 10 ? mp + 3 : mp - 9;
    if (m <= 2)
        y++;
    int64_t f[6] = {y, m, d, rem / 3600, rem % 3600 / 60, rem % 60};
    const char sep[6] = {'-', '-', 'T', ':', ':', 'Z'};
    char *p = out;
    for (int i = 0; i < 6; i++) {
        int w = i == 0 ? 4 : 2;
        char tmp[24];
        il_fmt_i64(tmp, f[i]);
        for (int k = (int)strlen(tmp); k < w; k++)
            *p++ = '0';
        p = il_cat(p, tmp);
        *p++ = sep[i];
    }
    *p = 0;
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
    if (il.nlate >= (int)(sizeof il.late_errors / sizeof il.late_errors[0]))
        return;
    char *p = il.late_errors[il.nlate++];
    size_t n = il_strlcpy(p, a, IL_ERROR_MAX);
    if (n < IL_ERROR_MAX)
        il_strlcpy(p + n, b, IL_ERROR_MAX - n);
}
