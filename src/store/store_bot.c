/* store_bot.c -- the practice opponent's rows (sql/010): which player is
 * the bot, the games against it and their level; see store_bot.h. */
#include "store/store_private.h"
#include "store/store_bot.h"

#include <stdlib.h>
#include <string.h>

int store_bot_player(struct store *store, int64_t *player_id_r,
		     const char **error_r)
{
	static const char sql[] = "SELECT player_id FROM bot WHERE id = 1";
	sqlite3_stmt *st;

	store_ok(store);
	*player_id_r = 0;
	st = store_stmt(store, sql, error_r);
	return store_query_int64(store, st, player_id_r, "reading the bot",
				 error_r);
}

int store_bot_set_player(struct store *store, int64_t player_id,
			 int64_t now, const char **error_r)
{
	static const char sql[] =
		"INSERT INTO bot (id, player_id, created) VALUES (1, ?1, ?2) "
		"ON CONFLICT (id) DO UPDATE SET player_id = excluded.player_id";
	sqlite3_stmt *st;

	store_ok(store);
	if (player_id <= 0)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "no player to make the bot");
	st = store_stmt_bind(store, sql, error_r, STORE_INT(player_id),
			     STORE_INT(now));
	return store_run(store, st, "recording the bot", error_r);
}

int store_bot_game_add(struct store *store, int64_t game_id, int level,
		       bool rated, int64_t now, const char **error_r)
{
	static const char sql[] =
		"INSERT INTO bot_games (game_id, level, rated, created) "
		"SELECT id, ?2, ?3, ?4 FROM games WHERE id = ?1";
	sqlite3_stmt *st;

	store_ok(store);
	if (level < 1 || level > 5)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "bot level %d out of range", level);
	st = store_stmt_bind(store, sql, error_r, STORE_INT(game_id),
			     STORE_INT(level), STORE_INT(rated ? 1 : 0),
			     STORE_INT(now));
	if (store_run(store, st, "recording a bot game", error_r) < 0)
		return -1;
	if (sqlite3_changes(store->db) == 0)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "no game %lld", (long long)game_id);
	return 0;
}

int store_bot_game_get(struct store *store, int64_t game_id,
		       struct store_bot_game *g_r, const char **error_r)
{
	static const char sql[] =
		"SELECT game_id, level, rated, created, applied_at "
		"FROM bot_games WHERE game_id = ?1";
	sqlite3_stmt *st;
	int r;

	store_ok(store);
	g_r->game_id = 0;
	st = store_stmt_bind(store, sql, error_r, STORE_INT(game_id));
	r = store_step_one(store, st, "reading a bot game", error_r);
	if (r != 1)
		return r;
	g_r->game_id = store_col_int64(st, 0);
	g_r->level = sqlite3_column_int(st, 1);
	g_r->rated = sqlite3_column_int(st, 2) != 0;
	g_r->created = store_col_int64(st, 3);
	g_r->applied_at = store_col_int64(st, 4);
	store_stmt_done(st);
	return 1;
}

int store_bot_games_active(struct store *store, int64_t **ids_r,
			   size_t *count_r, const char **error_r)
{
	return store_ids(store, ids_r, count_r, "listing bot games", error_r,
			 "SELECT b.game_id FROM bot_games b JOIN games g "
			 "ON g.id = b.game_id WHERE g.status = 'active' "
			 "ORDER BY b.game_id");
}

int store_bot_games_busy(struct store *store, size_t *count_r,
			 const char **error_r)
{
	static const char sql[] =
		"SELECT count(*) FROM bot_games b JOIN games g "
		"ON g.id = b.game_id "
		"WHERE g.status IN ('challenge', 'open', 'active')";
	sqlite3_stmt *st;
	int64_t n = 0;

	store_ok(store);
	*count_r = 0;
	st = store_stmt(store, sql, error_r);
	if (store_query_int64(store, st, &n, "counting bot games", error_r) < 0)
		return -1;
	*count_r = (size_t)n;
	return 0;
}

int store_bot_games_unapplied(struct store *store, int64_t **ids_r,
			      size_t *count_r, const char **error_r)
{
	return store_ids(store, ids_r, count_r,
			 "listing bot games to rate", error_r,
			 "SELECT b.game_id FROM bot_games b JOIN games g "
			 "ON g.id = b.game_id WHERE b.rated = 1 "
			 "AND b.applied_at IS NULL AND g.status = 'finished' "
			 "ORDER BY g.updated, g.id");
}

int store_bot_game_applied(struct store *store, int64_t game_id, int64_t at,
			   const char **error_r)
{
	static const char sql[] =
		"UPDATE bot_games SET applied_at = ?2 WHERE game_id = ?1 "
		"AND applied_at IS NULL";
	sqlite3_stmt *st;

	store_ok(store);
	if (at <= 0)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "a result is applied at a time");
	st = store_stmt_bind(store, sql, error_r, STORE_INT(game_id),
			     STORE_INT(at));
	return store_run(store, st, "marking a bot game rated", error_r);
}

/* ---- hints ------------------------------------------------------------ */

int store_bot_hint_asked(struct store *store, int64_t game_id, int ply,
			 const char **error_r)
{
	static const char sql[] =
		"SELECT count(*) FROM bot_hints WHERE game_id = ?1 AND ply = ?2";
	sqlite3_stmt *st;
	int64_t n = 0;

	store_ok(store);
	st = store_stmt_bind(store, sql, error_r, STORE_INT(game_id),
			     STORE_INT(ply));
	if (store_query_int64(store, st, &n, "reading the hints asked",
			      error_r) < 0)
		return -1;
	return n > 0 ? 1 : 0;
}

int store_bot_hint_add(struct store *store, int64_t game_id, int ply,
		       int64_t player_id, int64_t inbound_id, int64_t now,
		       const char **error_r)
{
	static const char sql_waiting[] =
		"SELECT count(*) FROM bot_hints WHERE game_id = ?1 "
		"AND ply = ?2 AND answered IS NULL";
	static const char sql_add[] =
		"INSERT INTO bot_hints (game_id, ply, player_id, inbound_id, "
		"requested) VALUES (?1, ?2, ?3, ?4, ?5)";
	sqlite3_stmt *st;
	int64_t n = 0;

	store_ok(store);
	if (ply < 1)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "a hint is for a ply from 1");
	st = store_stmt_bind(store, sql_waiting, error_r, STORE_INT(game_id),
			     STORE_INT(ply));
	if (store_query_int64(store, st, &n, "reading the hints asked",
			      error_r) < 0)
		return -1;
	if (n > 0)
		return 1;
	st = store_stmt_bind(store, sql_add, error_r, STORE_INT(game_id),
			     STORE_INT(ply), STORE_INT(player_id),
			     STORE_ID(inbound_id), STORE_INT(now));
	return store_run(store, st, "asking a hint", error_r);
}

int store_bot_hint_next(struct store *store, struct store_bot_hint *h_r,
			const char **error_r)
{
	static const char sql[] =
		"SELECT id, game_id, ply, player_id, inbound_id, requested "
		"FROM bot_hints WHERE answered IS NULL ORDER BY id LIMIT 1";
	sqlite3_stmt *st;
	int r;

	store_ok(store);
	memset(h_r, 0, sizeof(*h_r));
	st = store_stmt(store, sql, error_r);
	r = store_step_one(store, st, "reading a hint asked", error_r);
	if (r != 1)
		return r;
	h_r->id = store_col_int64(st, 0);
	h_r->game_id = store_col_int64(st, 1);
	h_r->ply = sqlite3_column_int(st, 2);
	h_r->player_id = store_col_int64(st, 3);
	h_r->inbound_id = store_col_int64(st, 4);
	h_r->requested = store_col_int64(st, 5);
	store_stmt_done(st);
	return 1;
}

int store_bot_hint_done(struct store *store, int64_t id, int64_t at,
			const char **error_r)
{
	static const char sql[] =
		"UPDATE bot_hints SET answered = ?2 WHERE id = ?1 "
		"AND answered IS NULL";
	sqlite3_stmt *st;

	store_ok(store);
	st = store_stmt_bind(store, sql, error_r, STORE_INT(id), STORE_INT(at));
	return store_run_changed(store, st, "answering a hint", error_r);
}
