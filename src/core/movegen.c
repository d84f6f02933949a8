/* movegen.c -- legal-move generation into a caller's array (no
 * allocation), counting by ranges, and perft.
 */
#include <pthread.h>

#include "core/core-int.h"

/* Bitboards for boards of up to 128 cells (N <= 7), used to find growth
 * moves: the empty cells seen from S are the ray's cells before its first
 * stack, and the targets among them are those far enough out.  Cell
 * numbers grow along directions 0, 1, 2 and shrink along 3, 4, 5, so the
 * nearest stack is the lowest or highest set bit. */
typedef unsigned __int128 bits128;
#define BB_MAX_SIZE 7
#define BB_MAX_CELLS 127

struct bb_geom {
	bits128 ray[BB_MAX_CELLS][CORE_DIRECTIONS];
	bits128 far[BB_MAX_SIZE + 1]; /* far[m]: cells at distance >= m */
};

static struct bb_geom bb_geoms[BB_MAX_SIZE + 1];
static pthread_once_t bb_once = PTHREAD_ONCE_INIT;

static void bb_build_all(void)
{
	for (int size = CORE_MIN_SIZE; size <= BB_MAX_SIZE; size++) {
		const struct core_geom *g = core_geom_get(size);
		struct bb_geom *b = &bb_geoms[size];
		for (int c = 0; c < g->ncells; c++) {
			for (int d = 0; d < CORE_DIRECTIONS; d++) {
				const int16_t *ray = g->ray_cells +
					g->ray_start[c][d];
				for (int t; (t = *ray++) >= 0;)
					b->ray[c][d] |= (bits128)1 << t;
			}
			for (int m = 0; m <= g->dist[c]; m++)
				b->far[m] |= (bits128)1 << c;
		}
	}
}

static inline int bb_lowest(bits128 v)
{
	uint64_t lo = (uint64_t)v;

	return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(v >> 64));
}

static inline int bb_highest(bits128 v)
{
	uint64_t hi = (uint64_t)(v >> 64);

	return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll((uint64_t)v);
}

static inline int bb_count(bits128 v)
{
	return __builtin_popcountll((uint64_t)v) +
	       __builtin_popcountll((uint64_t)(v >> 64));
}

/* The growth targets from the empty cell s: visible, empty, and at
 * distance >= min_dt. */
static inline bits128 bb_growth_targets(const struct bb_geom *b, int s,
					bits128 occ, int min_dt)
{
	bits128 seen = 0;

	for (int d = 0; d < CORE_DIRECTIONS; d++) {
		bits128 ray = b->ray[s][d], block = ray & occ;
		if (block == 0) {
			seen |= ray;
		} else if (d < 3) {
			int k = bb_lowest(block);
			seen |= ray & (((bits128)1 << k) - 1);
		} else {
			int k = bb_highest(block);
			seen |= ray & ~((((bits128)1 << k) << 1) - 1);
		}
	}
	return seen & b->far[min_dt];
}

/* The generator writes the moves numbered first .. first + cap - 1 and
 * counts all of them. */
struct gen {
	struct core_move *moves;
	size_t first, cap; /* window [first, first + cap) */
	size_t n;          /* moves generated so far */
	bool count_only;   /* a compile-time constant after inlining */
};

static inline __attribute__((always_inline))
void emit(struct gen *gen, uint8_t kind, bool capture, int from, int to,
	  int32_t part)
{
	if (!gen->count_only && gen->n - gen->first < gen->cap) {
		struct core_move *m = &gen->moves[gen->n - gen->first];
		m->kind = kind;
		m->capture = capture;
		m->from = (int16_t)from;
		m->to = (int16_t)to;
		m->part = part;
	}
	gen->n++;
}

/* Splits of k = lo .. hi pieces from `from` to `to`. */
static inline __attribute__((always_inline))
void emit_splits(struct gen *gen, bool capture, int from, int to,
		 int32_t lo, int32_t hi)
{
	if (lo > hi)
		return;
	size_t len = (size_t)(hi - lo) + 1;
	if (gen->count_only || gen->n + len <= gen->first ||
	    gen->n >= gen->first + gen->cap) {
		gen->n += len;
		return;
	}
	for (int32_t k = lo; k <= hi; k++)
		emit(gen, CORE_MOVE_SPLIT, capture, from, to, k);
}

static inline __attribute__((always_inline))
size_t generate(const struct core_position *pos, size_t first,
		struct core_move *moves, size_t cap, bool count_only)
{
	const struct core_geom *g = pos->geom;
	const int32_t *st = pos->stack;
	int me = pos->to_move;
	int32_t sign = core_sign(me), tax = pos->tax[me];
	int max_growth_ds = g->radius - 1 - tax;
	struct gen gen = { moves, first, cap, 0, count_only };

	const struct bb_geom *bb = NULL;
	bits128 occ = 0;

	if (pos->result != CORE_ONGOING)
		return 0;
	if (g->size <= BB_MAX_SIZE && max_growth_ds >= 0) {
		pthread_once(&bb_once, bb_build_all);
		bb = &bb_geoms[g->size];
		for (int c = 0; c < g->ncells; c++)
			occ |= (bits128)(st[c] != 0) << c;
	}
	if (core_swap_available(pos))
		emit(&gen, CORE_MOVE_SWAP, false, -1, -1, 0);
	for (int from = 0; from < g->ncells; from++) {
		int32_t v = st[from] * sign;
		int ds = g->dist[from];
		if (v == 0) {
			if (ds > max_growth_ds)
				continue;
			int min_dt = ds + tax + 1;
			if (bb != NULL) {
				bits128 tg = bb_growth_targets(bb, from, occ,
							       min_dt);
				if (count_only) {
					gen.n += (size_t)bb_count(tg);
					continue;
				}
				while (tg != 0) {
					int c = bb_lowest(tg);
					tg &= tg - 1;
					emit(&gen, CORE_MOVE_GROWTH, false,
					     from, c, 0);
				}
				continue;
			}
			for (int d = 0; d < CORE_DIRECTIONS; d++) {
				const int16_t *ray = g->ray_cells +
					g->ray_start[from][d];
				for (int c; (c = *ray++) >= 0 && st[c] == 0;) {
					/* Branch-free: whether T is far
					 * enough out is unpredictable.  The
					 * slot is written anyway and only
					 * counted if T qualifies. */
					if (!count_only &&
					    gen.n - first < cap) {
						struct core_move *m =
							&moves[gen.n - first];
						m->kind = CORE_MOVE_GROWTH;
						m->capture = false;
						m->from = (int16_t)from;
						m->to = (int16_t)c;
						m->part = 0;
					}
					gen.n += g->dist[c] >= min_dt;
				}
			}
			continue;
		}
		if (v < 0)
			continue;
		/* Own stack of size v. */
		int32_t s = v;
		for (int d = 0; d < CORE_DIRECTIONS; d++) {
			const int16_t *ray = g->ray_cells + g->ray_start[from][d];
			for (int c; (c = *ray++) >= 0;) {
				int32_t t = st[c] * sign;
				if (t == 0) {
					if (core_whole_size(s, ds, g->dist[c]) >= 0)
						emit(&gen, CORE_MOVE_WHOLE,
						     false, from, c, 0);
					emit_splits(&gen, false, from, c,
						    tax + 1, s - 1);
					continue;
				}
				int32_t at = t < 0 ? -t : t;
				if (at <= s &&
				    core_whole_size(s, ds, g->dist[c]) >= 0)
					emit(&gen, CORE_MOVE_WHOLE, true,
					     from, c, 0);
				if (t > 0)
					emit_splits(&gen, true, from, c,
						    at, s - 1);
				else
					emit_splits(&gen, true, from, c,
						    at > tax + 1 ? at : tax + 1,
						    s - 1);
				break;
			}
		}
	}
	return gen.n;
}

/* Two copies of the generator: counting only, and filling a window. */
static size_t generate_count(const struct core_position *pos)
{
	return generate(pos, 0, NULL, 0, true);
}

static size_t generate_fill(const struct core_position *pos, size_t first,
			    struct core_move *moves, size_t cap)
{
	return generate(pos, first, moves, cap, false);
}

size_t core_legal_moves_from(const struct core_position *pos, size_t first,
			     struct core_move *moves, size_t cap)
{
	if (cap == 0)
		return generate_count(pos);
	return generate_fill(pos, first, moves, cap);
}

size_t core_legal_moves(const struct core_position *pos,
			struct core_move *moves, size_t cap)
{
	return core_legal_moves_from(pos, 0, moves, cap);
}

size_t core_legal_moves_bound(const struct core_position *pos)
{
	/* Counting is cheap (splits by ranges), so the bound is exact. */
	return core_legal_moves_from(pos, 0, NULL, 0);
}

/* Copy what a move can change, not the whole CORE_MAX_CELLS array. */
static void position_copy(struct core_position *dst,
			  const struct core_position *src)
{
	dst->geom = src->geom;
	dst->variant = src->variant;
	for (int c = 0; c < src->geom->ncells; c++)
		dst->stack[c] = src->stack[c];
	dst->tax[0] = src->tax[0];
	dst->tax[1] = src->tax[1];
	dst->nstacks[0] = src->nstacks[0];
	dst->nstacks[1] = src->nstacks[1];
	dst->to_move = src->to_move;
	dst->ply = src->ply;
	dst->swapped = src->swapped;
	dst->last_kind = src->last_kind;
	dst->result = src->result;
	dst->end_reason = src->end_reason;
	dst->key = src->key;
}

#define PERFT_CHUNK 256

uint64_t core_perft(const struct core_position *pos, int depth)
{
	struct core_move moves[PERFT_CHUNK];
	struct core_position child;
	uint64_t leaves = 0;
	size_t n;

	if (depth <= 0 || pos->result != CORE_ONGOING)
		return 1;
	n = core_legal_moves_from(pos, 0, NULL, 0);
	/* A settled position always has a move; a hand-made one that has
	 * none is a leaf. */
	if (n == 0)
		return 1;
	if (depth == 1)
		return n;
	for (size_t first = 0; first < n; first += PERFT_CHUNK) {
		size_t got = n - first < PERFT_CHUNK ? n - first : PERFT_CHUNK;
		core_legal_moves_from(pos, first, moves, got);
		for (size_t i = 0; i < got; i++) {
			position_copy(&child, pos);
			core_play_unchecked(&child, &moves[i], NULL);
			leaves += core_perft(&child, depth - 1);
		}
	}
	return leaves;
}
