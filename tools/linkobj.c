/*
 * linkobj.c: the objects interloper link moves (link.h): the command's
 * .o arguments and, with --archives, the members of its static archives,
 * extracted into DIR/archives/.
 */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "archive.h"
#include "link.h"

void
il_tpl_add(struct il_tpls *t, const char *arg, long obj, int out)
{
    if (t->n == t->cap)
        t->v = il_xrealloc(t->v, (t->cap = t->cap ? 2 * t->cap : 64) * sizeof *t->v);
    t->v[t->n++] = (struct il_tpl){arg, obj, out};
}

/* ---------------------------------------------------------------- archives */
/* Name the directory for archive PATH's members: OUT/archives/BASE, or
 * BASE.2, BASE.3... when two archives share a name.  Returns it relative
 * to OUT. */
static char *
archive_dir(const char *out, const char *path)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    char *full = il_xasprintf("%s/archives", out);
    if (mkdir(full, 0777) < 0 && errno != EEXIST)
        err(1, "cannot create %s", full);
    free(full);
    for (int n = 1;; n++) {
        char *rel = n == 1 ? il_xasprintf("archives/%s", b) : il_xasprintf("archives/%s.%d", b, n);
        full = il_xasprintf("%s/%s", out, rel);
        if (mkdir(full, 0777) == 0) {
            free(full);
            return rel;
        }
        if (errno != EEXIST)
            err(1, "cannot create %s", full);
        free(full);
        free(rel);
    }
}

/* Extract member M of A into OUT/DIR, as DIR/NAME, or DIR/2/NAME... when
 * the name is taken.  Returns the file, relative to OUT. */
static char *
extract(const char *out, const char *dir, const struct il_archive *a, const struct il_member *m)
{
    const char *b = strrchr(m->name, '/');
    b = b ? b + 1 : m->name;
    if (!strcmp(b, ".") || !strcmp(b, ".."))
        b = "member.o";
    for (int n = 1;; n++) {
        char *rel, *full;
        if (n == 1) {
            rel = il_xasprintf("%s/%s", dir, b);
        } else {
            full = il_xasprintf("%s/%s/%d", out, dir, n);
            if (mkdir(full, 0777) < 0 && errno != EEXIST)
                err(1, "cannot create %s", full);
            free(full);
            rel = il_xasprintf("%s/%d/%s", dir, n, b);
        }
        full = il_xasprintf("%s/%s", out, rel);
        if (il_ar_extract(a, m, full) == 0) {
            free(full);
            return rel;
        }
        if (errno != EEXIST)
            err(1, "cannot extract '%s' from %s into %s", m->name, a->path, full);
        free(full);
        free(rel);
    }
}

/* The original link, once, with the linker's trace on: which archive
 * members it loads.  Returns the trace. */
static char *
trace_link(struct il_link *l, const struct il_scan *s)
{
    struct il_strv argv = {0};
    char *out = il_xasprintf("%s/trace.out", l->tmp), *log = il_xasprintf("%s/trace.log", l->tmp);
    for (size_t i = 0; i < l->cmd.n; i++) {
        if (i && i == s->out && s->out_joined) {
            il_strv_push_own(&argv, il_xasprintf("-o%s", out));
        } else {
            il_strv_push(&argv, i && i == s->out ? out : l->cmd.v[i]);
        }
    }
    if (!s->out) {
        il_strv_push(&argv, "-o");
        il_strv_push(&argv, out);
    }
    /* GNU ld names archive members only when --trace is given twice */
    il_strv_push(&argv, s->raw_ld ? "-t" : "-Wl,-t,-t");
    if (s->raw_ld)
        il_strv_push(&argv, "-t");
    int st = il_run_to(argv.v, l->cwd, log, log);
    il_strv_free(&argv);
    char *trace = il_slurp(log, NULL);
    if (!trace)
        err(1, "cannot read %s", log);
    if (st != 0) {
        char *p = trace + strspn(trace, "\n"), *nl = strchr(p, '\n');
        if (nl)
            *nl = 0;
        errx(1,
             "the recorded link, run once to see which archive members it uses, failed with "
             "status %d: %s",
             st, *p ? p : "(no message)");
    }
    unlink(out);
    unlink(log);
    free(out);
    free(log);
    return trace;
}

static void
add_obj(struct il_link *l, size_t *cap, char *name, char *path, long ar)
{
    if (strchr(name, '\n'))
        errx(1, "object name with a newline in it: cannot sort it; rename it");
    if (l->nobj == *cap)
        l->obj = il_xrealloc(l->obj, (*cap = *cap ? 2 * *cap : 64) * sizeof *l->obj);
    l->obj[l->nobj++] = (struct il_obj){name, path, ar};
}

/* Replace the archive at PATH, argument I of the command, by its members
 * (those the link used, or all): extract them into OUT/archives unless
 * DRY.  Returns 0, or -1 when it stays as it is. */
static int
expand(struct il_link *l, const struct il_scan *s, size_t i, char *path, int separate, char **trace,
       int dry, struct il_tpls *t, size_t *cap, size_t *arcap)
{
    const char *a = l->cmd.v[i];
    struct il_archive ar;
    char msg[512];
    if (il_ar_open(&ar, path, l->cwd, msg, sizeof msg) < 0)
        errx(1, "%s", msg);
    char *use = il_xmalloc(ar.n ? ar.n : 1);
    for (size_t m = 0; m < ar.n; m++)
        use[m] = (char)ar.m[m].object;
    if (!strcmp(l->mode, "used")) {
        if (!*trace)
            *trace = trace_link(l, s);
        const char *dupname = NULL;
        long nused = il_ar_used(&ar, *trace, l->cwd, use, &dupname);
        if (nused < 0)
            errx(1,
                 "several members of %s are named '%s' and the linker's trace does not say "
                 "which of them the link used; use --archives all",
                 path, dupname);
        if (nused == 0) {
            il_link_warn("the link used no member of %s (or its linker's trace names none); it "
                         "stays as it is",
                         path);
            il_ar_close(&ar);
            free(use);
            return -1;
        }
    }
    size_t any = 0;
    for (size_t m = 0; m < ar.n; m++)
        any += use[m] != 0;
    if (!any)
        errx(1, "%s holds no object to link", path);
    if (separate)
        t->n--; /* the -l before the name goes too */
    if (l->nar == *arcap)
        l->ar = il_xrealloc(l->ar, (*arcap = *arcap ? 2 * *arcap : 4) * sizeof *l->ar);
    struct il_expanded *e = &l->ar[l->nar];
    memset(e, 0, sizeof *e);
    e->argument = il_xmalloc(strlen(a) + 4);
    sprintf(e->argument, "%s%s", separate ? "-l " : "", a);
    e->path = path;
    e->real = il_xstrdup(ar.real);
    char *dir = dry ? NULL : archive_dir(l->out, path);
    for (size_t m = 0; m < ar.n; m++) {
        if (!use[m]) {
            il_strv_push(&e->left, ar.m[m].name);
            continue;
        }
        char *rel = dry ? il_xstrdup(ar.m[m].name) : extract(l->out, dir, &ar, &ar.m[m]);
        char *full = il_xasprintf("%s/%s", l->out ? l->out : "", rel);
        il_strv_push(&e->members, ar.m[m].name);
        il_strv_push_own(&e->files, rel);
        il_tpl_add(t, NULL, (long)l->nobj, 0);
        add_obj(l, cap, il_xstrdup(ar.m[m].name), full, (long)l->nar);
    }
    l->nar++;
    free(dir);
    free(use);
    il_ar_close(&ar);
    return 0;
}

void
il_collect(struct il_link *l, const struct il_scan *s, int dry, struct il_tpls *t)
{
    size_t cap = 0, arcap = 0;
    char *trace = NULL;
    int expanding = strcmp(l->mode, "keep") != 0;
    for (size_t i = 0; i < l->cmd.n; i++) {
        const char *a = l->cmd.v[i];
        enum il_arg k = s->kind[i];
        if (k == IL_ARG_OBJECT) {
            il_tpl_add(t, a, (long)l->nobj, 0);
            add_obj(l, &cap, il_xstrdup(a), il_xstrdup(a), -1);
            continue;
        }
        if (k == IL_ARG_OUTPUT) {
            il_tpl_add(t, a, -1, 1);
            continue;
        }
        char *path = NULL;
        int separate = 0;
        if (expanding && k == IL_ARG_ARCHIVE) {
            path = il_xstrdup(a);
        } else if (expanding && k == IL_ARG_LIBRARY) {
            separate = s->kind[i - 1] == IL_ARG_OPTION && !strcmp(l->cmd.v[i - 1], "-l");
            path = il_ar_find(separate ? a : a + 2, &s->libdirs, s->static_at[i], l->cwd);
        }
        if (!path || expand(l, s, i, path, separate, &trace, dry, t, &cap, &arcap) < 0) {
            free(path);
            il_tpl_add(t, a, -1, 0);
        }
    }
    free(trace);
}
