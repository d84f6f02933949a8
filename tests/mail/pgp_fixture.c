/* pgp_fixture.c -- reading the fixtures gpg-helper.sh and crypt-helper.sh
 * make in fixdir (defined by each program's main file), shared by the
 * OpenPGP test programs (test_pgp, test_crypt); see pgp_fixture.h. */
#include "pgp_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "mail/inbound.h"
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

/* The header block of the reduced mail holds nothing but the thread
 * lines and its own MIME fields. */
static void only_mime_headers(const char *mail, const char *thread,
			      const char *file)
{
	const char *p = mail;

	if (thread != NULL && strncmp(p, thread, strlen(thread)) == 0)
		p += strlen(thread);
	while (*p != '\0' && *p != '\r' && *p != '\n') {
		ck_assert_msg(strncasecmp(p, "MIME-Version:", 13) == 0 ||
			      strncasecmp(p, "Content-Type:", 13) == 0 ||
			      strncasecmp(p, "Content-Transfer-Encoding:",
					  26) == 0 || *p == ' ' || *p == '\t',
			      "%s reduced keeps a header: %.40s", file, p);
		p = strchr(p, '\n');
		if (p == NULL)
			break;
		p++;
	}
}

enum pgp_reduced_kind reduce_check(struct pgp_ctx *ctx, const char *name,
				   const char *thread)
{
	struct inbound_options o = { .now = time(NULL), .pgp = ctx };
	struct inbound_msg *m = NULL, *r = NULL;
	struct buf out = BUF_INIT, again = BUF_INIT;
	enum pgp_reduced_kind kind, kind2;
	const char *err = NULL;
	size_t len;
	char *raw = slurp(name, &len);

	ck_assert_msg(inbound_parse(raw, len, &o, &m, &err) == 0, "%s: %s",
		      name, err);
	ck_assert_msg(pgp_reduce_mail(raw, len, thread, m->text, &out, &kind,
				      &err) == 0, "%s: %s", name, err);
	ck_assert_msg(out.len < len + 512, "%s: %zu bytes reduced to %zu",
		      name, len, out.len);
	only_mime_headers(out.data, thread, name);
	if (thread != NULL)
		ck_assert_msg(strncmp(out.data, thread, strlen(thread)) == 0,
			      "%s: the thread lines are not first", name);
	/* read as the original is read: the same signer, text and
	 * signed digest (the replay history's key) */
	ck_assert_msg(inbound_parse(out.data, out.len, &o, &r, &err) == 0,
		      "%s reduced: %s", name, err);
	ck_assert_msg(r->sig.status == m->sig.status, "%s reduced: %s, was %s",
		      name, pgp_sig_status_name(r->sig.status),
		      pgp_sig_status_name(m->sig.status));
	ck_assert_int_eq(r->sig_kind, m->sig_kind);
	ck_assert_str_eq(r->sig.fpr, m->sig.fpr);
	ck_assert_str_eq(r->text != NULL ? r->text : "",
			 m->text != NULL ? m->text : "");
	ck_assert_str_eq(r->signed_sha256 != NULL ? r->signed_sha256 : "",
			 m->signed_sha256 != NULL ? m->signed_sha256 : "");
	/* and a reduced mail is its own reduction */
	ck_assert_int_eq(pgp_reduce_mail(out.data, out.len, NULL, r->text,
					 &again, &kind2, &err), 0);
	ck_assert_int_eq(kind2, kind);
	ck_assert_msg(again.len + (thread != NULL ? strlen(thread) : 0) ==
		      out.len && memcmp(again.data, out.data + out.len -
					again.len, again.len) == 0,
		      "%s: reducing it again changed it", name);
	inbound_msg_free(&m);
	inbound_msg_free(&r);
	buf_free(&out);
	buf_free(&again);
	free(raw);
	return kind;
}
