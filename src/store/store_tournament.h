/* store_tournament.h -- the part of the store's API (store.h, whose
 * conventions hold here) that keeps the club's events ([tournament
 * NAME]): each event's log, the link of a stored game to its event, round
 * and event game number, and when the daemon began and ended each event
 * (store_tournament.c, sql/019).  Included by store.h.
 *
 * The log is the one truth: the service replays it (server/tournament.h)
 * into the standings and the pairings; nothing about positions is stored.
 * Event names are the configuration's: 1-32 bytes of [a-z0-9_-], never
 * checked against the config. */
#ifndef ASHES_STORE_TOURNAMENT_H
#define ASHES_STORE_TOURNAMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct store;

/* ---- the log ---------------------------------------------------------- */

/* One entry of an event's log, in the order recorded (id): the service's
 * struct tournament_entry (tournament.h) and who recorded it.  kind is
 * one of "join", "leave", "withdraw", "pairing", "bye", "result",
 * "adjudication"; the other fields as the kind needs them (0 / NULL
 * otherwise):
 *   join: player_id, rating (at sign-up); round 0
 *   leave, withdraw: player_id, round (the rounds paired then, 0..)
 *   pairing: round (1..), game, player_id White, other_id Black
 *   bye: round (1..), player_id
 *   result, adjudication: game, player_id White, other_id Black (as the
 *           game ended), outcome ("white", "black", "draw"); round may
 *           be given (the game's), it is not read back by the replay
 * game is the event's number of the game (1, 2, ...), not a games.id:
 * store_tournament_game_* link the two.  actor: "mail" (a player's
 * command), "daemon" (the config, the timer) or "operator" (ashes);
 * note: free text, at most 200 bytes. */
struct store_tournament_entry {
	int64_t id;
	char *tournament;
	char *kind;
	int64_t at;
	int round;
	int64_t player_id;
	int64_t other_id;
	int64_t game;
	char *outcome;
	int rating;
	char *actor;
	char *note;
	int64_t inbound_id; /* the mail behind it, or 0 */
};
/* Free what one entry owns: the clear function for store_rows_free. */
void store_tournament_entry_clear(void *entry);
/* Append an entry (e->id ignored; *id_r may be NULL).  -1 with
 * STORE_ERROR_USAGE for an unknown kind, outcome or actor, a missing
 * field the kind needs, a round outside 0..512 (pairing, bye: 1..512), a
 * game number below 0, a note over 200 bytes, an unknown player or mail,
 * an event name not 1-32 bytes of [a-z0-9_-].  The entry's sense (a
 * player entered twice, a result of no pairing) is the service's to
 * check, by replaying the log with it first. */
int store_tournament_entry_add(struct store *store,
			       const struct store_tournament_entry *e,
			       int64_t *id_r, const char **error_r);
/* An event's whole log, oldest first; free with store_rows_free and
 * store_tournament_entry_clear. */
int store_tournament_entries(struct store *store, const char *tournament,
			     struct store_tournament_entry **entries_r,
			     size_t *count_r, const char **error_r);
/* The names of every event with an entry or a row in tournaments,
 * sorted, as a NULL-terminated array (also counted in *count_r, which may
 * be NULL); free with store_strings_free. */
int store_tournament_names(struct store *store, char ***names_r,
			   size_t *count_r, const char **error_r);
/* The next free game number of an event: 1 + the highest game of its
 * log's entries (1 for an empty log). */
int store_tournament_next_game(struct store *store, const char *tournament,
			       int64_t *number_r, const char **error_r);

/* ---- the event's games ------------------------------------------------ */

/* A stored game of an event: its round and event game number (the
 * `game` of its pairing entry), whether it is rated, and when its result
 * was taken into the log and the ratings (0: not yet; once). */
struct store_tournament_game {
	int64_t game_id;
	char *tournament;
	int round;
	int64_t number;
	bool rated;
	int64_t applied_at;
};
void store_tournament_game_clear(void *game);
/* Link a game (once: 1 if the game, or the event's number, is linked
 * already; nothing changed).  -1 with STORE_ERROR_USAGE for no such
 * game, a bad event name, a round outside 1..512, a number below 1. */
int store_tournament_game_add(struct store *store,
			      const struct store_tournament_game *tg,
			      const char **error_r);
/* 1 and *tg_r (clear with store_tournament_game_clear), 0 if the game
 * belongs to no event (*tg_r zeroed but for game_id). */
int store_tournament_game_get(struct store *store, int64_t game_id,
			      struct store_tournament_game *tg_r,
			      const char **error_r);
/* 1 and *game_id_r, 0 if the event's game number has no stored game
 * (*game_id_r 0). */
int store_tournament_game_of(struct store *store, const char *tournament,
			     int64_t number, int64_t *game_id_r,
			     const char **error_r);
/* An event's stored games, by number; free with store_rows_free and
 * store_tournament_game_clear. */
int store_tournament_games(struct store *store, const char *tournament,
			   struct store_tournament_game **games_r,
			   size_t *count_r, const char **error_r);
/* Mark the result taken at `at`: 1 if it was taken already (nothing
 * changed).  -1 with STORE_ERROR_USAGE for a game of no event or at 0. */
int store_tournament_game_applied(struct store *store, int64_t game_id,
				  int64_t at, const char **error_r);
/* Event games that ended (finished or cancelled) and whose result is not
 * taken yet, oldest first (the game's updated, then id), at most limit
 * (0: all): ids into *ids_r (free()). */
int store_tournament_pending(struct store *store, size_t limit,
			     int64_t **ids_r, size_t *count_r,
			     const char **error_r);

/* ---- the event's course ------------------------------------------------ */

/* When the daemon began the event (round 1 paired) and ended it (the
 * final standings mailed): 1 and both (0: not yet), 0 without a row
 * (both 0). */
int store_tournament_times(struct store *store, const char *tournament,
			   int64_t *started_r, int64_t *ended_r,
			   const char **error_r);
/* Record that the event began (started_at) or ended (ended_at) at that
 * time; a 0 leaves that field as it is, and a time already set is kept
 * (1: nothing changed).  -1 with STORE_ERROR_USAGE for a bad name. */
int store_tournament_mark(struct store *store, const char *tournament,
			  int64_t started_at, int64_t ended_at,
			  const char **error_r);

#endif
