/*
 * ctorkill: dies of SIGTERM in a constructor, before main, as a program
 * does that a signal reaches in its first milliseconds: no handler of the
 * library's is installed yet, so it writes no record (libinterloper(7)),
 * and a driver that is its parent must say so (interloper sweep's failed
 * line).  Prints nothing.
 */
#include <signal.h>

__attribute__((constructor)) static void
die_early(void)
{
    raise(SIGTERM);
}

int
main(void)
{
    return 0;
}
