/*
 * sweep_cli.c: interloper sweep's options, parsed once, and the systems'
 * programs checked once per sweep: every layout's binary exists, is
 * preloadable, has a path of the one length, and its SHA-256 is known
 * (and is the one interloper link's manifest says).
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "il_resolve.h"
#include "sweep.h"

/* ------------------------------------------------------------ lists */

/* A:B:STEP or a comma list, each value read by elem(); no value twice. */
static unsigned long long *
list(const struct il_optp *p, const char *v, size_t *n,
     unsigned long long (*elem)(const struct il_optp *, const char *))
{
    unsigned long long *out = NULL;
    size_t k = 0;
    char *w = il_xstrdup(v), *c1 = strchr(w, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (c1 && c2 && !strchr(c2 + 1, ':')) {
        *c1 = *c2 = 0;
        /* B bounds the values and need not be one: each value is
         * checked below, so 0:131060:16 is taken (its last is 131056) */
        unsigned long long from = elem(p, w), to, step;
        if (il_parse_size(c1 + 1, ~0ULL, &to) < 0)
            to = elem(p, c1 + 1); /* refuses it, in elem's words */
        if (il_parse_size(c2 + 1, ~0ULL, &step) < 0 || step == 0)
            il_opt_bad(p, v, "expected A:B:STEP with a STEP of at least 1");
        if (from > to)
            il_opt_bad(p, v, "expected A:B:STEP with A <= B");
        if ((to - from) / step >= 1000000)
            il_opt_bad(p, v, "more than a million values");
        for (unsigned long long i = 0; i <= (to - from) / step; i++) {
            char t[32];
            snprintf(t, sizeof t, "%llu", from + i * step);
            out = il_xrealloc(out, (k + 1) * sizeof *out);
            out[k++] = elem(p, t);
        }
    } else if (c1) {
        il_opt_bad(p, v, "expected A:B:STEP or a comma-separated list");
    } else {
        char *save, *e;
        for (e = strtok_r(w, ",", &save); e; e = strtok_r(NULL, ",", &save)) {
            out = il_xrealloc(out, (k + 1) * sizeof *out);
            out[k++] = elem(p, e);
        }
        if (!k)
            il_opt_bad(p, v, "expected at least one value");
        size_t l = strlen(v);
        if (strstr(v, ",,") || v[0] == ',' || v[l - 1] == ',')
            il_opt_bad(p, v, "an empty value between commas; expected a comma-separated list");
    }
    for (size_t i = 0; i < k; i++)
        for (size_t j = 0; j < i; j++)
            if (out[i] == out[j])
                il_opt_bad(p, v, "%llu is given twice; each value is one setup", out[i]);
    free(w);
    *n = k;
    return out;
}

static int
pin_word(const char *v)
{
    return il_is_pin_word(v) || !strcmp(v, "both");
}

/* ------------------------------------------------------------ systems and layouts */

static char *
subst(const char *tmpl, const char *id)
{
    struct il_buf b = {0};
    il_buf_str(&b, "");
    for (const char *p = tmpl; *p;) {
        const char *q = strstr(p, "{layout}");
        if (!q) {
            il_buf_str(&b, p);
            break;
        }
        il_buf_add(&b, p, (size_t)(q - p));
        il_buf_str(&b, id);
        p = q + 8;
    }
    return b.p;
}

/* A system as the user gave it, for messages: sweep's --system
 * NAME=PROGRAM, compare's COMMAND (review12b L5: compare's said --system,
 * an option compare does not have).  Each message exits: not freed. */
static char *
given(const struct il_sweep *s, const struct il_system *y)
{
    if (strcmp(s->me, IL_SWEEP_ME))
        return il_xstrdup(y->tmpl);
    return il_xasprintf("--system %s=%s", y->name, y->tmpl);
}

/* DIR/manifest.json beside the layouts' binaries, as interloper link
 * writes it: binaries[].id, .file, .kind, .sha256 */
static json_t *
manifest(const struct il_sweep *s, const struct il_system *y, char **dir)
{
    const char *brace = strstr(y->tmpl, "{layout}");
    const char *slash = NULL;
    for (const char *p = y->tmpl; p < brace; p++)
        if (*p == '/')
            slash = p;
    if (strchr(brace + 8, '/'))
        errx(1, "%s: {layout} must be in the file name, not a directory", given(s, y));
    *dir = slash ? il_xasprintf("%.*s", (int)(slash - y->tmpl), y->tmpl) : il_xstrdup(".");
    char *path = il_xasprintf("%s/manifest.json", *dir);
    json_error_t je;
    json_t *m = json_load_file(path, 0, &je);
    if (!m)
        errx(1,
             "%s: cannot read %s (%s); expected the manifest interloper link writes beside "
             "the binaries",
             given(s, y), path, je.text);
    if (!json_is_array(json_object_get(m, "binaries")))
        errx(1, "%s: no binaries[] array; expected a manifest of interloper link", path);
    free(path);
    return m;
}

static json_t *
binary(json_t *m, const char *id)
{
    size_t i;
    json_t *b;
    json_array_foreach(json_object_get(m, "binaries"), i, b)
    {
        const char *bid = json_string_value(json_object_get(b, "id"));
        if (bid && !strcmp(bid, id))
            return b;
    }
    return NULL;
}

static void
layouts(struct il_sweep *s)
{
    char *dir;
    if (!strstr(s->sys[0].tmpl, "{layout}"))
        errx(1, "%s: --layouts given, but the program has no {layout}", given(s, &s->sys[0]));
    json_t *m = manifest(s, &s->sys[0], &dir);
    json_t *bins = json_object_get(m, "binaries");
    const char *v = s->layouts;
    size_t n = 0;
    const char **ids = NULL;
    if (!strcmp(v, "all") || (!strchr(v, ',') && v[0] != '0')) {
        size_t want = !strcmp(v, "all") ? json_array_size(bins) : 0;
        if (strcmp(v, "all"))
            want = (size_t)strtoull(v, NULL, 10); /* checked by count() with the option */
        if (want > json_array_size(bins))
            errx(1, "--layouts %s: the manifest of %s has %zu layouts", v, s->sys[0].tmpl,
                 json_array_size(bins));
        for (size_t i = 0; i < want; i++) {
            const char *id = json_string_value(json_object_get(json_array_get(bins, i), "id"));
            if (!id)
                errx(1, "%s/manifest.json: binaries[%zu] has no id", dir, i);
            ids = il_xrealloc(ids, (n + 1) * sizeof *ids);
            ids[n++] = id;
        }
    } else {
        char *w = il_xstrdup(v), *save;
        for (char *e = strtok_r(w, ",", &save); e; e = strtok_r(NULL, ",", &save)) {
            for (size_t i = 0; i < n; i++)
                if (!strcmp(ids[i], e))
                    errx(1, "--layouts %s: %s is given twice", v, e);
            if (!il_label_key_ok(e))
                errx(1, "--layouts %s: %s is not a layout id", v, e);
            size_t k = 0;
            for (; k < json_array_size(bins); k++) {
                const char *id = json_string_value(json_object_get(json_array_get(bins, k), "id"));
                if (id && !strcmp(id, e))
                    break;
            }
            if (k == json_array_size(bins))
                errx(1,
                     "--layouts %s: %s is not in %s/manifest.json; expected ids it lists, such "
                     "as 00 (one id alone: 05,)",
                     v, e, dir);
            ids = il_xrealloc(ids, (n + 1) * sizeof *ids);
            ids[n++] = e;
        }
        if (!n)
            errx(1, "--layouts %s: expected a count, all, or ids", v);
    }
    s->d.lay = ids;
    s->d.nlay = n;
    s->d.kind = il_xcalloc(n, sizeof *s->d.kind);
    free(dir);
}

int
il_program_hash(const char *path, char hex[65], struct stat *ident)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    unsigned long long size;
    int rc = fstat(fd, ident) < 0 ? -1 : il_sha256_fd(fd, hex, &size);
    int e = errno;
    close(fd);
    errno = e;
    return rc;
}

static int
same_file(const struct stat *a, const struct stat *b)
{
    return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
           a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
           a->st_ctim.tv_sec == b->st_ctim.tv_sec && a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

/* One stat a launch; the hash only when the file is not the one hashed
 * (a touch, a chmod, a copy of the same bytes keep the program). */
int
il_program_same(const char *path, const char *hex, struct stat *ident, char now[65])
{
    struct stat st;
    *now = 0;
    if (stat(path, &st) == 0 && same_file(&st, ident))
        return 1;
    struct stat id;
    if (il_program_hash(path, now, &id) < 0) {
        *now = 0;
        return 0;
    }
    if (strcmp(now, hex))
        return 0;
    *ident = id;
    return 1;
}

/* The programs of system y, one per layout: each in its manifest. */
static void
programs(struct il_sweep *s, struct il_system *y)
{
    size_t n = s->d.nlay ? s->d.nlay : 1;
    y->path = il_xcalloc(n, sizeof *y->path);
    y->sha256 = il_xcalloc(n, sizeof *y->sha256);
    y->ident = il_xcalloc(n, sizeof *y->ident);
    y->kind = il_xcalloc(n, sizeof *y->kind);
    y->order = il_xcalloc(n, sizeof *y->order);
    int has = strstr(y->tmpl, "{layout}") != NULL;
    if (has && !s->d.nlay)
        errx(1,
             "%s: {layout} without --layouts; add --layouts all (or a count, or ids)",
             given(s, y));
    if (!has && s->d.nlay)
        errx(1, "%s: --layouts given, but the program has no {layout}", given(s, y));
    char *dir = NULL;
    json_t *m = has ? manifest(s, y, &dir) : NULL;
    for (size_t i = 0; i < n; i++) {
        char *p = has ? subst(y->tmpl, s->d.lay[i]) : il_find_program(y->tmpl);
        struct stat st, mst;
        const char *nx = NULL;
        if (!p || stat(p, &st) < 0 || !S_ISREG(st.st_mode) || (nx = il_not_executable(p)))
            errx(1, "%s: %s is not an executable file%s%s", given(s, y), p ? p : y->tmpl,
                 nx ? ": " : "", nx ? nx : "");
        int warn;
        char first[sizeof s->first];
        const char *why = il_preloadable(p, &warn, first, sizeof first);
        if (why)
            errx(1, "%s: LD_PRELOAD cannot apply to %s (%s)", given(s, y), p, why);
        if (!s->first_of) {
            snprintf(s->first, sizeof s->first, "%s", first);
            s->first_of = p;
        } else if (strcmp(first, s->first)) {
            /* every run has one LD_PRELOAD: the environment's size is a factor */
            errx(1,
                 "%s: %s needs %s first in LD_PRELOAD and %s needs %s; every run of a sweep "
                 "has the same: compare sanitizer builds with sanitizer builds of the same "
                 "runtime",
                 given(s, y), p, *first ? first : "nothing", s->first_of,
                 *s->first ? s->first : "nothing");
        }
        if (warn)
            errx(1,
                 "%s: %s does not start through __libc_start_main, so nothing would be "
                 "measured",
                 given(s, y), p);
        y->path[i] = p;
        y->sha256[i] = il_xmalloc(65);
        if (il_program_hash(p, y->sha256[i], &y->ident[i]) < 0)
            err(1, "%s: cannot read %s", given(s, y), p);
        if (!m)
            continue;
        json_t *b = binary(m, s->d.lay[i]);
        if (!b)
            errx(1, "%s: layout %s is not in %s/manifest.json", given(s, y), s->d.lay[i], dir);
        const char *file = json_string_value(json_object_get(b, "file"));
        char *mpath =
            file ? (file[0] == '/' ? il_xstrdup(file) : il_xasprintf("%s/%s", dir, file)) : NULL;
        if (!mpath || stat(mpath, &mst) < 0 || mst.st_dev != st.st_dev || mst.st_ino != st.st_ino)
            errx(1, "%s: layout %s is %s in %s/manifest.json, not %s", given(s, y), s->d.lay[i], mpath ? mpath : "(no file)", dir, p);
        free(mpath);
        const char *sha = json_string_value(json_object_get(b, "sha256"));
        if (sha && strcmp(sha, y->sha256[i]))
            errx(1,
                 "%s: %s is not the binary interloper link made (its SHA-256 is not the "
                 "manifest's); relink, or give the manifest that goes with it",
                 given(s, y), p);
        y->kind[i] = json_string_value(json_object_get(b, "kind"));
        /* the link order, for report's --attribute (the objects' positions) */
        y->order[i] = json_object_get(b, IL_M_ORDER);
        if (y->order[i])
            json_incref(y->order[i]);
        if (y == &s->sys[0])
            s->d.kind[i] = y->kind[i];
    }
    /* two layouts that are one binary (interloper link's original and
     * alphabetical orders agree where the build links in name order) are
     * two levels of the layout factor with one effect: the report would
     * count one layout twice (outside review, session 12); one line for
     * each binary, naming all its layouts (review12b L5: the first pair
     * only) */
    for (size_t j = 0; j < n && s->d.nlay; j++) {
        size_t same = 0, first = 1;
        for (size_t i = 0; i < j && first; i++)
            first = strcmp(y->sha256[i], y->sha256[j]) != 0;
        for (size_t i = j + 1; i < n && first; i++)
            same += !strcmp(y->sha256[i], y->sha256[j]);
        if (!first || !same)
            continue;
        struct il_buf ids = {0}, out = {0};
        il_buf_str(&ids, s->d.lay[j]);
        for (size_t i = j + 1, k = 0; i < n; i++) {
            if (strcmp(y->sha256[i], y->sha256[j]))
                continue;
            il_buf_printf(&ids, "%s%s", ++k == same ? " and " : ", ", s->d.lay[i]);
            il_buf_printf(&out, "%s%s", k > 1 ? "," : "", s->d.lay[i]);
        }
        char times[32];
        snprintf(times, sizeof times, "%zu", same + 1);
        fprintf(stderr,
                "%s: warning: system %s: layouts %s are one binary (one SHA-256), which the "
                "report counts as %s layouts; leave %s out of --layouts\n",
                s->me, y->name, ids.p, same == 1 ? "two" : times, out.p);
        il_buf_free(&ids);
        il_buf_free(&out);
    }
    if (m) {
        y->link = json_object();
        json_object_set(y->link, "command", json_object_get(m, "command"));
        json_object_set(y->link, "cwd", json_object_get(m, "cwd"));
    }
    free(dir);
}

/* --runs FILE: run ids, one a line (interloper record merge --missing
 * writes them); blank lines are skipped */
static void
runs_list(struct il_sweep *s)
{
    FILE *f = fopen(s->runs_file, "re");
    if (!f)
        err(1, "--runs %s", s->runs_file);
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    long lineno = 0;
    while ((n = getline(&line, &cap, f)) > 0) {
        lineno++;
        while (n && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' '))
            line[--n] = 0;
        if (!n)
            continue;
        if (strchr(line, '\t') || n >= 512)
            errx(1, "--runs %s:%ld: expected a run id (such as O3/e64/r2), one a line",
                 s->runs_file, lineno);
        int added;
        il_idset_add(&s->runs_only, line, &added);
    }
    if (ferror(f))
        err(1, "--runs %s", s->runs_file);
    free(line);
    fclose(f);
}

/* ------------------------------------------------------------ the options */

enum {
    O_SYSTEM = IL_O_SWEEP_FIRST, /* apart from compare's own ids (il_tools.h) */
    O_LAYOUTS,
    O_ENV_ADD,
    O_ENV_BASE,
    O_ENV_VARS,
    O_STACK_OFFSET,
    O_HEAP_OFFSET,
    O_STACK_PIN,
    O_SETUPS,
    O_REPS,
    O_WARMUP,
    O_SEED,
    O_INPUT,
    O_SHOW_OUTPUT,
    O_EXPECT_OUTPUT,
    O_NO_CHECK_OUTPUT,
    O_KEEP_GOING,
    O_EXPECT_STATUS,
    O_TIMEOUT,
    O_NO_HOLD,
    O_BENCH,
    O_UNTIL,
    O_METRIC,
    O_MAX_RUNS,
    O_SHARD,
    O_RUNS,
    O_EXPECT_SHA256,
    O_SNAPSHOT_EVERY,
    O_SLURM,
    O_SUBMIT,
    O_STATUS,
};

/* sweep's options; interloper compare takes those not marked for the
 * sweep alone (its commands are its systems; it runs on one machine).
 * An option whose default or meaning differs has an entry for each
 * (SW, CMP), so that each command's --help states its own. */
#define SW IL_CMD_SWEEP
#define CMP IL_CMD_COMPARE
const struct il_opt il_sweep_opts[] = {
    {.head = "systems and setups (LIST: A:B:STEP from A up to B, or a comma list)"},
    {"system", 0, IL_OPT_VALUE, "NAME=PROG",
     "a system and its program (repeatable); PROG may hold\n"
     "{layout}, replaced by each layout's id",
     O_SYSTEM, SW},
    {"layouts", 0, IL_OPT_VALUE, "N|all|IDS",
     "the first N layouts of interloper link's manifest, all of\n"
     "them, or a comma list of ids (one id: 05,)",
     O_LAYOUTS},
    {"env-add", 0, IL_OPT_VALUE, "LIST", "environment pads in bytes (default 0)", O_ENV_ADD, SW},
    {"env-add", 0, IL_OPT_VALUE, "LIST",
     "environment pads in bytes (default 0:4080:16, the\n"
     "stack's 256 places in a page)",
     O_ENV_ADD, CMP},
    {"env-base", 0, IL_OPT_VALUE, "N",
     "every setup's environment is N + its env_add bytes\n"
     "(default: the results file's, else this one's size)",
     O_ENV_BASE},
    {"env-vars", 0, IL_OPT_VALUE, "N",
     "and N variables (default: the results file's, else\n"
     "this one's number)",
     O_ENV_VARS},
    {"stack-offset", 0, IL_OPT_VALUE, "LIST", "main's frame lower by these bytes (default 0)",
     O_STACK_OFFSET},
    {"heap-offset", 0, IL_OPT_VALUE, "LIST", "the heap later by these bytes (default 0)",
     O_HEAP_OFFSET},
    {"stack-pin", 0, IL_OPT_MAYBE, "ADDR|both",
     "pin main's stack (auto, or at ADDR); both: every\n"
     "run pinned and unpinned, interleaved, labelled pin",
     O_STACK_PIN, 0, pin_word},
    {"aslr", 0, IL_OPT_VALUE, "off|on", "ASLR (default off); on: every run is a setup of its own",
     IL_O_ASLR},
    {"setups", 0, IL_OPT_VALUE, "K",
     "draw K of the setups at random (default: all), every\n"
     "layout once before any twice",
     O_SETUPS, SW},
    {"setups", 0, IL_OPT_VALUE, "K",
     "draw K of the setups at random (default 8, doubled\n"
     "until --until is met), every layout once before any\n"
     "twice",
     O_SETUPS, CMP},
    {"reps", 'r', IL_OPT_VALUE, "R", "runs of each system in each setup (default 3)", O_REPS},
    {"warmup", 'w', IL_OPT_VALUE, "N",
     "first, N runs of each system in each setup, labelled\n"
     "warmup (left out by interloper report; default 0)",
     O_WARMUP, SW},
    {"warmup", 'w', IL_OPT_VALUE, "N",
     "first, N runs of each command in each setup, labelled\n"
     "warmup (left out by interloper report; default 1)",
     O_WARMUP, CMP},
    {"seed", 0, IL_OPT_VALUE, "S",
     "seed of the draws and the order, 0 to 4294967295\n"
     "(default: the results file's, else drawn; it is in\n"
     "every record)",
     O_SEED},
    {.head = "the runs"},
    {"input", 0, IL_OPT_VALUE, "FILE", "every run's stdin, a regular file (default /dev/null)",
     O_INPUT},
    {"show-output", 0, IL_OPT_FLAG, NULL, "copy each run's stdout and stderr through after it ends",
     O_SHOW_OUTPUT},
    {"expect-output", 0, IL_OPT_VALUE, "FILE", "every run's stdout must be this file's bytes",
     O_EXPECT_OUTPUT},
    {"no-check-output", 0, IL_OPT_FLAG, NULL, "do not check that all runs write the same stdout",
     O_NO_CHECK_OUTPUT},
    {"keep-going", 0, IL_OPT_FLAG, NULL,
     "go on after a run that fails (default: stop); the\n"
     "summary says how many failed",
     O_KEEP_GOING},
    {"expect-status", 0, IL_OPT_VALUE, "N",
     "a run that exits with status N succeeded, any other\n"
     "status fails (default 0: grep, diff and tests that\n"
     "exit 1 as they should give 1)",
     O_EXPECT_STATUS},
    {"timeout", 0, IL_OPT_VALUE, "TIME",
     "kill a run still running after TIME (s, m, h suffixes):\n"
     "SIGTERM to its group, SIGKILL 5 s later; it fails\n"
     "(default: no limit)",
     O_TIMEOUT},
    {.incl = il_setup_opts},
    {"no-strict", 0, IL_OPT_FLAG, NULL,
     "let runs go on past the library's problems (default:\n"
     "strict, such a run fails and the sweep stops)",
     IL_O_NO_STRICT, SW},
    {"no-strict", 0, IL_OPT_FLAG, NULL,
     "let runs go on past the library's problems (default:\n"
     "strict, such a run fails and the comparison stops)",
     IL_O_NO_STRICT, CMP},
    {"no-hold", 0, IL_OPT_FLAG, NULL, "do not hold the software events' kernel switches on",
     O_NO_HOLD},
    {.head = "results"},
    {"bench", 0, IL_OPT_VALUE, "NAME", "the bench label (default: PROG's file name)", O_BENCH,
     SW},
    {"bench", 0, IL_OPT_VALUE, "NAME",
     "the bench label (default: the program's file name;\n"
     "shell commands: the first command's name)",
     O_BENCH, CMP},
    {"output", 'o', IL_OPT_VALUE, "FILE", "results file (default ./interloper.jsonl)", IL_O_OUTPUT,
     SW},
    {"output", 'o', IL_OPT_VALUE, "FILE",
     "results file (default compare-PLAN.jsonl, PLAN the\n"
     "plan's id)",
     IL_O_OUTPUT, CMP},
    {"until", 0, IL_OPT_VALUE, "PCT",
     "add setups until every ratio to the first system has a\n"
     "95% interval within +-PCT percent (interloper report)",
     O_UNTIL, SW},
    {"until", 0, IL_OPT_VALUE, "PCT",
     "add setups until every ratio to the first command has\n"
     "a 95% interval within +-PCT percent (interloper\n"
     "report; default 1)",
     O_UNTIL, CMP},
    {"metric", 'm', IL_OPT_VALUE, "NAME",
     "the metric --until watches and the summary shows\n"
     "(default wall, also with --events)",
     O_METRIC},
    {"max-runs", 0, IL_OPT_VALUE, "N", "with --until, at most N runs", O_MAX_RUNS},
    {.head = "scale-out", .only = SW},
    {"shard", 0, IL_OPT_VALUE, "I/N",
     "run only the I-th of N disjoint parts of the plan\n"
     "(needs --seed)",
     O_SHARD, SW},
    {"runs", 0, IL_OPT_VALUE, "FILE",
     "run only the runs FILE lists, one id a line (as\n"
     "interloper record merge writes the runs missing)",
     O_RUNS, SW},
    {"expect-sha256", 0, IL_OPT_VALUE, "LIST",
     "each system's binary (each layout's, in order) must\n"
     "have these SHA-256s, comma-separated (--slurm passes them)",
     O_EXPECT_SHA256, SW},
    {"snapshot-every", 0, IL_OPT_VALUE, "T",
     "a snapshot of the machine every T seconds (or Tm, Th)\n"
     "while the sweep runs (default 10m; 0: none)",
     O_SNAPSHOT_EVERY, SW},
    {"slurm", 0, IL_OPT_VALUE, "N",
     "write a Slurm job array of N shards, one node each,\n"
     "exclusive; options for sbatch after ARGS and a second --;\n"
     "rerun, it resubmits only the shards not complete",
     O_SLURM, SW},
    {"submit", 0, IL_OPT_FLAG, NULL, "with --slurm, submit it with sbatch", O_SUBMIT, SW},
    {"status", 0, IL_OPT_FLAG, NULL,
     "with --slurm, each task's state: its shard's runs, its\n"
     "log, Slurm's (sacct, squeue)",
     O_STATUS, SW},
    {"dry-run", 'n', IL_OPT_FLAG, NULL,
     "print the plan, one run per line with the interloper run\n"
     "command that makes it (with --slurm: the script; nothing\n"
     "written or submitted)",
     IL_O_DRY, SW},
    {"dry-run", 'n', IL_OPT_FLAG, NULL,
     "print the first batch, one run per line with the\n"
     "interloper run command that makes it (on stderr, how to\n"
     "make the links it names); run nothing",
     IL_O_DRY, CMP},
    {"quiet", 'q', IL_OPT_FLAG, NULL, "no progress on stderr, and no summary", IL_O_QUIET, SW},
    {"quiet", 'q', IL_OPT_FLAG, NULL, "no progress on stderr", IL_O_QUIET, CMP},
    {0},
};

static const struct il_opt opts[] = {
    {.incl = il_sweep_opts},
    {0},
};

static const struct il_cmd cmd = {
    .name = IL_SWEEP_ME,
    .synopsis = "[options] --system NAME=PROG [--system NAME=PROG]...\n[-- ARGS...]",
    .about = "Run every system in every setup, REPS times, in a seeded random order, each\n"
             "run's records labelled with its place in the plan and appended to the results\n"
             "file; rerun the same command to resume.",
    .man = "interloper-sweep(1)",
    .opts = opts,
    .bit = IL_CMD_SWEEP,
};

static void
forward(struct il_sweep *s, int from, int to)
{
    for (int i = from; i < to; i++) {
        s->forward = il_xrealloc(s->forward, (s->nforward + 1) * sizeof *s->forward);
        s->forward[s->nforward++] = s->argv[i];
    }
}

/* --system NAME=PROG */
static void
add_system(struct il_sweep *s, const struct il_optp *p)
{
    const char *v = p->val, *eq = strchr(v, '=');
    char *name = il_xstrdup(v);
    if (!eq || !eq[1])
        il_opt_bad(p, v, "expected NAME=PROG");
    name[eq - v] = 0;
    if (!il_label_key_ok(name))
        il_opt_bad(p, v, "the name must be letters, digits, '_', '-' or '.'");
    if (strlen(name) > IL_SYSTEM_NAME_MAX)
        il_opt_bad(p, v, "the name is too long (%zu characters; at most %d)", strlen(name),
                   IL_SYSTEM_NAME_MAX);
    for (size_t i = 0; i < s->nsys; i++)
        if (!strcmp(s->sys[i].name, name))
            il_opt_bad(p, v, "the system %s is given twice", name);
    s->sys = il_xrealloc(s->sys, (s->nsys + 1) * sizeof *s->sys);
    memset(&s->sys[s->nsys], 0, sizeof *s->sys);
    s->sys[s->nsys].name = name;
    s->sys[s->nsys++].tmpl = eq + 1;
}

/* --expect-sha256 H,H,...: the binaries' SHA-256s, checked once the
 * programs are found */
static void
expect_sha256(struct il_sweep *s, const struct il_optp *p)
{
    char *w = il_xstrdup(p->val), *save, *h;
    for (h = strtok_r(w, ",", &save); h; h = strtok_r(NULL, ",", &save)) {
        if (strlen(h) != 64 || strspn(h, "0123456789abcdef") != 64)
            il_opt_bad(p, p->val,
                       "expected SHA-256s, 64 lowercase hex digits each, comma-separated");
        s->bin_sha = il_xrealloc(s->bin_sha, (s->nbin_sha + 1) * sizeof(char *));
        s->bin_sha[s->nbin_sha++] = h;
    }
}

/* One option of the sweep's own; 0 when it is not to be forwarded to the
 * shards' commands. */
static int
sweep_option(struct il_sweep *s, struct il_optp *p)
{
    const char *v = p->val;
    switch (p->opt->id) {
    case O_SYSTEM:
        add_system(s, p);
        break;
    case O_LAYOUTS:
        s->layouts = v;
        if (strcmp(v, "all") && !strchr(v, ',') && v[0] != '0')
            il_arg_count(p, v, 1, 1000000);
        break;
    case O_ENV_BASE:
        s->env_base = il_arg_env_bytes(p, v);
        s->env_base_given = 1;
        break;
    case O_ENV_VARS:
        s->env_vars = il_arg_count(p, v, 1, 1000000);
        s->env_vars_given = 1;
        break;
    case O_ENV_ADD:
        s->d.env = list(p, v, &s->d.nenv, il_arg_env_add);
        break;
    case O_STACK_OFFSET:
        s->d.stack = list(p, v, &s->d.nstack, il_arg_stack_offset);
        break;
    case O_HEAP_OFFSET:
        s->d.heap = list(p, v, &s->d.nheap, il_arg_heap_offset);
        break;
    case O_STACK_PIN:
        s->d.pin_factor = v && !strcmp(v, "both");
        s->pin = il_arg_pin(p, s->d.pin_factor ? NULL : v, &s->pin_addr);
        break;
    case O_SETUPS:
        s->d.setups = (size_t)il_arg_count(p, v, 1, 1ULL << 30);
        break;
    case O_REPS:
        s->d.reps = (unsigned)il_arg_count(p, v, 1, 65535);
        break;
    case O_WARMUP:
        s->d.warmup = (unsigned)il_arg_count(p, v, 0, 65535);
        break;
    case O_SEED:
        s->d.seed = (uint32_t)il_arg_count(p, v, 0, 4294967295ULL);
        s->seed_given = 1;
        break;
    case O_BENCH:
        s->bench = v;
        if (!*s->bench || strchr(s->bench, '\n') || !il_utf8_ok(s->bench))
            il_opt_bad(p, s->bench, "expected a name of one line");
        break;
    case O_INPUT:
        s->input = v;
        break;
    case O_SHOW_OUTPUT:
        s->show_output = 1;
        break;
    case O_EXPECT_OUTPUT:
        s->expect = v;
        break;
    case O_NO_CHECK_OUTPUT:
        s->check_output = 0;
        break;
    case O_KEEP_GOING:
        s->keep_going = 1;
        break;
    case O_EXPECT_STATUS:
        s->expect_status = (int)il_arg_count(p, v, 0, 255);
        break;
    case O_TIMEOUT:
        s->timeout = il_arg_seconds(p, v, 0, 1e9, "expected a time such as 90s, 10m or 2h");
        break;
    case O_NO_HOLD:
        s->hold = 0;
        break;
    case O_UNTIL: {
        char *end;
        s->until = strtod(v, &end);
        if (end == v || (*end && strcmp(end, "%")) || !(s->until > 0 && s->until < 100))
            il_opt_bad(p, v, "expected a percentage above 0 and below 100, such as 1 or 0.5");
        break;
    }
    case O_METRIC: {
        char *m = il_xstrdup(v); /* its events as the library records them */
        il_events_fold(m, '/');
        s->metric = m;
        s->metric_given = 1;
        break;
    }
    case O_MAX_RUNS:
        s->max_runs = il_arg_count(p, v, 1, ~0ULL);
        break;
    case O_SHARD: {
        unsigned i, n;
        char c;
        if (sscanf(v, "%u/%u%c", &i, &n, &c) != 2 || i < 1 || i > n || n > 1000000)
            il_opt_bad(p, v, "expected I/N with 1 <= I <= N, such as 2/4");
        s->shard_i = i, s->shard_n = n;
        return 0;
    }
    case O_RUNS:
        s->runs_file = v;
        return 0;
    case O_EXPECT_SHA256:
        expect_sha256(s, p);
        return 0;
    case O_SNAPSHOT_EVERY:
        s->snapshot_every =
            il_arg_seconds(p, v, 1, 1e7,
                           "expected seconds, or minutes or hours such as 10m or 1h (0: no "
                           "snapshot while the sweep runs)");
        break;
    case O_SLURM:
        s->slurm = (unsigned)il_arg_count(p, v, 1, 1000000);
        return 0;
    case O_SUBMIT:
        s->submit = 1;
        return 0;
    case O_STATUS:
        s->status = 1;
        return 0;
    }
    return 1;
}

/* What follows the options: the program's arguments, after --; with
 * --slurm, up to a second --, after which come sbatch's options. */
static void
operands(struct il_sweep *s, int i, int argc, char **argv)
{
    if (i < argc && (i == 1 || strcmp(argv[i - 1], "--")))
        errx(1, "unexpected '%s'%s; the program's arguments go after --", argv[i],
             i > 1 && !strcmp(argv[i - 1], "--stack-pin")
                 ? " after --stack-pin (expected nothing, an address such as 0x7ffffffde000, or "
                   "both)"
                 : "");
    s->args = &argv[i];
    for (int k = i; k < argc; k++) {
        if (s->slurm && !strcmp(argv[k], "--")) {
            s->sbatch = &argv[k + 1];
            s->nsbatch = (size_t)(argc - k - 1);
            break;
        }
        s->nargs++;
    }
}

/* The options that do not go together, and labels that are the sweep's. */
static void
check_options(const struct il_sweep *s)
{
    if (!s->nsys)
        errx(1, "no system; expected at least one --system NAME=PROG");
    il_common_check(&s->c);
    if (s->until && (s->shard_n || s->slurm))
        errx(1, "--until decides from all the runs, so it does not go with --shard or --slurm");
    if (s->max_runs && !s->until)
        errx(1, "--max-runs bounds --until; add --until PCT or drop --max-runs");
    if (s->until && s->nsys < 2)
        errx(1, "--until compares systems; expected at least two --system");
    if (s->submit && !s->slurm)
        errx(1, "--submit submits the --slurm script; add --slurm N");
    if (s->shard_n && !s->seed_given)
        errx(1,
             "--shard %u/%u without --seed: each shard would draw a seed, and a plan, of its "
             "own; give every shard the same --seed",
             s->shard_i, s->shard_n);
    if (s->shard_n && s->slurm)
        errx(1, "--slurm writes a script that runs each --shard; give one or the other");
    if (s->expect && !s->check_output)
        errx(1, "--expect-output and --no-check-output do not go together; choose one");
    if (s->status && !s->slurm)
        errx(1, "--status says the state of a --slurm array; add --slurm N");
    if (s->status && s->submit)
        errx(1, "--status only looks; it does not go with --submit");
    if (s->runs_file && (s->shard_n || s->slurm || s->until))
        errx(1, "--runs FILE runs exactly the runs it lists, so it does not go with %s",
             s->shard_n ? "--shard"
             : s->slurm ? "--slurm"
                        : "--until");
    for (size_t i = 0; i < s->c.nlabels; i++) {
        static const char *const ours[] = {IL_L_BENCH,
                                           IL_L_SYSTEM,
                                           IL_L_SETUP,
                                           IL_L_ENV_ADD,
                                           IL_L_LAYOUT,
                                           IL_L_LAYOUT_KIND,
                                           IL_L_REP,
                                           IL_L_WARMUP,
                                           IL_L_RUN,
                                           IL_L_PLAN,
                                           IL_L_SEED,
                                           IL_L_STACK_OFFSET,
                                           IL_L_HEAP_OFFSET,
                                           IL_L_PIN,
                                           IL_L_CPUS,
                                           IL_L_OUTPUT_CHECK,
                                           IL_L_LAUNCH,
                                           IL_L_SCHEDULER,
                                           NULL};
        for (const char *const *k = ours; *k; k++)
            if (!strcmp(s->c.labels[i].key, *k))
                errx(1, "--label %s=%s: the sweep sets %s itself", *k, s->c.labels[i].value, *k);
    }
}

/* The scheduler that started this sweep, if one did: its job, task and
 * node in every record, to find a bad node or task and rerun it. */
static void
scheduler(struct il_sweep *s)
{
    static const char *const sched[][2] = {{IL_L_SLURM_JOB, "SLURM_JOB_ID"},
                                           {IL_L_SLURM_TASK, "SLURM_ARRAY_TASK_ID"},
                                           {IL_L_SLURM_NODE, "SLURMD_NODENAME"},
                                           {IL_L_PARALLEL_SLOT, "PARALLEL_JOBSLOT"},
                                           {IL_L_PARALLEL_SEQ, "PARALLEL_SEQ"}};
    for (size_t i = 0; i < sizeof sched / sizeof sched[0]; i++) {
        const char *val = getenv(sched[i][1]);
        if (val && *val && il_utf8_ok(val) && !strchr(val, '\n'))
            s->sched[s->nsched++] = (struct il_label){sched[i][0], val};
    }
}

/* --expect-sha256: the programs found are the plan's. */
static void
check_sha256(const struct il_sweep *s)
{
    size_t k = 0, per = s->d.nlay ? s->d.nlay : 1;
    if (s->nbin_sha != s->nsys * per)
        errx(1,
             "--expect-sha256: %zu SHA-256s for %zu binaries; expected one for each "
             "system's binary (each layout's), in order",
             s->nbin_sha, s->nsys * per);
    for (size_t y = 0; y < s->nsys; y++)
        for (size_t i = 0; i < per; i++, k++)
            if (strcmp(s->sys[y].sha256[i], s->bin_sha[k]))
                errx(1,
                     "%s: %s here has SHA-256 %.16s..., the plan's binary %.16s...: not "
                     "the binary the plan was made with (a build of this node's own?); give "
                     "every node the same binary",
                     given(s, &s->sys[y]), s->sys[y].path[i], s->sys[y].sha256[i],
                     s->bin_sha[k]);
}

/* Do two orders (manifest arrays of object names) hold the same objects? */
static int
same_objects(json_t *a, json_t *b)
{
    if (json_array_size(a) != json_array_size(b))
        return 0;
    for (size_t i = 0; i < json_array_size(a); i++) {
        size_t j = 0;
        while (j < json_array_size(b) && !json_equal(json_array_get(a, i), json_array_get(b, j)))
            j++;
        if (j == json_array_size(b))
            return 0;
    }
    return 1;
}

/* A manifest's seed, for a message: ", seed 42", or "". */
static char *
manifest_seed(const struct il_sweep *s, const struct il_system *y)
{
    char *dir;
    json_t *m = manifest(s, y, &dir);
    json_t *seed = json_object_get(m, "seed");
    char *words = json_is_integer(seed)
                      ? il_xasprintf(", seed %" JSON_INTEGER_FORMAT, json_integer_value(seed))
                      : il_xstrdup("");
    json_decref(m);
    free(dir);
    return words;
}

/*
 * A layout id is one level of the layout factor, which the report crosses
 * with the systems: it must be one link order in every system, as
 * interloper build makes them (build.c refuses systems whose orders
 * differ).  Systems of the same objects linked in other orders (another
 * seed, another -k) are refused; systems of different objects cannot have
 * one order, and are only warned about: their layouts are paired by id
 * alone (outside12 F20).  Objects in directories named by the flags
 * (zstd's obj/conf_MD5: outside13 F1) are the same objects, as interloper
 * build takes them (objname.c).
 */
static void
check_orders(const struct il_sweep *s)
{
    const struct il_system *y0 = &s->sys[0];
    for (size_t k = 1; k < s->nsys; k++) {
        const struct il_system *y = &s->sys[k];
        struct il_dirmap dm = {0}; /* objects in directories named by the flags (objname.c) */
        size_t at;
        for (size_t i = 0; i < s->d.nlay; i++) {
            if (!y0->order[i] || !y->order[i] || json_equal(y0->order[i], y->order[i]) ||
                !il_order_renamed(y0->order[i], y->order[i], &dm, &at))
                continue;
            if (!same_objects(y0->order[i], y->order[i])) {
                fprintf(stderr,
                        "%s: warning: systems %s and %s link different objects, so a layout "
                        "id is not one link order in both: their layouts are paired by id "
                        "alone\n",
                        s->me, y0->name, y->name);
                break;
            }
            char *s0 = manifest_seed(s, y0), *s1 = manifest_seed(s, y);
            errx(1,
                 "--layouts: layout %s is one link order in system %s (%s%s) and another in "
                 "%s (%s%s); one id must be one order in every system: relink them with one "
                 "seed (interloper link -s SEED), or make them with interloper build",
                 s->d.lay[i], y0->name, y0->tmpl, s0, y->name, y->tmpl, s1);
        }
        free(dm.p);
    }
}

/* The systems' programs, once: each layout's binary checked, paths of one
 * length; the design's names; the bench label's default. */
static void
systems(struct il_sweep *s)
{
    if (s->layouts)
        layouts(s);
    size_t plen = 0;
    for (size_t k = 0; k < s->nsys; k++) {
        struct il_system *y = &s->sys[k];
        programs(s, y);
        for (size_t i = 0; i < (s->d.nlay ? s->d.nlay : 1); i++) {
            size_t l = strlen(y->path[i]);
            if (!plen)
                plen = l;
            else if (l != plen)
                errx(1,
                     "%s: %s has a path of %zu bytes, another system's has %zu; paths of "
                     "different lengths shift the stack between systems: use paths of one "
                     "length (bin/O2/prog and bin/O3/prog, say)",
                     given(s, y), y->path[i], l, plen);
        }
    }
    if (s->d.nlay)
        check_orders(s);
    if (s->nbin_sha)
        check_sha256(s);
    s->d.nsys = s->nsys;
    s->d.sys = il_xcalloc(s->nsys, sizeof *s->d.sys);
    for (size_t k = 0; k < s->nsys; k++)
        s->d.sys[k] = s->sys[k].name;
    s->d.aslr = s->c.aslr;
    if (!s->bench) {
        /* the program's file name, without the layout's suffix */
        char *b = subst(s->sys[0].tmpl, "");
        size_t l = strlen(b);
        while (l && b[l - 1] == '.')
            b[--l] = 0;
        s->bench = strrchr(b, '/') ? strrchr(b, '/') + 1 : b;
    }
}

/* --input and --expect-output, read once for their SHA-256. */
static void
input_files(struct il_sweep *s)
{
    if (s->input) {
        /* every run reads it from its start: a pipe would give the first
         * run all of it (and the hash, before, none) */
        struct stat in;
        if (stat(s->input, &in) < 0)
            err(1, "--input %s", s->input);
        if (!S_ISREG(in.st_mode) && strcmp(s->input, "/dev/null"))
            errx(1,
                 "--input %s: not a regular file; every run reads its input from the "
                 "start: give a file",
                 s->input);
        if (il_sha256_file(s->input, s->input_sha) < 0)
            err(1, "--input %s", s->input);
    }
    if (s->expect && il_sha256_file(s->expect, s->expect_sha) < 0)
        err(1, "--expect-output %s", s->expect);
}

void
il_sweep_defaults(struct il_sweep *s, int argc, char **argv)
{
    static unsigned long long zero = 0;
    memset(s, 0, sizeof *s);
    s->me = IL_SWEEP_ME;
    il_common_init(&s->c);
    /* a problem the library reports (an unknown event, an offset or a pin
     * not applied) stops the run before main, so the sweep stops at its
     * first run and says why, instead of labelling runs with setups that
     * were never applied (review R3, finding 2) */
    s->c.strict = s->c.strict_default = 1;
    s->argc = argc;
    s->argv = argv;
    s->d.reps = 3;
    s->d.env = s->d.stack = s->d.heap = &zero;
    s->d.nenv = s->d.nstack = s->d.nheap = 1;
    s->check_output = 1;
    s->hold = 1;
    s->snapshot_every = 600;
    s->metric = "wall";
}

int
il_sweep_option(struct il_sweep *s, struct il_optp *p)
{
    return sweep_option(s, p);
}

/* Is name one of the comma-separated list's?  Blanks around an item are
 * not part of it, as the library reads the list (interposer/config.c). */
static int
in_list(const char *list, const char *name, size_t n)
{
    for (const char *p = list; *p;) {
        p += strspn(p, " \t");
        size_t l = strcspn(p, ","), k = l;
        while (k && (p[k - 1] == ' ' || p[k - 1] == '\t'))
            k--;
        if (k == n && !strncmp(p, name, n))
            return 1;
        p += l + (p[l] == ',');
    }
    return 0;
}

/* -m's events: each must be one that every run records, or the report
 * behind --until and the summary fails after the first batch has run
 * (newuser11 F4, F16).  Refused now, in one line naming -m and the
 * events: the given --events, else the library's defaults here, which
 * depend on the machine (cycles and instructions with a PMU).  Under
 * --slurm the runs are on the nodes, whose PMU this machine cannot tell:
 * the defaults are not probed there, and an event -m names is not
 * checked, which is said (review11d). */
static void
metric_events(const struct il_sweep *s)
{
    static const char *const times[] = {"wall", "user", "sys", "maxrss"};
    const char *m = s->metric, *ev = s->c.events;
    int none = s->c.backend && !strcmp(s->c.backend, "none"),
        papi = s->c.backend && !strcmp(s->c.backend, "papi");
    int nodes = !ev && !none && !papi && s->slurm; /* the defaults are the nodes' */
    if (!ev)
        ev = none || nodes ? ""
             : papi        ? IL_DEFAULT_EVENTS_PAPI
             : il_perf_has_pmu() ? IL_DEFAULT_EVENTS_HW
                                 : IL_DEFAULT_EVENTS_SW;
    for (const char *p = m; *p;) {
        size_t n = strcspn(p, "/"), t = 0;
        while (t < sizeof times / sizeof *times &&
               (strlen(times[t]) != n || strncmp(p, times[t], n)))
            t++;
        int event = t == sizeof times / sizeof *times;
        if (event && nodes) {
            if (!s->c.quiet)
                fprintf(stderr,
                        "%s: -m %s: %.*s not checked: without --events the runs record the "
                        "library's defaults on the nodes, which depend on their PMU (%s with "
                        "one, %s without); give --events to be sure\n",
                        s->me, m, (int)n, p, IL_DEFAULT_EVENTS_HW, IL_DEFAULT_EVENTS_SW);
        } else if (event && !in_list(ev, p, n)) {
            struct perf_event_attr a;
            char *name = il_xasprintf("%.*s", (int)n, p);
            const char *how =
                il_event_generic(name, &a) != 0
                    ? "not an event name the library knows (see interloper events)"
                : s->c.events ? "add it to --events"
                              : il_xasprintf("give --events %s%s%s", ev, *ev ? "," : "", name);
            errx(1,
                 "-m %s: %s is not among the events every run records (%s%s); %s, or give -m "
                 "wall, user, sys, maxrss%s%s",
                 m, name, s->c.events ? "--events " : "without --events, the defaults here: ",
                 *ev ? ev : "none", how, *ev ? " or one of " : "", ev);
        }
        p += n + (p[n] == '/');
    }
}

void
il_sweep_check(struct il_sweep *s)
{
    check_options(s);
    metric_events(s);
    if (s->output && !strcmp(s->output, "-"))
        errx(1, "--output -: a sweep needs a results file, which it resumes from; give a file "
                "name");
    if (!s->seed_given && getrandom(&s->d.seed, sizeof s->d.seed, 0) != sizeof s->d.seed)
        err(1, "cannot draw a seed");
    scheduler(s);
    if (s->runs_file)
        runs_list(s);
    systems(s);
    input_files(s);
}

void
il_sweep_parse(struct il_sweep *s, int argc, char **argv)
{
    struct il_optp p;
    il_sweep_defaults(s, argc, argv);
    il_opt_init(&p, &cmd, argc, argv);
    while (il_opt_next(&p)) {
        int id = p.opt->id;
        if (il_common_option(&p, &s->c)) {
            if (id != IL_O_OUTPUT && id != IL_O_DRY)
                forward(s, p.from, p.i);
        } else if (sweep_option(s, &p)) {
            forward(s, p.from, p.i);
        }
    }
    operands(s, p.i, argc, argv);
    s->output = s->c.output ? s->c.output : IL_DEFAULT_OUTPUT;
    il_sweep_check(s);
}
