/* roundrobin.h -- the rounds of an event's round robin.
 *
 * The circle method (Berger's tables; league.h's league_pairings is the
 * one implementation): the entrants in seed order; an odd field gets a
 * sit-out place, and whoever meets it in a round sits that round out (a
 * BYE entry scoring nothing: everyone sits out once a cycle).  A cycle
 * is n - 1 rounds for an even n, n for an odd one; every pair meets once
 * in it, and each player's whites and blacks differ by at most one (by
 * none for an odd field).  With `double = yes` a second cycle follows
 * the first, round r + cycle the same games as round r with the colours
 * swapped: every pair twice, and everyone exactly as many whites as
 * blacks.
 *
 * A withdrawn player stays in the schedule: the service records the
 * PAIRING of each of their later games and creates no game, and the
 * replay counts it as they lost it (tournament.h).
 *
 * Pure: no I/O, no store, never time(), no randomness.
 */
#ifndef ASHES_SERVER_ROUNDROBIN_H
#define ASHES_SERVER_ROUNDROBIN_H

#include <stdbool.h>
#include <stddef.h>

#include "server/tournament.h"

/* The rounds of n entrants (0 for n < 2). */
int roundrobin_rounds(size_t n, bool twice);
/* The games of round (1..roundrobin_rounds) of n entrants (2..
 * TOURNAMENT_MAX_PLAYERS) into pairs_r (room for n / 2), indices in seed
 * order; returns their number, and *bye_r the one sitting out (-1:
 * none).  0 and -1 for a round or n out of range. */
size_t roundrobin_round(size_t n, bool twice, int round,
			struct tournament_pair *pairs_r, ptrdiff_t *bye_r);

#endif
