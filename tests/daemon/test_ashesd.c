/* test_ashesd.c -- the real ashesd binary: --check-config exit codes,
 * the command line, --once, readiness, SIGHUP and SIGTERM under a fake
 * systemd, --daemon; and the systemd unit, sysusers and tmpfiles files.
 * (ashesd's parts in process: test_daemon.c.) */
#include <config.h>

#include <check.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "daemon/pidfile.h"

#include "daemon_test.h"
#include "notify_test.h"
#include "../check_run.h"

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
		"broken.conf:13: [game] clock: bad value \"blitz\": unknown time "
		"control; expected none, days:N (N 1..14), fischer:Ih+Jh or "
		"fischer:Ih+Jh/Kh",
		"broken.conf:14: unknown section [colours]\n",
		"broken.conf:17: unknown key \"challenge_rang\" in [ladder club]\n",
		"broken.conf:5: [source] maildir: /nonexistent/ashes-maildir: No such file or directory\n",
		"ashesd: 7 errors in the configuration\n",
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
	ck_assert_ptr_nonnull(strstr(r.err, "ashesd: 7 errors in the configuration\n"));
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
	/* One argument: the exit status, and what stdout (or, when err,
	 * stderr) holds -- exactly when exact. */
	static const struct {
		const char *arg;
		int status;
		bool err, exact;
		const char *want, *also;
	} cases[] = {
		{ "--help", 0, false, false, "--check-config", "--maildir" },
		{ "--version", 0, false, true, "ashesd " PACKAGE_VERSION "\n",
		  NULL },
		{ "--frobnicate", 2, true, false, "Usage: ashesd", NULL },
		{ "extra-argument", 2, true, false,
		  "unexpected argument \"extra-argument\"", NULL },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *args[] = { cases[i].arg, NULL };
		struct run r = ashesd_run(args);
		const char *got = cases[i].err ? r.err : r.out;

		ck_assert_int_eq(r.status, cases[i].status);
		if (cases[i].exact)
			ck_assert_str_eq(got, cases[i].want);
		else
			ck_assert_ptr_nonnull(strstr(got, cases[i].want));
		if (cases[i].also != NULL)
			ck_assert_ptr_nonnull(strstr(got, cases[i].also));
		run_free(&r);
	}
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

/* The test clock (ASHESD_TEST_CLOCK_OFFSET_FILE): the daemon's "now" is
 * moved by the seconds in the file -- what it records a mail at shows it
 * -- and a garbled file counts as 0, said once. */
START_TEST(test_clock_offset_hook)
{
	char conf[300], maildir[300], offset[300], cmd[1200], day[2][16];
	const char *args[] = { "--once", "-c", conf, "--maildir", maildir, NULL };
	const time_t moved = 400 * 86400;
	time_t t[2];
	struct run r;
	char *list;

	snprintf(conf, sizeof(conf), "%s/ashesd.conf", tmpdir);
	snprintf(maildir, sizeof(maildir), "%s/mail", tmpdir);
	snprintf(offset, sizeof(offset), "%s/offset", tmpdir);
	ck_assert_int_eq(mkdir(maildir, 0700), 0);
	snprintf(cmd, sizeof(cmd),
		 "[smtp]\nfrom = ashes@example.org\n[database]\npath = %s/ashes.db\n"
		 "[gpg]\nhome = %s/gnupg\n", tmpdir, tmpdir);
	daemon_test_write(conf, cmd, 0644);
	snprintf(cmd, sizeof(cmd), "%s/a.eml", maildir);
	daemon_test_write(cmd, "From: someone@example.net\nTo: ashes@example.org\n"
			  "Subject: hello\nMessage-ID: <clock-hook@example.net>\n"
			  "\nhelp\n", 0644);
	daemon_test_write(offset, "+34560000\n", 0644);
	setenv("ASHESD_TEST_CLOCK_OFFSET_FILE", offset, 1);
	t[0] = time(NULL) + moved;
	r = ashesd_run(args);
	t[1] = time(NULL) + moved;
	ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
	ck_assert_msg(strstr(r.err, "test hook: the clock is moved by the "
			     "seconds in ") != NULL, "%s", r.err);
	ck_assert_ptr_null(strstr(r.err, "warning: test hook"));
	run_free(&r);
	for (int i = 0; i < 2; i++) {
		struct tm tm;

		gmtime_r(&t[i], &tm);
		strftime(day[i], sizeof(day[i]), "%Y-%m-%d", &tm);
	}
	snprintf(cmd, sizeof(cmd), "'%s/ashes' inbound list --db '%s/ashes.db' "
		 "> '%s/list' 2>&1", getenv("ASHES_BUILDDIR"), tmpdir, tmpdir);
	ck_assert_int_eq(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "%s/list", tmpdir);
	list = daemon_test_read(cmd);
	/* Recorded 400 days from today (the day may turn meanwhile). */
	ck_assert_msg(strstr(list, day[0]) != NULL || strstr(list, day[1]) != NULL,
		      "no %s in:\n%s", day[0], list);
	ck_assert_ptr_nonnull(strstr(list, "someone@example.net"));
	free(list);

	/* Garbled: the real time, and one warning however often it is read. */
	daemon_test_write(offset, "soon\n", 0644);
	r = ashesd_run(args);
	ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
	{
		const char *w = strstr(r.err, "warning: test hook: ");

		ck_assert_msg(w != NULL && strstr(w, "not a whole number of seconds; "
						  "the clock is not moved") != NULL,
			      "%s", r.err);
		ck_assert_msg(strstr(w + 1, "warning: test hook: ") == NULL, "%s", r.err);
	}
	run_free(&r);
	unsetenv("ASHESD_TEST_CLOCK_OFFSET_FILE");
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

#ifdef ASHES_TEST_HOOKS
/* Under systemd's watchdog (WATCHDOG_USEC): WATCHDOG=1 comes while the
 * loop turns -- the loop cuts its wait for mail to a third of the
 * interval, so an idle daemon pings too -- and stops coming once the
 * loop hangs (the test hook ASHES_TEST_HANG_ON, on a mail), though the
 * process and its other threads live on: the pings come from the loop's
 * turns, not from a timer. */
START_TEST(test_watchdog)
{
	char conf[300], sock[300], mail[300];
	const char *args[] = { "--foreground", "-c", conf, NULL };
	struct run r;
	char *msg;
	pid_t pid;
	int fd, pings = 0, after = 0;
	time_t t0;
	bool quiet = false;

	snprintf(conf, sizeof(conf), "%s/ashesd.conf", tmpdir);
	snprintf(sock, sizeof(sock), "%s/notify", tmpdir);
	daemon_config_file(conf, "info");
	fd = notify_listen(sock, false);
	setenv("NOTIFY_SOCKET", sock, 1);
	/* 1.5 s: a ping at least every second (the shortest wait). */
	setenv("WATCHDOG_USEC", "1500000", 1);
	setenv("ASHES_TEST_HANG_ON", "HANG-THE-LOOP", 1);
	pid = ashesd_start(args);
	unsetenv("NOTIFY_SOCKET");
	unsetenv("WATCHDOG_USEC");
	unsetenv("ASHES_TEST_HANG_ON");

	msg = notify_recv(fd, 10000);
	ck_assert_str_eq(msg, "READY=1");
	free(msg);
	/* Idle: about one a second. */
	t0 = time(NULL);
	while (pings < 3 && time(NULL) - t0 < 10) {
		msg = notify_recv(fd, 3000);
		pings += strcmp(msg, "WATCHDOG=1") == 0;
		free(msg);
	}
	ck_assert_int_eq(pings, 3);

	snprintf(mail, sizeof(mail), "%s/hang.eml", tmpdir);
	daemon_test_write(mail, "From: a@example.org\nSubject: x\n\n"
			  "HANG-THE-LOOP\n", 0644);
	/* The loop takes it within a turn or two, then falls silent: three
	 * seconds without a ping, twice the interval. */
	t0 = time(NULL);
	while (!quiet && time(NULL) - t0 < 15) {
		msg = notify_recv(fd, 3000);
		quiet = msg[0] == '\0';
		after += strcmp(msg, "WATCHDOG=1") == 0;
		free(msg);
	}
	ck_assert_msg(quiet, "the pings went on (%d after the mail)", after);
	ck_assert_int_le(after, 3);
	ck_assert_int_eq(kill(pid, 0), 0); /* alive, only stuck */
	msg = notify_recv(fd, 2000);
	ck_assert_str_eq(msg, "");
	free(msg);
	ck_assert_int_eq(kill(pid, SIGKILL), 0);
	r = ashesd_wait(pid);
	ck_assert_msg(strstr(r.err, "test hook: the loop hangs on this mail") != NULL,
		      "%s", r.err);
	ck_assert_msg(strstr(r.err, "systemd's watchdog: a ping at the end of "
			     "each turn, within 1500 ms") != NULL, "%s", r.err);
	run_free(&r);
	close(fd);
}
END_TEST
#endif

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
		"\nType=notify\n", "\nWatchdogSec=5min\n", "\nUser=ashesd\n", "\nProtectSystem=strict\n",
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
	Suite *s = suite_create("ashesd");
	TCase *tc_bin = tcase_create("ashesd");

	tcase_add_checked_fixture(tc_bin, daemon_test_setup, daemon_test_teardown);
	tcase_add_test(tc_bin, test_check_config_example);
	tcase_add_test(tc_bin, test_check_config_broken);
	tcase_add_test(tc_bin, test_command_line);
	tcase_add_test(tc_bin, test_once_with_maildir_override);
	tcase_add_test(tc_bin, test_clock_offset_hook);
	tcase_add_test(tc_bin, test_foreground_lifecycle);
	tcase_add_test(tc_bin, test_daemon_mode);
#ifdef ASHES_TEST_HOOKS
	tcase_add_test(tc_bin, test_watchdog);
#endif
	suite_add_tcase(s, tc_bin);

	{
		TCase *tc_sd = tcase_create("systemd");

		tcase_add_checked_fixture(tc_sd, daemon_test_setup, daemon_test_teardown);
		tcase_add_test(tc_sd, test_systemd_unit);
		tcase_add_test(tc_sd, test_systemd_sysusers_tmpfiles);
		suite_add_tcase(s, tc_sd);
	}

	return test_run(s);
}
