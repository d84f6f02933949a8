/* test_store_club.c -- a club's competitions (sql/009): a ladder's event
 * log and what an event needs, which competition a game belongs to and
 * when its result was applied (the results pending), league seasons,
 * members and games; what each call and the schema refuse.  Ratings,
 * the service's named values and the migration to version 9 are
 * test_store_rating.c's. */
#include "store_fixture.h"

/* A game of white and black with `status`, last updated at `updated`. */
#define make_game(white, black, status, updated) \
	add_game("size=5", white, black, white, status, updated)
#define add_inbound(n) \
	add_inbound_raw(n, "From: a@example.org\r\n\r\nladder join\r\n", 50)

/* ---- ladders ---------------------------------------------------------- */

START_TEST(test_ladder_events)
{
	int64_t a = add_player("alice", 1), b = add_player("bob", 2);
	int64_t g = make_game(a, b, STORE_GAME_ACTIVE, 10);
	int64_t mail = add_inbound(1), id1 = 0, id2 = 0, id = 0;
	struct store_ladder_event ev = { 0 }, *list = NULL;
	char **names = NULL;
	size_t n = 99;

	ck_assert_int_eq(store_ladder_names(st, &names, &n, &err), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_ptr_null(names[0]);
	store_strings_free(&names);
	ck_assert_int_eq(store_ladder_events(st, "main", &list, &n, &err), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_ptr_null(list);

	ev.ladder = "main";
	ev.kind = "joined";
	ev.at = 100;
	ev.player_id = a;
	ev.actor = "mail";
	ev.inbound_id = mail;
	ck_assert_int_eq(store_ladder_event_add(st, &ev, &id1, &err), 0);
	memset(&ev, 0, sizeof(ev));
	ev.ladder = "blitz-5_x";
	ev.kind = "joined";
	ev.at = 101;
	ev.player_id = b;
	ck_assert_int_eq(store_ladder_event_add(st, &ev, NULL, &err), 0);
	ev.ladder = "main";
	ev.kind = "challenged";
	ev.at = 102;
	ev.player_id = b;
	ev.other_id = a;
	ev.game_id = g;
	ev.accept_by = 102 + 7 * 86400;
	ev.win = "swap";
	ev.time_loss_drop = 2;
	ck_assert_int_eq(store_ladder_event_add(st, &ev, &id2, &err), 0);
	ev.accept_by = 0;
	ev.win = NULL;
	ev.time_loss_drop = 0;
	ev.kind = "result";
	ev.at = 103;
	ev.outcome = "walkover";
	ev.note = "no answer in 7 days";
	ck_assert_int_eq(store_ladder_event_add(st, &ev, &id, &err), 0);
	memset(&ev, 0, sizeof(ev));
	ev.ladder = "main";
	ev.kind = "moved";
	ev.at = 104;
	ev.player_id = a;
	ev.position = 3;
	ev.actor = "operator";
	ck_assert_int_eq(store_ladder_event_add(st, &ev, NULL, &err), 0);
	ev.kind = "left";
	ev.position = 0;
	ev.actor = NULL;
	ck_assert_int_eq(store_ladder_event_add(st, &ev, NULL, &err), 0);
	ev.kind = "withdrawn";
	ev.actor = "daemon";
	ck_assert_int_eq(store_ladder_event_add(st, &ev, NULL, &err), 0);
	ck_assert(id1 > 0 && id2 > id1 && id > id2);

	/* one ladder's log, oldest first, every field as written */
	ck_assert_int_eq(store_ladder_events(st, "main", &list, &n, &err), 0);
	ck_assert_uint_eq(n, 6);
	ck_assert_int_eq(list[0].id, id1);
	ck_assert_str_eq(list[0].ladder, "main");
	ck_assert_str_eq(list[0].kind, "joined");
	ck_assert_int_eq(list[0].at, 100);
	ck_assert_int_eq(list[0].player_id, a);
	ck_assert_int_eq(list[0].other_id, 0);
	ck_assert_int_eq(list[0].game_id, 0);
	ck_assert_ptr_null(list[0].outcome);
	ck_assert_int_eq(list[0].position, 0);
	ck_assert_str_eq(list[0].actor, "mail");
	ck_assert_ptr_null(list[0].note);
	ck_assert_int_eq(list[0].inbound_id, mail);
	ck_assert_int_eq(list[1].id, id2);
	ck_assert_str_eq(list[1].kind, "challenged");
	ck_assert_int_eq(list[1].player_id, b);
	ck_assert_int_eq(list[1].other_id, a);
	ck_assert_int_eq(list[1].game_id, g);
	ck_assert_ptr_null(list[1].actor);
	ck_assert_int_eq(list[1].accept_by, 102 + 7 * 86400);
	ck_assert_str_eq(list[1].win, "swap");
	ck_assert_int_eq(list[1].time_loss_drop, 2);
	ck_assert_str_eq(list[2].kind, "result");
	ck_assert_ptr_null(list[2].win);
	ck_assert_str_eq(list[2].outcome, "walkover");
	ck_assert_str_eq(list[2].note, "no answer in 7 days");
	ck_assert_str_eq(list[3].kind, "moved");
	ck_assert_int_eq(list[3].position, 3);
	ck_assert_str_eq(list[3].actor, "operator");
	ck_assert_str_eq(list[4].kind, "left");
	ck_assert_str_eq(list[5].kind, "withdrawn");
	ck_assert_int_eq(list[5].at, 104);
	store_rows_free(&list, n, sizeof(*list), store_ladder_event_clear);
	ck_assert_ptr_null(list);
	ck_assert_int_eq(store_ladder_events(st, "blitz-5_x", &list, &n, &err),
			 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(list[0].player_id, b);
	store_rows_free(&list, n, sizeof(*list), store_ladder_event_clear);

	/* every ladder with an event, sorted */
	ck_assert_int_eq(store_ladder_names(st, &names, &n, &err), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(names[0], "blitz-5_x");
	ck_assert_str_eq(names[1], "main");
	ck_assert_ptr_null(names[2]);
	store_strings_free(&names);
	ck_assert_ptr_null(names);
}
END_TEST

START_TEST(test_ladder_event_refused)
{
	int64_t a = add_player("alice", 1), b = add_player("bob", 2);
	int64_t g = make_game(a, b, STORE_GAME_ACTIVE, 10), id = -5;
	struct store_ladder_event ev = { 0 }, ok;
	char name[40], note[202];
	static const char *const bad_names[] = {
		"", "Main", "main ladder", "main/x", "ladder.1", "l\xc3\xa4",
	};
	size_t i;

	memset(&ok, 0, sizeof(ok));
	ok.ladder = "main";
	ok.kind = "result";
	ok.at = 5;
	ok.player_id = a;
	ok.other_id = b;
	ok.game_id = g;
	ok.outcome = "normal";

	/* a ladder name of the wrong shape, 33 bytes, none */
	for (i = 0; i < sizeof(bad_names) / sizeof(bad_names[0]); i++) {
		ev = ok;
		ev.ladder = (char *)bad_names[i];
		ck_usage(store_ladder_event_add(st, &ev, &id, &err));
	}
	memset(name, 'x', sizeof(name));
	name[33] = '\0';
	ev = ok;
	ev.ladder = name;
	ck_usage(store_ladder_event_add(st, &ev, &id, &err));
	ev.ladder = NULL;
	ck_usage(store_ladder_event_add(st, &ev, &id, &err));

	/* an unknown kind, outcome, actor; a position above the top */
	ev = ok;
	ev.kind = "promoted";
	ck_usage(store_ladder_event_add(st, &ev, &id, &err));
	ck_assert_ptr_nonnull(strstr(err, "promoted"));
	ev.kind = NULL;
	ck_usage(store_ladder_event_add(st, &ev, &id, &err));
	ev = ok;
	ev.outcome = "resigned";
	ck_usage(store_ladder_event_add(st, &ev, &id, &err));
	ev = ok;
	ev.actor = "cron";
	ck_usage(store_ladder_event_add(st, &ev, &id, &err));
	ev = ok;
	ev.position = -1;
	ck_usage(store_ladder_event_add(st, &ev, &id, &err));

	/* a field the kind needs is missing */
	ev = ok;
	ev.kind = "joined";
	ev.player_id = 0;
	ck_usage(store_ladder_event_add(st, &ev, &id, &err));
	ev = ok;
	ev.kind = "challenged";
	ev.other_id = 0;
	ck_usage(store_ladder_event_add(st, &ev, &id, &err));
	ev = ok;
	ev.kind = "challenged";
	ev.game_id = 0;
	ck_usage(store_ladder_event_add(st, &ev, &id, &err));
	/* a challenge without the rules it is played under */
	ev = ok;
	ev.kind = "challenged";
	ck_usage(store_ladder_event_add(st, &ev, &id, &err));
	ck_assert_ptr_nonnull(strstr(err, "rules"));
	ev.accept_by = 1000;
	ev.win = "grab";
	ck_usage(store_ladder_event_add(st, &ev, &id, &err));
	ev = ok;
	ev.outcome = NULL;
	ck_usage(store_ladder_event_add(st, &ev, &id, &err));
	ck_assert_ptr_nonnull(strstr(err, "outcome"));
	ev = ok;
	ev.game_id = 0;
	ck_usage(store_ladder_event_add(st, &ev, &id, &err));
	ev = ok;
	ev.kind = "moved";
	ev.actor = "daemon";
	ck_usage(store_ladder_event_add(st, &ev, &id, &err));
	ck_assert_ptr_nonnull(strstr(err, "position"));
	ev.position = 1;
	ev.actor = NULL;
	ck_usage(store_ladder_event_add(st, &ev, &id, &err));

	/* a note too long; an unknown player, other, game or mail */
	memset(note, 'n', sizeof(note));
	note[201] = '\0';
	ev = ok;
	ev.note = note;
	ck_usage(store_ladder_event_add(st, &ev, &id, &err));
	ev = ok;
	ev.player_id = b + 10;
	ck_usage(store_ladder_event_add(st, &ev, &id, &err));
	ck_assert_ptr_nonnull(strstr(err, "no player"));
	ev = ok;
	ev.other_id = b + 11;
	ck_usage(store_ladder_event_add(st, &ev, &id, &err));
	ck_assert_ptr_nonnull(strstr(err, "no player"));
	ev = ok;
	ev.game_id = g + 10;
	ck_usage(store_ladder_event_add(st, &ev, &id, &err));
	ck_assert_ptr_nonnull(strstr(err, "no game"));
	ev = ok;
	ev.inbound_id = 77;
	ck_usage(store_ladder_event_add(st, &ev, &id, &err));
	ck_assert_int_eq(id, -5);
	ck_assert_int_eq(count("ladder_events"), 0);

	/* the limits themselves are fine */
	ev = ok;
	note[200] = '\0';
	ev.note = note;
	name[32] = '\0';
	ev.ladder = name;
	ck_assert_int_eq(store_ladder_event_add(st, &ev, &id, &err), 0);
	ck_assert_int_gt(id, 0);

	/* the schema's own checks */
	ck_schema_refuses("INSERT INTO ladder_events (ladder, kind, at, "
			  "player_id) VALUES ('Main', 'joined', 1, 1)");
	ck_schema_refuses("INSERT INTO ladder_events (ladder, kind, at, "
			  "player_id) VALUES ('main', 'won', 1, 1)");
	ck_schema_refuses("INSERT INTO ladder_events (ladder, kind, at, "
			  "player_id, other_id, game_id) VALUES "
			  "('main', 'result', 1, 1, 2, 1)");
	ck_schema_refuses("INSERT INTO ladder_events (ladder, kind, at, "
			  "player_id, position) VALUES "
			  "('main', 'moved', 1, 1, 1)");
	ck_schema_refuses("INSERT INTO ladder_events (ladder, kind, at, "
			  "player_id, actor) VALUES "
			  "('main', 'joined', 1, 1, 'root')");
	ck_schema_refuses("INSERT INTO ladder_events (ladder, kind, at, "
			  "player_id) VALUES ('main', 'joined', 1, 9)");
	ck_schema_takes("INSERT INTO ladder_events (ladder, kind, at, "
			"player_id, position, actor) VALUES "
			"('main', 'moved', 1, 1, 1, 'daemon')");
}
END_TEST

/* ---- which competition a game belongs to ------------------------------ */

START_TEST(test_game_club)
{
	int64_t a = add_player("alice", 1), b = add_player("bob", 2);
	int64_t g[3], season = 0;
	struct store_game_club gc = { 0 }, back;

	for (size_t k = 0; k < 3; k++)
		g[k] = make_game(a, b, STORE_GAME_ACTIVE, 10);

	ck_assert_int_eq(store_league_season_add(st, "spring", 1, 100, 200, 50,
						 &season, &err), 0);
	memset(&back, 0x55, sizeof(back));
	ck_assert_int_eq(store_game_club_get(st, g[0], &back, &err), 0);
	ck_assert_int_eq(back.game_id, g[0]);
	ck_assert_ptr_null(back.ladder);
	ck_assert_int_eq(back.season_id, 0);
	ck_assert(!back.rated);
	ck_assert_int_eq(back.applied_at, 0);

	gc.game_id = g[0];
	gc.ladder = "main";
	gc.rated = true;
	ck_assert_int_eq(store_game_club_set(st, &gc, &err), 0);
	ck_assert_int_eq(store_game_club_get(st, g[0], &back, &err), 1);
	ck_assert_int_eq(back.game_id, g[0]);
	ck_assert_str_eq(back.ladder, "main");
	ck_assert_int_eq(back.season_id, 0);
	ck_assert_int_eq(back.group_no, 0);
	ck_assert(back.rated);
	ck_assert_int_eq(back.applied_at, 0);
	store_game_club_clear(&back);
	ck_assert_ptr_null(back.ladder);

	/* once: linked again (even elsewhere) changes nothing */
	gc.ladder = "other";
	gc.rated = false;
	ck_assert_int_eq(store_game_club_set(st, &gc, &err), 1);
	ck_assert_int_eq(store_game_club_get(st, g[0], &back, &err), 1);
	ck_assert_str_eq(back.ladder, "main");
	ck_assert(back.rated);
	store_game_club_clear(&back);

	/* a league game: season and group */
	memset(&gc, 0, sizeof(gc));
	gc.game_id = g[1];
	gc.season_id = season;
	gc.group_no = 2;
	gc.applied_at = 0;
	ck_assert_int_eq(store_game_club_set(st, &gc, &err), 0);
	ck_assert_int_eq(store_game_club_get(st, g[1], &back, &err), 1);
	ck_assert_ptr_null(back.ladder);
	ck_assert_int_eq(back.season_id, season);
	ck_assert_int_eq(back.group_no, 2);
	ck_assert(!back.rated);
	store_game_club_clear(&back);
	ck_assert_int_eq(count("game_club"), 2);

	/* refused: no game, neither competition, a bad ladder name, a group
	 * without its season or a season without its group, no season */
	memset(&gc, 0, sizeof(gc));
	gc.ladder = "main";
	ck_usage(store_game_club_set(st, &gc, &err));
	gc.game_id = g[2] + 10;
	ck_usage(store_game_club_set(st, &gc, &err));
	ck_assert_ptr_nonnull(strstr(err, "no game"));
	gc.game_id = g[2];
	gc.ladder = NULL;
	ck_usage(store_game_club_set(st, &gc, &err));
	gc.ladder = "Main";
	ck_usage(store_game_club_set(st, &gc, &err));
	gc.ladder = "main";
	gc.group_no = 1;
	ck_usage(store_game_club_set(st, &gc, &err));
	gc.ladder = NULL;
	gc.season_id = season;
	gc.group_no = 0;
	ck_usage(store_game_club_set(st, &gc, &err));
	gc.group_no = 1;
	gc.season_id = season + 5;
	ck_usage(store_game_club_set(st, &gc, &err));
	ck_assert_ptr_nonnull(strstr(err, "no league season"));
	ck_assert_int_eq(count("game_club"), 2);
	ck_assert_int_eq(store_game_club_get(st, g[2], &back, &err), 0);

	/* the schema's own checks; a game's link goes with the game */
	ck_schema_refuses("INSERT INTO game_club (game_id) VALUES (3)");
	ck_schema_refuses("INSERT INTO game_club (game_id, ladder, "
			  "group_no) VALUES (3, 'main', 1)");
	ck_schema_refuses("INSERT INTO game_club (game_id, ladder, "
			  "rated) VALUES (3, 'main', 2)");
	ck_schema_takes("DELETE FROM games WHERE id = 1");
	ck_assert_int_eq(count("game_club"), 1);
}
END_TEST

START_TEST(test_pending_and_applied)
{
	int64_t a = add_player("alice", 1), b = add_player("bob", 2);
	int64_t active = make_game(a, b, STORE_GAME_ACTIVE, 10);
	int64_t late = make_game(a, b, STORE_GAME_ACTIVE, 10);
	int64_t early = make_game(a, b, STORE_GAME_ACTIVE, 10);
	int64_t cancelled = make_game(a, b, STORE_GAME_ACTIVE, 10);
	int64_t tie = make_game(a, b, STORE_GAME_ACTIVE, 10);
	int64_t unlinked = make_game(a, b, STORE_GAME_ACTIVE, 10);
	int64_t declined = make_game(a, b, STORE_GAME_CHALLENGE, 10);
	int64_t *ids = NULL;
	size_t n = 99;
	struct store_game_club gc;

	link_game(active, "main", 0, 0, true);
	link_game(late, "main", 0, 0, true);
	link_game(early, "main", 0, 0, false);
	link_game(cancelled, "main", 0, 0, true);
	link_game(tie, "main", 0, 0, true);
	link_game(declined, "main", 0, 0, true);
	ck_assert_int_eq(store_game_club_pending(st, 0, &ids, &n, &err), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_ptr_null(ids);

	/* ended: finished or cancelled, by updated then id; an active, an
	 * unlinked or a declined game is never pending */
	set_status(late, STORE_GAME_FINISHED, 300);
	set_status(early, STORE_GAME_FINISHED, 100);
	set_status(cancelled, STORE_GAME_CANCELLED, 200);
	set_status(tie, STORE_GAME_FINISHED, 100);
	set_status(unlinked, STORE_GAME_FINISHED, 50);
	set_status(declined, STORE_GAME_DECLINED, 50);
	ck_assert_int_eq(store_game_club_pending(st, 0, &ids, &n, &err), 0);
	ck_assert_uint_eq(n, 4);
	ck_assert_int_eq(ids[0], early);
	ck_assert_int_eq(ids[1], tie);
	ck_assert_int_eq(ids[2], cancelled);
	ck_assert_int_eq(ids[3], late);
	free(ids);
	ck_assert_int_eq(store_game_club_pending(st, 2, &ids, &n, &err), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(ids[1], tie);
	free(ids);

	/* applied: no longer pending; applied once */
	ck_assert_int_eq(store_game_club_applied(st, tie, 1000, &err), 0);
	ck_assert_int_eq(store_game_club_applied(st, early, 1001, &err), 0);
	ck_assert_int_eq(store_game_club_applied(st, tie, 2000, &err), 1);
	ck_assert_int_eq(store_game_club_get(st, tie, &gc, &err), 1);
	ck_assert_int_eq(gc.applied_at, 1000);
	store_game_club_clear(&gc);
	ck_assert_int_eq(store_game_club_pending(st, 0, &ids, &n, &err), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(ids[0], cancelled);
	ck_assert_int_eq(ids[1], late);
	free(ids);

	/* an active game may be applied (the service decides), and then is
	 * not pending when it ends */
	ck_assert_int_eq(store_game_club_applied(st, active, 1500, &err), 0);
	set_status(active, STORE_GAME_FINISHED, 10);
	ck_assert_int_eq(store_game_club_pending(st, 0, &ids, &n, &err), 0);
	ck_assert_uint_eq(n, 2);
	free(ids);

	/* refused: a game of no competition, the time 0 ("not yet") */
	ck_usage(store_game_club_applied(st, unlinked, 1000, &err));
	ck_assert_ptr_nonnull(strstr(err, "no competition"));
	ck_usage(store_game_club_applied(st, late, 0, &err));
	ck_assert_int_eq(test_query_int(test_db, "SELECT count(*) FROM "
			 "game_club WHERE applied_at IS NULL"), 3);

	/* inside a transaction rolled back: still pending */
	ck_assert_int_eq(store_begin(st, &err), 0);
	ck_assert_int_eq(store_game_club_applied(st, late, 3000, &err), 0);
	store_rollback(st);
	ck_assert_int_eq(store_game_club_pending(st, 0, &ids, &n, &err), 0);
	ck_assert_uint_eq(n, 2);
	free(ids);
}
END_TEST

/* ---- leagues ------------------------------------------------------------ */

START_TEST(test_league_seasons)
{
	int64_t s1 = 0, s2 = 0, s3 = 0, again = 0;
	struct store_league_season *list = NULL;
	size_t n = 99;

	ck_assert_int_eq(store_league_seasons(st, "spring", &list, &n, &err),
			 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_int_eq(store_league_season_add(st, "spring", 2, 300, 400, 60,
						 &s2, &err), 0);
	ck_assert_int_eq(store_league_season_add(st, "spring", 1, 100, 200, 50,
						 &s1, &err), 0);
	ck_assert_int_eq(store_league_season_add(st, "autumn", 1, 100, 200, 50,
						 &s3, &err), 0);
	ck_assert(s1 > 0 && s2 > 0 && s3 > 0 && s1 != s2 && s3 != s1);

	/* once: the same number again changes nothing and tells its id */
	ck_assert_int_eq(store_league_season_add(st, "spring", 2, 900, 999, 70,
						 &again, &err), 1);
	ck_assert_int_eq(again, s2);
	ck_assert_int_eq(count("league_seasons"), 3);

	ck_assert_int_eq(store_league_seasons(st, "spring", &list, &n, &err),
			 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(list[0].id, s1);
	ck_assert_str_eq(list[0].league, "spring");
	ck_assert_int_eq(list[0].number, 1);
	ck_assert_int_eq(list[0].starts, 100);
	ck_assert_int_eq(list[0].ends, 200);
	ck_assert_int_eq(list[0].created, 50);
	ck_assert_int_eq(list[1].id, s2);
	ck_assert_int_eq(list[1].number, 2);
	ck_assert_int_eq(list[1].starts, 300);
	ck_assert_int_eq(list[1].created, 60);
	store_rows_free(&list, n, sizeof(*list), store_league_season_clear);

	/* refused: a bad name, number 0, an end not after the start */
	again = -5;
	ck_usage(store_league_season_add(st, "Spring", 3, 1, 2, 1, &again,
					 &err));
	ck_usage(store_league_season_add(st, "", 3, 1, 2, 1, &again, &err));
	ck_usage(store_league_season_add(st, NULL, 3, 1, 2, 1, &again, &err));
	ck_usage(store_league_season_add(st, "spring", 0, 1, 2, 1, &again,
					 &err));
	ck_usage(store_league_season_add(st, "spring", 3, 2, 2, 1, &again,
					 &err));
	ck_assert_int_eq(again, -5);
	ck_assert_int_eq(count("league_seasons"), 3);
	ck_schema_refuses("INSERT INTO league_seasons (league, number, "
			  "starts, ends, created) VALUES "
			  "('x', 1, 5, 4, 1)");
	ck_schema_refuses("INSERT INTO league_seasons (league, number, "
			  "starts, ends, created) VALUES "
			  "('x', 0, 5, 6, 1)");
}
END_TEST

/* A league member row: player, in season's group, division and seed. */
static void ck_member(const struct store_league_member *r, int64_t player,
		      int64_t season, int group, int division, int seed)
{
	ck_assert_int_eq(r->player_id, player);
	ck_assert_int_eq(r->season_id, season);
	ck_assert_int_eq(r->group_no, group);
	ck_assert_int_eq(r->division, division);
	ck_assert_int_eq(r->seed, seed);
}

START_TEST(test_league_members_and_games)
{
	int64_t a = add_player("alice", 1), b = add_player("bob", 2);
	int64_t c = add_player("carol", 3), d = add_player("dave", 4);
	int64_t s1 = 0, s2 = 0, g1, g2, g3, g4;
	struct store_league_member m = { 0 }, *list = NULL;
	struct store_game_club *games = NULL;
	size_t n = 99, i;

	ck_assert_int_eq(store_league_season_add(st, "main", 1, 100, 200, 50,
						 &s1, &err), 0);
	ck_assert_int_eq(store_league_season_add(st, "main", 2, 300, 400, 50,
						 &s2, &err), 0);
	ck_assert_int_eq(store_league_members(st, s1, &list, &n, &err), 0);
	ck_assert_uint_eq(n, 0);

	/* added out of order: listed by group, then seed */
	m.season_id = s1;
	m.group_no = 2;
	m.division = 2;
	m.seed = 1;
	m.player_id = d;
	ck_assert_int_eq(store_league_member_add(st, &m, &err), 0);
	m.group_no = 1;
	m.division = 1;
	m.seed = 2;
	m.player_id = a;
	ck_assert_int_eq(store_league_member_add(st, &m, &err), 0);
	m.seed = 1;
	m.player_id = b;
	ck_assert_int_eq(store_league_member_add(st, &m, &err), 0);
	m.season_id = s2;
	m.player_id = c;
	ck_assert_int_eq(store_league_member_add(st, &m, &err), 0);
	/* once per season: in another group changes nothing */
	m.season_id = s1;
	m.group_no = 3;
	m.player_id = a;
	ck_assert_int_eq(store_league_member_add(st, &m, &err), 1);

	ck_assert_int_eq(store_league_members(st, s1, &list, &n, &err), 0);
	ck_assert_uint_eq(n, 3);
	ck_member(&list[0], b, s1, 1, 1, 1);
	ck_member(&list[1], a, s1, 1, 1, 2);
	ck_member(&list[2], d, s1, 2, 2, 1);
	free(list);

	/* refused: group, division or seed below 1, no season, no player */
	m.season_id = s2;
	m.player_id = d;
	m.group_no = 0;
	ck_usage(store_league_member_add(st, &m, &err));
	m.group_no = 1;
	m.division = 0;
	ck_usage(store_league_member_add(st, &m, &err));
	m.division = 1;
	m.seed = 0;
	ck_usage(store_league_member_add(st, &m, &err));
	m.seed = 1;
	m.season_id = 0;
	ck_usage(store_league_member_add(st, &m, &err));
	m.season_id = s2 + 10;
	ck_usage(store_league_member_add(st, &m, &err));
	ck_assert_ptr_nonnull(strstr(err, "no league season"));
	m.season_id = s2;
	m.player_id = 0;
	ck_usage(store_league_member_add(st, &m, &err));
	m.player_id = d + 10;
	ck_usage(store_league_member_add(st, &m, &err));
	ck_assert_ptr_nonnull(strstr(err, "no player"));
	ck_assert_int_eq(count("league_members"), 4);

	/* a season's games, by game id */
	g1 = make_game(a, b, STORE_GAME_ACTIVE, 10);
	g2 = make_game(b, d, STORE_GAME_ACTIVE, 10);
	g3 = make_game(a, b, STORE_GAME_ACTIVE, 10);
	g4 = make_game(a, b, STORE_GAME_ACTIVE, 10);
	link_game(g3, NULL, s1, 1, true);
	link_game(g2, NULL, s1, 2, false);
	link_game(g1, "main", 0, 0, true);
	link_game(g4, NULL, s2, 1, true);
	ck_assert_int_eq(store_league_games(st, s1, &games, &n, &err), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(games[0].game_id, g2);
	ck_assert_int_eq(games[0].season_id, s1);
	ck_assert_int_eq(games[0].group_no, 2);
	ck_assert(!games[0].rated);
	ck_assert_ptr_null(games[0].ladder);
	ck_assert_int_eq(games[1].game_id, g3);
	ck_assert(games[1].rated);
	for (i = 0; i < n; i++)
		store_game_club_clear(&games[i]);
	free(games);
	ck_assert_int_eq(store_league_games(st, s2 + 10, &games, &n, &err), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_ptr_null(games);
}
END_TEST

/* `ashes db check` with league members: SQLite 3.40 (Debian 12's)
 * misreads the NOT NULL columns of a WITHOUT ROWID table whose primary
 * key is not its first columns, and said "NULL value in
 * league_members.group_no" (and .division, .seed) for every row though
 * none was NULL.  The migration NNN-league-members-key-first.sql put the
 * key first (test_store_upgrade keeps every such table so); the check
 * must pass. */
START_TEST(test_check_with_league_members)
{
	int64_t a = add_player("alice", 1), b = add_player("bob", 2), s1 = 0;
	struct store_league_member m = { 0 };
	struct store_check_report *r = NULL;

	ck_assert_int_eq(store_league_season_add(st, "main", 1, 100, 200, 50,
						 &s1, &err), 0);
	m.season_id = s1;
	m.group_no = m.division = m.seed = 1;
	m.player_id = a;
	ck_assert_int_eq(store_league_member_add(st, &m, &err), 0);
	m.seed = 2;
	m.player_id = b;
	ck_assert_int_eq(store_league_member_add(st, &m, &err), 0);
	ck_assert_int_eq(store_check(st, &r, &err), 0);
	ck_assert_msg(r->ok, "%s", r->text);
	ck_assert_int_eq(r->integrity_problems, 0);
	ck_assert_ptr_null(strstr(r->text, "NULL value"));
	store_check_report_free(&r);
}
END_TEST

TEST_MAIN("store_club", "club", setup, teardown, 0, test_ladder_events,
	  test_ladder_event_refused, test_game_club, test_pending_and_applied,
	  test_league_seasons, test_league_members_and_games,
	  test_check_with_league_members)
