/*
 * backend_papi.c: the papi backend, PAPI presets and native names through
 * one event set with inheritance.
 *
 * libpapi is loaded with dlopen, and only when this backend is chosen:
 * PAPI_library_init alone runs about 15 million instructions on the
 * development VM, while all of /bin/true runs about 0.13 million, so
 * linking it would tax every measured process.  dlopen and PAPI allocate
 * in the program's heap; that is the price of this backend, and the
 * libinterloper(7) page says so.
 *
 * PAPI keeps its own scaled values and does not expose TIME_ENABLED and
 * TIME_RUNNING, so records from this backend omit enabled_ns/running_ns;
 * multiplexing is not enabled, so values are not scaled either.
 *
 * The one exception to the finish path's async-signal safety: PAPI_stop
 * takes PAPI's locks and may allocate, so a record written from a fatal
 * signal handler with this backend can deadlock in the rare case that the
 * signal interrupted PAPI itself (libinterloper(7), CAVEATS).  PAPI's
 * state does not survive fork: a forked child is not measured.
 */
#include <dlfcn.h>
#include <papi.h>
#include <string.h>

#include "il.h"

/* dlopen and dlsym come through dlsym itself, so that the library imports
 * one symbol, not three, in every process (most never use PAPI). */
static void *(*dl_open)(const char *, int);
static void *(*dl_sym)(void *, const char *);

static int
dl_resolve(void)
{
    if (!dl_open) {
        *(void **)&dl_open = dlsym(RTLD_DEFAULT, "dlopen");
        *(void **)&dl_sym = dlsym(RTLD_DEFAULT, "dlsym");
    }
    return dl_open && dl_sym ? 0 : -1;
}

static struct {
    void *h;
    int es;
    int (*library_init)(int);
    int (*create_eventset)(int *);
    int (*assign_component)(int, int);
    int (*component_index)(const char *);
    int (*set_opt)(int, PAPI_option_t *);
    int (*name_to_code)(const char *, int *);
    int (*add_event)(int, int);
    int (*start)(int);
    int (*stop)(int, long long *);
    const char *(*strerror)(int);
    int (*cleanup)(int);
    int (*destroy)(int *);
    void (*shutdown)(void);
    int (*num_components)(void);
    const PAPI_component_info_t *(*component_info)(int);
    int (*query_event)(int);
} P; /* zero: es means nothing until h is set (no initialised data: the
       * library's writable segment then ends on a page, which the loader
       * need not clear) */

static int
load(char *why, size_t whysz)
{
    if (P.h)
        return 0;
    if (dl_resolve() == 0) {
        P.h = dl_open("libpapi.so.7.0", RTLD_NOW | RTLD_LOCAL);
        if (!P.h)
            P.h = dl_open("libpapi.so", RTLD_NOW | RTLD_LOCAL);
    }
    if (!P.h) {
        il_strlcpy(why, "libpapi cannot be loaded (install libpapi7.0t64 or libpapi-dev)", whysz);
        return IL_ENOLIB;
    }
#define SYM(f, n) (*(void **)&P.f = dl_sym(P.h, n))
    SYM(library_init, "PAPI_library_init");
    SYM(create_eventset, "PAPI_create_eventset");
    SYM(assign_component, "PAPI_assign_eventset_component");
    SYM(component_index, "PAPI_get_component_index");
    SYM(set_opt, "PAPI_set_opt");
    SYM(name_to_code, "PAPI_event_name_to_code");
    SYM(add_event, "PAPI_add_event");
    SYM(start, "PAPI_start");
    SYM(stop, "PAPI_stop");
    SYM(strerror, "PAPI_strerror");
    SYM(cleanup, "PAPI_cleanup_eventset");
    SYM(destroy, "PAPI_destroy_eventset");
    SYM(shutdown, "PAPI_shutdown");
    SYM(num_components, "PAPI_num_components");
    SYM(component_info, "PAPI_get_component_info");
    SYM(query_event, "PAPI_query_event");
#undef SYM
    if (!P.library_init || !P.stop || !P.add_event || !P.strerror || !P.component_info) {
        il_strlcpy(why, "libpapi lacks the PAPI 7 API", whysz);
        P.h = NULL;
        return IL_ENOLIB;
    }
    int v = P.library_init(PAPI_VER_CURRENT);
    if (v != PAPI_VER_CURRENT) {
        char *p = il_cat(why, "PAPI_library_init failed: ");
        il_strlcpy(p, v < 0 ? P.strerror(v) : "version mismatch", whysz - (size_t)(p - why));
        P.h = NULL;
        return IL_EBACKEND;
    }
    return 0;
}

static void
papi_err(char *dst, size_t n, const char *what, int rc)
{
    char *p = il_cat(dst, what);
    il_strlcpy(p, P.strerror(rc), n - (size_t)(p - dst));
}

static int papi_open_set(char *why, size_t whysz);

/* Open the event set; on failure every event not yet explained gets the
 * reason, and so does the record. */
static int
papi_open(void)
{
    char why[IL_ERRSHORT];
    size_t whysz = sizeof why;
    int rc = papi_open_set(why, whysz);
    if (rc < 0)
        for (int i = 0; i < il.nev; i++)
            if (!il.ev[i].ok && !il.ev[i].error[0])
                il_strlcpy(il.ev[i].error, why, sizeof il.ev[i].error);
    return rc;
}

static int
papi_open_set(char *why, size_t whysz)
{
    int rc = load(why, whysz);
    if (rc < 0)
        return rc;
    P.es = PAPI_NULL;
    if ((rc = P.create_eventset(&P.es)) != PAPI_OK) {
        papi_err(why, whysz, "PAPI_create_eventset: ", rc);
        return IL_EBACKEND;
    }
    int cidx = P.component_index ? P.component_index("perf_event") : 0;
    if (cidx < 0)
        cidx = 0;
    /* A disabled component (no PMU: "libpfm4 no default PMU found") still
     * accepts an event set, and then knows no event: say why at once. */
    const PAPI_component_info_t *dis = P.component_info(cidx);
    if (dis && dis->disabled) {
        char *p = il_cat(why, "PAPI's perf_event component is disabled: ");
        il_strlcpy(p, dis->disabled_reason[0] ? dis->disabled_reason : "no reason given",
                   whysz - (size_t)(p - why));
        return IL_EBACKEND;
    }
    if ((rc = P.assign_component(P.es, cidx)) != PAPI_OK) {
        papi_err(why, whysz, "PAPI_assign_eventset_component: ", rc);
        return IL_EBACKEND;
    }
    if (il.inherit != IL_INHERIT_NONE) {
        PAPI_option_t opt;
        memset(&opt, 0, sizeof opt);
        opt.inherit.eventset = P.es;
        opt.inherit.inherit = PAPI_INHERIT_ALL;
        if ((rc = P.set_opt(PAPI_INHERIT, &opt)) != PAPI_OK) {
            /* PAPI checks permission by opening a hardware event, which
             * fails on machines without a PMU: count without inheritance
             * rather than not at all, and say so. */
            char w[IL_ERRSHORT];
            papi_err(w, sizeof w,
                     "papi backend: children are not counted, PAPI_INHERIT "
                     "failed: ",
                     rc);
            il_late_error(w, "");
        } else if (il.inherit == IL_INHERIT_THREADS)
            il_late_error("papi backend: PAPI cannot inherit to threads only, so forked "
                          "children count into this record as well as their own",
                          "");
    }
    int added = 0;
    for (int i = 0; i < il.nev; i++) {
        struct il_event *e = &il.ev[i];
        int code;
        if ((rc = P.name_to_code(e->name, &code)) != PAPI_OK) {
            papi_err(e->error, sizeof e->error, "unknown to PAPI: ", rc);
            e->ok = 0;
            continue;
        }
        if ((rc = P.add_event(P.es, code)) != PAPI_OK) {
            papi_err(e->error, sizeof e->error, "PAPI cannot count it here: ", rc);
            e->ok = 0;
            continue;
        }
        e->papi_code = code;
        e->ok = 1;
        added++;
    }
    return added ? 0 : (il_strlcpy(why, "PAPI could count none of the events", whysz), IL_EBACKEND);
}

/* Values are read in event-set order, which is the order of the events
 * that were added. */
static void
spread(const long long *v, int floor)
{
    for (int i = 0, k = 0; i < il.nev; i++) {
        struct il_event *e = &il.ev[i];
        if (!e->ok)
            continue;
        long long raw = v[k++];
        uint64_t x = raw < 0 ? 0 : (uint64_t)raw;
        if (floor) {
            if (!e->floor_ok || x < e->floor)
                e->floor = x;
            e->floor_ok = 1;
        } else {
            e->value = e->carry + x;
        }
    }
}

static void
papi_enable(void)
{
    if (P.h && P.es != PAPI_NULL)
        P.start(P.es);
}

static void
papi_stop_read(void)
{
    long long v[IL_MAX_EVENTS] = {0};
    if (!P.h || P.es == PAPI_NULL)
        return;
    int rc = P.stop(P.es, v);
    if (rc != PAPI_OK) {
        for (int i = 0; i < il.nev; i++)
            if (il.ev[i].ok) {
                papi_err(il.ev[i].error, sizeof il.ev[i].error, "PAPI_stop: ", rc);
                il.ev[i].ok = 0;
            }
        return;
    }
    spread(v, 0);
}

static void
papi_floor(void)
{
    long long v[IL_MAX_EVENTS];
    if (!P.h || P.es == PAPI_NULL)
        return;
    for (int w = 0; w < IL_FLOOR_WINDOWS; w++) {
        memset(v, 0, sizeof v);
        if (P.start(P.es) != PAPI_OK || P.stop(P.es, v) != PAPI_OK)
            return;
        spread(v, 1);
    }
}

static void
papi_close(void)
{
    if (!P.h)
        return;
    if (P.es != PAPI_NULL) {
        if (P.cleanup)
            P.cleanup(P.es);
        if (P.destroy)
            P.destroy(&P.es);
    }
    P.es = PAPI_NULL;
}

/* After a failed exec: carry what was counted, count again. */
static void
papi_restart(void)
{
    for (int i = 0; i < il.nev; i++)
        if (il.ev[i].ok)
            il.ev[i].carry = il.ev[i].value;
    papi_enable();
}

static void
papi_after_fork(void)
{
}

const struct il_backend il_backend_papi = {"papi", IL_CAP_UNSAFE_STOP, IL_BACKEND_PAPI};

IL_BACKEND_DO(papi)

/* For interloper events: library version and the perf_event component's
 * state, in one line. */
int
il_papi_probe(char *info, size_t n)
{
    char why[IL_ERRSHORT] = "";
    if (load(why, sizeof why) < 0) {
        il_strlcpy(info, why, n);
        return -1;
    }
    int cidx = P.component_index ? P.component_index("perf_event") : 0;
    const PAPI_component_info_t *ci = P.component_info(cidx < 0 ? 0 : cidx);
    if (!ci) {
        il_strlcpy(info, "PAPI has no perf_event component", n);
        return -1;
    }
    if (ci->disabled) {
        char *p = il_cat(info, "perf_event component disabled: ");
        il_strlcpy(p, ci->disabled_reason, n - (size_t)(p - info));
        return -1;
    }
    char *p = il_cat(info, "perf_event component active, ");
    p = il_fmt_i64(p, ci->num_native_events);
    p = il_cat(p, " native events, ");
    p = il_fmt_i64(p, ci->num_preset_events);
    il_cat(p, ci->num_preset_events ? " presets" : " presets (no PAPI_* names here)");
    return 0;
}

/* For interloper events: PAPI's code for a name, and whether it can be
 * counted here.  Returns 0, or a negative IL_E* with the reason in err. */
int
il_papi_code(const char *name, int *code, char *err, size_t n)
{
    int rc = load(err, n);
    if (rc < 0)
        return rc;
    if ((rc = P.name_to_code(name, code)) != PAPI_OK) {
        papi_err(err, n, "unknown to PAPI: ", rc);
        return IL_ENOEVENT;
    }
    if (P.query_event && (rc = P.query_event(*code)) != PAPI_OK) {
        papi_err(err, n, "PAPI knows it but cannot count it here: ", rc);
        return IL_ENOTSUP;
    }
    return 0;
}
