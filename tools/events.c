/*
 * interloper-events: which counter backends work on this machine, why
 * not when they do not, and what each requested event name resolves to.
 * Uses the interposer's own resolution code, so what it says is what
 * libinterloper.so will do.
 */
#include <err.h>
#include <errno.h>
#include <jansson.h>
#include <perfmon/pfmlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "il_opt.h"
#include "il_resolve.h"
#include "il_xalloc.h"

enum { O_JSON = 1, O_LIST };

static const struct il_opt opts[] = {
    {"json", 0, IL_OPT_FLAG, NULL, "one JSON object instead of text", O_JSON},
    {"list", 0, IL_OPT_FLAG, NULL, "also list the generic event names", O_LIST},
    {0},
};

static const struct il_cmd cmd = {
    .name = "interloper events",
    .synopsis = "[--json] [--list] [EVENT...]",
    .about = "Lists the counter backends (perf, papi, none), whether each works here and\n"
             "why not, and the PMUs libpfm4 finds, then resolves each EVENT (default:\n"
             "$INTERLOPER_EVENTS, or the default events) to its backend and encoding and\n"
             "tries to open it.",
    .more = "Generic names: cycles, instructions, branches, branch-misses,\n"
            "cache-references, cache-misses, task-clock, cpu-clock, page-faults,\n"
            "minor-faults, major-faults, context-switches, cpu-migrations (and more\n"
            "with --list); :u or :k after a generic name counts user or kernel only;\n"
            "in any case, it is the lower-case name (TASK-CLOCK is task-clock).\n"
            "Other names go to libpfm4 (e.g. perf::PAGE-FAULTS, INST_RETIRED:ANY_P),\n"
            "PAPI_* names to libpapi.",
    .man = "interloper-events(1)",
    .opts = opts,
    .permute = 1,
};

static const char *
paranoid_meaning(int p)
{
    if (geteuid() == 0)
        return "no limit for root";
    if (p <= -1)
        return "no limit";
    if (p == 0)
        return "user and kernel, no raw tracepoints for unprivileged users";
    if (p == 1)
        return "user and kernel, per-process only, for unprivileged users";
    if (p == 2)
        return "user space only for unprivileged users";
    return "perf_event_open denied to unprivileged users";
}

static const char *
type_name(uint32_t t)
{
    switch (t) {
    case PERF_TYPE_HARDWARE:
        return "hardware";
    case PERF_TYPE_SOFTWARE:
        return "software";
    case PERF_TYPE_TRACEPOINT:
        return "tracepoint";
    case PERF_TYPE_HW_CACHE:
        return "hw-cache";
    case PERF_TYPE_RAW:
        return "raw";
    case PERF_TYPE_BREAKPOINT:
        return "breakpoint";
    }
    return "pmu";
}

/* Try to open one counter as the library would, and close it again. */
static int
try_open(struct perf_event_attr *attr, char *why, size_t n)
{
    struct il_event e;
    memset(&e, 0, sizeof e);
    e.attr = *attr;
    e.fd = -1;
    if (il_perf_open_one(&e, IL_INHERIT_ALL, 0) < 0) {
        il_strlcpy(why, e.error, n);
        return 0;
    }
    close(e.fd);
    return 1;
}

static json_t *
backends(int text)
{
    json_t *b = json_object();
    char why[IL_ERRSHORT], papi[IL_ERRSHORT];
    struct perf_event_attr a;

    il_event_generic("task-clock", &a);
    int sw = try_open(&a, why, sizeof why);
    json_t *perf = json_object();
    if (!sw)
        json_object_set_new(perf, "software_error", json_string(why));
    il_event_generic("cycles", &a);
    int hw = try_open(&a, why, sizeof why);
    json_object_set_new(perf, "hardware", json_boolean(hw));
    if (!hw)
        json_object_set_new(perf, "hardware_error", json_string(why));
    json_object_set_new(perf, "works", json_boolean(sw || hw));
    int par = il_perf_paranoid();
    json_object_set_new(perf, "perf_event_paranoid", json_integer(par));
    json_object_set_new(perf, "paranoid_meaning", json_string(paranoid_meaning(par)));
    json_object_set_new(b, "perf", perf);

    int pok = il_papi_probe(papi, sizeof papi) == 0;
    json_t *pj = json_object();
    json_object_set_new(pj, "works", json_boolean(pok));
    json_object_set_new(pj, "detail", json_string(papi));
    json_object_set_new(b, "papi", pj);
    json_t *none = json_object();
    json_object_set_new(none, "works", json_true());
    json_object_set_new(none, "detail", json_string("times only (wall, user, sys, maxrss)"));
    json_object_set_new(b, "none", none);

    json_t *pfm = json_object();
    int rc = pfm_initialize();
    json_t *pmus = json_array();
    if (rc == PFM_SUCCESS) {
        pfm_pmu_info_t info;
        for (int p = PFM_PMU_NONE; p < PFM_PMU_MAX; p++) {
            memset(&info, 0, sizeof info);
            info.size = sizeof info;
            if (pfm_get_pmu_info((pfm_pmu_t)p, &info) == PFM_SUCCESS && info.is_present)
                json_array_append_new(pmus, json_string(info.name));
        }
    }
    json_object_set_new(pfm, "works", json_boolean(rc == PFM_SUCCESS));
    if (rc != PFM_SUCCESS)
        json_object_set_new(pfm, "error", json_string(pfm_strerror(rc)));
    json_object_set_new(pfm, "pmus", pmus);
    json_object_set_new(b, "libpfm4", pfm);

    if (text) {
        printf("backends:\n");
        printf("  perf   %s", sw ? "works" : "does not work");
        printf("; software events: %s", sw ? "yes" : "no");
        if (!sw)
            printf(" (%s)", json_string_value(json_object_get(perf, "software_error")));
        printf("; hardware events: %s", hw ? "yes" : "no");
        if (!hw)
            printf(" (%s)", json_string_value(json_object_get(perf, "hardware_error")));
        printf("\n         perf_event_paranoid=%d: %s\n", par, paranoid_meaning(par));
        printf("  papi   %s: %s\n", pok ? "works" : "does not work", papi);
        printf("  none   works: times only (wall, user, sys, maxrss)\n");
        printf("  libpfm4 %s", rc == PFM_SUCCESS ? "works; PMUs present:" : "does not work: ");
        if (rc != PFM_SUCCESS)
            printf("%s", pfm_strerror(rc));
        for (size_t i = 0; i < json_array_size(pmus); i++)
            printf(" %s", json_string_value(json_array_get(pmus, i)));
        printf("\n");
        printf("default events here: ");
        for (const char *d = hw ? IL_DEFAULT_EVENTS_HW : IL_DEFAULT_EVENTS_SW; *d; d++)
            if (*d == ',')
                printf(", ");
            else
                putchar(*d);
        printf("\n");
    }
    json_object_set_new(
        b, "default_events",
        json_string(hw ? IL_DEFAULT_EVENTS_HW : IL_DEFAULT_EVENTS_SW));
    return b;
}

static json_t *
resolve(const char *name)
{
    json_t *o = json_object();
    struct perf_event_attr a;
    char why[IL_ERRSHORT];
    const char *via = NULL;
    int rc;

    json_object_set_new(o, "name", json_string(name));
    if (il_event_generic(name, &a) == 0) {
        via = "generic";
    } else if (!il_event_is_papi_name(name)) {
        struct il_pfm_result r;
        const char *names[1] = {name};
        il_pfm_resolve(names, 1, &r);
        if (r.rc == 0) {
            a = r.attr;
            via = "libpfm4";
        } else {
            json_object_set_new(o, "perf_error", json_string(r.error));
        }
    }
    if (via) {
        json_object_set_new(o, "backend", json_string("perf"));
        json_object_set_new(o, "via", json_string(via));
        json_object_set_new(o, "type", json_integer(a.type));
        json_object_set_new(o, "type_name", json_string(type_name(a.type)));
        char hex[24];
        snprintf(hex, sizeof hex, "0x%llx", (unsigned long long)a.config);
        json_object_set_new(o, "config", json_string(hex));
        if (a.config1) {
            snprintf(hex, sizeof hex, "0x%llx", (unsigned long long)a.config1);
            json_object_set_new(o, "config1", json_string(hex));
        }
        json_object_set_new(o, "exclude_user", json_boolean(a.exclude_user));
        json_object_set_new(o, "exclude_kernel", json_boolean(a.exclude_kernel));
        int ok = try_open(&a, why, sizeof why);
        json_object_set_new(o, "opens", json_boolean(ok));
        if (!ok)
            json_object_set_new(o, "error", json_string(why));
        return o;
    }
    /* not perf's: perhaps PAPI's */
    int code;
    rc = il_papi_code(name, &code, why, sizeof why);
    if (rc == 0 || rc == IL_ENOTSUP) {
        char hex[24];
        snprintf(hex, sizeof hex, "0x%x", (unsigned)code);
        json_object_set_new(o, "backend", json_string("papi"));
        json_object_set_new(o, "code", json_string(hex));
        json_object_set_new(o, "opens", json_boolean(rc == 0));
        if (rc)
            json_object_set_new(o, "error", json_string(why));
    } else {
        json_object_set_new(o, "backend", json_null());
        json_object_set_new(o, "opens", json_false());
        json_t *pe = json_object_get(o, "perf_error");
        json_object_set_new(o, "error", json_string(pe ? json_string_value(pe) : why));
    }
    return o;
}

static void
print_event(json_t *e)
{
    const char *name = json_string_value(json_object_get(e, "name"));
    json_t *be = json_object_get(e, "backend");
    int opens = json_is_true(json_object_get(e, "opens"));
    printf("  %-28s ", name);
    if (json_is_null(be)) {
        printf("unresolved: %s\n", json_string_value(json_object_get(e, "error")));
        return;
    }
    if (!strcmp(json_string_value(be), "perf"))
        printf("perf (%s) type=%d (%s) config=%s%s%s", json_string_value(json_object_get(e, "via")),
               (int)json_integer_value(json_object_get(e, "type")),
               json_string_value(json_object_get(e, "type_name")),
               json_string_value(json_object_get(e, "config")),
               json_is_true(json_object_get(e, "exclude_kernel")) ? " user-only" : "",
               json_is_true(json_object_get(e, "exclude_user")) ? " kernel-only" : "");
    else
        printf("papi code=%s", json_string_value(json_object_get(e, "code")));
    if (opens)
        printf("  opens here\n");
    else
        printf("  does not open here: %s\n", json_string_value(json_object_get(e, "error")));
}

int
main(int argc, char **argv)
{
    int as_json = 0, list = 0;
    struct il_optp op;
    il_opt_init(&op, &cmd, argc, argv);
    while (il_opt_next(&op)) {
        if (op.opt->id == O_JSON)
            as_json = 1;
        else
            list = 1;
    }

    json_t *root = json_object();
    json_t *b = backends(!as_json);
    json_object_set_new(root, "backends", b);

    /* the names: arguments, else INTERLOPER_EVENTS, else the defaults */
    const char *names[IL_MAX_EVENTS];
    int n = 0;
    struct il_config cfg;
    if (op.i < argc) {
        for (int i = op.i; i < argc && n < IL_MAX_EVENTS; i++) {
            char *e = il_xstrdup(argv[i]); /* as the library reads it */
            il_event_fold(e, strlen(e));
            names[n++] = e;
        }
    } else {
        char *const noenv[] = {NULL};
        il_config_parse(&cfg, (const char *(*)(const char *))getenv, noenv);
        if (!cfg.events_default) {
            for (int i = 0; i < cfg.nevents; i++)
                names[n++] = cfg.events[i];
        } else {
            static char dflt[64];
            il_strlcpy(dflt, json_string_value(json_object_get(b, "default_events")), sizeof dflt);
            for (char *t = strtok(dflt, ","); t && n < IL_MAX_EVENTS; t = strtok(NULL, ","))
                names[n++] = t;
        }
    }
    json_t *evs = json_array();
    if (!as_json)
        printf("\nevents:\n");
    int bad = 0;
    for (int i = 0; i < n; i++) {
        json_t *e = resolve(names[i]);
        if (json_is_null(json_object_get(e, "backend")))
            bad++;
        if (!as_json)
            print_event(e);
        json_array_append_new(evs, e);
    }
    json_object_set_new(root, "events", evs);
    if (list) {
        json_t *g = json_array();
        if (!as_json)
            printf("\ngeneric names:\n");
        const char *name;
        for (int i = 0; (name = il_generic_name(i)); i++) {
            json_array_append_new(g, json_string(name));
            if (!as_json)
                printf("  %s\n", name);
        }
        if (!as_json)
            printf("\nlibpfm4 names: showevtinfo (libpfm4 examples) or papi_native_avail;\n"
                   "PAPI presets: papi_avail\n");
        json_object_set_new(root, "generic", g);
    }
    if (as_json) {
        json_dumpf(root, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
        printf("\n");
    }
    json_decref(root);
    /* an unresolvable name is bad input: say so in the exit status */
    return bad ? 1 : 0;
}
