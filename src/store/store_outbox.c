/* store_outbox.c -- the durable queue of mail to send, with its retry
 * state; see store.h. */
#include "store/store_private.h"

#include <stdlib.h>

static void msg_clear(void *elem)
{
	struct store_outbox_msg *m = elem;

	free(m->recipient);
	free(m->message_id);
	free(m->headers);
	free(m->body);
	free(m->last_error);
}

void store_outbox_msgs_free(struct store_outbox_msg **msgs, size_t count)
{
	size_t i;

	if (*msgs == NULL)
		return;
	for (i = 0; i < count; i++)
		msg_clear(&(*msgs)[i]);
	free(*msgs);
	*msgs = NULL;
}

#define OUTBOX_COLUMNS \
	"id, recipient, message_id, headers, body, game_id, inbound_id, " \
	"created, attempts, next_attempt_at, sent_at, failed, last_error"

static void msg_read(sqlite3_stmt *st, void *elem)
{
	struct store_outbox_msg *m = elem;
	m->id = store_col_int64(st, 0);
	m->recipient = store_col_strdup(st, 1);
	m->message_id = store_col_strdup(st, 2);
	m->headers = store_col_strdup(st, 3);
	m->body = store_col_strdup(st, 4);
	m->game_id = store_col_int64(st, 5);
	m->inbound_id = store_col_int64(st, 6);
	m->created = store_col_int64(st, 7);
	m->attempts = sqlite3_column_int(st, 8);
	m->next_attempt_at = store_col_int64(st, 9);
	m->sent_at = store_col_int64(st, 10);
	m->failed = sqlite3_column_int(st, 11) != 0;
	m->last_error = store_col_strdup(st, 12);
}

static int msgs_collect(struct store *s, sqlite3_stmt *st,
			struct store_outbox_msg **msgs_r, size_t *count_r,
			const char *what, const char **error_r)
{
	return store_collect(s, st, sizeof(**msgs_r), msg_read, msg_clear,
			     msgs_r, count_r, what, error_r);
}

int store_outbox_enqueue(struct store *store,
			 const struct store_outbox_msg *msg, int64_t now,
			 int64_t *id_r, const char **error_r)
{
	static const char sql[] =
		"INSERT INTO outbox (recipient, message_id, headers, body, "
		"game_id, inbound_id, created, next_attempt_at) "
		"VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)";
	sqlite3_stmt *st;

	store_ok(store);
	if (msg->recipient == NULL || msg->headers == NULL ||
	    msg->body == NULL)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "an outbox message needs a recipient, "
				  "headers and a body");
	st = store_stmt(store, sql, error_r);
	if (st == NULL)
		return -1;
	sqlite3_bind_text(st, 1, msg->recipient, -1, SQLITE_TRANSIENT);
	store_bind_text(st, 2, msg->message_id);
	sqlite3_bind_text(st, 3, msg->headers, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 4, msg->body, -1, SQLITE_TRANSIENT);
	store_bind_id(st, 5, msg->game_id);
	store_bind_id(st, 6, msg->inbound_id);
	sqlite3_bind_int64(st, 7, now);
	sqlite3_bind_int64(st, 8, msg->next_attempt_at != 0 ?
			   msg->next_attempt_at : now);
	if (store_run(store, st, "queueing a message", error_r) < 0)
		return -1;
	if (id_r != NULL)
		*id_r = sqlite3_last_insert_rowid(store->db);
	return 0;
}

int store_outbox_due(struct store *store, int64_t now, size_t limit,
		     struct store_outbox_msg **msgs_r, size_t *count_r,
		     const char **error_r)
{
	/* The WHERE matches the partial index outbox_due. */
	static const char sql[] =
		"SELECT " OUTBOX_COLUMNS " FROM outbox WHERE sent_at IS NULL "
		"AND failed = 0 AND next_attempt_at <= ?1 "
		"ORDER BY next_attempt_at, id LIMIT ?2";
	sqlite3_stmt *st;

	store_ok(store);
	*msgs_r = NULL;
	*count_r = 0;
	st = store_stmt(store, sql, error_r);
	if (st == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, now);
	sqlite3_bind_int64(st, 2, limit == 0 ? -1 : (int64_t)limit);
	return msgs_collect(store, st, msgs_r, count_r,
			    "listing due messages", error_r);
}

int store_outbox_next_due(struct store *store, int64_t *at_r,
			  const char **error_r)
{
	static const char sql[] =
		"SELECT min(next_attempt_at) FROM outbox WHERE sent_at IS NULL "
		"AND failed = 0";
	sqlite3_stmt *st;
	int rc, ret;

	store_ok(store);
	st = store_stmt(store, sql, error_r);
	if (st == NULL)
		return -1;
	rc = store_step(store, st);
	if (rc != SQLITE_ROW) {
		store_stmt_done(st);
		return store_fail_sqlite(store, error_r, rc,
					 "finding the next due message");
	}
	ret = sqlite3_column_type(st, 0) == SQLITE_NULL ? 0 : 1;
	if (ret == 1 && at_r != NULL)
		*at_r = store_col_int64(st, 0);
	store_stmt_done(st);
	return ret;
}

/* Run an UPDATE of one pending outbox row (id in ?1); -1 with
 * STORE_ERROR_USAGE if no pending row had that id. */
static int outbox_update(struct store *s, const char *sql, int64_t id,
			 int64_t t, const char *text, const char *what,
			 const char **error_r)
{
	sqlite3_stmt *st;

	store_ok(s);
	st = store_stmt(s, sql, error_r);
	if (st == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int64(st, 2, t);
	store_bind_text(st, 3, text);
	if (store_run(s, st, what, error_r) < 0)
		return -1;
	if (sqlite3_changes(s->db) == 0)
		return store_fail(s, error_r, STORE_ERROR_USAGE,
				  "%s: no pending outbox message %lld", what,
				  (long long)id);
	return 0;
}

int store_outbox_mark_sent(struct store *store, int64_t id, int64_t now,
			   const char **error_r)
{
	static const char sql[] =
		"UPDATE outbox SET sent_at = ?2, attempts = attempts + 1 "
		"WHERE id = ?1 AND sent_at IS NULL AND failed = 0";

	return outbox_update(store, sql, id, now, NULL, "marking sent",
			     error_r);
}

int store_outbox_mark_retry(struct store *store, int64_t id,
			    int64_t next_attempt_at, const char *error,
			    const char **error_r)
{
	static const char sql[] =
		"UPDATE outbox SET next_attempt_at = ?2, last_error = ?3, "
		"attempts = attempts + 1 "
		"WHERE id = ?1 AND sent_at IS NULL AND failed = 0";

	return outbox_update(store, sql, id, next_attempt_at, error,
			     "marking for retry", error_r);
}

int store_outbox_mark_failed(struct store *store, int64_t id, int64_t now,
			     const char *error, const char **error_r)
{
	/* next_attempt_at keeps the time it failed, for `outbox list`. */
	static const char sql[] =
		"UPDATE outbox SET failed = 1, next_attempt_at = ?2, "
		"last_error = ?3, attempts = attempts + 1 "
		"WHERE id = ?1 AND sent_at IS NULL AND failed = 0";

	return outbox_update(store, sql, id, now, error, "marking failed",
			     error_r);
}

int store_outbox_list(struct store *store, enum store_outbox_filter filter,
		      int64_t after_id, size_t limit,
		      struct store_outbox_msg **msgs_r, size_t *count_r,
		      const char **error_r)
{
	static const char sql[] =
		"SELECT " OUTBOX_COLUMNS " FROM outbox WHERE id > ?1 AND "
		"(?2 = 0 OR (?2 = 1 AND sent_at IS NULL AND failed = 0) OR "
		"(?2 = 2 AND sent_at IS NOT NULL) OR (?2 = 3 AND failed = 1)) "
		"ORDER BY id LIMIT ?3";
	sqlite3_stmt *st;

	store_ok(store);
	*msgs_r = NULL;
	*count_r = 0;
	if ((unsigned)filter > STORE_OUTBOX_FAILED)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "bad outbox filter %d", (int)filter);
	st = store_stmt(store, sql, error_r);
	if (st == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, after_id);
	sqlite3_bind_int(st, 2, (int)filter);
	sqlite3_bind_int64(st, 3, limit == 0 ? -1 : (int64_t)limit);
	return msgs_collect(store, st, msgs_r, count_r, "listing the outbox",
			    error_r);
}

int store_outbox_by_message_id(struct store *store, const char *message_id,
			       struct store_outbox_msg **msg_r,
			       const char **error_r)
{
	static const char sql[] =
		"SELECT " OUTBOX_COLUMNS " FROM outbox WHERE message_id = ?1 "
		"ORDER BY id LIMIT 1";
	sqlite3_stmt *st;
	size_t n = 0;

	store_ok(store);
	*msg_r = NULL;
	if (message_id == NULL)
		return 0;
	st = store_stmt(store, sql, error_r);
	if (st == NULL)
		return -1;
	sqlite3_bind_text(st, 1, message_id, -1, SQLITE_TRANSIENT);
	if (msgs_collect(store, st, msg_r, &n, "finding a sent message",
			 error_r) < 0)
		return -1;
	return n > 0 ? 1 : 0;
}
