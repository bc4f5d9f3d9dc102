/*
 * twice.c: the same runs given twice (outside14 H3).  A sharded sweep's
 * shards and their merge (record merge) hold the same records, and
 * `report results*.jsonl` over doc/sweep.md's file names reads both: every
 * run counted twice, the intervals narrowed by about sqrt 2, with no
 * word.  record merge finds such runs record by record (the run and
 * launch labels); here it costs nothing per record: each sweep process
 * writes one machine line at its start, with a random id of its own
 * (sweep_id) and its plan (tools/sweep.c, machine_line), and every file
 * that holds its runs as the sweep wrote them, or merged, holds that line.
 * The same sweep's start in two of the files read, or one file given
 * twice (the same device and inode), is said in one warning ([twice]); the
 * records are kept, as every warning keeps them (a file split by label
 * that kept the sweep's lines in each part holds the start twice but no
 * run twice).  One file is never said: a merge of a merged file with a
 * shard holds the start twice in one file, but not its records.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "il_stats.h"

struct il_twice {
    int *same; /* per file: the first file given that is the same file */
    int nfiles;
    struct il_strtab starts; /* "sweep_id plan" of each start read */
    int *where;              /* per start (id - 1): the file it was read in */
    size_t cap;
    /* the first pair said, and how many more */
    int a, b;
    char *what;
    size_t pairs;
};

void
il_twice_files(struct il_data *d, char **files, int nfiles)
{
    struct il_twice *t = il_xcalloc(1, sizeof *t);
    struct stat *st = il_xcalloc((size_t)nfiles + 1, sizeof *st);
    int *ok = il_xcalloc((size_t)nfiles + 1, sizeof *ok);
    t->same = il_xcalloc((size_t)nfiles + 1, sizeof *t->same);
    t->nfiles = nfiles;
    t->a = t->b = -1;
    il_strtab_init(&t->starts);
    for (int i = 0; i < nfiles; i++) {
        t->same[i] = i;
        /* the standard input ("-") is a file of its own; an unreadable
         * file is said by the reading */
        ok[i] = strcmp(files[i], "-") && stat(files[i], &st[i]) == 0;
        for (int k = 0; ok[i] && k < i; k++)
            if (ok[k] && st[k].st_dev == st[i].st_dev && st[k].st_ino == st[i].st_ino) {
                t->same[i] = k;
                if (t->a < 0) {
                    t->a = k;
                    t->b = i;
                } else {
                    t->pairs++;
                }
                break;
            }
    }
    free(st);
    free(ok);
    d->twice = t;
}

void
il_twice_line(struct il_data *d, json_t *j)
{
    struct il_twice *t = d->twice;
    const char *when = json_string_value(json_object_get(j, IL_M_WHEN));
    const char *sweep = json_string_value(json_object_get(j, IL_M_SWEEP));
    const char *plan = json_string_value(json_object_get(j, IL_M_PLAN));
    int f = (int)d->files; /* the file being read (il_read) */
    if (!t || f >= t->nfiles || !when || strcmp(when, IL_M_WHEN_START) || !sweep || !plan)
        return;
    char *key = il_xasprintf("%s %s", sweep, plan);
    uint32_t id = il_strtab_intern(&t->starts, key, strlen(key));
    free(key);
    if (id > t->cap) {
        t->cap = 2 * (size_t)id;
        t->where = il_xrealloc(t->where, t->cap * sizeof *t->where);
        for (size_t i = id - 1; i < t->cap; i++)
            t->where[i] = -1;
    }
    int was = t->where[id - 1];
    if (was < 0) {
        t->where[id - 1] = f;
        return;
    }
    /* in the same file (a merge's output may repeat it), or in a file
     * already said to be the same as it */
    if (t->same[was] == t->same[f])
        return;
    if (t->a >= 0) {
        t->pairs++;
        return;
    }
    const char *shard = json_string_value(json_object_get(j, IL_M_SHARD));
    t->a = was;
    t->b = f;
    t->what = il_xasprintf("both hold the start of sweep %s (plan %s%s%s), as a merged file and "
                           "its shards do",
                           sweep, plan, shard ? ", shard " : "", shard ? shard : "");
}

void
il_twice_warn(const struct il_data *d, char **files)
{
    const struct il_twice *t = d->twice;
    char more[64] = "";
    if (!t || t->a < 0)
        return;
    if (t->pairs)
        snprintf(more, sizeof more, " (and %zu more such pair%s)", t->pairs,
                 t->pairs == 1 ? "" : "s");
    il_warn(IL_W_TWICE, files[t->a], files[t->b],
            t->what ? t->what : "are one file, given twice", more);
}

void
il_twice_free(struct il_data *d)
{
    struct il_twice *t = d->twice;
    if (!t)
        return;
    free(t->same);
    free(t->where);
    free(t->what);
    il_strtab_free(&t->starts);
    free(t);
    d->twice = NULL;
}
