#include "ltp.h"

/* A binary search tree in a static pool: no allocation, globals only. */
#define POOL 4096
static struct node {
	int key, left, right;
} pool[POOL];
static int used, root = -1;

static int node_new(int key)
{
	if (used == POOL)
		return -1;
	pool[used].key = key;
	pool[used].left = pool[used].right = -1;
	return used++;
}

void ltp_tree_insert(int key)
{
	int *link = &root;
	while (*link >= 0) {
		struct node *n = &pool[*link];
		if (key == n->key)
			return;
		link = key < n->key ? &n->left : &n->right;
	}
	*link = node_new(key);
}

static int height(int i)
{
	if (i < 0)
		return 0;
	int l = height(pool[i].left), r = height(pool[i].right);
	return 1 + (l > r ? l : r);
}

static long sum(int i)
{
	return i < 0 ? 0 : pool[i].key + sum(pool[i].left) + sum(pool[i].right);
}

int ltp_tree_height(void)
{
	return height(root);
}

long ltp_tree_sum(void)
{
	return sum(root);
}

int ltp_tree_count(void)
{
	return used;
}
