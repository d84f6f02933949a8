/* autocrypt.h -- the Autocrypt header (Autocrypt Level 1, section 2.1):
 * the key a client puts in the header of every mail it sends
 * (Thunderbird, Thunderbird for Android/K-9, Delta Chat), read; and the
 * club's own, written on its replies.
 *
 *   Autocrypt: addr=alice@example.org; [prefer-encrypt=mutual;]
 *    keydata=BASE64 (folded over lines)
 *
 * Attributes are name=value, separated by ';'.  addr and keydata must be
 * there; an unknown attribute whose name does not begin with '_' is
 * critical: the whole header is not used then; '_' attributes are
 * ignored.  The key data is binary OpenPGP (base64 here), at most
 * PGP_KEY_MAX_BYTES once decoded.  A mail with more than one Autocrypt
 * header naming its From address has none (the spec's rule).  Nothing
 * here judges the key: it is key data like any attached key, for
 * pgp_import_keys to check (pre-scan included). */
#ifndef ASHES_MAIL_AUTOCRYPT_H
#define ASHES_MAIL_AUTOCRYPT_H

#include <stdbool.h>
#include <stddef.h>

#include "util/buf.h"

struct autocrypt {
	char addr[256];
	bool prefer_mutual;	/* prefer-encrypt=mutual */
	struct buf keydata;	/* binary key packets */
};

/* Free what ac holds.  Exported, as autocrypt_parse is, for
 * tests/mail/test_crypt.c. */
void autocrypt_free(struct autocrypt *ac);

/* Parse the value of one Autocrypt header (everything after the colon,
 * folded or not) into *ac (zeroed first).  0, or -1 with the reason in
 * why (whylen bytes, the caller's) and *ac empty.  Only autocrypt_find
 * calls it in ashesd; exported so that tests/mail/test_crypt.c can try
 * each malformed value and each size limit without a header block. */
int autocrypt_parse(const char *value, size_t len, struct autocrypt *ac,
		    char *why, size_t whylen);

/* Look through the header block hdrs (len bytes; reading stops at its
 * first empty line) for the Autocrypt header of from_addr (compared
 * without regard to case).  1 with its key data appended to *keydata_r;
 * 0 when there is none (none at all, or only for other addresses); -1
 * with why when there is one for from_addr that cannot be used (broken,
 * too big, or more than one). */
int autocrypt_find(const char *hdrs, size_t len, const char *from_addr,
		   struct buf *keydata_r, char *why, size_t whylen);

/* Append an Autocrypt header line for addr carrying the binary key data
 * key (len bytes), folded at 78 columns, CRLF line ends, no
 * prefer-encrypt (the club never asks for encryption). */
void autocrypt_format(const char *addr, const void *key, size_t len,
		      struct buf *out);

#endif
