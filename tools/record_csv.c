/*
 * record_csv.c: interloper record csv, the records as a table for R and
 * pandas: one row per record, one column per field.
 *
 * A field's column is its JSON path with dots between keys
 * (setup.env_bytes, times.wall_ns, exit.how), a label's is the label's
 * own name (system, setup, bench), and an event's value is events.NAME
 * (events.NAME.enabled_ns and the like beside it).  A label named like a
 * top-level field (pid, host, ...) keeps its path, labels.NAME, so that
 * no two columns share a name.  Arrays are one cell: argv's words joined
 * by spaces, other arrays' items by "; ".  A field a record lacks, and a
 * null (an event not counted), is an empty cell, which R and pandas read
 * as NA.  Columns come in the order in which the records first show
 * them; the sweep's own lines, and lines that are not records, are left
 * out (and counted on stderr).
 *
 * Two passes over the input, the first for the columns: standard input is
 * kept in a file in memory for the second.
 */
#include <err.h>
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "il_csv.h"
#include "il_hset.h"
#include "il_opt.h"
#include "sweep.h"
#include "il_plural.h"

struct table {
    struct il_hset col; /* the columns' names, their ids their order */
    char **cell;        /* one row's cells, by column */
    long records, skipped;
};

static int
top_level(const char *name)
{
    static const char *const top[] = {IL_F_SCHEMA, IL_F_VERSION, IL_F_PID,     IL_F_PPID,
                                      IL_F_ARGV,   IL_F_HOST,    IL_F_CPU,     IL_F_KERNEL,
                                      IL_F_START,  IL_F_BACKEND, IL_F_INHERIT, IL_F_COUNTED_IN,
                                      IL_F_MAXRSS, IL_F_ERRORS,  IL_F_SUPERSEDES_EXEC, NULL};
    for (const char *const *t = top; *t; t++)
        if (!strcmp(name, *t))
            return 1;
    return 0;
}

/* one cell's text: a scalar, or an array's items joined */
static char *
cell_text(const char *path, json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_STRING:
        return il_xstrdup(json_string_value(v));
    case JSON_INTEGER:
        return il_xasprintf("%" JSON_INTEGER_FORMAT, json_integer_value(v));
    case JSON_REAL:
        return il_xasprintf("%.17g", json_real_value(v));
    case JSON_TRUE:
        return il_xstrdup("true");
    case JSON_FALSE:
        return il_xstrdup("false");
    case JSON_NULL:
        return NULL;
    case JSON_ARRAY: {
        struct il_buf b = {0};
        const char *sep = !strcmp(path, IL_F_ARGV) ? " " : "; ";
        size_t i;
        json_t *x;
        il_buf_str(&b, "");
        json_array_foreach(v, i, x)
        {
            char *t = json_is_object(x) || json_is_array(x)
                          ? json_dumps(x, JSON_COMPACT | JSON_PRESERVE_ORDER)
                          : cell_text(path, x);
            il_buf_str(&b, i ? sep : "");
            il_buf_str(&b, t ? t : "");
            free(t);
        }
        return b.p;
    }
    default:
        return NULL;
    }
}

/* Each scalar or array under v, by its column's name: fn(t, name, v). */
static void
walk(struct table *t, const char *path, json_t *v,
     void (*fn)(struct table *, const char *, json_t *))
{
    if (!json_is_object(v)) {
        fn(t, path, v);
        return;
    }
    const char *k;
    json_t *x;
    json_object_foreach(v, k, x)
    {
        char *p;
        if (!*path)
            p = il_xstrdup(k);
        else if (!strcmp(path, IL_F_LABELS))
            p = top_level(k) ? il_xasprintf("%s.%s", path, k) : il_xstrdup(k);
        else if (!strncmp(path, IL_F_EVENTS ".", strlen(IL_F_EVENTS) + 1) &&
                 !strchr(path + 7, '.') && !strcmp(k, IL_F_VALUE))
            p = il_xstrdup(path); /* events.NAME.value: events.NAME */
        else
            p = il_xasprintf("%s.%s", path, k);
        walk(t, p, x, fn);
        free(p);
    }
}

static void
add_column(struct table *t, const char *name, json_t *v)
{
    (void)v;
    il_hset_add(&t->col, name, strlen(name), NULL);
}

static void
set_cell(struct table *t, const char *name, json_t *v)
{
    uint32_t at = il_hset_find(&t->col, name, strlen(name));
    if (at != IL_HSET_NONE) {
        free(t->cell[at]);
        t->cell[at] = cell_text(name, v);
    }
}

/* Every record of f: fn(t, record). */
static void
each_record(struct table *t, FILE *f, const char *name, void (*fn)(struct table *, json_t *))
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    if (fseek(f, 0, SEEK_SET) < 0)
        err(1, "cannot read %s again", name);
    while ((len = getline(&line, &cap, f)) > 0) {
        json_error_t je;
        json_t *r = json_loadb(line, (size_t)len, 0, &je);
        if (r && il_line_kind(r) == IL_LINE_RECORD)
            fn(t, r);
        else
            t->skipped++;
        json_decref(r);
    }
    if (ferror(f))
        err(1, "cannot read %s", name);
    free(line);
}

static void
columns_of(struct table *t, json_t *r)
{
    walk(t, "", r, add_column);
}

static void
row_of(struct table *t, json_t *r)
{
    walk(t, "", r, set_cell);
    for (size_t i = 0; i < t->col.n; i++) {
        fputs(i ? "," : "", stdout);
        if (t->cell[i])
            il_csv_field(stdout, t->cell[i]);
        free(t->cell[i]);
        t->cell[i] = NULL;
    }
    fputc('\n', stdout);
    t->records++;
}

static FILE *
open_input(const char *path)
{
    if (strcmp(path, "-")) {
        FILE *f = fopen(path, "re");
        if (!f)
            err(1, "cannot open %s", path);
        return f;
    }
    /* standard input, kept for the second pass */
    int fd = memfd_create("stdin", MFD_CLOEXEC);
    FILE *f = fd >= 0 ? fdopen(fd, "w+") : tmpfile();
    if (!f)
        err(1, "cannot keep standard input");
    char b[65536];
    size_t n;
    while ((n = fread(b, 1, sizeof b, stdin)) > 0)
        if (fwrite(b, 1, n, f) != n)
            err(1, "cannot keep standard input");
    return f;
}

static const struct il_cmd csv_cmd = {
    .name = "interloper record csv",
    .synopsis = "[FILE...]",
    .about = "The records of the FILEs (standard input when none, or -) as a table on\n"
             "standard output, for R and pandas: one row per record, one column per\n"
             "field (setup.env_bytes, times.wall_ns, events.NAME) and per label.  The\n"
             "sweep's own lines are left out and counted on standard error.",
    .man = "interloper-record(1)",
    .permute = 1,
};

int
il_record_csv(int argc, char **argv)
{
    struct table t = {0};
    struct il_optp p;
    il_opt_init(&p, &csv_cmd, argc, argv);
    while (il_opt_next(&p))
        ;
    int nin = argc > p.i ? argc - p.i : 1;
    char *const dash[] = {"-"};
    char *const *names = argc > p.i ? argv + p.i : dash;
    FILE **in = il_xcalloc((size_t)nin, sizeof *in);
    for (int i = 0; i < nin; i++) {
        in[i] = open_input(names[i]);
        each_record(&t, in[i], names[i], columns_of);
    }
    for (size_t i = 0; i < t.col.n; i++) {
        fputs(i ? "," : "", stdout);
        il_csv_field(stdout, t.col.key[i]);
    }
    fputc('\n', stdout);
    t.cell = il_xcalloc(t.col.n ? t.col.n : 1, sizeof *t.cell);
    t.skipped = 0;
    for (int i = 0; i < nin; i++) {
        each_record(&t, in[i], names[i], row_of);
        fclose(in[i]);
    }
    if (fflush(stdout) != 0 || ferror(stdout))
        err(1, "cannot write");
    if (t.skipped)
        fprintf(stderr,
                "interloper record csv: %ld record%s; %ld line%s that %s not records (the "
                "sweep's own, or not interloper/1) left out\n",
                t.records, il_s(t.records), t.skipped, il_s(t.skipped),
                il_pl(t.skipped, "is", "are"));
    free(in);
    free(t.cell);
    il_hset_free(&t.col);
    return 0;
}
