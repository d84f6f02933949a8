/* analysis.c -- the bot's estimate of a position and the analysis of a
 * finished game built from it: per move the mover's chance before and
 * after, the biggest drops and the turning point.  Pure computation (no
 * I/O, no clock): the daemon's bot thread, `ashes analyse` and `ashes
 * think` all come here, so a figure one prints the others repeat. */
#include <stdlib.h>
#include <string.h>

#include "ai/ai-int.h"

int ai_estimate(const struct core_position *pos, long playouts, uint64_t seed,
		struct ai_estimate *est_r, enum core_error *err_r)
{
	struct ai_options opt;
	struct ai_search search;
	struct ai_rng rng;
	struct core_position next;
	int forced = 0;

	memset(est_r, 0, sizeof(*est_r));
	if (playouts < 1) {
		*err_r = CORE_ERR_BAD_ARGUMENT;
		return -1;
	}
	if (pos->result != CORE_ONGOING) {
		est_r->chance = ai_reward((enum core_result)pos->result,
					  pos->to_move);
		return 0;
	}
	if (core_legal_moves_from(pos, 0, NULL, 0) == 0) {
		/* The rules pass for the side to move (a position after a
		 * move never stands here: its passes came with the move);
		 * what the pass leads to is its chance. */
		struct core_move pass = { .kind = CORE_MOVE_PASS,
					  .from = -1, .to = -1 };

		next = *pos;
		if (core_play(&next, &pass, &forced, err_r) < 0)
			return -1;
		if (ai_estimate(&next, playouts, seed, est_r, err_r) < 0)
			return -1;
		if (next.to_move != pos->to_move)
			est_r->chance = 1.0 - est_r->chance;
		est_r->has_best = false;
		return 0;
	}
	/* Level 5's search bounded by playouts alone, as `ashes think
	 * --playouts P --seed S` runs it: no time bound, so it repeats. */
	ai_options_default(&opt, AI_LEVEL_MAX);
	opt.seed = seed;
	opt.max_playouts = playouts;
	opt.time_ms = -1;
	ai_search_setup(pos, &opt, AI_LEVEL_MAX, &search, &rng);
	if (ai_mcts(pos, &search, &rng, &est_r->best, NULL, 0, NULL, NULL,
		    &est_r->chance, err_r) < 0)
		return -1;
	est_r->has_best = true;
	return 0;
}

void ai_analysis_free(struct ai_analysis *a)
{
	free(a->plies);
	memset(a, 0, sizeof(*a));
}

/* The drops, biggest first, into a->drops. */
static void analysis_drops(struct ai_analysis *a)
{
	a->ndrops = 0;
	for (size_t i = 0; i < a->nplies; i++) {
		double d = a->plies[i].before - a->plies[i].after;
		size_t k;

		if (d < AI_ANALYSIS_DROP_MIN)
			continue;
		/* Insert by drop; an equal one stays behind the earlier. */
		for (k = a->ndrops; k > 0; k--) {
			const struct ai_analysis_ply *o = &a->plies[a->drops[k - 1]];

			if (o->before - o->after >= d)
				break;
			if (k < AI_ANALYSIS_DROPS)
				a->drops[k] = a->drops[k - 1];
		}
		if (k < AI_ANALYSIS_DROPS) {
			a->drops[k] = i;
			if (a->ndrops < AI_ANALYSIS_DROPS)
				a->ndrops++;
		}
	}
}

/* The winner's chance before and after move p. */
static double analysis_for(const struct ai_analysis_ply *p, int color,
			   bool after)
{
	double v = after ? p->after : p->before;

	return p->mover == color ? v : 1.0 - v;
}

/* The turning point, into a->turning and a->ahead_from. */
static void analysis_turning(struct ai_analysis *a)
{
	size_t i = a->nplies;
	double best = -2.0;

	a->turning = a->ahead_from = -1;
	if (a->winner < 0 || a->nplies == 0)
		return;
	/* Back from the end while the winner stays ahead after each move. */
	while (i > 0 && analysis_for(&a->plies[i - 1], a->winner, true) > 0.5)
		i--;
	if (i == a->nplies)
		return; /* not ahead at the end: won off the board */
	a->ahead_from = (long)i;
	/* Of those moves, the one that raised the winner's chance most. */
	for (; i < a->nplies; i++) {
		double gain = analysis_for(&a->plies[i], a->winner, true) -
			analysis_for(&a->plies[i], a->winner, false);

		if (gain > best) {
			best = gain;
			a->turning = (long)i;
		}
	}
}

int ai_analyse(const struct core_record *rec, long playouts, uint64_t seed,
	       struct ai_analysis *a_r, enum core_error *err_r)
{
	struct core_position pos;
	struct ai_estimate est, next;
	size_t moves = 0;
	int forced = 0;

	memset(a_r, 0, sizeof(*a_r));
	a_r->playouts = playouts;
	a_r->seed = seed;
	a_r->turning = a_r->ahead_from = -1;
	a_r->winner = rec->pos.result == CORE_RESULT_WHITE ? CORE_WHITE :
		rec->pos.result == CORE_RESULT_BLACK ? CORE_BLACK : -1;
	if (core_position_init(&pos, &rec->variant, err_r) < 0)
		return -1;
	if (rec->nplies > 0) {
		a_r->plies = calloc(rec->nplies, sizeof(*a_r->plies));
		if (a_r->plies == NULL) {
			*err_r = CORE_ERR_NO_MEMORY;
			return -1;
		}
	}
	if (ai_estimate(&pos, playouts, seed, &est, err_r) < 0)
		goto fail;
	for (size_t i = 0; i < rec->nplies; i++) {
		struct ai_analysis_ply *p;
		struct core_move m = rec->plies[i];
		int mover = pos.to_move;

		if (rec->plies[i].kind == CORE_MOVE_PASS)
			continue; /* came with the move before it */
		p = &a_r->plies[a_r->nplies++];
		p->ply = pos.ply + 1;
		p->moves_before = moves++;
		p->mover = mover;
		p->move = rec->plies[i];
		p->before = est.chance;
		p->best = est.best;
		if (core_play(&pos, &m, &forced, err_r) < 0)
			goto fail;
		/* The position after a move played by its rules' result, even
		 * where the record then ends the game otherwise (resigned,
		 * lost on time): the estimate is of the board. */
		if (ai_estimate(&pos, playouts, seed, &next, err_r) < 0)
			goto fail;
		p->after = pos.to_move == mover ? next.chance :
			1.0 - next.chance;
		est = next;
	}
	analysis_drops(a_r);
	analysis_turning(a_r);
	return 0;
fail:
	ai_analysis_free(a_r);
	return -1;
}
