/* bench_core.c -- speed of the rules core: legal-move generations per
 * second on a fixed set of positions, and uniformly random full playouts
 * per second at N = 5 and N = 7 on one core, through the full legal-move
 * list, through core_legal_move_pick() and through
 * core_legal_move_pick_with() (which keeps a state across the moves).  The
 * PRNG is seeded, so every run plays the same games, and all paths play
 * the very same games (move number rng % n of the same order), which
 * same_games() checks first.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "core/core.h"

#define PLAYOUT_MAX_PLIES 100000

static uint64_t rng_state;

/* xorshift64*: fast, deterministic, good enough to pick moves. */
static uint64_t rng_next(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * UINT64_C(2685821657736338717);
}

static double now(void)
{
	struct timespec ts;

	/* CPU time, not wall time: the machine is shared. */
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#define PLAYOUT_LIST 4096

/* One uniformly random game from the start; returns its plies.  The full
 * list is generated, as a player program would; only when it does not fit
 * (huge stacks have many splits) is the chosen move fetched by number. */
static int playout(const struct core_position *start)
{
	static struct core_move moves[PLAYOUT_LIST];
	struct core_position pos = *start;
	struct core_move move;

	while (pos.result == CORE_ONGOING && pos.ply < PLAYOUT_MAX_PLIES) {
		size_t n = core_legal_moves(&pos, moves, PLAYOUT_LIST);
		if (n == 0)
			break;
		size_t r = (size_t)(rng_next() % n);
		if (r < PLAYOUT_LIST)
			move = moves[r];
		else
			core_legal_moves_from(&pos, r, &move, 1);
		core_play_unchecked(&pos, &move, NULL);
	}
	return pos.ply;
}

/* The same game through the fast path: count and fetch move r in one
 * call, no list. */
static int playout_pick(const struct core_position *start)
{
	struct core_position pos = *start;
	struct core_move move;

	while (pos.result == CORE_ONGOING && pos.ply < PLAYOUT_MAX_PLIES) {
		if (core_legal_move_pick(&pos, rng_next(), &move) == 0)
			break;
		core_play_unchecked(&pos, &move, NULL);
	}
	return pos.ply;
}

/* The same game again, with the state core_legal_move_pick_with() keeps
 * across the moves of a playout. */
static int playout_state(const struct core_position *start)
{
	struct core_position pos = *start;
	struct core_pick_state ps;
	struct core_move move;

	core_pick_state_init(&ps, &pos);
	while (pos.result == CORE_ONGOING && pos.ply < PLAYOUT_MAX_PLIES) {
		if (core_legal_move_pick_with(&ps, &pos, rng_next(),
					      &move) == 0)
			break;
		core_play_picked(&pos, &ps, &move, NULL);
	}
	return pos.ply;
}

/* Both paths must play the very same games: the same seed, the same
 * plies and the same final positions.  Returns false if they do not. */
static bool same_games(int size, int games)
{
	struct core_variant v;
	struct core_position start;
	enum core_error err;
	static struct core_move list[1 << 16];
	uint64_t sum[3] = { 0, 0, 0 };

	core_variant_default(&v);
	v.size = size;
	if (core_position_init(&start, &v, &err) < 0)
		abort();
	for (int pick = 0; pick < 3; pick++) {
		rng_state = UINT64_C(0x5eed) + (uint64_t)size;
		for (int i = 0; i < games; i++) {
			struct core_position pos = start;
			struct core_pick_state ps;
			struct core_move move;
			core_pick_state_init(&ps, &pos);
			while (pos.result == CORE_ONGOING) {
				uint64_t r = rng_next();
				if (pick == 2) {
					if (core_legal_move_pick_with(
						    &ps, &pos, r, &move) == 0)
						break;
					core_play_picked(&pos, &ps, &move,
							 NULL);
					continue;
				}
				if (pick) {
					if (core_legal_move_pick(&pos, r,
								 &move) == 0)
						break;
				} else {
					/* The generator's whole list. */
					size_t n = core_legal_moves(&pos, list,
						sizeof(list) / sizeof(list[0]));
					if (n == 0 || n > sizeof(list) /
					    sizeof(list[0]))
						break;
					move = list[r % n];
				}
				core_play_unchecked(&pos, &move, NULL);
			}
			sum[pick] = sum[pick] * 31 + pos.key + (uint64_t)pos.ply;
		}
	}
	return sum[0] == sum[1] && sum[0] == sum[2];
}

enum path { BY_LIST, BY_PICK, BY_STATE };

static void bench_playouts(int size, enum path how, double seconds)
{
	struct core_variant v;
	struct core_position start;
	enum core_error err;
	long games = 0, plies = 0, results[4] = { 0 };
	double t0, t;

	core_variant_default(&v);
	v.size = size;
	if (core_position_init(&start, &v, &err) < 0)
		abort();
	rng_state = UINT64_C(0x2545F4914F6CDD1D) + (uint64_t)size;
	t0 = now();
	do {
		struct core_position pos = start;
		for (int i = 0; i < 100; i++) {
			plies += how == BY_STATE ? playout_state(&pos) :
				how == BY_PICK ? playout_pick(&pos) :
				playout(&pos);
			games++;
		}
		t = now() - t0;
	} while (t < seconds);
	(void)results;
	printf("random playouts N=%d%s: %.0f games/s (%.1f plies per game)\n",
	       size, how == BY_STATE ? " (core_legal_move_pick_with)" :
	       how == BY_PICK ? " (core_legal_move_pick)" : " (full list)",
	       (double)games / t, (double)plies / (double)games);
}

/* The fixed positions: what seeded random games pass through at N = 5. */
#define NPOSITIONS 2000
static struct core_position positions[NPOSITIONS];

static void bench_legal(double seconds)
{
	static struct core_move moves[1 << 16];
	struct core_variant v;
	struct core_position pos;
	enum core_error err;
	long gens = 0, nmoves = 0;
	double t0, t;
	int n = 0;

	core_variant_default(&v);
	rng_state = UINT64_C(0x9E3779B97F4A7C15);
	while (n < NPOSITIONS) {
		if (core_position_init(&pos, &v, &err) < 0)
			abort();
		while (pos.result == CORE_ONGOING && n < NPOSITIONS) {
			struct core_move move;
			size_t cnt = core_legal_moves_from(&pos, 0, NULL, 0);
			if (cnt == 0 || cnt > sizeof(moves) / sizeof(moves[0]))
				break;
			positions[n++] = pos;
			core_legal_moves_from(&pos, (size_t)(rng_next() % cnt),
					      &move, 1);
			core_play_unchecked(&pos, &move, NULL);
		}
	}
	t0 = now();
	do {
		for (int i = 0; i < NPOSITIONS; i++) {
			nmoves += (long)core_legal_moves(&positions[i], moves,
							  sizeof(moves) / sizeof(moves[0]));
			gens++;
		}
		t = now() - t0;
	} while (t < seconds);
	printf("legal-move generations N=5: %.0f per second (%d positions, %.1f moves each, full lists)\n",
	       (double)gens / t, NPOSITIONS, (double)nmoves / (double)gens);
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 2.0;

	for (int size = 5; size <= 7; size += 2) {
		bool same = same_games(size, 200);
		printf("same games by list, core_legal_move_pick and _with "
		       "N=%d: %s (200 games)\n",
		       size, same ? "yes" : "NO");
		if (!same)
			return 1;
	}
	bench_legal(seconds);
	bench_playouts(5, BY_STATE, seconds);
	bench_playouts(7, BY_STATE, seconds);
	bench_playouts(5, BY_PICK, seconds);
	bench_playouts(7, BY_PICK, seconds);
	bench_playouts(5, BY_LIST, seconds);
	bench_playouts(7, BY_LIST, seconds);
	return 0;
}
