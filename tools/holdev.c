/*
 * holdev.c: hold the kernel's software-event switches on (interloper-hold(1)
 * says why): one disabled counter of each software kind, never enabled,
 * not inherited, closed on exec and when this process ends, however it
 * ends.  interloper hold and interloper sweep both hold this way, so that
 * no helper process is left holding after a sweep is killed.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "il_tools.h"

int
il_hold_events(void)
{
    static const unsigned long kinds[] = {
        PERF_COUNT_SW_PAGE_FAULTS,      PERF_COUNT_SW_PAGE_FAULTS_MIN,
        PERF_COUNT_SW_PAGE_FAULTS_MAJ,  PERF_COUNT_SW_CONTEXT_SWITCHES,
        PERF_COUNT_SW_CPU_MIGRATIONS,   PERF_COUNT_SW_ALIGNMENT_FAULTS,
        PERF_COUNT_SW_EMULATION_FAULTS,
    };
    int held = 0, e = 0;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        struct perf_event_attr a;
        memset(&a, 0, sizeof a);
        a.size = sizeof a;
        a.type = PERF_TYPE_SOFTWARE;
        a.config = kinds[i];
        a.disabled = 1;
        a.exclude_kernel = 1;
        if (syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC) >= 0)
            held++;
        else
            e = errno;
    }
    if (!held)
        errno = e;
    return held;
}
