/* movepick.c -- counting the legal moves and fetching move number r of the
 * generator's fixed order (movegen.c) without listing the others: the fast
 * path for random playouts and for core_legal_moves_from() with cap <= 1.
 *
 * Each source cell's moves are counted by arithmetic: a stack's by bit
 * counts of what it sees (whole-stack moves and splits to empty cells) and
 * ranges (splits onto stacks), an empty cell's growths by tables along its
 * three lines (lines.c); only the one source that holds move r is then
 * walked move by move.  Boards of up to 7 rows a side use bitboards
 * (movepick-bb.h); bigger ones walk the rays.  A state kept across a
 * playout's moves keeps more at N = 6 and 7 (movepick-kept.h).  The quiet
 * moves (those that remove nothing) are counted and fetched the same
 * way, for playouts that shun tax.
 */
#include <stddef.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "core/core-int.h"

/* What locate() needs to find move r: the sources and their counts. */
struct tally {
	/* Bitboard sizes: the moves of each source (but of growth sources
	 * up to N = 5, which come from packs[]: see count_bb()), and the
	 * sources. */
	size_t count[CORE_MAX_CELLS];
	uint64_t packs[CORE_LINES_MAX];
	/* N = 6, 7: the growths of each cell (growth_lines()), or NULL if
	 * there are none; and the moves of each row of cells (the lines of
	 * orientation 1, which run along the cell numbers), so that
	 * locate() skips whole rows. */
	const uint8_t *gcell;
	size_t rows[CORE_RUNS_MAX_ROWS];
	uint8_t gown[CORE_MAX_CELLS];   /* gcell's, when nothing is kept */
	core_bits src, occ;             /* cell c at bit c */
	/* Other sizes: the sources with moves, in cell order. */
	int n;
	int16_t cell[CORE_MAX_CELLS];
	size_t end[CORE_MAX_CELLS];
};

/* Splits of lo .. s - 1 pieces. */
static inline size_t split_count(int32_t s, int32_t lo)
{
	return s - 1 >= lo ? (size_t)(s - lo) : 0;
}

/* The smallest split a stack of the mover may land on a stack t (signed
 * for the mover: > 0 own, < 0 the opponent's) or, for t == 0, on an
 * empty cell. */
static inline int32_t split_low(int32_t t, int32_t tax)
{
	int32_t at = t < 0 ? -t : t;

	if (t > 0)
		return at;
	return at > tax + 1 ? at : tax + 1;
}

/* Moves of the stack of size s on `from` onto the stack (or edge) that
 * ends ray d at cell c, t its signed size for the mover. */
static inline size_t blocker_count(const struct core_geom *g, int32_t s,
				   int ds, int c, int32_t t, int32_t tax)
{
	int32_t at = t < 0 ? -t : t;
	size_t n = at <= s && core_whole_size(s, ds, g->dist[c]) >= 0;

	return n + split_count(s, split_low(t, tax));
}

/* The least distance from the centre a whole-stack move of the stack of
 * size s at distance ds may reach: the move to exactly ds - s + 1 spends
 * it, so a quiet one (which removes nothing) goes one further. */
static inline int quiet_least(int ds, int32_t s, bool quiet)
{
	int m = ds - s + 1 + (quiet ? 1 : 0);

	return m > 0 ? m : 0;
}

/* ---- Counting, bitboards (N <= 7) ---- */

#include "core/movepick-kept.h"

void core_occupancy(const int32_t *st, int n, int32_t sign, core_bits *occ_r,
		    core_bits *own_r)
{
	uint64_t occ[2] = { 0, 0 }, own[2] = { 0, 0 };

	for (int w = 0; w * 64 < n; w++) {
		/* One word at a time in registers, not through memory. */
		const int32_t *v = st + w * 64;
		int len = n - w * 64 < 64 ? n - w * 64 : 64, c = 0;
		uint64_t o = 0, m = 0;
#ifdef __SSE2__
		/* Sixteen cells a step, packed (with saturation, which keeps
		 * signs and zeros) to bytes; then four. */
		const __m128i zero = _mm_setzero_si128();
		uint64_t e = 0, pos = 0, neg = 0;
		for (; c + 16 <= len; c += 16) {
			const __m128i *p = (const __m128i *)(v + c);
			__m128i x = _mm_packs_epi16(
				_mm_packs_epi32(_mm_loadu_si128(p),
						_mm_loadu_si128(p + 1)),
				_mm_packs_epi32(_mm_loadu_si128(p + 2),
						_mm_loadu_si128(p + 3)));
			e |= (uint64_t)_mm_movemask_epi8(
				_mm_cmpeq_epi8(x, zero)) << c;
			pos |= (uint64_t)_mm_movemask_epi8(
				_mm_cmpgt_epi8(x, zero)) << c;
			neg |= (uint64_t)_mm_movemask_epi8(
				_mm_cmpgt_epi8(zero, x)) << c;
		}
		for (; c + 4 <= len; c += 4) {
			__m128i x = _mm_loadu_si128((const __m128i *)(v + c));
			e |= (uint64_t)_mm_movemask_ps(_mm_castsi128_ps(
				_mm_cmpeq_epi32(x, zero))) << c;
			pos |= (uint64_t)_mm_movemask_ps(_mm_castsi128_ps(
				_mm_cmpgt_epi32(x, zero))) << c;
			neg |= (uint64_t)_mm_movemask_ps(_mm_castsi128_ps(
				_mm_cmpgt_epi32(zero, x))) << c;
		}
		/* e has the empty cells so far: the others are occupied. */
		o = ~e & (c == 64 ? ~UINT64_C(0) : (UINT64_C(1) << c) - 1);
		m = sign > 0 ? pos : neg;
#endif
		for (; c < len; c++) {
			o |= (uint64_t)(v[c] != 0) << c;
			m |= (uint64_t)(v[c] * sign > 0) << c;
		}
		occ[w] = o;
		own[w] = m;
	}
	*occ_r = (core_bits)occ[1] << 64 | occ[0];
	*own_r = (core_bits)own[1] << 64 | own[0];
}

/* Boards of up to 61 cells (N <= 5) in one word, up to 127 in two; each
 * once more for processors with a popcount instruction, which the
 * baseline x86-64 the project is built for lacks. */
#define BB_ATTR
#define BB_POPCNT 0
#define BB_T uint64_t
#define BB_(name) bb64_##name
#define BB_LINES 1
#include "core/movepick-bb.h"
#define BB_LINES 2
#define BB_T core_bits
#define BB_(name) bb128_##name
#include "core/movepick-bb.h"
#undef BB_ATTR
#undef BB_POPCNT

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__POPCNT__)
#define HAVE_POPCNT_COPY 1
#define BB_ATTR __attribute__((target("popcnt")))
#define BB_POPCNT 1
#define BB_T uint64_t
#define BB_(name) bb64p_##name
#define BB_TABLES bb64_tables
#define BB_LINES 1
#include "core/movepick-bb.h"
#define BB_LINES 2
#define BB_T core_bits
#define BB_(name) bb128p_##name
#define BB_TABLES bb128_tables
#include "core/movepick-bb.h"
#undef BB_ATTR
#undef BB_POPCNT
#endif

#define BB64_MAX_SIZE 5
static struct bb64_tables bb64[BB64_MAX_SIZE + 1];
static struct bb128_tables bb128[CORE_BB_MAX_SIZE + 1];
static bool use_popcnt;

void core_pick_build(const struct core_geom *g)
{
	if (g->size <= BB64_MAX_SIZE)
		bb64_tables_build(&bb64[g->size], g);
	else if (g->size <= CORE_BB_MAX_SIZE)
		bb128_tables_build(&bb128[g->size], g);
#ifdef HAVE_POPCNT_COPY
	__builtin_cpu_init();
	use_popcnt = __builtin_cpu_supports("popcnt");
#endif
}

bool core_pick_portable(bool on)
{
#ifdef HAVE_POPCNT_COPY
	bool was = !use_popcnt;

	core_geom_get(CORE_DEFAULT_SIZE); /* the check above has run */
	use_popcnt = on ? false : __builtin_cpu_supports("popcnt");
	return was;
#else
	(void)on;
	return true;
#endif
}

static size_t count_bb(const struct core_position *pos,
		       struct core_pick_state *ps, struct tally *t_r,
		       bool quiet)
{
	int size = pos->geom->size;

#ifdef HAVE_POPCNT_COPY
	if (use_popcnt)
		return size <= BB64_MAX_SIZE ?
			bb64p_count(pos, &bb64[size], ps, t_r, quiet) :
			bb128p_count(pos, &bb128[size], ps, t_r, quiet);
#endif
	return size <= BB64_MAX_SIZE ?
		bb64_count(pos, &bb64[size], ps, t_r, quiet) :
		bb128_count(pos, &bb128[size], ps, t_r, quiet);
}

/* ---- The state the bitboard counter starts from ---- */

_Static_assert(sizeof(((struct core_pick_state *)0)->pat) /
	       sizeof(uint32_t) >= CORE_RUNS_MAX_LINES,
	       "core_pick_state.pat too short");
_Static_assert(sizeof(((struct core_pick_state *)0)->growths) /
	       sizeof(struct core_pick_growths) >= CORE_BB_MAX_SIZE,
	       "core_pick_state.growths: one a tax below R");
_Static_assert(CORE_RUNS_MAX_LINES <= 64, "core_pick_state.sdirty: a bit a line");
_Static_assert(sizeof(((struct core_pick_growths *)0)->cell) >= 127,
	       "core_pick_growths.cell too short");

/* Fill ps from pos's stacks (what the counter needs of them; nothing
 * above CORE_BB_MAX_SIZE, where the rays are walked). */
static void state_fill(struct core_pick_state *ps,
		       const struct core_position *pos)
{
	const struct core_geom *g = pos->geom;
	const struct core_runs *ru = core_runs_get(g);
	core_bits occ = 0, white = 0;

	ps->key = pos->key;
	ps->size = g->size;
	ps->gvalid = 0; /* no growths kept */
	ps->sdirty = ~UINT64_C(0) >> (64 - CORE_RUNS_MAX_LINES);
	if (g->size <= CORE_BB_MAX_SIZE)
		core_occupancy(pos->stack, g->ncells, 1, &occ, &white);
	ps->occ[0] = (uint64_t)occ;
	ps->occ[1] = (uint64_t)(occ >> 64);
	ps->white[0] = (uint64_t)white;
	ps->white[1] = (uint64_t)(white >> 64);
	if (ru == NULL)
		return;
	memset(ps->pat, 0, sizeof(ps->pat));
	for (core_bits x = occ; x != 0; x &= x - 1) {
		int c = core_bits_lowest(x);
		ps->pat[ru->lid[c][0]] |= 1u << ru->lpos[c][0];
		ps->pat[ru->lid[c][1]] |= 1u << ru->lpos[c][1];
		ps->pat[ru->lid[c][2]] |= 1u << ru->lpos[c][2];
	}
}

/* Redo cell c of ps from pos. */
static inline void state_cell(struct core_pick_state *ps,
			      const struct core_position *pos, int c)
{
	const struct core_runs *ru = core_runs_get(pos->geom);
	int32_t v = pos->stack[c];
	uint64_t bit = UINT64_C(1) << (c & 63);

	ps->occ[c >> 6] = (ps->occ[c >> 6] & ~bit) | (v != 0 ? bit : 0);
	ps->white[c >> 6] = (ps->white[c >> 6] & ~bit) | (v > 0 ? bit : 0);
	if (ru == NULL)
		return;
	for (int o = 0; o < 3; o++) {
		uint32_t b = 1u << ru->lpos[c][o];
		uint32_t *p = &ps->pat[ru->lid[c][o]];
		*p = (*p & ~b) | (v != 0 ? b : 0);
		ps->sdirty |= UINT64_C(1) << ru->lid[c][o];
	}
	for (int t = 0; t < CORE_BB_MAX_SIZE; t++)
		ps->growths[t].dirty |= UINT64_C(1) << ru->lid[c][0] |
			UINT64_C(1) << ru->lid[c][1] |
			UINT64_C(1) << ru->lid[c][2];
}

void core_pick_state_init(struct core_pick_state *ps,
			  const struct core_position *pos)
{
	/* Not the kept lines (most of it): state_fill() marks them all
	 * stale, and each is written before it is read. */
	memset(ps, 0, offsetof(struct core_pick_state, gvalid));
	state_fill(ps, pos);
	ps->kept = true;
}

/* ---- Counting, any size: walk the rays ---- */

static size_t growth_count_rays(const struct core_geom *g, const int32_t *st,
				int from, int min_dt)
{
	size_t n = 0;

	for (int d = 0; d < CORE_DIRECTIONS; d++) {
		const int16_t *ray = g->ray_cells + g->ray_start[from][d];
		for (int c; (c = *ray++) >= 0 && st[c] == 0;)
			n += g->dist[c] >= min_dt;
	}
	return n;
}

static size_t stack_count_rays(const struct core_geom *g, const int32_t *st,
			       int from, int32_t s, int32_t sign, int32_t tax,
			       bool quiet)
{
	int ds = g->dist[from];
	size_t n = 0, nsplit = split_count(s, tax + 1);

	for (int d = 0; d < CORE_DIRECTIONS; d++) {
		const int16_t *ray = g->ray_cells + g->ray_start[from][d];
		for (int c; (c = *ray++) >= 0;) {
			if (st[c] != 0) {
				if (!quiet)
					n += blocker_count(g, s, ds, c,
							   st[c] * sign, tax);
				break;
			}
			n += (core_whole_size(s, ds, g->dist[c]) >=
			      (quiet ? 1 : 0)) + nsplit;
		}
	}
	return n;
}

static size_t count_rays(const struct core_position *pos, struct tally *t_r,
			 bool quiet)
{
	const struct core_geom *g = pos->geom;
	const int32_t *st = pos->stack;
	int me = pos->to_move;
	int32_t sign = core_sign(me), tax = pos->tax[me];
	int max_growth_ds = g->radius - 1 - tax;
	size_t total = core_swap_available(pos) ? 1 : 0;

	if (t_r != NULL)
		t_r->n = 0;
	for (int from = 0; from < g->ncells; from++) {
		int32_t v = st[from] * sign;
		int ds = g->dist[from];
		size_t n;
		if (v < 0 || (v == 0 && ds > max_growth_ds))
			continue;
		if (v == 0)
			n = growth_count_rays(g, st, from, ds + tax + 1);
		else
			n = stack_count_rays(g, st, from, v, sign, tax,
					     quiet);
		total += n;
		if (t_r != NULL && n != 0) {
			t_r->cell[t_r->n] = (int16_t)from;
			t_r->end[t_r->n++] = total;
		}
	}
	return total;
}

/* ps: pos's state, or NULL to work it out here (then t_r must be NULL:
 * it would point into it); quiet: count only the moves that remove
 * nothing. */
static size_t count_all(const struct core_position *pos,
			struct core_pick_state *ps, struct tally *t_r,
			bool quiet)
{
	struct core_pick_state own;

	if (pos->result != CORE_ONGOING) {
		if (t_r != NULL)
			t_r->n = 0;
		return 0;
	}
	/* The tables exist: pos->geom came from core_geom_get(), which built
	 * them. */
	if (pos->geom->size <= CORE_BB_MAX_SIZE) {
		if (ps == NULL) {
			own.kept = false;
			state_fill(&own, pos);
			ps = &own;
		}
		return count_bb(pos, ps, t_r, quiet);
	}
	return count_rays(pos, t_r, quiet);
}

/* ---- Finding move j of one source ---- */

static void set_move(struct core_move *m, uint8_t kind, bool capture,
		     int from, int to, int32_t part)
{
	m->kind = kind;
	m->capture = capture;
	m->from = (int16_t)from;
	m->to = (int16_t)to;
	m->part = part;
}

/* Growth number j from the empty cell `from`: in cell order on the
 * bitboard sizes (occ: the occupied cells, cell c at bit c), in ray order
 * beyond (as movegen.c lists them). */
static void growth_nth(const struct core_position *pos, int from, size_t j,
		       core_bits occ, struct core_move *move_r)
{
	const struct core_geom *g = pos->geom;
	const struct core_bb *bb = core_bb_get(g);
	int min_dt = g->dist[from] + pos->tax[pos->to_move] + 1;

	if (g->size <= BB64_MAX_SIZE) {
		/* The targets in cell order: the reversed ones turned
		 * round. */
		const struct bb64_tables *b = &bb64[g->size];
		int n = g->ncells;
		uint64_t o = (uint64_t)occ, fwd, rev;
		uint64_t o_rev = core_bits_reverse64(o) >> (64 - n);
		bb64_seen(b, from, o, o_rev, &fwd, &rev, NULL, NULL);
		uint64_t tg = (fwd | core_bits_reverse64(rev) >> (64 - n)) &
			b->far[0][min_dt];
		for (; j > 0; j--)
			tg &= tg - 1;
		set_move(move_r, CORE_MOVE_GROWTH, false, from,
			 __builtin_ctzll(tg), 0);
		return;
	}
	if (bb != NULL) {
		core_bits tg = core_bb_seen(bb, from, occ << 1, NULL) &
			bb->far[min_dt];
		for (; j > 0; j--)
			tg &= tg - 1;
		set_move(move_r, CORE_MOVE_GROWTH, false, from,
			 core_bb_lowest(tg), 0);
		return;
	}
	for (int d = 0; d < CORE_DIRECTIONS; d++) {
		const int16_t *ray = g->ray_cells + g->ray_start[from][d];
		for (int c; (c = *ray++) >= 0 && pos->stack[c] == 0;) {
			if (g->dist[c] < min_dt)
				continue;
			if (j-- == 0) {
				set_move(move_r, CORE_MOVE_GROWTH, false,
					 from, c, 0);
				return;
			}
		}
	}
}

/* Move number j of the mover's stack on `from` (of its quiet moves if
 * quiet), in the generator's order: ray by ray, nearest cell first, each
 * cell's whole-stack move before its splits by growing part. */
static void stack_nth(const struct core_position *pos, int from, size_t j,
		      bool quiet, struct core_move *move_r)
{
	const struct core_geom *g = pos->geom;
	int me = pos->to_move;
	int32_t sign = core_sign(me), tax = pos->tax[me];
	int32_t s = pos->stack[from] * sign;
	int ds = g->dist[from];

	for (int d = 0; d < CORE_DIRECTIONS; d++) {
		const int16_t *ray = g->ray_cells + g->ray_start[from][d];
		for (int c; (c = *ray++) >= 0;) {
			int32_t t = pos->stack[c] * sign;
			int32_t at = t < 0 ? -t : t;
			int32_t lo = split_low(t, tax);
			size_t nsplit = split_count(s, lo);
			if (quiet && t != 0)
				break;
			if (at <= s && core_whole_size(s, ds, g->dist[c]) >=
			    (quiet ? 1 : 0)) {
				if (j == 0) {
					set_move(move_r, CORE_MOVE_WHOLE,
						 t != 0, from, c, 0);
					return;
				}
				j--;
			}
			if (j < nsplit) {
				set_move(move_r, CORE_MOVE_SPLIT, t != 0,
					 from, c, lo + (int32_t)j);
				return;
			}
			j -= nsplit;
			if (t != 0)
				break;
		}
	}
}

/* Move number r (< the count in t) of pos, of its quiet moves if t
 * counted those. */
static void locate(const struct core_position *pos, const struct tally *t,
		   size_t r, bool quiet, struct core_move *move_r)
{
	size_t before;
	int i = 0;

	if (core_swap_available(pos)) {
		if (r == 0) {
			set_move(move_r, CORE_MOVE_SWAP, false, -1, -1, 0);
			return;
		}
	}
	before = core_swap_available(pos) ? 1 : 0;
	if (pos->geom->size <= CORE_BB_MAX_SIZE) {
		/* Sources in cell order, each with its count; one word
		 * up to N = 5. */
		const struct core_lines *ln = core_lines_get(pos->geom);
		uint64_t lo = (uint64_t)t->src, hi = (uint64_t)(t->src >> 64);
		const struct core_runs *ru = core_runs_get(pos->geom);
		if (ru != NULL) {
			/* Whole rows first: the sources before row j's first
			 * cell are the rows before it. */
			int j = 0, first;
			while (before + t->rows[j] <= r)
				before += t->rows[j++];
			first = ru->cell[ru->orient0 + j][0];
			if (first < 64) {
				lo &= ~UINT64_C(0) << first;
			} else {
				lo = 0;
				hi &= ~UINT64_C(0) << (first - 64);
			}
		}
		for (;;) {
			int from = lo ? __builtin_ctzll(lo) :
				64 + __builtin_ctzll(hi);
			size_t k;
			if (lo)
				lo &= lo - 1;
			else
				hi &= hi - 1;
			if (ln != NULL && pos->stack[from] == 0) {
				const uint8_t *lid = ln->lid[from];
				const uint8_t *lpos = ln->lpos[from];
				k = (size_t)((t->packs[lid[0]] >> lpos[0] & 15) +
					     (t->packs[lid[1]] >> lpos[1] & 15) +
					     (t->packs[lid[2]] >> lpos[2] & 15));
			} else if (t->gcell != NULL && pos->stack[from] == 0) {
				k = t->gcell[from];
			} else {
				k = t->count[from];
			}
			if (before + k > r) {
				i = from;
				break;
			}
			before += k;
		}
	} else {
		while (t->end[i] <= r)
			i++;
		if (i > 0)
			before = t->end[i - 1];
		i = t->cell[i];
	}
	if (pos->stack[i] == 0)
		growth_nth(pos, i, r - before, t->occ, move_r);
	else
		stack_nth(pos, i, r - before, quiet, move_r);
}

bool core_move_quiet(const struct core_position *pos,
		     const struct core_move *move)
{
	const struct core_geom *g = pos->geom;

	if (move->capture)
		return false;
	if (move->kind != CORE_MOVE_WHOLE)
		return true;
	return core_whole_size(core_stack_size(pos, move->from),
			       g->dist[move->from], g->dist[move->to]) != 0;
}

size_t core_legal_move_count(const struct core_position *pos)
{
	return count_all(pos, NULL, NULL, false);
}

/* Count pos's legal moves and put move r (r modulo the count if wrap)
 * in *move_r if there is one: core_legal_move_at and _pick. */
static size_t move_at(const struct core_position *pos, uint64_t r, bool wrap,
		      struct core_move *move_r)
{
	struct core_pick_state own; /* t points into it */
	struct tally t;
	size_t n;

	own.kept = false;
	state_fill(&own, pos);
	n = count_all(pos, &own, &t, false);
	if (wrap && n != 0)
		r %= n;
	if (r < n)
		locate(pos, &t, (size_t)r, false, move_r);
	return n;
}

size_t core_legal_move_at(const struct core_position *pos, size_t r,
			  struct core_move *move_r)
{
	return move_at(pos, r, false, move_r);
}

size_t core_legal_move_pick(const struct core_position *pos, uint64_t r,
			    struct core_move *move_r)
{
	return move_at(pos, r, true, move_r);
}

static size_t pick_with(struct core_pick_state *ps,
			const struct core_position *pos, uint64_t r,
			bool quiet, struct core_move *move_r)
{
	struct tally t;
	size_t n;

	if (ps->key != pos->key || ps->size != pos->geom->size)
		state_fill(ps, pos);
	n = count_all(pos, ps, &t, quiet);
	if (n != 0)
		locate(pos, &t, (size_t)(r % n), quiet, move_r);
	return n;
}

size_t core_legal_move_pick_with(struct core_pick_state *ps,
				 const struct core_position *pos, uint64_t r,
				 struct core_move *move_r)
{
	return pick_with(ps, pos, r, false, move_r);
}

size_t core_quiet_move_pick_with(struct core_pick_state *ps,
				 const struct core_position *pos, uint64_t r,
				 struct core_move *move_r)
{
	return pick_with(ps, pos, r, true, move_r);
}

void core_play_picked(struct core_position *pos, struct core_pick_state *ps,
		      const struct core_move *move, int *forced_passes_r)
{
	bool synced = ps->key == pos->key && ps->size == pos->geom->size;
	uint8_t kind = move->kind;
	int from = move->from, to = move->to;

	core_play_unchecked(pos, move, forced_passes_r);
	if (!synced) {
		state_fill(ps, pos);
		return;
	}
	/* A move changes its two cells only; passes and the swap none. */
	if (pos->geom->size <= CORE_BB_MAX_SIZE &&
	    (kind == CORE_MOVE_GROWTH || kind == CORE_MOVE_WHOLE ||
	     kind == CORE_MOVE_SPLIT)) {
		state_cell(ps, pos, from);
		state_cell(ps, pos, to);
	}
	ps->key = pos->key;
}
