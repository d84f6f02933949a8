/* pgp_decrypt.c -- an encrypted mail to the club's key (pgp.h): the
 * message decrypted and its one-pass signature verified in one gpg run
 * (gpgme_op_decrypt_verify), or the signed message kept without its
 * encryption layer for the archive (GPGME_DECRYPT_UNWRAP).
 *
 * The outer message goes through the pre-scan (session keys and one
 * integrity-protected data packet, nothing else); what the encryption
 * holds -- a compressed packet, as gpg writes by default -- cannot be
 * scanned before it is decrypted, so gpg runs under the context's budget
 * and its output is capped: a bomb inside the encryption is stopped by
 * whichever comes first. */
#include "config.h"

#include "mail/pgp.h"

#include <gpgme.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "mail/pgp_private.h"
#include "mail/pgp_scan.h"

/* Whether gpg found no secret key for any recipient of the message. */
static bool pgp_no_seckey(gpgme_ctx_t gpg, gpgme_error_t err)
{
	gpgme_decrypt_result_t dr = gpgme_op_decrypt_result(gpg);
	gpgme_recipient_t r;

	if (gpg_err_code(err) == GPG_ERR_NO_SECKEY)
		return true;
	if (dr == NULL || dr->recipients == NULL)
		return false;
	for (r = dr->recipients; r != NULL; r = r->next)
		if (gpg_err_code(r->status) != GPG_ERR_NO_SECKEY)
			return false;
	return true;
}

static void pgp_decrypt_why(struct pgp_decrypted *r,
			    enum pgp_decrypt_status st, const char *why)
{
	r->status = st;
	snprintf(r->why, sizeof(r->why), "%s", why);
}

enum pgp_run_mode { PGP_RUN_DECRYPT, PGP_RUN_UNWRAP, PGP_RUN_VERIFY };

/* The one gpg run: decrypt and verify, decrypt only (unwrap), or verify
 * a signed message, data into out. */
static int pgp_decrypt_run(struct pgp_ctx *ctx, const void *data, size_t len,
			   size_t max_out, enum pgp_run_mode mode,
			   struct buf *out_r, struct pgp_decrypted *r,
			   const char **error_r)
{
	struct gpgme_data_cbs cbs = { .write = pgp_sink_write };
	struct buf out = BUF_INIT;
	struct pgp_sink cap = { &out, max_out, false };
	gpgme_data_t d_in = NULL, d_out = NULL;
	gpgme_verify_result_t vr;
	struct pgp_budget budget;
	gpgme_error_t err;
	char why[200];
	bool over;
	int ret = -1;

	memset(r, 0, sizeof(*r));
	if (ctx->scan &&
	    pgp_scan(data, len, mode == PGP_RUN_VERIFY ? PGP_SCAN_SIGNED_MESSAGE
		     : PGP_SCAN_ENCRYPTED, why, sizeof(why)) < 0) {
		pgp_decrypt_why(r, PGP_DECRYPT_REFUSED, why);
		return 0;
	}
	if ((err = gpgme_data_new_from_mem(&d_in, data, len, 0)) != 0 ||
	    (err = gpgme_data_new_from_cbs(&d_out, &cbs, &cap)) != 0) {
		*error_r = pgp_fail(ctx, "gpgme_data_new", err);
		goto out;
	}
	pgp_budget_begin(ctx, &budget);
	if (mode == PGP_RUN_UNWRAP)
		err = gpgme_op_decrypt_ext(ctx->gpg, GPGME_DECRYPT_UNWRAP,
					   d_in, d_out);
	else if (mode == PGP_RUN_VERIFY)
		err = gpgme_op_verify(ctx->gpg, d_in, NULL, d_out);
	else
		err = gpgme_op_decrypt_verify(ctx->gpg, d_in, d_out);
	over = pgp_budget_end(&budget);
	if (over) {
		pgp_decrypt_why(r, PGP_DECRYPT_REFUSED, pgp_budget_fail(ctx));
		ret = 0;
		goto out;
	}
	if (cap.over) {
		snprintf(why, sizeof(why), "what the %s holds is larger "
			 "than %zu bytes", mode == PGP_RUN_VERIFY ?
			 "signed message" : "encryption", max_out);
		pgp_decrypt_why(r, PGP_DECRYPT_REFUSED, why);
		ret = 0;
		goto out;
	}
	if (err != 0 && mode != PGP_RUN_VERIFY && pgp_no_seckey(ctx->gpg, err)) {
		pgp_decrypt_why(r, PGP_DECRYPT_NO_KEY, "it is not encrypted to "
				"a key of this club");
		ret = 0;
		goto out;
	}
	if (err != 0) {
		char words[160];

		if (gpgme_strerror_r(err, words, sizeof(words)) != 0)
			snprintf(words, sizeof(words), "GPGME error %u",
				 (unsigned)err);
		snprintf(why, sizeof(why), "gpg could not decrypt it (%s)",
			 words);
		pgp_decrypt_why(r, PGP_DECRYPT_FAILED, why);
		ret = 0;
		goto out;
	}
	r->status = PGP_DECRYPT_OK;
	if (mode != PGP_RUN_UNWRAP) {
		vr = gpgme_op_verify_result(ctx->gpg);
		if ((vr != NULL && vr->signatures != NULL) ||
		    mode == PGP_RUN_VERIFY)
			(void)pgp_fill_result(ctx, &r->sig, error_r);
	}
	buf_append(out_r, out.data ? out.data : "", out.len);
	ret = 0;
out:
	gpgme_data_release(d_in);
	gpgme_data_release(d_out);
	buf_free(&out);
	return ret;
}

int pgp_decrypt_verify(struct pgp_ctx *ctx, const void *data, size_t len,
		       size_t max_out, struct buf *plain_r,
		       struct pgp_decrypted *r, const char **error_r)
{
	return pgp_decrypt_run(ctx, data, len, max_out, PGP_RUN_DECRYPT, plain_r,
			       r, error_r);
}

int pgp_decrypt_unwrap(struct pgp_ctx *ctx, const void *data, size_t len,
		       size_t max_out, struct buf *signed_r,
		       struct pgp_decrypted *r, const char **error_r)
{
	return pgp_decrypt_run(ctx, data, len, max_out, PGP_RUN_UNWRAP,
			       signed_r, r, error_r);
}

int pgp_verify_message(struct pgp_ctx *ctx, const void *data, size_t len,
		       size_t max_out, struct buf *plain_r,
		       struct pgp_decrypted *r, const char **error_r)
{
	return pgp_decrypt_run(ctx, data, len, max_out, PGP_RUN_VERIFY,
			       plain_r, r, error_r);
}

int pgp_club_key(struct pgp_ctx *ctx, const char *name, struct buf *key_r,
		 bool *can_encrypt_r, const char **error_r)
{
	char fpr[PGP_FPR_MAX + 1];
	const char *fprs[2] = { fpr, NULL };
	gpgme_key_t key = NULL;
	gpgme_subkey_t sk;

	*can_encrypt_r = false;
	if (pgp_export_signer(ctx, name, fpr, error_r) < 0)
		return -1;
	if (gpgme_get_key(ctx->gpg, fpr, &key, 0) == 0) {
		for (sk = key->subkeys; sk != NULL; sk = sk->next)
			if (sk->can_encrypt && !sk->revoked && !sk->expired &&
			    !sk->disabled && !sk->invalid)
				*can_encrypt_r = true;
		gpgme_key_unref(key);
	}
	return pgp_export_keys(ctx, fprs, false, key_r, error_r);
}

int pgp_carried_primary(struct pgp_ctx *ctx, const void *data, size_t len,
			const char *issuer, char primary_r[PGP_FPR_MAX + 1])
{
	struct pgp_budget budget;
	gpgme_data_t d = NULL;
	gpgme_key_t key = NULL;
	gpgme_subkey_t sk;
	gpgme_error_t err;
	size_t il = strlen(issuer);
	char why[200];
	int found = 0;

	primary_r[0] = '\0';
	if (len > PGP_KEY_MAX_BYTES || il < 16 ||
	    (ctx->scan && pgp_scan(data, len, PGP_SCAN_KEYS, why,
				   sizeof(why)) < 0) ||
	    gpgme_data_new_from_mem(&d, data, len, 0) != 0)
		return 0;
	pgp_budget_begin(ctx, &budget);
	err = gpgme_op_keylist_from_data_start(ctx->gpg, d, 0);
	while (err == 0 && (err = gpgme_op_keylist_next(ctx->gpg, &key)) == 0) {
		for (sk = key->subkeys; found == 0 && sk != NULL; sk = sk->next) {
			size_t fl = sk->fpr != NULL ? strlen(sk->fpr) : 0;

			/* the issuer is a fingerprint or a key ID: its
			 * last digits */
			if (fl >= il && fl <= PGP_FPR_MAX &&
			    strcasecmp(sk->fpr + fl - il, issuer) == 0 &&
			    key->subkeys->fpr != NULL &&
			    strlen(key->subkeys->fpr) <= PGP_FPR_MAX) {
				snprintf(primary_r, PGP_FPR_MAX + 1, "%s",
					 key->subkeys->fpr);
				found = 1;
			}
		}
		gpgme_key_unref(key);
	}
	gpgme_op_keylist_end(ctx->gpg);
	if (pgp_budget_end(&budget)) {
		primary_r[0] = '\0';
		found = 0;
	}
	gpgme_data_release(d);
	return found;
}
