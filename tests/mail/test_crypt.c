/* test_crypt.c -- what mail clients do with OpenPGP beyond signing: the
 * Autocrypt header (autocrypt.h), the pre-scan of an encrypted message,
 * and encrypted mail through inbound_parse (decrypted with the club's
 * key, under the budget and an output cap).  The keys and mails are made
 * by crypt-helper.sh in a temp dir. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mail/autocrypt.h"
#include "mail/inbound.h"
#include "mail/pgp.h"
#include "mail/pgp_scan.h"
#include "util/buf.h"

#include "pgp_fixture.h"

char fixdir[] = "/tmp/ashes-crypt-XXXXXX";

/* ---- the Autocrypt header ---- */

/* "hello world!" in base64 is aGVsbG8gd29ybGQh */
START_TEST(test_autocrypt_parse)
{
	struct autocrypt ac;
	char why[200];
	static const char folded[] =
		" addr=alice@example.org; prefer-encrypt=mutual;\r\n"
		" _comment=whatever; keydata=\r\n aGVsbG8g\r\n\td29y\r\n bGQh";

	ck_assert_int_eq(autocrypt_parse(folded, strlen(folded), &ac, why,
					 sizeof(why)), 0);
	ck_assert_str_eq(ac.addr, "alice@example.org");
	ck_assert(ac.prefer_mutual);
	ck_assert_uint_eq(ac.keydata.len, 12);
	ck_assert(memcmp(ac.keydata.data, "hello world!", 12) == 0);
	autocrypt_free(&ac);
	/* no prefer-encrypt, padding */
	ck_assert_int_eq(autocrypt_parse("addr=a@b; keydata=aGk=", 22, &ac, why,
					 sizeof(why)), 0);
	ck_assert(!ac.prefer_mutual);
	ck_assert_uint_eq(ac.keydata.len, 2);
	autocrypt_free(&ac);
}
END_TEST

START_TEST(test_autocrypt_refused)
{
	static const char *bad[] = {
		"addr=a@b; keydata=aGVsbG8*gd29y",	/* not base64 */
		"addr=a@b; keydata=aGVsb",		/* cut short */
		"addr=a@b; keydata=aG=Vs",		/* data after padding */
		"addr=a@b; color=red; keydata=aGk=",	/* critical, unknown */
		"keydata=aGk=",				/* no addr */
		"addr=a@b",				/* no keydata */
		"addr=a@b; addr=c@d; keydata=aGk=",	/* repeated */
		"addr=a@b; junk; keydata=aGk=",		/* no value */
	};
	struct autocrypt ac;
	struct buf big = BUF_INIT;
	char why[200];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = '\0';
		ck_assert_msg(autocrypt_parse(bad[i], strlen(bad[i]), &ac, why,
					      sizeof(why)) == -1, "%s", bad[i]);
		ck_assert(why[0] != '\0');
		ck_assert_ptr_null(ac.keydata.data);
	}
	/* a key over PGP_KEY_MAX_BYTES: refused while it is decoded */
	buf_puts(&big, "addr=a@b; keydata=");
	for (i = 0; i < PGP_KEY_MAX_BYTES / 3 + 100; i++)
		buf_puts(&big, i % 19 == 0 ? "AAAA\r\n " : "AAAA");
	ck_assert_int_eq(autocrypt_parse(big.data, big.len, &ac, why,
					 sizeof(why)), -1);
	ck_assert_msg(strstr(why, "over the limit") != NULL, "%s", why);
	/* and a header far beyond any key is not even looked at */
	for (i = 0; i < PGP_KEY_MAX_BYTES; i++)
		buf_puts(&big, "AAAA");
	ck_assert_int_eq(autocrypt_parse(big.data, big.len, &ac, why,
					 sizeof(why)), -1);
	ck_assert_msg(strstr(why, "bytes, over the limit") != NULL, "%s", why);
	buf_free(&big);
}
END_TEST

START_TEST(test_autocrypt_find)
{
	static const char hdrs[] =
		"From: Alice <alice@example.org>\r\n"
		"Autocrypt: addr=bob@example.org; keydata=Ym9i\r\n"
		"Subject: x\r\n"
		"autocrypt: addr=Alice@Example.ORG;\r\n keydata=aGVs\r\n bG8=\r\n"
		"\r\n"
		"Autocrypt: addr=alice@example.org; keydata=Ym9keQ==\r\n";
	static const char two[] =
		"Autocrypt: addr=a@b; keydata=aGk=\r\n"
		"Autocrypt: addr=a@b; keydata=aGk=\r\n\r\n";
	static const char broken_other[] =
		"Autocrypt: addr=c@d; keydata=!!\r\n"
		"Autocrypt: addr=a@b; keydata=aGk=\r\n\r\n";
	struct buf key = BUF_INIT, out = BUF_INIT;
	struct autocrypt ac;
	char why[200];

	ck_assert_int_eq(autocrypt_find(hdrs, strlen(hdrs), "alice@example.org",
					&key, why, sizeof(why)), 1);
	ck_assert_str_eq(buf_str(&key), "hello");	/* not the body's */
	buf_reset(&key);
	ck_assert_int_eq(autocrypt_find(hdrs, strlen(hdrs), "carol@example.org",
					&key, why, sizeof(why)), 0);
	ck_assert_int_eq(autocrypt_find(two, strlen(two), "a@b", &key, why,
					sizeof(why)), -1);
	ck_assert_uint_eq(key.len, 0);
	ck_assert_int_eq(autocrypt_find(broken_other, strlen(broken_other),
					"a@b", &key, why, sizeof(why)), 1);
	buf_free(&key);
	/* what the club writes, read back */
	autocrypt_format("club@example.org", "0123456789abcdef0123456789abcdef"
			 "0123456789abcdef0123456789abcdef", 64, &out);
	ck_assert(strncmp(out.data, "Autocrypt: addr=club@example.org; "
			  "keydata=\r\n ", 45) == 0);
	ck_assert(strstr(out.data, "prefer-encrypt") == NULL);
	for (const char *l = out.data; *l; l = strstr(l, "\r\n") + 2)
		ck_assert(strstr(l, "\r\n") - l <= 78);
	ck_assert_int_eq(autocrypt_parse(out.data + 11, out.len - 11, &ac, why,
					 sizeof(why)), 0);
	ck_assert_uint_eq(ac.keydata.len, 64);
	ck_assert(memcmp(ac.keydata.data, "0123456789abcdef", 16) == 0);
	autocrypt_free(&ac);
	buf_free(&out);
}
END_TEST

/* ---- encrypted mail ---- */

START_TEST(test_scan_encrypted)
{
	size_t len;
	char *bomb = slurp("bomb.gpg", &len), *sig = slurp("alice.pub", NULL);
	char why[200];

	ck_assert_msg(pgp_scan(bomb, len, PGP_SCAN_ENCRYPTED, why,
			       sizeof(why)) == 0, "%s", why);
	/* key data is not an encrypted message */
	ck_assert_int_eq(pgp_scan(sig, 226, PGP_SCAN_ENCRYPTED, why,
				  sizeof(why)), -1);
	/* a bare compressed packet (what is inside) is refused outright */
	ck_assert_int_eq(pgp_scan("\xc8\x03\x01xx", 5, PGP_SCAN_ENCRYPTED, why,
				  sizeof(why)), -1);
	ck_assert_msg(strstr(why, "compressed") != NULL, "%s", why);
	/* data without integrity protection (tag 9) is refused */
	ck_assert_int_eq(pgp_scan("\xc9\x03xyz", 5, PGP_SCAN_ENCRYPTED, why,
				  sizeof(why)), -1);
	free(bomb);
	free(sig);
}
END_TEST

static struct inbound_msg *parse(struct pgp_ctx *ctx, const char *name,
				 bool import)
{
	struct inbound_options o;
	struct inbound_msg *m = NULL;
	const char *err = NULL;
	size_t len;
	char *raw = slurp(name, &len);

	memset(&o, 0, sizeof(o));
	o.now = time(NULL);
	o.pgp = ctx;
	o.import_keys = import;
	ck_assert_msg(inbound_parse(raw, len, &o, &m, &err) == 0, "%s", err);
	free(raw);
	return m;
}

START_TEST(test_decrypt_shapes)
{
	static const struct {
		const char *file;
		enum inbound_sig_kind kind;
	} shapes[] = {
		/* Thunderbird's default: signed and encrypted at once */
		{ "tb.eml", INBOUND_ENCRYPTED_SIGNED },
		{ "tb2.eml", INBOUND_PGP_MIME },	/* multipart/signed inside */
		{ "dc.eml", INBOUND_ENCRYPTED_SIGNED },	/* one pass */
		{ "inline.eml", INBOUND_ENCRYPTED_SIGNED },
	};
	struct pgp_ctx *club = open_home("club");
	char *alice = fpr_of("alice");
	size_t i;

	for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		struct inbound_msg *m = parse(club, shapes[i].file, false);
		struct inbound_msg *again = parse(club, shapes[i].file, false);

		ck_assert_msg(m->problem == INBOUND_OK, "%s: %s", shapes[i].file,
			      m->problem_detail);
		ck_assert(m->decrypted);
		ck_assert_int_eq(m->sig_kind, shapes[i].kind);
		ck_assert_msg(m->sig.status == PGP_SIG_GOOD, "%s: %s",
			      shapes[i].file, pgp_sig_status_name(m->sig.status));
		ck_assert_str_eq(m->sig.fpr, alice);
		ck_assert_str_eq(m->text, "move e2e4\n");
		ck_assert(!m->text_outside_signature);
		ck_assert(inbound_msg_signature_ok(m));
		/* the same mail again is the same signature */
		ck_assert(m->signed_sha256[0] != '\0');
		ck_assert_str_eq(m->signed_sha256, again->signed_sha256);
		/* the Autocrypt header's key: carried, never inside */
		if (i < 2) {
			ck_assert_uint_eq(m->key_count, 1);
			ck_assert(!m->keys[0].in_signed);
		}
		inbound_msg_free(&m);
		inbound_msg_free(&again);
	}
	free(alice);
	pgp_ctx_free(&club);
}
END_TEST

START_TEST(test_decrypt_not_ours)
{
	struct pgp_ctx *club = open_home("club");
	struct inbound_msg *m = parse(club, "other.eml", false);

	ck_assert_int_eq(m->problem, INBOUND_ENCRYPTED);
	ck_assert_msg(strstr(m->problem_detail, "not encrypted to a key of this "
			     "club") != NULL, "%s", m->problem_detail);
	ck_assert_ptr_null(m->text);
	inbound_msg_free(&m);
	pgp_ctx_free(&club);
}
END_TEST

/* Run fn (pgp_decrypt_verify or pgp_verify_message) over the len bytes
 * of data with the output cap max_out: it must succeed yet refuse the
 * content, within secs seconds, the output left empty; d gets the
 * result. */
static void refused_in_time(int (*fn)(struct pgp_ctx *, const void *, size_t,
				      size_t, struct buf *,
				      struct pgp_decrypted *, const char **),
			    struct pgp_ctx *ctx, const char *data, size_t len,
			    size_t max_out, double secs, const char *what,
			    struct pgp_decrypted *d)
{
	struct buf out = BUF_INIT;
	const char *err = NULL;
	double t0 = now_s(), t;

	ck_assert_msg(fn(ctx, data, len, max_out, &out, d, &err) == 0, "%s",
		      err);
	t = now_s() - t0;
	fprintf(stderr, "%s: %.2f s: %s\n", what, t, d->why);
	ck_assert_int_eq(d->status, PGP_DECRYPT_REFUSED);
	ck_assert_uint_eq(out.len, 0);
	ck_assert(t < secs);
	buf_free(&out);
}

/* Nested compressed packets of 4 GiB of zeros inside the encryption:
 * the pre-scan cannot see them; the output cap stops gpg, or the
 * budget does when the cap is far away. */
START_TEST(test_decrypt_bomb)
{
	struct pgp_ctx *club = open_home("club");
	struct pgp_limits lim = { 1500, false, true };
	struct pgp_decrypted d;
	size_t len;
	char *bomb = slurp("bomb.gpg", &len);

	refused_in_time(pgp_decrypt_verify, club, bomb, len, 1024 * 1024, 30,
			"bomb, 1 MiB cap", &d);
	pgp_ctx_set_limits(club, &lim);
	refused_in_time(pgp_decrypt_verify, club, bomb, len, (size_t)1 << 40,
			20, "bomb, 1.5 s budget", &d);
	ck_assert_msg(strstr(d.why, "budget") != NULL, "%s", d.why);
	/* the same bomb as a signed message (what the archive's form of a
	 * one-pass mail holds, which anybody can send): the cap stops it */
	free(bomb);
	bomb = slurp("bomb.bin", &len);
	refused_in_time(pgp_verify_message, club, bomb, len, 1024 * 1024, 30,
			"bomb as a signed message, 1 MiB cap", &d);
	free(bomb);
	pgp_ctx_free(&club);
}
END_TEST

/* A key only in the Autocrypt header registers (the mail is signed by
 * it), but is marked outside the signature: never a key binding. */
START_TEST(test_autocrypt_register)
{
	struct pgp_ctx *other = open_home("other");
	struct inbound_msg *m = parse(other, "autocrypt.eml", false);
	char *alice = fpr_of("alice");

	ck_assert_int_eq(m->sig.status, PGP_SIG_UNKNOWN_KEY);
	ck_assert_uint_eq(m->key_count, 1);
	ck_assert(m->keys[0].attached);
	ck_assert(!m->keys[0].in_signed);
	inbound_msg_free(&m);
	m = parse(other, "autocrypt.eml", true);
	ck_assert_int_eq(m->sig.status, PGP_SIG_GOOD);
	ck_assert_uint_eq(m->imported_fprs.count, 1);
	ck_assert_str_eq(m->imported_fprs.items[0], alice);
	ck_assert_str_eq(m->text, "move e2e4\n");
	inbound_msg_free(&m);
	free(alice);
	pgp_ctx_free(&other);
}
END_TEST

/* The archive's form of each encrypted mail: checked by a keyring with
 * no secret key of the club's (alice's own), it reads as the mail did,
 * same signer, text and replay digest. */
START_TEST(test_archive_form)
{
	static const struct {
		const char *file;
		enum pgp_signed_kind kind;
	} shapes[] = {
		{ "tb.eml", PGP_SIGNED_MESSAGE },
		{ "tb2.eml", PGP_SIGNED_MIME },
		{ "dc.eml", PGP_SIGNED_MESSAGE },
		{ "inline.eml", PGP_SIGNED_MESSAGE },
	};
	struct pgp_ctx *club = open_home("club"), *anyone = open_home("alice");
	size_t i;

	for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		struct inbound_msg *m = parse(club, shapes[i].file, false), *f;
		struct inbound_options o;
		struct buf form = BUF_INIT, sp = BUF_INIT, sig = BUF_INIT;
		enum pgp_signed_kind kind;
		const char *err = NULL;
		size_t len;
		char *raw = slurp(shapes[i].file, &len);

		ck_assert_msg(inbound_archive_form(club, raw, len, 1 << 20, &form,
						   &err) == 1, "%s: %s",
			      shapes[i].file, err);
		ck_assert(strstr(form.data, "BEGIN PGP MESSAGE") == NULL ||
			  shapes[i].kind == PGP_SIGNED_MESSAGE);
		ck_assert_int_eq(pgp_export_signed(form.data, form.len, &kind, &sp,
						   &sig, &err), 0);
		ck_assert_int_eq(kind, shapes[i].kind);
		memset(&o, 0, sizeof(o));
		o.now = time(NULL);
		o.pgp = anyone;
		ck_assert(inbound_parse(form.data, form.len, &o, &f, &err) == 0);
		ck_assert_msg(f->sig.status == PGP_SIG_GOOD, "%s: %s %s",
			      shapes[i].file, pgp_sig_status_name(f->sig.status),
			      f->problem_detail ? f->problem_detail : "");
		ck_assert_str_eq(f->sig.fpr, m->sig.fpr);
		ck_assert_str_eq(f->text, m->text);
		ck_assert_str_eq(f->signed_sha256, m->signed_sha256);
		/* and the form is its own form */
		buf_reset(&sig);
		ck_assert_int_eq(inbound_archive_form(club, form.data, form.len,
						      1 << 20, &sig, &err), 0);
		inbound_msg_free(&f);
		inbound_msg_free(&m);
		buf_free(&form);
		buf_free(&sp);
		buf_free(&sig);
		free(raw);
	}
	pgp_ctx_free(&club);
	pgp_ctx_free(&anyone);
}
END_TEST

/* A signed and encrypted mail reduced (pgp_reduce_mail): the encrypted
 * message as it came, which the club's key still opens to the same
 * signature and text; and its archive form the same signed bytes.  With
 * the Autocrypt-only PGP/MIME of Thunderbird for Android (K-9) and
 * GpgOL's attached key. */
START_TEST(test_reduce_encrypted)
{
	static const struct {
		const char *file;
		enum pgp_reduced_kind kind;
	} shapes[] = {
		{ "tb.eml", PGP_REDUCED_ENCRYPTED },
		{ "tb2.eml", PGP_REDUCED_ENCRYPTED },
		{ "dc.eml", PGP_REDUCED_ENCRYPTED },
		{ "inline.eml", PGP_REDUCED_ENCRYPTED },
		{ "autocrypt.eml", PGP_REDUCED_MIME },
		{ "outlook-sub.eml", PGP_REDUCED_MIME },
	};
	struct pgp_ctx *club = open_home("club");

	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		struct buf out = BUF_INIT, f1 = BUF_INIT, f2 = BUF_INIT;
		struct buf s1 = BUF_INIT, s2 = BUF_INIT, d1 = BUF_INIT;
		struct buf d2 = BUF_INIT;
		enum pgp_signed_kind k1, k2;
		enum pgp_reduced_kind kind;
		const char *err = NULL;
		size_t len;
		char *raw = slurp(shapes[i].file, &len);

		ck_assert_int_eq(reduce_check(club, shapes[i].file,
					      "In-Reply-To: <ashes.3.4.5.0@club"
					      ".example>\r\n"), shapes[i].kind);
		if (shapes[i].kind != PGP_REDUCED_ENCRYPTED) {
			free(raw);
			continue;
		}
		ck_assert_int_eq(pgp_reduce_mail(raw, len, NULL, NULL, &out,
						 &kind, &err), 0);
		ck_assert_int_eq(inbound_archive_form(club, raw, len, 1 << 20,
						      &f1, &err), 1);
		ck_assert_int_eq(inbound_archive_form(club, out.data, out.len,
						      1 << 20, &f2, &err), 1);
		ck_assert_int_eq(pgp_export_signed(f1.data, f1.len, &k1, &s1,
						   &d1, &err), 0);
		ck_assert_int_eq(pgp_export_signed(f2.data, f2.len, &k2, &s2,
						   &d2, &err), 0);
		ck_assert_int_eq(k1, k2);
		ck_assert_uint_eq(s1.len, s2.len);
		ck_assert(memcmp(s1.data, s2.data, s1.len) == 0);
		buf_free(&out);
		buf_free(&f1);
		buf_free(&f2);
		buf_free(&s1);
		buf_free(&s2);
		buf_free(&d1);
		buf_free(&d2);
		free(raw);
	}
	pgp_ctx_free(&club);
}
END_TEST

/* An unknown key that signs with a subkey: the refusal names the
 * primary the mail carried (what the sender's program shows), and the
 * Outlook-style octet-stream .asc is a key the mail carries. */
START_TEST(test_unknown_names_primary)
{
	struct pgp_ctx *club = open_home("club");
	struct inbound_msg *m = parse(club, "outlook-sub.eml", false);
	char *primary = fpr_of("sub"), *subkey = fpr_of("subkey");

	ck_assert_int_eq(m->sig.status, PGP_SIG_UNKNOWN_KEY);
	ck_assert_str_eq(m->sig.fpr, subkey);
	ck_assert_uint_eq(m->key_count, 1);
	ck_assert(m->keys[0].attached && m->keys[0].in_signed);
	ck_assert_str_eq(m->carried_fpr, primary);
	ck_assert_str_ne(primary, subkey);
	inbound_msg_free(&m);
	free(primary);
	free(subkey);
	pgp_ctx_free(&club);
}
END_TEST

int main(void)
{
	Suite *s = test_suite("crypt", "crypt", NULL, NULL, 120,
		TESTS(test_autocrypt_parse, test_autocrypt_refused,
		test_autocrypt_find, test_scan_encrypted, test_decrypt_shapes,
		test_decrypt_not_ours, test_decrypt_bomb, test_archive_form,
		test_unknown_names_primary, test_autocrypt_register,
		test_reduce_encrypted));

	return pgp_fixture_run(s, "test_crypt", "crypt-helper.sh", true);
}
