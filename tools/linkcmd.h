/*
 * linkcmd.h: a link command, as interloper cc records it and interloper
 * link relinks it.  One place for the facts both commands share: which
 * options take their value in the next argument, which arguments are the
 * objects, the output, the archives and the libraries, and the record
 * format of a links file.
 */
#ifndef IL_LINKCMD_H
#define IL_LINKCMD_H

#include <stddef.h>

#include "il_util.h"

/* What each argument of a link command is. */
enum il_arg {
    IL_ARG_DRIVER,  /* argv[0], the compiler driver or the linker */
    IL_ARG_OPTION,  /* an option, or an input that stays where it is */
    IL_ARG_VALUE,   /* the value of the option before it (-o, -L, -T...) */
    IL_ARG_OBJECT,  /* a .o file that moves */
    IL_ARG_START,   /* a C runtime start file (crt1.o, crti.o...): stays */
    IL_ARG_OUTPUT,  /* the program: the value of -o, or -oFILE */
    IL_ARG_ARCHIVE, /* a path ending in .a */
    IL_ARG_LIBRARY, /* -lNAME, or the NAME after a separate -l */
};

struct il_scan {
    enum il_arg *kind;      /* one per argument */
    char *static_at;        /* per argument: 1 when -l searches static archives only */
    size_t nobj;            /* IL_ARG_OBJECT arguments */
    size_t out;             /* index of the output argument, 0 when none (a.out) */
    int out_joined;         /* the output is -oFILE */
    int dangling;           /* the last option wants a value and has none */
    int compile_only;       /* -c, -S, -E, -M, -MM, -r, -Wl,-r...: no final link */
    int raw_ld;             /* argv[0] is a linker (ld, ld.lld, x86_64-linux-gnu-ld...) */
    struct il_strv libdirs; /* the -L directories, in order */
};

/* Classify the arguments of ARGV (argc >= 1).  Options whose value is the
 * next argument are skipped, so that a value ending in .o is never taken
 * for an object. */
void il_scan(char *const *argv, size_t argc, struct il_scan *s);
void il_scan_free(struct il_scan *s);

/* The output file's name as given (a.out when there is no -o). */
const char *il_scan_output(char *const *argv, const struct il_scan *s);

/* A linker's own name: ld, ld.bfd, ld.lld, x86_64-linux-gnu-ld... */
int il_is_linker(const char *argv0);

/* ---------------------------------------------------------------- records
 * A links file holds one record per line, written by interloper cc:
 *   il_link 'CWD' 'ARG0' 'ARG1' ...
 * every word in single quotes, a quote inside written '\'' and a newline
 * '"$il_nl"', so that a record stays on one line and reads as sh.  It is
 * parsed here, never evaluated. */
#define IL_LINK_RECORD "il_link"

/* Append S, quoted as a record word, to B. */
void il_record_quote(struct il_buf *b, const char *s);

/* Parse one line (without its newline, LEN bytes, maybe holding NULs)
 * into WORDS (the cwd first).  Returns 0, or -1 when the line is not a
 * record of at least a directory and a command. */
int il_record_parse(const char *line, size_t len, struct il_strv *words);

/* Read the links file PATH: every line must be a record.  Keep the last
 * record, or the last whose output is PROGRAM (its name or last component)
 * when PROGRAM is not NULL.  Returns 1 and fills WORDS when one was found,
 * 0 when none was; on a line that is not a record, returns -1 and sets
 * *BADLINE to its number (from 1); on a read error, -2 with errno set. */
int il_record_read(const char *path, const char *program, struct il_strv *words, long *badline);
/* The programs the links file PATH links (the outputs' last components),
 * each once, in the order of their first link, appended to PROGS; -1 when
 * it cannot be read or a line is not a record (il_record_read says which). */
int il_record_programs(const char *path, struct il_strv *progs);

#endif
