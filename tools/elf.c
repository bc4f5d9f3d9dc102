/*
 * elf.c: can LD_PRELOAD apply to a program?  Checked once per program (once
 * per sweep), from the file itself, without readelf: the dynamic loader
 * preloads only into dynamically linked ELF programs (a PT_INTERP header)
 * run without privilege (no setuid or setgid bit); a script is what its
 * interpreter is.  The library measures from __libc_start_main, so a
 * program that does not import it is preloaded but not measured: a warning.
 *
 * Some runtimes must come first in the initial library list: the shared
 * AddressSanitizer runtime (GCC's libasan.so.N; clang's
 * libclang_rt.asan-ARCH.so with -shared-libsan, and hwasan's) checks that
 * it does from the program's preinit and ends it with status 1 otherwise,
 * before any constructor of ours could say why.  A program that needs one
 * gets it named, so that the drivers put it before the library in
 * LD_PRELOAD.  ThreadSanitizer, UBSan, LSan and MSan do not insist.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "il_secure.h"
#include "il_tools.h"

/* ELF64 or ELF32 of this machine's byte order; anything else is left to
 * the kernel to judge. */
struct elf {
    const unsigned char *p;
    size_t n;
    int is64;
};

static int
in(const struct elf *e, uint64_t off, uint64_t len)
{
    return off <= e->n && len <= e->n - off;
}

/* Does the file import __libc_start_main?  -1 when it cannot be told. */
static int
imports_lsm(const struct elf *e)
{
    uint64_t shoff, shnum, shentsize;
    if (e->is64) {
        const Elf64_Ehdr *h = (const void *)e->p;
        shoff = h->e_shoff, shnum = h->e_shnum, shentsize = h->e_shentsize;
        if (shentsize != sizeof(Elf64_Shdr))
            return -1;
    } else {
        const Elf32_Ehdr *h = (const void *)e->p;
        shoff = h->e_shoff, shnum = h->e_shnum, shentsize = h->e_shentsize;
        if (shentsize != sizeof(Elf32_Shdr))
            return -1;
    }
    if (!shoff || !in(e, shoff, shnum * shentsize))
        return -1;
    for (uint64_t i = 0; i < shnum; i++) {
        uint64_t type, off, size, link, entsize;
        if (e->is64) {
            const Elf64_Shdr *s = (const void *)(e->p + shoff + i * shentsize);
            type = s->sh_type, off = s->sh_offset, size = s->sh_size, link = s->sh_link,
            entsize = s->sh_entsize;
        } else {
            const Elf32_Shdr *s = (const void *)(e->p + shoff + i * shentsize);
            type = s->sh_type, off = s->sh_offset, size = s->sh_size, link = s->sh_link,
            entsize = s->sh_entsize;
        }
        if (type != SHT_DYNSYM || link >= shnum || !entsize || !in(e, off, size))
            continue;
        uint64_t stroff, strsize;
        if (e->is64) {
            const Elf64_Shdr *s = (const void *)(e->p + shoff + link * shentsize);
            stroff = s->sh_offset, strsize = s->sh_size;
        } else {
            const Elf32_Shdr *s = (const void *)(e->p + shoff + link * shentsize);
            stroff = s->sh_offset, strsize = s->sh_size;
        }
        if (!in(e, stroff, strsize))
            return -1;
        static const char want[] = "__libc_start_main";
        for (uint64_t k = 0; k + entsize <= size; k += entsize) {
            uint64_t name, shndx;
            if (e->is64) {
                const Elf64_Sym *y = (const void *)(e->p + off + k);
                name = y->st_name, shndx = y->st_shndx;
            } else {
                const Elf32_Sym *y = (const void *)(e->p + off + k);
                name = y->st_name, shndx = y->st_shndx;
            }
            if (shndx == SHN_UNDEF && name + sizeof want <= strsize &&
                !memcmp(e->p + stroff + name, want, sizeof want))
                return 1;
        }
        return 0;
    }
    return -1;
}

int
il_first_runtime(const char *name)
{
    const char *b = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
    return !strncmp(b, "libasan.so", 10) || !strncmp(b, "libclang_rt.asan", 16) ||
           !strncmp(b, "libclang_rt.hwasan", 18) || !strncmp(b, "libhwasan.so", 12);
}

/* The first DT_NEEDED library that must come first (il_first_runtime), into
 * out; out is left empty when there is none or it cannot be told. */
static void
needed_first(const struct elf *e, char *out, size_t outsz)
{
    uint64_t shoff, shnum, shentsize;
    if (e->is64) {
        const Elf64_Ehdr *h = (const void *)e->p;
        shoff = h->e_shoff, shnum = h->e_shnum, shentsize = h->e_shentsize;
    } else {
        const Elf32_Ehdr *h = (const void *)e->p;
        shoff = h->e_shoff, shnum = h->e_shnum, shentsize = h->e_shentsize;
    }
    if (!shoff || shentsize != (e->is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr)) ||
        !in(e, shoff, shnum * shentsize))
        return;
    for (uint64_t i = 0; i < shnum; i++) {
        uint64_t type, off, size, link, stroff, strsize;
        if (e->is64) {
            const Elf64_Shdr *d = (const void *)(e->p + shoff + i * shentsize);
            type = d->sh_type, off = d->sh_offset, size = d->sh_size, link = d->sh_link;
        } else {
            const Elf32_Shdr *d = (const void *)(e->p + shoff + i * shentsize);
            type = d->sh_type, off = d->sh_offset, size = d->sh_size, link = d->sh_link;
        }
        if (type != SHT_DYNAMIC || link >= shnum || !in(e, off, size))
            continue;
        if (e->is64) {
            const Elf64_Shdr *t = (const void *)(e->p + shoff + link * shentsize);
            stroff = t->sh_offset, strsize = t->sh_size;
        } else {
            const Elf32_Shdr *t = (const void *)(e->p + shoff + link * shentsize);
            stroff = t->sh_offset, strsize = t->sh_size;
        }
        if (!in(e, stroff, strsize))
            return;
        size_t entsize = e->is64 ? sizeof(Elf64_Dyn) : sizeof(Elf32_Dyn);
        for (uint64_t k = 0; k + entsize <= size; k += entsize) {
            uint64_t tag, val;
            if (e->is64) {
                const Elf64_Dyn *y = (const void *)(e->p + off + k);
                tag = (uint64_t)y->d_tag, val = y->d_un.d_val;
            } else {
                const Elf32_Dyn *y = (const void *)(e->p + off + k);
                tag = (uint64_t)y->d_tag, val = y->d_un.d_val;
            }
            if (tag == DT_NULL)
                break;
            if (tag != DT_NEEDED || val >= strsize)
                continue;
            const char *name = (const char *)e->p + stroff + val;
            if (memchr(name, 0, strsize - val) && il_first_runtime(name)) {
                snprintf(out, outsz, "%s", name);
                return;
            }
        }
        return;
    }
}

/* "static" when there is no PT_INTERP; NULL when there is. */
static const char *
check_elf(const struct elf *e, int *warn, char *first, size_t firstsz)
{
    uint64_t phoff, phnum, phentsize;
    if (e->is64) {
        const Elf64_Ehdr *h = (const void *)e->p;
        phoff = h->e_phoff, phnum = h->e_phnum, phentsize = h->e_phentsize;
        if (phentsize != sizeof(Elf64_Phdr))
            return NULL;
    } else {
        const Elf32_Ehdr *h = (const void *)e->p;
        phoff = h->e_phoff, phnum = h->e_phnum, phentsize = h->e_phentsize;
        if (phentsize != sizeof(Elf32_Phdr))
            return NULL;
    }
    if (!in(e, phoff, phnum * phentsize))
        return NULL; /* the kernel will say what is wrong with it */
    int interp = 0;
    for (uint64_t i = 0; i < phnum; i++) {
        const unsigned char *ph = e->p + phoff + i * phentsize;
        uint32_t type = e->is64 ? ((const Elf64_Phdr *)(const void *)ph)->p_type
                                : ((const Elf32_Phdr *)(const void *)ph)->p_type;
        if (type == PT_INTERP)
            interp = 1;
    }
    if (!interp)
        return "static";
    if (imports_lsm(e) == 0)
        *warn = 1;
    needed_first(e, first, firstsz);
    return NULL;
}

static const char *
preloadable(const char *path, int *warn, char *first, size_t firstsz, int depth)
{
    struct stat st;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0 || fstat(fd, &st) < 0) {
        if (fd >= 0)
            close(fd);
        return NULL; /* exec will say why */
    }
    if (!S_ISREG(st.st_mode) || st.st_size < 4) {
        close(fd);
        return NULL;
    }
    size_t n = (size_t)st.st_size;
    void *m = mmap(NULL, n, PROT_READ, MAP_PRIVATE, fd, 0);
    const unsigned char *p = m;
    /* a script's own set-user-ID bit and capabilities are ignored: its
     * interpreter's count (review14a M1) */
    int secure = m != MAP_FAILED && !(p[0] == '#' && p[1] == '!') ? il_exec_secure_fd(fd, &st) : 0;
    close(fd);
    if (m == MAP_FAILED)
        return NULL;
    if (secure) {
        munmap(m, n);
        if (secure == 2)
            return "it gains file capabilities, and ld.so then ignores LD_PRELOAD";
        return (st.st_mode & 04000) && st.st_uid != getuid() ? "setuid" : "setgid";
    }
    const char *why = NULL;
    static char sentence[600];
    if (p[0] == '#' && p[1] == '!') {
        /* a script: its interpreter decides (through env, if so) */
        char line[256];
        size_t k = 0;
        for (size_t i = 2; i < n && p[i] != '\n' && k + 1 < sizeof line; i++)
            line[k++] = (char)p[i];
        line[k] = 0;
        char *save, *interp = strtok_r(line, " \t", &save), *arg = strtok_r(NULL, " \t", &save);
        if (!interp) {
            why = "a script without an interpreter";
        } else if (depth < 2) {
            const char *base = strrchr(interp, '/') ? strrchr(interp, '/') + 1 : interp;
            char *found = NULL;
            if (!strcmp(base, "env") && arg && !(found = il_find_program(arg))) {
                snprintf(sentence, sizeof sentence, "its interpreter %s is not found", arg);
                why = sentence;
            } else {
                why = preloadable(found ? found : interp, warn, first, firstsz, depth + 1);
            }
            free(found);
        }
    } else if (n >= EI_NIDENT && !memcmp(p, ELFMAG, SELFMAG)) {
        struct elf e = {p, n, p[EI_CLASS] == ELFCLASS64};
        int native =
            p[EI_DATA] == (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB : ELFDATA2MSB);
        size_t hsz = e.is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
        if (native && (p[EI_CLASS] == ELFCLASS64 || p[EI_CLASS] == ELFCLASS32) && n >= hsz)
            why = check_elf(&e, warn, first, firstsz);
    }
    munmap(m, n);
    return why;
}

const char *
il_preloadable(const char *path, int *warn, char *first, size_t firstsz)
{
    *warn = 0;
    first[0] = 0;
    return preloadable(path, warn, first, firstsz, 0);
}

const char *
il_not_executable(const char *path)
{
    static char why[96];
    struct statvfs fs;
    struct stat st;
    if (access(path, X_OK) == 0)
        return NULL;
    int e = errno;
    if (statvfs(path, &fs) == 0 && (fs.f_flag & ST_NOEXEC))
        return "its file system is mounted noexec (copy it elsewhere, or remount that with exec)";
    if (e == EACCES && stat(path, &st) == 0) {
        snprintf(why, sizeof why, "no permission to execute it (mode %04o, owner uid %lu)",
                 (unsigned)(st.st_mode & 07777), (unsigned long)st.st_uid);
        return why;
    }
    return strerror(e);
}
