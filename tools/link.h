/*
 * link.h: the parts of interloper link (tools/link.c) that live in
 * tools/linkaux.c: running the linker and binutils, fingerprints, function
 * lists, and the manifest.
 */
#ifndef IL_LINK_H
#define IL_LINK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "linkcmd.h"
#include "linkopts.h"
#include "order.h"

#define ME "interloper link"

/* An object that moves: a .o of the command, or a member of an archive. */
struct il_obj {
    char *name; /* as written, or the member's name: what sorts and is shown */
    char *path; /* what the linker is given */
    long ar;    /* index into the archives it came from, or -1 */
};

/* An archive replaced by its members (--archives used|all). */
struct il_expanded {
    char *argument;         /* -lbz2, or the path as written */
    char *path;             /* the archive found */
    char *real;             /* its canonical path */
    struct il_strv members; /* names of the members linked */
    struct il_strv files;   /* their extracted files, relative to the output directory */
    struct il_strv left;    /* members not linked */
};

/* The command's template: for each argument to pass, the argument itself
 * (obj < 0), an object slot (obj >= 0, numbered in the original order),
 * or the output (out). */
struct il_tpl {
    const char *arg;
    long obj;
    int out;
};

struct il_tpls {
    struct il_tpl *v;
    size_t n, cap;
};

struct il_link {
    /* what to do */
    size_t k;
    uint32_t seed;
    int seed_given, function, quiet;
    int jobs;         /* links at a time */
    const char *mode; /* --archives: keep, used, all */
    /* the command */
    char *cwd;
    struct il_strv cmd;
    const char *prog; /* the output's last component */
    int raw_ld;
    /* the objects and their orders */
    struct il_obj *obj;
    size_t nobj;
    struct il_expanded *ar;
    size_t nar;
    struct il_orders ord;
    int width; /* of the ids */
    /* where */
    char *out; /* absolute */
    char *tmp; /* OUT/.interloper-link.XXXXXX */
    int reproducible;
    char *manifest_head; /* the manifest up to "reproducible" */
    FILE *manifest;
};

/* A warning on stderr, prefixed "interloper link: warning: " (linkaux.c). */
void il_link_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---------------------------------------------------------------- linkobj.c */
/* The objects of the command S scans: its .o arguments and, unless
 * L->mode is keep, the members of its static archives, extracted into
 * L->out/archives unless DRY (and with used, found by linking once).
 * Fills L->obj, L->ar and the template T. */
void il_collect(struct il_link *l, const struct il_scan *s, int dry, struct il_tpls *t);
void il_tpl_add(struct il_tpls *t, const char *arg, long obj, int out);

/* ---------------------------------------------------------------- linkrun.c
 * Children run in process groups of their own, stdin from /dev/null,
 * stdout to the file OUT and stderr to the file ERR (OUT itself when ERR is
 * OUT, /dev/null when NULL).  Statuses are exit statuses, 128+N for signal
 * N, 127 when the program could not be started. */
/* Start ARGV; its pid.  (Not the sweep's il_spawn, launch.c.) */
pid_t il_start_to(char *const *argv, const char *dir, const char *out, const char *err);
/* Wait for any child; its pid, and its status in *STATUS. */
pid_t il_wait(int *status);
/* Run ARGV and wait for it; exits 128+N when interrupted by signal N. */
int il_run_to(char *const *argv, const char *dir, const char *out, const char *err);
/* Stop the children still running, with their groups, and wait for them. */
void il_stop_all(void);
/* Interrupted by SIGINT or SIGTERM: the signal, else 0. */
extern volatile int il_interrupted;
void il_catch_signals(void);

/* ---------------------------------------------------------------- linkaux.c */
/* The id of binary J, zero-padded to L->width. */
void il_id(const struct il_link *l, size_t j, char *buf, size_t len);

/* Fingerprint binaries FIRST to FIRST+N-1 in L->tmp: a hash of "name
 * type address" of every defined symbol from nm -P (FP[i]) and of the text
 * ones (TFP[i]), 16 hex digits each, and the file's SHA-256 (SHA[i]).  One
 * nm for them all; the hashes in process (sha256.c).  Dies on failure. */
void il_fingerprints(const struct il_link *l, size_t first, size_t n, char (*fp)[17],
                     char (*tfp)[17], char (*sha)[65]);

/* Function granularity: refuse objects with a plain .text section, list
 * each object's functions (nm types T t W, by name), and write
 * L->tmp/symorder/ID for each random binary. */
void il_symorder_write(const struct il_link *l);

/* The manifest: the part known before linking (checks that every string
 * is UTF-8, dies otherwise), then one line per binary, then the end. */
void il_manifest_begin(struct il_link *l);
void il_manifest_binary(struct il_link *l, size_t j, const char *fp, const char *tfp,
                        const char *sha);
void il_manifest_end(struct il_link *l);

#endif
