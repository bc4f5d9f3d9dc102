#include "ltp.h"

static void insertion(int *a, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		int x = a[i];
		size_t j = i;
		while (j > 0 && a[j - 1] > x) {
			a[j] = a[j - 1];
			j--;
		}
		a[j] = x;
	}
}

static size_t partition(int *a, size_t n)
{
	int pivot = a[n / 2];
	size_t i = 0, j = n - 1;
	for (;;) {
		while (a[i] < pivot)
			i++;
		while (a[j] > pivot)
			j--;
		if (i >= j)
			return j;
		int t = a[i];
		a[i++] = a[j];
		a[j--] = t;
	}
}

void ltp_sort(int *a, size_t n)
{
	ltp_calls++;
	while (n > 16) {
		size_t p = partition(a, n) + 1;
		ltp_sort(a, p);
		a += p;
		n -= p;
	}
	insertion(a, n);
}

int ltp_is_sorted(const int *a, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (a[i - 1] > a[i])
			return 0;
	return 1;
}
