/* test_pgp_keys.c -- keys into the keyring with real gpg (part of the
 * test_pgp program, whose fixtures pgp_fixture.h names): secret keys
 * refused, photo IDs stripped, the size limit, one new key per
 * registration, revocations of keys we hold, strangers' data ignored,
 * and keys forgotten again. */
#include <check.h>
#include <gpgme.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mail/pgp.h"
#include "util/buf.h"

#include "pgp_fixture.h"

/* The secret key of fpr from the signer's keyring, exported to
 * fixdir/name and read back (*len its length). */
static char *export_secret(const char *fpr, const char *name, size_t *len)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "gpg --homedir '%s/signer' --batch --quiet "
		 "--pinentry-mode loopback --passphrase '' --armor "
		 "--export-secret-keys %s > '%s/%s' 2>/dev/null",
		 fixdir, fpr, fixdir, name);
	ck_assert_int_eq(system(cmd), 0);
	return slurp(name, len);
}

START_TEST(test_import_refuses_secret)
{
	char home[512];
	struct pgp_ctx *ctx;
	char **fprs = NULL;
	unsigned int n = 7;
	const char *err = NULL;
	size_t len;
	char *key, *alice2 = fpr_of("alice2");

	key = export_secret(alice2, "alice2.sec", &len);
	snprintf(home, sizeof(home), "%s/home-secret", fixdir);
	fresh_home(home);
	ck_assert_int_eq(pgp_ctx_new(home, &ctx, &err), 0);
	ck_assert_int_eq(pgp_import_keys(ctx, key, len, &fprs, &n, &err), -1);
	ck_assert_ptr_null(fprs);
	ck_assert_uint_eq(n, 0);
	ck_assert_ptr_nonnull(strstr(err, "secret"));
	/* the same without the armor label that gave it away */
	{
		char *p = strstr(key, "PRIVATE KEY BLOCK");
		ck_assert_ptr_nonnull(p);
		memcpy(p, "PUBLIC  KEY BLOCK", 17);
		ck_assert_int_eq(pgp_import_keys(ctx, key, len, &fprs, &n, &err), -1);
	}
	free(key);
	/* a public key imports and reports its fingerprint */
	key = slurp("mallory.pub", &len);
	ck_assert_msg(pgp_import_keys(ctx, key, len, &fprs, &n, &err) == 0, "%s", err);
	ck_assert_uint_eq(n, 1);
	free(alice2);
	alice2 = fpr_of("mallory");
	ck_assert_str_eq(fprs[0], alice2);
	ck_assert_ptr_null(fprs[1]);
	pgp_fprs_free(&fprs);
	ck_assert_ptr_null(fprs);
	ck_assert_int_eq(pgp_import_keys(ctx, "junk", 4, &fprs, &n, &err), -1);
	free(key);
	free(alice2);
	pgp_ctx_free(&ctx);
}
END_TEST

/* --- key imports: size, photo IDs, one new key, known keys only --- */

/* Keys in the keyring at home, counted with GPGME itself; with fpr, the
 * certifications on that key's user IDs instead. */
static unsigned int count_in(const char *home, const char *fpr)
{
	gpgme_ctx_t g;
	gpgme_key_t key;
	gpgme_user_id_t uid;
	gpgme_key_sig_t ks;
	unsigned int n = 0;

	gpgme_check_version(NULL);
	ck_assert_int_eq(gpgme_new(&g), 0);
	ck_assert_int_eq(gpgme_ctx_set_engine_info(g, GPGME_PROTOCOL_OpenPGP,
						   NULL, home), 0);
	if (fpr != NULL)
		gpgme_set_keylist_mode(g, GPGME_KEYLIST_MODE_LOCAL |
				       GPGME_KEYLIST_MODE_SIGS);
	ck_assert_int_eq(gpgme_op_keylist_start(g, fpr, 0), 0);
	while (gpgme_op_keylist_next(g, &key) == 0) {
		if (fpr == NULL)
			n++;
		for (uid = key->uids; fpr != NULL && uid != NULL; uid = uid->next)
			for (ks = uid->signatures; ks != NULL; ks = ks->next)
				n++;
		gpgme_key_unref(key);
	}
	gpgme_op_keylist_end(g);
	gpgme_release(g);
	return n;
}

static struct pgp_ctx *fresh_ctx(const char *sub, char *home, size_t size)
{
	struct pgp_ctx *ctx = NULL;
	const char *err = NULL;

	snprintf(home, size, "%s/%s", fixdir, sub);
	fresh_home(home);
	ck_assert_msg(pgp_ctx_new(home, &ctx, &err) == 0, "%s", err);
	return ctx;
}

/* Import fixture name through pgp_import_keys; returns what it returned,
 * with the single fingerprint (if any) checked against want. */
static int import_fixture(struct pgp_ctx *ctx, const char *name,
			  const char *want, const char **err_r)
{
	char **fprs = NULL;
	unsigned int n = 9;
	size_t len;
	char *key = slurp(name, &len);
	int rc = pgp_import_keys(ctx, key, len, &fprs, &n, err_r);

	if (rc == 0) {
		ck_assert_uint_eq(n, 1);
		ck_assert_ptr_null(fprs[1]);
		if (want != NULL)
			ck_assert_str_eq(fprs[0], want);
	} else {
		ck_assert_ptr_null(fprs);
		ck_assert_uint_eq(n, 0);
	}
	pgp_fprs_free(&fprs);
	free(key);
	return rc;
}

/* A normal ed25519 key imports; one with a photo ID imports without the
 * photo (its user ID stays). */
START_TEST(test_import_strips_photo)
{
	char home[512], cmd[1024];
	struct pgp_ctx *ctx = fresh_ctx("home-photo", home, sizeof(home));
	const char *err = NULL;
	char *late = fpr_of("late"), *photo = fpr_of("photo");
	unsigned int keys = count_in(home, NULL);

	ck_assert_msg(import_fixture(ctx, "late.pub", late, &err) == 0, "%s", err);
	ck_assert_uint_eq(count_in(home, NULL), keys + 1);
	ck_assert_msg(import_fixture(ctx, "photo.pub", photo, &err) == 0, "%s", err);
	ck_assert_uint_eq(count_in(home, NULL), keys + 2);
	/* GPGME does not list attribute user IDs: ask gpg */
	snprintf(cmd, sizeof(cmd), "gpg --homedir '%s' --batch --list-keys "
		 "--with-colons %s 2>/dev/null | grep -q '^%s:'", home, photo, "uat");
	ck_assert_int_ne(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "gpg --homedir '%s' --batch --list-keys "
		 "--with-colons %s 2>/dev/null | grep -q '^uid:.*photo@example.net'",
		 home, photo);
	ck_assert_int_eq(system(cmd), 0);
	/* the source had it, so the test means something */
	snprintf(cmd, sizeof(cmd), "gpg --homedir '%s/stranger' --batch --list-keys "
		 "--with-colons %s 2>/dev/null | grep -q '^uat:'", fixdir, photo);
	ck_assert_int_eq(system(cmd), 0);
	pgp_ctx_free(&ctx);
	free(late);
	free(photo);
}
END_TEST

START_TEST(test_import_size_limit)
{
	char home[512], want[128];
	struct pgp_ctx *ctx = fresh_ctx("home-big", home, sizeof(home));
	const char *err = NULL;
	char **fprs = NULL;
	unsigned int n = 9, keys = count_in(home, NULL);
	size_t len;
	char *key = slurp("bigphoto.pub", &len), *blob;
	struct pgp_known_import r = { .changed = true };

	ck_assert(len > PGP_KEY_MAX_BYTES);
	ck_assert_int_eq(pgp_import_keys(ctx, key, len, &fprs, &n, &err), -1);
	snprintf(want, sizeof(want), "the key is %zu bytes; the limit is %u",
		 len, (unsigned int)PGP_KEY_MAX_BYTES);
	ck_assert_str_eq(err, want);
	ck_assert_ptr_null(fprs);
	ck_assert_uint_eq(n, 0);
	/* a 100 KB blob, whatever it holds */
	blob = calloc(1, 100 * 1024);
	ck_assert_ptr_nonnull(blob);
	memset(blob, 'A', 100 * 1024);
	ck_assert_int_eq(pgp_import_keys(ctx, blob, 100 * 1024, &fprs, &n, &err), -1);
	ck_assert_str_eq(err, "the key is 102400 bytes; the limit is 65536");
	ck_assert_int_eq(pgp_import_known(ctx, blob, 100 * 1024, &r, &err), -1);
	ck_assert_str_eq(err, "the key is 102400 bytes; the limit is 65536");
	ck_assert_uint_eq(r.revoked_count, 0);
	ck_assert(!r.changed);
	/* exactly at the limit is not refused for its size */
	ck_assert_int_eq(pgp_import_keys(ctx, blob, PGP_KEY_MAX_BYTES, &fprs, &n, &err), -1);
	ck_assert_ptr_null(strstr(err, "limit"));
	ck_assert_uint_eq(count_in(home, NULL), keys);
	free(blob);
	free(key);
	pgp_ctx_free(&ctx);
}
END_TEST

/* Append the fixture file `name` to b. */
static void append_fixture(struct buf *b, const char *name)
{
	size_t len;
	char *k = slurp(name, &len);

	buf_append(b, k, len);
	free(k);
}

/* A registration brings one key: two new ones, or a new one with a key we
 * hold, are refused whole; keys we hold alone are reported, not merged. */
START_TEST(test_import_one_new_key)
{
	char home[512];
	struct pgp_ctx *ctx = fresh_ctx("home-one", home, sizeof(home));
	struct buf two = BUF_INIT;
	const char *err = NULL;
	char **fprs = NULL;
	unsigned int n = 9, keys = count_in(home, NULL), sigs;
	char *alice = fpr_of("alice"), *late = fpr_of("late");

	append_fixture(&two, "mallory.pub");
	append_fixture(&two, "photo.pub");
	ck_assert_int_eq(pgp_import_keys(ctx, two.data, two.len, &fprs, &n, &err), -1);
	ck_assert_ptr_nonnull(strstr(err, "2 keys, 2 of them new"));
	ck_assert_ptr_null(fprs);
	ck_assert_uint_eq(count_in(home, NULL), keys);
	buf_reset(&two);
	append_fixture(&two, "mallory.pub");
	append_fixture(&two, "alice.pub");
	ck_assert_int_eq(pgp_import_keys(ctx, two.data, two.len, &fprs, &n, &err), -1);
	ck_assert_ptr_nonnull(strstr(err, "1 of them new"));
	ck_assert_uint_eq(count_in(home, NULL), keys);
	/* a key we hold: reported as present */
	ck_assert_msg(import_fixture(ctx, "alice.pub", alice, &err) == 0, "%s", err);
	ck_assert_uint_eq(count_in(home, NULL), keys);
	/* ... and a copy of it certified by a stranger changes nothing */
	ck_assert_msg(import_fixture(ctx, "late.pub", late, &err) == 0, "%s", err);
	sigs = count_in(home, late);
	ck_assert_msg(import_fixture(ctx, "late-certified.pub", late, &err) == 0, "%s", err);
	ck_assert_uint_eq(count_in(home, late), sigs);
	ck_assert_uint_eq(count_in(home, NULL), keys + 1);
	buf_free(&two);
	free(alice);
	free(late);
	pgp_ctx_free(&ctx);
}
END_TEST

/* late's revocation certificate, as gpg keeps it (with the ':'), revokes
 * late in a keyring that holds it; its signatures are then KEY_REVOKED. */
START_TEST(test_import_known_revocation)
{
	char home[512], cmd[1024];
	struct pgp_ctx *ctx = fresh_ctx("home-revoke", home, sizeof(home));
	struct pgp_ctx *signer = open_home("signer");
	struct pgp_known_import r;
	struct pgp_sig res;
	struct buf sig = BUF_INIT;
	const char *err = NULL;
	bool known, revoked;
	size_t len;
	char *late = fpr_of("late"), *cert = slurp("late.rev", &len);
	unsigned int keys;

	ck_assert_ptr_nonnull(strstr(cert, "\n:-----BEGIN PGP PUBLIC KEY BLOCK-----"));
	ck_assert_msg(import_fixture(ctx, "late.pub", late, &err) == 0, "%s", err);
	keys = count_in(home, NULL);
	ck_assert_int_eq(pgp_sign_detached(signer, late, "x", 1, &sig, &err), 0);
	ck_assert_int_eq(pgp_verify_detached(ctx, "x", 1, sig.data, sig.len, &res, &err), 0);
	ck_assert_int_eq(res.status, PGP_SIG_GOOD);
	ck_assert_int_eq(pgp_key_state(ctx, late, &known, &revoked, &err), 0);
	ck_assert(known && !revoked);

	ck_assert_msg(pgp_import_known(ctx, cert, len, &r, &err) == 0, "%s", err);
	ck_assert(r.changed);
	ck_assert_uint_eq(r.revoked_count, 1);
	ck_assert_str_eq(r.revoked[0], late);
	ck_assert_ptr_null(r.revoked[1]);
	pgp_known_import_free(&r);
	ck_assert_ptr_null(r.revoked);
	ck_assert_uint_eq(r.revoked_count, 0);
	ck_assert_int_eq(pgp_key_state(ctx, late, &known, &revoked, &err), 0);
	ck_assert(known && revoked);
	ck_assert_uint_eq(count_in(home, NULL), keys);
	/* the old signature and a later one: both by a revoked key now */
	ck_assert_int_eq(pgp_verify_detached(ctx, "x", 1, sig.data, sig.len, &res, &err), 0);
	ck_assert_int_eq(res.status, PGP_SIG_KEY_REVOKED);
	buf_reset(&sig);
	ck_assert_int_eq(pgp_sign_detached(signer, late, "y", 1, &sig, &err), 0);
	ck_assert_int_eq(pgp_verify_detached(ctx, "y", 1, sig.data, sig.len, &res, &err), 0);
	ck_assert_int_eq(res.status, PGP_SIG_KEY_REVOKED);
	ck_assert_str_eq(res.fpr, late);
	/* the same certificate again: nothing new */
	ck_assert_msg(pgp_import_known(ctx, cert, len, &r, &err) == 0, "%s", err);
	ck_assert(!r.changed);
	ck_assert_uint_eq(r.revoked_count, 0);
	ck_assert_ptr_null(r.revoked);
	pgp_known_import_free(&r);

	/* a refreshed copy of the revoked key revokes it elsewhere too */
	snprintf(cmd, sizeof(cmd), "gpg --homedir '%s' --batch --armor --export %s "
		 "> '%s/late-revoked.pub' 2>/dev/null", home, late, fixdir);
	ck_assert_int_eq(system(cmd), 0);
	pgp_ctx_free(&ctx);
	free(cert);
	ctx = fresh_ctx("home-refresh", home, sizeof(home));
	ck_assert_msg(import_fixture(ctx, "late.pub", late, &err) == 0, "%s", err);
	cert = slurp("late-revoked.pub", &len);
	ck_assert_msg(pgp_import_known(ctx, cert, len, &r, &err) == 0, "%s", err);
	ck_assert(r.changed);
	ck_assert_uint_eq(r.revoked_count, 1);
	ck_assert_str_eq(r.revoked[0], late);
	pgp_known_import_free(&r);
	ck_assert_int_eq(pgp_key_state(ctx, late, &known, &revoked, &err), 0);
	ck_assert(known && revoked);
	ck_assert_uint_eq(count_in(home, NULL), keys);
	free(cert);
	buf_free(&sig);
	free(late);
	pgp_ctx_free(&signer);
	pgp_ctx_free(&ctx);
}
END_TEST

/* What does not belong to a key we hold changes nothing. */
START_TEST(test_import_known_strangers)
{
	char home[512];
	struct pgp_ctx *ctx = fresh_ctx("home-strangers", home, sizeof(home));
	struct pgp_known_import r;
	const char *err = NULL;
	unsigned int keys = count_in(home, NULL), sigs;
	size_t len;
	char *data, *late = fpr_of("late"), *alice = fpr_of("alice");
	int rc;

	/* mallory's revocation: gpg has no key to apply it to */
	data = slurp("mallory.revoke", &len);
	ck_assert_msg(pgp_import_known(ctx, data, len, &r, &err) == 0, "%s", err);
	ck_assert(!r.changed);
	ck_assert_uint_eq(r.revoked_count, 0);
	ck_assert_ptr_null(r.revoked);
	pgp_known_import_free(&r);
	free(data);
	ck_assert_uint_eq(count_in(home, NULL), keys);
	/* mallory's public key: refused, not added */
	data = slurp("mallory.pub", &len);
	ck_assert_int_eq(pgp_import_known(ctx, data, len, &r, &err), -1);
	ck_assert_ptr_nonnull(strstr(err, "not in the keyring"));
	ck_assert_uint_eq(r.revoked_count, 0);
	free(data);
	ck_assert_uint_eq(count_in(home, NULL), keys);
	/* a key we hold, unchanged */
	data = slurp("alice.pub", &len);
	ck_assert_msg(pgp_import_known(ctx, data, len, &r, &err) == 0, "%s", err);
	ck_assert(!r.changed);
	ck_assert_uint_eq(r.revoked_count, 0);
	free(data);
	/* garbage: refused by its shape, nothing changed, never a crash
	 * or a key */
	rc = pgp_import_known(ctx, "junk", 4, &r, &err);
	ck_assert(rc == -1 && r.revoked_count == 0 && !r.changed);
	ck_assert_ptr_nonnull(strstr(err, "no OpenPGP data"));
	pgp_known_import_free(&r);
	rc = pgp_import_known(ctx, "", 0, &r, &err);
	ck_assert(rc == -1 && r.revoked_count == 0 && !r.changed);
	pgp_known_import_free(&r);
	data = slurp("bad-sigdata.eml", &len);
	rc = pgp_import_known(ctx, data, len, &r, &err);
	ck_assert(rc == -1 && r.revoked_count == 0 && !r.changed);
	pgp_known_import_free(&r);
	free(data);
	ck_assert_uint_eq(count_in(home, NULL), keys);
	/* a stranger's certification of a key we hold is dropped */
	ck_assert_msg(import_fixture(ctx, "late.pub", late, &err) == 0, "%s", err);
	sigs = count_in(home, late);
	data = slurp("late-certified.pub", &len);
	ck_assert_msg(pgp_import_known(ctx, data, len, &r, &err) == 0, "%s", err);
	ck_assert(!r.changed);
	ck_assert_uint_eq(count_in(home, late), sigs);
	free(data);
	/* late's secret key, sent by mistake: refused, late stays */
	{
		bool known = false, revoked = true;

		data = export_secret(late, "late.sec", &len);
		ck_assert_int_eq(pgp_import_known(ctx, data, len, &r, &err), -1);
		ck_assert_ptr_nonnull(strstr(err, "secret"));
		free(data);
		ck_assert_int_eq(pgp_key_state(ctx, late, &known, &revoked, &err), 0);
		ck_assert(known && !revoked);
	}
	/* pgp_key_state: fingerprints only */
	{
		bool known = true, revoked = true;
		char lower[PGP_FPR_MAX + 1];
		size_t i;

		ck_assert_int_eq(pgp_key_state(ctx, "alice@example.org", &known, &revoked, &err), -1);
		ck_assert_int_eq(pgp_key_state(ctx, "0123456789ABCDEF", &known, &revoked, &err), -1);
		ck_assert_int_eq(pgp_key_state(ctx, "0000000000000000000000000000000000000000",
					       &known, &revoked, &err), 0);
		ck_assert(!known && !revoked);
		for (i = 0; alice[i] != '\0'; i++)
			lower[i] = (char)(alice[i] >= 'A' && alice[i] <= 'F' ? alice[i] + 32 : alice[i]);
		lower[i] = '\0';
		ck_assert_int_eq(pgp_key_state(ctx, lower, &known, &revoked, &err), 0);
		ck_assert(known && !revoked);
	}
	free(late);
	free(alice);
	pgp_ctx_free(&ctx);
}
END_TEST

/* The verifier's own revoked key (rev, revoked by the fixtures). */
START_TEST(test_key_state_revoked)
{
	struct pgp_ctx *ctx = open_home("verifier");
	const char *err = NULL;
	char *rev = fpr_of("rev"), *mallory = fpr_of("mallory");
	bool known, revoked;

	ck_assert_int_eq(pgp_key_state(ctx, rev, &known, &revoked, &err), 0);
	ck_assert(known && revoked);
	ck_assert_int_eq(pgp_key_state(ctx, mallory, &known, &revoked, &err), 0);
	ck_assert(!known && !revoked);
	free(rev);
	free(mallory);
	pgp_ctx_free(&ctx);
}
END_TEST

/* A key a refused mail brought leaves the keyring again; the daemon's
 * own (with a secret part) never does. */
START_TEST(test_forget_key)
{
	char home[512];
	struct pgp_ctx *ctx = fresh_ctx("home-forget", home, sizeof(home));
	struct pgp_ctx *signer = open_home("signer");
	const char *err = NULL;
	char *late = fpr_of("late"), *alice = fpr_of("alice");
	unsigned int keys = count_in(home, NULL);
	bool known, revoked;

	ck_assert_msg(import_fixture(ctx, "late.pub", late, &err) == 0, "%s", err);
	ck_assert_uint_eq(count_in(home, NULL), keys + 1);
	ck_assert_msg(pgp_forget_key(ctx, late, &err) == 0, "%s", err);
	ck_assert_uint_eq(count_in(home, NULL), keys);
	ck_assert_int_eq(pgp_key_state(ctx, late, &known, &revoked, &err), 0);
	ck_assert(!known);
	/* not there: nothing to do */
	ck_assert_int_eq(pgp_forget_key(ctx, late, &err), 0);
	/* not a fingerprint */
	ck_assert_int_eq(pgp_forget_key(ctx, "alice", &err), -1);
	/* a secret key is never dropped */
	ck_assert_int_eq(pgp_forget_key(signer, alice, &err), -1);
	ck_assert_int_eq(pgp_key_state(signer, alice, &known, &revoked, &err), 0);
	ck_assert(known);
	free(late);
	free(alice);
	pgp_ctx_free(&ctx);
	pgp_ctx_free(&signer);
}
END_TEST

void pgp_keys_add_tests(TCase *tc)
{
	tcase_add_test(tc, test_import_refuses_secret);
	tcase_add_test(tc, test_import_strips_photo);
	tcase_add_test(tc, test_import_size_limit);
	tcase_add_test(tc, test_import_one_new_key);
	tcase_add_test(tc, test_import_known_revocation);
	tcase_add_test(tc, test_import_known_strangers);
	tcase_add_test(tc, test_key_state_revoked);
	tcase_add_test(tc, test_forget_key);
}
