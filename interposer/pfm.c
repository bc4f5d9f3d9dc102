/*
 * pfm.c: names that are not generic, encoded by libpfm4.
 *
 * libpfm4 allocates as it initialises (its "perf" PMU table alone reads
 * the tracepoint list into malloc'd memory), and dlopen itself allocates.
 * Done in the program's process before main, that would move the
 * program's heap, which is one of the very things interloper controls.
 * So the names are encoded in a short-lived child: _Fork() (no atfork
 * handlers run), dlopen libpfm4 there, encode, send the perf_event_attr
 * structures back through a pipe, _exit.  The parent's heap, descriptors
 * (the pipe is closed again) and signal state are as they were.
 *
 * Costs a fork and a libpfm4 initialisation, and only when a name is not
 * generic.  Runs before main, or in the interloper-events tool.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <perfmon/pfmlib.h>
#include <signal.h>
#include <string.h>

#include "il.h"
#include "sys.h"

/* pfmlib_perf_event.h's argument block, declared here because that header
 * brings its own copy of linux/perf_event.h, which clashes with the
 * kernel's; the layout is libpfm4's ABI, and struct perf_event_attr is the
 * kernel's (the same 128 bytes in both). */
typedef struct {
    struct perf_event_attr *attr;
    char **fstr;
    size_t size;
    int idx;
    int cpu;
    int flags;
    int pad0;
} pfm_perf_encode_arg_t;

typedef int (*pfm_init_fn)(void);
typedef int (*pfm_enc_fn)(const char *, int, pfm_os_t, void *);
typedef const char *(*pfm_strerror_fn)(int);

static void
encode_all(const char *const *names, int n, struct il_pfm_result *out)
{
    /* dlopen through dlsym: one import for the library, not two */
    void *(*dl_open)(const char *, int) =
        (void *(*)(const char *, int))dlsym(RTLD_DEFAULT, "dlopen");
    void *h = dl_open ? dl_open("libpfm.so.4", RTLD_NOW | RTLD_LOCAL) : NULL;
    pfm_init_fn init = h ? (pfm_init_fn)dlsym(h, "pfm_initialize") : NULL;
    pfm_enc_fn enc = h ? (pfm_enc_fn)dlsym(h, "pfm_get_os_event_encoding") : NULL;
    pfm_strerror_fn serr = h ? (pfm_strerror_fn)dlsym(h, "pfm_strerror") : NULL;
    int rc = (init && enc && serr) ? init() : -1;

    for (int i = 0; i < n; i++) {
        struct il_pfm_result *r = &out[i];
        memset(r, 0, sizeof *r);
        if (!init || !enc || !serr) {
            r->rc = IL_ENOLIB;
            il_strlcpy(r->error,
                       "unknown event (not generic, and libpfm4 (libpfm.so.4) "
                       "cannot be loaded)",
                       sizeof r->error);
            continue;
        }
        if (rc != PFM_SUCCESS) {
            r->rc = IL_ENOLIB;
            char *p = il_cat(r->error, "unknown event (not generic; libpfm4 failed to "
                                       "initialise: ");
            p = il_cat(p, serr(rc));
            il_cat(p, ")");
            continue;
        }
        pfm_perf_encode_arg_t arg;
        memset(&arg, 0, sizeof arg);
        arg.attr = &r->attr;
        arg.size = sizeof arg;
        int e = enc(names[i], PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
        if (e != PFM_SUCCESS) {
            r->rc = e == PFM_ERR_NOTFOUND ? IL_ENOEVENT : IL_EINVAL;
            char *p = il_cat(r->error, e == PFM_ERR_NOTFOUND
                                           ? "unknown event (not a generic name, and libpfm4 "
                                             "says: "
                                           : "libpfm4 cannot encode it: ");
            p = il_cat(p, serr(e));
            if (e == PFM_ERR_NOTFOUND)
                il_cat(p, "); see interloper events");
            continue;
        }
        r->attr.size = sizeof r->attr;
        r->rc = 0;
    }
}

int
il_pfm_resolve(const char *const *names, int n, struct il_pfm_result *out)
{
    int p[2];
    il_sigset chld = IL_SIGBIT(SIGCHLD), old, pending_before;
    /* _Fork runs no atfork handlers; RTLD_NEXT skips our own fork hook. */
    pid_t (*fork_fn)(void) = (pid_t(*)(void))dlsym(RTLD_DEFAULT, "_Fork");
    if (!fork_fn)
        fork_fn = (pid_t(*)(void))dlsym(RTLD_NEXT, "fork");
    if (!fork_fn)
        return IL_ESYS;

    for (int i = 0; i < n; i++) {
        memset(&out[i], 0, sizeof out[i]);
        out[i].rc = IL_ENOLIB;
        il_strlcpy(out[i].error, "libpfm4 resolution failed (fork or pipe)", sizeof out[i].error);
    }
    /* SIGCHLD stays blocked around the child, and is consumed if our child
     * made it pending, so a handler the program's constructors installed
     * never sees our child. */
    il_sys_sigprocmask(SIG_BLOCK, &chld, &old);
    il_sys_sigpending(&pending_before);

    if (IL_SC(SYS_pipe2, p, O_CLOEXEC, 0) < 0) {
        il_sys_sigprocmask(SIG_SETMASK, &old, NULL);
        return IL_ESYS;
    }
    pid_t pid = fork_fn();
    if (pid == 0) {
        static struct il_pfm_result res[IL_MAX_EVENTS];
        il_sys_close(p[0]);
        encode_all(names, n, res);
        il_write_all(p[1], (const char *)res, sizeof res[0] * (size_t)n);
        il_sys_exit_group(0); /* not _exit: that is our own hook */
    }
    il_sys_close(p[1]);
    size_t want = sizeof out[0] * (size_t)n, got = 0;
    if (pid > 0) {
        while (got < want) {
            long r = il_sys_read(p[0], (char *)out + got, want - got);
            if (r == -EINTR)
                continue;
            if (r <= 0)
                break;
            got += (size_t)r;
        }
        while (il_sc6(SYS_wait4, pid, 0, 0, 0, 0, 0) == -EINTR)
            ;
    }
    il_sys_close(p[0]);
    if (!(pending_before & chld)) {
        struct timespec zero = {0, 0};
        il_sys_sigtimedwait(&chld, &zero);
    }
    il_sys_sigprocmask(SIG_SETMASK, &old, NULL);
    if (got < want) {
        for (int i = 0; i < n; i++) {
            out[i].rc = IL_ENOLIB;
            il_strlcpy(out[i].error, "libpfm4 resolution failed (the helper child died)",
                       sizeof out[i].error);
        }
        return IL_ENOLIB;
    }
    return 0;
}

/*
 * The perf encoding of every event of il.ev: generic names here, PAPI
 * names refused, the rest by libpfm4, all in one helper child.  Before
 * main, for the perf backend's open.
 */
void
il_perf_encode(void)
{
    const char *pfm_names[IL_MAX_EVENTS];
    int pfm_idx[IL_MAX_EVENTS], npfm = 0;
    for (int i = 0; i < il.nev; i++) {
        struct il_event *e = &il.ev[i];
        e->fd = -1;
        if (e->resolved)
            continue;
        if (il_event_generic(e->name, &e->attr) == 0) {
            e->resolved = 1;
        } else if (il_event_is_papi_name(e->name)) {
            e->ok = 0;
            il_strlcpy(e->error, "a PAPI name; perf needs a generic or libpfm4 name",
                       sizeof e->error);
        } else {
            pfm_idx[npfm] = i;
            pfm_names[npfm++] = e->name;
        }
    }
    if (!npfm)
        return;
    static struct il_pfm_result res[IL_MAX_EVENTS]; /* 10 KiB, off the stack */
    il_pfm_resolve(pfm_names, npfm, res);
    for (int j = 0; j < npfm; j++) {
        struct il_event *e = &il.ev[pfm_idx[j]];
        if (res[j].rc == 0) {
            e->attr = res[j].attr;
            e->resolved = 1;
        } else {
            e->ok = 0;
            il_strlcpy(e->error, res[j].error, sizeof e->error);
        }
    }
}
