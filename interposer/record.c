/*
 * record.c: the record, schema interloper/1 (libinterloper(7)).
 *
 * Two halves.  The prefix (identity, argv, machine, setup) is known before
 * main and is built then with jansson, whose allocator is pointed at our
 * arena for the duration, so that jansson never touches the program's heap
 * (json_set_alloc_funcs; the previous functions are restored right after,
 * in case the program uses libjansson itself).  The rest (exit, events,
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

static json_t *
jstr(const char *s)
{
    size_t n = strlen(s);
    char *tmp = il_arena_alloc(3 * n + 8);
    if (!tmp)
        return json_string("");
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

/* First "model name" (x86) or "Hardware"/"cpu model" line of /proc/cpuinfo;
 * the first 8 KiB are enough and keep the cost flat on big machines. */
static void
cpu_model(char *out, size_t n)
{
    static char b[8192];
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
build_setup(json_t *o)
{
    json_t *s = json_object();
    json_object_set_new(s, "env_bytes", json_integer((json_int_t)il.env_bytes));
    json_object_set_new(s, "env_vars", json_integer((json_int_t)il.env_vars));
    json_object_set_new(s, "argv_bytes", json_integer((json_int_t)il.argv_bytes));
    json_object_set_new(s, "aslr", json_boolean(il.aslr));
    json_object_set_new(s, "stack_offset", json_integer((json_int_t)il.stack_offset));
    json_object_set_new(s, "stack_offset_requested",
                        json_integer((json_int_t)il.cfg.stack_offset_req));
    json_object_set_new(s, "stack_pinned", json_boolean(il.stack_pinned));
    json_object_set_new(s, "stack_pin", il.stack_pinned ? jhex(il.stack_pin) : json_null());
    json_object_set_new(s, "main_sp", jhex(il.main_sp));
    json_object_set_new(s, "stack_top", jhex(il.stack_top));
    json_object_set_new(s, "heap_offset", json_integer((json_int_t)il.heap_offset));
    json_object_set_new(s, "heap_offset_requested", json_integer((json_int_t)il.cfg.heap_offset));
    json_object_set_new(s, "heap_start", jhex(il.heap_start));
    json_object_set_new(s, "heap_base", jhex(il.heap_base));
    json_object_set_new(o, "setup", s);
}

/*
 * Build the part of the record that is known before main, into il.buf.
 * Also sizes il.buf for the rest.  Returns 0 or IL_ENOMEM.
 */
int
il_record_prefix(void)
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

    json_t *o = json_object();
    json_object_set_new(o, "schema", json_string(IL_SCHEMA));
    json_object_set_new(o, "version", json_string(IL_VERSION));
    json_object_set_new(o, "labels", json_object());
    json_object_set_new(o, "pid", json_integer(getpid()));
    json_object_set_new(o, "ppid", json_integer(getppid()));
    json_t *argv = json_array();
    for (int i = 0; i < il.argc && il.argv && il.argv[i]; i++)
        json_array_append_new(argv, jstr(il.argv[i]));
    json_object_set_new(o, "argv", argv);
    json_object_set_new(o, "host", jstr(u.nodename));
    json_object_set_new(o, "cpu", jstr(cpu[0] ? cpu : u.machine));
    json_object_set_new(o, "kernel", jstr(u.release));
    json_object_set_new(o, "start", json_string(start));
    json_object_set_new(o, "backend", json_string(il_backend_name(il.backend)));
    json_object_set_new(o, "inherit", json_string(il_inherit_name(il.cfg.inherit)));
    build_setup(o);

    size_t need = json_dumpb(o, NULL, 0, JSON_COMPACT);
    size_t cap = need + 65536 + (size_t)il.nev * 1024;
    char *buf = need ? il_arena_alloc(cap) : NULL;
    if (buf && json_dumpb(o, buf, need, JSON_COMPACT) == need && need > 1) {
        il.buf = buf;
        il.bufcap = cap;
        il.prefix_len = need - 1; /* drop the closing brace */
    }
    json_set_alloc_funcs(old_m, old_f);
    return il.buf ? 0 : IL_ENOMEM;
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
