/*
 * interloper.h: declarations shared by the interposer, the tools and the
 * tests: the record contract's names, error codes, and the configuration
 * parser that turns INTERLOPER_* variables into a struct il_config.
 *
 * Everything here is usable before main and from a signal handler unless a
 * comment says otherwise: no function declared here allocates.
 */
#ifndef INTERLOPER_H
#define INTERLOPER_H

#include <stddef.h>
#include <stdint.h>

/* The record's field names, the schema string and the labels. */
#include "il_names.h"

#define IL_DEFAULT_OUTPUT "./interloper.jsonl"

/* 0, or a compile-time error when the string literal s (with its NUL)
 * does not fit in n bytes: for name tables held as char arrays (no
 * relocation at load), where C would silently drop the NUL of a literal
 * exactly n long. */
#define IL_FITS(s, n) (0 * sizeof(char[sizeof(s) <= (n) ? 1 : -1]))

/* Limits.  Fixed so that configuration and records need no heap. */
#define IL_MAX_EVENTS 32
#define IL_EVENT_NAME_MAX 128
#define IL_EVENTS_MAX 2048 /* bytes of INTERLOPER_EVENTS */
#define IL_PATH_MAX 4096
#define IL_MAX_ERRORS 16
#define IL_ERROR_MAX 400
#define IL_STACK_OFFSET_MAX (64UL << 20) /* 64 MiB */
#define IL_HEAP_OFFSET_MAX (1UL << 30)   /* 1 GiB */

/* n bytes alike?  Eight at a time, unaligned, the last word overlapping
 * the one before (four and four below eight, bytes below four), rather
 * than a byte loop for the tail: the interposer compares names with it in
 * every measured process (its variables, the loader's symbol names).
 * Both a and b must have n readable bytes. */
static inline int
il_same_bytes(const char *a, const char *b, size_t n)
{
    uint64_t x, y;
    uint32_t u, v;
    if (n >= 8) {
        for (size_t i = 0; i + 8 < n; i += 8) {
            __builtin_memcpy(&x, a + i, 8);
            __builtin_memcpy(&y, b + i, 8);
            if (x != y)
                return 0;
        }
        __builtin_memcpy(&x, a + n - 8, 8);
        __builtin_memcpy(&y, b + n - 8, 8);
        return x == y;
    }
    if (n >= 4) {
        __builtin_memcpy(&u, a, 4);
        __builtin_memcpy(&v, b, 4);
        if (u != v)
            return 0;
        __builtin_memcpy(&u, a + n - 4, 4);
        __builtin_memcpy(&v, b + n - 4, 4);
        return u == v;
    }
    while (n--)
        if (*a++ != *b++)
            return 0;
    return 1;
}

/* Copy n bytes (short pieces of text: names, numbers, literals) with
 * word moves, the last word overlapping the one before, rather than a
 * call or a byte loop: the record and the summary are built of such
 * pieces in every measured process.  d and s do not overlap. */
static inline void
il_copy_short(char *d, const char *s, size_t n)
{
    uint64_t w;
    uint32_t h;
    if (n >= 8) {
        for (size_t i = 0; i + 8 < n; i += 8) {
            __builtin_memcpy(&w, s + i, 8);
            __builtin_memcpy(d + i, &w, 8);
        }
        __builtin_memcpy(&w, s + n - 8, 8);
        __builtin_memcpy(d + n - 8, &w, 8);
    } else if (n >= 4) {
        uint32_t t;
        __builtin_memcpy(&h, s, 4);
        __builtin_memcpy(&t, s + n - 4, 4);
        __builtin_memcpy(d, &h, 4);
        __builtin_memcpy(d + n - 4, &t, 4);
    } else if (n) {
        d[0] = s[0];
        d[n / 2] = s[n / 2];
        d[n - 1] = s[n - 1];
    }
}

/* The pid and pid namespace inode in the name of interloper run's spec
 * file (il_names.h, IL_RUN_FILE_PREFIX), the end of path, len bytes: 1
 * and both set where path ends in such a name (after a slash), else 0
 * (an older build's name, a sweep's DIR/spec). */
static inline int
il_run_file_owner(const char *path, size_t len, long *pid, unsigned long *ns)
{
    enum {
        PRE = sizeof IL_RUN_FILE_PREFIX - 1,
        NAME = PRE + IL_RUN_FILE_PID + 1 + IL_RUN_FILE_NS + 1 + IL_RUN_FILE_RANDOM +
               sizeof IL_RUN_FILE_SUFFIX - 1
    };
    if (len <= NAME)
        return 0;
    const char *n = path + len - NAME, *p = n + PRE;
    if (n[-1] != '/' || !il_same_bytes(n, IL_RUN_FILE_PREFIX, PRE) ||
        !il_same_bytes(path + len - (sizeof IL_RUN_FILE_SUFFIX - 1), IL_RUN_FILE_SUFFIX,
                       sizeof IL_RUN_FILE_SUFFIX - 1) ||
        p[IL_RUN_FILE_PID] != '.' || p[IL_RUN_FILE_PID + 1 + IL_RUN_FILE_NS] != '.')
        return 0;
    unsigned long v[2] = {0, 0};
    for (int k = 0, w = IL_RUN_FILE_PID; k < 2; k++, p++, w = IL_RUN_FILE_NS)
        for (const char *e = p + w; p < e; p++) {
            if ((unsigned)(*p - '0') > 9)
                return 0;
            v[k] = v[k] * 10 + (unsigned long)(*p - '0');
        }
    *pid = (long)v[0];
    *ns = v[1];
    return 1;
}

/* Error codes: 0 or one of these, negative, as in libpfm4. */
enum il_err {
    IL_OK = 0,
    IL_EINVAL = -1,    /* malformed value */
    IL_ERANGE = -2,    /* value out of range */
    IL_ENOEVENT = -3,  /* unknown event name */
    IL_ENOTSUP = -4,   /* event or feature not supported here */
    IL_EPERM = -5,     /* not permitted (perf_event_paranoid, seccomp) */
    IL_ESYS = -6,      /* a system call failed; see errno */
    IL_ENOMEM = -7,    /* arena or buffer exhausted */
    IL_ENOLIB = -8,    /* a library (libpfm4, libpapi) could not be loaded */
    IL_ETOOMANY = -9,  /* too many events or errors */
    IL_EUNREACH = -10, /* stack pin address cannot be reached */
    IL_EBACKEND = -11, /* the backend failed */
};
const char *il_strerror(int err);

enum il_backend_kind { IL_BACKEND_AUTO, IL_BACKEND_PERF, IL_BACKEND_PAPI, IL_BACKEND_NONE };
const char *il_backend_name(enum il_backend_kind b);

/*
 * Inheritance of counters across clone():
 *   ALL     threads and forked children count into the parent's record
 *           (perf stat's semantics); forked children write no record;
 *   THREADS threads count into the record, every forked child writes a
 *           record of its own;
 *   NONE    only the thread that started main is counted; forked children
 *           write records of their own.
 */
enum il_inherit { IL_INHERIT_ALL, IL_INHERIT_THREADS, IL_INHERIT_NONE };
const char *il_inherit_name(enum il_inherit m);

enum il_pin { IL_PIN_NONE, IL_PIN_ADDR, IL_PIN_AUTO };

struct il_config {
    /* scalars first: il_config_parse() clears only these, up to pin_text */
    const char *events[IL_MAX_EVENTS]; /* names, pointing into events_buf */
    int nevents;
    int events_default;       /* 1 when INTERLOPER_EVENTS was unset or empty */
    const char *events_value; /* its value as given (environment or run spec), for messages */
    int events_spec;          /* given by a driver's --events (the run spec) */

    enum il_backend_kind backend;
    int backend_spec; /* ... by its --backend */
    enum il_inherit inherit;
    int output_stderr;   /* INTERLOPER_OUTPUT is "-" */
    int output_fallback; /* ... or malformed: stderr, the record marked as fallen back */

    unsigned long stack_offset_req; /* as requested */
    unsigned long stack_offset;     /* applied: rounded down to 16 */
    const char *stack_offset_text;  /* as given, for messages */
    int stack_offset_spec;          /* given by a driver's --stack-offset (the run spec) */
    enum il_pin stack_pin;
    uintptr_t stack_pin_addr;
    int stack_pin_spec; /* ... by its --stack-pin */
    unsigned long heap_offset;
    const char *heap_offset_text; /* as given, for messages */
    int heap_offset_spec;         /* ... by its --heap-offset */

    int strict;
    int strict_spec;    /* ... by its --strict, or its default (strict_default) */
    int strict_default; /* ... the driver's default (sweep, compare: the spec's strict line) */
    int debug;
    int quiet; /* INTERLOPER_QUIET: no warnings on stderr (il_msg) */
    int nerrors;

    /* buffers: valid up to their terminators, never cleared wholesale;
     * the small and the often used first (the library's pages) */
    char pin_text[40];              /* INTERLOPER_STACK_PIN as given, for messages */
    char events_buf[IL_EVENTS_MAX]; /* INTERLOPER_EVENTS, split in place */
    char output[IL_PATH_MAX];       /* INTERLOPER_OUTPUT as given; %p expanded later */
    char run_spec[IL_PATH_MAX];     /* INTERLOPER_RUN: the spec interloper run wrote */
    /* One message per problem, each "INTERLOPER_X=value: what; expected". */
    char errors[IL_MAX_ERRORS][IL_ERROR_MAX];
};

/*
 * Parse the INTERLOPER_* variables (the table in interposer/config.c, the
 * names in il_names.h) through getenv_fn (getenv, or a fake in tests; NULL
 * looks them up in env) and scan env (may be NULL) for misspelt
 * INTERLOPER_ names, other than those interloper sets for its own use.  Async-signal-safe when
 * getenv_fn is. Fills cfg with defaults for anything missing or malformed and appends one message
 * per problem to cfg->errors.  Returns the number of errors.
 */
int il_config_parse(struct il_config *cfg, const char *(*getenv_fn)(const char *),
                    char *const *env);

/* One setting, "INTERLOPER_X=value", from a run spec's "set" line: the
 * same table and parsers, applied over what the environment said. */
void il_config_set(struct il_config *cfg, const char *kv);

/* Append one message "VAR=value: what" to cfg->errors (bounded). */
void il_config_error(struct il_config *cfg, const char *var, const char *val, const char *what);

/* Number parsing shared with the tools: decimal (leading zeros are decimal,
 * so constant-width values like 00004096 work), 0x hex, optional k/m/g
 * suffix (powers of 1024).  Returns 0 or IL_EINVAL/IL_ERANGE. */
int il_parse_size(const char *s, unsigned long long max, unsigned long long *out);

/* The record's "host", "cpu" and "kernel" members, as the library reads
 * and writes them ("host":"...","cpu":"...","kernel":"..."), into buf (at
 * least 4 KiB), NUL-terminated; returns the length.  interloper run and
 * sweep take them once and hand them to each run in its spec (run_spec.c). */
size_t il_machine_json(char *buf, size_t cap);

/* Expand %p (pid) and %% in an output template.  Returns 0 or IL_EINVAL
 * (unknown %-sequence) or IL_ERANGE (does not fit). */
int il_expand_output(const char *tmpl, long pid, char *out, size_t outsz);

#endif
