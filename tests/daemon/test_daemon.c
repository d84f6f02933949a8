/* test_daemon.c -- ashesd's process side, in process: log levels,
 * targets and secret masking; the pid file (stale pids reclaimed, live
 * ones refused); the clock with its test offset, and the loop's wait cut
 * by the next deadline; the self-pipe signals and reload; sd_notify.  The
 * real ashesd binary is test_ashesd.c's. */
#include <config.h>

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "config/club_config.h"
#include "daemon/daemon.h"
#include "config/log.h"
#include "daemon/pidfile.h"
#include "daemon/timing.h"
#include "util/buf.h"
#include "util/escape.h"

#include "daemon_test.h"
#include "notify_test.h"
#include "../check_run.h"

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

/* issue 22, case 13: a refused signed line holding ESC[2K ESC[1G and a
 * fake "ashesd: error:" line, a Message-ID with escapes: the log shows
 * them escaped, on the one line of their record. */
START_TEST(test_log_escapes_controls)
{
	int fd = log_capture_open();
	char *text;

	unsetenv("JOURNAL_STREAM");
	log_open(LOG_TARGET_STDERR, LOG_LEVEL_INFO, "ashesd", LOG_DAEMON);
	log_notice("refused: %s", "e2-e4\x1b[2K\x1b[1G\rashesd: error: "
		   "database corrupt\nashesd: error: fake");
	log_info("mail <%s>", "a\xc2\x9b" "31mred\x9b\x7f@x");
	text = log_capture_text(fd);
	ck_assert_str_eq(text, "ashesd: notice: refused: e2-e4\\x1b[2K"
			 "\\x1b[1G\\x0dashesd: error: database corrupt"
			 "\\x0aashesd: error: fake\n"
			 "ashesd: info: mail <a\\u009b31mred\\x9b\\x7f@x>\n");
	free(text);
}
END_TEST

/* The escaper itself: C0, DEL, C1 (UTF-8 and raw), bidi and zero-width
 * characters, bad UTF-8; what is kept. */
START_TEST(test_escape)
{
	struct buf b = BUF_INIT;
	const char in[] = "ok \xc3\xa9 \xe2\x80\xae" "evil\xe2\x80\x8b "
			  "\t\n\x01 \xed\xa0\x80 \xc0\xaf \xf0\x9f\x99\x82";
	char *s;

	escape_append(&b, in, sizeof(in) - 1, 0);
	ck_assert_str_eq(buf_str(&b), "ok \xc3\xa9 \\u202eevil\\u200b "
			 "\\x09\\x0a\\x01 \\xed\\xa0\\x80 \\xc0\\xaf "
			 "\xf0\x9f\x99\x82");
	buf_reset(&b);
	escape_append(&b, "a\tb\nc\x1b", 6, ESCAPE_KEEP_LINES);
	ck_assert_str_eq(buf_str(&b), "a\tb\nc\\x1b");
	buf_free(&b);
	s = escape_str(NULL);
	ck_assert_str_eq(s, "-");
	free(s);
	s = escape_str("\xe2\x81\xa6x\xe2\x81\xa9\xef\xbb\xbf");
	ck_assert_str_eq(s, "\\u2066x\\u2069\\ufeff");
	free(s);
}
END_TEST

START_TEST(test_log_levels)
{
	int fd = log_capture_open();
	char *text;

	unsetenv("JOURNAL_STREAM");
	log_open(LOG_TARGET_STDERR, LOG_LEVEL_WARNING, "ashesd", LOG_DAEMON);
	log_debug("debug %d", 1);
	log_info("info %d", 2);
	log_notice("notice %d", 3);
	log_warning("warning %d", 4);
	log_error("error %s", "five");
	log_open(LOG_TARGET_STDERR, LOG_LEVEL_DEBUG, "ashesd", LOG_DAEMON);
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
	ck_assert_str_eq(text, "<7>d\n<6>i\n<5>n\n<4>w\n<3>two\\x0alines\n");
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

/* The pid file at path holds pid. */
static void pidfile_holds(const char *path, pid_t pid)
{
	pid_t got;

	ck_assert_int_eq(pidfile_read(path, &got), 0);
	ck_assert_int_eq(got, pid);
}

/* A pid file at path naming pid. */
static void write_pid(const char *path, pid_t pid)
{
	char line[32];

	snprintf(line, sizeof(line), "%ld\n", (long)pid);
	daemon_test_write(path, line, 0644);
}

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
	pidfile_holds(path, getpid());
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
	pid_t child;
	int status;

	/* A live process of our own name (a forked copy of this test). */
	child = fork();
	ck_assert_int_ge(child, 0);
	if (child == 0) {
		pause();
		_exit(0);
	}
	snprintf(path, sizeof(path), "%s/ashesd.pid", tmpdir);
	write_pid(path, child);
	ck_assert_int_lt(pidfile_create(path, getpid(), &error), 0);
	snprintf(line, sizeof(line), "already running as pid %ld", (long)child);
	ck_assert_msg(strstr(error, line) != NULL, "%s", error);
	pidfile_holds(path, child); /* untouched */
	kill(child, SIGKILL);
	waitpid(child, &status, 0);
	/* Now it is stale. */
	ck_assert_int_eq(pidfile_create(path, getpid(), &error), 0);
	pidfile_holds(path, getpid());
}
END_TEST

START_TEST(test_pidfile_stale_reclaimed)
{
	char path[300];
	const char *error = NULL;
	pid_t child;
	int status;

	snprintf(path, sizeof(path), "%s/ashesd.pid", tmpdir);
	/* A dead pid. */
	child = fork();
	ck_assert_int_ge(child, 0);
	if (child == 0)
		_exit(0);
	waitpid(child, &status, 0);
	write_pid(path, child);
	ck_assert_msg(pidfile_create(path, getpid(), &error) == 0, "%s", error);
	pidfile_holds(path, getpid());

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
	write_pid(path, child);
	ck_assert_msg(pidfile_create(path, getpid(), &error) == 0, "%s", error);
	pidfile_holds(path, getpid());
	kill(child, SIGKILL);
	waitpid(child, &status, 0);

	/* A folder we cannot create in: a clear error. */
	ck_assert_int_lt(pidfile_create("/nonexistent/dir/ashesd.pid", getpid(), &error), 0);
	ck_assert_ptr_nonnull(strstr(error, "cannot create pid file /nonexistent/dir/ashesd.pid"));
}
END_TEST

/* With NOTIFY_SOCKET naming socket (abstract: in the abstract
 * namespace), daemon_notify(msg) sends msg there. */
static void notify_arrives(const char *socket, bool abstract, const char *msg)
{
	int fd = notify_listen(socket, abstract);
	char *got;

	setenv("NOTIFY_SOCKET", socket, 1);
	ck_assert_int_eq(daemon_notify(msg), 1);
	got = notify_recv(fd, 1000);
	ck_assert_str_eq(got, msg);
	free(got);
	close(fd);
}

/* -------------------------------------------------------------- notify */

/* WATCHDOG_USEC is ours unless WATCHDOG_PID names another process. */
START_TEST(test_watchdog_env)
{
	char pid[32];

	unsetenv("WATCHDOG_USEC");
	unsetenv("WATCHDOG_PID");
	ck_assert_uint_eq(daemon_watchdog_ms(), 0);
	setenv("WATCHDOG_USEC", "300000000", 1);
	ck_assert_uint_eq(daemon_watchdog_ms(), 300000);
	snprintf(pid, sizeof(pid), "%ld", (long)getpid());
	setenv("WATCHDOG_PID", pid, 1);
	ck_assert_uint_eq(daemon_watchdog_ms(), 300000);
	snprintf(pid, sizeof(pid), "%ld", (long)getpid() + 1);
	setenv("WATCHDOG_PID", pid, 1);
	ck_assert_uint_eq(daemon_watchdog_ms(), 0);
	unsetenv("WATCHDOG_PID");
	setenv("WATCHDOG_USEC", "5min", 1);
	ck_assert_uint_eq(daemon_watchdog_ms(), 0);
	setenv("WATCHDOG_USEC", "999", 1);
	ck_assert_uint_eq(daemon_watchdog_ms(), 0);
	unsetenv("WATCHDOG_USEC");
}
END_TEST

START_TEST(test_notify)
{
	char path[300], name[64];

	unsetenv("NOTIFY_SOCKET");
	ck_assert_int_eq(daemon_notify("READY=1"), 0);

	snprintf(path, sizeof(path), "%s/notify", tmpdir);
	notify_arrives(path, false, "READY=1");

	snprintf(name, sizeof(name), "@ashesd-test-%ld", (long)getpid());
	notify_arrives(name, true, "STATUS=abstract");

	setenv("NOTIFY_SOCKET", "relative/path", 1);
	ck_assert_int_lt(daemon_notify("READY=1"), 0);
	unsetenv("NOTIFY_SOCKET");
}
END_TEST

/* ------------------------------------------------------ signals, reload */

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

	memset(&d, 0, sizeof(d));
	snprintf(path, sizeof(path), "%s/ashesd.conf", tmpdir);
	daemon_config_file(path, "info");
	d.config_path = path;
	ck_assert_int_eq(config_load(path, NULL, &d.cfg, &errors), 0);
	ck_assert_int_eq(daemon_signals_init(&error), 0);
	logfd = log_capture_open();
	daemon_log_open(&d);

	/* Nothing pending. */
	ck_assert(!daemon_check_signals(&d));

	/* SIGHUP runs the hook (what wakes the loop's wait), and reloads;
	 * the reload forgets a password the new config no longer has. */
	log_add_secret("old-password");
	daemon_config_file(path, "debug");
	daemon_set_signal_hook(count_signal);
	raise(SIGHUP);
	ck_assert_int_eq(signal_hook_calls, 1);
	daemon_set_signal_hook(NULL);
	ck_assert(!daemon_check_signals(&d));
	ck_assert_uint_eq(d.reloads, 1);
	ck_assert_int_eq(d.cfg.log.level, LOG_LEVEL_DEBUG);
	log_debug("debug after reload, old-password");

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

	/* SIGTERM: stop, and it stays asked. */
	raise(SIGTERM);
	ck_assert(daemon_check_signals(&d));
	ck_assert(daemon_check_signals(&d));

	log = log_capture_text(logfd);
	ck_assert_msg(strstr(log, "ashesd: error: ") != NULL &&
		      strstr(log, "ashesd.conf:3: unknown key \"bogus\" in [smtp]") != NULL,
		      "%s", log);
	ck_assert_msg(strstr(log, "reload failed: keeping the previous configuration") != NULL, "%s", log);
	ck_assert_msg(strstr(log, "reload failed: templates did not load; keeping the previous configuration") != NULL,
		      "%s", log);
	ck_assert_msg(strstr(log, "configuration reloaded") != NULL, "%s", log);
	ck_assert_msg(strstr(log, "ashesd: debug: debug after reload, "
			      "old-password") != NULL, "%s", log);
	free(log);
	config_free(&d.cfg);
	log_close();
}
END_TEST

/* ---------------------------------------------------------------- timing */

/* The test clock is a test hook (daemon/test_hooks.h): only in a build
 * configured with --enable-test-hooks. */
#ifdef ASHES_TEST_HOOKS
/* The test clock: the offset file is named once, read at every call. */
START_TEST(test_timing_offset)
{
	char path[300], *log;
	int fd = log_capture_open();
	int64_t t;
	const char *p;

	unsetenv(TIMING_OFFSET_ENV);
	timing_init();
	t = timing_now();
	ck_assert(t >= (int64_t)time(NULL) - 1 && t <= (int64_t)time(NULL));

	snprintf(path, sizeof(path), "%s/offset", tmpdir);
	daemon_test_write(path, "3600\n", 0600);
	/* Named after start-up: not seen. */
	setenv(TIMING_OFFSET_ENV, path, 1);
	t = timing_now();
	ck_assert_int_le(t, (int64_t)time(NULL));
	timing_init();
	t = timing_now() - (int64_t)time(NULL);
	ck_assert(t == 3600 || t == 3599);
	/* Moved while running, either way; the name was read once. */
	unsetenv(TIMING_OFFSET_ENV);
	daemon_test_write(path, "-86400", 0600);
	t = timing_now() - (int64_t)time(NULL);
	ck_assert(t == -86400 || t == -86401);
	daemon_test_write(path, "  +120 \n", 0600);
	t = timing_now() - (int64_t)time(NULL);
	ck_assert(t == 120 || t == 119);
	/* Garbled or missing: 0, said once per trouble. */
	daemon_test_write(path, "12abc\n", 0600);
	for (int i = 0; i < 3; i++) {
		t = timing_now() - (int64_t)time(NULL);
		ck_assert(t == 0 || t == -1);
	}
	daemon_test_write(path, "99999999999999999999\n", 0600);
	t = timing_now() - (int64_t)time(NULL);
	ck_assert(t == 0 || t == -1);
	daemon_test_write(path, "60", 0600);
	t = timing_now() - (int64_t)time(NULL);
	ck_assert(t == 60 || t == 59);
	ck_assert_int_eq(unlink(path), 0);
	for (int i = 0; i < 2; i++) {
		t = timing_now() - (int64_t)time(NULL);
		ck_assert(t == 0 || t == -1);
	}
	log = log_capture_text(fd);
	ck_assert_msg(strstr(log, "ashesd: notice: test hook: the clock is moved "
			     "by the seconds in ") != NULL, "%s", log);
	p = strstr(log, "not a whole number of seconds; the clock is not moved");
	ck_assert_msg(p != NULL, "%s", log);
	ck_assert_msg(strstr(p + 1, "not a whole number") == NULL, "%s", log);
	p = strstr(log, "No such file or directory; the clock is not moved");
	ck_assert_msg(p != NULL, "%s", log);
	ck_assert_msg(strstr(p + 1, "No such file") == NULL, "%s", log);
	free(log);
}
END_TEST

/* A mail is charged at its receipt, moved like the clock, never later
 * than now. */
START_TEST(test_timing_received)
{
	char path[300];
	int64_t now, real;

	unsetenv(TIMING_OFFSET_ENV);
	timing_init();
	now = timing_now();
	ck_assert_int_eq(timing_received(0, now), 0);
	ck_assert_int_eq(timing_received(now - 100, now), now - 100);
	ck_assert_int_eq(timing_received(now + 100, now), now);

	snprintf(path, sizeof(path), "%s/offset", tmpdir);
	daemon_test_write(path, "86400\n", 0600);
	setenv(TIMING_OFFSET_ENV, path, 1);
	timing_init();
	real = (int64_t)time(NULL);
	now = timing_now();
	ck_assert_int_eq(timing_received(real - 100, now), real - 100 + 86400);
	ck_assert_int_eq(timing_received(real + 86400 * 2, now), now);
	ck_assert_int_eq(timing_received(0, now), 0);
	daemon_test_write(path, "-3153600000\n", 0600);
	now = timing_now();
	ck_assert_int_eq(timing_received(real, now), 0);
	unsetenv(TIMING_OFFSET_ENV);
}
END_TEST
#endif

/* The loop's wait is cut by the earliest deadline (a flag, the outbox). */
START_TEST(test_timing_wait)
{
	const int64_t now = 1796126400;
	int64_t due[3];

	ck_assert_uint_eq(timing_wait_ms(60000, now, NULL, 0), 60000);
	due[0] = 0;
	due[1] = 0;
	ck_assert_uint_eq(timing_wait_ms(60000, now, due, 2), 60000);
	due[0] = now + 5;
	ck_assert_uint_eq(timing_wait_ms(60000, now, due, 1), 5000);
	due[0] = now + 1;
	ck_assert_uint_eq(timing_wait_ms(60000, now, due, 1), 1000);
	/* Beyond the poll interval: the poll interval. */
	due[0] = now + 120;
	ck_assert_uint_eq(timing_wait_ms(60000, now, due, 1), 60000);
	due[0] = now + 60;
	ck_assert_uint_eq(timing_wait_ms(60000, now, due, 1), 60000);
	/* The earliest of them, wherever it is. */
	due[0] = now + 30;
	due[1] = now + 7;
	due[2] = now + 12;
	ck_assert_uint_eq(timing_wait_ms(60000, now, due, 3), 7000);
	due[0] = 0;
	ck_assert_uint_eq(timing_wait_ms(60000, now, due, 3), 7000);
	/* Come already: look again within a second. */
	due[1] = now;
	ck_assert_uint_eq(timing_wait_ms(60000, now, due, 3), 1000);
	due[1] = now - 3600;
	ck_assert_uint_eq(timing_wait_ms(60000, now, due, 3), 1000);
	ck_assert_uint_eq(timing_wait_ms(500, now, due, 3), 500);
	/* No overflow either way. */
	due[0] = INT64_MAX;
	ck_assert_uint_eq(timing_wait_ms(60000, now, due, 1), 60000);
	ck_assert_uint_eq(timing_wait_ms(1ull << 40, now, NULL, 0), 0x7fffffffu);
	due[0] = now + 86400 * 3650;
	ck_assert_uint_eq(timing_wait_ms(1ull << 40, now, due, 1), 0x7fffffffu);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("daemon");
	TCase *tc_log = tcase_create("log");
	TCase *tc_pid = tcase_create("pidfile");
	TCase *tc_proc = tcase_create("process");

	tcase_add_checked_fixture(tc_log, daemon_test_setup, daemon_test_teardown);
	tcase_add_test(tc_log, test_log_levels);
	tcase_add_test(tc_log, test_log_escapes_controls);
	tcase_add_test(tc_log, test_escape);
	tcase_add_test(tc_log, test_log_journal_prefixes);
	tcase_add_test(tc_log, test_log_masks_secrets);
	tcase_add_test(tc_log, test_log_masks_config_passwords);
	suite_add_tcase(s, tc_log);

	tcase_add_checked_fixture(tc_pid, daemon_test_setup, daemon_test_teardown);
	tcase_add_test(tc_pid, test_pidfile_fresh_and_remove);
	tcase_add_test(tc_pid, test_pidfile_live_refused);
	tcase_add_test(tc_pid, test_pidfile_stale_reclaimed);
	suite_add_tcase(s, tc_pid);

	{
		TCase *tc_timing = tcase_create("timing");

		tcase_add_checked_fixture(tc_timing, daemon_test_setup,
					  daemon_test_teardown);
#ifdef ASHES_TEST_HOOKS
		tcase_add_test(tc_timing, test_timing_offset);
		tcase_add_test(tc_timing, test_timing_received);
#endif
		tcase_add_test(tc_timing, test_timing_wait);
		suite_add_tcase(s, tc_timing);
	}

	tcase_add_checked_fixture(tc_proc, daemon_test_setup, daemon_test_teardown);
	tcase_add_test(tc_proc, test_notify);
	tcase_add_test(tc_proc, test_watchdog_env);
	tcase_add_test(tc_proc, test_signals_and_reload);
	suite_add_tcase(s, tc_proc);

	return test_run(s);
}
