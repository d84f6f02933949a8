/* store_mailbox.c -- inbound bookkeeping for mail-in: where each IMAP
 * mailbox stands (UIDVALIDITY, last UID) and per-sender rate counters;
 * see store.h. */
#include "store/store_private.h"

/* UIDVALIDITY and the last UID into uint32_t[2]. */
static void state_read(sqlite3_stmt *st, void *row)
{
	uint32_t *state = row;

	state[0] = (uint32_t)store_col_int64(st, 0);
	state[1] = (uint32_t)store_col_int64(st, 1);
}

int store_mailbox_state_get(struct store *store, const char *source,
			    uint32_t *uidvalidity_r, uint32_t *last_uid_r,
			    const char **error_r)
{
	static const char sql[] =
		"SELECT uidvalidity, last_uid FROM mailbox_state "
		"WHERE source = ?1";
	sqlite3_stmt *st;
	uint32_t state[2];
	int rc;

	store_ok(store);
	st = store_stmt_bind(store, sql, error_r, STORE_TEXT(source));
	rc = store_query_row(store, st, state_read, state,
			     "reading the mailbox state", error_r);
	if (rc == 1 && uidvalidity_r != NULL)
		*uidvalidity_r = state[0];
	if (rc == 1 && last_uid_r != NULL)
		*last_uid_r = state[1];
	return rc;
}

int store_mailbox_state_set(struct store *store, const char *source,
			    uint32_t uidvalidity, uint32_t last_uid,
			    int64_t now, const char **error_r)
{
	static const char sql[] =
		"INSERT INTO mailbox_state (source, uidvalidity, last_uid, "
		"updated) VALUES (?1, ?2, ?3, ?4) ON CONFLICT (source) DO "
		"UPDATE SET uidvalidity = excluded.uidvalidity, "
		"last_uid = excluded.last_uid, updated = excluded.updated";
	sqlite3_stmt *st;

	store_ok(store);
	if (source == NULL)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "a mailbox source needs a name");
	st = store_stmt_bind(store, sql, error_r, STORE_TEXT(source),
			     STORE_INT(uidvalidity), STORE_INT(last_uid),
			     STORE_INT(now));
	return store_run(store, st, "saving the mailbox state", error_r);
}

/* ---- rate limits ---------------------------------------------------- */

int store_rate_hit(struct store *store, const char *sender, int64_t now,
		   int64_t window_seconds, long *count_r,
		   const char **error_r)
{
	/* One statement: start a new window or count into the current one.
	 * The SET expressions all see the row as it was. */
	static const char sql[] =
		"INSERT INTO rate_limits (sender, window_start, count) "
		"VALUES (?1, ?2, 1) ON CONFLICT (sender) DO UPDATE SET "
		"window_start = CASE WHEN ?2 - window_start >= ?3 THEN ?2 "
		"ELSE window_start END, "
		"count = CASE WHEN ?2 - window_start >= ?3 THEN 1 "
		"ELSE count + 1 END RETURNING count";
	sqlite3_stmt *st;
	long count = 0;
	int rc;

	store_ok(store);
	if (sender == NULL || window_seconds <= 0)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "a rate limit needs a sender and a window");
	st = store_stmt_bind(store, sql, error_r, STORE_TEXT(sender),
			     STORE_INT(now), STORE_INT(window_seconds));
	if (st == NULL)
		return -1;
	rc = store_step(store, st);
	if (rc == SQLITE_ROW) {
		count = (long)store_col_int64(st, 0);
		rc = store_step(store, st);
	}
	store_stmt_done(st);
	if (rc != SQLITE_DONE)
		return store_fail_sqlite(store, error_r, rc,
					 "counting a message");
	if (count_r != NULL)
		*count_r = count;
	return 0;
}

int store_rate_get(struct store *store, const char *sender, int64_t now,
		   int64_t window_seconds, long *count_r,
		   const char **error_r)
{
	static const char sql[] =
		"SELECT CASE WHEN ?2 - window_start >= ?3 THEN 0 ELSE count "
		"END FROM rate_limits WHERE sender = ?1";
	sqlite3_stmt *st;
	int64_t count = 0;

	store_ok(store);
	st = store_stmt_bind(store, sql, error_r, STORE_TEXT(sender),
			     STORE_INT(now), STORE_INT(window_seconds));
	if (store_query_int64(store, st, &count, "reading a rate counter",
			      error_r) < 0)
		return -1;
	if (count_r != NULL)
		*count_r = (long)count;
	return 0;
}

int store_rate_prune(struct store *store, int64_t before,
		     const char **error_r)
{
	static const char sql[] =
		"DELETE FROM rate_limits WHERE window_start < ?1";

	return store_run_sql(store, store_run, sql, "pruning rate counters",
			     error_r, STORE_INT(before));
}

/* ---- attempts at one message (the poison-mail guard) ---------------- */

/* The prepared statement for sql with the message's key bound as ?1..?3. */
static sqlite3_stmt *attempt_stmt(struct store *store, const char *sql,
				  const char *source, uint32_t uidvalidity,
				  uint32_t uid, const char **error_r)
{
	return store_stmt_bind(store, sql, error_r,
			       STORE_TEXT(source ? source : ""),
			       STORE_INT(uidvalidity), STORE_INT(uid));
}

int store_attempt_hit(struct store *store, const char *source,
		      uint32_t uidvalidity, uint32_t uid, const char *error,
		      int64_t now, long *attempts_r, const char **error_r)
{
	static const char sql[] =
		"INSERT INTO mail_attempts (source, uidvalidity, uid, attempts, "
		"last_error, updated) VALUES (?1, ?2, ?3, 1, ?4, ?5) "
		"ON CONFLICT (source, uidvalidity, uid) DO UPDATE SET "
		"attempts = attempts + 1, last_error = coalesce(?4, last_error), "
		"updated = ?5 RETURNING attempts";
	sqlite3_stmt *st;
	int64_t n = 0;
	int r;

	store_ok(store);
	st = attempt_stmt(store, sql, source, uidvalidity, uid, error_r);
	if (st == NULL)
		return -1;
	store_bind_text(st, 4, error);
	sqlite3_bind_int64(st, 5, now);
	r = store_query_int64(store, st, &n, "counting an attempt", error_r);
	if (r < 0)
		return -1;
	if (attempts_r != NULL)
		*attempts_r = (long)n;
	return 0;
}

int store_attempt_get(struct store *store, const char *source,
		      uint32_t uidvalidity, uint32_t uid, long *attempts_r,
		      char **last_error_r, const char **error_r)
{
	static const char sql[] =
		"SELECT attempts, last_error FROM mail_attempts WHERE "
		"source = ?1 AND uidvalidity = ?2 AND uid = ?3";
	sqlite3_stmt *st;
	int rc;

	store_ok(store);
	*attempts_r = 0;
	if (last_error_r != NULL)
		*last_error_r = NULL;
	st = attempt_stmt(store, sql, source, uidvalidity, uid, error_r);
	rc = store_step_one(store, st, "loading attempts", error_r);
	if (rc != 1)
		return rc;
	*attempts_r = (long)store_col_int64(st, 0);
	if (last_error_r != NULL)
		*last_error_r = store_col_strdup(st, 1);
	store_stmt_done(st);
	return 1;
}

int store_attempt_clear(struct store *store, const char *source,
			uint32_t uidvalidity, uint32_t uid,
			const char **error_r)
{
	static const char sql[] =
		"DELETE FROM mail_attempts WHERE source = ?1 AND "
		"uidvalidity = ?2 AND uid = ?3";
	sqlite3_stmt *st;

	store_ok(store);
	st = attempt_stmt(store, sql, source, uidvalidity, uid, error_r);
	if (st == NULL)
		return -1;
	return store_run(store, st, "clearing attempts", error_r);
}
