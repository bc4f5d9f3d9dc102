/*
 * kernel.c: the micro-kernel of Mytkowicz et al., "Producing Wrong Data
 * Without Doing Anything Obviously Wrong!" (ASPLOS 2009), Fig. 1(a):
 * static globals incremented through a stack variable.  Its time moves
 * with the size of the UNIX environment, which moves the stack (Fig. 1(b)).
 *
 * As written, with the loop scaled from 65536 to 65536 * 64 iterations so
 * that one run takes a few milliseconds.  The paper built it without
 * optimisation ("this is why the compiler does not eliminate the loop"):
 * at -O2 and -O3 gcc folds the loop into three additions of 65536 * 64.
 * Built with -DKEEP=volatile, i, j, k and inc live in memory and every
 * iteration loads and stores them, as at -O0, while the loop counter
 * stays in a register: the variant whose loop survives optimisation
 * (make demo builds -O0 as written, -O2 and -O3 with KEEP=volatile).
 */
#ifndef KEEP
#define KEEP
#endif

static KEEP int i = 0, j = 0, k = 0;

int
main(void)
{
    int g = 0;
    KEEP int inc = 1;
    for (; g < 65536 * 64; g++) {
        i += inc;
        j += inc;
        k += inc;
    }
    return 0;
}
