/* pgp.c -- GPGME wrapper (see pgp.h): the context, and verifying a
 * signature.  Importing and dropping keys is in pgp_keys.c, signing in
 * pgp_sign.c. */
#include "config.h"

#include "mail/pgp.h"

#include <errno.h>
#include <gpgme.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mail/pgp_private.h"
#include "mail/pgp_scan.h"

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
	ctx->budget_ms = PGP_BUDGET_DEFAULT_MS;
	ctx->scan = true;
	pgp_budget_tag_home(ctx);
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

void pgp_ctx_set_limits(struct pgp_ctx *ctx, const struct pgp_limits *lim)
{
	ctx->budget_ms = lim->budget_ms;
	ctx->allow_sha1 = lim->allow_sha1;
	ctx->scan = lim->scan;
}

int pgp_ctx_sibling(struct pgp_ctx *ctx, unsigned int i,
		    struct pgp_ctx **sibling_r, const char **error_r)
{
	if (i >= PGP_SIBLINGS_MAX) {
		*error_r = "too many GPGME contexts asked for";
		return -1;
	}
	if (ctx->siblings[i] == NULL) {
		struct pgp_limits lim = { ctx->budget_ms, ctx->allow_sha1,
					  ctx->scan };

		if (pgp_ctx_new(ctx->home, &ctx->siblings[i], error_r) < 0)
			return -1;
		pgp_ctx_set_limits(ctx->siblings[i], &lim);
	}
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

/* A digest that collisions have broken (MD5, SHA-1) or that is as weak
 * (RIPEMD-160) lets whoever chose the signed bytes make another text
 * the same signature covers: a good signature over one is refused,
 * SHA-1 only when the club allows it for old keys.  gpg itself refuses
 * MD5 already. */
static void pgp_check_digest(struct pgp_ctx *ctx, gpgme_signature_t s,
			     struct pgp_sig *sig_r)
{
	const char *name = gpgme_hash_algo_name(s->hash_algo);
	bool weak;

	snprintf(sig_r->digest, sizeof(sig_r->digest), "%s",
		 name != NULL ? name : "");
	switch (s->hash_algo) {
	case GPGME_MD_MD5:
	case GPGME_MD_RMD160:
	case GPGME_MD_MD2:
	case GPGME_MD_TIGER:
	case GPGME_MD_HAVAL:
		weak = true;
		break;
	case GPGME_MD_SHA1:
		weak = !ctx->allow_sha1;
		break;
	default:
		weak = false;
	}
	if (!weak || sig_r->status != PGP_SIG_GOOD)
		return;
	sig_r->status = PGP_SIG_ERROR;
	sig_r->refused = PGP_REFUSED_WEAK_DIGEST;
	snprintf(sig_r->why, sizeof(sig_r->why), "the signature is made over "
		 "the digest %s, which is no longer safe", sig_r->digest);
}

int pgp_fill_result(struct pgp_ctx *ctx, struct pgp_sig *sig_r,
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
	pgp_check_digest(ctx, s, sig_r);
	return 0;
}

ssize_t pgp_sink_write(void *handle, const void *buffer, size_t size)
{
	struct pgp_sink *k = handle;

	if (k->out->len + size > k->max) {
		k->over = true;
		errno = EFBIG;
		return -1;
	}
	buf_append(k->out, buffer, size);
	return (ssize_t)size;
}

/* Hand sig to gpg to verify, under the context's budget: over
 * signed_data (detached) or, when d_plain is given, as a clearsigned
 * block whose text gpg writes to d_plain.  Returns 0 with gpg's answer
 * in *err_r, *over_r true when the budget ran out (gpg was killed) and,
 * if seconds_r is not NULL, the wall time of the gpg round trip alone in
 * *seconds_r; -1 with *error_r if GPGME could not take the data. */
static int pgp_run_verify(struct pgp_ctx *ctx, const void *sig, size_t siglen,
			  const void *signed_data, size_t signed_len,
			  gpgme_data_t d_plain, gpgme_error_t *err_r,
			  bool *over_r, double *seconds_r, const char **error_r)
{
	gpgme_data_t d_sig = NULL, d_signed = NULL;
	struct pgp_budget budget;
	struct timespec t0, t1;
	gpgme_error_t err;
	int ret = -1;

	*over_r = false;
	if ((err = gpgme_data_new_from_mem(&d_sig, sig, siglen, 0)) != 0 ||
	    (d_plain == NULL &&
	     (err = gpgme_data_new_from_mem(&d_signed, signed_data, signed_len,
					    0)) != 0)) {
		*error_r = pgp_fail(ctx, "gpgme_data_new", err);
		goto out;
	}
	if (seconds_r != NULL)
		clock_gettime(CLOCK_MONOTONIC, &t0);
	pgp_budget_begin(ctx, &budget);
	*err_r = gpgme_op_verify(ctx->gpg, d_sig, d_signed, d_plain);
	*over_r = pgp_budget_end(&budget);
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

/* A refusal in place of gpg's verdict (status ERROR). */
static void pgp_refuse(struct pgp_sig *sig_r, enum pgp_refusal why_code,
		       const char *why)
{
	memset(sig_r, 0, sizeof(*sig_r));
	sig_r->status = PGP_SIG_ERROR;
	sig_r->refused = why_code;
	snprintf(sig_r->why, sizeof(sig_r->why), "%s", why);
}

/* The one verify path: sig over signed_data (detached) or, when
 * clearsigned, sig holding its own text, which gpg hands back and we
 * append to *text_r.  Failures that come from the data are a result
 * (PGP_SIG_ERROR, no text), not -1: a blob the pre-scan refuses never
 * reaches gpg, and one gpg cannot judge within the budget is stopped. */
static int pgp_verify(struct pgp_ctx *ctx, const void *sig, size_t siglen,
		      bool clearsigned, const void *signed_data,
		      size_t signed_len, struct pgp_sig *sig_r,
		      struct buf *text_r, const char **error_r)
{
	struct gpgme_data_cbs cbs = { .write = pgp_sink_write };
	struct buf plain = BUF_INIT;
	/* gpg writes the signed text, which is never longer than the block
	 * it came in (twice that allows for every line end made CRLF). */
	struct pgp_sink sink = { &plain, 2 * siglen + 1024, false };
	gpgme_data_t d_plain = NULL;
	gpgme_error_t err;
	char why[200];
	bool over;
	int ret = -1;

	if (ctx->scan &&
	    (clearsigned ? pgp_scan_clearsigned(sig, siglen, why, sizeof(why))
	     : pgp_scan(sig, siglen, PGP_SCAN_SIGNATURE, why, sizeof(why))) < 0) {
		pgp_refuse(sig_r, PGP_REFUSED_SHAPE, why);
		return 0;
	}
	if (clearsigned &&
	    (err = gpgme_data_new_from_cbs(&d_plain, &cbs, &sink)) != 0) {
		*error_r = pgp_fail(ctx, "gpgme_data_new", err);
		goto out;
	}
	if (pgp_run_verify(ctx, sig, siglen, signed_data, signed_len, d_plain,
			   &err, &over, NULL, error_r) < 0)
		goto out;
	if (over || sink.over) {
		pgp_refuse(sig_r, PGP_REFUSED_BUDGET, over ?
			   pgp_budget_fail(ctx) : "gpg wrote more text than "
			   "the signed block holds and was stopped");
		ret = 0;
		goto out;
	}
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
	if (clearsigned && ret == 0)
		buf_append(text_r, plain.data ? plain.data : "", plain.len);
out:
	gpgme_data_release(d_plain);
	buf_free(&plain);
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
		bool over;

		if (pgp_run_verify(ctx, sig, siglen, data, len, NULL, &err,
				   &over, &t[i], error_r) < 0)
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
