/* test_command_clock.c -- the command language of the clocks: the clock
 * options of `challenge`, `vacation` in its forms, `claim`, and the
 * `set timezone` value keeping its case. */
#include <check.h>

#include "command_test.h"
#include "../check_run.h"

START_TEST(test_clock_options)
{
	struct command c;

	c = kind_is("challenge bob clock=fischer:240h+36h/240h weekends=off",
		    0, COMMAND_CHALLENGE);
	ck_assert_uint_eq(c.noptions, 2);
	ck_assert_str_eq(c.options[0].key, "clock");
	ck_assert_str_eq(c.options[0].value, "fischer:240h+36h/240h");
	ck_assert_str_eq(c.options[1].key, "weekends");
	ck_assert_str_eq(c.options[1].value, "off");
	c = kind_is("challenge bob CLOCK=Days:3 size=7 vacation=no",
		    0, COMMAND_CHALLENGE);
	ck_assert_uint_eq(c.noptions, 3);
	ck_assert_str_eq(c.options[0].value, "days:3");
	ck_assert_str_eq(c.options[2].key, "vacation");
	/* the service refuses a bad spec; the grammar only its form */
	c = kind_is("challenge bob clock=days:99", 0, COMMAND_CHALLENGE);
	REFUSED(
		{ "challenge bob clock=days;3", 0,
		  COMMAND_ERR_BAD_OPTION, NULL },
		{ "challenge bob clock", 0, COMMAND_ERR_BAD_OPTION, NULL },
		{ "challenge bob clock=days:3 clock=none", 0,
		  COMMAND_ERR_DUPLICATE_OPTION, "clock" },
		{ "challenge bob clocks=days:3", 0,
		  COMMAND_ERR_UNKNOWN_OPTION, NULL });
}
END_TEST

START_TEST(test_vacation)
{
	struct command c;

	c = kind_is("vacation", 0, COMMAND_VACATION);
	ck_assert_int_eq(c.vacation, COMMAND_VACATION_SHOW);
	c = line("vacation 5", 0);
	ck_assert_int_eq(c.vacation, COMMAND_VACATION_DAYS);
	ck_assert_int_eq(c.vacation_days, 5);
	c = line("Vacation 1 day", 0);
	ck_assert_int_eq(c.vacation_days, 1);
	c = line("vacation from 2027-01-02 to 2027-01-09", 0);
	ck_assert_int_eq(c.vacation, COMMAND_VACATION_DATES);
	ck_assert_int_eq(c.vacation_from[0], 2027);
	ck_assert_int_eq(c.vacation_from[1], 1);
	ck_assert_int_eq(c.vacation_from[2], 2);
	ck_assert_int_eq(c.vacation_to[2], 9);
	c = line("vacation cancel", 0);
	ck_assert_int_eq(c.vacation, COMMAND_VACATION_CANCEL);

	REFUSED(
		{ "vacation 0", 0, COMMAND_ERR_BAD_VACATION, NULL },
		{ "vacation 366", 0, COMMAND_ERR_BAD_VACATION, NULL },
		{ "vacation five", 0, COMMAND_ERR_BAD_VACATION, "five" },
		{ "vacation from 2027-13-02 to 2027-01-09", 0,
		  COMMAND_ERR_BAD_VACATION, NULL },
		{ "vacation from 2027-01-02 until 2027-01-09", 0,
		  COMMAND_ERR_BAD_VACATION, "until" },
		{ "vacation from 2027-01-02", 0,
		  COMMAND_ERR_MISSING_ARG, NULL },
		{ "vacation 5 days please", 0, COMMAND_ERR_EXTRA_ARG, NULL },
		{ "vacation cancel now", 0, COMMAND_ERR_EXTRA_ARG, NULL });
}
END_TEST

START_TEST(test_claim_and_timezone)
{
	struct command c;

	c = command_is("claim 12", 0, COMMAND_CLAIM, 12);
	c = command_is("claim", 7, COMMAND_CLAIM, 7);
	refused("claim", 0, COMMAND_ERR_MISSING_ARG, NULL);
	/* a zone name is case-sensitive: the value keeps its case */
	c = kind_is("set timezone America/New_York", 0, COMMAND_SET);
	ck_assert_str_eq(c.options[0].key, "timezone");
	ck_assert_str_eq(c.options[0].value, "America/New_York");
}
END_TEST

TEST_MAIN("command_clock", "parse", NULL, NULL, 0,
	  test_clock_options, test_vacation, test_claim_and_timezone)
