/* site.c -- `ashes site DIR [--language L] [--db PATH] [--config FILE]`:
 * a club's game pages, a static HTML site written into DIR: the index, a
 * page per game and the board after every ply, a page per event of the
 * configuration (render/site.h says what each holds), in the templates'
 * language L (English by default; a file L lacks falls back to English,
 * as in every mail).
 * This file gathers the facts -- the store's games, moves, notes, clocks
 * and competitions, the service's standings and ratings as the
 * operator's commands show them -- and writes the files; render/site.c
 * makes them.
 *
 * DIR is created, or rewritten when it holds SITE_MARKER or nothing at
 * all: any other folder is refused, so that a slip of the operator's
 * cannot write over a folder of theirs.  Files ashes does not write
 * there (archive/, where `ashes archive export` may put the games'
 * archives) are left alone.  Each file is written beside its name and
 * renamed into place, so a browser never reads half a page.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/admin.h"
#include "cli/cli.h"
#include "mail/pgp.h"
#include "render/site.h"
#include "server/server.h"
#include "server/tournament.h"
#include "server/tournament_log.h"
#include "store/store.h"
#include "util/buf.h"
#include "util/xalloc.h"

#define SITE_USAGE "site DIR [--language L] [--config FILE] [--db PATH]"

/* A league's season, to name the league of a game of it. */
struct site_season {
	int64_t id;
	const char *league; /* the configuration's */
	int number;
};

/* One run of `ashes site`. */
struct site_run {
	struct admin_opts o;
	const char *dir;
	int64_t now;
	struct store *st;
	struct template_set *ts;
	struct template_set *pages; /* ts's set of --language (owned by ts) */
	struct server *srv;
	struct store_player *players; /* by id */
	size_t nplayers;
	struct site_season *seasons;
	size_t nseasons;
	char club_key[PGP_FPR_MAX + 1]; /* "" when not known */
};

/* One game: its row, its competition, and the facts the index needs. */
struct site_entry {
	struct store_game_club club;
	struct site_game g;
};

/* "DIR/name" into path. */
static const char *site_path(const struct site_run *r, const char *name,
			     struct buf *path)
{
	buf_reset(path);
	buf_printf(path, "%s/%s", r->dir, name);
	return buf_str(path);
}

/* Write len bytes of data to DIR/name, through DIR/name.tmp.  -1 after
 * saying why on stderr. */
static int site_write(const struct site_run *r, const char *name,
		      const char *data, size_t len)
{
	struct buf path = BUF_INIT, tmp = BUF_INIT;
	FILE *f;
	int ret = -1;

	site_path(r, name, &path);
	buf_printf(&tmp, "%s.tmp", buf_str(&path));
	f = fopen(buf_str(&tmp), "wb");
	if (f == NULL)
		goto fail;
	if (fwrite(data, 1, len, f) != len) {
		fclose(f);
		goto fail;
	}
	if (fclose(f) != 0 || rename(buf_str(&tmp), buf_str(&path)) < 0)
		goto fail;
	ret = 0;
	goto out;
fail:
	fprintf(stderr, "ashes site: %s: %s\n", buf_str(&path),
		strerror(errno));
	unlink(buf_str(&tmp));
out:
	buf_free(&path);
	buf_free(&tmp);
	return ret;
}

/* Make DIR ready: created, or a site of ours, or empty.  -1 after
 * saying why on stderr. */
static int site_dir_ready(const struct site_run *r)
{
	struct buf marker = BUF_INIT;
	struct stat sb;
	DIR *d;
	struct dirent *e;
	bool empty = true;
	int ret = -1;

	site_path(r, SITE_MARKER, &marker);
	if (stat(r->dir, &sb) < 0) {
		if (errno != ENOENT || mkdir(r->dir, 0777) < 0) {
			fprintf(stderr, "ashes site: %s: %s\n", r->dir,
				strerror(errno));
			goto out;
		}
	} else if (!S_ISDIR(sb.st_mode)) {
		fprintf(stderr, "ashes site: %s is not a folder\n", r->dir);
		goto out;
	} else if (access(buf_str(&marker), F_OK) < 0) {
		d = opendir(r->dir);
		if (d == NULL) {
			fprintf(stderr, "ashes site: %s: %s\n", r->dir,
				strerror(errno));
			goto out;
		}
		while ((e = readdir(d)) != NULL)
			if (strcmp(e->d_name, ".") != 0 &&
			    strcmp(e->d_name, "..") != 0)
				empty = false;
		closedir(d);
		if (!empty) {
			fprintf(stderr, "ashes site: %s is not empty and is "
				"no site made by ashes site (it has no %s): "
				"left as it is\n", r->dir, SITE_MARKER);
			goto out;
		}
	}
	/* Marked first: a run that fails half-way may be run again. */
	ret = site_write(r, SITE_MARKER, "ashes site\n", 11);
out:
	buf_free(&marker);
	return ret;
}

/* A player's name, or NULL for id 0 or a player not found. */
static const char *site_player(const struct site_run *r, int64_t id)
{
	size_t lo = 0, hi = r->nplayers;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->players[mid].id == id)
			return r->players[mid].name;
		if (r->players[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* The fingerprint of the key that signs the club's archives ([gpg]
 * home and signing_key, as `ashes archive export` finds it), for the
 * pages to give the command that checks one against it; "" when the
 * configuration or the keyring does not say (the pages then say how to
 * get it). */
static void site_club_key(struct site_run *r)
{
	struct pgp_ctx *pgp = NULL;
	const char *error;

	r->club_key[0] = '\0';
	if (!admin_config(&r->o, NULL) || r->o.cfg.gpg.home == NULL ||
	    access(r->o.cfg.gpg.home, R_OK | X_OK) < 0 ||
	    pgp_ctx_new(r->o.cfg.gpg.home, &pgp, &error) < 0)
		return;
	if (pgp_export_signer(pgp, r->o.cfg.gpg.signing_key, r->club_key,
			      &error) < 0)
		r->club_key[0] = '\0';
	pgp_ctx_free(&pgp);
}

/* The seasons of the configuration's leagues.  -1 after saying why. */
static int site_seasons_load(struct site_run *r)
{
	const char *error;

	if (!admin_config(&r->o, NULL))
		return 0;
	for (size_t i = 0; i < r->o.cfg.nleagues; i++) {
		const char *league = r->o.cfg.leagues[i].club.name;
		struct store_league_season *s = NULL;
		size_t n = 0;

		if (store_league_seasons(r->st, league, &s, &n, &error) < 0) {
			fprintf(stderr, "ashes site: %s\n", error);
			return -1;
		}
		r->seasons = xrealloc(r->seasons, (r->nseasons + n) *
				      sizeof(*r->seasons));
		for (size_t k = 0; k < n; k++)
			r->seasons[r->nseasons++] = (struct site_season){
				.id = s[k].id, .league = league,
				.number = s[k].number };
		store_rows_free(&s, n, sizeof(*s), store_league_season_clear);
	}
	return 0;
}

/* The facts of the index about game row into e (borrowing row's
 * strings).  -1 after saying why. */
static int site_entry_fill(struct site_run *r, const struct store_game *row,
			   struct site_entry *e)
{
	struct site_game *g = &e->g;
	const char *error;

	memset(e, 0, sizeof(*e));
	if (store_game_club_get(r->st, row->id, &e->club, &error) < 0) {
		fprintf(stderr, "ashes site: game %" PRId64 ": %s\n", row->id,
			error);
		return -1;
	}
	*g = (struct site_game){
		.id = row->id,
		.white = site_player(r, row->white_id),
		.black = site_player(r, row->black_id),
		.challenger = site_player(r, row->challenger_id),
		.swapped = row->swapped,
		.status = store_game_status_name(row->status),
		.variant = row->variant,
		.ply = row->ply,
		.result = row->result,
		.end_reason = row->end_reason,
		.created = row->created,
		.updated = row->updated,
		.ended = row->status != STORE_GAME_CHALLENGE &&
			 row->status != STORE_GAME_OPEN &&
			 row->status != STORE_GAME_ACTIVE,
		.ladder = e->club.ladder,
		.clock = row->clock_settings,
		.clock_white = row->clock_white,
		.clock_black = row->clock_black,
		.clock_side = row->clock_side,
		.clock_turn_started = row->clock_turn_started,
	};
	for (size_t i = 0; i < r->nseasons; i++)
		if (e->club.season_id != 0 &&
		    r->seasons[i].id == e->club.season_id) {
			g->league = r->seasons[i].league;
			g->season = r->seasons[i].number;
			g->group = e->club.group_no;
		}
	return 0;
}

/* Where site_board_write() puts a game's boards. */
struct site_boards {
	const struct site_run *r;
	int64_t game;
};

static int site_board_write(void *arg, size_t ply, const struct buf *svg,
			    const char **error_r)
{
	const struct site_boards *b = arg;
	char name[64];

	site_board_name(b->game, ply, name, sizeof(name));
	if (site_write(b->r, name, buf_str(svg), svg->len) < 0) {
		*error_r = NULL; /* said already */
		return -1;
	}
	return 0;
}

/* The folder of a game's boards, without the boards of plies past
 * nplies (taken back since the last run).  -1 after saying why. */
static int site_board_dir(const struct site_run *r, int64_t game,
			  size_t nplies)
{
	struct buf path = BUF_INIT, stale = BUF_INIT;
	char name[64];
	DIR *d;
	struct dirent *e;
	int ret = -1;

	site_board_dir_name(game, name, sizeof(name));
	site_path(r, name, &path);
	if (mkdir(buf_str(&path), 0777) < 0 && errno != EEXIST) {
		fprintf(stderr, "ashes site: %s: %s\n", buf_str(&path),
			strerror(errno));
		goto out;
	}
	d = opendir(buf_str(&path));
	if (d == NULL) {
		fprintf(stderr, "ashes site: %s: %s\n", buf_str(&path),
			strerror(errno));
		goto out;
	}
	while ((e = readdir(d)) != NULL) {
		char *end;
		unsigned long k;

		if (strncmp(e->d_name, "ply-", 4) != 0)
			continue;
		k = strtoul(e->d_name + 4, &end, 10);
		if (end == e->d_name + 4 || strcmp(end, ".svg") != 0 ||
		    k <= nplies)
			continue;
		buf_reset(&stale);
		buf_printf(&stale, "%s/%s", buf_str(&path), e->d_name);
		unlink(buf_str(&stale));
	}
	closedir(d);
	ret = 0;
out:
	buf_free(&path);
	buf_free(&stale);
	return ret;
}

/* A game's page and its boards.  -1 after saying why. */
static int site_game_write(struct site_run *r, struct site_entry *e)
{
	struct site_game g = e->g;
	struct store_move *moves = NULL;
	struct store_game_message *notes = NULL;
	struct store_clock_event *events = NULL;
	size_t nmoves = 0, nnotes = 0, nevents = 0;
	struct site_ply *plies = NULL;
	struct site_note *snotes = NULL;
	struct site_clock_event *sevents = NULL;
	struct site_boards boards = { r, g.id };
	struct buf page = BUF_INIT, path = BUF_INIT;
	char name[64];
	const char *error;
	int ret = -1;

	if (store_game_move_records(r->st, g.id, &moves, &nmoves,
				    &error) < 0 ||
	    store_game_messages(r->st, g.id, &notes, &nnotes, &error) < 0 ||
	    store_clock_events(r->st, g.id, &events, &nevents, &error) < 0) {
		fprintf(stderr, "ashes site: game %" PRId64 ": %s\n", g.id,
			error);
		goto out;
	}
	plies = xzalloc((nmoves + 1) * sizeof(*plies));
	for (size_t i = 0; i < nmoves; i++)
		plies[i] = (struct site_ply){ moves[i].text,
			moves[i].player_id != 0 ?
			site_player(r, moves[i].player_id) : NULL,
			moves[i].played_at };
	snotes = xzalloc((nnotes + 1) * sizeof(*snotes));
	for (size_t i = 0; i < nnotes; i++)
		snotes[i] = (struct site_note){ notes[i].ply,
			site_player(r, notes[i].player_id), notes[i].text,
			notes[i].created };
	sevents = xzalloc((nevents + 1) * sizeof(*sevents));
	for (size_t i = 0; i < nevents; i++)
		sevents[i] = (struct site_clock_event){ events[i].at,
			store_clock_kind_name(events[i].kind),
			site_player(r, events[i].player_id),
			events[i].seconds, events[i].note };
	g.plies = plies;
	g.nplies = nmoves;
	/* The players wrote their notes to each other: public once the
	 * game is over, or never, as the club says ([site] notes). */
	g.notes_never = admin_config(&r->o, NULL) &&
		r->o.cfg.site.notes == CONFIG_SITE_NOTES_NEVER;
	g.notes_later = !g.notes_never && !g.ended;
	g.notes = snotes;
	g.nnotes = g.notes_never || g.notes_later ? 0 : nnotes;
	g.clock_events = sevents;
	g.nclock_events = nevents;
	site_archive_name(g.id, name, sizeof(name));
	g.archived = access(site_path(r, name, &path), R_OK) == 0;
	g.club_key = r->club_key[0] != '\0' ? r->club_key : NULL;

	if (site_board_dir(r, g.id, nmoves) < 0)
		goto out;
	if (site_game_boards(r->pages, &g, site_board_write, &boards,
			     &error) < 0) {
		if (error != NULL)
			fprintf(stderr, "ashes site: %s\n", error);
		goto out;
	}
	if (site_game_html(r->pages, &g, r->now, &page, &error) < 0) {
		fprintf(stderr, "ashes site: %s\n", error);
		goto out;
	}
	site_page_name(g.id, name, sizeof(name));
	ret = site_write(r, name, buf_str(&page), page.len);
out:
	buf_free(&page);
	buf_free(&path);
	free(plies);
	free(snotes);
	free(sevents);
	store_rows_free(&moves, nmoves, sizeof(*moves), store_move_clear);
	store_rows_free(&notes, nnotes, sizeof(*notes),
			store_game_message_clear);
	store_rows_free(&events, nevents, sizeof(*events),
			store_clock_event_clear);
	return ret;
}

/* The configuration's ladders and leagues, worded by the service, into
 * *st_r, their texts in *texts_r (*n_r of each, freed by the caller
 * whatever the outcome: buf_free() each text, free() both).  -1 after
 * saying why. */
static int site_standings(struct site_run *r, struct site_standing **st_r,
			  size_t *n_r, struct buf **texts_r)
{
	const struct config *cfg = &r->o.cfg;
	size_t n;
	const char *error;

	*st_r = NULL;
	*n_r = 0;
	*texts_r = NULL;
	if (!admin_config(&r->o, NULL))
		return 0;
	n = cfg->nladders + cfg->nleagues;
	*st_r = xzalloc((n + 1) * sizeof(**st_r));
	*texts_r = xzalloc((n + 1) * sizeof(**texts_r));
	*n_r = n;
	for (size_t i = 0; i < n; i++) {
		bool ladder = i < cfg->nladders;
		const char *name = ladder ? cfg->ladders[i].club.name :
			cfg->leagues[i - cfg->nladders].club.name;
		struct buf *text = &(*texts_r)[i];
		int ret = ladder ?
			server_ladder_show(r->srv, name, r->now, text, &error) :
			server_league_show(r->srv, name, r->now, text, &error);

		if (ret < 0) {
			fprintf(stderr, "ashes site: %s %s: %s\n",
				ladder ? "ladder" : "league", name, error);
			return -1;
		}
		(*st_r)[i] = (struct site_standing){
			ladder ? "ladder" : "league", name, buf_str(text) };
	}
	return 0;
}

/* The page of event name (replayed from its log as `ashes tournament
 * show` replays it), and its facts for the index into *ev (name
 * borrowed).  -1 after saying why. */
static int site_event_write(struct site_run *r, const char *name,
			    struct site_event *ev)
{
	struct tournament_log log;
	struct tournament_state *s = NULL;
	struct tournament_fault f;
	struct site_event_round *rounds = NULL;
	struct buf *texts = NULL, standings = BUF_INIT, cross = BUF_INIT,
		   page = BUF_INIT;
	char file[96];
	const char *error;
	int64_t started = 0, ended = 0;
	int ret = -1, k;

	memset(ev, 0, sizeof(*ev));
	if (admin_tournament_log(&r->o, r->st, "ashes site", name, &log) < 0)
		return -1;
	if (tournament_replay(log.entries, log.nentries, &log.rules, &s,
			      &f) < 0) {
		fprintf(stderr, "ashes site: the log of %s does not replay: %s "
			"at entry %zu\n", name, tournament_error_name(f.error),
			f.index + 1);
		goto out;
	}
	if (store_tournament_times(r->st, name, &started, &ended,
				   &error) < 0) {
		fprintf(stderr, "ashes site: %s: %s\n", name, error);
		goto out;
	}
	rounds = xzalloc(((size_t)s->rounds_paired + 1) * sizeof(*rounds));
	texts = xzalloc(((size_t)s->rounds_paired + 1) * sizeof(*texts));
	for (k = 1; k <= s->rounds_paired; k++) {
		tournament_pairings_text(&log, s, k, &texts[k - 1]);
		rounds[k - 1].round = k;
		rounds[k - 1].pairings = buf_str(&texts[k - 1]);
	}
	tournament_standings_text(&log, s, &standings);
	tournament_crosstable_text(&log, s, &cross);
	*ev = (struct site_event){ name,
		tournament_format_name(log.rules.format), s->nplayers,
		s->rounds_paired, ended != 0, rounds,
		(size_t)s->rounds_paired, buf_str(&cross),
		buf_str(&standings) };
	site_event_page_name(name, file, sizeof(file));
	if (site_event_html(r->pages, ev, r->now, &page, &error) < 0) {
		fprintf(stderr, "ashes site: %s\n", error);
		goto out;
	}
	ret = site_write(r, file, buf_str(&page), page.len);
out:
	/* the index keeps only what is not freed here */
	ev->rounds = NULL;
	ev->nrounds = 0;
	ev->crosstable = ev->standings = NULL;
	for (k = 0; texts != NULL && k < s->rounds_paired; k++)
		buf_free(&texts[k]);
	free(texts);
	free(rounds);
	buf_free(&standings);
	buf_free(&cross);
	buf_free(&page);
	tournament_state_free(&s);
	tournament_log_free(&log);
	return ret;
}

/* The index.  -1 after saying why. */
static int site_index_write(struct site_run *r, struct site_entry *entries,
			    size_t n)
{
	struct site_index idx;
	struct site_game *games = xzalloc((n + 1) * sizeof(*games));
	struct site_standing *standings = NULL;
	struct site_event *events = NULL;
	struct buf ratings = BUF_INIT, page = BUF_INIT, *texts = NULL;
	size_t nstandings = 0, nevents = 0;
	const char *error;
	int ret = -1;

	/* Newest first: the store lists them by id. */
	for (size_t i = 0; i < n; i++)
		games[i] = entries[n - 1 - i].g;
	if (site_standings(r, &standings, &nstandings, &texts) < 0)
		goto out;
	if (server_ratings_show(r->srv, &ratings, &error) < 0) {
		fprintf(stderr, "ashes site: ratings: %s\n", error);
		goto out;
	}
	/* the events of the configuration, each with its page */
	if (admin_config(&r->o, NULL) && r->o.cfg.ntournaments > 0) {
		nevents = r->o.cfg.ntournaments;
		events = xzalloc((nevents + 1) * sizeof(*events));
		for (size_t i = 0; i < nevents; i++)
			if (site_event_write(r, r->o.cfg.tournaments[i].club.name,
					     &events[i]) < 0)
				goto out;
	}
	idx = (struct site_index){ games, n, standings, nstandings,
				   buf_str(&ratings), events, nevents };
	if (site_index_html(r->pages, &idx, r->now, &page, &error) < 0) {
		fprintf(stderr, "ashes site: %s\n", error);
		goto out;
	}
	ret = site_write(r, SITE_INDEX, buf_str(&page), page.len);
out:
	for (size_t i = 0; texts != NULL && i < nstandings; i++)
		buf_free(&texts[i]);
	free(texts);
	free(standings);
	free(events);
	free(games);
	buf_free(&ratings);
	buf_free(&page);
	return ret;
}

int cli_site(int argc, char **argv)
{
	struct site_run r;
	struct store_game *rows = NULL;
	struct site_entry *entries = NULL;
	size_t nrows = 0, nentries = 0;
	const char *error;
	int rc = CLI_EXIT_FAILURE;

	memset(&r, 0, sizeof(r));
	if (admin_parse(argc, argv, &r.o) < 0 || r.o.argc != 1 || r.o.all ||
	    r.o.status != NULL || r.o.limit != 0 || r.o.note != NULL) {
		rc = admin_usage(SITE_USAGE);
		goto out;
	}
	r.dir = r.o.argv[0];
	if (admin_now("ashes site", &r.now) < 0 ||
	    admin_open(&r.o, false, &r.st) < 0)
		goto out;
	if (admin_server_open(&r.o, r.st, &r.ts, &r.srv, &error) < 0 ||
	    store_player_list(r.st, &r.players, &r.nplayers, &error) < 0 ||
	    store_games_list(r.st, 0, 0, 0, &rows, &nrows, &error) < 0) {
		fprintf(stderr, "ashes site: %s\n", error);
		goto out;
	}
	r.pages = admin_language(r.ts, r.o.language, "site");
	if (r.pages == NULL || site_seasons_load(&r) < 0 ||
	    site_dir_ready(&r) < 0)
		goto out;
	site_club_key(&r);
	entries = xzalloc((nrows + 1) * sizeof(*entries));
	for (; nentries < nrows; nentries++)
		if (site_entry_fill(&r, &rows[nentries],
				    &entries[nentries]) < 0 ||
		    site_game_write(&r, &entries[nentries]) < 0)
			goto out;
	if (site_index_write(&r, entries, nentries) < 0)
		goto out;
	printf("%s: %zu game page(s) and the index\n", r.dir, nentries);
	rc = CLI_EXIT_OK;
out:
	for (size_t i = 0; entries != NULL && i <= nentries && i < nrows; i++)
		store_game_club_clear(&entries[i].club);
	free(entries);
	free(r.seasons);
	store_rows_free(&rows, nrows, sizeof(*rows), store_game_clear);
	store_rows_free(&r.players, r.nplayers, sizeof(*r.players),
			store_player_clear);
	server_free(&r.srv);
	template_set_free(&r.ts);
	store_close(&r.st);
	admin_done(&r.o);
	return rc;
}
