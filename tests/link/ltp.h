/* ltp.h: declarations shared by the link-order test program (ltp).
 * Eleven translation units call each other and share globals, so that
 * every link order gives a different layout of code and data but the
 * same output.  Used by tests/system/link*.sh. */
#ifndef LTP_H
#define LTP_H

#include <stddef.h>
#include <stdint.h>

/* util.c */
extern unsigned long ltp_calls;     /* bss: bumped by every public entry */
extern const char *ltp_name;        /* data */
uint32_t ltp_mix(uint32_t x);
int ltp_clamp(int v, int lo, int hi);

/* rng.c */
extern uint32_t ltp_rng_state;      /* data, initialised */
uint32_t ltp_rng_next(void);
int ltp_rng_range(int n);

/* vec.c */
struct ltp_vec {
	int *v;
	size_t n, cap;
};
extern int ltp_vec_grows;           /* bss */
void ltp_vec_push(struct ltp_vec *a, int x);
long ltp_vec_sum(const struct ltp_vec *a);
void ltp_vec_free(struct ltp_vec *a);

/* sortx.c */
void ltp_sort(int *a, size_t n);
int ltp_is_sorted(const int *a, size_t n);

/* hash.c */
extern const uint32_t ltp_fnv_basis; /* rodata */
uint32_t ltp_hash_str(const char *s);
uint32_t ltp_hash_ints(const int *a, size_t n);

/* strx.c */
void ltp_str_rev(char *s);
size_t ltp_str_count(const char *s, char c);
const char *ltp_str_fmt(const char *word, int n);

/* matrix.c */
#define LTP_N 8
extern long ltp_mat_a[LTP_N][LTP_N], ltp_mat_b[LTP_N][LTP_N];
void ltp_mat_fill(void);
long ltp_mat_mul_trace(void);

/* tree.c */
void ltp_tree_insert(int key);
int ltp_tree_height(void);
long ltp_tree_sum(void);
int ltp_tree_count(void);

/* queue.c */
extern int ltp_queue_high; /* bss: high-water mark */
int ltp_q_push(int x);
int ltp_q_pop(int *x);

/* stats.c */
struct ltp_stats {
	long min, max, median;
	long mean_x100;
};
struct ltp_stats ltp_stats_of(struct ltp_vec *a);

/* life.c */
int ltp_life_run(int gens);

#endif
