/* pgp_keys.c -- the keyring policy of pgp.h: which keys a mail may bring
 * in (one new player's key; revocations and updates of keys we hold),
 * dropping a key no player holds, and a key's state. */
#include "config.h"

#include "mail/pgp.h"

#include <ctype.h>
#include <gpgme.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mail/pgp_private.h"
#include "mail/pgp_scan.h"
#include "util/buf.h"
#include "util/xstr.h"

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

/* What may never come in by mail, whatever the path: too much, a
 * secret key, and (the pre-scan) any packet key data does not hold. */
static int pgp_import_precheck(struct pgp_ctx *ctx, const void *data,
			       size_t len, const char **error_r)
{
	char why[200];

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
	if (ctx->scan && pgp_scan(data, len, PGP_SCAN_KEYS, why,
				  sizeof(why)) < 0) {
		snprintf(ctx->error, sizeof(ctx->error), "not taken: %s", why);
		*error_r = ctx->error;
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
	struct pgp_budget budget;
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
	pgp_budget_begin(ctx, &budget);
	err = gpgme_op_keylist_from_data_start(ctx->gpg, d, 0);
	while (err == 0 && (err = gpgme_op_keylist_next(ctx->gpg, &key)) == 0) {
		if (key->subkeys != NULL && key->subkeys->fpr != NULL &&
		    !pgp_fprs_has(fprs, key->subkeys->fpr))
			pgp_fprs_add(&fprs, &n, key->subkeys->fpr);
		gpgme_key_unref(key);
	}
	gpgme_op_keylist_end(ctx->gpg);
	if (pgp_budget_end(&budget)) {
		*error_r = pgp_budget_fail(ctx);
		goto out;
	}
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

/* Run gpg's import of data with the import filter.  A secret key in the
 * data is deleted again and refused.  Returns 0 with *res_r (valid until
 * the next operation on ctx) and the primary keys the import added to the
 * keyring in *added_r, *n_added_r (as pgp_new_keys); -1 with *error_r. */
static int pgp_import_data(struct pgp_ctx *ctx, const char *filter,
			   const void *data, size_t len,
			   gpgme_import_result_t *res_r, char ***added_r,
			   unsigned int *n_added_r, const char **error_r)
{
	struct pgp_budget budget;
	gpgme_data_t d = NULL;
	gpgme_error_t err;
	int ret = -1;

	*res_r = NULL;
	*added_r = NULL;
	*n_added_r = 0;
	if ((err = gpgme_set_ctx_flag(ctx->gpg, "import-filter", filter)) != 0) {
		*error_r = pgp_fail(ctx, "cannot set gpg's import filter", err);
		goto out;
	}
	if ((err = gpgme_data_new_from_mem(&d, data, len, 0)) != 0) {
		*error_r = pgp_fail(ctx, "gpgme_data_new", err);
		goto out;
	}
	pgp_budget_begin(ctx, &budget);
	err = gpgme_op_import(ctx->gpg, d);
	if (pgp_budget_end(&budget)) {
		*error_r = pgp_budget_fail(ctx);
		goto out;
	}
	*res_r = gpgme_op_import_result(ctx->gpg);
	if (err != 0 || *res_r == NULL) {
		*error_r = pgp_fail(ctx, pgp_data_error(err) ?
				    "no OpenPGP key data" : "import", err);
		*res_r = NULL;
		goto out;
	}
	if ((*res_r)->secret_read > 0) {
		pgp_drop_secret(ctx, *res_r);
		*error_r = pgp_fail(ctx, "refusing to import a secret key", 0);
		*res_r = NULL;
		goto out;
	}
	*added_r = pgp_new_keys(*res_r, n_added_r);
	ret = 0;
out:
	gpgme_data_release(d);
	return ret;
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
	/* The listing said one; gpg is the judge of what it wrote. */
	if (pgp_import_data(ctx, PGP_FILTER_NEW_KEY, data, len, &res, &added,
			    &n_added, error_r) < 0)
		goto out;
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
	if (pgp_import_data(ctx, PGP_FILTER_KNOWN_KEY, data, len, &res, &added,
			    &n_added, error_r) < 0)
		goto out;
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
