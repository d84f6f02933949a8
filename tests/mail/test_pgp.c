/* test_pgp.c -- OpenPGP with real gpg: the fixtures (keys, signed mails,
 * one mail signed by mutt's own code) are made at test time by
 * gpg-helper.sh in a temp dir; inbound_parse must give each its status.
 * Signing is tested here too; key imports are in test_pgp_keys.c, in the
 * same program (pgp_fixture.h). */
#include <check.h>
#include <gpgme.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mail/compose.h"
#include "mail/inbound.h"
#include "mail/mime.h"
#include "util/buf.h"

#include "pgp_fixture.h"

char fixdir[] = "/tmp/ashes-pgp-XXXXXX";
static const char *const ours[] = { "ashes@club.example", NULL };

static struct inbound_msg *parse_with(const char *name, struct pgp_ctx *ctx,
				      bool import, long max_age)
{
	struct inbound_options o = {
		.our_addrs = ours, .now = time(NULL), .pgp = ctx,
		.import_keys = import, .max_age = max_age,
	};
	struct inbound_msg *msg = NULL;
	const char *err = NULL;
	size_t len;
	char *raw = slurp(name, &len);

	ck_assert_msg(inbound_parse(raw, len, &o, &msg, &err) == 0, "%s: %s", name, err);
	free(raw);
	ck_assert_int_eq(msg->verdict, CLASSIFY_NORMAL);
	return msg;
}

static struct inbound_msg *parse_fixture(const char *name)
{
	struct pgp_ctx *ctx = open_home("verifier");
	struct inbound_msg *msg = parse_with(name, ctx, false, 0);

	pgp_ctx_free(&ctx);
	ck_assert_ptr_null(ctx);
	return msg;
}

static void assert_status(const struct inbound_msg *m, enum pgp_sig_status st)
{
	ck_assert_msg(m->sig.status == st, "status %s, want %s",
		      pgp_sig_status_name(m->sig.status), pgp_sig_status_name(st));
}

/* The mail's signature counts (or not) for the service; *m is freed. */
static void verdict_is(struct inbound_msg **m, bool ok)
{
	ck_assert_msg(inbound_msg_signature_ok(*m) == ok, "signature %s",
		      ok ? "refused" : "accepted");
	inbound_msg_free(m);
}

START_TEST(test_pgp_mime_good)
{
	struct inbound_msg *m = parse_fixture("pgpmime.eml");
	struct inbound_msg *c = parse_fixture("pgpmime-crlf.eml");
	char *alice = fpr_of("alice");

	assert_status(m, PGP_SIG_GOOD);
	ck_assert_int_eq(m->sig_kind, INBOUND_PGP_MIME);
	ck_assert_str_eq(m->sig.fpr, alice);
	ck_assert_str_eq(m->text, "move 12 a1-b2\n");
	ck_assert(!m->text_outside_signature);
	ck_assert_int_eq(m->freshness, INBOUND_FRESH_OK);
	ck_assert(inbound_msg_signature_ok(m));
	ck_assert(labs((long)(m->sig.created - time(NULL))) < 600);
	ck_assert_uint_eq(strlen(m->signed_sha256), 64);
	/* same signed content whatever the line ends on disk */
	assert_status(c, PGP_SIG_GOOD);
	ck_assert_str_eq(c->signed_sha256, m->signed_sha256);
	ck_assert_str_ne(c->raw_sha256, m->raw_sha256);
	inbound_msg_free(&m);
	inbound_msg_free(&c);
	free(alice);
}
END_TEST

/* The replay key is the signature's, not the words': the same words
 * signed again, or by someone else, are new; the same signature in other
 * bytes (line ends) is the same. */
START_TEST(test_replay_digest)
{
	struct inbound_msg *m = parse_fixture("pgpmime.eml");
	struct inbound_msg *c = parse_fixture("pgpmime-crlf.eml");
	struct inbound_msg *e = parse_fixture("same-text-earlier.eml");
	struct pgp_ctx *ctx = open_home("stranger");
	struct inbound_msg *x = parse_with("same-text-mallory.eml", ctx, false, 0);
	char *mallory = fpr_of("mallory");

	assert_status(e, PGP_SIG_GOOD);
	ck_assert_str_eq(e->text, m->text);
	ck_assert_str_ne(e->signed_sha256, m->signed_sha256);
	assert_status(x, PGP_SIG_GOOD);
	ck_assert_str_eq(x->sig.fpr, mallory);
	ck_assert_str_eq(x->text, m->text);
	ck_assert_str_ne(x->signed_sha256, m->signed_sha256);
	ck_assert_str_eq(c->signed_sha256, m->signed_sha256);
	inbound_msg_free(&m);
	inbound_msg_free(&c);
	inbound_msg_free(&e);
	inbound_msg_free(&x);
	pgp_ctx_free(&ctx);
	free(mallory);
}
END_TEST

/* The outside test's bypass: the same clearsigned block with an empty
 * line written "- " (dash-escaped) and trailing blanks added verifies with
 * gpg, and must get the same replay key: it is the same signature. */
START_TEST(test_replay_digest_dash_escaped)
{
	struct inbound_msg *m = parse_fixture("replay-blank.eml");
	struct inbound_msg *d = parse_fixture("replay-dash.eml");

	assert_status(m, PGP_SIG_GOOD);
	assert_status(d, PGP_SIG_GOOD);
	ck_assert_int_eq(d->sig_kind, INBOUND_CLEARSIGNED);
	ck_assert_str_ne(d->raw_sha256, m->raw_sha256);
	ck_assert_str_eq(d->signed_sha256, m->signed_sha256);
	inbound_msg_free(&m);
	inbound_msg_free(&d);
}
END_TEST

/* Signatures that do not hold, each with its status: never taken. */
static const struct {
	const char *file;
	enum pgp_sig_status status;
} not_ok[] = {
	{ "tampered.eml", PGP_SIG_BAD },
	{ "revoked-key.eml", PGP_SIG_KEY_REVOKED },
	{ "sig-expired.eml", PGP_SIG_SIG_EXPIRED },
	{ "bad-sigdata.eml", PGP_SIG_ERROR },
};

START_TEST(test_signature_not_ok)
{
	struct inbound_msg *m = parse_fixture(not_ok[_i].file);

	assert_status(m, not_ok[_i].status);
	verdict_is(&m, false);
}
END_TEST

START_TEST(test_clearsigned)
{
	struct inbound_msg *m = parse_fixture("clearsigned.eml");
	char *alice = fpr_of("alice");

	assert_status(m, PGP_SIG_GOOD);
	ck_assert_int_eq(m->sig_kind, INBOUND_CLEARSIGNED);
	ck_assert_str_eq(m->sig.fpr, alice);
	ck_assert_str_eq(m->text, "move 12 a1-b2\n");
	ck_assert(!m->text_outside_signature);
	verdict_is(&m, true);
	free(alice);
}
END_TEST

START_TEST(test_clearsigned_latin1_qp)
{
	struct inbound_msg *m = parse_fixture("latin1-clearsigned.eml");

	assert_status(m, PGP_SIG_GOOD);
	ck_assert_int_eq(m->sig_kind, INBOUND_CLEARSIGNED);
	ck_assert_str_eq(m->text, "register Ren\xc3\xa9 M\xc3\xbcller\n");
	inbound_msg_free(&m);
}
END_TEST

START_TEST(test_text_outside_signature)
{
	struct inbound_msg *m = parse_fixture("outside.eml");
	struct inbound_msg *f = parse_fixture("footer.eml");

	assert_status(m, PGP_SIG_GOOD);
	ck_assert(m->text_outside_signature);
	ck_assert_str_eq(m->text, "move 12 a1-b2\n");
	ck_assert_ptr_null(strstr(m->text, "resign"));
	assert_status(f, PGP_SIG_GOOD);
	ck_assert(f->text_outside_signature);
	ck_assert_str_eq(f->text, "move 12 a1-b2\n");
	inbound_msg_free(&m);
	inbound_msg_free(&f);
}
END_TEST

START_TEST(test_unsigned_with_gpg)
{
	struct pgp_ctx *ctx = open_home("verifier");
	struct inbound_options o = { .our_addrs = ours, .now = time(NULL), .pgp = ctx };
	static const char raw[] = "From: a@example.org\nSubject: x\n\nmove 1 a1-a2\n";
	struct inbound_msg *m = NULL;
	const char *err;

	ck_assert_int_eq(inbound_parse(raw, sizeof(raw) - 1, &o, &m, &err), 0);
	assert_status(m, PGP_SIG_NONE);
	ck_assert_int_eq(m->sig_kind, INBOUND_UNSIGNED);
	verdict_is(&m, false);
	pgp_ctx_free(&ctx);
}
END_TEST

START_TEST(test_unknown_key)
{
	struct inbound_msg *m = parse_fixture("unknown.eml");
	char *mallory = fpr_of("mallory");

	assert_status(m, PGP_SIG_UNKNOWN_KEY);
	/* the issuer as the signature names it */
	ck_assert_ptr_nonnull(strstr(mallory, m->sig.fpr));
	verdict_is(&m, false);
	free(mallory);
}
END_TEST

START_TEST(test_register_attached_key)
{
	char home[512];
	struct pgp_ctx *ctx;
	struct inbound_msg *m;
	char *mallory = fpr_of("mallory");

	/* without import: unknown key, the key is reported */
	m = parse_fixture("register-attached.eml");
	assert_status(m, PGP_SIG_UNKNOWN_KEY);
	ck_assert_uint_eq(m->key_count, 1);
	ck_assert(m->keys[0].attached);
	ck_assert_str_eq(m->text, "register Mallory\n");
	inbound_msg_free(&m);

	snprintf(home, sizeof(home), "%s/home-attached", fixdir);
	fresh_home(home);
	ck_assert_int_eq(pgp_ctx_new(home, &ctx, &(const char *){ NULL }), 0);
	m = parse_with("register-attached.eml", ctx, true, 0);
	assert_status(m, PGP_SIG_GOOD);
	ck_assert_str_eq(m->sig.fpr, mallory);
	ck_assert_uint_eq(m->imported_fprs.count, 1);
	ck_assert_str_eq(m->imported_fprs.items[0], mallory);
	inbound_msg_free(&m);
	pgp_ctx_free(&ctx);
	free(mallory);
}
END_TEST

START_TEST(test_register_pasted_key)
{
	char home[512];
	struct pgp_ctx *ctx;
	struct inbound_msg *m;
	char *mallory = fpr_of("mallory");

	snprintf(home, sizeof(home), "%s/home-pasted", fixdir);
	fresh_home(home);
	ck_assert_int_eq(pgp_ctx_new(home, &ctx, &(const char *){ NULL }), 0);
	m = parse_with("register-pasted.eml", ctx, true, 0);
	assert_status(m, PGP_SIG_GOOD);
	ck_assert_int_eq(m->sig_kind, INBOUND_CLEARSIGNED);
	ck_assert_str_eq(m->sig.fpr, mallory);
	ck_assert_uint_eq(m->key_count, 1);
	ck_assert(!m->keys[0].attached);
	ck_assert_uint_eq(m->imported_fprs.count, 1);
	ck_assert(strncmp(m->text, "register Mallory\n", 17) == 0);
	inbound_msg_free(&m);
	pgp_ctx_free(&ctx);
	free(mallory);
}
END_TEST

START_TEST(test_expired_key)
{
	struct inbound_msg *m = parse_fixture("expired-key.eml");
	char *old = fpr_of("old");

	assert_status(m, PGP_SIG_KEY_EXPIRED);
	ck_assert_str_eq(m->sig.fpr, old);
	ck_assert(m->sig.summary & GPGME_SIGSUM_KEY_EXPIRED);
	verdict_is(&m, false);
	free(old);
}
END_TEST

/* The fixture name, read with ctx and a freshness window of max_age
 * (0: the default), is well signed, of freshness fresh, and counts or
 * not as ok says. */
static void fresh_is(const char *name, struct pgp_ctx *ctx, long max_age,
		     enum inbound_freshness fresh, bool ok)
{
	struct inbound_msg *m = parse_with(name, ctx, false, max_age);

	assert_status(m, PGP_SIG_GOOD);
	ck_assert_int_eq(m->freshness, fresh);
	verdict_is(&m, ok);
}

START_TEST(test_too_old_and_future)
{
	struct pgp_ctx *ctx = open_home("verifier");

	fresh_is("too-old.eml", ctx, 0, INBOUND_FRESH_TOO_OLD, false);
	/* the window is the caller's */
	fresh_is("too-old.eml", ctx, 30L * 86400, INBOUND_FRESH_OK, true);
	fresh_is("future.eml", ctx, 0, INBOUND_FRESH_FUTURE, false);
	pgp_ctx_free(&ctx);
}
END_TEST

START_TEST(test_thunderbird_style)
{
	struct inbound_msg *m = parse_fixture("thunderbird.eml");
	char *alice = fpr_of("alice");

	assert_status(m, PGP_SIG_GOOD);
	ck_assert_str_eq(m->sig.fpr, alice);
	/* format=flowed: the trailing space is a soft break (RFC 3676),
	 * joined as Thunderbird itself shows the text */
	ck_assert_str_eq(m->text, "move 12 a1-b2 thanks \xe2\x80\x94 Alice\n");
	ck_assert_uint_eq(m->key_count, 1);
	ck_assert(m->keys[0].attached);
	inbound_msg_free(&m);
	free(alice);
}
END_TEST

START_TEST(test_mutt_signed)
{
	struct inbound_msg *m;
	char path[512];
	char *alice;

	snprintf(path, sizeof(path), "%s/mutt.eml", fixdir);
	if (access(path, R_OK) != 0)
		ck_abort_msg("mutt did not produce a signed mail; see %s/mutt.log", fixdir);
	m = parse_fixture("mutt.eml");
	alice = fpr_of("alice");
	ck_assert_int_eq(m->sig_kind, INBOUND_PGP_MIME);
	assert_status(m, PGP_SIG_GOOD);
	ck_assert_str_eq(m->sig.fpr, alice);
	ck_assert_str_eq(m->text, "move 12 a1-b2\n");
	ck_assert_str_eq(m->subject, "game 7");
	inbound_msg_free(&m);
	free(alice);
}
END_TEST

/* A stored mail reduced to its proof (pgp_reduce_mail): PGP/MIME as
 * gpg, Thunderbird and mutt write it, clearsigned in UTF-8 and Latin-1,
 * a key attached inside the signature; the thread lines on top. */
START_TEST(test_reduce_signed)
{
	static const struct {
		const char *file;
		enum pgp_reduced_kind kind;
	} shapes[] = {
		{ "pgpmime.eml", PGP_REDUCED_MIME },
		{ "pgpmime-crlf.eml", PGP_REDUCED_MIME },
		{ "thunderbird.eml", PGP_REDUCED_MIME },
		{ "register-attached.eml", PGP_REDUCED_MIME },
		{ "footer.eml", PGP_REDUCED_MIME },
		{ "clearsigned.eml", PGP_REDUCED_CLEAR },
		{ "latin1-clearsigned.eml", PGP_REDUCED_CLEAR },
		{ "register-pasted.eml", PGP_REDUCED_CLEAR },
		{ "mutt.eml", PGP_REDUCED_MIME },
	};
	struct pgp_ctx *ctx = open_home("verifier");
	char path[512];

	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", fixdir, shapes[i].file);
		if (access(path, R_OK) != 0 &&
		    strcmp(shapes[i].file, "mutt.eml") == 0)
			ck_abort_msg("mutt did not produce a signed mail; see "
				     "%s/mutt.log", fixdir);
		ck_assert_int_eq(reduce_check(ctx, shapes[i].file, i % 2 ?
					      "Subject: [ashes #12]\r\n" :
					      NULL), shapes[i].kind);
	}
	pgp_ctx_free(&ctx);
}
END_TEST

/* What it cannot read within the MIME limits, or that holds nothing
 * signed, is refused and nothing is appended. */
START_TEST(test_reduce_refused)
{
	struct buf deep = BUF_INIT, out = BUF_INIT;
	enum pgp_reduced_kind kind;
	const char *err = NULL;
	static const char plain[] = "From: a@b\r\nSubject: x\r\n\r\nhelp\r\n";

	buf_puts(&deep, "From: a@b\r\nMIME-Version: 1.0\r\n");
	for (int i = 0; i <= MIME_MAX_DEPTH; i++)
		buf_printf(&deep, "Content-Type: multipart/mixed;\r\n "
			   "boundary=\"b%dZ\"\r\n\r\npreamble\r\n--b%dZ\r\n",
			   i, i);
	buf_puts(&deep, "Content-Type: text/plain\r\n\r\nhi\r\n");
	for (int i = MIME_MAX_DEPTH; i >= 0; i--)
		buf_printf(&deep, "--b%dZ--\r\n", i);
	ck_assert_int_eq(pgp_reduce_mail(deep.data, deep.len, NULL, "x", &out,
					 &kind, &err), -1);
	ck_assert_ptr_nonnull(err);
	ck_assert_uint_eq(out.len, 0);
	err = NULL;
	ck_assert_int_eq(pgp_reduce_mail(plain, strlen(plain), NULL, NULL,
					 &out, &kind, &err), -1);
	ck_assert_ptr_nonnull(strstr(err, "nothing signed"));
	ck_assert_uint_eq(out.len, 0);
	/* with the text as read: that alone, without a header */
	ck_assert_int_eq(pgp_reduce_mail(plain, strlen(plain), NULL, "help\n",
					 &out, &kind, &err), 0);
	ck_assert_int_eq(kind, PGP_REDUCED_TEXT);
	ck_assert_ptr_null(strstr(out.data, "From:"));
	ck_assert_ptr_nonnull(strstr(out.data, "\r\n\r\nhelp\r\n"));
	buf_free(&deep);
	buf_free(&out);
}
END_TEST

/* pgp.c on its own: sign with the library, verify with the library and
 * with gpg itself; PGP/MIME made by pgp_mime_sign goes through inbound. */
START_TEST(test_sign_and_pgp_mime)
{
	struct pgp_ctx *ctx = open_home("signer");
	struct buf sig = BUF_INIT, mail = BUF_INIT;
	struct pgp_sig res;
	struct inbound_options o = { .our_addrs = ours, .now = time(NULL), .pgp = ctx };
	struct inbound_msg *m = NULL;
	const char *err = NULL;
	char *alice2 = fpr_of("alice2");
	static const char data[] = "hello\r\n";
	static const char part[] = "Content-Type: text/plain; charset=utf-8\n\nshow 7\n";

	ck_assert_msg(pgp_sign_detached(ctx, alice2, data, 7, &sig, &err) == 0, "%s", err);
	ck_assert_ptr_nonnull(strstr(buf_str(&sig), "-----BEGIN PGP SIGNATURE-----"));
	ck_assert_int_eq(pgp_verify_detached(ctx, data, 7, sig.data, sig.len, &res, &err), 0);
	ck_assert_int_eq(res.status, PGP_SIG_GOOD);
	/* made by alice2's signing subkey, reported as alice2 */
	ck_assert_str_eq(res.fpr, alice2);
	ck_assert_str_ne(res.signing_fpr, alice2);
	ck_assert_uint_eq(strlen(res.signing_fpr), 40);
	ck_assert_int_eq(pgp_verify_detached(ctx, "hellO\r\n", 7, sig.data, sig.len, &res, &err), 0);
	ck_assert_int_eq(res.status, PGP_SIG_BAD);
	/* no key named: gpg's default (first) secret key signs */
	buf_reset(&sig);
	ck_assert_msg(pgp_sign_detached(ctx, NULL, data, 7, &sig, &err) == 0, "%s", err);
	ck_assert_int_eq(pgp_verify_detached(ctx, data, 7, sig.data, sig.len, &res, &err), 0);
	ck_assert_int_eq(res.status, PGP_SIG_GOOD);
	buf_reset(&sig);

	buf_puts(&mail, "From: Club <ashes@club.example>\r\nTo: a@example.org\r\n"
		 "Subject: signed reply\r\nMIME-Version: 1.0\r\n");
	ck_assert_msg(pgp_mime_sign(ctx, alice2, part, strlen(part), &mail, &err) == 0, "%s", err);
	ck_assert_ptr_nonnull(strstr(buf_str(&mail), "micalg=pgp-sha"));
	/* our own mail would be filtered as from-self: parse without ours */
	o.our_addrs = NULL;
	ck_assert_int_eq(inbound_parse(mail.data, mail.len, &o, &m, &err), 0);
	assert_status(m, PGP_SIG_GOOD);
	ck_assert_str_eq(m->sig.fpr, alice2);
	ck_assert_str_eq(m->text, "show 7\n");
	inbound_msg_free(&m);
	buf_free(&sig);
	buf_free(&mail);
	pgp_ctx_free(&ctx);
	free(alice2);
}
END_TEST

/* The daemon's signed replies: compose.c's wrapper with our signer, read
 * back by inbound as a player's client would check it. */
START_TEST(test_compose_signed_reply)
{
	struct pgp_ctx *ctx = open_home("signer");
	char *alice2 = fpr_of("alice2");
	struct pgp_signer signer = { .ctx = ctx, .fpr = alice2 };
	compose_sign_fn *fn = pgp_compose_sign;
	struct compose_msg cm = {
		.from_address = "ashes@club.example", .from_name = "Ashes club",
		.to = "bob@example.org",
		.subject = "game 7: your move", .message_id = "r1@club.example",
		.auto_reply = true, .date = time(NULL),
		.text = "Bob, it is your move.\nPlay: move 13 ...\n",
	};
	struct inbound_options o = { .now = time(NULL), .pgp = ctx };
	struct inbound_msg *m = NULL;
	struct buf out = BUF_INIT;
	const char *err = NULL;

	ck_assert_msg(compose_message(&cm, fn, &signer, &out, &err) == 0, "%s", err);
	ck_assert_int_eq(inbound_parse(out.data, out.len, &o, &m, &err), 0);
	/* an auto-reply: filtered, as a loop guard should */
	ck_assert_int_eq(m->verdict, CLASSIFY_AUTO_SUBMITTED);
	inbound_msg_free(&m);
	/* without that header (not signed: the signature still holds) */
	{
		static const char h[] = "Auto-Submitted: auto-replied\r\n";
		char *p = strstr(out.data, h);

		ck_assert_ptr_nonnull(p);
		memmove(p, p + strlen(h), out.len - (size_t)(p - out.data) -
			strlen(h) + 1);
		out.len -= strlen(h);
	}
	ck_assert_int_eq(inbound_parse(out.data, out.len, &o, &m, &err), 0);
	assert_status(m, PGP_SIG_GOOD);
	ck_assert_str_eq(m->sig.fpr, alice2);
	ck_assert_str_eq(m->text, "Bob, it is your move.\nPlay: move 13 ...\n");
	inbound_msg_free(&m);
	buf_free(&out);
	free(alice2);
	pgp_ctx_free(&ctx);
}
END_TEST

START_TEST(test_time_verify)
{
	struct pgp_ctx *ctx = open_home("signer");
	struct buf sig = BUF_INIT;
	const char *err = NULL;
	char *alice = fpr_of("alice");
	double median = -1;

	ck_assert_int_eq(pgp_sign_detached(ctx, alice, "x", 1, &sig, &err), 0);
	ck_assert_msg(pgp_time_verify(ctx, "x", 1, sig.data, sig.len, 5, &median, &err) == 0,
		      "%s", err);
	ck_assert(median > 0 && median < 5);
	ck_assert_int_eq(pgp_time_verify(ctx, "y", 1, sig.data, sig.len, 3, &median, &err), -1);
	buf_free(&sig);
	free(alice);
	pgp_ctx_free(&ctx);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("pgp");
	TCase *tc;

	tc = suite_add_tests(s, "gpg", NULL, NULL, 0,
		TESTS(test_pgp_mime_good, test_replay_digest,
		test_replay_digest_dash_escaped, test_clearsigned,
		test_clearsigned_latin1_qp, test_text_outside_signature,
		test_unsigned_with_gpg, test_unknown_key,
		test_register_attached_key, test_register_pasted_key,
		test_expired_key, test_too_old_and_future,
		test_thunderbird_style, test_mutt_signed,
		test_sign_and_pgp_mime, test_compose_signed_reply));
	tcase_add_loop_test(tc, test_signature_not_ok, 0,
			    (int)(sizeof(not_ok) / sizeof(not_ok[0])));
	pgp_keys_add_tests(tc);
	pgp_limits_add_tests(tc);
	tcase_add_test(tc, test_time_verify);
	tcase_add_test(tc, test_reduce_signed);
	tcase_add_test(tc, test_reduce_refused);
	return pgp_fixture_run(s, "test_pgp", "gpg-helper.sh", false);
}
