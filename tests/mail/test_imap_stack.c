/* test_imap_stack.c -- run tests/stack/mailstack for the mail tests. */
#include "config.h"

#include "test_imap_stack.h"

#include <dirent.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mail/smtp.h"
#include "util/buf.h"

struct test_stack test_stack;
static pid_t test_stack_owner;	/* only the starting process stops it */
static int test_stack_running;

uint64_t test_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static const char *test_stack_script(void)
{
	static char path[512];
	const char *src = getenv("ASHES_SRCDIR");

	snprintf(path, sizeof(path), "%s/tests/stack/mailstack",
		 src ? src : ".");
	return path;
}

int test_shell(const char *fmt, ...)
{
	struct buf cmd = BUF_INIT;
	va_list ap;
	int r;

	va_start(ap, fmt);
	buf_vprintf(&cmd, fmt, ap);
	va_end(ap);
	r = system(buf_str(&cmd));
	buf_free(&cmd);
	return r == -1 ? -1 : WIFEXITED(r) ? WEXITSTATUS(r) : 128;
}

int test_stack_cmd(const char *cmd, const char *args)
{
	return test_shell("'%s' %s '%s' %s", test_stack_script(), cmd,
			  test_stack.dir, args ? args : "");
}

int test_stack_stop(void)
{
	if (!test_stack_running || getpid() != test_stack_owner)
		return 0;
	test_stack_running = 0;
	if (test_stack_cmd("stop", NULL) != 0) {
		fprintf(stderr, "mailstack stop failed (see %s)\n",
			test_stack.dir);
		return -1;
	}
	if (getenv("ASHES_KEEP_STACK") == NULL)
		test_shell("rm -rf '%s'", test_stack.root);
	return 0;
}

static void test_stack_atexit(void)
{
	(void)test_stack_stop();
}

static void test_stack_signal(int sig)
{
	(void)test_stack_stop();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void test_stack_read_env(void)
{
	char path[400], line[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/env", test_stack.dir);
	f = fopen(path, "r");
	if (f == NULL) {
		perror(path);
		exit(1);
	}
	while (fgets(line, sizeof(line), f) != NULL) {
		char *eq = strchr(line, '=');
		char *v;

		if (eq == NULL)
			continue;
		*eq = '\0';
		v = eq + 1;
		v[strcspn(v, "\n")] = '\0';
		if (strcmp(line, "IMAP_PORT") == 0)
			test_stack.imap_port = (unsigned int)atoi(v);
		else if (strcmp(line, "IMAPS_PORT") == 0)
			test_stack.imaps_port = (unsigned int)atoi(v);
		else if (strcmp(line, "SMTP_PORT") == 0)
			test_stack.smtp_port = (unsigned int)atoi(v);
		else if (strcmp(line, "SMTPS_PORT") == 0)
			test_stack.smtps_port = (unsigned int)atoi(v);
		else if (strcmp(line, "LMTP_PORT") == 0)
			test_stack.lmtp_port = (unsigned int)atoi(v);
		else if (strcmp(line, "MAIL_CA_FILE") == 0)
			snprintf(test_stack.ca_file, sizeof(test_stack.ca_file),
				 "%s", v);
		else if (strcmp(line, "MAIL_DOMAIN") == 0)
			snprintf(test_stack.domain, sizeof(test_stack.domain),
				 "%s", v);
	}
	fclose(f);
	if (test_stack.imap_port == 0 || test_stack.smtp_port == 0) {
		fprintf(stderr, "%s: ports missing\n", path);
		exit(1);
	}
}

void test_stack_start(const char *users)
{
	uint64_t t0;

	if (geteuid() != 0) {
		printf("SKIP: the mail stack needs root (Postfix)\n");
		exit(77);
	}
	if (access("/usr/sbin/dovecot", X_OK) != 0 ||
	    access("/usr/lib/postfix/sbin/master", X_OK) != 0) {
		printf("SKIP: dovecot or postfix not installed\n");
		exit(77);
	}
	snprintf(test_stack.root, sizeof(test_stack.root),
		 "/tmp/ashes-stack-XXXXXX");
	if (mkdtemp(test_stack.root) == NULL) {
		perror("mkdtemp");
		exit(1);
	}
	/* Dovecot and Postfix drop root: they must reach the folder. */
	chmod(test_stack.root, 0755);
	snprintf(test_stack.dir, sizeof(test_stack.dir), "%s/stack",
		 test_stack.root);
	test_stack_owner = getpid();
	test_stack_running = 1;
	atexit(test_stack_atexit);
	signal(SIGINT, test_stack_signal);
	signal(SIGTERM, test_stack_signal);
	signal(SIGHUP, test_stack_signal);
	/* A dead server must not kill the test by SIGPIPE. */
	signal(SIGPIPE, SIG_IGN);
	t0 = test_now_ms();
	if (test_stack_cmd("start", users) != 0) {
		fprintf(stderr, "mailstack start failed\n");
		exit(1);
	}
	test_stack_read_env();
	printf("mail stack started in %llu ms (IMAP %u, SMTP %u) in %s\n",
	       (unsigned long long)(test_now_ms() - t0), test_stack.imap_port,
	       test_stack.smtp_port, test_stack.dir);
	fflush(stdout);
}

const char *test_stack_password(const char *user)
{
	static char pw[64];

	snprintf(pw, sizeof(pw), "%s-pw", user);
	return pw;
}

int test_count_files(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *de;
	int n = 0;

	if (d == NULL)
		return 0;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] != '.')
			n++;
	}
	closedir(d);
	return n;
}

int test_wait_files(const char *path, int n, unsigned int ms)
{
	uint64_t end = test_now_ms() + ms;
	int have;

	while ((have = test_count_files(path)) < n && test_now_ms() < end)
		usleep(10000);
	return have;
}

int test_stack_send(const char *to, const char *msg)
{
	struct smtp_settings set = {
		.host = "127.0.0.1",
		.port = test_stack.smtp_port,
		.security = SMTP_PLAIN,
		.timeout_ms = 10000,
	};
	struct smtp_sender *s = NULL;
	struct buf rcpt = BUF_INIT;
	const char *error, *reply, *rcpts[1];
	enum smtp_result r;

	if (smtp_sender_new(&set, &s, &error) < 0)
		return -1;
	buf_printf(&rcpt, "%s@%s", to, test_stack.domain);
	rcpts[0] = buf_str(&rcpt);
	r = smtp_send(s, "bob@mailstack.test", rcpts, 1, msg, strlen(msg),
		      &reply, NULL);
	if (r != SMTP_SENT)
		fprintf(stderr, "send to %s: %s\n", rcpts[0], reply);
	smtp_sender_free(&s);
	buf_free(&rcpt);
	return r == SMTP_SENT ? 0 : -1;
}
