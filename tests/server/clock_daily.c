/* clock_daily.c -- test_clock's daily event at a local time
 * (clock_daily_at, clock_daily_next in clock_zone.c), what the daily
 * summary is due by: 08:00 and 02:30 in Europe/Berlin across both
 * changes of 2026 (a day of 23 hours, a time skipped, a day of 25 hours,
 * a time there twice), once a local day, against a brute-force search. */
#include "clock_test.h"

#define BERLIN "Europe/Berlin"

/* The local day number of y-m-d (days since 1970-01-01). */
static int64_t day_of(int y, int mo, int d)
{
	return utc(y, mo, d, 0, 0, 0) / D;
}

/* The first minute of local day y-m-d at which the local clock reads
 * `minute` or later, found minute by minute from the day's start
 * (clock_local_day_start): a brute-force check of clock_daily_at. */
static int64_t brute_daily_at(const char *zone, int y, int mo, int d,
			      int minute)
{
	char want[8], buf[80];
	int64_t t, day = day_of(y, mo, d);

	snprintf(want, sizeof(want), "%02d:%02d", minute / 60, minute % 60);
	ck_assert_int_eq(clock_local_day_start(zone, y, mo, d, &t), 0);
	for (; t < day * D + 2 * D; t += 60) {
		ck_assert_int_eq(clock_format_local(t, zone, buf, sizeof(buf)),
				 0);
		if (clock_local_day_of(zone, t) > day ||
		    strncmp(buf + 11, want, 5) >= 0)
			return t;
	}
	return -1;
}

START_TEST(test_daily_spring)
{
	/* 2026-03-29: 02:00 CET becomes 03:00 CEST at 01:00 UTC. */
	int64_t sat = day_of(2026, 3, 28), sun = sat + 1, mon = sat + 2;

	ck_assert_int_eq(clock_daily_at(BERLIN, sat, 8 * 60),
			 utc(2026, 3, 28, 7, 0, 0));
	ck_assert_int_eq(clock_daily_at(BERLIN, sun, 8 * 60),
			 utc(2026, 3, 29, 6, 0, 0));
	/* 23 hours apart */
	ck_assert_int_eq(clock_daily_at(BERLIN, sun, 8 * 60) -
			 clock_daily_at(BERLIN, sat, 8 * 60), 23 * H);
	/* 02:30 does not exist on the 29th: 03:00 CEST, the gap's end */
	ck_assert_int_eq(clock_daily_at(BERLIN, sat, 150),
			 utc(2026, 3, 28, 1, 30, 0));
	ck_assert_int_eq(clock_daily_at(BERLIN, sun, 150),
			 utc(2026, 3, 29, 1, 0, 0));
	ck_assert_int_eq(clock_daily_at(BERLIN, mon, 150),
			 utc(2026, 3, 30, 0, 30, 0));
	/* 02:00 itself is skipped too; 01:59 is still there */
	ck_assert_int_eq(clock_daily_at(BERLIN, sun, 120),
			 utc(2026, 3, 29, 1, 0, 0));
	ck_assert_int_eq(clock_daily_at(BERLIN, sun, 119),
			 utc(2026, 3, 29, 0, 59, 0));
	/* midnight and the last minute */
	ck_assert_int_eq(clock_daily_at(BERLIN, sun, 0),
			 utc(2026, 3, 28, 23, 0, 0));
	ck_assert_int_eq(clock_daily_at(BERLIN, sun, 1439),
			 utc(2026, 3, 29, 21, 59, 0));
}
END_TEST

START_TEST(test_daily_autumn)
{
	/* 2026-10-25: 03:00 CEST becomes 02:00 CET at 01:00 UTC. */
	int64_t sat = day_of(2026, 10, 24), sun = sat + 1;

	ck_assert_int_eq(clock_daily_at(BERLIN, sat, 8 * 60),
			 utc(2026, 10, 24, 6, 0, 0));
	ck_assert_int_eq(clock_daily_at(BERLIN, sun, 8 * 60),
			 utc(2026, 10, 25, 7, 0, 0));
	/* 25 hours apart */
	ck_assert_int_eq(clock_daily_at(BERLIN, sun, 8 * 60) -
			 clock_daily_at(BERLIN, sat, 8 * 60), 25 * H);
	/* 02:30 comes twice: its first, CEST */
	ck_assert_int_eq(clock_daily_at(BERLIN, sun, 150),
			 utc(2026, 10, 25, 0, 30, 0));
	/* 03:30 comes once, CET, after the clock went back */
	ck_assert_int_eq(clock_daily_at(BERLIN, sun, 210),
			 utc(2026, 10, 25, 2, 30, 0));
	ck_assert_int_eq(clock_daily_at(BERLIN, sun, 1439),
			 utc(2026, 10, 25, 22, 59, 0));
}
END_TEST

START_TEST(test_daily_next)
{
	int64_t at8 = utc(2026, 10, 25, 7, 0, 0);

	/* chosen before today's time: today; after: tomorrow */
	ck_assert_int_eq(clock_daily_next(BERLIN, 480,
					  utc(2026, 10, 25, 5, 0, 0), 0), at8);
	ck_assert_int_eq(clock_daily_next(BERLIN, 480, at8, 0), at8);
	ck_assert_int_eq(clock_daily_next(BERLIN, 480, at8 + 1, 0),
			 utc(2026, 10, 26, 7, 0, 0));
	/* one a local day: a summary sent at 08:00 CEST on the 24th, the
	 * next is not at 06:00 UTC on the 25th (07:00 CET) but at 08:00
	 * CET */
	ck_assert_int_eq(clock_daily_next(BERLIN, 480,
					  utc(2026, 10, 24, 6, 0, 30),
					  utc(2026, 10, 24, 6, 0, 30)), at8);
	/* the twice-02:30 night: sent at the first, not again at the
	 * second, but the next day */
	ck_assert_int_eq(clock_daily_next(BERLIN, 150,
					  utc(2026, 10, 25, 0, 30, 0),
					  utc(2026, 10, 25, 0, 30, 0)),
			 utc(2026, 10, 26, 1, 30, 0));
	/* a summary late by a day (the daemon away): the next the day
	 * after the one it went */
	ck_assert_int_eq(clock_daily_next(BERLIN, 480,
					  utc(2026, 10, 26, 6, 0, 0),
					  utc(2026, 10, 26, 6, 0, 0)),
			 utc(2026, 10, 27, 7, 0, 0));
	/* UTC and an unknown zone (read as UTC) */
	ck_assert_int_eq(clock_daily_next("", 480, utc(2026, 1, 3, 10, 0, 0),
					  0), utc(2026, 1, 4, 8, 0, 0));
	ck_assert_int_eq(clock_daily_next("Mars/Olympus_Mons", 480,
					  utc(2026, 1, 3, 7, 0, 0), 0),
			 utc(2026, 1, 3, 8, 0, 0));
}
END_TEST

START_TEST(test_daily_brute)
{
	/* the minutes around the changes and a few others, on the days of
	 * both changes and one before, in Berlin and New York (whose
	 * changes come at other dates and hours) */
	static const char *const zones[] = { BERLIN, "America/New_York" };
	static const int days[][3] = { { 2026, 3, 28 }, { 2026, 3, 29 },
				       { 2026, 3, 8 }, { 2026, 10, 25 },
				       { 2026, 11, 1 } };
	static const int minutes[] = { 0, 59, 60, 90, 119, 120, 150, 179,
				       180, 210, 480, 1439 };

	for (size_t z = 0; z < 2; z++)
		for (size_t d = 0; d < sizeof(days) / sizeof(days[0]); d++)
			for (size_t m = 0; m < sizeof(minutes) /
			     sizeof(minutes[0]); m++)
				ck_assert_int_eq(
					clock_daily_at(zones[z],
						       day_of(days[d][0],
							      days[d][1],
							      days[d][2]),
						       minutes[m]),
					brute_daily_at(zones[z], days[d][0],
						       days[d][1], days[d][2],
						       minutes[m]));
}
END_TEST

void clock_test_daily(TCase *tc)
{
	tcase_add_test(tc, test_daily_spring);
	tcase_add_test(tc, test_daily_autumn);
	tcase_add_test(tc, test_daily_next);
	tcase_add_test(tc, test_daily_brute);
}
