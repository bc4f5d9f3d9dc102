/* ltp: the link-order test program.  Its output depends only on its
 * input, never on where the linker put its code and data, so every
 * relinked binary must print exactly the same lines. */
#include <stdio.h>
#include <stdlib.h>
#include "ltp.h"

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2000;
	struct ltp_vec v = {0};

	for (int i = 0; i < n; i++) {
		int x = ltp_rng_range(100000);
		ltp_vec_push(&v, x);
		ltp_tree_insert(x);
	}
	struct ltp_stats s = ltp_stats_of(&v);
	printf("%s: n=%d min=%ld max=%ld median=%ld mean=%ld.%02ld\n", ltp_name, n, s.min,
	       s.max, s.median, s.mean_x100 / 100, s.mean_x100 % 100);
	printf("tree: nodes=%d height=%d sum=%ld\n", ltp_tree_count(), ltp_tree_height(),
	       ltp_tree_sum());

	ltp_sort(v.v, v.n);
	printf("sort: sorted=%d hash=%08x grows=%d\n", ltp_is_sorted(v.v, v.n),
	       (unsigned)ltp_hash_ints(v.v, v.n), ltp_vec_grows);

	ltp_mat_fill();
	printf("matrix: trace=%ld\n", ltp_mat_mul_trace());

	int popped = 0, x;
	for (int i = 0; i < 200; i++) {
		ltp_q_push(i);
		if (i % 3 == 0 && ltp_q_pop(&x) == 0)
			popped += x;
	}
	printf("queue: high=%d popped=%d\n", ltp_queue_high, popped);

	char word[] = "interloper";
	ltp_str_rev(word);
	printf("str: %s %zu %s hash=%08x\n", word, ltp_str_count(word, 'e'),
	       ltp_str_fmt(word, n), (unsigned)ltp_hash_str(word));

	printf("life: alive=%d\n", ltp_life_run(30));
	printf("calls: %lu\n", ltp_calls);
	ltp_vec_free(&v);
	return 0;
}
