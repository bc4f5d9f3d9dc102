/*
 * il_opt.h: the one option layer of every interloper command
 * (common/opt.c).  A command describes its options once, in a table; from
 * that table come the parsing, --help, every message about bad usage, the
 * bash completion and the check that the man page lists exactly these
 * options (tests/system/options.sh).
 *
 * The words, as every command reads them:
 *   --name VALUE, --name=VALUE   a long option and its value
 *   -x VALUE, -xVALUE            a short option and its value
 *   -x                           a short flag (one a word: -q -n, not -qn)
 *   --                           ends the options (eaten)
 * Options end at "--" or at the first word that is not one ("-" alone is
 * an operand, stdin), unless the command permutes: then options and
 * operands mix (report FILE --json), and the operands are moved, in their
 * order, after the options.  Long names are never abbreviated: a prefix of
 * one option is refused with "did you mean", of several as ambiguous.
 * Every command takes -h/--help (the table need not say so) and the hidden
 * --list-options, which prints the table for completion and tests.
 *
 * Short letters mean one thing in every command: -e --events, -o --output,
 * -r --reps, -w --warmup, -q --quiet, -n --dry-run, -h --help, -m --metric,
 * -b --by, -c --compare; a new one only where no command uses it otherwise.
 *
 * A command:
 *
 *     enum { O_EVENTS = 1, O_QUIET };
 *     static const struct il_opt opts[] = {
 *         {.head = "measurement"},
 *         {"events", 'e', IL_OPT_VALUE, "LIST", "events to count", O_EVENTS},
 *         {"quiet", 'q', IL_OPT_FLAG, NULL, "no summary on stderr", O_QUIET},
 *         {0},
 *     };
 *     static const struct il_cmd cmd = {
 *         .name = "interloper frob", .synopsis = "[options] FILE...",
 *         .about = "Frob the records of FILE.", .man = "interloper-frob(1)",
 *         .opts = opts, .permute = 1,
 *     };
 *     struct il_optp p;
 *     const struct il_opt *o;
 *     il_opt_init(&p, &cmd, argc, argv);
 *     while ((o = il_opt_next(&p)))
 *         switch (o->id) {
 *         case O_EVENTS: events = p.val; break;
 *         case O_QUIET: quiet = 1; break;
 *         }
 *     // operands: argv[p.i] .. argv[argc - 1]
 *
 * A value that is wrong: il_opt_bad(&p, p.val, "expected ..."), which
 * says "interloper frob: --events x: expected ..." and exits 1.  Options
 * several commands share live in a table of their own, spliced into each
 * command's with {.incl = shared}; one table may also serve several
 * commands, each option marked with the commands (il_cmd.bit) it is for.
 */
#ifndef IL_OPT_H
#define IL_OPT_H

#include <stdio.h>

enum il_opt_arg {
    IL_OPT_FLAG,  /* no value */
    IL_OPT_VALUE, /* a value: after '=', attached to -x, or the next word */
    IL_OPT_MAYBE  /* a value after '=', attached, or the next word if maybe() takes it */
};

struct il_opt {
    const char *name; /* the long name, without "--"; NULL: a heading, or the end */
    char shrt;        /* the short letter, or 0 */
    enum il_opt_arg arg;
    const char *meta;               /* the value's name in --help: "N", "LIST", "KEY=VALUE" */
    const char *help;               /* --help's text; lines separated by '\n' */
    int id;                         /* what the command switches on (not 0) */
    unsigned only;                  /* the commands that take it (il_cmd.bit); 0: all */
    int (*maybe)(const char *word); /* IL_OPT_MAYBE: is the next word the value? */
    const char *head;               /* with name NULL: a heading in --help ("layout") */
    const struct il_opt *incl;      /* with name NULL: another table's options, here */
};

struct il_cmd {
    const char *name;     /* "interloper run": every message starts with it */
    const char *synopsis; /* after "usage: NAME "; more lines after '\n' */
    const char *about;    /* what it does: the text between usage and options */
    const char *more;     /* text after the options (may be NULL) */
    const char *man;      /* "interloper-run(1)": --help ends "See it." */
    const struct il_opt *opts;
    unsigned bit;            /* this command's bit, for tables several commands share */
    int permute;             /* options may follow operands */
    int passthrough;         /* options end at the first word that is not a long option of
                              * the table ("--" still ends them): a wrapper's, whose
                              * operands are another program's options (interloper cc) */
    const char *const *subs; /* the operations its first operand names, each a command
                              * with its own table (record: label, ...); NULL-ended */
};

struct il_optp {
    const struct il_cmd *cmd;
    int argc;
    char **argv;
    int i;    /* the next word; at the end, the first operand */
    int from; /* the word the current option started at */
    const struct il_opt *opt;
    const char *val;  /* its value, NULL when none was given */
    char spelled[64]; /* the option as typed, "-o" or "--output" */
    /* permuting: the operands met so far */
    char **ops;
    int nops, opcap;
};

/* Start on the words after argv[0]; sets err(3)'s prefix to CMD's name. */
void il_opt_init(struct il_optp *p, const struct il_cmd *cmd, int argc, char **argv);
/* The next option, with its value in p->val; NULL when the options end
 * (p->i is then the first operand).  --help prints and exits 0; unknown
 * options, missing values and values given to flags exit 1 with one line. */
const struct il_opt *il_opt_next(struct il_optp *p);
/* "NAME: OPT VALUE: WHAT" on stderr and exit 1, OPT the current option as
 * typed (WHAT says what was expected). */
void il_opt_bad(const struct il_optp *p, const char *value, const char *fmt, ...)
    __attribute__((format(printf, 3, 4), noreturn));
/* "NAME: WHAT; see NAME --help" and exit 1: bad usage not of one value. */
void il_opt_usage(const struct il_cmd *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3), noreturn));
/* The --help text. */
void il_opt_help(const struct il_cmd *cmd, FILE *f);
/* The table for completion and tests: one line per option, "-x --name
 * flag|value|maybe META" (- for a missing part), then one line "+ NAME"
 * per operation. */
void il_opt_list(const struct il_cmd *cmd, FILE *f);

#endif
