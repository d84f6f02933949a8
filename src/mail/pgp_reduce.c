/* pgp_reduce.c -- one stored mail reduced to what proves what its sender
 * signed (see pgp.h, pgp_reduce_mail): the club keeps that of a finished
 * game's mails, and of every mail of a player who asked to be deleted,
 * and drops the rest -- the headers every server on the way wrote, the
 * sender's program's, the alternatives and attachments outside the
 * signature. */
#include "config.h"

#include "mail/pgp.h"

#include <libetpan/libetpan.h>
#include <stdio.h>
#include <string.h>

#include "mail/inbound_private.h"
#include "mail/mime.h"
#include "mail/pgp_private.h"
#include "util/buf.h"

const char *pgp_reduced_kind_name(enum pgp_reduced_kind kind)
{
	switch (kind) {
	case PGP_REDUCED_MIME: return "PGP/MIME";
	case PGP_REDUCED_CLEAR: return "clearsigned";
	case PGP_REDUCED_MESSAGE: return "signed message";
	case PGP_REDUCED_ENCRYPTED: return "encrypted";
	case PGP_REDUCED_TEXT: return "unsigned text";
	}
	return "unsigned text";
}

/* The encrypted message of a mail, in the form it came in: a PGP/MIME
 * multipart/encrypted (RFC 3156 section 4) of its version part and the
 * message, or a text/plain of the armored message. */
static void reduce_encrypted(const char *headers, const struct buf *blob,
			     bool pgp_mime, struct buf *out)
{
	char boundary[64];

	buf_puts(out, headers);
	buf_puts(out, "MIME-Version: 1.0\r\n");
	if (!pgp_mime) {
		struct buf block = BUF_INIT;

		buf_append(&block, blob->data, blob->len);
		if (block.len > 0 && block.data[block.len - 1] != '\n')
			buf_puts(&block, "\r\n");
		buf_puts(out, "Content-Type: text/plain; charset=us-ascii\r\n");
		pgp_public_body(block.data, block.len, false, out);
		buf_free(&block);
		return;
	}
	pgp_public_boundary(blob, blob, boundary, sizeof(boundary));
	buf_printf(out, "Content-Type: multipart/encrypted;\r\n protocol=\""
		   "application/pgp-encrypted\";\r\n boundary=\"%s\"\r\n\r\n"
		   "--%s\r\nContent-Type: application/pgp-encrypted\r\n\r\n"
		   "Version: 1\r\n\r\n--%s\r\nContent-Type: application/"
		   "octet-stream; name=\"encrypted.asc\"\r\n", boundary,
		   boundary, boundary);
	pgp_public_body(blob->data, blob->len, false, out);
	buf_printf(out, "\r\n--%s--\r\n", boundary);
}

/* a and b hold the same bytes (an empty buf's data may be NULL, which
 * memcmp must not see). */
static bool same_bytes(const struct buf *a, const struct buf *b)
{
	return a->len == b->len &&
	       (a->len == 0 || memcmp(a->data, b->data, a->len) == 0);
}

/* Does the reduced mail give what the mail gave -- the same signed
 * bytes and signature, or the same encrypted message?  The reduction
 * must never lose the proof: checked by reading it again. */
static bool reduce_holds(const struct buf *out, enum pgp_signed_kind kind,
			 const struct buf *s, const struct buf *d,
			 const struct buf *blob)
{
	struct buf s2 = BUF_INIT, d2 = BUF_INIT, b2 = BUF_INIT;
	struct mailmime *root = NULL;
	enum pgp_signed_kind k2;
	const char *err;
	bool pgp_mime, same = false;

	if (blob == NULL) {
		same = pgp_export_signed(out->data, out->len, &k2, &s2, &d2,
					 &err) == 0 && k2 == kind &&
		       same_bytes(&s2, s) && same_bytes(&d2, d);
	} else if (mime_parse(out->data, out->len, &root, &err) == 0) {
		same = inbound_encrypted_message(root, &b2, &pgp_mime) &&
		       same_bytes(&b2, blob);
	}
	mime_free(&root);
	buf_free(&s2);
	buf_free(&d2);
	buf_free(&b2);
	return same;
}

int pgp_reduce_mail(const char *raw, size_t len, const char *headers,
		    const char *text, struct buf *out_r,
		    enum pgp_reduced_kind *kind_r, const char **error_r)
{
	struct buf s = BUF_INIT, d = BUF_INIT, canon = BUF_INIT;
	struct buf blob = BUF_INIT, out = BUF_INIT;
	struct mailmime *root = NULL;
	enum pgp_signed_kind kind;
	bool pgp_mime = false, encrypted = false;
	int ret = -1;

	*kind_r = PGP_REDUCED_TEXT;
	if (headers == NULL)
		headers = "";
	/* pgp_export_signed parses under mime_parse's limits: what it
	 * cannot read is refused here, and the mail stays as it is. */
	if (pgp_export_signed(raw, len, &kind, &s, &d, error_r) < 0)
		goto out;
	if (kind == PGP_SIGNED_NONE) {
		mime_to_crlf(raw, len, &canon);
		if (canon.data == NULL)
			buf_puts(&canon, "");
		if (mime_parse(canon.data, canon.len, &root, error_r) < 0)
			goto out;
		encrypted = inbound_encrypted_message(root, &blob, &pgp_mime);
	}
	if (encrypted) {
		reduce_encrypted(headers, &blob, pgp_mime, &out);
		*kind_r = PGP_REDUCED_ENCRYPTED;
	} else if (kind == PGP_SIGNED_NONE && text == NULL) {
		*error_r = "the mail holds nothing signed or encrypted";
		goto out;
	} else {
		if (pgp_public_mail(raw, len, headers, text, &out,
				    error_r) < 0)
			goto out;
		*kind_r = kind == PGP_SIGNED_MIME ? PGP_REDUCED_MIME :
			  kind == PGP_SIGNED_CLEAR ? PGP_REDUCED_CLEAR :
			  kind == PGP_SIGNED_MESSAGE ? PGP_REDUCED_MESSAGE :
			  PGP_REDUCED_TEXT;
	}
	if (*kind_r != PGP_REDUCED_TEXT &&
	    !reduce_holds(&out, kind, &s, &d, encrypted ? &blob : NULL)) {
		*error_r = "the reduced mail would not hold what the mail's "
			   "signature covers";
		goto out;
	}
	buf_append(out_r, out.data, out.len);
	ret = 0;
out:
	mime_free(&root);
	buf_free(&s);
	buf_free(&d);
	buf_free(&canon);
	buf_free(&blob);
	buf_free(&out);
	return ret;
}
