/* loop_private.h -- what the mail loop's files share: the loop's open
 * parts and one mail in hand.  Not for use outside src/daemon/loop*.c. */
#ifndef ASHES_DAEMON_LOOP_PRIVATE_H
#define ASHES_DAEMON_LOOP_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/guard.h"
#include "mail/inbound.h"
#include "server/server.h"

struct store;
struct template_set;
struct pgp_ctx;
struct mail_source;
struct smtp_sender;

struct loop {
	struct store *store;
	struct template_set *templates;
	struct server *server;
	struct pgp_ctx *pgp;
	struct mail_source *source;
	struct smtp_sender *smtp;
	char source_name[512];
	struct guard guard;	/* counts crashes and failures per mail */
	/* SMTP server away: do not try the outbox again before this time */
	int64_t smtp_next_try;
	int smtp_failures;
	bool imap_down;
};

/* One mail in hand: its bytes (copied: the source's are only valid until
 * its next call), what the parser made of it, and what goes to the
 * server. */
struct pending {
	uint32_t uid;
	uint32_t uidvalidity;
	int64_t received; /* the mailbox's receipt time, or 0 */
	long attempts; /* failed attempts before this one */
	char *data;
	size_t size;
	struct inbound_msg *im;
	struct server_inbound si;
	struct server_outcome out;
	char *refs;
	char mid[512];
	const char *refusal; /* what the mail layer found wrong, or NULL */
	/* Keys of this mail imported for `key replace` (not the signer's). */
	struct inbound_strs offered;
	/* Bound keys a revocation certificate in this mail revoked. */
	struct inbound_strs revoked;
};

/* loop_timers.c: between batches.  The digests due, queued; the outbox
 * flushed (SMTP away: tried again after a backoff); the clocks' timer,
 * run when the mail waiting was handled and the mailbox can be read; the
 * wait for new mail, cut to the next outbox row or deadline due. */
struct config;
void loop_send_digests(struct loop *l);
void loop_flush_outbox(struct loop *l, const struct config *cfg);
void loop_clock_tick(struct loop *l);
unsigned int loop_wait_ms(struct loop *l, const struct config *cfg);

/* loop_keys.c: key material in any mail, signed or not -- revocation
 * certificates for keys in our keyring (into p->si's revoked list). */
void loop_import_revocations(struct loop *l, struct pending *p);
/* A signed mail from a known key that carries another key: imported, and
 * offered to the service for `key replace`. */
void loop_import_offered(struct loop *l, struct pending *p);
/* After the mail was handled: the keys it brought that no player holds
 * leave the keyring again. */
void loop_drop_unbound_keys(struct loop *l, const struct pending *p);

#endif
