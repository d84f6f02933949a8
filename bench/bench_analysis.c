/* bench_analysis.c -- what the analysis of a finished game costs
 * (src/ai/analysis.c, `analyse GAME`): games played out by the bot's
 * level 1 on boards of 5 and 7, each analysed at the mail's budget
 * (AI_ANALYSIS_PLAYOUTS, AI_ANALYSIS_SEED); prints the milliseconds a
 * ply and a game take, CPU time. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "ai/ai.h"
#include "core/record.h"

#define BENCH_GAMES 3

static double bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A whole game at size, both sides level 1 (seeded): into rec. */
static void bench_game(int size, uint64_t seed, struct core_record *rec)
{
	struct core_variant v;
	struct ai_options opt;
	struct core_move m;
	enum core_error err;

	core_variant_default(&v);
	v.size = size;
	if (record_init(rec, &v, &err) < 0)
		exit(1);
	ai_options_default(&opt, 1);
	while (rec->pos.result == CORE_ONGOING) {
		opt.seed = seed + (uint64_t)rec->nplies;
		if (ai_choose(&rec->pos, &opt, &m, NULL, 0, NULL, &err) < 0 ||
		    record_play(rec, &m, &err) < 0)
			exit(1);
	}
}

int main(void)
{
	static const int sizes[] = { 5, 7 };

	printf("analysis at %ld playouts a position (seed %d), %d games a "
	       "size played by level 1:\n", AI_ANALYSIS_PLAYOUTS,
	       AI_ANALYSIS_SEED, BENCH_GAMES);
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		double total = 0, worst = 0;
		size_t plies = 0;

		for (int k = 0; k < BENCH_GAMES; k++) {
			struct core_record rec;
			struct ai_analysis a;
			enum core_error err;
			double t0, dt;

			bench_game(sizes[s], 1000u * (unsigned)k + 7u, &rec);
			t0 = bench_now();
			if (ai_analyse(&rec, AI_ANALYSIS_PLAYOUTS,
				       AI_ANALYSIS_SEED, &a, &err) < 0)
				return 1;
			dt = bench_now() - t0;
			total += dt;
			if (dt > worst)
				worst = dt;
			plies += a.nplies;
			ai_analysis_free(&a);
			record_free(&rec);
		}
		printf("  N=%d: %.1f ms a ply, %.1f plies a game, %.2f s a game "
		       "(longest %.2f s)\n", sizes[s],
		       1000.0 * total / (double)plies,
		       (double)plies / BENCH_GAMES, total / BENCH_GAMES, worst);
	}
	return 0;
}
