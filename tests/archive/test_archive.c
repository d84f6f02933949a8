/* test_archive.c -- the parts of an archive that need no mail stack and
 * no gpg: how firmly a signed text binds a move (archive_bind), the
 * resignation's binding, MANIFEST written and read (sha256sum's format,
 * names an archive may hold), the exact bytes a mail's signature covers
 * (pgp_export_signed: PGP/MIME, a clearsigned block in quoted-printable,
 * none), the refusal to read a link out of an archive, and the reasons'
 * names verify prints.  The clocks' check is test_archive_clock.c's. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "archive/archive_private.h"
#include "core/notation.h"
#include "mail/inbound.h"
#include "core/variant.h"
#include "../check_run.h"

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

/* A multipart/signed part (boundary "b", LF line ends) signing the
 * plain text "move 12 1 b2-b1" with micalg, its signature sig in
 * base64. */
#define SIGNED_LF(micalg, sig)						\
	"Content-Type: multipart/signed; micalg=" micalg ";\n"		\
	" protocol=\"application/pgp-signature\"; boundary=\"b\"\n"	\
	"\n"								\
	"--b\n"								\
	"Content-Type: text/plain\n"					\
	"\n"								\
	"move 12 1 b2-b1\n"						\
	"--b\n"								\
	"Content-Type: application/pgp-signature\n"			\
	"Content-Transfer-Encoding: base64\n"				\
	"\n"								\
	sig "\n"							\
	"--b--\n"

/* pgp_export_signed() of the len bytes of mail succeeds with kind, the
 * signed bytes and the signature (both exact, "" for none). */
static void exported_as(const char *mail, size_t len,
			enum pgp_signed_kind kind, const char *signed_text,
			const char *signature)
{
	struct buf s = BUF_INIT, sig = BUF_INIT;
	enum pgp_signed_kind got;
	const char *error;

	ck_assert_int_eq(pgp_export_signed(mail, len, &got, &s, &sig, &error),
			 0);
	ck_assert_int_eq(got, kind);
	ck_assert_uint_eq(s.len, strlen(signed_text));
	ck_assert_str_eq(buf_str(&s), signed_text);
	ck_assert_uint_eq(sig.len, strlen(signature));
	ck_assert_str_eq(buf_str(&sig), signature);
	buf_free(&s);
	buf_free(&sig);
}

/* A PGP/MIME mail with LF line ends: what is signed is the part with
 * CRLF, without the CRLF before the boundary. */
START_TEST(test_extract_mime)
{
	const char *mail =
		"From: a@example.org\n"
		SIGNED_LF("pgp-sha256", "U0lH");

	exported_as(mail, strlen(mail), PGP_SIGNED_MIME,
		    "Content-Type: text/plain\r\n\r\nmove 12 1 b2-b1", "SIG");
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

	exported_as(mail, strlen(mail), PGP_SIGNED_CLEAR,
		    "-----BEGIN PGP SIGNED MESSAGE-----\r\n"
		    "Hash: SHA256\r\n\r\nmove 12 1 b2=b1\r\n"
		    "-----BEGIN PGP SIGNATURE-----\r\n\r\nabc\r\n"
		    "-----END PGP SIGNATURE-----\r\n", "");
	/* unsigned: nothing */
	exported_as("From: a@b\r\n\r\nhi\r\n", 17, PGP_SIGNED_NONE, "", "");
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

/* ---- archive_untar: the bounds of an unpacking (issue 22, case 12) -- */

/* A .tar.gz made by tar (in dir, of what sh makes in dir/src), unpacked
 * under lim into dir/into: archive_untar's return, its error in err. */
static int untar_case(const char *dir, const char *make,
		      const struct archive_untar_limits *lim, char *err,
		      size_t errlen)
{
	char cmd[2048], into[512], tgz[512], out[1024];
	const char *error = "";
	int r;

	snprintf(cmd, sizeof(cmd), "set -e; cd '%s'; rm -rf src into t.tar.gz;"
		 " mkdir src into; cd src; %s; tar --sort=name -czf ../t.tar.gz *",
		 dir, make);
	ck_assert_int_eq(system(cmd), 0);
	snprintf(into, sizeof(into), "%s/into", dir);
	snprintf(tgz, sizeof(tgz), "%s/t.tar.gz", dir);
	r = archive_untar(tgz, into, lim, out, sizeof(out), &error);
	snprintf(err, errlen, "%s", r == 0 ? out : error);
	return r;
}

/* The bytes under dir/into, by du. */
static long untar_bytes(const char *dir)
{
	char cmd[600], line[64] = "";
	FILE *p;

	snprintf(cmd, sizeof(cmd), "find '%s/into' -type f -printf '%%s\\n' | "
		 "awk '{ n += $1 } END { print n + 0 }'", dir);
	p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), p));
	pclose(p);
	return atol(line);
}

START_TEST(test_untar_bounds)
{
	const struct archive_untar_limits lim = { 1000, 2500, 6 };
	char dir[] = "/tmp/ashes-untar-XXXXXX", err[1024], want[1200];

	ck_assert_ptr_nonnull(mkdtemp(dir));
	/* Within every bound: unpacked, byte for byte. */
	ck_assert_int_eq(untar_case(dir, "mkdir game-1; head -c 1000 "
				    "/dev/zero >game-1/a; echo x >game-1/b",
				    &lim, err, sizeof(err)), 0);
	snprintf(want, sizeof(want), "%s/into/game-1", dir);
	ck_assert_str_eq(err, want);
	ck_assert_int_eq(untar_bytes(dir), 1002);
	/* One file past its bound: refused by its header, nothing of it
	 * written. */
	ck_assert_int_eq(untar_case(dir, "mkdir game-1; head -c 1001 "
				    "/dev/zero >game-1/a", &lim, err,
				    sizeof(err)), -1);
	ck_assert_str_eq(err, "game-1/a: 1001 bytes, more than the 1000 one "
			 "file of an archive may have");
	ck_assert_int_eq(untar_bytes(dir), 0);
	/* All together past theirs: refused at the file that breaks it. */
	ck_assert_int_eq(untar_case(dir, "mkdir game-1; for f in a b c; do "
				    "head -c 900 /dev/zero >game-1/$f; done",
				    &lim, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "game-1/c: 900 bytes more, past the 2500 all "
			 "files of an archive may have");
	ck_assert_int_eq(untar_bytes(dir), 1800);
	/* Too many entries (the folder counts). */
	ck_assert_int_eq(untar_case(dir, "mkdir game-1; touch game-1/a "
				    "game-1/b game-1/c game-1/d game-1/e "
				    "game-1/f", &lim, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "more than 6 entries: more than an archive "
			 "holds");
	/* A link, a second folder, a folder in the folder, a hidden name. */
	ck_assert_int_eq(untar_case(dir, "mkdir game-1; ln -s /etc/passwd "
				    "game-1/l", &lim, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "game-1/l: an entry of type '2', not a file or "
			 "a folder");
	ck_assert_int_eq(untar_case(dir, "mkdir game-1 game-2; touch game-1/a "
				    "game-2/a", &lim, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "more than one folder (game-1, game-2): an "
			 "archive is one");
	ck_assert_int_eq(untar_case(dir, "mkdir -p game-1/sub", &lim, err,
				    sizeof(err)), -1);
	ck_assert_str_eq(err, "a folder in the folder (game-1/sub/): an "
			 "archive has none");
	ck_assert_int_eq(untar_case(dir, "mkdir game-1; touch game-1/.x",
				    &lim, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "a file named \"game-1/.x\": not a name an "
			 "archive gives");
	/* Not a .tar.gz at all. */
	{
		char cmd[600], tgz[600], out[600];
		const char *error = "";

		snprintf(cmd, sizeof(cmd), "cd '%s' && rm -rf into && mkdir "
			 "into && echo nonsense | gzip >t.tar.gz", dir);
		ck_assert_int_eq(system(cmd), 0);
		snprintf(tgz, sizeof(tgz), "%s/t.tar.gz", dir);
		snprintf(cmd, sizeof(cmd), "%s/into", dir);
		ck_assert_int_eq(archive_untar(tgz, cmd, &lim, out,
					       sizeof(out), &error), -1);
		ck_assert_str_eq(error, "the .tar.gz is cut short, or not a "
				 ".tar.gz");
	}
	archive_remove_tree(dir);
}
END_TEST

/* ---- the public copy of a mail (issue 22, case 10) ---------------- */

/* pgp_public_mail() of raw: no header of raw but what headers gives,
 * and pgp_export_signed() reads the same signed bytes and signature
 * from it as from raw. */
static void public_same(const char *raw, const char *must)
{
	struct buf pub = BUF_INIT, s1 = BUF_INIT, s2 = BUF_INIT;
	struct buf g1 = BUF_INIT, g2 = BUF_INIT;
	enum pgp_signed_kind k1, k2;
	const char *error;

	ck_assert_int_eq(pgp_public_mail(raw, strlen(raw), "Subject: [ashes "
					 "#12]\r\n", "", &pub, &error), 0);
	ck_assert_msg(strstr(buf_str(&pub), "Received") == NULL &&
		      strstr(buf_str(&pub), "a@example.org") == NULL &&
		      strstr(buf_str(&pub), "192.0.2.1") == NULL, "%s",
		      buf_str(&pub));
	ck_assert_int_eq(strncmp(buf_str(&pub), "Subject: [ashes #12]\r\n"
				 "MIME-Version: 1.0\r\n", 41), 0);
	if (must != NULL)
		ck_assert_msg(strstr(buf_str(&pub), must) != NULL, "no %s in "
			      "%s", must, buf_str(&pub));
	ck_assert_int_eq(pgp_export_signed(raw, strlen(raw), &k1, &s1, &g1,
					   &error), 0);
	ck_assert_int_eq(pgp_export_signed(pub.data, pub.len, &k2, &s2, &g2,
					   &error), 0);
	ck_assert_int_eq(k1, k2);
	ck_assert_int_ne(k1, PGP_SIGNED_NONE);
	ck_assert_uint_eq(s1.len, s2.len);
	ck_assert_int_eq(memcmp(s1.data, s2.data, s1.len), 0);
	ck_assert_uint_eq(g1.len, g2.len);
	ck_assert(g1.len == 0 || memcmp(g1.data, g2.data, g1.len) == 0);
	/* and the text, as the daemon reads it (charset and all) */
	{
		struct inbound_options opts;
		struct inbound_msg *m1 = NULL, *m2 = NULL;

		memset(&opts, 0, sizeof(opts));
		opts.max_size = strlen(raw) + pub.len + 1;
		ck_assert_int_eq(inbound_parse(raw, strlen(raw), &opts, &m1,
					       &error), 0);
		ck_assert_int_eq(inbound_parse(pub.data, pub.len, &opts, &m2,
					       &error), 0);
		ck_assert_ptr_nonnull(m1->text);
		ck_assert_ptr_nonnull(m2->text);
		ck_assert_str_eq(m1->text, m2->text);
		inbound_msg_free(&m1);
		inbound_msg_free(&m2);
	}
	buf_free(&pub);
	buf_free(&s1);
	buf_free(&s2);
	buf_free(&g1);
	buf_free(&g2);
}

START_TEST(test_public_mail)
{
	/* PGP/MIME inside a multipart/mixed, its signature binary (in
	 * base64) and with bare LF line ends in the signed part. */
	public_same(
		"Return-Path: <a@example.org>\n"
		"Received: from mx (mx [192.0.2.1]) by club\n"
		"From: a@example.org\n"
		"Content-Type: multipart/mixed; boundary=\"m\"\n"
		"\n"
		"--m\n"
		SIGNED_LF("pgp-sha512", "AAEC/w==")
		"--m\n"
		"Content-Type: text/plain\n"
		"\n"
		"a list's footer, a@example.org\n"
		"--m--\n", "micalg=\"pgp-sha512\"");
	/* Inline, in latin-1 and quoted-printable: the charset kept. */
	public_same(
		"Received: from mx (mx [192.0.2.1]) by club\r\n"
		"From: a@example.org\r\n"
		"Content-Type: text/plain; charset=iso-8859-1\r\n"
		"Content-Transfer-Encoding: quoted-printable\r\n"
		"\r\n"
		"-----BEGIN PGP SIGNED MESSAGE-----\r\n"
		"Hash: SHA256\r\n"
		"\r\n"
		"move 12 1 b2-b1 caf=E9\r\n"
		"-----BEGIN PGP SIGNATURE-----\r\n"
		"\r\n"
		"abc\r\n"
		"-----END PGP SIGNATURE-----\r\n"
		"sent from a@example.org\r\n", "charset=\"iso-8859-1\"");
	/* Inline in an HTML part: the block as the daemon rendered it. */
	public_same(
		"From: a@example.org\r\n"
		"Content-Type: text/html; charset=utf-8\r\n"
		"\r\n"
		"<p>-----BEGIN PGP SIGNED MESSAGE-----<br>Hash: SHA256<br><br>"
		"move 12 1 b2-b1<br>-----BEGIN PGP SIGNATURE-----<br><br>abc"
		"<br>-----END PGP SIGNATURE-----</p>\r\n", "charset=\"utf-8\"");
}
END_TEST

TEST_MAIN("archive", "pure", setup, teardown, 0,
	  test_bind_command, test_bind_bare, test_bind_resign, test_manifest,
	  test_extract_mime, test_extract_clear, test_no_links,
	  test_untar_bounds, test_public_mail, test_reason_names)
