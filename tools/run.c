/*
 * interloper run: run a program once, in place, under a controlled setup.
 *
 * The setup factors are those Mytkowicz et al. found to bias results
 * ("Producing Wrong Data Without Doing Anything Obviously Wrong!",
 * ASPLOS'09): the size of the environment (section 4.2), the stack start
 * (the causal-analysis intervention of section 7.2: pin it), the heap
 * start, and ASLR, which section 3.3 turns off to make runs repeatable.
 *
 * The program is exec'd in place: its pid is the one this command started
 * with, and its exit status or signal is its own (SPEC's submit relies on
 * it).  So no driver is left to label the record afterwards: the labels go
 * to the library in the run spec (DESIGN.md, "Labels"), which removes the
 * spec when the program ends.  The per-run path starts no shell and no
 * helper program.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "il_tools.h"

#define ME "interloper run"

static void
usage(FILE *f)
{
    fputs("usage: interloper run [options] [--] PROG [ARGS...]\n"
          "\n"
          "Run PROG once, in place (same pid, its own exit status), with the setup\n"
          "under control, and append its records, labelled, to the results file.\n"
          "\n"
          "environment:\n"
          "  --env-size N        the whole environment is exactly N bytes (padded)\n"
          "  --env-add N         add N bytes to the environment as it is\n"
          "  --env-clean         start from a minimal environment: PATH and HOME only\n"
          "  --keep NAME         with --env-clean, keep NAME too (repeatable)\n"
          "byte counts: decimal, 0x hex, or a k/m/g suffix, as the library reads them\n"
          "layout:\n"
          "  --stack-offset N    main's frame N bytes lower (a multiple of 16)\n"
          "  --stack-pin [ADDR]  main's frame at a fixed address (auto by default; ADDR\n"
          "                      is taken when it is auto or 0x..., or --stack-pin=ADDR)\n"
          "  --heap-offset N     the heap starts N bytes later\n"
          "  --aslr off|on       address-space randomisation (default: off)\n"
          "  --cpu LIST          run on these CPUs only, e.g. 2 or 0-3,6\n"
          "measurement:\n"
          "  --events LIST       events (INTERLOPER_EVENTS), e.g. cycles,instructions\n"
          "  --backend B         auto, perf, papi or none\n"
          "  --output FILE       results file, appended to (default ./interloper.jsonl)\n"
          "  --label KEY=VALUE   label the records (repeatable); never passed to PROG\n"
          "  --strict            any setup problem stops PROG before main (status 127)\n"
          "  --no-strict         undo --strict (the default here; sweep is strict)\n"
          "  -q, --quiet         no summary on stderr\n"
          "  -n, --dry-run       print the environment and the command, run nothing\n"
          "  -h, --help          this text\n"
          "\n"
          "The records are labelled bench=PROG's file name, setup=ID, the id interloper\n"
          "sweep gives the same setup (e<pad>, -s<stack offset>, -h<heap offset>, ...),\n"
          "and with the factors given (env_add, stack_offset, heap_offset, pin, cpus);\n"
          "--label overrides them.\n"
          "See interloper-run(1).\n",
          f);
}

/* labels: the user's first, in their order, then ours unless overridden */
static void
add_label(struct il_buf *b, const struct il_common *c, const char *key, const char *value, int ours)
{
    if (ours && il_label_get(c, key))
        return;
    il_buf_str(b, b->n > 1 ? "," : "");
    il_buf_json(b, key);
    il_buf_str(b, ":");
    il_buf_json(b, value);
}

int
main(int argc, char **argv)
{
    program_invocation_short_name = (char *)ME; /* err(3) says "interloper run: " */
    struct il_args a;
    struct il_common c;
    il_args_init(&a, ME, argc, argv);
    il_common_init(&c);
    const char *o, *v_size = NULL, *v_add = NULL, *v_stack = NULL, *v_heap = NULL;
    unsigned long long env_size = 0, env_add = 0, stack_offset = 0, heap_offset = 0;
    enum il_pinmode pin = IL_PINMODE_NONE;
    uintptr_t pin_addr = 0;

    while ((o = il_args_next(&a))) {
        if (il_common_option(&a, &c))
            continue;
        if (!strcmp(o, "--env-size")) {
            v_size = il_args_value(&a);
            env_size = il_opt_env_bytes(&a, v_size);
        } else if (!strcmp(o, "--env-add")) {
            v_add = il_args_value(&a);
            env_add = il_opt_env_bytes(&a, v_add);
        } else if (!strcmp(o, "--stack-offset")) {
            v_stack = il_args_value(&a);
            stack_offset = il_opt_stack_offset(&a, v_stack);
        } else if (!strcmp(o, "--heap-offset")) {
            v_heap = il_args_value(&a);
            heap_offset = il_opt_heap_offset(&a, v_heap);
        } else if (!strcmp(o, "--stack-pin")) {
            /* the address is optional: taken only when it looks like one */
            pin = il_opt_pin(&a, il_args_optional(&a, il_is_pin_word), &pin_addr);
        } else if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
            usage(stdout);
            return 0;
        } else {
            errx(1, "unknown option '%s'; see interloper run --help", o);
        }
    }
    if (a.i >= argc)
        errx(1, "no program given; expected interloper run [options] -- PROG [ARGS...]");
    if (v_size && v_add)
        errx(1, "--env-size and --env-add do not go together; choose one");
    if (c.nkeep && !c.env_clean)
        errx(1, "--keep only matters with --env-clean; add --env-clean or drop --keep");

    /* the program: a path, or the first executable file of that name in
     * PATH (not a shell builtin: `true` is /usr/bin/true) */
    const char *prog = argv[a.i];
    char *path = il_find_program(prog);
    struct stat st;
    if (!path)
        errx(1, "%s: not found in PATH", prog);
    if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))
        errx(1, "%s: not a program file", prog);
    if (access(path, X_OK) < 0)
        errx(1, "%s: not executable", prog);
    int warn;
    char first[256]; /* the AddressSanitizer runtime, if it needs it first */
    const char *why = il_preloadable(path, &warn, first, sizeof first);
    if (why) {
        fprintf(stderr, "interloper: LD_PRELOAD cannot apply to %s (%s)\n", prog, why);
        return 1;
    }
    if (warn)
        warnx("warning: %s does not start through __libc_start_main; its record will say that "
              "nothing was measured",
              prog);
    const char *lib = il_find_library();
    if (!lib)
        errx(1, "libinterloper.so not found; build it with make, or set INTERLOPER_LIBRARY");

    /* the results file: absolute, since the program may chdir */
    const char *output = c.output ? c.output : IL_DEFAULT_OUTPUT;
    char *abs_out = (char *)output;
    if (strcmp(output, "-") && output[0] != '/') {
        char cwd[IL_PATH_MAX];
        if (!getcwd(cwd, sizeof cwd))
            err(1, "cannot tell the current directory");
        abs_out = il_xasprintf("%s/%s", cwd, !strncmp(output, "./", 2) ? output + 2 : output);
    }
    if (strcmp(abs_out, "-")) {
        char *dir = il_xstrdup(abs_out);
        *strrchr(dir, '/') = 0;
        if (access(*dir ? dir : "/", W_OK) < 0)
            errx(1, "--output %s: the directory %s is missing or not writable", abs_out,
                 *dir ? dir : "/");
        if (access(abs_out, F_OK) == 0 && access(abs_out, W_OK) < 0)
            errx(1, "--output %s: not writable", abs_out);
        if (strlen(abs_out) >= IL_PATH_MAX - 32)
            errx(1, "--output %s: too long a path", abs_out);
    }

    /* the labels, with the setup's id derived from its factor values */
    char setup[256], token[16], num[32];
    struct il_factors f = {0};
    f.env_exact = v_size != NULL;
    f.env = v_size ? env_size : env_add;
    f.layout = il_label_get(&c, IL_L_LAYOUT);
    f.stack_offset = stack_offset;
    f.heap_offset = heap_offset;
    if (c.aslr) {
        uint32_t r = 0;
        if (getrandom(&r, sizeof r, 0) != sizeof r)
            r = (uint32_t)getpid() ^ (uint32_t)time(NULL);
        snprintf(token, sizeof token, "%08x", r);
        f.aslr_token = token;
    }
    il_setup_id(&f, setup, sizeof setup);
    struct il_buf lab = {0};
    il_buf_str(&lab, "{");
    for (size_t i = 0; i < c.nlabels; i++)
        add_label(&lab, &c, c.labels[i].key, c.labels[i].value, 0);
    /* the bench label, as interloper sweep gives it: the program's file
     * name (a harness that runs many programs through interloper run
     * gets records that report --by bench tells apart) */
    add_label(&lab, &c, IL_L_BENCH, strrchr(prog, '/') ? strrchr(prog, '/') + 1 : prog, 1);
    add_label(&lab, &c, IL_L_SETUP, setup, 1);
    const struct {
        const char *given, *key;
        unsigned long long value;
    } factors[] = {{v_add, IL_L_ENV_ADD, env_add},
                   {v_stack, IL_L_STACK_OFFSET, stack_offset},
                   {v_heap, IL_L_HEAP_OFFSET, heap_offset}};
    for (size_t i = 0; i < sizeof factors / sizeof factors[0]; i++) {
        if (!factors[i].given)
            continue;
        snprintf(num, sizeof num, "%llu", factors[i].value);
        add_label(&lab, &c, factors[i].key, num, 1);
    }
    if (pin != IL_PINMODE_NONE)
        add_label(&lab, &c, IL_L_PIN, "on", 1);
    if (c.have_cpus)
        add_label(&lab, &c, IL_L_CPUS, c.cpus_text, 1);
    il_buf_str(&lab, "}");

    /* the environment; the pad last */
    struct il_spec spec;
    struct il_env env;
    struct il_slots slots;
    if (!c.dry)
        il_spec_clean_stale();
    il_spec_dir(&spec, ME, c.dry);
    il_env_build(&env, &slots, &c, lib, first, spec.path, IL_PAD_MAX, 0);
    il_env_setup(&slots, stack_offset, heap_offset, pin, pin_addr, 0);
    size_t base = il_env_bytes(&env), pad = (size_t)env_add;
    if (v_size) {
        if (env_size < base) {
            if (!c.dry)
                il_spec_remove(&spec);
            errx(1,
                 "--env-size %llu: below the minimum reachable, %zu bytes (this environment "
                 "with an empty pad)",
                 env_size, base);
        }
        pad = (size_t)(env_size - base);
    }
    if (pad > IL_PAD_MAX) {
        if (!c.dry)
            il_spec_remove(&spec);
        if (v_size)
            errx(1,
                 "--env-size %llu: the pad would be %zu bytes, above the kernel's limit of %zu "
                 "for one variable; expected at most %zu",
                 env_size, pad, (size_t)IL_PAD_MAX, base + IL_PAD_MAX);
        errx(1, "--env-add %llu: above the kernel's limit of %zu bytes for one variable", env_add,
             (size_t)IL_PAD_MAX);
    }
    il_env_setup(&slots, stack_offset, heap_offset, pin, pin_addr, pad);
    char **pargv = &argv[a.i];

    if (c.dry) {
        struct il_buf b = {0};
        for (size_t k = 0; k < env.n; k++)
            il_buf_printf(&b, "%s\n", env.v[k]);
        /* the argument vector as exec'd (what goes after -- to run it
         * again), then the file exec'd */
        il_buf_str(&b, "--");
        for (char **p = pargv; *p; p++) {
            il_buf_str(&b, " ");
            il_buf_word(&b, *p);
        }
        il_buf_str(&b, "\nexec ");
        il_buf_word(&b, path);
        il_buf_printf(&b, "\nenv_bytes %zu\nlabels %s\n", il_env_bytes(&env), lab.p);
        fputs(b.p, stdout);
        return 0;
    }

    if (il_spec_write(&spec, (long)getpid(), abs_out, !c.quiet, lab.p) < 0) {
        int e = errno;
        il_spec_remove(&spec);
        errno = e;
        err(1, "cannot write the run spec %s", spec.path);
    }
    il_set_aslr(ME, c.aslr);
    if (c.have_cpus && sched_setaffinity(0, sizeof c.cpus, &c.cpus) < 0) {
        int e = errno;
        il_spec_remove(&spec);
        errno = e;
        err(1, "--cpu %s: cannot run there", c.cpus_text);
    }
    execve(path, pargv, env.v);
    int e = errno;
    il_spec_remove(&spec);
    errno = e;
    err(e == ENOENT ? 127 : 126, "cannot execute %s", path);
}
