/* store_limits.c -- counters in fixed windows, an archive's weight, open
 * challenges and bot games per player; see store_limits.h. */
#include "store/store_private.h"

/* Step st, a statement yielding at most one row (count, window start),
 * into *total_r and *start_r (either may be NULL; 0 without a row); with
 * to_end, step on to its end after the row (an INSERT ... RETURNING).
 * 0, or -1 ("what" failed). */
static int rate_read(struct store *store, sqlite3_stmt *st, bool to_end,
		     int64_t *total_r, int64_t *start_r, const char *what,
		     const char **error_r)
{
	int64_t total = 0, start = 0;
	int rc = store_step(store, st);

	if (rc == SQLITE_ROW) {
		total = store_col_int64(st, 0);
		start = store_col_int64(st, 1);
		rc = to_end ? store_step(store, st) : SQLITE_DONE;
	}
	store_stmt_done(st);
	if (rc != SQLITE_DONE)
		return store_fail_sqlite(store, error_r, rc, what);
	if (total_r != NULL)
		*total_r = total;
	if (start_r != NULL)
		*start_r = start;
	return 0;
}

int store_rate_add(struct store *store, const char *key, int64_t now,
		   int64_t window_seconds, int64_t amount, int64_t *total_r,
		   int64_t *start_r, const char **error_r)
{
	/* One statement, as store_rate_hit(): the SET expressions all see
	 * the row as it was. */
	static const char sql[] =
		"INSERT INTO rate_limits (sender, window_start, count) "
		"VALUES (?1, ?2, ?4) ON CONFLICT (sender) DO UPDATE SET "
		"window_start = CASE WHEN ?2 - window_start >= ?3 THEN ?2 "
		"ELSE window_start END, "
		"count = CASE WHEN ?2 - window_start >= ?3 THEN ?4 "
		"ELSE count + ?4 END RETURNING count, window_start";
	sqlite3_stmt *st;

	store_ok(store);
	if (key == NULL || window_seconds <= 0 || amount < 0)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "a counter needs a key, a window and an "
				  "amount from 0");
	st = store_stmt_bind(store, sql, error_r, STORE_TEXT(key),
			     STORE_INT(now), STORE_INT(window_seconds),
			     STORE_INT(amount));
	if (st == NULL)
		return -1;
	return rate_read(store, st, true, total_r, start_r, "counting",
			 error_r);
}

int store_rate_peek(struct store *store, const char *key, int64_t now,
		    int64_t window_seconds, int64_t *total_r,
		    int64_t *start_r, const char **error_r)
{
	static const char sql[] =
		"SELECT count, window_start FROM rate_limits WHERE sender = ?1 "
		"AND ?2 - window_start < ?3";
	sqlite3_stmt *st;

	store_ok(store);
	st = store_stmt_bind(store, sql, error_r, STORE_TEXT(key),
			     STORE_INT(now), STORE_INT(window_seconds));
	if (st == NULL)
		return -1;
	return rate_read(store, st, false, total_r, start_r,
			 "reading a counter", error_r);
}

/* The count sql (taking id as ?1) gives, into *count_r: 0, or -1. */
static int limits_count(struct store *store, const char *sql, int64_t id,
			size_t *count_r, const char *what,
			const char **error_r)
{
	int64_t n = 0;

	*count_r = 0;
	if (store_query_id_int64(store, sql, id, &n, what, error_r) < 0)
		return -1;
	*count_r = (size_t)n;
	return 0;
}

int store_game_mail_bytes(struct store *store, int64_t game_id,
			  int64_t *bytes_r, const char **error_r)
{
	/* The mails store_game_mails() lists, each once. */
	static const char sql[] =
		"SELECT coalesce(sum(length(raw)), 0) FROM inbound WHERE id IN "
		"(SELECT inbound_id FROM moves WHERE game_id = ?1 "
		"UNION SELECT inbound_id FROM game_messages WHERE game_id = ?1 "
		"UNION SELECT inbound_id FROM clock_events WHERE game_id = ?1 "
		"UNION SELECT inbound_id FROM ladder_events WHERE game_id = ?1 "
		"UNION SELECT inbound_id FROM outbox WHERE game_id = ?1)";

	store_ok(store);
	*bytes_r = 0;
	return store_query_id_int64(store, sql, game_id, bytes_r,
				    "weighing a game's mails", error_r) < 0 ?
		-1 : 0;
}

int store_game_challenge_between(struct store *store, int64_t a, int64_t b,
				 int64_t *game_id_r, const char **error_r)
{
	static const char sql[] =
		"SELECT coalesce(min(id), 0) FROM games WHERE status = "
		"'challenge' AND ((challenger_id = ?1 AND black_id = ?2) OR "
		"(challenger_id = ?2 AND black_id = ?1))";
	sqlite3_stmt *st;
	int64_t id = 0;

	store_ok(store);
	*game_id_r = 0;
	st = store_stmt_bind(store, sql, error_r, STORE_INT(a), STORE_INT(b));
	if (store_query_int64(store, st, &id, "finding an open challenge",
			      error_r) < 0)
		return -1;
	*game_id_r = id;
	return id != 0 ? 1 : 0;
}

int store_game_challenges_out(struct store *store, int64_t player_id,
			      size_t *count_r, const char **error_r)
{
	static const char sql[] =
		"SELECT count(*) FROM games WHERE challenger_id = ?1 AND "
		"status IN ('challenge', 'open')";

	store_ok(store);
	return limits_count(store, sql, player_id, count_r,
			    "counting open challenges", error_r);
}

int store_bot_games_of(struct store *store, int64_t player_id,
		       size_t *count_r, const char **error_r)
{
	static const char sql[] =
		"SELECT count(*) FROM bot_games b JOIN games g "
		"ON g.id = b.game_id WHERE g.status IN ('challenge', 'open', "
		"'active') AND (g.white_id = ?1 OR g.black_id = ?1)";

	store_ok(store);
	return limits_count(store, sql, player_id, count_r,
			    "counting a player's bot games", error_r);
}
