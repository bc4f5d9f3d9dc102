/*
 * prep.c: between reading and statistics.  The report never silently uses
 * a wrong input:
 *   - runs that failed are left out, with one warning saying how many and
 *     where: a fatal signal (exit.how "signal"), or a non-zero exit status
 *     in a group whose other runs exit 0 (a program that always exits 1
 *     is not failing); --include-failed keeps them;
 *   - --per LABEL sums the metric over the records of one run (an exec
 *     chain writes one record per image, INTERLOPER_INHERIT=none one per
 *     child, SPEC one per workload), so that a run is one value;
 *   - a derived metric NUM/DEN is divided after that sum (a ratio of sums);
 *   - a label named on the command line that no record carries is an
 *     error that lists the labels there are;
 *   - setup labels that the records carry but the command does not name
 *     are pointed out: the intervals would treat the runs as independent.
 * Warm-up runs (label warmup) are left out as they are read (input.c).
 */
#include <err.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "il_stats.h"

/* The data slots that make a group: --by and the compared label. */
static size_t
key_slots(const struct il_opts *o, size_t *slots)
{
    size_t n = 0;
    for (size_t i = 0; i < o->nby; i++)
        slots[n++] = o->by_slot[i];
    if (o->cmp_label) {
        size_t i = 0;
        while (i < n && slots[i] != o->cmp_slot)
            i++;
        if (i == n)
            slots[n++] = o->cmp_slot;
    }
    return n;
}

/* Mark failed records: of a launch the sweep called failed (IL_R_SWEPT,
 * whatever its exit; input.c judges no other exit of a driver's run), a
 * signal, or non-zero status beside status 0; with --expect-status N, any
 * status but N.  Not the status of a child's record (IL_R_CHILD, with
 * --per or --expect-status): a run's status is its root's.  The counts:
 * n[0] swept, n[1] signal, n[2] status; failed[i] is 1 + the cause of
 * record i's; where names the first group with any, and *where_rec is a
 * record of that group. */
static void
mark_failed(const struct il_opts *o, const struct il_data *d, uint8_t *failed, size_t *n,
            char *where, size_t wn, size_t *where_rec)
{
    size_t slots[IL_MAX_SLOTS], nk = key_slots(o, slots);
    const uint8_t bad = IL_R_NONZERO | IL_R_SIGNAL | IL_R_SWEPT;
    n[0] = n[1] = n[2] = 0;
    where[0] = '\0';
    /* no record failed: none was read so (d->flagged), or none is left */
    size_t r = 0;
    while (d->flagged && r < d->n && !(d->flag[r] & bad))
        r++;
    if (r == d->n || !d->flagged)
        return;
    struct il_groups gs;
    il_group_by(d, slots, nk, &gs);
    for (size_t g = 0; g < gs.ng; g++) {
        const struct il_group *gr = &gs.g[g];
        int ok = 0;
        size_t here = 0;
        /* a run's status is its root record's, not its children's */
        for (size_t i = 0; i < gr->n; i++) {
            uint8_t f = d->flag[gr->rec[i]];
            ok |= (f & IL_R_STATUS) && !(f & (bad | IL_R_CHILD));
        }
        for (size_t i = 0; i < gr->n; i++) {
            uint8_t f = d->flag[gr->rec[i]];
            int k = f & IL_R_SWEPT    ? 0
                    : f & IL_R_SIGNAL ? 1
                    : (f & IL_R_NONZERO) && !(f & IL_R_CHILD) && (ok || o->sel.expect_given)
                        ? 2
                        : -1;
            if (k >= 0) {
                failed[gr->rec[i]] = (uint8_t)(1 + k); /* its cause, for --per */
                n[k]++;
                here++;
            }
        }
        if (here && !where[0]) {
            char *name = il_group_name(d, &gs, gr->key, " ", SIZE_MAX);
            snprintf(where, wn, "%zu in %s", here, name);
            free(name);
            *where_rec = gr->rec[0];
        }
    }
    il_groups_free(&gs);
}

/* Whether records i and j have the same values of the report's groups'
 * labels (key_slots). */
static int
same_group(const struct il_opts *o, const struct il_data *d, size_t i, size_t j)
{
    size_t slots[IL_MAX_SLOTS], nk = key_slots(o, slots);
    for (size_t k = 0; k < nk; k++)
        if (il_lab(d, i, slots[k]) != il_lab(d, j, slots[k]))
            return 0;
    return 1;
}

/*
 * The [failed] warning's words: the failed runs left out and their causes
 * n (mark_failed; without --per each record is a run), the records of
 * launches the sweep marked failed: n[0] of them without --per, where a
 * record of such a launch is not said a failed run (a resumed sweep ran
 * its run again in a new launch, whose records are kept), and with --per
 * nretrec of them, of nretried runs whose every failed record was of
 * such a launch and that another launch of kept (review15b M1: such a
 * run is in the numbers, not a failed run left out); where.
 */
static void
failed_words(const struct il_opts *o, const size_t *n, size_t nretried, size_t nretrec,
             const char *where, char *out, size_t cap)
{
    size_t runs = o->per ? n[0] + n[1] + n[2] : n[1] + n[2];
    size_t swept = o->per ? nretrec : n[0], k = 0;
    out[0] = '\0';
#define ADD(...)                                                                                   \
    do {                                                                                           \
        if (k < cap)                                                                               \
            k += (size_t)snprintf(out + k, cap - k, __VA_ARGS__);                                  \
    } while (0)
    if (runs)
        ADD("%zu failed run%s", runs, il_s(runs));
    if (swept)
        ADD("%s%zu %s the sweep marked failed", runs ? " and " : "", swept,
            il_pl(swept, "record of a launch", "records of launches"));
    ADD(" %s left out (", il_pl(runs + swept, "was", "were"));
    const char *sep = "";
    if (o->per && n[0]) {
        ADD("%zu the sweep marked failed", n[0]);
        sep = ", ";
    }
    if (n[1]) {
        ADD("%s%zu %s of a signal", sep, n[1], o->per ? "had a process that died" : "died");
        sep = ", ";
    }
    if (n[2]) {
        if (o->sel.expect_given)
            ADD("%s%zu exited with a status other than %d", sep, n[2], o->sel.expect_status);
        else
            ADD("%s%zu exited non-zero where other runs exit 0", sep, n[2]);
        sep = ", ";
    }
    if (*sep)
        sep = "; ";
    if (nretried) {
        ADD("%s%zu run%s retried, whose retr%s kept", sep, nretried, il_s(nretried),
            il_pl(nretried, "y is", "ies are"));
        sep = "; ";
    }
    ADD("%s%s)", sep, where);
#undef ADD
}

struct pr {
    uint32_t id;
    size_t i;
};

static int
cmp_pr(const void *pa, const void *pb)
{
    const struct pr *a = pa, *b = pb;
    if (a->id != b->id)
        return a->id < b->id ? -1 : 1;
    return (a->i > b->i) - (a->i < b->i);
}

/* Two records' il_data when as one: a's input, and the earlier start (a
 * run's is its first record's; 0, none, gives way to the other). */
static uint32_t
when_min(uint32_t a, uint32_t b)
{
    uint32_t t = (uint32_t)1 << IL_WHEN_FILE, sa = a % t, sb = b % t;
    if (!sa || (sb && sb < sa))
        return a - sa + sb;
    return a;
}

/* --per: one value per run.  Records lacking the label stay alone. */
static void
combine(const struct il_opts *o, struct il_data *d, uint8_t *drop)
{
    size_t n = d->n, slots[IL_MAX_SLOTS], nk = key_slots(o, slots), lone = 0;
    struct pr *t = il_xcalloc(n, sizeof *t);
    uint8_t *keep = il_xcalloc(n, 1);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (drop[i])
            continue;
        t[m].id = il_lab(d, i, o->per_slot);
        t[m++].i = i;
    }
    qsort(t, m, sizeof *t, cmp_pr);
    d->per_records = m;
    for (size_t a = 0; a < m;) {
        size_t b = a + 1;
        if (t[a].id != IL_MISSING_ID)
            while (b < m && t[b].id == t[a].id)
                b++;
        else
            lone++;
        size_t f = t[a].i;
        keep[f] = 1;
        int allint = (d->flag[f] & IL_R_INT) != 0;
        int64_t isum = allint ? il_ival(d, f) : 0;
        for (size_t j = a + 1; j < b; j++) {
            size_t r = t[j].i;
            for (size_t s = 0; s < nk; s++)
                if (il_lab(d, r, slots[s]) != il_lab(d, f, slots[s]))
                    errx(1,
                         "--per %s: the records of run '%s' differ in the label '%s' (%s and "
                         "%s); the records of one run must belong to one group",
                         o->per, il_str(&d->st, t[a].id), d->slot_name[slots[s]],
                         il_str(&d->st, il_lab(d, f, slots[s])),
                         il_str(&d->st, il_lab(d, r, slots[s])));
            d->val[f] += d->val[r];
            if (d->den)
                d->den[f] += d->den[r];
            if (d->wall)
                d->wall[f] += d->wall[r];
            if (d->when)
                d->when[f] = when_min(d->when[f], d->when[r]);
            allint = allint && (d->flag[r] & IL_R_INT) &&
                     !__builtin_add_overflow(isum, il_ival(d, r), &isum);
            d->flag[f] |= d->flag[r] & (IL_R_SIGNAL | IL_R_NONZERO | IL_R_OTHERS);
        }
        if (!allint)
            d->flag[f] &= (uint8_t)~IL_R_INT;
        else if (b > a + 1)
            il_ival_set(d, f, isum);
        a = b;
    }
    if (lone)
        il_warn(IL_W_NOPER, lone, il_s(lone), il_pl(lone, "lacks", "lack"), o->per);
    il_data_keep(d, keep);
    free(keep);
    free(t);
}

/* the unit of the design record i belongs to: its setup, or its cell of
 * two crossed labels; all records are one unit without a design */
static uint64_t
unit_of(const struct il_opts *o, const struct il_data *d, size_t i)
{
    if (o->design == IL_D_FLAT)
        return 0;
    uint64_t a = il_lab(d, i, o->design_slot[0]);
    uint64_t b = o->design == IL_D_CROSSED ? il_lab(d, i, o->design_slot[1]) : 0;
    return a << 32 | b;
}

/*
 * --subtract LABEL=VALUE: the runs of that group are a cost inside every
 * other run, measured apart (interloper compare's shell alone, as
 * hyperfine measures and subtracts the shell's time): the mean of its runs
 * in each unit of the design (each setup; all runs without a design) is
 * subtracted from every other run of that unit, and its runs are left
 * out.  With a design the subtracted means vary with the units, so their
 * noise reaches the units' means, over which the intervals are taken.  A
 * unit without such runs cannot be corrected: its runs are left out.
 */
static void
subtract(const struct il_opts *o, struct il_data *d)
{
    uint32_t want = il_strtab_find(&d->st, o->sub_value);
    size_t n = d->n, k = 0, nsub = 0, lost = 0;
    struct unit {
        uint64_t id;
        double sum;
        size_t n;
    } *u = il_xcalloc(n + 1, sizeof *u);
    for (size_t i = 0; i < n; i++) {
        if (il_lab(d, i, o->sub_slot) != want || want == IL_MISSING_ID)
            continue;
        uint64_t id = unit_of(o, d, i);
        size_t j = 0;
        while (j < k && u[j].id != id)
            j++;
        if (j == k)
            u[k++].id = id;
        u[j].sum += d->val[i];
        u[j].n++;
        nsub++;
    }
    if (!nsub)
        errx(1,
             "--subtract %s=%s: no run has it; expected the label value of the runs to "
             "subtract",
             o->sub_label, o->sub_value);
    uint8_t *keep = il_xcalloc(n, 1);
    double total = 0;
    for (size_t j = 0; j < k; j++)
        total += u[j].sum;
    for (size_t i = 0; i < n; i++) {
        if (il_lab(d, i, o->sub_slot) == want)
            continue;
        uint64_t id = unit_of(o, d, i);
        size_t j = 0;
        while (j < k && u[j].id != id)
            j++;
        if (j == k) {
            lost++;
            continue;
        }
        d->val[i] -= u[j].sum / (double)u[j].n;
        d->flag[i] &= (uint8_t)~IL_R_INT;
        keep[i] = 1;
    }
    if (lost)
        il_warn(IL_W_SUBTRACT, lost, il_s(lost), il_pl(lost, "is", "are"), o->sub_label, o->sub_value,
                il_pl(lost, "it", "them"), il_pl(lost, "it was", "they were"));
    d->sub_mean = total / (double)nsub;
    d->sub_runs = nsub;
    d->sub_units = k;
    il_data_keep(d, keep);
    free(keep);
    free(u);
}

static int
cmp_link_to(const void *pa, const void *pb)
{
    const struct il_link *a = pa, *b = pb;
    return (a->to > b->to) - (a->to < b->to);
}

static int
cmp_link_from(const void *pa, const void *pb)
{
    const struct il_link *a = pa, *b = pb;
    return (a->from > b->from) - (a->from < b->from);
}

/*
 * Exec records superseded by a later record of their image (links sup:
 * the exec failed, and that record covers the whole image): each is left
 * out (keep 0), and the chain that led into it leads into the record that
 * superseded it instead, through as many failed execs as the image made.
 * The remaining links, in d->links, are the folds.
 */
static void
drop_superseded(struct il_data *d, uint8_t *keep)
{
    size_t ns = 0, m = 0;
    for (size_t k = 0; k < d->nlinks; k++)
        ns += d->links[k].sup != 0;
    if (!ns)
        return;
    struct il_link *s = il_xmalloc(ns * sizeof *s);
    for (size_t k = 0; k < d->nlinks; k++) {
        if (d->links[k].sup) {
            s[m++] = d->links[k];
            keep[d->links[k].from] = 0;
        }
    }
    qsort(s, ns, sizeof *s, cmp_link_from);
    m = 0;
    for (size_t k = 0; k < d->nlinks; k++) {
        if (d->links[k].sup)
            continue;
        struct il_link l = d->links[k];
        for (;;) { /* l.to superseded: by which record */
            struct il_link key = {l.to, 0, 0};
            const struct il_link *by = bsearch(&key, s, ns, sizeof *s, cmp_link_from);
            if (!by)
                break;
            l.to = by->to;
        }
        d->links[m++] = l;
    }
    d->nlinks = m;
    d->superseded = ns;
    free(s);
}

/*
 * One process's exec chain is one run (outside13 F12): each record that
 * ended in an exec is folded into the next image's record (chain_note,
 * input.c), in input order, so that the last image's record holds the
 * chain: the metric (and a derived metric's numerator and denominator)
 * and the wall time summed over the images, maxrss their largest (the
 * kernel's high-water mark of the process), the setup facts (env_bytes,
 * main_sp, heap_start) the first image's, the labels (the same in every
 * image) and the arguments (args) the last's; others_measured if any
 * image had it.  A chain whose last record ended in an exec (its next
 * image wrote none) stays a record that ended in an exec, for
 * [exec-chain].
 */
static void
fold_chains(const struct il_opts *o, struct il_data *d)
{
    if (!d->nlinks)
        return;
    uint8_t *keep = il_xmalloc(d->n);
    memset(keep, 1, d->n);
    drop_superseded(d, keep);
    qsort(d->links, d->nlinks, sizeof *d->links, cmp_link_to);
    int max1 = o->sel.kind == IL_M_MAXRSS, max2 = o->sel.derived && o->sel.kind2 == IL_M_MAXRSS;
    for (size_t k = 0; k < d->nlinks; k++) {
        size_t f = d->links[k].from, t = d->links[k].to;
        int allint = (d->flag[f] & IL_R_INT) && (d->flag[t] & IL_R_INT);
        int64_t a = allint ? il_ival(d, f) : 0, b = allint ? il_ival(d, t) : 0, sum = 0;
        if (max1) {
            if (d->val[f] > d->val[t]) {
                d->val[t] = d->val[f];
                sum = a;
            } else {
                sum = b;
            }
        } else {
            d->val[t] += d->val[f];
            allint = allint && !__builtin_add_overflow(a, b, &sum);
        }
        if (allint)
            il_ival_set(d, t, sum);
        else
            d->flag[t] &= (uint8_t)~IL_R_INT;
        if (d->den)
            d->den[t] = max2 ? fmax(d->den[t], d->den[f]) : d->den[t] + d->den[f];
        if (d->wall)
            d->wall[t] += d->wall[f];
        if (d->when)
            d->when[t] = when_min(d->when[t], d->when[f]);
        if (d->env)
            d->env[t] = d->env[f];
        if (d->addr)
            memcpy(d->addr + 2 * t, d->addr + 2 * f, 2 * sizeof *d->addr);
        d->flag[t] |= d->flag[f] & IL_R_OTHERS;
        keep[f] = 0;
    }
    d->folded = d->nlinks;
    il_data_keep(d, keep);
    free(keep);
    free(d->links);
    d->links = NULL;
    d->nlinks = d->caplinks = 0;
}

void
il_prepare(const struct il_opts *o, struct il_data *d)
{
    fold_chains(o, d);
    uint8_t *failed = il_xcalloc(d->n, 1);
    size_t nf[3], where_rec = 0;
    char where[512];
    mark_failed(o, d, failed, nf, where, sizeof where, &where_rec);
    size_t nfail = nf[0] + nf[1] + nf[2], nrec = nfail, nretried = 0, nretrec = 0;
    if (o->per && nfail) {
        /* A run with a failed record failed as a whole; but not through
         * a record of a launch the sweep called failed (IL_R_SWEPT): a
         * resumed sweep retries the run under its label in a new launch,
         * whose records are the run's (review14b HIGH-1), and every
         * record of the failed launch is flagged itself. */
        struct pr *t = il_xcalloc(d->n, sizeof *t);
        for (size_t i = 0; i < d->n; i++) {
            t[i].id = il_lab(d, i, o->per_slot);
            t[i].i = i;
        }
        qsort(t, d->n, sizeof *t, cmp_pr);
        /* [failed] counts runs, each by the first cause of its records
         * (swept, signal, status), and where's group in runs too (fix14a:
         * it counted records, and its causes before the spread) */
        size_t here = 0;
        nf[0] = nf[1] = nf[2] = nfail = nrec = 0;
        for (size_t a = 0; a < d->n;) {
            size_t b = a + 1;
            if (t[a].id != IL_MISSING_ID)
                while (b < d->n && t[b].id == t[a].id)
                    b++;
            int any = 0;
            uint8_t cause = 0;
            for (size_t j = a; j < b; j++) {
                uint8_t c = failed[t[j].i];
                any |= c && !(d->flag[t[j].i] & IL_R_SWEPT);
                if (c && (!cause || c < cause))
                    cause = c;
            }
            for (size_t j = a; j < b && any; j++)
                failed[t[j].i] = 1;
            /* a record kept: the run's retry, it is no failed run */
            int kept = 0;
            for (size_t j = a; j < b && cause && !any && !kept; j++)
                kept = !failed[t[j].i];
            if (kept) {
                nretried++;
                for (size_t j = a; j < b; j++)
                    nretrec += failed[t[j].i] != 0;
            } else if (cause) {
                nf[cause - 1]++;
                nfail++;
            }
            if (cause) {
                /* a record of the run in where's group (a run's records
                 * belong to one group) */
                int there = 0;
                for (size_t j = a; j < b && !there; j++)
                    there = failed[t[j].i] && same_group(o, d, t[j].i, where_rec);
                here += (size_t)there;
            }
            for (size_t j = a; j < b; j++)
                nrec += failed[t[j].i] != 0;
            a = b;
        }
        free(t);
        char *in = strstr(where, " in ");
        if (in) {
            char count[24];
            size_t cn = (size_t)snprintf(count, sizeof count, "%zu", here), rn = strlen(in) + 1;
            if (cn + rn <= sizeof where) {
                memmove(where + cn, in, rn);
                memcpy(where, count, cn);
            }
        }
    }
    d->failed = nfail;
    if (nrec && !o->include_failed) {
        char what[768];
        failed_words(o, nf, nretried, nretrec, where, what, sizeof what);
        if (nrec == d->n)
            errx(1,
                 "every selected run failed: %s; nothing is left to summarise: "
                 "--include-failed keeps them",
                 what);
        il_warn(IL_W_FAILED, what);
        for (size_t i = 0; i < d->n; i++)
            failed[i] = !failed[i];
        il_data_keep(d, failed);
        memset(failed, 0, d->n);
    } else if (o->per) {
        memset(failed, 0, d->n);
    }
    if (o->per)
        combine(o, d, failed);
    free(failed);
    if (d->den) {
        for (size_t i = 0; i < d->n; i++) {
            if (d->den[i] == 0)
                errx(1,
                     "--metric %s: a run has %s = 0, so the ratio is undefined; leave it out "
                     "with --where",
                     o->sel.metric, o->sel.part[1]);
            d->val[i] /= d->den[i];
            d->flag[i] &= (uint8_t)~IL_R_INT;
        }
    }
    if (o->sub_label)
        subtract(o, d);
}

/* Distinct values of a slot among the kept records (missing not counted).
 * Before any record is dropped (il_check_labels, before il_prepare), a
 * slot's values indexed in 2 bytes are its records' own (il_lab_set adds
 * a value with its first record), and one value is every record's. */
static size_t
distinct(const struct il_data *d, size_t slot)
{
    if (d->labn[slot]) {
        size_t k = 0;
        for (size_t i = 0; i < d->labd[slot].n; i++)
            k += d->labd[slot].v[i] != IL_MISSING_ID;
        return k;
    }
    if (!d->labc[slot])
        return d->n && d->labk[slot] != IL_MISSING_ID;
    uint8_t *seen = il_xcalloc(d->st.n + 1, 1);
    size_t k = 0;
    for (size_t i = 0; i < d->n; i++) {
        uint32_t id = il_lab(d, i, slot);
        if (id != IL_MISSING_ID && !seen[id]) {
            seen[id] = 1;
            k++;
        }
    }
    free(seen);
    return k;
}

static void
need(const struct il_data *d, size_t slot, const char *opt)
{
    char buf[1024];
    if (d->present[slot])
        return;
    il_data_keys(d, buf, sizeof buf);
    errx(1, "%s: no record has the label '%s' (%zu records read); the labels are: %s", opt,
         d->slot_name[slot], d->records, buf);
}

size_t
il_data_slot(const struct il_data *d, const char *name)
{
    for (size_t i = 0; i < d->nslots; i++)
        if (strcmp(d->slot_name[i], name) == 0)
            return i;
    return SIZE_MAX;
}

static int
named(const struct il_opts *o, const char *name)
{
    for (size_t i = 0; i < o->nby; i++)
        if (strcmp(o->by[i], name) == 0)
            return 1;
    for (size_t i = 0; i < o->nsetup; i++)
        if (strcmp(o->setup[i], name) == 0)
            return 1;
    for (size_t i = 0; i < o->nlevels; i++)
        if (strcmp(o->levels[i], name) == 0)
            return 1;
    return (o->cmp_label && strcmp(o->cmp_label, name) == 0) ||
           (o->per && strcmp(o->per, name) == 0);
}

/* The selected records come from machines whose facts differ (their
 * snapshots, il_machine.h), pooled: unless the host is a level or --by; and
 * a machine that changed during a sweep. */
static void
machines(const struct il_opts *o, const struct il_data *d)
{
    const struct il_machines *m = &d->mach;
    if (m->changed)
        il_warn(IL_W_MACHINE_CHANGED, m->change);
    if (named(o, IL_PSEUDO_HOST) || d->nrec_host < 2)
        return;
    json_t *first = NULL;
    const char *fh = NULL;
    for (size_t i = 0; i < d->nrec_host; i++)
        for (size_t h = 0; h < m->nhosts; h++) {
            if (strcmp(m->hosts[h].host, d->rec_host[i]))
                continue;
            char why[900], what[1200];
            if (!first) {
                first = m->hosts[h].first;
                fh = m->hosts[h].host;
            } else if (il_machine_differ(first, m->hosts[h].first, why, sizeof why)) {
                snprintf(what, sizeof what, "hosts %s and %s: %s", fh, m->hosts[h].host, why);
                il_warn(IL_W_MACHINES, what);
                return;
            }
        }
}

void
il_check_labels(const struct il_opts *o, const struct il_data *d)
{
    if (o->tool == IL_TOOL_REPORT)
        machines(o, d);
    for (size_t i = 0; i < o->nby; i++)
        need(d, o->by_slot[i], "--by");
    if (o->cmp_label)
        need(d, o->cmp_slot, "--compare");
    for (size_t i = 0; i < o->nsetup; i++)
        need(d, o->setup_slot[i], "--setup");
    for (size_t i = 0; i < o->nlevels; i++)
        need(d, o->level_slot[i], "--levels");
    if (o->per)
        need(d, o->per_slot, "--per");
    if (o->passes && o->passes_given)
        need(d, o->pass_slot, "--passes");
    /* Design labels of interloper sweep that vary but are not named: the
     * setup id and the factors it is crossed from. */
    static const char *const design[] = {IL_L_SETUP, IL_L_ENV_ADD, IL_L_LAYOUT, IL_L_STACK_OFFSET,
                                         IL_L_HEAP_OFFSET};
    char have[512] = "", pair[128] = "", sugg[512];
    size_t o2 = 0, nvary = 0, nfact = 0, named_fact = 0, has_setup = 0;
    for (size_t i = 0; i < sizeof design / sizeof design[0]; i++) {
        size_t s = il_data_slot(d, design[i]), k = s == SIZE_MAX ? 0 : distinct(d, s);
        if (k < 2)
            continue;
        has_setup |= i == 0;
        if (i > 0) {
            named_fact += named(o, design[i]) != 0;
            if (nfact++ < 2)
                snprintf(pair + strlen(pair), sizeof pair - strlen(pair), "%s%s",
                         nfact > 1 ? "," : "", design[i]);
        }
        if (named(o, design[i]))
            continue;
        nvary++;
        o2 += (size_t)snprintf(have + o2, sizeof have - o2, "%s%s (%zu values)", o2 ? ", " : "",
                               design[i], k);
    }
    if (!nvary || o->tool != IL_TOOL_REPORT)
        return;
    if (o->design == IL_D_FLAT) {
        if (nfact == 2)
            snprintf(sugg, sizeof sugg,
                     "they treat every run as independent, which understates them when setups "
                     "have effects of their own; name the design with --setup %s (crossed)%s",
                     pair, has_setup ? " or --setup " IL_L_SETUP : "");
        else
            snprintf(sugg, sizeof sugg,
                     "they treat every run as independent, which understates them when setups "
                     "have effects of their own; name the design with --setup LABEL");
        il_warn(IL_W_DESIGN, have, sugg);
    } else if (o->design == IL_D_ONE && nfact >= 2 && named_fact == 1) {
        snprintf(sugg, sizeof sugg,
                 "they vary within each setup of --setup %s, so that their effects are "
                 "averaged there and the interval speaks for these values of them only; "
                 "--setup %s models the two as crossed",
                 o->setup[0], pair);
        il_warn(IL_W_DESIGN, have, sugg);
    } else if (o->design == IL_D_ONE && nfact >= 2 && !named_fact) {
        if (nfact == 2)
            snprintf(sugg, sizeof sugg,
                     "each setup is taken as independent, but setups that share a value of "
                     "either share its effect; --setup %s models the two as crossed",
                     pair);
        else
            snprintf(sugg, sizeof sugg,
                     "each setup is taken as independent, but setups that share a factor's value "
                     "share its effect; --setup A,B models two factors as crossed");
        il_warn(IL_W_DESIGN, have, sugg);
    }
}
