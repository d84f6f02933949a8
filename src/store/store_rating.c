/* store_rating.c -- the players' Glicko-2 ratings (the table ratings of
 * sql/009), each change of a rating by a game (rating_changes), and the
 * rated games in the order their results were applied: what `ashes
 * ratings --recompute` replays; see store_club.h. */
#include "store/store_private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A Glicko-2 triple the CHECKs of sql/009 let in: finite, rd and vol
 * positive.  0, or -1 with STORE_ERROR_USAGE before any SQL (SQLite
 * would store a NaN as NULL). */
static int rating_values_check(struct store *store, const char *what,
			       double r, double rd, double vol,
			       const char **error_r)
{
	if (!isfinite(r) || !isfinite(rd) || !isfinite(vol))
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "%s that is not finite (%g, %g, %g)", what,
				  r, rd, vol);
	if (rd <= 0 || vol <= 0)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "%s with a deviation or volatility not "
				  "above 0 (%g, %g)", what, rd, vol);
	return 0;
}

#define RATING_COLUMNS \
	"player_id, r, rd, vol, games, last_played, last_lost_on_time"

static void rating_read(sqlite3_stmt *st, void *elem)
{
	struct store_rating *r = elem;

	r->player_id = store_col_int64(st, 0);
	r->r = sqlite3_column_double(st, 1);
	r->rd = sqlite3_column_double(st, 2);
	r->vol = sqlite3_column_double(st, 3);
	r->games = sqlite3_column_int(st, 4);
	r->last_played = store_col_int64(st, 5);
	r->last_lost_on_time = sqlite3_column_int(st, 6) != 0;
}

int store_rating_get(struct store *store, int64_t player_id,
		     struct store_rating *r_r, const char **error_r)
{
	static const char sql[] =
		"SELECT " RATING_COLUMNS " FROM ratings WHERE player_id = ?1";
	sqlite3_stmt *st;

	store_ok(store);
	memset(r_r, 0, sizeof(*r_r));
	r_r->player_id = player_id;
	st = store_stmt_bind(store, sql, error_r, STORE_INT(player_id));
	return store_query_row(store, st, rating_read, r_r,
			       "loading a rating", error_r);
}

int store_rating_set(struct store *store, const struct store_rating *r,
		     const char **error_r)
{
	/* As in store_vacation_add: no player row, no rating row. */
	static const char sql[] =
		"INSERT INTO ratings (" RATING_COLUMNS ") "
		"SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7 FROM players WHERE id = ?1 "
		"ON CONFLICT (player_id) DO UPDATE SET r = excluded.r, "
		"rd = excluded.rd, vol = excluded.vol, "
		"games = excluded.games, last_played = excluded.last_played, "
		"last_lost_on_time = excluded.last_lost_on_time";
	sqlite3_stmt *st;

	store_ok(store);
	if (rating_values_check(store, "a rating", r->r, r->rd, r->vol,
				error_r) < 0)
		return -1;
	if (r->games < 0)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "a rating after %d games", r->games);
	st = store_stmt_bind(store, sql, error_r, STORE_INT(r->player_id),
			     STORE_REAL(r->r), STORE_REAL(r->rd),
			     STORE_REAL(r->vol), STORE_INT(r->games),
			     STORE_ID(r->last_played),
			     STORE_INT(r->last_lost_on_time ? 1 : 0));
	return store_run_found(store, st, "saving a rating",
			       "player", r->player_id, error_r);
}

int store_ratings(struct store *store, struct store_rating **ratings_r,
		  size_t *count_r, const char **error_r)
{
	static const char sql[] =
		"SELECT " RATING_COLUMNS " FROM ratings "
		"ORDER BY r DESC, player_id";

	return store_rows(store, sql, ratings_r, count_r,
			  rating_read, NULL,
			  "listing the ratings", error_r);
}

int store_ratings_clear(struct store *store, const char **error_r)
{
	static const char sql_ratings[] = "DELETE FROM ratings";
	static const char sql_changes[] = "DELETE FROM rating_changes";
	sqlite3_stmt *st;
	int ret = -1;

	store_ok(store);
	if (store_atomic_begin(store, error_r) < 0)
		return -1;
	st = store_stmt(store, sql_ratings, error_r);
	if (st == NULL ||
	    store_run(store, st, "forgetting the ratings", error_r) < 0)
		goto out;
	st = store_stmt(store, sql_changes, error_r);
	if (st == NULL ||
	    store_run(store, st, "forgetting the rating history", error_r) < 0)
		goto out;
	ret = 0;
out:
	if (store_atomic_end(store, ret == 0, error_r) < 0 && ret == 0)
		ret = -1;
	return ret;
}

int store_rating_change_add(struct store *store,
			    const struct store_rating_change *c,
			    const char **error_r)
{
	static const char sql[] =
		"INSERT INTO rating_changes (game_id, player_id, r_before, "
		"rd_before, vol_before, r_after, rd_after, vol_after, at) "
		"VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)";
	sqlite3_stmt *st;

	store_ok(store);
	if (rating_values_check(store, "a rating before a game", c->r_before,
				c->rd_before, c->vol_before, error_r) < 0 ||
	    rating_values_check(store, "a rating after a game", c->r_after,
				c->rd_after, c->vol_after, error_r) < 0)
		return -1;
	if (c->game_id == 0)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "no game 0");
	if (c->player_id == 0)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "no player 0");
	if (store_club_refs_exist(store, c->player_id, 0, c->game_id, 0,
				  error_r) < 0)
		return -1;
	st = store_stmt_bind(store, sql, error_r, STORE_INT(c->game_id),
			     STORE_INT(c->player_id), STORE_REAL(c->r_before),
			     STORE_REAL(c->rd_before),
			     STORE_REAL(c->vol_before), STORE_REAL(c->r_after),
			     STORE_REAL(c->rd_after), STORE_REAL(c->vol_after),
			     STORE_INT(c->at));
	return store_run_insert(store, st, "recording a rating change",
				error_r);
}

static void rating_change_read(sqlite3_stmt *st, void *elem)
{
	struct store_rating_change *c = elem;

	c->game_id = store_col_int64(st, 0);
	c->player_id = store_col_int64(st, 1);
	c->r_before = sqlite3_column_double(st, 2);
	c->rd_before = sqlite3_column_double(st, 3);
	c->vol_before = sqlite3_column_double(st, 4);
	c->r_after = sqlite3_column_double(st, 5);
	c->rd_after = sqlite3_column_double(st, 6);
	c->vol_after = sqlite3_column_double(st, 7);
	c->at = store_col_int64(st, 8);
}

int store_rating_changes(struct store *store, int64_t game_id,
			 struct store_rating_change **changes_r,
			 size_t *count_r, const char **error_r)
{
	static const char sql[] =
		"SELECT game_id, player_id, r_before, rd_before, vol_before, "
		"r_after, rd_after, vol_after, at FROM rating_changes "
		"WHERE game_id = ?1 ORDER BY player_id";

	return store_rows(store, sql, changes_r, count_r,
			  rating_change_read, NULL,
			  "loading a game's rating changes", error_r,
			  STORE_INT(game_id));
}

int store_rated_games(struct store *store, int64_t **ids_r, size_t *count_r,
		      const char **error_r)
{
	/* The conditions of the partial index game_club_rated. */
	return store_ids(store, ids_r, count_r,
			 "listing the rated games", error_r,
			 "SELECT game_id FROM game_club WHERE rated = 1 "
			 "AND applied_at IS NOT NULL "
			 "ORDER BY applied_at, game_id");
}
