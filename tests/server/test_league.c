/* test_league.c -- round-robin leagues (server/league.h): the rules,
 * groups for every size (never one smaller than 2), the circle method's
 * pairings (each pair once, colours balanced), standings in which each
 * tie-break in turn decides, promotion and relegation, the season of a
 * date, and one season from its groups to the next season's. */
#include <check.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "server/league.h"
#include "../check_run.h"

#define D LEAGUE_DAY
#define T0 ((int64_t)1767225600) /* 2026-01-01 00:00 UTC */

#define W LEAGUE_WHITE_WINS
#define B LEAGUE_BLACK_WINS
#define DRAW LEAGUE_DRAW

/* --- Rules --- */

START_TEST(test_rules)
{
	struct league_rules r;
	struct league_fault f;

	league_rules_default(&r);
	ck_assert_int_eq(league_rules_check(&r, &f), 0);
	ck_assert_int_eq(r.group_size, 10);
	ck_assert_int_eq(r.promote, 2);
	ck_assert_int_eq(r.relegate, 2);
	ck_assert_int_eq(r.season_length, 91 * D);

#define REFUSE(stmt, key, lo, hi)                                          \
	do {                                                               \
		league_rules_default(&r);                                  \
		stmt;                                                      \
		ck_assert_int_eq(league_rules_check(&r, &f), -1);          \
		ck_assert_int_eq(f.error, LEAGUE_ERR_RULE_RANGE);          \
		ck_assert_str_eq(f.field, key);                            \
		ck_assert_int_eq(f.min, lo);                               \
		ck_assert_int_eq(f.max, hi);                               \
	} while (0)
	REFUSE(r.group_size = 1, "group_size", 2, LEAGUE_MAX_GROUP);
	REFUSE(r.group_size = 0, "group_size", 2, LEAGUE_MAX_GROUP);
	REFUSE(r.group_size = LEAGUE_MAX_GROUP + 1, "group_size", 2,
	       LEAGUE_MAX_GROUP);
	REFUSE(r.promote = -1, "promote", 0, 5);
	REFUSE(r.promote = 6, "promote", 0, 5);
	REFUSE((r.group_size = 3, r.promote = 1, r.relegate = 2), "relegate",
	       0, 1);
	REFUSE(r.season_start = -1, "season_start", 0, INT64_MAX);
	REFUSE(r.season_length = D - 1, "season_length", D,
	       LEAGUE_MAX_SEASON);
	league_rules_default(&r);
	r.group_size = 2;
	r.promote = r.relegate = 1;
	ck_assert_int_eq(league_rules_check(&r, NULL), 0);
	ck_assert_str_eq(league_error_name(LEAGUE_ERR_TOO_FEW), "too_few");
	ck_assert_str_eq(league_error_name((enum league_error)99), "unknown");
}
END_TEST

/* --- Groups --- */

/* The sizes of the groups of n by size are exactly those given. */
static void groups_are(size_t n, int size, size_t ngroups, ...)
{
	struct league_group g[64];
	size_t got, i;
	va_list ap;

	ck_assert_int_eq(league_groups(n, size, g, 64, &got, NULL), 0);
	ck_assert_uint_eq(got, ngroups);
	va_start(ap, ngroups);
	for (i = 0; i < ngroups; i++)
		ck_assert_uint_eq(g[i].count, (size_t)va_arg(ap, int));
	va_end(ap);
}

START_TEST(test_groups_examples)
{
	struct league_group g[4];
	struct league_fault f;
	size_t n;

	groups_are(23, 10, 3, 10, 7, 6);
	groups_are(21, 10, 3, 10, 6, 5);
	groups_are(12, 10, 2, 6, 6);
	groups_are(11, 10, 2, 6, 5);
	groups_are(20, 10, 2, 10, 10);
	groups_are(10, 10, 1, 10);
	groups_are(2, 10, 1, 2);
	groups_are(5, 2, 2, 2, 3);
	groups_are(3, 2, 1, 3);
	groups_are(6, 2, 3, 2, 2, 2);
	groups_are(9, 4, 3, 4, 3, 2);
	ck_assert_int_eq(league_groups(1, 10, g, 4, &n, &f), -1);
	ck_assert_int_eq(f.error, LEAGUE_ERR_TOO_FEW);
	ck_assert_int_eq(f.value, 1);
	ck_assert_int_eq(league_groups(0, 10, g, 4, &n, &f), -1);
	ck_assert_int_eq(f.error, LEAGUE_ERR_TOO_FEW);
	ck_assert_int_eq(league_groups(10, 1, g, 4, &n, &f), -1);
	ck_assert_int_eq(f.error, LEAGUE_ERR_RULE_RANGE);
	ck_assert_str_eq(f.field, "group_size");
	ck_assert_int_eq(league_groups(50, 10, g, 4, &n, &f), -1);
	ck_assert_int_eq(f.error, LEAGUE_ERR_NO_ROOM);
	ck_assert_int_eq(f.value, 5);
	ck_assert_uint_eq(n, 0);
}
END_TEST

START_TEST(test_groups_every_size)
{
	struct league_group g[100];
	size_t n, ng, i, next;
	int size;

	for (size = 2; size <= 16; size++)
		for (n = 2; n <= 150; n++) {
			ck_assert_int_eq(league_groups(n, size, g, n / 2, &ng,
						       NULL), 0);
			ck_assert_uint_ge(ng, 1);
			ck_assert_uint_le(ng, n / 2);
			for (i = 0, next = 0; i < ng; i++) {
				/* consecutive slices of the seed order */
				ck_assert_uint_eq(g[i].first, next);
				next += g[i].count;
				ck_assert_msg(g[i].count >= 2,
					      "%zu by %d: group %zu of %zu",
					      n, size, i, g[i].count);
				if (g[i].count > (size_t)size)
					ck_assert(size == 2 && i + 1 == ng &&
						  g[i].count == 3);
				/* full groups but for the last two */
				if (i + 2 < ng)
					ck_assert_uint_eq(g[i].count,
							  (size_t)size);
			}
			ck_assert_uint_eq(next, n);
			if (n <= (size_t)size)
				ck_assert_uint_eq(ng, 1);
			else if (ng >= 2 && g[ng - 1].count <= (size_t)size)
				/* the last two balanced, the larger first */
				ck_assert(g[ng - 2].count == g[ng - 1].count ||
					  g[ng - 2].count ==
					  g[ng - 1].count + 1);
		}
}
END_TEST

/* --- Pairings --- */

START_TEST(test_pairings)
{
	struct league_pairing p[300];
	size_t count, n, i;

	ck_assert_uint_eq(league_pairings(1, p), 0);
	ck_assert_uint_eq(league_pairings(0, p), 0);
	for (count = 2; count <= 24; count++) {
		bool met[24][24];
		bool busy[25][24];
		int whites[24], blacks[24], rounds = 0;

		memset(met, 0, sizeof(met));
		memset(busy, 0, sizeof(busy));
		memset(whites, 0, sizeof(whites));
		memset(blacks, 0, sizeof(blacks));
		n = league_pairings(count, p);
		ck_assert_uint_eq(n, league_game_count(count));
		ck_assert_uint_eq(n, count * (count - 1) / 2);
		for (i = 0; i < n; i++) {
			size_t w = p[i].white, b = p[i].black;
			int r = p[i].round;

			ck_assert_uint_lt(w, count);
			ck_assert_uint_lt(b, count);
			ck_assert_uint_ne(w, b);
			ck_assert(!met[w][b]); /* each pair exactly once */
			met[w][b] = met[b][w] = true;
			ck_assert_int_ge(r, 1);
			ck_assert(!busy[r][w] && !busy[r][b]);
			busy[r][w] = busy[r][b] = true;
			if (i > 0)
				ck_assert_int_ge(r, p[i - 1].round);
			if (r > rounds)
				rounds = r;
			whites[w]++;
			blacks[b]++;
		}
		ck_assert_int_eq(rounds, (int)(count % 2 ? count : count - 1));
		for (i = 0; i < count; i++) {
			int diff = whites[i] - blacks[i];

			ck_assert_msg(diff >= -1 && diff <= 1,
				      "%zu players: %zu has %d/%d", count, i,
				      whites[i], blacks[i]);
			if (count % 2)
				ck_assert_int_eq(diff, 0);
		}
	}
}
END_TEST

/* --- Standings --- */

/* The ranking of a group of count from games is the order given. */
static void ranking_is(size_t count, const struct league_game *games,
		       size_t ngames, struct league_row *rows, ...)
{
	va_list ap;
	size_t i;

	ck_assert_int_eq(league_standings(count, games, ngames, rows, NULL),
			 0);
	va_start(ap, rows);
	for (i = 0; i < count; i++) {
		ck_assert_int_eq(rows[i].rank, (int)i + 1);
		ck_assert_uint_eq(rows[i].player, (size_t)va_arg(ap, int));
	}
	va_end(ap);
}

/* The row of player. */
static const struct league_row *row_of(const struct league_row *rows,
				       size_t count, size_t player)
{
	size_t i;

	for (i = 0; i < count; i++)
		if (rows[i].player == player)
			return &rows[i];
	ck_abort_msg("no row for %zu", player);
	return NULL;
}

START_TEST(test_points)
{
	const struct league_game games[] = {
		{ 0, 1, W }, { 1, 2, DRAW }, { 2, 0, W },
		{ 3, 0, LEAGUE_UNPLAYED },
	};
	struct league_row rows[4];
	const struct league_row *r;

	ranking_is(4, games, 4, rows, 2, 0, 1, 3);
	r = row_of(rows, 4, 2);
	ck_assert_int_eq(r->points, 3);
	ck_assert_int_eq(r->played, 2);
	ck_assert_int_eq(r->wins, 1);
	ck_assert_int_eq(r->draws, 1);
	ck_assert_int_eq(r->losses, 0);
	r = row_of(rows, 4, 0);
	ck_assert_int_eq(r->points, 2);
	ck_assert_int_eq(r->played, 2); /* the unplayed game not counted */
	ck_assert_int_eq(r->losses, 1);
	r = row_of(rows, 4, 3);
	ck_assert_int_eq(r->points, 0);
	ck_assert_int_eq(r->played, 0);
}
END_TEST

START_TEST(test_tiebreak_head_to_head)
{
	/* 0, 1 and 3 have a point each; 0 and 3 drew each other, 1 drew
	 * the leader 2.  Head-to-head among the three puts 1 last, though
	 * 1 has the better Sonneborn-Berger (3 against 1) and seed than 3. */
	const struct league_game games[] = {
		{ 0, 3, DRAW }, { 1, 2, DRAW }, { 2, 3, W },
	};
	struct league_row rows[4];

	ranking_is(4, games, 3, rows, 2, 0, 3, 1);
	ck_assert_int_eq(row_of(rows, 4, 0)->head_to_head, 1);
	ck_assert_int_eq(row_of(rows, 4, 3)->head_to_head, 1);
	ck_assert_int_eq(row_of(rows, 4, 1)->head_to_head, 0);
	ck_assert_int_eq(row_of(rows, 4, 1)->sonneborn_berger, 3);
	ck_assert_int_eq(row_of(rows, 4, 3)->sonneborn_berger, 1);
}
END_TEST

START_TEST(test_tiebreak_sonneborn_berger)
{
	/* 0 and 2 have 2 points and have not met; 2's draws were against
	 * stronger players than 0's win: 2 ahead, though 0 has more wins
	 * and the better seed. */
	const struct league_game games[] = {
		{ 0, 3, W }, { 1, 2, DRAW }, { 1, 3, W }, { 2, 3, DRAW },
	};
	struct league_row rows[4];

	ranking_is(4, games, 4, rows, 1, 2, 0, 3);
	ck_assert_int_eq(row_of(rows, 4, 0)->points, 2);
	ck_assert_int_eq(row_of(rows, 4, 2)->points, 2);
	ck_assert_int_eq(row_of(rows, 4, 0)->sonneborn_berger, 2);
	ck_assert_int_eq(row_of(rows, 4, 2)->sonneborn_berger, 4);
	ck_assert_int_eq(row_of(rows, 4, 0)->wins, 1);
	ck_assert_int_eq(row_of(rows, 4, 2)->wins, 0);
}
END_TEST

START_TEST(test_tiebreak_wins)
{
	/* 2 and 3 have 2 points, did not meet, and the same
	 * Sonneborn-Berger (2): 3 won a game, 2 drew two; 3 ahead in spite
	 * of the seed. */
	const struct league_game games[] = {
		{ 0, 2, DRAW }, { 1, 2, DRAW }, { 1, 3, B },
	};
	struct league_row rows[4];

	ranking_is(4, games, 3, rows, 3, 2, 0, 1);
	ck_assert_int_eq(row_of(rows, 4, 2)->sonneborn_berger,
			 row_of(rows, 4, 3)->sonneborn_berger);
	ck_assert_int_eq(row_of(rows, 4, 2)->head_to_head,
			 row_of(rows, 4, 3)->head_to_head);
}
END_TEST

START_TEST(test_tiebreak_seed)
{
	/* nothing else tells them apart: the seed, never chance */
	const struct league_game games[] = {
		{ 3, 0, DRAW }, { 2, 1, DRAW },
	};
	struct league_row rows[5];

	ranking_is(5, games, 0, rows, 0, 1, 2, 3, 4);
	/* 0-3 and 1-2 drew: all at 1 point, 1 head-to-head, SB 1, no
	 * wins; 4 played nothing */
	ranking_is(5, games, 2, rows, 0, 1, 2, 3, 4);
	ck_assert_int_eq(rows[0].sonneborn_berger, rows[3].sonneborn_berger);
}
END_TEST

START_TEST(test_standings_refused)
{
	struct league_game g[2] = { { 0, 1, W }, { 1, 0, B } };
	struct league_row rows[3];
	struct league_fault f;

	ck_assert_int_eq(league_standings(3, g, 2, rows, &f), -1);
	ck_assert_int_eq(f.error, LEAGUE_ERR_DUPLICATE_GAME);
	g[1].black = 1;
	ck_assert_int_eq(league_standings(3, g, 2, rows, &f), -1);
	ck_assert_int_eq(f.error, LEAGUE_ERR_SELF);
	g[1].black = 3;
	ck_assert_int_eq(league_standings(3, g, 2, rows, &f), -1);
	ck_assert_int_eq(f.error, LEAGUE_ERR_PLAYER_RANGE);
	ck_assert_int_eq(f.value, 3);
	ck_assert_int_eq(f.max, 2);
	g[1].black = 2;
	g[1].outcome = (enum league_outcome)7;
	ck_assert_int_eq(league_standings(3, g, 2, rows, &f), -1);
	ck_assert_int_eq(f.error, LEAGUE_ERR_BAD_OUTCOME);
	g[1].outcome = DRAW;
	ck_assert_int_eq(league_standings(3, g, 2, rows, &f), 0);
}
END_TEST

/* --- Seasons --- */

/* rows for a group of count, in rank order, from the seeds given. */
static void rank_rows(struct league_row *rows, size_t count, ...)
{
	va_list ap;
	size_t i;

	memset(rows, 0, count * sizeof(*rows));
	va_start(ap, count);
	for (i = 0; i < count; i++) {
		rows[i].player = (size_t)va_arg(ap, int);
		rows[i].rank = (int)i + 1;
	}
	va_end(ap);
}

static void order_is(const int64_t *order, size_t n, const int64_t *want)
{
	size_t i;

	for (i = 0; i < n; i++)
		ck_assert_msg(order[i] == want[i], "%zu: %lld, not %lld", i,
			      (long long)order[i], (long long)want[i]);
}

START_TEST(test_promotion_relegation)
{
	static const int64_t players[12] = {
		101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112,
	};
	/* up 1, down 1: 105 and 112 rise, 102 and 108 fall */
	static const int64_t one_one[12] = {
		103, 101, 104, 105, 102, 106, 107, 112, 108, 111, 110, 109,
	};
	/* up 2, down 1: two come up to each group but one goes down */
	static const int64_t two_one[12] = {
		103, 101, 104, 105, 106, 102, 107, 112, 111, 108, 110, 109,
	};
	struct league_group g[3], next[3];
	struct league_row rows[12];
	struct league_fault f;
	int64_t order[12];
	size_t ng, i;

	ck_assert_int_eq(league_groups(12, 4, g, 3, &ng, NULL), 0);
	ck_assert_uint_eq(ng, 3);
	rank_rows(&rows[0], 4, 2, 0, 3, 1);
	rank_rows(&rows[4], 4, 0, 1, 2, 3);
	rank_rows(&rows[8], 4, 3, 2, 1, 0);
	ck_assert_int_eq(league_next_season(players, 12, g, 3, rows, 1, 1,
					    order, &f), 0);
	order_is(order, 12, one_one);
	ck_assert_int_eq(league_next_season(players, 12, g, 3, rows, 2, 1,
					    order, &f), 0);
	order_is(order, 12, two_one);
	/* split again: the sizes hold, so 106 and 111, the lowest to come
	 * up, stay where they were */
	ck_assert_int_eq(league_groups(12, 4, next, 3, &ng, NULL), 0);
	ck_assert_int_eq(order[next[1].first], 106);
	ck_assert_int_eq(order[next[2].first], 111);
	/* no movement at all */
	ck_assert_int_eq(league_next_season(players, 12, g, 3, rows, 0, 0,
					    order, &f), 0);
	for (i = 0; i < 4; i++)
		ck_assert_int_eq(order[i],
				 players[g[0].first + rows[i].player]);

	/* rows that are not a ranking of the group */
	rows[5].player = 0;
	ck_assert_int_eq(league_next_season(players, 12, g, 3, rows, 1, 1,
					    order, &f), -1);
	ck_assert_int_eq(f.error, LEAGUE_ERR_BAD_STANDINGS);
	ck_assert_int_eq(f.value, 1);
	rows[5].player = 1;
	rows[9].rank = 1;
	ck_assert_int_eq(league_next_season(players, 12, g, 3, rows, 1, 1,
					    order, &f), -1);
	ck_assert_int_eq(f.value, 2);
	rows[9].rank = 2;
	/* groups that leave players out */
	ck_assert_int_eq(league_next_season(players, 12, g, 2, rows, 1, 1,
					    order, &f), -1);
	ck_assert_int_eq(f.error, LEAGUE_ERR_BAD_STANDINGS);
	ck_assert_int_eq(f.value, 2);
	g[1].first = 3;
	ck_assert_int_eq(league_next_season(players, 12, g, 3, rows, 1, 1,
					    order, &f), -1);
	ck_assert_int_eq(f.value, 1);
	g[1].first = 4;
	ck_assert_int_eq(league_next_season(players, 12, g, 3, rows, -1, 1,
					    order, &f), -1);
	ck_assert_int_eq(f.error, LEAGUE_ERR_RULE_RANGE);
}
END_TEST

START_TEST(test_season_dates)
{
	struct league_rules r;

	league_rules_default(&r);
	r.season_start = T0;
	ck_assert_int_eq(league_season_of(&r, T0 - 1), 0);
	ck_assert_int_eq(league_season_of(&r, 0), 0);
	ck_assert_int_eq(league_season_of(&r, T0), 1);
	ck_assert_int_eq(league_season_of(&r, T0 + 91 * D - 1), 1);
	ck_assert_int_eq(league_season_of(&r, T0 + 91 * D), 2);
	ck_assert_int_eq(league_season_of(&r, T0 + 10 * 91 * D + 5), 11);
	ck_assert_int_eq(league_season_start(&r, 1), T0);
	ck_assert_int_eq(league_season_start(&r, 3), T0 + 182 * D);
	ck_assert_int_eq(league_season_of(&r, league_season_start(&r, 7)), 7);
	ck_assert_int_eq(league_season_of(&r,
					  league_season_start(&r, 7) - 1), 6);
	r.season_length = 7 * D;
	ck_assert_int_eq(league_season_of(&r, T0 + 7 * D), 2);
}
END_TEST

/* A season from its groups to the next: 9 players in groups of 4, the
 * pairings played with the worse seed always winning (an upset every
 * game), standings, up one and down one, and the next groups. */
START_TEST(test_whole_season)
{
	static const int64_t players[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
	static const int64_t want[9] = { 4, 3, 2, 7, 1, 6, 9, 5, 8 };
	struct league_group g[4];
	struct league_pairing p[6];
	struct league_game games[6];
	struct league_row rows[9];
	int64_t order[9];
	size_t ng, k, i, n;

	ck_assert_int_eq(league_groups(9, 4, g, 4, &ng, NULL), 0);
	ck_assert_uint_eq(ng, 3);
	for (k = 0; k < ng; k++) {
		n = league_pairings(g[k].count, p);
		for (i = 0; i < n; i++) {
			games[i].white = p[i].white;
			games[i].black = p[i].black;
			games[i].outcome = p[i].white > p[i].black ? W : B;
		}
		ck_assert_int_eq(league_standings(g[k].count, games, n,
						  &rows[g[k].first], NULL), 0);
		/* the last seed won everything */
		ck_assert_uint_eq(rows[g[k].first].player, g[k].count - 1);
		ck_assert_int_eq(rows[g[k].first].points,
				 (int)(g[k].count - 1) * LEAGUE_WIN_POINTS);
	}
	ck_assert_int_eq(league_next_season(players, 9, g, ng, rows, 1, 1,
					    order, NULL), 0);
	order_is(order, 9, want);
	ck_assert_int_eq(league_groups(9, 4, g, 4, &ng, NULL), 0);
	ck_assert_uint_eq(ng, 3);
	ck_assert_uint_eq(g[0].count, 4); /* 4 3 2 7 */
	ck_assert_uint_eq(g[1].count, 3); /* 1 6 9 */
	ck_assert_uint_eq(g[2].count, 2); /* 5 8 */
}
END_TEST

int main(void)
{
	Suite *s = suite_create("league");
	TCase *rules = tcase_create("rules");
	TCase *groups = tcase_create("groups");
	TCase *standings = tcase_create("standings");
	TCase *seasons = tcase_create("seasons");

	tcase_add_test(rules, test_rules);
	suite_add_tcase(s, rules);
	tcase_add_test(groups, test_groups_examples);
	tcase_add_test(groups, test_groups_every_size);
	tcase_add_test(groups, test_pairings);
	suite_add_tcase(s, groups);
	tcase_add_test(standings, test_points);
	tcase_add_test(standings, test_tiebreak_head_to_head);
	tcase_add_test(standings, test_tiebreak_sonneborn_berger);
	tcase_add_test(standings, test_tiebreak_wins);
	tcase_add_test(standings, test_tiebreak_seed);
	tcase_add_test(standings, test_standings_refused);
	suite_add_tcase(s, standings);
	tcase_add_test(seasons, test_promotion_relegation);
	tcase_add_test(seasons, test_season_dates);
	tcase_add_test(seasons, test_whole_season);
	suite_add_tcase(s, seasons);
	return test_run(s);
}
