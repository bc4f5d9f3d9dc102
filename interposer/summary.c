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

struct line {
    char *b;
    size_t n, cap;
};

/* n bytes of s, as many as fit (one copy, not a byte at a time: the
 * library formats a summary at the end of every interloper run) */
static void
add_n(struct line *l, const char *s, size_t n)
{
    if (n > l->cap - 1 - l->n)
        n = l->cap - 1 - l->n;
    memcpy(l->b + l->n, s, n);
    l->n += n;
    l->b[l->n] = 0;
}

static void
add(struct line *l, const char *s)
{
    add_n(l, s, strlen(s));
}

/* a string literal, its length known at compile time */
#define ADD(l, lit) add_n((l), "" lit, sizeof(lit) - 1)

static void
add_pad(struct line *l, const char *s, size_t width, int left)
{
    static const char spaces[] = "                                ";
    size_t k = strlen(s), pad = k < width ? width - k : 0;
    if (left)
        add_n(l, s, k);
    while (pad) {
        size_t m = pad < sizeof spaces - 1 ? pad : sizeof spaces - 1;
        add_n(l, spaces, m);
        pad -= m;
    }
    if (!left)
        add_n(l, s, k);
}

static void
add_num(struct line *l, uint64_t v)
{
    char b[24];
    il_fmt_u64(b, v);
    add(l, b);
}

/* 1234567 -> "1,234,567" */
static void
grouped(uint64_t v, char out[32])
{
    char d[24];
    il_fmt_u64(d, v);
    size_t n = strlen(d), o = 0;
    for (size_t i = 0; i < n; i++) {
        if (i && (n - i) % 3 == 0)
            out[o++] = ',';
        out[o++] = d[i];
    }
    out[o] = 0;
}

/* v / div with `places` decimals, rounded down: "0.001234567" */
static void
fixed(uint64_t v, uint64_t div, int places, char out[40])
{
    char *p = il_fmt_u64(out, v / div);
    *p++ = '.';
    uint64_t frac = v % div, unit = div;
    for (int i = 0; i < places; i++) {
        unit /= 10;
        p[i] = (char)('0' + (unit ? frac / unit : 0));
        if (unit)
            frac %= unit;
    }
    p[places] = 0;
}

/* v / div rounded to `places` decimals, by long division (no 128-bit
 * arithmetic, which would call libgcc): "949.08" */
static void
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
    fixed(q * scale + digits, scale, places, out);
}

/* perf's clock events count nanoseconds; perf stat prints them in msec */
static int
is_ns_event(const char *name)
{
    static const char *const ns[] = {"task-clock", "cpu-clock"};
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
add_seconds(struct line *l, uint64_t ns, const char *what)
{
    char b[40];
    fixed(ns, 1000000000u, 9, b);
    ADD(l, "  ");
    add_pad(l, b, 18, 0);
    add(l, what);
}

size_t
il_summary_format(const struct il_summary *s, char *buf, size_t cap)
{
    struct line l = {buf, 0, cap};
    char a[40], b[40];
    if (!cap)
        return 0;
    buf[0] = 0;
    ADD(&l, "\n Performance counter stats for '");
    size_t start = l.n;
    for (int i = 0; i < s->argc && s->argv && s->argv[i]; i++) {
        if (i)
            ADD(&l, " ");
        add(&l, s->argv[i]);
        if (l.n - start > 120) {
            ADD(&l, " ...");
            break;
        }
    }
    ADD(&l, "' (pid ");
    il_fmt_i64(a, s->pid);
    add(&l, a);
    ADD(&l, ", ");
    add(&l, s->how ? s->how : "?");
    if (s->has_status || s->signal) {
        il_fmt_i64(a, s->has_status ? s->status : s->signal);
        ADD(&l, " ");
        add(&l, a);
    }
    ADD(&l, ", backend ");
    add(&l, s->backend ? s->backend : "?");
    ADD(&l, "):\n\n");
    for (int i = 0; i < s->nev; i++) {
        const struct il_summary_event *e = &s->ev[i];
        int ns = is_ns_event(e->name);
        ADD(&l, "  ");
        if (e->counted && ns) {
            rounded(e->value, 1000000u, 2, a);
            add_pad(&l, a, 18, 0);
        } else if (e->counted) {
            grouped(e->value, a);
            add_pad(&l, a, 18, 0);
        } else {
            add_pad(&l, "<not counted>", 18, 0);
        }
        add(&l, ns && e->counted ? " msec " : "      ");
        add_pad(&l, e->name, 24, 1);
        const char *sep = " # ";
        if (e->counted && ns && s->has_times && s->wall_ns) {
            /* perf stat's "CPUs utilized": the event's time over the wall's */
            rounded(e->value, s->wall_ns, 3, a);
            add(&l, sep);
            add(&l, a);
            ADD(&l, " CPUs utilized");
            sep = ", ";
        }
        if (e->counted && e->has_floor) {
            add(&l, sep);
            ADD(&l, "floor ");
            if (ns) {
                rounded(e->floor, 1000u, 2, b);
                add(&l, b);
                ADD(&l, " usec");
            } else {
                grouped(e->floor, b);
                add(&l, b);
            }
        }
        if (e->counted && e->has_times && e->enabled && e->running < e->enabled) {
            fixed(e->running * 10000 / e->enabled, 100, 2, a);
            ADD(&l, "  (");
            add(&l, a);
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
        add_seconds(&l, s->wall_ns, " seconds time elapsed\n");
        add_seconds(&l, s->user_ns, " seconds user\n");
        add_seconds(&l, s->sys_ns, " seconds sys\n");
    }
    if (s->maxrss_kib >= 0) {
        il_fmt_i64(a, s->maxrss_kib);
        ADD(&l, "  ");
        add_pad(&l, a, 18, 0);
        ADD(&l, " KiB maximum resident set\n");
    }
    if (s->has_ctx) {
        il_fmt_u64(a, s->ctx_voluntary);
        ADD(&l, "  ");
        add_pad(&l, a, 18, 0);
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
        add(&l, s->aslr ? " bytes, ASLR on" : " bytes, ASLR off");
        if (s->cpus) {
            ADD(&l, ", CPUs ");
            add(&l, s->cpus);
        }
        ADD(&l, ",\n         main_sp ");
        add(&l, s->main_sp ? s->main_sp : "?");
        ADD(&l, " (offset ");
        add_num(&l, s->stack_offset);
        add(&l, s->stack_pinned ? ", pinned" : "");
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
    return l.n;
}
