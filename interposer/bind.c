/*
 * bind.c: the functions of libc (and glibc's loader) the library calls,
 * found by the library itself, once, before main.
 *
 * Every symbol a shared library imports costs the dynamic loader a lookup
 * through every object in the global scope, in every process, about 850
 * instructions each (a library with 16 imports adds 13,600 instructions to
 * /bin/true: bench/overhead.sh).  The library imports one symbol,
 * dl_iterate_phdr, and looks up the rest here in the objects' GNU hash
 * tables, about 150 instructions each, the way the loader does but
 * without its generality: the default version of a defined function or
 * object, searched in the objects' load order (the global scope's, for
 * the objects loaded at start), skipping this library, or, for the
 * functions it interposes (exit, __libc_start_main, on_exit), starting after it
 * (RTLD_NEXT).  A name this cannot resolve (an object with only a SysV
 * hash table, an IFUNC) is asked of dlsym, which is found the same way.
 *
 * The rest of the library calls these functions by their own names: the
 * hidden definitions below forward to what was found, so that no file
 * but this one knows, and no import remains.  il_bind() runs in the
 * constructor, and first from any hook called before it (another
 * library's constructor may call exit or fork): everything is bound
 * before the counters start, and nothing is looked up in the measured
 * window.  Not async-signal-safe (dl_iterate_phdr takes the loader's
 * lock); the forwarders are, once bound, which they are before any
 * handler of ours is installed.
 *
 * The library is linked without libc (-nodefaultlibs): its one import is
 * unversioned and found in the global scope, where the program's libc is,
 * so the loader neither looks libc up by name for a DT_NEEDED nor checks
 * a version requirement, about 1,500 instructions a process
 * (bench/overhead.sh).  The import is weak: in a program without libc it
 * is null, nothing is bound, and the constructor leaves the program alone.
 */
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <link.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gnuhash.h"
#include "il.h"

#pragma weak dl_iterate_phdr

/* What is found: the first three after this library (RTLD_NEXT: it
 * defines them), the rest wherever first defined but here; dlsym only when
 * asked for (a name the tables cannot resolve, libpfm4 or PAPI, all
 * before main), and _IO_list_unlock only in a process that needs it
 * (il_bind_list_unlock: exit.c's on_exit hook, before main); system,
 * posix_spawn, posix_spawnp and popen, which the library defines too,
 * after it (RTLD_NEXT), at their first call (real_spawn). */
#define IL_BOUND(X)                                                                                \
    X(B_EXIT, "exit")                                                                              \
    X(B_START_MAIN, "__libc_start_main")                                                           \
    X(B_ON_EXIT, "on_exit")                                                                        \
    X(B_QUICK_EXIT, "__cxa_at_quick_exit")                                                         \
    X(B_IO_LIST_LOCK, "_IO_list_lock")                                                             \
    X(B_IO_LIST_ALL, "_IO_list_all")                                                               \
    X(B_FFLUSH_UNLOCKED, "fflush_unlocked")                                                        \
    X(B_FTRYLOCKFILE, "ftrylockfile")                                                              \
    X(B_FUNLOCKFILE, "funlockfile")                                                                \
    X(B_ERRNO, "__errno_location")                                                                 \
    X(B_CLOCK_GETTIME, "clock_gettime")                                                            \
    X(B_SIGACTION, "__sigaction")                                                                  \
    X(B_FORK, "__fork")                                                                            \
    X(B_LIBC_VERSION, "gnu_get_libc_version")                                                      \
    X(B_ENVIRON, "__environ")                                                                      \
    X(B_DLSYM, "dlsym")                                                                            \
    X(B_IO_LIST_UNLOCK, "_IO_list_unlock")                                                         \
    X(B_SYSTEM, "system")                                                                          \
    X(B_POSIX_SPAWN, "posix_spawn")                                                                \
    X(B_POSIX_SPAWNP, "posix_spawnp")                                                              \
    X(B_POPEN, "popen")
#define B_NEXT B_QUICK_EXIT

/* The GNU hash of a name (the loader's dl_new_hash), of a string literal
 * of at most 24 characters, as a constant expression the compiler folds:
 * one step per character, h = h * 33 + c. */
#define GH_AT(s, i)                                                                                \
    ((i) < sizeof(s) - 1 ? (uint32_t)(unsigned char)(s)[(i) < sizeof(s) ? (i) : 0] : 0u)
#define GH_STEP(h, s, i) ((h) * ((i) < sizeof(s) - 1 ? 33u : 1u) + GH_AT(s, i))
#define GH4(h, s, i) GH_STEP(GH_STEP(GH_STEP(GH_STEP(h, s, i), s, (i) + 1), s, (i) + 2), s, (i) + 3)
#define GNU_HASH(s) GH4(GH4(GH4(GH4(GH4(GH4(5381u, s, 0), s, 4), s, 8), s, 12), s, 16), s, 20)

#define ENUM(k, name) k,
enum { IL_BOUND(ENUM) B_N };
#undef ENUM

static const struct {
    char name[24];       /* an array, not a pointer: no relocation at load */
    size_t len;          /* with its NUL */
    uint32_t hash, word; /* word: DSO_BLOOM_WORD(hash), folded here */
} names[B_N] = {
#define NAME(k, name)                                                                              \
    [k] = {name, sizeof name + IL_FITS(name, 24), GNU_HASH(name), DSO_BLOOM_WORD(GNU_HASH(name))},
    IL_BOUND(NAME)
#undef NAME
};

static void *found[B_N];
static volatile int bound;

/* ------------------------------------------------------------ lookup */

static uintptr_t
dyn_ptr(uintptr_t base, ElfW(Addr) v)
{
    /* ld.so relocates the dynamic section in place where it is writable
     * (most objects), not where it is read-only (the vDSO): an address
     * below the load address is an offset still */
    return v < base ? base + v : v;
}

struct search {
    int past_self; /* the objects after ours are being searched */
    int lo, hi;    /* the names looked up: names[lo..hi-1] */
};

/* This library's ELF header, where it is loaded (the linker's symbol):
 * the load address of an object whose first segment starts at 0, which
 * a shared library's does. */
extern const ElfW(Ehdr) __ehdr_start IL_HIDDEN;

static int
visit(struct dl_phdr_info *info, size_t size, void *arg)
{
    struct search *s = arg;
    (void)size;
    if (!il.prog_phdr) { /* the first object of the first search: the program */
        il.prog_phdr = info->dlpi_phdr;
        il.prog_phnum = info->dlpi_phnum;
        il.prog_base = info->dlpi_addr;
    }
    if (info->dlpi_addr == (uintptr_t)&__ehdr_start) {
        s->past_self = 1;
        return 0;
    }
    /* The vDSO is loaded but not in the global scope (its clock_gettime
     * returns errors its own way): glibc names it by its soname,
     * linux-vdso.so.1 (linux-gate.so.1, linux-vdso64.so.1); every other
     * object has a path, or no name (the program). */
    const char *nm = info->dlpi_name;
    size_t m = 0; /* byte by byte: a name may be shorter (the program's is "") */
    while (nm && m < 6 && nm[m] == "linux-"[m])
        m++;
    if (m == 6)
        return 0;
    const ElfW(Dyn) *dyn = NULL;
    for (int i = 0; i < info->dlpi_phnum && !dyn; i++)
        if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
            dyn = (const ElfW(Dyn) *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
    struct dso d = {.base = info->dlpi_addr};
    /* Most entries are none of the five: DT_STRTAB, DT_SYMTAB and
     * DT_STRSZ (5, 6, 10, with the three DT_RELA tags between) are told
     * apart from the rest by one comparison, DT_GNU_HASH and DT_VERSYM
     * (OS-specific tags, above DT_LOOS) by one more, the end (DT_NULL, 0)
     * by a third; read to the end, which costs fewer instructions than
     * counting what has been seen (VERSYM comes late). */
    _Static_assert(DT_SYMTAB == DT_STRTAB + 1 && DT_STRSZ == DT_STRTAB + 5 &&
                       DT_VERSYM > DT_GNU_HASH,
                   "ELF tags");
    for (ElfW(Sxword) t; dyn && (t = dyn->d_tag) != DT_NULL; dyn++) {
        if ((ElfW(Xword))(t - DT_STRTAB) <= DT_STRSZ - DT_STRTAB) {
            if (t == DT_SYMTAB)
                d.sym = (const ElfW(Sym) *)dyn_ptr(d.base, dyn->d_un.d_ptr);
            else if (t == DT_STRTAB)
                d.str = (const char *)dyn_ptr(d.base, dyn->d_un.d_ptr);
            else if (t == DT_STRSZ)
                d.strsz = dyn->d_un.d_val;
        } else if (t >= DT_GNU_HASH) {
            if (t == DT_GNU_HASH)
                d.gnu = (const uint32_t *)dyn_ptr(d.base, dyn->d_un.d_ptr);
            else if (t == DT_VERSYM)
                d.versym = (const uint16_t *)dyn_ptr(d.base, dyn->d_un.d_ptr);
        }
    }
    if (!d.sym || !d.str || !d.gnu || !d.gnu[0])
        return 0; /* what this object defines is left to dlsym */
    d.nbuckets = d.gnu[0];
    d.symoffset = d.gnu[1];
    d.bloom_mask = d.gnu[2] - 1;
    d.shift = d.gnu[3];
    d.bloom = (const ElfW(Addr) *)(d.gnu + 4);
    d.buckets = (const uint32_t *)(d.bloom + d.gnu[2]);
    d.chain = d.buckets + d.nbuckets;
    /* the names defined here too (exit, __libc_start_main, on_exit; system,
     * posix_spawn, posix_spawnp, popen) only past it, and still left before */
    int k = s->lo, left = !s->past_self && (k < B_NEXT || k >= B_SYSTEM);
    if (left)
        k = k < B_NEXT ? B_NEXT : s->hi;
    for (; k < s->hi; k++)
        if (!found[k] && !(found[k] = (void *)dso_lookup(&d, names[k].name, names[k].len,
                                                         names[k].hash, names[k].word)))
            left = 1;
    return !left; /* all found: stop */
}

/* dlsym itself, found the same way, when first needed */
static void *
find_dlsym(void)
{
    if (!found[B_DLSYM] && dl_iterate_phdr) {
        struct search s = {0, B_DLSYM, B_DLSYM + 1};
        dl_iterate_phdr(visit, &s);
    }
    return found[B_DLSYM];
}

/* _IO_list_unlock, found the same way, by the one caller that will need
 * it at exit (exit.c's on_exit hook, in another library's constructor,
 * before ours: the loader's lock is this thread's already); the other
 * processes do not pay its lookup */
void
il_bind_list_unlock(void)
{
    il_bind();
    if (!found[B_IO_LIST_UNLOCK] && dl_iterate_phdr) {
        struct search s = {0, B_IO_LIST_UNLOCK, B_IO_LIST_UNLOCK + 1};
        dl_iterate_phdr(visit, &s);
    }
}

/*
 * glibc's system, posix_spawn, posix_spawnp or popen (k), for forkexec.c's hooks
 * of those names: looked up at the hook's first call, past this library
 * (RTLD_NEXT, as visit does for them), so that the processes that never
 * spawn pay nothing.  That first lookup (dl_iterate_phdr and the hash
 * tables, a few thousand instructions, no symbol bound) is counted,
 * beside the spawn of a process it starts; dlsym only where the tables
 * cannot tell.
 */
static void *
real_spawn(int k)
{
    void *f = __atomic_load_n(&found[k], __ATOMIC_ACQUIRE);
    if (f)
        return f;
    il_bind();
    if (dl_iterate_phdr) {
        struct search s = {0, k, k + 1};
        dl_iterate_phdr(visit, &s);
    }
    f = found[k];
    if (!f && find_dlsym())
        f = ((void *(*)(void *, const char *))found[B_DLSYM])(RTLD_NEXT, names[k].name);
    __atomic_store_n(&found[k], f, __ATOMIC_RELEASE);
    return f;
}

void *
il_real_system(void)
{
    return real_spawn(B_SYSTEM);
}

void *
il_real_posix_spawn(int p)
{
    return real_spawn(p ? B_POSIX_SPAWNP : B_POSIX_SPAWN);
}

void *
il_real_popen(void)
{
    return real_spawn(B_POPEN);
}

/* Bind what the table names.  Idempotent; called first by whichever of
 * the constructor and an early hook comes first (one thread: before
 * main, threads are the program's, and the constructor has run by then). */
void
il_bind(void)
{
    if (__atomic_load_n(&bound, __ATOMIC_ACQUIRE))
        return;
    struct search s = {0, 0, B_DLSYM};
    if (dl_iterate_phdr) /* null without libc: nothing is bound */
        dl_iterate_phdr(visit, &s);
    void *(*dl)(void *, const char *) = NULL;
    for (int k = 0; k < B_DLSYM; k++)
        if (!found[k] && (dl || (dl = (void *(*)(void *, const char *))find_dlsym())))
            found[k] = dl(k < B_NEXT ? RTLD_NEXT : RTLD_DEFAULT, names[k].name);
    il.real_exit = (void (*)(int))found[B_EXIT];
    __atomic_store_n(&il.real_start_main, found[B_START_MAIN], __ATOMIC_RELEASE);
    __atomic_store_n(&bound, 1, __ATOMIC_RELEASE);
}

/* ------------------------------------------------------------ forwarders */

#define BOUND(k) (__atomic_load_n(&bound, __ATOMIC_ACQUIRE) ? (void)0 : il_bind(), found[k])

char **
il_environ(void)
{
    char ***e = BOUND(B_ENVIRON);
    return e ? *e : NULL;
}

FILE *
il_io_list_all(void)
{
    FILE **l = BOUND(B_IO_LIST_ALL);
    return l ? *l : NULL;
}

IL_HIDDEN void *
dlsym(void *handle, const char *name)
{
    return ((void *(*)(void *, const char *))find_dlsym())(handle, name);
}

/* glibc's on_exit, for exit.c's hook of that name */
int
il_real_on_exit(void (*fn)(int, void *), void *arg)
{
    return ((int (*)(void (*)(int, void *), void *))BOUND(B_ON_EXIT))(fn, arg);
}

IL_HIDDEN int __cxa_at_quick_exit(void (*fn)(void *), void *dso);

int
__cxa_at_quick_exit(void (*fn)(void *), void *dso)
{
    return ((int (*)(void (*)(void *), void *))BOUND(B_QUICK_EXIT))(fn, dso);
}

IL_HIDDEN void _IO_list_lock(void);

void
_IO_list_lock(void)
{
    ((void (*)(void))BOUND(B_IO_LIST_LOCK))();
}

/* glibc's _IO_list_unlock where il_bind_list_unlock found it, else
 * nothing (the lock stays held, as before) */
void
il_io_list_unlock(void)
{
    void (*f)(void) = (void (*)(void))found[B_IO_LIST_UNLOCK];
    if (f)
        f();
}

IL_HIDDEN int
fflush_unlocked(FILE *f)
{
    return ((int (*)(FILE *))BOUND(B_FFLUSH_UNLOCKED))(f);
}

IL_HIDDEN int
ftrylockfile(FILE *f)
{
    return ((int (*)(FILE *))BOUND(B_FTRYLOCKFILE))(f);
}

IL_HIDDEN void
funlockfile(FILE *f)
{
    ((void (*)(FILE *))BOUND(B_FUNLOCKFILE))(f);
}

IL_HIDDEN int *
__errno_location(void)
{
    return ((int *(*)(void))BOUND(B_ERRNO))();
}

IL_HIDDEN int
clock_gettime(clockid_t c, struct timespec *t)
{
    return ((int (*)(clockid_t, struct timespec *))BOUND(B_CLOCK_GETTIME))(c, t);
}

IL_HIDDEN int __sigaction(int sig, const struct sigaction *a, struct sigaction *o);

int
__sigaction(int sig, const struct sigaction *a, struct sigaction *o)
{
    return ((int (*)(int, const struct sigaction *, struct sigaction *))BOUND(B_SIGACTION))(sig, a,
                                                                                            o);
}

IL_HIDDEN pid_t __fork(void);

pid_t
__fork(void)
{
    return ((pid_t(*)(void))BOUND(B_FORK))();
}

IL_HIDDEN const char *gnu_get_libc_version(void);

const char *
gnu_get_libc_version(void)
{
    const char *(*f)(void) = (const char *(*)(void))BOUND(B_LIBC_VERSION);
    return f ? f() : NULL;
}
