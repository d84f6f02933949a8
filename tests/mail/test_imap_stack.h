/* test_imap_stack.h -- start and stop tests/stack/mailstack (a private
 * Dovecot + Postfix on loopback) from a Check test, and small helpers the
 * IMAP and SMTP tests share.  The stack is stopped at exit and on SIGINT /
 * SIGTERM / SIGHUP, whatever the tests did. */
#ifndef ASHES_TEST_IMAP_STACK_H
#define ASHES_TEST_IMAP_STACK_H

#include <stddef.h>
#include <stdint.h>

struct test_stack {
	char root[256];		/* mkdtemp folder */
	char dir[300];		/* root/stack: the mailstack DIR */
	char ca_file[400];
	char domain[64];
	unsigned int imap_port, imaps_port, smtp_port, smtps_port, lmtp_port;
};

extern struct test_stack test_stack;

/* Start the stack with USERS ("name:password ...", NULL: mailstack's
 * default ashes alice bob; passwords are always "<name>-pw") (exits 77, "skipped", when not root or when Dovecot or
 * Postfix is missing; exits 1 if it fails to start).  Prints the time. */
void test_stack_start(const char *users);
/* Stop it and remove the temp folder; safe to call twice.  Returns -1 if
 * mailstack stop failed (e.g. something was left running). */
int test_stack_stop(void);
/* Run `mailstack CMD DIR ARGS`; returns the exit status. */
int test_stack_cmd(const char *cmd, const char *args);
/* Run a shell command line; returns the exit status. */
int test_shell(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The default users' passwords ("<user>-pw"). */
const char *test_stack_password(const char *user);
/* Number of regular files in a folder (0 if it does not exist). */
int test_count_files(const char *path);
/* Wait up to ms for PATH to hold at least n files; returns the count. */
int test_wait_files(const char *path, int n, unsigned int ms);
/* Milliseconds on the monotonic clock. */
uint64_t test_now_ms(void);

/* Send MSG (text, LF line ends are fine) from bob to TO@domain through the
 * stack's Postfix with the project's SMTP sender; returns 0 if accepted. */
int test_stack_send(const char *to, const char *msg);

#endif
