/* test_store_settings.c -- the players' settings (sql/005, sql/008,
 * sql/009): defaults when none are stored, set and read back, the keys
 * and words players write (a time zone's name and the standings mail
 * among them), what set refuses and what the schema refuses; and the
 * observers' digest items: noted once per observer and game with the
 * earliest ply, due by the time of the first change, listed and
 * cleared. */
#include "store_fixture.h"

#include "store/store_private.h"

#define make_game(white, black) add_game("size=3 tax=removed", white, black, \
					 white, STORE_GAME_ACTIVE, 10)

START_TEST(test_settings_defaults)
{
	struct store_settings s;
	int64_t a = add_player("alice", 1);

	memset(&s, 0x55, sizeof(s));
	ck_assert_int_eq(store_settings_get(st, a, &s, &err), 0);
	ck_assert(s.confirm);
	ck_assert_int_eq(s.picture, STORE_PICTURE_PNG);
	ck_assert_int_eq(s.moves, STORE_MOVES_SHORT);
	ck_assert(!s.digest);
	ck_assert(s.reminders);
	ck_assert_str_eq(s.timezone, "");
	/* nobody, and a player that does not exist: the defaults too */
	ck_assert_int_eq(store_settings_get(st, 0, &s, &err), 0);
	ck_assert(s.confirm);
	ck_assert_int_eq(store_settings_get(st, 999, &s, &err), 0);
	ck_assert(s.confirm);
	ck_assert_int_eq(count("player_settings"), 0);
}
END_TEST

START_TEST(test_settings_roundtrip)
{
	struct store_settings s, back;
	int64_t a = add_player("alice", 1), b = add_player("bob", 2);

	store_settings_default(&s);
	s.confirm = false;
	s.picture = STORE_PICTURE_SVG;
	s.moves = STORE_MOVES_NONE;
	s.digest = true;
	ck_assert_int_eq(store_settings_set(st, a, &s, 2000, &err), 0);
	ck_assert_int_eq(store_settings_get(st, a, &back, &err), 0);
	ck_assert(!back.confirm);
	ck_assert_int_eq(back.picture, STORE_PICTURE_SVG);
	ck_assert_int_eq(back.moves, STORE_MOVES_NONE);
	ck_assert(back.digest);
	/* the words are stored as players write them */
	ck_assert_int_eq(test_query_int(test_db, "SELECT count(*) FROM "
			 "player_settings WHERE pictures = 'svg' AND "
			 "moves = 'none' AND confirm = 0 AND digest = 1 AND "
			 "updated = 2000"), 1);

	/* set again: replaced, one row */
	s.picture = STORE_PICTURE_NONE;
	s.moves = STORE_MOVES_FULL;
	s.confirm = true;
	ck_assert_int_eq(store_settings_set(st, a, &s, 2100, &err), 0);
	ck_assert_int_eq(store_settings_get(st, a, &back, &err), 0);
	ck_assert(back.confirm);
	ck_assert_int_eq(back.picture, STORE_PICTURE_NONE);
	ck_assert_int_eq(back.moves, STORE_MOVES_FULL);
	ck_assert_int_eq(count("player_settings"), 1);

	/* bob still has the defaults */
	ck_assert_int_eq(store_settings_get(st, b, &back, &err), 0);
	ck_assert(back.confirm && !back.digest);
	ck_assert_int_eq(back.moves, STORE_MOVES_SHORT);
	ck_assert(back.reminders);
	ck_assert_str_eq(back.timezone, "");
}
END_TEST

START_TEST(test_settings_clock_keys)
{
	struct store_settings s, back;
	int64_t a = add_player("alice", 1);

	store_settings_default(&s);
	s.reminders = false;
	strcpy(s.timezone, "America/Argentina/Buenos_Aires");
	ck_assert_int_eq(store_settings_set(st, a, &s, 2000, &err), 0);
	memset(&back, 0x55, sizeof(back));
	ck_assert_int_eq(store_settings_get(st, a, &back, &err), 0);
	ck_assert(!back.reminders);
	ck_assert_str_eq(back.timezone, "America/Argentina/Buenos_Aires");
	ck_assert(back.confirm);
	ck_assert_int_eq(test_query_int(test_db, "SELECT count(*) FROM "
			 "player_settings WHERE reminders = 0 AND timezone = "
			 "'America/Argentina/Buenos_Aires'"), 1);

	/* back to UTC and reminders on */
	s.reminders = true;
	s.timezone[0] = '\0';
	ck_assert_int_eq(store_settings_set(st, a, &s, 2100, &err), 0);
	ck_assert_int_eq(store_settings_get(st, a, &back, &err), 0);
	ck_assert(back.reminders);
	ck_assert_str_eq(back.timezone, "");
	ck_assert_int_eq(test_query_int(test_db, "SELECT count(*) FROM "
			 "player_settings WHERE reminders = 1 AND "
			 "timezone = ''"), 1);

	/* the longest name there is room for */
	memset(s.timezone, 'Z', STORE_TIMEZONE_MAX - 1);
	s.timezone[STORE_TIMEZONE_MAX - 1] = '\0';
	ck_assert_int_eq(store_settings_set(st, a, &s, 2200, &err), 0);
	ck_assert_int_eq(store_settings_get(st, a, &back, &err), 0);
	ck_assert_str_eq(back.timezone, s.timezone);
}
END_TEST

START_TEST(test_settings_refused)
{
	struct store_settings s;
	int64_t a = add_player("alice", 1);

	store_settings_default(&s);
	ck_assert_int_eq(store_settings_set(st, 42, &s, 1, &err), -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	s.picture = (enum store_picture)7;
	ck_assert_int_eq(store_settings_set(st, a, &s, 1, &err), -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	store_settings_default(&s);
	s.moves = (enum store_move_list)3;
	ck_assert_int_eq(store_settings_set(st, a, &s, 1, &err), -1);
	/* a time zone not of a zone name's shape, or not terminated */
	store_settings_default(&s);
	strcpy(s.timezone, "../../etc/passwd");
	ck_assert_int_eq(store_settings_set(st, a, &s, 1, &err), -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	strcpy(s.timezone, "Europe/Berlin ");
	ck_assert_int_eq(store_settings_set(st, a, &s, 1, &err), -1);
	memset(s.timezone, 'Z', sizeof(s.timezone));
	ck_assert_int_eq(store_settings_set(st, a, &s, 1, &err), -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	ck_assert_int_eq(count("player_settings"), 0);
	/* the schema's own checks */
	ck_schema_refuses("INSERT INTO player_settings "
			  "(player_id, pictures, updated) "
			  "VALUES (1, 'gif', 1)");
	ck_schema_refuses("INSERT INTO player_settings "
			  "(player_id, moves, updated) VALUES (1, 'most', 1)");
	ck_schema_refuses("INSERT INTO player_settings "
			  "(player_id, confirm, updated) VALUES (1, 2, 1)");
	ck_schema_refuses("INSERT INTO player_settings "
			  "(player_id, reminders, updated) VALUES (1, 2, 1)");
	ck_schema_refuses("INSERT INTO player_settings "
			  "(player_id, timezone, updated) VALUES (1, "
			  "printf('%.64c', 'Z'), 1)");
	ck_schema_refuses("INSERT INTO player_settings "
			  "(player_id, timezone, updated) VALUES (1, "
			  "'Europe/Berlin;', 1)");
	ck_schema_takes("INSERT INTO player_settings "
			"(player_id, timezone, updated) VALUES (1, "
			"printf('%.63c', 'Z'), 1)");
}
END_TEST

START_TEST(test_setting_words)
{
	struct store_settings s;
	enum store_setting_key k;

	store_settings_default(&s);
	ck_assert_str_eq(store_setting_name(STORE_SETTING_CONFIRM), "confirm");
	ck_assert_str_eq(store_setting_name(STORE_SETTING_PICTURES), "pictures");
	ck_assert_str_eq(store_setting_name(STORE_SETTING_MOVES), "moves");
	ck_assert_str_eq(store_setting_name(STORE_SETTING_DIGEST), "digest");
	ck_assert_ptr_null(store_setting_name(STORE_SETTING_COUNT));
	ck_assert_str_eq(store_setting_choices(STORE_SETTING_MOVES),
			 "full|short|none");
	ck_assert_str_eq(store_setting_word(&s, STORE_SETTING_CONFIRM), "on");
	ck_assert_str_eq(store_setting_word(&s, STORE_SETTING_PICTURES), "png");
	ck_assert_str_eq(store_setting_word(&s, STORE_SETTING_MOVES), "short");
	ck_assert_str_eq(store_setting_word(&s, STORE_SETTING_DIGEST), "off");

	ck_assert_int_eq(store_setting_parse_key("Pictures", &k), 0);
	ck_assert_int_eq(k, STORE_SETTING_PICTURES);
	ck_assert_int_eq(store_setting_parse_key("picture", &k), -1);
	ck_assert_int_eq(store_setting_parse_key("", &k), -1);
	ck_assert_int_eq(store_setting_parse_value(&s, STORE_SETTING_PICTURES,
						   "SVG"), 0);
	ck_assert_int_eq(s.picture, STORE_PICTURE_SVG);
	ck_assert_int_eq(store_setting_parse_value(&s, STORE_SETTING_PICTURES,
						   "gif"), -1);
	ck_assert_int_eq(s.picture, STORE_PICTURE_SVG);
	ck_assert_int_eq(store_setting_parse_value(&s, STORE_SETTING_CONFIRM,
						   "off"), 0);
	ck_assert(!s.confirm);
	ck_assert_int_eq(store_setting_parse_value(&s, STORE_SETTING_CONFIRM,
						   "no"), -1);
	ck_assert_int_eq(store_setting_parse_value(&s, STORE_SETTING_DIGEST,
						   "on"), 0);
	ck_assert(s.digest);
	ck_assert_int_eq(store_setting_parse_value(&s, STORE_SETTING_MOVES,
						   "none"), 0);
	ck_assert_int_eq(s.moves, STORE_MOVES_NONE);
	ck_assert_int_eq(store_setting_parse_value(&s, STORE_SETTING_MOVES,
						   "short"), 0);
	ck_assert_int_eq(s.moves, STORE_MOVES_SHORT);
	ck_assert_int_eq(store_setting_parse_value(&s, STORE_SETTING_MOVES,
						   "png"), -1);
	s.picture = (enum store_picture)9;
	ck_assert_ptr_null(store_setting_word(&s, STORE_SETTING_PICTURES));
}
END_TEST

START_TEST(test_setting_words_clock)
{
	struct store_settings s;
	enum store_setting_key k;
	char name[80];
	static const char *const bad[] = {
		"", "/etc/localtime", "Europe/../../etc/passwd", "a..b",
		"Europe/Berlin ", "Europe\\Berlin", "Ütc", "Europe/Berlin;",
		"Europe.Berlin",
	};
	/* what is written, what is kept ("": UTC) */
	static const struct {
		const char *text, *kept;
	} zones[] = {
		{ "Europe/Berlin", "Europe/Berlin" }, { "utc", "" },
		{ "Etc/GMT+5", "Etc/GMT+5" }, { "UtC", "" },
		{ "america/new_york", "america/new_york" },
	};
	size_t i;

	store_settings_default(&s);
	ck_assert_str_eq(store_setting_name(STORE_SETTING_REMINDERS),
			 "reminders");
	ck_assert_str_eq(store_setting_name(STORE_SETTING_TIMEZONE),
			 "timezone");
	ck_assert_str_eq(store_setting_choices(STORE_SETTING_REMINDERS),
			 "on|off");
	ck_assert_str_eq(store_setting_choices(STORE_SETTING_TIMEZONE),
			 "a zone such as Europe/Berlin, or UTC");
	ck_assert_int_eq(store_setting_parse_key("TimeZone", &k), 0);
	ck_assert_int_eq(k, STORE_SETTING_TIMEZONE);
	ck_assert_int_eq(store_setting_parse_key("reminders", &k), 0);
	ck_assert_int_eq(k, STORE_SETTING_REMINDERS);

	/* reminders on|off, default on */
	ck_assert_str_eq(store_setting_word(&s, STORE_SETTING_REMINDERS),
			 "on");
	ck_assert_int_eq(store_setting_parse_value(&s, STORE_SETTING_REMINDERS,
						   "OFF"), 0);
	ck_assert(!s.reminders);
	ck_assert_str_eq(store_setting_word(&s, STORE_SETTING_REMINDERS),
			 "off");
	ck_assert_int_eq(store_setting_parse_value(&s, STORE_SETTING_REMINDERS,
						   "daily"), -1);
	ck_assert(!s.reminders);

	/* timezone: "" reads UTC; a name keeps its case */
	ck_assert_str_eq(store_setting_word(&s, STORE_SETTING_TIMEZONE), "UTC");
	for (i = 0; i < sizeof(zones) / sizeof(zones[0]); i++) {
		ck_assert_int_eq(store_setting_parse_value(&s,
				STORE_SETTING_TIMEZONE, zones[i].text), 0);
		ck_assert_str_eq(s.timezone, zones[i].kept);
		ck_assert_str_eq(store_setting_word(&s, STORE_SETTING_TIMEZONE),
				 zones[i].kept[0] != '\0' ? zones[i].kept : "UTC");
	}

	/* not of a zone name's shape: s unchanged */
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_msg(store_setting_parse_value(&s,
				STORE_SETTING_TIMEZONE, bad[i]) == -1,
			      "%s", bad[i]);
		ck_assert_str_eq(s.timezone, "america/new_york");
	}
	/* 63 bytes fit, 64 do not */
	memset(name, 'A', sizeof(name));
	name[STORE_TIMEZONE_MAX] = '\0';
	ck_assert_int_eq(store_setting_parse_value(&s, STORE_SETTING_TIMEZONE,
						   name), -1);
	name[STORE_TIMEZONE_MAX - 1] = '\0';
	ck_assert_int_eq(store_setting_parse_value(&s, STORE_SETTING_TIMEZONE,
						   name), 0);
	ck_assert_str_eq(s.timezone, name);
	ck_assert_str_eq(store_setting_word(&s, STORE_SETTING_TIMEZONE), name);
	/* a value out of shape has no word */
	strcpy(s.timezone, "../x");
	ck_assert_ptr_null(store_setting_word(&s, STORE_SETTING_TIMEZONE));
}
END_TEST

/* standings on|off (sql/009): the weekly standings mail, default on. */
START_TEST(test_settings_standings)
{
	struct store_settings s, back;
	enum store_setting_key k;
	int64_t a = add_player("alice", 1), b = add_player("bob", 2);
	char sql[128];

	store_settings_default(&s);
	ck_assert(s.standings);
	ck_assert_str_eq(store_setting_name(STORE_SETTING_STANDINGS),
			 "standings");
	ck_assert_str_eq(store_setting_choices(STORE_SETTING_STANDINGS),
			 "on|off");
	ck_assert_int_eq(store_setting_parse_key("Standings", &k), 0);
	ck_assert_int_eq(k, STORE_SETTING_STANDINGS);
	ck_assert_str_eq(store_setting_word(&s, STORE_SETTING_STANDINGS), "on");
	ck_assert_int_eq(store_setting_parse_value(&s, STORE_SETTING_STANDINGS,
						   "weekly"), -1);
	ck_assert(s.standings);
	ck_assert_int_eq(store_setting_parse_value(&s, STORE_SETTING_STANDINGS,
						   "Off"), 0);
	ck_assert(!s.standings);
	ck_assert_str_eq(store_setting_word(&s, STORE_SETTING_STANDINGS),
			 "off");

	/* stored and read back, the others untouched */
	memset(&back, 0x55, sizeof(back));
	ck_assert_int_eq(store_settings_get(st, a, &back, &err), 0);
	ck_assert(back.standings);
	ck_assert_int_eq(store_settings_set(st, a, &s, 3000, &err), 0);
	ck_assert_int_eq(store_settings_get(st, a, &back, &err), 0);
	ck_assert(!back.standings);
	ck_assert(back.confirm && back.reminders && !back.digest);
	ck_assert_int_eq(test_query_int(test_db, "SELECT count(*) FROM "
			 "player_settings WHERE standings = 0"), 1);
	s.standings = true;
	s.digest = true;
	ck_assert_int_eq(store_settings_set(st, a, &s, 3100, &err), 0);
	ck_assert_int_eq(store_settings_get(st, a, &back, &err), 0);
	ck_assert(back.standings && back.digest);

	/* a row written without it has it on; the schema's own check */
	snprintf(sql, sizeof(sql), "INSERT INTO player_settings (player_id, "
		 "digest, updated) VALUES (%lld, 1, 1)", (long long)b);
	ck_schema_takes(sql);
	ck_assert_int_eq(store_settings_get(st, b, &back, &err), 0);
	ck_assert(back.standings && back.digest);
	ck_schema_refuses("UPDATE player_settings SET standings = 2");
}
END_TEST

START_TEST(test_digest_items)
{
	int64_t a = add_player("alice", 1), b = add_player("bob", 2);
	int64_t c = add_player("carol", 3), d = add_player("dave", 4);
	int64_t g1 = make_game(a, b), g2 = make_game(b, a);
	struct store_digest_item *items = NULL;
	int64_t *ids = NULL;
	size_t n = 0;

	ck_assert_int_eq(store_digest_due(st, 1 << 30, &ids, &n, &err), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_ptr_null(ids);

	/* carol: g1 from ply 3 at 100, again from ply 4 (kept: 3, 100) and
	 * g2 at 200; dave: g2 at 300 */
	ck_assert_int_eq(store_digest_add(st, c, g1, 3, 100, &err), 0);
	ck_assert_int_eq(store_digest_add(st, c, g1, 4, 150, &err), 0);
	ck_assert_int_eq(store_digest_add(st, c, g2, 0, 200, &err), 0);
	ck_assert_int_eq(store_digest_add(st, d, g2, 5, 300, &err), 0);
	ck_assert_int_eq(count("digest_items"), 3);

	ck_assert_int_eq(store_digest_due(st, 100, &ids, &n, &err), 0);
	ck_assert_uint_eq(n, 0);
	free(ids);
	ck_assert_int_eq(store_digest_due(st, 101, &ids, &n, &err), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(ids[0], c);
	free(ids);
	ck_assert_int_eq(store_digest_due(st, 301, &ids, &n, &err), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(ids[0], c);
	ck_assert_int_eq(ids[1], d);
	free(ids);

	ck_assert_int_eq(store_digest_items(st, c, &items, &n, &err), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(items[0].game_id, g1);
	ck_assert_int_eq(items[0].from_ply, 3);
	ck_assert_int_eq(items[0].created, 100);
	ck_assert_int_eq(items[1].game_id, g2);
	ck_assert_int_eq(items[1].player_id, c);
	free(items);

	/* an earlier ply noted later (after a take-back): the earlier wins */
	ck_assert_int_eq(store_digest_add(st, c, g1, 1, 400, &err), 0);
	ck_assert_int_eq(store_digest_items(st, c, &items, &n, &err), 0);
	ck_assert_int_eq(items[0].from_ply, 1);
	ck_assert_int_eq(items[0].created, 100);
	free(items);

	ck_assert_int_eq(store_digest_clear(st, c, &err), 0);
	ck_assert_int_eq(store_digest_items(st, c, &items, &n, &err), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_int_eq(count("digest_items"), 1);

	ck_assert_int_eq(store_digest_add(st, c, g1, -1, 1, &err), -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
}
END_TEST

/* Inside the caller's transaction: a rollback forgets the items noted
 * and brings back those cleared (a digest queued and rolled back loses
 * nothing). */
START_TEST(test_digest_transaction)
{
	int64_t a = add_player("alice", 1), b = add_player("bob", 2);
	int64_t c = add_player("carol", 3), g = make_game(a, b);

	ck_assert_int_eq(store_digest_add(st, c, g, 0, 100, &err), 0);
	ck_assert_int_eq(store_begin(st, &err), 0);
	ck_assert_int_eq(store_digest_clear(st, c, &err), 0);
	ck_assert_int_eq(store_digest_add(st, a, g, 2, 100, &err), 0);
	store_rollback(st);
	ck_assert_int_eq(count("digest_items"), 1);
	ck_assert_int_eq(test_query_int(test_db, "SELECT player_id FROM "
					"digest_items"), c);
}
END_TEST

/* summary off|daily HH:MM (sql/014): the word, the schedule reset by a
 * new time or zone only, the notes, and what is due. */
START_TEST(test_settings_summary)
{
	struct store_settings s, back;
	struct store_summary_due *due = NULL;
	struct store_summary_item *items = NULL;
	int64_t a = add_player("alice", 1), b = add_player("bob", 2);
	int64_t g = make_game(a, b), at;
	size_t n = 0;

	store_settings_default(&s);
	ck_assert_int_eq(s.summary_at, -1);
	ck_assert_str_eq(store_setting_word(&s, STORE_SETTING_SUMMARY), "off");
	ck_assert_int_eq(store_setting_parse_value(&s, STORE_SETTING_SUMMARY,
						   "daily 25:00"), -1);
	ck_assert_int_eq(store_setting_parse_value(&s, STORE_SETTING_SUMMARY,
						   "daily"), -1);
	ck_assert_int_eq(store_setting_parse_value(&s, STORE_SETTING_SUMMARY,
						   "daily 8:5"), -1);
	ck_assert_int_eq(store_setting_parse_value(&s, STORE_SETTING_SUMMARY,
						   "08:00"), -1);
	ck_assert_int_eq(s.summary_at, -1);
	ck_assert_int_eq(store_setting_parse_value(&s, STORE_SETTING_SUMMARY,
						   "Daily 7:05"), 0);
	ck_assert_int_eq(s.summary_at, 7 * 60 + 5);
	ck_assert_str_eq(store_setting_word(&s, STORE_SETTING_SUMMARY),
			 "daily 07:05");

	/* stored; due at once (0: to be worked out) */
	ck_assert_int_eq(store_settings_set(st, a, &s, 1000, &err), 0);
	ck_assert_int_eq(store_settings_get(st, a, &back, &err), 0);
	ck_assert_int_eq(back.summary_at, 7 * 60 + 5);
	ck_assert_int_eq(store_summary_due(st, 1000, 0, &due, &n, &err), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(due[0].player_id, a);
	ck_assert_int_eq(due[0].due, 0);
	ck_assert_int_eq(due[0].chosen, 1000);
	free(due);
	ck_assert_int_eq(store_summary_schedule(st, a, 5000, 900, &err), 0);
	ck_assert_int_eq(store_summary_due(st, 4999, 0, &due, &n, &err), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_int_eq(store_summary_next(st, &at, &err), 1);
	ck_assert_int_eq(at, 5000);
	/* another setting keeps the schedule, a new zone resets it */
	s.confirm = false;
	ck_assert_int_eq(store_settings_set(st, a, &s, 1100, &err), 0);
	ck_assert_int_eq(store_summary_next(st, &at, &err), 1);
	ck_assert_int_eq(at, 5000);
	strcpy(s.timezone, "Europe/Berlin");
	ck_assert_int_eq(store_settings_set(st, a, &s, 1200, &err), 0);
	ck_assert_int_eq(store_summary_next(st, &at, &err), 1);
	ck_assert_int_eq(at, 0);

	/* notes, in order; a player turned off with notes is due too */
	ck_assert_int_eq(store_summary_add(st, b, g, "your_move", NULL, 10,
					   &err), 0);
	ck_assert_int_eq(store_summary_add(st, b, 0, "event", "hello", 11,
					   &err), 0);
	ck_assert_int_eq(store_summary_items(st, b, &items, &n, &err), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(items[0].kind, "your_move");
	ck_assert_str_eq(items[0].text, "");
	ck_assert_int_eq(items[0].game_id, g);
	ck_assert_str_eq(items[1].text, "hello");
	ck_assert_int_eq(items[1].game_id, 0);
	store_rows_free(&items, n, sizeof(*items), store_summary_item_clear);
	/* (alice, due 0, is left out by a time before it) */
	ck_assert_int_eq(store_summary_due(st, -1, 0, &due, &n, &err), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(due[0].player_id, b);
	ck_assert_int_eq(due[0].at, -1);
	free(due);
	ck_assert_int_eq(store_summary_add(st, b, 0, "Bad kind", NULL, 12,
					   &err), -1);
	ck_assert_int_eq(store_summary_clear(st, b, &err), 0);
	ck_assert_int_eq(count("summary_items"), 0);
	ck_schema_refuses("UPDATE player_settings SET summary_at = 1440");
}
END_TEST

/* `set language` (sql/NNN-language.sql): "" is the club's default, read and written
 * as "default"; a language is kept in lower case, of a subtag's shape
 * only (which languages exist is the templates', the service's check). */
START_TEST(test_settings_language)
{
	struct store_settings s, back;
	enum store_setting_key key;
	int64_t a = add_player("alice", 1);

	store_settings_default(&s);
	ck_assert_str_eq(s.language, "");
	ck_assert_str_eq(store_setting_word(&s, STORE_SETTING_LANGUAGE),
			 "default");
	ck_assert_int_eq(store_setting_parse_key("Language", &key), 0);
	ck_assert_int_eq(key, STORE_SETTING_LANGUAGE);
	ck_assert_int_eq(store_setting_parse_value(&s, key, "KO"), 0);
	ck_assert_str_eq(s.language, "ko");
	ck_assert_int_eq(store_settings_set(st, a, &s, 5, &err), 0);
	ck_assert_int_eq(store_settings_get(st, a, &back, &err), 0);
	ck_assert_str_eq(back.language, "ko");
	ck_assert_str_eq(store_setting_word(&back, key), "ko");
	ck_assert_int_eq(store_setting_parse_value(&s, key, "qaa"), 0);
	ck_assert_str_eq(s.language, "qaa");
	/* not a language's shape: s unchanged */
	ck_assert_int_eq(store_setting_parse_value(&s, key, "d"), -1);
	ck_assert_int_eq(store_setting_parse_value(&s, key, "deutsch"), -1);
	ck_assert_int_eq(store_setting_parse_value(&s, key, "d1"), -1);
	ck_assert_int_eq(store_setting_parse_value(&s, key, "de-DE"), -1);
	ck_assert_int_eq(store_setting_parse_value(&s, key, ""), -1);
	ck_assert_str_eq(s.language, "qaa");
	ck_assert_int_eq(store_setting_parse_value(&s, key, "Default"), 0);
	ck_assert_str_eq(s.language, "");
	ck_assert_int_eq(store_settings_set(st, a, &s, 6, &err), 0);
	ck_assert_int_eq(store_settings_get(st, a, &back, &err), 0);
	ck_assert_str_eq(back.language, "");
	/* the store refuses a value not of the shape, and so does NNN-language.sql */
	strcpy(s.language, "D!");
	ck_assert_int_eq(store_settings_set(st, a, &s, 7, &err), -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	ck_schema_refuses("UPDATE player_settings SET language = 'DE'");
	ck_schema_refuses("UPDATE player_settings SET language = 'deutsch'");
	ck_schema_refuses("UPDATE player_settings SET language = 'd'");
	ck_schema_takes("UPDATE player_settings SET language = 'de'");
}
END_TEST

TEST_MAIN("store_settings", "settings", setup, teardown, 0,
	  test_settings_defaults, test_settings_roundtrip,
	  test_settings_refused, test_setting_words, test_settings_clock_keys,
	  test_setting_words_clock, test_settings_standings, test_digest_items,
	  test_digest_transaction, test_settings_summary,
	  test_settings_language)
