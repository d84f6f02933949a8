/* pgp.c -- GPGME wrapper (see pgp.h): the context, and verifying a
 * signature.  Importing and dropping keys is in pgp_keys.c, signing in
 * pgp_sign.c. */
#include "config.h"

#include "mail/pgp.h"

#include <gpgme.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mail/pgp_private.h"

const char *pgp_fail(struct pgp_ctx *ctx, const char *what, gpgme_error_t err)
{
	char words[160];

	/* gpgme_strerror is not thread-safe; its _r twin is. */
	if (err != 0 && gpgme_strerror_r(err, words, sizeof(words)) != 0)
		snprintf(words, sizeof(words), "GPGME error %u", (unsigned)err);
	if (err != 0)
		snprintf(ctx->error, sizeof(ctx->error), "%s: %s", what, words);
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

/* GPGME wants gpgme_check_version() called once before any other call
 * and before threads use it: done once, by whichever thread makes the
 * first context (the daemon's loop, its outbox thread). */
static pthread_once_t pgp_once = PTHREAD_ONCE_INIT;
static const char *pgp_init_error;

static void pgp_init(void)
{
	if (gpgme_check_version("1.14.0") == NULL)
		pgp_init_error = "GPGME older than 1.14";
	else if (gpgme_engine_check_version(GPGME_PROTOCOL_OpenPGP) != 0)
		pgp_init_error = "no usable gpg engine for OpenPGP";
}

int pgp_ctx_new(const char *gnupghome, struct pgp_ctx **ctx_r,
		const char **error_r)
{
	struct pgp_ctx *ctx;

	pthread_once(&pgp_once, pgp_init);
	if (pgp_init_error != NULL) {
		*error_r = pgp_init_error;
		return -1;
	}
	ctx = calloc(1, sizeof(*ctx));
	if (ctx == NULL ||
	    (gnupghome != NULL && (ctx->home = strdup(gnupghome)) == NULL)) {
		free(ctx);
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
		free(ctx->home);
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
	unsigned int i;

	if (ctx == NULL)
		return;
	for (i = 0; i < PGP_SIBLINGS_MAX; i++)
		pgp_ctx_free(&ctx->siblings[i]);
	gpgme_release(ctx->gpg);
	free(ctx->home);
	free(ctx);
	*ctxp = NULL;
}

int pgp_ctx_sibling(struct pgp_ctx *ctx, unsigned int i,
		    struct pgp_ctx **sibling_r, const char **error_r)
{
	if (i >= PGP_SIBLINGS_MAX) {
		*error_r = "too many GPGME contexts asked for";
		return -1;
	}
	if (ctx->siblings[i] == NULL &&
	    pgp_ctx_new(ctx->home, &ctx->siblings[i], error_r) < 0)
		return -1;
	*sibling_r = ctx->siblings[i];
	return 0;
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

/* Errors of gpgme_op_verify (and of an import or a key listing of data)
 * that come from the data (a hostile or broken mail) rather than from gpg
 * itself. */
bool pgp_data_error(gpgme_error_t err)
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

/* Hand sig to gpg to verify: over signed_data (detached) or, when
 * d_plain is given, as a clearsigned block whose text gpg writes to
 * d_plain.  Returns 0 with gpg's answer in *err_r and, if seconds_r is not
 * NULL, the wall time of the gpg round trip alone in *seconds_r; -1 with
 * *error_r if GPGME could not take the data. */
static int pgp_run_verify(struct pgp_ctx *ctx, const void *sig, size_t siglen,
			  const void *signed_data, size_t signed_len,
			  gpgme_data_t d_plain, gpgme_error_t *err_r,
			  double *seconds_r, const char **error_r)
{
	gpgme_data_t d_sig = NULL, d_signed = NULL;
	struct timespec t0, t1;
	gpgme_error_t err;
	int ret = -1;

	if ((err = gpgme_data_new_from_mem(&d_sig, sig, siglen, 0)) != 0 ||
	    (d_plain == NULL &&
	     (err = gpgme_data_new_from_mem(&d_signed, signed_data, signed_len,
					    0)) != 0)) {
		*error_r = pgp_fail(ctx, "gpgme_data_new", err);
		goto out;
	}
	if (seconds_r != NULL)
		clock_gettime(CLOCK_MONOTONIC, &t0);
	*err_r = gpgme_op_verify(ctx->gpg, d_sig, d_signed, d_plain);
	if (seconds_r != NULL) {
		clock_gettime(CLOCK_MONOTONIC, &t1);
		*seconds_r = (double)(t1.tv_sec - t0.tv_sec) +
			     (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	}
	ret = 0;
out:
	gpgme_data_release(d_sig);
	gpgme_data_release(d_signed);
	return ret;
}

/* The one verify path: sig over signed_data (detached) or, when
 * clearsigned, sig holding its own text, which gpg hands back and we
 * append to *text_r.  Failures that come from the data are a result
 * (PGP_SIG_ERROR, no text), not -1. */
static int pgp_verify(struct pgp_ctx *ctx, const void *sig, size_t siglen,
		      bool clearsigned, const void *signed_data,
		      size_t signed_len, struct pgp_sig *sig_r,
		      struct buf *text_r, const char **error_r)
{
	gpgme_data_t d_plain = NULL;
	gpgme_error_t err;
	char *plain;
	size_t plain_len;
	int ret = -1;

	if (clearsigned && (err = gpgme_data_new(&d_plain)) != 0) {
		*error_r = pgp_fail(ctx, "gpgme_data_new", err);
		goto out;
	}
	if (pgp_run_verify(ctx, sig, siglen, signed_data, signed_len, d_plain,
			   &err, NULL, error_r) < 0)
		goto out;
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
	if (!clearsigned)
		goto out;
	plain = gpgme_data_release_and_get_mem(d_plain, &plain_len);
	d_plain = NULL;
	if (plain != NULL) {
		if (ret == 0)
			buf_append(text_r, plain, plain_len);
		gpgme_free(plain);
	}
out:
	gpgme_data_release(d_plain);
	return ret;
}

int pgp_verify_detached(struct pgp_ctx *ctx, const void *data, size_t len,
			const void *sig, size_t siglen, struct pgp_sig *sig_r,
			const char **error_r)
{
	return pgp_verify(ctx, sig, siglen, false, data, len, sig_r, NULL,
			  error_r);
}

int pgp_verify_clearsigned(struct pgp_ctx *ctx, const void *data, size_t len,
			   struct pgp_sig *sig_r, struct buf *text_r,
			   const char **error_r)
{
	return pgp_verify(ctx, data, len, true, NULL, 0, sig_r, text_r,
			  error_r);
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
		gpgme_verify_result_t res;
		gpgme_error_t err;

		if (pgp_run_verify(ctx, sig, siglen, data, len, NULL, &err,
				   &t[i], error_r) < 0)
			goto out;
		res = gpgme_op_verify_result(ctx->gpg);
		if (err != 0 || res == NULL || res->signatures == NULL ||
		    res->signatures->status != 0) {
			*error_r = pgp_fail(ctx, "timed signature is not good", err);
			goto out;
		}
	}
	qsort(t, rounds, sizeof(*t), pgp_cmp_double);
	*median_r = rounds % 2 ? t[rounds / 2] :
		    (t[rounds / 2 - 1] + t[rounds / 2]) / 2;
	ret = 0;
out:
	free(t);
	return ret;
}
