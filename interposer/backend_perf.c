/*
 * backend_perf.c: the perf backend, perf_event_open(2) called directly.
 *
 * The software events counted where they happen (page-faults,
 * context-switches, cpu-migrations and the like) form one group, enabled,
 * disabled and read as one (PERF_IOC_FLAG_GROUP, PERF_FORMAT_GROUP): they
 * are never short of a counter, and one system call then does for all
 * what took one each, which, in the calibration windows, is most of what
 * the library asks of the kernel.  The clocks (task-clock, cpu-clock),
 * timer-driven, stay out of it: a page-faults counter in a group that
 * task-clock leads misses about a fifth of the faults (Linux 6.18;
 * tests/system/interposer_exit.sh's atexit case).  task-clock needs no
 * counter of its own beside the group: it counts the time its context is
 * scheduled in (task_clock_event_read: ctx->time), which is exactly the
 * TIME_RUNNING of the group's events, in the same context and the same
 * window, so it is read from there (equal to the nanosecond where both
 * were opened over one window).  Hardware events stay
 * one counter each too, like perf stat's: a group larger than the PMU's
 * free counters is never scheduled at all, where single events are
 * multiplexed, and the number of free counters is not known before
 * counting.  The record keeps each raw value with
 * TIME_ENABLED and TIME_RUNNING (libpfm4's perf_examples do the same) so
 * nothing is silently scaled.
 *
 * Enabling and disabling go group first, then one ioctl per single
 * counter, in the same order, so every counter's window holds the same
 * syscalls each time; the calibrated floor measures exactly that cost.
 * ioctl works from any thread, which matters because the thread that ends
 * the process need not be the one that opened the counters.
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

#define IL_FMT_SINGLE (PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)
#define IL_FMT_GROUP (IL_FMT_SINGLE | PERF_FORMAT_GROUP | PERF_FORMAT_ID)

/*
 * Open one counter on this thread, disabled, created close-on-exec and
 * moved to the highest free descriptor at or below top (below the
 * library's other descriptors when top is -1, left where it is when 0),
 * alone or in the group led by group_fd.  Counters are inherited per INTERLOPER_INHERIT.
 * When the kernel refuses to count the kernel side (perf_event_paranoid
 * >= 2 without privilege), count user space only, as perf stat does (the
 * record says "scope": "user").
 */
static int
open_one(struct il_event *e, enum il_inherit inherit, int top, int group_fd, int grouped)
{
    struct perf_event_attr a = e->attr;
    a.size = sizeof a;
    a.disabled = 1;
    a.read_format = grouped ? IL_FMT_GROUP : IL_FMT_SINGLE;
    a.inherit = inherit != IL_INHERIT_NONE;
    a.inherit_thread = inherit == IL_INHERIT_THREADS;
    long fd = il_sys_perf_event_open(&a, 0, -1, group_fd, PERF_FLAG_FD_CLOEXEC);
    if (fd == -EINVAL && a.inherit_thread) {
        /* inherit_thread needs Linux 5.13: said once, for all events */
        if (!il.inherit_thread_unsupported)
            il_late_error("INTERLOPER_INHERIT=threads needs Linux 5.13 (inherit_thread); "
                          "forked children count into this record as well as their own",
                          "");
        il.inherit_thread_unsupported = 1;
        a.inherit_thread = 0;
        fd = il_sys_perf_event_open(&a, 0, -1, group_fd, PERF_FLAG_FD_CLOEXEC);
    }
    if ((fd == -EACCES || fd == -EPERM) && !a.exclude_kernel) {
        a.exclude_kernel = 1;
        a.exclude_hv = 1;
        fd = il_sys_perf_event_open(&a, 0, -1, group_fd, PERF_FLAG_FD_CLOEXEC);
    }
    if (fd < 0) {
        e->ok = 0;
        il_perf_errno_text((int)-fd, &a, e->error, sizeof e->error);
        return IL_ESYS;
    }
    e->attr = a;
    e->grouped = grouped;
    e->fd = top < 0 ? il_fd_keep((int)fd) : top > 0 ? il_fd_place((int)fd, top) : (int)fd;
    e->ok = 1;
    e->error[0] = 0;
    return 0;
}

/* One counter on its own (interloper events' probe too). */
int
il_perf_open_one(struct il_event *e, enum il_inherit inherit, int top)
{
    if (open_one(e, inherit, top, -1, 0) < 0)
        return IL_ESYS;
    return 0;
}

struct il_reading {
    uint64_t value, enabled, running;
};

/* The group's reading: {nr, enabled, running, {value, id}[nr]}. */
struct il_group_reading {
    uint64_t nr, enabled, running;
    struct {
        uint64_t value, id;
    } v[IL_MAX_EVENTS];
};

static int
read_group(struct il_group_reading *g)
{
    long n = il_sys_read(il.ev[il.group].fd, g, sizeof *g);
    return n >= (long)(3 * sizeof(uint64_t)) && g->nr <= IL_MAX_EVENTS &&
                   (size_t)n >= (3 + 2 * g->nr) * sizeof(uint64_t)
               ? 0
               : -1;
}

static int
groups(const struct il_event *e)
{
    return e->attr.type == PERF_TYPE_SOFTWARE && e->attr.config != PERF_COUNT_SW_TASK_CLOCK &&
           e->attr.config != PERF_COUNT_SW_CPU_CLOCK;
}

static int
is_task_clock(const struct il_event *e)
{
    return e->attr.type == PERF_TYPE_SOFTWARE && e->attr.config == PERF_COUNT_SW_TASK_CLOCK &&
           !e->attr.exclude_kernel && !e->attr.exclude_user;
}

/*
 * The counters were opened where the kernel put them, the lowest free
 * descriptors (a member's group_fd is its leader's there): each is copied
 * up to ours (il_fd_keep_high), and the low ones are closed together, in
 * one close_range where they are contiguous (they are, unless the program
 * left a hole among its own, which the range must not close).
 */
static void
place_high(void)
{
    int low[IL_MAX_EVENTS], n = 0, min = 0, max = 0;
    for (int i = 0; i < il.nev; i++) {
        struct il_event *e = &il.ev[i];
        if (!e->ok || e->derived || e->fd < 0)
            continue;
        int h = il_fd_keep_high(e->fd);
        if (h < 0)
            continue; /* none free up there: it stays where it is */
        if (!n || e->fd < min)
            min = e->fd;
        if (!n || e->fd > max)
            max = e->fd;
        low[n++] = e->fd;
        e->fd = h;
    }
    if (n > 1 && max - min == n - 1 && il_sc6(SYS_close_range, min, max, 0, 0, 0, 0) == 0)
        return;
    for (int k = 0; k < n; k++)
        il_sys_close(low[k]);
}

/*
 * Open a counter for every event il_perf_encode() could encode (backends.c
 * calls it first: it is not async-signal-safe, and this file is), or for
 * those of them that counted before (a forked child's own).  Software
 * events join the group of the first that opens; the group's ids, taken
 * at its first reading (read_all: no system call before main for them),
 * tell its members apart in the readings after.  Then the others, but
 * task-clock where there is a group.
 */
static int
open_all(const int *only)
{
    int nok = 0;
    il.group = -1;
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < il.nev; i++) {
            struct il_event *e = &il.ev[i];
            int g = groups(e);
            if (!e->resolved || (only && !only[i]) || g != !pass)
                continue;
            e->derived = 0;
            if (!g && il.group >= 0 && is_task_clock(e)) {
                e->derived = 1; /* the group's running time */
                e->ok = 1;
                e->fd = -1;
                e->error[0] = 0;
                e->attr.exclude_kernel = il.ev[il.group].attr.exclude_kernel;
                e->attr.exclude_hv = il.ev[il.group].attr.exclude_hv;
                nok++;
                continue;
            }
            if (open_one(e, il.inherit, 0, g && il.group >= 0 ? il.ev[il.group].fd : -1, g) < 0)
                continue;
            nok++;
            if (g && il.group < 0)
                il.group = i;
        }
    }
    place_high();
    il.group_ids = 0;
    return nok ? 0 : IL_ENOTSUP;
}

static int
perf_open(void)
{
    return open_all(NULL);
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
    il.group = -1;
}

/*
 * The program may have closed our descriptor and reused its number: then
 * reading it would consume the program's data, or wait for it.  Ours is
 * an anonymous inode, which has no file type (st_mode's S_IFMT bits are
 * 0), where every regular file, directory, pipe, socket and device has
 * one: those are never sent an ioctl nor read (il_fd_anon; counted.c asks
 * the same before it hands the marker over a counter, ours_or_free).
 * Among anonymous files a perf event is the one that takes perf's ioctls
 * (their magic, '$', is perf's alone; eventfd, epoll, timerfd, userfaultfd
 * and the rest refuse them): a counter whose disable fails is not read
 * (perf_stop_read).  This used to compare the device and inode numbers
 * with those looked up before main, one system call more in every
 * process, which told perf events from eventfd, epoll and the others no
 * better: they all share one anonymous inode, so an eventfd the program
 * put at our number was read (consumed, or waited on for good).
 */
int
il_fd_anon(int fd)
{
    struct stat st;
    return il_sys_fstat(fd, &st) == 0 && (st.st_mode & S_IFMT) == 0;
}

static int
fd_is_ours(const struct il_event *e)
{
    return e->fd >= 0 && il_fd_anon(e->fd);
}

/* The group as one (the leader's descriptor, PERF_IOC_FLAG_GROUP), then
 * each counter on its own. */
static void
ioctl_all(unsigned long req)
{
    if (il.group >= 0 && il.ev[il.group].ok)
        il_sys_ioctl(il.ev[il.group].fd, req, PERF_IOC_FLAG_GROUP);
    for (int i = 0; i < il.nev; i++)
        if (il.ev[i].ok && !il.ev[i].grouped && !il.ev[i].derived)
            il_sys_ioctl(il.ev[i].fd, req, 0);
}

static void
perf_enable(void)
{
    ioctl_all(PERF_EVENT_IOC_ENABLE);
}

static void
lost(struct il_event *e, const char *why)
{
    e->ok = 0;
    il_strlcpy(e->error, why, sizeof e->error);
}

/*
 * The group's members' ids, at its first reading g: the kernel lists the
 * members in the order they joined, which is their order in ev, so where
 * all are there each takes its place's.  Where fewer are (the program
 * closed a member's descriptor: it left the group), each member still
 * ours asks the kernel for its id (one ioctl each), and the others are
 * lost.
 */
static void
take_group_ids(const struct il_group_reading *g)
{
    int m = 0, k = 0;
    for (int i = 0; i < il.nev; i++)
        m += il.ev[i].ok && il.ev[i].grouped;
    for (int i = 0; i < il.nev; i++) {
        struct il_event *e = &il.ev[i];
        uint64_t id;
        if (!e->ok || !e->grouped)
            continue;
        if (m == (int)g->nr)
            e->id = g->v[k++].id;
        else if (fd_is_ours(e) && il_sys_ioctl(e->fd, PERF_EVENT_IOC_ID, (long)&id) == 0)
            e->id = id;
        else
            e->id = 0; /* no member has it: found nowhere below, lost */
    }
    il.group_ids = 1;
}

/* Every counting event's reading into r: the group's in one read, found
 * by id (a member whose descriptor the program closed has left it), the
 * others one read each.  A counter that cannot be read stops counting. */
static void
read_all(struct il_reading *r)
{
    if (il.group >= 0 && il.ev[il.group].ok) {
        struct il_group_reading g;
        int ok = read_group(&g) == 0;
        if (ok && !il.group_ids)
            take_group_ids(&g);
        for (int i = 0; i < il.nev; i++) {
            struct il_event *e = &il.ev[i];
            if (e->ok && e->derived) {
                if (ok)
                    r[i] = (struct il_reading){g.running, g.enabled, g.running};
                else
                    lost(e, "reading the counter failed");
            }
            if (!e->ok || !e->grouped)
                continue;
            int k = 0;
            while (ok && k < (int)g.nr && g.v[k].id != e->id)
                k++;
            if (!ok)
                lost(e, "reading the counter failed");
            else if (k == (int)g.nr)
                lost(e, "the program closed the counter's descriptor");
            else
                r[i] = (struct il_reading){g.v[k].value, g.enabled, g.running};
        }
    }
    for (int i = 0; i < il.nev; i++) {
        struct il_event *e = &il.ev[i];
        if (e->ok && e->derived && (il.group < 0 || !il.ev[il.group].ok))
            lost(e, "the program closed the counter's descriptor"); /* the group's */
        else if (e->ok && !e->grouped && !e->derived &&
                 il_sys_read(e->fd, &r[i], sizeof r[i]) != (long)sizeof r[i])
            lost(e, "reading the counter failed");
    }
}

/* the last raw reading, where the calibration windows start */
static struct il_reading last[IL_MAX_EVENTS];

/* Stop (only descriptors that are still ours), then read. */
static void
perf_stop_read(void)
{
    for (int i = 0; i < il.nev; i++) {
        struct il_event *e = &il.ev[i];
        if (!e->ok || e->derived || (e->grouped && i != il.group))
            continue;
        if (!fd_is_ours(e) || il_sys_ioctl(e->fd, PERF_EVENT_IOC_DISABLE,
                                           i == il.group ? PERF_IOC_FLAG_GROUP : 0) < 0) {
            lost(e, "the program closed the counter's descriptor");
            if (i == il.group) /* the group went with its leader, and task-clock */
                for (int j = 0; j < il.nev; j++)
                    if (il.ev[j].ok && (il.ev[j].grouped || il.ev[j].derived))
                        lost(&il.ev[j], "the program closed the counter's descriptor");
            continue;
        }
    }
    read_all(last);
    for (int i = 0; i < il.nev; i++) {
        struct il_event *e = &il.ev[i];
        if (!e->ok)
            continue;
        e->value = e->carry + last[i].value;
        e->enabled = last[i].enabled;
        e->running = last[i].running;
    }
}

/*
 * The floor: the count of an empty window, enable immediately followed by
 * disable.  This is the fixed cost of reading the counters that every
 * measurement carries (Changkun Ou, "Eliminating A Source of Measurement
 * Errors in Benchmarks", seeds 001: calibrate the empty window and
 * subtract it).  Runs after the final reading, so the program's values
 * are untouched; each window's reading is where the next one starts.
 *
 * One window, where it was quiet: the software events counted where they
 * happen (page-faults, context-switches, cpu-migrations...) read 0 in it.
 * A window one of them counted in was disturbed (the task was switched
 * out, a page faulted in), and so may the clocks' be: then another, up to
 * IL_FLOOR_WINDOWS, and the minimum of each event over them.  Hardware
 * events vary from window to window whatever happens: with one, always
 * IL_FLOOR_WINDOWS.  Each window costs three system calls, and most
 * processes now pay one.
 */
static void
perf_floor(void)
{
    struct il_reading now[IL_MAX_EVENTS];
    int hw = 0;
    for (int i = 0; i < il.nev; i++) {
        il.ev[i].floor_ok = 0;
        hw |= il.ev[i].ok && is_hw(&il.ev[i].attr);
    }
    for (int w = 0; w < IL_FLOOR_WINDOWS; w++) {
        ioctl_all(PERF_EVENT_IOC_ENABLE);
        ioctl_all(PERF_EVENT_IOC_DISABLE);
        read_all(now);
        int quiet = !hw;
        for (int i = 0; i < il.nev; i++) {
            struct il_event *e = &il.ev[i];
            if (!e->ok)
                continue;
            uint64_t d = now[i].value - last[i].value;
            if (!e->floor_ok || d < e->floor)
                e->floor = d;
            e->floor_ok = 1;
            last[i] = now[i];
            if (d && groups(e))
                quiet = 0;
        }
        if (quiet)
            break;
    }
}

/* After a failed exec: what was counted is carried, the counters restart
 * from zero (the calibration windows are not counted). */
static void
perf_restart(void)
{
    for (int i = 0; i < il.nev; i++) {
        if (!il.ev[i].ok)
            continue;
        il.ev[i].carry = il.ev[i].value;
        /* task-clock read from the group's running time, which a reset
         * does not clear: from here on it counts what runs past now */
        if (il.ev[i].derived)
            il.ev[i].carry -= last[i].value;
    }
    ioctl_all(PERF_EVENT_IOC_RESET);
    perf_enable();
}

/* A forked child that measures itself: the inherited descriptors are the
 * parent's counters; counters of its own replace them. */
static void
perf_after_fork(void)
{
    int was[IL_MAX_EVENTS];
    for (int i = 0; i < il.nev; i++) {
        struct il_event *e = &il.ev[i];
        was[i] = e->ok;
        if (e->fd >= 0)
            il_sys_close(e->fd);
        e->fd = -1;
        e->ok = 0;
        e->carry = 0;
    }
    il.fd_next = 0;
    open_all(was);
}

const struct il_backend il_backend_perf = {"perf", IL_CAP_TIMES | IL_CAP_FORK | IL_CAP_SCOPE, IL_BACKEND_PERF};

IL_BACKEND_DO(perf)

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
