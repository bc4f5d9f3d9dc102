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
 *   ratio.c     Fieller ratio intervals, per-setup ratios, geometric means
 *   levels.c    Kalibera & Jones levels, repetition counts, bootstrap
 *   analyze.c   turns groups into a struct il_report, verdicts, warnings
 *   out_text.c  table, markdown, CSV, Go benchmark text; out_json.c JSON
 *   cli.c       options shared by the three commands
 *   report.c, plan.c, plot.c, kde.c  the commands
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

#include "il_xalloc.h"

#define IL_CONF 0.95        /* every interval is a 95% interval */
#define IL_SCAN_MAXPATHS 32 /* fields one scan can locate */
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
};
const char *il_se_strerror(int e);

/* ------------------------------------------------------------ strtab.c */
/* Allocation that cannot fail (il_xmalloc...): include/il_xalloc.h. */

/* ------------------------------------------------------------ warn.c */
enum il_wkind {
    IL_W_LINE,        /* file, line, what */
    IL_W_MORE_LINES,  /* count */
    IL_W_SCHEMA,      /* "file:line: schema X" */
    IL_W_UNSUPPORTED, /* count, metric, used */
    IL_W_MISSING,     /* count, metric, used */
    IL_W_NOFLOOR,     /* count, metric */
    IL_W_NOENV,       /* count */
    IL_W_FEW,         /* group, n */
    IL_W_OUTLIERS,    /* group, k, n */
    IL_W_FIRST,       /* group, z */
    IL_W_DEPENDENT,   /* group, p, lags, acf1, bound */
    IL_W_NOBASE,      /* group, "label=baseline" */
    IL_W_UNPAIRED,    /* comparison, unpaired, paired */
    IL_W_NOTBOUNDED,  /* comparison, kind text */
    IL_W_SUITE_ONE,   /* "value vs baseline" */
    IL_W_T2,          /* level */
    IL_W_NOOPT,       /* level */
    IL_W_SETUPS_FEW,  /* comparison, n */
    IL_W_COUNT
};
/* Print "warning: SENTENCE" on stderr and keep it for the JSON output. */
void il_warn(enum il_wkind k, ...);
size_t il_warnings(const char *const **out);

/* ------------------------------------------------------------ scan.c */
struct il_span {
    const char *p; /* first byte of the value; NULL when absent */
    size_t n;
};

struct il_path {
    const char *key[IL_SCAN_KEYS];
    size_t klen[IL_SCAN_KEYS];
    int depth;
};

struct il_scan {
    const struct il_path *paths;
    int npaths;
    struct il_span found[IL_SCAN_MAXPATHS];
    /* Optional: called for each member key of the object found at path
     * keys_of (e.g. the names under "events"); -1 for none. */
    int keys_of;
    void (*key_cb)(void *ctx, const char *key, size_t n, int escaped);
    void *key_ctx;
    /* On failure: a reason and the byte offset it refers to. */
    const char *err;
    size_t errpos;
};

void il_path_set(struct il_path *p, const char *k0, const char *k1, const char *k2);
/* Validate one line as a JSON text (RFC 8259, as strict as jansson except
 * that numbers of any size are accepted) and record the spans of the wanted
 * paths.  Returns 0, or -1 with sc->err set. */
int il_scan_line(struct il_scan *sc, const char *s, size_t n);
/* Decode the contents of a JSON string (between the quotes) into out, which
 * holds at least n+1 bytes; returns the decoded length. */
size_t il_json_unescape(const char *s, size_t n, char *out);
/* A span holding a JSON number as a double; 0, or -1 if not a number. */
int il_span_number(struct il_span sp, double *v);

/* ------------------------------------------------------------ strtab.c */
struct il_strtab {
    char **str; /* id -> NUL-terminated string; id 0 is "(none)" */
    uint32_t n, cap;
    uint32_t *slot; /* open addressing: id or UINT32_MAX */
    uint64_t *hash; /* hash of each id */
    size_t nslot;
};
void il_strtab_init(struct il_strtab *t);
void il_strtab_free(struct il_strtab *t);
uint32_t il_strtab_intern(struct il_strtab *t, const char *s, size_t n);
/* The id of s, or UINT32_MAX when it was never interned. */
uint32_t il_strtab_find(const struct il_strtab *t, const char *s);
const char *il_str(const struct il_strtab *t, uint32_t id);
/* Natural order: numbers by value, the rest by bytes. */
int il_natcmp(const char *a, const char *b);

/* ------------------------------------------------------------ input.c */
enum il_metric_kind { IL_M_EVENT, IL_M_WALL, IL_M_USER, IL_M_SYS, IL_M_MAXRSS };

struct il_where {
    size_t slot;
    char *value;
    int neg; /* LABEL!=VALUE: leave such records out */
};

struct il_sel {
    const char *metric;
    enum il_metric_kind kind;
    int subtract_floor, strict, want_env, want_wall;
    int want_labels; /* note every label of the kept records (struct il_labvals) */
    const char *slot_name[IL_MAX_SLOTS]; /* label names kept per record */
    size_t nslots;
    struct il_where *where; /* same slot: any value and none of the !=
                             * values; different slots: all */
    size_t nwhere;
};

/* One label name over the kept records, with want_labels. */
struct il_labvals {
    char *name;
    size_t present; /* records that have it (not null) */
    size_t nval;    /* distinct values among them */
    uint8_t *seen;  /* by string id of struct il_data's st */
    size_t seencap;
};

struct il_data {
    size_t n, cap, nslots;
    const char *slot_name[IL_MAX_SLOTS]; /* as in struct il_sel */
    double *val;
    double *env;   /* setup.env_bytes when want_env */
    double *wall;  /* times.wall_ns when want_wall (NAN if absent) */
    uint32_t *lab; /* n * nslots string ids */
    struct il_strtab st;
    /* What was read and why lines were left out. */
    size_t files, lines, records, selected, malformed, notrecord, unsupported, missing, nofloor,
        noenv, badvalue;
    char *first_schema_other; /* a schema other than interloper/1, if seen */
    struct il_labvals *lv;    /* with want_labels: every label name seen */
    size_t nlv;
};

int il_metric_parse(const char *name, enum il_metric_kind *kind);
const char *il_metric_unit(const char *metric, enum il_metric_kind kind);
int il_metric_is_time(const char *metric, enum il_metric_kind kind);
/* Read every file ("-" is stdin) into d.  Malformed lines are warned about
 * (file:line) and skipped, or fatal with sel->strict.  Calls errx on
 * unreadable files, an unknown metric and an empty selection. */
void il_read(const struct il_sel *sel, char **files, int nfiles, struct il_data *d);
void il_data_free(struct il_data *d);
size_t il_sel_slot(struct il_sel *sel, const char *name); /* add or find */

/* ------------------------------------------------------------ group.c */
struct il_group {
    uint32_t *key; /* nkey string ids */
    size_t n;
    double *x;   /* values in input order */
    size_t *rec; /* record indices in input order */
};

struct il_groups {
    size_t ng, nkey;
    size_t slot[IL_MAX_SLOTS]; /* data slots of the key, in --by order */
    struct il_group *g;        /* sorted naturally by key */
};

int il_group_by(const struct il_data *d, const size_t *slots, size_t nkey, struct il_groups *gs);
void il_groups_free(struct il_groups *gs);
/* "bench=bzip2 system=O3" (or "all" for an empty key), leaving out key
 * position skip (SIZE_MAX: none); caller frees. */
char *il_group_name(const struct il_data *d, const struct il_groups *gs, const uint32_t *key,
                    const char *sep, size_t skip);
/* The group whose key equals key except at position pos, which is id;
 * -1 when absent. */
long il_group_find(const struct il_groups *gs, const uint32_t *key, size_t pos, uint32_t id);

/* ------------------------------------------------------------ describe.c */
struct il_summary {
    size_t n;
    double mean, sd, median, min, max, cv, lo, hi;
    int has_sd, has_ci; /* n >= 2 */
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
double il_var(const double *x, size_t n, double mean); /* n - 1 divisor */
double il_quantile_sorted(const double *s, size_t n, double p);
double il_tq(double df); /* t quantile at (1 + IL_CONF) / 2 */
int il_dcmp(const void *a, const void *b);
/* scratch holds n doubles. */
void il_summarize(const double *x, size_t n, double *scratch, struct il_summary *s);
double il_median_mad(const double *x, size_t n, double *scratch, double *mad);
size_t il_acf(const double *x, size_t n, size_t maxlag, double *acf);
/* Ljung-Box over lags 1..h of acf for a series of n; returns the p-value. */
double il_ljung_box(const double *acf, size_t n, int h, double *q);
/* x in run order; scratch holds n doubles. */
void il_diagnose(const double *x, size_t n, double *scratch, struct il_diag *d);

/* ------------------------------------------------------------ ratio.c */
enum il_ci_kind { IL_CI_BOUNDED, IL_CI_EXCLUSIVE, IL_CI_UNBOUNDED };

struct il_fieller {
    double ratio, df, h;
    enum il_ci_kind kind;
    double lo, hi; /* bounded: [lo, hi]; exclusive: <= lo or >= hi */
};

double il_welch_df(double va, size_t na, double vb, size_t nb);
/* Fieller's set {t : (a - t b)^2 <= h^2 (va + t^2 vb)}; va, vb are the
 * variances of the means. */
void il_fieller(double a, double va, double b, double vb, double h, struct il_fieller *f);
/* Ratio mean(y)/mean(x) from two samples; pooled selects nx+ny-2 degrees
 * of freedom instead of Welch's.  IL_SE_FEW when a side has < 2 values. */
int il_fieller_samples(const double *y, size_t ny, const double *x, size_t nx, int pooled,
                       struct il_fieller *f);
/* t interval of the mean; IL_SE_FEW for n < 2. */
int il_tci(const double *x, size_t n, double *mean, double *lo, double *hi);
/* Geometric mean and the t interval of the mean of logs, exponentiated;
 * IL_SE_NONPOS if a value is <= 0 (*bad is its index), IL_SE_FEW when
 * n < 2 (the geometric mean is still set). */
int il_geomean_ci(const double *r, size_t n, double *gm, double *lo, double *hi, size_t *bad);

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
/* Top-level count for a half-width of rel (0.01 = 1%) of the mean, with
 * lower counts reps; IL_SE_NOTFOUND beyond limit. */
int il_levels_target(const struct il_levels *lv, const long *reps, double rel, long limit,
                     long *top);
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
    int pooled;
    const char *setup;
    const char *levels[IL_MAX_LEVELS]; /* highest first, as given */
    size_t nlevels;
    double costs[IL_MAX_LEVELS]; /* as given: highest first */
    size_t ncosts;
    double target; /* relative half-width, 0.01 for 1%; 0 for none */
    size_t boot;
    unsigned long seed;
    enum il_fmt fmt;
    const char *plot_kind, *out, *keep, *title;
    char **files;
    int nfiles;
    /* slots in sel */
    size_t by_slot[IL_MAX_SLOTS], cmp_slot, setup_slot, level_slot[IL_MAX_LEVELS];
};

/* Parse argv for tool; prints the usage to stdout and exits 0 on --help,
 * and exits 1 after one line on stderr on bad use. */
void il_parse_opts(enum il_tool tool, int argc, char **argv, struct il_opts *o);

/* ------------------------------------------------------------ analyze.c */
struct il_setups {
    size_t n, unpaired;
    double *ratio;   /* per-setup ratios */
    uint32_t *setup; /* their setup ids */
    double min, median, max, mean, lo, hi;
    int has_ci, straddles;
};

struct il_cmp {
    size_t g, base; /* group indices of the value and the baseline */
    char *unit;     /* labels other than the compared one, "bench=bzip2" */
    struct il_fieller f;
    int few; /* a side has fewer than 2 values */
    int has_setups;
    struct il_setups su;
    char *verdict;
};

struct il_suite {
    uint32_t value; /* compared label value */
    size_t n;       /* benchmarks */
    double gm, lo, hi;
    int has_ci;
    char *verdict;
};

struct il_report {
    const struct il_opts *o;
    struct il_data d;
    struct il_groups gs;
    struct il_summary *sum;
    struct il_diag *diag;
    char **gname;
    size_t cmp_pos; /* key position of the compared label */
    uint32_t base_id;
    struct il_cmp *cmp;
    size_t ncmp;
    struct il_suite *suite;
    size_t nsuite;
    int has_levels;
    struct il_levels lv;
    double *ly; /* balanced values for the bootstrap */
    int has_plan, c1_measured, has_top;
    double cost[IL_MAX_LEVELS]; /* lowest first */
    long reps[IL_MAX_LEVELS];   /* lowest first; reps[n-1] = top for --target */
    int has_boot;
    double bmean, bsd, blo, bhi;
};

void il_analyze(const struct il_opts *o, struct il_report *r);
/* "0.7% faster" style change for ratio x into buf. */
void il_change(char *buf, size_t n, double x, int timey);

/* ------------------------------------------------------------ out_*.c */
void il_fmt_num(char *buf, size_t n, double x);
void il_out_text(FILE *fp, const struct il_report *r, int markdown);
void il_out_csv(FILE *fp, const struct il_report *r);
void il_out_gobench(FILE *fp, const struct il_report *r);
void il_out_json(FILE *fp, const struct il_report *r);

/* ------------------------------------------------------------ kde.c */
/* Gaussian kernel density at m points over [lo, hi] (Silverman's bandwidth). */
double il_kde(const double *x, size_t n, double lo, double hi, size_t m, double *dens);

#endif
