/* guard.c -- the mail loop's poison-mail guard; see guard.h. */
#include <config.h>

#include "daemon/guard.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/log.h"
#include "server/server.h"
#include "util/buf.h"

void guard_init(struct guard *g, const char *db_path, struct server *server,
		const char *source)
{
	g->server = server;
	snprintf(g->source, sizeof(g->source), "%s", source);
	snprintf(g->path, sizeof(g->path), "%s.inflight", db_path);
}

void guard_inflight_set(struct guard *g, uint32_t uidvalidity,
			const uint32_t *uids, size_t n)
{
	struct buf line = BUF_INIT;
	size_t i;
	ssize_t w;
	int fd = open(g->path, O_WRONLY | O_CREAT | O_CLOEXEC, 0666);

	if (fd < 0) {
		log_warning("%s: %s (a crashing mail is not counted)", g->path,
			    strerror(errno));
		return;
	}
	buf_printf(&line, "%u", uidvalidity);
	for (i = 0; i < n; i++)
		buf_printf(&line, " %u", uids[i]);
	buf_putc(&line, '\n');
	/* One write over the old line, then the cut: a crash in another
	 * thread (the mails are read two at a time) finds the old list or
	 * the new one, never the empty file that truncating first would
	 * leave for a moment.  A longer old list leaves a tail behind the
	 * new line until the cut; guard_recover reads the first line only. */
	w = pwrite(fd, line.data, line.len, 0);
	if (w < 0 || (size_t)w != line.len ||
	    ftruncate(fd, (off_t)line.len) < 0)
		log_warning("%s: %s", g->path,
			    w < 0 || (size_t)w == line.len ? strerror(errno) :
			    "short write");
	if (close(fd) < 0)
		log_warning("%s: %s", g->path, strerror(errno));
	buf_free(&line);
}

void guard_inflight_clear(struct guard *g)
{
	if (unlink(g->path) < 0 && errno != ENOENT)
		log_warning("%s: %s", g->path, strerror(errno));
}

void guard_recover(struct guard *g, int64_t now)
{
	/* A batch names at most a few dozen UIDs: one line is plenty. */
	char line[4096], *p, *end;
	unsigned long uidvalidity, uid;
	FILE *f = fopen(g->path, "r");
	const char *e;

	if (f == NULL)
		return;
	if (fgets(line, sizeof(line), f) == NULL) {
		fclose(f);
		guard_inflight_clear(g);
		return;
	}
	fclose(f);
	uidvalidity = strtoul(line, &end, 10);
	for (p = end; (uid = strtoul(p, &end, 10)) != 0 && end != p; p = end) {
		long n = 0;

		if (server_attempt_count(g->server, g->source, (uint32_t)uidvalidity,
				      (uint32_t)uid,
				      "the daemon died while handling it", now,
				      &n, &e) < 0) {
			log_error("uid %lu: counting a crash: %s", uid, e);
			return; /* keep the file: counted at the next start */
		}
		log_warning("uid %lu was in hand when the daemon stopped "
			    "(attempt %ld of %d)", uid, n, GUARD_MAX_ATTEMPTS);
	}
	guard_inflight_clear(g);
}

int guard_attempts(struct guard *g, uint32_t uidvalidity, uint32_t uid,
		   long *attempts_r, char **why_r)
{
	const char *e;

	if (server_attempts(g->server, g->source, uidvalidity, uid,
			      attempts_r, why_r, &e) < 0) {
		log_error("uid %u: reading its attempts: %s", uid, e);
		return -1;
	}
	return 0;
}

void guard_count_failure(struct guard *g, uint32_t uidvalidity, uint32_t uid,
			 const char *error, int64_t now)
{
	const char *e;
	long n = 0;

	if (server_attempt_count(g->server, g->source, uidvalidity, uid, error, now,
			      &n, &e) < 0)
		log_error("uid %u: counting the attempt: %s", uid, e);
	else
		log_warning("uid %u: attempt %ld of %d failed: %s", uid, n,
			    GUARD_MAX_ATTEMPTS, error ? error : "?");
}

void guard_forget(struct guard *g, uint32_t uidvalidity, uint32_t uid)
{
	const char *e;

	if (server_attempts_forget(g->server, g->source, uidvalidity, uid, &e) < 0)
		log_warning("uid %u: %s", uid, e);
}
