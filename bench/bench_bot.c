/* bench_bot.c -- strength and speed of the practice opponent: matches of
 * each level against the level below (level 1 against uniformly random
 * moves), colours alternated, with win rates and their 95% (Wilson)
 * intervals, and the mean and longest time per move at each level.
 *
 * Levels are bounded by playouts, not time, so a run is repeatable and
 * its length does not depend on the machine's load: level 5 gets
 * --l5-playouts (about what it reaches in its 2 s where the core is
 * fast).  Every move the bot chooses is checked with core_check_move.
 *
 * usage: bench_bot [--games N] [--size N] [--seed S] [--pair K]...
 *                  [--l5-playouts P] [--policy]
 * --games N: games a match (default 200, 20, 10, 4, 2 for pairs 1 to 5,
 * about 15 minutes of CPU; the targets are stated for 200);
 * --pair K plays only level K against K-1 (K = 1: against random);
 * --policy plays level 3 with the playout policy against level 3 with
 * uniformly random playouts instead, to show what the policy is worth.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ai/ai-int.h"

#define BENCH_MAX_PLIES 5000

/* A player: a level (0: uniformly random moves), and for the policy
 * comparison the playout policy. */
struct bench_player {
	int level;
	enum ai_policy policy;
};

/* CPU time per move of each level (0: random). */
static struct bench_time {
	double total, max;
	long moves;
} bench_times[AI_LEVEL_MAX + 1];

static long bench_l5_playouts = 6400;

static double bench_now(void)
{
	struct timespec ts;

	/* CPU time, not wall time: the machine is shared. */
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* p's move in pos, checked legal (a bot's illegal move ends the run). */
static void bench_move(const struct bench_player *p,
		       const struct core_position *pos, uint64_t seed,
		       struct core_move *move_r)
{
	struct ai_options opt;
	enum core_error err;
	double t0 = bench_now(), dt;

	if (p->level == 0) {
		struct ai_rng rng = { seed };

		ai_random_move(pos, &rng, move_r);
	} else if (p->policy != AI_POLICY_TAX) {
		struct ai_search s = { .max_playouts = 0, .time_ms = 0,
				       .min_playouts = 0,
				       .policy = p->policy, .explore = 1.0 };
		struct ai_rng rng = { seed ^ pos->key };

		ai_options_default(&opt, p->level);
		s.max_playouts = opt.max_playouts;
		if (ai_mcts(pos, &s, &rng, move_r, NULL, 0, NULL, NULL,
			    &err) < 0) {
			fprintf(stderr, "bench_bot: %s\n", core_error_name(err));
			exit(1);
		}
	} else {
		ai_options_default(&opt, p->level);
		opt.seed = seed;
		if (p->level == AI_LEVEL_MAX) {
			opt.time_ms = -1; /* playouts only */
			opt.max_playouts = bench_l5_playouts;
		}
		if (ai_choose(pos, &opt, move_r, NULL, 0, NULL, &err) < 0) {
			fprintf(stderr, "bench_bot: level %d: %s\n", p->level,
				core_error_name(err));
			exit(1);
		}
	}
	dt = bench_now() - t0;
	bench_times[p->level].total += dt;
	bench_times[p->level].moves++;
	if (dt > bench_times[p->level].max)
		bench_times[p->level].max = dt;
	if (core_check_move(pos, move_r, &err) < 0) {
		fprintf(stderr, "bench_bot: level %d played an illegal move: "
			"%s\n", p->level, core_error_name(err));
		exit(1);
	}
}

/* One game, white against black; its result. */
static enum core_result bench_game(const struct bench_player *white,
				   const struct bench_player *black, int size,
				   uint64_t seed)
{
	struct core_variant v;
	struct core_position pos;
	enum core_error err;

	core_variant_default(&v);
	v.size = size;
	if (core_position_init(&pos, &v, &err) < 0) {
		fprintf(stderr, "bench_bot: size %d: %s\n", size,
			core_error_name(err));
		exit(1);
	}
	while (pos.result == CORE_ONGOING && pos.ply < BENCH_MAX_PLIES) {
		const struct bench_player *p =
			pos.to_move == CORE_WHITE ? white : black;
		struct core_move m;

		bench_move(p, &pos, seed * 100003 + (uint64_t)pos.ply, &m);
		core_play_unchecked(&pos, &m, NULL);
	}
	return pos.result == CORE_ONGOING ? CORE_RESULT_DRAW :
		(enum core_result)pos.result;
}

/* The 95% Wilson score interval of k successes in n. */
static void bench_wilson(long k, long n, double *lo_r, double *hi_r)
{
	const double z = 1.959964;
	double p = (double)k / (double)n, z2n = z * z / (double)n;
	double mid = (p + z2n / 2) / (1 + z2n);
	double half = z * sqrt(p * (1 - p) / (double)n +
			       z2n / (4 * (double)n)) / (1 + z2n);

	*lo_r = mid - half;
	*hi_r = mid + half;
}

/* `games` games of a against b, a White in the even ones. */
static void bench_match(const char *name, const struct bench_player *a,
			const struct bench_player *b, int games, int size,
			uint64_t seed, double target)
{
	long won = 0, lost = 0, drawn = 0;
	double lo, hi, t0 = bench_now();
	int g;

	for (g = 0; g < games; g++) {
		bool a_white = g % 2 == 0;
		enum core_result r = bench_game(a_white ? a : b,
						a_white ? b : a, size,
						seed + (uint64_t)g);

		if (r == CORE_RESULT_DRAW)
			drawn++;
		else if ((r == CORE_RESULT_WHITE) == a_white)
			won++;
		else
			lost++;
		/* Progress on stderr: a long match shows it is alive. */
		if ((g + 1) % 10 == 0)
			fprintf(stderr, "%s: %d games: %ld won %ld lost %ld "
				"drawn\n", name, g + 1, won, lost, drawn);
	}
	bench_wilson(won, games, &lo, &hi);
	printf("%-26s %4ld won %4ld lost %3ld drawn of %d: %5.1f%% "
	       "[%5.1f%%, %5.1f%%] (target %.0f%%: %s) %.0fs\n", name, won,
	       lost, drawn, games, 100.0 * (double)won / games, 100.0 * lo,
	       100.0 * hi, 100.0 * target,
	       (double)won / games >= target ? "met" : "NOT met",
	       bench_now() - t0);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	/* 200 games a pair take hours of CPU at levels 4 and 5 (games are
	 * long: ~90 moves a side, a level-5 move ~2 s), so `make bench`
	 * plays fewer (bench_default_games, ~15 minutes in all); --games
	 * 200 for the figures the targets are stated for. */
	static const int bench_default_games[AI_LEVEL_MAX + 1] = {
		0, 200, 20, 10, 4, 2
	};
	int games = 0, size = 5, i, k;
	uint64_t seed = 1;
	bool pairs[AI_LEVEL_MAX + 1] = { false }, any = false, policy = false;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(a, "--policy") == 0) {
			policy = true;
			continue;
		}
		if (val == NULL) {
			fprintf(stderr, "usage: bench_bot [--games N] "
				"[--size N] [--seed S] [--pair K]... "
				"[--l5-playouts P] [--policy]\n");
			return 2;
		}
		i++;
		if (strcmp(a, "--games") == 0 && atoi(val) >= 1)
			games = atoi(val);
		else if (strcmp(a, "--size") == 0)
			size = atoi(val);
		else if (strcmp(a, "--seed") == 0)
			seed = strtoull(val, NULL, 10);
		else if (strcmp(a, "--l5-playouts") == 0)
			bench_l5_playouts = atol(val);
		else if (strcmp(a, "--pair") == 0 && atoi(val) >= 1 &&
			 atoi(val) <= AI_LEVEL_MAX)
			pairs[atoi(val)] = any = true;
		else {
			fprintf(stderr, "bench_bot: bad option %s %s\n", a, val);
			return 2;
		}
	}
	printf("bench_bot: N=%d, colours alternated, seed %llu; levels by "
	       "playouts (level 5: %ld)\n", size, (unsigned long long)seed,
	       bench_l5_playouts);
	if (policy) {
		struct bench_player a = { 3, AI_POLICY_TAX };
		struct bench_player b = { 3, AI_POLICY_UNIFORM };

		bench_match("level 3 policy vs uniform", &a, &b,
			    games > 0 ? games : 10, size, seed, 0.5);
	}
	for (k = 1; k <= AI_LEVEL_MAX && !policy; k++) {
		struct bench_player a = { k, AI_POLICY_TAX };
		struct bench_player b = { k - 1, AI_POLICY_TAX };
		char name[64];

		if (any && !pairs[k])
			continue;
		if (k == 1)
			snprintf(name, sizeof(name), "level 1 vs random");
		else
			snprintf(name, sizeof(name), "level %d vs level %d", k,
				 k - 1);
		bench_match(name, &a, &b,
			    games > 0 ? games : bench_default_games[k], size,
			    seed, k == 1 ? 0.9 : 0.7);
	}
	printf("CPU time per move:\n");
	for (k = 1; k <= AI_LEVEL_MAX; k++) {
		const struct bench_time *t = &bench_times[k];

		if (t->moves == 0)
			continue;
		printf("  level %d: mean %8.2f ms, max %8.2f ms (%ld moves)\n",
		       k, 1000.0 * t->total / (double)t->moves, 1000.0 * t->max,
		       t->moves);
	}
	return 0;
}
