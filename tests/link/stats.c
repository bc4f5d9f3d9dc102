#include <stdlib.h>
#include <string.h>
#include "ltp.h"

struct ltp_stats ltp_stats_of(struct ltp_vec *a)
{
	struct ltp_stats s = {0, 0, 0, 0};
	if (a->n == 0)
		return s;
	int *c = malloc(a->n * sizeof *c);
	if (!c)
		abort();
	memcpy(c, a->v, a->n * sizeof *c);
	ltp_sort(c, a->n);
	s.min = c[0];
	s.max = c[a->n - 1];
	s.median = c[a->n / 2];
	s.mean_x100 = ltp_vec_sum(a) * 100 / (long)a->n;
	free(c);
	return s;
}
