/* test_swiss.c -- the Swiss pairing (server/swiss.h): the first round's
 * S1-S2 pairing and colours, score groups and floats, the bye, and
 * seeded random events of 5-40 players over 3-9 rounds (with results,
 * draws and withdrawals) in which no pair meets twice and colours stay
 * within one whenever that is possible -- which, for fields of up to 12
 * players, an independent brute force over every pairing decides -- and
 * in which the step bound never changes a pairing (a bound of one step
 * pairs by the matching test alone, with the same result). */
#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "server/swiss.h"
#include "../check_run.h"
#include "event_test.h"

#define MAXP 48

/* --- An independent brute force --- */

/* Whether a pair may be given colours so that each player's whites
 * minus blacks ends within limit, or nearer 0 (limit 0: any). */
static bool bf_colours(int da, int db, int limit)
{
	int k, na, nb;

	if (limit == 0)
		return true;
	for (k = 0; k < 2; k++) {
		na = da + (k == 0 ? 1 : -1);
		nb = db + (k == 0 ? -1 : 1);
		if ((abs(na) <= limit || abs(na) < abs(da)) &&
		    (abs(nb) <= limit || abs(nb) < abs(db)))
			return true;
	}
	return false;
}

struct bf {
	const struct swiss_player *pl;
	size_t n;
	const bool *met;
	int limit;
	bool repeats;
	bool used[MAXP];
};

/* Whether every active player not used can be paired. */
static bool bf_rest(struct bf *b)
{
	size_t i, j;

	for (i = 0; i < b->n && (!b->pl[i].active || b->used[i]); i++)
		;
	if (i == b->n)
		return true;
	b->used[i] = true;
	for (j = i + 1; j < b->n; j++) {
		if (!b->pl[j].active || b->used[j] ||
		    (!b->repeats && b->met[i * b->n + j]) ||
		    !bf_colours(b->pl[i].colour_diff, b->pl[j].colour_diff,
				b->limit))
			continue;
		b->used[j] = true;
		if (bf_rest(b)) {
			b->used[i] = b->used[j] = false;
			return true;
		}
		b->used[j] = false;
	}
	b->used[i] = false;
	return false;
}

/* Whether the round can be paired with the bye to bye (-1: none). */
static bool bf_with_bye(struct bf *b, ptrdiff_t bye)
{
	bool ok;

	memset(b->used, 0, sizeof(b->used));
	if (bye >= 0)
		b->used[bye] = true;
	ok = bf_rest(b);
	memset(b->used, 0, sizeof(b->used));
	return ok;
}

/* The players by rank (points, then seed) into order; their number. */
static size_t bf_ranked(const struct swiss_player *pl, size_t n,
			size_t *order)
{
	size_t m = 0, i, j, t;

	for (i = 0; i < n; i++)
		if (pl[i].active)
			order[m++] = i;
	for (i = 1; i < m; i++)
		for (j = i; j > 0 && pl[order[j]].points >
				     pl[order[j - 1]].points; j--) {
			t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	return m;
}

/* The level a pairing must have been found at, by brute force, and the
 * bye it must have given at levels 0-2 (-1 for none or another level). */
static int bf_level(const struct swiss_player *pl, size_t n,
		    const bool *met, ptrdiff_t *bye_r)
{
	static const int limits[3] = { 1, 2, 0 };
	struct bf b = { .pl = pl, .n = n, .met = met };
	size_t order[MAXP], m = bf_ranked(pl, n, order), i;
	int lvl;

	*bye_r = -1;
	for (lvl = 0; lvl < 6; lvl++) {
		b.limit = limits[lvl % 3];
		if (m % 2 == 0) {
			if (lvl < 3 && bf_with_bye(&b, -1))
				return lvl;
			continue;
		}
		for (i = m; i-- > 0;) {
			if (lvl < 3 && pl[order[i]].byes > 0)
				continue;
			if (bf_with_bye(&b, (ptrdiff_t)order[i])) {
				if (lvl < 3)
					*bye_r = (ptrdiff_t)order[i];
				return lvl;
			}
		}
	}
	return 6;
}

/* --- Hand-made cases --- */

static void players_fresh(struct swiss_player *pl, size_t n)
{
	size_t i;

	memset(pl, 0, n * sizeof(*pl));
	for (i = 0; i < n; i++)
		pl[i].active = true;
}

START_TEST(test_first_round)
{
	struct swiss_player pl[9];
	bool met[81] = { false };
	struct tournament_pair p[4];
	struct swiss_report rep;
	size_t np;
	ptrdiff_t bye;

	players_fresh(pl, 8);
	ck_assert_int_eq(swiss_pair(pl, 8, met, 0, p, &np, &bye, &rep, NULL),
			 0);
	ck_assert_uint_eq(np, 4);
	ck_assert_int_eq(bye, -1);
	ck_assert_int_eq(rep.level, 0);
	/* S1 = seeds 1-4 meet S2 = 5-8; seed 1 White, then alternating */
	ck_assert_uint_eq(p[0].white, 0);
	ck_assert_uint_eq(p[0].black, 4);
	ck_assert_uint_eq(p[1].white, 5);
	ck_assert_uint_eq(p[1].black, 1);
	ck_assert_uint_eq(p[2].white, 2);
	ck_assert_uint_eq(p[2].black, 6);
	ck_assert_uint_eq(p[3].white, 7);
	ck_assert_uint_eq(p[3].black, 3);
	/* an odd field: the lowest seed has the bye */
	players_fresh(pl, 9);
	ck_assert_int_eq(swiss_pair(pl, 9, met, 0, p, &np, &bye, NULL, NULL),
			 0);
	ck_assert_uint_eq(np, 4);
	ck_assert_int_eq(bye, 8);
	ck_assert_uint_eq(p[0].black, 4);
}
END_TEST

START_TEST(test_groups_and_floats)
{
	struct swiss_player pl[6];
	bool met[36] = { false };
	struct tournament_pair p[3];
	size_t np;
	ptrdiff_t bye;

	/* three on 2, three on 0: 0 v 1 in the top group (S1 {0}, S2
	 * {1, 2}), 2 floats down to meet 3; 4 v 5 */
	players_fresh(pl, 6);
	pl[0].points = pl[1].points = pl[2].points = 2;
	ck_assert_int_eq(swiss_pair(pl, 6, met, 0, p, &np, &bye, NULL, NULL),
			 0);
	ck_assert_uint_eq(np, 3);
	ck_assert_uint_eq(p[0].white + p[0].black, 0 + 1);
	ck_assert_uint_eq(p[1].white + p[1].black, 2 + 3);
	ck_assert_uint_eq(p[2].white + p[2].black, 4 + 5);
	/* 0 and 1 met: 0 takes 2 (S2's next), 1 floats down */
	met[0 * 6 + 1] = met[1 * 6 + 0] = true;
	ck_assert_int_eq(swiss_pair(pl, 6, met, 0, p, &np, &bye, NULL, NULL),
			 0);
	ck_assert_uint_eq(p[0].white + p[0].black, 0 + 2);
	ck_assert_uint_eq(p[1].white + p[1].black, 1 + 3);
	/* colours: the lower difference takes White; equal: who had Black */
	memset(met, 0, sizeof(met));
	players_fresh(pl, 2);
	pl[0].colour_diff = 1;
	pl[0].last_colour = 1;
	pl[1].colour_diff = -1;
	pl[1].last_colour = -1;
	ck_assert_int_eq(swiss_pair(pl, 2, met, 0, p, &np, &bye, NULL, NULL),
			 0);
	ck_assert_uint_eq(p[0].white, 1);
	pl[0].colour_diff = pl[1].colour_diff = 0;
	pl[0].last_colour = -1;
	pl[1].last_colour = 1;
	ck_assert_int_eq(swiss_pair(pl, 2, met, 0, p, &np, &bye, NULL, NULL),
			 0);
	ck_assert_uint_eq(p[0].white, 0);
}
END_TEST

START_TEST(test_bye_and_refusals)
{
	struct swiss_player pl[5];
	bool met[25] = { false };
	struct tournament_pair p[2];
	struct swiss_report rep;
	struct tournament_fault f;
	size_t np;
	ptrdiff_t bye;

	/* the lowest-ranked without a bye: seed 4 had one, seed 3 takes it;
	 * a withdrawn player is not paired */
	players_fresh(pl, 5);
	pl[4].byes = 1;
	ck_assert_int_eq(swiss_pair(pl, 5, met, 0, p, &np, &bye, NULL, NULL),
			 0);
	ck_assert_int_eq(bye, 3);
	pl[0].active = false;
	ck_assert_int_eq(swiss_pair(pl, 5, met, 0, p, &np, &bye, NULL, NULL),
			 0);
	ck_assert_uint_eq(np, 2);
	ck_assert_int_eq(bye, -1);
	ck_assert(p[0].white != 0 && p[0].black != 0);
	/* everyone had a bye: a second one, to the lowest-ranked */
	players_fresh(pl, 3);
	pl[0].byes = pl[1].byes = pl[2].byes = 1;
	ck_assert_int_eq(swiss_pair(pl, 3, met, 0, p, &np, &bye, &rep, NULL),
			 0);
	ck_assert_int_eq(bye, 2);
	ck_assert_int_eq(rep.level, 3);
	/* two who met, and nobody else: they meet again, at level 6 */
	players_fresh(pl, 2);
	met[1] = met[2] = true; /* n = 2: [0][1] and [1][0] */
	ck_assert_int_eq(swiss_pair(pl, 2, met, 0, p, &np, &bye, &rep, NULL),
			 0);
	ck_assert_int_eq(rep.level, 6);
	ck_assert_uint_eq(np, 1);
	pl[1].active = false;
	ck_assert_int_eq(swiss_pair(pl, 2, met, 0, p, &np, &bye, NULL, &f),
			 -1);
	ck_assert_int_eq(f.error, TOURNAMENT_ERR_TOO_FEW);
	ck_assert_int_eq(swiss_pair(pl, TOURNAMENT_MAX_PLAYERS + 1, met, 0, p,
				    &np, &bye, NULL, &f), -1);
	ck_assert_int_eq(f.error, TOURNAMENT_ERR_TOO_MANY);
}
END_TEST

START_TEST(test_bound)
{
	struct swiss_player pl[40];
	bool met[40 * 40] = { false };
	struct tournament_pair p[20];
	struct swiss_report rep;
	size_t np, i, plus = 0;
	ptrdiff_t bye;

	/* 21 players due Black (+1) and 19 due White (-1), all on equal
	 * points: within one, two of the 21 would have to meet, so level 0
	 * has no pairing -- which the search learns only by trying every
	 * way of pairing the others first.  It runs out of steps, the
	 * matching test proves it, and level 1 pairs the round */
	players_fresh(pl, 40);
	for (i = 0; i < 40; i++) {
		pl[i].colour_diff = i % 2 == 0 || i < 2 ? 1 : -1;
		pl[i].last_colour = pl[i].colour_diff;
		plus += pl[i].colour_diff > 0;
	}
	ck_assert_uint_eq(plus, 21);
	ck_assert_int_eq(swiss_pair(pl, 40, met, 0, p, &np, &bye, &rep, NULL),
			 0);
	ck_assert(rep.matched);
	ck_assert_uint_eq(rep.steps, SWISS_STEPS);
	ck_assert_int_eq(rep.level, 1);
	ck_assert_uint_eq(np, 20);
	/* level 1 takes the first pairing of the order within two (S1's
	 * first v S2's first...): some of those due Black get White */
	for (i = 0, plus = 0; i < np; i++)
		plus += pl[p[i].white].colour_diff > 0;
	ck_assert_uint_ge(plus, 1);
	ck_assert_uint_eq(p[0].white + p[0].black, 0 + 20);
}
END_TEST

/* --- Seeded random events --- */

struct totals {
	size_t rounds, brute, matched, level[SWISS_LEVELS];
};

/* Check one round's pairing against the rules and the brute force. */
static void check_round(const struct tournament_state *s,
			const struct tournament_pair *p, size_t np, ptrdiff_t bye,
			const struct swiss_report *rep, struct totals *t)
{
	struct swiss_player pl[MAXP];
	size_t n = s->nplayers, seen[MAXP] = { 0 }, i, active = 0;
	ptrdiff_t bf_bye;
	int lvl, d;

	swiss_players_of(s, pl);
	for (i = 0; i < np; i++) {
		seen[p[i].white]++;
		seen[p[i].black]++;
		if (rep->level <= 5)
			ck_assert_msg(!tournament_met(s, p[i].white, p[i].black),
				      "a pair met twice at level %d",
				      rep->level);
		/* colours: the level's limit after the round */
		d = rep->level % 3 == 0 ? 1 : rep->level % 3 == 1 ? 2 : 0;
		if (rep->level < 6 && d > 0) {
			int dw = pl[p[i].white].colour_diff + 1;
			int db = pl[p[i].black].colour_diff - 1;
			ck_assert(abs(dw) <= d ||
				  abs(dw) < abs(pl[p[i].white].colour_diff));
			ck_assert(abs(db) <= d ||
				  abs(db) < abs(pl[p[i].black].colour_diff));
		}
	}
	if (bye >= 0)
		seen[bye]++;
	for (i = 0; i < n; i++) {
		ck_assert_uint_eq(seen[i], pl[i].active ? 1 : 0);
		active += pl[i].active;
	}
	ck_assert_int_eq(bye >= 0, active % 2 == 1);
	if (bye >= 0 && rep->level < 3)
		ck_assert_int_eq(pl[bye].byes, 0);
	t->rounds++;
	t->level[rep->level]++;
	t->matched += rep->matched;
	if (active > 12) {
		/* for larger fields a strict pairing is always found here */
		ck_assert_int_eq(rep->level, 0);
		return;
	}
	t->brute++;
	lvl = bf_level(pl, n, s->met, &bf_bye);
	ck_assert_int_eq(rep->level, lvl);
	if (lvl < 3 && active % 2 == 1)
		ck_assert_int_eq(bye, bf_bye);
}

/* One event: n players with random ratings, rounds rounds of pairing,
 * random results, now and then a withdrawal. */
static void run_event(size_t n, int rounds, uint64_t seed, struct totals *t)
{
	struct tournament_rules rules;
	struct event_log log = { 0 };
	struct tournament_state *s;
	struct tournament_pair p[MAXP], q[MAXP];
	struct swiss_report rep, rep1;
	size_t np, nq, i;
	ptrdiff_t bye, bye1;
	int64_t game;
	int round;

	tournament_rules_default(TOURNAMENT_SWISS, &rules);
	for (i = 0; i < n; i++)
		log_join(&log, (int64_t)(i + 1),
			 1000 + (int)rng_below(&seed, 1000));
	for (round = 1; round <= rounds; round++) {
		s = replay_ok(&log, &rules);
		ck_assert_int_eq(swiss_pair_next(s, 0, p, &np, &bye, &rep,
						 NULL), 0);
		/* the bound changes the time, never the pairing */
		ck_assert_int_eq(swiss_pair_next(s, 1, q, &nq, &bye1, &rep1,
						 NULL), 0);
		ck_assert(rep1.matched);
		ck_assert_int_eq(rep1.level, rep.level);
		ck_assert_uint_eq(nq, np);
		ck_assert_int_eq(bye1, bye);
		ck_assert_mem_eq(p, q, np * sizeof(*p));
		check_round(s, p, np, bye, &rep, t);
		for (i = 0; i < np; i++) {
			game = log_pair(&log, round, s->players[p[i].white].player,
					s->players[p[i].black].player);
			log_result(&log, game, s->players[p[i].white].player,
				   s->players[p[i].black].player,
				   rng_outcome(&seed));
		}
		if (bye >= 0)
			log_add(&log, &(struct tournament_entry){
				.kind = TOURNAMENT_BYE, .round = round,
				.player = s->players[bye].player });
		/* a withdrawal in one round of twenty, while 4 remain */
		i = rng_below(&seed, n);
		if (rng_below(&seed, 20) == 0 && !s->players[i].withdrawn &&
		    np >= 2)
			log_add(&log, &(struct tournament_entry){
				.kind = TOURNAMENT_WITHDRAW, .round = round,
				.player = s->players[i].player });
		tournament_state_free(&s);
	}
	log_free(&log);
}

START_TEST(test_random_events)
{
	struct totals t = { 0 };
	uint64_t seed = 27;
	size_t n;
	int rounds;

	for (n = 5; n <= 40; n++)
		for (rounds = 3; rounds <= 9; rounds++) {
			run_event(n, rounds, seed++ * 7919, &t);
			run_event(n, rounds, seed++ * 7919, &t);
		}
	/* the brute force decided every round of the small fields */
	ck_assert_uint_gt(t.brute, 100);
	ck_assert_uint_gt(t.level[0], t.rounds / 2);
}
END_TEST

TEST_MAIN("swiss", "swiss", NULL, NULL, 60, test_first_round,
	  test_groups_and_floats, test_bye_and_refusals, test_bound,
	  test_random_events)
