/*
 * run_draw.c: interloper run --randomize SEED, setup randomization for
 * harnesses that run each benchmark themselves (lit and the LLVM
 * test-suite, SPEC's runcpu, CTest), each invocation through interloper
 * run.
 *
 * Mytkowicz et al. (ASPLOS'09, section 7.1.2) measure each system in many
 * setups; a sweep does so by running the systems itself.  A harness runs
 * a benchmark's command again and again (SPEC's iterations, lit run
 * several times) with the same command line, so each invocation must
 * learn which pass of that command it is: from the harness (--pass N), or
 * from a counter kept beside the results file (FILE.passes: one line
 * "COUNT KEY" per command, KEY a hash of the command's labels, directory
 * and argument vector; read, incremented and rewritten under flock(2), so
 * that copies a harness runs at once each get passes of their own).
 * The counts belong to the results file: the first count makes it (empty,
 * if it is not there: the library appends to it) and a first line
 * "results SIZE DEV:INO" keeps its identity and its size at the last
 * count (the inode compared, not the device, which an NFS remount or a
 * reboot may renumber: review12d).  A results file that is gone, another file, or smaller (removed
 * or truncated to start over, while the counts went on) is refused in one
 * line, since its next passes would start past 0 where another system's
 * start at 0, and no pass would pair (outside review, session 12: a
 * harness's first, failed run left counts behind).  A results file only
 * grows: the library appends and never cuts, and the file exists from the
 * first count on, so copies running at once never see it shrink or go.
 * Not for an output that is not a regular file or is a pattern ('%'): no
 * one file holds the records.
 *
 * Pass i is repetition i % R + 1 of the (i / R)-th setup of bench's draw:
 * a permutation of the environment pads drawn from the seed and the bench
 * label alone, not the system, so that the systems' passes of one index
 * are measured in the same setup and pair in interloper report --setup
 * setup, and the first passes' setups all differ.  Every invocation of one
 * seed, R and pad list has one plan id.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "il_hset.h"
#include "il_tools.h"

void
il_draw_plan_id(const struct il_draw *d, char id[16])
{
    struct il_buf b = {0};
    il_buf_printf(&b, "%s seed %u reps %u env_add", IL_DRAW_GENERATOR, d->seed, d->reps);
    for (size_t i = 0; i < d->nenv; i++)
        il_buf_printf(&b, " %llu", d->env[i]);
    char hex[65];
    il_sha256_hex(b.p, b.n, hex);
    memcpy(id, hex, 12);
    id[12] = 0;
    il_buf_free(&b);
}

void
il_draw_setup(const struct il_draw *d, const char *bench, unsigned long pass,
              unsigned long long *env, unsigned *rep)
{
    struct il_rng g;
    uint32_t *order = il_xcalloc(d->nenv, sizeof *order);
    for (size_t i = 0; i < d->nenv; i++)
        order[i] = (uint32_t)i;
    il_rng_init(&g, d->seed, (uint32_t)il_fnv1a(bench, strlen(bench)));
    il_rng_shuffle(&g, order, d->nenv);
    *env = d->env[order[(pass / d->reps) % d->nenv]];
    *rep = (unsigned)(pass % d->reps) + 1;
    free(order);
}

unsigned long
il_draw_next_pass(const char *output, const char *key, int dry)
{
    char *path = il_xasprintf("%s.passes", output), hash[65];
    il_sha256_hex(key, strlen(key), hash);
    hash[16] = 0;
    int fd = open(path, (dry ? O_RDONLY : O_RDWR | O_CREAT) | O_CLOEXEC, 0666);
    if (fd < 0 && dry && errno == ENOENT) {
        free(path);
        return 0;
    }
    if (fd < 0)
        err(1, "--randomize: cannot open the pass counter %s", path);
    while (flock(fd, dry ? LOCK_SH : LOCK_EX) < 0)
        if (errno != EINTR)
            err(1, "--randomize: cannot lock %s", path);
    FILE *f = fdopen(fd, dry ? "r" : "r+");
    if (!f)
        err(1, "--randomize: %s", path);
    struct il_buf out = {0};
    char line[128];
    unsigned long pass = 0, counted = 0;
    unsigned long long had = 0, hino = 0, size = 0, dev = 0, ino = 0;
    int found = 0, tied = !strchr(output, '%'), known = 0;
    struct stat st, pst;
    if (tied && stat(output, &st) == 0) {
        tied = S_ISREG(st.st_mode);
        known = 1;
    }
    /* no count yet (the counter empty): the results file may be made now */
    int fresh = fstat(fd, &pst) == 0 && pst.st_size == 0;
    if (tied && !known && fresh && !dry) {
        int o = open(output, O_WRONLY | O_CREAT | O_APPEND | O_NONBLOCK | O_CLOEXEC, 0666);
        if (o < 0 || fstat(o, &st) < 0)
            err(1, "--randomize: cannot make the results file %s", output);
        close(o);
        known = 1;
    }
    if (tied && known) {
        size = (unsigned long long)st.st_size;
        dev = (unsigned long long)st.st_dev;
        ino = (unsigned long long)st.st_ino;
    }
    il_buf_printf(&out, "results %llu %llu:%llu\n", size, dev, ino);
    while (fgets(line, sizeof line, f)) {
        unsigned long n;
        char k[32];
        /* the device is written for a reader's sake, not compared */
        if (!strncmp(line, "results ", 8)) {
            if (sscanf(line, "results %llu %*[0-9]:%llu", &had, &hino) != 2)
                had = hino = 0; /* an older counter's: nothing to compare */
            continue;
        }
        if (sscanf(line, "%lu %31s", &n, k) != 2 || strlen(k) != 16)
            errx(1,
                 "--randomize: %s: '%.*s' is not a line 'COUNT KEY' of interloper run; "
                 "remove the file to count passes from 0",
                 path, (int)strcspn(line, "\n"), line);
        counted += n;
        if (!strcmp(k, hash)) {
            pass = n;
            found = 1;
            n++;
        }
        il_buf_printf(&out, "%lu %s\n", n, k);
    }
    if (tied && hino && counted &&
        (!known || ino != hino || size < had))
        errx(1,
             "--randomize: %s is %s since %s counted its %lu passes (removed, replaced or "
             "cut); remove %s to count passes from 0 for this results file, or give each "
             "pass with --pass N",
             output, !known ? "gone" : size < had ? "smaller" : "another file", path, counted,
             path);
    if (!found)
        il_buf_printf(&out, "1 %s\n", hash);
    /* the file only ever grows: rewritten in place, under the lock */
    if (!dry && (pwrite(fd, out.p, out.n, 0) != (ssize_t)out.n || ftruncate(fd, (off_t)out.n) < 0))
        err(1, "--randomize: cannot write %s", path);
    fclose(f); /* and the lock with it, before the program is exec'd */
    il_buf_free(&out);
    free(path);
    return pass;
}
