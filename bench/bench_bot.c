/* bench_bot.c -- strength and speed of the practice opponent: matches of
 * each level against the level below (level 1 against uniformly random
 * moves), colours alternated, with win rates and their 95% (Wilson)
 * intervals, and the mean and longest time per move at each level.
 *
 * Levels are bounded by playouts, not time, so a run is repeatable and
 * its length does not depend on the machine's load: level 5 gets
 * --l5-playouts, by default its floor (AI_LEVEL5_FLOOR), the least it
 * ever searches; in its 2 s it searches several times more on this
 * machine, so the bench shows the weakest level 5 can be.  Every move
 * the bot chooses is checked with core_check_move.
 *
 * usage: bench_bot [--games N] [--size N] [--seed S] [--pair K]...
 *                  [--jobs J] [--l5-playouts P] [--policy]
 * --games N: games a match (default 200, 200, 40, 20, 10 for pairs 1 to
 * 5, about 8 minutes of CPU; the targets are stated for 200);
 * --pair K plays only level K against K-1 (K = 1: against random);
 * --jobs J shares each match's games out over J processes (the same
 * games and results as one; the times are CPU times summed);
 * --policy plays level 3 with the playout policy against level 3 with
 * uniformly random playouts instead, to show what the policy is worth.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

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
} bench_times[AI_LEVEL_MAX + 1], bench_totals[AI_LEVEL_MAX + 1];

/* The processes of a match shared out by --jobs, and their pipes. */
#define BENCH_MAX_JOBS 16
static pid_t bench_pids[BENCH_MAX_JOBS];
static int bench_fds[BENCH_MAX_JOBS];

static long bench_l5_playouts = AI_LEVEL5_FLOOR;

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
			    NULL, &err) < 0) {
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

/* What one share of a match sends back to the parent. */
struct bench_share {
	long won, lost, drawn;
	double cpu;
	struct bench_time times[AI_LEVEL_MAX + 1];
};

/* Games job, job + jobs, ... of the match (a White in the even ones),
 * into *sh. */
static void bench_play_share(const char *name, const struct bench_player *a,
			     const struct bench_player *b, int games,
			     int size, uint64_t seed, int job, int jobs,
			     struct bench_share *sh)
{
	double t0 = bench_now();
	int g, played = 0;

	for (g = job; g < games; g += jobs) {
		bool a_white = g % 2 == 0;
		enum core_result r = bench_game(a_white ? a : b,
						a_white ? b : a, size,
						seed + (uint64_t)g);

		if (r == CORE_RESULT_DRAW)
			sh->drawn++;
		else if ((r == CORE_RESULT_WHITE) == a_white)
			sh->won++;
		else
			sh->lost++;
		/* Progress on stderr: a long match shows it is alive. */
		if (++played % 10 == 0)
			fprintf(stderr, "%s: job %d: %d games: %ld won %ld "
				"lost %ld drawn\n", name, job, played,
				sh->won, sh->lost, sh->drawn);
	}
	sh->cpu = bench_now() - t0;
	memcpy(sh->times, bench_times, sizeof(sh->times));
}

/* `games` games of a against b, a White in the even ones, shared out
 * over `jobs` processes (the same games, whatever the number). */
static void bench_match(const char *name, const struct bench_player *a,
			const struct bench_player *b, int games, int size,
			uint64_t seed, double target, int jobs)
{
	struct bench_share total = { 0 };
	double lo, hi;
	int j, k;

	for (j = 0; j < jobs; j++) {
		struct bench_share sh = { 0 };
		int fd[2] = { -1, -1 };
		pid_t pid = 0;

		/* One share here (the last), the others in children. */
		if (j + 1 < jobs && (pipe(fd) < 0 || (pid = fork()) < 0)) {
			perror("bench_bot: fork");
			exit(1);
		}
		if (j + 1 < jobs && pid > 0) {
			close(fd[1]);
			bench_fds[j] = fd[0];
			bench_pids[j] = pid;
			continue;
		}
		memset(bench_times, 0, sizeof(bench_times));
		bench_play_share(name, a, b, games, size, seed, j, jobs, &sh);
		if (j + 1 < jobs) {
			close(fd[0]);
			if (write(fd[1], &sh, sizeof(sh)) != (ssize_t)sizeof(sh))
				_exit(1);
			_exit(0);
		}
		total = sh;
	}
	for (j = 0; j + 1 < jobs; j++) {
		struct bench_share sh;
		int status;

		if (read(bench_fds[j], &sh, sizeof(sh)) != (ssize_t)sizeof(sh) ||
		    waitpid(bench_pids[j], &status, 0) < 0 ||
		    !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			fprintf(stderr, "bench_bot: job %d failed\n", j);
			exit(1);
		}
		close(bench_fds[j]);
		total.won += sh.won;
		total.lost += sh.lost;
		total.drawn += sh.drawn;
		total.cpu += sh.cpu;
		for (k = 0; k <= AI_LEVEL_MAX; k++) {
			total.times[k].total += sh.times[k].total;
			total.times[k].moves += sh.times[k].moves;
			if (sh.times[k].max > total.times[k].max)
				total.times[k].max = sh.times[k].max;
		}
	}
	for (k = 0; k <= AI_LEVEL_MAX; k++) {
		bench_totals[k].total += total.times[k].total;
		bench_totals[k].moves += total.times[k].moves;
		if (total.times[k].max > bench_totals[k].max)
			bench_totals[k].max = total.times[k].max;
	}
	bench_wilson(total.won, games, &lo, &hi);
	printf("%-26s %4ld won %4ld lost %3ld drawn of %d: %5.1f%% "
	       "[%5.1f%%, %5.1f%%] (target %.0f%%: %s) %.0fs CPU\n", name,
	       total.won, total.lost, total.drawn, games,
	       100.0 * (double)total.won / games, 100.0 * lo, 100.0 * hi,
	       100.0 * target,
	       (double)total.won / games >= target ? "met" : "NOT met",
	       total.cpu);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	/* 200 games a pair take about an hour and a half of CPU in all
	 * (games are long: ~90 moves a side; a level-5 move at its floor
	 * ~0.2 s), so `make bench` plays fewer at the top (about 8 minutes
	 * in all); --games 200 (and --jobs 2) for the figures the targets
	 * are stated for. */
	static const int bench_default_games[AI_LEVEL_MAX + 1] = {
		0, 200, 200, 40, 20, 10
	};
	int games = 0, size = 5, jobs = 1, i, k;
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
				"[--jobs J] [--l5-playouts P] [--policy]\n");
			return 2;
		}
		i++;
		if (strcmp(a, "--games") == 0 && atoi(val) >= 1)
			games = atoi(val);
		else if (strcmp(a, "--size") == 0)
			size = atoi(val);
		else if (strcmp(a, "--seed") == 0)
			seed = strtoull(val, NULL, 10);
		else if (strcmp(a, "--jobs") == 0 && atoi(val) >= 1 &&
			 atoi(val) <= BENCH_MAX_JOBS)
			jobs = atoi(val);
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
			    games > 0 ? games : 10, size, seed, 0.5, jobs);
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
			    seed, k == 1 ? 0.9 : 0.7, jobs);
	}
	printf("CPU time per move:\n");
	for (k = 1; k <= AI_LEVEL_MAX; k++) {
		const struct bench_time *t = &bench_totals[k];

		if (t->moves == 0)
			continue;
		printf("  level %d: mean %8.2f ms, max %8.2f ms (%ld moves)\n",
		       k, 1000.0 * t->total / (double)t->moves, 1000.0 * t->max,
		       t->moves);
	}
	return 0;
}
