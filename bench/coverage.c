/*
 * coverage.c: does every 95% interval of interloper report cover the truth
 * 95% of the time?  A Monte Carlo study, not a test (it takes minutes):
 * for each scenario below it generates records with a known truth, runs
 * the report binary on them (--json), and counts how often each reported
 * interval holds the value it estimates.  See bench/coverage.sh.
 *
 *   coverage REPORT [-n REPS] [-j JOBS] [-s SCENARIO] [-S SEED] [-K DIR]
 *
 * The noise model.  A run of system S (A = baseline, B = value) in setup s:
 *     x = mu_S * exp(u_s + v_{S,s}) * spike_{S,s} * e
 * u_s is a setup effect shared by both systems (N(0, su^2) in log space),
 * v_{S,s} one of the system's own (N(0, sv_S^2)), the "system-specific
 * setup effect" of Mytkowicz et al.; with two crossed labels both are sums
 * of an environment-size effect and a layout effect.  spike is 1.05 for
 * one setup of B in the spiked scenario, else 1.  The run noise e has mean
 * 1 (normal: 1 + cv z; lognormal: exp(cv z - cv^2/2)), or is bursty as
 * runs on the development VM were: a floor, plus with probability 0.3 an
 * exponential burst of mean 12%, plus 0.3% jitter:
 *     e = 1 + 0.003 z + Bernoulli(0.3) * Exponential(mean 0.12).
 * Every draw is independent (the sweep randomises the run order, which
 * turns bursts that cluster in time into independent ones), except in
 * the drift scenarios (issue 13), whose runs are made in the sweep's
 * order, pass by pass, and whose machine drifts:
 *     x = mu_S * exp(u_s + v_{S,s}) * exp(L_p + A_t) * e_t * (1 + B_t)
 * with L_p ~ N(0, 3%^2) a level per pass, A_t an AR(1) process along the
 * run sequence (phi 0.9, stationary sd 1%), e_t = 1 + 0.3% z, and bursts
 * clustered in time: a two-state chain enters a burst with probability
 * 0.05 and stays in it with 0.8, and a run in a burst is slower by an
 * exponential of mean 12% (outside, 10% of runs by one of mean 6%).
 * There the report's tests are tallied as run (blocks within passes) and
 * with --passes none (today's before issue 13: runs free within a setup),
 * their rejection rates at 5% and the deciles of their p-values.
 *
 * The truths.  The ratio of means over the population of setups is
 * mu_B / mu_A = theta (times the spike's share when there is one); a
 * group's mean is mu_S E[exp(u + v)] E[e]; a setup's ratio is theta
 * exp(v_B - v_A) spike; the geometric mean of per-setup ratios theta; their
 * arithmetic mean theta E[exp(v_B - v_A)]; the setup sd (tau) is the sd of
 * v_B - v_A.  A group's own setup sd (groups[].setup_effect.tau_ci) is
 * the sd of u + v_S (of the sums over both labels when crossed; none for
 * the spiked system); the ratio of the two groups' setup variances is 1
 * when there are setup effects; and where there are none (su = sv = 0, no
 * spike) a group in which some setup is said to stand out is a false
 * positive (maxT: family-wise over the group's setups).  Quantile
 * estimators: the p-quantile of e and the mean of a p-quantile of n runs
 * are computed by simulation at start-up (4,000,000 draws).  Each
 * replication draws new setup effects.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum noise { NORMAL, LOGNORMAL, BURSTY };

struct scen {
    const char *name, *what, *args;
    int k;        /* setups; 0: flat (no setup label) */
    int I, J;     /* crossed: k = I * J, labels env_add and layout */
    int na, nb;   /* runs per setup (or in all, flat) of baseline A and value B */
    double theta; /* mu_B / mu_A */
    double mu;    /* mu_A */
    double su;    /* shared setup effect sd (log); crossed: per factor */
    double sv;    /* system-specific setup effect sd (log); crossed: per factor */
    enum noise noise;
    double cva, cvb; /* run noise of A and B */
    int spike;       /* 1: setup 0 of B is 5% slower */
    int integer;     /* counts: integer values */
    int bench;       /* benchmarks of a suite (flat each), 0: one */
    double sbench;   /* sd of the per-benchmark log ratio */
    double p;        /* quantile estimator (0: mean) */
    /* Sweep order and drift (issue 13): passes > 0 writes the runs in the
     * order interloper sweep makes them, pass by pass, the setups of a
     * pass shuffled, the two systems of a setup's block shuffled, each
     * record labelled with its pass (rep); the machine drifts (DRIFT
     * below).  The sweep's setup is env x layout when I, J are set; the
     * report's unit is then --setup layout or the pair.  fx: B is that
     * much slower in the even layouts (half of them): a setup effect on
     * the ratio, the power scenario. */
    int passes;
    double fx;
    /* The summary's fallback (closing12, "not measured"): sparse > 0
     * draws k setups without replacement from the product of sparse
     * environment sizes (env_add 0, 16, ...) and J layouts, as interloper
     * compare and sweep draw them (a prefix of a Fisher-Yates shuffle of
     * the product: sizes rarely repeat, layouts do), and makes their runs
     * pass by pass with the drift above.  Both factors have effects of
     * their own: each size and each layout a shared one (su) and one per
     * system (sv), so that the truth, the ratio of means over the
     * population of sizes and layouts, is theta.  Such data sets are what
     * the summary reads with --setup layout when the crossed model cannot
     * be fitted (tools/sweep.c, design_update). */
    int sparse;
};

/* The scenarios of issue 8, each with the command a user would run (one
 * scenario a few lines, not one field a line). */
/* clang-format off */
static const struct scen scen[] = {
    {"none", "no setup effect, 20 setups x 5 runs, noise 1%", "--setup setup", 20, 0, 0, 5, 5,
     0.97, 1e6, 0, 0, NORMAL, 0.01, 0.01, 0, 0, 0, 0, 0, 0, 0, 0},
    {"shared", "shared setup effect sd 3%", "--setup setup", 20, 0, 0, 5, 5, 0.97, 1e6, 0.03, 0,
     NORMAL, 0.01, 0.01, 0, 0, 0, 0, 0, 0, 0, 0},
    {"specific", "system-specific setup effect sd 3% (Mytkowicz)", "--setup setup", 20, 0, 0, 5,
     5, 0.97, 1e6, 0.03, 0.03, NORMAL, 0.01, 0.01, 0, 0, 0, 0, 0, 0, 0, 0},
    {"specific-only", "the issue's case: system-specific effect 3%, none shared", "--setup setup",
     20, 0, 0, 5, 5, 0.97, 1e6, 0, 0.03, NORMAL, 0.01, 0.01, 0, 0, 0, 0, 0, 0, 0, 0},
    {"crossed", "8 env sizes x 6 layouts, each its own effects (1.5%, 2%), 2 runs per cell",
     "--setup env_add,layout", 48, 8, 6, 2, 2, 0.97, 1e6, 0.015, 0.02, NORMAL, 0.01, 0.01, 0, 0, 0,
     0, 0, 0, 0, 0},
    {"crossed-as-one", "the same, each cell taken as an independent setup", "--setup setup", 48, 8,
     6, 2, 2, 0.97, 1e6, 0.015, 0.02, NORMAL, 0.01, 0.01, 0, 0, 0, 0, 0, 0, 0, 0},
    {"unbalanced", "no setups, 5 baseline vs 30 value runs, sd 1% vs 4%, ratio 3", "", 0, 0, 0, 5,
     30, 3, 1e6, 0, 0, NORMAL, 0.01, 0.04, 0, 0, 0, 0, 0, 0, 0, 0},
    {"ratio-3", "ratio 3, specific setup effect 3%", "--setup setup", 20, 0, 0, 5, 5, 3, 1e6,
     0.03, 0.03, NORMAL, 0.01, 0.01, 0, 0, 0, 0, 0, 0, 0, 0},
    {"ratio-1/3", "ratio 1/3, specific setup effect 3%", "--setup setup", 20, 0, 0, 5, 5,
     1.0 / 3, 1e6, 0.03, 0.03, NORMAL, 0.01, 0.01, 0, 0, 0, 0, 0, 0, 0, 0},
    {"lognormal", "lognormal run noise sigma 5%, specific effect 3%", "--setup setup", 20, 0, 0, 5,
     5, 0.97, 1e6, 0.03, 0.03, LOGNORMAL, 0.05, 0.05, 0, 0, 0, 0, 0, 0, 0, 0},
    {"counter", "counts of 2.5e12 with CV 1e-9, 10 vs 10 runs", "--metric instructions", 0, 0, 0,
     10, 10, 1 + 2e-9, 2.5e12, 0, 0, NORMAL, 1e-9, 1e-9, 0, 1, 0, 0, 0, 0, 0, 0},
    {"aa-bursty", "A/A: one binary twice, bursty noise, 24 setups x 5 runs", "--setup setup", 24, 0,
     0, 5, 5, 1, 1e6, 0, 0, BURSTY, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"aa-bursty-p10", "the same with --estimator p10, 24 setups x 30 runs",
     "--setup setup --estimator p10", 24, 0, 0, 30, 30, 1, 1e6, 0, 0, BURSTY, 0, 0, 0, 0, 0, 0,
     0.1, 0, 0, 0},
    {"spiked", "bursty, 24 setups x 30 runs, one setup of B 5% slower", "--setup setup", 24, 0, 0,
     30, 30, 1, 1e6, 0, 0, BURSTY, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0},
    {"spiked-p10", "the same with --estimator p10", "--setup setup --estimator p10", 24, 0, 0, 30,
     30, 1, 1e6, 0, 0, BURSTY, 0, 0, 1, 0, 0, 0, 0.1, 0, 0, 0},
    {"flat-p10", "no setups, bursty, 30 vs 30 runs, --estimator p10", "--estimator p10", 0, 0, 0,
     30, 30, 0.97, 1e6, 0, 0, BURSTY, 0, 0, 0, 0, 0, 0, 0.1, 0, 0, 0},
    /* Quantile ratios with few runs: the bootstrap is given from the runs
     * of an order-statistic interval of the quantile (6 for the median,
     * 29 for p10; Bonferroni over 10 setups: 51); below, none. */
    {"flat-median-3", "no setups, 3 vs 3 runs, normal noise 5%, ratio 1.5, --estimator median",
     "--estimator median", 0, 0, 0, 3, 3, 1.5, 1e6, 0, 0, NORMAL, 0.05, 0.05, 0, 0, 0, 0, 0.5, 0, 0,
     0},
    {"flat-median-6", "the same with 6 vs 6 runs", "--estimator median", 0, 0, 0, 6, 6, 1.5, 1e6,
     0, 0, NORMAL, 0.05, 0.05, 0, 0, 0, 0, 0.5, 0, 0, 0},
    {"flat-median-8", "the same with 8 vs 8 runs", "--estimator median", 0, 0, 0, 8, 8, 1.5, 1e6,
     0, 0, NORMAL, 0.05, 0.05, 0, 0, 0, 0, 0.5, 0, 0, 0},
    {"flat-median-10", "the same with 10 vs 10 runs", "--estimator median", 0, 0, 0, 10, 10, 1.5,
     1e6, 0, 0, NORMAL, 0.05, 0.05, 0, 0, 0, 0, 0.5, 0, 0, 0},
    {"flat-p10-29", "no setups, 29 vs 29 runs, normal noise 5%, ratio 1.5, --estimator p10",
     "--estimator p10", 0, 0, 0, 29, 29, 1.5, 1e6, 0, 0, NORMAL, 0.05, 0.05, 0, 0, 0, 0, 0.1, 0, 0,
     0},
    {"flat-p10-35", "the same with 35 vs 35 runs", "--estimator p10", 0, 0, 0, 35, 35, 1.5, 1e6, 0,
     0, NORMAL, 0.05, 0.05, 0, 0, 0, 0, 0.1, 0, 0, 0},
    {"setups-p10-5", "A/A, 10 setups x 5 runs, normal noise 5%, --estimator p10 (review R2)",
     "--setup setup --estimator p10", 10, 0, 0, 5, 5, 1, 1e6, 0, 0, NORMAL, 0.05, 0.05, 0, 0, 0, 0,
     0.1, 0, 0, 0},
    {"setups-p10-40", "the same with 40 runs a setup", "--setup setup --estimator p10", 10, 0, 0, 40,
     40, 1, 1e6, 0, 0, NORMAL, 0.05, 0.05, 0, 0, 0, 0, 0.1, 0, 0, 0},
    {"setups-p10-55", "the same with 55 runs a setup", "--setup setup --estimator p10", 10, 0, 0, 55,
     55, 1, 1e6, 0, 0, NORMAL, 0.05, 0.05, 0, 0, 0, 0, 0.1, 0, 0, 0},
    {"suite", "8 benchmarks, ratios spread 2% around 0.97, 10 runs each, noise 2%", "--by bench",
     0, 0, 0, 10, 10, 0.97, 1e6, 0, 0, NORMAL, 0.02, 0.02, 0, 0, 8, 0.02, 0, 0, 0, 0},
    /* The group's tau interval (issue 13, section 2): the median under
     * bursts, and many setups of two runs. */
    {"aa-bursty-median", "A/A, bursty noise, 24 setups x 10 runs, --estimator median",
     "--setup setup --estimator median", 24, 0, 0, 10, 10, 1, 1e6, 0, 0, BURSTY, 0, 0, 0, 0, 0, 0,
     0.5, 0, 0, 0},
    {"many-setups", "200 setups x 2 runs, shared setup effect sd 2%, noise 1%", "--setup setup",
     200, 0, 0, 2, 2, 0.97, 1e6, 0.02, 0, NORMAL, 0.01, 0.01, 0, 0, 0, 0, 0, 0, 0, 0},
    {"many-setups-none", "200 setups x 2 runs, no setup effect, noise 1%", "--setup setup", 200, 0,
     0, 2, 2, 0.97, 1e6, 0, 0, NORMAL, 0.01, 0.01, 0, 0, 0, 0, 0, 0, 0, 0},
    /* Drift (issue 13): calibration of the tests under no difference,
     * then their power against a setup effect on the ratio. */
    {"drift-aa", "A/A in the sweep's order with drift, 24 setups x 8 passes", "--setup setup", 24,
     0, 0, 8, 8, 1, 1e6, 0, 0, NORMAL, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0},
    {"drift-aa-p10", "the same with --estimator p10", "--setup setup --estimator p10", 24, 0, 0,
     8, 8, 1, 1e6, 0, 0, NORMAL, 0, 0, 0, 0, 0, 0, 0.1, 8, 0, 0},
    {"drift-shared", "ratio 0.97, a shared setup effect sd 3%, 24 setups x 8 passes, with drift",
     "--setup setup", 24, 0, 0, 8, 8, 0.97, 1e6, 0.03, 0, NORMAL, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0},
    {"drift-specific", "system-specific setup effects sd 2%, 24 setups x 8 passes, with drift",
     "--setup setup", 24, 0, 0, 8, 8, 0.97, 1e6, 0.03, 0.02, NORMAL, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0},
    {"drift-specific-3", "the same with 3 passes", "--setup setup", 24, 0, 0, 3, 3, 0.97, 1e6, 0.03,
     0.02, NORMAL, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0},
    {"drift-layout-aa", "A/A, 16 layouts x 8 env sizes x 8 passes, --setup layout, with drift",
     "--setup layout", 128, 8, 16, 8, 8, 1, 1e6, 0.01, 0, NORMAL, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0},
    {"drift-layout-aa-p10", "the same with --estimator p10 (the demo's)",
     "--setup layout --estimator p10", 128, 8, 16, 8, 8, 1, 1e6, 0.01, 0, NORMAL, 0, 0, 0, 0, 0,
     0, 0.1, 8, 0, 0},
    {"drift-cells-aa-p10", "the same over the cells, --setup env_add,layout --estimator p10",
     "--setup env_add,layout --estimator p10", 128, 8, 16, 8, 8, 1, 1e6, 0.01, 0, NORMAL, 0, 0, 0,
     0, 0, 0, 0.1, 8, 0, 0},
    {"drift-power-0.5", "B 0.5% slower in half of 16 layouts, 8 env sizes x 8 passes, drift",
     "--setup layout", 128, 8, 16, 8, 8, 1, 1e6, 0.01, 0, NORMAL, 0, 0, 0, 0, 0, 0, 0, 8, 0.005, 0},
    {"drift-power-1", "the same, 1% slower", "--setup layout", 128, 8, 16, 8, 8, 1, 1e6, 0.01, 0,
     NORMAL, 0, 0, 0, 0, 0, 0, 0, 8, 0.01, 0},
    {"drift-power-2", "the same, 2% slower (issue 13)", "--setup layout", 128, 8, 16, 8, 8, 1, 1e6,
     0.01, 0, NORMAL, 0, 0, 0, 0, 0, 0, 0, 8, 0.02, 0},
    {"drift-power-3", "the same, 3% slower", "--setup layout", 128, 8, 16, 8, 8, 1, 1e6, 0.01, 0,
     NORMAL, 0, 0, 0, 0, 0, 0, 0, 8, 0.03, 0},
    {"drift-power-0.5-p10", "B 0.5% slower in half of 16 layouts, --estimator p10",
     "--setup layout --estimator p10", 128, 8, 16, 8, 8, 1, 1e6, 0.01, 0, NORMAL, 0, 0, 0, 0, 0, 0,
     0.1, 8, 0.005, 0},
    {"drift-power-1-p10", "the same, 1% slower", "--setup layout --estimator p10", 128, 8, 16, 8, 8,
     1, 1e6, 0.01, 0, NORMAL, 0, 0, 0, 0, 0, 0, 0.1, 8, 0.01, 0},
    {"drift-power-2-p10", "the same, 2% slower (issue 13)", "--setup layout --estimator p10", 128,
     8, 16, 8, 8, 1, 1e6, 0.01, 0, NORMAL, 0, 0, 0, 0, 0, 0, 0.1, 8, 0.02, 0},
    {"drift-power-3-p10", "the same, 3% slower", "--setup layout --estimator p10", 128, 8, 16, 8,
     8, 1, 1e6, 0.01, 0, NORMAL, 0, 0, 0, 0, 0, 0, 0.1, 8, 0.03, 0},
    /* Last, so that the scenarios above keep their seeds (seed + index). */
    {"drift-power-0.25", "B 0.25% slower in half of 16 layouts, 8 env sizes x 8 passes, drift",
     "--setup layout", 128, 8, 16, 8, 8, 1, 1e6, 0.01, 0, NORMAL, 0, 0, 0, 0, 0, 0, 0, 8, 0.0025,
     0},
    /* Two passes (sweep -r 2): the comparison's tau interval takes F's
     * reference, two blocks a setup being too few to exchange (review13
     * F1: chi-squared's covered 86% at tau = 0). */
    {"drift-aa-2", "A/A in the sweep's order with drift, 24 setups x 2 passes", "--setup setup",
     24, 0, 0, 2, 2, 1, 1e6, 0, 0, NORMAL, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0},
    {"drift-specific-2", "system-specific setup effects sd 2%, 24 setups x 2 passes, with drift",
     "--setup setup", 24, 0, 0, 2, 2, 0.97, 1e6, 0.03, 0.02, NORMAL, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0},
    /* The summary's fallback, --setup layout, on the setups compare draws
     * (its first batches: 8 and 16 setups; 3 runs of each side in each):
     * A/A (one binary twice: only shared effects), then system-specific
     * effects with a ratio of 0.97, then power against a planted ratio;
     * last, a full grid that the crossed model can fit, read both ways. */
    {"fb-aa-16x4", "A/A, 16 setups of 256 env sizes x 4 layouts, 3 passes, shared effects 1%, drift",
     "--setup layout", 16, 256, 4, 3, 3, 1, 1e6, 0.01, 0, NORMAL, 0, 0, 0, 0, 0, 0, 0, 3, 0, 1},
    {"fb-aa-8x16", "A/A, 8 setups of 256 env sizes x 16 layouts, 3 passes, shared effects 1%, drift",
     "--setup layout", 8, 256, 16, 3, 3, 1, 1e6, 0.01, 0, NORMAL, 0, 0, 0, 0, 0, 0, 0, 3, 0, 1},
    {"fb-specific-16x4", "ratio 0.97, 16 setups of 256 x 4 layouts, own effects 1% per factor",
     "--setup layout", 16, 256, 4, 3, 3, 0.97, 1e6, 0.01, 0.01, NORMAL, 0, 0, 0, 0, 0, 0, 0, 3, 0, 1},
    {"fb-specific-32x8", "ratio 0.97, 32 setups of 256 x 8 layouts, own effects 1% per factor",
     "--setup layout", 32, 256, 8, 3, 3, 0.97, 1e6, 0.01, 0.01, NORMAL, 0, 0, 0, 0, 0, 0, 0, 3, 0, 1},
    {"fb-specific-8x16", "ratio 0.97, 8 setups of 256 x 16 layouts, own effects 1% per factor",
     "--setup layout", 8, 256, 16, 3, 3, 0.97, 1e6, 0.01, 0.01, NORMAL, 0, 0, 0, 0, 0, 0, 0, 3, 0, 1},
    {"fb-power-1", "B 1% slower, 16 setups of 256 x 4 layouts, own effects 0.5% per factor",
     "--setup layout", 16, 256, 4, 3, 3, 1.01, 1e6, 0.01, 0.005, NORMAL, 0, 0, 0, 0, 0, 0, 0, 3, 0,
     1},
    {"fb-power-2", "the same, 2% slower", "--setup layout", 16, 256, 4, 3, 3, 1.02, 1e6, 0.01,
     0.005, NORMAL, 0, 0, 0, 0, 0, 0, 0, 3, 0, 1},
    {"fb-power-2-32x8", "B 2% slower, 32 setups of 256 x 8 layouts, own effects 0.5% per factor",
     "--setup layout", 32, 256, 8, 3, 3, 1.02, 1e6, 0.01, 0.005, NORMAL, 0, 0, 0, 0, 0, 0, 0, 3, 0,
     1},
    {"grid-crossed", "B 1% slower, every one of 8 env sizes x 4 layouts, own effects 0.5%, crossed",
     "--setup env_add,layout", 32, 8, 4, 3, 3, 1.01, 1e6, 0.01, 0.005, NORMAL, 0, 0, 0, 0, 0, 0, 0,
     3, 0, 1},
    {"grid-layout", "the same data sets, --setup layout (the fallback)", "--setup layout", 32, 8, 4,
     3, 3, 1.01, 1e6, 0.01, 0.005, NORMAL, 0, 0, 0, 0, 0, 0, 0, 3, 0, 1},
};
/* clang-format on */
#define NSCEN (sizeof scen / sizeof scen[0])

/* The intervals counted. */
enum {
    C_RATIO,   /* comparisons[].ci: the headline */
    C_FLAT,    /* comparisons[].flat.ci: as if runs were independent */
    C_GROUP,   /* groups[].ci */
    C_GEO,     /* setups.geomean_ci */
    C_ARITH,   /* setups.ci: arithmetic mean of per-setup ratios */
    C_SETUP,   /* setups.per_setup[].ci, each setup */
    C_ADJ,     /* setups.per_setup[].ci_adjusted, all setups at once */
    C_TAU,     /* setups.heterogeneity.tau_ci */
    C_GTAU,    /* groups[].setup_effect.tau_ci: a group's own setup sd */
    C_SVR,     /* comparisons[].setup_variance.ci */
    C_SUITE,   /* suite.ci: these benchmarks */
    C_SUITE_B, /* suite.ci_benchmarks: benchmarks like these */
    C_N
};
static const char *const cname[C_N] = {
    "ratio (headline)",        "ratio, flat (runs independent)",
    "group estimate",          "geomean of setups",
    "arith. mean of setups",   "each setup's ratio",
    "all setups (adjusted)",   "setup sd (tau)",
    "group's setup sd (tau)",  "setup variance ratio",
    "suite, these benchmarks", "suite, like these",
};

struct tally {
    long cov[C_N], n[C_N], absent[C_N];
    long reps, het, het_n, either, spike_found, fail;
    long out, out_n; /* a setup stands out where none differs */
    /* drift scenarios: the comparison's test as run (blocks) and with
     * --passes none (old), and the groups' tests: rejections at 5% and
     * deciles of the p-values */
    long rej[3], tested[3], dec[3][10];
    /* the fallback scenarios: the headline's interval excludes 1 (power,
     * or a false claim where theta is 1); the data sets on which the
     * summary would fit the crossed model (tools/sweep.c, design_update) */
    long excl, excl_n, crossed_pick;
};
enum { T_NEW, T_OLD, T_GROUP };
static const char *const tname[3] = {"setups differ (blocks)", "setups differ (--passes none)",
                                     "a group's setups differ"};

/* ------------------------------------------------------------ random */
static uint64_t
splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static double
unif(uint64_t *s)
{
    return ((double)(splitmix(s) >> 11) + 0.5) / 9007199254740992.0;
}

static double
gauss(uint64_t *s)
{
    return sqrt(-2 * log(unif(s))) * cos(6.283185307179586 * unif(s));
}

static double
noise(const struct scen *c, double cv, uint64_t *s)
{
    switch (c->noise) {
    case NORMAL:
        return 1 + cv * gauss(s);
    case LOGNORMAL:
        return exp(cv * gauss(s) - cv * cv / 2);
    default:
        return 1 + 0.003 * gauss(s) + (unif(s) < 0.3 ? -0.12 * log(unif(s)) : 0);
    }
}

static double
noise_mean(const struct scen *c)
{
    return c->noise == BURSTY ? 1 + 0.3 * 0.12 : 1;
}

static int
dcmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* R's type 7 quantile of sorted s. */
static double
q7(const double *s, size_t n, double p)
{
    double h = (double)(n - 1) * p;
    size_t i = (size_t)h;
    return i + 1 >= n ? s[n - 1] : s[i] + (h - (double)i) * (s[i + 1] - s[i]);
}

/* E[e] for the mean; for quantiles, the population p-quantile of e
 * (flat) or the mean of the type 7 p-quantile of n draws (per setup). */
static double
noise_center(const struct scen *c, int n, double cv)
{
    if (c->p == 0)
        return noise_mean(c);
    uint64_t s = 12345;
    if (c->k == 0) {
        size_t N = 4000000;
        double *x = malloc(N * sizeof *x);
        for (size_t i = 0; i < N; i++)
            x[i] = noise(c, cv, &s);
        qsort(x, N, sizeof *x, dcmp);
        double q = q7(x, N, c->p);
        free(x);
        return q;
    }
    size_t reps = 4000000 / (size_t)n;
    double *x = malloc((size_t)n * sizeof *x), sum = 0;
    for (size_t r = 0; r < reps; r++) {
        for (int i = 0; i < n; i++)
            x[i] = noise(c, cv, &s);
        qsort(x, (size_t)n, sizeof *x, dcmp);
        sum += q7(x, (size_t)n, c->p);
    }
    free(x);
    return sum / (double)reps;
}

/* The flat truth of a quantile estimator: the p-quantile of all of B's
 * runs over the setups (one setup spiked) over that of A's, without
 * theta, by simulation. */
static double
pooled_quantile_ratio(const struct scen *c)
{
    if (c->p == 0 || !c->spike)
        return 1;
    uint64_t s = 777;
    size_t N = 4800000, m = 0;
    double *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
    for (size_t i = 0; i < N; i++, m++) {
        int u = (int)(i % (size_t)c->k);
        a[i] = noise(c, c->cva, &s);
        b[i] = noise(c, c->cvb, &s) * (u == 0 ? 1.05 : 1);
    }
    qsort(a, m, sizeof *a, dcmp);
    qsort(b, m, sizeof *b, dcmp);
    double r = q7(b, m, c->p) / q7(a, m, c->p);
    free(a);
    free(b);
    return r;
}

/* ------------------------------------------------------------ one replication */
struct truth {
    double ratio, flat, group[2], geo, arith, tau, gtau[2], suite, suite_b;
    double *setup; /* per setup */
    int nsetup;
    int crossed_pick; /* sparse: the summary would fit the crossed model */
};

static void
rec(FILE *f, const char *bench, const char *sys, const char *labels, double v, int integer)
{
    fprintf(f, "{\"schema\":\"interloper/1\",\"labels\":{\"bench\":\"%s\",\"system\":\"%s\"%s},",
            bench, sys, labels);
    if (integer)
        fprintf(f, "\"events\":{\"instructions\":{\"value\":%.0f}}}\n", v);
    else
        fprintf(f, "\"times\":{\"wall_ns\":%.17g}}\n", v);
}

/* ord[0..k) = a shuffle of 0..k-1 (a pass's order of its setups). */
static void
shuffle(int *ord, int k, uint64_t *s)
{
    for (int u = 0; u < k; u++)
        ord[u] = u;
    for (int u = k - 1; u > 0; u--) {
        int j = (int)(unif(s) * (u + 1)), tmp = ord[u];
        ord[u] = ord[j];
        ord[j] = tmp;
    }
}

/* The next run of mean m under the drift (see the top): the pass's level
 * L, the AR(1) walk *ar and the burst chain *inb moved on by one run, the
 * run's jitter and its burst. */
static double
drift_run(uint64_t *s, double m, double L, double *ar, int *inb)
{
    *ar = 0.9 * *ar + sqrt(1 - 0.81) * 0.01 * gauss(s);
    *inb = *inb ? unif(s) < 0.8 : unif(s) < 0.05;
    double burst = *inb ? -0.12 * log(unif(s)) : unif(s) < 0.1 ? -0.06 * log(unif(s)) : 0;
    return m * exp(L + *ar) * (1 + 0.003 * gauss(s)) * (1 + burst);
}

/* The drift scenarios' data set, in the sweep's order (see the top). */
static void
generate_sweep(const struct scen *c, uint64_t seed, FILE *f, struct truth *t)
{
    uint64_t s = seed;
    int k = c->k, J = c->I ? c->J : k;
    double *us = malloc((size_t)k * sizeof *us), ue[64], ul[64];
    double *va = malloc((size_t)k * sizeof *va), *vb = malloc((size_t)k * sizeof *vb);
    int *ord = malloc((size_t)k * sizeof *ord);
    for (int i = 0; i < 64; i++) {
        ue[i] = c->su * gauss(&s);
        ul[i] = c->su * gauss(&s);
    }
    for (int u = 0; u < k; u++) {
        us[u] = c->I ? ue[u / J] + ul[u % J] : c->su * gauss(&s);
        va[u] = c->sv * gauss(&s);
        vb[u] = c->sv * gauss(&s);
        t->setup[u] = c->fx > 0 ? NAN : c->theta * exp(vb[u] - va[u]);
    }
    double ar = 0;
    int inb = 0;
    for (int pass = 1; pass <= c->passes; pass++) {
        double L = 0.03 * gauss(&s);
        shuffle(ord, k, &s);
        for (int o = 0; o < k; o++) {
            int u = ord[o], bfirst = unif(&s) < 0.5;
            char labels[160];
            if (c->I)
                snprintf(
                    labels, sizeof labels,
                    ",\"setup\":\"s%d\",\"env_add\":\"%d\",\"layout\":\"r%02d\",\"rep\":\"%d\"", u,
                    u / J * 64, u % J, pass);
            else
                snprintf(labels, sizeof labels, ",\"setup\":\"s%d\",\"rep\":\"%d\"", u, pass);
            for (int q = 0; q < 2; q++) {
                int b = q ^ !bfirst;
                double m = c->mu * exp(us[u] + (b ? vb[u] : va[u])) *
                           (b ? c->theta * (c->fx > 0 && (u % J) % 2 == 0 ? 1 + c->fx : 1) : 1);
                rec(f, "b0", b ? "B" : "A", labels, drift_run(&s, m, L, &ar, &inb), 0);
            }
        }
    }
    t->nsetup = k;
    t->ratio = c->fx > 0 ? NAN : c->theta;
    t->flat = t->geo = t->arith = t->ratio;
    t->group[0] = t->group[1] = t->gtau[0] = t->gtau[1] = NAN;
    t->tau = c->fx > 0 ? NAN : sqrt(2) * c->sv; /* the sd of vb - va */
    if (c->su == 0 && c->fx == 0)               /* no setup effect at all: a group's tau is 0 */
        t->gtau[0] = t->gtau[1] = 0;
    free(us);
    free(va);
    free(vb);
    free(ord);
}

/* The fallback scenarios' data set (struct scen, sparse): k setups drawn
 * from the product of c->I sizes and c->J layouts, in the sweep's order
 * with the drift of generate_sweep.  The draws depend on the seed only,
 * so that two scenarios of the same parameters read the same data sets. */
static void
generate_sparse(const struct scen *c, uint64_t seed, FILE *f, struct truth *t)
{
    uint64_t s = seed;
    int k = c->k, I = c->I, J = c->J, n = I * J;
    double *ue = malloc((size_t)I * sizeof *ue), *vae = malloc((size_t)I * sizeof *vae),
           *vbe = malloc((size_t)I * sizeof *vbe), *ul = malloc((size_t)J * sizeof *ul),
           *val = malloc((size_t)J * sizeof *val), *vbl = malloc((size_t)J * sizeof *vbl);
    int *prod = malloc((size_t)n * sizeof *prod), *ord = malloc((size_t)k * sizeof *ord);
    for (int i = 0; i < I; i++) {
        ue[i] = c->su * gauss(&s);
        vae[i] = c->sv * gauss(&s);
        vbe[i] = c->sv * gauss(&s);
    }
    for (int j = 0; j < J; j++) {
        ul[j] = c->su * gauss(&s);
        val[j] = c->sv * gauss(&s);
        vbl[j] = c->sv * gauss(&s);
    }
    for (int i = 0; i < n; i++)
        prod[i] = i;
    for (int i = 0; i < k; i++) { /* a prefix of a Fisher-Yates shuffle */
        int j = i + (int)(unif(&s) * (n - i)), tmp = prod[i];
        prod[i] = prod[j];
        prod[j] = tmp;
    }
    double ar = 0;
    int inb = 0;
    for (int pass = 1; pass <= c->passes; pass++) {
        double L = 0.03 * gauss(&s);
        shuffle(ord, k, &s);
        for (int o = 0; o < k; o++) {
            int u = ord[o], e = prod[u] / J, l = prod[u] % J, bfirst = unif(&s) < 0.5;
            char labels[160];
            snprintf(labels, sizeof labels,
                     ",\"setup\":\"s%d\",\"env_add\":\"%d\",\"layout\":\"r%02d\",\"rep\":\"%d\"", u,
                     e * 16, l, pass);
            for (int q = 0; q < 2; q++) {
                int b = q ^ !bfirst;
                double m = c->mu * exp(ue[e] + ul[l] + (b ? vbe[e] + vbl[l] : vae[e] + val[l])) *
                           (b ? c->theta : 1);
                rec(f, "b0", b ? "B" : "A", labels, drift_run(&s, m, L, &ar, &inb), 0);
            }
        }
    }
    /* the summary's pick: the crossed model where more setups were drawn
     * than the two factors' values together, less one */
    int nde = 0, ndl = 0;
    for (int i = 0; i < I; i++)
        for (int u = 0; u < k; u++)
            if (prod[u] / J == i) {
                nde++;
                break;
            }
    for (int j = 0; j < J; j++)
        for (int u = 0; u < k; u++)
            if (prod[u] % J == j) {
                ndl++;
                break;
            }
    t->crossed_pick = k + 1 > nde + ndl;
    t->nsetup = k;
    for (int u = 0; u < 1024; u++)
        t->setup[u] = NAN; /* a layout's ratio averages over its sizes: no truth */
    t->ratio = t->flat = c->theta;
    t->geo = t->arith = t->tau = NAN;
    t->group[0] = t->group[1] = t->gtau[0] = t->gtau[1] = NAN;
    free(ue);
    free(vae);
    free(vbe);
    free(ul);
    free(val);
    free(vbl);
    free(prod);
    free(ord);
}

/* Write one data set; fill the truths that depend on the draws. */
static void
generate(const struct scen *c, uint64_t seed, FILE *f, struct truth *t, const double *center)
{
    if (c->sparse) {
        generate_sparse(c, seed, f, t);
        return;
    }
    if (c->passes) {
        generate_sweep(c, seed, f, t);
        return;
    }
    uint64_t s = seed;
    int k = c->k ? c->k : 1, nb = c->bench ? c->bench : 1;
    double lgsum = 0;
    for (int b = 0; b < nb; b++) {
        char bench[16];
        snprintf(bench, sizeof bench, "b%d", b);
        double th = c->theta * (c->bench ? exp(c->sbench * gauss(&s)) : 1);
        lgsum += log(th);
        /* crossed factors' effects */
        double ue[64], ul[64], vae[64], val[64], vbe[64], vbl[64];
        for (int i = 0; i < 64; i++) {
            ue[i] = c->su * gauss(&s);
            ul[i] = c->su * gauss(&s);
            vae[i] = c->sv * gauss(&s);
            val[i] = c->sv * gauss(&s);
            vbe[i] = c->sv * gauss(&s);
            vbl[i] = c->sv * gauss(&s);
        }
        for (int u = 0; u < k; u++) {
            double us, va, vb;
            char labels[128] = "";
            if (c->I) {
                int i = u / c->J, j = u % c->J;
                us = ue[i] + ul[j];
                va = vae[i] + val[j];
                vb = vbe[i] + vbl[j];
                snprintf(labels, sizeof labels,
                         ",\"setup\":\"s%d\",\"env_add\":\"%d\",\"layout\":\"r%02d\"", u, i * 64,
                         j);
            } else {
                us = c->su * gauss(&s);
                va = c->sv * gauss(&s);
                vb = c->sv * gauss(&s);
                if (c->k)
                    snprintf(labels, sizeof labels, ",\"setup\":\"s%d\"", u);
            }
            double spike = c->spike && u == 0 ? 1.05 : 1;
            double ma = c->mu * exp(us + va), mb = c->mu * th * exp(us + vb) * spike;
            if (c->k)
                t->setup[u] = th * exp(vb - va) * spike;
            for (int r = 0; r < c->na; r++)
                rec(f, bench, "A", labels, ma * noise(c, c->cva, &s), c->integer);
            for (int r = 0; r < c->nb; r++)
                rec(f, bench, "B", labels, mb * noise(c, c->cvb, &s), c->integer);
        }
    }
    t->nsetup = c->k;
    /* Population truths (mean over setups of the setup population). */
    double spikeshare = c->spike ? (k - 1 + 1.05) / k : 1;
    double ee = c->I ? exp(2 * (c->su * c->su + c->sv * c->sv) / 2)
                     : exp((c->su * c->su + c->sv * c->sv) / 2);
    t->ratio = c->theta * spikeshare;
    t->flat = c->p > 0 ? c->theta * center[2] : t->ratio;
    t->group[0] = c->mu * ee * center[0];
    t->group[1] = c->mu * c->theta * ee * center[1] * spikeshare;
    t->geo = c->theta * (c->spike ? exp(log(1.05) / k) : 1);
    double vv = c->I ? 4 * c->sv * c->sv : 2 * c->sv * c->sv;
    t->arith = c->theta * exp(vv / 2) * spikeshare;
    t->tau = sqrt(vv);
    double gv = (c->I ? 2 : 1) * (c->su * c->su + c->sv * c->sv);
    t->gtau[0] = sqrt(gv);
    t->gtau[1] = c->spike ? NAN : sqrt(gv);
    t->suite = exp(lgsum / nb);
    t->suite_b = c->theta;
}

/* Run the report on path; its JSON, or NULL. */
static json_t *
run_report(const char *report, const struct scen *c, const char *path, const char *extra)
{
    char *argv[32];
    int argc = 0;
    char args[512];
    argv[argc++] = (char *)report;
    argv[argc++] = "--json";
    argv[argc++] = "--quiet-warning";
    argv[argc++] = "all";
    argv[argc++] = "--compare";
    argv[argc++] = "system=A";
    snprintf(args, sizeof args, "%s%s", c->args, extra);
    for (char *tok = strtok(args, " "); tok && argc < 28; tok = strtok(NULL, " "))
        argv[argc++] = tok;
    argv[argc++] = (char *)path;
    argv[argc] = NULL;
    int fd[2];
    if (pipe(fd))
        return NULL;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd[1], 1);
        close(fd[0]);
        close(fd[1]);
        int dn = open("/dev/null", O_WRONLY);
        dup2(dn, 2);
        execv(report, argv);
        _exit(127);
    }
    close(fd[1]);
    FILE *in = fdopen(fd[0], "r");
    json_error_t je;
    json_t *j = json_loadf(in, 0, &je);
    fclose(in);
    int st;
    waitpid(pid, &st, 0);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        json_decref(j);
        return NULL;
    }
    return j;
}

/* Count whether the interval [lo, hi] at key of o holds truth. */
static int
covers(struct tally *t, int kind, json_t *ci, double truth)
{
    if (isnan(truth)) /* no truth to cover (a drift scenario's power) */
        return 0;
    t->n[kind]++;
    if (!json_is_array(ci)) {
        t->absent[kind]++;
        return 0;
    }
    double lo = json_number_value(json_array_get(ci, 0));
    double hi = json_number_value(json_array_get(ci, 1));
    int ok = lo <= truth && truth <= hi;
    t->cov[kind] += ok;
    return ok;
}

static void
tally_p(struct tally *t, int w, double p)
{
    t->tested[w]++;
    t->rej[w] += p < 0.05;
    int d = (int)(p * 10);
    t->dec[w][d < 0 ? 0 : d > 9 ? 9 : d]++;
}

/* -K DIR: write the data sets there, as SCENARIO-rN.jsonl, and run no
 * report (for an independent test of the same data, bench/blocked.py) */
static const char *keep;

static void
replicate(const char *report, const struct scen *c, long rep, uint64_t seed0, const char *dir,
          const double *center, struct tally *t)
{
    char path[4200];
    if (keep)
        snprintf(path, sizeof path, "%s/%s-r%ld.jsonl", keep, c->name, rep);
    else
        snprintf(path, sizeof path, "%s/r%ld.jsonl", dir, rep);
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(1);
    }
    struct truth tr = {0};
    double setup[1024];
    tr.setup = setup;
    generate(c, seed0 ^ (0x51ed270b27ULL * (uint64_t)(rep + 1)), f, &tr, center);
    fclose(f);
    if (keep) {
        t->reps++;
        return;
    }
    json_t *j = run_report(report, c, path, "");
    json_t *old = c->passes && !c->sparse ? run_report(report, c, path, " --passes none") : NULL;
    unlink(path);
    t->reps++;
    if (!j) {
        t->fail++;
        json_decref(old);
        return;
    }
    if (c->passes) {
        json_t *jj[2] = {j, old};
        for (int w = 0; w < 2; w++) {
            json_t *h = json_object_get(
                json_object_get(json_array_get(json_object_get(jj[w], "comparisons"), 0), "setups"),
                "heterogeneity");
            json_t *pv = json_object_get(h, "p");
            if (json_is_number(pv))
                tally_p(t, w ? T_OLD : T_NEW, json_number_value(pv));
        }
        json_t *gs0 = json_object_get(j, "groups");
        for (size_t g = 0; g < json_array_size(gs0) && c->su == 0; g++) {
            json_t *pv =
                json_object_get(json_object_get(json_array_get(gs0, g), "setup_effect"), "p");
            if (json_is_number(pv))
                tally_p(t, T_GROUP, json_number_value(pv));
        }
        json_decref(old);
    }
    json_t *cs = json_object_get(j, "comparisons"), *gs = json_object_get(j, "groups");
    int none = c->su == 0 && c->sv == 0 && !c->spike;
    for (size_t g = 0; g < json_array_size(gs) && !c->bench; g++) {
        json_t *gr = json_array_get(gs, g), *fx = json_object_get(gr, "setup_effect");
        covers(t, C_GROUP, json_object_get(gr, "ci"), tr.group[g]);
        if (!json_is_object(fx))
            continue;
        if (none) { /* family-wise over a group's setups */
            t->out_n++;
            t->out += json_array_size(json_object_get(fx, "stand_out")) > 0;
        }
        if (isfinite(tr.gtau[g]) && json_is_array(json_object_get(fx, "tau_ci")))
            covers(t, C_GTAU, json_object_get(fx, "tau_ci"), tr.gtau[g]);
    }
    if (!c->bench) {
        json_t *cm = json_array_get(cs, 0);
        covers(t, C_RATIO, json_object_get(cm, "ci"), tr.ratio);
        json_t *ci = json_object_get(cm, "ci");
        if (c->sparse && json_is_array(ci)) {
            double lo = json_number_value(json_array_get(ci, 0));
            double hi = json_number_value(json_array_get(ci, 1));
            t->excl_n++;
            t->excl += lo > 1 || hi < 1;
        }
        t->crossed_pick += tr.crossed_pick;
        if (c->k)
            covers(t, C_FLAT, json_object_get(json_object_get(cm, "flat"), "ci"), tr.flat);
        json_t *sv = json_object_get(cm, "setup_variance");
        if (!none && !c->spike && json_is_object(sv)) {
            json_t *ci = json_object_get(sv, "ci"); /* upper end null: unbounded */
            double lo = json_number_value(json_array_get(ci, 0));
            json_t *h = json_array_get(ci, 1);
            t->n[C_SVR]++;
            t->cov[C_SVR] += lo <= 1 && (json_is_null(h) || json_number_value(h) >= 1);
        }
        json_t *su = json_object_get(cm, "setups");
        if (json_is_object(su)) {
            covers(t, C_GEO, json_object_get(su, "geomean_ci"), tr.geo);
            covers(t, C_ARITH, json_object_get(su, "ci"), tr.arith);
            json_t *het = json_object_get(su, "heterogeneity"),
                   *ps = json_object_get(su, "per_setup");
            if (json_is_object(het)) {
                t->het_n++;
                t->het += json_number_value(json_object_get(het, "p")) < 0.05;
                if (!c->spike && c->p == 0)
                    covers(t, C_TAU, json_object_get(het, "tau_ci"), tr.tau);
            }
            t->either += json_is_true(json_object_get(su, "straddles_one"));
            int all = 1, any_adj = 0;
            for (size_t u = 0; u < json_array_size(ps); u++) {
                json_t *e = json_array_get(ps, u);
                json_t *lab = json_object_get(e, "labels");
                int idx;
                if (c->I && json_object_get(lab, "env_add")) /* env_add 64 i, layout "rJJ" */
                    idx = atoi(json_string_value(json_object_get(lab, "env_add"))) / 64 * c->J +
                          atoi(json_string_value(json_object_get(lab, "layout")) + 1);
                else /* "s12" */
                    idx = atoi(json_string_value(json_object_get(e, "setup")) + 1);
                covers(t, C_SETUP, json_object_get(e, "ci"), tr.setup[idx]);
                json_t *a = json_object_get(e, "ci_adjusted");
                if (json_is_array(a)) {
                    any_adj = 1;
                    double lo = json_number_value(json_array_get(a, 0));
                    double hi = json_number_value(json_array_get(a, 1));
                    all &= lo <= tr.setup[idx] && tr.setup[idx] <= hi;
                    if (c->spike && idx == 0 && lo > 1)
                        t->spike_found++;
                }
            }
            if (c->fx == 0 && !c->sparse) { /* else no truth per setup to cover */
                t->n[C_ADJ]++;
                if (any_adj)
                    t->cov[C_ADJ] += all;
                else
                    t->absent[C_ADJ]++;
            }
        }
    } else {
        json_t *s = json_object_get(j, "suite");
        covers(t, C_SUITE, json_object_get(s, "ci"), tr.suite);
        covers(t, C_SUITE_B, json_object_get(s, "ci_benchmarks"), tr.suite_b);
    }
    json_decref(j);
}

static void
add(struct tally *a, const struct tally *b)
{
    for (int i = 0; i < C_N; i++) {
        a->cov[i] += b->cov[i];
        a->n[i] += b->n[i];
        a->absent[i] += b->absent[i];
    }
    a->reps += b->reps;
    a->het += b->het;
    a->het_n += b->het_n;
    a->either += b->either;
    a->spike_found += b->spike_found;
    a->fail += b->fail;
    a->out += b->out;
    a->out_n += b->out_n;
    a->excl += b->excl;
    a->excl_n += b->excl_n;
    a->crossed_pick += b->crossed_pick;
    for (int w = 0; w < 3; w++) {
        a->rej[w] += b->rej[w];
        a->tested[w] += b->tested[w];
        for (int d = 0; d < 10; d++)
            a->dec[w][d] += b->dec[w][d];
    }
}

static void
run_scenario(const char *report, const struct scen *c, long reps, int jobs, uint64_t seed,
             const char *dir, struct tally *total)
{
    double center[3] = {noise_center(c, c->na, c->cva), noise_center(c, c->nb, c->cvb),
                        pooled_quantile_ratio(c)};
    int fds[64];
    memset(total, 0, sizeof *total);
    for (int w = 0; w < jobs; w++) {
        int fd[2];
        if (pipe(fd)) {
            perror("pipe");
            exit(1);
        }
        if (fork() == 0) {
            close(fd[0]);
            struct tally t;
            memset(&t, 0, sizeof t);
            for (long r = w; r < reps; r += jobs)
                replicate(report, c, r, seed, dir, center, &t);
            if (write(fd[1], &t, sizeof t) != (ssize_t)sizeof t)
                _exit(1);
            _exit(0);
        }
        close(fd[1]);
        fds[w] = fd[0];
    }
    for (int w = 0; w < jobs; w++) {
        struct tally t;
        if (read(fds[w], &t, sizeof t) == (ssize_t)sizeof t)
            add(total, &t);
        close(fds[w]);
        wait(NULL);
    }
}

static void
print(const struct scen *c, const struct tally *t)
{
    printf("%-15s %s (report %s)\n", c->name, c->what, *c->args ? c->args : "with no design");
    for (int i = 0; i < C_N; i++) {
        if (!t->n[i])
            continue;
        long present = t->n[i] - t->absent[i];
        double cov = present ? 100.0 * (double)t->cov[i] / (double)present : NAN;
        printf("  %-32s %6.2f%%", cname[i], cov);
        if (t->absent[i])
            printf("   (no interval in %.1f%%)", 100.0 * (double)t->absent[i] / (double)t->n[i]);
        printf("   [%ld intervals]\n", present);
    }
    for (int w = 0; w < 3; w++) {
        if (!t->tested[w])
            continue;
        printf("  %-32s %6.2f%% at 5%%   [%ld tests] p by tenths:", tname[w],
               100.0 * (double)t->rej[w] / (double)t->tested[w], t->tested[w]);
        for (int d = 0; d < 10; d++)
            printf(" %ld", t->dec[w][d]);
        printf("\n");
    }
    if (t->het_n && !c->passes)
        printf("  %-32s %6.2f%%\n",
               c->spike || c->sv > 0 ? "setup effect found (power)"
                                     : "setup effect claimed (false)",
               100.0 * (double)t->het / (double)t->het_n);
    if (t->het_n)
        printf("  %-32s %6.2f%%\n", "\"either conclusion\" claimed",
               100.0 * (double)t->either / (double)t->reps);
    if (t->out_n)
        printf("  %-32s %6.2f%%\n", "setup stands out (false)",
               100.0 * (double)t->out / (double)t->out_n);
    if (c->spike)
        printf("  %-32s %6.2f%%\n", "spiked setup wholly above 1",
               100.0 * (double)t->spike_found / (double)t->reps);
    if (t->excl_n)
        printf("  %-32s %6.2f%%   [%ld intervals]\n",
               c->theta == 1 ? "ratio excludes 1 (false)" : "ratio excludes 1 (power)",
               100.0 * (double)t->excl / (double)t->excl_n, t->excl_n);
    if (c->sparse)
        printf("  %-32s %6.2f%%\n", "summary would fit crossed",
               100.0 * (double)t->crossed_pick / (double)t->reps);
    if (t->fail)
        printf("  report failed in %ld of %ld replications\n", t->fail, t->reps);
    fflush(stdout);
}

/* Whether scenarios a and b generate the same data sets from one seed. */
static int
same_data(const struct scen *a, const struct scen *b)
{
    return a->k == b->k && a->I == b->I && a->J == b->J && a->na == b->na && a->nb == b->nb &&
           a->theta == b->theta && a->mu == b->mu && a->su == b->su && a->sv == b->sv &&
           a->passes == b->passes && a->fx == b->fx && a->sparse == b->sparse;
}

int
main(int argc, char **argv)
{
    long reps = 10000;
    int jobs = 2;
    const char *only = NULL;
    uint64_t seed = 20261122;
    int opt;
    while ((opt = getopt(argc, argv, "n:j:s:S:K:")) != -1) {
        switch (opt) {
        case 'K':
            keep = optarg;
            break;
        case 'n':
            reps = atol(optarg);
            break;
        case 'j':
            jobs = atoi(optarg);
            break;
        case 's':
            only = optarg;
            break;
        case 'S':
            seed = strtoull(optarg, NULL, 10);
            break;
        default:
            fprintf(
                stderr,
                "usage: coverage REPORT [-n REPS] [-j JOBS] [-s SCENARIO] [-S SEED] [-K DIR]\n");
            return 1;
        }
    }
    if (optind + 1 != argc || reps < 1 || jobs < 1 || jobs > 64) {
        fprintf(stderr,
                "usage: coverage REPORT [-n REPS] [-j JOBS] [-s SCENARIO] [-S SEED] [-K DIR]\n");
        return 1;
    }
    const char *report = argv[optind];
    char dir[] = "/tmp/il-coverage.XXXXXX";
    const char *tmp = getenv("TMPDIR");
    char dbuf[4096];
    snprintf(dbuf, sizeof dbuf, "%s/il-coverage.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    char *d = mkdtemp(dbuf);
    if (!d) {
        perror(dir);
        return 1;
    }
    printf("coverage of 95%% intervals, %ld replications per scenario (Monte Carlo standard "
           "error %.2f%%: 94.4-95.6%% is within two)\n\n",
           reps, 100 * sqrt(0.95 * 0.05 / (double)reps));
    for (size_t i = 0; i < NSCEN; i++) {
        if (only && strcmp(only, scen[i].name) != 0)
            continue;
        struct tally t;
        /* a fallback scenario that differs from the one before only in
         * how it is read reads the same data sets */
        size_t si = i;
        while (si > 0 && scen[si].sparse && scen[si - 1].sparse &&
               same_data(&scen[si], &scen[si - 1]))
            si--;
        run_scenario(report, &scen[i], reps, jobs, seed + si, d, &t);
        if (keep)
            printf("%s: %ld data sets in %s, report %s%s\n", scen[i].name, t.reps, keep,
                   "--compare system=A ", scen[i].args);
        else
            print(&scen[i], &t);
    }
    rmdir(d);
    return 0;
}
