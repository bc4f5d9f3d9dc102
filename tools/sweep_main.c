/*
 * sweep_main.c: interloper sweep: its options (sweep_cli.c), its run loop
 * (sweep.c), and for two systems or more the summary (verdict.c).
 * interloper compare (compare.c) runs the same three.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>

#include "sweep.h"

int
main(int argc, char **argv)
{
    program_invocation_short_name = (char *)IL_SWEEP_ME; /* err(3) prefix */
    static struct il_sweep s;
    struct il_ending e;
    memset(&e, 0, sizeof e);
    il_sweep_parse(&s, argc, argv);
    int rc = il_sweep_execute(&s, &e);
    /* two systems or more (of the whole plan, not a shard of it): what
     * they compare to, as hyperfine ends, on standard output as compare's
     * (outside14 F4: `sweep ... >summary.txt` left it empty); a reader
     * gone (| head) ends it as SIGPIPE would have */
    if (!s.c.quiet && !s.c.dry && !s.slurm && s.nsys >= 2 && !s.shard_n) {
        json_decref(il_sweep_summary(&s, &e, stdout));
        if ((fflush(stdout) != 0 || ferror(stdout)) && errno == EPIPE)
            rc = 128 + SIGPIPE;
    }
    json_decref(e.machine);
    return rc;
}
