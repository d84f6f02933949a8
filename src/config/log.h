/* log.h -- ashesd's logging: levels, and the three targets an operator can
 * choose (stderr for a terminal, the journal's stream protocol, syslog).
 * It lives beside the config, which sets it up ([log]) and feeds it the
 * secrets to mask, so that `ashes` can read the config without the daemon.
 *
 * One process-wide logger, because signal handling, the mail loop and the
 * config reload all log and none of them should carry a handle around.
 *
 * Secrets: the config module registers every password it reads with
 * log_add_secret(); any message that would contain one has it replaced by
 * "********" before it is written, so a libcurl or libetpan error string
 * that echoes a credential never reaches the log.
 */
#ifndef ASHES_CONFIG_LOG_H
#define ASHES_CONFIG_LOG_H

#include <stdarg.h>
#include <stdbool.h>

enum log_level {
	LOG_LEVEL_DEBUG = 0,
	LOG_LEVEL_INFO,
	LOG_LEVEL_NOTICE,
	LOG_LEVEL_WARNING,
	LOG_LEVEL_ERROR,
};

enum log_target {
	/* stderr; with systemd's "<N>" priority prefixes when stderr is the
	 * journal (JOURNAL_STREAM names it), else "ashesd: level: ". */
	LOG_TARGET_STDERR = 0,
	LOG_TARGET_SYSLOG,
	/* stderr, always with "<N>" prefixes (for systemd units). */
	LOG_TARGET_JOURNAL,
};

/* Start logging to target at level and above.  ident is the program name
 * for syslog and the stderr prefix (kept by pointer: pass a literal).
 * facility is a syslog facility (LOG_DAEMON, LOG_MAIL, ...).  Can be
 * called again to switch target (e.g. after a reload or daemonizing). */
void log_open(enum log_target target, enum log_level level,
	      const char *ident, int facility);
void log_close(void);
/* Write stderr-target output to fd instead of 2 (-1 resets).  Only the
 * tests call it: it is how they read what was logged. */
void log_set_fd(int fd);

/* Mask s in every later message.  The logger keeps its own copy; empty
 * strings are ignored.  log_clear_secrets() forgets them all: the
 * daemon's reload does, then registers those of the config it keeps
 * (config_log_secrets()), so a changed password frees its slot. */
void log_add_secret(const char *s);
void log_clear_secrets(void);

/* Write a message at level: through the macros below. */
void log_msg(enum log_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#define log_debug(...) log_msg(LOG_LEVEL_DEBUG, __VA_ARGS__)
#define log_info(...) log_msg(LOG_LEVEL_INFO, __VA_ARGS__)
#define log_notice(...) log_msg(LOG_LEVEL_NOTICE, __VA_ARGS__)
#define log_warning(...) log_msg(LOG_LEVEL_WARNING, __VA_ARGS__)
#define log_error(...) log_msg(LOG_LEVEL_ERROR, __VA_ARGS__)

#endif
