/* sha256.h -- SHA-256 (FIPS 180-4) for the message fingerprints the mail
 * layer hands to the store: sha256 of a raw mail and of its signed content,
 * the keys of the replay history.  Kept here because no linked library
 * (GPGME, libetpan) exports a digest function.
 */
#ifndef ASHES_MAIL_SHA256_H
#define ASHES_MAIL_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_DIGEST_LEN 32
#define SHA256_HEX_LEN 64

struct sha256_ctx {
	uint32_t h[8];
	uint64_t total;
	uint8_t block[64];
	size_t fill;
};

void sha256_init(struct sha256_ctx *ctx);
void sha256_update(struct sha256_ctx *ctx, const void *data, size_t len);
void sha256_final(struct sha256_ctx *ctx, uint8_t digest_r[SHA256_DIGEST_LEN]);
/* Digest of data as 64 lower-case hex digits plus NUL in hex_r. */
void sha256_hex(const void *data, size_t len, char hex_r[SHA256_HEX_LEN + 1]);

#endif
