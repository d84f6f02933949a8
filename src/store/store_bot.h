/* store_bot.h -- what the store keeps of the practice opponent (sql/010):
 * which player is the bot, and the games against it with their level.
 * Conventions as store.h: 0 / -1 with *error_r, 1 for "found" where a
 * row may be missing. */
#ifndef ASHES_STORE_BOT_H
#define ASHES_STORE_BOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct store;

/* The bot's player: 1 and *player_id_r, 0 when there is no bot yet. */
int store_bot_player(struct store *store, int64_t *player_id_r,
		     const char **error_r);
/* Make player_id the bot (replacing an earlier one).  0 or -1. */
int store_bot_set_player(struct store *store, int64_t player_id,
			 int64_t now, const char **error_r);

/* A game against the bot. */
struct store_bot_game {
	int64_t game_id;
	int level;            /* 1 .. 5 */
	bool rated;
	int64_t created;
	int64_t applied_at;   /* the result rated at (0: not yet) */
};

/* Record game_id as a game against the bot at level (1..5).  -1 with
 * STORE_ERROR_USAGE for a level out of range or no such game. */
int store_bot_game_add(struct store *store, int64_t game_id, int level,
		       bool rated, int64_t now, const char **error_r);
/* 1 and *g_r when game_id is a game against the bot, 0 when not. */
int store_bot_game_get(struct store *store, int64_t game_id,
		       struct store_bot_game *g_r, const char **error_r);
/* The bot games under way (status active), by game id: ids into *ids_r
 * (free()), their count in *count_r. */
int store_bot_games_active(struct store *store, int64_t **ids_r,
			   size_t *count_r, const char **error_r);
/* How many bot games are open or under way (challenge, open, active). */
int store_bot_games_busy(struct store *store, size_t *count_r,
			 const char **error_r);
/* Rated bot games that finished and are not rated yet, oldest first. */
int store_bot_games_unapplied(struct store *store, int64_t **ids_r,
			      size_t *count_r, const char **error_r);
/* The result of a rated bot game was applied at `at` (> 0). */
int store_bot_game_applied(struct store *store, int64_t game_id, int64_t at,
			   const char **error_r);

/* A hint asked (`hint GAME`): for the player to play ply in game. */
struct store_bot_hint {
	int64_t id;
	int64_t game_id;
	int ply;
	int64_t player_id;
	int64_t inbound_id;   /* the mail that asked (0: none) */
	int64_t requested;
};

/* Whether a hint for ply of game_id was asked already, answered or
 * not: 1, 0, -1.  One hint a ply: each is a search of the bot's. */
int store_bot_hint_asked(struct store *store, int64_t game_id, int ply,
			 const char **error_r);
/* Ask a hint for ply of game_id by player_id (inbound_id may be 0): 0,
 * or 1 when one for that game and ply waits already (nothing added). */
int store_bot_hint_add(struct store *store, int64_t game_id, int ply,
		       int64_t player_id, int64_t inbound_id, int64_t now,
		       const char **error_r);
/* The oldest hint waiting: 1 and *h_r, 0 when none waits. */
int store_bot_hint_next(struct store *store, struct store_bot_hint *h_r,
			const char **error_r);
/* Hint id answered (or dropped: the game moved on) at `at`: 1, or 0
 * when it was answered already (nothing changed). */
int store_bot_hint_done(struct store *store, int64_t id, int64_t at,
			const char **error_r);

#endif
