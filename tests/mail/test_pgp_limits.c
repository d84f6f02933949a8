/* test_pgp_limits.c -- what a context allows a stranger's bytes (struct
 * pgp_limits): the pre-scan in front of gpg, the budget that stops gpg,
 * and the refusal of weak digests, with real gpg.  Part of the test_pgp
 * program (pgp_fixture.h); the bombs are made by tests/mail/pgp-bomb.py
 * at test time. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mail/inbound.h"
#include "mail/pgp.h"
#include "util/buf.h"

#include "pgp_fixture.h"

static const char *const ours[] = { "ashes@club.example", NULL };

/* pgp-bomb.py's output for args into *out. */
static void bomb(const char *args, struct buf *out)
{
	const char *src = getenv("ASHES_SRCDIR");
	char cmd[512], chunk[8192];
	size_t n;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "python3 '%s/tests/mail/pgp-bomb.py' %s",
		 src ? src : ".", args);
	f = popen(cmd, "r");
	ck_assert_ptr_nonnull(f);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_append(out, chunk, n);
	ck_assert_int_eq(pclose(f), 0);
}

static struct inbound_msg *parse_limits(const char *name,
					const struct pgp_limits *lim)
{
	struct inbound_options o = { .our_addrs = ours, .now = time(NULL) };
	struct inbound_msg *msg = NULL;
	const char *err = NULL;
	size_t len;
	char *raw = slurp(name, &len);

	o.pgp = open_home("verifier");
	pgp_ctx_set_limits(o.pgp, lim);
	ck_assert_msg(inbound_parse(raw, len, &o, &msg, &err) == 0, "%s", err);
	pgp_ctx_free(&o.pgp);
	free(raw);
	return msg;
}

/* SHA-1 refused by default and allowed by allow_sha1; RIPEMD-160 never. */
START_TEST(test_weak_digest)
{
	struct pgp_limits lim = { PGP_BUDGET_DEFAULT_MS, false, true };
	struct inbound_msg *m;

	m = parse_limits("digest-SHA1.eml", &lim);
	ck_assert_int_eq(m->sig.status, PGP_SIG_ERROR);
	ck_assert_int_eq(m->sig.refused, PGP_REFUSED_WEAK_DIGEST);
	ck_assert_str_eq(m->sig.digest, "SHA1");
	ck_assert_ptr_nonnull(strstr(m->sig.why, "SHA1"));
	ck_assert(!inbound_msg_signature_ok(m));
	inbound_msg_free(&m);
	m = parse_limits("digest-RIPEMD160.eml", &lim);
	ck_assert_int_eq(m->sig.refused, PGP_REFUSED_WEAK_DIGEST);
	ck_assert_str_eq(m->sig.digest, "RIPEMD160");
	inbound_msg_free(&m);
	lim.allow_sha1 = true;
	m = parse_limits("digest-SHA1.eml", &lim);
	ck_assert_int_eq(m->sig.status, PGP_SIG_GOOD);
	ck_assert_int_eq(m->sig.refused, PGP_REFUSED_NONE);
	inbound_msg_free(&m);
	m = parse_limits("digest-RIPEMD160.eml", &lim);
	ck_assert_int_eq(m->sig.refused, PGP_REFUSED_WEAK_DIGEST);
	inbound_msg_free(&m);
	/* SHA-256 (gpg's default) is good */
	m = parse_limits("clearsigned.eml", &lim);
	ck_assert_int_eq(m->sig.status, PGP_SIG_GOOD);
	ck_assert_str_eq(m->sig.digest, "SHA256");
	inbound_msg_free(&m);
}
END_TEST

/* A detached signature of nested compressed packets (4 GiB of zeros, 20 s
 * or more of gpg): the pre-scan refuses it without gpg; with the scan
 * off, the budget stops gpg, and the context verifies the next signature
 * as ever. */
/* pgp_verify_detached() of sig over "x" into *res: the seconds it took. */
static double verify_timed(struct pgp_ctx *ctx, const struct buf *sig,
			   struct pgp_sig *res)
{
	const char *err = NULL;
	double t0 = now_s();

	ck_assert_int_eq(pgp_verify_detached(ctx, "x", 1, sig->data, sig->len,
					     res, &err), 0);
	return now_s() - t0;
}

START_TEST(test_budget_verify)
{
	struct pgp_limits lim = { 1000, false, true };
	struct pgp_ctx *ctx = open_home("signer");
	struct buf b = BUF_INIT, sig = BUF_INIT;
	struct pgp_sig res;
	const char *err = NULL;
	char *alice = fpr_of("alice");
	double dt;

	bomb("bomb 4 --levels 3 --armor 'PGP SIGNATURE'", &b);
	pgp_ctx_set_limits(ctx, &lim);
	dt = verify_timed(ctx, &b, &res);
	ck_assert_int_eq(res.status, PGP_SIG_ERROR);
	ck_assert_int_eq(res.refused, PGP_REFUSED_SHAPE);
	ck_assert_msg(dt < 0.5, "the pre-scan took %.3f s", dt);
	lim.scan = false;
	pgp_ctx_set_limits(ctx, &lim);
	dt = verify_timed(ctx, &b, &res);
	ck_assert_int_eq(res.status, PGP_SIG_ERROR);
	ck_assert_int_eq(res.refused, PGP_REFUSED_BUDGET);
	ck_assert_ptr_nonnull(strstr(res.why, "budget of 1.000 s"));
	/* 1 s of budget, then the kill: well under the 20 s gpg needs */
	ck_assert_msg(dt >= 0.9 && dt < 6, "stopped after %.2f s", dt);
	fprintf(stderr, "budget: a %zu-byte bomb stopped after %.2f s\n",
		b.len, dt);
	/* the same context goes on */
	ck_assert_int_eq(pgp_sign_detached(ctx, alice, "x", 1, &sig, &err), 0);
	dt = verify_timed(ctx, &sig, &res);
	ck_assert_int_eq(res.status, PGP_SIG_GOOD);
	ck_assert_msg(dt < 1, "the next verify took %.2f s", dt);
	buf_free(&b);
	buf_free(&sig);
	free(alice);
	pgp_ctx_free(&ctx);
}
END_TEST

/* A clearsigned block whose signature is a bomb, and 6,000 signature
 * packets: refused by the scan at once. */
START_TEST(test_scan_clearsigned_and_many)
{
	struct pgp_ctx *ctx = open_home("verifier");
	struct buf b = BUF_INIT, blk = BUF_INIT, text = BUF_INIT;
	struct pgp_sig res;
	const char *err = NULL;
	char path[600], cmd[1400];

	bomb("bomb 4 --levels 3 --armor 'PGP SIGNATURE'", &b);
	buf_puts(&blk, "-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\n"
		 "games\n");
	buf_append(&blk, b.data, b.len);
	ck_assert_int_eq(pgp_verify_clearsigned(ctx, blk.data, blk.len, &res,
						&text, &err), 0);
	ck_assert_int_eq(res.refused, PGP_REFUSED_SHAPE);
	ck_assert_uint_eq(text.len, 0);
	/* one real signature packet, 6,000 times */
	buf_reset(&b);
	snprintf(path, sizeof(path), "%s/one.sig", fixdir);
	snprintf(cmd, sizeof(cmd), "gpg --homedir '%s/signer' --batch "
		 "--quiet --pinentry-mode loopback --passphrase '' "
		 "-u alice@example.org --detach-sign -o '%s' /dev/null",
		 fixdir, path);
	ck_assert_int_eq(system(cmd), 0);
	snprintf(path, sizeof(path), "sigs 6000 '%s/one.sig' --armor "
		 "'PGP SIGNATURE'", fixdir);
	bomb(path, &b);
	ck_assert_int_eq(pgp_verify_detached(ctx, "", 0, b.data, b.len, &res,
					     &err), 0);
	ck_assert_int_eq(res.refused, PGP_REFUSED_SHAPE);
	ck_assert_ptr_nonnull(strstr(res.why, "more than 8 signature packets"));
	buf_free(&b);
	buf_free(&blk);
	buf_free(&text);
	pgp_ctx_free(&ctx);
}
END_TEST

/* The bomb as key data: refused by the scan; with it off, the budget
 * stops the listing or import, and the keyring is unchanged. */
START_TEST(test_budget_import)
{
	struct pgp_limits lim = { 1000, false, false };
	struct pgp_ctx *ctx = open_home("verifier");
	struct pgp_known_import r;
	struct buf b = BUF_INIT;
	const char *err = NULL;
	char **fprs = NULL;
	unsigned int n = 0;
	double t0, dt;

	bomb("bomb 4 --levels 3 --armor 'PGP PUBLIC KEY BLOCK'", &b);
	ck_assert_int_eq(pgp_import_keys(ctx, b.data, b.len, &fprs, &n, &err),
			 -1);
	ck_assert_ptr_nonnull(strstr(err, "compressed data"));
	ck_assert_int_eq(pgp_import_known(ctx, b.data, b.len, &r, &err), -1);
	pgp_ctx_set_limits(ctx, &lim);
	t0 = now_s();
	ck_assert_int_eq(pgp_import_keys(ctx, b.data, b.len, &fprs, &n, &err),
			 -1);
	dt = now_s() - t0;
	ck_assert_msg(dt < 6, "import stopped after %.2f s", dt);
	fprintf(stderr, "budget: key import of the bomb stopped after %.2f s "
		"(%s)\n", dt, err);
	ck_assert_ptr_null(fprs);
	buf_free(&b);
	pgp_ctx_free(&ctx);
}
END_TEST

/* gpg's own revocation file (":-----BEGIN" guarded), pasted in an
 * unsigned mail's second part: found as key material, and it revokes. */
START_TEST(test_guarded_revocation_pasted)
{
	struct inbound_options o = { .our_addrs = ours, .now = time(NULL) };
	struct inbound_msg *msg = NULL;
	struct pgp_known_import r;
	struct buf raw = BUF_INIT;
	const char *err = NULL;
	char home[600];
	char *rev = slurp("late.rev", NULL);
	char *late = fpr_of("late");

	ck_assert_ptr_nonnull(strstr(rev, "\n:-----BEGIN PGP PUBLIC KEY BLOCK"));
	buf_printf(&raw, "From: Late <late@example.org>\r\nTo: ashes@club.example"
		   "\r\nSubject: stolen\r\nMessage-ID: <rev@x>\r\n"
		   "MIME-Version: 1.0\r\nContent-Type: multipart/mixed; "
		   "boundary=\"b\"\r\n\r\n--b\r\nContent-Type: text/plain"
		   "\r\n\r\nmy key was stolen\r\n--b\r\nContent-Type: "
		   "text/plain\r\n\r\n%s\r\n--b--\r\n", rev);
	snprintf(home, sizeof(home), "%s/home-guarded", fixdir);
	fresh_home(home);
	ck_assert_int_eq(pgp_ctx_new(home, &o.pgp, &err), 0);
	{
		char *pub = slurp("late.pub", NULL);
		char **fprs = NULL;
		unsigned int n = 0;

		ck_assert_msg(pgp_import_keys(o.pgp, pub, strlen(pub), &fprs,
					      &n, &err) == 0, "%s", err);
		pgp_fprs_free(&fprs);
		free(pub);
	}
	ck_assert_int_eq(inbound_parse(raw.data, raw.len, &o, &msg, &err), 0);
	ck_assert_int_eq(msg->sig.status, PGP_SIG_NONE);
	ck_assert_uint_eq(msg->key_count, 1);
	ck_assert_msg(pgp_import_known(o.pgp, msg->keys[0].data,
				       msg->keys[0].len, &r, &err) == 0, "%s",
		      err);
	ck_assert_uint_eq(r.revoked_count, 1);
	ck_assert_str_eq(r.revoked[0], late);
	pgp_known_import_free(&r);
	inbound_msg_free(&msg);
	pgp_ctx_free(&o.pgp);
	buf_free(&raw);
	free(rev);
	free(late);
}
END_TEST

void pgp_limits_add_tests(TCase *tc)
{
	tcase_add_test(tc, test_guarded_revocation_pasted);
	tcase_add_test(tc, test_weak_digest);
	tcase_add_test(tc, test_budget_verify);
	tcase_add_test(tc, test_scan_clearsigned_and_many);
	tcase_add_test(tc, test_budget_import);
}
