/* daemon.h -- ashesd's process control around the mail loop: signals
 * (a hook wakes the loop's wait on them), config reload on
 * SIGHUP, the systemd readiness protocol, and detaching as a classic
 * daemon with a pid file.
 *
 * The mail loop itself (daemon_run_loop, loop.c) only has to call
 * daemon_check_signals() between messages;
 * everything else here is done for it by main.c.
 */
#ifndef ASHES_DAEMON_DAEMON_H
#define ASHES_DAEMON_DAEMON_H

#include <stdbool.h>

#include "config/club_config.h"

struct daemon;

/* Called on SIGHUP once the new file has loaded, before it replaces the
 * current config (d->cfg is still the old one): reopen templates, the
 * store, ...  Return -1 with *error_r to keep the old config. */
typedef int daemon_reload_fn(struct daemon *d, const struct config *next,
			     const char **error_r);

struct daemon {
	struct config cfg;            /* in force; replaced on reload */
	const char *config_path;      /* what -c named (absolute) */
	struct config_overrides overrides; /* re-applied on every reload */
	bool once;                    /* --once: one pass, then return */
	bool detached;                /* --daemon: stderr is /dev/null */
	int ready_fd;                 /* --daemon: the waiting parent, or -1 */
	daemon_reload_fn *reload_hook;
	void *context;                /* the loop's own state */
	unsigned reloads;             /* successful reloads (for tests/logs) */
};

/* Install handlers: SIGHUP sets the reload flag, SIGTERM and SIGINT the
 * stop flag; SIGPIPE is ignored (a dropped server connection is an error
 * return, not a death).  Returns 0, or -1 with *error_r. */
int daemon_signals_init(const char **error_r);
/* Call hook (NULL: none) from the signal handler, after the flags are set,
 * e.g. to break an IMAP IDLE wait (mail_source_interrupt).  The hook runs
 * in signal context: it may only do async-signal-safe things. */
void daemon_set_signal_hook(void (*hook)(void));

/* Between messages: reload if SIGHUP came (the config file read again;
 * on failure every error logged and the old one kept), and say
 * whether the daemon should stop.  Returns true to stop. */
bool daemon_check_signals(struct daemon *d);

/* Open the log as d->cfg says (syslog instead of stderr once detached). */
void daemon_log_open(const struct daemon *d);

/* Send a state ("READY=1", "STOPPING=1", "STATUS=...") to systemd if
 * NOTIFY_SOCKET is set.  Returns 1 if sent, 0 if not under systemd's
 * notify protocol, -1 on error (errno set). */
int daemon_notify(const char *state);

/* systemd's watchdog (WatchdogSec= in the unit): the interval it set in
 * WATCHDOG_USEC, in milliseconds, when it is meant for this process
 * (WATCHDOG_PID unset or ours); 0 when there is none.  The loop sends
 * "WATCHDOG=1" (daemon_notify) at the end of each turn, and waits no more
 * than a third of this for mail, so a loop that stops making progress
 * stops the pings and systemd restarts the daemon. */
unsigned int daemon_watchdog_ms(void);

/* Detach as a classic daemon: double fork, setsid, chdir /, std fds to
 * /dev/null, and create pid_file in the final process.  In the original
 * process this does not return: it exits 0 once the daemon reported
 * daemon_detach_ready(), or 1 (printing the daemon's error) if it failed.
 * Returns 0 in the daemon with *ready_fd_r set, or -1 with *error_r (in
 * the original process, before forking). */
int daemon_detach(const char *pid_file, int *ready_fd_r, const char **error_r);
/* Tell the waiting parent how start-up went (error NULL: fine). */
void daemon_detach_ready(int *ready_fd, const char *error);

/* The loop has opened everything it needs (store, templates, mailbox,
 * SMTP): tell the waiting parent (--daemon) and systemd that start-up is
 * over.  Before this, a failure makes `ashesd --daemon` exit 1. */
void daemon_started(struct daemon *d);

/* The mail loop, in loop.c: handles mail until daemon_check_signals()
 * says stop (or after one pass with d->once).  Returns 0 on a clean stop,
 * -1 on a fatal error (already logged). */
int daemon_run_loop(struct daemon *d);

#endif
