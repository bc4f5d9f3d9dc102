/*
 * config.c: INTERLOPER_* variables -> struct il_config.
 *
 * Runs in the constructor, before the program's own constructors and main,
 * so it allocates nothing: every string is copied into the fixed buffers of
 * struct il_config.  It is pure (the environment comes in through a
 * function pointer), which is what lets tests/unit/test_config.c drive it.
 *
 * Each problem becomes one message of the form
 *     INTERLOPER_X=value: what is wrong; expected what
 * and the value falls back to its default, so a typo never stops the
 * program (INTERLOPER_STRICT=1 makes the interposer stop it instead).
 *
 * Async-signal-safe (no stdio): a process that ends before our
 * constructor ran parses the variables in its finish path.
 */
#include <stddef.h>
#include <string.h>

#include "interloper.h"

const char *const il_known_vars[] = {
    "INTERLOPER_EVENTS",
    "INTERLOPER_BACKEND",
    "INTERLOPER_OUTPUT",
    "INTERLOPER_STACK_OFFSET",
    "INTERLOPER_STACK_PIN",
    "INTERLOPER_HEAP_OFFSET",
    "INTERLOPER_INHERIT",
    "INTERLOPER_STRICT",
    "INTERLOPER_DEBUG",
    "INTERLOPER_RUN",
    /* set by the interloper command for its own use */
    "INTERLOPER_PAD",
    "INTERLOPER_LIBRARY",
    "INTERLOPER_LIBEXEC",
    "INTERLOPER_FRONT",
    NULL,
};

static const char *const il_err_text[] = {
    [0] = "success",
    [-IL_EINVAL] = "malformed value",
    [-IL_ERANGE] = "value out of range",
    [-IL_ENOEVENT] = "unknown event",
    [-IL_ENOTSUP] = "not supported here",
    [-IL_EPERM] = "not permitted",
    [-IL_ESYS] = "system call failed",
    [-IL_ENOMEM] = "out of buffer space",
    [-IL_ENOLIB] = "library not available",
    [-IL_ETOOMANY] = "too many",
    [-IL_EUNREACH] = "address cannot be reached",
    [-IL_EBACKEND] = "backend failed",
};

const char *
il_strerror(int err)
{
    if (err > 0 || -err >= (int)(sizeof il_err_text / sizeof il_err_text[0]) || !il_err_text[-err])
        return "unknown error";
    return il_err_text[-err];
}

const char *
il_backend_name(enum il_backend_kind b)
{
    switch (b) {
    case IL_BACKEND_AUTO:
        return "auto";
    case IL_BACKEND_PERF:
        return "perf";
    case IL_BACKEND_PAPI:
        return "papi";
    case IL_BACKEND_NONE:
        return "none";
    }
    return "?";
}

const char *
il_inherit_name(enum il_inherit m)
{
    switch (m) {
    case IL_INHERIT_ALL:
        return "all";
    case IL_INHERIT_THREADS:
        return "threads";
    case IL_INHERIT_NONE:
        return "none";
    }
    return "?";
}

int
il_parse_size(const char *s, unsigned long long max, unsigned long long *out)
{
    unsigned long long v = 0, mult = 1;
    int base = 10, digits = 0;

    if (!s)
        return IL_EINVAL;
    while (*s == ' ' || *s == '\t')
        s++;
    /* Leading zeros are decimal: the driver writes constant-width values
     * such as 00004096, and octal would silently change their meaning. */
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    }
    for (; *s; s++) {
        int d;
        if (*s >= '0' && *s <= '9')
            d = *s - '0';
        else if (base == 16 && *s >= 'a' && *s <= 'f')
            d = *s - 'a' + 10;
        else if (base == 16 && *s >= 'A' && *s <= 'F')
            d = *s - 'A' + 10;
        else
            break;
        if (v > (~0ULL - (unsigned)d) / (unsigned)base)
            return IL_ERANGE;
        v = v * (unsigned)base + (unsigned)d;
        digits++;
    }
    if (!digits)
        return IL_EINVAL;
    if (base == 10 && *s) {
        switch (*s) {
        case 'k':
        case 'K':
            mult = 1ULL << 10;
            s++;
            break;
        case 'm':
        case 'M':
            mult = 1ULL << 20;
            s++;
            break;
        case 'g':
        case 'G':
            mult = 1ULL << 30;
            s++;
            break;
        }
    }
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s)
        return IL_EINVAL;
    if (mult > 1 && v > ~0ULL / mult)
        return IL_ERANGE;
    v *= mult;
    if (v > max)
        return IL_ERANGE;
    *out = v;
    return 0;
}

int
il_expand_output(const char *tmpl, long pid, char *out, size_t outsz)
{
    size_t o = 0;
    for (const char *p = tmpl; *p; p++) {
        char num[24];
        const char *ins = NULL;
        char one[2] = {0, 0};
        if (*p != '%') {
            one[0] = *p;
            ins = one;
        } else if (p[1] == 'p') {
            /* decimal by hand: this runs before main, keep it cheap */
            char tmp[24];
            int i = 0, k = 0;
            unsigned long v = pid < 0 ? 0 : (unsigned long)pid;
            do
                tmp[i++] = (char)('0' + v % 10);
            while (v /= 10);
            while (i)
                num[k++] = tmp[--i];
            num[k] = 0;
            ins = num;
            p++;
        } else if (p[1] == '%') {
            ins = "%";
            p++;
        } else {
            return IL_EINVAL;
        }
        size_t n = strlen(ins);
        if (o + n >= outsz)
            return IL_ERANGE;
        memcpy(out + o, ins, n);
        o += n;
    }
    if (o == 0)
        return IL_EINVAL;
    out[o] = 0;
    return 0;
}

/* Append at most max bytes of s at out[*o], leaving room for the NUL;
 * "..." when s was cut. */
static void
put_cut(char *out, size_t cap, size_t *o, const char *s, size_t max)
{
    size_t n = 0;
    while (s[n] && n < max && *o + 1 < cap)
        out[(*o)++] = s[n++];
    if (s[n] && n == max)
        for (const char *d = "..."; *d && *o + 1 < cap; d++)
            out[(*o)++] = *d;
    out[*o] = 0;
}

void
il_config_error(struct il_config *cfg, const char *var, const char *val, const char *what)
{
    if (cfg->nerrors >= IL_MAX_ERRORS)
        return;
    /* "VAR=value: what"; values are shown cut, one line, never a screenful */
    char *e = cfg->errors[cfg->nerrors++];
    size_t o = 0;
    e[0] = 0;
    put_cut(e, IL_ERROR_MAX, &o, var, 60);
    put_cut(e, IL_ERROR_MAX, &o, "=", 1);
    put_cut(e, IL_ERROR_MAX, &o, val ? val : "", 80);
    put_cut(e, IL_ERROR_MAX, &o, ": ", 2);
    put_cut(e, IL_ERROR_MAX, &o, what, IL_ERROR_MAX);
}

/* what, with its one "%s" replaced by a and "%%" by "%" */
static void
add_error(struct il_config *cfg, const char *var, const char *val, const char *fmt, const char *a)
{
    char what[IL_ERROR_MAX];
    size_t o = 0;
    for (const char *f = fmt; *f && o + 1 < sizeof what; f++) {
        if (f[0] == '%' && f[1] == 's') {
            put_cut(what, sizeof what, &o, a ? a : "", 128);
            f++;
        } else {
            what[o++] = *f;
            if (f[0] == '%' && f[1] == '%')
                f++;
        }
    }
    what[o] = 0;
    il_config_error(cfg, var, val, what);
}

static const char *
nonempty(const char *s)
{
    return s && *s ? s : NULL;
}

static int
parse_bool(struct il_config *cfg, const char *var, const char *v)
{
    if (!v)
        return 0;
    if (!strcmp(v, "0") || !strcmp(v, "no") || !strcmp(v, "false") || !strcmp(v, "off"))
        return 0;
    if (!strcmp(v, "1") || !strcmp(v, "yes") || !strcmp(v, "true") || !strcmp(v, "on"))
        return 1;
    add_error(cfg, var, v, "not a boolean; expected 0 or 1%s", NULL);
    return 0;
}

static void
parse_events(struct il_config *cfg, const char *v)
{
    cfg->nevents = 0;
    cfg->events_default = 1;
    if (!v)
        return;
    if (strlen(v) >= sizeof cfg->events_buf) {
        add_error(cfg, "INTERLOPER_EVENTS", v,
                  "list too long; expected at most 2047 bytes of comma-separated names%s", NULL);
        return;
    }
    strcpy(cfg->events_buf, v);
    char *p = cfg->events_buf;
    while (*p) {
        char *name = p;
        char *end = strchr(p, ',');
        if (end) {
            *end = 0;
            p = end + 1;
        } else {
            p += strlen(p);
        }
        while (*name == ' ' || *name == '\t')
            name++;
        size_t n = strlen(name);
        while (n && (name[n - 1] == ' ' || name[n - 1] == '\t'))
            name[--n] = 0;
        if (!n)
            continue;
        if (n >= IL_EVENT_NAME_MAX) {
            add_error(cfg, "INTERLOPER_EVENTS", v,
                      "event name too long; expected names under 128 bytes%s", NULL);
            continue;
        }
        int dup = 0;
        for (int i = 0; i < cfg->nevents; i++)
            if (!strcmp(cfg->events[i], name))
                dup = 1;
        if (dup) {
            add_error(cfg, "INTERLOPER_EVENTS", v, "event %s named twice; counting it once", name);
            continue;
        }
        if (cfg->nevents >= IL_MAX_EVENTS) {
            add_error(cfg, "INTERLOPER_EVENTS", v, "more than 32 events; counting the first 32%s",
                      NULL);
            break;
        }
        cfg->events[cfg->nevents++] = name;
    }
    cfg->events_default = cfg->nevents == 0;
}

/* getenv over env, for callers that pass no getenv_fn: env is scanned
 * once for INTERLOPER_ variables (there are few), and lookups go through
 * those alone.  This runs in every measured process. */
static const char *
lookup(const struct il_config *cfg, const char *name)
{
    for (int i = 0; i < cfg->nfound; i++) {
        const char *v = cfg->found[i], *n = name;
        while (*n && *v == *n)
            v++, n++;
        if (!*n && *v == '=')
            return v + 1;
    }
    return NULL;
}

/* the variable's value, through getenv_fn or the variables found */
#define GET(name) (getenv_fn ? getenv_fn(name) : lookup(cfg, name))

int
il_config_parse(struct il_config *cfg, const char *(*getenv_fn)(const char *), char *const *env)
{
    const char *v;
    unsigned long long n;
    int rc;

    /* Only the scalars: the buffers are large, and this runs in every
     * measured process. */
    memset(cfg, 0, offsetof(struct il_config, pin_text));
    cfg->events_buf[0] = 0;
    cfg->run_spec[0] = 0;
    cfg->backend = IL_BACKEND_AUTO;
    cfg->inherit = IL_INHERIT_ALL;
    strcpy(cfg->output, IL_DEFAULT_OUTPUT);
    if (!getenv_fn)
        for (char *const *e = env; e && *e; e++)
            if ((*e)[0] == 'I' && !strncmp(*e, "INTERLOPER_", 11) &&
                cfg->nfound < (int)(sizeof cfg->found / sizeof cfg->found[0]))
                cfg->found[cfg->nfound++] = *e;

    parse_events(cfg, nonempty(GET("INTERLOPER_EVENTS")));

    if ((v = nonempty(GET("INTERLOPER_BACKEND")))) {
        if (!strcmp(v, "auto"))
            cfg->backend = IL_BACKEND_AUTO;
        else if (!strcmp(v, "perf"))
            cfg->backend = IL_BACKEND_PERF;
        else if (!strcmp(v, "papi"))
            cfg->backend = IL_BACKEND_PAPI;
        else if (!strcmp(v, "none"))
            cfg->backend = IL_BACKEND_NONE;
        else
            add_error(cfg, "INTERLOPER_BACKEND", v,
                      "unknown backend; expected auto, perf, papi or none%s", NULL);
    }

    if ((v = nonempty(GET("INTERLOPER_OUTPUT")))) {
        char probe[IL_PATH_MAX];
        if (!strcmp(v, "-")) {
            cfg->output_stderr = 1;
            strcpy(cfg->output, "-");
        } else if ((rc = il_expand_output(v, 1, probe, sizeof probe)) < 0 ||
                   strlen(v) >= sizeof cfg->output - 24) {
            /* the record goes where the user will look: stderr */
            add_error(cfg, "INTERLOPER_OUTPUT", v,
                      rc == IL_EINVAL ? "unknown %%-sequence; expected a path where %%p is the "
                                        "pid and %%%% a percent sign, or - for stderr; the "
                                        "record goes to stderr%s"
                                      : "path too long; expected under 4072 bytes; the record "
                                        "goes to stderr%s",
                      NULL);
            cfg->output_stderr = 1;
            cfg->output_fallback = 1;
            strcpy(cfg->output, "-");
        } else {
            strcpy(cfg->output, v);
        }
    }

    if ((v = nonempty(GET("INTERLOPER_STACK_OFFSET")))) {
        rc = il_parse_size(v, IL_STACK_OFFSET_MAX, &n);
        if (rc < 0)
            add_error(cfg, "INTERLOPER_STACK_OFFSET", v,
                      rc == IL_ERANGE ? "too large; expected at most 64M bytes%s"
                                      : "not a byte count; expected a number of bytes such as "
                                        "4096, 0x1000 or 4k (applied in 16-byte steps)%s",
                      NULL);
        else {
            cfg->stack_offset_req = (unsigned long)n;
            cfg->stack_offset = (unsigned long)n & ~15UL;
        }
    }

    cfg->pin_text[0] = 0;
    if ((v = nonempty(GET("INTERLOPER_STACK_PIN")))) {
        size_t o = 0;
        put_cut(cfg->pin_text, sizeof cfg->pin_text, &o, v, sizeof cfg->pin_text - 4);
        if (!strcmp(v, "auto")) {
            cfg->stack_pin = IL_PIN_AUTO;
        } else if (!strcmp(v, "none")) {
            cfg->stack_pin = IL_PIN_NONE; /* interloper run's "no pin", same width as auto */
        } else if ((rc = il_parse_size(v, (1ULL << 56), &n)) < 0 || n == 0) {
            add_error(cfg, "INTERLOPER_STACK_PIN", v,
                      "not an address; expected auto, none or a stack address such as "
                      "0x7fffffffd000%s",
                      NULL);
        } else {
            cfg->stack_pin = IL_PIN_ADDR;
            cfg->stack_pin_addr = (uintptr_t)n;
        }
    }

    if ((v = nonempty(GET("INTERLOPER_HEAP_OFFSET")))) {
        rc = il_parse_size(v, IL_HEAP_OFFSET_MAX, &n);
        if (rc < 0)
            add_error(cfg, "INTERLOPER_HEAP_OFFSET", v,
                      rc == IL_ERANGE ? "too large; expected at most 1G bytes%s"
                                      : "not a byte count; expected a number of bytes such as "
                                        "4096, 0x1000 or 4k%s",
                      NULL);
        else
            cfg->heap_offset = (unsigned long)n;
    }

    if ((v = nonempty(GET("INTERLOPER_INHERIT")))) {
        if (!strcmp(v, "all") || !strcmp(v, "1"))
            cfg->inherit = IL_INHERIT_ALL;
        else if (!strcmp(v, "threads"))
            cfg->inherit = IL_INHERIT_THREADS;
        else if (!strcmp(v, "none") || !strcmp(v, "0"))
            cfg->inherit = IL_INHERIT_NONE;
        else
            add_error(cfg, "INTERLOPER_INHERIT", v,
                      "unknown mode; expected all (children count into this record), threads "
                      "or none (every forked child writes its own record)%s",
                      NULL);
    }

    if ((v = nonempty(GET("INTERLOPER_RUN")))) {
        if (v[0] != '/' || strlen(v) >= sizeof cfg->run_spec)
            add_error(cfg, "INTERLOPER_RUN", v,
                      "not an absolute path; expected the spec file interloper run wrote; the "
                      "record goes to INTERLOPER_OUTPUT, without labels%s",
                      NULL);
        else
            strcpy(cfg->run_spec, v);
    }

    cfg->strict = parse_bool(cfg, "INTERLOPER_STRICT", nonempty(GET("INTERLOPER_STRICT")));
    cfg->debug = parse_bool(cfg, "INTERLOPER_DEBUG", nonempty(GET("INTERLOPER_DEBUG")));

    /* A misspelt variable would otherwise be silently ignored. */
    for (; env && *env; env++) {
        if ((*env)[0] != 'I' || strncmp(*env, "INTERLOPER_", 11))
            continue;
        const char *eq = strchr(*env, '=');
        size_t len = eq ? (size_t)(eq - *env) : strlen(*env);
        int known = 0;
        for (const char *const *k = il_known_vars; *k; k++)
            if (strlen(*k) == len && !strncmp(*k, *env, len))
                known = 1;
        if (!known) {
            char name[64];
            size_t nl = len < 63 ? len : 63;
            memcpy(name, *env, nl);
            name[nl] = 0;
            add_error(cfg, name, eq ? eq + 1 : "",
                      "unknown variable; expected one of INTERLOPER_EVENTS, _BACKEND, _OUTPUT, "
                      "_STACK_OFFSET, _STACK_PIN, _HEAP_OFFSET, _INHERIT, _STRICT, _DEBUG, "
                      "_RUN%s",
                      NULL);
        }
    }
    return cfg->nerrors;
}
