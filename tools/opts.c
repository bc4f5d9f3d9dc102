/*
 * opts.c: the options of a run's setup that interloper run and interloper
 * sweep share, each parsed here once.  Values that become INTERLOPER_*
 * variables are checked by the library's own parser, il_config_parse(), so
 * that a value is accepted or refused, with the same words, whichever reads
 * it first.
 */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "il_resolve.h"
#include "il_tools.h"

void
il_common_init(struct il_common *c)
{
    memset(c, 0, sizeof *c);
}

/* ------------------------------------------------------------ the library's rules */

static const char *fake_var, *fake_val;

static const char *
fake_getenv(const char *name)
{
    return fake_var && !strcmp(name, fake_var) ? fake_val : NULL;
}

void
il_check_var(const struct il_optp *p, const char *var, const char *value, struct il_config *cfg)
{
    fake_var = var;
    fake_val = value;
    int n = il_config_parse(cfg, fake_getenv, NULL);
    fake_var = fake_val = NULL;
    if (!n)
        return;
    /* The message is "VAR=value: what"; the value is shown up to 80 bytes,
     * then "...".  Say it of the option instead. */
    const char *msg = cfg->errors[0];
    size_t shown = strlen(value) > 80 ? 83 : strlen(value);
    size_t skip = strlen(var) + 1 + shown;
    if (strlen(msg) > skip + 2 && !strncmp(msg + skip, ": ", 2))
        msg += skip + 2;
    il_opt_bad(p, value, "%s", msg);
}

unsigned long long
il_arg_stack_offset(const struct il_optp *p, const char *v)
{
    struct il_config cfg;
    il_check_var(p, IL_V_STACK_OFFSET, v, &cfg);
    if (cfg.stack_offset_req % 16)
        il_opt_bad(p, v, "expected a multiple of 16 (the stack moves in 16-byte steps)");
    return cfg.stack_offset_req;
}

unsigned long long
il_arg_heap_offset(const struct il_optp *p, const char *v)
{
    struct il_config cfg;
    il_check_var(p, IL_V_HEAP_OFFSET, v, &cfg);
    return cfg.heap_offset;
}

/* a byte count up to max, or one line that says why (too, then the
 * limit) */
static unsigned long long
env_bytes(const struct il_optp *p, const char *v, unsigned long long max, const char *too)
{
    unsigned long long n;
    int rc = il_parse_size(v, max, &n);
    if (rc == IL_ERANGE)
        il_opt_bad(p, v, "%s; expected at most %llu", too, max);
    if (rc < 0)
        il_opt_bad(p, v, "not a byte count; expected a number such as 4096, 0x1000 or 4k");
    return n;
}

unsigned long long
il_arg_env_bytes(const struct il_optp *p, const char *v)
{
    return env_bytes(p, v, IL_ENV_MAX, "too large");
}

unsigned long long
il_arg_env_add(const struct il_optp *p, const char *v)
{
    return env_bytes(p, v, IL_PAD_MAX, "above the kernel's limit for one variable");
}

int
il_is_pin_word(const char *v)
{
    return !strcmp(v, "auto") || !strncmp(v, "0x", 2) || !strncmp(v, "0X", 2);
}

enum il_pinmode
il_arg_pin(const struct il_optp *p, const char *v, uintptr_t *addr)
{
    if (!v || !strcmp(v, "auto"))
        return IL_PINMODE_AUTO;
    struct il_config cfg;
    if (strncmp(v, "0x", 2) && strncmp(v, "0X", 2))
        il_opt_bad(p, v, "not an address; expected auto or a hex address such as 0x7fffffffd000");
    il_check_var(p, IL_V_STACK_PIN, v, &cfg);
    *addr = cfg.stack_pin_addr;
    return IL_PINMODE_ADDR;
}

/* ------------------------------------------------------------ labels, CPUs */

int
il_label_key_ok(const char *k)
{
    if (!*k)
        return 0;
    for (const char *p = k; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '_' || *p == '-' || *p == '.'))
            return 0;
    return 1;
}

const char *
il_label_get(const struct il_common *c, const char *key)
{
    for (size_t i = 0; i < c->nlabels; i++)
        if (!strcmp(c->labels[i].key, key))
            return c->labels[i].value;
    return NULL;
}

static void
add_label(const struct il_optp *p, struct il_common *c, const char *v)
{
    const char *eq = strchr(v, '=');
    if (!eq)
        il_opt_bad(p, v, "expected KEY=VALUE");
    char *key = il_xstrdup(v);
    key[eq - v] = 0;
    if (!il_label_key_ok(key))
        il_opt_bad(p, v, "the key must be letters, digits, '_', '-' or '.'");
    if (strchr(eq + 1, '\n') || !il_utf8_ok(eq + 1))
        il_opt_bad(p, v, "expected a value of one line of UTF-8 text");
    if (il_label_get(c, key))
        il_opt_bad(p, v, "the key %s is given twice", key);
    c->labels = il_xrealloc(c->labels, (c->nlabels + 1) * sizeof *c->labels);
    c->labels[c->nlabels].key = key;
    c->labels[c->nlabels].value = eq + 1;
    c->nlabels++;
}

int
il_parse_cpus(const char *s, cpu_set_t *set, char *canon, size_t canonsz, const char **why)
{
    CPU_ZERO(set);
    const char *p = s;
    if (!*p) {
        *why = "an empty list";
        return -1;
    }
    while (*p) {
        char *end;
        if (*p < '0' || *p > '9') {
            *why = "not a CPU list";
            return -1;
        }
        unsigned long lo = strtoul(p, &end, 10), hi = lo;
        p = end;
        if (*p == '-') {
            p++;
            if (*p < '0' || *p > '9') {
                *why = "not a CPU list";
                return -1;
            }
            hi = strtoul(p, &end, 10);
            p = end;
        }
        if (hi < lo || hi >= CPU_SETSIZE) {
            *why = hi < lo ? "a range that goes down" : "a CPU number beyond the kernel's limit";
            return -1;
        }
        for (unsigned long c = lo; c <= hi; c++)
            CPU_SET(c, set);
        if (*p == ',')
            p++;
        else if (*p) {
            *why = "not a CPU list";
            return -1;
        }
    }
    /* the canonical form: ascending ranges */
    size_t o = 0;
    canon[0] = 0;
    for (int c = 0; c < CPU_SETSIZE; c++) {
        if (!CPU_ISSET(c, set))
            continue;
        int e = c;
        while (e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, set))
            e++;
        int n = e > c ? snprintf(canon + o, canonsz - o, "%s%d-%d", o ? "," : "", c, e)
                      : snprintf(canon + o, canonsz - o, "%s%d", o ? "," : "", c);
        if (n < 0 || (size_t)n >= canonsz - o) {
            *why = "too long a list";
            return -1;
        }
        o += (size_t)n;
        c = e;
    }
    return 0;
}

double
il_arg_seconds(const struct il_optp *p, const char *v, int zero_ok, double max,
               const char *expected)
{
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    double unit = !*end || !strcmp(end, "s") ? 1
                  : !strcmp(end, "m")        ? 60
                  : !strcmp(end, "h")        ? 3600
                                             : 0;
    if (end == v || errno || !unit || !(zero_ok ? x >= 0 : x > 0) || x * unit > max)
        il_opt_bad(p, v, "%s", expected);
    return x * unit;
}

unsigned long long *
il_env_pads(void)
{
    static unsigned long long pads[IL_ENV_PADS];
    for (size_t i = 0; i < IL_ENV_PADS; i++)
        pads[i] = 16 * i;
    return pads;
}

unsigned long long
il_arg_count(const struct il_optp *p, const char *v, unsigned long long lo, unsigned long long hi)
{
    char *end;
    errno = 0;
    unsigned long long n = strtoull(v, &end, 10);
    if (!*v || *end || errno || v[0] == '-' || v[0] == '+' || n < lo || n > hi)
        il_opt_bad(p, v, "expected a whole number from %llu to %llu", lo, hi);
    return n;
}

/* ------------------------------------------------------------ the shared options */

const struct il_opt il_setup_opts[] = {
    {"events", 'e', IL_OPT_VALUE, "LIST", "events (INTERLOPER_EVENTS), e.g. cycles,instructions",
     IL_O_EVENTS},
    {"backend", 0, IL_OPT_VALUE, "auto|perf|papi|none", "the counter backend (INTERLOPER_BACKEND)",
     IL_O_BACKEND},
    {"env-clean", 0, IL_OPT_FLAG, NULL, "start from a minimal environment: PATH and HOME only",
     IL_O_ENV_CLEAN},
    {"keep", 0, IL_OPT_VALUE, "NAME", "with --env-clean, keep NAME too (repeatable)", IL_O_KEEP},
    {"cpu", 0, IL_OPT_VALUE, "LIST", "run on these CPUs only, e.g. 2 or 0-3,6", IL_O_CPU},
    {"label", 0, IL_OPT_VALUE, "KEY=VALUE",
     "label the records (repeatable); never passed to the program", IL_O_LABEL},
    {0},
};

void
il_common_check(const struct il_common *c)
{
    if (c->nkeep && !c->env_clean)
        errx(1, "--keep only matters with --env-clean; add --env-clean or drop --keep");
    /* the library ignores the events under none, and says so in every
     * run, a stop under --strict (review11d) */
    if (c->events && c->backend && !strcmp(c->backend, "none"))
        errx(1, "--events %s: the none backend counts no event, so it would ignore them; drop "
                "--events or --backend none",
             c->events);
}

int
il_common_option(struct il_optp *p, struct il_common *c)
{
    const char *v = p->val;
    struct il_config cfg;
    switch (p->opt->id) {
    case IL_O_ENV_CLEAN:
        c->env_clean = 1;
        break;
    case IL_O_KEEP:
        if (!*v || strchr(v, '=') || !il_label_key_ok(v) || strchr(v, '.') || strchr(v, '-'))
            il_opt_bad(p, v, "expected a variable name");
        c->keep = il_xrealloc(c->keep, (c->nkeep + 1) * sizeof *c->keep);
        c->keep[c->nkeep++] = v;
        break;
    case IL_O_EVENTS: {
        il_check_var(p, IL_V_EVENTS, v, &cfg);
        char *e = il_xstrdup(v); /* as the library records them (il_event_fold) */
        il_events_fold(e, ',');
        c->events = e;
        break;
    }
    case IL_O_BACKEND:
        il_check_var(p, IL_V_BACKEND, v, &cfg);
        c->backend = v;
        break;
    case IL_O_STRICT:
    case IL_O_NO_STRICT:
        c->strict = p->opt->id == IL_O_STRICT;
        break;
    case IL_O_ASLR:
        if (strcmp(v, "on") && strcmp(v, "off"))
            il_opt_bad(p, v, "expected on or off");
        c->aslr = !strcmp(v, "on");
        break;
    case IL_O_CPU: {
        const char *why;
        if (il_parse_cpus(v, &c->cpus, c->cpus_text, sizeof c->cpus_text, &why) < 0)
            il_opt_bad(p, v, "%s; expected CPU numbers and ranges such as 0-3,6", why);
        cpu_set_t mine;
        if (sched_getaffinity(0, sizeof mine, &mine) == 0) {
            CPU_AND(&mine, &mine, &c->cpus);
            if (CPU_COUNT(&mine) != CPU_COUNT(&c->cpus))
                il_opt_bad(p, v,
                           "not all of these CPUs are online and allowed here; expected "
                           "some of those sched_getaffinity gives (see nproc, taskset -p $$)");
        }
        c->have_cpus = 1;
        break;
    }
    case IL_O_LABEL:
        add_label(p, c, v);
        break;
    case IL_O_OUTPUT:
        if (!*v)
            il_opt_bad(p, v, "expected a file name");
        c->output = v;
        break;
    case IL_O_QUIET:
        c->quiet = 1;
        break;
    case IL_O_DRY:
        c->dry = 1;
        break;
    default:
        return 0;
    }
    return 1;
}
