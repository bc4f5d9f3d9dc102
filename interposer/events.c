/*
 * events.c: event names -> a backend and an encoding.
 *
 * Generic names (cycles, task-clock, ...) are encoded here without
 * libpfm4, so the common case costs no library load and no heap.  Any
 * other name goes to libpfm4 (pfm.c), and names only PAPI knows (PAPI_*
 * presets) go to libpapi (papi.c).
 *
 * il_events_setup() runs once before main, in il_main(); it picks the
 * backend (INTERLOPER_BACKEND, "auto" by default):
 *   1. perf, if perf_event_open accepts the events;
 *   2. papi, if the events that perf cannot take are names only PAPI knows;
 *   3. none, with the reason in the record.
 * Events that cannot be counted stay in the record with "value": null and
 * an "error", the way perf stat prints <not supported>.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "il.h"

struct il_generic {
    const char *name;
    uint32_t type;
    uint64_t config;
};

static const struct il_generic il_generic[] = {
    {"cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
    {"cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
    {"instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS},
    {"branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS},
    {"branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS},
    {"branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES},
    {"cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES},
    {"cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES},
    {"bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES},
    {"ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES},
    {"stalled-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND},
    {"stalled-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND},
    {"task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK},
    {"cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK},
    {"page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS},
    {"faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS},
    {"minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN},
    {"major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ},
    {"context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES},
    {"cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES},
    {"cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS},
    {"migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS},
    {"alignment-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS},
    {"emulation-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS},
    {NULL, 0, 0},
};

/* The attributes every counter shares: created disabled (il_main enables
 * them as the last thing before main), raw value plus enabled/running
 * times so multiplexing stays visible, inheritance per INTERLOPER_INHERIT. */
void
il_attr_init(struct perf_event_attr *attr, enum il_inherit inherit)
{
    attr->size = sizeof *attr;
    attr->disabled = 1;
    attr->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
    attr->inherit = inherit != IL_INHERIT_NONE;
    attr->inherit_thread = inherit == IL_INHERIT_THREADS;
}

/*
 * Encode a generic name, with an optional perf-style modifier: ":u" counts
 * user space only, ":k" the kernel only, ":uk" both.  Returns 0, or
 * IL_ENOEVENT when the name is not generic (then libpfm4 gets a try).
 */
int
il_event_generic(const char *name, struct perf_event_attr *attr)
{
    char base[IL_EVENT_NAME_MAX];
    il_strlcpy(base, name, sizeof base);
    char *mod = strchr(base, ':');
    int u = 1, k = 1;
    if (mod) {
        *mod++ = 0;
        if (!strcmp(mod, "u"))
            k = 0;
        else if (!strcmp(mod, "k"))
            u = 0;
        else if (strcmp(mod, "uk") && strcmp(mod, "ku"))
            return IL_ENOEVENT;
    }
    for (const struct il_generic *g = il_generic; g->name; g++) {
        if (strcmp(g->name, base))
            continue;
        memset(attr, 0, sizeof *attr);
        attr->type = g->type;
        attr->config = g->config;
        attr->exclude_user = !u;
        attr->exclude_kernel = !k;
        attr->exclude_hv = !k;
        return 0;
    }
    return IL_ENOEVENT;
}

/* PAPI presets are PAPI_*; PAPI natives of other components use ":::". */
int
il_event_is_papi_name(const char *name)
{
    return !strncmp(name, "PAPI_", 5) || strstr(name, ":::") != NULL;
}

static void
ev_fail(struct il_event *e, const char *why)
{
    e->ok = 0;
    il_strlcpy(e->error, why, sizeof e->error);
}

static int
any_ok(void)
{
    for (int i = 0; i < il.nev; i++)
        if (il.ev[i].ok)
            return 1;
    return 0;
}

/* Try libpapi for every event; on success it owns the record. */
static int
try_papi(void)
{
    char why[IL_ERRSHORT];
    il_perf_close_all();
    if (il_papi_open(why, sizeof why) < 0) {
        /* the library or its initialisation failed: same reason for all */
        for (int i = 0; i < il.nev; i++)
            if (!il.ev[i].ok && !il.ev[i].error[0])
                ev_fail(&il.ev[i], why);
        return -1;
    }
    il.backend = IL_BACKEND_PAPI;
    return 0;
}

static void
resolve_perf(void)
{
    const char *pfm_names[IL_MAX_EVENTS];
    int pfm_idx[IL_MAX_EVENTS], npfm = 0;

    for (int i = 0; i < il.nev; i++) {
        struct il_event *e = &il.ev[i];
        if (il_event_generic(e->name, &e->attr) == 0) {
            e->resolved = 1;
        } else if (il_event_is_papi_name(e->name)) {
            ev_fail(e, "a PAPI name; perf needs a generic or libpfm4 name");
        } else {
            pfm_idx[npfm] = i;
            pfm_names[npfm++] = e->name;
        }
    }
    if (npfm) {
        struct il_pfm_result res[IL_MAX_EVENTS];
        il_pfm_resolve(pfm_names, npfm, res);
        for (int j = 0; j < npfm; j++) {
            struct il_event *e = &il.ev[pfm_idx[j]];
            if (res[j].rc == 0) {
                e->attr = res[j].attr;
                e->resolved = 1;
                e->via_pfm = 1;
            } else {
                ev_fail(e, res[j].error);
            }
        }
    }
    for (int i = 0; i < il.nev; i++) {
        struct il_event *e = &il.ev[i];
        if (e->resolved)
            il_perf_open(e, il.cfg.inherit);
    }
}

void
il_events_setup(void)
{
    struct il_config *c = &il.cfg;
    il.nev = 0;

    if (c->backend == IL_BACKEND_NONE) {
        il.backend = IL_BACKEND_NONE;
        if (!c->events_default)
            il_late_error("INTERLOPER_EVENTS is ignored with INTERLOPER_BACKEND=none", "");
        return;
    }

    if (c->events_default) {
        /* cycles and instructions where a PMU exists, else software
         * events; the probe costs one perf_event_open. */
        static const char *hw[] = {"cycles", "instructions"};
        static const char *sw[] = {"task-clock", "page-faults", "context-switches"};
        int pmu = c->backend != IL_BACKEND_PAPI && il_perf_has_pmu();
        const char **d = pmu ? hw : sw;
        il.nev = pmu ? 2 : 3;
        for (int i = 0; i < il.nev; i++)
            il_strlcpy(il.ev[i].name, d[i], sizeof il.ev[i].name);
        if (c->backend == IL_BACKEND_PAPI) {
            /* PAPI's own names for the same defaults */
            il_strlcpy(il.ev[0].name, "perf::TASK-CLOCK", sizeof il.ev[0].name);
            il_strlcpy(il.ev[1].name, "perf::PAGE-FAULTS", sizeof il.ev[1].name);
            il_strlcpy(il.ev[2].name, "perf::CONTEXT-SWITCHES", sizeof il.ev[2].name);
        }
    } else {
        il.nev = c->nevents;
        for (int i = 0; i < il.nev; i++)
            il_strlcpy(il.ev[i].name, c->events[i], sizeof il.ev[i].name);
    }
    for (int i = 0; i < il.nev; i++)
        il.ev[i].fd = -1; /* only the events in use: the rest is never read */

    if (c->backend == IL_BACKEND_PAPI) {
        try_papi();
        il.backend = IL_BACKEND_PAPI;
        return;
    }

    il.backend = IL_BACKEND_PERF;
    resolve_perf();
    if (c->backend == IL_BACKEND_PERF)
        return;

    /* auto: PAPI only for names that only PAPI knows, and only if PAPI
     * can then count every event; otherwise perf keeps what it opened. */
    int papi_only = 0, failed = 0;
    for (int i = 0; i < il.nev; i++) {
        if (!il.ev[i].ok) {
            failed++;
            if (il_event_is_papi_name(il.ev[i].name))
                papi_only++;
        }
    }
    if (papi_only && papi_only == failed) {
        struct il_event saved[IL_MAX_EVENTS];
        memcpy(saved, il.ev, sizeof saved);
        for (int i = 0; i < il.nev; i++)
            il.ev[i].error[0] = 0, il.ev[i].ok = 0;
        if (try_papi() == 0) {
            int all = 1;
            for (int i = 0; i < il.nev; i++)
                all &= il.ev[i].ok;
            if (all)
                return;
            il_papi_close();
        }
        /* back to perf, with PAPI's reasons for the PAPI names */
        for (int i = 0; i < il.nev; i++) {
            char why[IL_ERRSHORT];
            il_strlcpy(why, il.ev[i].error, sizeof why);
            il.ev[i] = saved[i];
            il.ev[i].fd = -1;
            il.ev[i].ok = 0;
            if (il_event_is_papi_name(il.ev[i].name) && why[0])
                il_strlcpy(il.ev[i].error, why, sizeof il.ev[i].error);
        }
        il.backend = IL_BACKEND_PERF;
        for (int i = 0; i < il.nev; i++)
            if (il.ev[i].resolved)
                il_perf_open(&il.ev[i], il.cfg.inherit);
    }
    if (!any_ok()) {
        il_perf_close_all();
        il.backend = IL_BACKEND_NONE;
    }
}
