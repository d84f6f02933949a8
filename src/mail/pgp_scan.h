/* pgp_scan.h -- the shape check of an OpenPGP blob a stranger sent,
 * before gpg sees it (as mime_limits.c checks a mail's MIME before
 * libetpan does).
 *
 * gpg expands a compressed packet before it can say a signature is bad,
 * and walks every packet it is given: a 3 KB signature holding nested
 * compressed packets (tag 8) of a terabyte of zeros keeps it busy for
 * hours, one holding thousands of signature packets for seconds.  The
 * scan dearmors the blob itself (base64, CRC-24 checked when present),
 * reads every packet header (old and new format) and refuses, with a
 * reason, what the kind of blob never needs: a detached signature is
 * signature packets only (at most PGP_SCAN_MAX_SIGS), a key block only
 * key, subkey, user ID, attribute and signature packets.  Marker,
 * trust and padding packets are harmless and skipped.  Partial and
 * indeterminate lengths are legal only on data packets, which neither
 * kind may hold: refused.  Linear in the blob, no allocation beyond one
 * copy of its decoded bytes.
 */
#ifndef ASHES_MAIL_PGP_SCAN_H
#define ASHES_MAIL_PGP_SCAN_H

#include <stddef.h>

enum pgp_scan_kind {
	PGP_SCAN_SIGNATURE,	/* a detached signature */
	PGP_SCAN_KEYS,		/* public keys, revocation certificates */
	/* an encrypted message: session key packets, then one encrypted
	 * data packet (which alone may have a partial length).  What is
	 * inside is not seen here: its bound is the budget and the cap on
	 * the decrypted output (pgp_decrypt). */
	PGP_SCAN_ENCRYPTED,
	/* a signed message (gpg --sign; what the archive keeps of a one-pass
	 * signed and encrypted mail): one-pass signature, literal or
	 * compressed data (which alone may have a partial length and is
	 * not looked into: the budget and an output cap bound it),
	 * signature packets */
	PGP_SCAN_SIGNED_MESSAGE,
};

/* The most signature packets a detached signature (or a clearsigned
 * block's) may hold: a mail client writes one. */
#define PGP_SCAN_MAX_SIGS 8

/* The most packets of key data: a player's key is a handful, an
 * archive's keys.asc a few players' keys. */
#define PGP_SCAN_MAX_KEY_PACKETS 4096

/* Check the blob data of len bytes, armored (every armor block in it,
 * also one guarded by a leading ':' as gpg keeps revocations) or binary,
 * as kind says.  0 when it may go to gpg; -1 with the reason in why
 * (whylen bytes, the caller's). */
int pgp_scan(const void *data, size_t len, enum pgp_scan_kind kind,
	     char *why, size_t whylen);

/* Check a clearsigned block (from its BEGIN PGP SIGNED MESSAGE line to
 * its END PGP SIGNATURE line): no armor line in the text, and the
 * signature armor after it as pgp_scan(PGP_SCAN_SIGNATURE) does. */
int pgp_scan_clearsigned(const void *data, size_t len, char *why,
			 size_t whylen);

#endif
