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

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/core.h"
#include "core/record.h"

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

/* ---- estimates and the analysis of a game (analysis.c) ---- */

/* What an analysis spends by default (`analyse GAME` by mail, `ashes
 * analyse`): playouts per position and the seed.  bench/bench_analysis
 * measures what a ply costs at this budget. */
#define AI_ANALYSIS_PLAYOUTS 400L
#define AI_ANALYSIS_SEED 1
/* The biggest drops an analysis names. */
#define AI_ANALYSIS_DROPS 3
/* A drop smaller than this is the estimate's noise, not a mistake: not
 * named among the biggest. */
#define AI_ANALYSIS_DROP_MIN 0.01

/* The bot's estimate of a position: the chance of the side to move (the
 * mean result of `playouts` playouts of the search ai_choose() runs at
 * level 5 with that bound and seed, exact when the search proves it),
 * and the move it prefers there.  The same position, playouts and seed
 * give the same figures on any machine: no clock is read. */
struct ai_estimate {
	double chance;          /* 0 .. 1, for the side to move */
	bool has_best;          /* false: the game is over, or a pass is forced */
	struct core_move best;
};

/* Estimate pos.  A finished game's chance is its result for the side to
 * move (1, 0.5 or 0); a side that must pass has no best move, and its
 * chance is what the position after the pass gives it.  -1 with
 * CORE_ERR_NO_MEMORY (or CORE_ERR_BAD_ARGUMENT for playouts < 1). */
int ai_estimate(const struct core_position *pos, long playouts, uint64_t seed,
		struct ai_estimate *est_r, enum core_error *err_r);

/* One move of a game as the analysis sees it (forced passes are no
 * move: they come with the move before them). */
struct ai_analysis_ply {
	int ply;                /* its number in the record, from 1 */
	size_t moves_before;    /* the moves (passes left out) before it */
	int mover;              /* enum core_color */
	struct core_move move;  /* what was played */
	/* The mover's chance before the move (the estimate of the position
	 * it was played in) and after it (one minus the next position's
	 * estimate, that position's own when the mover moves again after a
	 * forced pass, or the result when the move ended the game). */
	double before, after;
	struct core_move best;  /* the bot's preferred move before it */
};

struct ai_analysis {
	long playouts;
	uint64_t seed;
	struct ai_analysis_ply *plies;  /* moves in order */
	size_t nplies;
	/* The biggest drops (before - after >= AI_ANALYSIS_DROP_MIN),
	 * biggest first (the earlier on a tie): indexes into plies. */
	size_t drops[AI_ANALYSIS_DROPS];
	size_t ndrops;
	/* The turning point: of the moves after which the winner's chance
	 * stayed above one half to the end (plies[ahead_from ..]), the one
	 * that raised it most (an index into plies); -1 when the winner was
	 * not ahead after the last move (won by resignation or on time),
	 * or for a draw (then the biggest drop is the game's story). */
	long turning;
	long ahead_from;
	int winner;             /* enum core_color, or -1: drawn or unfinished */
};

/* Analyse the game of rec (its moves replayed from the start; its result
 * from rec->pos, which a resignation or the clock may have decided):
 * one estimate per position, `playouts` each, seeded by `seed`.  Frees
 * nothing of rec; free *a_r with ai_analysis_free().  -1 with *err_r
 * (CORE_ERR_NO_MEMORY, or an illegal ply in rec). */
int ai_analyse(const struct core_record *rec, long playouts, uint64_t seed,
	       struct ai_analysis *a_r, enum core_error *err_r);
void ai_analysis_free(struct ai_analysis *a);

#endif
