/* log.c -- ashesd's process-wide logger; see log.h. */
#include <config.h> /* autoconf's: _GNU_SOURCE */

#include "config/log.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>

#include "util/buf.h"
#include "util/escape.h"

static const char *const level_names[] = {
	[LOG_LEVEL_DEBUG] = "debug",
	[LOG_LEVEL_INFO] = "info",
	[LOG_LEVEL_NOTICE] = "notice",
	[LOG_LEVEL_WARNING] = "warning",
	[LOG_LEVEL_ERROR] = "error",
};

static const int level_priorities[] = {
	[LOG_LEVEL_DEBUG] = LOG_DEBUG,
	[LOG_LEVEL_INFO] = LOG_INFO,
	[LOG_LEVEL_NOTICE] = LOG_NOTICE,
	[LOG_LEVEL_WARNING] = LOG_WARNING,
	[LOG_LEVEL_ERROR] = LOG_ERR,
};

#define LOG_MAX_SECRETS 16

/* ashesd logs from two threads (the mail loop and the outbox thread,
 * src/daemon/outbox_thread.h) while a reload may add secrets or reopen
 * the log: the logger's state is read and changed under this lock. */
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

static struct {
	enum log_target target;
	enum log_level level;
	const char *ident;
	int fd;              /* -1: stderr */
	bool prefix_journal; /* write "<N>" instead of "ident: level: " */
	bool syslog_open;
	char *secrets[LOG_MAX_SECRETS];
	size_t nsecrets;
} logger = {
	.target = LOG_TARGET_STDERR,
	.level = LOG_LEVEL_INFO,
	.ident = "ashesd",
	.fd = -1,
};

/* systemd sets JOURNAL_STREAM=DEV:INO for the stream it connected to
 * stderr; only if fd 2 is still that stream do "<N>" prefixes help
 * (a redirected stderr would show them literally). */
static bool log_stderr_is_journal(void)
{
	const char *js = getenv("JOURNAL_STREAM");
	unsigned long long dev, ino;
	struct stat st;

	if (js == NULL || sscanf(js, "%llu:%llu", &dev, &ino) != 2)
		return false;
	if (fstat(STDERR_FILENO, &st) < 0)
		return false;
	return (unsigned long long)st.st_dev == dev &&
	       (unsigned long long)st.st_ino == ino;
}

void log_open(enum log_target target, enum log_level level,
	      const char *ident, int facility)
{
	pthread_mutex_lock(&log_lock);
	if (logger.syslog_open && target != LOG_TARGET_SYSLOG) {
		closelog();
		logger.syslog_open = false;
	}
	logger.target = target;
	logger.level = level;
	logger.ident = ident != NULL ? ident : "ashesd";
	logger.prefix_journal = target == LOG_TARGET_JOURNAL ||
		(target == LOG_TARGET_STDERR && log_stderr_is_journal());
	if (target == LOG_TARGET_SYSLOG) {
		if (logger.syslog_open)
			closelog();
		openlog(logger.ident, LOG_PID | LOG_NDELAY, facility);
		logger.syslog_open = true;
	}
	pthread_mutex_unlock(&log_lock);
}

void log_close(void)
{
	pthread_mutex_lock(&log_lock);
	if (logger.syslog_open)
		closelog();
	logger.syslog_open = false;
	logger.target = LOG_TARGET_STDERR;
	pthread_mutex_unlock(&log_lock);
	log_clear_secrets();
}

/* True if a message at level would be written. */
static bool log_enabled(enum log_level level)
{
	return level >= logger.level;
}

void log_set_fd(int fd)
{
	logger.fd = fd;
}

void log_add_secret(const char *s)
{
	if (s == NULL || *s == '\0')
		return;
	pthread_mutex_lock(&log_lock);
	for (size_t i = 0; i < logger.nsecrets; i++)
		if (strcmp(logger.secrets[i], s) == 0)
			goto out;
	if (logger.nsecrets == LOG_MAX_SECRETS)
		goto out;
	logger.secrets[logger.nsecrets] = strdup(s);
	if (logger.secrets[logger.nsecrets] != NULL)
		logger.nsecrets++;
out:
	pthread_mutex_unlock(&log_lock);
}

void log_clear_secrets(void)
{
	pthread_mutex_lock(&log_lock);
	for (size_t i = 0; i < logger.nsecrets; i++) {
		/* don't leave the password in freed heap memory either */
		explicit_bzero(logger.secrets[i], strlen(logger.secrets[i]));
		free(logger.secrets[i]);
	}
	logger.nsecrets = 0;
	pthread_mutex_unlock(&log_lock);
}

/* Replace every registered secret in text (in place, via out). */
static void log_mask(struct buf *out, const char *text)
{
	const char *p = text;

	while (*p != '\0') {
		size_t best_len = 0;

		for (size_t i = 0; i < logger.nsecrets; i++) {
			size_t n = strlen(logger.secrets[i]);

			if (n > best_len && strncmp(p, logger.secrets[i], n) == 0)
				best_len = n;
		}
		if (best_len > 0) {
			buf_puts(out, "********");
			p += best_len;
		} else {
			buf_putc(out, *p++);
		}
	}
}

static void log_vmsg(enum log_level level, const char *fmt, va_list ap)
{
	struct buf text = BUF_INIT, line = BUF_INIT;
	int saved_errno = errno; /* callers log, then look at errno */
	const char *msg;

	if (!log_enabled(level))
		return;
	buf_vprintf(&text, fmt, ap);
	msg = buf_str(&text);
	pthread_mutex_lock(&log_lock);
	if (logger.nsecrets > 0) {
		log_mask(&line, msg);
		buf_reset(&text);
		buf_puts(&text, buf_str(&line));
		buf_reset(&line);
		msg = buf_str(&text);
	}
	/* One line per message, even if a server's error text or a value
	 * from a mail had newlines, so the journal and grep see one record;
	 * and no control character from a mail (ESC, CSI, CR) to act on
	 * the terminal that shows the log (util/escape.h). */
	if (logger.prefix_journal)
		buf_printf(&line, "<%d>", level_priorities[level]);
	else if (logger.target != LOG_TARGET_SYSLOG)
		buf_printf(&line, "%s: %s: ", logger.ident, level_names[level]);
	escape_append(&line, msg, strlen(msg), 0);
	if (logger.target == LOG_TARGET_SYSLOG) {
		syslog(level_priorities[level], "%s", buf_str(&line));
		goto out;
	}
	buf_putc(&line, '\n');
	{
		int fd = logger.fd >= 0 ? logger.fd : STDERR_FILENO;
		const char *p = line.data;
		size_t left = line.len;

		while (left > 0) {
			ssize_t n = write(fd, p, left);

			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				break; /* nowhere left to complain to */
			p += n;
			left -= (size_t)n;
		}
	}
out:
	pthread_mutex_unlock(&log_lock);
	buf_free(&text);
	buf_free(&line);
	errno = saved_errno;
}

void log_msg(enum log_level level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vmsg(level, fmt, ap);
	va_end(ap);
}
