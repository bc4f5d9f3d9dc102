/*
 * names.c: event names that need no library.
 *
 * Generic names (cycles, task-clock, ...) are encoded here, as perf
 * stat spells them, so the common case loads neither libpfm4 nor libpapi.
 * Any other name goes to libpfm4 (pfm.c); names only PAPI knows (PAPI_*
 * presets, component:::names) go to libpapi (backend_papi.c).
 */
#include <string.h>

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

/* for interloper events --list: one spelling of each */
const char *const il_generic_names[] = {
    "cycles",
    "instructions",
    "branches",
    "branch-misses",
    "cache-references",
    "cache-misses",
    "bus-cycles",
    "ref-cycles",
    "stalled-cycles-frontend",
    "stalled-cycles-backend",
    "task-clock",
    "cpu-clock",
    "page-faults",
    "minor-faults",
    "major-faults",
    "context-switches",
    "cpu-migrations",
    "alignment-faults",
    "emulation-faults",
    NULL,
};

/*
 * Encode a generic name, with an optional perf-style modifier: ":u" counts
 * user space only, ":k" the kernel only, ":uk" both.  Returns 0, or
 * IL_ENOEVENT when the name is not generic (then libpfm4 gets a try).
 */
int
il_event_generic(const char *name, struct perf_event_attr *attr)
{
    const char *mod = strchr(name, ':');
    size_t n = mod ? (size_t)(mod - name) : strlen(name);
    int u = 1, k = 1;
    if (mod) {
        mod++;
        if (!strcmp(mod, "u"))
            k = 0;
        else if (!strcmp(mod, "k"))
            u = 0;
        else if (strcmp(mod, "uk") && strcmp(mod, "ku"))
            return IL_ENOEVENT;
    }
    /* the first letter first: every measured process names a few events */
    for (const struct il_generic *g = il_generic; g->name; g++) {
        if (g->name[0] != name[0] || strncmp(g->name, name, n) || g->name[n])
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
