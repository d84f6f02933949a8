/* playout.c -- the fast end of the search: random playouts to the end of
 * the game, and the test for a move that wins at once (which the playout
 * policy, the tree and level 1 all use). */
#include <string.h>

#include "ai/ai-int.h"

/* The cell of `color`'s only stack, or -1. */
static int playout_only_stack(const struct core_position *pos, int color)
{
	int c;

	for (c = 0; c < pos->geom->ncells; c++)
		if (color == CORE_WHITE ? pos->stack[c] > 0 :
		    pos->stack[c] < 0)
			return c;
	return -1;
}

bool ai_winning_move(const struct core_position *pos, struct ai_scratch *s,
		     struct core_move *move_r)
{
	int me = pos->to_move, opp = me ^ 1, target = -1;
	enum core_result win = ai_win_of(me);
	size_t first = 0, total, got, i;

	if (pos->result != CORE_ONGOING || pos->nstacks[opp] >= 2)
		return false;
	/* With one stack left the winning move must take it; with none,
	 * any move may be the one that leaves the opponent no growth. */
	if (pos->nstacks[opp] == 1)
		target = playout_only_stack(pos, opp);
	do {
		total = core_legal_moves_from(pos, first, s->moves,
					      AI_LIST_CAP);
		got = total - first < AI_LIST_CAP ? total - first :
			AI_LIST_CAP;
		for (i = 0; i < got; i++) {
			struct core_position after;

			if (target >= 0 && s->moves[i].to != target)
				continue;
			memcpy(&after, pos, sizeof(after));
			core_play_unchecked(&after, &s->moves[i], NULL);
			if (after.result == win) {
				*move_r = s->moves[i];
				return true;
			}
		}
		first += got;
	} while (first < total);
	return false;
}

void ai_random_move(const struct core_position *pos, struct ai_rng *rng,
		    struct core_move *move_r)
{
	size_t n = core_legal_moves_from(pos, 0, NULL, 0);

	core_legal_moves_from(pos, ai_rng_below(rng, n), move_r, 1);
}

enum core_result ai_playout(struct core_position *pos, enum ai_policy policy,
			    struct ai_rng *rng, struct ai_scratch *s)
{
	struct core_pick_state ps;
	int start = pos->ply;

	/* Moves are drawn by number, not from the whole list: listing was
	 * four fifths of a search's time. */
	core_pick_state_init(&ps, pos);
	while (pos->result == CORE_ONGOING) {
		struct core_move move;

		if (pos->ply - start >= AI_PLAYOUT_MAX_PLIES)
			return CORE_RESULT_DRAW;
		if (policy != AI_POLICY_UNIFORM &&
		    pos->nstacks[pos->to_move ^ 1] <= 1 &&
		    ai_winning_move(pos, s, &move)) {
			core_play_picked(pos, &ps, &move, NULL);
			continue;
		}
		/* A move that pays no tax is a quiet one (core.h). */
		if ((policy != AI_POLICY_TAX ||
		     core_quiet_move_pick_with(&ps, pos, ai_rng_next(rng),
					       &move) == 0) &&
		    core_legal_move_pick_with(&ps, pos, ai_rng_next(rng),
					      &move) == 0)
			return CORE_RESULT_DRAW; /* a pass the caller owed */
		core_play_picked(pos, &ps, &move, NULL);
	}
	return (enum core_result)pos->result;
}
