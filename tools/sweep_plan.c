/*
 * sweep_plan.c: a sweep's plan, the runs and their order, from a design and a
 * seed.  Pure: no I/O.  This is experimental setup randomization as
 * Mytkowicz et al. propose it (ASPLOS'09, section 7.1.2): every system in
 * many setups, in a random interleaved order, so that drift in the machine
 * lines up with no factor.
 *
 * The draws, all from include/il_prng.h, one stream each:
 *   stream 1       the setups: a partial Fisher-Yates over the product,
 *                  for i = 0, 1, ...: swap(a[i], a[i + below(n - i)]); the
 *                  first K are drawn, and drawing on extends the same
 *                  sequence, so K setups are a prefix of any larger draw;
 *                  or, where layouts are a factor and K is below the
 *                  product (sweep order 2, below), the layouts in cycles;
 *   stream 2+2b    the order of batch b (batch 0 is the plan without
 *                  --until): for each repetition, a shuffle of the batch's
 *                  setups, then in each setup a shuffle of its cells (the
 *                  systems, or with the pin varying, systems x {off, on});
 *   stream 3+2b    the warm-up runs' order: before its first block, each
 *                  setup's cells W times, shuffled each time.
 * With one pin value and no warm-up, batch 0 is exactly the order of the sh
 * sweep this replaces (tests/sweep/old-orders.txt).
 *
 * Sweep order 2: the layouts in cycles.  A link order is a build: its
 * effect is shared by every run of that binary (Mytkowicz et al., section
 * 4.1: 33 link orders of perlbench moved O3's speedup from 0.92 to 1.10),
 * so where the layouts vary the summary's interval takes the layout, not
 * the setup, as its unit, and its degrees of freedom are the layouts
 * measured less one.  Repetition at the highest level that varies is what
 * narrows the interval (Kalibera and Jones, ISMM'13, sections 3 and 9),
 * and a setup spent on a layout measured already adds none.  A draw of K
 * setups from the whole product measured only 9 of 16 layouts in 16
 * setups (outside13 F3: 8 degrees of freedom where 15 were paid for).  So
 * where a sample is drawn (K below the product, --setups or --until's
 * first batch) and there are two or more layouts, setup i is in cycle
 * c = i / L, L layouts: at the start of each cycle a shuffle of the
 * layouts (il_rng_shuffle), and setup i takes the layout at place i mod L
 * of it, every layout once before any twice; its other factors (env size,
 * stack, heap offsets: one of m = n / L combinations, env outermost) are
 * the c-th draw of a partial Fisher-Yates over that layout's own m, so a
 * layout meets no combination twice: swap(q[c], q[c + below(m - c)]),
 * both draws on stream 1 in setup order.  K setups are still a prefix of
 * any larger sample.  The whole product (no sample) keeps the draw above,
 * its runs and order unchanged; a plan whose layouts would be sampled by
 * the draw above (a plan line of an older interloper, il_design.fy_draw)
 * is drawn as it was.  Plans with two or more layouts name sweep order 2
 * in their identity, so an older file is another plan, not one resumed
 * with other setups.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "il_tools.h"

int
il_plan_cycles(const struct il_design *d)
{
    unsigned long long n = (unsigned long long)d->nenv * (d->nlay ? d->nlay : 1);
    n *= d->nstack;
    n *= d->nheap;
    return !d->fy_draw && d->nlay >= 2 && d->setups && d->setups < n;
}

int
il_plan_init(struct il_plan *p, const struct il_design *d, const char **why)
{
    memset(p, 0, sizeof *p);
    p->d = d;
    size_t nlay = d->nlay ? d->nlay : 1;
    if (!d->nsys || !d->nenv || !d->nstack || !d->nheap) {
        *why = "an empty factor";
        return -1;
    }
    unsigned long long n = (unsigned long long)d->nenv * nlay;
    n *= d->nstack;
    n *= d->nheap;
    if (n > (1ULL << 30)) {
        *why = "more than 2^30 setups in the product of the factors";
        return -1;
    }
    p->n = (size_t)n;
    p->ncell = d->nsys * (d->pin_factor ? 2 : 1);
    if (p->ncell > 65535) {
        *why = "more than 65535 systems";
        return -1;
    }
    p->draw = il_xcalloc(p->n, sizeof *p->draw);
    for (size_t i = 0; i < p->n; i++)
        p->draw[i] = (uint32_t)i;
    p->cycles = il_plan_cycles(d);
    if (p->cycles) {
        /* each layout's combinations of the other factors, 0 .. m-1 */
        size_t m = p->n / d->nlay;
        p->pool = il_xcalloc(p->n, sizeof *p->pool);
        for (size_t i = 0; i < p->n; i++)
            p->pool[i] = (uint32_t)(i % m);
        p->perm = il_xcalloc(d->nlay, sizeof *p->perm);
    }
    p->g = il_xmalloc(sizeof *p->g);
    il_rng_init(p->g, d->seed, 1);
    return 0;
}

void
il_plan_free(struct il_plan *p)
{
    free(p->draw);
    free(p->g);
    free(p->pool);
    free(p->perm);
    p->draw = p->pool = p->perm = NULL;
    p->g = NULL;
}

/* The next setup of sweep order 2 (above): the layout at its place in its
 * cycle's shuffle, the other factors the layout's next combination. */
static uint32_t
draw_cycle(struct il_plan *p, size_t i)
{
    size_t nlay = p->d->nlay, m = p->n / nlay, c = i / nlay;
    if (i % nlay == 0) {
        for (size_t l = 0; l < nlay; l++)
            p->perm[l] = (uint32_t)l;
        il_rng_shuffle(p->g, p->perm, nlay);
    }
    size_t l = p->perm[i % nlay];
    uint32_t *q = p->pool + l * m;
    size_t j = c + il_rng_below(p->g, m - c);
    uint32_t t = q[c];
    q[c] = q[j];
    q[j] = t;
    /* the product's index: env outermost, then layout, stack, heap */
    size_t inner = p->n / (p->d->nenv * nlay), combo = q[c];
    return (uint32_t)(((combo / inner) * nlay + l) * inner + combo % inner);
}

/* Draw setups until k are drawn. */
static void
draw_to(struct il_plan *p, size_t k)
{
    for (; p->cycles && p->drawn < k && p->drawn < p->n; p->drawn++)
        p->draw[p->drawn] = draw_cycle(p, p->drawn);
    for (; p->drawn < k && p->drawn < p->n; p->drawn++) {
        size_t i = p->drawn, j = i + il_rng_below(p->g, p->n - i);
        uint32_t t = p->draw[i];
        p->draw[i] = p->draw[j];
        p->draw[j] = t;
    }
}

size_t
il_plan_batch_end(const struct il_plan *p, unsigned b)
{
    size_t k = p->d->setups ? p->d->setups : p->n;
    for (unsigned i = 0; i < b && k < p->n; i++)
        k = k > p->n / 2 ? p->n : 2 * k;
    return k < p->n ? k : p->n;
}

static void
identity(uint32_t *a, size_t n)
{
    for (size_t i = 0; i < n; i++)
        a[i] = (uint32_t)i;
}

struct il_run *
il_plan_batch(struct il_plan *p, unsigned b, uint32_t first_block, size_t *nruns)
{
    const struct il_design *d = p->d;
    size_t lo = b ? il_plan_batch_end(p, b - 1) : 0, hi = il_plan_batch_end(p, b);
    if (b && lo == hi) {
        *nruns = 0;
        return NULL;
    }
    draw_to(p, hi);
    size_t m = hi - lo;
    size_t total = m * p->ncell * ((size_t)d->reps + d->warmup);
    struct il_run *r = il_xcalloc(total ? total : 1, sizeof *r);
    uint32_t *ord = il_xcalloc(m, sizeof *ord), *cells = il_xcalloc(p->ncell, sizeof *cells);
    struct il_rng order, warm;
    il_rng_init(&order, d->seed, 2 + 2 * b);
    il_rng_init(&warm, d->seed, 3 + 2 * b);
    size_t k = 0;
    uint32_t block = first_block;
    for (unsigned rep = 1; rep <= d->reps; rep++) {
        identity(ord, m);
        il_rng_shuffle(&order, ord, m);
        for (size_t o = 0; o < m; o++, block++) {
            uint32_t s = (uint32_t)(lo + ord[o]);
            for (unsigned w = 1; rep == 1 && w <= d->warmup; w++) {
                identity(cells, p->ncell);
                il_rng_shuffle(&warm, cells, p->ncell);
                for (size_t c = 0; c < p->ncell; c++)
                    r[k++] = (struct il_run){s, block, (uint16_t)cells[c], (uint16_t)w, 1};
            }
            identity(cells, p->ncell);
            il_rng_shuffle(&order, cells, p->ncell);
            for (size_t c = 0; c < p->ncell; c++)
                r[k++] = (struct il_run){s, block, (uint16_t)cells[c], (uint16_t)rep, 0};
        }
    }
    free(ord);
    free(cells);
    *nruns = k;
    return r;
}

void
il_plan_setup(const struct il_plan *p, size_t pos, unsigned long long *env, long *lay,
              unsigned long long *stack, unsigned long long *heap)
{
    const struct il_design *d = p->d;
    size_t i = p->draw[pos], nlay = d->nlay ? d->nlay : 1;
    *heap = d->heap[i % d->nheap];
    i /= d->nheap;
    *stack = d->stack[i % d->nstack];
    i /= d->nstack;
    *lay = d->nlay ? (long)(i % nlay) : -1;
    i /= nlay;
    *env = d->env[i];
}

static void
factors(const struct il_plan *p, size_t pos, struct il_factors *f)
{
    long lay;
    memset(f, 0, sizeof *f);
    il_plan_setup(p, pos, &f->env, &lay, &f->stack_offset, &f->heap_offset);
    f->layout = lay >= 0 ? p->d->lay[lay] : NULL;
}

void
il_plan_setup_id(const struct il_plan *p, size_t pos, char *out, size_t outsz)
{
    struct il_factors f;
    factors(p, pos, &f);
    il_setup_id(&f, out, outsz);
}

void
il_plan_run_id(const struct il_plan *p, const struct il_run *r, char *out, size_t outsz)
{
    char setup[256];
    il_plan_setup_id(p, r->setup, setup, sizeof setup);
    const char *pin = !p->d->pin_factor ? "" : r->cell >= p->d->nsys ? "/pin-on" : "/pin-off";
    snprintf(out, outsz, "%s/%s%s/%c%u", p->d->sys[r->cell % p->d->nsys], setup, pin,
             r->warm ? 'w' : 'r', r->rep);
}

void
il_plan_setup_label(const struct il_plan *p, const struct il_run *r, char *out, size_t outsz)
{
    struct il_factors f;
    char id[512], token[65];
    factors(p, r->setup, &f);
    if (p->d->aslr) {
        /* every run a setup of its own: a token from the run's id */
        il_plan_run_id(p, r, id, sizeof id);
        il_sha256_hex(id, strlen(id), token);
        token[8] = 0;
        f.aslr_token = token;
    }
    il_setup_id(&f, out, outsz);
}

unsigned
il_plan_shard(const struct il_run *r, unsigned n)
{
    return r->block % n + 1;
}
