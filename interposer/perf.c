/*
 * perf.c: the perf backend, perf_event_open(2) called directly.
 *
 * One counter per event, not a group: like perf stat, each event is
 * scheduled on its own and multiplexed if the PMU runs out of counters,
 * and the record keeps the raw value with TIME_ENABLED and TIME_RUNNING
 * (libpfm4's perf_examples do the same) so nothing is silently scaled.
 *
 * Enabling and disabling use one ioctl per counter, in the same order, so
 * every counter's window holds the same number of our syscalls; the
 * calibrated floor (il_perf_floor) measures exactly that cost.  ioctl works
 * from any thread, which matters because exit() may be called by a thread
 * other than the one that opened the counters.
 *
 * Everything called after main is async-signal-safe.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "il.h"

int
il_perf_paranoid(void)
{
    char b[16] = {0};
    int fd = open("/proc/sys/kernel/perf_event_paranoid", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 99;
    ssize_t n = read(fd, b, sizeof b - 1);
    close(fd);
    if (n <= 0)
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
 * Open one counter on this thread, disabled.  When the kernel refuses to
 * count the kernel side (perf_event_paranoid >= 2 without privilege),
 * count user space only, as perf stat does, and say so in the name's
 * error-free record through exclude_kernel (the record shows "scope").
 */
int
il_perf_open(struct il_event *e, enum il_inherit inherit)
{
    struct perf_event_attr a = e->attr;
    il_attr_init(&a, inherit);
    long fd = il_sys_perf_event_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
    if (fd < 0 && errno == EINVAL && a.inherit_thread) {
        /* inherit_thread needs Linux 5.13: said once, for all events */
        if (!il.inherit_thread_unsupported)
            il_late_error("INTERLOPER_INHERIT=threads needs Linux 5.13 (inherit_thread); "
                          "forked children count into this record as well as their own",
                          "");
        il.inherit_thread_unsupported = 1;
        a.inherit_thread = 0;
        fd = il_sys_perf_event_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
    }
    if (fd < 0 && (errno == EACCES || errno == EPERM) && !a.exclude_kernel) {
        a.exclude_kernel = 1;
        a.exclude_hv = 1;
        fd = il_sys_perf_event_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
    }
    if (fd < 0) {
        int err = errno;
        e->ok = 0;
        il_perf_errno_text(err, &a, e->error, sizeof e->error);
        return IL_ESYS;
    }
    e->attr = a;
    e->fd = il_move_fd_high((int)fd);
    struct stat st;
    if (fstat(e->fd, &st) == 0) {
        e->fd_dev = st.st_dev;
        e->fd_ino = st.st_ino;
    }
    e->ok = 1;
    e->error[0] = 0;
    return 0;
}

void
il_perf_close_all(void)
{
    for (int i = 0; i < il.nev; i++) {
        if (il.ev[i].fd >= 0)
            close(il.ev[i].fd);
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
    return e->fd >= 0 && fstat(e->fd, &st) == 0 && st.st_dev == e->fd_dev &&
           st.st_ino == e->fd_ino;
}

void
il_perf_enable(void)
{
    for (int i = 0; i < il.nev; i++)
        if (il.ev[i].ok)
            ioctl(il.ev[i].fd, PERF_EVENT_IOC_ENABLE, 0);
}

void
il_perf_disable(void)
{
    for (int i = 0; i < il.nev; i++)
        if (il.ev[i].ok)
            ioctl(il.ev[i].fd, PERF_EVENT_IOC_DISABLE, 0);
}

/* At the end: only descriptors that are still ours (see il_perf_read). */
void
il_perf_stop(void)
{
    for (int i = 0; i < il.nev; i++)
        if (il.ev[i].ok && fd_is_ours(&il.ev[i]))
            ioctl(il.ev[i].fd, PERF_EVENT_IOC_DISABLE, 0);
}

struct il_reading {
    uint64_t value, enabled, running;
};

static int
read_one(const struct il_event *e, struct il_reading *r)
{
    return read(e->fd, r, sizeof *r) == (ssize_t)sizeof *r ? 0 : -1;
}

void
il_perf_read(void)
{
    for (int i = 0; i < il.nev; i++) {
        struct il_event *e = &il.ev[i];
        struct il_reading r;
        if (!e->ok)
            continue;
        if (!fd_is_ours(e)) {
            e->ok = 0;
            il_strlcpy(e->error, "the program closed the counter's descriptor",
                       sizeof e->error);
            continue;
        }
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
void
il_perf_floor(void)
{
    struct il_reading before[IL_MAX_EVENTS], after[IL_MAX_EVENTS];
    for (int i = 0; i < il.nev; i++)
        il.ev[i].floor_ok = 0;
    for (int w = 0; w < IL_FLOOR_WINDOWS; w++) {
        for (int i = 0; i < il.nev; i++)
            if (il.ev[i].ok && read_one(&il.ev[i], &before[i]) < 0)
                il.ev[i].ok = 0;
        il_perf_enable();
        il_perf_disable();
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
    close((int)fd);
    return 1;
}
