/* swiss.h -- the pairing of a Swiss round.
 *
 * It follows the main rules of the FIDE Dutch system (Handbook C.04.3,
 * with the basic rules of C.04.1): players are ranked by score, then by
 * seed; a score group is split into a top half S1 and a bottom half S2
 * and S1[i] meets S2[i]; what cannot be paired in its group floats down
 * to the next; no two players meet twice; the bye goes to the
 * lowest-ranked player who has not had one; colours by the players'
 * colour differences, then by their last colours.
 *
 * What it simplifies: instead of the Dutch system's numbered list of
 * quality criteria (C.04.3 C.5-C.21, floats, transposition and exchange
 * limits) it takes the first pairing, in one fixed order of preference,
 * that satisfies the strictest level of rules below at which any pairing
 * exists.  The order of preference: the top unpaired player (by rank) is
 * paired first, with the first allowed player of
 *   1. their own score group's S2 (from the top), if they are in S1;
 *      the rest of their group's S2 below them, if they are in S2;
 *   2. then their group's S1 below them (an exchange);
 *   3. then the players of the lower groups, by rank (a float down);
 * and the pairing chosen is the first in that order (lexicographic by
 * board): without any rule in the way it is the Dutch S1-S2 pairing of
 * each group.  There are no upfloat or downfloat histories, no
 * accelerated rounds, and colour preferences do not reorder S2.
 *
 * The levels, strictest first; the first at which a pairing exists is
 * used (swiss_report.level):
 *   0. no pair meets twice; after the round every player's whites minus
 *      blacks is in [-1, 1] (a player already outside only moves
 *      towards 0); the bye to a player without one;
 *   1. the same with [-2, 2] (the Dutch system's absolute colour rule);
 *   2. the same with any colours;
 *   3-5. levels 0-2 with the bye to a player who has had one (fewest
 *      byes first, then the lowest-ranked);
 *   6. pairs may meet again (a field too small for the rounds).
 * So, exactly: no pair meets twice whenever any pairing of the round
 * without a repeat exists, and colours stay within one whenever a
 * repeat-free pairing with them and a first bye exists.  A player whose
 * difference stayed within one never played three games in a row with
 * one colour (byes have none).
 *
 * The search: at each level, for each possible bye (lowest-ranked
 * first), a depth-first search in the order of preference.  It stops
 * after max_steps candidates tried in all (SWISS_STEPS by default);
 * from then on the same order is followed with a test instead of a
 * search: each player takes the first allowed candidate after whom the
 * rest can still be paired, which a maximum-matching search (Edmonds'
 * blossom algorithm, polynomial) decides.  That finds the same first
 * pairing the search would have found, in bounded time, so the bound
 * changes the time taken and never the pairing.
 *
 * Colours of a pair: the lower colour difference takes White; if equal,
 * the one who had Black last; if those are equal too, the higher-ranked
 * takes the colour they did not have last, and if neither has played,
 * the higher-ranked takes White on boards 1, 3, 5... and Black on 2, 4,
 * 6... (the first round: seeds 1, 3, 5... White).  The colour a level
 * does not allow is never given.
 *
 * Pure: no I/O, no store, never time(), no randomness.
 */
#ifndef ASHES_SERVER_SWISS_H
#define ASHES_SERVER_SWISS_H

#include <stdbool.h>
#include <stddef.h>

#include "server/tournament.h"

#define SWISS_STEPS 20000
#define SWISS_LEVELS 7

/* A player to pair, by seed (index 0 the top seed). */
struct swiss_player {
	int points;       /* half points */
	int colour_diff;  /* whites - blacks */
	int last_colour;  /* +1 White, -1 Black, 0 none */
	int byes;
	bool active;      /* false: withdrawn, not paired */
};

struct swiss_report {
	int level;        /* 0..SWISS_LEVELS - 1, as in the header */
	size_t steps;     /* candidates tried by the search */
	bool matched;     /* the bound was reached: the matching test
			   * finished the pairing */
};

/* Pair the active ones of players[0..n) (met: n * n, met[a * n + b]
 * whether a and b played): into pairs_r (room for n / 2) in board order
 * (by the rank of the higher-ranked player), their number into
 * *npairs_r, the bye's index into *bye_r (-1: none), and *report_r (may
 * be NULL).  max_steps 0 takes SWISS_STEPS.  -1 and *fault_r (may be
 * NULL): more than TOURNAMENT_MAX_PLAYERS (TOO_MANY), fewer than 2
 * active (TOO_FEW). */
int swiss_pair(const struct swiss_player *players, size_t n,
	       const bool *met, size_t max_steps, struct tournament_pair *pairs_r,
	       size_t *npairs_r, ptrdiff_t *bye_r,
	       struct swiss_report *report_r,
	       struct tournament_fault *fault_r);

/* The players of state as the pairing takes them, into players_r (room
 * for state->nplayers): points, the colours of the games finished on
 * the board, byes; the withdrawn inactive. */
void swiss_players_of(const struct tournament_state *state,
		      struct swiss_player *players_r);
/* The next round of an event: swiss_players_of(state) paired by
 * swiss_pair.  The service records a PAIRING for each pair (round
 * state->rounds_paired + 1) and a BYE. */
int swiss_pair_next(const struct tournament_state *state, size_t max_steps,
		    struct tournament_pair *pairs_r, size_t *npairs_r,
		    ptrdiff_t *bye_r, struct swiss_report *report_r,
		    struct tournament_fault *fault_r);

#endif
