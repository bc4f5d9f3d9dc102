/*
 * reopen12: a program whose own files take descriptors 1 and 2
 * (tests/system/interposer_output.sh: nothing of the library's may land
 * in them; outside13 F2).
 *
 *   reopen12 close   closes fds 1 and 2, opens d1.txt and d2.txt (which
 *                    get 1 and 2) and writes a line to each
 *   reopen12 fopen   fopen()s out.txt (descriptor 2 when the program was
 *                    started with it closed) and writes a line to it,
 *                    leaving exit to flush and close it
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "close")) {
        close(1);
        close(2);
        int a = open("d1.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int b = open("d2.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dprintf(a, "data1 fd %d\n", a);
        dprintf(b, "data2 fd %d\n", b);
        return 0;
    }
    FILE *f = fopen("out.txt", "w");
    if (!f)
        return 2;
    fprintf(f, "result 42 fd %d\n", fileno(f));
    return 0;
}
