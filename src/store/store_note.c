/* store_note.c -- a player's private notes on a game (`note GAME TEXT`)
 * and the rematches of games (`rematch GAME`); see store_note.h. */
#include "store/store_note.h"

#include <string.h>

#include "store/store_private.h"

int store_game_note_add(struct store *store, int64_t game_id, int ply,
			int64_t player_id, const char *text,
			int64_t inbound_id, int64_t now, int64_t *id_r,
			const char **error_r)
{
	static const char sql[] =
		"INSERT INTO game_notes (game_id, ply, player_id, text, "
		"inbound_id, created) VALUES (?1, ?2, ?3, ?4, ?5, ?6)";

	return store_game_text_insert(store, sql, "keeping a note", game_id,
				      ply, player_id, text, inbound_id, now,
				      id_r, error_r);
}

int store_game_notes(struct store *store, int64_t game_id,
		     int64_t player_id, struct store_game_message **notes_r,
		     size_t *count_r, const char **error_r)
{
	static const char sql[] =
		"SELECT id, game_id, ply, player_id, text, inbound_id, created "
		"FROM game_notes WHERE game_id = ?1 AND player_id = ?2 "
		"ORDER BY id";

	return store_rows(store, sql, notes_r, count_r,
			  store_game_message_read, store_game_message_clear,
			  "loading a player's notes", error_r,
			  STORE_INT(game_id), STORE_INT(player_id));
}

int store_game_note_count(struct store *store, int64_t game_id,
			  int64_t player_id, size_t *count_r,
			  const char **error_r)
{
	static const char sql[] =
		"SELECT count(*) FROM game_notes WHERE game_id = ?1 "
		"AND player_id = ?2";
	int64_t n = 0;

	store_ok(store);
	*count_r = 0;
	if (store_query_int64(store, store_stmt_bind(store, sql, error_r,
						     STORE_INT(game_id),
						     STORE_INT(player_id)),
			      &n, "counting a player's notes", error_r) < 0)
		return -1;
	*count_r = (size_t)n;
	return 0;
}

int store_rematch_add(struct store *store, int64_t game_id, int64_t of_game,
		      const char **error_r)
{
	static const char sql[] =
		"INSERT INTO game_rematches (game_id, of_game) VALUES (?1, ?2)";

	return store_run_sql(store, store_run, sql, "recording a rematch",
			     error_r, STORE_INT(game_id), STORE_INT(of_game));
}

int store_rematch_find(struct store *store, int64_t of_game,
		       int64_t *game_id_r, enum store_game_status *status_r,
		       const char **error_r)
{
	static const char sql[] =
		"SELECT r.game_id, g.status FROM game_rematches r "
		"JOIN games g ON g.id = r.game_id WHERE r.of_game = ?1 "
		"AND g.status IN ('challenge', 'open', 'active', 'finished') "
		"ORDER BY r.game_id DESC LIMIT 1";
	sqlite3_stmt *st;
	int r;

	store_ok(store);
	*game_id_r = 0;
	st = store_stmt_bind(store, sql, error_r, STORE_INT(of_game));
	if (st == NULL)
		return -1;
	r = store_step_one(store, st, "finding a rematch", error_r);
	if (r != 1)
		return r;
	*game_id_r = store_col_int64(st, 0);
	if (store_game_status_parse((const char *)sqlite3_column_text(st, 1),
				    status_r) < 0)
		*status_r = STORE_GAME_CHALLENGE;
	store_stmt_done(st);
	return 1;
}
