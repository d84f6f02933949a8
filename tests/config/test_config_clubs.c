/* test_config_clubs.c -- the club sections of ashesd.conf: [ladder NAME]
 * and [league NAME] (every key, the defaults, [game]'s values taken,
 * several of each), [ratings]; every refusal with its FILE:LINE message;
 * the dump loading back; the man page and the example documenting every
 * key. */
#include <config.h>

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/club_config.h"
#include "util/buf.h"

#include "config_test.h"
#include "daemon_test.h"
#include "../check_run.h"

#define DAY_MS 86400000ull
#define HOUR_MS 3600000ull
#define NOT_A_NAME " is not a player name (2 to 24 letters, digits, '-' " \
	"or '_', starting with a letter, and no command word)"

static void loaded(const char *text, struct config *cfg)
{
	char *errors;

	ck_assert_msg(load_with(text, cfg, &errors) == 0, "%s\nin:\n%s",
		      errors, text);
	free(errors);
}

/* text must be refused with exactly the messages given (each a whole
 * line, in any order), and nothing else. */
static void refused_exactly(const char *text, const char *const *messages,
			    size_t n)
{
	struct config cfg;
	char *errors;
	size_t lines = 0;

	ck_assert_msg(load_with(text, &cfg, &errors) < 0, "accepted: %s", text);
	for (size_t i = 0; i < n; i++) {
		struct buf want = BUF_INIT;

		buf_printf(&want, "%s\n", messages[i]);
		ck_assert_msg(strstr(errors, buf_str(&want)) != NULL,
			      "for:\n%sexpected \"%s\" in:\n%s", text,
			      messages[i], errors);
		buf_free(&want);
	}
	for (const char *p = errors; *p != '\0'; p++)
		lines += *p == '\n';
	ck_assert_msg(lines == n, "for:\n%sexpected %zu errors, got:\n%s", text,
		      n, errors);
	/* Nothing of a refused file is left. */
	ck_assert_ptr_null(cfg.ladders);
	ck_assert_uint_eq(cfg.nladders, 0);
	ck_assert_ptr_null(cfg.leagues);
	free(errors);
}

static void refused(const char *text, const char *message)
{
	refused_exactly(text, &message, 1);
}

START_TEST(test_ladder_every_key)
{
	struct config cfg;
	const struct config_ladder *l;

	loaded("[ladder main]\n"                       /* 6 */
	       "members = alice, Bob_2, carol-x\n"
	       "open = yes\n"
	       "size = 7\n"
	       "swap = yes\n"                            /* 10 */
	       "tax = lost\n"
	       "draw_offers = no\n"
	       "clock = Fischer:240h+36h/240h\n"
	       "weekends = off\n"
	       "rated = no\n"                            /* 15 */
	       "challenge_range = 10%\n"
	       "max_out = 5\n"
	       "max_in = 4\n"
	       "rematch_wait = 0\n"
	       "accept_within = 36h\n"                   /* 20 */
	       "time_loss_drop = 0\n"
	       "absence_withdraw = 0\n"
	       "standings_mail = no\n", &cfg);
	ck_assert_uint_eq(cfg.nladders, 1);
	ck_assert_uint_eq(cfg.nleagues, 0);
	l = &cfg.ladders[0];
	ck_assert_str_eq(l->club.name, "main");
	ck_assert_str_eq(l->club.file, "t.conf");
	ck_assert_uint_eq(l->club.line, 6);
	ck_assert_uint_eq(l->club.members.count, 3);
	ck_assert_str_eq(l->club.members.names[0], "alice");
	ck_assert_str_eq(l->club.members.names[1], "Bob_2");
	ck_assert_str_eq(l->club.members.names[2], "carol-x");
	ck_assert(l->club.open);
	ck_assert_int_eq(l->club.variant.size, 7);
	ck_assert(l->club.variant.swap);
	ck_assert_int_eq(l->club.variant.tax_rule, CORE_TAX_LOST);
	ck_assert(!l->club.variant.draw_offers);
	ck_assert_str_eq(l->club.clock, "fischer:240h+36h/240h");
	ck_assert(!l->club.weekends);
	ck_assert(!l->club.rated);
	ck_assert_uint_eq(l->challenge_range.n, 10);
	ck_assert(l->challenge_range.percent);
	ck_assert_uint_eq(l->max_out, 5);
	ck_assert_uint_eq(l->max_in, 4);
	ck_assert_uint_eq(l->rematch_wait_ms, 0);
	ck_assert_uint_eq(l->accept_within_ms, 36 * HOUR_MS);
	ck_assert_uint_eq(l->time_loss_drop, 0);
	ck_assert_uint_eq(l->absence_withdraw_ms, 0);
	ck_assert(!l->standings_mail);
	/* [game] itself is untouched */
	ck_assert_int_eq(cfg.game.variant.size, 5);
	ck_assert_str_eq(cfg.game.clock, "none");
	ck_assert(config_ladder_find(&cfg, "main") == l);
	ck_assert_ptr_null(config_ladder_find(&cfg, "Main"));
	ck_assert_ptr_null(config_league_find(&cfg, "main"));
	config_free(&cfg);
	ck_assert_ptr_null(cfg.ladders);
	ck_assert_uint_eq(cfg.nladders, 0);
}
END_TEST

START_TEST(test_league_every_key)
{
	struct config cfg;
	const struct config_league *g;

	loaded("[league spring]\n"                     /* 6 */
	       "members = a1, b2, c3, d4\n"
	       "open = no\n"
	       "group_size = 4\n"
	       "season_start = 2027-03-01\n"             /* 10 */
	       "season_length = 8w\n"
	       "promote = 2\n"
	       "relegate = 1\n"
	       "size = 9\n"
	       "swap = yes\n"                            /* 15 */
	       "tax = lost\n"
	       "draw_offers = no\n"
	       "clock = days:5\n"
	       "weekends = off\n"
	       "rated = no\n", &cfg);
	ck_assert_uint_eq(cfg.nleagues, 1);
	g = &cfg.leagues[0];
	ck_assert_str_eq(g->club.name, "spring");
	ck_assert_uint_eq(g->club.line, 6);
	ck_assert_uint_eq(g->club.members.count, 4);
	ck_assert_str_eq(g->club.members.names[3], "d4");
	ck_assert(!g->club.open);
	ck_assert_uint_eq(g->group_size, 4);
	/* 2027-03-01T00:00:00Z */
	ck_assert_int_eq(g->season_start, 1803859200);
	ck_assert_uint_eq(g->season_length_ms, 56 * DAY_MS);
	ck_assert_uint_eq(g->promote, 2);
	ck_assert_uint_eq(g->relegate, 1);
	ck_assert_int_eq(g->club.variant.size, 9);
	ck_assert(g->club.variant.swap);
	ck_assert_int_eq(g->club.variant.tax_rule, CORE_TAX_LOST);
	ck_assert(!g->club.variant.draw_offers);
	ck_assert_str_eq(g->club.clock, "days:5");
	ck_assert(!g->club.weekends);
	ck_assert(!g->club.rated);
	ck_assert(config_league_find(&cfg, "spring") == g);
	ck_assert_ptr_null(config_ladder_find(&cfg, "spring"));
	config_free(&cfg);
	ck_assert_ptr_null(cfg.leagues);
}
END_TEST

START_TEST(test_defaults)
{
	struct config cfg;
	const struct config_ladder *l;
	const struct config_league *g;

	/* [game] after the sections still gives them its values. */
	loaded("[ladder plain]\nmembers = ann, ben\n"
	       "[ladder sized]\nopen = yes\nsize = 9\nclock = none\n"
	       "[league open]\nopen = yes\nseason_start = 2026-12-31\n"
	       "[game]\nsize = 7\nswap = yes\ntax = lost\ndraw_offers = no\n"
	       "clock = fischer:72h+24h\nweekends = off\n", &cfg);
	ck_assert_uint_eq(cfg.nladders, 2);
	l = &cfg.ladders[0];
	ck_assert_uint_eq(l->club.members.count, 2);
	ck_assert(!l->club.open);
	ck_assert_int_eq(l->club.variant.size, 7);
	ck_assert(l->club.variant.swap);
	ck_assert_int_eq(l->club.variant.tax_rule, CORE_TAX_LOST);
	ck_assert(!l->club.variant.draw_offers);
	ck_assert_str_eq(l->club.clock, "fischer:72h+24h");
	ck_assert(!l->club.weekends);
	ck_assert(l->club.rated);
	ck_assert_uint_eq(l->challenge_range.n, 3);
	ck_assert(!l->challenge_range.percent);
	ck_assert_uint_eq(l->max_out, 2);
	ck_assert_uint_eq(l->max_in, 2);
	ck_assert_uint_eq(l->rematch_wait_ms, 7 * DAY_MS);
	ck_assert_uint_eq(l->accept_within_ms, 7 * DAY_MS);
	ck_assert_uint_eq(l->time_loss_drop, 1);
	ck_assert_uint_eq(l->absence_withdraw_ms, 30 * DAY_MS);
	ck_assert(l->standings_mail);
	/* Its own keys, and [game]'s for the rest of the variant. */
	l = &cfg.ladders[1];
	ck_assert_uint_eq(l->club.members.count, 0);
	ck_assert_ptr_null(l->club.members.names);
	ck_assert(l->club.open);
	ck_assert_int_eq(l->club.variant.size, 9);
	ck_assert(l->club.variant.swap);
	ck_assert_str_eq(l->club.clock, "none");
	ck_assert(!l->club.weekends);
	g = &cfg.leagues[0];
	ck_assert(g->club.open);
	ck_assert_uint_eq(g->club.members.count, 0);
	ck_assert_uint_eq(g->group_size, 10);
	ck_assert_int_eq(g->season_start, 1798675200);
	ck_assert_uint_eq(g->season_length_ms, 90 * DAY_MS);
	ck_assert_uint_eq(g->promote, 2);
	ck_assert_uint_eq(g->relegate, 2);
	ck_assert(g->club.rated);
	ck_assert_int_eq(g->club.variant.size, 7);
	ck_assert_str_eq(g->club.clock, "fischer:72h+24h");
	/* [ratings] unset */
	ck_assert(cfg.ratings.tau == 0.5);
	ck_assert_uint_eq(cfg.ratings.period_ms, 7 * DAY_MS);
	config_free(&cfg);

	/* Without [game], the core's defaults; the deprecated move_time
	 * counts as [game] clock. */
	loaded("[game]\nmove_time = 3d\n[ladder x]\nopen = yes\n", &cfg);
	ck_assert_int_eq(cfg.ladders[0].club.variant.size, 5);
	ck_assert(!cfg.ladders[0].club.variant.swap);
	ck_assert(cfg.ladders[0].club.variant.draw_offers);
	ck_assert(cfg.ladders[0].club.weekends);
	ck_assert_str_eq(cfg.ladders[0].club.clock, "days:3");
	config_free(&cfg);
}
END_TEST

START_TEST(test_several)
{
	struct config cfg;

	loaded("[ladder a]\nmembers = p1, p2\n"              /* 6 */
	       "[league b]\nopen = yes\nseason_start = 2027-01-01\n"
	       "[ladder c-2_x]\nmembers = p2, p3, p1\n"      /* 10 */
	       "[league d]\nmembers = q1, q2\nseason_start = 2027-06-30\n"
	       "group_size = 2\npromote = 1\nrelegate = 0\n"
	       "[ladder abcdefghijklmnopqrstuvwxyz012345]\nopen = yes\n", &cfg);
	ck_assert_uint_eq(cfg.nladders, 3);
	ck_assert_uint_eq(cfg.nleagues, 2);
	ck_assert_str_eq(cfg.ladders[0].club.name, "a");
	ck_assert_uint_eq(cfg.ladders[0].club.line, 6);
	ck_assert_str_eq(cfg.ladders[1].club.name, "c-2_x");
	ck_assert_uint_eq(cfg.ladders[1].club.line, 11);
	ck_assert_str_eq(cfg.ladders[1].club.members.names[2], "p1");
	ck_assert_str_eq(cfg.ladders[2].club.name,
			 "abcdefghijklmnopqrstuvwxyz012345");
	ck_assert_uint_eq(cfg.ladders[2].club.line, 19);
	ck_assert_str_eq(cfg.leagues[0].club.name, "b");
	ck_assert_uint_eq(cfg.leagues[0].club.line, 8);
	ck_assert_str_eq(cfg.leagues[1].club.name, "d");
	ck_assert_uint_eq(cfg.leagues[1].club.line, 13);
	ck_assert_uint_eq(cfg.leagues[1].group_size, 2);
	ck_assert_uint_eq(cfg.leagues[1].promote, 1);
	ck_assert(config_ladder_find(&cfg, "c-2_x") == &cfg.ladders[1]);
	ck_assert(config_league_find(&cfg, "d") == &cfg.leagues[1]);
	config_free(&cfg);
}
END_TEST

START_TEST(test_ratings)
{
	static const struct {
		const char *text;
		double tau;
		uint64_t period_ms;
		const char *dumped;
	} good[] = {
		{ "tau = 0.2\nperiod = 1d\n", 0.2, DAY_MS,
		  "[ratings]\ntau = 0.2\nperiod = 1d\n" },
		{ "tau = 1.2\nperiod = 365d\n", 1.2, 365 * DAY_MS,
		  "[ratings]\ntau = 1.2\nperiod = 365d\n" },
		{ "tau = 1\nperiod = 2w\n", 1.0, 14 * DAY_MS,
		  "[ratings]\ntau = 1\nperiod = 14d\n" },
		{ "tau = 0.750000\n", 0.75, 7 * DAY_MS,
		  "[ratings]\ntau = 0.75\nperiod = 7d\n" },
		{ "tau = 0.333333\n", 0.333333, 7 * DAY_MS,
		  "[ratings]\ntau = 0.333333\nperiod = 7d\n" },
	};
	static const struct {
		const char *line, *message;
	} bad[] = {
		{ "tau = 1.3", "t.conf:7: [ratings] tau: 1.3 is out of range (0.2..1.2)" },
		{ "tau = 0.19", "t.conf:7: [ratings] tau: 0.19 is out of range (0.2..1.2)" },
		{ "tau = -0.5", "t.conf:7: [ratings] tau: bad value \"-0.5\": expected a decimal number, such as 0.5" },
		{ "tau = .5", "t.conf:7: [ratings] tau: bad value \".5\": expected a decimal number, such as 0.5" },
		{ "tau = 0.", "t.conf:7: [ratings] tau: bad value \"0.\": expected a decimal number, such as 0.5" },
		{ "tau = 0,5", "t.conf:7: [ratings] tau: bad value \"0,5\": expected a decimal number, such as 0.5" },
		{ "tau = 0.5000001", "t.conf:7: [ratings] tau: bad value \"0.5000001\": more than 6 decimal places" },
		{ "period = 23h", "t.conf:7: [ratings] period: 23h is out of range (1d..365d)" },
		{ "period = 366d", "t.conf:7: [ratings] period: 366d is out of range (1d..365d)" },
		{ "periods = 7d", "t.conf:7: unknown key \"periods\" in [ratings]" },
	};

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		struct buf text = BUF_INIT, dump = BUF_INIT;
		struct config cfg;

		buf_printf(&text, "[ratings]\n%s", good[i].text);
		loaded(buf_str(&text), &cfg);
		ck_assert_msg(cfg.ratings.tau == good[i].tau, "%s: %.9f",
			      good[i].text, cfg.ratings.tau);
		ck_assert_uint_eq(cfg.ratings.period_ms, good[i].period_ms);
		config_dump(&cfg, &dump);
		ck_assert_msg(strstr(buf_str(&dump), good[i].dumped) != NULL,
			      "%s", buf_str(&dump));
		config_free(&cfg);
		buf_free(&text);
		buf_free(&dump);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct buf text = BUF_INIT;

		buf_printf(&text, "[ratings]\n%s\n", bad[i].line);
		refused(buf_str(&text), bad[i].message);
		buf_free(&text);
	}
}
END_TEST

/* Every value refused, each at its line, one case at a time. */
START_TEST(test_bad_values)
{
	static const struct {
		const char *text, *message;
	} cases[] = {
		/* unknown key, set twice */
		{ "[ladder main]\nopen = yes\nchallenge_rang = 3\n",
		  "t.conf:8: unknown key \"challenge_rang\" in [ladder main]" },
		{ "[league l]\nopen = yes\nseason_start = 2027-01-01\nmax_out = 2\n",
		  "t.conf:9: unknown key \"max_out\" in [league l]" },
		{ "[ladder main]\nopen = yes\nrated = no\nrated = yes\n",
		  "t.conf:9: [ladder main] rated is set twice (first on line 8)" },
		/* numbers: negative, not a number, out of range */
		{ "[ladder main]\nopen = yes\nmax_out = -1\n",
		  "t.conf:8: [ladder main] max_out: bad value \"-1\": expected a whole number" },
		{ "[ladder main]\nopen = yes\nmax_out = 0\n",
		  "t.conf:8: [ladder main] max_out: 0 is out of range (1..100)" },
		{ "[ladder main]\nopen = yes\nmax_in = 101\n",
		  "t.conf:8: [ladder main] max_in: 101 is out of range (1..100)" },
		{ "[ladder main]\nopen = yes\ntime_loss_drop = 1001\n",
		  "t.conf:8: [ladder main] time_loss_drop: 1001 is out of range (0..1000)" },
		{ "[ladder main]\nopen = yes\nchallenge_range = -3\n",
		  "t.conf:8: [ladder main] challenge_range: bad value \"-3\": expected a number of places or a percentage, such as 3 or 10%" },
		{ "[ladder main]\nopen = yes\nchallenge_range = 3 %\n",
		  "t.conf:8: [ladder main] challenge_range: bad value \"3 %\": expected a number of places or a percentage, such as 3 or 10%" },
		{ "[ladder main]\nopen = yes\nchallenge_range = 0\n",
		  "t.conf:8: [ladder main] challenge_range: 0 is out of range (1..1000, or 1%..100%)" },
		{ "[ladder main]\nopen = yes\nchallenge_range = 1001\n",
		  "t.conf:8: [ladder main] challenge_range: 1001 is out of range (1..1000, or 1%..100%)" },
		{ "[ladder main]\nopen = yes\nchallenge_range = 0%\n",
		  "t.conf:8: [ladder main] challenge_range: 0% is out of range (1..1000, or 1%..100%)" },
		{ "[ladder main]\nopen = yes\nchallenge_range = 101%\n",
		  "t.conf:8: [ladder main] challenge_range: 101% is out of range (1..1000, or 1%..100%)" },
		{ "[ladder main]\nopen = yes\nrematch_wait = 366d\n",
		  "t.conf:8: [ladder main] rematch_wait: 366d is out of range (0..365d)" },
		{ "[ladder main]\nopen = yes\naccept_within = 59m\n",
		  "t.conf:8: [ladder main] accept_within: 59m is out of range (1h..60d)" },
		{ "[ladder main]\nopen = yes\naccept_within = 61d\n",
		  "t.conf:8: [ladder main] accept_within: 61d is out of range (1h..60d)" },
		{ "[ladder main]\nopen = yes\nabsence_withdraw = 12h\n",
		  "t.conf:8: [ladder main] absence_withdraw: 12h is out of range (0 or 1d..3650d)" },
		{ "[ladder main]\nopen = yes\nabsence_withdraw = soon\n",
		  "t.conf:8: [ladder main] absence_withdraw: bad value \"soon\": expected a number with a unit: 500ms, 30s, 10m, 2h, 7d, 1w" },
		/* (and a refused open says nothing of the members) */
		{ "[ladder main]\nopen = maybe\n",
		  "t.conf:7: [ladder main] open: bad value \"maybe\": expected yes/no, true/false or on/off" },
		{ "[ladder main]\nopen = yes\nsize = 14\n",
		  "t.conf:8: [ladder main] size: 14 is out of range (3..13)" },
		{ "[ladder main]\nopen = yes\ntax = both\n",
		  "t.conf:8: [ladder main] tax: \"both\" is not one of: removed lost" },
		{ "[ladder main]\nopen = yes\nclock = blitz\n",
		  "t.conf:8: [ladder main] clock: bad value \"blitz\": unknown time control; expected none, days:N (N 1..14), fischer:Ih+Jh or fischer:Ih+Jh/Kh (I, J and K whole hours, such as fischer:240h+36h/240h)" },
		{ "[ladder main]\nopen = yes\nclock = \"days:3\n",
		  "t.conf:8: [ladder main] clock: unterminated quoted value" },
		/* a group smaller than 2, or too big */
		{ "[league l]\nopen = yes\nseason_start = 2027-01-01\ngroup_size = 1\n",
		  "t.conf:9: [league l] group_size: 1 is out of range (2..50)" },
		{ "[league l]\nopen = yes\nseason_start = 2027-01-01\ngroup_size = 51\n",
		  "t.conf:9: [league l] group_size: 51 is out of range (2..50)" },
		{ "[league l]\nopen = yes\nseason_start = 2027-01-01\nseason_length = 6d\n",
		  "t.conf:9: [league l] season_length: 6d is out of range (7d..730d)" },
		{ "[league l]\nopen = yes\nseason_start = 2027-01-01\nseason_length = 731d\n",
		  "t.conf:9: [league l] season_length: 731d is out of range (7d..730d)" },
		{ "[league l]\nopen = yes\nseason_start = 2027-01-01\npromote = 26\n",
		  "t.conf:9: [league l] promote: 26 is out of range (0..25)" },
		/* promote and relegate: each at most half a group */
		{ "[league l]\nopen = yes\nseason_start = 2027-01-01\npromote = 6\n",
		  "t.conf:9: [league l] promote (6) is more than half of group_size (10): at most 5" },
		{ "[league l]\nopen = yes\nseason_start = 2027-01-01\nrelegate = 2\npromote = 0\ngroup_size = 3\n",
		  "t.conf:9: [league l] relegate (2) is more than half of group_size (3): at most 1" },
		/* dates */
		{ "[league l]\nopen = yes\nseason_start = 2027-02-29\n",
		  "t.conf:8: [league l] season_start: bad value \"2027-02-29\": no such day (or not between 1970 and 9999)" },
		{ "[league l]\nopen = yes\nseason_start = 2027-13-01\n",
		  "t.conf:8: [league l] season_start: bad value \"2027-13-01\": no such day (or not between 1970 and 9999)" },
		{ "[league l]\nopen = yes\nseason_start = 1969-12-31\n",
		  "t.conf:8: [league l] season_start: bad value \"1969-12-31\": no such day (or not between 1970 and 9999)" },
		{ "[league l]\nopen = yes\nseason_start = 2027-3-1\n",
		  "t.conf:8: [league l] season_start: bad value \"2027-3-1\": expected a date as YYYY-MM-DD" },
		{ "[league l]\nopen = yes\nseason_start = 2027-03-01 12:00\n",
		  "t.conf:8: [league l] season_start: bad value \"2027-03-01 12:00\": expected a date as YYYY-MM-DD" },
		{ "[league l]\nopen = yes\nseason_start = next monday\n",
		  "t.conf:8: [league l] season_start: bad value \"next monday\": expected a date as YYYY-MM-DD" },
		/* required, at the section's line */
		{ "[league l]\nopen = yes\n",
		  "t.conf:6: [league l] season_start is required" },
		/* members */
		{ "[ladder main]\nmembers = alice, bob, alice\n",
		  "t.conf:7: [ladder main] members: alice is named twice" },
		{ "[ladder main]\nmembers = alice, bob, ALICE\n",
		  "t.conf:7: [ladder main] members: ALICE is named twice (as alice: names ignore case)" },
		{ "[ladder main]\nmembers = alice, 2bob\n",
		  "t.conf:7: [ladder main] members: \"2bob\"" NOT_A_NAME },
		{ "[ladder main]\nmembers = alice, b\n",
		  "t.conf:7: [ladder main] members: \"b\"" NOT_A_NAME },
		{ "[ladder main]\nmembers = alice, abcdefghijklmnopqrstuvwxy\n",
		  "t.conf:7: [ladder main] members: \"abcdefghijklmnopqrstuvwxy\"" NOT_A_NAME },
		{ "[ladder main]\nmembers = alice, bob carol\n",
		  "t.conf:7: [ladder main] members: \"bob carol\"" NOT_A_NAME },
		{ "[ladder main]\nmembers = alice, resign\n",
		  "t.conf:7: [ladder main] members: \"resign\"" NOT_A_NAME },
		{ "[ladder main]\nmembers = alice,, bob\n",
		  "t.conf:7: [ladder main] members: expected player names separated by commas, such as alice, bob" },
		{ "[ladder main]\nmembers = alice, bob,\n",
		  "t.conf:7: [ladder main] members: a comma at the end, with no name after it" },
		{ "[ladder main]\nmembers = alice\n",
		  "t.conf:7: [ladder main] has 1 member and open = no: list at least 2 members, or set open = yes" },
		{ "[ladder main]\n",
		  "t.conf:6: [ladder main] has 0 members and open = no: list at least 2 members, or set open = yes" },
		{ "[league l]\nmembers =\nseason_start = 2027-01-01\n",
		  "t.conf:7: [league l] has 0 members and open = no: list at least 2 members, or set open = yes" },
		/* names of sections */
		{ "[ladder Main]\nopen = yes\n",
		  "t.conf:6: [ladder Main]: \"Main\" is not a ladder name (1 to 32 of a-z, 0-9, '_' and '-')" },
		{ "[ladder abcdefghijklmnopqrstuvwxyz0123456]\nopen = yes\n",
		  "t.conf:6: [ladder abcdefghijklmnopqrstuvwxyz0123456]: \"abcdefghijklmnopqrstuvwxyz0123456\" is not a ladder name (1 to 32 of a-z, 0-9, '_' and '-')" },
		{ "[ladder main ladder]\nopen = yes\n",
		  "t.conf:6: [ladder main ladder]: \"main ladder\" is not a ladder name (1 to 32 of a-z, 0-9, '_' and '-')" },
		{ "[league été]\nopen = yes\n",
		  "t.conf:6: [league été]: \"été\" is not a league name (1 to 32 of a-z, 0-9, '_' and '-')" },
		{ "[ladder]\nopen = yes\n",
		  "t.conf:6: [ladder] needs a name: [ladder NAME]" },
		{ "[league]\nopen = yes\n",
		  "t.conf:6: [league] needs a name: [league NAME]" },
		{ "[game x]\nsize = 5\n",
		  "t.conf:6: unknown section [game x]" },
		{ "[ratings main]\ntau = 0.5\n",
		  "t.conf:6: unknown section [ratings main]" },
	};

	static const char *const both[] = {
		"t.conf:9: [league l] promote (2) is more than half of group_size (2): at most 1",
		"t.conf:9: [league l] relegate (2) is more than half of group_size (2): at most 1",
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		refused(cases[i].text, cases[i].message);
	/* Only group_size written: both defaults refused, at its line. */
	refused_exactly("[league l]\nopen = yes\nseason_start = 2027-01-01\n"
			"group_size = 2\n", both, 2);
}
END_TEST

/* Several errors in one file, each once at its own line; the keys of a
 * refused section are skipped, not reported again. */
START_TEST(test_errors_together)
{
	static const char text[] =
		"[ladder main]\n"                      /* 6 */
		"members = alice, bob\n"
		"[league main]\n"                      /* 8: taken */
		"group_size = 1\n"                     /* skipped */
		"[ladder main]\n"                      /* 10: twice */
		"bogus = 1\n"                          /* skipped */
		"[league spring]\n"                    /* 12 */
		"members = a1, b2, c3\n"
		"season_start = 2027-02-30\n"          /* 14 */
		"promote = 1\n"
		"relegate = 1\n"
		"group_size = 1\n"                     /* 17 */
		"[ladder Top]\n"                       /* 18 */
		"nonsense = here\n"
		"[ladder b]\n"                         /* 20 */
		"members = x1, x2\n"
		"max_out = 0\n"                        /* 22 */
		"colour = red\n";                      /* 23 */
	static const char *const expected[] = {
		"t.conf:8: [league main]: the name main is taken by [ladder main] (line 6): a ladder, a league and a tournament may not share a name",
		"t.conf:10: [ladder main] is defined twice (first on line 6)",
		"t.conf:14: [league spring] season_start: bad value \"2027-02-30\": no such day (or not between 1970 and 9999)",
		"t.conf:17: [league spring] group_size: 1 is out of range (2..50)",
		"t.conf:18: [ladder Top]: \"Top\" is not a ladder name (1 to 32 of a-z, 0-9, '_' and '-')",
		"t.conf:22: [ladder b] max_out: 0 is out of range (1..100)",
		"t.conf:23: unknown key \"colour\" in [ladder b]",
	};

	refused_exactly(text, expected, sizeof(expected) / sizeof(expected[0]));
	/* A refused member list says no more (not also "0 members"). */
	{
		static const char *const one[] = {
			"t.conf:7: [ladder m] members: \"9\"" NOT_A_NAME,
		};

		refused_exactly("[ladder m]\nmembers = 9\n", one, 1);
	}
}
END_TEST

/* A name is unique across both kinds, whichever comes first. */
START_TEST(test_names_shared)
{
	refused("[league x]\nopen = yes\nseason_start = 2027-01-01\n"
		"[ladder x]\nopen = yes\n",
		"t.conf:9: [ladder x]: the name x is taken by [league x] (line 6): a ladder, a league and a tournament may not share a name");
	refused("[league x]\nopen = yes\nseason_start = 2027-01-01\n"
		"[league x]\nopen = yes\nseason_start = 2027-01-01\n",
		"t.conf:9: [league x] is defined twice (first on line 6)");
}
END_TEST

START_TEST(test_tournament_every_key)
{
	struct config cfg;
	const struct config_tournament *t;

	loaded("[game]\nsize = 4\nclock = days:3\n"   /* 6-8 */
	       "[tournament open-1]\n"                    /* 9 */
	       "members = alice, bob\n"
	       "open = yes\n"
	       "format = roundrobin\n"
	       "double = yes\n"
	       "signup_until = 2027-02-28\n"
	       "start = 2027-03-01\n"
	       "max_players = 12\n"
	       "round_deadline = 10d\n"
	       "bye_points = 0.5\n"
	       "tiebreaks = wins, sonneborn_berger,direct\n"
	       "standings_mail = no\n"
	       "rated = no\n"
	       "[tournament cup]\n"
	       "members = a1, b2\n"
	       "start = 2027-04-01\n", &cfg);
	ck_assert_uint_eq(cfg.ntournaments, 2);
	t = config_tournament_find(&cfg, "open-1");
	ck_assert_ptr_nonnull(t);
	ck_assert_uint_eq(t->club.members.count, 2);
	ck_assert(t->club.open);
	ck_assert_int_eq(t->format, 2); /* TOURNAMENT_ROUNDROBIN */
	ck_assert(t->twice);
	ck_assert_int_eq(t->signup_until, 1803772800); /* 2027-02-28 */
	ck_assert_int_eq(t->start, 1803859200);
	ck_assert_uint_eq(t->max_players, 12);
	ck_assert_uint_eq(t->round_deadline_ms, 10 * DAY_MS);
	ck_assert_int_eq(t->bye_points, 1);
	ck_assert_uint_eq(t->ntiebreaks, 3);
	ck_assert_int_eq(t->tiebreaks[0], 5); /* wins */
	ck_assert_int_eq(t->tiebreaks[1], 3); /* sonneborn_berger */
	ck_assert_int_eq(t->tiebreaks[2], 4); /* direct */
	ck_assert(!t->standings_mail);
	ck_assert(!t->club.rated);
	ck_assert_int_eq(t->club.variant.size, 4); /* [game]'s */
	ck_assert_str_eq(t->club.clock, "days:3");
	/* the defaults */
	t = config_tournament_find(&cfg, "cup");
	ck_assert_int_eq(t->format, 1); /* swiss */
	ck_assert_uint_eq(t->rounds, 5);
	ck_assert(!t->twice);
	ck_assert(!t->club.open);
	ck_assert_int_eq(t->signup_until, 0); /* until the start */
	ck_assert_uint_eq(t->max_players, 256);
	ck_assert_uint_eq(t->round_deadline_ms, 0);
	ck_assert_int_eq(t->bye_points, 2);
	ck_assert_uint_eq(t->ntiebreaks, 5); /* Swiss's: cut1 first */
	ck_assert_int_eq(t->tiebreaks[0], 2);
	ck_assert(t->standings_mail);
	ck_assert(t->club.rated);
	ck_assert_ptr_null(config_tournament_find(&cfg, "nope"));
	config_free(&cfg);
}
END_TEST

/* Each refusal of a [tournament NAME] with its FILE:LINE. */
START_TEST(test_tournament_errors)
{
	static const char text[] =
		"[tournament a]\n"                    /* 6 */
		"members = x1, x2, x3\n"
		"format = ladder\n"                   /* 8 */
		"rounds = 0\n"                        /* 9 */
		"max_players = 1\n"                   /* 10 */
		"round_deadline = 5m\n"               /* 11 */
		"bye_points = 2\n"                    /* 12 */
		"tiebreaks = wins, luck, wins\n"      /* 13 */
		"start = 2027-13-01\n"                /* 14 */
		"[tournament b]\n"                    /* 15: no start */
		"open = yes\n"
		"format = knockout\n"
		"rounds = 3\n"                        /* 18 */
		"double = yes\n"                      /* 19 */
		"signup_until = 2027-05-02\n"         /* 20 */
		"[tournament c]\n"                    /* 21 */
		"members = y1, y2, y3\n"              /* 22 */
		"max_players = 2\n"                   /* 23 */
		"signup_until = 2027-05-02\n"         /* 24 */
		"start = 2027-05-01\n"
		"[tournament d]\n"                    /* 26 */
		"members = z1\n";                     /* 27 */
	static const char *const expected[] = {
		"t.conf:8: [tournament a] format: \"ladder\" is not one of: swiss roundrobin knockout",
		"t.conf:9: [tournament a] rounds: 0 is out of range (1..512)",
		"t.conf:10: [tournament a] max_players: 1 is out of range (2..256)",
		"t.conf:11: [tournament a] round_deadline: 5m is out of range (0 or 1h..365d)",
		"t.conf:12: [tournament a] bye_points: \"2\" is not one of: 0 0.5 1",
		"t.conf:13: [tournament a] tiebreaks: \"luck\" is not a tie-break (buchholz, buchholz_cut1, sonneborn_berger, direct, wins, rating)",
		"t.conf:13: [tournament a] tiebreaks: wins is named twice",
		"t.conf:14: [tournament a] start: bad value \"2027-13-01\": no such day (or not between 1970 and 9999)",
		"t.conf:15: [tournament b] start is required",
		"t.conf:18: [tournament b] rounds is for format = swiss (a knockout has as many rounds as its field needs)",
		"t.conf:19: [tournament b] double is for format = roundrobin",
		"t.conf:24: [tournament c] signup_until is after start: the sign-up closes when the event starts at the latest",
		"t.conf:23: [tournament c] lists 3 members, more than max_players (2)",
		"t.conf:26: [tournament d] start is required",
		"t.conf:27: [tournament d] has 1 member and open = no: list at least 2 members, or set open = yes",
	};

	refused_exactly(text, expected, sizeof(expected) / sizeof(expected[0]));
	refused("[ladder x]\nopen = yes\n[tournament x]\nopen = yes\n"
		"start = 2027-01-01\n",
		"t.conf:8: [tournament x]: the name x is taken by [ladder x] (line 6): a ladder, a league and a tournament may not share a name");
}
END_TEST

START_TEST(test_dump_round_trip)
{
	/* With an IMAP login, as the dump of "password =" loads back only
	 * with a user. */
	static const char text[] =
		"[imap]\nurl = imap://h:1\nuser = u\npassword = x\n"
		"[smtp]\nurl = smtp://h\nuser = s\npassword = y\n"
		"from = a@b.example\n"
		"[ratings]\ntau = 0.35\nperiod = 10d\n"
		"[game]\nsize = 6\n"
		"[ladder main]\n"
		"members = alice, Bob\n"
		"challenge_range = 25%\n"
		"absence_withdraw = 0\n"
		"accept_within = 36h\n"
		"[league winter]\n"
		"members = a1, b2, c3, d4, e5\n"
		"season_start = 2027-12-01\n"
		"group_size = 5\n"
		"promote = 1\n"
		"clock = days:2\n"
		"[ladder open_one]\n"
		"open = yes\n"
		"[tournament cup]\n"
		"members = a1, b2\n"
		"format = knockout\n"
		"start = 2027-06-01\n"
		"round_deadline = 14d\n"
		"bye_points = 0.5\n"
		"tiebreaks = rating, wins\n"
		"[tournament open]\n"
		"open = yes\n"
		"start = 2027-07-01\n";
	static const char tournament[] =
		"\n[tournament cup]\n"
		"members = a1, b2\n"
		"open = no\n"
		"size = 6\n"
		"swap = no\n"
		"tax = removed\n"
		"draw_offers = yes\n"
		"clock = none\n"
		"weekends = yes\n"
		"rated = yes\n"
		"format = knockout\n"
		"rounds = 5\n"
		"double = no\n"
		"signup_until = 1970-01-01\n"
		"start = 2027-06-01\n"
		"max_players = 256\n"
		"round_deadline = 14d\n"
		"bye_points = 0.5\n"
		"tiebreaks = rating, wins\n"
		"standings_mail = yes\n";
	static const char ladder[] =
		"\n[ladder main]\n"
		"members = alice, Bob\n"
		"open = no\n"
		"size = 6\n"
		"swap = no\n"
		"tax = removed\n"
		"draw_offers = yes\n"
		"clock = none\n"
		"weekends = yes\n"
		"rated = yes\n"
		"challenge_range = 25%\n"
		"max_out = 2\n"
		"max_in = 2\n"
		"rematch_wait = 7d\n"
		"accept_within = 1d12h\n"
		"time_loss_drop = 1\n"
		"absence_withdraw = 0\n"
		"standings_mail = yes\n"
		"\n[ladder open_one]\n"
		"members =\n"
		"open = yes\n";
	static const char league[] =
		"\n[league winter]\n"
		"members = a1, b2, c3, d4, e5\n"
		"open = no\n"
		"size = 6\n"
		"swap = no\n"
		"tax = removed\n"
		"draw_offers = yes\n"
		"clock = days:2\n"
		"weekends = yes\n"
		"rated = yes\n"
		"group_size = 5\n"
		"season_start = 2027-12-01\n"
		"season_length = 90d\n"
		"promote = 1\n"
		"relegate = 2\n";
	struct buf dump1 = BUF_INIT, dump2 = BUF_INIT;
	struct config cfg, again;
	char *errors;

	ck_assert_msg(load(text, &cfg, &errors) == 0, "%s", errors);
	free(errors);
	config_dump(&cfg, &dump1);
	ck_assert_msg(strstr(buf_str(&dump1), "\n[ratings]\ntau = 0.35\nperiod = 10d\n")
		      != NULL, "%s", buf_str(&dump1));
	ck_assert_msg(strstr(buf_str(&dump1), ladder) != NULL, "%s",
		      buf_str(&dump1));
	ck_assert_msg(strstr(buf_str(&dump1), league) != NULL, "%s",
		      buf_str(&dump1));
	ck_assert_msg(strstr(buf_str(&dump1), tournament) != NULL, "%s",
		      buf_str(&dump1));
	/* ladders, then leagues, after every other section */
	ck_assert_ptr_null(strstr(strstr(buf_str(&dump1), "\n[ladder main]\n"),
				  "\n[limits]\n"));
	ck_assert(strstr(buf_str(&dump1), "\n[league winter]\n") >
		  strstr(buf_str(&dump1), "\n[ladder open_one]\n"));
	/* Loads back to the same. */
	ck_assert_msg(load(buf_str(&dump1), &again, &errors) == 0, "%s\n%s",
		      errors, buf_str(&dump1));
	free(errors);
	config_dump(&again, &dump2);
	ck_assert_str_eq(buf_str(&dump1), buf_str(&dump2));
	ck_assert_uint_eq(again.nladders, 2);
	ck_assert_uint_eq(again.nleagues, 1);
	ck_assert_uint_eq(again.ntournaments, 2);
	ck_assert_uint_eq(again.tournaments[0].ntiebreaks, 2);
	ck_assert_int_eq(again.tournaments[1].signup_until, 0);
	ck_assert_ptr_null(again.tournaments[1].tiebreaks_text);
	ck_assert_int_eq(again.leagues[0].season_start,
			 cfg.leagues[0].season_start);
	ck_assert(again.ratings.tau == cfg.ratings.tau);
	config_free(&cfg);
	config_free(&again);
	buf_free(&dump1);
	buf_free(&dump2);
}
END_TEST

/* The text of a man page section: from its heading to the next. */
static char *man_section(const char *man, const char *heading)
{
	struct buf want = BUF_INIT;
	const char *start, *end;
	char *section;

	buf_printf(&want, "\n.SH \"%s\"\n", heading);
	start = strstr(man, buf_str(&want));
	ck_assert_msg(start != NULL, "no %s section in ashesd.conf.5", heading);
	end = strstr(start + 1, "\n.SH ");
	section = strndup(start, end != NULL ? (size_t)(end - start)
			  : strlen(start));
	buf_free(&want);
	return section;
}

/* Every key of both kinds (as --check-config prints them) is described
 * under its section in ashesd.conf(5) and shown in the example, which
 * loads with its ladder and league uncommented. */
START_TEST(test_documented)
{
	static const char *const kinds[] = { "ladder", "league", "tournament" };
	static const char names[] = "lgt";
	struct buf dump = BUF_INIT, uncommented = BUF_INIT;
	struct config cfg;
	char path[1024], *man, *example;
	size_t keys = 0;

	read_config_docs(&man, &example);
	loaded("[ladder l]\nopen = yes\n"
	       "[league g]\nopen = yes\nseason_start = 2027-01-01\n"
	       "[tournament t]\nopen = yes\nstart = 2027-01-01\n", &cfg);
	config_dump(&cfg, &dump);
	for (size_t k = 0; k < 3; k++) {
		char heading[64], *section;
		const char *p, *in_example;

		snprintf(heading, sizeof(heading), "[%s NAME]", kinds[k]);
		section = man_section(man, heading);
		snprintf(heading, sizeof(heading), "\n#[%s ", kinds[k]);
		in_example = strstr(example, heading);
		ck_assert_msg(in_example != NULL, "no %s in the example", heading);
		snprintf(heading, sizeof(heading), "\n[%s %c]\n", kinds[k],
			 names[k]);
		p = strstr(buf_str(&dump), heading);
		ck_assert_ptr_nonnull(p);
		for (p += strlen(heading); *p != '\0' && *p != '\n';
		     p = strchr(p, '\n') + 1) {
			char key[64], want[128], want2[128];

			ck_assert_int_eq(sscanf(p, "%63s =", key), 1);
			keys++;
			snprintf(want, sizeof(want), "\n.BI %s \"", key);
			snprintf(want2, sizeof(want2), "\n.BR %s \"", key);
			ck_assert_msg(strstr(section, want) != NULL ||
				      strstr(section, want2) != NULL,
				      "[%s NAME] %s is not documented in "
				      "ashesd.conf.5", kinds[k], key);
			snprintf(want, sizeof(want), "\n#%s =", key);
			ck_assert_msg(strstr(in_example, want) != NULL,
				      "[%s] %s is not in contrib/ashesd.conf",
				      kinds[k], key);
		}
		free(section);
	}
	ck_assert_uint_eq(keys, 17 + 14 + 19);
	config_free(&cfg);

	/* The commented ladder and league, uncommented, load. */
	for (const char *line = example; *line != '\0';) {
		size_t len = strcspn(line, "\n");

		if (strncmp(line, "#[ladder ", 9) == 0 ||
		    strncmp(line, "#[league ", 9) == 0 ||
		    strncmp(line, "#[tournament ", 13) == 0 ||
		    (line[0] == '#' && line[1] != ' ' && line[1] != '#' &&
		     memchr(line, '=', len) != NULL &&
		     strstr(buf_str(&uncommented), "\n[ladder ") != NULL))
			buf_append(&uncommented, line + 1, len - 1);
		else
			buf_append(&uncommented, line, len);
		buf_putc(&uncommented, '\n');
		line += len;
		if (*line == '\n')
			line++;
	}
	snprintf(path, sizeof(path), "%s/example.conf", tmpdir);
	daemon_test_write(path, buf_str(&uncommented), 0644);
	{
		struct config_errors errors = { NULL, 0 };

		if (config_load(path, NULL, &cfg, &errors) < 0) {
			struct buf b = BUF_INIT;

			config_errors_format(&errors, &b);
			ck_abort_msg("%s", buf_str(&b));
		}
		ck_assert_uint_eq(cfg.nladders, 1);
		ck_assert_uint_eq(cfg.nleagues, 1);
		ck_assert_uint_eq(cfg.ntournaments, 1);
		config_free(&cfg);
	}
	buf_free(&dump);
	buf_free(&uncommented);
	free(man);
	free(example);
}
END_TEST

TEST_MAIN("daemon_config_clubs", "clubs", daemon_test_setup,
	  daemon_test_teardown, 0, test_ladder_every_key,
	  test_league_every_key, test_tournament_every_key,
	  test_tournament_errors, test_defaults, test_several, test_ratings,
	  test_bad_values, test_errors_together, test_names_shared,
	  test_dump_round_trip, test_documented)
