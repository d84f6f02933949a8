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
	int start = pos->ply;

	while (pos->result == CORE_ONGOING) {
		struct core_move move;
		size_t n, r;

		if (pos->ply - start >= AI_PLAYOUT_MAX_PLIES)
			return CORE_RESULT_DRAW;
		if (policy != AI_POLICY_UNIFORM &&
		    pos->nstacks[pos->to_move ^ 1] <= 1 &&
		    ai_winning_move(pos, s, &move)) {
			core_play_unchecked(pos, &move, NULL);
			continue;
		}
		/* The whole list, as a player program would; only a list
		 * too long for it is drawn from by number. */
		n = core_legal_moves(pos, s->moves, AI_LIST_CAP);
		if (n == 0)
			return CORE_RESULT_DRAW; /* a pass the caller owed */
		r = ai_rng_below(rng, n);
		if (r >= AI_LIST_CAP) {
			core_legal_moves_from(pos, r, &move, 1);
		} else if (policy == AI_POLICY_TAX) {
			/* The first move from r on (round the list) that
			 * pays no tax; r's own if all of them pay. */
			size_t k, len = n < AI_LIST_CAP ? n : AI_LIST_CAP;

			move = s->moves[r];
			for (k = 0; k < len; k++) {
				const struct core_move *m =
					&s->moves[(r + k) % len];

				if (!ai_pays_tax(pos, m)) {
					move = *m;
					break;
				}
			}
		} else {
			move = s->moves[r];
		}
		core_play_unchecked(pos, &move, NULL);
	}
	return (enum core_result)pos->result;
}
