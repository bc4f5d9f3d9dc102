/*
 * compare_systems.c: interloper compare's commands made systems of a
 * sweep, arranged so that nothing but the programs differs between them.
 *
 * A command is a program (one word that names an executable file: run
 * directly, with the ARGS after --) or a shell command (anything else: run
 * as SHELL -c COMMAND, as hyperfine runs its commands).  The setup must be
 * the same for every system (Mytkowicz et al., ASPLOS'09, section 4: the
 * environment's size moves the stack; so do the program's path and its
 * arguments, which sit beside the environment on the stack):
 *   - programs whose paths differ in length run through symbolic links of
 *     one length in a private directory, each keeping its file name
 *     (argv[0]'s, which some programs read): D/1_/bzip2, D/2/lbzip2;
 *   - shell commands run as the same shell, each command padded with
 *     spaces to the longest, which the shell ignores;
 *   - what cannot be arranged is refused, in one line: layouts of
 *     interloper build whose paths differ in length (their manifest names
 *     them); a program among shell commands runs as a shell command, so
 *     that all are measured alike.
 * The names of the systems: --name, else what tells the paths the commands
 * run apart (a program's word or a shell command's first word): their file
 * names, or the first component where they differ; else cmd1, cmd2, ...
 */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compare.h"

/* a name made of label characters: others become '_' */
static char *
label_safe(const char *s, size_t n)
{
    char *o = il_xmalloc(n + 1);
    for (size_t i = 0; i < n; i++)
        o[i] = il_label_key_ok((char[]){s[i], 0}) ? s[i] : '_';
    o[n] = 0;
    return o;
}

static int
all_distinct(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!v[i] || !*v[i])
            return 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < i; j++)
            if (!strcmp(v[i], v[j]))
                return 0;
    return 1;
}

static void
free_names(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(v[i]);
        v[i] = NULL;
    }
}

/*
 * The k-th non-empty '/'-separated component of path p, or NULL: an
 * absolute path's leading '/' (and a doubled one) names no component, so
 * /x/O2/t and /x/O3/t differ at O2 and O3, as x/O2/t and x/O3/t do.
 */
static char *
component(const char *p, size_t k)
{
    p += strspn(p, "/");
    for (size_t i = 0; i < k; i++) {
        p += strcspn(p, "/");
        p += strspn(p, "/");
    }
    size_t n = strcspn(p, "/");
    return n ? label_safe(p, n) : NULL;
}

void
il_compare_names(struct il_compare *c)
{
    size_t n = c->ncmd;
    char **v = il_xcalloc(n, sizeof *v);
    if (c->nnames) {
        for (size_t i = 0; i < n; i++)
            c->name[i] = c->names[i];
        free(v);
        return;
    }
    /* One rule for both kinds of command (outside15 L2): the path each
     * runs, a program's whole word or a shell command's first word, named
     * by its file name, else by the first component where the paths
     * differ: 'mb/O2/link/make.00 -s' and 'mb/O3/link/make.00 -s' are O2
     * and O3, as the programs mb/O2/link/make.00 and mb/O3/... are. */
    char **w = il_xcalloc(n, sizeof *w);
    for (size_t i = 0; i < n; i++) {
        const char *s = c->cmd[i];
        size_t l = strlen(s);
        if (c->shell_mode) {
            s += strspn(s, " \t");
            l = strcspn(s, " \t;|&<>()");
        }
        w[i] = il_xmalloc(l + 1);
        memcpy(w[i], s, l);
        w[i][l] = 0;
    }
    for (size_t i = 0; i < n; i++) {
        const char *b = strrchr(w[i], '/');
        b = b ? b + 1 : w[i];
        v[i] = *b ? label_safe(b, strlen(b)) : NULL;
    }
    for (size_t k = 0; !all_distinct(v, n) && k < 64; k++) {
        free_names(v, n);
        int same = 1, any = 0;
        for (size_t i = 0; i < n; i++) {
            v[i] = component(w[i], k);
            any |= v[i] != NULL;
            same &= v[i] && v[0] && !strcmp(v[i], v[0]);
        }
        if (!any)
            break;
        if (same)
            free_names(v, n);
    }
    free_names(w, n);
    free(w);
    if (!all_distinct(v, n)) {
        free_names(v, n);
        for (size_t i = 0; i < n; i++)
            v[i] = il_xasprintf("cmd%zu", i + 1);
    }
    for (size_t i = 0; i < n; i++) {
        if (strlen(v[i]) > IL_SYSTEM_NAME_MAX)
            v[i][IL_SYSTEM_NAME_MAX] = 0;
        c->name[i] = v[i];
    }
    free(v);
}

/* ------------------------------------------------------------ programs */

static int
exec_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, X_OK) == 0;
}

/* Are these commands programs (each one word, an executable file)?  Sets
 * c->path[] when they are.  A path with a '/' that names an executable
 * file is a program even with blanks or a shell's characters in it ("dir
 * a/puz zle" once ran as sh -c and failed: outside review, session 12). */
int
il_compare_programs(struct il_compare *c)
{
    for (size_t i = 0; i < c->ncmd; i++) {
        const char *w = c->cmd[i];
        if (!*w || (strpbrk(w, IL_SHELL_CHARS) && !strstr(w, "{layout}") &&
                    !(strchr(w, '/') && exec_file(w))))
            return 0;
        if (strstr(w, "{layout}"))
            continue;
        char *p = il_find_program(w);
        if (!p || !exec_file(p)) {
            free(p);
            return 0;
        }
        free(p);
    }
    return 1;
}

/* The links directory: $TMPDIR/interloper-compare.XXXXXX (/tmp where
 * TMPDIR is unset or cannot be used), of one length. */
static char *
links_dir(void)
{
    const char *t = il_tmpdir_env(0);
    char *d = il_xasprintf("%s/interloper-compare.XXXXXX", t ? t : "/tmp");
    if (!mkdtemp(d))
        err(1, "cannot make a directory for the programs' links (%s)", d);
    return d;
}

void
il_compare_links_remove(struct il_compare *c)
{
    if (!c->links)
        return;
    for (size_t i = 0; i < c->ncmd; i++) {
        if (!c->path[i])
            continue;
        unlink(c->path[i]);
        char *slash = strrchr(c->path[i], '/');
        *slash = 0;
        rmdir(c->path[i]);
        *slash = '/';
    }
    rmdir(c->links);
    free(c->links);
    c->links = NULL;
}

/* "mkdir -p D/1 D/2__ && ln -s TARGET D/1/prog && ...": the links as
 * they are now, made again by a shell: -n removes them before it ends,
 * and the lines of its plan name them (review12b L4) */
char *
il_compare_links_line(const struct il_compare *c)
{
    if (!c->links)
        return NULL;
    struct il_buf b = {0};
    il_buf_str(&b, "mkdir -p");
    for (size_t i = 0; i < c->ncmd; i++) {
        char *slash = strrchr(c->path[i], '/');
        *slash = 0;
        il_buf_str(&b, " ");
        il_buf_word(&b, c->path[i]);
        *slash = '/';
    }
    for (size_t i = 0; i < c->ncmd; i++) {
        char *to = il_xcalloc(1, IL_PATH_MAX);
        if (readlink(c->path[i], to, IL_PATH_MAX - 1) < 0)
            err(1, "cannot read the link %s", c->path[i]);
        il_buf_str(&b, " && ln -s ");
        il_buf_word(&b, to);
        il_buf_str(&b, " ");
        il_buf_word(&b, c->path[i]);
        free(to);
    }
    return b.p;
}

/*
 * Each program's path for the sweep.  Paths of one length are kept as
 * given (the user sees them in every record's argv); others get links of
 * one length that keep each file name.  Returns 1 when links were made.
 */
int
il_compare_paths(struct il_compare *c)
{
    size_t len = 0, same = 1, maxbase = 0;
    for (size_t i = 0; i < c->ncmd; i++) {
        /* the path exec'd: as given, or found in PATH (as the sweep finds it) */
        char *found = strstr(c->cmd[i], "{layout}") ? NULL : il_find_program(c->cmd[i]);
        size_t l = strlen(found ? found : c->cmd[i]);
        free(found);
        same &= !i || l == len;
        len = l;
        const char *b = strrchr(c->cmd[i], '/');
        b = b ? b + 1 : c->cmd[i];
        if (strlen(b) > maxbase)
            maxbase = strlen(b);
    }
    int layout = 0;
    for (size_t i = 0; i < c->ncmd; i++)
        layout |= strstr(c->cmd[i], "{layout}") != NULL;
    if (same) {
        for (size_t i = 0; i < c->ncmd; i++)
            c->path[i] = il_xstrdup(c->cmd[i]);
        return 0;
    }
    if (layout)
        errx(1,
             "the layouts' paths differ in length (%s, %s), and their manifests name "
             "them, so no link can even them out: give interloper build system names of one "
             "length",
             c->cmd[0], c->cmd[1]);
    c->links = links_dir();
    size_t width = 0; /* digits of the largest index */
    for (size_t n = c->ncmd; n; n /= 10)
        width++;
    for (size_t i = 0; i < c->ncmd; i++) {
        char *abs = il_find_program(c->cmd[i]);
        char *real = abs ? realpath(abs, NULL) : NULL;
        if (!real)
            err(1, "%s", c->cmd[i]);
        const char *b = strrchr(c->cmd[i], '/');
        b = b ? b + 1 : c->cmd[i];
        /* D/<index padded with '_'>/<file name>: one length for all */
        size_t pad = width + maxbase - strlen(b);
        char *sub = il_xasprintf("%s/%zu", c->links, i + 1);
        size_t have = strlen(sub) - strlen(c->links) - 1;
        while (have < pad) {
            char *longer = il_xasprintf("%s_", sub);
            free(sub);
            sub = longer;
            have++;
        }
        if (mkdir(sub, 0700) < 0)
            err(1, "cannot make %s", sub);
        c->path[i] = il_xasprintf("%s/%s", sub, b);
        if (symlink(real, c->path[i]) < 0)
            err(1, "cannot link %s to %s", c->path[i], real);
        free(sub);
        free(abs);
        free(real);
    }
    return 1;
}

/* ------------------------------------------------------------ shell commands */

/* Each command padded with spaces to the longest: the shell's argument
 * vectors are then of one size. */
void
il_compare_pad(struct il_compare *c)
{
    size_t w = 0;
    for (size_t i = 0; i < c->ncmd; i++)
        if (strlen(c->cmd[i]) > w)
            w = strlen(c->cmd[i]);
    for (size_t i = 0; i < c->ncmd; i++)
        c->padded[i] = il_xasprintf("%-*s", (int)w, c->cmd[i]);
}
