/* test_store_faults.c -- a database locked by another process (the busy
 * timeout waits it out, BEGIN IMMEDIATE is retried, a too short timeout
 * fails cleanly), and faults injected on every SQLite call of a whole
 * "one inbound message" transaction, of a migration and of the store's own
 * multi-statement calls: whatever fails, nothing is left behind and the
 * store stays usable. */
#include "store_test.h"

#include <signal.h>
#include <sys/wait.h>
#include <time.h>

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Fork a process that takes the write lock with BEGIN EXCLUSIVE, writes a
 * player of its own, holds the lock for hold_ms, and commits.  Returns
 * once the lock is held. */
static pid_t lock_in_child(int hold_ms)
{
	int fds[2];
	pid_t pid;
	char c;

	ck_assert_int_eq(pipe(fds), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		sqlite3 *db;
		struct timespec ts = { hold_ms / 1000,
				       (hold_ms % 1000) * 1000000L };
		char sql[128];

		close(fds[0]);
		snprintf(sql, sizeof(sql), "BEGIN EXCLUSIVE; INSERT INTO "
			 "players (name, created) VALUES ('Child-%d', 1)",
			 (int)getpid());
		if (sqlite3_open(test_db, &db) != SQLITE_OK ||
		    sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
			_exit(2);
		if (write(fds[1], "L", 1) != 1)
			_exit(3);
		nanosleep(&ts, NULL);
		if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
			_exit(4);
		sqlite3_close(db);
		_exit(0);
	}
	close(fds[1]);
	ck_assert_int_eq(read(fds[0], &c, 1), 1);
	close(fds[0]);
	return pid;
}

static void wait_child(pid_t pid)
{
	int status;

	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 0);
}

static struct store *open_with(int timeout_ms, int retries)
{
	struct store_options o = test_options();

	o.busy_timeout_ms = timeout_ms;
	o.begin_retries = retries;
	return test_open_at(test_db, &o);
}

START_TEST(test_locked_by_process_waits)
{
	struct store *s = open_with(5000, -1);
	struct store_player *p = NULL;
	double t0, waited;
	pid_t pid;

	pid = lock_in_child(1000);
	t0 = now_seconds();
	/* the store's own atomic call: BEGIN IMMEDIATE waits for the lock */
	ck_assert_int_eq(store_player_add(s, "Parent", "p@example.org", NULL,
					  2, NULL, &err), 0);
	waited = now_seconds() - t0;
	wait_child(pid);
	ck_assert_msg(waited > 0.5, "waited only %.3f s", waited);
	/* both writes are there: nothing lost */
	ck_assert_int_eq(test_query_int(test_db, "SELECT count(*) FROM "
					"players WHERE name LIKE 'Child-%'"),
			 1);
	ck_assert_int_eq(store_player_by_name(s, "parent", &p, &err), 1);
	store_player_free(&p);

	/* an explicit transaction, and a single autocommit statement */
	pid = lock_in_child(600);
	ck_assert_int_eq(store_begin(s, &err), 0);
	ck_assert_int_eq(store_rate_hit(s, "x@example.org", 5, 60, NULL,
					&err), 0);
	ck_assert_int_eq(store_commit(s, &err), 0);
	wait_child(pid);
	pid = lock_in_child(600);
	ck_assert_int_eq(store_mailbox_state_set(s, "imap:INBOX", 1, 2, 3,
						 &err), 0);
	wait_child(pid);
	store_close(&s);
}
END_TEST

START_TEST(test_locked_begin_retried)
{
	/* 200 ms per try, 9 retries: 2 s in all, enough for a 1 s lock, but
	 * only because BEGIN is retried after the first timeouts */
	struct store *s = open_with(200, 9);
	pid_t pid;

	pid = lock_in_child(1000);
	ck_assert_int_eq(store_begin(s, &err), 0);
	ck_assert_int_eq(store_player_add(s, "Parent", NULL, NULL, 2, NULL,
					  &err), 0);
	ck_assert_int_eq(store_commit(s, &err), 0);
	wait_child(pid);
	ck_assert_int_eq(test_query_int(test_db,
					"SELECT count(*) FROM players"), 2);
	store_close(&s);
}
END_TEST

START_TEST(test_locked_too_long_fails_cleanly)
{
	struct store *s = open_with(50, -1);
	struct store_outbox_msg m = { 0 };
	char *before, *after;
	pid_t pid;

	before = test_dump(test_db);
	pid = lock_in_child(1000);
	ck_assert_int_eq(store_begin(s, &err), -1);
	ck_assert_int_eq(store_error_kind(s), STORE_ERROR_BUSY);
	ck_assert_msg(strstr(err, "locked") != NULL, "%s", err);
	ck_assert(!store_in_transaction(s));
	/* a multi-statement call fails whole */
	ck_assert_int_eq(store_player_add(s, "Parent", "p@example.org",
					  "0123456789ABCDEF0123456789ABCDEF01234567",
					  2, NULL, &err), -1);
	ck_assert_int_eq(store_error_kind(s), STORE_ERROR_BUSY);
	m.recipient = "a@example.org";
	m.kind = STORE_OUTBOX_KIND_REPLY;
	m.message_id = "x@ashes";
	m.subject = "x";
	m.body = "y\n";
	ck_assert_int_eq(store_outbox_enqueue(s, &m, 1, NULL, &err), -1);
	ck_assert_int_eq(store_error_kind(s), STORE_ERROR_BUSY);
	wait_child(pid);
	/* only the child's player came in */
	after = test_dump(test_db);
	ck_assert_str_ne(before, after);
	ck_assert_int_eq(test_query_int(test_db,
					"SELECT count(*) FROM players"), 1);
	ck_assert_int_eq(test_query_int(test_db,
					"SELECT count(*) FROM outbox"), 0);
	ck_assert_int_eq(test_query_int(test_db,
		"SELECT count(*) FROM player_addresses"), 0);
	/* and the store works again once the lock is gone */
	ck_assert_int_eq(store_player_add(s, "Parent", "p@example.org", NULL,
					  2, NULL, &err), 0);
	free(before);
	free(after);
	store_close(&s);
}
END_TEST

/* Several processes starting on a new database at once (the daemon and
 * `ashes db migrate`, say): each waits for the others, the schema is
 * created once, and all of them end up using it. */
START_TEST(test_processes_migrate_at_once)
{
	enum { N = 4 };
	pid_t pids[N];
	int i, known = 0;

	for (i = 0; i < N; i++) {
		pids[i] = fork();
		ck_assert_int_ge(pids[i], 0);
		if (pids[i] == 0) {
			struct store_options o = test_options();
			struct store *s = NULL;
			char name[32];

			if (store_open(test_db, &o, &s, &err) < 0) {
				fprintf(stderr, "child %d: %s\n", i, err);
				_exit(2);
			}
			snprintf(name, sizeof(name), "Player%d", i);
			if (store_player_add(s, name, NULL, NULL, 1, NULL,
					     &err) != 0)
				_exit(3);
			store_close(&s);
			_exit(0);
		}
	}
	for (i = 0; i < N; i++)
		wait_child(pids[i]);
	{
		struct store *s = test_open();

		ck_assert_int_eq(store_schema_version(s, NULL, &known, &err),
				 0);
		store_close(&s);
	}
	ck_assert_int_eq(test_query_int(test_db, "PRAGMA user_version"),
			 known);
	ck_assert_int_eq(test_query_int(test_db,
					"SELECT count(*) FROM players"), N);
}
END_TEST

/* ---- injected faults ------------------------------------------------ */

struct world {
	int64_t alice, bob, game;
};

static void make_world(struct store *s, struct world *w)
{
	struct store_game g = { 0 };
	char fpr[41];

	test_fpr(fpr, 1);
	ck_assert_int_eq(store_player_add(s, "Alice", "a@example.org", fpr, 1,
					  &w->alice, &err), 0);
	test_fpr(fpr, 2);
	ck_assert_int_eq(store_player_add(s, "Bob", "b@example.org", fpr, 1,
					  &w->bob, &err), 0);
	g.variant = "size=5";
	g.white_id = w->alice;
	g.black_id = w->bob;
	g.challenger_id = w->alice;
	g.status = STORE_GAME_ACTIVE;
	ck_assert_int_eq(store_game_create(s, &g, 2, &w->game, &err), 0);
	ck_assert_int_eq(store_move_append(s, w->game, 1, "c3", w->alice, 3,
					   0, &err), 0);
}

/* What the server does with one inbound move mail, in one transaction.
 * -1 as soon as any call fails. */
static int handle_one_message(struct store *s, const struct world *w)
{
	struct store_inbound in = { 0 };
	struct store_outbox_msg m = { 0 };
	struct store_player *p = NULL;
	struct store_game *g = NULL;
	char sha[65], sig[65], fpr[41];
	char **moves = NULL;
	int64_t inbound = 0, *obs = NULL;
	size_t nobs = 0;
	int ret = -1;

	test_sha(sha, 100);
	test_sha(sig, 101);
	test_fpr(fpr, 2);
	if (store_begin(s, &err) < 0)
		return -1;
	if (store_inbound_seen(s, sha, NULL, &err) != 0)
		goto out;
	if (store_player_by_fingerprint(s, fpr, &p, &err) != 1)
		goto out;
	if (store_rate_hit(s, "b@example.org", 10, 60, NULL, &err) < 0)
		goto out;
	in.message_id = "mail-1@example.org";
	in.sha256 = sha;
	in.raw = "From: b@example.org\n\nmove 1 2 d4\n";
	in.raw_len = strlen(in.raw);
	in.received = 10;
	in.sender_fingerprint = fpr;
	in.player_id = p->id;
	if (store_inbound_record(s, &in, &inbound, &err) != 0)
		goto out;
	if (store_signature_record(s, fpr, 9, sig, inbound, 10, &err) != 0)
		goto out;
	if (store_game_load(s, w->game, &g, &err) != 1)
		goto out;
	if (store_game_moves(s, w->game, &moves, NULL, &err) < 0)
		goto out;
	if (store_move_append(s, w->game, g->ply + 1, "d4", p->id, 10,
			      inbound, &err) != 0)
		goto out;
	g->draw_offer_by = 0;
	if (store_game_update(s, g, 10, &err) < 0)
		goto out;
	if (store_observer_add(s, w->game, w->alice, 10, &err) != 0)
		goto out;
	if (store_observer_list(s, w->game, &obs, &nobs, &err) < 0)
		goto out;
	m.recipient = "a@example.org";
	m.message_id = "reply-1@ashes";
	m.kind = STORE_OUTBOX_KIND_YOUR_MOVE;
	m.subject = "[ashes #1] your move";
	m.body = "board\n";
	m.game_id = w->game;
	m.inbound_id = inbound;
	if (store_outbox_enqueue(s, &m, 10, NULL, &err) < 0)
		goto out;
	m.recipient = "b@example.org";
	m.message_id = "reply-2@ashes";
	if (store_outbox_enqueue(s, &m, 10, NULL, &err) < 0)
		goto out;
	if (store_inbound_set_outcome(s, inbound, "ok", &err) < 0)
		goto out;
	if (store_mailbox_state_set(s, "imap:INBOX", 7, 42, 10, &err) < 0)
		goto out;
	ret = store_commit(s, &err);
out:
	if (ret < 0)
		store_rollback(s);
	store_player_free(&p);
	store_game_free(&g);
	store_strings_free(&moves);
	free(obs);
	return ret;
}

/* Fail call 0, 1, 2, ... of the transaction until a run gets through:
 * every call of the clean run has then failed once, and each time the
 * database must be exactly as before. */
static void fault_every_call(bool rolls_back)
{
	struct store *s = test_open();
	struct world w;
	char *before, *after;
	long n, steps, faults = 0;

	make_world(s, &w);
	store_debug_fault_rolls_back(s, rolls_back);
	before = test_dump(test_db);
	for (n = 0;; n++) {
		int rc;

		store_debug_fail_after(s, n);
		steps = store_debug_step_count(s);
		rc = handle_one_message(s, &w);
		steps = store_debug_step_count(s) - steps;
		if (rc == 0)
			break;
		faults++;
		ck_assert_msg(store_error_kind(s) == STORE_ERROR_FAULT,
			      "fault %ld: kind %d: %s", n,
			      (int)store_error_kind(s), err);
		ck_assert(!store_in_transaction(s));
		after = test_dump(test_db);
		ck_assert_msg(strcmp(before, after) == 0,
			      "fault at call %ld left changes behind", n);
		free(after);
	}
	/* every call of the clean run, COMMIT included, was failed once */
	ck_assert_int_eq(faults, n);
	ck_assert_int_eq(steps, n);
	ck_assert_int_ge(faults, 20);
	after = test_dump(test_db);
	ck_assert_str_ne(before, after);
	ck_assert_int_eq(test_query_int(test_db, "SELECT ply FROM games"), 2);
	ck_assert_int_eq(test_query_int(test_db,
					"SELECT count(*) FROM outbox"), 2);
	free(after);
	/* applying the same message again: seen, nothing new */
	store_debug_fail_after(s, -1);
	ck_assert_int_eq(handle_one_message(s, &w), -1);
	ck_assert_int_eq(test_query_int(test_db,
					"SELECT count(*) FROM outbox"), 2);
	free(before);
	store_close(&s);
}

START_TEST(test_fault_in_message_transaction)
{
	fault_every_call(false);
}
END_TEST

START_TEST(test_fault_rolling_back_in_message_transaction)
{
	fault_every_call(true);
}
END_TEST

/* One of the store's own multi-statement calls (op 0: store_player_add,
 * op 1: store_move_append), on its own or inside a caller's transaction.
 * 0 when it went through. */
static int run_atomic_op(struct store *s, const struct world *w, int op,
			 bool inside)
{
	char fpr[41];
	int rc;

	if (inside && store_begin(s, &err) < 0)
		return -1;
	test_fpr(fpr, 10 + (unsigned)inside);
	if (op == 0)
		rc = store_player_add(s, inside ? "Carol" : "Dave",
				      inside ? "c@example.org" :
				      "d@example.org", fpr, 5, NULL, &err);
	else
		rc = store_move_append(s, w->game, inside ? 3 : 2, "e5",
				       w->bob, 5, 0, &err);
	ck_assert_int_ne(rc, 1);
	if (inside) {
		if (rc < 0) {
			/* the failed call undid itself; the transaction
			 * is still the caller's to end */
			ck_assert(store_in_transaction(s));
			store_rollback(s);
			return -1;
		}
		return store_commit(s, &err);
	}
	return rc;
}

START_TEST(test_fault_in_atomic_calls)
{
	struct store *s = test_open();
	struct world w;
	char *before, *after;
	long n;
	int op, inside;

	make_world(s, &w);
	for (inside = 0; inside < 2; inside++) {
		for (op = 0; op < 2; op++) {
			before = test_dump(test_db);
			for (n = 0;; n++) {
				store_debug_fail_after(s, n);
				if (run_atomic_op(s, &w, op, inside) == 0)
					break;
				ck_assert_int_eq(store_error_kind(s),
						 STORE_ERROR_FAULT);
				ck_assert(!store_in_transaction(s));
				after = test_dump(test_db);
				ck_assert_msg(strcmp(before, after) == 0,
					      "op %d inside %d: fault %ld "
					      "left changes", op, inside, n);
				free(after);
			}
			/* BEGIN, two or three statements, COMMIT */
			ck_assert_int_ge(n, 4);
			free(before);
		}
	}
	store_debug_fail_after(s, -1);
	ck_assert_int_eq(test_query_int(test_db, "SELECT ply FROM games"), 3);
	ck_assert_int_eq(test_query_int(test_db,
					"SELECT count(*) FROM players"), 4);
	ck_assert_int_eq(test_query_int(test_db,
					"SELECT count(*) FROM player_keys"), 4);
	store_close(&s);
}
END_TEST

/* A savepoint rolled back by a fault inside the caller's transaction
 * leaves the caller's earlier work in place. */
START_TEST(test_fault_keeps_callers_earlier_work)
{
	struct store *s = test_open();
	int64_t id = 0;

	ck_assert_int_eq(store_begin(s, &err), 0);
	ck_assert_int_eq(store_player_add(s, "Alice", NULL, NULL, 1, &id,
					  &err), 0);
	store_debug_fail_after(s, 2); /* SAVEPOINT, INSERT player, INSERT addr */
	ck_assert_int_eq(store_player_add(s, "Bob", "b@example.org", NULL, 1,
					  NULL, &err), -1);
	ck_assert_int_eq(store_error_kind(s), STORE_ERROR_FAULT);
	ck_assert(store_in_transaction(s));
	ck_assert_int_eq(store_commit(s, &err), 0);
	ck_assert_int_eq(test_query_int(test_db,
					"SELECT count(*) FROM players"), 1);
	ck_assert_int_eq(test_query_int(test_db,
		"SELECT count(*) FROM players WHERE name = 'Alice'"), 1);
	store_close(&s);
}
END_TEST

/* SQLite may end a transaction by itself after an I/O error or a full
 * disk; later calls must then fail, not run in autocommit mode. */
START_TEST(test_fault_that_rolls_back_everything)
{
	struct store *s = test_open();
	struct store_outbox_msg m = { 0 };
	int64_t id = 0;

	m.recipient = "a@example.org";
	m.kind = STORE_OUTBOX_KIND_REPLY;
	m.message_id = "x@ashes";
	m.subject = "x";
	m.body = "y\n";
	ck_assert_int_eq(store_begin(s, &err), 0);
	ck_assert_int_eq(store_player_add(s, "Alice", NULL, NULL, 1, &id,
					  &err), 0);
	store_debug_fault_rolls_back(s, true);
	store_debug_fail_after(s, 0);
	ck_assert_int_eq(store_outbox_enqueue(s, &m, 1, NULL, &err), -1);
	ck_assert_int_eq(store_error_kind(s), STORE_ERROR_FAULT);
	ck_assert(store_in_transaction(s));
	/* the caller goes on regardless: refused, nothing autocommitted */
	ck_assert_int_eq(store_outbox_enqueue(s, &m, 1, NULL, &err), -1);
	ck_assert_msg(strstr(err, "rolled back") != NULL, "%s", err);
	ck_assert_int_eq(store_player_add(s, "Bob", NULL, NULL, 1, NULL,
					  &err), -1);
	ck_assert_int_eq(store_commit(s, &err), -1);
	ck_assert(!store_in_transaction(s));
	ck_assert_int_eq(test_query_int(test_db,
					"SELECT count(*) FROM players"), 0);
	ck_assert_int_eq(test_query_int(test_db,
					"SELECT count(*) FROM outbox"), 0);
	/* and after that the store works */
	ck_assert_int_eq(store_outbox_enqueue(s, &m, 1, NULL, &err), 0);
	ck_assert_int_eq(test_query_int(test_db,
					"SELECT count(*) FROM outbox"), 1);
	store_close(&s);
}
END_TEST

START_TEST(test_fault_in_migration)
{
	struct store_options o = test_options();
	struct store *s;
	long n;

	o.no_migrate = true;
	for (n = 0;; n++) {
		int cur = -1, known = -1;

		s = test_open_at(test_db, &o);
		store_debug_fail_after(s, n);
		if (store_migrate(s, -1, &err) == 0) {
			store_close(&s);
			break;
		}
		ck_assert_int_eq(store_error_kind(s), STORE_ERROR_FAULT);
		store_debug_fail_after(s, -1);
		ck_assert_int_eq(store_schema_version(s, &cur, &known, &err), 0);
		store_close(&s);
		/* Each migration is all or nothing: a fault in one leaves
		 * the ones before it whole and nothing of it. */
		ck_assert_int_lt(cur, known);
		if (cur == 0)
			ck_assert_int_eq(test_query_int(test_db,
				"SELECT count(*) FROM sqlite_schema"), 0);
		else if (cur == 1)
			ck_assert_int_eq(test_query_int(test_db,
				"SELECT count(*) FROM sqlite_schema WHERE "
				"name IN ('address_claims', 'mail_attempts', "
				"'inbound_new')"), 0);
		else if (cur == 2)
			ck_assert_int_eq(test_query_int(test_db,
				"SELECT (SELECT count(*) FROM sqlite_schema "
				"WHERE name = 'outbox_new') + (SELECT count(*) "
				"FROM pragma_table_info('outbox') WHERE "
				"name = 'version')"), 0);
	}
	ck_assert_int_ge(n, 3);
	s = test_open_at(test_db, &o);
	{
		struct store_check_report *r = NULL;

		ck_assert_int_eq(store_check(s, &r, &err), 0);
		ck_assert_msg(r->ok, "%s", r->text);
		store_check_report_free(&r);
	}
	store_close(&s);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("store-faults");

	suite_add_tests(s, "locked", dir_setup, dir_teardown, 60,
		TESTS(test_locked_by_process_waits, test_locked_begin_retried,
		test_locked_too_long_fails_cleanly,
		test_processes_migrate_at_once));
	suite_add_tests(s, "faults", dir_setup, dir_teardown, 0,
		TESTS(test_fault_in_message_transaction,
		test_fault_rolling_back_in_message_transaction,
		test_fault_in_atomic_calls,
		test_fault_keeps_callers_earlier_work,
		test_fault_that_rolls_back_everything,
		test_fault_in_migration));
	return test_run(s);
}
