/* archive_event.c -- an event's archive (archive.h): every game's
 * archive of the event under games/GAME-ID/, the event's log as text
 * (log.txt, server/tournament_log.h), the standings and crosstable
 * replayed from it, the daemon's public key, and one MANIFEST of every
 * file, games' files included, signed by the daemon.  Also what export
 * and verify share of it: the folder's names and its MANIFEST. */
#include <config.h> /* autoconf's: _GNU_SOURCE */
#include "archive/archive_private.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>
#include <sys/stat.h>

#include "archive/archive_event.h"
#include "server/tournament.h"
#include "server/tournament_log.h"
#include "util/xalloc.h"
#include "util/xstr.h"

static int event_fail(const char **error_r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int event_fail(const char **error_r, const char *fmt, ...)
{
	static __thread char msg[600];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	*error_r = msg;
	return -1;
}

bool archive_event_dir(const char *path)
{
	struct buf b = BUF_INIT;
	bool yes = archive_read_file(path, ARCHIVE_EVENT_LOG, VERIFY_FILE_MAX,
				     &b) == 0 &&
		   strncmp(b.data != NULL ? b.data : "", TOURNAMENT_LOG_MAGIC,
			   strlen(TOURNAMENT_LOG_MAGIC)) == 0;

	buf_free(&b);
	return yes;
}

/* Is s a game's folder name: 1 to 18 digits, no leading 0? */
static bool game_name_ok(const char *s)
{
	size_t n = strspn(s, "0123456789");

	return n > 0 && n <= 18 && s[n] == '\0' && s[0] != '0';
}

void archive_event_files_free(struct archive_event_files *f)
{
	for (size_t i = 0; i < f->count; i++)
		free(f->names[i]);
	free(f->names);
	free(f->games);
	memset(f, 0, sizeof(*f));
}

static void files_push(struct archive_event_files *f, char *name)
{
	if (f->count == f->cap) {
		f->cap = f->cap == 0 ? 64 : 2 * f->cap;
		f->names = xrealloc(f->names, f->cap * sizeof(*f->names));
	}
	f->names[f->count++] = name;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int game_cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

int archive_event_list(const char *dir, struct archive_event_files *f,
		       const char **error_r)
{
	char games[4096], sub[4096], **names = NULL, *full;
	const char *bad;
	size_t n = 0, k, len, cap_games = 0;
	struct dirent *e;
	struct stat sb;
	DIR *d = NULL;
	int ret = -1;

	memset(f, 0, sizeof(*f));
	/* the top: plain files and games/ */
	d = opendir(dir);
	if (d == NULL)
		return event_fail(error_r, "%s: %s", dir, strerror(errno));
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if ((size_t)snprintf(sub, sizeof(sub), "%s/%s", dir,
				     e->d_name) >= sizeof(sub) ||
		    lstat(sub, &sb) < 0)
			goto io;
		if (S_ISDIR(sb.st_mode) && strcmp(e->d_name, "games") == 0)
			continue;
		if (!S_ISREG(sb.st_mode) || !archive_name_ok(e->d_name)) {
			event_fail(error_r, "%s: %s is not a file an event "
				   "archive holds", dir, e->d_name);
			goto out;
		}
		if (f->count >= ARCHIVE_EVENT_MAX_FILES)
			goto many;
		files_push(f, xstrdup(e->d_name));
	}
	closedir(d);
	d = NULL;
	/* games/N/: each a game's archive of plain files */
	snprintf(games, sizeof(games), "%s/games", dir);
	d = opendir(games);
	if (d == NULL && errno != ENOENT)
		goto io;
	while (d != NULL && (e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (!game_name_ok(e->d_name) ||
		    (size_t)snprintf(sub, sizeof(sub), "%s/%s", games,
				     e->d_name) >= sizeof(sub) ||
		    lstat(sub, &sb) < 0 ||
		    !S_ISDIR(sb.st_mode)) {
			event_fail(error_r, "%s: %s is not a game's folder "
				   "(its number)", games, e->d_name);
			goto out;
		}
		if (f->ngames == cap_games) {
			cap_games = cap_games == 0 ? 32 : 2 * cap_games;
			f->games = xrealloc(f->games, cap_games *
					    sizeof(*f->games));
		}
		f->games[f->ngames++] = strtoll(e->d_name, NULL, 10);
		if (archive_list_dir(sub, &names, &n, &bad) < 0) {
			event_fail(error_r, "%s: %s", sub, bad != NULL ?
				   "holds what is not a plain file" :
				   strerror(errno));
			archive_names_free(&names, n);
			goto out;
		}
		for (k = 0; k < n; k++) {
			if (f->count >= ARCHIVE_EVENT_MAX_FILES) {
				archive_names_free(&names, n);
				goto many;
			}
			len = strlen(e->d_name) + strlen(names[k]) + 8;
			full = xzalloc(len);
			snprintf(full, len, "games/%s/%s", e->d_name, names[k]);
			files_push(f, full);
		}
		archive_names_free(&names, n);
		n = 0;
	}
	if (f->count > 1)
		qsort(f->names, f->count, sizeof(*f->names), name_cmp);
	if (f->ngames > 1)
		qsort(f->games, f->ngames, sizeof(*f->games), game_cmp);
	ret = 0;
	goto out;
many:
	event_fail(error_r, "%s: more than %d files", dir,
		   ARCHIVE_EVENT_MAX_FILES);
	goto out;
io:
	event_fail(error_r, "%s: %s", dir, strerror(errno));
out:
	if (d != NULL)
		closedir(d);
	if (ret < 0)
		archive_event_files_free(f);
	return ret;
}

bool archive_event_name_ok(const char *name)
{
	const char *a, *b;
	char num[24];

	if (strncmp(name, "games/", 6) != 0)
		return archive_name_ok(name);
	a = name + 6;
	b = strchr(a, '/');
	if (b == NULL || (size_t)(b - a) >= sizeof(num))
		return false;
	memcpy(num, a, (size_t)(b - a));
	num[b - a] = '\0';
	return game_name_ok(num) && archive_name_ok(b + 1);
}

int archive_event_read(const char *dir, const char *name, size_t max,
		       struct buf *out)
{
	char sub[4096];
	const char *slash = strrchr(name, '/');

	if (slash == NULL)
		return archive_read_file(dir, name, max, out);
	if ((size_t)snprintf(sub, sizeof(sub), "%s/%.*s", dir,
			     (int)(slash - name), name) >= sizeof(sub)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return archive_read_file(sub, slash + 1, max, out);
}

/* ---- export ------------------------------------------------------- */

/* Write name (at the top of dir) with text. */
static int put_top(const char *dir, const char *name, const struct buf *b,
		   const char **error_r)
{
	if (archive_write_file(dir, name, b->data != NULL ? b->data : "",
			       b->len) < 0)
		return event_fail(error_r, "%s/%s: %s", dir, name,
				  strerror(errno));
	return 0;
}

/* MANIFEST over every file of dir, and its signature. */
static int export_event_manifest(const struct archive_source *src,
				 const char *dir, const char *daemon_key,
				 struct archive_event_summary *sum,
				 const char **error_r)
{
	struct archive_event_files f;
	struct archive_manifest man;
	struct buf file = BUF_INIT, text = BUF_INIT, sig = BUF_INIT;
	const char *error;
	int ret = -1;

	memset(&man, 0, sizeof(man));
	if (archive_event_list(dir, &f, error_r) < 0)
		return -1;
	for (size_t i = 0; i < f.count; i++) {
		buf_reset(&file);
		if (archive_event_read(dir, f.names[i], VERIFY_FILE_MAX,
				       &file) < 0) {
			event_fail(error_r, "%s/%s: %s", dir, f.names[i],
				   strerror(errno));
			goto out;
		}
		archive_manifest_add(&man, f.names[i],
				     file.data != NULL ? file.data : "",
				     file.len);
	}
	archive_manifest_format(&man, &text);
	sum->files = man.count;
	if (pgp_sign_detached(src->pgp, daemon_key, text.data, text.len, &sig,
			      &error) < 0) {
		event_fail(error_r, "signing MANIFEST: %s", error);
		goto out;
	}
	if (put_top(dir, "MANIFEST", &text, error_r) < 0 ||
	    put_top(dir, "MANIFEST.asc", &sig, error_r) < 0)
		goto out;
	ret = 0;
out:
	archive_manifest_free(&man);
	archive_event_files_free(&f);
	buf_free(&file);
	buf_free(&text);
	buf_free(&sig);
	return ret;
}

int archive_event_export(const struct archive_source *src,
			 const struct tournament_log *log, const char *dir,
			 FILE *out, struct archive_event_summary *sum_r,
			 const char **error_r)
{
	struct tournament_state *state = NULL;
	struct tournament_fault fault;
	struct archive_summary gsum;
	struct store_game *row = NULL;
	struct buf b = BUF_INIT;
	char daemon_key[PGP_FPR_MAX + 1], games[4096], path[4096];
	const char *error, *fprs[2];
	bool made = false;
	int ret = -1, r;

	memset(sum_r, 0, sizeof(*sum_r));
	if (pgp_export_signer(src->pgp, src->signing_key, daemon_key,
			      &error) < 0)
		return event_fail(error_r, "no key to sign the archive with: "
				  "%s", error);
	snprintf(sum_r->signer, sizeof(sum_r->signer), "%s", daemon_key);
	if (tournament_replay(log->entries, log->nentries, &log->rules,
			      &state, &fault) < 0)
		return event_fail(error_r, "the event's log does not replay: "
				  "%s at entry %zu", tournament_error_name(
				  fault.error), fault.index + 1);
	if (mkdir(dir, 0755) < 0) {
		event_fail(error_r, "%s: %s (give a folder that does not "
			   "exist yet)", dir, strerror(errno));
		goto out;
	}
	made = true;
	snprintf(games, sizeof(games), "%s/games", dir);
	if (mkdir(games, 0755) < 0) {
		event_fail(error_r, "%s: %s", games, strerror(errno));
		goto out;
	}
	/* every game of the event the daemon created (a round robin's
	 * games of a withdrawn player are paired and never made) */
	for (size_t i = 0; i < state->ngames; i++) {
		int64_t id = tournament_log_game_id(log, state->games[i].game);

		if (id == 0)
			continue;
		r = store_game_load(src->store, id, &row, &error);
		store_game_free(&row);
		if (r < 0) {
			event_fail(error_r, "game %" PRId64 ": %s", id, error);
			goto out;
		}
		if (r == 0)
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%" PRId64, games,
				     id) >= sizeof(path)) {
			event_fail(error_r, "%s: name too long", games);
			goto out;
		}
		if (archive_export(src, id, path, &gsum, &error) < 0) {
			event_fail(error_r, "game %" PRId64 ": %s", id, error);
			goto out;
		}
		sum_r->games++;
		if (out != NULL)
			fprintf(out, "games/%" PRId64 ": %zu plies, %zu mails, "
				"%zu files\n", id, gsum.plies, gsum.mails,
				gsum.files);
	}
	tournament_log_format(log, &b);
	sum_r->entries = log->nentries;
	if (put_top(dir, ARCHIVE_EVENT_LOG, &b, error_r) < 0)
		goto out;
	buf_reset(&b);
	tournament_standings_text(log, state, &b);
	if (put_top(dir, ARCHIVE_EVENT_STANDINGS, &b, error_r) < 0)
		goto out;
	buf_reset(&b);
	tournament_crosstable_text(log, state, &b);
	if (put_top(dir, ARCHIVE_EVENT_CROSSTABLE, &b, error_r) < 0)
		goto out;
	buf_reset(&b);
	fprs[0] = daemon_key;
	fprs[1] = NULL;
	if (pgp_export_keys(src->pgp, fprs, true, &b, &error) < 0) {
		event_fail(error_r, "the daemon's key: %s", error);
		goto out;
	}
	if (put_top(dir, ARCHIVE_EVENT_KEY, &b, error_r) < 0 ||
	    export_event_manifest(src, dir, daemon_key, sum_r, error_r) < 0)
		goto out;
	ret = 0;
out:
	if (ret < 0 && made)
		archive_remove_tree(dir);
	tournament_state_free(&state);
	buf_free(&b);
	return ret;
}
