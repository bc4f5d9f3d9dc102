/*
 * il_report.h: the JSON of interloper report --json (and plan --json),
 * schema interloper-report/1: its name and the keys readers rely on,
 * declared once.  stats/out_json.c writes them; interloper sweep --until
 * (tools/until.c) and interloper compare read them.  A contract like the
 * record's: keys may be added, never renamed; what would break a reader
 * is a new schema version.  interloper-report(1), "JSON fields", says
 * what each holds.
 */
#ifndef IL_REPORT_H
#define IL_REPORT_H

#define IL_REPORT_SCHEMA "interloper-report/1"

/* the top level */
#define IL_R_SCHEMA "schema" /* IL_REPORT_SCHEMA */
#define IL_R_TOOL "tool"     /* "report" or "plan" */
#define IL_R_METRIC "metric" /* as given: an event, wall, ..., NUM/DEN */
#define IL_R_UNIT "unit"     /* "ns", "KiB", "" */
#define IL_R_SUBTRACT_FLOOR "subtract_floor"
#define IL_R_ESTIMATOR "estimator"     /* "mean", "median", "p10", "min" */
#define IL_R_SUBTRACTED "subtracted"   /* --subtract's {label, value, mean, runs}; else absent */
#define IL_R_DIRECTION "direction"     /* "value/baseline" or "baseline/value" */
#define IL_R_DESIGN "design"           /* {kind, labels} */
#define IL_R_INPUT "input"             /* what was read and left out */
#define IL_R_GROUPS "groups"           /* [] */
#define IL_R_COMPARISONS "comparisons" /* [], with --compare */
/* the words of the report's one line where a crossed --setup A,B has too
 * few cells to fit (stats/comparisons.c); the sweep's summary then asks
 * again with one label (tools/verdict.c) */
#define IL_R_TOO_FEW_CELLS "the crossed design has too few cells"
#define IL_R_SUITE "suite"             /* the one suite, when there is one */
#define IL_R_SUITES "suites"           /* [] */
#define IL_R_LEVELS "levels"
#define IL_R_PLAN "plan"
#define IL_R_BOOTSTRAP "bootstrap"
#define IL_R_WARNINGS "warnings"       /* [] of strings */
#define IL_R_ATTRIBUTION "attribution" /* [], with --attribute */

/* attribution[]: one per comparison (or group without --compare) */
#define IL_R_NAME "name"
#define IL_R_EXPLAINED_BY "explained_by" /* [] of fact names; empty: nothing recorded */
#define IL_R_FACTS "facts"               /* [] of every candidate fact */
#define IL_R_FACT "fact"                 /* "main_sp mod 64", "link position of a.o" */
#define IL_R_STATE "state"               /* "tested", "same", "every", "varies", ... */
#define IL_R_NAMED "named"               /* p <= 0.05: it explains the differences */

/* groups[] and comparisons[] */
#define IL_R_LABELS "labels" /* {label: value or null} */
#define IL_R_N "n"
#define IL_R_SD "sd"
#define IL_R_ESTIMATE "estimate"
#define IL_R_MEDIAN "median" /* a group's, with its min and max */
#define IL_R_MIN "min"
#define IL_R_MAX "max"
#define IL_R_CI "ci" /* [lo, hi], or null */
#define IL_R_CI_METHOD "ci_method"
/* comparisons[] */
#define IL_R_BASELINE_LABELS "baseline_labels"
#define IL_R_VALUE "value"
#define IL_R_BASELINE "baseline"
#define IL_R_RATIO "ratio"           /* value/baseline (baseline/value with --speedup) */
#define IL_R_CI_KIND "ci_kind"       /* one of the four below */
#define IL_R_CI_OUTSIDE "ci_outside" /* [lo, hi] when exclusive: <= lo or >= hi */
#define IL_R_VERDICT "verdict"
#define IL_R_SETUPS "setups"         /* the per-setup view, or null */
#define IL_R_SETUPS_WHY "setups_why" /* beside a null setups: why there is none */
/* comparisons[].setups */
#define IL_R_HETEROGENEITY "heterogeneity" /* {p, why, ...}: setups differ beyond noise? */
#define IL_R_P "p"
#define IL_R_WHY "why"
#define IL_R_STRADDLES_ONE "straddles_one"
#define IL_R_STRADDLES_ONE_TESTED "straddles_one_tested" /* false: could not be tested */
#define IL_R_STRADDLES_ONE_WHY "straddles_one_why"       /* why, and what it would need */
/* ci_kind's values: ci holds the interval only when it is bounded */
#define IL_R_BOUNDED "bounded"
#define IL_R_EXCLUSIVE "exclusive"
#define IL_R_UNBOUNDED "unbounded"
#define IL_R_NONE "none"

#endif
