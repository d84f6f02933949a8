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
struct outbox_thread;
struct bot_thread;

struct loop {
	struct store *store;
	struct template_set *templates;
	struct server *server;
	struct pgp_ctx *pgp;
	struct mail_source *source;
	struct smtp_sender *smtp;	/* the outbox thread's while it runs */
	struct outbox_thread *outbox;	/* NULL: no [smtp], or not started */
	struct bot_thread *bot;		/* NULL: no [bot], or not started */
	int64_t bot_next_try;		/* bot failed to start: not before */
	/* Where the mailbox's events go: the source keeps this pointer for
	 * its life, and a reload moves the loop (opened beside the old one,
	 * then copied over it), so the source holds the cell, not the loop. */
	struct loop **home;
	char source_name[512];
	struct guard guard;	/* counts crashes and failures per mail */
	bool imap_down;
	/* The keys the daemon holds a secret for (loop_keys.c), looked up
	 * again at most once a minute: a signing key made after the start
	 * counts too.  NULL-terminated; NULL until first needed. */
	char **own_fprs;
	int64_t own_fprs_at;
	/* When the rate counters were last pruned (loop_timers.c). */
	int64_t rate_pruned_at;
	/* The health row (loop_health.c): when the loop first turned, the
	 * mailbox contacts counted at the last turn and when they last
	 * moved; a failing write logged once; systemd's watchdog interval
	 * (0: none).  Kept across a reload. */
	int64_t health_started;
	uint64_t health_contacts;
	int64_t health_contact_at;
	bool health_failing;
	unsigned int watchdog_ms;
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
	struct server_mail_facts facts; /* what si points into */
	/* Keys of this mail imported for `key replace` (not the signer's). */
	struct inbound_strs offered;
	/* Keys it carried inside its signed content that are our own (the
	 * daemon holds their secret): never offered, refused by name. */
	struct inbound_strs own_offered;
	/* Bound keys a revocation certificate in this mail revoked. */
	struct inbound_strs revoked;
	/* Key material of this mail changed keys the keyring held (a
	 * revocation, a refreshed copy): later mails are verified again. */
	bool known_keys_changed;
	/* Reading it failed (gpg, memory): why, for the guard's count. */
	bool read_failed;
	char read_error[256];
};

/* loop_batch.c: take the mails waiting (up to LOOP_BATCH_MAX), have them
 * read and verified, hand them to the service in mailbox order in one
 * transaction, then archive them.  Returns the number of mails handled
 * or set aside; 0 when there was nothing, or when a mail could not be
 * handled now (those before it are): the daemon then waits before it is
 * offered again; -1 after a RESCAN (call again at once). */
struct config;
int loop_take_batch(struct loop *l, const struct config *cfg);

/* loop_verify.c: read, verify and classify batch[0..n) (their bytes
 * copied), several at once, into each one's si, as if read one after the
 * other in mailbox order.  careful: one of them failed before (each is
 * then read alone).  Returns how many are ready for the server: all, or
 * those before the first one the machinery could not read now (counted
 * by the guard; it and those behind it are freed, *cut_r set). */
size_t loop_verify(struct loop *l, const struct config *cfg,
		   struct pending *batch, size_t n, int64_t now, bool careful,
		   bool *cut_r);
/* Free what p holds and zero it. */
void pending_free(struct pending *p);

/* loop_timers.c: between batches.  The digests due, queued; the outbox
 * thread started (cfg must stay put while it runs: the daemon's own),
 * woken after what may have queued mail, or drained (--once); the clocks'
 * timer, run when the mail waiting was handled and the mailbox can be
 * read; the wait for new mail, cut to the next deadline due. */
struct config;
void loop_send_digests(struct loop *l);
int loop_start_outbox(struct loop *l, const struct config *cfg);
void loop_flush_outbox(struct loop *l);
void loop_drain_outbox(struct loop *l);
void loop_clock_tick(struct loop *l);
/* The rate counters whose windows are over, deleted (at most hourly). */
void loop_prune_rates(struct loop *l);
unsigned int loop_wait_ms(struct loop *l, const struct config *cfg);

/* loop_health.c: a turn has completed: the health row written (one
 * UPSERT) and, under systemd's watchdog, WATCHDOG=1 sent.  stopped: the
 * row says the daemon stopped cleanly (pid 0).  wait_ms: ms cut to half
 * of [status] heartbeat_warning and to a third of the watchdog's
 * interval (never below 1 s), so an idle loop still beats in time. */
void loop_health_turn(struct loop *l);
void loop_health_stopped(struct loop *l);
unsigned int loop_health_wait_ms(const struct loop *l,
				 const struct config *cfg, unsigned int ms);

/* loop_keys.c: key material in any mail, signed or not -- revocation
 * certificates for keys in our keyring (into p->si's revoked list). */
void loop_import_revocations(struct loop *l, struct pending *p);
/* A signed mail from a known key that carries another key inside its
 * signed content: imported, and offered to the service for `key
 * replace` (our own keys apart, named as such). */
void loop_import_offered(struct loop *l, struct pending *p);
/* Is fpr a key the daemon holds a secret for?  (gpg failing: yes, to be
 * safe, logged.) */
bool loop_own_key(struct loop *l, const char *fpr);
/* The list of our own keys, freed (loop close). */
void loop_own_keys_free(struct loop *l);
/* After the mail was handled: the keys it brought that no player holds
 * leave the keyring again. */
void loop_drop_unbound_keys(struct loop *l, const struct pending *p);

#endif
