/* reply_id.h -- the key that makes the daemon's reply Message-IDs the
 * same when a mail is handled again after a restore (server.h's
 * reply_token), and reading a reply's token back out of its Message-ID.
 *
 * The key is 32 random bytes in REPLY_ID_KEY_FILE inside the daemon's
 * GNUPGHOME (mode 0600, made on the first start; `ashes db backup` copies
 * it with the keys).  A token is the first 8 bytes of HMAC-SHA256(key,
 * "ashes-reply\0" mail-sha256 "\0" kind "\0" seq) in hex (GnuTLS's
 * gnutls_hmac_fast): the same mail, kind and number give the same token,
 * and without the key nobody can compute one (a forged delivery report
 * must still name a mail we really sent).
 */
#ifndef ASHES_DAEMON_REPLY_ID_H
#define ASHES_DAEMON_REPLY_ID_H

#include <stdbool.h>
#include <stddef.h>

#define REPLY_ID_KEY_FILE "ashesd-reply-id.key"
#define REPLY_ID_KEY_BYTES 32

struct reply_id_key {
	unsigned char key[REPLY_ID_KEY_BYTES];
};

/* The key of gpg_home (an existing folder), made there if missing.
 * Returns 0 and *key_r (free with reply_id_key_free), or -1 with
 * *error_r (static). */
int reply_id_key_load(const char *gpg_home, struct reply_id_key **key_r,
		      const char **error_r);
void reply_id_key_free(struct reply_id_key **key);

/* server_config.reply_token with ctx a struct reply_id_key. */
int reply_id_token(void *ctx, const char *mail_sha256, int kind, int seq,
		   char hex[17]);

/* The token of one of our Message-IDs ("ashes.G.P.I.S.TOKEN@domain",
 * with or without <>): true and out, false when id has none. */
bool reply_id_token_of(const char *id, size_t len, char out[17]);

#endif
