/*
 * disturb.c: was the machine disturbed while the records were measured?
 * interloper sweep writes a snapshot of the machine at its start and its
 * end (the "machine" lines of a results file, tools/machine.c); the
 * report reads them and warns when they say the runs shared the machine:
 * a load average above the CPUs online (every CPU had more than one
 * runnable task), or the hypervisor taking IL_STEAL_PCT percent or more of
 * the CPUs' time between the start and the end (another guest's work
 * taken from the measured programs').  interloper check says the same of
 * a machine before measuring.
 *
 * The lines are few (two a sweep), so each is read with jansson.  The
 * plan line's link orders are noted here too, for report --attribute.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "il_stats.h"

#define IL_STEAL_PCT 1.0

struct il_machine_notes {
    struct start {
        char plan[32], host[72];
        long long steal, all;
    } * start;
    size_t nstart;
    /* "plan P at the start" and ": load average ...", of a machine line
     * whose host is host: the host is said between them where the lines
     * name several (the shards of a merged file: outside13, two notes of
     * one plan that named no host) */
    struct note {
        char *head, *tail, *host;
    } * note;
    size_t nnote;
    char *host; /* the first line's host */
    int hosts;  /* lines of more than one host */
};

static void
note(struct il_machine_notes *m, const char *host, char *head, char *tail)
{
    for (size_t i = 0; i < m->nnote; i++)
        if (!strcmp(m->note[i].head, head) && !strcmp(m->note[i].tail, tail) &&
            !strcmp(m->note[i].host, host)) {
            free(head);
            free(tail);
            return;
        }
    m->note = il_xrealloc(m->note, (m->nnote + 1) * sizeof *m->note);
    m->note[m->nnote++] = (struct note){head, tail, il_xstrdup(host)};
}

/* "0-1,4" -> 3 */
static int
count_cpus(const char *list)
{
    int n = 0;
    for (const char *p = list; p && *p;) {
        char *end;
        long lo = strtol(p, &end, 10), hi = lo;
        if (end == p)
            return 0;
        if (*end == '-')
            hi = strtol(end + 1, &end, 10);
        n += hi >= lo ? (int)(hi - lo + 1) : 0;
        p = *end == ',' ? end + 1 : end + strlen(end);
    }
    return n;
}

/* ------------------------------------------------------------ link orders */
/* The plan line's layouts' link orders (its first system's), for
 * report --attribute (attrib.c): read here with the sweep's other lines. */
static void
orders_line(struct il_data *d, json_t *plan)
{
    json_t *sys = json_array_get(json_object_get(plan, IL_M_SYSTEMS), 0);
    json_t *bins = json_object_get(sys, "binaries");
    for (size_t i = 0; i < json_array_size(bins); i++) {
        json_t *b = json_array_get(bins, i);
        const char *lay = json_string_value(json_object_get(b, IL_L_LAYOUT));
        json_t *order = json_object_get(b, IL_M_ORDER);
        if (!lay || !json_is_array(order) || !json_array_size(order))
            continue;
        size_t k = 0;
        while (k < d->norders && strcmp(d->orders[k].layout, lay))
            k++;
        if (k < d->norders)
            continue; /* the first plan line that names it */
        d->orders = il_xrealloc(d->orders, (d->norders + 1) * sizeof *d->orders);
        struct il_order *o = &d->orders[d->norders++];
        o->layout = il_xstrdup(lay);
        o->nobj = json_array_size(order);
        o->obj = il_xcalloc(o->nobj, sizeof *o->obj);
        for (size_t j = 0; j < o->nobj; j++) {
            const char *name = json_string_value(json_array_get(order, j));
            o->obj[j] = il_xstrdup(name ? name : "?");
        }
    }
}

void
il_orders_free(struct il_data *d)
{
    for (size_t k = 0; k < d->norders; k++) {
        for (size_t j = 0; j < d->orders[k].nobj; j++)
            free(d->orders[k].obj[j]);
        free(d->orders[k].obj);
        free(d->orders[k].layout);
    }
    free(d->orders);
    d->orders = NULL;
    d->norders = 0;
}

void
il_disturb_line(struct il_data *d, const char *s, size_t n)
{
    json_t *j = json_loadb(s, n, 0, NULL);
    const char *kind = json_string_value(json_object_get(j, IL_M_KIND));
    if (kind && !strcmp(kind, IL_M_KIND_PLAN))
        orders_line(d, j); /* the layouts' link orders (below) */
    if (!kind || strcmp(kind, IL_M_KIND_MACHINE)) {
        json_decref(j);
        return;
    }
    il_twice_line(d, j); /* a sweep's start in two files */
    /* the machines' facts compared, and changes during a sweep (where:
     * the snapshot's time; il_machine.h) */
    il_machines_add(&d->mach, j, NULL);
    if (!d->machine)
        d->machine = il_xcalloc(1, sizeof *d->machine);
    struct il_machine_notes *m = d->machine;
    const char *plan = json_string_value(json_object_get(j, IL_M_PLAN));
    const char *when = json_string_value(json_object_get(j, IL_M_WHEN));
    json_t *mc = json_object_get(j, IL_M_MACHINE);
    const char *host = json_string_value(json_object_get(mc, IL_F_HOST));
    host = host ? host : "?";
    if (!m->host)
        m->host = il_xstrdup(host);
    else if (strcmp(m->host, host))
        m->hosts = 1;
    int cpus = count_cpus(json_string_value(json_object_get(mc, IL_MF_CPUS_ONLINE)));
    json_t *la = json_object_get(mc, IL_MF_LOADAVG);
    double load = json_number_value(json_array_get(la, 0));
    plan = plan ? plan : "?";
    when = when ? when : "?";
    if (cpus > 0 && json_is_number(json_array_get(la, 0)) && load > cpus)
        note(m, host, il_xasprintf("plan %s at the %s", plan, when),
             il_xasprintf(": load average %.2f on %d CPU%s", load, cpus, il_s(cpus)));
    json_t *st = json_object_get(mc, IL_MF_STEAL_TICKS),
           *all = json_object_get(mc, IL_MF_ALL_TICKS);
    if (json_is_integer(st) && json_is_integer(all)) {
        size_t i = 0;
        /* a start pairs with its host's end: two shards' are not one sweep */
        while (i < m->nstart && (strcmp(m->start[i].plan, plan) ||
                                 strncmp(m->start[i].host, host, sizeof m->start->host - 1)))
            i++;
        if (!strcmp(when, "start")) {
            if (i == m->nstart) {
                m->start = il_xrealloc(m->start, (m->nstart + 1) * sizeof *m->start);
                snprintf(m->start[m->nstart].plan, sizeof m->start->plan, "%s", plan);
                snprintf(m->start[m->nstart++].host, sizeof m->start->host, "%s", host);
            }
            m->start[i].steal = json_integer_value(st);
            m->start[i].all = json_integer_value(all);
        } else if (!strcmp(when, "end") && i < m->nstart &&
                   json_integer_value(all) > m->start[i].all) {
            /* (the snapshots during a sweep, --snapshot-every, pair nothing) */
            double pct = 100.0 * (double)(json_integer_value(st) - m->start[i].steal) /
                         (double)(json_integer_value(all) - m->start[i].all);
            if (pct >= IL_STEAL_PCT)
                note(m, host, il_xasprintf("plan %s", plan),
                     il_xasprintf(": the hypervisor took %.1f%% of the CPUs' time (steal) during "
                                  "the sweep",
                                  pct));
            m->start[i].all = 0; /* paired: a later end needs its own start */
        }
    }
    json_decref(j);
}

void
il_disturb_warn(const struct il_data *d)
{
    const struct il_machine_notes *m = d->machine;
    for (size_t i = 0; m && i < m->nnote; i++) {
        const struct note *n = &m->note[i];
        char *t = il_xasprintf("%s%s%s%s", n->head, m->hosts ? " on " : "", m->hosts ? n->host : "",
                               n->tail);
        il_warn_item(IL_W_DISTURBED, t);
        free(t);
    }
}

void
il_disturb_free(struct il_data *d)
{
    struct il_machine_notes *m = d->machine;
    if (!m)
        return;
    for (size_t i = 0; i < m->nnote; i++) {
        free(m->note[i].head);
        free(m->note[i].tail);
        free(m->note[i].host);
    }
    free(m->note);
    free(m->host);
    free(m->start);
    free(m);
    d->machine = NULL;
}
