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

/* store_bot_set_player and store_bot_game_applied: refused (with refusal)
 * unless valid, else sql run with a and b as ?1 and ?2. */
static int bot_update(struct store *store, bool valid, const char *refusal,
		      const char *sql, int64_t a, int64_t b, const char *what,
		      const char **error_r)
{
	sqlite3_stmt *st;

	store_ok(store);
	if (!valid)
		return store_fail(store, error_r, STORE_ERROR_USAGE, "%s",
				  refusal);
	st = store_stmt_bind(store, sql, error_r, STORE_INT(a), STORE_INT(b));
	return store_run(store, st, what, error_r);
}

int store_bot_set_player(struct store *store, int64_t player_id,
			 int64_t now, const char **error_r)
{
	static const char sql[] =
		"INSERT INTO bot (id, player_id, created) VALUES (1, ?1, ?2) "
		"ON CONFLICT (id) DO UPDATE SET player_id = excluded.player_id";

	return bot_update(store, player_id > 0, "no player to make the bot",
			  sql, player_id, now, "recording the bot", error_r);
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
	return store_run_found(store, st, "recording a bot game",
			       "game", game_id, error_r);
}

static void bot_game_read(sqlite3_stmt *st, void *row)
{
	struct store_bot_game *g = row;

	g->game_id = store_col_int64(st, 0);
	g->level = sqlite3_column_int(st, 1);
	g->rated = sqlite3_column_int(st, 2) != 0;
	g->created = store_col_int64(st, 3);
	g->applied_at = store_col_int64(st, 4);
}

int store_bot_game_get(struct store *store, int64_t game_id,
		       struct store_bot_game *g_r, const char **error_r)
{
	static const char sql[] =
		"SELECT game_id, level, rated, created, applied_at "
		"FROM bot_games WHERE game_id = ?1";
	sqlite3_stmt *st;

	store_ok(store);
	g_r->game_id = 0;
	st = store_stmt_bind(store, sql, error_r, STORE_INT(game_id));
	return store_query_row(store, st, bot_game_read, g_r,
			       "reading a bot game", error_r);
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

	return bot_update(store, at > 0, "a result is applied at a time", sql,
			  game_id, at, "marking a bot game rated", error_r);
}

/* ---- hints ------------------------------------------------------------ */

/* Whether sql finds a hint of game_id at ply: 1 yes, 0 no, -1 failed. */
static int hint_found(struct store *store, const char *sql, int64_t game_id,
		      int ply, const char **error_r)
{
	sqlite3_stmt *st;
	int64_t n = 0;

	st = store_stmt_bind(store, sql, error_r, STORE_INT(game_id),
			     STORE_INT(ply));
	if (store_query_int64(store, st, &n, "reading the hints asked",
			      error_r) < 0)
		return -1;
	return n > 0 ? 1 : 0;
}

int store_bot_hint_asked(struct store *store, int64_t game_id, int ply,
			 const char **error_r)
{
	static const char sql[] =
		"SELECT count(*) FROM bot_hints WHERE game_id = ?1 AND ply = ?2";

	store_ok(store);
	return hint_found(store, sql, game_id, ply, error_r);
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
	int r;

	store_ok(store);
	if (ply < 1)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "a hint is for a ply from 1");
	r = hint_found(store, sql_waiting, game_id, ply, error_r);
	if (r != 0)
		return r;
	st = store_stmt_bind(store, sql_add, error_r, STORE_INT(game_id),
			     STORE_INT(ply), STORE_INT(player_id),
			     STORE_ID(inbound_id), STORE_INT(now));
	return store_run(store, st, "asking a hint", error_r);
}

static void hint_read(sqlite3_stmt *st, void *row)
{
	struct store_bot_hint *h = row;

	h->id = store_col_int64(st, 0);
	h->game_id = store_col_int64(st, 1);
	h->ply = sqlite3_column_int(st, 2);
	h->player_id = store_col_int64(st, 3);
	h->inbound_id = store_col_int64(st, 4);
	h->requested = store_col_int64(st, 5);
}

int store_bot_hint_next(struct store *store, struct store_bot_hint *h_r,
			const char **error_r)
{
	static const char sql[] =
		"SELECT id, game_id, ply, player_id, inbound_id, requested "
		"FROM bot_hints WHERE answered IS NULL ORDER BY id LIMIT 1";

	store_ok(store);
	memset(h_r, 0, sizeof(*h_r));
	return store_query_row(store, store_stmt(store, sql, error_r),
			       hint_read, h_r, "reading a hint asked", error_r);
}

int store_bot_hint_done(struct store *store, int64_t id, int64_t at,
			const char **error_r)
{
	static const char sql[] =
		"UPDATE bot_hints SET answered = ?2 WHERE id = ?1 "
		"AND answered IS NULL";

	return store_run_sql(store, store_run_changed, sql, "answering a hint",
			     error_r, STORE_INT(id), STORE_INT(at));
}
