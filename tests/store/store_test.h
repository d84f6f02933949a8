/* store_test.h -- helpers shared by the store tests: a temp directory per
 * test, opening a store on the source tree's sql/, fake digests, and a
 * dump of the whole database through a second connection (what another
 * process would see) to prove that a failed transaction left nothing. */
#ifndef ASHES_TESTS_STORE_TEST_H
#define ASHES_TESTS_STORE_TEST_H

#include <check.h>
#include <dirent.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/store.h"
#include "util/buf.h"
#include "../check_run.h"

static char test_dir[256];
static char test_db[300];
static char test_sql_dir[512];

static inline void test_dir_make(void)
{
	const char *src = getenv("ASHES_SRCDIR");

	snprintf(test_dir, sizeof(test_dir), "/tmp/ashes-store-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(test_dir));
	snprintf(test_db, sizeof(test_db), "%s/test.db", test_dir);
	snprintf(test_sql_dir, sizeof(test_sql_dir), "%s/sql",
		 src != NULL ? src : ".");
}

/* Remove everything in dir (one level of subdirectories), then dir. */
static inline void test_rm_rf(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	struct buf path = BUF_INIT;

	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		buf_reset(&path);
		buf_printf(&path, "%s/%s", dir, de->d_name);
		if (de->d_type == DT_DIR)
			test_rm_rf(buf_str(&path));
		else
			unlink(buf_str(&path));
	}
	buf_free(&path);
	closedir(d);
	rmdir(dir);
}

static inline void test_dir_remove(void)
{
	test_rm_rf(test_dir);
}

static inline struct store_options test_options(void)
{
	struct store_options o = { 0 };

	o.sql_dir = test_sql_dir;
	return o;
}

static inline struct store *test_open_at(const char *path,
					 const struct store_options *o)
{
	struct store *s = NULL;
	const char *error = NULL;

	if (store_open(path, o, &s, &error) < 0)
		ck_abort_msg("store_open %s: %s", path, error);
	return s;
}

static inline struct store *test_open(void)
{
	struct store_options o = test_options();

	return test_open_at(test_db, &o);
}

/* A distinct, valid sha256 hex text for n. */
static inline void test_sha(char out[65], unsigned n)
{
	int i;

	for (i = 0; i < 8; i++)
		snprintf(out + i * 8, 9, "%08x", n * 2654435761u + (unsigned)i);
}

/* A distinct 40-digit fingerprint for n. */
static inline void test_fpr(char out[41], unsigned n)
{
	int i;

	for (i = 0; i < 5; i++)
		snprintf(out + i * 8, 9, "%08X", n * 40503u + (unsigned)i);
}

/* Every row of every table, through a new connection, as text. */
static inline char *test_dump(const char *path)
{
	struct buf b = BUF_INIT;
	sqlite3 *db;
	sqlite3_stmt *tables, *rows;
	int i;

	ck_assert_int_eq(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY,
					 NULL), SQLITE_OK);
	sqlite3_busy_timeout(db, 5000);
	ck_assert_int_eq(sqlite3_prepare_v2(db,
		"SELECT name FROM sqlite_schema WHERE type = 'table' "
		"ORDER BY name", -1, &tables, NULL), SQLITE_OK);
	while (sqlite3_step(tables) == SQLITE_ROW) {
		char sql[256];

		snprintf(sql, sizeof(sql), "SELECT * FROM \"%s\" ORDER BY 1",
			 sqlite3_column_text(tables, 0));
		buf_printf(&b, "[%s]\n", sqlite3_column_text(tables, 0));
		ck_assert_int_eq(sqlite3_prepare_v2(db, sql, -1, &rows, NULL),
				 SQLITE_OK);
		while (sqlite3_step(rows) == SQLITE_ROW) {
			for (i = 0; i < sqlite3_column_count(rows); i++) {
				const unsigned char *t =
					sqlite3_column_text(rows, i);
				buf_printf(&b, "%s|", t ? (const char *)t :
					   "NULL");
			}
			buf_putc(&b, '\n');
		}
		sqlite3_finalize(rows);
	}
	sqlite3_finalize(tables);
	buf_printf(&b, "user_version ");
	ck_assert_int_eq(sqlite3_prepare_v2(db, "PRAGMA user_version", -1,
					    &rows, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(rows), SQLITE_ROW);
	buf_printf(&b, "%d\n", sqlite3_column_int(rows, 0));
	sqlite3_finalize(rows);
	sqlite3_close(db);
	return buf_steal(&b);
}

/* One integer from a query on a new connection. */
static inline long long test_query_int(const char *path, const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	long long v;

	ck_assert_int_eq(sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE,
					 NULL), SQLITE_OK);
	sqlite3_busy_timeout(db, 5000);
	ck_assert_int_eq(sqlite3_prepare_v2(db, sql, -1, &st, NULL),
			 SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return v;
}

/* The fixture of a test that opens its stores itself: a temp directory
 * of its own, no error yet. */
static const char *err;

static inline void dir_setup(void)
{
	test_dir_make();
	err = NULL;
}

static inline void dir_teardown(void)
{
	test_dir_remove();
}

/* A database at path at schema version `version` (older than this
 * tree's), closed: what an older ashesd left. */
static inline void test_db_at_version(const char *path, int version)
{
	struct store_options o = test_options();
	struct store *s;

	o.no_migrate = true;
	s = test_open_at(path, &o);
	ck_assert_int_eq(store_migrate(s, version, &err), 0);
	store_close(&s);
}

/* Run SQL on a new connection (to set up states the API refuses to). */
static inline void test_exec(const char *path, const char *sql)
{
	sqlite3 *db;
	char *msg = NULL;

	ck_assert_int_eq(sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE |
					 SQLITE_OPEN_CREATE, NULL), SQLITE_OK);
	sqlite3_busy_timeout(db, 5000);
	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK)
		ck_abort_msg("%s: %s", sql, msg);
	sqlite3_close(db);
}

#endif
