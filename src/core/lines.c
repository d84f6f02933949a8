/* lines.c -- the growth-count tables by line: struct core_lines for
 * boards of up to 64 cells, struct core_runs for N = 6 and 7 (see
 * core-int.h), built once with the geometry.
 */
#include <stdlib.h>
#include <string.h>

#include "core/core-int.h"

static struct core_lines lines[CORE_LINES_MAX_SIZE + 1];
static struct core_runs runs[CORE_BB_MAX_SIZE + 1];

const struct core_lines *core_lines_get(const struct core_geom *g)
{
	/* g came from core_geom_get(), which built the tables with it. */
	return g->size <= CORE_LINES_MAX_SIZE ? &lines[g->size] : NULL;
}

const struct core_runs *core_runs_get(const struct core_geom *g)
{
	return g->size > CORE_LINES_MAX_SIZE && g->size <= CORE_BB_MAX_SIZE ?
		&runs[g->size] : NULL;
}

static void runs_build(struct core_runs *t, const struct core_geom *g)
{
	const int w = CORE_BB_MAX_SIZE + 1;
	unsigned base = 0;

	memset(t, 0, sizeof(*t));
	for (int o = 0; o < 3; o++) {
		for (int c = 0; c < g->ncells; c++) {
			int len = 0;
			if (g->neighbour[c][o + 3] >= 0)
				continue;
			if (t->nlines >= CORE_RUNS_MAX_LINES)
				abort(); /* CORE_RUNS_MAX_LINES is wrong */
			for (int x = c; x >= 0; x = g->neighbour[x][o]) {
				t->lid[x][o] = (uint8_t)t->nlines;
				t->cell[t->nlines][len] = (uint8_t)x;
				t->cellx[t->nlines][len + 1] = (uint8_t)x;
				t->need[t->nlines][len] =
					(uint8_t)(g->dist[x] + 1);
				for (int d = g->dist[x]; d < g->radius; d++)
					t->inner[t->nlines][d] |=
						(uint16_t)(1u << len);
				t->lpos[x][o] = (uint8_t)len++;
			}
			if (base + (unsigned)(len + 1) * w > CORE_RUNS_FAR_MAX)
				abort(); /* CORE_RUNS_FAR_MAX is wrong */
			t->len[t->nlines] = (uint8_t)len;
			t->cellx[t->nlines][0] = (uint8_t)c;
			t->cellx[t->nlines][len + 1] = (uint8_t)c;
			t->base[t->nlines] = (uint16_t)base;
			for (int m = 0; m < w; m++) {
				int n = 0, p = 0;
				t->far[base + m] = 0;
				for (int x = c; x >= 0; x = g->neighbour[x][o]) {
					n += g->dist[x] >= m;
					t->far[base + ++p * w + m] = (uint8_t)n;
				}
			}
			base += (unsigned)(len + 1) * w;
			t->nlines++;
		}
		if (o == 0)
			t->orient0 = (uint8_t)t->nlines;
		if (o == 1)
			t->orient1 = (uint8_t)t->nlines;
	}
	/* locate() skips rows: they must be runs of cell numbers, in
	 * order, one after the other. */
	if (t->orient1 - t->orient0 > CORE_RUNS_MAX_ROWS)
		abort();
	for (int l = t->orient0, next = 0; l < t->orient1; l++)
		for (int i = 0; i < t->len[l]; i++)
			if (t->cell[l][i] != next++)
				abort();
	for (int l = 0; l < t->nlines; l++)
		for (int i = 0; i < t->len[l]; i++)
			t->row[l][i] = (uint8_t)(t->lid[t->cell[l][i]][1] -
						 t->orient0);
}

/* Does magic send the 2^len subsets of mask to distinct values of the
 * top len bits? */
static bool magic_works(uint64_t mask, int len, uint64_t magic)
{
	uint8_t seen[1 << 9] = { 0 };
	uint64_t sub = 0;

	do {
		uint64_t idx = (sub * magic) >> (64 - len);
		if (seen[idx])
			return false;
		seen[idx] = 1;
		sub = (sub - mask) & mask;
	} while (sub != 0);
	return true;
}

/* The multipliers of the lines in the order core_lines_build() meets
 * them, N = 3, 4, 5: found by find_magic() and written down, because the
 * search takes a good part of a second and every process would pay it. */
static const uint64_t known_magics[15 + 21 + 27] = {
	/* N = 3 */
	UINT64_C(0x8480100400842000), UINT64_C(0x8842012000200000),
	UINT64_C(0x4a12800004740440), UINT64_C(0x0109400000200080),
	UINT64_C(0x90090801a8008020), UINT64_C(0x2002402001206120),
	UINT64_C(0x0c40020100082020), UINT64_C(0x2010004000040209),
	UINT64_C(0x0141000100020043), UINT64_C(0x4000600001900020),
	UINT64_C(0x4310208040100000), UINT64_C(0x4c0888008c084000),
	UINT64_C(0x10f0000400204210), UINT64_C(0x104108404001b000),
	UINT64_C(0x0102c80010020000),
	/* N = 4 */
	UINT64_C(0x212113b008600300), UINT64_C(0x205880404a100005),
	UINT64_C(0x4c50108080080222), UINT64_C(0x0608082204002002),
	UINT64_C(0x1622008820300310), UINT64_C(0x0081010901000000),
	UINT64_C(0x0000418c84300050), UINT64_C(0x3010000208004000),
	UINT64_C(0x0281000092080010), UINT64_C(0x0041012120280005),
	UINT64_C(0x1008040000920400), UINT64_C(0x2000227004001000),
	UINT64_C(0x0185003210100801), UINT64_C(0x0000000808008001),
	UINT64_C(0x2088010100800118), UINT64_C(0x4021080804080008),
	UINT64_C(0x0502028428002886), UINT64_C(0x0c16021010000040),
	UINT64_C(0x0201044202000882), UINT64_C(0x0011108402402800),
	UINT64_C(0x0102835850104884),
	/* N = 5 */
	UINT64_C(0x0c08080400180161), UINT64_C(0x0860445008002400),
	UINT64_C(0x10440082010081d0), UINT64_C(0x8405004080612000),
	UINT64_C(0x0102800220801004), UINT64_C(0x8005406040305840),
	UINT64_C(0x4200020820402404), UINT64_C(0x4102000840900501),
	UINT64_C(0x13132000040240c4), UINT64_C(0x08000100d1280010),
	UINT64_C(0x0020080012120018), UINT64_C(0x2008400001209000),
	UINT64_C(0x240002c008004001), UINT64_C(0x0040025060000008),
	UINT64_C(0x4642000404040042), UINT64_C(0x2340008100004001),
	UINT64_C(0x2004208b00001100), UINT64_C(0x1280003030223288),
	UINT64_C(0x0804006018806026), UINT64_C(0x0108806180101100),
	UINT64_C(0x0220188080410802), UINT64_C(0x0740401010490028),
	UINT64_C(0x2128044050082000), UINT64_C(0x80820140400a0028),
	UINT64_C(0x0010030400810031), UINT64_C(0x0001490822009018),
	UINT64_C(0x0058003001122020),
};

/* A multiplier for mask: sparse candidates from a fixed sequence, so the
 * result is the same in every run. */
static uint64_t find_magic(uint64_t mask, int len)
{
	uint64_t state = UINT64_C(0x6c696e6573000000) ^ mask;

	for (;;) {
		uint64_t magic = ~UINT64_C(0);
		for (int i = 0; i < 3; i++) {
			state ^= state >> 12;
			state ^= state << 25;
			state ^= state >> 27;
			magic &= state * UINT64_C(2685821657736338717);
		}
		if (magic_works(mask, len, magic))
			return magic;
	}
}

/* Fill the rows of a line of `len` cells for every pattern of stacks. */
static void line_rows(struct core_lines *t, const struct core_geom *g,
		      const struct core_line *l, const int *cells, int len)
{
	uint64_t sub = 0;

	do {
		uint32_t row = core_line_row(l, sub);
		bool occupied[16];
		for (int i = 0; i < len; i++)
			occupied[i] = (sub >> cells[i] & 1) != 0;
		for (int tax = 0; tax < g->radius && tax < CORE_LINES_MAX_TAX;
		     tax++) {
			uint64_t pack = 0;
			unsigned total = 0;
			for (int i = 0; i < len; i++) {
				int lo = i, hi = i, need;
				unsigned n = 0;
				if (occupied[i])
					continue;
				while (lo > 0 && !occupied[lo - 1])
					lo--;
				while (hi + 1 < len && !occupied[hi + 1])
					hi++;
				need = g->dist[cells[i]] + tax + 1;
				for (int j = lo; j <= hi; j++)
					n += g->dist[cells[j]] >= need;
				pack |= (uint64_t)n << (4 * i);
				total += n;
			}
			t->pack[tax][row] = pack;
			t->total[tax][row] = (uint16_t)total;
		}
		sub = (sub - l->mask) & l->mask;
	} while (sub != 0);
}

void core_lines_build(const struct core_geom *g)
{
	struct core_lines *t;
	unsigned base = 0;

	if (g->size > CORE_BB_MAX_SIZE)
		return;
	if (g->size > CORE_LINES_MAX_SIZE) {
		runs_build(&runs[g->size], g);
		return;
	}
	t = &lines[g->size];
	memset(t, 0, sizeof(*t));
	/* Orientation o: the lines along direction o, each from the cell
	 * with no neighbour in direction o + 3. */
	for (int o = 0; o < 3; o++) {
		for (int c = 0; c < g->ncells; c++) {
			int cells[16], len = 0;
			if (g->neighbour[c][o + 3] >= 0)
				continue;
			if (t->nlines >= CORE_LINES_MAX)
				abort(); /* CORE_LINES_MAX is wrong */
			for (int x = c; x >= 0; x = g->neighbour[x][o])
				cells[len++] = x;
			struct core_line *l = &t->line[t->nlines];
			for (int i = 0; i < len; i++) {
				l->mask |= UINT64_C(1) << cells[i];
				t->lid[cells[i]][o] = (uint8_t)t->nlines;
				t->lpos[cells[i]][o] = (uint8_t)(4 * i);
			}
			int known = (g->size == 3 ? 0 : g->size == 4 ? 15 : 36) +
				t->nlines;
			l->magic = known_magics[known];
			/* Checked, not trusted: a wrong one would corrupt
			 * every count. */
			if (!magic_works(l->mask, len, l->magic))
				l->magic = find_magic(l->mask, len);
			l->shift = (uint8_t)(64 - len);
			l->base = (uint16_t)base;
			base += 1u << len;
			if (base > CORE_LINE_PATTERNS)
				abort(); /* CORE_LINE_PATTERNS is wrong */
			line_rows(t, g, l, cells, len);
			t->nlines++;
		}
	}
}
