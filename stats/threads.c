/*
 * threads.c: whether two threads can run at once, and a function run on
 * two (read.c, group.c, twice.c).  A leaf: it calls no other file of
 * stats/.
 */
#include <pthread.h>
#include <sched.h>

#include "il_stats.h"

int
il_two_cpus(void)
{
    cpu_set_t set;
    return sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) >= 2;
}

void
il_both(void *(*fn)(void *), void *a, void *b, int two)
{
    pthread_t t;
    int thr = two && pthread_create(&t, NULL, fn, b) == 0;
    fn(a);
    if (thr)
        pthread_join(t, NULL);
    else if (two)
        fn(b);
}
