/* clock_test.h -- what the files of tests/server/test_clock share: epoch
 * seconds of a UTC date, a control from its text, a started game and the
 * check that a deadline is exact to the second.
 *
 * One Check program, one suite "clock":
 *   test_clock.c      specs, names, Fischer and days per move; main();
 *   clock_weekends.c  weekends off across DST, zones, TZ restored, the
 *                     deadline against the flag (the "weekends" case);
 *   clock_vacation.c  pauses, the vacation bank, automatic vacation.
 */
#ifndef ASHES_TESTS_SERVER_CLOCK_TEST_H
#define ASHES_TESTS_SERVER_CLOCK_TEST_H

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "server/clock.h"

#define H CLOCK_HOUR
#define D CLOCK_DAY

/* Epoch seconds of a UTC date and time, by arithmetic: the test does not
 * lean on the libc the module uses. */
static inline int64_t utc(int y, int mo, int d, int h, int mi, int s)
{
	int64_t yy = y - (mo <= 2);
	int64_t era = (yy >= 0 ? yy : yy - 399) / 400;
	int64_t yoe = yy - era * 400;
	int64_t doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	int64_t days = era * 146097 + doe - 719468;

	return days * D + h * H + mi * 60 + s;
}

static inline struct clock_control control(const char *spec,
					   bool weekends_off)
{
	struct clock_control c;
	struct clock_fault f;

	ck_assert_msg(clock_control_parse(spec, &c, &f) == 0, "%s: %s", spec,
		      clock_error_name(f.error));
	c.weekends_off = weekends_off;
	return c;
}

/* A started game: White to move from start, zones as given ("": UTC). */
static inline struct clock_state game(const char *spec, bool weekends_off,
				      const char *white_zone,
				      const char *black_zone, int64_t start)
{
	struct clock_control c = control(spec, weekends_off);
	struct clock_state s;

	ck_assert_int_eq(clock_init(&s, &c, NULL), 0);
	ck_assert_int_eq(clock_set_zone(&s, CORE_WHITE, white_zone, NULL), 0);
	ck_assert_int_eq(clock_set_zone(&s, CORE_BLACK, black_zone, NULL), 0);
	ck_assert_int_eq(clock_start(&s, CORE_WHITE, start, NULL), 0);
	return s;
}

/* The deadline is exact: the flag stands one second before, falls at it,
 * and the time charged reaches what the player had exactly then. */
static inline void assert_deadline(const struct clock_state *s,
				   int64_t deadline)
{
	int64_t had = s->player[s->to_move].remaining;

	ck_assert_int_eq(clock_deadline(s), deadline);
	ck_assert(!clock_flag_fallen(s, deadline - 1));
	ck_assert(clock_flag_fallen(s, deadline));
	ck_assert_int_eq(clock_elapsed(s, deadline - 1), had - 1);
	ck_assert_int_eq(clock_elapsed(s, deadline), had);
	ck_assert_int_eq(clock_remaining(s, s->to_move, deadline - 1), 1);
	ck_assert_int_eq(clock_remaining(s, s->to_move, deadline), 0);
}

/* The tests of clock_weekends.c and clock_vacation.c, added to tc. */
void clock_test_weekends(TCase *tc);
void clock_test_vacation(TCase *tc);
void clock_test_daily(TCase *tc);

#endif
