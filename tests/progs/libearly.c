/*
 * libearly.so: a library whose constructor runs before interloper's.
 * What it does there is chosen by EARLY_MODE:
 *   exit      exit(7) before main
 *   _exit     _exit(8) before main
 *   fork      fork a child that exits at once, and wait for it
 *   signal    install a SIGTERM handler (the program must keep it)
 *   ignore    ignore SIGINT (the program must keep that too)
 * It says "early constructor" on stderr, so the tests can see the order.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void
on_term(int s)
{
    (void)s;
    static const char m[] = "early handler ran\n";
    (void)!write(1, m, sizeof m - 1);
}

__attribute__((constructor)) static void
early(void)
{
    const char *m = getenv("EARLY_MODE");
    static const char msg[] = "early constructor\n";
    (void)!write(2, msg, sizeof msg - 1);
    if (!m)
        return;
    if (!strcmp(m, "exit"))
        exit(7);
    if (!strcmp(m, "_exit"))
        _exit(8);
    if (!strcmp(m, "fork")) {
        pid_t p = fork();
        if (p == 0)
            _exit(0);
        waitpid(p, NULL, 0);
    }
    if (!strcmp(m, "signal"))
        signal(SIGTERM, on_term);
    if (!strcmp(m, "ignore"))
        signal(SIGINT, SIG_IGN);
}
