/* test_store_clock.c -- what the clocks keep (sql/008): vacations booked,
 * listed and cut short, the vacation bank and last reminder, a game's
 * clock history, the timer's heartbeat, the next deadline and the
 * reminders due; a game's clock columns and the status "cancelled"; and
 * the migration of a version-7 database with its rows. */
#include "store_fixture.h"

#define make_game(white, black, status) \
	add_game("size=5 tax=removed", white, black, white, status, 10)
/* An inbound mail to point at; its id. */
#define add_inbound(n) \
	add_inbound_raw(n, "From: a@example.org\r\n\r\nvacation 3\r\n", 50)

/* Load game id, set its remind_at and deadline_at (0: none), save it. */
static void set_times(int64_t id, int64_t remind_at, int64_t deadline_at)
{
	struct store_game *g = NULL;

	ck_assert_int_eq(store_game_load(st, id, &g, &err), 1);
	g->remind_at = remind_at;
	g->deadline_at = deadline_at;
	ck_assert_int_eq(store_game_update(st, g, 20, &err), 0);
	store_game_free(&g);
}

/* ---- vacations ------------------------------------------------------ */

/* A listed vacation is the one booked, field by field. */
static void ck_vacation(const struct store_vacation *got,
			const struct store_vacation *want)
{
	ck_assert_msg(got->id == want->id &&
		      got->player_id == want->player_id &&
		      got->from == want->from && got->to == want->to &&
		      got->days == want->days &&
		      got->inbound_id == want->inbound_id &&
		      got->created == want->created,
		      "vacation %lld: player %lld, %lld..%lld, %d days, "
		      "mail %lld, at %lld", (long long)got->id,
		      (long long)got->player_id, (long long)got->from,
		      (long long)got->to, got->days,
		      (long long)got->inbound_id, (long long)got->created);
}

START_TEST(test_vacations)
{
	int64_t a = add_player("alice", 1), b = add_player("bob", 2);
	int64_t mail = add_inbound(1), v1 = 0, v2 = 0, v3 = 0;
	struct store_vacation *vacs = NULL;
	size_t n = 99;

	ck_assert_int_eq(store_vacations_for_player(st, a, 0, &vacs, &n, &err),
			 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_ptr_null(vacs);

	/* booked out of order, listed by their start */
	ck_assert_int_eq(store_vacation_add(st, a, 5000, 6000, 1, mail, 100,
					    &v1, &err), 0);
	ck_assert_int_eq(store_vacation_add(st, a, 1000, 2000, 2, 0, 101,
					    &v2, &err), 0);
	ck_assert_int_eq(store_vacation_add(st, a, 3000, 4000, 0, 0, 102,
					    &v3, &err), 0);
	ck_assert_int_eq(store_vacation_add(st, b, 1000, 9000, 3, 0, 103,
					    NULL, &err), 0);
	ck_assert(v1 > 0 && v2 > v1 && v3 > v2);
	ck_assert_int_eq(store_vacations_for_player(st, a, 0, &vacs, &n, &err),
			 0);
	ck_assert_uint_eq(n, 3);
	{
		const struct store_vacation want[] = {
			{ v2, a, 1000, 2000, 2, 0, 101 },
			{ v3, a, 3000, 4000, 0, 0, 102 },
			{ v1, a, 5000, 6000, 1, mail, 100 },
		};

		for (size_t k = 0; k < 3; k++)
			ck_vacation(&vacs[k], &want[k]);
	}
	free(vacs);

	/* only those that end after `after`: one ending at it is over */
	ck_assert_int_eq(store_vacations_for_player(st, a, 2000, &vacs, &n,
						    &err), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(vacs[0].id, v3);
	free(vacs);
	ck_assert_int_eq(store_vacations_for_player(st, a, 1999, &vacs, &n,
						    &err), 0);
	ck_assert_uint_eq(n, 3);
	free(vacs);
	ck_assert_int_eq(store_vacations_for_player(st, a, 6000, &vacs, &n,
						    &err), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_int_eq(store_vacations_for_player(st, b, 0, &vacs, &n, &err),
			 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(vacs[0].days, 3);
	free(vacs);
}
END_TEST

START_TEST(test_vacation_refused)
{
	int64_t a = add_player("alice", 1), id = -5;

	/* empty or backwards, a negative bank, nobody, a mail not there */
	ck_assert_int_eq(store_vacation_add(st, a, 1000, 1000, 1, 0, 1, &id,
					    &err), -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	ck_assert_int_eq(store_vacation_add(st, a, 1000, 999, 1, 0, 1, &id,
					    &err), -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	ck_assert_int_eq(store_vacation_add(st, a, 1000, 2000, -1, 0, 1, &id,
					    &err), -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	ck_assert_int_eq(store_vacation_add(st, a + 100, 1000, 2000, 1, 0, 1,
					    &id, &err), -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	ck_assert_ptr_nonnull(strstr(err, "no player"));
	ck_assert_int_eq(store_vacation_add(st, a, 1000, 2000, 1, 77, 1, &id,
					    &err), -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	ck_assert_int_eq(id, -5);
	ck_assert_int_eq(count("vacations"), 0);

	/* the schema's own checks */
	ck_schema_refuses("INSERT INTO vacations (player_id, from_at, "
			  "to_at, days, created) "
			  "VALUES (1, 5, 5, 0, 1)");
	ck_schema_refuses("INSERT INTO vacations (player_id, from_at, "
			  "to_at, days, created) "
			  "VALUES (1, 5, 6, -1, 1)");
	ck_schema_takes("INSERT INTO vacations (player_id, from_at, "
			"to_at, days, created) "
			"VALUES (1, 5, 6, 0, 1)");
}
END_TEST

START_TEST(test_vacation_cut)
{
	int64_t a = add_player("alice", 1), v = 0, w = 0;
	struct store_vacation *vacs = NULL;
	size_t n = 0;

	ck_assert_int_eq(store_vacation_add(st, a, 1000, 5000, 4, 0, 1, &v,
					    &err), 0);
	ck_assert_int_eq(store_vacation_add(st, a, 8000, 9000, 1, 0, 1, &w,
					    &err), 0);

	/* after its end, a negative bank, no such vacation: unchanged */
	ck_assert_int_eq(store_vacation_cut(st, v, 5001, 4, &err), -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	ck_assert_int_eq(store_vacation_cut(st, v, 3000, -1, &err), -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	ck_assert_int_eq(store_vacation_cut(st, w + 10, 3000, 1, &err), -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	ck_assert_int_eq(test_query_int(test_db, "SELECT count(*) FROM "
			 "vacations WHERE from_at = 1000 AND to_at = 5000 "
			 "AND days = 4"), 1);

	/* at its very end: only the days change */
	ck_assert_int_eq(store_vacation_cut(st, v, 5000, 3, &err), 0);
	/* cut short: ends earlier and gives days back */
	ck_assert_int_eq(store_vacation_cut(st, v, 2500, 2, &err), 0);
	ck_assert_int_eq(store_vacations_for_player(st, a, 0, &vacs, &n, &err),
			 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(vacs[0].id, v);
	ck_assert_int_eq(vacs[0].from, 1000);
	ck_assert_int_eq(vacs[0].to, 2500);
	ck_assert_int_eq(vacs[0].days, 2);
	ck_assert_int_eq(vacs[1].to, 9000); /* the other one untouched */
	free(vacs);
	/* once cut, its old end is after the new one */
	ck_assert_int_eq(store_vacation_cut(st, v, 4000, 2, &err), -1);

	/* ended at or before its start: gone */
	ck_assert_int_eq(store_vacation_cut(st, v, 1000, 0, &err), 0);
	ck_assert_int_eq(store_vacation_cut(st, w, 10, 0, &err), 0);
	ck_assert_int_eq(count("vacations"), 0);
	ck_assert_int_eq(store_vacation_cut(st, v, 1000, 0, &err), -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
}
END_TEST

/* ---- the bank and the last reminder --------------------------------- */

START_TEST(test_player_clock)
{
	int64_t a = add_player("alice", 1), b = add_player("bob", 2);
	struct store_player_clock pc, back;

	memset(&back, 0x55, sizeof(back));
	ck_assert_int_eq(store_player_clock_get(st, a, &back, &err), 0);
	ck_assert_int_eq(back.player_id, a);
	ck_assert(!back.has_bank);
	ck_assert_int_eq(back.vacation_days, 0);
	ck_assert_int_eq(back.accrued_at, 0);
	ck_assert_int_eq(back.last_reminder_at, 0);

	memset(&pc, 0, sizeof(pc));
	pc.player_id = a;
	pc.has_bank = true;
	pc.vacation_days = 14;
	pc.accrued_at = 3000;
	ck_assert_int_eq(store_player_clock_set(st, &pc, &err), 0);
	ck_assert_int_eq(store_player_clock_get(st, a, &back, &err), 1);
	ck_assert_int_eq(back.player_id, a);
	ck_assert(back.has_bank);
	ck_assert_int_eq(back.vacation_days, 14);
	ck_assert_int_eq(back.accrued_at, 3000);
	ck_assert_int_eq(back.last_reminder_at, 0);
	ck_assert_int_eq(test_query_int(test_db, "SELECT count(*) FROM "
			 "player_clock WHERE last_reminder_at IS NULL"), 1);

	/* written again: replaced; an empty bank is a bank */
	pc.vacation_days = 0;
	pc.accrued_at = 4000;
	pc.last_reminder_at = 3500;
	ck_assert_int_eq(store_player_clock_set(st, &pc, &err), 0);
	ck_assert_int_eq(store_player_clock_get(st, a, &back, &err), 1);
	ck_assert(back.has_bank);
	ck_assert_int_eq(back.vacation_days, 0);
	ck_assert_int_eq(back.accrued_at, 4000);
	ck_assert_int_eq(back.last_reminder_at, 3500);
	ck_assert_int_eq(count("player_clock"), 1);

	/* a reminder to a player whose bank was never opened */
	memset(&pc, 0, sizeof(pc));
	pc.player_id = b;
	pc.vacation_days = 9; /* not stored without has_bank */
	pc.last_reminder_at = 700;
	ck_assert_int_eq(store_player_clock_set(st, &pc, &err), 0);
	ck_assert_int_eq(store_player_clock_get(st, b, &back, &err), 1);
	ck_assert(!back.has_bank);
	ck_assert_int_eq(back.vacation_days, 0);
	ck_assert_int_eq(back.last_reminder_at, 700);

	/* refused: nobody, a negative bank */
	pc.player_id = b + 100;
	ck_assert_int_eq(store_player_clock_set(st, &pc, &err), -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	ck_assert_ptr_nonnull(strstr(err, "no player"));
	pc.player_id = b;
	pc.has_bank = true;
	pc.vacation_days = -1;
	ck_assert_int_eq(store_player_clock_set(st, &pc, &err), -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	ck_assert_int_eq(store_player_clock_get(st, b, &back, &err), 1);
	ck_assert(!back.has_bank);
	ck_assert_int_eq(count("player_clock"), 2);

	/* the schema: days and accrued_at together, never negative */
	ck_schema_refuses("UPDATE player_clock SET vacation_days = 3 "
			  "WHERE accrued_at IS NULL");
	ck_schema_refuses("UPDATE player_clock SET vacation_days = -3 "
			  "WHERE accrued_at IS NOT NULL");
}
END_TEST

/* A player's vacations and bank go with the player. */
START_TEST(test_player_delete_cascades)
{
	int64_t a = add_player("alice", 1), b = add_player("bob", 2);
	struct store_player_clock pc = { 0 };

	pc.player_id = a;
	pc.has_bank = true;
	pc.vacation_days = 3;
	ck_assert_int_eq(store_player_clock_set(st, &pc, &err), 0);
	ck_assert_int_eq(store_vacation_add(st, a, 1, 2, 0, 0, 1, NULL, &err),
			 0);
	ck_assert_int_eq(store_vacation_add(st, b, 1, 2, 0, 0, 1, NULL, &err),
			 0);
	ck_schema_takes("DELETE FROM players WHERE name = 'alice'");
	ck_assert_int_eq(count("player_clock"), 0);
	ck_assert_int_eq(count("vacations"), 1);
}
END_TEST

/* ---- a game's clock history ----------------------------------------- */

START_TEST(test_clock_events)
{
	int64_t a = add_player("alice", 1), b = add_player("bob", 2);
	int64_t g = make_game(a, b, STORE_GAME_ACTIVE);
	int64_t h = make_game(b, a, STORE_GAME_ACTIVE);
	int64_t mail = add_inbound(1);
	struct store_clock_event *ev = NULL;
	size_t n = 99;

	ck_assert_int_eq(store_clock_events(st, g, &ev, &n, &err), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_ptr_null(ev);

	/* recorded in this order, whatever their times */
	ck_assert_int_eq(store_clock_event_add(st, g, STORE_CLOCK_ADJUST, a,
					       3600, "lost a day to a mail outage",
					       mail, 500, &err), 0);
	ck_assert_int_eq(store_clock_event_add(st, h, STORE_CLOCK_FLAG, b, 0,
					       NULL, 0, 450, &err), 0);
	ck_assert_int_eq(store_clock_event_add(st, g, STORE_CLOCK_OUTAGE, 0,
					       7200, NULL, 0, 400, &err), 0);
	ck_assert_int_eq(store_clock_event_add(st, g, STORE_CLOCK_VACATION_DAY,
					       b, -86400, "", 0, 600, &err), 0);
	ck_assert_int_eq(store_clock_events(st, g, &ev, &n, &err), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert_int_eq(ev[0].kind, STORE_CLOCK_ADJUST);
	ck_assert_int_eq(ev[0].game_id, g);
	ck_assert_int_eq(ev[0].at, 500);
	ck_assert_int_eq(ev[0].player_id, a);
	ck_assert_int_eq(ev[0].seconds, 3600);
	ck_assert_str_eq(ev[0].note, "lost a day to a mail outage");
	ck_assert_int_eq(ev[0].inbound_id, mail);
	ck_assert_int_eq(ev[1].kind, STORE_CLOCK_OUTAGE);
	ck_assert_int_eq(ev[1].at, 400);
	ck_assert_int_eq(ev[1].player_id, 0);
	ck_assert_ptr_null(ev[1].note);
	ck_assert_int_eq(ev[1].inbound_id, 0);
	ck_assert_int_eq(ev[2].kind, STORE_CLOCK_VACATION_DAY);
	ck_assert_int_eq(ev[2].seconds, -86400);
	ck_assert_str_eq(ev[2].note, "");
	ck_assert(ev[0].id < ev[1].id && ev[1].id < ev[2].id);
	store_rows_free(&ev, n, sizeof(*ev), store_clock_event_clear);
	ck_assert_ptr_null(ev);
	ck_assert_int_eq(store_clock_events(st, h, &ev, &n, &err), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(ev[0].kind, STORE_CLOCK_FLAG);
	store_rows_free(&ev, n, sizeof(*ev), store_clock_event_clear);

	/* the events go with their game */
	ck_assert_int_eq(h, 2);
	ck_schema_takes("DELETE FROM games WHERE id = 2");
	ck_assert_int_eq(count("clock_events"), 3);
}
END_TEST

START_TEST(test_clock_event_refused)
{
	int64_t a = add_player("alice", 1), b = add_player("bob", 2);
	int64_t g = make_game(a, b, STORE_GAME_ACTIVE);
	char note[202];
	static const enum store_clock_kind bad_kinds[] = {
		STORE_CLOCK_OTHER, STORE_CLOCK_OTHER + 1,
		(enum store_clock_kind)-1,
	};
	size_t i;

	for (i = 0; i < sizeof(bad_kinds) / sizeof(bad_kinds[0]); i++) {
		ck_assert_msg(store_clock_event_add(st, g, bad_kinds[i], a, 0,
						    NULL, 0, 1, &err) == -1,
			      "%d", (int)bad_kinds[i]);
		ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	}
	/* a note of 201 bytes is too long, of 200 not */
	memset(note, 'n', 201);
	note[201] = '\0';
	ck_assert_int_eq(store_clock_event_add(st, g, STORE_CLOCK_ADJUST, a, 1,
					       note, 0, 1, &err), -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	/* no such game, player, mail */
	ck_assert_int_eq(store_clock_event_add(st, g + 1, STORE_CLOCK_ADJUST, a,
					       1, NULL, 0, 1, &err), -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	ck_assert_ptr_nonnull(strstr(err, "no game"));
	ck_assert_int_eq(store_clock_event_add(st, g, STORE_CLOCK_ADJUST, b + 9,
					       1, NULL, 0, 1, &err), -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	ck_assert_int_eq(store_clock_event_add(st, g, STORE_CLOCK_ADJUST, a, 1,
					       NULL, 42, 1, &err), -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	ck_assert_int_eq(count("clock_events"), 0);

	note[200] = '\0';
	ck_assert_int_eq(store_clock_event_add(st, g, STORE_CLOCK_ADJUST, a, 1,
					       note, 0, 1, &err), 0);
	ck_assert_int_eq(store_clock_event_add(st, g, STORE_CLOCK_VACATION_OVER,
					       a, 0, NULL, 0, 1, &err), 0);
	ck_assert_int_eq(count("clock_events"), 2);

	/* the schema's own checks */
	ck_schema_refuses("INSERT INTO clock_events (game_id, at, kind) "
			  "VALUES (1, 1, 'Flag')");
	ck_schema_refuses("INSERT INTO clock_events (game_id, at, kind) "
			  "VALUES (1, 1, '')");
	ck_schema_refuses("INSERT INTO clock_events (game_id, at, kind, "
			  "note) VALUES (1, 1, 'adjust', "
			  "printf('%.201c', 'x'))");
	ck_schema_takes("INSERT INTO clock_events (game_id, at, kind, "
			"note) VALUES (1, 1, 'adjust', "
			"printf('%.200c', 'x'))");
}
END_TEST

/* ---- the timer ------------------------------------------------------ */

START_TEST(test_heartbeat)
{
	int64_t at = -1;

	ck_assert_int_eq(store_clock_heartbeat_get(st, &at, &err), 0);
	ck_assert_int_eq(at, 0);
	ck_assert_int_eq(store_clock_heartbeat_set(st, 1000, &err), 0);
	ck_assert_int_eq(store_clock_heartbeat_get(st, &at, &err), 1);
	ck_assert_int_eq(at, 1000);
	/* the last one written, even an earlier time (a clock set back) */
	ck_assert_int_eq(store_clock_heartbeat_set(st, 900, &err), 0);
	ck_assert_int_eq(store_clock_heartbeat_get(st, &at, &err), 1);
	ck_assert_int_eq(at, 900);
	ck_assert_int_eq(count("server_state"), 1);

	/* inside a transaction rolled back: the old beat stays */
	ck_assert_int_eq(store_begin(st, &err), 0);
	ck_assert_int_eq(store_clock_heartbeat_set(st, 2000, &err), 0);
	store_rollback(st);
	ck_assert_int_eq(store_clock_heartbeat_get(st, &at, &err), 1);
	ck_assert_int_eq(at, 900);
}
END_TEST

START_TEST(test_next_deadline)
{
	static const enum store_game_status status[] = {
		STORE_GAME_ACTIVE, STORE_GAME_ACTIVE, STORE_GAME_FINISHED,
		STORE_GAME_CHALLENGE,
	};
	int64_t a = add_player("alice", 1), b = add_player("bob", 2);
	int64_t g[4], at = -1;

	for (size_t k = 0; k < 4; k++)
		g[k] = make_game(a, b, status[k]);
	make_game(a, b, STORE_GAME_ACTIVE); /* no deadline */
	ck_assert_int_eq(store_games_next_deadline(st, &at, &err), 0);
	ck_assert_int_eq(at, 0);
	set_times(g[0], 0, 500);
	set_times(g[2], 0, 100); /* not active: never due */
	set_times(g[3], 0, 50);
	ck_assert_int_eq(store_games_next_deadline(st, &at, &err), 1);
	ck_assert_int_eq(at, 500);
	set_times(g[1], 0, 300);
	ck_assert_int_eq(store_games_next_deadline(st, &at, &err), 1);
	ck_assert_int_eq(at, 300);
	/* a reminder is not a deadline */
	set_times(g[0], 200, 500);
	ck_assert_int_eq(store_games_next_deadline(st, &at, &err), 1);
	ck_assert_int_eq(at, 300);
}
END_TEST

START_TEST(test_reminder_due)
{
	/* the games, their reminders and deadlines; the last two not active */
	static const struct {
		enum store_game_status status;
		int64_t remind, deadline;
	} games[] = {
		{ STORE_GAME_ACTIVE, 300, 0 },
		{ STORE_GAME_ACTIVE, 200, 900 },
		{ STORE_GAME_ACTIVE, 100, 0 },
		{ STORE_GAME_ACTIVE, 200, 0 },
		{ STORE_GAME_FINISHED, 50, 0 },
		{ STORE_GAME_CANCELLED, 50, 0 },
	};
	int64_t a = add_player("alice", 1), b = add_player("bob", 2), g[6];
	struct store_game *list = NULL;
	size_t n = 99;

	for (size_t k = 0; k < 6; k++)
		g[k] = make_game(a, b, games[k].status);
	make_game(a, b, STORE_GAME_ACTIVE); /* no reminder to come */
	for (size_t k = 0; k < 6; k++)
		set_times(g[k], games[k].remind, games[k].deadline);

	ck_assert_int_eq(store_games_reminder_due(st, 99, 0, &list, &n, &err),
			 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_ptr_null(list);
	/* remind_at <= before, by remind_at then id */
	ck_assert_int_eq(store_games_reminder_due(st, 200, 0, &list, &n, &err),
			 0);
	ck_assert_uint_ge(n, 3);
	ck_assert_int_eq(list[1].id, g[1]);
	ck_assert_int_eq(list[2].id, g[3]);
	ck_assert_int_eq(list[1].remind_at, 200);
	ck_assert_int_eq(list[1].deadline_at, 900);
	ck_assert_str_eq(list[1].variant, "size=5 tax=removed");
	ck_games(&list, n, 3, 0, g[2]);
	ck_assert_int_eq(store_games_reminder_due(st, 200, 2, &list, &n, &err),
			 0);
	ck_games(&list, n, 2, 1, g[1]);
	ck_assert_int_eq(store_games_reminder_due(st, 1 << 30, 0, &list, &n,
						  &err), 0);
	ck_games(&list, n, 4, 3, g[0]);
}
END_TEST

/* ---- a game's clock columns ----------------------------------------- */

START_TEST(test_game_clock_columns)
{
	int64_t a = add_player("alice", 1), b = add_player("bob", 2), id = 0;
	struct store_game g = {
		.variant = "size=5", .status = STORE_GAME_ACTIVE,
		.white_id = a, .black_id = b, .challenger_id = a,
		.clock_settings = "3d+1d", .clock_white = 100,
		.clock_black = 200, .clock_turn_started = 300,
		.clock_side = 1, .remind_at = 400, .flag_fell_at = 500,
	};
	struct store_game *back = NULL;

	ck_assert_int_eq(store_game_create(st, &g, 10, &id, &err), 0);
	ck_assert_int_eq(store_game_load(st, id, &back, &err), 1);
	ck_assert_int_eq(back->clock_side, 1);
	ck_assert_int_eq(back->remind_at, 400);
	ck_assert_int_eq(back->flag_fell_at, 500);

	/* written by an update; 0 is stored as NULL */
	back->clock_side = 0;
	back->remind_at = 0;
	back->flag_fell_at = 0;
	ck_assert_int_eq(store_game_update(st, back, 20, &err), 0);
	ck_assert_int_eq(test_query_int(test_db, "SELECT count(*) FROM games "
			 "WHERE clock_side = 0 AND remind_at IS NULL AND "
			 "flag_fell_at IS NULL"), 1);
	back->clock_side = 1;
	back->remind_at = 4000;
	back->flag_fell_at = 5000;
	ck_assert_int_eq(store_game_update(st, back, 20, &err), 0);
	store_game_free(&back);
	ck_assert_int_eq(store_game_load(st, id, &back, &err), 1);
	ck_assert_int_eq(back->clock_side, 1);
	ck_assert_int_eq(back->remind_at, 4000);
	ck_assert_int_eq(back->flag_fell_at, 5000);

	/* a side that is neither colour */
	back->clock_side = 2;
	ck_assert_int_eq(store_game_update(st, back, 30, &err), -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	g.clock_side = -1;
	ck_assert_int_eq(store_game_create(st, &g, 10, NULL, &err), -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	store_game_free(&back);
	ck_assert_int_eq(count("games"), 1);
	ck_schema_refuses("UPDATE games SET clock_side = 2");
}
END_TEST

START_TEST(test_game_cancelled)
{
	int64_t a = add_player("alice", 1), b = add_player("bob", 2);
	int64_t active = make_game(a, b, STORE_GAME_ACTIVE);
	int64_t withdrawn = make_game(a, b, STORE_GAME_WITHDRAWN);
	int64_t cancelled = make_game(a, b, STORE_GAME_ACTIVE);
	struct store_game *g = NULL, *list = NULL;
	enum store_game_status status;
	size_t n = 0;

	ck_assert_str_eq(store_game_status_name(STORE_GAME_CANCELLED),
			 "cancelled");
	ck_assert_int_eq(store_game_status_parse("cancelled", &status), 0);
	ck_assert_int_eq(status, STORE_GAME_CANCELLED);

	ck_assert_int_eq(store_game_load(st, cancelled, &g, &err), 1);
	g->status = STORE_GAME_CANCELLED;
	g->end_reason = strdup("flag before first move");
	ck_assert_int_eq(store_game_update(st, g, 40, &err), 0);
	store_game_free(&g);
	ck_assert_int_eq(store_game_load(st, cancelled, &g, &err), 1);
	ck_assert_int_eq(g->status, STORE_GAME_CANCELLED);
	ck_assert_ptr_null(g->result);
	store_game_free(&g);
	ck_assert_int_eq(test_query_int(test_db, "SELECT count(*) FROM games "
			 "WHERE status = 'cancelled'"), 1);

	/* by a mask of statuses: cancelled is not withdrawn */
	ck_assert_int_eq(store_games_list(st, (1u << STORE_GAME_CANCELLED) |
					  (1u << STORE_GAME_ACTIVE), 0, 0,
					  &list, &n, &err), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(list[0].id, active);
	ck_assert_int_eq(list[1].id, cancelled);
	store_rows_free(&list, n, sizeof(*list), store_game_clear);
	ck_assert_int_eq(store_games_for_player(st, a,
						(1u << STORE_GAME_WITHDRAWN) |
						(1u << STORE_GAME_FINISHED),
						&list, &n, &err), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(list[0].id, withdrawn);
	store_rows_free(&list, n, sizeof(*list), store_game_clear);
	ck_assert_int_eq(store_games_list(st, 1u << STORE_GAME_CANCELLED, 0, 0,
					  &list, &n, &err), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(list[0].id, cancelled);
	store_rows_free(&list, n, sizeof(*list), store_game_clear);

	/* a cancelled game had both players */
	ck_schema_refuses("UPDATE games SET black_id = NULL WHERE "
			  "status = 'cancelled'");
}
END_TEST

/* ---- the migration from version 7 ----------------------------------- */

/* The rows of a query on a new connection, as text. */
static char *rows_text(const char *path, const char *sql)
{
	struct buf b = BUF_INIT;
	sqlite3 *db;
	sqlite3_stmt *q;
	int i;

	ck_assert_int_eq(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY,
					 NULL), SQLITE_OK);
	sqlite3_busy_timeout(db, 5000);
	ck_assert_int_eq(sqlite3_prepare_v2(db, sql, -1, &q, NULL), SQLITE_OK);
	while (sqlite3_step(q) == SQLITE_ROW) {
		for (i = 0; i < sqlite3_column_count(q); i++) {
			const unsigned char *t = sqlite3_column_text(q, i);

			buf_printf(&b, "%s|", t ? (const char *)t : "NULL");
		}
		buf_putc(&b, '\n');
	}
	sqlite3_finalize(q);
	sqlite3_close(db);
	return buf_steal(&b);
}

/* Every column games had at version 7. */
#define GAMES_V7_COLUMNS \
	"id, variant, challenger_id, white_id, black_id, swapped, status, " \
	"ply, result, end_reason, created, updated, draw_offer_by, " \
	"draw_offer_ply, clock_settings, clock_white, clock_black, " \
	"clock_turn_started, deadline_at, reminders_sent, " \
	"thread_message_id, undo_offer_by, undo_offer_ply"

START_TEST(test_migration_from_7)
{
	struct store_options o = test_options();
	struct store_check_report *r = NULL;
	struct store_settings set;
	struct store_game *g = NULL;
	char *games_before, *games_after, *others_before, *others_after;
	static const char others[] =
		"SELECT 'm', game_id, ply, move FROM moves UNION ALL "
		"SELECT 'o', game_id, player_id, created FROM observers "
		"UNION ALL SELECT 'n', game_id, ply, text FROM game_messages "
		"UNION ALL SELECT 'd', player_id, game_id, from_ply "
		"FROM digest_items UNION ALL SELECT 's', player_id, "
		"confirm || pictures || moves || digest, updated "
		"FROM player_settings ORDER BY 1, 2, 3";

	/* a database of its own, at version 7 */
	store_close(&st);
	test_dir_remove();
	test_dir_make();
	test_db_at_version(test_db, 7);
	/* rows in every column of games (the API writes version 8's) */
	test_exec(test_db,
		"INSERT INTO players (id, name, created) VALUES"
		" (1, 'alice', 1), (2, 'bob', 2), (3, 'carol', 3);"
		"INSERT INTO games (id, variant, challenger_id, white_id, "
		" black_id, swapped, status, ply, result, end_reason, created,"
		" updated, draw_offer_by, draw_offer_ply, clock_settings,"
		" clock_white, clock_black, clock_turn_started, deadline_at,"
		" reminders_sent, thread_message_id, undo_offer_by,"
		" undo_offer_ply) VALUES"
		" (1, 'size=5 swap', 1, 1, 2, 1, 'active', 2, NULL, NULL, 10,"
		"  20, 2, 1, '3d+1d', 3600, 7200, 15, 9000, 1, 'root1@x',"
		"  1, 2),"
		" (2, 'size=3', 2, 1, 2, 0, 'finished', 0, '1-0', 'resign', 11,"
		"  21, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL,"
		"  NULL, NULL),"
		" (3, 'size=5', 3, NULL, 3, 0, 'open', 0, NULL, NULL, 12, 12,"
		"  NULL, NULL, '1d', 86400, 86400, NULL, NULL, 0, 'root3@x',"
		"  NULL, NULL);"
		"INSERT INTO moves (game_id, ply, move, player_id, played_at)"
		" VALUES (1, 1, 'a1', 1, 13), (1, 2, 'b2', 2, 14);"
		"INSERT INTO observers (game_id, player_id, created)"
		" VALUES (1, 3, 16);"
		"INSERT INTO game_messages (game_id, ply, player_id, text,"
		" created) VALUES (1, 2, 1, 'hello', 17);"
		"INSERT INTO digest_items (player_id, game_id, from_ply,"
		" created) VALUES (3, 1, 1, 18);"
		"INSERT INTO player_settings (player_id, confirm, pictures,"
		" moves, digest, updated)"
		" VALUES (1, 0, 'svg', 'full', 1, 19);");
	games_before = rows_text(test_db, "SELECT " GAMES_V7_COLUMNS
				 " FROM games ORDER BY id");
	others_before = rows_text(test_db, others);
	ck_assert_int_eq(test_query_int(test_db, "PRAGMA user_version"), 7);

	o.no_migrate = true;
	st = test_open_at(test_db, &o);
	ck_assert_int_eq(store_migrate(st, 8, &err), 0);
	ck_assert_int_eq(test_query_int(test_db, "PRAGMA user_version"), 8);
	games_after = rows_text(test_db, "SELECT " GAMES_V7_COLUMNS
				" FROM games ORDER BY id");
	others_after = rows_text(test_db, others);
	ck_assert_str_eq(games_before, games_after);
	ck_assert_str_eq(others_before, others_after);
	ck_assert_int_eq(count("games"), 3);
	/* the new columns hold their defaults */
	ck_assert_int_eq(test_query_int(test_db, "SELECT count(*) FROM games "
			 "WHERE clock_side = 0 AND remind_at IS NULL AND "
			 "flag_fell_at IS NULL"), 3);
	ck_assert_int_eq(test_query_int(test_db, "SELECT count(*) FROM "
			 "player_settings WHERE reminders = 1 AND "
			 "timezone = ''"), 1);
	/* every index of games is there again, and the new one */
	ck_assert_int_eq(test_query_int(test_db, "SELECT count(*) FROM "
			 "sqlite_schema WHERE type = 'index' AND tbl_name = "
			 "'games' AND name IN ('games_white', 'games_black', "
			 "'games_challenger', 'games_status', "
			 "'games_deadline', 'games_remind')"), 6);
	ck_assert_int_eq(test_query_int(test_db, "SELECT count(*) FROM "
			 "pragma_index_list('games') WHERE \"unique\" = 1"), 1);
	ck_assert_int_eq(test_query_int(test_db, "SELECT count(*) FROM "
			 "pragma_foreign_key_check"), 0);
	/* the tables refer to the new games: a game's moves go with it */
	ck_assert_int_eq(test_query_int(test_db, "SELECT count(*) FROM "
			 "pragma_foreign_key_list('moves') WHERE \"table\" = "
			 "'games'"), 1);

	/* on to the latest schema (the store reads its columns): the store
	 * reads the migrated rows, and a game can be cancelled */
	ck_assert_int_eq(store_migrate(st, -1, &err), 0);
	ck_assert_int_eq(store_settings_get(st, 1, &set, &err), 0);
	ck_assert(!set.confirm && set.digest && set.reminders);
	ck_assert_int_eq(set.picture, STORE_PICTURE_SVG);
	ck_assert_str_eq(set.timezone, "");
	ck_assert_int_eq(store_game_load(st, 1, &g, &err), 1);
	ck_assert_str_eq(g->clock_settings, "3d+1d");
	ck_assert_int_eq(g->clock_black, 7200);
	ck_assert_int_eq(g->clock_side, 0);
	g->status = STORE_GAME_CANCELLED;
	ck_assert_int_eq(store_game_update(st, g, 30, &err), 0);
	store_game_free(&g);
	ck_assert_int_eq(store_game_load(st, 1, &g, &err), 1);
	ck_assert_int_eq(g->status, STORE_GAME_CANCELLED);
	store_game_free(&g);

	/* all checks out */
	ck_assert_int_eq(store_check(st, &r, &err), 0);
	ck_assert_msg(r->ok, "%s", r->text);
	store_check_report_free(&r);
	free(games_before);
	free(games_after);
	free(others_before);
	free(others_after);
}
END_TEST

TEST_MAIN("store_clock", "clock", setup, teardown, 0, test_vacations,
	  test_vacation_refused, test_vacation_cut, test_player_clock,
	  test_player_delete_cascades, test_clock_events,
	  test_clock_event_refused, test_heartbeat, test_next_deadline,
	  test_reminder_due, test_game_clock_columns, test_game_cancelled,
	  test_migration_from_7)
