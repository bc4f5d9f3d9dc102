#include <string.h>
#include "ltp.h"

/* Conway's life on a small torus: branchy code of its own. */
#define W 24
static unsigned char grid[W][W], next[W][W];

static int neighbours(int r, int c)
{
	int k = 0;
	for (int dr = -1; dr <= 1; dr++)
		for (int dc = -1; dc <= 1; dc++)
			if (dr || dc)
				k += grid[(r + dr + W) % W][(c + dc + W) % W];
	return k;
}

static void step(void)
{
	for (int r = 0; r < W; r++)
		for (int c = 0; c < W; c++) {
			int k = neighbours(r, c);
			next[r][c] = k == 3 || (k == 2 && grid[r][c]);
		}
	memcpy(grid, next, sizeof grid);
}

int ltp_life_run(int gens)
{
	for (int r = 0; r < W; r++)
		for (int c = 0; c < W; c++)
			grid[r][c] = ltp_rng_range(3) == 0;
	while (gens-- > 0)
		step();
	int alive = 0;
	for (int r = 0; r < W; r++)
		for (int c = 0; c < W; c++)
			alive += grid[r][c];
	return alive;
}
