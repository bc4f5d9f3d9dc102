/*
 * archive.c: static archives for interloper link --archives (archive.h).
 *
 * The ar format as GNU ar, llvm-ar and BSD ar write it: "!<arch>\n", then
 * for each member a 60-byte header (name[16] date[12] uid[6] gid[6]
 * mode[8] size[10] "`\n") and its data, padded to an even offset.  Names
 * end in '/' (GNU) or are blank-padded; "/N" is offset N in the long-name
 * member "//"; "#1/L" (BSD) puts an L-byte name before the data; "/",
 * "/SYM64/" and "__.SYMDEF" are symbol tables.  A thin archive
 * ("!<thin>\n") holds no member data: its members are files named
 * relative to the archive.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "archive.h"

static char *
join(const char *dir, const char *name)
{
    if (name[0] == '/' || !dir || !*dir)
        return il_xstrdup(name);
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = il_xmalloc(n);
    snprintf(p, n, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", name);
    return p;
}

static int
is_file(const char *path, const char *cwd)
{
    char *p = join(cwd, path);
    struct stat st;
    int yes = stat(p, &st) == 0 && S_ISREG(st.st_mode);
    free(p);
    return yes;
}

static int
ends_with(const char *s, const char *suf)
{
    size_t n = strlen(s), m = strlen(suf);
    return n >= m && !strcmp(s + n - m, suf);
}

char *
il_ar_find(const char *spec, const struct il_strv *dirs, int static_only, const char *cwd)
{
    for (size_t i = 0; i < dirs->n; i++) {
        const char *d = dirs->v[i];
        if (spec[0] == ':') {
            char *p = join(d, spec + 1);
            if (is_file(p, cwd)) {
                if (ends_with(p, ".a"))
                    return p;
                free(p);
                return NULL;
            }
            free(p);
            continue;
        }
        size_t n = strlen(spec) + 8;
        char *lib = il_xmalloc(n);
        if (!static_only) {
            snprintf(lib, n, "lib%s.so", spec);
            char *p = join(d, lib);
            int shared = is_file(p, cwd);
            free(p);
            if (shared) {
                free(lib);
                return NULL;
            }
        }
        snprintf(lib, n, "lib%s.a", spec);
        char *p = join(d, lib);
        free(lib);
        if (is_file(p, cwd))
            return p;
        free(p);
    }
    return NULL;
}

static int
fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

/* Something a linker takes as an input: ELF, or LLVM bitcode (raw or in
 * its wrapper), for objects built with -flto. */
static int
is_object(const unsigned char *p, size_t n)
{
    if (n < 4)
        return 0;
    return !memcmp(p, "\177ELF", 4) || !memcmp(p, "BC\xc0\xde", 4) ||
           !memcmp(p, "\xde\xc0\x17\x0b", 4);
}

static int
thin_is_object(const struct il_archive *a, const char *name)
{
    char *dir = il_xstrdup(a->real), *slash = strrchr(dir, '/');
    if (slash)
        *slash = 0;
    char *p = join(dir, name);
    unsigned char head[4];
    int fd = open(p, O_RDONLY | O_CLOEXEC), yes = 0;
    if (fd >= 0) {
        yes = read(fd, head, 4) == 4 && is_object(head, 4);
        close(fd);
    }
    free(p);
    free(dir);
    return yes;
}

/* A header field: decimal, blank-padded. */
static int
field_num(const unsigned char *f, size_t w, size_t *v)
{
    size_t x = 0, i = 0;
    while (i < w && f[i] == ' ')
        i++;
    if (i == w || f[i] < '0' || f[i] > '9')
        return -1;
    for (; i < w && f[i] >= '0' && f[i] <= '9'; i++) {
        if (x > (SIZE_MAX - 9) / 10)
            return -1;
        x = x * 10 + (size_t)(f[i] - '0');
    }
    for (; i < w; i++)
        if (f[i] != ' ')
            return -1;
    *v = x;
    return 0;
}

int
il_ar_open(struct il_archive *a, const char *path, const char *cwd, char *err, size_t errlen)
{
    memset(a, 0, sizeof *a);
    a->path = il_xstrdup(path);
    char *full = join(cwd, path);
    char real[PATH_MAX];
    if (!realpath(full, real) || !(a->data = (unsigned char *)il_slurp(real, &a->size))) {
        free(full);
        return fail(err, errlen, "cannot read archive '%s': %s", path, strerror(errno));
    }
    free(full);
    a->real = il_xstrdup(real);
    const unsigned char *d = a->data;
    if (a->size >= 8 && !memcmp(d, "!<thin>\n", 8))
        a->thin = 1;
    else if (a->size < 8 || memcmp(d, "!<arch>\n", 8))
        return fail(err, errlen, "'%s' is not an ar archive (no !<arch> header)", path);
    const unsigned char *longnames = NULL;
    size_t longlen = 0, pos = 8, cap = 0;
    while (pos < a->size) {
        if (a->size - pos < 60 || d[pos + 58] != '`' || d[pos + 59] != '\n')
            return fail(err, errlen, "archive '%s' has a bad member header at byte %zu", path, pos);
        const unsigned char *h = d + pos;
        size_t size, at = pos + 60;
        if (field_num(h + 48, 10, &size) < 0)
            return fail(err, errlen, "archive '%s' has a bad member size at byte %zu", path, pos);
        int special = h[0] == '/' && (h[1] == ' ' || h[1] == '/' || !memcmp(h, "/SYM64/", 7));
        special |= !memcmp(h, "__.SYMDEF", 9);
        int has_data = special || !a->thin;
        if (has_data && size > a->size - at)
            return fail(err, errlen, "archive '%s' is truncated at byte %zu", path, pos);
        if (!memcmp(h, "// ", 3)) {
            longnames = d + at;
            longlen = size;
        } else if (!special) {
            char *name;
            size_t off = at, len = size;
            if (h[0] == '/' && h[1] >= '0' && h[1] <= '9') {
                size_t o;
                if (field_num(h + 1, 15, &o) < 0 || !longnames || o >= longlen)
                    return fail(err, errlen, "archive '%s' has a bad long name at byte %zu", path,
                                pos);
                size_t e = o;
                while (e < longlen && longnames[e] != '\n')
                    e++;
                if (e > o && longnames[e - 1] == '/')
                    e--;
                name = il_xmalloc(e - o + 1);
                memcpy(name, longnames + o, e - o);
                name[e - o] = 0;
            } else if (!memcmp(h, "#1/", 3)) {
                size_t nl;
                if (field_num(h + 3, 13, &nl) < 0 || nl > size)
                    return fail(err, errlen, "archive '%s' has a bad BSD name at byte %zu", path,
                                pos);
                name = il_xmalloc(nl + 1);
                memcpy(name, d + at, nl);
                name[nl] = 0;
                off += nl;
                len -= nl;
            } else {
                size_t e = 0;
                while (e < 16 && h[e] != '/')
                    e++;
                while (e > 0 && h[e - 1] == ' ')
                    e--;
                name = il_xmalloc(e + 1);
                memcpy(name, h, e);
                name[e] = 0;
            }
            if (strlen(name) == 0 || memchr(name, '\n', strlen(name))) {
                free(name);
                return fail(err, errlen, "archive '%s' has a member without a usable name", path);
            }
            if (a->n == cap)
                a->m = il_xrealloc(a->m, (cap = cap ? 2 * cap : 16) * sizeof *a->m);
            struct il_member *m = &a->m[a->n];
            m->name = name;
            m->off = off;
            m->size = len;
            m->object = a->thin ? thin_is_object(a, name) : is_object(d + off, len);
            m->dup = 1;
            for (size_t i = 0; i < a->n; i++)
                if (!strcmp(a->m[i].name, name))
                    m->dup++;
            a->n++;
        }
        pos = at + (has_data ? size : 0);
        pos += pos & 1;
    }
    return 0;
}

void
il_ar_close(struct il_archive *a)
{
    for (size_t i = 0; i < a->n; i++)
        free(a->m[i].name);
    free(a->m);
    free(a->data);
    free(a->path);
    free(a->real);
    memset(a, 0, sizeof *a);
}

int
il_ar_extract(const struct il_archive *a, const struct il_member *m, const char *out)
{
    unsigned char *copy = NULL;
    const unsigned char *p = a->data + m->off;
    size_t n = m->size;
    if (a->thin) {
        char *dir = il_xstrdup(a->real), *slash = strrchr(dir, '/');
        if (slash)
            *slash = 0;
        char *src = join(dir, m->name);
        copy = (unsigned char *)il_slurp(src, &n);
        free(src);
        free(dir);
        if (!copy)
            return -1;
        p = copy;
    }
    int fd = open(out, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644), rc = -1;
    if (fd >= 0) {
        rc = il_write_full(fd, p, n);
        if (close(fd) < 0)
            rc = -1;
    }
    int e = errno;
    free(copy);
    errno = e;
    return rc;
}

/* Does the path P (as the linker printed it, relative to CWD) name A? */
static int
same_archive(const struct il_archive *a, const char *p, size_t n, const char *cwd)
{
    char *s = il_xmalloc(n + 1);
    memcpy(s, p, n);
    s[n] = 0;
    char *full = join(cwd, s), real[PATH_MAX];
    int yes = !strcmp(s, a->path) || (realpath(full, real) && !strcmp(real, a->real));
    free(full);
    free(s);
    return yes;
}

/* The canonical path of the file P (LEN bytes, relative to CWD), or NULL. */
static char *
real_of(const char *p, size_t len, const char *cwd)
{
    char *s = il_xmalloc(len + 1), *full, real[PATH_MAX], *r = NULL;
    memcpy(s, p, len);
    s[len] = 0;
    full = join(cwd, s);
    if (realpath(full, real))
        r = il_xstrdup(real);
    free(full);
    free(s);
    return r;
}

/* Which member is TEXT (LEN bytes): its name, or for a thin archive its
 * file (REALS[i], canonical)?  Returns its index, or -1. */
static long
which_member(const struct il_archive *a, const char *text, size_t len, const char *cwd,
             char *const *reals)
{
    for (size_t i = 0; i < a->n; i++)
        if (strlen(a->m[i].name) == len && !memcmp(a->m[i].name, text, len))
            return (long)i;
    if (!a->thin)
        return -1;
    char *r = real_of(text, len, cwd);
    long found = -1;
    for (size_t i = 0; r && i < a->n && found < 0; i++)
        if (reals[i] && !strcmp(reals[i], r))
            found = (long)i;
    free(r);
    return found;
}

long
il_ar_used(const struct il_archive *a, const char *trace, const char *cwd, char *used,
           const char **name)
{
    size_t *loads = il_xcalloc(a->n, sizeof *loads);
    char **reals = il_xcalloc(a->n, sizeof *reals);
    memset(used, 0, a->n);
    if (a->thin) {
        char *dir = il_xstrdup(a->real), *slash = strrchr(dir, '/');
        if (slash)
            *slash = 0;
        for (size_t i = 0; i < a->n; i++) {
            char *f = join(dir, a->m[i].name);
            reals[i] = real_of(f, strlen(f), "/");
            free(f);
        }
        free(dir);
    }
    for (const char *l = trace; *l;) {
        const char *e = strchr(l, '\n');
        size_t n = e ? (size_t)(e - l) : strlen(l);
        while (n && (l[n - 1] == ' ' || l[n - 1] == '\r' || l[n - 1] == '\t'))
            n--;
        long m = -1;
        int named = 0;              /* the line names this archive */
        if (n > 2 && l[0] == '(') { /* (ARCHIVE)MEMBER */
            for (const char *k = l + 1; !named && (k = memchr(k, ')', n - (size_t)(k - l))); k++)
                if (same_archive(a, l + 1, (size_t)(k - l - 1), cwd)) {
                    named = 1;
                    m = which_member(a, k + 1, n - (size_t)(k + 1 - l), cwd, reals);
                }
        }
        if (!named && n > 2 && l[n - 1] == ')') { /* ARCHIVE(MEMBER) */
            for (const char *k = l; !named && (k = memchr(k, '(', n - (size_t)(k - l))); k++)
                if (same_archive(a, l, (size_t)(k - l), cwd)) {
                    named = 1;
                    m = which_member(a, k + 1, n - 1 - (size_t)(k + 1 - l), cwd, reals);
                }
        }
        /* GNU ld names a thin archive's members by their files */
        if (!named && a->thin && n)
            m = which_member(a, l, n, cwd, reals);
        if (m >= 0) {
            for (size_t i = 0; i < a->n; i++)
                if (!strcmp(a->m[i].name, a->m[m].name)) {
                    loads[i]++; /* on the first member of that name */
                    break;
                }
        }
        l = e ? e + 1 : l + strlen(l);
    }
    for (size_t i = 0; i < a->n; i++)
        free(reals[i]);
    free(reals);
    /* loads[] counts every load of a name on its first member; share them
     * out over the members of that name. */
    long total = 0;
    for (size_t i = 0; i < a->n; i++) {
        if (a->m[i].dup != 1)
            continue;
        size_t copies = 0;
        for (size_t j = i; j < a->n; j++)
            copies += !strcmp(a->m[j].name, a->m[i].name);
        if (!loads[i])
            continue;
        if (copies > 1 && loads[i] < copies) {
            *name = a->m[i].name;
            free(loads);
            return -1;
        }
        for (size_t j = i; j < a->n; j++)
            if (!strcmp(a->m[j].name, a->m[i].name)) {
                used[j] = 1;
                total++;
            }
    }
    free(loads);
    return total;
}
