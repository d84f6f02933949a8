/* clock_zone.c -- time zones, local days, weekends off and the time
 * chargeable to a player's turn across them and the player's pauses,
 * and the instant of a daily event at a local time; see clock.h (clock_zone_check) and clock_private.h. */
#include <config.h> /* autoconf's: _GNU_SOURCE */

#include "server/clock_private.h"

#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/xstr.h"

/* --- Time zones --- */

/* The folder of the tz database: glibc's own choice ($TZDIR if absolute,
 * else the standard place). */
static const char *zone_dir(void)
{
	const char *dir = getenv("TZDIR");

	return dir != NULL && dir[0] == '/' ? dir : "/usr/share/zoneinfo";
}

static bool zone_name_ok(const char *zone)
{
	const char *p;
	bool part_start = true;

	if (zone[0] == '\0' || strlen(zone) >= CLOCK_ZONE_MAX)
		return false;
	/* time_t counts no leap seconds: a "right/" zone would put every
	 * weekend off by half a minute.  "localtime" is this machine's. */
	if (strncmp(zone, "right/", 6) == 0 || strcmp(zone, "localtime") == 0)
		return false;
	for (p = zone; *p != '\0'; p++) {
		if (*p == '/') {
			if (part_start) /* leading '/' or "//" */
				return false;
			part_start = true;
			continue;
		}
		/* ".", ".." and hidden files are no zones */
		if (part_start && *p == '.')
			return false;
		part_start = false;
		if (!isalnum((unsigned char)*p) && *p != '_' && *p != '-' &&
		    *p != '+' && *p != '.')
			return false;
	}
	return !part_start; /* no trailing '/' */
}

int clock_zone_check(const char *zone, struct clock_fault *fault_r)
{
	char path[512], magic[4];
	struct stat st;
	int fd, n, ret = -1;

	fault_clear(fault_r);
	if (zone == NULL || !zone_name_ok(zone))
		return fault(fault_r, CLOCK_ERR_ZONE_SYNTAX,
			     zone != NULL ? (int64_t)strlen(zone) : 0, 0,
			     CLOCK_ZONE_MAX - 1);
	n = snprintf(path, sizeof(path), "%s/%s", zone_dir(), zone);
	if (n < 0 || (size_t)n >= sizeof(path))
		return fault(fault_r, CLOCK_ERR_ZONE_UNKNOWN, 0, 0, 0);
	/* glibc falls back to UTC for a TZ it cannot read, silently: only a
	 * readable TZif file is a zone ("zone.tab" and folders are not). */
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fault(fault_r, CLOCK_ERR_ZONE_UNKNOWN, 0, 0, 0);
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    read(fd, magic, sizeof(magic)) == (ssize_t)sizeof(magic) &&
	    memcmp(magic, "TZif", 4) == 0)
		ret = 0;
	close(fd);
	if (ret < 0)
		return fault(fault_r, CLOCK_ERR_ZONE_UNKNOWN, 0, 0, 0);
	return 0;
}

static void __attribute__((noreturn)) clock_oom(void)
{
	/* setenv fails only for want of memory: util/xalloc.h's policy */
	fputs("ashes: out of memory\n", stderr);
	abort();
}

static void zone_enter(struct zone_scope *scope, const char *zone)
{
	char tz[600];
	int n;

	scope->active = false;
	scope->saved = NULL;
	if (zone[0] == '\0')
		return;
	n = snprintf(tz, sizeof(tz), ":%s/%s", zone_dir(), zone);
	if (n < 0 || (size_t)n >= sizeof(tz))
		return; /* longer than clock_zone_check lets through */
	scope->saved = xstrdup(getenv("TZ"));
	if (setenv("TZ", tz, 1) < 0)
		clock_oom();
	tzset();
	scope->active = true;
}

static void zone_leave(struct zone_scope *scope)
{
	if (!scope->active)
		return;
	if (scope->saved != NULL) {
		if (setenv("TZ", scope->saved, 1) < 0)
			clock_oom();
	} else {
		unsetenv("TZ");
	}
	tzset();
	free(scope->saved);
	scope->saved = NULL;
	scope->active = false;
}

/* Floor division: days and weeks before 1970 too. */
static int64_t floor_div(int64_t a, int64_t b)
{
	return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
}

/* Days since 1970-01-01 of a civil date (H. Hinnant's algorithm). */
static int64_t days_from_civil(int64_t y, int64_t m, int64_t d)
{
	int64_t era, yoe, doy, doe;

	y -= m <= 2;
	era = floor_div(y, 400);
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

/* The local date of t as a day number (days since 1970-01-01), in the
 * zone entered (or UTC). */
static int64_t local_day(const struct zone_scope *scope, int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!scope->active)
		return floor_div(t, CLOCK_DAY);
	if (localtime_r(&tt, &tm) == NULL)
		return floor_div(t, CLOCK_DAY);
	return days_from_civil(tm.tm_year + 1900LL, tm.tm_mon + 1LL,
			       tm.tm_mday);
}

/* The first second of local day number day: the first t whose local
 * date is day or later.  By bisection over local_day rather than
 * mktime, so a day that starts at 01:00 (DST beginning at midnight) or
 * twice (ending at midnight) starts at its first moment. */
static int64_t day_start(const struct zone_scope *scope, int64_t day)
{
	/* UTC offsets lie within a day either way */
	int64_t lo = day * CLOCK_DAY - CLOCK_DAY - 1;
	int64_t hi = day * CLOCK_DAY + CLOCK_DAY;

	if (!scope->active)
		return day * CLOCK_DAY;
	/* invariant: local_day(lo) < day <= local_day(hi) */
	while (hi - lo > 1) {
		int64_t mid = lo + (hi - lo) / 2;

		if (local_day(scope, mid) >= day)
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

/* The weekend (local Saturday 00:00 to Monday 00:00) that contains t,
 * or else the next one. */
static void weekend_at(const struct zone_scope *scope, int64_t t,
		       int64_t *from_r, int64_t *to_r)
{
	int64_t day = local_day(scope, t);
	/* 1970-01-01 was a Thursday: weekday 0 = Monday ... 5 = Saturday */
	int64_t weekday = day + 3 - floor_div(day + 3, 7) * 7;
	int64_t saturday = day + 5 - weekday; /* back 0 or 1 day at weekends */

	*from_r = day_start(scope, saturday);
	*to_r = day_start(scope, saturday + 2);
}

void clock_zone_view_enter(struct turn_view *v, const struct clock_state *s,
			   enum core_color side)
{
	v->player = &s->player[side];
	v->weekends_off = s->control.weekends_off;
	v->scope.active = false;
	v->scope.saved = NULL;
	if (v->weekends_off)
		zone_enter(&v->scope, v->player->zone);
}

void clock_zone_view_leave(struct turn_view *v)
{
	zone_leave(&v->scope);
}

/* Weekends go up to the year 9999 at most: beyond, localtime gives up
 * and nobody waits that long. */
#define CLOCK_WEEKEND_LIMIT ((int64_t)253402300799)

/* The first stretch not charged to the player that ends after t: the
 * weekend or pause that starts first among those.  Its start may be <= t
 * (t inside it).  Overlapping stretches need no merging: the walks below
 * step to the end of one and find the next from there.  false if there
 * is none. */
static bool next_block(const struct turn_view *v, int64_t t, int64_t *from_r,
		       int64_t *to_r)
{
	const struct clock_player *p = v->player;
	int64_t from = CLOCK_NEVER, to = CLOCK_NEVER, wf, wt;
	bool found = false;
	size_t i;

	if (v->weekends_off && t < CLOCK_WEEKEND_LIMIT) {
		weekend_at(&v->scope, t, &wf, &wt);
		from = wf;
		to = wt;
		found = true;
	}
	for (i = 0; i < p->npauses; i++) {
		const struct clock_interval *in = &p->pauses[i];

		if (in->to > t && (!found || in->from < from)) {
			from = in->from;
			to = in->to;
			found = true;
		}
	}
	if (!found)
		return false;
	*from_r = from;
	*to_r = to;
	return true;
}

/* Chargeable seconds of the viewed player over [from, to). */
int64_t clock_zone_chargeable(const struct turn_view *v, int64_t from,
			      int64_t to)
{
	int64_t t = from, total = 0, bf, bt;

	while (t < to) {
		if (!next_block(v, t, &bf, &bt)) {
			total += to - t;
			break;
		}
		if (bf > t)
			total += (bf < to ? bf : to) - t;
		t = bt;
	}
	return total;
}

/* The first moment at which the viewed player, from start on, has been
 * charged need seconds (start itself if need <= 0). */
int64_t clock_zone_charged_by(const struct turn_view *v, int64_t start,
			      int64_t need)
{
	int64_t t = start, bf, bt;

	while (need > 0) {
		if (!next_block(v, t, &bf, &bt))
			break;
		if (bf > t) {
			if (need <= bf - t)
				return t + need;
			need -= bf - t;
		}
		if (bt == CLOCK_NEVER)
			return CLOCK_NEVER;
		t = bt;
	}
	if (need <= 0)
		return t;
	return t > CLOCK_NEVER - need ? CLOCK_NEVER : t + need;
}

/* --- dates in a player's zone (what mails show, what `vacation from`
 * means) --- */

int clock_format_local(int64_t t, const char *zone, char *buf, size_t size)
{
	struct tm tm;
	char abbr[16];
	int n;

	if (size == 0)
		return -1;
	buf[0] = '\0';
	if (clock_local_parts(t, zone, &tm, abbr, sizeof(abbr)) < 0)
		return -1;
	n = snprintf(buf, size, "%04d-%02d-%02d %02d:%02d %s",
		     tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		     tm.tm_min, abbr);
	return n > 0 && (size_t)n < size ? 0 : -1;
}

int clock_local_parts(int64_t t, const char *zone, struct tm *tm_r,
		      char *abbr, size_t abbr_size)
{
	struct zone_scope scope;
	time_t tt = (time_t)t;
	size_t n = 0;

	if (abbr_size == 0)
		return -1;
	abbr[0] = '\0';
	if (zone == NULL || clock_zone_check(zone, NULL) < 0)
		zone = "";
	zone_enter(&scope, zone);
	if (scope.active) {
		if (localtime_r(&tt, tm_r) != NULL)
			n = strftime(abbr, abbr_size, "%Z", tm_r);
	} else if (gmtime_r(&tt, tm_r) != NULL) {
		n = (size_t)snprintf(abbr, abbr_size, "UTC");
	}
	zone_leave(&scope);
	return n > 0 && n < abbr_size ? 0 : -1;
}

int clock_local_day_start(const char *zone, int year, int month, int day,
			  int64_t *t_r)
{
	struct zone_scope scope;
	int64_t d;

	if (year < 1970 || year > 9999 || month < 1 || month > 12 ||
	    day < 1 || day > 31)
		return -1;
	d = days_from_civil(year, month, day);
	/* 2027-02-30 is no date: it would be read as March 2nd */
	{
		int64_t first_next = month == 12 ?
			days_from_civil(year + 1, 1, 1) :
			days_from_civil(year, month + 1, 1);
		if (d >= first_next)
			return -1;
	}
	if (zone == NULL || clock_zone_check(zone, NULL) < 0)
		zone = "";
	zone_enter(&scope, zone);
	*t_r = day_start(&scope, d);
	zone_leave(&scope);
	return 0;
}

int64_t clock_local_day_of(const char *zone, int64_t t)
{
	struct zone_scope scope;
	int64_t d;

	if (zone == NULL || clock_zone_check(zone, NULL) < 0)
		zone = "";
	zone_enter(&scope, zone);
	d = local_day(&scope, t);
	zone_leave(&scope);
	return d;
}

/* --- a daily event at a local time (the daily summary) --- */

/* Seconds of local time t is past the start of local day number day (a
 * later day counts whole days on), in the zone entered (or UTC). */
static int64_t local_past(const struct zone_scope *scope, int64_t day,
			  int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!scope->active || localtime_r(&tt, &tm) == NULL)
		return t - day * CLOCK_DAY;
	return (local_day(scope, t) - day) * CLOCK_DAY + tm.tm_hour * 3600 +
	       tm.tm_min * 60 + tm.tm_sec;
}

static int64_t daily_at(const struct zone_scope *scope, int64_t day,
			int minute)
{
	int64_t want = (int64_t)minute * 60, t = day_start(scope, day), lo = t;

	/* Step by what the local clock still lacks: each step lands on
	 * the time unless an offset change lies between; then the first
	 * instant that reads the time or later lies in the step, where
	 * the clock only goes forward (a step back in autumn lands short
	 * and steps again).  Zones change their offset a few times a day
	 * at most. */
	for (int i = 0; i < 8; i++) {
		int64_t past = local_past(scope, day, t);

		if (past >= want) {
			if (i == 0)
				return t;
			while (t - lo > 1) {
				int64_t mid = lo + (t - lo) / 2;

				if (local_past(scope, day, mid) >= want)
					t = mid;
				else
					lo = mid;
			}
			return t;
		}
		lo = t;
		t += want - past;
	}
	return t;
}

int64_t clock_daily_at(const char *zone, int64_t day, int minute)
{
	struct zone_scope scope;
	int64_t t;

	if (zone == NULL || clock_zone_check(zone, NULL) < 0)
		zone = "";
	zone_enter(&scope, zone);
	t = daily_at(&scope, day, minute);
	zone_leave(&scope);
	return t;
}

int64_t clock_daily_next(const char *zone, int minute, int64_t from,
			 int64_t last)
{
	struct zone_scope scope;
	int64_t day, t;

	if (zone == NULL || clock_zone_check(zone, NULL) < 0)
		zone = "";
	zone_enter(&scope, zone);
	day = local_day(&scope, from);
	if (last != 0 && local_day(&scope, last) + 1 > day)
		day = local_day(&scope, last) + 1;
	t = daily_at(&scope, day, minute);
	if (t < from)
		t = daily_at(&scope, day + 1, minute);
	zone_leave(&scope);
	return t;
}
