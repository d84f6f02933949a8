/* test_mime.c -- inbound mail without OpenPGP: headers, the loop/bounce/
 * size filters, transfer encodings, charsets, HTML-only mail, and the
 * helpers behind them (sha256, CRLF, DSN parsing); the quoted part of an
 * HTML reply is test_mime_html.c's. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mail/classify.h"
#include "mail/inbound.h"
#include "mail/mime.h"
#include "util/buf.h"
#include "../check_run.h"
#include "inbound_test.h"

#define HDRS "From: Bob <bob@example.org>\nTo: ashes@club.example\n" \
	"Subject: game 7\nMessage-ID: <m1@example.org>\n"

START_TEST(test_unsigned_plain)
{
	struct inbound_msg *m = parse(HDRS "\nmove 12 a1-b2\n");

	ck_assert_int_eq(m->verdict, CLASSIFY_NORMAL);
	ck_assert_int_eq(m->problem, INBOUND_OK);
	ck_assert_int_eq(m->sig_kind, INBOUND_UNSIGNED);
	ck_assert_int_eq(m->sig.status, PGP_SIG_NONE);
	ck_assert_str_eq(m->text, "move 12 a1-b2\n");
	ck_assert_str_eq(m->from_addr, "bob@example.org");
	ck_assert_str_eq(m->message_id, "<m1@example.org>");
	ck_assert_str_eq(m->subject, "game 7");
	ck_assert_str_eq(m->signed_sha256, "");
	ck_assert_uint_eq(strlen(m->raw_sha256), 64);
	ck_assert(!inbound_msg_signature_ok(m));
	inbound_msg_free(&m);
	ck_assert_ptr_null(m);
}
END_TEST

START_TEST(test_headers)
{
	struct inbound_msg *m = parse(
		"From: =?UTF-8?Q?B=C3=B6b?= <Bob@Example.org>\r\n"
		"Subject: =?UTF-8?Q?caf=C3=A9?= =?ISO-8859-1?Q?_cr=E8me?=\r\n"
		"Date: Thu, 15 Jan 2027 08:00:00 +0100\r\n"
		"Message-ID: <m2@example.org>\r\n"
		"In-Reply-To: <r1@club.example>\r\n"
		"References: <r0@club.example>\r\n <r1@club.example>\r\n"
		"\r\nshow\r\n");

	ck_assert_str_eq(m->subject, "café crème");
	ck_assert_str_eq(m->from_addr, "Bob@Example.org");
	ck_assert_str_eq(m->in_reply_to, "<r1@club.example>");
	ck_assert_uint_eq(m->references.count, 2);
	ck_assert_str_eq(m->references.items[0], "<r0@club.example>");
	ck_assert_str_eq(m->references.items[1], "<r1@club.example>");
	/* 2027-01-15 07:00:00 UTC */
	ck_assert_int_eq((long long)m->date, 1799996400LL);
	ck_assert_str_eq(m->text, "show\n");
	inbound_msg_free(&m);
}
END_TEST

/* A Date whose numbers are out of range is no date (the fuzzer's zone of
 * +4607453 overflowed the offset arithmetic). */
START_TEST(test_date_out_of_range)
{
	static const char *const dates[] = {
		"Thu, 15 Jan 2027 08:00:00 +4607453",
		"Thu, 15 Jan 2027 08:00:00 -99999",
		"Thu, 15 Jan 99999 08:00:00 +0000",
		"Thu, 99 Jan 2027 08:00:00 +0000",
		"Thu, 15 Jan 2027 25:00:00 +0000",
	};
	char raw[256];

	for (size_t i = 0; i < sizeof(dates) / sizeof(dates[0]); i++) {
		struct inbound_msg *m;

		snprintf(raw, sizeof(raw), "From: a@example.org\r\nDate: %s\r\n"
			 "\r\nshow\r\n", dates[i]);
		m = parse(raw);
		ck_assert_msg(m->date == 0, "%s", dates[i]);
		ck_assert_str_eq(m->text, "show\n");
		inbound_msg_free(&m);
	}
}
END_TEST

START_TEST(test_lf_and_crlf_same_text)
{
	struct inbound_msg *a = parse(HDRS "\nline one\nline two\n");
	struct inbound_msg *b = parse("From: Bob <bob@example.org>\r\nTo: ashes@club.example\r\n"
				      "Subject: game 7\r\nMessage-ID: <m1@example.org>\r\n"
				      "\r\nline one\r\nline two\r\n");

	ck_assert_str_eq(a->text, b->text);
	ck_assert_str_ne(a->raw_sha256, b->raw_sha256);
	inbound_msg_free(&a);
	inbound_msg_free(&b);
}
END_TEST

/* A body in a transfer encoding or a charset other than UTF-8: the text
 * decoded (a soft line break of quoted-printable joined). */
static const struct {
	const char *mail, *text;
} decoded[] = {
	{ HDRS "MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n"
	  "Content-Transfer-Encoding: quoted-printable\n\n"
	  "move 12 a1-b2 caf=C3=A9 and a very long line that the client wrapp=\ned softly\n",
	  "move 12 a1-b2 café and a very long line that "
	  "the client wrapped softly\n" },
	/* "move 12 a1-b2\nthanks é\n" */
	{ HDRS "MIME-Version: 1.0\nContent-Type: text/plain; charset=\"UTF-8\"\n"
	  "Content-Transfer-Encoding: base64\n\n"
	  "bW92ZSAxMiBhMS1iMgp0aGFua3Mgw6kK\n",
	  "move 12 a1-b2\nthanks é\n" },
	{ HDRS "MIME-Version: 1.0\nContent-Type: text/plain; charset=ISO-8859-1\n"
	  "Content-Transfer-Encoding: 8bit\n\nregister Ren\xe9 M\xfcller\n",
	  "register René Müller\n" },
};

START_TEST(test_decoded)
{
	struct inbound_msg *m = parse(decoded[_i].mail);

	ck_assert_int_eq(m->problem, INBOUND_OK);
	ck_assert_str_eq(m->text, decoded[_i].text);
	inbound_msg_free(&m);
}
END_TEST

START_TEST(test_undecodable)
{
	/* A charset nobody knows, and bytes that are no UTF-8: the detail
	 * names the charset. */
	static const struct {
		const char *mail, *detail;
	} cases[] = {
		{ HDRS "MIME-Version: 1.0\nContent-Type: text/plain; "
		  "charset=x-klingon\n\nqapla'\n", "x-klingon" },
		{ HDRS "MIME-Version: 1.0\nContent-Type: text/plain; "
		  "charset=utf-8\n\nbad \xc3\x28 bytes\n", "utf-8" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct inbound_msg *m = parse(cases[i].mail);

		ck_assert_int_eq(m->problem, INBOUND_UNDECODABLE);
		ck_assert_ptr_nonnull(strstr(m->problem_detail,
					     cases[i].detail));
		ck_assert_ptr_null(m->text);
		inbound_msg_free(&m);
	}
}
END_TEST

START_TEST(test_html_only)
{
	struct inbound_msg *m = parse(HDRS
		"MIME-Version: 1.0\nContent-Type: text/html; charset=utf-8\n\n"
		"<html><head><title>t</title><style>p { color: red }</style>"
		"<script type=\"text/javascript\">alert('move 1 x')</script></head>\n"
		"<body><p>move&nbsp;12   a1&#45;b2</p><div>x &lt;y&gt; &amp; "
		"<a href=\"http://e/?a=1&b=2\" title='a>b'>link</a>&#x263A;</div>"
		"<!-- move 99 z --><br/>bye</body></html>\n");

	ck_assert_int_eq(m->problem, INBOUND_OK);
	ck_assert(m->text_from_html);
	/* a <br> after a block is a blank line, as a browser shows it */
	ck_assert_str_eq(m->text, "move 12 a1-b2\nx <y> & link\xe2\x98\xba\n\nbye\n");
	inbound_msg_free(&m);
}
END_TEST

START_TEST(test_alternative_prefers_plain)
{
	struct inbound_msg *m = parse(HDRS
		"MIME-Version: 1.0\nContent-Type: multipart/alternative; boundary=alt\n\n"
		"--alt\nContent-Type: text/html\n\n<p>from html</p>\n"
		"--alt\nContent-Type: text/plain\n\nfrom plain\n--alt--\n");

	ck_assert(!m->text_from_html);
	ck_assert_str_eq(m->text, "from plain\n");
	inbound_msg_free(&m);
}
END_TEST

START_TEST(test_no_text)
{
	struct inbound_msg *m = parse(HDRS
		"MIME-Version: 1.0\nContent-Type: image/png\nContent-Transfer-Encoding: base64\n\niVBORw0KGgo=\n");

	ck_assert_int_eq(m->problem, INBOUND_NO_TEXT);
	ck_assert_ptr_null(m->text);
	inbound_msg_free(&m);
}
END_TEST

START_TEST(test_oversized_fast)
{
	struct inbound_options o = { .our_addrs = ours, .now = 1800000000 };
	size_t len = 5 * 1024 * 1024, i;
	struct inbound_msg *m;
	struct timespec t0, t1;
	char *raw = malloc(len + 1);
	double secs;
	int n;

	n = snprintf(raw, len, HDRS "MIME-Version: 1.0\nContent-Type: text/plain\n\n");
	for (i = (size_t)n; i < len; i++)
		raw[i] = (i % 77 == 76) ? '\n' : 'a' + (char)(i % 26);
	raw[len] = '\0';
	clock_gettime(CLOCK_MONOTONIC, &t0);
	m = parse_opts(raw, len, &o);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	ck_assert_int_eq(m->verdict, CLASSIFY_OVERSIZED);
	ck_assert_str_eq(m->message_id, "<m1@example.org>");
	ck_assert_str_eq(m->from_addr, "bob@example.org");
	ck_assert_ptr_null(m->text);
	ck_assert_uint_eq(m->raw_size, len);
	/* headers only: hashing 5 MiB is the whole cost (ASan is slower) */
	ck_assert_msg(secs < 1.0, "oversized mail took %.3f s", secs);
	inbound_msg_free(&m);

	/* an oversized auto-reply is still ignored silently */
	memcpy(raw, "Auto-Submitted: auto-replied\n", 29);
	m = parse_opts(raw, len, &o);
	ck_assert_int_eq(m->verdict, CLASSIFY_AUTO_SUBMITTED);
	inbound_msg_free(&m);

	/* and the limit is the caller's */
	o.max_size = 10 * 1024 * 1024;
	memcpy(raw, "X-Filler-Field: auto-replied\n", 29);
	m = parse_opts(raw, len, &o);
	ck_assert_int_eq(m->verdict, CLASSIFY_NORMAL);
	ck_assert_ptr_nonnull(m->text);
	inbound_msg_free(&m);
	free(raw);
}
END_TEST

START_TEST(test_filters)
{
	static const struct { const char *hdr; enum classify_verdict v; } cases[] = {
		{ "Auto-Submitted: auto-replied\n", CLASSIFY_AUTO_SUBMITTED },
		{ "Auto-Submitted: auto-generated (vacation)\n", CLASSIFY_AUTO_SUBMITTED },
		{ "Auto-Submitted: no\n", CLASSIFY_NORMAL },
		{ "Auto-Submitted: No (a comment)\n", CLASSIFY_NORMAL },
		{ "Precedence: bulk\n", CLASSIFY_PRECEDENCE },
		{ "Precedence: List\n", CLASSIFY_PRECEDENCE },
		{ "Precedence: junk\n", CLASSIFY_PRECEDENCE },
		{ "Precedence: first-class\n", CLASSIFY_NORMAL },
		{ "X-Loop: ashes@club.example\n", CLASSIFY_X_LOOP },
		{ "X-Loop: <ASHES@club.example> (ashesd)\n", CLASSIFY_X_LOOP },
		{ "X-Loop: other@club.example\n", CLASSIFY_NORMAL },
		{ "Return-Path: <>\n", CLASSIFY_BOUNCE },
		{ "Return-Path: <bob@example.org>\n", CLASSIFY_NORMAL },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct buf b = BUF_INIT;
		struct inbound_msg *m;

		buf_printf(&b, "%s" HDRS "\nmove 1 a1-a2\n", cases[i].hdr);
		m = parse(buf_str(&b));
		ck_assert_msg(m->verdict == cases[i].v, "%s: got %s", cases[i].hdr,
			      classify_verdict_name(m->verdict));
		ck_assert(cases[i].v == CLASSIFY_NORMAL ? m->text != NULL : m->text == NULL);
		inbound_msg_free(&m);
		buf_free(&b);
	}
}
END_TEST

START_TEST(test_from_self_and_daemon)
{
	struct inbound_msg *m = parse("From: Ashes <Ashes@Club.Example>\nSubject: x\n\nhi\n");

	ck_assert_int_eq(m->verdict, CLASSIFY_FROM_SELF);
	inbound_msg_free(&m);
	m = parse("From: Mail Delivery System <MAILER-DAEMON@mx.example.org>\nSubject: x\n\nhi\n");
	ck_assert_int_eq(m->verdict, CLASSIFY_BOUNCE);
	inbound_msg_free(&m);
}
END_TEST

static const char dsn[] =
	"Return-Path: <>\n"
	"From: MAILER-DAEMON@mx.example.org (Mail Delivery System)\n"
	"To: ashes@club.example\nSubject: Undelivered Mail Returned to Sender\n"
	"Message-ID: <bounce1@mx.example.org>\nMIME-Version: 1.0\n"
	"Content-Type: multipart/report; report-type=delivery-status;\n"
	"\tboundary=\"B1\"\n\n"
	"--B1\nContent-Description: Notification\nContent-Type: text/plain; charset=us-ascii\n\n"
	"I'm sorry to have to inform you that your message could not\nbe delivered.\n\n"
	"--B1\nContent-Description: Delivery report\nContent-Type: message/delivery-status\n\n"
	"Reporting-MTA: dns; mx.example.org\nArrival-Date: Sun, 29 Nov 2026 10:00:00 +0000\n\n"
	"Final-Recipient: rfc822; gone@example.org\nOriginal-Recipient: rfc822;Gone@example.org\n"
	"Action: failed\nStatus: 5.1.1\n\n"
	"--B1\nContent-Description: Undelivered Message Headers\nContent-Type: text/rfc822-headers\n\n"
	"From: Ashes <ashes@club.example>\nTo: gone@example.org\nSubject: game 7: your move\n"
	"Message-ID: <our-1@club.example>\nAuto-Submitted: auto-replied\n\n"
	"--B1--\n";

START_TEST(test_bounce_dsn)
{
	struct inbound_msg *m = parse(dsn);

	ck_assert_int_eq(m->verdict, CLASSIFY_BOUNCE);
	ck_assert_uint_eq(m->bounce_message_ids.count, 1);
	ck_assert_str_eq(m->bounce_message_ids.items[0], "<our-1@club.example>");
	ck_assert_uint_eq(m->bounce_recipients.count, 1);
	ck_assert_str_eq(m->bounce_recipients.items[0], "gone@example.org");
	ck_assert_ptr_null(m->text);
	inbound_msg_free(&m);
}
END_TEST

/* Postfix and Exim mark their reports "Auto-Submitted: auto-replied":
 * still a bounce.  A vacation reply from <> with that header is not. */
START_TEST(test_bounce_auto_submitted)
{
	struct buf b = BUF_INIT;
	struct inbound_msg *m;

	buf_printf(&b, "Auto-Submitted: auto-replied\n%s", dsn);
	m = parse(buf_str(&b));
	ck_assert_int_eq(m->verdict, CLASSIFY_BOUNCE);
	ck_assert_uint_eq(m->bounce_message_ids.count, 1);
	ck_assert_str_eq(m->bounce_message_ids.items[0], "<our-1@club.example>");
	inbound_msg_free(&m);
	buf_free(&b);
	m = parse("Return-Path: <>\nAuto-Submitted: auto-replied (vacation)\n"
		  HDRS "In-Reply-To: <our-1@club.example>\n\nI am away.\n");
	ck_assert_int_eq(m->verdict, CLASSIFY_AUTO_SUBMITTED);
	inbound_msg_free(&m);
}
END_TEST

START_TEST(test_bounce_plain_text)
{
	struct inbound_msg *m = parse(
		"From: postmaster@example.org\nSubject: failure notice\n\n"
		"Sorry, we were unable to deliver your message.\n\n"
		"--- Below this line is a copy of the message.\n\n"
		"> Message-ID: <our-2@club.example>\n> Subject: hi\n");

	ck_assert_int_eq(m->verdict, CLASSIFY_BOUNCE);
	ck_assert_uint_eq(m->bounce_message_ids.count, 1);
	ck_assert_str_eq(m->bounce_message_ids.items[0], "<our-2@club.example>");
	inbound_msg_free(&m);
}
END_TEST

START_TEST(test_pasted_key_unsigned)
{
	struct inbound_msg *m = parse(HDRS "\nregister Bob\n\n"
		"-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmDMEZ\n=abcd\n"
		"-----END PGP PUBLIC KEY BLOCK-----\nthanks\n");

	ck_assert_uint_eq(m->key_count, 1);
	ck_assert(!m->keys[0].attached);
	ck_assert_ptr_nonnull(strstr(m->keys[0].data, "mDMEZ"));
	ck_assert_uint_eq(m->imported_fprs.count, 0);
	inbound_msg_free(&m);
}
END_TEST

START_TEST(test_sha256_vectors)
{
	static const char raw[] = HDRS "\nmove 12 a1-b2\n";
	char hex[INBOUND_SHA256_HEX_LEN + 1];
	char *a = malloc(1000000);
	struct inbound_msg *m;

	inbound_sha256_hex("abc", 3, hex);
	ck_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	inbound_sha256_hex("", 0, hex);
	ck_assert_str_eq(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	inbound_sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56, hex);
	ck_assert_str_eq(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	/* one million 'a' (FIPS 180-2, appendix B.3) */
	ck_assert_ptr_nonnull(a);
	memset(a, 'a', 1000000);
	inbound_sha256_hex(a, 1000000, hex);
	ck_assert_str_eq(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	free(a);
	/* what inbound_parse keys a mail by: the digest of all its bytes */
	m = parse(raw);
	inbound_sha256_hex(raw, strlen(raw), hex);
	ck_assert_str_eq(m->raw_sha256, hex);
	inbound_msg_free(&m);
}
END_TEST

START_TEST(test_crlf)
{
	struct buf b = BUF_INIT;

	mime_to_crlf("a\nb\r\nc\rd", 8, &b);
	ck_assert_str_eq(buf_str(&b), "a\r\nb\r\nc\r\nd");
	buf_free(&b);
}
END_TEST

static void collect(const char *s, void *ctx)
{
	buf_printf(ctx, "%s,", s);
}

START_TEST(test_dsn_parse)
{
	static const char text[] =
		"Reporting-MTA: dns; mx\r\n\r\n"
		"Original-Recipient: rfc822;a@x\r\nFinal-Recipient: rfc822; <b@x>\r\n\r\n"
		"Original-Recipient: rfc822;c@x\r\nAction: failed\r\n";
	struct buf b = BUF_INIT;

	classify_dsn_recipients(text, sizeof(text) - 1, collect, &b);
	ck_assert_str_eq(buf_str(&b), "b@x,c@x,");
	buf_free(&b);
	ck_assert(classify_addr_equal(" <A@B.example> ", "a@b.EXAMPLE"));
	ck_assert(!classify_addr_equal("a@b", "a@bb"));
	ck_assert(!classify_addr_equal("", ""));
}
END_TEST

/* ---- nesting limits (mime_limits.c) ---- */

static double secs_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) +
	       (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

/* mime_parse must refuse raw with err_part in its error; inbound_parse
 * then reports BAD_MIME with the same words and no text. */
static void check_refused(const char *raw, size_t len, const char *err_part)
{
	struct mailmime *mime = NULL;
	struct inbound_msg *m;
	const char *err = NULL;

	ck_assert_int_eq(mime_parse(raw, len, &mime, &err), -1);
	ck_assert_ptr_null(mime);
	ck_assert_msg(strstr(err, err_part) != NULL, "error: %s", err);
	m = parse_opts(raw, len, &(struct inbound_options){ .now = 1800000000 });
	ck_assert_int_eq(m->problem, INBOUND_BAD_MIME);
	ck_assert_msg(strstr(m->problem_detail, err_part) != NULL, "%s",
		      m->problem_detail);
	ck_assert_ptr_null(m->text);
	inbound_msg_free(&m);
}

static unsigned check_depth(const char *raw, size_t len)
{
	const char *err = NULL;
	unsigned depth = 0;

	ck_assert_msg(mime_check_structure(raw, len, &depth, &err) == 0, "%s", err);
	return depth;
}

START_TEST(test_depth_rfc822_bomb)
{
	/* The reported crash: ~900 KB of message/rfc822 parts nested 28,000
	 * deep, unsigned; libetpan recursed once per level. */
	struct buf b = BUF_INIT;
	struct timespec t0;
	int i;

	buf_puts(&b, HDRS);
	for (i = 0; i < 28000; i++)
		buf_puts(&b, "Content-Type: message/rfc822\r\n\r\n");
	buf_puts(&b, "resign 5\r\n");
	ck_assert_uint_gt(b.len, 850000);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	check_refused(b.data, b.len, "nested deeper than 32 levels");
	ck_assert_msg(secs_since(&t0) < 1.0, "took %.3f s", secs_since(&t0));
	buf_free(&b);
}
END_TEST

/* A nesting of MIME parts: head, then each level opened by open[0],
 * the level, open[1], the level, open[2]; inner at the bottom; each
 * level closed by close[0], the level, close[1]. */
struct nesting {
	const char *head, *open[3], *inner, *close[2];
};

static void nest(struct buf *b, const struct nesting *n, int levels)
{
	int i;

	buf_reset(b);
	buf_puts(b, n->head);
	for (i = 0; i < levels; i++)
		buf_printf(b, "%s%d%s%d%s", n->open[0], i, n->open[1], i,
			   n->open[2]);
	buf_puts(b, n->inner);
	for (i = levels - 1; i >= 0; i--)
		buf_printf(b, "%s%d%s", n->close[0], i, n->close[1]);
}

/* Multiparts with text at the bottom; digests, their parts without
 * Content-Type. */
static const struct nesting multiparts = {
	HDRS "MIME-Version: 1.0\n",
	{ "Content-Type: multipart/mixed;\n boundary=\"b",
	  "Z\"\n\npreamble\n--b", "Z\n" },
	"Content-Type: text/plain\n\nhi\n", { "--b", "Z--\n" },
}, digests = {
	"",
	{ "Content-Type: multipart/digest; boundary=\"d",
	  "Z\"\r\n\r\n--d", "Z\r\nContent-Description: m\r\n\r\n" },
	"hi\r\n", { "--d", "Z--\r\n" },
};

START_TEST(test_depth_multipart_limit)
{
	struct buf b = BUF_INIT;
	struct inbound_msg *m;

	nest(&b, &multiparts, 31);
	ck_assert_uint_eq(check_depth(b.data, b.len), 31);
	m = parse_opts(b.data, b.len, &(struct inbound_options){ .now = 1 });
	ck_assert_int_eq(m->problem, INBOUND_OK);
	ck_assert_str_eq(m->text, "hi\n");
	inbound_msg_free(&m);
	nest(&b, &multiparts, MIME_MAX_DEPTH);
	ck_assert_uint_eq(check_depth(b.data, b.len), MIME_MAX_DEPTH);
	nest(&b, &multiparts, 33);
	check_refused(b.data, b.len,
		      "the message's MIME structure is nested deeper than 32 levels");
	buf_free(&b);
}
END_TEST

START_TEST(test_depth_counts_as_libetpan_reads)
{
	struct buf b = BUF_INIT;
	int i;

	/* A digest's part without Content-Type is a message: two levels per
	 * digest here, 16 fit. */
	nest(&b, &digests, 16);
	ck_assert_uint_eq(check_depth(b.data, b.len), 32);
	nest(&b, &digests, 17);
	check_refused(b.data, b.len, "nested deeper");

	/* libetpan does not end a multipart at "--B--" when a "--B" line
	 * follows it: a scan by RFC 2046 would see one level here. */
	buf_reset(&b);
	for (i = 0; i < 43; i++)
		buf_printf(&b, "Content-Type: multipart/mixed; boundary=\"L%dZ\"\r\n\r\n"
			   "--L%dZ\r\n\r\nx\r\n--L%dZ--\r\n--L%dZ\r\n", i, i, i, i);
	buf_puts(&b, "Content-Type: text/plain\r\n\r\nresign 5\r\n");
	check_refused(b.data, b.len, "nested deeper");

	/* an encoded message/rfc822 is not parsed below; case does not matter */
	buf_reset(&b);
	buf_puts(&b, "Content-Type: MULTIPART/Mixed; BOUNDARY=\"x\"\r\n\r\n--x\r\n"
		 "Content-Type: message/rfc822\r\nContent-Transfer-Encoding: base64\r\n\r\n"
		 "AAAA\r\n--x\r\nContent-Type: Message/RFC822\r\n\r\nSubject: s\r\n\r\nhi\r\n--x--\r\n");
	ck_assert_uint_eq(check_depth(b.data, b.len), 2);
	buf_free(&b);
}
END_TEST

START_TEST(test_depth_many_siblings)
{
	struct buf b = BUF_INIT;
	struct inbound_msg *m;
	int i;

	buf_puts(&b, HDRS "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=s\n\n"
		 "--s\nContent-Type: text/plain\n\nboard 5\n");
	for (i = 0; i < 100; i++)
		buf_printf(&b, "--s\nContent-Type: application/octet-stream\n"
			   "Content-Disposition: attachment; filename=\"f%d.bin\"\n"
			   "Content-Transfer-Encoding: base64\n\nAAECAw==\n", i);
	for (i = 0; i < 100; i++)
		buf_printf(&b, "--s\nContent-Type: message/rfc822\n\n"
			   "From: x%d@example.org\nSubject: fwd\n\nold mail\n", i);
	buf_puts(&b, "--s--\n");
	ck_assert_uint_eq(check_depth(b.data, b.len), 2);
	m = parse_opts(b.data, b.len, &(struct inbound_options){ .now = 1 });
	ck_assert_int_eq(m->problem, INBOUND_OK);
	ck_assert_str_eq(m->text, "board 5\n");
	inbound_msg_free(&m);
	buf_free(&b);
}
END_TEST

START_TEST(test_comment_nesting)
{
	struct buf b = BUF_INIT;
	struct inbound_msg *m;
	struct timespec t0;
	const char *err;
	int i;

	/* 32 nested comments are fine */
	buf_puts(&b, "From: Bob <bob@example.org> ");
	for (i = 0; i < 32; i++)
		buf_putc(&b, '(');
	for (i = 0; i < 32; i++)
		buf_putc(&b, ')');
	buf_puts(&b, "\r\nSubject: ((((((((((((((((((((((((((((((((((((((\r\n\r\nhi\r\n");
	ck_assert_uint_eq(check_depth(b.data, b.len), 0);

	/* 33 are not, folded or not; a quoted ')' does not close one */
	buf_reset(&b);
	buf_puts(&b, "From: bob@example.org\r\nContent-Type: text/plain;\r\n ");
	for (i = 0; i < 33; i++)
		buf_puts(&b, i == 20 ? "\r\n\t(\\)" : "(\\)");
	buf_puts(&b, "\r\n\r\nhi\r\n");
	check_refused(b.data, b.len,
		      "a header of the message nests comments deeper than 32 levels");

	/* a Subject is plain text to libetpan, unless a quoted string of
	 * the line before reads on into it */
	buf_reset(&b);
	buf_puts(&b, "From: \"a\\\nSubject: x\" ");
	for (i = 0; i < 33; i++)
		buf_putc(&b, '(');
	buf_puts(&b, "\n\nhi\n");
	ck_assert_int_eq(mime_check_header(b.data, b.len, &err), -1);

	/* a million, in a part's header, fast */
	buf_reset(&b);
	buf_puts(&b, "Content-Type: multipart/mixed; boundary=x\r\n\r\n--x\r\nX-A (");
	for (i = 0; i < 1000000; i++)
		buf_putc(&b, '(');
	buf_puts(&b, ": 1\r\n\r\nhi\r\n--x--\r\n");
	clock_gettime(CLOCK_MONOTONIC, &t0);
	check_refused(b.data, b.len, "comments deeper");
	ck_assert_msg(secs_since(&t0) < 1.0, "took %.3f s", secs_since(&t0));

	/* and in an oversized mail, whose header alone is read */
	buf_reset(&b);
	buf_puts(&b, "Message-ID: <big@example.org>\nFrom: ");
	for (i = 0; i < 200000; i++)
		buf_putc(&b, '(');
	buf_puts(&b, "\n\n");
	for (i = 0; i < 20000; i++)
		buf_puts(&b, "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\n");
	m = parse_opts(b.data, b.len, &(struct inbound_options){ .now = 1 });
	ck_assert_int_eq(m->verdict, CLASSIFY_OVERSIZED);
	ck_assert_ptr_null(m->message_id);
	inbound_msg_free(&m);
	ck_assert_int_eq(mime_check_header(b.data, b.len, &err), -1);
	ck_assert_int_eq(mime_check_header("a: (b)\r\n\r\n(((", 14, &err), 0);
	buf_free(&b);
}
END_TEST

/* Content-Language: the first header is kept as sent (the service picks
 * the language from it), cut to INBOUND_LANGUAGE_MAX bytes; none is
 * NULL. */
START_TEST(test_content_language)
{
	struct inbound_msg *m = parse(HDRS "Content-Language: ko-KR, en\n"
				      "Content-Language: de\n\nshow\n");
	struct buf raw = BUF_INIT;

	ck_assert_str_eq(m->content_language, "ko-KR, en");
	inbound_msg_free(&m);
	m = parse(HDRS "\nshow\n");
	ck_assert_ptr_null(m->content_language);
	inbound_msg_free(&m);
	/* folded, any case of the name; a part's own header is not the
	 * mail's */
	m = parse(HDRS "content-language:  de-DE,\n\tko \n\nshow\n");
	ck_assert_str_eq(m->content_language, "de-DE,\tko");
	inbound_msg_free(&m);
	m = parse(HDRS "Content-Type: multipart/mixed; boundary=b\n\n--b\n"
		  "Content-Type: text/plain\nContent-Language: ko\n\nshow\n"
		  "--b--\n");
	ck_assert_ptr_null(m->content_language);
	inbound_msg_free(&m);
	buf_puts(&raw, HDRS "Content-Language: de-DE");
	for (int i = 0; i < 100; i++)
		buf_puts(&raw, ", fr");
	buf_puts(&raw, "\n\nshow\n");
	m = parse(buf_str(&raw));
	ck_assert_uint_eq(strlen(m->content_language), INBOUND_LANGUAGE_MAX);
	ck_assert(strncmp(m->content_language, "de-DE, fr", 9) == 0);
	inbound_msg_free(&m);
	buf_free(&raw);
}
END_TEST

START_TEST(test_boundary_quote)
{
	/* libetpan 1.9.4 copies SIZE_MAX bytes for this boundary */
	static const char raw[] = HDRS "Content-Type: multipart/mixed; boundary=\"\\\"\"\n\n"
		"--\"\nContent-Type: text/plain\n\nhi\n--\"--\n";

	check_refused(raw, sizeof(raw) - 1, "boundary of the message is malformed");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("mime");
	TCase *tc;

	tc = suite_add_tests(s, "inbound", NULL, NULL, 0,
		TESTS(test_unsigned_plain, test_headers, test_date_out_of_range,
		test_lf_and_crlf_same_text, test_undecodable, test_html_only,
		test_alternative_prefers_plain, test_no_text,
		test_oversized_fast, test_filters, test_from_self_and_daemon,
		test_bounce_dsn, test_bounce_auto_submitted,
		test_bounce_plain_text, test_pasted_key_unsigned,
		test_sha256_vectors, test_crlf, test_dsn_parse,
		test_content_language));
	tcase_add_loop_test(tc, test_decoded, 0,
			    (int)(sizeof(decoded) / sizeof(decoded[0])));
	suite_add_tests(s, "limits", NULL, NULL, 0,
		TESTS(test_depth_rfc822_bomb, test_depth_multipart_limit,
		test_depth_counts_as_libetpan_reads, test_depth_many_siblings,
		test_comment_nesting, test_boundary_quote));
	return test_run(s);
}
