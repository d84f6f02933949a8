/* test_club.c -- the club's ladders and ratings in the service, against a
 * real SQLite file: the configuration's members join at the timer's
 * first run, in the order listed; a challenge by mail within the range
 * makes a game with the ladder's settings, one outside it is refused
 * with the numbers; a challenger who wins takes the defender's place; a
 * challenge not accepted in time is a walkover, and so is a decline; a
 * rated game moves both ratings and `ashes ratings --recompute` gives
 * the same numbers; a second loss on time in a row is not rated; a member
 * the configuration drops is withdrawn once their games are over; the
 * weekly standings mail goes out once a week. */
#include <check.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/notation.h"
#include "core/record.h"
#include "render/template.h"
#include "server/server.h"
#include "store/store.h"

#include "server_test.h"
#include "../check_run.h"

#define DAY 86400

static const char *const club_members[] = { "alice", "bob", "carol" };
static struct server_ladder ladder;

/* The service again, with ladder "main" of `members` (range 1 place). */
static void club_server(size_t nmembers)
{
	struct server_config cfg;

	test_config(&cfg, ts);
	memset(&ladder, 0, sizeof(ladder));
	ladder.club.name = "main";
	ladder.club.where = "test.conf:1";
	ladder.club.members = club_members;
	ladder.club.nmembers = nmembers;
	core_variant_default(&ladder.club.variant);
	ladder.club.variant.size = 3;
	ladder.club.clock = "days:3";
	ladder.club.rated = true;
	ladder_rules_default(&ladder.rules);
	ladder.rules.challenge_range = 1;
	ladder.rules.max_out = 2;
	ladder.rules.max_in = 2;
	ladder.rules.rematch_wait = 0;
	ladder.rules.accept_within = 7 * DAY;
	ladder.rules.absence_withdraw = 0;
	ladder.standings_mail = true;
	cfg.ladders = &ladder;
	cfg.nladders = 1;
	cfg.clock.outage_grace = 0;
	cfg.clock.auto_vacation = false;
	server_restart(&cfg);
}

static struct server_tick_report tick(void)
{
	struct server_tick_report r;
	const char *error = NULL;

	now += 60;
	ck_assert_msg(server_clock_tick(srv, now, &r, &error) == 0, "%s",
		      error);
	return r;
}

/* The ladder's standing as `ashes ladder show` prints it. */
static void ladder_text(struct buf *out)
{
	const char *error = NULL;

	buf_reset(out);
	ck_assert_msg(server_ladder_show(srv, "main", now, out, &error) == 0,
		      "%s", error);
}

/* The place lines "  1. alice" ... joined by spaces: "alice bob carol". */
static void order(char *dst, size_t cap)
{
	struct buf b = BUF_INIT;
	const char *p;

	ladder_text(&b);
	dst[0] = '\0';
	for (p = buf_str(&b); (p = strstr(p, ". ")) != NULL; p += 2) {
		char name[32];
		if (sscanf(p + 2, "%31[a-z]", name) == 1) {
			if (dst[0] != '\0')
				strncat(dst, " ", cap - strlen(dst) - 1);
			strncat(dst, name, cap - strlen(dst) - 1);
		}
	}
	buf_free(&b);
}

static int64_t challenge(const char *fp, const char *from, const char *who)
{
	char body[64];
	struct outbox o;
	int64_t g;

	o = new_mail(); /* the mails before are not the challenge's */
	outbox_free(&o);
	snprintf(body, sizeof(body), "ladder challenge main %s\n", who);
	ck_assert_int_eq(send_as(fp, from, NULL, body).status, SERVER_OK);
	o = new_mail();
	g = game_of(mail_to(&o, from, "reply"));
	outbox_free(&o);
	return g;
}

START_TEST(test_ladder_join_challenge_win)
{
	struct store_game *g = NULL;
	struct outbox o;
	char ord[64];
	const char *error;
	int64_t id;

	register_three();
	club_server(3);
	tick();
	order(ord, sizeof(ord));
	ck_assert_str_eq(ord, "alice bob carol");
	/* out of range: two places up with a range of one */
	ck_assert_int_eq(CAROL_SAYS("ladder challenge main alice\n").status,
			 SERVER_REFUSED);
	o = new_mail();
	ck_assert_has(mail_to(&o, CAROL, "reply")->body,
		      "you may challenge up to 1 place(s) above yours:\n"
		      "you are at place 3, alice at place 1.");
	outbox_free(&o);
	/* carol challenges bob: a game with the ladder's board and clock */
	id = challenge(CAROL_FP, CAROL, "bob");
	ck_assert_int_eq(store_game_load(st, id, &g, &error), 1);
	ck_assert_str_eq(g->variant, "size=3 tax=removed");
	ck_assert_str_eq(g->clock_settings, "days:3");
	ck_assert_int_eq(g->status, STORE_GAME_CHALLENGE);
	store_game_free(&g);
	BOB_GAME("accept", id, "");
	/* carol plays White, bob resigns after four plies */
	CAROL_GAME("move", id, "1 c3-c4");
	BOB_GAME("move", id, "2 b2-a1");
	CAROL_GAME("move", id, "3 c3-b3");
	BOB_GAME("move", id, "4 a1-a2");
	BOB_GAME("resign", id, "");
	ck_assert_uint_eq(tick().club_results, 1);
	order(ord, sizeof(ord));
	ck_assert_str_eq(ord, "alice carol bob");
	/* rated: both have a rating now, the winner above 1500 */
	{
		struct store_rating r;
		struct store_player *p = NULL;
		ck_assert_int_eq(store_player_by_name(st, "carol", &p, &error),
				 1);
		ck_assert_int_eq(store_rating_get(st, p->id, &r, &error), 1);
		ck_assert(r.r > 1500.0);
		ck_assert_int_eq(r.games, 1);
		store_player_free(&p);
	}
	/* once: the next run applies nothing */
	ck_assert_uint_eq(tick().club_results, 0);
	order(ord, sizeof(ord));
	ck_assert_str_eq(ord, "alice carol bob");
}
END_TEST

START_TEST(test_walkover_and_decline)
{
	struct store_game *g = NULL;
	struct outbox o;
	char ord[64], body[64];
	const char *error;
	int64_t a, b;

	register_three();
	club_server(3);
	tick();
	/* bob challenges alice and she never answers */
	a = challenge(BOB_FP, BOB, "alice");
	now += 7 * DAY;
	ck_assert_uint_eq(tick().club_walkovers, 1);
	order(ord, sizeof(ord));
	ck_assert_str_eq(ord, "bob alice carol");
	ck_assert_int_eq(store_game_load(st, a, &g, &error), 1);
	ck_assert_int_eq(g->status, STORE_GAME_DECLINED);
	store_game_free(&g);
	o = new_mail();
	ck_assert_ptr_nonnull(mail_to(&o, ALICE, "ladder"));
	ck_assert_has(mail_to(&o, BOB, "ladder")->body, "walkover");
	outbox_free(&o);
	/* too late to accept now */
	snprintf(body, sizeof(body), "accept %" PRId64 "\n", a);
	ck_assert_int_eq(ALICE_SAYS(body).status, SERVER_REFUSED);
	/* carol challenges alice (now second); alice declines: a walkover */
	b = challenge(CAROL_FP, CAROL, "alice");
	ALICE_GAME("decline", b, "");
	tick();
	order(ord, sizeof(ord));
	ck_assert_str_eq(ord, "bob carol alice");
}
END_TEST

START_TEST(test_member_dropped_waits_for_games)
{
	char ord[64];
	int64_t g;

	register_three();
	club_server(3);
	tick();
	/* carol challenges bob; then the config lists only alice and bob */
	g = challenge(CAROL_FP, CAROL, "bob");
	club_server(2);
	tick();
	order(ord, sizeof(ord));
	ck_assert_str_eq(ord, "alice bob carol");
	/* the challenge ends (withdrawn): carol goes */
	CAROL_GAME("withdraw", g, "");
	ck_assert_uint_eq(tick().club_withdrawn, 1);
	order(ord, sizeof(ord));
	ck_assert_str_eq(ord, "alice bob");
	/* listed again: not back by itself (ladder join, or the operator) */
	club_server(3);
	tick();
	order(ord, sizeof(ord));
	ck_assert_str_eq(ord, "alice bob");
	ck_assert_int_eq(CAROL_SAYS("ladder join main\n").status, SERVER_OK);
	order(ord, sizeof(ord));
	ck_assert_str_eq(ord, "alice bob carol");
}
END_TEST

START_TEST(test_standings_weekly)
{
	struct outbox o;

	register_three();
	club_server(3);
	tick(); /* the week starts */
	o = new_mail();
	ck_assert_ptr_null(mail_to(&o, ALICE, "standings"));
	outbox_free(&o);
	ck_assert_int_eq(BOB_SAYS("set standings off\n").status, SERVER_OK);
	now += 7 * DAY;
	ck_assert_uint_eq(tick().club_standings, 2);
	o = new_mail();
	ck_assert_has(mail_to(&o, ALICE, "standings")->body,
		      "  1. alice   <- you");
	ck_assert_ptr_null(mail_to(&o, BOB, "standings"));
	outbox_free(&o);
	now += DAY;
	ck_assert_uint_eq(tick().club_standings, 0);
}
END_TEST

START_TEST(test_ratings_recompute)
{
	struct buf before = BUF_INIT, after = BUF_INIT;
	const char *error = NULL;
	char body[64];
	size_t games;

	register_three();
	club_server(3);
	tick();
	/* two rated games: carol beats bob, then alice beats carol */
	for (int k = 0; k < 2; k++) {
		const char *wfp = CAROL_FP;
		int64_t id = k == 0 ? challenge(CAROL_FP, CAROL, "bob") :
				      challenge(CAROL_FP, CAROL, "alice");
		const char *dfp = k == 0 ? BOB_FP : ALICE_FP;
		const char *dfrom = k == 0 ? BOB : ALICE;
		const char *moves[] = { "c3-c4", "b2-a1", "c3-b3", "a1-a2" };

		struct server_outcome out;

		snprintf(body, sizeof(body), "accept %" PRId64 "\n", id);
		out = send_as(dfp, dfrom, NULL, body);
		ck_assert_msg(out.status == SERVER_OK, "%s", out.outcome);
		for (int i = 0; i < 4; i++) {
			snprintf(body, sizeof(body), "move %" PRId64 " %d %s\n",
				 id, i + 1, moves[i]);
			ck_assert_int_eq(send_as(i % 2 ? dfp : wfp,
						 i % 2 ? dfrom : CAROL, NULL,
						 body).status, SERVER_OK);
		}
		snprintf(body, sizeof(body), "resign %" PRId64 "\n", id);
		ck_assert_int_eq(send_as(k == 0 ? dfp : CAROL_FP,
					 k == 0 ? dfrom : CAROL, NULL,
					 body).status, SERVER_OK);
		now += DAY;
		ck_assert_uint_eq(tick().club_rated, 1);
	}
	ck_assert_int_eq(server_ratings_show(srv, &before, &error), 0);
	ck_assert_has(buf_str(&before), "alice");
	ck_assert_int_eq(server_ratings_recompute(srv, &games, &error), 0);
	ck_assert_uint_eq(games, 2);
	ck_assert_int_eq(server_ratings_show(srv, &after, &error), 0);
	ck_assert_str_eq(buf_str(&before), buf_str(&after));
	buf_free(&before);
	buf_free(&after);
}
END_TEST

/* A ladder game in which bob lets his clock run out: carol challenges
 * him and five plies are played (bob_challenges: he challenges carol and
 * four are), then four days pass. */
static void bob_times_out(bool bob_challenges)
{
	const char *moves[] = { "c3-c4", "b2-a1", "c3-b3", "a1-a2", "b2-a1" };
	const char *wfp = bob_challenges ? BOB_FP : CAROL_FP;
	const char *wfrom = bob_challenges ? BOB : CAROL;
	const char *bfp = bob_challenges ? CAROL_FP : BOB_FP;
	const char *bfrom = bob_challenges ? CAROL : BOB;
	struct server_outcome out;
	char body[64];
	int64_t id = challenge(wfp, wfrom, bob_challenges ? "carol" : "bob");

	snprintf(body, sizeof(body), "accept %" PRId64 "\n", id);
	ck_assert_int_eq(send_as(bfp, bfrom, NULL, body).status, SERVER_OK);
	for (int i = 0; i < (bob_challenges ? 4 : 5); i++) {
		snprintf(body, sizeof(body), "move %" PRId64 " %d %s\n", id,
			 i + 1, moves[i]);
		out = send_as(i % 2 ? bfp : wfp, i % 2 ? bfrom : wfrom, NULL,
			      body);
		ck_assert_msg(out.status == SERVER_OK, "%s", out.outcome);
	}
	now += 4 * DAY;
}

START_TEST(test_timeouts_not_farmed)
{
	struct server_tick_report r;
	struct store_rating bob;
	struct store_player *p = NULL;
	const char *error;

	register_three();
	club_server(3);
	tick();
	bob_times_out(false);
	r = tick();
	ck_assert_uint_eq(r.flags, 1);
	/* the flag falls in this run; its result is applied in the next */
	r.club_rated += tick().club_rated;
	ck_assert_uint_eq(r.club_rated, 1);
	ck_assert_int_eq(store_player_by_name(st, "bob", &p, &error), 1);
	ck_assert_int_eq(store_rating_get(st, p->id, &bob, &error), 1);
	ck_assert_int_eq(bob.games, 1);
	ck_assert(bob.last_lost_on_time);
	/* the second loss on time in a row: not rated */
	bob_times_out(true);
	r = tick();
	r.club_rated += tick().club_rated;
	ck_assert_uint_eq(r.flags, 1);
	ck_assert_uint_eq(r.club_rated, 0);
	ck_assert_int_eq(store_rating_get(st, p->id, &bob, &error), 1);
	ck_assert_int_eq(bob.games, 1);
	store_player_free(&p);
}
END_TEST

START_TEST(test_absence_vacation_excluded)
{
	char ord[64];
	int64_t g;

	register_three();
	club_server(3);
	ladder.rules.absence_withdraw = 10 * DAY;
	{
		struct server_config cfg;
		test_config(&cfg, ts);
		cfg.ladders = &ladder;
		cfg.nladders = 1;
		cfg.clock.outage_grace = 0;
		server_restart(&cfg);
	}
	tick();
	/* bob moves now and then; carol goes away for 5 days; alice does
	 * nothing at all */
	g = start_game("size=3");
	(void)g;
	ALICE_GAME("move", g, "1 c3-c4");
	ck_assert_int_eq(CAROL_SAYS("vacation 5\n").status, SERVER_OK);
	now += 9 * DAY;
	BOB_GAME("move", g, "2 b2-a1");
	now += DAY + 3600;
	/* alice moved 10 days ago: out; carol joined 10 days ago, 5 of them
	 * on vacation: stays; bob moved a day ago */
	ck_assert_uint_eq(tick().club_withdrawn, 1);
	order(ord, sizeof(ord));
	ck_assert_str_eq(ord, "bob carol");
	now += 5 * DAY;
	ck_assert_uint_eq(tick().club_withdrawn, 1);
	order(ord, sizeof(ord));
	ck_assert_str_eq(ord, "bob");
}
END_TEST

TEST_MAIN("club", "ladder", setup, teardown, 60,
	  test_ladder_join_challenge_win, test_walkover_and_decline,
	  test_member_dropped_waits_for_games, test_standings_weekly,
	  test_ratings_recompute, test_timeouts_not_farmed,
	  test_absence_vacation_excluded)
