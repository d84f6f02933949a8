/* pgp_public.c -- what a game's archive gives someone who did not play
 * it (see pgp.h): each mail reduced to what its OpenPGP signature covers
 * and the signature, with no header a mail server or the sender's
 * program wrote; each player's public key with its user IDs (which hold
 * the player's address) replaced by one naming only the player. */
#include "config.h"

#include "mail/pgp.h"

#include <gpgme.h>
#include <libetpan/libetpan.h>
#include <stdio.h>
#include <string.h>

#include "mail/mime.h"
#include "mail/pgp_private.h"
#include "util/buf.h"

/* ---- base64 and armor (RFC 4648, RFC 9580 section 6) --------------- */

static void public_base64(const unsigned char *p, size_t len, struct buf *out)
{
	static const char digits[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		"0123456789+/";
	size_t col = 0;

	for (size_t i = 0; i < len; i += 3) {
		unsigned v = (unsigned)p[i] << 16;
		char q[4];

		if (i + 1 < len)
			v |= (unsigned)p[i + 1] << 8;
		if (i + 2 < len)
			v |= p[i + 2];
		q[0] = digits[(v >> 18) & 63];
		q[1] = digits[(v >> 12) & 63];
		q[2] = i + 1 < len ? digits[(v >> 6) & 63] : '=';
		q[3] = i + 2 < len ? digits[v & 63] : '=';
		buf_append(out, q, 4);
		if ((col += 4) == 64 && i + 3 < len) {
			buf_puts(out, "\r\n");
			col = 0;
		}
	}
	buf_puts(out, "\r\n");
}

static unsigned long public_crc24(const unsigned char *p, size_t len)
{
	unsigned long crc = 0xB704CEul;

	for (size_t i = 0; i < len; i++) {
		crc ^= (unsigned long)p[i] << 16;
		for (int k = 0; k < 8; k++) {
			crc <<= 1;
			if (crc & 0x1000000ul)
				crc ^= 0x1864CFBul;
		}
	}
	return crc & 0xFFFFFFul;
}

static void public_armor(const struct buf *bin, struct buf *out)
{
	unsigned long crc = public_crc24((const unsigned char *)bin->data,
					 bin->len);
	unsigned char c[3] = { (unsigned char)(crc >> 16),
			       (unsigned char)(crc >> 8), (unsigned char)crc };

	buf_puts(out, "-----BEGIN PGP PUBLIC KEY BLOCK-----\r\n\r\n");
	public_base64((const unsigned char *)bin->data, bin->len, out);
	buf_putc(out, '=');
	public_base64(c, 3, out);
	buf_puts(out, "-----END PGP PUBLIC KEY BLOCK-----\r\n");
}

/* ---- a key without its user IDs ------------------------------------ */

/* The packet at p (len bytes left): its tag and whole length (header
 * included), or -1 for a form a key export does not use (an
 * indeterminate or partial length) or one cut short. */
static int public_packet(const unsigned char *p, size_t len, int *tag_r,
			 size_t *total_r)
{
	size_t hdr, body;

	if (len < 2 || !(p[0] & 0x80))
		return -1;
	if (p[0] & 0x40) {
		*tag_r = p[0] & 0x3f;
		if (p[1] < 192) {
			hdr = 2;
			body = p[1];
		} else if (p[1] < 224) {
			if (len < 3)
				return -1;
			hdr = 3;
			body = ((size_t)(p[1] - 192) << 8) + p[2] + 192;
		} else if (p[1] == 255) {
			if (len < 6)
				return -1;
			hdr = 6;
			body = ((size_t)p[2] << 24) | ((size_t)p[3] << 16) |
			       ((size_t)p[4] << 8) | p[5];
		} else {
			return -1;
		}
	} else {
		static const size_t sizes[] = { 1, 2, 4 };
		unsigned lt = p[0] & 3;

		*tag_r = (p[0] >> 2) & 0x0f;
		if (lt == 3 || len < 1 + sizes[lt])
			return -1;
		hdr = 1 + sizes[lt];
		body = 0;
		for (size_t i = 1; i < hdr; i++)
			body = (body << 8) | p[i];
	}
	if (body > len - hdr)
		return -1;
	*total_r = hdr + body;
	return 0;
}

/* A User ID packet holding label. */
static void public_uid(const char *label, struct buf *out)
{
	size_t n = strlen(label);
	unsigned char h[3] = { 0xc0 | 13, 0, 0 };

	if (n > 191 + 256 * 30)
		n = 191 + 256 * 30;
	if (n < 192) {
		h[1] = (unsigned char)n;
		buf_append(out, h, 2);
	} else {
		h[1] = (unsigned char)(((n - 192) >> 8) + 192);
		h[2] = (unsigned char)((n - 192) & 0xff);
		buf_append(out, h, 3);
	}
	buf_append(out, label, n);
}

/* Append the transferable public key bin to out without its user IDs
 * and attributes and the signatures on them, with a User ID packet
 * holding label instead, after the primary key's own signatures. */
static int public_strip(struct pgp_ctx *ctx, const struct buf *bin,
			const char *label, struct buf *out,
			const char **error_r)
{
	const unsigned char *p = (const unsigned char *)bin->data;
	size_t off = 0, total;
	bool in_uid = false, placed = false;
	int tag, keys = 0;

	while (off < bin->len) {
		if (public_packet(p + off, bin->len - off, &tag, &total) < 0) {
			snprintf(ctx->error, sizeof(ctx->error), "a key export "
				 "gpg gave that does not read as packets");
			*error_r = ctx->error;
			return -1;
		}
		switch (tag) {
		case 6:  /* the primary key */
			if (++keys > 1) {
				snprintf(ctx->error, sizeof(ctx->error),
					 "one key was asked for, gpg gave "
					 "more");
				*error_r = ctx->error;
				return -1;
			}
			buf_append(out, p + off, total);
			break;
		case 13: /* a user ID */
		case 17: /* a user attribute (a photo) */
			in_uid = true;
			break;
		case 2:  /* a signature: of the key, or of what it follows */
			if (!in_uid)
				buf_append(out, p + off, total);
			break;
		case 14: /* a subkey */
			if (!placed) {
				public_uid(label, out);
				placed = true;
			}
			in_uid = false;
			buf_append(out, p + off, total);
			break;
		default: /* a trust packet, a marker: nothing of the key */
			break;
		}
		off += total;
	}
	if (!placed)
		public_uid(label, out);
	return 0;
}

int pgp_public_keys(struct pgp_ctx *ctx, const char *const *fprs,
		    const char *const *labels, struct buf *armored_r,
		    struct buf *binary_r, const char **error_r)
{
	struct buf all = BUF_INIT;
	int ret = -1;

	for (size_t i = 0; fprs[i] != NULL; i++) {
		const char *one[2] = { fprs[i], NULL };
		struct buf bin = BUF_INIT;
		int r;

		r = pgp_export_keys(ctx, one, false, &bin, error_r);
		if (r == 0 && labels[i] == NULL)
			buf_append(&all, bin.data, bin.len);
		else if (r == 0)
			r = public_strip(ctx, &bin, labels[i], &all, error_r);
		buf_free(&bin);
		if (r < 0)
			goto out;
	}
	buf_append(binary_r, all.data, all.len);
	public_armor(&all, armored_r);
	ret = 0;
out:
	buf_free(&all);
	return ret;
}

/* ---- a mail without its headers ------------------------------------ */

/* Can bytes go into a mail as they are (8bit when eight_bit, else 7bit):
 * every line end CRLF, no NUL, no bare CR, lines under 998? */
static bool public_clean(const char *s, size_t len, bool eight_bit)
{
	size_t col = 0;

	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '\r') {
			if (i + 1 >= len || s[i + 1] != '\n')
				return false;
			i++;
			col = 0;
			continue;
		}
		if (c == '\n' || c == 0 || (c >= 0x80 && !eight_bit) ||
		    ++col > 900)
			return false;
	}
	return len == 0 || (len >= 2 && s[len - 2] == '\r' &&
			    s[len - 1] == '\n');
}

/* The body of a single part: its encoding header, a blank line, then the
 * bytes as they are when they can be, else in base64. */
void pgp_public_body(const char *s, size_t len, bool eight_bit,
		     struct buf *out)
{
	if (public_clean(s, len, eight_bit)) {
		buf_printf(out, "Content-Transfer-Encoding: %s\r\n\r\n",
			   eight_bit ? "8bit" : "7bit");
		buf_append(out, s, len);
	} else {
		buf_puts(out, "Content-Transfer-Encoding: base64\r\n\r\n");
		public_base64((const unsigned char *)s, len, out);
	}
}

/* A boundary found in neither a nor b. */
void pgp_public_boundary(const struct buf *a, const struct buf *b,
			 char *out, size_t len)
{
	for (unsigned n = 0;; n++) {
		snprintf(out, len, "=_ashes-signed-%u", n);
		if (memmem(a->data, a->len, out, strlen(out)) == NULL &&
		    memmem(b->data, b->len, out, strlen(out)) == NULL)
			return;
	}
}

/* A token of micalg ("pgp-sha256"), else the usual one. */
static const char *public_micalg(const char *v)
{
	if (v == NULL || v[0] == '\0' || strlen(v) > 32 ||
	    strspn(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		   "0123456789-") != strlen(v))
		return "pgp-sha256";
	return v;
}

/* The ashes-signed-content of root's text part ("mime", "text"), or
 * NULL. */
static const char *public_signed_content(struct mailmime *root)
{
	struct mailmime *part;
	const char *v;
	bool html;

	part = mime_find_text_part(root, &html);
	v = part != NULL && !html ? mime_param(part, "ashes-signed-content") :
	    NULL;
	return v != NULL && (strcmp(v, "mime") == 0 || strcmp(v, "text") == 0) ?
	       v : NULL;
}

int pgp_public_mail(const char *raw, size_t len, const char *headers,
		    const char *text, struct buf *out_r,
		    const char **error_r)
{
	struct buf canon = BUF_INIT, signed_part = BUF_INIT, sig = BUF_INIT;
	struct buf lf = BUF_INIT;
	struct mailmime *root = NULL, *part;
	enum pgp_signed_kind kind;
	const char *charset = NULL;
	char boundary[64];
	bool html = false;
	int ret = -1;

	if (pgp_export_signed(raw, len, &kind, &signed_part, &sig,
			      error_r) < 0)
		goto out;
	mime_to_crlf(raw, len, &canon);
	if (mime_parse(canon.data != NULL ? canon.data : "", canon.len, &root,
		       error_r) < 0)
		goto out;
	buf_puts(out_r, headers);
	buf_puts(out_r, "MIME-Version: 1.0\r\n");
	switch (kind) {
	case PGP_SIGNED_MIME:
		pgp_public_boundary(&signed_part, &sig, boundary,
				sizeof(boundary));
		buf_printf(out_r, "Content-Type: multipart/signed; "
			   "micalg=\"%s\";\r\n protocol=\"application/"
			   "pgp-signature\";\r\n boundary=\"%s\"\r\n\r\n--%s\r\n",
			   public_micalg(mime_param(mime_find_pgp_signed(
				   mime_message_body(root)), "micalg")),
			   boundary, boundary);
		buf_append(out_r, signed_part.data, signed_part.len);
		buf_printf(out_r, "\r\n--%s\r\nContent-Type: application/"
			   "pgp-signature; name=\"signature.asc\"\r\n",
			   boundary);
		pgp_public_body(sig.data != NULL ? sig.data : "", sig.len, false,
			    out_r);
		buf_printf(out_r, "\r\n--%s--\r\n", boundary);
		break;
	case PGP_SIGNED_CLEAR:
		/* The block as inbound_parse() gave it to gpg: an HTML part
		 * rendered (UTF-8), a plain part in its own charset. */
		part = mime_find_text_part(root, &html);
		if (!html && part != NULL)
			charset = mime_param(part, "charset");
		if (html || charset == NULL ||
		    strspn(charset, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN"
			   "OPQRSTUVWXYZ0123456789-_.:") != strlen(charset))
			charset = html ? "utf-8" : NULL;
		buf_printf(out_r, "Content-Type: text/plain%s%s%s\r\n",
			   charset != NULL ? "; charset=\"" : "",
			   charset != NULL ? charset : "",
			   charset != NULL ? "\"" : "");
		/* verify finds the block again by its armor lines: a line
		 * end after the END line is outside it. */
		if (signed_part.len > 0 &&
		    signed_part.data[signed_part.len - 1] != '\n')
			buf_puts(&signed_part, "\r\n");
		pgp_public_body(signed_part.data, signed_part.len, true, out_r);
		break;
	case PGP_SIGNED_MESSAGE:
		/* The armored signed message of a one-pass signed, encrypted
		 * mail (its archive form): ASCII, found again by its armor;
		 * whether what it signs is a MIME entity or text, as the
		 * form said (inbound_archive_form). */
		charset = public_signed_content(root);
		buf_printf(out_r, "Content-Type: text/plain%s%s\r\n",
			   charset != NULL ? "; ashes-signed-content=" : "",
			   charset != NULL ? charset : "");
		if (signed_part.len > 0 &&
		    signed_part.data[signed_part.len - 1] != '\n')
			buf_puts(&signed_part, "\r\n");
		pgp_public_body(signed_part.data, signed_part.len, true, out_r);
		break;
	case PGP_SIGNED_NONE:
		/* Nothing signed: the text as the daemon read it. */
		mime_to_crlf(text != NULL ? text : "",
			     text != NULL ? strlen(text) : 0, &lf);
		if (lf.len > 0 && lf.data[lf.len - 1] != '\n')
			buf_puts(&lf, "\r\n");
		buf_puts(out_r, "Content-Type: text/plain; charset=\"utf-8\""
			 "\r\n");
		pgp_public_body(lf.data != NULL ? lf.data : "", lf.len, true,
			    out_r);
		break;
	}
	ret = 0;
out:
	mime_free(&root);
	buf_free(&canon);
	buf_free(&signed_part);
	buf_free(&sig);
	buf_free(&lf);
	return ret;
}
