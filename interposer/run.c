/*
 * run.c: the hand-over from interloper run (INTERLOPER_RUN).
 *
 * interloper run execs the program in place, so no driver is left to add
 * labels or print a summary when it ends.  Labels must not travel through
 * the program's environment either: values of different lengths would
 * change the environment size between the systems compared (DESIGN.md,
 * "Labels").  So interloper run writes a small spec file in a private
 * directory and passes only its path, of constant length:
 *
 *     interloper-run/1
 *     pid 12345
 *     output /abs/path/results.jsonl
 *     summary 1
 *     labels {"bench":"bzip2","system":"O3"}
 *
 * The library reads it before main (il_run_load), writes the labels into
 * the record and the record into the results file, and when the image
 * that interloper run exec'd ends for good, prints the summary and
 * removes the spec (il_run_end, signal-safe).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "il.h"

static char spec[16384];
static struct {
    int loaded;
    pid_t pid;
    int summary;
} R;

void
il_run_load(void)
{
    const char *path = il.cfg.run_spec;
    if (!path[0])
        return;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    ssize_t n = fd >= 0 ? read(fd, spec, sizeof spec - 1) : -1;
    int err = errno;
    if (fd >= 0)
        close(fd);
    if (n <= 0 || strncmp(spec, "interloper-run/1\n", 17)) {
        char what[IL_ERROR_MAX];
        char *p = il_cat(what, "cannot read it");
        if (n < 0) {
            p = il_cat(p, ": ");
            p = il_cat(p, strerror(err));
        } else {
            p = il_cat(p, " as a spec of interloper-run/1");
        }
        il_cat(p, "; the record goes to INTERLOPER_OUTPUT, without labels");
        il_config_error(&il.cfg, "INTERLOPER_RUN", path, what);
        return;
    }
    spec[n] = 0;
    /* one value per line: make the lines strings */
    for (ssize_t i = 0; i < n; i++)
        if (spec[i] == '\n')
            spec[i] = 0;
    const char *out = NULL, *pid = NULL, *sum = NULL, *lab = NULL;
    for (char *line = spec; line < spec + n; line += strlen(line) + 1) {
        if (!strncmp(line, "output ", 7))
            out = line + 7;
        else if (!strncmp(line, "pid ", 4))
            pid = line + 4;
        else if (!strncmp(line, "summary ", 8))
            sum = line + 8;
        else if (!strncmp(line, "labels ", 7))
            lab = line + 7;
    }
    if (out && (out[0] == '/' || !strcmp(out, "-")) && strlen(out) < sizeof il.cfg.output) {
        strcpy(il.cfg.output, out);
        il.cfg.output_stderr = !strcmp(out, "-");
    }
    if (lab) {
        size_t l = strlen(lab);
        if (l >= 2 && lab[0] == '{' && lab[l - 1] == '}')
            il.run_labels = lab;
    }
    R.pid = 0;
    for (const char *p = pid; p && *p >= '0' && *p <= '9'; p++)
        R.pid = R.pid * 10 + (*p - '0');
    R.summary = sum && sum[0] == '1';
    if (R.summary)
        il_keep_stderr();
    R.loaded = 1;
}

/* ------------------------------------------------------------ summary */

struct line {
    char b[4096];
    size_t n;
};

static void
add(struct line *l, const char *s)
{
    while (*s && l->n < sizeof l->b - 2)
        l->b[l->n++] = *s++;
}

static void
add_pad(struct line *l, const char *s, size_t width)
{
    for (size_t k = strlen(s); k < width; k++)
        add(l, " ");
    add(l, s);
}

/* 1234567 -> "1,234,567" */
static void
grouped(uint64_t v, char out[32])
{
    char d[24];
    il_fmt_u64(d, v);
    size_t n = strlen(d), o = 0;
    for (size_t i = 0; i < n; i++) {
        if (i && (n - i) % 3 == 0)
            out[o++] = ',';
        out[o++] = d[i];
    }
    out[o] = 0;
}

/* nanoseconds as seconds with nine decimals */
static void
seconds(uint64_t ns, char out[32])
{
    char *p = il_fmt_u64(out, ns / 1000000000u);
    *p++ = '.';
    uint64_t frac = ns % 1000000000u;
    for (uint64_t div = 100000000u; div; div /= 10) {
        *p++ = (char)('0' + frac / div);
        frac %= div;
    }
    *p = 0;
}

static void
add_num(struct line *l, uint64_t v)
{
    char b[24];
    il_fmt_u64(b, v);
    add(l, b);
}

/* "    0.001234567 seconds ...", right-aligned like perf stat */
static void
add_seconds(struct line *l, uint64_t ns, const char *what)
{
    char b[32];
    seconds(ns, b);
    add_pad(l, b, 20);
    add(l, what);
}

static void
summary(enum il_how how, int status, int sig)
{
    static const char *const how_name[] = {"return", "exit", "_exit", "exec", "signal"};
    struct line l;
    char a[32], b[32];
    l.n = 0;
    add(&l, "\n Performance counter stats for '");
    size_t start = l.n;
    for (int i = 0; i < il.argc && il.argv && il.argv[i]; i++) {
        if (i)
            add(&l, " ");
        add(&l, il.argv[i]);
        if (l.n - start > 120) {
            add(&l, " ...");
            break;
        }
    }
    add(&l, "' (pid ");
    il_fmt_i64(a, getpid());
    add(&l, a);
    add(&l, ", ");
    add(&l, how_name[how]);
    add(&l, " ");
    il_fmt_i64(a, how == IL_HOW_SIGNAL ? sig : status);
    add(&l, a);
    add(&l, ", backend ");
    add(&l, il_backend_name(il.backend));
    add(&l, "):\n\n");
    for (int i = 0; i < il.nev; i++) {
        struct il_event *e = &il.ev[i];
        if (e->ok) {
            grouped(e->value, a);
            add_pad(&l, a, 20);
        } else {
            add_pad(&l, "<not counted>", 20);
        }
        add(&l, "      ");
        add(&l, e->name);
        for (size_t k = strlen(e->name); k < 24; k++)
            add(&l, " ");
        if (e->ok && e->floor_ok) {
            add(&l, "   # floor ");
            grouped(e->floor, b);
            add(&l, b);
        }
        if (e->ok && e->running < e->enabled)
            add(&l, "   (multiplexed)");
        if (!e->ok) {
            add(&l, "   # ");
            add(&l, e->error);
        }
        add(&l, "\n");
    }
    add(&l, "\n");
    add_seconds(&l, il_ts_ns(&il.t0, &il.t1), " seconds time elapsed\n");
    add_seconds(&l, il_tv_ns(&il.ru1.ru_utime) - il_tv_ns(&il.ru0.ru_utime), " seconds user\n");
    add_seconds(&l, il_tv_ns(&il.ru1.ru_stime) - il_tv_ns(&il.ru0.ru_stime), " seconds sys\n");
    add(&l, "\n  setup: env ");
    add_num(&l, il.env_bytes);
    add(&l, " bytes, main_sp ");
    il_fmt_hex(a, il.main_sp);
    add(&l, a);
    add(&l, il.stack_pinned ? " (pinned)" : "");
    add(&l, ", stack offset ");
    add_num(&l, il.stack_offset);
    add(&l, ", heap offset ");
    add_num(&l, il.heap_offset);
    add(&l, il.aslr ? ", ASLR on\n\n" : ", ASLR off\n\n");
    il_write_all(il_stderr_fd(), l.b, l.n);
}

/*
 * After the record is written: when the image interloper run exec'd ends
 * (not by exec), print the summary if asked and remove the spec and its
 * directory.  Async-signal-safe.
 */
void
il_run_end(enum il_how how, int status, int sig, int measured)
{
    if (!R.loaded || getpid() != R.pid || how == IL_HOW_EXEC)
        return;
    if (R.summary && measured)
        summary(how, status, sig);
    unlink(il.cfg.run_spec);
    char dir[IL_PATH_MAX];
    il_strlcpy(dir, il.cfg.run_spec, sizeof dir);
    char *slash = strrchr(dir, '/');
    if (slash && slash != dir) {
        *slash = 0;
        rmdir(dir);
    }
}
