/*
 * machfacts.c: the sweep's machine snapshots compared (il_machine.h), for
 * interloper record merge and interloper report alike.  jansson and libc
 * only, so that both programs link it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "il_machine.h"
#include "il_xalloc.h"
#include "interloper.h"

static const char *const facts[] = {IL_F_CPU,  IL_F_KERNEL,     IL_MF_GOVERNOR, IL_MF_BOOST,
                                    IL_MF_SMT, IL_MF_MEM_TOTAL, IL_F_VERSION,   NULL};

/* a fact's value as text: a string, a number, a list of strings */
static void
text(json_t *v, char *out, size_t n)
{
    if (json_is_string(v)) {
        snprintf(out, n, "%s", json_string_value(v));
    } else if (json_is_integer(v)) {
        snprintf(out, n, "%lld", (long long)json_integer_value(v));
    } else {
        char *d = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
        snprintf(out, n, "%s", d ? d : "?");
        free(d);
    }
}

static void
append(char *why, size_t n, const char *fmt, const char *a, const char *b, const char *c)
{
    size_t l = strlen(why);
    if (l + 1 < n)
        snprintf(why + l, n - l, fmt, a, b, c);
}

int
il_machine_differ(json_t *a, json_t *b, char *why, size_t n)
{
    int k = 0;
    why[0] = 0;
    for (const char *const *f = facts; *f; f++) {
        json_t *x = json_object_get(a, *f), *y = json_object_get(b, *f);
        if (!x || !y || json_is_null(x) || json_is_null(y) || json_equal(x, y))
            continue;
        char tx[200], ty[200];
        text(x, tx, sizeof tx);
        text(y, ty, sizeof ty);
        append(why, n, k ? "; %s '%s' and '%s'" : "%s '%s' and '%s'", *f, tx, ty);
        k++;
    }
    return k;
}

static double
load1(json_t *m)
{
    json_t *l = json_array_get(json_object_get(m, IL_MF_LOADAVG), 0);
    return json_is_number(l) ? json_number_value(l) : -1;
}

static char *
dup_str(const char *s)
{
    return il_xstrdup(s ? s : "");
}

void
il_machines_add(struct il_machines *m, json_t *line, const char *where)
{
    const char *kind = json_string_value(json_object_get(line, IL_M_KIND));
    json_t *snap = json_object_get(line, IL_M_MACHINE);
    if (!kind || strcmp(kind, IL_M_KIND_MACHINE) || !json_is_object(snap))
        return;
    const char *host = json_string_value(json_object_get(snap, IL_F_HOST));
    char why[900], at[64];
    if (!where) { /* the snapshot's time */
        const char *t = json_string_value(json_object_get(line, IL_M_TIME));
        snprintf(at, sizeof at, "%s", t ? t : "?");
        where = at;
    }

    /* across hosts: each host's first snapshot against the first host's */
    size_t h = 0;
    while (h < m->nhosts && strcmp(m->hosts[h].host, host ? host : ""))
        h++;
    if (h == m->nhosts) {
        m->hosts = il_xrealloc(m->hosts, (m->nhosts + 1) * sizeof *m->hosts);
        m->hosts[h] = (struct il_mhost){dup_str(host), dup_str(where), json_incref(snap)};
        m->nhosts++;
        if (h && il_machine_differ(m->hosts[0].first, snap, why, sizeof why)) {
            if (!m->differ_hosts)
                snprintf(m->differ, sizeof m->differ, "host %s (%s) and host %s (%s): %s",
                         m->hosts[0].host, m->hosts[0].where, host ? host : "?", where, why);
            m->differ_hosts++;
        }
    }

    /* during one sweep: its facts and its load against its first snapshot */
    char key[512];
    const char *sweep = json_string_value(json_object_get(line, IL_M_SWEEP));
    const char *plan = json_string_value(json_object_get(line, IL_M_PLAN));
    snprintf(key, sizeof key, "%s\x1f%s\x1f%s", sweep ? sweep : "", plan ? plan : "",
             host ? host : "");
    size_t s = 0;
    while (s < m->nsweeps && strcmp(m->sweeps[s].key, key))
        s++;
    double l = load1(snap);
    if (s == m->nsweeps) {
        m->sweeps = il_xrealloc(m->sweeps, (m->nsweeps + 1) * sizeof *m->sweeps);
        m->sweeps[s] = (struct il_msweep){dup_str(key), dup_str(where), json_incref(snap), l, l, 0};
        m->nsweeps++;
        return;
    }
    struct il_msweep *w = &m->sweeps[s];
    why[0] = 0;
    int changed = il_machine_differ(w->first, snap, why, sizeof why);
    if (l >= 0 && w->load_lo >= 0) {
        w->load_lo = l < w->load_lo ? l : w->load_lo;
        w->load_hi = l > w->load_hi ? l : w->load_hi;
        if (w->load_hi - w->load_lo >= IL_MACHINE_LOAD_STEP) {
            size_t k = strlen(why);
            snprintf(why + k, sizeof why - k, "%sload (1-minute average) between %.2f and %.2f",
                     changed ? "; " : "", w->load_lo, w->load_hi);
            changed++;
        }
    }
    if (changed && !w->said) {
        w->said = 1;
        if (!m->changed)
            snprintf(m->change, sizeof m->change, "host %s, from %s to %s: %s", host ? host : "?",
                     w->where, where, why);
        m->changed++;
    }
}

void
il_machines_free(struct il_machines *m)
{
    for (size_t i = 0; i < m->nhosts; i++) {
        free(m->hosts[i].host);
        free(m->hosts[i].where);
        json_decref(m->hosts[i].first);
    }
    for (size_t i = 0; i < m->nsweeps; i++) {
        free(m->sweeps[i].key);
        free(m->sweeps[i].where);
        json_decref(m->sweeps[i].first);
    }
    free(m->hosts);
    free(m->sweeps);
    memset(m, 0, sizeof *m);
}
