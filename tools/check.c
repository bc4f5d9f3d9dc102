/*
 * check.c: is this machine fit to measure on?  The state machine.c
 * records (pyperf's `system show` is the model), judged: for each fact,
 * what is wrong and how to fix it, in one line.  interloper check prints
 * every finding; interloper sweep prints the problems when it starts, and record them in the
 * start's machine line.  Nothing here changes the machine (DESIGN.md, "Out of scope"): each finding
 * names the command that would.
 *
 * Two facts need a moment of the machine's life: how busy each CPU is now
 * (for SMT siblings) and how much time the hypervisor takes (steal).  Both
 * come from /proc/stat read twice, IL_CHECK_SAMPLE_MS apart (less at a sweep's start).
 */
#include <jansson.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sweep.h"
#include "il_plural.h"

#define IL_CHECK_SAMPLE_MS 200        /* interloper check */
#define IL_CHECK_SAMPLE_MS_DRIVER 100 /* at a sweep's start, which waits for it */
#define MAXCPU 4096

/* per-CPU busy and steal ticks of /proc/stat; the count of CPUs read */
struct ticks {
    unsigned long long all[MAXCPU], idle[MAXCPU], steal[MAXCPU];
    unsigned long long tot_all, tot_steal;
    int n;
};

static void
read_ticks(struct ticks *t)
{
    memset(t, 0, sizeof *t);
    FILE *f = fopen("/proc/stat", "re");
    char line[512];
    while (f && fgets(line, sizeof line, f)) {
        unsigned long long v[8] = {0};
        int cpu = -1;
        if (!strncmp(line, "cpu ", 4)) {
            if (sscanf(line + 4, "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
                       &v[3], &v[4], &v[5], &v[6], &v[7]) == 8) {
                for (int i = 0; i < 8; i++)
                    t->tot_all += v[i];
                t->tot_steal = v[7];
            }
            continue;
        }
        if (strncmp(line, "cpu", 3) ||
            sscanf(line + 3, "%d %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &v[0], &v[1],
                   &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) != 9 ||
            cpu < 0 || cpu >= MAXCPU)
            continue;
        for (int i = 0; i < 8; i++)
            t->all[cpu] += v[i];
        t->idle[cpu] = v[3] + v[4]; /* idle and iowait */
        t->steal[cpu] = v[7];
        if (cpu + 1 > t->n)
            t->n = cpu + 1;
    }
    if (f)
        fclose(f);
}

/* ------------------------------------------------------------ findings */

static void add(struct il_findings *fs, const char *name, enum il_finding_level level,
                const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void
add(struct il_findings *fs, const char *name, enum il_finding_level level, const char *fmt, ...)
{
    if (fs->n == sizeof fs->v / sizeof fs->v[0])
        return;
    struct il_finding *f = &fs->v[fs->n++];
    f->name = name;
    f->level = level;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->text, sizeof f->text, fmt, ap);
    va_end(ap);
    if (level == IL_FINDING_PROBLEM)
        fs->problems++;
}

static const char *
str(json_t *m, const char *k)
{
    return json_string_value(json_object_get(m, k));
}

/* the distinct values of a per-CPU list, "a, b" */
static void
joined(json_t *a, char *out, size_t n)
{
    size_t i, o = 0;
    json_t *v;
    out[0] = 0;
    json_array_foreach(a, i, v)
    {
        int k = snprintf(out + o, n - o, "%s%s", i ? ", " : "", json_string_value(v));
        if (k < 0 || (size_t)k >= n - o)
            break;
        o += (size_t)k;
    }
}

static int
cpus_online(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

static void
check_load(struct il_findings *fs, json_t *m)
{
    json_t *la = json_object_get(m, IL_MF_LOADAVG);
    int ncpu = cpus_online();
    if (!json_is_array(la)) {
        add(fs, "load", IL_FINDING_NOTE, "no load average here (/proc/loadavg)");
        return;
    }
    double l1 = json_number_value(json_array_get(la, 0));
    if (l1 > ncpu / 2.0 && l1 >= 1.0)
        add(fs, "load", IL_FINDING_PROBLEM,
            "load average %.2f on %d CPU%s: other programs compete with the measured ones and "
            "slow runs at random%s; stop them (top shows which) or measure on a quiet machine",
            l1, ncpu, il_s(ncpu),
            l1 > ncpu ? " (more than the CPUs: every CPU is shared)" : "");
    else
        add(fs, "load", IL_FINDING_OK, "load average %.2f on %d CPU%s", l1, ncpu,
            il_s(ncpu));
}

static void
check_governor(struct il_findings *fs, json_t *m)
{
    json_t *g = json_object_get(m, IL_MF_GOVERNOR);
    char list[256];
    if (!json_array_size(g)) {
        add(fs, "governor", IL_FINDING_OK,
            "no CPU frequency scaling here (cpufreq absent: a VM's host, or the firmware, sets "
            "the frequency)");
        return;
    }
    joined(g, list, sizeof list);
    if (json_array_size(g) == 1 && !strcmp(json_string_value(json_array_get(g, 0)), "performance"))
        add(fs, "governor", IL_FINDING_OK, "frequency governor performance on every CPU");
    else
        add(fs, "governor", IL_FINDING_PROBLEM,
            "frequency governor %s: the clock speed follows the load, so runs differ with what "
            "ran just before; cpupower frequency-set -g performance (as root)",
            list);
}

static void
check_boost(struct il_findings *fs, json_t *m)
{
    const char *b = str(m, IL_MF_BOOST);
    if (!b)
        add(fs, "boost", IL_FINDING_OK, "no boost control here (no cpufreq boost or intel_pstate)");
    else if (!strcmp(b, "on"))
        add(fs, "boost", IL_FINDING_PROBLEM,
            "turbo boost on: the frequency depends on temperature and on the other cores' load; "
            "echo 0 > /sys/devices/system/cpu/cpufreq/boost (or echo 1 > "
            "/sys/devices/system/cpu/intel_pstate/no_turbo)");
    else
        add(fs, "boost", IL_FINDING_OK, "turbo boost off");
}

/* SMT: which CPUs share a core with another, and are those busy? */
static void
check_smt(struct il_findings *fs, const struct ticks *a, const struct ticks *b)
{
    char busy[512] = "";
    size_t o = 0;
    int shared = 0, nbusy = 0;
    for (int c = 0; c < b->n; c++) {
        char path[128], list[128];
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list",
                 c);
        FILE *f = fopen(path, "re");
        if (!f)
            continue;
        int got = fgets(list, sizeof list, f) != NULL;
        fclose(f);
        if (!got || !strpbrk(list, ",-"))
            continue; /* a core of its own */
        shared++;
        unsigned long long all = b->all[c] - a->all[c], idle = b->idle[c] - a->idle[c];
        double pct = all ? 100.0 * (double)(all - (idle < all ? idle : all)) / (double)all : 0;
        if (pct >= 25 && o < sizeof busy - 32) {
            int k = snprintf(busy + o, sizeof busy - o, "%s%d (%.0f%%)", nbusy ? ", " : "", c, pct);
            o += k > 0 ? (size_t)k : 0;
            nbusy++;
        }
    }
    if (!shared)
        add(fs, "smt", IL_FINDING_OK, "no CPU shares a core with another (SMT off or absent)");
    else if (nbusy)
        add(fs, "smt", IL_FINDING_PROBLEM,
            "SMT on and CPUs that share a core are busy: %s; a program on a sibling thread "
            "shares the measured core's units; echo off > /sys/devices/system/cpu/smt/control, "
            "or --cpu a core whose siblings are idle",
            busy);
    else
        add(fs, "smt", IL_FINDING_NOTE,
            "SMT on (%d CPUs share a core), their siblings idle now; echo off > "
            "/sys/devices/system/cpu/smt/control keeps them so",
            shared);
}

static void
check_steal(struct il_findings *fs, const struct ticks *a, const struct ticks *b)
{
    unsigned long long all = b->tot_all - a->tot_all, steal = b->tot_steal - a->tot_steal;
    double now = all ? 100.0 * (double)steal / (double)all : 0;
    double ever = b->tot_all ? 100.0 * (double)b->tot_steal / (double)b->tot_all : 0;
    if (now >= 1 || ever >= 5)
        add(fs, "steal", IL_FINDING_PROBLEM,
            "the hypervisor took %.1f%% of the CPUs' time just now (%.1f%% since boot): another "
            "guest's work is taken from the measured programs'; measure on a host of your own "
            "or on bare metal",
            now, ever);
    else if (!b->tot_steal)
        add(fs, "steal", IL_FINDING_OK, "no steal time (bare metal, or a quiet host)");
    else
        add(fs, "steal", IL_FINDING_OK, "steal %.1f%% just now, %.1f%% since boot", now, ever);
}

static void
check_aslr(struct il_findings *fs, json_t *m)
{
    const char *r = str(m, IL_MF_ASLR);
    if (!r || !strcmp(r, "0"))
        add(fs, "aslr", IL_FINDING_OK, "ASLR off (randomize_va_space %s)", r ? r : "unknown");
    else
        add(fs, "aslr", IL_FINDING_NOTE,
            "ASLR on (randomize_va_space %s): interloper run and sweep turn it off for what "
            "they run (--aslr on to keep it); under LD_PRELOAD alone, setarch -R PROG",
            r);
}

static void
check_thp(struct il_findings *fs, json_t *m)
{
    const char *t = str(m, IL_MF_THP);
    if (t && !strcmp(t, "always"))
        add(fs, "thp", IL_FINDING_PROBLEM,
            "transparent huge pages always: khugepaged remaps memory in the background and "
            "a run's page faults depend on what was free; echo madvise > "
            "/sys/kernel/mm/transparent_hugepage/enabled");
    else
        add(fs, "thp", IL_FINDING_OK, "transparent huge pages %s", t ? t : "absent");
}

static void
check_paranoid(struct il_findings *fs, json_t *m)
{
    const char *p = str(m, IL_MF_PARANOID);
    int level = p ? atoi(p) : 0;
    if (!p)
        add(fs, "paranoid", IL_FINDING_PROBLEM,
            "no /proc/sys/kernel/perf_event_paranoid: this kernel has no perf events; "
            "only times are measured (--backend none)");
    else if (level > 2 && geteuid() != 0)
        add(fs, "paranoid", IL_FINDING_PROBLEM,
            "perf_event_paranoid %d: a user other than root may not count events; "
            "sysctl kernel.perf_event_paranoid=2 (as root), or --backend none for times only",
            level);
    else if (level > 1 && geteuid() != 0)
        add(fs, "paranoid", IL_FINDING_NOTE,
            "perf_event_paranoid %d: user-space counts only (events count with :u); "
            "sysctl kernel.perf_event_paranoid=1 lets kernel time count too",
            level);
    else
        add(fs, "paranoid", IL_FINDING_OK, "perf_event_paranoid %d%s", level,
            geteuid() == 0 ? " (root counts everything)" : "");
}

/* A process of interloper that holds the software events' switches: hold,
 * a sweep or a compare (their short names, as the kernel cuts them). */
static long
holder(char *name, size_t n)
{
    DIR *d = opendir("/proc");
    struct dirent *e;
    long found = 0;
    while (d && (e = readdir(d)) && !found) {
        char path[300], comm[64];
        long pid = strtol(e->d_name, NULL, 10);
        if (pid <= 0 || pid == (long)getpid())
            continue;
        snprintf(path, sizeof path, "/proc/%ld/comm", pid);
        FILE *f = fopen(path, "re");
        if (!f)
            continue;
        int got = fgets(comm, sizeof comm, f) != NULL;
        fclose(f);
        comm[strcspn(comm, "\n")] = 0;
        if (got && (!strcmp(comm, "interloper-hold") || !strcmp(comm, "interloper-swee") ||
                    !strcmp(comm, "interloper-comp"))) {
            snprintf(name, n, "%s", comm);
            found = pid;
        }
    }
    if (d)
        closedir(d);
    return found;
}

static void
check_hold(struct il_findings *fs)
{
    char who[64];
    long pid = holder(who, sizeof who);
    if (pid)
        add(fs, "hold", IL_FINDING_OK, "the software events' switches are held (%s, pid %ld)", who,
            pid);
    else
        add(fs, "hold", IL_FINDING_NOTE,
            "the software events' switches are not held: each measured process switches them "
            "on and off (about 300 us on a VM); a sweep holds them itself, a loop of "
            "your own: interloper hold -- CMD");
}

void
il_check(struct il_findings *fs, json_t *machine, int driver)
{
    struct ticks *a = il_xmalloc(sizeof *a), *b = il_xmalloc(sizeof *b);
    memset(fs, 0, sizeof *fs);
    read_ticks(a);
    struct timespec ts = {0, (driver ? IL_CHECK_SAMPLE_MS_DRIVER : IL_CHECK_SAMPLE_MS) * 1000000L};
    while (nanosleep(&ts, &ts) < 0)
        ;
    read_ticks(b);
    check_load(fs, machine);
    check_governor(fs, machine);
    check_boost(fs, machine);
    check_smt(fs, a, b);
    check_steal(fs, a, b);
    check_thp(fs, machine);
    check_paranoid(fs, machine);
    if (!driver) {
        /* a sweep turns ASLR off and holds the switches itself */
        check_aslr(fs, machine);
        check_hold(fs);
    }
    free(a);
    free(b);
}

json_t *
il_findings_json(const struct il_findings *fs)
{
    static const char *const lv[] = {"ok", "note", "problem"};
    json_t *a = json_array();
    for (size_t i = 0; i < fs->n; i++)
        json_array_append_new(a, json_pack("{s:s,s:s,s:s}", "check", fs->v[i].name, "level",
                                           lv[fs->v[i].level], "text", fs->v[i].text));
    return a;
}

void
il_findings_warn(const struct il_findings *fs, const char *me)
{
    for (size_t i = 0; i < fs->n; i++)
        if (fs->v[i].level == IL_FINDING_PROBLEM)
            fprintf(stderr, "%s: machine: %s\n", me, fs->v[i].text);
}
