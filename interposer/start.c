/*
 * start.c: how the interposer gets in front of main.
 *
 * As in Mytkowicz et al.'s inter-loper (seeds 000, section 3.2) and
 * libmonitor: LD_PRELOAD puts our __libc_start_main first, and we hand
 * glibc il_main() in place of the program's main.  Nothing of the program
 * is modified or relinked, so its static layout is its own.
 *
 * Order of events in one process image:
 *   1. il_ctor()            our constructor (before the program's own
 *                           constructors, which glibc runs in
 *                           __libc_start_main): resolve real_*, parse the
 *                           variables, register il_on_exit with on_exit(3)
 *                           (it runs after the program's atexit handlers,
 *                           which were registered later) - no allocation.
 *   2. __libc_start_main    swap main for il_main.
 *   3. il_main()            il_prepare() does all the work that can be
 *                           done before main; then the clocks are read and
 *                           the counters enabled, as the very last thing,
 *                           and main is called on the chosen stack.
 *   4. return from main     recorded as the claim "return"; glibc then
 *                           calls exit(), which runs the atexit handlers
 *                           and finally il_on_exit(), which writes.
 *
 * Hooks may be called before il_ctor() (by a library whose constructor
 * runs first), so each resolves its real_* pointer lazily.
 */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "il.h"

void (*real_exit)(int);
void (*real__exit)(int);
int (*real_sigaction)(int, const struct sigaction *, struct sigaction *);

typedef int (*start_main_fn)(il_main_fn, int, char **, void (*)(void), void (*)(void),
                             void (*)(void), void *);
static start_main_fn real_start_main;
static il_main_fn real_main;

/* Idempotent and race-tolerant: every caller stores the same values. */
void
il_resolve_reals(void)
{
    if (real_start_main)
        return;
    *(void **)&real_exit = dlsym(RTLD_NEXT, "exit");
    *(void **)&real__exit = dlsym(RTLD_NEXT, "_exit");
    *(void **)&real_sigaction = dlsym(RTLD_NEXT, "sigaction");
    *(void **)&real_start_main = dlsym(RTLD_NEXT, "__libc_start_main");
}

static const char *
env_get(const char *name)
{
    return getenv(name);
}

__attribute__((constructor)) static void
il_ctor(void)
{
    il_resolve_reals();
    if (il.phase != IL_PHASE_LOADED)
        return;
    if (il.pid && il.pid != getpid())
        return; /* forked by an earlier constructor: the parent measures */
    il.pid = getpid();
    il.out_fd = -1;
    il.err_fd = -1;
    il_config_parse(&il.cfg, env_get, environ);
    on_exit(il_on_exit, NULL);
    at_quick_exit(il_on_quick_exit);
    __atomic_store_n(&il.phase, IL_PHASE_INIT, __ATOMIC_SEQ_CST);
    il_debug("constructor", "", "");
}

void
il_counters_start(void)
{
    getrusage(RUSAGE_SELF, &il.ru0);
    getrusage(RUSAGE_CHILDREN, &il.ru0c);
    clock_gettime(CLOCK_MONOTONIC, &il.t0);
    if (il.backend == IL_BACKEND_PERF)
        il_perf_enable();
    else if (il.backend == IL_BACKEND_PAPI)
        il_papi_start();
}

void
il_counters_stop(void)
{
    if (il.backend == IL_BACKEND_PERF)
        il_perf_stop();
    else if (il.backend == IL_BACKEND_PAPI)
        il_papi_stop_read();
    clock_gettime(CLOCK_MONOTONIC, &il.t1);
    getrusage(RUSAGE_SELF, &il.ru1);
    getrusage(RUSAGE_CHILDREN, &il.ru1c);
}

void
il_counters_read_and_floor(void)
{
    if (il.backend == IL_BACKEND_PERF) {
        il_perf_read();
        il_perf_floor();
    } else if (il.backend == IL_BACKEND_PAPI) {
        il_papi_floor();
    }
}

/*
 * Tell the user, once, on stderr, about every problem found before main:
 * one line each, naming the variable and its value.  Problems with events
 * also go to the record's "errors", beside each event's own "error".
 */
static int
report_problems(void)
{
    int n = 0;
    for (int i = 0; i < il.cfg.nerrors; i++, n++)
        il_msg(il.cfg.errors[i], NULL, NULL);
    for (int i = 0; i < il.nlate; i++, n++)
        il_msg(il.late_errors[i], NULL, NULL);
    const char *v = getenv("INTERLOPER_EVENTS");
    for (int i = 0; i < il.nev; i++) {
        if (il.ev[i].ok)
            continue;
        n++;
        char line[IL_ERROR_MAX];
        char *p = il_cat(line, il.cfg.events_default ? "INTERLOPER_EVENTS (default)" : "");
        if (!il.cfg.events_default) {
            p = il_cat(p, "INTERLOPER_EVENTS=");
            size_t len = v ? strlen(v) : 0;
            memcpy(p, v ? v : "", len > 80 ? 80 : len);
            p += len > 80 ? 80 : len;
            p = il_cat(p, len > 80 ? "..." : "");
        }
        p = il_cat(p, ": ");
        p = il_cat(p, il.ev[i].name);
        p = il_cat(p, ": ");
        il_strlcpy(p, il.ev[i].error, sizeof line - (size_t)(p - line));
        il_msg(line, NULL, NULL);
        il_late_error(line, "");
    }
    return n;
}

/*
 * Everything that can be done before main.  Kept out of il_main so that
 * il_main's own frame is small and of fixed size: main's stack pointer is
 * derived from it.
 */
/* INTERLOPER_DEBUG=1: how long each step before main took, in us. */
static void
debug_step(const char *what, struct timespec *last)
{
    if (!il.cfg.debug)
        return;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    char b[32];
    il_fmt_u64(b, il_ts_ns(last, &now) / 1000);
    il_debug(what, " took us: ", b);
    *last = now;
}

__attribute__((noinline)) static uintptr_t
il_prepare(int argc, char **argv, char **envp, uintptr_t sp_now)
{
    struct timespec t = {0, 0};
    if (il.cfg.debug)
        clock_gettime(CLOCK_MONOTONIC, &t);
    il.main_tid = il_gettid();
    il_setup_facts(argc, argv, envp);
    il_run_load();
    /* the record's prefix needs about 10 bytes per byte of argv (6 for
     * the worst escaping, 3 to make it valid UTF-8, 1 for jansson's copy) */
    if (il_arena_init((256u << 10) + 12 * il.argv_bytes + 96 * (size_t)argc) < 0)
        il_late_error("cannot map the record arena; no record will be written", "");
    il_output_open();
    debug_step("setup facts and output", &t);
    il_events_setup();
    debug_step("events", &t);
    il_heap_apply();
    il_signals_install();
    debug_step("heap and signals", &t);
    uintptr_t sp = il_main_stack(sp_now);
    il_record_prefix();
    debug_step("record prefix", &t);

    int problems = report_problems();
    if (il.pin_failed) {
        il_msg("INTERLOPER_STACK_PIN: stopping before main with exit status 127", NULL, NULL);
        syscall(SYS_exit_group, 127);
    }
    if (il.cfg.strict && problems) {
        il_msg("INTERLOPER_STRICT: stopping before main with exit status 127", NULL, NULL);
        syscall(SYS_exit_group, 127);
    }
    if (il.cfg.debug) {
        char b[64];
        il_fmt_hex(b, sp);
        il_debug("backend ", il_backend_name(il.backend), "");
        il_debug("main_sp ", b, "");
        il_debug("output ", il.out_path[0] ? il.out_path : "stderr", "");
    }
    return sp;
}

static int
il_main(int argc, char **argv, char **envp)
{
    uintptr_t sp_now;
#if defined(__x86_64__)
    __asm__ volatile("movq %%rsp, %0" : "=r"(sp_now));
#elif defined(__aarch64__)
    __asm__ volatile("mov %0, sp" : "=r"(sp_now));
#else
    sp_now = (uintptr_t)__builtin_frame_address(0);
#endif
    if (il.phase == IL_PHASE_LOADED)
        il_ctor();
    if (il.pid != getpid())
        return real_main(argc, argv, envp); /* forked before our constructor */
    uintptr_t sp = il_prepare(argc, argv, envp, sp_now);

    /* The last thing before main. */
    __atomic_store_n(&il.phase, IL_PHASE_RUNNING, __ATOMIC_SEQ_CST);
    il_counters_start();
    int ret = il_call_main(sp, real_main, argc, argv, envp);

    il.return_tid = il_gettid();
    return ret;
}

IL_EXPORT int __libc_start_main(il_main_fn main, int argc, char **argv, void (*init)(void),
                                void (*fini)(void), void (*rtld_fini)(void), void *stack_end);

IL_EXPORT int
__libc_start_main(il_main_fn main, int argc, char **argv, void (*init)(void),
                  void (*fini)(void), void (*rtld_fini)(void), void *stack_end)
{
    il_resolve_reals();
    real_main = main;
    return real_start_main(il_main, argc, argv, init, fini, rtld_fini, stack_end);
}

/*
 * A forked child, with INTERLOPER_INHERIT=threads or none: a process of its
 * own, with counters and a record of its own from the fork on.  Runs in the
 * child right after fork() returns there.
 */
void
il_child_restart(void)
{
    __atomic_store_n(&il.phase, IL_PHASE_INIT, __ATOMIC_SEQ_CST);
    il.pid = getpid();
    il.main_tid = il_gettid();
    il.exit_tid = il.return_tid = 0;
    il.finisher = 0;
    il.nlate = 0;
    il.exec_failed_errno = 0;
    if (il.backend == IL_BACKEND_PAPI) {
        /* PAPI's state does not survive fork; say so and stay silent */
        il.pid = getppid();
        return;
    }
    for (int i = 0; i < il.nev; i++) {
        /* these descriptors are the parent's counters: let go of them */
        if (il.ev[i].fd >= 0)
            close(il.ev[i].fd);
        il.ev[i].fd = -1;
        il.ev[i].carry = 0;
        if (il.ev[i].ok && il.backend == IL_BACKEND_PERF)
            il_perf_open(&il.ev[i], il.cfg.inherit);
    }
    if (il.out_fd >= 0)
        close(il.out_fd);
    il_output_open();
    il.arena_used = 0;
    il.buf = NULL;
    il_record_prefix();
    __atomic_store_n(&il.phase, IL_PHASE_RUNNING, __ATOMIC_SEQ_CST);
    il_counters_start();
}
