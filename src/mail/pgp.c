/* pgp.c -- GPGME wrapper; see pgp.h. */
#include "config.h"

#include "mail/pgp.h"

#include <ctype.h>
#include <gpgme.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/xstr.h"

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

/* The one verify path: sig over signed_data (detached) or, when
 * clearsigned, sig holding its own text, which gpg hands back and we
 * append to *text_r.  Failures that come from the data are a result
 * (PGP_SIG_ERROR, no text), not -1. */
static int pgp_verify(struct pgp_ctx *ctx, const void *sig, size_t siglen,
		      bool clearsigned, const void *signed_data,
		      size_t signed_len, struct pgp_sig *sig_r,
		      struct buf *text_r, const char **error_r)
{
	gpgme_data_t d_sig = NULL, d_signed = NULL, d_plain = NULL;
	gpgme_error_t err;
	char *plain;
	size_t plain_len;
	int ret = -1;

	if ((err = gpgme_data_new_from_mem(&d_sig, sig, siglen, 0)) != 0 ||
	    (err = clearsigned ? gpgme_data_new(&d_plain) :
	     gpgme_data_new_from_mem(&d_signed, signed_data, signed_len, 0)) != 0) {
		*error_r = pgp_fail(ctx, "gpgme_data_new", err);
		goto out;
	}
	err = gpgme_op_verify(ctx->gpg, d_sig, d_signed, d_plain);
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
	gpgme_data_release(d_sig);
	gpgme_data_release(d_signed);
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

/* Append a copy of fpr to the NULL-terminated array *fprs of *n entries.
 * Running out of memory aborts, as util/buf.h does. */
static void pgp_fprs_add(char ***fprs, unsigned int *n, const char *fpr)
{
	char **v = realloc(*fprs, (*n + 2) * sizeof(*v));

	if (v == NULL) {
		fputs("pgp: out of memory\n", stderr);
		abort();
	}
	v[*n] = xstrdup(fpr);
	v[*n + 1] = NULL;
	*fprs = v;
	(*n)++;
}

static bool pgp_fprs_has(char **fprs, const char *fpr)
{
	for (; fprs != NULL && *fprs != NULL; fprs++)
		if (strcmp(*fprs, fpr) == 0)
			return true;
	return false;
}

static int pgp_cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Filters for gpg's import (gpg(1), --import-filter).  GPGME 1.18 passes
 * one filter and no --import-options (import-clean, import-minimal,
 * merge-only): each path gets the filter that matters most for it.
 *
 * Registration: keep only real user IDs.  gpg files a photo ID (an
 * attribute packet) as a user ID whose name it makes up itself: "[jpeg
 * image of size N]", "[N attributes of size N]", "[unknown attribute of
 * size N]", "[bad attribute packet of size N]" or "[invalid image]" --
 * never with a mail address.  A real user ID without an address but with
 * those words is dropped too; a key left without user IDs is refused.
 * The certifications a new key carries stay: its owner's choice, once,
 * and within PGP_KEY_MAX_BYTES.
 *
 * Known keys: drop certifications made by other keys (gpg never drops
 * self-signatures with this filter), so that nobody can grow a player's
 * key by certifying it; the web of trust means nothing here anyway.  (A
 * photo ID only the key's owner can add still comes in this way.) */
#define PGP_FILTER_NEW_KEY \
	"keep-uid=mbox -n || uid !~ of size && uid !~ [invalid image]"
#define PGP_FILTER_KNOWN_KEY "drop-sig=sig_created -n"

/* What may never come in by mail, whatever the path. */
static int pgp_import_precheck(struct pgp_ctx *ctx, const void *data,
			       size_t len, const char **error_r)
{
	if (len > PGP_KEY_MAX_BYTES) {
		snprintf(ctx->error, sizeof(ctx->error),
			 "the key is %zu bytes; the limit is %u", len,
			 (unsigned int)PGP_KEY_MAX_BYTES);
		*error_r = ctx->error;
		return -1;
	}
	if (memmem(data, len, "PRIVATE KEY BLOCK", 17) != NULL) {
		*error_r = pgp_fail(ctx, "refusing to import a secret key", 0);
		return -1;
	}
	return 0;
}

/* The primary keys in data as gpg's import would read them (a dry run:
 * nothing is written), each with whether the keyring holds it already.
 * Bare revocations and secret keys are not listed.  *fprs_r is
 * NULL-terminated (free with pgp_fprs_free), *known_r parallel to it
 * (free()).  Data gpg cannot read gives an empty list, not -1. */
static int pgp_list_data(struct pgp_ctx *ctx, const void *data, size_t len,
			 char ***fprs_r, bool **known_r, unsigned int *n_r,
			 const char **error_r)
{
	gpgme_data_t d = NULL;
	gpgme_key_t key;
	gpgme_error_t err;
	char **fprs = NULL;
	bool *known = NULL;
	unsigned int n = 0, i;
	int ret = -1;

	*fprs_r = NULL;
	*known_r = NULL;
	*n_r = 0;
	if ((err = gpgme_data_new_from_mem(&d, data, len, 0)) != 0) {
		*error_r = pgp_fail(ctx, "gpgme_data_new", err);
		goto out;
	}
	err = gpgme_op_keylist_from_data_start(ctx->gpg, d, 0);
	while (err == 0 && (err = gpgme_op_keylist_next(ctx->gpg, &key)) == 0) {
		if (key->subkeys != NULL && key->subkeys->fpr != NULL &&
		    !pgp_fprs_has(fprs, key->subkeys->fpr))
			pgp_fprs_add(&fprs, &n, key->subkeys->fpr);
		gpgme_key_unref(key);
	}
	gpgme_op_keylist_end(ctx->gpg);
	if (err != 0 && gpg_err_code(err) != GPG_ERR_EOF && !pgp_data_error(err)) {
		*error_r = pgp_fail(ctx, "reading the key data", err);
		goto out;
	}
	known = calloc(n + 1, sizeof(*known));
	if (known == NULL) {
		fputs("pgp: out of memory\n", stderr);
		abort();
	}
	/* One listing of the keyring for all of them.  An empty pattern
	 * list would list every key: not needed then. */
	err = n > 0 ? gpgme_op_keylist_ext_start(ctx->gpg, (const char **)fprs,
						 0, 0) : gpg_error(GPG_ERR_EOF);
	while (err == 0 && (err = gpgme_op_keylist_next(ctx->gpg, &key)) == 0) {
		/* only a primary key counts: the patterns match subkeys too */
		for (i = 0; i < n && key->subkeys != NULL && key->subkeys->fpr != NULL; i++)
			if (strcmp(fprs[i], key->subkeys->fpr) == 0)
				known[i] = true;
		gpgme_key_unref(key);
	}
	if (n > 0)
		gpgme_op_keylist_end(ctx->gpg);
	if (gpg_err_code(err) != GPG_ERR_EOF) {
		*error_r = pgp_fail(ctx, "listing the keyring", err);
		goto out;
	}
	*fprs_r = fprs;
	*known_r = known;
	*n_r = n;
	fprs = NULL;
	known = NULL;
	ret = 0;
out:
	pgp_fprs_free(&fprs);
	free(known);
	gpgme_data_release(d);
	return ret;
}

/* Run gpg's import of data with the import filter; *res_r stays valid
 * until the next operation on ctx. */
static int pgp_import_data(struct pgp_ctx *ctx, const char *filter,
			   const void *data, size_t len,
			   gpgme_import_result_t *res_r, const char **error_r)
{
	gpgme_data_t d = NULL;
	gpgme_error_t err;
	int ret = -1;

	*res_r = NULL;
	if ((err = gpgme_set_ctx_flag(ctx->gpg, "import-filter", filter)) != 0) {
		*error_r = pgp_fail(ctx, "cannot set gpg's import filter", err);
		goto out;
	}
	if ((err = gpgme_data_new_from_mem(&d, data, len, 0)) != 0) {
		*error_r = pgp_fail(ctx, "gpgme_data_new", err);
		goto out;
	}
	err = gpgme_op_import(ctx->gpg, d);
	*res_r = gpgme_op_import_result(ctx->gpg);
	if (err != 0 || *res_r == NULL) {
		*error_r = pgp_fail(ctx, pgp_data_error(err) ?
				    "no OpenPGP key data" : "import", err);
		*res_r = NULL;
		goto out;
	}
	ret = 0;
out:
	gpgme_data_release(d);
	return ret;
}

/* Undo the import of a key that was not in the keyring before. */
static void pgp_delete_key(struct pgp_ctx *ctx, const char *fpr)
{
	gpgme_key_t key;

	if (gpgme_get_key(ctx->gpg, fpr, &key, 0) != 0)
		return;
	gpgme_op_delete_ext(ctx->gpg, key, GPGME_DELETE_ALLOW_SECRET |
			    GPGME_DELETE_FORCE);
	gpgme_key_unref(key);
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

/* The primary keys this import added to the keyring (not merged into a
 * key it held): a NULL-terminated array, or NULL for none. */
static char **pgp_new_keys(gpgme_import_result_t res, unsigned int *n_r)
{
	gpgme_import_status_t st;
	char **fprs = NULL;

	*n_r = 0;
	for (st = res->imports; st != NULL; st = st->next)
		if (st->result == 0 && st->fpr != NULL &&
		    (st->status & GPGME_IMPORT_NEW) &&
		    !(st->status & GPGME_IMPORT_SECRET) && !pgp_fprs_has(fprs, st->fpr))
			pgp_fprs_add(&fprs, n_r, st->fpr);
	return fprs;
}

int pgp_import_keys(struct pgp_ctx *ctx, const void *data, size_t len,
		    char ***fprs_r, unsigned int *count_r,
		    const char **error_r)
{
	gpgme_import_result_t res;
	char **listed = NULL, **added = NULL, **fprs = NULL;
	bool *known = NULL;
	unsigned int n_listed = 0, n_new = 0, n_added = 0, n = 0, i;
	int ret = -1;

	*fprs_r = NULL;
	*count_r = 0;
	if (pgp_import_precheck(ctx, data, len, error_r) < 0)
		return -1;
	if (pgp_list_data(ctx, data, len, &listed, &known, &n_listed, error_r) < 0)
		goto out;
	for (i = 0; i < n_listed; i++)
		n_new += known[i] ? 0 : 1;
	if (n_listed == 0) {
		*error_r = pgp_fail(ctx, "no usable public key found", 0);
		goto out;
	}
	/* A registration brings one key.  Importing it along with keys we
	 * hold would also merge whatever the data adds to those. */
	if (n_new > 0 && n_listed > 1) {
		snprintf(ctx->error, sizeof(ctx->error),
			 "the data holds %u keys, %u of them new; a new key "
			 "must come alone", n_listed, n_new);
		*error_r = ctx->error;
		goto out;
	}
	if (n_new == 0) {
		/* all present already: report them, change nothing */
		fprs = listed;
		n = n_listed;
		listed = NULL;
		goto done;
	}
	if (pgp_import_data(ctx, PGP_FILTER_NEW_KEY, data, len, &res, error_r) < 0)
		goto out;
	if (res->secret_read > 0) {
		pgp_drop_secret(ctx, res);
		*error_r = pgp_fail(ctx, "refusing to import a secret key", 0);
		goto out;
	}
	/* The listing said one; gpg is the judge of what it wrote. */
	added = pgp_new_keys(res, &n_added);
	if (n_added > 1 || (n_added == 1 && strcmp(added[0], listed[0]) != 0)) {
		for (i = 0; i < n_added; i++)
			pgp_delete_key(ctx, added[i]);
		*error_r = pgp_fail(ctx, "the import added other keys than "
				    "the one listed; undone", 0);
		goto out;
	}
	if (n_added == 0) {
		/* e.g. no user ID left once the photo IDs were dropped */
		*error_r = pgp_fail(ctx, "no usable public key found", 0);
		goto out;
	}
	fprs = added;
	n = n_added;
	added = NULL;
done:
	*fprs_r = fprs;
	*count_r = n;
	ret = 0;
out:
	pgp_fprs_free(&listed);
	pgp_fprs_free(&added);
	free(known);
	return ret;
}

void pgp_known_import_free(struct pgp_known_import *r)
{
	pgp_fprs_free(&r->revoked);
	memset(r, 0, sizeof(*r));
}

/* The primary fingerprints of the keyring's keys, those revoked or not
 * as revoked says, sorted (for bsearch).  *fprs_r as pgp_fprs_free. */
static int pgp_keyring_fprs(struct pgp_ctx *ctx, bool revoked,
			    char ***fprs_r, unsigned int *n_r,
			    const char **error_r)
{
	gpgme_key_t key;
	gpgme_error_t err;

	*fprs_r = NULL;
	*n_r = 0;
	err = gpgme_op_keylist_start(ctx->gpg, NULL, 0);
	while (err == 0 && (err = gpgme_op_keylist_next(ctx->gpg, &key)) == 0) {
		if (key->subkeys != NULL && key->subkeys->fpr != NULL &&
		    (bool)key->revoked == revoked)
			pgp_fprs_add(fprs_r, n_r, key->subkeys->fpr);
		gpgme_key_unref(key);
	}
	gpgme_op_keylist_end(ctx->gpg);
	if (gpg_err_code(err) != GPG_ERR_EOF) {
		pgp_fprs_free(fprs_r);
		*n_r = 0;
		*error_r = pgp_fail(ctx, "listing the keyring", err);
		return -1;
	}
	if (*n_r > 1)
		qsort(*fprs_r, *n_r, sizeof(**fprs_r), pgp_cmp_str);
	return 0;
}

int pgp_forget_key(struct pgp_ctx *ctx, const char *fpr, const char **error_r)
{
	gpgme_key_t key = NULL;
	gpgme_error_t err;
	size_t n = fpr != NULL ? strlen(fpr) : 0, i;

	for (i = 0; i < n; i++)
		if (!isxdigit((unsigned char)fpr[i]))
			break;
	if ((n != 40 && n != 64) || i != n) {
		*error_r = "not a fingerprint";
		return -1;
	}
	/* A secret part: never ours to drop. */
	if (gpgme_get_key(ctx->gpg, fpr, &key, 1) == 0) {
		gpgme_key_unref(key);
		*error_r = "the key has a secret part";
		return -1;
	}
	if (gpgme_get_key(ctx->gpg, fpr, &key, 0) != 0)
		return 0;
	err = gpgme_op_delete_ext(ctx->gpg, key, GPGME_DELETE_FORCE);
	gpgme_key_unref(key);
	if (err != 0) {
		*error_r = pgp_fail(ctx, "deleting a key", err);
		return -1;
	}
	return 0;
}

/* gpg keeps the revocation certificate it makes with a key under
 * openpgp-revocs.d with a ':' before the armor line, so that it cannot be
 * imported by accident; the player who sends that file means it. */
static void pgp_unguard_armor(const char *data, size_t len, struct buf *out)
{
	static const char guard[] = ":-----BEGIN PGP ";
	size_t i, start = 0;

	for (i = 0; i + sizeof(guard) - 1 <= len; i++) {
		if ((i == 0 || data[i - 1] == '\n') &&
		    memcmp(data + i, guard, sizeof(guard) - 1) == 0) {
			buf_append(out, data + start, i - start);
			start = i + 1;
		}
	}
	buf_append(out, data + start, len - start);
}

int pgp_import_known(struct pgp_ctx *ctx, const void *data, size_t len,
		     struct pgp_known_import *r, const char **error_r)
{
	struct buf unguarded = BUF_INIT;
	gpgme_import_result_t res;
	gpgme_import_status_t st;
	char **listed = NULL, **added = NULL, **before = NULL, **after = NULL;
	bool *known = NULL;
	unsigned int n_listed = 0, n_added = 0, n_before = 0, n_after = 0, i;
	int ret = -1;

	memset(r, 0, sizeof(*r));
	if (pgp_import_precheck(ctx, data, len, error_r) < 0)
		return -1;
	if (memmem(data, len, ":-----BEGIN PGP ", 16) != NULL) {
		pgp_unguard_armor(data, len, &unguarded);
		data = unguarded.data;
		len = unguarded.len;
	}
	if (pgp_list_data(ctx, data, len, &listed, &known, &n_listed, error_r) < 0)
		goto out;
	/* gpg cannot be told to take only some of the keys (no merge-only
	 * through GPGME 1.18): one stranger and the whole data is refused. */
	for (i = 0; i < n_listed; i++) {
		if (!known[i]) {
			snprintf(ctx->error, sizeof(ctx->error),
				 "the data holds the key %s, which is not in "
				 "the keyring; nothing imported", listed[i]);
			*error_r = ctx->error;
			goto out;
		}
	}
	/* A bare revocation names its key only inside the packet, and gpg
	 * does not report which key it revoked: compare the keyring's
	 * revoked keys before and after.  One listing each way; this path
	 * is rare (a player revoking a key). */
	if (pgp_keyring_fprs(ctx, false, &before, &n_before, error_r) < 0)
		goto out;
	if (pgp_import_data(ctx, PGP_FILTER_KNOWN_KEY, data, len, &res, error_r) < 0)
		goto out;
	if (res->secret_read > 0) {
		pgp_drop_secret(ctx, res);
		*error_r = pgp_fail(ctx, "refusing to import a secret key", 0);
		goto out;
	}
	added = pgp_new_keys(res, &n_added);
	if (n_added > 0) {
		/* the listing missed it (or the keyring changed meanwhile) */
		for (i = 0; i < n_added; i++)
			pgp_delete_key(ctx, added[i]);
		snprintf(ctx->error, sizeof(ctx->error),
			 "the data added the key %s; undone", added[0]);
		*error_r = ctx->error;
		goto out;
	}
	r->changed = res->imported > 0 || res->new_user_ids > 0 ||
		res->new_sub_keys > 0 || res->new_signatures > 0 ||
		res->new_revocations > 0;
	for (st = res->imports; st != NULL; st = st->next)
		if (st->result == 0 && st->status != 0)
			r->changed = true;
	if (r->changed) {
		if (pgp_keyring_fprs(ctx, true, &after, &n_after, error_r) < 0)
			goto out;
		for (i = 0; i < n_after; i++)
			if (n_before > 0 &&
			    bsearch(&after[i], before, n_before, sizeof(*before),
				    pgp_cmp_str) != NULL)
				pgp_fprs_add(&r->revoked, &r->revoked_count, after[i]);
	}
	ret = 0;
out:
	if (ret < 0)
		pgp_known_import_free(r);
	pgp_fprs_free(&listed);
	pgp_fprs_free(&added);
	pgp_fprs_free(&before);
	pgp_fprs_free(&after);
	free(known);
	buf_free(&unguarded);
	return ret;
}

static bool pgp_is_fpr(const char *s)
{
	size_t n = strspn(s, "0123456789abcdefABCDEF");

	return s[n] == '\0' && (n == 40 || n == 64);
}

int pgp_key_state(struct pgp_ctx *ctx, const char *fpr, bool *known_r,
		  bool *revoked_r, const char **error_r)
{
	gpgme_key_t key = NULL;
	gpgme_error_t err;

	*known_r = false;
	*revoked_r = false;
	/* a name or a short key ID would be a search, not a look-up */
	if (fpr == NULL || !pgp_is_fpr(fpr)) {
		*error_r = pgp_fail(ctx, "not a key fingerprint", 0);
		return -1;
	}
	err = gpgme_get_key(ctx->gpg, fpr, &key, 0);
	if (gpg_err_code(err) == GPG_ERR_EOF)
		return 0;
	if (err != 0) {
		*error_r = pgp_fail(ctx, "key look-up", err);
		return -1;
	}
	if (key->subkeys != NULL && key->subkeys->fpr != NULL &&
	    strcasecmp(key->subkeys->fpr, fpr) == 0) {
		*known_r = true;
		*revoked_r = key->revoked != 0;
	}
	gpgme_key_unref(key);
	return 0;
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
