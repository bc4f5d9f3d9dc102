/*
 * opt.c: the one option layer (il_opt.h): option words parsed by a
 * command's table, --help printed from it, and every complaint about bad
 * usage one line, "interloper CMD: what; see interloper CMD --help", with
 * exit status 1.
 */
#include <err.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "il_opt.h"
#include "il_xalloc.h"

/* The options every command takes, handled here; --list-options has no
 * help text, so --help does not show it. */
enum { IL_OPT_HELP = -1, IL_OPT_LIST = -2 };
static const struct il_opt builtin[] = {
    {"help", 'h', IL_OPT_FLAG, NULL, "this text", IL_OPT_HELP, 0, NULL, NULL, NULL},
    {"list-options", 0, IL_OPT_FLAG, NULL, NULL, IL_OPT_LIST, 0, NULL, NULL, NULL},
    {0},
};

#define IL_OPT_MAX 256 /* entries of one command, headings included */

/* The command's entries in order, included tables spliced in, the
 * built-in options last: the options this command takes and the headings
 * of its --help.  Returns how many. */
static size_t
flatten_into(const struct il_cmd *c, const struct il_opt *t, const struct il_opt **out, size_t n)
{
    for (; t && (t->name || t->head || t->incl); t++) {
        if (t->only && !(t->only & c->bit))
            continue;
        if (t->incl) {
            n = flatten_into(c, t->incl, out, n);
            continue;
        }
        if (n == IL_OPT_MAX)
            errx(1, "%s: more than %d options", c->name, IL_OPT_MAX);
        out[n++] = t;
    }
    return n;
}

static size_t
flatten(const struct il_cmd *c, const struct il_opt **out)
{
    return flatten_into(c, builtin, out, flatten_into(c, c->opts, out, 0));
}

/* An option another command of a shared table takes, not this one. */
static const struct il_opt *
elsewhere(const struct il_opt *t, const char *name, size_t n)
{
    for (; t && (t->name || t->head || t->incl); t++) {
        const struct il_opt *o = t->incl ? elsewhere(t->incl, name, n) : t;
        if (o && o->name && strlen(o->name) == n && !strncmp(o->name, name, n))
            return o;
    }
    return NULL;
}

void
il_opt_usage(const struct il_cmd *cmd, const char *fmt, ...)
{
    char what[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    errx(1, "%s; see %s --help", what, cmd->name);
}

void
il_opt_bad(const struct il_optp *p, const char *value, const char *fmt, ...)
{
    char what[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    errx(1, "%s %s: %s", p->spelled, value ? value : "", what);
}

void
il_opt_init(struct il_optp *p, const struct il_cmd *cmd, int argc, char **argv)
{
    memset(p, 0, sizeof *p);
    p->cmd = cmd;
    p->argc = argc;
    p->argv = argv;
    p->i = 1;
    program_invocation_short_name = (char *)cmd->name; /* err(3)'s prefix */
}

/* The long option NAME (N bytes), or NULL. */
static const struct il_opt *
lookup_long(const struct il_cmd *c, const char *name, size_t n)
{
    const struct il_opt *all[IL_OPT_MAX];
    size_t nall = flatten(c, all);
    for (size_t k = 0; k < nall; k++)
        if (all[k]->name && strlen(all[k]->name) == n && !strncmp(all[k]->name, name, n))
            return all[k];
    return NULL;
}

/* The long option NAME (N bytes), or exit naming what is wrong. */
static const struct il_opt *
find_long(const struct il_cmd *c, const char *name, size_t n)
{
    const struct il_opt *found = lookup_long(c, name, n);
    if (found)
        return found;
    const struct il_opt *all[IL_OPT_MAX];
    size_t nall = flatten(c, all);
    if (elsewhere(c->opts, name, n))
        il_opt_usage(c, "--%.*s is not an option of %s", (int)n, name, c->name);
    /* a prefix of one option or of several: say which */
    char cand[512] = "";
    size_t len = 0, nc = 0;
    const struct il_opt *one = NULL;
    for (size_t k = 0; k < nall; k++) {
        const struct il_opt *o = all[k];
        if (o->name && o->help && n && !strncmp(o->name, name, n) && len < sizeof cand) {
            len += (size_t)snprintf(cand + len, sizeof cand - len, "%s--%s", nc++ ? ", " : "",
                                    o->name);
            one = o;
        }
    }
    if (nc > 1)
        il_opt_usage(c, "ambiguous option --%.*s (%s)", (int)n, name, cand);
    if (nc == 1)
        errx(1, "unknown option --%.*s; did you mean --%s? see %s --help", (int)n, name, one->name,
             c->name);
    il_opt_usage(c, "unknown option --%.*s", (int)n, name);
}

static const struct il_opt *
find_short(const struct il_cmd *c, char ch)
{
    const struct il_opt *all[IL_OPT_MAX];
    size_t nall = flatten(c, all);
    for (size_t k = 0; k < nall; k++)
        if (all[k]->name && all[k]->shrt == ch)
            return all[k];
    il_opt_usage(c, "unknown option -%c", ch);
}

/* The options end.  Permuting, the words become: the options, a "--" if
 * one ended them, the operands met, the words after the options. */
static void
the_end(struct il_optp *p, int w, int dashdash)
{
    if (p->cmd->permute) {
        char *dd = dashdash ? p->argv[p->i - 1] : NULL;
        int rest = p->argc - p->i;
        if (dd)
            p->argv[w++] = dd;
        memmove(p->argv + w + p->nops, p->argv + p->i, (size_t)rest * sizeof *p->argv);
        if (p->nops)
            memcpy(p->argv + w, p->ops, (size_t)p->nops * sizeof *p->argv);
        free(p->ops);
        p->ops = NULL;
        p->nops = p->opcap = 0;
        p->i = w;
    }
    p->opt = NULL;
    p->val = NULL;
}

/* Passing the rest through: is WORD one of the command's long options? */
static int
is_ours(const struct il_cmd *c, const char *word)
{
    if (strncmp(word, "--", 2) || !word[2])
        return 0;
    const char *eq = strchr(word + 2, '=');
    return lookup_long(c, word + 2, eq ? (size_t)(eq - word - 2) : strlen(word + 2)) != NULL;
}

/* The next option word, or NULL at the end of the options; permuting,
 * the operands before it are put aside. */
static const char *
next_word(struct il_optp *p, int w)
{
    for (;;) {
        if (p->i >= p->argc) {
            the_end(p, w, 0);
            return NULL;
        }
        const char *word = p->argv[p->i];
        if (!strcmp(word, "--")) {
            p->i++;
            the_end(p, w, 1);
            return NULL;
        }
        if (p->cmd->passthrough && !is_ours(p->cmd, word)) {
            the_end(p, w, 0);
            return NULL;
        }
        if (word[0] == '-' && word[1])
            return word;
        if (!p->cmd->permute) {
            the_end(p, w, 0);
            return NULL;
        }
        if (p->nops == p->opcap) {
            p->opcap = p->opcap ? 2 * p->opcap : 8;
            p->ops = il_xrealloc(p->ops, (size_t)p->opcap * sizeof *p->ops);
        }
        p->ops[p->nops++] = p->argv[p->i++];
    }
}

const struct il_opt *
il_opt_next(struct il_optp *p)
{
    const struct il_cmd *c = p->cmd;
    /* permuting: every word read so far is an option (moved down to
     * argv[1 .. w-1]) or an operand put aside */
    int w = p->i - p->nops;
    p->opt = NULL;
    p->val = NULL;
    const char *word = next_word(p, w);
    if (!word)
        return NULL;

    const char *inl = NULL; /* a value in the same word */
    const struct il_opt *o;
    p->from = p->i++;
    if (word[1] == '-') {
        const char *name = word + 2, *eq = strchr(name, '=');
        size_t n = eq ? (size_t)(eq - name) : strlen(name);
        o = find_long(c, name, n);
        snprintf(p->spelled, sizeof p->spelled, "--%s", o->name);
        inl = eq ? eq + 1 : NULL;
        if (inl && o->arg == IL_OPT_FLAG)
            il_opt_usage(c, "--%s takes no value", o->name);
    } else {
        o = find_short(c, word[1]);
        snprintf(p->spelled, sizeof p->spelled, "-%c", word[1]);
        if (word[2] && o->arg == IL_OPT_FLAG)
            il_opt_usage(c, "%s: one short option a word (-%c -%c, not -%c%c)", word, word[1],
                         word[2], word[1], word[2]);
        inl = word[2] ? word + 2 : NULL;
    }
    p->opt = o;
    if (o->arg == IL_OPT_VALUE) {
        if (inl)
            p->val = inl;
        else if (p->i < p->argc && !strcmp(p->argv[p->i], "--"))
            /* the end of the options, never a value: -o -- ./prog would
             * write a file named -- and run nothing under the option */
            il_opt_usage(c, "%s: expected a value%s%s, found -- (the end of the options)",
                         p->spelled, o->meta ? ", " : "", o->meta ? o->meta : "");
        else if (p->i < p->argc)
            p->val = p->argv[p->i++];
        else
            il_opt_usage(c, "%s: expected a value%s%s", p->spelled, o->meta ? ", " : "",
                         o->meta ? o->meta : "");
    } else if (o->arg == IL_OPT_MAYBE) {
        if (inl)
            p->val = inl;
        else if (p->i < p->argc && o->maybe && o->maybe(p->argv[p->i]))
            p->val = p->argv[p->i++];
    }
    if (o->id == IL_OPT_HELP || o->id == IL_OPT_LIST) {
        if (o->id == IL_OPT_HELP)
            il_opt_help(c, stdout);
        else
            il_opt_list(c, stdout);
        exit(fflush(stdout) || ferror(stdout) ? 1 : 0);
    }
    if (c->permute)
        for (int k = p->from; k < p->i; k++)
            p->argv[w++] = p->argv[k];
    return o;
}

/* ------------------------------------------------------------ --help */

/* "  -e, --events LIST"; a command that passes words through takes no
 * short options. */
static int
left(const struct il_cmd *c, const struct il_opt *o, char *buf, size_t n)
{
    const char *m = o->meta ? o->meta : "";
    int k = o->shrt && !c->passthrough ? snprintf(buf, n, "  -%c, --%s", o->shrt, o->name)
                                       : snprintf(buf, n, "      --%s", o->name);
    if (o->arg == IL_OPT_VALUE && *m)
        k += snprintf(buf + k, n - (size_t)k, " %s", m);
    else if (o->arg == IL_OPT_MAYBE && *m)
        k += snprintf(buf + k, n - (size_t)k, " [%s]", m);
    return k;
}

/* TEXT with every line after the first indented by IND. */
static void
indented(FILE *f, const char *text, int ind)
{
    for (const char *s = text; *s; s++) {
        fputc(*s, f);
        if (*s == '\n')
            fprintf(f, "%*s", ind, "");
    }
}

void
il_opt_help(const struct il_cmd *c, FILE *f)
{
    const struct il_opt *all[IL_OPT_MAX];
    size_t nall = flatten(c, all);
    char buf[256];
    int col = 0;
    for (size_t k = 0; k < nall; k++)
        if (all[k]->name && all[k]->help) {
            int l = left(c, all[k], buf, sizeof buf);
            col = l > col ? l : col;
        }
    col = col + 2 > 26 ? 26 : col + 2;

    fprintf(f, "usage: %s ", c->name);
    indented(f, c->synopsis ? c->synopsis : "[options]", (int)strlen(c->name) + 8);
    fputs("\n", f);
    if (c->about)
        fprintf(f, "\n%s\n", c->about);
    fputs("\n", f);
    const char *head = NULL;
    for (size_t k = 0; k < nall; k++) {
        const struct il_opt *o = all[k];
        if (!o->name) {
            head = o->head;
            continue;
        }
        if (!o->help)
            continue;
        if (head)
            fprintf(f, "%s:\n", head);
        head = NULL;
        int l = left(c, o, buf, sizeof buf);
        if (l + 1 >= col)
            fprintf(f, "%s\n%*s", buf, col, "");
        else
            fprintf(f, "%s%*s", buf, col - l, "");
        indented(f, o->help, col);
        fputc('\n', f);
    }
    if (c->more)
        fprintf(f, "\n%s\n", c->more);
    if (c->man)
        fprintf(f, "\nSee %s.\n", c->man);
}

void
il_opt_list(const struct il_cmd *c, FILE *f)
{
    static const char *const kind[] = {"flag", "value", "maybe"};
    const struct il_opt *all[IL_OPT_MAX];
    size_t nall = flatten(c, all);
    for (size_t k = 0; k < nall; k++) {
        const struct il_opt *o = all[k];
        if (!o->name || !o->help)
            continue;
        char s[3] = {'-', o->shrt, 0};
        fprintf(f, "%s --%s %s %s\n", o->shrt && !c->passthrough ? s : "-", o->name, kind[o->arg],
                o->meta ? o->meta : "-");
    }
    for (const char *const *sub = c->subs; sub && *sub; sub++)
        fprintf(f, "+ %s\n", *sub);
}
