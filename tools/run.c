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

enum {
    O_ENV_SIZE = 1,
    O_ENV_ADD,
    O_STACK_OFFSET,
    O_STACK_PIN,
    O_HEAP_OFFSET,
    O_RANDOMIZE,
    O_PASS,
    O_REPS
};

static const struct il_opt opts[] = {
    {.head = "environment"},
    {"env-size", 0, IL_OPT_VALUE, "N", "the whole environment is exactly N bytes (padded)",
     O_ENV_SIZE},
    {"env-add", 0, IL_OPT_VALUE, "N", "add N bytes to the environment as it is", O_ENV_ADD},
    {.head = "layout"},
    {"stack-offset", 0, IL_OPT_VALUE, "N", "main's frame N bytes lower (a multiple of 16)",
     O_STACK_OFFSET},
    {"stack-pin", 0, IL_OPT_MAYBE, "ADDR",
     "main's frame at a fixed address (auto by default; ADDR\n"
     "is taken when it is auto or 0x..., or --stack-pin=ADDR)",
     O_STACK_PIN, 0, il_is_pin_word},
    {"heap-offset", 0, IL_OPT_VALUE, "N", "the heap starts N bytes later", O_HEAP_OFFSET},
    {"aslr", 0, IL_OPT_VALUE, "off|on", "address-space randomisation (default: off)", IL_O_ASLR},
    {.head = "setups drawn per invocation (a harness's iterations)"},
    {"randomize", 0, IL_OPT_VALUE, "SEED",
     "draw the environment pad from SEED, the bench label and\n"
     "the pass (0 to 4080 bytes in 16-byte steps), and label\n"
     "the records pass, rep, plan and seed",
     O_RANDOMIZE},
    {"pass", 0, IL_OPT_VALUE, "N",
     "this invocation's pass, 0, 1, ... (default: counted per\n"
     "command in FILE.passes beside the results file; remove it\n"
     "with the results file to start over)",
     O_PASS},
    {"reps", 'r', IL_OPT_VALUE, "R",
     "with --randomize, R passes in a row share a setup (default 1)", O_REPS},
    {.head = "measurement"},
    {.incl = il_setup_opts},
    {"output", 'o', IL_OPT_VALUE, "FILE", "results file, appended to (default ./interloper.jsonl)",
     IL_O_OUTPUT},
    {"strict", 0, IL_OPT_FLAG, NULL, "any setup problem stops PROG before main (status 127)",
     IL_O_STRICT},
    {"no-strict", 0, IL_OPT_FLAG, NULL, "undo --strict (the default here; sweep is strict)",
     IL_O_NO_STRICT},
    {"quiet", 'q', IL_OPT_FLAG, NULL, "no summary and no warnings from the library on stderr",
     IL_O_QUIET},
    {"dry-run", 'n', IL_OPT_FLAG, NULL, "print the environment and the command, run nothing",
     IL_O_DRY},
    {0},
};

static const struct il_cmd cmd = {
    .name = ME,
    .synopsis = "[options] [--] PROG [ARGS...]",
    .about = "Run PROG once, in place (same pid, its own exit status), with the setup\n"
             "under control, and append its records, labelled, to the results file.",
    .more = "Byte counts: decimal, 0x hex, or a k/m/g suffix, as the library reads them.\n"
            "The records are labelled bench=PROG's file name, setup=ID, the id interloper\n"
            "sweep gives the same setup (e<pad>, -s<stack offset>, -h<heap offset>, ...),\n"
            "and with the factors given (env_add, stack_offset, heap_offset, pin, cpus);\n"
            "--label overrides them.",
    .man = "interloper-run(1)",
    .opts = opts,
};

/* What the options say: the setup and how to run. */
struct run {
    struct il_common c;
    const char *v_seed, *v_pass; /* --randomize, --pass as given */
    struct il_draw draw;
    unsigned long pass;
    unsigned rep;
    char plan[16];
    const char *v_size, *v_add, *v_stack, *v_heap; /* as given, NULL when not */
    unsigned long long env_size, env_add, stack_offset, heap_offset;
    enum il_pinmode pin;
    uintptr_t pin_addr;
    char first[256]; /* the AddressSanitizer runtime, if the program needs it first */
};

/* The options into R; the index of the program's word. */
static int
parse(struct run *r, int argc, char **argv)
{
    struct il_optp p;
    const struct il_opt *o;
    il_opt_init(&p, &cmd, argc, argv);
    il_common_init(&r->c);
    while ((o = il_opt_next(&p))) {
        if (il_common_option(&p, &r->c))
            continue;
        switch (o->id) {
        case O_ENV_SIZE:
            r->env_size = il_arg_env_bytes(&p, r->v_size = p.val);
            break;
        case O_ENV_ADD:
            r->env_add = il_arg_env_add(&p, r->v_add = p.val);
            break;
        case O_STACK_OFFSET:
            r->stack_offset = il_arg_stack_offset(&p, r->v_stack = p.val);
            break;
        case O_HEAP_OFFSET:
            r->heap_offset = il_arg_heap_offset(&p, r->v_heap = p.val);
            break;
        case O_STACK_PIN:
            /* the address is optional: taken only when it looks like one */
            r->pin = il_arg_pin(&p, p.val, &r->pin_addr);
            break;
        case O_RANDOMIZE:
            r->draw.seed = (uint32_t)il_arg_count(&p, r->v_seed = p.val, 0, 4294967295ULL);
            break;
        case O_PASS:
            r->pass = (unsigned long)il_arg_count(&p, r->v_pass = p.val, 0, 1ULL << 40);
            break;
        case O_REPS:
            r->draw.reps = (unsigned)il_arg_count(&p, p.val, 1, 65535);
            break;
        }
    }
    if (p.i >= argc)
        errx(1, "no program given; expected interloper run [options] -- PROG [ARGS...]");
    if (r->v_size && r->v_add)
        errx(1, "--env-size and --env-add do not go together; choose one");
    il_common_check(&r->c);
    if (r->v_seed && (r->v_size || r->v_add))
        errx(1, "--randomize draws the environment pad, so it does not go with %s",
             r->v_size ? "--env-size" : "--env-add");
    if (!r->v_seed && (r->v_pass || r->draw.reps))
        errx(1, "%s numbers the passes of --randomize; add --randomize SEED",
             r->v_pass ? "--pass" : "--reps");
    if (r->v_seed && r->c.aslr)
        errx(1, "--randomize draws setups, which --aslr on would make differ in every run; "
                "choose one");
    return p.i;
}

/* PROG as exec will run it, checked: a path, or the first executable file
 * of that name in PATH (not a shell builtin: `true` is /usr/bin/true). */
static char *
program(const char *prog, char *first, size_t firstsz)
{
    char *path = il_find_program(prog);
    struct stat st;
    /* a shell's statuses: 127 not found, 126 found but not executable */
    if (!path)
        errx(127, "%s: not found in PATH", prog);
    if (stat(path, &st) < 0) {
        if (errno == ENOENT || errno == ENOTDIR)
            errx(127, "%s: no such file", prog);
        err(126, "%s", prog);
    }
    if (!S_ISREG(st.st_mode))
        errx(126, "%s: not a program file (%s)", prog,
             S_ISDIR(st.st_mode) ? "a directory" : "not a regular file");
    const char *nx = il_not_executable(path);
    if (nx)
        errx(126, "%s: not executable: %s", prog, nx);
    int warn;
    const char *why = il_preloadable(path, &warn, first, firstsz);
    if (why) {
        fprintf(stderr, "interloper: LD_PRELOAD cannot apply to %s (%s)\n", prog, why);
        exit(1);
    }
    if (warn)
        warnx("warning: %s does not start through __libc_start_main; its record will say that "
              "nothing was measured",
              prog);
    return path;
}

/* The results file, absolute (the program may chdir) and writable. */
static char *
results(const struct il_common *c)
{
    const char *output = c->output ? c->output : IL_DEFAULT_OUTPUT;
    char *abs_out = (char *)output;
    if (strcmp(output, "-") && output[0] != '/') {
        char cwd[IL_PATH_MAX];
        if (!getcwd(cwd, sizeof cwd))
            err(1, "cannot tell the current directory");
        abs_out = il_xasprintf("%s/%s", cwd, !strncmp(output, "./", 2) ? output + 2 : output);
    }
    if (strcmp(abs_out, "-")) {
        il_check_writable("--output", abs_out);
        if (strlen(abs_out) >= IL_PATH_MAX - 32)
            errx(1, "--output %s: too long a path", abs_out);
    }
    return abs_out;
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

/* The labels as a JSON object, with the setup's id derived from its
 * factor values; PROG as given. */
static char *
labels(const struct run *r, const char *prog)
{
    const struct il_common *c = &r->c;
    char setup[256], token[16], num[32];
    struct il_factors f = {0};
    f.env_exact = r->v_size != NULL;
    f.env = r->v_size ? r->env_size : r->env_add;
    f.layout = il_label_get(c, IL_L_LAYOUT);
    f.stack_offset = r->stack_offset;
    f.heap_offset = r->heap_offset;
    if (c->aslr) {
        uint32_t t = 0;
        if (getrandom(&t, sizeof t, 0) != sizeof t)
            t = (uint32_t)getpid() ^ (uint32_t)time(NULL);
        snprintf(token, sizeof token, "%08x", t);
        f.aslr_token = token;
    }
    il_setup_id(&f, setup, sizeof setup);
    struct il_buf lab = {0};
    il_buf_str(&lab, "{");
    for (size_t i = 0; i < c->nlabels; i++)
        add_label(&lab, c, c->labels[i].key, c->labels[i].value, 0);
    /* the bench label, as interloper sweep gives it: the program's file
     * name (a harness that runs many programs through interloper run
     * gets records that report --by bench tells apart) */
    add_label(&lab, c, IL_L_BENCH, strrchr(prog, '/') ? strrchr(prog, '/') + 1 : prog, 1);
    add_label(&lab, c, IL_L_SETUP, setup, 1);
    const struct {
        const char *given, *key;
        unsigned long long value;
    } factors[] = {{r->v_add, IL_L_ENV_ADD, r->env_add},
                   {r->v_stack, IL_L_STACK_OFFSET, r->stack_offset},
                   {r->v_heap, IL_L_HEAP_OFFSET, r->heap_offset}};
    for (size_t i = 0; i < sizeof factors / sizeof factors[0]; i++) {
        if (!factors[i].given)
            continue;
        snprintf(num, sizeof num, "%llu", factors[i].value);
        add_label(&lab, c, factors[i].key, num, 1);
    }
    if (r->pin != IL_PINMODE_NONE)
        add_label(&lab, c, IL_L_PIN, "on", 1);
    if (c->have_cpus)
        add_label(&lab, c, IL_L_CPUS, c->cpus_text, 1);
    if (r->v_seed) {
        snprintf(num, sizeof num, "%lu", r->pass);
        add_label(&lab, c, IL_L_PASS, num, 1);
        snprintf(num, sizeof num, "%u", r->rep);
        add_label(&lab, c, IL_L_REP, num, 1);
        add_label(&lab, c, IL_L_PLAN, r->plan, 1);
        snprintf(num, sizeof num, "%u", r->draw.seed);
        add_label(&lab, c, IL_L_SEED, num, 1);
    }
    il_buf_str(&lab, "}");
    return lab.p;
}

/* --randomize: this invocation's pass (--pass, or counted beside the
 * results file per command: its labels, directory and argument vector),
 * and the setup drawn for it. */
static void
draw(struct run *r, const char *abs_out, char **pargv)
{
    struct il_common *c = &r->c;
    const char *prog = pargv[0], *bench = il_label_get(c, IL_L_BENCH);
    if (!bench)
        bench = strrchr(prog, '/') ? strrchr(prog, '/') + 1 : prog;
    r->draw.reps = r->draw.reps ? r->draw.reps : 1;
    r->draw.env = il_env_pads();
    r->draw.nenv = IL_ENV_PADS;
    il_draw_plan_id(&r->draw, r->plan);
    if (!r->v_pass) {
        if (!strcmp(abs_out, "-"))
            errx(1, "--randomize with --output -: the passes are counted beside the results "
                    "file; give the pass with --pass N");
        struct il_buf key = {0};
        char cwd[IL_PATH_MAX];
        if (!getcwd(cwd, sizeof cwd))
            err(1, "cannot tell the current directory");
        il_buf_printf(&key, "%s", cwd);
        for (size_t k = 0; k < c->nlabels; k++)
            il_buf_printf(&key, "\x1f%s=%s", c->labels[k].key, c->labels[k].value);
        for (char **w = pargv; *w; w++)
            il_buf_printf(&key, "\x1f%s", *w);
        char hex[65];
        il_sha256_hex(key.p, key.n, hex);
        r->pass = il_draw_next_pass(abs_out, hex, c->dry);
        il_buf_free(&key);
    }
    il_draw_setup(&r->draw, bench, r->pass, &r->env_add, &r->rep);
    r->v_add = "drawn";
}

/* The environment, the pad last: exactly --env-size bytes, or --env-add
 * more than it would be. */
static void
environment(const struct run *r, const char *lib, struct il_spec *spec, struct il_env *env,
            struct il_slots *slots)
{
    const struct il_common *c = &r->c;
    if (!c->dry)
        il_spec_clean_stale();
    il_spec_file(spec, c->dry, c->quiet);
    il_env_build(env, slots, c, lib, r->first, spec->path, IL_PAD_MAX, 0);
    slots->stack_text = r->v_stack;
    slots->heap_text = r->v_heap;
    /* -q: no warnings from the library either, through the spec, not the
     * program's environment */
    if (c->quiet)
        slots->fixed = il_xasprintf("%s" IL_RUN_SET " " IL_V_QUIET "=1\n", slots->fixed);
    il_env_setup(slots, r->stack_offset, r->heap_offset, r->pin, r->pin_addr, 0);
    size_t base = il_env_bytes(env), pad = (size_t)r->env_add;
    if (r->v_size) {
        if (r->env_size < base) {
            if (!c->dry)
                il_spec_remove(spec);
            errx(1,
                 "--env-size %llu: below the minimum reachable, %zu bytes (this environment "
                 "with an empty pad)",
                 r->env_size, base);
        }
        pad = (size_t)(r->env_size - base);
    }
    if (pad > IL_PAD_MAX) {
        if (!c->dry)
            il_spec_remove(spec);
        if (r->v_size)
            errx(1,
                 "--env-size %llu: the pad would be %zu bytes, above the kernel's limit of %zu "
                 "for one variable; expected at most %zu",
                 r->env_size, pad, (size_t)IL_PAD_MAX, base + IL_PAD_MAX);
        errx(1, "--env-add %llu: above the kernel's limit of %zu bytes for one variable",
             r->env_add, (size_t)IL_PAD_MAX);
    }
    il_env_setup(slots, r->stack_offset, r->heap_offset, r->pin, r->pin_addr, pad);
}

/*
 * --randomize: every pass must fit exec's limit with the largest pad it
 * could draw, checked on each, so that a near-limit environment is
 * refused on the first pass in one line, not with E2BIG on the passes
 * that draw large pads only (outside14 F12: a harness saw one benchmark
 * fail on one pass).  The strings (the file exec'd, the arguments, the
 * environment) and a pointer to each count, as sweep's check counts them.
 */
static void
exec_room(const struct run *r, const struct il_env *env, char **pargv, const char *path,
          struct il_spec *spec)
{
    unsigned long long padmax = 0;
    for (size_t k = 0; k < r->draw.nenv; k++)
        padmax = r->draw.env[k] > padmax ? r->draw.env[k] : padmax;
    size_t argb = strlen(path) + 1, n = 0;
    for (char **w = pargv; *w; w++, n++)
        argb += strlen(*w) + 1;
    size_t envb = il_env_bytes(env) - (size_t)r->env_add + (size_t)padmax;
    size_t need = envb + argb + (n + env->n) * sizeof(char *), lim = il_exec_limit();
    if (need <= lim)
        return;
    if (!r->c.dry)
        il_spec_remove(spec);
    errx(1,
         "the environment (%zu bytes in %zu variables with %llu bytes of pad, the largest "
         "--randomize draws) and the arguments of %s (%zu bytes) need %zu bytes, above exec's "
         "limit of %zu (a quarter of ulimit -s): the passes that draw large pads would fail "
         "with E2BIG; clear the environment (--env-clean [--keep NAME]) or raise ulimit -s",
         envb, env->n, padmax, pargv[0], argb, need, lim);
}

/* -n: the environment, the argument vector as exec'd (what goes after --
 * to run it again), the file exec'd, the size and the labels. */
static int
print_dry(const struct il_env *env, const struct il_slots *slots, char **pargv, const char *path,
          const char *lab)
{
    struct il_buf b = {0};
    for (size_t k = 0; k < env->n; k++)
        il_buf_printf(&b, "%s\n", env->v[k]);
    /* the settings, which travel in the spec ("set INTERLOPER_X=value") */
    il_buf_printf(&b, "%s%s", slots->fixed ? slots->fixed : "", slots->setup);
    /* the argument vector as exec'd (what goes after -- to run it
     * again), then the file exec'd */
    il_buf_str(&b, "--");
    for (char **w = pargv; *w; w++) {
        il_buf_str(&b, " ");
        il_buf_word(&b, *w);
    }
    il_buf_str(&b, "\nexec ");
    il_buf_word(&b, path);
    il_buf_printf(&b, "\nenv_bytes %zu\nlabels %s\n", il_env_bytes(env), lab);
    fputs(b.p, stdout);
    return 0;
}

/* Is the file one a shell would run as a script when the kernel cannot:
 * not an ELF file (of another machine), and no NUL in its first line
 * (bash's test of a binary file; review14c LOW)? */
static int
shell_text(const char *path)
{
    unsigned char b[128];
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    ssize_t n = fd < 0 ? -1 : read(fd, b, sizeof b);
    if (fd >= 0)
        close(fd);
    if (n < 0 || (n >= 4 && !memcmp(b, "\177ELF", 4)))
        return 0;
    for (ssize_t i = 0; i < n && b[i] != '\n'; i++)
        if (!b[i])
            return 0;
    return 1;
}

int
main(int argc, char **argv)
{
    struct run r = {0};
    int i = parse(&r, argc, argv);
    const struct il_common *c = &r.c;
    char *path = program(argv[i], r.first, sizeof r.first);
    const char *lib = il_find_library();
    if (!lib)
        errx(1, "libinterloper.so not found; build it with make, or set INTERLOPER_LIBRARY");
    char *abs_out = results(c);
    if (r.v_seed)
        draw(&r, abs_out, &argv[i]);
    char *lab = labels(&r, argv[i]);
    /* before the spec is made: a refusal leaves nothing behind (review12a:
     * an --aslr error left the spec until the next run) */
    if (!c->dry)
        il_set_aslr(ME, c->aslr);
    struct il_spec spec;
    struct il_env env;
    struct il_slots slots;
    environment(&r, lib, &spec, &env, &slots);
    char **pargv = &argv[i];
    if (r.v_seed)
        exec_room(&r, &env, pargv, path, &spec);
    if (c->dry)
        return print_dry(&env, &slots, pargv, path, lab);
    if (il_spec_write(&spec, (long)getpid(), abs_out, !c->quiet, lab, &slots) < 0) {
        int e = errno;
        il_spec_remove(&spec);
        errno = e;
        err(1, "cannot write the run spec %s", spec.path);
    }
    if (c->have_cpus && sched_setaffinity(0, sizeof c->cpus, &c->cpus) < 0) {
        int e = errno;
        il_spec_remove(&spec);
        errno = e;
        err(1, "--cpu %s: cannot run there", c->cpus_text);
    }
    execve(path, pargv, env.v);
    int e = errno;
    if (e == ENOEXEC && shell_text(path)) {
        /* a file the kernel cannot run (a script without #!): the shell
         * runs it, as execvp(3) and the shells do (outside14 F5: a
         * harness's passing test failed under the prefix) */
        int n = 0;
        while (pargv[n])
            n++;
        char **shv = il_xcalloc((size_t)n + 2, sizeof *shv);
        shv[0] = (char *)"/bin/sh";
        shv[1] = path;
        for (int k = 1; k < n; k++)
            shv[k + 1] = pargv[k];
        execve("/bin/sh", shv, env.v);
    }
    il_spec_remove(&spec);
    errno = e;
    err(e == ENOENT ? 127 : 126, "cannot execute %s", path);
}
