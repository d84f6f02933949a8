/* loop_timers.c -- what the mail loop does between batches of mail: the
 * clocks' timer, the observers' digests, the outbox thread woken to send
 * what was queued (outbox_thread.h), and how long to wait for new mail.
 * The service decides what falls due; this file only asks it at the
 * right times.  See loop_private.h. */
#include <config.h>

#include <inttypes.h>
#include <stdint.h>

#include "config/club_config.h"
#include "config/log.h"
#include "daemon/loop_private.h"
#include "daemon/outbox_thread.h"
#include "daemon/timing.h"
#include "server/server.h"

/* The observers' daily digests (the service decides who is due, at most
 * once a day each): queued here, sent by the outbox thread. */
void loop_send_digests(struct loop *l)
{
	const char *e;
	int n = server_send_digests(l->server, timing_now(), &e);

	if (n < 0)
		log_error("digests: %s", e);
	else if (n > 0)
		log_info("digests: %d queued", n);
}

/* The outbox thread, on the loop's SMTP sender (when [smtp] has a url).
 * 0, or -1 (logged). */
int loop_start_outbox(struct loop *l, const struct config *cfg)
{
	const char *e;

	if (l->smtp == NULL || l->outbox != NULL)
		return 0;
	if (outbox_thread_start(cfg, l->smtp, l->templates, &l->outbox,
				&e) < 0) {
		log_error("%s", e);
		return -1;
	}
	return 0;
}

/* After what may have queued mail: the thread sends it; the loop goes
 * on reading. */
void loop_flush_outbox(struct loop *l)
{
	outbox_thread_wake(l->outbox);
}

/* --once: everything due that can go now is sent before the daemon
 * exits. */
void loop_drain_outbox(struct loop *l)
{
	outbox_thread_drain(l->outbox);
}

/* The clocks' timer (the service decides what falls due): run when the
 * mail waiting was handled, so a move received before its deadline
 * counts, and only while the mailbox can be read -- a move may be waiting
 * there; the service reads a long gap in the timer's runs as an outage
 * and gives that time back. */
void loop_clock_tick(struct loop *l)
{
	struct server_tick_report r;
	const char *e;

	if (server_clock_tick(l->server, timing_now(), &r, &e) < 0) {
		log_error("clocks: %s", e);
		return;
	}
	if (r.summaries)
		log_info("clocks: %zu daily summaries queued", r.summaries);
	if (r.flags || r.cancelled || r.claimable || r.vacation_days ||
	    r.extended || r.reminders)
		log_info("clocks: %zu lost on time, %zu cancelled, %zu left to "
			 "claim, %zu vacation days spent, %zu given time back "
			 "for an outage, %zu reminders queued", r.flags,
			 r.cancelled, r.claimable, r.vacation_days, r.extended,
			 r.reminders);
}

/* How often the rate counters of windows long over are deleted: they
 * would grow by one row per sender for ever. */
#define LOOP_PRUNE_INTERVAL 3600

void loop_prune_rates(struct loop *l)
{
	int64_t now = timing_now();
	const char *e;

	if (l->rate_pruned_at != 0 && now - l->rate_pruned_at < LOOP_PRUNE_INTERVAL &&
	    now >= l->rate_pruned_at)
		return;
	l->rate_pruned_at = now;
	if (server_prune_rates(l->server, now, &e) < 0)
		log_error("rate counters: %s", e);
	else
		log_debug("rate counters: pruned those before %lld",
			  (long long)(now - SERVER_RATE_WINDOW_MAX));
}

/* [retention] (server/retention.h): one batch of each rule, each in a
 * transaction of its own, between batches of mail -- again on the next
 * round while a batch was full, else once an hour -- so that it never
 * holds up a mail for long. */
#define LOOP_RETENTION_INTERVAL 3600

void loop_retention(struct loop *l, const struct config *cfg)
{
	const struct config_retention *c = &cfg->retention;
	struct retention_limits lim = {
		(int64_t)(c->sent_mail_ms / 1000),
		(int64_t)(c->refused_mail_ms / 1000),
		(int64_t)(c->raw_mail_ms / 1000),
	};
	struct retention_report r = { 0 };
	int64_t now = timing_now();
	const char *e;

	if (!l->retention_more && l->retention_at != 0 &&
	    now - l->retention_at < LOOP_RETENTION_INTERVAL &&
	    now >= l->retention_at)
		return;
	l->retention_at = now;
	l->retention_more = false;
	if (retention_run(l->store, &lim, now, 0, &l->retention_cursor, &r,
			  &e) < 0) {
		log_error("retention: %s", e);
		return;
	}
	l->retention_more = r.more;
	if (r.sent_rows || r.refused_rows || r.reduced_rows)
		log_info("retention: %" PRId64 " sent mails dropped their html "
			 "and pictures (%" PRId64 " bytes), %" PRId64 " refused "
			 "or duplicate mails their bytes (%" PRId64 " bytes), %"
			 PRId64 " mails of ended games were reduced to their "
			 "signed parts (%" PRId64 " bytes less)", r.sent_rows,
			 r.sent_bytes, r.refused_rows, r.refused_bytes,
			 r.reduced_rows, r.reduced_bytes);
	if (r.unreducible)
		log_warning("retention: %" PRId64 " mails of ended games kept "
			    "as received: %s", r.unreducible,
			    r.unreducible_why ? r.unreducible_why : "?");
}

/* How long to wait for new mail: the poll interval, or less when a
 * clock's flag falls sooner (so it falls on time, even in IMAP IDLE); and
 * the timer runs at least twice per [clock] outage_grace, so a quiet
 * mailbox is no outage.  The outbox thread keeps its own time. */
unsigned int loop_wait_ms(struct loop *l, const struct config *cfg)
{
	uint64_t ms = cfg->imap.poll_interval_ms ? cfg->imap.poll_interval_ms : 60000;
	uint64_t grace_ms = cfg->clock.outage_grace_ms;
	int64_t due = 0, now = timing_now();
	const char *e;

	/* While the mailbox is away the timer does not run: no use
	 * waking for it. */
	if (!l->imap_down && server_clock_next(l->server, &due, &e) != 1)
		due = 0;
	if (grace_ms != 0 && grace_ms / 2 < ms)
		ms = grace_ms / 2 > 1000 ? grace_ms / 2 : 1000;
	return timing_wait_ms(ms, now, &due, 1);
}
