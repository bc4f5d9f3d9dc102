/*
 * interloper-record: small operations on records, for drivers.
 *
 *   label [-o OUT] K=V...   add labels to every record read from stdin;
 *                           write them to stdout, or append them to OUT
 *                           one write(2) per record (O_APPEND), so that
 *                           concurrent drivers never interleave
 *   summary [FILE]          a perf-stat-like summary of each record
 *   validate [FILE...]      check every line against schema interloper/1
 *   merge -o OUT RESULTS... join a plan's shards (merge.c)
 *
 * Labels are added after the run, never passed through the measured
 * program's environment (DESIGN.md, "Labels").
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "il_summary.h"
#include "interloper.h"
#include "sweep.h"

static const char *const ops[] = {"label", "summary", "validate", "merge", "csv", NULL};

static const struct il_cmd record_cmd = {
    .name = "interloper record",
    .synopsis = "label [-o OUT] KEY=VALUE... < RECORDS\n"
                "summary [FILE]\n"
                "validate [FILE...]\n"
                "merge -o OUT RESULTS...\n"
                "csv [FILE...]",
    .about = "label     add labels to each record on stdin; write to stdout, or append\n"
             "          to OUT with one write per record\n"
             "summary   print a perf-stat-like summary of each record\n"
             "validate  check each line against schema interloper/1 (or, for the\n"
             "          sweep's own lines, interloper-sweep/1); name every bad line\n"
             "          as FILE:LINE, and exit 1 if there was one\n"
             "merge     join the results files of one plan's shards, checked against\n"
             "          the plan\n"
             "csv       the records as a table on stdout: one row per record, labels\n"
             "          and fields (setup.env_bytes, events.NAME, ...) as columns\n"
             "\n"
             "Each has --help.  The summary goes to stderr, as perf stat's does.",
    .man = "interloper-record(1)",
    .subs = ops,
};

enum { O_OUTPUT = 1 };

static const struct il_opt label_opts[] = {
    {"output", 'o', IL_OPT_VALUE, "OUT",
     "append the records to OUT, one write(2) each, instead\n"
     "of writing them to stdout",
     O_OUTPUT},
    {0},
};

static const struct il_cmd label_cmd = {
    .name = "interloper record label",
    .synopsis = "[-o OUT] KEY=VALUE... < RECORDS",
    .about = "Add the labels KEY=VALUE to every record read from stdin and write them to\n"
             "stdout, or append them to OUT one write per record, so that concurrent\n"
             "drivers never interleave.",
    .man = "interloper-record(1)",
    .opts = label_opts,
};

static const struct il_cmd summary_cmd = {
    .name = "interloper record summary",
    .synopsis = "[FILE]",
    .about = "A perf-stat-like summary of each record of FILE (default stdin), on\n"
             "stderr, as the library prints it at the end of interloper run.",
    .man = "interloper-record(1)",
};

static const struct il_cmd validate_cmd = {
    .name = "interloper record validate",
    .synopsis = "[FILE...]",
    .about = "Check each line of the FILEs (default stdin) against schema interloper/1\n"
             "(or, for the sweep's own lines, interloper-sweep/1); name every bad line as\n"
             "FILE:LINE, and exit 1 if there was one.",
    .man = "interloper-record(1)",
};

static int
cmd_label(int argc, char **argv)
{
    const char *out = NULL;
    struct il_optp p;
    il_opt_init(&p, &label_cmd, argc, argv);
    while (il_opt_next(&p))
        out = p.val;
    int i = p.i;
    json_t *labels = json_object();
    for (; i < argc; i++) {
        char *eq = strchr(argv[i], '=');
        if (!eq)
            errx(1, "'%s' is not KEY=VALUE", argv[i]);
        *eq = 0;
        if (!il_label_key_ok(argv[i]))
            errx(1, "key '%s' must be letters, digits, '_', '-' or '.'", argv[i]);
        json_object_set_new(labels, argv[i], json_string(eq + 1));
        *eq = '=';
    }
    int fd = 1;
    if (out && (fd = open(out, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666)) < 0)
        err(1, "cannot open %s", out);
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    long lineno = 0;
    int bad = 0;
    while ((len = getline(&line, &cap, stdin)) > 0) {
        lineno++;
        json_error_t je;
        json_t *r = json_loadb(line, (size_t)len, 0, &je);
        if (!json_is_object(r)) {
            warnx("stdin:%ld: not a JSON object (%s); skipped", lineno, je.text);
            bad = 1;
            json_decref(r);
            continue;
        }
        json_t *l = json_object_get(r, IL_F_LABELS);
        if (!json_is_object(l)) {
            l = json_object();
            json_object_set_new(r, IL_F_LABELS, l);
        }
        json_object_update(l, labels);
        char *s = json_dumps(r, JSON_COMPACT | JSON_PRESERVE_ORDER);
        size_t n = strlen(s);
        s[n] = '\n'; /* in place of the terminator: one line, one write */
        if (write(fd, s, n + 1) != (ssize_t)(n + 1))
            err(1, "write");
        free(s);
        json_decref(r);
    }
    free(line);
    json_decref(labels);
    return bad;
}

static const char *
str_at(json_t *o, const char *k)
{
    return json_string_value(json_object_get(o, k));
}

static uint64_t
u64_at(json_t *o, const char *k)
{
    json_int_t v = json_integer_value(json_object_get(o, k));
    return v > 0 ? (uint64_t)v : 0;
}

/* One record's summary, by the library's own formatter (il_summary.h). */
static void
summary_one(json_t *r)
{
    static struct il_summary_event ev[IL_MAX_EVENTS];
    static const char *argv[4096], *errors[64];
    static char text[1 << 16];
    struct il_summary s;
    memset(&s, 0, sizeof s);
    json_t *a = json_object_get(r, IL_F_ARGV), *ex = json_object_get(r, IL_F_EXIT);
    for (size_t i = 0; i < json_array_size(a) && i < 4096; i++)
        argv[s.argc++] = json_string_value(json_array_get(a, i));
    s.argv = argv;
    s.pid = json_integer_value(json_object_get(r, IL_F_PID));
    s.how = str_at(ex, IL_F_HOW);
    s.has_status = json_is_integer(json_object_get(ex, IL_F_STATUS));
    s.status = json_integer_value(json_object_get(ex, IL_F_STATUS));
    s.signal = json_integer_value(json_object_get(ex, IL_F_SIGNAL));
    s.backend = str_at(r, IL_F_BACKEND);
    const char *k;
    json_t *v, *floor = json_object_get(r, IL_F_FLOOR);
    json_object_foreach(json_object_get(r, IL_F_EVENTS), k, v)
    {
        if (s.nev == IL_MAX_EVENTS)
            break;
        struct il_summary_event *e = &ev[s.nev++];
        memset(e, 0, sizeof *e);
        e->name = k;
        e->counted = json_is_integer(json_object_get(v, IL_F_VALUE));
        e->value = u64_at(v, IL_F_VALUE);
        e->has_floor = json_is_integer(json_object_get(floor, k));
        e->floor = u64_at(floor, k);
        e->has_times = json_is_integer(json_object_get(v, IL_F_ENABLED));
        e->enabled = u64_at(v, IL_F_ENABLED);
        e->running = u64_at(v, IL_F_RUNNING);
        e->error = str_at(v, IL_F_ERROR);
    }
    s.ev = ev;
    json_t *t = json_object_get(r, IL_F_TIMES), *c = json_object_get(r, IL_F_CTX);
    s.has_times = json_is_object(t);
    s.wall_ns = u64_at(t, IL_F_WALL);
    s.user_ns = u64_at(t, IL_F_USER);
    s.sys_ns = u64_at(t, IL_F_SYS);
    s.has_ctx = json_is_object(c);
    s.ctx_voluntary = u64_at(c, IL_F_VOLUNTARY);
    s.ctx_involuntary = u64_at(c, IL_F_INVOLUNTARY);
    s.maxrss_kib = json_is_integer(json_object_get(r, IL_F_MAXRSS))
                       ? json_integer_value(json_object_get(r, IL_F_MAXRSS))
                       : -1;
    json_t *st = json_object_get(r, IL_F_SETUP);
    s.has_setup = json_is_object(st);
    s.env_bytes = u64_at(st, IL_F_ENV_BYTES);
    s.env_vars = u64_at(st, IL_F_ENV_VARS);
    s.argv_bytes = u64_at(st, IL_F_ARGV_BYTES);
    s.aslr = json_is_true(json_object_get(st, IL_F_ASLR));
    s.cpus = str_at(st, IL_F_CPUS);
    s.main_sp = str_at(st, IL_F_MAIN_SP);
    s.main_entry = str_at(st, IL_F_MAIN_ENTRY);
    s.stack_offset = u64_at(st, IL_F_STACK_OFFSET);
    s.stack_pinned = json_is_true(json_object_get(st, IL_F_STACK_PINNED));
    s.heap_start = str_at(st, IL_F_HEAP_START);
    s.heap_offset = u64_at(st, IL_F_HEAP_OFFSET);
    json_t *errs = json_object_get(r, IL_F_ERRORS);
    for (size_t i = 0; i < json_array_size(errs) && i < 64; i++)
        errors[s.nerrors++] = json_string_value(json_array_get(errs, i));
    s.errors = errors;
    size_t n = il_summary_format(&s, text, sizeof text);
    fwrite(text, 1, n, stderr);
    fputc('\n', stderr); /* as the library ends it (il_summary_print) */
}

/* The contract: the fields every record has, and their types. */
static const char *
check(json_t *r)
{
    static const struct {
        const char *key;
        json_type type;
    } req[] = {
        {IL_F_SCHEMA, JSON_STRING}, {IL_F_VERSION, JSON_STRING}, {IL_F_LABELS, JSON_OBJECT},
        {IL_F_PID, JSON_INTEGER},   {IL_F_PPID, JSON_INTEGER},   {IL_F_ARGV, JSON_ARRAY},
        {IL_F_EXIT, JSON_OBJECT},   {IL_F_BACKEND, JSON_STRING}, {IL_F_EVENTS, JSON_OBJECT},
    };
    if (!json_is_object(r))
        return "not a JSON object";
    for (size_t i = 0; i < sizeof req / sizeof req[0]; i++) {
        json_t *v = json_object_get(r, req[i].key);
        static char why[96];
        static const char *const tn[] = {"an object", "an array", "a string", "an integer",
                                         "a number",  "true",     "false",    "null"};
        if (!v || json_typeof(v) != req[i].type) {
            snprintf(why, sizeof why, "%s %s; expected %s", req[i].key,
                     v ? "has the wrong type" : "is missing", tn[req[i].type]);
            return why;
        }
    }
    if (strcmp(json_string_value(json_object_get(r, IL_F_SCHEMA)), IL_SCHEMA))
        return "schema is not interloper/1";
    const char *how = json_string_value(json_object_get(json_object_get(r, IL_F_EXIT), IL_F_HOW));
    if (!how || !strstr(" " IL_HOW_NAME_RETURN " " IL_HOW_NAME_EXIT " " IL_HOW_NAME__EXIT
                        " " IL_HOW_NAME_EXEC " " IL_HOW_NAME_SIGNAL " ",
                        how))
        return "exit.how";
    const char *k;
    json_t *v;
    json_object_foreach(json_object_get(r, IL_F_EVENTS), k, v)
    {
        json_t *val = json_object_get(v, IL_F_VALUE);
        if (!json_is_integer(val) &&
            !(json_is_null(val) && json_is_string(json_object_get(v, IL_F_ERROR))))
            return "events.*.value (an integer, or null with an error)";
    }
    if (json_object_get(r, IL_F_ERRORS) && !json_is_array(json_object_get(r, IL_F_ERRORS)))
        return IL_F_ERRORS;
    json_t *sx = json_object_get(r, IL_F_SUPERSEDES_EXEC);
    if (sx && !json_is_true(sx))
        return IL_F_SUPERSEDES_EXEC " (true where present)";
    json_t *bid = json_object_get(r, IL_F_BUILD_ID);
    if (bid && !json_is_null(bid)) {
        const char *h = json_string_value(bid);
        size_t n = h ? strspn(h, "0123456789abcdef") : 0;
        if (!h || !n || h[n] || n % 2 || n > 128)
            return IL_F_BUILD_ID " (lowercase hex, 2 to 128 digits, or null)";
    }
    json_t *fs = json_object_get(r, IL_F_FLOOR_SOURCE);
    if (fs && (!json_is_string(fs) || (strcmp(json_string_value(fs), IL_FLOOR_SOURCE_PROCESS) &&
                                       strcmp(json_string_value(fs), IL_FLOOR_SOURCE_DRIVER))))
        return IL_F_FLOOR_SOURCE " (\"" IL_FLOOR_SOURCE_PROCESS "\" or \"" IL_FLOOR_SOURCE_DRIVER
                                 "\")";
    /* records that measured something carry times, setup and floor */
    if (json_object_size(json_object_get(r, IL_F_EVENTS)) || json_object_get(r, IL_F_TIMES)) {
        static const char *const more[] = {IL_F_TIMES, IL_F_SETUP, IL_F_FLOOR};
        for (size_t i = 0; i < 3; i++)
            if (!json_is_object(json_object_get(r, more[i])))
                return more[i];
    }
    return NULL;
}

/* A line of interloper sweep's, beside the records of a results file
 * (interloper-sweep(1)): a kind and the plan it belongs to. */
static const char *
check_sweep(json_t *r)
{
    if (!json_is_string(json_object_get(r, IL_M_KIND)))
        return "kind is missing or not a string";
    if (!json_is_string(json_object_get(r, IL_M_PLAN)))
        return "plan is missing or not a string";
    return NULL;
}

static int
each_line(const char *path, int summarise)
{
    FILE *f = path ? fopen(path, "r") : stdin;
    if (!f)
        err(1, "cannot open %s", path);
    char *line = NULL;
    size_t cap = 0;
    long n = 0;
    int bad = 0;
    while (getline(&line, &cap, f) > 0) {
        n++;
        json_error_t je;
        json_t *r = json_loads(line, 0, &je);
        int sweep = il_line_kind(r) == IL_LINE_SWEEP;
        const char *why = !r ? je.text : sweep ? check_sweep(r) : check(r);
        if (why) {
            warnx("%s:%ld: not an %s %s: %s", path ? path : "stdin", n,
                  sweep ? IL_SWEEP_SCHEMA : IL_SCHEMA, sweep ? "line" : "record", why);
            bad = 1;
        } else if (summarise && !sweep) { /* the sweep's own lines: nothing to sum up */
            summary_one(r);
        }
        json_decref(r);
    }
    free(line);
    if (path)
        fclose(f);
    return bad;
}

/* summary [FILE], validate [FILE...] */
static int
cmd_lines(const struct il_cmd *c, int argc, char **argv)
{
    struct il_optp p;
    il_opt_init(&p, c, argc, argv);
    while (il_opt_next(&p))
        ;
    if (c == &summary_cmd) {
        if (argc - p.i > 1)
            il_opt_usage(c, "expected at most one FILE");
        return each_line(p.i < argc ? argv[p.i] : NULL, 1);
    }
    if (p.i == argc)
        return each_line(NULL, 0);
    int bad = 0;
    for (int i = p.i; i < argc; i++)
        bad |= each_line(argv[i], 0);
    return bad;
}

int
main(int argc, char **argv)
{
    struct il_optp p;
    il_opt_init(&p, &record_cmd, argc, argv);
    while (il_opt_next(&p))
        ;
    if (p.i >= argc)
        il_opt_usage(&record_cmd, "expected an operation, label, summary, validate, merge or csv");
    const char *op = argv[p.i];
    argc -= p.i;
    argv += p.i;
    if (!strcmp(op, "label"))
        return cmd_label(argc, argv);
    if (!strcmp(op, "merge"))
        return il_record_merge(argc, argv);
    if (!strcmp(op, "csv"))
        return il_record_csv(argc, argv);
    if (!strcmp(op, "summary"))
        return cmd_lines(&summary_cmd, argc, argv);
    if (!strcmp(op, "validate"))
        return cmd_lines(&validate_cmd, argc, argv);
    errx(1, "unknown operation '%s'; expected label, summary, validate, merge or csv", op);
}
