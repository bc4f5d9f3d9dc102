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

#include "il_lines.h"
#include "il_tools.h"
#include "sweep.h"
#include "il_plural.h"

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

/* A torn last line (n bytes at s, no newline): with fix, set aside in
 * PATH.torn and cut from the file (fd) back to off; said on stderr. */
static void
torn(const char *me, const char *path, int fix, int fd, off_t off, long lineno, const char *s,
     size_t n)
{
    /* a crash mid-write; but a file whose only line is not one of ours is
     * not a results file, and is not ours to cut */
    if (lineno == 1 && (n < 21 || memcmp(s, "{\"schema\":\"interloper", 21)))
        errx(1,
             "%s is not a results file (its only line, without a newline, is not a "
             "line of interloper); give another --output",
             path);
    if (fix) {
        char *side = il_xasprintf("%s.torn", path);
        int sfd = open(side, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
        if (sfd < 0 || il_write_full(sfd, s, n) < 0 || close(sfd) < 0)
            err(1, "%s: cannot set its torn last line aside in %s", path, side);
        if (ftruncate(fd, off) < 0)
            err(1, "%s: cannot cut its torn last line", path);
        fprintf(stderr,
                "%s: %s:%ld: the last line is torn (%zu bytes without a newline: a "
                "crash mid-write?); set aside in %s\n",
                me, path, lineno, n, side);
        free(side);
    } else {
        fprintf(stderr,
                "%s: %s:%ld: the last line is torn (%zu bytes without a newline); left out\n", me,
                path, lineno, n);
    }
}

/* One whole line (n bytes, newline included) to fn; blank lines are not. */
static int
whole(long lineno, const char *s, size_t n,
      int (*fn)(void *ctx, long lineno, json_t *j, const char *raw, size_t n), void *ctx)
{
    if (n == 1)
        return 0; /* blank */
    json_error_t je;
    json_t *j = json_loadb(s, n, 0, &je);
    int rc = fn(ctx, lineno, j, s, n);
    json_decref(j);
    return rc;
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
            torn(me, path, fix, fileno(f), off, lineno, line, (size_t)n);
            break;
        }
        off += n;
        rc = whole(lineno, line, (size_t)n, fn, ctx);
    }
    free(line);
    fclose(f);
    return rc;
}

int
il_results_read(const char *me, const char *path,
                int (*fn)(void *ctx, long lineno, json_t *j, const char *raw, size_t n), void *ctx)
{
    struct il_lines l;
    struct stat st;
    if (il_lines_open(&l, path) < 0)
        return -1;
    if (fstat(l.fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        il_lines_close(&l);
        errno = EISDIR;
        return -1;
    }
    const char *s;
    size_t n;
    long lineno = 0;
    int rc = 0, r;
    while (!rc && (r = il_lines_next(&l, &s, &n)) > 0) {
        lineno++;
        if (!l.newline) {
            torn(me, path, 0, -1, 0, lineno, s, n);
            break;
        }
        rc = whole(lineno, s, n + 1, fn, ctx); /* the newline follows the line */
    }
    if (r < 0)
        errx(1, "%s: %s", path, l.err);
    il_lines_close(&l);
    return rc;
}

/* ------------------------------------------------------------ launches */

/* the kept launch's records: their lines' hashes, so that a copy of one
 * is a duplicate, not a record more of the launch */
static int
has_hash(const struct il_launch_run *r, uint64_t h)
{
    if (r->nhash && r->h0 == h)
        return 1;
    for (uint32_t i = 1; i < r->nhash; i++)
        if (r->more[i - 1] == h)
            return 1;
    return 0;
}

static void
add_hash(struct il_launch_run *r, uint64_t h)
{
    if (!r->nhash)
        r->h0 = h;
    else {
        r->more = il_xrealloc(r->more, r->nhash * sizeof *r->more);
        r->more[r->nhash - 1] = h;
    }
    r->nhash++;
}

static void
keep(struct il_launch_run *r, const char *launch, long here, uint64_t h)
{
    free(r->launch);
    free(r->more);
    int planned = r->planned;
    *r = (struct il_launch_run){.launch = launch ? il_xstrdup(launch) : NULL, .last = here};
    r->planned = planned;
    add_hash(r, h);
}

enum il_launch_seen
il_launch_record(struct il_launches *l, const char *run, const char *launch, long here, uint64_t h)
{
    int added;
    long *v = il_idset_add(&l->runs, run, &added);
    if (added) {
        if (l->n == l->cap) {
            l->cap = l->cap ? 2 * l->cap : 256;
            l->v = il_xrealloc(l->v, l->cap * sizeof *l->v);
        }
        *v = (long)l->n;
        memset(&l->v[l->n], 0, sizeof *l->v);
        keep(&l->v[l->n++], launch, here, h);
        return IL_LAUNCH_NEW;
    }
    struct il_launch_run *r = &l->v[*v];
    int same = launch ? r->launch && !strcmp(r->launch, launch) : !r->launch && r->last == here - 1;
    if (same && !has_hash(r, h)) {
        r->last = here;
        add_hash(r, h);
        return IL_LAUNCH_SAME;
    }
    if (same || !r->failed)
        return IL_LAUNCH_DUP;
    keep(r, launch, here, h);
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

int
il_launch_plan(struct il_launches *l, const char *run)
{
    long *v = il_idset_get(&l->runs, run);
    if (!v)
        return -1;
    l->v[*v].planned = 1;
    return l->v[*v].failed ? 0 : 1;
}

int
il_log_end(const char *log, char *out, size_t n)
{
    FILE *f = fopen(log, "re");
    out[0] = 0;
    if (!f)
        return -1;
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        /* a progress line redrawn in place: its last state */
        char *cr = strrchr(line, '\r');
        const char *l = cr ? cr + 1 : line;
        if (*l)
            snprintf(out, n, "%.500s", l);
    }
    fclose(f);
    return 0;
}

/* ------------------------------------------------------------ failed runs */

/* What il_results_failures reads: each run's system, whether it is a
 * warm-up, and its last launch's cause of failure (0: none), packed in
 * the id set's value: cause << 16 | warm << 15 | system. */
struct tally {
    const struct il_sweep *s;
    const char *plan;
    struct il_idset runs;
    struct il_failures *f;
};

static long *
tally_run(struct tally *t, const char *run)
{
    const char *slash = run ? strchr(run, '/') : NULL, *last = run ? strrchr(run, '/') : NULL;
    if (!slash)
        return NULL;
    size_t k = 0;
    while (k < t->s->nsys && (strlen(t->s->sys[k].name) != (size_t)(slash - run) ||
                              strncmp(t->s->sys[k].name, run, (size_t)(slash - run))))
        k++;
    if (k == t->s->nsys)
        return NULL;
    int added;
    long *v = il_idset_add(&t->runs, run, &added);
    *v = (long)k | (last[1] == 'w' ? 1L << 15 : 0);
    return v;
}

/* the index + 1 of a cause among system k's, added if new */
static long
tally_cause(struct tally *t, size_t k, const char *name)
{
    struct il_failures *f = &t->f[k];
    for (size_t i = 0; i < f->ncause; i++)
        if (!strcmp(f->cause[i].name, name))
            return (long)i + 1;
    if (f->ncause == IL_FAIL_CAUSES) {
        snprintf(f->cause[f->ncause].name, sizeof f->cause[0].name, "other causes");
        return (long)++f->ncause;
    }
    snprintf(f->cause[f->ncause].name, sizeof f->cause[0].name, "%.47s", name);
    return (long)++f->ncause;
}

static int
tally_line(void *ctx, long lineno, json_t *j, const char *raw, size_t n)
{
    struct tally *t = ctx;
    (void)lineno, (void)raw, (void)n;
    enum il_line kind = il_line_kind(j);
    if (kind == IL_LINE_RECORD) {
        /* a launch's records: the run is there (its cause cleared), unless
         * a failed line follows them */
        const char *plan = il_record_label(j, IL_L_PLAN);
        if (plan && !strcmp(plan, t->plan))
            tally_run(t, il_record_label(j, IL_L_RUN));
        return 0;
    }
    const char *k = json_string_value(json_object_get(j, IL_M_KIND));
    const char *plan = json_string_value(json_object_get(j, IL_M_PLAN));
    if (kind != IL_LINE_SWEEP || !k || strcmp(k, IL_M_KIND_FAILED) || !plan ||
        strcmp(plan, t->plan))
        return 0;
    long *v = tally_run(t, json_string_value(json_object_get(j, IL_M_RUN)));
    if (!v)
        return 0;
    json_t *sig = json_object_get(j, IL_M_SIGNAL), *st = json_object_get(j, IL_M_STATUS);
    const char *why = json_string_value(json_object_get(j, IL_M_WHY));
    char name[64];
    if (json_is_number(json_object_get(j, IL_M_TIMEOUT)))
        snprintf(name, sizeof name, "--timeout");
    else if (json_is_integer(sig))
        snprintf(name, sizeof name, "SIG%s",
                 sigabbrev_np((int)json_integer_value(sig))
                     ? sigabbrev_np((int)json_integer_value(sig))
                     : "?");
    else if (json_is_integer(st) && json_integer_value(st))
        snprintf(name, sizeof name, "status %lld", (long long)json_integer_value(st));
    else
        snprintf(name, sizeof name, "%.40s", why ? why : "failed");
    *v |= tally_cause(t, (size_t)(*v & 0x7fff), name) << 16;
    return 0;
}

struct il_failures *
il_results_failures(const struct il_sweep *s, const char *plan)
{
    struct tally t = {.s = s, .plan = plan};
    t.f = il_xcalloc(s->nsys, sizeof *t.f);
    if (il_results_scan(s->me, s->output, 0, tally_line, &t) < 0) {
        il_idset_free(&t.runs);
        free(t.f);
        return NULL;
    }
    size_t any = 0;
    for (size_t k = 0; k < s->nsys; k++)
        for (size_t c = 0; c < t.f[k].ncause; c++)
            t.f[k].cause[c].n = 0; /* counted below, by each run's last launch */
    for (size_t i = 0; i < t.runs.set.n; i++) {
        long v = t.runs.val[i], c = v >> 16;
        struct il_failures *f = &t.f[v & 0x7fff];
        int warm = (v >> 15) & 1;
        f->runs += !warm;
        if (!c)
            continue;
        f->cause[c - 1].n++;
        f->failed += !warm;
        f->warm_failed += warm;
        any++;
    }
    il_idset_free(&t.runs);
    if (!any) {
        free(t.f);
        return NULL;
    }
    return t.f;
}

/* the causes, "SIGSEGV" or "5 SIGSEGV, 1 status 3" */
static void
cause_words(struct il_buf *b, const struct il_failures *f)
{
    size_t causes = 0;
    for (size_t c = 0; c < f->ncause; c++)
        causes += f->cause[c].n > 0;
    const char *sep = "";
    for (size_t c = 0; c < f->ncause; c++) {
        if (!f->cause[c].n)
            continue;
        if (causes > 1)
            il_buf_printf(b, "%s%zu %s", sep, f->cause[c].n, f->cause[c].name);
        else
            il_buf_str(b, f->cause[c].name);
        sep = ", ";
    }
}

void
il_failures_words(struct il_buf *b, const char *sys, const struct il_failures *f)
{
    size_t w = f->warm_failed;
    if (!f->failed && !w)
        return;
    if (sys)
        il_buf_printf(b, "%s: ", sys);
    if (!f->failed)
        il_buf_printf(b, "%zu warm-up run%s failed (", w, il_s(w));
    else if (f->failed == f->runs && f->runs == 1)
        il_buf_str(b, "its one run failed (");
    else if (f->failed == f->runs)
        il_buf_printf(b, "every one of its %zu runs failed (", f->runs);
    else
        il_buf_printf(b, "%zu of %zu runs failed (", f->failed, f->runs);
    cause_words(b, f);
    il_buf_str(b, f->failed && f->failed < f->runs ? "), left out" : ")");
    if (f->failed && w)
        il_buf_printf(b, "; and %zu warm-up run%s", w, il_s(w));
}

/* The status every failed run of f ended with, or -1 (another cause, or
 * several). */
static int
one_status(const struct il_failures *f)
{
    int st = -1;
    size_t causes = 0;
    for (size_t c = 0; c < f->ncause; c++)
        if (f->cause[c].n) {
            causes++;
            if (sscanf(f->cause[c].name, "status %d", &st) != 1)
                st = -1;
        }
    return causes == 1 ? st : -1;
}

/*
 * Is there a system every measured run of which failed?  Then the
 * report's numbers would be of failed runs (its own rule leaves out a
 * non-zero status only where other runs of the group exit 0: outside13
 * F9), so there are none to give: its name, and why in words (with the
 * option for a status that is the program's normal end); NULL if none.
 */
const char *
il_failures_all(const struct il_sweep *s, const struct il_failures *f, char *why, size_t n)
{
    for (size_t k = 0; f && k < s->nsys; k++) {
        if (!f[k].runs || f[k].failed < f[k].runs)
            continue;
        struct il_buf b = {0};
        cause_words(&b, &f[k]);
        int st = one_status(&f[k]);
        /* --expect-status is every system's: advised only where every
         * system's runs all ended with that status (review13e LOW) */
        for (size_t j = 0; st > 0 && j < s->nsys; j++)
            if (f[j].runs && (f[j].failed < f[j].runs || one_status(&f[j]) != st))
                st = -1;
        snprintf(why, n,
                 "every measured run of %s failed (%s), so there are no numbers of its runs to "
                 "give%s%.0d%s",
                 s->sys[k].name, b.p ? b.p : "?",
                 st > 0 ? "; if that status is its normal end, rerun with --expect-status " : "",
                 st > 0 ? st : 0, st > 0 ? " and another --output (a plan of its own)" : "");
        il_buf_free(&b);
        return s->sys[k].name;
    }
    return NULL;
}
