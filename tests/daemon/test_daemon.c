/* test_daemon.c -- ashesd's process side: log levels, targets and secret
 * masking; the pid file (stale pids reclaimed, live ones refused); the
 * self-pipe signals and reload; sd_notify; and the real ashesd binary
 * (--check-config exit codes, readiness, SIGHUP, SIGTERM, --daemon). */
#include <config.h>

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "config/club_config.h"
#include "daemon/daemon.h"
#include "config/log.h"
#include "daemon/pidfile.h"
#include "util/buf.h"

#include "daemon_test.h"

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ------------------------------------------------------------------ log */

/* Log into a temp file and hand back what was written. */
static int log_capture_open(void)
{
	char path[300];
	int fd;

	snprintf(path, sizeof(path), "%s/log", tmpdir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	ck_assert_int_ge(fd, 0);
	log_set_fd(fd);
	return fd;
}

static char *log_capture_text(int fd)
{
	char path[300];

	snprintf(path, sizeof(path), "%s/log", tmpdir);
	log_set_fd(-1);
	close(fd);
	return daemon_test_read(path);
}

START_TEST(test_log_levels)
{
	int fd = log_capture_open();
	char *text;

	unsetenv("JOURNAL_STREAM");
	log_open(LOG_TARGET_STDERR, LOG_LEVEL_WARNING, "ashesd", LOG_DAEMON);
	ck_assert(!log_enabled(LOG_LEVEL_INFO));
	ck_assert(log_enabled(LOG_LEVEL_ERROR));
	log_debug("debug %d", 1);
	log_info("info %d", 2);
	log_notice("notice %d", 3);
	log_warning("warning %d", 4);
	log_error("error %s", "five");
	log_set_level(LOG_LEVEL_DEBUG);
	log_debug("now debug %d", 6);
	text = log_capture_text(fd);
	ck_assert_str_eq(text, "ashesd: warning: warning 4\n"
			       "ashesd: error: error five\n"
			       "ashesd: debug: now debug 6\n");
	free(text);
	log_close();
}
END_TEST

START_TEST(test_log_journal_prefixes)
{
	struct stat st;
	char js[64];
	int fd;
	char *text;

	/* target = journal: always "<N>" (syslog priorities) */
	fd = log_capture_open();
	log_open(LOG_TARGET_JOURNAL, LOG_LEVEL_DEBUG, "ashesd", LOG_DAEMON);
	log_debug("d");
	log_info("i");
	log_notice("n");
	log_warning("w");
	log_error("two\nlines");
	text = log_capture_text(fd);
	ck_assert_str_eq(text, "<7>d\n<6>i\n<5>n\n<4>w\n<3>two lines\n");
	free(text);

	/* target = stderr: "<N>" only when stderr is the journal's stream */
	ck_assert_int_eq(fstat(STDERR_FILENO, &st), 0);
	snprintf(js, sizeof(js), "%llu:%llu", (unsigned long long)st.st_dev,
		 (unsigned long long)st.st_ino);
	setenv("JOURNAL_STREAM", js, 1);
	fd = log_capture_open();
	log_open(LOG_TARGET_STDERR, LOG_LEVEL_INFO, "ashesd", LOG_DAEMON);
	log_info("to the journal");
	snprintf(js, sizeof(js), "%llu:%llu", (unsigned long long)st.st_dev,
		 (unsigned long long)st.st_ino + 1);
	setenv("JOURNAL_STREAM", js, 1);
	log_open(LOG_TARGET_STDERR, LOG_LEVEL_INFO, "ashesd", LOG_DAEMON);
	log_info("to a terminal");
	unsetenv("JOURNAL_STREAM");
	text = log_capture_text(fd);
	ck_assert_str_eq(text, "<6>to the journal\nashesd: info: to a terminal\n");
	free(text);
	log_close();
}
END_TEST

START_TEST(test_log_masks_secrets)
{
	int fd = log_capture_open();
	char *text;

	log_open(LOG_TARGET_STDERR, LOG_LEVEL_INFO, "ashesd", LOG_DAEMON);
	log_add_secret("hunter2");
	log_add_secret("");
	log_add_secret(NULL);
	log_error("login as bob with hunter2 failed (hunter2)");
	log_clear_secrets();
	log_info("forgotten: hunter2");
	text = log_capture_text(fd);
	ck_assert_str_eq(text, "ashesd: error: login as bob with ******** failed (********)\n"
			       "ashesd: info: forgotten: hunter2\n");
	free(text);
	log_close();
}
END_TEST

/* A loaded config registers its passwords, so nothing logs them. */
START_TEST(test_log_masks_config_passwords)
{
	struct config_errors errors = { NULL, 0 };
	struct config cfg;
	char pwfile[300], text[1024];
	int fd;
	char *out;

	snprintf(pwfile, sizeof(pwfile), "%s/pw", tmpdir);
	daemon_test_write(pwfile, "file-secret\n", 0644);
	snprintf(text, sizeof(text),
		 "[imap]\nurl = imap://h\nuser = u\npassword_file = %s\n"
		 "[smtp]\nurl = smtp://h\nuser = s\npassword = inline-secret\nfrom = a@b.example\n",
		 pwfile);
	ck_assert_int_eq(config_load_string("t.conf", text, NULL, &cfg, &errors), 0);
	fd = log_capture_open();
	log_open(LOG_TARGET_STDERR, LOG_LEVEL_INFO, "ashesd", LOG_DAEMON);
	log_error("server said: bad password inline-secret / file-secret");
	out = log_capture_text(fd);
	ck_assert_str_eq(out, "ashesd: error: server said: bad password ******** / ********\n");
	free(out);
	config_free(&cfg);
	log_close();
}
END_TEST

START_TEST(test_log_names)
{
	enum log_level level;
	enum log_target target;

	ck_assert_int_eq(log_level_parse("notice", &level), 0);
	ck_assert_int_eq(level, LOG_LEVEL_NOTICE);
	ck_assert_int_eq(log_level_parse("warn", &level), 0);
	ck_assert_int_eq(level, LOG_LEVEL_WARNING);
	ck_assert_int_lt(log_level_parse("loud", &level), 0);
	ck_assert_str_eq(log_level_name(LOG_LEVEL_ERROR), "error");
	ck_assert_int_eq(log_target_parse("syslog", &target), 0);
	ck_assert_int_eq(target, LOG_TARGET_SYSLOG);
	ck_assert_int_lt(log_target_parse("file", &target), 0);
	ck_assert_str_eq(log_target_name(LOG_TARGET_JOURNAL), "journal");
}
END_TEST

/* -------------------------------------------------------------- pidfile */

START_TEST(test_pidfile_fresh_and_remove)
{
	char path[300];
	const char *error;
	pid_t pid;
	char *text;

	snprintf(path, sizeof(path), "%s/ashesd.pid", tmpdir);
	ck_assert_int_eq(pidfile_create(path, getpid(), &error), 0);
	text = daemon_test_read(path);
	{
		char want[32];

		snprintf(want, sizeof(want), "%ld\n", (long)getpid());
		ck_assert_str_eq(text, want);
	}
	free(text);
	ck_assert_int_eq(pidfile_read(path, &pid), 0);
	ck_assert_int_eq(pid, getpid());
	/* Only the owner removes it. */
	ck_assert_int_lt(pidfile_remove(path, getpid() + 1), 0);
	ck_assert_int_eq(access(path, F_OK), 0);
	ck_assert_int_eq(pidfile_remove(path, getpid()), 0);
	ck_assert_int_lt(access(path, F_OK), 0);
	ck_assert_int_lt(pidfile_read(path, &pid), 0);
}
END_TEST

START_TEST(test_pidfile_live_refused)
{
	char path[300], line[64];
	const char *error = NULL;
	pid_t child, pid;
	int status;

	/* A live process of our own name (a forked copy of this test). */
	child = fork();
	ck_assert_int_ge(child, 0);
	if (child == 0) {
		pause();
		_exit(0);
	}
	snprintf(path, sizeof(path), "%s/ashesd.pid", tmpdir);
	snprintf(line, sizeof(line), "%ld\n", (long)child);
	daemon_test_write(path, line, 0644);
	ck_assert_int_lt(pidfile_create(path, getpid(), &error), 0);
	snprintf(line, sizeof(line), "already running as pid %ld", (long)child);
	ck_assert_msg(strstr(error, line) != NULL, "%s", error);
	ck_assert_int_eq(pidfile_read(path, &pid), 0);
	ck_assert_int_eq(pid, child); /* untouched */
	kill(child, SIGKILL);
	waitpid(child, &status, 0);
	/* Now it is stale. */
	ck_assert_int_eq(pidfile_create(path, getpid(), &error), 0);
	ck_assert_int_eq(pidfile_read(path, &pid), 0);
	ck_assert_int_eq(pid, getpid());
}
END_TEST

START_TEST(test_pidfile_stale_reclaimed)
{
	char path[300], line[64];
	const char *error = NULL;
	pid_t child, pid;
	int status;

	snprintf(path, sizeof(path), "%s/ashesd.pid", tmpdir);
	/* A dead pid. */
	child = fork();
	ck_assert_int_ge(child, 0);
	if (child == 0)
		_exit(0);
	waitpid(child, &status, 0);
	snprintf(line, sizeof(line), "%ld\n", (long)child);
	daemon_test_write(path, line, 0644);
	ck_assert_msg(pidfile_create(path, getpid(), &error) == 0, "%s", error);
	ck_assert_int_eq(pidfile_read(path, &pid), 0);
	ck_assert_int_eq(pid, getpid());

	/* Garbage, and an empty file left by a crash. */
	daemon_test_write(path, "not a pid\n", 0644);
	ck_assert_int_eq(pidfile_create(path, getpid(), &error), 0);
	daemon_test_write(path, "", 0644);
	ck_assert_int_eq(pidfile_create(path, getpid(), &error), 0);

	/* A live pid reused by another program (here `sleep`). */
	child = fork();
	ck_assert_int_ge(child, 0);
	if (child == 0) {
		execlp("sleep", "sleep", "30", (char *)NULL);
		_exit(127);
	}
	{
		/* wait until the exec has renamed the child */
		char comm_path[64], *comm = NULL;

		snprintf(comm_path, sizeof(comm_path), "/proc/%ld/comm", (long)child);
		for (int i = 0; i < 200; i++) {
			free(comm);
			comm = daemon_test_read(comm_path);
			if (strcmp(comm, "sleep\n") == 0)
				break;
			usleep(10000);
		}
		ck_assert_str_eq(comm, "sleep\n");
		free(comm);
	}
	snprintf(line, sizeof(line), "%ld\n", (long)child);
	daemon_test_write(path, line, 0644);
	ck_assert_msg(pidfile_create(path, getpid(), &error) == 0, "%s", error);
	ck_assert_int_eq(pidfile_read(path, &pid), 0);
	ck_assert_int_eq(pid, getpid());
	kill(child, SIGKILL);
	waitpid(child, &status, 0);

	/* A folder we cannot create in: a clear error. */
	ck_assert_int_lt(pidfile_create("/nonexistent/dir/ashesd.pid", getpid(), &error), 0);
	ck_assert_ptr_nonnull(strstr(error, "cannot create pid file /nonexistent/dir/ashesd.pid"));
}
END_TEST

/* -------------------------------------------------------------- notify */

/* A datagram socket standing in for systemd's NOTIFY_SOCKET. */
static int notify_listen(const char *name, bool abstract)
{
	struct sockaddr_un sa;
	socklen_t len;
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	ck_assert_int_ge(fd, 0);
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", name);
	len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + strlen(name));
	if (abstract)
		sa.sun_path[0] = '\0';
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&sa, len), 0);
	return fd;
}

/* Next datagram within ms, or "" (caller frees). */
static char *notify_recv(int fd, int ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char data[512];
	ssize_t n;

	if (poll(&pfd, 1, ms) != 1)
		return strdup("");
	n = recv(fd, data, sizeof(data) - 1, 0);
	ck_assert_int_ge(n, 0);
	data[n] = '\0';
	return strdup(data);
}

START_TEST(test_notify)
{
	char path[300], name[64];
	char *got;
	int fd;

	unsetenv("NOTIFY_SOCKET");
	ck_assert_int_eq(daemon_notify("READY=1"), 0);

	snprintf(path, sizeof(path), "%s/notify", tmpdir);
	fd = notify_listen(path, false);
	setenv("NOTIFY_SOCKET", path, 1);
	ck_assert_int_eq(daemon_notify("READY=1"), 1);
	got = notify_recv(fd, 1000);
	ck_assert_str_eq(got, "READY=1");
	free(got);
	close(fd);

	snprintf(name, sizeof(name), "@ashesd-test-%ld", (long)getpid());
	fd = notify_listen(name, true);
	setenv("NOTIFY_SOCKET", name, 1);
	ck_assert_int_eq(daemon_notify("STATUS=abstract"), 1);
	got = notify_recv(fd, 1000);
	ck_assert_str_eq(got, "STATUS=abstract");
	free(got);
	close(fd);

	setenv("NOTIFY_SOCKET", "relative/path", 1);
	ck_assert_int_lt(daemon_notify("READY=1"), 0);
	unsetenv("NOTIFY_SOCKET");
}
END_TEST

/* ------------------------------------------------------ signals, reload */

static void daemon_config_file(const char *path, const char *level)
{
	char text[1200];

	snprintf(text, sizeof(text),
		 "[source]\ntype = maildir\nmaildir = %s\n[smtp]\nfrom = ashes@example.org\n"
		 "[database]\npath = %s/ashes.db\n[gpg]\nhome = %s/gnupg\n"
		 "[log]\nlevel = %s\n", tmpdir, tmpdir, tmpdir, level);
	daemon_test_write(path, text, 0644);
}

static volatile sig_atomic_t signal_hook_calls;
static void count_signal(void)
{
	signal_hook_calls++;
}

static int reload_hook_calls;
static int reload_hook_refuse(struct daemon *d, const struct config *next,
			      const char **error_r)
{
	reload_hook_calls++;
	/* The hook sees both: the old config in d, the new in next. */
	ck_assert_int_ne(d->cfg.log.level, next->log.level);
	*error_r = "templates did not load";
	return -1;
}

START_TEST(test_signals_and_reload)
{
	struct config_errors errors = { NULL, 0 };
	struct daemon d;
	const char *error;
	char path[300];
	int logfd;
	char *log;
	long t0;

	memset(&d, 0, sizeof(d));
	snprintf(path, sizeof(path), "%s/ashesd.conf", tmpdir);
	daemon_config_file(path, "info");
	d.config_path = path;
	ck_assert_int_eq(config_load(path, NULL, &d.cfg, &errors), 0);
	ck_assert_int_eq(daemon_signals_init(&error), 0);
	logfd = log_capture_open();
	daemon_log_open(&d);

	/* Nothing pending: the wait runs its full time. */
	t0 = now_ms();
	ck_assert_int_eq(daemon_wait(100, -1), 0);
	ck_assert_int_ge(now_ms() - t0, 95);
	ck_assert(!daemon_check_signals(&d));

	/* SIGHUP wakes a long wait at once, and reloads. */
	daemon_config_file(path, "debug");
	daemon_set_signal_hook(count_signal);
	raise(SIGHUP);
	ck_assert_int_eq(signal_hook_calls, 1);
	daemon_set_signal_hook(NULL);
	t0 = now_ms();
	ck_assert_int_eq(daemon_wait(10000, -1), 0);
	ck_assert_int_lt(now_ms() - t0, 1000);
	ck_assert(!daemon_check_signals(&d));
	ck_assert_uint_eq(d.reloads, 1);
	ck_assert_int_eq(d.cfg.log.level, LOG_LEVEL_DEBUG);
	ck_assert_int_eq(log_get_level(), LOG_LEVEL_DEBUG);

	/* A broken file: the old config stays, and the log says why. */
	daemon_test_write(path, "[smtp]\nfrom = ashes@example.org\nbogus = 1\n", 0644);
	raise(SIGHUP);
	ck_assert(!daemon_check_signals(&d));
	ck_assert_uint_eq(d.reloads, 1);
	ck_assert_int_eq(d.cfg.log.level, LOG_LEVEL_DEBUG);
	ck_assert_str_eq(d.cfg.source.maildir, tmpdir);

	/* A reload hook that refuses keeps the old config too. */
	daemon_config_file(path, "error");
	d.reload_hook = reload_hook_refuse;
	raise(SIGHUP);
	ck_assert(!daemon_check_signals(&d));
	ck_assert_int_eq(reload_hook_calls, 1);
	ck_assert_uint_eq(d.reloads, 1);
	ck_assert_int_eq(d.cfg.log.level, LOG_LEVEL_DEBUG);

	/* A readable fd ends the wait with 1. */
	{
		int p[2];

		ck_assert_int_eq(pipe(p), 0);
		ck_assert_int_eq(write(p[1], "x", 1), 1);
		ck_assert_int_eq(daemon_wait(5000, p[0]), 1);
		close(p[0]);
		close(p[1]);
	}

	/* SIGTERM: stop, and waits return at once from then on. */
	raise(SIGTERM);
	ck_assert(daemon_check_signals(&d));
	ck_assert(daemon_stop_requested());
	t0 = now_ms();
	ck_assert_int_eq(daemon_wait(10000, -1), 0);
	ck_assert_int_lt(now_ms() - t0, 1000);

	log = log_capture_text(logfd);
	ck_assert_msg(strstr(log, "ashesd: error: ") != NULL &&
		      strstr(log, "ashesd.conf:3: unknown key \"bogus\" in [smtp]") != NULL,
		      "%s", log);
	ck_assert_msg(strstr(log, "reload failed: keeping the previous configuration") != NULL, "%s", log);
	ck_assert_msg(strstr(log, "reload failed: templates did not load; keeping the previous configuration") != NULL,
		      "%s", log);
	ck_assert_msg(strstr(log, "configuration reloaded") != NULL, "%s", log);
	free(log);
	config_free(&d.cfg);
	log_close();
}
END_TEST

/* -------------------------------------------------------- ashesd binary */

struct run {
	int status; /* exit status, or 128+signal */
	char *out, *err;
};

static void run_free(struct run *r)
{
	free(r->out);
	free(r->err);
}

static const char *ashesd_path(void)
{
	static char path[1024];
	const char *b = getenv("ASHES_BUILDDIR");

	snprintf(path, sizeof(path), "%s/ashesd", b != NULL ? b : ".");
	return path;
}

/* Start ashesd with argv (NULL-terminated, without argv[0]); its stdout
 * and stderr go to files in tmpdir. */
static pid_t ashesd_start(const char *const *args)
{
	char out[300], err[300];
	const char *argv[16];
	size_t n = 0;
	pid_t pid;

	argv[n++] = "ashesd";
	while (*args != NULL && n < 15)
		argv[n++] = *args++;
	argv[n] = NULL;
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		/* per-process names: several may run at once */
		snprintf(out, sizeof(out), "%s/stdout.%ld", tmpdir, (long)getpid());
		snprintf(err, sizeof(err), "%s/stderr.%ld", tmpdir, (long)getpid());
		int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		int e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		int in = open("/dev/null", O_RDONLY);

		if (o < 0 || e < 0 || in < 0)
			_exit(126);
		dup2(in, 0);
		dup2(o, 1);
		dup2(e, 2);
		execv(ashesd_path(), (char *const *)argv);
		_exit(127);
	}
	return pid;
}

static struct run ashesd_wait(pid_t pid)
{
	struct run r;
	char path[300];
	int status;

	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	snprintf(path, sizeof(path), "%s/stdout.%ld", tmpdir, (long)pid);
	r.out = daemon_test_read(path);
	snprintf(path, sizeof(path), "%s/stderr.%ld", tmpdir, (long)pid);
	r.err = daemon_test_read(path);
	return r;
}

static struct run ashesd_run(const char *const *args)
{
	return ashesd_wait(ashesd_start(args));
}

START_TEST(test_check_config_example)
{
	char path[1024];
	const char *args[] = { "--check-config", "-c", path, NULL };
	struct run r;

	snprintf(path, sizeof(path), "%s/contrib/ashesd.conf", getenv("ASHES_SRCDIR"));
	r = ashesd_run(args);
	ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
	ck_assert_msg(strncmp(r.out, "ok\n", 3) == 0, "%s", r.out);
	ck_assert_ptr_nonnull(strstr(r.out, "\n[imap]\nurl = imaps://imap.example.org\n"));
	ck_assert_ptr_nonnull(strstr(r.out, "\npassword = ********\n"));
	ck_assert_ptr_null(strstr(r.out, "change-me"));
	ck_assert_str_eq(r.err, "");
	run_free(&r);
}
END_TEST

START_TEST(test_check_config_broken)
{
	static const char *const expected[] = {
		"broken.conf:8: unknown key \"retries\" in [smtp]\n",
		"broken.conf:10: [imap] poll_interval: bad value \"soon\"",
		"broken.conf:12: [game] size: 2 is out of range (3..13)\n",
		"broken.conf:13: unknown section [colours]\n",
		"broken.conf:5: [source] maildir: /nonexistent/ashes-maildir: No such file or directory\n",
		"ashesd: 5 errors in the configuration\n",
	};
	char path[1024];
	const char *args[] = { "--check-config", "-c", path, NULL };
	const char *run_args[] = { "--once", "-c", path, NULL };
	struct run r;

	snprintf(path, sizeof(path), "%s/tests/daemon/broken.conf", getenv("ASHES_SRCDIR"));
	r = ashesd_run(args);
	ck_assert_int_eq(r.status, 1);
	ck_assert_str_eq(r.out, "");
	for (size_t i = 0; i < sizeof(expected) / sizeof(expected[0]); i++)
		ck_assert_msg(strstr(r.err, expected[i]) != NULL, "missing %s in:\n%s",
			      expected[i], r.err);
	run_free(&r);

	/* Starting for real refuses the same file the same way. */
	r = ashesd_run(run_args);
	ck_assert_int_eq(r.status, 1);
	ck_assert_ptr_nonnull(strstr(r.err, "ashesd: 5 errors in the configuration\n"));
	run_free(&r);

	/* A missing file. */
	snprintf(path, sizeof(path), "%s/none.conf", tmpdir);
	r = ashesd_run(args);
	ck_assert_int_eq(r.status, 1);
	ck_assert_ptr_nonnull(strstr(r.err, "none.conf: cannot open: No such file or directory\n"));
	run_free(&r);
}
END_TEST

START_TEST(test_command_line)
{
	const char *help[] = { "--help", NULL };
	const char *version[] = { "--version", NULL };
	const char *bad[] = { "--frobnicate", NULL };
	const char *extra[] = { "extra-argument", NULL };
	struct run r;

	r = ashesd_run(help);
	ck_assert_int_eq(r.status, 0);
	ck_assert_ptr_nonnull(strstr(r.out, "--check-config"));
	ck_assert_ptr_nonnull(strstr(r.out, "--maildir"));
	run_free(&r);
	r = ashesd_run(version);
	ck_assert_int_eq(r.status, 0);
	ck_assert_str_eq(r.out, "ashesd " PACKAGE_VERSION "\n");
	run_free(&r);
	r = ashesd_run(bad);
	ck_assert_int_eq(r.status, 2);
	ck_assert_ptr_nonnull(strstr(r.err, "Usage: ashesd"));
	run_free(&r);
	r = ashesd_run(extra);
	ck_assert_int_eq(r.status, 2);
	ck_assert_ptr_nonnull(strstr(r.err, "unexpected argument \"extra-argument\""));
	run_free(&r);
}
END_TEST

START_TEST(test_once_with_maildir_override)
{
	char conf[300], maildir[300];
	const char *args[] = { "--once", "-c", conf, "--maildir", maildir, NULL };
	struct run r;

	snprintf(conf, sizeof(conf), "%s/ashesd.conf", tmpdir);
	snprintf(maildir, sizeof(maildir), "%s/mail", tmpdir);
	ck_assert_int_eq(mkdir(maildir, 0700), 0);
	/* An IMAP config without its [imap] keys: fine with --maildir. */
	{
		char text[1000];

		snprintf(text, sizeof(text),
			 "[smtp]\nfrom = ashes@example.org\n[database]\npath = %s/ashes.db\n"
			 "[gpg]\nhome = %s/gnupg\n", tmpdir, tmpdir);
		daemon_test_write(conf, text, 0644);
	}
	r = ashesd_run(args);
	ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
	ck_assert_msg(strstr(r.err, "ashesd: notice: ashesd " PACKAGE_VERSION " starting") != NULL,
		      "%s", r.err);
	ck_assert_ptr_nonnull(strstr(r.err, maildir));
	ck_assert_ptr_nonnull(strstr(r.err, "no [smtp] url: replies stay in the outbox"));
	ck_assert_ptr_nonnull(strstr(r.err, "ashesd: notice: ashesd stopped\n"));
	run_free(&r);
}
END_TEST

/* Foreground under a fake systemd: READY=1, SIGHUP reload, SIGTERM. */
START_TEST(test_foreground_lifecycle)
{
	char conf[300], sock[300], pidf[300];
	const char *args[] = { "--foreground", "-c", conf, "--pid-file", pidf, NULL };
	struct run r;
	char *msg;
	pid_t pid, written;
	int fd;

	snprintf(conf, sizeof(conf), "%s/ashesd.conf", tmpdir);
	snprintf(sock, sizeof(sock), "%s/notify", tmpdir);
	snprintf(pidf, sizeof(pidf), "%s/ashesd.pid", tmpdir);
	daemon_config_file(conf, "info");
	fd = notify_listen(sock, false);
	setenv("NOTIFY_SOCKET", sock, 1);
	setenv("JOURNAL_STREAM", "0:0", 1); /* not our stderr: plain prefixes */
	pid = ashesd_start(args);
	unsetenv("NOTIFY_SOCKET");
	unsetenv("JOURNAL_STREAM");

	msg = notify_recv(fd, 10000);
	ck_assert_str_eq(msg, "READY=1");
	free(msg);
	ck_assert_int_eq(pidfile_read(pidf, &written), 0);
	ck_assert_int_eq(written, pid);

	/* A second one with the same pid file is refused. */
	{
		const char *again[] = { "--once", "-c", conf, "--pid-file", pidf, NULL };
		char out[300];

		r = ashesd_run(again);
		ck_assert_int_eq(r.status, 1);
		snprintf(out, sizeof(out), "already running as pid %ld", (long)pid);
		ck_assert_msg(strstr(r.err, out) != NULL, "%s", r.err);
		run_free(&r);
	}

	daemon_config_file(conf, "debug");
	ck_assert_int_eq(kill(pid, SIGHUP), 0);
	msg = notify_recv(fd, 10000);
	ck_assert_str_eq(msg, "RELOADING=1");
	free(msg);
	msg = notify_recv(fd, 10000);
	ck_assert_str_eq(msg, "READY=1");
	free(msg);

	ck_assert_int_eq(kill(pid, SIGTERM), 0);
	msg = notify_recv(fd, 10000);
	ck_assert_str_eq(msg, "STOPPING=1");
	free(msg);
	r = ashesd_wait(pid);
	ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
	ck_assert_msg(strstr(r.err, "ashesd: notice: SIGHUP: reloading") != NULL, "%s", r.err);
	ck_assert_ptr_nonnull(strstr(r.err, "ashesd: notice: configuration reloaded\n"));
	ck_assert_ptr_nonnull(strstr(r.err, "ashesd: notice: ashesd stopped\n"));
	ck_assert_msg(access(pidf, F_OK) < 0, "pid file left behind");
	run_free(&r);
	close(fd);
}
END_TEST

/* Exited: no such process, or a zombie nobody reaps (the daemon's parent
 * is whatever adopts orphans here). */
static bool process_gone(pid_t pid)
{
	char path[64], *stat;
	const char *p;
	bool zombie;

	if (kill(pid, 0) < 0)
		return true;
	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	stat = daemon_test_read(path);
	p = strrchr(stat, ')');
	zombie = p != NULL && p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X');
	free(stat);
	return zombie;
}

/* --daemon: the parent returns once the daemon is up; pid file; stop. */
START_TEST(test_daemon_mode)
{
	char conf[300], pidf[300];
	const char *args[] = { "--daemon", "-c", conf, "--pid-file", pidf, NULL };
	struct run r;
	pid_t pid;

	snprintf(conf, sizeof(conf), "%s/ashesd.conf", tmpdir);
	snprintf(pidf, sizeof(pidf), "%s/ashesd.pid", tmpdir);
	daemon_config_file(conf, "info");
	r = ashesd_run(args);
	ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
	run_free(&r);
	ck_assert_int_eq(pidfile_read(pidf, &pid), 0);
	ck_assert_int_eq(kill(pid, 0), 0);

	/* A second daemon fails in the foreground, with the reason. */
	r = ashesd_run(args);
	ck_assert_int_eq(r.status, 1);
	ck_assert_msg(strstr(r.err, "already running as pid") != NULL, "%s", r.err);
	run_free(&r);

	ck_assert_int_eq(kill(pid, SIGTERM), 0);
	for (int i = 0; i < 500 && !process_gone(pid); i++)
		usleep(10000);
	ck_assert_msg(process_gone(pid), "daemon did not stop");
	ck_assert_msg(access(pidf, F_OK) < 0, "pid file left behind");

	/* An unwritable pid file: the parent reports it and fails. */
	snprintf(pidf, sizeof(pidf), "/nonexistent/ashesd.pid");
	r = ashesd_run(args);
	ck_assert_int_eq(r.status, 1);
	ck_assert_msg(strstr(r.err, "cannot create pid file /nonexistent/ashesd.pid") != NULL,
		      "%s", r.err);
	run_free(&r);
}
END_TEST

/* ------------------------------------------------------------- systemd */

static bool have_program(const char *name)
{
	char cmd[200];

	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", name);
	return system(cmd) == 0;
}

START_TEST(test_systemd_unit)
{
	static const char *const directives[] = {
		"\nType=notify\n", "\nUser=ashesd\n", "\nProtectSystem=strict\n",
		"\nReadWritePaths=/var/lib/ashesd\n", "\nNoNewPrivileges=yes\n",
		"\nPrivateTmp=yes\n", "\nProtectHome=yes\n", "\nPrivateDevices=yes\n",
		"\nProtectKernelTunables=yes\n", "\nProtectKernelModules=yes\n",
		"\nRestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX\n",
		"\nSystemCallFilter=@system-service\n", "\nCapabilityBoundingSet=\n",
		"\nRestart=on-failure\n", "\nExecReload=/bin/kill -HUP $MAINPID\n",
		"\nExecStart=/usr/sbin/ashesd --foreground -c /etc/ashesd/ashesd.conf\n",
	};
	const char *src = getenv("ASHES_SRCDIR");
	char path[1024], cmd[4096];
	char *unit;

	ck_assert_ptr_nonnull(src);
	snprintf(path, sizeof(path), "%s/systemd/ashesd.service", src);
	unit = daemon_test_read(path);
	for (size_t i = 0; i < sizeof(directives) / sizeof(directives[0]); i++)
		ck_assert_msg(strstr(unit, directives[i]) != NULL, "unit lacks %s", directives[i]);
	free(unit);

	if (!have_program("systemd-analyze")) {
		fprintf(stderr, "test_systemd_unit: no systemd-analyze, unit not verified\n");
		return;
	}
	/* verify wants the binary and the Documentation= man pages to exist */
	snprintf(cmd, sizeof(cmd),
		 "set -e; t='%s'; mkdir -p \"$t/man/man8\" \"$t/man/man5\"; "
		 "cp '%s/man/ashesd.8' \"$t/man/man8/\"; cp '%s/man/ashesd.conf.5' \"$t/man/man5/\"; "
		 "sed 's|/usr/sbin/ashesd|%s|' '%s' > \"$t/ashesd.service\"; "
		 "MANPATH=\"$t/man\" systemd-analyze verify \"$t/ashesd.service\" > \"$t/verify.out\" 2>&1; "
		 "test ! -s \"$t/verify.out\"",
		 tmpdir, src, src, ashesd_path(), path);
	if (system(cmd) != 0) {
		char out[300], *text;

		snprintf(out, sizeof(out), "%s/verify.out", tmpdir);
		text = daemon_test_read(out);
		ck_abort_msg("systemd-analyze verify: %s", text);
	}
}
END_TEST

START_TEST(test_systemd_sysusers_tmpfiles)
{
	const char *src = getenv("ASHES_SRCDIR");
	char cmd[2048], path[400];
	struct stat st;
	char *passwd;

	if (!have_program("systemd-sysusers") || !have_program("systemd-tmpfiles")) {
		fprintf(stderr, "test_systemd_sysusers_tmpfiles: no systemd tools, skipped\n");
		return;
	}
	snprintf(cmd, sizeof(cmd),
		 "set -e; mkdir -p '%s/root/etc'; "
		 "systemd-sysusers --root='%s/root' '%s/systemd/ashesd.sysusers' >/dev/null 2>&1; "
		 "systemd-tmpfiles --root='%s/root' --create '%s/systemd/ashesd.tmpfiles'",
		 tmpdir, tmpdir, src, tmpdir, src);
	ck_assert_int_eq(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/root/etc/passwd", tmpdir);
	passwd = daemon_test_read(path);
	ck_assert_msg(strstr(passwd, "ashesd:x:") != NULL &&
		      strstr(passwd, ":/var/lib/ashesd:/usr/sbin/nologin\n") != NULL, "%s", passwd);
	free(passwd);
	snprintf(path, sizeof(path), "%s/root/var/lib/ashesd", tmpdir);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_uint_eq(st.st_mode & 07777, 0750);
	ck_assert_uint_ne(st.st_uid, 0);
	snprintf(path, sizeof(path), "%s/root/var/lib/ashesd/gnupg", tmpdir);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_uint_eq(st.st_mode & 07777, 0700);
	snprintf(path, sizeof(path), "%s/root/etc/ashesd", tmpdir);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_uint_eq(st.st_mode & 07777, 0750);
	ck_assert_uint_eq(st.st_uid, 0);
	ck_assert_uint_ne(st.st_gid, 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("daemon");
	TCase *tc_log = tcase_create("log");
	TCase *tc_pid = tcase_create("pidfile");
	TCase *tc_proc = tcase_create("process");
	TCase *tc_bin = tcase_create("ashesd");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc_log, daemon_test_setup, daemon_test_teardown);
	tcase_add_test(tc_log, test_log_levels);
	tcase_add_test(tc_log, test_log_journal_prefixes);
	tcase_add_test(tc_log, test_log_masks_secrets);
	tcase_add_test(tc_log, test_log_masks_config_passwords);
	tcase_add_test(tc_log, test_log_names);
	suite_add_tcase(s, tc_log);

	tcase_add_checked_fixture(tc_pid, daemon_test_setup, daemon_test_teardown);
	tcase_add_test(tc_pid, test_pidfile_fresh_and_remove);
	tcase_add_test(tc_pid, test_pidfile_live_refused);
	tcase_add_test(tc_pid, test_pidfile_stale_reclaimed);
	suite_add_tcase(s, tc_pid);

	tcase_add_checked_fixture(tc_proc, daemon_test_setup, daemon_test_teardown);
	tcase_add_test(tc_proc, test_notify);
	tcase_add_test(tc_proc, test_signals_and_reload);
	suite_add_tcase(s, tc_proc);

	tcase_add_checked_fixture(tc_bin, daemon_test_setup, daemon_test_teardown);
	tcase_add_test(tc_bin, test_check_config_example);
	tcase_add_test(tc_bin, test_check_config_broken);
	tcase_add_test(tc_bin, test_command_line);
	tcase_add_test(tc_bin, test_once_with_maildir_override);
	tcase_add_test(tc_bin, test_foreground_lifecycle);
	tcase_add_test(tc_bin, test_daemon_mode);
	suite_add_tcase(s, tc_bin);

	{
		TCase *tc_sd = tcase_create("systemd");

		tcase_add_checked_fixture(tc_sd, daemon_test_setup, daemon_test_teardown);
		tcase_add_test(tc_sd, test_systemd_unit);
		tcase_add_test(tc_sd, test_systemd_sysusers_tmpfiles);
		suite_add_tcase(s, tc_sd);
	}

	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed != 0;
}
