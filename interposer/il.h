/*
 * il.h: the interposer's internal state and the functions its files share.
 *
 * Lifecycle of one process image (see libinterloper(7)):
 *
 *   constructor        il_ctor(): parse the INTERLOPER_* variables, register
 *                      the two exit entries (exit.c).  Before the
 *                      program's constructors.  Under AT_SECURE: nothing.
 *   __libc_start_main  trampoline.S hands glibc il_main_entry in place of
 *                      main, with a tail jump, so glibc's frames sit where
 *                      they would without us.
 *   il_main_prepare()  gathers setup facts, opens counters (disabled),
 *                      installs fatal-signal handlers, escapes argv into
 *                      the record; then enables the counters, and
 *                      il_main_entry jumps to main with the stack pointer
 *                      glibc gave it (or the offset/pinned one), main's
 *                      return address pointing at il_main_return.
 *   any ending         return / exit / _exit / exec / fatal signal: one
 *                      thread becomes the ender (finish.c), the counters
 *                      stop, and one record is written with one write(2).
 *
 * The finish path (the objects listed in IL_SAFE, interposer.mk) is
 * async-signal-safe: raw system calls, no malloc, no stdio, no locks;
 * tests/system/interposer_safety.sh checks their undefined symbols.
 */
#ifndef IL_H
#define IL_H

#include <linux/perf_event.h>
#include <signal.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <time.h>

#include "il_resolve.h"
#include "interloper.h"

#define IL_EXPORT __attribute__((visibility("default")))

/* Phases of one process image.  The record is written once: the thread
 * that moves the phase to FINISHING writes it. */
enum il_phase {
    IL_PHASE_LOADED = 0, /* before our constructor */
    IL_PHASE_INIT,       /* constructor done, main not yet reached */
    IL_PHASE_RUNNING,    /* counters enabled, the program's main runs */
    IL_PHASE_FINISHING,  /* one thread is writing the record */
    IL_PHASE_DONE,       /* the record is written */
};

enum il_how { IL_HOW_RETURN, IL_HOW_EXIT, IL_HOW__EXIT, IL_HOW_EXEC, IL_HOW_SIGNAL };
/* exit.how's values by enum il_how (record_json.c): arrays, not pointers,
 * so that the loader has nothing to relocate */
extern const char il_how_names[][8];

/* Who ends the process (finish.c). */
enum il_end_kind {
    IL_END_NONE = 0,
    IL_END_EXITPATH, /* glibc's exit() tail: the thread holds stdio's list lock */
    IL_END_SELF,     /* _exit, a fatal signal, quick_exit: the writer ends it */
    IL_END_EXEC,     /* an exec in progress; released if it fails */
    IL_END_EARLY,    /* exit() before our constructor: the writer runs glibc's exit */
};

/* calibration windows, at most: the minimum of three is within a few
 * percent of that of five (task-clock on /bin/true, 300 runs each: median
 * 2,455 ns against 2,304), and each window costs every process three
 * system calls.  The perf backend stops after the first window that no
 * fault or switch disturbed (backend_perf.c's perf_floor). */
#define IL_FLOOR_WINDOWS 3
#define IL_LATE_MAX 8

/*
 * One counter backend (backend_*.c).  The table in backends.c lists them;
 * adding a backend means one file and one line there.  Every function
 * works on il.ev[0..il.nev-1].  The functions called after main
 * (stop_read, floor, restart) run in the finish path, which may be a
 * signal handler: they must be async-signal-safe, or the backend says
 * it is not (IL_CAP_UNSAFE_STOP, documented).
 */
enum {
    IL_CAP_TIMES = 1,       /* reports enabled_ns and running_ns */
    IL_CAP_FORK = 2,        /* after_fork can give a forked child counters of its own */
    IL_CAP_UNSAFE_STOP = 4, /* stop_read is not async-signal-safe */
    IL_CAP_SCOPE = 8,       /* may count user space only (exclude_kernel) */
};

/* A backend's operations, each one case of its il_*_do(): a switch, not a
 * table of function pointers, which the loader would relocate in every
 * process (13 instructions each). */
enum il_be_op {
    IL_BE_OPEN,       /* open every event, disabled; 0, or IL_E* if none counts */
    IL_BE_ENABLE,     /* start counting: the last thing before main */
    IL_BE_STOP_READ,  /* stop counting and read the values */
    IL_BE_FLOOR,      /* calibrate the empty window (after stop_read) */
    IL_BE_RESTART,    /* count again after a failed exec (values carried) */
    IL_BE_AFTER_FORK, /* a forked child that measures itself */
    IL_BE_CLOSE,      /* let go of everything */
};

struct il_backend {
    char name[8];
    unsigned caps;
    enum il_backend_kind kind; /* whose il_*_do() */
};

extern const struct il_backend il_backend_perf IL_HIDDEN;
extern const struct il_backend il_backend_papi IL_HIDDEN;
extern const struct il_backend il_backend_none IL_HIDDEN;
int il_perf_do(enum il_be_op op) IL_HIDDEN;
int il_papi_do(enum il_be_op op) IL_HIDDEN;
int il_none_do(enum il_be_op op) IL_HIDDEN;

/* A backend's il_*_do(), from its functions PREFIX_open, PREFIX_enable, ...
 * PREFIX_close (static in its file). */
#define IL_BACKEND_DO(prefix)                                                                      \
    int il_##prefix##_do(enum il_be_op op)                                                         \
    {                                                                                              \
        switch (op) {                                                                              \
        case IL_BE_OPEN:                                                                           \
            return prefix##_open();                                                                \
        case IL_BE_ENABLE:                                                                         \
            prefix##_enable();                                                                     \
            break;                                                                                 \
        case IL_BE_STOP_READ:                                                                      \
            prefix##_stop_read();                                                                  \
            break;                                                                                 \
        case IL_BE_FLOOR:                                                                          \
            prefix##_floor();                                                                      \
            break;                                                                                 \
        case IL_BE_RESTART:                                                                        \
            prefix##_restart();                                                                    \
            break;                                                                                 \
        case IL_BE_AFTER_FORK:                                                                     \
            prefix##_after_fork();                                                                 \
            break;                                                                                 \
        case IL_BE_CLOSE:                                                                          \
            prefix##_close();                                                                      \
            break;                                                                                 \
        }                                                                                          \
        return 0;                                                                                  \
    }

/* Backend be's operation op (IL_BE_OPEN's result, else 0). */
static inline int
il_be_do(const struct il_backend *be, enum il_be_op op)
{
    switch (be->kind) {
    case IL_BACKEND_PERF:
        return il_perf_do(op);
    case IL_BACKEND_PAPI:
        return il_papi_do(op);
    default:
        return il_none_do(op);
    }
}

typedef int (*il_main_fn)(int, char **, char **);
/* what il_main_entry jumps to */
struct il_main_args {
    long argc;
    char **argv, **envp;
    il_main_fn main;
};

/*
 * Everything the library keeps, in one place, ordered by use: what every
 * measured process touches comes first and is prefaulted in one go
 * (il_populate: MADV_POPULATE_WRITE), so that the library's own memory
 * costs the program's page-fault count nothing; big, rarely used buffers
 * come last and cost nothing until used.
 */
struct il_state {
    struct il_main_args main_args; /* first: trampoline.S reads it at il+0 */
    void (*real_exit)(int);
    void *real_start_main;
    int secure; /* AT_SECURE, an unsupported glibc, or a run that has ended
                   (run_spec.c): the library stands aside */
    volatile int phase;

    /* the end of the process (finish.c) */
    volatile uintptr_t ender;  /* the thread that ends it (il_self()), 0 while nobody does */
    volatile int end_kind;     /* enum il_end_kind */
    volatile int exit_runners; /* threads admitted into glibc's exit() (exit.c) */
    volatile int exit_open;    /* exit's ender runs the program's code past its record
                                  (output remains): set before the record (exit.c) */
    int exit_early_handlers;   /* on_exit() before our constructor: a handler that
                                  exit() runs after our entries (bind.c) */
    int glibc_minor;           /* glibc 2.x's x: from 2.38 on, _IO_cleanup waits for
                                  every stream's lock (glibc.c il_exit_open) */
    /* the thread whose main returned (il_self()), the ending "return" unless
     * it calls exit() since; a variable, not thread-local: thread-local
     * storage costs every process the loader's work for a TLS segment */
    volatile uintptr_t returned;
    int end_how, end_status, end_sig;
    int end_uncertain;    /* the process may yet end otherwise than recorded (exit.c) */
    const char *end_exec; /* the program exec'd, for an exec ending */
    uintptr_t writer;     /* the thread writing (or that wrote) the record */

    pid_t pid;           /* the process this state belongs to */
    pid_t main_tid;      /* the thread that entered main */
    pid_t counted_in;    /* counted by the counters of this pid's record (counted.c) */
    int counts_children; /* our counters count what our children exec */
    int others_sem;      /* the machine's note of measured images (others.c) */
    int others_state;    /* 0 unknown, 1 measured alone so far, 2 not alone */

    const struct il_backend *be;
    enum il_inherit inherit; /* as applied */
    int nev;
    int group;     /* perf: the software group's leader in ev, or -1 */
    int group_ids; /* perf: the members' ids are known (from the first reading) */
    int inherit_thread_unsupported;
    int fd_top;  /* counters go at and below this descriptor */
    int fd_next; /* and the next one of ours goes here (il_fd_keep), 0 for fd_top */
    /* before main: il_counted_late, which dup_high calls when it finds
     * the limit below IL_FD_MAX + 1 (counted.c); else NULL */
    int (*counted_late)(int ask);

    /* the measured window */
    struct timespec t0, t1, start_real;
    struct rusage ru0, ru0c, ru1, ru1c;

    /* setup facts */
    int argc;
    char **argv, **envp;
    const unsigned long *auxv;
    /* the main program's program headers and load address: the first
     * object dl_iterate_phdr gives bind.c (the record's build_id) */
    const void *prog_phdr;
    int prog_phnum;
    uintptr_t prog_base;
    size_t env_bytes, env_vars, argv_bytes;
    int aslr;
    uintptr_t stack_top, main_sp, heap_base, heap_start;
    unsigned long stack_offset, heap_offset;
    int stack_pinned;
    uintptr_t stack_pin;
    int main_tail;      /* main entered by a tail jump (setup.main_entry) */
    long main_residue;  /* bytes main's stack pointer sits below glibc's, unasked */
    char cpus[256];     /* CPU affinity before main, as a list "0-3,6" */
    char cpu_brand[49]; /* the CPU's model name from CPUID before main, or "" (setup.c) */

    /* output: cfg.output, made absolute before main */
    int out_ready;
    int out_warned;   /* the output was said unwritable before main */
    int out_not_file; /* before main it was there, and not a regular file */
    int err_fd;       /* our copy of stderr, when records or the summary go there */
    int err2;         /* descriptor 2 at the constructor: 0 not looked, 1 open (err_dev,
                       * err_ino), -1 closed */
    dev_t err_dev;    /* the file descriptor 2 was then: the only one we write to */
    ino_t err_ino;

    /* the record: the prefix (identity and argv) is written before main,
     * the rest appended at the end by the same signal-safe writer */
    char *buf;
    size_t bufcap, prefix_len;
    const char *run_labels;  /* a JSON object from interloper run, or NULL */
    const char *run_machine; /* "host":..,"cpu":..,"kernel":.. from the spec, or NULL */

    /* the spec from interloper run (run_spec.c) */
    int run_loaded, run_summary;
    pid_t run_pid;
    const char *run_floor; /* the driver's floor line, after its key, or NULL */
    int floor_driver;      /* the record's floor is the driver's (il_run_floor) */

    /* fatal signals held (signals.c) */
    int sig_installed;
    volatile sig_atomic_t sig_ours[_NSIG];
    int sig_dfl_flags[_NSIG];

    int nlate;
    int exec_failed_errno; /* a record was written, then exec failed */
    int pin_failed;        /* INTERLOPER_STACK_PIN could not be applied */

    struct il_config cfg;              /* its scalars and the heads of its buffers are used */
    struct il_event ev[IL_MAX_EVENTS]; /* the first nev */
    /* problems found after the configuration, for the record's "errors" */
    char late_errors[IL_LATE_MAX][IL_ERROR_MAX];
};
/* What the constructor prefaults, in one madvise: the state above, the
 * configuration's head (to its output path) and the default events'
 * slots.  Prefaulting the configuration's error buffers in between too
 * (two pages no process writes) saves the second madvise. */
#define IL_DEFAULT_EVENTS 3
#define IL_POPULATED                                                                               \
    ((const char *)&il.ev[IL_DEFAULT_EVENTS] > il.cfg.output + 256                                 \
         ? (const void *)&il.ev[IL_DEFAULT_EVENTS]                                                 \
         : (const void *)(il.cfg.output + 256))

extern struct il_state il IL_HIDDEN;

/* sigsafe.c: signal-safe formatting and output */
/* "00".."99": each pair of decimal digits, for a two-byte move */
extern const char il_digit_pairs[201] IL_HIDDEN;
/* v's decimal digits written backward, so that they end just before q;
 * returns the first.  32-bit divisions once the rest fits (most numbers
 * do: a shorter multiply), each pair one two-byte move. */
static inline char *
il_fmt_back_u64(char *q, uint64_t v)
{
    for (; v > 0xffffffffu; v /= 100)
        __builtin_memcpy(q -= 2, il_digit_pairs + 2 * (v % 100), 2);
    uint32_t w = (uint32_t)v;
    for (; w >= 100; w /= 100)
        __builtin_memcpy(q -= 2, il_digit_pairs + 2 * (w % 100), 2);
    if (w >= 10)
        __builtin_memcpy(q -= 2, il_digit_pairs + 2 * w, 2);
    else
        *--q = (char)('0' + w);
    return q;
}
IL_HIDDEN char *il_fmt_u64(char *p, uint64_t v);
IL_HIDDEN char *il_fmt_i64(char *p, int64_t v);
IL_HIDDEN char *il_fmt_hex(char *p, uint64_t v);
IL_HIDDEN extern const char il_hex2[513]; /* "000102...ff": a byte's two hex digits */
IL_HIDDEN char *il_cat(char *p, const char *s);
IL_HIDDEN char *il_catn(char *p, const char *s, size_t max);
/* how long a record waits, in all, for a FIFO whose reader is slow */
#define IL_WRITE_WAIT_MS 2000
IL_HIDDEN int il_write_all(int fd, const char *s, size_t n);
IL_HIDDEN int il_write_upto(int fd, const char *s, size_t n, size_t *done, int *budget_ms);
IL_HIDDEN void il_msg(const char *a, const char *b, const char *c);
IL_HIDDEN void il_say(const char *a, const char *b, const char *c);
IL_HIDDEN void il_note_stderr(void);
IL_HIDDEN int il_stderr_fd(void); /* where a line for stderr goes, or -1 */
IL_HIDDEN void il_warn(int stops, const char *a, const char *b, const char *c);
IL_HIDDEN void il_sig_take(uint64_t before, uint64_t mask); /* il_sigsets (sys.h) */
IL_HIDDEN void il_debug(const char *a, const char *b, const char *c);
IL_HIDDEN const char *il_errname(int err, char *buf);
IL_HIDDEN pid_t il_gettid(void);
/* This thread, without a system call: its thread pointer.  (A vfork
 * child has its parent thread's; il_measured() tells them apart.) */
static inline uintptr_t
il_self(void)
{
    return (uintptr_t)__builtin_thread_pointer();
}
IL_HIDDEN int il_fd_top(void);
/* the highest descriptor of ours, under a descriptor limit above it */
#define IL_FD_MAX 1023
IL_HIDDEN int il_fd_place(int fd, int top);
IL_HIDDEN int il_fd_keep(int fd);
IL_HIDDEN int il_fd_keep_dup(int src);
IL_HIDDEN int il_fd_keep_high(int src);
IL_HIDDEN char *il_iso8601(const struct timespec *ts, char out[32]);
IL_HIDDEN uint64_t il_ts_ns(const struct timespec *a, const struct timespec *b);
IL_HIDDEN uint64_t il_tv_ns(const struct timeval *tv);
IL_HIDDEN size_t il_utf8_sanitize(const char *src, size_t n, char *dst, size_t dstsz);
IL_HIDDEN void il_late_error(const char *a, const char *b);
IL_HIDDEN const char *il_getenv(char *const *env, const char *name);
IL_HIDDEN void il_block_forever(void);
IL_HIDDEN int il_read_small(const char *path, char *b, size_t n);
IL_HIDDEN void il_populate(const void *from, const void *to);
IL_HIDDEN const unsigned long *il_auxv(char **envp);
IL_HIDDEN unsigned long il_auxval(unsigned long type, unsigned long dflt);

/* backends.c: picks the backend and opens the events */
IL_HIDDEN void il_events_setup(void);

/* backends.c: the perf encodings of the events, before main */
IL_HIDDEN void il_perf_encode(void);

/* record_json.c */
struct il_usage {
    uint64_t wall, user, sys, vol, invol;
    long maxrss;
};
IL_HIDDEN void il_usage(struct il_usage *u);
/* What the record's tail computed and wrote that interloper run's summary
 * prints too: the usage, and the addresses' text in the record (not
 * NUL-terminated); NULL before a tail is written */
struct il_written {
    struct il_usage usage;
    const char *main_sp, *heap_start;
    size_t main_sp_len, heap_start_len;
};
IL_HIDDEN const struct il_written *il_record_written(void);
IL_HIDDEN int il_record_prefix(void);
IL_HIDDEN size_t il_record_finish(void);
IL_HIDDEN size_t il_record_premain(char *buf, size_t cap, int reached_main);
/* why a record that reached main has no counts (start.c, a process's and
 * a forked child's) */
#define IL_WHY_NO_BUFFER                                                                           \
    "cannot map the record buffer; nothing is measured, the record is a short one without counts"

/* summary.c: the perf-stat-like summary, shared with interloper record */
IL_HIDDEN void il_summary_print(int fd);

/* setup.c */
IL_HIDDEN void il_setup_facts(int argc, char **argv, char **envp);
IL_HIDDEN void il_cpu_brand(void);
IL_HIDDEN void il_setup_late(void);
IL_HIDDEN uintptr_t il_main_stack(uintptr_t glibc_sp);
IL_HIDDEN void il_heap_apply(void);

/* output.c */
IL_HIDDEN int il_output_prepare(void);
IL_HIDDEN int il_output_write(const char *line, size_t n, char *why, size_t whysz);
IL_HIDDEN void il_output_fallback(const char *line, size_t n);
IL_HIDDEN void il_output_check(void);
IL_HIDDEN uint64_t il_output_pending(void); /* an il_sigset (sys.h) */
IL_HIDDEN void il_output_settle(uint64_t before);
IL_HIDDEN void il_keep_stderr(void);

/* finish.c: the ender and the record */
enum { IL_CLAIMED, IL_MINE, IL_OTHER }; /* il_claim's answers */
IL_HIDDEN int il_claim(int kind, int how, int status, int sig, const char *exec);
IL_HIDDEN void il_write_record(void);
IL_HIDDEN int il_finish_blocked(enum il_how how, int status, int sig, const char *exec_path,
                                const char *lost, uint64_t *old); /* old: an il_sigset (sys.h) */
/* lost: for an exec the new image of which measures nothing, why (said
 * in the record and on stderr by the thread that writes it), or NULL */
IL_HIDDEN int il_finish(enum il_how how, int status, int sig, const char *exec_path,
                        const char *lost);
IL_HIDDEN void il_resume_after_exec(int err);
IL_HIDDEN void il_end_wait(void);
IL_HIDDEN int il_end_yields(void);
IL_HIDDEN void il_end_reset(void);
IL_HIDDEN int il_measured(void);

/* exit.c: the exit family's hooks */
IL_HIDDEN void il_exit_lock(int status, void *arg);
IL_HIDDEN void il_exit_record(int status, void *arg);
IL_HIDDEN void il_quick_record(void *arg, int status);

/* glibc.c: what the exit path needs of glibc beyond system calls */
IL_HIDDEN int il_glibc_check(void);
IL_HIDDEN void il_resolve_reals(void);
IL_HIDDEN void il_exit_flush(void);
IL_HIDDEN int il_exit_open(void);

/* counted.c */
IL_HIDDEN int il_counted_give(int dir, const char *path, int fd, char *const envp[]);
IL_HIDDEN int il_counted_spawn(const char *path, char *const envp[]);
IL_HIDDEN void il_counted_spawn_end(int m);
IL_HIDDEN int il_counted_children(void);
IL_HIDDEN const char *il_exec_unfollowed(int dir, const char *path, int fd, char *const envp[]);
IL_HIDDEN void il_counted_take(void);
IL_HIDDEN int il_counted_late(int ask);

/* others.c: another measured program at the same time */
IL_HIDDEN void il_others_enter(void);
IL_HIDDEN void il_others_leave(void);

/* signals.c */
IL_HIDDEN void il_signals_install(void);

/* run_spec.c: the spec from interloper run */
IL_HIDDEN void il_run_load(void);
IL_HIDDEN int il_run_wants_summary(void);
IL_HIDDEN void il_run_end(int measured);
IL_HIDDEN int il_run_floor(void);
/* the settings of an event that its empty window's count depends on, as
 * the spec's floor line says them (il_names.h, IL_RUN_FLOOR): one digit
 * of IL_HEX */
#define IL_HEX "0123456789abcdef"
static inline unsigned
il_floor_flags(const struct perf_event_attr *a)
{
    return (unsigned)a->exclude_kernel | (unsigned)a->exclude_user << 1 |
           (unsigned)a->inherit << 2 | (unsigned)a->inherit_thread << 3;
}

/* bind.c: what the library calls in libc, found before main without an
 * import each; the functions themselves are called by their own names */
IL_HIDDEN void il_bind(void);
IL_HIDDEN char **il_environ(void);                                 /* glibc's __environ */
IL_HIDDEN struct _IO_FILE *il_io_list_all(void);                   /* glibc's _IO_list_all */
IL_HIDDEN int il_real_on_exit(void (*fn)(int, void *), void *arg); /* glibc's on_exit */
IL_HIDDEN void il_bind_list_unlock(void); /* find glibc's _IO_list_unlock (bind.c) */
/* glibc's system, popen, and posix_spawn (p 0) or posix_spawnp (p 1),
 * found at their first call (bind.c) */
IL_HIDDEN void *il_real_system(void);
IL_HIDDEN void *il_real_posix_spawn(int p);
IL_HIDDEN void *il_real_popen(void);
IL_HIDDEN void il_io_list_unlock(void);   /* call it, where found */

/* start.c */
IL_HIDDEN void il_child_restart(void);

/* testdelay.c: a delay in a race window, in the tests' variant of the
 * library only (build/tests/libinterloper-delay.so); nothing elsewhere */
#ifdef IL_TEST_DELAYS
IL_HIDDEN void il_test_delay(const char *point);
#define IL_TEST_DELAY(point) il_test_delay(point)
#else
#define IL_TEST_DELAY(point) ((void)0)
#endif

/* trampoline.S; main is entered by a tail jump on x86-64 only (elsewhere
 * it is called, IL_CALL_GAP bytes lower: setup.main_entry "call") */
#if defined(__x86_64__)
#define IL_TAIL_MAIN 1
#else
#define IL_TAIL_MAIN 0
#endif
IL_HIDDEN int il_call_on_stack(uintptr_t sp, il_main_fn fn, int argc, char **argv, char **envp);
IL_HIDDEN int il_shadow_stack_active(void);

#endif
