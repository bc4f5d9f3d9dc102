#include <stdlib.h>
#include "ltp.h"

int ltp_vec_grows;

static void grow(struct ltp_vec *a)
{
	size_t cap = a->cap ? a->cap * 2 : 8;
	int *v = realloc(a->v, cap * sizeof *v);
	if (!v)
		abort();
	a->v = v;
	a->cap = cap;
	ltp_vec_grows++;
}

void ltp_vec_push(struct ltp_vec *a, int x)
{
	if (a->n == a->cap)
		grow(a);
	a->v[a->n++] = x;
}

long ltp_vec_sum(const struct ltp_vec *a)
{
	long s = 0;
	for (size_t i = 0; i < a->n; i++)
		s += a->v[i];
	return s;
}

void ltp_vec_free(struct ltp_vec *a)
{
	free(a->v);
	a->v = NULL;
	a->n = a->cap = 0;
}
