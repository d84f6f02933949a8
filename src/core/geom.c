/* geom.c -- board geometry: cells of a hexhex board in axial coordinates,
 * their names, distances and neighbours, built once per size.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/core-int.h"

/* The six neighbours of (x, y): (+-1, 0), (0, +-1), (+1, +1), (-1, -1). */
const int core_dir_dx[CORE_DIRECTIONS] = { 1, 0, 1, -1, 0, -1 };
const int core_dir_dy[CORE_DIRECTIONS] = { 0, 1, 1, 0, -1, -1 };

static struct core_geom geoms[CORE_MAX_SIZE + 1];
static struct core_bb bbs[CORE_BB_MAX_SIZE + 1];
static pthread_once_t geoms_once = PTHREAD_ONCE_INIT;

static int iabs(int v)
{
	return v < 0 ? -v : v;
}

static bool on_board(int radius, int x, int y)
{
	return x >= -radius && x <= radius && y >= -radius && y <= radius &&
	       iabs(x - y) <= radius;
}

static void geom_build(struct core_geom *g, int size)
{
	int r = size - 1, n = 0;

	memset(g, 0, sizeof(*g));
	g->size = size;
	g->radius = r;
	memset(g->cell_at, 0xff, sizeof(g->cell_at));
	/* Column by column, so cell order is name order (a1 a2 .. b1 ..). */
	for (int x = -r; x <= r; x++) {
		for (int y = -r; y <= r; y++) {
			if (!on_board(r, x, y))
				continue;
			g->x[n] = (int8_t)x;
			g->y[n] = (int8_t)y;
			g->dist[n] = (int8_t)(iabs(x) > iabs(y) ?
				(iabs(x) > iabs(x - y) ? iabs(x) : iabs(x - y)) :
				(iabs(y) > iabs(x - y) ? iabs(y) : iabs(x - y)));
			g->cell_at[x + r][y + r] = (int16_t)n;
			char *nm = g->name[n];
			int row = y + r + 1;
			*nm++ = (char)('a' + x + r);
			if (row >= 10)
				*nm++ = (char)('0' + row / 10);
			*nm++ = (char)('0' + row % 10);
			*nm = '\0';
			n++;
		}
	}
	g->ncells = n;
	for (int c = 0; c < n; c++) {
		for (int d = 0; d < CORE_DIRECTIONS; d++) {
			int x = g->x[c] + core_dir_dx[d];
			int y = g->y[c] + core_dir_dy[d];
			g->neighbour[c][d] = on_board(r, x, y) ?
				g->cell_at[x + r][y + r] : -1;
		}
	}
	int at = 0;
	for (int c = 0; c < n; c++) {
		for (int d = 0; d < CORE_DIRECTIONS; d++) {
			g->ray_start[c][d] = (uint16_t)at;
			for (int t = g->neighbour[c][d]; t >= 0;
			     t = g->neighbour[t][d])
				g->ray_cells[at++] = (int16_t)t;
			g->ray_cells[at++] = -1;
		}
	}
	if (at > CORE_RAY_CELLS_MAX)
		abort(); /* CORE_RAY_CELLS_MAX is wrong: a broken invariant */
}

static void bb_build(struct core_bb *b, const struct core_geom *g)
{
	memset(b, 0, sizeof(*b));
	for (int c = 0; c < g->ncells; c++) {
		for (int d = 0; d < CORE_DIRECTIONS; d++) {
			const int16_t *ray = g->ray_cells + g->ray_start[c][d];
			for (int t; (t = *ray++) >= 0;)
				b->ray[c][d] |= core_bb_bit(t);
		}
		for (int m = 0; m <= g->dist[c]; m++)
			b->far[m] |= core_bb_bit(c);
	}
}

static void geoms_build_all(void)
{
	for (int size = CORE_MIN_SIZE; size <= CORE_MAX_SIZE; size++)
		geom_build(&geoms[size], size);
	for (int size = CORE_MIN_SIZE; size <= CORE_BB_MAX_SIZE; size++)
		bb_build(&bbs[size], &geoms[size]);
	for (int size = CORE_MIN_SIZE; size <= CORE_MAX_SIZE; size++) {
		core_pick_build(&geoms[size]);
		core_lines_build(&geoms[size]);
	}
}

const struct core_geom *core_geom_get(int size)
{
	if (size < CORE_MIN_SIZE || size > CORE_MAX_SIZE)
		return NULL;
	/* All sizes at once: a few kilobytes each, and one pthread_once
	 * makes first use from several threads safe. */
	pthread_once(&geoms_once, geoms_build_all);
	return &geoms[size];
}

const struct core_bb *core_bb_get(const struct core_geom *g)
{
	/* g came from core_geom_get(), which built the tables with it. */
	return g->size <= CORE_BB_MAX_SIZE ? &bbs[g->size] : NULL;
}

int core_geom_direction(const struct core_geom *g, int a, int b)
{
	int dx = g->x[b] - g->x[a], dy = g->y[b] - g->y[a];

	if (dx == 0 && dy == 0)
		return -1;
	if (dy == 0)
		return dx > 0 ? 0 : 3;
	if (dx == 0)
		return dy > 0 ? 1 : 4;
	if (dx == dy)
		return dx > 0 ? 2 : 5;
	return -1;
}

int core_cell_parse(const struct core_geom *g, const char *name, size_t len)
{
	int r = g->radius, row = 0;
	char col;

	if (len < 2 || len > 3)
		return -1;
	col = name[0];
	if (col >= 'A' && col <= 'Z')
		col = (char)(col - 'A' + 'a');
	if (col < 'a' || col > 'z')
		return -1;
	/* No leading zero: every cell has exactly one name. */
	if (name[1] < '1' || name[1] > '9')
		return -1;
	for (size_t i = 1; i < len; i++) {
		if (name[i] < '0' || name[i] > '9')
			return -1;
		row = row * 10 + (name[i] - '0');
	}
	int x = col - 'a' - r, y = row - 1 - r;
	if (!on_board(r, x, y))
		return -1;
	return g->cell_at[x + r][y + r];
}
