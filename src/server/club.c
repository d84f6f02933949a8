/* club.c -- what the club's competitions share: the configuration's
 * ladders and leagues by name, a ladder's standing replayed from its
 * event log (the store keeps the log, ladder.c the rules), an event
 * checked against the standing before it is recorded, the games a
 * competition creates, and the configuration's members brought into the
 * ladders (those added join at the bottom; those removed are withdrawn
 * once their open games have ended).  The commands are club_ladder.c's
 * and club_league.c's; results and ratings club_result.c's; the timer's
 * work club_timer.c's. */
#include "server/server_private.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/variant.h"

const struct server_ladder *club_ladder_find(const struct server *srv,
					     const char *name)
{
	for (size_t i = 0; name != NULL && i < srv->cfg.nladders; i++)
		if (strcasecmp(srv->cfg.ladders[i].club.name, name) == 0)
			return &srv->cfg.ladders[i];
	return NULL;
}

const struct server_league *club_league_find(const struct server *srv,
					     const char *name)
{
	for (size_t i = 0; name != NULL && i < srv->cfg.nleagues; i++)
		if (strcasecmp(srv->cfg.leagues[i].club.name, name) == 0)
			return &srv->cfg.leagues[i];
	return NULL;
}

bool club_listed(const struct server_club *club, const char *name)
{
	for (size_t i = 0; i < club->nmembers; i++)
		if (strcasecmp(club->members[i], name) == 0)
			return true;
	return false;
}

/* ---- the log ---------------------------------------------------------- */

/* A stored row as the rules read it: -1 if the row holds a word the rules
 * do not know (a log written by a newer ashesd). */
static int club_event_read(const struct store_ladder_event *row,
			   struct ladder_event *ev)
{
	*ev = (struct ladder_event){
		.at = row->at, .game = row->game_id,
		.player = row->player_id, .other = row->other_id,
		.position = row->position, .accept_by = row->accept_by,
		.time_loss_drop = row->time_loss_drop,
	};
	if (ladder_event_kind_parse(row->kind, &ev->kind) < 0)
		return -1;
	if (row->outcome != NULL &&
	    ladder_result_parse(row->outcome, &ev->result) < 0)
		return -1;
	if (row->win != NULL && ladder_win_parse(row->win, &ev->win) < 0)
		return -1;
	return 0;
}

int club_ladder_standing(struct handle *h, const char *ladder,
			 struct ladder_standing **standing_r)
{
	struct store_ladder_event *rows = NULL;
	struct ladder_event *evs = NULL;
	struct ladder_fault fault;
	const char *error;
	size_t n = 0;
	int ret = 0;

	*standing_r = NULL;
	if (store_ladder_events(h->srv->store, ladder, &rows, &n, &error) < 0)
		return server_store_fail(h, error);
	evs = calloc(n > 0 ? n : 1, sizeof(*evs));
	if (evs == NULL) {
		ret = server_store_fail(h, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		if (club_event_read(&rows[i], &evs[i]) < 0) {
			ret = server_store_fail(h, "a ladder event this "
						"ashesd does not know");
			goto out;
		}
	/* Every event was checked against the standing before it was
	 * recorded: a log that does not replay is a broken store. */
	if (ladder_replay(evs, n, standing_r, &fault) < 0) {
		snprintf(h->srv->errbuf, sizeof(h->srv->errbuf),
			 "ladder %s: event %zu does not replay: %s", ladder,
			 fault.index + 1, ladder_error_name(fault.error));
		ret = server_store_fail(h, h->srv->errbuf);
	}
out:
	free(evs);
	store_rows_free(&rows, n, sizeof(*rows), store_ladder_event_clear);
	return ret;
}

int club_ladder_record(struct handle *h, const char *ladder,
		       struct ladder_standing *standing,
		       const struct ladder_event *ev, const char *actor,
		       const char *note)
{
	struct store_ladder_event row;
	struct ladder_fault fault;
	const char *error;

	if (ladder_apply(standing, ev, &fault) < 0) {
		snprintf(h->srv->errbuf, sizeof(h->srv->errbuf),
			 "ladder %s: a %s event cannot follow: %s", ladder,
			 ladder_event_kind_name(ev->kind),
			 ladder_error_name(fault.error));
		return server_store_fail(h, h->srv->errbuf);
	}
	row = (struct store_ladder_event){
		.ladder = (char *)ladder,
		.kind = (char *)ladder_event_kind_name(ev->kind),
		.at = ev->at, .game_id = ev->game,
		.player_id = ev->player, .other_id = ev->other,
		.position = ev->position, .inbound_id = h->inbound_id,
		.actor = (char *)actor, .note = (char *)note,
	};
	if (ev->kind == LADDER_EVENT_RESULT)
		row.outcome = (char *)ladder_result_name(ev->result);
	if (ev->kind == LADDER_EVENT_CHALLENGED) {
		row.accept_by = ev->accept_by;
		row.win = (char *)ladder_win_name(ev->win);
		row.time_loss_drop = ev->time_loss_drop;
	}
	if (store_ladder_event_add(h->srv->store, &row, NULL, &error) < 0)
		return server_store_fail(h, error);
	return 0;
}

/* ---- the games of a competition ---------------------------------------- */

int club_game_new(struct handle *h, const struct server_club *club,
		  int64_t white, int64_t black, bool active, int64_t *id_r)
{
	struct store_game row;
	struct clock_control cc;
	char vtext[CORE_VARIANT_TEXT_MAX], ctext[GAME_CLOCK_TEXT_MAX];
	const char *error;

	core_variant_format(&club->variant, CORE_VARIANT_ALL, vtext,
			    sizeof(vtext));
	memset(&row, 0, sizeof(row));
	row.variant = vtext;
	row.challenger_id = white;
	row.white_id = white;
	row.black_id = black;
	row.status = active ? STORE_GAME_ACTIVE : STORE_GAME_CHALLENGE;
	if (club->clock != NULL &&
	    clock_control_parse(club->clock, &cc, NULL) == 0 &&
	    cc.kind != CLOCK_KIND_NONE) {
		cc.weekends_off = club->weekends_off;
		game_clock_text_format(&cc, true, ctext, sizeof(ctext));
		row.clock_settings = ctext;
		row.clock_white = row.clock_black = clock_control_initial(&cc);
	}
	if (store_game_create(h->srv->store, &row, h->now, id_r, &error) < 0)
		return server_store_fail(h, error);
	return 0;
}

int club_game_create(struct handle *h, const struct server_club *club,
		     int64_t white, int64_t black, bool active,
		     const char *ladder, int64_t season_id, int group_no,
		     int64_t *id_r)
{
	struct store_game_club link;
	const char *error;

	if (club_game_new(h, club, white, black, active, id_r) < 0)
		return -1;
	memset(&link, 0, sizeof(link));
	link.game_id = *id_r;
	link.ladder = (char *)ladder;
	link.season_id = season_id;
	link.group_no = group_no;
	link.rated = club->rated;
	if (store_game_club_set(h->srv->store, &link, &error) < 0)
		return server_store_fail(h, error);
	return 0;
}

int club_game_begin(struct handle *h, int64_t id, const char *kind,
		    const char *name, const char *key1, int value1,
		    const char *key2, int value2)
{
	struct template_ctx *ctx;
	struct game g;
	int ret = game_load(h, id, &g, true);

	if (ret <= 0)
		return ret < 0 ? -1 : server_store_fail(h, "new game vanished");
	ret = game_clock_start(h, &g);
	if (ret == 0)
		ret = game_save(h, &g);
	ctx = template_ctx_new();
	if (ret == 0) {
		game_ctx(h, &g, ctx);
		ret = game_last_moves_ctx(h, &g, 0, ctx);
	}
	if (ret == 0) {
		template_ctx_set(ctx, kind, name);
		template_ctx_set_int(ctx, key1, value1);
		if (key2 != NULL)
			template_ctx_set_int(ctx, key2, value2);
		ret = notice_game(h, &g, 0, ctx);
	}
	template_ctx_free(&ctx);
	game_free(&g);
	return ret;
}

int club_game_ladder(struct handle *h, int64_t game_id, char **ladder_r,
		     bool *rated_r)
{
	struct store_game_club gc;
	const char *error;
	int r;

	*ladder_r = NULL;
	r = store_game_club_get(h->srv->store, game_id, &gc, &error);
	if (r < 0)
		return server_store_fail(h, error);
	if (r == 1 && gc.ladder != NULL) {
		*ladder_r = gc.ladder;
		gc.ladder = NULL;
	}
	if (rated_r != NULL)
		*rated_r = r == 1 && gc.rated;
	store_game_club_clear(&gc);
	return 0;
}

/* ---- the configuration's members ---------------------------------------- */

/* Is player pid in an open challenge of the standing? */
static bool club_in_open_game(const struct ladder_standing *st, int64_t pid)
{
	for (size_t i = 0; i < st->nopen; i++)
		if (st->open[i].challenger == pid ||
		    st->open[i].defender == pid)
			return true;
	return false;
}

static int club_sync_ladder(struct handle *h, const struct server_ladder *l,
			    size_t *joined_r, size_t *withdrawn_r)
{
	const struct server_club *club = &l->club;
	struct ladder_standing *st = NULL;
	struct store_ladder_event *log = NULL;
	size_t nlog = 0;
	const char *error;
	int ret = club_ladder_standing(h, club->name, &st);

	/* A member the configuration lists joins once, the first time they
	 * are seen registered: one who left or was withdrawn since comes
	 * back by `ladder join` (or the operator), not by the next run of
	 * the timer.  Who was ever seen is the log's. */
	if (ret == 0 && store_ladder_events(h->srv->store, club->name, &log,
					    &nlog, &error) < 0)
		ret = server_store_fail(h, error);
	for (size_t i = 0; ret == 0 && i < club->nmembers; i++) {
		struct store_player *p = NULL;
		struct ladder_event ev;
		bool seen = false;
		int r = store_player_by_name(h->srv->store, club->members[i],
					     &p, &error);

		if (r < 0) {
			ret = server_store_fail(h, error);
			break;
		}
		/* Not registered yet: pending, joins when they are. */
		if (r == 0 || ladder_position(st, p->id) > 0) {
			store_player_free(&p);
			continue;
		}
		for (size_t k = 0; k < nlog && !seen; k++)
			seen = log[k].player_id == p->id;
		if (!seen) {
			memset(&ev, 0, sizeof(ev));
			ev.kind = LADDER_EVENT_JOINED;
			ev.at = h->now;
			ev.player = p->id;
			ret = club_ladder_record(h, club->name, st, &ev,
						 "daemon", "listed in the "
						 "configuration");
			*joined_r += ret == 0;
		}
		store_player_free(&p);
	}
	/* A closed ladder's members are the configuration's: one no longer
	 * listed is withdrawn once their open games have ended. */
	for (size_t i = st != NULL ? st->nmembers : 0; ret == 0 && !club->open &&
	     i-- > 0;) {
		int64_t pid = st->members[i].player;
		char name[COMMAND_NAME_MAX + 1];
		struct ladder_event ev;

		if (club_in_open_game(st, pid))
			continue;
		ret = game_player_name(h, pid, name);
		if (ret < 0 || club_listed(club, name))
			continue;
		memset(&ev, 0, sizeof(ev));
		ev.kind = LADDER_EVENT_WITHDRAWN;
		ev.at = h->now;
		ev.player = pid;
		ret = club_ladder_record(h, club->name, st, &ev, "daemon",
					 "no longer in the configuration");
		*withdrawn_r += ret == 0;
	}
	store_rows_free(&log, nlog, sizeof(*log), store_ladder_event_clear);
	ladder_standing_free(&st);
	return ret;
}

int club_sync(struct handle *h, size_t *joined_r, size_t *withdrawn_r)
{
	int ret = 0;

	for (size_t i = 0; ret == 0 && i < h->srv->cfg.nladders; i++)
		ret = club_sync_ladder(h, &h->srv->cfg.ladders[i], joined_r,
				       withdrawn_r);
	return ret;
}
