/* pgp_export.c -- what a game's archive takes out of the daemon's keyring
 * and out of a signed mail (see pgp.h): the signers' public keys, armored
 * or as a keyring file for gpgv, the daemon's own signing key, and the
 * exact bytes a mail's signature covers with the signature itself. */
#include "config.h"

#include "mail/pgp.h"

#include <gpgme.h>
#include <libetpan/libetpan.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "mail/inbound_clients.h"
#include "mail/mime.h"
#include "mail/pgp_private.h"
#include "mail/pgp_scan.h"
#include "util/buf.h"

int pgp_export_keys(struct pgp_ctx *ctx, const char *const *fprs, bool armor,
		    struct buf *out_r, const char **error_r)
{
	gpgme_data_t d = NULL;
	gpgme_error_t err;
	char *mem;
	size_t len, n = 0;
	int ret = -1;

	for (; fprs[n] != NULL; n++) {
		gpgme_key_t key = NULL;

		/* The export skips a key it does not find, silently: an
		 * archive must not lack one. */
		if ((err = gpgme_get_key(ctx->gpg, fprs[n], &key, 0)) != 0) {
			snprintf(ctx->error, sizeof(ctx->error),
				 "no public key %s in the keyring", fprs[n]);
			*error_r = ctx->error;
			return -1;
		}
		gpgme_key_unref(key);
	}
	if (n == 0)
		return 0;
	if ((err = gpgme_data_new(&d)) != 0) {
		*error_r = pgp_fail(ctx, "export setup", err);
		return -1;
	}
	gpgme_set_armor(ctx->gpg, armor ? 1 : 0);
	/* Minimal: the keys and their own signatures, no certifications by
	 * others (they prove nothing here, and only grow the archive). */
	err = gpgme_op_export_ext(ctx->gpg, (const char **)fprs,
				  GPGME_EXPORT_MODE_MINIMAL, d);
	gpgme_set_armor(ctx->gpg, 1);
	if (err != 0) {
		*error_r = pgp_fail(ctx, "export", err);
		goto out;
	}
	mem = gpgme_data_release_and_get_mem(d, &len);
	d = NULL;
	if (mem == NULL || len == 0) {
		gpgme_free(mem);
		*error_r = pgp_fail(ctx, "export: nothing exported", 0);
		goto out;
	}
	buf_append(out_r, mem, len);
	gpgme_free(mem);
	ret = 0;
out:
	gpgme_data_release(d);
	return ret;
}

int pgp_export_signer(struct pgp_ctx *ctx, const char *name,
		      char fpr_r[PGP_FPR_MAX + 1], const char **error_r)
{
	gpgme_key_t key = NULL;
	gpgme_error_t err;
	bool named = name != NULL && name[0] != '\0';

	err = gpgme_op_keylist_start(ctx->gpg, named ? name : NULL, 1);
	while (err == 0 && (err = gpgme_op_keylist_next(ctx->gpg, &key)) == 0) {
		if (key->can_sign && !key->revoked && !key->expired &&
		    !key->disabled && key->subkeys != NULL &&
		    key->subkeys->fpr != NULL)
			break;
		gpgme_key_unref(key);
		key = NULL;
	}
	gpgme_op_keylist_end(ctx->gpg);
	if (key == NULL) {
		snprintf(ctx->error, sizeof(ctx->error),
			 "the keyring holds no usable secret key%s%s%s",
			 named ? " \"" : "", named ? name : "",
			 named ? "\"" : "");
		*error_r = ctx->error;
		return -1;
	}
	snprintf(fpr_r, PGP_FPR_MAX + 1, "%s", key->subkeys->fpr);
	gpgme_key_unref(key);
	return 0;
}

int pgp_export_load_keys(struct pgp_ctx *ctx, const void *data, size_t len,
			 unsigned int *count_r, const char **error_r)
{
	struct pgp_budget budget;
	gpgme_data_t d = NULL;
	gpgme_import_result_t res;
	gpgme_import_status_t st;
	gpgme_error_t err;
	char why[200];
	int ret = -1;

	*count_r = 0;
	if (len > PGP_EXPORT_KEYS_MAX) {
		*error_r = pgp_fail(ctx, "more key data than an archive "
				    "holds", 0);
		return -1;
	}
	/* Whoever made the archive chose these bytes: checked by shape
	 * and imported under the budget, as a mail's key would be. */
	if (ctx->scan && pgp_scan(data, len, PGP_SCAN_KEYS, why,
				  sizeof(why)) < 0) {
		snprintf(ctx->error, sizeof(ctx->error), "the key data is "
			 "refused: %s", why);
		*error_r = ctx->error;
		return -1;
	}
	if ((err = gpgme_data_new_from_mem(&d, data, len, 0)) != 0) {
		*error_r = pgp_fail(ctx, "import setup", err);
		return -1;
	}
	pgp_budget_begin(ctx, &budget);
	err = gpgme_op_import(ctx->gpg, d);
	if (pgp_budget_end(&budget)) {
		*error_r = pgp_budget_fail(ctx);
		goto out;
	}
	res = gpgme_op_import_result(ctx->gpg);
	if (err != 0 || res == NULL) {
		*error_r = pgp_fail(ctx, "import", err);
		goto out;
	}
	/* Public keys only: nobody's secret belongs in an archive. */
	if (res->secret_read > 0) {
		*error_r = pgp_fail(ctx, "the key data holds a secret key", 0);
		goto out;
	}
	for (st = res->imports; st != NULL; st = st->next)
		if (st->result == 0 && st->fpr != NULL)
			(*count_r)++;
	ret = 0;
out:
	gpgme_data_release(d);
	return ret;
}

/* The clearsigned block of the mail's text part, as inbound_parse()
 * gives it to gpg: transfer encoding undone, an HTML part rendered as
 * text first.  0 and the block appended to *out (nothing when there is
 * none), -1 with *error_r. */
static int export_clearsigned(struct mailmime *root, struct buf *out,
			      const char **error_r)
{
	struct buf dec = BUF_INIT, utf8 = BUF_INIT, text = BUF_INIT;
	struct mailmime *part;
	const char *bytes;
	size_t len, start, n;
	bool html;
	int ret = -1;

	part = mime_find_text_part(root, &html);
	if (part == NULL)
		return 0;
	if (mime_decode(part, &dec, error_r) < 0)
		goto out;
	bytes = dec.data != NULL ? dec.data : "";
	len = dec.len;
	if (html) {
		if (mime_to_utf8(mime_param(part, "charset"), bytes, len,
				 &utf8, error_r) < 0)
			goto out;
		mime_html_to_text(utf8.data != NULL ? utf8.data : "",
				  utf8.len, &text);
		bytes = text.data != NULL ? text.data : "";
		len = text.len;
	}
	if (mime_find_clearsigned(bytes, len, &start, &n)) {
		/* the HTML alternative, where the inbound reading took it */
		if (!html && inbound_nbsp_html_block(part, bytes + start, n,
						     &text, &start, &n))
			bytes = text.data;
		buf_append(out, bytes + start, n);
	}
	ret = 0;
out:
	buf_free(&dec);
	buf_free(&utf8);
	buf_free(&text);
	return ret;
}

/* The signed message (gpg --sign, armored) in the text part: the
 * archive's form of a one-pass signed, encrypted mail (inbound.h,
 * inbound_archive_form). */
static bool export_signed_message(struct mailmime *root, struct buf *out)
{
	struct buf dec = BUF_INIT;
	struct mailmime *part;
	const char *err;
	size_t pos = 0, start, n;
	char why[200];
	bool html, found = false;

	part = mime_find_text_part(root, &html);
	if (part != NULL && !html && mime_decode(part, &dec, &err) == 0 &&
	    dec.len > 0 &&
	    mime_find_armor(dec.data, dec.len, "PGP MESSAGE", &pos, &start, &n) &&
	    pgp_scan(dec.data + start, n, PGP_SCAN_SIGNED_MESSAGE, why,
		     sizeof(why)) == 0) {
		buf_append(out, dec.data + start, n);
		found = true;
	}
	buf_free(&dec);
	return found;
}

int pgp_export_signed(const char *raw, size_t len,
		      enum pgp_signed_kind *kind_r, struct buf *signed_r,
		      struct buf *sig_r, const char **error_r)
{
	struct buf canon = BUF_INIT;
	struct mailmime *root = NULL, *ms, *signed_part, *sig_part;
	const char *data;
	size_t data_len, before = signed_r->len;
	int ret = -1;

	*kind_r = PGP_SIGNED_NONE;
	/* The one canonical form inbound_parse() verifies: CRLF. */
	mime_to_crlf(raw, len, &canon);
	if (canon.data == NULL)
		buf_puts(&canon, "");
	if (mime_parse(canon.data, canon.len, &root, error_r) < 0)
		goto out;
	ms = mime_find_pgp_signed(mime_message_body(root));
	if (ms != NULL) {
		if (mime_signed_parts(ms, canon.data, canon.len, &data,
				      &data_len, &signed_part, &sig_part,
				      error_r) < 0 ||
		    mime_decode(sig_part, sig_r, error_r) < 0)
			goto out;
		buf_append(signed_r, data, data_len);
		*kind_r = PGP_SIGNED_MIME;
		ret = 0;
		goto out;
	}
	if (export_clearsigned(root, signed_r, error_r) < 0)
		goto out;
	if (signed_r->len > before) {
		*kind_r = PGP_SIGNED_CLEAR;
	} else if (export_signed_message(root, signed_r) && signed_r->len > before) {
		*kind_r = PGP_SIGNED_MESSAGE;
	}
	ret = 0;
out:
	mime_free(&root);
	buf_free(&canon);
	return ret;
}
