/*
 * meta.c: the sweep's own lines in a results file (schema
 * interloper-sweep/1), so that one file says which experiment it belongs
 * to, and can be resumed and merged.
 *
 * The plan's identity is what defines the experiment: the generator, the
 * seed, the systems and their binaries' SHA-256, the program's arguments
 * and input, the factor lists, and what the runs are measured with.  Not
 * how far it has run: more repetitions, more setups (--setups, --until) or
 * warm-up runs extend the same plan.  The plan's id is the first 12 hex
 * digits of the SHA-256 of the identity, printed as compact JSON, keys in
 * the order written here; the identity is in the plan line, so the id can
 * be checked without interloper.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "il_version.h" /* generated from VERSION (Makefile) */
#include "sweep.h"

#define K_GENERATOR "generator"
#define K_SEED "seed"
#define K_BENCH "bench"
#define K_SYSTEMS "systems"
#define K_NAME "name"
#define K_SHA256 "sha256"
#define K_ARGS "args"
#define K_INPUT "input_sha256"
#define K_FACTORS "factors"
#define K_LAYOUT_KIND "layout_kind"
#define K_ASLR "aslr"
#define K_ENV_CLEAN "env_clean"
#define K_KEEP "keep"
#define K_EVENTS "events"
#define K_BACKEND "backend"
#define K_STRICT "strict"
#define K_CPUS "cpus"
#define K_LABELS "labels"
#define K_OUTPUT_CHECK "output_check"
#define K_SETUPS "setups"
#define K_SETUPS_TOTAL "setups_total"
#define K_REPS "reps"
#define K_WARMUP "warmup"
#define K_RUNS "runs"

static json_t *
str(const char *s)
{
    if (!s)
        return json_null();
    char *fixed = il_utf8_ok(s) ? NULL : il_utf8_fix(s);
    json_t *j = json_string(fixed ? fixed : s);
    free(fixed);
    return j;
}

static json_t *
numbers(const unsigned long long *v, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, json_integer((json_int_t)v[i]));
    return a;
}

json_t *
il_meta_identity(const struct il_sweep *s)
{
    const struct il_design *d = &s->d;
    json_t *id = json_object();
    json_object_set_new(id, K_GENERATOR, json_string(il_plan_cycles(d) ? IL_PLAN_GENERATOR_CYCLES
                                                                        : IL_PLAN_GENERATOR));
    json_object_set_new(id, K_SEED, json_integer(d->seed));
    json_object_set_new(id, K_BENCH, str(s->bench));
    /* a run's success is part of the plan where it is not status 0: a
     * file judged by another status is not resumed, whose failed runs'
     * records would stay beside their retries (review13e HIGH-1) */
    if (s->expect_status)
        json_object_set_new(id, "expect_status", json_integer(s->expect_status));
    json_t *sys = json_array();
    for (size_t k = 0; k < s->nsys; k++) {
        json_t *y = json_object(), *h = json_array();
        json_object_set_new(y, K_NAME, str(s->sys[k].name));
        for (size_t i = 0; i < (d->nlay ? d->nlay : 1); i++)
            json_array_append_new(h, json_string(s->sys[k].sha256[i]));
        json_object_set_new(y, K_SHA256, h);
        json_array_append_new(sys, y);
    }
    json_object_set_new(id, K_SYSTEMS, sys);
    json_t *args = json_array();
    for (size_t i = 0; i < s->nargs; i++)
        json_array_append_new(args, str(s->args[i]));
    json_object_set_new(id, K_ARGS, args);
    json_object_set_new(id, K_INPUT, s->input ? json_string(s->input_sha) : json_null());
    json_t *f = json_object();
    json_object_set_new(f, IL_L_ENV_ADD, numbers(d->env, d->nenv));
    json_t *lay = json_array();
    for (size_t i = 0; i < d->nlay; i++)
        json_array_append_new(lay, str(d->lay[i]));
    json_object_set_new(f, IL_L_LAYOUT, d->nlay ? lay : (json_decref(lay), json_null()));
    json_object_set_new(f, IL_L_STACK_OFFSET, numbers(d->stack, d->nstack));
    json_object_set_new(f, IL_L_HEAP_OFFSET, numbers(d->heap, d->nheap));
    char pin[32];
    if (s->pin == IL_PINMODE_ADDR)
        snprintf(pin, sizeof pin, "0x%016llx", (unsigned long long)s->pin_addr);
    else
        snprintf(pin, sizeof pin, "%s", s->pin == IL_PINMODE_AUTO ? "auto" : "none");
    json_object_set_new(f, IL_L_PIN, d->pin_factor ? json_string("both") : json_string(pin));
    json_object_set_new(f, K_ASLR, json_string(d->aslr ? "on" : "off"));
    json_object_set_new(id, K_FACTORS, f);
    json_object_set_new(id, K_ENV_CLEAN, json_boolean(s->c.env_clean));
    json_t *keep = json_array();
    for (size_t i = 0; i < s->c.nkeep; i++)
        json_array_append_new(keep, str(s->c.keep[i]));
    json_object_set_new(id, K_KEEP, keep);
    json_object_set_new(id, K_EVENTS, str(s->c.events));
    json_object_set_new(id, K_BACKEND, str(s->c.backend));
    json_object_set_new(id, K_STRICT, json_boolean(s->c.strict));
    json_object_set_new(id, K_CPUS, s->c.have_cpus ? str(s->c.cpus_text) : json_null());
    json_t *labels = json_object();
    for (size_t i = 0; i < s->c.nlabels; i++)
        json_object_set_new(labels, s->c.labels[i].key, str(s->c.labels[i].value));
    json_object_set_new(id, K_LABELS, labels);
    json_object_set_new(id, K_OUTPUT_CHECK,
                        !s->check_output ? json_string("off")
                        : s->expect      ? json_string(s->expect_sha)
                                         : json_string("same"));
    return id;
}

void
il_meta_plan_id(json_t *identity, char id[16])
{
    char *text = json_dumps(identity, JSON_COMPACT | JSON_PRESERVE_ORDER);
    char hex[65];
    if (!text)
        errx(1, "out of memory");
    il_sha256_hex(text, strlen(text), hex);
    free(text);
    memcpy(id, hex, 12);
    id[12] = 0;
}

int
il_meta_older_draw(json_t *plan_line, const char *id)
{
    json_t *identity = json_object_get(plan_line, IL_M_IDENTITY);
    const char *gen = json_string_value(json_object_get(identity, K_GENERATOR));
    if (!gen || strcmp(gen, IL_PLAN_GENERATOR))
        return 0;
    json_t *now = json_deep_copy(identity);
    char was[16];
    json_object_set_new(now, K_GENERATOR, json_string(IL_PLAN_GENERATOR_CYCLES));
    il_meta_plan_id(now, was);
    json_decref(now);
    return !strcmp(was, id);
}

json_t *
il_meta_line(const char *kind, const char *id)
{
    char now[32];
    json_t *l = json_object();
    il_utc_now(now);
    json_object_set_new(l, IL_F_SCHEMA, json_string(IL_SWEEP_SCHEMA));
    json_object_set_new(l, IL_M_KIND, json_string(kind));
    json_object_set_new(l, IL_M_PLAN, json_string(id));
    json_object_set_new(l, IL_M_TIME, json_string(now));
    return l;
}

json_t *
il_meta_plan_line(const struct il_sweep *s, json_t *identity, const char *id,
                  const struct il_plan *p)
{
    const struct il_design *d = &s->d;
    json_t *l = il_meta_line(IL_M_KIND_PLAN, id);
    json_object_set_new(l, IL_F_VERSION, json_string(IL_VERSION));
    json_object_set(l, IL_M_IDENTITY, identity);
    json_t *x = json_object();
    size_t k = il_plan_batch_end(p, 0);
    json_object_set_new(x, K_SETUPS, json_integer((json_int_t)k));
    json_object_set_new(x, K_SETUPS_TOTAL, json_integer((json_int_t)p->n));
    json_object_set_new(x, K_REPS, json_integer(d->reps));
    json_object_set_new(x, K_WARMUP, json_integer(d->warmup));
    json_object_set_new(x, K_RUNS,
                        json_integer((json_int_t)(k * p->ncell * ((size_t)d->reps + d->warmup))));
    json_object_set_new(l, IL_M_EXTENT, x);
    if (s->env_base)
        json_object_set_new(l, IL_M_ENV_BASE, json_integer((json_int_t)s->env_base));
    if (s->env_vars)
        json_object_set_new(l, IL_M_ENV_VARS, json_integer((json_int_t)s->env_vars));
    if (s->shard_n) {
        char sh[32];
        snprintf(sh, sizeof sh, "%u/%u", s->shard_i, s->shard_n);
        json_object_set_new(l, IL_M_SHARD, json_string(sh));
    }
    /* where the binaries were, each one's kind, and how they were linked */
    json_t *sys = json_array();
    for (size_t i = 0; i < s->nsys; i++) {
        json_t *y = json_object(), *bins = json_array();
        json_object_set_new(y, K_NAME, str(s->sys[i].name));
        json_object_set_new(y, "program", str(s->sys[i].tmpl));
        for (size_t j = 0; j < (d->nlay ? d->nlay : 1); j++) {
            json_t *b = json_object();
            if (d->nlay)
                json_object_set_new(b, IL_L_LAYOUT, str(d->lay[j]));
            json_object_set_new(b, "file", str(s->sys[i].path[j]));
            json_object_set_new(b, K_SHA256, json_string(s->sys[i].sha256[j]));
            if (s->sys[i].kind[j])
                json_object_set_new(b, IL_L_LAYOUT_KIND, str(s->sys[i].kind[j]));
            if (s->sys[i].order && s->sys[i].order[j])
                json_object_set(b, IL_M_ORDER, s->sys[i].order[j]);
            json_array_append_new(bins, b);
        }
        json_object_set_new(y, "binaries", bins);
        if (s->sys[i].link)
            json_object_set(y, "link", s->sys[i].link);
        json_array_append_new(sys, y);
    }
    json_object_set_new(l, IL_M_SYSTEMS, sys);
    /* the command as typed, compare's as compare's (s->me, "interloper
     * compare" or "interloper sweep"), so that it replays */
    json_t *cmd = json_pack("[s,s]", "interloper", strrchr(s->me, ' ') + 1);
    for (int i = 1; i < s->argc; i++)
        json_array_append_new(cmd, str(s->argv[i]));
    json_object_set_new(l, IL_M_COMMAND, cmd);
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    json_object_set_new(l, IL_F_HOST, str(host));
    return l;
}

void
il_meta_env_fixed(struct il_sweep *s, const char *path, unsigned long long base,
                  unsigned long long vars)
{
    if (s->env_base_given && s->env_base != base)
        errx(1,
             "--env-base %llu: %s's plan line fixes the base at %llu bytes; the runs of one "
             "plan must have one environment size: give --env-base %llu or another --output",
             s->env_base, path, base, base);
    if (s->env_vars_given && vars && s->env_vars != vars)
        errx(1,
             "--env-vars %llu: %s's plan line fixes %llu variables; the runs of one plan must "
             "have one environment: give --env-vars %llu or another --output",
             s->env_vars, path, vars, vars);
    if (!s->env_base_given)
        s->env_base = base;
    if (!s->env_vars_given)
        s->env_vars = vars;
}

void
il_meta_write(int fd, const char *path, json_t *line)
{
    char *text = json_dumps(line, JSON_COMPACT | JSON_PRESERVE_ORDER);
    if (!text)
        errx(1, "out of memory");
    size_t n = strlen(text);
    text = il_xrealloc(text, n + 2);
    text[n] = '\n';
    if (il_write_full(fd, text, n + 1) < 0)
        err(1, "cannot write to %s", path);
    free(text);
}

/* ------------------------------------------------------------ the design back */

static unsigned long long *
numbers_back(json_t *a, size_t *n)
{
    *n = json_array_size(a);
    unsigned long long *v = il_xcalloc(*n ? *n : 1, sizeof *v);
    for (size_t i = 0; i < *n; i++)
        v[i] = (unsigned long long)json_integer_value(json_array_get(a, i));
    return v;
}

int
il_meta_design(json_t *plan, struct il_design *d, const char **why)
{
    json_t *id = json_object_get(plan, IL_M_IDENTITY), *x = json_object_get(plan, IL_M_EXTENT);
    json_t *f = json_object_get(id, K_FACTORS), *sys = json_object_get(id, K_SYSTEMS);
    memset(d, 0, sizeof *d);
    if (!json_is_object(f) || !json_is_array(sys) || !json_is_object(x) ||
        !json_is_integer(json_object_get(id, K_SEED))) {
        *why = "a plan line without identity.factors, identity.systems, identity.seed or extent";
        return -1;
    }
    d->seed = (uint32_t)json_integer_value(json_object_get(id, K_SEED));
    d->nsys = json_array_size(sys);
    d->sys = il_xcalloc(d->nsys ? d->nsys : 1, sizeof *d->sys);
    for (size_t i = 0; i < d->nsys; i++)
        d->sys[i] = json_string_value(json_object_get(json_array_get(sys, i), K_NAME));
    d->env = numbers_back(json_object_get(f, IL_L_ENV_ADD), &d->nenv);
    d->stack = numbers_back(json_object_get(f, IL_L_STACK_OFFSET), &d->nstack);
    d->heap = numbers_back(json_object_get(f, IL_L_HEAP_OFFSET), &d->nheap);
    json_t *lay = json_object_get(f, IL_L_LAYOUT);
    d->nlay = json_array_size(lay);
    d->lay = il_xcalloc(d->nlay ? d->nlay : 1, sizeof *d->lay);
    for (size_t i = 0; i < d->nlay; i++)
        d->lay[i] = json_string_value(json_array_get(lay, i));
    const char *pin = json_string_value(json_object_get(f, IL_L_PIN));
    d->pin_factor = pin && !strcmp(pin, "both");
    const char *aslr = json_string_value(json_object_get(f, K_ASLR));
    d->aslr = aslr && !strcmp(aslr, "on");
    d->setups = (size_t)json_integer_value(json_object_get(x, K_SETUPS));
    /* an older plan's layouts, sampled from the whole product */
    const char *gen = json_string_value(json_object_get(id, K_GENERATOR));
    d->fy_draw = !gen || strcmp(gen, IL_PLAN_GENERATOR_CYCLES);
    d->reps = (unsigned)json_integer_value(json_object_get(x, K_REPS));
    d->warmup = (unsigned)json_integer_value(json_object_get(x, K_WARMUP));
    for (size_t i = 0; i < d->nsys; i++)
        if (!d->sys[i]) {
            *why = "a system without a name";
            return -1;
        }
    for (size_t i = 0; i < d->nlay; i++)
        if (!d->lay[i]) {
            *why = "a layout id that is not a string";
            return -1;
        }
    if (!d->reps || !d->setups) {
        *why = "an extent without setups or reps";
        return -1;
    }
    return 0;
}

/* The extent of a plan, grown by --until: the setups drawn so far. */
json_t *
il_meta_extent(const char *id, size_t setups, size_t runs)
{
    json_t *l = il_meta_line(IL_M_KIND_EXTENT, id), *x = json_object();
    json_object_set_new(x, K_SETUPS, json_integer((json_int_t)setups));
    json_object_set_new(x, K_RUNS, json_integer((json_int_t)runs));
    json_object_set_new(l, IL_M_EXTENT, x);
    return l;
}

void
il_meta_extent_max(json_t *line, size_t *setups, unsigned *reps, unsigned *warmup)
{
    json_t *x = json_object_get(line, IL_M_EXTENT);
    size_t k = (size_t)json_integer_value(json_object_get(x, K_SETUPS));
    unsigned r = (unsigned)json_integer_value(json_object_get(x, K_REPS)),
             w = (unsigned)json_integer_value(json_object_get(x, K_WARMUP));
    *setups = k > *setups ? k : *setups;
    *reps = r > *reps ? r : *reps;
    *warmup = w > *warmup ? w : *warmup;
}
