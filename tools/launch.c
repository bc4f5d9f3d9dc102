/*
 * launch.c: what interloper run and interloper sweep both do to start a
 * measured program: find the library, build the environment to the byte,
 * write the run spec, set ASLR and the CPUs, and exec (run, in place) or
 * spawn (sweep, a child that dies with the sweep).
 *
 * The environment is the caller's (or with --env-clean only PATH, HOME and
 * the --keep names), without any INTERLOPER_ variable, then LD_PRELOAD with
 * the library in front, INTERLOPER_RUN (the spec's path, of a constant
 * length) and the pad INTERLOPER_PAD, always present and always last, so
 * that two setups differ in the environment only by the pad's length
 * (Mytkowicz et al., ASPLOS'09, section 4.2: the environment's size moves
 * the stack).  The setup's settings (strict, the offsets, the pin, events,
 * backend) go in the run spec's "set" lines, not in the environment: the
 * environment is the experiment's factor, and every variable there costs
 * each measured process the loader's scan of it.
 */
#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "il_resolve.h"
#include "il_tools.h"

extern char **environ;

/* ------------------------------------------------------------ where things are */

/* The directory of this program, from /proc/self/exe. */
const char *
il_libexec_dir(void)
{
    static char dir[PATH_MAX];
    if (!dir[0]) {
        ssize_t n = readlink("/proc/self/exe", dir, sizeof dir - 1);
        if (n <= 0) {
            strcpy(dir, ".");
            return dir;
        }
        dir[n] = 0;
        char *slash = strrchr(dir, '/');
        if (slash)
            *slash = 0;
    }
    return dir;
}

/* $INTERLOPER_LIBRARY (the front command sets it), or beside this program
 * in a build tree or an install; made absolute and canonical, so that its
 * path, which is in every measured environment, is the same however the
 * command was started. */
const char *
il_find_library(void)
{
    static char found[PATH_MAX];
    const char *env = getenv(IL_V_LIBRARY);
    char *cand[3] = {NULL, NULL, NULL};
    int k = 0;
    if (env && *env)
        cand[k++] = il_xstrdup(env);
    cand[k++] = il_xasprintf("%s/../libinterloper.so", il_libexec_dir());
    cand[k++] = il_xasprintf("%s/../../lib/interloper/libinterloper.so", il_libexec_dir());
    const char *r = NULL;
    for (int i = 0; i < k && !r; i++) {
        struct stat st;
        if (stat(cand[i], &st) == 0 && S_ISREG(st.st_mode) && realpath(cand[i], found))
            r = found;
    }
    for (int i = 0; i < k; i++)
        free(cand[i]);
    return r;
}

/* ------------------------------------------------------------ the environment */

static void
env_append(struct il_env *e, char *kv)
{
    if (e->n + 2 > e->cap) {
        e->cap = e->cap ? 2 * e->cap : 64;
        e->v = il_xrealloc(e->v, e->cap * sizeof *e->v);
    }
    e->v[e->n++] = kv;
    e->v[e->n] = NULL;
}

static void
env_put(struct il_env *e, char *kv)
{
    const char *eq = strchr(kv, '=');
    size_t k = eq ? (size_t)(eq - kv) : strlen(kv);
    for (size_t i = 0; i < e->n; i++)
        if (!strncmp(e->v[i], kv, k) && e->v[i][k] == '=') {
            e->v[i] = kv;
            return;
        }
    env_append(e, kv);
}

static const char *
env_get(const struct il_env *e, const char *name)
{
    size_t k = strlen(name);
    for (size_t i = 0; i < e->n; i++)
        if (!strncmp(e->v[i], name, k) && e->v[i][k] == '=')
            return e->v[i] + k + 1;
    return NULL;
}

size_t
il_env_bytes(const struct il_env *e)
{
    size_t t = 0;
    for (size_t i = 0; i < e->n; i++)
        t += strlen(e->v[i]) + 1;
    return t;
}

/*
 * A quarter of the stack's limit, at most 6 MiB (the kernel's _STK_LIM / 4
 * * 3), at least 128 KiB (ARG_MAX); the strings and a pointer to each
 * count (execve(2), "Limits on size of arguments and environment"; fs/
 * exec.c bprm_stack_limits).
 */
size_t
il_exec_limit(void)
{
    struct rlimit rl;
    size_t lim = (size_t)6 << 20;
    if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur / 4 < lim)
        lim = (size_t)(rl.rlim_cur / 4);
    if (lim < 32 * 4096)
        lim = 32 * 4096;
    return lim;
}

/*
 * LD_PRELOAD with the library in it: after the runtimes that must come
 * first (those already at the head of the user's LD_PRELOAD, or else the
 * one the programs need, by name, which the loader finds as it finds
 * their libraries), before the rest of the user's.
 */
static char *
preload_with(const char *lib, const char *first, const char *old)
{
    const char *rest = old ? old : "";
    while (*rest) { /* the user's leading runtimes stay first */
        size_t l = strcspn(rest, ": ");
        char entry[IL_PATH_MAX];
        snprintf(entry, sizeof entry, "%.*s", (int)l, rest);
        if (!l || !il_first_runtime(entry))
            break;
        rest += l + (rest[l] != 0);
    }
    size_t head = (size_t)(rest - (old ? old : ""));
    while (head && (old[head - 1] == ':' || old[head - 1] == ' '))
        head--;
    if (head)
        return il_xasprintf("LD_PRELOAD=%.*s:%s%s%s", (int)head, old, lib, *rest ? ":" : "", rest);
    return il_xasprintf("LD_PRELOAD=%s%s%s%s%s", first && *first ? first : "",
                        first && *first ? ":" : "", lib, *rest ? ":" : "", rest);
}

void
il_env_build(struct il_env *e, struct il_slots *s, const struct il_common *c, const char *lib,
             const char *first, const char *spec, size_t padmax, size_t fillers)
{
    memset(e, 0, sizeof *e);
    memset(s, 0, sizeof *s);
    e->cap = 64;
    e->v = il_xcalloc(e->cap, sizeof *e->v);
    /* the front's "_" where its shell (bash) took it out: in place of
     * the one that shell may have given (scripts/interloper) */
    const char *front_us = c->env_clean ? getenv(IL_V_UNDERSCORE) : NULL;
    for (char **v = environ; *v; v++) {
        if (!strncmp(*v, IL_V_PREFIX, strlen(IL_V_PREFIX)))
            continue;
        /* the shell's "_", the path of the command it ran (interloper, or
         * nice, env, ...): in no run's environment, so that the same run
         * or sweep started another way has the same environment (a
         * resumed sweep's must be); but where --env-clean --keep _ asks
         * for it (review11c: it was dropped, silently) */
        if (!strncmp(*v, "_=", 2) && (!c->env_clean || front_us))
            continue;
        if (c->env_clean) {
            int kept = !strncmp(*v, "PATH=", 5) || !strncmp(*v, "HOME=", 5);
            for (size_t k = 0; k < c->nkeep && !kept; k++) {
                size_t l = strlen(c->keep[k]);
                kept = !strncmp(*v, c->keep[k], l) && (*v)[l] == '=';
            }
            if (!kept)
                continue;
        }
        env_put(e, *v);
    }
    for (size_t k = 0; front_us && k < c->nkeep; k++)
        if (!strcmp(c->keep[k], "_")) {
            env_put(e, il_xasprintf("_=%s", front_us));
            break;
        }
    env_put(e, preload_with(lib, first, env_get(e, "LD_PRELOAD")));
    /* the run's fixed settings, for the spec (il_spec_write) */
    struct il_buf f = {0};
    il_buf_str(&f, "");
    if (c->events)
        il_buf_printf(&f, IL_RUN_SET " " IL_V_EVENTS "=%s\n", c->events);
    if (c->backend)
        il_buf_printf(&f, IL_RUN_SET " " IL_V_BACKEND "=%s\n", c->backend);
    if (c->strict)
        il_buf_str(&f, IL_RUN_SET " " IL_V_STRICT "=1\n");
    if (c->strict && c->strict_default) /* the library's stop line names no --strict */
        il_buf_str(&f, IL_RUN_STRICT " " IL_RUN_STRICT_DEFAULT "\n");
    s->fixed = f.p;
    s->cpus = c->have_cpus ? &c->cpus : NULL;
    env_put(e, il_xasprintf(IL_V_RUN "=%s", spec));
    for (size_t i = 0; i < fillers; i++) /* one name: the library knows it */
        env_append(e, IL_PAD_PREFIX);
    s->padmax = padmax;
    s->pad = il_xmalloc(sizeof IL_PAD_PREFIX + padmax);
    memcpy(s->pad, IL_PAD_PREFIX, sizeof IL_PAD_PREFIX - 1);
    memset(s->pad + sizeof IL_PAD_PREFIX - 1, 'x', padmax);
    s->padlen = padmax;
    s->pad[sizeof IL_PAD_PREFIX - 1 + padmax] = 0;
    env_append(e, s->pad); /* last, after the fillers of its name */
    il_env_setup(s, 0, 0, IL_PINMODE_NONE, 0, 0);
}

/* The setup's "set" lines for the spec, only those that differ from the
 * library's defaults (no offset, no pin): nothing for the library to
 * parse in the common case. */
void
il_env_setup(struct il_slots *s, unsigned long long stack_offset, unsigned long long heap_offset,
             enum il_pinmode pin, uintptr_t pin_addr, size_t pad)
{
    char *p = s->setup, *end = s->setup + sizeof s->setup;
    p[0] = 0;
    if (stack_offset && s->stack_text && strlen(s->stack_text) <= 32)
        p += snprintf(p, (size_t)(end - p), IL_RUN_SET " " IL_V_STACK_OFFSET "=%s\n",
                      s->stack_text);
    else if (stack_offset)
        p += snprintf(p, (size_t)(end - p), IL_RUN_SET " " IL_V_STACK_OFFSET "=%llu\n",
                      stack_offset);
    if (heap_offset && s->heap_text && strlen(s->heap_text) <= 32)
        p += snprintf(p, (size_t)(end - p), IL_RUN_SET " " IL_V_HEAP_OFFSET "=%s\n", s->heap_text);
    else if (heap_offset)
        p += snprintf(p, (size_t)(end - p), IL_RUN_SET " " IL_V_HEAP_OFFSET "=%llu\n", heap_offset);
    if (pin == IL_PINMODE_ADDR)
        snprintf(p, (size_t)(end - p), IL_RUN_SET " " IL_V_STACK_PIN "=0x%llx\n",
                 (unsigned long long)pin_addr);
    else if (pin == IL_PINMODE_AUTO)
        snprintf(p, (size_t)(end - p), IL_RUN_SET " " IL_V_STACK_PIN "=auto\n");
    if (s->pad && pad <= s->padmax) {
        char *body = s->pad + sizeof IL_PAD_PREFIX - 1;
        body[s->padlen] = 'x';
        body[pad] = 0;
        s->padlen = pad;
    }
}

/* ------------------------------------------------------------ the spec */

/* Where run specs and sweeps' spec directories go: $TMPDIR (absolute,
 * without '%', which the library's output paths expand, and a directory
 * this user can make files in), else /dev/shm, in memory, where making
 * and removing a file per run costs nothing like it does on a disk file
 * system (on ext4 mounted with discard, more than the preloaded program
 * itself), else /tmp.  A TMPDIR set but not taken is said (il_tmpdir_env):
 * outside12 F9, a harness's TMPDIR=/nonexistent stopped every run before
 * its program ran, where the spec, which nothing but the library reads,
 * can go elsewhere. */
static const char *tmpdir_not; /* why TMPDIR was not taken, or NULL */

static const char *
tmpdir_env(void)
{
    static int looked;
    static const char *dir;
    if (looked++)
        return dir;
    const char *t = getenv("TMPDIR");
    struct stat st;
    if (!t || !*t)
        return NULL;
    if (t[0] != '/')
        tmpdir_not = "not an absolute path";
    else if (strchr(t, '%'))
        tmpdir_not = "a path with %, which the library's output paths expand";
    else if (strlen(t) >= IL_PATH_MAX - 64)
        tmpdir_not = "too long a path";
    else if (stat(t, &st) < 0)
        tmpdir_not = strerror(errno);
    else if (!S_ISDIR(st.st_mode))
        tmpdir_not = strerror(ENOTDIR);
    else if (access(t, W_OK | X_OK) < 0)
        tmpdir_not = strerror(errno);
    else
        dir = t;
    return dir;
}

const char *
il_tmpdir_env(int quiet)
{
    static int said;
    const char *t = tmpdir_env();
    if (tmpdir_not && !quiet && !said++)
        warnx("TMPDIR=%s: %s; interloper's own files go in /dev/shm or /tmp instead (set "
              "TMPDIR to a directory of yours, or unset it)",
              getenv("TMPDIR"), tmpdir_not);
    return t;
}

static const char *
tmpdir(void)
{
    const char *t = tmpdir_env();
    struct stat st;
    if (t)
        return t;
    if (stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) && access("/dev/shm", W_OK | X_OK) == 0)
        return "/dev/shm";
    return "/tmp";
}

#define SPEC_PREFIX IL_RUN_FILE_PREFIX
#define SPEC_SUFFIX IL_RUN_FILE_SUFFIX
/* interloper run's spec file, $TMPDIR/./interloper-run.P.N.XXXXXX.spec
 * (il_names.h: the run's pid and pid namespace, of a constant length),
 * its last slash after "/.": a library older than the spec file (from
 * INTERLOPER_LIBRARY) removes the directory up to that slash at the
 * program's end, which was $TMPDIR itself once the spec was gone from it,
 * and is now "$TMPDIR/.", which rmdir(2) refuses (EINVAL) */
#define SPEC_FILE "/./" SPEC_PREFIX "%0*ld.%0*lu.XXXXXX" SPEC_SUFFIX
/* a sweep's spec directory, $TMPDIR/interloper-run.P.N.XXXXXXXX, whose
 * spec path, DIR/spec, is exactly as long as interloper run's file: the
 * same run started by either has an environment of one size (sweep.sh, a
 * hand-written loop of interloper run and the sweep) */
#define SPEC_DIR "/" SPEC_PREFIX "%0*ld.%0*lu.XXXXXXXX"
_Static_assert(sizeof SPEC_DIR + sizeof "/spec" - 1 == sizeof SPEC_FILE, "one length");

/* v, where it has at most digits digits, else 0 */
static unsigned long
fit(unsigned long v, int digits)
{
    unsigned long x = v;
    while (digits-- > 0)
        x /= 10;
    return x ? 0 : v;
}

/* The inode of this process's namespace /proc/self/ns/NAME, looked up
 * once (*ns -1 until then); 0 where /proc cannot say. */
static unsigned long
ns_inode(const char *name, long long *ns)
{
    char p[64];
    struct stat st;
    if (*ns < 0) {
        snprintf(p, sizeof p, "/proc/self/ns/%s", name);
        *ns = stat(p, &st) == 0 ? (long long)st.st_ino : 0;
    }
    return (unsigned long)*ns;
}

/* The inode of this process's pid namespace; 0 where /proc cannot say. */
static unsigned long
pid_ns(void)
{
    static long long ns = -1;
    return ns_inode("pid", &ns);
}

/* The inode of this process's time namespace (Linux 5.6), 0 where /proc
 * cannot say (or the kernel has none, and so no offsets either): start
 * ticks read in /proc/PID/stat are shifted by the reader's namespace's
 * boot-time offset, so two are comparable only when read in one
 * (review13b M2). */
static unsigned long
time_ns(void)
{
    static long long ns = -1;
    return ns_inode("time", &ns);
}

/*
 * This boot of this machine, one word: the kernel's boot id (36
 * characters, new at every boot), or where /proc cannot say, "host:" and
 * the node name.  A TMPDIR shared by machines (NFS, a cluster's scratch)
 * holds specs of every machine's runs, and every machine's first pid
 * namespace has the same inode: a pid means a process only on the boot
 * whose word the spec names (review13b M3).  Read by the drivers only.
 */
static const char *
boot_word(void)
{
    static char w[IL_BOOT_WORD_MAX + 1];
    if (w[0])
        return w;
    int fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
    ssize_t n = fd < 0 ? -1 : read(fd, w, 36 + 1);
    if (fd >= 0)
        close(fd);
    if (n == 37 && w[36] == '\n' && strspn(w, "0123456789abcdef-") == 36) {
        w[36] = 0;
        return w;
    }
    struct utsname u;
    snprintf(w, sizeof w, "host:%s", uname(&u) == 0 ? u.nodename : "");
    for (char *c = w; *c; c++)
        if (*c <= ' ' || *c > '~')
            *c = '_';
    return w;
}

/* Is /proc of this process's pid namespace (its pid there getpid's)?
 * After a pid namespace is entered without a /proc of its own, /proc/PID
 * is another process. */
static int
proc_ours(void)
{
    static int ours = -1;
    if (ours < 0) {
        char b[32], me[32];
        ssize_t n = readlink("/proc/self", b, sizeof b - 1);
        if (n > 0)
            b[n] = 0;
        snprintf(me, sizeof me, "%ld", (long)getpid());
        ours = n > 0 && !strcmp(b, me);
    }
    return ours;
}

/* When process pid started, in clock ticks since boot (/proc/PID/stat's
 * starttime, which no step of the wall clock moves); -1 where /proc does
 * not say (no such process, no /proc of this pid namespace's). */
static long long
start_ticks(long pid)
{
    char p[64], b[1024];
    if (!proc_ours())
        return -1;
    snprintf(p, sizeof p, "/proc/%ld/stat", pid);
    int fd = open(p, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, b, sizeof b - 1);
    close(fd);
    if (n <= 0)
        return -1;
    b[n] = 0;
    /* after the command's ")": field 3 is the state, field 22 starttime */
    char *q = strrchr(b, ')');
    if (!q)
        return -1;
    int field = 2;
    for (q++; *q && field < 22; q++)
        if (*q == ' ')
            field++;
    return *q ? atoll(q) : -1;
}

/* A spec's name's pid and pid namespace: this process's (interloper run's
 * program is exec'd in it), each 0 where too long for its digits, which
 * Linux never gives (no proof of the run's end then, run_spec.c). */
static long
name_pid(void)
{
    return (long)fit((unsigned long)getpid(), IL_RUN_FILE_PID);
}
static unsigned long
name_ns(void)
{
    return fit(pid_ns(), IL_RUN_FILE_NS);
}

/*
 * The floor line (il_names.h, IL_RUN_FLOOR): the empty window calibrated
 * once, here, by the library's own code with the children's settings
 * (il_floor_line), on the CPUs they run on; each child whose counting is
 * the same then records it and skips its own calibration, which costs
 * every process its instructions and three system calls.  Empty where it
 * could not be taken (then each child calibrates itself).
 */
static void
driver_floor(const struct il_slots *slots, char *line, size_t cap)
{
    cpu_set_t was;
    int moved = slots->cpus && sched_getaffinity(0, sizeof was, &was) == 0 &&
                sched_setaffinity(0, sizeof *slots->cpus, slots->cpus) == 0;
    if (!il_floor_line(slots->fixed, line, cap))
        line[0] = 0;
    if (moved)
        sched_setaffinity(0, sizeof was, &was);
}

void
il_spec_dir(struct il_spec *s, const char *me, int dry)
{
    snprintf(s->dir, sizeof s->dir, "%s" SPEC_DIR, tmpdir(), IL_RUN_FILE_PID, name_pid(),
             IL_RUN_FILE_NS, name_ns());
    il_tmpdir_env(dry);
    if (!dry && !mkdtemp(s->dir))
        err(1, "cannot make a directory for the run spec in %s", tmpdir());
    snprintf(s->path, sizeof s->path, "%s/spec", s->dir);
    snprintf(s->tmp, sizeof s->tmp, "%s/spec.new", s->dir);
    s->exchange = 1;
    s->fd = -1;
    (void)me;
}

/*
 * interloper run's spec: one file, where a sweep needs a directory for
 * its run's files and a second name to swap.  A directory bought run
 * nothing a file of its own does not: mkstemp makes it, 0600, and never
 * opens one that exists (O_EXCL), so no other user's file or link can be
 * taken for it, and the library checks it is a regular file of the
 * user's, not followed through a link; no reader exists before the
 * program is exec'd, so it needs no atomic rename; stale ones are found
 * by the same name's prefix and pid line (il_spec_clean_stale).  And the
 * program's process removes one name, not two (one system call fewer).
 */
void
il_spec_file(struct il_spec *s, int dry, int quiet)
{
    il_tmpdir_env(quiet);
    s->dir[0] = 0;
    s->tmp[0] = 0;
    s->exchange = 0;
    s->fd = -1;
    /* the process the program is exec'd in, which the name outlives: its
     * pid, and its pid namespace, where the pid means that process */
    snprintf(s->path, sizeof s->path, "%s" SPEC_FILE, tmpdir(), IL_RUN_FILE_PID, name_pid(),
             IL_RUN_FILE_NS, name_ns());
    if (!dry && (s->fd = mkostemps(s->path, sizeof SPEC_SUFFIX - 1, O_CLOEXEC)) < 0)
        err(1, "cannot make the run spec in %s", tmpdir());
}

/*
 * The spec, written atomically: under another name, then renamed over the
 * one the library reads.  A sweep writes one before every run, so it keeps
 * both files and swaps their names (RENAME_EXCHANGE): a new inode per run,
 * and the old one's deletion, cost more on a disk file system than all the
 * rest of a run's driving (ext4 with discard: a synchronous discard per
 * deleted file).  The content is written over the old (pwrite, then a
 * truncation that frees no block).  Where the file system cannot exchange
 * names, a plain rename.
 */
int
il_spec_write(struct il_spec *s, long pid, const char *output, int summary, const char *labels_json,
              const struct il_slots *slots)
{
    /* the machine as the library writes it, read once per driver: then
     * no measured process reads uname and /proc/cpuinfo itself */
    static char machine[8192], floor[4096];
    static int floored;
    if (!machine[0])
        il_machine_json(machine, sizeof machine);
    if (!floored++) /* a driver's children share its settings */
        driver_floor(slots, floor, sizeof floor);
    struct il_buf b = {0};
    il_buf_printf(&b, IL_RUN_SCHEMA "\n" IL_RUN_PID " %ld\n", pid);
    if (pid > 0 && pid == (long)getpid()) /* the owner, as ended judges it */
        il_buf_printf(&b, IL_RUN_STARTED " %lld %lu %s\n", start_ticks(pid), time_ns(),
                      boot_word());
    il_buf_printf(&b,
                  IL_RUN_OUTPUT " %s\n" IL_RUN_SUMMARY " %d\n" IL_RUN_LABELS " %s\n" IL_RUN_MACHINE
                                " %s\n",
                  output, summary, labels_json, machine);
    il_buf_printf(&b, "%s%s%s", slots->fixed ? slots->fixed : "", slots->setup, floor);
    if (!s->dir[0]) { /* a file of its own, which nothing reads yet */
        int rc = s->fd < 0 || pwrite(s->fd, b.p, b.n, 0) != (ssize_t)b.n ? -1 : 0;
        int e = s->fd < 0 ? EBADF : errno;
        if (s->fd >= 0 && close(s->fd) < 0 && rc == 0)
            rc = -1, e = errno;
        s->fd = -1;
        il_buf_free(&b);
        errno = e;
        return rc;
    }
    int fd = open(s->tmp, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    int rc =
        fd < 0 || pwrite(fd, b.p, b.n, 0) != (ssize_t)b.n || ftruncate(fd, (off_t)b.n) < 0 ? -1 : 0;
    int e = errno;
    if (fd >= 0 && close(fd) < 0 && rc == 0)
        rc = -1, e = errno;
    int swapped = 0;
    if (rc == 0 && s->exchange) {
        if (renameat2(AT_FDCWD, s->tmp, AT_FDCWD, s->path, RENAME_EXCHANGE) == 0)
            swapped = 1;
        else if (errno != ENOENT) /* ENOENT: no spec yet to swap with */
            s->exchange = 0;
    }
    if (rc == 0 && !swapped && rename(s->tmp, s->path) < 0)
        rc = -1, e = errno;
    il_buf_free(&b);
    errno = e;
    return rc;
}

/* What interloper may leave in a spec directory. */
static const char *const spec_files[] = {"spec",    "spec.new", "owner", "owner.new",
                                         "rec",     "out",      "err",   NULL};

void
il_spec_remove(struct il_spec *s)
{
    if (!s->dir[0]) {
        if (s->fd >= 0)
            close(s->fd);
        s->fd = -1;
        unlink(s->path);
        return;
    }
    for (const char *const *f = spec_files; *f; f++) {
        char p[IL_PATH_MAX + 16];
        snprintf(p, sizeof p, "%s/%s", s->dir, *f);
        unlink(p);
    }
    rmdir(s->dir);
}

void
il_spec_owner(struct il_spec *s)
{
    char p[IL_PATH_MAX + 16], tmp[IL_PATH_MAX + 16], line[64 + IL_BOOT_WORD_MAX + 8];
    snprintf(p, sizeof p, "%s/owner", s->dir);
    snprintf(tmp, sizeof tmp, "%s/owner.new", s->dir);
    /* the pid, when it started (ticks since boot, -1 unknown, in the time
     * namespace named next, 0 unknown), its pid namespace (0 unknown) and
     * its boot (boot_word): what il_spec_clean_stale judges by; written
     * whole under another name, then renamed, so that a cleaner never
     * reads a part of it (review13b: "12" of "1234", another pid) */
    long me = (long)getpid();
    int n = snprintf(line, sizeof line, "%ld %lld %lu %lu %s\n", me, start_ticks(me), pid_ns(),
                     time_ns(), boot_word());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0 || il_write_full(fd, line, (size_t)n) < 0 || close(fd) < 0 || rename(tmp, p) < 0)
        err(1, "cannot write %s", p);
}

/* An owner, as a spec or a sweep's owner file names it: its pid (0:
 * none, or "pid 0", a sweep's spec), when it started (ticks since boot;
 * -1: not said, an older build's, or unknown), the time namespace those
 * ticks were read in (0: unknown) and its boot (boot_word; "": an older
 * build's, which names neither), its pid namespace (0: not said), and
 * when its file was written (the file's change time). */
struct owner {
    long pid;
    long long ticks;
    unsigned long ns, timens;
    time_t when;
    int named_ns; /* ns is the owner's own word (0: it could not tell), not an older build's none */
    char boot[IL_BOOT_WORD_MAX + 1];
};

/* "TIMENS BOOT\n" at p, the end of an owner's start: into o, or nothing
 * where they are not there whole */
static void
owner_boot(const char *p, struct owner *o)
{
    char *e;
    size_t n;
    if (*p != ' ')
        return;
    unsigned long t = strtoul(p + 1, &e, 10);
    if (*e != ' ' || (n = strcspn(e + 1, " \n")) == 0 || n > IL_BOOT_WORD_MAX || e[1 + n] != '\n')
        return;
    o->timens = t;
    memcpy(o->boot, e + 1, n);
    o->boot[n] = 0;
}

/* The owner a spec names ("pid N", then "started T TIMENS BOOT"), name in
 * dfd; lines only where read whole (a spec being written is read in part) */
static void
spec_owner(int dfd, const char *name, struct owner *o)
{
    char b[512];
    struct stat st;
    o->pid = 0;
    o->ticks = -1;
    int fd = openat(dfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0)
        return;
    ssize_t n = read(fd, b, sizeof b - 1);
    if (n > 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        b[n] = 0;
        char *p = strstr(b, "\n" IL_RUN_PID " "), *e;
        long pid = p ? strtol(p + sizeof IL_RUN_PID + 1, &e, 10) : 0;
        if (p && *e == '\n')
            o->pid = pid;
        if ((p = strstr(b, "\n" IL_RUN_STARTED " "))) {
            long long t = strtoll(p + sizeof IL_RUN_STARTED + 1, &e, 10);
            if (*e == '\n' || *e == ' ')
                o->ticks = t;
            owner_boot(e, o);
        }
        o->when = st.st_mtime;
    }
    close(fd);
}

/* The owner of a spec directory: its spec's, or for a sweep's spec
 * ("pid 0") the owner file's, "PID TICKS NS TIMENS BOOT" (older builds':
 * "PID TICKS NS", "PID"). */
static void
dir_owner(int dfd, struct owner *o)
{
    char b[256];
    struct stat st;
    spec_owner(dfd, "spec", o);
    if (o->pid > 0)
        return;
    int fd = openat(dfd, "owner", O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0)
        return;
    ssize_t n = read(fd, b, sizeof b - 1);
    if (n > 0 && fstat(fd, &st) == 0) {
        b[n] = 0;
        char *e;
        o->pid = strtol(b, &e, 10);
        if (*e == ' ') {
            o->ticks = strtoll(e + 1, &e, 10);
            if (*e == ' ') {
                o->ns = strtoul(e + 1, &e, 10);
                o->named_ns = 1;
                owner_boot(e, o);
            }
        }
        o->when = st.st_mtime;
    }
    close(fd);
}

/* When the system booted, on the wall clock, as /proc/stat says it now
 * (a step of the wall clock moves it: only for an older build's spec,
 * which names no start in ticks) */
static long long
boot_time(void)
{
    static long long boot = -1;
    if (boot < 0) {
        FILE *f = fopen("/proc/stat", "re");
        char line[256];
        while (f && fgets(line, sizeof line, f))
            if (!strncmp(line, "btime ", 6))
                boot = atoll(line + 6);
        if (f)
            fclose(f);
        if (boot < 0)
            boot = 0;
    }
    return boot;
}

/* Has the owner ended?  Only on proof: on another boot or machine, or in
 * another pid namespace, its pid means nothing here, and a process alive
 * under its pid is it, unless that process started at another time (its
 * pid taken since), which ticks read in one time namespace tell.  So a
 * live run's spec is never removed: not where /proc is not mounted
 * (review12a: every one was), nor when the wall clock is stepped
 * (review12a: the start times, taken on it, moved past the specs' times),
 * nor by a run on another machine sharing TMPDIR (review13b M3), nor by
 * one in another time namespace (review13b M2). */
static int
ended(const struct owner *o)
{
    /* a named namespace must be this one, unknown matching unknown only
     * (review13b M1: an unknown on either side judged another namespace's
     * pid here, and removed a live run's spec) */
    if (o->pid <= 0 || (o->named_ns && o->ns != pid_ns()))
        return 0;
    /* a named boot must be this one (an older build's names none) */
    if (o->boot[0] && strcmp(o->boot, boot_word()))
        return 0;
    if (kill((pid_t)o->pid, 0) < 0 && errno == ESRCH)
        return 1;
    long long s = start_ticks(o->pid);
    if (s < 0)
        return 0; /* no /proc of this pid namespace's: alive, as kill says */
    if (o->boot[0]) /* ticks of this build's: only as read in one time namespace */
        return o->ticks >= 0 && o->timens == time_ns() && s != o->ticks;
    if (o->ticks >= 0)
        return s != o->ticks;
    /* an older build's: started 2 s after the spec was written (start
     * times are known to a second) */
    return boot_time() + s / sysconf(_SC_CLK_TCK) > (long long)o->when + 2;
}

/*
 * A spec directory, or interloper run's spec file, is stale when its owner
 * has ended (ended).  One without a readable owner is being made, or is
 * not ours to judge: left alone.  So a live run's spec is never removed,
 * whatever runs beside it.
 */
void
il_spec_clean_stale(void)
{
    const char *t = tmpdir();
    DIR *d = opendir(t);
    if (!d)
        return;
    struct dirent *de;
    uid_t me = getuid();
    while ((de = readdir(d))) {
        if (strncmp(de->d_name, SPEC_PREFIX, sizeof SPEC_PREFIX - 1))
            continue;
        struct stat st;
        if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || st.st_uid != me)
            continue;
        size_t len = strlen(de->d_name);
        struct owner o = {0, -1, 0, 0, 0, 0, ""};
        if (S_ISREG(st.st_mode) && len > sizeof SPEC_SUFFIX &&
            !strcmp(de->d_name + len - (sizeof SPEC_SUFFIX - 1), SPEC_SUFFIX)) {
            spec_owner(dirfd(d), de->d_name, &o);
            /* its pid namespace, from its name (an older build's has none) */
            char slashed[NAME_MAX + 2];
            long npid;
            snprintf(slashed, sizeof slashed, "/%s", de->d_name);
            o.named_ns = il_run_file_owner(slashed, len + 1, &npid, &o.ns);
            if (!o.named_ns)
                o.ns = 0;
            /* an empty one a minute old: its run was killed between making
             * and writing it (a live run writes it within milliseconds:
             * review12a, such files were never removed) */
            if (ended(&o) || (!st.st_size && time(NULL) - st.st_mtime > 60))
                unlinkat(dirfd(d), de->d_name, 0);
            continue;
        }
        if (!S_ISDIR(st.st_mode))
            continue;
        int dfd = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
        if (dfd < 0)
            continue;
        dir_owner(dfd, &o);
        if (ended(&o)) {
            for (const char *const *f = spec_files; *f; f++)
                unlinkat(dfd, *f, 0);
            unlinkat(dirfd(d), de->d_name, AT_REMOVEDIR);
        }
        close(dfd);
    }
    closedir(d);
}

/* ------------------------------------------------------------ ASLR, CPUs, spawn */

void
il_set_aslr(const char *me, int on)
{
    int cur = personality(0xffffffff);
    if (cur == -1)
        err(1, "--aslr %s: cannot read the personality", on ? "on" : "off");
    int want = on ? (cur & ~ADDR_NO_RANDOMIZE) : (cur | ADDR_NO_RANDOMIZE);
    if (personality((unsigned long)want) == -1 || personality(0xffffffff) != want)
        errx(1,
             "--aslr %s: the personality cannot be changed here (%s); refusing to run with "
             "ASLR %s",
             on ? "on" : "off", strerror(errno ? errno : EPERM), on ? "off" : "on");
    if (on) {
        char b[8] = "2";
        int fd = open("/proc/sys/kernel/randomize_va_space", O_RDONLY | O_CLOEXEC);
        if (fd >= 0) {
            if (read(fd, b, sizeof b - 1) < 0)
                b[0] = '2';
            close(fd);
        }
        if (b[0] == '0')
            errx(1, "--aslr on: ASLR is disabled system-wide (kernel.randomize_va_space=0)");
    }
    (void)me;
}

/*
 * vfork: the child shares our memory until it execs, so it costs no copy of
 * the page tables, which is most of a fork's price for a large driver.  The
 * child only makes system calls.  Signals are blocked around it so that no
 * handler of ours runs in the child; the child unblocks them just before
 * exec, which resets the handlers.  The child leads a process group of
 * its own: the caller signals the group, and kills what is left of it
 * when the child ends (il_spawn_reap).
 */
pid_t
il_spawn(const char *path, char *const argv[], char *const env[], int in, int out, int errfd,
         const cpu_set_t *cpus)
{
    sigset_t all, old;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, &old);
    pid_t parent = getpid();
    volatile int child_errno = 0;
    pid_t p = vfork();
    if (p == 0) {
        /* die with the sweep, even by SIGKILL: no measured program is left
         * behind, running on a machine someone else is measuring on */
        if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
            _exit(127);
        /* a process group of its own, so that its own children can be
         * signalled and killed with it (il_spawn_watch) */
        if (setpgid(0, 0) < 0) {
            child_errno = errno;
            _exit(127);
        }
        if ((in >= 0 && dup2(in, 0) < 0) || (out >= 0 && dup2(out, 1) < 0) ||
            (errfd >= 0 && dup2(errfd, 2) < 0) ||
            (cpus && sched_setaffinity(0, sizeof *cpus, cpus) < 0)) {
            child_errno = errno;
            _exit(127);
        }
        sigprocmask(SIG_SETMASK, &old, NULL);
        execve(path, argv, env);
        child_errno = errno;
        _exit(127);
    }
    int e = errno;
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (p < 0) {
        errno = e;
        return -1;
    }
    if (child_errno) {
        int st;
        while (waitpid(p, &st, 0) < 0 && errno == EINTR)
            ;
        errno = child_errno;
        return -1;
    }
    return p;
}

/*
 * What a run started must not outlive it, nor the sweep, even on SIGKILL:
 * PR_SET_PDEATHSIG reaches only the direct child, so a watcher process,
 * forked once, holds the read end of a socket, and when the socket reads
 * end of file (the sweep is gone, however it ended) it kills the process
 * group of the run under way, which the sweep keeps in a page they share
 * (0 between runs): a store per run, no wakeup.  It ignores the terminal's
 * signals, which the sweep handles.  The watcher itself can be killed
 * (SIGKILL, or a pkill of the command line it shares with the sweep): the
 * sweep looks, before each run, whether it has ended (one waitpid WNOHANG
 * a run), says so in one line and starts another (outside15 L3: the sweep
 * went on without one, and a SIGKILL of it then left its run behind).
 */
static int watch_fd = -1;
static pid_t watch_pid;
static int32_t *watch_group;

/* In the watcher: every descriptor but keep closed, so that it holds
 * nothing of the sweep's (the results file's lock, the plan's socket) when
 * started in the middle of a sweep: /proc/self/fd's, or every number below
 * the limit where /proc cannot be read. */
static void
close_all_but(int keep)
{
    DIR *d = opendir("/proc/self/fd");
    if (!d) {
        struct rlimit rl;
        long max = getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < 65536 ? (long)rl.rlim_cur
                                                                               : 65536;
        for (int fd = 3; fd < max; fd++)
            if (fd != keep)
                close(fd);
        return;
    }
    int dfd = dirfd(d), fds[256];
    size_t n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        int fd = atoi(e->d_name);
        if (fd > 2 && fd != keep && fd != dfd && n < sizeof fds / sizeof *fds)
            fds[n++] = fd;
    }
    closedir(d);
    for (size_t i = 0; i < n; i++)
        close(fds[i]);
    if (n == sizeof fds / sizeof *fds)
        close_all_but(keep); /* more than a buffer's worth: again */
}

static void
watch_start(void)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
        err(1, "cannot make the watcher's socket");
    pid_t w = fork();
    if (w < 0)
        err(1, "cannot start the watcher");
    if (w == 0) {
        close_all_but(sv[0]);
        prctl(PR_SET_NAME, "il-sweep-watch");
        signal(SIGINT, SIG_IGN);
        signal(SIGTERM, SIG_IGN);
        signal(SIGHUP, SIG_IGN);
        signal(SIGQUIT, SIG_IGN);
        char c;
        for (;;) {
            ssize_t n = read(sv[0], &c, 1);
            if (n > 0 || (n < 0 && errno == EINTR))
                continue;
            break; /* end of file: the sweep is gone */
        }
        int32_t g = __atomic_load_n(watch_group, __ATOMIC_SEQ_CST);
        if (g > 0)
            kill(-g, SIGKILL);
        _exit(0);
    }
    close(sv[0]);
    watch_fd = sv[1];
    watch_pid = w;
}

void
il_spawn_watch(void)
{
    watch_group =
        mmap(NULL, sizeof *watch_group, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (watch_group == MAP_FAILED)
        err(1, "cannot map the watcher's page");
    watch_start();
}

static void
watch(pid_t group)
{
    if (watch_group)
        __atomic_store_n(watch_group, (int32_t)group, __ATOMIC_SEQ_CST);
}

/* Has the watcher ended?  Then say so, and start another. */
static void
watch_check(void)
{
    int st;
    if (watch_pid <= 0 || waitpid(watch_pid, &st, WNOHANG) != watch_pid)
        return;
    char how[96];
    if (WIFSIGNALED(st))
        snprintf(how, sizeof how, "was killed by SIG%s",
                 sigabbrev_np(WTERMSIG(st)) ? sigabbrev_np(WTERMSIG(st)) : "?");
    else
        snprintf(how, sizeof how, "ended with status %d", WEXITSTATUS(st));
    warnx("its watcher il-sweep-watch (pid %d, which kills a run left behind if the sweep is "
          "killed) %s; another started",
          (int)watch_pid, how);
    close(watch_fd);
    watch_start();
}

void
il_spawn_started(pid_t p)
{
    watch_check();
    watch(p);
}

#ifdef SYS_pidfd_open
/* Under a seccomp filter (/proc/self/status "Seccomp: 2", inherited from
 * whatever started the driver), may pidfd_open be called?  A filter of an
 * older allow-list whose default action is to kill (systemd's
 * SystemCallFilter= without SystemCallErrorNumber=) kills at a system
 * call it does not know, and pidfd_open (Linux 5.3) is newer than many
 * (review13b): tried once, in a child of no consequence, without a core
 * file.  No filter: yes, and nothing is tried. */
static int
pidfd_allowed(void)
{
    static int allowed = -1;
    char line[256];
    if (allowed >= 0)
        return allowed;
    allowed = 1;
    FILE *f = fopen("/proc/self/status", "re");
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "Seccomp:", 8))
            allowed = atoi(line + 8) == 0;
    if (f)
        fclose(f);
    if (allowed)
        return allowed;
    pid_t c = fork();
    if (c == 0) {
        struct rlimit no = {0, 0};
        setrlimit(RLIMIT_CORE, &no);
        _exit(syscall(SYS_pidfd_open, getpid(), 0) < 0);
    }
    int st = 0;
    pid_t w = -1;
    while (c > 0 && (w = waitpid(c, &st, 0)) < 0 && errno == EINTR)
        ;
    allowed = w == c && WIFEXITED(st) && WEXITSTATUS(st) == 0;
    return allowed;
}
#endif

/* A descriptor that polls readable when process p ends, or -1 where
 * there is none (pidfd_open, Linux 5.3, where a seccomp filter allows) */
static int
pid_fd(pid_t p)
{
#ifdef SYS_pidfd_open
    if (!pidfd_allowed()) {
        errno = ENOSYS;
        return -1;
    }
    return (int)syscall(SYS_pidfd_open, p, 0);
#else
    (void)p;
    errno = ENOSYS;
    return -1;
#endif
}

/*
 * Wait for the child p; on the first of our own signals (*stop set by the
 * handler), pass it to the child's group.  With a limit (seconds; 0: none),
 * a child still running at the limit has its group sent SIGTERM, and
 * SIGKILL IL_SPAWN_GRACE seconds later (*over set); tick (if not NULL) is
 * called every IL_SPAWN_TICK seconds of the wait with the time so far.
 * When the child has ended, and while its zombie keeps the group's id from
 * being reused, kill whatever is left of its group: its background
 * children must not run into the next run, nor outlive the sweep.
 */
int
il_spawn_reap_within(pid_t p, volatile sig_atomic_t *stop, double limit, int *over,
                     void (*tick)(void *ctx, double waited), void *ctx)
{
    siginfo_t si;
    int forwarded = 0, status, fd = limit > 0 || tick ? pid_fd(p) : -1;
    /* without a pidfd, a tick alone is not worth polling for (a look
     * every 20 ms would slow a sweep of short runs): the wait blocks */
    int timed = limit > 0 || (tick && fd >= 0);
    double t0 = il_now(), next = limit > 0 ? limit : 0, ticked = 0;
    int sent = 0; /* 0: nothing, 1: SIGTERM, 2: SIGKILL */
    if (over)
        *over = 0;
    for (;;) {
        if (stop && *stop && !forwarded) {
            kill(-p, *stop);
            forwarded = 1;
        }
        memset(&si, 0, sizeof si);
        int r = waitid(P_PID, (id_t)p, &si, WEXITED | WNOWAIT | (timed ? WNOHANG : 0));
        if (r == 0 && si.si_pid == p)
            break;
        if (r < 0 && errno != EINTR)
            err(1, "waitid");
        if (!timed)
            continue;
        double waited = il_now() - t0;
        if (tick && fd >= 0 && waited - ticked >= IL_SPAWN_TICK) {
            ticked = waited;
            tick(ctx, waited);
        }
        if (next > 0 && waited >= next && sent < 2) {
            /* past the limit: asked to end, then made to */
            kill(-p, sent ? SIGKILL : SIGTERM);
            sent++;
            next = waited + IL_SPAWN_GRACE;
            if (over)
                *over = 1;
        }
        /* until the child ends, the next tick or the limit, at most */
        double until = tick && fd >= 0 ? ticked + IL_SPAWN_TICK - waited : 1e9;
        if (next > 0 && sent < 2 && next - waited < until)
            until = next - waited;
        int ms = until <= 0 ? 0 : until > 60 ? 60000 : (int)(until * 1000) + 1;
        if (fd >= 0) {
            struct pollfd pf = {.fd = fd, .events = POLLIN};
            poll(&pf, 1, ms); /* EINTR: a signal of ours, seen above */
        } else {
            struct timespec ts = {0, 20 * 1000 * 1000}; /* no pidfd: look every 20 ms */
            nanosleep(&ts, NULL);
        }
    }
    if (fd >= 0)
        close(fd);
    kill(-p, SIGKILL);
    while (waitpid(p, &status, 0) < 0)
        if (errno != EINTR)
            err(1, "waitpid");
    watch(0);
    return status;
}

int
il_spawn_reap(pid_t p, volatile sig_atomic_t *stop)
{
    return il_spawn_reap_within(p, stop, 0, NULL, NULL, NULL);
}
