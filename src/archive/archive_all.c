/* archive_all.c -- the archives of a whole club: `ashes archive export
 * --all DIR` (every game changed since the last run, as DIR/game-N.tar.gz,
 * with a state file of what was exported when), and `ashes archive prune`
 * (an ended game leaves the live database only once its archive is there
 * and verifies, and says what the database says). */
#include <config.h> /* autoconf's: _GNU_SOURCE (open_memstream) */
#include "archive/archive_private.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/xalloc.h"

static __thread char all_error[1024];

static int all_fail(const char **error_r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int all_fail(const char **error_r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(all_error, sizeof(all_error), fmt, ap);
	va_end(ap);
	*error_r = all_error;
	return -1;
}

/* Games a page: the store is read in pieces, not all at once. */
#define ALL_PAGE 256

/* One line of the state file: a game and what it was when exported: its
 * `updated`, its plies, the references of its history to mails, and its
 * clock events.  `updated` alone counts seconds, and two changes of one
 * second would look like one: every change an archive shows adds a ply,
 * a mail or a clock event. */
struct all_state {
	int64_t game, updated, ply, mails, events;
	/* 1: the public copy, 0: the players' own (archive_source); a line
	 * written before there was a public copy has no sixth number: its
	 * archive is the players' own, and made again as a public one. */
	int64_t public_copy;
};

struct all_states {
	struct all_state *items;
	size_t count, cap;
};

static struct all_state *all_find(struct all_states *s, int64_t game)
{
	for (size_t i = 0; i < s->count; i++)
		if (s->items[i].game == game)
			return &s->items[i];
	return NULL;
}

static void all_set(struct all_states *s, const struct all_state *now)
{
	struct all_state *e = all_find(s, now->game);

	if (e == NULL) {
		if (s->count == s->cap) {
			s->cap = s->cap == 0 ? 64 : s->cap * 2;
			s->items = xrealloc(s->items,
					    s->cap * sizeof(*s->items));
		}
		e = &s->items[s->count++];
	}
	*e = *now;
}

/* Read dir's state file ("GAME UPDATED" lines); none is an empty state. */
static int all_read(const char *dir, struct all_states *s,
		    const char **error_r)
{
	struct buf text = BUF_INIT;
	const char *p;

	if (archive_read_file(dir, ARCHIVE_STATE_FILE, 64 * 1024 * 1024,
			      &text) < 0) {
		buf_free(&text);
		if (errno == ENOENT)
			return 0;
		return all_fail(error_r, "%s/%s: %s", dir, ARCHIVE_STATE_FILE,
				strerror(errno));
	}
	for (p = text.data; p != NULL && *p != '\0';) {
		long long v[6] = { 0 };
		int k = sscanf(p, "%lld %lld %lld %lld %lld %lld", &v[0],
			       &v[1], &v[2], &v[3], &v[4], &v[5]);
		if (k >= 5 && v[0] > 0)
			all_set(s, &(struct all_state){ v[0], v[1], v[2], v[3],
							v[4], k == 6 ? v[5] :
							0 });
		p = strchr(p, '\n');
		if (p != NULL)
			p++;
	}
	buf_free(&text);
	return 0;
}

/* Write the state aside and rename it into place. */
static int all_write(const char *dir, const struct all_states *s,
		     const char **error_r)
{
	struct buf text = BUF_INIT;
	char tmp[64], path[4096], final[4096];
	int ret = 0;

	buf_puts(&text, "");
	for (size_t i = 0; i < s->count; i++)
		buf_printf(&text, "%" PRId64 " %" PRId64 " %" PRId64 " %"
			   PRId64 " %" PRId64 " %" PRId64 "\n",
			   s->items[i].game, s->items[i].updated,
			   s->items[i].ply, s->items[i].mails,
			   s->items[i].events, s->items[i].public_copy);
	snprintf(tmp, sizeof(tmp), "%s.tmp", ARCHIVE_STATE_FILE);
	snprintf(path, sizeof(path), "%s/%s", dir, tmp);
	snprintf(final, sizeof(final), "%s/%s", dir, ARCHIVE_STATE_FILE);
	(void)unlink(path);
	if (archive_write_file(dir, tmp, text.data, text.len) < 0 ||
	    rename(path, final) < 0)
		ret = all_fail(error_r, "%s: %s", final, strerror(errno));
	buf_free(&text);
	return ret;
}

/* What game g is now, as its state line says it. */
static int all_now(const struct archive_source *src,
		   const struct store_game *g, struct all_state *now,
		   const char **error_r)
{
	struct store_game_mail *rows = NULL;
	struct store_clock_event *ev = NULL;
	size_t nrows = 0, nev = 0;

	if (store_game_mails(src->store, g->id, &rows, &nrows, error_r) < 0 ||
	    store_clock_events(src->store, g->id, &ev, &nev, error_r) < 0) {
		store_rows_free(&rows, nrows, sizeof(*rows),
				store_game_mail_clear);
		return -1;
	}
	store_rows_free(&rows, nrows, sizeof(*rows), store_game_mail_clear);
	store_rows_free(&ev, nev, sizeof(*ev), store_clock_event_clear);
	memset(now, 0, sizeof(*now));
	now->game = g->id;
	now->updated = g->updated;
	now->ply = g->ply;
	now->mails = (int64_t)nrows;
	now->events = (int64_t)nev;
	now->public_copy = src->public_copy;
	return 0;
}

/* The statuses an archive is made of: every game but a challenge no one
 * has answered yet. */
#define ALL_STATUSES ((1u << STORE_GAME_ACTIVE) | \
		      (1u << STORE_GAME_FINISHED) | \
		      (1u << STORE_GAME_CANCELLED) | \
		      (1u << STORE_GAME_DECLINED) | \
		      (1u << STORE_GAME_WITHDRAWN))

int archive_export_all(const struct archive_source *src, const char *dir,
		       FILE *out, size_t *exported_r, const char **error_r)
{
	struct all_states s = { NULL, 0, 0 };
	struct store_game *games = NULL;
	size_t n = 0, exported = 0;
	int64_t after = 0;
	int ret = -1;

	if (exported_r != NULL)
		*exported_r = 0;
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		return all_fail(error_r, "%s: %s", dir, strerror(errno));
	if (all_read(dir, &s, error_r) < 0)
		return -1;
	do {
		if (store_games_list(src->store, ALL_STATUSES, after,
				     ALL_PAGE, &games, &n, error_r) < 0)
			goto out;
		for (size_t i = 0; i < n; i++) {
			const struct store_game *g = &games[i];
			const struct all_state *e = all_find(&s, g->id);
			struct archive_summary sum;
			struct all_state now;
			char path[4096];
			struct stat sb;

			after = g->id;
			snprintf(path, sizeof(path), "%s/game-%" PRId64
				 ".tar.gz", dir, g->id);
			if (all_now(src, g, &now, error_r) < 0)
				goto out;
			if (e != NULL && memcmp(e, &now, sizeof(now)) == 0 &&
			    stat(path, &sb) == 0)
				continue;
			if (archive_export(src, g->id, path, &sum,
					   error_r) < 0) {
				all_fail(error_r, "game %" PRId64 ": %s",
					 g->id, *error_r);
				(void)all_write(dir, &s, &(const char *){ 0 });
				goto out;
			}
			all_set(&s, &now);
			exported++;
			fprintf(out, "%s: game %" PRId64 ", %zu plies, %zu "
				"mails\n", path, g->id, sum.plies, sum.mails);
		}
		store_rows_free(&games, n, sizeof(*games), store_game_clear);
	} while (n == ALL_PAGE);
	if (all_write(dir, &s, error_r) < 0)
		goto out;
	if (exported_r != NULL)
		*exported_r = exported;
	ret = 0;
out:
	store_rows_free(&games, n, sizeof(*games), store_game_clear);
	free(s.items);
	return ret;
}

/* The archive of game id in dir: the .tar.gz, else the folder; "" if
 * neither is there. */
static void all_archive_path(const char *dir, int64_t id, char *path,
			     size_t len)
{
	struct stat sb;

	snprintf(path, len, "%s/game-%" PRId64 ".tar.gz", dir, id);
	if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode))
		return;
	snprintf(path, len, "%s/game-%" PRId64, dir, id);
	if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
		return;
	path[0] = '\0';
}

/* Does the archive at path verify, signed by our key, and hold the game
 * as the database has it?  NULL if so, else why not (in buf). */
static const char *all_archive_ok(const struct archive_source *src,
				  const struct store_game *g,
				  const char *path, const char *daemon_key,
				  char *buf, size_t len, int *ret_r,
				  const char **error_r)
{
	struct archive_verify_opts opts = { daemon_key };
	struct archive_verdict v;
	const char *result = g->result != NULL ? g->result : "*";
	char *text = NULL;
	size_t tlen = 0;
	FILE *sink = open_memstream(&text, &tlen);
	int r;

	(void)src;
	*ret_r = 0;
	if (sink == NULL) {
		*ret_r = all_fail(error_r, "%s", strerror(errno));
		return NULL;
	}
	r = archive_verify(path, &opts, sink, &v, error_r);
	fclose(sink);
	free(text);
	if (r < 0) {
		*ret_r = -1;
		return NULL;
	}
	if (r == 1) {
		snprintf(buf, len, "its archive does not verify: %s%s%.0zu: "
			 "%s", archive_reason_name(v.reason),
			 v.ply > 0 ? " at ply " : "", v.ply, v.detail);
		return buf;
	}
	if (v.game != g->id || v.plies != (size_t)g->ply ||
	    strcmp(v.result, result) != 0) {
		snprintf(buf, len, "its archive holds game %" PRId64 " with "
			 "%zu plies and result %s, the database game %"
			 PRId64 " with %d plies and result %s: export it "
			 "again", v.game, v.plies, v.result, g->id, g->ply,
			 result);
		return buf;
	}
	return NULL;
}

#define ALL_ENDED ((1u << STORE_GAME_FINISHED) | \
		   (1u << STORE_GAME_CANCELLED) | \
		   (1u << STORE_GAME_DECLINED) | \
		   (1u << STORE_GAME_WITHDRAWN))

int archive_prune(const struct archive_source *src, const char *dir,
		  int64_t before, bool dry_run, FILE *out, size_t *deleted_r,
		  size_t *kept_r, const char **error_r)
{
	struct store_game *games = NULL;
	char daemon_key[PGP_FPR_MAX + 1];
	size_t n = 0, deleted = 0, kept = 0;
	int64_t after = 0;
	const char *error;
	int ret = -1;

	if (pgp_export_signer(src->pgp, src->signing_key, daemon_key,
			      &error) < 0)
		return all_fail(error_r, "no key of the daemon to hold the "
				"archives' signatures against: %s", error);
	do {
		if (store_games_list(src->store, ALL_ENDED, after, ALL_PAGE,
				     &games, &n, error_r) < 0)
			goto out;
		for (size_t i = 0; i < n; i++) {
			const struct store_game *g = &games[i];
			char path[4096], why_buf[700];
			const char *why = NULL;
			int64_t mails = 0;
			int r = 0;

			after = g->id;
			if (g->updated >= before)
				continue;
			all_archive_path(dir, g->id, path, sizeof(path));
			if (path[0] == '\0')
				why = "no archive of it";
			else
				why = all_archive_ok(src, g, path, daemon_key,
						     why_buf, sizeof(why_buf),
						     &r, error_r);
			if (r < 0)
				goto out;
			if (why == NULL && !dry_run) {
				r = store_game_delete(src->store, g->id,
						      &mails, &why, error_r);
				if (r < 0)
					goto out;
			}
			if (why != NULL) {
				kept++;
				fprintf(out, "game %" PRId64 " kept: %s\n",
					g->id, why);
			} else {
				deleted++;
				if (dry_run)
					fprintf(out, "game %" PRId64 " would "
						"be deleted\n", g->id);
				else
					fprintf(out, "game %" PRId64
						" deleted, with %" PRId64
						" mail(s) only it kept\n",
						g->id, mails);
			}
		}
		store_rows_free(&games, n, sizeof(*games), store_game_clear);
	} while (n == ALL_PAGE);
	ret = 0;
out:
	store_rows_free(&games, n, sizeof(*games), store_game_clear);
	if (deleted_r != NULL)
		*deleted_r = deleted;
	if (kept_r != NULL)
		*kept_r = kept;
	return ret;
}
