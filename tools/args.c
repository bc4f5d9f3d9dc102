/*
 * args.c: option words as interloper's commands read them.  "--name value"
 * and "--name=value" are the same; options end at "--", which is eaten, or
 * at the first word that does not start with '-'.  Every complaint is one
 * line, "interloper CMD: what; expected what", and exit status 1.
 */
#include <err.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "il_tools.h"

void
il_args_init(struct il_args *a, const char *me, int argc, char **argv)
{
    memset(a, 0, sizeof *a);
    a->me = me;
    a->argc = argc;
    a->argv = argv;
    a->i = 1;
}

const char *
il_args_next(struct il_args *a)
{
    a->opt = NULL;
    a->inl = NULL;
    if (a->i >= a->argc)
        return NULL;
    const char *w = a->argv[a->i];
    if (!strcmp(w, "--")) {
        a->i++;
        return NULL;
    }
    if (w[0] != '-' || !w[1])
        return NULL;
    a->i++;
    const char *eq = w[1] == '-' ? strchr(w, '=') : NULL;
    if (eq && (size_t)(eq - w) < sizeof a->optbuf) {
        memcpy(a->optbuf, w, (size_t)(eq - w));
        a->optbuf[eq - w] = 0;
        a->opt = a->optbuf;
        a->inl = eq + 1;
    } else {
        a->opt = w;
    }
    return a->opt;
}

const char *
il_args_value(struct il_args *a)
{
    if (a->inl)
        return a->inl;
    if (a->i >= a->argc)
        errx(1, "%s needs a value; see %s --help", a->opt, a->me);
    return a->argv[a->i++];
}

const char *
il_args_optional(struct il_args *a, int (*ok)(const char *))
{
    if (a->inl)
        return a->inl;
    if (a->i < a->argc && ok(a->argv[a->i]))
        return a->argv[a->i++];
    return NULL;
}

void
il_args_flag(struct il_args *a)
{
    if (a->inl)
        errx(1, "%s=%s: %s takes no value", a->opt, a->inl, a->opt);
}

void
il_args_bad(struct il_args *a, const char *val, const char *fmt, ...)
{
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    errx(1, "%s %s: %s", a->opt, val, what);
}
