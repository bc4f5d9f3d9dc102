/*
 * bench/records.c: N interloper/1 records of the shape interloper sweep
 * writes (copied field by field from a real sweep of /bin/true on the
 * development VM, about 1,200 bytes a record), for bench/report.sh.
 *
 *   records N SETUPS > FILE
 *
 * Two systems (A, B) measured in SETUPS setups (label setup "eNNN", with
 * its env_add), N / (2 SETUPS) repetitions each, in sweep order (pass by
 * pass, every setup once a pass, both systems in a setup).  task-clock is
 * B = 0.97 A (the planted ratio) times a per-setup effect (1% sd, shared by
 * both systems) times run noise (0.5% sd, with an occasional burst).
 * Deterministic: the same N and SETUPS give the same bytes.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "splitmix.h"

int
main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: records N SETUPS\n");
        return 1;
    }
    long n = atol(argv[1]), k = atol(argv[2]);
    if (n < 2 || k < 1) {
        fprintf(stderr, "records: N >= 2 and SETUPS >= 1\n");
        return 1;
    }
    long reps = (n + 2 * k - 1) / (2 * k);
    double *fx = malloc((size_t)k * sizeof *fx);
    if (!fx)
        return 1;
    for (long s = 0; s < k; s++)
        fx[s] = exp(0.01 * gauss());
    static char buf[1 << 16];
    setvbuf(stdout, buf, _IOFBF, sizeof buf);
    printf("{\"schema\":\"interloper-sweep/1\",\"kind\":\"plan\",\"plan\":\"55bdf404c1da\","
           "\"time\":\"2026-11-26T08:30:39Z\",\"version\":\"0.2.0\",\"extent\":{\"setups\":%ld,"
           "\"reps\":%ld,\"runs\":%ld},\"host\":\"vm\"}\n",
           k, reps, n);
    long i = 0, pid = 6900;
    for (long r = 1; r <= reps && i < n; r++)
        for (long s = 0; s < k && i < n; s++)
            for (int sys = 0; sys < 2 && i < n; sys++, i++) {
                char name = sys ? 'B' : 'A';
                long env = 16 * s;
                double noise = exp(0.005 * gauss());
                if (unif() < 0.01)
                    noise *= 1.2; /* a burst */
                long tc = lround(1e6 * (sys ? 0.97 : 1) * fx[s] * noise);
                long pf = 60 + (long)(4 * unif());
                long cs = unif() < 0.1;
                long wall = tc + 9000 + (long)(2000 * unif());
                pid = pid < 4000000 ? pid + 1 : 300;
                printf("{\"schema\":\"interloper/1\",\"version\":\"0.2.0\",\"labels\":{\"bench\":"
                       "\"tr\",\"system\":\"%c\",\"setup\":\"e%ld\",\"env_add\":\"%ld\",\"rep\":"
                       "\"%ld\",\"run\":\"%c/e%ld/r%ld\",\"launch\":\"b4017798f5f45023-%ld\","
                       "\"plan\":\"55bdf404c1da\",\"seed\":\"5\"},",
                       name, env, env, r, name, env, r, i + 1);
                printf("\"pid\":%ld,\"ppid\":%ld,\"argv\":[\"s/%c/tr\"],\"host\":\"vm\",\"cpu\":"
                       "\"AMD EPYC\",\"kernel\":\"6.18.44-fc-v782\",\"start\":"
                       "\"2026-11-26T08:30:39Z\",\"backend\":\"perf\",\"inherit\":\"all\",",
                       pid, pid - 3, name);
                printf("\"setup\":{\"env_bytes\":%ld,\"env_vars\":45,\"argv_bytes\":7,\"aslr\":"
                       "false,\"stack_offset\":0,\"stack_offset_requested\":0,\"stack_pinned\":"
                       "false,\"stack_pin\":null,\"main_sp\":\"0x%lx\",\"main_entry\":\"tail\","
                       "\"main_sp_residue\":0,\"stack_top\":\"0x7ffffffff000\",\"heap_offset\":0,"
                       "\"heap_offset_requested\":0,\"heap_start\":\"0x55555555e000\","
                       "\"heap_base\":\"0x55555555e000\",\"cpus\":\"0-1\"},",
                       1700 + env, 0x7fffffffe4f0L - (env & ~15L));
                printf("\"exit\":{\"how\":\"return\",\"status\":0,\"signal\":0},\"events\":{"
                       "\"task-clock\":{\"value\":%ld,\"enabled_ns\":%ld,\"running_ns\":%ld},"
                       "\"page-faults\":{\"value\":%ld,\"enabled_ns\":%ld,\"running_ns\":%ld},"
                       "\"context-switches\":{\"value\":%ld,\"enabled_ns\":%ld,\"running_ns\":%ld}"
                       "},",
                       tc, tc, tc, pf, tc - 800, tc - 800, cs, tc - 1200, tc - 1200);
                printf("\"times\":{\"wall_ns\":%ld,\"user_ns\":%ld,\"sys_ns\":%ld},"
                       "\"ctx_switches\":{\"voluntary\":0,\"involuntary\":%ld},\"maxrss_kib\":1804,"
                       "\"floor\":{\"task-clock\":%ld,\"page-faults\":0,\"context-switches\":0}}\n",
                       wall, (tc / 1000) * 1000, ((wall - tc) / 1000) * 1000, 1 + cs,
                       4500 + (long)(100 * unif()));
            }
    free(fx);
    return fflush(stdout) != 0;
}
