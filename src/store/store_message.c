/* store_message.c -- the notes the two players of a game relay to each
 * other (`message GAME TEXT`), archived with the game; see store.h. */
#include "store/store_private.h"

#include <stdlib.h>
#include <string.h>

void store_game_message_clear(void *msg)
{
	free(((struct store_game_message *)msg)->text);
}

int store_game_text_insert(struct store *store, const char *sql,
			   const char *doing, int64_t game_id, int ply,
			   int64_t player_id, const char *text,
			   int64_t inbound_id, int64_t now, int64_t *id_r,
			   const char **error_r)
{
	sqlite3_stmt *st;
	size_t len = text != NULL ? strlen(text) : 0;

	store_ok(store);
	if (len == 0 || len > STORE_MESSAGE_MAX)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "a note holds 1 to %d bytes, not %zu",
				  STORE_MESSAGE_MAX, len);
	if (ply < 0 || player_id == 0)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "a note needs a player and a ply");
	st = store_stmt_bind(store, sql, error_r, STORE_INT(game_id),
			     STORE_INT(ply), STORE_INT(player_id));
	if (st == NULL)
		return -1;
	sqlite3_bind_text(st, 4, text, (int)len, SQLITE_TRANSIENT);
	store_bind_id(st, 5, inbound_id);
	sqlite3_bind_int64(st, 6, now);
	if (store_run(store, st, doing, error_r) < 0)
		return -1;
	if (id_r != NULL)
		*id_r = sqlite3_last_insert_rowid(store->db);
	return 0;
}

int store_game_message_add(struct store *store, int64_t game_id, int ply,
			   int64_t player_id, const char *text,
			   int64_t inbound_id, int64_t now, int64_t *id_r,
			   const char **error_r)
{
	static const char sql[] =
		"INSERT INTO game_messages (game_id, ply, player_id, text, "
		"inbound_id, created) VALUES (?1, ?2, ?3, ?4, ?5, ?6)";

	return store_game_text_insert(store, sql, "archiving a note", game_id,
				      ply, player_id, text, inbound_id, now,
				      id_r, error_r);
}

void store_game_message_read(sqlite3_stmt *st, void *elem)
{
	struct store_game_message *m = elem;

	m->id = store_col_int64(st, 0);
	m->game_id = store_col_int64(st, 1);
	m->ply = sqlite3_column_int(st, 2);
	m->player_id = store_col_int64(st, 3);
	m->text = store_col_strdup(st, 4);
	m->inbound_id = store_col_int64(st, 5);
	m->created = store_col_int64(st, 6);
}

int store_game_messages(struct store *store, int64_t game_id,
			struct store_game_message **msgs_r, size_t *count_r,
			const char **error_r)
{
	static const char sql[] =
		"SELECT id, game_id, ply, player_id, text, inbound_id, created "
		"FROM game_messages WHERE game_id = ?1 ORDER BY id";

	return store_rows(store, sql, msgs_r, count_r,
			  store_game_message_read, store_game_message_clear,
			  "loading a game's notes", error_r,
			  STORE_INT(game_id));
}
