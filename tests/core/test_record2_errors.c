/* test_record2_errors.c -- every malformed line of a version 2 game
 * record is refused with its code and its line number.
 */
#include "record2-test.h"
#include "../check_run.h"

/* ---- Malformed lines ---- */

START_TEST(t_errors_header)
{
	struct record2_fault f;
	char long_line[RECORD2_LINE_MAX + 64];
	static const char nul[] = "ashes-record 2\nWhite: a\0b\n";

	parse_fails("", RECORD2_ERR_EMPTY, 0);
	parse_fails("ashes-record 3\n", RECORD2_ERR_MAGIC, 1);
	parse_fails("ashes-record 2", RECORD2_ERR_TRUNCATED, 2);
	parse_fails("ashes-record 2\nVariant: size=5 tax=removed\n",
		    RECORD2_ERR_TRUNCATED, 3);
	parse_fails_len(nul, sizeof(nul) - 1, RECORD2_ERR_NUL, 2);
	snprintf(long_line, sizeof(long_line), "ashes-record 2\nEvent: %*s\n",
		 RECORD2_LINE_MAX, "x");
	parse_fails(long_line, RECORD2_ERR_LINE_LONG, 2);
	/* Not UTF-8, or a control character. */
	parse_fails("ashes-record 2\nWhite: \xff\n", RECORD2_ERR_ENCODING, 2);
	parse_fails("ashes-record 2\nWhite: a\x01z\n", RECORD2_ERR_ENCODING, 2);
	parse_fails("ashes-record 2\nWhite: \xc2\x85\n", RECORD2_ERR_ENCODING,
		    2); /* C1 NEL */
	parse_fails("ashes-record 2\nWhite: \xc0\xaf\n", RECORD2_ERR_ENCODING,
		    2); /* overlong '/' */
	parse_fails("ashes-record 2\nWhite: \xed\xa0\x80\n",
		    RECORD2_ERR_ENCODING, 2); /* a surrogate */
	parse_fails("ashes-record 2\nWhite: Zo\xc3\n", RECORD2_ERR_ENCODING, 2);
	/* Tags. */
	parse_fails("ashes-record 2\nwhite: alice\n", RECORD2_ERR_TAG, 2);
	parse_fails("ashes-record 2\nWhite:alice\n", RECORD2_ERR_TAG, 2);
	parse_fails("ashes-record 2\nWhite alice\n", RECORD2_ERR_TAG, 2);
	parse_fails("ashes-record 2\nWhite:\n", RECORD2_ERR_TAG, 2);
	parse_fails("ashes-record 2\nWhite: \n", RECORD2_ERR_TAG_VALUE, 2);
	parse_fails("ashes-record 2\nWhite:  alice\n", RECORD2_ERR_TAG_VALUE,
		    2);
	parse_fails("ashes-record 2\nEvent: casual\nWhite: alice \n",
		    RECORD2_ERR_TAG_VALUE, 3);
	parse_fails("ashes-record 2\nGame: 042\n", RECORD2_ERR_TAG_VALUE, 2);
	parse_fails("ashes-record 2\nGame: 4x\n", RECORD2_ERR_TAG_VALUE, 2);
	parse_fails("ashes-record 2\nSite: ashes example.org\n",
		    RECORD2_ERR_TAG_VALUE, 2);
	parse_fails("ashes-record 2\nSite: ashes-.org\n",
		    RECORD2_ERR_TAG_VALUE, 2);
	f = parse_fails("ashes-record 2\nWhite: a\nBlack: b\nWhite: c\n",
			RECORD2_ERR_TAG_TWICE, 4);
	ck_assert_str_eq(f.tag, "White");
	/* Fingerprints: 40 or 64 upper-case hex digits. */
	parse_fails("ashes-record 2\nWhiteKey: "
		    "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678\n",
		    RECORD2_ERR_FINGERPRINT, 2);
	f = parse_fails("ashes-record 2\nEvent: x\nBlackKey: "
			"A1B2C3D4E5F60718293A4B5C6D7E8F901234567\n",
			RECORD2_ERR_FINGERPRINT, 3);
	ck_assert_str_eq(f.tag, "BlackKey");
	parse_fails("ashes-record 2\nWhiteKey: 6D7E8F9012345678\n",
		    RECORD2_ERR_FINGERPRINT, 2);
	/* Times. */
	parse_fails("ashes-record 2\nDate: 2026-02-29T00:00:00Z\n",
		    RECORD2_ERR_TIME, 2);
	parse_fails("ashes-record 2\nDate: 2026-12-01 10:00:00\n",
		    RECORD2_ERR_TIME, 2);
	parse_fails("ashes-record 2\nEndDate: 2026-12-01T24:00:00Z\n",
		    RECORD2_ERR_TIME, 2);
	/* The variant, as core_variant_format() writes it. */
	f = parse_fails("ashes-record 2\nVariant: size=14 tax=removed\n",
			RECORD2_ERR_VARIANT, 2);
	ck_assert_int_eq(f.core_err, CORE_ERR_BAD_SIZE);
	f = parse_fails("ashes-record 2\nVariant: swap size=5 tax=removed\n",
			RECORD2_ERR_VARIANT, 2);
	ck_assert_int_eq(f.core_err, CORE_ERR_BAD_VARIANT);
	parse_fails("ashes-record 2\nVariant: size=5\n", RECORD2_ERR_VARIANT,
		    2);
	parse_fails("ashes-record 2\nVariant: size=5  tax=removed\n",
		    RECORD2_ERR_VARIANT, 2);
	/* Result and termination. */
	parse_fails("ashes-record 2\nResult: 2-0\n", RECORD2_ERR_RESULT, 2);
	parse_fails("ashes-record 2\nTermination: draw rule\n",
		    RECORD2_ERR_TERMINATION, 2);
	f = parse_fails("ashes-record 2\nVariant: size=5 tax=removed\n"
			"Termination: agreement\nResult: 1-0\n\n" ONGOING,
			RECORD2_ERR_RESULT_TERMINATION, 3);
	ck_assert_str_eq(f.tag, "Termination");
	parse_fails("ashes-record 2\nVariant: size=5 tax=removed\n"
		    "Result: *\nTermination: resignation\n\n" ONGOING,
		    RECORD2_ERR_RESULT_TERMINATION, 4);
	f = parse_fails("ashes-record 2\nVariant: size=5 tax=removed\n"
			"Termination: ongoing\n\n" ONGOING,
			RECORD2_ERR_TAG_MISSING, 4);
	ck_assert_str_eq(f.tag, "Result");
	f = parse_fails("ashes-record 2\nResult: *\nTermination: ongoing\n\n",
			RECORD2_ERR_TAG_MISSING, 4);
	ck_assert_str_eq(f.tag, "Variant");
}
END_TEST

START_TEST(t_errors_plies)
{
	struct record2_fault f;

	/* Plies count 1, 2, 3. */
	f = parse_fails(HEAD "2. e5-a1\n" ONGOING, RECORD2_ERR_PLY_NUMBER, 6);
	ck_assert_uint_eq(f.ply, 1);
	ck_assert_uint_eq(f.numbered, 2);
	f = parse_fails(HEAD "1. e5-a1\n3. e5-i9\n" ONGOING,
			RECORD2_ERR_PLY_NUMBER, 7);
	ck_assert_uint_eq(f.ply, 2);
	ck_assert_uint_eq(f.numbered, 3);
	parse_fails(HEAD "1. e5-a1\n1. e5-i9\n" ONGOING,
		    RECORD2_ERR_PLY_NUMBER, 7);
	parse_fails(HEAD "01. e5-a1\n" ONGOING, RECORD2_ERR_PLY_NUMBER, 6);
	parse_fails(HEAD "1.e5-a1\n" ONGOING, RECORD2_ERR_PLY_NUMBER, 6);
	parse_fails(HEAD "1 e5-a1\n" ONGOING, RECORD2_ERR_PLY_NUMBER, 6);
	/* Moves in canonical notation, on the board. */
	f = parse_fails(HEAD "1. E5-A1\n" ONGOING, RECORD2_ERR_MOVE, 6);
	ck_assert_uint_eq(f.ply, 1);
	parse_fails(HEAD "1. e5a1\n" ONGOING, RECORD2_ERR_MOVE, 6);
	parse_fails(HEAD "1. e5-a1/02\n" ONGOING, RECORD2_ERR_MOVE, 6);
	parse_fails(HEAD "1. e5-a01\n" ONGOING, RECORD2_ERR_MOVE, 6);
	parse_fails(HEAD "1. e5-z9\n" ONGOING, RECORD2_ERR_MOVE, 6);
	parse_fails(HEAD "1. e5-a9\n" ONGOING, RECORD2_ERR_MOVE, 6);
	parse_fails(HEAD "1. pass\n" ONGOING, RECORD2_ERR_MOVE, 6);
	parse_fails(HEAD "1. e5-a1 (forced)\n" ONGOING, RECORD2_ERR_MOVE, 6);
	parse_fails(HEAD "1. e5-a1\n2. Swap\n" ONGOING, RECORD2_ERR_MOVE, 7);
	/* Annotations on the first ply (line 6) that do not read. */
	{
		static const char *const bad_notes[] = {
			HEAD "1. e5-a1 {}\n" ONGOING,
			HEAD "1. e5-a1 {at=" AT "\n" ONGOING,
			HEAD "1. e5-a1  {at=" AT "}\n" ONGOING,
			HEAD "1. e5-a1 {at=" AT "} \n" ONGOING,
			HEAD "1. e5-a1 {at=" AT "  sha256=" SHA "}\n" ONGOING,
			/* out of order */
			HEAD "1. e5-a1 {at=" AT " key=" KEY_W "}\n" ONGOING,
			/* twice */
			HEAD "1. e5-a1 {at=" AT " at=" AT "}\n" ONGOING,
			HEAD "1. e5-a1 {by=white}\n" ONGOING, /* unknown */
			HEAD "1. e5-a1 {ply=1}\n" ONGOING, /* not on a ply */
			HEAD "1. e5-a1 {at}\n" ONGOING,
		};

		for (size_t i = 0; i < sizeof(bad_notes) / sizeof(bad_notes[0]);
		     i++)
			parse_fails(bad_notes[i], RECORD2_ERR_ANNOTATION, 6);
	}
	parse_fails("ashes-record 2\nVariant: size=5 tax=removed\n"
		    "TimeControl: days:3\nResult: *\nTermination: ongoing\n\n"
		    "1. e5-a1 {clock=086400}\n" ONGOING,
		    RECORD2_ERR_ANNOTATION, 7);
	parse_fails("ashes-record 2\nVariant: size=5 tax=removed\n"
		    "TimeControl: days:3\nResult: *\nTermination: ongoing\n\n"
		    "1. e5-a1 {clock=-5}\n" ONGOING,
		    RECORD2_ERR_ANNOTATION, 7);
	/* The signer, the time, the hash. */
	f = parse_fails(HEAD "1. e5-a1 {key=" KEY_W "}\n2. e5-i9 {key="
			"1706f5e4d3c2b1a0}\n" ONGOING,
			RECORD2_ERR_FINGERPRINT, 7);
	ck_assert_uint_eq(f.ply, 2);
	parse_fails(HEAD "1. e5-a1 {key=6D7E8F901234567}\n" ONGOING,
		    RECORD2_ERR_FINGERPRINT, 6);
	parse_fails(HEAD "1. e5-a1 {at=2026-13-01T10:00:00Z}\n" ONGOING,
		    RECORD2_ERR_TIME, 6);
	parse_fails(HEAD "1. e5-a1 {at=2026-12-01T10:00:00}\n" ONGOING,
		    RECORD2_ERR_TIME, 6);
	parse_fails(HEAD "1. e5-a1 {sha256=9D8FE67F29CA1ECA40B789EBC89F0075"
		    "69E0A927FE28288CFD1540F93E8B7542}\n" ONGOING,
		    RECORD2_ERR_SHA256, 6);
	parse_fails(HEAD "1. e5-a1 {sha256=9d8fe67f29ca1eca40b789ebc89f0075"
		    "69e0a927fe28288cfd1540f93e8b754}\n" ONGOING,
		    RECORD2_ERR_SHA256, 6);
	/* A clock only in a game with one. */
	parse_fails(HEAD "1. e5-a1 {clock=86400}\n" ONGOING,
		    RECORD2_ERR_CLOCK, 6);
	parse_fails("ashes-record 2\nVariant: size=5 tax=removed\n"
		    "TimeControl: none\nResult: *\nTermination: ongoing\n\n"
		    "1. e5-a1 {clock=86400}\n" ONGOING, RECORD2_ERR_CLOCK, 7);
	/* A forced pass has no signer and no mail. */
	parse_fails(HEAD "1. pass (forced) {key=" KEY_W "}\n" ONGOING,
		    RECORD2_ERR_PASS_SIGNED, 6);
	parse_fails(HEAD "1. pass (forced) {sha256=" SHA "}\n" ONGOING,
		    RECORD2_ERR_PASS_SIGNED, 6);
	/* Lines that are none of ply, comment or result. */
	parse_fails(HEAD "1. e5-a1\n\n" ONGOING, RECORD2_ERR_LINE, 7);
	parse_fails(HEAD "# a note\n" ONGOING, RECORD2_ERR_LINE, 6);
	parse_fails(HEAD ";message {at=" AT "} hi\n" ONGOING,
		    RECORD2_ERR_LINE, 6);
}
END_TEST

START_TEST(t_errors_comments_result)
{
	struct record2_fault f;

	parse_fails(HEAD "; Message {at=" AT "} hi\n" ONGOING,
		    RECORD2_ERR_COMMENT, 6);
	parse_fails(HEAD "; message\n" ONGOING, RECORD2_ERR_COMMENT, 6);
	parse_fails(HEAD "; message hi\n" ONGOING, RECORD2_ERR_COMMENT, 6);
	parse_fails(HEAD "; message {at=" AT "}\n" ONGOING,
		    RECORD2_ERR_TEXT, 6);
	parse_fails(HEAD "; message {at=" AT "}  hi\n" ONGOING,
		    RECORD2_ERR_TEXT, 6);
	parse_fails(HEAD "; message {key=" KEY_W "} hi\n" ONGOING,
		    RECORD2_ERR_ANNOTATION, 6); /* no time */
	parse_fails(HEAD "; message {at=" AT " clock=5} hi\n" ONGOING,
		    RECORD2_ERR_ANNOTATION, 6);
	parse_fails(HEAD "; clock {side=white at=" AT "}\n" ONGOING,
		    RECORD2_ERR_ANNOTATION, 6);
	parse_fails(HEAD "; clock {side=white seconds=60 at=" AT "}\n"
		    ONGOING, RECORD2_ERR_ANNOTATION, 6);
	parse_fails(HEAD "; clock {side=white seconds=-0 at=" AT "}\n"
		    ONGOING, RECORD2_ERR_ANNOTATION, 6);
	parse_fails(HEAD "; clock {side=red seconds=+60 at=" AT "}\n"
		    ONGOING, RECORD2_ERR_ANNOTATION, 6);
	parse_fails(HEAD "; clock {side=white seconds=+60 at=" AT "} \n"
		    ONGOING, RECORD2_ERR_TEXT, 6);
	parse_fails(HEAD "; vacation {side=white days=0 at=" AT "}\n"
		    ONGOING, RECORD2_ERR_ANNOTATION, 6);
	parse_fails(HEAD "; vacation {side=white days=2 at=2026-12-01}\n"
		    ONGOING, RECORD2_ERR_TIME, 6);
	parse_fails(HEAD "; undo {at=" AT "}\n" ONGOING,
		    RECORD2_ERR_ANNOTATION, 6);
	parse_fails(HEAD "; undo {ply=1 key=" KEY_W " at=" AT " sha256="
		    "XYZ}\n" ONGOING, RECORD2_ERR_SHA256, 6);
	/* What was taken back came after the plies that stand. */
	parse_fails(HEAD "1. e5-a1\n; undo {ply=1 at=" AT "}\n" ONGOING,
		    RECORD2_ERR_COMMENT, 7);
	f = parse_fails(HEAD "1. e5-a1\n; undone 1. e5-i9\n" ONGOING,
			RECORD2_ERR_COMMENT, 7);
	ck_assert_uint_eq(f.ply, 1);
	f = parse_fails(HEAD "1. e5-a1\n; undone 2. e5-q9\n" ONGOING,
			RECORD2_ERR_MOVE, 7);
	ck_assert_uint_eq(f.ply, 2);
	parse_fails(HEAD "; undone 1. e5-a1 {key=" KEY_W "x}\n" ONGOING,
		    RECORD2_ERR_FINGERPRINT, 6);
	parse_fails(HEAD "; note-\xc2\x85 x\n" ONGOING, RECORD2_ERR_ENCODING,
		    6);
	parse_fails(HEAD "; note x \n" ONGOING, RECORD2_ERR_TEXT, 6);
	/* The result line. */
	parse_fails(HEAD "result: 1-0 (resignation)\n",
		    RECORD2_ERR_RESULT_LINE, 6);
	parse_fails(HEAD "result: *\n", RECORD2_ERR_RESULT_LINE, 6);
	parse_fails(HEAD "result: * ongoing\n", RECORD2_ERR_RESULT_LINE, 6);
	parse_fails(HEAD "result: 3-0 (ongoing)\n", RECORD2_ERR_RESULT, 6);
	parse_fails(HEAD "result: * (running)\n", RECORD2_ERR_TERMINATION, 6);
	parse_fails(HEAD "1. e5-a1\n", RECORD2_ERR_TRUNCATED, 7);
	parse_fails(HEAD, RECORD2_ERR_TRUNCATED, 6);
	parse_fails(HEAD ONGOING "\n", RECORD2_ERR_AFTER_RESULT, 7);
	parse_fails(HEAD ONGOING "1. e5-a1\n", RECORD2_ERR_AFTER_RESULT, 7);
	/* Every error has a code word. */
	for (int e = 0; e < RECORD2_ERR_COUNT; e++)
		ck_assert_str_ne(record2_error_name((enum record2_error)e),
				 "unknown");
	ck_assert_str_eq(record2_error_name(RECORD2_ERR_PLY_NUMBER),
			 "ply_number");
	ck_assert_str_eq(record2_error_name(RECORD2_ERR_COUNT), "unknown");
}
END_TEST

TEST_MAIN("core record2 errors", "record2 errors", NULL, NULL, 0,
	  t_errors_header, t_errors_plies, t_errors_comments_result)
