/* pgp_sign.c -- the daemon signing its own mail (see pgp.h): a detached
 * signature, the signer compose_message() calls, and a whole RFC 3156
 * multipart/signed entity. */
#include "config.h"

#include "mail/pgp.h"

#include <gpgme.h>
#include <stdio.h>
#include <string.h>

#include "mail/pgp_private.h"
#include "util/buf.h"

static int pgp_sign_raw(struct pgp_ctx *ctx, const char *signer_fpr,
			const void *data, size_t len, struct buf *sig_r,
			const char **micalg_r, const char **error_r)
{
	gpgme_data_t d_in = NULL, d_out = NULL;
	gpgme_key_t key = NULL;
	gpgme_sign_result_t res;
	gpgme_error_t err;
	char *out;
	size_t out_len;
	int ret = -1;

	gpgme_signers_clear(ctx->gpg);
	/* No key named: gpg signs with its default key, the first secret
	 * key of the keyring (what ashesd.conf(5) promises). */
	if (signer_fpr != NULL && signer_fpr[0] != '\0') {
		if ((err = gpgme_get_key(ctx->gpg, signer_fpr, &key, 1)) != 0) {
			*error_r = pgp_fail(ctx, "no secret key for signing", err);
			goto out;
		}
		if ((err = gpgme_signers_add(ctx->gpg, key)) != 0) {
			*error_r = pgp_fail(ctx, "sign setup", err);
			goto out;
		}
	}
	if ((err = gpgme_data_new_from_mem(&d_in, data, len, 0)) != 0 ||
	    (err = gpgme_data_new(&d_out)) != 0) {
		*error_r = pgp_fail(ctx, "sign setup", err);
		goto out;
	}
	err = gpgme_op_sign(ctx->gpg, d_in, d_out, GPGME_SIG_MODE_DETACH);
	res = gpgme_op_sign_result(ctx->gpg);
	if (err != 0 || res == NULL || res->signatures == NULL) {
		*error_r = pgp_fail(ctx, "sign", err);
		goto out;
	}
	if (micalg_r != NULL) {
		switch (res->signatures->hash_algo) {
		case GPGME_MD_SHA256: *micalg_r = "pgp-sha256"; break;
		case GPGME_MD_SHA384: *micalg_r = "pgp-sha384"; break;
		case GPGME_MD_SHA512: *micalg_r = "pgp-sha512"; break;
		case GPGME_MD_SHA224: *micalg_r = "pgp-sha224"; break;
		case GPGME_MD_SHA1: *micalg_r = "pgp-sha1"; break;
		default:
			*error_r = pgp_fail(ctx, "sign: unexpected hash algorithm", 0);
			goto out;
		}
	}
	out = gpgme_data_release_and_get_mem(d_out, &out_len);
	d_out = NULL;
	if (out == NULL) {
		*error_r = pgp_fail(ctx, "sign: no output", 0);
		goto out;
	}
	buf_append(sig_r, out, out_len);
	gpgme_free(out);
	ret = 0;
out:
	gpgme_signers_clear(ctx->gpg);
	gpgme_data_release(d_in);
	gpgme_data_release(d_out);
	if (key != NULL)
		gpgme_key_unref(key);
	return ret;
}

int pgp_sign_detached(struct pgp_ctx *ctx, const char *signer_fpr,
		      const void *data, size_t len, struct buf *sig_r,
		      const char **error_r)
{
	return pgp_sign_raw(ctx, signer_fpr, data, len, sig_r, NULL, error_r);
}

int pgp_compose_sign(void *signer, const char *data, size_t len,
		     char **sig_r, const char **micalg_r, const char **error_r)
{
	struct pgp_signer *s = signer;
	struct buf sig = BUF_INIT;

	if (pgp_sign_raw(s->ctx, s->fpr, data, len, &sig, micalg_r, error_r) < 0) {
		buf_free(&sig);
		return -1;
	}
	*sig_r = buf_steal(&sig);
	return 0;
}

/* Append text to out with every line end made CRLF. */
static void pgp_append_crlf(struct buf *out, const char *text, size_t len)
{
	size_t i, start = 0;

	for (i = 0; i < len; i++) {
		if (text[i] != '\n')
			continue;
		buf_append(out, text + start, i - start -
			   (i > start && text[i - 1] == '\r' ? 1 : 0));
		buf_append(out, "\r\n", 2);
		start = i + 1;
	}
	buf_append(out, text + start, len - start);
}

int pgp_mime_sign(struct pgp_ctx *ctx, const char *signer_fpr,
		  const char *part, size_t len, struct buf *out_r,
		  const char **error_r)
{
	struct buf canon = BUF_INIT, sig = BUF_INIT;
	const char *micalg = NULL;
	char boundary[64];
	unsigned int i;
	int ret = -1;

	pgp_append_crlf(&canon, part, len);
	/* RFC 3156 5.: trailing whitespace is not safe across MTAs; the
	 * caller is expected to encode it away, but the part must end in a
	 * line end for the boundary to follow on its own line. */
	if (canon.len < 2 || memcmp(canon.data + canon.len - 2, "\r\n", 2) != 0)
		buf_append(&canon, "\r\n", 2);
	if (pgp_sign_raw(ctx, signer_fpr, canon.data, canon.len, &sig, &micalg,
			 error_r) < 0)
		goto out;
	/* The boundary only has to be absent from the content: derive it
	 * from the content length and check. */
	for (i = 0;; i++) {
		snprintf(boundary, sizeof(boundary), "=_ashes_signed_%zu_%u",
			 canon.len, i);
		if (memmem(canon.data, canon.len, boundary, strlen(boundary)) == NULL &&
		    memmem(sig.data, sig.len, boundary, strlen(boundary)) == NULL)
			break;
	}
	buf_printf(out_r, "Content-Type: multipart/signed; micalg=%s;\r\n"
		   "\tprotocol=\"application/pgp-signature\";\r\n"
		   "\tboundary=\"%s\"\r\n\r\n", micalg, boundary);
	buf_printf(out_r, "This is an OpenPGP/MIME signed message (RFC 3156).\r\n"
		   "--%s\r\n", boundary);
	/* All the signed bytes; the CRLF after them opens the delimiter
	 * (RFC 2046 5.1.1), so the part ends exactly where the signature's
	 * data did. */
	buf_append(out_r, canon.data, canon.len);
	buf_printf(out_r, "\r\n--%s\r\n"
		   "Content-Type: application/pgp-signature; name=\"signature.asc\"\r\n"
		   "Content-Description: OpenPGP digital signature\r\n"
		   "Content-Disposition: attachment; filename=\"signature.asc\"\r\n"
		   "\r\n", boundary);
	pgp_append_crlf(out_r, sig.data, sig.len);
	buf_printf(out_r, "\r\n--%s--\r\n", boundary);
	ret = 0;
out:
	buf_free(&canon);
	buf_free(&sig);
	return ret;
}
