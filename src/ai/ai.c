/* ai.c -- the five levels of the practice opponent and ai_choose(): level
 * 1 plays at random but takes an immediate win and shuns tax, levels 2 to
 * 4 search a growing number of playouts, level 5 searches for the
 * configured time. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "ai/ai-int.h"

/* What each level may spend.  Levels 2-4 are bounded by playouts alone,
 * so their moves repeat exactly for a seed; level 5 by time, but never
 * fewer playouts than its floor (four times level 4's, so a busy machine
 * cannot make it weaker than bench/bench_bot measured it).  A level's
 * bound is four times the one below: each must beat the level below in
 * 70% of games (bench/bench_bot measures it). */
static const struct ai_level {
	long playouts; /* 0: none (level 1 does not search) or time only */
	int64_t time_ms;
} ai_levels[AI_LEVEL_MAX + 1] = {
	[1] = { 0, 0 },
	[2] = { 50, 0 },
	[3] = { 200, 0 },
	[4] = { 800, 0 },
	[5] = { 0, 2000 },
};

/* The playout bound of a search with a time bound but none of its own,
 * should the time bound be lifted too: the tree stays bounded. */
#define AI_PLAYOUTS_UNBOUNDED 1000000L

static int ai_clamp_level(int level)
{
	if (level < AI_LEVEL_MIN)
		return AI_LEVEL_MIN;
	if (level > AI_LEVEL_MAX)
		return AI_LEVEL_MAX;
	return level;
}

void ai_options_default(struct ai_options *opt_r, int level)
{
	level = ai_clamp_level(level);
	memset(opt_r, 0, sizeof(*opt_r));
	opt_r->level = level;
	opt_r->time_ms = ai_levels[level].time_ms;
	opt_r->max_playouts = ai_levels[level].playouts;
}

/* Level 1: an immediate win if there is one, else a random legal move
 * that pays no tax (a quiet one, core.h) if there is one, else any legal
 * move.  The moves are tried in a random order, so the first that pays
 * no tax is a uniformly random one of those.  Shunning tax is what lets it beat
 * a uniformly random player nearly always. */
static void ai_level1(const struct core_position *pos, struct ai_rng *rng,
		      struct core_move *move_r)
{
	struct ai_scratch *s = malloc(sizeof(*s));
	size_t n = core_legal_moves_from(pos, 0, NULL, 0), i;
	size_t offset = ai_rng_below(rng, n), stride = 1 + ai_rng_below(rng, n);

	/* Without memory for the list, still a legal move. */
	if (s == NULL) {
		ai_random_move(pos, rng, move_r);
		return;
	}
	if (ai_winning_move(pos, s, move_r))
		goto out;
	while (ai_gcd(stride, n) != 1)
		stride = stride % n + 1;
	for (i = 0; i < n; i++) {
		core_legal_moves_from(pos, (offset + i * stride) % n, move_r,
				      1);
		if (core_move_quiet(pos, move_r))
			goto out;
	}
	core_legal_moves_from(pos, offset, move_r, 1);
out:
	free(s);
}

void ai_search_setup(const struct core_position *pos,
		     const struct ai_options *opt, int level,
		     struct ai_search *search_r, struct ai_rng *rng_r)
{
	level = ai_clamp_level(level);
	/* The position's key in the seed: one seed, many positions, no
	 * shared pattern between their random choices. */
	rng_r->state = opt->seed ^ pos->key;
	ai_rng_next(rng_r);
	search_r->policy = AI_POLICY_TAX;
	search_r->explore = 1.0;
	search_r->max_playouts = opt->max_playouts > 0 ? opt->max_playouts :
		ai_levels[level].playouts;
	search_r->time_ms = opt->time_ms != 0 ? opt->time_ms :
		ai_levels[level].time_ms;
	search_r->min_playouts = level == AI_LEVEL_MAX ? AI_LEVEL5_FLOOR : 0;
	if (search_r->max_playouts <= 0)
		search_r->max_playouts = search_r->time_ms > 0 ? LONG_MAX :
			AI_PLAYOUTS_UNBOUNDED;
}

int ai_choose(const struct core_position *pos, const struct ai_options *opt,
	      struct core_move *move_r, struct ai_candidate *top,
	      size_t top_cap, size_t *ntop_r, enum core_error *err_r)
{
	int level = ai_clamp_level(opt->level);
	struct ai_rng rng;
	struct ai_search search;
	size_t nmoves;

	if (ntop_r != NULL)
		*ntop_r = 0;
	if (pos->result != CORE_ONGOING) {
		*err_r = CORE_ERR_GAME_OVER;
		return -1;
	}
	nmoves = core_legal_moves_from(pos, 0, NULL, 0);
	if (nmoves == 0) {
		*err_r = CORE_ERR_BAD_ARGUMENT; /* the rules pass for it */
		return -1;
	}
	ai_search_setup(pos, opt, level, &search, &rng);
	if (level == 1 || nmoves == 1) {
		if (nmoves == 1)
			core_legal_moves_from(pos, 0, move_r, 1);
		else
			ai_level1(pos, &rng, move_r);
		if (top_cap > 0) {
			top[0].move = *move_r;
			top[0].visits = 0;
			top[0].value = 0.5;
			if (ntop_r != NULL)
				*ntop_r = 1;
		}
		return 0;
	}
	return ai_mcts(pos, &search, &rng, move_r, top, top_cap, ntop_r, NULL,
		       NULL, err_r);
}
