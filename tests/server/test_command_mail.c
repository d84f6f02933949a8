/* test_command_mail.c -- the mail command language over a whole body:
 * commands in order, the first failure stopping the rest, the limit on
 * commands in one mail, and the lines mail programs add to a reply
 * (quotes, attributions, signatures; a pasted key) that must be
 * ignored. */
#include <check.h>
#include <stdio.h>

#include "command_test.h"
#include "../check_run.h"

START_TEST(test_mail_order_and_stop)
{
	struct command_list l = parsed_as(NULL,
		"help\n\ngames\nbogus line\nboard 3\n", 0, 3, 0, COMMAND_HELP);

	ck_assert_int_eq(l.items[0].line, 1);
	ck_assert_int_eq(l.items[1].kind, COMMAND_GAMES);
	ck_assert_int_eq(l.items[1].line, 3);
	ck_assert_int_eq(l.items[2].kind, COMMAND_INVALID);
	ck_assert_int_eq(l.items[2].line, 4);
	ck_assert_str_eq(l.items[2].text, "bogus line");
	ck_assert(l.stopped_early);
	command_list_free(&l);
	ck_assert_ptr_null(l.items);
	l = parse(NULL, "help\nbogus 2\n\n> quoted\n", 0);
	ck_assert_uint_eq(l.count, 2);
	ck_assert(!l.stopped_early);
	command_list_free(&l);
}
END_TEST

START_TEST(test_thunderbird_reply)
{
	const char *body =
		"move 12 8 e5-e7\r\n"
		"\r\n"
		"On 03/01/2026 10:00, ashes wrote:\r\n"
		"> [ashes #12] Your move\r\n"
		"> move 12 8 ...\r\n"
		">> old quote\r\n"
		"\r\n"
		"-- \r\n"
		"Alice\r\n"
		"register evil\r\n";
	struct command_list l = parsed_as("Re: [ashes #12] Your move (ply 8)",
				      body, 12, 1, 0, COMMAND_MOVE);

	ck_assert_str_eq(l.items[0].move, "e5-e7");
	ck_assert(l.skipped_quoted);
	command_list_free(&l);
}
END_TEST

START_TEST(test_gmail_reply)
{
	/* Gmail wraps a long attribution over two lines. */
	const char *body =
		"e5-e7\n"
		"\n"
		"On Mon, 3 Jan 2026 at 10:00, Ashes Server <ashes@example.org>\n"
		"wrote:\n"
		"\n"
		"> Game 12, ply 8: your move.\n"
		"> moves 12\n";
	struct command_list l = parse("Re: [ashes #12] Your move", body, 12);

	ck_assert_uint_eq(l.count, 1);
	ck_assert(l.items[0].bare);
	ck_assert_int_eq(l.items[0].game, 12);
	command_list_free(&l);

	l = parse(NULL,
		  "board 4\nOn Mon, 3 Jan 2026 at 10:00, X <x@y> wrote:\n"
		  "resign 4\n", 0);
	/* The attribution is skipped; an unquoted line after it counts. */
	ck_assert_uint_eq(l.count, 2);
	ck_assert_int_eq(l.items[1].kind, COMMAND_RESIGN);
	command_list_free(&l);
}
END_TEST

START_TEST(test_mutt_reply)
{
	const char *body =
		"* Ashes Server <ashes@example.org> [2026-01-03 10:00]:\n"
		"> Your move in game 12.\n"
		"\n"
		"moves 12\n"
		"\n"
		"-- \n"
		"Bob's signature\n";
	struct command_list l =
		parsed_as("Re: [ashes #12] Your move", body, 12, 1, 0, COMMAND_MOVES);

	ck_assert_int_eq(l.items[0].line, 4);
	command_list_free(&l);
}
END_TEST

/* register with the public key pasted below it: the armour is data. */
START_TEST(test_pasted_key_is_not_commands)
{
	const char *body =
		"register alice\n"
		"\n"
		"-----BEGIN PGP PUBLIC KEY BLOCK-----\n"
		"\n"
		"mDMEaWx1cBYJKwYBBAHaRw8BAQdA\n"
		"=abcd\n"
		"-----END PGP PUBLIC KEY BLOCK-----\n"
		"games\n";
	struct command_list l =
		parsed_as("register", body, 0, 2, 0, COMMAND_REGISTER);

	ck_assert_int_eq(l.items[1].kind, COMMAND_GAMES);
	ck_assert_int_eq(l.items[1].line, 8);
	command_list_free(&l);
}
END_TEST

START_TEST(test_outlook_reply)
{
	const char *body =
		"resign 12\r\n"
		"\r\n"
		"-----Original Message-----\r\n"
		"From: Ashes <ashes@example.org>\r\n"
		"Subject: [ashes #12] Your move\r\n"
		"\r\n"
		"move 12 8 ...\r\n";
	struct command_list l =
		parsed_as("RE: [ashes #12] Your move", body, 12, 1, 0, COMMAND_RESIGN);

	ck_assert(l.skipped_quoted);
	command_list_free(&l);

	count_is(NULL, "games\n________________________________\nFrom: x\nhelp me\n",
		 0, 1);
}
END_TEST

START_TEST(test_too_many)
{
	struct buf_like { char s[4096]; } b;
	size_t n = 0;
	struct command_list l;

	for (int i = 0; i < COMMAND_MAX + 5; i++)
		n += (size_t)snprintf(b.s + n, sizeof(b.s) - n, "games\n");
	l = parse(NULL, b.s, 0);
	ck_assert_uint_eq(l.count, COMMAND_MAX + 1);
	ck_assert_int_eq(l.items[COMMAND_MAX].error, COMMAND_ERR_TOO_MANY);
	command_list_free(&l);
}
END_TEST

TEST_MAIN("command_mail", "parse", NULL, NULL, 0,
	  test_mail_order_and_stop, test_thunderbird_reply, test_gmail_reply,
	  test_mutt_reply, test_outlook_reply, test_too_many,
	  test_pasted_key_is_not_commands)
