/* test_config_bot.c -- the [bot] section of ashesd.conf: its defaults,
 * the levels read into a set, and bad values refused at their FILE:LINE
 * (config_bot.c, config_keys.c). */
#include <config.h>

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/club_config.h"

#include "config_test.h"
#include "../check_run.h"

/* A config reading no mailbox, with extra lines appended. */
static const char *with(const char *extra)
{
	static char text[1024];

	snprintf(text, sizeof(text),
		 "[source]\ntype = maildir\nmaildir = /tmp\n"   /* 1-3 */
		 "[smtp]\nfrom = ashes@example.org\n"          /* 4-5 */
		 "%s", extra);                                 /* 6- */
	return text;
}

START_TEST(test_bot_defaults)
{
	struct config cfg;
	char *errors = NULL;

	ck_assert_msg(load(with(""), &cfg, &errors) == 0, "%s", errors);
	free(errors);
	ck_assert(!cfg.bot.enabled);
	ck_assert_str_eq(cfg.bot.name, "Ashes bot");
	ck_assert_uint_eq(cfg.bot.levels, 0x3e);
	ck_assert_uint_eq(cfg.bot.think_ms, 2000);
	ck_assert_uint_eq(cfg.bot.delay_ms, 300000);
	ck_assert_uint_eq(cfg.bot.max_games, 10);
	ck_assert(!cfg.bot.rated);
	config_free(&cfg);
}
END_TEST

START_TEST(test_bot_values)
{
	struct config cfg;
	char *errors = NULL;

	ck_assert_msg(load(with("[bot]\nenabled = yes\nname = Robo 2\n"
				"levels = 1, 3-4\nthink_time = 500ms\n"
				"delay = 0\nmax_games = 3\nrated = yes\n"),
			   &cfg, &errors) == 0, "%s", errors);
	free(errors);
	ck_assert(cfg.bot.enabled);
	ck_assert_str_eq(cfg.bot.name, "Robo 2");
	ck_assert_uint_eq(cfg.bot.levels, (1u << 1) | (1u << 3) | (1u << 4));
	ck_assert_uint_eq(cfg.bot.think_ms, 500);
	ck_assert_uint_eq(cfg.bot.delay_ms, 0);
	ck_assert_uint_eq(cfg.bot.max_games, 3);
	ck_assert(cfg.bot.rated);
	config_free(&cfg);
}
END_TEST

START_TEST(test_bot_refused)
{
	static const struct {
		const char *extra, *message;
	} bad[] = {
		{ "[bot]\nlevels = 0-3\n",
		  "t.conf:7: [bot] levels: \"0-3\" is not a set of levels 1 "
		  "to 5, such as 1-5 or 1,2,3" },
		{ "[bot]\nlevels = 4-2\n",
		  "t.conf:7: [bot] levels: \"4-2\" is not a set of levels 1 "
		  "to 5, such as 1-5 or 1,2,3" },
		{ "[bot]\nlevels = 1,6\n",
		  "t.conf:7: [bot] levels: \"1,6\" is not a set of levels 1 "
		  "to 5, such as 1-5 or 1,2,3" },
		{ "[bot]\nname = 2bot\n",
		  "t.conf:7: [bot] name: 1 to 24 letters, digits, blanks, '-' "
		  "or '_', starting with a letter" },
		{ "[bot]\nname = a<b>\n",
		  "t.conf:7: [bot] name: 1 to 24 letters, digits, blanks, '-' "
		  "or '_', starting with a letter" },
		{ "[bot]\nmax_games = 0\n",
		  "t.conf:7: [bot] max_games: 0 is out of range (1..100000)" },
		{ "[bot]\nthink_time = 50ms\n", "t.conf:7: [bot] think_time" },
		{ "[bot]\ndelay = 8d\n", "t.conf:7: [bot] delay" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct config cfg;
		char *errors = NULL;

		ck_assert_int_eq(load(with(bad[i].extra), &cfg, &errors), -1);
		ck_assert_msg(strncmp(errors, bad[i].message,
				      strlen(bad[i].message)) == 0,
			      "%s: got %s", bad[i].extra, errors);
		free(errors);
		config_free(&cfg);
	}
}
END_TEST

TEST_MAIN("config_bot", "bot", NULL, NULL, 0, test_bot_defaults,
	  test_bot_values, test_bot_refused)
