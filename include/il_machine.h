/*
 * il_machine.h: the machine snapshots a sweep writes (its "machine" lines,
 * schema interloper-sweep/1: at the start, every --snapshot-every during
 * the sweep, at the end), compared by interloper record merge and
 * interloper report (machfacts.c, one copy for both).
 *
 * Two machines whose facts differ (CPU model, kernel, frequency governor,
 * boost, SMT, memory, interloper's version) do not measure the same
 * thing: their runs pooled as one population mix two effects with the
 * setups'.  A machine that changes during a sweep (its governor, boost or
 * SMT; its load by more than IL_MACHINE_LOAD_STEP) disturbs the runs
 * around the change.  Nothing here changes the machine.
 */
#ifndef IL_MACHINE_H
#define IL_MACHINE_H

#include <jansson.h>
#include <stddef.h>

/* a change of the 1-minute load average by this much during one sweep is
 * said: the sweep itself adds about 1 (its runs, one at a time) */
#define IL_MACHINE_LOAD_STEP 1.5

/* The facts of snapshots a and b (the "machine" objects) that differ,
 * as "cpu 'A' and 'B'; kernel ..." in why; their number.  A fact absent
 * or null in either is not compared. */
int il_machine_differ(json_t *a, json_t *b, char *why, size_t n);

/* Snapshots in the order they are read, by host and by sweep (a sweep
 * process: the line's "sweep", else its plan and host). */
struct il_machines {
    struct il_mhost {
        char *host, *where; /* where its first snapshot was read */
        json_t *first;
    } * hosts;
    size_t nhosts;
    struct il_msweep {
        char *key, *where;
        json_t *first;
        double load_lo, load_hi;
        int said;
    } * sweeps;
    size_t nsweeps;
    size_t differ_hosts; /* hosts whose facts differ from the first host's */
    char differ[1024];   /* the first two that differ, and how */
    size_t changed;      /* sweeps during which the machine changed */
    char change[1024];   /* the first such change */
};
/* A line of the sweep's (any kind; only "machine" lines count), read at
 * where ("FILE:LINE"; NULL: the snapshot's time says it). */
void il_machines_add(struct il_machines *m, json_t *line, const char *where);
void il_machines_free(struct il_machines *m);

#endif
