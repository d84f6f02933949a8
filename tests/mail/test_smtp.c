/* test_smtp.c -- the libcurl SMTP sender against a real Postfix (from
 * tests/stack/mailstack, started here and stopped at exit): bytes arrive
 * unchanged, one connection per batch, and each failure is classified. */
#include "config.h"

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "mail/smtp.h"
#include "test_imap_stack.h"
#include "util/buf.h"
#include "../check_run.h"

static struct smtp_settings plain_settings(void)
{
	struct smtp_settings set = {
		.host = "127.0.0.1",
		.port = test_stack.smtp_port,
		.security = SMTP_PLAIN,
		.timeout_ms = 10000,
	};
	return set;
}

static struct smtp_sender *new_sender(const struct smtp_settings *set)
{
	struct smtp_sender *s = NULL;
	const char *error = NULL;

	ck_assert_msg(smtp_sender_new(set, &s, &error) == 0, "%s", error);
	return s;
}

static enum smtp_result send_one(struct smtp_sender *s, const char *to,
				 const char *msg, const char **reply_r,
				 int *code_r)
{
	const char *rcpts[1] = { to };

	return smtp_send(s, "bob@mailstack.test", rcpts, 1, msg, strlen(msg),
			 reply_r, code_r);
}

static char *slurp(const char *path, size_t *len_r)
{
	FILE *f = fopen(path, "rb");
	struct buf b = BUF_INIT;
	char chunk[4096];
	size_t n;

	ck_assert_ptr_nonnull(f);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_append(&b, chunk, n);
	fclose(f);
	*len_r = b.len;
	return buf_steal(&b);
}

/* The only file in a maildir's new/ folder, read whole. */
static char *only_new_message(const char *user, size_t *len_r)
{
	char dir[600], path[1000];
	struct dirent *de;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/mail/%s/Maildir/new", test_stack.dir,
		 user);
	ck_assert_int_eq(test_wait_files(dir, 1, 5000), 1);
	d = opendir(dir);
	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d)) != NULL && de->d_name[0] == '.')
		;
	ck_assert_ptr_nonnull(de);
	snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
	closedir(d);
	return slurp(path, len_r);
}

START_TEST(test_bytes_arrive_unchanged)
{
	struct smtp_settings set = plain_settings();
	struct smtp_sender *s = new_sender(&set);
	struct buf msg = BUF_INIT, want = BUF_INIT;
	const char *reply;
	char *got;
	size_t got_len, i;
	int code;

	buf_puts(&msg, "From: bob@mailstack.test\r\n"
		 "To: alice@mailstack.test\r\n"
		 "Subject: bytes\r\n"
		 "Message-ID: <bytes@test>\r\n"
		 "Date: Sun, 29 Nov 2026 12:00:00 +0000\r\n"
		 "MIME-Version: 1.0\r\n"
		 "Content-Type: text/plain; charset=utf-8\r\n"
		 "Content-Transfer-Encoding: 8bit\r\n"
		 "\r\n"
		 ".a line starting with a dot\r\n"
		 "..two dots\r\n"
		 ".\r\n"
		 "trailing spaces   \r\n"
		 "h\xc3\xa9llo, 8 bits\r\n"
		 "-----BEGIN PGP SIGNATURE-----\r\n");
	for (i = 0; i < 900; i++)
		buf_putc(&msg, (char)('a' + i % 26));
	buf_puts(&msg, "\r\nlast line\r\n");
	ck_assert_int_eq(send_one(s, "alice@mailstack.test", buf_str(&msg),
				  &reply, &code), SMTP_SENT);
	ck_assert_int_eq(code, 250);
	ck_assert_msg(strncmp(reply, "250", 3) == 0, "%s", reply);
	smtp_sender_free(&s);
	ck_assert_ptr_null(s);

	/* Dovecot stores LF line ends, after its own trace headers. */
	for (i = 0; i < msg.len; i++) {
		if (msg.data[i] != '\r')
			buf_putc(&want, msg.data[i]);
	}
	got = only_new_message("alice", &got_len);
	ck_assert_uint_ge(got_len, want.len);
	ck_assert_msg(memcmp(got + got_len - want.len, want.data,
			     want.len) == 0, "delivered bytes differ:\n%s", got);
	free(got);
	buf_free(&msg);
	buf_free(&want);
}
END_TEST

/* Count lines of Postfix's log containing s. */
static int maillog_count(const char *s)
{
	char path[600], line[2000];
	FILE *f;
	int n = 0;

	snprintf(path, sizeof(path), "%s/postfix/maillog", test_stack.dir);
	f = fopen(path, "r");
	if (f == NULL)
		return 0;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (strstr(line, s) != NULL)
			n++;
	}
	fclose(f);
	return n;
}

START_TEST(test_batch_uses_one_connection)
{
	struct smtp_settings set = plain_settings();
	struct smtp_sender *s;
	const char *reply;
	const char *msg = "From: bob@mailstack.test\r\nSubject: batch\r\n\r\n"
			  "batch\r\n";
	/* One EHLO for three messages, the third refused (libcurl then
	 * closes the connection: the fourth opens a new one). */
	const char *stats = "ehlo=1 mail=3 rcpt=2/3 data=2 quit=1";
	uint64_t end;
	int code;

	set.helo_name = "batch.test";
	s = new_sender(&set);
	ck_assert_int_eq(send_one(s, "bob@mailstack.test", msg, &reply, &code),
			 SMTP_SENT);
	ck_assert_int_eq(send_one(s, "bob@mailstack.test", msg, &reply, &code),
			 SMTP_SENT);
	/* A refused recipient in the middle does not end the batch. */
	ck_assert_int_eq(send_one(s, "nobody@mailstack.test", msg, &reply,
				  &code), SMTP_PERMFAIL);
	ck_assert_int_eq(send_one(s, "bob@mailstack.test", msg, &reply, &code),
			 SMTP_SENT);
	smtp_sender_free(&s);
	/* Postfix logs one line per connection with its command counts. */
	end = test_now_ms() + 3000;
	while (maillog_count(stats) == 0 && test_now_ms() < end)
		usleep(20000);
	ck_assert_msg(maillog_count(stats) == 1,
		      "no single connection with %s in the maillog", stats);
}
END_TEST

START_TEST(test_failures_are_classified)
{
	struct smtp_settings set = plain_settings();
	struct smtp_sender *s = new_sender(&set);
	const char *reply;
	const char *msg = "Subject: fail\r\n\r\nfail\r\n";
	int code;

	/* Unknown recipient of our domain: 550 at RCPT time. */
	ck_assert_int_eq(send_one(s, "nobody@mailstack.test", msg, &reply,
				  &code), SMTP_PERMFAIL);
	ck_assert_int_eq(code, 550);
	ck_assert_msg(strstr(reply, "550") && strstr(reply, "nobody@"), "%s",
		      reply);
	/* Relaying elsewhere is refused: 554. */
	ck_assert_int_eq(send_one(s, "someone@example.org", msg, &reply,
				  &code), SMTP_PERMFAIL);
	ck_assert_int_eq(code / 100, 5);
	ck_assert_int_eq(send_one(s, "permfail@mailstack.test", msg, &reply,
				  &code), SMTP_PERMFAIL);
	ck_assert_int_eq(code, 554);
	ck_assert_msg(strstr(reply, "permanent failure on purpose"), "%s",
		      reply);
	/* A 4xx reply is temporary. */
	ck_assert_int_eq(send_one(s, "tempfail@mailstack.test", msg, &reply,
				  &code), SMTP_TEMPFAIL);
	ck_assert_int_eq(code, 451);
	ck_assert_msg(strstr(reply, "temporary failure on purpose"), "%s",
		      reply);
	ck_assert_int_eq(smtp_send(s, "bob@mailstack.test", NULL, 0, msg,
				   strlen(msg), &reply, &code), SMTP_PERMFAIL);
	smtp_sender_free(&s);
	ck_assert_str_eq(smtp_result_name(SMTP_PERMFAIL), "permanent failure");
}
END_TEST

/* A loopback port nothing listens on (bound, then closed). */
static unsigned int closed_port(void)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t len = sizeof(sa);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	ck_assert_int_eq(getsockname(fd, (struct sockaddr *)&sa, &len), 0);
	close(fd);
	return ntohs(sa.sin_port);
}

START_TEST(test_server_down_is_temporary)
{
	struct smtp_settings set = plain_settings();
	struct smtp_sender *s;
	const char *reply;
	int code;
	uint64_t t0;

	set.port = closed_port();
	s = new_sender(&set);
	t0 = test_now_ms();
	ck_assert_int_eq(send_one(s, "alice@mailstack.test", "x\r\n", &reply,
				  &code), SMTP_TEMPFAIL);
	ck_assert_int_eq(code, 0);
	ck_assert_msg(reply[0] != '\0', "no reason given");
	ck_assert_uint_lt(test_now_ms() - t0, 5000);
	smtp_sender_free(&s);

	/* An IPv6 literal makes a valid URL (nothing listens there). */
	set.host = "::1";
	s = new_sender(&set);
	ck_assert_int_eq(send_one(s, "alice@mailstack.test", "x\r\n", &reply,
				  &code), SMTP_TEMPFAIL);
	ck_assert_msg(strstr(reply, "URL") == NULL, "%s", reply);
	smtp_sender_free(&s);
}
END_TEST

START_TEST(test_tls_and_auth)
{
	struct smtp_settings set;
	struct smtp_sender *s;
	const char *reply;
	const char *msg = "Subject: tls\r\n\r\ntls\r\n";
	int code;

	/* STARTTLS required, verified by name against the stack's CA, with
	 * AUTH. */
	set = plain_settings();
	set.host = "localhost";
	set.security = SMTP_STARTTLS_REQUIRED;
	set.ca_file = test_stack.ca_file;
	set.user = "bob";
	set.password = test_stack_password("bob");
	s = new_sender(&set);
	ck_assert_msg(send_one(s, "alice@mailstack.test", msg, &reply, &code) ==
		      SMTP_SENT, "%s", reply);
	smtp_sender_free(&s);

	/* smtps:// */
	set = plain_settings();
	set.port = test_stack.smtps_port;
	set.security = SMTP_IMPLICIT_TLS;
	set.ca_file = test_stack.ca_file;
	s = new_sender(&set);
	ck_assert_msg(send_one(s, "alice@mailstack.test", msg, &reply, &code) ==
		      SMTP_SENT, "%s", reply);
	smtp_sender_free(&s);

	/* Verification is on by default: unknown CA -> not sent, kept. */
	set = plain_settings();
	set.security = SMTP_STARTTLS_REQUIRED;
	s = new_sender(&set);
	ck_assert_int_eq(send_one(s, "alice@mailstack.test", msg, &reply,
				  &code), SMTP_TEMPFAIL);
	smtp_sender_free(&s);
	/* ... unless turned off (tests only). */
	set.tls_no_verify = true;
	s = new_sender(&set);
	ck_assert_msg(send_one(s, "alice@mailstack.test", msg, &reply, &code) ==
		      SMTP_SENT, "%s", reply);
	smtp_sender_free(&s);

	/* A wrong password: temporary (an operator fixes it), not echoed. */
	set = plain_settings();
	set.user = "bob";
	set.password = "wrong-secret";
	s = new_sender(&set);
	ck_assert_int_eq(send_one(s, "alice@mailstack.test", msg, &reply,
				  &code), SMTP_TEMPFAIL);
	ck_assert_int_eq(code, 535);
	ck_assert_ptr_null(strstr(reply, "wrong-secret"));
	smtp_sender_free(&s);
}
END_TEST

/* mailstack adduser: the new address is usable at once. */
START_TEST(test_stack_adduser)
{
	struct smtp_settings set = plain_settings();
	struct smtp_sender *s;
	const char *reply;
	char dir[600];
	int code;

	ck_assert_int_eq(test_stack_cmd("status", NULL), 0);
	ck_assert_int_eq(test_stack_cmd("adduser", "gina gina-pw"), 0);
	s = new_sender(&set);
	ck_assert_msg(send_one(s, "gina@mailstack.test",
			       "Subject: welcome\r\n\r\nhi\r\n", &reply,
			       &code) == SMTP_SENT, "%s", reply);
	smtp_sender_free(&s);
	snprintf(dir, sizeof(dir), "%s/mail/gina/Maildir/new",
		 test_stack.dir);
	ck_assert_int_eq(test_wait_files(dir, 1, 5000), 1);
	ck_assert_int_ne(test_stack_cmd("adduser", "'bad user' pw"), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("smtp");
	TCase *tc = tcase_create("postfix");
	int failed;

	test_stack_start(NULL);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_bytes_arrive_unchanged);
	tcase_add_test(tc, test_batch_uses_one_connection);
	tcase_add_test(tc, test_failures_are_classified);
	tcase_add_test(tc, test_server_down_is_temporary);
	tcase_add_test(tc, test_tls_and_auth);
	tcase_add_test(tc, test_stack_adduser);
	suite_add_tcase(s, tc);
	failed = test_failures(s);
	/* The stack must stop cleanly, nothing left running. */
	if (test_stack_stop() < 0)
		failed++;
	return failed != 0;
}
