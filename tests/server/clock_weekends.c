/* clock_weekends.c -- test_clock's weekends off (clock_zone.c): each
 * player's local Saturday and Sunday across the DST changes of 2026,
 * against a brute-force count, zones refused and accepted, TZ restored,
 * and the deadline against the flag over many random turns. */
#include "clock_test.h"

/* --- Weekends off --- */

START_TEST(test_weekend_berlin_spring)
{
	/* 2026-03-29: CET to CEST.  The weekend is Saturday 00:00 CET
	 * (Friday 23:00 UTC) to Monday 00:00 CEST (Sunday 22:00 UTC): 47 h. */
	int64_t fri = utc(2026, 3, 27, 12, 0, 0);
	int64_t sat0 = utc(2026, 3, 27, 23, 0, 0);
	int64_t mon0 = utc(2026, 3, 29, 22, 0, 0);
	struct clock_state s = game("days:1", true, "Europe/Berlin", "", fri);

	ck_assert_int_eq(clock_elapsed(&s, sat0), 11 * H);
	ck_assert_int_eq(clock_elapsed(&s, sat0 + 13 * H), 11 * H);
	ck_assert_int_eq(clock_elapsed(&s, mon0 - 1), 11 * H);
	ck_assert_int_eq(clock_elapsed(&s, mon0 + 1), 11 * H + 1);
	ck_assert_int_eq(clock_elapsed(&s, utc(2026, 3, 30, 12, 0, 0)),
			 72 * H - 47 * H);
	/* 13 h left on Monday: 13:00 CEST */
	assert_deadline(&s, utc(2026, 3, 30, 11, 0, 0));

	/* a turn that starts on Saturday starts on Monday */
	s = game("days:1", true, "Europe/Berlin", "",
		 utc(2026, 3, 28, 10, 0, 0));
	ck_assert_int_eq(clock_elapsed(&s, mon0), 0);
	assert_deadline(&s, mon0 + D);

	/* a turn that runs out at Friday midnight ends there, not Monday */
	s = game("fischer:5h+0h", true, "Europe/Berlin", "",
		 utc(2026, 3, 27, 18, 0, 0));
	assert_deadline(&s, sat0);
	ck_assert(clock_flag_fallen(&s, sat0 + 30 * H));
	ck_assert(clock_flag_fallen(&s, mon0 + 1));

	/* weekends on: the zone changes nothing */
	s = game("days:1", false, "Europe/Berlin", "", fri);
	assert_deadline(&s, fri + D);
}
END_TEST

START_TEST(test_weekend_berlin_autumn)
{
	/* 2026-10-25: CEST to CET.  Saturday 00:00 CEST (Friday 22:00 UTC)
	 * to Monday 00:00 CET (Sunday 23:00 UTC): 49 h. */
	int64_t fri = utc(2026, 10, 23, 12, 0, 0);
	int64_t sat0 = utc(2026, 10, 23, 22, 0, 0);
	int64_t mon0 = utc(2026, 10, 25, 23, 0, 0);
	struct clock_state s = game("days:1", true, "Europe/Berlin", "", fri);

	ck_assert_int_eq(clock_elapsed(&s, sat0), 10 * H);
	ck_assert_int_eq(clock_elapsed(&s, mon0), 10 * H);
	ck_assert_int_eq(clock_elapsed(&s, utc(2026, 10, 26, 12, 0, 0)),
			 72 * H - 49 * H);
	assert_deadline(&s, utc(2026, 10, 26, 13, 0, 0));

	s = game("fischer:1h+0h", true, "Europe/Berlin", "",
		 utc(2026, 10, 23, 21, 0, 0));
	assert_deadline(&s, sat0);
}
END_TEST

START_TEST(test_weekend_across_weeks)
{
	/* 240 h of weekdays: two working weeks, Monday 00:00 to Friday
	 * 24:00 local, whatever DST does in between */
	struct clock_state s;

	s = game("fischer:240h+0h", true, "Europe/Berlin", "",
		 utc(2026, 3, 1, 23, 0, 0));
	assert_deadline(&s, utc(2026, 3, 13, 23, 0, 0));
	s = game("fischer:240h+0h", true, "Europe/Berlin", "",
		 utc(2026, 3, 22, 23, 0, 0));
	assert_deadline(&s, utc(2026, 4, 3, 22, 0, 0));
	s = game("fischer:240h+0h", true, "Europe/Berlin", "",
		 utc(2026, 10, 18, 22, 0, 0));
	assert_deadline(&s, utc(2026, 10, 30, 23, 0, 0));
	/* a whole year of weekdays ends on a Friday at 24:00 */
	s = game("fischer:6240h+0h", true, "Europe/Berlin", "",
		 utc(2026, 1, 4, 23, 0, 0));
	assert_deadline(&s, utc(2027, 1, 1, 23, 0, 0));
}
END_TEST

START_TEST(test_weekend_zones_without_dst)
{
	/* Tokyo (UTC+9, no DST): Saturday 00:00 JST is Friday 15:00 UTC in
	 * March and October alike; the weekend is 48 h */
	struct clock_state s;

	s = game("days:1", true, "Asia/Tokyo", "",
		 utc(2026, 3, 27, 12, 0, 0));
	ck_assert_int_eq(clock_elapsed(&s, utc(2026, 3, 29, 15, 0, 0)), 3 * H);
	assert_deadline(&s, utc(2026, 3, 30, 12, 0, 0));
	s = game("days:1", true, "Asia/Tokyo", "",
		 utc(2026, 10, 23, 12, 0, 0));
	assert_deadline(&s, utc(2026, 10, 26, 12, 0, 0));
	/* no zone: UTC */
	s = game("days:1", true, "", "", utc(2026, 3, 27, 12, 0, 0));
	ck_assert_int_eq(clock_elapsed(&s, utc(2026, 3, 28, 12, 0, 0)), 12 * H);
	assert_deadline(&s, utc(2026, 3, 30, 12, 0, 0));
	s = game("days:1", true, "Etc/UTC", "", utc(2026, 3, 27, 12, 0, 0));
	assert_deadline(&s, utc(2026, 3, 30, 12, 0, 0));
	/* east of the date line: Saturday 00:00 at Kiritimati (UTC+14) is
	 * Friday 10:00 UTC */
	s = game("days:1", true, "Pacific/Kiritimati", "",
		 utc(2026, 3, 27, 9, 0, 0));
	assert_deadline(&s, utc(2026, 3, 29, 10, 0, 0) + 23 * H);
}
END_TEST

START_TEST(test_weekend_each_players_zone)
{
	/* White in Berlin, Black in Tokyo: each turn skips its player's
	 * weekend */
	int64_t fri = utc(2026, 3, 27, 12, 0, 0);
	struct clock_state s = game("days:1", true, "Europe/Berlin",
				    "Asia/Tokyo", fri);

	assert_deadline(&s, utc(2026, 3, 30, 11, 0, 0));
	ck_assert_int_eq(clock_charge(&s, fri, NULL), 0);
	ck_assert_int_eq(s.to_move, CORE_BLACK);
	assert_deadline(&s, utc(2026, 3, 30, 12, 0, 0));
}
END_TEST

/* The chargeable seconds over [from, to) by brute force: 15-minute
 * steps, each counted when its local weekday (libc's own, by TZ) is
 * Monday to Friday.  Exact for zones whose days start at whole quarter
 * hours. */
static int64_t weekdays_brute(const char *zone, int64_t from, int64_t to)
{
	char *saved = getenv("TZ") != NULL ? strdup(getenv("TZ")) : NULL;
	int64_t t, total = 0;
	struct tm tm;
	time_t tt;

	setenv("TZ", zone, 1);
	tzset();
	for (t = from; t < to; t += 15 * 60) {
		tt = (time_t)t;
		localtime_r(&tt, &tm);
		if (tm.tm_wday != 0 && tm.tm_wday != 6)
			total += (to - t < 15 * 60 ? to - t : 15 * 60);
	}
	if (saved != NULL)
		setenv("TZ", saved, 1);
	else
		unsetenv("TZ");
	tzset();
	free(saved);
	return total;
}

START_TEST(test_weekend_brute_force)
{
	static const struct {
		const char *zone;
		int y, m, d;
	} spans[] = {
		{ "Europe/Berlin", 2026, 3, 16 },
		{ "Europe/Berlin", 2026, 10, 12 },
		{ "America/New_York", 2026, 2, 23 }, /* DST March 8 */
		{ "America/New_York", 2026, 10, 19 }, /* November 1 */
		{ "Asia/Tokyo", 2026, 3, 16 },
		{ "Australia/Sydney", 2026, 3, 30 }, /* April 5 */
	};
	struct clock_state s;
	size_t i;
	int64_t start, end;

	for (i = 0; i < sizeof(spans) / sizeof(spans[0]); i++) {
		start = utc(spans[i].y, spans[i].m, spans[i].d, 7, 45, 0);
		s = game("fischer:8760h+0h", true, spans[i].zone, "", start);
		for (end = start; end <= start + 28 * D; end += 7 * H + 15 * 60)
			ck_assert_msg(clock_elapsed(&s, end) ==
				      weekdays_brute(spans[i].zone, start, end),
				      "%s %lld", spans[i].zone,
				      (long long)end);
	}
}
END_TEST

START_TEST(test_zones)
{
	static const char *const good[] = {
		"Europe/Berlin", "Asia/Tokyo", "America/Argentina/Buenos_Aires",
		"Etc/GMT+5", "UTC", "America/Port-au-Prince",
	};
	static const struct { const char *zone; enum clock_error error; } bad[] = {
		{ "Mars/Olympus_Mons", CLOCK_ERR_ZONE_UNKNOWN },
		{ "europe/berlin", CLOCK_ERR_ZONE_UNKNOWN },
		{ "Europe", CLOCK_ERR_ZONE_UNKNOWN },
		{ "zone.tab", CLOCK_ERR_ZONE_UNKNOWN },
		{ "", CLOCK_ERR_ZONE_SYNTAX },
		{ "/etc/passwd", CLOCK_ERR_ZONE_SYNTAX },
		{ "../../../etc/passwd", CLOCK_ERR_ZONE_SYNTAX },
		{ "Europe/../Europe/Berlin", CLOCK_ERR_ZONE_SYNTAX },
		{ "Europe/./Berlin", CLOCK_ERR_ZONE_SYNTAX },
		{ "Europe//Berlin", CLOCK_ERR_ZONE_SYNTAX },
		{ "Europe/Berlin/", CLOCK_ERR_ZONE_SYNTAX },
		{ "Europe/Ber lin", CLOCK_ERR_ZONE_SYNTAX },
		{ "right/Europe/Berlin", CLOCK_ERR_ZONE_SYNTAX },
		{ "localtime", CLOCK_ERR_ZONE_SYNTAX },
		{ "CET-1CEST,M3.5.0,M10.5.0/3", CLOCK_ERR_ZONE_SYNTAX },
	};
	struct clock_state s = game("days:1", true, "Europe/Berlin", "", 0);
	struct clock_fault f;
	char longname[80];
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		ck_assert_msg(clock_zone_check(good[i], &f) == 0, "%s",
			      good[i]);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_msg(clock_zone_check(bad[i].zone, &f) == -1, "%s",
			      bad[i].zone);
		ck_assert_msg(f.error == bad[i].error, "%s: %s", bad[i].zone,
			      clock_error_name(f.error));
		/* refused by clock_set_zone, the zone kept ("" is UTC) */
		if (bad[i].zone[0] == '\0')
			continue;
		ck_assert_int_eq(clock_set_zone(&s, CORE_WHITE, bad[i].zone, &f),
				 -1);
		ck_assert_int_eq(f.error, bad[i].error);
		ck_assert_str_eq(s.player[CORE_WHITE].zone, "Europe/Berlin");
	}
	memset(longname, 'A', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	ck_assert_int_eq(clock_zone_check(longname, &f), -1);
	ck_assert_int_eq(f.error, CLOCK_ERR_ZONE_SYNTAX);
	ck_assert_int_eq(f.value, 79);
	ck_assert_int_eq(f.max, CLOCK_ZONE_MAX - 1);
	/* "" sets UTC */
	ck_assert_int_eq(clock_set_zone(&s, CORE_WHITE, "", &f), 0);
	ck_assert_str_eq(s.player[CORE_WHITE].zone, "");
}
END_TEST

START_TEST(test_tz_restored)
{
	int64_t fri = utc(2026, 3, 27, 12, 0, 0);
	struct clock_state s = game("days:1", true, "Europe/Berlin", "", fri);
	time_t tt = (time_t)fri;
	struct tm tm;

	setenv("TZ", "Asia/Tokyo", 1);
	tzset();
	assert_deadline(&s, utc(2026, 3, 30, 11, 0, 0));
	ck_assert_str_eq(getenv("TZ"), "Asia/Tokyo");
	localtime_r(&tt, &tm);
	ck_assert_int_eq(tm.tm_hour, 21);
	unsetenv("TZ");
	tzset();
	assert_deadline(&s, utc(2026, 3, 30, 11, 0, 0));
	ck_assert_ptr_null(getenv("TZ"));
}
END_TEST

/* The deadline and the flag agree at every second that matters, over
 * many turns with weekends, zones and pauses. */
START_TEST(test_deadline_agrees_with_flag)
{
	static const char *const zones[] = {
		"", "Europe/Berlin", "Asia/Tokyo", "America/New_York",
		"Australia/Lord_Howe",
	};
	uint64_t seed = 99;
	int i;

	for (i = 0; i < 300; i++) {
		int64_t start, r, from;
		struct clock_state s;
		int64_t dl;

		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		start = utc(2026, 1, 1, 0, 0, 0) +
			(int64_t)((seed >> 20) % (uint64_t)(360 * D));
		s = game("fischer:240h+0h", i % 4 != 0,
			 zones[(seed >> 8) % 5], "", start);
		r = 1 + (int64_t)((seed >> 40) % (uint64_t)(240 * H));
		s.player[CORE_WHITE].remaining = r;
		if (i % 3 == 0) {
			from = start + (int64_t)((seed >> 30) % (5 * D));
			ck_assert_int_eq(clock_pause_add(&s, CORE_WHITE, from,
							 from + 1 +
							 (int64_t)(seed % (9 * D)),
							 NULL), 0);
		}
		dl = clock_deadline(&s);
		assert_deadline(&s, dl);
	}
}
END_TEST

void clock_test_weekends(TCase *tc)
{
	tcase_add_test(tc, test_weekend_berlin_spring);
	tcase_add_test(tc, test_weekend_berlin_autumn);
	tcase_add_test(tc, test_weekend_across_weeks);
	tcase_add_test(tc, test_weekend_zones_without_dst);
	tcase_add_test(tc, test_weekend_each_players_zone);
	tcase_add_test(tc, test_weekend_brute_force);
	tcase_add_test(tc, test_zones);
	tcase_add_test(tc, test_tz_restored);
	tcase_add_test(tc, test_deadline_agrees_with_flag);
}
