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
 * Both are measured from where glibc calls main: main is entered by a
 * tail jump (trampoline.S), so without either knob its stack pointer is
 * the one it has without the library, for the same environment, argv and
 * ASLR off, and an offset of N is exactly N bytes from the plain run.
 * Section 4.2.2 also shows perlbench copying the environment to the heap;
 * INTERLOPER_HEAP_OFFSET moves the break.
 *
 * All of this runs before main, in il_main_prepare(); it may allocate
 * nothing in the program's heap.
 */
#include <dlfcn.h>
#include <elf.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/resource.h>

#include "il.h"
#include "sys.h"

/* where INTERLOPER_STACK_PIN=auto puts main: this far below the stack's
 * top, which is room for ~200 KiB of environment and argv */
#define IL_PIN_AUTO_DEPTH (256UL << 10)
/* stack the program keeps below a pinned or offset main, at least */
#define IL_STACK_ROOM (128UL << 10)

/* The top of the initial stack: the kernel copies the exec file name to
 * the very top, one pointer below the end of the mapping (fs/exec.c), and
 * AT_EXECFN points at it.  No /proc parsing needed. */
static uintptr_t
stack_top(void)
{
    const char *fn = (const char *)il_auxval(AT_EXECFN, 0);
    if (!fn)
        return 0;
    return ((uintptr_t)fn + strlen(fn) + 1 + sizeof(void *) + 4095) & ~(uintptr_t)4095;
}

/* One run of CPUs, "a" or "a-b", after a comma unless first; NULL (and
 * "...") when the list is cut at end. */
static char *
put_run(char *p, const char *out, const char *end, long first, long last)
{
    if (p >= end) {
        il_cat(p, "...");
        return NULL;
    }
    if (p != out)
        *p++ = ',';
    p = il_fmt_u64(p, (uint64_t)first);
    if (last > first) {
        *p++ = '-';
        p = il_fmt_u64(p, (uint64_t)last);
    }
    return p;
}

/* The CPUs this process may run on, as a list: "0-3,6".  Runs of set bits
 * are found a word at a time (ctz), and joined across words. */
static void
affinity(char *out, size_t n)
{
    unsigned long mask[16];
    long len = il_sys_getaffinity(sizeof mask, mask);
    char *p = out, *end = out + n - 24;
    out[0] = 0;
    if (len <= 0)
        return;
    long first = -1, last = -2;
    for (long wi = 0; wi < len / (long)sizeof mask[0]; wi++) {
        unsigned long w = mask[wi];
        while (w) {
            int b = __builtin_ctzl(w);
            unsigned long rest = ~(w >> b);
            int run = rest ? __builtin_ctzl(rest) : 64 - b;
            long start = wi * 64 + b, stop = start + run - 1;
            w = b + run >= 64 ? 0 : w & ~(((1UL << run) - 1) << b);
            if (start == last + 1) {
                last = stop;
                continue;
            }
            if (first >= 0 && !(p = put_run(p, out, end, first, last)))
                return;
            first = start;
            last = stop;
        }
    }
    if (first >= 0)
        put_run(p, out, end, first, last);
}

/*
 * Does the kernel randomize this process's layout?  Not with
 * ADDR_NO_RANDOMIZE (setarch -R; interloper run and sweep by default), nor
 * with kernel.randomize_va_space 0.  On x86-64 the stack's top says so
 * without a system call: unrandomized it is the highest user page below
 * 2^47 (the kernel's STACK_TOP, for 4- and 5-level page tables alike);
 * randomized it lies a random number of pages lower (0 of them once in
 * 2^22 runs, which the system calls then settle).
 */
static int
randomized(void)
{
#if defined(__x86_64__)
    if (il.stack_top && il.stack_top != 0x7ffffffff000UL)
        return 1;
#endif
    long pers = il_sys_personality(0xffffffff);
    if (pers >= 0 && (pers & ADDR_NO_RANDOMIZE))
        return 0;
    char b[16] = "2";
    il_read_small("/proc/sys/kernel/randomize_va_space", b, sizeof b);
    return b[0] != '0';
}

void
il_setup_facts(int argc, char **argv, char **envp)
{
    il.argc = argc;
    il.argv = argv;
    il.envp = envp;
    il.env_bytes = il.env_vars = il.argv_bytes = 0;
    char **e = envp;
    for (; e && *e; e++) {
        il.env_bytes += strlen(*e) + 1;
        il.env_vars++;
    }
    if (!il.auxv)
        il.auxv = il_auxv(envp);
    for (int i = 0; i < argc && argv[i]; i++)
        il.argv_bytes += strlen(argv[i]) + 1;
    il.stack_top = stack_top();
    il.aslr = randomized();
    affinity(il.cpus, sizeof il.cpus);
}

/*
 * The CPU's model name as the kernel shows it in /proc/cpuinfo ("model
 * name"), without the three system calls of reading it there: on x86-64
 * the kernel takes it from CPUID's brand string (leaves 0x80000002-4, 48
 * bytes) at boot, skips its leading blanks and cuts it after its last
 * character that is not white space (arch/x86/kernel/cpu/common.c,
 * get_model_name).  Taken here, before main, because a program may turn
 * CPUID off for itself (arch_prctl ARCH_SET_CPUID, which execve resets):
 * an instruction that faulted at the record would kill it.  Left empty,
 * so that the record reads /proc/cpuinfo as before (record_json.c
 * cpu_model), wherever the two could differ: no brand string, one with
 * bytes other than printable ASCII (the kernel's white space test is not
 * ours to copy), one that is all blanks (the kernel then names the CPU
 * from its own tables), and under valgrind, whose CPUID describes a CPU
 * of its own.  Other architectures read /proc/cpuinfo.
 */
#if defined(__x86_64__)
/* valgrind's client request RUNNING_ON_VALGRIND: a sequence of rotations
 * that is a no-op on the CPU (rdi turned by 128 bits in all) and that
 * valgrind recognises, answering in rdx; natively rdx keeps the default,
 * 0.  The protocol is valgrind.h's (VALGRIND_DO_CLIENT_REQUEST_EXPR,
 * amd64-linux), written out here so that the build needs no valgrind
 * headers. */
static int
on_valgrind(void)
{
    unsigned long req[6] = {0x1001 /* VG_USERREQ__RUNNING_ON_VALGRIND */, 0, 0, 0, 0, 0};
    unsigned long r = 0;
    __asm__ volatile("rolq $3, %%rdi; rolq $13, %%rdi; rolq $61, %%rdi; rolq $51, %%rdi; "
                     "xchgq %%rbx, %%rbx"
                     : "+d"(r)
                     : "a"(req)
                     : "cc", "memory");
    return r != 0;
}

static void
cpuid(unsigned leaf, unsigned r[4])
{
    __asm__ volatile("cpuid" : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3]) : "a"(leaf), "c"(0));
}
#endif

void
il_cpu_brand(void)
{
    il.cpu_brand[0] = 0;
#if defined(__x86_64__)
    unsigned r[13];
    cpuid(0x80000000u, r);
    if (r[0] < 0x80000004u || r[0] > 0x8000ffffu || on_valgrind())
        return;
    for (unsigned i = 0; i < 3; i++)
        cpuid(0x80000002u + i, r + 4 * i);
    r[12] = 0;
    const unsigned char *s = (const unsigned char *)r, *end;
    for (end = s; *end; end++)
        if (*end < 0x20 || *end > 0x7e)
            return;
    while (*s == ' ')
        s++;
    while (end > s && end[-1] == ' ')
        end--;
    if (end > s) {
        memcpy(il.cpu_brand, s, (size_t)(end - s));
        il.cpu_brand[end - s] = 0;
    }
#endif
}

/*
 * The stack pointer of the call to main: glibc_sp without either knob,
 * the pin, and the offset below either.  16-byte aligned, as at a call.
 */
/* How far the stack may grow: ulimit -s, asked only when a pin or an
 * offset needs it.  With no stack limit, the stack still cannot grow
 * into the mmap area: take 1 GiB as the most a pin or offset may reach. */
static uintptr_t
stack_limit(void)
{
    struct rlimit rl;
    uintptr_t limit = 1UL << 30;
    if (il_sys_getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        (uintptr_t)rl.rlim_cur < limit)
        limit = (uintptr_t)rl.rlim_cur;
    return limit;
}

uintptr_t
il_main_stack(uintptr_t glibc_sp)
{
    uintptr_t limit = il.cfg.stack_pin != IL_PIN_NONE || il.cfg.stack_offset ? stack_limit() : 0;
    uintptr_t base = glibc_sp & ~(uintptr_t)15;

    il.stack_pinned = 0;
    if (il.cfg.stack_pin != IL_PIN_NONE) {
        uintptr_t want = il.cfg.stack_pin == IL_PIN_AUTO ? il.stack_top - IL_PIN_AUTO_DEPTH
                                                         : il.cfg.stack_pin_addr;
        want &= ~(uintptr_t)15;
        const char *why = NULL;
        if (!il.stack_top)
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
             * stops the program before main (il_main_prepare). */
            char what[IL_ERROR_MAX];
            char *p = il_cat(what, why);
            p = il_cat(p, " (main's stack pointer would be ");
            p = il_fmt_hex(p, want);
            il_cat(p, ")");
            il_config_error(&il.cfg, il.cfg.stack_pin_spec ? "--stack-pin" : IL_V_STACK_PIN,
                            il.cfg.pin_text, what);
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
        /* as the user gave it: interloper run's or sweep's option, or
         * the variable */
        il_config_error(&il.cfg, il.cfg.stack_offset_spec ? "--stack-offset" : IL_V_STACK_OFFSET,
                        il.cfg.stack_offset_text,
                        "leaves too little stack under ulimit -s; main runs without the offset");
        il.stack_offset = 0;
    }
    il.main_sp = base - il.stack_offset;
    return il.main_sp;
}

/* The break as the kernel has it (what sbrk(0) returns in main), and the
 * heap offset, through glibc's sbrk so that its own idea of the break
 * follows. */
void
il_heap_apply(void)
{
    il.heap_base = (uintptr_t)il_sys_brk(0);
    il.heap_offset = 0;
    if (il.cfg.heap_offset) {
        void *(*sbrk_fn)(intptr_t) = (void *(*)(intptr_t))dlsym(RTLD_DEFAULT, "sbrk");
        if (!sbrk_fn || sbrk_fn((intptr_t)il.cfg.heap_offset) == (void *)-1) {
            /* as the user gave it, as the stack offset's */
            il_config_error(&il.cfg, il.cfg.heap_offset_spec ? "--heap-offset" : IL_V_HEAP_OFFSET,
                            il.cfg.heap_offset_text,
                            "sbrk failed, the heap is not moved; expected a smaller offset");
        } else {
            il.heap_offset = il.cfg.heap_offset;
        }
    }
    il.heap_start = il.heap_offset ? (uintptr_t)il_sys_brk(0) : il.heap_base;
}
