/* loop.c -- ashesd's mail loop: mail source -> mail layer (parse,
 * verify, classify: no decisions, no store) -> game service (every
 * decision about the mail, in one store transaction) -> archive ->
 * outbox -> SMTP.
 *
 * This is the one place that wires the layers together, and it only
 * wires: whether a mail is a duplicate, a replay, a bounce of ours, an
 * automatic mail, over the rate limit, refused or read, the service
 * decides (server.h); where the mailbox stopped and how often a mail
 * failed, the service records (server_mailbox_*, server_attempt*).  The
 * loop opens the store and hands it to the service (the outbox thread
 * opens its own connection); it makes no query of its own but one: the
 * row of its own health, at the end of each turn (loop_health.c), when
 * it also pings systemd's watchdog.
 *
 * The order of the steps is what makes "applied and answered exactly
 * once" hold when the daemon is killed at any point:
 *   1. server_handle_batch() commits the moves, the replies (into the
 *      outbox), the counters and the record of the message in one
 *      transaction;
 *   2. only then is the mailbox state saved and the message archived, so a
 *      crash before 2 hands the message out again, and the service's
 *      sha256 record turns the second handling into a no-op (the rate
 *      counter included);
 *   3. the outbox is sent afterwards, at least once per row (outbox.h), by
 *      its own thread (outbox_thread.h), woken after each round: reading
 *      and committing never wait for SMTP.
 * The mails waiting in the mailbox are taken in batches (loop_batch.c;
 * loop_verify.c reads and verifies several at once) into one transaction,
 * so a burst costs one commit (one fsync) per batch rather than per mail;
 * if a batch fails, its mails are taken one by one so that one bad mail
 * cannot hold up the others.
 * A message the machinery cannot handle now (store busy, gpg not running)
 * is left in the mailbox and tried again on the next round.
 */
#include <config.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "config/log.h"
#include "config/settings.h"
#include "daemon/bot_thread.h"
#include "daemon/daemon.h"
#include "daemon/guard.h"
#include "daemon/loop_private.h"
#include "daemon/outbox_thread.h"
#include "daemon/test_hooks.h"
#include "daemon/timing.h"
#include "mail/inbound.h"
#include "mail/pgp.h"
#include "mail/smtp.h"
#include "mail/source.h"
#include "render/template.h"
#include "server/server.h"
#include "store/store.h"


static void loop_source_event(void *ctx, enum mail_source_event ev,
			      const char *detail)
{
	struct loop *l = *(struct loop **)ctx;

	/* The source reports an outage once when it starts and once when it
	 * ends, so the log tells an operator without flooding. */
	if (ev == MAIL_SOURCE_EVENT_DOWN) {
		l->imap_down = true;
		log_warning("mailbox %s unreachable: %s (retrying with backoff)",
			    l->source_name, detail ? detail : "");
	} else {
		l->imap_down = false;
		log_notice("mailbox %s reachable again", l->source_name);
	}
}

/* Everything that depends on the config: opened at start and again on
 * SIGHUP (into a fresh struct, swapped in only if all of it opened). */
static void loop_close(struct loop *l)
{
	/* The bot first: it wakes the outbox thread. */
	bot_thread_stop(&l->bot);
	/* First: the thread uses the sender (and the config). */
	outbox_thread_stop(&l->outbox);
	mail_source_close(&l->source);
	smtp_sender_free(&l->smtp);
	server_free(&l->server);
	template_set_free(&l->templates);
	loop_own_keys_free(l);
	pgp_ctx_free(&l->pgp);
	store_close(&l->store);
	free(l->home);
	l->home = NULL;
}

/* How the loop's context (and the siblings it makes) treats strangers'
 * bytes: [gpg] operation_timeout and allow_sha1 (and the pre-scan, which
 * only a test hook turns off). */
static void loop_pgp_limits(const struct config *cfg, struct pgp_ctx *pgp)
{
	struct pgp_limits lim = {
		.budget_ms = (unsigned int)cfg->gpg.operation_timeout_ms,
		.allow_sha1 = cfg->gpg.allow_sha1,
		.scan = !test_hook_no_pgp_scan(),
	};

	if (!lim.scan)
		log_warning("test hook: the OpenPGP pre-scan is off");
	pgp_ctx_set_limits(pgp, &lim);
}

static int loop_open(struct loop *l, const struct config *cfg,
		     const char **error_r)
{
	static char err[768];
	struct store_options so;
	struct server_config sc;
	struct mail_source_settings ms;
	const char *e = NULL;

	memset(l, 0, sizeof(*l));
	memset(&so, 0, sizeof(so));
	so.busy_timeout_ms = (int)cfg->database.busy_timeout_ms;
	if (store_open(cfg->database.path, &so, &l->store, &e) < 0) {
		snprintf(err, sizeof(err), "database %s: %s", cfg->database.path, e);
		goto fail;
	}
	l->templates = template_set_new(cfg->templates.dir, getenv("ASHES_TEMPLATES"));
	server_config_default(&sc);
	settings_server(cfg, &sc);
	sc.templates = l->templates;
	if (server_new(l->store, &sc, &l->server, &e) < 0) {
		settings_server_done(&sc);
		snprintf(err, sizeof(err), "game server: %s", e);
		goto fail;
	}
	settings_server_done(&sc);
	/* A broken override folder is refused now, not on the first mail. */
	if (server_check_templates(l->server, &e) < 0 ||
	    template_check(l->templates, "mail/board.html", &e) < 0) {
		snprintf(err, sizeof(err), "templates: %s", e);
		goto fail;
	}
	if (cfg->gpg.home) {
		/* gpg wants its home private; create it on first start */
		if (mkdir(cfg->gpg.home, 0700) < 0 && errno != EEXIST) {
			snprintf(err, sizeof(err), "gpg home %s: %s", cfg->gpg.home,
				 strerror(errno));
			goto fail;
		}
		if (pgp_ctx_new(cfg->gpg.home, &l->pgp, &e) < 0) {
			snprintf(err, sizeof(err), "gpg home %s: %s", cfg->gpg.home, e);
			goto fail;
		}
		loop_pgp_limits(cfg, l->pgp);
	}
	settings_mail_source(cfg, &ms);
	l->home = malloc(sizeof(*l->home));
	if (l->home == NULL) {
		snprintf(err, sizeof(err), "out of memory");
		goto fail;
	}
	*l->home = l;
	ms.event = loop_source_event;
	ms.event_context = l->home;
	if (cfg->source.type == CONFIG_SOURCE_MAILDIR)
		snprintf(l->source_name, sizeof(l->source_name), "dir:%s",
			 cfg->source.maildir);
	else
		snprintf(l->source_name, sizeof(l->source_name), "imap://%s@%s:%u/%s",
			 cfg->imap.server.user ? cfg->imap.server.user : "",
			 cfg->imap.server.host ? cfg->imap.server.host : "",
			 cfg->imap.server.port,
			 cfg->imap.mailbox ? cfg->imap.mailbox : "INBOX");
	guard_init(&l->guard, cfg->database.path, l->server, l->source_name);
	if (mail_source_open(&ms, &l->source, &e) < 0) {
		snprintf(err, sizeof(err), "mailbox %s: %s", l->source_name, e);
		goto fail;
	}
	if (cfg->smtp.server.url) {
		struct smtp_settings ss;

		settings_smtp(cfg, &ss);
		if (smtp_sender_new(&ss, &l->smtp, &e) < 0) {
			snprintf(err, sizeof(err), "smtp %s: %s", cfg->smtp.server.url, e);
			goto fail;
		}
	}
	{
		struct mail_source_state st = { 0, 0 };

		if (server_mailbox_state(l->server, l->source_name,
					 &st.uidvalidity, &st.last_uid, &e) < 0) {
			snprintf(err, sizeof(err), "database: %s", e);
			goto fail;
		}
		mail_source_set_state(l->source, &st);
	}
	return 0;
fail:
	loop_close(l);
	*error_r = err;
	return -1;
}

/* Seconds between tries to start a bot that could not start. */
#define LOOP_BOT_RETRY_S 300

static struct loop *current_loop;

static void loop_on_signal(void)
{
	if (current_loop && current_loop->source)
		mail_source_interrupt(current_loop->source);
}

static int loop_reload(struct daemon *d, const struct config *next,
		       const char **error_r)
{
	struct loop fresh, *l = d->context;

	if (loop_open(&fresh, next, error_r) < 0)
		return -1;
	/* The health report goes on: same start, same watchdog. */
	fresh.health_started = l->health_started;
	fresh.health_contact_at = l->health_contact_at;
	fresh.watchdog_ms = l->watchdog_ms;
	loop_close(l);
	*l = fresh;
	*l->home = l;
	return 0;
}

int daemon_run_loop(struct daemon *d)
{
	struct loop l;
	const char *e;
	int ret = -1;

	timing_init();
	if (loop_open(&l, &d->cfg, &e) < 0) {
		log_error("%s", e);
		daemon_detach_ready(&d->ready_fd, e);
		return -1;
	}
	if (loop_start_outbox(&l, &d->cfg) < 0) {
		loop_close(&l);
		daemon_detach_ready(&d->ready_fd, "the outbox did not start");
		return -1;
	}
	d->context = &l;
	d->reload_hook = loop_reload;
	current_loop = &l;
	daemon_set_signal_hook(loop_on_signal);
	log_notice("reading %s; database %s", l.source_name, d->cfg.database.path);
	guard_recover(&l.guard, timing_now());
	l.watchdog_ms = daemon_watchdog_ms();
	if (l.watchdog_ms != 0)
		log_info("systemd's watchdog: a ping at the end of each turn, "
			 "within %u ms", l.watchdog_ms);
	daemon_started(d);
	loop_flush_outbox(&l);
	while (!daemon_check_signals(d)) {
		int r;

		/* A reload stopped it (it used the old config and sender). */
		if (l.outbox == NULL)
			loop_start_outbox(&l, &d->cfg);
		/* The bot too ([bot]; bot_thread.h); one that cannot start
		 * (no signing key yet) is tried again every few minutes,
		 * not logged on every round. */
		if (l.bot == NULL && time(NULL) >= l.bot_next_try &&
		    bot_thread_start(&d->cfg, l.outbox, l.templates,
				     &l.bot, &e) < 0) {
			log_error("%s (trying again in %d s)", e,
				  LOOP_BOT_RETRY_S);
			l.bot_next_try = time(NULL) + LOOP_BOT_RETRY_S;
		}
		loop_send_digests(&l);
		r = loop_take_batch(&l, &d->cfg);

		if (r != 0) {
			/* Answer what was handled while looking for more;
			 * the bot may owe a move now. */
			bot_thread_wake(l.bot);
			loop_flush_outbox(&l);
			loop_health_turn(&l);
			continue;
		}
		if (!l.imap_down)
			loop_clock_tick(&l);
		loop_prune_rates(&l);
		loop_flush_outbox(&l);
		if (d->once) {
			/* The bot's moves due now, and their mails. */
			bot_thread_drain(l.bot);
			loop_flush_outbox(&l);
			loop_drain_outbox(&l);
			break;
		}
		loop_health_turn(&l);
		if (mail_source_wait(l.source,
				     loop_health_wait_ms(&l, &d->cfg,
						 loop_wait_ms(&l, &d->cfg)),
				     &e) < 0 &&
		    !l.imap_down)
			log_debug("waiting for mail: %s", e);
	}
	ret = 0;
	loop_health_stopped(&l);
	daemon_set_signal_hook(NULL);
	current_loop = NULL;
	loop_close(&l);
	d->context = NULL;
	return ret;
}
