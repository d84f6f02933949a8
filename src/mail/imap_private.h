/* imap_private.h -- the "imap" mailbox source's state, shared by imap.c
 * (connection, scanning, fetching, waiting), imap_move.c (moving messages
 * out of the mailbox: the archive batch and set-aside) and imap_session.c
 * (a failed operation: dropping the session, noting the outage).  Calls go
 * one way: imap.c -> imap_move.c -> imap_session.c, and imap.c ->
 * imap_session.c.  Not an interface: nothing outside those files includes
 * it. */
#ifndef ASHES_MAIL_IMAP_PRIVATE_H
#define ASHES_MAIL_IMAP_PRIVATE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libetpan/libetpan.h>

#include "mail/source.h"
#include "util/buf.h"

/* Most handled messages moved to the archive with one command. */
#define IMAP_ARCHIVE_BATCH 100
/* Refusals (not connection trouble) after which a set-aside is no longer
 * retried; the message then stays in the mailbox until a restart. */
#define IMAP_SET_ASIDE_TRIES 5

/* A message to move to the quarantine folder (see imap_move.c). */
struct imap_aside {
	uint32_t uid;
	unsigned int refusals;	/* MOVE/COPY refused this many times */
};

struct imap_source {
	struct mail_source src;
	/* settings, copied */
	char *host;
	uint16_t port;
	enum mail_tls tls;
	char *ca_file;
	bool tls_no_verify;
	enum mail_source_auth auth;
	char *user;
	char *password;
	char *mailbox;
	char *archive;
	char *quarantine;
	unsigned int timeout_ms;
	unsigned int poll_ms;
	bool no_idle;		/* the operator turned IDLE off */
	unsigned int backoff_min_ms, backoff_max_ms;
	void (*event)(void *context, enum mail_source_event event,
		      const char *detail);
	void *event_context;

	mailimap *imap;		/* NULL while disconnected */
	bool has_move, has_idle, has_uidplus;
	bool quarantine_created;	/* CREATE sent on this connection */
	bool rescan_pending;	/* report RESCAN on the next next() */
	bool in_outage;		/* DOWN was reported, UP not yet */
	unsigned int backoff_ms;	/* current reconnect delay */
	uint64_t retry_at_ms;	/* no connect try before this */
	uint32_t cursor;	/* last UID handed out */
	uint32_t *pending;	/* UIDs > cursor, ascending */
	size_t n_pending, cap_pending;
	uint32_t *archive_uids;	/* handled, move not yet sent */
	size_t n_archive, cap_archive;
	/* Set aside, move not done yet: kept across reconnects (unlike the
	 * archive batch), so a scan never archives them. */
	struct imap_aside *aside;
	size_t n_aside, cap_aside;
	struct buf data;	/* the message handed out */
	int64_t received;	/* its INTERNALDATE, epoch s (0: unknown) */
	/* Replay (source.h): the folder read is the archive; one scan. */
	int64_t replay_since;	/* 0: not a replay */
	unsigned int replay_max;
	bool replay_scanned;
	uint32_t *replay_uids;	/* found by the one scan, ascending */
	size_t n_replay;
	size_t replay_cut;	/* left out, over replay_max */
	int wake_pipe[2];	/* interrupt() while sleeping */
	volatile sig_atomic_t idling;	/* interrupt() while in IDLE */
};

/* imap.c */

/* Connect if needed (respecting the backoff; DOWN/UP events).  0, or -1
 * with *error_r. */
int imap_ensure_connected(struct imap_source *is, const char **error_r);
/* First static attribute of type att_type in a fetch response item. */
struct mailimap_msg_att_static *imap_msg_static(struct mailimap_msg_att *att,
						int att_type);
/* The INTERNALDATE of a fetch response item, epoch s; 0 if unknown. */
int64_t imap_msg_received(struct mailimap_msg_att *att);
/* Append uid to the sorted-later list *uids (n, cap). */
void imap_uid_push(uint32_t **uids, size_t *n, size_t *cap, uint32_t uid);
int imap_uid_cmp(const void *a, const void *b);

/* imap_replay.c */

/* The UIDs of the selected folder whose INTERNALDATE is at or after
 * since, ascending (UID SEARCH SINCE the day before, then the dates
 * fetched and compared), into *uids_r (n_r; caller frees).  0, or -1 with
 * *error_r. */
int imap_uids_since(struct imap_source *is, int64_t since, uint32_t **uids_r,
		    size_t *n_r, const char **error_r);
/* A replay's one scan: the messages since replay_since, at most
 * replay_max, queued as pending.  0 or -1 with *error_r. */
int imap_replay_scan(struct imap_source *is, const char **error_r);

/* imap_session.c */

/* libetpan's error code r in words for logs (never with a password): a
 * static string, never NULL. */
const char *imap_strerror(int r);
/* Whether r leaves the session useless (drop it and reconnect). */
bool imap_is_connection_error(int r);
/* Free the session, if any (is->imap becomes NULL), and forget what only
 * it could act on: the pending UIDs and the archive batch (a later scan
 * finds those again); the set-asides are kept. */
void imap_disconnect(struct imap_source *is);
/* An operation WHAT failed with libetpan code r: fill *error_r (owned by
 * is->src); if r is a connection error, drop the session (is->imap
 * becomes NULL) and note the outage (the DOWN event fires once). */
void imap_failed(struct imap_source *is, const char *what, int r,
		 const char **error_r);

/* imap_move.c */

/* Queue UID for the archive batch. */
void imap_archive_add(struct imap_source *is, uint32_t uid);
/* Send the archive batch (\Seen, then move) and empty it.  Returns 0, or
 * -1 with *error_r (what failed is at or below last_uid: a later scan
 * archives it). */
int imap_archive_flush(struct imap_source *is, const char **error_r);
/* Whether UID is waiting to be set aside (the scan must not archive it). */
bool imap_set_aside_queued(const struct imap_source *is, uint32_t uid);
/* Retry the set-asides not done yet.  Returns 0, or -1 with *error_r (the
 * session is gone if is->imap is NULL; else the server refused). */
int imap_set_aside_flush(struct imap_source *is, const char **error_r);

/* The vfuncs of source.h. */
int imap_mark_handled(struct mail_source *src, uint32_t uid,
		      const char **error_r);
int imap_set_aside(struct mail_source *src, uint32_t uid,
		   const char **error_r);

#endif
