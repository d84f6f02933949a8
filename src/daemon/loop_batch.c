/* loop_batch.c -- the mail loop's batches (loop.c tells the order of the
 * steps): the mails waiting in the mailbox copied (up to LOOP_BATCH_MAX),
 * read and verified (loop_verify.c), handed to the service in mailbox
 * order in one transaction, then archived; a mail that keeps failing set
 * aside; and a mail handed out but not handled never skipped. */
#include <config.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/log.h"
#include "daemon/daemon.h"
#include "daemon/guard.h"
#include "daemon/loop_private.h"
#include "daemon/test_hooks.h"
#include "daemon/timing.h"
#include "mail/inbound.h"
#include "mail/source.h"
#include "server/server.h"
#include "store/store_health.h"

/* Most mails taken into one store transaction: a burst (after an outage,
 * or a busy club) costs one commit per batch instead of one per mail. */
#define LOOP_BATCH_MAX 32

static void loop_save_state(struct loop *l)
{
	struct mail_source_state st;
	const char *e;

	mail_source_get_state(l->source, &st);
	if (server_mailbox_save(l->server, l->source_name, st.uidvalidity,
				st.last_uid, timing_now(), &e) < 0)
		log_error("saving the mailbox state: %s", e);
}

static void loop_log_outcome(const struct pending *p)
{
	const struct inbound_msg *im = p->im;
	const char *from = im->from_addr ? im->from_addr : "?";

	if (p->out.status == SERVER_DUPLICATE)
		log_info("uid %u: seen before; nothing to do", p->uid);
	else if (p->si.silent_outcome)
		log_info("uid %u: not answered (%s) from %s", p->uid,
			 p->si.silent_outcome, from);
	else if (p->out.status == SERVER_MAIL_REFUSED)
		log_notice("uid %u: mail from %s%s%s: %s", p->uid, from,
			   im->sig.fpr[0] ? " signed by " : "", im->sig.fpr,
			   p->out.outcome);
	else
		log_info("uid %u: %s from %s: %s (%zu queued)", p->uid,
			 p->si.message_id ? p->si.message_id : "(no Message-ID)",
			 from, p->out.outcome, p->out.queued);
}

/* Set aside a mail that crashed the daemon or failed GUARD_MAX_ATTEMPTS
 * times: recorded (raw, unparsed: parsing is what failed) and moved to the
 * quarantine folder, the operator told in the log.  0, or -1 when even
 * that could not be done now (it is tried again next round). */
static int loop_set_aside(struct loop *l, const struct mail_source_message *m,
			  long attempts, const char *why, int64_t now)
{
	struct server_inbound si;
	struct server_outcome out;
	char sha[INBOUND_SHA256_HEX_LEN + 1], outcome[256];
	const char *e;

	inbound_sha256_hex(m->data, m->size, sha);
	/* `ashes status` counts them by these words (store_health.h). */
	snprintf(outcome, sizeof(outcome),
		 STORE_HEALTH_QUARANTINED " %ld attempts: %s",
		 attempts, why ? why : "failed");
	memset(&si, 0, sizeof(si));
	si.raw_sha256 = sha;
	si.raw = m->data;
	si.raw_len = m->size;
	si.source = l->source_name;
	si.received = timing_received(m->received, now);
	si.silent_outcome = outcome;
	if (server_handle(l->server, &si, now, &out, &e) < 0) {
		log_error("uid %u: cannot record it for the quarantine now: %s",
			  m->uid, e);
		return -1;
	}
	if (mail_source_set_aside(l->source, m->uid, &e) < 0)
		log_error("uid %u: not moved to the quarantine folder yet: %s",
			  m->uid, e);
	log_error("uid %u: set aside in the quarantine folder after %ld "
		  "attempts (%s); recorded as inbound %lld", m->uid, attempts,
		  why ? why : "failed", (long long)out.inbound_id);
	guard_forget(&l->guard, m->uidvalidity, m->uid);
	return 0;
}

/* A mail to set aside met behind mails taken into the batch: setting it
 * aside moves the mailbox's last UID past them, so it waits until they
 * are handled.  Its bytes are a copy. */
struct loop_held {
	struct mail_source_message m;
	char *data;
	long attempts;
	char *why;
};

/* Handle the prepared mails one at a time, each named alone in the
 * in-flight file: after a crash, only the mail in hand is counted. */
static size_t loop_one_by_one(struct loop *l, struct pending *batch, size_t n,
			      int64_t now)
{
	size_t i;
	const char *e;

	for (i = 0; i < n; i++) {
		guard_inflight_set(&l->guard, batch[i].uidvalidity, &batch[i].uid, 1);
		if (server_handle(l->server, &batch[i].si, now, &batch[i].out,
				  &e) < 0) {
			/* The store or templates, not the mail: the service
			 * records a mail's own faults and goes on. */
			log_error("uid %u: not handled now, will retry: %s",
				  batch[i].uid, e);
			break;
		}
	}
	return i;
}

/* Copy the mails that are there, up to LOOP_BATCH_MAX, into batch[] (not
 * read yet).  A mail that failed GUARD_MAX_ATTEMPTS times is set aside
 * instead when it comes first (counted in *aside_r), else held for after
 * the batch and the batch ends there.  Returns how many are in batch[];
 * *rescan_r when the mailbox changed UIDVALIDITY, *careful_r when one of
 * them failed before, *cut_r when a mail was handed out that is neither
 * in batch[] nor held (the daemon must wait before it comes again). */
static size_t loop_collect(struct loop *l, struct pending *batch, int64_t now,
			   size_t *aside_r, int *rescan_r, bool *careful_r,
			   bool *cut_r, struct loop_held *held)
{
	size_t n = 0;
	const char *e;

	while (n < LOOP_BATCH_MAX) {
		struct mail_source_message m;
		enum mail_source_result r = mail_source_next(l->source, &m, &e);
		char *why = NULL;
		long attempts = 0;

		if (r == MAIL_SOURCE_RESCAN) {
			log_notice("mailbox %s changed UIDVALIDITY: scanning it again",
				   l->source_name);
			*rescan_r = 1;
			break;
		}
		if (r != MAIL_SOURCE_MESSAGE)
			break;
		test_hook_hang_on(m.data, m.size);
		if (guard_attempts(&l->guard, m.uidvalidity, m.uid, &attempts,
				   &why) < 0) {
			*cut_r = true;
			break;
		}
		if (attempts >= GUARD_MAX_ATTEMPTS && n > 0) {
			held->m = m;
			held->data = malloc(m.size + 1);
			held->attempts = attempts;
			held->why = why;
			if (held->data == NULL) {
				*cut_r = true;
				break;
			}
			memcpy(held->data, m.data, m.size);
			held->m.data = held->data;
			break;
		}
		if (attempts >= GUARD_MAX_ATTEMPTS) {
			int ok = loop_set_aside(l, &m, attempts, why, now);

			free(why);
			if (ok < 0) {
				*cut_r = true;
				break;
			}
			(*aside_r)++;
			continue;
		}
		free(why);
		batch[n].attempts = attempts;
		*careful_r |= attempts > 0;
		batch[n].uid = m.uid;
		batch[n].uidvalidity = m.uidvalidity;
		batch[n].received = m.received;
		batch[n].size = m.size;
		batch[n].data = malloc(m.size + 1);
		if (batch[n].data == NULL) {
			log_error("uid %u: out of memory", m.uid);
			*cut_r = true;
			break;
		}
		memcpy(batch[n].data, m.data, m.size);
		batch[n].data[m.size] = '\0';
		n++;
	}
	return n;
}

/* Take the mails that are there, up to LOOP_BATCH_MAX, into batch[]:
 * copied first (loop_collect), then read and verified (loop_verify).
 * Returns how many are in batch[], ready for the server. */
static size_t loop_fetch(struct loop *l, const struct config *cfg,
			 struct pending *batch, int64_t now, size_t *aside_r,
			 int *rescan_r, bool *careful_r, bool *cut_r,
			 struct loop_held *held)
{
	size_t n = loop_collect(l, batch, now, aside_r, rescan_r, careful_r,
				cut_r, held);

	if (n == 0)
		return 0;
	return loop_verify(l, cfg, batch, n, now, *careful_r, cut_r);
}

int loop_take_batch(struct loop *l, const struct config *cfg)
{
	struct pending batch[LOOP_BATCH_MAX];
	struct server_inbound sis[LOOP_BATCH_MAX];
	struct server_outcome outs[LOOP_BATCH_MAX];
	uint32_t uids[LOOP_BATCH_MAX];
	struct loop_held held;
	size_t n, i, handled = 0, aside = 0;
	int64_t now = timing_now();
	const char *e;
	int rescan = 0;
	/* A mail that failed before is handled on its own. */
	bool careful = false;
	/* A mail was handed out and not handled: wait before the next. */
	bool cut = false;

	memset(batch, 0, sizeof(batch));
	memset(&held, 0, sizeof(held));
	n = loop_fetch(l, cfg, batch, now, &aside, &rescan, &careful, &cut,
		       &held);
	if (n == 0)
		goto out;
	for (i = 0; i < n; i++) {
		sis[i] = batch[i].si;
		uids[i] = batch[i].uid;
	}
	if (!careful) {
		guard_inflight_set(&l->guard, batch[0].uidvalidity, uids, n);
		if (server_handle_batch(l->server, sis, n, now, outs, &e) == 0) {
			for (i = 0; i < n; i++)
				batch[i].out = outs[i];
			handled = n;
		} else {
			log_warning("a batch of %zu mails failed (%s); taking "
				    "them one by one", n, e);
		}
	}
	if (handled == 0)
		handled = loop_one_by_one(l, batch, n, now);
	/* The rest are offered again after the wait, not skipped. */
	cut |= handled < n;
	guard_inflight_clear(&l->guard);
	log_debug("%zu of %zu mails handled in one transaction", handled, n);
	test_hook_kill_at("after-commit");
	for (i = 0; i < handled; i++) {
		loop_log_outcome(&batch[i]);
		loop_drop_unbound_keys(l, &batch[i]);
		if (batch[i].attempts > 0)
			guard_forget(&l->guard, batch[i].uidvalidity,
				     batch[i].uid);
		if (mail_source_mark_handled(l->source, batch[i].uid, &e) < 0)
			log_warning("uid %u: handled, but not archived yet: %s",
				    batch[i].uid, e);
	}
out:
	if (held.data != NULL && !cut) {
		if (loop_set_aside(l, &held.m, held.attempts, held.why, now) == 0)
			aside++;
		else
			cut = true;
	}
	free(held.data);
	free(held.why);
	if (handled || rescan || aside)
		loop_save_state(l);
	if (handled)
		test_hook_kill_at("after-archive");
	for (i = 0; i < n; i++)
		pending_free(&batch[i]);
	/* Handed out and not handled: offered again only after a wait
	 * (source.h); asking for the next mail now would skip it. */
	if (cut)
		return 0;
	if (rescan && handled == 0)
		return -1;
	return (int)(handled + aside);
}
