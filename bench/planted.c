/*
 * bench/planted.c: minimal interloper/1 records with planted setup
 * effects, drift and bursts, for bench/exchanges.py (the permutation
 * tests' validation).  Not part of pass/fail.
 *
 *   planted SETUPS REPS SEED TAU DRIFT BURST STANDOUT INTERACT > FILE
 *
 * Two systems (A, B), each setup once a pass in each of REPS passes (label
 * rep), the setups in a random order in every pass and both systems in a
 * setup's turn, in a random order: what interloper sweep runs.  wall_ns is
 * 1e6 (B: 0.97 of it) times
 *   - a setup effect exp(TAU z), shared by both systems; setup s0 also
 *     exp(STANDOUT) (one setup that stands out);
 *   - B's own per-setup effect exp(INTERACT z) (per-setup ratios that
 *     differ: the comparison's test);
 *   - a pass level exp(DRIFT z) (drift between passes);
 *   - run noise exp(0.01 z), and bursts: each run starts one with
 *     probability BURST, lasting a geometric number of runs (mean 3), each
 *     run in it slowed by 10% to 30%.
 * z are independent standard normal draws; SEED fixes them all.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "splitmix.h"

int
main(int argc, char **argv)
{
    if (argc != 9) {
        fprintf(stderr, "usage: planted SETUPS REPS SEED TAU DRIFT BURST STANDOUT INTERACT\n");
        return 1;
    }
    long k = atol(argv[1]), reps = atol(argv[2]);
    double tau = atof(argv[4]), drift = atof(argv[5]), burst = atof(argv[6]);
    double standout = atof(argv[7]), inter = atof(argv[8]);
    if (k < 2 || reps < 2 || !(burst >= 0 && burst < 1)) {
        fprintf(stderr, "planted: SETUPS >= 2, REPS >= 2, 0 <= BURST < 1\n");
        return 1;
    }
    /* the seed through splitmix64's finalizer: consecutive seeds start far
     * apart in the generator's sequence (a multiple of its increment, as
     * before, started seed s + 1 one draw after seed s: data sets of
     * consecutive seeds were shifted copies of one stream's draws) */
    uint64_t z = (strtoull(argv[3], NULL, 10) + 1) * 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    rng = z ^ (z >> 31);
    double *fx = malloc((size_t)k * sizeof *fx), *ix = malloc((size_t)k * sizeof *ix);
    long *order = malloc((size_t)k * sizeof *order);
    if (!fx || !ix || !order)
        return 1;
    for (long s = 0; s < k; s++) {
        fx[s] = exp(tau * gauss() + (s == 0 ? standout : 0));
        ix[s] = exp(inter * gauss());
    }
    long left = 0; /* runs left in the current burst */
    double slow = 1;
    for (long r = 1; r <= reps; r++) {
        double level = exp(drift * gauss());
        for (long s = 0; s < k; s++)
            order[s] = s;
        for (long s = k - 1; s > 0; s--) {
            long j = (long)(unif() * (double)(s + 1)), t = order[s];
            order[s] = order[j];
            order[j] = t;
        }
        for (long q = 0; q < k; q++) {
            long s = order[q];
            int first = unif() < 0.5;
            for (int i = 0; i < 2; i++) {
                int sys = i ^ first;
                if (!left && unif() < burst) {
                    left = 1 + (long)floor(log(unif()) / log(2.0 / 3));
                    slow = 1.1 + 0.2 * unif();
                }
                double b = left ? slow : 1;
                left -= left > 0;
                double v = 1e6 * (sys ? 0.97 * ix[s] : 1) * fx[s] * level * b * exp(0.01 * gauss());
                printf("{\"schema\":\"interloper/1\",\"labels\":{\"system\":\"%c\",\"setup\":"
                       "\"s%ld\",\"rep\":\"%ld\"},\"times\":{\"wall_ns\":%.0f}}\n",
                       sys ? 'B' : 'A', s, r, v);
            }
        }
    }
    free(fx);
    free(ix);
    free(order);
    return fflush(stdout) != 0;
}
