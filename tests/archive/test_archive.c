/* test_archive.c -- the parts of an archive that need no mail stack and
 * no gpg: how firmly a signed text binds a move (archive_bind), the
 * resignation's binding, MANIFEST written and read (sha256sum's format,
 * names an archive may hold), the exact bytes a mail's signature covers
 * (pgp_export_signed: PGP/MIME, a clearsigned block in quoted-printable,
 * none), the refusal to read a link out of an archive, and the reasons'
 * names verify prints. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "archive/archive_private.h"
#include "core/variant.h"

static struct core_record rec;

static void setup(void)
{
	struct core_variant v;
	enum core_error err;

	core_variant_default(&v);
	v.size = 4;
	ck_assert_int_eq(record_init(&rec, &v, &err), 0);
}

static void teardown(void)
{
	record_free(&rec);
}

static enum archive_binding bind(const char *text, size_t ply,
				 const char *move)
{
	enum archive_binding b;
	char other[300];

	archive_bind(text, &rec.pos, 12, ply, move, &b, other, sizeof(other));
	return b;
}

START_TEST(test_bind_command)
{
	ck_assert_int_eq(bind("move 12 1 b2-b1\n", 1, "b2-b1"),
			 ARCHIVE_BIND_TEXT);
	/* as players write it: any case, x for -, nothing between */
	ck_assert_int_eq(bind("Move 12 1 B2B1\n", 1, "b2-b1"),
			 ARCHIVE_BIND_TEXT);
	ck_assert_int_eq(bind("hello\n\nmove #12 1 b2-b1\n-- \nalice\n", 1,
			      "b2-b1"), ARCHIVE_BIND_TEXT);
	/* another ply, game or move: no binding */
	ck_assert_int_eq(bind("move 12 3 b2-b1\n", 1, "b2-b1"),
			 ARCHIVE_BIND_NONE);
	ck_assert_int_eq(bind("move 13 1 b2-b1\n", 1, "b2-b1"),
			 ARCHIVE_BIND_NONE);
	ck_assert_int_eq(bind("move 12 1 b2-b1\n", 1, "c3-a1"),
			 ARCHIVE_BIND_NONE);
	ck_assert_int_eq(bind("board 12\n", 1, "b2-b1"), ARCHIVE_BIND_NONE);
	ck_assert_int_eq(bind("", 1, "b2-b1"), ARCHIVE_BIND_NONE);
}
END_TEST

START_TEST(test_bind_bare)
{
	/* quoting the line the your-move mail asked for */
	ck_assert_int_eq(bind("b2-b1\n\nOn Tue, Ashes club wrote:\n> Your "
			      "move.\n>     move 12 1 MOVE\n", 1, "b2-b1"),
			 ARCHIVE_BIND_TEXT);
	ck_assert_int_eq(bind("b2-b1\n\n> > move 12 1 MOVE\n", 1, "b2-b1"),
			 ARCHIVE_BIND_TEXT);
	/* the quote of another ply's mail names the game, not this ply */
	ck_assert_int_eq(bind("b2-b1\n\n> move 12 5 MOVE\n", 1, "b2-b1"),
			 ARCHIVE_BIND_GAME);
	ck_assert_int_eq(bind("b2-b1\n\n> [ashes #12] your move\n", 1,
			      "b2-b1"), ARCHIVE_BIND_GAME);
	/* nothing signed names the game: the headers alone */
	ck_assert_int_eq(bind("b2-b1\n", 1, "b2-b1"), ARCHIVE_BIND_HEADER);
	ck_assert_int_eq(bind("b2-b1\n\n> move 13 1 MOVE\n", 1, "b2-b1"),
			 ARCHIVE_BIND_HEADER);
	/* a quoted line with more after MOVE is not the line asked for */
	ck_assert_int_eq(bind("b2-b1\n> move 12 1 MOVE please\n", 1, "b2-b1"),
			 ARCHIVE_BIND_GAME);
	/* a bare move that is another move */
	ck_assert_int_eq(bind("c3-a1\n> move 12 1 MOVE\n", 1, "b2-b1"),
			 ARCHIVE_BIND_NONE);
}
END_TEST

START_TEST(test_bind_resign)
{
	ck_assert_int_eq(archive_bind_resign("resign 12\n", 12),
			 ARCHIVE_BIND_TEXT);
	ck_assert_int_eq(archive_bind_resign("Resign #12\n", 12),
			 ARCHIVE_BIND_TEXT);
	ck_assert_int_eq(archive_bind_resign("resign\n> [ashes #12] game\n",
					     12), ARCHIVE_BIND_TEXT);
	ck_assert_int_eq(archive_bind_resign("resign\n", 12),
			 ARCHIVE_BIND_HEADER);
	ck_assert_int_eq(archive_bind_resign("resign 13\n", 12),
			 ARCHIVE_BIND_NONE);
	ck_assert_int_eq(archive_bind_resign("move 12 1 b2-b1\n", 12),
			 ARCHIVE_BIND_NONE);
}
END_TEST

START_TEST(test_manifest)
{
	struct archive_manifest m = { 0 }, back;
	struct buf out = BUF_INIT;
	size_t line = 0;

	archive_manifest_add(&m, "record.txt", "abc", 3);
	archive_manifest_add(&m, "0001.eml", "", 0);
	archive_manifest_format(&m, &out);
	/* sorted by name, as sha256sum writes it */
	ck_assert_str_eq(buf_str(&out),
		"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
		"  0001.eml\n"
		"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
		"  record.txt\n");
	ck_assert_int_eq(archive_manifest_parse(out.data, out.len, &back,
						&line), 0);
	ck_assert_uint_eq(back.count, 2);
	ck_assert_str_eq(back.items[1].name, "record.txt");
	archive_manifest_free(&back);
	/* a name twice, a path, a bad sum, one blank */
	buf_puts(&out, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b"
		 "7852b855  0001.eml\n");
	ck_assert_int_eq(archive_manifest_parse(out.data, out.len, &back,
						&line), -1);
	ck_assert_uint_eq(line, 3);
	ck_assert_int_eq(archive_manifest_parse(
		"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b"
		"7852b855  ../etc/passwd\n", 81, &back, &line), -1);
	ck_assert_int_eq(archive_manifest_parse(
		"E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B"
		"7852B855  a\n", 67, &back, &line), -1);
	ck_assert_int_eq(archive_manifest_parse(
		"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b"
		"7852b855 a\n", 66, &back, &line), -1);
	ck_assert(archive_name_ok("mail-01.signed"));
	ck_assert(!archive_name_ok(".ashes-archive-state"));
	ck_assert(!archive_name_ok("a/b"));
	ck_assert(!archive_name_ok("a b"));
	ck_assert(!archive_name_ok(""));
	buf_free(&out);
	archive_manifest_free(&m);
}
END_TEST

/* A PGP/MIME mail with LF line ends: what is signed is the part with
 * CRLF, without the CRLF before the boundary. */
START_TEST(test_extract_mime)
{
	const char *mail =
		"From: a@example.org\n"
		"Content-Type: multipart/signed; micalg=pgp-sha256;\n"
		" protocol=\"application/pgp-signature\"; boundary=\"b\"\n"
		"\n"
		"--b\n"
		"Content-Type: text/plain\n"
		"\n"
		"move 12 1 b2-b1\n"
		"--b\n"
		"Content-Type: application/pgp-signature\n"
		"Content-Transfer-Encoding: base64\n"
		"\n"
		"U0lH\n"
		"--b--\n";
	struct buf s = BUF_INIT, sig = BUF_INIT;
	enum pgp_signed_kind kind;
	const char *error;

	ck_assert_int_eq(pgp_export_signed(mail, strlen(mail), &kind, &s, &sig,
					   &error), 0);
	ck_assert_int_eq(kind, PGP_SIGNED_MIME);
	ck_assert_str_eq(buf_str(&s), "Content-Type: text/plain\r\n\r\n"
			 "move 12 1 b2-b1");
	ck_assert_str_eq(buf_str(&sig), "SIG");
	buf_free(&s);
	buf_free(&sig);
}
END_TEST

/* An inline mail in quoted-printable: the block as gpg gets it, the
 * transfer encoding undone, nothing before it or after its last line. */
START_TEST(test_extract_clear)
{
	const char *mail =
		"From: a@example.org\r\n"
		"Content-Type: text/plain; charset=utf-8\r\n"
		"Content-Transfer-Encoding: quoted-printable\r\n"
		"\r\n"
		"Hi!\r\n"
		"-----BEGIN PGP SIGNED MESSAGE-----\r\n"
		"Hash: SHA256\r\n"
		"\r\n"
		"move 12 1 b2=3Db1\r\n"
		"-----BEGIN PGP SIGNATURE-----\r\n"
		"\r\n"
		"abc\r\n"
		"-----END PGP SIGNATURE-----\r\n"
		"bye\r\n";
	struct buf s = BUF_INIT, sig = BUF_INIT;
	enum pgp_signed_kind kind;
	const char *error;

	ck_assert_int_eq(pgp_export_signed(mail, strlen(mail), &kind, &s, &sig,
					   &error), 0);
	ck_assert_int_eq(kind, PGP_SIGNED_CLEAR);
	ck_assert_str_eq(buf_str(&s), "-----BEGIN PGP SIGNED MESSAGE-----\r\n"
			 "Hash: SHA256\r\n\r\nmove 12 1 b2=b1\r\n"
			 "-----BEGIN PGP SIGNATURE-----\r\n\r\nabc\r\n"
			 "-----END PGP SIGNATURE-----\r\n");
	ck_assert_uint_eq(sig.len, 0);
	buf_free(&s);
	/* unsigned: nothing */
	ck_assert_int_eq(pgp_export_signed("From: a@b\r\n\r\nhi\r\n", 17,
					   &kind, &s, &sig, &error), 0);
	ck_assert_int_eq(kind, PGP_SIGNED_NONE);
	ck_assert_uint_eq(s.len, 0);
	buf_free(&s);
	buf_free(&sig);
}
END_TEST

/* An archive is untrusted: a link in it is not followed. */
START_TEST(test_no_links)
{
	char dir[] = "/tmp/ashes-archive-test-XXXXXX", path[128];
	struct buf b = BUF_INIT;
	char **names = NULL;
	size_t n = 0;
	const char *bad;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(archive_write_file(dir, "record.txt", "x", 1), 0);
	/* never over a file */
	ck_assert_int_eq(archive_write_file(dir, "record.txt", "y", 1), -1);
	ck_assert_int_eq(archive_read_file(dir, "record.txt", 10, &b), 0);
	ck_assert_str_eq(buf_str(&b), "x");
	buf_reset(&b);
	ck_assert_int_eq(archive_read_file(dir, "record.txt", 0, &b), -1);
	ck_assert_int_eq(errno, EFBIG);
	snprintf(path, sizeof(path), "%s/keys.asc", dir);
	ck_assert_int_eq(symlink("/etc/passwd", path), 0);
	ck_assert_int_eq(archive_read_file(dir, "keys.asc", 1 << 20, &b), -1);
	ck_assert_int_eq(archive_list_dir(dir, &names, &n, &bad), -1);
	ck_assert_str_eq(bad, "keys.asc");
	unlink(path);
	ck_assert_int_eq(archive_list_dir(dir, &names, &n, &bad), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(names[0], "record.txt");
	archive_names_free(&names, n);
	archive_remove_tree(dir);
	ck_assert_int_eq(access(dir, F_OK), -1);
	buf_free(&b);
}
END_TEST

START_TEST(test_reason_names)
{
	ck_assert_str_eq(archive_reason_name(ARCHIVE_TAMPERED_MAIL),
			 "tampered mail");
	ck_assert_str_eq(archive_reason_name(ARCHIVE_MISSING_PLY),
			 "missing ply");
	ck_assert_str_eq(archive_reason_name(ARCHIVE_WRONG_PLY), "wrong ply");
	ck_assert_str_eq(archive_reason_name(ARCHIVE_ILLEGAL_MOVE),
			 "illegal move");
	ck_assert_str_eq(archive_reason_name(ARCHIVE_FOREIGN_SIGNER),
			 "foreign signer");
	ck_assert_str_eq(archive_reason_name(ARCHIVE_RESULT_MISMATCH),
			 "result mismatch");
	ck_assert_str_eq(archive_reason_name(ARCHIVE_REASON_COUNT), "unknown");
}
END_TEST

static Suite *archive_suite(void)
{
	Suite *s = suite_create("archive");
	TCase *tc = tcase_create("pure");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_bind_command);
	tcase_add_test(tc, test_bind_bare);
	tcase_add_test(tc, test_bind_resign);
	tcase_add_test(tc, test_manifest);
	tcase_add_test(tc, test_extract_mime);
	tcase_add_test(tc, test_extract_clear);
	tcase_add_test(tc, test_no_links);
	tcase_add_test(tc, test_reason_names);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(archive_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed != 0;
}
