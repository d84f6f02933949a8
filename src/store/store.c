/* store.c -- opening and closing the database, and `ashes db check`; see
 * store.h.  The migrations are in store_migrate.c, transactions and errors
 * in store_tx.c, statements and rows in store_stmt.c. */
#include "store/store_backup.h"
#include "store/store_private.h"

#include <malloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"


/* ---- open / close --------------------------------------------------- */

/* How long to wait between tries to switch a new database to WAL. */
#define STORE_WAL_RETRY_MS 20

static int open_fail(struct store **sp, const char **error_r)
{
	struct store *s = *sp;

	if (s->error[0] != '\0')
		store_open_fail("%s", s->error);
	store_close(sp);
	if (error_r != NULL)
		*error_r = store_open_error();
	return -1;
}

/* SQLite gives every write statement inside a transaction a 64 KiB
 * in-memory statement journal and frees it at the statement's end.  With
 * glibc's default 128 KiB trim threshold that free often shrinks the heap
 * and the next statement grows it again: two brk calls and TLB flushes per
 * statement, which cost 3-4x the CPU time of the whole transaction here
 * (bench_store).  Keeping a few MiB at the top of the heap stops it.  This
 * is process-wide, hence done once and only with glibc. */
static void malloc_keep_heap(void)
{
#if defined(__GLIBC__) && defined(M_TRIM_THRESHOLD)
	static bool done;

	if (!done) {
		mallopt(M_TRIM_THRESHOLD, 4 * 1024 * 1024);
		done = true;
	}
#endif
}

int store_open(const char *path, const struct store_options *options,
	       struct store **store_r, const char **error_r)
{
	static const struct store_options defaults;
	struct store *s;
	sqlite3_stmt *st;
	const char *mode;
	int rc, current;

	*store_r = NULL;
	store_open_fail("%s", "");
	malloc_keep_heap();
	if (options == NULL)
		options = &defaults;
	s = xzalloc(sizeof(*s));
	s->path = xstrdup(path);
	s->fail_countdown = -1;
	s->busy_timeout_ms = options->busy_timeout_ms > 0 ?
		options->busy_timeout_ms : STORE_DEFAULT_BUSY_TIMEOUT_MS;
	s->begin_retries = options->begin_retries == 0 ?
		STORE_DEFAULT_BEGIN_RETRIES :
		options->begin_retries < 0 ? 0 : options->begin_retries;

	if (store_migrations_load(s, options->sql_dir) < 0)
		return open_fail(&s, error_r);

	rc = sqlite3_open_v2(path, &s->db,
			     SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
			     SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK) {
		store_open_fail("%s: %s", path, s->db != NULL ?
				sqlite3_errmsg(s->db) : sqlite3_errstr(rc));
		return open_fail(&s, error_r);
	}
	sqlite3_extended_result_codes(s->db, 1);
	sqlite3_busy_timeout(s->db, s->busy_timeout_ms);

	/* WAL: readers (ashes CLI) never block the daemon's writes.  The
	 * switch needs the database to itself and SQLite may answer BUSY at
	 * once, without waiting in the busy handler, when another process
	 * opens (or migrates) the same new file at that moment: try again,
	 * for as long as the busy timeout allows. */
	rc = sqlite3_prepare_v2(s->db, "PRAGMA journal_mode = WAL", -1, &st,
				NULL);
	for (int waited = 0; rc == SQLITE_OK; waited += STORE_WAL_RETRY_MS) {
		rc = sqlite3_step(st);
		if ((rc & 0xff) != SQLITE_BUSY || waited >= s->busy_timeout_ms)
			break;
		sqlite3_reset(st);
		sqlite3_sleep(STORE_WAL_RETRY_MS);
		rc = SQLITE_OK;
	}
	mode = rc == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0) :
		NULL;
	if (mode == NULL || strcmp(mode, "wal") != 0) {
		store_open_fail("%s: cannot switch to WAL mode: %s", path,
				rc == SQLITE_ROW ? mode ? mode : "?" :
				sqlite3_errmsg(s->db));
		sqlite3_finalize(st);
		return open_fail(&s, error_r);
	}
	sqlite3_finalize(st);
	/* FULL: a commit survives power loss, since after it the mail is
	 * moved out of the IMAP inbox and the reply may be sent. */
	if (sqlite3_exec(s->db, options->synchronous_normal ?
			 "PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL" :
			 "PRAGMA foreign_keys = ON; PRAGMA synchronous = FULL",
			 NULL, NULL, NULL) != SQLITE_OK) {
		store_open_fail("%s: %s", path, sqlite3_errmsg(s->db));
		return open_fail(&s, error_r);
	}

	if (store_user_version(s, &current, NULL) < 0)
		return open_fail(&s, error_r);
	if (current > s->known_version) {
		store_fail_too_new(s, current, NULL);
		return open_fail(&s, error_r);
	}
	if (!options->no_migrate && store_migrate(s, -1, NULL) < 0)
		return open_fail(&s, error_r);
	store_ok(s);
	*store_r = s;
	return 0;
}

void store_close(struct store **store)
{
	struct store *s = *store;
	int i;

	if (s == NULL)
		return;
	if (s->db != NULL) {
		store_rollback(s);
		for (i = 0; i < s->ncache; i++)
			sqlite3_finalize(s->cache[i].stmt);
		sqlite3_close(s->db);
	}
	store_migrations_free(s);
	free(s->sql_source);
	free(s->path);
	free(s);
	*store = NULL;
}

/* ---- check ---------------------------------------------------------- */

int store_check(struct store *store, struct store_check_report **report_r,
		const char **error_r)
{
	struct store_check_report *r;
	struct buf text = BUF_INIT;
	sqlite3_stmt *st = NULL;
	int rc, v;

	store_ok(store);
	*report_r = NULL;
	if (store_user_version(store, &v, error_r) < 0)
		return -1;
	r = xzalloc(sizeof(*r));
	r->schema_version = v;
	r->known_version = store->known_version;

	rc = sqlite3_prepare_v2(store->db, "PRAGMA integrity_check", -1, &st,
				NULL);
	if (rc != SQLITE_OK)
		goto fail;
	while ((rc = store_step(store, st)) == SQLITE_ROW) {
		const char *line = (const char *)sqlite3_column_text(st, 0);

		if (line != NULL && strcmp(line, "ok") == 0)
			continue;
		r->integrity_problems++;
		buf_printf(&text, "integrity: %s\n", line ? line : "?");
	}
	if (rc != SQLITE_DONE)
		goto fail;
	sqlite3_finalize(st);
	st = NULL;
	rc = sqlite3_prepare_v2(store->db, "PRAGMA foreign_key_check", -1,
				&st, NULL);
	if (rc != SQLITE_OK)
		goto fail;
	while ((rc = store_step(store, st)) == SQLITE_ROW) {
		r->foreign_key_problems++;
		buf_printf(&text,
			   "foreign key: table %s row %lld refers to a "
			   "missing row of %s\n",
			   sqlite3_column_text(st, 0),
			   (long long)sqlite3_column_int64(st, 1),
			   sqlite3_column_text(st, 2));
	}
	if (rc != SQLITE_DONE)
		goto fail;
	sqlite3_finalize(st);

	if (v < r->known_version)
		buf_printf(&text,
			   "schema: version %d is older than this ashesd "
			   "(knows %d): run `ashes db migrate`\n",
			   v, r->known_version);
	else if (v > r->known_version)
		buf_printf(&text,
			   "schema: version %d is newer than this ashesd "
			   "(knows %d): upgrade ashesd\n",
			   v, r->known_version);
	r->ok = r->integrity_problems == 0 && r->foreign_key_problems == 0 &&
		v == r->known_version;
	store_backup_describe(store, &text);
	buf_printf(&text, "schema version %d (this ashesd knows %d)\n", v,
		   r->known_version);
	if (r->ok)
		buf_puts(&text, "ok\n");
	r->text = buf_steal(&text);
	*report_r = r;
	return 0;
fail:
	store_fail_sqlite(store, error_r, rc, "checking the database");
	sqlite3_finalize(st);
	buf_free(&text);
	free(r);
	return -1;
}

void store_check_report_free(struct store_check_report **report)
{
	if (*report == NULL)
		return;
	free((*report)->text);
	free(*report);
	*report = NULL;
}
