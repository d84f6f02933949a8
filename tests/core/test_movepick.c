/* test_movepick.c -- the fast paths of the rules core against a slow,
 * straightforward reference kept here: the legal-move list in its fixed
 * public order, counting, fetching move number r (core_legal_move_pick(),
 * core_legal_move_pick_with() and core_legal_moves_from() windows), the
 * quiet moves alone (core_quiet_move_pick_with()) and
 * playing a move (with and without the pick state), over seeded random
 * positions of sizes 3..9.  `make check` plays about half the games and
 * a third of the positions; ASHES_TEST_LONG=1 (`make bench`) all;
 * built with AddressSanitizer (scripts/test's second run) fewer moves
 * fetched by number from each long list.
 */
#include "core-test.h"
#include "core/core-int.h"
#include "../check_run.h"

/* Check records every passing ck_assert: far too slow for this many
 * comparisons, so only call it on failure. */
#define REQUIRE(cond) do { \
	if (!(cond)) \
		ck_abort_msg("%s:%d: %s", __FILE__, __LINE__, #cond); \
} while (0)

#define LIST_MAX 65536

/* ASHES_TEST_LONG set: the long run (see the top). */
static bool long_run;

/* Under ASan + UBSan each comparison costs three times more, and most
 * of them fetch move number r from the long lists of the big boards,
 * where what the sanitizers look for (a bad access, an overflow) shows
 * on any r: there a tenth as many r, the games and positions the same. */
#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED true
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED true
#endif
#endif
#ifndef SANITIZED
#define SANITIZED false
#endif
/* Of a list longer than LONG_LIST, about PICKS moves fetched by number. */
#define LONG_LIST (SANITIZED ? 200 : 2000)
#define PICKS (SANITIZED ? 97 : 997)

/* ---- The reference: walk every ray, one move at a time ---- */

static void ref_add(struct core_move *moves, size_t *n, uint8_t kind,
		    bool capture, int from, int to, int32_t part)
{
	if (*n < LIST_MAX) {
		struct core_move *m = &moves[*n];
		memset(m, 0, sizeof(*m));
		m->kind = kind;
		m->capture = capture;
		m->from = (int16_t)from;
		m->to = (int16_t)to;
		m->part = part;
	}
	(*n)++;
}

static int64_t ref_whole_size(int32_t s, int ds, int dt)
{
	return dt > ds ? (int64_t)s + (dt - ds) : (int64_t)s - 1 - (ds - dt);
}

/* The public order: swap; then cell by cell: from an empty cell its
 * growth targets (in cell order up to N = 7, in ray order beyond, as the
 * generator always did), from an own stack ray by ray, nearest cell first,
 * each cell's whole-stack move before its splits by growing part. */
static size_t ref_moves(const struct core_position *p, struct core_move *moves)
{
	const struct core_geom *g = p->geom;
	int me = p->to_move;
	int32_t sign = me == CORE_WHITE ? 1 : -1, tax = p->tax[me];
	size_t n = 0;

	if (p->result != CORE_ONGOING)
		return 0;
	if (p->variant.swap && p->ply == 1 && me == CORE_BLACK && !p->swapped)
		ref_add(moves, &n, CORE_MOVE_SWAP, false, -1, -1, 0);
	for (int s = 0; s < g->ncells; s++) {
		int32_t v = p->stack[s] * sign;
		int ds = g->dist[s];
		if (v < 0)
			continue;
		if (v == 0) {
			bool seen[CORE_MAX_CELLS] = { false };
			for (int d = 0; d < CORE_DIRECTIONS; d++) {
				for (int c = g->neighbour[s][d];
				     c >= 0 && p->stack[c] == 0;
				     c = g->neighbour[c][d]) {
					if (g->dist[c] - ds - tax < 1)
						continue;
					if (g->size > 7)
						ref_add(moves, &n,
							CORE_MOVE_GROWTH, false,
							s, c, 0);
					else
						seen[c] = true;
				}
			}
			for (int c = 0; c < g->ncells; c++)
				if (seen[c])
					ref_add(moves, &n, CORE_MOVE_GROWTH,
						false, s, c, 0);
			continue;
		}
		for (int d = 0; d < CORE_DIRECTIONS; d++) {
			for (int c = g->neighbour[s][d]; c >= 0;
			     c = g->neighbour[c][d]) {
				int32_t t = p->stack[c] * sign;
				int32_t at = t < 0 ? -t : t;
				bool whole = at <= v &&
					ref_whole_size(v, ds, g->dist[c]) >= 0;
				if (whole)
					ref_add(moves, &n, CORE_MOVE_WHOLE,
						t != 0, s, c, 0);
				for (int32_t k = 1; k < v; k++) {
					bool ok = k >= at && (t > 0 ?
						k >= 1 : k - tax >= 1);
					if (ok)
						ref_add(moves, &n,
							CORE_MOVE_SPLIT, t != 0,
							s, c, k);
				}
				if (t != 0)
					break;
			}
		}
	}
	return n;
}

static bool ref_can_grow(const struct core_position *p, int color)
{
	const struct core_geom *g = p->geom;

	for (int s = 0; s < g->ncells; s++) {
		if (p->stack[s] != 0)
			continue;
		for (int d = 0; d < CORE_DIRECTIONS; d++)
			for (int c = g->neighbour[s][d];
			     c >= 0 && p->stack[c] == 0; c = g->neighbour[c][d])
				if (g->dist[c] - g->dist[s] -
				    p->tax[color] >= 1)
					return true;
	}
	return false;
}

static void ref_remove(struct core_position *p, int me, int c)
{
	int owner = p->stack[c] > 0 ? CORE_WHITE : CORE_BLACK;

	p->stack[c] = 0;
	p->tax[p->variant.tax_rule == CORE_TAX_LOST ? owner : me]++;
}

/* Play by the rules as written, then recount and rehash from scratch. */
static void ref_play(struct core_position *p, const struct core_move *m)
{
	static struct core_move scratch[LIST_MAX];
	const struct core_geom *g = p->geom;
	int me = p->to_move;
	int32_t sign = me == CORE_WHITE ? 1 : -1, tax = p->tax[me];
	int passes = 0;

	if (m->kind == CORE_MOVE_SWAP) {
		p->swapped = !p->swapped;
	} else if (m->kind == CORE_MOVE_GROWTH) {
		p->stack[m->to] = sign * (g->dist[m->to] - g->dist[m->from] -
					  tax);
	} else if (m->kind == CORE_MOVE_WHOLE) {
		int64_t ns = ref_whole_size(p->stack[m->from] * sign,
					    g->dist[m->from], g->dist[m->to]);
		p->stack[m->from] = 0;
		if (p->stack[m->to] != 0)
			ref_remove(p, me, m->to);
		if (ns == 0)
			p->tax[me]++; /* spent: own stack, either rule */
		else
			p->stack[m->to] = sign * (int32_t)ns;
	} else {
		int32_t t = p->stack[m->to] * sign;
		p->stack[m->from] -= sign * m->part;
		if (t != 0)
			ref_remove(p, me, m->to);
		p->stack[m->to] = sign * (t > 0 ? m->part : m->part - tax);
	}
	p->ply++;
	if (m->kind != CORE_MOVE_SWAP)
		p->to_move ^= 1;
	p->last_kind = m->kind;
	core_position_refresh(p);
	bool out_w = p->nstacks[CORE_WHITE] == 0 && !ref_can_grow(p, 0);
	bool out_b = p->nstacks[CORE_BLACK] == 0 && !ref_can_grow(p, 1);
	if (out_w || out_b) {
		p->result = out_w && out_b ? CORE_RESULT_DRAW :
			out_w ? CORE_RESULT_BLACK : CORE_RESULT_WHITE;
		p->end_reason = CORE_END_ELIMINATION;
	} else {
		while (ref_moves(p, scratch) == 0) {
			p->ply++;
			p->to_move ^= 1;
			p->last_kind = CORE_MOVE_PASS;
			if (++passes == 2) {
				p->result = CORE_RESULT_DRAW;
				p->end_reason = CORE_END_DOUBLE_PASS;
				break;
			}
		}
	}
	p->key = core_position_key(p);
}

/* ---- Comparing ---- */

static bool same_move(const struct core_move *a, const struct core_move *b)
{
	return a->kind == b->kind && a->capture == b->capture &&
	       a->from == b->from && a->to == b->to && a->part == b->part;
}

static void same_position(const struct core_position *a,
			  const struct core_position *b)
{
	for (int c = 0; c < a->geom->ncells; c++)
		REQUIRE(a->stack[c] == b->stack[c]);
	REQUIRE(a->tax[0] == b->tax[0] && a->tax[1] == b->tax[1]);
	REQUIRE(a->nstacks[0] == b->nstacks[0]);
	REQUIRE(a->nstacks[1] == b->nstacks[1]);
	REQUIRE(a->to_move == b->to_move && a->ply == b->ply);
	REQUIRE(a->swapped == b->swapped && a->last_kind == b->last_kind);
	REQUIRE(a->result == b->result && a->end_reason == b->end_reason);
	REQUIRE(a->key == b->key);
}

static uint64_t rng_next(uint64_t *state)
{
	*state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
	return *state >> 11 ^ *state << 29;
}

/* ps describes p as a fresh core_pick_state_init() would. */
static void same_state(const struct core_pick_state *ps,
		       const struct core_position *p)
{
	struct core_pick_state fresh;

	core_pick_state_init(&fresh, p);
	REQUIRE(ps->key == fresh.key);
	REQUIRE(ps->size == fresh.size);
	REQUIRE(memcmp(ps->occ, fresh.occ, sizeof(ps->occ)) == 0);
	REQUIRE(memcmp(ps->white, fresh.white, sizeof(ps->white)) == 0);
	REQUIRE(memcmp(ps->pat, fresh.pat, sizeof(ps->pat)) == 0);
}

/* Every fast function against the reference in position p; ps: a pick
 * state the caller keeps (describing p, or another position). */
static void check_position(const struct core_position *p,
			   struct core_pick_state *ps, uint64_t *rng)
{
	static struct core_move want[LIST_MAX], got[LIST_MAX];
	size_t n = ref_moves(p, want), step;
	struct core_move m;
	struct core_pick_state before = *ps;

	REQUIRE(n <= LIST_MAX);
	REQUIRE(core_legal_moves_from(p, 0, NULL, 0) == n);
	REQUIRE(core_legal_moves_bound(p) == n);
	REQUIRE(core_legal_moves(p, got, LIST_MAX) == n);
	for (size_t i = 0; i < n; i++)
		REQUIRE(same_move(&got[i], &want[i]));
	/* Move number r, by both calls; r beyond n wraps for the picker. */
	step = n > LONG_LIST ? n / PICKS + 1 : 1;
	for (size_t r = 0; r < n; r += step) {
		memset(&m, 0xa5, sizeof(m));
		REQUIRE(core_legal_move_pick(p, r, &m) == n);
		REQUIRE(same_move(&m, &want[r]));
		memset(&m, 0xa5, sizeof(m));
		REQUIRE(core_legal_moves_from(p, r, &m, 1) == n);
		REQUIRE(same_move(&m, &want[r]));
		uint64_t big = rng_next(rng);
		REQUIRE(core_legal_move_pick(p, big, &m) == n);
		REQUIRE(same_move(&m, &want[big % n]));
	}
	/* Through the state: brought up to date first if stale. */
	for (size_t r = 0; r < n; r += step) {
		memset(&m, 0xa5, sizeof(m));
		REQUIRE(core_legal_move_pick_with(ps, p, r, &m) == n);
		REQUIRE(same_move(&m, &want[r]));
		same_state(ps, p);
	}
	/* The quiet moves: the reference's list less those that land on
	 * a stack or spend one, in the same order. */
	size_t nq = 0;
	for (size_t i = 0; i < n; i++) {
		const struct core_move *w = &want[i];
		int32_t s = p->stack[w->from < 0 ? 0 : w->from];
		bool quiet = !w->capture &&
			!(w->kind == CORE_MOVE_WHOLE &&
			  ref_whole_size(s < 0 ? -s : s, p->geom->dist[w->from],
					 p->geom->dist[w->to]) == 0);
		REQUIRE(core_move_quiet(p, w) == quiet);
		if (quiet)
			got[nq++] = *w;
	}
	step = nq > LONG_LIST ? nq / PICKS + 1 : 1;
	for (size_t r = 0; r < nq; r += step) {
		memset(&m, 0xa5, sizeof(m));
		REQUIRE(core_quiet_move_pick_with(ps, p, r, &m) == nq);
		REQUIRE(same_move(&m, &got[r]));
		uint64_t big = rng_next(rng);
		REQUIRE(core_quiet_move_pick_with(ps, p, big, &m) == nq);
		REQUIRE(same_move(&m, &got[big % nq]));
		same_state(ps, p);
	}
	if (nq == 0) {
		memset(&m, 0xa5, sizeof(m));
		struct core_move untouched = m;
		REQUIRE(core_quiet_move_pick_with(ps, p, rng_next(rng),
						  &m) == 0);
		REQUIRE(memcmp(&m, &untouched, sizeof(m)) == 0);
	}
	if (n == 0) {
		REQUIRE(core_legal_move_pick(p, rng_next(rng), &m) == 0);
		REQUIRE(core_legal_move_pick_with(ps, p, rng_next(rng),
						  &m) == 0);
		same_state(ps, p);
	}
	/* A few windows. */
	for (int w = 0; w < 4 && n > 0; w++) {
		size_t first = rng_next(rng) % n, cap = rng_next(rng) % 300 + 1;
		size_t len = n - first < cap ? n - first : cap;
		REQUIRE(core_legal_moves_from(p, first, got, cap) == n);
		for (size_t i = 0; i < len; i++)
			REQUIRE(same_move(&got[i], &want[first + i]));
	}
	/* Play a few of them both ways, and with the state: up to date,
	 * and as the caller handed it in (perhaps stale). */
	for (int i = 0; i < 6 && n > 0; i++) {
		struct core_position fast = *p, slow = *p, kept = *p;
		struct core_position stale = *p;
		struct core_pick_state ks = *ps, ss = before;
		size_t r = rng_next(rng) % n;
		core_play_unchecked(&fast, &want[r], NULL);
		ref_play(&slow, &want[r]);
		same_position(&fast, &slow);
		core_play_picked(&kept, &ks, &want[r], NULL);
		same_position(&kept, &slow);
		same_state(&ks, &kept);
		core_play_picked(&stale, &ss, &want[r], NULL);
		same_position(&stale, &slow);
		same_state(&ss, &stale);
	}
}

/* Seeded random games at N = 3..9, each position checked; the odd runs
 * with the counter that needs no popcount instruction. */
START_TEST(t_random_games)
{
	uint64_t rng = UINT64_C(0x6d6f76657069636b) + (uint64_t)_i;
	int size = 3 + _i / 2;

	core_pick_portable(_i % 2 == 1);
	int first = 0, games = size <= 5 ? 12 : size <= 7 ? 4 : 2;
	int plies = 300;

	/* The short run: fewer games, and at N = 8 and 9 (most of the
	 * time) one a run, of 100 plies at most, with the kept state in
	 * the portable runs only; both kinds still at every size. */
	if (!long_run && size <= 7) {
		games = size <= 5 ? 4 : 2;
	} else if (!long_run) {
		first = _i % 2, games = first + 1;
		plies = 100;
	}
	for (int game = first; game < games; game++) {
		struct core_variant v;
		struct core_position p;
		enum core_error err;
		struct core_move m;

		core_variant_default(&v);
		v.size = size;
		v.swap = game % 3 == 0;
		v.tax_rule = game % 4 == 1 ? CORE_TAX_LOST : CORE_TAX_REMOVED;
		ck_assert_int_eq(core_position_init(&p, &v, &err), 0);
		/* Half the games play through a state kept move by move
		 * (checked against a fresh one after every move). */
		struct core_pick_state ps;
		bool kept = game % 2 == 1;
		core_pick_state_init(&ps, &p);
		while (p.result == CORE_ONGOING && p.ply < plies) {
			struct core_pick_state copy = ps;
			check_position(&p, &copy, &rng);
			uint64_t r = rng_next(&rng);
			size_t n = core_legal_move_pick(&p, r, &m);
			REQUIRE(n > 0);
			struct core_position slow = p;
			if (kept) {
				struct core_move mk;
				REQUIRE(core_legal_move_pick_with(&ps, &p, r,
								  &mk) == n);
				REQUIRE(same_move(&mk, &m));
				core_play_picked(&p, &ps, &m, NULL);
				same_state(&ps, &p);
			} else {
				core_play_unchecked(&p, &m, NULL);
			}
			ref_play(&slow, &m);
			same_position(&p, &slow);
		}
	}
}
END_TEST

/* Positions no game may reach but the generator must get right: random
 * stacks (some big, so splits dominate), random taxes, either side. */
START_TEST(t_random_positions)
{
	uint64_t rng = UINT64_C(0x706f736974696f6e) + (uint64_t)_i;
	int size = 3 + _i / 2;

	struct core_pick_state ps;
	bool first = true;

	core_pick_portable(_i % 2 == 1);
	for (int round = 0; round < (long_run ? 80 : 28); round++) {
		struct core_variant v;
		struct core_position p;
		enum core_error err;
		int fill = (int)(rng_next(&rng) % 70) + 1;

		core_variant_default(&v);
		v.size = size;
		v.tax_rule = round % 2 ? CORE_TAX_LOST : CORE_TAX_REMOVED;
		ck_assert_int_eq(core_position_init(&p, &v, &err), 0);
		for (int c = 0; c < p.geom->ncells; c++) {
			if ((int)(rng_next(&rng) % 100) >= fill)
				continue;
			int32_t s = (int32_t)(rng_next(&rng) % 6) + 1;
			if (rng_next(&rng) % 8 == 0)
				s += (int32_t)(rng_next(&rng) % 60);
			p.stack[c] = rng_next(&rng) % 2 ? s : -s;
		}
		p.tax[0] = (int)(rng_next(&rng) % (unsigned)size);
		p.tax[1] = (int)(rng_next(&rng) % (unsigned)size);
		p.to_move = (uint8_t)(round / 2 % 2);
		p.ply = 10;
		core_position_refresh(&p);
		/* The state kept from the last round: stale, as after a
		 * hand edit of a position the state described. */
		if (first)
			core_pick_state_init(&ps, &p);
		first = false;
		check_position(&p, &ps, &rng);
	}
}
END_TEST

/* The picker takes all its randomness from the caller: the same r gives
 * the same move, and r and r + n give the same move. */
START_TEST(t_pick_is_a_function_of_r)
{
	struct core_position p;
	struct core_move a, b;
	size_t n;

	setup_pos(&p, 5, "e5=W3 c3=B2 g7=W1", 1, 0, CORE_WHITE);
	n = core_legal_move_pick(&p, 12345, &a);
	ck_assert_uint_gt(n, 0);
	ck_assert_uint_eq(core_legal_move_pick(&p, 12345 + n, &b), n);
	ck_assert(same_move(&a, &b));
	ck_assert_uint_eq(core_legal_move_pick(&p, 12345 % n, &b), n);
	ck_assert(same_move(&a, &b));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("core movepick");
	TCase *games = tcase_create("games");
	TCase *positions = tcase_create("positions");

	long_run = getenv("ASHES_TEST_LONG") != NULL;
	tcase_set_timeout(games, 120);
	tcase_set_timeout(positions, 120);
	tcase_add_loop_test(games, t_random_games, 0, 14);
	tcase_add_loop_test(positions, t_random_positions, 0, 14);
	tcase_add_test(positions, t_pick_is_a_function_of_r);
	suite_add_tcase(s, games);
	suite_add_tcase(s, positions);
	return test_run(s);
}
