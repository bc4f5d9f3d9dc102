/*
 * read.c: record files into one column store (struct il_data).
 *
 * A plain regular file is read in parts by two threads: each begins with
 * one half (cut after a newline near the middle), takes it a few MiB at a
 * time, and once it has taken all of its own takes the second half of
 * what the other has left, as a new part (read_parts).  The part at the
 * file's start is read into the caller's rd; every other part's reading
 * keeps what it would say (bad lines, the first other schema, event
 * names) with line numbers from its start, and the join appends the
 * parts in the order of their bytes, their label values interned after
 * those before them in the order they came, and says what each kept as a
 * sequential read would have said it: the same warnings in the same
 * order, the same first bad line, the same ids.  Other input (the
 * standard input, gzip, zstd) is read by one thread.  A line that a
 * template (tmpl.c) matches where it lies in the read buffer is read
 * there, without first searching for its newline: it can hold none before
 * its end (next_line).
 */
#include <err.h>
#include <errno.h>
#include <jansson.h>
#include <malloc.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "il_lines.h"
#include "input.h"

/* The next line of l into rd, *lineno lines after the start (then
 * advanced): 1, 0 at the end, -1 on a read error (l->err).  A line that a
 * template matches whole where it lies in l's buffer is read there
 * (il_rd_line_nl), without a search for its newline; any other is found
 * by il_lines_next.  With bom, a UTF-8 byte-order mark at the start of
 * the stream is skipped: it is no JSON. */
static int
next_line(struct rd *rd, struct il_lines *l, const char *file, size_t *lineno, int bom)
{
    const char *s;
    size_t n;
    if (!bom || *lineno > 0) {
        il_lines_peek(l, &s, &n);
        size_t len;
        if (n && il_rd_line_nl(rd, file, *lineno + 1, s, n, &len)) {
            while (s[len] == '\r') /* CRs before the newline: not the line's */
                len++;
            il_lines_take(l, len);
            ++*lineno;
            return 1;
        }
    }
    int r = il_lines_next(l, &s, &n);
    if (r <= 0)
        return r;
    if (bom && *lineno == 0 && n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0) {
        s += 3;
        n -= 3;
    }
    il_rd_line(rd, file, ++*lineno, s, n);
    return 1;
}

/* Lines of one stream into rd; the number of lines read (the last one's
 * number).  Stops at a bad line under --strict in a deferring rd. */
static size_t
read_lines(struct rd *rd, struct il_lines *l, const char *file, int bom)
{
    size_t lineno = 0;
    int r;
    while ((r = next_line(rd, l, file, &lineno, bom)) > 0)
        if (rd->stopped)
            break;
    if (r < 0)
        errx(1, "%s: %s", file, l->err);
    return lineno;
}

/* A part of a plain regular file, the lines of [from, ...) that one
 * thread read into rd: the caller's for the part at the file's start,
 * else a deferring one of its own (said at the join). */
struct part {
    struct parts *ps;
    struct rd *rd;
    struct il_lines l;
    off_t from;
    off_t to;      /* the end of its range, set before the join */
    size_t lines;  /* the number of lines read */
    char err[300]; /* a read error, said at the join */
    struct rd own;
    struct il_data d;
};

/* Two threads reading one file in parts.  Each holds the range of bytes
 * it has still to take, [next, stop), and takes it a few MiB at a time,
 * cut after a newline; one that has taken all of its range takes the
 * second half of what the other has not taken yet, as a part of its own
 * (the other's stop moves back to it), so that neither waits for the
 * other at the end when the halves cost unequal time (at a million
 * records of bench/records.c the first half took about a tenth more CPU
 * time than the second).  Steals halve what is left, so the parts are a
 * few. */
struct parts {
    pthread_mutex_t mu;
    const struct il_lines *src; /* the first part's, for il_lines_cut */
    const struct il_sel *sel;
    const char *file;
    off_t min, max; /* the least and the most taken at a time */
    off_t steal;    /* the least that one thread takes from the other */
    struct {
        off_t next, stop;
    } left[2];
    struct part **p; /* the parts after the first */
    size_t n, cap;
    int sweep; /* a sweep's line was read (input.h, struct rd's no_when) */
};

/* What a thread takes of its range at a time: an eighth of what is left
 * (so that the last takes are short), at least IL_TAKE_MIN, at most
 * IL_TAKE_MAX; it takes from the other's range when 2 * IL_TAKE_MIN are
 * left there.  The tests' variant (IL_TEST_PARTS, stats.mk) takes
 * IL_TEST_TAKE bytes at a time instead (the rest of the line with them),
 * and says on stderr how many parts it read. */
#define IL_TAKE_MIN (256 * 1024)
#define IL_TAKE_MAX (4 * 1024 * 1024)
#ifdef IL_TEST_PARTS
static size_t il_test_joins; /* joins on two threads (join_records) */
#endif

/* The end of a take from [next, stop): after a newline, or stop. */
static off_t
take_end(const struct parts *ps, off_t next, off_t stop)
{
    off_t want = (stop - next) / 8;
    if (want < ps->min)
        want = ps->min;
    if (want > ps->max)
        want = ps->max;
    if (want >= stop - next)
        return stop;
    off_t to = il_lines_cut(ps->src, next + want);
    return to < 0 || to > stop ? stop : to;
}

/* A new part of ps at from, its range [from, stop) (ps->mu held). */
static struct part *
new_part(struct parts *ps, off_t from)
{
    struct part *p = il_xcalloc(1, sizeof *p);
    il_rd_init(&p->own, ps->sel, &p->d);
    p->own.defer = 1;
    p->own.no_when = ps->sweep;
    p->rd = &p->own;
    p->ps = ps;
    p->from = from;
    il_lines_share(&p->l, ps->src);
    il_lines_range(&p->l, from, from);
    if (ps->n == ps->cap) {
        ps->cap = ps->cap ? 2 * ps->cap : 8;
        ps->p = il_xrealloc(ps->p, ps->cap * sizeof *ps->p);
    }
    ps->p[ps->n++] = p;
    return p;
}

/* A part p that its thread has left: its read buffer is freed (the join
 * reads only its rd and data); the first part's is the file's. */
static void
leave(struct part *p)
{
    if (p && p->rd->defer)
        il_lines_close(&p->l);
}

/* Thread w's reading: its range, part p, then what it takes from the
 * other's, until nothing is left to take. */
static void
read_parts(struct parts *ps, int w, struct part *p)
{
    for (;;) {
        pthread_mutex_lock(&ps->mu);
        if (p) { /* whether a sweep's line was read anywhere, at each take */
            ps->sweep |= p->rd->sweep_here;
            p->rd->no_when = ps->sweep;
        }
        off_t next = ps->left[w].next, stop = ps->left[w].stop;
        if (next < stop && p) {
            off_t to = take_end(ps, next, stop);
            ps->left[w].next = to;
            pthread_mutex_unlock(&ps->mu);
            il_lines_extend(&p->l, to);
            int r;
            while ((r = next_line(p->rd, &p->l, ps->file, &p->lines, p->from == 0)) > 0)
                if (p->rd->stopped)
                    break;
            if (r < 0 && !p->rd->defer)
                errx(1, "%s: %s", ps->file, p->l.err);
            if (r < 0)
                snprintf(p->err, sizeof p->err, "%s", p->l.err);
            if (r < 0 || p->rd->stopped) {
                /* nothing after it counts (the join stops there) */
                pthread_mutex_lock(&ps->mu);
                ps->left[w].next = ps->left[w].stop;
                pthread_mutex_unlock(&ps->mu);
                leave(p);
                p = NULL;
            }
            continue;
        }
        /* the second half of what the other has not taken */
        off_t onext = ps->left[!w].next, ostop = ps->left[!w].stop, mid = -1;
        if (ostop - onext >= ps->steal)
            mid = il_lines_cut(ps->src, onext + (ostop - onext) / 2);
        if (mid <= onext || mid >= ostop) {
            pthread_mutex_unlock(&ps->mu);
            leave(p);
            return;
        }
        ps->left[!w].stop = mid;
        ps->left[w].next = mid;
        ps->left[w].stop = ostop;
        struct part *left = p;
        p = new_part(ps, mid);
        pthread_mutex_unlock(&ps->mu);
        leave(left);
    }
}

static void *
read_second(void *arg)
{
    struct part *p = arg;
    read_parts(p->ps, 1, p);
    return NULL;
}

/* Join part h (whose lines follow line0 lines) to rd. */
static void join(struct rd *rd, struct part *h, size_t line0);

/* The exec chains across part h, whose records are rd's from base on:
 * the records before it that ended in an exec and whose next image was
 * not among them (rd->open) are looked for in h's lines, read again from
 * its start until each is found (in practice a few lines: an exec's next
 * image ends soon), by a dry rd that keeps no record but numbers those it
 * would keep as h's rd did; then h's own links and open records join
 * rd's.  So the chains are those of one reading in order (chain_note). */
static void
join_chains(struct rd *rd, struct part *h, size_t base)
{
    struct il_data *d = rd->d, *d2 = &h->d;
    if (rd->open.live) {
        struct rd dry;
        struct il_data dd;
        il_rd_init(&dry, rd->sel, &dd);
        dry.defer = 1;
        dry.dry = 1;
        for (size_t i = 0; i < rd->open.n; i++)
            if (rd->open.e[i].live)
                il_chains_add(&dry.open, rd->open.e[i].h, rd->open.e[i].start, rd->open.e[i].pid,
                              rd->open.e[i].rec);
        struct il_lines l;
        il_lines_share(&l, h->ps->src);
        il_lines_range(&l, h->from, h->from);
        il_lines_extend(&l, h->to);
        size_t lineno = 0;
        while (!dry.stopped && next_line(&dry, &l, h->ps->file, &lineno, 0) > 0)
            ;
        il_lines_close(&l);
        for (size_t i = 0; i < dd.nlinks; i++)
            il_link_add(d, dd.links[i].from, base + dd.links[i].to, dd.links[i].sup);
        /* those still open, in their order */
        il_chains_free(&rd->open);
        for (size_t i = 0; i < dry.open.n; i++)
            if (dry.open.e[i].live)
                il_chains_add(&rd->open, dry.open.e[i].h, dry.open.e[i].start, dry.open.e[i].pid,
                              dry.open.e[i].rec);
        il_rd_free(&dry);
        il_data_free(&dd);
    }
    for (size_t i = 0; i < d2->nlinks; i++)
        il_link_add(d, base + d2->links[i].from, base + d2->links[i].to, d2->links[i].sup);
    for (size_t i = 0; i < h->own.open.n; i++)
        if (h->own.open.e[i].live)
            il_chains_add(&rd->open, h->own.open.e[i].h, h->own.open.e[i].start,
                          h->own.open.e[i].pid, base + h->own.open.e[i].rec);
}

static int
part_cmp(const void *a, const void *b)
{
    off_t x = (*(struct part *const *)a)->from, y = (*(struct part *const *)b)->from;
    return (x > y) - (x < y);
}

/* Read file into rd; rd->in_stdin then says whether it was read once
 * (it cannot be read again). */
static void
read_file(struct rd *rd, const char *file)
{
    struct part first;
    memset(&first, 0, sizeof first);
    first.rd = rd;
    if (il_lines_open(&first.l, file) < 0)
        err(1, "%s", file);
    /* Read once: the standard input, and any input that is not a regular
     * file, by its descriptor, whatever its name (a pipe, a FIFO,
     * <(...), /dev/stdin: review14b HIGH-2), which cannot be read again
     * (swept).  The standard input is read from where it is, by one
     * thread, even a regular file (review10a: `(read -r x; report -) < f`). */
    rd->in_stdin = !strcmp(file, "-") || !first.l.regular;
    off_t size = strcmp(file, "-") ? il_lines_size(&first.l) : -1,
          cut = size > 1 ? il_lines_cut(&first.l, size / 2) : -1;
    if (cut < 0 || cut >= size || !il_two_cpus()) {
        read_lines(rd, &first.l, file, 1);
        il_lines_close(&first.l);
        rd->d->files++;
        return;
    }
    /* Two threads: [0, cut) and [cut, size) to begin with. */
    struct parts ps;
    memset(&ps, 0, sizeof ps);
    pthread_mutex_init(&ps.mu, NULL);
    ps.src = &first.l;
    ps.sel = rd->sel;
    ps.file = file;
    ps.min = IL_TAKE_MIN;
    ps.max = IL_TAKE_MAX;
#ifdef IL_TEST_PARTS
    if (getenv("IL_TEST_TAKE"))
        ps.min = ps.max = strtoll(getenv("IL_TEST_TAKE"), NULL, 10);
#endif
    ps.steal = 2 * ps.min;
    ps.left[0].stop = ps.left[1].next = cut;
    ps.left[1].stop = size;
    il_lines_range(&first.l, 0, 0);
    struct part *second = new_part(&ps, cut);
    pthread_t t;
    int e = pthread_create(&t, NULL, read_second, second);
    if (e) {
        errno = e;
        err(1, "cannot start a thread");
    }
    read_parts(&ps, 0, &first);
    pthread_join(t, NULL);
    rd->sweep_here = rd->no_when = 0;
    qsort(ps.p, ps.n, sizeof *ps.p, part_cmp);
    size_t line0 = first.lines;
    for (size_t i = 0; i < ps.n; i++)
        ps.p[i]->to = i + 1 < ps.n ? ps.p[i + 1]->from : size;
    for (size_t i = 0; i < ps.n; i++) {
        struct part *h = ps.p[i];
        il_lines_close(&h->l);
        join(rd, h, line0);
        line0 += h->lines;
        il_rd_free(&h->own);
        il_data_free(&h->d);
        free(h);
    }
#ifdef IL_TEST_PARTS
    fprintf(stderr, "il-test-parts: %zu\nil-test-joins: %zu\n", ps.n + 1, il_test_joins);
#endif
    free(ps.p);
    il_lines_close(&first.l);
    pthread_mutex_destroy(&ps.mu);
    rd->d->files++;
}

/* "a, b, c" from the ids marked in seen (at most 12 named). */
static void
list_seen(const struct rd *rd, size_t slot, char *out, size_t cap)
{
    size_t o = 0, k = 0;
    out[0] = '\0';
    for (size_t id = 0; id < rd->seencap[slot] && o < cap; id++) {
        if (!rd->seen[slot][id])
            continue;
        if (k++ == 12) {
            o += (size_t)snprintf(out + o, cap - o, ", ...");
            break;
        }
        o += (size_t)snprintf(out + o, cap - o, "%s%s", k > 1 ? ", " : "",
                              il_str(&rd->d->st, (uint32_t)id));
    }
}

static void
explain_empty(struct rd *rd)
{
    const struct il_sel *sel = rd->sel;
    struct il_data *d = rd->d;
    char buf[1024];
    if (d->records == 0)
        errx(1,
             "empty selection: no records in the input (%zu non-blank lines, %zu malformed, "
             "%zu without \"schema\" and \"labels\"); expected one interloper/1 record "
             "per line",
             d->lines, d->malformed, d->notrecord);
    if (d->selected == 0) {
        for (size_t w = 0; w < sel->nwhere; w++) {
            size_t s = sel->where[w].slot;
            if (rd->seen[s] && rd->seen[s][IL_MISSING_ID] && rd->seencap[s] &&
                !memchr(rd->seen[s] + 1, 1, rd->seencap[s] - 1)) {
                il_data_keys(d, buf, sizeof buf);
                errx(1,
                     "--where: no record has the label '%s' (%zu records read); the labels "
                     "are: %s",
                     sel->slot_name[s], d->records, buf);
            }
        }
        size_t s = sel->where[0].slot;
        list_seen(rd, s, buf, sizeof buf);
        errx(1,
             "empty selection: no record matches every --where (%zu records read; label "
             "'%s' takes the values: %s)",
             d->records, sel->slot_name[s], buf);
    }
    size_t usable = d->selected - (sel->include_warmup ? 0 : d->warmup);
    if (d->warmup && usable == 0)
        errx(1,
             "empty selection: all %zu selected records are warm-up runs (label '%s'); "
             "--include-warmup keeps them",
             d->warmup, IL_L_WARMUP);
    if (d->missing == usable) {
        size_t o = (size_t)snprintf(buf, sizeof buf, "wall, user, sys, maxrss");
        for (uint32_t id = 1; id < rd->events.n && o < sizeof buf; id++)
            o += (size_t)snprintf(buf + o, sizeof buf - o, ", %s", il_str(&rd->events, id));
        errx(1, "unknown metric '%s': no selected record has it; known metrics: %s", sel->metric,
             buf);
    }
    if (d->unsupported + d->missing == usable)
        errx(1,
             "metric '%s' is unsupported (value null) in all %zu selected records that "
             "have it, so this machine could not count it; choose another --metric",
             sel->metric, d->unsupported);
    if (d->nofloor)
        errx(1,
             "--subtract-floor: no selected record has floor.%s; drop --subtract-floor or "
             "record with a calibrated floor",
             sel->metric);
    if (d->noenv)
        errx(1, "no selected record has setup.env_bytes, which this plot needs");
    if (d->notcounted)
        errx(1,
             "metric '%s' was never counted (running_ns 0: multiplexed out) in %zu selected "
             "records; count fewer events at once",
             sel->metric, d->notcounted);
    if (rd->first.file) {
        il_badline_text(&rd->first, 0, buf, sizeof buf);
        errx(1,
             "empty selection: none of the %zu selected records has a usable value for '%s'; "
             "the first bad one: %s",
             usable, sel->metric, buf);
    }
    errx(1, "empty selection: none of the %zu selected records has a usable value for '%s'", usable,
         sel->metric);
}

static uint32_t *
join_strings(struct il_data *d, const struct il_data *d2)
{
    uint32_t *map = il_xcalloc(d2->st.n, sizeof *map);
    for (uint32_t id = 1; id < d2->st.n; id++)
        map[id] = il_strtab_intern(&d->st, il_str(&d2->st, id), d2->st.set.len[id - 1]);
    return map;
}

static void
join_labvals(struct il_data *d, const struct il_data *d2, const uint32_t *map)
{
    for (size_t i = 0; i < d2->nlv; i++) {
        const struct il_labvals *b = &d2->lv[i];
        struct il_labvals *a = NULL;
        for (size_t j = 0; j < d->nlv && !a; j++)
            if (strcmp(d->lv[j].name, b->name) == 0)
                a = &d->lv[j];
        if (!a) {
            d->lv = il_xrealloc(d->lv, (d->nlv + 1) * sizeof *d->lv);
            a = &d->lv[d->nlv++];
            memset(a, 0, sizeof *a);
            a->name = il_xstrdup(b->name);
            a->nname = b->nname;
            a->runs = b->runs;
        }
        a->present += b->present;
        for (size_t id = 1; id < b->seencap; id++) {
            if (!b->seen[id])
                continue;
            a->nval += (size_t)il_seen_set(&a->seen, &a->seencap, map[id]);
        }
    }
}

/* A join of d2's records after d's n0 (room for cap) on one or two
 * threads.  The values' columns are copied a chunk at a time, each thread
 * taking the next (copied, atomic), and a part's column is freed by the
 * thread that copies its last chunk, so that the join holds little of the
 * part beside the whole; then the label columns whose values one table
 * maps (IL_LAB_TABLE, made before the threads), likewise a chunk at a
 * time; then each other label's column, taken in turn (next) by the two.
 * The integer column, rare, is joined before.  Chunks rather than a
 * column each: the copies write new memory, whose first touch costs far
 * more where the host of a virtual machine had taken the pages back
 * (group.c), and the values' column alone was most of the work (at ten
 * million records one thread took 88 ms, the other 20); a label's column
 * each left one thread up to 4 ms alone at the end. */
struct join_col {
    char *dst;           /* where the part's values go */
    const char *from;    /* the part's column */
    void **src;          /* where the part holds it (NULL once freed) */
    size_t bytes;        /* its size */
    size_t first, count; /* its chunks' numbers among all */
    size_t left;         /* its chunks not yet copied (atomic) */
};

#define IL_JOIN_COLS 10

/* A label's column mapped by a table (IL_LAB_TABLE), in chunks. */
struct join_lab {
    uint16_t *dst;       /* where the part's indices go */
    const uint16_t *from;
    uint16_t *to;        /* the part's indices as the whole's */
    size_t s, n2;        /* the slot, the part's records */
    size_t first, count; /* its chunks' numbers among all */
    size_t left;         /* its chunks not yet copied (atomic) */
};
/* Bytes copied at a time, and the records of a part from which its join
 * runs on two threads.  The tests' variant (IL_TEST_PARTS) joins every
 * part on two threads, IL_TEST_JOIN bytes at a time, when that is set,
 * and says on stderr how many joins ran on two. */
#define IL_JOIN_CHUNK (1024 * 1024)
#define IL_JOIN_SPLIT 100000

struct join_recs {
    struct il_data *d, *d2;
    const uint32_t *map;
    size_t n0, cap;
    struct join_col col[IL_JOIN_COLS];
    struct join_lab lab[IL_MAX_SLOTS];
    uint8_t each[IL_MAX_SLOTS]; /* label slots joined record by record */
    size_t ncol, nlab, ncolchunk, nchunk, chunk, labchunk, room;
    size_t copied; /* the next chunk to copy (atomic) */
    size_t next;   /* the next label slot to join (atomic) */
};

/* Column *a (n0 values of size bytes, room for cap) made room for the n2
 * values of *b, whose copy j notes (nothing when the part has no such
 * column: an optional one neither has, or no records). */
static void
join_col(struct join_recs *j, void **a, void **b, size_t n2, size_t size)
{
    if (!*b)
        return;
    size_t n0 = j->n0;
    if (n0 + n2 > j->cap)
        *a = il_xrealloc_huge(*a, (n0 + n2) * size);
    struct join_col *c = &j->col[j->ncol++];
    c->dst = (char *)*a + n0 * size;
    c->from = *b;
    c->src = b;
    c->bytes = n2 * size;
    c->first = j->nchunk;
    c->count = c->left = (c->bytes + j->chunk - 1) / j->chunk;
    j->nchunk += c->count;
}

/* The label columns of j, before the threads: room for the part's
 * records, and how each joins (a table's chunks, or record by record). */
static void
join_labels_prep(struct join_recs *j)
{
    struct il_data *d = j->d, *d2 = j->d2;
    size_t n0 = j->n0, cap = j->cap, n = n0 + d2->n;
    j->room = n > cap ? n : cap;
    for (size_t s = 0; s < d->nslots && d2->n; s++) {
        if (n > cap && d->labn[s])
            d->labn[s] = il_xrealloc_huge(d->labn[s], n * sizeof *d->labn[s]);
        if (n > cap && d->labc[s])
            d->labc[s] = il_xrealloc_huge(d->labc[s], n * sizeof *d->labc[s]);
        uint16_t *to;
        switch (il_lab_join_how(d, s, n0, d2, j->map, &to)) {
        case IL_LAB_SAME:
            il_lab_free(d2, s);
            break;
        case IL_LAB_TABLE: {
            struct join_lab *l = &j->lab[j->nlab++];
            l->dst = d->labn[s] + n0;
            l->from = d2->labn[s];
            l->to = to;
            l->s = s;
            l->n2 = d2->n;
            l->first = j->nchunk;
            l->count = l->left = (d2->n + j->labchunk - 1) / j->labchunk;
            j->nchunk += l->count;
            break;
        }
        case IL_LAB_EACH:
            j->each[s] = 1;
            break;
        }
    }
}

/* Label slots of j joined record by record, taken in turn, until none is
 * left: the part's values as the ids of those before it (map), added
 * record by record as push adds them (one value in both is still no
 * column). */
static void
join_labels(struct join_recs *j)
{
    struct il_data *d = j->d, *d2 = j->d2;
    size_t s;
    while ((s = __atomic_fetch_add(&j->next, 1, __ATOMIC_RELAXED)) < d->nslots) {
        if (!j->each[s])
            continue;
        for (size_t i = 0; i < d2->n; i++)
            il_lab_set(d, s, j->n0 + i, j->map[il_lab(d2, i, s)], j->room);
        il_lab_free(d2, s);
    }
}

/* The integer column: the part's integers after those before it (before
 * the copies, which free the part's flags and values). */
static void
join_ivcol(struct join_recs *j)
{
    struct il_data *d = j->d, *d2 = j->d2;
    size_t n0 = j->n0, cap = j->cap, n = n0 + d2->n;
    if (d2->ivcol) {
        /* the part needs the integer column: those before it then too */
        int64_t *c = il_ival_column(d, cap);
        if (n > cap)
            c = d->ivcol = il_xrealloc_huge(c, n * sizeof *c);
        for (size_t i = 0; i < d2->n; i++)
            c[n0 + i] = d2->flag[i] & IL_R_INT ? d2->ivcol[i] : 0;
        free(d2->ivcol);
        d2->ivcol = NULL;
    } else if (d->ivcol) {
        if (n > cap)
            d->ivcol = il_xrealloc_huge(d->ivcol, n * sizeof *d->ivcol);
        for (size_t i = 0; i < d2->n; i++)
            d->ivcol[n0 + i] = d2->flag[i] & IL_R_INT ? (int64_t)d2->val[i] : 0;
    }
}

/* One thread's share of join j: chunks of the values' columns and of the
 * label columns a table maps, then the other label slots. */
static void *
join_part(void *arg)
{
    struct join_recs *j = arg;
    size_t k;
    while ((k = __atomic_fetch_add(&j->copied, 1, __ATOMIC_RELAXED)) < j->nchunk) {
        if (k >= j->ncolchunk) {
            struct join_lab *l = j->lab;
            while (k >= l->first + l->count)
                l++;
            size_t i0 = (k - l->first) * j->labchunk,
                   i1 = l->n2 - i0 < j->labchunk ? l->n2 : i0 + j->labchunk;
            for (size_t i = i0; i < i1; i++)
                l->dst[i] = l->to[l->from[i]];
            if (__atomic_sub_fetch(&l->left, 1, __ATOMIC_ACQ_REL) == 0) {
                free(l->to);
                il_lab_free(j->d2, l->s);
            }
            continue;
        }
        struct join_col *c = j->col;
        while (k >= c->first + c->count)
            c++;
        size_t off = (k - c->first) * j->chunk,
               len = c->bytes - off < j->chunk ? c->bytes - off : j->chunk;
        memcpy(c->dst + off, c->from + off, len);
        if (__atomic_sub_fetch(&c->left, 1, __ATOMIC_ACQ_REL) == 0) {
            free((void *)c->from);
            *c->src = NULL;
        }
    }
    join_labels(j);
    return NULL;
}

static void
join_records(struct il_data *d, struct il_data *d2, const uint32_t *map)
{
    size_t n = d->n + d2->n, cap = d->cap;
    struct join_recs j;
    memset(&j, 0, sizeof j);
    j.d = d;
    j.d2 = d2;
    j.map = map;
    j.n0 = d->n;
    j.cap = cap;
    j.next = d2->n ? 0 : d->nslots;
    j.chunk = IL_JOIN_CHUNK;
    size_t split = IL_JOIN_SPLIT;
#ifdef IL_TEST_PARTS
    if (getenv("IL_TEST_JOIN") && strtoull(getenv("IL_TEST_JOIN"), NULL, 10) > 0) {
        j.chunk = strtoull(getenv("IL_TEST_JOIN"), NULL, 10);
        split = 1;
    }
#endif
    /* the room for the values' columns made here, before the threads */
    join_col(&j, (void **)&d->val, (void **)&d2->val, d2->n, sizeof *d->val);
    join_col(&j, (void **)&d->den, (void **)&d2->den, d2->n, sizeof *d->den);
    join_col(&j, (void **)&d->addr, (void **)&d2->addr, d2->n, 2 * sizeof *d->addr);
    join_col(&j, (void **)&d->flag, (void **)&d2->flag, d2->n, sizeof *d->flag);
    /* one hash for all of both parts: no column; else both parts' */
    if (d2->n && (d->argh || d2->argh || (d->n && d->argh1 != d2->argh1))) {
        il_argh_column(d, cap);
        il_argh_column(d2, d2->n);
    } else if (!d->n) {
        d->argh1 = d2->argh1;
    }
    join_col(&j, (void **)&d->argh, (void **)&d2->argh, d2->n, sizeof *d->argh);
    if (d2->n && (d->imgh || d2->imgh || (d->n && d->imgh1 != d2->imgh1))) {
        il_imgh_column(d, cap);
        il_imgh_column(d2, d2->n);
    } else if (!d->n) {
        d->imgh1 = d2->imgh1;
    }
    join_col(&j, (void **)&d->imgh, (void **)&d2->imgh, d2->n, sizeof *d->imgh);
    join_col(&j, (void **)&d->env, (void **)&d2->env, d2->n, sizeof *d->env);
    join_col(&j, (void **)&d->wall, (void **)&d2->wall, d2->n, sizeof *d->wall);
    if (!d->when || !d2->when) { /* a sweep's line read before the part, or in it */
        free(d->when);
        free(d2->when);
        d->when = d2->when = NULL;
    }
    join_col(&j, (void **)&d->when, (void **)&d2->when, d2->n, sizeof *d->when);
    join_col(&j, (void **)&d->idh, (void **)&d2->idh, d2->n, sizeof *d->idh);
    join_col(&j, (void **)&d->pid, (void **)&d2->pid, d2->n, sizeof *d->pid);
    join_col(&j, (void **)&d->ppid, (void **)&d2->ppid, d2->n, sizeof *d->ppid);
    join_col(&j, (void **)&d->lh, (void **)&d2->lh, d2->n, sizeof *d->lh);
    join_ivcol(&j);
    j.ncolchunk = j.nchunk;
    j.labchunk = j.chunk / sizeof(uint16_t) ? j.chunk / sizeof(uint16_t) : 1;
    join_labels_prep(&j);
    pthread_t t;
    int two = d2->n >= split && il_two_cpus() && pthread_create(&t, NULL, join_part, &j) == 0;
    join_part(&j);
    if (two)
        pthread_join(t, NULL);
#ifdef IL_TEST_PARTS
    il_test_joins += (size_t)two;
#endif
    if (n > cap)
        d->cap = n;
    d->n = n;
}

static void
join(struct rd *rd, struct part *h, size_t line0)
{
    struct il_data *d = rd->d, *d2 = &h->d;
    struct rd *r2 = &h->own;
    char buf[1024];
    if (rd->stopped)
        return;
    /* What the part would have said, in its order. */
    for (size_t i = 0; i < r2->nkept; i++) {
        if (rd->sel->strict) {
            il_badline_text(&r2->kept[i], line0, buf, sizeof buf);
            errx(1, "%s (stopped by --strict; remove --strict to skip such lines)", buf);
        }
        if (rd->shown + i < IL_MAX_SHOWN)
            il_warn(IL_W_LINE, r2->kept[i].file, line0 + r2->kept[i].line, r2->kept[i].msg);
    }
    if (h->err[0])
        errx(1, "%s: %s", h->ps->file, h->err);
    rd->shown += r2->shown;
    if (!rd->first.file && r2->first.file) {
        rd->first = r2->first;
        rd->first.line += line0;
    }
    /* Event names of the first IL_EVENT_SAMPLE records, in their order. */
    for (uint32_t id = 1; id < r2->events.n; id++)
        if (d->records + r2->ev_at[id] < IL_EVENT_SAMPLE)
            il_strtab_intern(&rd->events, il_str(&r2->events, id), r2->events.set.len[id - 1]);
    /* the sweep's machine lines after those before (a start and its end
     * pair across parts) */
    for (size_t i = 0; i < r2->machine.n; i++)
        il_disturb_line(d, r2->machine.line[i], r2->machine.len[i]);
    /* the part's hosts after those before it */
    for (size_t i = 0; i < d2->nrec_host; i++) {
        size_t j = 0;
        while (j < d->nrec_host && strcmp(d->rec_host[j], d2->rec_host[i]))
            j++;
        if (j == d->nrec_host && d->nrec_host < 8)
            d->rec_host[d->nrec_host++] = il_xstrdup(d2->rec_host[i]);
    }
    if (!d->first_schema_other && d2->first_schema_other)
        d->first_schema_other = il_xasprintf("%s:%zu: schema %s", h->ps->file,
                                             line0 + r2->schema_line, d2->first_schema_other);
    for (size_t i = 0; i < d2->nkeys; i++) {
        size_t j = 0;
        while (j < d->nkeys && strcmp(d->keys[j], d2->keys[i]) != 0)
            j++;
        if (j == d->nkeys) {
            d->keys = il_xrealloc(d->keys, (d->nkeys + 1) * sizeof *d->keys);
            d->keys[d->nkeys++] = il_xstrdup(d2->keys[i]);
        }
    }
    for (uint32_t id = 1; id < d2->swept.n; id++)
        il_strtab_intern(&d->swept, il_str(&d2->swept, id), d2->swept.set.len[id - 1]);
    uint32_t *map = join_strings(d, d2);
    join_labvals(d, d2, map);
    for (size_t s = 0; s < IL_MAX_SLOTS; s++)
        for (size_t id = 0; id < r2->seencap[s]; id++)
            if (r2->seen[s][id])
                il_seen_set(&rd->seen[s], &rd->seencap[s], map[id]);
    size_t base = d->n;
    join_records(d, d2, map);
    free(map);
    /* the part's failed lines whose records were not all in its own
     * lines: in the ring of those before it, as a sequential read's ring
     * would have held them (input.c, swept_line); then its ring after
     * theirs */
    for (size_t i = 0; i < r2->npend; i++) {
        const struct il_pending *p = &r2->pend[i];
        size_t m = il_win_flag(rd->win, rd->nwin, p->h, d);
        if (p->want != (long long)(p->found + m))
            il_strtab_intern(&d->swept, p->launch, strlen(p->launch));
    }
    size_t k = r2->nwin < IL_LAUNCH_WINDOW ? r2->nwin : IL_LAUNCH_WINDOW;
    for (size_t i = 0; i < k; i++) {
        struct il_launch_hash w = r2->win[(r2->nwin - k + i) % IL_LAUNCH_WINDOW];
        if (w.rec != SIZE_MAX)
            w.rec += base;
        rd->win[rd->nwin++ % IL_LAUNCH_WINDOW] = w;
    }
    join_chains(rd, h, base);
    d->lines += d2->lines;
    d->records += d2->records;
    d->selected += d2->selected;
    d->malformed += d2->malformed;
    d->notrecord += d2->notrecord;
    d->unsupported += d2->unsupported;
    d->missing += d2->missing;
    d->nofloor += d2->nofloor;
    d->noenv += d2->noenv;
    d->badvalue += d2->badvalue;
    d->sweep_lines += d2->sweep_lines;
    d->warmup += d2->warmup;
    d->notcounted += d2->notcounted;
    d->counted_elsewhere += d2->counted_elsewhere;
    if (d2->multiplexed && (!d->multiplexed || d2->mux_frac < d->mux_frac))
        d->mux_frac = d2->mux_frac;
    d->multiplexed += d2->multiplexed;
    d->flagged += d2->flagged;
    d->nswept += d2->nswept;
    d->others += d2->others;
    d->execs += d2->execs;
    for (size_t s = 0; s < IL_MAX_SLOTS; s++)
        d->present[s] += d2->present[s];
}

static int
cmp_u64(const void *pa, const void *pb)
{
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return (a > b) - (a < b);
}

/*
 * The records of the launches the sweep's failed lines name (input.c,
 * swept_line) that were not all just before their line (the ring of the
 * reading found them there, flagged), once every line is read, flagged
 * IL_R_SWEPT: those of the standard input by the hashes of their launch
 * noted as they were read; those of the files by a look at their lines
 * again (a dry rd, which numbers the records it would keep as the
 * reading did), so that a file without such a line, or whose failed
 * lines follow their records, as the sweep writes them, costs nothing
 * more.  upto[i]: the
 * records read up to the end of files[i]; once[i]: files[i] was read
 * once, as the standard input is (read_file), its hashes noted.
 */
static void
swept(struct rd *rd, char **files, int nfiles, const size_t *upto, const char *once)
{
    struct il_data *d = rd->d;
    if (rd->nstdin_launch) {
        size_t k = d->swept.n - 1;
        uint64_t *h = il_xmalloc(k * sizeof *h);
        for (size_t i = 0; i < k; i++)
            h[i] = il_launch_hash(il_str(&d->swept, (uint32_t)i + 1), d->swept.set.len[i]);
        qsort(h, k, sizeof *h, cmp_u64);
        for (size_t i = 0; i < rd->nstdin_launch; i++) {
            size_t r = rd->stdin_launch[i].rec;
            if (bsearch(&rd->stdin_launch[i].h, h, k, sizeof *h, cmp_u64) &&
                !(d->flag[r] & IL_R_SWEPT)) {
                d->flag[r] |= IL_R_SWEPT;
                d->nswept++;
            }
        }
        free(h);
    }
    struct rd dry;
    struct il_data dd;
    il_rd_init(&dry, rd->sel, &dd);
    dry.defer = 1;
    dry.dry = 2;
    dry.mark = d;
    for (int i = 0; i < nfiles; i++) {
        if (!once[i]) {
            /* up to its records read before (a sweep may be appending) */
            struct il_lines l;
            if (il_lines_open(&l, files[i]) < 0)
                err(1, "%s", files[i]);
            dry.stop_at = upto[i];
            dry.stopped = 0;
            read_lines(&dry, &l, files[i], 1);
            il_lines_close(&l);
        } else {
            dry.ndry = upto[i];
        }
        if (dry.ndry != upto[i])
            errx(1,
                 "%s changed while it was read (%zu records, then %zu); read it again",
                 files[i], upto[i] - (i ? upto[i - 1] : 0), dry.ndry - (i ? upto[i - 1] : 0));
    }
    il_rd_free(&dry);
    il_data_free(&dd);
}

/*
 * With want_pids: the records of a run's children flagged IL_R_CHILD, so
 * that a run's status is its root's (prep.c; review13e MEDIUM-1: with
 * --expect-status 1 the record of a child that exits 0, as children do,
 * failed the run under --per).  A child: a record whose ppid is the pid
 * of another record of its run: with --per, of the same value of its
 * label (slot); else of the same host and labels (a hash of their text:
 * a child inherits its parent's labels).  The images of an exec chain
 * have one pid and are not each other's children.
 */
static void
children(struct il_data *d, size_t slot)
{
    size_t n = d->n, nb = 16;
    while (nb < 2 * n)
        nb *= 2;
    uint64_t *t = il_xmalloc(nb * sizeof *t);
    memset(t, 0xff, nb * sizeof *t); /* UINT64_MAX: empty (no pid is 2^32 - 1) */
    /* pass 0: every record's (run, pid) into t; pass 1: each one's (run,
     * ppid) looked up there */
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < n; i++) {
            int32_t p = pass ? d->ppid[i] : d->pid[i];
            if (p < 0)
                continue;
            uint64_t k = (uint64_t)(d->lh ? d->lh[i] : il_lab(d, i, slot)) << 32 | (uint32_t)p;
            size_t b = (size_t)((k * 0x9e3779b97f4a7c15ULL) >> 17) & (nb - 1);
            while (t[b] != UINT64_MAX && t[b] != k)
                b = (b + 1) & (nb - 1);
            if (!pass)
                t[b] = k;
            else if (t[b] == k)
                d->flag[i] |= IL_R_CHILD;
        }
    free(t);
}

void
il_read(const struct il_sel *sel, char **files, int nfiles, struct il_data *d)
{
    struct rd rd;
    /* Arrays of a million records and more are made and freed in turn
     * (columns, groups, units, the blocks of a comparison).  glibc raises
     * its mmap threshold to the size of each large block freed, so that
     * later ones come from the heap and their memory stays with the
     * process after free: a fixed threshold returns it (at a million
     * records the comparison's peak fell from 101 to 88 MB; bench/report.sh). */
    mallopt(M_MMAP_THRESHOLD, 256 * 1024);
    il_rd_init(&rd, sel, d);
    /* jansson seeds its hashes once, before the threads explain lines */
    json_object_seed(0);
    size_t *upto = il_xcalloc((size_t)nfiles + 1, sizeof *upto);
    char *once = il_xcalloc((size_t)nfiles + 1, 1);
    il_twice_files(d, files, nfiles);
    for (int i = 0; i < nfiles; i++) {
        read_file(&rd, files[i]);
        upto[i] = d->n;
        once[i] = (char)rd.in_stdin;
    }
    rd.in_stdin = 0;
    il_twice_records(d, files, upto, nfiles);
    if (d->sweep_lines) { /* read before a sweep's line was */
        free(d->when);
        d->when = NULL;
    }
    for (int i = 1; d->when && i < nfiles; i += 2) /* each record's input, modulo 2 */
        for (size_t r = upto[i - 1]; r < upto[i]; r++)
            d->when[r] |= (uint32_t)1 << IL_WHEN_FILE;
    if (d->swept.n > 1)
        swept(&rd, files, nfiles, upto, once);
    il_strtab_free(&d->swept); /* flagged: read no more */
    for (size_t i = 0; d->nswept && i < d->n; i++)
        d->flagged += (d->flag[i] & (IL_R_SWEPT | IL_R_SIGNAL | IL_R_NONZERO)) == IL_R_SWEPT;
    free(upto);
    free(once);
    if (d->pid && d->flagged)
        children(d, sel->pid_slot); /* else no status is judged: no need */
    if (d->pid) {
        free(d->pid);
        free(d->ppid);
        free(d->lh);
        d->pid = d->ppid = NULL;
        d->lh = NULL;
    }
    il_twice_warn(d, files);
    if (rd.shown > IL_MAX_SHOWN)
        {
        size_t more = rd.shown - IL_MAX_SHOWN;
        il_warn(IL_W_MORE_LINES, more, il_s(more), il_pl(more, "was", "were"));
    }
    if (d->n == 0)
        explain_empty(&rd);
    if (d->first_schema_other)
        il_warn(IL_W_SCHEMA, d->first_schema_other);
    if (d->unsupported)
        il_warn(IL_W_UNSUPPORTED, d->unsupported, il_s(d->unsupported),
                il_pl(d->unsupported, "has", "have"), sel->metric, il_pl(d->unsupported, "was", "were"),
                d->n, il_s(d->n), il_pl(d->n, "is", "are"));
    if (d->missing)
        il_warn(IL_W_MISSING, d->missing, il_s(d->missing), il_pl(d->missing, "lacks", "lack"),
                sel->metric, il_pl(d->missing, "was", "were"), d->n, il_s(d->n),
                il_pl(d->n, "is", "are"));
    if (d->nofloor)
        il_warn(IL_W_NOFLOOR, d->nofloor, il_s(d->nofloor), il_pl(d->nofloor, "has", "have"),
                sel->metric, il_pl(d->nofloor, "was", "were"));
    if (d->noenv)
        il_warn(IL_W_NOENV, d->noenv, il_s(d->noenv), il_pl(d->noenv, "has", "have"),
                il_pl(d->noenv, "was", "were"));
    if (d->notcounted)
        il_warn(IL_W_NOTCOUNTED, d->notcounted, il_s(d->notcounted), sel->metric,
                il_pl(d->notcounted, "was", "were"), il_pl(d->notcounted, "was", "were"));
    if (d->warmup && !sel->include_warmup)
        il_warn(IL_W_WARMUP, d->warmup, il_s(d->warmup), IL_L_WARMUP,
                il_pl(d->warmup, "was", "were"));
    il_disturb_warn(d);
    if (d->multiplexed)
        il_warn(IL_W_MULTIPLEX, d->multiplexed, il_s(d->multiplexed), sel->metric,
                il_pl(d->multiplexed, "was", "were"), 100 * d->mux_frac,
                sel->scale ? "scaled by enabled/running as perf stat does (--scale)"
                           : "not scaled; --scale scales them by enabled/running as perf stat "
                             "does");
    il_rd_free(&rd);
}

/* il_release: the pages of blocks b[0..n) given back by two threads, 32
 * MiB (IL_RELEASE_CHUNK) at a time, each thread taking the next (atomic),
 * on a grid of 32 MiB from address 0, so that no huge page is split; then
 * the blocks freed.  madvise(MADV_DONTNEED) holds the process's memory map
 * for reading only, so that the two threads free pages at once, where two
 * munmap calls each wait for the other's end; each call interrupts the
 * other CPU to flush its TLB, hence chunks larger than a huge page.  At
 * ten million records (--by system, 210 MB left at the end, 90 MB of it
 * in 4 KiB pages; phase timer, chrt -f 10, 4 runs each, 2026-11-27) the
 * exit's 5.9 ms on one thread became 3.1 and 3.0 ms on two and 0.7 ms of
 * exit: about 3.9 ms of wall time (chunks of 8 MiB 4.3 ms, of 2 MiB 4.8
 * ms; free() on the two threads 5.5 ms).  The tests' variant
 * (IL_TEST_PARTS) releases on two threads a page at a time whatever the
 * size when IL_TEST_RELEASE is set, and says on stderr how many chunks it
 * gave back. */
#define IL_RELEASE_CHUNK (32 * 1024 * 1024)
#define IL_RELEASE_MIN (16 * 1024 * 1024) /* bytes from which two threads release */

struct release {
    const size_t *first; /* block i's chunks: first[i] .. first[i + 1] */
    const uintptr_t *from, *to, *grid;
    size_t nchunk, chunk;
    size_t next; /* the next chunk (atomic) */
};

static void *
release_part(void *arg)
{
    struct release *r = arg;
    size_t k, i = 0;
    while ((k = __atomic_fetch_add(&r->next, 1, __ATOMIC_RELAXED)) < r->nchunk) {
        while (k >= r->first[i + 1])
            i++;
        uintptr_t a = r->grid[i] + (k - r->first[i]) * r->chunk, e = a + r->chunk;
        if (a < r->from[i])
            a = r->from[i];
        if (e > r->to[i])
            e = r->to[i];
        if (e > a)
            (void)madvise((void *)a, e - a, MADV_DONTNEED); /* only its pages */
    }
    return NULL;
}

void
il_release(void **b, size_t n)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE), total = 0;
    struct release r;
    memset(&r, 0, sizeof r);
    r.chunk = IL_RELEASE_CHUNK;
    size_t min = IL_RELEASE_MIN;
#ifdef IL_TEST_PARTS
    if (getenv("IL_TEST_RELEASE"))
        r.chunk = page, min = 0;
#endif
    size_t *first = il_xcalloc(n + 1, sizeof *first);
    uintptr_t *from = il_xcalloc(n + 1, sizeof *from), *to = il_xcalloc(n + 1, sizeof *to),
              *grid = il_xcalloc(n + 1, sizeof *grid);
    for (size_t i = 0; i < n; i++) {
        first[i] = r.nchunk;
        if (!b[i])
            continue;
        /* the block's whole pages (not a page it shares with its chunk
         * header or with another block) */
        uintptr_t p = (uintptr_t)b[i], z = malloc_usable_size(b[i]);
        from[i] = (p + page - 1) / page * page;
        to[i] = (p + z) / page * page;
        if (to[i] <= from[i])
            continue;
        grid[i] = from[i] / r.chunk * r.chunk;
        r.nchunk += (to[i] - grid[i] + r.chunk - 1) / r.chunk;
        total += to[i] - from[i];
    }
    first[n] = r.nchunk;
    r.first = first;
    r.from = from;
    r.to = to;
    r.grid = grid;
    pthread_t t;
    /* on one thread the exit frees them as fast */
    if (total >= min && r.nchunk >= 2 && il_two_cpus() &&
        pthread_create(&t, NULL, release_part, &r) == 0) {
        release_part(&r);
        pthread_join(t, NULL);
#ifdef IL_TEST_PARTS
        fprintf(stderr, "il-test-released: %zu\n", r.nchunk);
#endif
    }
    for (size_t i = 0; i < n; i++)
        free(b[i]);
    free(first);
    free(from);
    free(to);
    free(grid);
}

void
il_data_free(struct il_data *d)
{
    for (size_t i = 0; i < d->nkeys; i++)
        free(d->keys[i]);
    free(d->keys);
    free(d->den);
    free(d->addr);
    free(d->argh);
    free(d->imgh);
    free(d->ivcol);
    free(d->flag);
    free(d->val);
    free(d->env);
    free(d->wall);
    free(d->when);
    free(d->idh);
    free(d->pid);
    free(d->ppid);
    free(d->lh);
    free(d->links);
    for (size_t s = 0; s < IL_MAX_SLOTS; s++)
        il_lab_free(d, s);
    free(d->first_schema_other);
    il_strtab_free(&d->swept);
    il_disturb_free(d);
    il_twice_free(d);
    il_orders_free(d);
    il_machines_free(&d->mach);
    for (size_t i = 0; i < d->nrec_host; i++)
        free(d->rec_host[i]);
    for (size_t i = 0; i < d->nlv; i++) {
        free(d->lv[i].name);
        free(d->lv[i].seen);
    }
    free(d->lv);
    il_strtab_free(&d->st);
    memset(d, 0, sizeof *d);
}
