/* imap_sent.h -- the IMAP "sent" folder of the daemon's replies: after
 * each reply went out by SMTP, a copy of its headers is appended there
 * (header-only, so the folder stays small), and after a restore the
 * Message-IDs found there tell which replies were sent already, so none
 * goes twice.  A connection of its own (the outbox thread's), to the same
 * server and account as the mailbox source (source.h's settings); the
 * folder is created when missing.
 */
#ifndef ASHES_MAIL_IMAP_SENT_H
#define ASHES_MAIL_IMAP_SENT_H

#include <stddef.h>
#include <stdint.h>

#include "mail/source.h"

#define IMAP_SENT_DEFAULT_FOLDER "Sent"
/* Most Message-IDs one look at the folder reads (the newest ones). */
#define IMAP_SENT_IDS_MAX 50000

struct imap_sent;

/* A Sent folder (folder; NULL: IMAP_SENT_DEFAULT_FOLDER) on set's server
 * (set->backend must be "imap"; the mailbox and replay settings are
 * ignored).  No network I/O yet.  0 and *sent_r (imap_sent_close), or -1
 * with *error_r. */
int imap_sent_open(const struct mail_source_settings *set, const char *folder,
		   struct imap_sent **sent_r, const char **error_r);

/* Append the header block of mail (its bytes up to the first empty line)
 * as a message of its own, marked \Seen.  Tried again once on a new
 * connection when the old one turns out closed; connecting respects the
 * source's backoff, so a server away costs nothing per reply.  0, or -1
 * with *error_r (the reply went out all the same). */
int imap_sent_append(struct imap_sent *sent, const char *mail, size_t len,
		     const char **error_r);

/* Call fn(ctx, id, len) for the Message-ID (as written, with <>) of each
 * message the folder received at or after since, the newest
 * IMAP_SENT_IDS_MAX of them.  0, or -1 with *error_r. */
int imap_sent_ids(struct imap_sent *sent, int64_t since,
		  void (*fn)(void *ctx, const char *id, size_t len),
		  void *ctx, const char **error_r);

void imap_sent_close(struct imap_sent **sent);

#endif
