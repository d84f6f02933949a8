/* retention.h -- how long the club keeps what mails carry ([retention]
 * in ashesd.conf; README "Retention"): after sent_mail a sent mail keeps
 * its text but not its html and pictures; after refused_mail the bytes
 * of a mail that ran no command (refused, ignored, a duplicate) go, its
 * row and outcome stay; after raw_mail from a game's end the raw mails
 * of the game are reduced to what proves what their senders signed
 * (pgp_reduce_mail), so that its archive still verifies.  And a deleted
 * player's mails: reduced where a game refers to them, else dropped.
 *
 * Everything here works on the store alone (no mail is sent); the
 * daemon's loop runs retention_run() between batches of mail, `ashes db
 * prune --retention` until nothing is left.
 */
#ifndef ASHES_SERVER_RETENTION_H
#define ASHES_SERVER_RETENTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct store;

/* The limits in seconds; 0 keeps for ever. */
struct retention_limits {
	int64_t sent_mail;
	int64_t refused_mail;
	int64_t raw_mail;
};

/* The rows a pass of retention_run() handles of each rule, at most, in
 * one transaction each: a few milliseconds of work between mails. */
#define RETENTION_BATCH 200

/* What was done (added to by each call; zero it first). */
struct retention_report {
	int64_t sent_rows, sent_bytes;		/* html and pictures dropped */
	int64_t refused_rows, refused_bytes;	/* bytes of refused mails */
	int64_t reduced_rows;			/* mails reduced */
	int64_t reduced_bytes;			/* bytes saved by that */
	int64_t dropped_rows, dropped_bytes;	/* a deleted player's others */
	/* mails left as they were: their MIME cannot be read within the
	 * limits, or they hold nothing signed (pgp_reduce_mail) */
	int64_t unreducible;
	/* the last reason one was left, static, or NULL */
	const char *unreducible_why;
	/* a batch was full: run again soon */
	bool more;
};

/* Where retention_run() goes on from: the last ended game it looked at
 * (so a game whose mail cannot be reduced is not tried on every pass).
 * Zero it to start; it comes back to 0 when a pass reached the end. */
struct retention_cursor {
	int64_t game;
};

/* One bounded pass of the three rules at now: each rule in a
 * transaction of its own, at most batch rows each (0: RETENTION_BATCH).
 * 0 with *report added to; -1 with *error_r (that rule rolled back). */
int retention_run(struct store *st, const struct retention_limits *lim,
		  int64_t now, size_t batch, struct retention_cursor *cur,
		  struct retention_report *report, const char **error_r);

/* Reduce inbound mail inbound_id to its signed parts, with the thread
 * lines that bind a bare move to its game (retention_thread_headers), in
 * the caller's transaction.  1 reduced; 0 left as it was (reduced or
 * dropped already, a duplicate, truncated, or unreducible: counted in
 * report); -1 with *error_r. */
int retention_reduce_mail(struct store *st, int64_t inbound_id,
			  int64_t now, struct retention_report *report,
			  const char **error_r);

/* Every mail player_id sent that is still kept as received
 * (store_inbound_of_player: call it before their keys and addresses go):
 * reduced where a game refers to it, its bytes dropped elsewhere (and
 * where it cannot be reduced: nothing of it is kept that names them).
 * In the caller's transaction.  0 with *report added to, -1. */
int retention_reduce_player(struct store *st, int64_t player_id,
			    int64_t now, struct retention_report *report,
			    const char **error_r);

/* A mail's thread reduced to what binds a bare move to its game when the
 * signed text does not, said plainly: "Subject: [ashes #N]" for the tag
 * of subject, In-Reply-To and References holding only our own
 * Message-IDs ("<ashes.*@*>"); no address, no host, no date, no other
 * Message-ID.  Header lines, each CRLF-ended ("" for none); caller frees.
 * A public archive's mails and a reduced stored mail carry them. */
char *retention_thread_headers(const char *subject, const char *in_reply_to,
			     char *const *refs, size_t nrefs);

#endif
