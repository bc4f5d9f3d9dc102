/*
 * align.c: a kernel whose speed depends on where the stack is, built on
 * purpose so that two builds of it trade places from one setup to the
 * next (interloper-compare(1), README "Comparing two programs").
 *
 * The loop stores 8 bytes into a stack buffer and loads them back, at
 * OFFSET bytes into it (12 by default).  The buffer is 16-byte aligned and
 * moves with the environment's size in 16-byte steps (Mytkowicz et al.,
 * ASPLOS'09, section 4.2), so the access straddles a 32-byte boundary in
 * every other setup, and there the store cannot be forwarded to the load:
 * on the development VM (AMD EPYC) those setups run about twice as long.
 * Built again with -DOFFSET=28, the same code straddles in the other half
 * of the setups.  In any one environment one build looks twice as fast as
 * the other, which one depending on the environment's size mod 32; over
 * setups neither is.
 */
#include <stdint.h>

#ifndef OFFSET
#define OFFSET 12
#endif

__attribute__((noinline)) static uint64_t
work(void)
{
    _Alignas(16) volatile unsigned char buf[64];
    volatile uint64_t *p = (volatile uint64_t *)(buf + OFFSET);
    uint64_t x = 1;
    for (long g = 0; g < 20000000; g++) {
        *p = x;
        x = *p + 1;
    }
    return x;
}

int
main(void)
{
    return work() == 0;
}
