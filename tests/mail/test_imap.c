/* test_imap.c -- the IMAP mailbox source against a real Dovecot, fed by a
 * real Postfix (tests/stack/mailstack, started here and stopped at exit):
 * UID order, archiving, UIDVALIDITY change (also with a mark made while
 * disconnected), server restart in the middle of a poll, IDLE latency, TLS
 * verification and login.  Setting aside (quarantine) is
 * test_imap_aside.c. */
#include "config.h"

#include <check.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "imap_fixture.h"
#include "mail/imap.h"
#include "util/buf.h"
#include "../check_run.h"

/* Messages in a user's INBOX with the \Seen flag (maildir "S"). */
static int seen_in_inbox(const char *user)
{
	DIR *d = opendir(maildir(user, "", "cur"));
	struct dirent *de;
	int n = 0;

	if (d == NULL)
		return 0;
	while ((de = readdir(d)) != NULL) {
		const char *flags = strstr(de->d_name, ":2,");

		if (flags != NULL && strchr(flags, 'S') != NULL)
			n++;
	}
	closedir(d);
	return n;
}

static void deliver(const char *to, const char *subject)
{
	struct buf m = BUF_INIT;

	buf_printf(&m, "From: bob@mailstack.test\r\nTo: %s@mailstack.test\r\n"
		   "Subject: %s\r\nMessage-ID: <%s.%d@test>\r\n\r\n"
		   "body of %s\r\n", to, subject, subject, (int)getpid(),
		   subject);
	ck_assert_int_eq(test_stack_send(to, buf_str(&m)), 0);
	buf_free(&m);
}

/* Put a message file straight into a maildir's new/ (works while Dovecot
 * is down; it picks the file up at its next look). */
static void drop_into_maildir(const char *user, const char *subject)
{
	char path[700];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%llu.P%d.test",
		 maildir(user, "", "new"), (unsigned long long)test_now_ms(),
		 (int)getpid());
	f = fopen(path, "w");
	if (f == NULL)
		_exit(2);
	fprintf(f, "Subject: %s\n\nbody %s\n", subject, subject);
	fclose(f);
}

/* A mailbox of user's made (or deleted) with doveadm. */
static void doveadm_mailbox(const char *verb, const char *user,
			    const char *box)
{
	ck_assert_int_eq(test_shell("doveadm -c '%s/dovecot/dovecot.conf' "
				    "mailbox %s -u %s %s", test_stack.dir,
				    verb, user, box), 0);
}

/* A new mailbox of bob's holding prefix-a and prefix-b; the source
 * opened on it with settings *set. */
static struct mail_source *open_new_box(struct mail_source_settings *set,
					struct events *ev, const char *box,
					const char *prefix)
{
	char subject[60];

	doveadm_mailbox("create", "bob", box);
	snprintf(subject, sizeof(subject), "%s-a", prefix);
	doveadm_save("bob", box, subject);
	snprintf(subject, sizeof(subject), "%s-b", prefix);
	doveadm_save("bob", box, subject);
	settings_for(set, "bob", ev);
	set->mailbox = box;
	return open_source(set);
}

/* The source has nothing yet; then a child is forked that sleeps usec
 * before the test's work (the caller's `if (pid == 0)` branch). */
static pid_t quiet_then_fork(struct mail_source *src, useconds_t usec)
{
	struct mail_source_message msg;
	const char *error = "";
	int r;
	pid_t pid;

	r = mail_source_next(src, &msg, &error);
	ck_assert_msg(r == MAIL_SOURCE_NONE, "next: %d %s", r, error);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		usleep(usec);
	return pid;
}

START_TEST(test_fetch_in_uid_order_and_archive)
{
	IMAP_TEST_LOCALS;
	struct mail_source_state st;
	bool seen[3] = { false, false, false };
	uint32_t last = 0;
	int i, j;

	deliver("alice", "order-1");
	deliver("alice", "order-2");
	deliver("alice", "order-3");
	ck_assert_int_eq(test_wait_files(maildir("alice", "", "new"), 3, 5000),
			 3);

	settings_for(&set, "alice", &ev);
	src = open_source(&set);
	for (i = 0; i < 3; i++) {
		struct mail_source_facts f;

		ck_assert_int_eq(mail_source_next(src, &msg, &error),
				 MAIL_SOURCE_MESSAGE);
		/* One listing found three; those not handed out wait. */
		mail_source_get_facts(src, &f);
		ck_assert_uint_eq(f.contacts, 1);
		ck_assert_int_eq(f.waiting, 2 - i);
		ck_assert_uint_gt(msg.uid, last);
		ck_assert_uint_ne(msg.uidvalidity, 0);
		last = msg.uid;
		for (j = 0; j < 3; j++) {
			char subject[20];

			snprintf(subject, sizeof(subject), "order-%d", j + 1);
			if (has_subject(&msg, subject)) {
				ck_assert(!seen[j]);
				seen[j] = true;
			}
		}
		/* Fetching sets no \Seen; moves wait for the batch. */
		ck_assert_int_eq(seen_in_inbox("alice"), 0);
		ck_assert_int_eq(test_count_files(maildir("alice", ".Archive",
							  "cur")), 0);
		ck_assert_int_eq(mail_source_mark_handled(src, msg.uid,
							  &error), 0);
	}
	ck_assert(seen[0] && seen[1] && seen[2]);
	/* Looking again first archives the batch. */
	ck_assert_int_eq(next_now(src), MAIL_SOURCE_NONE);
	mail_source_get_state(src, &st);
	ck_assert_uint_eq(st.last_uid, last);
	mail_source_close(&src);
	ck_assert_ptr_null(src);

	/* All three moved to Archive, with \Seen (maildir flag S). */
	ck_assert_int_eq(inbox_count("alice"), 0);
	{
		DIR *d = opendir(maildir("alice", ".Archive", "cur"));
		struct dirent *de;
		int n = 0;

		ck_assert_ptr_nonnull(d);
		while ((de = readdir(d)) != NULL) {
			const char *flags = strstr(de->d_name, ":2,");

			if (de->d_name[0] == '.')
				continue;
			ck_assert_msg(flags && strchr(flags, 'S'),
				      "not \\Seen: %s", de->d_name);
			n++;
		}
		closedir(d);
		ck_assert_int_eq(n, 3);
	}
	ck_assert_int_eq(ev.down, 0);
}
END_TEST

START_TEST(test_uidvalidity_change)
{
	IMAP_TEST_LOCALS;
	struct mail_source_state st, saved;

	src = open_new_box(&set, &ev, "Games", "v1");
	next_within_is(src, &msg, 1000, "v1-a");
	handled(src, msg.uid);
	next_within_is(src, &msg, 1000, "v1-b");
	handled(src, msg.uid);
	mail_source_get_state(src, &saved);
	ck_assert_uint_eq(saved.last_uid, 2);
	mail_source_close(&src);

	/* Same state, same mailbox: nothing new, no rescan. */
	src = open_source(&set);
	mail_source_set_state(src, &saved);
	ck_assert_int_eq(next_now(src), MAIL_SOURCE_NONE);
	mail_source_close(&src);

	/* Recreate the mailbox: new UIDVALIDITY, UIDs start again at 1. */
	doveadm_mailbox("delete", "bob", "Games");
	doveadm_mailbox("create", "bob", "Games");
	doveadm_save("bob", "Games", "v2-a");
	src = open_source(&set);
	mail_source_set_state(src, &saved);
	ck_assert_int_eq(mail_source_next(src, &msg, &error),
			 MAIL_SOURCE_RESCAN);
	mail_source_get_state(src, &st);
	ck_assert_uint_ne(st.uidvalidity, saved.uidvalidity);
	ck_assert_uint_eq(st.last_uid, 0);
	/* UID 1 <= the old last UID 2, yet it is handed out. */
	ck_assert_int_eq(mail_source_next(src, &msg, &error),
			 MAIL_SOURCE_MESSAGE);
	ck_assert_uint_eq(msg.uid, 1);
	ck_assert_uint_eq(msg.uidvalidity, st.uidvalidity);
	ck_assert(has_subject(&msg, "v2-a"));
	mail_source_close(&src);
}
END_TEST

/* The connection lost after a message was handed out, the caller's mark
 * made while disconnected, and the mailbox recreated meanwhile (a new
 * UIDVALIDITY, UIDs from 1 again): the mark must not move the new
 * mailbox's message of the same UID, never handed out, to the archive. */
START_TEST(test_mark_while_down_then_new_uidvalidity)
{
	IMAP_TEST_LOCALS;
	uint32_t old_uid;
	int got_a = 0, got_b = 0, i;

	src = open_new_box(&set, &ev, "Recreated", "old");
	next_within_is(src, &msg, 1000, "old-a");
	old_uid = msg.uid;
	/* The server goes away; the mailbox comes back recreated. */
	ck_assert_int_eq(test_stack_cmd("restart-imap", NULL), 0);
	doveadm_mailbox("delete", "bob", "Recreated");
	doveadm_mailbox("create", "bob", "Recreated");
	doveadm_save("bob", "Recreated", "new-a");
	doveadm_save("bob", "Recreated", "new-b");
	/* Fetching old-b finds the connection gone ... */
	ck_assert_int_eq(mail_source_next(src, &msg, &error),
			 MAIL_SOURCE_ERROR);
	/* ... and the caller, having committed old-a, marks it. */
	(void)mail_source_mark_handled(src, old_uid, &error);
	ck_assert_int_eq(next_within(src, &msg, 3000), MAIL_SOURCE_RESCAN);
	for (i = 0; i < 2; i++) {
		ck_assert_msg(next_within(src, &msg, 3000) ==
			      MAIL_SOURCE_MESSAGE, "new mail %d not handed "
			      "out (%d in the archive)", i + 1,
			      test_count_files(maildir("bob", ".Archive",
						       "cur")));
		got_a += has_subject(&msg, "new-a");
		got_b += has_subject(&msg, "new-b");
		ck_assert_int_eq(mail_source_mark_handled(src, msg.uid,
							  &error), 0);
	}
	ck_assert_int_eq(got_a, 1);
	ck_assert_int_eq(got_b, 1);
	mail_source_close(&src);
}
END_TEST

/* Fetch everything from carol's INBOX, with the IMAP server restarted after
 * the second message was handed out and before it was marked. */
START_TEST(test_restart_in_the_middle_of_a_poll)
{
	IMAP_TEST_LOCALS;
	struct mail_source_state st;
	int got[6] = { 0 }, i, n = 0, tries = 0;

	save_numbered("carol", "restart", 5);
	settings_for(&set, "carol", &ev);
	src = open_source(&set);
	while (n < 5 && tries++ < 200) {
		enum mail_source_result r = mail_source_next(src, &msg,
							     &error);

		if (r == MAIL_SOURCE_ERROR || r == MAIL_SOURCE_NONE) {
			mail_source_wait(src, 100, &error);
			continue;
		}
		ck_assert_int_eq(r, MAIL_SOURCE_MESSAGE);
		for (i = 1; i <= 5; i++) {
			char subject[20];

			snprintf(subject, sizeof(subject), "restart-%d", i);
			if (has_subject(&msg, subject))
				got[i]++;
		}
		n++;
		if (n == 2) {
			/* The "store commit" happened; the server goes away
			 * before the archive move. */
			ck_assert_int_eq(test_stack_cmd("restart-imap", NULL),
					 0);
			(void)mail_source_mark_handled(src, msg.uid, &error);
			continue;
		}
		if (n == 4) {
			/* A longer outage: several failed tries, one event. */
			ck_assert_int_eq(mail_source_mark_handled(src, msg.uid,
								  &error), 0);
			ck_assert_int_eq(test_stack_cmd("stop-imap", NULL), 0);
			for (i = 0; i < 5; i++) {
				ck_assert_int_eq(mail_source_next(src, &msg,
								  &error),
						 MAIL_SOURCE_ERROR);
				mail_source_wait(src, 1000, &error);
			}
			ck_assert_int_eq(ev.down, 2);
			ck_assert_int_eq(test_stack_cmd("start-imap", NULL), 0);
			continue;
		}
		ck_assert_int_eq(mail_source_mark_handled(src, msg.uid,
							  &error), 0);
	}
	ck_assert_int_eq(n, 5);
	for (i = 1; i <= 5; i++)
		ck_assert_msg(got[i] == 1, "restart-%d seen %d times", i,
			      got[i]);
	/* Settle: the next scan has nothing new. */
	ck_assert_int_eq(next_within(src, &msg, 300), MAIL_SOURCE_NONE);
	mail_source_get_state(src, &st);
	ck_assert_uint_eq(st.last_uid, 5);
	ck_assert_int_eq(ev.down, 2);
	ck_assert_int_eq(ev.up, 2);
	mail_source_close(&src);
	/* Nothing lost: all five archived, the INBOX empty. */
	ck_assert_int_eq(inbox_count("carol"), 0);
	ck_assert_int_eq(test_count_files(maildir("carol", ".Archive", "cur")),
			 5);
}
END_TEST

START_TEST(test_idle_wakes_on_delivery)
{
	IMAP_TEST_LOCALS;
	uint64_t sent_at = 0, woke_at;
	int pfd[2], r;
	pid_t pid;

	settings_for(&set, "dave", &ev);
	set.poll_ms = 10000;
	src = open_source(&set);
	ck_assert_int_eq(pipe(pfd), 0);
	pid = quiet_then_fork(src, 300000);
	if (pid == 0) {
		uint64_t t;

		deliver("dave", "idle-1");
		t = test_now_ms();	/* Postfix accepted it */
		if (write(pfd[1], &t, sizeof(t)) != sizeof(t))
			_exit(1);
		_exit(0);
	}
	r = mail_source_wait(src, 10000, &error);
	woke_at = test_now_ms();
	ck_assert_int_eq(read(pfd[0], &sent_at, sizeof(sent_at)),
			 sizeof(sent_at));
	waitpid(pid, NULL, 0);
	close(pfd[0]);
	close(pfd[1]);
	ck_assert_int_eq(r, 1);
	printf("IDLE woke %lld ms after Postfix accepted the mail\n",
	       (long long)(woke_at - sent_at));
	fflush(stdout);
	/* Generous bound: a sleep-poll would take the whole 10 s. */
	ck_assert_uint_lt(woke_at - sent_at, 5000);
	next_within_is(src, &msg, 2000, "idle-1");
	mail_source_close(&src);
}
END_TEST

/* [imap] idle = no: the source polls even though the server offers
 * IDLE, so a delivery does not cut the wait short. */
START_TEST(test_idle_turned_off)
{
	IMAP_TEST_LOCALS;
	uint64_t t0, waited;
	int r;
	pid_t pid;

	settings_for(&set, "hank", &ev);
	set.poll_ms = 2000;
	set.no_idle = true;
	src = open_source(&set);
	pid = quiet_then_fork(src, 200000);
	if (pid == 0) {
		deliver("hank", "no-idle-1");
		_exit(0);
	}
	t0 = test_now_ms();
	r = mail_source_wait(src, 10000, &error);
	waited = test_now_ms() - t0;
	waitpid(pid, NULL, 0);
	ck_assert_int_ge(r, 0);
	/* a lower bound only: IDLE would have woken soon after delivery */
	ck_assert_msg(waited >= 1900, "woke after %llu ms", (unsigned long long)waited);
	next_within_is(src, &msg, 5000, "no-idle-1");
	mail_source_close(&src);
}
END_TEST

/* IDLE in progress when the server restarts: wait reports trouble, the
 * next call reconnects and finds the mail delivered meanwhile. */
START_TEST(test_restart_during_idle)
{
	IMAP_TEST_LOCALS;
	pid_t pid;
	int r;

	settings_for(&set, "erin", &ev);
	set.poll_ms = 10000;
	src = open_source(&set);
	pid = quiet_then_fork(src, 300000);
	if (pid == 0) {
		if (test_stack_cmd("stop-imap", NULL) != 0)
			_exit(1);
		drop_into_maildir("erin", "during-outage");
		_exit(test_stack_cmd("start-imap", NULL) != 0);
	}
	r = mail_source_wait(src, 10000, &error);
	ck_assert_int_ne(r, 0);	/* -1 (lost) or 1 (BYE arrived) */
	waitpid(pid, NULL, 0);
	next_within_is(src, &msg, 5000, "during-outage");
	handled(src, msg.uid);
	ck_assert_int_eq(ev.down, 1);
	ck_assert_int_eq(ev.up, 1);
	mail_source_close(&src);
}
END_TEST

/* A server without MOVE, UIDPLUS and IDLE (mailstack's 127.0.0.2):
 * archive by COPY + \Deleted + EXPUNGE, wait by sleeping. */
START_TEST(test_fallbacks_without_move_and_idle)
{
	IMAP_TEST_LOCALS;
	uint32_t uid2;
	uint64_t t0;
	int r;

	save_numbered("frank", "plain", 2);
	settings_for(&set, "frank", &ev);
	set.host = "127.0.0.2";
	set.poll_ms = 300;
	src = open_source(&set);
	first_handled_then_second(src, &msg, "plain");
	uid2 = msg.uid;
	/* plain-2 handed out, not handled: the archive batch {plain-1} is
	 * sent; EXPUNGE without UIDPLUS takes all \Deleted mail, and only
	 * the archived one carries it. */
	ck_assert_int_eq(next_now(src), MAIL_SOURCE_NONE);
	ck_assert_int_eq(inbox_count("frank"), 1);
	ck_assert_int_eq(test_count_files(maildir("frank", ".Archive", "cur")),
			 1);
	handled(src, uid2);
	ck_assert_int_eq(next_now(src), MAIL_SOURCE_NONE);
	ck_assert_int_eq(inbox_count("frank"), 0);
	ck_assert_int_eq(test_count_files(maildir("frank", ".Archive", "cur")),
			 2);
	/* No IDLE: wait sleeps the poll interval, not the 10 s asked. */
	t0 = test_now_ms();
	r = mail_source_wait(src, 10000, &error);
	ck_assert_int_eq(r, 1);
	ck_assert_uint_ge(test_now_ms() - t0, 250);
	ck_assert_uint_lt(test_now_ms() - t0, 3000);
	mail_source_close(&src);
	ck_assert_int_eq(ev.down, 0);
}
END_TEST

/* Open, take one result of next(), close; the error is copied out. */
static enum mail_source_result first_result(const struct mail_source_settings
					    *set, char *error, size_t size)
{
	struct mail_source_message msg;
	struct mail_source *src = open_source(set);
	enum mail_source_result r;
	const char *e = "";

	r = mail_source_next(src, &msg, &e);
	snprintf(error, size, "%s", r == MAIL_SOURCE_ERROR ? e : "");
	mail_source_close(&src);
	return r;
}

/* The caller could not handle a message (no mark): after a wait it is
 * offered again, before the newer one. */
START_TEST(test_unmarked_offered_again)
{
	IMAP_TEST_LOCALS;
	uint32_t first;

	save_numbered("gwen", "retry", 2);
	settings_for(&set, "gwen", &ev);
	src = open_source(&set);
	next_is(src, &msg, "retry-1");
	first = msg.uid;
	mail_source_wait(src, 10, &error);
	ck_assert_int_eq(mail_source_next(src, &msg, &error),
			 MAIL_SOURCE_MESSAGE);
	ck_assert_uint_eq(msg.uid, first);
	ck_assert(has_subject(&msg, "retry-1"));
	handled(src, msg.uid);
	next_is(src, &msg, "retry-2");
	handled(src, msg.uid);
	ck_assert_int_eq(next_now(src), MAIL_SOURCE_NONE);
	ck_assert_int_eq(inbox_count("gwen"), 0);
	mail_source_close(&src);
}
END_TEST

/* A message's received time is its INTERNALDATE, which Dovecot keeps as
 * a maildir file's mtime: exact to the second, zone included. */
START_TEST(test_received_is_internaldate)
{
	IMAP_TEST_LOCALS;
	struct timeval tv[2] = { { 1796126400, 0 }, { 1796126400, 0 } };
	char path[700];
	int64_t before = (int64_t)time(NULL);
	int i, got = 0;
	FILE *f;

	doveadm_mailbox("create", "gwen", "Dated");
	snprintf(path, sizeof(path), "%s/%llu.P%d.dated",
		 maildir("gwen", ".Dated", "new"),
		 (unsigned long long)test_now_ms(), (int)getpid());
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "Subject: dated-1\n\nbody\n");
	fclose(f);
	/* 2026-12-01 12:00:00 UTC */
	ck_assert_int_eq(utimes(path, tv), 0);
	doveadm_save("gwen", "Dated", "dated-2");
	settings_for(&set, "gwen", &ev);
	set.mailbox = "Dated";
	src = open_source(&set);
	/* Dovecot numbers the two in either order. */
	for (i = 0; i < 2; i++) {
		ck_assert_int_eq(next_within(src, &msg, 2000),
				 MAIL_SOURCE_MESSAGE);
		if (has_subject(&msg, "dated-1")) {
			ck_assert_int_eq(msg.received, 1796126400);
			got |= 1;
		} else {
			ck_assert(has_subject(&msg, "dated-2"));
			ck_assert_int_ge(msg.received, before - 1);
			ck_assert_int_le(msg.received, (int64_t)time(NULL));
			got |= 2;
		}
		ck_assert_int_eq(mail_source_mark_handled(src, msg.uid,
							  &error), 0);
	}
	ck_assert_int_eq(got, 3);
	mail_source_close(&src);
}
END_TEST

START_TEST(test_tls_and_login)
{
	struct mail_source_settings set;
	struct events ev = { 0 };
	char error[600];

	/* imaps, verified against the stack's CA, by IP address. */
	settings_for(&set, "bob", &ev);
	set.tls = MAIL_TLS_IMPLICIT;
	set.port = test_stack.imaps_port;
	set.ca_file = test_stack.ca_file;
	ck_assert_msg(first_result(&set, error, sizeof(error)) !=
		      MAIL_SOURCE_ERROR, "%s", error);

	/* STARTTLS by name, AUTHENTICATE PLAIN. */
	settings_for(&set, "bob", &ev);
	set.host = "localhost";
	set.tls = MAIL_TLS_STARTTLS;
	set.ca_file = test_stack.ca_file;
	set.auth = MAIL_SOURCE_AUTH_PLAIN;
	ck_assert_msg(first_result(&set, error, sizeof(error)) !=
		      MAIL_SOURCE_ERROR, "%s", error);
	ck_assert_int_eq(ev.down, 0);

	/* Verification is on by default: the system store does not know
	 * the stack's CA, so no login is even tried. */
	settings_for(&set, "bob", &ev);
	set.tls = MAIL_TLS_IMPLICIT;
	set.port = test_stack.imaps_port;
	ck_assert_int_eq(first_result(&set, error, sizeof(error)),
			 MAIL_SOURCE_ERROR);
	ck_assert_msg(strstr(error, "certificate") != NULL, "%s", error);
	ck_assert_int_eq(ev.down, 1);
	/* ... unless turned off (tests only). */
	set.tls_no_verify = true;
	ck_assert_msg(first_result(&set, error, sizeof(error)) !=
		      MAIL_SOURCE_ERROR, "%s", error);

	/* The check itself: right CA, right and wrong names. */
	{
		unsigned char der[8192];
		const unsigned char *ders[1] = { der };
		size_t len;
		char err[400];
		FILE *f;

		ck_assert_int_eq(test_shell("openssl x509 -in '%s/tls/server.pem'"
					    " -outform DER -out '%s/tls/server.der'",
					    test_stack.dir, test_stack.dir), 0);
		snprintf(err, sizeof(err), "%s/tls/server.der", test_stack.dir);
		f = fopen(err, "rb");
		ck_assert_ptr_nonnull(f);
		len = fread(der, 1, sizeof(der), f);
		fclose(f);
		ck_assert_int_eq(imap_tls_verify(ders, &len, 1, "localhost",
						 test_stack.ca_file, err,
						 sizeof(err)), 0);
		ck_assert_int_eq(imap_tls_verify(ders, &len, 1, "127.0.0.1",
						 test_stack.ca_file, err,
						 sizeof(err)), 0);
		ck_assert_int_eq(imap_tls_verify(ders, &len, 1, "mx.example.org",
						 test_stack.ca_file, err,
						 sizeof(err)), -1);
		ck_assert_msg(strstr(err, "mx.example.org") != NULL, "%s", err);
		ck_assert_int_eq(imap_tls_verify(ders, &len, 1, "localhost",
						 NULL, err, sizeof(err)), -1);
		ck_assert_int_eq(imap_tls_verify(ders, &len, 0, "localhost",
						 test_stack.ca_file, err,
						 sizeof(err)), -1);
	}

	/* A wrong password fails, and is not in the message. */
	memset(&ev, 0, sizeof(ev));
	settings_for(&set, "bob", &ev);
	set.password = "not-the-password";
	ck_assert_int_eq(first_result(&set, error, sizeof(error)),
			 MAIL_SOURCE_ERROR);
	ck_assert_ptr_null(strstr(error, "not-the-password"));
	ck_assert_msg(strstr(error, "login") != NULL, "%s", error);
	ck_assert_int_eq(ev.down, 1);
	ck_assert_ptr_null(strstr(ev.last, "not-the-password"));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("imap");
	TCase *tc = tcase_create("dovecot");
	int failed;

	test_stack_start("alice:alice-pw bob:bob-pw carol:carol-pw "
			 "dave:dave-pw erin:erin-pw frank:frank-pw "
			 "gwen:gwen-pw hank:hank-pw");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_fetch_in_uid_order_and_archive);
	tcase_add_test(tc, test_uidvalidity_change);
	tcase_add_test(tc, test_mark_while_down_then_new_uidvalidity);
	tcase_add_test(tc, test_restart_in_the_middle_of_a_poll);
	tcase_add_test(tc, test_idle_wakes_on_delivery);
	tcase_add_test(tc, test_idle_turned_off);
	tcase_add_test(tc, test_restart_during_idle);
	tcase_add_test(tc, test_fallbacks_without_move_and_idle);
	tcase_add_test(tc, test_unmarked_offered_again);
	tcase_add_test(tc, test_received_is_internaldate);
	tcase_add_test(tc, test_tls_and_login);
	suite_add_tcase(s, tc);
	failed = test_failures(s);
	/* The stack must stop cleanly, nothing left running. */
	if (test_stack_stop() < 0)
		failed++;
	return failed != 0;
}
