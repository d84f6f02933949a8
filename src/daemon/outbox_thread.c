/* outbox_thread.c -- the outbox sent by its own thread; see
 * outbox_thread.h. */
#include <config.h>

#include "daemon/outbox_thread.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "config/club_config.h"
#include "config/log.h"
#include "config/settings.h"
#include "daemon/outbox.h"
#include "daemon/timing.h"
#include "daemon/worker.h"
#include "mail/imap_sent.h"
#include "mail/pgp.h"
#include "mail/smtp.h"
#include "mail/source.h"
#include "store/store.h"

/* Longest sleep without being asked: the mail loop wakes the thread at
 * every round anyway; this only bounds what a missed wake could cost
 * (a row made due by `ashes outbox retry` from another process). */
#define OUTBOX_THREAD_MAX_SLEEP_MS 60000
/* How soon to look again after the store or gpg failed. */
#define OUTBOX_THREAD_RETRY_MS 1000

/* One lane of the outbox (store.h): its rows, its own thread, store
 * connection, gpg context and SMTP connection.  The small lane (replies,
 * boards, notices) runs on the loop's sender; the large one (archives)
 * on a sender of its own, so a multi-megabyte archive on a slow server
 * holds up no reply. */
struct outbox_lane {
	const struct config *cfg;	/* borrowed */
	struct smtp_sender *smtp;	/* borrowed (small) or own (large) */
	bool own_smtp;
	enum store_outbox_lane lane;
	const char *name;
	struct store *store;
	struct pgp_ctx *pgp;
	struct template_set *templates;	/* borrowed: the process's */
	struct worker *w;
	/* The Sent folder its replies' headers go to (NULL: none, the
	 * mailbox is no IMAP one); connected on the first reply. */
	struct imap_sent *sent;
	/* The thread's own, no lock: the SMTP server's backoff, and when
	 * the connection was last used (0: closed). */
	int64_t next_try;
	int failures;
	uint64_t last_used_ms;
};

struct outbox_thread {
	struct outbox_lane small, large;
};

static uint64_t outbox_thread_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* outbox_flush_lane()'s question between two mails. */
static bool outbox_thread_stopping(void *ctx)
{
	struct outbox_lane *ot = ctx;

	return worker_stopping(ot->w);
}

/* One flush's outcome on the server's backoff: the same rules the mail
 * loop had (outbox.h): a server away is tried again after a growing
 * delay, and the log says once when it goes and once when it is back. */
static void outbox_thread_backoff(struct outbox_lane *ot,
				  const struct outbox_stats *st, int64_t now)
{
	const struct config *cfg = ot->cfg;

	if (st->server_down) {
		uint64_t d = outbox_backoff_ms(&cfg->smtp, ++ot->failures, 0);

		if (ot->failures == 1)
			log_warning("SMTP server %s unreachable; %s wait in "
				    "the outbox", cfg->smtp.server.url,
				    ot->name);
		ot->next_try = now + (int64_t)(d / 1000);
	} else if (st->sent && ot->failures) {
		log_notice("SMTP server %s reachable again (%s)",
			   cfg->smtp.server.url, ot->name);
		ot->failures = 0;
		ot->next_try = 0;
	}
}

/* How long to sleep unasked after a pass at `now`: until the next row
 * (or the server's backoff) falls due, or the connection's idle time is
 * up (then it is closed). */
static uint64_t outbox_thread_sleep_ms(struct outbox_lane *ot, int64_t now)
{
	uint64_t ms = OUTBOX_THREAD_MAX_SLEEP_MS;
	int64_t due;
	const char *e;

	switch (store_outbox_next_due_lane(ot->store, ot->lane, &due, &e)) {
	case 1:
		if (due < ot->next_try)
			due = ot->next_try;
		/* Due already: what is left failed for now (gpg), or came in
		 * since; not at once, or a failing signer would spin. */
		ms = due <= now ? OUTBOX_THREAD_RETRY_MS :
		     (uint64_t)(due - now) * 1000;
		break;
	case 0:
		break;
	default:
		log_error("outbox: %s", e);
		ms = OUTBOX_THREAD_RETRY_MS;
		break;
	}
	if (ot->last_used_ms != 0) {
		uint64_t idle = outbox_thread_ms() - ot->last_used_ms;
		uint64_t idle_max = ot->cfg->smtp.idle_close_ms ?
				    ot->cfg->smtp.idle_close_ms : 60000;

		if (idle >= idle_max) {
			log_debug("outbox: closing the SMTP connection of %s, "
				  "idle for %llu s", ot->name,
				  (unsigned long long)idle / 1000);
			smtp_sender_disconnect(ot->smtp);
			ot->last_used_ms = 0;
		} else if (idle_max - idle < ms) {
			ms = idle_max - idle;
		}
	}
	return ms > OUTBOX_THREAD_MAX_SLEEP_MS ? OUTBOX_THREAD_MAX_SLEEP_MS : ms;
}

/* Send what is due, batch after batch, until nothing more can go now
 * (or the thread is told to stop).  Returns how long to sleep unasked. */
static uint64_t outbox_thread_pass(struct outbox_lane *ot)
{
	const struct config *cfg = ot->cfg;
	int64_t now = timing_now();
	const char *e;

	while (now >= ot->next_try && !outbox_thread_stopping(ot)) {
		struct outbox_stats st;
		size_t done;

		outbox_set_sent_copy(ot->sent);
		if (outbox_flush_lane(cfg, ot->store, ot->smtp, ot->pgp,
				      ot->templates, now, ot->lane,
				      outbox_thread_stopping, ot,
				      &st, &e) < 0) {
			log_error("outbox: %s", e);
			return OUTBOX_THREAD_RETRY_MS;
		}
		done = st.sent + st.failed + st.retried;
		if (done > 0)
			ot->last_used_ms = outbox_thread_ms();
		outbox_thread_backoff(ot, &st, now);
		/* A short batch was all that was due. */
		if (st.server_down || done < cfg->smtp.batch_size)
			break;
		now = timing_now();
	}
	return outbox_thread_sleep_ms(ot, now);
}

/* The worker's pass (worker.h). */
static uint64_t outbox_thread_work(void *ctx)
{
	return outbox_thread_pass(ctx);
}

/* The end of the thread: the pictures it kept (outbox.h). */
static void outbox_thread_finish(void *ctx)
{
	(void)ctx;
	outbox_forget_pictures();
}

static const struct worker_ops outbox_thread_ops = {
	outbox_thread_work, outbox_thread_finish,
};

/* Stop a lane's thread (if started) and close what it opened. */
static void outbox_lane_close(struct outbox_lane *ot)
{
	worker_stop(&ot->w);
	imap_sent_close(&ot->sent);
	pgp_ctx_free(&ot->pgp);
	store_close(&ot->store);
	if (ot->own_smtp)
		smtp_sender_free(&ot->smtp);
	ot->smtp = NULL;
}

/* Open a lane's store and gpg context and start its thread.  0, or -1
 * with *error_r (static). */
static int outbox_lane_start(const struct config *cfg, struct outbox_lane *ot,
			     const char **error_r)
{
	static char err[768];
	struct store_options so;
	const char *e = NULL;

	ot->cfg = cfg;
	memset(&so, 0, sizeof(so));
	so.busy_timeout_ms = (int)cfg->database.busy_timeout_ms;
	so.no_migrate = true;	/* the mail loop's connection did it */
	if (store_open(cfg->database.path, &so, &ot->store, &e) < 0) {
		snprintf(err, sizeof(err), "outbox: database %s: %s",
			 cfg->database.path, e);
		goto fail;
	}
	/* GPGME contexts are per thread: the outbox signs with its own. */
	if (cfg->gpg.home != NULL &&
	    pgp_ctx_new(cfg->gpg.home, &ot->pgp, &e) < 0) {
		snprintf(err, sizeof(err), "outbox: gpg home %s: %s",
			 cfg->gpg.home, e);
		goto fail;
	}
	if (cfg->source.type != CONFIG_SOURCE_MAILDIR) {
		struct mail_source_settings ms;

		settings_mail_source(cfg, &ms);
		if (imap_sent_open(&ms, cfg->imap.sent_folder, &ot->sent,
				   &e) < 0) {
			snprintf(err, sizeof(err), "outbox: Sent folder: %s", e);
			goto fail;
		}
	}
	if (worker_start(&outbox_thread_ops, ot, &ot->w, &e) < 0) {
		snprintf(err, sizeof(err), "outbox: %s", e);
		goto fail;
	}
	return 0;
fail:
	*error_r = err;
	return -1;
}

static void outbox_thread_free(struct outbox_thread *ot)
{
	outbox_lane_close(&ot->small);
	outbox_lane_close(&ot->large);
	free(ot);
}

int outbox_thread_start(const struct config *cfg, struct smtp_sender *sender,
			struct template_set *templates,
			struct outbox_thread **ot_r, const char **error_r)
{
	static char err[768];
	struct outbox_thread *ot;
	struct smtp_settings ss;
	const char *e = NULL;

	*ot_r = NULL;
	ot = calloc(1, sizeof(*ot));
	if (ot == NULL)
		abort();
	ot->small.smtp = sender;
	ot->small.templates = templates;
	ot->large.templates = templates;
	ot->small.lane = STORE_OUTBOX_LANE_SMALL;
	ot->small.name = "replies";
	ot->large.lane = STORE_OUTBOX_LANE_LARGE;
	ot->large.name = "archives";
	settings_smtp(cfg, &ss);
	if (smtp_sender_new(&ss, &ot->large.smtp, &e) < 0) {
		snprintf(err, sizeof(err), "outbox: smtp %s: %s",
			 cfg->smtp.server.url, e);
		*error_r = err;
		goto fail;
	}
	ot->large.own_smtp = true;
	if (outbox_lane_start(cfg, &ot->small, error_r) < 0 ||
	    outbox_lane_start(cfg, &ot->large, error_r) < 0)
		goto fail;
	*ot_r = ot;
	return 0;
fail:
	outbox_thread_free(ot);
	return -1;
}

void outbox_thread_wake(struct outbox_thread *ot)
{
	if (ot != NULL) {
		worker_wake(ot->small.w);
		worker_wake(ot->large.w);
	}
}

void outbox_thread_drain(struct outbox_thread *ot)
{
	if (ot != NULL) {
		worker_drain(ot->small.w);
		worker_drain(ot->large.w);
	}
}

void outbox_thread_stop(struct outbox_thread **otp)
{
	struct outbox_thread *ot = *otp;

	if (ot == NULL)
		return;
	*otp = NULL;
	outbox_thread_free(ot);
}
