/* ai.h -- the practice opponent's brain: Monte Carlo tree search (UCT)
 * over the rules core, and the five levels players choose from.
 *
 * Links against libc and the core only.  Deterministic for a given seed:
 * the same position, options and seed give the same move (a time bound
 * can cut the search short; bound by playouts for exact repeats).
 * Conventions as in core.h: 0 / -1 with the reason in *err_r.
 */
#ifndef ASHES_AI_H
#define ASHES_AI_H

#include <stddef.h>
#include <stdint.h>

#include "core/core.h"

#define AI_LEVEL_MIN 1
#define AI_LEVEL_MAX 5

/* The fewest playouts level 5 searches, however short its time: what
 * bench/bench_bot plays it at. */
#define AI_LEVEL5_FLOOR 3200L

struct ai_options {
	int level;          /* AI_LEVEL_MIN .. AI_LEVEL_MAX */
	uint64_t seed;      /* same seed, same position: same move */
	int64_t time_ms;    /* thinking time for the top level(s); 0: level's own */
	long max_playouts;  /* 0: the level's own bound */
};

/* time_ms < 0 lifts the time bound altogether: the search is then bounded
 * by max_playouts (or the level's playouts) alone, and repeats exactly
 * for a seed.  time_ms > 0 bounds any level that searches (2 to 5).
 * Levels 2-4 are bounded by playouts by default, level 5 by time. */

/* One move the search considered, best first. */
struct ai_candidate {
	struct core_move move;
	long visits;
	double value;       /* mean result for the side to move, 0 .. 1 */
};

/* The defaults of a level (time, playouts); level outside 1..5 is
 * clamped. */
void ai_options_default(struct ai_options *opt_r, int level);

/* Choose a move for the side to move in pos.  top[0 .. top_cap-1] (may be
 * NULL with top_cap 0) gets the best candidates, *ntop_r how many.  -1
 * with CORE_ERR_GAME_OVER when the game is over, CORE_ERR_PASS_NOT_FORCED
 * never; when the side to move has no legal move, -1 with
 * CORE_ERR_BAD_ARGUMENT (the rules pass for it).  Allocates its tree
 * (bounded by the playout bound) and frees it before returning. */
int ai_choose(const struct core_position *pos, const struct ai_options *opt,
	      struct core_move *move_r, struct ai_candidate *top,
	      size_t top_cap, size_t *ntop_r, enum core_error *err_r);

#endif
