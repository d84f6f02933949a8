/* ladder_test.h -- what the files of tests/server/test_ladder share: a
 * ladder under test (its rules, its log, the standing built event by
 * event) and the helpers that grow it and check its places.
 *
 * One Check program, one suite "ladder":
 *   test_ladder.c     the helpers, the rules, the checks of a challenge,
 *                     malformed events, replay; main();
 *   ladder_results.c  what each result does to the places, walkovers,
 *                     races, the operator's move, absence.
 *
 * Players are ids 1..n joined in that order (lad_init), so at the start
 * a player's id is their place.
 */
#ifndef ASHES_TESTS_SERVER_LADDER_TEST_H
#define ASHES_TESTS_SERVER_LADDER_TEST_H

#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "server/ladder.h"

#define D LADDER_DAY
#define T0 ((int64_t)1767225600) /* 2026-01-01 00:00 UTC */

struct lad {
	struct ladder_rules rules;
	struct ladder_standing *s;
	struct ladder_event log[4096];
	size_t n;
};

/* The default rules and players 1..n joined at T0. */
void lad_init(struct lad *l, int n);
/* Apply e (it must be accepted) and log it. */
void lad_apply(struct lad *l, const struct ladder_event *e);
void lad_join(struct lad *l, int64_t player, int64_t at);
/* A WITHDRAWN event. */
void lad_leave(struct lad *l, int64_t player, int64_t at);
/* A challenge the rules allow (checked), recorded. */
void lad_challenge(struct lad *l, int64_t c, int64_t d, int64_t game,
		   int64_t at);
void lad_result(struct lad *l, int64_t game, enum ladder_result kind,
		int64_t winner, int64_t loser, int64_t at);
/* The places are exactly the n ids given, top first. */
void lad_order(const struct lad *l, size_t n, ...);
/* Every field of a and b is the same. */
void standing_eq(const struct ladder_standing *a,
		 const struct ladder_standing *b);
/* The replay of the log is the standing built event by event; frees. */
void lad_done(struct lad *l);

void ladder_test_results(TCase *tc);

#endif
