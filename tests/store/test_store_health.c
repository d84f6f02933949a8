/* test_store_health.c -- the daemon's health (sql/NNN-daemon-health.sql):
 * its row written and read back, replaced by the next turn's; and the
 * counts `ashes status` reports -- unsent replies and the oldest one,
 * replies failed for good and mails set aside since a time -- each
 * through its index, never reading the rows' bytes. */
#include "store_fixture.h"

#include "store/store_health.h"
#include "store/store_outbox.h"
#include "store/store_private.h"

START_TEST(test_health_row)
{
	struct store_health h, got;

	/* No daemon wrote it yet. */
	ck_assert_int_eq(store_health_get(st, &got, &err), 0);
	ck_assert_int_eq(got.pid, 0);
	ck_assert_int_eq(got.mailbox_waiting, -1);

	h = (struct store_health){ .pid = 4242, .started = 1000,
				   .heartbeat = 1005, .mailbox_contact = 0,
				   .mailbox_waiting = -1 };
	ck_assert_int_eq(store_health_set(st, &h, &err), 0);
	ck_assert_int_eq(store_health_get(st, &got, &err), 1);
	ck_assert_int_eq(got.pid, 4242);
	ck_assert_int_eq(got.started, 1000);
	ck_assert_int_eq(got.heartbeat, 1005);
	ck_assert_int_eq(got.mailbox_contact, 0);
	ck_assert_int_eq(got.mailbox_waiting, -1);

	/* The next turn replaces it: still one row. */
	h.heartbeat = 1065;
	h.mailbox_contact = 1064;
	h.mailbox_waiting = 7;
	ck_assert_int_eq(store_health_set(st, &h, &err), 0);
	ck_assert_int_eq(store_health_get(st, &got, &err), 1);
	ck_assert_int_eq(got.heartbeat, 1065);
	ck_assert_int_eq(got.mailbox_contact, 1064);
	ck_assert_int_eq(got.mailbox_waiting, 7);
	ck_assert_int_eq(count("daemon_health"), 1);

	/* A clean stop: pid 0. */
	h.pid = 0;
	ck_assert_int_eq(store_health_set(st, &h, &err), 0);
	ck_assert_int_eq(store_health_get(st, &got, &err), 1);
	ck_assert_int_eq(got.pid, 0);

	h.pid = -1;
	ck_usage(store_health_set(st, &h, &err));
	/* The schema holds one row, and no negative count. */
	ck_schema_refuses("INSERT INTO daemon_health (id, pid, started, "
			  "heartbeat) VALUES (2, 1, 1, 1)");
	ck_schema_refuses("UPDATE daemon_health SET mailbox_waiting = -3");
}
END_TEST

static int64_t enqueue(const char *msgid, int64_t now)
{
	struct store_outbox_msg m = { 0 };
	int64_t id = 0;

	m.recipient = "a@example.org";
	m.kind = STORE_OUTBOX_KIND_REPLY;
	m.message_id = (char *)msgid;
	m.subject = "[ashes #1] x";
	m.body = "body\r\n";
	ck_assert_int_eq(store_outbox_enqueue(st, &m, now, &id, &err), 0);
	return id;
}

/* A mail recorded with outcome, received at `at`. */
static void add_outcome(unsigned n, int64_t at, const char *outcome)
{
	int64_t id = add_inbound_raw(n, "From: x@example.org\r\n\r\nx\r\n",
				     at);

	ck_assert_int_eq(store_inbound_set_outcome(st, id, outcome, &err), 0);
}

START_TEST(test_health_counts)
{
	struct store_health_counts c;
	int64_t a, b, d;

	ck_assert_int_eq(store_health_counts(st, 0, &c, &err), 0);
	ck_assert_int_eq(c.unsent, 0);
	ck_assert_int_eq(c.oldest_unsent, 0);
	ck_assert_int_eq(c.failed, 0);
	ck_assert_int_eq(c.quarantined, 0);

	a = enqueue("r1@ashes", 100);
	b = enqueue("r2@ashes", 200);
	d = enqueue("r3@ashes", 300);
	enqueue("r4@ashes", 400);
	ck_assert_int_eq(store_health_counts(st, 0, &c, &err), 0);
	ck_assert_int_eq(c.unsent, 4);
	ck_assert_int_eq(c.oldest_unsent, 100);
	/* Sent and failed ones are not unsent; the oldest moves on. */
	ck_assert_int_eq(store_outbox_mark_sent(st, a, 150, &err), 0);
	ck_assert_int_eq(store_outbox_mark_failed(st, b, 250, "550 no", &err),
			 0);
	ck_assert_int_eq(store_outbox_mark_failed(st, d, 1000, "550 no",
						  &err), 0);
	ck_assert_int_eq(store_health_counts(st, 0, &c, &err), 0);
	ck_assert_int_eq(c.unsent, 1);
	ck_assert_int_eq(c.oldest_unsent, 400);
	ck_assert_int_eq(c.failed, 2);
	/* Counted by when they failed. */
	ck_assert_int_eq(store_health_counts(st, 251, &c, &err), 0);
	ck_assert_int_eq(c.failed, 1);
	ck_assert_int_eq(store_health_counts(st, 1001, &c, &err), 0);
	ck_assert_int_eq(c.failed, 0);

	/* Quarantined: the daemon's outcome, by the receipt time; other
	 * outcomes (even one naming the word) do not count. */
	add_outcome(1, 500, "ignored: " STORE_HEALTH_QUARANTINED
		    " 3 attempts: the daemon died while handling it");
	add_outcome(2, 900, "ignored: " STORE_HEALTH_QUARANTINED
		    " 3 attempts: gpg failed");
	add_outcome(3, 900, "refused: quarantined after what?");
	add_outcome(4, 900, "move 1 2 c3-a1: accepted");
	ck_assert_int_eq(store_health_counts(st, 0, &c, &err), 0);
	ck_assert_int_eq(c.quarantined, 2);
	ck_assert_int_eq(store_health_counts(st, 600, &c, &err), 0);
	ck_assert_int_eq(c.quarantined, 1);
}
END_TEST

/* The counts use the partial indexes: the planner says so. */
START_TEST(test_health_counts_indexed)
{
	static const char *const queries[][2] = {
		{ "EXPLAIN QUERY PLAN SELECT count(*) FROM outbox WHERE "
		  "failed = 1 AND next_attempt_at >= 5", "outbox_failed" },
		{ "EXPLAIN QUERY PLAN SELECT count(*) FROM inbound WHERE "
		  "outcome GLOB 'ignored: " STORE_HEALTH_QUARANTINED " *' AND "
		  "received >= 5", "inbound_quarantined" },
		{ "EXPLAIN QUERY PLAN SELECT count(*), min(created) FROM "
		  "outbox WHERE sent_at IS NULL AND failed = 0", "outbox_due" },
	};
	sqlite3 *db;

	ck_assert_int_eq(sqlite3_open_v2(test_db, &db, SQLITE_OPEN_READONLY,
					 NULL), SQLITE_OK);
	for (size_t i = 0; i < sizeof(queries) / sizeof(queries[0]); i++) {
		sqlite3_stmt *q;
		bool found = false;

		ck_assert_int_eq(sqlite3_prepare_v2(db, queries[i][0], -1, &q,
						    NULL), SQLITE_OK);
		while (sqlite3_step(q) == SQLITE_ROW) {
			const char *d = (const char *)sqlite3_column_text(q, 3);

			if (d != NULL && strstr(d, queries[i][1]) != NULL)
				found = true;
		}
		sqlite3_finalize(q);
		ck_assert_msg(found, "not through %s: %s", queries[i][1],
			      queries[i][0]);
	}
	sqlite3_close(db);
}
END_TEST

TEST_MAIN("store_health", "health", setup, teardown, 0, test_health_row,
	  test_health_counts, test_health_counts_indexed)
