/* test_store_upgrade.c -- a club's database of every earlier schema
 * version, full of data, upgraded and played on.
 *
 * For each version V from 1 to the latest but one (the versions are the
 * migrations compiled in, store_sql_embedded; none is named here): a
 * database made by migrations 1..V alone (store_migrate), every table
 * of version V filled by the rules of upgrade_rules.h, then opened the
 * way ashesd opens it (which migrates it to the latest).  It must pass
 * store_check (`ashes db check`), keep every table's row count and every
 * rule's meaning, take the rows of the tables and columns newer than V,
 * and play on: two moves of game 1 through the service (each answered by
 * the opponent's conditional moves) and a resignation, stored as the
 * service stores them.  Also: every table of the latest schema has a
 * rule, and every WITHOUT ROWID table declares its key columns first
 * (sql/NNN-league-members-key-first.sql says why). */
/* The two harnesses, the service's and the store's, each name a global
 * what the other names a local (st, err): harmless here. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wshadow"
#include "../server/server_test.h"
#include "store_test.h"
#pragma GCC diagnostic pop

#include "store/store_private.h"
#include "upgrade_rules.h"

#define NRULES (sizeof(upgrade_rules) / sizeof(upgrade_rules[0]))

/* The latest schema version: the migrations compiled in. */
static int latest(void)
{
	return (int)store_sql_embedded_count;
}

static bool rule_applies(const struct upgrade_rule *r, int version)
{
	return r->since <= version && (r->until == 0 || version <= r->until);
}

static sqlite3 *raw_open(const char *path)
{
	sqlite3 *db;

	ck_assert_int_eq(sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE,
					 NULL), SQLITE_OK);
	sqlite3_busy_timeout(db, 5000);
	ck_assert_int_eq(sqlite3_exec(db, "PRAGMA foreign_keys = ON", NULL,
				      NULL, NULL), SQLITE_OK);
	return db;
}

static long long raw_int(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *q;
	long long v;

	ck_assert_msg(sqlite3_prepare_v2(db, sql, -1, &q, NULL) == SQLITE_OK,
		      "%s: %s", sql, sqlite3_errmsg(db));
	ck_assert_msg(sqlite3_step(q) == SQLITE_ROW, "%s: %s", sql,
		      sqlite3_errmsg(db));
	v = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	return v;
}

/* Put the rows of rule r into db (at schema version `version`). */
static void rule_insert(sqlite3 *db, const struct upgrade_rule *r,
			int version)
{
	char *msg = NULL;

	if (sqlite3_exec(db, r->insert, NULL, NULL, &msg) != SQLITE_OK)
		ck_abort_msg("schema version %d: the rows of %s (since %d) do "
			     "not go in: %s", version, r->table, r->since,
			     msg);
}

static void rule_check(sqlite3 *db, const struct upgrade_rule *r,
		       int version, const char *when)
{
	ck_assert_msg(raw_int(db, r->check) == 1,
		      "from version %d, %s: the rows of %s (since %d) lost "
		      "their meaning: %s", version, when, r->table, r->since,
		      r->check);
}

/* The tables of a database, by name (not SQLite's own), and their row
 * counts. */
#define TABLES_MAX 128
struct tables {
	char name[TABLES_MAX][64];
	long long rows[TABLES_MAX];
	size_t n;
};

static void tables_of(sqlite3 *db, struct tables *t)
{
	sqlite3_stmt *q;

	memset(t, 0, sizeof(*t));
	ck_assert_int_eq(sqlite3_prepare_v2(db,
		"SELECT name FROM sqlite_schema WHERE type = 'table' AND "
		"name NOT LIKE 'sqlite_%' ORDER BY name", -1, &q, NULL),
		SQLITE_OK);
	while (sqlite3_step(q) == SQLITE_ROW) {
		char sql[128];

		ck_assert_uint_lt(t->n, TABLES_MAX);
		snprintf(t->name[t->n], sizeof(t->name[0]), "%s",
			 sqlite3_column_text(q, 0));
		snprintf(sql, sizeof(sql), "SELECT count(*) FROM \"%s\"",
			 t->name[t->n]);
		t->rows[t->n] = raw_int(db, sql);
		t->n++;
	}
	sqlite3_finalize(q);
}

static void check_ok(struct store *s, int version, const char *when)
{
	struct store_check_report *r = NULL;

	ck_assert_int_eq(store_check(s, &r, &err), 0);
	ck_assert_msg(r->ok, "from version %d, %s: store_check:\n%s",
		      version, when, r->text);
	store_check_report_free(&r);
}

/* A database at version v with every rule of v's rows in it; the row
 * count of each of its tables into *t. */
static void make_old(const char *path, int v, struct tables *t)
{
	struct store_options o = test_options();
	struct store *s;
	sqlite3 *db;
	size_t i;

	/* what an older ashesd left: how it reached the disk is not what
	 * is tested, so without waiting for each commit to be synced */
	o.no_migrate = true;
	o.synchronous_normal = true;
	s = test_open_at(path, &o);
	ck_assert_msg(store_migrate(s, v, &err) == 0, "%s", err);
	store_close(&s);
	db = raw_open(path);
	ck_assert_int_eq(sqlite3_exec(db, "PRAGMA synchronous = NORMAL", NULL,
				      NULL, NULL), SQLITE_OK);
	ck_assert_int_eq(raw_int(db, "PRAGMA user_version"), v);
	ck_assert_int_eq(sqlite3_exec(db, "BEGIN", NULL, NULL, NULL),
			 SQLITE_OK);
	for (i = 0; i < NRULES; i++)
		if (rule_applies(&upgrade_rules[i], v))
			rule_insert(db, &upgrade_rules[i], v);
	ck_assert_int_eq(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL),
			 SQLITE_OK);
	ck_assert_int_eq(raw_int(db, "SELECT count(*) FROM "
				 "pragma_foreign_key_check"), 0);
	tables_of(db, t);
	for (i = 0; i < t->n; i++)
		ck_assert_msg(t->rows[i] > 0, "schema version %d: table %s "
			      "has no rows: give it a rule in "
			      "tests/store/upgrade_rules.h", v, t->name[i]);
	sqlite3_close(db);
}

/* What the store API reads of the upgraded data (from version v). */
static void check_api(int v)
{
	struct store_player *p = NULL;
	struct core_record rec;
	const char *error;

	ck_assert_int_eq(store_player_by_name(st, "Alice", &p, &error), 1);
	ck_assert_int_eq(p->id, 1);
	ck_assert_uint_eq(p->n_fingerprints, 1);
	ck_assert_str_eq(p->fingerprints[0], U_ALICE_FP);
	ck_assert_uint_eq(p->n_addresses, 1);
	ck_assert_str_eq(p->addresses[0].address, "alice@example.org");
	store_player_free(&p);
	ck_assert_int_eq(store_player_by_fingerprint(st, U_BOB_FP, &p,
						     &error), 1);
	ck_assert_str_eq(p->name, "bob");
	store_player_free(&p);
	ck_assert_int_eq(store_player_by_address(st, "DAVE@example.com", &p,
						 &error), 1);
	ck_assert_str_eq(p->name, "dave");
	ck_assert(p->addresses[0].failing);
	store_player_free(&p);

	/* game 1 stands where its six plies left it, white to move */
	position_of(1, &rec);
	ck_assert_int_eq(rec.pos.ply, 6);
	ck_assert_int_eq(rec.pos.to_move, CORE_WHITE);
	ck_assert_int_eq(rec.pos.result, CORE_ONGOING);
	record_free(&rec);
	position_of(2, &rec);
	ck_assert_int_eq(rec.pos.ply, 4);
	record_free(&rec);
	ck_assert_int_eq(status_of(2), STORE_GAME_FINISHED);

	/* a mail queued before the envelope (003) is read from its header
	 * block */
	if (v < 3) {
		struct store_outbox_msg *m = NULL;
		size_t n = 0, i;
		bool found = false;

		ck_assert_int_eq(store_outbox_list(st, STORE_OUTBOX_PENDING, 0,
						   0, &m, &n, &error), 0);
		for (i = 0; i < n; i++) {
			if (m[i].id != 2)
				continue;
			found = true;
			ck_assert_int_eq(m[i].version, 1);
			ck_assert_str_eq(m[i].subject, "Game 1: your move");
			ck_assert_int_eq(m[i].kind, STORE_OUTBOX_KIND_YOUR_MOVE);
			ck_assert(!m[i].auto_reply);
			ck_assert_int_eq(m[i].game_id, 1);
		}
		ck_assert(found);
		store_outbox_msgs_free(&m, n);
	}
}

/* fp (of address from) sends body, which the service takes. */
static void says(int v, const char *fp, const char *from, const char *body)
{
	struct server_outcome out = send_as(fp, from, NULL, body);

	ck_assert_msg(out.status == SERVER_OK, "from version %d: \"%s\": %s",
		      v, body, out.outcome);
}

/* Game 1 played on through the service: alice's two moves, each
 * answered by bob's conditional moves (sql/013), then bob resigns. */
static void play_on(int v)
{
	struct server_config cfg;
	struct store_game *g = NULL;
	char **moves = NULL;
	size_t n = 0;
	const char *error;

	ts = test_templates(NULL);
	test_config(&cfg, ts);
	server_restart(&cfg);

	says(v, ALICE_FP, ALICE, "move 1 7 " U_GAME1_ON_WHITE1);
	ck_assert_int_eq(ply_of(1), 8);
	says(v, ALICE_FP, ALICE, "move 1 9 " U_GAME1_ON_WHITE2);
	ck_assert_int_eq(ply_of(1), 10);
	ck_assert_int_eq(test_query_int(test_db, "SELECT count(*) FROM "
		"conditional_plies WHERE game_id = 1 AND ply IN (8, 10) AND "
		"base_ply = 6"), 2);
	says(v, BOB_FP, BOB, "resign 1");

	ck_assert_int_eq(store_game_load(st, 1, &g, &error), 1);
	ck_assert_int_eq(g->status, STORE_GAME_FINISHED);
	ck_assert_str_eq(g->result, "1-0");
	ck_assert_str_eq(g->end_reason, "resignation");
	store_game_free(&g);
	ck_assert_int_eq(store_game_moves(st, 1, &moves, &n, &error), 0);
	ck_assert_uint_eq(n, 10);
	ck_assert_str_eq(moves[6], U_GAME1_ON_WHITE1);
	ck_assert_str_eq(moves[7], U_GAME1_ON_BLACK1);
	ck_assert_str_eq(moves[8], U_GAME1_ON_WHITE2);
	ck_assert_str_eq(moves[9], U_GAME1_ON_BLACK2);
	store_strings_free(&moves);
	/* each new ply has its record line, the tree is gone with the game,
	 * and bob and alice were told */
	ck_assert_int_eq(test_query_int(test_db, "SELECT count(*) FROM "
		"ply_records WHERE game_id = 1 AND ply > 6"), 4);
	ck_assert_int_eq(test_query_int(test_db, "SELECT count(*) FROM "
		"conditional_trees WHERE game_id = 1"), 0);
	ck_assert_int_ge(test_query_int(test_db, "SELECT count(*) FROM "
		"outbox WHERE game_id = 1 AND kind = 'result' AND recipient IN "
		"('alice@example.org', 'bob@example.net')"), 2);
	check_ok(st, v, "after playing on");

	server_free(&srv);
	template_set_free(&ts);
}

START_TEST(test_upgrade_from_every_version)
{
	int v = _i;
	struct tables before, after;
	struct store_options o = test_options();
	sqlite3 *db;
	size_t i, k;
	int cur = 0, known = 0;

	snprintf(test_db, sizeof(test_db), "%s/v%d.db", test_dir, v);
	make_old(test_db, v, &before);

	/* opened the way ashesd opens it: migrated to the latest */
	st = test_open_at(test_db, &o);
	ck_assert_int_eq(store_schema_version(st, &cur, &known, &err), 0);
	ck_assert_int_eq(known, latest());
	ck_assert_int_eq(cur, latest());
	check_ok(st, v, "upgraded");

	db = raw_open(test_db);
	tables_of(db, &after);
	for (i = 0; i < before.n; i++) {
		for (k = 0; k < after.n; k++)
			if (strcmp(after.name[k], before.name[i]) == 0)
				break;
		ck_assert_msg(k < after.n, "from version %d: table %s is gone",
			      v, before.name[i]);
		ck_assert_msg(after.rows[k] == before.rows[i],
			      "from version %d: table %s had %lld rows, now "
			      "%lld", v, before.name[i], before.rows[i],
			      after.rows[k]);
	}
	for (i = 0; i < NRULES; i++)
		if (rule_applies(&upgrade_rules[i], v))
			rule_check(db, &upgrade_rules[i], v, "upgraded");
	/* the rows newer than v go into the upgraded database as they go
	 * into a new one */
	for (i = 0; i < NRULES; i++)
		if (upgrade_rules[i].since > v && upgrade_rules[i].until == 0)
			rule_insert(db, &upgrade_rules[i], latest());
	for (i = 0; i < NRULES; i++)
		if (upgrade_rules[i].since > v && upgrade_rules[i].until == 0)
			rule_check(db, &upgrade_rules[i], v, "newer rows");
	sqlite3_close(db);
	check_ok(st, v, "with the newer rows");

	check_api(v);
	play_on(v);
	store_close(&st);
}
END_TEST

/* Every table of the latest schema has a rule, and every rule names a
 * table of it: a migration cannot forget its rows. */
START_TEST(test_every_table_has_a_rule)
{
	struct store *s = test_open();
	struct tables t;
	sqlite3 *db;
	size_t i, k;

	store_close(&s);
	db = raw_open(test_db);
	tables_of(db, &t);
	sqlite3_close(db);
	ck_assert_uint_gt(t.n, 0);
	for (i = 0; i < t.n; i++) {
		for (k = 0; k < NRULES; k++)
			if (strcmp(upgrade_rules[k].table, t.name[i]) == 0)
				break;
		ck_assert_msg(k < NRULES, "table %s of the latest schema has "
			      "no rule in tests/store/upgrade_rules.h: the "
			      "migration that made it must add one",
			      t.name[i]);
	}
	for (k = 0; k < NRULES; k++) {
		for (i = 0; i < t.n; i++)
			if (strcmp(upgrade_rules[k].table, t.name[i]) == 0)
				break;
		ck_assert_msg(i < t.n, "a rule names table %s, which the "
			      "latest schema lacks", upgrade_rules[k].table);
		ck_assert_int_ge(upgrade_rules[k].since, 1);
		ck_assert_int_le(upgrade_rules[k].since, latest());
		ck_assert(upgrade_rules[k].until == 0 ||
			  upgrade_rules[k].until >= upgrade_rules[k].since);
	}
}
END_TEST

/* A WITHOUT ROWID table stores its key columns first; declared anywhere
 * else, SQLite 3.40's integrity_check misreads them as NULL
 * (sql/NNN-league-members-key-first.sql).
 * So every such table declares them first, in the key's order. */
START_TEST(test_without_rowid_keys_first)
{
	struct store *s = test_open();
	sqlite3 *db;
	sqlite3_stmt *q;
	int n = 0;

	store_close(&s);
	db = raw_open(test_db);
	ck_assert_int_eq(sqlite3_prepare_v2(db,
		"SELECT t.name, (SELECT count(*) FROM pragma_table_info(t.name)"
		" AS c WHERE c.pk > 0 AND c.cid <> c.pk - 1) FROM "
		"pragma_table_list AS t WHERE t.schema = 'main' AND t.wr = 1",
		-1, &q, NULL), SQLITE_OK);
	while (sqlite3_step(q) == SQLITE_ROW) {
		ck_assert_msg(sqlite3_column_int(q, 1) == 0,
			      "WITHOUT ROWID table %s declares its key "
			      "columns elsewhere than first",
			      sqlite3_column_text(q, 0));
		n++;
	}
	sqlite3_finalize(q);
	sqlite3_close(db);
	ck_assert_int_gt(n, 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("store-upgrade");
	TCase *tc = suite_add_tests(s, "rules", dir_setup, dir_teardown, 0,
				    TESTS(test_every_table_has_a_rule,
					  test_without_rowid_keys_first));

	(void)tc;
	tc = tcase_create("upgrade");
	tcase_add_checked_fixture(tc, dir_setup, dir_teardown);
	tcase_add_loop_test(tc, test_upgrade_from_every_version, 1, latest());
	suite_add_tcase(s, tc);
	return test_run(s);
}
