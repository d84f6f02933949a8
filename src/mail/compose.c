/* compose.c -- outgoing RFC 5322 / MIME messages; see compose.h. */
#include "mail/compose.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LINE_MAX_QP 76
#define HEADER_FOLD 78

static const char hexdigits[] = "0123456789ABCDEF";

static bool is_plain_ascii(const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c >= 0x7f || (c < 0x20 && c != '\t'))
			return false;
	}
	return true;
}

/* Fold a printable ASCII value at blanks so no line passes 78 columns
 * where a blank allows it; `col` is the column after "Name: ". */
static void header_fold_ascii(struct buf *out, const char *v, size_t col)
{
	while (*v) {
		const char *sp = NULL, *p;
		size_t room = col < HEADER_FOLD ? HEADER_FOLD - col : 0;

		if (strlen(v) <= room) {
			buf_puts(out, v);
			break;
		}
		/* the last blank that keeps this line short, else the first */
		for (p = v + 1; *p && (size_t)(p - v) <= room; p++)
			if (*p == ' ')
				sp = p;
		if (sp == NULL)
			sp = strchr(v + 1, ' ');
		if (sp == NULL) {
			buf_puts(out, v);
			break;
		}
		buf_append(out, v, (size_t)(sp - v));
		buf_puts(out, "\r\n");
		v = sp; /* the blank starts the continuation line */
		col = 0;
	}
}

/* Length of the UTF-8 sequence starting with byte c (1 for stray bytes). */
static size_t utf8_len(unsigned char c)
{
	if (c >= 0xf0 && c < 0xf8)
		return 4;
	if (c >= 0xe0)
		return c < 0xf0 ? 3 : 1;
	if (c >= 0xc0)
		return 2;
	return 1;
}

static void base64_append(struct buf *out, const unsigned char *p, size_t n)
{
	static const char b64[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t i;

	for (i = 0; i + 2 < n; i += 3) {
		buf_putc(out, b64[p[i] >> 2]);
		buf_putc(out, b64[((p[i] & 3) << 4) | (p[i + 1] >> 4)]);
		buf_putc(out, b64[((p[i + 1] & 15) << 2) | (p[i + 2] >> 6)]);
		buf_putc(out, b64[p[i + 2] & 63]);
	}
	if (i + 1 == n) {
		buf_putc(out, b64[p[i] >> 2]);
		buf_putc(out, b64[(p[i] & 3) << 4]);
		buf_puts(out, "==");
	} else if (i + 2 == n) {
		buf_putc(out, b64[p[i] >> 2]);
		buf_putc(out, b64[((p[i] & 3) << 4) | (p[i + 1] >> 4)]);
		buf_putc(out, b64[(p[i + 1] & 15) << 2]);
		buf_putc(out, '=');
	}
}

/* RFC 2047 B-encoded words of at most 75 characters, never splitting a
 * UTF-8 sequence, separated by folding white space. */
static void header_encode_words(struct buf *out, const char *v, size_t col)
{
	/* A word is at most 75 characters: 12 of them are "=?UTF-8?B?" and
	 * "?=", leaving 63 base64 characters, 45 bytes of text.  The first
	 * word shares its line with the header name. */
	size_t max_bytes = col + 75 <= 76 ? 45 : (76 - col - 12) / 4 * 3;
	const unsigned char *p = (const unsigned char *)v;
	size_t n = strlen(v);
	bool first = true;

	while (n > 0) {
		size_t take = 0;

		while (take < n) {
			size_t l = utf8_len(p[take]);
			if (take + l > n)
				l = n - take;
			if (take + l > max_bytes)
				break;
			take += l;
		}
		if (!first)
			buf_puts(out, "\r\n ");
		buf_puts(out, "=?UTF-8?B?");
		base64_append(out, p, take);
		buf_puts(out, "?=");
		p += take;
		n -= take;
		first = false;
		max_bytes = 45;
	}
}

void compose_header(struct buf *out, const char *name, const char *value)
{
	buf_puts(out, name);
	buf_puts(out, ": ");
	if (is_plain_ascii(value))
		header_fold_ascii(out, value, strlen(name) + 2);
	else
		header_encode_words(out, value, strlen(name) + 2);
	buf_puts(out, "\r\n");
}

/* An address header: a non-ASCII display name is encoded, the address
 * itself never is. */
static void compose_address_header(struct buf *out, const char *name,
				   const char *value)
{
	const char *lt = strrchr(value, '<');

	if (is_plain_ascii(value) || lt == NULL) {
		compose_header(out, name, value);
		return;
	}
	buf_puts(out, name);
	buf_puts(out, ": ");
	{
		size_t dl = (size_t)(lt - value);
		char *display;

		while (dl > 0 && value[dl - 1] == ' ')
			dl--;
		display = strndup(value, dl);
		if (display == NULL)
			abort();
		/* drop the quotes of a quoted display name before encoding */
		if (dl >= 2 && display[0] == '"' && display[dl - 1] == '"') {
			display[dl - 1] = '\0';
			header_encode_words(out, display + 1, strlen(name) + 2);
		} else {
			header_encode_words(out, display, strlen(name) + 2);
		}
		free(display);
	}
	buf_puts(out, " ");
	buf_puts(out, lt);
	buf_puts(out, "\r\n");
}

void compose_qp_encode(const char *text, size_t len, struct buf *out)
{
	size_t col = 0, i;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];
		char enc[4];
		size_t elen;
		bool line_end_next;

		if (c == '\r' && i + 1 < len && text[i + 1] == '\n')
			continue; /* the \n writes the line end */
		if (c == '\n') {
			buf_puts(out, "\r\n");
			col = 0;
			continue;
		}
		line_end_next = i + 1 >= len || text[i + 1] == '\n' ||
				(text[i + 1] == '\r' && i + 2 < len &&
				 text[i + 2] == '\n');
		/* Blanks before a line end are encoded (transports strip them);
		 * "From " and "." at a line start are encoded so that no mbox
		 * or SMTP layer alters the text. */
		if ((c >= 33 && c <= 126 && c != '=' &&
		     !(col == 0 && (c == '.' || (c == 'F' && i + 5 <= len &&
						  memcmp(text + i, "From ", 5) == 0)))) ||
		    ((c == ' ' || c == '\t') && !line_end_next)) {
			enc[0] = (char)c;
			elen = 1;
		} else {
			enc[0] = '=';
			enc[1] = hexdigits[c >> 4];
			enc[2] = hexdigits[c & 15];
			elen = 3;
		}
		/* Keep room for a soft break "=" unless the line ends here. */
		if (col + elen > (line_end_next ? LINE_MAX_QP : LINE_MAX_QP - 1)) {
			buf_puts(out, "=\r\n");
			col = 0;
		}
		buf_append(out, enc, elen);
		col += elen;
	}
}

/* RFC 5322 date text for unix time t in UTC ("Sun, 29 Nov 2026 14:04:53
 * +0000") into buf (at least 40 bytes); returns buf. */
static char *compose_date(int64_t t, char *buf, size_t len)
{
	time_t tt = (time_t)t;
	struct tm tm;

	gmtime_r(&tt, &tm);
	/* Day and month names are fixed English in RFC 5322, not locale. */
	static const char *days[] = { "Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat" };
	static const char *months[] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun",
					"Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
	snprintf(buf, len, "%s, %d %s %d %02d:%02d:%02d +0000", days[tm.tm_wday],
		 tm.tm_mday, months[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour,
		 tm.tm_min, tm.tm_sec);
	return buf;
}

/* A boundary that cannot occur in quoted-printable or base64 text ("=_"
 * is never produced by either), made distinct per message and level: a
 * hash of the Message-ID as the header writes it, <> included. */
static void make_boundary(char *b, size_t len, const char *kind,
			  const char *message_id)
{
	unsigned long h = 5381;
	const char *p;

	h = h * 33 + '<';
	for (p = message_id; *p; p++)
		h = h * 33 + (unsigned char)*p;
	h = h * 33 + '>';
	snprintf(b, len, "=_ashes_%s_%08lx", kind, h & 0xffffffffUL);
}

static void text_part(struct buf *out, const char *type, const char *text)
{
	buf_printf(out, "Content-Type: %s; charset=utf-8\r\n", type);
	buf_puts(out, "Content-Transfer-Encoding: quoted-printable\r\n\r\n");
	compose_qp_encode(text, strlen(text), out);
}

/* base64 in lines of 76 characters with CRLF (RFC 2045 6.8). */
static void base64_lines(struct buf *out, const void *data, size_t len)
{
	const unsigned char *p = data;
	size_t i;

	for (i = 0; i < len; i += 57) {
		base64_append(out, p + i, len - i < 57 ? len - i : 57);
		buf_puts(out, "\r\n");
	}
}

/* The file name offered for a picture: the one given, else "board" and
 * the extension of its type; NULL (no name) for a type without one. */
static const char *image_name(const struct compose_msg *m)
{
	static const struct {
		const char *type, *name;
	} names[] = {
		{ "image/png", "board.png" },
		{ "image/svg+xml", "board.svg" },
	};
	size_t i;

	if (m->image_name != NULL)
		return m->image_name;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(m->image_type, names[i].type) == 0)
			return names[i].name;
	return NULL;
}

/* The start of a multipart entity (multipart/subtype, which may carry
 * parameters) up to the delimiter after its first part: the header, the
 * preamble, and the first part (type, body). */
static void multipart_start(struct buf *out, const char *subtype,
			    const char *boundary, const char *preamble,
			    const char *type, const char *body)
{
	buf_printf(out,
		   "Content-Type: multipart/%s;\r\n"
		   " boundary=\"%s\"\r\n\r\n"
		   "%s--%s\r\n",
		   subtype, boundary, preamble, boundary);
	text_part(out, type, body);
	buf_printf(out, "\r\n--%s\r\n", boundary);
}

/* The html with its picture, as multipart/related.  Why a cid: part and
 * not the alternatives: an inline <svg> element is dropped by most
 * webmail sanitisers and by Outlook; data: URIs in <img> are blocked by
 * Gmail and Outlook and count against the message in spam filters; a
 * remote URL needs a web server and leaks reads.  A cid: reference to a
 * part of the same message (RFC 2392) is what every mainstream client
 * shows for inline images.  The part is also marked inline with a file
 * name, so a client that does not show the picture (SVG, in Gmail,
 * Outlook and Yahoo) offers it as an attachment. */
static void related_entity(const struct compose_msg *m, struct buf *out)
{
	const char *name = image_name(m);
	char boundary[64];

	make_boundary(boundary, sizeof(boundary), "rel", m->message_id);
	multipart_start(out, "related; type=\"text/html\"", boundary, "",
			"text/html", m->html);
	buf_printf(out, "Content-Type: %s", m->image_type);
	if (name)
		buf_printf(out, "; name=\"%s\"", name);
	buf_printf(out, "\r\nContent-Transfer-Encoding: base64\r\n"
		   "Content-ID: <%s>\r\nContent-Disposition: inline",
		   m->image_cid);
	if (name)
		buf_printf(out, "; filename=\"%s\"", name);
	buf_puts(out, "\r\n\r\n");
	base64_lines(out, m->image, m->image_len);
	buf_printf(out, "--%s--", boundary);
}

/* The text (and html) entity, its MIME headers and content. */
static void text_entity(const struct compose_msg *m, struct buf *out)
{
	char boundary[64];

	if (m->html == NULL) {
		text_part(out, "text/plain", m->text);
	} else {
		/* RFC 2046 5.1.4: the last alternative is the preferred one,
		 * so the text comes first and text-only readers (mutt with
		 * alternative_order text/plain) get it whole. */
		make_boundary(boundary, sizeof(boundary), "alt", m->message_id);
		multipart_start(out, "alternative", boundary,
				"This is a multi-part message in MIME format."
				"\r\n\r\n", "text/plain", m->text);
		if (m->image && m->image_type && m->image_cid)
			related_entity(m, out);
		else
			text_part(out, "text/html", m->html);
		buf_printf(out, "\r\n--%s--", boundary);
	}
	/* A text's own last line end stays: it is content.  (RFC 2046
	 * and 3156: the CRLF before a boundary belongs to the boundary, so
	 * the signer signs exactly these bytes and the multipart/signed
	 * wrapper adds one more CRLF of its own.) */
}

/* One file part of a multipart/mixed (after its delimiter line). */
static void file_part(struct buf *out, const char *type, const char *name,
		      const char *disposition, const void *data, size_t len)
{
	buf_printf(out,
		   "Content-Type: %s; name=\"%s\"\r\n"
		   "Content-Transfer-Encoding: base64\r\n"
		   "Content-Disposition: %s; filename=\"%s\"\r\n\r\n",
		   type, name, disposition, name);
	base64_lines(out, data, len);
}

/* The body entity: the text, and after it in a multipart/mixed the
 * attached file and the parts, if any (RFC 2046 5.1.3: the text first,
 * so a reader shows it and offers the files). */
static void body_entity(const struct compose_msg *m, struct buf *out)
{
	bool attached = m->attachment != NULL && m->attachment_type != NULL &&
			m->attachment_name != NULL;
	char boundary[64];
	size_t i;

	if (!attached && m->nparts == 0) {
		text_entity(m, out);
		return;
	}
	make_boundary(boundary, sizeof(boundary), "mix", m->message_id);
	buf_printf(out,
		   "Content-Type: multipart/mixed;\r\n"
		   " boundary=\"%s\"\r\n\r\n"
		   "This is a multi-part message in MIME format.\r\n"
		   "\r\n--%s\r\n",
		   boundary, boundary);
	text_entity(m, out);
	if (attached) {
		buf_printf(out, "\r\n--%s\r\n", boundary);
		file_part(out, m->attachment_type, m->attachment_name,
			  "attachment", m->attachment, m->attachment_len);
	}
	for (i = 0; i < m->nparts; i++) {
		buf_printf(out, "%s--%s\r\n", i == 0 && !attached ? "\r\n" : "",
			   boundary);
		file_part(out, m->parts[i].type, m->parts[i].name, "inline",
			  m->parts[i].data, m->parts[i].len);
	}
	buf_printf(out, "--%s--", boundary);
}

/* Percent-encode s for a mailto: header field (RFC 6068, RFC 3986):
 * all but the unreserved characters, so "unobserve 12" is
 * "unobserve%2012". */
static void mailto_encode(struct buf *out, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
		    (c >= '0' && c <= '9') || c == '-' || c == '.' ||
		    c == '_' || c == '~') {
			buf_putc(out, (char)c);
		} else {
			buf_putc(out, '%');
			buf_putc(out, hexdigits[c >> 4]);
			buf_putc(out, hexdigits[c & 15]);
		}
	}
}

/* The header block, from From to MIME-Version; plain: From, To,
 * Subject, Date and Message-ID alone (compose_plain_headers). */
static void compose_headers(const struct compose_msg *m, bool plain,
			    struct buf *out)
{
	struct buf v = BUF_INIT;
	char date[64];

	if (m->from_name)
		buf_printf(&v, "\"%s\" <%s>", m->from_name, m->from_address);
	else
		buf_puts(&v, m->from_address);
	compose_address_header(out, "From", buf_str(&v));
	compose_address_header(out, "To", m->to);
	if (m->reply_to && !plain)
		compose_address_header(out, "Reply-To", m->reply_to);
	compose_header(out, "Subject", m->subject);
	compose_header(out, "Date", compose_date(m->date, date, sizeof(date)));
	buf_reset(&v);
	buf_printf(&v, "<%s>", m->message_id);
	compose_header(out, "Message-ID", buf_str(&v));
	if (plain)
		goto out;
	if (m->in_reply_to) {
		buf_reset(&v);
		buf_printf(&v, "<%s>", m->in_reply_to);
		compose_header(out, "In-Reply-To", buf_str(&v));
	}
	if (m->references)
		compose_header(out, "References", m->references);
	compose_header(out, "Auto-Submitted",
		       m->auto_reply ? "auto-replied" : "auto-generated");
	if (m->unsubscribe_to && m->unsubscribe_command) {
		/* The command goes in the body too: whoever answers runs
		 * only the signed text, never the Subject. */
		buf_reset(&v);
		buf_printf(&v, "<mailto:%s?subject=", m->unsubscribe_to);
		mailto_encode(&v, m->unsubscribe_command);
		buf_puts(&v, "&body=");
		mailto_encode(&v, m->unsubscribe_command);
		buf_putc(&v, '>');
		compose_header(out, "List-Unsubscribe", buf_str(&v));
	}
	if (m->x_loop)
		compose_header(out, "X-Loop", m->x_loop);
	if (m->autocrypt)
		buf_puts(out, m->autocrypt);
out:
	compose_header(out, "MIME-Version", "1.0");
	buf_free(&v);
}

void compose_plain_headers(const struct compose_msg *m, struct buf *out)
{
	compose_headers(m, true, out);
}

int compose_message(const struct compose_msg *m, compose_sign_fn *sign,
		    void *sign_ctx, struct buf *out, const char **error_r)
{
	struct buf body = BUF_INIT;
	char boundary[64];
	char *sig = NULL;
	const char *micalg = NULL;
	int ret = -1;

	if (m->from_address == NULL || m->to == NULL || m->subject == NULL ||
	    m->message_id == NULL || m->text == NULL) {
		*error_r = "message lacks From, To, Subject, Message-ID or text";
		goto out;
	}
	compose_headers(m, false, out);

	body_entity(m, &body);
	if (sign == NULL) {
		buf_append(out, body.data, body.len);
		if (body.len < 2 || memcmp(body.data + body.len - 2, "\r\n", 2) != 0)
			buf_puts(out, "\r\n");
		ret = 0;
		goto out;
	}
	if (sign(sign_ctx, body.data, body.len, &sig, &micalg, error_r) < 0)
		goto out;
	make_boundary(boundary, sizeof(boundary), "signed", m->message_id);
	buf_printf(out,
		   "Content-Type: multipart/signed; micalg=%s;\r\n"
		   " protocol=\"application/pgp-signature\";\r\n"
		   " boundary=\"%s\"\r\n\r\n"
		   "This is an OpenPGP/MIME signed message (RFC 4880 and 3156)\r\n"
		   "--%s\r\n",
		   micalg, boundary, boundary);
	buf_append(out, body.data, body.len);
	buf_printf(out,
		   "\r\n--%s\r\n"
		   "Content-Type: application/pgp-signature; name=\"signature.asc\"\r\n"
		   "Content-Description: OpenPGP digital signature\r\n"
		   "Content-Disposition: attachment; filename=\"signature.asc\"\r\n\r\n",
		   boundary);
	/* the armour may come with bare LF line ends */
	{
		const char *p;
		for (p = sig; *p; p++) {
			if (*p == '\n' && (p == sig || p[-1] != '\r'))
				buf_putc(out, '\r');
			buf_putc(out, *p);
		}
		if (p > sig && p[-1] != '\n')
			buf_puts(out, "\r\n");
	}
	buf_printf(out, "\r\n--%s--\r\n", boundary);
	ret = 0;
out:
	free(sig);
	buf_free(&body);
	return ret;
}
