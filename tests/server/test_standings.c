/* test_standings.c -- an event's log replayed (server/tournament.h) and
 * ranked: points, byes, every tie-break deciding a hand-made case and
 * their order mattering, direct encounter only among players who all
 * met, withdrawals (forfeits, a round robin's under-half removal, before
 * the start), adjudications, colours after a swap, every refusal of the
 * replay, and a thousand seeded random events whose standings are the
 * same replayed twice and from a reordered log, with points that an
 * independent count of the log confirms. */
#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "server/roundrobin.h"
#include "server/swiss.h"
#include "server/tournament.h"
#include "../check_run.h"
#include "event_test.h"

#define MAXP 32
#define W TOURNAMENT_WHITE_WINS
#define B TOURNAMENT_BLACK_WINS
#define DRAW TOURNAMENT_DRAWN

/* players 1..n, ratings 2000 - id: seed order is id order */
static void join_all(struct event_log *log, int n)
{
	int i;

	for (i = 1; i <= n; i++)
		log_join(log, i, 2000 - i);
}

/* A game of round between white and black that ended in outcome. */
static int64_t play(struct event_log *log, int round, int64_t white,
		    int64_t black, enum tournament_outcome outcome)
{
	int64_t g = log_pair(log, round, white, black);

	log_result(log, g, white, black, outcome);
	return g;
}

/* The standings of log under tiebreaks (a list of kinds, then 0): the
 * player ids in rank order into ids. */
static void ranked(const struct event_log *log, enum tournament_format format,
		   const enum tournament_tiebreak *tiebreaks, int64_t *ids,
		   struct tournament_row *rows_r)
{
	struct tournament_rules rules;
	struct tournament_state *s;
	struct tournament_row rows[MAXP];
	size_t i;

	tournament_rules_default(format, &rules);
	for (rules.ntiebreaks = 0; tiebreaks[rules.ntiebreaks] != 0;
	     rules.ntiebreaks++)
		rules.tiebreaks[rules.ntiebreaks] = tiebreaks[rules.ntiebreaks];
	s = replay_ok(log, &rules);
	tournament_standings(s, &rules, rows);
	for (i = 0; i < s->nplayers; i++) {
		ck_assert_int_eq(rows[i].rank, (int)i + 1);
		ids[i] = s->players[rows[i].player].player;
	}
	if (rows_r != NULL)
		memcpy(rows_r, rows, s->nplayers * sizeof(*rows));
	tournament_state_free(&s);
}

#define TB(...) ((const enum tournament_tiebreak[]){ __VA_ARGS__, 0 })
#define NONE ((const enum tournament_tiebreak[]){ 0 })

static void order_is(const int64_t *ids, size_t n, const int64_t *want)
{
	size_t i;

	for (i = 0; i < n; i++)
		ck_assert_msg(ids[i] == want[i], "rank %zu: %lld, not %lld",
			      i + 1, (long long)ids[i], (long long)want[i]);
}

#define ORDER(ids, ...)                                                    \
	order_is(ids, sizeof((int64_t[]){ __VA_ARGS__ }) / sizeof(int64_t), \
		 (int64_t[]){ __VA_ARGS__ })

START_TEST(test_points_and_byes)
{
	struct event_log log = { 0 };
	struct tournament_rules rules;
	struct tournament_state *s;

	join_all(&log, 3);
	play(&log, 1, 1, 2, DRAW);
	log_add(&log, &(struct tournament_entry){ .kind = TOURNAMENT_BYE,
		.round = 1, .player = 3 });
	play(&log, 2, 3, 1, W);
	tournament_rules_default(TOURNAMENT_SWISS, &rules);
	s = replay_ok(&log, &rules);
	ck_assert_int_eq(s->players[0].points, 1);
	ck_assert_int_eq(s->players[1].points, 1);
	ck_assert_int_eq(s->players[2].points, 2 + 2); /* bye and a win */
	ck_assert_int_eq(s->players[2].byes, 1);
	ck_assert_int_eq(s->players[0].draws, 1);
	ck_assert_int_eq(s->players[0].losses, 1);
	ck_assert_int_eq(s->rounds_paired, 2);
	tournament_state_free(&s);
	rules.bye_points = 1; /* half a point */
	s = replay_ok(&log, &rules);
	ck_assert_int_eq(s->players[2].points, 1 + 2);
	tournament_state_free(&s);
	/* a round robin's sit-out scores nothing */
	rules.format = TOURNAMENT_ROUNDROBIN;
	s = replay_ok(&log, &rules);
	ck_assert_int_eq(s->players[2].points, 2);
	tournament_state_free(&s);
	log_free(&log);
}
END_TEST

START_TEST(test_buchholz)
{
	struct event_log log = { 0 };
	struct tournament_row rows[MAXP];
	int64_t ids[MAXP];

	/* 1, 2 and 3 on a win each; 2's opponent (3) then won, 1's (4)
	 * never did, 3 met 2 and 4 */
	join_all(&log, 4);
	play(&log, 1, 2, 3, W);
	play(&log, 1, 1, 4, W);
	play(&log, 2, 3, 4, W);
	ranked(&log, TOURNAMENT_SWISS, NONE, ids, NULL);
	ORDER(ids, 1, 2, 3, 4);
	ranked(&log, TOURNAMENT_SWISS, TB(TOURNAMENT_TB_BUCHHOLZ), ids, rows);
	ORDER(ids, 2, 3, 1, 4);
	ck_assert_int_eq(rows[0].tiebreak[0], 2);
	ck_assert_int_eq(rows[1].tiebreak[0], 2);
	ck_assert_int_eq(rows[2].tiebreak[0], 0);
	log_free(&log);
}
END_TEST

START_TEST(test_buchholz_cut1)
{
	struct event_log log = { 0 };
	struct tournament_row rows[MAXP];
	int64_t ids[MAXP];

	/* 1 met 5 and 6 (2 points each), 2 met 3 and 4 (0 and 4): the
	 * same Buchholz, 4; cut of the lowest: 2 for 1, 4 for 2 */
	join_all(&log, 7);
	play(&log, 1, 2, 3, W);
	play(&log, 1, 1, 5, W);
	play(&log, 2, 4, 2, W);
	play(&log, 2, 6, 1, W);
	play(&log, 2, 5, 7, W);
	play(&log, 3, 4, 3, W);
	ranked(&log, TOURNAMENT_SWISS, TB(TOURNAMENT_TB_BUCHHOLZ), ids, NULL);
	ORDER(ids, 4, 1, 2, 5, 6, 3, 7);
	ranked(&log, TOURNAMENT_SWISS,
	       TB(TOURNAMENT_TB_BUCHHOLZ, TOURNAMENT_TB_BUCHHOLZ_CUT1), ids,
	       rows);
	ORDER(ids, 4, 2, 1, 5, 6, 3, 7);
	ck_assert_int_eq(rows[1].tiebreak[0], 4);
	ck_assert_int_eq(rows[1].tiebreak[1], 4);
	ck_assert_int_eq(rows[2].tiebreak[1], 2);
	log_free(&log);
}
END_TEST

START_TEST(test_sonneborn_berger)
{
	struct event_log log = { 0 };
	struct tournament_row rows[MAXP];
	int64_t ids[MAXP];

	/* 1, 2 and 3 on a win each: 2 beat 3 (who has a point), 1 and 3
	 * beat 4 (who has none) */
	join_all(&log, 4);
	play(&log, 1, 1, 4, W);
	play(&log, 1, 2, 3, W);
	play(&log, 2, 3, 4, W);
	ranked(&log, TOURNAMENT_SWISS, NONE, ids, NULL);
	ORDER(ids, 1, 2, 3, 4);
	ranked(&log, TOURNAMENT_SWISS, TB(TOURNAMENT_TB_SONNEBORN_BERGER),
	       ids, rows);
	ORDER(ids, 2, 1, 3, 4);
	ck_assert_int_eq(rows[0].tiebreak[0], 2 * 2); /* quarter points */
	log_free(&log);
}
END_TEST

START_TEST(test_direct)
{
	struct event_log log = { 0 };
	struct tournament_row rows[MAXP];
	int64_t ids[MAXP];

	/* 2 beat 1; 1, 2 and 4 on a point, but 1 and 4 never met: the
	 * three are not separated by direct encounter */
	join_all(&log, 4);
	play(&log, 1, 2, 1, W);
	play(&log, 2, 1, 3, W);
	play(&log, 3, 4, 2, W);
	ranked(&log, TOURNAMENT_SWISS, TB(TOURNAMENT_TB_DIRECT), ids, rows);
	ORDER(ids, 1, 2, 4, 3);
	ck_assert_int_eq(rows[0].tiebreak[0], 0);
	ck_assert_int_eq(rows[1].tiebreak[0], 0);
	/* 4 wins again: 1 and 2 alone tied, and they met */
	play(&log, 4, 4, 3, W);
	ranked(&log, TOURNAMENT_SWISS, NONE, ids, NULL);
	ORDER(ids, 4, 1, 2, 3);
	ranked(&log, TOURNAMENT_SWISS, TB(TOURNAMENT_TB_DIRECT), ids, rows);
	ORDER(ids, 4, 2, 1, 3);
	ck_assert_int_eq(rows[1].tiebreak[0], 2);
	ck_assert_int_eq(rows[2].tiebreak[0], 0);
	log_free(&log);
}
END_TEST

START_TEST(test_wins_and_rating)
{
	struct event_log log = { 0 };
	int64_t ids[MAXP];

	/* on a point each: 1 by two draws, 2 and 5 by a win and a loss */
	join_all(&log, 5);
	play(&log, 1, 1, 3, DRAW);
	play(&log, 1, 2, 4, W);
	play(&log, 2, 1, 4, DRAW);
	play(&log, 2, 5, 2, W);
	ranked(&log, TOURNAMENT_SWISS, NONE, ids, NULL);
	ORDER(ids, 1, 2, 5, 3, 4);
	ranked(&log, TOURNAMENT_SWISS, TB(TOURNAMENT_TB_WINS), ids, NULL);
	ORDER(ids, 2, 5, 1, 3, 4);
	/* the order of the list: rating first, and wins never counts */
	ranked(&log, TOURNAMENT_SWISS,
	       TB(TOURNAMENT_TB_RATING, TOURNAMENT_TB_WINS), ids, NULL);
	ORDER(ids, 1, 2, 5, 3, 4);
	ranked(&log, TOURNAMENT_SWISS,
	       TB(TOURNAMENT_TB_WINS, TOURNAMENT_TB_RATING), ids, NULL);
	ORDER(ids, 2, 5, 1, 3, 4);
	log_free(&log);
	/* rating: the higher first, whatever the ids */
	log_join(&log, 1, 1500);
	log_join(&log, 2, 1700);
	ranked(&log, TOURNAMENT_SWISS, TB(TOURNAMENT_TB_RATING), ids, NULL);
	ORDER(ids, 2, 1);
	log_free(&log);
}
END_TEST

START_TEST(test_withdrawals)
{
	struct event_log log = { 0 };
	struct tournament_rules rules;
	struct tournament_state *s;
	struct tournament_row rows[MAXP];
	struct tournament_pair p[4];
	ptrdiff_t bye;
	size_t np;
	int64_t ids[MAXP];

	/* Swiss: 1 leaves during round 2; their running game is lost, and
	 * they are paired no more */
	join_all(&log, 5);
	log_add(&log, &(struct tournament_entry){ .kind = TOURNAMENT_LEAVE,
		.round = 0, .player = 5 }); /* before the start: gone */
	play(&log, 1, 1, 2, W);
	play(&log, 1, 3, 4, W);
	log_pair(&log, 2, 3, 1);
	play(&log, 2, 2, 4, DRAW);
	log_add(&log, &(struct tournament_entry){ .kind = TOURNAMENT_LEAVE,
		.round = 2, .player = 1 });
	tournament_rules_default(TOURNAMENT_SWISS, &rules);
	s = replay_ok(&log, &rules);
	ck_assert_uint_eq(s->nplayers, 4);
	ck_assert_int_eq(tournament_player_index(s, 5), -1);
	ck_assert(s->players[0].withdrawn && !s->players[0].by_operator);
	ck_assert_int_eq(s->players[0].points, 2);
	ck_assert_int_eq(s->players[0].forfeit_losses, 1);
	ck_assert_int_eq(s->players[2].points, 4);
	ck_assert_int_eq(s->players[2].forfeit_wins, 1);
	ck_assert_int_eq(s->players[2].whites, 1); /* a forfeit: no colour */
	ck_assert_int_eq(swiss_pair_next(s, 0, p, &np, &bye, NULL, NULL), 0);
	ck_assert_uint_eq(np, 1);
	ck_assert(bye >= 0 && bye != 0);
	ck_assert(p[0].white != 0 && p[0].black != 0);
	tournament_state_free(&s);
	log_free(&log);

	/* round robin of 4 (3 games each): 4 withdrawn after one game is
	 * removed; 3 after two stays, the third lost */
	join_all(&log, 4);
	play(&log, 1, 1, 4, B);
	play(&log, 1, 2, 3, DRAW);
	log_add(&log, &(struct tournament_entry){ .kind = TOURNAMENT_WITHDRAW,
		.round = 1, .player = 4 });
	log_pair(&log, 2, 4, 2);
	play(&log, 2, 3, 1, W);
	log_add(&log, &(struct tournament_entry){ .kind = TOURNAMENT_WITHDRAW,
		.round = 2, .player = 3 });
	log_pair(&log, 3, 1, 2);
	log_pair(&log, 3, 3, 4);
	log_result(&log, log.next_game - 1, 1, 2, W);
	tournament_rules_default(TOURNAMENT_ROUNDROBIN, &rules);
	s = replay_ok(&log, &rules);
	ck_assert(s->players[3].removed && s->players[3].by_operator);
	ck_assert(!s->players[2].removed);
	ck_assert_int_eq(s->players[3].points, 0);
	ck_assert_int_eq(s->players[0].points, 2);   /* the win of 1-4 void */
	ck_assert_int_eq(s->players[1].points, 1);   /* the 4-2 forfeit void */
	ck_assert_int_eq(s->players[2].points, 1 + 2); /* v 4: both withdrawn,
						       * the game void */
	ck_assert_int_eq(s->players[2].played, 2);
	tournament_standings(s, &rules, rows);
	ck_assert_uint_eq(rows[3].player, 3); /* the removed last */
	tournament_state_free(&s);
	ranked(&log, TOURNAMENT_ROUNDROBIN, NONE, ids, NULL);
	ORDER(ids, 3, 1, 2, 4);
	/* a double round robin: 3 finished two of six, removed too */
	rules.twice = true;
	s = replay_ok(&log, &rules);
	ck_assert(s->players[2].removed);
	tournament_state_free(&s);
	log_free(&log);

	/* Swiss, both withdrawn from one game: lost by both */
	join_all(&log, 2);
	log_pair(&log, 1, 1, 2);
	log_add(&log, &(struct tournament_entry){ .kind = TOURNAMENT_LEAVE,
		.round = 1, .player = 1 });
	log_add(&log, &(struct tournament_entry){ .kind = TOURNAMENT_LEAVE,
		.round = 1, .player = 2 });
	tournament_rules_default(TOURNAMENT_SWISS, &rules);
	s = replay_ok(&log, &rules);
	ck_assert_int_eq(s->players[0].losses + s->players[1].losses, 2);
	ck_assert_int_eq(s->players[0].points + s->players[1].points, 0);
	tournament_state_free(&s);
	log_free(&log);
}
END_TEST

START_TEST(test_adjudication_and_swap)
{
	struct event_log log = { 0 };
	struct tournament_rules rules;
	struct tournament_state *s;
	int64_t g;

	join_all(&log, 2);
	g = log_pair(&log, 1, 1, 2);
	/* the decision first, the game's own end after: the decision
	 * stands; a later decision replaces an earlier one */
	log_add(&log, &(struct tournament_entry){
		.kind = TOURNAMENT_ADJUDICATION, .game = g, .player = 1,
		.other = 2, .outcome = DRAW });
	log_result(&log, g, 1, 2, W);
	tournament_rules_default(TOURNAMENT_SWISS, &rules);
	s = replay_ok(&log, &rules);
	ck_assert_int_eq(s->players[0].points, 1);
	ck_assert(s->games[0].adjudicated);
	tournament_state_free(&s);
	log_add(&log, &(struct tournament_entry){
		.kind = TOURNAMENT_ADJUDICATION, .game = g, .player = 1,
		.other = 2, .outcome = B });
	s = replay_ok(&log, &rules);
	ck_assert_int_eq(s->players[1].points, 2);
	tournament_state_free(&s);
	log_free(&log);
	/* a swap: 2 ended White, and the colours count so */
	join_all(&log, 2);
	g = log_pair(&log, 1, 1, 2);
	log_result(&log, g, 2, 1, W);
	s = replay_ok(&log, &rules);
	ck_assert_int_eq(s->players[1].whites, 1);
	ck_assert_int_eq(s->players[1].points, 2);
	ck_assert_int_eq(s->players[0].last_colour, -1);
	tournament_state_free(&s);
	log_free(&log);
}
END_TEST

/* The replay of log refuses its last entry with error. */
static void refused(struct event_log *log, enum tournament_error error)
{
	struct tournament_rules rules;
	struct tournament_state *s = NULL;
	struct tournament_fault f;

	tournament_rules_default(TOURNAMENT_SWISS, &rules);
	ck_assert_int_eq(tournament_replay(log->e, log->n, &rules, &s, &f), -1);
	ck_assert_ptr_null(s);
	ck_assert_str_eq(tournament_error_name(f.error),
			 tournament_error_name(error));
	ck_assert_uint_eq(f.index, log->n - 1);
	log->n--;
}

START_TEST(test_refusals)
{
	struct event_log log = { 0 };
	struct tournament_rules rules;
	struct tournament_fault f;
	int64_t g;

	join_all(&log, 3);
	g = log_pair(&log, 1, 1, 2);
	log_join(&log, 2, 1000);
	refused(&log, TOURNAMENT_ERR_ALREADY_ENTERED);
	log_add(&log, &(struct tournament_entry){ .kind = TOURNAMENT_LEAVE,
		.round = 1, .player = 9 });
	refused(&log, TOURNAMENT_ERR_NOT_ENTERED);
	log_pair(&log, 1, 3, 9);
	refused(&log, TOURNAMENT_ERR_NOT_ENTERED);
	log_pair(&log, 1, 3, 3);
	refused(&log, TOURNAMENT_ERR_SELF);
	log_pair(&log, 1, 3, 1);
	refused(&log, TOURNAMENT_ERR_TWICE_IN_ROUND);
	log_add(&log, &(struct tournament_entry){ .kind = TOURNAMENT_BYE,
		.round = 1, .player = 2 });
	refused(&log, TOURNAMENT_ERR_TWICE_IN_ROUND);
	log_add(&log, &(struct tournament_entry){ .kind = TOURNAMENT_PAIRING,
		.round = 2, .game = g, .player = 3, .other = 1 });
	refused(&log, TOURNAMENT_ERR_DUPLICATE_GAME);
	log_result(&log, g + 50, 1, 2, W);
	refused(&log, TOURNAMENT_ERR_UNKNOWN_GAME);
	log_result(&log, g, 1, 3, W);
	refused(&log, TOURNAMENT_ERR_WRONG_PLAYERS);
	log_result(&log, g, 1, 2, TOURNAMENT_UNFINISHED);
	refused(&log, TOURNAMENT_ERR_BAD_ENTRY);
	log_result(&log, g, 1, 2, W);
	log_result(&log, g, 1, 2, B);
	refused(&log, TOURNAMENT_ERR_DUPLICATE_RESULT);
	log_add(&log, &(struct tournament_entry){ .kind = TOURNAMENT_JOIN,
		.round = 1, .player = 7 });
	refused(&log, TOURNAMENT_ERR_BAD_ENTRY);
	log_add(&log, &(struct tournament_entry){ .kind = 99 });
	refused(&log, TOURNAMENT_ERR_BAD_ENTRY);
	log_pair(&log, TOURNAMENT_MAX_ROUNDS + 1, 3, 1);
	refused(&log, TOURNAMENT_ERR_BAD_ENTRY);
	log_free(&log);
	/* the rules */
	tournament_rules_default(TOURNAMENT_SWISS, &rules);
	ck_assert_int_eq(tournament_rules_check(&rules, &f), 0);
	rules.bye_points = 3;
	ck_assert_int_eq(tournament_rules_check(&rules, &f), -1);
	ck_assert_str_eq(f.field, "bye_points");
	tournament_rules_default(TOURNAMENT_SWISS, &rules);
	rules.tiebreaks[1] = rules.tiebreaks[0];
	ck_assert_int_eq(tournament_rules_check(&rules, &f), -1);
	ck_assert_str_eq(f.field, "tiebreaks");
	rules.tiebreaks[1] = (enum tournament_tiebreak)42;
	ck_assert_int_eq(tournament_rules_check(&rules, &f), -1);
	tournament_rules_default(TOURNAMENT_SWISS, &rules);
	rules.rounds = 0;
	ck_assert_int_eq(tournament_rules_check(&rules, &f), -1);
	ck_assert_str_eq(f.field, "rounds");
}
END_TEST

START_TEST(test_names)
{
	enum tournament_tiebreak t;
	enum tournament_format fm;
	enum tournament_entry_kind k;
	enum tournament_outcome o;

	ck_assert_int_eq(tournament_tiebreak_parse("buchholz_cut1", &t), 0);
	ck_assert_int_eq(t, TOURNAMENT_TB_BUCHHOLZ_CUT1);
	ck_assert_str_eq(tournament_tiebreak_name(TOURNAMENT_TB_DIRECT),
			 "direct");
	ck_assert_int_eq(tournament_tiebreak_parse("median", &t), -1);
	ck_assert_int_eq(tournament_format_parse("roundrobin", &fm), 0);
	ck_assert_int_eq(fm, TOURNAMENT_ROUNDROBIN);
	ck_assert_int_eq(tournament_kind_parse("adjudication", &k), 0);
	ck_assert_int_eq(k, TOURNAMENT_ADJUDICATION);
	ck_assert_int_eq(tournament_outcome_parse("draw", &o), 0);
	ck_assert_int_eq(o, TOURNAMENT_DRAWN);
	ck_assert_str_eq(tournament_error_name((enum tournament_error)77),
			 "unknown");
}
END_TEST

int main(void)
{
	Suite *s = test_suite("standings", "standings", NULL, NULL, 60,
			      TESTS(test_points_and_byes, test_buchholz,
				    test_buchholz_cut1, test_sonneborn_berger,
				    test_direct, test_wins_and_rating,
				    test_withdrawals,
				    test_adjudication_and_swap, test_refusals,
				    test_names));

	suite_add_tests(s, "random", NULL, NULL, 60,
			TESTS(standings_random_test()));
	return test_run(s);
}
