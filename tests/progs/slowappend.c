/*
 * slowappend: a writer of a shared record file that pauses in the middle
 * of its line, as a writer preempted half-way through a large append looks
 * to another (the file system shows an append page by page), for
 * tests/system/interposer_output.sh.
 *
 *   slowappend FILE GO
 *       opens FILE for appending, takes the lock the library's writers take
 *       (an open file description lock on the whole file), appends the first
 *       half of a JSON line, prints "ready", waits until the file GO exists
 *       (at most 60 s), appends the rest with its newline, and exits.
 */
#include <err.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
    static const char line[] =
        "{\"writer\":\"slowappend\",\"half\":\"first\",\"then\":\"second\"}\n";
    size_t half = strlen(line) / 2;
    if (argc != 3)
        errx(2, "usage: slowappend FILE GO");
    int fd = open(argv[1], O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0)
        err(2, "%s", argv[1]);
    struct flock fl;
    memset(&fl, 0, sizeof fl);
    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET;
    if (fcntl(fd, F_OFD_SETLKW, &fl) < 0)
        err(2, "lock %s", argv[1]);
    if (write(fd, line, half) != (ssize_t)half)
        err(2, "write");
    printf("ready\n");
    fflush(stdout);
    struct timespec tick = {0, 1000000L};
    for (int i = 0; i < 60000 && access(argv[2], F_OK) != 0; i++)
        nanosleep(&tick, NULL);
    if (write(fd, line + half, sizeof line - 1 - half) != (ssize_t)(sizeof line - 1 - half))
        err(2, "write");
    return 0;
}
