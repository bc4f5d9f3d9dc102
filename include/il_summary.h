/*
 * il_summary.h: the perf-stat-like summary of one record, one formatter
 * for the library (interloper run's summary, written as the measured
 * image ends, maybe in a signal handler) and for interloper record
 * summary (which reads records).  Each fills a struct il_summary from what
 * it has; il_summary_format() writes the text.  Async-signal-safe: no
 * allocation, no stdio, no floating point formatting.
 */
#ifndef IL_SUMMARY_H
#define IL_SUMMARY_H

#include <stddef.h>
#include <stdint.h>

struct il_summary_event {
    const char *name;
    int counted; /* value is valid; else error says why */
    uint64_t value;
    int has_floor;
    uint64_t floor;
    int has_times; /* enabled and running are known */
    uint64_t enabled, running;
    const char *error;
    size_t name_len; /* strlen(name), or 0: not known (then measured) */
};

struct il_summary {
    const char *const *argv; /* argc strings */
    int argc;
    long long pid;
    const char *how; /* return, exit, _exit, exec, signal */
    int has_status;  /* status is meaningful (not for exec and signal) */
    long long status;
    long long signal;
    const char *backend;
    int nev;
    const struct il_summary_event *ev;
    int has_times;
    uint64_t wall_ns, user_ns, sys_ns;
    int has_ctx;
    uint64_t ctx_voluntary, ctx_involuntary;
    long long maxrss_kib; /* < 0: unknown */
    int has_setup;
    uint64_t env_bytes, env_vars, argv_bytes;
    int aslr;
    const char *main_sp, *heap_start, *cpus, *main_entry; /* NULL: unknown */
    uint64_t stack_offset, heap_offset;
    int stack_pinned;
    int nerrors;
    const char *const *errors;
};

/* Write the summary into buf (NUL-terminated, cut to fit); returns its
 * length.  About 200 bytes plus 100 per event and per error. */
size_t il_summary_format(const struct il_summary *s, char *buf, size_t cap);

#endif
