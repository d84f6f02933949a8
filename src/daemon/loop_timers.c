/* loop_timers.c -- what the mail loop does between batches of mail: the
 * clocks' timer, the observers' digests, the outbox flushed to the SMTP
 * server (with its backoff while the server is away), and how long to
 * wait for new mail.  The service decides what falls due; this file only
 * asks it at the right times.  See loop_private.h. */
#include <config.h>

#include <stdint.h>

#include "config/log.h"
#include "daemon/loop_private.h"
#include "daemon/outbox.h"
#include "daemon/timing.h"
#include "server/server.h"

/* The observers' daily digests (the service decides who is due, at most
 * once a day each): queued here, sent by the flush that follows. */
void loop_send_digests(struct loop *l)
{
	const char *e;
	int n = server_send_digests(l->server, timing_now(), &e);

	if (n < 0)
		log_error("digests: %s", e);
	else if (n > 0)
		log_info("digests: %d queued", n);
}

void loop_flush_outbox(struct loop *l, const struct config *cfg)
{
	struct outbox_stats st;
	const char *e;
	int64_t now = timing_now();

	if (l->smtp == NULL || now < l->smtp_next_try)
		return;
	if (outbox_flush(cfg, l->store, l->smtp, l->pgp, now, &st, &e) < 0) {
		log_error("outbox: %s", e);
		return;
	}
	if (st.server_down) {
		uint64_t d = outbox_backoff_ms(&cfg->smtp, ++l->smtp_failures, 0);

		if (l->smtp_failures == 1)
			log_warning("SMTP server %s unreachable; replies wait in the outbox",
				    cfg->smtp.server.url);
		l->smtp_next_try = now + (int64_t)(d / 1000);
	} else if (st.sent && l->smtp_failures) {
		log_notice("SMTP server %s reachable again", cfg->smtp.server.url);
		l->smtp_failures = 0;
		l->smtp_next_try = 0;
	}
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
	if (r.flags || r.cancelled || r.claimable || r.vacation_days ||
	    r.extended || r.reminders)
		log_info("clocks: %zu lost on time, %zu cancelled, %zu left to "
			 "claim, %zu vacation days spent, %zu given time back "
			 "for an outage, %zu reminders queued", r.flags,
			 r.cancelled, r.claimable, r.vacation_days, r.extended,
			 r.reminders);
}

/* How long to wait for new mail: the poll interval, or less when an
 * outbox row falls due sooner or a clock's flag falls (so it falls on
 * time, even in IMAP IDLE); and the timer runs at least twice per
 * [clock] outage_grace, so a quiet mailbox is no outage. */
unsigned int loop_wait_ms(struct loop *l, const struct config *cfg)
{
	uint64_t ms = cfg->imap.poll_interval_ms ? cfg->imap.poll_interval_ms : 60000;
	uint64_t grace_ms = cfg->clock.outage_grace_ms;
	int64_t due[2] = { 0, 0 }, now = timing_now();
	const char *e;

	if (l->smtp && outbox_next_due(l->store, &due[0], &e) == 1 &&
	    due[0] < l->smtp_next_try)
		due[0] = l->smtp_next_try;
	/* While the mailbox is away the timer does not run: no use
	 * waking for it. */
	if (!l->imap_down && server_clock_next(l->server, &due[1], &e) != 1)
		due[1] = 0;
	if (grace_ms != 0 && grace_ms / 2 < ms)
		ms = grace_ms / 2 > 1000 ? grace_ms / 2 : 1000;
	return timing_wait_ms(ms, now, due, 2);
}
