/* store_note.h -- what the store keeps of a player's private notes on a
 * game (`note GAME TEXT`, sql/015) and of rematches (`rematch GAME`).
 * A note is read by its author only, so every call that lists notes
 * names the author: there is no call for all the notes of a game.
 * Conventions as store.h: 0 / -1 with *error_r, 1 for "found" where a
 * row may be missing. */
#ifndef ASHES_STORE_NOTE_H
#define ASHES_STORE_NOTE_H

#include <stddef.h>
#include <stdint.h>

#include "store/store.h"

/* Keep a note of player_id on game_id (a row shaped as a message's:
 * struct store_game_message).  -1 with STORE_ERROR_USAGE for an empty
 * text or one over STORE_MESSAGE_MAX bytes, a negative ply, or an
 * unknown game or player.  *id_r may be NULL. */
int store_game_note_add(struct store *store, int64_t game_id, int ply,
			int64_t player_id, const char *text,
			int64_t inbound_id, int64_t now, int64_t *id_r,
			const char **error_r);
/* The notes player_id kept on game_id, in the order kept; free with
 * store_rows_free and store_game_message_clear. */
int store_game_notes(struct store *store, int64_t game_id,
		     int64_t player_id, struct store_game_message **notes_r,
		     size_t *count_r, const char **error_r);
/* How many notes player_id kept on game_id.  0 or -1. */
int store_game_note_count(struct store *store, int64_t game_id,
			  int64_t player_id, size_t *count_r,
			  const char **error_r);

/* Record game_id as the rematch of game of_game.  0 or -1. */
int store_rematch_add(struct store *store, int64_t game_id, int64_t of_game,
		      const char **error_r);
/* The latest rematch of of_game that still stands (a challenge waiting,
 * a game under way or played; not one declined, withdrawn or
 * cancelled): 1 with its id and status, 0 when there is none. */
int store_rematch_find(struct store *store, int64_t of_game,
		       int64_t *game_id_r, enum store_game_status *status_r,
		       const char **error_r);

#endif
