/*
 * record.c: the record, schema interloper/1 (libinterloper(7)).
 *
 * Two halves.  The prefix (identity, argv, machine, setup) is known before
 * main and is built then with jansson, whose allocator is pointed at our
 * arena for the duration, so that jansson never touches the program's heap
 * (json_set_alloc_funcs; the previous functions are restored right after,
 * in case the program uses libjansson itself, whose hash seed we also leave
 * alone: see jw below).  The rest (exit, events,
 * times, floor, errors) is known only at the end, which may be inside a
 * signal handler or _exit, so it is appended by the signal-safe writer
 * below into a buffer sized before main.  One record, one line, one
 * write(2).
 */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "il.h"

/* ------------------------------------------------------------ arena */

int
il_arena_init(size_t want)
{
    if (il.arena)
        return 0;
    want = (want + 65535) & ~(size_t)65535;
    void *p = mmap(NULL, want, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (p == MAP_FAILED)
        return IL_ENOMEM;
    il.arena = p;
    il.arena_size = want;
    il.arena_used = 0;
    return 0;
}

void *
il_arena_alloc(size_t n)
{
    size_t at = (il.arena_used + 15) & ~(size_t)15;
    if (!il.arena || at + n > il.arena_size)
        return NULL;
    il.arena_used = at + n;
    return il.arena + at;
}

static void *
arena_malloc(size_t n)
{
    return il_arena_alloc(n);
}

static void
arena_free(void *p)
{
    (void)p; /* a bump allocator: everything lives as long as the process */
}

/* ------------------------------------------------------------ prefix */

/*
 * The prefix is written as literal keys (our own ASCII constants) and
 * values that jansson encodes: strings, integers, arrays.  No jansson
 * object is created: that would seed jansson's hash function (a read of
 * /dev/urandom, some 15 us) and fill a hash table, in every measured
 * process, for keys whose order we fix anyway.
 */
struct jw {
    char *buf;
    size_t len, cap;
    int err;
};

static void
jw_raw(struct jw *w, const char *s)
{
    size_t n = strlen(s);
    if (w->len + n >= w->cap) {
        w->err = 1;
        return;
    }
    memcpy(w->buf + w->len, s, n);
    w->len += n;
}

/* a value, encoded by jansson; the reference is stolen */
static void
jw_val(struct jw *w, json_t *v)
{
    size_t room = w->cap - w->len;
    size_t n = v ? json_dumpb(v, w->buf + w->len, room, JSON_COMPACT | JSON_ENCODE_ANY) : 0;
    json_decref(v);
    if (!n || n >= room)
        w->err = 1;
    else
        w->len += n;
}

static void
jw_key(struct jw *w, const char *k)
{
    jw_raw(w, w->buf[w->len - 1] == '{' ? "\"" : ",\"");
    jw_raw(w, k);
    jw_raw(w, "\":");
}

static json_t *
jstr(const char *s)
{
    size_t n = strlen(s);
    char *tmp = il_arena_alloc(3 * n + 8);
    if (!tmp)
        return NULL; /* out of arena: jw_val marks the record */
    size_t m = il_utf8_sanitize(s, n, tmp, 3 * n + 8);
    return json_stringn(tmp, m);
}

static json_t *
jhex(uintptr_t v)
{
    char b[24];
    il_fmt_hex(b, v);
    return json_string(b);
}

static json_t *
jint(uint64_t v)
{
    return json_integer((json_int_t)v);
}

/*
 * The CPU's model name: the first "model name", "Hardware" or "cpu model"
 * line of /proc/cpuinfo.  Only its first 512 bytes are read, so the
 * kernel formats one CPU's entry (about 6 us on the development VM, where
 * the alternative, CPUID, traps to the hypervisor at 13 us a leaf).
 */
static void
cpu_model(char *out, size_t n)
{
    char b[512];
    il_strlcpy(out, "", n);
    int fd = open("/proc/cpuinfo", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    ssize_t r = read(fd, b, sizeof b - 1);
    close(fd);
    if (r <= 0)
        return;
    b[r] = 0;
    static const char *keys[] = {"model name", "Hardware", "cpu model", "cpu", NULL};
    for (const char *const *k = keys; *k; k++) {
        for (char *line = b; line && *line;) {
            char *nl = strchr(line, '\n');
            if (!strncmp(line, *k, strlen(*k))) {
                char *colon = strchr(line, ':');
                if (colon && (!nl || colon < nl)) {
                    colon++;
                    while (*colon == ' ' || *colon == '\t')
                        colon++;
                    size_t len = nl ? (size_t)(nl - colon) : strlen(colon);
                    if (len >= n)
                        len = n - 1;
                    memcpy(out, colon, len);
                    out[len] = 0;
                    return;
                }
            }
            line = nl ? nl + 1 : NULL;
        }
    }
}

static void
jw_kv(struct jw *w, const char *k, json_t *v)
{
    jw_key(w, k);
    jw_val(w, v);
}

static void
write_setup(struct jw *w)
{
    jw_key(w, "setup");
    jw_raw(w, "{");
    jw_kv(w, "env_bytes", jint(il.env_bytes));
    jw_kv(w, "env_vars", jint(il.env_vars));
    jw_kv(w, "argv_bytes", jint(il.argv_bytes));
    jw_kv(w, "aslr", json_boolean(il.aslr));
    jw_kv(w, "stack_offset", jint(il.stack_offset));
    jw_kv(w, "stack_offset_requested", jint(il.cfg.stack_offset_req));
    jw_kv(w, "stack_pinned", json_boolean(il.stack_pinned));
    jw_kv(w, "stack_pin", il.stack_pinned ? jhex(il.stack_pin) : json_null());
    jw_kv(w, "main_sp", jhex(il.main_sp));
    jw_kv(w, "stack_top", jhex(il.stack_top));
    jw_kv(w, "heap_offset", jint(il.heap_offset));
    jw_kv(w, "heap_offset_requested", jint(il.cfg.heap_offset));
    jw_kv(w, "heap_start", jhex(il.heap_start));
    jw_kv(w, "heap_base", jhex(il.heap_base));
    jw_raw(w, "}");
}

static int build_prefix(int with_argv);

/*
 * Build the part of the record that is known before main, into il.buf,
 * sized for the rest too.  Returns 0 or IL_ENOMEM.  A command line too
 * large for the arena is left out, and the record says so.
 */
int
il_record_prefix(void)
{
    if (build_prefix(1) == 0)
        return 0;
    il_late_error("the command line is too large to record; argv is left empty", "");
    return build_prefix(0);
}

static int
build_prefix(int with_argv)
{
    json_malloc_t old_m;
    json_free_t old_f;
    json_get_alloc_funcs(&old_m, &old_f);
    json_set_alloc_funcs(arena_malloc, arena_free);

    struct utsname u;
    if (uname(&u) < 0)
        memset(&u, 0, sizeof u);
    char cpu[256], start[32];
    struct timespec now;
    cpu_model(cpu, sizeof cpu);
    clock_gettime(CLOCK_REALTIME, &now);
    il_iso8601(&now, start);

    /* escaping can at most sextuple a byte; the tail holds the rest */
    size_t cap = 4096 + 6 * ((with_argv ? il.argv_bytes : 0) + strlen(cpu) + sizeof u) +
                 65536 + (size_t)il.nev * 1024;
    struct jw w = {il_arena_alloc(cap), 0, cap, 0};
    if (!w.buf) {
        json_set_alloc_funcs(old_m, old_f);
        return IL_ENOMEM;
    }
    jw_raw(&w, "{");
    jw_kv(&w, "schema", json_string(IL_SCHEMA));
    jw_kv(&w, "version", json_string(IL_VERSION));
    jw_key(&w, "labels");
    jw_raw(&w, il.run_labels ? il.run_labels : "{}");
    jw_kv(&w, "pid", json_integer(getpid()));
    jw_kv(&w, "ppid", json_integer(getppid()));
    json_t *argv = json_array();
    for (int i = 0; with_argv && i < il.argc && il.argv && il.argv[i]; i++)
        if (json_array_append_new(argv, jstr(il.argv[i])) < 0)
            w.err = 1;
    jw_kv(&w, "argv", argv);
    jw_kv(&w, "host", jstr(u.nodename));
    jw_kv(&w, "cpu", jstr(cpu[0] ? cpu : u.machine));
    jw_kv(&w, "kernel", jstr(u.release));
    jw_kv(&w, "start", json_string(start));
    jw_kv(&w, "backend", json_string(il_backend_name(il.backend)));
    jw_kv(&w, "inherit", json_string(il_inherit_name(il.cfg.inherit)));
    write_setup(&w);
    json_set_alloc_funcs(old_m, old_f);
    if (w.err)
        return IL_ENOMEM;
    il.buf = w.buf;
    il.bufcap = cap;
    il.prefix_len = w.len;
    return 0;
}

/* ------------------------------------------------------------ the rest */

struct out {
    char *p, *end;
};

static void
put(struct out *o, const char *s)
{
    while (*s && o->p < o->end)
        *o->p++ = *s++;
}

static void
put_u64(struct out *o, uint64_t v)
{
    char b[24];
    il_fmt_u64(b, v);
    put(o, b);
}

static void
put_i64(struct out *o, int64_t v)
{
    char b[24];
    il_fmt_i64(b, v);
    put(o, b);
}

/* A JSON string, made valid UTF-8 first; signal-safe. */
static void
put_str(struct out *o, const char *s)
{
    char clean[4 * IL_ERROR_MAX];
    il_utf8_sanitize(s, strlen(s), clean, sizeof clean);
    put(o, "\"");
    for (const unsigned char *c = (const unsigned char *)clean; *c && o->p + 8 < o->end; c++) {
        if (*c == '"' || *c == '\\') {
            *o->p++ = '\\';
            *o->p++ = (char)*c;
        } else if (*c < 0x20) {
            static const char hx[] = "0123456789abcdef";
            put(o, "\\u00");
            *o->p++ = hx[*c >> 4];
            *o->p++ = hx[*c & 15];
        } else {
            *o->p++ = (char)*c;
        }
    }
    put(o, "\"");
}

static const char *const how_name[] = {"return", "exit", "_exit", "exec", "signal"};

static void
put_errors(struct out *o, int premain)
{
    int n = 0;
    for (int i = 0; i < il.cfg.nerrors; i++) {
        put(o, n++ ? "," : ",\"errors\":[");
        put_str(o, il.cfg.errors[i]);
    }
    for (int i = 0; i < il.nlate; i++) {
        put(o, n++ ? "," : ",\"errors\":[");
        put_str(o, il.late_errors[i]);
    }
    if (premain) {
        put(o, n++ ? "," : ",\"errors\":[");
        put_str(o, "the process ended before main (in a constructor, or it does not start "
                   "through __libc_start_main); nothing was measured");
    }
    if (il.exec_failed_errno) {
        put(o, n++ ? "," : ",\"errors\":[");
        put_str(o, "exec failed after this process had written its exec record; this record "
                   "covers the whole process and supersedes that one");
    }
    if (n)
        put(o, "]");
}

static void
put_exit(struct out *o, enum il_how how, int status, int sig, const char *exec_path)
{
    put(o, ",\"exit\":{\"how\":\"");
    put(o, how_name[how]);
    put(o, "\",\"status\":");
    if (how == IL_HOW_SIGNAL || how == IL_HOW_EXEC)
        put(o, "null");
    else
        put_i64(o, status);
    put(o, ",\"signal\":");
    put_i64(o, how == IL_HOW_SIGNAL ? sig : 0);
    if (how == IL_HOW_EXEC && exec_path) {
        put(o, ",\"exec\":");
        put_str(o, exec_path);
    }
    put(o, "}");
}

/*
 * Append the end of the record to the prefix in il.buf and return the
 * line's length.  Counters must already be stopped and read.
 */
size_t
il_record_finish(enum il_how how, int status, int sig, const char *exec_path)
{
    struct out o = {il.buf + il.prefix_len, il.buf + il.bufcap - 2};

    put_exit(&o, how, status, sig, exec_path);

    put(&o, ",\"events\":{");
    for (int i = 0; i < il.nev; i++) {
        struct il_event *e = &il.ev[i];
        if (i)
            put(&o, ",");
        put_str(&o, e->name);
        if (e->ok) {
            put(&o, ":{\"value\":");
            put_u64(&o, e->value);
            if (il.backend == IL_BACKEND_PERF) {
                put(&o, ",\"enabled_ns\":");
                put_u64(&o, e->enabled);
                put(&o, ",\"running_ns\":");
                put_u64(&o, e->running);
                if (e->attr.exclude_kernel && !e->attr.exclude_user && !strchr(e->name, ':'))
                    put(&o, ",\"scope\":\"user\"");
            }
            put(&o, "}");
        } else {
            put(&o, ":{\"value\":null,\"error\":");
            put_str(&o, e->error[0] ? e->error : "not counted");
            put(&o, "}");
        }
    }
    put(&o, "}");

    uint64_t user = il_tv_ns(&il.ru1.ru_utime) - il_tv_ns(&il.ru0.ru_utime);
    uint64_t sys = il_tv_ns(&il.ru1.ru_stime) - il_tv_ns(&il.ru0.ru_stime);
    long rss = il.ru1.ru_maxrss;
    if (il.cfg.inherit == IL_INHERIT_ALL) {
        /* children count into the record: their waited-for CPU time too */
        user += il_tv_ns(&il.ru1c.ru_utime) - il_tv_ns(&il.ru0c.ru_utime);
        sys += il_tv_ns(&il.ru1c.ru_stime) - il_tv_ns(&il.ru0c.ru_stime);
        if (il.ru1c.ru_maxrss > rss)
            rss = il.ru1c.ru_maxrss;
    }
    put(&o, ",\"times\":{\"wall_ns\":");
    put_u64(&o, il_ts_ns(&il.t0, &il.t1));
    put(&o, ",\"user_ns\":");
    put_u64(&o, user);
    put(&o, ",\"sys_ns\":");
    put_u64(&o, sys);
    put(&o, "},\"maxrss_kib\":");
    put_i64(&o, rss);

    put(&o, ",\"floor\":{");
    for (int i = 0, n = 0; i < il.nev; i++) {
        if (!il.ev[i].ok || !il.ev[i].floor_ok)
            continue;
        if (n++)
            put(&o, ",");
        put_str(&o, il.ev[i].name);
        put(&o, ":");
        put_u64(&o, il.ev[i].floor);
    }
    put(&o, "}");
    put_errors(&o, 0);
    *o.p++ = '}';
    *o.p++ = '\n';
    return (size_t)(o.p - il.buf);
}

/*
 * The process ended before il_main ran (a constructor called exit, _exit
 * or exec, or died): no prefix, no counters.  A short record, built
 * entirely with the signal-safe writer in a static buffer.
 */
size_t
il_record_premain(char *buf, size_t cap, enum il_how how, int status, int sig,
                  const char *exec_path)
{
    struct out o = {buf, buf + cap - 2};
    put(&o, "{\"schema\":\"" IL_SCHEMA "\",\"version\":\"" IL_VERSION "\",\"labels\":{},\"pid\":");
    put_i64(&o, getpid());
    put(&o, ",\"ppid\":");
    put_i64(&o, getppid());
    put(&o, ",\"argv\":[]");
    put_exit(&o, how, status, sig, exec_path);
    put(&o, ",\"backend\":\"none\",\"events\":{}");
    put_errors(&o, 1);
    *o.p++ = '}';
    *o.p++ = '\n';
    return (size_t)(o.p - buf);
}
