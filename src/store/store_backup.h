/* store_backup.h -- backups that lose nothing: a consistent copy of the
 * database taken while the daemon writes it (SQLite's online backup API),
 * a copy put back in place, the lock that says the daemon is running, and
 * the marks a restore leaves for the daemon's replay of the mails it
 * received after the backup (server_state keys, sql/008).
 *
 * The copy is one snapshot: store_backup() holds one read transaction on
 * the source while it copies, in chunks of pages with a pause between
 * them.  In WAL mode a reader never blocks a writer, so the daemon goes on
 * committing (what it commits is simply not in the copy); the chunks keep
 * the copy's own I/O gentle.  The copy is written beside the target, made
 * mode 0600 (it holds every mail read), checked (PRAGMA quick_check),
 * switched to a single file (journal_mode DELETE) and renamed into place,
 * so a FILE that exists is always whole.
 *
 * Times are given by the caller (the store reads no clock).  Error strings
 * of the functions without a store live in a thread-local buffer, valid
 * until the next call of this module in the same thread.
 */
#ifndef ASHES_STORE_BACKUP_H
#define ASHES_STORE_BACKUP_H

#include <stdint.h>

struct store;

#define STORE_BACKUP_PAGES_PER_STEP 256
#define STORE_BACKUP_PAUSE_MS 2
/* A step that finds the source or the copy locked is tried again this many
 * times (each after a pause) before the backup gives up. */
#define STORE_BACKUP_BUSY_TRIES 200

struct store_backup_options {
	int pages_per_step; /* 0: STORE_BACKUP_PAGES_PER_STEP */
	int pause_ms;       /* 0: STORE_BACKUP_PAUSE_MS; -1: none */
};

struct store_backup_stats {
	int64_t pages; /* pages copied (the page size is SQLite's) */
	int64_t steps; /* sqlite3_backup_step() calls */
};

/* Copy the database of store (outside a transaction) to dest_path, as it
 * was at one instant just after `now`, which is recorded in the copy as
 * server_state "backup_taken_at" (the replay after a restore reads the
 * mails received since).  options NULL: the defaults.  stats_r may be
 * NULL.  Returns 0, or -1 with *error_r (dest_path is then untouched). */
int store_backup(struct store *store, const char *dest_path, int64_t now,
		 const struct store_backup_options *options,
		 struct store_backup_stats *stats_r, const char **error_r);

/* Put the backup at backup_path in place of the database db_path (which
 * may be missing), refusing while a daemon holds db_path's lock
 * (store_daemon_lock) and holding it meanwhile: the backup is checked, copied
 * beside db_path (mode 0600), the old file and its -wal/-shm are replaced,
 * and the copy is marked restored at `now` with a replay due of the mails
 * received since the backup was taken (*taken_at_r, may be NULL).
 * Returns 0, or -1 with *error_r (db_path is then untouched). */
int store_restore(const char *backup_path, const char *db_path, int64_t now,
		  int64_t *taken_at_r, const char **error_r);

/* The daemon's lock on db_path: an flock() on db_path ".lock" (mode 0600,
 * holding the pid of its owner), taken without waiting and held for the
 * life of the returned descriptor, so that a process that dies releases
 * it.  Returns 0 and *fd_r, or -1 with *error_r ("in use by pid N" when
 * another process holds it). */
int store_daemon_lock(const char *db_path, int *fd_r, const char **error_r);
/* Release the lock (close the descriptor); *fd becomes -1.  -1 is fine. */
void store_daemon_unlock(int *fd);

/* After a restore: 1 and *since_r (when the backup was taken) if the replay
 * of the mails received since is due, 0 if not, -1 with *error_r. */
int store_backup_replay_due(struct store *store, int64_t *since_r,
			    const char **error_r);
/* The replay is done: `mails` were read again at `now` (recorded as
 * "backup_replayed_at" and "backup_replayed_mails"; the replay is no
 * longer due).  0 or -1 with *error_r. */
int store_backup_replay_done(struct store *store, int64_t now, int64_t mails,
			     const char **error_r);

/* What the backup marks of store say, a line each, appended to out (for
 * `ashes db check`): a copy and when it was taken, when it was restored,
 * whether the replay is due or when it ran and how many mails it read.
 * Nothing for a database that was never backed up nor restored. */
struct buf;
void store_backup_describe(struct store *store, struct buf *out);

#endif
