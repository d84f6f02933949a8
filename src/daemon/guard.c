/* guard.c -- the mail loop's poison-mail guard; see guard.h. */
#include <config.h>

#include "daemon/guard.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/log.h"
#include "server/server.h"

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
	FILE *f = fopen(g->path, "w");
	size_t i;

	if (f == NULL) {
		log_warning("%s: %s (a crashing mail is not counted)", g->path,
			    strerror(errno));
		return;
	}
	fprintf(f, "%u", uidvalidity);
	for (i = 0; i < n; i++)
		fprintf(f, " %u", uids[i]);
	fputc('\n', f);
	if (fclose(f) != 0)
		log_warning("%s: %s", g->path, strerror(errno));
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
