/* test_source_dir.c -- the "dir" mailbox source (a folder of .eml files),
 * the backend choice by name, and the IMAP source's INTERNALDATE
 * arithmetic (pure: no server needed). */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "mail/imap.h"
#include "mail/source.h"
#include "../check_run.h"
#include "../test_file.h"

static char tmpdir[64];

static void setup(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/ashes-srcdir-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	ck_assert_int_eq(system(cmd), 0);
}

static void put(const char *sub, const char *name, const char *text)
{
	write_file_in(tmpdir, sub, name, text);
}

static bool exists(const char *rel)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", tmpdir, rel);
	return access(path, F_OK) == 0;
}

static struct mail_source *open_dir(void)
{
	struct mail_source_settings set = {
		.backend = "dir",
		.path = tmpdir,
		.poll_ms = 50,
	};
	struct mail_source *src = NULL;
	const char *error = NULL;

	ck_assert_msg(mail_source_open(&set, &src, &error) == 0, "%s", error);
	return src;
}

static void expect_text(struct mail_source *src, const char *text,
			uint32_t *uid_r)
{
	struct mail_source_message msg;
	const char *error = NULL;

	ck_assert_int_eq(mail_source_next(src, &msg, &error),
			 MAIL_SOURCE_MESSAGE);
	ck_assert_uint_eq(msg.size, strlen(text));
	ck_assert(memcmp(msg.data, text, msg.size) == 0);
	ck_assert_uint_eq(msg.uidvalidity, 1);
	*uid_r = msg.uid;
}

START_TEST(test_name_order_and_archive)
{
	struct mail_source *src;
	struct mail_source_message msg;
	struct mail_source_state st;
	const char *error;
	uint32_t a, b, c;

	struct mail_source_facts f;

	put("", "20-second.eml", "second\n");
	put("", "10-first.eml", "first\n");
	put("", "notes.txt", "not a mail\n");
	put("", ".30-hidden.eml", "hidden\n");
	src = open_dir();
	/* What it saw, for the health report: not listed yet. */
	mail_source_get_facts(src, &f);
	ck_assert_uint_eq(f.contacts, 0);
	ck_assert_int_eq(f.waiting, -1);
	expect_text(src, "first\n", &a);
	/* Two mails listed, one handed out. */
	mail_source_get_facts(src, &f);
	ck_assert_uint_eq(f.contacts, 1);
	ck_assert_int_eq(f.waiting, 1);
	expect_text(src, "second\n", &b);
	ck_assert_uint_gt(b, a);
	ck_assert_int_eq(mail_source_next(src, &msg, &error), MAIL_SOURCE_NONE);
	mail_source_get_facts(src, &f);
	ck_assert_uint_eq(f.contacts, 3);
	ck_assert_int_eq(f.waiting, 0);

	ck_assert_int_eq(mail_source_mark_handled(src, a, &error), 0);
	ck_assert(exists("archive/10-first.eml"));
	ck_assert(!exists("10-first.eml"));
	mail_source_get_state(src, &st);
	ck_assert_uint_eq(st.last_uid, a);

	/* A new file shows up after the others (second, not marked, comes
	 * again first); an unknown UID fails. */
	put("", "05-late.eml", "late\n");
	ck_assert_int_eq(mail_source_wait(src, 1000, &error), 1);
	expect_text(src, "second\n", &c);
	ck_assert_uint_eq(c, b);
	expect_text(src, "late\n", &c);
	ck_assert_uint_gt(c, b);
	ck_assert_int_eq(mail_source_mark_handled(src, 9999, &error), -1);
	ck_assert_ptr_nonnull(strstr(error, "9999"));
	mail_source_close(&src);
	ck_assert_ptr_null(src);

	/* Not handled (second, late) are handed out again after a restart,
	 * in name order. */
	src = open_dir();
	expect_text(src, "late\n", &a);
	expect_text(src, "second\n", &b);
	ck_assert_int_eq(mail_source_next(src, &msg, &error), MAIL_SOURCE_NONE);
	mail_source_close(&src);
}
END_TEST

START_TEST(test_new_subfolder_and_vanished_file)
{
	struct mail_source *src;
	struct mail_source_message msg;
	const char *error;
	char path[256];
	uint32_t uid;

	snprintf(path, sizeof(path), "%s/new", tmpdir);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	put("", "top.eml", "ignored: new/ exists\n");
	put("new", "a.eml", "a\n");
	put("new", "b.eml", "b\n");
	src = open_dir();
	/* Scan sees both, then a.eml vanishes before it is read. */
	ck_assert_int_eq(mail_source_wait(src, 100, &error), 1);
	snprintf(path, sizeof(path), "%s/new/a.eml", tmpdir);
	ck_assert_int_eq(unlink(path), 0);
	expect_text(src, "b\n", &uid);
	ck_assert_int_eq(mail_source_mark_handled(src, uid, &error), 0);
	ck_assert(exists("archive/b.eml"));
	ck_assert_int_eq(mail_source_next(src, &msg, &error), MAIL_SOURCE_NONE);
	mail_source_close(&src);
}
END_TEST

START_TEST(test_rescan_and_interrupt)
{
	struct mail_source_state st = { .uidvalidity = 77, .last_uid = 5 };
	struct mail_source *src;
	struct mail_source_message msg;
	const char *error;
	uint32_t uid;

	put("", "m.eml", "m\n");
	src = open_dir();
	mail_source_set_state(src, &st);
	ck_assert_int_eq(mail_source_next(src, &msg, &error),
			 MAIL_SOURCE_RESCAN);
	mail_source_get_state(src, &st);
	ck_assert_uint_eq(st.uidvalidity, 1);
	ck_assert_uint_eq(st.last_uid, 0);
	expect_text(src, "m\n", &uid);
	/* interrupt() makes the next wait return at once. */
	mail_source_interrupt(src);
	ck_assert_int_eq(mail_source_wait(src, 60000, &error), 0);
	mail_source_close(&src);
}
END_TEST

/* Not marked (the caller could not handle it): offered again after a
 * wait, before anything newer. */
START_TEST(test_unmarked_offered_again)
{
	struct mail_source *src;
	const char *error;
	uint32_t a, again, b;

	put("", "a.eml", "a\n");
	put("", "b.eml", "b\n");
	src = open_dir();
	expect_text(src, "a\n", &a);
	ck_assert_int_eq(mail_source_wait(src, 10, &error), 1);
	expect_text(src, "a\n", &again);
	ck_assert_uint_eq(again, a);
	ck_assert_int_eq(mail_source_mark_handled(src, a, &error), 0);
	expect_text(src, "b\n", &b);
	mail_source_close(&src);
}
END_TEST

/* A poison mail set aside: renamed into PATH/quarantine/ (also when the
 * files are in PATH/new), never handed out again, the last UID advanced,
 * later messages still come. */
START_TEST(test_set_aside)
{
	struct mail_source *src;
	struct mail_source_message msg;
	struct mail_source_state st;
	const char *error;
	char path[256];
	uint32_t a, b, c;

	snprintf(path, sizeof(path), "%s/new", tmpdir);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	put("new", "1-a.eml", "a\n");
	put("new", "2-poison.eml", "poison\n");
	put("new", "3-c.eml", "c\n");
	src = open_dir();
	expect_text(src, "a\n", &a);
	ck_assert_int_eq(mail_source_mark_handled(src, a, &error), 0);
	expect_text(src, "poison\n", &b);
	ck_assert_int_eq(mail_source_set_aside(src, b, &error), 0);
	ck_assert(exists("quarantine/2-poison.eml"));
	ck_assert(!exists("new/2-poison.eml"));
	ck_assert(!exists("archive/2-poison.eml"));
	mail_source_get_state(src, &st);
	ck_assert_uint_eq(st.last_uid, b);
	/* A wait re-offers what was not marked: not the set-aside one. */
	ck_assert_int_eq(mail_source_wait(src, 10, &error), 1);
	expect_text(src, "c\n", &c);
	ck_assert_uint_gt(c, b);
	ck_assert_int_eq(mail_source_mark_handled(src, c, &error), 0);
	ck_assert_int_eq(mail_source_wait(src, 10, &error), 0);
	ck_assert_int_eq(mail_source_next(src, &msg, &error), MAIL_SOURCE_NONE);
	mail_source_get_state(src, &st);
	ck_assert_uint_eq(st.last_uid, c);
	ck_assert(exists("archive/1-a.eml") && exists("archive/3-c.eml"));
	ck_assert_int_eq(mail_source_set_aside(src, 9999, &error), -1);
	ck_assert_ptr_nonnull(strstr(error, "9999"));
	mail_source_close(&src);

	/* Only the archive and the quarantine hold them: a restart finds
	 * nothing. */
	src = open_dir();
	ck_assert_int_eq(mail_source_next(src, &msg, &error), MAIL_SOURCE_NONE);
	mail_source_close(&src);
}
END_TEST

/* The rename fails (PATH/quarantine is a file): the message is still
 * never handed out again nor archived; the rename is retried by next(). */
START_TEST(test_set_aside_retried)
{
	struct mail_source *src;
	struct mail_source_message msg;
	struct mail_source_state st;
	const char *error;
	char path[256];
	uint32_t a, b;

	put("", "a.eml", "a\n");
	put("", "b.eml", "b\n");
	put("", "quarantine", "in the way\n");
	src = open_dir();
	expect_text(src, "a\n", &a);
	ck_assert_int_eq(mail_source_set_aside(src, a, &error), -1);
	ck_assert_ptr_nonnull(strstr(error, "a.eml"));
	mail_source_get_state(src, &st);
	ck_assert_uint_eq(st.last_uid, a);
	ck_assert_int_eq(mail_source_mark_handled(src, a, &error), 0);
	ck_assert(exists("a.eml"));
	ck_assert(!exists("archive/a.eml"));
	ck_assert_int_eq(mail_source_wait(src, 10, &error), 1);
	expect_text(src, "b\n", &b);
	ck_assert_int_eq(mail_source_mark_handled(src, b, &error), 0);
	ck_assert_int_eq(mail_source_wait(src, 10, &error), 0);
	ck_assert_int_eq(mail_source_next(src, &msg, &error), MAIL_SOURCE_NONE);

	snprintf(path, sizeof(path), "%s/quarantine", tmpdir);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(mail_source_next(src, &msg, &error), MAIL_SOURCE_NONE);
	ck_assert(exists("quarantine/a.eml"));
	ck_assert(!exists("a.eml"));
	mail_source_close(&src);
}
END_TEST

/* A file's mtime is the mail's received time: the daemon charges a move
 * at it. */
START_TEST(test_received_is_mtime)
{
	struct mail_source_message msg;
	struct mail_source *src;
	struct timeval tv[2] = { { 1796126400, 0 }, { 1796126400, 0 } };
	char path[256];
	const char *error = NULL;

	put("", "a.eml", "Subject: a\n\n");
	put("", "b.eml", "Subject: b\n\n");
	snprintf(path, sizeof(path), "%s/a.eml", tmpdir);
	/* 2026-12-01 12:00:00 UTC */
	ck_assert_int_eq(utimes(path, tv), 0);
	src = open_dir();
	ck_assert_int_eq(mail_source_next(src, &msg, &error),
			 MAIL_SOURCE_MESSAGE);
	ck_assert(memcmp(msg.data, "Subject: a", 10) == 0);
	ck_assert_int_eq(msg.received, 1796126400);
	/* b.eml: written just now. */
	ck_assert_int_eq(mail_source_next(src, &msg, &error),
			 MAIL_SOURCE_MESSAGE);
	ck_assert(memcmp(msg.data, "Subject: b", 10) == 0);
	ck_assert_int_ge(msg.received, (int64_t)time(NULL) - 60);
	ck_assert_int_le(msg.received, (int64_t)time(NULL));
	mail_source_close(&src);
}
END_TEST

START_TEST(test_imap_date_time_epoch)
{
	static const struct {
		int day, month, year, hour, min, sec, zone;
		int64_t epoch;
	} good[] = {
		/* "01-Dec-2026 12:00:00 +0100" is 11:00 UTC */
		{ 1, 12, 2026, 12, 0, 0, 100, 1796122800 },
		{ 1, 12, 2026, 12, 0, 0, 0, 1796126400 },
		{ 1, 12, 2026, 12, 0, 0, -500, 1796144400 },
		/* half-hour zones: "-0230", "+0530" */
		{ 1, 12, 2026, 12, 0, 0, -230, 1796135400 },
		{ 1, 12, 2026, 12, 0, 0, 530, 1796106600 },
		{ 1, 1, 1970, 0, 0, 0, 0, 0 },
		/* the day before is another month, year, leap day */
		{ 1, 1, 2027, 0, 30, 0, 100, 1798759800 },
		{ 29, 2, 2028, 23, 59, 59, 0, 1835481599 },
		{ 1, 3, 2000, 0, 0, 0, 0, 951868800 },
	};
	static const struct {
		int day, month, year, hour, min, sec, zone;
	} bad[] = {
		{ 0, 12, 2026, 12, 0, 0, 0 },
		{ 32, 1, 2026, 12, 0, 0, 0 },
		{ 31, 4, 2026, 12, 0, 0, 0 },
		{ 29, 2, 2027, 12, 0, 0, 0 },
		{ 29, 2, 1900, 12, 0, 0, 0 },
		{ 1, 13, 2026, 12, 0, 0, 0 },
		{ 1, 0, 2026, 12, 0, 0, 0 },
		{ 1, 12, 2026, 24, 0, 0, 0 },
		{ 1, 12, 2026, 12, 60, 0, 0 },
		{ 1, 12, 2026, 12, 0, 61, 0 },
		{ 1, 12, 2026, 12, 0, 0, 2500 },
		{ 1, 12, 2026, 12, 0, 0, 170 },
		{ 1, 12, 10000, 12, 0, 0, 0 },
	};
	int64_t t;

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		t = -1;
		ck_assert_int_eq(imap_date_time_epoch(good[i].day, good[i].month,
						      good[i].year, good[i].hour,
						      good[i].min, good[i].sec,
						      good[i].zone, &t), 0);
		ck_assert_msg(t == good[i].epoch, "case %zu: %lld", i,
			      (long long)t);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		t = 42;
		ck_assert_msg(imap_date_time_epoch(bad[i].day, bad[i].month,
						   bad[i].year, bad[i].hour,
						   bad[i].min, bad[i].sec,
						   bad[i].zone, &t) == -1,
			      "case %zu accepted", i);
		ck_assert_int_eq(t, 42);
	}
}
END_TEST

START_TEST(test_backend_by_name)
{
	struct mail_source_settings set = { .backend = "pop3" };
	struct mail_source *src = NULL;
	const char *error = NULL;

	ck_assert_int_eq(mail_source_open(&set, &src, &error), -1);
	ck_assert_ptr_nonnull(strstr(error, "unknown backend"));
	ck_assert_ptr_null(src);
	set.backend = "dir";
	set.path = "/nonexistent/ashes";
	ck_assert_int_eq(mail_source_open(&set, &src, &error), -1);
	set.backend = "imap";
	set.host = "127.0.0.1";
	ck_assert_int_eq(mail_source_open(&set, &src, &error), -1);
	ck_assert_ptr_nonnull(strstr(error, "password"));
	set.user = "u";
	set.password = "p";
	/* Opening does no network I/O. */
	ck_assert_int_eq(mail_source_open(&set, &src, &error), 0);
	mail_source_close(&src);
	ck_assert_ptr_null(src);
	mail_source_close(&src);
}
END_TEST

TEST_MAIN("source_dir", "dir", setup, teardown, 0, test_name_order_and_archive,
	  test_new_subfolder_and_vanished_file, test_rescan_and_interrupt,
	  test_unmarked_offered_again, test_set_aside, test_set_aside_retried,
	  test_received_is_mtime, test_imap_date_time_epoch,
	  test_backend_by_name)
