/* test_imap_aside.c -- the IMAP source setting a mail aside (quarantine)
 * against a real Dovecot (tests/stack/mailstack, started here and stopped
 * at exit): moved at once, around the archive batch, after a reconnect,
 * without MOVE, and refused by the server. */
#include "config.h"

#include <check.h>
#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "imap_fixture.h"
#include "../check_run.h"

/* Messages in a user's folder (new/ and cur/); *seen_r: how many of them
 * carry \Seen. */
static int box_count(const char *user, const char *box, int *seen_r)
{
	const char *subs[2] = { "new", "cur" };
	int i, n = 0;

	*seen_r = 0;
	for (i = 0; i < 2; i++) {
		DIR *d = opendir(maildir(user, box, subs[i]));
		struct dirent *de;

		if (d == NULL)
			continue;
		while ((de = readdir(d)) != NULL) {
			const char *flags = strstr(de->d_name, ":2,");

			if (de->d_name[0] == '.')
				continue;
			n++;
			if (flags != NULL && strchr(flags, 'S') != NULL)
				(*seen_r)++;
		}
		closedir(d);
	}
	return n;
}

/* A user's folder holds n messages, `seen` of them with \Seen. */
static void box_holds(const char *user, const char *box, int n, int seen)
{
	int got_seen;

	ck_assert_int_eq(box_count(user, box, &got_seen), n);
	ck_assert_int_eq(got_seen, seen);
}

/* Whether a folder holds a message with this subject. */
static bool box_has_subject(const char *user, const char *box,
			    const char *subject)
{
	const char *base = maildir(user, box, "");	/* ends with / */

	return test_shell("grep -qs -x 'Subject: %s' '%s'new/* '%s'cur/*",
			  subject, base, base) == 0;
}

/* A poison mail set aside: moved at once to "Quarantine" (created),
 * unseen, out of the INBOX; the archive batch around it is untouched and
 * still archived; it is never handed out again. */
START_TEST(test_set_aside)
{
	IMAP_TEST_LOCALS;
	struct mail_source_state st;
	uint32_t poison;
	int seen;

	save_numbered("ivan", "aside", 3);
	settings_for(&set, "ivan", &ev);
	src = open_source(&set);
	first_handled_then_second(src, &msg, "aside");
	poison = msg.uid;
	ck_assert_msg(mail_source_set_aside(src, poison, &error) == 0, "%s",
		      error);
	mail_source_get_state(src, &st);
	ck_assert_uint_eq(st.last_uid, poison);
	/* Moved at once; aside-1 still waits in the archive batch. */
	box_holds("ivan", ".Quarantine", 1, 0);
	ck_assert(box_has_subject("ivan", ".Quarantine", "aside-2"));
	ck_assert_int_eq(inbox_count("ivan"), 2);
	ck_assert(!box_has_subject("ivan", "", "aside-2"));
	ck_assert_int_eq(box_count("ivan", ".Archive", &seen), 0);

	/* A wait re-offers what was not marked: not the set-aside one. */
	mail_source_wait(src, 10, &error);
	next_is(src, &msg, "aside-3");
	handled(src, msg.uid);
	ck_assert_int_eq(next_now(src), MAIL_SOURCE_NONE);
	mail_source_close(&src);

	ck_assert_int_eq(inbox_count("ivan"), 0);
	box_holds("ivan", ".Archive", 2, 2);
	ck_assert(box_has_subject("ivan", ".Archive", "aside-1"));
	ck_assert(box_has_subject("ivan", ".Archive", "aside-3"));
	box_holds("ivan", ".Quarantine", 1, 0);
	ck_assert_int_eq(ev.down, 0);
}
END_TEST

/* The server restarts under a set-aside: it fails, yet after the reconnect
 * the message goes to quarantine (not to the archive, as the leftovers
 * would), is not handed out again, and the mail after it comes.  A new
 * session (the folder exists by then) sets aside too. */
START_TEST(test_set_aside_after_reconnect)
{
	IMAP_TEST_LOCALS;
	struct mail_source_state st;
	int seen;

	save_numbered("kate", "recon", 3);
	settings_for(&set, "kate", &ev);
	src = open_source(&set);
	first_handled_then_second(src, &msg, "recon");
	ck_assert_int_eq(test_stack_cmd("restart-imap", NULL), 0);
	ck_assert_int_eq(mail_source_set_aside(src, msg.uid, &error), -1);
	ck_assert_int_eq(ev.down, 1);
	next_within_is(src, &msg, 5000, "recon-3");
	ck_assert_int_eq(ev.up, 1);
	handled(src, msg.uid);
	ck_assert_int_eq(next_now(src), MAIL_SOURCE_NONE);
	mail_source_get_state(src, &st);
	mail_source_close(&src);
	ck_assert_int_eq(inbox_count("kate"), 0);
	ck_assert_int_eq(box_count("kate", ".Archive", &seen), 2);
	ck_assert(!box_has_subject("kate", ".Archive", "recon-2"));
	box_holds("kate", ".Quarantine", 1, 0);
	ck_assert(box_has_subject("kate", ".Quarantine", "recon-2"));

	/* A later session, from the saved state. */
	doveadm_save("kate", "INBOX", "recon-4");
	src = open_source(&set);
	mail_source_set_state(src, &st);
	next_is(src, &msg, "recon-4");
	ck_assert_msg(mail_source_set_aside(src, msg.uid, &error) == 0, "%s",
		      error);
	ck_assert_int_eq(next_now(src), MAIL_SOURCE_NONE);
	mail_source_close(&src);
	ck_assert_int_eq(inbox_count("kate"), 0);
	box_holds("kate", ".Quarantine", 2, 0);
	ck_assert_int_eq(box_count("kate", ".Archive", &seen), 2);
	ck_assert_int_eq(ev.down, 1);
}
END_TEST

/* Without MOVE and UIDPLUS (127.0.0.2): COPY + \Deleted + EXPUNGE; the
 * plain EXPUNGE must not take the message waiting in the archive batch. */
START_TEST(test_set_aside_without_move)
{
	IMAP_TEST_LOCALS;
	int seen;

	save_numbered("judy", "copy", 2);
	settings_for(&set, "judy", &ev);
	set.host = "127.0.0.2";
	set.quarantine = "Held";
	src = open_source(&set);
	first_handled_then_second(src, &msg, "copy");
	ck_assert_msg(mail_source_set_aside(src, msg.uid, &error) == 0, "%s",
		      error);
	ck_assert_int_eq(inbox_count("judy"), 1);
	ck_assert(box_has_subject("judy", "", "copy-1"));
	box_holds("judy", ".Held", 1, 0);
	ck_assert(box_has_subject("judy", ".Held", "copy-2"));
	ck_assert_int_eq(next_now(src), MAIL_SOURCE_NONE);
	mail_source_close(&src);
	ck_assert_int_eq(inbox_count("judy"), 0);
	box_holds("judy", ".Archive", 1, 1);
	ck_assert(box_has_subject("judy", ".Archive", "copy-1"));
	ck_assert_int_eq(box_count("judy", ".Held", &seen), 1);
	ck_assert_int_eq(ev.down, 0);
}
END_TEST

/* The server refuses the move (an invalid folder name): the message stays
 * in the INBOX, neither handed out again nor archived while the source
 * lives, and the mail after it comes.  A new process only knows the saved
 * last UID: it archives the message as a leftover. */
START_TEST(test_set_aside_refused)
{
	IMAP_TEST_LOCALS;
	struct mail_source_state st;
	int i, seen;

	save_numbered("leo", "refused", 2);
	settings_for(&set, "leo", &ev);
	set.quarantine = "Bad//Name";
	src = open_source(&set);
	next_is(src, &msg, "refused-1");
	ck_assert_int_eq(mail_source_set_aside(src, msg.uid, &error), -1);
	ck_assert_ptr_nonnull(strstr(error, "MOVE"));
	next_is(src, &msg, "refused-2");
	handled(src, msg.uid);
	/* More scans than retries. */
	for (i = 0; i < 8; i++) {
		ck_assert_int_eq(mail_source_next(src, &msg, &error),
				 MAIL_SOURCE_NONE);
		mail_source_wait(src, 10, &error);
	}
	mail_source_get_state(src, &st);
	mail_source_close(&src);
	box_holds("leo", "", 1, 0);
	ck_assert(box_has_subject("leo", "", "refused-1"));
	ck_assert_int_eq(box_count("leo", ".Archive", &seen), 1);
	ck_assert(box_has_subject("leo", ".Archive", "refused-2"));
	ck_assert_int_eq(ev.down, 0);

	src = open_source(&set);
	mail_source_set_state(src, &st);
	ck_assert_int_eq(next_now(src), MAIL_SOURCE_NONE);
	mail_source_close(&src);
	ck_assert_int_eq(inbox_count("leo"), 0);
	ck_assert_int_eq(box_count("leo", ".Archive", &seen), 2);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("imap_aside");
	TCase *tc = tcase_create("dovecot");
	int failed;

	test_stack_start("ivan:ivan-pw judy:judy-pw kate:kate-pw leo:leo-pw");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_set_aside);
	tcase_add_test(tc, test_set_aside_after_reconnect);
	tcase_add_test(tc, test_set_aside_without_move);
	tcase_add_test(tc, test_set_aside_refused);
	suite_add_tcase(s, tc);
	failed = test_failures(s);
	/* The stack must stop cleanly, nothing left running. */
	if (test_stack_stop() < 0)
		failed++;
	return failed != 0;
}
