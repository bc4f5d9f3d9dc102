#include "ltp.h"

const uint32_t ltp_fnv_basis = 2166136261U;
static const uint32_t fnv_prime = 16777619U;

uint32_t ltp_hash_str(const char *s)
{
	uint32_t h = ltp_fnv_basis;
	while (*s) {
		h ^= (unsigned char)*s++;
		h *= fnv_prime;
	}
	return h;
}

uint32_t ltp_hash_ints(const int *a, size_t n)
{
	uint32_t h = ltp_fnv_basis;
	for (size_t i = 0; i < n; i++)
		h = ltp_mix(h ^ (uint32_t)a[i]) * fnv_prime;
	return h;
}
