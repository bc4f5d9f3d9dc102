/*
 * il.h: the interposer's internal state and the functions its files share.
 *
 * Lifecycle of one process image (see libinterloper(7)):
 *
 *   constructor        il_ctor(): resolve real_* symbols, parse the
 *                      INTERLOPER_* variables, register the on_exit
 *                      finisher.  Runs before the program's constructors.
 *   __libc_start_main  hands glibc il_main() in place of main().
 *   il_main()          gathers setup facts, opens counters, applies the
 *                      heap offset, installs fatal-signal handlers, builds
 *                      the record prefix, enables counters and calls main
 *                      on a stack of our choosing (offset or pin).
 *   any ending         return / exit / _exit / exec / fatal signal all
 *                      funnel into il_finish(), guarded by compare-and-swap,
 *                      which disables counters first, calibrates the empty
 *                      window, and writes one line with one write(2).
 *
 * Everything reachable from il_finish() is async-signal-safe: no malloc,
 * no stdio, no locks; it uses syscalls and the fixed buffers below.
 */
#ifndef IL_H
#define IL_H

#include <linux/perf_event.h>
#include <signal.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <time.h>

#include "interloper.h"

#define IL_HIDDEN __attribute__((visibility("hidden")))
#define IL_EXPORT __attribute__((visibility("default")))

/* Phases of one process image, in order.  il.phase only moves forward,
 * except that a failed exec returns DONE to RUNNING. */
enum il_phase {
    IL_PHASE_LOADED = 0, /* before our constructor */
    IL_PHASE_INIT,       /* constructor done, main not yet reached */
    IL_PHASE_RUNNING,    /* counters enabled, the program's main runs */
    IL_PHASE_FINISHING,  /* one thread is writing the record */
    IL_PHASE_DONE,       /* the record is written */
};

enum il_how { IL_HOW_RETURN, IL_HOW_EXIT, IL_HOW__EXIT, IL_HOW_EXEC, IL_HOW_SIGNAL };

#define IL_ERRSHORT 200 /* per-event error text */
#define IL_FLOOR_WINDOWS 5

struct il_event {
    char name[IL_EVENT_NAME_MAX]; /* as the user wrote it */
    struct perf_event_attr attr;  /* perf backend encoding */
    int resolved;                 /* attr is valid */
    int via_pfm;                  /* resolved by libpfm4 */
    int fd;                       /* perf fd, -1 when not open */
    dev_t fd_dev;
    ino_t fd_ino;
    int papi_code;
    int ok;                          /* counting */
    char error[IL_ERRSHORT];         /* why not, when !ok */
    uint64_t value, enabled, running; /* final raw reading */
    uint64_t carry;                   /* counted before a failed exec */
    uint64_t floor;
    int floor_ok;
    const char *key_json; /* name, JSON-escaped with quotes (arena) */
    const char *err_json; /* error, JSON-escaped with quotes (arena) */
};

struct il_state {
    struct il_config cfg;
    volatile int phase;
    volatile pid_t finisher; /* tid that owns FINISHING */
    volatile pid_t exit_tid;   /* the first thread to call exit() */
    volatile pid_t return_tid; /* the thread whose main returned */
    int quick_status;          /* quick_exit()'s status */

    pid_t pid;       /* the process this state belongs to */
    pid_t main_tid;  /* the thread that opened the counters */

    enum il_backend_kind backend;
    struct il_event ev[IL_MAX_EVENTS];
    int nev;
    int inherit_thread_unsupported;

    /* the measured window */
    struct timespec t0, t1;
    struct rusage ru0, ru0c, ru1, ru1c;

    /* setup facts */
    int argc;
    char **argv;
    size_t env_bytes, env_vars, argv_bytes;
    int aslr;
    uintptr_t stack_top, main_sp, heap_base, heap_start;
    unsigned long stack_offset, heap_offset;
    int stack_pinned;
    uintptr_t stack_pin;

    /* output */
    char out_path[IL_PATH_MAX]; /* absolute, %p expanded; "" means stderr */
    int out_fd;
    dev_t out_dev;
    ino_t out_ino;
    int err_fd; /* our copy of stderr, when records or the summary go there */
    dev_t err_dev;
    ino_t err_ino;

    /* the record: the prefix is built with jansson before main; the rest
     * is appended at the end by signal-safe code into buf */
    char *arena;
    size_t arena_size, arena_used;
    char *prefix;
    size_t prefix_len;
    char *buf;
    size_t bufcap;
    const char *run_labels; /* a JSON object from interloper run, or NULL */

    /* problems found after main, for the record's "errors" */
    char late_errors[8][IL_ERROR_MAX];
    int nlate;
    int exec_failed_errno; /* a record was written, then exec failed */
    int phase_before_finish;
    int finished_how; /* the ending the record written says */
    int pin_failed; /* INTERLOPER_STACK_PIN could not be applied */
};

extern struct il_state il IL_HIDDEN;

/* real functions, resolved in il_resolve_reals() */
typedef int (*il_main_fn)(int, char **, char **);
extern void (*real_exit)(int) IL_HIDDEN;
extern void (*real__exit)(int) IL_HIDDEN;
extern int (*real_sigaction)(int, const struct sigaction *, struct sigaction *) IL_HIDDEN;
IL_HIDDEN void il_resolve_reals(void);
IL_HIDDEN void il_forkexec_resolve(void);

/* util.c: signal-safe output and formatting */
IL_HIDDEN size_t il_strlcpy(char *dst, const char *src, size_t n);
IL_HIDDEN char *il_fmt_u64(char *p, uint64_t v);
IL_HIDDEN char *il_fmt_i64(char *p, int64_t v);
IL_HIDDEN char *il_fmt_hex(char *p, uint64_t v);
IL_HIDDEN char *il_cat(char *p, const char *s);
IL_HIDDEN int il_write_all(int fd, const char *s, size_t n);
IL_HIDDEN void il_msg(const char *a, const char *b, const char *c);
IL_HIDDEN void il_debug(const char *a, const char *b, const char *c);
IL_HIDDEN pid_t il_gettid(void);
IL_HIDDEN int il_move_fd_high(int fd);
IL_HIDDEN void il_iso8601(const struct timespec *ts, char out[32]);
IL_HIDDEN uint64_t il_ts_ns(const struct timespec *a, const struct timespec *b);
IL_HIDDEN uint64_t il_tv_ns(const struct timeval *tv);
IL_HIDDEN size_t il_utf8_sanitize(const char *src, size_t n, char *dst, size_t dstsz);
IL_HIDDEN long il_sys_perf_event_open(struct perf_event_attr *a, pid_t pid, int cpu, int group,
                                      unsigned long flags);

/* events.c: generic names, resolution across backends */
IL_HIDDEN int il_event_generic(const char *name, struct perf_event_attr *attr);
IL_HIDDEN int il_event_is_papi_name(const char *name);
IL_HIDDEN void il_events_setup(void);
IL_HIDDEN void il_attr_init(struct perf_event_attr *attr, enum il_inherit inherit);

/* perf.c */
IL_HIDDEN int il_perf_open(struct il_event *e, enum il_inherit inherit);
IL_HIDDEN void il_perf_close_all(void);
IL_HIDDEN void il_perf_enable(void);
IL_HIDDEN void il_perf_disable(void);
IL_HIDDEN void il_perf_stop(void);
IL_HIDDEN void il_perf_read(void);
IL_HIDDEN void il_perf_floor(void);
IL_HIDDEN int il_perf_has_pmu(void);
IL_HIDDEN const char *il_perf_errno_text(int err, const struct perf_event_attr *a, char *buf,
                                         size_t n);
IL_HIDDEN int il_perf_paranoid(void);

/* pfm.c: libpfm4 names, resolved in a short-lived child so that libpfm's
 * allocations never touch the program's heap */
struct il_pfm_result {
    int rc; /* 0, IL_ENOEVENT, IL_ENOLIB, IL_EINVAL */
    struct perf_event_attr attr;
    char error[IL_ERRSHORT];
};
IL_HIDDEN int il_pfm_resolve(const char *const *names, int n, struct il_pfm_result *out);

/* papi.c: libpapi through dlopen, only when this backend is used */
IL_HIDDEN int il_papi_open(char *why, size_t whysz);
IL_HIDDEN void il_papi_start(void);
IL_HIDDEN void il_papi_stop_read(void);
IL_HIDDEN void il_papi_floor(void);
IL_HIDDEN void il_papi_close(void);
IL_HIDDEN int il_papi_probe(char *info, size_t n);
IL_HIDDEN int il_papi_code(const char *name, int *code, char *err, size_t n);

/* backend-neutral counter control, used by start and finish */
IL_HIDDEN void il_counters_start(void);
IL_HIDDEN void il_counters_stop(void);
IL_HIDDEN void il_counters_read_and_floor(void);

/* record.c */
IL_HIDDEN int il_arena_init(size_t want);
IL_HIDDEN void *il_arena_alloc(size_t n);
IL_HIDDEN int il_record_prefix(void);
IL_HIDDEN size_t il_record_finish(enum il_how how, int status, int sig, const char *exec_path);
IL_HIDDEN size_t il_record_premain(char *buf, size_t cap, enum il_how how, int status, int sig,
                                   const char *exec_path);

/* trampoline.S: call fn(argc, argv, envp) with the stack pointer sp */
#if defined(__x86_64__) || defined(__aarch64__)
#define IL_HAVE_TRAMPOLINE 1
IL_HIDDEN int il_call_on_stack(uintptr_t sp, il_main_fn fn, int argc, char **argv, char **envp);
#else
#define IL_HAVE_TRAMPOLINE 0
#endif

/* setup.c */
IL_HIDDEN void il_setup_facts(int argc, char **argv, char **envp);
IL_HIDDEN uintptr_t il_main_stack(uintptr_t sp_now);
IL_HIDDEN void il_heap_apply(void);
IL_HIDDEN int il_output_open(void);
IL_HIDDEN void il_output_write(const char *s, size_t n);
IL_HIDDEN void il_keep_stderr(void);
IL_HIDDEN int il_stderr_fd(void);
IL_HIDDEN int il_call_main(uintptr_t sp, il_main_fn fn, int argc, char **argv, char **envp);

/* finish.c */
IL_HIDDEN int il_finish(enum il_how how, int status, int sig, const char *exec_path);
IL_HIDDEN void il_resume_after_exec(int err);
IL_HIDDEN void il_late_error(const char *a, const char *b);
IL_HIDDEN void il_on_exit(int status, void *arg);
IL_HIDDEN void il_on_quick_exit(void);
IL_HIDDEN void il_block_forever(void);

/* signals.c */
IL_HIDDEN void il_signals_install(void);

/* run.c: the spec from interloper run */
IL_HIDDEN void il_run_load(void);
IL_HIDDEN void il_run_end(enum il_how how, int status, int sig, int measured);

/* start.c */
IL_HIDDEN void il_child_restart(void);

#endif
