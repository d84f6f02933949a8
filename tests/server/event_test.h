/* event_test.h -- what the event tests share: a log that grows, a
 * seeded generator (splitmix64: the same numbers on every machine), and
 * the replay of a log that must succeed. */
#ifndef ASHES_TESTS_SERVER_EVENT_TEST_H
#define ASHES_TESTS_SERVER_EVENT_TEST_H

#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "server/tournament.h"

struct event_log {
	struct tournament_entry *e;
	size_t n, cap;
	int64_t next_game;
};

static inline void log_add(struct event_log *log,
			   const struct tournament_entry *entry)
{
	if (log->n == log->cap) {
		log->cap = log->cap == 0 ? 64 : 2 * log->cap;
		log->e = realloc(log->e, log->cap * sizeof(*log->e));
		ck_assert_ptr_nonnull(log->e);
	}
	log->e[log->n++] = *entry;
}

static inline void log_join(struct event_log *log, int64_t player,
			    int rating)
{
	log_add(log, &(struct tournament_entry){ .kind = TOURNAMENT_JOIN,
		.player = player, .rating = rating });
}

/* A PAIRING of a new game; returns its id. */
static inline int64_t log_pair(struct event_log *log, int round,
			       int64_t white, int64_t black)
{
	int64_t game = ++log->next_game;

	log_add(log, &(struct tournament_entry){ .kind = TOURNAMENT_PAIRING,
		.round = round, .game = game, .player = white,
		.other = black });
	return game;
}

static inline void log_result(struct event_log *log, int64_t game,
			      int64_t white, int64_t black,
			      enum tournament_outcome outcome)
{
	log_add(log, &(struct tournament_entry){ .kind = TOURNAMENT_RESULT,
		.game = game, .player = white, .other = black,
		.outcome = outcome });
}

static inline void log_free(struct event_log *log)
{
	free(log->e);
	memset(log, 0, sizeof(*log));
}

static inline uint64_t rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* 0..n-1 */
static inline size_t rng_below(uint64_t *state, size_t n)
{
	return (size_t)(rng_next(state) % n);
}

/* A random outcome: white wins, black wins, a draw about one in six. */
static inline enum tournament_outcome rng_outcome(uint64_t *state)
{
	size_t r = rng_below(state, 6);

	return r == 0 ? TOURNAMENT_DRAWN :
	       r <= 2 ? TOURNAMENT_BLACK_WINS : TOURNAMENT_WHITE_WINS;
}

static inline struct tournament_state *
replay_ok(const struct event_log *log, const struct tournament_rules *rules)
{
	struct tournament_state *s = NULL;
	struct tournament_fault f;

	if (tournament_replay(log->e, log->n, rules, &s, &f) < 0)
		ck_abort_msg("replay: %s at entry %zu (value %lld)",
			     tournament_error_name(f.error), f.index,
			     (long long)f.value);
	return s;
}

/* test_standings's random events (standings_random.c). */
const TTest *standings_random_test(void);

#endif
