/* test_perft.c -- move-generator counts: the spec's worked checks as
 * golden data, and counts for N = 4 (depth 3) and 5 (depth 2; depth 3,
 * 52 million leaves, under ASHES_TEST_LONG=1: `make bench`) derived a
 * second time by
 * a slow reference implementation of the rules written here from
 * RULES-SPEC.md alone (axial arithmetic, brute force over every FROM, TO
 * and K), which also checks each position's legal moves, one by one,
 * against core_legal_moves() and core_check_move().
 */
#include "core-test.h"
#include "../check_run.h"

/* Check records the place of every passing ck_assert (a write to a file),
 * far too slow for millions of comparisons: only call it on failure. */
#define REQUIRE(cond) do { \
	if (!(cond)) \
		ck_abort_msg("%s:%d: %s", __FILE__, __LINE__, #cond); \
} while (0)

/* ---- The reference: plain axial arithmetic, no tables from the core ---- */

#define RMAX 12
#define SPAN (2 * RMAX + 1)

struct ref {
	int n, r;
	bool tax_lost, swap_game;
	int v[SPAN][SPAN]; /* v[x + r][y + r]: > 0 white, < 0 black */
	int tax[2];
	int to_move, ply;
	bool swapped, over;
};

struct ref_move {
	int kind; /* enum core_move_kind */
	int sx, sy, tx, ty, k;
};

static bool ref_on(const struct ref *b, int x, int y)
{
	return abs(x) <= b->r && abs(y) <= b->r && abs(x - y) <= b->r;
}

static int ref_dist(int x, int y)
{
	int d = abs(x);

	if (abs(y) > d)
		d = abs(y);
	if (abs(x - y) > d)
		d = abs(x - y);
	return d;
}

static int *ref_at(struct ref *b, int x, int y)
{
	return &b->v[x + b->r][y + b->r];
}

static int ref_get(const struct ref *b, int x, int y)
{
	return b->v[x + b->r][y + b->r];
}

/* T visible from S: on one of the six lines, nothing strictly between. */
static bool ref_visible(const struct ref *b, int sx, int sy, int tx, int ty)
{
	int dx = tx - sx, dy = ty - sy, steps, ux, uy;

	if (dx == 0 && dy == 0)
		return false;
	if (!(dx == 0 || dy == 0 || dx == dy))
		return false;
	steps = abs(dx) > abs(dy) ? abs(dx) : abs(dy);
	ux = dx / steps;
	uy = dy / steps;
	for (int i = 1; i < steps; i++)
		if (ref_get(b, sx + i * ux, sy + i * uy) != 0)
			return false;
	return true;
}

/* Is (S, T, k) legal for `color`?  k = 0: growth or whole stack. */
static bool ref_legal(const struct ref *b, int color, int sx, int sy, int tx,
		      int ty, int k)
{
	int sign = color == CORE_WHITE ? 1 : -1;
	int s = ref_get(b, sx, sy) * sign, t = ref_get(b, tx, ty) * sign;
	int ds = ref_dist(sx, sy), dt = ref_dist(tx, ty), tax = b->tax[color];

	if (s < 0 || !ref_visible(b, sx, sy, tx, ty))
		return false;
	if (s == 0) /* growth */
		return k == 0 && t == 0 && dt > ds && dt - ds - tax >= 1;
	if (k == 0) { /* whole stack */
		int now = dt > ds ? s + dt - ds : s - 1 - (ds - dt);
		return abs(t) <= s && now >= 0;
	}
	if (k < 1 || k > s - 1 || abs(t) > k)
		return false;
	return t > 0 ? true : k - tax >= 1;
}

static int ref_moves(const struct ref *b, int color, struct ref_move *out,
		     int cap, bool growth_only)
{
	int n = 0;

	if (!growth_only && b->swap_game && b->ply == 1 && !b->swapped &&
	    color == CORE_BLACK) {
		if (n < cap)
			out[n] = (struct ref_move){ CORE_MOVE_SWAP, 0, 0, 0, 0, 0 };
		n++;
	}
	for (int sx = -b->r; sx <= b->r; sx++)
	for (int sy = -b->r; sy <= b->r; sy++) {
		if (!ref_on(b, sx, sy))
			continue;
		int s = abs(ref_get(b, sx, sy));
		if (growth_only && s != 0)
			continue;
		for (int tx = -b->r; tx <= b->r; tx++)
		for (int ty = -b->r; ty <= b->r; ty++) {
			if (!ref_on(b, tx, ty))
				continue;
			for (int k = 0; k <= (s > 1 ? s - 1 : 0); k++) {
				if (!ref_legal(b, color, sx, sy, tx, ty, k))
					continue;
				if (n < cap)
					out[n] = (struct ref_move){
						s == 0 ? CORE_MOVE_GROWTH :
						k == 0 ? CORE_MOVE_WHOLE :
						CORE_MOVE_SPLIT,
						sx, sy, tx, ty, k };
				n++;
			}
		}
	}
	return n;
}

static void ref_remove(struct ref *b, int x, int y, int mover)
{
	int owner = ref_get(b, x, y) > 0 ? CORE_WHITE : CORE_BLACK;

	*ref_at(b, x, y) = 0;
	b->tax[b->tax_lost ? owner : mover]++;
}

static bool ref_stuck(const struct ref *b, int color)
{
	struct ref_move m;

	return ref_moves(b, color, &m, 0, false) == 0;
}

static void ref_play(struct ref *b, const struct ref_move *m)
{
	int me = b->to_move, sign = me == CORE_WHITE ? 1 : -1;
	int tax = b->tax[me];

	if (m->kind == CORE_MOVE_SWAP) {
		b->swapped = true;
		b->ply++;
	} else {
		int s = abs(ref_get(b, m->sx, m->sy));
		int t = ref_get(b, m->tx, m->ty) * sign;
		int ds = ref_dist(m->sx, m->sy), dt = ref_dist(m->tx, m->ty);
		int arrive, removals_by_me = 0;

		if (t != 0) {
			ref_remove(b, m->tx, m->ty, me);
			removals_by_me++;
		}
		if (m->kind == CORE_MOVE_GROWTH) {
			arrive = dt - ds - tax;
		} else if (m->kind == CORE_MOVE_WHOLE) {
			arrive = dt > ds ? s + dt - ds : s - 1 - (ds - dt);
			*ref_at(b, m->sx, m->sy) = 0;
		} else {
			arrive = t > 0 ? m->k : m->k - tax;
			*ref_at(b, m->sx, m->sy) = sign * (s - m->k);
		}
		if (arrive == 0) { /* spent */
			b->tax[me]++;
		} else {
			*ref_at(b, m->tx, m->ty) = sign * arrive;
		}
		(void)removals_by_me;
		b->ply++;
		b->to_move ^= 1;
	}
	/* Elimination: no stack and no growth move. */
	bool out[2];
	for (int c = 0; c < 2; c++) {
		int stacks = 0;
		struct ref_move g;
		for (int x = -b->r; x <= b->r; x++)
			for (int y = -b->r; y <= b->r; y++)
				if (ref_on(b, x, y) &&
				    ref_get(b, x, y) * (c == 0 ? 1 : -1) > 0)
					stacks++;
		out[c] = stacks == 0 && ref_moves(b, c, &g, 0, true) == 0;
	}
	if (out[0] || out[1]) {
		b->over = true;
		return;
	}
	if (ref_stuck(b, b->to_move)) {
		b->ply++;
		b->to_move ^= 1;
		if (ref_stuck(b, b->to_move))
			b->over = true;
	}
}

static void ref_init(struct ref *b, const struct core_variant *v)
{
	memset(b, 0, sizeof(*b));
	b->n = v->size;
	b->r = v->size - 1;
	b->tax_lost = v->tax_rule == CORE_TAX_LOST;
	b->swap_game = v->swap;
}

static uint64_t ref_perft(const struct ref *b, int depth)
{
	static struct ref_move moves[6][4096];
	uint64_t leaves = 0;
	int n;

	if (b->over || depth == 0)
		return 1;
	n = ref_moves(b, b->to_move, moves[depth], 4096, false);
	REQUIRE((n) <= (4096));
	if (depth == 1)
		return (uint64_t)n;
	for (int i = 0; i < n; i++) {
		struct ref child = *b;
		ref_play(&child, &moves[depth][i]);
		leaves += ref_perft(&child, depth - 1);
	}
	return leaves;
}

/* ---- Comparing the core with the reference ---- */

/* The reference's cell name, built from the spec's naming rule. */
static int core_cell_of(const struct core_position *p, int r, int x, int y)
{
	char name[16];

	snprintf(name, sizeof(name), "%c%d", 'a' + x + r, y + r + 1);
	return core_cell_parse(p->geom, name, strlen(name));
}

static void same_position(const struct ref *b, const struct core_position *p)
{
	for (int x = -b->r; x <= b->r; x++)
		for (int y = -b->r; y <= b->r; y++)
			if (ref_on(b, x, y))
				if (ref_get(b, x, y) !=
				    p->stack[core_cell_of(p, b->r, x, y)])
					ck_abort_msg(
					"ply %d, (%d, %d): reference %d, core %d",
					p->ply, x, y, ref_get(b, x, y),
					p->stack[core_cell_of(p, b->r, x, y)]);
	REQUIRE((b->tax[0]) == (p->tax[0]));
	REQUIRE((b->tax[1]) == (p->tax[1]));
	REQUIRE((b->over) == (p->result != CORE_ONGOING));
	if (!b->over) {
		REQUIRE((b->to_move) == (p->to_move));
		REQUIRE((b->ply) == (p->ply));
	}
}

static int move_cmp(const void *a, const void *b)
{
	const struct core_move *m = a, *n = b;

	if (m->kind != n->kind)
		return m->kind - n->kind;
	if (m->from != n->from)
		return m->from - n->from;
	if (m->to != n->to)
		return m->to - n->to;
	return (m->part > n->part) - (m->part < n->part);
}

/* Walk both engines `depth` plies deep, checking at every node that the
 * legal moves agree (generator, reference and core_check_move over every
 * FROM, TO, K) and that playing them gives the same position. */
static void cross_check(const struct ref *b, const struct core_position *p,
			int depth, bool sweep)
{
	struct ref_move rm[4096];
	struct core_move cm[4096], mine[4096], sorted[4096];
	int n;
	size_t cn, ncheck = 0;

	same_position(b, p);
	if (b->over || depth == 0)
		return;
	n = ref_moves(b, b->to_move, rm, 4096, false);
	cn = core_legal_moves(p, cm, 4096);
	REQUIRE((cn) == ((size_t)n));
	REQUIRE((core_legal_moves_bound(p)) == (cn));
	for (int i = 0; i < n; i++) {
		struct core_move *m = &mine[i];
		m->kind = (uint8_t)rm[i].kind;
		m->from = rm[i].kind == CORE_MOVE_SWAP ? -1 :
			(int16_t)core_cell_of(p, b->r, rm[i].sx, rm[i].sy);
		m->to = rm[i].kind == CORE_MOVE_SWAP ? -1 :
			(int16_t)core_cell_of(p, b->r, rm[i].tx, rm[i].ty);
		m->part = rm[i].k;
		m->capture = rm[i].kind != CORE_MOVE_SWAP &&
			p->stack[m->to] != 0;
	}
	memcpy(sorted, mine, cn * sizeof(mine[0]));
	qsort(cm, cn, sizeof(cm[0]), move_cmp);
	qsort(sorted, cn, sizeof(sorted[0]), move_cmp);
	for (size_t i = 0; i < cn; i++) {
		REQUIRE(move_cmp(&cm[i], &sorted[i]) == 0);
		REQUIRE((cm[i].capture) == (sorted[i].capture));
	}
	/* core_check_move accepts exactly these (FROM, TO, K). */
	for (int from = sweep ? 0 : p->geom->ncells;
	     from < p->geom->ncells; from++) {
		int s = core_stack_size(p, from);
		for (int to = 0; to < p->geom->ncells; to++) {
			for (int k = 0; k <= s + 1; k++) {
				struct core_move m = {
					.kind = k == 0 ? CORE_MOVE_WHOLE :
						CORE_MOVE_SPLIT,
					.from = (int16_t)from, .to = (int16_t)to,
					.part = k,
				};
				enum core_error err;
				if (core_check_move(p, &m, &err) == 0) {
					ncheck++;
					REQUIRE(bsearch(&m, cm, cn, sizeof(cm[0]),
							move_cmp) != NULL);
				}
			}
		}
	}
	struct core_move sw = { .kind = CORE_MOVE_SWAP, .from = -1, .to = -1 };
	enum core_error swap_err;
	if (core_check_move(p, &sw, &swap_err) == 0)
		ncheck++;
	REQUIRE(!sweep || ncheck == cn);
	for (int i = 0; i < n; i++) {
		struct ref child = *b;
		struct core_position next = *p;
		struct core_move m = mine[i];
		enum core_error err;
		ref_play(&child, &rm[i]);
		REQUIRE(core_play(&next, &m, NULL, &err) == 0);
		cross_check(&child, &next, depth - 1, sweep);
	}
}

/* ---- Tests ---- */

static uint64_t perft_of(int size, int depth)
{
	struct core_variant v;
	struct core_position p;
	enum core_error err;

	core_variant_default(&v);
	v.size = size;
	ck_assert_int_eq(core_position_init(&p, &v, &err), 0);
	return core_perft(&p, depth);
}

START_TEST(t_spec_worked_checks)
{
	ck_assert_uint_eq(perft_of(5, 1), 384);
	ck_assert_uint_eq(perft_of(3, 1), 48);
	ck_assert_uint_eq(perft_of(3, 2), 2088);
	ck_assert_uint_eq(perft_of(3, 3), 94428);
	ck_assert_uint_eq(perft_of(4, 1), 162);
	ck_assert_uint_eq(perft_of(6, 1), 750);
	ck_assert_uint_eq(perft_of(7, 1), 1296);
}
END_TEST

/* Our own golden counts, derived by both engines (see below). */
#define PERFT_N4_D3 UINT64_C(3793212)
#define PERFT_N5_D2 UINT64_C(140700)
#define PERFT_N5_D3 UINT64_C(51999858)

/* Both engines count WANT leaves at DEPTH on the default board of SIZE. */
static void perft_both(int size, int depth, uint64_t want)
{
	struct core_variant v;
	struct ref b;

	core_variant_default(&v);
	v.size = size;
	ref_init(&b, &v);
	ck_assert_uint_eq(ref_perft(&b, depth), want);
	ck_assert_uint_eq(perft_of(size, depth), want);
}

START_TEST(t_perft_n4_depth3)
{
	perft_both(4, 3, PERFT_N4_D3);
}
END_TEST

START_TEST(t_perft_n5_depth2)
{
	perft_both(5, 2, PERFT_N5_D2);
}
END_TEST

START_TEST(t_perft_n5_depth3)
{
	perft_both(5, 3, PERFT_N5_D3);
}
END_TEST

START_TEST(t_reference_spec_checks)
{
	/* The reference meets the spec's numbers on its own. */
	struct core_variant v;
	struct ref b;

	core_variant_default(&v);
	for (v.size = 3; v.size <= 7; v.size++) {
		static const uint64_t want[] = { 48, 162, 384, 750, 1296 };
		ref_init(&b, &v);
		ck_assert_uint_eq(ref_perft(&b, 1), want[v.size - 3]);
	}
	v.size = 3;
	ref_init(&b, &v);
	ck_assert_uint_eq(ref_perft(&b, 3), 94428);
}
END_TEST

/* Move by move at N = 3 (depth 3) and N = 4 (depth 2), in all variants. */
START_TEST(t_cross_check_variants)
{
	for (int variant = 0; variant < 4; variant++) {
		struct core_variant v;
		struct core_position p;
		enum core_error err;
		struct ref b;

		core_variant_default(&v);
		v.swap = variant & 1;
		v.tax_rule = variant & 2 ? CORE_TAX_LOST : CORE_TAX_REMOVED;
		v.size = 3;
		ref_init(&b, &v);
		ck_assert_int_eq(core_position_init(&p, &v, &err), 0);
		cross_check(&b, &p, variant == 0 ? 3 : 2, true);
		v.size = 4;
		ref_init(&b, &v);
		ck_assert_int_eq(core_position_init(&p, &v, &err), 0);
		cross_check(&b, &p, variant == 0 ? 2 : 1, true);
	}
}
END_TEST

/* Deeper into real games: seeded random play, checking each position
 * reached against the reference one ply deep. */
START_TEST(t_cross_check_random_games)
{
	uint64_t rng = UINT64_C(0x1234567) + (uint64_t)_i;
	struct core_move moves[4096];

	for (int game = 0; game < 12; game++) {
		struct core_variant v;
		struct core_position p;
		enum core_error err;
		struct ref b;

		core_variant_default(&v);
		v.size = 3 + game % 3;
		v.swap = game % 3 == 0;
		v.tax_rule = game % 5 == 1 ? CORE_TAX_LOST : CORE_TAX_REMOVED;
		ref_init(&b, &v);
		ck_assert_int_eq(core_position_init(&p, &v, &err), 0);
		while (p.result == CORE_ONGOING && p.ply < 300) {
			struct ref_move rm[4096];
			cross_check(&b, &p, 1, p.ply % 8 == 0);
			size_t n = core_legal_moves(&p, moves, 4096);
			REQUIRE(n > 0 && n <= 4096);
			rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
			struct core_move m = moves[(rng >> 33) % n];
			/* The same move for the reference. */
			int rn = ref_moves(&b, b.to_move, rm, 4096, false), j;
			for (j = 0; j < rn; j++) {
				if (rm[j].kind != m.kind)
					continue;
				if (m.kind == CORE_MOVE_SWAP)
					break;
				if (core_cell_of(&p, b.r, rm[j].sx, rm[j].sy) == m.from &&
				    core_cell_of(&p, b.r, rm[j].tx, rm[j].ty) == m.to &&
				    rm[j].k == m.part)
					break;
			}
			REQUIRE(j < rn);
			ref_play(&b, &rm[j]);
			core_play_unchecked(&p, &m, NULL);
			same_position(&b, &p);
		}
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("core perft");
	TCase *golden = tcase_create("golden");
	TCase *n4 = tcase_create("n4");
	TCase *n5 = tcase_create("n5");
	TCase *cross = tcase_create("cross");
	TCase *games = tcase_create("games");

	/* Check's default of 4 s (wall clock) is too short for the deep
	 * counts on a loaded machine or under the sanitizers. */
	tcase_set_timeout(n4, 120);
	tcase_set_timeout(n5, 600);
	tcase_set_timeout(cross, 120);
	tcase_set_timeout(games, 120);
	tcase_add_test(golden, t_spec_worked_checks);
	tcase_add_test(golden, t_reference_spec_checks);
	tcase_add_test(n4, t_perft_n4_depth3);
	tcase_add_test(n5, t_perft_n5_depth2);
	/* the long count: make bench */
	if (getenv("ASHES_TEST_LONG"))
		tcase_add_test(n5, t_perft_n5_depth3);
	tcase_add_test(cross, t_cross_check_variants);
	tcase_add_loop_test(games, t_cross_check_random_games, 0, 4);
	suite_add_tcase(s, golden);
	suite_add_tcase(s, n4);
	suite_add_tcase(s, n5);
	suite_add_tcase(s, cross);
	suite_add_tcase(s, games);
	return test_run(s);
}
