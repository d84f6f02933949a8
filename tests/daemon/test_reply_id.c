/* test_reply_id.c -- the key of the daemon's reply Message-IDs
 * (daemon/reply_id.h): made once in the gpg home, mode 0600, read back the
 * same; a token is HMAC-SHA256 of the answered mail, the kind and the
 * number (a known answer, computed apart with Python's hmac), differs with
 * any of them and with the key; and the token is found back in our
 * Message-IDs and in nothing else. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/reply_id.h"
#include "../check_run.h"

static char home[64];

static void setup(void)
{
	snprintf(home, sizeof(home), "/tmp/ashes-replyid-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(home));
}

static void teardown(void)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/%s", home, REPLY_ID_KEY_FILE);
	unlink(path);
	rmdir(home);
}

START_TEST(test_key_made_once)
{
	struct reply_id_key *a = NULL, *b = NULL;
	const char *err = NULL;
	char path[128];
	struct stat sb;

	ck_assert_int_eq(reply_id_key_load(home, &a, &err), 0);
	snprintf(path, sizeof(path), "%s/%s", home, REPLY_ID_KEY_FILE);
	ck_assert_int_eq(stat(path, &sb), 0);
	ck_assert_int_eq(sb.st_mode & 0777, 0600);
	ck_assert_int_eq(sb.st_size, REPLY_ID_KEY_BYTES);
	ck_assert_int_eq(reply_id_key_load(home, &b, &err), 0);
	ck_assert_mem_eq(a->key, b->key, REPLY_ID_KEY_BYTES);
	reply_id_key_free(&a);
	reply_id_key_free(&b);
	ck_assert_ptr_null(a);
	/* a file that is no key is refused, not replaced */
	ck_assert_int_eq(truncate(path, 5), 0);
	ck_assert_int_eq(reply_id_key_load(home, &a, &err), -1);
	ck_assert_ptr_nonnull(strstr(err, "not a key"));
	ck_assert_ptr_null(a);
}
END_TEST

START_TEST(test_token)
{
	struct reply_id_key k, other;
	char sha[65], t[17], u[17];

	for (int i = 0; i < REPLY_ID_KEY_BYTES; i++) {
		k.key[i] = (unsigned char)i;
		other.key[i] = (unsigned char)(i + 1);
	}
	memset(sha, 'a', 64);
	sha[64] = '\0';
	ck_assert_int_eq(reply_id_token(&k, sha, 3, 1, t), 0);
	ck_assert_str_eq(t, "6d46b5cb9675ff12");
	ck_assert_int_eq(reply_id_token(&k, sha, 3, 1, u), 0);
	ck_assert_str_eq(t, u);
	ck_assert_int_eq(reply_id_token(&k, sha, 3, 2, u), 0);
	ck_assert_str_ne(t, u);
	ck_assert_int_eq(reply_id_token(&k, sha, 4, 1, u), 0);
	ck_assert_str_ne(t, u);
	ck_assert_int_eq(reply_id_token(&other, sha, 3, 1, u), 0);
	ck_assert_str_ne(t, u);
	sha[0] = 'b';
	ck_assert_int_eq(reply_id_token(&k, sha, 3, 1, u), 0);
	ck_assert_str_ne(t, u);
}
END_TEST

START_TEST(test_token_of)
{
	static const char *const no[] = {
		"<other.1.2.3.0.0123456789abcdef@d>",
		"<ashes.1.2.3.0.0123456789abcde@d>",
		"<ashes.1.2.3.0.0123456789ABCDEF@d>",
		"<ashes.1.2.3.0.0123456789abcdef0@d>",
		"ashes.1.2.3.0.0123456789abcdef",
		"", NULL,
	};
	const char *id = "<ashes.12.3.40.1.0123456789abcdef@club.example>";
	char t[17];

	ck_assert(reply_id_token_of(id, strlen(id), t));
	ck_assert_str_eq(t, "0123456789abcdef");
	ck_assert(reply_id_token_of(id + 1, strlen(id) - 2, t));
	ck_assert_str_eq(t, "0123456789abcdef");
	for (size_t i = 0; no[i] != NULL; i++)
		ck_assert_msg(!reply_id_token_of(no[i], strlen(no[i]), t),
			      "%s", no[i]);
}
END_TEST

TEST_MAIN("reply_id", "reply_id", setup, teardown, 0, test_key_made_once,
	  test_token, test_token_of)
