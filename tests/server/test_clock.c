/* test_clock.c -- the clock arithmetic (server/clock.h): time control
 * specs and their refusals, Fischer with a cap, days per move, weekends
 * off across the DST changes of 2026, vacations, the vacation bank and
 * the exact second a flag falls.  Every time is given: nothing sleeps.
 *
 * This file: specs, names, Fischer and days per move, and main(); the
 * weekends are in clock_weekends.c, vacations in clock_vacation.c. */
#include "clock_test.h"
#include "../check_run.h"

/* --- Specs --- */

START_TEST(test_spec_round_trip)
{
	static const char *const canonical[] = {
		"none", "days:1", "days:3", "days:14",
		"fischer:240h+36h/240h", "fischer:72h+24h", "fischer:1h+0h",
		"fischer:24h+0h/24h", "fischer:8760h+8760h/8760h",
	};
	static const struct { const char *in, *out; } loose[] = {
		{ "NONE", "none" },
		{ "Days:03", "days:3" },
		{ "FISCHER:072H+24H", "fischer:72h+24h" },
		{ "fischer:240h+36h/0240h", "fischer:240h+36h/240h" },
	};
	static const int hours[] = { 1, 2, 24, 36, 72, 240, 1000, 8760 };
	struct clock_control c, back;
	char buf[CLOCK_SPEC_MAX];
	size_t i, j, k;
	int d;

	for (i = 0; i < sizeof(canonical) / sizeof(canonical[0]); i++) {
		ck_assert_int_eq(clock_control_parse(canonical[i], &c, NULL), 0);
		ck_assert(!c.weekends_off);
		ck_assert_int_eq(clock_control_format(&c, buf, sizeof(buf)), 0);
		ck_assert_str_eq(buf, canonical[i]);
	}
	for (i = 0; i < sizeof(loose) / sizeof(loose[0]); i++) {
		ck_assert_int_eq(clock_control_parse(loose[i].in, &c, NULL), 0);
		ck_assert_int_eq(clock_control_format(&c, buf, sizeof(buf)), 0);
		ck_assert_str_eq(buf, loose[i].out);
	}
	/* parse(format(c)) == c over the ranges */
	for (d = CLOCK_MIN_DAYS; d <= CLOCK_MAX_DAYS; d++) {
		memset(&c, 0, sizeof(c));
		c.kind = CLOCK_KIND_DAYS;
		c.days = d;
		ck_assert_int_eq(clock_control_format(&c, buf, sizeof(buf)), 0);
		ck_assert_int_eq(clock_control_parse(buf, &back, NULL), 0);
		ck_assert_mem_eq(&back, &c, sizeof(c));
		ck_assert_int_eq(clock_control_initial(&c), d * D);
	}
	for (i = 0; i < sizeof(hours) / sizeof(hours[0]); i++)
		for (j = 0; j < sizeof(hours) / sizeof(hours[0]); j++)
			for (k = 0; k <= sizeof(hours) / sizeof(hours[0]); k++) {
				memset(&c, 0, sizeof(c));
				c.kind = CLOCK_KIND_FISCHER;
				c.initial_hours = hours[i];
				c.increment_hours = j == 0 ? 0 : hours[j];
				c.cap_hours = k == 0 ? 0 : hours[k - 1];
				if (c.cap_hours != 0 &&
				    c.cap_hours < c.initial_hours) {
					ck_assert_int_eq(clock_control_format(
						&c, buf, sizeof(buf)), -1);
					continue;
				}
				ck_assert_int_eq(clock_control_format(
					&c, buf, sizeof(buf)), 0);
				ck_assert_int_eq(clock_control_parse(
					buf, &back, NULL), 0);
				ck_assert_mem_eq(&back, &c, sizeof(c));
				ck_assert_int_eq(clock_control_initial(&c),
						 hours[i] * H);
			}
	/* too small a buffer, an invalid control: refused, buf empty */
	c = control("fischer:240h+36h/240h", false);
	ck_assert_int_eq(clock_control_format(&c, buf, 10), -1);
	ck_assert_str_eq(buf, "");
	c.cap_hours = 239;
	ck_assert_int_eq(clock_control_format(&c, buf, sizeof(buf)), -1);
	c = control("none", false);
	ck_assert_int_eq(clock_control_initial(&c), 0);
}
END_TEST

START_TEST(test_spec_refused)
{
	static const struct {
		const char *text;
		enum clock_error error;
		int64_t value, min, max;
	} bad[] = {
		{ "", CLOCK_ERR_EMPTY, 0, 0, 0 },
		{ "fischer:240h+36h/240h           ", CLOCK_ERR_TOO_LONG, 32, 0,
		  31 },
		{ "blitz:5", CLOCK_ERR_UNKNOWN_KIND, 0, 0, 0 },
		{ "fisher:240h+36h", CLOCK_ERR_UNKNOWN_KIND, 0, 0, 0 },
		{ " days:3", CLOCK_ERR_UNKNOWN_KIND, 0, 0, 0 },
		{ "3", CLOCK_ERR_UNKNOWN_KIND, 0, 0, 0 },
		{ "none:1", CLOCK_ERR_SYNTAX, 0, 0, 0 },
		{ "none:", CLOCK_ERR_SYNTAX, 0, 0, 0 },
		{ "days", CLOCK_ERR_SYNTAX, 0, 0, 0 },
		{ "days:", CLOCK_ERR_SYNTAX, 0, 0, 0 },
		{ "days:3d", CLOCK_ERR_SYNTAX, 0, 0, 0 },
		{ "days:-1", CLOCK_ERR_SYNTAX, 0, 0, 0 },
		{ "days:+3", CLOCK_ERR_SYNTAX, 0, 0, 0 },
		{ "days:3 ", CLOCK_ERR_SYNTAX, 0, 0, 0 },
		{ "days:0", CLOCK_ERR_DAYS_RANGE, 0, 1, 14 },
		{ "days:15", CLOCK_ERR_DAYS_RANGE, 15, 1, 14 },
		{ "days:99999999999", CLOCK_ERR_DAYS_RANGE, 999999999, 1, 14 },
		{ "fischer", CLOCK_ERR_SYNTAX, 0, 0, 0 },
		{ "fischer:", CLOCK_ERR_SYNTAX, 0, 0, 0 },
		{ "fischer:240h", CLOCK_ERR_SYNTAX, 0, 0, 0 },
		{ "fischer:240h-36h", CLOCK_ERR_SYNTAX, 0, 0, 0 },
		{ "fischer:h+36h", CLOCK_ERR_SYNTAX, 0, 0, 0 },
		{ "fischer:240h+36h/", CLOCK_ERR_SYNTAX, 0, 0, 0 },
		{ "fischer:240h+36h/240h/", CLOCK_ERR_SYNTAX, 0, 0, 0 },
		{ "fischer:240h+36h ", CLOCK_ERR_SYNTAX, 0, 0, 0 },
		{ "fischer:1.5h+1h", CLOCK_ERR_SYNTAX, 0, 0, 0 },
		{ "fischer:240+36h", CLOCK_ERR_UNIT, 240, 0, 0 },
		{ "fischer:240", CLOCK_ERR_UNIT, 240, 0, 0 },
		{ "fischer:10d+1d", CLOCK_ERR_UNIT, 10, 0, 0 },
		{ "fischer:90m+1h", CLOCK_ERR_UNIT, 90, 0, 0 },
		{ "fischer:240h+36", CLOCK_ERR_UNIT, 36, 0, 0 },
		{ "fischer:240h+36h/240", CLOCK_ERR_UNIT, 240, 0, 0 },
		{ "fischer:0h+36h", CLOCK_ERR_INITIAL_RANGE, 0, 1, 8760 },
		{ "fischer:8761h+0h", CLOCK_ERR_INITIAL_RANGE, 8761, 1, 8760 },
		{ "fischer:99999999999h+1h", CLOCK_ERR_INITIAL_RANGE,
		  999999999, 1, 8760 },
		{ "fischer:24h+8761h", CLOCK_ERR_INCREMENT_RANGE, 8761, 0, 8760 },
		{ "fischer:240h+36h/239h", CLOCK_ERR_CAP_RANGE, 239, 240, 8760 },
		{ "fischer:240h+36h/0h", CLOCK_ERR_CAP_RANGE, 0, 240, 8760 },
		{ "fischer:240h+36h/9000h", CLOCK_ERR_CAP_RANGE, 9000, 240,
		  8760 },
	};
	struct clock_control c, before;
	struct clock_fault f;
	size_t i;
	bool off;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&c, 0x5a, sizeof(c));
		before = c;
		ck_assert_msg(clock_control_parse(bad[i].text, &c, &f) == -1,
			      "accepted: \"%s\"", bad[i].text);
		ck_assert_msg(f.error == bad[i].error, "\"%s\": %s, not %s",
			      bad[i].text, clock_error_name(f.error),
			      clock_error_name(bad[i].error));
		ck_assert_int_eq(f.value, bad[i].value);
		ck_assert_int_eq(f.min, bad[i].min);
		ck_assert_int_eq(f.max, bad[i].max);
		/* a refusal leaves the output alone */
		ck_assert_mem_eq(&c, &before, sizeof(c));
		/* and a NULL fault is allowed */
		ck_assert_int_eq(clock_control_parse(bad[i].text, &c, NULL), -1);
	}

	ck_assert_int_eq(clock_weekends_parse("off", &off, &f), 0);
	ck_assert(off);
	ck_assert_int_eq(clock_weekends_parse("on", &off, &f), 0);
	ck_assert(!off);
	ck_assert_int_eq(clock_weekends_parse("OFF", &off, &f), 0);
	ck_assert(off);
	ck_assert_int_eq(clock_weekends_parse("no", &off, &f), -1);
	ck_assert_int_eq(f.error, CLOCK_ERR_WEEKENDS);
	ck_assert(off);
	ck_assert_int_eq(clock_weekends_parse("", &off, &f), -1);
	ck_assert_int_eq(f.error, CLOCK_ERR_WEEKENDS);
}
END_TEST

START_TEST(test_names)
{
	enum clock_error e;
	enum clock_error e2;

	for (e = CLOCK_OK; e <= CLOCK_ERR_BAD_ARGUMENT; e++) {
		ck_assert_str_ne(clock_error_name(e), "unknown");
		for (e2 = CLOCK_OK; e2 < e; e2++)
			ck_assert_str_ne(clock_error_name(e),
					 clock_error_name(e2));
	}
	ck_assert_str_eq(clock_error_name(CLOCK_ERR_BAD_ARGUMENT + 1),
			 "unknown");
	ck_assert_str_eq(clock_error_name(CLOCK_ERR_CAP_RANGE), "cap_range");
}
END_TEST

/* --- Fischer and days per move --- */

START_TEST(test_fischer_little_golem)
{
	/* Little Golem: 240 h, +36 h a move, never above 240 h */
	int64_t t = utc(2026, 1, 5, 9, 0, 0);
	struct clock_state s = game("fischer:240h+36h/240h", false, "", "", t);
	int64_t ref[2] = { 240 * H, 240 * H };
	uint64_t seed = 12345;
	int i;

	assert_deadline(&s, t + 240 * H);
	/* 10 h used, 36 h back: 266 h, capped at 240 h */
	t += 10 * H;
	ck_assert_int_eq(clock_charge(&s, t, NULL), 0);
	ck_assert_int_eq(s.player[CORE_WHITE].remaining, 240 * H);
	ck_assert_int_eq(s.to_move, CORE_BLACK);
	ck_assert_int_eq(s.turn_started, t);
	/* Black thinks 100 h: 140 h + 36 h */
	t += 100 * H;
	ck_assert_int_eq(clock_charge(&s, t, NULL), 0);
	ck_assert_int_eq(s.player[CORE_BLACK].remaining, 176 * H);
	/* White uses 230 h of 240: 10 h + 36 h */
	t += 230 * H;
	ck_assert_int_eq(clock_remaining(&s, CORE_WHITE, t), 10 * H);
	ck_assert_int_eq(clock_remaining(&s, CORE_BLACK, t), 176 * H);
	ck_assert_int_eq(clock_charge(&s, t, NULL), 0);
	ck_assert_int_eq(s.player[CORE_WHITE].remaining, 46 * H);
	/* Black moves at once: 176 h + 36 h = 212 h */
	ck_assert_int_eq(clock_charge(&s, t, NULL), 0);
	ck_assert_int_eq(s.player[CORE_BLACK].remaining, 212 * H);
	assert_deadline(&s, t + 46 * H);
	/* White's last second: 1 s left, +36 h */
	t += 46 * H - 1;
	ck_assert_int_eq(clock_charge(&s, t, NULL), 0);
	ck_assert_int_eq(s.player[CORE_WHITE].remaining, 36 * H + 1);

	/* Many moves against the rule by hand: r = min(cap, r - e + inc) */
	ref[CORE_WHITE] = s.player[CORE_WHITE].remaining;
	ref[CORE_BLACK] = s.player[CORE_BLACK].remaining;
	for (i = 0; i < 400; i++) {
		enum core_color side = s.to_move;
		int64_t e, left;

		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		e = (int64_t)((seed >> 33) % (uint64_t)ref[side]);
		assert_deadline(&s, t + ref[side]);
		t += e;
		ck_assert_int_eq(clock_remaining(&s, side, t), ref[side] - e);
		ck_assert_int_eq(clock_charge(&s, t, NULL), 0);
		left = ref[side] - e + 36 * H;
		ref[side] = left < 240 * H ? left : 240 * H;
		ck_assert_int_eq(s.player[side].remaining, ref[side]);
		ck_assert_int_eq(s.player[!side].remaining, ref[!side]);
		ck_assert_int_eq(s.to_move, !side);
	}
}
END_TEST

START_TEST(test_fischer_without_cap)
{
	int64_t t = utc(2026, 2, 2, 12, 0, 0);
	struct clock_state s = game("fischer:72h+24h", false, "", "", t);
	struct clock_fault f;

	ck_assert_int_eq(clock_charge(&s, t + H, &f), 0);
	ck_assert_int_eq(s.player[CORE_WHITE].remaining, 95 * H);
	ck_assert_int_eq(clock_charge(&s, t + H, &f), 0);
	ck_assert_int_eq(s.player[CORE_BLACK].remaining, 96 * H);
	ck_assert_int_eq(clock_charge(&s, t + H, &f), 0);
	ck_assert_int_eq(s.player[CORE_WHITE].remaining, 119 * H);
	/* an adjustment above what a cap would be is kept: no cap here,
	 * and with one (below) the cap never takes it away */
	s = game("fischer:24h+12h/24h", false, "", "", t);
	ck_assert_int_eq(clock_add_time(&s, CORE_WHITE, 48 * H, &f), 0);
	ck_assert_int_eq(clock_charge(&s, t + 2 * H, &f), 0);
	ck_assert_int_eq(s.player[CORE_WHITE].remaining, 70 * H);
}
END_TEST

START_TEST(test_days_per_move)
{
	int64_t t0 = utc(2026, 5, 4, 8, 30, 0), t;
	struct clock_state s = game("days:3", false, "", "", t0), before;
	struct clock_fault f;

	assert_deadline(&s, t0 + 3 * D);
	/* White takes two days: back to three */
	t = t0 + 2 * D;
	ck_assert_int_eq(clock_charge(&s, t, &f), 0);
	ck_assert_int_eq(s.player[CORE_WHITE].remaining, 3 * D);
	assert_deadline(&s, t + 3 * D);
	/* Black in the last second */
	t += 3 * D - 1;
	ck_assert_int_eq(clock_charge(&s, t, &f), 0);
	ck_assert_int_eq(s.player[CORE_BLACK].remaining, 3 * D);
	assert_deadline(&s, t + 3 * D);
	/* White's mail arrives at the deadline second: too late */
	before = s;
	ck_assert_int_eq(clock_charge(&s, t + 3 * D, &f), -1);
	ck_assert_int_eq(f.error, CLOCK_ERR_FLAG_FELL);
	ck_assert_int_eq(f.value, t + 3 * D);
	ck_assert_mem_eq(&s, &before, sizeof(s));
	ck_assert_int_eq(clock_charge(&s, t + 30 * D, &f), -1);
	ck_assert_int_eq(f.error, CLOCK_ERR_FLAG_FELL);
	/* a receipt time before the turn's start charges nothing */
	ck_assert_int_eq(clock_charge(&s, t - 100, &f), 0);
	ck_assert_int_eq(s.turn_started, t);
	ck_assert_int_eq(s.player[CORE_WHITE].remaining, 3 * D);
}
END_TEST

START_TEST(test_not_started_and_none)
{
	struct clock_control c = control("days:2", false);
	struct clock_state s;
	struct clock_fault f;
	int64_t t = utc(2026, 1, 1, 0, 0, 0);

	ck_assert_int_eq(clock_init(&s, &c, &f), 0);
	ck_assert(!s.started);
	ck_assert_int_eq(clock_deadline(&s), CLOCK_NEVER);
	ck_assert(!clock_flag_fallen(&s, t + 100 * D));
	ck_assert_int_eq(clock_elapsed(&s, t + 100 * D), 0);
	ck_assert_int_eq(clock_remaining(&s, CORE_WHITE, t), 2 * D);
	ck_assert_int_eq(clock_charge(&s, t, &f), -1);
	ck_assert_int_eq(f.error, CLOCK_ERR_NOT_STARTED);
	ck_assert_int_eq(clock_flag_check(&s, NULL, NULL, t + 100 * D, NULL),
			 CLOCK_FLAG_OK);
	ck_assert_int_eq(clock_start(&s, CORE_BLACK, t, &f), 0);
	ck_assert_int_eq(s.to_move, CORE_BLACK);
	ck_assert_int_eq(clock_start(&s, CORE_WHITE, t, &f), -1);
	ck_assert_int_eq(f.error, CLOCK_ERR_STARTED);
	ck_assert_int_eq(s.to_move, CORE_BLACK);
	assert_deadline(&s, t + 2 * D);

	/* an invalid control is a caller's mistake */
	c.days = 20;
	ck_assert_int_eq(clock_init(&s, &c, &f), -1);
	ck_assert_int_eq(f.error, CLOCK_ERR_BAD_ARGUMENT);

	/* no clock: turns change, no flag ever falls */
	s = game("none", false, "", "", t);
	ck_assert_int_eq(clock_deadline(&s), CLOCK_NEVER);
	ck_assert(!clock_flag_fallen(&s, t + 3650 * D));
	ck_assert_int_eq(clock_charge(&s, t + 3650 * D, &f), 0);
	ck_assert_int_eq(s.to_move, CORE_BLACK);
	ck_assert_int_eq(clock_flag_check(&s, NULL, NULL, t + 7300 * D, NULL),
			 CLOCK_FLAG_OK);
	ck_assert_int_eq(clock_add_time(&s, CORE_WHITE, D, &f), -1);
	ck_assert_int_eq(f.error, CLOCK_ERR_NO_CLOCK);
}
END_TEST

START_TEST(test_add_time)
{
	int64_t t = utc(2026, 1, 1, 0, 0, 0);
	struct clock_state s = game("days:1", false, "", "", t);
	struct clock_fault f;

	ck_assert_int_eq(clock_add_time(&s, CORE_WHITE, D, &f), 0);
	assert_deadline(&s, t + 2 * D);
	ck_assert_int_eq(clock_add_time(&s, CORE_WHITE, -3 * D, &f), -1);
	ck_assert_int_eq(f.error, CLOCK_ERR_ADJUST_RANGE);
	ck_assert_int_eq(f.value, -D);
	ck_assert_int_eq(clock_add_time(&s, CORE_WHITE, CLOCK_MAX_REMAINING,
					&f), -1);
	ck_assert_int_eq(f.error, CLOCK_ERR_ADJUST_RANGE);
	ck_assert_int_eq(f.max, CLOCK_MAX_REMAINING);
	ck_assert_int_eq(clock_add_time(&s, CORE_WHITE, INT64_MIN, &f), -1);
	ck_assert_int_eq(clock_add_time(&s, CORE_WHITE, INT64_MAX, &f), -1);
	ck_assert_int_eq(s.player[CORE_WHITE].remaining, 2 * D);
	/* taken to 0: the flag falls at the turn's start */
	ck_assert_int_eq(clock_add_time(&s, CORE_WHITE, -2 * D, &f), 0);
	ck_assert_int_eq(clock_deadline(&s), t);
	ck_assert(clock_flag_fallen(&s, t));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("clock");
	TCase *spec = tcase_create("spec");
	TCase *turns = tcase_create("turns");
	TCase *weekends = tcase_create("weekends");
	TCase *vacation = tcase_create("vacation");
	TCase *daily = tcase_create("daily");

	tcase_add_test(spec, test_spec_round_trip);
	tcase_add_test(spec, test_spec_refused);
	tcase_add_test(spec, test_names);
	suite_add_tcase(s, spec);
	tcase_add_test(turns, test_fischer_little_golem);
	tcase_add_test(turns, test_fischer_without_cap);
	tcase_add_test(turns, test_days_per_move);
	tcase_add_test(turns, test_not_started_and_none);
	tcase_add_test(turns, test_add_time);
	suite_add_tcase(s, turns);
	clock_test_weekends(weekends);
	suite_add_tcase(s, weekends);
	clock_test_vacation(vacation);
	suite_add_tcase(s, vacation);
	clock_test_daily(daily);
	suite_add_tcase(s, daily);
	return test_run(s);
}
