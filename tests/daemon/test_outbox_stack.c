/* test_outbox_stack.c -- the outbox against a real Postfix (the private
 * stack of tests/stack/mailstack, started here and stopped at exit):
 * an unknown recipient fails for good with Postfix's 5xx text (and `ashes
 * outbox list` shows it); a 4xx is retried while the batch goes on; the
 * SMTP port closed means retries with growing delays, across a restart,
 * then one delivery when Postfix is back; a batch goes over one
 * connection; a signed mail with the board arrives and gpg verifies it. */
#include "config.h"

#include <dirent.h>

#include "outbox_test.h"
#include "test_imap_stack.h"
#include "../check_run.h"

/* Delivered copies in user's Maildir (new/ and cur/) holding needle; the
 * path of the last into path_r (may be NULL). */
static int delivered(const char *user, const char *needle, char *path_r,
		     size_t len)
{
	static const char *const sub[] = { "new", "cur" };
	int count = 0;

	for (size_t i = 0; i < 2; i++) {
		char dir[PATH_MAX];
		struct dirent *de;
		DIR *d;

		snprintf(dir, sizeof(dir), "%s/mail/%s/Maildir/%s", test_stack.dir,
			 user, sub[i]);
		d = opendir(dir);
		if (d == NULL)
			continue;
		while ((de = readdir(d)) != NULL) {
			char path[PATH_MAX + 300];
			struct buf b = BUF_INIT;
			char chunk[4096];
			size_t n;
			FILE *f;

			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			f = fopen(path, "rb");
			if (f == NULL)
				continue;
			while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
				buf_append(&b, chunk, n);
			fclose(f);
			if (strstr(buf_str(&b), needle)) {
				count++;
				if (path_r)
					snprintf(path_r, len, "%s", path);
			}
			buf_free(&b);
		}
		closedir(d);
	}
	return count;
}

/* Wait up to 10 s for n delivered copies. */
static int wait_delivered(const char *user, const char *needle, int n,
			  char *path_r, size_t len)
{
	uint64_t end = test_now_ms() + 10000;
	int c;

	while ((c = delivered(user, needle, path_r, len)) < n && test_now_ms() < end)
		usleep(50000);
	return c;
}

/* Lines of Postfix's maillog holding needle. */
static int maillog_count(const char *needle)
{
	char path[PATH_MAX], line[2048];
	int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/postfix/maillog", test_stack.dir);
	f = fopen(path, "r");
	if (f == NULL)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, needle))
			n++;
	fclose(f);
	return n;
}

/* A recipient of our domain that does not exist: 5xx, failed for good,
 * with Postfix's words, visible in `ashes outbox list`. */
START_TEST(test_unknown_recipient)
{
	struct smtp_sender *s = ot_sender(test_stack.smtp_port, 10000);
	struct outbox_stats st;
	const char *error = NULL, *bdir = getenv("ASHES_BUILDDIR");
	char cmd[PATH_MAX * 2], out[8192];
	size_t n;
	int64_t id;
	FILE *p;

	id = ot_enqueue("nobody@mailstack.test", "reply", 0, 0, 1, OT_NOW);
	ck_assert_int_eq(outbox_flush(&ot.cfg, ot.store, s, NULL, ot.templates, OT_NOW,
				      &st, &error), 0);
	ck_assert_uint_eq(st.failed, 1);
	ck_assert(ot_msg(id)->failed);
	ck_assert_int_eq(ot_msg(id)->attempts, 1);
	ck_assert_msg(strncmp(ot_msg(id)->last_error, "550", 3) == 0 &&
		      strstr(ot_msg(id)->last_error, "nobody@mailstack.test"),
		      "%s", ot_msg(id)->last_error);
	/* failed for good: a later flush does not try it again */
	ck_assert_int_eq(outbox_flush(&ot.cfg, ot.store, s, NULL, ot.templates,
				      OT_NOW + 86400, &st, &error), 0);
	ck_assert_int_eq(ot_msg(id)->attempts, 1);
	smtp_sender_free(&s);

	snprintf(cmd, sizeof(cmd), "'%s/ashes' outbox list --status failed --db '%s' 2>&1",
		 bdir ? bdir : ".", ot.db);
	p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	ck_assert_int_eq(pclose(p), 0);
	ck_assert_msg(strstr(out, "nobody@mailstack.test") &&
		      strstr(out, "error: 550"), "%s", out);
	/* the row's line: id, state, attempts */
	{
		const char *l = strchr(out, '\n');
		long rid = 0;
		int tries = -1;
		char state[16] = "";

		ck_assert_ptr_nonnull(l);
		ck_assert_int_eq(sscanf(l + 1, "%ld %15s %d", &rid, state, &tries), 3);
		ck_assert_int_eq(rid, id);
		ck_assert_str_eq(state, "failed");
		ck_assert_int_eq(tries, 1);
	}
}
END_TEST

/* A 4xx for one recipient: that row waits, the batch goes on. */
START_TEST(test_tempfail_rcpt)
{
	struct smtp_sender *s = ot_sender(test_stack.smtp_port, 10000);
	struct outbox_stats st;
	const char *error = NULL;
	int64_t t, a;

	t = ot_enqueue("tempfail@mailstack.test", "reply", 0, 0, 11, OT_NOW);
	a = ot_enqueue("alice@mailstack.test", "reply", 0, 0, 12, OT_NOW);
	ck_assert_int_eq(outbox_flush(&ot.cfg, ot.store, s, NULL, ot.templates, OT_NOW,
				      &st, &error), 0);
	ck_assert(!st.server_down);
	ck_assert_uint_eq(st.retried, 1);
	ck_assert_uint_eq(st.sent, 1);
	ck_assert(!ot_msg(t)->failed);
	ck_assert_int_gt(ot_msg(t)->next_attempt_at, OT_NOW);
	ck_assert_msg(strncmp(ot_msg(t)->last_error, "451", 3) == 0, "%s",
		      ot_msg(t)->last_error);
	ck_assert_int_ne(ot_msg(a)->sent_at, 0);
	smtp_sender_free(&s);
}
END_TEST

/* Postfix away (port closed): retried with growing delays, nothing lost
 * when the daemon restarts, then sent exactly once when it is back. */
START_TEST(test_down_then_up)
{
	struct smtp_sender *s = ot_sender(ot_closed_port(), 5000);
	struct outbox_stats st;
	const char *error = NULL;
	int64_t id, now = OT_NOW, prev = 0;
	int i;

	id = ot_enqueue("alice@mailstack.test", "your-move", 21, 4, 21, now);
	for (i = 1; i <= 3; i++) {
		int64_t delay;

		ck_assert_int_eq(outbox_flush(&ot.cfg, ot.store, s, NULL, ot.templates,
					      now, &st, &error), 0);
		ck_assert(st.server_down);
		ck_assert_int_eq(ot_msg(id)->attempts, i);
		delay = ot_msg(id)->next_attempt_at - now;
		ck_assert_int_gt(delay, prev);
		prev = delay;
		now = ot_msg(id)->next_attempt_at;
		/* a restart: a new store handle sees the same row */
		store_close(&ot.store);
		ck_assert_msg(store_open(ot.db, NULL, &ot.store, &error) == 0, "%s",
			      error);
	}
	smtp_sender_free(&s);
	s = ot_sender(test_stack.smtp_port, 10000);
	ck_assert_int_eq(outbox_flush(&ot.cfg, ot.store, s, NULL, ot.templates,
				      now - 1, &st, &error), 0);
	ck_assert_uint_eq(st.sent, 0); /* not before its time */
	ck_assert_int_eq(outbox_flush(&ot.cfg, ot.store, s, NULL, ot.templates, now,
				      &st, &error), 0);
	ck_assert_uint_eq(st.sent, 1);
	ck_assert_int_eq(ot_msg(id)->attempts, 4);
	ck_assert_int_eq(ot_msg(id)->sent_at, now);
	ck_assert_int_eq(outbox_flush(&ot.cfg, ot.store, s, NULL, ot.templates,
				      now + 86400, &st, &error), 0);
	ck_assert_uint_eq(st.sent, 0);
	smtp_sender_free(&s);
	ck_assert_int_eq(wait_delivered("alice", "<ashes.21.4.7.21@" OT_DOMAIN ">",
					1, NULL, 0), 1);
	usleep(300000); /* a second copy would be here by now */
	ck_assert_int_eq(delivered("alice", "<ashes.21.4.7.21@" OT_DOMAIN ">",
				   NULL, 0), 1);
}
END_TEST

/* Four mails, one SMTP connection (Postfix's log counts them). */
START_TEST(test_batch_one_connection)
{
	struct smtp_sender *s;
	struct outbox_stats st;
	const char *error = NULL;
	int before, after, disc, i;
	uint64_t end;

	/* settle what earlier tests left in the log */
	usleep(300000);
	before = maillog_count(" connect from ");
	disc = maillog_count(" disconnect from ");
	for (i = 0; i < 4; i++)
		ot_enqueue(i % 2 ? "alice@mailstack.test" : "bob@mailstack.test",
			   "your-move", 31, i, 31 + i, OT_NOW);
	s = ot_sender(test_stack.smtp_port, 10000);
	ck_assert_int_eq(outbox_flush(&ot.cfg, ot.store, s, NULL, ot.templates, OT_NOW,
				      &st, &error), 0);
	ck_assert_uint_eq(st.sent, 4);
	smtp_sender_free(&s); /* QUIT: smtpd logs the disconnect */
	end = test_now_ms() + 5000;
	while (maillog_count(" disconnect from ") == disc && test_now_ms() < end)
		usleep(50000);
	usleep(200000);
	after = maillog_count(" connect from ");
	ck_assert_int_eq(after - before, 1);
	ck_assert_int_eq(maillog_count(" disconnect from ") - disc, 1);
	ck_assert_int_eq(wait_delivered("bob", "<ashes.31.2.7.33@" OT_DOMAIN ">", 1,
					NULL, 0), 1);
}
END_TEST

/* A signed mail with the board, as delivered: gpg verifies it, the html
 * and the text survive transport, and so does a PNG picture. */
START_TEST(test_signed_delivered)
{
	struct smtp_sender *s = ot_sender(test_stack.smtp_port, 10000);
	struct outbox_stats st;
	struct pgp_ctx *pgp = NULL;
	const char *error = NULL;
	char fpr[64], path[PATH_MAX + 300], file[PATH_MAX + 300];
	char svg[PATH_MAX + 64], args[16384];

	ot_gpg_key(fpr, sizeof(fpr));
	ck_assert_int_eq(pgp_ctx_new(ot.gnupghome, &pgp, &error), 0);
	ot.cfg.gpg.sign_replies = true;
	ot.cfg.gpg.signing_key = strdup(fpr);
	ot_enqueue("alice@mailstack.test", "observer", 41, 6, 41, OT_NOW);
	ck_assert_int_eq(outbox_flush(&ot.cfg, ot.store, s, pgp, ot.templates, OT_NOW,
				      &st, &error), 0);
	ck_assert_uint_eq(st.sent, 1);
	ck_assert_int_eq(wait_delivered("alice", "<ashes.41.6.7.41@" OT_DOMAIN ">",
					1, path, sizeof(path)), 1);
	/* the delivered file's name changes if Dovecot moves it; copy it */
	snprintf(file, sizeof(file), "%s", ot_write("delivered.eml", "", 0));
	ck_assert_int_eq(ot_shell("cp '%s' '%s'", path, file), 0);
	snprintf(svg, sizeof(svg), "%s", ot_write("board.svg", OT_SVG, strlen(OT_SVG)));
	snprintf(args, sizeof(args),
		 "--signed %s '%s' --html '%s' --date %" PRId64
		 " --header 'List-Unsubscribe=<mailto:" OT_FROM "?subject=unobserve%%20%"
		 PRId64 "&body=unobserve%%20%" PRId64 ">'"
		 " --headers From,To,Reply-To,Subject,Date,Message-ID,Auto-Submitted,"
		 "X-Loop,MIME-Version,Content-Type,List-Unsubscribe",
		 fpr, ot.gnupghome, svg, OT_NOW, ot.game, ot.game);
	ck_assert_int_eq(ot_check_mail(file, args), 0);

	/* a PNG picture (binary, base64) arrives as the same bytes */
	{
		struct ot_row r;
		char png[PATH_MAX + 64];

		ot_row_named(&r, "alice@mailstack.test", "your-move",
			     ot_store_game(), 7, 41, 42);
		ot_row_png(&r);
		ck_assert_msg(store_outbox_enqueue(ot.store, &r.m, OT_NOW, NULL,
						   &error) == 0, "%s", error);
		ot_row_free(&r);
		ck_assert_int_eq(outbox_flush(&ot.cfg, ot.store, s, pgp, ot.templates, OT_NOW,
					      &st, &error), 0);
		ck_assert_uint_eq(st.sent, 1);
		ck_assert_int_eq(wait_delivered("alice",
						"<ashes.41.7.7.42@" OT_DOMAIN ">", 1,
						path, sizeof(path)), 1);
		snprintf(file, sizeof(file), "%s",
			 ot_write("delivered-png.eml", "", 0));
		ck_assert_int_eq(ot_shell("cp '%s' '%s'", path, file), 0);
		snprintf(png, sizeof(png), "%s",
			 ot_write("board.png", OT_PNG, OT_PNG_LEN));
		snprintf(args, sizeof(args),
			 "--signed %s '%s' --html '%s' --image-type image/png",
			 fpr, ot.gnupghome, png);
		ck_assert_int_eq(ot_check_mail(file, args), 0);
	}
	pgp_ctx_free(&pgp);
	smtp_sender_free(&s);
}
END_TEST

/* Trouble that is ours or the server's, not a message's (a wrong
 * password, a certificate we do not trust): the row is kept for a retry,
 * and the rest of the batch does not spend attempts on it. */
START_TEST(test_setup_trouble_stops_batch)
{
	struct smtp_settings set = {
		.host = "localhost",
		.port = test_stack.smtp_port,
		.security = SMTP_STARTTLS_REQUIRED,
		.ca_file = test_stack.ca_file,
		.user = "bob",
		.password = "wrong-secret",
		.timeout_ms = 10000,
	};
	struct smtp_sender *s = NULL;
	struct outbox_stats st;
	const char *error = NULL;
	int64_t a, b;

	a = ot_enqueue("alice@mailstack.test", "reply", 0, 0, 51, OT_NOW);
	b = ot_enqueue("bob@mailstack.test", "reply", 0, 0, 52, OT_NOW);
	for (int round = 0; round < 2; round++) {
		int64_t now = OT_NOW + round * 86400;

		if (round == 1) {
			/* certificate verification on by default: no CA */
			set.ca_file = NULL;
			set.user = set.password = NULL;
		}
		ck_assert_int_eq(smtp_sender_new(&set, &s, &error), 0);
		ck_assert_int_eq(outbox_flush(&ot.cfg, ot.store, s, NULL, ot.templates,
					      now, &st, &error), 0);
		ck_assert(st.server_down);
		ck_assert_uint_eq(st.retried, 1);
		ck_assert_uint_eq(st.sent + st.failed, 0);
		ck_assert_int_eq(ot_msg(a)->attempts + ot_msg(b)->attempts, round + 1);
		ck_assert(!ot_msg(a)->failed && !ot_msg(b)->failed);
		smtp_sender_free(&s);
	}
	ck_assert_ptr_null(strstr(ot_msg(a)->last_error ? ot_msg(a)->last_error : "",
				  "wrong-secret"));
}
END_TEST

int main(void)
{
	Suite *su = suite_create("outbox_stack");
	TCase *tc = tcase_create("postfix");
	int failed;

	test_stack_start(NULL);
	tcase_add_checked_fixture(tc, ot_setup, ot_teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_unknown_recipient);
	tcase_add_test(tc, test_tempfail_rcpt);
	tcase_add_test(tc, test_down_then_up);
	tcase_add_test(tc, test_batch_one_connection);
	tcase_add_test(tc, test_signed_delivered);
	tcase_add_test(tc, test_setup_trouble_stops_batch);
	suite_add_tcase(su, tc);
	failed = test_failures(su);
	if (test_stack_stop() < 0)
		failed++;
	return failed != 0;
}
