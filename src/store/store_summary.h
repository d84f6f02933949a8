/* store_summary.h -- the part of the store's API (store.h, whose
 * conventions hold here) for the daily summary of a player who chose
 * `set summary daily HH:MM` (sql/014): its schedule, kept with the
 * player's settings, and the notices noted for it instead of sent
 * (store_summary.c).  The service decides when a summary is due and
 * what it says; the store keeps the instants.  Included by store.h. */
#ifndef ASHES_STORE_SUMMARY_H
#define ASHES_STORE_SUMMARY_H

#include <stddef.h>
#include <stdint.h>

struct store;

/* A player whose summary the timer must look at. */
struct store_summary_due {
	int64_t player_id;
	int at;         /* minutes after local midnight; -1: the summary was
			 * turned off with notes left (they go once) */
	int64_t due;    /* when it is due; 0: to be worked out anew (the
			 * time or the zone changed) */
	int64_t sent;   /* when the last one went; 0: never */
	int64_t chosen; /* when the player last stored a setting */
};
/* The players with the summary on whose summary is due at now (a due of
 * 0 included), and those with notes whose summary is off, by player id;
 * at most limit (0: all).  Caller frees *rows_r (free()). */
int store_summary_due(struct store *store, int64_t now, size_t limit,
		      struct store_summary_due **rows_r, size_t *count_r,
		      const char **error_r);
/* The earliest instant a summary is due (0 for one to be worked out, or
 * notes of a summary turned off): 1 and *at_r, 0 if none. */
int store_summary_next(struct store *store, int64_t *at_r,
		       const char **error_r);
/* Store player_id's schedule: the next summary due at `due`, the last
 * sent at `sent`. */
int store_summary_schedule(struct store *store, int64_t player_id,
			   int64_t due, int64_t sent, const char **error_r);

/* One notice held back for a player's summary. */
struct store_summary_item {
	int64_t id;
	int64_t game_id;   /* 0: none */
	char *kind;        /* the notice's word: "your_move", "message"... */
	char *text;        /* what the summary shows of it; "" for none */
	int64_t created;
};
void store_summary_item_clear(void *item);
/* Note a notice for player_id's summary (text may be NULL: ""); kind a
 * word of [a-z_]. */
int store_summary_add(struct store *store, int64_t player_id,
		      int64_t game_id, const char *kind, const char *text,
		      int64_t now, const char **error_r);
/* All of player_id's notes, oldest first; free with store_rows_free()
 * and store_summary_item_clear. */
int store_summary_items(struct store *store, int64_t player_id,
			struct store_summary_item **items_r,
			size_t *count_r, const char **error_r);
/* Forget player_id's notes (their summary was queued in the same
 * transaction). */
int store_summary_clear(struct store *store, int64_t player_id,
			const char **error_r);

#endif
