/*
 * backend_perf.c: the perf backend, perf_event_open(2) called directly.
 *
 * One counter per event, not a group: like perf stat, each event is
 * scheduled on its own and multiplexed if the PMU runs out of counters,
 * and the record keeps the raw value with TIME_ENABLED and TIME_RUNNING
 * (libpfm4's perf_examples do the same) so nothing is silently scaled.
 *
 * Enabling and disabling use one ioctl per counter, in the same order, so
 * every counter's window holds the same number of our syscalls; the
 * calibrated floor measures exactly that cost.  ioctl works from any
 * thread, which matters because the thread that ends the process need not
 * be the one that opened the counters.
 *
 * Everything here is async-signal-safe (raw system calls): the finish
 * path calls stop_read, floor and restart, maybe from a signal handler.
 * The names are encoded before main by il_perf_encode (pfm.c), which is
 * not: generic names by names.c, the others by libpfm4 in a helper child.
 */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>

#include "il.h"
#include "sys.h"

int
il_perf_paranoid(void)
{
    char b[16];
    if (il_read_small("/proc/sys/kernel/perf_event_paranoid", b, sizeof b) < 0)
        return 99;
    int neg = b[0] == '-', v = 0;
    for (char *p = b + neg; *p >= '0' && *p <= '9'; p++)
        v = v * 10 + (*p - '0');
    return neg ? -v : v;
}

static int
is_hw(const struct perf_event_attr *a)
{
    return a->type == PERF_TYPE_HARDWARE || a->type == PERF_TYPE_HW_CACHE ||
           a->type == PERF_TYPE_RAW || a->type > PERF_TYPE_BREAKPOINT;
}

/* Why perf_event_open failed, in words a user can act on. */
const char *
il_perf_errno_text(int err, const struct perf_event_attr *a, char *buf, size_t n)
{
    const char *why;
    switch (err) {
    case ENOENT:
    case EOPNOTSUPP:
        why = is_hw(a) ? "not supported here (no hardware PMU: a VM without a virtual PMU?)"
                       : "not supported by this kernel";
        break;
    case EACCES:
    case EPERM: {
        char *p = il_cat(buf, "not permitted (perf_event_paranoid=");
        p = il_fmt_i64(p, il_perf_paranoid());
        il_cat(p, "; lower it or run with CAP_PERFMON)");
        return buf;
    }
    case ENOSYS:
        why = "perf_event_open is not available (seccomp filter or a kernel without perf "
              "events)";
        break;
    case EINVAL:
        why = "the kernel rejected the encoding (EINVAL)";
        break;
    case EMFILE:
    case ENFILE:
        why = "too many open files";
        break;
    case ENODEV:
        why = "no such PMU on this machine";
        break;
    case EBUSY:
        why = "the PMU is busy (another tool holds it exclusively)";
        break;
    default:
        why = "perf_event_open failed";
    }
    il_strlcpy(buf, why, n);
    return buf;
}

/*
 * Open one counter on this thread, disabled, created close-on-exec and
 * moved to the highest free descriptor at or below top.  Counters are
 * inherited per INTERLOPER_INHERIT.  When the kernel refuses to count the
 * kernel side (perf_event_paranoid >= 2 without privilege), count user
 * space only, as perf stat does (the record says "scope": "user").
 */
int
il_perf_open_one(struct il_event *e, enum il_inherit inherit, int top)
{
    struct perf_event_attr a = e->attr;
    a.size = sizeof a;
    a.disabled = 1;
    a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
    a.inherit = inherit != IL_INHERIT_NONE;
    a.inherit_thread = inherit == IL_INHERIT_THREADS;
    long fd = il_sys_perf_event_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
    if (fd == -EINVAL && a.inherit_thread) {
        /* inherit_thread needs Linux 5.13: said once, for all events */
        if (!il.inherit_thread_unsupported)
            il_late_error("INTERLOPER_INHERIT=threads needs Linux 5.13 (inherit_thread); "
                          "forked children count into this record as well as their own",
                          "");
        il.inherit_thread_unsupported = 1;
        a.inherit_thread = 0;
        fd = il_sys_perf_event_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
    }
    if ((fd == -EACCES || fd == -EPERM) && !a.exclude_kernel) {
        a.exclude_kernel = 1;
        a.exclude_hv = 1;
        fd = il_sys_perf_event_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
    }
    if (fd < 0) {
        e->ok = 0;
        il_perf_errno_text((int)-fd, &a, e->error, sizeof e->error);
        return IL_ESYS;
    }
    e->attr = a;
    e->fd = top > 0 ? il_fd_place((int)fd, top) : (int)fd;
    struct stat st;
    if (il_sys_fstat(e->fd, &st) == 0) {
        e->fd_dev = st.st_dev;
        e->fd_ino = st.st_ino;
    }
    e->ok = 1;
    e->error[0] = 0;
    return 0;
}

/* Open a counter for every event il_perf_encode() could encode (backends.c
 * calls it first: it is not async-signal-safe, and this file is). */
static int
perf_open(void)
{
    int nok = 0;
    for (int i = 0; i < il.nev; i++)
        if (il.ev[i].resolved && il_perf_open_one(&il.ev[i], il.inherit, il.fd_top) == 0)
            nok++;
    return nok ? 0 : IL_ENOTSUP;
}

static void
perf_close(void)
{
    for (int i = 0; i < il.nev; i++) {
        if (il.ev[i].fd >= 0)
            il_sys_close(il.ev[i].fd);
        il.ev[i].fd = -1;
        il.ev[i].ok = 0;
    }
}

/* The program may have closed our descriptor and reused its number: then
 * reading it would consume the program's data.  Check it is still ours. */
static int
fd_is_ours(const struct il_event *e)
{
    struct stat st;
    return e->fd >= 0 && il_sys_fstat(e->fd, &st) == 0 && st.st_dev == e->fd_dev &&
           st.st_ino == e->fd_ino;
}

static void
ioctl_all(unsigned long req)
{
    for (int i = 0; i < il.nev; i++)
        if (il.ev[i].ok)
            il_sys_ioctl(il.ev[i].fd, req, 0);
}

static void
perf_enable(void)
{
    ioctl_all(PERF_EVENT_IOC_ENABLE);
}

struct il_reading {
    uint64_t value, enabled, running;
};

static int
read_one(const struct il_event *e, struct il_reading *r)
{
    return il_sys_read(e->fd, r, sizeof *r) == (long)sizeof *r ? 0 : -1;
}

/* Stop (only descriptors that are still ours), then read. */
static void
perf_stop_read(void)
{
    for (int i = 0; i < il.nev; i++) {
        struct il_event *e = &il.ev[i];
        if (!e->ok)
            continue;
        if (!fd_is_ours(e)) {
            e->ok = 0;
            il_strlcpy(e->error, "the program closed the counter's descriptor", sizeof e->error);
            continue;
        }
        il_sys_ioctl(e->fd, PERF_EVENT_IOC_DISABLE, 0);
    }
    for (int i = 0; i < il.nev; i++) {
        struct il_event *e = &il.ev[i];
        struct il_reading r;
        if (!e->ok)
            continue;
        if (read_one(e, &r) < 0) {
            e->ok = 0;
            il_strlcpy(e->error, "reading the counter failed", sizeof e->error);
            continue;
        }
        e->value = e->carry + r.value;
        e->enabled = r.enabled;
        e->running = r.running;
    }
}

/*
 * The floor: the count of an empty window, enable immediately followed by
 * disable, the minimum over IL_FLOOR_WINDOWS tries.  This is the fixed
 * cost of reading the counters that every measurement carries (Changkun
 * Ou, "Eliminating A Source of Measurement Errors in Benchmarks", seeds
 * 001: calibrate the empty window and subtract it).  Runs after the final
 * reading, so the program's values are untouched.
 */
static void
perf_floor(void)
{
    struct il_reading before[IL_MAX_EVENTS], after[IL_MAX_EVENTS];
    for (int i = 0; i < il.nev; i++)
        il.ev[i].floor_ok = 0;
    for (int w = 0; w < IL_FLOOR_WINDOWS; w++) {
        for (int i = 0; i < il.nev; i++)
            if (il.ev[i].ok && read_one(&il.ev[i], &before[i]) < 0)
                il.ev[i].ok = 0;
        ioctl_all(PERF_EVENT_IOC_ENABLE);
        ioctl_all(PERF_EVENT_IOC_DISABLE);
        for (int i = 0; i < il.nev; i++) {
            struct il_event *e = &il.ev[i];
            if (!e->ok || read_one(e, &after[i]) < 0)
                continue;
            uint64_t d = after[i].value - before[i].value;
            if (!e->floor_ok || d < e->floor)
                e->floor = d;
            e->floor_ok = 1;
        }
    }
}

/* After a failed exec: what was counted is carried, the counters restart
 * from zero (the calibration windows are not counted). */
static void
perf_restart(void)
{
    for (int i = 0; i < il.nev; i++) {
        struct il_event *e = &il.ev[i];
        if (!e->ok)
            continue;
        e->carry = e->value;
        il_sys_ioctl(e->fd, PERF_EVENT_IOC_RESET, 0);
    }
    perf_enable();
}

/* A forked child that measures itself: the inherited descriptors are the
 * parent's counters; counters of its own replace them. */
static void
perf_after_fork(void)
{
    for (int i = 0; i < il.nev; i++) {
        struct il_event *e = &il.ev[i];
        int was = e->ok;
        if (e->fd >= 0)
            il_sys_close(e->fd);
        e->fd = -1;
        e->carry = 0;
        if (was)
            il_perf_open_one(e, il.inherit, il.fd_top);
    }
}

const struct il_backend il_backend_perf = {
    .name = "perf",
    .caps = IL_CAP_TIMES | IL_CAP_FORK | IL_CAP_SCOPE,
    .open = perf_open,
    .enable = perf_enable,
    .stop_read = perf_stop_read,
    .floor = perf_floor,
    .restart = perf_restart,
    .after_fork = perf_after_fork,
    .close = perf_close,
};

/* Is there a hardware PMU?  One perf_event_open of cycles, closed again. */
int
il_perf_has_pmu(void)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = PERF_TYPE_HARDWARE;
    a.config = PERF_COUNT_HW_CPU_CYCLES;
    a.disabled = 1;
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    long fd = il_sys_perf_event_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
    if (fd < 0)
        return 0;
    il_sys_close((int)fd);
    return 1;
}
