/* test_inbound_keys.c -- which keys a mail carries inside what its
 * signature covers (struct inbound_key's in_signed): only those may be
 * offered for a key binding; a key beside a clearsigned text is anyone's
 * on the way.  The mail's shape only: no gpg (the signatures are not
 * checked here; the e2e test_hostile_keys.sh sends real ones). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mail/inbound.h"
#include "../check_run.h"
#include "inbound_test.h"

#define HDRS "From: Carol <carol@example.org>\nTo: ashes@club.example\n" \
	"Subject: key\nMessage-ID: <k1@example.org>\nMIME-Version: 1.0\n"
#define KEY(x) "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n" x "\n=abcd\n" \
	"-----END PGP PUBLIC KEY BLOCK-----\n"
#define CLEAR(text) "-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\n" \
	text "-----BEGIN PGP SIGNATURE-----\n\niHUEARYIAB0=\n=abcd\n" \
	"-----END PGP SIGNATURE-----\n"

/* The key whose armor holds tag, or NULL. */
static const struct inbound_key *key_with(const struct inbound_msg *m,
					  const char *tag)
{
	for (size_t i = 0; i < m->key_count; i++)
		if (strstr(m->keys[i].data, tag) != NULL)
			return &m->keys[i];
	return NULL;
}

/* Unsigned: nothing is inside a signature. */
START_TEST(test_unsigned_pasted)
{
	struct inbound_msg *m = parse(HDRS "\nkey replace\n\n" KEY("mDMEpasted"));

	ck_assert_uint_eq(m->key_count, 1);
	ck_assert(!m->keys[0].in_signed);
	inbound_msg_free(&m);
}
END_TEST

/* Clearsigned: a key pasted in the signed text is inside; one attached
 * beside it (application/pgp-keys) is not. */
START_TEST(test_clearsigned_attachment_outside)
{
	struct inbound_msg *m = parse(HDRS
		"Content-Type: multipart/mixed; boundary=\"b\"\n\n"
		"--b\nContent-Type: text/plain; charset=utf-8\n\n"
		CLEAR("key replace\n\n" KEY("mDMEinside"))
		"--b\nContent-Type: application/pgp-keys\n\n"
		KEY("mDMEswapped")
		"--b--\n");
	const struct inbound_key *in, *out;

	ck_assert_int_eq(m->sig_kind, INBOUND_CLEARSIGNED);
	in = key_with(m, "mDMEinside");
	out = key_with(m, "mDMEswapped");
	ck_assert_ptr_nonnull(in);
	ck_assert_ptr_nonnull(out);
	ck_assert(in->in_signed);
	ck_assert(!out->in_signed);
	ck_assert(out->attached);
	inbound_msg_free(&m);
}
END_TEST

/* PGP/MIME: a key attached inside the signed part is inside. */
START_TEST(test_pgp_mime_attached_inside)
{
	struct inbound_msg *m = parse(HDRS
		"Content-Type: multipart/signed; micalg=pgp-sha256;\n"
		" protocol=\"application/pgp-signature\"; boundary=\"s\"\n\n"
		"--s\nContent-Type: multipart/mixed; boundary=\"b\"\n\n"
		"--b\nContent-Type: text/plain; charset=utf-8\n\nkey replace\n"
		"--b\nContent-Type: application/pgp-keys\n\n" KEY("mDMEattached")
		"--b--\n"
		"--s\nContent-Type: application/pgp-signature\n\n"
		"-----BEGIN PGP SIGNATURE-----\n\niHUEARYIAB0=\n=abcd\n"
		"-----END PGP SIGNATURE-----\n"
		"--s--\n");
	const struct inbound_key *k;

	ck_assert_int_eq(m->sig_kind, INBOUND_PGP_MIME);
	k = key_with(m, "mDMEattached");
	ck_assert_ptr_nonnull(k);
	ck_assert(k->in_signed);
	inbound_msg_free(&m);
}
END_TEST

static Suite *inbound_keys_suite(void)
{
	Suite *s = suite_create("inbound_keys");
	TCase *tc = tcase_create("keys");

	tcase_add_test(tc, test_unsigned_pasted);
	tcase_add_test(tc, test_clearsigned_attachment_outside);
	tcase_add_test(tc, test_pgp_mime_attached_inside);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run(inbound_keys_suite());
}
