/*
 * attrib.c: which recorded fact explains the differences between setups
 * (report --attribute; interloper-report(1), "Attribution").
 *
 * Mytkowicz et al. (ASPLOS'09) went on by hand from "setups differ" to
 * "why": section 4.2.2, the environment moves the stack's start address
 * (and for perlbench the heap's), which moves stack variables against
 * cache lines and pages; section 7.2, causal analysis: intervene on the
 * suspected cause (pin the stack) and see the effect go.  The records
 * carry the facts such an explanation names: setup.main_sp, setup.heap_start
 * and setup.env_bytes of every run, and the sweep's plan line the link
 * order of every layout.  This is the step before the intervention: which
 * fact, among all recorded, the setups' differences follow.  It is an
 * association, not yet the paper's causal test; `interloper sweep --pin`
 * is that test for the stack.
 *
 * Candidate facts: main_sp, heap_start and env_bytes modulo 64 (a cache
 * line), 128, ..., 4096 (a page: 4K aliasing), and each object's position
 * in the link order.  A fact partitions the setups into classes (for a
 * comparison, by the pair of both systems' values).  Facts with the same
 * partition are one fact to the data (main_sp and env_bytes move
 * together with ASLR off) and are tested once and named together; a fact
 * the same in every setup, or different in every setup (which cannot be
 * told from the setups themselves), or not constant within a setup
 * (main_sp with ASLR on: attribution to it needs ASLR off), is not tested
 * and the report says why.
 *
 * Each setup's value is built from within-block contrasts as the design
 * tests are (perm.c, issue 13 section 1): in each (setup, pass) block the
 * log ratio of the two systems' runs (a comparison), or the log of the
 * block's runs less the mean over the pass's blocks (a group), so that
 * drift between passes is in no value.  A fact explains the differences
 * when its classes differ by more than
 *   (noise)  the blocks vary: one-way F of the blocks' values between the
 *            fact's classes; its reference exchanges what the sweep's
 *            randomization could have exchanged under "no difference at
 *            all": the two systems within a block (the sign of its
 *            centred contrast) or, for a group, the setups' blocks within
 *            a pass;
 *   (setups) the setups within a class vary: one-way F of the setups'
 *            values; its reference exchanges the setups among the facts'
 *            classes (all facts together): "setups differ, but not by
 *            this fact".  Without it any fact with many classes would
 *            "explain" setups that differ for an unrecorded reason.
 * Each statistic is turned into its F distribution's tail probability, so
 * that facts with different numbers of classes compare, and the smallest
 * over all facts in each exchange is the reference of every fact
 * (single-step min-p / max-T, Westfall & Young 1993): under either null,
 * the probability that any fact is named is at most 5%, however many
 * facts are tried.  A fact is named when both of its adjusted p-values
 * are at most 0.05 (an intersection-union test: each alone is valid).
 *
 * The exchanges are written here to the rules of perm.c; when its block
 * machinery serves per-block values directly, blocks() is the one place
 * to switch.
 */
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "il_names.h"
#include "il_prng.h"
#include "il_stats.h"

/* Streams of --seed (robust.c 101 to 103, setupfx.c 104 to 106, perm.c 107). */
enum { IL_STREAM_ATTR_NOISE = 108, IL_STREAM_ATTR_SETUPS = 109 };

#define NMOD 7 /* 64 .. 4096 */
static const unsigned mods[NMOD] = {64, 128, 256, 512, 1024, 2048, 4096};
enum kind { K_SP, K_HEAP, K_ENV, K_POS };
static const char *const kname[] = {IL_F_MAIN_SP, IL_F_HEAP_START, IL_F_ENV_BYTES};

static int u32cmp(const void *a, const void *b);
static void beyond(struct il_attr *A, const size_t *cls, size_t k, const double *ys,
                   const size_t *tix, size_t nt);

/* ------------------------------------------------------------ the runs */
struct run {
    size_t rec;
    double x;
    int side; /* 1 the value (or the group), 0 the baseline */
    uint32_t a, b, pass;
};

static int
cmp_run(const void *pa, const void *pb)
{
    const struct run *p = pa, *q = pb;
    if (p->a != q->a)
        return p->a < q->a ? -1 : 1;
    if (p->b != q->b)
        return p->b < q->b ? -1 : 1;
    if (p->pass != q->pass)
        return p->pass < q->pass ? -1 : 1;
    return (p->rec > q->rec) - (p->rec < q->rec);
}

/* What the analysis of one comparison or group works on. */
struct work {
    const struct il_report *r;
    struct run *run;
    size_t n;
    size_t k, nb;   /* setups, blocks */
    size_t *sfirst; /* setup s's runs: run[sfirst[s] .. sfirst[s + 1]) */
    double *bv;     /* each block's value */
    size_t *bs;     /* its setup */
    uint32_t *bp;   /* its pass */
    double *ys;     /* each setup's value: the mean of its blocks' */
    size_t *ms;     /* its blocks */
    size_t *layord; /* per string id of a layout label: its order + 1 (0: none) */
    size_t layslot;
    char **objs; /* every object of the orders */
    size_t nobjs;
};

/* The blocks of the runs (sorted by setup, pass): their values, and the
 * setups' (the contrasts of perm.c, written to its rules). */
static void
blocks(struct work *w, int cmp, size_t *left_out, size_t *passes)
{
    size_t n = w->n;
    w->sfirst = il_xcalloc(n + 1, sizeof *w->sfirst);
    w->bv = il_xcalloc(n, sizeof *w->bv);
    w->bs = il_xcalloc(n, sizeof *w->bs);
    w->bp = il_xcalloc(n, sizeof *w->bp);
    size_t k = 0, nb = 0;
    *left_out = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && w->run[j].a == w->run[i].a && w->run[j].b == w->run[i].b &&
               w->run[j].pass == w->run[i].pass)
            j++;
        double s[2] = {0, 0};
        size_t c[2] = {0, 0};
        for (size_t t = i; t < j; t++) {
            s[w->run[t].side] += w->run[t].x;
            c[w->run[t].side]++;
        }
        if (i == 0 || w->run[i].a != w->run[i - 1].a || w->run[i].b != w->run[i - 1].b)
            w->sfirst[k++] = i;
        int ok = c[1] && s[1] > 0 && (!cmp || (c[0] && s[0] > 0));
        if (ok) {
            w->bv[nb] = log(s[1] / (double)c[1]) - (cmp ? log(s[0] / (double)c[0]) : 0);
            w->bs[nb] = k - 1;
            w->bp[nb++] = w->run[i].pass;
        } else {
            *left_out += j - i;
        }
        i = j;
    }
    w->sfirst[k] = n;
    w->k = k;
    w->nb = nb;
    /* a group: each block less its pass's level (the mean of its blocks) */
    uint32_t *pid = il_xcalloc(nb ? nb : 1, sizeof *pid);
    memcpy(pid, w->bp, nb * sizeof *pid);
    qsort(pid, nb, sizeof *pid, u32cmp);
    size_t np = 0;
    for (size_t i = 0; i < nb; i++)
        if (!i || pid[i] != pid[i - 1])
            pid[np++] = pid[i];
    *passes = np;
    if (!cmp) {
        double *lev = il_xcalloc(np ? np : 1, sizeof *lev);
        size_t *cnt = il_xcalloc(np ? np : 1, sizeof *cnt);
        for (size_t i = 0; i < nb; i++) {
            size_t p = (size_t)((uint32_t *)bsearch(&w->bp[i], pid, np, sizeof *pid, u32cmp) - pid);
            lev[p] += w->bv[i];
            cnt[p]++;
        }
        for (size_t i = 0; i < nb; i++) {
            size_t p = (size_t)((uint32_t *)bsearch(&w->bp[i], pid, np, sizeof *pid, u32cmp) - pid);
            w->bv[i] -= lev[p] / (double)cnt[p];
        }
        free(lev);
        free(cnt);
    }
    free(pid);
    w->ys = il_xcalloc(k ? k : 1, sizeof *w->ys);
    w->ms = il_xcalloc(k ? k : 1, sizeof *w->ms);
    for (size_t i = 0; i < nb; i++) {
        w->ys[w->bs[i]] += w->bv[i];
        w->ms[w->bs[i]]++;
    }
    for (size_t s = 0; s < k; s++)
        w->ys[s] = w->ms[s] ? w->ys[s] / (double)w->ms[s] : NAN;
}

/* ------------------------------------------------------------ the facts */
struct cand {
    enum kind kind;
    unsigned mod; /* K_SP, K_HEAP, K_ENV */
    size_t obj;   /* K_POS: index in w->objs */
};

/* Run i's value of fact c; 0 when it has none. */
static int
run_key(const struct work *w, const struct cand *c, size_t rec, uint64_t *key)
{
    const struct il_data *d = &w->r->d;
    switch (c->kind) {
    case K_SP:
    case K_HEAP: {
        uint64_t a = d->addr[2 * rec + (c->kind == K_HEAP)];
        *key = a % c->mod;
        return a != 0;
    }
    case K_ENV: {
        double e = d->env[rec];
        if (!(e >= 0) || e > 1e15)
            return 0;
        *key = (uint64_t)e % c->mod;
        return 1;
    }
    case K_POS: {
        if (w->layslot == SIZE_MAX)
            return 0;
        uint32_t id = d->lab[rec * d->nslots + w->layslot];
        size_t o = w->layord[id];
        if (!o)
            return 0;
        const struct il_order *ord = &d->orders[o - 1];
        for (size_t j = 0; j < ord->nobj; j++)
            if (!strcmp(ord->obj[j], w->objs[c->obj])) {
                *key = j + 1;
                return 1;
            }
        return 0;
    }
    }
    return 0;
}

/* The setups' classes of fact c (cls[s], first-appearance order), with
 * each class's pair of values; the state when it cannot be tested. */
static int
classes(const struct work *w, const struct cand *c, size_t *cls, uint64_t (*val)[2], size_t *nc)
{
    size_t k = w->k;
    uint64_t(*sv)[2] = il_xcalloc(k, sizeof *sv);
    int state = IL_FACT_TESTED;
    for (size_t s = 0; s < k && state == IL_FACT_TESTED; s++) {
        int have[2] = {0, 0};
        for (size_t i = w->sfirst[s]; i < w->sfirst[s + 1]; i++) {
            uint64_t key;
            int side = w->run[i].side;
            if (!run_key(w, c, w->run[i].rec, &key)) {
                state = IL_FACT_MISSING;
                break;
            }
            if (have[side] && sv[s][side] != key) {
                state = IL_FACT_VARIES;
                break;
            }
            have[side] = 1;
            sv[s][side] = key;
        }
    }
    *nc = 0;
    if (state == IL_FACT_TESTED) {
        for (size_t s = 0; s < k; s++) {
            size_t t = 0;
            while (t < *nc && (val[t][0] != sv[s][0] || val[t][1] != sv[s][1]))
                t++;
            if (t == *nc) {
                val[t][0] = sv[s][0];
                val[t][1] = sv[s][1];
                ++*nc;
            }
            cls[s] = t;
        }
        if (*nc == 1)
            state = IL_FACT_SAME;
        else if (*nc == k)
            state = IL_FACT_EVERY;
    }
    free(sv);
    return state;
}

/* Every class of a is within one class of b (a refines b). */
static int
refines(const size_t *a, const size_t *b, size_t k, size_t *map)
{
    for (size_t s = 0; s < k; s++)
        map[a[s]] = SIZE_MAX;
    for (size_t s = 0; s < k; s++) {
        if (map[a[s]] == SIZE_MAX)
            map[a[s]] = b[s];
        else if (map[a[s]] != b[s])
            return 0;
    }
    return 1;
}

/* ------------------------------------------------------------ the tests */
/* The upper tail of one-way F of values v[0..n) in classes cl[] (nc of
 * them); sums of nc doubles and counts in cs, cn.  1 when it has no
 * residual spread to compare with. */
static double
anova_p(const double *v, const size_t *cl, size_t n, size_t nc, double *cs, size_t *cn, double *f)
{
    double s = 0, ss = 0;
    memset(cs, 0, nc * sizeof *cs);
    memset(cn, 0, nc * sizeof *cn);
    for (size_t i = 0; i < n; i++) {
        cs[cl[i]] += v[i];
        cn[cl[i]]++;
        s += v[i];
        ss += v[i] * v[i];
    }
    double sc = 0;
    for (size_t c = 0; c < nc; c++)
        if (cn[c])
            sc += cs[c] * cs[c] / (double)cn[c];
    double mean2 = s * s / (double)n, ssb = sc - mean2, ssw = ss - sc;
    if (ssb < 0)
        ssb = 0;
    if (!(ssw > 1e-12 * (ss - mean2)) || n <= nc) {
        *f = ssb > 0 ? INFINITY : 0;
        return ssb > 0 ? 0 : 1;
    }
    *f = (ssb / (double)(nc - 1)) / (ssw / (double)(n - nc));
    return gsl_cdf_fdist_Q(*f, (double)(nc - 1), (double)(n - nc));
}

/* One layer's max-T: values v[0..n), the class of observation i under
 * fact t cl[t * n + i]; exch() rearranges v for each exchange.  p[t]
 * receives the adjusted p-values, f[t] the observed statistics. */
struct layer {
    size_t n, nt;
    const double *v;
    const size_t *cl;
    const size_t *nc;
    double *p, *f;
};

static void
maxt(struct layer *L, size_t P, void (*exch)(void *, const double *, double *), void *ctx)
{
    size_t n = L->n, nt = L->nt, maxc = 1;
    for (size_t t = 0; t < nt; t++)
        if (L->nc[t] > maxc)
            maxc = L->nc[t];
    double *cs = il_xcalloc(maxc, sizeof *cs), *pv = il_xcalloc(nt, sizeof *pv);
    size_t *cn = il_xcalloc(maxc, sizeof *cn), *hit = il_xcalloc(nt, sizeof *hit);
    double *x = il_xcalloc(n, sizeof *x), fdum;
    for (size_t t = 0; t < nt; t++)
        pv[t] = anova_p(L->v, L->cl + t * n, n, L->nc[t], cs, cn, &L->f[t]);
    for (size_t b = 0; b < P; b++) {
        exch(ctx, L->v, x);
        double mn = 1;
        for (size_t t = 0; t < nt; t++) {
            double q = anova_p(x, L->cl + t * n, n, L->nc[t], cs, cn, &fdum);
            if (q < mn)
                mn = q;
        }
        for (size_t t = 0; t < nt; t++)
            hit[t] += mn <= pv[t] * (1 + 1e-9);
    }
    for (size_t t = 0; t < nt; t++)
        L->p[t] = (double)(1 + hit[t]) / (double)(1 + P);
    free(cs);
    free(pv);
    free(cn);
    free(hit);
    free(x);
}

/* The exchanges of "no difference at all": a comparison's blocks change
 * sign around the common log ratio (its two systems exchanged); a group's
 * blocks are shuffled among the setups within each pass. */
struct noise_ctx {
    struct il_rng g;
    int cmp;
    double center;
    size_t n;
    const uint32_t *bp; /* blocks sorted by pass: perm of indices */
    size_t *ord;        /* block indices, pass by pass */
    size_t *pfirst;     /* pass q's blocks: ord[pfirst[q] .. pfirst[q + 1]) */
    size_t np;
    uint32_t *tmp;
};

static void
exch_noise(void *vc, const double *v, double *x)
{
    struct noise_ctx *c = vc;
    if (c->cmp) {
        for (size_t i = 0; i < c->n; i++)
            x[i] = il_rng_next(&c->g) & 1 ? 2 * c->center - v[i] : v[i];
        return;
    }
    for (size_t q = 0; q < c->np; q++) {
        size_t a = c->pfirst[q], m = c->pfirst[q + 1] - a;
        for (size_t i = 0; i < m; i++)
            c->tmp[i] = (uint32_t)i;
        il_rng_shuffle(&c->g, c->tmp, m);
        for (size_t i = 0; i < m; i++)
            x[c->ord[a + i]] = v[c->ord[a + c->tmp[i]]];
    }
}

/* The exchange of "setups differ, but not by any fact": the setups'
 * values shuffled among the setups (their facts stay, all together). */
struct setups_ctx {
    struct il_rng g;
    size_t n;
};

static void
exch_setups(void *vc, const double *v, double *x)
{
    struct setups_ctx *c = vc;
    memcpy(x, v, c->n * sizeof *x);
    il_rng_shuffle_double(&c->g, x, c->n);
}

static int
u32cmp(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static const struct work *sort_w;
static int
cmp_bypass(const void *pa, const void *pb)
{
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    uint32_t x = sort_w->bp[a], y = sort_w->bp[b];
    if (x != y)
        return x < y ? -1 : 1;
    return (a > b) - (a < b);
}

/* ------------------------------------------------------------ one unit */
static void
candidates(const struct work *w, struct cand **out, size_t *nout)
{
    const struct il_data *d = &w->r->d;
    struct cand *c = il_xcalloc(3 * NMOD + w->nobjs + 1, sizeof *c);
    size_t n = 0;
    for (int k = K_SP; k <= K_ENV; k++) {
        if (k != K_ENV && !d->addr)
            continue;
        for (size_t m = 0; m < NMOD; m++)
            c[n++] = (struct cand){(enum kind)k, mods[m], 0};
    }
    for (size_t j = 0; j < w->nobjs; j++)
        c[n++] = (struct cand){K_POS, 0, j};
    *out = c;
    *nout = n;
}

static char *
cand_name(const struct work *w, const struct cand *c)
{
    if (c->kind == K_POS)
        return il_xasprintf("link position of %s", w->objs[c->obj]);
    return il_xasprintf("%s mod %u", kname[c->kind], c->mod);
}

static char *
class_name(int cmp, const uint64_t v[2])
{
    if (cmp && v[0] != v[1])
        return il_xasprintf("%llu/%llu", (unsigned long long)v[1], (unsigned long long)v[0]);
    return il_xasprintf("%llu", (unsigned long long)v[1]);
}

/* Leave out the runs of setups with no block to contrast. */
static void
usable(struct run *run, size_t *n, int cmp, size_t *left)
{
    size_t m = 0;
    for (size_t i = 0; i < *n;) {
        size_t j = i;
        int ok = 0;
        while (j < *n && run[j].a == run[i].a && run[j].b == run[i].b) {
            size_t e = j;
            int have[2] = {0, 0};
            while (e < *n && run[e].a == run[j].a && run[e].b == run[j].b &&
                   run[e].pass == run[j].pass)
                have[run[e++].side] = 1;
            ok |= have[1] && (!cmp || have[0]);
            j = e;
        }
        if (ok) {
            memmove(run + m, run + i, (j - i) * sizeof *run);
            m += j - i;
        } else {
            *left += j - i;
        }
        i = j;
    }
    *n = m;
}

static void
analyse(const struct il_report *r, struct il_attr *A, struct run *run, size_t n, int cmp)
{
    const struct il_data *d = &r->d;
    struct work w = {.r = r, .run = run, .n = n};
    qsort(run, n, sizeof *run, cmp_run);
    size_t dropped = 0;
    usable(run, &w.n, cmp, &dropped);
    blocks(&w, cmp, &A->left_out, &A->passes);
    A->left_out += dropped;
    A->setups = w.k;
    A->blocks = w.nb;
    A->cmp = cmp;
    A->P = IL_ATTR_P;
    A->blocked = 0;
    for (size_t i = 0; i < w.nb; i++)
        A->blocked |= w.bp[i] != IL_MISSING_ID;
    /* the layouts' orders, by the layout label's string id */
    w.layslot = il_data_slot(d, IL_L_LAYOUT);
    w.layord = il_xcalloc(d->st.n + 1, sizeof *w.layord);
    for (size_t o = 0; o < d->norders; o++) {
        uint32_t id = il_strtab_find(&d->st, d->orders[o].layout);
        if (id != UINT32_MAX && id <= d->st.n)
            w.layord[id] = o + 1;
        for (size_t j = 0; j < d->orders[o].nobj; j++) {
            size_t t = 0;
            while (t < w.nobjs && strcmp(w.objs[t], d->orders[o].obj[j]))
                t++;
            if (t == w.nobjs) {
                w.objs = il_xrealloc(w.objs, (w.nobjs + 1) * sizeof *w.objs);
                w.objs[w.nobjs++] = d->orders[o].obj[j];
            }
        }
    }
    if (w.k < 3) {
        A->why = "fewer than 3 setups with runs to contrast";
        goto done;
    }
    struct cand *c;
    size_t nc;
    candidates(&w, &c, &nc);
    size_t k = w.k;
    size_t *cls = il_xcalloc(nc * k, sizeof *cls), *tix = il_xcalloc(nc, sizeof *tix);
    uint64_t(*val)[2] = il_xcalloc(nc * k, sizeof *val);
    A->f = il_xcalloc(nc, sizeof *A->f);
    A->nfact = nc;
    size_t nt = 0;
    for (size_t i = 0; i < nc; i++) {
        struct il_fact *f = &A->f[i];
        f->name = cand_name(&w, &c[i]);
        f->refines = f->overlaps = -1;
        f->p_beyond = NAN;
        f->p = f->p_noise = f->p_setups = f->r2 = NAN;
        f->state = classes(&w, &c[i], cls + i * k, val + i * k, &f->nclass);
        if (f->state != IL_FACT_TESTED)
            continue;
        for (size_t t = 0; t < nt; t++)
            if (!memcmp(cls + tix[t] * k, cls + i * k, k * sizeof *cls)) {
                f->state = IL_FACT_EQUIV;
                f->equiv = tix[t];
                break;
            }
        if (f->state == IL_FACT_TESTED)
            tix[nt++] = i;
    }
    A->tested = nt;
    if (!nt) {
        A->why = "no recorded fact both varies between the setups and groups some of them";
        goto facts_done;
    }
    /* the two layers' observations and classes */
    size_t *clb = il_xcalloc(nt * w.nb, sizeof *clb), *cls2 = il_xcalloc(nt * k, sizeof *cls2),
           *ncl = il_xcalloc(nt, sizeof *ncl);
    for (size_t t = 0; t < nt; t++) {
        const size_t *ct = cls + tix[t] * k;
        ncl[t] = A->f[tix[t]].nclass;
        memcpy(cls2 + t * k, ct, k * sizeof *ct);
        for (size_t i = 0; i < w.nb; i++)
            clb[t * w.nb + i] = ct[w.bs[i]];
    }
    double *pa = il_xcalloc(nt, sizeof *pa), *fa = il_xcalloc(nt, sizeof *fa),
           *pb = il_xcalloc(nt, sizeof *pb), *fb = il_xcalloc(nt, sizeof *fb);
    /* noise: the design's exchanges */
    struct noise_ctx nx = {.cmp = cmp, .n = w.nb};
    il_rng_init(&nx.g, (uint32_t)r->o->seed, IL_STREAM_ATTR_NOISE);
    nx.center = il_mean(w.bv, w.nb);
    nx.ord = il_xcalloc(w.nb, sizeof *nx.ord);
    nx.pfirst = il_xcalloc(w.nb + 1, sizeof *nx.pfirst);
    nx.tmp = il_xcalloc(w.nb, sizeof *nx.tmp);
    for (size_t i = 0; i < w.nb; i++)
        nx.ord[i] = i;
    sort_w = &w;
    qsort(nx.ord, w.nb, sizeof *nx.ord, cmp_bypass);
    for (size_t i = 0; i < w.nb; i++)
        if (!i || w.bp[nx.ord[i]] != w.bp[nx.ord[i - 1]])
            nx.pfirst[nx.np++] = i;
    nx.pfirst[nx.np] = w.nb;
    struct layer la = {w.nb, nt, w.bv, clb, ncl, pa, fa};
    maxt(&la, A->P, exch_noise, &nx);
    /* setups: the setups exchanged among the facts' classes */
    struct setups_ctx sx = {.n = k};
    il_rng_init(&sx.g, (uint32_t)r->o->seed, IL_STREAM_ATTR_SETUPS);
    struct layer lb = {k, nt, w.ys, cls2, ncl, pb, fb};
    maxt(&lb, A->P, exch_setups, &sx);
    double alpha = 1 - IL_CONF, sst = 0, ym = il_mean(w.ys, k);
    for (size_t s = 0; s < k; s++)
        sst += (w.ys[s] - ym) * (w.ys[s] - ym);
    for (size_t t = 0; t < nt; t++) {
        struct il_fact *f = &A->f[tix[t]];
        f->f_noise = fa[t];
        f->f_setups = fb[t];
        f->p_noise = pa[t];
        f->p_setups = pb[t];
        f->p = pa[t] > pb[t] ? pa[t] : pb[t];
        f->named = f->p <= alpha;
        A->named += (size_t)f->named;
        /* its classes: their ratios (the mean of their setups' logs) */
        f->cname = il_xcalloc(f->nclass, sizeof *f->cname);
        f->cratio = il_xcalloc(f->nclass, sizeof *f->cratio);
        f->csetups = il_xcalloc(f->nclass, sizeof *f->csetups);
        const size_t *ct = cls + tix[t] * k;
        for (size_t s = 0; s < k; s++) {
            f->cratio[ct[s]] += w.ys[s];
            f->csetups[ct[s]]++;
        }
        double ssb = 0;
        for (size_t q = 0; q < f->nclass; q++) {
            double m = f->cratio[q] / (double)f->csetups[q];
            ssb += (double)f->csetups[q] * (m - ym) * (m - ym);
            if (!cmp)
                m -= ym; /* a group: each class against the setups' mean */
            f->cratio[q] = exp(cmp && r->o->speedup ? -m : m);
            f->cname[q] = class_name(cmp, val[tix[t] * k + q]);
        }
        f->r2 = sst > 0 ? ssb / sst : NAN;
    }
    /* a named fact that refines a coarser named one */
    size_t *map = il_xcalloc(k, sizeof *map);
    for (size_t t = 0; t < nt; t++) {
        struct il_fact *f = &A->f[tix[t]];
        for (size_t u = 0; f->named && u < nt; u++) {
            const struct il_fact *g = &A->f[tix[u]];
            if (u == t || !g->named || g->nclass >= f->nclass)
                continue;
            if (refines(cls + tix[t] * k, cls + tix[u] * k, k, map) &&
                (f->refines < 0 || g->nclass < A->f[f->refines].nclass))
                f->refines = (long)tix[u];
        }
    }
    free(map);
    beyond(A, cls, k, w.ys, tix, nt);
    free(pa);
    free(fa);
    free(pb);
    free(fb);
    free(nx.ord);
    free(nx.pfirst);
    free(nx.tmp);
    free(clb);
    free(cls2);
    free(ncl);
facts_done:
    free(c);
    free(cls);
    free(tix);
    free(val);
done:
    free(w.sfirst);
    free(w.bv);
    free(w.bs);
    free(w.bp);
    free(w.ys);
    free(w.ms);
    free(w.layord);
    free(w.objs);
}

/* Residual sum of squares of y over the setups within the classes a
 * (and b, crossed, when b is not NULL), and the number of classes. */
static double
rss(const double *y, size_t k, const size_t *a, const size_t *b, size_t *ncl)
{
    size_t *key = il_xcalloc(k, sizeof *key), n = 0;
    double *sum = il_xcalloc(k, sizeof *sum), ss = 0;
    size_t *cnt = il_xcalloc(k, sizeof *cnt), *cl = il_xcalloc(k, sizeof *cl);
    for (size_t s = 0; s < k; s++) {
        size_t kk = a[s] * (k + 1) + (b ? b[s] : 0), t = 0;
        while (t < n && key[t] != kk)
            t++;
        if (t == n)
            key[n++] = kk;
        cl[s] = t;
        sum[t] += y[s];
        cnt[t]++;
    }
    for (size_t s = 0; s < k; s++) {
        double m = sum[cl[s]] / (double)cnt[cl[s]];
        ss += (y[s] - m) * (y[s] - m);
    }
    free(key);
    free(sum);
    free(cnt);
    free(cl);
    *ncl = n;
    return ss;
}

/* The p-value of the partial F of a finer model (residual sum of squares
 * r12 with n12 classes over k setups) against a coarser one (r1, n1). */
static double
partial(double r1, size_t n1, double r12, size_t n12, size_t k)
{
    if (!(n12 > n1 && k > n12 && r12 > 0))
        return 1;
    return gsl_cdf_fdist_Q(((r1 - r12) / (double)(n12 - n1)) / (r12 / (double)(k - n12)),
                           (double)(n12 - n1), (double)(k - n12));
}

/* The strongest named fact (the smallest p of its setups' F), and for
 * each other named fact whether it explains anything beyond it: the
 * partial F of its classes crossed with the strongest's against the
 * strongest's alone.  A fact whose classes overlap the strongest's (few
 * layouts make every object's position follow the layout) is named as
 * such, not as a second explanation. */
static void
beyond(struct il_attr *A, const size_t *cls, size_t k, const double *ys, const size_t *tix,
       size_t nt)
{
    long best = -1;
    double bp = 2;
    for (size_t t = 0; t < nt; t++) {
        const struct il_fact *f = &A->f[tix[t]];
        if (!f->named || f->refines >= 0)
            continue;
        double q = gsl_cdf_fdist_Q(f->f_setups, (double)(f->nclass - 1), (double)(k - f->nclass));
        if (q < bp || (q == bp && f->f_setups > A->f[best].f_setups)) {
            bp = q;
            best = (long)tix[t];
        }
    }
    if (best < 0)
        return;
    size_t n1, n12;
    double r1 = rss(ys, k, cls + (size_t)best * k, NULL, &n1);
    for (size_t t = 0; t < nt; t++) {
        struct il_fact *f = &A->f[tix[t]];
        if (!f->named || f->refines >= 0 || (long)tix[t] == best)
            continue;
        size_t n2;
        double r2 = rss(ys, k, cls + tix[t] * k, NULL, &n2);
        double r12 = rss(ys, k, cls + (size_t)best * k, cls + tix[t] * k, &n12);
        f->p_beyond = partial(r1, n1, r12, n12, k);
        /* nothing beyond the strongest: the same explanation, or a weaker
         * one (the strongest explains something beyond it) */
        if (!(f->p_beyond <= 1 - IL_CONF)) {
            f->overlaps = best;
            f->alternative = !(partial(r2, n2, r12, n12, k) <= 1 - IL_CONF);
        }
    }
}

/* The slot of the label that numbers the sweep's passes (--passes, rep by
 * default), or SIZE_MAX for none (--passes none). */
static size_t
pass_slot(const struct il_report *r)
{
    return r->o->pass_slot;
}

static size_t
add_runs(const struct il_report *r, size_t g, int side, struct run *run, size_t n)
{
    const struct il_opts *o = r->o;
    const struct il_data *d = &r->d;
    const struct il_group *gr = &r->gs.g[g];
    size_t ps = pass_slot(r);
    for (size_t i = 0; i < gr->n; i++) {
        size_t rec = gr->rec[i];
        const uint32_t *lab = d->lab + rec * d->nslots;
        run[n++] = (struct run){rec,
                                gr->x[i],
                                side,
                                lab[o->design_slot[0]],
                                o->design == IL_D_CROSSED ? lab[o->design_slot[1]] : 0,
                                ps == SIZE_MAX ? IL_MISSING_ID : lab[ps]};
    }
    return n;
}

void
il_attribute(struct il_report *r)
{
    if (!r->o->attribute)
        return;
    int cmp = r->ncmp > 0;
    r->nattr = cmp ? r->ncmp : r->gs.ng;
    r->attr = il_xcalloc(r->nattr ? r->nattr : 1, sizeof *r->attr);
    for (size_t u = 0; u < r->nattr; u++) {
        struct il_attr *A = &r->attr[u];
        size_t g = cmp ? r->cmp[u].g : u, base = cmp ? r->cmp[u].base : 0;
        size_t n = r->gs.g[g].n + (cmp ? r->gs.g[base].n : 0);
        struct run *run = il_xcalloc(n ? n : 1, sizeof *run);
        size_t m = add_runs(r, g, 1, run, 0);
        if (cmp)
            m = add_runs(r, base, 0, run, m);
        A->name =
            cmp ? il_xasprintf("%s vs %s", r->gname[g], r->gname[base]) : il_xstrdup(r->gname[g]);
        analyse(r, A, run, m, cmp);
        free(run);
    }
}
