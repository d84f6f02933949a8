/* reply_id.c -- the reply Message-IDs' key and tokens; see reply_id.h. */
#include <config.h>

#include "daemon/reply_id.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>

static char reply_id_error[4400];

/* Read exactly REPLY_ID_KEY_BYTES from path into key: 1, 0 if the file
 * is missing, -1 (error set). */
static int reply_id_read(const char *path, struct reply_id_key *key)
{
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);

	if (fd < 0) {
		if (errno == ENOENT)
			return 0;
		snprintf(reply_id_error, sizeof(reply_id_error), "%s: %s",
			 path, strerror(errno));
		return -1;
	}
	n = read(fd, key->key, sizeof(key->key));
	close(fd);
	if (n != (ssize_t)sizeof(key->key)) {
		snprintf(reply_id_error, sizeof(reply_id_error),
			 "%s: not a key of %d bytes", path, REPLY_ID_KEY_BYTES);
		return -1;
	}
	return 1;
}

/* A new key at path (exclusively: a daemon starting beside us may make
 * it first, then that one is read).  1, or -1 (error set). */
static int reply_id_make(const char *path, struct reply_id_key *key)
{
	int fd;

	if (getrandom(key->key, sizeof(key->key), 0) !=
	    (ssize_t)sizeof(key->key)) {
		snprintf(reply_id_error, sizeof(reply_id_error),
			 "no random bytes for %s", path);
		return -1;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
		  0600);
	if (fd < 0) {
		if (errno == EEXIST)
			return reply_id_read(path, key);
		snprintf(reply_id_error, sizeof(reply_id_error), "%s: %s",
			 path, strerror(errno));
		return -1;
	}
	if (write(fd, key->key, sizeof(key->key)) !=
	    (ssize_t)sizeof(key->key) || fsync(fd) < 0) {
		snprintf(reply_id_error, sizeof(reply_id_error),
			 "cannot write %s", path);
		close(fd);
		unlink(path);
		return -1;
	}
	close(fd);
	return 1;
}

int reply_id_key_load(const char *gpg_home, struct reply_id_key **key_r,
		      const char **error_r)
{
	char path[4096];
	struct reply_id_key *key;
	int r;

	*key_r = NULL;
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", gpg_home,
			     REPLY_ID_KEY_FILE) >= sizeof(path)) {
		*error_r = "gpg home path too long";
		return -1;
	}
	key = calloc(1, sizeof(*key));
	if (key == NULL) {
		*error_r = "out of memory";
		return -1;
	}
	r = reply_id_read(path, key);
	if (r == 0)
		r = reply_id_make(path, key);
	if (r < 0) {
		reply_id_key_free(&key);
		*error_r = reply_id_error;
		return -1;
	}
	*key_r = key;
	return 0;
}

void reply_id_key_free(struct reply_id_key **key)
{
	if (*key != NULL) {
		explicit_bzero((*key)->key, sizeof((*key)->key));
		free(*key);
	}
	*key = NULL;
}

int reply_id_token(void *ctx, const char *mail_sha256, int kind, int seq,
		   char hex[17])
{
	const struct reply_id_key *key = ctx;
	unsigned char digest[32];
	char data[160];
	int len;

	len = snprintf(data, sizeof(data), "ashes-reply%c%.64s%c%d%c%d", 0,
		       mail_sha256, 0, kind, 0, seq);
	if (len < 0 || (size_t)len >= sizeof(data) ||
	    gnutls_hmac_fast(GNUTLS_MAC_SHA256, key->key, sizeof(key->key),
			     data, (size_t)len, digest) < 0)
		return -1;
	for (int i = 0; i < 8; i++)
		snprintf(hex + 2 * i, 3, "%02x", digest[i]);
	return 0;
}

bool reply_id_token_of(const char *id, size_t len, char out[17])
{
	const char *at, *dot;
	size_t n;

	if (len > 0 && id[0] == '<') {
		id++;
		len--;
	}
	if (len < 6 || strncmp(id, "ashes.", 6) != 0)
		return false;
	at = memchr(id, '@', len);
	if (at == NULL)
		return false;
	dot = at;
	while (dot > id && dot[-1] != '.')
		dot--;
	n = (size_t)(at - dot);
	if (n != 16)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((dot[i] >= '0' && dot[i] <= '9') ||
		      (dot[i] >= 'a' && dot[i] <= 'f')))
			return false;
	memcpy(out, dot, 16);
	out[16] = '\0';
	return true;
}
