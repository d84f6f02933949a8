/* test_timer.c -- the clocks' timer (src/server/timer.c) against a real
 * SQLite file, where the case files cannot be exact: a flag falls at its
 * deadline to the second, not one second before; deadlines that passed
 * are handled in order and once; a timer run that fails at any store step
 * changes nothing and queues nothing, and the next one does all of it once
 * (nothing lost, nothing twice); the loop's wake-up time is the earliest
 * deadline; a move's time is the mailbox's receipt, never the signature's. */
#include <check.h>
#include <inttypes.h>
#include <limits.h>
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

#define HOUR 3600

static struct store_game *load(int64_t id)
{
	struct store_game *g = NULL;
	const char *error;

	ck_assert_int_eq(store_game_load(st, id, &g, &error), 1);
	return g;
}

/* Game id, whose status must be status. */
static struct store_game *load_is(int64_t id, enum store_game_status status)
{
	struct store_game *g = load(id);

	ck_assert_int_eq(g->status, status);
	return g;
}

/* Game id's status is status. */
static void status_is(int64_t id, enum store_game_status status)
{
	struct store_game *g = load_is(id, status);

	store_game_free(&g);
}

static struct server_tick_report tick(int64_t at)
{
	struct server_tick_report r;
	const char *error = NULL;

	ck_assert_msg(server_clock_tick(srv, at, &r, &error) == 0, "%s",
		      error);
	return r;
}

/* A game of alice (White) and bob with clock `spec`, three plies played
 * (both moved): bob to move.  The deadline into *deadline_r. */
static int64_t clocked_game(const char *spec, int64_t *deadline_r)
{
	char opts[64];
	struct store_game *g;
	int64_t id;

	snprintf(opts, sizeof(opts), "size=3 clock=%s", spec);
	id = start_game(opts);
	ALICE_GAME("move", id, "1 c3-c4");
	BOB_GAME("move", id, "2 b2-a1");
	ALICE_GAME("move", id, "3 c3-b3");
	g = load(id);
	ck_assert_int_eq(g->clock_side, 1);
	ck_assert_int_ne(g->deadline_at, 0);
	*deadline_r = g->deadline_at;
	store_game_free(&g);
	mail_drop();
	return id;
}

static void config_no_vacation(void)
{
	struct server_config cfg;

	test_config(&cfg, ts);
	cfg.clock.auto_vacation = false;
	cfg.clock.outage_grace = 0;
	server_restart(&cfg);
}

START_TEST(test_flag_at_the_exact_second)
{
	struct server_tick_report r;
	struct store_game *g;
	struct outbox o;
	int64_t id, deadline, at;
	const char *error;

	config_no_vacation();
	register_three();
	id = clocked_game("fischer:2h+0h", &deadline);
	/* the loop wakes for it */
	ck_assert_int_eq(server_clock_next(srv, &at, &error), 1);
	ck_assert_int_eq(at, deadline);
	r = tick(deadline - 1);
	ck_assert_uint_eq(r.flags, 0);
	status_is(id, STORE_GAME_ACTIVE);
	r = tick(deadline);
	ck_assert_uint_eq(r.flags, 1);
	g = load_is(id, STORE_GAME_FINISHED);
	ck_assert_str_eq(g->result, "1-0");
	ck_assert_str_eq(g->end_reason, "time");
	ck_assert_int_eq(g->deadline_at, 0);
	store_game_free(&g);
	o = new_mail();
	ck_assert_ptr_nonnull(mail_to(&o, ALICE, "result"));
	ck_assert_ptr_nonnull(mail_to(&o, BOB, "result"));
	outbox_free(&o);
	/* once: nothing more to do, no deadline to wake for */
	r = tick(deadline + 10);
	ck_assert_uint_eq(r.flags, 0);
	ck_assert_int_eq(server_clock_next(srv, &at, &error), 0);
	mail_count_is(0);
}
END_TEST

START_TEST(test_move_charged_at_receipt)
{
	struct server_inbound in;
	struct server_outcome out;
	struct store_game *g;
	int64_t id, deadline;
	const char *error = NULL;
	char body[64], sha[65], ssha[65];

	config_no_vacation();
	register_three();
	id = clocked_game("fischer:2h+0h", &deadline);
	/* bob's mail reached the mailbox a second before the deadline and
	 * is handled an hour after it; its signature claims it is older
	 * still (the sender's say, ignored) */
	snprintf(body, sizeof(body), "move %" PRId64 " 4 a1-a2\n", id);
	memset(&in, 0, sizeof(in));
	in.fingerprint = BOB_FP;
	in.from_address = BOB;
	in.message_id = "late@client.test";
	in.raw = body;
	in.raw_len = strlen(body);
	digest(body, strlen(body), sha);
	in.raw_sha256 = sha;
	digest("late", 4, ssha);
	in.signed_sha256 = ssha;
	in.signature_time = deadline - 5 * HOUR;
	in.body = body;
	in.body_len = strlen(body);
	in.received = deadline - 1;
	ck_assert_int_eq(server_handle(srv, &in, deadline + HOUR, &out,
				       &error), 0);
	ck_assert_int_eq(out.status, SERVER_OK);
	g = load_is(id, STORE_GAME_ACTIVE);
	/* bob had 2 h, used all but one second */
	ck_assert_int_eq(g->clock_black, 1);
	/* alice's clock runs from the receipt, not from the handling */
	ck_assert_int_eq(g->clock_turn_started, deadline - 1);
	store_game_free(&g);
}
END_TEST

START_TEST(test_flags_in_order_once)
{
	struct server_tick_report r;
	struct store_game *g;
	int64_t a, b, da, db;

	config_no_vacation();
	register_three();
	a = clocked_game("fischer:3h+0h", &da);
	now += HOUR;
	b = clocked_game("fischer:1h+0h", &db);
	ck_assert_int_lt(db, da);
	/* long after both: both fall in one run, the earlier first */
	r = tick(da + 5 * HOUR);
	ck_assert_uint_eq(r.flags, 2);
	status_is(a, STORE_GAME_FINISHED);
	g = load_is(b, STORE_GAME_FINISHED);
	/* b's result was written before a's */
	ck_assert_int_le(g->updated, da + 5 * HOUR);
	store_game_free(&g);
	r = tick(da + 6 * HOUR);
	ck_assert_uint_eq(r.flags, 0);
}
END_TEST

START_TEST(test_tick_faults)
{
	const char *error = NULL;
	struct outbox o;
	int64_t id, deadline;
	int failures = 0, ret = -1;

	config_no_vacation();
	register_three();
	id = clocked_game("fischer:2h+0h", &deadline);
	/* Fail the n-th store step for every n until a run succeeds: each
	 * failure changes nothing and queues nothing. */
	for (long n = 0; n < 2000; n++) {
		struct server_tick_report r;

		store_debug_fail_after(st, n);
		ret = server_clock_tick(srv, deadline, &r, &error);
		store_debug_fail_after(st, -1);
		if (ret == 0)
			break;
		failures++;
		status_is(id, STORE_GAME_ACTIVE);
		mail_count_is(0);
	}
	ck_assert_int_eq(ret, 0);
	ck_assert_int_gt(failures, 5);
	status_is(id, STORE_GAME_FINISHED);
	o = new_mail();
	ck_assert_uint_eq(count_to(&o, ALICE), 1);
	ck_assert_uint_eq(count_to(&o, BOB), 1);
	outbox_free(&o);
}
END_TEST

START_TEST(test_outage_extends)
{
	struct server_config cfg;
	struct server_tick_report r;
	struct store_game *g;
	int64_t id, deadline, t0;

	test_config(&cfg, ts);
	cfg.clock.auto_vacation = false;
	cfg.clock.outage_grace = 6 * HOUR;
	server_restart(&cfg);
	register_three();
	id = clocked_game("fischer:2h+0h", &deadline);
	t0 = now;
	tick(t0);
	/* away for 10 hours: the deadline passed in the gap */
	r = tick(t0 + 10 * HOUR);
	ck_assert_uint_eq(r.extended, 1);
	ck_assert_uint_eq(r.flags, 0);
	g = load_is(id, STORE_GAME_ACTIVE);
	/* as if the clock had stood still while we were away */
	ck_assert_int_eq(g->deadline_at, deadline + 10 * HOUR);
	store_game_free(&g);
	/* a gap shorter than the grace is no outage: the flag falls */
	r = tick(deadline + 10 * HOUR);
	ck_assert_uint_eq(r.extended, 0);
	ck_assert_uint_eq(r.flags, 1);
}
END_TEST

TEST_MAIN("timer", "timer", setup, teardown, 60, test_flag_at_the_exact_second,
	  test_move_charged_at_receipt, test_flags_in_order_once,
	  test_tick_faults, test_outage_extends)
