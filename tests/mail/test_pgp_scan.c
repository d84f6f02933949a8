/* test_pgp_scan.c -- the shape pre-scan of OpenPGP blobs (pgp_scan.h):
 * packet headers old and new, partial and indeterminate lengths, each
 * packet type for each kind, counts, truncation, armor with and without
 * its checksum, the guarded armor gpg keeps revocations in, clearsigned
 * blocks, and the compression bomb refused in microseconds. */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mail/pgp_scan.h"
#include "util/buf.h"
#include "../check_run.h"

static char why[200];

/* n as a big-endian number of bytes bytes, into b. */
static void put_be(struct buf *b, size_t n, int bytes)
{
	while (bytes-- > 0)
		buf_putc(b, (char)(n >> (8 * bytes)));
}

/* n body bytes, all 'x', into b. */
static void pkt_body(struct buf *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		buf_putc(b, 'x');
}

/* A new-format packet of tag with n body bytes (all 'x') into b. */
static void pkt_new(struct buf *b, unsigned tag, size_t n)
{
	buf_putc(b, (char)(0xC0 | tag));
	if (n < 192) {
		buf_putc(b, (char)n);
	} else if (n < 8384) {
		buf_putc(b, (char)(((n - 192) >> 8) + 192));
		buf_putc(b, (char)((n - 192) & 0xff));
	} else {
		buf_putc(b, (char)0xff);
		put_be(b, n, 4);
	}
	pkt_body(b, n);
}

/* An old-format packet with length type lt (0, 1, 2: a length of 1, 2
 * or 4 bytes). */
static void pkt_old(struct buf *b, unsigned tag, unsigned lt, size_t n)
{
	buf_putc(b, (char)(0x80 | tag << 2 | lt));
	put_be(b, n, lt == 1 ? 2 : lt == 2 ? 4 : 1);
	pkt_body(b, n);
}

static int scan(const struct buf *b, enum pgp_scan_kind k)
{
	why[0] = '\0';
	return pgp_scan(b->data, b->len, k, why, sizeof(why));
}

static const char b64[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static unsigned long crc24(const unsigned char *p, size_t n)
{
	unsigned long crc = 0xB704CE;
	size_t i;
	int k;

	for (i = 0; i < n; i++) {
		crc ^= (unsigned long)p[i] << 16;
		for (k = 0; k < 8; k++) {
			crc <<= 1;
			if (crc & 0x1000000)
				crc ^= 0x1864CFB;
		}
	}
	return crc & 0xFFFFFF;
}

static void b64_put(struct buf *o, const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i += 3) {
		unsigned long v = (unsigned long)p[i] << 16 |
			(i + 1 < n ? (unsigned long)p[i + 1] << 8 : 0) |
			(i + 2 < n ? p[i + 2] : 0);

		buf_putc(o, b64[v >> 18 & 63]);
		buf_putc(o, b64[v >> 12 & 63]);
		buf_putc(o, i + 1 < n ? b64[v >> 6 & 63] : '=');
		buf_putc(o, i + 2 < n ? b64[v & 63] : '=');
		if ((i / 3 + 1) % 16 == 0)
			buf_putc(o, '\n');
	}
	buf_putc(o, '\n');
}

/* Armor bin as label; crc: 0 none, 1 right, 2 wrong. */
static void armor(struct buf *o, const char *prefix, const char *label,
		  const struct buf *bin, int crc)
{
	unsigned long c = crc24((const unsigned char *)bin->data, bin->len);
	unsigned char cb[3] = { (unsigned char)(c >> 16),
				(unsigned char)(c >> 8), (unsigned char)c };

	if (crc == 2)
		cb[2] ^= 1;
	buf_printf(o, "%s-----BEGIN PGP %s-----\nComment: test\n\n", prefix,
		   label);
	b64_put(o, (const unsigned char *)bin->data, bin->len);
	if (crc) {
		buf_putc(o, '=');
		b64_put(o, cb, 3);
	}
	buf_printf(o, "-----END PGP %s-----\n", label);
}

START_TEST(signature_packets)
{
	struct buf b = BUF_INIT;
	int i;

	pkt_new(&b, 2, 100);
	ck_assert_int_eq(scan(&b, PGP_SCAN_SIGNATURE), 0);
	buf_reset(&b);
	pkt_old(&b, 2, 0, 100);
	pkt_old(&b, 2, 1, 300);
	pkt_old(&b, 2, 2, 70);
	pkt_new(&b, 2, 5000);
	pkt_new(&b, 2, 9000);
	pkt_new(&b, 10, 3);	/* marker */
	ck_assert_int_eq(scan(&b, PGP_SCAN_SIGNATURE), 0);
	/* at most PGP_SCAN_MAX_SIGS */
	buf_reset(&b);
	for (i = 0; i < PGP_SCAN_MAX_SIGS; i++)
		pkt_new(&b, 2, 80);
	ck_assert_int_eq(scan(&b, PGP_SCAN_SIGNATURE), 0);
	pkt_new(&b, 2, 80);
	ck_assert_int_eq(scan(&b, PGP_SCAN_SIGNATURE), -1);
	ck_assert_ptr_nonnull(strstr(why, "more than 8 signature packets"));
	/* none at all */
	buf_reset(&b);
	pkt_new(&b, 10, 3);
	ck_assert_int_eq(scan(&b, PGP_SCAN_SIGNATURE), -1);
	buf_free(&b);
}
END_TEST

/* Every tag: which kind takes it. */
START_TEST(each_tag)
{
	static const int sig_ok[22] = { [2] = 1, [10] = 1, [21] = 1 };
	static const int key_ok[22] = { [2] = 1, [6] = 1, [10] = 1, [12] = 1,
					[13] = 1, [14] = 1, [17] = 1, [21] = 1 };
	struct buf b = BUF_INIT;
	unsigned tag;

	for (tag = 1; tag < 22; tag++) {
		buf_reset(&b);
		pkt_new(&b, 6, 40);	/* gpg reads it as binary */
		pkt_new(&b, 2, 40);
		pkt_new(&b, tag, 10);
		ck_assert_msg(scan(&b, PGP_SCAN_KEYS) == (key_ok[tag] ? 0 : -1),
			      "tag %u in keys: %s", tag, why);
		buf_reset(&b);
		pkt_new(&b, 2, 40);
		pkt_new(&b, tag, 10);
		ck_assert_msg(scan(&b, PGP_SCAN_SIGNATURE) ==
			      (sig_ok[tag] ? 0 : -1), "tag %u in sig: %s", tag,
			      why);
	}
	buf_reset(&b);
	pkt_new(&b, 2, 40);
	pkt_new(&b, 8, 10);
	ck_assert_int_eq(scan(&b, PGP_SCAN_SIGNATURE), -1);
	ck_assert_str_eq(why, "a compressed data packet (tag 8) in a signature, "
			 "which holds only signature packets");
	buf_reset(&b);
	pkt_old(&b, 5, 1, 300);
	ck_assert_int_eq(scan(&b, PGP_SCAN_KEYS), -1);
	ck_assert_ptr_nonnull(strstr(why, "secret key packet (tag 5)"));
	buf_free(&b);
}
END_TEST

START_TEST(lengths)
{
	struct buf b = BUF_INIT;

	/* partial body length (new format 224..254): data packets only */
	pkt_new(&b, 2, 40);
	buf_putc(&b, (char)(0xC0 | 2));
	buf_putc(&b, (char)0xE5);	/* partial, 32 bytes */
	ck_assert_int_eq(scan(&b, PGP_SCAN_SIGNATURE), -1);
	ck_assert_ptr_nonnull(strstr(why, "partial body length"));
	/* indeterminate old-format length */
	buf_reset(&b);
	pkt_new(&b, 6, 40);
	buf_putc(&b, (char)(0x80 | 13 << 2 | 3));
	buf_puts(&b, "alice");
	ck_assert_int_eq(scan(&b, PGP_SCAN_KEYS), -1);
	ck_assert_ptr_nonnull(strstr(why, "indeterminate length"));
	/* truncated: in the body, in the length, in the 4-byte length */
	buf_reset(&b);
	pkt_new(&b, 2, 100);
	b.len -= 1;
	ck_assert_int_eq(scan(&b, PGP_SCAN_SIGNATURE), -1);
	ck_assert_ptr_nonnull(strstr(why, "cut short"));
	buf_reset(&b);
	pkt_new(&b, 2, 40);
	buf_putc(&b, (char)0xC2);
	buf_putc(&b, (char)0xC5);	/* two-octet length, second missing */
	ck_assert_int_eq(scan(&b, PGP_SCAN_SIGNATURE), -1);
	buf_reset(&b);
	pkt_new(&b, 2, 40);
	buf_putc(&b, (char)0xC2);
	buf_putc(&b, (char)0xFF);
	buf_putc(&b, 0);
	ck_assert_int_eq(scan(&b, PGP_SCAN_SIGNATURE), -1);
	buf_reset(&b);
	pkt_old(&b, 2, 2, 70);
	b.len = 3;			/* inside the 4-byte length */
	ck_assert_int_eq(scan(&b, PGP_SCAN_SIGNATURE), -1);
	/* a length that claims gigabytes */
	buf_reset(&b);
	pkt_new(&b, 2, 40);
	buf_puts(&b, "\xc2\xff\x7f\xff\xff\xff");
	ck_assert_int_eq(scan(&b, PGP_SCAN_SIGNATURE), -1);
	/* a byte that is no packet header */
	buf_reset(&b);
	pkt_new(&b, 2, 40);
	buf_putc(&b, 0x20);
	ck_assert_int_eq(scan(&b, PGP_SCAN_SIGNATURE), -1);
	ck_assert_ptr_nonnull(strstr(why, "not a packet header"));
	buf_free(&b);
}
END_TEST

START_TEST(armored)
{
	struct buf bin = BUF_INIT, a = BUF_INIT;

	pkt_new(&bin, 2, 119);
	armor(&a, "", "SIGNATURE", &bin, 1);
	ck_assert_msg(scan(&a, PGP_SCAN_SIGNATURE) == 0, "%s", why);
	buf_reset(&a);
	armor(&a, "", "SIGNATURE", &bin, 0);	/* no checksum: fine */
	ck_assert_msg(scan(&a, PGP_SCAN_SIGNATURE) == 0, "%s", why);
	buf_reset(&a);
	armor(&a, "", "SIGNATURE", &bin, 2);
	ck_assert_int_eq(scan(&a, PGP_SCAN_SIGNATURE), -1);
	ck_assert_ptr_nonnull(strstr(why, "checksum"));
	/* wrong label for the kind */
	buf_reset(&a);
	armor(&a, "", "MESSAGE", &bin, 1);
	ck_assert_int_eq(scan(&a, PGP_SCAN_SIGNATURE), -1);
	ck_assert_int_eq(scan(&a, PGP_SCAN_KEYS), -1);
	buf_reset(&a);
	armor(&a, "", "PRIVATE KEY BLOCK", &bin, 1);
	ck_assert_int_eq(scan(&a, PGP_SCAN_KEYS), -1);
	/* no END line */
	buf_reset(&a);
	armor(&a, "", "SIGNATURE", &bin, 1);
	a.len -= 26;
	ck_assert_int_eq(scan(&a, PGP_SCAN_SIGNATURE), -1);
	/* text around it, a key block and a revocation, one guarded */
	buf_reset(&bin);
	pkt_new(&bin, 6, 51);
	pkt_new(&bin, 13, 20);
	pkt_new(&bin, 2, 119);
	pkt_new(&bin, 14, 56);
	pkt_new(&bin, 2, 119);
	buf_reset(&a);
	buf_puts(&a, "hello\n");
	armor(&a, "", "PUBLIC KEY BLOCK", &bin, 1);
	buf_puts(&a, "between\n");
	armor(&a, ":", "PUBLIC KEY BLOCK", &bin, 0);
	ck_assert_msg(scan(&a, PGP_SCAN_KEYS) == 0, "%s", why);
	/* a bad second block counts as much as a first */
	pkt_new(&bin, 8, 20);
	armor(&a, ":", "PUBLIC KEY BLOCK", &bin, 0);
	ck_assert_int_eq(scan(&a, PGP_SCAN_KEYS), -1);
	ck_assert_ptr_nonnull(strstr(why, "compressed data"));
	/* nothing OpenPGP at all */
	buf_reset(&a);
	buf_puts(&a, "just some words\n");
	ck_assert_int_eq(scan(&a, PGP_SCAN_KEYS), -1);
	buf_free(&bin);
	buf_free(&a);
}
END_TEST

/* Clearsigned blocks: the signed text, and the signature's packets (a
 * signature packet, then maybe another); what pgp_scan_clearsigned says. */
static const struct {
	const char *what, *text;
	unsigned extra_tag;
	size_t extra_len;
	int want;
} clearsigned_cases[] = {
	{ "a dash-escaped armor line in the text",
	  "move e2\n- -----BEGIN PGP MESSAGE-----\n", 0, 0, 0 },
	{ "a compressed packet in its signature", "move e2\n", 8, 30, -1 },
	{ "an unescaped armor line in the text",
	  "move e2\n-----BEGIN PGP MESSAGE-----\nxx\n", 0, 0, -1 },
};

START_TEST(clearsigned)
{
	struct buf bin = BUF_INIT, a = BUF_INIT;
	size_t i;

	for (i = 0; i < sizeof(clearsigned_cases) /
		    sizeof(clearsigned_cases[0]); i++) {
		buf_reset(&a);
		buf_reset(&bin);
		pkt_new(&bin, 2, 119);
		if (clearsigned_cases[i].extra_tag != 0)
			pkt_new(&bin, clearsigned_cases[i].extra_tag,
				clearsigned_cases[i].extra_len);
		buf_puts(&a, "-----BEGIN PGP SIGNED MESSAGE-----\n"
			 "Hash: SHA256\n\n");
		buf_puts(&a, clearsigned_cases[i].text);
		armor(&a, "", "SIGNATURE", &bin, 1);
		why[0] = '\0';
		ck_assert_msg(pgp_scan_clearsigned(a.data, a.len, why,
						   sizeof(why)) ==
			      clearsigned_cases[i].want, "%s: %s",
			      clearsigned_cases[i].what, why);
	}
	buf_free(&bin);
	buf_free(&a);
}
END_TEST

/* The bomb of the security review, built by tests/mail/pgp-bomb.py: a
 * terabyte of zeros in nested compressed packets, refused from its first
 * header, whatever it expands to. */
START_TEST(bomb)
{
	const char *srcdir = getenv("srcdir");
	char cmd[512];
	struct buf a = BUF_INIT;
	struct timespec t0, t1;
	FILE *f;
	char chunk[4096];
	size_t n;
	double us;

	snprintf(cmd, sizeof(cmd), "python3 %s/tests/mail/pgp-bomb.py bomb 4 "
		 "--levels 3 --armor 'PGP SIGNATURE'", srcdir ? srcdir : ".");
	f = popen(cmd, "r");
	ck_assert_ptr_nonnull(f);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_append(&a, chunk, n);
	ck_assert_int_eq(pclose(f), 0);
	ck_assert_uint_gt(a.len, 100);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ck_assert_int_eq(scan(&a, PGP_SCAN_SIGNATURE), -1);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	us = (double)(t1.tv_sec - t0.tv_sec) * 1e6 +
	     (double)(t1.tv_nsec - t0.tv_nsec) / 1e3;
	ck_assert_str_eq(why, "a compressed data packet (tag 8) in a signature, "
			 "which holds only signature packets");
	/* microseconds; 50 ms is a margin for a loaded machine */
	ck_assert_msg(us < 50000, "scan took %.0f us", us);
	fprintf(stderr, "bomb of %zu bytes (4 GiB of zeros) refused in "
		"%.1f us\n", a.len, us);
	ck_assert_int_eq(pgp_scan(a.data, a.len, PGP_SCAN_KEYS, why,
				  sizeof(why)), -1);
	buf_free(&a);
}
END_TEST

TEST_MAIN("pgp_scan", "scan", NULL, NULL, 60, signature_packets, each_tag,
	  lengths, armored, clearsigned, bomb)
