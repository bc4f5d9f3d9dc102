/*
 * linkcmd.c: the link command model shared by interloper cc and interloper
 * link (linkcmd.h): argument classes, and the links file's records.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linkcmd.h"

/* ---------------------------------------------------------------- scanning */
/* Options of gcc, clang and ld whose value is the next argument, between
 * blanks. */
static const char takes_value[] =
    " -o -L -l -I -D -U -x -T -u -e -z -h -m -y -MF -MT -MQ -Xlinker -Xassembler"
    " -Xpreprocessor -include -imacros -isystem -iquote -idirafter -isysroot -imultilib"
    " -iprefix --sysroot -rpath -soname -dynamic-linker -Map --version-script --dynamic-list"
    " -aux-info --param -specs ";

/* Arguments that make an invocation something other than a final link. */
static const char not_a_link[] = " -c -S -E -M -MM -r -Wl,-r -Wl,--relocatable --relocatable ";

static int
in_list(const char *a, const char *list)
{
    size_t n = strlen(a);
    if (!n || strchr(a, ' '))
        return 0;
    for (const char *p = strstr(list, a); p; p = strstr(p + 1, a))
        if (p[-1] == ' ' && p[n] == ' ')
            return 1;
    return 0;
}

static const char *
base(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

static int
ends_with(const char *s, const char *suf)
{
    size_t n = strlen(s), m = strlen(suf);
    return n > m && !strcmp(s + n - m, suf);
}

int
il_is_linker(const char *argv0)
{
    const char *b = base(argv0);
    if (!strcmp(b, "ld") || !strncmp(b, "ld.", 3))
        return 1;
    const char *d = strstr(b, "-ld");
    while (d) {
        if (d[3] == 0 || d[3] == '.')
            return 1;
        d = strstr(d + 1, "-ld");
    }
    return 0;
}

/* The C runtime's start files, present when the command runs ld itself:
 * crti.o and crtn.o open and close .init and .fini and must stay put. */
static int
is_start_file(const char *a)
{
    const char *b = base(a);
    if (!strncmp(b, "crt", 3))
        return 1;
    return ((b[0] >= 'A' && b[0] <= 'Z') || (b[0] >= 'a' && b[0] <= 'z')) &&
           !strcmp(b + 1, "crt1.o");
}

/* A linker option that switches -l to static archives (1), back to
 * shared libraries (0), or neither (-1). */
static int
static_switch(const char *o)
{
    if (!strcmp(o, "-Bstatic") || !strcmp(o, "-dn") || !strcmp(o, "-non_shared") ||
        !strcmp(o, "-static"))
        return 1;
    if (!strcmp(o, "-Bdynamic") || !strcmp(o, "-dy") || !strcmp(o, "-call_shared"))
        return 0;
    return -1;
}

/* The same for each of -Wl,A,B,C's words. */
static void
wl_switches(const char *a, char *state)
{
    char *c = il_xstrdup(a + 4), *save = NULL;
    for (char *w = strtok_r(c, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
        int s = static_switch(w);
        if (s >= 0)
            *state = (char)s;
    }
    free(c);
}

void
il_scan(char *const *argv, size_t argc, struct il_scan *s)
{
    memset(s, 0, sizeof *s);
    s->kind = il_xmalloc(argc * sizeof *s->kind);
    s->static_at = il_xmalloc(argc);
    s->raw_ld = il_is_linker(argv[0]);
    char st = 0;
    /* A compiler driver's -static makes the whole link static. */
    if (!s->raw_ld)
        for (size_t i = 1; i < argc; i++)
            if (!strcmp(argv[i], "-static") || !strcmp(argv[i], "-static-pie"))
                st = 1;
    s->kind[0] = IL_ARG_DRIVER;
    s->static_at[0] = st;
    const char *pending = NULL; /* the option whose value comes next */
    for (size_t i = 1; i < argc; i++) {
        const char *a = argv[i];
        s->kind[i] = IL_ARG_OPTION;
        if (pending) {
            s->kind[i] = IL_ARG_VALUE;
            if (!strcmp(pending, "-o")) {
                s->kind[i] = IL_ARG_OUTPUT;
                s->out = i;
                s->out_joined = 0;
            } else if (!strcmp(pending, "-L")) {
                il_strv_push(&s->libdirs, a);
            } else if (!strcmp(pending, "-l")) {
                s->kind[i] = IL_ARG_LIBRARY;
            } else if (!strcmp(pending, "-Xlinker")) {
                int sw = static_switch(a);
                if (sw >= 0)
                    st = (char)sw;
            }
            s->static_at[i] = st;
            pending = NULL;
            continue;
        }
        if (in_list(a, not_a_link) || !strncmp(a, "-Wl,-r,", 7))
            s->compile_only = 1;
        if (in_list(a, takes_value)) {
            pending = a;
        } else if (!strncmp(a, "-o", 2)) {
            s->kind[i] = IL_ARG_OUTPUT;
            s->out = i;
            s->out_joined = 1;
        } else if (!strncmp(a, "-L", 2)) {
            il_strv_push(&s->libdirs, a + 2);
        } else if (!strncmp(a, "-l", 2)) {
            s->kind[i] = IL_ARG_LIBRARY;
        } else if (!strncmp(a, "-Wl,", 4)) {
            wl_switches(a, &st);
        } else if (a[0] == '-') {
            int sw = s->raw_ld ? static_switch(a) : -1;
            if (sw >= 0)
                st = (char)sw;
        } else if (ends_with(a, ".o")) {
            s->kind[i] = is_start_file(a) ? IL_ARG_START : IL_ARG_OBJECT;
            if (s->kind[i] == IL_ARG_OBJECT)
                s->nobj++;
        } else if (ends_with(a, ".a")) {
            s->kind[i] = IL_ARG_ARCHIVE;
        }
        s->static_at[i] = st;
    }
    s->dangling = pending != NULL;
}

void
il_scan_free(struct il_scan *s)
{
    free(s->kind);
    free(s->static_at);
    il_strv_free(&s->libdirs);
    memset(s, 0, sizeof *s);
}

const char *
il_scan_output(char *const *argv, const struct il_scan *s)
{
    if (!s->out)
        return "a.out";
    return s->out_joined ? argv[s->out] + 2 : argv[s->out];
}

/* ---------------------------------------------------------------- records */
void
il_record_quote(struct il_buf *b, const char *s)
{
    il_buf_shell(b, s, "'\"$il_nl\"'");
}

static int
starts(const char *p, const char *end, const char *lit)
{
    size_t n = strlen(lit);
    return (size_t)(end - p) >= n && !memcmp(p, lit, n);
}

int
il_record_parse(const char *line, size_t len, struct il_strv *words)
{
    const char *p = line, *end = line + len;
    const size_t tag = sizeof IL_LINK_RECORD - 1;
    if (memchr(line, 0, len) || memchr(line, '\n', len))
        return -1;
    if (len < tag || memcmp(p, IL_LINK_RECORD, tag))
        return -1;
    p += tag;
    struct il_strv w = {0};
    struct il_buf word = {0};
    while (p < end) {
        /* ' ' then a word: 'SEG' ( (\' | "$il_nl") 'SEG' )* */
        if (!starts(p, end, " '"))
            goto bad;
        p++;
        word.n = 0;
        il_buf_add(&word, "", 0);
        for (;;) {
            const char *q = memchr(p + 1, '\'', (size_t)(end - p - 1));
            if (!q)
                goto bad;
            il_buf_add(&word, p + 1, (size_t)(q - p - 1));
            p = q + 1;
            if (starts(p, end, "\\''")) {
                il_buf_add(&word, "'", 1);
                p += 2;
            } else if (starts(p, end, "\"$il_nl\"'")) {
                il_buf_add(&word, "\n", 1);
                p += 8;
            } else {
                break;
            }
        }
        il_strv_push(&w, word.p);
    }
    il_buf_free(&word);
    if (w.n < 2) {
        il_strv_free(&w);
        return -1;
    }
    il_strv_free(words);
    *words = w;
    return 0;
bad:
    il_buf_free(&word);
    il_strv_free(&w);
    return -1;
}

/* The output of the recorded command WORDS (cwd first): is it PROGRAM (its
 * name or last component)?  With PROGS, its last component is added to
 * PROGS unless there already. */
static int
record_makes(const struct il_strv *words, const char *program, struct il_strv *progs)
{
    struct il_scan s;
    il_scan(words->v + 1, words->n - 1, &s);
    const char *out = il_scan_output(words->v + 1, &s);
    int yes = !program || !strcmp(out, program) || !strcmp(base(out), program);
    if (progs) {
        size_t i = 0;
        while (i < progs->n && strcmp(progs->v[i], base(out)))
            i++;
        if (i == progs->n)
            il_strv_push(progs, base(out));
    }
    il_scan_free(&s);
    return yes;
}

/* il_record_read, also listing the programs linked in PROGS (when not NULL). */
static int
record_scan(const char *path, const char *program, struct il_strv *words, long *badline,
            struct il_strv *progs)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -2;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    long n = 0;
    int found = 0, rc = 0;
    struct il_strv w = {0};
    while ((len = getline(&line, &cap, f)) >= 0) {
        n++;
        if (len > 0 && line[len - 1] == '\n')
            len--;
        if (il_record_parse(line, (size_t)len, &w) < 0) {
            *badline = n;
            rc = -1;
            break;
        }
        if (record_makes(&w, program, progs)) {
            il_strv_free(words);
            *words = w;
            memset(&w, 0, sizeof w);
            found = 1;
        }
    }
    int e = errno;
    if (rc == 0 && ferror(f))
        rc = -2;
    free(line);
    il_strv_free(&w);
    fclose(f);
    errno = e;
    return rc ? rc : found;
}

int
il_record_read(const char *path, const char *program, struct il_strv *words, long *badline)
{
    return record_scan(path, program, words, badline, NULL);
}

int
il_record_programs(const char *path, struct il_strv *progs)
{
    struct il_strv w = {0};
    long bad = 0;
    int rc = record_scan(path, NULL, &w, &bad, progs);
    il_strv_free(&w);
    return rc < 0 ? -1 : 0;
}
