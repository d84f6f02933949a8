/* test_flowed.c -- RFC 3676 format=flowed decoding (src/mail/flowed.c):
 * the RFC's rules one by one, and the lines Thunderbird writes. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "mail/flowed.h"
#include "mail/inbound.h"
#include "util/buf.h"
#include "../check_run.h"

/* in decoded as a part with format=flowed (and DelSp=yes if delsp). */
static char *decode(const char *in, bool delsp)
{
	struct buf out = BUF_INIT;

	buf_puts(&out, in);
	flowed_decode_buf("flowed", delsp ? "yes" : NULL, &out);
	return buf_steal(&out);
}

/* Does "a \nb\n" in a part with these parameters come out as want? */
static bool params_give(const char *format, const char *delsp,
			const char *want)
{
	struct buf b = BUF_INIT;
	bool same;

	buf_puts(&b, "a \nb\n");
	flowed_decode_buf(format, delsp, &b);
	same = strcmp(buf_str(&b), want) == 0;
	buf_free(&b);
	return same;
}

static bool is_flowed(const char *format)
{
	return params_give(format, NULL, "a b\n");
}

static bool delsp(const char *value)
{
	return params_give("flowed", value, "ab\n");
}

#define CHECK_DECODE(in, delsp, want) do {			\
		char *got_ = decode(in, delsp);			\
		ck_assert_str_eq(got_, want);			\
		free(got_);					\
	} while (0)

START_TEST(test_params)
{
	ck_assert(is_flowed("flowed"));
	ck_assert(is_flowed("Flowed"));
	ck_assert(is_flowed("\"flowed\""));
	ck_assert(!is_flowed("fixed"));
	ck_assert(!is_flowed(NULL));
	ck_assert(!is_flowed("flowedx"));
	ck_assert(delsp("yes"));
	ck_assert(delsp("Yes"));
	ck_assert(delsp("\"yes\""));
	ck_assert(!delsp("no"));
	ck_assert(!delsp(NULL));
}
END_TEST

/* RFC 3676 4.1: a line ending in a space is joined with the next; the
 * space stays (DelSp=no); a line without one ends the paragraph. */
START_TEST(test_soft_break)
{
	CHECK_DECODE("This is a \nflowed paragraph.\nFixed.\n", false,
		     "This is a flowed paragraph.\nFixed.\n");
	CHECK_DECODE("a \nb \nc\n", false, "a b c\n");
	/* a hard break: no trailing space */
	CHECK_DECODE("one\ntwo\n", false, "one\ntwo\n");
}
END_TEST

/* RFC 3676 4.2 / 4.5: DelSp=yes deletes the one space that marks the
 * soft break, for text where no space is at the wrap. */
START_TEST(test_delsp)
{
	CHECK_DECODE("abc \ndef\n", true, "abcdef\n");
	CHECK_DECODE("abc  \ndef\n", true, "abc def\n");
	CHECK_DECODE("abc \ndef\n", false, "abc def\n");
}
END_TEST

/* RFC 3676 4.4: a line starting with a space, "From " or ">" that is
 * not a quote is stuffed with one space; the reader takes it off. */
START_TEST(test_space_stuffing)
{
	CHECK_DECODE(" From here\n", false, "From here\n");
	CHECK_DECODE(" >not a quote\n", false, ">not a quote\n");
	CHECK_DECODE("  two spaces\n", false, " two spaces\n");
	/* stuffed and flowed */
	CHECK_DECODE(" From a \n b\n", false, "From a b\n");
}
END_TEST

/* RFC 3676 4.5: quote depth is the count of '>'; a soft break never
 * joins lines of different depth. */
START_TEST(test_quote_depth)
{
	CHECK_DECODE("> quoted \n> more\n", false, "> quoted more\n");
	CHECK_DECODE(">> deep \n>> er\n", false, ">> deep er\n");
	CHECK_DECODE("> one \n>> two\n", false, "> one \n>> two\n");
	CHECK_DECODE("> quoted \nnot quoted\n", false,
		     "> quoted \nnot quoted\n");
	CHECK_DECODE(">no space \n>after\n", false, "> no space after\n");
	CHECK_DECODE("text \n> quote\n", false, "text \n> quote\n");
}
END_TEST

/* RFC 3676 4.3: "-- " is the signature separator, never flowed, and
 * the line before it is not joined to it. */
START_TEST(test_signature)
{
	CHECK_DECODE("move 3 a1-b2\n-- \nTina\n", false,
		     "move 3 a1-b2\n-- \nTina\n");
	CHECK_DECODE("last \n-- \nTina\n", false, "last \n-- \nTina\n");
	CHECK_DECODE("> -- \n> Bob\n", false, "> -- \n> Bob\n");
	/* what follows the separator flows as usual */
	CHECK_DECODE("-- \nsig \nline\n", false, "-- \nsig line\n");
}
END_TEST

/* CRLF or LF, a missing last line end, an empty text. */
START_TEST(test_line_ends)
{
	CHECK_DECODE("a \r\nb\r\nc\r\n", false, "a b\nc\n");
	CHECK_DECODE("a \r\nb", false, "a b\n");
	CHECK_DECODE("a \n", false, "a \n");
	CHECK_DECODE("", false, "");
	CHECK_DECODE("\n\n", false, "\n\n");
}
END_TEST

/* A line of only spaces: one space is stuffing (an empty line); more
 * are a flowed line that joins the next. */
START_TEST(test_only_spaces)
{
	CHECK_DECODE("a\n \nb\n", false, "a\n\nb\n");
	CHECK_DECODE("a\n  \nb\n", false, "a\n b\n");
	CHECK_DECODE("a\n   \nb\n", true, "a\n b\n");
}
END_TEST

/* What Thunderbird writes for a long line: wrapped at 72 columns with a
 * space at each wrap (DelSp=no), as nsIMsgCompose's OutputFormatFlowed
 * serialiser does. */
START_TEST(test_thunderbird_challenge)
{
	CHECK_DECODE("challenge tina colour=white clock=days:3 weekends=off "
		     "\ndraw=no\n", false,
		     "challenge tina colour=white clock=days:3 weekends=off "
		     "draw=no\n");
	CHECK_DECODE("message 12 Thanks for the game yesterday, that "
		     "endgame was a real \nfight and I enjoyed every "
		     "minute of it, see you next week then!\n", false,
		     "message 12 Thanks for the game yesterday, that endgame "
		     "was a real fight and I enjoyed every minute of it, see "
		     "you next week then!\n");
}
END_TEST

START_TEST(test_decode_buf)
{
	struct buf b = BUF_INIT;

	buf_puts(&b, "a \nb\n");
	flowed_decode_buf("fixed", NULL, &b);
	ck_assert_str_eq(b.data, "a \nb\n");
	flowed_decode_buf("flowed", "yes", &b);
	ck_assert_str_eq(b.data, "ab\n");
	buf_free(&b);
}
END_TEST

/* Through inbound_parse: an unsigned Thunderbird-shaped part, and Apple
 * Mail's DelSp=yes; a part without format=flowed is left as it is. */
static char *parse_text(const char *raw)
{
	static const char *const ours[] = { "ashes@club.example", NULL };
	struct inbound_options o = { .our_addrs = ours, .now = 1800000000 };
	struct inbound_msg *msg = NULL;
	const char *err = NULL;
	char *text;

	ck_assert_msg(inbound_parse(raw, strlen(raw), &o, &msg, &err) == 0,
		      "%s", err);
	text = strdup(msg->text);
	inbound_msg_free(&msg);
	return text;
}

#define HDRS "From: Tina <tina@example.org>\r\nTo: ashes@club.example\r\n" \
	"Subject: hi\r\nMessage-ID: <f1@example.org>\r\nMIME-Version: 1.0\r\n"

START_TEST(test_inbound_flowed)
{
	char *t;

	t = parse_text(HDRS "Content-Type: text/plain; charset=UTF-8; "
		       "format=flowed\r\nContent-Transfer-Encoding: 7bit\r\n"
		       "\r\nchallenge tina clock=days:3 \r\ndraw=no\r\n");
	ck_assert_str_eq(t, "challenge tina clock=days:3 draw=no\n");
	free(t);
	t = parse_text(HDRS "Content-Type: text/plain; charset=utf-8; "
		       "format=flowed; DelSp=yes\r\n\r\nmessage 3 long"
		       "word \r\ncontinued\r\n");
	ck_assert_str_eq(t, "message 3 longwordcontinued\n");
	free(t);
	t = parse_text(HDRS "Content-Type: text/plain; charset=UTF-8\r\n"
		       "\r\nchallenge tina \r\ndraw=no\r\n");
	ck_assert_str_eq(t, "challenge tina \ndraw=no\n");
	free(t);
}
END_TEST

TEST_MAIN("flowed", "rfc3676", NULL, NULL, 0, test_params, test_soft_break,
	  test_delsp, test_space_stuffing, test_quote_depth, test_signature,
	  test_line_ends, test_only_spaces, test_thunderbird_challenge,
	  test_decode_buf, test_inbound_flowed)
