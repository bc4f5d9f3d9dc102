/*
 * glibc.c: what the exit path needs of the C library beyond system calls,
 * kept out of the finish path's signal-safe set (IL_SAFE, interposer.mk)
 * on purpose: stdio's list of streams, and glibc's exit.  Everything here runs
 * only in a thread inside exit() or before main, never in a signal handler
 * or _exit; safe.allow names each function the set calls here, and why.
 *
 * It leans on glibc's internals (the list _IO_list_all, the FILE's write
 * pointers, the start of the wide-character buffer, the order and the
 * locking of exit()'s handlers and _IO_cleanup: exit.c), read in glibc
 * 2.34 to 2.42.  On any other the library stands aside (il_glibc_check).
 */
#include <gnu/libc-version.h>
#include <stdio.h>
#include <wchar.h>

#include "il.h"

/* The glibc versions whose internals the library was checked against:
 * 2.34 (dlsym in libc) to 2.42.  A new release is added here once its
 * libio/genops.c, stdlib/exit.c and cxa_atexit.c are read again. */
#define IL_GLIBC_MIN 34
#define IL_GLIBC_MAX 42
/* The first whose _IO_cleanup, at the very end of exit(), locks every
 * stream, waiting for it, read-only ones included: bminor/glibc af130d27
 * "Always do locking when accessing streams" (bug 15142), committed
 * 2023-07-03, first released in 2.38.  Before it, _IO_cleanup flushed
 * without locks and tried each lock twice before unbuffering
 * (_IO_flush_all_lockp (0), MAXTRIES in libio/genops.c). */
#define IL_GLIBC_CLEANUP_LOCKS 38

/*
 * In the constructor: is this a glibc the library supports?  1 if so;
 * otherwise 0, after one line on stderr, and the library stands aside
 * (no hook does anything, no record is written) rather than misbehave.
 */
int
il_glibc_check(void)
{
    const char *v = gnu_get_libc_version(); /* bound by bind.c */
#ifdef IL_TEST_DELAYS
    /* the tests' variant: IL_TEST_GLIBC=2.99 stands for a glibc */
    if (il_getenv(il_environ(), "IL_TEST_GLIBC"))
        v = il_getenv(il_environ(), "IL_TEST_GLIBC");
#endif
    int major = 0, minor = 0;
    const char *p = v ? v : "";
    for (; *p >= '0' && *p <= '9'; p++)
        major = 10 * major + (*p - '0');
    if (*p == '.')
        for (p++; *p >= '0' && *p <= '9'; p++)
            minor = 10 * minor + (*p - '0');
    if (major == 2 && minor >= IL_GLIBC_MIN && minor <= IL_GLIBC_MAX) {
        il.glibc_minor = minor;
        return 1;
    }
    /* standing aside leaves no record: why is said under
     * INTERLOPER_QUIET too, as every reason a record is missing
     * (review11c, review11d) */
    il_say("glibc ", v ? v : "(unknown)",
           " is not one the library supports (2.34 to 2.42: it leans on their exit and stdio "
           "internals); it stands aside: nothing is measured, no record is written");
    return 0;
}

/*
 * glibc's exit and __libc_start_main are the next definitions after ours,
 * found with everything else the library calls (bind.c), before main, so
 * that nothing is looked up while counting.  The exit hook calls this
 * too, for an exit() before our constructor (another library's).
 */
void
il_resolve_reals(void)
{
    il_bind();
}

/*
 * The program's stdio output, flushed as glibc's _IO_cleanup would flush
 * it at the end of exit(), but earlier: called by the exit entries
 * (exit.c) with stdio's list lock held, before the library claims the
 * ending, so that a write that blocks (a pipe nobody reads) blocks, and
 * a write into a pipe whose reader left raises SIGPIPE, while signals and
 * other threads' endings work as they would without us.  Wide-oriented
 * streams (wprintf) too: left to _IO_cleanup, their SIGPIPE came after a
 * record that said "return" (issue 17).  A stream that another thread
 * holds locked is left to _IO_cleanup, which runs after the record, with
 * every stream after it: the record then says it cannot be certain of the
 * ending (exit.c).
 */
/* The head of glibc's struct _IO_wide_data (libio/libio.h), the same
 * since glibc 2.2: a wide-oriented stream's buffer of wide characters. */
struct il_wide_head {
    wchar_t *read_ptr, *read_end, *read_base, *write_base, *write_ptr;
};

/* Has fp output in its buffer?  The test _IO_flush_all_lockp makes. */
static int
pending(FILE *fp)
{
    if (fp->_mode > 0) {
        const struct il_wide_head *w = (const struct il_wide_head *)(void *)fp->_wide_data;
        return w && w->write_ptr > w->write_base;
    }
    return fp->_IO_write_ptr > fp->_IO_write_base;
}

/* glibc's flags of a stream (libio/libio.h, the same since glibc 2.0):
 * opened for reading only (nothing to flush in it), and unbuffered
 * (_IO_cleanup leaves it alone but for output pending in it). */
#define IL_IO_NO_WRITES 0x0008
#define IL_IO_UNBUFFERED 0x0002
/* glibc's mark of a fopencookie stream, fmemopen's included: _fileno -2
 * (libio/iofopncook.c, 2.34 to 2.42).  The only streams through which
 * _IO_cleanup runs the program's code: their write function, for output
 * pending (_IO_flush_all), and their seek function, for input read ahead
 * (_IO_unbuffer_all: _IO_SETBUF, then _IO_file_sync seeks back). */
#define IL_IO_COOKIE (-2)

/* A buffered fopencookie stream: _IO_cleanup may call its functions. */
static int
cookie_buffered(const FILE *fp)
{
    return fp->_fileno == IL_IO_COOKIE && !(fp->_flags & IL_IO_UNBUFFERED);
}

/* Input read ahead into a buffered fopencookie stream that was used
 * (_mode set): _IO_unbuffer_all's setbuf would seek back through the
 * program's seek function, as fflush does (both are _IO_file_sync). */
static int
cookie_read_ahead(const FILE *fp)
{
    return cookie_buffered(fp) && fp->_mode != 0 && fp->_IO_read_ptr != fp->_IO_read_end;
}

/* No fopencookie stream is open: 1 only once il_exit_flush walked every
 * stream and found none (the list lock, held by the ender from before
 * that walk to the end, keeps any from being opened). */
static int no_cookies;

void
il_exit_flush(void)
{
    FILE *fp;
    int fds = 0; /* every stream's descriptor or'ed: negative if any is -2 */
    for (fp = il_io_list_all(); fp; fp = fp->_chain) {
        fds |= fp->_fileno;
        if (pending(fp)) {
            /* A stream another thread holds, and every stream after it,
             * are left to _IO_cleanup, which flushes in this same order:
             * if that stream's write blocks for good or ends the process
             * (a fopencookie function waiting for another thread's _exit),
             * the streams after it are never written, with us as without
             * (they were, before session 9: exitpaths cookie-end). */
            if (ftrylockfile(fp) != 0)
                return;
            fflush_unlocked(fp);
            funlockfile(fp);
        }
    }
    if (fds >= 0) {
        no_cookies = 1; /* the common case, at no cost */
        return;
    }
    /* Then what _IO_cleanup's _IO_unbuffer_all does next, in the same
     * order, where it runs the program's code: a fopencookie stream's
     * input read ahead is given back through its seek function (fflush
     * syncs as setbuf does, and _IO_cleanup then finds nothing to give
     * back).  Here, before the claim, that function may wait for another
     * thread's _exit or signal, which ends the process as without us
     * (review of session 9: in _IO_cleanup, past a certain record, it
     * hung every run of exitpaths cookie-seek).  A stream another thread
     * holds is left to _IO_cleanup, with the rest (il_exit_open).
     * A seek that fails (returns -1: ESPIPE, the usual answer of a
     * source that cannot seek, or any other error) leaves the input in
     * the buffer, and _IO_cleanup would then call it a second time,
     * where glibc alone calls it once (review of session 10: a seek that
     * prints changed stdout).  Such a narrow stream is marked unused
     * (_mode 0), as before its first read: _IO_unbuffer_all passes an
     * unused stream by, and then marks it used (_mode -1) as it marks
     * every stream, so it ends as glibc alone leaves it after that one
     * failed seek (glibc 2.36 libio/genops.c _IO_unbuffer_all,
     * libio/fileops.c _IO_new_file_sync: the input stays in the buffer),
     * but for the buffer's entry in the list __libc_freeres frees. */
    for (fp = il_io_list_all(); fp; fp = fp->_chain)
        if (cookie_read_ahead(fp)) {
            if (ftrylockfile(fp) != 0)
                return;
            if (cookie_read_ahead(fp)) {
                fflush_unlocked(fp);
                if (fp->_mode < 0 && cookie_read_ahead(fp))
                    fp->_mode = 0; /* the seek failed: glibc's one call is made */
            }
            funlockfile(fp);
        }
}

/*
 * Is output left for glibc's final _IO_cleanup?  Called by exit's ender
 * with stdio's list lock held, before its record.  1 when a writable
 * stream has output pending (il_exit_flush left it), or another thread
 * holds a writable stream and may yet write into it: _IO_cleanup may
 * then write, block, raise SIGPIPE or call a fopencookie function that
 * waits for another thread (exit.c: exit_open, the record not certain).
 * A buffered fopencookie stream counts whatever its state: any thread
 * may still write into it, or read ahead, past the record (opening or
 * closing a stream waits for the list lock, but writing does not), and
 * _IO_cleanup would then call its functions, which may wait for another
 * thread's ending (review of session 9: 2 of 150 adversarial runs hung,
 * deaf to SIGTERM; exitpaths record-race after).  That is known here,
 * where the program's writes are not: so the record is not certain
 * whenever one is open at exit (fmemopen's are such streams too).
 * On a glibc whose _IO_cleanup waits for every stream's lock
 * (il.glibc_minor), a read-only stream another thread holds counts
 * too: a thread blocked in fgets(stdin) holds stdin's lock, and
 * _IO_cleanup waits for it as long as the read lasts, where the ender
 * must not keep signals blocked (without us the process hangs there
 * too, but a signal still ends it).
 * No stream is held past this check.  (Session 9 held every writable
 * stream to the end instead, so that _IO_cleanup would run none of the
 * program's code; its review found that an exit handler registered
 * before our constructor, which runs after our entries, then hung on
 * those locks whenever it waited for a thread that writes: a hang in
 * every run, where the one it closed was a rare race.  Where that race
 * runs the program's code, a fopencookie stream, the record is not
 * certain now (above); libinterloper(7) lists what remains: output
 * another thread writes after the record into any other stream.)
 */
int
il_exit_open(void)
{
    FILE *fp;
    if (!no_cookies)
        for (fp = il_io_list_all(); fp; fp = fp->_chain)
            if (cookie_buffered(fp))
                return 1; /* another thread may write or read into it past the record */
    for (fp = il_io_list_all(); fp; fp = fp->_chain) {
        if ((fp->_flags & IL_IO_NO_WRITES) && il.glibc_minor < IL_GLIBC_CLEANUP_LOCKS)
            continue;
        if (ftrylockfile(fp) != 0)
            return 1; /* another thread's: it may yet write, or _IO_cleanup waits for it */
        int p = pending(fp);
        funlockfile(fp);
        if (p)
            return 1;
    }
    return 0;
}
