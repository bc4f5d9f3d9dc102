/*
 * run_spec.c: the hand-over from interloper run (INTERLOPER_RUN).
 *
 * interloper run execs the program in place, so no driver is left to add
 * labels or print a summary when it ends.  Labels must not travel through
 * the program's environment either: values of different lengths would
 * change the environment size between the systems compared (DESIGN.md,
 * "Labels").  So interloper run writes a small spec file of its own,
 * $TMPDIR/./interloper-run.PID.NS.XXXXXX.spec (0600, il_names.h; a
 * sweep's is "spec" in a directory of its own, 0700, beside its run's
 * files), and passes only its path, of constant length:
 *
 *     interloper-run/1
 *     pid 12345
 *     started 8812345 4026531834 a86cd077-d524-44a2-b285-0ef3c4637523
 *     output /abs/path/results.jsonl
 *     summary 1
 *     labels {"bench":"bzip2","system":"O3"}
 *     machine "host":"vm","cpu":"AMD EPYC","kernel":"6.1.0"
 *     set INTERLOPER_STRICT=1
 *     set INTERLOPER_STACK_OFFSET=4096
 *
 * ("started", for the drivers' cleanup of stale specs, is not read here.)
 * The "set" lines are the driver's settings for this run, as the variables
 * would say them, read by config.c's table after the environment: they are
 * not in the program's environment, which is the experiment's factor.
 *
 * The library reads it before main (il_run_load), writes the labels into
 * the record and the record into the results file, and when the image
 * that interloper run exec'd ends for good, prints the summary and
 * removes the spec (il_run_end, signal-safe).  With
 * "pid 0" (interloper sweep) the driver removes it, never the library.
 *
 * The spec must be a regular file owned by the user: it is opened
 * without following a final link and without blocking, and anything else
 * (/dev/stdin, a FIFO, another user's file) is refused with one line, so
 * that the library can neither eat the program's stdin nor hang on a
 * FIFO, nor take its output and labels from someone else.  The
 * descriptor is closed before main.
 */
#include <elf.h>
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/stat.h>

#include "il.h"
#include "il_summary.h"
#include "sys.h"

/* eight bytes of slack: a key is compared a word at a time */
#define SPEC_MAX 16384
static char spec[SPEC_MAX + 8];

static void
refuse(const char *why)
{
    char what[IL_ERROR_MAX];
    char *p = il_cat(what, why);
    il_cat(p, "; expected the spec file interloper run wrote; the record goes to "
              "INTERLOPER_OUTPUT, without labels");
    il_config_error(&il.cfg, IL_V_RUN, il.cfg.run_spec, what);
}

/* Is this process under a seccomp filter (/proc/self/status "Seccomp:
 * 2"), or can it not tell?  Read into the spec's buffer, unused yet. */
static int
filtered(void)
{
    static const char key[] = "\nSeccomp:\t";
    long fd = il_sys_open("/proc/self/status", O_RDONLY | O_CLOEXEC | O_NOCTTY, 0), n = 0, r;
    if (fd < 0)
        return 1;
    while ((size_t)n < SPEC_MAX - 1 &&
           (r = il_sys_read((int)fd, spec + n, SPEC_MAX - 1 - (size_t)n)) > 0)
        n += r;
    il_sys_close((int)fd);
    for (long i = 0; i + (long)sizeof key < n; i++)
        if (spec[i] == '\n' && il_same_bytes(spec + i, key, sizeof key - 1))
            return spec[i + sizeof key - 1] != '0';
    return 1;
}

/* The first bytes of the /proc file at path, in buf (NUL-terminated):
 * their count, or 0. */
static long
proc_head(const char *path, char *buf, size_t size)
{
    long fd = il_sys_open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY, 0), n;
    if (fd < 0)
        return 0;
    n = il_sys_read((int)fd, buf, size - 1);
    il_sys_close((int)fd);
    if (n <= 0)
        return 0;
    buf[n] = 0;
    return n;
}

/* Is pid a zombie here?  On proof only: its /proc/PID/stat says state Z
 * ("PID (COMM) Z ...": the state follows the last ')', since COMM may
 * hold any byte and the fields after it are numbers), read from a /proc
 * of this process's pid namespace, where /proc/self/stat gives this
 * process's own pid (a /proc of another namespace gives another's, or
 * none; there PID would be another process), with one thread (a live
 * process whose main thread ended by pthread_exit reads Z too:
 * review15a). */
static int
zombie(long pid)
{
    char path[48], buf[1024];
    long n = proc_head("/proc/self/stat", buf, sizeof buf), self = 0;
    for (const char *p = buf; n > 0 && *p >= '0' && *p <= '9'; p++)
        self = self * 10 + (*p - '0');
    if (!n || self != (long)il.pid)
        return 0;
    il_cat(il_fmt_u64(il_cat(path, "/proc/"), (uint64_t)pid), "/stat");
    const char *close = NULL;
    n = proc_head(path, buf, sizeof buf);
    for (long i = 0; i < n; i++)
        if (buf[i] == ')')
            close = buf + i;
    if (!close || close[1] != ' ' || close[2] != 'Z')
        return 0;
    /* field 20, num_threads: 1 for a process that has ended; a leader
     * that ended (pthread_exit in main) while other threads run is Z too */
    const char *q = close + 3;
    for (int f = 3; f < 20 && q < buf + n; q++)
        f += *q == ' ';
    return q + 1 < buf + n && q[0] == '1' && q[1] == ' ';
}

/*
 * Has the run whose spec was at path ended?  Only on proof: the spec is
 * also gone during a live run where a descendant runs in a chroot or a
 * mount namespace of its own, or after a cleaner emptied TMPDIR, and
 * there its records must not be lost without a word (review12d).  The
 * proof: the pid in the spec's name (the process interloper run exec'd
 * the program in) means that process here, since this process is in the
 * same pid namespace (a descendant may be in a namespace of its own,
 * where the pid is another's or nobody's), and there that pid is no
 * process (ESRCH), or one that has ended and not been waited for yet (a
 * zombie: the run's own, or one that took its pid after it ended).
 * Anything else, a pid reused by a live process included, is no proof.
 * Under a seccomp filter, which may kill the process at a system call it
 * does not know (older allow-lists, systemd's SystemCallFilter= without
 * SystemCallErrorNumber=: review13b), pidfd_open (Linux 5.3) is not
 * tried.  There, as before 5.3, kill(2) tells a pid that is no process,
 * and /proc/PID/stat a zombie (state Z), which kill(2) takes for a live
 * process: under Docker's default filter, a descendant that exec'd while
 * a harness had not yet waited for the run printed a line and wrote a
 * stray record (review14b).  All of it only where the spec is gone.
 */
static int
run_ended(const char *path)
{
    long pid;
    unsigned long ns;
    struct stat st;
    if (!il_run_file_owner(path, strlen(path), &pid, &ns) || pid <= 0 || !ns ||
        il_sys_stat("/proc/self/ns/pid", &st, 0) < 0 || st.st_ino != ns)
        return 0;
    long fd = filtered() ? -ENOSYS : il_sys_pidfd_open(pid);
    if (fd == -ESRCH)
        return 1;
    if (fd < 0) { /* filtered, before Linux 5.3, or out of descriptors */
        long k = il_sys_kill(pid, 0);
        return k == -ESRCH || (k == 0 && zombie(pid));
    }
    struct pollfd p = {(int)fd, POLLIN, 0};
    struct timespec now = {0, 0};
    int gone = il_sys_ppoll(&p, 1, &now) == 1 && (p.revents & POLLIN);
    il_sys_close((int)fd);
    return gone;
}

void
il_run_load(void)
{
    const char *path = il.cfg.run_spec;
    if (!path[0])
        return;
    long fd = il_sys_open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0);
    struct stat st;
    /* the user: the real uid the kernel gave at exec (AT_UID), which
     * nothing can have changed but a privileged constructor before ours;
     * the system call only where the vector lacks it */
    unsigned long uid = il_auxval(AT_UID, ~0UL);
    if (uid == ~0UL)
        uid = (unsigned long)il_sys_getuid();
    if (fd == -ENOENT && run_ended(path)) {
        /* a descendant exec'd after the run ended (a background child
         * that outlived the program): outside the measurement, it stands
         * aside as under AT_SECURE, silently, and writes no record
         * (review12b: a line on the stderr -q was to keep quiet, and an
         * unlabelled record in a stray ./interloper.jsonl) */
        il.secure = 1;
        return;
    }
    if (fd < 0 || il_sys_fstat((int)fd, &st) < 0 || !S_ISREG(st.st_mode) ||
        st.st_uid != (uid_t)uid) {
        char e[64], why[IL_ERROR_MAX];
        char *p = il_cat(why, "not a regular file of yours");
        if (fd < 0) {
            p = il_cat(p, " (");
            p = il_cat(p, il_errname((int)-fd, e));
            il_cat(p, ")");
        }
        if (fd >= 0)
            il_sys_close((int)fd);
        refuse(why);
        return;
    }
    /* as many bytes as it holds (one read, unless the file grows) */
    long n = 0, r;
    while ((size_t)n < SPEC_MAX - 1 && (n < st.st_size || !st.st_size) &&
           (r = il_sys_read((int)fd, spec + n, SPEC_MAX - 1 - (size_t)n)) > 0)
        n += r;
    il_sys_close((int)fd);
    if (n <= 0 || !il_same_bytes(spec, IL_RUN_SCHEMA "\n", sizeof IL_RUN_SCHEMA)) {
        refuse("cannot read it as a spec of " IL_RUN_SCHEMA);
        return;
    }
    spec[n] = 0;
    /* one value per line: each line made a string as it is found */
    const char *out = NULL, *pid = NULL, *sum = NULL, *lab = NULL, *mach = NULL;
    size_t out_n = 0, lab_n = 0; /* their lengths: a line holds no NUL before its end */
    /* the first letter first: a line is compared with one key, or two */
#define IS(key)                                                                                    \
    (line[0] == (key)[0] && il_same_bytes(line, key " ", sizeof key) ? line + sizeof key : NULL)
    /* past the schema's line, compared above */
    for (char *line = spec + sizeof IL_RUN_SCHEMA, *nl; line < spec + n; line = nl + 1) {
        const char *v;
        nl = strchr(line, '\n');
        if (!nl)
            nl = line + strlen(line);
        *nl = 0;
        if ((v = IS(IL_RUN_SET)))
            il_config_set(&il.cfg, v); /* config.c's table, over the environment */
        else if ((v = IS(IL_RUN_OUTPUT)))
            out = v, out_n = (size_t)(nl - v);
        else if ((v = IS(IL_RUN_PID)))
            pid = v;
        else if ((v = IS(IL_RUN_SUMMARY)))
            sum = v;
        else if ((v = IS(IL_RUN_LABELS)))
            lab = v, lab_n = (size_t)(nl - v);
        else if ((v = IS(IL_RUN_MACHINE)))
            mach = v;
        else if ((v = IS(IL_RUN_FLOOR)))
            il.run_floor = v;
        else if ((v = IS(IL_RUN_STRICT)))
            il.cfg.strict_default = !strcmp(v, IL_RUN_STRICT_DEFAULT);
    }
#undef IS
    int dash = out && out_n == 1 && out[0] == '-';
    if (out && (out[0] == '/' || dash) && out_n < sizeof il.cfg.output) {
        il_copy_short(il.cfg.output, out, out_n);
        il.cfg.output[out_n] = 0;
        il.cfg.output_stderr = dash;
    }
    if (lab && lab_n >= 2 && lab[0] == '{' && lab[lab_n - 1] == '}')
        il.run_labels = lab;
    /* members as il_machine_json writes them, the host first */
    if (mach && il_same_bytes(mach, "\"" IL_F_HOST "\":\"", sizeof IL_F_HOST + 3))
        il.run_machine = mach;
    il.run_pid = 0;
    for (const char *p = pid; p && *p >= '0' && *p <= '9'; p++)
        il.run_pid = il.run_pid * 10 + (*p - '0');
    il.run_summary = sum && sum[0] == '1';
    il.run_loaded = 1;
}

/* The word s at p, then a blank: past them, or NULL.  (A mismatch ends
 * the compare at the line's NUL at the latest: the spec's slack covers
 * the word read past it.) */
static const char *
same_word(const char *p, const char *s, size_t n)
{
    return il_same_bytes(p, s, n) && p[n] == ' ' ? p + n + 1 : NULL;
}

/*
 * The driver's floor (the spec's floor line, il_names.h IL_RUN_FLOOR), in
 * place of this process's own calibration, only where the driver took it
 * for exactly this process's counting: the same backend; the same events,
 * which is to say the very list the driver calibrated, the defaults in
 * both or this spec's own events line; each with the same settings, and
 * every one counting here.  Returns 1 when the events' floors are now the
 * driver's, 0 when this process must calibrate itself.  Async-signal-safe
 * (the finish path).
 */
int
il_run_floor(void)
{
    uint64_t got[IL_MAX_EVENTS];
    const char *p = il.run_floor, *v = il.cfg.events_value;
    int own = !il.cfg.events_default;
    if (!p || !(p = same_word(p, il.be->name, strlen(il.be->name))) ||
        !(p = own ? same_word(p, IL_RUN_FLOOR_SPEC, sizeof IL_RUN_FLOOR_SPEC - 1)
                  : same_word(p, IL_RUN_FLOOR_DEFAULT, sizeof IL_RUN_FLOOR_DEFAULT - 1)) ||
        (own && (!v || v < spec || v >= spec + sizeof spec)))
        return 0;
    /* the count, then each event's settings (one hex digit) and floor */
    uint64_t n = 0;
    while ((unsigned)(*p - '0') < 10)
        n = n * 10 + (uint64_t)(*p++ - '0');
    if (n != (uint64_t)il.nev || !n)
        return 0;
    for (int i = 0; i < il.nev; i++) {
        if (p[0] != ' ' || !il.ev[i].ok || p[1] != IL_HEX[il_floor_flags(&il.ev[i].attr)] ||
            p[2] != ' ')
            return 0;
        const char *s = p += 3;
        uint64_t x = 0;
        while ((unsigned)(*p - '0') < 10)
            x = x * 10 + (uint64_t)(*p++ - '0');
        if (p == s || p - s > 19)
            return 0;
        got[i] = x;
    }
    if (*p)
        return 0;
    for (int i = 0; i < il.nev; i++) {
        il.ev[i].floor = got[i];
        il.ev[i].floor_ok = 1;
    }
    return 1;
}

/* The summary goes to stderr: keep a copy of it, for programs that close
 * theirs on the way out.  Called once the output is settled. */
int
il_run_wants_summary(void)
{
    return il.run_loaded && il.run_summary && il.run_pid == il.pid;
}

/* The summary of this image, from the library's own state, on fd, by
 * the formatter interloper record summary uses too (summary.c).  Called
 * once the record is written; async-signal-safe. */
void
il_summary_print(int fd)
{
    static struct il_summary_event ev[IL_MAX_EVENTS];
    static const char *errors[IL_MAX_ERRORS + IL_LATE_MAX];
    static char text[16384];
    char sp[24], heap[24];
    struct il_summary s;
    memset(&s, 0, sizeof s);
    int times = (il.be->caps & IL_CAP_TIMES) != 0;
    for (int i = 0; i < il.nev; i++) {
        struct il_event *e = &il.ev[i];
        ev[i] =
            (struct il_summary_event){e->name, e->ok,      e->value,   e->floor_ok, e->floor,
                                      times,   e->enabled, e->running, e->error,    e->name_len};
    }
    int ne = 0;
    for (int i = 0; i < il.cfg.nerrors; i++)
        errors[ne++] = il.cfg.errors[i];
    for (int i = 0; i < il.nlate; i++)
        errors[ne++] = il.late_errors[i];
    /* as the record's tail computed and wrote them, where it did */
    const struct il_written *w = il_record_written();
    if (w && w->main_sp_len < sizeof sp && w->heap_start_len < sizeof heap) {
        il_copy_short(sp, w->main_sp, w->main_sp_len);
        sp[w->main_sp_len] = 0;
        il_copy_short(heap, w->heap_start, w->heap_start_len);
        heap[w->heap_start_len] = 0;
    } else {
        il_fmt_hex(sp, il.main_sp);
        il_fmt_hex(heap, il.heap_start);
    }
    s.argv = (const char *const *)il.argv;
    s.argc = il.argc;
    s.pid = il.pid; /* il_run_end's caller is this process's writer */
    s.how = il_how_names[il.end_how];
    s.has_status = il.end_how != IL_HOW_SIGNAL && il.end_how != IL_HOW_EXEC;
    s.status = il.end_status;
    s.signal = il.end_how == IL_HOW_SIGNAL ? il.end_sig : 0;
    s.backend = il.be->name;
    s.nev = il.nev;
    s.ev = ev;
    struct il_usage u;
    if (w)
        u = w->usage;
    else
        il_usage(&u);
    s.has_times = 1;
    s.wall_ns = u.wall;
    s.user_ns = u.user;
    s.sys_ns = u.sys;
    s.has_ctx = 1;
    s.ctx_voluntary = u.vol;
    s.ctx_involuntary = u.invol;
    s.maxrss_kib = u.maxrss;
    s.has_setup = 1;
    s.env_bytes = il.env_bytes;
    s.env_vars = il.env_vars;
    s.argv_bytes = il.argv_bytes;
    s.aslr = il.aslr;
    s.cpus = il.cpus;
    s.main_sp = sp;
    s.main_entry = il.main_tail ? IL_MAIN_ENTRY_TAIL : IL_MAIN_ENTRY_CALL;
    s.stack_offset = il.stack_offset;
    s.stack_pinned = il.stack_pinned;
    s.heap_start = heap;
    s.heap_offset = il.heap_offset;
    s.nerrors = ne;
    s.errors = errors;
    size_t n = il_summary_format(&s, text, sizeof text);
    text[n] = '\n';
    il_write_all(fd, text, n + 1);
}

/*
 * After the record is written: when the image interloper run exec'd ends
 * (not by exec), print the summary if asked and remove the spec: one
 * unlink, for the file of its own interloper run makes (launch.c,
 * il_spec_file), and the directory too where an older interloper run put
 * the spec in one ("DIR/spec").  Async-signal-safe.
 */
void
il_run_end(int measured)
{
    /* called by the writer of the record, whose caller made sure that
     * il.pid is this process (il_measured): no getpid */
    if (!il.run_loaded || !il.run_pid || il.pid != il.run_pid)
        return;
    int fd;
    if (il.run_summary && measured && (fd = il_stderr_fd()) >= 0)
        il_summary_print(fd);
    const char *path = il.cfg.run_spec; /* NUL-terminated, shorter than IL_PATH_MAX */
    il_sys_unlink(path);
    /* "DIR/spec": the directory, the path up to the last slash (no system
     * call to tell: a file of its own is named ".spec" at the end, never
     * "/spec", and the driver's TMPDIR is never removed) */
    size_t len = strlen(path);
    const char *slash = len > sizeof "/spec" - 1 ? path + len - (sizeof "/spec" - 1) : NULL;
    if (slash && il_same_bytes(slash, "/spec", sizeof "/spec")) {
        char dir[IL_PATH_MAX];
        size_t n = (size_t)(slash - path);
        il_copy_short(dir, path, n);
        dir[n] = 0;
        il_sys_rmdir(dir);
    }
}
