/* test_store_rating.c -- the rest of sql/009: ratings and their changes
 * with exact doubles, what is refused (a value not finite before any
 * SQL), the rated games in the order applied, forgetting the ratings;
 * the service's named values (the clock's heartbeat among them); and the
 * migration of a version-8 database with a row in every table. */
#include "store_fixture.h"

#include <math.h>

/* A game of white and black with `status`, last updated at `updated`. */
#define make_game(white, black, status, updated) \
	add_game("size=5", white, black, white, status, updated)

/* ---- ratings ------------------------------------------------------------ */

START_TEST(test_ratings)
{
	int64_t a = add_player("alice", 1), b = add_player("bob", 2);
	int64_t c = add_player("carol", 3);
	struct store_rating r = { 0 }, back, *list = NULL;
	size_t n = 99;

	memset(&back, 0x55, sizeof(back));
	ck_assert_int_eq(store_rating_get(st, a, &back, &err), 0);
	ck_assert_int_eq(back.player_id, a);
	ck_assert(back.r == 0 && back.rd == 0 && back.vol == 0);
	ck_assert_int_eq(back.games, 0);
	ck_assert_int_eq(back.last_played, 0);
	ck_assert(!back.last_lost_on_time);

	/* doubles come back bit for bit */
	r.player_id = a;
	r.r = 1500.0 + 1.0 / 3.0;
	r.rd = 0.1 + 0.2;
	r.vol = 5e-324; /* the least positive double */
	r.games = 7;
	r.last_played = 12345;
	r.last_lost_on_time = true;
	ck_assert_int_eq(store_rating_set(st, &r, &err), 0);
	ck_assert_int_eq(store_rating_get(st, a, &back, &err), 1);
	ck_assert(memcmp(&back.r, &r.r, sizeof(double)) == 0);
	ck_assert(memcmp(&back.rd, &r.rd, sizeof(double)) == 0);
	ck_assert(memcmp(&back.vol, &r.vol, sizeof(double)) == 0);
	ck_assert_int_eq(back.player_id, a);
	ck_assert_int_eq(back.games, 7);
	ck_assert_int_eq(back.last_played, 12345);
	ck_assert(back.last_lost_on_time);

	/* written again: replaced */
	r.r = -2.5e10;
	r.rd = 350;
	r.vol = 0.06;
	r.games = 8;
	r.last_played = 0;
	r.last_lost_on_time = false;
	ck_assert_int_eq(store_rating_set(st, &r, &err), 0);
	ck_assert_int_eq(store_rating_get(st, a, &back, &err), 1);
	ck_assert(back.r == -2.5e10 && back.rd == 350 && back.vol == 0.06);
	ck_assert_int_eq(back.games, 8);
	ck_assert_int_eq(back.last_played, 0);
	ck_assert(!back.last_lost_on_time);
	ck_assert_int_eq(count("ratings"), 1);

	/* listed best first, ties by player id */
	r.player_id = c;
	r.r = 1600;
	ck_assert_int_eq(store_rating_set(st, &r, &err), 0);
	r.player_id = b;
	ck_assert_int_eq(store_rating_set(st, &r, &err), 0);
	ck_assert_int_eq(store_ratings(st, &list, &n, &err), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert_int_eq(list[0].player_id, b);
	ck_assert_int_eq(list[1].player_id, c);
	ck_assert_int_eq(list[2].player_id, a);
	ck_assert(list[1].r == 1600 && list[1].vol == 0.06);
	free(list);
}
END_TEST

START_TEST(test_rating_refused)
{
	int64_t a = add_player("alice", 1);
	struct store_rating r = { 0 }, ok = { 0 };
	double bad[] = { NAN, INFINITY, -INFINITY };
	long steps = store_debug_step_count(st);
	size_t i;

	ok.player_id = a;
	ok.r = 1500;
	ok.rd = 350;
	ok.vol = 0.06;
	/* not finite: refused before any SQL (SQLite would make a NaN a
	 * NULL) */
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		r = ok;
		r.r = bad[i];
		ck_usage(store_rating_set(st, &r, &err));
		ck_assert_ptr_nonnull(strstr(err, "not finite"));
		r = ok;
		r.rd = bad[i];
		ck_usage(store_rating_set(st, &r, &err));
		r = ok;
		r.vol = bad[i];
		ck_usage(store_rating_set(st, &r, &err));
	}
	ck_assert_int_eq(store_debug_step_count(st), steps);
	r = ok;
	r.rd = 0;
	ck_usage(store_rating_set(st, &r, &err));
	r = ok;
	r.vol = -0.06;
	ck_usage(store_rating_set(st, &r, &err));
	r = ok;
	r.games = -1;
	ck_usage(store_rating_set(st, &r, &err));
	r = ok;
	r.player_id = a + 10;
	ck_usage(store_rating_set(st, &r, &err));
	ck_assert_ptr_nonnull(strstr(err, "no player"));
	ck_assert_int_eq(count("ratings"), 0);

	/* the schema's own checks: 9e999 is SQLite's infinity */
	ck_assert_int_eq(store_rating_set(st, &ok, &err), 0);
	ck_schema_refuses("UPDATE ratings SET r = 9e999");
	ck_schema_refuses("UPDATE ratings SET r = -9e999");
	ck_schema_refuses("UPDATE ratings SET rd = 0");
	ck_schema_refuses("UPDATE ratings SET vol = 9e999");
	ck_schema_refuses("UPDATE ratings SET games = -1");
	ck_schema_refuses("UPDATE ratings SET r = 'high'");
	ck_schema_takes("UPDATE ratings SET "
			"r = -1.7976931348623157e308");
}
END_TEST

START_TEST(test_rating_changes)
{
	int64_t a = add_player("alice", 1), b = add_player("bob", 2);
	int64_t g = make_game(a, b, STORE_GAME_FINISHED, 10);
	int64_t h = make_game(a, b, STORE_GAME_FINISHED, 10);
	struct store_rating_change c = {
		.game_id = g, .player_id = b, .at = 500,
		.r_before = 1500, .rd_before = 350, .vol_before = 0.06,
		.r_after = 1662.3108939112807, .rd_after = 290.31896,
		.vol_after = 0.059999,
	};
	struct store_rating_change *list = NULL;
	size_t n = 99;
	long steps;

	ck_assert_int_eq(store_rating_changes(st, g, &list, &n, &err), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_ptr_null(list);

	ck_assert_int_eq(store_rating_change_add(st, &c, &err), 0);
	c.player_id = a;
	c.r_after = 1337.6891060887193;
	ck_assert_int_eq(store_rating_change_add(st, &c, &err), 0);
	/* once per game and player */
	c.r_after = 1;
	ck_assert_int_eq(store_rating_change_add(st, &c, &err), 1);
	c.game_id = h;
	ck_assert_int_eq(store_rating_change_add(st, &c, &err), 0);

	ck_assert_int_eq(store_rating_changes(st, g, &list, &n, &err), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(list[0].player_id, a);
	ck_assert_int_eq(list[0].game_id, g);
	ck_assert(list[0].r_after == 1337.6891060887193);
	ck_assert(list[0].r_before == 1500 && list[0].rd_before == 350 &&
		  list[0].vol_before == 0.06);
	ck_assert(list[0].rd_after == 290.31896 &&
		  list[0].vol_after == 0.059999);
	ck_assert_int_eq(list[0].at, 500);
	ck_assert_int_eq(list[1].player_id, b);
	ck_assert(list[1].r_after == 1662.3108939112807);
	free(list);

	/* refused: a value not finite or a deviation not above 0, before
	 * or after; no game, no player */
	c.game_id = g + 10;
	c.player_id = b;
	c.r_after = 1500;
	ck_usage(store_rating_change_add(st, &c, &err));
	ck_assert_ptr_nonnull(strstr(err, "no game"));
	c.game_id = 0;
	ck_usage(store_rating_change_add(st, &c, &err));
	c.game_id = h;
	c.player_id = b + 10;
	ck_usage(store_rating_change_add(st, &c, &err));
	ck_assert_ptr_nonnull(strstr(err, "no player"));
	c.player_id = 0;
	ck_usage(store_rating_change_add(st, &c, &err));
	c.player_id = b;
	steps = store_debug_step_count(st);
	c.r_before = NAN;
	ck_usage(store_rating_change_add(st, &c, &err));
	c.r_before = 1500;
	c.vol_after = INFINITY;
	ck_usage(store_rating_change_add(st, &c, &err));
	ck_assert_int_eq(store_debug_step_count(st), steps);
	c.vol_after = 0.06;
	c.rd_after = 0;
	ck_usage(store_rating_change_add(st, &c, &err));
	ck_assert_int_eq(count("rating_changes"), 3);
	c.rd_after = 300;
	ck_assert_int_eq(store_rating_change_add(st, &c, &err), 0);

	/* the schema's own checks; a game's changes go with it */
	ck_schema_refuses("UPDATE rating_changes SET rd_after = -1");
	ck_schema_refuses("UPDATE rating_changes SET r_after = 9e999");
	ck_schema_takes("DELETE FROM games WHERE id = 1");
	ck_assert_int_eq(count("rating_changes"), 2);
}
END_TEST

START_TEST(test_rated_games_and_clear)
{
	int64_t a = add_player("alice", 1), b = add_player("bob", 2);
	/* five finished club games; g[2] not rated, g[3] never applied */
	static const bool rated[] = { true, true, false, true, true };
	int64_t g[5];
	struct store_rating r = { 0 };
	struct store_rating_change c = { 0 };
	int64_t *ids = NULL;
	size_t n = 99;

	for (size_t k = 0; k < 5; k++)
		g[k] = make_game(a, b, STORE_GAME_FINISHED, 10);
	for (size_t k = 0; k < 5; k++)
		link_game(g[k], "main", 0, 0, rated[k]);
	ck_assert_int_eq(store_rated_games(st, &ids, &n, &err), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_ptr_null(ids);

	/* in the order applied, then by id */
	ck_assert_int_eq(store_game_club_applied(st, g[4], 100, &err), 0);
	ck_assert_int_eq(store_game_club_applied(st, g[1], 200, &err), 0);
	ck_assert_int_eq(store_game_club_applied(st, g[0], 200, &err), 0);
	ck_assert_int_eq(store_game_club_applied(st, g[2], 50, &err), 0);
	ck_assert_int_eq(store_rated_games(st, &ids, &n, &err), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert_int_eq(ids[0], g[4]);
	ck_assert_int_eq(ids[1], g[0]);
	ck_assert_int_eq(ids[2], g[1]);
	free(ids);

	/* clear: ratings and their history gone, the games still rated */
	r.player_id = a;
	r.r = 1500;
	r.rd = 350;
	r.vol = 0.06;
	ck_assert_int_eq(store_rating_set(st, &r, &err), 0);
	r.player_id = b;
	ck_assert_int_eq(store_rating_set(st, &r, &err), 0);
	c.game_id = g[4];
	c.player_id = a;
	c.r_before = c.r_after = 1500;
	c.rd_before = c.rd_after = 350;
	c.vol_before = c.vol_after = 0.06;
	ck_assert_int_eq(store_rating_change_add(st, &c, &err), 0);

	/* rolled back: nothing forgotten */
	ck_assert_int_eq(store_begin(st, &err), 0);
	ck_assert_int_eq(store_ratings_clear(st, &err), 0);
	store_rollback(st);
	ck_assert_int_eq(count("ratings"), 2);
	ck_assert_int_eq(count("rating_changes"), 1);

	ck_assert_int_eq(store_ratings_clear(st, &err), 0);
	ck_assert_int_eq(count("ratings"), 0);
	ck_assert_int_eq(count("rating_changes"), 0);
	ck_assert_int_eq(store_rating_get(st, a, &r, &err), 0);
	ck_assert_int_eq(store_rated_games(st, &ids, &n, &err), 0);
	ck_assert_uint_eq(n, 3);
	free(ids);
	/* and a recomputation can record the same changes again */
	ck_assert_int_eq(store_rating_change_add(st, &c, &err), 0);
}
END_TEST

/* ---- the service's own small state -------------------------------------- */

START_TEST(test_state)
{
	int64_t v = -1;
	char key[40];
	static const char *const bad[] = {
		"", "Standings", "standings-mail", "a b", "x.y",
	};
	size_t i;

	ck_assert_int_eq(store_state_get(st, "standings_mail", &v, &err), 0);
	ck_assert_int_eq(v, 0);
	ck_assert_int_eq(store_state_set(st, "standings_mail", 1000, &err), 0);
	ck_assert_int_eq(store_state_set(st, "x9", -7, &err), 0);
	ck_assert_int_eq(store_state_get(st, "standings_mail", &v, &err), 1);
	ck_assert_int_eq(v, 1000);
	ck_assert_int_eq(store_state_set(st, "standings_mail", 900, &err), 0);
	ck_assert_int_eq(store_state_get(st, "standings_mail", &v, &err), 1);
	ck_assert_int_eq(v, 900);
	ck_assert_int_eq(store_state_get(st, "x9", &v, &err), 1);
	ck_assert_int_eq(v, -7);
	ck_assert_int_eq(count("server_state"), 2);

	/* the clock's heartbeat is one of them */
	ck_assert_int_eq(store_clock_heartbeat_set(st, 4242, &err), 0);
	ck_assert_int_eq(store_state_get(st, "clock_heartbeat", &v, &err), 1);
	ck_assert_int_eq(v, 4242);
	ck_assert_int_eq(store_state_set(st, "clock_heartbeat", 4300, &err), 0);
	ck_assert_int_eq(store_clock_heartbeat_get(st, &v, &err), 1);
	ck_assert_int_eq(v, 4300);

	/* names: 1-32 bytes of [a-z0-9_] */
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_usage(store_state_set(st, bad[i], 1, &err));
		ck_usage(store_state_get(st, bad[i], &v, &err));
	}
	ck_usage(store_state_set(st, NULL, 1, &err));
	memset(key, 'k', sizeof(key));
	key[33] = '\0';
	ck_usage(store_state_set(st, key, 1, &err));
	ck_assert_int_eq(count("server_state"), 3);
	key[32] = '\0';
	ck_assert_int_eq(store_state_set(st, key, 1, &err), 0);
	ck_assert_int_eq(store_state_get(st, key, &v, &err), 1);
	ck_assert_int_eq(v, 1);
}
END_TEST

/* ---- the migration from version 8 --------------------------------------- */

/* The rows of a query on a new connection, as text. */
static void rows_text(struct buf *b, const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *q;
	int i;

	ck_assert_int_eq(sqlite3_open_v2(test_db, &db, SQLITE_OPEN_READONLY,
					 NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_prepare_v2(db, sql, -1, &q, NULL), SQLITE_OK);
	while (sqlite3_step(q) == SQLITE_ROW) {
		for (i = 0; i < sqlite3_column_count(q); i++) {
			const unsigned char *t = sqlite3_column_text(q, i);

			buf_printf(b, "%s|", t ? (const char *)t : "NULL");
		}
		buf_putc(b, '\n');
	}
	sqlite3_finalize(q);
	sqlite3_close(db);
}

/* One query per table of the database as it is now, selecting the
 * columns it has now ("SELECT c1, c2 FROM t ORDER BY 1, 2"), one a line;
 * asserts that every table has a row. */
static char *table_queries(void)
{
	struct buf b = BUF_INIT;

	rows_text(&b, "SELECT 'SELECT ' || (SELECT group_concat(name, ', ') "
		  "FROM pragma_table_info(s.name)) || ' FROM ' || s.name || "
		  "' ORDER BY 1, 2' FROM sqlite_schema s WHERE s.type = "
		  "'table' AND s.name NOT LIKE 'sqlite%' ORDER BY s.name");
	return buf_steal(&b);
}

/* The rows of every query of table_queries(). */
static char *old_rows(const char *queries)
{
	struct buf b = BUF_INIT;
	char *copy = strdup(queries), *line, *save = NULL;

	for (line = strtok_r(copy, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		char *bar = strrchr(line, '|'), *from, countq[128];

		*bar = '\0';
		from = strstr(line, " FROM ") + 6;
		snprintf(countq, sizeof(countq), "SELECT count(*) FROM %.*s",
			 (int)strcspn(from, " "), from);
		ck_assert_msg(test_query_int(test_db, countq) > 0, "%s",
			      countq);
		buf_printf(&b, "[%s]\n", line);
		rows_text(&b, line);
	}
	free(copy);
	return buf_steal(&b);
}

START_TEST(test_migration_from_8)
{
	struct store_options o = test_options();
	struct store_check_report *r = NULL;
	struct store_settings set;
	struct store_game_club gc = { 0 };
	struct store_rating rating = { 0 };
	char *queries, *before, *after;
	int64_t v = 0;

	store_close(&st);
	test_dir_remove();
	test_dir_make();
	test_db_at_version(test_db, 8);
	test_exec(test_db,
		"INSERT INTO players (id, name, created) VALUES"
		" (1, 'alice', 1), (2, 'bob', 2);"
		"INSERT INTO player_addresses (player_id, address, created,"
		" failing, failing_since, failing_reason) VALUES"
		" (1, 'alice@example.org', 1, 1, 5, '550 gone');"
		"INSERT INTO player_keys (fingerprint, player_id, created,"
		" revoked) VALUES (printf('%.40c', 'A'), 1, 1, 9);"
		"INSERT INTO inbound (id, message_id, sha256, raw, received,"
		" source, sender_address, player_id, outcome) VALUES"
		" (1, '<m1@x>', printf('%.64c', 'a'), X'6869', 3, 'imap',"
		" 'alice@example.org', 1, 'ok');"
		"INSERT INTO games (id, variant, challenger_id, white_id,"
		" black_id, status, ply, created, updated, clock_settings,"
		" clock_side, remind_at, flag_fell_at, thread_message_id)"
		" VALUES (1, 'size=5', 1, 1, 2, 'finished', 1, 10, 20, '3d',"
		" 1, 30, 40, 'root@x');"
		"INSERT INTO moves (game_id, ply, move, player_id, played_at,"
		" inbound_id) VALUES (1, 1, 'a1', 1, 11, 1);"
		"INSERT INTO signatures (content_sha256, fingerprint,"
		" signature_created, inbound_id, recorded) VALUES"
		" (printf('%.64c', 'b'), printf('%.40c', 'A'), 3, 1, 4);"
		"INSERT INTO observers (game_id, player_id, created)"
		" VALUES (1, 2, 12);"
		"INSERT INTO outbox (recipient, message_id, headers, body,"
		" game_id, inbound_id, created, next_attempt_at) VALUES"
		" ('bob@example.org', '<o1@x>', 'Subject: x', 'body', 1, 1,"
		" 13, 14);"
		"INSERT INTO mailbox_state VALUES ('imap', 7, 99, 15);"
		"INSERT INTO rate_limits VALUES ('alice@example.org', 16, 3);"
		"INSERT INTO address_claims VALUES (2, 'bob@example.org',"
		" 'abcdef', 17);"
		"INSERT INTO mail_attempts VALUES ('imap', 7, 98, 2, 'busy',"
		" 18);"
		"INSERT INTO player_settings (player_id, confirm, pictures,"
		" moves, digest, reminders, timezone, updated) VALUES"
		" (1, 0, 'svg', 'full', 1, 0, 'Europe/Berlin', 19);"
		"INSERT INTO digest_items VALUES (2, 1, 0, 20);"
		"INSERT INTO game_messages (game_id, ply, player_id, text,"
		" inbound_id, created) VALUES (1, 1, 1, 'gg', 1, 21);"
		"INSERT INTO vacations (player_id, from_at, to_at, days,"
		" inbound_id, created) VALUES (1, 100, 200, 1, 1, 22);"
		"INSERT INTO player_clock VALUES (1, 14, 23, 24);"
		"INSERT INTO clock_events (game_id, at, kind, player_id,"
		" seconds, note, inbound_id) VALUES (1, 25, 'adjust', 1, 60,"
		" 'why', 1);"
		"INSERT INTO server_state VALUES ('clock_heartbeat', 26);");
	ck_assert_int_eq(test_query_int(test_db, "PRAGMA user_version"), 8);
	queries = table_queries();
	before = old_rows(queries); /* a row in every table, too */

	o.no_migrate = true;
	st = test_open_at(test_db, &o);
	ck_assert_int_eq(store_migrate(st, 9, &err), 0);
	ck_assert_int_eq(test_query_int(test_db, "PRAGMA user_version"), 9);
	after = old_rows(queries);
	ck_assert_str_eq(before, after);
	/* the new column holds its default; the new tables are there */
	ck_assert_int_eq(test_query_int(test_db, "SELECT count(*) FROM "
			 "player_settings WHERE standings = 1"), 1);
	ck_assert_int_eq(test_query_int(test_db, "SELECT count(*) FROM "
			 "sqlite_schema WHERE type = 'table' AND name IN "
			 "('ladder_events', 'game_club', 'league_seasons', "
			 "'league_members', 'ratings', 'rating_changes')"), 6);
	ck_assert_int_eq(test_query_int(test_db, "SELECT count(*) FROM "
			 "pragma_foreign_key_check"), 0);

	/* the store reads the old rows and writes the new tables (at the
	 * newest schema: its queries are that schema's) */
	ck_assert_int_eq(store_migrate(st, -1, &err), 0);
	ck_assert_int_eq(store_settings_get(st, 1, &set, &err), 0);
	ck_assert(set.standings && !set.reminders && set.digest);
	ck_assert_str_eq(set.timezone, "Europe/Berlin");
	ck_assert_int_eq(store_clock_heartbeat_get(st, &v, &err), 1);
	ck_assert_int_eq(v, 26);
	gc.game_id = 1;
	gc.ladder = "main";
	gc.rated = true;
	ck_assert_int_eq(store_game_club_set(st, &gc, &err), 0);
	rating.player_id = 2;
	rating.r = 1500;
	rating.rd = 350;
	rating.vol = 0.06;
	ck_assert_int_eq(store_rating_set(st, &rating, &err), 0);

	ck_assert_int_eq(store_migrate(st, -1, &err), 0);
	ck_assert_int_eq(store_check(st, &r, &err), 0);
	ck_assert_msg(r->ok, "%s", r->text);
	store_check_report_free(&r);
	free(queries);
	free(before);
	free(after);
}
END_TEST

TEST_MAIN("store_rating", "rating", setup, teardown, 0, test_ratings,
	  test_rating_refused, test_rating_changes, test_rated_games_and_clear,
	  test_state, test_migration_from_8)
