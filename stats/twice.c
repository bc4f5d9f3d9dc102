/*
 * twice.c: the same runs given twice (outside14 H3).  A sharded sweep's
 * shards and their merge (record merge) hold the same records, and
 * `report results*.jsonl` over doc/sweep.md's file names reads both: every
 * run counted twice, the intervals narrowed by about sqrt 2, with no
 * word.  record merge finds such runs record by record (the run and
 * launch labels); here it costs nothing per record: each sweep process
 * writes one machine line at its start, with a random id of its own
 * (sweep_id) and its plan (tools/sweep.c, machine_line), and every file
 * that holds its runs as the sweep wrote them, or merged, holds that line.
 * The same sweep's start in two of the files read, or one file given
 * twice (the same device and inode), is said in one warning ([twice]); the
 * records are kept, as every warning keeps them (a file split by label
 * that kept the sweep's lines in each part holds the start twice but no
 * run twice).  One file is never said: a merge of a merged file with a
 * shard holds the start twice in one file, but not its records.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "il_stats.h"

struct il_twice {
    int *same; /* per file: the first file given that is the same file */
    int nfiles;
    struct il_strtab starts; /* "sweep_id plan" of each start read */
    int *where;              /* per start (id - 1): the file it was read in */
    size_t cap;
    /* the first pair said, and how many more */
    int a, b;
    char *what;
    size_t pairs;
};

void
il_twice_files(struct il_data *d, char **files, int nfiles)
{
    struct il_twice *t = il_xcalloc(1, sizeof *t);
    struct stat *st = il_xcalloc((size_t)nfiles + 1, sizeof *st);
    int *ok = il_xcalloc((size_t)nfiles + 1, sizeof *ok);
    t->same = il_xcalloc((size_t)nfiles + 1, sizeof *t->same);
    t->nfiles = nfiles;
    t->a = t->b = -1;
    il_strtab_init(&t->starts);
    for (int i = 0; i < nfiles; i++) {
        t->same[i] = i;
        /* the standard input ("-") is a file of its own; an unreadable
         * file is said by the reading */
        ok[i] = strcmp(files[i], "-") && stat(files[i], &st[i]) == 0;
        for (int k = 0; ok[i] && k < i; k++)
            if (ok[k] && st[k].st_dev == st[i].st_dev && st[k].st_ino == st[i].st_ino) {
                t->same[i] = k;
                if (t->a < 0) {
                    t->a = k;
                    t->b = i;
                } else {
                    t->pairs++;
                }
                break;
            }
    }
    free(st);
    free(ok);
    d->twice = t;
}

void
il_twice_line(struct il_data *d, json_t *j)
{
    struct il_twice *t = d->twice;
    const char *when = json_string_value(json_object_get(j, IL_M_WHEN));
    const char *sweep = json_string_value(json_object_get(j, IL_M_SWEEP));
    const char *plan = json_string_value(json_object_get(j, IL_M_PLAN));
    int f = (int)d->files; /* the file being read (il_read) */
    if (!t || f >= t->nfiles || !when || strcmp(when, IL_M_WHEN_START) || !sweep || !plan)
        return;
    char *key = il_xasprintf("%s %s", sweep, plan);
    uint32_t id = il_strtab_intern(&t->starts, key, strlen(key));
    free(key);
    if (id > t->cap) {
        t->cap = 2 * (size_t)id;
        t->where = il_xrealloc(t->where, t->cap * sizeof *t->where);
        for (size_t i = id - 1; i < t->cap; i++)
            t->where[i] = -1;
    }
    int was = t->where[id - 1];
    if (was < 0) {
        t->where[id - 1] = f;
        return;
    }
    /* in the same file (a merge's output may repeat it), or in a file
     * already said to be the same as it */
    if (t->same[was] == t->same[f])
        return;
    if (t->a >= 0) {
        t->pairs++;
        return;
    }
    const char *shard = json_string_value(json_object_get(j, IL_M_SHARD));
    t->a = was;
    t->b = f;
    t->what = il_xasprintf("both hold the start of sweep %s (plan %s%s%s), as a merged file and "
                           "its shards do",
                           sweep, plan, shard ? ", shard " : "", shard ? shard : "");
}

void
il_twice_warn(const struct il_data *d, char **files)
{
    const struct il_twice *t = d->twice;
    char more[64] = "";
    if (!t || t->a < 0)
        return;
    if (t->pairs)
        snprintf(more, sizeof more, " (and %zu more such pair%s)", t->pairs,
                 il_s(t->pairs));
    il_warn(IL_W_TWICE, files[t->a], files[t->b],
            t->what ? t->what : "are one file, given twice", more);
}

void
il_twice_free(struct il_data *d)
{
    struct il_twice *t = d->twice;
    if (!t)
        return;
    free(t->same);
    free(t->where);
    free(t->what);
    il_strtab_free(&t->starts);
    free(t);
    d->twice = NULL;
}

/*
 * The same record twice (outside15 H3): copies inside one file (`cat a a`,
 * a shard appended again to its merge) or in two files that are no sweep's
 * (a harness's `interloper run` records copied).  A record's identity is
 * what no two processes share: its host, pid and start (a pid is reused,
 * but not within a second on one host: times.wall_ns, argv and the value
 * tell the rare rest apart; a record without a pid or a start has no
 * identity and is never said); record merge says a sweep's run label seen
 * twice, which these records may lack.  8 bytes a record while reading,
 * freed here, before the statistics' larger arrays.  Two bitmaps of 16
 * bits a record or more: a hash whose bit was set before marks its bit in
 * the second; only the records of a marked bit (the copies, and about one
 * in 32 others) are sorted and compared whole.
 */
static inline uint64_t
mix(uint64_t h, uint64_t w)
{
    h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
    return h ^ h >> 29;
}

/* A field's bytes, 8 at a time (the last 8 overlapping); of a field over
 * 64 bytes (a long argv) its first and last 32 and its length. */
static inline uint64_t
mix_span(uint64_t h, const struct il_span *sp)
{
    size_t n = sp->p ? sp->n : 0;
    uint64_t w = 0;
    h = mix(h, n);
    if (n < 8) { /* 4 to 7 bytes (a pid, a number) in two loads, which overlap */
        if (n >= 4) {
            uint32_t a, b;
            memcpy(&a, sp->p, 4);
            memcpy(&b, sp->p + n - 4, 4);
            w = (uint64_t)a << 32 | b;
        } else {
            for (size_t i = 0; i < n; i++)
                w = w << 8 | (unsigned char)sp->p[i];
        }
        return mix(h, w);
    }
    for (size_t i = 0; i < n; i += 8) {
        if (n > 64 && i == 32)
            i = n - 32;
        memcpy(&w, sp->p + (i + 8 <= n ? i : n - 8), 8);
        h = mix(h, w);
    }
    return h;
}

uint64_t
il_twice_id(const struct il_span *host, const struct il_span *pid, const struct il_span *start,
            const struct il_span *wall, const struct il_span *argv, const struct il_span *value)
{
    if (!pid->p || !pid->n || !start->p || !start->n)
        return 0; /* no identity (a record made by hand, or by another tool) */
    uint64_t h = 0xcbf29ce484222325ULL;
    h = mix_span(h, host);
    h = mix_span(h, pid);
    h = mix_span(h, start);
    h = mix_span(h, wall);
    h = mix_span(h, argv);
    return mix_span(h, value) | 1;
}

struct idx {
    uint64_t h;
    size_t i;
};

static int
idx_cmp(const void *a, const void *b)
{
    const struct idx *x = a, *y = b;
    if (x->h != y->h)
        return x->h < y->h ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

static int
file_of(const size_t *upto, int nfiles, size_t i)
{
    int f = 0;
    while (f < nfiles - 1 && upto[f] <= i)
        f++;
    return f;
}

/* Records from which the work is shared by two threads. */
#define IL_TWICE_SPLIT 4096
/* Records ahead whose bitmap word is asked for before it is needed: the
 * bits of successive records are far apart (at 10 million records, one in
 * 32 MiB), each a miss in the caches (main's one thread at 10 million
 * records 0.27 s of CPU without, 0.23 s with; bench in wall16's note). */
#define IL_TWICE_AHEAD 32

/* The work of one thread: its records [lo, hi) marked in the bitmaps
 * shared by both, then its candidates, by the top bit of their hash (c[t],
 * nc[t]); then the candidates of hash top bit k from both threads, sorted,
 * its copies counted, the earliest (b) and the first read of it (a). */
struct tw {
    const uint64_t *h;
    uint64_t *seen, *again;
    int bits;
    size_t lo, hi;
    int k;
    struct tw *both; /* the two threads' */
    struct idx *c[2];
    size_t nc[2], cap[2];
    size_t dups, a, b;
};

/* A bit set in seen the first time, in again the second (and both
 * threads may set bits of one word: atomically) */
static void *
tw_mark(void *arg)
{
    struct tw *w = arg;
    const uint64_t *h = w->h;
    int shift = 64 - w->bits;
    for (size_t i = w->lo; i < w->hi; i++) {
        if (i + IL_TWICE_AHEAD < w->hi)
            __builtin_prefetch(&w->seen[h[i + IL_TWICE_AHEAD] >> shift >> 6], 1);
        if (!h[i])
            continue;
        uint64_t b = h[i] >> shift, m = (uint64_t)1 << (b & 63);
        if ((__atomic_load_n(&w->seen[b >> 6], __ATOMIC_RELAXED) & m) ||
            (__atomic_fetch_or(&w->seen[b >> 6], m, __ATOMIC_RELAXED) & m))
            __atomic_fetch_or(&w->again[b >> 6], m, __ATOMIC_RELAXED);
    }
    return NULL;
}

static void *
tw_pick(void *arg)
{
    struct tw *w = arg;
    const uint64_t *h = w->h;
    int shift = 64 - w->bits;
    for (size_t i = w->lo; i < w->hi; i++) {
        if (i + IL_TWICE_AHEAD < w->hi)
            __builtin_prefetch(&w->again[h[i + IL_TWICE_AHEAD] >> shift >> 6]);
        uint64_t b = h[i] >> shift;
        if (!h[i] || !(w->again[b >> 6] & (uint64_t)1 << (b & 63)))
            continue;
        int t = (int)(h[i] >> 63);
        if (w->nc[t] == w->cap[t]) {
            w->cap[t] = w->cap[t] ? 2 * w->cap[t] : 64;
            w->c[t] = il_xrealloc(w->c[t], w->cap[t] * sizeof *w->c[t]);
        }
        w->c[t][w->nc[t]++] = (struct idx){h[i], i};
    }
    return NULL;
}

static void *
tw_count(void *arg)
{
    struct tw *w = arg, *x = &w->both[0], *y = &w->both[1];
    int k = w->k;
    size_t nc = x->nc[k] + y->nc[k];
    if (nc < 2)
        return NULL;
    struct idx *c = il_xmalloc(nc * sizeof *c);
    if (x->nc[k])
        memcpy(c, x->c[k], x->nc[k] * sizeof *c);
    if (y->nc[k])
        memcpy(c + x->nc[k], y->c[k], y->nc[k] * sizeof *c);
    qsort(c, nc, sizeof *c, idx_cmp);
    for (size_t j = 1; j < nc; j++)
        if (c[j].h == c[j - 1].h) {
            /* the example: the earliest copy read */
            size_t first = j;
            while (first > 0 && c[first - 1].h == c[j].h)
                first--;
            if (!w->dups || c[j].i < w->b) {
                w->a = c[first].i;
                w->b = c[j].i;
            }
            w->dups++;
        }
    free(c);
    return NULL;
}

void
il_twice_records(struct il_data *d, char **files, const size_t *upto, int nfiles)
{
    uint64_t *h = d->idh;
    size_t n = d->n;
    d->idh = NULL;
    /* a file given twice, or a sweep's start in two files, is said
     * already (il_twice_warn), and so its copies */
    if (!h || n < 2 || nfiles < 1 || (d->twice && d->twice->a >= 0)) {
        free(h);
        return;
    }
    /* 16 bits a record or more, 64 at least (one word) */
    int bits = 6;
    while (((size_t)1 << bits) < 16 * n && bits < 40)
        bits++;
    size_t words = ((size_t)1 << bits) / 64;
    /* Two threads, the first half of the records and the second (at 10
     * million records 0.23 s of CPU, on one thread after the reading's
     * two): the bits marked, the candidates picked; then the candidates
     * whose hash's top bit is 0, and those whose top bit is 1 (a copy and
     * its original share it) */
    int two = n >= IL_TWICE_SPLIT && il_two_cpus();
    struct tw w[2];
    memset(w, 0, sizeof w);
    w[0].seen = il_xcalloc(words, sizeof *w[0].seen);
    w[0].again = il_xcalloc(words, sizeof *w[0].again);
    for (int k = 0; k < 2; k++) {
        w[k].h = h;
        w[k].seen = w[0].seen;
        w[k].again = w[0].again;
        w[k].bits = bits;
        w[k].lo = two ? k * (n / 2) : k * n;
        w[k].hi = two && !k ? n / 2 : n;
        w[k].k = k;
        w[k].both = w;
    }
    il_both(tw_mark, &w[0], &w[1], two);
    free(w[0].seen);
    il_both(tw_pick, &w[0], &w[1], two);
    free(w[0].again);
    free(h);
    il_both(tw_count, &w[0], &w[1], two);
    if (!two)
        tw_count(&w[1]);
    for (int k = 0; k < 2; k++) {
        free(w[k].c[0]);
        free(w[k].c[1]);
    }
    /* the example: the earliest copy of either */
    struct tw *e = w[1].dups && (!w[0].dups || w[1].b < w[0].b) ? &w[1] : &w[0];
    size_t dups = w[0].dups + w[1].dups;
    if (dups)
        il_warn(IL_W_TWICE_RECORDS, dups,
                il_pl(dups, "record is a copy of a record", "records are copies of records"),
                files[file_of(upto, nfiles, e->b)], files[file_of(upto, nfiles, e->a)]);
}
