/* ladder_results.c -- what results do to a ladder's places (see
 * ladder_test.h): a win taking the place or swapping, a defender's win,
 * a loss on time, walkovers, draws and cancelled challenges, two
 * challenges against one defender in either order, a withdrawal racing
 * a result, the operator's move, and absence with its boundary. */
#include "ladder_test.h"

/* --- Results --- */

START_TEST(test_win_take)
{
	struct lad l;
	size_t i;

	lad_init(&l, 6);
	lad_challenge(&l, 5, 2, 1, T0);
	ck_assert_int_eq(l.s->members[4].out, 1);
	ck_assert_int_eq(l.s->members[1].in, 1);
	lad_result(&l, 1, LADDER_RESULT_NORMAL, 5, 2, T0 + D);
	lad_order(&l, 6, 1, 5, 2, 3, 4, 6);
	ck_assert_uint_eq(l.s->nopen, 0);
	for (i = 0; i < l.s->nmembers; i++) {
		ck_assert_int_eq(l.s->members[i].out, 0);
		ck_assert_int_eq(l.s->members[i].in, 0);
	}
	lad_done(&l);
}
END_TEST

START_TEST(test_win_swap)
{
	struct lad l;

	lad_init(&l, 6);
	l.rules.win = LADDER_WIN_SWAP;
	lad_challenge(&l, 5, 2, 1, T0);
	/* a change of rules after the challenge does not touch it */
	l.rules.win = LADDER_WIN_TAKE;
	lad_result(&l, 1, LADDER_RESULT_NORMAL, 5, 2, T0 + D);
	lad_order(&l, 6, 1, 5, 3, 4, 2, 6);
	lad_done(&l);
}
END_TEST

START_TEST(test_defender_wins)
{
	struct lad l;

	lad_init(&l, 6);
	lad_challenge(&l, 5, 2, 1, T0);
	lad_challenge(&l, 6, 4, 2, T0);
	lad_result(&l, 1, LADDER_RESULT_NORMAL, 2, 5, T0 + D);
	/* a resignation, or a loss on the board: "normal" either way */
	lad_result(&l, 2, LADDER_RESULT_NORMAL, 4, 6, T0 + D);
	lad_order(&l, 6, 1, 2, 3, 4, 5, 6);
	ck_assert_uint_eq(l.s->nopen, 0);
	lad_done(&l);
}
END_TEST

START_TEST(test_time_loss)
{
	struct lad l;

	lad_init(&l, 8);
	l.rules.time_loss_drop = 2;
	lad_challenge(&l, 5, 3, 1, T0);
	lad_result(&l, 1, LADDER_RESULT_TIME, 3, 5, T0 + D);
	lad_order(&l, 8, 1, 2, 3, 4, 6, 7, 5, 8);
	/* no lower than the bottom */
	lad_challenge(&l, 7, 4, 2, T0 + D);
	lad_result(&l, 2, LADDER_RESULT_TIME, 4, 7, T0 + 2 * D);
	lad_order(&l, 8, 1, 2, 3, 4, 6, 5, 8, 7);
	/* a defender losing on time loses as on the board */
	lad_challenge(&l, 4, 2, 3, T0 + 2 * D);
	lad_result(&l, 3, LADDER_RESULT_TIME, 4, 2, T0 + 3 * D);
	lad_order(&l, 8, 1, 4, 2, 3, 6, 5, 8, 7);
	/* the drop of the challenge's day: changed to 0 after it */
	lad_challenge(&l, 6, 2, 4, T0 + 3 * D);
	l.rules.time_loss_drop = 0;
	lad_challenge(&l, 8, 5, 5, T0 + 3 * D);
	lad_result(&l, 4, LADDER_RESULT_TIME, 2, 6, T0 + 4 * D);
	lad_order(&l, 8, 1, 4, 2, 3, 5, 8, 6, 7);
	lad_result(&l, 5, LADDER_RESULT_TIME, 5, 8, T0 + 4 * D);
	lad_order(&l, 8, 1, 4, 2, 3, 5, 8, 6, 7);
	lad_done(&l);
}
END_TEST

START_TEST(test_walkover)
{
	struct lad l;
	struct ladder_fault f;
	struct ladder_event e = { .kind = LADDER_EVENT_ACCEPTED, .at = T0 + D,
				  .game = 2 };
	int64_t out[4];

	lad_init(&l, 5);
	lad_challenge(&l, 3, 1, 1, T0);
	lad_challenge(&l, 4, 2, 2, T0);
	ck_assert_int_eq(ladder_check_accept(l.s, 2, 2, T0 + D, &f), 0);
	lad_apply(&l, &e);
	ck_assert_int_eq(ladder_apply(l.s, &e, &f), -1);
	ck_assert_int_eq(f.error, LADDER_ERR_ALREADY_ACCEPTED);
	ck_assert_int_eq(ladder_check_accept(l.s, 2, 2, T0 + D, &f), -1);
	ck_assert_int_eq(f.error, LADDER_ERR_ALREADY_ACCEPTED);
	ck_assert_int_eq(ladder_check_accept(l.s, 1, 3, T0 + D, &f), -1);
	ck_assert_int_eq(f.error, LADDER_ERR_NOT_DEFENDER);
	ck_assert_int_eq(ladder_check_accept(l.s, 99, 1, T0 + D, &f), -1);
	ck_assert_int_eq(f.error, LADDER_ERR_UNKNOWN_GAME);

	ck_assert_uint_eq(ladder_due_walkovers(l.s, T0 + 7 * D - 1, out), 0);
	ck_assert_int_eq(ladder_check_accept(l.s, 1, 1, T0 + 7 * D - 1, &f),
			 0);
	ck_assert_uint_eq(ladder_due_walkovers(l.s, T0 + 7 * D, out), 1);
	ck_assert_int_eq(out[0], 1); /* the accepted game 2 is not due */
	ck_assert_int_eq(ladder_check_accept(l.s, 1, 1, T0 + 7 * D, &f), -1);
	ck_assert_int_eq(f.error, LADDER_ERR_TOO_LATE);
	ck_assert_int_eq(f.until, T0 + 7 * D);

	/* a walkover is the challenger's win, never the defender's */
	{
		struct ladder_event w = { .kind = LADDER_EVENT_RESULT,
					  .at = T0 + 7 * D, .game = 1,
					  .result = LADDER_RESULT_WALKOVER,
					  .player = 1, .other = 3 };

		ck_assert_int_eq(ladder_apply(l.s, &w, &f), -1);
		ck_assert_int_eq(f.error, LADDER_ERR_WRONG_PLAYERS);
	}
	lad_result(&l, 1, LADDER_RESULT_WALKOVER, 3, 1, T0 + 7 * D);
	lad_order(&l, 5, 3, 1, 2, 4, 5);
	ck_assert_int_eq(ladder_last_result(l.s, 1, 3), T0 + 7 * D);

	/* without a deadline nothing is ever due */
	l.rules.accept_within = 0;
	lad_challenge(&l, 5, 4, 3, T0 + 7 * D);
	ck_assert_int_eq(ladder_open_challenge(l.s, 3)->accept_by,
			 LADDER_NEVER);
	ck_assert_uint_eq(ladder_due_walkovers(l.s, LADDER_NEVER - 1, out),
			  0);
	lad_done(&l);
}
END_TEST

START_TEST(test_draw_and_cancelled)
{
	struct lad l;

	lad_init(&l, 5);
	lad_challenge(&l, 4, 2, 1, T0);
	lad_challenge(&l, 5, 3, 2, T0);
	lad_result(&l, 1, LADDER_RESULT_DRAW, 4, 2, T0 + D);
	lad_result(&l, 2, LADDER_RESULT_CANCELLED, 0, 0, T0 + D);
	lad_order(&l, 5, 1, 2, 3, 4, 5);
	ck_assert_uint_eq(l.s->nopen, 0);
	ck_assert_int_eq(l.s->members[3].out, 0);
	ck_assert_int_eq(l.s->members[2].in, 0);
	ck_assert_int_eq(ladder_last_result(l.s, 2, 4), T0 + D);
	ck_assert_int_eq(ladder_last_result(l.s, 3, 5), -1);
	lad_done(&l);
}
END_TEST

/* A=1 B=2 C=3 D=4 E=5: D and C both challenge B.  Each result moves the
 * players from where the one before left them. */
static void two_challenges(bool d_first)
{
	struct lad l;

	lad_init(&l, 5);
	lad_challenge(&l, 4, 2, 1, T0);
	lad_challenge(&l, 3, 2, 2, T0);
	ck_assert_int_eq(l.s->members[1].in, 2);
	if (d_first) {
		lad_result(&l, 1, LADDER_RESULT_NORMAL, 4, 2, T0 + D);
		lad_order(&l, 5, 1, 4, 2, 3, 5);
		lad_result(&l, 2, LADDER_RESULT_NORMAL, 3, 2, T0 + 2 * D);
		lad_order(&l, 5, 1, 4, 3, 2, 5);
	} else {
		lad_result(&l, 2, LADDER_RESULT_NORMAL, 3, 2, T0 + D);
		lad_order(&l, 5, 1, 3, 2, 4, 5);
		lad_result(&l, 1, LADDER_RESULT_NORMAL, 4, 2, T0 + 2 * D);
		lad_order(&l, 5, 1, 3, 4, 2, 5);
	}
	ck_assert_int_eq(l.s->members[ladder_position(l.s, 2) - 1].in, 0);
	lad_done(&l);
}

START_TEST(test_two_challenges_d_first)
{
	two_challenges(true);
}
END_TEST

START_TEST(test_two_challenges_c_first)
{
	two_challenges(false);
}
END_TEST

START_TEST(test_two_challenges_split)
{
	struct lad l;

	/* one won, one lost: the same places in either order */
	lad_init(&l, 5);
	lad_challenge(&l, 4, 2, 1, T0);
	lad_challenge(&l, 3, 2, 2, T0);
	lad_result(&l, 1, LADDER_RESULT_NORMAL, 4, 2, T0 + D);
	lad_result(&l, 2, LADDER_RESULT_NORMAL, 2, 3, T0 + D);
	lad_order(&l, 5, 1, 4, 2, 3, 5);
	lad_done(&l);
	lad_init(&l, 5);
	lad_challenge(&l, 4, 2, 1, T0);
	lad_challenge(&l, 3, 2, 2, T0);
	lad_result(&l, 2, LADDER_RESULT_NORMAL, 2, 3, T0 + D);
	lad_result(&l, 1, LADDER_RESULT_NORMAL, 4, 2, T0 + D);
	lad_order(&l, 5, 1, 4, 2, 3, 5);
	lad_done(&l);
}
END_TEST

START_TEST(test_challenger_already_above)
{
	struct lad l;

	lad_init(&l, 5);
	lad_challenge(&l, 5, 3, 1, T0);
	lad_challenge(&l, 5, 2, 2, T0);
	lad_result(&l, 2, LADDER_RESULT_NORMAL, 5, 2, T0 + D);
	lad_order(&l, 5, 1, 5, 2, 3, 4);
	/* 5 is above 3 now: the second win keeps the better place */
	lad_result(&l, 1, LADDER_RESULT_NORMAL, 5, 3, T0 + D);
	lad_order(&l, 5, 1, 5, 2, 3, 4);
	lad_done(&l);
}
END_TEST

START_TEST(test_withdrawal_races_result)
{
	struct lad l;

	lad_init(&l, 5);
	/* the defender leaves, the challenger then wins: 4 rose a place
	 * with 2's leaving, and the void result moves nobody */
	lad_challenge(&l, 4, 2, 1, T0);
	lad_leave(&l, 2, T0 + D);
	lad_order(&l, 4, 1, 3, 4, 5);
	ck_assert_int_eq(l.s->members[2].out, 1);
	lad_result(&l, 1, LADDER_RESULT_NORMAL, 4, 2, T0 + 2 * D);
	lad_order(&l, 4, 1, 3, 4, 5);
	ck_assert_int_eq(l.s->members[2].out, 0);
	ck_assert_uint_eq(l.s->nopen, 0);
	ck_assert_int_eq(ladder_last_result(l.s, 2, 4), T0 + 2 * D);
	/* the challenger leaves, then loses on time: no drop for anyone */
	lad_challenge(&l, 5, 3, 2, T0 + 2 * D);
	lad_leave(&l, 5, T0 + 3 * D);
	lad_result(&l, 2, LADDER_RESULT_TIME, 3, 5, T0 + 4 * D);
	lad_order(&l, 3, 1, 3, 4);
	ck_assert_int_eq(l.s->members[1].in, 0);
	/* back before the game ended: the open challenge counts again */
	lad_challenge(&l, 4, 3, 3, T0 + 4 * D);
	lad_leave(&l, 4, T0 + 5 * D);
	lad_join(&l, 4, T0 + 6 * D);
	lad_order(&l, 3, 1, 3, 4);
	ck_assert_int_eq(l.s->members[2].out, 1);
	ck_assert_int_eq(l.s->members[2].joined_at, T0 + 6 * D);
	lad_result(&l, 3, LADDER_RESULT_NORMAL, 3, 4, T0 + 7 * D);
	ck_assert_int_eq(l.s->members[2].out, 0);
	lad_done(&l);
}
END_TEST

START_TEST(test_moved)
{
	struct lad l;
	struct ladder_fault f;
	struct ladder_event e = { .kind = LADDER_EVENT_MOVED, .at = T0 };

	lad_init(&l, 5);
	e.player = 5;
	e.position = 2;
	lad_apply(&l, &e);
	lad_order(&l, 5, 1, 5, 2, 3, 4);
	e.player = 1;
	e.position = 5;
	lad_apply(&l, &e);
	lad_order(&l, 5, 5, 2, 3, 4, 1);
	e.player = 3;
	e.position = 3;
	lad_apply(&l, &e);
	lad_order(&l, 5, 5, 2, 3, 4, 1);
	e.position = 0;
	ck_assert_int_eq(ladder_apply(l.s, &e, &f), -1);
	ck_assert_int_eq(f.error, LADDER_ERR_POSITION_RANGE);
	ck_assert_int_eq(f.min, 1);
	ck_assert_int_eq(f.max, 5);
	e.position = 6;
	ck_assert_int_eq(ladder_apply(l.s, &e, &f), -1);
	ck_assert_int_eq(f.error, LADDER_ERR_POSITION_RANGE);
	e.player = 9;
	e.position = 1;
	ck_assert_int_eq(ladder_apply(l.s, &e, &f), -1);
	ck_assert_int_eq(f.error, LADDER_ERR_NOT_MEMBER);
	lad_order(&l, 5, 5, 2, 3, 4, 1);
	lad_done(&l);
}
END_TEST

/* --- Absence --- */

START_TEST(test_absent)
{
	struct lad l;
	int64_t last[3], out[3];

	lad_init(&l, 2);
	lad_join(&l, 3, T0 + 20 * D);
	last[0] = T0 + 5 * D;
	last[1] = T0;
	last[2] = 0; /* never moved: from joining */
	ck_assert_uint_eq(ladder_absent(&l.rules, l.s, last, T0 + 30 * D - 1,
					out), 0);
	ck_assert_uint_eq(ladder_absent(&l.rules, l.s, last, T0 + 30 * D, out),
			  1);
	ck_assert_int_eq(out[0], 2);
	ck_assert_uint_eq(ladder_absent(&l.rules, l.s, last, T0 + 35 * D, out),
			  2);
	ck_assert_int_eq(out[0], 1);
	ck_assert_int_eq(out[1], 2);
	ck_assert_uint_eq(ladder_absent(&l.rules, l.s, last, T0 + 50 * D - 1,
					out), 2);
	ck_assert_uint_eq(ladder_absent(&l.rules, l.s, last, T0 + 50 * D, out),
			  3);
	/* 1 went on vacation for 10 days after their last move: the
	 * caller's last activity moves by those days, and so does the
	 * boundary */
	last[0] = T0 + 15 * D;
	ck_assert_uint_eq(ladder_absent(&l.rules, l.s, last, T0 + 45 * D - 1,
					out), 1);
	ck_assert_int_eq(out[0], 2);
	ck_assert_uint_eq(ladder_absent(&l.rules, l.s, last, T0 + 45 * D, out),
			  2);
	ck_assert_int_eq(out[0], 1);
	ck_assert_int_eq(out[1], 2);
	l.rules.absence_withdraw = 0;
	ck_assert_uint_eq(ladder_absent(&l.rules, l.s, last, T0 + 9999 * D,
					out), 0);
	lad_done(&l);
}
END_TEST

void ladder_test_results(TCase *tc)
{
	tcase_add_test(tc, test_win_take);
	tcase_add_test(tc, test_win_swap);
	tcase_add_test(tc, test_defender_wins);
	tcase_add_test(tc, test_time_loss);
	tcase_add_test(tc, test_walkover);
	tcase_add_test(tc, test_draw_and_cancelled);
	tcase_add_test(tc, test_two_challenges_d_first);
	tcase_add_test(tc, test_two_challenges_c_first);
	tcase_add_test(tc, test_two_challenges_split);
	tcase_add_test(tc, test_challenger_already_above);
	tcase_add_test(tc, test_withdrawal_races_result);
	tcase_add_test(tc, test_moved);
	tcase_add_test(tc, test_absent);
}
