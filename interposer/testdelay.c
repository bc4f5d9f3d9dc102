/*
 * testdelay.c: delays injected into race windows, for the tests only.
 *
 * Linked into build/tests/libinterloper-delay.so alone, whose objects
 * with a delay point are compiled with IL_TEST_DELAYS; in the library
 * itself IL_TEST_DELAY(point) is nothing (il.h).  A rare race becomes a
 * certain one when one side is held in its window:
 *
 *   IL_TEST_DELAY=POINT:MS[,POINT:MS...]
 *
 * sleeps MS milliseconds each time a thread passes POINT.  The points:
 *   exit_entry   the start of an on_exit entry (exit.c): a thread that
 *                glibc's exit() has just handed one of our entries, as if
 *                preempted there
 *   exec         between the exec record and the exec itself (forkexec.c)
 *   record_open  right after the record file is opened (output.c), while
 *                its descriptor is the lowest that was free
 *   install_hup, install_term
 *                right after our handler for SIGHUP (SIGTERM) is
 *                installed, before the install decides to keep it or put
 *                back what was there (signals.c), with signals blocked:
 *                a signal sent meanwhile waits until the delay is over
 *
 * The same variant takes IL_TEST_GLIBC=VERSION as the C library's version
 * (glibc.c), to test the library standing aside on one it does not know,
 * and its exit path as on a newer glibc than the machine's (2.38 and
 * later: _IO_cleanup waits for every stream's lock).
 */
#include <string.h>
#include <time.h>

#include "il.h"
#include "sys.h"

void
il_test_delay(const char *point)
{
    const char *v = il_getenv(il_environ(), "IL_TEST_DELAY");
    size_t n = strlen(point);
    for (const char *p = v; p && *p;) {
        if (!strncmp(p, point, n) && p[n] == ':') {
            long ms = 0;
            for (const char *d = p + n + 1; *d >= '0' && *d <= '9'; d++)
                ms = 10 * ms + (*d - '0');
            struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
            il_sys_ppoll(NULL, 0, &t);
            return;
        }
        p = strchr(p, ',');
        p = p ? p + 1 : NULL;
    }
}
