/* pgp_fixture.c -- reading the fixtures gpg-helper.sh and crypt-helper.sh
 * make in fixdir (defined by each program's main file), shared by the
 * OpenPGP test programs (test_pgp, test_crypt); see pgp_fixture.h. */
#include "pgp_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/buf.h"

char *slurp(const char *name, size_t *len_r)
{
	struct buf b = BUF_INIT;
	char path[512], chunk[8192];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", fixdir, name);
	f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "fixture %s missing", path);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_append(&b, chunk, n);
	fclose(f);
	if (len_r != NULL)
		*len_r = b.len;
	if (b.data == NULL)
		buf_puts(&b, "");
	return buf_steal(&b);
}

char *fpr_of(const char *key)
{
	char name[64];
	char *s;

	snprintf(name, sizeof(name), "fpr.%s", key);
	s = slurp(name, NULL);
	s[strcspn(s, "\n")] = '\0';
	return s;
}

void fresh_home(const char *home)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && cp -a '%s/verifier' '%s'",
		 home, fixdir, home);
	ck_assert_int_eq(system(cmd), 0);
}

struct pgp_ctx *open_home(const char *sub)
{
	struct pgp_ctx *ctx = NULL;
	const char *err = NULL;
	char home[512];

	snprintf(home, sizeof(home), "%s/%s", fixdir, sub);
	ck_assert_msg(pgp_ctx_new(home, &ctx, &err) == 0, "%s", err);
	return ctx;
}

double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}
