/*
 * machine.c: a snapshot of what in the machine's state bears on
 * measurements, taken when a sweep starts, every --snapshot-every while it
 * runs, and when it ends, so that a burst of slow runs can be explained
 * afterwards, and machines compared (machfacts.c).  pyperf's metadata is
 * the bar (CPU model and count, frequency governor and driver, turbo, SMT,
 * isolated CPUs, load, ASLR); steal time is there because on a virtual
 * machine another guest's work is taken from the measured program's.
 * Nothing here changes the machine (DESIGN.md, "Out of scope").  What the
 * kernel does not expose here is null.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "il_version.h" /* generated from VERSION (Makefile) */
#include "sweep.h"

/* The first line of a small file, without its newline; NULL if none. */
static char *
first_line(const char *path, char *buf, size_t n)
{
    FILE *f = fopen(path, "re");
    if (!f)
        return NULL;
    char *r = fgets(buf, (int)n, f);
    fclose(f);
    if (!r)
        return NULL;
    buf[strcspn(buf, "\n")] = 0;
    return buf;
}

static json_t *
file_str(const char *path)
{
    char b[512];
    return first_line(path, b, sizeof b) ? json_string(b) : json_null();
}

/* "always [madvise] never" -> "madvise" */
static json_t *
bracketed(const char *path)
{
    char b[512];
    if (!first_line(path, b, sizeof b))
        return json_null();
    char *l = strchr(b, '['), *r = l ? strchr(l, ']') : NULL;
    if (!l || !r)
        return json_string(b);
    *r = 0;
    return json_string(l + 1);
}

static json_t *
on_off(const char *path, int invert)
{
    char b[64];
    if (!first_line(path, b, sizeof b))
        return NULL;
    int on = atoi(b) != 0;
    return json_string(on != invert ? "on" : "off");
}

/* every CPU's value of a cpufreq file, as a list of the distinct ones */
static json_t *
per_cpu(const char *file)
{
    json_t *vals = json_array();
    long n = sysconf(_SC_NPROCESSORS_CONF);
    for (long c = 0; c < n && c < 4096; c++) {
        char path[128], b[128];
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%ld/cpufreq/%s", c, file);
        if (!first_line(path, b, sizeof b))
            continue;
        int seen = 0;
        for (size_t i = 0; i < json_array_size(vals); i++)
            seen |= !strcmp(json_string_value(json_array_get(vals, i)), b);
        if (!seen)
            json_array_append_new(vals, json_string(b));
    }
    if (!json_array_size(vals)) {
        json_decref(vals);
        return json_null();
    }
    return vals;
}

json_t *
il_machine(void)
{
    json_t *m = json_object();
    char b[1024], now[32];
    struct utsname u;
    il_utc_now(now);
    json_object_set_new(m, IL_M_TIME, json_string(now));
    if (gethostname(b, sizeof b - 1) == 0)
        json_object_set_new(m, IL_F_HOST, json_string(b));
    json_object_set_new(m, IL_F_VERSION, json_string(IL_VERSION)); /* interloper's, here */
    if (uname(&u) == 0) {
        snprintf(b, sizeof b, "%s %s %s", u.sysname, u.release, u.machine);
        json_object_set_new(m, IL_F_KERNEL, json_string(b));
    }
    FILE *f = fopen("/proc/cpuinfo", "re");
    while (f && fgets(b, sizeof b, f)) {
        if (!strncmp(b, "model name", 10) && strchr(b, ':')) {
            char *v = strchr(b, ':') + 2;
            v[strcspn(v, "\n")] = 0;
            json_object_set_new(m, IL_F_CPU, json_string(v));
            break;
        }
    }
    if (f)
        fclose(f);
    json_object_set_new(m, IL_MF_CPUS_ONLINE, file_str("/sys/devices/system/cpu/online"));
    json_object_set_new(m, "cpus_isolated", file_str("/sys/devices/system/cpu/isolated"));
    json_object_set_new(m, "nohz_full", file_str("/sys/devices/system/cpu/nohz_full"));
    json_object_set_new(m, IL_MF_GOVERNOR, per_cpu("scaling_governor"));
    json_object_set_new(m, "cpufreq_driver", per_cpu("scaling_driver"));
    json_t *boost = on_off("/sys/devices/system/cpu/cpufreq/boost", 0);
    if (!boost)
        boost = on_off("/sys/devices/system/cpu/intel_pstate/no_turbo", 1);
    json_object_set_new(m, IL_MF_BOOST, boost ? boost : json_null());
    json_t *smt = on_off("/sys/devices/system/cpu/smt/active", 0);
    json_object_set_new(m, IL_MF_SMT, smt ? smt : json_null());
    json_object_set_new(m, "smt_control", file_str("/sys/devices/system/cpu/smt/control"));
    json_object_set_new(m, IL_MF_THP, bracketed("/sys/kernel/mm/transparent_hugepage/enabled"));
    json_object_set_new(m, "thp_defrag", bracketed("/sys/kernel/mm/transparent_hugepage/defrag"));
    json_object_set_new(m, IL_MF_ASLR, file_str("/proc/sys/kernel/randomize_va_space"));
    json_object_set_new(m, IL_MF_PARANOID, file_str("/proc/sys/kernel/perf_event_paranoid"));
    double l1, l5, l15;
    char runnable[64];
    if (first_line("/proc/loadavg", b, sizeof b) &&
        sscanf(b, "%lf %lf %lf %63s", &l1, &l5, &l15, runnable) == 4) {
        json_object_set_new(m, IL_MF_LOADAVG, json_pack("[f,f,f]", l1, l5, l15));
        json_object_set_new(m, "runnable", json_string(runnable));
    }
    /* the whole machine's CPU time so far, in ticks, steal among it */
    unsigned long long t[8] = {0};
    if (first_line("/proc/stat", b, sizeof b) &&
        sscanf(b, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &t[0], &t[1], &t[2], &t[3], &t[4],
               &t[5], &t[6], &t[7]) == 8) {
        unsigned long long all = 0;
        for (int i = 0; i < 8; i++)
            all += t[i];
        json_object_set_new(m, IL_MF_STEAL_TICKS, json_integer((json_int_t)t[7]));
        json_object_set_new(m, IL_MF_ALL_TICKS, json_integer((json_int_t)all));
        json_object_set_new(m, "ticks_per_s", json_integer(sysconf(_SC_CLK_TCK)));
    }
    f = fopen("/proc/meminfo", "re");
    while (f && fgets(b, sizeof b, f))
        if (!strncmp(b, "MemAvailable:", 13))
            json_object_set_new(m, "mem_available_kib", json_integer(atoll(b + 13)));
        else if (!strncmp(b, "MemTotal:", 9))
            json_object_set_new(m, IL_MF_MEM_TOTAL, json_integer(atoll(b + 9)));
    if (f)
        fclose(f);
    if (first_line("/proc/uptime", b, sizeof b))
        json_object_set_new(m, "uptime_s", json_real(atof(b)));
    return m;
}
