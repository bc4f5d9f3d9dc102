/*
 * interloper-record: small operations on records, for drivers.
 *
 *   label [-o OUT] K=V...   add labels to every record read from stdin;
 *                           write them to stdout, or append them to OUT
 *                           one write(2) per record (O_APPEND), so that
 *                           concurrent drivers never interleave
 *   summary [FILE]          a perf-stat-like summary of each record
 *   validate [FILE...]      check every line against schema interloper/1
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

#include "sweep.h"

static void
usage(FILE *f)
{
    fprintf(f, "usage: interloper record label [-o OUT] KEY=VALUE... < RECORDS\n"
               "       interloper record summary [FILE]\n"
               "       interloper record validate [FILE...]\n"
               "       interloper record merge -o OUT RESULTS...\n"
               "\n"
               "label     add labels to each record on stdin; write to stdout, or append\n"
               "          to OUT with one write per record\n"
               "summary   print a perf-stat-like summary of each record\n"
               "validate  check each line against schema interloper/1; name every bad\n"
               "          line as FILE:LINE, and exit 1 if there was one\n"
               "merge     join the results files of one plan's shards, checked against\n"
               "          the plan (interloper-record(1))\n"
               "\n"
               "The summary goes to stderr, as perf stat's does.  See interloper(1).\n");
}

static int
cmd_label(int argc, char **argv)
{
    const char *out = NULL;
    int i = 1;
    if (i < argc && !strcmp(argv[i], "-o")) {
        if (i + 1 >= argc)
            errx(1, "label: -o needs a file name");
        out = argv[i + 1];
        i += 2;
    }
    json_t *labels = json_object();
    for (; i < argc; i++) {
        char *eq = strchr(argv[i], '=');
        if (!eq)
            errx(1, "label: '%s' is not KEY=VALUE", argv[i]);
        *eq = 0;
        if (!il_label_key_ok(argv[i]))
            errx(1, "label: key '%s' must be letters, digits, '_', '-' or '.'", argv[i]);
        json_object_set_new(labels, argv[i], json_string(eq + 1));
        *eq = '=';
    }
    int fd = 1;
    if (out && (fd = open(out, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666)) < 0)
        err(1, "label: cannot open %s", out);
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
            warnx("label: stdin:%ld: not a JSON object (%s); skipped", lineno, je.text);
            bad = 1;
            json_decref(r);
            continue;
        }
        json_t *l = json_object_get(r, "labels");
        if (!json_is_object(l)) {
            l = json_object();
            json_object_set_new(r, "labels", l);
        }
        json_object_update(l, labels);
        char *s = json_dumps(r, JSON_COMPACT | JSON_PRESERVE_ORDER);
        size_t n = strlen(s);
        s[n] = '\n'; /* in place of the terminator: one line, one write */
        if (write(fd, s, n + 1) != (ssize_t)(n + 1))
            err(1, "label: write");
        free(s);
        json_decref(r);
    }
    free(line);
    json_decref(labels);
    return bad;
}

static const char *
commas(unsigned long long v, char *b)
{
    char t[32];
    int n = snprintf(t, sizeof t, "%llu", v), o = 0;
    for (int i = 0; i < n; i++) {
        if (i && (n - i) % 3 == 0)
            b[o++] = ',';
        b[o++] = t[i];
    }
    b[o] = 0;
    return b;
}

static void
summary_one(json_t *r)
{
    char b[40], f[40];
    json_t *argv = json_object_get(r, "argv"), *ex = json_object_get(r, "exit");
    fprintf(stderr, "\n Performance counter stats for '");
    for (size_t i = 0; i < json_array_size(argv); i++)
        fprintf(stderr, "%s%s", i ? " " : "", json_string_value(json_array_get(argv, i)));
    fprintf(stderr, "' (pid %lld, %s", json_integer_value(json_object_get(r, "pid")),
            json_string_value(json_object_get(ex, "how")));
    if (json_is_integer(json_object_get(ex, "status")))
        fprintf(stderr, " %lld", json_integer_value(json_object_get(ex, "status")));
    if (json_integer_value(json_object_get(ex, "signal")))
        fprintf(stderr, " %lld", json_integer_value(json_object_get(ex, "signal")));
    fprintf(stderr, ", backend %s):\n\n", json_string_value(json_object_get(r, "backend")));
    const char *k;
    json_t *v, *floor = json_object_get(r, "floor");
    json_object_foreach(json_object_get(r, "events"), k, v)
    {
        json_t *val = json_object_get(v, "value");
        if (!json_is_integer(val)) {
            fprintf(stderr, "  %18s      %-24s # %s\n", "<not counted>", k,
                    json_string_value(json_object_get(v, "error")));
            continue;
        }
        fprintf(stderr, "  %18s      %-24s", commas((unsigned long long)json_integer_value(val), b),
                k);
        json_t *fl = json_object_get(floor, k);
        if (json_is_integer(fl))
            fprintf(stderr, " # floor %s",
                    commas((unsigned long long)json_integer_value(fl), f));
        long long en = json_integer_value(json_object_get(v, "enabled_ns"));
        long long ru = json_integer_value(json_object_get(v, "running_ns"));
        if (en > 0 && ru < en)
            fprintf(stderr, "  (%.2f%% running, multiplexed)", 100.0 * (double)ru / (double)en);
        fprintf(stderr, "\n");
    }
    json_t *t = json_object_get(r, "times"), *s = json_object_get(r, "setup");
    fprintf(stderr, "\n  %18.9f seconds time elapsed\n",
            (double)json_integer_value(json_object_get(t, "wall_ns")) / 1e9);
    fprintf(stderr, "  %18.9f seconds user\n",
            (double)json_integer_value(json_object_get(t, "user_ns")) / 1e9);
    fprintf(stderr, "  %18.9f seconds sys\n",
            (double)json_integer_value(json_object_get(t, "sys_ns")) / 1e9);
    fprintf(stderr, "  %18lld KiB maximum resident set\n",
            json_integer_value(json_object_get(r, "maxrss_kib")));
    if (json_is_object(s))
        fprintf(stderr,
                "\n  setup: env %lld bytes in %lld variables, argv %lld bytes, ASLR %s,\n"
                "         main_sp %s (offset %lld%s), heap_start %s (offset %lld)\n",
                json_integer_value(json_object_get(s, "env_bytes")),
                json_integer_value(json_object_get(s, "env_vars")),
                json_integer_value(json_object_get(s, "argv_bytes")),
                json_is_true(json_object_get(s, "aslr")) ? "on" : "off",
                json_string_value(json_object_get(s, "main_sp")),
                json_integer_value(json_object_get(s, "stack_offset")),
                json_is_true(json_object_get(s, "stack_pinned")) ? ", pinned" : "",
                json_string_value(json_object_get(s, "heap_start")),
                json_integer_value(json_object_get(s, "heap_offset")));
    json_t *errs = json_object_get(r, "errors");
    for (size_t i = 0; i < json_array_size(errs); i++)
        fprintf(stderr, "  error: %s\n", json_string_value(json_array_get(errs, i)));
}

/* The contract: the fields every record has, and their types. */
static const char *
check(json_t *r)
{
    static const struct {
        const char *key;
        json_type type;
    } req[] = {
        {"schema", JSON_STRING}, {"version", JSON_STRING}, {"labels", JSON_OBJECT},
        {"pid", JSON_INTEGER},   {"ppid", JSON_INTEGER},   {"argv", JSON_ARRAY},
        {"exit", JSON_OBJECT},   {"backend", JSON_STRING}, {"events", JSON_OBJECT},
    };
    if (!json_is_object(r))
        return "not a JSON object";
    for (size_t i = 0; i < sizeof req / sizeof req[0]; i++) {
        json_t *v = json_object_get(r, req[i].key);
        static char why[96];
        static const char *const tn[] = {"an object", "an array", "a string", "an integer",
                                         "a number", "true", "false", "null"};
        if (!v || json_typeof(v) != req[i].type) {
            snprintf(why, sizeof why, "%s %s; expected %s", req[i].key,
                     v ? "has the wrong type" : "is missing", tn[req[i].type]);
            return why;
        }
    }
    if (strcmp(json_string_value(json_object_get(r, "schema")), "interloper/1"))
        return "schema is not interloper/1";
    const char *how = json_string_value(json_object_get(json_object_get(r, "exit"), "how"));
    if (!how || !strstr(" return exit _exit exec signal ", how))
        return "exit.how";
    const char *k;
    json_t *v;
    json_object_foreach(json_object_get(r, "events"), k, v)
    {
        json_t *val = json_object_get(v, "value");
        if (!json_is_integer(val) && !(json_is_null(val) && json_is_string(json_object_get(v, "error"))))
            return "events.*.value (an integer, or null with an error)";
    }
    if (json_object_get(r, "errors") && !json_is_array(json_object_get(r, "errors")))
        return "errors";
    /* records that measured something carry times, setup and floor */
    if (json_object_size(json_object_get(r, "events")) || json_object_get(r, "times")) {
        static const char *const more[] = {"times", "setup", "floor"};
        for (size_t i = 0; i < 3; i++)
            if (!json_is_object(json_object_get(r, more[i])))
                return more[i];
    }
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
        const char *why = r ? check(r) : je.text;
        if (why) {
            warnx("%s:%ld: not an interloper/1 record: %s", path ? path : "stdin", n, why);
            bad = 1;
        } else if (summarise) {
            summary_one(r);
        }
        json_decref(r);
    }
    free(line);
    if (path)
        fclose(f);
    return bad;
}

int
main(int argc, char **argv)
{
    program_invocation_short_name = (char *)"interloper record"; /* err(3) prefix */
    if (argc < 2)
        errx(1, "expected an operation, label, summary, validate or merge; see interloper record "
                "--help");
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "label"))
        return cmd_label(argc - 1, argv + 1);
    if (!strcmp(argv[1], "merge"))
        return il_record_merge(argc - 1, argv + 1);
    if (!strcmp(argv[1], "summary"))
        return each_line(argc > 2 ? argv[2] : NULL, 1);
    if (!strcmp(argv[1], "validate")) {
        int bad = 0;
        if (argc == 2)
            return each_line(NULL, 0);
        for (int i = 2; i < argc; i++)
            bad |= each_line(argv[i], 0);
        return bad;
    }
    errx(1, "unknown operation '%s'; expected label, summary, validate or merge", argv[1]);
}
