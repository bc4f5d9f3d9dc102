/*
 * sweep.h: the parts of interloper sweep and interloper record merge:
 * options (sweep_cli.c), the run loop (sweep.c), results files
 * (results.c), the plan's metadata lines (meta.c), the machine's state
 * (machine.c), --until (until.c), Slurm (slurm.c), merge (merge.c).
 */
#ifndef IL_SWEEP_H
#define IL_SWEEP_H

#include <jansson.h>
#include <stdio.h>
#include <sys/stat.h>

#include "il_hset.h"
#include "il_tools.h"

#define IL_SWEEP_ME "interloper sweep"
/* a system's name is in every run id, which must fit IL_PATH_MAX-sized buffers */
#define IL_SYSTEM_NAME_MAX 128
/* the generator and the order scheme; part of every plan's identity, so
 * never edited (its "plan.c" is today's sweep_plan.c: changing the words
 * would change every plan id and refuse every resume) */
#define IL_PLAN_GENERATOR "xoshiro128** seeded through fmix32; sweep order 1 (plan.c)"
/* the same, for plans with two or more layouts, whose samples draw the
 * layouts in cycles (sweep_plan.c, sweep order 2) */
#define IL_PLAN_GENERATOR_CYCLES "xoshiro128** seeded through fmix32; sweep order 2 (sweep_plan.c)"

/* ------------------------------------------------------------ a set of run ids */
/* Ids in the order first added (set.key[0 .. set.n-1]), each with a value. */
struct il_idset {
    struct il_hset set;
    long *val;
    size_t cap;
};

/* ------------------------------------------------------------ options */
struct il_system {
    const char *name;
    const char *tmpl;  /* PROG as given; may hold {layout} */
    char **path;       /* the program of each layout (one without layouts) */
    char **sha256;     /* its SHA-256, hex */
    struct stat *ident; /* the file that was hashed: each launch checks it is still that */
    const char **kind; /* each layout's kind from the manifest, or NULL */
    json_t **order;    /* each layout's object order from the manifest, or NULL */
    json_t *link;      /* the manifest's command and cwd, or NULL */
    char **args;       /* its own arguments (a shell's -c COMMAND), or NULL: ARGS */
    size_t nargs;
    int no_check_output; /* its output is not the others' (the shell alone) */
    const char *prepare; /* --prepare: a shell command before each of its runs */
};

struct il_sweep {
    const char *me; /* "interloper sweep" or "interloper compare": every message's prefix */
    struct il_common c;
    struct il_system *sys;
    size_t nsys;
    struct il_design d;
    const char *bench;
    const char *layouts; /* --layouts as given */
    enum il_pinmode pin; /* with the pin a factor: the pinned runs' mode */
    uintptr_t pin_addr;
    int seed_given;
    unsigned long long env_base; /* every setup's environment: env_base + env_add bytes */
    int env_base_given;
    unsigned long long env_vars; /* and env_vars strings; 0: not fixed (an older plan) */
    int env_vars_given;
    const char *input, *expect, *metric;
    int metric_given; /* -m; else wall, which the summary's header says when --events */
    char input_sha[65], expect_sha[65];
    int check_output, show_output, keep_going, hold;
    int expect_status; /* --expect-status: a run's status that is success (default 0) */
    const char *estimator; /* the report's --estimator for --until and the summary; NULL: mean */
    /* the report's --setup for the setups measured so far, and the one
     * it falls back to where the first has too few cells (sweep.c,
     * design_update); NULL or "": setup */
    struct il_design_pick {
        char use[64], fallback[64];
    } *pick;
    int per_launch;        /* a run is the records of one launch (report --per launch) */
    double until;          /* 0: no --until */
    double max_time;       /* seconds; 0: no --max-time */
    double timeout;        /* --timeout: a run's limit, seconds; 0: none */
    const char *subtract;  /* a system whose time is subtracted (compare's shell alone) */
    int compare;           /* interloper compare's: its defaults and its results file */
    unsigned long long max_runs;
    unsigned shard_i, shard_n; /* 0: no --shard */
    unsigned slurm;            /* tasks; 0: no --slurm */
    int submit;
    char **sbatch; /* options for sbatch, after the second -- */
    size_t nsbatch;
    char **args; /* the program's arguments */
    size_t nargs;
    char **forward; /* the command's words for the Slurm script */
    size_t nforward;
    const char *output;
    int argc;
    char **argv;
    int status;                /* --slurm --status */
    const char *runs_file;     /* --runs FILE: only the runs it lists */
    struct il_idset runs_only; /* their ids; val 1 once found in the plan */
    char **bin_sha;            /* --expect-sha256: each binary's, systems x layouts */
    size_t nbin_sha;
    double snapshot_every; /* seconds between machine snapshots; 0: none */
    /* the scheduler that started the sweep (IL_L_SLURM_*, IL_L_PARALLEL_*):
     * labels of its records, read from its own environment */
    struct il_label sched[5];
    size_t nsched;
    /* a runtime every program needs before any preloaded library (the
     * shared AddressSanitizer runtime), or "": LD_PRELOAD puts it first */
    char first[256];
    const char *first_of; /* the program that named it */
};

void il_sweep_parse(struct il_sweep *s, int argc, char **argv);
/* The parts of il_sweep_parse, for interloper compare, which parses its
 * own command line with the sweep's options (il_sweep_opts, those not
 * marked IL_CMD_SWEEP alone) and makes its own systems: the defaults; one
 * option of the sweep's (1: a shard's command repeats it); the checks
 * once all are given (the options together, the programs, the input). */
#define IL_CMD_SWEEP 1u
#define IL_CMD_COMPARE 2u
extern const struct il_opt il_sweep_opts[];
void il_sweep_defaults(struct il_sweep *s, int argc, char **argv);
int il_sweep_option(struct il_sweep *s, struct il_optp *p);
void il_sweep_check(struct il_sweep *s);
/* A program's SHA-256 and the identity of the file hashed (its fstat,
 * taken before the hash: a write during it shows as a change); 0, or -1
 * with errno.  Whether the file at path is still one of that identity and
 * hash: 1; 0 when it is not (one new SHA-256 in hex, or "" if it cannot
 * be read); a file of another identity with the same SHA-256 is the same
 * program, and *ident becomes the new identity (outside14 H5). */
int il_program_hash(const char *path, char hex[65], struct stat *ident);
int il_program_same(const char *path, const char *hex, struct stat *ident, char now[65]);

long *il_idset_add(struct il_idset *s, const char *id, int *added);
long *il_idset_get(struct il_idset *s, const char *id);
void il_idset_free(struct il_idset *s);

/* ------------------------------------------------------------ results files */
enum il_line { IL_LINE_OTHER, IL_LINE_RECORD, IL_LINE_SWEEP };
enum il_line il_line_kind(json_t *j);
const char *il_record_label(json_t *j, const char *key);
int il_results_scan(const char *me, const char *path, int fix,
                    int (*fn)(void *ctx, long lineno, json_t *j, const char *raw, size_t n),
                    void *ctx);
/* il_results_scan without fix, for files that may also be gzip or zstd
 * (common/lines.c): interloper record merge; a corrupt one ends the
 * program with one line. */
int il_results_read(const char *me, const char *path,
                    int (*fn)(void *ctx, long lineno, json_t *j, const char *raw, size_t n),
                    void *ctx);

/* The runs of a results file and their launches (results.c): records of
 * one launch (one label launch) are one run; another launch of a run is a
 * duplicate unless the run's launch so far failed (a "failed" line), when
 * it is a retry.  Records without a launch label (older files): a launch is
 * the records of a run on consecutive lines (here: line numbers).  A line
 * that is a copy of one of the kept launch's (its hash h, il_fnv1a) is a
 * duplicate.
 * The memory is one entry per run and one hash per kept record: merge
 * streams its files. */
enum il_launch_seen { IL_LAUNCH_NEW, IL_LAUNCH_SAME, IL_LAUNCH_RETRY, IL_LAUNCH_DUP };
struct il_launches {
    struct il_idset runs; /* run id -> index in v */
    struct il_launch_run {
        char *launch; /* the launch kept; NULL: unlabelled */
        long last;    /* its last record's line */
        uint64_t h0;  /* its records' lines' hashes: the first, the others */
        uint64_t *more;
        uint32_t nhash;
        unsigned char failed, planned;
    } * v;
    size_t n, cap;
};
enum il_launch_seen il_launch_record(struct il_launches *l, const char *run, const char *launch,
                                     long here, uint64_t h);
void il_launch_failed(struct il_launches *l, const char *run, const char *launch);
/* -1: no record of run; 0: its launch failed; 1: it is there */
int il_launch_state(struct il_launches *l, const char *run);
/* the same, and the run marked as one of the plan's */
int il_launch_plan(struct il_launches *l, const char *run);

/* The runs of each system that failed, from a results file's failed lines
 * (a run's last launch decides: a retry that succeeded is not failed). */
#define IL_FAIL_CAUSES 4
struct il_failures {
    size_t runs;        /* its measured runs (warm-ups apart) in the file, failed or not */
    size_t failed;      /* of those, the ones whose last launch failed */
    size_t warm_failed; /* its warm-up runs that failed */
    size_t ncause;
    struct il_fail_cause {
        char name[48]; /* SIGSEGV, status 3, wrote no record; "other" */
        size_t n;
    } cause[IL_FAIL_CAUSES + 1];
};
/* One for each of s's systems, or NULL when no run of plan failed. */
struct il_failures *il_results_failures(const struct il_sweep *s, const char *plan);
/* "B: 2 of 6 runs failed (SIGSEGV), left out" (without a newline) in b
 * (sys NULL: without "B: "), or nothing when none of f's runs failed. */
void il_failures_words(struct il_buf *b, const char *sys, const struct il_failures *f);
/* The first system of s every measured run of which failed in f, with why
 * in words (n bytes), or NULL. */
const char *il_failures_all(const struct il_sweep *s, const struct il_failures *f, char *why,
                            size_t n);

/* The last line of a task's log (where a refused task says why), its last
 * state when progress was redrawn in place with \r; 0, or -1 if the log
 * cannot be read. */
int il_log_end(const char *path, char *out, size_t n);

/* ------------------------------------------------------------ metadata lines (meta.c) */
/* The plan's identity (what defines the experiment), its id, and the
 * design back from a plan line (for merge). */
json_t *il_meta_identity(const struct il_sweep *s);
void il_meta_plan_id(json_t *identity, char id[16]);
/* 1 where plan_line is plan id's plan but for its draw: sweep order 1,
 * whose samples drew the layouts from the whole product (sweep_plan.c) */
int il_meta_older_draw(json_t *plan_line, const char *id);
json_t *il_meta_plan_line(const struct il_sweep *s, json_t *identity, const char *id,
                          const struct il_plan *p);
json_t *il_meta_line(const char *kind, const char *id);
/* The environment a plan line of path fixes, its base and number of
 * variables (0: a file of 0.2.0, without): a --env-base or --env-vars
 * that differs is refused in one line; not given, they are taken. */
void il_meta_env_fixed(struct il_sweep *s, const char *path, unsigned long long base,
                       unsigned long long vars);
/* Append one line (and a newline) with one write; exits on failure. */
void il_meta_write(int fd, const char *path, json_t *line);
int il_meta_design(json_t *plan_line, struct il_design *d, const char **why);
/* A line saying the plan now has this many setups (--until); and the
 * largest extent of those a plan or extent line says, so far. */
json_t *il_meta_extent(const char *id, size_t setups, size_t runs);
void il_meta_extent_max(json_t *line, size_t *setups, unsigned *reps, unsigned *warmup);

/* ------------------------------------------------------------ machine.c */
/* The state of the machine that bears on measurements (pyperf's metadata
 * is the bar): CPU governor, boost, SMT, transparent huge pages, load,
 * steal time, ... */
json_t *il_machine(void);

/* ------------------------------------------------------------ check.c */
/* The machine's state judged (interloper check; sweep and compare at their
 * start): one finding a fact, each a line saying what is wrong and how to
 * fix it. */
enum il_finding_level { IL_FINDING_OK, IL_FINDING_NOTE, IL_FINDING_PROBLEM };
struct il_findings {
    struct il_finding {
        const char *name; /* load, governor, boost, smt, steal, thp, paranoid, aslr, hold */
        enum il_finding_level level;
        char text[400];
    } v[16];
    size_t n, problems;
};
/* Judge machine (il_machine()'s); it samples /proc/stat for a moment.
 * driver: for a sweep, which turns ASLR off and holds the switches itself,
 * so those two are not judged. */
void il_check(struct il_findings *fs, json_t *machine, int driver);
json_t *il_findings_json(const struct il_findings *fs);
/* "ME: machine: TEXT" on stderr for each problem */
void il_findings_warn(const struct il_findings *fs, const char *me);

/* ------------------------------------------------------------ until.c */
/* Run interloper report on the results; 1 if every comparison's 95%
 * interval has a half-width below pct percent of its ratio (why says the
 * widest), 0 if not, -1 if report failed (why says its message). */
int il_until_check(const struct il_sweep *s, char *why, size_t whysz, double *widest);

/* ------------------------------------------------------------ verdict.c */
/* interloper report --json on the results, with the sweep's design
 * (--compare system=FIRST --setup setup, the metric and estimator): its
 * JSON, or NULL with why (its last line of stderr). */
json_t *il_sweep_report(const struct il_sweep *s, char *why, size_t whysz);
/* Run the sweep s (parsed and checked): resume, run the plan's batches,
 * stop as asked; e says how it ended.  Returns the exit status. */
struct il_ending;
int il_sweep_execute(struct il_sweep *s, struct il_ending *e);
/* How a sweep ended, for the summary. */
struct il_ending {
    const char *me;               /* "interloper sweep" */
    const char *stopped;          /* why it stopped, in words */
    double seconds;               /* how long it ran */
    size_t runs;                  /* runs measured (all of the results file's), warm-ups apart */
    size_t setups;                /* setups with runs */
    size_t layouts, layouts_all;  /* layouts with runs, of the plan's (0: not a factor) */
    size_t warmups;               /* warm-up runs (all of the results file's) */
    const char *plan;             /* the plan's id */
    json_t *machine;              /* il_machine()'s, at the start */
    const char *const *commands;  /* each system's command, or NULL */
    const char *note;             /* a line on what was measured, or NULL */
    struct il_failures *failures; /* each system's failed runs, or NULL: none */
};
/* Of e->runs, those that failed (by each run's last launch, warm-ups
 * apart): the numbers leave them out, so "N runs in K setups" does not
 * count them, and says them apart (fix14a). */
size_t il_ending_failed(const struct il_ending *e, size_t nsys);
/* after "N runs in K setups", where not every layout has runs (layouts,
 * layouts_all): the summary's and the Markdown export's words */
#define IL_LAYOUTS_OVER " over %zu of the %zu layouts"
/* A string or number of a report's JSON object (NULL, NAN when absent). */
const char *il_json_str(json_t *o, const char *k);
double il_json_num(json_t *o, const char *k);
/* The five-second summary of a report of two or more systems. */
/* "mean of the setups' means": what a system's estimate is, for the
 * report's ESTIMATOR (NULL: mean); BUF (N bytes) may hold it */
const char *il_estimate_words(const char *estimator, char *buf, size_t n);
void il_verdict(FILE *f, const struct il_sweep *s, json_t *report, const struct il_ending *e);
/* Run the report and print the summary on f; the report's JSON (the
 * caller's), or NULL when it failed (said on stderr). */
json_t *il_sweep_summary(const struct il_sweep *s, const struct il_ending *e, FILE *f);

/* ------------------------------------------------------------ slurm.c */
/* --slurm without --env-base: the script's base is the submitting
 * environment's size plus this, for the variables Slurm adds to a task's */
#define IL_SLURM_ENV_ROOM 4096
#define IL_SLURM_VARS_ROOM 64
/* The script (or, with --status, each task's state) for the plan's runs;
 * here_base: this environment's size plus room, the base when neither
 * --env-base nor a shard's file gives one.  The exit status. */
int il_slurm(struct il_sweep *s, const char *plan_id, const struct il_plan *p,
             const struct il_run *runs, size_t nruns, unsigned long long here_base,
             unsigned long long here_vars);
/* STEM.shard-I-of-N.EXT, the name of shard I's results file or log */
char *il_slurm_shard_file(const struct il_sweep *s, unsigned i, const char *ext);

/* ------------------------------------------------------------ merge.c */
int il_record_merge(int argc, char **argv);

/* ------------------------------------------------------------ record_csv.c */
/* interloper record csv [FILE...]: one row per record, one column per field */
int il_record_csv(int argc, char **argv);

#endif
