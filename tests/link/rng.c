#include "ltp.h"

uint32_t ltp_rng_state = 12345;

uint32_t ltp_rng_next(void)
{
	ltp_rng_state = ltp_rng_state * 1103515245U + 12345U;
	return ltp_mix(ltp_rng_state);
}

/* Uniform in [0, n) for small n; bias is irrelevant here. */
int ltp_rng_range(int n)
{
	return (int)(ltp_rng_next() % (uint32_t)n);
}
