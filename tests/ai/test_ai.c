/* test_ai.c -- the search and the levels: forced wins in one and in two
 * found, the same move for the same seed, no illegal move in 1,000
 * self-play games, level 1 never missing an immediate win, and the
 * errors of ai_choose.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "ai/ai.h"
#include "../core/core-test.h"
#include "../check_run.h"

/* All legal moves of p into a new array (free it); *n_r the count. */
static struct core_move *all_moves(const struct core_position *p, size_t *n_r)
{
	size_t cap = core_legal_moves_bound(p) + 1;
	struct core_move *m = malloc(cap * sizeof(*m));

	ck_assert_ptr_nonnull(m);
	*n_r = core_legal_moves(p, m, cap);
	ck_assert_uint_le(*n_r, cap);
	return m;
}

static enum core_result win_of(int color)
{
	return color == CORE_WHITE ? CORE_RESULT_WHITE : CORE_RESULT_BLACK;
}

static bool forced_win(const struct core_position *p, int n);

/* After a move of `me` (a ongoing): does every answer leave `me` a win
 * within n of its moves?  An answer that gives `me` the move again
 * (a pass) is not counted as forced: the brute force stays simple. */
static bool replies_lose(const struct core_position *a, int me, int n)
{
	struct core_move *m;
	size_t k, cnt;
	bool lose = true;

	if (a->to_move == me)
		return false;
	m = all_moves(a, &cnt);
	for (k = 0; k < cnt && lose; k++) {
		struct core_position b = *a;

		core_play_unchecked(&b, &m[k], NULL);
		if (b.result == win_of(me))
			continue;
		lose = b.result == CORE_ONGOING && b.to_move == me &&
			forced_win(&b, n);
	}
	free(m);
	return lose;
}

/* Can the side to move force a win within n of its own moves? */
static bool forced_win(const struct core_position *p, int n)
{
	struct core_move *m;
	size_t k, cnt;
	bool win = false;

	m = all_moves(p, &cnt);
	for (k = 0; k < cnt && !win; k++) {
		struct core_position a = *p;

		core_play_unchecked(&a, &m[k], NULL);
		if (a.result == win_of(p->to_move))
			win = true;
		else if (n > 1 && a.result == CORE_ONGOING)
			win = replies_lose(&a, p->to_move, n - 1);
	}
	free(m);
	return win;
}

/* Does `move` win within n moves of the mover (n = 1: at once)? */
static bool move_wins(const struct core_position *p,
		      const struct core_move *move, int n)
{
	struct core_position a = *p;

	core_play_unchecked(&a, move, NULL);
	if (a.result == win_of(p->to_move))
		return true;
	return n > 1 && a.result == CORE_ONGOING &&
		replies_lose(&a, p->to_move, n - 1);
}

static void choose_ok(const struct core_position *p, int level, long playouts,
		      uint64_t seed, struct core_move *m)
{
	struct ai_options opt;
	enum core_error err = CORE_OK;

	ai_options_default(&opt, level);
	opt.seed = seed;
	if (playouts > 0) {
		opt.max_playouts = playouts;
		opt.time_ms = -1;
	}
	ck_assert_msg(ai_choose(p, &opt, m, NULL, 0, NULL, &err) == 0,
		      "ai_choose: %s", core_error_name(err));
}

/* Positions of seeded games at size N played by levels 1 and 2 (tiny
 * budget), handed to fn until it returns true or `games` games end. */
static void walk_games(int size, int games,
		       bool (*fn)(const struct core_position *, void *),
		       void *arg)
{
	struct core_variant v;
	int g;

	core_variant_default(&v);
	v.size = size;
	for (g = 0; g < games; g++) {
		struct core_position p;
		enum core_error err;

		ck_assert_int_eq(core_position_init(&p, &v, &err), 0);
		while (p.result == CORE_ONGOING) {
			struct core_move m;

			if (fn(&p, arg))
				return;
			choose_ok(&p, 1 + (p.ply + g) % 2, 4,
				  (uint64_t)g * 7919 + (uint64_t)p.ply, &m);
			core_play_unchecked(&p, &m, NULL);
		}
	}
}

/* N = 4: White's capture of Black's last stack wins at once (Black's
 * tax is too high to grow); White has dozens of other moves. */
START_TEST(test_win_in_one)
{
	struct core_position p;
	struct core_move m;
	size_t n;
	int level;

	setup_pos(&p, 4, "a1=W3 c3=B2 g7=W1 d4=W2", 0, 9, CORE_WHITE);
	free(all_moves(&p, &n));
	ck_assert_uint_gt(n, 20);
	ck_assert(forced_win(&p, 1));
	for (level = AI_LEVEL_MIN; level <= 4; level++) {
		choose_ok(&p, level, 0, 42, &m);
		ck_assert_msg(move_wins(&p, &m, 1), "level %d missed it",
			      level);
	}
}
END_TEST

struct win2_hunt {
	struct core_position found[3];
	int nfound;
};

/* A position where the side to move wins in two and not in one. */
static bool hunt_win2(const struct core_position *p, void *arg)
{
	struct win2_hunt *h = arg;

	if (p->nstacks[p->to_move ^ 1] > 2 || p->nstacks[p->to_move ^ 1] == 0)
		return false;
	if (forced_win(p, 1) || !forced_win(p, 2))
		return false;
	h->found[h->nfound++] = *p;
	return h->nfound == 3;
}

/* Forced wins in two, from real games at N = 4 (checked by brute force):
 * the search plays a move after which every answer loses at once. */
START_TEST(test_win_in_two)
{
	struct win2_hunt h = { .nfound = 0 };
	int i;

	walk_games(4, 400, hunt_win2, &h);
	ck_assert_int_eq(h.nfound, 3);
	for (i = 0; i < h.nfound; i++) {
		struct core_move m;

		choose_ok(&h.found[i], 3, 4000, 7, &m);
		ck_assert_msg(move_wins(&h.found[i], &m, 2),
			      "position %d: not a win in two", i);
	}
}
END_TEST

/* Bounded by playouts, the same seed gives the same move and the same
 * candidates; the candidates come best first. */
START_TEST(test_same_seed)
{
	struct core_position p;
	struct ai_options opt;
	struct ai_candidate a[5], b[5];
	struct core_move ma, mb;
	size_t na, nb, k;
	enum core_error err;

	setup_pos(&p, 5, "e5=W2 c3=B3 g7=W1 a1=B1 i9=W4", 1, 1, CORE_BLACK);
	ai_options_default(&opt, 3);
	opt.seed = 12345;
	ck_assert_int_eq(ai_choose(&p, &opt, &ma, a, 5, &na, &err), 0);
	ck_assert_int_eq(ai_choose(&p, &opt, &mb, b, 5, &nb, &err), 0);
	ck_assert_uint_eq(na, 5);
	ck_assert_uint_eq(nb, na);
	ck_assert(memcmp(&ma, &mb, sizeof(ma)) == 0);
	ck_assert(memcmp(&ma, &a[0].move, sizeof(ma)) == 0);
	for (k = 0; k < na; k++) {
		ck_assert(memcmp(&a[k].move, &b[k].move, sizeof(ma)) == 0);
		ck_assert_int_eq(a[k].visits, b[k].visits);
		ck_assert(a[k].value >= 0.0 && a[k].value <= 1.0);
		if (k > 0)
			ck_assert_int_ge(a[k - 1].visits, a[k].visits);
	}
	ck_assert_int_gt(a[0].visits, 0);
}
END_TEST

/* 1,000 self-play games at N = 3 and 4, with swap and tax=lost in some:
 * every move the bot chooses passes core_check_move, and a finished game
 * is refused with CORE_ERR_GAME_OVER. */
START_TEST(test_selfplay_legal)
{
	long moves = 0;
	int g;

	for (g = 0; g < 1000; g++) {
		struct core_variant v;
		struct core_position p;
		struct ai_options opt;
		struct core_move m;
		enum core_error err;

		core_variant_default(&v);
		v.size = g % 3 == 2 ? 4 : 3;
		v.swap = g % 3 == 0;
		v.tax_rule = g % 5 == 0 ? CORE_TAX_LOST : CORE_TAX_REMOVED;
		ck_assert_int_eq(core_position_init(&p, &v, &err), 0);
		while (p.result == CORE_ONGOING) {
			struct core_move check;

			ai_options_default(&opt, 1 + (p.ply + g) % 3);
			opt.max_playouts = 2;
			opt.seed = (uint64_t)g;
			ck_assert_int_eq(ai_choose(&p, &opt, &m, NULL, 0, NULL,
						   &err), 0);
			check = m;
			ck_assert_msg(core_check_move(&p, &check, &err) == 0,
				      "game %d ply %d: %s", g, p.ply,
				      core_error_name(err));
			ck_assert_int_eq(check.kind, m.kind);
			ck_assert_int_eq(check.capture, m.capture);
			core_play_unchecked(&p, &m, NULL);
			moves++;
		}
		ck_assert_int_eq(ai_choose(&p, &opt, &m, NULL, 0, NULL, &err),
				 -1);
		ck_assert_int_eq(err, CORE_ERR_GAME_OVER);
	}
	ck_assert_int_gt(moves, 10000);
}
END_TEST

struct win1_count {
	int seen;
};

/* Wherever a win in one exists, level 1 takes it, whatever the seed. */
static bool check_level1(const struct core_position *p, void *arg)
{
	struct win1_count *c = arg;
	uint64_t seed;

	if (p->nstacks[p->to_move ^ 1] > 1 || !forced_win(p, 1))
		return false;
	c->seen++;
	for (seed = 0; seed < 8; seed++) {
		struct core_move m;

		choose_ok(p, 1, 0, seed, &m);
		ck_assert_msg(move_wins(p, &m, 1), "missed a win, seed %llu",
			      (unsigned long long)seed);
	}
	return c->seen >= 200;
}

START_TEST(test_level1_takes_wins)
{
	struct win1_count c = { 0 };

	walk_games(3, 2000, check_level1, &c);
	walk_games(4, 2000, check_level1, &c);
	ck_assert_int_ge(c.seen, 200);
}
END_TEST

START_TEST(test_errors)
{
	struct core_position p;
	struct ai_options opt;
	struct ai_candidate top[2];
	struct core_move m;
	size_t n = 9;
	enum core_error err = CORE_OK;

	/* White has no stack and cannot grow (tax), so no legal move: the
	 * rules pass for it. */
	setup_pos(&p, 3, "a1=B1", 9, 0, CORE_WHITE);
	ai_options_default(&opt, 3);
	ck_assert_int_eq(ai_choose(&p, &opt, &m, top, 2, &n, &err), -1);
	ck_assert_int_eq(err, CORE_ERR_BAD_ARGUMENT);
	ck_assert_uint_eq(n, 0);
	/* Options: levels clamped, time only for the top level. */
	ai_options_default(&opt, 0);
	ck_assert_int_eq(opt.level, AI_LEVEL_MIN);
	ai_options_default(&opt, 99);
	ck_assert_int_eq(opt.level, AI_LEVEL_MAX);
	ck_assert_int_gt(opt.time_ms, 0);
	ai_options_default(&opt, 4);
	ck_assert_int_eq(opt.time_ms, 0);
	ck_assert_int_gt(opt.max_playouts, 0);
}
END_TEST

/* About 10 s of CPU in all; the wall time of a shared, loaded machine
 * can be ten times that. */
TEST_MAIN("ai", "search", NULL, NULL, 600, test_win_in_one, test_win_in_two,
	  test_same_seed, test_selfplay_legal, test_level1_takes_wins,
	  test_errors)
