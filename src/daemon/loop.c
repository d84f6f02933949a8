/* loop.c -- ashesd's mail loop: mail source -> server -> store -> outbox.
 *
 * TODO(lead): this is the one place that wires the layers together, to be
 * written once src/mail, src/server and src/store have landed.  What the
 * daemon infrastructure already gives it:
 *   - d->cfg: the typed config in force (replaced on SIGHUP; re-read any
 *     field after daemon_check_signals() returns, don't cache pointers);
 *     d->reload_hook to reopen templates/store on reload;
 *   - daemon_check_signals(d) between messages: true means stop now (the
 *     message in hand is finished first, SIGTERM's contract);
 *   - daemon_wait(ms, fd) to sleep until the poll interval, a signal, or
 *     an IDLE socket becoming readable;
 *   - d->once: handle what is there, then return (tests, demo);
 *   - log_*() for everything worth telling the operator.
 * The shape it should take:
 *
 *	while (!daemon_check_signals(d)) {
 *		fetch the next message from the source; if none:
 *			flush the outbox (SMTP batch);
 *			if (d->once) break;
 *			daemon_wait(d->cfg.imap.poll_interval_ms, idle_fd);
 *			continue;
 *		hand it to the server in one store transaction;
 *		archive it in the source; flush the outbox;
 *	}
 *
 * Until then this stub keeps the daemon's contract (ready, reload, clean
 * stop) so the unit, the signals and the pid file can be used and tested.
 */
#include "daemon/daemon.h"
#include "daemon/log.h"

int daemon_run_loop(struct daemon *d)
{
	log_warning("the mail loop is not wired in yet: waiting for signals only");
	while (!daemon_check_signals(d)) {
		if (d->once)
			break;
		daemon_wait(d->cfg.imap.poll_interval_ms, -1);
	}
	return 0;
}
