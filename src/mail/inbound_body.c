/* inbound_body.c -- the body of a received mail (see inbound.h): its
 * command text in UTF-8, the public keys it carries, and its OpenPGP
 * signature, PGP/MIME or clearsigned, with the digest the replay history
 * keys it by.  Called by inbound_parse (inbound.c) for a mail that is
 * neither a loop nor a bounce. */
#include "config.h"


#include <ctype.h>
#include <libetpan/libetpan.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mail/inbound_clients.h"
#include "mail/inbound_private.h"
#include "mail/mime.h"
#include "mail/pgp.h"
#include "util/buf.h"
#include "util/xstr.h"

/* ---- text and keys ---- */

/* CRLF -> LF, a final LF, no leading BOM: the command text the daemon
 * reads. */
static char *inbound_finish_text(const char *s, size_t len)
{
	struct buf b = BUF_INIT;
	size_t i;

	if (len >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0) {
		s += 3;
		len -= 3;
	}
	for (i = 0; i < len; i++) {
		if (s[i] == '\r' && i + 1 < len && s[i + 1] == '\n')
			continue;
		buf_putc(&b, s[i] == '\r' ? '\n' : s[i]);
	}
	/* every line ends in LF, the last one too */
	if (b.len > 0 && b.data[b.len - 1] != '\n')
		buf_putc(&b, '\n');
	if (b.data == NULL)
		buf_puts(&b, "");
	return buf_steal(&b);
}

void inbound_add_key(struct inbound_msg *msg, const char *data,
			    size_t len, bool attached, bool in_signed)
{
	struct inbound_key *keys;
	size_t i;

	for (i = 0; i < msg->key_count; i++)
		if (msg->keys[i].len == len && memcmp(msg->keys[i].data, data, len) == 0) {
			msg->keys[i].in_signed |= in_signed;
			return;
		}
	keys = realloc(msg->keys, (msg->key_count + 1) * sizeof(*keys));
	if (keys == NULL) {
		fputs("inbound: out of memory\n", stderr);
		abort();
	}
	msg->keys = keys;
	keys[msg->key_count].data = malloc(len + 1);
	if (keys[msg->key_count].data == NULL) {
		fputs("inbound: out of memory\n", stderr);
		abort();
	}
	memcpy(keys[msg->key_count].data, data, len);
	keys[msg->key_count].data[len] = '\0';
	keys[msg->key_count].len = len;
	keys[msg->key_count].attached = attached;
	keys[msg->key_count].in_signed = in_signed;
	msg->key_count++;
}

/* Keys pasted in text: armored public key blocks, and the revocation
 * certificate as gpg keeps it under openpgp-revocs.d, its BEGIN line
 * guarded by a ':' (pgp_import_known takes the guard off).  Either is
 * only key material: what it may change is for pgp.h to say. */
static void inbound_pasted_keys(struct inbound_msg *msg, const char *text,
				size_t len)
{
	static const char guarded[] = ":-----BEGIN PGP PUBLIC KEY BLOCK-----";
	static const char end[] = "-----END PGP PUBLIC KEY BLOCK-----";
	size_t pos = 0, start, n;
	const char *p, *e;

	while (mime_find_armor(text, len, "PGP PUBLIC KEY BLOCK", &pos, &start, &n))
		inbound_add_key(msg, text + start, n, false,
				msg->sig_kind != INBOUND_UNSIGNED);
	for (pos = 0; pos < len &&
	     (p = memmem(text + pos, len - pos, guarded, sizeof(guarded) - 1));) {
		start = (size_t)(p - text);
		pos = start + sizeof(guarded) - 1;
		if (start > 0 && text[start - 1] != '\n')
			continue;
		e = memmem(text + pos, len - pos, end, sizeof(end) - 1);
		if (e == NULL)
			break;
		pos = (size_t)(e - text) + sizeof(end) - 1;
		while (pos < len && text[pos] != '\n')
			pos++;
		inbound_add_key(msg, text + start, pos - start, false,
				msg->sig_kind != INBOUND_UNSIGNED);
	}
}

/* An unsigned mail's text parts besides the one read as its text: a
 * revocation certificate is pasted wherever the owner's mail program
 * puts it (a second part, a .rev file attached as text).  Only for
 * unsigned mail: a signed mail's keys come from what was signed. */
struct inbound_other_parts {
	struct inbound_msg *msg;
	struct mailmime *text_part;	/* read already, as the text */
};

static void inbound_part_pasted_keys(struct mailmime *m, void *ctx)
{
	struct inbound_other_parts *o = ctx;
	struct buf b = BUF_INIT;
	const char *err;
	char type[64];

	if (m->mm_type != MAILMIME_SINGLE || m == o->text_part)
		return;
	mime_type(m, type, sizeof(type));
	/* (an HTML part is the text part's twin, not a paste of its own) */
	if (((strncmp(type, "text/", 5) == 0 && strcmp(type, "text/html") != 0) ||
	     strcmp(type, "application/octet-stream") == 0) &&
	    mime_decode(m, &b, &err) == 0 && b.len > 0)
		inbound_pasted_keys(o->msg, b.data, b.len);
	buf_free(&b);
}

/* The command text of the mail: text, finished as inbound_finish_text
 * says, from HTML or not; and the keys pasted in it. */
void inbound_set_text(struct inbound_msg *msg, const struct buf *text,
			     bool html)
{
	msg->text = inbound_finish_text(text->data ? text->data : "", text->len);
	msg->text_from_html = html;
	inbound_pasted_keys(msg, msg->text, strlen(msg->text));
}

static void inbound_key_part_as(struct mailmime *m, struct inbound_msg *msg,
				bool in_signed)
{
	struct buf b = BUF_INIT;
	const char *err;
	char type[64];

	if (m->mm_type != MAILMIME_SINGLE)
		return;
	mime_type(m, type, sizeof(type));
	if (mime_decode(m, &b, &err) == 0 && b.len > 0 &&
	    inbound_key_file(m, type, &b))
		inbound_add_key(msg, b.data, b.len, true, in_signed);
	buf_free(&b);
}

/* A key attached inside the PGP/MIME signed part. */
static void inbound_key_part(struct mailmime *m, void *ctx)
{
	inbound_key_part_as(m, ctx, true);
}

/* A key attached anywhere else: the signature does not cover it. */
static void inbound_key_part_outside(struct mailmime *m, void *ctx)
{
	inbound_key_part_as(m, ctx, false);
}

/* Decoded text of a text part into *utf8 (HTML converted).  Sets the
 * problem and returns -1 when it cannot be read. */
static int inbound_part_utf8(struct inbound_msg *msg, struct mailmime *part,
			     bool html, const char *bytes, size_t len,
			     struct buf *utf8)
{
	struct buf tmp = BUF_INIT;
	const char *err;

	if (mime_to_utf8(mime_param(part, "charset"), bytes, len, &tmp, &err) < 0) {
		inbound_problem(msg, INBOUND_UNDECODABLE, err);
		buf_free(&tmp);
		return -1;
	}
	if (html)
		mime_html_to_text(tmp.data ? tmp.data : "", tmp.len, utf8);
	else
		buf_append(utf8, tmp.data ? tmp.data : "", tmp.len);
	buf_free(&tmp);
	return 0;
}

static bool inbound_blank(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!isspace((unsigned char)s[i]))
			return false;
	return true;
}

/* ---- signatures ---- */

void inbound_freshness(struct inbound_msg *msg,
			      const struct inbound_options *opts)
{
	long max_age = opts->max_age > 0 ? opts->max_age : INBOUND_DEFAULT_MAX_AGE;
	long max_future = opts->max_future > 0 ? opts->max_future :
			  INBOUND_DEFAULT_MAX_FUTURE;

	if (msg->sig.status != PGP_SIG_GOOD)
		return;
	if (msg->sig.created < opts->now - max_age)
		msg->freshness = INBOUND_FRESH_TOO_OLD;
	else if (msg->sig.created > opts->now + max_future)
		msg->freshness = INBOUND_FRESH_FUTURE;
}

/* The digest of signed content as every signature over it sees it: line
 * ends (CRLF, CR or LF) made one, trailing blanks of each line and blank
 * lines at the end dropped.  An OpenPGP text signature (a clearsigned
 * block, and PGP/MIME signed in text mode) does not cover trailing blanks
 * or the form of line ends, so an attacker can change those and the
 * signature still verifies: the replay history must not see a new text
 * then.  Coarser than any signature's own canonical form is safe -- the
 * same verified content always gives the same digest. */
void inbound_canon_digest(const char *s, size_t len, char *hex)
{
	struct buf b = BUF_INIT;
	size_t i = 0, keep = 0;

	while (i < len) {
		size_t start = i, end;

		while (i < len && s[i] != '\r' && s[i] != '\n')
			i++;
		end = i;
		while (end > start && (s[end - 1] == ' ' || s[end - 1] == '\t'))
			end--;
		buf_append(&b, s + start, end - start);
		if (end > start)
			keep = b.len;
		if (i < len && s[i] == '\r' && i + 1 < len && s[i + 1] == '\n')
			i++;
		if (i < len) {
			i++;
			buf_putc(&b, '\n');
		}
	}
	inbound_sha256_hex(b.data ? b.data : "", keep, hex);
	buf_free(&b);
}

/* Turn the digest of the signed content in msg->signed_sha256 into the
 * digest of the signature itself: signer, creation time and content, as
 * dak's signature history keys it.  The replay history must refuse the
 * same signature sent again (however its armor or MIME wrapping was
 * redone), but not the same words signed again: a player sends "board 3"
 * or "accept 5" more than once, and another player signing the words of
 * your next move first must not make your own move a "replay". */
void inbound_signature_id(struct inbound_msg *msg)
{
	char id[PGP_FPR_MAX + INBOUND_SHA256_HEX_LEN + 32];
	int n;

	if (msg->sig.fpr[0] == '\0')
		return;
	n = snprintf(id, sizeof(id), "%s %lld %s", msg->sig.fpr,
		     (long long)msg->sig.created, msg->signed_sha256);
	inbound_sha256_hex(id, (size_t)n, msg->signed_sha256);
}

/* Import the keys the mail carries (the register path). */
int inbound_import(struct inbound_msg *msg,
			  const struct inbound_options *opts,
			  const char **error_r)
{
	size_t i;
	int imported = 0;

	for (i = 0; i < msg->key_count; i++) {
		char **fprs = NULL;
		unsigned int n = 0, k;
		const char *err;

		if (pgp_import_keys(opts->pgp, msg->keys[i].data,
				    msg->keys[i].len, &fprs, &n, &err) < 0)
			continue; /* a broken key is the mail's problem */
		for (k = 0; k < n; k++)
			inbound_strs_add(&msg->imported_fprs, fprs[k]);
		imported += (int)n;
		pgp_fprs_free(&fprs);
		/* One key a mail: a registration brings one, and a mail with
		 * many attachments must not grow the keyring by many. */
		if (n > 0)
			break;
	}
	(void)error_r;
	return imported;
}

/* Walk state to see whether text exists outside the signed entity. */
struct inbound_outside {
	struct mailmime *signed_entity;
	bool found;
};

static bool inbound_is_below(struct mailmime *m, struct mailmime *ancestor)
{
	for (; m != NULL; m = m->mm_parent)
		if (m == ancestor)
			return true;
	return false;
}

static void inbound_outside_part(struct mailmime *m, void *ctx)
{
	struct inbound_outside *o = ctx;
	struct buf b = BUF_INIT;
	const char *err;
	char type[64];

	if (o->found || m->mm_type != MAILMIME_SINGLE ||
	    inbound_is_below(m, o->signed_entity) || mime_is_attachment(m))
		return;
	mime_type(m, type, sizeof(type));
	if (strncmp(type, "text/", 5) != 0)
		return;
	if (mime_decode(m, &b, &err) < 0 || !inbound_blank(b.data, b.len))
		o->found = true;
	buf_free(&b);
}

static int inbound_pgp_mime(struct inbound_msg *msg,
			    const struct inbound_options *opts,
			    struct mailmime *root, struct mailmime *ms,
			    const struct buf *canon, const char **error_r)
{
	struct mailmime *signed_part, *sig_part, *text_part;
	struct inbound_outside outside = { .signed_entity = ms };
	struct buf sig = BUF_INIT, text = BUF_INIT, dec = BUF_INIT;
	const char *signed_data, *err;
	size_t signed_len;
	bool html;
	int ret = -1;

	msg->sig_kind = INBOUND_PGP_MIME;
	if (mime_signed_parts(ms, canon->data, canon->len, &signed_data,
			      &signed_len, &signed_part, &sig_part, &err) < 0 ||
	    mime_decode(sig_part, &sig, &err) < 0) {
		msg->sig.status = PGP_SIG_ERROR;
		inbound_problem(msg, INBOUND_BAD_MIME, err);
		ret = 0;
		goto out;
	}
	inbound_canon_digest(signed_data, signed_len, msg->signed_sha256);
	/* RFC 9788's protected headers: the signed part's own */
	inbound_autocrypt(msg, signed_data, signed_len, true);
	mime_walk(mime_message_body(root), inbound_outside_part, &outside);
	msg->text_outside_signature = outside.found;

	text_part = mime_find_text_part(signed_part, &html);
	mime_walk(signed_part, inbound_key_part, msg);
	if (text_part == NULL) {
		inbound_problem(msg, INBOUND_NO_TEXT,
				"the signed part holds no text");
	} else if (mime_decode(text_part, &dec, &err) < 0) {
		inbound_problem(msg, INBOUND_UNDECODABLE, err);
	} else if (inbound_part_utf8(msg, text_part, html, dec.data, dec.len,
				     &text) == 0) {
		if (!html) /* the soft breaks are signed here */
			inbound_unflow(text_part, &text);
		inbound_set_text(msg, &text, html);
	}
	if (opts->pgp == NULL) {
		msg->sig.status = PGP_SIG_ERROR;
		ret = 0;
		goto out;
	}
	if (pgp_verify_detached(opts->pgp, signed_data, signed_len, sig.data,
				sig.len, &msg->sig, error_r) < 0)
		goto out;
	if (msg->sig.status == PGP_SIG_UNKNOWN_KEY && opts->import_keys &&
	    inbound_import(msg, opts, error_r) > 0 &&
	    pgp_verify_detached(opts->pgp, signed_data, signed_len, sig.data,
				sig.len, &msg->sig, error_r) < 0)
		goto out;
	inbound_freshness(msg, opts);
	inbound_signature_id(msg);
	ret = 0;
out:
	buf_free(&sig);
	buf_free(&text);
	buf_free(&dec);
	return ret;
}

/* Our own reading of a clearsigned block's text (dash-escapes removed,
 * trailing whitespace dropped, CRLF), for keys pasted in it and for the
 * reply when gpg could not verify it.  Never for the replay digest: that
 * comes from the text gpg verified (a "- " line, for one, reads otherwise
 * here than in gpg). */
static void inbound_clear_text(const char *blk, size_t len, struct buf *out)
{
	size_t i = 0, e;
	bool in_headers = true, first = true;
	const char *sigp = NULL;

	/* skip the BEGIN line */
	while (i < len && blk[i] != '\n')
		i++;
	i++;
	for (; i < len; i = e + 1) {
		size_t s = i, t;

		e = i;
		while (e < len && blk[e] != '\n')
			e++;
		t = e;
		while (t > s && (blk[t - 1] == '\r' || blk[t - 1] == ' ' ||
				 blk[t - 1] == '\t'))
			t--;
		if (in_headers) {
			if (t == s)
				in_headers = false;
			continue;
		}
		if (t - s >= 29 && memcmp(blk + s, "-----BEGIN PGP SIGNATURE-----", 29) == 0) {
			sigp = blk + s;
			break;
		}
		if (t - s >= 2 && blk[s] == '-' && blk[s + 1] == ' ')
			s += 2;
		if (!first)
			buf_append(out, "\r\n", 2);
		buf_append(out, blk + s, t - s);
		first = false;
	}
	(void)sigp;
	if (out->data == NULL)
		buf_puts(out, "");
}

static int inbound_clearsigned(struct inbound_msg *msg,
			       const struct inbound_options *opts,
			       struct mailmime *part, bool html,
			       const char *bytes, size_t len, size_t start,
			       size_t blen, const char **error_r)
{
	struct buf plain = BUF_INIT, ours = BUF_INIT, utf8 = BUF_INIT;
	int ret = -1;

	msg->sig_kind = INBOUND_CLEARSIGNED;
	msg->text_outside_signature = !inbound_blank(bytes, start) ||
		!inbound_blank(bytes + start + blen, len - start - blen);
	inbound_clear_text(bytes + start, blen, &ours);
	if (opts->pgp == NULL) {
		msg->sig.status = PGP_SIG_ERROR;
	} else {
		if (pgp_verify_clearsigned(opts->pgp, bytes + start, blen,
					   &msg->sig, &plain, error_r) < 0)
			goto out;
	}
	/* The text from gpg when it verified; our own reading otherwise (only
	 * used for replies and for finding a pasted key to import). */
	if (plain.len == 0)
		buf_append(&plain, ours.data, ours.len);
	if (mime_to_utf8(html ? "utf-8" : mime_param(part, "charset"),
			 plain.data ? plain.data : "", plain.len, &utf8,
			 error_r) < 0) {
		inbound_problem(msg, INBOUND_UNDECODABLE, *error_r);
	} else {
		inbound_set_text(msg, &utf8, html);
	}
	if (opts->pgp != NULL && msg->sig.status == PGP_SIG_UNKNOWN_KEY &&
	    opts->import_keys && inbound_import(msg, opts, error_r) > 0) {
		buf_reset(&plain);
		if (pgp_verify_clearsigned(opts->pgp, bytes + start, blen,
					   &msg->sig, &plain, error_r) < 0)
			goto out;
	}
	/* The replay digest: of the text gpg verified, when it did. */
	if (msg->sig.status == PGP_SIG_GOOD)
		inbound_canon_digest(plain.data ? plain.data : "", plain.len,
				     msg->signed_sha256);
	else
		inbound_canon_digest(ours.data ? ours.data : "", ours.len,
				     msg->signed_sha256);
	inbound_freshness(msg, opts);
	inbound_signature_id(msg);
	ret = 0;
out:
	buf_free(&plain);
	buf_free(&ours);
	buf_free(&utf8);
	return ret;
}

/* Gmail's text/plain turns the double blanks of a pasted clearsigned
 * text into U+00A0; its text/html alternative keeps them.  When the
 * text/plain's block (blk, n bytes, of part plain) got a bad signature
 * and held U+00A0, the HTML's block is read instead if that one verifies
 * (the rule inbound_nbsp_html_block states, which the archive's export
 * follows too); else msg->sig_nbsp names the cause for the refusal.  One
 * alternative, two gpg runs at most. */
static int inbound_clearsigned_html(struct inbound_msg *msg,
				    const struct inbound_options *opts,
				    struct mailmime *plain, const char *blk,
				    size_t n, const char **error_r)
{
	struct buf text = BUF_INIT, out = BUF_INIT;
	struct pgp_sig sig;
	size_t start, hn;
	int ret = 0;

	msg->sig_nbsp = inbound_has_nbsp(blk, n);
	if (opts->pgp == NULL ||
	    !inbound_nbsp_html_block(plain, blk, n, &text, &start, &hn))
		goto out;
	memset(&sig, 0, sizeof(sig));
	if (pgp_verify_clearsigned(opts->pgp, text.data + start, hn, &sig, &out,
				   error_r) < 0) {
		ret = -1;
		goto out;
	}
	if (sig.status != PGP_SIG_GOOD)
		goto out;
	free(msg->text);
	msg->text = NULL;
	msg->sig_nbsp = false;
	ret = inbound_clearsigned(msg, opts, inbound_html_alternative(plain),
				  true, text.data, text.len, start, hn, error_r);
out:
	buf_free(&text);
	buf_free(&out);
	return ret;
}

static int inbound_body(struct inbound_msg *msg,
			const struct inbound_options *opts,
			struct mailmime *root, const char **error_r)
{
	struct buf dec = BUF_INIT, html_text = BUF_INIT, text = BUF_INIT;
	struct inbound_other_parts others;
	struct mailmime *part;
	const char *err, *bytes;
	size_t blen, start, n;
	bool html;
	int ret = 0;

	/* keys attached anywhere: collected for a registration (only a
	 * signature the key itself verifies makes it count) and for
	 * revocations, but outside any signature: never a key binding */
	mime_walk(mime_message_body(root), inbound_key_part_outside, msg);
	part = mime_find_text_part(root, &html);
	if (part == NULL) {
		inbound_problem(msg, INBOUND_NO_TEXT, "the mail holds no text part");
		goto out;
	}
	if (mime_decode(part, &dec, &err) < 0) {
		inbound_problem(msg, INBOUND_UNDECODABLE, err);
		goto out;
	}
	bytes = dec.data ? dec.data : "";
	blen = dec.len;
	if (html) {
		/* Look for a clearsigned block in the rendered text. */
		if (inbound_part_utf8(msg, part, true, bytes, blen, &html_text) < 0)
			goto out;
		bytes = html_text.data ? html_text.data : "";
		blen = html_text.len;
	}
	if (mime_find_clearsigned(bytes, blen, &start, &n)) {
		ret = inbound_clearsigned(msg, opts, part, html, bytes, blen,
					  start, n, error_r);
		if (ret == 0 && !html && msg->sig.status == PGP_SIG_BAD)
			ret = inbound_clearsigned_html(msg, opts, part,
						       bytes + start, n, error_r);
		goto out;
	}
	if (html) {
		buf_append(&text, bytes, blen);
	} else if (inbound_part_utf8(msg, part, false, bytes, blen, &text) < 0) {
		goto out;
	} else {
		inbound_unflow(part, &text);
	}
	inbound_set_text(msg, &text, html);
	others.msg = msg;
	others.text_part = part;
	mime_walk(mime_message_body(root), inbound_part_pasted_keys, &others);
out:
	buf_free(&dec);
	buf_free(&html_text);
	buf_free(&text);
	return ret;
}

int inbound_read_body(struct inbound_msg *msg,
		      const struct inbound_options *opts, struct mailmime *root,
		      const struct buf *canon, const char **error_r)
{
	struct mailmime *ms;

	/* the Autocrypt header: outside any signature */
	inbound_autocrypt(msg, canon->data, canon->len, false);
	if (!msg->decrypted && inbound_is_encrypted(root))
		return inbound_read_encrypted(msg, opts, root, canon, error_r);
	ms = mime_find_pgp_signed(mime_message_body(root));
	if (ms != NULL)
		return inbound_pgp_mime(msg, opts, root, ms, canon, error_r);
	return inbound_body(msg, opts, root, error_r);
}

/* ---- the small helpers both inbound files use ---- */

void inbound_strs_add(struct inbound_strs *l, const char *s)
{
	char **items;
	size_t i;

	for (i = 0; i < l->count; i++)
		if (strcmp(l->items[i], s) == 0)
			return;
	items = realloc(l->items, (l->count + 1) * sizeof(*items));
	if (items == NULL) {
		fputs("inbound: out of memory\n", stderr);
		abort();
	}
	l->items = items;
	l->items[l->count++] = xstrdup(s);
}

void inbound_strs_free(struct inbound_strs *l)
{
	size_t i;

	for (i = 0; i < l->count; i++)
		free(l->items[i]);
	free(l->items);
	l->items = NULL;
	l->count = 0;
}

void inbound_problem(struct inbound_msg *msg, enum inbound_problem p,
		     const char *detail)
{
	if (msg->problem != INBOUND_OK)
		return;
	msg->problem = p;
	msg->problem_detail = xstrdup(detail);
}
