/* ai-int.h -- internals shared by the files of the search (the PRNG, the
 * playouts, the immediate-win test, the tree).  Not for other layers: they
 * use ai.h.
 */
#ifndef ASHES_AI_INT_H
#define ASHES_AI_INT_H

#include <stdbool.h>

#include "ai/ai.h"

/* The moves a playout lists at once; a longer list (huge stacks have
 * many splits) is drawn from by number instead. */
#define AI_LIST_CAP 4096

/* A playout longer than this many plies is scored as a draw: the rules
 * end every game, but a search must not trust that with its time. */
#define AI_PLAYOUT_MAX_PLIES 2000

/* How playouts choose their moves. */
enum ai_policy {
	AI_POLICY_UNIFORM = 0, /* uniformly random over the legal moves */
	AI_POLICY_WIN = 1,     /* an immediate win when there is one */
	/* AI_POLICY_WIN, and never a move that pays tax (a capture, a
	 * stack spent) while one that does not is there: tax is what
	 * starves a player of growth, and random play pays it freely.
	 * Uniformly random over the moves that pay none. */
	AI_POLICY_TAX = 2,
};

/* splitmix64: one 64-bit word of state, any seed is good. */
struct ai_rng {
	uint64_t state;
};

static inline uint64_t ai_rng_next(struct ai_rng *r)
{
	uint64_t z = (r->state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* A number in 0 .. n-1 (n >= 1); the bias is below 2^-40 for the
 * counts a position has. */
static inline size_t ai_rng_below(struct ai_rng *r, size_t n)
{
	return (size_t)(ai_rng_next(r) % n);
}

/* Greatest common divisor (for orders of moves that visit each once). */
static inline size_t ai_gcd(size_t a, size_t b)
{
	while (b != 0) {
		size_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* What a finished game is worth to `color`: 1 won, 0.5 drawn, 0 lost. */
static inline double ai_reward(enum core_result result, int color)
{
	if (result == CORE_RESULT_DRAW || result == CORE_ONGOING)
		return 0.5;
	return (result == CORE_RESULT_WHITE) == (color == CORE_WHITE) ? 1.0 :
		0.0;
}

/* The result "`color` won". */
static inline enum core_result ai_win_of(int color)
{
	return color == CORE_WHITE ? CORE_RESULT_WHITE : CORE_RESULT_BLACK;
}

/* Scratch space of one search: a move list, so that nothing is
 * allocated per playout and two searches may run on two threads. */
struct ai_scratch {
	struct core_move moves[AI_LIST_CAP];
};

/* A move that wins the game at once for the side to move in pos (the
 * opponent eliminated, the mover not): true and *move_r, or false.
 * Cheap when no such move can exist: a move removes at most one of the
 * opponent's stacks, so with two or more left there is none. */
bool ai_winning_move(const struct core_position *pos, struct ai_scratch *s,
		     struct core_move *move_r);

/* Play pos out to the end with `policy`; returns the result (a draw
 * past AI_PLAYOUT_MAX_PLIES).  pos is changed. */
enum core_result ai_playout(struct core_position *pos, enum ai_policy policy,
			    struct ai_rng *rng, struct ai_scratch *s);

/* A uniformly random legal move for the side to move (which has one). */
void ai_random_move(const struct core_position *pos, struct ai_rng *rng,
		    struct core_move *move_r);

/* The bounds and knobs of one tree search. */
struct ai_search {
	long max_playouts;     /* > 0 */
	int64_t time_ms;       /* <= 0: no time bound */
	long min_playouts;     /* the time bound stops no search before */
	enum ai_policy policy;
	double explore;        /* the UCT constant */
};

/* Run UCT from pos (ongoing, side to move has a legal move) and choose a
 * move; candidates as ai_choose().  *playouts_r (may be NULL) gets the
 * playouts run, *value_r (may be NULL) the mean result of them all for
 * the side to move (exact when the search proved the position).  -1 with
 * CORE_ERR_NO_MEMORY if the tree cannot be allocated. */
int ai_mcts(const struct core_position *pos, const struct ai_search *search,
	    struct ai_rng *rng, struct core_move *move_r,
	    struct ai_candidate *top, size_t top_cap, size_t *ntop_r,
	    long *playouts_r, double *value_r, enum core_error *err_r);

/* The search ai_choose() runs at `level` (2 to 5) with opt's bounds,
 * and its generator seeded for pos: what ai_estimate() shares with it,
 * so that `ashes think --playouts P --seed S` repeats an analysis. */
void ai_search_setup(const struct core_position *pos,
		     const struct ai_options *opt, int level,
		     struct ai_search *search_r, struct ai_rng *rng_r);

#endif
