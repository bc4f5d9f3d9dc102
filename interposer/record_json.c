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
#include <elf.h>
#include <link.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/utsname.h>

#include "il_version.h" /* generated from VERSION (Makefile) */
#include "il.h"
#include "sys.h"

/* ------------------------------------------------------------ writer */

/*
 * The writer stops variable-length content (strings) at end, and writes
 * the fixed pieces (literals, numbers) without a check: the buffer has
 * IL_RECORD_SLACK bytes past end, more than all the fixed pieces of a
 * record take (under 4 KiB).  Literals are copied with their lengths known
 * to the compiler, a few moves each, and numbers are formatted in place:
 * the record costs each process a few thousand instructions, not twelve.
 */
#define IL_RECORD_SLACK 8192

struct out {
    char *p, *end;
};

static void
put_n(struct out *o, const char *s, size_t n)
{
    if (n > (size_t)(o->end - o->p))
        n = o->p < o->end ? (size_t)(o->end - o->p) : 0;
    il_copy_short(o->p, s, n); /* short pieces: word moves beat a call */
    o->p += n;
}

static void
put(struct out *o, const char *s)
{
    put_n(o, s, strlen(s));
}

/* a string literal (one of il_names.h's keys with its punctuation, say):
 * a fixed piece */
#define PUT(o, lit)                                                                                \
    ((void)__builtin_memcpy((o)->p, "" lit, sizeof(lit) - 1), (o)->p += sizeof(lit) - 1)

/* numbers, formatted in place: fixed pieces */
static void
put_u64(struct out *o, uint64_t v)
{
    o->p = il_fmt_u64(o->p, v);
}

/* a number that often repeats the one before (the events' enabled_ns and
 * running_ns: one reading for a whole group): its text copied when it does */
struct memo {
    uint64_t v;
    const char *s; /* its text in the record, NULL before the first */
    size_t n;
};

static void
put_u64_memo(struct out *o, uint64_t v, struct memo *m)
{
    if (m->s && v == m->v) {
        il_copy_short(o->p, m->s, m->n);
        o->p += m->n;
        return;
    }
    m->s = o->p;
    o->p = il_fmt_u64(o->p, v);
    m->n = (size_t)(o->p - m->s);
    m->v = v;
}

static void
put_i64(struct out *o, int64_t v)
{
    o->p = il_fmt_i64(o->p, v);
}

/* "0x..." */
static void
put_hex(struct out *o, uint64_t v)
{
    *o->p++ = '"';
    o->p = il_fmt_hex(o->p, v);
    *o->p++ = '"';
}

/* the tail's facts that the summary prints too (il_record_written) */
static struct il_written written;
static int written_ok;

const struct il_written *
il_record_written(void)
{
    return written_ok ? &written : NULL;
}

static void
put_bool(struct out *o, int v)
{
    if (v)
        PUT(o, "true");
    else
        PUT(o, "false");
}

/* 1 for the bytes a JSON string takes as they are: printable ASCII but
 * the quote and the backslash */
static const unsigned char plain[256] = {
    [' ' ... '!'] = 1,
    ['#' ... '['] = 1,
    [']' ... '~'] = 1,
};

/* Are all eight bytes of x plain?  None below 0x20 or above 0x7e, none a
 * quote or a backslash: exact tests of any byte, a word at a time. */
static int
plain8(uint64_t x)
{
    const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    uint64_t q = x ^ (ones * '"'), b = x ^ (ones * '\\');
    uint64_t bad =
        ((x - ones * 0x20) & ~x) | ((x + ones) | x) | ((q - ones) & ~q) | ((b - ones) & ~b);
    return !(bad & highs);
}

/* The rest of a JSON string from byte i of c's n, that the plain copy
 * below left: escaped, and valid UTF-8. */
static void
put_strn_rest(struct out *o, const unsigned char *c, size_t i, size_t n)
{
    static const char hx[] = "0123456789abcdef";
    while (i < n && o->p + 8 < o->end) {
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
}

/* A JSON string of n bytes of s: escaped, and valid UTF-8.  Inline: the
 * common case, a plain string with room, is copied as it is scanned, a
 * word at a time. */
static inline __attribute__((always_inline)) void
put_strn(struct out *o, const char *s, size_t n)
{
    const unsigned char *c = (const unsigned char *)s;
    PUT(o, "\"");
    size_t i = 0;
    if (o->p < o->end && n < (size_t)(o->end - o->p)) {
        char *p = o->p;
        for (uint64_t x; i + 8 <= n; i += 8) {
            __builtin_memcpy(&x, c + i, 8);
            if (!plain8(x))
                break;
            __builtin_memcpy(p + i, &x, 8);
        }
        while (i < n && plain[c[i]]) {
            p[i] = (char)c[i];
            i++;
        }
        o->p += i;
    }
    if (i < n)
        put_strn_rest(o, c, i, n);
    PUT(o, "\"");
}

static void
put_str(struct out *o, const char *s)
{
    put_strn(o, s, strlen(s));
}

/* A string the library made itself of characters JSON takes as they are
 * (a name from its own tables, a CPU list, a time): quoted, not
 * escaped. */
static void
put_safe(struct out *o, const char *s)
{
    *o->p++ = '"';
    put(o, s);
    *o->p++ = '"';
}

/* ------------------------------------------------------------ prefix */

/*
 * The main program's GNU build-id: the linker's hash of the image (ld
 * --build-id, which Debian's gcc passes), in its PT_NOTE note of type
 * NT_GNU_BUILD_ID, name "GNU".  Read from the program headers
 * dl_iterate_phdr gave bind.c, in memory: no system call, about 200
 * instructions before main (bench/overhead.sh).  A note is read only where
 * it lies inside a readable PT_LOAD segment (a PT_NOTE outside one is not
 * mapped).  null where there is none (-Wl,--build-id=none, a program
 * without libc).
 */

/* the note segment h lies inside a readable PT_LOAD, where it is mapped */
static int
mapped(const ElfW(Phdr) *ph, const ElfW(Phdr) *h)
{
    for (int j = 0; j < il.prog_phnum; j++)
        if (ph[j].p_type == PT_LOAD && (ph[j].p_flags & PF_R) && h->p_vaddr >= ph[j].p_vaddr &&
            h->p_vaddr - ph[j].p_vaddr <= ph[j].p_filesz &&
            h->p_memsz <= ph[j].p_filesz - (h->p_vaddr - ph[j].p_vaddr))
            return 1; /* inside: no end subtracted from a start past it */
    return 0;
}

/* the hex digits of the bytes d..e at q, four bytes a 64-bit store */
static char *
hex_of(char *q, const unsigned char *d, const unsigned char *e)
{
    for (; e - d >= 4; d += 4, q += 8) {
        uint16_t h0, h1, h2, h3;
        __builtin_memcpy(&h0, il_hex2 + 2 * d[0], 2);
        __builtin_memcpy(&h1, il_hex2 + 2 * d[1], 2);
        __builtin_memcpy(&h2, il_hex2 + 2 * d[2], 2);
        __builtin_memcpy(&h3, il_hex2 + 2 * d[3], 2);
        uint64_t v = h0 | (uint64_t)h1 << 16 | (uint64_t)h2 << 32 | (uint64_t)h3 << 48;
        __builtin_memcpy(q, &v, 8); /* little-endian: summary.c asserts the order */
    }
    for (; d < e; d++, q += 2)
        __builtin_memcpy(q, il_hex2 + 2 * *d, 2);
    return q;
}

static void
put_build_id(struct out *o)
{
    const ElfW(Phdr) *ph = il.prog_phdr;
    PUT(o, ",\"" IL_F_BUILD_ID "\":");
    /* from the last: the linkers put the build-id's note segment after
     * .note.gnu.property's, and only a few headers follow it */
    for (int i = ph ? il.prog_phnum - 1 : -1; i >= 0; i--) {
        if (ph[i].p_type != PT_NOTE || !mapped(ph, &ph[i]))
            continue;
        size_t al = ph[i].p_align == 8 ? 8 : 4; /* .note.gnu.property's are 8 */
        const unsigned char *p = (const unsigned char *)(il.prog_base + ph[i].p_vaddr);
        size_t left = ph[i].p_memsz;
        while (left >= sizeof(ElfW(Nhdr))) {
            const ElfW(Nhdr) *n = (const ElfW(Nhdr) *)(const void *)p;
            size_t name = (n->n_namesz + al - 1) & ~(al - 1);
            size_t desc = (n->n_descsz + al - 1) & ~(al - 1);
            if (n->n_namesz > left || n->n_descsz > left ||
                name + desc > left - sizeof(ElfW(Nhdr)))
                break;
            const unsigned char *d = p + sizeof(ElfW(Nhdr)) + name;
            uint32_t gnu; /* "GNU\0", read little-endian */
            __builtin_memcpy(&gnu, p + sizeof(ElfW(Nhdr)), 4);
            if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 && gnu == 0x00554e47u &&
                n->n_descsz > 0 && n->n_descsz <= 64) {
                char *q = o->p; /* a local: a char store may alias o */
                *q++ = '"';
                q = hex_of(q, d, d + n->n_descsz);
                *q++ = '"';
                o->p = q;
                return;
            }
            p += sizeof(ElfW(Nhdr)) + name + desc;
            left -= sizeof(ElfW(Nhdr)) + name + desc;
        }
    }
    PUT(o, "null");
}

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
    size_t cap = 1024 + labels + 6 * (with_argv ? il.argv_bytes : 0) + 8 * (size_t)il.argc +
                 tail_max() + IL_RECORD_SLACK;
    if (cap <= sizeof recbuf) {
        il.buf = recbuf;
        cap = sizeof recbuf;
        /* The pages a typical record uses, without a page fault to count,
         * where something may count them: another measured process's
         * counters, which count a child's image whole under
         * INTERLOPER_INHERIT=all, marker (counted.c) or not (posix_spawn).
         * Not where this image is the only one measured (others.c, asked
         * just before): its own counters start after this prefix and stop
         * before the rest of the record is written, and the madvise would
         * only cost a system call. */
        if (il.others_state != 1)
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
    struct out o = {il.buf, il.buf + cap - IL_RECORD_SLACK};
    PUT(&o, "{\"" IL_F_SCHEMA "\":\"" IL_SCHEMA "\",\"" IL_F_VERSION "\":");
    put_str(&o, IL_VERSION);
    PUT(&o, ",\"" IL_F_LABELS "\":");
    put(&o, il.run_labels ? il.run_labels : "{}"); /* a JSON object interloper run wrote */
    PUT(&o, ",\"" IL_F_PID "\":");
    put_i64(&o, il.pid);
    PUT(&o, ",\"" IL_F_PPID "\":");
    put_i64(&o, il_sys_getppid());
    PUT(&o, ",\"" IL_F_ARGV "\":[");
    for (int i = 0; with_argv && i < il.argc && il.argv && il.argv[i]; i++) {
        if (i)
            PUT(&o, ",");
        put_str(&o, il.argv[i]);
    }
    PUT(&o, "]");
    put_build_id(&o);
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

const char il_how_names[][8] = {
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
            PUT(o, ",\"" IL_F_ERRORS "\":[");
        else
            PUT(o, ",");
        put_str(o, e);
    }
    if (n)
        PUT(o, "]");
}

/* the image's exec failed after its exec record: this one covers it */
static void
put_supersedes(struct out *o)
{
    if (il.exec_failed_errno)
        PUT(o, ",\"" IL_F_SUPERSEDES_EXEC "\":true");
}

static void
put_exit(struct out *o)
{
    PUT(o, ",\"" IL_F_EXIT "\":{\"" IL_F_HOW "\":");
    put_safe(o, il_how_names[il.end_how]);
    PUT(o, ",\"" IL_F_STATUS "\":");
    if (il.end_how == IL_HOW_SIGNAL || il.end_how == IL_HOW_EXEC)
        PUT(o, "null");
    else
        put_i64(o, il.end_status);
    PUT(o, ",\"" IL_F_SIGNAL "\":");
    put_i64(o, il.end_how == IL_HOW_SIGNAL ? il.end_sig : 0);
    if (il.end_how == IL_HOW_EXEC && il.end_exec) {
        PUT(o, ",\"" IL_F_EXEC "\":");
        put_str(o, il.end_exec);
    }
    PUT(o, ",\"" IL_F_CERTAIN "\":");
    put_bool(o, !il.end_uncertain);
    PUT(o, "}");
}

/*
 * The CPU's model name: the first "model name", "Hardware" or "cpu model"
 * line of /proc/cpuinfo, in that order of preference, else the first
 * line starting "cpu".  Only its first 512 bytes are read, so the kernel
 * formats one CPU's entry.  One pass over the lines.  On x86-64 the same
 * name comes from CPUID before main where it can (setup.c il_cpu_brand):
 * three system calls fewer.
 */
static void
cpu_model(char *out, size_t n)
{
    static const struct {
        char key[12]; /* an array: nothing for the loader to relocate */
        size_t len;
    } keys[] = {{"model name", 10}, {"Hardware", 8}, {"cpu model", 9}, {"cpu", 3}};
    char b[512 + 16]; /* 512 read, and slack for the word compares */
    const char *best = NULL;
    size_t best_len = 0, rank = sizeof keys / sizeof keys[0];
    if (il.cpu_brand[0]) { /* the same name, from CPUID before main (setup.c) */
        il_strlcpy(out, il.cpu_brand, n);
        return;
    }
    out[0] = 0;
    /* Unreadable (every descriptor in use, a limit as low as 3): unknown,
     * never another name for the same machine (the architecture), which
     * would split it in two in a grouping by CPU (issue 17).  Such a record
     * cannot reach a file either, and goes to stderr. */
    int r = il_read_small("/proc/cpuinfo", b, 512);
    if (r < 0) {
        il_strlcpy(out, "unknown", n);
        return;
    }
    /* the word compares below read at most 11 bytes past a line's end:
     * zeros there (two stores), not the stack's old bytes */
    __builtin_memset(b + r, 0, 16);
    for (char *line = b; *line && rank > 0;) {
        char *nl = strchr(line, '\n');
        for (size_t k = 0; k < rank; k++) {
            /* a word at a time: a key ends before the line's NUL, or
             * differs from it there (the zeroed slack covers the word
             * read past) */
            if (line[0] != keys[k].key[0] || !il_same_bytes(line, keys[k].key, keys[k].len))
                continue;
            char *colon = strchr(line, ':');
            if (!colon || (nl && colon > nl))
                continue;
            for (colon++; *colon == ' ' || *colon == '\t'; colon++)
                ;
            best = colon;
            best_len = nl ? (size_t)(nl - colon) : strlen(colon);
            rank = k;
            break;
        }
        if (!nl)
            break;
        line = nl + 1;
    }
    if (!best)
        return;
    if (best_len >= n)
        best_len = n - 1;
    memcpy(out, best, best_len);
    out[best_len] = 0;
}

/* The machine's host, CPU and kernel, as JSON members with a comma in
 * front: read here, or as the driver read them once (run_spec.c). */
static void
machine_members(struct out *o)
{
    struct utsname u;
    char cpu[256];
    if (il_sys_uname(&u) < 0)
        memset(&u, 0, sizeof u);
    cpu_model(cpu, sizeof cpu);
    PUT(o, ",\"" IL_F_HOST "\":");
    put_str(o, u.nodename);
    PUT(o, ",\"" IL_F_CPU "\":");
    put_str(o, cpu[0] ? cpu : u.machine);
    PUT(o, ",\"" IL_F_KERNEL "\":");
    put_str(o, u.release);
}

/* Facts that cannot change during the run, read after it: host, CPU,
 * kernel; from interloper run's or sweep's spec when they gave them. */
static void
put_machine(struct out *o)
{
    if (il.run_machine) {
        PUT(o, ",");
        put(o, il.run_machine);
    } else {
        machine_members(o);
    }
}

/* The same members for a driver to hand over in the spec: without the
 * leading comma, NUL-terminated in buf (at least 4 KiB). */
size_t
il_machine_json(char *buf, size_t cap)
{
    struct out o = {buf, buf + cap - 1024};
    machine_members(&o);
    *o.p = 0;
    memmove(buf, buf + 1, (size_t)(o.p - buf));
    return (size_t)(o.p - buf) - 1;
}

static void
put_setup(struct out *o)
{
    PUT(o, ",\"" IL_F_SETUP "\":{\"" IL_F_ENV_BYTES "\":");
    put_u64(o, il.env_bytes);
    PUT(o, ",\"" IL_F_ENV_VARS "\":");
    put_u64(o, il.env_vars);
    PUT(o, ",\"" IL_F_ARGV_BYTES "\":");
    put_u64(o, il.argv_bytes);
    PUT(o, ",\"" IL_F_ASLR "\":");
    put_bool(o, il.aslr);
    PUT(o, ",\"" IL_F_STACK_OFFSET "\":");
    put_u64(o, il.stack_offset);
    PUT(o, ",\"" IL_F_STACK_OFFSET_REQ "\":");
    put_u64(o, il.cfg.stack_offset_req);
    PUT(o, ",\"" IL_F_STACK_PINNED "\":");
    put_bool(o, il.stack_pinned);
    PUT(o, ",\"" IL_F_STACK_PIN "\":");
    if (il.stack_pinned)
        put_hex(o, il.stack_pin);
    else
        PUT(o, "null");
    PUT(o, ",\"" IL_F_MAIN_SP "\":");
    written.main_sp = o->p + 1;
    put_hex(o, il.main_sp);
    written.main_sp_len = (size_t)(o->p - 1 - written.main_sp);
    PUT(o, ",\"" IL_F_MAIN_ENTRY "\":");
    if (il.main_tail)
        PUT(o, "\"" IL_MAIN_ENTRY_TAIL "\"");
    else
        PUT(o, "\"" IL_MAIN_ENTRY_CALL "\"");
    PUT(o, ",\"" IL_F_MAIN_RESIDUE "\":");
    put_i64(o, il.main_residue);
    PUT(o, ",\"" IL_F_STACK_TOP "\":");
    put_hex(o, il.stack_top);
    PUT(o, ",\"" IL_F_HEAP_OFFSET "\":");
    put_u64(o, il.heap_offset);
    PUT(o, ",\"" IL_F_HEAP_OFFSET_REQ "\":");
    put_u64(o, il.cfg.heap_offset);
    PUT(o, ",\"" IL_F_HEAP_START "\":");
    written.heap_start = o->p + 1;
    put_hex(o, il.heap_start);
    written.heap_start_len = (size_t)(o->p - 1 - written.heap_start);
    PUT(o, ",\"" IL_F_HEAP_BASE "\":");
    put_hex(o, il.heap_base);
    PUT(o, ",\"" IL_F_CPUS "\":");
    put_safe(o, il.cpus);
    PUT(o, "}");
}

/* each event's name as put_events wrote it, quoted and escaped, for
 * put_floor to copy: the same text, not scanned and escaped again (three
 * events: about 300 instructions in every process).  Only where put_str
 * had room for any name, both times: escaping makes at most 6 bytes of
 * one, and then put_str's text is the whole name (tail_max reserves that
 * room for each event twice, so this is every record but a cut one). */
#define NAME_ROOM (6 * IL_EVENT_NAME_MAX + 16)
static struct {
    const char *s;
    size_t n; /* 0: not written whole */
} event_json[IL_MAX_EVENTS];

static int
room_for_name(const struct out *o)
{
    return o->p < o->end && (size_t)(o->end - o->p) >= NAME_ROOM;
}

static void
put_events(struct out *o)
{
    PUT(o, ",\"" IL_F_EVENTS "\":{");
    struct memo times = {0};
    for (int i = 0; i < il.nev; i++) {
        struct il_event *e = &il.ev[i];
        if (i)
            PUT(o, ",");
        int whole = room_for_name(o);
        event_json[i].s = o->p;
        put_strn(o, e->name, e->name_len ? e->name_len : strlen(e->name));
        event_json[i].n = whole ? (size_t)(o->p - event_json[i].s) : 0;
        if (e->ok) {
            PUT(o, ":{\"" IL_F_VALUE "\":");
            put_u64(o, e->value);
            if (il.be->caps & IL_CAP_TIMES) {
                PUT(o, ",\"" IL_F_ENABLED "\":");
                put_u64_memo(o, e->enabled, &times);
                PUT(o, ",\"" IL_F_RUNNING "\":");
                put_u64_memo(o, e->running, &times);
            }
            if ((il.be->caps & IL_CAP_SCOPE) && e->attr.exclude_kernel && !e->attr.exclude_user &&
                !strchr(e->name, ':'))
                PUT(o, ",\"" IL_F_SCOPE "\":\"user\"");
        } else {
            PUT(o, ":{\"" IL_F_VALUE "\":null,\"" IL_F_ERROR "\":");
            put_str(o, e->error[0] ? e->error : "not counted");
        }
        PUT(o, "}");
    }
    PUT(o, "}");
}

/* The measured window's usage; under INHERIT=all the waited-for
 * children's too, since they count into the record (and only then are
 * they asked for: counters_start, il_write_record). */
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
    written.usage = u;
    PUT(o, ",\"" IL_F_TIMES "\":{\"" IL_F_WALL "\":");
    put_u64(o, u.wall);
    PUT(o, ",\"" IL_F_USER "\":");
    put_u64(o, u.user);
    PUT(o, ",\"" IL_F_SYS "\":");
    put_u64(o, u.sys);
    PUT(o, "},\"" IL_F_CTX "\":{\"" IL_F_VOLUNTARY "\":");
    put_u64(o, u.vol);
    PUT(o, ",\"" IL_F_INVOLUNTARY "\":");
    put_u64(o, u.invol);
    PUT(o, "},\"" IL_F_MAXRSS "\":");
    put_i64(o, u.maxrss);
}

/* the floor, and whose calibration it is where there is one */
static void
put_floor(struct out *o)
{
    PUT(o, ",\"" IL_F_FLOOR "\":{");
    int n = 0;
    for (int i = 0; i < il.nev; i++) {
        if (!il.ev[i].ok || !il.ev[i].floor_ok)
            continue;
        if (n++)
            PUT(o, ",");
        if (event_json[i].n && room_for_name(o)) {
            il_copy_short(o->p, event_json[i].s, event_json[i].n);
            o->p += event_json[i].n;
        } else {
            put_str(o, il.ev[i].name);
        }
        PUT(o, ":");
        put_u64(o, il.ev[i].floor);
    }
    PUT(o, "}");
    if (!n)
        return;
    if (il.floor_driver)
        PUT(o, ",\"" IL_F_FLOOR_SOURCE "\":\"" IL_FLOOR_SOURCE_DRIVER "\"");
    else
        PUT(o, ",\"" IL_F_FLOOR_SOURCE "\":\"" IL_FLOOR_SOURCE_PROCESS "\"");
}

/*
 * Append the end of the record to the prefix in il.buf and return the
 * line's length.  The ending is il.end_*; counters are stopped and read.
 * May be called again (the errors grew): it rewrites the same tail.
 */
size_t
il_record_finish(void)
{
    struct out o = {il.buf + il.prefix_len, il.buf + il.bufcap - IL_RECORD_SLACK};
    put_machine(&o);
    PUT(&o, ",\"" IL_F_START "\":\"");
    o.p = il_iso8601(&il.start_real, o.p);
    PUT(&o, "\",\"" IL_F_BACKEND "\":");
    put_safe(&o, il.be->name);
    PUT(&o, ",\"" IL_F_INHERIT "\":");
    put_safe(&o, il_inherit_name(il.inherit));
    if (il.counted_in) {
        PUT(&o, ",\"" IL_F_COUNTED_IN "\":");
        put_i64(&o, il.counted_in);
    }
    put_supersedes(&o);
    if (il.others_state) {
        PUT(&o, ",\"" IL_F_OTHERS "\":");
        put_bool(&o, il.others_state == 2);
    }
    put_setup(&o);
    put_exit(&o);
    put_events(&o);
    put_times(&o);
    put_floor(&o);
    put_errors(&o, 0);
    *o.p++ = '}';
    *o.p++ = '\n';
    written_ok = 1;
    return (size_t)(o.p - il.buf);
}

/*
 * The process ended before main (a constructor called exit, _exit or
 * exec, or died), or reached it without the record's buffer (reached_main
 * 1: the note that it ended before main would be false, and the
 * error says why nothing was measured): no prefix, no counters.  A short
 * record, written entirely now into buf, which holds at least 2 KiB (its
 * fixed pieces take less than one).
 */
size_t
il_record_premain(char *buf, size_t cap, int reached_main)
{
    struct out o = {buf, buf + cap - 1024};
    PUT(&o, "{\"" IL_F_SCHEMA "\":\"" IL_SCHEMA "\",\"" IL_F_VERSION "\":");
    put_str(&o, IL_VERSION);
    PUT(&o, ",\"" IL_F_LABELS "\":{},\"" IL_F_PID "\":");
    put_i64(&o, il_sys_getpid());
    PUT(&o, ",\"" IL_F_PPID "\":");
    put_i64(&o, il_sys_getppid());
    PUT(&o, ",\"" IL_F_ARGV "\":[]");
    put_supersedes(&o);
    put_exit(&o);
    PUT(&o, ",\"" IL_F_BACKEND "\":\"none\",\"" IL_F_EVENTS "\":{}");
    put_errors(&o, !reached_main);
    *o.p++ = '}';
    *o.p++ = '\n';
    return (size_t)(o.p - buf);
}
