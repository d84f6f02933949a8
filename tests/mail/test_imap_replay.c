/* test_imap_replay.c -- reading a folder back by date, against a real
 * Dovecot (tests/stack/mailstack, started here and stopped at exit):
 * the replay source after a restore hands out, once and in UID order,
 * the archive folder's messages received since a second (not the day IMAP
 * searches by), at most replay_max, and leaves every one where it is; and
 * the Sent folder (imap_sent.h), made when missing, holds header-only
 * copies whose Message-IDs are read back. */
#include "config.h"

#include <check.h>
#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "imap_fixture.h"
#include "mail/imap_sent.h"
#include "../check_run.h"

static void save_archive(const char *user, const char *prefix, int from,
			 int to)
{
	char subject[60];

	/* exists already after the first call: that failure is fine */
	(void)test_shell("doveadm -c '%s/dovecot/dovecot.conf' mailbox create "
			 "-u %s Archive 2>/dev/null", test_stack.dir, user);
	for (int i = from; i <= to; i++) {
		snprintf(subject, sizeof(subject), "%s-%d", prefix, i);
		doveadm_save(user, "Archive", subject);
	}
}

static int archive_count(const char *user)
{
	return test_count_files(maildir(user, ".Archive", "new")) +
	       test_count_files(maildir(user, ".Archive", "cur"));
}

/* Only what came at or after `since` (to the second), in order, once;
 * nothing moved; handed out again after a wait until handled. */
START_TEST(test_replay_since)
{
	IMAP_TEST_LOCALS;
	size_t left = 9, cut = 9;
	time_t since;

	save_archive("nina", "old", 1, 2);
	sleep(2);
	since = time(NULL);
	save_archive("nina", "new", 1, 3);
	settings_for(&set, "nina", &ev);
	set.replay_since = (int64_t)since;
	src = open_source(&set);
	ck_assert(!mail_source_replay_status(src, &left, &cut));
	next_is(src, &msg, "new-1");
	ck_assert(mail_source_replay_status(src, &left, &cut));
	ck_assert_uint_eq(left, 3);
	ck_assert_uint_eq(cut, 0);
	handled(src, msg.uid);
	next_is(src, &msg, "new-2");
	/* not marked: offered again after a wait */
	mail_source_wait(src, 10, &error);
	next_is(src, &msg, "new-2");
	handled(src, msg.uid);
	next_is(src, &msg, "new-3");
	handled(src, msg.uid);
	ck_assert_int_eq(next_now(src), MAIL_SOURCE_NONE);
	ck_assert(mail_source_replay_status(src, &left, &cut));
	ck_assert_uint_eq(left, 0);
	mail_source_close(&src);
	/* all five still in the archive, none in the INBOX */
	ck_assert_int_eq(archive_count("nina"), 5);
	ck_assert_int_eq(inbox_count("nina"), 0);

	/* nothing received since tomorrow */
	set.replay_since = (int64_t)time(NULL) + 86400;
	src = open_source(&set);
	ck_assert_int_eq(next_now(src), MAIL_SOURCE_NONE);
	ck_assert(mail_source_replay_status(src, &left, &cut));
	ck_assert_uint_eq(left + cut, 0);
	mail_source_close(&src);
}
END_TEST

/* Over replay_max: the first ones, the rest counted. */
START_TEST(test_replay_max)
{
	IMAP_TEST_LOCALS;
	size_t left, cut;

	save_archive("omar", "m", 1, 4);
	settings_for(&set, "omar", &ev);
	set.replay_since = (int64_t)time(NULL) - 3600;
	set.replay_max = 2;
	src = open_source(&set);
	next_is(src, &msg, "m-1");
	handled(src, msg.uid);
	next_is(src, &msg, "m-2");
	handled(src, msg.uid);
	ck_assert_int_eq(next_now(src), MAIL_SOURCE_NONE);
	ck_assert(mail_source_replay_status(src, &left, &cut));
	ck_assert_uint_eq(left, 0);
	ck_assert_uint_eq(cut, 2);
	mail_source_close(&src);
	ck_assert_int_eq(archive_count("omar"), 4);
}
END_TEST

struct ids {
	int n;
	char id[8][80];
};

static void collect(void *ctx, const char *id, size_t len)
{
	struct ids *ids = ctx;

	if (ids->n < 8 && len < sizeof(ids->id[0]))
		memcpy(ids->id[ids->n++], id, len);
}

/* The Sent folder made on the first append; only the headers kept; the
 * Message-IDs read back, the old ones left out by date. */
START_TEST(test_sent_folder)
{
	IMAP_TEST_LOCALS;
	struct imap_sent *sent = NULL;
	struct ids ids;
	char box[700];
	const char *mail1 = "From: a@x\r\nMessage-ID: <ashes.1.2.3.0."
			    "0123456789abcdef@x>\r\nSubject: one\r\n\r\n"
			    "the body that stays out\r\n";
	const char *mail2 = "From: a@x\nMessage-Id:\n <two@x>\nSubject: two\n"
			    "\nbody\n";

	settings_for(&set, "pia", &ev);
	ck_assert_int_eq(imap_sent_open(&set, NULL, &sent, &error), 0);
	ck_assert_int_eq(test_count_files(maildir("pia", ".Sent", "cur")) +
			 test_count_files(maildir("pia", ".Sent", "new")), 0);
	ck_assert_msg(imap_sent_append(sent, mail1, strlen(mail1), &error) == 0,
		      "%s", error);
	ck_assert_msg(imap_sent_append(sent, mail2, strlen(mail2), &error) == 0,
		      "%s", error);
	ck_assert_int_eq(test_count_files(maildir("pia", ".Sent", "cur")) +
			 test_count_files(maildir("pia", ".Sent", "new")), 2);
	/* (maildir() hands out one buffer) */
	snprintf(box, sizeof(box), "%s", maildir("pia", ".Sent", ""));
	ck_assert_int_ne(test_shell("cat '%s'cur/* '%s'new/* 2>/dev/null | "
				    "grep -qs body", box, box), 0);
	ck_assert_int_eq(test_shell("cat '%s'cur/* '%s'new/* 2>/dev/null | "
				    "grep -qs 'Subject: one'", box, box), 0);
	memset(&ids, 0, sizeof(ids));
	ck_assert_msg(imap_sent_ids(sent, (int64_t)time(NULL) - 60, collect,
				    &ids, &error) == 0, "%s", error);
	ck_assert_int_eq(ids.n, 2);
	ck_assert_str_eq(ids.id[0], "<ashes.1.2.3.0.0123456789abcdef@x>");
	ck_assert_str_eq(ids.id[1], "<two@x>");
	memset(&ids, 0, sizeof(ids));
	ck_assert_int_eq(imap_sent_ids(sent, (int64_t)time(NULL) + 86400,
				       collect, &ids, &error), 0);
	ck_assert_int_eq(ids.n, 0);
	imap_sent_close(&sent);
	ck_assert_ptr_null(sent);
	/* a folder source has no Sent folder */
	set.backend = "dir";
	ck_assert_int_eq(imap_sent_open(&set, NULL, &sent, &error), -1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("imap_replay");
	TCase *tc = tcase_create("dovecot");
	int failed;

	test_stack_start("nina:nina-pw omar:omar-pw pia:pia-pw");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_replay_since);
	tcase_add_test(tc, test_replay_max);
	tcase_add_test(tc, test_sent_folder);
	suite_add_tcase(s, tc);
	failed = test_failures(s);
	if (test_stack_stop() < 0)
		failed++;
	return failed != 0;
}
