/* daemon.c -- signals, reload, sd_notify and detaching; see daemon.h. */
#include <config.h> /* autoconf's: _GNU_SOURCE */

#include "daemon/daemon.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config/log.h"
#include "daemon/pidfile.h"

static volatile sig_atomic_t stop_flag;
static volatile sig_atomic_t reload_flag;
static void (*volatile signal_hook)(void);

static void daemon_on_signal(int sig)
{
	int saved_errno = errno;

	if (sig == SIGHUP)
		reload_flag = 1;
	else
		stop_flag = 1;
	if (signal_hook != NULL)
		signal_hook();
	errno = saved_errno;
}

void daemon_set_signal_hook(void (*hook)(void))
{
	signal_hook = hook;
}

int daemon_signals_init(const char **error_r)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = daemon_on_signal;
	/* SA_RESTART: library calls (SQLite, libcurl) should not see EINTR;
	 * the hook is what wakes the loop's wait. */
	sa.sa_flags = SA_RESTART;
	if (sigaction(SIGHUP, &sa, NULL) < 0 || sigaction(SIGTERM, &sa, NULL) < 0 ||
	    sigaction(SIGINT, &sa, NULL) < 0) {
		*error_r = strerror(errno);
		return -1;
	}
	sa.sa_handler = SIG_IGN;
	sa.sa_flags = 0;
	if (sigaction(SIGPIPE, &sa, NULL) < 0) {
		*error_r = strerror(errno);
		return -1;
	}
	return 0;
}

/* Load d->config_path again; on success call reload_hook, swap configs
 * and reopen the log; on failure log every error and keep the old one.
 * Returns 0 if the new config is in force, -1 if the old one is kept. */
static int daemon_reload(struct daemon *d)
{
	struct config_errors errors = { NULL, 0 };
	struct config next;
	const char *error = NULL;
	int ret = -1;

	log_notice("SIGHUP: reloading %s", d->config_path);
	daemon_notify("RELOADING=1");
	if (config_load(d->config_path, &d->overrides, &next, &errors) < 0) {
		for (size_t i = 0; i < errors.count; i++)
			log_error("%s", errors.lines[i]);
		log_error("reload failed: keeping the previous configuration");
		goto out;
	}
	if (d->reload_hook != NULL && d->reload_hook(d, &next, &error) < 0) {
		log_error("reload failed: %s; keeping the previous configuration",
			  error != NULL ? error : "unknown error");
		config_free(&next);
		goto out;
	}
	config_free(&d->cfg);
	d->cfg = next;
	d->reloads++;
	/* Mask only the passwords in force, so a changed one frees its slot. */
	log_clear_secrets();
	config_log_secrets(&d->cfg);
	daemon_log_open(d);
	log_notice("configuration reloaded");
	ret = 0;
out:
	config_errors_free(&errors);
	daemon_notify("READY=1");
	return ret;
}

bool daemon_check_signals(struct daemon *d)
{
	if (reload_flag && !stop_flag) {
		reload_flag = 0;
		daemon_reload(d);
	}
	return stop_flag != 0;
}

void daemon_log_open(const struct daemon *d)
{
	enum log_target target = d->cfg.log.target;

	/* Once detached, stderr is /dev/null: syslog is the only place left. */
	if (d->detached && target != LOG_TARGET_SYSLOG)
		target = LOG_TARGET_SYSLOG;
	log_open(target, d->cfg.log.level, "ashesd", d->cfg.log.facility);
}


int daemon_notify(const char *state)
{
	const char *path = getenv("NOTIFY_SOCKET");
	struct sockaddr_un sa;
	socklen_t salen;
	size_t len;
	ssize_t n;
	int fd;

	if (path == NULL || *path == '\0')
		return 0;
	len = strlen(path);
	if ((path[0] != '/' && path[0] != '@') || len >= sizeof(sa.sun_path)) {
		errno = EINVAL;
		return -1;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	memcpy(sa.sun_path, path, len);
	if (path[0] == '@')
		sa.sun_path[0] = '\0'; /* Linux abstract namespace */
	salen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len);
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	n = sendto(fd, state, strlen(state), MSG_NOSIGNAL,
		   (const struct sockaddr *)&sa, salen);
	close(fd);
	return n < 0 ? -1 : 1;
}

unsigned int daemon_watchdog_ms(void)
{
	const char *usec = getenv("WATCHDOG_USEC"), *pid = getenv("WATCHDOG_PID");
	unsigned long long v;
	char *end;

	if (usec == NULL || *usec == '\0')
		return 0;
	if (pid != NULL && *pid != '\0') {
		errno = 0;
		v = strtoull(pid, &end, 10);
		if (errno != 0 || *end != '\0' || v != (unsigned long long)getpid())
			return 0; /* set for another process (our parent's) */
	}
	errno = 0;
	v = strtoull(usec, &end, 10);
	if (errno != 0 || *end != '\0' || v < 1000)
		return 0;
	v /= 1000;
	return v > 0x7fffffffULL ? 0x7fffffffU : (unsigned int)v;
}

int daemon_detach(const char *pid_file, int *ready_fd_r, const char **error_r)
{
	static char error[600];
	int pipefd[2], nullfd;
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC) < 0) {
		*error_r = strerror(errno);
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		*error_r = strerror(errno);
		close(pipefd[0]);
		close(pipefd[1]);
		return -1;
	}
	if (pid > 0) {
		/* The original process: wait for the daemon's verdict, so
		 * `ashesd --daemon` fails visibly when start-up fails. */
		char msg[600];
		size_t got = 0;
		ssize_t n;

		close(pipefd[1]);
		waitpid(pid, NULL, 0);
		while (got < sizeof(msg) - 1 &&
		       (n = read(pipefd[0], msg + got, sizeof(msg) - 1 - got)) != 0) {
			if (n < 0) {
				if (errno == EINTR)
					continue;
				break;
			}
			got += (size_t)n;
		}
		msg[got] = '\0';
		if (got > 0 && msg[0] == '0')
			_exit(0);
		fprintf(stderr, "ashesd: %s\n",
			got > 1 ? msg + 1 : "the daemon died during start-up");
		_exit(1);
	}
	close(pipefd[0]);
	if (setsid() < 0)
		_exit(1);
	pid = fork();
	if (pid < 0)
		_exit(1);
	if (pid > 0)
		_exit(0); /* the session leader goes, so no tty can come back */
	if (chdir("/") < 0) {
	}
	umask(027);
	nullfd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (nullfd >= 0) {
		dup2(nullfd, STDIN_FILENO);
		dup2(nullfd, STDOUT_FILENO);
		dup2(nullfd, STDERR_FILENO);
		if (nullfd > STDERR_FILENO)
			close(nullfd);
	}
	*ready_fd_r = pipefd[1];
	if (pid_file != NULL) {
		const char *perr;

		if (pidfile_create(pid_file, getpid(), &perr) < 0) {
			snprintf(error, sizeof(error), "%s", perr);
			daemon_detach_ready(ready_fd_r, error);
			_exit(1);
		}
	}
	return 0;
}

void daemon_detach_ready(int *ready_fd, const char *error)
{
	char msg[600];
	int len;

	if (*ready_fd < 0)
		return;
	len = snprintf(msg, sizeof(msg), "%c%s", error == NULL ? '0' : '1',
		       error == NULL ? "" : error);
	if (len > (int)sizeof(msg) - 1)
		len = (int)sizeof(msg) - 1;
	if (write(*ready_fd, msg, (size_t)len) < 0) {
	}
	close(*ready_fd);
	*ready_fd = -1;
}

void daemon_started(struct daemon *d)
{
	daemon_detach_ready(&d->ready_fd, NULL);
	if (daemon_notify("READY=1") < 0)
		log_warning("cannot notify systemd: %s", strerror(errno));
}
