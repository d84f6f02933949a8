/* pgp.c -- GPGME wrapper; see pgp.h. */
#include "config.h"

#include "mail/pgp.h"

#include <gpgme.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Signing (sub)key -> primary key fingerprints already looked up: the
 * lookup runs gpg once more, and a subkey's primary never changes (gpg
 * requires a signing subkey's back-signature). */
#define PGP_PRIMARY_CACHE 64

struct pgp_primary {
	char signing[PGP_FPR_MAX + 1];
	char primary[PGP_FPR_MAX + 1];
};

struct pgp_ctx {
	gpgme_ctx_t gpg;
	char error[256];
	struct pgp_primary primary[PGP_PRIMARY_CACHE];
	unsigned int primary_next;
};

static const char *pgp_fail(struct pgp_ctx *ctx, const char *what,
			    gpgme_error_t err)
{
	if (err != 0)
		snprintf(ctx->error, sizeof(ctx->error), "%s: %s", what,
			 gpgme_strerror(err));
	else
		snprintf(ctx->error, sizeof(ctx->error), "%s", what);
	return ctx->error;
}

const char *pgp_sig_status_name(enum pgp_sig_status status)
{
	switch (status) {
	case PGP_SIG_NONE: return "none";
	case PGP_SIG_GOOD: return "good";
	case PGP_SIG_BAD: return "bad";
	case PGP_SIG_KEY_EXPIRED: return "key-expired";
	case PGP_SIG_KEY_REVOKED: return "key-revoked";
	case PGP_SIG_SIG_EXPIRED: return "signature-expired";
	case PGP_SIG_UNKNOWN_KEY: return "unknown-key";
	case PGP_SIG_ERROR: return "error";
	}
	return "error";
}

int pgp_ctx_new(const char *gnupghome, struct pgp_ctx **ctx_r,
		const char **error_r)
{
	struct pgp_ctx *ctx;
	gpgme_error_t err;

	if (gpgme_check_version("1.14.0") == NULL) {
		*error_r = "GPGME older than 1.14";
		return -1;
	}
	err = gpgme_engine_check_version(GPGME_PROTOCOL_OpenPGP);
	if (err != 0) {
		*error_r = "no usable gpg engine for OpenPGP";
		return -1;
	}
	ctx = calloc(1, sizeof(*ctx));
	if (ctx == NULL) {
		*error_r = "out of memory";
		return -1;
	}
	if (gpgme_new(&ctx->gpg) != 0 ||
	    gpgme_set_protocol(ctx->gpg, GPGME_PROTOCOL_OpenPGP) != 0 ||
	    gpgme_ctx_set_engine_info(ctx->gpg, GPGME_PROTOCOL_OpenPGP, NULL,
				      gnupghome) != 0) {
		*error_r = "cannot set up a GPGME context";
		if (ctx->gpg != NULL)
			gpgme_release(ctx->gpg);
		free(ctx);
		return -1;
	}
	gpgme_set_armor(ctx->gpg, 1);
	/* Never fetch keys from the network while verifying a mail, and
	 * never ask anybody for a passphrase. */
	gpgme_set_offline(ctx->gpg, 1);
	gpgme_set_pinentry_mode(ctx->gpg, GPGME_PINENTRY_MODE_LOOPBACK);
	*ctx_r = ctx;
	return 0;
}

void pgp_ctx_free(struct pgp_ctx **ctxp)
{
	struct pgp_ctx *ctx = *ctxp;

	if (ctx == NULL)
		return;
	gpgme_release(ctx->gpg);
	free(ctx);
	*ctxp = NULL;
}

/* Map GPGME's per-signature status and summary to our enum.  Order
 * matters: a bad signature is bad whatever the key's state. */
static enum pgp_sig_status pgp_classify(gpgme_signature_t s)
{
	gpg_err_code_t code = gpg_err_code(s->status);

	if (code == GPG_ERR_BAD_SIGNATURE)
		return PGP_SIG_BAD;
	if (code == GPG_ERR_NO_PUBKEY || (s->summary & GPGME_SIGSUM_KEY_MISSING))
		return PGP_SIG_UNKNOWN_KEY;
	if (code == GPG_ERR_CERT_REVOKED || (s->summary & GPGME_SIGSUM_KEY_REVOKED))
		return PGP_SIG_KEY_REVOKED;
	if (code == GPG_ERR_KEY_EXPIRED || (s->summary & GPGME_SIGSUM_KEY_EXPIRED))
		return PGP_SIG_KEY_EXPIRED;
	if (code == GPG_ERR_SIG_EXPIRED || (s->summary & GPGME_SIGSUM_SIG_EXPIRED))
		return PGP_SIG_SIG_EXPIRED;
	if (code == GPG_ERR_NO_ERROR && !(s->summary & GPGME_SIGSUM_RED))
		return PGP_SIG_GOOD;
	if (s->summary & GPGME_SIGSUM_RED)
		return PGP_SIG_BAD;
	return PGP_SIG_ERROR;
}

/* Errors of gpgme_op_verify that come from the data (a hostile or broken
 * mail) rather than from gpg itself. */
static bool pgp_data_error(gpgme_error_t err)
{
	switch (gpg_err_code(err)) {
	case GPG_ERR_NO_DATA:
	case GPG_ERR_BAD_DATA:
	case GPG_ERR_INV_PACKET:
	case GPG_ERR_UNKNOWN_PACKET:
	case GPG_ERR_INV_ARMOR:
	case GPG_ERR_BAD_SIGNATURE:
	case GPG_ERR_NOT_PROCESSED:
	case GPG_ERR_INV_VALUE:
	case GPG_ERR_UNSUPPORTED_ALGORITHM:
	case GPG_ERR_DIGEST_ALGO:
	case GPG_ERR_PUBKEY_ALGO:
		return true;
	default:
		return false;
	}
}

/* A signing subkey speaks for its primary key: put the primary's
 * fingerprint in out (left as is if the key cannot be found). */
static void pgp_primary_fpr(struct pgp_ctx *ctx, gpgme_signature_t s,
			    char *out, size_t outlen)
{
	struct pgp_primary *e;
	gpgme_key_t key = NULL;
	unsigned int i;

	if (s->key != NULL && s->key->fpr != NULL) {
		snprintf(out, outlen, "%s", s->key->fpr);
		return;
	}
	for (i = 0; i < PGP_PRIMARY_CACHE; i++) {
		if (strcmp(ctx->primary[i].signing, s->fpr) == 0) {
			snprintf(out, outlen, "%s", ctx->primary[i].primary);
			return;
		}
	}
	if (gpgme_get_key(ctx->gpg, s->fpr, &key, 0) != 0)
		return;
	if (key->subkeys != NULL && key->subkeys->fpr != NULL &&
	    strlen(s->fpr) <= PGP_FPR_MAX && strlen(key->subkeys->fpr) <= PGP_FPR_MAX) {
		snprintf(out, outlen, "%s", key->subkeys->fpr);
		e = &ctx->primary[ctx->primary_next++ % PGP_PRIMARY_CACHE];
		snprintf(e->signing, sizeof(e->signing), "%s", s->fpr);
		snprintf(e->primary, sizeof(e->primary), "%s", key->subkeys->fpr);
	}
	gpgme_key_unref(key);
}

static int pgp_fill_result(struct pgp_ctx *ctx, struct pgp_sig *sig_r,
			   const char **error_r)
{
	gpgme_verify_result_t res = gpgme_op_verify_result(ctx->gpg);
	gpgme_signature_t s;

	memset(sig_r, 0, sizeof(*sig_r));
	if (res == NULL || res->signatures == NULL) {
		/* garbage where a signature should be: the mail's fault */
		sig_r->status = PGP_SIG_ERROR;
		return 0;
	}
	for (s = res->signatures; s != NULL; s = s->next)
		sig_r->nsigs++;
	s = res->signatures;
	sig_r->status = pgp_classify(s);
	sig_r->summary = s->summary;
	sig_r->created = (time_t)s->timestamp;
	sig_r->expires = (time_t)s->exp_timestamp;
	if (s->fpr != NULL) {
		snprintf(sig_r->signing_fpr, sizeof(sig_r->signing_fpr), "%s", s->fpr);
		snprintf(sig_r->fpr, sizeof(sig_r->fpr), "%s", s->fpr);
		if (sig_r->status != PGP_SIG_UNKNOWN_KEY)
			pgp_primary_fpr(ctx, s, sig_r->fpr, sizeof(sig_r->fpr));
	}
	/* Several signatures on one mail are not something a mail client
	 * makes; refuse rather than guess which one speaks. */
	if (sig_r->nsigs > 1 && sig_r->status == PGP_SIG_GOOD)
		sig_r->status = PGP_SIG_ERROR;
	return 0;
}

int pgp_verify_detached(struct pgp_ctx *ctx, const void *data, size_t len,
			const void *sig, size_t siglen, struct pgp_sig *sig_r,
			const char **error_r)
{
	gpgme_data_t d_sig = NULL, d_text = NULL;
	gpgme_error_t err;
	int ret = -1;

	if ((err = gpgme_data_new_from_mem(&d_sig, sig, siglen, 0)) != 0 ||
	    (err = gpgme_data_new_from_mem(&d_text, data, len, 0)) != 0) {
		*error_r = pgp_fail(ctx, "gpgme_data_new", err);
		goto out;
	}
	err = gpgme_op_verify(ctx->gpg, d_sig, d_text, NULL);
	if (err != 0 && pgp_data_error(err)) {
		memset(sig_r, 0, sizeof(*sig_r));
		sig_r->status = PGP_SIG_ERROR;
		ret = 0;
		goto out;
	}
	if (err != 0) {
		*error_r = pgp_fail(ctx, "verify", err);
		goto out;
	}
	ret = pgp_fill_result(ctx, sig_r, error_r);
out:
	gpgme_data_release(d_sig);
	gpgme_data_release(d_text);
	return ret;
}

int pgp_verify_clearsigned(struct pgp_ctx *ctx, const void *data, size_t len,
			   struct pgp_sig *sig_r, struct buf *text_r,
			   const char **error_r)
{
	gpgme_data_t d_sig = NULL, d_plain = NULL;
	gpgme_error_t err;
	char *plain;
	size_t plain_len;
	int ret = -1;

	if ((err = gpgme_data_new_from_mem(&d_sig, data, len, 0)) != 0 ||
	    (err = gpgme_data_new(&d_plain)) != 0) {
		*error_r = pgp_fail(ctx, "gpgme_data_new", err);
		goto out;
	}
	err = gpgme_op_verify(ctx->gpg, d_sig, NULL, d_plain);
	if (err != 0 && pgp_data_error(err)) {
		memset(sig_r, 0, sizeof(*sig_r));
		sig_r->status = PGP_SIG_ERROR;
		ret = 0;
		goto out;
	}
	if (err != 0) {
		*error_r = pgp_fail(ctx, "verify", err);
		goto out;
	}
	ret = pgp_fill_result(ctx, sig_r, error_r);
	plain = gpgme_data_release_and_get_mem(d_plain, &plain_len);
	d_plain = NULL;
	if (plain != NULL) {
		if (ret == 0)
			buf_append(text_r, plain, plain_len);
		gpgme_free(plain);
	}
out:
	gpgme_data_release(d_sig);
	gpgme_data_release(d_plain);
	return ret;
}

void pgp_fprs_free(char ***fprsp)
{
	char **fprs = *fprsp;
	size_t i;

	if (fprs == NULL)
		return;
	for (i = 0; fprs[i] != NULL; i++)
		free(fprs[i]);
	free(fprs);
	*fprsp = NULL;
}

/* A mail may carry a secret key by mistake or on purpose; it must never
 * end up in the daemon's keyring.  Delete what was imported. */
static void pgp_drop_secret(struct pgp_ctx *ctx, gpgme_import_result_t res)
{
	gpgme_import_status_t st;
	gpgme_key_t key;

	for (st = res->imports; st != NULL; st = st->next) {
		if (st->fpr == NULL || gpgme_get_key(ctx->gpg, st->fpr, &key, 1) != 0)
			continue;
		gpgme_op_delete_ext(ctx->gpg, key, GPGME_DELETE_ALLOW_SECRET |
				    GPGME_DELETE_FORCE);
		gpgme_key_unref(key);
	}
}

int pgp_import_keys(struct pgp_ctx *ctx, const void *data, size_t len,
		    char ***fprs_r, unsigned int *count_r,
		    const char **error_r)
{
	gpgme_data_t d_keys = NULL;
	gpgme_import_result_t res;
	gpgme_import_status_t st;
	gpgme_error_t err;
	char **fprs = NULL;
	unsigned int n = 0, i;
	int ret = -1;

	*fprs_r = NULL;
	*count_r = 0;
	if (memmem(data, len, "PRIVATE KEY BLOCK", 17) != NULL) {
		*error_r = pgp_fail(ctx, "refusing to import a secret key", 0);
		return -1;
	}
	if ((err = gpgme_data_new_from_mem(&d_keys, data, len, 0)) != 0) {
		*error_r = pgp_fail(ctx, "gpgme_data_new", err);
		goto out;
	}
	err = gpgme_op_import(ctx->gpg, d_keys);
	res = gpgme_op_import_result(ctx->gpg);
	if (err != 0 || res == NULL) {
		*error_r = pgp_fail(ctx, "import", err);
		goto out;
	}
	if (res->secret_read > 0) {
		pgp_drop_secret(ctx, res);
		*error_r = pgp_fail(ctx, "refusing to import a secret key", 0);
		goto out;
	}
	for (st = res->imports; st != NULL; st = st->next)
		n++;
	fprs = calloc(n + 1, sizeof(*fprs));
	if (fprs == NULL) {
		*error_r = "out of memory";
		goto out;
	}
	i = 0;
	for (st = res->imports; st != NULL; st = st->next) {
		if (st->result != 0 || st->fpr == NULL)
			continue;
		fprs[i] = strdup(st->fpr);
		if (fprs[i] == NULL) {
			pgp_fprs_free(&fprs);
			*error_r = "out of memory";
			goto out;
		}
		i++;
	}
	if (i == 0) {
		pgp_fprs_free(&fprs);
		*error_r = pgp_fail(ctx, "no usable public key found", 0);
		goto out;
	}
	*fprs_r = fprs;
	*count_r = i;
	ret = 0;
out:
	gpgme_data_release(d_keys);
	return ret;
}

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

static int pgp_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int pgp_time_verify(struct pgp_ctx *ctx, const void *data, size_t len,
		    const void *sig, size_t siglen, unsigned int rounds,
		    double *median_r, const char **error_r)
{
	struct timespec t0, t1;
	double *t;
	unsigned int i;
	int ret = -1;

	if (rounds == 0)
		rounds = 1;
	t = calloc(rounds, sizeof(*t));
	if (t == NULL) {
		*error_r = "out of memory";
		return -1;
	}
	for (i = 0; i < rounds; i++) {
		gpgme_data_t d_sig = NULL, d_text = NULL;
		gpgme_verify_result_t res;
		gpgme_error_t err;

		if ((err = gpgme_data_new_from_mem(&d_sig, sig, siglen, 0)) != 0 ||
		    (err = gpgme_data_new_from_mem(&d_text, data, len, 0)) != 0) {
			gpgme_data_release(d_sig);
			*error_r = pgp_fail(ctx, "gpgme_data_new", err);
			goto out;
		}
		/* only the gpg round trip is timed */
		clock_gettime(CLOCK_MONOTONIC, &t0);
		err = gpgme_op_verify(ctx->gpg, d_sig, d_text, NULL);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		res = gpgme_op_verify_result(ctx->gpg);
		gpgme_data_release(d_sig);
		gpgme_data_release(d_text);
		if (err != 0 || res == NULL || res->signatures == NULL ||
		    res->signatures->status != 0) {
			*error_r = pgp_fail(ctx, "timed signature is not good", err);
			goto out;
		}
		t[i] = (double)(t1.tv_sec - t0.tv_sec) +
		       (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	}
	qsort(t, rounds, sizeof(*t), pgp_cmp_double);
	*median_r = rounds % 2 ? t[rounds / 2] :
		    (t[rounds / 2 - 1] + t[rounds / 2]) / 2;
	ret = 0;
out:
	free(t);
	return ret;
}
