/*
 * setup.c: the setup facts every record carries, the stack and heap knobs,
 * and the record's destination.
 *
 * Mytkowicz et al. (seeds 000, sections 2 and 4.2) show that the size of
 * the UNIX environment moves the initial stack, and with it the alignment
 * of every stack variable, enough to flip an O2-versus-O3 conclusion.  So
 * each record states the environment and argv sizes and main's stack
 * pointer, and two knobs act on that stack directly:
 *
 *   INTERLOPER_STACK_OFFSET=N  main runs N bytes (16-byte steps) lower;
 *   INTERLOPER_STACK_PIN=ADDR  main runs at ADDR whatever the environment
 *                              size: the paper's causal-analysis
 *                              intervention (section 7.2), which fixes the
 *                              stack start so that a remaining env-size
 *                              effect cannot be the stack's.
 *
 * Both work by calling main on a stack pointer we choose (trampoline.S),
 * below il_main's own frame.  Section 4.2.2 also shows perlbench copying
 * the environment to the heap; INTERLOPER_HEAP_OFFSET moves the break.
 *
 * All of this runs before main, in il_main(); it may allocate nothing in
 * the program's heap.  il_output_write() also runs at the end and is
 * async-signal-safe.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/personality.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "il.h"

/* where INTERLOPER_STACK_PIN=auto puts main: this far below the stack's
 * top, which is room for ~200 KiB of environment and argv */
#define IL_PIN_AUTO_DEPTH (256UL << 10)
/* stack the program keeps below a pinned or offset main, at least */
#define IL_STACK_ROOM (128UL << 10)

#if !IL_HAVE_TRAMPOLINE
#include <alloca.h>
#endif

static int
read_small(const char *path, char *b, size_t n)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t r = read(fd, b, n - 1);
    close(fd);
    if (r < 0)
        return -1;
    b[r] = 0;
    return 0;
}

/* The top of the initial stack: the kernel copies the exec file name to
 * the very top, one pointer below the end of the mapping (fs/exec.c), and
 * AT_EXECFN points at it.  No /proc parsing needed. */
static uintptr_t
stack_top(void)
{
    const char *fn = (const char *)getauxval(AT_EXECFN);
    if (!fn)
        return 0;
    return ((uintptr_t)fn + strlen(fn) + 1 + sizeof(void *) + 4095) & ~(uintptr_t)4095;
}

void
il_setup_facts(int argc, char **argv, char **envp)
{
    il.argc = argc;
    il.argv = argv;
    il.env_bytes = il.env_vars = il.argv_bytes = 0;
    for (char **e = envp; e && *e; e++) {
        il.env_bytes += strlen(*e) + 1;
        il.env_vars++;
    }
    for (int i = 0; i < argc && argv[i]; i++)
        il.argv_bytes += strlen(argv[i]) + 1;

    char b[16] = "2";
    int pers = personality(0xffffffff);
    int norand = pers != -1 && (pers & ADDR_NO_RANDOMIZE);
    read_small("/proc/sys/kernel/randomize_va_space", b, sizeof b);
    il.aslr = !norand && b[0] != '0';
    il.stack_top = stack_top();
}

static void
setup_error(const char *var, uintptr_t val, const char *what)
{
    char v[24];
    il_fmt_hex(v, val);
    il_config_error(&il.cfg, var, v, what);
}

/*
 * The stack pointer main will start with.  sp_now is il_main's current
 * stack pointer; il_main's frame has a fixed size, so `base` moves exactly
 * with the environment, as main's frame does without us.
 */
uintptr_t
il_main_stack(uintptr_t sp_now)
{
    struct rlimit rl;
    /* with no stack limit, the stack still cannot grow into the mmap
     * area: take 1 GiB as the most a pin or offset may reach */
    uintptr_t limit = 1UL << 30;
    if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        (uintptr_t)rl.rlim_cur < limit)
        limit = (uintptr_t)rl.rlim_cur;
    uintptr_t base = (sp_now - 256) & ~(uintptr_t)15;

    il.stack_pinned = 0;
    if (il.cfg.stack_pin != IL_PIN_NONE) {
        uintptr_t want = il.cfg.stack_pin == IL_PIN_AUTO ? il.stack_top - IL_PIN_AUTO_DEPTH
                                                         : il.cfg.stack_pin_addr;
        want &= ~(uintptr_t)15;
        const char *why = NULL;
        if (!il.stack_top || !IL_HAVE_TRAMPOLINE)
            why = "pinning is not supported on this machine";
        else if (want > base - 4096)
            why = "cannot be reached: it lies above main's natural frame (the environment and "
                  "argv are too large for it); expected an address lower on the stack, or auto";
        else if (il.stack_top - want + IL_STACK_ROOM > limit)
            why = "cannot be reached: it lies beyond the stack limit (ulimit -s); expected an "
                  "address nearer the stack top";
        if (why) {
            /* A pin is an intervention the user asked for; running
             * unpinned would quietly measure something else.  So this
             * stops the program before main (il_prepare). */
            char what[IL_ERROR_MAX];
            char *p = il_cat(what, why);
            p = il_cat(p, " (main's stack pointer would be ");
            p = il_fmt_hex(p, want);
            il_cat(p, ")");
            il_config_error(&il.cfg, "INTERLOPER_STACK_PIN", il.cfg.pin_text, what);
            il.pin_failed = 1;
        } else {
            base = want;
            il.stack_pinned = 1;
            il.stack_pin = want;
        }
    }
    il.stack_offset = il.cfg.stack_offset;
    if (il.stack_offset && il.stack_top &&
        il.stack_top - (base - il.stack_offset) + IL_STACK_ROOM > limit) {
        setup_error("INTERLOPER_STACK_OFFSET", il.stack_offset,
                    "leaves too little stack under ulimit -s; main runs without the offset");
        il.stack_offset = 0;
    }
    il.main_sp = base - il.stack_offset;
    return il.main_sp;
}

void
il_heap_apply(void)
{
    il.heap_base = (uintptr_t)sbrk(0);
    il.heap_offset = 0;
    if (il.cfg.heap_offset) {
        if (sbrk((intptr_t)il.cfg.heap_offset) == (void *)-1) {
            char v[24];
            il_fmt_u64(v, il.cfg.heap_offset);
            il_config_error(&il.cfg, "INTERLOPER_HEAP_OFFSET", v,
                            "sbrk failed, the heap is not moved; expected a smaller offset");
        } else {
            il.heap_offset = il.cfg.heap_offset;
        }
    }
    il.heap_start = (uintptr_t)sbrk(0);
}

/*
 * Many programs close their stderr on the way out (coreutils' close_stdout
 * does, from an atexit handler), before our record or summary is written.
 * When either goes to stderr, keep a copy of the descriptor, moved high,
 * taken before main; il_stderr_fd() returns it while it is still ours.
 */
void
il_keep_stderr(void)
{
    struct stat st;
    if (il.err_fd > 0 || fstat(2, &st) < 0)
        return;
    int fd = fcntl(2, F_DUPFD_CLOEXEC, 3);
    if (fd < 0)
        return;
    il.err_fd = il_move_fd_high(fd);
    il.err_dev = st.st_dev;
    il.err_ino = st.st_ino;
}

int
il_stderr_fd(void)
{
    struct stat st;
    if (il.err_fd > 0 && fstat(il.err_fd, &st) == 0 && st.st_dev == il.err_dev &&
        st.st_ino == il.err_ino)
        return il.err_fd;
    return 2;
}

/*
 * Open the record's destination before main: a relative path is made
 * absolute now, because the program may chdir; the descriptor is moved
 * high so the program's own descriptor numbers are unchanged.  On failure
 * the record goes to stderr, and says why.
 */
int
il_output_open(void)
{
    il.out_path[0] = 0;
    il.out_fd = -1;
    if (il.cfg.output_stderr) {
        il_keep_stderr();
        return 0;
    }
    /* Make the template absolute once, in place, so that a child forked
     * after a chdir (INTERLOPER_INHERIT=threads) still writes here. */
    if (il.cfg.output[0] != '/') {
        char abs[IL_PATH_MAX];
        const char *rel = il.cfg.output;
        if (rel[0] == '.' && rel[1] == '/')
            rel += 2;
        if (!getcwd(abs, sizeof abs) || strlen(abs) + strlen(rel) + 2 > sizeof abs) {
            il_config_error(&il.cfg, "INTERLOPER_OUTPUT", il.cfg.output,
                            "cannot make the path absolute; the record goes to stderr");
            il_keep_stderr();
            return IL_ESYS;
        }
        if (strcmp(abs, "/"))
            strcat(abs, "/");
        strcat(abs, rel);
        il_strlcpy(il.cfg.output, abs, sizeof il.cfg.output);
    }
    if (il_expand_output(il.cfg.output, (long)getpid(), il.out_path, sizeof il.out_path) < 0)
        il_strlcpy(il.out_path, il.cfg.output, sizeof il.out_path);
    int fd = open(il.out_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY, 0666);
    if (fd < 0) {
        char what[IL_ERROR_MAX];
        char *p = il_cat(what, "cannot open: ");
        p = il_cat(p, strerror(errno));
        il_cat(p, "; expected a writable file path, or - for stderr; the record goes to stderr");
        il_config_error(&il.cfg, "INTERLOPER_OUTPUT", il.cfg.output, what);
        il.out_path[0] = 0;
        il_keep_stderr();
        return IL_ESYS;
    }
    il.out_fd = il_move_fd_high(fd);
    struct stat st;
    if (fstat(il.out_fd, &st) == 0) {
        il.out_dev = st.st_dev;
        il.out_ino = st.st_ino;
    }
    return 0;
}

/*
 * Append one line with one write(2).  O_APPEND makes concurrent appenders
 * to a regular file land whole and in some order.  A write to a closed
 * pipe must not kill the program with a SIGPIPE of ours: the caller has
 * blocked signals, and a SIGPIPE we caused is consumed here.
 */
void
il_output_write(const char *s, size_t n)
{
    sigset_t before, ours;
    sigpending(&before);
    int fd = il_stderr_fd(), opened = -1;
    if (il.out_path[0]) {
        struct stat st;
        if (il.out_fd >= 0 && fstat(il.out_fd, &st) == 0 && st.st_dev == il.out_dev &&
            st.st_ino == il.out_ino) {
            fd = il.out_fd;
        } else {
            /* the program closed our descriptor, or we are a new child */
            opened = open(il.out_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY, 0666);
            fd = opened >= 0 ? opened : il_stderr_fd();
        }
    }
    /* Under a file-size limit (ulimit -f) a write past it would be cut
     * short and raise SIGXFSZ, killing the program: a record that does not
     * fit is not written, and the line on stderr says so. */
    struct rlimit rl;
    struct stat st;
    int err = 0;
    if (getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
        (uint64_t)st.st_size + n > (uint64_t)rl.rlim_cur) {
        il_msg("the record does not fit under the file-size limit (ulimit -f); it is not "
               "written",
               NULL, NULL);
    } else {
        err = il_write_all(fd, s, n);
    }
    if (opened >= 0)
        close(opened);
    /* A SIGPIPE or SIGXFSZ that our own write raised is ours to take. */
    int sig = err == EPIPE ? SIGPIPE : err == EFBIG ? SIGXFSZ : 0;
    if (sig && !sigismember(&before, sig)) {
        struct timespec zero = {0, 0};
        sigemptyset(&ours);
        sigaddset(&ours, sig);
        sigtimedwait(&ours, NULL, &zero);
    }
}

/*
 * Call main with the stack pointer sp.  On x86-64 and AArch64 the
 * trampoline switches stacks exactly; elsewhere the fallback can only
 * apply an offset, through alloca, and pinning reports an error.
 */
int
il_call_main(uintptr_t sp, il_main_fn fn, int argc, char **argv, char **envp)
{
#if IL_HAVE_TRAMPOLINE
    return il_call_on_stack(sp, fn, argc, argv, envp);
#else
    volatile char *pad = alloca(il.stack_offset + 1);
    pad[0] = 0;
    return fn(argc, argv, envp);
#endif
}
