/* store_migrate.c -- the schema migrations (sql/NNN-name.sql): finding
 * them (a directory or the copy embedded at build time), the schema
 * version, and applying them; see store.h. */
#include "store/store_private.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"

#ifndef ASHES_DATADIR
#define ASHES_DATADIR "/usr/local/share/ashesd"
#endif

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

void store_migrations_free(struct store *s)
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
		return store_open_fail("%s: migration %s is out of sequence "
				       "(expected version %03d next)",
				       where, name, s->known_version + 1);
	}
	s->migrations = store_array_grow(s->migrations,
					 sizeof(*s->migrations),
					 (size_t)s->known_version, cap);
	s->migrations[s->known_version].version = v;
	s->migrations[s->known_version].name = xstrdup(name);
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
 * is missing or holds none; -1 (store_open_fail) if they are unusable. */
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
		return store_open_fail("cannot read migrations directory "
				       "%s: %s", dir, strerror(errno));
	}
	while ((de = readdir(d)) != NULL) {
		if (migration_version(de->d_name) < 0)
			continue;
		names = store_array_grow(names, sizeof(*names), n, &cap);
		names[n++] = xstrdup(de->d_name);
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
			ret = store_open_fail("cannot read %s: %s",
					      buf_str(&path), strerror(err));
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
		ret = store_open_fail("no migrations (NNN-name.sql) in %s",
				      dir);
	}
	if (ret < 0)
		store_migrations_free(s);
	else
		s->sql_source = xstrdup(dir);
	return ret;
}

static int migrations_load_embedded(struct store *s)
{
	size_t i, cap = 0;

	for (i = 0; i < store_sql_embedded_count; i++) {
		if (migration_add(s, store_sql_embedded[i].name,
				  xstrdup(store_sql_embedded[i].sql),
				  &cap, "(embedded)") < 0) {
			store_migrations_free(s);
			return -1;
		}
	}
	s->sql_source = xstrdup("(embedded)");
	return 0;
}

int store_migrations_load(struct store *s, const char *sql_dir)
{
	if (sql_dir != NULL)
		return migrations_load_dir(s, sql_dir, false);
	if (migrations_load_dir(s, ASHES_DATADIR "/sql", true) < 0)
		return -1;
	/* An uninstalled build newer than what is installed brings newer
	 * migrations than the installed ones: the newer set wins. */
	if (s->known_version >= (int)store_sql_embedded_count)
		return 0;
	store_migrations_free(s);
	free(s->sql_source);
	s->sql_source = NULL;
	return migrations_load_embedded(s);
}

const char *store_sql_source(const struct store *store)
{
	return store->sql_source;
}

int store_user_version(struct store *s, int *version_r,
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
	if (store_user_version(store, &v, error_r) < 0)
		return -1;
	if (current_r != NULL)
		*current_r = v;
	if (known_r != NULL)
		*known_r = store->known_version;
	return 0;
}

int store_fail_too_new(struct store *s, int current, const char **error_r)
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
	if (store_user_version(s, &current, error_r) < 0)
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
	if (store_user_version(store, &current, error_r) < 0)
		return -1;
	if (current > store->known_version)
		return store_fail_too_new(store, current, error_r);
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

