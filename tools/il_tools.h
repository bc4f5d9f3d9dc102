/*
 * il_tools.h: what interloper run, sweep, record merge and hold share:
 * the setup's options, the launcher, the plan, results files; and, from
 * il_opt.h, il_util.h and il_sha256.h, what every C command shares
 * (common/).  Not used by the library, which allocates nothing before
 * main; these may allocate and exit on failure.
 */
#ifndef IL_TOOLS_H
#define IL_TOOLS_H

#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "il_opt.h"
#include "il_prng.h"
#include "il_sha256.h"
#include "il_util.h"
#include "interloper.h"

/* ------------------------------------------------------------ opts.c */
/* The options of a run's setup that interloper run and sweep share, parsed
 * once, by the library's own rules (il_config_parse, il_parse_size). */
#define IL_ENV_MAX (8ULL << 20) /* --env-size, --env-add */

enum il_pinmode { IL_PINMODE_NONE, IL_PINMODE_AUTO, IL_PINMODE_ADDR };

struct il_label {
    const char *key, *value;
};

struct il_common {
    int env_clean;
    const char **keep;
    size_t nkeep;
    const char *events, *backend;
    int strict;
    int strict_default; /* strict unless --no-strict (sweep, compare): the spec says so */
    int aslr; /* 0 off (the default), 1 on */
    int have_cpus;
    cpu_set_t cpus;
    char cpus_text[256]; /* the list, canonical: "0-1,3" */
    struct il_label *labels;
    size_t nlabels;
    const char *output; /* as given; NULL: the default */
    int quiet, dry;
};

/* The ids of the shared options (a command's own start at 1, sweep's at
 * IL_O_SWEEP_FIRST: interloper compare's table includes sweep's beside its
 * own, and an id both used meant compare's option to the switch: its
 * --stack-offset 64 wrote an export named 64, review11c).  The entries of
 * those whose help is the same for run and sweep are in il_setup_opts,
 * which both tables include; the others each command describes in its own
 * words, with these ids. */
enum {
    IL_O_SWEEP_FIRST = 200,
    IL_O_EVENTS = 100,
    IL_O_BACKEND,
    IL_O_ENV_CLEAN,
    IL_O_KEEP,
    IL_O_CPU,
    IL_O_LABEL,
    IL_O_OUTPUT,
    IL_O_QUIET,
    IL_O_DRY,
    IL_O_STRICT,
    IL_O_NO_STRICT,
    IL_O_ASLR,
};
extern const struct il_opt il_setup_opts[];

void il_common_init(struct il_common *c);
/* Handle a shared option (its id one of IL_O_*); 1 if it was one. */
int il_common_option(struct il_optp *p, struct il_common *c);
/* The shared options together, once all are parsed: exits with one line
 * on a combination that cannot be meant. */
void il_common_check(const struct il_common *c);
/* The variable VAR=VALUE by the library's parser: exits with the library's
 * message, given as "OPT VALUE: what", when it refuses it. */
void il_check_var(const struct il_optp *p, const char *var, const char *value,
                  struct il_config *cfg);
/* A byte count for --stack-offset (a multiple of 16), --heap-offset. */
unsigned long long il_arg_stack_offset(const struct il_optp *p, const char *v);
unsigned long long il_arg_heap_offset(const struct il_optp *p, const char *v);
/* --env-size, --env-add: a byte count up to IL_ENV_MAX. */
unsigned long long il_arg_env_bytes(const struct il_optp *p, const char *v);
/* --env-add: a pad, at most IL_PAD_MAX, the kernel's limit for one variable */
unsigned long long il_arg_env_add(const struct il_optp *p, const char *v);
/* A whole number from lo to hi, decimal; else "OPT V: expected ...". */
unsigned long long il_arg_count(const struct il_optp *p, const char *v, unsigned long long lo,
                                unsigned long long hi);
/* A time: seconds, or with an s, m or h suffix (90, 90s, 1.5m, 2h); above
 * 0 (or 0 too), at most max seconds; else "OPT V: expected". */
double il_arg_seconds(const struct il_optp *p, const char *v, int zero_ok, double max,
                      const char *expected);
/* The environment pads that put main's stack at each of its 256 16-byte
 * aligned places in a page, 0 to 4080 bytes (Mytkowicz et al., section
 * 4.2): interloper compare's setups and run --randomize's draws. */
#define IL_ENV_PADS 256
unsigned long long *il_env_pads(void);
/* --stack-pin's value: auto or an address. */
int il_is_pin_word(const char *v);
enum il_pinmode il_arg_pin(const struct il_optp *p, const char *v, uintptr_t *addr);
/* 1 if k is a valid label key (letters, digits, '_', '-', '.'). */
int il_label_key_ok(const char *k);
const char *il_label_get(const struct il_common *c, const char *key);

/* ------------------------------------------------------------ run_draw.c */
/* interloper run --randomize: setups drawn per invocation, for harnesses
 * that run each benchmark themselves.  The generator's words are part of
 * every such plan's id: never edited. */
#define IL_DRAW_GENERATOR                                                                          \
    "run --randomize 1: xoshiro128** seeded through fmix32, stream fnv1a(bench)"
struct il_draw {
    uint32_t seed;
    unsigned reps; /* passes in a row that share a setup */
    const unsigned long long *env;
    size_t nenv;
};
/* The plan's id: the same for every invocation of one seed, reps and list. */
void il_draw_plan_id(const struct il_draw *d, char id[16]);
/* Pass (0, 1, ...) of bench: its environment pad and repetition (1...). */
void il_draw_setup(const struct il_draw *d, const char *bench, unsigned long pass,
                   unsigned long long *env, unsigned *rep);
/* The next pass of the command key, counted in OUTPUT.passes under a lock
 * (dry: read, not counted). */
unsigned long il_draw_next_pass(const char *output, const char *key, int dry);

/* ------------------------------------------------------------ setupid.c */
/* The factor values of one setup, and its id (setupid.c says how the id
 * is made): the same for interloper run and sweep. */
struct il_factors {
    int env_exact;          /* env is an exact size, not a pad */
    unsigned long long env; /* the pad (env_add) or the size */
    const char *layout;     /* NULL: not a factor */
    unsigned long long stack_offset, heap_offset;
    const char *aslr_token; /* NULL: ASLR off */
};
void il_setup_id(const struct il_factors *f, char *out, size_t outsz);

/* ------------------------------------------------------------ sweep_plan.c */
/* A sweep's design: systems x setups x repetitions (interloper-sweep(1),
 * "The plan").  A setup is one cell of the product of the factor lists,
 * env x layout x stack offset x heap offset (in that nesting, the first
 * outermost); the pin, when it varies, doubles the systems instead. */
struct il_design {
    uint32_t seed;
    size_t nsys;
    const char **sys; /* names */
    size_t nenv, nlay, nstack, nheap;
    unsigned long long *env, *stack, *heap;
    const char **lay;  /* layout ids; nlay == 0: layouts are not a factor */
    const char **kind; /* each layout's kind (original, alphabetical, random) */
    int pin_factor;    /* pinned and unpinned runs, interleaved */
    int aslr;          /* ASLR on: every run is a setup of its own */
    size_t setups;     /* K, drawn from the product (the first batch with --until) */
    int fy_draw;       /* layouts sampled by the product's Fisher-Yates, not in
                        * cycles (a plan line of sweep order 1: sweep_plan.c) */
    unsigned reps, warmup;
};

/* One run of the plan. */
struct il_run {
    uint32_t setup; /* the setup's place in the draw */
    uint32_t block; /* the (repetition, setup) block, in plan order: the unit of shards */
    uint16_t cell;  /* system = cell % nsys; pinned when cell >= nsys */
    uint16_t rep;   /* the repetition, 1...; or the warm-up's number */
    uint8_t warm;
};

struct il_plan {
    const struct il_design *d;
    size_t n;       /* setups in the product */
    size_t ncell;   /* systems x pin values */
    uint32_t *draw; /* draw[i]: the product index of the i-th drawn setup */
    size_t drawn;
    int cycles;       /* the layouts drawn in cycles (sweep order 2) */
    uint32_t *pool;   /* with cycles: each layout's other factors, n / nlay each */
    uint32_t *perm;   /* with cycles: this cycle's order of the layouts */
    struct il_rng *g; /* stream 1, where the draw stopped */
};

/* 0, or -1 and why (an empty factor, too large a product). */
/* Does d's plan draw its setups in cycles of the layouts: a sample of a
 * product with two layouts or more (sweep_plan.c)?  The plan's identity
 * names that draw (meta.c), and only that one (review13d M1). */
int il_plan_cycles(const struct il_design *d);
int il_plan_init(struct il_plan *p, const struct il_design *d, const char **why);
void il_plan_free(struct il_plan *p);
/* The number of setups in the first b+1 batches: K, 2K, 4K, ... up to n. */
size_t il_plan_batch_end(const struct il_plan *p, unsigned b);
/* The runs of batch b, in their order; *nruns of them (malloc'd).  Block
 * numbers continue from first_block. */
struct il_run *il_plan_batch(struct il_plan *p, unsigned b, uint32_t first_block, size_t *nruns);
/* The shard, 1 to n, that run r belongs to in n shards (--shard I/N):
 * its block's, dealt out in the plan's order. */
unsigned il_plan_shard(const struct il_run *r, unsigned n);
/* The factor values of drawn setup i (pos), layout index in *lay (-1). */
void il_plan_setup(const struct il_plan *p, size_t pos, unsigned long long *env, long *lay,
                   unsigned long long *stack, unsigned long long *heap);
/* A run's setup id (without the ASLR token), id, and with ASLR on its
 * setup label (the id and a token of the run). */
void il_plan_setup_id(const struct il_plan *p, size_t pos, char *out, size_t outsz);
void il_plan_run_id(const struct il_plan *p, const struct il_run *r, char *out, size_t outsz);
void il_plan_setup_label(const struct il_plan *p, const struct il_run *r, char *out, size_t outsz);

/* ------------------------------------------------------------ elf.c */
/* Can LD_PRELOAD apply to the program at path?  Returns NULL, or why not:
 * "static", "setuid", or a sentence.  *warn is set when it can, but the
 * program does not start through __libc_start_main.  first receives the
 * name of a library the program needs that must come before any preloaded
 * one (the shared AddressSanitizer runtime), or "". */
const char *il_preloadable(const char *path, int *warn, char *first, size_t firstsz);
/* May this process execute the file at path?  NULL, or why not in words
 * (a noexec mount, the mode: outside13 F5 said "not executable" of a file
 * of mode 0755 on a noexec mount). */
const char *il_not_executable(const char *path);
/* Is this library (a name or a path) one that must come first? */
int il_first_runtime(const char *name);

/* ------------------------------------------------------------ launch.c */
/* The environment a measured program receives, built once. */
struct il_env {
    char **v;
    size_t n, cap;
};
/* What varies between runs: the setup's settings, the run spec's "set"
 * lines (il_env_setup), beside the run's fixed ones (il_env_build), and
 * the pad, always last in the environment. */
struct il_slots {
    char *fixed;     /* "set" lines of the events, backend and strictness */
    char setup[192]; /* "set" lines of the offsets and the pin */
    char *pad;       /* IL_V_PAD "=" then padmax bytes */
    size_t padmax, padlen;
    const cpu_set_t *cpus; /* --cpu: where the children run, or NULL */
    /* run's --stack-offset and --heap-offset as typed (2m), set after
     * il_env_build: the spec carries them so that the library's messages
     * say what was typed (it reads them by the same rules); NULL, the
     * numbers */
    const char *stack_text, *heap_text;
};
#define IL_PAD_PREFIX IL_V_PAD "="
/* the kernel takes no single string longer than MAX_ARG_STRLEN (32 pages) */
#define IL_PAD_MAX (32 * 4096 - sizeof IL_PAD_PREFIX)

const char *il_find_library(void);
const char *il_libexec_dir(void);
/* The environment of a run: the caller's (or --env-clean's), the
 * library's variables (first: a runtime the programs need before any
 * preloaded library, il_preloadable, or NULL), the slots, fillers empty
 * INTERLOPER_PAD= strings (so that every run of a plan has one number of
 * variables: each is a pointer more before main's stack), and the pad. */
void il_env_build(struct il_env *e, struct il_slots *s, const struct il_common *c, const char *lib,
                  const char *first, const char *spec, size_t padmax, size_t fillers);
void il_env_setup(struct il_slots *s, unsigned long long stack_offset,
                  unsigned long long heap_offset, enum il_pinmode pin, uintptr_t pin_addr,
                  size_t pad);
size_t il_env_bytes(const struct il_env *e);
/* exec's limit on a program's arguments and environment together, in
 * bytes (strings and pointers), as the kernel takes it from ulimit -s */
size_t il_exec_limit(void);

/* $TMPDIR where interloper's own files can go there (absolute, without
 * '%', a directory this user can make files in), else NULL; a TMPDIR set
 * but not taken is said in one line, once, unless quiet (outside12 F9:
 * a harness's TMPDIR=/nonexistent stopped every run). */
const char *il_tmpdir_env(int quiet);

/* The run spec (DESIGN.md, "Labels"). */
struct il_spec {
    char dir[IL_PATH_MAX - 16]; /* "": a spec file of its own (il_spec_file) */
    char path[IL_PATH_MAX]; /* dir/spec, or the file: INTERLOPER_RUN */
    char tmp[IL_PATH_MAX];  /* dir/spec.new, renamed onto path */
    int exchange;           /* swap the two names (renameat2 RENAME_EXCHANGE) */
    int fd;                 /* the file's, open until it is written; -1: none */
};
/* A private directory $TMPDIR/interloper-run.PID.NS.XXXXXXXX (0700), for a
 * sweep's spec and files: the path is of one length for every run, and as
 * long as interloper run's spec file's.  With dry, only the name's shape. */
void il_spec_dir(struct il_spec *s, const char *me, int dry);
/* interloper run's spec, a file of its own made at once (mkstemp: 0600,
 * never an existing one), $TMPDIR/./interloper-run.PID.NS.XXXXXX.spec, of
 * a constant length (il_names.h), as long as a directory's spec path.
 * With dry, only the name's shape.  A TMPDIR that cannot take it is said
 * in one line, unless quiet; so is it by il_spec_dir, unless dry. */
void il_spec_file(struct il_spec *s, int dry, int quiet);
/* Write the spec, with the slots' "set" lines (atomically where it is in
 * a directory; a spec file of its own is read only once the program is
 * exec'd): 0, or -1 with errno. */
int il_spec_write(struct il_spec *s, long pid, const char *output, int summary,
                  const char *labels_json, const struct il_slots *slots);
/* Remove the spec file, or the spec directory and what interloper put in
 * it. */
void il_spec_remove(struct il_spec *s);
/* Remove the spec files and directories of runs and sweeps that have
 * ended without removing theirs (killed): never one whose owner still
 * runs. */
void il_spec_clean_stale(void);
/* The owner file of a sweep's spec directory (its spec says pid 0). */
void il_spec_owner(struct il_spec *s);

/* ASLR for the programs this process execs: 0 off, 1 on; exits on refusal. */
void il_set_aslr(const char *me, int on);
/* Parse a CPU list "0-3,6"; 0, or -1 with why. */
int il_parse_cpus(const char *s, cpu_set_t *set, char *canon, size_t canonsz, const char **why);

/* Start path with argv and env in a child that dies with this process
 * (PR_SET_PDEATHSIG), its stdin, stdout, stderr on in, out, err (-1: ours),
 * on the CPUs in cpus (NULL: ours).  The pid, or -1 with errno (exec failed
 * or could not start). */
pid_t il_spawn(const char *path, char *const argv[], char *const env[], int in, int out, int err,
               const cpu_set_t *cpus);
/* The child leads a process group of its own.  il_spawn_watch: start, once,
 * the watcher that kills the group of the run under way when this process
 * ends, even by SIGKILL; il_spawn_started tells it the run's group.
 * il_spawn_reap: wait for child p, passing *stop (a signal number set by a
 * handler) to its group, kill what is left of the group, tell the watcher;
 * the wait status. */
void il_spawn_watch(void);
void il_spawn_started(pid_t p);
int il_spawn_reap(pid_t p, volatile sig_atomic_t *stop);
/* il_spawn_reap with a limit in seconds (0: none): past it the group is
 * sent SIGTERM, then SIGKILL IL_SPAWN_GRACE seconds later, and *over is
 * set; tick(ctx, seconds so far), if given, every IL_SPAWN_TICK seconds */
#define IL_SPAWN_GRACE 5.0
#define IL_SPAWN_TICK 10.0
int il_spawn_reap_within(pid_t p, volatile sig_atomic_t *stop, double limit, int *over,
                         void (*tick)(void *ctx, double waited), void *ctx);

/* ------------------------------------------------------------ objname.c */
/* Two systems' link orders (manifest arrays of object names): the same
 * objects in the same order up to directories renamed one to one (zstd's
 * obj/conf_<MD5 of the flags>/), the renaming learnt in *m (zeroed to
 * start; free m->p).  0, or -1 with the first place they part in *at. */
struct json_t;
struct il_dirmap {
    size_t n;
    struct il_dirpair {
        const char *a, *b; /* a directory component of each system's, not ended */
        size_t la, lb;
    } *p;
};
int il_order_renamed(struct json_t *a, struct json_t *b, struct il_dirmap *m, size_t *at);

/* ------------------------------------------------------------ hold.c helpers (holdev.c) */
/* Open one disabled counter of each software-event kind, close-on-exec;
 * the number held. */
int il_hold_events(void);

#endif
