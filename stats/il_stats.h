/*
 * il_stats.h: the statistics half of interloper (interloper-report,
 * interloper-plan, interloper-plot).
 *
 * Layers, each in its own file:
 *   scan.c      a validating JSON scanner that finds the few fields a record
 *               needs (jansson alone takes ~10 us per record; see input.c)
 *   strtab.c    interned label values
 *   input.c     reading .jsonl files into a column store (struct il_data)
 *   group.c     grouping records by labels
 *   describe.c  summaries, quantiles, t, MAD outliers, ACF, Ljung-Box
 *   prep.c      failed and warm-up runs, --per, derived metrics, label checks
 *   ratio.c     Fieller ratio intervals, geometric means
 *   design.c    the variance of a mean over setups (one label or two
 *               crossed), paired Fieller, heterogeneity of per-setup ratios
 *   units.c     a group's runs split into setups
 *   robust.c    bootstrap and permutation for quantile estimators
 *   levels.c    Kalibera & Jones levels, repetition counts, bootstrap
 *   analyze.c   turns groups into a struct il_report: groups, levels, plan
 *   comparisons.c
 *               comparisons, the per-setup view, suites, verdicts
 *   out_text.c  table and markdown; out_csv.c CSV and Go benchmark text;
 *               out_json.c JSON
 *   cli.c       options shared by the three commands
 *   kde.c       kernel density estimates (the violins)
 *   plot_draw.c, plot_kinds.c  the figures (plot.h)
 *   report.c, plan.c, plot.c  the commands' main
 *
 * Pure functions return 0 or a negative IL_SE_* code (il_se_strerror());
 * only the command files call err(3)/errx(3).
 * Levels are indexed from the lowest (index 0 = K&J level 1) internally;
 * the command line and the output list them highest first.
 */
#ifndef IL_STATS_H
#define IL_STATS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "il_hset.h"
#include "il_machine.h"
#include "il_names.h"
#include "il_plural.h"
#include "il_xalloc.h"

#define IL_CONF 0.95        /* every interval is a 95% interval */
#define IL_SCAN_MAXPATHS 64 /* fields one scan can locate */
#define IL_SCAN_KEYS 3      /* keys per path: events.NAME.value */
#define IL_MAX_SLOTS 24     /* distinct label names one command uses */
#define IL_MAX_LEVELS 8
#define IL_MAX_ACF 20    /* lags reported */
#define IL_MISSING_ID 0  /* string id of an absent label */
#define IL_OUTLIER_Z 3.5 /* Iglewicz & Hoaglin modified z-score cut-off */
#define IL_DIAG_MIN_N 5  /* fewest values for outlier and first-run checks */
#define IL_ACF_MIN_N 10  /* fewest values for the independence test */

enum il_se_err {
    IL_SE_OK = 0,
    IL_SE_FEW = -1,      /* fewer than 2 values */
    IL_SE_NONPOS = -2,   /* a value that must be positive is not */
    IL_SE_UNBAL = -3,    /* unbalanced design */
    IL_SE_DUP = -4,      /* a lowest-level repetition appears twice */
    IL_SE_NOMEM = -5,    /* out of memory */
    IL_SE_RANGE = -6,    /* argument out of range */
    IL_SE_ZEROVAR = -7,  /* zero variance where a test needs some */
    IL_SE_NOTFOUND = -8, /* target not reachable */
    IL_SE_QFEW = -9,     /* too few values for a quantile's interval at that level */
};
const char *il_se_strerror(int e);

/* ------------------------------------------------------------ strtab.c */
/* Allocation that cannot fail (il_xmalloc...): include/il_xalloc.h. */

/* ------------------------------------------------------------ warn.c */
enum il_wkind {
    IL_W_LINE,            /* file, line, what */
    IL_W_MORE_LINES,      /* count */
    IL_W_SCHEMA,          /* "file:line: schema X" */
    IL_W_UNSUPPORTED,     /* count, metric, used */
    IL_W_MISSING,         /* count, metric, used */
    IL_W_NOFLOOR,         /* count, metric */
    IL_W_NOENV,           /* count */
    IL_W_FEW,             /* items: group, n */
    IL_W_OUTLIERS,        /* items: group, k, n */
    IL_W_FIRST,           /* items: group, z */
    IL_W_FIRST_NOREP,     /* the same, where no record has a rep label */
    IL_W_FIRST_WARM,      /* the same, where warm-up runs were left out */
    IL_W_FIRST_INCL,      /* the same, where --include-warmup kept them */
    IL_W_DEPENDENT,       /* items: group, p, acf1 */
    IL_W_NOBASE,          /* items: group; then "label=baseline" */
    IL_W_UNPAIRED,        /* comparison, unpaired, paired */
    IL_W_NOTBOUNDED,      /* items: comparison, kind text */
    IL_W_SUITE_ONE,       /* "value vs baseline" */
    IL_W_T2,              /* level */
    IL_W_NOOPT,           /* level */
    IL_W_SETUPS_FEW,      /* comparison, n, label */
    IL_W_FAILED,          /* count, where */
    IL_W_WARMUP,          /* count, label */
    IL_W_DESIGN,          /* labels, suggestion */
    IL_W_MULTIPLEX,       /* count, metric, lowest fraction, what was done */
    IL_W_HOSTS,           /* comparison, detail */
    IL_W_BURSTY,          /* items: group, skewness */
    IL_W_NOPER,           /* count, key */
    IL_W_NOREPS,          /* item: comparison (its runs are equal) */
    IL_W_NOREPS_TWO,      /* item: comparison (no setup has two runs a side) */
    IL_W_NOTCOUNTED,      /* count, metric */
    IL_W_MACHINES,        /* which hosts, which facts */
    IL_W_MACHINE_CHANGED, /* the host, when, what */
    IL_W_DISTURBED,       /* item: what the sweep's machine lines say (disturb.c) */
    IL_W_SUBTRACT,        /* runs left out, label, value */
    IL_W_FREE,            /* items: group, why its setup-effect test exchanged runs freely */
    IL_W_OTHERS,          /* items: group, records, of n */
    IL_W_ARGS,            /* items: group, distinct argument lists */
    IL_W_IMAGES,          /* items: group, the images and their runs */
    IL_W_EXEC,            /* items: group, records ending in an exec, of n */
    IL_W_PASS_SHIFT,      /* suite, per-pass ratios, F, df1, df2, p */
    IL_W_ONE_PASS,        /* suite, which side ran in one pass */
    IL_W_TWICE,           /* file, file, why, more (twice.c) */
    IL_W_TWICE_RECORDS,   /* n, "records are copies of records", file, file */
    IL_W_SHARED_SETUPS,   /* suite, benchmarks, setups, labels, interval, times */
    IL_W_PART_SHARED,     /* suite, setups, labels, benchmarks, why */
    IL_W_COUNT
};
/* Print "warning: SENTENCE [NAME]" on stderr (unless NAME is quieted) and
 * keep it for the JSON output. */
void il_warn(enum il_wkind k, ...);
/* Warnings that would repeat once per group are collected as items and
 * printed as one line per kind by il_warn_flush(). */
void il_warn_item(enum il_wkind k, ...);
void il_warn_flush(void);
/* Quiet a comma list of warning names ("all" for every one); returns -1
 * and the offending name in *bad when one is unknown. */
int il_warn_quiet(char *names, const char **bad);
const char *il_warn_names(void); /* "outliers, first-run, ..." */
size_t il_warnings(const char *const **out);

/* ------------------------------------------------------------ scan.c */
struct il_span {
    const char *p; /* first byte of the value; NULL when absent */
    size_t n;
};

/* The scalars of a line: [s, e) byte offsets (for templates, tmpl.c). */
struct il_toks {
    uint32_t *s, *e;
    size_t n, cap;
};
void il_toks_add(struct il_toks *t, size_t s, size_t e);

struct il_path {
    const char *key[IL_SCAN_KEYS];
    size_t klen[IL_SCAN_KEYS];
    int depth;
    /* bit d: the key at depth d is an event name, which a record's key
     * matches also as the library would record it (il_event_fold: an
     * older build's TASK-CLOCK is task-clock) */
    unsigned fold;
};

struct il_scan {
    const struct il_path *paths;
    int npaths;
    struct il_span found[IL_SCAN_MAXPATHS];
    /* Optional: called for each member key of the objects found at the
     * paths in the mask keys_of (e.g. the names under "events"). */
    uint64_t keys_of;
    void (*key_cb)(void *ctx, int path, const char *key, size_t n, int escaped);
    void *key_ctx;
    /* On failure: a reason and the byte offset it refers to. */
    const char *err;
    size_t errpos;
    /* Optional: the scalar values' offsets are added here (tmpl.c). */
    struct il_toks *toks;
};

void il_path_set(struct il_path *p, const char *k0, const char *k1, const char *k2);
/* Validate one line as a JSON text (RFC 8259, as strict as jansson except
 * that numbers of any size are accepted) and record the spans of the wanted
 * paths.  Returns 0, or -1 with sc->err set. */
int il_scan_line(struct il_scan *sc, const char *s, size_t n);
/* A scalar (string, number, true, false, null) at p, validated as in a
 * line: the byte after it, or NULL. */
const char *il_scan_scalar(const char *p, const char *e);
/* Decode the contents of a JSON string (between the quotes) into out, which
 * holds at least n+1 bytes; returns the decoded length. */
size_t il_json_unescape(const char *s, size_t n, char *out);
/* A span holding a JSON number as a double; 0, or -1 if not a number. */
int il_span_number(struct il_span sp, double *v);
/* A span holding a JSON integer that fits int64_t; 0, or -1 otherwise. */
int il_span_int(struct il_span sp, int64_t *v);
/* il_span_number, and il_span_int's answer in *isint (*iv when 1), of one
 * span, reading a short integer's digits once. */
int il_span_number_int(struct il_span sp, double *v, int64_t *iv, int *isint);

/* ------------------------------------------------------------ tmpl.c */
/* Lines scanned by their likeness to lines scanned before (tmpl.c). */
#define IL_TMPL_N 4           /* templates kept */
#define IL_TMPL_MAXLINE 65535 /* longer lines are always scanned in full */

struct il_tmpl {
    char *line;
    size_t n, ntok;
    uint32_t *ts, *te; /* its scalars; ts[ntok] is n */
    uint16_t *at;      /* per byte (n + 1): 1 + the scalar k with ts <= byte <= te, or 0 */
    int npaths;
    uint32_t ps[IL_SCAN_MAXPATHS],
        pe[IL_SCAN_MAXPATHS];       /* the paths found; ps UINT32_MAX: absent */
    int32_t ptok[IL_SCAN_MAXPATHS]; /* the scalar a path is, or -1 */
    /* boundaries: k[b] scalars start before it (sorted, distinct); each
     * path's start and end (pkb, pke) as an index b */
    uint32_t k[2 * IL_SCAN_MAXPATHS], pkb[IL_SCAN_MAXPATHS], pke[IL_SCAN_MAXPATHS];
    size_t nk;
    /* the paths absent, those that are one scalar, those that are not */
    uint8_t pabs[IL_SCAN_MAXPATHS], psc[IL_SCAN_MAXPATHS], pco[IL_SCAN_MAXPATHS];
    int nabs, nsc, nco;
    /* the scalars that have differed in a line matched (1 each), and the
     * runs they end: run[r] the bytes from the previous hot scalar's end
     * (ti, len of them) up to hot scalar kb (ending at te; ntok for the
     * last run, to the line's end), want the bits of len in a 64-bit
     * mask (len <= 64), plen the length of kb in the last line matched */
    uint8_t *hot;
    struct il_trun {
        uint32_t ti, len, kb, te;
        uint64_t want;
        size_t plen;
    } * run;
    uint32_t hb[2 * IL_SCAN_MAXPATHS]; /* hb[b]: hot scalars before boundary b */
    size_t nrun;
    int dirty; /* hot changed since the runs were made */
};

struct il_tmpls {
    struct il_tmpl t[IL_TMPL_N];
    size_t order[IL_TMPL_N]; /* most recently matched first */
    size_t nt;
    struct il_toks toks;
    /* scratch: the replaced scalars of a match and the shift after each
     * (ds[d + 1] after replacement d, ds[0] 0) */
    uint32_t *dk;
    size_t *dns, *dne, dcap;
    long *ds;
    size_t hits, misses;
    /* The line just read: the template it matched (-1: none), and the
     * scalar paths whose bytes are that template's (bit i: path i). */
    int cur;
    uint64_t same;
    uint64_t gen[IL_TMPL_N], ngen; /* each template's number, new when replaced */
};
/* il_scan_line's contract (sc->found, 0 or -1 with sc->err), through the
 * templates when a line matches one; a valid line that matches none
 * becomes one.  No key callbacks for a matched line: its keys are its
 * template's. */
int il_tmpls_scan(struct il_tmpls *ts, struct il_scan *sc, const char *s, size_t n);
/* Whether a template matches the line at s, of which only avail bytes are
 * known to be read (the rest of a read buffer, holding the lines that
 * follow): 1 with *n its length (a newline at s[*n], or carriage returns
 * from there on and then a newline: they are not the line's, as
 * il_rd_line strips them) and sc->found set
 * as il_tmpls_scan sets them, else 0 and nothing said (the line is to be
 * found and scanned as usual).  It spares the search for the line's end. */
int il_tmpls_scan_nl(struct il_tmpls *ts, struct il_scan *sc, const char *s, size_t avail,
                     size_t *n);
/* For the line just matched (cur >= 0): the scalars within its path p
 * when the template has a container there, the first's index *k0 and
 * their number *nk (1); else 0. */
int il_tmpls_path_toks(const struct il_tmpls *ts, int p, uint32_t *k0, uint32_t *nk);
/* For the line s just matched: its scalars k0 to k0 + nk - 1, each's
 * bytes in s (out[i]) and whether the line replaced it (rep[i] 1: a hot
 * scalar, or one that differed) or has the template's bytes there (0). */
void il_tmpls_toks(const struct il_tmpls *ts, const char *s, uint32_t k0, uint32_t nk,
                   struct il_span *out, uint8_t *rep);
/* For the line s just matched: whether it replaced scalar k (then its
 * bytes in *out), the scalars asked in ascending order, *d 0 before the
 * first (the place in the replacements reached). */
static inline int
il_tmpls_replaced(const struct il_tmpls *ts, const char *s, uint32_t k, size_t *d,
                  struct il_span *out)
{
    while (ts->dk[*d] < k) /* UINT32_MAX after the last */
        ++*d;
    if (ts->dk[*d] != k)
        return 0;
    out->p = s + ts->dns[*d];
    out->n = ts->dne[*d] - ts->dns[*d];
    return 1;
}
void il_tmpls_free(struct il_tmpls *ts);

/* ------------------------------------------------------------ strtab.c */
struct il_strtab {
    struct il_hset set; /* the values; id = index in the set + 1 */
    uint32_t n;         /* ids in use, 0 ("(none)") included */
};
void il_strtab_init(struct il_strtab *t);
void il_strtab_free(struct il_strtab *t);
uint32_t il_strtab_intern(struct il_strtab *t, const char *s, size_t n);
/* The id of s, or UINT32_MAX when it was never interned. */
uint32_t il_strtab_find(const struct il_strtab *t, const char *s);
const char *il_str(const struct il_strtab *t, uint32_t id);
/* Natural order: numbers by value, the rest by bytes. */
int il_natcmp(const char *a, const char *b);

/* ------------------------------------------------------------ disturb.c (orders) */
/* A layout's link order, from a sweep's plan line (its first system). */
struct il_order {
    char *layout;
    char **obj;
    size_t nobj;
};
struct il_data;
void il_orders_free(struct il_data *d);

/* ------------------------------------------------------------ input.c */
enum il_metric_kind { IL_M_EVENT, IL_M_WALL, IL_M_USER, IL_M_SYS, IL_M_MAXRSS };

struct il_where {
    size_t slot;
    char *value;
    int neg; /* LABEL!=VALUE: leave such records out */
};

/* The label name that reads the record's top-level "host" when the
 * record's labels have no label of that name (interloper-report(1)). */
#define IL_PSEUDO_HOST IL_F_HOST
/* The label name that reads the record's argv after the program (its
 * arguments, each shell-quoted where it must be, joined by blanks) when
 * the record's labels have no label of that name: one program run with
 * several inputs (an interpreter, SPEC's workloads) is told apart by it
 * (interloper-report(1), [mixed-args]). */
#define IL_PSEUDO_ARGS "args"

struct il_sel {
    const char *metric;       /* as given: NAME or NUM/DEN */
    const char *part[2];      /* the metric, or numerator and denominator */
    enum il_metric_kind kind; /* of part[0] */
    enum il_metric_kind kind2;
    int derived; /* NUM/DEN: a ratio of two metrics of the same run */
    int subtract_floor, strict, want_env, want_wall, scale, include_warmup;
    int expect_status, expect_given; /* --expect-status: the status of a run that did not fail */
    int want_labels; /* note every label of the kept records (struct il_labvals) */
    int want_addr;   /* read setup.main_sp, setup.heap_start and env_bytes (--attribute) */
    int want_pids;   /* tell the records of a run's children (IL_R_CHILD: --per, --expect-status) */
    int want_when;   /* each record's start and input (il_data's when: report --compare) */
    size_t pid_slot; /* with want_pids: the slot of --per's label, or SIZE_MAX (host and labels) */
    const char *slot_name[IL_MAX_SLOTS]; /* label names kept per record */
    size_t nslots;
    struct il_where *where; /* same slot: any value and none of the !=
                             * values; different slots: all */
    size_t nwhere;
};

/* One label name over the kept records, with want_labels. */
struct il_labvals {
    char *name;
    size_t nname;
    size_t present; /* records that have it (not null) */
    size_t nval;    /* distinct values among them */
    uint8_t *seen;  /* by string id of struct il_data's st */
    size_t seencap;
    char last[2][32]; /* the last two values' JSON text, the most recent
                       * first (nlast bytes; 0: none) */
    uint8_t nlast[2];
    int runs; /* it numbers or places runs (il_numbers_runs): no values kept */
};
/* Labels that number or place the runs of one series (rep, run, setup,
 * ...) rather than tell series apart: they may vary along a run sequence. */
int il_numbers_runs(const char *name);

/* Per-record flags. */
#define IL_R_INT 1     /* il_ival gives the value exactly */
#define IL_R_SIGNAL 2  /* exit.how is "signal" */
#define IL_R_NONZERO 4 /* exit.status is not 0 */
#define IL_R_STATUS 8  /* the record has an exit status */
#define IL_R_OTHERS 16 /* others_measured: another measured program ran meanwhile */
#define IL_R_EXEC 32   /* exit.how is "exec": one image of an exec chain */
#define IL_R_SWEPT 64  /* of a launch a sweep's "failed" line names (read.c, swept) */
#define IL_R_CHILD 128 /* with want_pids: a child of another record of its run (read.c) */

/* A label slot's values: v[i] the string id of index i, at[id] its index
 * + 1 (0: none yet, or id >= nat). */
#define IL_LAB_NARROW 65535
struct il_labdict {
    uint32_t *v;
    uint16_t *at;
    size_t n, cap, nat;
};

#define IL_WHEN_FILE 31 /* il_data's when: the input's number modulo 2 in this bit */
#define IL_WHEN_EPOCH 946684800 /* il_data's when: seconds from 1970 to 2000 */
struct il_data {
    size_t n, cap, nslots;
    const char *slot_name[IL_MAX_SLOTS]; /* as in struct il_sel */
    double *val;                         /* the metric (the numerator of a derived one); NULL once
                                          * il_analyze has moved it into its groups */
    double *den;                         /* the denominator of a derived metric, else NULL */
    /* The value as an integer (IL_R_INT; il_ival): NULL while every such
     * value is val's exactly (within 2^53, and no floor or --per sum that
     * the double rounded), which costs nothing; else a column. */
    int64_t *ivcol;
    uint64_t *addr;          /* with want_addr: setup.main_sp, setup.heap_start of each (0: none) */
    struct il_order *orders; /* the layouts' link orders, from sweeps' plan lines */
    size_t norders;
    uint8_t *flag; /* IL_R_* */
    /* A hash of each one's argv after the program, 0: none ([mixed-args]):
     * NULL while every record's is argh1 (a sweep's runs of one command
     * without {layout}: 4 bytes a record saved), else a column
     * (il_argh_column). */
    uint32_t *argh;
    uint32_t argh1;
    /* Each one's image (il_image_of: its program's argv[0] and layout
     * label, and the first digits of its build_id; 0: no build_id), for
     * [two-images]: NULL while every record's is imgh1, like argh. */
    uint64_t *imgh;
    uint64_t imgh1;
    double *env;   /* setup.env_bytes when want_env */
    double *wall;  /* times.wall_ns when want_wall (NAN if absent) */
    /* with want_when, until a sweep's line is read: the record's start,
     * in seconds since 2000 (0: none), and in bit IL_WHEN_FILE the number
     * of its input modulo 2, so that two inputs meet where it changes
     * (suitepass.c: the passes in time order) */
    uint32_t *when;
    /* With want_pids, until il_read has flagged IL_R_CHILD: each one's pid
     * and ppid (-1: none), and without a pid_slot a hash of its host and
     * labels */
    int32_t *pid, *ppid;
    uint32_t *lh;
    /* until il_read ends: a hash of each one's identity (il_twice_id) */
    uint64_t *idh;
    /* The label values, column by column (il_lab): every record has
     * labk[s] (a label no record has, or one value for all: the design
     * labels a report looks at on its own are often absent) while slot s
     * has no column; else labn[s], 2 bytes a record, indexes the slot's
     * own values labd[s] (at most IL_LAB_NARROW of them), or, for a slot
     * of more values, labc[s] holds the string ids (il_lab_put). */
    uint16_t *labn[IL_MAX_SLOTS];
    struct il_labdict labd[IL_MAX_SLOTS];
    uint32_t *labc[IL_MAX_SLOTS];
    uint32_t labk[IL_MAX_SLOTS];
    struct il_strtab st;
    /* What was read and why lines were left out. */
    size_t files, lines, records, selected, malformed, notrecord, unsupported, missing, nofloor,
        noenv, badvalue, sweep_lines, warmup, failed, multiplexed, notcounted, per_records,
        counted_elsewhere;        /* records whose counts are another's (counted_in) */
    /* Records read with IL_R_SIGNAL or IL_R_NONZERO (push, and the parts'
     * join), or IL_R_SWEPT (il_read): none of the records has either while it is 0, so that
     * il_prepare need not look at every record's flags to find no failed
     * run (at ten million records 1.5 ms of serial work); records dropped
     * later are not taken off. */
    size_t flagged;
    /* The launches the sweep's "failed" lines name (their label launch),
     * and the records of them read (IL_R_SWEPT, also in flagged). */
    struct il_strtab swept;
    size_t nswept;
    /* Records read with IL_R_OTHERS, likewise (none: no group is looked at
     * for [others-measured]). */
    size_t others;
    /* Records read with IL_R_EXEC, likewise ([exec-chain]). */
    size_t execs;
    /* The images of one exec chain (input.c, chain_note): record from
     * ended in an exec and record to is the next image of its process, in
     * input order; il_prepare folds each chain into its last record.  sup:
     * to is the same image's record, which supersedes from (its exec
     * failed) and so covers it: from is left out, not added. */
    struct il_link {
        size_t from, to;
        int sup;
    } *links;
    size_t nlinks, caplinks;
    size_t folded;     /* records folded into a later image of their process */
    size_t superseded; /* exec records left out: their image's exec failed */
    double mux_frac;              /* the lowest running/enabled among multiplexed records */
    size_t present[IL_MAX_SLOTS]; /* records carrying each slot's label */
    char **keys;                  /* every label name of every record */
    size_t nkeys;
    char *first_schema_other; /* a schema other than interloper/1, if seen */
    struct il_labvals *lv;    /* with want_labels: every label name seen */
    size_t nlv;
    struct il_machines mach; /* the sweep's machine snapshots (il_machine.h) */
    char *rec_host[8];       /* the hosts of the selected records (the first 8) */
    size_t nrec_host;
    struct il_machine_notes *machine; /* what the sweep's machine lines say (disturb.c) */
    struct il_twice *twice;           /* the same runs given twice (twice.c) */
    /* --subtract: the subtracted group's mean over its runs, its runs, units */
    double sub_mean;
    size_t sub_runs, sub_units;
};

/* ------------------------------------------------------------ disturb.c */
/* A sweep's line of a results file: a machine line's load and steal,
 * noted when they say the runs shared the machine; il_disturb_warn warns
 * of what was noted ([disturbed]). */
void il_disturb_line(struct il_data *d, const char *s, size_t n);
void il_disturb_warn(const struct il_data *d);
void il_disturb_free(struct il_data *d);

/* ------------------------------------------------------------ twice.c */
/* The same runs given twice: a file given twice, or a sweep's start line
 * (its sweep_id) in two files (a merged file and its shards): il_read
 * calls il_twice_files before reading, il_disturb_line il_twice_line for
 * each machine line (d->files: the file being read), il_read
 * il_twice_warn after ([twice]). */
void il_twice_files(struct il_data *d, char **files, int nfiles);
void il_twice_line(struct il_data *d, json_t *machine_line);
void il_twice_warn(const struct il_data *d, char **files);
void il_twice_free(struct il_data *d);
/* A record's identity, hashed: the JSON text of its host, pid, start,
 * times.wall_ns, argv (a long one's ends) and value.  il_twice_records: after reading
 * (upto[i]: the records read from files 0..i), the records whose identity
 * was read before, in one warning ([twice]); frees d->idh. */
uint64_t il_twice_id(const struct il_span *host, const struct il_span *pid,
                     const struct il_span *start, const struct il_span *wall,
                     const struct il_span *argv, const struct il_span *value);
void il_twice_records(struct il_data *d, char **files, const size_t *upto, int nfiles);

int il_metric_parse(const char *name, enum il_metric_kind *kind);
/* Split "NUM/DEN" into sel->part[]; one slash, both sides non-empty. */
int il_metric_split(struct il_sel *sel, char *buf, size_t n);
/* For the numerator of a derived metric these say nothing: callers check
 * sel->derived first (il_sel_unit, il_sel_is_time). */
const char *il_metric_unit(const char *metric, enum il_metric_kind kind);
int il_metric_is_time(const char *metric, enum il_metric_kind kind);
const char *il_sel_unit(const struct il_sel *sel); /* "" for a derived metric */
int il_sel_is_time(const struct il_sel *sel);
/* Read every file ("-" is stdin) into d.  Malformed lines are warned about
 * (file:line) and skipped, or fatal with sel->strict.  Calls errx on
 * unreadable files, an unknown metric and an empty selection. */
void il_read(const struct il_sel *sel, char **files, int nfiles, struct il_data *d);
/* Transparent huge pages for the large block p of n bytes from malloc
 * (MADV_HUGEPAGE; nothing below 2 MiB, IL_HUGE_MIN, or where the kernel has
 * none):
 * a page fault, and the freeing at the end, for 2 MiB of a column instead
 * of 4 KiB.  Returns p. */
void *il_huge(void *p, size_t n);
/* il_xrealloc, il_xcalloc, their block advised so. */
void *il_xrealloc_huge(void *p, size_t n);
void *il_xcalloc_huge(size_t n, size_t size);
void il_data_free(struct il_data *d);
/* Free the n blocks of b (NULL ones skipped), whose memory is read no
 * more, first giving their pages back to the kernel on two threads where
 * there are many (read.c: the exit would free them on one). */
void il_release(void **b, size_t n);
size_t il_sel_slot(struct il_sel *sel, const char *name); /* add or find */
/* The data slot of a kept label, or SIZE_MAX (prep.c). */
size_t il_data_slot(const struct il_data *d, const char *name);
/* Keep the records whose keep[i] is set, in order. */
void il_data_keep(struct il_data *d, const uint8_t *keep);
/* The exact integer value of record rec (IL_R_INT) whose value is x. */
static inline int64_t
il_ival_of(const struct il_data *d, size_t rec, double x)
{
    return d->ivcol ? d->ivcol[rec] : (int64_t)x;
}
/* The same before il_analyze groups the values (d->val is then moved). */
static inline int64_t
il_ival(const struct il_data *d, size_t rec)
{
    return il_ival_of(d, rec, d->val[rec]);
}
/* Set it (after val[rec]), making the column when val cannot say it. */
void il_ival_set(struct il_data *d, size_t rec, int64_t iv);
/* The column of the n records' integers (room for cap), made if none. */
int64_t *il_ival_column(struct il_data *d, size_t cap);
/* The column of the n records' argv hashes (room for cap), made if none. */
uint32_t *il_argh_column(struct il_data *d, size_t cap);
uint64_t *il_imgh_column(struct il_data *d, size_t cap);
/* The string id of label slot s of record rec. */
static inline uint32_t
il_lab(const struct il_data *d, size_t rec, size_t s)
{
    if (d->labn[s])
        return d->labd[s].v[d->labn[s][rec]];
    return d->labc[s] ? d->labc[s][rec] : d->labk[s];
}
/* Set slot s of record rec to string id, records 0..rec-1 being set: a
 * column (room for cap records) is made at the slot's second value, and
 * widened at its (IL_LAB_NARROW + 1)th.  il_lab_set is the usual case
 * inline, il_lab_put the rest. */
void il_lab_put(struct il_data *d, size_t s, size_t rec, uint32_t id, size_t cap);
static inline void
il_lab_set(struct il_data *d, size_t s, size_t rec, uint32_t id, size_t cap)
{
    if (d->labn[s]) {
        const struct il_labdict *l = &d->labd[s];
        if (id < l->nat && l->at[id]) {
            d->labn[s][rec] = (uint16_t)(l->at[id] - 1);
            return;
        }
    } else if (d->labc[s]) {
        d->labc[s][rec] = id;
        return;
    } else if (rec && id == d->labk[s]) {
        return;
    }
    il_lab_put(d, s, rec, id, cap);
}
/* How slot s of d2's records becomes d's records n0.., d2's string ids as
 * d's by map, as il_lab_set would make them record by record:
 * IL_LAB_SAME when both have one and the same value (nothing to add);
 * IL_LAB_TABLE when both index their values in 2 bytes and d's can take
 * all of d2's, which are added to d's: *to then holds d2's indices as
 * d's, so that d's column n0 + i is to[d2->labn[s][i]] (the caller copies
 * and frees *to); else IL_LAB_EACH (il_lab_set record by record). */
enum il_lab_join { IL_LAB_EACH, IL_LAB_SAME, IL_LAB_TABLE };
enum il_lab_join il_lab_join_how(struct il_data *d, size_t s, size_t n0, const struct il_data *d2,
                                 const uint32_t *map, uint16_t **to);
/* Free slot s's column and values (labk[s] stays). */
void il_lab_free(struct il_data *d, size_t s);
/* "bench, rep, setup, system" (at most 24 named). */
void il_data_keys(const struct il_data *d, char *buf, size_t n);

/* ------------------------------------------------------------ threads.c */
/* 1 when this process may run on two CPUs or more (the threads of read.c,
 * group.c, analyze.c and twice.c). */
int il_two_cpus(void);
/* fn(a); when two, also fn(b), on a second thread where one can be made
 * (else after fn(a)). */
void il_both(void *(*fn)(void *), void *a, void *b, int two);

/* ------------------------------------------------------------ group.c */
struct il_group {
    uint32_t *key; /* nkey string ids */
    size_t n;
    double *x;     /* values in input order */
    uint32_t *rec; /* record indices in input order */
};

struct il_groups {
    size_t ng, nkey;
    size_t slot[IL_MAX_SLOTS]; /* data slots of the key, in --by order */
    struct il_group *g;        /* sorted naturally by key */
    double *xs;                /* every group's x, group after group */
    uint32_t *recs;            /* every group's rec, likewise */
    /* il_group_by_take: the room of d->val (nspare values, no longer
     * read), for scratch space; NULL once the caller freed it */
    double *spare;
    size_t nspare;
};

/* The groups' records only (their x NULL). */
int il_group_by(const struct il_data *d, const size_t *slots, size_t nkey, struct il_groups *gs);
/* The groups with their values: d->val moved into them, not copied (d->val
 * is NULL after, il_ival_of then), so that the values are held once; its
 * room stays as gs->spare. */
void il_group_by_take(struct il_data *d, const size_t *slots, size_t nkey, struct il_groups *gs);
void il_groups_free(struct il_groups *gs);
/* "bench=bzip2 system=O3" (or "all" for an empty key), leaving out key
 * position skip (SIZE_MAX: none); caller frees. */
char *il_group_name(const struct il_data *d, const struct il_groups *gs, const uint32_t *key,
                    const char *sep, size_t skip);
/* The group whose key equals key except at position pos, which is id;
 * -1 when absent. */
long il_group_find(const struct il_groups *gs, const uint32_t *key, size_t pos, uint32_t id);

/* ------------------------------------------------------------ describe.c */
/* What a group's "estimate" is (--estimator). */
enum il_est { IL_EST_MEAN, IL_EST_MEDIAN, IL_EST_Q, IL_EST_MIN };

struct il_estimator {
    enum il_est kind;
    double p;         /* the quantile for IL_EST_Q (0.1 for p10) */
    const char *name; /* "mean", "median", "p10", "min" */
};

struct il_summary {
    size_t n;
    double mean, sd, median, min, max, cv, lo, hi;
    int has_sd, has_ci; /* n >= 2 */
    /* Exact integers, when every value is one (counts above 2^53). */
    int exact, mean_exact;
    int64_t imin, imax, imean;
    /* The estimator and its interval; with a design (--setup, --levels)
     * the interval is taken over the units (setups), highest level. */
    double est, est_lo, est_hi;
    int has_est_ci;
    const char *ci_method; /* "t", "t over setups", "order statistics", ... */
    double ci_df;          /* NAN when the interval has none */
    double skew;           /* Kelly's (p90 + p10 - 2 p50) / (p90 - p10), n >= 10 */
};

struct il_diag {
    size_t outliers;   /* MAD rule, |modified z| > IL_OUTLIER_Z */
    int mad_checked;   /* n >= IL_DIAG_MIN_N and some spread */
    int first_special; /* the first run is an outlier among the rest */
    double first_z;    /* its modified z-score */
    size_t nacf;       /* lags 1..nacf in acf[] */
    double acf[IL_MAX_ACF];
    double acf_bound; /* 1.96 / sqrt(n) */
    int has_lb;
    int lb_lags;
    double lb_q, lb_p; /* Ljung-Box statistic and p-value */
};

double il_mean(const double *x, size_t n);
/* m[u] = il_mean of k consecutive arrays of n[u] values each in x, the same
 * bits, faster: four arrays of one length at a time. */
void il_means(const double *x, const size_t *n, size_t k, double *m);
/* s[j] = the sum of x[j*l .. (j+1)*l) from 0 in index order, j = 0..3: four
 * chains of additions in flight instead of one, each one's bits a plain
 * loop's (il_means, perm.c's rank sums). */
static inline void
il_sum4(const double *x, size_t l, double s[4])
{
    const double *a = x, *b = a + l, *c = b + l, *d = c + l;
    double sa = 0, sb = 0, sc = 0, sd = 0;
    for (size_t i = 0; i < l; i++) {
        sa += a[i];
        sb += b[i];
        sc += c[i];
        sd += d[i];
    }
    s[0] = sa;
    s[1] = sb;
    s[2] = sc;
    s[3] = sd;
}
/* m[j] = il_mean of the l values of unit j = 0..3 (value i at
 * x[j * uj + i * ui]: units one after another, uj = l and ui = 1, or side
 * by side, uj = 1 and ui = 4), from their sums s (il_sum4's): the sum
 * over l, corrected by the mean of the residuals about it, four chains
 * side by side; il_mean's bits (il_means, perm.c's flips). */
static inline void
il_mean4(const double *x, size_t l, size_t uj, size_t ui, const double s[4], double m[4])
{
    double n = (double)l, ma = s[0] / n, mb = s[1] / n, mc = s[2] / n, md = s[3] / n;
    double ca = 0, cb = 0, cc = 0, cd = 0;
    for (size_t i = 0; i < l; i++) {
        const double *v = x + i * ui;
        ca += v[0] - ma;
        cb += v[uj] - mb;
        cc += v[2 * uj] - mc;
        cd += v[3 * uj] - md;
    }
    m[0] = ma + ca / n;
    m[1] = mb + cb / n;
    m[2] = mc + cc / n;
    m[3] = md + cd / n;
}
/* Two doubles in one register (GCC's and clang's vector extension): each
 * lane's arithmetic is the scalar one, the same bits, two at a time
 * (perm.c's flips, setupfx.c's eight setups at a time). */
typedef double il_v2d __attribute__((vector_size(2 * sizeof(double))));

static inline il_v2d
il_ld2(const double *p)
{
    il_v2d v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline void
il_st2(double *p, il_v2d v)
{
    memcpy(p, &v, sizeof v);
}
/* A function compiled twice, for AVX2 and for any x86-64, the one chosen
 * as the program starts (GCC's and clang's target_clones, an ifunc):
 * the permutation tests' exchanges, whose lanes give the same bits
 * either way (setupfx.c's stat_grid, perm.c's flip_spreads).
 * -DIL_NO_TARGET_CLONES builds the one for any x86-64 only (to compare
 * the two). */
#if defined(__x86_64__) && defined(__has_attribute) && !defined(IL_NO_TARGET_CLONES)
#if __has_attribute(target_clones)
#define IL_TARGET_CLONES __attribute__((target_clones("avx2", "default")))
#endif
#endif
#ifndef IL_TARGET_CLONES
#define IL_TARGET_CLONES
#endif
/* Whether the machine has AVX2 (and the clones were built): a path of
 * four-double vectors, which without AVX2 spill and run slower than
 * pairs, is taken only then. */
static inline int
il_avx2(void)
{
#if defined(__x86_64__) && !defined(IL_NO_TARGET_CLONES)
    return __builtin_cpu_supports("avx2");
#else
    return 0;
#endif
}
double il_var(const double *x, size_t n, double mean); /* n - 1 divisor */
/* The largest magnitude a value may have: sums of squares of any number
 * of such values stay finite.  Larger ones are bad values (input.c). */
#define IL_VALUE_MAX 1e100
double il_quantile_sorted(const double *s, size_t n, double p);
/* The same quantile of an unsorted array (n > 0), found by selection,
 * which reorders it. */
double il_quantile_select(double *a, size_t n, double p);
double il_tq(double df);             /* t quantile at (1 + IL_CONF) / 2 */
double il_tq_p(double df, double p); /* t quantile at p */
double il_t_sf(double t, double df); /* P(T > t) */
int il_dcmp(const void *a, const void *b);
/* Whether a counting table of range entries is worth it for n items (a
 * counting sort or a seen-table instead of qsort): the ids' range within
 * about twice their number.  perm.c and units.c use it alike. */
static inline int
il_dense(size_t range, size_t n)
{
    return range <= 2 * n + 1024;
}
/* scratch holds n doubles; it is left holding x's values in some order. */
void il_summarize(const double *x, size_t n, double *scratch, struct il_summary *s);
/* Exact min, max and mean of the integer values of records rec[0..n)
 * (values x) into s (s->exact set). */
void il_summarize_int(const struct il_data *d, const uint32_t *rec, const double *x, size_t n,
                      struct il_summary *s);
double il_median_mad(const double *x, size_t n, double *scratch, double *mad);
/* The estimator of x (unsorted, n >= 1); scratch holds n doubles. */
double il_estimate(const struct il_estimator *e, const double *x, size_t n, double *scratch);
/* The same, and x's mean in *mean: the mean's once (a unit's both). */
double il_estimate_mean(const struct il_estimator *e, const double *x, size_t n, double *scratch,
                        double *mean);
/* Distribution-free interval of the p-quantile from order statistics:
 * [x_(l), x_(u)] with P(l <= Bin(n, p) < u) >= IL_CONF, equal tails.
 * IL_SE_FEW when n is too small for any such pair. */
int il_quantile_ci(const double *sorted, size_t n, double p, double *lo, double *hi,
                   double *coverage);
/* The same at level instead of IL_CONF. */
int il_quantile_ci_at(const double *sorted, size_t n, double p, double level, double *lo,
                      double *hi, double *coverage);
/* The fewest runs with an order-statistic interval of the p-quantile at
 * level (6 for the median at 95%, 29 for p10); SIZE_MAX if none. */
size_t il_quantile_min_n(double p, double level);
size_t il_acf(const double *x, size_t n, size_t maxlag, double *acf);
/* Ljung-Box over lags 1..h of acf for a series of n; returns the p-value. */
double il_ljung_box(const double *acf, size_t n, int h, double *q);
/* x in run order; scratch holds n doubles. */
void il_diagnose(const double *x, size_t n, double *scratch, struct il_diag *d);
/* il_diagnose given x's median med (il_quantile_select(x, n, 0.5), as
 * il_summarize's), which it then does not select again. */
void il_diagnose_med(const double *x, size_t n, double med, double *scratch, struct il_diag *d);
/* "mean", "median", "p10", "min" into e; -1 when not one of them. */
int il_estimator_parse(const char *s, struct il_estimator *e);

/* ------------------------------------------------------------ ratio.c */
enum il_ci_kind { IL_CI_BOUNDED, IL_CI_EXCLUSIVE, IL_CI_UNBOUNDED };

struct il_fieller {
    double ratio, df, h;
    enum il_ci_kind kind;
    double lo, hi; /* bounded: [lo, hi]; exclusive: <= lo or >= hi */
};

/* Means a (value) and b (baseline) and the variance of a - t b near
 * t = r = a/b: V(r + d) = v0 + 2 d v1 + d^2 v2, from centred data, with
 * df degrees of freedom. */
struct il_rvar {
    double a, b, v0, v1, v2, df;
};

double il_welch_df(double va, size_t na, double vb, size_t nb);
/* Fieller's set {t : (a - t b)^2 <= h^2 V(t)}, solved around r. */
void il_fieller(const struct il_rvar *v, double h, struct il_fieller *f);
/* The p-value of ratio = 1 from the same variance and df. */
double il_fieller_p(const struct il_rvar *v);
/* Two independent samples y (value) and x (baseline): Welch's df at the
 * estimated ratio, or with pooled the textbook pooled variance and
 * ny + nx - 2 df.  IL_SE_FEW when a side has < 2 values. */
int il_rvar_samples(const double *y, size_t ny, const double *x, size_t nx, int pooled,
                    struct il_rvar *v);
int il_fieller_samples(const double *y, size_t ny, const double *x, size_t nx, int pooled,
                       struct il_fieller *f);
/* t interval of the mean; IL_SE_FEW for n < 2. */
int il_tci(const double *x, size_t n, double *mean, double *lo, double *hi);
/* Geometric mean and the t interval of the mean of logs, exponentiated;
 * IL_SE_NONPOS if a value is <= 0 (*bad is its index), IL_SE_FEW when
 * n < 2 (the geometric mean is still set). */
int il_geomean_ci(const double *r, size_t n, double *gm, double *lo, double *hi, size_t *bad);

/* ------------------------------------------------------------ design.c */
/* How the runs are grouped into units for the interval (Kalibera & Jones:
 * the variance is taken at the highest level of repetition). */
enum il_dkind {
    IL_D_FLAT,   /* no design: runs are independent */
    IL_D_ONE,    /* one label: each value one unit (setup, top level) */
    IL_D_CROSSED /* two labels crossed: each pair a unit (cell) */
};

/* The variance of the mean of unit values as a bilinear form with fixed
 * weights: one label, var/k with k - 1 df; two crossed labels, a random
 * two-way model without interaction fitted by Henderson's method I
 * (ANOVA in the balanced case), its components truncated at 0, with
 * Satterthwaite's df. */
struct il_dvar {
    enum il_dkind kind;
    size_t k, I, J;
    size_t *fa, *fb; /* factor levels of each unit, 0-based */
    size_t *na, *nb; /* units per level */
    double w[3];     /* weights of SS_A, SS_B, SS_E (crossed) */
    double comp[3];  /* the fitted components, truncated: A, B, residual */
    double df;
};

/* fa, fb: ids of each unit's factor values (fb NULL for one label). */
int il_dvar_init(struct il_dvar *v, size_t k, const uint32_t *fa, const uint32_t *fb);
void il_dvar_free(struct il_dvar *v);
/* Fix the weights and df from the values x (one per unit). */
int il_dvar_fit(struct il_dvar *v, const double *x);
/* The estimate of cov(mean x, mean y) with the fitted weights. */
double il_dvar_cov(const struct il_dvar *v, const double *x, const double *y);
/* The interval of the mean of x over the units: mean +- t sqrt(V). */
int il_dvar_tci(struct il_dvar *v, const double *x, double *mean, double *lo, double *hi,
                double *df);
/* Paired units: a[u] value, b[u] baseline; the rvar of their means. */
int il_rvar_paired(struct il_dvar *v, const double *a, const double *b, struct il_rvar *out);

/* Heterogeneity of per-unit ratios beyond run-to-run noise: y[u] the log
 * ratios, var[u] their within-unit variances (from pooled variances with
 * df2 degrees of freedom).  Cochran's Q with an F reference, I^2, and the
 * between-unit variance tau^2 (Paule-Mandel) with its Q-profile interval. */
struct il_het {
    double q, df1, df2, p, i2, tau2, tau2_lo, tau2_hi;
    int has_tau_ci;
};
int il_heterogeneity(const double *y, const double *var, size_t k, double df2, struct il_het *h);
/* The tau^2 >= 0 where the generalised Q equals want (0 when Q(0) <= want). */
double il_q_solve(const double *y, const double *var, size_t k, double want);
/* tau^2's 95% interval takes its tails unequally: its lower end is
 * where Q(tau^2) meets Q's 96% point, its upper end the 1% point.  At tau
 * = 0, the boundary, an interval truncated at 0 covers 1 minus the lower
 * end's tail, 97.5% with equal tails; this way 96%, and 95% inside. */
#define IL_TAU_TAIL_LO 0.04
#define IL_TAU_TAIL_HI 0.01
/* The Q-profile interval of tau^2 ([*lo, *hi], holding tau2), its
 * reference moving from the quantiles of qs (Q at tau^2 = 0 over a test's
 * exchanges, nq of them, sorted here; NULL or fewer than 99: none) to
 * chi-squared's as tau^2 outgrows the units' error variances. */
void il_tau2_profile(const double *y, const double *var, size_t k, double *qs, size_t nq,
                     double tau2, double *lo, double *hi);
/* The same with F(k - 1, df2)'s quantiles, times k - 1, in place of qs':
 * variances from one pooled estimate of df2 degrees of freedom. */
void il_tau2_profile_f(const double *y, const double *var, size_t k, double df2, double tau2,
                       double *lo, double *hi);
/* The Q-profile interval of tau^2 alone, at level conf. */
int il_tau2_ci(const double *y, const double *var, size_t k, double conf, double *lo, double *hi);

/* ------------------------------------------------------------ levels.c */
struct il_levels {
    size_t n;                 /* levels */
    size_t r[IL_MAX_LEVELS];  /* repetitions per parent, r[0] lowest */
    double S2[IL_MAX_LEVELS]; /* biased per-level variance, eq. (1) */
    double T2[IL_MAX_LEVELS]; /* corrected estimator */
    double share[IL_MAX_LEVELS];
    double mean, lo, hi; /* grand mean and its interval from S_n^2 */
    int has_ci;
};

/* y holds prod(r) values, the lowest level varying fastest. */
int il_levels_compute(const double *y, const size_t *r, size_t n, struct il_levels *lv);
/* Optimal r_i for i < n from costs c[0..n-1] (c[0] lowest).  reps[i] is the
 * count, 1 when T_i^2 <= 0, or 0 when every level above shows no variance
 * (no finite optimum). */
void il_levels_reps(const struct il_levels *lv, const double *cost, long *reps);
/* The smallest top count whose predicted half-width, from the variance s2
 * of a top-level mean, is at most goal; IL_SE_NOTFOUND beyond limit. */
int il_levels_expected(double s2, double goal, long limit, long *top);
/* The expected variance of one top-level mean of the real design with
 * lower counts reps[0..n-2] (all >= 1), negative T^2 taken as 0. */
double il_levels_predict(const struct il_levels *lv, const long *reps);
/* M draws of that variance from what the initial experiment says of it
 * (fixed seed IL_ASSURE_SEED). */
int il_levels_draws(const struct il_levels *lv, const long *reps, size_t M, double *out);
#define IL_ASSURE_DRAWS 4000
#define IL_ASSURE_SEED 20130616UL
/* Assurance: the probability that top repetitions of the top level give a
 * 95% half-width within goal (absolute), over the M draws. */
double il_levels_assurance(const double *draws, size_t M, long top, double goal);
/* The smallest top count with an assurance of at least want (0 < want <
 * 1), searched from start, and that assurance; IL_SE_NOTFOUND beyond
 * limit. */
int il_levels_assured(const double *draws, size_t M, double goal, double want, long start,
                      long limit, long *top, double *p);
/* The number of top-level units an initial experiment needs to estimate
 * T_n^2 > 0 with probability conf when the top level's sd is sd, at this
 * experiment's lower counts; 0 beyond limit. */
long il_levels_pilot_top(const struct il_levels *lv, double sd, double conf, long limit);
#define IL_PILOT_CONF 0.9 /* ... with this probability */
/* The design that plan's --target refers to and its assurance. */
struct il_assure {
    int initial;                /* the lower counts are the initial experiment's */
    int no_estimate;            /* the top level's T^2 <= 0 left no optimal lower count */
    long design[IL_MAX_LEVELS]; /* lowest first; design[n-1] the top count */
    long expected;              /* top count whose predicted half-width meets the target */
    double p_expected;          /* the probability that that count meets it */
    double p;                   /* the probability that design meets it */
    double s2;                  /* expected variance of a top-level mean */
    long pilot_need;            /* top units an initial experiment needs (0: over the limit) */
    double pilot_sd;            /* ... to show a top-level sd this large */
};

/* That design for a half-width of rel (0.01 = 1%) of the mean: the lower
 * counts reps[0..n-2] (NULL, or a 0 among them: the initial counts), the
 * top count that meets it in the expected case, and with want > 0 the
 * smallest that meets it with probability want.  IL_SE_RANGE for a zero
 * mean, IL_SE_NONPOS when the top level's T^2 <= 0 left a lower count
 * unknown (a 0 in reps), IL_SE_ZEROVAR when the prediction is 0,
 * IL_SE_NOTFOUND beyond limit (a->expected 0: even in the expected case). */
int il_levels_design(const struct il_levels *lv, const long *reps, double rel, double want,
                     long limit, struct il_assure *a);

/* Hierarchical bootstrap: B replicate means into out, resampling every
 * level with replacement, nested (Kalibera & Jones, section 9.3). */
int il_boot_hier(const double *y, const size_t *r, size_t n, size_t B, unsigned long seed,
                 double *out);
/* Arrange the records of one group into the balanced array y.  lab gives,
 * per record, its ids for the levels (highest first).  On an error, *where
 * names the offending record index and *depth its level. */
int il_levels_arrange(const double *x, const uint32_t *const *lab, size_t nrec, size_t n,
                      double **y, size_t *r, size_t *where, size_t *depth, size_t *got,
                      size_t *want, size_t *other);

/* ------------------------------------------------------------ cli.c */
enum il_tool { IL_TOOL_REPORT, IL_TOOL_PLAN, IL_TOOL_PLOT };
enum il_fmt { IL_FMT_TABLE, IL_FMT_JSON, IL_FMT_CSV, IL_FMT_MARKDOWN, IL_FMT_GOBENCH };

struct il_opts {
    enum il_tool tool;
    struct il_sel sel;
    const char *by[IL_MAX_SLOTS];
    size_t nby;
    const char *cmp_label, *cmp_base;
    int pooled, speedup, include_failed;
    int attribute;        /* --attribute (attrib.c) */
    const char *setup[2]; /* --setup A or A,B (crossed) */
    size_t nsetup;
    const char *per;                   /* --per KEY */
    const char *sub_label, *sub_value; /* --subtract LABEL=VALUE (prep.c) */
    size_t sub_slot;
    const char *levels[IL_MAX_LEVELS]; /* highest first, as given */
    size_t nlevels;
    double costs[IL_MAX_LEVELS]; /* as given: highest first */
    size_t ncosts;
    double target;    /* relative half-width, 0.01 for 1%; 0 for none */
    double assurance; /* asked probability of reaching the target; 0 for none */
    size_t boot;
    unsigned long seed;
    struct il_estimator est;
    enum il_fmt fmt;
    const char *plot_kind, *out, *keep, *title;
    size_t bins; /* plot hist: 0 for the default */
    /* the setups' test of equal ratios goes without its p-value: set for
     * every figure (no plot draws the test, and its permutations were most
     * of violin's and hist's time at a million records: issue 18);
     * comparisons.c then leaves het.p NaN, and no exchanges calibrate
     * tau's interval; the warnings, which do not depend on it, stay */
    int no_het_p;
    double size_w, size_h; /* plot: inches; 0 for the kind's default */
    char **files;
    int nfiles;
    const char *passes; /* --passes: the label of the sweep's passes; NULL for none */
    int passes_given;
    /* slots in sel (pass_slot SIZE_MAX without passes) */
    size_t by_slot[IL_MAX_SLOTS], cmp_slot, setup_slot[2], level_slot[IL_MAX_LEVELS], per_slot,
        pass_slot;
    /* the design of the comparisons: --setup, or the top of --levels */
    enum il_dkind design;
    size_t design_slot[2];
    const char *d_label[2];
};

/* Parse argv for tool; prints the usage to stdout and exits 0 on --help,
 * and exits 1 after one line on stderr on bad use. */
void il_parse_opts(enum il_tool tool, int argc, char **argv, struct il_opts *o);

/* ------------------------------------------------------------ units.c */
/* A group's runs split into units (setups, or cells of two crossed
 * labels), in unit order. */
struct il_units {
    size_t k;
    uint32_t *id;      /* the unit's string id ("A", or "A|B" for a cell) */
    uint32_t *fa, *fb; /* its label value ids (fb: crossed only) */
    size_t *off, *n;   /* its runs are x[off[u] .. off[u] + n[u]) */
    double *x;         /* the values, unit by unit */
    int x_shared;      /* x is the group's own x, reordered (in_place) */
    double *mean, *est;
    /* each run's place in its group (the group's x and rec in input
     * order); NULL after il_units_cells unless kept */
    uint32_t *pos;
    /* Each run's pass (--passes, rep by default), or IL_MISSING_ID; both
     * NULL when no record has one; read with il_upass.  pass16: the
     * pass's rank among the pass label's values in the order of their
     * string ids, IL_MISSING_ID's 0 (2 bytes a run) when the label has
     * at most IL_LAB_NARROW values; else pass: the string ids. */
    uint16_t *pass16;
    uint32_t *pass;
    uint32_t *cell; /* each run's values of the sweep's factors that vary
                     * within a unit (il_units_cells), as one number */
};

/* Run i's pass as a number whose order and equality are the string ids'
 * (IL_MISSING_ID when it has none); whether the runs have passes. */
static inline uint32_t
il_upass(const struct il_units *u, size_t i)
{
    return u->pass16 ? u->pass16[i] : u->pass[i];
}
static inline int
il_has_pass(const struct il_units *u)
{
    return u->pass16 || u->pass;
}

struct il_group;
struct il_data;
/* pass_slot: the data slot of the pass label, SIZE_MAX for none.
 * in_place: the units' x is g's x itself, its values moved into the
 * units' order (so g->x is no longer in input order), not a copy. */
void il_units_build(struct il_data *d, const struct il_group *g, enum il_dkind kind,
                    const size_t *slot, size_t pass_slot, const struct il_estimator *e,
                    int in_place, struct il_units *u);
/* The cells of every group's runs (units[g] of gs->g[g]): the sweep's
 * factors (env_add, layout, stack_offset, heap_offset) that vary within
 * some unit of some group, the same numbering across the groups.  Frees
 * the runs' pos unless keep_pos. */
void il_units_cells(const struct il_data *d, const struct il_groups *gs, struct il_units *units,
                    size_t ng, int keep_pos);
/* Mark in keep (by data slot) the label slots that il_units_build and
 * il_units_cells read. */
void il_units_slots(const struct il_data *d, enum il_dkind kind, const size_t *slot,
                    size_t pass_slot, uint8_t *keep);
/* The units' runs in their group's input order (the pos kept), a new
 * array: the group's x as it was before an in_place build. */
double *il_units_in_order(const struct il_units *u);
void il_units_free(struct il_units *u);

/* ------------------------------------------------------------ analyze.c */
/* The per-setup view: each paired unit's ratio with its interval, the
 * test of whether they differ beyond run-to-run noise, and summaries. */
struct il_setups {
    size_t n, unpaired;
    double *ratio;     /* per-setup ratios */
    uint32_t *setup;   /* their setup ids */
    uint32_t *sa, *sb; /* the label values of each setup (sb: crossed) */
    double *lo, *hi;   /* each ratio's 95% interval (NAN: none) */
    double *alo, *ahi; /* the same at adj (NAN: none) */
    double adj;        /* 1 - 0.05/n (Bonferroni) */
    size_t *na, *nb;   /* runs of value and baseline in the setup */
    double min, median, max;
    double mean, lo_mean, hi_mean; /* arithmetic mean of the ratios (labelled so) */
    int has_ci;
    double gm, gm_lo, gm_hi; /* geometric mean, interval in log space */
    int has_gm_ci;
    const char *ci_method;
    /* A setup effect: the spread exceeds run-to-run noise. */
    int has_het, het_perm, est_mean;
    /* The test's exchange: within (setup, pass) blocks (perm.c), with the
     * passes and blocks that had runs of both sides and the runs left out
     * (no run of the other side in their block); or, without, the runs of
     * a setup freely, and why (exch_why).  tau's interval: at the
     * exchanges' quantiles of Q (tau_calibrated), at F's (tau_f), else
     * at chi-squared's. */
    int exch_blocks, tau_calibrated, tau_f;
    size_t passes, blocks, block_left_out;
    const char *exch_why;
    const char *het_why;    /* why the test could not run (NULL: it ran) */
    char het_why_buf[320];  /* het_why, when it is made for the design */
    const char *tau_ci_why; /* why het has no tau interval, when it has none */
    /* "one setup alone could have shown either conclusion": decided by
     * tests (straddles says how), or not, and why: what it would need;
     * with some setups lacking an adjusted interval, which were tested */
    int straddle_tested;
    size_t adj_setups; /* setups with an adjusted interval */
    char straddle_why[800];
    struct il_het het;
    size_t above, below; /* adjusted intervals wholly above / below 1 */
    int straddles;       /* het rejects and above and below are both > 0 */
    int raw_straddles;   /* min < 1 < max, which noise alone produces */
    int has_shares;      /* crossed: shares of the per-setup log-ratio variance */
    double share[3];
};

struct il_cmp {
    size_t g, base;          /* group indices of the value and the baseline */
    char *unit;              /* labels other than the compared one, "bench=bzip2" */
    struct il_fieller f;     /* the headline interval: the design's, or flat */
    int few;                 /* no interval (too few runs or units) */
    const char *method;      /* how f was computed, what it assumes */
    double value, baseline;  /* the two estimates whose ratio f.ratio is */
    size_t unpaired, paired; /* setups on one side only; on both */
    int has_p;
    double p, p_holm; /* p-value of ratio = 1, and Holm-adjusted (suite) */
    int holm, holm_sig;
    int has_flat;
    struct il_fieller flat; /* the interval as if all runs were independent */
    double vlog, vlog_df;   /* variance of log ratio and its df (suite) */
    int has_svr;            /* the ratio of the two groups' setup variances */
    double svr, svr_lo, svr_hi;
    const char *svr_why; /* with a design and no ratio: why */
    int has_setups;
    struct il_setups su;
    char setups_why[800]; /* why there is no per-setup view (has_setups 0) */
    char *verdict;
};

struct il_suite {
    uint32_t value;    /* compared label value */
    size_t n;          /* benchmarks */
    double gm, lo, hi; /* geometric mean; interval with the within-benchmark
                          uncertainty (these benchmarks) */
    int has_ci;
    double blo, bhi; /* interval over benchmarks (k - 1 df in log space) */
    int has_bci;
    /* The harness's passes (suitepass.c), when the records have them:
     * passes of the value and of the baseline, the benchmarks measured in
     * every one, the suite ratio per pass (paired in order), the ratio
     * and Welch interval over the passes (df), and the F test of the
     * per-pass ratios against the benchmarks' noise. */
    int has_passes, has_pass_ci, has_pass_f;
    size_t pass_a, pass_b, pass_m, npass_ratio;
    double *pass_ratio;
    double pass_gm, pass_lo, pass_hi, pass_df;
    double pass_f, pass_df1, pass_df2, pass_p;
    /* Setups shared by the benchmarks (suiteshare.c): 1, every benchmark
     * was measured in the same sh_k setups, and lo/hi (sh_df) and
     * blo/bhi (sh_bdf) above take the setups as the unit, the intervals
     * over independent benchmarks kept in ind_*; 2, sh_k setups are in
     * two or more benchmarks, but sh_why, so the intervals are as
     * before. */
    int shared;
    size_t sh_k;
    double sh_df, sh_bdf;
    int ind_has_ci, ind_has_bci;
    double ind_lo, ind_hi, ind_blo, ind_bhi;
    char sh_why[96];
    char *verdict;
};

/* The passes of a harness (suitepass.c): per value of the compared label
 * (val), its k passes as record ranges [from, to) in input order; each
 * group's value index (vof) and its estimate in each pass (est, NAN
 * where it has no run). */
struct il_passes {
    size_t nval;
    uint32_t *val;
    size_t *k;
    size_t *vof;
    double **est;
};

/* A group's setup effect (setupfx.c): how much its setups' estimates
 * differ beyond run-to-run noise, and which setups stand out. */
struct il_gsetups {
    size_t k;
    uint32_t *setup;    /* unit ids, in unit order */
    double *est;        /* each setup's estimate */
    size_t *n;          /* its runs */
    double *z;          /* modified z-score of its log estimate among the setups */
    double center;      /* the median of the setup estimates */
    unsigned char *out; /* stands out: its deviation passes crit (setupfx.c) */
    size_t nout;
    /* each setup's estimate as the test judged it (its runs divided by
     * their block's level when blocked; NAN when left out), and the
     * median those deviate from: setup u stands out when
     * sqrt(n[u]) |log(test_est[u] / test_center)| > crit */
    double *test_est, test_center;
    int has_test;           /* p: no setup effect, by permuting runs across setups */
    int blocked;            /* ... within each block (pass and cell), not freely */
    const char *free_why;   /* not blocked: why (NULL: the records carry no passes) */
    size_t passes, nblocks; /* blocked: the passes and blocks */
    int calibrated;         /* het's tau^2 interval from the shuffles' Q, not chi^2 */
    double p;
    double crit;         /* the 95% point of the largest sqrt(n) |log est - median| */
    int has_tau;         /* het: tau^2 of the log estimate (Q, i2, interval) */
    struct il_het het;   /* its p is the F reference's; p above is the test */
    double *y;           /* log estimates of the setups (z) */
    size_t left_out;     /* setups with one run, out of the test */
    size_t tau_left_out; /* setups without the runs for tau */
    const char *why, *tau_why, *tau_ci_why; /* why there is no test, tau, interval */
    char why_buf[320];                      /* why, when it is made for the design */
    size_t tk; /* tau's setups: their log estimates and error variances */
    double *ty, *tvar;
};

struct il_report {
    const struct il_opts *o;
    struct il_data d;
    struct il_groups gs;
    struct il_summary *sum;
    struct il_diag *diag;
    char **gname;
    struct il_units *units; /* per group, with a design */
    int lean;               /* the runs are read through the units only (analyze.c, drop_runs) */
    struct il_gsetups *gsu; /* per group, with a design (report only) */
    size_t *others;         /* per group, its records with others_measured (NULL: none read) */
    size_t *execs;          /* per group, its records that end in an exec (NULL: none read) */
    size_t *nargs;          /* per group, its argument lists if mixed in a setup (NULL: none) */
    char **images;          /* per group, its images if one program ran two (NULL: none) */
    size_t cmp_pos;         /* key position of the compared label */
    uint32_t base_id;
    struct il_cmp *cmp;
    size_t ncmp;
    struct il_suite *suite;
    size_t nsuite;
    struct il_passes *passes; /* the harness's passes (NULL: none) */
    int has_levels;
    struct il_levels lv;   /* one group */
    struct il_levels *glv; /* per group with --levels and --compare */
    double *ly;            /* balanced values for the bootstrap */
    int has_plan, c1_measured, has_top;
    double cost[IL_MAX_LEVELS]; /* lowest first */
    long reps[IL_MAX_LEVELS];   /* lowest first; reps[n-1] = top for --target */
    int has_boot;
    double bmean, bsd, blo, bhi;
    struct il_assure as;  /* with --target */
    struct il_attr *attr; /* --attribute: per comparison, or per group without */
    size_t nattr;
};

void il_analyze(const struct il_opts *o, struct il_report *r);
/* What r holds in large blocks released (il_release) and set NULL: for
 * the end of a program that reads r no more (report.c). */
void il_report_release(struct il_report *r);
/* "0.7% faster" style change for ratio x (in the report's direction). */
void il_change(char *buf, size_t n, double x, int timey, int speedup);
/* Per-group summaries with the design's intervals (describe_groups). */
void il_group_intervals(struct il_report *r);

/* ------------------------------------------------------------ setupfx.c */
/* Each group's setup effect, with a design (r->gsu). */
void il_group_setups(struct il_report *r);
/* Comparison c's ratio of setup variances (tau^2), value over baseline in
 * the report's direction, with an interval of at least 95%. */
void il_setup_var_ratio(const struct il_report *r, struct il_cmp *c);
void il_gsetups_free(struct il_gsetups *s);

/* ------------------------------------------------------------ prep.c */
/* After reading: leave out failed runs (--include-failed keeps them) and
 * combine records into runs (--per); then derived metrics are divided. */
void il_prepare(const struct il_opts *o, struct il_data *d);
/* Errors for label keys that no record carries, and design warnings. */
void il_check_labels(const struct il_opts *o, const struct il_data *d);

/* ------------------------------------------------------------ suitepass.c */
/* Whether the records come in passes (a harness run system after system),
 * and each group's estimate per pass: before the runs are dropped. */
void il_passes_find(struct il_report *r);
void il_passes_free(struct il_passes *p);
/* Suite s's ratio per pass, its interval over the passes and the test of
 * a pass-wide shift, from comparisons cs[0..ncs) of its value. */
void il_suite_passes(const struct il_report *r, const struct il_cmp *const *cs, size_t ncs,
                     struct il_suite *s);

/* ------------------------------------------------------------ suiteshare.c */
/* Whether suite s's benchmarks cs[0..n) share their setups, and if every
 * one has the same setups, its intervals with the setups as the unit. */
void il_suite_shared(const struct il_report *r, const struct il_cmp *const *cs, size_t n,
                     struct il_suite *s);
/* What a setup is, in words: "values of layout", "cells of env_add x layout". */
void il_shared_what(char *buf, size_t n, const struct il_opts *o);

/* ------------------------------------------------------------ comparisons.c */
void il_compare(struct il_report *r);
/* Why setup u of s has no 95% interval (adjusted 0) or none adjusted for
 * the number of setups (1), into buf: for a null beside it. */
void il_setup_ci_why(const struct il_opts *o, const struct il_setups *s, size_t u, int adjusted,
                     char *buf, size_t n);

/* ------------------------------------------------------------ robust.c */
/* Quantiles at alpha[l] / 2 and 1 - alpha[l] / 2 (l = 0, 1) of the log
 * ratio of the means of na and nb draws from the residuals ea and eb. */
int il_resid_boot(const double *ea, size_t nea, const double *eb, size_t neb, size_t na, size_t nb,
                  size_t B, unsigned long seed, const double *alpha, double *q);
/* Percentile bootstrap of the ratio est(y)/est(x), runs resampled within
 * each sample (stratified); B replicates, seeded.  Returns the variance
 * of the log ratio over replicates in *vlog.  IL_SE_QFEW when a side has
 * fewer than il_boot_min_n(e, level) runs. */
/* The fewest runs a side for an interval of a ratio of e at level: those
 * of an order-statistic interval of the quantile at level. */
size_t il_boot_min_n(const struct il_estimator *e, double level);
/* Why there is none: "too few runs for an interval of the 10th percentile
 * (needs 29 a side)". */
void il_boot_few_why(const struct il_estimator *e, double level, char *buf, size_t n);
int il_boot_ratio(const struct il_estimator *e, const double *y, size_t ny, const double *x,
                  size_t nx, size_t B, unsigned long seed, double level, double *lo, double *hi,
                  double *vlog, double *p);
/* Permutation test of equal per-unit log ratios: within each unit, the
 * value and baseline runs (value scaled by 1/theta) are shuffled; for the
 * mean the statistic is Cochran's Q against pooled variances, and with qp
 * (P doubles) the shuffles' Q, *nq of them. */
double il_perm_het(const struct il_estimator *e, const struct il_units *a, const struct il_units *b,
                   const size_t *ua, const size_t *ub, size_t k, double theta, size_t P,
                   unsigned long seed, double *qp, size_t *nq);

/* ------------------------------------------------------------ perm.c */
/* The within-block contrasts of a comparison over k paired units (value
 * unit ua[u], baseline unit ub[u]): a block is the runs of one unit with
 * one pass and one cell (units.c); a block with runs of both sides gives
 * one contrast, log est(value runs / theta) - log est(baseline runs),
 * with est the mean (or the median for a quantile estimator) and theta
 * the contrasts' common location. */
struct il_contrast {
    int ok;            /* blocks with runs of both sides, and a statistic */
    const char *why;   /* when not ok: why not */
    int median;        /* locations are medians (a quantile estimator) */
    size_t k;          /* units */
    size_t units;      /* units with a block of both sides */
    size_t blocks;     /* such blocks */
    size_t passes;     /* distinct passes among them */
    size_t left_out;   /* runs in a block without the other side */
    size_t *m, *first; /* per unit: its blocks, the index of its first */
    double *loc;       /* per unit: the location of its contrasts (NAN: none) */
    double center;     /* log theta */
    double df, s2;     /* the pooled within-unit variance of the contrasts */
    /* the mean: each unit's log ratio of means over its blocks (NAN: no
     * block), and the jackknife's residuals and variance of one block's
     * share of it (perm.c, jackknife) */
    double *lr, *jres, s2j;
    size_t njres;
    double q;       /* the spread of the units' locations: Cochran's Q
                     * (the mean), the blocks-weighted spread of medians */
    double stat, p; /* the observed statistic (the mean: the spread of
                     * the units' mean signed ranks; a quantile: q); the
                     * permutation p-value */
    /* the blocks, in order: runs of the value (bna) then the baseline
     * (bnb), the value's divided by theta, block after block in v; c[j]
     * the contrast, sr[j] twice its signed rank (the mean; an integer) */
    uint32_t *bna, *bnb;
    size_t maxn, maxm; /* the most runs in a block, blocks in a unit */
    int pairs;         /* every block has one run a side (v, bna and bnb
                        * are then freed: one run a side) */
    double *v, *c;
    int32_t *sr;
};
/* 0 when the records have blocks of both sides (ct->ok), else -1 with
 * ct->why; free ct with il_contrast_free either way. */
int il_contrasts(const struct il_estimator *e, const struct il_units *a, const struct il_units *b,
                 const size_t *ua, const size_t *ub, size_t k, struct il_contrast *ct);
/* The p-value of equal per-unit ratios by P exchanges of the runs of the
 * two sides within each block (a sign flip for one run a side); with qp
 * (P doubles), the exchanges' q (for the mean, Cochran's Q of the units'
 * mean contrasts against s2 / m), *nq of them. */
double il_perm_contrasts(struct il_contrast *ct, size_t P, unsigned long seed, double *qp,
                         size_t *nq);
void il_contrast_free(struct il_contrast *ct);
/* The smallest p-value a permutation test can give, counted from the
 * design (minp.c), and what would bring it to IL_PERM_ALPHA: passes of
 * the same kind, or setups (0: not known). */
#define IL_PERM_ALPHA 0.05
struct il_minp {
    double minp;
    size_t passes, setups;
};
double il_minp_contrast(const struct il_contrast *ct, struct il_minp *mp);
/* A group's setup test: no pass holds runs of two setups (setupfx.c). */
extern const char il_why_confounded[];
double il_minp_pairs(const size_t *na, const size_t *nb, size_t k, struct il_minp *mp);
/* pos, bs, nb: the group's blocks (il_pass_blocks), or pos NULL: one */
double il_minp_group(const struct il_units *un, const uint32_t *pos, const size_t *bs, size_t nb,
                     struct il_minp *mp);
/* "with 2 setups in 2 passes the exchanges cannot give p below 0.12, ..." */
void il_minp_why(const struct il_minp *mp, size_t setups, size_t passes, char *buf, size_t n);
/* ------------------------------------------------------------ seqp.c */
/* A permutation p-value counted exchange by exchange (Besag and
 * Clifford's sequential rule, stopping once 5% is decided; sequential 0:
 * the full test of P).  il_seqp_add counts an exchange that gave a
 * statistic, reached or not; it returns 1 when the test may stop. */
struct il_seqp {
    size_t P, h;     /* the most exchanges; the reached ones that stop (0: never) */
    size_t ge, done; /* exchanges that reached the statistic; all counted */
    int stopped;
};
void il_seqp_init(struct il_seqp *s, size_t P, int sequential);
int il_seqp_add(struct il_seqp *s, int reached);
double il_seqp_p(const struct il_seqp *s);
/* The blocks of a restricted permutation of a group's runs: a group's
 * test of no setup effect exchanges runs across its units (setups) only
 * within a block, the runs of one pass and one cell (units.c): what the
 * sweep's randomization could have exchanged.  Returns the runs'
 * positions in un->x ordered by block, the nb blocks starting at
 * (*bs)[b] ((*bs)[nb] = the runs); NULL when a run has no pass (then
 * exchange freely: il_block_shuffle with pos NULL) or, with *none set,
 * when no block holds runs of two units (nothing can be exchanged).  Free
 * the positions and *bs.  Reusable for any test whose null hypothesis
 * says the units do not matter (attribution, say). */
uint32_t *il_pass_blocks(const struct il_units *un, size_t **bs, size_t *nb, int *none);
/* Each run x[pos[..]] divided by its block's level (the mean of the
 * block's runs, or their median for any other estimator), so that drift
 * between passes cancels in a statistic of the units; a shuffle within
 * blocks leaves the levels as they are.  0, or -1 when a level is not
 * positive (x is then left as it was). */
int il_block_normalize(const struct il_estimator *e, double *x, const uint32_t *pos,
                       const size_t *bs, size_t nb);
struct il_rng;
/* One exchange: x[pos[bs[b] ..< bs[b + 1]]] shuffled in place within each
 * block (Fisher-Yates, drawing from g), or all of x[0 ..< N] when pos is
 * NULL. */
void il_block_shuffle(double *x, size_t N, const uint32_t *pos, const size_t *bs, size_t nb,
                      struct il_rng *g);
struct il_setups;
struct il_gsetups;
/* The exchange a comparison's test of equal per-setup ratios assumed
 * ("within (setup, pass)" or "within setup"), and a group's test of no
 * setup effect ("within pass" or "free"); then the same as sentences. */
const char *il_exch_cmp(const struct il_setups *s);
const char *il_exch_group(const struct il_gsetups *s);
void il_exch_cmp_text(const struct il_opts *o, const struct il_setups *s, char *buf, size_t n);
void il_exch_group_text(const struct il_opts *o, const struct il_gsetups *s, char *buf, size_t n);

/* ------------------------------------------------------------ attrib.c */
/* Which recorded fact explains the differences between setups
 * (--attribute; interloper-report(1), "Attribution"). */
#define IL_ATTR_P 1999 /* exchanges of each of the two tests */
enum il_fact_state {
    IL_FACT_TESTED,
    IL_FACT_MISSING, /* not in every record */
    IL_FACT_VARIES,  /* varies within a setup (main_sp with ASLR on) */
    IL_FACT_SAME,    /* the same in every setup */
    IL_FACT_EVERY,   /* a class of its own for every setup */
    IL_FACT_EQUIV    /* the same classes as an earlier fact (equiv) */
};
struct il_fact {
    char *name;   /* "main_sp mod 64", "position of b.o" */
    int state;    /* enum il_fact_state */
    size_t equiv; /* IL_FACT_EQUIV: the fact tested for it */
    size_t nclass;
    double f_noise, f_setups; /* the F statistics */
    double p_noise, p_setups; /* each adjusted over all facts (max-T) */
    double p;                 /* the larger: the fact's p-value */
    double r2;                /* share of the setups' variance between its classes */
    int named;                /* p <= 0.05 */
    long refines;             /* named, and a refinement of named fact i; -1 */
    long overlaps;            /* named, but explains nothing beyond fact i, the
                               * strongest: their classes overlap; -1 */
    double p_beyond;          /* ... the partial F's p-value given fact i */
    int alternative;          /* overlaps, and fact i explains nothing beyond it
                               * either: the records cannot tell them apart */
    char **cname;             /* each class: its value ("0x30", "3") */
    double *cratio;           /* ... its ratio (or estimate over the mean) */
    size_t *csetups;          /* ... its setups */
};
struct il_attr {
    char *name;      /* the comparison's or group's name */
    int cmp;         /* a comparison: per-setup log ratios; else log estimates */
    const char *why; /* no test: why (NULL: tested) */
    size_t setups, passes, blocks, left_out;
    int blocked; /* the records carry passes (label rep) */
    size_t nfact, tested, named;
    struct il_fact *f;
    size_t P;
};
void il_attribute(struct il_report *r);
/* out_attrib.c: the text section and the JSON's attribution[] */
void il_attr_text(FILE *fp, const struct il_report *r, int md);
json_t *il_attr_json(const struct il_report *r);

/* ------------------------------------------------------------ out_*.c */
void il_fmt_num(char *buf, size_t n, double x);
/* Shortest text that reads back as x (%.15g, %.16g or %.17g). */
void il_fmt_exact(char *buf, size_t n, double x);
/* Interval ends with enough digits that lo, est and hi stay apart. */
void il_fmt_interval(char *buf, size_t n, double lo, double est, double hi);
void il_out_text(FILE *fp, const struct il_report *r, int markdown);
void il_out_csv(FILE *fp, const struct il_report *r);
/* "label=value" pairs joined by sep, values quoted when they hold sep,
 * '=' or '"' (CSV and Markdown). */
char *il_labels_text(const struct il_report *r, const uint32_t *key, const char *sep, size_t skip);
void il_out_gobench(FILE *fp, const struct il_report *r);
void il_out_json(FILE *fp, const struct il_report *r);

/* ------------------------------------------------------------ kde.c */
/* Gaussian kernel density at m points over [lo, hi] (Silverman's bandwidth). */
double il_kde(const double *x, size_t n, double lo, double hi, size_t m, double *dens);

#endif
