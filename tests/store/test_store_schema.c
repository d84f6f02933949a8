/* test_store_schema.c -- migrations: from an empty file and from every
 * earlier schema version, an old database upgraded in place, a newer one
 * refused, a failing migration leaving nothing, the embedded copy matching
 * sql/, and store_check. */
#include "store_test.h"

#include <sys/stat.h>

#include "store/store_private.h"

/* How many NNN-*.sql files the source tree has: what the program must
 * know. */
static int count_sql_files(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d)) != NULL) {
		size_t len = strlen(de->d_name);

		if (len > 8 && de->d_name[3] == '-' &&
		    strcmp(de->d_name + len - 4, ".sql") == 0)
			n++;
	}
	closedir(d);
	return n;
}

static struct store *open_no_migrate(const char *path, const char *sql_dir)
{
	struct store_options o = test_options();

	o.no_migrate = true;
	if (sql_dir != NULL)
		o.sql_dir = sql_dir;
	return test_open_at(path, &o);
}

static int version_of(struct store *s)
{
	int cur = -1, known = -1;

	ck_assert_int_eq(store_schema_version(s, &cur, &known, &err), 0);
	return cur;
}

START_TEST(test_fresh_database)
{
	struct store *s = test_open();
	int cur = -1, known = -1;

	ck_assert_int_eq(store_schema_version(s, &cur, &known, &err), 0);
	ck_assert_int_eq(known, count_sql_files(test_sql_dir));
	ck_assert_int_ge(known, 1);
	ck_assert_int_eq(cur, known);
	ck_assert_str_eq(store_sql_source(s), test_sql_dir);
	store_close(&s);
	/* WAL mode sticks to the file; foreign keys are on per connection */
	ck_assert_int_eq(test_query_int(test_db, "SELECT journal_mode = 'wal' "
					"FROM pragma_journal_mode"), 1);
	/* every table is STRICT */
	ck_assert_int_eq(test_query_int(test_db,
		"SELECT count(*) FROM pragma_table_list WHERE schema = 'main' "
		"AND name NOT LIKE 'sqlite_%' AND strict = 0"), 0);
	ck_assert_int_ge(test_query_int(test_db,
		"SELECT count(*) FROM pragma_table_list WHERE schema = 'main' "
		"AND name NOT LIKE 'sqlite_%' AND strict = 1"), 10);
	/* opening again changes nothing */
	s = test_open();
	ck_assert_int_eq(version_of(s), known);
	store_close(&s);
}
END_TEST

START_TEST(test_every_earlier_version_upgrades)
{
	int known = count_sql_files(test_sql_dir), k, v;

	/* Build a database at each version k by applying 1..k, put a row in
	 * it where the schema allows, then open it normally: it must end at
	 * the latest version with the data intact and check clean. */
	for (k = 0; k < known; k++) {
		char path[400];
		struct store *s;
		struct store_check_report *r = NULL;

		snprintf(path, sizeof(path), "%s/v%d.db", test_dir, k);
		s = open_no_migrate(path, NULL);
		ck_assert_int_eq(version_of(s), 0);
		for (v = 1; v <= k; v++) {
			ck_assert_int_eq(store_migrate(s, v, &err), 0);
			ck_assert_int_eq(version_of(s), v);
		}
		if (k >= 1)
			ck_assert_int_eq(store_player_add(s, "Old", NULL, NULL,
							  1, NULL, &err), 0);
		ck_assert_int_eq(store_check(s, &r, &err), 0);
		ck_assert(!r->ok); /* older than the program */
		ck_assert_ptr_nonnull(strstr(r->text, "ashes db migrate"));
		store_check_report_free(&r);
		store_close(&s);

		{
			struct store_options o = test_options();

			s = test_open_at(path, &o);
		}
		ck_assert_int_eq(version_of(s), known);
		ck_assert_int_eq(store_check(s, &r, &err), 0);
		ck_assert_msg(r->ok, "%s", r->text);
		store_check_report_free(&r);
		if (k >= 1) {
			struct store_player *p = NULL;

			ck_assert_int_eq(store_player_by_name(s, "old", &p,
							      &err), 1);
			store_player_free(&p);
		}
		store_close(&s);
	}
}
END_TEST

/* Copy the real migrations into dir and add one of the test's own (a
 * later version), to prove an old database upgrades in place. */
static void make_sql_dir(const char *dir, int extra_version,
			 const char *extra_sql)
{
	DIR *d = opendir(test_sql_dir);
	struct dirent *de;

	ck_assert_int_eq(mkdir(dir, 0700), 0);
	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d)) != NULL) {
		char from[1024], to[1024], chunk[4096];
		FILE *in, *out;
		size_t n;

		if (strstr(de->d_name, ".sql") == NULL)
			continue;
		snprintf(from, sizeof(from), "%s/%s", test_sql_dir,
			 de->d_name);
		snprintf(to, sizeof(to), "%s/%s", dir, de->d_name);
		in = fopen(from, "r");
		out = fopen(to, "w");
		ck_assert(in != NULL && out != NULL);
		while ((n = fread(chunk, 1, sizeof(chunk), in)) > 0)
			fwrite(chunk, 1, n, out);
		fclose(in);
		fclose(out);
	}
	closedir(d);
	if (extra_sql != NULL) {
		char path[1024];
		FILE *f;

		snprintf(path, sizeof(path), "%s/%03d-test-extra.sql", dir,
			 extra_version);
		f = fopen(path, "w");
		ck_assert_ptr_nonnull(f);
		fputs(extra_sql, f);
		fclose(f);
	}
}

START_TEST(test_old_database_upgrades_in_place)
{
	int known = count_sql_files(test_sql_dir);
	struct store_options o = test_options();
	struct store *s = test_open();
	struct store_player *p = NULL;
	char dir[400];
	int64_t id;

	ck_assert_int_eq(store_player_add(s, "Alice", "a@example.org", NULL,
					  5, &id, &err), 0);
	store_close(&s);
	snprintf(dir, sizeof(dir), "%s/sql-next", test_dir);
	/* a realistic next migration: rebuild a table (the foreign keys are
	 * off while it runs, and checked before it commits) */
	make_sql_dir(dir, known + 1,
		"CREATE TABLE players_new (\n"
		"	id INTEGER PRIMARY KEY,\n"
		"	name TEXT NOT NULL COLLATE NOCASE UNIQUE,\n"
		"	created INTEGER NOT NULL,\n"
		"	locale TEXT NOT NULL DEFAULT 'en'\n"
		") STRICT;\n"
		"INSERT INTO players_new (id, name, created)\n"
		"	SELECT id, name, created FROM players;\n"
		"DROP TABLE players;\n"
		"ALTER TABLE players_new RENAME TO players;\n");
	o.sql_dir = dir;
	s = test_open_at(test_db, &o);
	ck_assert_int_eq(version_of(s), known + 1);
	ck_assert_int_eq(store_player_by_address(s, "a@example.org", &p, &err),
			 1);
	ck_assert_int_eq(p->id, id);
	ck_assert_str_eq(p->name, "Alice");
	store_player_free(&p);
	store_close(&s);
	ck_assert_int_eq(test_query_int(test_db,
		"SELECT count(*) FROM players WHERE locale = 'en'"), 1);

	/* and the program that knows only the older schema now refuses it */
	{
		struct store_options plain = test_options();
		struct store *s2 = NULL;
		char want[200];

		ck_assert_int_eq(store_open(test_db, &plain, &s2, &err), -1);
		ck_assert_ptr_null(s2);
		snprintf(want, sizeof(want),
			 "database schema version %d is newer than this "
			 "ashesd (knows %d): upgrade ashesd",
			 known + 1, known);
		ck_assert_msg(strstr(err, want) != NULL, "%s", err);
	}
}
END_TEST

START_TEST(test_newer_database_refused)
{
	int known = count_sql_files(test_sql_dir);
	struct store_options o = test_options();
	struct store *s = test_open();
	char sql[64], want[512];
	char *before, *after;

	store_close(&s);
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", known + 6);
	test_exec(test_db, sql);
	before = test_dump(test_db);
	ck_assert_int_eq(store_open(test_db, &o, &s, &err), -1);
	ck_assert_ptr_null(s);
	snprintf(want, sizeof(want),
		 "%s: database schema version %d is newer than this ashesd "
		 "(knows %d): upgrade ashesd",
		 test_db, known + 6, known);
	ck_assert_str_eq(err, want);
	/* even when asked not to migrate */
	o.no_migrate = true;
	ck_assert_int_eq(store_open(test_db, &o, &s, &err), -1);
	ck_assert_str_eq(err, want);
	after = test_dump(test_db);
	ck_assert_str_eq(before, after);
	free(before);
	free(after);
}
END_TEST

START_TEST(test_migrate_bad_targets)
{
	int known = count_sql_files(test_sql_dir);
	struct store *s = test_open();

	ck_assert_int_eq(store_migrate(s, known + 1, &err), -1);
	ck_assert_int_eq(store_error_kind(s), STORE_ERROR_USAGE);
	ck_assert_int_eq(store_migrate(s, known - 1, &err), -1);
	ck_assert_ptr_nonnull(strstr(err, "only go up"));
	ck_assert_int_eq(store_migrate(s, known, &err), 0); /* no-op */
	ck_assert_int_eq(store_migrate(s, -1, &err), 0);
	ck_assert_int_eq(store_begin(s, &err), 0);
	ck_assert_int_eq(store_migrate(s, -1, &err), -1);
	ck_assert_ptr_nonnull(strstr(err, "transaction"));
	store_rollback(s);
	store_close(&s);
}
END_TEST

/* A store of one player (email may be NULL), dumped into *before when
 * before is not NULL, then opened with migration sql after the known
 * ones, from test_dir/sub: the open must fail with want in its error.
 * Returns how many migrations the store knew. */
static int migration_refused(const char *email, char **before,
			     const char *sub, const char *sql,
			     const char *want)
{
	int known = count_sql_files(test_sql_dir);
	struct store_options o = test_options();
	struct store *s;
	char dir[400];

	s = test_open();
	ck_assert_int_eq(store_player_add(s, "Alice", email, NULL, 5, NULL,
					  &err), 0);
	store_close(&s);
	if (before != NULL)
		*before = test_dump(test_db);
	snprintf(dir, sizeof(dir), "%s/%s", test_dir, sub);
	make_sql_dir(dir, known + 1, sql);
	o.sql_dir = dir;
	ck_assert_int_eq(store_open(test_db, &o, &s, &err), -1);
	ck_assert_ptr_null(s);
	ck_assert_msg(strstr(err, want) != NULL, "%s", err);
	return known;
}

START_TEST(test_failing_migration_leaves_nothing)
{
	char *before, *after;

	migration_refused(NULL, &before, "sql-bad",
			  "CREATE TABLE half_done (x INTEGER) STRICT;\n"
			  "INSERT INTO players (name, created) VALUES ('Z', 1);\n"
			  "THIS IS NOT SQL;\n", "test-extra.sql");
	after = test_dump(test_db);
	ck_assert_str_eq(before, after);
	free(before);
	free(after);
}
END_TEST

START_TEST(test_migration_breaking_foreign_key_refused)
{
	int known = migration_refused("a@example.org", NULL, "sql-fk",
				      "DELETE FROM players;\n", "foreign key");

	ck_assert_int_eq(test_query_int(test_db, "PRAGMA user_version"),
			 known);
	ck_assert_int_eq(test_query_int(test_db,
					"SELECT count(*) FROM players"), 1);
}
END_TEST

START_TEST(test_bad_sql_dirs)
{
	struct store_options o = test_options();
	struct store *s = NULL;
	char dir[400], path[500];
	FILE *f;

	snprintf(dir, sizeof(dir), "%s/gap", test_dir);
	ck_assert_int_eq(mkdir(dir, 0700), 0);
	o.sql_dir = dir;
	ck_assert_int_eq(store_open(test_db, &o, &s, &err), -1);
	ck_assert_ptr_nonnull(strstr(err, "no migrations"));
	snprintf(path, sizeof(path), "%s/001-a.sql", dir);
	f = fopen(path, "w");
	fputs("CREATE TABLE a (x INTEGER) STRICT;\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/003-c.sql", dir);
	f = fopen(path, "w");
	fputs("CREATE TABLE c (x INTEGER) STRICT;\n", f);
	fclose(f);
	ck_assert_int_eq(store_open(test_db, &o, &s, &err), -1);
	ck_assert_msg(strstr(err, "003-c.sql is out of sequence") != NULL,
		      "%s", err);
	snprintf(dir, sizeof(dir), "%s/missing", test_dir);
	ck_assert_int_eq(store_open(test_db, &o, &s, &err), -1);
	ck_assert_ptr_null(s);
	/* nothing was created by the refused opens */
	ck_assert_int_eq(access(test_db, F_OK), -1);
}
END_TEST

/* The copy compiled into the program must be the files in sql/. */
START_TEST(test_embedded_matches_sql_dir)
{
	size_t i;

	ck_assert_int_eq((int)store_sql_embedded_count,
			 count_sql_files(test_sql_dir));
	for (i = 0; i < store_sql_embedded_count; i++) {
		char path[1024];
		struct buf b = BUF_INIT;
		char chunk[4096];
		size_t n;
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s", test_sql_dir,
			 store_sql_embedded[i].name);
		f = fopen(path, "r");
		ck_assert_msg(f != NULL, "%s", path);
		while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
			buf_append(&b, chunk, n);
		fclose(f);
		ck_assert_str_eq(store_sql_embedded[i].sql, buf_str(&b));
		buf_free(&b);
	}
}
END_TEST

/* Without sql_dir: the installed migrations if they are as new as the
 * embedded copy, else the embedded copy; either way the latest schema. */
START_TEST(test_default_sql_source)
{
	struct store_options o = { 0 };
	struct store *s = test_open_at(test_db, &o);
	int cur = -1, known = -1, installed = 0, v;
	const char *want;
	char path[300];
	DIR *d;

	if ((d = opendir(ASHES_DATADIR "/sql")) != NULL) {
		closedir(d);
		installed = count_sql_files(ASHES_DATADIR "/sql");
	}
	want = installed >= (int)store_sql_embedded_count ?
		ASHES_DATADIR "/sql" : "(embedded)";
	/* the embedded names are the files' names, in order */
	for (v = 1; v <= (int)store_sql_embedded_count; v++) {
		snprintf(path, sizeof(path), "%03d-",  v);
		ck_assert_int_eq(strncmp(store_sql_embedded[v - 1].name, path,
					 4), 0);
	}

	ck_assert_str_eq(store_sql_source(s), want);
	ck_assert_int_eq(store_schema_version(s, &cur, &known, &err), 0);
	ck_assert_int_eq(known, count_sql_files(test_sql_dir));
	ck_assert_int_eq(cur, known);
	store_close(&s);
}
END_TEST

START_TEST(test_open_bad_path)
{
	struct store_options o = test_options();
	struct store *s = NULL;
	char path[400];

	snprintf(path, sizeof(path), "%s/no/such/dir/x.db", test_dir);
	ck_assert_int_eq(store_open(path, &o, &s, &err), -1);
	ck_assert_ptr_null(s);
	ck_assert_ptr_nonnull(strstr(err, path));
	/* a file that is not a database */
	{
		FILE *f = fopen(test_db, "w");

		fputs("this is not an SQLite database, just some text that is "
		      "long enough to fill a header of one hundred bytes or "
		      "so, which SQLite reads first\n", f);
		fclose(f);
	}
	ck_assert_int_eq(store_open(test_db, &o, &s, &err), -1);
	ck_assert_ptr_null(s);
	ck_assert_msg(strstr(err, "not a database") != NULL, "%s", err);
	/* store_close of NULL is harmless */
	store_close(&s);
}
END_TEST

START_TEST(test_check_report)
{
	struct store *s = test_open();
	struct store_check_report *r = NULL;
	int known = count_sql_files(test_sql_dir);

	ck_assert_int_eq(store_check(s, &r, &err), 0);
	ck_assert(r->ok);
	ck_assert_int_eq(r->schema_version, known);
	ck_assert_int_eq(r->known_version, known);
	ck_assert_int_eq(r->integrity_problems, 0);
	ck_assert_int_eq(r->foreign_key_problems, 0);
	ck_assert_ptr_nonnull(strstr(r->text, "ok\n"));
	store_check_report_free(&r);
	ck_assert_ptr_null(r);
	store_close(&s);

	/* a row that breaks a foreign key, written behind the store's back */
	test_exec(test_db, "PRAGMA foreign_keys = OFF; INSERT INTO player_keys "
		  "(fingerprint, player_id, created) "
		  "VALUES ('0123456789ABCDEF0123456789ABCDEF01234567', 99, 1)");
	s = test_open();
	ck_assert_int_eq(store_check(s, &r, &err), 0);
	ck_assert(!r->ok);
	ck_assert_int_eq(r->foreign_key_problems, 1);
	ck_assert_ptr_nonnull(strstr(r->text, "player_keys"));
	store_check_report_free(&r);
	store_close(&s);
}
END_TEST

static Suite *schema_suite(void)
{
	Suite *s = suite_create("store-schema");
	TCase *tc = tcase_create("migrations");

	tcase_add_checked_fixture(tc, dir_setup, dir_teardown);
	tcase_add_test(tc, test_fresh_database);
	tcase_add_test(tc, test_every_earlier_version_upgrades);
	tcase_add_test(tc, test_old_database_upgrades_in_place);
	tcase_add_test(tc, test_newer_database_refused);
	tcase_add_test(tc, test_migrate_bad_targets);
	tcase_add_test(tc, test_failing_migration_leaves_nothing);
	tcase_add_test(tc, test_migration_breaking_foreign_key_refused);
	tcase_add_test(tc, test_bad_sql_dirs);
	tcase_add_test(tc, test_embedded_matches_sql_dir);
	tcase_add_test(tc, test_default_sql_source);
	tcase_add_test(tc, test_open_bad_path);
	tcase_add_test(tc, test_check_report);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run(schema_suite());
}
