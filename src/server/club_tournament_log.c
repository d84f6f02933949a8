/* club_tournament_log.c -- an event as stored: the configuration's event
 * by name, its log read and replayed (tournament.h) into the entrants'
 * scores and games, an entry checked against the log before it is
 * recorded, the games the event creates, the results of its ended games
 * taken into the log once (and rated), and a running game decided -- by
 * the daemon at a round's deadline or by the operator -- through the
 * game's normal end.  The timer's work is club_tournament.c's, the
 * commands club_tournament_cmd.c's. */
#include "server/server_private.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "server/knockout.h"
#include "server/roundrobin.h"

const struct server_tournament *club_tournament_find(const struct server *srv,
						     const char *name)
{
	for (size_t i = 0; name != NULL && i < srv->cfg.ntournaments; i++)
		if (strcasecmp(srv->cfg.tournaments[i].club.name, name) == 0)
			return &srv->cfg.tournaments[i];
	return NULL;
}

/* A player's rating as the event seeds them. */
int event_rating_of(struct handle *h, int64_t pid, int *rating_r)
{
	struct store_rating row;
	struct rating r;
	struct rating_shown shown;
	const char *error;
	int found = store_rating_get(h->srv->store, pid, &row, &error);

	if (found < 0)
		return server_store_fail(h, error);
	if (found == 1) {
		r.r = row.r;
		r.rd = row.rd;
		r.vol = row.vol;
	} else {
		rating_new(&h->srv->cfg.rating, &r);
	}
	rating_round(&r, &shown);
	*rating_r = shown.r;
	return 0;
}

/* The rounds an event has: Swiss its `rounds`, a round robin its cycle
 * (or two), a knockout its bracket's. */
int event_rounds(const struct event_view *v)
{
	size_t n = v->state->nplayers;

	switch (v->t->rules.format) {
	case TOURNAMENT_SWISS:
		return v->t->rules.rounds;
	case TOURNAMENT_ROUNDROBIN:
		return roundrobin_rounds(n, v->t->rules.twice);
	case TOURNAMENT_KNOCKOUT:
		return knockout_rounds(n);
	}
	return 0;
}

/* ---- the log ---------------------------------------------------------- */

/* A stored row as the replay reads it: -1 for a word this ashesd does
 * not know. */
static int event_entry_read(const struct store_tournament_entry *row,
			    struct tournament_entry *e)
{
	*e = (struct tournament_entry){
		.at = row->at, .round = row->round, .player = row->player_id,
		.other = row->other_id, .game = row->game,
		.rating = row->rating,
	};
	if (tournament_kind_parse(row->kind, &e->kind) < 0)
		return -1;
	if (row->outcome != NULL &&
	    tournament_outcome_parse(row->outcome, &e->outcome) < 0)
		return -1;
	/* The replay reads a round of a result as nothing. */
	if (e->kind == TOURNAMENT_RESULT || e->kind == TOURNAMENT_ADJUDICATION)
		e->round = 0;
	return 0;
}

static int event_replay(struct handle *h, struct event_view *v)
{
	struct tournament_fault fault;

	tournament_state_free(&v->state);
	if (tournament_replay(v->entries, v->nentries, &v->t->rules,
			      &v->state, &fault) < 0) {
		snprintf(h->srv->errbuf, sizeof(h->srv->errbuf),
			 "tournament %s: entry %zu does not replay: %s",
			 v->t->club.name, fault.index + 1,
			 tournament_error_name(fault.error));
		return server_store_fail(h, h->srv->errbuf);
	}
	return 0;
}

int event_load(struct handle *h, const struct server_tournament *t,
	       struct event_view *v)
{
	struct store_tournament_entry *rows = NULL;
	const char *error;
	size_t n = 0;
	int ret = 0;

	memset(v, 0, sizeof(*v));
	v->t = t;
	if (store_tournament_entries(h->srv->store, t->club.name, &rows, &n,
				     &error) < 0 ||
	    store_tournament_games(h->srv->store, t->club.name, &v->links,
				   &v->nlinks, &error) < 0 ||
	    store_tournament_times(h->srv->store, t->club.name,
				   &v->started_at, &v->ended_at, &error) < 0) {
		ret = server_store_fail(h, error);
		goto out;
	}
	v->entries = calloc(n + 1, sizeof(*v->entries));
	v->ats = calloc(n + 1, sizeof(*v->ats));
	if (v->entries == NULL || v->ats == NULL) {
		ret = server_store_fail(h, "out of memory");
		goto out;
	}
	v->room = n + 1;
	for (size_t i = 0; i < n; i++) {
		if (event_entry_read(&rows[i], &v->entries[i]) < 0) {
			ret = server_store_fail(h, "an event entry this ashesd "
						"does not know");
			goto out;
		}
		v->ats[i] = rows[i].at;
	}
	v->nentries = n;
	/* Every entry was checked against the log before it was recorded:
	 * a log that does not replay is a broken store. */
	ret = event_replay(h, v);
out:
	store_rows_free(&rows, n, sizeof(*rows), store_tournament_entry_clear);
	if (ret < 0)
		event_free(v);
	return ret;
}

void event_free(struct event_view *v)
{
	free(v->entries);
	free(v->ats);
	tournament_state_free(&v->state);
	store_rows_free(&v->links, v->nlinks, sizeof(*v->links),
			store_tournament_game_clear);
	memset(v, 0, sizeof(*v));
}

int event_record(struct handle *h, struct event_view *v,
		 const struct tournament_entry *e, const char *actor,
		 const char *note)
{
	struct store_tournament_entry row;
	const char *error;

	if (v->nentries + 1 >= v->room) {
		size_t room = v->room * 2 + 8;
		struct tournament_entry *ne =
			realloc(v->entries, room * sizeof(*ne));
		int64_t *na;

		if (ne == NULL)
			return server_store_fail(h, "out of memory");
		v->entries = ne;
		na = realloc(v->ats, room * sizeof(*na));
		if (na == NULL)
			return server_store_fail(h, "out of memory");
		v->ats = na;
		v->room = room;
	}
	v->entries[v->nentries] = *e;
	v->entries[v->nentries].at = h->now;
	v->ats[v->nentries] = h->now;
	v->nentries++;
	/* Checked by the replay first: an entry that cannot follow the log
	 * is the caller's failure, never recorded. */
	if (event_replay(h, v) < 0) {
		v->nentries--;
		return -1;
	}
	row = (struct store_tournament_entry){
		.tournament = (char *)v->t->club.name,
		.kind = (char *)tournament_kind_name(e->kind),
		.at = h->now, .round = e->round, .player_id = e->player,
		.other_id = e->other, .game = e->game,
		.rating = e->rating, .actor = (char *)actor,
		.note = (char *)note, .inbound_id = h->inbound_id,
	};
	if (e->kind == TOURNAMENT_RESULT || e->kind == TOURNAMENT_ADJUDICATION)
		row.outcome = (char *)tournament_outcome_name(e->outcome);
	if (store_tournament_entry_add(h->srv->store, &row, NULL, &error) < 0)
		return server_store_fail(h, error);
	return 0;
}

const struct store_tournament_game *event_link_of(const struct event_view *v,
						  int64_t number)
{
	for (size_t i = 0; i < v->nlinks; i++)
		if (v->links[i].number == number)
			return &v->links[i];
	return NULL;
}

int64_t event_round_paired_at(const struct event_view *v, int round)
{
	for (size_t i = 0; i < v->nentries; i++)
		if ((v->entries[i].kind == TOURNAMENT_PAIRING ||
		     v->entries[i].kind == TOURNAMENT_BYE) &&
		    v->entries[i].round == round)
			return v->ats[i];
	return 0;
}

bool event_round_done(const struct event_view *v, int round)
{
	for (size_t i = 0; i < v->state->ngames; i++) {
		const struct tournament_game *g = &v->state->games[i];

		if (g->round == round && g->outcome == TOURNAMENT_UNFINISHED &&
		    !g->forfeit)
			return false;
	}
	return true;
}

/* ---- the event's games -------------------------------------------------- */

int event_game_create(struct handle *h, struct event_view *v, int round,
		      int64_t white, int64_t black, int64_t *number_r,
		      int64_t *game_id_r)
{
	struct store_tournament_game link;
	struct tournament_entry e;
	const char *error;
	int64_t number, id = 0;
	bool white_out, black_out;
	ptrdiff_t wi = tournament_player_index(v->state, white);
	ptrdiff_t bi = tournament_player_index(v->state, black);

	*game_id_r = 0;
	if (store_tournament_next_game(h->srv->store, v->t->club.name, &number,
				       &error) < 0)
		return server_store_fail(h, error);
	*number_r = number;
	memset(&e, 0, sizeof(e));
	e.kind = TOURNAMENT_PAIRING;
	e.round = round;
	e.game = number;
	e.player = white;
	e.other = black;
	if (event_record(h, v, &e, "daemon", NULL) < 0)
		return -1;
	/* A withdrawn player's scheduled game (a round robin's) is in the
	 * log and lost by them: no game is played. */
	white_out = wi >= 0 && v->state->players[wi].withdrawn;
	black_out = bi >= 0 && v->state->players[bi].withdrawn;
	if (white_out || black_out)
		return 0;
	if (club_game_new(h, &v->t->club, white, black, true, &id) < 0)
		return -1;
	memset(&link, 0, sizeof(link));
	link.game_id = id;
	link.tournament = (char *)v->t->club.name;
	link.round = round;
	link.number = number;
	link.rated = v->t->club.rated;
	if (store_tournament_game_add(h->srv->store, &link, &error) < 0)
		return server_store_fail(h, error);
	/* and in v, by number as loaded: numbers only grow */
	{
		struct store_tournament_game *nl =
			realloc(v->links, (v->nlinks + 1) * sizeof(*nl));

		if (nl == NULL)
			return server_store_fail(h, "out of memory");
		v->links = nl;
		v->links[v->nlinks] = link;
		v->links[v->nlinks].tournament = strdup(v->t->club.name);
		if (v->links[v->nlinks].tournament == NULL)
			return server_store_fail(h, "out of memory");
		v->nlinks++;
	}
	*game_id_r = id;
	return 0;
}

/* The outcome of stored game r (finished or cancelled).  A game is
 * cancelled when a flag fell before its player's first move: in an event
 * that is a loss for the player who never moved (the one to move), not a
 * game that never was -- a round must end.  Any other cancelled game is
 * a draw. */
static enum tournament_outcome event_outcome_of(const struct store_game *r)
{
	if (r->status == STORE_GAME_CANCELLED && r->ply <= 1)
		return r->ply == 0 ? TOURNAMENT_BLACK_WINS :
				     TOURNAMENT_WHITE_WINS;
	if (r->result != NULL && strcmp(r->result, "1-0") == 0)
		return TOURNAMENT_WHITE_WINS;
	if (r->result != NULL && strcmp(r->result, "0-1") == 0)
		return TOURNAMENT_BLACK_WINS;
	return TOURNAMENT_DRAWN;
}

/* The game of the event whose number is `number`, in the replay. */
static const struct tournament_game *
event_game_of(const struct event_view *v, int64_t number)
{
	for (size_t i = 0; i < v->state->ngames; i++)
		if (v->state->games[i].game == number)
			return &v->state->games[i];
	return NULL;
}

/* One ended game of an event: its RESULT (unless the log decided it
 * already: an adjudication, or a forfeit by a withdrawal), and its
 * rating. */
static int event_result_one(struct handle *h, int64_t game_id,
			    size_t *rated_r)
{
	const struct server_tournament *t;
	struct store_tournament_game tg;
	const struct tournament_game *eg;
	struct event_view v;
	struct game g;
	const char *error;
	bool rated = false;
	int r, ret = 0;

	r = store_tournament_game_get(h->srv->store, game_id, &tg, &error);
	if (r <= 0)
		return r < 0 ? server_store_fail(h, error) : 0;
	t = club_tournament_find(h->srv, tg.tournament);
	/* An event gone from the configuration: its results wait. */
	if (t == NULL) {
		store_tournament_game_clear(&tg);
		return 0;
	}
	r = game_load(h, game_id, &g, false);
	if (r <= 0) {
		store_tournament_game_clear(&tg);
		return r < 0 ? -1 : 0;
	}
	ret = event_load(h, t, &v);
	eg = ret == 0 ? event_game_of(&v, tg.number) : NULL;
	if (ret == 0 && eg != NULL && eg->outcome == TOURNAMENT_UNFINISHED &&
	    !eg->forfeit) {
		struct tournament_entry e;

		memset(&e, 0, sizeof(e));
		e.kind = TOURNAMENT_RESULT;
		e.round = tg.round;
		e.game = tg.number;
		/* the colours as the game ended (a swap counts) */
		e.player = g.row->white_id;
		e.other = g.row->black_id;
		e.outcome = event_outcome_of(g.row);
		ret = event_record(h, &v, &e, "daemon", g.row->end_reason);
	}
	if (ret == 0 && tg.rated)
		ret = club_rate_game(h, &g, h->now, &rated);
	if (ret == 0 && store_tournament_game_applied(h->srv->store, game_id,
						      h->now, &error) < 0)
		ret = server_store_fail(h, error);
	*rated_r += rated;
	event_free(&v);
	game_free(&g);
	store_tournament_game_clear(&tg);
	return ret;
}

int event_take_results(struct handle *h, size_t limit, size_t *taken_r,
		       size_t *rated_r)
{
	int64_t *ids = NULL;
	size_t n = 0;
	const char *error;
	int ret = 0;

	if (store_tournament_pending(h->srv->store, limit, &ids, &n,
				     &error) < 0)
		return server_store_fail(h, error);
	for (size_t i = 0; ret == 0 && i < n; i++) {
		ret = event_result_one(h, ids[i], rated_r);
		*taken_r += ret == 0;
	}
	free(ids);
	return ret;
}

/* ---- a game decided ------------------------------------------------------ */

/* Running game g of event v ended by reason for side (the loser; a
 * draw: any), through its normal end: the row finished and saved, both
 * players told, with flag set for result.txt.  0 or -1. */
static int event_end_game(struct handle *h, const struct event_view *v,
			  struct game *g, enum core_end_reason reason,
			  enum core_color side, const char *flag,
			  bool by_deadline)
{
	struct template_ctx *ctx;
	enum core_error err;
	int ret;

	if (record_end(&g->rec, reason, side, &err) < 0)
		return server_store_fail(h, core_error_name(err));
	if (game_finish_row(h, g) < 0 || game_save(h, g) < 0)
		return -1;
	ctx = template_ctx_new();
	game_ctx(h, g, ctx);
	template_ctx_set(ctx, "tournament", v->t->club.name);
	template_ctx_set_bool(ctx, flag, true);
	template_ctx_set_bool(ctx, "by_deadline", by_deadline);
	ret = notice_game(h, g, g->rec.nplies, ctx);
	template_ctx_free(&ctx);
	return ret;
}


int event_decide(struct handle *h, struct event_view *v, int64_t game_id,
		 enum tournament_outcome outcome, const char *actor,
		 const char *note)
{
	struct store_tournament_game tg;
	struct tournament_entry e;
	struct game g;
	const char *error;
	int r, ret = 0;

	r = store_tournament_game_get(h->srv->store, game_id, &tg, &error);
	if (r < 0)
		return server_store_fail(h, error);
	if (r == 0 || strcmp(tg.tournament, v->t->club.name) != 0) {
		store_tournament_game_clear(&tg);
		return server_refuse(h, "tournament_no_such_game");
	}
	r = game_load(h, game_id, &g, true);
	if (r <= 0) {
		store_tournament_game_clear(&tg);
		return r < 0 ? -1 : REFUSED;
	}
	memset(&e, 0, sizeof(e));
	e.kind = TOURNAMENT_ADJUDICATION;
	e.round = tg.round;
	e.game = tg.number;
	e.player = g.row->white_id;
	e.other = g.row->black_id;
	e.outcome = outcome;
	ret = event_record(h, v, &e, actor, note);
	/* A game still running ends with the decision, through its normal
	 * end: the players are told, the result is taken (the log has it
	 * already) and rated like any other. */
	if (ret == 0 && g.row->status == STORE_GAME_ACTIVE && g.rec_ok)
		ret = outcome == TOURNAMENT_DRAWN ?
		      event_end_game(h, v, &g, CORE_END_AGREED_DRAW,
				     CORE_WHITE, "adjudicated",
				     strcmp(actor, "daemon") == 0) :
		      event_end_game(h, v, &g, CORE_END_TIME,
				     outcome == TOURNAMENT_WHITE_WINS ?
				     CORE_BLACK : CORE_WHITE, "adjudicated",
				     strcmp(actor, "daemon") == 0);
	game_free(&g);
	store_tournament_game_clear(&tg);
	return ret;
}

int event_resign_games(struct handle *h, struct event_view *v, int64_t pid)
{
	int ret = 0;

	for (size_t i = 0; ret == 0 && i < v->nlinks; i++) {
		struct game g;
		int r = game_load(h, v->links[i].game_id, &g, true);

		if (r <= 0) {
			ret = r < 0 ? -1 : 0;
			continue;
		}
		if (g.row->status == STORE_GAME_ACTIVE && g.rec_ok &&
		    (g.row->white_id == pid || g.row->black_id == pid))
			ret = event_end_game(h, v, &g, CORE_END_RESIGNATION,
					     g.row->white_id == pid ?
					     CORE_WHITE : CORE_BLACK,
					     "event_withdrawal", false);
		game_free(&g);
	}
	return ret;
}
