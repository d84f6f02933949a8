/* store_analysis.h -- what the store keeps of the analyses of finished
 * games (sql/016): the requests waiting for the bot thread, one a game a
 * day.  Conventions as store.h: 0 / -1 with *error_r, 1 for "found"
 * where a row may be missing. */
#ifndef ASHES_STORE_ANALYSIS_H
#define ASHES_STORE_ANALYSIS_H

#include <stddef.h>
#include <stdint.h>

struct store;

/* An analysis asked (`analyse GAME`). */
struct store_analysis {
	int64_t id;
	int64_t game_id;
	int64_t player_id;    /* who asked: the mail goes to them */
	int64_t inbound_id;   /* the mail that asked (0: none) */
	int64_t requested;
	int64_t answered;     /* 0 while waiting */
};

/* The UTC day of a time, as the table counts them. */
#define STORE_ANALYSIS_DAY(t) ((t) / 86400)

/* The request for game_id on the UTC day of `now`, if any: 1 and *a_r
 * (answered or not), 0 when none was made that day. */
int store_analysis_today(struct store *store, int64_t game_id, int64_t now,
			 struct store_analysis *a_r, const char **error_r);
/* How many requests wait (of every game). */
int store_analysis_waiting(struct store *store, size_t *count_r,
			   const char **error_r);
/* Ask an analysis of game_id by player_id (inbound_id may be 0) at now:
 * 0, or 1 when that game has one that day already (nothing added). */
int store_analysis_add(struct store *store, int64_t game_id,
		       int64_t player_id, int64_t inbound_id, int64_t now,
		       const char **error_r);
/* The oldest request waiting: 1 and *a_r, 0 when none waits. */
int store_analysis_next(struct store *store, struct store_analysis *a_r,
			const char **error_r);
/* Request id answered (or dropped) at `at`: 1, or 0 when it was answered
 * already (nothing changed). */
int store_analysis_done(struct store *store, int64_t id, int64_t at,
			const char **error_r);

#endif
