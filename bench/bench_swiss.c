/* bench_swiss.c -- the time of a Swiss round's pairing (server/swiss.h)
 * at 16, 40, 100 and 256 players (TOURNAMENT_MAX_PLAYERS) over 12
 * rounds of seeded random results, and at 16 over 15 rounds (every pair
 * but one round's used up: the hard end, where levels fail): per round, the median and the worst,
 * by the bounded search (SWISS_STEPS) and by the matching test alone (a
 * bound of one step), and how often the search ran out of steps and at
 * which level the rounds were paired.  CPU time: the machine is shared.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "server/swiss.h"

#define MAX_ROUNDS 15

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t rng(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static int compare_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Events of n players: the times of their rounds' pairings with bound
 * max_steps into times (EVENTS * ROUNDS), the levels and searches out
 * of steps counted. */
#define EVENTS 5
static void run(size_t n, int rounds, size_t max_steps, double *times,
		int *levels, int *matched)
{
	struct swiss_player *pl = calloc(n, sizeof(*pl));
	bool *met = calloc(n * n, 1);
	struct tournament_pair *p = calloc(n, sizeof(*p));
	struct swiss_report rep;
	size_t np, i, e;
	ptrdiff_t bye;
	uint64_t seed = 27;
	double t;
	int r, o;

	for (e = 0; e < EVENTS; e++) {
		memset(pl, 0, n * sizeof(*pl));
		memset(met, 0, n * n);
		for (i = 0; i < n; i++)
			pl[i].active = true;
		for (r = 0; r < rounds; r++) {
			t = now();
			if (swiss_pair(pl, n, met, max_steps, p, &np, &bye, &rep,
				       NULL) < 0)
				abort();
			times[e * (size_t)rounds + (size_t)r] = now() - t;
			levels[rep.level]++;
			*matched += rep.matched;
			for (i = 0; i < np; i++) {
				size_t w = p[i].white, b = p[i].black;
				met[w * n + b] = met[b * n + w] = true;
				pl[w].colour_diff++;
				pl[w].last_colour = 1;
				pl[b].colour_diff--;
				pl[b].last_colour = -1;
				o = (int)(rng(&seed) % 6);
				pl[w].points += o == 0 ? 1 : o <= 2 ? 0 : 2;
				pl[b].points += o == 0 ? 1 : o <= 2 ? 2 : 0;
			}
			if (bye >= 0) {
				pl[bye].byes++;
				pl[bye].points += 2;
			}
		}
	}
	free(pl);
	free(met);
	free(p);
}

int main(void)
{
	static const size_t sizes[] = { 16, 40, 100, TOURNAMENT_MAX_PLAYERS,
					16 };
	static const int rounds[] = { 12, 12, 12, 12, 15 };
	double times[EVENTS * MAX_ROUNDS];
	size_t k, m, nt;
	int levels[SWISS_LEVELS], matched, l;

	printf("swiss pairing, %d events per size (CPU ms per round: median "
	       "/ worst)\n", EVENTS);
	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++)
		for (m = 0; m < 2; m++) {
			memset(levels, 0, sizeof(levels));
			matched = 0;
			nt = EVENTS * (size_t)rounds[k];
			run(sizes[k], rounds[k], m == 0 ? 0 : 1, times, levels,
			    &matched);
			qsort(times, nt, sizeof(double), compare_double);
			printf("%4zu players, %2d rounds, %-14s %8.3f / %8.3f ms, "
			       "out of steps %2d, levels", sizes[k], rounds[k],
			       m == 0 ? "search:" : "matching only:",
			       1e3 * times[nt / 2], 1e3 * times[nt - 1],
			       matched);
			for (l = 0; l < SWISS_LEVELS; l++)
				printf(" %d", levels[l]);
			printf("\n");
		}
	return 0;
}
