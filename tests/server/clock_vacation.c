/* clock_vacation.c -- test_clock's vacations: pauses in and across a
 * turn and a weekend, merged and bounded, the vacation bank earning and
 * spending, and the automatic vacation that saves a falling flag. */
#include "clock_test.h"

/* --- Vacation --- */

START_TEST(test_vacation_mid_turn)
{
	int64_t t0 = utc(2026, 1, 5, 9, 0, 0);
	int64_t away = t0 + 10 * H, back = away + 5 * D;
	struct clock_state s = game("fischer:72h+24h", false, "", "", t0);
	struct clock_fault f;

	/* `vacation 5` ten hours into White's turn: the ten hours stay
	 * charged, the five days are not, and the clock is not refilled */
	ck_assert_int_eq(clock_pause_add(&s, CORE_WHITE, away, back, &f), 0);
	ck_assert_int_eq(clock_remaining(&s, CORE_WHITE, away), 62 * H);
	ck_assert_int_eq(clock_remaining(&s, CORE_WHITE, away + 3 * D), 62 * H);
	ck_assert_int_eq(clock_remaining(&s, CORE_WHITE, back), 62 * H);
	assert_deadline(&s, t0 + 72 * H + 5 * D);
	ck_assert_int_eq(clock_charge(&s, back + 2 * H, &f), 0);
	ck_assert_int_eq(s.player[CORE_WHITE].remaining, (72 - 12 + 24) * H);
	/* the pause is White's: Black's turn runs through it in full */
	ck_assert_int_eq(s.player[CORE_WHITE].npauses, 0);
	assert_deadline(&s, back + 2 * H + 72 * H);

	/* a vacation booked for later stops a later turn only */
	s = game("days:1", false, "", "", t0);
	ck_assert_int_eq(clock_pause_add(&s, CORE_BLACK, t0 + D, t0 + 3 * D,
					 &f), 0);
	assert_deadline(&s, t0 + D);
	ck_assert_int_eq(clock_charge(&s, t0 + 12 * H, &f), 0);
	assert_deadline(&s, t0 + 12 * H + D + 2 * D);
	ck_assert_int_eq(s.player[CORE_BLACK].npauses, 1);

	/* an endless pause: no deadline */
	s = game("days:1", false, "", "", t0);
	ck_assert_int_eq(clock_pause_add(&s, CORE_WHITE, t0 + H, CLOCK_NEVER,
					 &f), 0);
	ck_assert_int_eq(clock_deadline(&s), CLOCK_NEVER);
	ck_assert(!clock_flag_fallen(&s, t0 + 3650 * D));
	ck_assert_int_eq(clock_remaining(&s, CORE_WHITE, t0 + 3650 * D),
			 23 * H);
}
END_TEST

START_TEST(test_vacation_over_weekend)
{
	/* weekends off in UTC, away Friday 9 to Tuesday 13 January: the
	 * weekend in between is not taken off twice */
	int64_t mon = utc(2026, 1, 5, 0, 0, 0);
	struct clock_state s = game("fischer:240h+0h", true, "", "", mon);

	ck_assert_int_eq(clock_pause_add(&s, CORE_WHITE,
					 utc(2026, 1, 9, 0, 0, 0),
					 utc(2026, 1, 13, 0, 0, 0), NULL), 0);
	ck_assert_int_eq(clock_elapsed(&s, utc(2026, 1, 13, 0, 0, 0)), 96 * H);
	ck_assert_int_eq(clock_elapsed(&s, utc(2026, 1, 13, 1, 0, 0)), 97 * H);
	/* 144 h left: Tuesday to Friday, then Monday and Tuesday */
	assert_deadline(&s, utc(2026, 1, 21, 0, 0, 0));
	/* weekends on: the same four days off, no more */
	s = game("fischer:240h+0h", false, "", "", mon);
	ck_assert_int_eq(clock_pause_add(&s, CORE_WHITE,
					 utc(2026, 1, 9, 0, 0, 0),
					 utc(2026, 1, 13, 0, 0, 0), NULL), 0);
	ck_assert_int_eq(clock_elapsed(&s, utc(2026, 1, 13, 0, 0, 0)), 96 * H);
	assert_deadline(&s, mon + 240 * H + 4 * D);
}
END_TEST

START_TEST(test_pauses)
{
	int64_t t0 = utc(2026, 6, 1, 0, 0, 0);
	struct clock_state s = game("days:14", false, "", "", t0), before;
	struct clock_fault f;
	int i;

	ck_assert_int_eq(clock_pause_add(&s, CORE_WHITE, t0 + H, t0 + H, &f),
			 -1);
	ck_assert_int_eq(f.error, CLOCK_ERR_PAUSE_RANGE);
	ck_assert_int_eq(clock_pause_add(&s, CORE_WHITE, t0 + 2 * H, t0 + H,
					 &f), -1);
	/* touching and overlapping pauses merge */
	ck_assert_int_eq(clock_pause_add(&s, CORE_WHITE, t0 + 2 * H, t0 + 3 * H,
					 &f), 0);
	ck_assert_int_eq(clock_pause_add(&s, CORE_WHITE, t0 + H, t0 + 2 * H,
					 &f), 0);
	ck_assert_int_eq(clock_pause_add(&s, CORE_WHITE, t0 + 150 * 60,
					 t0 + 4 * H, &f), 0);
	ck_assert_int_eq(s.player[CORE_WHITE].npauses, 1);
	ck_assert_int_eq(s.player[CORE_WHITE].pauses[0].from, t0 + H);
	ck_assert_int_eq(s.player[CORE_WHITE].pauses[0].to, t0 + 4 * H);
	ck_assert_int_eq(clock_elapsed(&s, t0 + 5 * H), 2 * H);
	/* a pause over before the turn began is dropped */
	ck_assert_int_eq(clock_pause_add(&s, CORE_WHITE, t0 - 2 * D, t0 - D,
					 &f), 0);
	ck_assert_int_eq(s.player[CORE_WHITE].npauses, 1);
	/* room for CLOCK_MAX_PAUSES, no more */
	for (i = 1; i < CLOCK_MAX_PAUSES; i++)
		ck_assert_int_eq(clock_pause_add(&s, CORE_WHITE, t0 + i * D,
						 t0 + i * D + H, &f), 0);
	before = s;
	ck_assert_int_eq(clock_pause_add(&s, CORE_WHITE, t0 + 30 * D,
					 t0 + 31 * D, &f), -1);
	ck_assert_int_eq(f.error, CLOCK_ERR_TOO_MANY_PAUSES);
	ck_assert_int_eq(f.max, CLOCK_MAX_PAUSES);
	ck_assert_mem_eq(&s, &before, sizeof(s));
	/* but one that merges fits */
	ck_assert_int_eq(clock_pause_add(&s, CORE_WHITE, t0 + D, t0 + 2 * D,
					 &f), 0);
	ck_assert_int_eq(s.player[CORE_WHITE].npauses, CLOCK_MAX_PAUSES - 1);
	/* 3 h of the first pause + 1 h each of days 2..7 + day 1's 24 h */
	assert_deadline(&s, t0 + 14 * D + 3 * H + 24 * H + 6 * H);
	/* a move drops the pauses it leaves behind */
	ck_assert_int_eq(clock_charge(&s, t0 + 3 * D + 12 * H, &f), 0);
	ck_assert_int_eq(s.player[CORE_WHITE].npauses, 4);
}
END_TEST

START_TEST(test_bank)
{
	struct clock_vacation_policy p = { 10, 30, 30 };
	struct clock_bank b;
	struct clock_fault f;
	int64_t t = utc(2026, 1, 1, 0, 0, 0), x;
	int i;

	clock_bank_open(&b, &p, t);
	ck_assert_int_eq(b.days, 10);
	/* 30 a year: one day each 365/30 days, 1051200 s */
	clock_bank_accrue(&b, &p, t + 1051200 - 1);
	ck_assert_int_eq(b.days, 10);
	clock_bank_accrue(&b, &p, t + 1051200);
	ck_assert_int_eq(b.days, 11);
	clock_bank_accrue(&b, &p, t + 3 * 1051200 + 5);
	ck_assert_int_eq(b.days, 13);
	/* full at 30: what is earned then is lost */
	clock_bank_accrue(&b, &p, t + 10 * CLOCK_YEAR);
	ck_assert_int_eq(b.days, 30);
	ck_assert_int_eq(clock_bank_spend(&b, &p, 31, t + 10 * CLOCK_YEAR, &f),
			 -1);
	ck_assert_int_eq(f.error, CLOCK_ERR_BANK_SHORT);
	ck_assert_int_eq(f.value, 31);
	ck_assert_int_eq(f.max, 30);
	ck_assert_int_eq(clock_bank_spend(&b, &p, 0, t + 10 * CLOCK_YEAR, &f),
			 -1);
	ck_assert_int_eq(f.error, CLOCK_ERR_BAD_ARGUMENT);
	ck_assert_int_eq(clock_bank_spend(&b, &p, 5, t + 10 * CLOCK_YEAR, &f),
			 0);
	ck_assert_int_eq(b.days, 25);
	clock_bank_accrue(&b, &p, t + 10 * CLOCK_YEAR + 1051200);
	ck_assert_int_eq(b.days, 26);

	/* a bank above the cap (the cap lowered since) keeps its days */
	p.cap_days = 20;
	clock_bank_accrue(&b, &p, t + 20 * CLOCK_YEAR);
	ck_assert_int_eq(b.days, 26);
	p.cap_days = 30;
	/* a start above the cap is the cap; no earning, no days */
	p.start_days = 50;
	clock_bank_open(&b, &p, t);
	ck_assert_int_eq(b.days, 30);
	p = (struct clock_vacation_policy){ 0, 0, 30 };
	clock_bank_open(&b, &p, t);
	clock_bank_accrue(&b, &p, t + 5 * CLOCK_YEAR);
	ck_assert_int_eq(b.days, 0);
	ck_assert_int_eq(clock_bank_spend(&b, &p, 1, t, &f), -1);
	ck_assert_int_eq(f.max, 0);

	/* accruing daily earns what one late accrual earns: 7 a year */
	p = (struct clock_vacation_policy){ 0, 7, 30 };
	clock_bank_open(&b, &p, t);
	for (i = 1; i <= 365; i++)
		clock_bank_accrue(&b, &p, t + i * D);
	x = b.days;
	clock_bank_accrue(&b, &p, t + CLOCK_YEAR + 7);
	ck_assert_int_ge(x, 6);
	ck_assert_int_eq(b.days, 7);
	clock_bank_open(&b, &p, t);
	clock_bank_accrue(&b, &p, t + CLOCK_YEAR);
	ck_assert_int_eq(b.days, 7);
}
END_TEST

START_TEST(test_auto_vacation)
{
	struct clock_vacation_policy p = { 2, 30, 30 };
	int64_t t0 = utc(2026, 2, 2, 10, 0, 0), dl;
	struct clock_state s = game("days:1", false, "", "", t0), before;
	struct clock_bank b;
	int spent;

	clock_bank_open(&b, &p, t0);
	dl = t0 + D;
	ck_assert_int_eq(clock_flag_check(&s, &b, &p, dl - 1, &spent),
			 CLOCK_FLAG_OK);
	ck_assert_int_eq(spent, 0);
	ck_assert_int_eq(b.days, 2);
	/* at the deadline: a day spent, 24 h added */
	ck_assert_int_eq(clock_flag_check(&s, &b, &p, dl, &spent),
			 CLOCK_FLAG_VACATION);
	ck_assert_int_eq(spent, 1);
	ck_assert_int_eq(b.days, 1);
	ck_assert_int_eq(clock_remaining(&s, CORE_WHITE, dl), D);
	assert_deadline(&s, dl + D);
	ck_assert_int_eq(clock_flag_check(&s, &b, &p, dl + D, &spent),
			 CLOCK_FLAG_VACATION);
	ck_assert_int_eq(b.days, 0);
	assert_deadline(&s, dl + 2 * D);
	/* the bank is empty: the flag falls, nothing changes */
	before = s;
	ck_assert_int_eq(clock_flag_check(&s, &b, &p, dl + 2 * D, &spent),
			 CLOCK_FLAG_FELL);
	ck_assert_int_eq(spent, 0);
	ck_assert_int_eq(b.days, 0);
	ck_assert_mem_eq(&s, &before, sizeof(s));

	/* a move in the extra time is charged as usual */
	s = game("fischer:24h+6h", false, "", "", t0);
	clock_bank_open(&b, &p, t0);
	ck_assert_int_eq(clock_flag_check(&s, &b, &p, t0 + D, &spent),
			 CLOCK_FLAG_VACATION);
	ck_assert_int_eq(clock_charge(&s, t0 + D + 5 * H, NULL), 0);
	ck_assert_int_eq(s.player[CORE_WHITE].remaining, 19 * H + 6 * H);

	/* after an outage of 30 h past the deadline, two days are needed:
	 * spent if the bank has them, else the flag falls untouched */
	s = game("days:1", false, "", "", t0);
	clock_bank_open(&b, &p, t0);
	b.days = 1;
	ck_assert_int_eq(clock_flag_check(&s, &b, &p, dl + 30 * H, &spent),
			 CLOCK_FLAG_FELL);
	ck_assert_int_eq(b.days, 1);
	b.days = 3;
	ck_assert_int_eq(clock_flag_check(&s, &b, &p, dl + 30 * H, &spent),
			 CLOCK_FLAG_VACATION);
	ck_assert_int_eq(spent, 2);
	ck_assert_int_eq(b.days, 1);
	ck_assert(!clock_flag_fallen(&s, dl + 30 * H));
	assert_deadline(&s, dl + 2 * D);

	/* no bank (auto_vacation off, or the game says vacation=no) */
	s = game("days:1", false, "", "", t0);
	ck_assert_int_eq(clock_flag_check(&s, NULL, &p, dl, NULL),
			 CLOCK_FLAG_FELL);

	/* days earned while the turn ran count */
	p = (struct clock_vacation_policy){ 0, 365, 30 };
	s = game("days:3", false, "", "", t0);
	clock_bank_open(&b, &p, t0);
	ck_assert_int_eq(clock_flag_check(&s, &b, &p, t0 + 3 * D, &spent),
			 CLOCK_FLAG_VACATION);
	ck_assert_int_eq(b.days, 2);
}
END_TEST

void clock_test_vacation(TCase *tc)
{
	tcase_add_test(tc, test_vacation_mid_turn);
	tcase_add_test(tc, test_vacation_over_weekend);
	tcase_add_test(tc, test_pauses);
	tcase_add_test(tc, test_bank);
	tcase_add_test(tc, test_auto_vacation);
}
