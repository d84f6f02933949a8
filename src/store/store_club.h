/* store_club.h -- the part of the store's API (store.h, whose conventions
 * hold here) that keeps a club's competitions: each ladder's event log
 * (positions are computed from it by the service, never stored), league
 * seasons with their groups and members, which game belongs to which
 * ladder or league, and the players' Glicko-2 ratings with the history of
 * every change (store_club.c, store_rating.c, sql/009).  Included by
 * store.h.
 *
 * Ladder and league names are the configuration's ([ladder NAME]): the
 * store keeps them as text and never checks them against the config. */
#ifndef ASHES_STORE_CLUB_H
#define ASHES_STORE_CLUB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct store;

/* ---- ladders: the event log ------------------------------------------ */

/* One event of a ladder, in the order recorded (id): the service's
 * struct ladder_event (ladder.h) and who recorded it.  kind is one of
 * "joined", "left", "withdrawn", "challenged", "accepted", "result",
 * "moved"; the other fields as the kind needs them (0 / NULL otherwise):
 *   joined, left, withdrawn: player_id
 *   challenged: player_id (challenger), other_id (defender), game_id,
 *           and the rules it is played under: accept_by, win ("take",
 *           "swap"), time_loss_drop
 *   accepted: game_id, player_id (the defender)
 *   result: game_id, player_id (winner, or the first player of a draw or
 *           a cancel), other_id (the other), outcome ("normal", "time",
 *           "walkover", "draw", "cancelled")
 *   moved: player_id, position (1 = top), actor (who moved them)
 * actor: "mail" (a player's command), "daemon" (the config, the timer)
 * or "operator" (ashes); note: free text, at most 200 bytes. */
struct store_ladder_event {
	int64_t id;
	char *ladder;
	char *kind;
	int64_t at;
	int64_t player_id;
	int64_t other_id;
	int64_t game_id;
	char *outcome;
	int position;
	char *actor;
	char *note;
	int64_t inbound_id; /* the mail behind it, or 0 */
	int64_t accept_by;  /* challenged */
	char *win;          /* challenged */
	int time_loss_drop; /* challenged */
};
/* Free what one event owns: the clear function for store_rows_free. */
void store_ladder_event_clear(void *event);
/* Append an event (ev->id ignored; *id_r may be NULL).  -1 with
 * STORE_ERROR_USAGE for an unknown kind, outcome or actor, a missing
 * field the kind needs, a negative position, a note over 200 bytes, an
 * unknown player, game or mail, a ladder name not 1-32 bytes of
 * [a-z0-9_-].  Fields a kind does not need are stored as given. */
int store_ladder_event_add(struct store *store,
			   const struct store_ladder_event *ev,
			   int64_t *id_r, const char **error_r);
/* A ladder's whole log, oldest first; free with store_rows_free and
 * store_ladder_event_clear. */
int store_ladder_events(struct store *store, const char *ladder,
			struct store_ladder_event **events_r,
			size_t *count_r, const char **error_r);
/* The names of every ladder with an event, sorted, as a NULL-terminated
 * array (also counted in *count_r, which may be NULL); free with
 * store_strings_free.  Exported for tests/store/test_store_club.c. */
int store_ladder_names(struct store *store, char ***names_r,
		       size_t *count_r, const char **error_r);

/* ---- which competition a game belongs to ----------------------------- */

/* A game of a ladder (its challenge) or of a league season's group.  The
 * settings it was created with are the game's own row (variant, clock),
 * so a reloaded config never changes a game in progress. */
struct store_game_club {
	int64_t game_id;
	char *ladder;          /* or NULL */
	int64_t season_id;     /* a league season, or 0 */
	int group_no;          /* the group in the season (with season_id) */
	bool rated;
	/* When the game's result was applied to the ladder/league and the
	 * ratings (0: not yet): a result is applied once. */
	int64_t applied_at;
};
void store_game_club_clear(struct store_game_club *gc);
/* Link a game (once: 1 if it is linked already, to whatever).  -1 with
 * STORE_ERROR_USAGE for no such game or season, neither ladder nor
 * season, a bad ladder name, or a group_no that is not >= 1 with a
 * season and 0 without one.  applied_at is stored too (0: not yet). */
int store_game_club_set(struct store *store, const struct store_game_club *gc,
			const char **error_r);
/* 1 and *gc_r (clear with store_game_club_clear), 0 if the game belongs
 * to no competition (*gc_r zeroed but for game_id). */
int store_game_club_get(struct store *store, int64_t game_id,
			struct store_game_club *gc_r, const char **error_r);
/* Mark the result applied at `at`: 1 if it was applied already (nothing
 * changed).  -1 with STORE_ERROR_USAGE for a game of no competition or
 * at 0 (which reads "not yet"). */
int store_game_club_applied(struct store *store, int64_t game_id, int64_t at,
			    const char **error_r);
/* Games of competitions that ended (status finished or cancelled; a
 * declined or withdrawn challenge is not a result) and whose result is
 * not applied yet, oldest first (by the game's updated, then id), at
 * most limit (0: all): ids into *ids_r (free()). */
int store_game_club_pending(struct store *store, size_t limit,
			    int64_t **ids_r, size_t *count_r,
			    const char **error_r);

/* ---- leagues --------------------------------------------------------- */

struct store_league_season {
	int64_t id;
	char *league;
	int number;        /* 1, 2, ... */
	int64_t starts;
	int64_t ends;
	int64_t created;
};
void store_league_season_clear(void *season);
/* Create season `number` of a league (*id_r, which may be NULL, gets
 * its id).  1 if it exists already (nothing changed; *id_r gets its
 * id).  -1 with STORE_ERROR_USAGE for a league name not 1-32 bytes of
 * [a-z0-9_-], number < 1 or ends <= starts. */
int store_league_season_add(struct store *store, const char *league,
			    int number, int64_t starts, int64_t ends,
			    int64_t now, int64_t *id_r, const char **error_r);
/* A league's seasons, by number; free with store_rows_free and
 * store_league_season_clear. */
int store_league_seasons(struct store *store, const char *league,
			 struct store_league_season **seasons_r,
			 size_t *count_r, const char **error_r);

/* A player in a season's group: seed (1 = first) and division (1 = top). */
struct store_league_member {
	int64_t season_id;
	int group_no;
	int division;
	int seed;
	int64_t player_id;
};
/* Put a player into a group of a season (once: 1 if they are in the
 * season already, in whatever group).  -1 with STORE_ERROR_USAGE for no
 * such season or player, or a group, division or seed below 1. */
int store_league_member_add(struct store *store,
			    const struct store_league_member *m,
			    const char **error_r);
/* A season's members, by group then seed; caller frees *members_r
 * (free()). */
int store_league_members(struct store *store, int64_t season_id,
			 struct store_league_member **members_r,
			 size_t *count_r, const char **error_r);
/* The games of a season (game_club rows with that season), by game id;
 * free with free() after store_game_club_clear of each. */
int store_league_games(struct store *store, int64_t season_id,
		       struct store_game_club **games_r, size_t *count_r,
		       const char **error_r);

/* An open league's sign-ups by mail: joined (or, joined false, left) at
 * now, replacing what the player said before.  -1 with STORE_ERROR_USAGE
 * for a bad league name or no such player. */
int store_league_signup_set(struct store *store, const char *league,
			    int64_t player_id, bool joined, int64_t now,
			    const char **error_r);
/* 1 and *joined_r if the player said anything, 0 if not. */
int store_league_signup_get(struct store *store, const char *league,
			    int64_t player_id, bool *joined_r,
			    const char **error_r);
/* The players who joined a league by mail and did not leave, in the
 * order they joined; caller frees *ids_r (free()). */
int store_league_signups(struct store *store, const char *league,
			 int64_t **ids_r, size_t *count_r,
			 const char **error_r);

/* ---- ratings (Glicko-2, the service's rating.h) ----------------------- */

/* A player's rating.  A player without a row has none yet (the service
 * starts them at the new-player values). */
struct store_rating {
	int64_t player_id;
	double r, rd, vol;
	int games;            /* rated games played */
	int64_t last_played;  /* when the last rated game ended, or 0 */
	/* The player's last rated game was lost on time (a second one in a
	 * row is not rated: timeouts cannot be farmed). */
	bool last_lost_on_time;
};
/* 1 and *r_r, 0 (zeroed, player_id set) if the player has no rating. */
int store_rating_get(struct store *store, int64_t player_id,
		     struct store_rating *r_r, const char **error_r);
/* Insert or replace a player's rating.  -1 with STORE_ERROR_USAGE for no
 * such player, a value that is not finite (refused before any SQL:
 * SQLite would store a NaN as NULL), rd or vol not above 0, or games
 * below 0. */
int store_rating_set(struct store *store, const struct store_rating *r,
		     const char **error_r);
/* Every rated player, best r first (ties by player id); caller frees
 * *ratings_r (free()). */
int store_ratings(struct store *store, struct store_rating **ratings_r,
		  size_t *count_r, const char **error_r);
/* Forget every rating and the history (`ashes ratings --recompute`
 * rebuilds them in the same transaction).  The games stay linked, rated
 * and applied: store_rated_games still lists them. */
int store_ratings_clear(struct store *store, const char **error_r);

/* One change of a player's rating by a game: before and after. */
struct store_rating_change {
	int64_t game_id;
	int64_t player_id;
	double r_before, rd_before, vol_before;
	double r_after, rd_after, vol_after;
	int64_t at;
};
/* Record a change (once per game and player: 1 if recorded already).
 * -1 with STORE_ERROR_USAGE for no such game or player, or values
 * store_rating_set refuses. */
int store_rating_change_add(struct store *store,
			    const struct store_rating_change *c,
			    const char **error_r);
/* A game's changes (0, 1 or 2 rows), by player id; caller frees
 * *changes_r (free()). */
int store_rating_changes(struct store *store, int64_t game_id,
			 struct store_rating_change **changes_r,
			 size_t *count_r, const char **error_r);
/* The games whose result was applied as rated (game_club rows with
 * rated and applied_at set), in the order they were applied (applied_at,
 * then game id): what `ashes ratings --recompute` replays.  ids into
 * *ids_r (free()). */
int store_rated_games(struct store *store, int64_t **ids_r, size_t *count_r,
		      const char **error_r);

/* ---- the service's own small state ----------------------------------- */

/* A named number the service keeps between runs (the table server_state
 * of sql/008): "standings_mail" (when the last weekly standings went
 * out), "clock_heartbeat" (store_clock_heartbeat_get), ...  Names 1-32
 * bytes of [a-z0-9_], else -1 with STORE_ERROR_USAGE.  get: 1 and
 * *value_r, 0 if not set (*value_r 0); set: insert or replace. */
int store_state_get(struct store *store, const char *key, int64_t *value_r,
		    const char **error_r);
int store_state_set(struct store *store, const char *key, int64_t value,
		    const char **error_r);

#endif
