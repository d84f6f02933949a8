/* store.c -- opening the database, migrations, transactions, errors, the
 * statement cache, store_check and the fault injector; see store.h. */
#include "store/store_private.h"

#include <dirent.h>
#include <errno.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"

#ifndef ASHES_DATADIR
#define ASHES_DATADIR "/usr/local/share/ashesd"
#endif

/* store_open has no store to keep its error in. */
static _Thread_local char open_error[512];

void *store_xmalloc(size_t size)
{
	void *p = calloc(1, size ? size : 1);

	if (p == NULL) {
		fputs("ashes: out of memory\n", stderr);
		abort();
	}
	return p;
}

char *store_xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = store_xmalloc(n);

	memcpy(p, s, n);
	return p;
}

void *store_array_grow(void *array, size_t elem_size, size_t n, size_t *cap)
{
	void *p;
	size_t newcap;

	if (n < *cap)
		return array;
	newcap = *cap ? *cap * 2 : 8;
	p = realloc(array, newcap * elem_size);
	if (p == NULL) {
		fputs("ashes: out of memory\n", stderr);
		abort();
	}
	memset((char *)p + *cap * elem_size, 0, (newcap - *cap) * elem_size);
	*cap = newcap;
	return p;
}

/* ---- errors --------------------------------------------------------- */

void store_ok(struct store *s)
{
	s->error_kind = STORE_ERROR_NONE;
	s->error[0] = '\0';
}

int store_fail(struct store *s, const char **error_r,
	       enum store_error_kind kind, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->error, sizeof(s->error), fmt, ap);
	va_end(ap);
	s->error_kind = kind;
	if (error_r != NULL)
		*error_r = s->error;
	return -1;
}

int store_fail_sqlite(struct store *s, const char **error_r, int rc,
		      const char *what)
{
	enum store_error_kind kind;
	const char *msg;

	if (s->fault_fired) {
		s->fault_fired = false;
		return store_fail(s, error_r, STORE_ERROR_FAULT,
				  "%s: injected fault", what);
	}
	if (s->tx_lost) {
		s->tx_lost = false;
		return store_fail(s, error_r, STORE_ERROR_IO,
				  "%s: the transaction was rolled back after "
				  "an earlier failure; roll back and start "
				  "again", what);
	}
	switch (rc & 0xff) {
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		kind = STORE_ERROR_BUSY;
		break;
	case SQLITE_CONSTRAINT:
	case SQLITE_MISMATCH:
	case SQLITE_RANGE:
		kind = STORE_ERROR_USAGE;
		break;
	default:
		kind = STORE_ERROR_IO;
	}
	msg = sqlite3_errmsg(s->db);
	if ((rc & 0xff) == SQLITE_BUSY)
		msg = "database is locked by another process (busy timeout "
		      "ran out)";
	return store_fail(s, error_r, kind, "%s: %s", what, msg);
}

bool store_rc_is_unique(struct store *s, int rc)
{
	if (s->fault_fired)
		return false;
	return rc == SQLITE_CONSTRAINT_UNIQUE ||
	       rc == SQLITE_CONSTRAINT_PRIMARYKEY;
}

enum store_error_kind store_error_kind(const struct store *store)
{
	return store->error_kind;
}

/* ---- the fault injector and the call wrappers ---------------------- */

void store_debug_fail_after(struct store *store, long n)
{
	store->fail_countdown = n < 0 ? -1 : n;
	store->fault_fired = false;
}

void store_debug_fault_rolls_back(struct store *store, bool rolls_back)
{
	store->fault_rolls_back = rolls_back;
}

long store_debug_step_count(const struct store *store)
{
	return store->step_count;
}

/* True if this call is the one to fail. */
static bool fault_now(struct store *s)
{
	s->step_count++;
	if (s->fail_countdown < 0)
		return false;
	if (s->fail_countdown > 0) {
		s->fail_countdown--;
		return false;
	}
	s->fail_countdown = -1;
	s->fault_fired = true;
	return true;
}

/* What every step/exec goes through: SQLITE_OK to go on, or the error to
 * report instead of making the call. */
static int call_gate(struct store *s)
{
	/* SQLite ended the caller's transaction after an error: never let a
	 * later call run in autocommit mode as if it were still inside. */
	if (s->tx_open && sqlite3_get_autocommit(s->db)) {
		s->tx_lost = true;
		return SQLITE_ABORT_ROLLBACK;
	}
	if (!fault_now(s))
		return SQLITE_OK;
	if (s->fault_rolls_back) {
		/* as SQLite does after SQLITE_FULL or some I/O errors */
		if (!sqlite3_get_autocommit(s->db))
			sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		return SQLITE_FULL;
	}
	return SQLITE_IOERR;
}

int store_step(struct store *s, sqlite3_stmt *st)
{
	int rc = call_gate(s);

	return rc != SQLITE_OK ? rc : sqlite3_step(st);
}

int store_exec(struct store *s, const char *sql)
{
	int rc = call_gate(s);

	return rc != SQLITE_OK ? rc :
		sqlite3_exec(s->db, sql, NULL, NULL, NULL);
}

int store_exec_nofault(struct store *s, const char *sql)
{
	return sqlite3_exec(s->db, sql, NULL, NULL, NULL);
}

/* ---- statements ----------------------------------------------------- */

sqlite3_stmt *store_stmt(struct store *s, const char *sql,
			  const char **error_r)
{
	sqlite3_stmt *st;
	int i, rc;

	for (i = 0; i < s->ncache; i++)
		if (s->cache[i].sql == sql)
			return s->cache[i].stmt;
	rc = sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT,
				&st, NULL);
	if (rc != SQLITE_OK) {
		store_fail_sqlite(s, error_r, rc, "preparing a statement");
		return NULL;
	}
	if (s->ncache == STORE_STMT_CACHE_MAX) {
		/* The store has a fixed set of statements (about 50); more
		 * than the cache holds is a bug in the store. */
		fputs("ashes: store statement cache full\n", stderr);
		abort();
	}
	s->cache[s->ncache].sql = sql;
	s->cache[s->ncache].stmt = st;
	s->ncache++;
	return st;
}

int store_run(struct store *s, sqlite3_stmt *st, const char *what,
	      const char **error_r)
{
	int rc = store_step(s, st);

	store_stmt_done(st);
	if (rc == SQLITE_DONE)
		return 0;
	return store_fail_sqlite(s, error_r, rc, what);
}

int store_run_insert(struct store *s, sqlite3_stmt *st, const char *what,
		     const char **error_r)
{
	int rc = store_step(s, st);

	store_stmt_done(st);
	if (rc == SQLITE_DONE)
		return 0;
	if (store_rc_is_unique(s, rc))
		return 1;
	return store_fail_sqlite(s, error_r, rc, what);
}

int store_query_int64(struct store *s, sqlite3_stmt *st, int64_t *value_r,
		      const char *what, const char **error_r)
{
	int rc = store_step(s, st);

	if (rc == SQLITE_ROW && value_r != NULL)
		*value_r = sqlite3_column_int64(st, 0);
	store_stmt_done(st);
	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	return store_fail_sqlite(s, error_r, rc, what);
}

int store_collect(struct store *s, sqlite3_stmt *st, size_t elem_size,
		  void (*read_row)(sqlite3_stmt *st, void *elem),
		  void (*clear_row)(void *elem), void *list_r,
		  size_t *count_r, const char *what, const char **error_r)
{
	char *list = NULL;
	size_t n = 0, cap = 0, i;
	int rc;

	while ((rc = store_step(s, st)) == SQLITE_ROW) {
		list = store_array_grow(list, elem_size, n, &cap);
		read_row(st, list + n * elem_size);
		n++;
	}
	store_stmt_done(st);
	if (rc != SQLITE_DONE) {
		for (i = 0; clear_row != NULL && i < n; i++)
			clear_row(list + i * elem_size);
		free(list);
		list = NULL;
		n = 0;
	}
	/* list_r points to a T *; every object pointer has this size and
	 * representation on the platforms SQLite runs on. */
	memcpy(list_r, &list, sizeof(list));
	*count_r = n;
	if (rc != SQLITE_DONE)
		return store_fail_sqlite(s, error_r, rc, what);
	return 0;
}

void store_stmt_done(sqlite3_stmt *st)
{
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
}

int store_bind_text(sqlite3_stmt *st, int i, const char *text)
{
	if (text == NULL)
		return sqlite3_bind_null(st, i);
	return sqlite3_bind_text(st, i, text, -1, SQLITE_TRANSIENT);
}

int store_bind_id(sqlite3_stmt *st, int i, int64_t id)
{
	if (id == 0)
		return sqlite3_bind_null(st, i);
	return sqlite3_bind_int64(st, i, id);
}

char *store_col_strdup(sqlite3_stmt *st, int i)
{
	const unsigned char *t;
	int n;
	char *p;

	if (sqlite3_column_type(st, i) == SQLITE_NULL)
		return NULL;
	t = sqlite3_column_text(st, i);
	n = sqlite3_column_bytes(st, i);
	p = store_xmalloc((size_t)n + 1);
	if (t != NULL)
		memcpy(p, t, (size_t)n);
	p[n] = '\0';
	return p;
}

int64_t store_col_int64(sqlite3_stmt *st, int i)
{
	return sqlite3_column_int64(st, i);
}

int store_fingerprint_normalise(const char *in, char *out, size_t outlen)
{
	size_t n = 0;

	for (; *in != '\0'; in++) {
		char c = *in;

		if (c == ' ' || c == '\t')
			continue;
		if (c >= 'a' && c <= 'f')
			c = (char)(c - 'a' + 'A');
		if (!((c >= '0' && c <= '9') || (c >= 'A' && c <= 'F')))
			return -1;
		if (n + 1 >= outlen)
			return -1;
		out[n++] = c;
	}
	out[n] = '\0';
	return n == 40 || n == 64 ? 0 : -1;
}

/* ---- migrations ----------------------------------------------------- */

/* "NNN-name.sql" -> NNN, or -1 for any other name. */
static int migration_version(const char *name)
{
	size_t n = strlen(name);

	if (n < 9 || name[0] < '0' || name[0] > '9' || name[1] < '0' ||
	    name[1] > '9' || name[2] < '0' || name[2] > '9' ||
	    name[3] != '-' || strcmp(name + n - 4, ".sql") != 0)
		return -1;
	return (name[0] - '0') * 100 + (name[1] - '0') * 10 + (name[2] - '0');
}

static void migrations_free(struct store *s)
{
	int i;

	for (i = 0; i < s->known_version; i++) {
		free(s->migrations[i].name);
		free(s->migrations[i].sql);
	}
	free(s->migrations);
	s->migrations = NULL;
	s->known_version = 0;
}

/* Put one migration in place; the list must end up 1..N without gaps. */
static int migration_add(struct store *s, const char *name, char *sql,
			 size_t *cap, const char *where)
{
	int v = migration_version(name);

	if (v != s->known_version + 1) {
		free(sql);
		snprintf(open_error, sizeof(open_error),
			 "%s: migration %s is out of sequence (expected "
			 "version %03d next)",
			 where, name, s->known_version + 1);
		return -1;
	}
	s->migrations = store_array_grow(s->migrations,
					 sizeof(*s->migrations),
					 (size_t)s->known_version, cap);
	s->migrations[s->known_version].version = v;
	s->migrations[s->known_version].name = store_xstrdup(name);
	s->migrations[s->known_version].sql = sql;
	s->known_version++;
	return 0;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *read_file(const char *path, int *errno_r)
{
	struct buf b = BUF_INIT;
	char chunk[8192];
	size_t n;
	FILE *f = fopen(path, "r");

	if (f == NULL) {
		*errno_r = errno;
		return NULL;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_append(&b, chunk, n);
	if (ferror(f)) {
		*errno_r = EIO;
		fclose(f);
		buf_free(&b);
		return NULL;
	}
	fclose(f);
	buf_puts(&b, "");
	return buf_steal(&b);
}

/* Load dir/NNN-*.sql.  0 with known_version possibly 0 if the directory
 * is missing or holds none; -1 (open_error set) if they are unusable. */
static int migrations_load_dir(struct store *s, const char *dir,
			       bool missing_ok)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0, mcap = 0, i;
	int ret = 0;

	if (d == NULL) {
		if (missing_ok && errno == ENOENT)
			return 0;
		snprintf(open_error, sizeof(open_error),
			 "cannot read migrations directory %s: %s", dir,
			 strerror(errno));
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		if (migration_version(de->d_name) < 0)
			continue;
		names = store_array_grow(names, sizeof(*names), n, &cap);
		names[n++] = store_xstrdup(de->d_name);
	}
	closedir(d);
	if (n > 1)
		qsort(names, n, sizeof(*names), name_cmp);
	for (i = 0; i < n && ret == 0; i++) {
		struct buf path = BUF_INIT;
		int err = 0;
		char *sql;

		buf_printf(&path, "%s/%s", dir, names[i]);
		sql = read_file(buf_str(&path), &err);
		if (sql == NULL) {
			snprintf(open_error, sizeof(open_error),
				 "cannot read %s: %s", buf_str(&path),
				 strerror(err));
			ret = -1;
		} else {
			ret = migration_add(s, names[i], sql, &mcap, dir);
		}
		buf_free(&path);
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	if (ret == 0 && missing_ok && n == 0)
		return 0;
	if (ret == 0 && n == 0) {
		snprintf(open_error, sizeof(open_error),
			 "no migrations (NNN-name.sql) in %s", dir);
		ret = -1;
	}
	if (ret < 0)
		migrations_free(s);
	else
		s->sql_source = store_xstrdup(dir);
	return ret;
}

static int migrations_load_embedded(struct store *s)
{
	size_t i, cap = 0;

	for (i = 0; i < store_sql_embedded_count; i++) {
		if (migration_add(s, store_sql_embedded[i].name,
				  store_xstrdup(store_sql_embedded[i].sql),
				  &cap, "(embedded)") < 0) {
			migrations_free(s);
			return -1;
		}
	}
	s->sql_source = store_xstrdup("(embedded)");
	return 0;
}

static int migrations_load(struct store *s, const char *sql_dir)
{
	if (sql_dir != NULL)
		return migrations_load_dir(s, sql_dir, false);
	if (migrations_load_dir(s, ASHES_DATADIR "/sql", true) < 0)
		return -1;
	/* An uninstalled build newer than what is installed brings newer
	 * migrations than the installed ones: the newer set wins. */
	if (s->known_version >= (int)store_sql_embedded_count)
		return 0;
	migrations_free(s);
	free(s->sql_source);
	s->sql_source = NULL;
	return migrations_load_embedded(s);
}

const char *store_sql_source(const struct store *store)
{
	return store->sql_source;
}

static int user_version(struct store *s, int *version_r,
			const char **error_r)
{
	static const char sql[] = "PRAGMA user_version";
	sqlite3_stmt *st = store_stmt(s, sql, error_r);
	int64_t v = 0;

	if (st == NULL || store_query_int64(s, st, &v,
					    "reading the schema version",
					    error_r) < 0)
		return -1;
	*version_r = (int)v;
	return 0;
}

int store_schema_version(struct store *store, int *current_r, int *known_r,
			 const char **error_r)
{
	int v;

	store_ok(store);
	if (user_version(store, &v, error_r) < 0)
		return -1;
	if (current_r != NULL)
		*current_r = v;
	if (known_r != NULL)
		*known_r = store->known_version;
	return 0;
}

static int too_new(struct store *s, int current, const char **error_r)
{
	return store_fail(s, error_r, STORE_ERROR_SCHEMA,
			  "%s: database schema version %d is newer than this "
			  "ashesd (knows %d): upgrade ashesd",
			  s->path, current, s->known_version);
}

/* Apply one migration in its own transaction.  Foreign keys are off while
 * it runs (SQLite's way to rebuild a table) and checked before commit. */
static int migrate_one(struct store *s, const struct store_migration *m,
		       const char **error_r)
{
	sqlite3_stmt *fk = NULL;
	char pragma[64];
	int current, rc, ret = -1;

	rc = store_exec(s, "PRAGMA foreign_keys = OFF");
	if (rc != SQLITE_OK)
		return store_fail_sqlite(s, error_r, rc,
					 "turning foreign keys off");
	if (store_begin(s, error_r) < 0)
		goto out;
	/* Another process may have migrated while we waited for the lock. */
	if (user_version(s, &current, error_r) < 0)
		goto out;
	if (current >= m->version) {
		ret = store_commit(s, error_r);
		goto out;
	}
	rc = store_exec(s, m->sql);
	if (rc != SQLITE_OK) {
		struct buf what = BUF_INIT;

		buf_printf(&what, "migration %s", m->name);
		store_fail_sqlite(s, error_r, rc, buf_str(&what));
		buf_free(&what);
		goto out;
	}
	rc = sqlite3_prepare_v2(s->db, "PRAGMA foreign_key_check", -1, &fk,
				NULL);
	if (rc != SQLITE_OK) {
		store_fail_sqlite(s, error_r, rc, "foreign key check");
		goto out;
	}
	rc = store_step(s, fk);
	if (rc == SQLITE_ROW) {
		store_fail(s, error_r, STORE_ERROR_SCHEMA,
			   "migration %s leaves a row of table %s breaking "
			   "a foreign key",
			   m->name, sqlite3_column_text(fk, 0));
		goto out;
	} else if (rc != SQLITE_DONE) {
		store_fail_sqlite(s, error_r, rc, "foreign key check");
		goto out;
	}
	snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d",
		 m->version);
	rc = store_exec(s, pragma);
	if (rc != SQLITE_OK) {
		store_fail_sqlite(s, error_r, rc, "setting the schema version");
		goto out;
	}
	ret = store_commit(s, error_r);
out:
	sqlite3_finalize(fk);
	if (ret < 0)
		store_rollback(s);
	store_exec_nofault(s, "PRAGMA foreign_keys = ON");
	return ret;
}

int store_migrate(struct store *store, int target_version,
		  const char **error_r)
{
	int current, v;

	store_ok(store);
	if (store_in_transaction(store))
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "cannot migrate inside a transaction");
	if (target_version < 0)
		target_version = store->known_version;
	if (target_version > store->known_version)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "schema version %d unknown (this ashesd "
				  "knows %d)",
				  target_version, store->known_version);
	if (user_version(store, &current, error_r) < 0)
		return -1;
	if (current > store->known_version)
		return too_new(store, current, error_r);
	if (target_version < current)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "database schema version %d is newer than "
				  "the target %d: migrations only go up",
				  current, target_version);
	for (v = current + 1; v <= target_version; v++)
		if (migrate_one(store, &store->migrations[v - 1], error_r) < 0)
			return -1;
	return 0;
}

/* ---- open / close --------------------------------------------------- */

static int open_fail(struct store **sp, const char **error_r)
{
	struct store *s = *sp;

	if (s->error[0] != '\0')
		snprintf(open_error, sizeof(open_error), "%s", s->error);
	store_close(sp);
	if (error_r != NULL)
		*error_r = open_error;
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
	open_error[0] = '\0';
	malloc_keep_heap();
	if (options == NULL)
		options = &defaults;
	s = store_xmalloc(sizeof(*s));
	s->path = store_xstrdup(path);
	s->fail_countdown = -1;
	s->busy_timeout_ms = options->busy_timeout_ms > 0 ?
		options->busy_timeout_ms : STORE_DEFAULT_BUSY_TIMEOUT_MS;
	s->begin_retries = options->begin_retries == 0 ?
		STORE_DEFAULT_BEGIN_RETRIES :
		options->begin_retries < 0 ? 0 : options->begin_retries;

	if (migrations_load(s, options->sql_dir) < 0)
		return open_fail(&s, error_r);

	rc = sqlite3_open_v2(path, &s->db,
			     SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
			     SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK) {
		snprintf(open_error, sizeof(open_error), "%s: %s", path,
			 s->db != NULL ? sqlite3_errmsg(s->db) :
			 sqlite3_errstr(rc));
		return open_fail(&s, error_r);
	}
	sqlite3_extended_result_codes(s->db, 1);
	sqlite3_busy_timeout(s->db, s->busy_timeout_ms);

	/* WAL: readers (ashes CLI) never block the daemon's writes. */
	rc = sqlite3_prepare_v2(s->db, "PRAGMA journal_mode = WAL", -1, &st,
				NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	mode = rc == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0) :
		NULL;
	if (mode == NULL || strcmp(mode, "wal") != 0) {
		snprintf(open_error, sizeof(open_error),
			 "%s: cannot switch to WAL mode: %s", path,
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
		snprintf(open_error, sizeof(open_error), "%s: %s", path,
			 sqlite3_errmsg(s->db));
		return open_fail(&s, error_r);
	}

	if (user_version(s, &current, NULL) < 0)
		return open_fail(&s, error_r);
	if (current > s->known_version) {
		too_new(s, current, NULL);
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
	migrations_free(s);
	free(s->sql_source);
	free(s->path);
	free(s);
	*store = NULL;
}

/* ---- transactions --------------------------------------------------- */

bool store_in_transaction(const struct store *store)
{
	return store->tx_open;
}

int store_begin(struct store *store, const char **error_r)
{
	int attempt, rc = SQLITE_OK;

	store_ok(store);
	if (store_in_transaction(store))
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "a transaction is already open");
	/* Each try waits up to the busy timeout inside SQLite. */
	for (attempt = 0; attempt <= store->begin_retries; attempt++) {
		rc = store_exec(store, "BEGIN IMMEDIATE");
		if (rc == SQLITE_OK) {
			store->savepoint_depth = 0;
			store->tx_open = true;
			return 0;
		}
		if ((rc & 0xff) != SQLITE_BUSY || store->fault_fired)
			break;
	}
	return store_fail_sqlite(store, error_r, rc, "starting a transaction");
}

int store_commit(struct store *store, const char **error_r)
{
	int attempt, rc = SQLITE_OK;

	store_ok(store);
	if (!store_in_transaction(store))
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "no transaction is open (it may have been "
				  "rolled back by an earlier error)");
	for (attempt = 0; attempt <= store->begin_retries; attempt++) {
		rc = store_exec(store, "COMMIT");
		if (rc == SQLITE_OK) {
			store->savepoint_depth = 0;
			store->tx_open = false;
			return 0;
		}
		if ((rc & 0xff) != SQLITE_BUSY || store->fault_fired)
			break;
	}
	store_fail_sqlite(store, error_r, rc, "committing");
	store_rollback(store);
	return -1;
}

void store_rollback(struct store *store)
{
	if (store->db != NULL && !sqlite3_get_autocommit(store->db))
		store_exec_nofault(store, "ROLLBACK");
	store->tx_open = false;
	store->savepoint_depth = 0;
}

#define ATOMIC_MAX_DEPTH 16

int store_savepoint(struct store *store, const char **error_r)
{
	store_ok(store);
	if (!store_in_transaction(store))
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "a savepoint needs an open transaction");
	return store_atomic_begin(store, error_r);
}

int store_savepoint_end(struct store *store, bool ok, const char **error_r)
{
	return store_atomic_end(store, ok, error_r);
}

int store_atomic_begin(struct store *s, const char **error_r)
{
	int rc;

	if (s->savepoint_depth >= ATOMIC_MAX_DEPTH)
		return store_fail(s, error_r, STORE_ERROR_USAGE,
				  "store calls nested too deeply");
	if (!store_in_transaction(s)) {
		if (store_begin(s, error_r) < 0)
			return -1;
		s->atomic_owns |= 1u << s->savepoint_depth;
	} else {
		rc = store_exec(s, "SAVEPOINT store_atomic");
		if (rc != SQLITE_OK)
			return store_fail_sqlite(s, error_r, rc,
						 "starting a savepoint");
		s->atomic_owns &= ~(1u << s->savepoint_depth);
	}
	s->savepoint_depth++;
	return 0;
}

int store_atomic_end(struct store *s, bool ok, const char **error_r)
{
	bool owns;
	int rc;

	if (s->savepoint_depth == 0) {
		/* The transaction was ended under us (an error SQLite
		 * answered with a rollback of its own). */
		return ok ? store_fail(s, error_r, STORE_ERROR_IO,
				       "transaction lost") : -1;
	}
	s->savepoint_depth--;
	owns = s->atomic_owns & (1u << s->savepoint_depth);
	if (owns) {
		int depth = s->savepoint_depth;

		if (!ok) {
			store_rollback(s);
			return -1;
		}
		/* store_commit resets the depth; keep ours. */
		rc = store_commit(s, error_r);
		s->savepoint_depth = depth;
		return rc;
	}
	if (ok) {
		rc = store_exec(s, "RELEASE store_atomic");
		if (rc == SQLITE_OK)
			return 0;
		store_fail_sqlite(s, error_r, rc, "releasing a savepoint");
	}
	store_exec_nofault(s, "ROLLBACK TO store_atomic");
	store_exec_nofault(s, "RELEASE store_atomic");
	return -1;
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
	if (user_version(store, &v, error_r) < 0)
		return -1;
	r = store_xmalloc(sizeof(*r));
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
