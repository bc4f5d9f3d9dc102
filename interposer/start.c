/*
 * start.c: how the interposer gets in front of main.
 *
 * As in Mytkowicz et al.'s inter-loper (seeds 000, section 3.2) and
 * libmonitor: LD_PRELOAD puts our __libc_start_main first, and glibc gets
 * il_main_entry in place of the program's main.  Nothing of the program
 * is modified or relinked, so its static layout is its own.
 *
 * Order of events in one process image:
 *   1. il_ctor()            our constructor, before the program's own
 *                           constructors (glibc runs those inside
 *                           __libc_start_main): parse the variables and
 *                           register the exit entries (exit.c), which
 *                           therefore run after the program's atexit
 *                           handlers.  Nothing is allocated.
 *   2. __libc_start_main    (trampoline.S) a tail jump into glibc's, with
 *                           main swapped for il_main_entry: no frame of
 *                           ours stays between _start and glibc.
 *   3. il_main_entry        (trampoline.S) calls il_main_prepare(), which
 *                           does all the work that can be done before main
 *                           and enables the counters as its last act; then
 *                           jumps to main with the stack pointer glibc gave
 *                           il_main_entry (minus an offset, or pinned), and
 *                           main's return address set to il_main_return.
 *   4. main returns         into il_main_return, which does what glibc
 *                           would: exit() with main's value, noting that
 *                           this thread's main returned.
 *
 * Hooks may be called before il_ctor() (by a library whose constructor
 * runs first), so each resolves what it needs lazily.
 */
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "il.h"
#include "sys.h"

typedef int (*start_main_fn)(il_main_fn, int, char **, void (*)(void), void (*)(void),
                             void (*)(void), void *);

extern int __cxa_at_quick_exit(void (*fn)(void *), void *dso);

/* Called by __libc_start_main (trampoline.S): keep the program's main,
 * return glibc's __libc_start_main. */
IL_HIDDEN void *il_start_hook(il_main_fn main);

void *
il_start_hook(il_main_fn main)
{
    il.main_args.main = main;
    il_resolve_reals();
    return il.real_start_main;
}

static void
il_ctor_body(int argc, char **argv, char **envp)
{
    (void)argc;
    (void)argv;
    if (il.phase == IL_PHASE_LOADED) {
        il_populate(&il, IL_POPULATED); /* the state every process uses */
        il_counted_take();                     /* first: the program must never see it */
    }
    il_resolve_reals();
    if (il.phase != IL_PHASE_LOADED && il.pid == (pid_t)il_sys_getpid())
        return;
    if (!il.real_exit)
        return; /* no libc in the program (bind.c): nothing to hook, nothing to say */
    il.auxv = il_auxv(envp);
    for (const unsigned long *a = il.auxv; a && a[0] != AT_NULL; a += 2)
        if (a[0] == AT_SECURE && a[1])
            il.secure = 1; /* setuid and the like: the variables are not ours to trust */
    if (!il.secure && !il_glibc_check())
        il.secure = 1; /* internals we have not read: stand aside, as under AT_SECURE */
    if (il.secure)
        return;
    il_note_stderr(); /* before the program's own constructors can change it (not
                       * those of the libraries it loads, which run before ours) */
    il.pid = (pid_t)il_sys_getpid();
    il.err_fd = -1;
    il.envp = envp;
    il_config_parse(&il.cfg, NULL, envp);
    /* registered first, run last */
    on_exit(il_exit_record, NULL);
    on_exit(il_exit_lock, NULL);
    /* glibc runs these as fn(arg, status): the status, without a hook */
    __cxa_at_quick_exit((void (*)(void *))(void (*)(void))il_quick_record, NULL);
    __atomic_store_n(&il.phase, IL_PHASE_INIT, __ATOMIC_SEQ_CST);
    il_debug("constructor", "", "");
}

/* glibc passes argc, argv and the environment to constructors */
__attribute__((constructor)) static void
il_ctor(int argc, char **argv, char **envp)
{
    il_ctor_body(argc, argv, envp);
}

static void
counters_start(void)
{
    clock_gettime(CLOCK_REALTIME, &il.start_real);
    il_sys_getrusage(RUSAGE_SELF, &il.ru0);
    /* the waited-for children's usage counts in the record under
     * INHERIT=all alone (il_usage): under threads or none each child's is
     * in a record of its own, and nothing asks for it (two system calls) */
    if (il.inherit == IL_INHERIT_ALL)
        il_sys_getrusage(RUSAGE_CHILDREN, &il.ru0c);
    clock_gettime(CLOCK_MONOTONIC, &il.t0);
    il_be_do(il.be, IL_BE_ENABLE);
}

/* INTERLOPER_STRICT or INTERLOPER_STACK_PIN (var; the drivers' option
 * when their run spec set it) stops the process before main, and says so
 * last. */
static void
stop_before_main(const char *var)
{
    il_say(var, ": stopping before main with exit status 127", NULL);
    il_sys_exit_group(127);
}

/* Strictness as the user gave it: run's --strict, sweep's and compare's
 * default, or the variable (review12b L1). */
static const char *
strict_name(void)
{
    if (!il.cfg.strict_spec)
        return IL_V_STRICT;
    return il.cfg.strict_default ? "strict, the default (--no-strict turns it off)" : "--strict";
}

/*
 * Tell the user, once, on stderr, about every problem found before main:
 * one line each, naming the variable and its value.  Problems with events
 * also go to the record's "errors", beside each event's own "error".
 */
static int
report_problems(void)
{
    /* under INTERLOPER_STRICT each is why the program stops, and a pin
     * that failed stops it too (its reason is among them): said even when
     * INTERLOPER_QUIET (review11c) */
    int stops = il.cfg.strict || il.pin_failed;
    int n = 0;
    for (int i = 0; i < il.cfg.nerrors; i++, n++)
        il_warn(stops, il.cfg.errors[i], NULL, NULL);
    for (int i = 0; i < il.nlate; i++, n++)
        if (strncmp(il.late_errors[i], "not counted: ", 13)) /* said already */
            il_warn(stops, il.late_errors[i], NULL, NULL);
    const char *v = il.cfg.events_value;
    for (int i = 0; i < il.nev; i++) {
        if (il.ev[i].ok || il.counted_in || !strncmp(il.ev[i].error, "not counted: ", 13))
            continue;
        n++;
        char line[IL_ERROR_MAX];
        char *p = line;
        /* named as the user gave them: a driver's options (the run spec's
         * set lines), else the variable (review12b L1) */
        if (il.cfg.backend_spec) {
            p = il_cat(p, "--backend=");
            p = il_cat(p, il_backend_name(il.cfg.backend));
            p = il_cat(p, ", ");
        }
        if (il.cfg.events_default)
            p = il_cat(p, il.run_loaded ? "--events (default)" : IL_V_EVENTS " (default)");
        else {
            p = il_cat(p, il.cfg.events_spec ? "--events=" : IL_V_EVENTS "=");
            p = il_catn(p, v ? v : "", 80);
        }
        p = il_cat(p, ": ");
        p = il_cat(p, il.ev[i].name);
        p = il_cat(p, ": ");
        il_strlcpy(p, il.ev[i].error, sizeof line - (size_t)(p - line));
        il_warn(stops, line, NULL, NULL);
        il_late_error(line, "");
    }
    return n;
}

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

/* Between the fallback's frame and main, when main is called: room for
 * il_main_fallback and il_call_on_stack. */
#define IL_CALL_GAP 512

/*
 * Called by il_main_entry (trampoline.S) with what glibc gave main, and
 * the stack pointer on entry (entry, where glibc's return address is).
 * Returns the stack pointer main is to be entered with (its return
 * address goes there), or 0: call main the ordinary way instead
 * (il_main_fallback), on a machine where the tail jump cannot be made.
 */
IL_HIDDEN uintptr_t il_main_prepare(int argc, char **argv, char **envp, uintptr_t entry);

uintptr_t
il_main_prepare(int argc, char **argv, char **envp, uintptr_t entry)
{
    int tail = IL_TAIL_MAIN && !il_shadow_stack_active();
    il.main_args.argc = argc;
    il.main_args.argv = argv;
    il.main_args.envp = envp;
    if (il.phase == IL_PHASE_LOADED)
        il_ctor_body(argc, argv, envp);
    if (il.secure)
        return tail ? entry : 0;
    pid_t pid = (pid_t)il_sys_getpid();
    if (il.pid != pid) {
        /* forked in a constructor, after ours: a process of its own,
         * which measures itself from here */
        il.pid = pid;
        il_end_reset();
        il.exit_runners = 0;
        __atomic_store_n(&il.phase, IL_PHASE_INIT, __ATOMIC_SEQ_CST);
    }
    struct timespec t = {0, 0};
    if (il.cfg.debug)
        clock_gettime(CLOCK_MONOTONIC, &t);
    il.main_tid = pid; /* glibc calls main in the process's first thread */
    il.counted_late = il_counted_late; /* before the first descriptor of ours is placed */
    il_setup_facts(argc, argv, envp);
    il_run_load();
    if (il.secure)
        return tail ? entry : 0; /* a run that has ended (run_spec.c) */
    if (!il.run_machine)
        il_cpu_brand(); /* before main, which may turn CPUID off (setup.c) */
    il_output_prepare();
    /* a driver's output is the driver's to check: the sweep's own file (a
     * spec with pid 0), and interloper run's, which it checked just
     * before it exec'd this program (common/system.c, il_check_writable) */
    if (!il.run_loaded)
        il_output_check();
    if (il_run_wants_summary())
        il_keep_stderr();
    debug_step("setup facts and output", &t);
    il_events_setup();
    il.counted_late = NULL; /* looked, or never will */
    debug_step("events", &t);
    il_heap_apply();
    il_signals_install();
    debug_step("heap and signals", &t);
    /* glibc calls main with a 16-byte aligned stack pointer: the one the
     * return address is pushed from */
    uintptr_t glibc_sp = entry + sizeof(void *);
    il.main_tail = tail;
    il_main_stack(tail ? glibc_sp : glibc_sp - IL_CALL_GAP);
    il.main_residue = tail || il.stack_pinned ? 0 : IL_CALL_GAP;
    /* the stops before main come before others.c counts this image in: a
     * process that never runs main is no other measurement */
    int problems = report_problems();
    if (il.pin_failed)
        stop_before_main(il.cfg.stack_pin_spec ? "--stack-pin" : IL_V_STACK_PIN);
    if (il.cfg.strict && problems)
        stop_before_main(strict_name());
    il_others_enter(); /* two system calls; before the prefix, which asks whether alone */
    int late = il.nlate;
    /* without the buffer, the record is the short one of a process that
     * never reached main (finish.c): no counts, its notes not all true,
     * so why is said under INTERLOPER_QUIET too (review11d), with the
     * prefix's other lines */
    int unmeasured = il_record_prefix() < 0;
    if (unmeasured)
        il_late_error(IL_WHY_NO_BUFFER, "");
    for (int i = late; i < il.nlate; i++)
        il_warn(il.cfg.strict || unmeasured, il.late_errors[i], NULL, NULL);
    if (il.cfg.strict && il.nlate > late)
        stop_before_main(strict_name());
    debug_step("record prefix", &t);
    if (il.cfg.debug) {
        char b[64];
        il_fmt_hex(b, il.main_sp);
        il_debug("backend ", il.be->name, "");
        il_debug("main_sp ", b, tail ? " (tail)" : " (call)");
        il_debug("output ", il.cfg.output_stderr ? "stderr" : il.cfg.output, "");
    }

    /* The last thing before main. */
    __atomic_store_n(&il.phase, IL_PHASE_RUNNING, __ATOMIC_SEQ_CST);
    counters_start();
    return tail ? il.main_sp - sizeof(void *) : 0;
}

/*
 * Where the tail jump cannot be made: glibc calls this (il_main_entry
 * jumps here), and this calls main, IL_CALL_GAP bytes lower than glibc
 * would (setup.main_entry "call", setup.main_sp_residue).
 */
IL_HIDDEN int il_main_fallback(void);

int
il_main_fallback(void)
{
    struct il_main_args a = il.main_args;
    int ret;
    if (il.secure || !il.main_sp)
        ret = a.main((int)a.argc, a.argv, a.envp);
    else
        ret = il_call_on_stack(il.main_sp, a.main, (int)a.argc, a.argv, a.envp);
    il.returned = il_self();
    return ret; /* glibc calls exit(ret) */
}

/*
 * A forked child, with INTERLOPER_INHERIT=threads or none: a process of its
 * own, with counters and a record of its own from the fork on.  Runs in the
 * child right after fork() returns there.  A backend whose state does not
 * survive fork (papi) leaves the child unmeasured.
 */
void
il_child_restart(void)
{
    pid_t parent = il.pid;
    il.pid = (pid_t)il_sys_getpid();
    il.main_tid = il_gettid();
    il_end_reset();
    il.exit_runners = 0; /* the child's one thread */
    il.others_state = 0;
    il.nlate = 0;
    il.exec_failed_errno = 0;
    if (!(il.be->caps & IL_CAP_FORK)) {
        il.pid = parent; /* not measured: every hook stands aside */
        return;
    }
    __atomic_store_n(&il.phase, IL_PHASE_INIT, __ATOMIC_SEQ_CST);
    il_be_do(il.be, IL_BE_AFTER_FORK);
    il_others_enter();
    if (il_record_prefix() < 0) /* the record says why it has no counts (review12e) */
        il_late_error(IL_WHY_NO_BUFFER, "");
    __atomic_store_n(&il.phase, IL_PHASE_RUNNING, __ATOMIC_SEQ_CST);
    counters_start();
}
