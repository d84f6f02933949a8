/* test_store_tournament.c -- the club's events (sql/019): an event's log
 * and what each entry needs, the link of a stored game to its event
 * game number, the results pending and taken once, the event's course
 * (began, ended); what each call and the schema refuse. */
#include "store_fixture.h"

#define make_game(white, black, status, updated) \
	add_game("size=5", white, black, white, status, updated)

static void add_entry(const char *event, const char *kind, int round,
		      int64_t player, int64_t other, int64_t game,
		      const char *outcome, int rating, const char *actor)
{
	struct store_tournament_entry e = {
		.tournament = (char *)event, .kind = (char *)kind, .at = 100,
		.round = round, .player_id = player, .other_id = other,
		.game = game, .outcome = (char *)outcome, .rating = rating,
		.actor = (char *)actor,
	};

	ck_assert_msg(store_tournament_entry_add(st, &e, NULL, &err) == 0,
		      "%s", err);
}

START_TEST(test_log)
{
	int64_t a = add_player("alice", 1), b = add_player("bob", 2);
	int64_t next = 0, id = 0;
	struct store_tournament_entry *log = NULL, e = { 0 };
	char **names = NULL;
	size_t n = 99;

	ck_assert_int_eq(store_tournament_entries(st, "open", &log, &n, &err),
			 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_int_eq(store_tournament_next_game(st, "open", &next, &err),
			 0);
	ck_assert_int_eq(next, 1);
	add_entry("open", "join", 0, a, 0, 0, NULL, 1500, "mail");
	add_entry("open", "join", 0, b, 0, 0, NULL, 0, "daemon");
	add_entry("other", "join", 0, b, 0, 0, NULL, 1700, "daemon");
	add_entry("open", "pairing", 1, b, a, 1, NULL, 0, "daemon");
	add_entry("open", "pairing", 1, a, b, 7, NULL, 0, "daemon");
	add_entry("open", "result", 1, b, a, 1, "draw", 0, "daemon");
	add_entry("open", "bye", 2, a, 0, 0, NULL, 0, "daemon");
	e = (struct store_tournament_entry){
		.tournament = "open", .kind = "adjudication", .at = 200,
		.round = 1, .player_id = a, .other_id = b, .game = 7,
		.outcome = "black", .actor = "operator",
		.note = "the flag fell during an outage",
	};
	ck_assert_int_eq(store_tournament_entry_add(st, &e, &id, &err), 0);
	ck_assert_int_gt(id, 0);
	add_entry("open", "withdraw", 2, b, 0, 0, NULL, 0, "operator");
	ck_assert_int_eq(store_tournament_entries(st, "open", &log, &n, &err),
			 0);
	ck_assert_uint_eq(n, 8);
	ck_assert_str_eq(log[0].kind, "join");
	ck_assert_int_eq(log[0].rating, 1500);
	ck_assert_str_eq(log[0].actor, "mail");
	ck_assert_int_eq(log[1].rating, 0);
	ck_assert_str_eq(log[2].kind, "pairing");
	ck_assert_int_eq(log[2].player_id, b);
	ck_assert_int_eq(log[2].other_id, a);
	ck_assert_int_eq(log[2].game, 1);
	ck_assert_int_eq(log[2].round, 1);
	ck_assert_str_eq(log[4].outcome, "draw");
	ck_assert_str_eq(log[6].kind, "adjudication");
	ck_assert_int_eq(log[6].id, id);
	ck_assert_str_eq(log[6].note, "the flag fell during an outage");
	ck_assert_int_eq(log[6].at, 200);
	ck_assert_str_eq(log[7].kind, "withdraw");
	ck_assert_int_eq(log[7].round, 2);
	for (size_t i = 1; i < n; i++)
		ck_assert_int_gt(log[i].id, log[i - 1].id);
	store_rows_free(&log, n, sizeof(*log), store_tournament_entry_clear);
	ck_assert_int_eq(store_tournament_next_game(st, "open", &next, &err),
			 0);
	ck_assert_int_eq(next, 8);
	ck_assert_int_eq(store_tournament_next_game(st, "other", &next, &err),
			 0);
	ck_assert_int_eq(next, 1);
	ck_assert_int_eq(store_tournament_mark(st, "spring", 0, 0, &err), 0);
	ck_assert_int_eq(store_tournament_names(st, &names, &n, &err), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert_str_eq(names[0], "open");
	ck_assert_str_eq(names[1], "other");
	ck_assert_str_eq(names[2], "spring");
	store_strings_free(&names);
}
END_TEST

START_TEST(test_log_refused)
{
	int64_t a = add_player("alice", 1), b = add_player("bob", 2);
	struct store_tournament_entry e = {
		.tournament = "open", .kind = "pairing", .at = 1, .round = 1,
		.player_id = a, .other_id = b, .game = 1, .actor = "daemon",
	};
	char note[202];

	ck_assert_int_eq(store_tournament_entry_add(st, &e, NULL, &err), 0);
	e.tournament = "Open";
	ck_usage(store_tournament_entry_add(st, &e, NULL, &err));
	e.tournament = "a-name-that-is-far-longer-than-32";
	ck_usage(store_tournament_entry_add(st, &e, NULL, &err));
	e.tournament = "open";
	e.kind = "moved";
	ck_usage(store_tournament_entry_add(st, &e, NULL, &err));
	e.kind = "pairing";
	e.actor = "robot";
	ck_usage(store_tournament_entry_add(st, &e, NULL, &err));
	e.actor = NULL;
	ck_usage(store_tournament_entry_add(st, &e, NULL, &err));
	e.actor = "daemon";
	e.round = 0; /* a pairing is of a round */
	ck_usage(store_tournament_entry_add(st, &e, NULL, &err));
	e.round = 513;
	ck_usage(store_tournament_entry_add(st, &e, NULL, &err));
	e.round = 1;
	e.game = 0;
	ck_usage(store_tournament_entry_add(st, &e, NULL, &err));
	e.game = -3;
	ck_usage(store_tournament_entry_add(st, &e, NULL, &err));
	e.game = 1;
	e.other_id = 0;
	ck_usage(store_tournament_entry_add(st, &e, NULL, &err));
	e.other_id = 99; /* no such player */
	ck_usage(store_tournament_entry_add(st, &e, NULL, &err));
	e.other_id = b;
	e.kind = "result"; /* without an outcome */
	ck_usage(store_tournament_entry_add(st, &e, NULL, &err));
	e.outcome = "1-0";
	ck_usage(store_tournament_entry_add(st, &e, NULL, &err));
	e.outcome = "white";
	memset(note, 'x', sizeof(note) - 1);
	note[sizeof(note) - 1] = '\0';
	e.note = note;
	ck_usage(store_tournament_entry_add(st, &e, NULL, &err));
	e.note = NULL;
	e.kind = "join"; /* round 0 only */
	ck_usage(store_tournament_entry_add(st, &e, NULL, &err));
	e.player_id = 0;
	e.round = 0;
	ck_usage(store_tournament_entry_add(st, &e, NULL, &err));
	e.player_id = a;
	e.inbound_id = 55; /* no such mail */
	ck_assert_int_eq(store_tournament_entry_add(st, &e, NULL, &err), -1);
	ck_assert_int_eq(count("tournament_entries"), 1);
	/* The schema refuses what the calls do, past them. */
	ck_assert_int_ne(exec_rc("INSERT INTO tournament_entries (tournament,"
				 " kind, at, round, player_id, actor) VALUES"
				 " ('open', 'pairing', 1, 1, 1, 'daemon')"),
			 SQLITE_OK);
	ck_assert_int_ne(exec_rc("INSERT INTO tournament_entries (tournament,"
				 " kind, at, round, player_id, actor) VALUES"
				 " ('open', 'join', 1, 0, 1, 'daemon')"),
			 SQLITE_OK);
	ck_assert_int_ne(exec_rc("INSERT INTO tournaments (name) VALUES"
				 " ('No Caps')"), SQLITE_OK);
}
END_TEST

START_TEST(test_games_pending_applied)
{
	int64_t a = add_player("alice", 1), b = add_player("bob", 2);
	int64_t g1 = make_game(a, b, STORE_GAME_ACTIVE, 10);
	int64_t g2 = make_game(b, a, STORE_GAME_ACTIVE, 10);
	int64_t g3 = make_game(b, a, STORE_GAME_ACTIVE, 10);
	struct store_tournament_game tg = {
		.game_id = g1, .tournament = "open", .round = 1, .number = 1,
		.rated = true,
	}, got, *games = NULL;
	int64_t *ids = NULL, gid = 0;
	size_t n = 0;

	ck_assert_int_eq(store_tournament_game_add(st, &tg, &err), 0);
	ck_assert_int_eq(store_tournament_game_add(st, &tg, &err), 1);
	tg.game_id = g2; /* the number is taken */
	ck_assert_int_eq(store_tournament_game_add(st, &tg, &err), 1);
	tg.number = 2;
	tg.round = 2;
	tg.rated = false;
	ck_assert_int_eq(store_tournament_game_add(st, &tg, &err), 0);
	tg.game_id = 999;
	tg.number = 3;
	ck_usage(store_tournament_game_add(st, &tg, &err));
	tg.game_id = g3;
	tg.round = 0;
	ck_usage(store_tournament_game_add(st, &tg, &err));
	tg.round = 1;
	tg.number = 0;
	ck_usage(store_tournament_game_add(st, &tg, &err));
	tg.number = 3;
	tg.tournament = "bad name";
	ck_usage(store_tournament_game_add(st, &tg, &err));

	ck_assert_int_eq(store_tournament_game_get(st, g2, &got, &err), 1);
	ck_assert_str_eq(got.tournament, "open");
	ck_assert_int_eq(got.round, 2);
	ck_assert_int_eq(got.number, 2);
	ck_assert(!got.rated);
	ck_assert_int_eq(got.applied_at, 0);
	store_tournament_game_clear(&got);
	ck_assert_int_eq(store_tournament_game_get(st, g3, &got, &err), 0);
	ck_assert_int_eq(got.game_id, g3);
	ck_assert_ptr_null(got.tournament);
	ck_assert_int_eq(store_tournament_game_of(st, "open", 2, &gid, &err),
			 1);
	ck_assert_int_eq(gid, g2);
	ck_assert_int_eq(store_tournament_game_of(st, "open", 5, &gid, &err),
			 0);
	ck_assert_int_eq(gid, 0);
	ck_assert_int_eq(store_tournament_games(st, "open", &games, &n, &err),
			 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(games[0].game_id, g1);
	ck_assert(games[0].rated);
	ck_assert_int_eq(games[1].game_id, g2);
	store_rows_free(&games, n, sizeof(*games), store_tournament_game_clear);

	/* Nothing ended yet; then g2 before g1 (by when they ended). */
	ck_assert_int_eq(store_tournament_pending(st, 0, &ids, &n, &err), 0);
	ck_assert_uint_eq(n, 0);
	free(ids);
	set_status(g2, STORE_GAME_FINISHED, 20);
	set_status(g1, STORE_GAME_CANCELLED, 30);
	set_status(g3, STORE_GAME_FINISHED, 15); /* of no event */
	ck_assert_int_eq(store_tournament_pending(st, 0, &ids, &n, &err), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(ids[0], g2);
	ck_assert_int_eq(ids[1], g1);
	free(ids);
	ck_assert_int_eq(store_tournament_pending(st, 1, &ids, &n, &err), 0);
	ck_assert_uint_eq(n, 1);
	free(ids);
	ck_assert_int_eq(store_tournament_game_applied(st, g2, 40, &err), 0);
	ck_assert_int_eq(store_tournament_game_applied(st, g2, 50, &err), 1);
	ck_usage(store_tournament_game_applied(st, g3, 50, &err));
	ck_usage(store_tournament_game_applied(st, g1, 0, &err));
	ck_assert_int_eq(store_tournament_game_get(st, g2, &got, &err), 1);
	ck_assert_int_eq(got.applied_at, 40);
	store_tournament_game_clear(&got);
	ck_assert_int_eq(store_tournament_pending(st, 0, &ids, &n, &err), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(ids[0], g1);
	free(ids);
}
END_TEST

START_TEST(test_course)
{
	int64_t s = 9, e = 9;

	ck_assert_int_eq(store_tournament_times(st, "open", &s, &e, &err), 0);
	ck_assert_int_eq(s, 0);
	ck_assert_int_eq(e, 0);
	ck_assert_int_eq(store_tournament_mark(st, "open", 100, 0, &err), 0);
	ck_assert_int_eq(store_tournament_times(st, "open", &s, &e, &err), 1);
	ck_assert_int_eq(s, 100);
	ck_assert_int_eq(e, 0);
	/* Set once: a later start changes nothing. */
	ck_assert_int_eq(store_tournament_mark(st, "open", 200, 0, &err), 1);
	ck_assert_int_eq(store_tournament_mark(st, "open", 0, 300, &err), 0);
	ck_assert_int_eq(store_tournament_mark(st, "open", 0, 400, &err), 1);
	ck_assert_int_eq(store_tournament_times(st, "open", &s, &e, &err), 1);
	ck_assert_int_eq(s, 100);
	ck_assert_int_eq(e, 300);
	ck_usage(store_tournament_mark(st, "Open", 1, 0, &err));
}
END_TEST

TEST_MAIN("store_tournament", "tournament", setup, teardown, 0, test_log,
	  test_log_refused, test_games_pending_applied, test_course)
