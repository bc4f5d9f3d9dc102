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

/*
 * Room checks.  The event lines and the tail are each written by one
 * inline body in two copies (chk a constant): unchecked where the line
 * has room for the most that body can write (EVENT_ROOM, TAIL_ROOM, with
 * the lengths of its strings; the inline helpers' block moves write up to
 * 32 bytes past the text, counted in), checked otherwise, where every
 * piece is cut to fit as before.  The text is the same either way; the
 * checks were about 200 of run's summary's 2,100 instructions.
 */
/* a string literal, its length known at compile time: copied whole as
 * fixed moves where it fits (chk: where it is not known to) */
#define ADDC(l, lit, chk)                                                                          \
    do {                                                                                           \
        if (!(chk) || sizeof(lit) - 1 <= (size_t)((l)->end - (l)->p)) {                            \
            __builtin_memcpy((l)->p, "" lit, sizeof(lit) - 1);                                     \
            (l)->p += sizeof(lit) - 1;                                                             \
        } else {                                                                                   \
            add_n((l), "" lit, sizeof(lit) - 1);                                                   \
        }                                                                                          \
    } while (0)
#define ADD(l, lit) ADDC(l, lit, 1)

/* n bytes of s: all (chk 0: the room is known), or as many as fit */
static inline __attribute__((always_inline)) void
add_nc(struct line *l, const char *s, size_t n, int chk)
{
    if (chk) {
        add_n(l, s, n);
        return;
    }
    il_copy_short(l->p, s, n);
    l->p += n;
}

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

/* k bytes of s, right-aligned (left: left-aligned) in width columns,
 * where they do not all fit */
static void
add_pad_cut(struct line *l, const char *s, size_t k, size_t width, int left)
{
    size_t pad = k < width ? width - k : 0;
    if (left)
        add_n(l, s, k);
    add_spaces(l, pad);
    if (!left)
        add_n(l, s, k);
}

/* k bytes of s, right-aligned (left: left-aligned) in width columns */
static inline __attribute__((always_inline)) void
add_pad_nc(struct line *l, const char *s, size_t k, size_t width, int left, int chk)
{
    size_t pad = k < width ? width - k : 0;
    if (width <= 32 && (!chk || (size_t)(l->end - l->p) >= 32 + k)) {
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
    add_pad_cut(l, s, k, width, left);
}
#define add_pad_n(l, s, k, width, left) add_pad_nc(l, s, k, width, left, 1)

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
/* most are short and have room: formatted in place, inline */
static inline __attribute__((always_inline)) void
add_numc(struct line *l, uint64_t v, int chk)
{
    if (!chk || l->end - l->p >= 24)
        l->p = il_fmt_u64(l->p, v);
    else
        add_int(l, v, 0);
}

static inline __attribute__((always_inline)) void
add_i64(struct line *l, int64_t v)
{
    if (v >= 0 && l->end - l->p >= 24)
        l->p = il_fmt_u64(l->p, (uint64_t)v);
    else
        add_int(l, (uint64_t)v, v < 0);
}

/*
 * The numbers are written backward, from where they end (il.h's
 * il_fmt_back_u64), into a scratch buffer's tail: no count of digits
 * first, no second pass to group or to put the point in.  Each returns
 * where the text starts; it ends at the q given.
 */

/* 1234567 -> "1,234,567" */
static char *
back_grouped(char *q, uint64_t v)
{
    for (; v >= 1000; v /= 1000) {
        unsigned g = (unsigned)(v % 1000);
        q -= 4;
        q[0] = ',';
        q[1] = (char)('0' + g / 100);
        __builtin_memcpy(q + 2, il_digit_pairs + 2 * (g % 100), 2);
    }
    return il_fmt_back_u64(q, v);
}

/* x < 10^8 as its 8 digits, zero-padded, in memory order: the four
 * halves, pairs and digits split in one 64-bit word at a time (each lane
 * divided by a multiply and a shift exact for its range: /100 below
 * 43,699, /10 below 179) */
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
               "digits8 stores its lanes in memory order of a little-endian word");
static inline uint64_t
digits8(uint32_t x)
{
    uint64_t m = x / 10000 | (uint64_t)(x % 10000) << 32;
    uint64_t h = (m * 10486 >> 20) & 0x0000007F0000007FULL;
    m = h | (m - h * 100) << 16;
    h = (m * 103 >> 10) & 0x000F000F000F000FULL;
    m = h | (m - h * 10) << 8;
    return m + 0x3030303030303030ULL;
}

/* ns as seconds with 9 decimals: "0.000025888" */
static char *
back_seconds(char *q, uint64_t ns)
{
    uint32_t f = (uint32_t)(ns % 1000000000u);
    uint64_t d = digits8(f % 100000000u);
    __builtin_memcpy(q -= 8, &d, 8);
    *--q = (char)('0' + f / 100000000u);
    *--q = '.';
    return il_fmt_back_u64(q, ns / 1000000000u);
}

/* v / 10^places with `places` (1-9) decimals, rounded down:
 * "0.001234567" */
static char *
back_fixed(char *q, uint64_t v, int places)
{
    static const uint32_t p10[10] = {1,      10,      100,      1000,      10000,
                                     100000, 1000000, 10000000, 100000000, 1000000000};
    uint32_t f = (uint32_t)(v % p10[places]);
    int i = places;
    for (; i >= 2; i -= 2, f /= 100)
        __builtin_memcpy(q -= 2, il_digit_pairs + 2 * (f % 100), 2);
    if (i)
        *--q = (char)('0' + f);
    *--q = '.';
    return il_fmt_back_u64(q, v / p10[places]);
}

/* v / div rounded to `places` (1-9) decimals, by long division (no
 * 128-bit arithmetic, which would call libgcc): "949.08" */
static char *
back_rounded(char *q, uint64_t v, uint64_t div, int places)
{
    uint64_t whole = v / div, rem = v % div, digits = 0, scale = 1;
    for (int i = 0; i < places; i++) {
        rem *= 10; /* rem < div, so no overflow while div < 2^64 / 10 */
        digits = digits * 10 + rem / div;
        rem %= div;
        scale *= 10;
    }
    if (rem >= div - rem) { /* rem / div >= 1/2: round up */
        if (++digits == scale) {
            digits = 0;
            whole++;
        }
    }
    return back_fixed(q, whole * scale + digits, places);
}

/* A scratch buffer for one number: the longest, a grouped 2^64 - 1, is
 * 26 bytes; the text is written backward from NUM_END(b). */
#define NUM_CAP 40
#define NUM_END(b) ((b) + NUM_CAP)

static void
add_column_cut(struct line *l, const char *s, size_t k)
{
    ADD(l, "  ");
    add_pad_n(l, s, k, 18, 0);
}

/* "  " and then s..end right-aligned in 18 columns: the numbers' column
 * (inline: the spaces stored at once, the text over their end) */
static inline __attribute__((always_inline)) void
add_columnc(struct line *l, const char *s, const char *end, int chk)
{
    size_t k = (size_t)(end - s);
    if (k <= 18 && (!chk || l->end - l->p >= 24)) {
        __builtin_memcpy(l->p, "                        ", 24);
        il_copy_short(l->p + 20 - k, s, k);
        l->p += 20;
    } else {
        add_column_cut(l, s, k);
    }
}

/*
 * The numbers' column, its number written in place: where its text is
 * known to take at most 18 bytes (fits) and there is room, the spaces are
 * stored and the number is formatted backward from the column's end, over
 * them, with no copy; otherwise through a scratch buffer, as add_columnc.
 * BACK is the formatting call, ending its text at q.
 */
#define ADD_COLUMN_BACK(l, chk, fits, BACK)                                                        \
    do {                                                                                           \
        if ((fits) && (!(chk) || (l)->end - (l)->p >= 24)) {                                       \
            __builtin_memcpy((l)->p, "                        ", 24);                              \
            char *q = (l)->p + 20;                                                                 \
            (void)(BACK);                                                                          \
            (l)->p = q;                                                                            \
        } else {                                                                                   \
            char scratch_[NUM_CAP], *q = NUM_END(scratch_);                                        \
            add_columnc((l), (BACK), q, (chk));                                                    \
        }                                                                                          \
    } while (0)
/* below these, the texts take at most 18 bytes: 99,999,999,999,999 and
 * 99999999.999999999 seconds */
#define FITS_GROUPED 100000000000000ULL
#define FITS_SECONDS 100000000000000000ULL
#define FITS_PLAIN 1000000000000000000ULL

/* perf's clock events count nanoseconds; perf stat prints them in msec
 * (the name's length k known: no byte read past it) */
static int
is_ns_event(const char *name, size_t k)
{
    return (k == 10 && il_same_bytes(name, "task-clock", 10)) ||
           (k == 9 && il_same_bytes(name, "cpu-clock", 9));
}

static inline __attribute__((always_inline)) void
add_seconds(struct line *l, uint64_t ns, const char *what, size_t n, int chk)
{
    ADD_COLUMN_BACK(l, chk, ns < FITS_SECONDS, back_seconds(q, ns));
    add_nc(l, what, n, chk);
}
#define ADD_SECONDS(l, ns, lit, chk) add_seconds((l), (ns), "" lit, sizeof(lit) - 1, (chk))

/* More than an event's line writes but its name and error: at most 197
 * bytes and the name's (the number's column 28 with its unit 6, the name
 * and the padding block's 32, the CPUs 41, the floor 40, the
 * multiplexing 49, the newline), or 62 and the name's and the error's
 * when not counted. */
#define EVENT_ROOM 320

/* One event's line (its name namelen bytes long, ns a clock event; err
 * and its length errlen when it was not counted). */
static inline __attribute__((always_inline)) void
event_line(struct line *l, const struct il_summary *s, const struct il_summary_event *e,
           size_t namelen, int ns, const char *err, size_t errlen, int chk)
{
    char a[NUM_CAP], b[NUM_CAP];
    char *ae = NUM_END(a), *be = NUM_END(b);
    if (e->counted && ns) {
        /* at most 14 digits, the point and 2 */
        ADD_COLUMN_BACK(l, chk, 1, back_rounded(q, e->value, 1000000u, 2));
        ADDC(l, " msec ", chk);
    } else if (e->counted) {
        ADD_COLUMN_BACK(l, chk, e->value < FITS_GROUPED, back_grouped(q, e->value));
        ADDC(l, "      ", chk);
    } else {
        ADDC(l, "       <not counted>      ", chk);
    }
    add_pad_nc(l, e->name, namelen, 24, 1, chk);
    int first = 1; /* " # " before the first comment, ", " between */
    if (e->counted && ns && s->has_times && s->wall_ns) {
        /* perf stat's "CPUs utilized": the event's time over the wall's */
        char *t = back_rounded(ae, e->value, s->wall_ns, 3);
        ADDC(l, " # ", chk);
        add_nc(l, t, (size_t)(ae - t), chk);
        ADDC(l, " CPUs utilized", chk);
        first = 0;
    }
    if (e->counted && e->has_floor) {
        if (first)
            ADDC(l, " # floor ", chk);
        else
            ADDC(l, ", floor ", chk);
        if (ns) {
            char *t = back_rounded(be, e->floor, 1000u, 2);
            add_nc(l, t, (size_t)(be - t), chk);
            ADDC(l, " usec", chk);
        } else {
            char *t = back_grouped(be, e->floor);
            add_nc(l, t, (size_t)(be - t), chk);
        }
    }
    if (e->counted && e->has_times && e->enabled && e->running < e->enabled) {
        char *t = back_fixed(ae, e->running * 10000 / e->enabled, 2);
        ADDC(l, "  (", chk);
        add_nc(l, t, (size_t)(ae - t), chk);
        ADDC(l, "% running, multiplexed)", chk);
    }
    if (!e->counted) {
        ADDC(l, " # ", chk);
        add_nc(l, err, errlen, chk);
    }
    ADDC(l, "\n", chk);
}

/* More than the tail writes but its four strings: at most about 500
 * bytes (the times 122, the resident set 50, the context switches 90, the
 * setup's words and five numbers 238, each column's block move 24). */
#define TAIL_ROOM 640

/* The lengths of the tail's strings, 0 for those it does not write. */
struct tail_lens {
    size_t cpus, sp, entry, heap;
};

/* The times, the resident set, the context switches and the setup. */
static inline __attribute__((always_inline)) void
tail(struct line *l, const struct il_summary *s, const struct tail_lens *n, int chk)
{
    if (s->has_times) {
        ADDC(l, "\n", chk);
        ADD_SECONDS(l, s->wall_ns, " seconds time elapsed\n", chk);
        ADD_SECONDS(l, s->user_ns, " seconds user\n", chk);
        ADD_SECONDS(l, s->sys_ns, " seconds sys\n", chk);
    }
    if (s->maxrss_kib >= 0) {
        ADD_COLUMN_BACK(l, chk, (uint64_t)s->maxrss_kib < FITS_PLAIN,
                        il_fmt_back_u64(q, (uint64_t)s->maxrss_kib));
        ADDC(l, " KiB maximum resident set\n", chk);
    }
    if (s->has_ctx) {
        ADD_COLUMN_BACK(l, chk, s->ctx_voluntary < FITS_PLAIN, il_fmt_back_u64(q, s->ctx_voluntary));
        ADDC(l, " voluntary and ", chk);
        add_numc(l, s->ctx_involuntary, chk);
        ADDC(l, " involuntary context switches\n", chk);
    }
    if (s->has_setup) {
        ADDC(l, "\n  setup: env ", chk);
        add_numc(l, s->env_bytes, chk);
        ADDC(l, " bytes in ", chk);
        add_numc(l, s->env_vars, chk);
        ADDC(l, " variables, argv ", chk);
        add_numc(l, s->argv_bytes, chk);
        if (s->aslr)
            ADDC(l, " bytes, ASLR on", chk);
        else
            ADDC(l, " bytes, ASLR off", chk);
        if (s->cpus) {
            ADDC(l, ", CPUs ", chk);
            add_nc(l, s->cpus, n->cpus, chk);
        }
        ADDC(l, ",\n         main_sp ", chk);
        add_nc(l, s->main_sp ? s->main_sp : "?", n->sp, chk);
        ADDC(l, " (offset ", chk);
        add_numc(l, s->stack_offset, chk);
        if (s->stack_pinned)
            ADDC(l, ", pinned", chk);
        if (s->main_entry) {
            ADDC(l, ", entry ", chk);
            add_nc(l, s->main_entry, n->entry, chk);
        }
        ADDC(l, "), heap_start ", chk);
        add_nc(l, s->heap_start ? s->heap_start : "?", n->heap, chk);
        ADDC(l, " (offset ", chk);
        add_numc(l, s->heap_offset, chk);
        ADDC(l, ")\n", chk);
    }
}

size_t
il_summary_format(const struct il_summary *s, char *buf, size_t cap)
{
    if (!cap)
        return 0;
    struct line l = {buf, buf + cap - 1};
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
        size_t namelen = e->name_len ? e->name_len : strlen(e->name);
        int ns = is_ns_event(e->name, namelen);
        const char *err = NULL;
        size_t errlen = 0;
        if (!e->counted) {
            err = e->error ? e->error : "not counted";
            errlen = strlen(err);
        }
        if ((size_t)(l.end - l.p) >= EVENT_ROOM + namelen + errlen)
            event_line(&l, s, e, namelen, ns, err, errlen, 0);
        else
            event_line(&l, s, e, namelen, ns, err, errlen, 1);
    }
    struct tail_lens n = {0, 0, 0, 0};
    if (s->has_setup) {
        n.cpus = s->cpus ? strlen(s->cpus) : 0;
        n.sp = strlen(s->main_sp ? s->main_sp : "?");
        n.entry = s->main_entry ? strlen(s->main_entry) : 0;
        n.heap = strlen(s->heap_start ? s->heap_start : "?");
    }
    if ((size_t)(l.end - l.p) >= TAIL_ROOM + n.cpus + n.sp + n.entry + n.heap)
        tail(&l, s, &n, 0);
    else
        tail(&l, s, &n, 1);
    for (int i = 0; i < s->nerrors; i++) {
        ADD(&l, "  error: ");
        add(&l, s->errors[i]);
        ADD(&l, "\n");
    }
    *l.p = 0;
    return (size_t)(l.p - buf);
}
