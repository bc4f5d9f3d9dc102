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

#include "il_resolve.h"
#include "interloper.h"

/* texts in arrays, not pointers: a pointer in a table costs every process
 * a relocation at load */
static const char il_err_text[][32] = {
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
    if (err > 0 || -err >= (int)(sizeof il_err_text / sizeof il_err_text[0]) ||
        !il_err_text[-err][0])
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
    } else {
        /* the driver's constant-width zeros, skipped at a compare each */
        while (s[0] == '0' && s[1] == '0')
            s++;
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
        if (*p != '%') {
            if (o + 1 >= outsz)
                return IL_ERANGE;
            out[o++] = *p;
        } else if (p[1] == 'p') {
            /* decimal by hand: this runs before main, keep it cheap */
            char tmp[24];
            int i = 0;
            unsigned long v = pid < 0 ? 0 : (unsigned long)pid;
            do
                tmp[i++] = (char)('0' + v % 10);
            while (v /= 10);
            if (o + (size_t)i >= outsz)
                return IL_ERANGE;
            while (i)
                out[o++] = tmp[--i];
            p++;
        } else if (p[1] == '%') {
            if (o + 1 >= outsz)
                return IL_ERANGE;
            out[o++] = '%';
            p++;
        } else {
            return IL_EINVAL;
        }
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

/* ------------------------------------------------------------ the variables */

static int
parse_bool(struct il_config *cfg, const char *var, const char *v)
{
    if (!strcmp(v, "0") || !strcmp(v, "no") || !strcmp(v, "false") || !strcmp(v, "off"))
        return 0;
    if (!strcmp(v, "1") || !strcmp(v, "yes") || !strcmp(v, "true") || !strcmp(v, "on"))
        return 1;
    add_error(cfg, var, v, "not a boolean; expected 0 or 1%s", NULL);
    return 0;
}

static void
parse_events(struct il_config *cfg, const char *var, const char *v)
{
    if (strlen(v) >= sizeof cfg->events_buf) {
        add_error(cfg, var, v,
                  "list too long; expected at most 2047 bytes of comma-separated names%s", NULL);
        return;
    }
    strcpy(cfg->events_buf, v);
    cfg->nevents = 0; /* a run spec's list replaces the environment's */
    cfg->events_value = v;
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
            add_error(cfg, var, v, "event name too long; expected names under 128 bytes%s", NULL);
            continue;
        }
        il_event_fold(name, n); /* TASK-CLOCK is task-clock, recorded so */
        int dup = 0;
        for (int i = 0; i < cfg->nevents; i++)
            if (!strcmp(cfg->events[i], name))
                dup = 1;
        if (dup) {
            add_error(cfg, var, v, "event %s named twice; counting it once", name);
            continue;
        }
        if (cfg->nevents >= IL_MAX_EVENTS) {
            add_error(cfg, var, v, "more than 32 events; counting the first 32%s", NULL);
            break;
        }
        cfg->events[cfg->nevents++] = name;
    }
    cfg->events_default = cfg->nevents == 0;
}

static void
parse_backend(struct il_config *cfg, const char *var, const char *v)
{
    if (!strcmp(v, "auto"))
        cfg->backend = IL_BACKEND_AUTO;
    else if (!strcmp(v, "perf"))
        cfg->backend = IL_BACKEND_PERF;
    else if (!strcmp(v, "papi"))
        cfg->backend = IL_BACKEND_PAPI;
    else if (!strcmp(v, "none"))
        cfg->backend = IL_BACKEND_NONE;
    else
        add_error(cfg, var, v, "unknown backend; expected auto, perf, papi or none%s", NULL);
}

static void
parse_output(struct il_config *cfg, const char *var, const char *v)
{
    char probe[IL_PATH_MAX];
    int rc;
    /* the names of descriptor 2 are stderr as "-" is: the file it was at
     * the constructor, not whatever the program has put at 2 since
     * (review13c M2; sigsafe.c, il_stderr_fd) */
    if (!strcmp(v, "-") || !strcmp(v, "/dev/stderr") || !strcmp(v, "/dev/fd/2") ||
        !strcmp(v, "/proc/self/fd/2")) {
        cfg->output_stderr = 1;
        strcpy(cfg->output, "-");
    } else if ((rc = il_expand_output(v, 1, probe, sizeof probe)) < 0 ||
               strlen(v) >= sizeof cfg->output - 24) {
        /* the record goes where the user will look: stderr */
        add_error(cfg, var, v,
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

static void
parse_stack_offset(struct il_config *cfg, const char *var, const char *v)
{
    unsigned long long n;
    int rc = il_parse_size(v, IL_STACK_OFFSET_MAX, &n);
    if (rc < 0) {
        add_error(cfg, var, v,
                  rc == IL_ERANGE ? "too large; expected at most 64M bytes%s"
                                  : "not a byte count; expected a number of bytes such as "
                                    "4096, 0x1000 or 4k (applied in 16-byte steps)%s",
                  NULL);
        return;
    }
    cfg->stack_offset_req = (unsigned long)n;
    cfg->stack_offset = (unsigned long)n & ~15UL;
    cfg->stack_offset_text = v;
}

static void
parse_stack_pin(struct il_config *cfg, const char *var, const char *v)
{
    unsigned long long n;
    size_t o = 0;
    put_cut(cfg->pin_text, sizeof cfg->pin_text, &o, v, sizeof cfg->pin_text - 4);
    if (!strcmp(v, "auto")) {
        cfg->stack_pin = IL_PIN_AUTO;
    } else if (!strcmp(v, "none")) {
        cfg->stack_pin = IL_PIN_NONE; /* interloper run's "no pin", same width as auto */
    } else if (il_parse_size(v, (1ULL << 56), &n) < 0 || n == 0) {
        add_error(cfg, var, v,
                  "not an address; expected auto, none or a stack address such as "
                  "0x7fffffffd000%s",
                  NULL);
    } else {
        cfg->stack_pin = IL_PIN_ADDR;
        cfg->stack_pin_addr = (uintptr_t)n;
    }
}

static void
parse_heap_offset(struct il_config *cfg, const char *var, const char *v)
{
    unsigned long long n;
    int rc = il_parse_size(v, IL_HEAP_OFFSET_MAX, &n);
    if (rc < 0)
        add_error(cfg, var, v,
                  rc == IL_ERANGE ? "too large; expected at most 1G bytes%s"
                                  : "not a byte count; expected a number of bytes such as "
                                    "4096, 0x1000 or 4k%s",
                  NULL);
    else
        cfg->heap_offset = (unsigned long)n, cfg->heap_offset_text = v;
}

static void
parse_inherit(struct il_config *cfg, const char *var, const char *v)
{
    if (!strcmp(v, "all") || !strcmp(v, "1"))
        cfg->inherit = IL_INHERIT_ALL;
    else if (!strcmp(v, "threads"))
        cfg->inherit = IL_INHERIT_THREADS;
    else if (!strcmp(v, "none") || !strcmp(v, "0"))
        cfg->inherit = IL_INHERIT_NONE;
    else
        add_error(cfg, var, v,
                  "unknown mode; expected all (children count into this record), threads "
                  "or none (every forked child writes its own record)%s",
                  NULL);
}

static void
parse_run(struct il_config *cfg, const char *var, const char *v)
{
    if (v[0] != '/' || strlen(v) >= sizeof cfg->run_spec)
        add_error(cfg, var, v,
                  "not an absolute path; expected the spec file interloper run wrote; the "
                  "record goes to INTERLOPER_OUTPUT, without labels%s",
                  NULL);
    else
        strcpy(cfg->run_spec, v);
}

static void
parse_strict(struct il_config *cfg, const char *var, const char *v)
{
    cfg->strict = parse_bool(cfg, var, v);
}

static void
parse_debug(struct il_config *cfg, const char *var, const char *v)
{
    cfg->debug = parse_bool(cfg, var, v);
}

static void
parse_quiet(struct il_config *cfg, const char *var, const char *v)
{
    cfg->quiet = parse_bool(cfg, var, v);
}

#define VAR_KEY(n, c) ((unsigned)(n) << 8 | (unsigned char)(c))

/*
 * Every variable, in the order their problems are reported.  A variable
 * with no parser is one the interloper command or its tools set for
 * their own use: known, so not reported, and not read here.  A variable
 * set but empty is as good as unset.
 */
/* the parsers, by number: the table holds no pointer for the loader to
 * relocate in every process */
#define IL_PARSERS(X)                                                                              \
    X(EVENTS, parse_events)                                                                        \
    X(BACKEND, parse_backend)                                                                      \
    X(OUTPUT, parse_output)                                                                        \
    X(STACK_OFFSET, parse_stack_offset)                                                            \
    X(STACK_PIN, parse_stack_pin)                                                                  \
    X(HEAP_OFFSET, parse_heap_offset)                                                              \
    X(INHERIT, parse_inherit)                                                                      \
    X(RUN, parse_run)                                                                              \
    X(STRICT, parse_strict)                                                                        \
    X(DEBUG, parse_debug)                                                                          \
    X(QUIET, parse_quiet)
#define P_ENUM(k, fn) P_##k,
enum { P_NONE, IL_PARSERS(P_ENUM) };
#undef P_ENUM

static const struct il_var {
    char name[24];
    unsigned key;         /* VAR_KEY: the name's length and its first byte after the prefix */
    unsigned char parser; /* P_*: parse_var() calls it */
} il_vars[] = {
#define VAR(name, parser)                                                                          \
    {                                                                                              \
        name, VAR_KEY(sizeof name - 1, name[sizeof IL_V_PREFIX - 1]) + IL_FITS(name, 24), parser   \
    }
    VAR(IL_V_EVENTS, P_EVENTS),
    VAR(IL_V_BACKEND, P_BACKEND),
    VAR(IL_V_OUTPUT, P_OUTPUT),
    VAR(IL_V_STACK_OFFSET, P_STACK_OFFSET),
    VAR(IL_V_STACK_PIN, P_STACK_PIN),
    VAR(IL_V_HEAP_OFFSET, P_HEAP_OFFSET),
    VAR(IL_V_INHERIT, P_INHERIT),
    VAR(IL_V_RUN, P_RUN),
    VAR(IL_V_STRICT, P_STRICT),
    VAR(IL_V_DEBUG, P_DEBUG),
    VAR(IL_V_QUIET, P_QUIET),
    VAR(IL_V_PAD, P_NONE),
    VAR(IL_V_LIBRARY, P_NONE),
    VAR(IL_V_LIBEXEC, P_NONE),
    VAR(IL_V_FRONT, P_NONE),
    VAR(IL_V_UNDERSCORE, P_NONE),
    VAR(IL_V_CC, P_NONE),
    VAR(IL_V_CC_LINKS, P_NONE),
    VAR(IL_V_CC_ACTIVE, P_NONE),
#undef VAR
};

/* v's parser on value */
static void
parse_var(const struct il_var *v, struct il_config *cfg, const char *value)
{
    switch (v->parser) {
#define P_CASE(k, fn)                                                                              \
    case P_##k:                                                                                    \
        fn(cfg, v->name, value);                                                                   \
        break;
        IL_PARSERS(P_CASE)
#undef P_CASE
    }
}
#define IL_NVARS (sizeof il_vars / sizeof il_vars[0])

/* The table's entry for the name of s, n bytes long (up to its '='), or
 * NULL.  One compare per entry (length and first byte after the common
 * prefix), then only what follows the prefix. */
static const struct il_var *
find_var(const char *s, size_t n)
{
    unsigned key = VAR_KEY(n, s[sizeof IL_V_PREFIX - 1]);
    for (size_t i = 0; i < IL_NVARS; i++)
        if (il_vars[i].key == key &&
            il_same_bytes(s + sizeof IL_V_PREFIX - 1, il_vars[i].name + sizeof IL_V_PREFIX - 1,
                          n - (sizeof IL_V_PREFIX - 1)))
            return &il_vars[i];
    return NULL;
}

/* A misspelt variable would otherwise be silently ignored. */
static void
unknown_var(struct il_config *cfg, const char *s, size_t len)
{
    char name[64], expected[IL_ERROR_MAX];
    size_t nl = len < 63 ? len : 63, o = 0;
    memcpy(name, s, nl);
    name[nl] = 0;
    /* "expected one of INTERLOPER_EVENTS, _BACKEND, ..., _RUN": the
     * variables the library reads, from the table */
    put_cut(expected, sizeof expected, &o, "unknown variable; expected one of ", 64);
    for (size_t i = 0, k = 0; i < IL_NVARS; i++) {
        if (il_vars[i].parser == P_NONE)
            continue;
        if (k++)
            put_cut(expected, sizeof expected, &o, ", ", 2);
        put_cut(expected, sizeof expected, &o,
                il_vars[i].name + (k > 1 ? sizeof IL_V_PREFIX - 2 : 0), 64);
    }
    put_cut(expected, sizeof expected, &o, "%s", 2);
    add_error(cfg, name, s[len] == '=' ? s + len + 1 : "", expected, NULL);
}

/* Does s start with INTERLOPER_?  Its first byte first: most do not. */
static int
is_ours(const char *s)
{
    if (s[0] != 'I')
        return 0;
    for (size_t i = 1; i < sizeof IL_V_PREFIX - 1; i++) /* stops at s's end: no NUL in it */
        if (s[i] != IL_V_PREFIX[i])
            return 0;
    return 1;
}

static size_t
name_len(const char *s)
{
    const char *eq = strchr(s, '=');
    return eq ? (size_t)(eq - s) : strlen(s);
}

int
il_config_parse(struct il_config *cfg, const char *(*getenv_fn)(const char *), char *const *env)
{
    const char *val[IL_NVARS] = {0};
    int unknown = 0;

    /* Only the scalars: the buffers are large, and this runs in every
     * measured process. */
    memset(cfg, 0, offsetof(struct il_config, pin_text));
    cfg->events_buf[0] = 0;
    cfg->run_spec[0] = 0;
    cfg->pin_text[0] = 0;
    cfg->events_default = 1;
    cfg->backend = IL_BACKEND_AUTO;
    cfg->inherit = IL_INHERIT_ALL;
    strcpy(cfg->output, IL_DEFAULT_OUTPUT);

    /* One pass over the environment finds every INTERLOPER_ variable (the
     * first of a name, as getenv would) and notes the unknown ones; a
     * getenv_fn (the tests, the tools) is asked for each name instead. */
    for (char *const *e = env; e && *e; e++) {
        if (!is_ours(*e))
            continue;
        size_t n = name_len(*e);
        const struct il_var *v = find_var(*e, n);
        if (!v)
            unknown++;
        else if (!getenv_fn && (*e)[n] == '=' && !val[v - il_vars])
            val[v - il_vars] = *e + n + 1;
    }
    for (size_t i = 0; i < IL_NVARS; i++) {
        if (il_vars[i].parser == P_NONE)
            continue;
        const char *v = getenv_fn ? getenv_fn(il_vars[i].name) : val[i];
        if (v && *v)
            parse_var(&il_vars[i], cfg, v);
    }
    for (char *const *e = env; unknown && e && *e; e++)
        if (is_ours(*e) && !find_var(*e, name_len(*e)))
            unknown_var(cfg, *e, name_len(*e)), unknown--;
    return cfg->nerrors;
}

/*
 * One setting from a run spec's "set" line (run_spec.c), "INTERLOPER_X=value"
 * as the variable would say it, read by the same table and parsers as the
 * environment, after it: a driver's per-run settings travel in the spec, so
 * that the measured program's environment holds none of them (DESIGN.md,
 * "Labels").  An unknown name, or one the spec cannot set (INTERLOPER_RUN
 * itself), is one message, as an unknown variable is.
 */
void
il_config_set(struct il_config *cfg, const char *kv)
{
    size_t n = name_len(kv);
    const struct il_var *v = is_ours(kv) && n >= sizeof IL_V_PREFIX ? find_var(kv, n) : NULL;
    if (!v) {
        /* interloper run writes only names its library reads: one it
         * does not know is a library older than the command (another
         * build's, through INTERLOPER_LIBRARY; review11c) */
        char name[64];
        size_t nl = n < 63 ? n : 63;
        memcpy(name, kv, nl);
        name[nl] = 0;
        add_error(cfg, name, kv[n] == '=' ? kv + n + 1 : "",
                  "in the run spec, a setting this library does not know: it is older than the "
                  "interloper command that wrote the spec; expected the library of that build "
                  "(INTERLOPER_LIBRARY)%s",
                  NULL);
        return;
    }
    if (v->parser == P_NONE || v->parser == P_RUN) {
        unknown_var(cfg, kv, n);
        return;
    }
    if (kv[n] != '=')
        il_config_error(cfg, v->name, kv + n,
                        "no = in the run spec's set line; expected NAME=value");
    else if (kv[n + 1]) { /* empty: unset, as an empty variable is */
        parse_var(v, cfg, kv + n + 1);
        /* the drivers' option of that name: what its problem is told as */
        if (v->parser == P_EVENTS)
            cfg->events_spec = 1;
        else if (v->parser == P_BACKEND)
            cfg->backend_spec = 1;
        else if (v->parser == P_STACK_OFFSET)
            cfg->stack_offset_spec = 1;
        else if (v->parser == P_STACK_PIN)
            cfg->stack_pin_spec = 1;
        else if (v->parser == P_HEAP_OFFSET)
            cfg->heap_offset_spec = 1;
        else if (v->parser == P_STRICT)
            cfg->strict_spec = 1;
    }
}
