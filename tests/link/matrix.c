#include "ltp.h"

long ltp_mat_a[LTP_N][LTP_N], ltp_mat_b[LTP_N][LTP_N];
static long prod[LTP_N][LTP_N];

void ltp_mat_fill(void)
{
	for (int i = 0; i < LTP_N; i++)
		for (int j = 0; j < LTP_N; j++) {
			ltp_mat_a[i][j] = ltp_rng_range(19) - 9;
			ltp_mat_b[i][j] = ltp_rng_range(19) - 9;
		}
}

long ltp_mat_mul_trace(void)
{
	long t = 0;
	for (int i = 0; i < LTP_N; i++)
		for (int j = 0; j < LTP_N; j++) {
			long s = 0;
			for (int k = 0; k < LTP_N; k++)
				s += ltp_mat_a[i][k] * ltp_mat_b[k][j];
			prod[i][j] = s;
		}
	for (int i = 0; i < LTP_N; i++)
		t += prod[i][i];
	return t;
}
