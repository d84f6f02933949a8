/* test_command.c -- the mail command language: every command, its
 * refusals, commands in the Subject and the game of a thread, help
 * topics and move shapes.  The lines a mail client adds, which must be
 * ignored, are test_command_mail.c's. */
#include <check.h>
#include <stdio.h>

#include "command_test.h"
#include "../check_run.h"

START_TEST(test_each_command)
{
	struct command c;

	c = kind_is("help", 0, COMMAND_HELP);
	c = kind_is("  HELP  ", 0, COMMAND_HELP);
	c = kind_is("register Alice", 0, COMMAND_REGISTER);
	ck_assert_str_eq(c.name, "Alice");
	c = kind_is("challenge bob size=7 swap tax=lost", 0, COMMAND_CHALLENGE);
	ck_assert_str_eq(c.name, "bob");
	ck_assert_uint_eq(c.noptions, 3);
	ck_assert_str_eq(c.options[0].key, "size");
	ck_assert_str_eq(c.options[0].value, "7");
	ck_assert_str_eq(c.options[1].key, "swap");
	ck_assert_str_eq(c.options[1].value, "yes");
	ck_assert_str_eq(c.options[2].key, "tax");
	ck_assert_str_eq(c.options[2].value, "lost");
	c = kind_is("Challenge ANY", 0, COMMAND_CHALLENGE);
	ck_assert_str_eq(c.name, "any");
	ck_assert_uint_eq(c.noptions, 0);
	c = command_is("accept #12", 0, COMMAND_ACCEPT, 12);
	c = command_is("decline 3", 0, COMMAND_DECLINE, 3);
	c = kind_is("withdraw 4", 0, COMMAND_WITHDRAW);
	c = command_is("move 12 7 C3-E5/2", 0, COMMAND_MOVE, 12);
	ck_assert_int_eq(c.ply, 7);
	ck_assert_str_eq(c.move, "c3-e5/2");
	ck_assert(!c.bare);
	c = kind_is("move #12 2 swap", 0, COMMAND_MOVE);
	ck_assert_str_eq(c.move, "swap");
	c = kind_is("preview 12 c3xe5", 0, COMMAND_PREVIEW);
	ck_assert_str_eq(c.move, "c3xe5");
	c = kind_is("resign 12", 0, COMMAND_RESIGN);
	c = kind_is("draw offer 12", 0, COMMAND_DRAW);
	ck_assert_int_eq(c.draw, COMMAND_DRAW_OFFER);
	c = line("draw ACCEPT #12", 0);
	ck_assert_int_eq(c.draw, COMMAND_DRAW_ACCEPT);
	c = line("draw decline 12", 0);
	ck_assert_int_eq(c.draw, COMMAND_DRAW_DECLINE);
	c = kind_is("board 12", 0, COMMAND_BOARD);
	c = kind_is("moves 12", 0, COMMAND_MOVES);
	c = kind_is("history 12", 0, COMMAND_HISTORY);
	c = kind_is("games", 0, COMMAND_GAMES);
	c = kind_is("observe 12", 0, COMMAND_OBSERVE);
	c = command_is("unobserve #12", 0, COMMAND_UNOBSERVE, 12);
}
END_TEST

START_TEST(test_bare_moves)
{
	struct command c;

	c = kind_is("e5-e7", 12, COMMAND_MOVE);
	ck_assert(c.bare);
	ck_assert_int_eq(c.game, 12);
	ck_assert_int_eq(c.ply, 0);
	ck_assert_str_eq(c.move, "e5-e7");
	c = kind_is("E5E7", 12, COMMAND_MOVE);
	ck_assert_str_eq(c.move, "e5e7");
	c = kind_is("swap", 9, COMMAND_MOVE);
	ck_assert_str_eq(c.move, "swap");
	ck_assert_int_eq(c.game, 9);
	c = command_is("swap 4", 0, COMMAND_MOVE, 4);
	/* Outside a thread, a bare move has no game. */
	c = kind_is("e5-e7", 0, COMMAND_INVALID);
	ck_assert_int_eq(c.error, COMMAND_ERR_NO_GAME);
	refused("swap", 0, COMMAND_ERR_NO_GAME, NULL);
	/* Game-only commands take the thread's game when it is left off. */
	c = command_is("board", 12, COMMAND_BOARD, 12);
	c = game_is("draw offer", 12, 12);
	c = command_is("preview e5-e7", 12, COMMAND_PREVIEW, 12);
}
END_TEST

START_TEST(test_refusals)
{
	struct command c;

	refused("frobnicate 12", 0, COMMAND_ERR_UNKNOWN, "frobnicate");
	/* help is never refused: words after it that name no topic get
	 * the general help (test_help_topics) */
	c = kind_is("help me", 0, COMMAND_HELP);
	ck_assert_str_eq(c.topic, "");
	ck_assert_str_eq(c.detail, "me");
	REFUSED(
		{ "register", 0, COMMAND_ERR_MISSING_ARG, NULL },
		{ "register 9lives", 0, COMMAND_ERR_BAD_NAME, NULL },
		{ "register any", 0, COMMAND_ERR_BAD_NAME, NULL },
		{ "register a", 0, COMMAND_ERR_BAD_NAME, NULL },
		{ "register abcdefghijklmnopqrstuvwxyz", 0,
		  COMMAND_ERR_BAD_NAME, NULL },
		{ "register c3e5", 0, COMMAND_ERR_BAD_NAME, NULL },
		{ "register swap", 0, COMMAND_ERR_BAD_NAME, NULL },
		{ "register al!ce", 0, COMMAND_ERR_BAD_NAME, NULL },
		{ "challenge bob timer=3d", 0,
		  COMMAND_ERR_UNKNOWN_OPTION, "timer" },
		{ "challenge bob size=big", 0,
		  COMMAND_ERR_BAD_OPTION, "size=big" },
		{ "challenge bob tax=paid", 0, COMMAND_ERR_BAD_OPTION, NULL },
		{ "challenge bob size", 0, COMMAND_ERR_BAD_OPTION, NULL },
		{ "challenge bob size=5 size=7", 0,
		  COMMAND_ERR_DUPLICATE_OPTION, NULL },
		{ "challenge", 0, COMMAND_ERR_MISSING_ARG, NULL },
		{ "accept", 0, COMMAND_ERR_MISSING_ARG, NULL },
		{ "accept twelve", 0, COMMAND_ERR_BAD_GAME, "twelve" },
		{ "accept 0", 0, COMMAND_ERR_BAD_GAME, NULL },
		{ "accept 12 13", 0, COMMAND_ERR_EXTRA_ARG, NULL },
		{ "move 12", 0, COMMAND_ERR_MISSING_ARG, "PLY" },
		{ "move 12 x c3-e5", 0, COMMAND_ERR_BAD_PLY, NULL },
		{ "move 12 7", 0, COMMAND_ERR_MISSING_ARG, "MOVE" },
		{ "move 12 7 z3=e5", 0, COMMAND_ERR_BAD_MOVE, NULL },
		{ "move 12 7 c3-e5/", 0, COMMAND_ERR_BAD_MOVE, NULL },
		{ "move 12 7 c3-e5 please", 0, COMMAND_ERR_EXTRA_ARG, NULL },
		{ "draw maybe 12", 0, COMMAND_ERR_BAD_DRAW, NULL },
		{ "draw offer", 0, COMMAND_ERR_MISSING_ARG, NULL });
	ck_assert_ptr_nonnull(command_error_string(COMMAND_ERR_BAD_NAME));
}
END_TEST

START_TEST(test_subject_commands)
{
	/* the one command a row's body holds (line 1) is of kind */
	static const struct {
		const char *subject, *body;
		int64_t thread;
		size_t count;
		bool ignored;
		enum command_kind kind;
	} rows[] = {
		/* No signature covers the Subject: it never runs, and the
		 * reply is told when it read as a command. */
		{ "register alice", "", 0, 0, true, COMMAND_INVALID },
		/* The same command in the body: it runs from there, once. */
		{ "Re: register alice", "register alice\n", 0, 1, false,
		  COMMAND_REGISTER },
		/* "Help!" in the Subject is the body's "help" */
		{ "Help!", "help\n", 0, 1, false, COMMAND_HELP },
		/* The outside test's case: body "board 2", Subject
		 * "resign 2". */
		{ "resign 2", "board 2\n", 0, 1, true, COMMAND_BOARD },
		/* A subject that is no command is simply no command. */
		{ "Hello there", "games\n", 0, 1, false, COMMAND_GAMES },
		{ "Re: [ashes #3] alice vs bob", "board\n", 3, 1, false,
		  COMMAND_BOARD },
		{ "Re: [ashes #3] Board", "", 3, 0, true, COMMAND_INVALID },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct command_list l = parse(rows[i].subject, rows[i].body,
					      rows[i].thread);

		ck_assert_msg(l.count == rows[i].count, "%s: %zu commands",
			      rows[i].subject, l.count);
		ck_assert_msg(l.subject_ignored == rows[i].ignored,
			      "%s: subject ignored %d", rows[i].subject,
			      (int)l.subject_ignored);
		if (l.count == 1) {
			ck_assert_int_eq(l.items[0].line, 1);
			ck_assert_int_eq(l.items[0].kind, rows[i].kind);
		}
		command_list_free(&l);
	}
}
END_TEST

START_TEST(test_thread_confirmed)
{
	static const char quoted[] =
		"c3-e5\n"
		"\n"
		"On Mon, Ashes wrote:\n"
		"> alice, it is your move in game 12.\n"
		"> Send back this line, with your move in place of MOVE:\n"
		">     move 12 7 MOVE\n";
	struct command_list l;

	ck_assert(command_thread_confirmed(quoted, strlen(quoted), 12));
	ck_assert(!command_thread_confirmed(quoted, strlen(quoted), 1));
	ck_assert(!command_thread_confirmed(quoted, strlen(quoted), 5));
	ck_assert(command_thread_confirmed("see [ashes #5] below", 20, 5));
	ck_assert(command_thread_confirmed("Game #5, please", 15, 5));
	ck_assert(!command_thread_confirmed("game 55", 7, 5));
	ck_assert(!command_thread_confirmed("endgame 5", 9, 5));
	ck_assert(!command_thread_confirmed("c3-e5\n", 6, 5));
	ck_assert(!command_thread_confirmed(NULL, 0, 5));
	/* headers name a game the text does not: a bare move is refused
	 * with its own reason, and a command without GAME misses it. */
	l = parsed_as(NULL, "c3-e5\n", -1, 1, 0, COMMAND_INVALID);
	ck_assert_int_eq(l.items[0].error, COMMAND_ERR_THREAD_UNCONFIRMED);
	command_list_free(&l);
	first_refused(NULL, "resign\n", -1, COMMAND_ERR_MISSING_ARG);
}
END_TEST

START_TEST(test_account_commands)
{
	struct command_list l;

	l = parsed_as(NULL, "confirm abcd2345kz\nkey replace\n", 0, 2,
		      0, COMMAND_CONFIRM);
	ck_assert_str_eq(l.items[0].code, "ABCD2345KZ");
	ck_assert_int_eq(l.items[1].kind, COMMAND_KEY_REPLACE);
	command_list_free(&l);
	first_refused(NULL, "confirm abc\n", 0, COMMAND_ERR_BAD_CODE);
	first_refused(NULL, "confirm abc-def-ghi\n", 0, COMMAND_ERR_BAD_CODE);
	first_refused(NULL, "key delete\n", 0, COMMAND_ERR_BAD_KEY_ACTION);
	first_refused(NULL, "confirm\n", 0, COMMAND_ERR_MISSING_ARG);
}
END_TEST

START_TEST(test_thread_game)
{
	char id[128];

	ck_assert_int_eq(command_thread_game("Re: [ashes #12] Your move", NULL,
					     NULL), 12);
	ck_assert_int_eq(command_thread_game("Re: [ASHES #7]", NULL, NULL), 7);
	ck_assert_int_eq(command_thread_game("Re: hello", NULL, NULL), 0);
	command_message_id(id, sizeof(id), 42, 8, 3, 1, NULL, "example.org");
	ck_assert_str_eq(id, "<ashes.42.8.3.1@example.org>");
	command_message_id(id, sizeof(id), 42, 8, 3, 1, "9f3a", "example.org");
	ck_assert_str_eq(id, "<ashes.42.8.3.1.9f3a@example.org>");
	ck_assert_int_eq(command_thread_game("Re: hello", id, "example.org"),
			 42);
	ck_assert_int_eq(command_thread_game(
		"Re: hello", "<x@y> <ashes.41.2.1.0@example.org> <ashes.42.8.3.1@example.org>",
		"example.org"), 42);
	/* A foreign domain's look-alike id does not count. */
	ck_assert_int_eq(command_thread_game(
		"Re: hello", "<ashes.42.8.3@evil.example>", "example.org"), 0);
}
END_TEST

START_TEST(test_subject_clean)
{
	char buf[64];

	command_subject_clean("Re: Fwd: [ashes #12] Your move", buf, sizeof(buf));
	ck_assert_str_eq(buf, "Your move");
	command_subject_clean("AW: RE: challenge bob", buf, sizeof(buf));
	ck_assert_str_eq(buf, "challenge bob");
	command_subject_clean(NULL, buf, sizeof(buf));
	ck_assert_str_eq(buf, "");
}
END_TEST

/* --- set, settings, message, undo, help topics, move shapes ------------ */

START_TEST(test_new_commands)
{
	struct command c;

	c = kind_is("set moves full", 0, COMMAND_SET);
	ck_assert_uint_eq(c.noptions, 1);
	ck_assert_str_eq(c.options[0].key, "moves");
	ck_assert_str_eq(c.options[0].value, "full");
	/* the key in lower case, the value as given */
	c = kind_is("SET Pictures=None", 0, COMMAND_SET);
	ck_assert_str_eq(c.options[0].key, "pictures");
	ck_assert_str_eq(c.options[0].value, "None");
	c = kind_is("settings", 0, COMMAND_SETTINGS);

	c = command_is("message 12 Good game, well played!", 0, COMMAND_MESSAGE, 12);
	ck_assert_str_eq(c.note, "Good game, well played!");
	c = command_is("Message #7:   see you   ", 0, COMMAND_MESSAGE, 7);
	ck_assert_str_eq(c.note, "see you");
	/* a note is a sentence: any number of words */
	c = line("message 3 one two three four five six seven eight nine ten "
		 "eleven twelve thirteen fourteen fifteen sixteen seventeen", 0);
	ck_assert_int_eq(c.kind, COMMAND_MESSAGE);
	ck_assert_str_eq(c.note + strlen(c.note) - 9, "seventeen");

	c = kind_is("offer undo 12", 0, COMMAND_UNDO);
	ck_assert_int_eq(c.undo, COMMAND_UNDO_OFFER);
	ck_assert_int_eq(c.game, 12);
	c = kind_is("accept undo #12", 0, COMMAND_UNDO);
	ck_assert_int_eq(c.undo, COMMAND_UNDO_ACCEPT);
	c = kind_is("Decline UNDO 12", 0, COMMAND_UNDO);
	ck_assert_int_eq(c.undo, COMMAND_UNDO_DECLINE);
	/* in the game's thread the game may be left off */
	c = command_is("offer undo", 5, COMMAND_UNDO, 5);
	/* the same words for a draw */
	c = kind_is("offer draw 12", 0, COMMAND_DRAW);
	ck_assert_int_eq(c.draw, COMMAND_DRAW_OFFER);
	c = kind_is("accept draw", 4, COMMAND_DRAW);
	ck_assert_int_eq(c.draw, COMMAND_DRAW_ACCEPT);
	ck_assert_int_eq(c.game, 4);
	c = line("decline draw 4", 0);
	ck_assert_int_eq(c.draw, COMMAND_DRAW_DECLINE);
	/* accept and decline still answer challenges */
	c = kind_is("accept 12", 0, COMMAND_ACCEPT);
	c = command_is("decline", 9, COMMAND_DECLINE, 9);
	/* a keyword with a sentence's mark after it is the keyword */
	c = kind_is("Help!", 0, COMMAND_HELP);
	c = kind_is("games?", 0, COMMAND_GAMES);
	ck_assert_str_eq(command_kind_name(COMMAND_UNDO), "undo");
	ck_assert_str_eq(command_kind_name(COMMAND_SET), "set");
	ck_assert_str_eq(command_kind_name(COMMAND_MESSAGE), "message");
	ck_assert_str_eq(command_kind_name(COMMAND_SETTINGS), "settings");
}
END_TEST

START_TEST(test_new_refusals)
{
	struct command c;
	char longer[400];

	REFUSED(
		{ "set", 0, COMMAND_ERR_MISSING_ARG, NULL },
		{ "set moves", 0, COMMAND_ERR_MISSING_ARG, "VALUE" },
		{ "set moves=", 0, COMMAND_ERR_MISSING_ARG, NULL },
		{ "set 12 on", 0, COMMAND_ERR_BAD_SETTING, "12" },
		{ "set averyveryverylongkey on", 0,
		  COMMAND_ERR_BAD_SETTING, NULL },
		{ "set moves full please", 0, COMMAND_ERR_EXTRA_ARG, "please" },
		{ "set moves abcdefghijklmnopqrstuvwxyzabcdefghij", 0,
		  COMMAND_ERR_BAD_VALUE, NULL },
		{ "settings now", 0, COMMAND_ERR_EXTRA_ARG, NULL });

	REFUSED(
		{ "message", 0, COMMAND_ERR_MISSING_ARG, "GAME" },
		{ "message 12", 0, COMMAND_ERR_MISSING_ARG, "TEXT" },
		{ "message 12    ", 0, COMMAND_ERR_MISSING_ARG, NULL });
	/* no thread fallback: "message me back" is no note to game 0 */
	refused("message me back", 12, COMMAND_ERR_BAD_GAME, NULL);
	memset(longer, 'a', sizeof(longer));
	memcpy(longer, "message 3 ", 10);
	longer[10 + COMMAND_TEXT_MAX] = '\0';
	c = refused(longer, 0, COMMAND_ERR_TEXT_TOO_LONG, NULL);
	ck_assert_str_eq(c.detail, "199");
	ck_assert_int_eq(c.game, 3);
	longer[10 + COMMAND_TEXT_MAX - 1] = '\0';
	c = kind_is(longer, 0, COMMAND_MESSAGE);
	ck_assert_uint_eq(strlen(c.note), COMMAND_TEXT_MAX - 1);

	/* a NUL byte ends the note: it must not leave it empty */
	ck_assert_int_eq(command_parse_line("message 3 \0x", 12, 0, &c), -1);
	ck_assert_int_eq(c.error, COMMAND_ERR_MISSING_ARG);
	ck_assert_int_eq(command_parse_line("message 3 hi\0x", 14, 0, &c), 0);
	ck_assert_str_eq(c.note, "hi");

	REFUSED(
		{ "offer", 0, COMMAND_ERR_MISSING_ARG, NULL },
		{ "offer peace 12", 0, COMMAND_ERR_BAD_OFFER, "peace" },
		{ "offer undo", 0, COMMAND_ERR_MISSING_ARG, NULL },
		{ "accept undo twelve", 0, COMMAND_ERR_BAD_GAME, NULL },
		{ "decline undo 12 13", 0, COMMAND_ERR_EXTRA_ARG, NULL });
	/* the new keywords are no player names */
	refused("register offer", 0, COMMAND_ERR_BAD_NAME, NULL);
	refused("challenge settings", 0, COMMAND_ERR_BAD_NAME, NULL);
	for (int e = COMMAND_OK; e <= COMMAND_ERR_TEXT_TOO_LONG; e++)
		ck_assert_str_ne(command_error_string((enum command_error)e),
				 "unknown error");
}
END_TEST

START_TEST(test_help_topics)
{
	struct command c;

	c = line("help", 0);
	ck_assert_str_eq(c.topic, "");
	ck_assert_str_eq(c.detail, "");
	c = kind_is("help rules", 0, COMMAND_HELP);
	ck_assert_str_eq(c.topic, "rules");
	c = line("HELP Move", 0);
	ck_assert_str_eq(c.topic, "move");
	c = line("help challenge?", 0);
	ck_assert_str_eq(c.topic, "challenge");
	c = line("help undo", 0);
	ck_assert_str_eq(c.topic, "undo");
	c = line("help offer", 0);
	ck_assert_str_eq(c.topic, "offer");
	c = line("help set", 0);
	ck_assert_str_eq(c.topic, "set");
	/* no topic: the general help, saying so */
	c = kind_is("help me please, I am lost", 0, COMMAND_HELP);
	ck_assert_str_eq(c.topic, "");
	ck_assert_str_eq(c.detail, "me please, I am lost");
	ck_assert_str_eq(c.suggestion, "");
	c = line("help mvoe", 0);
	ck_assert_str_eq(c.topic, "");
	ck_assert_str_eq(c.detail, "mvoe");
	ck_assert_str_eq(c.suggestion, "move");
	c = line("help rulez", 0);
	ck_assert_str_eq(c.suggestion, "rules");
	c = line("help move 12", 0);
	ck_assert_str_eq(c.topic, "");
	ck_assert_str_eq(c.detail, "move 12");
}
END_TEST

/* What the parser takes for a move: anything shaped FROM-TO of cell-like
 * parts, a letter and 1 to 3 digits, as the rules core reads it; which
 * cells exist is the core's to say ("z9": no such cell). */
START_TEST(test_move_shapes)
{
	static const char *const moves[] = {
		"z9-a1", "a1-z99", "Z9A1", "c3xe5", "c3Xe5", "c3e5/12",
		"m13-m1", "x3-e5", "c3-x5", "a100-b1", "swap", "PASS",
	};
	static const char *const not_moves[] = {
		"c3", "c3-", "-e5", "c3-e5/", "c3-e5/x", "c3--e5", "c3x5",
		"aa1-b2", "c3-e5-g7", "c1234-e5", "c3=e5", "3c-5e", "c3-e5/2/1",
		"\xc3\xa9" "1-e5",
	};
	struct command c;
	char buf[64];

	for (size_t i = 0; i < sizeof(moves) / sizeof(moves[0]); i++) {
		snprintf(buf, sizeof(buf), "move 1 1 %s", moves[i]);
		c = line(buf, 0);
		ck_assert_msg(c.kind == COMMAND_MOVE, "%s", moves[i]);
		c = line(moves[i], 7);
		ck_assert_msg(c.kind == COMMAND_MOVE && c.bare && c.game == 7,
			      "bare %s", moves[i]);
	}
	for (size_t i = 0; i < sizeof(not_moves) / sizeof(not_moves[0]); i++) {
		snprintf(buf, sizeof(buf), "move 1 1 %s", not_moves[i]);
		c = line(buf, 0);
		ck_assert_msg(c.kind == COMMAND_INVALID &&
			      c.error == COMMAND_ERR_BAD_MOVE, "%s",
			      not_moves[i]);
	}
	/* the case: z9 is a cell of no board, so the service says
	 * "no such cell", not "not a move" */
	c = kind_is("move 1 1 z9-a1", 0, COMMAND_MOVE);
	ck_assert_str_eq(c.move, "z9-a1");
	/* a name that reads as a move is still no name */
	refused("register z3e5", 0, COMMAND_ERR_BAD_NAME, NULL);
}
END_TEST

/* A refused line still names its game when it holds one, so the reply
 * goes to the game's thread. */
START_TEST(test_refused_line_keeps_game)
{
	static const struct {
		const char *text;
		enum command_error err;
		int64_t game;
	} rows[] = {
		{ "move 1 x c3-e5", COMMAND_ERR_BAD_PLY, 1 },
		{ "move 4 2 c3-e5/", COMMAND_ERR_BAD_MOVE, 4 },
		{ "draw maybe 12", COMMAND_ERR_BAD_DRAW, 12 },
		{ "resign #12 now", COMMAND_ERR_EXTRA_ARG, 12 },
		{ "offer peace 3", COMMAND_ERR_BAD_OFFER, 3 },
		{ "mvoe 12 3 c3-e5", COMMAND_ERR_UNKNOWN, 12 },
		/* no game where the line has no GAME: a code is no game
		 * number */
		{ "confirm 12345", COMMAND_ERR_BAD_CODE, 0 },
		{ "frobnicate 12", COMMAND_ERR_UNKNOWN, 0 },
		{ "challenge bob size=99 12", COMMAND_ERR_UNKNOWN_OPTION, 0 },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		kind_is(rows[i].text, 0, COMMAND_INVALID);
		refused(rows[i].text, 0, rows[i].err, NULL);
		game_is(rows[i].text, 0, rows[i].game);
	}
}
END_TEST

/* `challenge bot` is a row of its own: the second word picks it */
START_TEST(test_challenge_bot)
{
	struct command c = line("Challenge BOT level=3 size=5", 0);

	ck_assert_int_eq(c.kind, COMMAND_CHALLENGE_BOT);
	ck_assert_str_eq(c.name, "bot");
	ck_assert_int_eq(c.level, 3);
	ck_assert_uint_eq(c.noptions, 1);
	ck_assert_str_eq(command_kind_name(c.kind), "challenge");
	REFUSED(
		{ "challenge bot level=2 level=3", 0,
		  COMMAND_ERR_DUPLICATE_OPTION, NULL },
		{ "challenge bot level=0", 0, COMMAND_ERR_BAD_OPTION, NULL },
		{ "challenge bot!", 0, COMMAND_ERR_BAD_NAME, NULL });
	ck_assert_int_eq(line("challenge bob", 0).kind, COMMAND_CHALLENGE);
}
END_TEST

TEST_MAIN("command", "parse", NULL, NULL, 0,
	  test_each_command, test_bare_moves, test_refusals,
	  test_subject_commands, test_thread_confirmed, test_account_commands,
	  test_thread_game, test_subject_clean, test_new_commands,
	  test_new_refusals, test_help_topics, test_move_shapes,
	  test_refused_line_keeps_game, test_challenge_bot)
