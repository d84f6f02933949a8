/* source.h -- where inbound mail comes from.  A mailbox source is a backend
 * chosen by name, a struct of function pointers (like OpenSMTPD's queue
 * backends): "imap" in production (imap.c, imap_move.c; libetpan), "dir" for
 * a folder of .eml files in local runs and unit tests (maildir_source.c).
 * The daemon's loop is the same for both:
 *
 *	mail_source_set_state(src, &saved);        (from the store)
 *	for (;;) {
 *		r = mail_source_next(src, &msg, &error);
 *		if (r == MAIL_SOURCE_MESSAGE) {
 *			store transaction: handle msg.data, save
 *			  {msg.uidvalidity, msg.uid} as the new state; commit;
 *			mail_source_mark_handled(src, msg.uid, &error);
 *			  (or, for a mail that keeps failing: record that,
 *			  then mail_source_set_aside(src, msg.uid, &error))
 *		} else if (r == MAIL_SOURCE_RESCAN) {
 *			save the new state (uidvalidity, last_uid 0): the store's
 *			  Message-ID / sha256 record stops double-applying;
 *		} else {                          (MAIL_SOURCE_NONE / _ERROR)
 *			mail_source_wait(src, max_ms, &error);
 *		}
 *	}
 *
 * Messages come in UID order; one handed out but not marked is offered
 * again after the next wait() (the caller could not handle it and retries;
 * it should not skip ahead).  A message is archived (\Seen, moved to the
 * archive folder) only by mark_handled, i.e. after the caller's commit.  If
 * the daemon dies between its commit and the move, the message stays in the
 * mailbox with a UID at or below the saved last UID: the next scan archives
 * it without handing it out again.  A message that must not be retried for
 * ever (it keeps failing) is set aside instead: set_aside moves it to the
 * quarantine folder, unread.  Nothing here knows of games, rules or the
 * store.
 *
 * Connection trouble never loses state: next/wait report MAIL_SOURCE_ERROR
 * and later calls reconnect, with exponential backoff capped at
 * backoff_max_ms.  The event hook fires once when an outage begins and once
 * when it ends, so the caller logs once per outage, not once per try.
 * Passwords are never logged nor put in error strings.  The process must
 * ignore SIGPIPE: a server that hangs up must not kill the daemon (gnutls
 * and libetpan write without MSG_NOSIGNAL).
 */
#ifndef ASHES_MAIL_SOURCE_H
#define ASHES_MAIL_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum mail_tls {
	MAIL_TLS_IMPLICIT = 0,	/* imaps / smtps: TLS from the first byte */
	MAIL_TLS_STARTTLS,	/* plain connect, STARTTLS required */
	MAIL_TLS_NONE,		/* no TLS at all: loopback tests only */
};

enum mail_source_auth {
	MAIL_SOURCE_AUTH_LOGIN = 0,	/* IMAP LOGIN */
	MAIL_SOURCE_AUTH_PLAIN,		/* AUTHENTICATE PLAIN (SASL) */
};

enum mail_source_event {
	MAIL_SOURCE_EVENT_DOWN,	/* outage begins; detail: the error */
	MAIL_SOURCE_EVENT_UP,	/* connected again after an outage */
};

struct mail_source_settings {
	const char *backend;	/* "imap" or "dir" */

	/* imap */
	const char *host;
	unsigned int port;	/* 0: 993 for implicit TLS, else 143 */
	enum mail_tls tls;
	const char *ca_file;	/* PEM CAs; NULL: the system's trust store */
	bool tls_no_verify;	/* testing only: accept any certificate */
	enum mail_source_auth auth;
	const char *user;
	const char *password;	/* never logged */
	const char *mailbox;	/* NULL: "INBOX" */
	const char *archive;	/* NULL: "Archive"; created when missing */
	const char *quarantine;	/* set-aside mail: NULL: "Quarantine";
				   created when missing */
	unsigned int timeout_ms;	/* per network operation; 0: 30 s */

	/* dir: reads the .eml files of PATH/new if it exists, else of PATH, in
	 * name order; handled files move to PATH/archive, set-aside ones to
	 * PATH/quarantine. */
	const char *path;

	/* both */
	unsigned int poll_ms;		/* wait without IDLE; 0: 60 s */
	bool no_idle;		/* poll even where the server offers IDLE */
	unsigned int backoff_min_ms;	/* first reconnect delay; 0: 1 s */
	unsigned int backoff_max_ms;	/* cap; 0: 5 min */
	void (*event)(void *context, enum mail_source_event event,
		      const char *detail);
	void *event_context;
};

/* Where the caller stands in the mailbox: persisted by the caller. */
struct mail_source_state {
	uint32_t uidvalidity;	/* 0: never seen the mailbox */
	uint32_t last_uid;	/* every UID <= this one is handled */
};

/* A message handed out by next(): the bytes belong to the source and stay
 * valid until the next call on it. */
struct mail_source_message {
	uint32_t uidvalidity;
	uint32_t uid;
	const char *data;
	size_t size;
	/* When the mailbox received the mail, epoch seconds; 0 if unknown.
	 * IMAP: the message's INTERNALDATE (the server's receipt, with its
	 * time zone); dir: the file's mtime.  The server's clock, not the
	 * sender's: what a move is charged at (a Date header or a
	 * signature's time is the sender's to choose). */
	int64_t received;
};

enum mail_source_result {
	MAIL_SOURCE_ERROR = -1,	/* connection or I/O trouble; error_r set */
	MAIL_SOURCE_NONE = 0,	/* nothing new: wait */
	MAIL_SOURCE_MESSAGE,	/* *msg_r filled */
	MAIL_SOURCE_RESCAN,	/* UIDVALIDITY changed: state is now
				   (new uidvalidity, 0); save it, go on */
};

struct mail_source;

/* One backend: what imap.c and maildir_source.c provide. */
struct mail_source_vfuncs {
	const char *name;
	int (*open)(const struct mail_source_settings *set,
		    struct mail_source **src_r, const char **error_r);
	enum mail_source_result (*next)(struct mail_source *src,
					struct mail_source_message *msg_r,
					const char **error_r);
	int (*mark_handled)(struct mail_source *src, uint32_t uid,
			    const char **error_r);
	int (*set_aside)(struct mail_source *src, uint32_t uid,
			 const char **error_r);
	int (*wait)(struct mail_source *src, unsigned int max_ms,
		    const char **error_r);
	void (*interrupt)(struct mail_source *src);
	void (*close)(struct mail_source *src);
};

/* What the source saw of its mailbox, for the daemon's health report
 * (`ashes status`): how many times it reached the mailbox (a listing or
 * an IMAP IDLE that worked; the caller notes when the count moves, on
 * its own clock), and how many mails were waiting at the last listing,
 * less those handed out since (-1: never listed). */
struct mail_source_facts {
	uint64_t contacts;
	long waiting;
};

/* Every backend's struct starts with this. */
struct mail_source {
	const struct mail_source_vfuncs *v;
	struct mail_source_state state;
	struct mail_source_facts facts;	/* see mail_source_get_facts */
	char error[512];	/* storage for error_r strings */
};

/* Open a source of set->backend.  No network I/O happens here: an IMAP
 * source connects on the first next().  Returns 0, or -1 with *error_r
 * (static or owned by nobody: valid until the next call) for an unknown
 * backend or bad settings.  Free with mail_source_close(). */
int mail_source_open(const struct mail_source_settings *set,
		     struct mail_source **src_r, const char **error_r);

/* The caller's saved state; before the first next().  A state whose
 * uidvalidity differs from the mailbox's makes next() report RESCAN once. */
void mail_source_set_state(struct mail_source *src,
			   const struct mail_source_state *state);
void mail_source_get_state(const struct mail_source *src,
			   struct mail_source_state *state_r);

/* What the source saw of its mailbox (struct mail_source_facts). */
void mail_source_get_facts(const struct mail_source *src,
			   struct mail_source_facts *facts_r);

/* The next unhandled message in UID order (see enum mail_source_result).
 * *error_r points into src, valid until the next call. */
enum mail_source_result mail_source_next(struct mail_source *src,
					 struct mail_source_message *msg_r,
					 const char **error_r);

/* The caller has committed message UID: advance the last UID, mark it
 * \Seen and move it to the archive folder (MOVE, or COPY + \Deleted +
 * EXPUNGE).  The IMAP source batches the moves (one STORE and one MOVE for
 * many messages): they are sent before next() looks at the mailbox again,
 * before wait() and in close(), so a message is never handed out twice.
 * While disconnected nothing is queued: the first scan after the
 * reconnect archives it (or, under a new UIDVALIDITY, hands the new
 * mailbox's messages out, none archived unread).
 * Returns 0, or -1 with *error_r (the message stays and is archived by a
 * later scan, as the saved last UID covers it). */
int mail_source_mark_handled(struct mail_source *src, uint32_t uid,
			     const char **error_r);

/* Move message UID out of the mailbox into the quarantine folder (IMAP:
 * settings->quarantine, default "Quarantine", created when missing; dir:
 * PATH/quarantine/), so it is never handed out again; it is not marked
 * \Seen, so an operator looking at the folder sees it as new.  Like
 * mark_handled it advances the last UID (every UID <= last_uid is done).
 * The IMAP source moves it at once (not batched); it is taken out of the
 * archive batch, and other messages waiting there are not affected.
 * Returns 0 or -1 with *error_r.  On -1 the message is still never handed
 * out again: the source retries the move before its next scans (IMAP: up
 * to 5 refusals, then it leaves the message in the mailbox; connection
 * trouble does not count).  After a crash before the move was done, the
 * message is in the mailbox at or below the saved last UID, and the next
 * scan archives it like any handled message (never hands it out); once
 * the move was done it is only in the quarantine folder. */
int mail_source_set_aside(struct mail_source *src, uint32_t uid,
			  const char **error_r);

/* Wait up to max_ms (and at most the poll interval) for new mail: IMAP IDLE
 * when the server offers it, else a sleep; while disconnected, until the
 * next reconnect try.  Returns 1 if new mail may be there, 0 on timeout or
 * interrupt, -1 with *error_r on connection trouble (a later call
 * reconnects). */
int mail_source_wait(struct mail_source *src, unsigned int max_ms,
		     const char **error_r);

/* Make a wait() in progress return early (0).  Safe from a signal handler
 * or another thread. */
void mail_source_interrupt(struct mail_source *src);

/* Close the connection and free everything; *srcp becomes NULL. */
void mail_source_close(struct mail_source **srcp);

/* Internal to backends: a self-pipe for interruptible sleeps.  init
 * returns 0 or -1; sleep returns 1 after sleeping ms, 0 when woken. */
int mail_source_wake_init(int fds[2]);
int mail_source_sleep(const int fds[2], unsigned int ms);
void mail_source_wake(const int fds[2]);
void mail_source_wake_close(int fds[2]);

/* Internal to backends: the mailbox was reached (contacts + 1); listed
 * with `waiting` mails not handled yet (-1: not a listing); one was
 * handed out. */
void mail_source_note_contact(struct mail_source *src, long waiting);
void mail_source_note_handed_out(struct mail_source *src);

/* Internal to backends: format into src->error and return it. */
const char *mail_source_error(struct mail_source *src, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The backends (imap.c, maildir_source.c). */
extern const struct mail_source_vfuncs mail_source_imap;
extern const struct mail_source_vfuncs mail_source_dir;

#endif
