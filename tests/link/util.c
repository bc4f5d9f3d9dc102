#include "ltp.h"

unsigned long ltp_calls;
const char *ltp_name = "ltp";

uint32_t ltp_mix(uint32_t x)
{
	ltp_calls++;
	x ^= x >> 16;
	x *= 0x7feb352dU;
	x ^= x >> 15;
	x *= 0x846ca68bU;
	x ^= x >> 16;
	return x;
}

int ltp_clamp(int v, int lo, int hi)
{
	ltp_calls++;
	return v < lo ? lo : v > hi ? hi : v;
}
