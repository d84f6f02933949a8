/* test_store_backup.c -- backups that lose nothing (store_backup.h): a
 * copy taken while another connection keeps committing is one snapshot
 * and does not hold the writer up; a restore puts it back and marks the
 * replay due; a restore is refused while the daemon's lock is held, and
 * a file that is not a backup is refused. */
#include <pthread.h>
#include <stdatomic.h>
#include <sys/stat.h>

#include "store_fixture.h"
#include "store/store_backup.h"
#include "store/store_club.h"

static int64_t count_rows(const char *path)
{
	sqlite3 *db;
	sqlite3_stmt *s;
	int64_t n = -1;

	ck_assert_int_eq(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY,
					 NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT count(*) FROM inbound",
					    -1, &s, NULL), SQLITE_OK);
	if (sqlite3_step(s) == SQLITE_ROW)
		n = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	sqlite3_close(db);
	return n;
}

/* Rows enough for a copy of many pages: n mails of ~4 KB. */
static void fill(unsigned from, unsigned n)
{
	static char raw[4096];

	memset(raw, 'x', sizeof(raw) - 1);
	ck_assert_int_eq(store_begin(st, &err), 0);
	for (unsigned i = from; i < from + n; i++)
		add_inbound_raw(i, raw, 100);
	ck_assert_int_eq(store_commit(st, &err), 0);
}

struct writer {
	atomic_bool stop;
	atomic_long commits;
	int failures;
};

/* Another connection (as the daemon is) committing one mail at a time. */
static void *writer_run(void *arg)
{
	struct writer *w = arg;
	struct store_options o = { 0 };
	struct store *ws = NULL;
	const char *e;
	unsigned n = 100000;

	o = test_options();
	if (store_open(test_db, &o, &ws, &e) < 0) {
		w->failures++;
		return NULL;
	}
	while (!atomic_load(&w->stop)) {
		struct store_inbound in = { 0 };
		char sha[65];

		test_sha(sha, n++);
		in.sha256 = sha;
		in.raw = "From: w@example.org\r\n\r\nmove\r\n";
		in.raw_len = strlen(in.raw);
		in.received = 200;
		if (store_inbound_record(ws, &in, NULL, &e) != 0)
			w->failures++;
		else
			atomic_fetch_add(&w->commits, 1);
	}
	store_close(&ws);
	return NULL;
}

START_TEST(test_backup_while_writing)
{
	struct store_backup_options slow = { 1, 1 };
	struct store_backup_stats stats = { 0, 0 };
	struct writer w = { false, 0, 0 };
	char copy[400], wal[420];
	struct store *cs = NULL;
	struct store_options o = { 0 };
	int64_t before, rows, taken = 0;
	long during;
	struct stat sb;
	pthread_t t;

	fill(1, 600);
	before = count_rows(test_db);
	snprintf(copy, sizeof(copy), "%s/copy.db", test_dir);
	ck_assert_int_eq(pthread_create(&t, NULL, writer_run, &w), 0);
	while (atomic_load(&w.commits) < 5)
		usleep(1000);
	ck_assert_int_eq(store_backup(st, copy, 12345, &slow, &stats, &err), 0);
	during = atomic_load(&w.commits);
	atomic_store(&w.stop, true);
	pthread_join(t, NULL);
	ck_assert_int_eq(w.failures, 0);
	/* Each page was a step of its own, and the writer committed
	 * between them: the copy did not hold it up. */
	ck_assert_int_gt(stats.pages, 600);
	ck_assert_int_ge(stats.steps, stats.pages);
	ck_assert_int_gt(during, 5 + 10);
	/* One snapshot: what the writer added during the copy is partly
	 * or wholly missing, never half a row; a whole, checked file. */
	rows = count_rows(copy);
	ck_assert_int_ge(rows, before + 5);
	ck_assert_int_lt(rows, count_rows(test_db));
	ck_assert_int_eq(stat(copy, &sb), 0);
	ck_assert_int_eq(sb.st_mode & 0777, 0600);
	snprintf(wal, sizeof(wal), "%s-wal", copy);
	ck_assert_int_eq(access(wal, F_OK), -1);
	o = test_options();
	ck_assert_int_eq(store_open(copy, &o, &cs, &err), 0);
	ck_assert_int_eq(store_state_get(cs, "backup_taken_at", &taken, &err), 1);
	ck_assert_int_eq(taken, 12345);
	ck_assert_int_eq(store_backup_replay_due(cs, &taken, &err), 0);
	store_close(&cs);
}
END_TEST

START_TEST(test_restore)
{
	char copy[400];
	int64_t taken = 0, since = 0, v = 0;

	fill(1, 20);
	snprintf(copy, sizeof(copy), "%s/copy.db", test_dir);
	ck_assert_int_eq(store_backup(st, copy, 5000, NULL, NULL, &err), 0);
	fill(100, 7);
	ck_assert_int_eq(count_rows(test_db), 27);
	/* a backup cannot run inside a transaction */
	ck_assert_int_eq(store_begin(st, &err), 0);
	ck_usage(store_backup(st, copy, 5001, NULL, NULL, &err));
	store_rollback(st);
	store_close(&st);

	/* the database lost: the copy comes back, marked for the replay */
	ck_assert_int_eq(unlink(test_db), 0);
	ck_assert_int_eq(store_restore(copy, test_db, 6000, &taken, &err), 0);
	ck_assert_int_eq(taken, 5000);
	ck_assert_int_eq(count_rows(test_db), 20);
	st = test_open();
	ck_assert_int_eq(store_backup_replay_due(st, &since, &err), 1);
	ck_assert_int_eq(since, 5000);
	ck_assert_int_eq(store_state_get(st, "backup_restored_at", &v, &err), 1);
	ck_assert_int_eq(v, 6000);
	ck_assert_int_eq(store_backup_replay_done(st, 6100, 7, &err), 0);
	ck_assert_int_eq(store_backup_replay_due(st, &since, &err), 0);
	ck_assert_int_eq(store_state_get(st, "backup_replayed_mails", &v,
					 &err), 1);
	ck_assert_int_eq(v, 7);
	/* over a database that is there (and has a WAL), too */
	fill(200, 3);
	store_close(&st);
	ck_assert_int_eq(store_restore(copy, test_db, 7000, NULL, &err), 0);
	ck_assert_int_eq(count_rows(test_db), 20);
	st = test_open();
}
END_TEST

START_TEST(test_restore_refused_when_locked)
{
	char copy[400], plain[400];
	int fd = -1, fd2 = -1;

	fill(1, 5);
	snprintf(copy, sizeof(copy), "%s/copy.db", test_dir);
	ck_assert_int_eq(store_backup(st, copy, 5000, NULL, NULL, &err), 0);
	fill(10, 5);
	ck_assert_int_eq(store_daemon_lock(test_db, &fd, &err), 0);
	ck_assert_int_ge(fd, 0);
	/* a second daemon, and a restore, are refused while it is held */
	ck_assert_int_eq(store_daemon_lock(test_db, &fd2, &err), -1);
	ck_assert_ptr_nonnull(strstr(err, "in use by a running ashesd"));
	ck_assert_int_eq(fd2, -1);
	ck_assert_int_eq(store_restore(copy, test_db, 6000, NULL, &err), -1);
	ck_assert_ptr_nonnull(strstr(err, "in use by a running ashesd"));
	ck_assert_int_eq(count_rows(test_db), 10);
	store_daemon_unlock(&fd);
	ck_assert_int_eq(fd, -1);

	/* a database that is not a backup is refused, nothing changed */
	store_close(&st);
	snprintf(plain, sizeof(plain), "%s/plain.db", test_dir);
	st = test_open_at(plain, NULL);
	store_close(&st);
	ck_assert_int_eq(store_restore(plain, test_db, 6000, NULL, &err), -1);
	ck_assert_ptr_nonnull(strstr(err, "not made by"));
	ck_assert_int_eq(count_rows(test_db), 10);
	ck_assert_int_eq(store_restore(copy, test_db, 6000, NULL, &err), 0);
	ck_assert_int_eq(count_rows(test_db), 5);
	st = test_open();
}
END_TEST

TEST_MAIN("store_backup", "backup", setup, teardown, 0,
	  test_backup_while_writing, test_restore,
	  test_restore_refused_when_locked)
