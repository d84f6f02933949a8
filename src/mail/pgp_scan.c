/* pgp_scan.c -- the shape check of a stranger's OpenPGP blob (see
 * pgp_scan.h): dearmor, walk the packet headers, refuse what the kind of
 * blob never holds.  Packet tags and headers as RFC 9580, section 4. */
#include "config.h"

#include "mail/pgp_scan.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"

static const char *pgp_scan_tag_name(unsigned int tag)
{
	switch (tag) {
	case 1: return "public-key encrypted session key";
	case 2: return "signature";
	case 3: return "symmetric-key encrypted session key";
	case 4: return "one-pass signature";
	case 5: return "secret key";
	case 6: return "public key";
	case 7: return "secret subkey";
	case 8: return "compressed data";
	case 9: return "symmetrically encrypted data";
	case 10: return "marker";
	case 11: return "literal data";
	case 12: return "trust";
	case 13: return "user ID";
	case 14: return "public subkey";
	case 17: return "user attribute";
	case 18: return "encrypted and integrity protected data";
	case 19: return "modification detection code";
	case 20: return "AEAD encrypted data";
	case 21: return "padding";
	default: return "unknown";
	}
}

/* Whether a packet of tag may be in a blob of kind. */
static bool pgp_scan_allowed(enum pgp_scan_kind kind, unsigned int tag)
{
	switch (tag) {
	case 2:			/* signature */
		return kind != PGP_SCAN_ENCRYPTED;
	case 4:			/* one-pass signature */
	case 8:			/* compressed data */
	case 11:		/* literal data */
		return kind == PGP_SCAN_SIGNED_MESSAGE;
	case 10:		/* marker: "PGP", ignored by everyone */
	case 21:		/* padding: skipped */
		return true;
	case 6:			/* public key */
	case 14:		/* public subkey */
	case 13:		/* user ID */
	case 17:		/* user attribute (photo IDs) */
	case 12:		/* trust: gpg's own, ignored on import */
		return kind == PGP_SCAN_KEYS;
	case 1:			/* public-key encrypted session key */
	case 3:			/* symmetric-key encrypted session key */
	case 18:		/* encrypted and integrity protected data */
	case 20:		/* AEAD encrypted data */
		return kind == PGP_SCAN_ENCRYPTED;
	default:
		return false;
	}
}

/* The data packet of an encrypted message: the only packet that may
 * have a partial or indeterminate length (gpg writes one when it
 * encrypts a stream).  Data encrypted without integrity protection (tag
 * 9) is refused: anybody may change it unseen. */
static bool pgp_scan_is_data(enum pgp_scan_kind kind, unsigned int tag)
{
	if (kind == PGP_SCAN_SIGNED_MESSAGE)
		return tag == 8 || tag == 11;
	return kind == PGP_SCAN_ENCRYPTED && (tag == 18 || tag == 20);
}

/* Walk the packets of the binary blob p[0..n). */
static int pgp_scan_packets(const uint8_t *p, size_t n,
			    enum pgp_scan_kind kind, char *why, size_t whylen)
{
	size_t i = 0, packets = 0, sigs = 0, data = 0;

	while (i < n) {
		size_t at = i, len;
		unsigned int c = p[i++], tag;
		bool rest = false;	/* the packet runs to the blob's end */

		if (!(c & 0x80)) {
			snprintf(why, whylen, "byte %zu of the OpenPGP data is "
				 "not a packet header", at);
			return -1;
		}
		if (c & 0x40) {			/* new format */
			tag = c & 0x3f;
			if (i >= n)
				goto truncated;
			len = p[i++];
			if (len >= 192 && len < 224) {
				if (i >= n)
					goto truncated;
				len = ((len - 192) << 8) + p[i++] + 192;
			} else if (len == 255) {
				if (n - i < 4)
					goto truncated;
				len = (size_t)p[i] << 24 | (size_t)p[i + 1] << 16 |
				      (size_t)p[i + 2] << 8 | p[i + 3];
				i += 4;
			} else if (len >= 224 && pgp_scan_is_data(kind, tag)) {
				/* an encrypted message's data packet: its
				 * chunks are not read here; it must be the
				 * last packet, so it runs to the end */
				rest = true;
			} else if (len >= 224) {
				snprintf(why, whylen, "a %s packet (tag %u) with "
					 "a partial body length, which only data "
					 "packets may have", pgp_scan_tag_name(tag),
					 tag);
				return -1;
			}
		} else {			/* old format */
			unsigned int lt = c & 3, k;

			tag = (c >> 2) & 0xf;
			if (lt == 3 && pgp_scan_is_data(kind, tag)) {
				rest = true;
				lt = 0;
			} else if (lt == 3) {
				snprintf(why, whylen, "a %s packet (tag %u) of "
					 "indeterminate length, which only data "
					 "packets may have", pgp_scan_tag_name(tag),
					 tag);
				return -1;
			}
			lt = rest ? 0 : 1u << lt; /* 1, 2 or 4 octets */
			if (n - i < lt)
				goto truncated;
			for (len = 0, k = 0; k < lt; k++)
				len = len << 8 | p[i++];
		}
		if (rest)
			len = n - i;
		if (!pgp_scan_allowed(kind, tag)) {
			snprintf(why, whylen, "a %s packet (tag %u) in %s, "
				 "which holds only %s", pgp_scan_tag_name(tag), tag,
				 kind == PGP_SCAN_SIGNATURE ? "a signature" :
				 kind == PGP_SCAN_ENCRYPTED ? "an encrypted message" :
				 kind == PGP_SCAN_SIGNED_MESSAGE ? "a signed message" :
				 "key data", kind == PGP_SCAN_SIGNATURE ?
				 "signature packets" : kind == PGP_SCAN_ENCRYPTED ?
				 "session keys and encrypted data" :
				 kind == PGP_SCAN_SIGNED_MESSAGE ?
				 "signatures and the data they sign" :
				 "key, user ID and signature packets");
			return -1;
		}
		if (len > n - i)
			goto truncated;
		i += len;
		packets++;
		sigs += tag == 2;
		if (pgp_scan_is_data(kind, tag))
			data++;
		if (kind == PGP_SCAN_ENCRYPTED && data > 1) {
			snprintf(why, whylen, "more than one encrypted data "
				 "packet in one message");
			return -1;
		}
		if (kind == PGP_SCAN_ENCRYPTED && data == 0 &&
		    packets > PGP_SCAN_MAX_SIGS * 4) {
			snprintf(why, whylen, "more than %d session key packets "
				 "in one message", PGP_SCAN_MAX_SIGS * 4);
			return -1;
		}
		if (kind == PGP_SCAN_ENCRYPTED && data > 0 && i < n) {
			snprintf(why, whylen, "OpenPGP packets after the "
				 "encrypted data");
			return -1;
		}
		if (kind != PGP_SCAN_KEYS && sigs > PGP_SCAN_MAX_SIGS) {
			snprintf(why, whylen, "more than %d signature packets "
				 "in one signature", PGP_SCAN_MAX_SIGS);
			return -1;
		}
		if (packets > PGP_SCAN_MAX_KEY_PACKETS) {
			snprintf(why, whylen, "more than %d OpenPGP packets",
				 PGP_SCAN_MAX_KEY_PACKETS);
			return -1;
		}
	}
	if (kind == PGP_SCAN_SIGNATURE && sigs == 0) {
		snprintf(why, whylen, "no signature packet in the signature");
		return -1;
	}
	if (kind == PGP_SCAN_ENCRYPTED && data == 0) {
		snprintf(why, whylen, "no encrypted data in the message");
		return -1;
	}
	if (kind == PGP_SCAN_SIGNED_MESSAGE && (data == 0 || data > 2)) {
		snprintf(why, whylen, "%s data in the signed message",
			 data == 0 ? "no" : "more than one piece of");
		return -1;
	}
	if (packets == 0) {
		snprintf(why, whylen, "no OpenPGP packet");
		return -1;
	}
	return 0;
truncated:
	snprintf(why, whylen, "the OpenPGP packet at byte %zu is cut short", i);
	return -1;
}

static int pgp_scan_b64(unsigned char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

static uint32_t pgp_scan_crc24(const uint8_t *p, size_t n)
{
	uint32_t crc = 0xB704CE;
	size_t i;
	int k;

	for (i = 0; i < n; i++) {
		crc ^= (uint32_t)p[i] << 16;
		for (k = 0; k < 8; k++) {
			crc <<= 1;
			if (crc & 0x1000000)
				crc ^= 0x1864CFB;
		}
	}
	return crc & 0xFFFFFF;
}

/* The end of the line at s[i] (its '\n', or n). */
static size_t pgp_scan_eol(const char *s, size_t n, size_t i)
{
	const char *e = memchr(s + i, '\n', n - i);

	return e != NULL ? (size_t)(e - s) : n;
}

static bool pgp_scan_blank(const char *s, size_t a, size_t b)
{
	for (; a < b; a++)
		if (s[a] != ' ' && s[a] != '\t' && s[a] != '\r')
			return false;
	return true;
}

/* Decode the armor block whose BEGIN line starts at s[i] into *out, as
 * gpg does: header lines to the first blank one, then base64 (other
 * bytes skipped) up to a '=' pad, the "=XXXX" checksum line or the END
 * line.  The label (what follows "-----BEGIN PGP ") is put in label.
 * Returns the index after the END line, or 0 with why on a broken
 * armor. */
static size_t pgp_scan_dearmor(const char *s, size_t n, size_t i,
			       char *label, size_t labellen, struct buf *out,
			       char *why, size_t whylen)
{
	size_t e = pgp_scan_eol(s, n, i), lab = i + 15, labend;
	uint32_t acc = 0, crc;
	int bits = 0, v, k;
	bool pad = false, have_crc = false;
	uint8_t crcb[3];

	/* "-----BEGIN PGP " LABEL "-----" */
	labend = lab;
	while (labend < e && s[labend] != '-')
		labend++;
	snprintf(label, labellen, "%.*s", (int)(labend - lab), s + lab);
	i = e + 1;
	/* headers, up to a blank line; a line that is no header starts the
	 * data (decoding too much only makes the scan refuse) */
	while (i < n) {
		e = pgp_scan_eol(s, n, i);
		if (pgp_scan_blank(s, i, e)) {
			i = e + 1;
			break;
		}
		if (memchr(s + i, ':', e - i) == NULL)
			break;
		i = e + 1;
	}
	for (; i < n; i = e + 1) {
		e = pgp_scan_eol(s, n, i);
		if (e - i >= 5 && memcmp(s + i, "-----", 5) == 0) {
			if (e - i < 9 || memcmp(s + i + 5, "END ", 4) != 0) {
				snprintf(why, whylen, "an armor line inside "
					 "the armor block");
				return 0;
			}
			if (have_crc) {
				crc = pgp_scan_crc24((const uint8_t *)out->data,
						     out->len);
				if (crc != ((uint32_t)crcb[0] << 16 |
					    (uint32_t)crcb[1] << 8 | crcb[2])) {
					snprintf(why, whylen, "the armor's "
						 "checksum is wrong");
					return 0;
				}
			}
			return e < n ? e + 1 : n;
		}
		if (s[i] == '=' && !have_crc) {
			/* the checksum line: "=" and 4 base64 digits */
			size_t j;

			for (j = i + 1, k = 0, acc = 0; j < e && k < 4; j++) {
				if ((v = pgp_scan_b64((unsigned char)s[j])) < 0)
					continue;
				acc = acc << 6 | (uint32_t)v;
				k++;
			}
			if (k == 4) {
				crcb[0] = (uint8_t)(acc >> 16);
				crcb[1] = (uint8_t)(acc >> 8);
				crcb[2] = (uint8_t)acc;
				have_crc = true;
				pad = true;
				continue;
			}
		}
		for (; i < e && !pad; i++) {
			if (s[i] == '=') {
				pad = true;
				break;
			}
			if ((v = pgp_scan_b64((unsigned char)s[i])) < 0)
				continue;
			acc = acc << 6 | (uint32_t)v;
			bits += 6;
			if (bits >= 8) {
				bits -= 8;
				buf_putc(out, (char)(acc >> bits & 0xff));
			}
		}
	}
	snprintf(why, whylen, "the armor block has no END line");
	return 0;
}

/* gpg reads data as binary when its first byte heads one of these
 * packets (armor.c, is_armored), else it looks for armor. */
static bool pgp_scan_gpg_binary(unsigned char c)
{
	unsigned int tag;

	if (!(c & 0x80))
		return false;
	tag = c & 0x40 ? c & 0x3fu : (c >> 2) & 0xfu;
	switch (tag) {
	case 1: case 2: case 3: case 4: case 5: case 6: case 8: case 9:
	case 10: case 11: case 16: case 61:
		return true;
	default:
		return false;
	}
}

/* Every armor block from s[i] on, each as kind says.  A BEGIN line
 * anywhere counts, not only at a line's start: also the guarded one gpg
 * keeps revocations in (":-----BEGIN"), which pgp_import_known unguards,
 * and a stray one gpg would skip (scanning more is safe). */
static int pgp_scan_armored(const char *s, size_t n, size_t i,
			    enum pgp_scan_kind kind, char *why, size_t whylen)
{
	static const char begin[] = "-----BEGIN PGP ";
	struct buf bin = BUF_INIT;
	char label[40];
	const char *p;
	int blocks = 0, ret = -1;

	while (i < n && (p = memmem(s + i, n - i, begin, sizeof(begin) - 1))) {
		size_t next;

		buf_reset(&bin);
		next = pgp_scan_dearmor(s, n, (size_t)(p - s), label,
					sizeof(label), &bin, why, whylen);
		if (next == 0)
			goto out;
		if (strcmp(label, kind == PGP_SCAN_SIGNATURE ? "SIGNATURE" :
			   kind >= PGP_SCAN_ENCRYPTED ? "MESSAGE" :
			   "PUBLIC KEY BLOCK") != 0) {
			snprintf(why, whylen, "a \"PGP %s\" armor block where "
				 "%s belongs", label, kind == PGP_SCAN_SIGNATURE
				 ? "a signature" : kind >= PGP_SCAN_ENCRYPTED ?
				 "an OpenPGP message" : "a public key");
			goto out;
		}
		if (pgp_scan_packets((const uint8_t *)bin.data, bin.len, kind,
				     why, whylen) < 0)
			goto out;
		blocks++;
		i = next;
	}
	if (blocks == 0) {
		snprintf(why, whylen, "no OpenPGP data (neither armor nor "
			 "packets)");
		goto out;
	}
	ret = 0;
out:
	buf_free(&bin);
	return ret;
}

int pgp_scan(const void *data, size_t len, enum pgp_scan_kind kind,
	     char *why, size_t whylen)
{
	const char *s = data;

	if (len > 0 && pgp_scan_gpg_binary((unsigned char)s[0]))
		return pgp_scan_packets(data, len, kind, why, whylen);
	return pgp_scan_armored(s, len, 0, kind, why, whylen);
}

int pgp_scan_clearsigned(const void *data, size_t len, char *why,
			 size_t whylen)
{
	static const char sig[] = "-----BEGIN PGP SIGNATURE-----";
	const char *s = data;
	size_t i, e;

	/* the text: gpg dash-escapes every line that starts with '-', so
	 * no line of it may start an armor */
	i = pgp_scan_eol(s, len, 0) + 1;
	for (; i < len; i = e + 1) {
		e = pgp_scan_eol(s, len, i);
		if (e - i >= 5 && memcmp(s + i, "-----", 5) == 0)
			break;
	}
	if (i >= len || len - i < sizeof(sig) - 1 ||
	    memcmp(s + i, sig, sizeof(sig) - 1) != 0) {
		snprintf(why, whylen, "the clearsigned text holds an armor "
			 "line other than its signature's");
		return -1;
	}
	return pgp_scan_armored(s, len, i, PGP_SCAN_SIGNATURE, why, whylen);
}
