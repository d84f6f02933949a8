/* loop_health.c -- the mail loop's word on its own health, at the end of
 * every turn: the row `ashes status` reads (store_health.h: pid,
 * heartbeat, last mailbox contact, mails waiting), written with one
 * UPSERT, and systemd's watchdog pinged (daemon_watchdog_ms()).  Both
 * come from the loop's own thread once a turn has completed, never from
 * a timer or a thread of their own: a loop that hangs stops both, and
 * systemd restarts it while `ashes status` reports the heartbeat's age.
 * See loop_private.h. */
#include <config.h>

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "config/club_config.h"
#include "config/log.h"
#include "daemon/daemon.h"
#include "daemon/loop_private.h"
#include "daemon/timing.h"
#include "mail/source.h"
#include "store/store_health.h"

/* Write the row; its failure is logged once until a write works again
 * (a busy or full disk must not flood the log every turn). */
static void loop_health_write(struct loop *l, int64_t pid, int64_t now)
{
	struct mail_source_facts f = { 0, -1 };
	struct store_health h;
	const char *e;

	if (l->source != NULL)
		mail_source_get_facts(l->source, &f);
	if (f.contacts != l->health_contacts) {
		l->health_contacts = f.contacts;
		l->health_contact_at = now;
	}
	h.pid = pid;
	h.started = l->health_started;
	h.heartbeat = now;
	h.mailbox_contact = l->health_contact_at;
	h.mailbox_waiting = f.waiting;
	if (store_health_set(l->store, &h, &e) < 0) {
		if (!l->health_failing)
			log_warning("writing the daemon's health: %s", e);
		l->health_failing = true;
		return;
	}
	if (l->health_failing)
		log_notice("the daemon's health is written again");
	l->health_failing = false;
}

void loop_health_turn(struct loop *l)
{
	int64_t now = timing_now();

	if (l->health_started == 0)
		l->health_started = now;
	loop_health_write(l, (int64_t)getpid(), now);
	if (l->watchdog_ms != 0 && daemon_notify("WATCHDOG=1") < 0)
		log_debug("watchdog ping: %s", strerror(errno));
}

void loop_health_stopped(struct loop *l)
{
	if (l->health_started == 0)
		l->health_started = timing_now();
	loop_health_write(l, 0, timing_now());
}

unsigned int loop_health_wait_ms(const struct loop *l,
				 const struct config *cfg, unsigned int ms)
{
	uint64_t beat = cfg->status.heartbeat_warning_ms / 2;
	unsigned int cap;

	/* Twice within the heartbeat's warning: a quiet mailbox is no hang. */
	if (beat != 0 && beat < ms)
		ms = beat > 1000 ? (unsigned int)beat : 1000;
	if (l->watchdog_ms == 0)
		return ms;
	cap = l->watchdog_ms / 3 > 1000 ? l->watchdog_ms / 3 : 1000;
	return ms < cap ? ms : cap;
}
