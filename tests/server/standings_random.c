/* standings_random.c -- test_standings's seeded random events: a
 * thousand Swiss and round-robin events played through the log (the
 * pairing modules pair them; results, draws, colours swapped in play,
 * adjudications, unfinished games, withdrawals before and during the
 * event), each replayed twice and from a reordered log to the same
 * standings, and the points of every player counted again from the log
 * by this file's own reading of tournament.h's rules. */
#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "server/roundrobin.h"
#include "server/swiss.h"
#include "server/tournament.h"
#include "event_test.h"

#define RMAX 24

/* The points of player id by the rules of tournament.h, read straight
 * off the log. */
static int count_points(const struct event_log *log,
			const struct tournament_rules *rules, int64_t id)
{
	int64_t ids[RMAX];
	bool withdrawn[RMAX] = { false };
	int finished[RMAX] = { 0 }, points = 0, n = 0, i, w, b, me = -1;
	size_t k, j;
	enum tournament_outcome o;
	int64_t white, black;
	const struct tournament_entry *e;

	/* the entrants: JOIN, undone by a LEAVE or WITHDRAW of round 0 */
	for (k = 0; k < log->n; k++) {
		e = &log->e[k];
		if (e->kind == TOURNAMENT_JOIN) {
			ids[n++] = e->player;
		} else if (e->kind == TOURNAMENT_LEAVE ||
			   e->kind == TOURNAMENT_WITHDRAW) {
			for (i = 0; i < n && ids[i] != e->player; i++)
				;
			if (e->round == 0) {
				ids[i] = ids[--n];
				withdrawn[i] = withdrawn[n];
			} else {
				withdrawn[i] = true;
			}
		}
	}
#define INDEX(player, r)                                                   \
	do {                                                               \
		for (r = 0; r < n && ids[r] != (player); r++)              \
			;                                                  \
	} while (0)
	INDEX(id, me);
	/* twice over the games: the finished counts, then the points */
	for (int pass = 0; pass < 2; pass++) {
		for (k = 0; k < log->n; k++) {
			if (log->e[k].kind != TOURNAMENT_PAIRING)
				continue;
			o = TOURNAMENT_UNFINISHED;
			white = log->e[k].player;
			black = log->e[k].other;
			bool adjudicated = false;
			for (j = 0; j < log->n; j++) {
				e = &log->e[j];
				if (e->game != log->e[k].game ||
				    (e->kind != TOURNAMENT_RESULT &&
				     e->kind != TOURNAMENT_ADJUDICATION))
					continue;
				if (e->kind == TOURNAMENT_RESULT && adjudicated)
					continue;
				adjudicated |= e->kind == TOURNAMENT_ADJUDICATION;
				o = e->outcome;
				white = e->player;
				black = e->other;
			}
			INDEX(white, w);
			INDEX(black, b);
			if (pass == 0) {
				if (o != TOURNAMENT_UNFINISHED) {
					finished[w]++;
					finished[b]++;
				}
				continue;
			}
			if (w != me && b != me)
				continue;
			bool removed_w = rules->format == TOURNAMENT_ROUNDROBIN &&
				withdrawn[w] && 2 * finished[w] <
				(n - 1) * (rules->twice ? 2 : 1);
			bool removed_b = rules->format == TOURNAMENT_ROUNDROBIN &&
				withdrawn[b] && 2 * finished[b] <
				(n - 1) * (rules->twice ? 2 : 1);
			if (removed_w || removed_b)
				continue;
			if (o == TOURNAMENT_UNFINISHED) {
				if (withdrawn[w] && !withdrawn[b])
					o = TOURNAMENT_BLACK_WINS;
				else if (withdrawn[b] && !withdrawn[w])
					o = TOURNAMENT_WHITE_WINS;
			}
			if (o == TOURNAMENT_DRAWN)
				points += 1;
			else if ((o == TOURNAMENT_WHITE_WINS && w == me) ||
				 (o == TOURNAMENT_BLACK_WINS && b == me))
				points += 2;
		}
	}
	if (rules->format == TOURNAMENT_ROUNDROBIN && withdrawn[me] &&
	    2 * finished[me] < (n - 1) * (rules->twice ? 2 : 1))
		return 0;
	for (k = 0; k < log->n; k++)
		if (log->e[k].kind == TOURNAMENT_BYE && log->e[k].player == id &&
		    rules->format == TOURNAMENT_SWISS)
			points += rules->bye_points;
	return points;
#undef INDEX
}

/* A copy of log in a random order that keeps what the replay reads in
 * order: the JOIN, LEAVE and WITHDRAW entries, and the adjudications. */
static void reorder(const struct event_log *log, uint64_t *seed,
		    struct event_log *out)
{
	size_t i, j, k;
	struct tournament_entry t;

	for (i = 0; i < log->n; i++)
		log_add(out, &log->e[i]);
	for (i = out->n; i > 1; i--) {
		j = rng_below(seed, i);
		t = out->e[i - 1];
		out->e[i - 1] = out->e[j];
		out->e[j] = t;
	}
	/* the kept ones back into their order, in the places they took */
	for (int pass = 0; pass < 2; pass++) {
		k = 0;
		for (i = 0; i < out->n; i++) {
			enum tournament_entry_kind kind = out->e[i].kind;
			bool kept = pass == 0 ?
				kind == TOURNAMENT_JOIN || kind == TOURNAMENT_LEAVE ||
				kind == TOURNAMENT_WITHDRAW :
				kind == TOURNAMENT_ADJUDICATION;
			if (!kept)
				continue;
			for (; k < log->n; k++) {
				kind = log->e[k].kind;
				if (pass == 0 ? kind == TOURNAMENT_JOIN ||
						kind == TOURNAMENT_LEAVE ||
						kind == TOURNAMENT_WITHDRAW :
						kind == TOURNAMENT_ADJUDICATION)
					break;
			}
			out->e[i] = log->e[k++];
		}
	}
}

/* One game's end, or none: a result (a tenth with the colours swapped
 * in play), now and then an adjudication, a tenth left unfinished. */
static void end_game(struct event_log *log, uint64_t *seed, int64_t game,
		     int64_t white, int64_t black)
{
	size_t r = rng_below(seed, 20);

	if (r < 2)
		return;
	if (rng_below(seed, 10) == 0)
		log_result(log, game, black, white, rng_outcome(seed));
	else
		log_result(log, game, white, black, rng_outcome(seed));
	if (r == 2 || r == 3)
		log_add(log, &(struct tournament_entry){
			.kind = TOURNAMENT_ADJUDICATION, .game = game,
			.player = white, .other = black,
			.outcome = rng_outcome(seed) });
}

static void random_event(uint64_t seed)
{
	struct tournament_rules rules;
	struct event_log log = { 0 }, other = { 0 };
	struct tournament_state *s, *s2;
	struct tournament_row rows[RMAX], rows2[RMAX];
	struct tournament_pair p[RMAX];
	size_t n = 3 + rng_below(&seed, 14), np, i;
	ptrdiff_t bye;
	int round, rounds;
	int64_t g;

	tournament_rules_default(rng_below(&seed, 2) == 0 ? TOURNAMENT_SWISS :
				 TOURNAMENT_ROUNDROBIN, &rules);
	rules.twice = rng_below(&seed, 4) == 0;
	rules.bye_points = (int)rng_below(&seed, 3);
	for (i = 0; i < n; i++) /* equal ratings now and then */
		log_join(&log, (int64_t)(i + 1), 1500 + 50 * (int)rng_below(&seed, 6));
	if (rng_below(&seed, 3) == 0) { /* one leaves before the start */
		log_add(&log, &(struct tournament_entry){
			.kind = TOURNAMENT_LEAVE, .player = 1 });
		if (rng_below(&seed, 2) == 0)
			log_join(&log, 1, 1400);
		else
			n--;
	}
	rounds = rules.format == TOURNAMENT_SWISS ?
		 3 + (int)rng_below(&seed, 4) : roundrobin_rounds(n, rules.twice);
	for (round = 1; round <= rounds; round++) {
		s = replay_ok(&log, &rules);
		if (rules.format == TOURNAMENT_SWISS) {
			if (swiss_pair_next(s, 0, p, &np, &bye, NULL, NULL) < 0) {
				tournament_state_free(&s);
				break; /* fewer than two left */
			}
		} else {
			np = roundrobin_round(s->nplayers, rules.twice, round, p,
					      &bye);
		}
		for (i = 0; i < np; i++) {
			int64_t w = s->players[p[i].white].player;
			int64_t b = s->players[p[i].black].player;
			g = log_pair(&log, round, w, b);
			if (!s->players[p[i].white].withdrawn &&
			    !s->players[p[i].black].withdrawn)
				end_game(&log, &seed, g, w, b);
		}
		if (bye >= 0)
			log_add(&log, &(struct tournament_entry){
				.kind = TOURNAMENT_BYE, .round = round,
				.player = s->players[bye].player });
		i = rng_below(&seed, s->nplayers);
		if (rng_below(&seed, 12) == 0 && !s->players[i].withdrawn)
			log_add(&log, &(struct tournament_entry){
				.kind = rng_below(&seed, 2) ? TOURNAMENT_LEAVE :
					TOURNAMENT_WITHDRAW,
				.round = round, .player = s->players[i].player });
		tournament_state_free(&s);
	}
	/* the same log twice, and reordered: the same standings */
	s = replay_ok(&log, &rules);
	tournament_standings(s, &rules, rows);
	tournament_standings(s, &rules, rows2);
	ck_assert_mem_eq(rows, rows2, s->nplayers * sizeof(*rows));
	reorder(&log, &seed, &other);
	s2 = replay_ok(&other, &rules);
	ck_assert_uint_eq(s2->nplayers, s->nplayers);
	ck_assert_mem_eq(s->players, s2->players,
			 s->nplayers * sizeof(*s->players));
	tournament_standings(s2, &rules, rows2);
	ck_assert_mem_eq(rows, rows2, s->nplayers * sizeof(*rows));
	/* ranked by points, and the points as the log says */
	for (i = 0; i < s->nplayers; i++) {
		ck_assert_int_eq(s->players[i].points,
				 count_points(&log, &rules, s->players[i].player));
		if (i > 0 && !s->players[rows[i].player].removed)
			ck_assert_int_le(rows[i].points, rows[i - 1].points);
	}
	tournament_state_free(&s);
	tournament_state_free(&s2);
	log_free(&log);
	log_free(&other);
}

START_TEST(test_random_replay_fn)
{
	uint64_t e;

	for (e = 0; e < 1000; e++)
		random_event(e * 104729 + 1);
}
END_TEST

const TTest *standings_random_test(void)
{
	return test_random_replay_fn;
}
