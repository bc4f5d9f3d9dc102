/*
 * backends.c: which backend counts, and which events.
 *
 * il_events_setup() runs once before main.  INTERLOPER_BACKEND picks the
 * backend; "auto" (the default) takes
 *   1. perf, if perf_event_open accepts the events;
 *   2. papi, if the events that perf cannot take are names only PAPI
 *      knows, and PAPI can then count them all;
 *   3. none, with the reason in the record.
 * Events that cannot be counted stay in the record with "value": null and
 * an "error", the way perf stat prints <not supported>.
 *
 * The backends are the table below, one file each (backend_*.c, the
 * interface in il.h): a new backend is a file, a line here, and its name
 * in config.c's list.
 */
#include <stddef.h>
#include <string.h>

#include "il.h"
#include "sys.h"


/* descriptors the program keeps free, at least, or we do not count */
#define IL_FD_RESERVE 64

static int
any_ok(void)
{
    for (int i = 0; i < il.nev; i++)
        if (il.ev[i].ok)
            return 1;
    return 0;
}

static void
set_names(const char *const *names, int n)
{
    il.nev = n;
    if ((const char *)&il.ev[n] > (const char *)IL_POPULATED) /* no page fault of ours to count */
        il_populate(IL_POPULATED, &il.ev[n]);
    for (int i = 0; i < n; i++) {
        struct il_event *e = &il.ev[i];
        /* all but the name and error buffers, which are written before
         * they are read */
        memset(&e->attr, 0, offsetof(struct il_event, error) - offsetof(struct il_event, attr));
        memset(&e->value, 0, sizeof *e - offsetof(struct il_event, value));
        e->error[0] = 0;
        e->fd = -1;
        size_t len = il_strlcpy(e->name, names[i], sizeof e->name);
        e->name_len = len < sizeof e->name ? len : sizeof e->name - 1;
    }
}

/* The default events, their encodings known: no name to look up. */
static void
set_defaults(const char *const *names, const uint64_t *config, uint32_t type, int n)
{
    set_names(names, n);
    for (int i = 0; i < n; i++) {
        il.ev[i].attr.type = type;
        il.ev[i].attr.config = config[i];
        il.ev[i].resolved = 1;
    }
}

/* The descriptor limit: where counters go, and whether there is room.
 * later: the limit not asked yet (il.fd_top 0) is asked after perf placed
 * its counters (dup_high asks it only when it is below IL_FD_MAX, and
 * above IL_FD_MAX there is room): 1 for now. */
static int
room_for_counters(int later)
{
    if (!il.fd_top && later)
        return 1;
    if (!il.fd_top)
        il.fd_top = il_fd_top();
    long lim = il.fd_top + 1;
    long need = il.nev + (il.err_fd >= 0 ? 1 : 0);
    /* stdin, stdout, stderr, our counters, and the program's reserve */
    if (lim - 3 - need >= IL_FD_RESERVE)
        return 1;
    char why[IL_ERRSHORT], *p = il_cat(why, "not counted: the descriptor limit (ulimit -n) is ");
    p = il_fmt_i64(p, lim);
    il_cat(p, ", too low to keep counters and leave the program 64 free");
    for (int i = 0; i < il.nev; i++)
        il_strlcpy(il.ev[i].error, why, sizeof il.ev[i].error);
    /* under INTERLOPER_STRICT the reason the program stops (report_problems
     * does not say a "not counted: " line again): said even when quiet */
    il_warn(il.cfg.strict, why, NULL, NULL);
    il_late_error(why, "; nothing was counted");
    return 0;
}

/* Counted in the record of the process that forked us (il.counted_in,
 * counted.c), under INTERLOPER_INHERIT=all: each event says so, and 1;
 * else 0, and il.counted_in is no more. */
static int
counted_elsewhere(void)
{
    if (!il.counted_in || il.cfg.inherit != IL_INHERIT_ALL) {
        il.counted_in = 0;
        return 0;
    }
    char why[IL_ERRSHORT], *p = il_cat(why, "counted in the record of process ");
    p = il_fmt_i64(p, il.counted_in);
    il_cat(p, " (INTERLOPER_INHERIT=all)");
    for (int i = 0; i < il.nev; i++)
        il_strlcpy(il.ev[i].error, why, sizeof il.ev[i].error);
    return 1;
}

/* The counters be opened before the marker was found: closed, and the
 * events as if never opened (counted_elsewhere gave the reason). */
static void
counted_close(const struct il_backend *be)
{
    il_be_do(be, IL_BE_CLOSE);
    il.be = &il_backend_none;
    il.counts_children = 0;
    for (int i = 0; i < il.nev; i++) {
        il.ev[i].ok = 0;
        il.ev[i].fd = -1;
        il.ev[i].derived = 0;
    }
}

static void
events_setup(void)
{
    struct il_config *c = &il.cfg;
    il.nev = 0;
    il.be = &il_backend_none;
    il.inherit = c->inherit;

    if (c->backend == IL_BACKEND_NONE) {
        if (!c->events_default)
            il_late_error("INTERLOPER_EVENTS is ignored with INTERLOPER_BACKEND=none", "");
        return;
    }
    if (c->events_default) {
        /* cycles and instructions where a PMU exists, else software
         * events; the probe costs one perf_event_open */
        /* arrays, not pointers: nothing for the loader to relocate; the
         * same names as include/il_names.h's IL_DEFAULT_EVENTS_* */
        static const char hw[][16] = {"cycles", "instructions"};
        static const uint64_t hw_config[] = {PERF_COUNT_HW_CPU_CYCLES, PERF_COUNT_HW_INSTRUCTIONS};
        static const char sw[][24] = {"task-clock", "page-faults", "context-switches"};
        static const uint64_t sw_config[] = {PERF_COUNT_SW_TASK_CLOCK, PERF_COUNT_SW_PAGE_FAULTS,
                                             PERF_COUNT_SW_CONTEXT_SWITCHES};
        static const char papi[][24] = {"perf::TASK-CLOCK", "perf::PAGE-FAULTS",
                                        "perf::CONTEXT-SWITCHES"};
        /* a driver whose calibration of the defaults found the software
         * ones (its floor line, run_spec.c: "perf default 3 ...") found no
         * PMU on this machine: no probe */
        static const char sw_line[] = "perf " IL_RUN_FLOOR_DEFAULT " 3 ";
        _Static_assert(sizeof sw_config / sizeof sw_config[0] == 3, "sw_line's count");
        int sw_known = il.run_floor && il_same_bytes(il.run_floor, sw_line, sizeof sw_line - 1);
        if (c->backend == IL_BACKEND_PAPI) {
            const char *n[] = {papi[0], papi[1], papi[2]};
            set_names(n, 3);
        } else if (!sw_known && il_perf_has_pmu()) {
            const char *n[] = {hw[0], hw[1]};
            set_defaults(n, hw_config, PERF_TYPE_HARDWARE, 2);
        } else {
            const char *n[] = {sw[0], sw[1], sw[2]};
            set_defaults(n, sw_config, PERF_TYPE_SOFTWARE, 3);
        }
    } else {
        set_names(c->events, c->nevents);
    }
    if (counted_elsewhere())
        return;
    if (!room_for_counters(c->backend != IL_BACKEND_PAPI))
        return; /* said once; the events stay in the record, uncounted */

    if (c->backend == IL_BACKEND_PAPI) {
        if (il_be_do(&il_backend_papi, IL_BE_OPEN) == 0)
            il.be = &il_backend_papi;
        return;
    }
    const struct il_backend *first = &il_backend_perf;
    il_perf_encode(); /* the names, before the (async-signal-safe) perf backend opens */
    il_be_do(first, IL_BE_OPEN);
    if (counted_elsewhere()) {
        /* placing them, dup_high found the limit below IL_FD_MAX + 1 and
         * a marker under it (il_counted_late) */
        counted_close(first);
        return;
    }
    if (il.fd_top && !room_for_counters(0)) {
        il_be_do(first, IL_BE_CLOSE); /* placed under a limit too low after all */
        return;
    }
    if (any_ok()) {
        il.be = first;
        il.counts_children = il.inherit == IL_INHERIT_ALL; /* perf's counters inherit */
    }
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
    if (!papi_only || papi_only != failed || !room_for_counters(0))
        return;
    /* perf's counters stay open while PAPI tries; static: 40 KiB off the
     * stack, touched only on this path */
    static struct il_event perf_ev[IL_MAX_EVENTS], papi_ev[IL_MAX_EVENTS];
    memcpy(perf_ev, il.ev, sizeof perf_ev);
    for (int i = 0; i < il.nev; i++)
        il.ev[i].error[0] = 0, il.ev[i].ok = 0, il.ev[i].fd = -1;
    int all = il_be_do(&il_backend_papi, IL_BE_OPEN) == 0;
    for (int i = 0; all && i < il.nev; i++)
        all = il.ev[i].ok;
    if (all) {
        memcpy(papi_ev, il.ev, sizeof papi_ev);
        memcpy(il.ev, perf_ev, sizeof perf_ev);
        il_be_do(first, IL_BE_CLOSE);
        memcpy(il.ev, papi_ev, sizeof papi_ev);
        il.be = &il_backend_papi;
        il.counts_children = 0;
        return;
    }
    il_be_do(&il_backend_papi, IL_BE_CLOSE);
    /* perf keeps what it opened; the PAPI names get PAPI's reasons */
    for (int i = 0; i < il.nev; i++) {
        char why[IL_ERRSHORT];
        il_strlcpy(why, il.ev[i].error, sizeof why);
        il.ev[i] = perf_ev[i];
        if (il_event_is_papi_name(il.ev[i].name) && why[0])
            il_strlcpy(il.ev[i].error, why, sizeof il.ev[i].error);
    }
}

/*
 * The events and their counters, once, before main.  Then, where no
 * counter was placed at IL_FD_MAX (none opened, PAPI's, the limit too low
 * for counters), the counted-in marker may be just under a descriptor
 * limit below it, not asked so far: il.counted_late(1) asks it
 * (counted.c; NULL in the driver's floor line).
 */
void
il_events_setup(void)
{
    events_setup();
    if (il.counted_late && il.counted_late(1) && counted_elsewhere())
        counted_close(il.be);
}

/* no INTERLOPER_ variable: a driver's children see none in their
 * environment (tools/launch.c), only the spec's set lines */
static const char *
no_env(const char *name)
{
    (void)name;
    return NULL;
}

/*
 * The calibration a driver does once for its children (interloper run,
 * sweep: tools/launch.c), so that they skip their own: the library's
 * configuration from the spec's set lines (sets, "set INTERLOPER_X=v"
 * lines), its events opened by its own code (il_events_setup) and the
 * empty window calibrated by its own backend_perf.c, here in the driver;
 * written as the spec's floor line (il_names.h, IL_RUN_FLOOR) into out.
 * Returns the line's length, 0 for no line where the driver's floor
 * could not stand for a child's: a backend other than perf, an event
 * that does not count.  The child uses it only where
 * its own events are the same (run_spec.c, il_run_floor).  Not called by
 * the library.
 */
size_t
il_floor_line(const char *sets, char *out, size_t cap)
{
    il_config_parse(&il.cfg, no_env, NULL);
    for (const char *p = sets; p && *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        char kv[IL_EVENTS_MAX + 64];
        if (n > sizeof IL_RUN_SET && n - sizeof IL_RUN_SET < sizeof kv &&
            !strncmp(p, IL_RUN_SET " ", sizeof IL_RUN_SET)) {
            memcpy(kv, p + sizeof IL_RUN_SET, n - sizeof IL_RUN_SET);
            kv[n - sizeof IL_RUN_SET] = 0;
            il_config_set(&il.cfg, kv);
        }
        p += n + (nl != NULL);
    }
    size_t len = 0;
    il.err_fd = -1;
    il.counted_in = 0;
    il.fd_next = 0;
    /* the children's descriptor limit is this one: too low, and they
     * count nothing (and say so); then no line, and no word from here */
    il.fd_top = il_fd_top();
    if (il.cfg.nerrors || il.fd_top + 1 - 3 - IL_MAX_EVENTS < IL_FD_RESERVE ||
        (il.cfg.backend != IL_BACKEND_AUTO && il.cfg.backend != IL_BACKEND_PERF))
        return 0;
    il_events_setup();
    int all = il.be == &il_backend_perf && il.nev > 0;
    for (int i = 0; all && i < il.nev; i++)
        all = il.ev[i].ok;
    if (all) {
        /* as a child does: its window, stopped and read, then the floor;
         * but IL_FLOOR_WINDOWS times, each event's minimum kept, since this
         * one calibration stands for every child's: a disturbance the
         * events do not show (an interrupt in a quiet window) must not
         * move them all */
        il_be_do(il.be, IL_BE_ENABLE);
        il_be_do(il.be, IL_BE_STOP_READ);
        uint64_t min[IL_MAX_EVENTS];
        for (int k = 0; k < IL_FLOOR_WINDOWS; k++) {
            il_be_do(il.be, IL_BE_FLOOR);
            for (int i = 0; i < il.nev; i++)
                if (il.ev[i].floor_ok && (!k || il.ev[i].floor < min[i]))
                    min[i] = il.ev[i].floor;
        }
        for (int i = 0; i < il.nev; i++)
            il.ev[i].floor = min[i];
        /* the events named by where their list is, which the child checks:
         * the defaults, or the spec's own events line */
        char *p = out, *end = out + cap;
        if (cap > 64) {
            p = il_cat(p, IL_RUN_FLOOR " perf ");
            p = il_cat(p, il.cfg.events_default ? IL_RUN_FLOOR_DEFAULT " " : IL_RUN_FLOOR_SPEC " ");
            p = il_fmt_i64(p, il.nev);
        }
        for (int i = 0; all && i < il.nev; i++) {
            struct il_event *e = &il.ev[i];
            all = e->floor_ok && end - p > 48;
            if (!all)
                break;
            *p++ = ' ';
            *p++ = IL_HEX[il_floor_flags(&e->attr)];
            *p++ = ' ';
            p = il_fmt_u64(p, e->floor);
        }
        if (all && cap > 64 && end - p > 1) {
            *p++ = '\n';
            *p = 0;
            len = (size_t)(p - out);
        }
    }
    if (il.be)
        il_be_do(il.be, IL_BE_CLOSE);
    il.nev = 0;
    il.fd_next = 0;
    return len;
}
