/* club_tournament_cmd.c -- the events as players and the operator read
 * and change them: the `tournament` command by mail (`tournament list`,
 * `tournament NAME`: the entrants, the round, its pairings, the standings
 * with their tie-breaks and the crosstable; `tournament join NAME`,
 * `tournament leave NAME`), the view every event mail shares
 * (mail/tournament.txt), and the operator's server_tournament_show,
 * server_tournament_withdraw and server_tournament_adjudicate (server.h).
 * The standings are always replayed from the log (tournament.h), never
 * stored. */
#include "server/server_private.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/knockout.h"

/* ---- numbers as players read them ---------------------------------------- */

/* n / denom (denom 2 or 4) as "3", "2½", "0.25": halves with the sign the
 * mails use for a draw, quarters as decimals. */
static void event_fraction(int64_t n, int denom, char *buf, size_t size)
{
	int64_t whole = n / denom, part = n % denom;

	if (part < 0) {
		part += denom;
		whole--;
	}
	if (part == 0)
		snprintf(buf, size, "%" PRId64, whole);
	else if (denom == 2)
		snprintf(buf, size, whole != 0 ? "%" PRId64 "\u00bd" : "\u00bd",
			 whole);
	else
		snprintf(buf, size, "%" PRId64 ".%02d", whole,
			 (int)(part * 100 / denom));
}

static void event_set_points(struct template_ctx *ctx, const char *key,
			     int64_t half_points)
{
	char buf[32];

	event_fraction(half_points, 2, buf, sizeof(buf));
	template_ctx_set(ctx, key, buf);
}

/* A tie-break's value as read: points (halves), Sonneborn-Berger
 * (quarters), counts. */
static void event_tiebreak_text(enum tournament_tiebreak tb, int64_t value,
				char *buf, size_t size)
{
	if (tb == TOURNAMENT_TB_SONNEBORN_BERGER)
		event_fraction(value, 4, buf, size);
	else if (tb == TOURNAMENT_TB_WINS || tb == TOURNAMENT_TB_RATING)
		snprintf(buf, size, "%" PRId64, value);
	else
		event_fraction(value, 2, buf, size);
}

static int event_name_of(struct handle *h, const struct event_view *v,
			 size_t index, char *name)
{
	return game_player_name(h, v->state->players[index].player, name);
}

/* ---- a round ------------------------------------------------------------- */

int event_round_ctx(struct handle *h, const struct event_view *v, int round,
		    int64_t reader, struct template_ctx *ctx)
{
	int ret = 0, board = 0;

	template_ctx_set_int(ctx, "round", round);
	template_ctx_list(ctx, "pairings");
	template_ctx_list(ctx, "byes");
	for (size_t i = 0; ret == 0 && i < v->state->ngames; i++) {
		const struct tournament_game *eg = &v->state->games[i];
		const struct store_tournament_game *link;
		struct template_ctx *it;
		char white[COMMAND_NAME_MAX + 1], black[COMMAND_NAME_MAX + 1];
		int64_t wp = v->state->players[eg->white].player;
		int64_t bp = v->state->players[eg->black].player;

		if (eg->round != round)
			continue;
		it = template_ctx_add(ctx, "pairings");
		ret = event_name_of(h, v, eg->white, white);
		if (ret == 0)
			ret = event_name_of(h, v, eg->black, black);
		template_ctx_set_int(it, "board", ++board);
		template_ctx_set(it, "white", white);
		template_ctx_set(it, "black", black);
		link = event_link_of(v, eg->game);
		if (link != NULL)
			template_ctx_setf(it, "game", "%" PRId64, link->game_id);
		template_ctx_set_bool(it, "white_wins",
				      eg->outcome == TOURNAMENT_WHITE_WINS);
		template_ctx_set_bool(it, "black_wins",
				      eg->outcome == TOURNAMENT_BLACK_WINS);
		template_ctx_set_bool(it, "drawn",
				      eg->outcome == TOURNAMENT_DRAWN);
		template_ctx_set_bool(it, "forfeit", eg->forfeit);
		template_ctx_set_bool(it, "adjudicated", eg->adjudicated);
		template_ctx_set_bool(it, "running",
				      eg->outcome == TOURNAMENT_UNFINISHED &&
				      !eg->forfeit);
		if (reader != 0 && (wp == reader || bp == reader)) {
			template_ctx_set_bool(it, "me", true);
			template_ctx_set_bool(ctx, "my_white", wp == reader);
			template_ctx_set(ctx, "my_opponent",
					 wp == reader ? black : white);
			if (link != NULL)
				template_ctx_setf(ctx, "my_game", "%" PRId64,
						  link->game_id);
			template_ctx_set_bool(ctx, "my_no_game", link == NULL);
		}
	}
	for (size_t i = 0; ret == 0 && i < v->state->nbyes; i++) {
		const struct tournament_bye *b = &v->state->byes[i];
		struct template_ctx *it;
		char name[COMMAND_NAME_MAX + 1];

		if (b->round != round)
			continue;
		it = template_ctx_add(ctx, "byes");
		ret = event_name_of(h, v, b->player, name);
		template_ctx_set(it, "name", name);
		if (reader != 0 && v->state->players[b->player].player == reader)
			template_ctx_set_bool(ctx, "my_bye", true);
	}
	return ret;
}

/* ---- the standings and the crosstable ------------------------------------- */

/* The crosstable cell of row player a against b: each game that counts,
 * "1", "½", "0", a forfeit "+" or "-"; "x" oneself, "." never met. */
static void event_cell(const struct tournament_state *st, size_t a, size_t b,
		       char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	if (a == b) {
		snprintf(buf, size, "x");
		return;
	}
	for (size_t i = 0; i < st->ngames && len + 4 < size; i++) {
		const struct tournament_game *g = &st->games[i];
		bool white = g->white == a && g->black == b;
		const char *s;

		if (!g->counts || !(white || (g->white == b && g->black == a)))
			continue;
		if (g->outcome == TOURNAMENT_DRAWN)
			s = "\u00bd";
		else if ((g->outcome == TOURNAMENT_WHITE_WINS) == white)
			s = g->forfeit ? "+" : "1";
		else
			s = g->forfeit ? "-" : "0";
		len += (size_t)snprintf(buf + len, size - len, "%s", s);
	}
	if (len == 0)
		snprintf(buf, size, ".");
}

/* standings[place, name, points, played, wins, draws, losses,
 * tiebreaks (each "name value"), cross (the crosstable's row), me, withdrawn,
 * removed, ko_place] in standings order; columns (the crosstable's
 * head), tiebreak_names[name], my_place, my_points. */
static int event_standings_ctx(struct handle *h, const struct event_view *v,
			       int64_t reader, struct template_ctx *ctx)
{
	const struct tournament_state *st = v->state;
	const struct tournament_rules *rules = &v->t->rules;
	struct tournament_row *rows = calloc(st->nplayers + 1, sizeof(*rows));
	int *places = calloc(st->nplayers + 1, sizeof(*places));
	struct knockout_match *m = NULL;
	struct buf cross = BUF_INIT;
	size_t nm = 0;
	int ret = 0;

	if (rows == NULL || places == NULL) {
		ret = server_store_fail(h, "out of memory");
		goto out;
	}
	tournament_standings(st, rules, rows);
	if (rules->format == TOURNAMENT_KNOCKOUT && st->nplayers >= 2) {
		m = calloc(knockout_size(st->nplayers) + 1, sizeof(*m));
		if (m == NULL) {
			ret = server_store_fail(h, "out of memory");
			goto out;
		}
		if (knockout_bracket(st, m, &nm, NULL) == 0)
			knockout_places(st, m, nm, places);
		/* A knockout is ranked by how far each went (those still in
		 * first), then as the standings have them: an insertion
		 * sort keeps that order among equals. */
		for (size_t i = 1; i < st->nplayers; i++) {
			struct tournament_row row = rows[i];
			int p = places[row.player] > 0 ? places[row.player] : 1;
			size_t j = i;

			for (; j > 0; j--) {
				size_t q = rows[j - 1].player;
				if ((places[q] > 0 ? places[q] : 1) <= p)
					break;
				rows[j] = rows[j - 1];
			}
			rows[j] = row;
		}
		for (size_t i = 0; i < st->nplayers; i++)
			rows[i].rank = places[rows[i].player] > 0 ?
				       places[rows[i].player] : 1;
	}
	template_ctx_list(ctx, "standings");
	template_ctx_list(ctx, "tiebreak_names");
	for (size_t k = 0; k < rules->ntiebreaks; k++)
		template_ctx_set(template_ctx_add(ctx, "tiebreak_names"),
				 "name",
				 tournament_tiebreak_name(rules->tiebreaks[k]));
	for (size_t i = 0; ret == 0 && i < st->nplayers; i++) {
		const struct tournament_player *p = &st->players[rows[i].player];
		struct template_ctx *it = template_ctx_add(ctx, "standings");
		char name[COMMAND_NAME_MAX + 1];

		ret = event_name_of(h, v, rows[i].player, name);
		template_ctx_set_int(it, "place", rows[i].rank);
		template_ctx_set(it, "name", name);
		event_set_points(it, "points", rows[i].points);
		template_ctx_set_int(it, "played", p->played);
		template_ctx_set_int(it, "wins", p->wins);
		template_ctx_set_int(it, "draws", p->draws);
		template_ctx_set_int(it, "losses", p->losses);
		template_ctx_set_bool(it, "withdrawn", p->withdrawn);
		template_ctx_set_bool(it, "removed", p->removed);
		if (places[rows[i].player] > 0)
			template_ctx_set_int(it, "ko_place",
					     places[rows[i].player]);
		template_ctx_set_bool(it, "me", reader != 0 &&
				      p->player == reader);
		buf_reset(&cross);
		for (size_t k = 0; k < rules->ntiebreaks; k++) {
			char value[32];

			event_tiebreak_text(rules->tiebreaks[k],
					    rows[i].tiebreak[k], value,
					    sizeof(value));
			buf_printf(&cross, "%s%s %s", k > 0 ? ", " : "",
				   tournament_tiebreak_name(rules->tiebreaks[k]),
				   value);
		}
		template_ctx_set(it, "tiebreaks", buf_str(&cross));
		/* the crosstable's row: a column of 3 for each player, by
		 * place (the symbols' widths, not their bytes) */
		buf_reset(&cross);
		for (size_t j = 0; j < st->nplayers; j++) {
			char cell[40];
			size_t w;

			event_cell(st, rows[i].player, rows[j].player, cell,
				   sizeof(cell));
			w = strcmp(cell, "\u00bd") == 0 ? 1 : strlen(cell);
			buf_printf(&cross, "%s%s", j > 0 ? " " : "", cell);
			for (; j + 1 < st->nplayers && w < 2; w++)
				buf_printf(&cross, " ");
		}
		template_ctx_set(it, "cross", buf_str(&cross));
		if (reader != 0 && p->player == reader) {
			template_ctx_set_int(ctx, "my_place", rows[i].rank);
			event_set_points(ctx, "my_points", rows[i].points);
		}
	}
	buf_reset(&cross);
	for (size_t j = 0; j < st->nplayers; j++)
		buf_printf(&cross, j + 1 < st->nplayers ? "%-3zu" : "%zu",
			   j + 1);
	template_ctx_set(ctx, "columns", buf_str(&cross));
out:
	buf_free(&cross);
	free(m);
	free(rows);
	free(places);
	return ret;
}

/* ---- the event ------------------------------------------------------------ */

static void event_rules_ctx(const struct server_tournament *t,
			    struct template_ctx *ctx)
{
	template_ctx_set(ctx, "tournament", t->club.name);
	template_ctx_set(ctx, "format", tournament_format_name(t->rules.format));
	template_ctx_set_bool(ctx, "swiss", t->rules.format == TOURNAMENT_SWISS);
	template_ctx_set_bool(ctx, "roundrobin",
			      t->rules.format == TOURNAMENT_ROUNDROBIN);
	template_ctx_set_bool(ctx, "knockout",
			      t->rules.format == TOURNAMENT_KNOCKOUT);
	template_ctx_set_bool(ctx, "double", t->rules.twice);
	template_ctx_set_bool(ctx, "open", t->club.open);
	template_ctx_set_bool(ctx, "rated", t->club.rated);
	event_set_points(ctx, "bye_points", t->rules.bye_points);
	template_ctx_set_int(ctx, "max_players", (long)t->max_players);
	server_set_utc(ctx, "start", t->start, false);
	server_set_utc(ctx, "signup_until", t->signup_until, false);
	if (t->round_deadline > 0)
		template_ctx_set_int(ctx, "deadline_days",
				     (long)((t->round_deadline + 86399) / 86400));
}

int club_tournament_ctx(struct handle *h, const struct server_tournament *t,
			int64_t reader, struct template_ctx *ctx)
{
	struct event_view v;
	int ret = event_load(h, t, &v);

	if (ret < 0)
		return -1;
	event_rules_ctx(t, ctx);
	template_ctx_set_int(ctx, "entrants", (long)v.state->nplayers);
	template_ctx_set_bool(ctx, "any_entrants", v.state->nplayers > 0);
	template_ctx_set_int(ctx, "rounds", event_rounds(&v));
	template_ctx_set_int(ctx, "rounds_paired", v.state->rounds_paired);
	template_ctx_set_bool(ctx, "started", v.started_at != 0);
	template_ctx_set_bool(ctx, "ended", v.ended_at != 0);
	template_ctx_set_bool(ctx, "signup", v.started_at == 0 && t->club.open &&
			      h->now < t->signup_until);
	template_ctx_set_bool(ctx, "reader", reader != 0);
	template_ctx_list(ctx, "players");
	for (size_t i = 0; ret == 0 && i < v.state->nplayers; i++) {
		struct template_ctx *it = template_ctx_add(ctx, "players");
		char name[COMMAND_NAME_MAX + 1];

		ret = event_name_of(h, &v, i, name);
		template_ctx_set_int(it, "seed", (long)i + 1);
		template_ctx_set(it, "name", name);
		template_ctx_set_int(it, "rating", v.state->players[i].rating);
		template_ctx_set_bool(it, "withdrawn",
				      v.state->players[i].withdrawn);
		if (reader != 0 && v.state->players[i].player == reader) {
			template_ctx_set_bool(it, "me", true);
			template_ctx_set_bool(ctx, "entered", true);
			template_ctx_set_bool(ctx, "my_withdrawn",
					      v.state->players[i].withdrawn);
		}
	}
	if (ret == 0 && v.state->rounds_paired > 0)
		ret = event_round_ctx(h, &v, v.state->rounds_paired, reader,
				      ctx);
	if (ret == 0 && v.started_at != 0)
		ret = event_standings_ctx(h, &v, reader, ctx);
	event_free(&v);
	return ret;
}

int club_tournament_entered(struct handle *h,
			    const struct server_tournament *t, int64_t pid)
{
	struct event_view v;
	ptrdiff_t i;

	if (event_load(h, t, &v) < 0)
		return -1;
	i = tournament_player_index(v.state, pid);
	event_free(&v);
	return i >= 0;
}

/* ---- join, leave, withdraw ------------------------------------------------ */

static int event_refuse(struct handle *h, const char *code, const char *name)
{
	server_refuse(h, code);
	template_ctx_set(h->refusal, "tournament", name);
	return REFUSED;
}

/* Player pid out of event v, by their mail (LEAVE) or the operator
 * (WITHDRAW): the results of games that ended first, then the entry with
 * the rounds paired, then their running games resigned.  0 or -1. */
static int event_withdraw(struct handle *h, struct event_view *v, int64_t pid,
			  bool by_operator, const char *note)
{
	struct tournament_entry e;
	size_t taken = 0, rated = 0;
	int ret = event_take_results(h, 0, &taken, &rated);

	if (ret == 0 && taken > 0) {
		const struct server_tournament *t = v->t;

		event_free(v);
		ret = event_load(h, t, v);
	}
	if (ret < 0)
		return -1;
	memset(&e, 0, sizeof(e));
	e.kind = by_operator ? TOURNAMENT_WITHDRAW : TOURNAMENT_LEAVE;
	e.player = pid;
	e.round = v->state->rounds_paired;
	ret = event_record(h, v, &e, by_operator ? "operator" : "mail", note);
	if (ret == 0 && v->started_at != 0)
		ret = event_resign_games(h, v, pid);
	return ret;
}

static int event_signup(struct handle *h, const struct server_tournament *t,
			bool join, struct template_ctx *out)
{
	struct event_view v;
	ptrdiff_t i;
	int ret = event_load(h, t, &v);

	if (ret < 0)
		return -1;
	i = tournament_player_index(v.state, h->me->id);
	if (v.ended_at != 0)
		ret = event_refuse(h, "tournament_over", t->club.name);
	else if (join && i >= 0)
		ret = event_refuse(h, "tournament_already_entered",
				   t->club.name);
	else if (join && !t->club.open)
		ret = event_refuse(h, "tournament_listed_only", t->club.name);
	else if (join && (v.started_at != 0 || h->now >= t->signup_until))
		ret = event_refuse(h, "tournament_closed", t->club.name);
	else if (join && v.state->nplayers >= t->max_players)
		ret = event_refuse(h, "tournament_full", t->club.name);
	else if (!join && (i < 0 || v.state->players[i].withdrawn))
		ret = event_refuse(h, "tournament_not_entered", t->club.name);
	if (ret == REFUSED) {
		template_ctx_set_int(h->refusal, "max_players",
				     (long)t->max_players);
		server_set_utc(h->refusal, "signup_until", t->signup_until,
			       false);
		template_ctx_set_bool(h->refusal, "started", v.started_at != 0);
		goto out;
	}
	if (join) {
		struct tournament_entry e;

		memset(&e, 0, sizeof(e));
		e.kind = TOURNAMENT_JOIN;
		e.player = h->me->id;
		ret = event_rating_of(h, h->me->id, &e.rating);
		if (ret == 0)
			ret = event_record(h, &v, &e, "mail", NULL);
	} else {
		ret = event_withdraw(h, &v, h->me->id, false, NULL);
	}
	template_ctx_set_bool(out, join ? "joined" : "left", true);
	template_ctx_set_bool(out, "left_running", !join && v.started_at != 0);
	if (ret == 0)
		ret = club_tournament_ctx(h, t, h->me->id, out);
out:
	event_free(&v);
	return ret;
}

static int event_list(struct handle *h, struct template_ctx *out)
{
	int ret = 0;

	template_ctx_list(out, "tournaments");
	template_ctx_set_bool(out, "any_tournaments",
			      h->srv->cfg.ntournaments > 0);
	for (size_t i = 0; ret == 0 && i < h->srv->cfg.ntournaments; i++) {
		const struct server_tournament *t = &h->srv->cfg.tournaments[i];
		struct template_ctx *it = template_ctx_add(out, "tournaments");
		struct event_view v;
		ptrdiff_t me;

		if (event_load(h, t, &v) < 0)
			return -1;
		event_rules_ctx(t, it);
		template_ctx_set(it, "name", t->club.name);
		template_ctx_set_int(it, "entrants", (long)v.state->nplayers);
		template_ctx_set_int(it, "round", v.state->rounds_paired);
		template_ctx_set_int(it, "rounds", event_rounds(&v));
		template_ctx_set_bool(it, "started", v.started_at != 0);
		template_ctx_set_bool(it, "ended", v.ended_at != 0);
		template_ctx_set_bool(it, "signup", v.started_at == 0 &&
				      t->club.open && h->now < t->signup_until);
		me = h->me != NULL ? tournament_player_index(v.state, h->me->id)
				   : -1;
		template_ctx_set_bool(it, "entered", me >= 0);
		event_free(&v);
	}
	return ret;
}

int club_tournament_run(struct handle *h, const struct command *c,
			struct game *g, struct template_ctx *out)
{
	const struct server_tournament *t;

	(void)g;
	if (c->club_action == COMMAND_CLUB_LIST) {
		template_ctx_set_bool(out, "list", true);
		return event_list(h, out);
	}
	t = club_tournament_find(h->srv, c->club);
	if (t == NULL)
		return event_refuse(h, "no_such_tournament", c->club);
	if (c->club_action == COMMAND_CLUB_JOIN ||
	    c->club_action == COMMAND_CLUB_LEAVE)
		return event_signup(h, t, c->club_action == COMMAND_CLUB_JOIN,
				    out);
	template_ctx_set_bool(out, "show", true);
	return club_tournament_ctx(h, t, h->me != NULL ? h->me->id : 0, out);
}

/* ---- the operator ---------------------------------------------------------- */

/* The operator's call: event `name` in its own transaction (write) or
 * none, run, its output rendered from tpl. */
static int event_admin(struct server *server, const char *name, int64_t now,
		       bool write,
		       int (*run)(struct handle *h,
				  const struct server_tournament *t,
				  const void *arg, struct template_ctx *ctx),
		       const void *arg, const char *tpl, struct buf *out,
		       const char **error_r)
{
	const struct server_tournament *t = club_tournament_find(server, name);
	struct template_ctx *ctx;
	struct handle h;
	const char *error;
	int ret = 0;

	if (t == NULL) {
		snprintf(server->errbuf, sizeof(server->errbuf),
			 "no tournament \"%s\" in the configuration", name);
		*error_r = server->errbuf;
		return -1;
	}
	server_handle_at(server, &h, now);
	if (write && store_begin(server->store, &error) < 0) {
		*error_r = error;
		return -1;
	}
	ctx = template_ctx_new();
	ret = run(&h, t, arg, ctx);
	if (ret == REFUSED) {
		/* admin_fail's words are in errbuf already */
		if (h.error == NULL)
			h.error = "refused";
		ret = -1;
	}
	if (ret == 0)
		ret = club_tournament_ctx(&h, t, 0, ctx);
	if (ret == 0)
		ret = server_render(&h, tpl, ctx, out);
	if (ret == 0 && write && store_commit(server->store, &error) < 0)
		ret = server_store_fail(&h, error);
	template_ctx_free(&ctx);
	template_ctx_free(&h.refusal);
	if (ret < 0) {
		char why[sizeof(server->errbuf) - 48];

		snprintf(why, sizeof(why), "%s", h.error != NULL ? h.error :
			 "failure");
		snprintf(server->errbuf, sizeof(server->errbuf),
			 "tournament %s: %s", t->club.name, why);
		*error_r = server->errbuf;
		if (write)
			store_rollback(server->store);
		return -1;
	}
	return 0;
}

static int admin_nothing(struct handle *h, const struct server_tournament *t,
			 const void *arg, struct template_ctx *ctx)
{
	(void)h;
	(void)t;
	(void)arg;
	(void)ctx;
	return 0;
}

int server_tournament_show(struct server *server, const char *name,
			   int64_t now, struct buf *out, const char **error_r)
{
	return event_admin(server, name, now, false, admin_nothing, NULL,
			   "admin-tournament.txt", out, error_r);
}

struct admin_change {
	const char *player;
	int64_t game;
	enum tournament_outcome outcome;
	const char *note;
};

/* The operator's failure in words (no mail: the refusal's code is
 * theirs). */
static int admin_fail(struct handle *h, const char *what, const char *why)
{
	snprintf(h->srv->errbuf, sizeof(h->srv->errbuf), "%s %s", what, why);
	h->error = h->srv->errbuf;
	return REFUSED;
}

static int admin_withdraw(struct handle *h, const struct server_tournament *t,
			  const void *arg, struct template_ctx *ctx)
{
	const struct admin_change *c = arg;
	struct store_player *p = NULL;
	struct event_view v;
	const char *error;
	ptrdiff_t i;
	int r = store_player_by_name(h->srv->store, c->player, &p, &error);

	if (r < 0)
		return server_store_fail(h, error);
	if (r == 0)
		return admin_fail(h, c->player, "is no player");
	r = event_load(h, t, &v);
	if (r == 0) {
		i = tournament_player_index(v.state, p->id);
		if (v.ended_at != 0)
			r = admin_fail(h, t->club.name, "is over");
		else if (i < 0 || v.state->players[i].withdrawn)
			r = admin_fail(h, p->name, "is not an entrant");
		else
			r = event_withdraw(h, &v, p->id, true, c->note);
	}
	template_ctx_set(ctx, "withdrawn_player", p->name);
	event_free(&v);
	store_player_free(&p);
	return r;
}

static int admin_adjudicate(struct handle *h, const struct server_tournament *t,
			    const void *arg, struct template_ctx *ctx)
{
	const struct admin_change *c = arg;
	struct event_view v;
	int r = event_load(h, t, &v);

	if (r == 0)
		r = event_decide(h, &v, c->game, c->outcome, "operator",
				 c->note);
	if (r == REFUSED) {
		char game[40];

		snprintf(game, sizeof(game), "game %" PRId64, c->game);
		r = admin_fail(h, game, "is not a game of this tournament");
	}
	template_ctx_setf(ctx, "adjudicated_game", "%" PRId64, c->game);
	template_ctx_set(ctx, "adjudicated_result",
			 tournament_outcome_name(c->outcome));
	event_free(&v);
	return r;
}

int server_tournament_withdraw(struct server *server, const char *name,
			       const char *player, const char *note,
			       int64_t now, struct buf *out,
			       const char **error_r)
{
	struct admin_change c = { .player = player, .note = note };

	return event_admin(server, name, now, true, admin_withdraw, &c,
			   "admin-tournament.txt", out, error_r);
}

int server_tournament_adjudicate(struct server *server, const char *name,
				 int64_t game_id, const char *result,
				 const char *note, int64_t now,
				 struct buf *out, const char **error_r)
{
	struct admin_change c = { .game = game_id, .note = note };

	if (result == NULL ||
	    tournament_outcome_parse(result, &c.outcome) < 0 ||
	    c.outcome == TOURNAMENT_UNFINISHED) {
		*error_r = "a result is white, black or draw";
		return -1;
	}
	if (note == NULL || note[0] == '\0') {
		*error_r = "an adjudication needs a note saying why";
		return -1;
	}
	return event_admin(server, name, now, true, admin_adjudicate, &c,
			   "admin-tournament.txt", out, error_r);
}
