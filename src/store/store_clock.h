/* store_clock.h -- the part of the store's API (store.h, whose
 * conventions hold here) that keeps the clocks of correspondence games
 * besides the games' own columns: vacations, the vacation bank, a game's
 * clock history, the timer's heartbeat, and the games whose deadline or
 * reminder is due (store_clock.c, sql/008).  Included by store.h. */
#ifndef ASHES_STORE_CLOCK_H
#define ASHES_STORE_CLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct store;
struct store_game;

/* ---- clocks: vacations, the vacation bank, a game's clock history,
 * the timer's heartbeat (store_clock.c, sql/008) ----------------------- */

/* A time a player is away: none of [from, to) is charged to them in any
 * game that allows vacations.  days: what it took from the bank. */
struct store_vacation {
	int64_t id;
	int64_t player_id;
	int64_t from, to;
	int days;
	int64_t inbound_id; /* the mail that booked it, or 0 */
	int64_t created;
};
/* Book a vacation.  -1 with STORE_ERROR_USAGE if to <= from, days < 0,
 * or no such player.  *id_r may be NULL. */
int store_vacation_add(struct store *store, int64_t player_id, int64_t from,
		       int64_t to, int days, int64_t inbound_id, int64_t now,
		       int64_t *id_r, const char **error_r);
/* A player's vacations that end after `after` (to > after), by from;
 * caller frees *vacs_r (free()). */
int store_vacations_for_player(struct store *store, int64_t player_id,
			       int64_t after, struct store_vacation **vacs_r,
			       size_t *count_r, const char **error_r);
/* End vacation id at `to` and set what it took from the bank to `days`
 * (a vacation cut short gives unused days back): to <= its from deletes
 * it.  -1 with STORE_ERROR_USAGE for no such vacation or to after its
 * end. */
int store_vacation_cut(struct store *store, int64_t id, int64_t to, int days,
		       const char **error_r);

/* A player's clock-related state besides settings: the vacation bank
 * (clock.h's struct clock_bank) and when the last reminder mail went to
 * them.  Either may be there without the other. */
struct store_player_clock {
	int64_t player_id;
	bool has_bank;          /* false: never opened (days, accrued_at 0) */
	int vacation_days;
	int64_t accrued_at;
	int64_t last_reminder_at; /* 0: never */
};
/* 1 with the stored row, 0 with player_id set and the rest zero if none;
 * -1 on failure. */
int store_player_clock_get(struct store *store, int64_t player_id,
			   struct store_player_clock *pc_r,
			   const char **error_r);
/* Write the row (insert or replace; without has_bank, days and accrued_at
 * are not stored).  -1 with STORE_ERROR_USAGE for no such player or
 * negative days. */
int store_player_clock_set(struct store *store,
			   const struct store_player_clock *pc,
			   const char **error_r);

/* What changed a clock other than a move.  Stored by name (the table in
 * store_clock.c, the only place the names are read or written). */
enum store_clock_kind {
	STORE_CLOCK_ADJUST = 0,   /* "adjust": the operator */
	STORE_CLOCK_VACATION,     /* "vacation": a vacation began */
	STORE_CLOCK_VACATION_DAY, /* "vacation_day": a day of the bank spent
				   * to save a flag */
	STORE_CLOCK_OUTAGE,       /* "outage": time given back for the
				   * daemon's absence */
	STORE_CLOCK_FLAG,         /* "flag": the flag fell */
	STORE_CLOCK_CLAIM,        /* "claim" */
	STORE_CLOCK_CANCEL,       /* "cancel" */
	STORE_CLOCK_VACATION_OVER, /* "vacation_over": it ended early */
	STORE_CLOCK_OTHER,        /* a name this build does not know */
};
/* The stored name of a kind ("vacation_day"). */
const char *store_clock_kind_name(enum store_clock_kind kind);

/* One entry of a game's clock history. */
struct store_clock_event {
	int64_t id;
	int64_t game_id;
	int64_t at;
	enum store_clock_kind kind;
	int64_t player_id; /* whose clock, or 0 */
	int64_t seconds;   /* added (negative: taken), or 0 */
	char *note;        /* NULL or a short text (the operator's reason) */
	int64_t inbound_id; /* the mail behind it, or 0 */
};
void store_clock_event_clear(void *event);
/* Record one.  kind: any but STORE_CLOCK_OTHER; note at most 200
 * bytes.  -1 with STORE_ERROR_USAGE otherwise or for no such game. */
int store_clock_event_add(struct store *store, int64_t game_id,
			  enum store_clock_kind kind, int64_t player_id,
			  int64_t seconds, const char *note,
			  int64_t inbound_id, int64_t now,
			  const char **error_r);
/* A game's events in the order recorded; free with store_rows_free and
 * store_clock_event_clear. */
int store_clock_events(struct store *store, int64_t game_id,
		       struct store_clock_event **events_r, size_t *count_r,
		       const char **error_r);

/* The clock timer's heartbeat: when it last ran (a gap says the daemon
 * was away).  1 and *at_r, 0 if it never ran. */
int store_clock_heartbeat_get(struct store *store, int64_t *at_r,
			      const char **error_r);
int store_clock_heartbeat_set(struct store *store, int64_t at,
			      const char **error_r);
/* The earliest deadline_at of an active game: 1 and *at_r, 0 if none. */
int store_games_next_deadline(struct store *store, int64_t *at_r,
			      const char **error_r);
/* Active games whose remind_at is set and <= before, by remind_at then
 * id, at most limit (0: no limit).  Free with store_rows_free and
 * store_game_clear. */
int store_games_reminder_due(struct store *store, int64_t before,
			     size_t limit, struct store_game **games_r,
			     size_t *count_r, const char **error_r);

#endif
