/* store_game.c -- games (challenges included), their moves, and observers;
 * see store.h. */
#include "store/store_private.h"

#include <stdlib.h>
#include <string.h>

static const char *const status_names[STORE_GAME_STATUS_COUNT] = {
	[STORE_GAME_CHALLENGE] = "challenge",
	[STORE_GAME_OPEN] = "open",
	[STORE_GAME_ACTIVE] = "active",
	[STORE_GAME_FINISHED] = "finished",
	[STORE_GAME_DECLINED] = "declined",
	[STORE_GAME_WITHDRAWN] = "withdrawn",
	[STORE_GAME_CANCELLED] = "cancelled",
};

const char *store_game_status_name(enum store_game_status status)
{
	if ((unsigned)status >= STORE_GAME_STATUS_COUNT)
		return NULL;
	return status_names[status];
}

int store_game_status_parse(const char *name,
			    enum store_game_status *status_r)
{
	int i;

	for (i = 0; name != NULL && i < STORE_GAME_STATUS_COUNT; i++) {
		if (strcmp(name, status_names[i]) == 0) {
			*status_r = (enum store_game_status)i;
			return 0;
		}
	}
	return -1;
}

void store_game_clear(void *game)
{
	struct store_game *g = game;

	free(g->variant);
	free(g->result);
	free(g->end_reason);
	free(g->clock_settings);
	free(g->thread_message_id);
}

void store_game_free(struct store_game **game)
{
	store_rows_free(game, 1, sizeof(**game), store_game_clear);
}

void store_game_read(sqlite3_stmt *st, void *elem)
{
	struct store_game *g = elem;
	enum store_game_status status = STORE_GAME_CHALLENGE;

	g->id = store_col_int64(st, 0);
	g->variant = store_col_strdup(st, 1);
	g->challenger_id = store_col_int64(st, 2);
	g->white_id = store_col_int64(st, 3);
	g->black_id = store_col_int64(st, 4);
	g->swapped = sqlite3_column_int(st, 5) != 0;
	/* The CHECK constraint keeps the column to the known names. */
	store_game_status_parse((const char *)sqlite3_column_text(st, 6),
				&status);
	g->status = status;
	g->ply = sqlite3_column_int(st, 7);
	g->result = store_col_strdup(st, 8);
	g->end_reason = store_col_strdup(st, 9);
	g->created = store_col_int64(st, 10);
	g->updated = store_col_int64(st, 11);
	g->draw_offer_by = store_col_int64(st, 12);
	g->draw_offer_ply = sqlite3_column_int(st, 13);
	g->clock_settings = store_col_strdup(st, 14);
	g->clock_white = store_col_int64(st, 15);
	g->clock_black = store_col_int64(st, 16);
	g->clock_turn_started = store_col_int64(st, 17);
	g->deadline_at = store_col_int64(st, 18);
	g->reminders_sent = sqlite3_column_int(st, 19);
	g->thread_message_id = store_col_strdup(st, 20);
	g->clock_side = sqlite3_column_int(st, 21);
	g->remind_at = store_col_int64(st, 22);
	g->flag_fell_at = store_col_int64(st, 23);
}

/* Bind the mutable fields of g to parameters ?2 .. ?19 (the same order
 * for insert and update; ?1 is the id or the variant). */
static int game_bind_mutable(struct store *s, sqlite3_stmt *st,
			     const struct store_game *g, const char **error_r)
{
	const char *status = store_game_status_name(g->status);

	if (status == NULL)
		return store_fail(s, error_r, STORE_ERROR_USAGE,
				  "bad game status %d", (int)g->status);
	if (g->clock_side != 0 && g->clock_side != 1)
		return store_fail(s, error_r, STORE_ERROR_USAGE,
				  "bad clock side %d", g->clock_side);
	store_bind_id(st, 2, g->white_id);
	store_bind_id(st, 3, g->black_id);
	sqlite3_bind_int(st, 4, g->swapped ? 1 : 0);
	sqlite3_bind_text(st, 5, status, -1, SQLITE_STATIC);
	store_bind_text(st, 6, g->result);
	store_bind_text(st, 7, g->end_reason);
	store_bind_id(st, 8, g->draw_offer_by);
	if (g->draw_offer_by != 0)
		sqlite3_bind_int(st, 9, g->draw_offer_ply);
	store_bind_text(st, 10, g->clock_settings);
	if (g->clock_settings != NULL) {
		sqlite3_bind_int64(st, 11, g->clock_white);
		sqlite3_bind_int64(st, 12, g->clock_black);
		store_bind_id(st, 13, g->clock_turn_started);
	}
	store_bind_id(st, 14, g->deadline_at);
	sqlite3_bind_int(st, 15, g->reminders_sent);
	store_bind_text(st, 16, g->thread_message_id);
	sqlite3_bind_int(st, 17, g->clock_side);
	store_bind_id(st, 18, g->remind_at);
	store_bind_id(st, 19, g->flag_fell_at);
	return 0;
}

int store_game_create(struct store *store, const struct store_game *game,
		      int64_t now, int64_t *id_r, const char **error_r)
{
	static const char sql[] =
		"INSERT INTO games (variant, white_id, black_id, swapped, "
		"status, result, end_reason, draw_offer_by, draw_offer_ply, "
		"clock_settings, clock_white, clock_black, clock_turn_started, "
		"deadline_at, reminders_sent, thread_message_id, clock_side, "
		"remind_at, flag_fell_at, challenger_id, created, updated) "
		"VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, "
		"?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?21)";
	sqlite3_stmt *st;

	store_ok(store);
	if (game->variant == NULL)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "a game needs a variant");
	st = store_stmt_bind(store, sql, error_r, STORE_TEXT(game->variant));
	if (st == NULL)
		return -1;
	if (game_bind_mutable(store, st, game, error_r) < 0) {
		store_stmt_done(st);
		return -1;
	}
	sqlite3_bind_int64(st, 20, game->challenger_id);
	sqlite3_bind_int64(st, 21, now);
	if (store_run(store, st, "creating a game", error_r) < 0)
		return -1;
	if (id_r != NULL)
		*id_r = sqlite3_last_insert_rowid(store->db);
	return 0;
}

/* A new game read into *(struct store_game **)row. */
static void game_new_read(sqlite3_stmt *st, void *row)
{
	struct store_game *g = xzalloc(sizeof(*g));

	store_game_read(st, g);
	*(struct store_game **)row = g;
}

int store_game_load(struct store *store, int64_t game_id,
		    struct store_game **game_r, const char **error_r)
{
	static const char sql[] =
		"SELECT " STORE_GAME_COLUMNS " FROM games WHERE id = ?1";
	sqlite3_stmt *st;

	store_ok(store);
	*game_r = NULL;
	st = store_stmt_bind(store, sql, error_r, STORE_INT(game_id));
	return store_query_row(store, st, game_new_read, game_r,
			       "loading a game", error_r);
}

int store_game_update(struct store *store, const struct store_game *game,
		      int64_t now, const char **error_r)
{
	static const char sql[] =
		"UPDATE games SET white_id = ?2, black_id = ?3, swapped = ?4, "
		"status = ?5, result = ?6, end_reason = ?7, "
		"draw_offer_by = ?8, draw_offer_ply = ?9, "
		"clock_settings = ?10, clock_white = ?11, clock_black = ?12, "
		"clock_turn_started = ?13, deadline_at = ?14, "
		"reminders_sent = ?15, thread_message_id = ?16, "
		"clock_side = ?17, remind_at = ?18, flag_fell_at = ?19, "
		"updated = ?20 WHERE id = ?1";
	sqlite3_stmt *st;

	store_ok(store);
	st = store_stmt_bind(store, sql, error_r, STORE_INT(game->id));
	if (st == NULL)
		return -1;
	if (game_bind_mutable(store, st, game, error_r) < 0) {
		store_stmt_done(st);
		return -1;
	}
	sqlite3_bind_int64(st, 20, now);
	if (store_run(store, st, "updating a game", error_r) < 0)
		return -1;
	if (sqlite3_changes(store->db) == 0)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "no game %lld to update",
				  (long long)game->id);
	return 0;
}

/* Step st to the end, appending every row as a game. */
static int games_collect(struct store *s, sqlite3_stmt *st,
			 struct store_game **games_r, size_t *count_r,
			 const char *what, const char **error_r)
{
	return store_collect(s, st, sizeof(**games_r), store_game_read,
			     store_game_clear, games_r, count_r, what, error_r);
}

int store_games_query(struct store *store, const char *sql, int64_t key,
		      size_t limit, struct store_game **games_r,
		      size_t *count_r, const char *what, const char **error_r)
{
	sqlite3_stmt *st;

	store_ok(store);
	st = store_stmt_bind(store, sql, error_r, STORE_INT(key),
			     STORE_LIMIT(limit));
	return games_collect(store, st, games_r, count_r, what, error_r);
}

/* 1 and *status_r if mask selects exactly one status. */
static bool single_status(unsigned mask, enum store_game_status *status_r)
{
	int i;

	for (i = 0; i < STORE_GAME_STATUS_COUNT; i++) {
		if (mask == 1u << i) {
			*status_r = (enum store_game_status)i;
			return true;
		}
	}
	return false;
}

/* The status mask test for SQL: parameter ?9 holds the mask. */
#define STATUS_IN_MASK \
	"(?9 = 0 OR (?9 >> CASE status WHEN 'challenge' THEN 0 " \
	"WHEN 'open' THEN 1 WHEN 'active' THEN 2 WHEN 'finished' THEN 3 " \
	"WHEN 'declined' THEN 4 WHEN 'withdrawn' THEN 5 ELSE 6 END) & 1)"

int store_games_for_player(struct store *store, int64_t player_id,
			   unsigned statuses, struct store_game **games_r,
			   size_t *count_r, const char **error_r)
{
	static const char sql[] =
		"SELECT " STORE_GAME_COLUMNS " FROM games WHERE "
		"(white_id = ?1 OR black_id = ?1 OR challenger_id = ?1) AND "
		STATUS_IN_MASK
		" ORDER BY id DESC";
	sqlite3_stmt *st;

	/* On failure games_collect() still clears *games_r and *count_r. */
	store_ok(store);
	st = store_stmt_bind(store, sql, error_r, STORE_INT(player_id));
	if (st != NULL)
		sqlite3_bind_int64(st, 9, statuses);
	return games_collect(store, st, games_r, count_r,
			     "listing a player's games", error_r);
}

int store_games_finished_for_player(struct store *store, int64_t player_id,
				    size_t limit, struct store_game **games_r,
				    size_t *count_r, const char **error_r)
{
	/* A finished game changes no more: its last update is its end. */
	static const char sql[] =
		"SELECT " STORE_GAME_COLUMNS " FROM games "
		"WHERE status = 'finished' AND "
		"(white_id = ?1 OR black_id = ?1) "
		"ORDER BY updated DESC, id DESC LIMIT ?2";

	return store_games_query(store, sql, player_id, limit, games_r,
				 count_r, "listing a player's finished games",
				 error_r);
}

int store_games_list(struct store *store, unsigned statuses,
		     int64_t after_id, size_t limit,
		     struct store_game **games_r, size_t *count_r,
		     const char **error_r)
{
	/* One status (e.g. the open challenges) goes through its index, so
	 * it stays cheap with 100,000 finished games around. */
	static const char sql_one[] =
		"SELECT " STORE_GAME_COLUMNS " FROM games "
		"WHERE status = ?1 AND id > ?2 ORDER BY id LIMIT ?3";
	static const char sql_mask[] =
		"SELECT " STORE_GAME_COLUMNS " FROM games WHERE id > ?2 AND "
		STATUS_IN_MASK " ORDER BY id LIMIT ?3";
	enum store_game_status one;
	sqlite3_stmt *st;

	store_ok(store);
	if (single_status(statuses, &one))
		st = store_stmt_bind(store, sql_one, error_r,
				     STORE_TEXT(store_game_status_name(one)));
	else if ((st = store_stmt(store, sql_mask, error_r)) != NULL)
		sqlite3_bind_int64(st, 9, statuses);
	if (st != NULL) {
		sqlite3_bind_int64(st, 2, after_id);
		sqlite3_bind_int64(st, 3, limit == 0 ? -1 : (int64_t)limit);
	}
	/* On failure games_collect() still clears *games_r and *count_r. */
	return games_collect(store, st, games_r, count_r, "listing games",
			     error_r);
}

int store_games_due(struct store *store, int64_t now, size_t limit,
		    struct store_game **games_r, size_t *count_r,
		    const char **error_r)
{
	static const char sql[] =
		"SELECT " STORE_GAME_COLUMNS " FROM games WHERE deadline_at "
		"IS NOT NULL AND deadline_at <= ?1 AND status = 'active' "
		"ORDER BY deadline_at, id LIMIT ?2";

	return store_games_query(store, sql, now, limit, games_r, count_r,
				 "listing games due", error_r);
}

int store_game_by_message_id(struct store *store, const char *message_id,
			     int64_t *game_id_r, const char **error_r)
{
	static const char sql[] =
		"SELECT id FROM games WHERE thread_message_id = ?1 "
		"UNION ALL SELECT game_id FROM outbox WHERE message_id = ?1 "
		"AND game_id IS NOT NULL LIMIT 1";
	sqlite3_stmt *st;

	store_ok(store);
	if (message_id == NULL)
		return 0;
	st = store_stmt_bind(store, sql, error_r, STORE_TEXT(message_id));
	return store_query_int64(store, st, game_id_r, "finding a game by Message-ID", error_r);
}


/* A change made only "if the game is at ply N" changed nothing: 1 when
 * the game exists (someone moved it on meanwhile: stale), -1 with
 * *error_r when there is no such game or the store failed. */
static int game_moved_on(struct store *store, int64_t game_id,
			 const char *what, const char **error_r)
{
	static const char sql[] = "SELECT 1 FROM games WHERE id = ?1";
	int rc = store_query_id_int64(store, sql, game_id, NULL, what,
				      error_r);

	if (rc == 1)
		return 1;
	if (rc == 0)
		store_fail(store, error_r, STORE_ERROR_USAGE, "no game %lld",
			   (long long)game_id);
	return -1;
}

/* The first statement of a change to a game's moves, in its transaction:
 * the update of games.ply guarded by the ply expected.  0 done, 1 the game
 * moved on (game_moved_on), -1 on failure. */
static int game_ply_step(struct store *store, sqlite3_stmt *st,
			 int64_t game_id, const char *what,
			 const char **error_r)
{
	int r = store_run_changed(store, st, what, error_r);

	if (r == 0)
		return game_moved_on(store, game_id, what, error_r);
	return r < 0 ? -1 : 0;
}

/* ---- moves ---------------------------------------------------------- */

int store_move_append(struct store *store, int64_t game_id, int ply,
		      const char *text, int64_t player_id, int64_t now,
		      int64_t inbound_id, const char **error_r)
{
	/* Bumping the ply first, guarded by the expected old value, makes a
	 * stale or duplicate ply a no-op without a separate read. */
	static const char sql_bump[] =
		"UPDATE games SET ply = ply + 1, updated = ?3 "
		"WHERE id = ?1 AND ply = ?2 - 1";
	static const char sql_insert[] =
		"INSERT INTO moves (game_id, ply, move, player_id, played_at, "
		"inbound_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6)";
	sqlite3_stmt *st;
	int ret;

	store_ok(store);
	if (text == NULL || *text == '\0')
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "empty move text");
	if (store_atomic_begin(store, error_r) < 0)
		return -1;
	st = store_stmt_bind(store, sql_bump, error_r, STORE_INT(game_id),
			     STORE_INT(ply), STORE_INT(now));
	ret = game_ply_step(store, st, game_id, "appending a move", error_r);
	if (ret == 0) {
		st = store_stmt_bind(store, sql_insert, error_r,
				     STORE_INT(game_id), STORE_INT(ply),
				     STORE_TEXT(text), STORE_ID(player_id),
				     STORE_INT(now), STORE_ID(inbound_id));
		ret = store_run_insert(store, st, "appending a move", error_r);
	}
	if (store_atomic_end(store, ret == 0, error_r) < 0 && ret == 0)
		ret = -1;
	return ret;
}

static const char sql_moves[] =
	"SELECT ply, move, player_id, played_at, inbound_id FROM moves "
	"WHERE game_id = ?1 ORDER BY ply";

static void move_read(sqlite3_stmt *st, void *elem)
{
	struct store_move *m = elem;

	m->ply = sqlite3_column_int(st, 0);
	m->text = store_col_strdup(st, 1);
	m->player_id = store_col_int64(st, 2);
	m->played_at = store_col_int64(st, 3);
	m->inbound_id = store_col_int64(st, 4);
}

void store_move_clear(void *move)
{
	free(((struct store_move *)move)->text);
}

int store_game_move_records(struct store *store, int64_t game_id,
			    struct store_move **moves_r, size_t *count_r,
			    const char **error_r)
{
	sqlite3_stmt *st;

	store_ok(store);
	st = store_stmt_bind(store, sql_moves, error_r, STORE_INT(game_id));
	return store_collect(store, st, sizeof(**moves_r), move_read,
			     store_move_clear, moves_r, count_r,
			     "loading moves", error_r);
}

int store_game_moves(struct store *store, int64_t game_id, char ***moves_r,
		     size_t *count_r, const char **error_r)
{
	sqlite3_stmt *st;

	store_ok(store);
	st = store_stmt_bind(store, sql_moves, error_r, STORE_INT(game_id));
	return store_collect_strings(store, st, 1, moves_r, count_r,
				     "loading moves", error_r);
}

/* ---- observers ------------------------------------------------------ */

int store_observer_add(struct store *store, int64_t game_id,
		       int64_t player_id, int64_t now, const char **error_r)
{
	static const char sql[] =
		"INSERT INTO observers (game_id, player_id, created) "
		"VALUES (?1, ?2, ?3)";

	return store_run_sql(store, store_run_insert, sql, "adding an observer",
			     error_r, STORE_INT(game_id), STORE_INT(player_id),
			     STORE_INT(now));
}

int store_observer_remove(struct store *store, int64_t game_id,
			  int64_t player_id, const char **error_r)
{
	static const char sql[] =
		"DELETE FROM observers WHERE game_id = ?1 AND player_id = ?2";

	return store_run_sql(store, store_run_changed, sql,
			     "removing an observer",
			     error_r, STORE_INT(game_id), STORE_INT(player_id));
}

int store_observer_list(struct store *store, int64_t game_id,
			int64_t **ids_r, size_t *count_r,
			const char **error_r)
{
	return store_ids(store, ids_r, count_r, "listing observers", error_r,
			 "SELECT player_id FROM observers WHERE game_id = ?1 "
			 "ORDER BY player_id", STORE_INT(game_id));
}

/* ---- taking moves back (by agreement of both players) --------------- */

int store_move_take_back(struct store *store, int64_t game_id, int ply,
			 int keep, int64_t now, const char **error_r)
{
	/* Lowering the ply first, guarded by the expected old value, makes
	 * a take-back that raced with a move a no-op (as store_move_append
	 * does); the request to take back is answered by it. */
	static const char sql_lower[] =
		"UPDATE games SET ply = ?3, updated = ?4, undo_offer_by = NULL, "
		"undo_offer_ply = NULL WHERE id = ?1 AND ply = ?2";
	static const char sql_delete[] =
		"DELETE FROM moves WHERE game_id = ?1 AND ply > ?2";
	/* The position history changed: no conditional tree applies. */
	static const char sql_trees[] =
		"DELETE FROM conditional_trees WHERE game_id = ?1";
	sqlite3_stmt *st;
	int ret;

	store_ok(store);
	if (keep < 0 || keep >= ply)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "cannot take back to ply %d from ply %d",
				  keep, ply);
	if (store_atomic_begin(store, error_r) < 0)
		return -1;
	st = store_stmt_bind(store, sql_lower, error_r, STORE_INT(game_id),
			     STORE_INT(ply), STORE_INT(keep), STORE_INT(now));
	ret = game_ply_step(store, st, game_id, "taking moves back", error_r);
	if (ret == 0) {
		st = store_stmt_bind(store, sql_delete, error_r,
				     STORE_INT(game_id), STORE_INT(keep));
		ret = store_run(store, st, "taking moves back", error_r);
	}
	/* ply counts the rows in moves: exactly ply - keep of them go. */
	if (ret == 0 && sqlite3_changes(store->db) != ply - keep)
		ret = store_fail(store, error_r, STORE_ERROR_USAGE,
				 "game %lld does not hold plies %d to %d",
				 (long long)game_id, keep + 1, ply);
	if (ret == 0)
		ret = store_run_sql(store, store_run, sql_trees,
				    "clearing conditional trees", error_r,
				    STORE_INT(game_id));
	if (store_atomic_end(store, ret == 0, error_r) < 0 && ret == 0)
		ret = -1;
	return ret;
}

int store_undo_offer_get(struct store *store, int64_t game_id,
			 int64_t *player_id_r, int *ply_r,
			 const char **error_r)
{
	static const char sql[] =
		"SELECT undo_offer_by, undo_offer_ply FROM games "
		"WHERE id = ?1 AND undo_offer_by IS NOT NULL";
	sqlite3_stmt *st;
	int rc;

	store_ok(store);
	*player_id_r = 0;
	*ply_r = 0;
	st = store_stmt_bind(store, sql, error_r, STORE_INT(game_id));
	rc = store_step_one(store, st, "reading a request to take back",
			    error_r);
	if (rc <= 0)
		return rc;
	*player_id_r = store_col_int64(st, 0);
	*ply_r = sqlite3_column_int(st, 1);
	store_stmt_done(st);
	return 1;
}

int store_undo_offer_set(struct store *store, int64_t game_id,
			 int64_t player_id, int ply, int64_t now,
			 const char **error_r)
{
	static const char sql[] =
		"UPDATE games SET undo_offer_by = ?2, undo_offer_ply = ?3, "
		"updated = ?4 WHERE id = ?1";
	sqlite3_stmt *st;

	store_ok(store);
	if (player_id != 0 && ply < 0)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "bad ply %d", ply);
	st = store_stmt_bind(store, sql, error_r, STORE_INT(game_id),
			     STORE_ID(player_id));
	if (st == NULL)
		return -1;
	if (player_id != 0)
		sqlite3_bind_int(st, 3, ply);
	sqlite3_bind_int64(st, 4, now);
	return store_run_found(store, st,
			       "recording a request to take back", "game",
			       game_id, error_r);
}
