/*
 * interloper-exec: the exact part of interloper run, which sh cannot do
 * exactly: build the environment byte for byte, set the ASLR personality
 * and check it took, write the run spec, and exec the program in place.
 *
 *   interloper-exec [--aslr on|off|keep] [--env-clean] [--keep NAME]...
 *                   [--env-size N | --env-add N] [--preload LIB]
 *                   [--set NAME=VALUE]... [--label KEY=VALUE]...
 *                   [--output FILE] [--summary] [--dry-run]
 *                   -- PATH ARGV0 [ARGS...]
 *
 * The environment is the one this process received (or, with
 * --env-clean, only the variables named by --keep), without any
 * INTERLOPER_ variable, plus --set, LD_PRELOAD with LIB in front, the spec
 * path (INTERLOPER_RUN) and the pad INTERLOPER_PAD, always present so that
 * setups differ only by the pad's length.  --env-size N makes the total
 * exactly N bytes (each string's length plus its terminator, as
 * setup.env_bytes counts them); --env-add N makes the pad N bytes long.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <unistd.h>

#define ME "interloper run"

static char **envv;
static size_t nenv, capenv;

static void
env_put(char *kv)
{
    const char *eq = strchr(kv, '=');
    size_t k = eq ? (size_t)(eq - kv) : strlen(kv);
    for (size_t i = 0; i < nenv; i++)
        if (!strncmp(envv[i], kv, k) && envv[i][k] == '=') {
            envv[i] = kv;
            return;
        }
    if (nenv + 2 > capenv) {
        capenv = capenv ? 2 * capenv : 64;
        envv = realloc(envv, capenv * sizeof *envv);
        if (!envv)
            err(1, "out of memory");
    }
    envv[nenv++] = kv;
    envv[nenv] = NULL;
}

static const char *
env_get(const char *name)
{
    size_t k = strlen(name);
    for (size_t i = 0; i < nenv; i++)
        if (!strncmp(envv[i], name, k) && envv[i][k] == '=')
            return envv[i] + k + 1;
    return NULL;
}

static char *
cat(const char *a, const char *b, const char *c)
{
    size_t n = strlen(a) + strlen(b) + strlen(c) + 1;
    char *s = malloc(n);
    if (!s)
        err(1, "out of memory");
    snprintf(s, n, "%s%s%s", a, b, c);
    return s;
}

static unsigned long long
number(const char *opt, const char *v)
{
    char *end;
    errno = 0;
    unsigned long long n = strtoull(v, &end, 10);
    if (!*v || *end || errno || v[0] == '-')
        errx(1, "%s %s: not a byte count; expected a decimal number", opt, v);
    return n;
}

static void
set_aslr(const char *mode)
{
    if (!strcmp(mode, "keep"))
        return;
    int cur = personality(0xffffffff);
    if (cur == -1)
        err(1, "--aslr %s: cannot read the personality", mode);
    int want = !strcmp(mode, "off") ? (cur | ADDR_NO_RANDOMIZE) : (cur & ~ADDR_NO_RANDOMIZE);
    if (personality((unsigned long)want) == -1 || personality(0xffffffff) != want)
        errx(1, "--aslr %s: the personality cannot be changed here (%s); refusing to run with "
                "ASLR %s",
             mode, strerror(errno ? errno : EPERM), !strcmp(mode, "off") ? "on" : "off");
    if (!strcmp(mode, "on")) {
        char b[8] = "2";
        int fd = open("/proc/sys/kernel/randomize_va_space", O_RDONLY);
        if (fd >= 0) {
            if (read(fd, b, sizeof b - 1) < 0)
                b[0] = '2';
            close(fd);
        }
        if (b[0] == '0')
            errx(1, "--aslr on: ASLR is disabled system-wide (kernel.randomize_va_space=0)");
    }
}

static void
cleanup(const char *dir)
{
    unlink(cat(dir, "/spec", ""));
    rmdir(dir);
}

static size_t
env_total(void)
{
    size_t t = 0;
    for (size_t i = 0; i < nenv; i++)
        t += strlen(envv[i]) + 1;
    return t;
}

int
main(int argc, char **argv)
{
    const char *aslr = "keep", *preload = NULL, *output = NULL;
    int clean = 0, summary = 0, dry = 0, have_size = 0, have_add = 0;
    unsigned long long size = 0, add = 0;
    char **keep = calloc((size_t)argc, sizeof *keep), **sets = calloc((size_t)argc, sizeof *sets);
    size_t nkeep = 0, nsets = 0;
    json_t *labels = json_object();
    int i = 1;
    program_invocation_short_name = (char *)ME; /* err(3) says "interloper run: " */

    for (; i < argc && strcmp(argv[i], "--"); i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int takes = 1;
        if (!strcmp(o, "--env-clean"))
            clean = 1, takes = 0;
        else if (!strcmp(o, "--summary"))
            summary = 1, takes = 0;
        else if (!strcmp(o, "--dry-run"))
            dry = 1, takes = 0;
        else if (!v)
            errx(1, "%s needs a value", o);
        else if (!strcmp(o, "--aslr"))
            aslr = v;
        else if (!strcmp(o, "--keep"))
            keep[nkeep++] = (char *)v;
        else if (!strcmp(o, "--env-size"))
            size = number(o, v), have_size = 1;
        else if (!strcmp(o, "--env-add"))
            add = number(o, v), have_add = 1;
        else if (!strcmp(o, "--preload"))
            preload = v;
        else if (!strcmp(o, "--set"))
            sets[nsets++] = (char *)v;
        else if (!strcmp(o, "--output"))
            output = v;
        else if (!strcmp(o, "--label")) {
            const char *eq = strchr(v, '=');
            if (!eq || eq == v)
                errx(1, "--label %s: expected KEY=VALUE", v);
            char *k = strndup(v, (size_t)(eq - v));
            json_object_set_new(labels, k, json_string(eq + 1));
            free(k);
        } else
            errx(1, "unknown option %s", o);
        i += takes;
    }
    if (i + 2 >= argc + 1 || i >= argc)
        errx(1, "usage: interloper-exec [options] -- PATH ARGV0 [ARGS...]");
    const char *path = argv[i + 1];
    char **pargv = &argv[i + 2];
    if (!path || !pargv[0])
        errx(1, "usage: interloper-exec [options] -- PATH ARGV0 [ARGS...]");
    if (strcmp(aslr, "on") && strcmp(aslr, "off") && strcmp(aslr, "keep"))
        errx(1, "--aslr %s: expected on or off", aslr);

    /* the program's own variables, in their order, without ours */
    extern char **environ;
    for (char **e = environ; *e; e++) {
        if (!strncmp(*e, "INTERLOPER_", 11))
            continue;
        if (clean) {
            int kept = 0;
            for (size_t k = 0; k < nkeep; k++) {
                size_t l = strlen(keep[k]);
                if (!strncmp(*e, keep[k], l) && (*e)[l] == '=')
                    kept = 1;
            }
            if (!kept)
                continue;
        }
        env_put(*e);
    }
    if (!envv) {
        capenv = 64;
        envv = calloc(capenv, sizeof *envv);
        if (!envv)
            err(1, "out of memory");
    }
    if (preload) {
        const char *old = env_get("LD_PRELOAD");
        env_put(old && *old ? cat("LD_PRELOAD=", preload, cat(":", old, ""))
                            : cat("LD_PRELOAD=", preload, ""));
    }
    for (size_t k = 0; k < nsets; k++) {
        if (!strchr(sets[k], '='))
            errx(1, "--set %s: expected NAME=VALUE", sets[k]);
        env_put(sets[k]);
    }

    /* the spec: a private directory whose path has a constant length */
    const char *tmp = getenv("TMPDIR");
    char *dir = cat(tmp && *tmp == '/' ? tmp : "/tmp", "/interloper-run.XXXXXXXX", "");
    if (!dry) {
        if (!mkdtemp(dir))
            err(1, "cannot make a directory for the run spec in %s", dir);
        char *spec = cat(dir, "/spec", "");
        FILE *f = fopen(spec, "w");
        if (!f)
            err(1, "cannot write %s", spec);
        char *lab = json_dumps(labels, JSON_COMPACT | JSON_SORT_KEYS);
        fprintf(f, "interloper-run/1\npid %ld\noutput %s\nsummary %d\nlabels %s\n",
                (long)getpid(), output ? output : "./interloper.jsonl", summary, lab);
        free(lab);
        if (fclose(f) != 0)
            err(1, "cannot write %s", spec);
        env_put(cat("INTERLOPER_RUN=", spec, ""));
    } else {
        env_put(cat("INTERLOPER_RUN=", dir, "/spec"));
    }

    /* the pad, last, so that it is all that differs between setups */
    size_t base = env_total() + strlen("INTERLOPER_PAD=") + 1;
    size_t padlen = 0;
    if (have_size) {
        if (size < base) {
            if (!dry)
                cleanup(dir);
            errx(1, "--env-size %llu: below the minimum reachable, %zu bytes (this environment "
                    "with an empty pad)",
                 size, base);
        }
        padlen = (size_t)(size - base);
    } else if (have_add) {
        padlen = (size_t)add;
    }
    /* the kernel takes no single string longer than MAX_ARG_STRLEN */
    size_t maxpad = 32 * 4096 - strlen("INTERLOPER_PAD=") - 1;
    if (padlen > maxpad) {
        if (!dry)
            cleanup(dir);
        if (have_size)
            errx(1, "--env-size %llu: the pad would be %zu bytes, above the kernel's limit of %zu "
                    "for one variable; expected at most %zu",
                 size, padlen, maxpad, base + maxpad);
        errx(1, "--env-add %llu: above the kernel's limit of %zu bytes for one variable", add,
             maxpad);
    }
    char *pad = malloc(strlen("INTERLOPER_PAD=") + padlen + 1);
    if (!pad)
        err(1, "out of memory");
    strcpy(pad, "INTERLOPER_PAD=");
    memset(pad + 15, 'x', padlen);
    pad[15 + padlen] = 0;
    env_put(pad);

    if (dry) {
        for (size_t k = 0; k < nenv; k++)
            printf("%s\n", envv[k]);
        printf("-- %s", path);
        for (char **a = pargv; *a; a++)
            printf(" %s", *a);
        printf("\nenv_bytes %zu\n", env_total());
        return 0;
    }

    set_aslr(aslr);
    execve(path, pargv, envv);
    int e = errno;
    cleanup(dir);
    errno = e;
    err(e == ENOENT ? 127 : 126, "cannot execute %s", path);
}
