/* test_config_clock.c -- the clocks' keys of ashesd.conf: [game] clock
 * and weekends, the [clock] section, and the deprecated [game] move_time
 * read as clock = days:N: good values as loaded and dumped, bad ones with
 * their messages. */
#include <config.h>

#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/club_config.h"
#include "config/log.h"
#include "util/buf.h"

#include "config_test.h"
#include "daemon_test.h"
#include "../check_run.h"

/* Load text, which must be refused with message among the errors. */
static void refused(const char *text, const char *message)
{
	struct config cfg;
	char *errors;

	ck_assert_msg(load_with(text, &cfg, &errors) < 0, "accepted: %s", text);
	ck_assert_msg(strstr(errors, message) != NULL,
		      "for %s expected \"%s\" in:\n%s", text, message, errors);
	free(errors);
}

/* "[section]\nkey = value\n" after load_with's config, which must load:
 * into *cfg, its dump into *dump. */
static void key_loads(const char *section, const char *key,
		      const char *value, struct config *cfg, struct buf *dump)
{
	struct buf text = BUF_INIT;
	char *errors;

	buf_printf(&text, "[%s]\n%s = %s\n", section, key, value);
	ck_assert_msg(load_with(buf_str(&text), cfg, &errors) == 0, "%s",
		      errors);
	free(errors);
	buf_free(&text);
	config_dump(cfg, dump);
}

/* "[section]\nkey = value\n", refused on its line (7) for `why` and
 * then `more`. */
static void key_refused(const char *section, const char *key,
			const char *value, const char *why, const char *more)
{
	struct buf text = BUF_INIT, message = BUF_INIT;

	buf_printf(&text, "[%s]\n%s = %s\n", section, key, value);
	buf_printf(&message, "t.conf:7: [%s] %s: bad value \"%s\": %s%s",
		   section, key, value, why, more);
	refused(buf_str(&text), buf_str(&message));
	buf_free(&text);
	buf_free(&message);
}

START_TEST(test_clock_good)
{
	static const struct {
		const char *value, *canonical;
	} cases[] = {
		{ "none", "none" },
		{ "NONE", "none" },
		{ "", "none" },
		{ "days:1", "days:1" },
		{ "Days:14", "days:14" },
		{ "fischer:240h+36h", "fischer:240h+36h" },
		{ "fischer:1h+0h", "fischer:1h+0h" },
		{ "FISCHER:240h+36h/480h", "fischer:240h+36h/480h" },
		{ "fischer:8760h+8760h/8760h", "fischer:8760h+8760h/8760h" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct buf dump = BUF_INIT, want = BUF_INIT;
		struct config cfg;

		key_loads("game", "clock", cases[i].value, &cfg, &dump);
		ck_assert_str_eq(cfg.game.clock, cases[i].canonical);
		buf_printf(&want, "\n[game]\n");
		ck_assert_ptr_nonnull(strstr(buf_str(&dump), buf_str(&want)));
		buf_reset(&want);
		buf_printf(&want, "\nclock = %s\nweekends = yes\n",
			   cases[i].canonical);
		ck_assert_msg(strstr(buf_str(&dump), buf_str(&want)) != NULL,
			      "%s", buf_str(&dump));
		config_free(&cfg);
		buf_free(&dump);
		buf_free(&want);
	}
}
END_TEST

START_TEST(test_clock_bad)
{
	static const char forms[] = "; expected none, days:N (N 1..14), "
		"fischer:Ih+Jh or fischer:Ih+Jh/Kh (I, J and K whole hours, "
		"such as fischer:240h+36h/240h)";
	static const struct {
		const char *value, *why;
	} cases[] = {
		{ "blitz", "unknown time control" },
		{ "days", "malformed" },
		{ "days:three", "malformed" },
		{ "days:0", "0 days is out of range (1..14)" },
		{ "days:15", "15 days is out of range (1..14)" },
		{ "fischer:10d+1d", "Fischer times are whole hours, such as 240h" },
		{ "fischer:240+36", "Fischer times are whole hours, such as 240h" },
		{ "fischer:0h+1h", "an initial time of 0h is out of range (1h..8760h)" },
		{ "fischer:8761h+1h", "an initial time of 8761h is out of range (1h..8760h)" },
		{ "fischer:240h+8761h", "an increment of 8761h is out of range (0h..8760h)" },
		{ "fischer:240h+36h/100h", "a cap of 100h is out of range (the initial time 240h..8760h)" },
		{ "fischer:240h+36h/", "malformed" },
		{ "none:1", "malformed" },
		{ "days:000000000000000000000000000003", "too long (at most 31 characters)" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		key_refused("game", "clock", cases[i].value, cases[i].why, forms);
	}
	refused("[game]\nweekends = sometimes\n",
		"t.conf:7: [game] weekends: bad value \"sometimes\"");
}
END_TEST

START_TEST(test_reminders)
{
	static const struct {
		const char *value;
		unsigned count, hours[CONFIG_REMINDERS_MAX];
		const char *dumped;
	} good[] = {
		{ "none", 0, { 0 }, "none" },
		{ "None", 0, { 0 }, "none" },
		{ "", 0, { 0 }, "none" },
		{ "48h", 1, { 48 }, "48h" },
		{ "  12h ,48h  ", 2, { 48, 12 }, "48h, 12h" },
		{ "1h,8760h", 2, { 8760, 1 }, "8760h, 1h" },
		{ "2d, 12h, 1h, 6h", 4, { 48, 12, 6, 1 }, "48h, 12h, 6h, 1h" },
		{ "1d12h, 3600", 2, { 36, 1 }, "36h, 1h" },
	};
	static const struct {
		const char *value, *why;
	} bad[] = {
		{ "5", "\"5\" is not a whole number of hours from 1h to 8760h" },
		{ "48h, 90m", "\"90m\" is not a whole number of hours" },
		{ "0h", "\"0h\" is not a whole number of hours from 1h to 8760h" },
		{ "8761h", "\"8761h\" is not a whole number of hours from 1h to 8760h" },
		{ "48h, 2d", "48h is given twice" },
		{ "1h,2h,3h,4h,5h", "more than 4 durations" },
		{ "48h,,12h", "expected durations separated by commas, such as 48h, 12h, or none" },
		{ "48h,", "expected durations separated by commas" },
		{ "soon", "\"soon\": expected a number with a unit" },
	};

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		struct buf dump = BUF_INIT, want = BUF_INIT;
		struct config cfg;

		key_loads("clock", "reminders", good[i].value, &cfg, &dump);
		ck_assert_uint_eq(cfg.clock.reminders.count, good[i].count);
		for (unsigned k = 0; k < good[i].count; k++)
			ck_assert_uint_eq(cfg.clock.reminders.hours[k],
					  good[i].hours[k]);
		buf_printf(&want, "\n[clock]\nreminders = %s\n", good[i].dumped);
		ck_assert_msg(strstr(buf_str(&dump), buf_str(&want)) != NULL,
			      "%s", buf_str(&dump));
		config_free(&cfg);
		buf_free(&dump);
		buf_free(&want);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		key_refused("clock", "reminders", bad[i].value, bad[i].why, "");
	}
}
END_TEST

START_TEST(test_clock_section_bad)
{
	refused("[clock]\ntimeout_claim = sometimes\n",
		"t.conf:7: [clock] timeout_claim: \"sometimes\" is not one of: "
		"auto manual");
	refused("[clock]\nauto_vacation = maybe\n",
		"t.conf:7: [clock] auto_vacation: bad value \"maybe\"");
	refused("[clock]\nvacation_start = 366\n",
		"t.conf:7: [clock] vacation_start: 366 is out of range (0..365)");
	refused("[clock]\nvacation_earn = -1\n",
		"t.conf:7: [clock] vacation_earn: bad value \"-1\": expected a "
		"whole number");
	refused("[clock]\nvacation_cap = 400\n",
		"t.conf:7: [clock] vacation_cap: 400 is out of range (0..365)");
	refused("[clock]\nvacation_start = 20\nvacation_cap = 10\n",
		"t.conf:7: [clock] vacation_start (20 days) is more than "
		"vacation_cap (10)");
	/* Only the cap written: the line is the cap's. */
	refused("[clock]\nvacation_cap = 5\n",
		"t.conf:7: [clock] vacation_start (10 days) is more than "
		"vacation_cap (5)");
	refused("[clock]\noutage_grace = 31d\n",
		"t.conf:7: [clock] outage_grace: 31d is out of range (0..30d)");
	refused("[clock]\noutage_grace = later\n",
		"t.conf:7: [clock] outage_grace: bad value \"later\"");
	refused("[clock]\nremind = 48h\n", "t.conf:7: unknown key \"remind\" in [clock]");
}
END_TEST

/* The logger's stderr output goes to a file in tmpdir between
 * log_capture_begin() and log_capture_end(), which returns it. */
static int log_capture_fd = -1;

static void log_capture_begin(void)
{
	char path[400];

	snprintf(path, sizeof(path), "%s/log", tmpdir);
	log_capture_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ck_assert_int_ge(log_capture_fd, 0);
	log_set_fd(log_capture_fd);
}

static char *log_capture_end(void)
{
	char path[400];

	log_set_fd(-1);
	close(log_capture_fd);
	snprintf(path, sizeof(path), "%s/log", tmpdir);
	return daemon_test_read(path);
}

START_TEST(test_move_time_alias)
{
	static const struct {
		const char *value, *clock, *written;
	} good[] = {
		{ "3d", "days:3", "3d" },
		{ "1d", "days:1", "1d" },
		{ "2w", "days:14", "14d" },
		{ "72h", "days:3", "3d" },
	};
	struct buf dump = BUF_INIT;
	struct config cfg, again;
	char *errors, *log, *game;
	int r;

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		struct buf text = BUF_INIT, want = BUF_INIT;

		buf_printf(&text, "[game]\nmove_time = %s\n", good[i].value);
		log_capture_begin();
		r = load_with(buf_str(&text), &cfg, &errors);
		log = log_capture_end();
		ck_assert_msg(r == 0, "%s", errors);
		free(errors);
		ck_assert_str_eq(cfg.game.clock, good[i].clock);
		ck_assert_uint_eq(cfg.game.move_time_ms, 0);
		buf_printf(&want, "t.conf:7: [game] move_time is deprecated: "
			   "move_time = %s is read as clock = %s; write that "
			   "instead\n", good[i].written, good[i].clock);
		ck_assert_msg(strstr(log, buf_str(&want)) != NULL, "%s", log);
		ck_assert_ptr_nonnull(strstr(log, "warning"));
		free(log);
		buf_free(&want);
		buf_free(&text);
		if (i == 0)
			config_dump(&cfg, &dump);
		config_free(&cfg);
	}
	/* The dump says clock, which loads back without a word. */
	ck_assert_ptr_nonnull(strstr(buf_str(&dump), "\nclock = days:3\n"));
	ck_assert_ptr_nonnull(strstr(buf_str(&dump), "\nmove_time = 0\n"));
	game = strstr(buf_str(&dump), "\n[game]\n");
	ck_assert_ptr_nonnull(game);
	*strstr(game + 1, "\n[") = '\0';
	log_capture_begin();
	r = load_with(game + 1, &again, &errors);
	log = log_capture_end();
	ck_assert_msg(r == 0, "%s", errors);
	free(errors);
	ck_assert_str_eq(again.game.clock, "days:3");
	ck_assert_str_eq(log, "");
	free(log);
	config_free(&again);
	buf_free(&dump);

	/* 0 is no setting, and says nothing. */
	log_capture_begin();
	r = load_with("[game]\nmove_time = 0\n", &cfg, &errors);
	log = log_capture_end();
	ck_assert_int_eq(r, 0);
	free(errors);
	ck_assert_str_eq(cfg.game.clock, "none");
	ck_assert_str_eq(log, "");
	free(log);
	config_free(&cfg);

	/* Anything else has no clock of that shape. */
	refused("[game]\nmove_time = 90m\n",
		"t.conf:7: [game] move_time = 1h30m is no longer read: it is "
		"deprecated, and only 1 to 14 whole days stand for a clock "
		"(days:N); set [game] clock instead");
	refused("[game]\nmove_time = 15d\n",
		"t.conf:7: [game] move_time = 15d is no longer read");
	refused("[game]\nmove_time = 36h\n",
		"t.conf:7: [game] move_time = 1d12h is no longer read");
	/* Both: two answers to one question. */
	refused("[game]\nclock = days:2\nmove_time = 3d\n",
		"t.conf:8: [game] move_time and [game] clock are both set "
		"(clock on line 7): keep clock (move_time is deprecated)");
	refused("[game]\nmove_time = 3d\nclock = none\n",
		"t.conf:7: [game] move_time and [game] clock are both set "
		"(clock on line 8)");
}
END_TEST

TEST_MAIN("daemon_config_clock", "clock", daemon_test_setup,
	  daemon_test_teardown, 0, test_clock_good, test_clock_bad,
	  test_reminders, test_clock_section_bad, test_move_time_alias)
