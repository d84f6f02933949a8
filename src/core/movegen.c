/* movegen.c -- legal-move generation into a caller's array (no
 * allocation), in the fixed order every list in the project uses, and
 * perft.  Counting and fetching one move by number go the faster way of
 * movepick.c, which follows the same order.
 */
#include <stddef.h>
#include <string.h>

#include "core/core-int.h"

/* The generator writes the moves numbered first .. first + cap - 1 and
 * counts all of them. */
struct gen {
	struct core_move *moves;
	size_t first, cap; /* window [first, first + cap) */
	size_t n;          /* moves generated so far */
};

static inline __attribute__((always_inline))
void emit(struct gen *gen, uint8_t kind, bool capture, int from, int to,
	  int32_t part)
{
	if (gen->n - gen->first < gen->cap) {
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
	if (gen->n + len <= gen->first ||
	    gen->n >= gen->first + gen->cap) {
		gen->n += len;
		return;
	}
	for (int32_t k = lo; k <= hi; k++)
		emit(gen, CORE_MOVE_SPLIT, capture, from, to, k);
}

static size_t generate(const struct core_position *pos, size_t first,
		       struct core_move *moves, size_t cap)
{
	const struct core_geom *g = pos->geom;
	const int32_t *st = pos->stack;
	int me = pos->to_move;
	int32_t sign = core_sign(me), tax = pos->tax[me];
	int max_growth_ds = g->radius - 1 - tax;
	struct gen gen = { moves, first, cap, 0 };

	const struct core_bb *bb = NULL;
	core_bits occ = 0;

	if (pos->result != CORE_ONGOING)
		return 0;
	if (max_growth_ds >= 0) {
		bb = core_bb_get(g);
		if (bb != NULL)
			occ = core_bb_occupied(pos);
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
				core_bits tg = core_bb_seen(bb, from, occ,
							    NULL) & bb->far[min_dt];
				while (tg != 0) {
					int c = core_bb_lowest(tg);
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
					if (gen.n - first < cap) {
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

size_t core_legal_moves_from(const struct core_position *pos, size_t first,
			     struct core_move *moves, size_t cap)
{
	/* Counting and fetching one move by number have a faster path than
	 * running the generator (movepick.c). */
	if (cap == 0)
		return core_legal_move_count(pos);
	if (cap == 1)
		return core_legal_move_at(pos, first, moves);
	return generate(pos, first, moves, cap);
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

/* Copy what a move can change, not the whole CORE_MAX_CELLS array: the
 * board's cells in use, and the fields before stack[] and after it (tax
 * is the first of those, core.h). */
static void position_copy(struct core_position *dst,
			  const struct core_position *src)
{
	dst->geom = src->geom;
	dst->variant = src->variant;
	memcpy(dst->stack, src->stack,
	       (size_t)src->geom->ncells * sizeof(dst->stack[0]));
	memcpy(dst->tax, src->tax,
	       sizeof(*dst) - offsetof(struct core_position, tax));
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
