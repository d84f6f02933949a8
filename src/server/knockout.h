/* knockout.h -- an event's knockout bracket: the draw, the matches and
 * who goes on, as a pure function of the replayed log.
 *
 * The draw: the entrants in seed order (rating, then id: tournament.h)
 * on a bracket of size P, the smallest power of two >= n, in the
 * standard order -- seed 1 meets seed P, 2 meets P - 1, and so on, the
 * lines placed so that seeds 1 and 2 can meet only in the final, 1-4 only
 * in the semi-finals, ... (for 8: 1-8, 4-5, 2-7, 3-6).  The P - n seeds
 * above n do not exist: their opponents, the top P - n seeds, have a bye
 * into round 2.  Round k has P / 2^k matches; the winner of match i of a
 * round meets the winner of match i ^ 1 in match i / 2 of the next.
 *
 * A match: two games with the colours swapped: in the first the higher
 * seed (the lower index) has White, in the second the one who played
 * Black in the first (as its result has the colours: a swap during the
 * game counts).  Then the more points wins.  Equal: a decider, and as
 * many more as are drawn, up to KNOCKOUT_DECIDERS: the first decider
 * won decides.  In the first decider the lower seed (the lower-rated;
 * equal ratings: the higher id) has White, and the colours alternate
 * from there.  After KNOCKOUT_DECIDERS drawn deciders the higher seed
 * goes on.  All of a match's games are PAIRING entries of its round, in
 * the order of their game ids.
 *
 * Withdrawals: a withdrawn player's games without a result are lost
 * (tournament.h), and a match not decided by its finished games is lost
 * by a withdrawn player at once (a walkover; both withdrawn: the higher
 * seed is the one who goes on, and loses the next match the same way).
 *
 * Places (knockout_places): 1 the winner, 2 the final's loser, 3 both
 * semi-final losers, 5 the quarter-final losers, ...: 1 + the number of
 * players who went further.
 *
 * Pure: no I/O, no store, never time(), no randomness.
 */
#ifndef ASHES_SERVER_KNOCKOUT_H
#define ASHES_SERVER_KNOCKOUT_H

#include <stdbool.h>
#include <stddef.h>

#include "server/tournament.h"

#define KNOCKOUT_DECIDERS 4

struct knockout_match {
	int round;        /* 1.. */
	size_t slot;      /* 0.. in its round, top of the bracket first */
	ptrdiff_t a, b;   /* the players (indices, a the upper line); -1:
			   * a bye (round 1) or not known yet */
	int points_a, points_b; /* half points, the two games */
	int games;        /* games paired (finished or not) */
	bool pending;     /* one of them has no result yet */
	ptrdiff_t winner; /* -1: not decided */
	bool walkover;    /* decided by a bye or a withdrawal */
};

/* The size of the bracket of n entrants: the smallest power of two >= n
 * (0 for n < 2 or n > TOURNAMENT_MAX_PLAYERS). */
size_t knockout_size(size_t n);
/* Its rounds: log2 of the size. */
int knockout_rounds(size_t n);
/* The seed index (0..size-1; >= n a bye) of each line of a bracket of
 * size (a power of two >= 2), top to bottom, into lines_r. */
void knockout_lines(size_t size, size_t *lines_r);

/* The bracket of state's entrants after its games: into matches_r (room
 * for knockout_size - 1) round by round, slot by slot; the number into
 * *nmatches_r.  -1 and *fault_r (may be NULL): fewer than 2 entrants
 * (TOO_FEW), a game of a round between players who do not meet in it
 * (WRONG_PLAYERS, game). */
int knockout_bracket(const struct tournament_state *state,
		     struct knockout_match *matches_r, size_t *nmatches_r,
		     struct tournament_fault *fault_r);
/* The next game of match m: 1 and *pair_r (its colours, by the rules of
 * the header; state gives the first game's colours), or 0 if none is
 * due (decided, a player not known yet, or a game still running). */
int knockout_next_game(const struct tournament_state *state,
		       const struct knockout_match *m,
		       struct tournament_pair *pair_r);
/* Each entrant's place (header) into places_r (room for the entrants),
 * 0 for those still in. */
void knockout_places(const struct tournament_state *state,
		     const struct knockout_match *matches, size_t nmatches,
		     int *places_r);

#endif
