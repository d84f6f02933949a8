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

/* system(cmd), saying so on stderr when it fails. */
static int fixture_system(const char *prog, const char *cmd)
{
	int rc = system(cmd);

	if (rc != 0)
		fprintf(stderr, "%s: `%s` failed (%d)\n", prog, cmd, rc);
	return rc;
}

int pgp_fixture_run(Suite *s, const char *prog, const char *helper,
		    bool with_src)
{
	const char *src = getenv("ASHES_SRCDIR");
	char cmd[1024];
	int failed;

	if (src == NULL)
		src = ".";
	if (mkdtemp(fixdir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	if (with_src)
		snprintf(cmd, sizeof(cmd), "sh '%s/tests/mail/%s' '%s' '%s'",
			 src, helper, src, fixdir);
	else
		snprintf(cmd, sizeof(cmd), "sh '%s/tests/mail/%s' '%s'", src,
			 helper, fixdir);
	if (fixture_system(prog, cmd) != 0)
		return 1;
	failed = test_failures(s);
	/* the agents always go (the helper's, and those of the tests' own
	 * keyrings, home-*); the files stay when something failed */
	snprintf(cmd, sizeof(cmd), "sh '%s/tests/mail/%s' --kill '%s'; "
		 "for h in '%s'/home-*; do [ -d \"$h\" ] && gpgconf --homedir "
		 "\"$h\" --kill gpg-agent 2>/dev/null; done; true",
		 src, helper, fixdir, fixdir);
	fixture_system(prog, cmd);
	if (failed == 0) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fixdir);
		fixture_system(prog, cmd);
	} else {
		fprintf(stderr, "%s: fixtures kept in %s\n", prog, fixdir);
	}
	return failed != 0;
}
