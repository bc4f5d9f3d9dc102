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

/* Names in arrays, not pointers: a table of pointers costs every process a
 * relocation per entry at load. */
struct il_generic {
    char name[24];
    uint32_t type;
    uint64_t config;
    int listed; /* the spelling interloper events --list shows; the others are aliases */
};

static const struct il_generic il_generic[] = {
    {"cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 1},
    {"cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 0},
    {"instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 1},
    {"branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 1},
    {"branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 0},
    {"branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, 1},
    {"cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES, 1},
    {"cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, 1},
    {"bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES, 1},
    {"ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES, 1},
    {"stalled-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, 1},
    {"stalled-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND, 1},
    {"task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, 1},
    {"cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, 1},
    {"page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, 1},
    {"faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, 0},
    {"minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN, 1},
    {"major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ, 1},
    {"context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, 1},
    {"cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, 0},
    {"cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, 1},
    {"migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, 0},
    {"alignment-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS, 1},
    {"emulation-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS, 1},
    {"", 0, 0, 0},
};

/* for interloper events --list: one spelling of each, in the table's
 * order; NULL past the last */
const char *
il_generic_name(int i)
{
    for (const struct il_generic *g = il_generic; g->name[0]; g++)
        if (g->listed && i-- == 0)
            return g->name;
    return NULL;
}

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
    for (const struct il_generic *g = il_generic; g->name[0]; g++) {
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

/* c, lower case where it is an ASCII capital */
static char
lower(char c)
{
    return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/*
 * A generic name as the library records it: in lower case, however the
 * user spelled it (outside13 F6: "-e TASK-CLOCK" counted task-clock and
 * recorded it as "TASK-CLOCK", so one event made two metrics, and runs of
 * two spellings two groups).  name, n bytes, is made lower case in place
 * where it is a generic name (perf stat's, and its aliases) and modifier
 * in any case; any other name is left as given (libpfm4's and PAPI's
 * names are their own).  Returns 1 when it changed name.
 */
int
il_event_fold(char *name, size_t n)
{
    size_t k = 0;
    while (k < n && (name[k] < 'A' || name[k] > 'Z')) /* the common case: nothing to fold */
        k++;
    if (k == n)
        return 0;
    k = 0;
    while (k < n && name[k] != ':')
        k++;
    for (size_t i = k; i < n; i++) /* nothing, or ":" and u, k, uk or ku */
        if (i > k && lower(name[i]) != 'u' && lower(name[i]) != 'k')
            return 0;
    if (n - k > 3)
        return 0;
    for (const struct il_generic *g = il_generic; g->name[0]; g++) {
        size_t i = 0;
        if (!k || g->name[0] != lower(name[0])) /* the first letter first */
            continue;
        while (i < k && g->name[i] && lower(name[i]) == g->name[i])
            i++;
        if (i < k || g->name[k])
            continue;
        int changed = 0;
        for (i = 0; i < n; i++)
            if (lower(name[i]) != name[i]) {
                name[i] = lower(name[i]);
                changed = 1;
            }
        return changed;
    }
    return 0;
}

/* A list of names separated by sep (blanks around each allowed), each
 * folded (il_event_fold) in place. */
void
il_events_fold(char *list, char sep)
{
    for (char *p = list; *p;) {
        while (*p == ' ' || *p == '\t')
            p++;
        size_t l = 0;
        while (p[l] && p[l] != sep)
            l++;
        size_t k = l;
        while (k && (p[k - 1] == ' ' || p[k - 1] == '\t'))
            k--;
        il_event_fold(p, k);
        p += l + (p[l] == sep);
    }
}

/* PAPI presets are PAPI_*; PAPI natives of other components use ":::". */
int
il_event_is_papi_name(const char *name)
{
    return !strncmp(name, "PAPI_", 5) || strstr(name, ":::") != NULL;
}
