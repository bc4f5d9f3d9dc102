/*
 * endings.h: the four ways a thread ends the process in the tests' races
 * (exitpaths race-endings, racer mixed), by the thread's index k: exit
 * (status 10+k), _exit (40+k), SIGTERM raised in the thread, SIGUSR1 sent
 * to the process.  Returns only from the two signals, whose default ends
 * the process a moment later.
 */
#ifndef TESTS_ENDINGS_H
#define TESTS_ENDINGS_H

#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

static inline void
end_fourway(long k)
{
    switch (k % 4) {
    case 0:
        exit((int)(10 + k));
    case 1:
        _exit((int)(40 + k));
    case 2:
        raise(SIGTERM);
        break;
    default:
        kill(getpid(), SIGUSR1);
    }
}

#endif
