/* outbox.h -- sending the store's outbox by SMTP: each queued row becomes
 * the exact bytes of a mail (mail/compose.h, optionally signed with the
 * daemon's key), goes out over one SMTP connection per batch, and is marked
 * sent only after the server accepted it.  Temporary failures retry with
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

#include "daemon/config.h"
#include "mail/smtp.h"

struct store;
struct pgp_ctx;

struct outbox_stats {
	size_t sent;
	size_t retried;
	size_t failed;
	bool server_down; /* the batch stopped on a connection failure */
};

/* The delay before attempt number `attempts` + 1 after a temporary
 * failure: initial * 2^(attempts-1), capped at max, then a random 0..20%
 * taken off so that many messages do not retry in step.  `rnd` is a value
 * in [0, 1) from the caller (tests pass fixed ones). */
uint64_t outbox_backoff_ms(const struct config_smtp *cfg, int attempts,
			   double rnd);

/* The header block of an outbox row (see server.h) and our own settings
 * as the bytes of a complete mail, appended to out.  pgp non-NULL with
 * cfg->gpg.sign_replies: signed as PGP/MIME.  -1 with *error_r. */
struct buf;
int outbox_compose(const struct config *cfg, struct pgp_ctx *pgp,
		   const char *headers, const char *body, int64_t now,
		   struct buf *out, const char **error_r);

/* Send every due message (at most cfg->smtp.batch_size) over sender.
 * Returns 0 (per-message outcomes are in the store and *stats), or -1
 * with *error_r when the store failed. */
int outbox_flush(const struct config *cfg, struct store *store,
		 struct smtp_sender *sender, struct pgp_ctx *pgp, int64_t now,
		 struct outbox_stats *stats, const char **error_r);

#endif
