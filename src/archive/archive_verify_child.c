/* archive_verify_child.c -- `ashes archive verify` run in a child
 * process (archive.h, archive_private.h): its temporary folder (the
 * unpacked archive, the throw-away keyring) is made here and removed on
 * every path, a signal's too -- the signal ends the child's process
 * group (gzip, gpg), the folder goes, then this process dies of it --
 * and what the child prints comes back through one writer that escapes
 * the archive's bytes. */
#include <config.h> /* autoconf's: _GNU_SOURCE (mkdtemp, pipe2) */
#include "archive/archive_private.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/escape.h"
#include "util/run.h"

/* Is s 40 or 64 hex digits, blanks aside? */
static bool verify_fingerprint_ok(const char *s)
{
	size_t n = 0;

	for (; *s != '\0'; s++) {
		if (*s == ' ')
			continue;
		if (!isxdigit((unsigned char)*s))
			return false;
		n++;
	}
	return n == 40 || n == 64;
}

/* ---- the temporary folder, removed on every path ------------------ */

/* What the child hands its parent. */
struct verify_result {
	int ret;
	struct archive_verdict v;
	char error[512];
	size_t text_len;     /* the output, which follows */
};

static volatile sig_atomic_t verify_signal;
static volatile pid_t verify_child;

static void verify_on_signal(int sig)
{
	verify_signal = sig;
	/* The child's group: gzip and gpg with it. */
	if (verify_child > 0)
		kill(-verify_child, sig);
}

/* Write all of len bytes, or give up. */
static void verify_write_all(int fd, const void *data, size_t len)
{
	const char *p = data;

	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		p += n;
		len -= (size_t)n;
	}
}

/* The child: check, and send the result and the output. */
static void verify_child_run(int fd, const char *path, const char *tmp,
			     const struct archive_verify_opts *opts)
{
	struct verify_result res;
	const char *error = NULL;
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	memset(&res, 0, sizeof(res));
	if (out == NULL) {
		res.ret = -1;
		snprintf(res.error, sizeof(res.error), "%s", strerror(errno));
	} else {
		res.ret = verify_in(path, tmp, opts, out, &res.v, &error);
		fclose(out);
		if (res.ret < 0)
			snprintf(res.error, sizeof(res.error), "%s",
				 error != NULL ? error : "failed");
		res.text_len = len;
	}
	verify_write_all(fd, &res, sizeof(res));
	if (text != NULL)
		verify_write_all(fd, text, len);
	_exit(0);
}

/* Read what the child sent: 0, or -1 when it sent nothing whole.  The
 * output quotes the archive (its record's tags, its mails' commands,
 * its file names): a stranger's bytes, so no control character of them
 * reaches out raw (util/escape.h). */
static int verify_read_result(int fd, struct verify_result *res, FILE *out)
{
	char chunk[8192];
	struct buf text = BUF_INIT, safe = BUF_INIT;
	size_t got = 0, left;
	int ret = -1;

	while (got < sizeof(*res)) {
		ssize_t n = read(fd, (char *)res + got, sizeof(*res) - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		got += (size_t)n;
	}
	for (left = res->text_len; left > 0;) {
		ssize_t n = read(fd, chunk, left < sizeof(chunk) ? left :
				 sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			goto out;
		buf_append(&text, chunk, (size_t)n);
		left -= (size_t)n;
	}
	ret = 0;
out:
	if (text.len > 0) {
		escape_append(&safe, text.data, text.len, ESCAPE_KEEP_LINES);
		fwrite(safe.data, 1, safe.len, out);
	}
	buf_free(&text);
	buf_free(&safe);
	return ret;
}

int archive_verify(const char *path, const struct archive_verify_opts *opts,
		   FILE *out, struct archive_verdict *v_r,
		   const char **error_r)
{
	static __thread char error[512];
	const char *base = getenv("TMPDIR");
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	struct sigaction sa, old[4];
	struct verify_result res;
	char tmp[4096];
	int fds[2], status, ret = -1, sig;
	pid_t pid;

	memset(v_r, 0, sizeof(*v_r));
	if (opts != NULL && opts->daemon_key != NULL &&
	    !verify_fingerprint_ok(opts->daemon_key)) {
		*error_r = "--daemon-key: not a whole fingerprint (40 or 64 "
			   "hex digits, as the club publishes it): a key id "
			   "names a key anyone can make";
		return -1;
	}
	snprintf(tmp, sizeof(tmp), "%s/ashes-verify-XXXXXX",
		 base != NULL && base[0] != '\0' ? base : "/tmp");
	if (mkdtemp(tmp) == NULL) {
		snprintf(error, sizeof(error), "%.300s: %s", tmp, strerror(errno));
		*error_r = error;
		return -1;
	}
	if (pipe2(fds, O_CLOEXEC) < 0) {
		snprintf(error, sizeof(error), "pipe: %s", strerror(errno));
		*error_r = error;
		archive_remove_tree(tmp);
		return -1;
	}
	/* A signal while the check runs (^C on a bomb) ends the child, and
	 * this process removes tmp before it goes the signal's way. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = verify_on_signal;
	sigemptyset(&sa.sa_mask);
	verify_signal = 0;
	verify_child = 0;
	for (size_t i = 0; i < 4; i++)
		sigaction(sigs[i], &sa, &old[i]);
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		(void)setpgid(0, 0);
		for (size_t i = 0; i < 4; i++)
			sigaction(sigs[i], &old[i], NULL);
		close(fds[0]);
		verify_child_run(fds[1], path, tmp, opts);
	}
	close(fds[1]);
	if (pid < 0) {
		snprintf(error, sizeof(error), "fork: %s", strerror(errno));
		*error_r = error;
	} else {
		(void)setpgid(pid, pid);
		verify_child = pid;
		if (verify_signal != 0)
			kill(-pid, verify_signal);
		memset(&res, 0, sizeof(res));
		if (verify_read_result(fds[0], &res, out) < 0) {
			char home[4200];
			char *argv[] = { "gpgconf", "--homedir", home,
					 "--kill", "all", NULL };

			snprintf(error, sizeof(error), "the check stopped "
				 "before its end");
			*error_r = error;
			/* The child's gpg-agent, if it started one. */
			snprintf(home, sizeof(home), "%s/gnupg", tmp);
			if (access(home, F_OK) == 0)
				(void)run_program(argv, NULL);
		} else {
			*v_r = res.v;
			ret = res.ret;
			if (ret < 0) {
				snprintf(error, sizeof(error), "%s",
					 res.error);
				*error_r = error;
			}
		}
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	}
	close(fds[0]);
	archive_remove_tree(tmp);
	verify_child = 0;
	for (size_t i = 0; i < 4; i++)
		sigaction(sigs[i], &old[i], NULL);
	if ((sig = verify_signal) != 0)
		raise(sig);
	return ret;
}
