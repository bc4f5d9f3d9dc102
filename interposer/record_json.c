/*
 * record_json.c: the record, schema interloper/1 (libinterloper(7)), written
 * by one small JSON writer that is async-signal-safe: no allocation, no
 * stdio, no locks.
 *
 * Two halves.  The prefix (schema, labels, pid, ppid, argv) is written
 * before main, because the program may overwrite its argv (setproctitle)
 * and its parent may change.  The rest is appended when the image ends,
 * which may be in a signal handler or _exit: machine facts (read then,
 * outside the measured window), setup, exit, events, times, floor,
 * errors.  One record, one line, one write(2).
 *
 * Strings are made valid UTF-8 as they are escaped (a byte that is not
 * part of a well-formed sequence becomes U+FFFD): command lines and host
 * names are bytes, JSON strings are Unicode.
 */
#include <string.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/utsname.h>

#include "il_version.h" /* generated from VERSION (Makefile) */
#include "il.h"
#include "sys.h"

/* ------------------------------------------------------------ writer */

struct out {
    char *p, *end; /* end leaves room for "}\n" */
};

static void
put_n(struct out *o, const char *s, size_t n)
{
    if (n > (size_t)(o->end - o->p))
        n = (size_t)(o->end - o->p);
    char *p = o->p; /* short pieces: eight bytes at a time beat a call */
    for (; n >= 8; n -= 8, p += 8, s += 8) {
        uint64_t w;
        __builtin_memcpy(&w, s, 8);
        __builtin_memcpy(p, &w, 8);
    }
    while (n--)
        *p++ = *s++;
    o->p = p;
}

static void
put(struct out *o, const char *s)
{
    put_n(o, s, strlen(s));
}

/* a string literal, its length known at compile time */
#define PUT(o, lit) put_n((o), "" lit, sizeof(lit) - 1)

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

/* ,"key": (no comma right after an opening brace); keys are the
 * literals of il_names.h, so the whole piece is one literal */
static void
key_lit(struct out *o, const char *piece, size_t n)
{
    if (o->p[-1] == '{')
        put_n(o, piece + 1, n - 1);
    else
        put_n(o, piece, n);
}
#define key(o, k) key_lit((o), ",\"" k "\":", sizeof(",\"" k "\":") - 1)

/* 1 for the bytes a JSON string takes as they are: printable ASCII but
 * the quote and the backslash */
static const unsigned char plain[256] = {
    [' ' ... '!'] = 1,
    ['#' ... '['] = 1,
    [']' ... '~'] = 1,
};

/* A JSON string of n bytes of s: escaped, and valid UTF-8. */
static void
put_strn(struct out *o, const char *s, size_t n)
{
    static const char hx[] = "0123456789abcdef";
    const unsigned char *c = (const unsigned char *)s;
    PUT(o, "\"");
    for (size_t i = 0; i < n && o->p + 8 < o->end;) {
        unsigned b = c[i];
        size_t run = 0;
        while (i + run < n && plain[c[i + run]])
            run++;
        if (run) { /* the common case: plain ASCII, copied as it is */
            put_n(o, (const char *)c + i, run);
            i += run;
            continue;
        }
        if (b < 0x80) {
            if (b == '"' || b == '\\') {
                *o->p++ = '\\';
                *o->p++ = (char)b;
            } else if (b < 0x20) {
                PUT(o, "\\u00");
                *o->p++ = hx[b >> 4];
                *o->p++ = hx[b & 15];
            } else {
                *o->p++ = (char)b;
            }
            i++;
            continue;
        }
        char tmp[8];
        size_t len = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
        if (len > n - i)
            len = n - i;
        /* il_utf8_sanitize takes the longest valid prefix of one character */
        size_t m = il_utf8_sanitize((const char *)c + i, len, tmp, sizeof tmp);
        int whole = m == len && memcmp(tmp, c + i, len) == 0;
        if (whole) {
            memcpy(o->p, c + i, len);
            o->p += len;
            i += len;
        } else {
            memcpy(o->p, "\xef\xbf\xbd", 3);
            o->p += 3;
            i++;
        }
    }
    PUT(o, "\"");
}

static void
put_str(struct out *o, const char *s)
{
    put_strn(o, s, strlen(s));
}

static void
kv_u64_n(struct out *o, const char *k, size_t kn, uint64_t v)
{
    key_lit(o, k, kn);
    put_u64(o, v);
}

static void
kv_str_n(struct out *o, const char *k, size_t kn, const char *v)
{
    key_lit(o, k, kn);
    put_str(o, v);
}

static void
kv_hex_n(struct out *o, const char *k, size_t kn, uint64_t v)
{
    char b[24];
    il_fmt_hex(b, v);
    kv_str_n(o, k, kn, b);
}

static void
kv_bool_n(struct out *o, const char *k, size_t kn, int v)
{
    key_lit(o, k, kn);
    put(o, v ? "true" : "false");
}

#define KEYLIT(k) ",\"" k "\":", sizeof(",\"" k "\":") - 1
#define kv_u64(o, k, v) kv_u64_n((o), KEYLIT(k), (v))
#define kv_str(o, k, v) kv_str_n((o), KEYLIT(k), (v))
#define kv_hex(o, k, v) kv_hex_n((o), KEYLIT(k), (v))
#define kv_bool(o, k, v) kv_bool_n((o), KEYLIT(k), (v))

/* ------------------------------------------------------------ prefix */

/* Big enough for the worst escaping of argv and labels plus the tail
 * (events, errors, exec path); static, so only the pages used cost. */
static char recbuf[256 << 10];

static size_t
tail_max(void)
{
    return 16384 + (size_t)il.nev * (12 * IL_EVENT_NAME_MAX + 6 * IL_ERRSHORT + 256) +
           (IL_MAX_ERRORS + IL_LATE_MAX + 2) * (6 * IL_ERROR_MAX + 8) + 6 * IL_PATH_MAX;
}

static int
build_prefix(int with_argv)
{
    size_t labels = il.run_labels ? strlen(il.run_labels) : 2;
    size_t cap =
        1024 + labels + 6 * (with_argv ? il.argv_bytes : 0) + 8 * (size_t)il.argc + tail_max();
    if (cap <= sizeof recbuf) {
        il.buf = recbuf;
        cap = sizeof recbuf;
        /* the pages a typical record uses, without a page fault to count */
        il_populate(recbuf, recbuf + 4096 + 6 * il.argv_bytes);
    } else {
        long p = il_sys_mmap(NULL, cap, PROT_READ | PROT_WRITE,
                             MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p < 0 && p > -4096) {
            il.buf = NULL;
            return IL_ENOMEM;
        }
        il.buf = (char *)p;
    }
    il.bufcap = cap;
    struct out o = {il.buf, il.buf + cap - 2};
    PUT(&o, "{");
    kv_str(&o, IL_F_SCHEMA, IL_SCHEMA);
    kv_str(&o, IL_F_VERSION, IL_VERSION);
    key(&o, IL_F_LABELS);
    put(&o, il.run_labels ? il.run_labels : "{}"); /* a JSON object interloper run wrote */
    key(&o, IL_F_PID);
    put_i64(&o, il.pid);
    key(&o, IL_F_PPID);
    put_i64(&o, il_sys_getppid());
    key(&o, IL_F_ARGV);
    PUT(&o, "[");
    for (int i = 0; with_argv && i < il.argc && il.argv && il.argv[i]; i++) {
        if (i)
            PUT(&o, ",");
        put_str(&o, il.argv[i]);
    }
    PUT(&o, "]");
    il.prefix_len = (size_t)(o.p - il.buf);
    return 0;
}

/*
 * Write the part of the record that is known before main.  Returns 0 or
 * IL_ENOMEM; a command line too large to map is left out, and the record
 * says so.
 */
int
il_record_prefix(void)
{
    if (build_prefix(1) == 0)
        return 0;
    il_late_error("the command line is too large to record; argv is left empty", "");
    return build_prefix(0);
}

/* ------------------------------------------------------------ the rest */

static const char *const how_name[] = {
    [IL_HOW_RETURN] = IL_HOW_NAME_RETURN, [IL_HOW_EXIT] = IL_HOW_NAME_EXIT,
    [IL_HOW__EXIT] = IL_HOW_NAME__EXIT,   [IL_HOW_EXEC] = IL_HOW_NAME_EXEC,
    [IL_HOW_SIGNAL] = IL_HOW_NAME_SIGNAL,
};

static void
put_errors(struct out *o, int premain)
{
    int n = 0;
    const char *note[2] = {
        premain ? "the process ended before main (in a constructor, or it does not start "
                  "through __libc_start_main); nothing was measured"
                : NULL,
        il.exec_failed_errno ? "exec failed after this process had written its exec record; "
                               "this record covers the whole process and supersedes that one"
                             : NULL,
    };
    for (int i = 0; i < il.cfg.nerrors + il.nlate + 2; i++) {
        const char *e = i < il.cfg.nerrors              ? il.cfg.errors[i]
                        : i < il.cfg.nerrors + il.nlate ? il.late_errors[i - il.cfg.nerrors]
                                                        : note[i - il.cfg.nerrors - il.nlate];
        if (!e)
            continue;
        if (!n++)
            key(o, IL_F_ERRORS), PUT(o, "[");
        else
            PUT(o, ",");
        put_str(o, e);
    }
    if (n)
        PUT(o, "]");
}

static void
put_exit(struct out *o)
{
    key(o, IL_F_EXIT);
    PUT(o, "{");
    kv_str(o, IL_F_HOW, how_name[il.end_how]);
    key(o, IL_F_STATUS);
    if (il.end_how == IL_HOW_SIGNAL || il.end_how == IL_HOW_EXEC)
        PUT(o, "null");
    else
        put_i64(o, il.end_status);
    key(o, IL_F_SIGNAL);
    put_i64(o, il.end_how == IL_HOW_SIGNAL ? il.end_sig : 0);
    if (il.end_how == IL_HOW_EXEC && il.end_exec)
        kv_str(o, IL_F_EXEC, il.end_exec);
    kv_bool(o, IL_F_CERTAIN, !il.end_uncertain);
    PUT(o, "}");
}

/*
 * The CPU's model name: the first "model name", "Hardware" or "cpu model"
 * line of /proc/cpuinfo.  Only its first 512 bytes are read, so the
 * kernel formats one CPU's entry (about 6 us on the development VM, where
 * the alternative, CPUID, traps to the hypervisor at 13 us a leaf).
 */
static void
cpu_model(char *out, size_t n, const char *machine)
{
    char b[512];
    /* Unreadable (every descriptor in use, a limit as low as 3): unknown,
     * never another name for the same machine, which would split it in
     * two in a grouping by CPU (issue 17).  Such a record cannot reach a
     * file either, and goes to stderr. */
    if (il_read_small("/proc/cpuinfo", b, sizeof b) < 0) {
        il_strlcpy(out, "unknown", n);
        return;
    }
    il_strlcpy(out, machine, n); /* no model line: the architecture */
    static const char *const keys[] = {"model name", "Hardware", "cpu model", "cpu", NULL};
    for (const char *const *k = keys; *k; k++) {
        for (char *line = b; line && *line;) {
            char *nl = strchr(line, '\n');
            char *colon = strchr(line, ':');
            if (!strncmp(line, *k, strlen(*k)) && colon && (!nl || colon < nl)) {
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
            line = nl ? nl + 1 : NULL;
        }
    }
}

/* Facts that cannot change during the run, read after it: host, CPU,
 * kernel, and whether the system randomizes (with the personality bit
 * read before main). */
static void
put_machine(struct out *o)
{
    struct utsname u;
    char cpu[256], b[16] = "2";
    if (il_sys_uname(&u) < 0)
        memset(&u, 0, sizeof u);
    cpu_model(cpu, sizeof cpu, u.machine);
    kv_str(o, IL_F_HOST, u.nodename);
    kv_str(o, IL_F_CPU, cpu);
    kv_str(o, IL_F_KERNEL, u.release);
    il_read_small("/proc/sys/kernel/randomize_va_space", b, sizeof b);
    il.aslr = il.aslr && b[0] != '0';
}

static void
put_setup(struct out *o)
{
    key(o, IL_F_SETUP);
    PUT(o, "{");
    kv_u64(o, IL_F_ENV_BYTES, il.env_bytes);
    kv_u64(o, IL_F_ENV_VARS, il.env_vars);
    kv_u64(o, IL_F_ARGV_BYTES, il.argv_bytes);
    kv_bool(o, IL_F_ASLR, il.aslr);
    kv_u64(o, IL_F_STACK_OFFSET, il.stack_offset);
    kv_u64(o, IL_F_STACK_OFFSET_REQ, il.cfg.stack_offset_req);
    kv_bool(o, IL_F_STACK_PINNED, il.stack_pinned);
    if (il.stack_pinned)
        kv_hex(o, IL_F_STACK_PIN, il.stack_pin);
    else
        key(o, IL_F_STACK_PIN), PUT(o, "null");
    kv_hex(o, IL_F_MAIN_SP, il.main_sp);
    kv_str(o, IL_F_MAIN_ENTRY, il.main_tail ? IL_MAIN_ENTRY_TAIL : IL_MAIN_ENTRY_CALL);
    key(o, IL_F_MAIN_RESIDUE);
    put_i64(o, il.main_residue);
    kv_hex(o, IL_F_STACK_TOP, il.stack_top);
    kv_u64(o, IL_F_HEAP_OFFSET, il.heap_offset);
    kv_u64(o, IL_F_HEAP_OFFSET_REQ, il.cfg.heap_offset);
    kv_hex(o, IL_F_HEAP_START, il.heap_start);
    kv_hex(o, IL_F_HEAP_BASE, il.heap_base);
    kv_str(o, IL_F_CPUS, il.cpus);
    PUT(o, "}");
}

static void
put_events(struct out *o)
{
    key(o, IL_F_EVENTS);
    PUT(o, "{");
    for (int i = 0; i < il.nev; i++) {
        struct il_event *e = &il.ev[i];
        if (i)
            PUT(o, ",");
        put_str(o, e->name);
        PUT(o, ":{");
        if (e->ok) {
            kv_u64(o, IL_F_VALUE, e->value);
            if (il.be->caps & IL_CAP_TIMES) {
                kv_u64(o, IL_F_ENABLED, e->enabled);
                kv_u64(o, IL_F_RUNNING, e->running);
            }
            if ((il.be->caps & IL_CAP_SCOPE) && e->attr.exclude_kernel && !e->attr.exclude_user &&
                !strchr(e->name, ':'))
                kv_str(o, IL_F_SCOPE, "user");
        } else {
            key(o, IL_F_VALUE);
            PUT(o, "null");
            kv_str(o, IL_F_ERROR, e->error[0] ? e->error : "not counted");
        }
        PUT(o, "}");
    }
    PUT(o, "}");
}

/* The measured window's usage; under INHERIT=all the waited-for
 * children's too, since they count into the record. */
void
il_usage(struct il_usage *u)
{
    struct rusage *a = &il.ru0, *b = &il.ru1, *ac = &il.ru0c, *bc = &il.ru1c;
    int kids = il.inherit == IL_INHERIT_ALL;
    u->wall = il_ts_ns(&il.t0, &il.t1);
    u->user = il_tv_ns(&b->ru_utime) - il_tv_ns(&a->ru_utime) +
              (kids ? il_tv_ns(&bc->ru_utime) - il_tv_ns(&ac->ru_utime) : 0);
    u->sys = il_tv_ns(&b->ru_stime) - il_tv_ns(&a->ru_stime) +
             (kids ? il_tv_ns(&bc->ru_stime) - il_tv_ns(&ac->ru_stime) : 0);
    long vol = b->ru_nvcsw - a->ru_nvcsw + (kids ? bc->ru_nvcsw - ac->ru_nvcsw : 0);
    long invol = b->ru_nivcsw - a->ru_nivcsw + (kids ? bc->ru_nivcsw - ac->ru_nivcsw : 0);
    u->vol = vol > 0 ? (uint64_t)vol : 0;
    u->invol = invol > 0 ? (uint64_t)invol : 0;
    u->maxrss = b->ru_maxrss;
    if (kids && bc->ru_maxrss > u->maxrss)
        u->maxrss = bc->ru_maxrss;
}

static void
put_times(struct out *o)
{
    struct il_usage u;
    il_usage(&u);
    key(o, IL_F_TIMES);
    PUT(o, "{");
    kv_u64(o, IL_F_WALL, u.wall);
    kv_u64(o, IL_F_USER, u.user);
    kv_u64(o, IL_F_SYS, u.sys);
    PUT(o, "}");
    key(o, IL_F_CTX);
    PUT(o, "{");
    kv_u64(o, IL_F_VOLUNTARY, u.vol);
    kv_u64(o, IL_F_INVOLUNTARY, u.invol);
    PUT(o, "}");
    key(o, IL_F_MAXRSS);
    put_i64(o, u.maxrss);
}

static void
put_floor(struct out *o)
{
    key(o, IL_F_FLOOR);
    PUT(o, "{");
    for (int i = 0, n = 0; i < il.nev; i++) {
        if (!il.ev[i].ok || !il.ev[i].floor_ok)
            continue;
        if (n++)
            PUT(o, ",");
        put_str(o, il.ev[i].name);
        PUT(o, ":");
        put_u64(o, il.ev[i].floor);
    }
    PUT(o, "}");
}

/*
 * Append the end of the record to the prefix in il.buf and return the
 * line's length.  The ending is il.end_*; counters are stopped and read.
 * May be called again (the errors grew): it rewrites the same tail.
 */
size_t
il_record_finish(void)
{
    struct out o = {il.buf + il.prefix_len, il.buf + il.bufcap - 2};
    char start[32];
    put_machine(&o);
    il_iso8601(&il.start_real, start);
    kv_str(&o, IL_F_START, start);
    kv_str(&o, IL_F_BACKEND, il.be->name);
    kv_str(&o, IL_F_INHERIT, il_inherit_name(il.inherit));
    if (il.counted_in) {
        key(&o, IL_F_COUNTED_IN);
        put_i64(&o, il.counted_in);
    }
    if (il.others_state)
        kv_bool(&o, IL_F_OTHERS, il.others_state == 2);
    put_setup(&o);
    put_exit(&o);
    put_events(&o);
    put_times(&o);
    put_floor(&o);
    put_errors(&o, 0);
    *o.p++ = '}';
    *o.p++ = '\n';
    return (size_t)(o.p - il.buf);
}

/*
 * The process ended before main (a constructor called exit, _exit or
 * exec, or died): no prefix, no counters.  A short record, written
 * entirely now into buf.
 */
size_t
il_record_premain(char *buf, size_t cap)
{
    struct out o = {buf, buf + cap - 2};
    PUT(&o, "{");
    kv_str(&o, IL_F_SCHEMA, IL_SCHEMA);
    kv_str(&o, IL_F_VERSION, IL_VERSION);
    key(&o, IL_F_LABELS);
    PUT(&o, "{}");
    key(&o, IL_F_PID);
    put_i64(&o, il_sys_getpid());
    key(&o, IL_F_PPID);
    put_i64(&o, il_sys_getppid());
    key(&o, IL_F_ARGV);
    PUT(&o, "[]");
    put_exit(&o);
    kv_str(&o, IL_F_BACKEND, "none");
    key(&o, IL_F_EVENTS);
    PUT(&o, "{}");
    put_errors(&o, 1);
    *o.p++ = '}';
    *o.p++ = '\n';
    return (size_t)(o.p - buf);
}
