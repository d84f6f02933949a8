/* inbound_crypt.c -- the parts of reading a mail (inbound.h) that come
 * from what mail clients do with OpenPGP beyond signing: a key file of
 * any type, the key in the Autocrypt header, and a mail encrypted to the
 * club's key.  Called from inbound_body.c. */
#include "config.h"

#include <ctype.h>
#include <libetpan/libetpan.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mail/autocrypt.h"
#include "mail/inbound_private.h"
#include "mail/mime.h"
#include "mail/pgp.h"
#include "mail/pgp_scan.h"
#include "util/buf.h"

/* ---- key files ---- */

/* The file name of a part: Content-Disposition's filename, else
 * Content-Type's name; NULL when it has none. */
static const char *inbound_file_name(const struct mailmime *m)
{
	clistiter *it, *pi;

	if (m->mm_mime_fields != NULL)
		for (it = clist_begin(m->mm_mime_fields->fld_list); it != NULL;
		     it = clist_next(it)) {
			struct mailmime_field *f = clist_content(it);

			if (f->fld_type != MAILMIME_FIELD_DISPOSITION ||
			    f->fld_data.fld_disposition == NULL)
				continue;
			for (pi = clist_begin(f->fld_data.fld_disposition->dsp_parms);
			     pi != NULL; pi = clist_next(pi)) {
				struct mailmime_disposition_parm *p =
					clist_content(pi);

				if (p->pa_type == MAILMIME_DISPOSITION_PARM_FILENAME &&
				    p->pa_data.pa_filename != NULL)
					return p->pa_data.pa_filename;
			}
		}
	return mime_param(m, "name");
}

static bool inbound_ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);

	return n >= t && strcasecmp(s + n - t, tail) == 0;
}

bool inbound_key_file(struct mailmime *m, const char *type,
		      const struct buf *dec)
{
	static const char armor[] = "-----BEGIN PGP PUBLIC KEY BLOCK-----";
	const char *name;
	const unsigned char *d = (const unsigned char *)dec->data;
	size_t i = 0;

	if (strcmp(type, "application/pgp-keys") == 0)
		return true;
	/* a key file under another type: GpgOL's octet-stream, a .asc a
	 * mail program took for text; never the mail's own text part */
	if (strcmp(type, "application/octet-stream") != 0 &&
	    strcmp(type, "text/plain") != 0 &&
	    strcmp(type, "application/pgp") != 0 &&
	    strcmp(type, "application/x-pgp-keys") != 0)
		return false;
	name = inbound_file_name(m);
	if (strcmp(type, "text/plain") == 0 && name == NULL &&
	    !mime_is_attachment(m))
		return false;
	if (d == NULL || dec->len == 0)
		return false;
	while (i < dec->len && isspace(d[i]))
		i++;
	if (dec->len - i >= sizeof(armor) - 1 &&
	    memcmp(d + i, armor, sizeof(armor) - 1) == 0)
		return true;
	/* binary: a public key packet first (old format tag 6: 0x98-0x9b,
	 * new format: 0xc6) */
	if ((d[0] & 0xfc) == 0x98 || d[0] == 0xc6)
		return name == NULL || inbound_ends_with(name, ".asc") ||
		       inbound_ends_with(name, ".gpg") ||
		       inbound_ends_with(name, ".pgp") ||
		       inbound_ends_with(name, ".pub") ||
		       inbound_ends_with(name, ".key");
	return false;
}

/* ---- the Autocrypt header ---- */

void inbound_autocrypt(struct inbound_msg *msg, const char *hdrs,
		       size_t len, bool in_signed)
{
	struct buf key = BUF_INIT;
	char why[200];

	if (msg->from_addr == NULL || hdrs == NULL)
		return;
	if (autocrypt_find(hdrs, len, msg->from_addr, &key, why,
			   sizeof(why)) == 1)
		inbound_add_key(msg, key.data, key.len, true, in_signed);
	buf_free(&key);
}

/* ---- encrypted mail ---- */

/* The multipart/encrypted entity of RFC 3156 at m or (a list's footer
 * beside it) one level down. */
static struct mailmime *inbound_find_encrypted(struct mailmime *m, int depth)
{
	char type[64];
	clistiter *it;

	if (m == NULL)
		return NULL;
	mime_type(m, type, sizeof(type));
	if (strcmp(type, "multipart/encrypted") == 0 &&
	    m->mm_type == MAILMIME_MULTIPLE)
		return m;
	if (depth > 0 || m->mm_type != MAILMIME_MULTIPLE ||
	    strcmp(type, "multipart/mixed") != 0)
		return NULL;
	for (it = clist_begin(m->mm_data.mm_multipart.mm_mp_list); it != NULL;
	     it = clist_next(it)) {
		struct mailmime *e = inbound_find_encrypted(clist_content(it),
							    depth + 1);
		if (e != NULL)
			return e;
	}
	return NULL;
}

/* Its second part, application/octet-stream, holds the message. */
static struct mailmime *inbound_encrypted_data(struct mailmime *me)
{
	clistiter *it = clist_begin(me->mm_data.mm_multipart.mm_mp_list);

	if (it == NULL || (it = clist_next(it)) == NULL)
		return NULL;
	return clist_content(it);
}

/* An armored message in the text part: where it starts and its length. */
static bool inbound_inline_encrypted(struct mailmime *root, struct buf *text,
				     struct mailmime **part_r, size_t *start_r,
				     size_t *len_r)
{
	struct mailmime *part;
	const char *err;
	size_t pos = 0;
	bool html;

	part = mime_find_text_part(root, &html);
	if (part == NULL || html || mime_decode(part, text, &err) < 0 ||
	    text->len == 0)
		return false;
	*part_r = part;
	/* a clearsigned text is read as one, whatever it quotes */
	if (mime_find_clearsigned(text->data, text->len, start_r, len_r))
		return false;
	return mime_find_armor(text->data, text->len, "PGP MESSAGE", &pos,
			       start_r, len_r);
}

bool inbound_is_encrypted(struct mailmime *root)
{
	struct buf text = BUF_INIT;
	struct mailmime *part;
	size_t s, n;
	bool yes;

	if (inbound_find_encrypted(mime_message_body(root), 0) != NULL)
		return true;
	yes = inbound_inline_encrypted(root, &text, &part, &s, &n);
	buf_free(&text);
	return yes;
}

bool inbound_encrypted_message(struct mailmime *root, struct buf *data_r,
			       bool *pgp_mime_r)
{
	struct buf text = BUF_INIT, dec = BUF_INIT;
	struct mailmime *me, *dp, *part;
	const char *err;
	size_t s, n;
	bool found = false;

	*pgp_mime_r = false;
	me = inbound_find_encrypted(mime_message_body(root), 0);
	if (me != NULL) {
		if ((dp = inbound_encrypted_data(me)) != NULL &&
		    mime_decode(dp, &dec, &err) == 0 && dec.len > 0) {
			buf_append(data_r, dec.data, dec.len);
			*pgp_mime_r = found = true;
		}
	} else if (inbound_inline_encrypted(root, &text, &part, &s, &n)) {
		buf_append(data_r, text.data + s, n);
		found = true;
	}
	buf_free(&text);
	buf_free(&dec);
	return found;
}

/* The decrypted content read as the mail's body: a MIME entity
 * (PGP/MIME), parsed as a message of its own and read by
 * inbound_read_body (once: msg->decrypted stops a second layer). */
static int inbound_read_entity(struct inbound_msg *msg,
			       const struct inbound_options *opts,
			       const struct buf *plain, const char **error_r)
{
	struct buf inner = BUF_INIT;
	struct mailmime *root = NULL;
	const char *err;
	int ret = 0;

	buf_puts(&inner, "MIME-Version: 1.0\r\n");
	mime_to_crlf(plain->data ? plain->data : "", plain->len, &inner);
	if (mime_parse(inner.data, inner.len, &root, &err) < 0) {
		inbound_problem(msg, INBOUND_BAD_MIME, err);
		goto out;
	}
	ret = inbound_read_body(msg, opts, root, &inner, error_r);
out:
	mime_free(&root);
	buf_free(&inner);
	return ret;
}

/* The decrypted content of an inline message: text in the part's
 * charset (UTF-8 when it names none beyond ASCII). */
static void inbound_read_inline(struct inbound_msg *msg,
				struct mailmime *part, const struct buf *plain)
{
	struct buf utf8 = BUF_INIT;
	const char *charset = mime_param(part, "charset"), *err;

	if (charset == NULL || strcasecmp(charset, "us-ascii") == 0)
		charset = "utf-8";
	if (mime_to_utf8(charset, plain->data ? plain->data : "", plain->len,
			 &utf8, &err) < 0)
		inbound_problem(msg, INBOUND_UNDECODABLE, err);
	else
		inbound_set_text(msg, &utf8, false);
	buf_free(&utf8);
}

int inbound_read_encrypted(struct inbound_msg *msg,
			   const struct inbound_options *opts,
			   struct mailmime *root, const struct buf *canon,
			   const char **error_r)
{
	struct buf data = BUF_INIT, text = BUF_INIT, plain = BUF_INIT;
	struct mailmime *me, *part = NULL;
	struct pgp_decrypted d;
	size_t max = opts->max_size > 0 ? opts->max_size :
		     INBOUND_DEFAULT_MAX_SIZE, start, n, k0, i;
	const char *err;
	bool mime, signed_only = false;
	int ret = -1;

	(void)canon;
	msg->decrypted = true;
	me = inbound_find_encrypted(mime_message_body(root), 0);
	mime = me != NULL;
	if (mime) {
		struct mailmime *dp = inbound_encrypted_data(me);

		if (dp == NULL || mime_decode(dp, &data, &err) < 0) {
			inbound_problem(msg, INBOUND_BAD_MIME, dp == NULL ?
					"the encrypted mail holds no encrypted "
					"part" : err);
			ret = 0;
			goto out;
		}
	} else if (inbound_inline_encrypted(root, &text, &part, &start, &n)) {
		char why[200];
		const char *c = mime_param(part, "ashes-signed-content");

		buf_append(&data, text.data + start, n);
		/* the archive's form of a one-pass signed, encrypted mail:
		 * the signed message without its encryption */
		signed_only = pgp_scan(data.data, data.len,
				       PGP_SCAN_SIGNED_MESSAGE, why,
				       sizeof(why)) == 0;
		mime = signed_only && c != NULL && strcmp(c, "mime") == 0;
	}
	if (opts->pgp == NULL) {
		inbound_problem(msg, INBOUND_ENCRYPTED, "this reader holds no "
				"key to decrypt it");
		ret = 0;
		goto out;
	}
	if ((signed_only ? pgp_verify_message : pgp_decrypt_verify)(
		    opts->pgp, data.data ? data.data : "", data.len, max, &plain,
		    &d, error_r) < 0)
		goto out;
	if (d.status != PGP_DECRYPT_OK) {
		inbound_problem(msg, INBOUND_ENCRYPTED, d.why);
		ret = 0;
		goto out;
	}
	k0 = msg->key_count;
	if (mime) {
		if (inbound_read_entity(msg, opts, &plain, error_r) < 0)
			goto out;
	} else {
		inbound_read_inline(msg, part, &plain);
	}
	ret = 0;
	if (msg->sig_kind != INBOUND_UNSIGNED || d.sig.status == PGP_SIG_NONE)
		goto out;	/* a signed entity inside, or not signed */
	/* One pass: the whole decrypted content is what is signed, keys
	 * found in it included. */
	msg->sig_kind = INBOUND_ENCRYPTED_SIGNED;
	msg->text_outside_signature = false;
	for (i = k0; i < msg->key_count; i++)
		msg->keys[i].in_signed = true;
	if (d.sig.status == PGP_SIG_UNKNOWN_KEY && opts->import_keys &&
	    inbound_import(msg, opts, error_r) > 0) {
		struct buf again = BUF_INIT;
		struct pgp_decrypted d2;

		if ((signed_only ? pgp_verify_message : pgp_decrypt_verify)(
			    opts->pgp, data.data, data.len, max, &again, &d2,
			    error_r) < 0) {
			buf_free(&again);
			ret = -1;
			goto out;
		}
		if (d2.status == PGP_DECRYPT_OK)
			d.sig = d2.sig;
		buf_free(&again);
	}
	msg->sig = d.sig;
	inbound_canon_digest(plain.data ? plain.data : "", plain.len,
			     msg->signed_sha256);
	inbound_freshness(msg, opts);
	inbound_signature_id(msg);
out:
	buf_free(&data);
	buf_free(&text);
	buf_free(&plain);
	return ret;
}

/* ---- the archive's form of an encrypted mail ---- */

/* The header block of canon without its MIME fields (the body they
 * describe is replaced). */
static void inbound_form_headers(const char *c, size_t len, struct buf *out)
{
	size_t i = 0;

	while (i < len) {
		size_t s = i, e = i;

		while (e < len) {
			while (e < len && c[e] != '\n')
				e++;
			if (e < len)
				e++;
			if (e >= len || (c[e] != ' ' && c[e] != '\t'))
				break;
		}
		i = e;
		if (e - s <= 2 && (c[s] == '\r' || c[s] == '\n'))
			break;
		if ((e - s >= 13 && strncasecmp(c + s, "Content-Type:", 13) == 0) ||
		    (e - s >= 26 && strncasecmp(c + s,
				"Content-Transfer-Encoding:", 26) == 0) ||
		    (e - s >= 13 && strncasecmp(c + s, "MIME-Version:", 13) == 0))
			continue;
		buf_append(out, c + s, e - s);
	}
	buf_puts(out, "MIME-Version: 1.0\r\n");
}

/* RFC 9580 section 6: armor with its CRC-24. */
static void inbound_armor(const unsigned char *d, size_t n, struct buf *out)
{
	static const char b64[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	unsigned long crc = 0xB704CEUL;
	size_t i, col = 0;
	int k;

	for (i = 0; i < n; i++) {
		crc ^= (unsigned long)d[i] << 16;
		for (k = 0; k < 8; k++) {
			crc <<= 1;
			if (crc & 0x1000000UL)
				crc ^= 0x1864CFBUL;
		}
	}
	buf_puts(out, "-----BEGIN PGP MESSAGE-----\r\n\r\n");
	for (i = 0; i < n; i += 3) {
		unsigned long v = (unsigned long)d[i] << 16;
		size_t m = n - i < 3 ? n - i : 3;
		char q[4];

		if (m > 1)
			v |= (unsigned long)d[i + 1] << 8;
		if (m > 2)
			v |= d[i + 2];
		q[0] = b64[v >> 18 & 63];
		q[1] = b64[v >> 12 & 63];
		q[2] = m > 1 ? b64[v >> 6 & 63] : '=';
		q[3] = m > 2 ? b64[v & 63] : '=';
		buf_append(out, q, 4);
		if ((col += 4) == 64) {
			buf_puts(out, "\r\n");
			col = 0;
		}
	}
	if (col > 0)
		buf_puts(out, "\r\n");
	buf_printf(out, "=%c%c%c%c\r\n-----END PGP MESSAGE-----\r\n",
		   b64[crc >> 18 & 63], b64[crc >> 12 & 63], b64[crc >> 6 & 63],
		   b64[crc & 63]);
}

int inbound_archive_form(struct pgp_ctx *pgp, const char *raw, size_t len,
			 size_t max, struct buf *out_r, const char **error_r)
{
	static __thread char why[300];
	struct buf canon = BUF_INIT, data = BUF_INIT, text = BUF_INIT;
	struct buf plain = BUF_INIT, inner = BUF_INIT, wrapped = BUF_INIT;
	struct mailmime *root = NULL, *iroot = NULL, *me, *part, *dp;
	struct pgp_decrypted d;
	size_t start, n;
	const char *err;
	bool mime = false;
	int ret = -1;

	mime_to_crlf(raw, len, &canon);
	if (canon.data == NULL)
		buf_puts(&canon, "");
	if (mime_parse(canon.data, canon.len, &root, &err) < 0 ||
	    !inbound_is_encrypted(root)) {
		ret = 0;
		goto out;
	}
	me = inbound_find_encrypted(mime_message_body(root), 0);
	if (me != NULL) {
		mime = true;
		if ((dp = inbound_encrypted_data(me)) == NULL ||
		    mime_decode(dp, &data, &err) < 0) {
			ret = 0;
			goto out;
		}
	} else if (inbound_inline_encrypted(root, &text, &part, &start, &n)) {
		buf_append(&data, text.data + start, n);
		if (pgp_scan(data.data, data.len, PGP_SCAN_SIGNED_MESSAGE, why,
			     sizeof(why)) == 0) {
			ret = 0;	/* already the archive's form */
			goto out;
		}
	}
	if (pgp_decrypt_verify(pgp, data.data ? data.data : "", data.len, max,
			       &plain, &d, error_r) < 0)
		goto out;
	if (d.status != PGP_DECRYPT_OK) {
		snprintf(why, sizeof(why), "the encrypted mail cannot be "
			 "decrypted: %s", d.why);
		*error_r = why;
		goto out;
	}
	inbound_form_headers(canon.data, canon.len, out_r);
	if (mime) {
		buf_puts(&inner, "MIME-Version: 1.0\r\n");
		mime_to_crlf(plain.data ? plain.data : "", plain.len, &inner);
		if (mime_parse(inner.data, inner.len, &iroot, &err) == 0 &&
		    mime_find_pgp_signed(mime_message_body(iroot)) != NULL) {
			/* the multipart/signed entity, as it was signed */
			buf_append(out_r, inner.data + 19, inner.len - 19);
			ret = 1;
			goto out;
		}
	}
	if (d.sig.status == PGP_SIG_NONE) {
		buf_reset(out_r);
		ret = 0;	/* encrypted, not signed: nothing to prove */
		goto out;
	}
	if (pgp_decrypt_unwrap(pgp, data.data, data.len, max, &wrapped, &d,
			       error_r) < 0)
		goto out;
	if (d.status != PGP_DECRYPT_OK) {
		snprintf(why, sizeof(why), "the encrypted mail cannot be "
			 "unwrapped: %s", d.why);
		*error_r = why;
		goto out;
	}
	buf_printf(out_r, "Content-Type: text/plain; charset=us-ascii;\r\n"
		   " ashes-signed-content=%s\r\n\r\n", mime ? "mime" : "text");
	inbound_armor((const unsigned char *)wrapped.data, wrapped.len, out_r);
	ret = 1;
out:
	if (ret != 1 && ret >= 0)
		buf_reset(out_r);
	mime_free(&iroot);
	mime_free(&root);
	buf_free(&canon);
	buf_free(&data);
	buf_free(&text);
	buf_free(&plain);
	buf_free(&inner);
	buf_free(&wrapped);
	return ret;
}

/* ---- the unknown key, named as the sender knows it ---- */

void inbound_name_carried_key(struct inbound_msg *msg,
			      const struct inbound_options *opts)
{
	size_t i;

	if (opts->pgp == NULL || msg->sig.status != PGP_SIG_UNKNOWN_KEY ||
	    msg->sig.fpr[0] == '\0')
		return;
	for (i = 0; i < msg->key_count && i < 4; i++)
		if (pgp_carried_primary(opts->pgp, msg->keys[i].data,
					msg->keys[i].len, msg->sig.fpr,
					msg->carried_fpr) == 1)
			return;
}
