/* test_compose.c -- outgoing message bytes: headers written from typed
 * fields (From, ids, Auto-Submitted, List-Unsubscribe), one message byte
 * for byte, quoted-printable, RFC 2047 words, multipart/alternative, the
 * picture's part (PNG or SVG, named by its type) and the RFC 3156 signed
 * wrapper. */
#include <check.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mail/compose.h"
#include "../check_run.h"

/* Decode quoted-printable (CRLF line ends, soft breaks) back to LF text. */
static char *qp_decode(const char *s, size_t n)
{
	char *out = malloc(n + 1), *o = out;
	size_t i;

	for (i = 0; i < n; i++) {
		if (s[i] == '=' && i + 2 < n && s[i + 1] == '\r' && s[i + 2] == '\n') {
			i += 2;
		} else if (s[i] == '=' && i + 2 < n) {
			char h[3] = { s[i + 1], s[i + 2], 0 };
			*o++ = (char)strtol(h, NULL, 16);
			i += 2;
		} else if (s[i] == '\r' && i + 1 < n && s[i + 1] == '\n') {
			/* the \n is copied next */
		} else {
			*o++ = s[i];
		}
	}
	*o = '\0';
	return out;
}

static int b64val(char c)
{
	const char *t = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const char *p = strchr(t, c);
	return p && c ? (int)(p - t) : -1;
}

/* Decode the len base64 characters at p (others skipped) into out; the
 * number of bytes. */
static size_t b64_decode(const char *p, size_t len, unsigned char *out)
{
	unsigned acc = 0;
	int bits = 0;
	size_t n = 0;

	for (const char *end = p + len; p < end; p++) {
		int v6 = b64val(*p);

		if (v6 < 0)
			continue;
		acc = (acc << 6) | (unsigned)v6;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			out[n++] = (unsigned char)((acc >> bits) & 0xff);
		}
	}
	return n;
}

/* Decode every =?UTF-8?B?...?= word of a header value and join them. */
static char *words_decode(const char *v)
{
	char *out = calloc(1, strlen(v) + 1), *o = out;
	const char *p = v;

	while ((p = strstr(p, "=?UTF-8?B?")) != NULL) {
		size_t len;

		p += 10;
		len = strcspn(p, "?");
		o += b64_decode(p, len, (unsigned char *)o);
		p += len;
	}
	*o = '\0';
	return out;
}

static void check_line_lengths(const char *s, size_t max)
{
	const char *line = s, *e;

	while ((e = strstr(line, "\r\n")) != NULL) {
		ck_assert_msg((size_t)(e - line) <= max, "line of %zu chars: %.*s",
			      (size_t)(e - line), (int)(e - line), line);
		line = e + 2;
	}
}

static struct compose_msg basic(void)
{
	struct compose_msg m = {
		.from_address = "ashes@club.example",
		.from_name = "Ashes",
		.to = "alice@example.org",
		.subject = "[ashes #12] Your move",
		.message_id = "g12.p3.1@club.example",
		.in_reply_to = "g12.p2.1@club.example",
		.references = "<g12@club.example> <g12.p2.1@club.example>",
		.auto_reply = false,
		.x_loop = "ashes@club.example",
		.date = 1795961093, /* Sun, 29 Nov 2026 14:04:53 +0000 */
		.text = "Line one\nFrom here on\n.dot\ntrailing \n",
	};
	return m;
}

START_TEST(test_plain_headers_and_body)
{
	struct compose_msg m = basic();
	struct buf out = BUF_INIT;
	const char *err = NULL;
	const char *body;
	char *dec;

	ck_assert_int_eq(compose_message(&m, NULL, NULL, &out, &err), 0);
	ck_assert_ptr_nonnull(strstr(out.data, "From: \"Ashes\" <ashes@club.example>\r\n"));
	ck_assert_ptr_nonnull(strstr(out.data, "Message-ID: <g12.p3.1@club.example>\r\n"));
	ck_assert_ptr_nonnull(strstr(out.data, "Subject: [ashes #12] Your move\r\n"));
	ck_assert_ptr_nonnull(strstr(out.data, "Date: Sun, 29 Nov 2026 14:04:53 +0000\r\n"));
	ck_assert_ptr_nonnull(strstr(out.data, "Auto-Submitted: auto-generated\r\n"));
	ck_assert_ptr_nonnull(strstr(out.data, "In-Reply-To: <g12.p2.1@club.example>\r\n"));
	ck_assert_ptr_nonnull(strstr(out.data, "Content-Type: text/plain; charset=utf-8\r\n"));
	ck_assert_ptr_null(strstr(out.data, "Precedence"));
	ck_assert_ptr_null(strstr(out.data, "List-Unsubscribe"));
	ck_assert_ptr_null(strstr(out.data, "\r\nReply-To"));
	/* no bare LF anywhere */
	for (size_t i = 0; i < out.len; i++)
		if (out.data[i] == '\n')
			ck_assert_int_eq(out.data[i - 1], '\r');
	body = strstr(out.data, "\r\n\r\n") + 4;
	ck_assert_ptr_nonnull(strstr(body, "=46rom here on"));
	ck_assert_ptr_nonnull(strstr(body, "=2Edot"));
	ck_assert_ptr_nonnull(strstr(body, "trailing=20\r\n"));
	dec = qp_decode(body, strlen(body));
	ck_assert_str_eq(dec, m.text);
	free(dec);
	buf_free(&out);
}
END_TEST

START_TEST(test_qp_long_lines_and_utf8)
{
	struct buf out = BUF_INIT;
	char text[600];
	char *dec;
	size_t i;

	/* 200 x 'é' (2 bytes each, 6 encoded chars) then a 300-char line */
	text[0] = '\0';
	for (i = 0; i < 50; i++)
		strcat(text, "\xc3\xa9");
	strcat(text, "\n");
	for (i = 0; i < 300; i++)
		strcat(text, i % 7 == 6 ? " " : "x");
	strcat(text, "=end\n");
	compose_qp_encode(text, strlen(text), &out);
	check_line_lengths(out.data, 76);
	dec = qp_decode(out.data, out.len);
	ck_assert_str_eq(dec, text);
	free(dec);
	buf_free(&out);
}
END_TEST

START_TEST(test_subject_encoded_words)
{
	struct buf out = BUF_INIT;
	const char *subj = "[ashes #7] Zug von Jürgen — Gewinn für Weiß, "
			   "der Stapel auf e5 wächst über alle Maßen hinaus";
	char *value, *dec;

	compose_header(&out, "Subject", subj);
	ck_assert_ptr_nonnull(strstr(out.data, "=?UTF-8?B?"));
	check_line_lengths(out.data, 76);
	value = out.data + strlen("Subject: ");
	dec = words_decode(value);
	ck_assert_str_eq(dec, subj); /* no UTF-8 sequence was split */
	free(dec);
	buf_free(&out);
}
END_TEST

/* A mail to a Korean reader: the subject in RFC 2047 words (every header
 * line ASCII and within 76 columns, no Hangul syllable split), the body
 * UTF-8 in quoted-printable lines that decode to the same bytes. */
START_TEST(test_korean_subject_and_body)
{
	struct compose_msg m = basic();
	struct buf out = BUF_INIT;
	const char *err = NULL;
	const char *subj = "[ashes #12] 당신의 차례입니다: 백이 c3에서 e5로 "
			   "움직였고 흑의 스택을 잡았습니다";
	const char *text = "앨리스 님, 당신의 차례입니다.\n"
			   "  e5  .   .   ●2  .   .  i5\n";
	const char *p, *body, *line;
	char *value, *dec, *end;

	m.subject = subj;
	m.text = text;
	ck_assert_int_eq(compose_message(&m, NULL, NULL, &out, &err), 0);
	p = strstr(out.data, "Subject: ");
	ck_assert_ptr_nonnull(p);
	ck_assert_ptr_nonnull(strstr(p, "=?UTF-8?B?"));
	end = strstr(p, "\r\n");
	while (end != NULL && end[2] == ' ')
		end = strstr(end + 2, "\r\n");
	ck_assert_ptr_nonnull(end);
	value = strndup(p + strlen("Subject: "), (size_t)(end - p) -
			strlen("Subject: "));
	dec = words_decode(value);
	ck_assert_str_eq(dec, subj);
	free(dec);
	free(value);
	/* the header block is ASCII, its lines within 76 columns */
	body = strstr(out.data, "\r\n\r\n");
	ck_assert_ptr_nonnull(body);
	for (line = out.data; line < body; line++)
		ck_assert_msg((unsigned char)*line < 0x80, "non-ASCII header");
	ck_assert_ptr_nonnull(strstr(out.data,
				     "Content-Type: text/plain; charset=utf-8"));
	ck_assert_ptr_nonnull(strstr(out.data,
		"Content-Transfer-Encoding: quoted-printable"));
	check_line_lengths(out.data, 78);
	dec = qp_decode(body + 4, strlen(body + 4));
	ck_assert_ptr_nonnull(strstr(dec, "앨리스 님, 당신의 차례입니다."));
	ck_assert_ptr_nonnull(strstr(dec, "●2"));
	free(dec);
	buf_free(&out);
}
END_TEST

START_TEST(test_ascii_header_folding)
{
	struct buf out = BUF_INIT;
	char refs[400] = "";
	int i;

	for (i = 0; i < 8; i++)
		strcat(refs, i ? " <g12.p3.1234@club.example>" : "<g12@club.example>");
	compose_header(&out, "References", refs);
	check_line_lengths(out.data, 78);
	ck_assert_ptr_nonnull(strstr(out.data, "\r\n <g12.p3"));
	buf_free(&out);
}
END_TEST

START_TEST(test_address_display_name)
{
	struct buf out = BUF_INIT;
	char *dec;

	compose_header(&out, "X-Dummy", "plain");
	buf_reset(&out);
	{
		struct compose_msg m = basic();
		const char *err;
		m.to = "\"Jürgen Weiß\" <jw@example.org>";
		ck_assert_int_eq(compose_message(&m, NULL, NULL, &out, &err), 0);
	}
	ck_assert_ptr_nonnull(strstr(out.data, "To: =?UTF-8?B?"));
	ck_assert_ptr_nonnull(strstr(out.data, "?= <jw@example.org>\r\n"));
	dec = words_decode(strstr(out.data, "To: "));
	ck_assert_str_eq(dec, "Jürgen Weiß");
	free(dec);
	buf_free(&out);
}
END_TEST

START_TEST(test_alternative_html)
{
	struct compose_msg m = basic();
	struct buf out = BUF_INIT;
	const char *err;
	const char *ct;
	char boundary[80], delim[160];

	m.html = "<html><body><p>Board</p><svg></svg></body></html>";
	ck_assert_int_eq(compose_message(&m, NULL, NULL, &out, &err), 0);
	ct = strstr(out.data, "multipart/alternative;\r\n boundary=\"");
	ck_assert_ptr_nonnull(ct);
	ct = strchr(ct, '"') + 1;
	memcpy(boundary, ct, (size_t)(strchr(ct, '"') - ct));
	boundary[strchr(ct, '"') - ct] = '\0';
	snprintf(delim, sizeof(delim), "\r\n--%s\r\nContent-Type: text/html", boundary);
	ck_assert_ptr_nonnull(strstr(out.data, delim));
	snprintf(delim, sizeof(delim), "\r\n--%s--\r\n", boundary);
	ck_assert_ptr_nonnull(strstr(out.data, delim));
	buf_free(&out);
}
END_TEST

/* The whole message, byte for byte: what ashesd sent before the outbox
 * row became typed (a diff here is a change every player sees). */
START_TEST(test_exact_bytes)
{
	static const char want[] =
		"From: \"Ashes\" <ashes@club.example>\r\n"
		"To: alice@example.org\r\n"
		"Reply-To: ashes@club.example\r\n"
		"Subject: [ashes #12] Your move\r\n"
		"Date: Sun, 29 Nov 2026 14:04:53 +0000\r\n"
		"Message-ID: <g12.p3.1@club.example>\r\n"
		"In-Reply-To: <g12.p2.1@club.example>\r\n"
		"References: <g12@club.example> <g12.p2.1@club.example>\r\n"
		"Auto-Submitted: auto-generated\r\n"
		"List-Unsubscribe: <mailto:ashes@club.example?subject=unobserve%2012&body=unobserve%2012>\r\n"
		"X-Loop: ashes@club.example\r\n"
		"MIME-Version: 1.0\r\n"
		"Content-Type: multipart/alternative;\r\n"
		" boundary=\"=_ashes_alt_14a2e599\"\r\n"
		"\r\n"
		"This is a multi-part message in MIME format.\r\n"
		"\r\n"
		"--=_ashes_alt_14a2e599\r\n"
		"Content-Type: text/plain; charset=utf-8\r\n"
		"Content-Transfer-Encoding: quoted-printable\r\n"
		"\r\n"
		"Line one\r\n"
		"=46rom here on\r\n"
		"=2Edot\r\n"
		"trailing=20\r\n"
		"\r\n"
		"--=_ashes_alt_14a2e599\r\n"
		"Content-Type: text/html; charset=utf-8\r\n"
		"Content-Transfer-Encoding: quoted-printable\r\n"
		"\r\n"
		"<p>x</p>\r\n"
		"--=_ashes_alt_14a2e599--\r\n";
	struct compose_msg m = basic();
	struct buf out = BUF_INIT;
	const char *err = NULL;

	m.reply_to = "ashes@club.example";
	m.unsubscribe_to = "ashes@club.example";
	m.unsubscribe_command = "unobserve 12";
	m.html = "<p>x</p>";
	ck_assert_int_eq(compose_message(&m, NULL, NULL, &out, &err), 0);
	ck_assert_str_eq(buf_str(&out), want);
	buf_free(&out);
}
END_TEST

/* The header values compose writes from typed fields. */
START_TEST(test_typed_headers)
{
	struct compose_msg m = basic();
	struct buf out = BUF_INIT;
	const char *err = NULL;
	char *dec;

	/* no display name: the bare address */
	m.from_name = NULL;
	m.auto_reply = true;
	m.in_reply_to = NULL;
	m.references = NULL;
	ck_assert_int_eq(compose_message(&m, NULL, NULL, &out, &err), 0);
	ck_assert_int_eq(strncmp(out.data, "From: ashes@club.example\r\n", 26), 0);
	ck_assert_ptr_nonnull(strstr(out.data, "Auto-Submitted: auto-replied\r\n"));
	ck_assert_ptr_null(strstr(out.data, "In-Reply-To"));
	ck_assert_ptr_null(strstr(out.data, "References"));

	/* a display name that is not ASCII: encoded, the address not */
	buf_reset(&out);
	m.from_name = "\xc3\x89" "checs Club Z\xc3\xbcrich";
	ck_assert_int_eq(compose_message(&m, NULL, NULL, &out, &err), 0);
	ck_assert_int_eq(strncmp(out.data, "From: =?UTF-8?B?", 16), 0);
	ck_assert_ptr_nonnull(strstr(out.data, "?= <ashes@club.example>\r\nTo: "));
	dec = words_decode(out.data);
	ck_assert_str_eq(dec, m.from_name);
	free(dec);

	/* the unsubscribe command percent-encoded (RFC 6068) */
	buf_reset(&out);
	m.unsubscribe_to = "ashes@club.example";
	m.unsubscribe_command = "unobserve #12&x=\xc3\xa9";
	ck_assert_int_eq(compose_message(&m, NULL, NULL, &out, &err), 0);
	ck_assert_ptr_nonnull(strstr(out.data, "List-Unsubscribe: <mailto:ashes@club.example"
				     "?subject=unobserve%20%2312%26x%3D%C3%A9"
				     "&body=unobserve%20%2312%26x%3D%C3%A9>\r\n"));
	/* half of it is none */
	buf_reset(&out);
	m.unsubscribe_to = NULL;
	ck_assert_int_eq(compose_message(&m, NULL, NULL, &out, &err), 0);
	ck_assert_ptr_null(strstr(out.data, "List-Unsubscribe"));
	buf_free(&out);
}
END_TEST

struct fake_signer {
	char *seen;
	size_t seen_len;
	int fail;
};

static int fake_sign(void *ctx, const char *data, size_t len, char **sig_r,
		     const char **micalg_r, const char **error_r)
{
	struct fake_signer *f = ctx;

	if (f->fail) {
		*error_r = "no secret key";
		return -1;
	}
	f->seen = strndup(data, len);
	f->seen_len = len;
	*sig_r = strdup("-----BEGIN PGP SIGNATURE-----\n\nabc\n-----END PGP SIGNATURE-----\n");
	*micalg_r = "pgp-sha256";
	return 0;
}

START_TEST(test_signed_wrapper_covers_exact_part)
{
	struct compose_msg m = basic();
	struct fake_signer f = { 0 };
	struct buf out = BUF_INIT;
	const char *err;
	const char *start, *end;
	char delim[100];

	m.html = "<p>x</p>";
	ck_assert_int_eq(compose_message(&m, fake_sign, &f, &out, &err), 0);
	ck_assert_ptr_nonnull(strstr(out.data, "Content-Type: multipart/signed; micalg=pgp-sha256;"));
	/* the bytes between the first delimiter and the next one (less the
	 * CRLF that belongs to the delimiter) are exactly what was signed */
	start = strstr(out.data, "--=_ashes_signed_");
	ck_assert_ptr_nonnull(start);
	start = strstr(start, "\r\n") + 2;
	snprintf(delim, sizeof(delim), "\r\n--%.*s", 23, strstr(out.data, "=_ashes_signed_"));
	end = strstr(start, delim);
	ck_assert_ptr_nonnull(end);
	ck_assert_uint_eq((size_t)(end - start), f.seen_len);
	ck_assert_int_eq(memcmp(start, f.seen, f.seen_len), 0);
	ck_assert_ptr_nonnull(strstr(out.data, "-----BEGIN PGP SIGNATURE-----\r\n\r\nabc\r\n"));
	free(f.seen);
	buf_free(&out);

	f.fail = 1;
	ck_assert_int_eq(compose_message(&m, fake_sign, &f, &out, &err), -1);
	ck_assert_str_eq(err, "no secret key");
	buf_free(&out);
}
END_TEST

/* The picture beside the html: a base64 part of a multipart/related,
 * named by its type (board.png, board.svg) unless a name is given, and
 * decoding to the same bytes (a PNG has NULs and high bytes). */
START_TEST(test_picture_part)
{
	static const unsigned char png[] = {
		0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 0x0d,
		'I', 'H', 'D', 'R', 0xff, 0xfe,
	};
	static const struct {
		const char *type, *name, *want;
	} cases[] = {
		{ "image/png", NULL,
		  "Content-Type: image/png; name=\"board.png\"\r\n"
		  "Content-Transfer-Encoding: base64\r\n"
		  "Content-ID: <board.g12>\r\n"
		  "Content-Disposition: inline; filename=\"board.png\"\r\n\r\n" },
		{ "image/svg+xml", NULL,
		  "Content-Type: image/svg+xml; name=\"board.svg\"\r\n"
		  "Content-Transfer-Encoding: base64\r\n"
		  "Content-ID: <board.g12>\r\n"
		  "Content-Disposition: inline; filename=\"board.svg\"\r\n\r\n" },
		{ "image/png", "game-12.png",
		  "Content-Type: image/png; name=\"game-12.png\"\r\n"
		  "Content-Transfer-Encoding: base64\r\n"
		  "Content-ID: <board.g12>\r\n"
		  "Content-Disposition: inline; filename=\"game-12.png\"\r\n\r\n" },
		/* a type without a name of ours: no name */
		{ "image/gif", NULL,
		  "Content-Type: image/gif\r\n"
		  "Content-Transfer-Encoding: base64\r\n"
		  "Content-ID: <board.g12>\r\n"
		  "Content-Disposition: inline\r\n\r\n" },
	};
	struct compose_msg m = basic();
	struct buf out = BUF_INIT;
	const char *err = NULL, *p, *end;
	size_t i;

	m.html = "<p><img src=\"cid:board.g12\"></p>";
	m.image = png;
	m.image_len = sizeof(png);
	m.image_cid = "board.g12";
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t n;
		unsigned char dec[64];

		m.image_type = cases[i].type;
		m.image_name = cases[i].name;
		buf_reset(&out);
		ck_assert_int_eq(compose_message(&m, NULL, NULL, &out, &err), 0);
		ck_assert_ptr_nonnull(strstr(out.data, "Content-Type: multipart/related; "
					     "type=\"text/html\";\r\n"));
		p = strstr(out.data, cases[i].want);
		ck_assert_msg(p != NULL, "%s:\n%s", cases[i].type, out.data);
		p += strlen(cases[i].want);
		end = strstr(p, "\r\n--");
		ck_assert_ptr_nonnull(end);
		n = b64_decode(p, (size_t)(end - p), dec);
		ck_assert_uint_eq(n, sizeof(png));
		ck_assert_int_eq(memcmp(dec, png, sizeof(png)), 0);
	}
	/* without a type there is no picture part, only the html */
	m.image_type = NULL;
	buf_reset(&out);
	ck_assert_int_eq(compose_message(&m, NULL, NULL, &out, &err), 0);
	ck_assert_ptr_null(strstr(out.data, "multipart/related"));
	ck_assert_ptr_null(strstr(out.data, "board.g12>"));
	buf_free(&out);
}
END_TEST

/* The fields compose cannot do without: each one left out is refused. */
START_TEST(test_missing_fields)
{
	static const size_t fields[] = {
		offsetof(struct compose_msg, to),
		offsetof(struct compose_msg, from_address),
		offsetof(struct compose_msg, message_id),
	};
	struct buf out = BUF_INIT;

	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		struct compose_msg m = basic();
		const char *err = NULL;

		*(const char **)((char *)&m + fields[i]) = NULL;
		ck_assert_int_eq(compose_message(&m, NULL, NULL, &out, &err),
				 -1);
		ck_assert_ptr_nonnull(err);
	}
	buf_free(&out);
}
END_TEST

TEST_MAIN("compose", "compose", NULL, NULL, 0, test_plain_headers_and_body,
	  test_qp_long_lines_and_utf8, test_subject_encoded_words,
	  test_korean_subject_and_body,
	  test_ascii_header_folding, test_address_display_name,
	  test_alternative_html, test_exact_bytes, test_typed_headers,
	  test_signed_wrapper_covers_exact_part, test_picture_part,
	  test_missing_fields)
