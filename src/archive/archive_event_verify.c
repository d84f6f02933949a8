/* archive_event_verify.c -- `ashes archive verify` of an event's archive
 * (archive_event.h): its MANIFEST and the daemon's signature over it,
 * every game's archive as archive_verify checks one, then the event
 * recomputed -- the log replayed, each result in it held against the
 * verified game's record, the standings and crosstable made again and
 * compared with the files.  Every discrepancy is named, not only the
 * first: an organiser who is told "the standings disagree" wants to know
 * which line and why. */
#include <config.h> /* autoconf's: _GNU_SOURCE (mkdtemp) */
#include "archive/archive_private.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "archive/archive_event.h"
#include "core/record2.h"
#include "mail/inbound.h"
#include "server/tournament.h"
#include "server/tournament_log.h"
#include "util/escape.h"
#include "util/xalloc.h"
#include "util/run.h"

/* The most differing lines named per compared file. */
#define CHECK_LINES_NAMED 10

/* Say one discrepancy on out; returns 1 (to count it). */
static size_t discrepancy(FILE *out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static size_t discrepancy(FILE *out, const char *fmt, ...)
{
	va_list ap;

	fputs("DISCREPANCY: ", out);
	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
	fputc('\n', out);
	return 1;
}

static int game_id_cmp(const void *a, const void *b)
{
	const struct archive_event_game *x = a, *y = b;

	return x->game < y->game ? -1 : x->game > y->game;
}

/* The game id among games (sorted by id), or NULL. */
static const struct archive_event_game *
game_of(const struct archive_event_game *games, size_t n, int64_t id)
{
	struct archive_event_game key = { .game = id };

	if (n == 0 || id == 0)
		return NULL;
	return bsearch(&key, games, n, sizeof(*games), game_id_cmp);
}

/* The state's games sorted by number, for find_number. */
static int number_cmp(const void *a, const void *b)
{
	const struct tournament_game *const *x = a, *const *y = b;

	return (*x)->game < (*y)->game ? -1 : (*x)->game > (*y)->game;
}

static const struct tournament_game *
find_number(const struct tournament_game *const *by_number, size_t n,
	    int64_t number)
{
	struct tournament_game key = { .game = number };
	const struct tournament_game *k = &key, *const *hit;

	if (n == 0 || number == 0)
		return NULL;
	hit = bsearch(&k, by_number, n, sizeof(*by_number), number_cmp);
	return hit != NULL ? *hit : NULL;
}

/* How people know the event's game number: the stored game ("game
 * 57"), else the event's number. */
static const char *game_label(const struct tournament_log *log,
			      int64_t number, char *buf, size_t len)
{
	int64_t id = tournament_log_game_id(log, number);

	if (id > 0)
		snprintf(buf, len, "game %" PRId64, id);
	else
		snprintf(buf, len, "the event's game %" PRId64, number);
	return buf;
}

/* The Result a record gives for outcome. */
static const char *outcome_result(enum tournament_outcome o)
{
	return o == TOURNAMENT_WHITE_WINS ? "1-0" :
	       o == TOURNAMENT_BLACK_WINS ? "0-1" :
	       o == TOURNAMENT_DRAWN ? "1/2-1/2" : "*";
}

/* Each RESULT and ADJUDICATION of the log against the games, and each
 * game against the log's pairings. */
static size_t check_results(const struct tournament_log *log,
			    const struct tournament_state *s,
			    const struct archive_event_game *given,
			    size_t ngames, FILE *out)
{
	/* a hostile archive may hold 100000 games: every lookup is a
	 * binary search */
	struct archive_event_game *games = xzalloc((ngames + 1) *
						   sizeof(*games));
	const struct tournament_game **by_number =
		xzalloc((s->ngames + 1) * sizeof(*by_number));
	char w[TOURNAMENT_LOG_NAME_MAX + 1], b[TOURNAMENT_LOG_NAME_MAX + 1];
	char gl[48];
	const struct tournament_entry *e;
	const struct archive_event_game *g;
	size_t n = 0, i, k;
	int64_t id, number;

	if (ngames > 0)
		memcpy(games, given, ngames * sizeof(*games));
	qsort(games, ngames, sizeof(*games), game_id_cmp);
	for (i = 0; i < s->ngames; i++)
		by_number[i] = &s->games[i];
	qsort(by_number, s->ngames, sizeof(*by_number), number_cmp);

	for (i = 0; i < log->nentries; i++) {
		e = &log->entries[i];
		if (e->kind != TOURNAMENT_RESULT &&
		    e->kind != TOURNAMENT_ADJUDICATION)
			continue;
		tournament_player_label(log, e->player, w, sizeof(w));
		tournament_player_label(log, e->other, b, sizeof(b));
		id = tournament_log_game_id(log, e->game);
		g = id != 0 ? game_of(games, ngames, id) : NULL;
		game_label(log, e->game, gl, sizeof(gl));
		if (e->kind == TOURNAMENT_ADJUDICATION) {
			fprintf(out, "%s: adjudicated %s (White %s, Black "
				"%s) by %s%s%s: no game record to agree "
				"with%s%s\n", gl,
				outcome_result(e->outcome), w, b,
				log->by[i] != TOURNAMENT_BY_NONE ?
				tournament_by_name(log->by[i]) : "the log",
				log->notes[i] != NULL ? ", note: " : "",
				log->notes[i] != NULL ? log->notes[i] : "",
				g != NULL && g->verified ?
				"; its record stands at " : "",
				g != NULL && g->verified ? g->result : "");
			continue;
		}
		if (g == NULL) {
			n += discrepancy(out, "%s: the log has its result "
					 "%s (White %s, Black %s) and the "
					 "archive no game of it", gl,
					 outcome_result(e->outcome), w, b);
		} else if (!g->verified) {
			continue; /* said with the games, below */
		} else if (strcmp(g->result, outcome_result(e->outcome)) != 0 ||
			   strcmp(g->white, w) != 0 ||
			   strcmp(g->black, b) != 0) {
			n += discrepancy(out, "%s: the log says %s (White "
					 "%s, Black %s), its verified record %s "
					 "(White %s, Black %s)", gl,
					 outcome_result(e->outcome), w, b,
					 g->result, g->white, g->black);
		} else {
			fprintf(out, "%s: %s (White %s, Black %s), as its "
				"verified record\n", gl,
				g->result, w, b);
		}
	}
	/* every game archive: of a pairing, verified, its end in the log */
	for (k = 0; k < ngames; k++) {
		const struct tournament_game *sg;

		number = tournament_log_game_number(log, games[k].game);
		sg = find_number(by_number, s->ngames, number);
		if (sg == NULL) {
			n += discrepancy(out, "games/%" PRId64 ": a game the "
					 "event's log never paired (nor "
					 "links to a game number)",
					 games[k].game);
		} else if (!games[k].verified &&
			   games[k].reason == ARCHIVE_RESULT_MISMATCH &&
			   (sg->adjudicated || sg->forfeit)) {
			fprintf(out, "game %" PRId64 ": its end is the log's "
				"%s, which no player signed (%s)\n",
				games[k].game, sg->adjudicated ?
				"adjudication" : "forfeit by a withdrawal",
				games[k].why);
		} else if (!games[k].verified) {
			bool resulted = sg->outcome != TOURNAMENT_UNFINISHED &&
					!sg->adjudicated && !sg->forfeit;

			n += discrepancy(out, "game %" PRId64 ": its archive "
					 "does not verify (%s)%s%s%s",
					 games[k].game, games[k].why,
					 resulted ? ", so the log's result " : "",
					 resulted ? outcome_result(sg->outcome) :
					 "", resulted ? " is not proven" : "");
		} else if (sg->outcome == TOURNAMENT_UNFINISHED &&
			   strcmp(games[k].result, "*") != 0) {
			n += discrepancy(out, "games/%" PRId64 ": its verified "
					 "record says %s and the log has no "
					 "result of it", games[k].game,
					 games[k].result);
		}
	}
	/* a game of the log with no archive: a game the daemon made (the
	 * log links its number) must have one -- one with a result in the
	 * log was named above; a game never made (a round robin's game of
	 * a withdrawn player) is only said */
	for (i = 0; i < s->ngames; i++) {
		const struct tournament_game *sg = &s->games[i];
		bool resulted = sg->outcome != TOURNAMENT_UNFINISHED &&
				!sg->adjudicated && !sg->forfeit;

		id = tournament_log_game_id(log, sg->game);
		if (game_of(games, ngames, id) != NULL || resulted)
			continue;
		game_label(log, sg->game, gl, sizeof(gl));
		if (id != 0)
			n += discrepancy(out, "%s: the log links it, and the "
					 "archive has no game of it", gl);
		else
			fprintf(out, "%s: never made, no archive%s\n", gl,
				sg->forfeit ? " (a forfeit)" : "");
	}
	free(games);
	free(by_number);
	return n;
}

/* Compare file (of what) with the text the replay gives: each differing
 * line named, up to CHECK_LINES_NAMED. */
static size_t check_text(const char *what, const char *file, size_t len,
			 const struct buf *want, FILE *out)
{
	const char *a = file != NULL ? file : "", *b = buf_str(want);
	const char *ae = a + (file != NULL ? len : 0), *be = b + want->len;
	size_t n = 0, line = 0, la, lb;

	while ((a < ae || b < be) && n < CHECK_LINES_NAMED) {
		const char *na = memchr(a, '\n', (size_t)(ae - a));
		const char *nb = memchr(b, '\n', (size_t)(be - b));

		la = na != NULL ? (size_t)(na - a) : (size_t)(ae - a);
		lb = nb != NULL ? (size_t)(nb - b) : (size_t)(be - b);
		line++;
		if (la != lb || memcmp(a, b, la) != 0 ||
		    (na == NULL) != (nb == NULL))
			n += discrepancy(out, "%s:%zu is \"%.*s\"; the log "
					 "replayed gives \"%.*s\"", what,
					 line, (int)(la > 200 ? 200 : la),
					 a < ae ? a : "",
					 (int)(lb > 200 ? 200 : lb),
					 b < be ? b : "");
		a = na != NULL ? na + 1 : ae;
		b = nb != NULL ? nb + 1 : be;
	}
	if (n == 0)
		fprintf(out, "%s: %zu lines, as the log replayed gives them\n",
			what, line);
	return n;
}

/* archive_event_check's work, its lines to out unescaped. */
static size_t event_check(const char *log_text, size_t log_len,
			  const char *standings, size_t standings_len,
			  const char *crosstable, size_t crosstable_len,
			  const struct archive_event_game *games,
			  size_t ngames, FILE *out)
{
	struct tournament_log log;
	struct tournament_log_fault lf;
	struct tournament_state *s = NULL;
	struct tournament_fault f;
	struct buf want = BUF_INIT;
	size_t n = 0;

	if (tournament_log_parse(log_text, log_len, &log, &lf) < 0)
		return discrepancy(out, "%s:%zu does not read: %s",
				   ARCHIVE_EVENT_LOG, lf.line, lf.what);
	if (tournament_replay(log.entries, log.nentries, &log.rules, &s,
			      &f) < 0) {
		n = discrepancy(out, "%s: entry %zu does not replay: %s "
				"(%" PRId64 ")", ARCHIVE_EVENT_LOG, f.index + 1,
				tournament_error_name(f.error), f.value);
		goto out;
	}
	fprintf(out, "event %s: %s, %zu entries, %zu players, %d round(s) "
		"paired, %zu game(s)\n", log.event,
		tournament_format_name(log.rules.format), log.nentries,
		s->nplayers, s->rounds_paired, s->ngames);
	n += check_results(&log, s, games, ngames, out);
	tournament_standings_text(&log, s, &want);
	n += check_text(ARCHIVE_EVENT_STANDINGS, standings, standings_len,
			&want, out);
	buf_reset(&want);
	tournament_crosstable_text(&log, s, &want);
	n += check_text(ARCHIVE_EVENT_CROSSTABLE, crosstable, crosstable_len,
			&want, out);
out:
	buf_free(&want);
	tournament_state_free(&s);
	tournament_log_free(&log);
	return n;
}

size_t archive_event_check(const char *log_text, size_t log_len,
			   const char *standings, size_t standings_len,
			   const char *crosstable, size_t crosstable_len,
			   const struct archive_event_game *games,
			   size_t ngames, FILE *out)
{
	/* The names and lines come from the archive: a stranger's bytes,
	 * escaped for the terminal (util/escape.h) as a game's verify
	 * escapes its own. */
	struct buf safe = BUF_INIT;
	char *text = NULL;
	size_t len = 0, n;
	FILE *mem = open_memstream(&text, &len);

	if (mem == NULL)
		return discrepancy(out, "no memory to check the event");
	n = event_check(log_text, log_len, standings, standings_len,
			crosstable, crosstable_len, games, ngames, mem);
	fclose(mem);
	escape_append(&safe, text, len, ESCAPE_KEEP_LINES);
	fputs(buf_str(&safe), out);
	buf_free(&safe);
	free(text);
	return n;
}

/* ---- the folder ---------------------------------------------------- */

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* MANIFEST against the files, and its signature by the key of
 * daemon-key.asc (pinned: opts' key) in the keyring pgp: the
 * discrepancies, and the signer into signer. */
static size_t check_manifest(const char *dir,
			     const struct archive_event_files *files,
			     struct pgp_ctx *pgp, const char *pinned,
			     char *signer, FILE *out, const char **error_r,
			     int *failed_r)
{
	struct buf text = BUF_INIT, sig = BUF_INIT, file = BUF_INIT,
		   key = BUF_INIT;
	struct archive_manifest man;
	char hex[INBOUND_SHA256_HEX_LEN + 1], want[PGP_FPR_MAX + 1];
	struct pgp_sig s;
	const char **listed_names = NULL;
	unsigned count;
	size_t n = 0, line, i, k;
	bool listed;

	memset(&man, 0, sizeof(man));
	*failed_r = 0;
	if (archive_read_file(dir, "MANIFEST", 16 * 1024 * 1024, &text) < 0 ||
	    archive_read_file(dir, "MANIFEST.asc", 64 * 1024, &sig) < 0 ||
	    archive_read_file(dir, ARCHIVE_EVENT_KEY, PGP_EXPORT_KEYS_MAX,
			      &key) < 0) {
		n += discrepancy(out, "MANIFEST, MANIFEST.asc or %s: %s",
				 ARCHIVE_EVENT_KEY, strerror(errno));
		goto out;
	}
	if (archive_manifest_parse_names(text.data, text.len,
					 archive_event_name_ok, &man,
					 &line) < 0) {
		n += discrepancy(out, "MANIFEST:%zu: not a sum and a file "
				 "name", line);
		goto out;
	}
	for (i = 0; i < man.count; i++) {
		buf_reset(&file);
		if (archive_event_read(dir, man.items[i].name,
				       VERIFY_FILE_MAX, &file) < 0) {
			n += discrepancy(out, "MANIFEST lists %s, which is not "
					 "in the archive", man.items[i].name);
			continue;
		}
		inbound_sha256_hex(file.data != NULL ? file.data : "",
				   file.len, hex);
		if (strcmp(hex, man.items[i].sha256) != 0)
			n += discrepancy(out, "%s: its sha256 is not "
					 "MANIFEST's", man.items[i].name);
	}
	/* files->names are sorted; the listed names too, for a binary
	 * search each */
	listed_names = xzalloc((man.count + 1) * sizeof(*listed_names));
	for (k = 0; k < man.count; k++)
		listed_names[k] = man.items[k].name;
	qsort(listed_names, man.count, sizeof(*listed_names), str_cmp);
	for (i = 0; i < files->count; i++) {
		const char *fname = files->names[i];

		listed = strcmp(fname, "MANIFEST") == 0 ||
			 strcmp(fname, "MANIFEST.asc") == 0 ||
			 (man.count > 0 && bsearch(&fname, listed_names,
						   man.count,
						   sizeof(*listed_names),
						   str_cmp) != NULL);
		if (!listed)
			n += discrepancy(out, "%s is in the archive and not in "
					 "MANIFEST", files->names[i]);
	}
	if (pgp_export_load_keys(pgp, key.data, key.len, &count,
				 error_r) < 0 ||
	    pgp_verify_detached(pgp, text.data, text.len, sig.data, sig.len,
				&s, error_r) < 0) {
		*failed_r = -1;
		goto out;
	}
	if (s.status != PGP_SIG_GOOD && s.status != PGP_SIG_KEY_EXPIRED) {
		n += discrepancy(out, "MANIFEST.asc: the daemon's signature "
				 "does not verify (%s)", s.why[0] != '\0' ?
				 s.why : pgp_sig_status_name(s.status));
		goto out;
	}
	if (pinned != NULL) {
		k = 0;
		for (const char *p = pinned; *p != '\0' && k < PGP_FPR_MAX; p++)
			if (*p != ' ')
				want[k++] = *p;
		want[k] = '\0';
		if (strcasecmp(want, s.fpr) != 0)
			n += discrepancy(out, "MANIFEST.asc is signed by %s, "
					 "not by the daemon's key %s", s.fpr,
					 pinned);
	}
	snprintf(signer, PGP_FPR_MAX + 1, "%s", s.fpr);
	if (n == 0)
		fprintf(out, "manifest: %zu files, every sum right; signed by "
			"%s%s\n", man.count, s.fpr, pinned != NULL ?
			", the club's key as given" :
			", a key you did not pin (--daemon-key)");
out:
	free(listed_names);
	archive_manifest_free(&man);
	buf_free(&text);
	buf_free(&sig);
	buf_free(&file);
	buf_free(&key);
	return n;
}

/* Game id's archive under dir/games: verified, its result and players
 * into *g. */
static void verify_game(const char *dir, int64_t id,
			const struct archive_verify_opts *opts,
			const char *signer, FILE *out,
			struct archive_event_game *g)
{
	struct archive_verdict v;
	struct record2 rec;
	struct buf text = BUF_INIT;
	char path[4096];
	const char *error, *tag;
	int r, line;
	enum record2_error re;

	memset(g, 0, sizeof(*g));
	memset(&rec, 0, sizeof(rec));
	g->game = id;
	snprintf(path, sizeof(path), "%s/games/%" PRId64, dir, id);
	fprintf(out, "games/%" PRId64 ":\n", id);
	fflush(out);
	r = archive_verify(path, opts, out, &v, &error);
	if (r < 0) {
		snprintf(g->why, sizeof(g->why), "%.150s", error);
		return;
	}
	if (r == 1) {
		g->reason = v.reason;
		snprintf(g->why, sizeof(g->why), "%s: %.120s",
			 archive_reason_name(v.reason), v.detail);
		return;
	}
	if (v.game != id) {
		snprintf(g->why, sizeof(g->why), "its record is of game %"
			 PRId64, v.game);
		return;
	}
	if (signer[0] != '\0' && strcasecmp(v.signer, signer) != 0) {
		snprintf(g->why, sizeof(g->why), "its MANIFEST is signed by "
			 "%s, the event's by %s", v.signer, signer);
		return;
	}
	if (archive_read_file(path, "record.txt", 4 * 1024 * 1024,
			      &text) < 0 ||
	    record2_parse(text.data, text.len, &rec, &line, &re) < 0) {
		snprintf(g->why, sizeof(g->why), "record.txt does not read");
		goto out;
	}
	g->verified = true;
	snprintf(g->result, sizeof(g->result), "%s", v.result);
	tag = record2_tag_get(&rec, "White");
	snprintf(g->white, sizeof(g->white), "%s", tag != NULL ? tag : "");
	tag = record2_tag_get(&rec, "Black");
	snprintf(g->black, sizeof(g->black), "%s", tag != NULL ? tag : "");
out:
	record2_free(&rec);
	buf_free(&text);
}

int archive_event_verify(const char *path,
			 const struct archive_verify_opts *opts, FILE *out,
			 size_t *discrepancies_r, const char **error_r)
{
	struct archive_event_files files;
	struct archive_event_game *games = NULL;
	struct buf log = BUF_INIT, st = BUF_INIT, ct = BUF_INIT;
	struct pgp_ctx *pgp = NULL;
	char tmp[4096], signer[PGP_FPR_MAX + 1] = "";
	const char *tmpdir = getenv("TMPDIR"), *err;
	size_t n = 0, i;
	int ret = -1, failed = 0;

	memset(&files, 0, sizeof(files));
	if (discrepancies_r != NULL)
		*discrepancies_r = 0;
	snprintf(tmp, sizeof(tmp), "%s/ashes-event-XXXXXX",
		 tmpdir != NULL && tmpdir[0] != '\0' ? tmpdir : "/tmp");
	if (mkdtemp(tmp) == NULL) {
		*error_r = strerror(errno);
		return -1;
	}
	if (archive_event_list(path, &files, &err) < 0) {
		char *safe = escape_str(err);
		n += discrepancy(out, "%s", safe);
		free(safe);
		goto done;
	}
	if (pgp_ctx_new(tmp, &pgp, error_r) < 0)
		goto out;
	n += check_manifest(path, &files, pgp, opts != NULL ?
			    opts->daemon_key : NULL, signer, out, error_r,
			    &failed);
	if (failed < 0)
		goto out;
	games = xzalloc((files.ngames + 1) * sizeof(*games));
	for (i = 0; i < files.ngames; i++) {
		verify_game(path, files.games[i], opts, signer, out,
			    &games[i]);
		if (!games[i].verified) {
			char *safe = escape_str(games[i].why);
			fprintf(out, "games/%" PRId64 ": not verified: %s\n",
				files.games[i], safe);
			free(safe);
		}
	}
	if (archive_read_file(path, ARCHIVE_EVENT_LOG, VERIFY_FILE_MAX,
			      &log) < 0) {
		n += discrepancy(out, "%s: %s", ARCHIVE_EVENT_LOG,
				 strerror(errno));
		goto done;
	}
	(void)archive_read_file(path, ARCHIVE_EVENT_STANDINGS,
				VERIFY_FILE_MAX, &st);
	(void)archive_read_file(path, ARCHIVE_EVENT_CROSSTABLE,
				VERIFY_FILE_MAX, &ct);
	n += archive_event_check(log.data, log.len, st.data, st.len, ct.data,
				 ct.len, games, files.ngames, out);
done:
	if (discrepancies_r != NULL)
		*discrepancies_r = n;
	if (n > 0)
		fprintf(out, "FAILED: %zu discrepanc%s\n", n,
			n == 1 ? "y" : "ies");
	else if (opts != NULL && opts->daemon_key != NULL)
		fprintf(out, "verified: the event's %zu game(s), its log and "
			"its standings; MANIFEST signed by the club's key %s\n",
			files.ngames, signer);
	else
		fprintf(out, "all holds, but no --daemon-key was given: the "
			"games' plies are proven by their players' keys, the "
			"log and the standings only by key %s\n", signer);
	ret = n > 0 ? 1 : opts != NULL && opts->daemon_key != NULL ? 0 :
	      ARCHIVE_VERIFY_UNPINNED;
out:
	if (pgp != NULL) {
		char *argv[] = { "gpgconf", "--homedir", tmp, "--kill", "all",
				 NULL };
		pgp_ctx_free(&pgp);
		(void)run_program(argv, NULL);
	}
	archive_remove_tree(tmp);
	archive_event_files_free(&files);
	free(games);
	buf_free(&log);
	buf_free(&st);
	buf_free(&ct);
	return ret;
}
