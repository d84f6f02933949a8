/* store_analysis.c -- the analyses asked of finished games (sql/016);
 * see store_analysis.h. */
#include "store/store_private.h"

#include <string.h>

#include "store/store_analysis.h"

#define ANALYSIS_COLUMNS \
	"id, game_id, player_id, inbound_id, requested, answered"

static void analysis_read(sqlite3_stmt *st, void *row)
{
	struct store_analysis *a = row;

	a->id = store_col_int64(st, 0);
	a->game_id = store_col_int64(st, 1);
	a->player_id = store_col_int64(st, 2);
	a->inbound_id = store_col_int64(st, 3);
	a->requested = store_col_int64(st, 4);
	a->answered = store_col_int64(st, 5);
}

int store_analysis_today(struct store *store, int64_t game_id, int64_t now,
			 struct store_analysis *a_r, const char **error_r)
{
	static const char sql[] =
		"SELECT " ANALYSIS_COLUMNS " FROM analysis_requests "
		"WHERE game_id = ?1 AND day = ?2";

	store_ok(store);
	memset(a_r, 0, sizeof(*a_r));
	return store_query_row(store,
			       store_stmt_bind(store, sql, error_r,
					       STORE_INT(game_id),
					       STORE_INT(STORE_ANALYSIS_DAY(now))),
			       analysis_read, a_r,
			       "reading the analyses asked", error_r);
}

int store_analysis_waiting(struct store *store, size_t *count_r,
			   const char **error_r)
{
	static const char sql[] =
		"SELECT count(*) FROM analysis_requests WHERE answered IS NULL";
	int64_t n = 0;

	store_ok(store);
	*count_r = 0;
	if (store_query_int64(store, store_stmt(store, sql, error_r), &n,
			      "counting the analyses waiting", error_r) < 0)
		return -1;
	*count_r = (size_t)n;
	return 0;
}

int store_analysis_add(struct store *store, int64_t game_id,
		       int64_t player_id, int64_t inbound_id, int64_t now,
		       const char **error_r)
{
	static const char sql[] =
		"INSERT INTO analysis_requests (game_id, player_id, "
		"inbound_id, day, requested) VALUES (?1, ?2, ?3, ?4, ?5) "
		"ON CONFLICT (game_id, day) DO NOTHING";
	int r;

	store_ok(store);
	if (now < 0)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "an analysis is asked at a time from 0");
	r = store_run_sql(store, store_run_changed, sql, "asking an analysis",
			  error_r, STORE_INT(game_id), STORE_INT(player_id),
			  STORE_ID(inbound_id),
			  STORE_INT(STORE_ANALYSIS_DAY(now)), STORE_INT(now));
	if (r < 0)
		return -1;
	return r == 1 ? 0 : 1;
}

int store_analysis_next(struct store *store, struct store_analysis *a_r,
			const char **error_r)
{
	static const char sql[] =
		"SELECT " ANALYSIS_COLUMNS " FROM analysis_requests "
		"WHERE answered IS NULL ORDER BY id LIMIT 1";

	store_ok(store);
	memset(a_r, 0, sizeof(*a_r));
	return store_query_row(store, store_stmt(store, sql, error_r),
			       analysis_read, a_r,
			       "reading an analysis asked", error_r);
}

int store_analysis_done(struct store *store, int64_t id, int64_t at,
			const char **error_r)
{
	static const char sql[] =
		"UPDATE analysis_requests SET answered = ?2 WHERE id = ?1 "
		"AND answered IS NULL";

	return store_run_sql(store, store_run_changed, sql,
			     "answering an analysis", error_r, STORE_INT(id),
			     STORE_INT(at));
}
