/* outbox.h -- sending the store's outbox by SMTP: each queued row becomes
 * the exact bytes of a mail (mail/compose.h, optionally signed with the
 * daemon's key), goes out over the sender's SMTP connection (kept open
 * across batches: smtp.h), and is marked sent only after the server
 * accepted it.  ashesd calls this on its outbox thread (outbox_thread.h).  Temporary failures retry with
 * capped exponential backoff and jitter; permanent ones are recorded for
 * `ashes outbox list`.
 *
 * Delivery is at least once: if the daemon dies after the SMTP server took
 * a message but before the store marked it sent, it is sent again on
 * restart, with the same Message-ID, which mail clients fold together.
 */
#ifndef ASHES_DAEMON_OUTBOX_H
#define ASHES_DAEMON_OUTBOX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/club_config.h"
#include "mail/smtp.h"
#include "store/store.h"

struct buf;
struct pgp_ctx;
struct store;
struct store_outbox_msg;
struct template_set;

struct outbox_stats {
	size_t sent;
	size_t retried;
	size_t failed;
	bool server_down; /* the batch stopped: server away or refusing us */
};

/* The delay before attempt number `attempts` + 1 after a temporary
 * failure: initial * 2^(attempts-1), capped at max, then a random 0..20%
 * taken off so that many messages do not retry in step.  `rnd` is a value
 * in [0, 1) from the caller (tests pass fixed ones). */
uint64_t outbox_backoff_ms(const struct config_smtp *cfg, int attempts,
			   double rnd);

/* Why outbox_compose() failed: our own row is broken (nothing will
 * help: record it as failed), or signing failed (gpg-agent away, key
 * missing: an operator can fix it, so the row waits). */
enum outbox_compose_error {
	OUTBOX_COMPOSE_OK = 0,
	OUTBOX_COMPOSE_BAD_ROW,
	OUTBOX_COMPOSE_SIGN_FAILED,
};

/* An outbox row (its typed envelope, store.h) and our own settings as the
 * bytes of a complete mail, appended to out: From is [smtp] from_name and
 * from, Reply-To and X-Loop our address, Date `now`; To, Subject, the
 * thread ids and Auto-Submitted come from the row, List-Unsubscribe
 * ("unobserve GAME") for an observer's mail.  The row's html and board
 * picture, if any, become the text/html alternative as they are (the
 * picture as cid:STORE_OUTBOX_IMAGE_CID_PREFIX<message_id>; an SVG
 * queued for a PNG reader is rasterised here, once for all the mails that
 * show it).  pgp non-NULL with cfg->gpg.sign_replies: signed as
 * PGP/MIME with cfg->gpg.signing_key.  Returns OUTBOX_COMPOSE_OK, or the
 * error with *error_r (valid until the next call); *out then holds
 * garbage. */
enum outbox_compose_error
outbox_compose(const struct config *cfg, struct pgp_ctx *pgp,
	       const struct store_outbox_msg *msg, int64_t now,
	       struct buf *out, const char **error_r);

/* Send every due message (next_attempt_at <= now; at most
 * cfg->smtp.batch_size, oldest due first) over sender, whose connection
 * stays open for the batch (and after it: smtp.h).  Per message: accepted -> marked sent; 5xx ->
 * failed with the server's reply; 4xx or no server (refused, timeout,
 * TLS/login trouble) or signing failure -> retried at now +
 * outbox_backoff_ms(attempts), or failed ("gave up after N attempts:
 * ...") once [smtp] max_attempts or give_up_after is reached.  When the
 * trouble is not the message's (no server, TLS, login refused, 421, gpg
 * failing), the rest of the batch waits for the next round
 * (stats->server_down, except for gpg).  A row that cannot become a
 * mail is failed.  templates: the process's set, for an archive mail's
 * note (borrowed).  Returns 0 (outcomes are in the store and *stats), or
 * -1 with *error_r when the store failed.  Every lane in one go: the
 * daemon's threads flush one lane each (outbox_flush_lane), so only the
 * tests (tests/daemon) call this, to drain the whole outbox at once. */
int outbox_flush(const struct config *cfg, struct store *store,
		 struct smtp_sender *sender, struct pgp_ctx *pgp,
		 struct template_set *templates, int64_t now,
		 struct outbox_stats *stats, const char **error_r);

/* outbox_flush() for one lane of the outbox (store.h), asking
 * stop(stop_ctx) (NULL: never) before each message: once it says true,
 * the rest of the batch waits for the next flush.  The message in hand is
 * finished first (accepted and marked sent, or left queued), so stopping
 * loses nothing and sends nothing twice (outbox_thread.h).  The outbox
 * thread sends archives on a lane of their own, over an SMTP connection
 * of their own, so that no reply waits behind megabytes. */
int outbox_flush_lane(const struct config *cfg, struct store *store,
		      struct smtp_sender *sender, struct pgp_ctx *pgp,
		      struct template_set *templates, int64_t now,
		      enum store_outbox_lane lane,
		      bool (*stop)(void *stop_ctx), void *stop_ctx,
		      struct outbox_stats *stats, const char **error_r);

/* The Sent folder (mail/imap_sent.h) the calling thread's flushes copy
 * the headers of each mail the SMTP server accepted to, so that after a
 * restore a reply already sent is known by its Message-ID and not sent
 * again (ashesd(8)).  NULL: none (the default).  One try per mail: a
 * failed copy is logged, the mail is sent all the same. */
struct imap_sent;
void outbox_set_sent_copy(struct imap_sent *sent);

/* Free the pictures this thread drew and kept (outbox_compose draws each
 * board PNG once and keeps the last few, per thread): at the end of a
 * thread that composed mail. */
void outbox_forget_pictures(void);

#endif
