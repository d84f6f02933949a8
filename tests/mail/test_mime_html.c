/* test_mime_html.c -- an HTML-only mail's text as the daemon reads it
 * (html.c): the quoted part of a reply, as each mail client marks it,
 * stands as one "> (quoted text)" line, so that a command quoted from an
 * earlier mail is not played again. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "mail/inbound.h"
#include "mail/mime.h"
#include "util/buf.h"
#include "../check_run.h"
#include "inbound_test.h"

#define HDRS "From: Bob <bob@example.org>\nTo: ashes@club.example\n" \
	"Subject: game 7\nMessage-ID: <m1@example.org>\n"

static char *html_text(const char *html)
{
	struct buf b = BUF_INIT;

	mime_html_to_text(html, strlen(html), &b);
	buf_puts(&b, "");
	return buf_steal(&b);
}

#define ck_html(html, want) do {				\
		char *got_ = html_text(html);			\
		ck_assert_str_eq(got_, want);			\
		free(got_);					\
	} while (0)

START_TEST(test_html_quote_thunderbird)
{
	struct inbound_msg *m = parse(HDRS
		"MIME-Version: 1.0\nContent-Type: text/html; charset=UTF-8\n\n"
		"<html><head><meta http-equiv=\"content-type\" content=\"text/html; charset=UTF-8\">"
		"</head><body><p>board 5</p>\n"
		"<div class=\"moz-cite-prefix\">On 1/2/27 10:00, Bob wrote:<br></div>\n"
		"<blockquote type=\"cite\" cite=\"mid:m0@example.org\">resign 5<br>\n"
		"<blockquote type=\"cite\">draw offer 5</blockquote>resign 6</blockquote>\n"
		"<br></body></html>\n");

	ck_assert_int_eq(m->problem, INBOUND_OK);
	ck_assert_str_eq(m->text, "board 5\n> (quoted text)\n");
	inbound_msg_free(&m);
}
END_TEST

START_TEST(test_html_quote_gmail)
{
	ck_html("<div dir=\"ltr\">move 7 a1-b2</div><br><div class=\"gmail_quote gmail_quote_container\">"
		"<div dir=\"ltr\" class=\"gmail_attr\">On Fri, Jan 2, 2027 at 10:00 AM Bob "
		"&lt;bob@example.org&gt; wrote:<br></div><blockquote class=\"gmail_quote\" "
		"style=\"margin:0px 0px 0px 0.8ex;border-left:1px solid rgb(204,204,204);"
		"padding-left:1ex\"><div dir=\"ltr\">resign 7<div><br></div></div></blockquote></div>"
		"<div>-- </div>",
		"move 7 a1-b2\n\n> (quoted text)\n--\n");
	/* older Gmail: the quote div alone */
	ck_html("<div>board 1</div><DIV CLASS=gmail_quote><div>resign 1</div></DIV><p>ok</p>",
		"board 1\n> (quoted text)\nok\n");
}
END_TEST

START_TEST(test_html_quote_outlook)
{
	ck_html("<div class=\"elementToProof\" style=\"font-family: Aptos\">board 5</div>"
		"<div id=\"appendonsend\"></div><hr style=\"display:inline-block;width:98%\" "
		"tabindex=\"-1\"><div id=\"divRplyFwdMsg\" dir=\"ltr\"><font face=\"Calibri, "
		"sans-serif\" style=\"font-size:11pt\" color=\"#000000\"><b>From:</b> Bob<br>"
		"<b>Sent:</b> Friday<br><b>Subject:</b> game 5</font><div>&nbsp;</div></div>"
		"<div><div dir=\"ltr\">resign 5</div></div>",
		"board 5\n> (quoted text)\n");
	/* without appendonsend, and as Outlook on the web quotes it again */
	ck_html("<div>board 5</div><hr><div id=\"divRplyFwdMsg\"><b>From:</b> Bob</div>"
		"<div>resign 5</div>", "board 5\n> (quoted text)\n");
	ck_html("<div>board 5</div><div id=\"x_divRplyFwdMsg\">From: Bob</div><div>resign 5</div>",
		"board 5\n> (quoted text)\n");
	/* a word that merely ends alike is no reply header */
	ck_html("<div id=\"mydivRplyFwdMsg\">board 5</div>", "board 5\n");
}
END_TEST

START_TEST(test_html_quote_apple)
{
	ck_html("<html><head></head><body style=\"overflow-wrap: break-word;\">board 5"
		"<br id=\"lineBreakAtBeginningOfMessage\"><div><br><blockquote type=\"cite\">"
		"<div>On 2 Jan 2027, at 10:00, Bob &lt;bob@example.org&gt; wrote:</div>"
		"<br class=\"Apple-interchange-newline\"><div><div>resign 5</div></div>"
		"</blockquote></div><br></body></html>",
		"board 5\n\n> (quoted text)\n");
}
END_TEST

START_TEST(test_html_quote_robust)
{
	/* nested divs and blockquotes inside a quote do not end it early */
	ck_html("<p>a</p><div class=\"gmail_quote\"><div><div>x</div></div><p>resign 1</p>"
		"<blockquote><blockquote>y</blockquote>resign 2</blockquote>resign 3</div><p>b</p>",
		"a\n> (quoted text)\nb\n");
	/* nor does an end tag in raw text, an attribute or a comment */
	ck_html("<blockquote><style></blockquote></style>resign 1</blockquote>ok 1",
		"> (quoted text)\nok 1\n");
	ck_html("<blockquote title=\"</blockquote>\" x='>'>resign 2</blockquote>ok 2",
		"> (quoted text)\nok 2\n");
	ck_html("<blockquote><!-- </blockquote> -->resign 3</blockquote>ok 3",
		"> (quoted text)\nok 3\n");
	ck_html("<blockquote><div/>resign 4</blockquote>ok 4", "> (quoted text)\nok 4\n");
	/* unclosed: to the end */
	ck_html("<p>a</p><blockquote type=cite>resign 5<div>", "a\n> (quoted text)\n");
	ck_html("<p>a</p><div class='x gmail_quote'><div></div>resign 6", "a\n> (quoted text)\n");
	/* a '<' that starts no tag is text; quotes elsewhere stay */
	ck_html("<p>1 < 2 &lt;blockquote&gt; x</p><!--->y<blockquotes>z</blockquotes>",
		"1 < 2 <blockquote> x\nyz\n");
}
END_TEST

TEST_MAIN("mime_html", "html", NULL, NULL, 0,
	  test_html_quote_thunderbird, test_html_quote_gmail,
	  test_html_quote_outlook, test_html_quote_apple,
	  test_html_quote_robust)
