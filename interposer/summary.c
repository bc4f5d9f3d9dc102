/*
 * summary.c: the perf-stat-like summary (il_summary.h), written by the
 * library at the end of an image that interloper run started, and by
 * interloper record summary from a record.  One formatter, so both say
 * the same things in the same words.  Async-signal-safe.
 */
#include <string.h>

#include "il.h"
#include "il_summary.h"
#include "sys.h"

/* The text so far: p the next byte, end the last byte that may hold text
 * (one is kept for the NUL). */
struct line {
    char *p, *end;
};

/* n bytes of s, as many as fit (short pieces: word moves, not a call to
 * memcpy or the compiler's rep movsb); inline: the summary is some forty
 * of them, in every process interloper run starts */
static inline __attribute__((always_inline)) void
add_n(struct line *l, const char *s, size_t n)
{
    if (n > (size_t)(l->end - l->p))
        n = (size_t)(l->end - l->p);
    il_copy_short(l->p, s, n);
    l->p += n;
}

static inline __attribute__((always_inline)) void
add(struct line *l, const char *s)
{
    add_n(l, s, strlen(s));
}

/* a string literal, its length known at compile time: copied whole as
 * fixed moves where it fits */
#define ADD(l, lit)                                                                                \
    do {                                                                                           \
        if (sizeof(lit) - 1 <= (size_t)((l)->end - (l)->p)) {                                      \
            __builtin_memcpy((l)->p, "" lit, sizeof(lit) - 1);                                     \
            (l)->p += sizeof(lit) - 1;                                                             \
        } else {                                                                                   \
            add_n((l), "" lit, sizeof(lit) - 1);                                                   \
        }                                                                                          \
    } while (0)

/* n spaces, as many as fit */
static void
add_spaces(struct line *l, size_t n)
{
    static const char spaces[] = "                                ";
    while (n) {
        size_t m = n < sizeof spaces - 1 ? n : sizeof spaces - 1;
        add_n(l, spaces, m);
        n -= m;
    }
}

/* k bytes of s, right-aligned (left: left-aligned) in width columns */
static void
add_pad_n(struct line *l, const char *s, size_t k, size_t width, int left)
{
    size_t pad = k < width ? width - k : 0;
    if (width <= 32 && (size_t)(l->end - l->p) >= 32 + k) {
        /* room for all: 32 spaces stored at once, then moved past */
        static const char spaces[] = "                                ";
        char *q = l->p;
        if (left) {
            il_copy_short(q, s, k);
            q += k;
        }
        __builtin_memcpy(q, spaces, 32);
        q += pad;
        if (!left) {
            il_copy_short(q, s, k);
            q += k;
        }
        l->p = q;
        return;
    }
    if (left)
        add_n(l, s, k);
    add_spaces(l, pad);
    if (!left)
        add_n(l, s, k);
}

static void
add_pad(struct line *l, const char *s, size_t width, int left)
{
    add_pad_n(l, s, strlen(s), width, left);
}

/* a number (signed: negative as a minus and its magnitude), formatted
 * in place where it fits (with the NUL the formatters write after it) */
static void
add_int(struct line *l, uint64_t v, int neg)
{
    char b[24];
    char *p = l->end - l->p >= 24 ? l->p : b, *q = p;
    if (neg) {
        *q++ = '-';
        v = (uint64_t)0 - v;
    }
    q = il_fmt_u64(q, v);
    if (p == l->p)
        l->p = q;
    else
        add_n(l, b, (size_t)(q - b));
}
static void
add_num(struct line *l, uint64_t v)
{
    add_int(l, v, 0);
}

static void
add_i64(struct line *l, int64_t v)
{
    add_int(l, (uint64_t)v, v < 0);
}

/* 1234567 -> "1,234,567"; returns the end */
static char *
grouped(uint64_t v, char out[32])
{
    char d[24];
    size_t n = (size_t)(il_fmt_u64(d, v) - d), o = 0, next = n % 3 ? n % 3 : 3;
    for (size_t i = 0; i < n; i++) {
        if (i == next) {
            out[o++] = ',';
            next += 3;
        }
        out[o++] = d[i];
    }
    out[o] = 0;
    return out + o;
}

/* v / 10^places with `places` decimals, rounded down: "0.001234567";
 * returns the end */
static char *
fixed(uint64_t v, int places, char out[40])
{
    /* v's digits once, the point put in: "0." and zeros before them when
     * there are no more than places */
    char d[24];
    int n = (int)(il_fmt_u64(d, v) - d), k = n - places;
    char *p = out;
    if (k > 0) {
        il_copy_short(p, d, (size_t)k);
        p += k;
    } else {
        *p++ = '0';
    }
    *p++ = '.';
    if (k < 0) { /* at most places - 1 zeros, below 16: out has room for all */
        __builtin_memcpy(p, "0000000000000000", 16);
        p -= k;
        k = 0;
    }
    int frac = n < places ? n : places; /* the digits after the zeros */
    il_copy_short(p, d + n - frac, (size_t)frac);
    p += frac;
    *p = 0;
    return p;
}

/* v / div rounded to `places` decimals, by long division (no 128-bit
 * arithmetic, which would call libgcc): "949.08"; returns the end */
static char *
rounded(uint64_t v, uint64_t div, int places, char out[40])
{
    uint64_t q = v / div, rem = v % div, digits = 0, scale = 1;
    for (int i = 0; i < places; i++) {
        rem *= 10; /* rem < div, so no overflow while div < 2^64 / 10 */
        digits = digits * 10 + rem / div;
        rem %= div;
        scale *= 10;
    }
    if (rem >= div - rem) { /* rem / div >= 1/2: round up */
        if (++digits == scale) {
            digits = 0;
            q++;
        }
    }
    return fixed(q * scale + digits, places, out);
}

/* perf's clock events count nanoseconds; perf stat prints them in msec */
static int
is_ns_event(const char *name)
{
    static const char ns[][12] = {"task-clock", "cpu-clock"};
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
        const char *a = name, *b = ns[k];
        while (*a && *a == *b)
            a++, b++;
        if (!*a && !*b)
            return 1;
    }
    return 0;
}

static void
add_seconds(struct line *l, uint64_t ns, const char *what, size_t n)
{
    char b[40];
    size_t k = (size_t)(fixed(ns, 9, b) - b);
    ADD(l, "  ");
    add_pad_n(l, b, k, 18, 0);
    add_n(l, what, n);
}
#define ADD_SECONDS(l, ns, lit) add_seconds((l), (ns), "" lit, sizeof(lit) - 1)

size_t
il_summary_format(const struct il_summary *s, char *buf, size_t cap)
{
    if (!cap)
        return 0;
    struct line l = {buf, buf + cap - 1};
    char a[40], b[40];
    ADD(&l, "\n Performance counter stats for '");
    char *start = l.p;
    for (int i = 0; i < s->argc && s->argv && s->argv[i]; i++) {
        if (i)
            ADD(&l, " ");
        add(&l, s->argv[i]);
        if (l.p - start > 120) {
            ADD(&l, " ...");
            break;
        }
    }
    ADD(&l, "' (pid ");
    add_i64(&l, s->pid);
    ADD(&l, ", ");
    add(&l, s->how ? s->how : "?");
    if (s->has_status || s->signal) {
        ADD(&l, " ");
        add_i64(&l, s->has_status ? s->status : s->signal);
    }
    ADD(&l, ", backend ");
    add(&l, s->backend ? s->backend : "?");
    ADD(&l, "):\n\n");
    for (int i = 0; i < s->nev; i++) {
        const struct il_summary_event *e = &s->ev[i];
        int ns = is_ns_event(e->name);
        ADD(&l, "  ");
        if (e->counted && ns) {
            add_pad_n(&l, a, (size_t)(rounded(e->value, 1000000u, 2, a) - a), 18, 0);
            ADD(&l, " msec ");
        } else if (e->counted) {
            add_pad_n(&l, a, (size_t)(grouped(e->value, a) - a), 18, 0);
            ADD(&l, "      ");
        } else {
            add_pad(&l, "<not counted>", 18, 0);
            ADD(&l, "      ");
        }
        add_pad(&l, e->name, 24, 1);
        const char *sep = " # ";
        if (e->counted && ns && s->has_times && s->wall_ns) {
            /* perf stat's "CPUs utilized": the event's time over the wall's */
            size_t k = (size_t)(rounded(e->value, s->wall_ns, 3, a) - a);
            add(&l, sep);
            add_n(&l, a, k);
            ADD(&l, " CPUs utilized");
            sep = ", ";
        }
        if (e->counted && e->has_floor) {
            add(&l, sep);
            ADD(&l, "floor ");
            if (ns) {
                add_n(&l, b, (size_t)(rounded(e->floor, 1000u, 2, b) - b));
                ADD(&l, " usec");
            } else {
                add_n(&l, b, (size_t)(grouped(e->floor, b) - b));
            }
        }
        if (e->counted && e->has_times && e->enabled && e->running < e->enabled) {
            size_t k = (size_t)(fixed(e->running * 10000 / e->enabled, 2, a) - a);
            ADD(&l, "  (");
            add_n(&l, a, k);
            ADD(&l, "% running, multiplexed)");
        }
        if (!e->counted) {
            ADD(&l, " # ");
            add(&l, e->error ? e->error : "not counted");
        }
        ADD(&l, "\n");
    }
    if (s->has_times) {
        ADD(&l, "\n");
        ADD_SECONDS(&l, s->wall_ns, " seconds time elapsed\n");
        ADD_SECONDS(&l, s->user_ns, " seconds user\n");
        ADD_SECONDS(&l, s->sys_ns, " seconds sys\n");
    }
    if (s->maxrss_kib >= 0) {
        size_t k = (size_t)(il_fmt_i64(a, s->maxrss_kib) - a);
        ADD(&l, "  ");
        add_pad_n(&l, a, k, 18, 0);
        ADD(&l, " KiB maximum resident set\n");
    }
    if (s->has_ctx) {
        size_t k = (size_t)(il_fmt_u64(a, s->ctx_voluntary) - a);
        ADD(&l, "  ");
        add_pad_n(&l, a, k, 18, 0);
        ADD(&l, " voluntary and ");
        add_num(&l, s->ctx_involuntary);
        ADD(&l, " involuntary context switches\n");
    }
    if (s->has_setup) {
        ADD(&l, "\n  setup: env ");
        add_num(&l, s->env_bytes);
        ADD(&l, " bytes in ");
        add_num(&l, s->env_vars);
        ADD(&l, " variables, argv ");
        add_num(&l, s->argv_bytes);
        if (s->aslr)
            ADD(&l, " bytes, ASLR on");
        else
            ADD(&l, " bytes, ASLR off");
        if (s->cpus) {
            ADD(&l, ", CPUs ");
            add(&l, s->cpus);
        }
        ADD(&l, ",\n         main_sp ");
        add(&l, s->main_sp ? s->main_sp : "?");
        ADD(&l, " (offset ");
        add_num(&l, s->stack_offset);
        if (s->stack_pinned)
            ADD(&l, ", pinned");
        if (s->main_entry) {
            ADD(&l, ", entry ");
            add(&l, s->main_entry);
        }
        ADD(&l, "), heap_start ");
        add(&l, s->heap_start ? s->heap_start : "?");
        ADD(&l, " (offset ");
        add_num(&l, s->heap_offset);
        ADD(&l, ")\n");
    }
    for (int i = 0; i < s->nerrors; i++) {
        ADD(&l, "  error: ");
        add(&l, s->errors[i]);
        ADD(&l, "\n");
    }
    *l.p = 0;
    return (size_t)(l.p - buf);
}
