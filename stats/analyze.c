/*
 * analyze.c: from records to conclusions.  Groups, their estimates with
 * intervals that respect the design, and their diagnostics; levels and the
 * plan (Kalibera & Jones section 9).  Comparisons are in comparisons.c.
 */
#include <err.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "il_stats.h"

/* The summary and diagnostics of group g (scratch: room for its values). */
static void
describe_group(struct il_report *r, size_t g, double *scratch)
{
    const struct il_group *gr = &r->gs.g[g];
    struct il_summary *s = &r->sum[g];
    /* the median once: il_summarize's, for the skew and il_diagnose */
    il_summarize(gr->x, gr->n, scratch, s);
    s->skew = NAN;
    if (gr->n >= 10) {
        /* two more order statistics: selection (in scratch, which
         * il_summarize left holding the values), not a sort */
        double q1 = il_quantile_select(scratch, gr->n, 0.1),
               q9 = il_quantile_select(scratch, gr->n, 0.9);
        if (q9 > q1)
            s->skew = (q9 + q1 - 2 * s->median) / (q9 - q1);
    }
    il_diagnose_med(gr->x, gr->n, s->median, scratch, &r->diag[g]);
    int allint = 1;
    for (size_t i = 0; i < gr->n && allint; i++)
        allint = (r->d.flag[gr->rec[i]] & IL_R_INT) != 0;
    if (allint)
        il_summarize_int(&r->d, gr->rec, gr->x, gr->n, s);
}

/* Groups [from, to) of r, each on its own, in scratch (room for the
 * largest's values; NULL: its own). */
struct describe_part {
    struct il_report *r;
    size_t from, to;
    double *scratch;
};

/* The most values of a group of p. */
static size_t
part_maxn(const struct describe_part *p)
{
    size_t maxn = 1;
    for (size_t g = p->from; g < p->to; g++)
        if (p->r->gs.g[g].n > maxn)
            maxn = p->r->gs.g[g].n;
    return maxn;
}

static void *
describe_part(void *arg)
{
    struct describe_part *p = arg;
    double *own = NULL, *scratch = p->scratch;
    if (!scratch) {
        size_t maxn = part_maxn(p);
        scratch = own = il_xcalloc_huge(maxn, sizeof *scratch);
    }
    for (size_t g = p->from; g < p->to; g++)
        describe_group(p->r, g, scratch);
    free(own);
    return NULL;
}

/* Records from which the groups are described on two threads. */
#define IL_DESCRIBE_SPLIT 100000

/* Summaries and diagnostics of every group; the warnings come later, so
 * that a fatal error is not preceded by warnings.  With many records and
 * two CPUs, the groups after the one where half the records are reached
 * are described by a second thread (each group's results are its own: the
 * same as one thread's). */
static void
describe_groups(struct il_report *r)
{
    size_t ng = r->gs.ng, total = 0;
    r->sum = il_xcalloc(ng, sizeof *r->sum);
    r->diag = il_xcalloc(ng, sizeof *r->diag);
    r->gname = il_xcalloc(ng, sizeof *r->gname);
    for (size_t g = 0; g < ng; g++) {
        r->gname[g] = il_group_name(&r->d, &r->gs, r->gs.g[g].key, " ", SIZE_MAX);
        total += r->gs.g[g].n;
    }
    struct describe_part part[2] = {{r, 0, ng}, {r, ng, ng}};
    if (ng >= 2 && total >= IL_DESCRIBE_SPLIT && il_two_cpus()) {
        size_t cut = 0, acc = 0;
        while (cut < ng - 1 && 2 * (acc + r->gs.g[cut].n) <= total)
            acc += r->gs.g[cut++].n;
        part[0].to = part[1].from = cut ? cut : 1;
    }
    /* The room the values had before they were grouped (gs.spare) holds
     * both parts' scratch: its pages are the process's already, where new
     * ones would each be a page fault, and on a virtual machine the first
     * touch of memory the host had not given the guest yet (at ten million
     * records the thread that met such pages took 20 to 90 ms longer) */
    size_t m0 = part_maxn(&part[0]), m1 = part[1].from < ng ? part_maxn(&part[1]) : 0;
    if (r->gs.spare && m0 + m1 <= r->gs.nspare) {
        part[0].scratch = r->gs.spare;
        part[1].scratch = r->gs.spare + m0;
    }
    pthread_t t;
    int two = part[1].from < ng && pthread_create(&t, NULL, describe_part, &part[1]) == 0;
    if (!two)
        part[0].to = ng; /* no thread: all here (spare holds any group) */
    describe_part(&part[0]);
    if (two)
        pthread_join(t, NULL);
    free(r->gs.spare);
    r->gs.spare = NULL;
    r->gs.nspare = 0;
}

/* A report with a design (r->lean: no --attribute, --gobench or --levels)
 * reads the runs only through the units after il_group_intervals: the
 * groups' x is the units' (in_place), which il_units_in_order gives back
 * in input order for the comparisons' flat intervals.  So what no later
 * step reads is freed as soon as it is read for the last time: once the
 * groups are described (units 0), the records' flags and integer values
 * and the label columns the units do not read (il_units_slots); once the
 * units and their cells are made (units 1), the rest of the label columns
 * and the groups' records, but for a host label of more than one value,
 * left with the records for check_hosts.  The per-setup phases then hold
 * 14 bytes a run, not 31 (issue 18: memory).  A slot freed reads as
 * IL_MISSING_ID. */
static void
drop_runs(struct il_report *r, int units)
{
    struct il_data *d = &r->d;
    const struct il_opts *o = r->o;
    uint8_t keep[IL_MAX_SLOTS] = {0};
    size_t hs = il_data_slot(d, IL_PSEUDO_HOST);
    int keep_rec = hs != SIZE_MAX && (d->labn[hs] || d->labc[hs]);
    if (keep_rec)
        keep[hs] = 1;
    if (!units)
        il_units_slots(d, o->design, o->design_slot, o->pass_slot, keep);
    for (size_t s = 0; s < d->nslots; s++) {
        if (keep[s])
            continue;
        if (d->labn[s] || d->labc[s])
            d->labk[s] = IL_MISSING_ID;
        il_lab_free(d, s);
    }
    free(d->flag);
    free(d->ivcol);
    free(d->argh);
    free(d->imgh);
    d->flag = NULL;
    d->ivcol = NULL;
    d->argh = NULL;
    d->imgh = NULL;
    if (!units)
        return;
    if (!keep_rec) {
        free(r->gs.recs);
        r->gs.recs = NULL;
    }
    for (size_t g = 0; g < r->gs.ng; g++) {
        r->gs.g[g].x = NULL;
        if (!keep_rec)
            r->gs.g[g].rec = NULL;
    }
}

/*
 * Each group's estimate and its interval.  Without a design: the t
 * interval of the mean, the order-statistic interval of a quantile, none
 * for the minimum.  With one (--setup, --levels), the setups are the
 * units: the estimate is the mean of the per-setup estimates and its
 * interval is taken over them (Kalibera & Jones, eq. 4: the variance at
 * the highest level), crossed labels as in design.c.
 */
void
il_group_intervals(struct il_report *r)
{
    const struct il_opts *o = r->o;
    size_t ng = r->gs.ng, maxn = 1;
    for (size_t g = 0; g < ng && o->design == IL_D_FLAT; g++)
        if (r->gs.g[g].n > maxn)
            maxn = r->gs.g[g].n;
    double *sorted = il_xcalloc(maxn, sizeof *sorted); /* the flat estimates' */
    if (o->design != IL_D_FLAT)
        r->units = il_xcalloc(ng, sizeof *r->units);
    for (size_t g = 0; g < ng; g++) {
        const struct il_group *gr = &r->gs.g[g];
        struct il_summary *s = &r->sum[g];
        s->est_lo = s->est_hi = s->ci_df = NAN;
        if (o->design != IL_D_FLAT) {
            size_t miss = 0;
            for (size_t i = 0; i < gr->n; i++)
                for (size_t j = 0; j < (o->design == IL_D_CROSSED ? 2u : 1u); j++)
                    miss += il_lab(&r->d, gr->rec[i], o->design_slot[j]) == IL_MISSING_ID;
            if (miss)
                errx(1,
                     "%s: %zu records lack a label of the setups ('%s'); every record "
                     "needs it (or leave such records out with --where)",
                     r->gname[g], miss, o->d_label[0]);
            struct il_units *u = &r->units[g];
            il_units_build(&r->d, gr, o->design, o->design_slot, o->pass_slot, &o->est, r->lean, u);
            s->est = il_mean(u->est, u->k);
            s->ci_method =
                o->design == IL_D_CROSSED ? "t over setups, two crossed labels" : "t over setups";
            struct il_dvar v = {0}; /* freed even when not initialised (the minimum) */
            if (o->est.kind != IL_EST_MIN &&
                il_dvar_init(&v, u->k, u->fa, o->design == IL_D_CROSSED ? u->fb : NULL) == 0) {
                double m;
                s->has_est_ci = il_dvar_tci(&v, u->est, &m, &s->est_lo, &s->est_hi, &s->ci_df) == 0;
            }
            il_dvar_free(&v);
            continue;
        }
        /* the mean: il_summarize's of the same values (describe_group) */
        s->est = o->est.kind == IL_EST_MEAN ? s->mean : il_estimate(&o->est, gr->x, gr->n, sorted);
        switch (o->est.kind) {
        case IL_EST_MEAN:
            s->ci_method = "t";
            s->has_est_ci = s->has_ci;
            s->est_lo = s->lo;
            s->est_hi = s->hi;
            s->ci_df = s->has_ci ? (double)(gr->n - 1) : NAN;
            break;
        case IL_EST_MIN:
            s->ci_method = "none: the minimum has no honest interval";
            break;
        default:
            s->ci_method = "order statistics";
            memcpy(sorted, gr->x, gr->n * sizeof *sorted);
            qsort(sorted, gr->n, sizeof *sorted, il_dcmp);
            s->has_est_ci =
                il_quantile_ci(sorted, gr->n, o->est.p, &s->est_lo, &s->est_hi, NULL) == 0;
            break;
        }
    }
    free(sorted);
    if (r->units)
        il_units_cells(&r->d, &r->gs, r->units, ng, r->lean);
    if (r->lean)
        drop_runs(r, 1);
}

/* Each group's records measured while another measured program ran
 * (others_measured, libinterloper(7)): a harness run in parallel, lit -j2. */
static void
count_others(struct il_report *r)
{
    r->others = il_xcalloc(r->gs.ng, sizeof *r->others);
    for (size_t g = 0; g < r->gs.ng; g++)
        for (size_t i = 0; i < r->gs.g[g].n; i++)
            r->others[g] += (r->d.flag[r->gs.g[g].rec[i]] & IL_R_OTHERS) != 0;
}

/* Each group's records that end in an exec (exit.how "exec") and were
 * not folded into a next image of their process (il_prepare): the next
 * image wrote no record (a static program, env -i), or it is not in the
 * input, so that the record holds only the run's part before the exec. */
static void
count_execs(struct il_report *r)
{
    for (size_t g = 0; g < r->gs.ng; g++)
        for (size_t i = 0; i < r->gs.g[g].n; i++)
            if (r->d.flag[r->gs.g[g].rec[i]] & IL_R_EXEC) {
                if (!r->execs)
                    r->execs = il_xcalloc(r->gs.ng, sizeof *r->execs);
                r->execs[g]++;
            }
}

/*
 * A set of 64-bit keys (open addressing, linear probing; key 0 is no key)
 * for count_args: each setup's first hash, and the distinct hashes, in
 * time linear in the group (two sorts of a million entries were most of
 * a report's time on a million runs with an argument list each).
 */
struct kset {
    uint64_t *k;
    uint32_t *v;
    size_t mask;
};

static void
kset_init(struct kset *t, size_t n)
{
    size_t m = 16;
    while (m < 2 * n)
        m *= 2;
    t->k = il_xcalloc(m, sizeof *t->k);
    t->v = il_xcalloc(m, sizeof *t->v);
    t->mask = m - 1;
}

/* The slot of key (non-zero), added with value v if new: *isnew says. */
static size_t
kset_put(struct kset *t, uint64_t key, uint32_t v, int *isnew)
{
    uint64_t x = key * 0x9E3779B97F4A7C15ULL;
    size_t i = (size_t)(x >> 32) & t->mask;
    while (t->k[i] && t->k[i] != key)
        i = (i + 1) & t->mask;
    *isnew = !t->k[i];
    if (*isnew) {
        t->k[i] = key;
        t->v[i] = v;
    }
    return i;
}

static void
kset_free(struct kset *t)
{
    free(t->k);
    free(t->v);
}

/* Each group whose runs were made with different arguments (the pseudo-
 * label args: argv after the program) within one setup (the whole group
 * without a design), its count of distinct argument lists: one program
 * run with several inputs (an interpreter's scripts, SPEC's workloads
 * under one bench label) pooled as one sample (outside12 F18).  Arguments
 * that change only from one setup to the next ({layout} in a sweep's
 * command) follow the design and are not counted.  Not with --per, whose
 * runs are several processes by design, nor where args is a level or
 * the groups' own label. */
static void
count_args(struct il_report *r)
{
    const struct il_opts *o = r->o;
    const struct il_data *d = &r->d;
    size_t as = il_data_slot(d, IL_PSEUDO_ARGS); /* SIZE_MAX unless a command names it */
    if (!d->argh || o->per)
        return;
    for (size_t i = 0; i < o->nby; i++)
        if (o->by_slot[i] == as)
            return;
    for (size_t i = 0; i < o->nlevels; i++) /* every level, not the first (review13a) */
        if (o->level_slot[i] == as)
            return;
    if ((o->cmp_label && o->cmp_slot == as) ||
        (o->design != IL_D_FLAT && o->design_slot[0] == as) ||
        (o->design == IL_D_CROSSED && o->design_slot[1] == as))
        return;
    for (size_t g = 0; g < r->gs.ng; g++) {
        const struct il_group *gr = &r->gs.g[g];
        /* mixed: two runs of one setup with different arguments */
        struct kset cells;
        kset_init(&cells, o->design != IL_D_FLAT ? gr->n : 1);
        int mixed = 0, isnew;
        for (size_t i = 0; i < gr->n && !mixed; i++) {
            size_t rec = gr->rec[i];
            uint32_t h = d->argh[rec];
            if (!h)
                continue; /* no argv (another writer's record) */
            uint64_t cell = 0;
            if (o->design != IL_D_FLAT)
                cell = il_lab(d, rec, o->design_slot[0]);
            if (o->design == IL_D_CROSSED)
                cell = cell << 32 | il_lab(d, rec, o->design_slot[1]);
            /* ids are below 2^32 - 1 (IL_MISSING_ID): cell + 1 is no key 0 */
            size_t at = kset_put(&cells, cell + 1, h, &isnew);
            mixed = !isnew && cells.v[at] != h;
        }
        kset_free(&cells);
        if (!mixed)
            continue;
        struct kset lists;
        kset_init(&lists, gr->n);
        size_t k = 0;
        for (size_t i = 0; i < gr->n; i++) {
            uint32_t h = d->argh[gr->rec[i]];
            if (h) {
                kset_put(&lists, h, 0, &isnew);
                k += isnew;
            }
        }
        kset_free(&lists);
        if (!r->nargs)
            r->nargs = il_xcalloc(r->gs.ng, sizeof *r->nargs);
        r->nargs[g] = k;
    }
}

/* il_data's imgh (input.c, image_of): the program (its argv[0] and
 * layout), and its image (the build_id's digits kept, and their number) */
#define IMG_PROG(h) ((h) >> 37)
#define IMG_ID(h) ((h) & 0x1effffffffULL)

/* An image (IMG_ID) as said: its build_id's first digits, or "none" */
static void
image_text(uint64_t h, char *out, size_t n)
{
    int digits = (int)(h >> 33 & 15);
    if (digits)
        snprintf(out, n, "%0*x", digits, (unsigned)(h & 0xffffffffu));
    else
        snprintf(out, n, "none");
}

/* Each group whose runs of one program (one argv[0] and layout label)
 * ran two images or more (their build_id, libinterloper(7)): the first
 * program found so, its images and their runs (outside15 H2: a binary a
 * launcher execs, replaced mid-compare; or rebuilt in place between two
 * invocations of a harness).  A fold of an exec chain is its last image's
 * record, so a launcher's own image is never compared with the program's. */
static void
count_images(struct il_report *r)
{
    const struct il_data *d = &r->d;
    if (!d->imgh)
        return; /* one image for every record, or no build_id read */
    for (size_t g = 0; g < r->gs.ng; g++) {
        const struct il_group *gr = &r->gs.g[g];
        struct kset first; /* per program: the record of its first image */
        kset_init(&first, gr->n);
        uint64_t prog = 0;
        int isnew;
        for (size_t i = 0; i < gr->n && !prog; i++) {
            uint64_t h = d->imgh[gr->rec[i]];
            if (!h)
                continue;
            size_t at = kset_put(&first, IMG_PROG(h) + 1, (uint32_t)gr->rec[i], &isnew);
            if (!isnew && IMG_ID(d->imgh[first.v[at]]) != IMG_ID(h))
                prog = IMG_PROG(h);
        }
        kset_free(&first);
        if (!prog)
            continue;
        /* that program's images, in the order first run, and their runs */
        struct kset seen; /* the program's images past the first two */
        kset_init(&seen, gr->n);
        uint64_t img[2];
        size_t runs[2] = {0, 0}, nimg = 0, more = 0, rest = 0;
        for (size_t i = 0; i < gr->n; i++) {
            uint64_t h = d->imgh[gr->rec[i]];
            if (!h || IMG_PROG(h) != prog)
                continue;
            size_t k = 0;
            while (k < nimg && img[k] != IMG_ID(h))
                k++;
            if (k == nimg && nimg < 2)
                img[nimg++] = IMG_ID(h);
            if (k < 2) {
                runs[k]++;
            } else {
                rest++;
                kset_put(&seen, IMG_ID(h) + 1, 0, &isnew);
                more += isnew;
            }
        }
        kset_free(&seen);
        char a[16], b[16], text[200], tail[64] = "";
        image_text(img[0], a, sizeof a);
        image_text(img[1], b, sizeof b);
        if (more)
            snprintf(tail, sizeof tail, ", and %zu run%s of %zu more", rest, il_s(rest),
                     more);
        snprintf(text, sizeof text, "build-id %s in %zu runs, %s in %zu%s", a, runs[0], b,
                 runs[1], tail);
        if (!r->images)
            r->images = il_xcalloc(r->gs.ng, sizeof *r->images);
        r->images[g] = il_xstrdup(text);
    }
}

/* With --levels or --setup the run sequence follows the design, which the
 * intervals model; the dependence warning would only repeat that.  With
 * --levels the pooled runs also carry every level's effects, so that their
 * skew and their far values say nothing of bursts or outlying runs. */
static void
warn_groups(const struct il_report *r)
{
    /* [first-run]'s advice: only what applies to the records (outside12
     * F8: compare's records, whose warm-up run was already left out, were
     * told to add one) */
    enum il_wkind first = IL_W_FIRST_NOREP;
    for (size_t i = 0; i < r->d.nkeys; i++)
        if (strcmp(r->d.keys[i], IL_L_REP) == 0)
            first = IL_W_FIRST;
    if (r->d.warmup)
        first = r->o->sel.include_warmup ? IL_W_FIRST_INCL : IL_W_FIRST_WARM;
    for (size_t g = 0; g < r->gs.ng; g++) {
        const struct il_group *gr = &r->gs.g[g];
        const struct il_diag *dg = &r->diag[g];
        if (gr->n < 2)
            il_warn_item(IL_W_FEW, r->gname[g], gr->n);
        if (dg->outliers && !r->o->nlevels)
            il_warn_item(IL_W_OUTLIERS, r->gname[g], dg->outliers, gr->n);
        if (dg->first_special)
            il_warn_item(first, r->gname[g], dg->first_z);
        if (dg->has_lb && dg->lb_p < 0.05 && r->o->design == IL_D_FLAT)
            il_warn_item(IL_W_DEPENDENT, r->gname[g], dg->lb_p, dg->acf[0]);
        /* A floor with a heavy upper tail (Kelly's skewness). */
        if (r->o->tool == IL_TOOL_REPORT && r->o->est.kind == IL_EST_MEAN && !r->o->nlevels &&
            r->sum[g].skew > 0.4)
            il_warn_item(IL_W_BURSTY, r->gname[g], r->sum[g].skew);
        /* the design-following test dropped for a free shuffle (setupfx.c) */
        if (r->gsu && r->gsu[g].has_test && !r->gsu[g].blocked && r->gsu[g].free_why)
            il_warn_item(IL_W_FREE, r->gname[g], r->gsu[g].free_why);
        if (r->others && r->others[g])
            il_warn_item(IL_W_OTHERS, r->gname[g], r->others[g], gr->n);
        if (r->nargs && r->nargs[g])
            il_warn_item(IL_W_ARGS, r->gname[g], r->nargs[g]);
        if (r->images && r->images[g])
            il_warn_item(IL_W_IMAGES, r->gname[g], r->images[g]);
        if (r->execs && r->execs[g])
            il_warn_item(IL_W_EXEC, r->gname[g], r->execs[g], gr->n);
    }
}

static int
cmp_nat(const void *a, const void *b)
{
    return il_natcmp(*(const char *const *)a, *(const char *const *)b);
}

/* plot seq and env: no label outside --by that tells series apart
 * (system, bench, ...) may take several values, or a run sequence or a
 * line would interleave several series; seq also wants one group. */
static void
one_series(const struct il_report *r, int seq)
{
    const struct il_opts *o = r->o;
    const struct il_data *d = &r->d;
    if (seq && r->gs.ng != 1)
        errx(1, "seq: the selection has %zu groups (%s, ...); select one group with --where",
             r->gs.ng, r->gname[0]);
    char mixed[1024], ex[512] = "", part[512];
    char *parts[IL_MAX_SLOTS + 1];
    size_t nmixed = 0;
    for (size_t i = 0; i < d->nlv; i++) {
        const struct il_labvals *l = &d->lv[i];
        int absent = l->present < d->n, by = 0;
        for (size_t j = 0; j < o->nby; j++)
            by |= strcmp(o->by[j], l->name) == 0;
        if (l->runs || l->nval + (size_t)absent < 2 || by)
            continue;
        if (nmixed == IL_MAX_SLOTS) {
            parts[nmixed++] = il_xstrdup("...");
            break;
        }
        const char **v = il_xcalloc(l->nval, sizeof *v);
        size_t k = 0, m;
        for (size_t id = 1; id < l->seencap && k < l->nval; id++)
            if (l->seen[id])
                v[k++] = il_str(&d->st, (uint32_t)id);
        qsort(v, k, sizeof *v, cmp_nat);
        if (!nmixed)
            snprintf(ex, sizeof ex, "%s=%s", l->name, v[0]);
        m = (size_t)snprintf(part, sizeof part, "%s=", l->name);
        for (size_t j = 0; j < k && j < 6 && m < sizeof part; j++)
            m += (size_t)snprintf(part + m, sizeof part - m, "%s%s", j ? "," : "",
                                  j == 5 && k > 6 ? "..." : v[j]);
        if (absent && m < sizeof part)
            snprintf(part + m, sizeof part - m, ",(absent)");
        parts[nmixed++] = il_xstrdup(part);
        free(v);
    }
    if (!nmixed)
        return;
    /* "a=x,y", "a=x,y and b=z,w", "a=x,y, b=z,w and c=u,v" */
    size_t m = 0;
    mixed[0] = '\0';
    for (size_t i = 0; i < nmixed && m < sizeof mixed; i++)
        m += (size_t)snprintf(mixed + m, sizeof mixed - m, "%s%s",
                              i == 0            ? ""
                              : i + 1 == nmixed ? " and "
                                                : ", ",
                              parts[i]);
    if (seq)
        errx(1,
             "seq: the selected records mix %s; one run sequence needs one value of each: pick "
             "it with --where, e.g. --where %s",
             mixed, ex);
    char lab[256];
    snprintf(lab, sizeof lab, "%.*s", (int)strcspn(ex, "="), ex);
    errx(1,
         "env: the selected records mix %s; one line needs one value of each: split them "
         "into lines with --by %s, or pick one with --where, e.g. --where %s",
         mixed, lab, ex);
}

/* "layout=r07 exec=2" for record rec, levels [0, depth). */
static void
level_path(const struct il_report *r, size_t rec, size_t depth, char *buf, size_t n)
{
    size_t o = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < depth && o < n; i++)
        o += (size_t)snprintf(buf + o, n - o, "%s%s=%s", i ? " " : "", r->o->levels[i],
                              il_str(&r->d.st, il_lab(&r->d, rec, r->o->level_slot[i])));
}

/* Kalibera & Jones levels of one group into lv (and its balanced values). */
static void
level_group(struct il_report *r, size_t gi, struct il_levels *lv, double **ly)
{
    const struct il_opts *o = r->o;
    const struct il_data *d = &r->d;
    size_t n = o->nlevels;
    const struct il_group *g = &r->gs.g[gi];
    uint32_t *ids = il_xcalloc(g->n * n, sizeof *ids);
    const uint32_t **lab = il_xcalloc(g->n, sizeof *lab);
    for (size_t k = 0; k < g->n; k++) {
        for (size_t i = 0; i < n; i++) {
            ids[k * n + i] = il_lab(d, g->rec[k], o->level_slot[i]);
            if (ids[k * n + i] == IL_MISSING_ID)
                errx(1,
                     "--levels: a selected record lacks the label '%s'; every record needs "
                     "all of %s labels",
                     o->levels[i], n > 1 ? "the" : "its");
        }
        lab[k] = ids + k * n;
    }
    size_t where = 0, depth = 0, got = 0, want = 0, other = 0, r_[IL_MAX_LEVELS];
    char a[512], b[512], in[600] = "";
    if (r->gs.ng > 1)
        snprintf(in, sizeof in, " in %s", r->gname[gi]);
    int e = il_levels_arrange(g->x, lab, g->n, n, ly, r_, &where, &depth, &got, &want, &other);
    if (e == IL_SE_UNBAL) {
        level_path(r, g->rec[where], depth, a, sizeof a);
        level_path(r, g->rec[other], depth, b, sizeof b);
        errx(1,
             "unbalanced design%s: %s has %zu value%s of '%s', but %s has %zu; every %s needs "
             "the same number",
             in, a, got, il_s(got), o->levels[depth], b, want,
             depth ? o->levels[depth - 1] : "group");
    }
    if (e == IL_SE_DUP) {
        level_path(r, g->rec[where], n, a, sizeof a);
        errx(1,
             "--levels%s: %s appears %zu times; the lowest label '%s' must number the "
             "repetitions inside its parent, once each",
             in, a, got, o->levels[n - 1]);
    }
    if (e)
        errx(1, "--levels: %s", il_se_strerror(e));
    for (size_t i = 0; i < n; i++)
        if (r_[i] < 2)
            errx(1,
                 "--levels%s: level '%s' has 1 repetition per parent; its variance needs at "
                 "least 2",
                 in, o->levels[n - 1 - i]);
    if (il_levels_compute(*ly, r_, n, lv))
        errx(1, "--levels: out of memory");
    /* values are at most IL_VALUE_MAX (input.c), so the sums of squares
     * are finite */
    free(ids);
    free(lab);
}

static void
levels(struct il_report *r)
{
    const struct il_opts *o = r->o;
    if (o->tool == IL_TOOL_PLAN && r->gs.ng != 1)
        errx(1,
             "--levels analyses one group at a time, but the selection has %zu groups "
             "(%s, ...); narrow it with --where",
             r->gs.ng, r->gname[0]);
    r->glv = il_xcalloc(r->gs.ng, sizeof *r->glv);
    for (size_t g = 0; g < r->gs.ng; g++) {
        double *ly = NULL;
        level_group(r, g, &r->glv[g], &ly);
        if (r->gs.ng == 1) {
            r->lv = r->glv[0];
            r->ly = ly;
        } else {
            free(ly);
        }
    }
    r->has_levels = 1;
}

/* --target: the design, its top count and the probability that a real
 * experiment so designed meets the target (levels.c). */
static void
assure(struct il_report *r)
{
    const struct il_opts *o = r->o;
    size_t n = o->nlevels;
    const long limit = 10000000;
    struct il_assure *a = &r->as;
    int e =
        il_levels_design(&r->lv, r->has_plan ? r->reps : NULL, o->target, o->assurance, limit, a);
    if (e == IL_SE_NONPOS)
        return; /* no count: out_text.c says what initial experiment would */
    if (e == IL_SE_NOMEM)
        errx(1, "--target: out of memory");
    if (e == IL_SE_RANGE)
        errx(1, "--target %g%%: the mean is 0, so a half-width relative to it means nothing",
             o->target * 100);
    if (e == IL_SE_ZEROVAR)
        errx(1,
             "--target: the initial experiment shows no variance at all, so it predicts no "
             "interval; measure more repetitions of '%s'",
             o->levels[0]);
    if (e && !a->expected)
        errx(1,
             "--target %g%%: more than %ld repetitions of '%s' would be needed; aim for a "
             "wider interval",
             o->target * 100, limit, o->levels[0]);
    if (e)
        errx(1,
             "--assurance %g%%: more than %ld repetitions of '%s' would be needed; ask for "
             "a lower probability or a wider interval",
             o->assurance * 100, limit, o->levels[0]);
    r->reps[n - 1] = a->design[n - 1];
    r->has_top = 1;
}

static void
plan(struct il_report *r)
{
    const struct il_opts *o = r->o;
    size_t n = o->nlevels;
    const struct il_group *g = &r->gs.g[0];
    for (size_t i = 0; i < n; i++)
        r->reps[i] = (long)r->lv.r[i];
    if (o->ncosts) {
        for (size_t i = 0; i < o->ncosts; i++)
            r->cost[n - 1 - i] = o->costs[i];
        if (o->ncosts + 1 == n) {
            double s = 0;
            size_t k = 0;
            for (size_t j = 0; j < g->n; j++)
                if (!isnan(r->d.wall[g->rec[j]])) {
                    s += r->d.wall[g->rec[j]];
                    k++;
                }
            if (!k)
                errx(1,
                     "--costs: cannot measure the cost of '%s': no record has "
                     "times.wall_ns; give all %zu costs",
                     o->levels[n - 1], n);
            r->cost[0] = s / (double)k / 1e9;
            r->c1_measured = 1;
            if (!(r->cost[0] > 0))
                errx(1,
                     "--costs: the measured cost of '%s' is not positive; give all %zu "
                     "costs",
                     o->levels[n - 1], n);
        }
        il_levels_reps(&r->lv, r->cost, r->reps);
        r->has_plan = 1;
        for (size_t i = 0; i + 1 < n; i++) {
            if (r->reps[i] == 1 && r->lv.T2[i] <= 0)
                il_warn(IL_W_T2, o->levels[n - 1 - i]);
            if (r->reps[i] == 0)
                il_warn(IL_W_NOOPT, o->levels[n - 1 - i]);
        }
    }
    if (o->target > 0)
        assure(r);
    for (size_t i = 0; r->has_plan && i + 1 < n; i++)
        if (r->reps[i] == 0)
            r->as.no_estimate = 1;
    if (r->as.no_estimate) {
        /* what initial experiment would estimate the top level: one that
         * shows a top-level sd as large as the target half-width, or
         * without a target as the sd of a top-level unit's mean here */
        size_t c = n - 2;
        r->as.pilot_sd =
            o->target > 0 ? o->target * fabs(r->lv.mean) : sqrt(r->lv.S2[c] / (double)r->lv.r[c]);
        r->as.pilot_need = il_levels_pilot_top(&r->lv, r->as.pilot_sd, IL_PILOT_CONF, 1000000);
    }
    if (o->boot) {
        double *rep = il_xcalloc(o->boot, sizeof *rep);
        if (il_boot_hier(r->ly, r->lv.r, n, o->boot, o->seed, rep))
            errx(1, "--bootstrap: out of memory");
        r->bmean = il_mean(rep, o->boot);
        r->bsd = sqrt(il_var(rep, o->boot, r->bmean));
        qsort(rep, o->boot, sizeof *rep, il_dcmp);
        r->blo = il_quantile_sorted(rep, o->boot, (1 - IL_CONF) / 2);
        r->bhi = il_quantile_sorted(rep, o->boot, (1 + IL_CONF) / 2);
        r->has_boot = 1;
        free(rep);
    }
}

void
il_report_release(struct il_report *r)
{
    struct il_data *d = &r->d;
    void *b[2 * IL_MAX_SLOTS + 13];
    size_t n = 0;
    for (size_t s = 0; s < d->nslots; s++) {
        b[n++] = d->labn[s];
        b[n++] = d->labc[s];
        d->labn[s] = NULL;
        d->labc[s] = NULL;
    }
    void **col[] = {(void **)&d->val,  (void **)&d->den,     (void **)&d->ivcol,
                    (void **)&d->addr, (void **)&d->flag,    (void **)&d->env,
                    (void **)&d->argh,     (void **)&d->imgh,
                    (void **)&d->wall, (void **)&d->when,    (void **)&r->gs.xs,
                    (void **)&r->gs.recs,
                    (void **)&r->gs.spare};
    for (size_t i = 0; i < sizeof col / sizeof col[0]; i++) {
        b[n++] = *col[i];
        *col[i] = NULL;
    }
    for (size_t g = 0; g < r->gs.ng; g++) {
        r->gs.g[g].x = NULL;
        r->gs.g[g].rec = NULL;
    }
    il_release(b, n);
}

void
il_analyze(const struct il_opts *o, struct il_report *r)
{
    size_t key[IL_MAX_SLOTS], nkey = 0;
    memset(r, 0, sizeof *r);
    r->o = o;
    il_read(&o->sel, o->files, o->nfiles, &r->d);
    il_check_labels(o, &r->d);
    il_prepare(o, &r->d);
    r->cmp_pos = SIZE_MAX;
    for (size_t i = 0; i < o->nby; i++) {
        if (o->cmp_label && strcmp(o->by[i], o->cmp_label) == 0)
            r->cmp_pos = nkey;
        key[nkey++] = o->by_slot[i];
    }
    if (o->cmp_label && r->cmp_pos == SIZE_MAX) {
        r->cmp_pos = nkey;
        key[nkey++] = o->cmp_slot;
    }
    il_group_by_take(&r->d, key, nkey, &r->gs);
    describe_groups(r);
    if (r->d.others) /* before drop_runs frees the flags */
        count_others(r);
    if (r->d.execs)
        count_execs(r);
    count_args(r); /* before drop_runs frees the label columns */
    count_images(r);
    il_passes_find(r); /* before drop_runs frees the groups' records */
    r->lean = o->tool == IL_TOOL_REPORT && o->design != IL_D_FLAT && !o->nlevels && !o->attribute &&
              o->fmt != IL_FMT_GOBENCH;
    if (r->lean)
        drop_runs(r, 0);
    if (o->tool == IL_TOOL_PLOT && strcmp(o->plot_kind, "violin") != 0 &&
        strcmp(o->plot_kind, "hist") != 0)
        one_series(r, strcmp(o->plot_kind, "seq") == 0);
    if (o->nlevels)
        levels(r);
    il_group_intervals(r);
    /* plot env --setup: the noise band and the sizes that stand out */
    if (o->tool == IL_TOOL_REPORT || (o->tool == IL_TOOL_PLOT && !strcmp(o->plot_kind, "env")))
        il_group_setups(r);
    if (o->cmp_label)
        il_compare(r);
    il_attribute(r);
    if (o->tool == IL_TOOL_PLAN)
        plan(r);
    warn_groups(r);
    il_warn_flush();
}
