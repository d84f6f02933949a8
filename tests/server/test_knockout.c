/* test_knockout.c -- knockout brackets (server/knockout.h): the
 * standard draw for every size, byes to the top seeds, and seeded random
 * events of 5-33 players played to the end through the log (two games a
 * match with the colours swapped, deciders, withdrawals): the bracket is
 * complete, each match went to the one the rules name, and the places
 * are 1, 2, 3, 3, 5 x 4, ... */
#include <check.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "server/knockout.h"
#include "../check_run.h"
#include "event_test.h"

#define MAXP 64

START_TEST(test_lines)
{
	size_t lines[MAXP], size, b, i, k, seen[MAXP];

	knockout_lines(8, lines);
	ck_assert_uint_eq(lines[0], 0);
	ck_assert_uint_eq(lines[1], 7);
	ck_assert_uint_eq(lines[2], 3);
	ck_assert_uint_eq(lines[3], 4);
	ck_assert_uint_eq(lines[4], 1);
	ck_assert_uint_eq(lines[5], 6);
	ck_assert_uint_eq(lines[6], 2);
	ck_assert_uint_eq(lines[7], 5);
	for (size = 2; size <= MAXP; size *= 2) {
		knockout_lines(size, lines);
		memset(seen, 0, sizeof(seen));
		for (i = 0; i < size; i++)
			seen[lines[i]]++;
		for (i = 0; i < size; i++)
			ck_assert_uint_eq(seen[i], 1);
		/* each block of b lines (a sub-bracket) holds exactly one of
		 * the top size / b seeds: they can meet only when it is won */
		for (b = 2; b <= size; b *= 2)
			for (i = 0; i < size; i += b) {
				size_t top = 0;
				for (k = i; k < i + b; k++)
					top += lines[k] < size / b;
				ck_assert_uint_eq(top, 1);
			}
		/* a first-round match: seeds s and size - 1 - s */
		for (i = 0; i < size; i += 2)
			ck_assert_uint_eq(lines[i] + lines[i + 1], size - 1);
	}
	ck_assert_uint_eq(knockout_size(5), 8);
	ck_assert_uint_eq(knockout_size(8), 8);
	ck_assert_uint_eq(knockout_size(33), 64);
	ck_assert_uint_eq(knockout_size(1), 0);
	ck_assert_int_eq(knockout_rounds(33), 6);
}
END_TEST

/* What the match between a and b of round in s's games must give,
 * recomputed from the rules of knockout.h: its winner, or -1. */
static ptrdiff_t expected_winner(const struct tournament_state *s, int round,
				 size_t a, size_t b)
{
	int pa = 0, pb = 0, counted = 0, sa, sb;
	const struct tournament_game *g;
	size_t i;

	for (i = 0; i < s->ngames; i++) {
		g = &s->games[i];
		if (g->round != round || !((g->white == a && g->black == b) ||
					   (g->white == b && g->black == a)))
			continue;
		if (!g->counts)
			break;
		sa = g->outcome == TOURNAMENT_DRAWN ? 1 :
		     (g->outcome == TOURNAMENT_WHITE_WINS) == (g->white == a) &&
		     g->outcome != TOURNAMENT_UNFINISHED ? 2 : 0;
		sb = g->outcome == TOURNAMENT_DRAWN ? 1 :
		     (g->outcome == TOURNAMENT_WHITE_WINS) == (g->white == b) &&
		     g->outcome != TOURNAMENT_UNFINISHED ? 2 : 0;
		counted++;
		if (counted <= 2) {
			pa += sa;
			pb += sb;
			if (counted == 2 && pa != pb)
				return pa > pb ? (ptrdiff_t)a : (ptrdiff_t)b;
		} else if (sa != sb) {
			return sa > sb ? (ptrdiff_t)a : (ptrdiff_t)b;
		}
		if (counted == 2 + KNOCKOUT_DECIDERS)
			return (ptrdiff_t)(a < b ? a : b);
	}
	if (s->players[a].withdrawn && !s->players[b].withdrawn)
		return (ptrdiff_t)b;
	if (s->players[b].withdrawn && !s->players[a].withdrawn)
		return (ptrdiff_t)a;
	if (s->players[a].withdrawn)
		return (ptrdiff_t)(a < b ? a : b);
	return -1;
}

/* Play an event of n to the end; withdraw: one player withdraws in
 * round 2 (if any). */
static void play_event(size_t n, uint64_t seed, bool withdraw)
{
	struct tournament_rules rules;
	struct event_log log = { 0 };
	struct tournament_state *s;
	struct knockout_match m[MAXP];
	struct tournament_pair pair;
	size_t nm, i, loops, byes = 0, size = knockout_size(n);
	int places[MAXP], count[MAXP + 2] = { 0 };
	int64_t game;
	bool done = false, withdrawn = !withdraw;

	tournament_rules_default(TOURNAMENT_KNOCKOUT, &rules);
	for (i = 0; i < n; i++)
		log_join(&log, (int64_t)(100 + i), 1500 + (int)rng_below(&seed, 500));
	for (loops = 0; !done; loops++) {
		ck_assert_uint_lt(loops, 200);
		s = replay_ok(&log, &rules);
		ck_assert_int_eq(knockout_bracket(s, m, &nm, NULL), 0);
		ck_assert_uint_eq(nm, size - 1);
		done = m[nm - 1].winner >= 0;
		for (i = 0; i < nm; i++) {
			if (m[i].a >= 0 && m[i].b >= 0)
				ck_assert_int_eq(m[i].winner,
						 expected_winner(s, m[i].round,
								 (size_t)m[i].a,
								 (size_t)m[i].b));
			if (knockout_next_game(s, &m[i], &pair) == 0)
				continue;
			/* the colours of knockout.h */
			if (m[i].games == 0)
				ck_assert_uint_eq(pair.white,
						  (size_t)(m[i].a < m[i].b ? m[i].a : m[i].b));
			else if (m[i].games == 2)
				ck_assert_uint_eq(pair.white,
						  (size_t)(m[i].a > m[i].b ? m[i].a : m[i].b));
			game = log_pair(&log, m[i].round,
					s->players[pair.white].player,
					s->players[pair.black].player);
			log_result(&log, game, s->players[pair.white].player,
				   s->players[pair.black].player,
				   rng_outcome(&seed));
		}
		if (!withdrawn && m[size / 2].a >= 0) { /* round 2 is on */
			log_add(&log, &(struct tournament_entry){
				.kind = TOURNAMENT_WITHDRAW, .round = 2,
				.player = s->players[m[size / 2].a].player });
			withdrawn = true;
		}
		if (done) {
			for (i = 0; i < size / 2; i++) {
				/* byes: the top size - n seeds */
				if (m[i].a < 0 || m[i].b < 0) {
					ck_assert_int_lt(m[i].winner,
							 (ptrdiff_t)(size - n));
					byes++;
				}
			}
			ck_assert_uint_eq(byes, size - n);
			knockout_places(s, m, nm, places);
			for (i = 0; i < n; i++) {
				ck_assert_int_gt(places[i], 0);
				count[places[i]]++;
			}
			ck_assert_int_eq(count[1], 1);
			ck_assert_int_eq(count[2], 1);
			for (i = 2; i < size; i *= 2) /* 3: 2, 5: 4, 9: 8 ... */
				ck_assert_int_eq(count[i + 1],
						 i == size / 2 ? (int)(n - size / 2) :
						 (int)i);
			ck_assert_int_eq(places[m[nm - 1].winner], 1);
		}
		tournament_state_free(&s);
	}
	log_free(&log);
}

START_TEST(test_random_events)
{
	uint64_t seed = 2727;
	size_t n;

	for (n = 5; n <= 33; n++) {
		play_event(n, seed++, false);
		play_event(n, seed++, true);
	}
	play_event(2, seed++, false);
}
END_TEST

START_TEST(test_deciders)
{
	struct tournament_rules rules;
	struct event_log log = { 0 };
	struct tournament_state *s;
	struct knockout_match m[1], m4[3];
	struct tournament_pair pair;
	struct tournament_fault f;
	size_t nm;
	int64_t g;
	int k;

	/* two players: 1 (rating 1900, seed 0) and 2 (1800) */
	tournament_rules_default(TOURNAMENT_KNOCKOUT, &rules);
	log_join(&log, 2, 1800);
	log_join(&log, 1, 1900);
	g = log_pair(&log, 1, 1, 2);
	log_result(&log, g, 1, 2, TOURNAMENT_WHITE_WINS);
	/* the second game swapped, as played: a swap made 2 White */
	s = replay_ok(&log, &rules);
	ck_assert_int_eq(knockout_bracket(s, m, &nm, NULL), 0);
	ck_assert_int_eq(knockout_next_game(s, &m[0], &pair), 1);
	ck_assert_uint_eq(pair.white, 1);
	tournament_state_free(&s);
	g = log_pair(&log, 1, 2, 1);
	log_result(&log, g, 2, 1, TOURNAMENT_WHITE_WINS); /* 1-1 */
	for (k = 0; k < KNOCKOUT_DECIDERS; k++) {
		s = replay_ok(&log, &rules);
		ck_assert_int_eq(knockout_bracket(s, m, &nm, NULL), 0);
		ck_assert_int_eq(m[0].winner, -1);
		ck_assert_int_eq(knockout_next_game(s, &m[0], &pair), 1);
		/* the lower seed White first, then alternating */
		ck_assert_uint_eq(pair.white, k % 2 == 0 ? 1 : 0);
		g = log_pair(&log, 1, s->players[pair.white].player,
			     s->players[pair.black].player);
		tournament_state_free(&s);
		/* a decider running: no other game is due */
		s = replay_ok(&log, &rules);
		ck_assert_int_eq(knockout_bracket(s, m, &nm, NULL), 0);
		ck_assert(m[0].pending);
		ck_assert_int_eq(knockout_next_game(s, &m[0], &pair), 0);
		tournament_state_free(&s);
		log_result(&log, g, log.e[log.n - 1].player,
			   log.e[log.n - 1].other, TOURNAMENT_DRAWN);
	}
	/* every decider drawn: the higher seed goes on */
	s = replay_ok(&log, &rules);
	ck_assert_int_eq(knockout_bracket(s, m, &nm, NULL), 0);
	ck_assert_int_eq(m[0].winner, 0);
	ck_assert_int_eq(m[0].points_a, 2);
	ck_assert_int_eq(m[0].points_b, 2);
	tournament_state_free(&s);
	log_free(&log);
	/* four: seeds 1 and 2 do not meet in round 1 */
	for (k = 1; k <= 4; k++)
		log_join(&log, k, 2000 - k);
	log_pair(&log, 1, 1, 2);
	s = replay_ok(&log, &rules);
	ck_assert_int_eq(knockout_bracket(s, m4, &nm, &f), -1);
	ck_assert_int_eq(f.error, TOURNAMENT_ERR_WRONG_PLAYERS);
	ck_assert_int_eq(f.game, log.next_game);
	tournament_state_free(&s);
	log_free(&log);
}
END_TEST

TEST_MAIN("knockout", "knockout", NULL, NULL, 30, test_lines,
	  test_random_events, test_deciders)
