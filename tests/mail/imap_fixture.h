/* imap_fixture.h -- what the IMAP source's tests against the real stack
 * (test_imap.c, test_imap_aside.c) share: the source's settings for a
 * stack user, its events counted, the users' maildirs read directly,
 * mail saved with doveadm, and the wait for the next message.  Include
 * it after config.h (memmem is a GNU extension). */
#ifndef ASHES_TESTS_IMAP_FIXTURE_H
#define ASHES_TESTS_IMAP_FIXTURE_H

#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "mail/source.h"
#include "test_imap_stack.h"

struct events {
	int down, up;
	char last[600];
};

static inline void on_event(void *context, enum mail_source_event event,
			    const char *detail)
{
	struct events *ev = context;

	if (event == MAIL_SOURCE_EVENT_DOWN)
		ev->down++;
	else
		ev->up++;
	snprintf(ev->last, sizeof(ev->last), "%s", detail);
}

static inline void settings_for(struct mail_source_settings *set,
				const char *user, struct events *ev)
{
	memset(set, 0, sizeof(*set));
	set->backend = "imap";
	set->host = "127.0.0.1";
	set->port = test_stack.imap_port;
	set->tls = MAIL_TLS_NONE;
	set->user = user;
	set->password = test_stack_password(user);
	set->timeout_ms = 5000;
	set->poll_ms = 5000;
	set->backoff_min_ms = 50;
	set->backoff_max_ms = 400;
	set->event = on_event;
	set->event_context = ev;
}

static inline struct mail_source *
open_source(const struct mail_source_settings *set)
{
	struct mail_source *src = NULL;
	const char *error = NULL;

	ck_assert_msg(mail_source_open(set, &src, &error) == 0, "%s", error);
	return src;
}

/* A user's maildir folder, e.g. ("alice", "", "new") or
 * ("alice", ".Archive", "cur"). */
static inline const char *maildir(const char *user, const char *box,
				  const char *sub)
{
	static char path[600];

	snprintf(path, sizeof(path), "%s/mail/%s/Maildir/%s%s%s",
		 test_stack.dir, user, box, box[0] ? "/" : "", sub);
	return path;
}

static inline int inbox_count(const char *user)
{
	return test_count_files(maildir(user, "", "new")) +
	       test_count_files(maildir(user, "", "cur"));
}

/* The locals nearly every test of the source works with. */
#define IMAP_TEST_LOCALS                                                 \
	struct mail_source_settings set;                                 \
	struct mail_source_message msg;                                  \
	struct mail_source *src;                                         \
	struct events ev = { 0 };                                        \
	const char *error __attribute__((unused))

/* Save a message straight into a mailbox with doveadm (no Postfix). */
static inline void doveadm_save(const char *user, const char *box,
				const char *subject)
{
	ck_assert_int_eq(test_shell("printf 'Subject: %s\\n\\nbody %s\\n' | "
				    "doveadm -c '%s/dovecot/dovecot.conf' save "
				    "-u %s -m %s", subject, subject,
				    test_stack.dir, user, box), 0);
}

/* Save prefix-1 .. prefix-n into user's INBOX, in that order. */
static inline void save_numbered(const char *user, const char *prefix,
				 int n)
{
	char subject[60];
	int i;

	for (i = 1; i <= n; i++) {
		snprintf(subject, sizeof(subject), "%s-%d", prefix, i);
		doveadm_save(user, "INBOX", subject);
	}
}

static inline bool has_subject(const struct mail_source_message *msg,
			       const char *subject)
{
	char want[100];

	snprintf(want, sizeof(want), "Subject: %s\r\n", subject);
	return memmem(msg->data, msg->size, want, strlen(want)) != NULL ||
	       (snprintf(want, sizeof(want), "Subject: %s\n", subject),
		memmem(msg->data, msg->size, want, strlen(want)) != NULL);
}

/* The next message of src, into *msg, must be the one saved with
 * `subject`; its uid. */
static inline uint32_t next_is(struct mail_source *src,
			       struct mail_source_message *msg,
			       const char *subject)
{
	const char *error = NULL;

	ck_assert_int_eq(mail_source_next(src, msg, &error),
			 MAIL_SOURCE_MESSAGE);
	ck_assert_msg(has_subject(msg, subject), "not \"%s\"", subject);
	return msg->uid;
}

/* One look at src (what it hands out, if anything, is dropped). */
static inline enum mail_source_result next_now(struct mail_source *src)
{
	struct mail_source_message msg;
	const char *error = NULL;

	return mail_source_next(src, &msg, &error);
}

/* Mark message uid of src handled. */
static inline void handled(struct mail_source *src, uint32_t uid)
{
	const char *error = NULL;

	ck_assert_msg(mail_source_mark_handled(src, uid, &error) == 0, "%s",
		      error);
}

/* prefix-1 handed out and handled, then prefix-2 handed out into *msg
 * (not handled); its uid. */
static inline uint32_t first_handled_then_second(struct mail_source *src,
						 struct mail_source_message *msg,
						 const char *prefix)
{
	char subject[60];

	snprintf(subject, sizeof(subject), "%s-1", prefix);
	next_is(src, msg, subject);
	handled(src, msg->uid);
	snprintf(subject, sizeof(subject), "%s-2", prefix);
	return next_is(src, msg, subject);
}

/* Wait for the next message (at most ms), handling NONE with wait(). */
static inline enum mail_source_result
next_within(struct mail_source *src, struct mail_source_message *msg,
	    unsigned int ms)
{
	uint64_t end = test_now_ms() + ms;
	enum mail_source_result r;
	const char *error;

	for (;;) {
		r = mail_source_next(src, msg, &error);
		if (r == MAIL_SOURCE_MESSAGE || r == MAIL_SOURCE_RESCAN ||
		    test_now_ms() >= end)
			return r;
		mail_source_wait(src, 200, &error);
	}
}

/* Within ms, the next message of src, into *msg, is the one with
 * `subject`. */
static inline void next_within_is(struct mail_source *src,
				  struct mail_source_message *msg,
				  unsigned int ms, const char *subject)
{
	ck_assert_int_eq(next_within(src, msg, ms), MAIL_SOURCE_MESSAGE);
	ck_assert_msg(has_subject(msg, subject), "not \"%s\"", subject);
}

#endif
