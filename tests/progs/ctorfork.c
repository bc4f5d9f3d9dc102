/*
 * ctorfork: the program's own constructor forks, after the library's
 * constructor and before main, and both processes go on to main.  The
 * parent waits for the child first.  Each prints "main PID" and returns
 * 4 (the child) or 5 (the parent).
 */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static pid_t child = -1;

__attribute__((constructor)) static void
fork_early(void)
{
    child = fork();
    if (child > 0)
        waitpid(child, NULL, 0);
}

int
main(void)
{
    printf("main %s\n", child == 0 ? "child" : "parent");
    return child == 0 ? 4 : 5;
}
