/* bench_verify.c -- the cost of reading one signed mail: the median time
 * of one gpgme_op_verify (through pgp_time_verify), and how many signed
 * PGP/MIME mails inbound_parse handles per second (parse, decode, verify),
 * side by side, so the parsing overhead over gpg itself is visible.
 * Makes a throw-away ed25519 key in a temp GNUPGHOME with gpg. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mail/inbound.h"
#include "mail/pgp.h"
#include "util/buf.h"

#define VERIFY_ROUNDS 101
#define PARSE_ROUNDS 200

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(void)
{
	static double each[PARSE_ROUNDS];
	char home[] = "/tmp/ashes-bench-pgp-XXXXXX";
	char cmd[1024], fpr[PGP_FPR_MAX + 1] = "";
	struct pgp_ctx *ctx = NULL;
	struct buf sig = BUF_INIT, mail = BUF_INIT;
	const char *err = NULL;
	static const char part[] = "Content-Type: text/plain; charset=utf-8\n\n"
				   "move 12 a1-b2\n";
	double median, t0, t1;
	int i, ret = 1;
	FILE *p;

	if (mkdtemp(home) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(cmd, sizeof(cmd),
		 "gpg --homedir %s --batch --quiet --pinentry-mode loopback "
		 "--passphrase '' --quick-gen-key 'Bench <bench@example.org>' "
		 "ed25519 sign never 2>/dev/null && gpg --homedir %s "
		 "--with-colons --list-keys bench@example.org 2>/dev/null | "
		 "awk -F: '/^fpr/ { print $10; exit }'", home, home);
	p = popen(cmd, "r");
	if (p == NULL || fgets(fpr, sizeof(fpr), p) == NULL) {
		fprintf(stderr, "bench_verify: cannot make a key with gpg\n");
		if (p != NULL)
			pclose(p);
		goto out;
	}
	pclose(p);
	fpr[strcspn(fpr, "\n")] = '\0';
	if (pgp_ctx_new(home, &ctx, &err) < 0 ||
	    pgp_sign_detached(ctx, fpr, "move 12 a1-b2\r\n", 15, &sig, &err) < 0 ||
	    pgp_time_verify(ctx, "move 12 a1-b2\r\n", 15, sig.data, sig.len,
			    VERIFY_ROUNDS, &median, &err) < 0)
		goto fail;

	buf_puts(&mail, "From: Bench <bench@example.org>\r\nTo: ashes@club.example\r\n"
		 "Subject: game 1\r\nMessage-ID: <b1@example.org>\r\nMIME-Version: 1.0\r\n");
	if (pgp_mime_sign(ctx, fpr, part, strlen(part), &mail, &err) < 0)
		goto fail;
	t0 = now_s();
	for (i = 0; i < PARSE_ROUNDS; i++) {
		struct inbound_options o = { .now = time(NULL), .pgp = ctx };
		struct inbound_msg *m = NULL;
		double p0 = now_s();

		if (inbound_parse(mail.data, mail.len, &o, &m, &err) < 0)
			goto fail;
		if (!inbound_msg_signature_ok(m)) {
			err = "the benchmark mail does not verify";
			inbound_msg_free(&m);
			goto fail;
		}
		inbound_msg_free(&m);
		each[i] = now_s() - p0;
	}
	t1 = now_s();
	qsort(each, PARSE_ROUNDS, sizeof(each[0]), cmp_double);
	printf("gpgme_op_verify (median of %d): %.2f ms  = %.0f verifications/s\n",
	       VERIFY_ROUNDS, median * 1e3, 1.0 / median);
	printf("inbound_parse signed PGP/MIME mail (%d): %.2f ms each = %.0f mails/s"
	       "  (%.2fx the verification alone)\n", PARSE_ROUNDS,
	       (t1 - t0) / PARSE_ROUNDS * 1e3, PARSE_ROUNDS / (t1 - t0),
	       (t1 - t0) / PARSE_ROUNDS / median);
	/* the machine may be shared: medians compare like with like */
	printf("inbound_parse median: %.2f ms = %.2fx the median verification\n",
	       each[PARSE_ROUNDS / 2] * 1e3, each[PARSE_ROUNDS / 2] / median);
	ret = 0;
	goto out;
fail:
	fprintf(stderr, "bench_verify: %s\n", err ? err : "failed");
out:
	pgp_ctx_free(&ctx);
	buf_free(&sig);
	buf_free(&mail);
	snprintf(cmd, sizeof(cmd), "gpgconf --homedir %s --kill gpg-agent 2>/dev/null; "
		 "rm -rf %s", home, home);
	if (system(cmd) != 0)
		fprintf(stderr, "bench_verify: cleanup of %s failed\n", home);
	return ret;
}
