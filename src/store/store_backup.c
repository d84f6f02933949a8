/* store_backup.c -- the online backup, the restore, the daemon's lock and
 * the replay marks; see store_backup.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "store/store_backup.h"
#include "store/store_club.h"
#include "store/store_private.h"
#include "util/buf.h"

static __thread char backup_error[768];

static int backup_fail(const char **error_r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int backup_fail(const char **error_r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(backup_error, sizeof(backup_error), fmt, ap);
	va_end(ap);
	if (error_r != NULL)
		*error_r = backup_error;
	return -1;
}

/* path with suffix appended, in buf (len bytes): 0, or -1 if too long. */
static int backup_path(char *buf, size_t len, const char *path,
		       const char *suffix)
{
	int n = snprintf(buf, len, "%s%s", path, suffix);

	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* fsync the file at path, and the folder it is in, so a rename into it
 * survives a power loss.  Best effort for the folder. */
static int backup_sync(const char *path)
{
	char dir[4096];
	char *slash;
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0)
		return -1;
	ret = fsync(fd);
	close(fd);
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash == dir)
		slash[1] = '\0';
	else if (slash != NULL)
		*slash = '\0';
	else
		snprintf(dir, sizeof(dir), ".");
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		(void)fsync(fd);
		close(fd);
	}
	return ret;
}

/* A new, empty file at path, mode 0600 whatever the umask (a stale one
 * of ours is replaced).  0 or -1 with errno. */
static int backup_new_file(const char *path)
{
	int fd;

	if (unlink(path) < 0 && errno != ENOENT)
		return -1;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
		  0600);
	if (fd < 0)
		return -1;
	if (fchmod(fd, 0600) < 0) {
		close(fd);
		return -1;
	}
	return close(fd);
}

/* Run sql on db: 0, or -1 with *error_r naming what. */
static int backup_exec(sqlite3 *db, const char *sql, const char *what,
		       const char **error_r)
{
	char *msg = NULL;
	int rc = sqlite3_exec(db, sql, NULL, NULL, &msg);

	if (rc != SQLITE_OK) {
		backup_fail(error_r, "%s: %s", what,
			    msg != NULL ? msg : sqlite3_errstr(rc));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

/* PRAGMA quick_check of db: 0 if "ok", else -1 with *error_r. */
static int backup_quick_check(sqlite3 *db, const char *what,
			      const char **error_r)
{
	sqlite3_stmt *st = NULL;
	int rc, ret = -1;

	rc = sqlite3_prepare_v2(db, "PRAGMA quick_check", -1, &st, NULL);
	if (rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
		const char *v = (const char *)sqlite3_column_text(st, 0);

		if (v != NULL && strcmp(v, "ok") == 0)
			ret = 0;
		else
			backup_fail(error_r, "%s fails its check: %s", what,
				    v != NULL ? v : "?");
	} else {
		backup_fail(error_r, "%s: cannot check: %s", what,
			    sqlite3_errmsg(db));
	}
	sqlite3_finalize(st);
	return ret;
}

/* Set server_state key to value in db (raw connection). */
static int backup_state_set(sqlite3 *db, const char *key, int64_t value,
			    const char **error_r)
{
	sqlite3_stmt *st = NULL;
	int rc;

	rc = sqlite3_prepare_v2(db,
				"INSERT INTO server_state (key, value) "
				"VALUES (?1, ?2) ON CONFLICT (key) DO UPDATE "
				"SET value = excluded.value", -1, &st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 2, value);
		rc = sqlite3_step(st);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return backup_fail(error_r, "recording %s: %s", key,
				   sqlite3_errmsg(db));
	return 0;
}

/* server_state key of db: 1 and *value_r, 0 if missing, -1. */
static int backup_state_get(sqlite3 *db, const char *key, int64_t *value_r,
			    const char **error_r)
{
	sqlite3_stmt *st = NULL;
	int rc, ret = 0;

	*value_r = 0;
	rc = sqlite3_prepare_v2(db, "SELECT value FROM server_state "
				"WHERE key = ?1", -1, &st, NULL);
	if (rc != SQLITE_OK) {
		sqlite3_finalize(st);
		return backup_fail(error_r, "reading %s: %s", key,
				   sqlite3_errmsg(db));
	}
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*value_r = sqlite3_column_int64(st, 0);
		ret = 1;
	} else if (rc != SQLITE_DONE) {
		ret = backup_fail(error_r, "reading %s: %s", key,
				  sqlite3_errmsg(db));
	}
	sqlite3_finalize(st);
	return ret;
}

/* Close the copy *dst made at tmp and put it at final: synced, the files
 * of final's old WAL (wal, shm; NULL: none to remove) gone first so they
 * are never applied to it, renamed, synced again.  0 or -1 with
 * *error_r. */
static int backup_install(sqlite3 **dst, const char *tmp, const char *final,
			  const char *wal, const char *shm,
			  const char **error_r)
{
	int rc = sqlite3_close(*dst);

	*dst = NULL;
	if (rc != SQLITE_OK)
		return backup_fail(error_r, "closing %s: %s", tmp,
				   sqlite3_errstr(rc));
	if (backup_sync(tmp) < 0 ||
	    (wal != NULL && unlink(wal) < 0 && errno != ENOENT) ||
	    (shm != NULL && unlink(shm) < 0 && errno != ENOENT) ||
	    rename(tmp, final) < 0)
		return backup_fail(error_r, "cannot put the copy at %s: %s",
				   final, strerror(errno));
	(void)backup_sync(final);
	return 0;
}

/* Copy src (its "main", in whatever transaction src holds) into dst, in
 * steps of opt's pages with a pause between them.  0 or -1. */
static int backup_copy(sqlite3 *dst, sqlite3 *src,
		       const struct store_backup_options *opt,
		       struct store_backup_stats *stats, const char **error_r)
{
	int pages = opt != NULL && opt->pages_per_step > 0 ?
		    opt->pages_per_step : STORE_BACKUP_PAGES_PER_STEP;
	int pause = opt != NULL && opt->pause_ms != 0 ? opt->pause_ms :
		    STORE_BACKUP_PAUSE_MS;
	sqlite3_backup *b;
	int rc, busy = 0;

	b = sqlite3_backup_init(dst, "main", src, "main");
	if (b == NULL)
		return backup_fail(error_r, "cannot start the backup: %s",
				   sqlite3_errmsg(dst));
	for (;;) {
		rc = sqlite3_backup_step(b, pages);
		stats->steps++;
		if (rc == SQLITE_DONE)
			break;
		if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED) {
			if (++busy > STORE_BACKUP_BUSY_TRIES)
				break;
		} else if (rc != SQLITE_OK) {
			break;
		}
		if (pause > 0)
			sqlite3_sleep(pause);
	}
	stats->pages = sqlite3_backup_pagecount(b);
	sqlite3_backup_finish(b);
	if (rc != SQLITE_DONE)
		return backup_fail(error_r, "backup step failed: %s%s",
				   sqlite3_errstr(rc),
				   busy > STORE_BACKUP_BUSY_TRIES ?
				   " (locked too long)" : "");
	return 0;
}

int store_backup(struct store *store, const char *dest_path, int64_t now,
		 const struct store_backup_options *options,
		 struct store_backup_stats *stats_r, const char **error_r)
{
	struct store_backup_stats stats = { 0, 0 };
	char tmp[4096];
	sqlite3 *dst = NULL;
	bool in_read = false;
	int ret = -1, rc;

	store_ok(store);
	if (store->tx_open)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "a backup cannot run inside a transaction");
	if (backup_path(tmp, sizeof(tmp), dest_path, ".tmp") < 0)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "backup path too long");
	if (backup_new_file(tmp) < 0)
		return store_fail(store, error_r, STORE_ERROR_IO,
				  "cannot create %s: %s", tmp, strerror(errno));
	rc = sqlite3_open_v2(tmp, &dst, SQLITE_OPEN_READWRITE, NULL);
	if (rc != SQLITE_OK) {
		backup_fail(error_r, "cannot open %s: %s", tmp,
			    sqlite3_errstr(rc));
		goto out;
	}
	/* One read transaction over all the steps: the copy is one
	 * snapshot, and the daemon's commits (another connection) neither
	 * wait for it nor make it start again. */
	if (backup_exec(store->db, "BEGIN; SELECT count(*) FROM sqlite_schema",
			"starting the snapshot", error_r) < 0)
		goto out;
	in_read = true;
	if (backup_copy(dst, store->db, options, &stats, error_r) < 0)
		goto out;
	(void)backup_exec(store->db, "COMMIT", "ending the snapshot", NULL);
	in_read = false;
	if (backup_exec(dst, "PRAGMA journal_mode = DELETE",
			"making the copy one file", error_r) < 0 ||
	    backup_quick_check(dst, "the copy", error_r) < 0 ||
	    backup_state_set(dst, "backup_taken_at", now, error_r) < 0 ||
	    backup_exec(dst, "DELETE FROM server_state WHERE key IN "
			"('backup_replay_from', 'backup_restored_at', "
			"'backup_replayed_at', 'backup_replayed_mails')",
			"clearing old restore marks", error_r) < 0)
		goto out;
	if (backup_install(&dst, tmp, dest_path, NULL, NULL, error_r) < 0)
		goto out;
	if (stats_r != NULL)
		*stats_r = stats;
	ret = 0;
out:
	if (in_read)
		(void)backup_exec(store->db, "ROLLBACK", "ending the snapshot",
				  NULL);
	if (dst != NULL)
		sqlite3_close(dst);
	if (ret < 0) {
		unlink(tmp);
		return store_fail(store, error_r, STORE_ERROR_IO, "%s",
				  backup_error);
	}
	return 0;
}

int store_daemon_lock(const char *db_path, int *fd_r, const char **error_r)
{
	char path[4096], line[32];
	ssize_t n;
	int fd, len;

	*fd_r = -1;
	if (backup_path(path, sizeof(path), db_path, ".lock") < 0)
		return backup_fail(error_r, "database path too long");
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return backup_fail(error_r, "cannot open %s: %s", path,
				   strerror(errno));
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		int e = errno;

		n = pread(fd, line, sizeof(line) - 1, 0);
		line[n > 0 ? n : 0] = '\0';
		line[strcspn(line, "\n")] = '\0';
		close(fd);
		if (e == EWOULDBLOCK)
			return backup_fail(error_r, "database %s is in use by "
					   "a running ashesd (pid %s, lock %s)",
					   db_path, line[0] ? line : "?", path);
		return backup_fail(error_r, "cannot lock %s: %s", path,
				   strerror(e));
	}
	len = snprintf(line, sizeof(line), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) < 0 || pwrite(fd, line, (size_t)len, 0) != len) {
		int e = errno;

		close(fd);
		return backup_fail(error_r, "cannot write %s: %s", path,
				   strerror(e));
	}
	*fd_r = fd;
	return 0;
}

void store_daemon_unlock(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

int store_restore(const char *backup_path_arg, const char *db_path,
		  int64_t now, int64_t *taken_at_r, const char **error_r)
{
	char tmp[4096], wal[4096], shm[4096];
	struct store_backup_stats stats = { 0, 0 };
	struct store_backup_options fast = { 1024, -1 };
	sqlite3 *src = NULL, *dst = NULL;
	int64_t taken = 0;
	int lock = -1, ret = -1, rc;

	if (backup_path(tmp, sizeof(tmp), db_path, ".restore") < 0 ||
	    backup_path(wal, sizeof(wal), db_path, "-wal") < 0 ||
	    backup_path(shm, sizeof(shm), db_path, "-shm") < 0)
		return backup_fail(error_r, "database path too long");
	if (store_daemon_lock(db_path, &lock, error_r) < 0)
		return -1;
	rc = sqlite3_open_v2(backup_path_arg, &src, SQLITE_OPEN_READONLY,
			     NULL);
	if (rc != SQLITE_OK) {
		backup_fail(error_r, "cannot open the backup %s: %s",
			    backup_path_arg, sqlite3_errstr(rc));
		goto out;
	}
	if (backup_quick_check(src, "the backup", error_r) < 0)
		goto out;
	rc = backup_state_get(src, "backup_taken_at", &taken, error_r);
	if (rc < 0)
		goto out;
	if (rc == 0 || taken <= 0) {
		backup_fail(error_r, "%s was not made by `ashes db backup` "
			    "(no backup time in it)", backup_path_arg);
		goto out;
	}
	if (backup_new_file(tmp) < 0) {
		backup_fail(error_r, "cannot create %s: %s", tmp,
			    strerror(errno));
		goto out;
	}
	rc = sqlite3_open_v2(tmp, &dst, SQLITE_OPEN_READWRITE, NULL);
	if (rc != SQLITE_OK) {
		backup_fail(error_r, "cannot open %s: %s", tmp,
			    sqlite3_errstr(rc));
		goto out;
	}
	if (backup_copy(dst, src, &fast, &stats, error_r) < 0 ||
	    backup_exec(dst, "PRAGMA journal_mode = DELETE",
			"restoring", error_r) < 0 ||
	    backup_state_set(dst, "backup_restored_at", now, error_r) < 0 ||
	    backup_state_set(dst, "backup_replay_from", taken, error_r) < 0)
		goto out;
	if (backup_install(&dst, tmp, db_path, wal, shm, error_r) < 0)
		goto out;
	if (taken_at_r != NULL)
		*taken_at_r = taken;
	ret = 0;
out:
	if (dst != NULL)
		sqlite3_close(dst);
	if (src != NULL)
		sqlite3_close(src);
	if (ret < 0)
		unlink(tmp);
	store_daemon_unlock(&lock);
	return ret;
}

int store_backup_replay_due(struct store *store, int64_t *since_r,
			    const char **error_r)
{
	int r = store_state_get(store, "backup_replay_from", since_r, error_r);

	if (r < 0)
		return -1;
	return r == 1 && *since_r > 0 ? 1 : 0;
}

int store_backup_replay_done(struct store *store, int64_t now, int64_t mails,
			     const char **error_r)
{
	if (store_begin(store, error_r) < 0)
		return -1;
	if (store_state_set(store, "backup_replay_from", 0, error_r) < 0 ||
	    store_state_set(store, "backup_replayed_at", now, error_r) < 0 ||
	    store_state_set(store, "backup_replayed_mails", mails,
			    error_r) < 0) {
		store_rollback(store);
		return -1;
	}
	return store_commit(store, error_r);
}

/* t as "YYYY-MM-DD HH:MM:SS UTC" into buf. */
static const char *backup_time(int64_t t, char *buf, size_t len)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (gmtime_r(&tt, &tm) == NULL ||
	    strftime(buf, len, "%Y-%m-%d %H:%M:%S UTC", &tm) == 0)
		snprintf(buf, len, "%lld", (long long)t);
	return buf;
}

void store_backup_describe(struct store *store, struct buf *out)
{
	int64_t taken = 0, restored = 0, from = 0, replayed = 0, mails = 0;
	char a[40], b[40];

	/* A database older than server_state (sql/008) has none of it. */
	if (backup_state_get(store->db, "backup_taken_at", &taken, NULL) < 0)
		return;
	(void)backup_state_get(store->db, "backup_restored_at", &restored,
			       NULL);
	(void)backup_state_get(store->db, "backup_replay_from", &from, NULL);
	(void)backup_state_get(store->db, "backup_replayed_at", &replayed,
			       NULL);
	(void)backup_state_get(store->db, "backup_replayed_mails", &mails,
			       NULL);
	if (taken > 0 && restored == 0)
		buf_printf(out, "backup: a copy taken at %s\n",
			   backup_time(taken, a, sizeof(a)));
	if (restored > 0)
		buf_printf(out, "backup: restored at %s from a copy taken at "
			   "%s\n", backup_time(restored, a, sizeof(a)),
			   backup_time(taken, b, sizeof(b)));
	if (from > 0)
		buf_printf(out, "backup: ashesd reads again the mails received "
			   "since the copy when it next starts\n");
	else if (replayed > 0)
		buf_printf(out, "backup: %lld mails read again at %s\n",
			   (long long)mails,
			   backup_time(replayed, a, sizeof(a)));
}
