/*
 * synthrec.c: synthetic records of a sweep, for interloper report
 * --attribute (tests/system/stats_attrib.sh, bench/attrib.sh).
 *
 * Two systems, A (the baseline) and B, in setups crossed from E
 * environment sizes (48 bytes apart, so that main_sp modulo 64 takes four
 * values and modulo 128 and above one per size) and L layouts (each a
 * seeded order of six objects, named in a plan line as interloper sweep
 * writes it), P passes; in each pass every setup once in a random order,
 * and inside a setup both systems in a random order: the sweep's design.
 * The machine drifts: a level per pass (sd 2%), AR(1) along the runs
 * (phi 0.7, sd 1%) and bursts of slow runs clustered in time (2% of runs
 * start five 10% slower); each run has 1% noise of its own.
 *
 *   synthrec [-s SEED] [-E SIZES] [-L LAYOUTS] [-P PASSES]
 *            [-e EFFECT -m MOD] [-o EFFECT] [-u SD] [-a]
 *
 *   -e EFFECT -m MOD  B is EFFECT (0.03: 3%) slower where main_sp % MOD == 0
 *   -o EFFECT         B is EFFECT slower where a.o is first in the link order
 *   -u SD             every setup its own effect on B/A, N(0, SD): setups
 *                     differ for a reason no record carries
 *   -a                ASLR on: main_sp and heap_start move every run
 * Without -e, -o, -u: an A/A experiment (B and A the same program).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint64_t st;

static double
unif(void)
{
    st ^= st << 13;
    st ^= st >> 7;
    st ^= st << 17;
    return ((double)(st >> 11) + 0.5) / 9007199254740992.0;
}

static double
gauss(void)
{
    return sqrt(-2 * log(unif())) * cos(6.283185307179586 * unif());
}

static void
shuffle(int *a, int n)
{
    for (int i = n - 1; i > 0; i--) {
        int j = (int)(unif() * (i + 1)), t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

int
main(int argc, char **argv)
{
    unsigned long seed = 1;
    int E = 8, L = 4, P = 8, aslr = 0, mod = 64, c;
    double eff = 0, oeff = 0, usd = 0;
    while ((c = getopt(argc, argv, "s:E:L:P:e:m:o:u:a")) != -1) {
        switch (c) {
        case 's':
            seed = strtoul(optarg, NULL, 10);
            break;
        case 'E':
            E = atoi(optarg);
            break;
        case 'L':
            L = atoi(optarg);
            break;
        case 'P':
            P = atoi(optarg);
            break;
        case 'e':
            eff = atof(optarg);
            break;
        case 'm':
            mod = atoi(optarg);
            break;
        case 'o':
            oeff = atof(optarg);
            break;
        case 'u':
            usd = atof(optarg);
            break;
        case 'a':
            aslr = 1;
            break;
        default:
            fprintf(stderr, "usage: synthrec [-s SEED] [-E SIZES] [-L LAYOUTS] [-P PASSES] "
                            "[-e EFFECT -m MOD] [-o EFFECT] [-u SD] [-a]\n");
            return 2;
        }
    }
    if (E < 1 || L < 1 || P < 1 || E * L > 4096 || mod < 16) {
        fprintf(stderr, "synthrec: expected positive sizes, at most 4096 setups, -m 16 or more\n");
        return 2;
    }
    st = 0x9e3779b97f4a7c15ULL ^ (seed * 0xbf58476d1ce4e5b9ULL);
    for (int i = 0; i < 20; i++)
        unif();
    static const char *obj[6] = {"a.o", "b.o", "c.o", "d.o", "e.o", "f.o"};
    int(*ord)[6] = calloc((size_t)L, sizeof *ord);
    unsigned long *heap = calloc((size_t)L * 2, sizeof *heap);
    for (int l = 0; l < L; l++) {
        for (int j = 0; j < 6; j++)
            ord[l][j] = j;
        if (l)
            shuffle(ord[l], 6);
        for (int y = 0; y < 2; y++)
            heap[2 * l + y] = 0x555555559000UL + (unsigned long)(y * 0x2000 + l * 0x1000) +
                              16 * (unsigned long)(unif() * 200);
    }
    /* the plan line, as interloper sweep writes its systems' binaries */
    printf("{\"schema\":\"interloper-sweep/1\",\"kind\":\"plan\",\"systems\":[");
    for (int y = 0; y < 2; y++) {
        printf("%s{\"name\":\"%c\",\"binaries\":[", y ? "," : "", "AB"[y]);
        for (int l = 0; l < L; l++) {
            printf("%s{\"layout\":\"r%02d\",\"order\":[", l ? "," : "", l);
            for (int j = 0; j < 6; j++)
                printf("%s\"%s\"", j ? "," : "", obj[ord[l][j]]);
            printf("]}");
        }
        printf("]}");
    }
    printf("]}\n");
    int K = E * L;
    double *ueff = calloc((size_t)K, sizeof *ueff);
    for (int s = 0; s < K; s++)
        ueff[s] = usd * gauss();
    int *perm = calloc((size_t)K, sizeof *perm);
    double ar = 0;
    int burst = 0;
    long run = 0;
    for (int p = 1; p <= P; p++) {
        double level = 0.02 * gauss();
        for (int s = 0; s < K; s++)
            perm[s] = s;
        shuffle(perm, K);
        for (int i = 0; i < K; i++) {
            int s = perm[i], e = s / L, l = s % L, first = unif() < 0.5;
            int env = 200 + 48 * e;
            for (int t = 0; t < 2; t++) {
                int y = first ? t : 1 - t; /* 0 is A, 1 is B */
                unsigned long sp = 0x7fffffffe000UL - (unsigned long)((env + 15) / 16 * 16);
                unsigned long hp = heap[2 * l + y];
                if (aslr) {
                    sp -= 16 * (unsigned long)(unif() * 512) +
                          0x1000UL * (unsigned long)(unif() * 4096);
                    hp += 0x1000UL * (unsigned long)(unif() * 4096) +
                          16 * (unsigned long)(unif() * 256);
                }
                ar = 0.7 * ar + 0.01 * sqrt(1 - 0.49) * gauss();
                if (!burst && unif() < 0.02)
                    burst = 5;
                double x = level + ar + 0.01 * gauss() + (burst ? log(1.10) : 0);
                if (burst)
                    burst--;
                if (y == 1) {
                    if (eff != 0 && sp % (unsigned long)mod == 0)
                        x += log(1 + eff);
                    if (oeff != 0 && ord[l][0] == 0)
                        x += log(1 + oeff);
                    x += ueff[s];
                }
                double wall = 1e8 * exp(x);
                printf("{\"schema\":\"interloper/"
                       "1\",\"labels\":{\"system\":\"%c\",\"setup\":\"s%03d\","
                       "\"env_add\":\"%d\",\"layout\":\"r%02d\",\"rep\":\"%d\",\"run\":\"%ld\"},"
                       "\"times\":{\"wall_ns\":%.0f,\"user_ns\":%.0f,\"sys_ns\":0},"
                       "\"setup\":{\"env_bytes\":%d,\"aslr\":%s,\"main_sp\":\"0x%lx\","
                       "\"heap_start\":\"0x%lx\"}}\n",
                       "AB"[y], s, env, l, p, run++, wall, wall, env, aslr ? "true" : "false", sp,
                       hp);
            }
        }
    }
    free(ord);
    free(heap);
    free(ueff);
    free(perm);
    return 0;
}
