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

static void
add(struct line *l, const char *s)
{
    while (*s && l->n + 1 < l->cap)
        l->b[l->n++] = *s++;
    l->b[l->n] = 0;
}

static void
add_pad(struct line *l, const char *s, size_t width, int left)
{
    size_t k = strlen(s);
    if (left)
        add(l, s);
    for (; k < width; k++)
        add(l, " ");
    if (!left)
        add(l, s);
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
        *p++ = (char)('0' + (unit ? frac / unit : 0));
        if (unit)
            frac %= unit;
    }
    *p = 0;
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
    add(l, "  ");
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
    add(&l, "\n Performance counter stats for '");
    size_t start = l.n;
    for (int i = 0; i < s->argc && s->argv && s->argv[i]; i++) {
        if (i)
            add(&l, " ");
        add(&l, s->argv[i]);
        if (l.n - start > 120) {
            add(&l, " ...");
            break;
        }
    }
    add(&l, "' (pid ");
    il_fmt_i64(a, s->pid);
    add(&l, a);
    add(&l, ", ");
    add(&l, s->how ? s->how : "?");
    if (s->has_status || s->signal) {
        il_fmt_i64(a, s->has_status ? s->status : s->signal);
        add(&l, " ");
        add(&l, a);
    }
    add(&l, ", backend ");
    add(&l, s->backend ? s->backend : "?");
    add(&l, "):\n\n");
    for (int i = 0; i < s->nev; i++) {
        const struct il_summary_event *e = &s->ev[i];
        int ns = is_ns_event(e->name);
        add(&l, "  ");
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
            add(&l, " CPUs utilized");
            sep = ", ";
        }
        if (e->counted && e->has_floor) {
            add(&l, sep);
            add(&l, "floor ");
            if (ns) {
                rounded(e->floor, 1000u, 2, b);
                add(&l, b);
                add(&l, " usec");
            } else {
                grouped(e->floor, b);
                add(&l, b);
            }
        }
        if (e->counted && e->has_times && e->enabled && e->running < e->enabled) {
            fixed(e->running * 10000 / e->enabled, 100, 2, a);
            add(&l, "  (");
            add(&l, a);
            add(&l, "% running, multiplexed)");
        }
        if (!e->counted) {
            add(&l, " # ");
            add(&l, e->error ? e->error : "not counted");
        }
        add(&l, "\n");
    }
    if (s->has_times) {
        add(&l, "\n");
        add_seconds(&l, s->wall_ns, " seconds time elapsed\n");
        add_seconds(&l, s->user_ns, " seconds user\n");
        add_seconds(&l, s->sys_ns, " seconds sys\n");
    }
    if (s->maxrss_kib >= 0) {
        il_fmt_i64(a, s->maxrss_kib);
        add(&l, "  ");
        add_pad(&l, a, 18, 0);
        add(&l, " KiB maximum resident set\n");
    }
    if (s->has_ctx) {
        il_fmt_u64(a, s->ctx_voluntary);
        add(&l, "  ");
        add_pad(&l, a, 18, 0);
        add(&l, " voluntary and ");
        add_num(&l, s->ctx_involuntary);
        add(&l, " involuntary context switches\n");
    }
    if (s->has_setup) {
        add(&l, "\n  setup: env ");
        add_num(&l, s->env_bytes);
        add(&l, " bytes in ");
        add_num(&l, s->env_vars);
        add(&l, " variables, argv ");
        add_num(&l, s->argv_bytes);
        add(&l, s->aslr ? " bytes, ASLR on" : " bytes, ASLR off");
        if (s->cpus) {
            add(&l, ", CPUs ");
            add(&l, s->cpus);
        }
        add(&l, ",\n         main_sp ");
        add(&l, s->main_sp ? s->main_sp : "?");
        add(&l, " (offset ");
        add_num(&l, s->stack_offset);
        add(&l, s->stack_pinned ? ", pinned" : "");
        if (s->main_entry) {
            add(&l, ", entry ");
            add(&l, s->main_entry);
        }
        add(&l, "), heap_start ");
        add(&l, s->heap_start ? s->heap_start : "?");
        add(&l, " (offset ");
        add_num(&l, s->heap_offset);
        add(&l, ")\n");
    }
    for (int i = 0; i < s->nerrors; i++) {
        add(&l, "  error: ");
        add(&l, s->errors[i]);
        add(&l, "\n");
    }
    return l.n;
}
