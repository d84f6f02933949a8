/* store_health.c -- the daemon's health row and the counts `ashes status`
 * reports (sql/NNN-daemon-health.sql); see store_health.h. */
#include "store/store_health.h"

#include <string.h>

#include "store/store_private.h"

int store_health_set(struct store *store, const struct store_health *h,
		     const char **error_r)
{
	static const char sql[] =
		"INSERT INTO daemon_health (id, pid, started, heartbeat, "
		"mailbox_contact, mailbox_waiting) VALUES (1, ?1, ?2, ?3, ?4, "
		"?5) ON CONFLICT (id) DO UPDATE SET pid = excluded.pid, "
		"started = excluded.started, heartbeat = excluded.heartbeat, "
		"mailbox_contact = excluded.mailbox_contact, "
		"mailbox_waiting = excluded.mailbox_waiting";
	struct store_value waiting = STORE_NULL;

	store_ok(store);
	if (h->pid < 0)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "a daemon's pid of %lld", (long long)h->pid);
	if (h->mailbox_waiting >= 0)
		waiting = (struct store_value)STORE_INT(h->mailbox_waiting);
	return store_run(store, store_stmt_bind(store, sql, error_r,
						STORE_INT(h->pid),
						STORE_INT(h->started),
						STORE_INT(h->heartbeat),
						STORE_ID(h->mailbox_contact),
						waiting),
			 "writing the daemon's health", error_r);
}

static void health_read(sqlite3_stmt *st, void *row)
{
	struct store_health *h = row;

	h->pid = store_col_int64(st, 0);
	h->started = store_col_int64(st, 1);
	h->heartbeat = store_col_int64(st, 2);
	h->mailbox_contact = store_col_int64(st, 3);
	h->mailbox_waiting = sqlite3_column_type(st, 4) == SQLITE_NULL ? -1 :
			     store_col_int64(st, 4);
}

int store_health_get(struct store *store, struct store_health *h_r,
		     const char **error_r)
{
	static const char sql[] =
		"SELECT pid, started, heartbeat, mailbox_contact, "
		"mailbox_waiting FROM daemon_health WHERE id = 1";

	store_ok(store);
	memset(h_r, 0, sizeof(*h_r));
	h_r->mailbox_waiting = -1;
	return store_query_row(store, store_stmt(store, sql, error_r),
			       health_read, h_r, "reading the daemon's health",
			       error_r);
}

static void unsent_read(sqlite3_stmt *st, void *row)
{
	struct store_health_counts *c = row;

	c->unsent = store_col_int64(st, 0);
	c->oldest_unsent = store_col_int64(st, 1);
}

int store_health_counts(struct store *store, int64_t since,
			struct store_health_counts *c_r, const char **error_r)
{
	/* Each through its partial index (sql/003, NNN-daemon-health.sql):
	 * the rows' bytes are never read. */
	static const char unsent_sql[] =
		"SELECT count(*), coalesce(min(created), 0) FROM outbox "
		"WHERE sent_at IS NULL AND failed = 0";
	static const char failed_sql[] =
		"SELECT count(*) FROM outbox WHERE failed = 1 AND "
		"next_attempt_at >= ?1";
	static const char quarantined_sql[] =
		"SELECT count(*) FROM inbound WHERE outcome GLOB "
		"'ignored: " STORE_HEALTH_QUARANTINED " *' AND received >= ?1";

	store_ok(store);
	memset(c_r, 0, sizeof(*c_r));
	if (store_query_row(store, store_stmt(store, unsent_sql, error_r),
			    unsent_read, c_r, "counting the unsent replies",
			    error_r) < 0 ||
	    store_query_int64(store, store_stmt_bind(store, failed_sql, error_r,
						     STORE_INT(since)),
			      &c_r->failed, "counting the failed replies",
			      error_r) < 0 ||
	    store_query_int64(store, store_stmt_bind(store, quarantined_sql,
						     error_r, STORE_INT(since)),
			      &c_r->quarantined,
			      "counting the quarantined mails", error_r) < 0)
		return -1;
	return 0;
}
