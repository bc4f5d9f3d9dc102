/*
 * results.c: reading a results file, for resume (interloper sweep) and
 * merge (interloper record merge).  A results file holds records (schema
 * interloper/1), each labelled with its run's id and plan, and the sweep's
 * own lines (schema interloper-sweep/1).  Every line is whole: the sweep
 * appends each run's records with one write(2).  Only a crash mid-write
 * leaves a torn last line, without its newline; it is set aside, never
 * taken for a record.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "il_tools.h"
#include "sweep.h"

/* ------------------------------------------------------------ a set of ids */

long *
il_idset_get(struct il_idset *s, const char *id)
{
    uint32_t i = il_hset_find(&s->set, id, strlen(id));
    return i == IL_HSET_NONE ? NULL : &s->val[i];
}

long *
il_idset_add(struct il_idset *s, const char *id, int *added)
{
    uint32_t i = il_hset_add(&s->set, id, strlen(id), added);
    if (i == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 1024;
        s->val = il_xrealloc(s->val, s->cap * sizeof *s->val);
    }
    if (*added)
        s->val[i] = 0;
    return &s->val[i];
}

void
il_idset_free(struct il_idset *s)
{
    il_hset_free(&s->set);
    free(s->val);
    memset(s, 0, sizeof *s);
}

/* ------------------------------------------------------------ scanning */

enum il_line
il_line_kind(json_t *j)
{
    const char *schema = json_string_value(json_object_get(j, IL_F_SCHEMA));
    if (schema && !strcmp(schema, IL_SWEEP_SCHEMA))
        return IL_LINE_SWEEP;
    if (schema && !strcmp(schema, IL_SCHEMA))
        return IL_LINE_RECORD;
    return IL_LINE_OTHER;
}

const char *
il_record_label(json_t *j, const char *key)
{
    return json_string_value(json_object_get(json_object_get(j, IL_F_LABELS), key));
}

/*
 * Call fn for every line of path: its number, its JSON (NULL when it is not
 * JSON) and its bytes, newline included.  A last line without a newline is
 * torn: with fix, its bytes are appended to PATH.torn and the file is cut
 * back to the last whole line; without, it is skipped.  Either way it is
 * said in one line on stderr.  Returns 0, or -1 if the file cannot be read
 * (errno), or what fn returned when not 0.
 */
int
il_results_scan(const char *me, const char *path, int fix,
                int (*fn)(void *ctx, long lineno, json_t *j, const char *raw, size_t n), void *ctx)
{
    int fd = open(path, fix ? O_RDWR | O_CLOEXEC : O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat st;
    if (fstat(fd, &st) < 0 || S_ISDIR(st.st_mode)) {
        int e = fstat(fd, &st) < 0 ? errno : EISDIR;
        close(fd);
        errno = e;
        return -1;
    }
    FILE *f = fdopen(fd, fix ? "r+" : "r");
    if (!f) {
        close(fd);
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    long lineno = 0;
    off_t off = 0;
    int rc = 0;
    while (!rc && (n = getline(&line, &cap, f)) > 0) {
        lineno++;
        if (line[n - 1] != '\n') {
            /* torn: a crash mid-write; but a file whose only line is not
             * one of ours is not a results file, and is not ours to cut */
            if (lineno == 1 && strncmp(line, "{\"schema\":\"interloper", 21))
                errx(1,
                     "%s is not a results file (its only line, without a newline, is not a "
                     "line of interloper); give another --output",
                     path);
            if (fix) {
                char *side = il_xasprintf("%s.torn", path);
                int sfd = open(side, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
                if (sfd < 0 || il_write_full(sfd, line, (size_t)n) < 0 || close(sfd) < 0)
                    err(1, "%s: cannot set its torn last line aside in %s", path, side);
                if (ftruncate(fileno(f), off) < 0)
                    err(1, "%s: cannot cut its torn last line", path);
                fprintf(stderr,
                        "%s: %s:%ld: the last line is torn (%zd bytes without a newline: a "
                        "crash mid-write?); set aside in %s\n",
                        me, path, lineno, n, side);
                free(side);
            } else {
                fprintf(stderr,
                        "%s: %s:%ld: the last line is torn (%zd bytes without a newline); "
                        "left out\n",
                        me, path, lineno, n);
            }
            break;
        }
        off += n;
        if (n == 1)
            continue; /* blank */
        json_error_t je;
        json_t *j = json_loadb(line, (size_t)n, 0, &je);
        rc = fn(ctx, lineno, j, line, (size_t)n);
        json_decref(j);
    }
    free(line);
    fclose(f);
    return rc;
}

/* ------------------------------------------------------------ launches */

enum il_launch_seen
il_launch_record(struct il_launches *l, const char *run, const char *launch, long here)
{
    int added;
    long *v = il_idset_add(&l->runs, run, &added);
    if (added) {
        if (l->n == l->cap) {
            l->cap = l->cap ? 2 * l->cap : 256;
            l->v = il_xrealloc(l->v, l->cap * sizeof *l->v);
        }
        *v = (long)l->n;
        l->v[l->n++] = (struct il_launch_run){launch ? il_xstrdup(launch) : NULL, here, 0};
        return IL_LAUNCH_NEW;
    }
    struct il_launch_run *r = &l->v[*v];
    int same = launch ? r->launch && !strcmp(r->launch, launch) : !r->launch && r->last == here - 1;
    if (same) {
        r->last = here;
        return IL_LAUNCH_SAME;
    }
    if (!r->failed)
        return IL_LAUNCH_DUP;
    free(r->launch);
    *r = (struct il_launch_run){launch ? il_xstrdup(launch) : NULL, here, 0};
    return IL_LAUNCH_RETRY;
}

void
il_launch_failed(struct il_launches *l, const char *run, const char *launch)
{
    long *v = run ? il_idset_get(&l->runs, run) : NULL;
    if (!v)
        return;
    struct il_launch_run *r = &l->v[*v];
    if (!r->launch || (launch && !strcmp(r->launch, launch)))
        r->failed = 1;
}

int
il_launch_state(struct il_launches *l, const char *run)
{
    long *v = il_idset_get(&l->runs, run);
    return !v ? -1 : l->v[*v].failed ? 0 : 1;
}
