/* club_tournament.c -- the events' work that no mail asks for, run by
 * the clocks' timer in its transaction (club_timer.c): the results of
 * ended games taken into the logs; the configuration's members entered
 * once registered; an event begun at its start (its sign-up closed,
 * round 1 paired, its games created and started, White told "your move",
 * every entrant told the round's pairing); the next round paired only
 * when every game of the current one has a result (Swiss: swiss_pair_next;
 * round robin: the schedule, a withdrawn player's games in the log but
 * never created; knockout: each match's next game as soon as it is due);
 * the games still running at the round's deadline decided (the player
 * with less time left loses; equal, or no clock: a draw), recorded as the
 * daemon's adjudication; and an event over ended, each entrant mailed the
 * final standings.  Each step is idempotent: what is done is in the log,
 * so a run that fails or is repeated does nothing twice, and a reloaded
 * configuration never changes a round already paired. */
#include "server/server_private.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/knockout.h"
#include "server/roundrobin.h"
#include "server/swiss.h"

/* Results taken in one run: the rest wait for the next. */
#define EVENT_RESULTS_PER_RUN 500

/* ---- the entrants ------------------------------------------------------- */

/* Whether the log names pid at all (a member who left is not entered
 * again by the timer). */
static bool event_seen(const struct event_view *v, int64_t pid)
{
	for (size_t i = 0; i < v->nentries; i++)
		if (v->entries[i].player == pid &&
		    (v->entries[i].kind == TOURNAMENT_JOIN ||
		     v->entries[i].kind == TOURNAMENT_LEAVE ||
		     v->entries[i].kind == TOURNAMENT_WITHDRAW))
			return true;
	return false;
}

/* The configuration's members, once registered, entered before the
 * start (in the order listed, up to max_players). */
static int event_members(struct handle *h, struct event_view *v)
{
	const struct server_club *club = &v->t->club;
	int ret = 0;

	for (size_t i = 0; ret == 0 && i < club->nmembers; i++) {
		struct store_player *p = NULL;
		struct tournament_entry e;
		const char *error;
		int r = store_player_by_name(h->srv->store, club->members[i],
					     &p, &error);

		if (r < 0)
			return server_store_fail(h, error);
		if (r == 1 && !event_seen(v, p->id) &&
		    v->state->nplayers < v->t->max_players) {
			memset(&e, 0, sizeof(e));
			e.kind = TOURNAMENT_JOIN;
			e.player = p->id;
			ret = event_rating_of(h, p->id, &e.rating);
			if (ret == 0)
				ret = event_record(h, v, &e, "daemon",
						   "listed in the configuration");
		}
		store_player_free(&p);
	}
	return ret;
}

/* ---- a round paired ------------------------------------------------------ */

/* One game of a round: paired, created and started. */
static int event_pair_game(struct handle *h, struct event_view *v, int round,
			   size_t white, size_t black)
{
	int64_t number, id;
	int ret = event_game_create(h, v, round, v->state->players[white].player,
				    v->state->players[black].player, &number,
				    &id);

	if (ret == 0 && id != 0)
		ret = club_game_begin(h, id, "tournament", v->t->club.name,
				      "round", round, NULL, 0);
	return ret;
}

static int event_bye(struct handle *h, struct event_view *v, int round,
		     size_t player)
{
	struct tournament_entry e;

	memset(&e, 0, sizeof(e));
	e.kind = TOURNAMENT_BYE;
	e.round = round;
	e.player = v->state->players[player].player;
	return event_record(h, v, &e, "daemon", NULL);
}

/* Event mail tpl to entrant index i of v: recipient, the flag `what`,
 * paired_round when round > 0, the event's view. */
static int event_mail(struct handle *h, struct event_view *v, size_t i,
		      const char *tpl, const char *what, int round)
{
	const struct tournament_player *tp = &v->state->players[i];
	struct store_player *p = NULL;
	struct template_ctx *ctx;
	struct buf body = BUF_INIT, subject = BUF_INIT;
	const char *error;
	int ret = store_player_load(h->srv->store, tp->player, &p, &error);

	if (ret <= 0)
		return ret < 0 ? server_store_fail(h, error) : 0;
	ctx = template_ctx_new();
	template_ctx_set(ctx, "recipient", p->name);
	template_ctx_set_bool(ctx, what, true);
	/* the view shows the latest round, the one just paired */
	if (round > 0)
		template_ctx_set_int(ctx, "paired_round", round);
	ret = club_tournament_ctx(h, v->t, tp->player, ctx);
	if (ret == 0)
		ret = server_render(h, tpl, ctx, &body);
	if (ret == 0)
		ret = server_render_line(h, "mail/subject-tournament.txt", ctx,
					 &subject);
	if (ret == 0)
		ret = server_queue_notice(h, p, NULL, false,
					  STORE_OUTBOX_KIND_TOURNAMENT, &subject,
					  &body);
	template_ctx_free(&ctx);
	buf_free(&body);
	buf_free(&subject);
	store_player_free(&p);
	return ret;
}

/* Every entrant still in told round `round`: their game (colours, its
 * number) or their bye, and the round's whole pairing
 * (mail/tournament-round.txt). */
static int event_tell_round(struct handle *h, struct event_view *v, int round)
{
	int ret = 0;

	for (size_t i = 0; ret == 0 && i < v->state->nplayers; i++)
		if (!v->state->players[i].withdrawn)
			ret = event_mail(h, v, i, "mail/tournament-round.txt",
					 "round_paired", round);
	return ret;
}

/* Round `round` as paired: the bye (-1: none), then each game. */
static int event_pair_round(struct handle *h, struct event_view *v, int round,
			    const struct tournament_pair *pairs, size_t np,
			    ptrdiff_t bye)
{
	int ret = 0;

	if (bye >= 0)
		ret = event_bye(h, v, round, (size_t)bye);
	for (size_t i = 0; ret == 0 && i < np; i++)
		ret = event_pair_game(h, v, round, pairs[i].white,
				      pairs[i].black);
	return ret;
}

/* Swiss round `round`: 1 paired, 0 if fewer than two players are left
 * (the event is over). */
static int event_pair_swiss(struct handle *h, struct event_view *v, int round)
{
	size_t n = v->state->nplayers, np = 0;
	struct tournament_pair *pairs = calloc(n / 2 + 1, sizeof(*pairs));
	struct tournament_fault fault;
	ptrdiff_t bye = -1;
	int ret = 0;

	if (pairs == NULL)
		return server_store_fail(h, "out of memory");
	if (swiss_pair_next(v->state, 0, pairs, &np, &bye, NULL, &fault) < 0) {
		free(pairs);
		if (fault.error == TOURNAMENT_ERR_TOO_FEW)
			return 0;
		snprintf(h->srv->errbuf, sizeof(h->srv->errbuf),
			 "tournament %s: round %d not paired: %s",
			 v->t->club.name, round,
			 tournament_error_name(fault.error));
		return server_store_fail(h, h->srv->errbuf);
	}
	ret = event_pair_round(h, v, round, pairs, np, bye);
	free(pairs);
	return ret < 0 ? -1 : 1;
}

/* Round robin round `round` of the schedule, the withdrawn players'
 * games included (recorded, never created). */
static int event_pair_roundrobin(struct handle *h, struct event_view *v,
				 int round)
{
	size_t n = v->state->nplayers, np;
	struct tournament_pair *pairs = calloc(n / 2 + 1, sizeof(*pairs));
	ptrdiff_t bye = -1;
	int ret;

	if (pairs == NULL)
		return server_store_fail(h, "out of memory");
	np = roundrobin_round(n, v->t->rules.twice, round, pairs, &bye);
	ret = event_pair_round(h, v, round, pairs, np, bye);
	free(pairs);
	return ret < 0 ? -1 : 1;
}

/* A knockout's games due now (the first of each match of round one, a
 * match's next game when its last ended, a decider): 1 if it is over (the
 * final decided), 0 if not. */
static int event_knockout(struct handle *h, struct event_view *v,
			  size_t *rounds_r)
{
	size_t size = knockout_size(v->state->nplayers), nm = 0;
	struct knockout_match *m = calloc(size + 1, sizeof(*m));
	struct tournament_fault fault;
	int ret = 0, told = 0, *tell = NULL;

	if (m == NULL)
		return server_store_fail(h, "out of memory");
	if (knockout_bracket(v->state, m, &nm, &fault) < 0) {
		free(m);
		snprintf(h->srv->errbuf, sizeof(h->srv->errbuf),
			 "tournament %s: no bracket: %s", v->t->club.name,
			 tournament_error_name(fault.error));
		return server_store_fail(h, h->srv->errbuf);
	}
	tell = calloc(v->state->nplayers + 1, sizeof(*tell));
	if (tell == NULL)
		ret = server_store_fail(h, "out of memory");
	/* The byes of round one, once, when the bracket is drawn. */
	for (size_t i = 0; ret == 0 && v->state->rounds_paired == 0 && i < nm;
	     i++) {
		size_t p;

		if (m[i].round != 1 || (m[i].a >= 0) == (m[i].b >= 0))
			continue;
		p = (size_t)(m[i].a >= 0 ? m[i].a : m[i].b);
		ret = event_bye(h, v, 1, p);
		tell[p] = 1;
	}
	for (size_t i = 0; ret == 0 && i < nm; i++) {
		struct tournament_pair pair;

		if (knockout_next_game(v->state, &m[i], &pair) != 1)
			continue;
		ret = event_pair_game(h, v, m[i].round, pair.white,
				      pair.black);
		tell[pair.white] = tell[pair.black] = m[i].round;
		if (ret == 0 && m[i].round > told) {
			told = m[i].round;
			*rounds_r += 1;
		}
	}
	/* Only the players of the new games are told: the others are out,
	 * or waiting for their next opponent. */
	for (size_t i = 0; ret == 0 && told > 0 && i < v->state->nplayers; i++)
		if (tell[i] != 0)
			ret = event_mail(h, v, i, "mail/tournament-round.txt",
					 "round_paired", tell[i]);
	free(tell);
	if (ret == 0 && nm > 0 && m[nm - 1].winner >= 0)
		ret = 1;
	free(m);
	return ret;
}

/* ---- deadlines ----------------------------------------------------------- */

/* When event game `number` was paired, or 0. */
static int64_t event_paired_at(const struct event_view *v, int64_t number)
{
	for (size_t i = 0; i < v->nentries; i++)
		if (v->entries[i].kind == TOURNAMENT_PAIRING &&
		    v->entries[i].game == number)
			return v->ats[i];
	return 0;
}

/* The games still running round_deadline after they were paired:
 * decided, the player with less time left losing (equal, or no clock:
 * a draw). */
static int event_deadlines(struct handle *h, struct event_view *v,
			   size_t *decided_r)
{
	int ret = 0;

	if (v->t->round_deadline <= 0)
		return 0;
	for (size_t i = 0; ret == 0 && i < v->state->ngames; i++) {
		const struct tournament_game *eg = &v->state->games[i];
		const struct store_tournament_game *link;
		enum tournament_outcome o = TOURNAMENT_DRAWN;
		int64_t at = event_paired_at(v, eg->game), id;
		struct game g;
		char note[96];
		int r;

		if (eg->outcome != TOURNAMENT_UNFINISHED || eg->forfeit ||
		    at == 0 || h->now < at + v->t->round_deadline)
			continue;
		link = event_link_of(v, eg->game);
		if (link == NULL || link->applied_at != 0)
			continue;
		id = link->game_id;
		r = game_load(h, id, &g, true);
		if (r <= 0) {
			ret = r < 0 ? -1 : 0;
			continue;
		}
		if (g.row->status != STORE_GAME_ACTIVE) {
			game_free(&g); /* ended: the result is taken */
			continue;
		}
		snprintf(note, sizeof(note), "round deadline: no time left "
			 "compared");
		if (g.has_clock) {
			int64_t w = clock_remaining(&g.clock, CORE_WHITE, h->now);
			int64_t b = clock_remaining(&g.clock, CORE_BLACK, h->now);

			o = w < b ? TOURNAMENT_BLACK_WINS :
			    b < w ? TOURNAMENT_WHITE_WINS : TOURNAMENT_DRAWN;
			snprintf(note, sizeof(note), "round deadline: White "
				 "%" PRId64 "s left, Black %" PRId64 "s", w, b);
		}
		game_free(&g);
		ret = event_decide(h, v, id, o, "daemon", note);
		*decided_r += ret == 0;
		if (ret == REFUSED)
			ret = server_store_fail(h, "a linked game is not the "
						"event's");
	}
	return ret;
}

/* ---- the end ------------------------------------------------------------- */

/* The event is over: each entrant gets the final standings. */
static int event_end(struct handle *h, struct event_view *v)
{
	const char *error;
	int ret = 0;
	int r = store_tournament_mark(h->srv->store, v->t->club.name, 0, h->now,
				      &error);

	if (r < 0)
		return server_store_fail(h, error);
	if (r == 1)
		return 0; /* ended before */
	v->ended_at = h->now;
	for (size_t i = 0; ret == 0 && i < v->state->nplayers; i++)
		ret = event_mail(h, v, i, "mail/tournament-final.txt", "final",
				 0);
	return ret;
}

/* ---- one event ------------------------------------------------------------ */

/* Round robin and Swiss: the next round when the last is done; the end
 * after the last. */
static int event_next_round(struct handle *h, struct event_view *v,
			    struct event_report *rep)
{
	int cur = v->state->rounds_paired, r;

	if (cur > 0 && !event_round_done(v, cur))
		return 0;
	if (cur >= event_rounds(v))
		return event_end(h, v) < 0 ? -1 : 1;
	r = v->t->rules.format == TOURNAMENT_SWISS ?
	    event_pair_swiss(h, v, cur + 1) :
	    event_pair_roundrobin(h, v, cur + 1);
	if (r < 0)
		return -1;
	if (r == 0) /* nobody left to pair */
		return event_end(h, v) < 0 ? -1 : 1;
	rep->rounds++;
	return event_tell_round(h, v, cur + 1);
}

static int event_tick(struct handle *h, const struct server_tournament *t,
		      struct event_report *rep)
{
	struct event_view v;
	const char *error;
	int ret = event_load(h, t, &v);

	if (ret < 0)
		return -1;
	if (v.ended_at != 0)
		goto out;
	if (v.started_at == 0) {
		ret = event_members(h, &v);
		if (ret < 0 || h->now < t->start || h->now < t->signup_until)
			goto out;
		/* Fewer than two: no event yet (the next run tries again). */
		if (v.state->nplayers < 2)
			goto out;
		if (store_tournament_mark(h->srv->store, t->club.name, h->now,
					  0, &error) < 0) {
			ret = server_store_fail(h, error);
			goto out;
		}
		v.started_at = h->now;
	}
	ret = event_deadlines(h, &v, &rep->decided);
	if (ret < 0)
		goto out;
	/* What the deadline decided ended games: their results first. */
	if (rep->decided > 0)
		ret = event_take_results(h, 0, &rep->results, &rep->rated);
	if (ret < 0)
		goto out;
	if (t->rules.format == TOURNAMENT_KNOCKOUT) {
		ret = event_knockout(h, &v, &rep->rounds);
		if (ret == 1)
			ret = event_end(h, &v);
	} else {
		ret = event_next_round(h, &v, rep);
	}
	rep->ended += ret == 1 || (ret == 0 && v.ended_at == h->now);
	if (ret > 0)
		ret = 0;
out:
	event_free(&v);
	return ret;
}

int club_tournament_tick(struct handle *h, struct event_report *rep)
{
	int ret = event_take_results(h, EVENT_RESULTS_PER_RUN, &rep->results,
				     &rep->rated);

	for (size_t i = 0; ret == 0 && i < h->srv->cfg.ntournaments; i++)
		ret = event_tick(h, &h->srv->cfg.tournaments[i], rep);
	return ret;
}

/* ---- when the timer must run ---------------------------------------------- */

/* The earliest of *at_r (0: none) and t. */
static void event_earliest(int64_t *at_r, int64_t t)
{
	if (*at_r == 0 || t < *at_r)
		*at_r = t;
}

int club_tournament_next(struct handle *h, int64_t *at_r)
{
	int ret = 0;

	*at_r = 0;
	for (size_t i = 0; ret == 0 && i < h->srv->cfg.ntournaments; i++) {
		const struct server_tournament *t = &h->srv->cfg.tournaments[i];
		struct event_view v;

		if (event_load(h, t, &v) < 0)
			return -1;
		if (v.ended_at != 0) {
			event_free(&v);
			continue;
		}
		/* the start, once it can begin (two entrants; the listed
		 * members not registered yet count when they register) */
		if (v.started_at == 0 && v.state->nplayers >= 2)
			event_earliest(at_r, t->start > t->signup_until ?
				       t->start : t->signup_until);
		for (size_t k = 0; v.started_at != 0 && t->round_deadline > 0 &&
		     k < v.state->ngames; k++) {
			const struct tournament_game *eg = &v.state->games[k];
			const struct store_tournament_game *link =
				event_link_of(&v, eg->game);
			int64_t at = event_paired_at(&v, eg->game);

			if (eg->outcome == TOURNAMENT_UNFINISHED &&
			    !eg->forfeit && link != NULL &&
			    link->applied_at == 0 && at != 0)
				event_earliest(at_r, at + t->round_deadline);
		}
		event_free(&v);
	}
	return ret == 0 && *at_r != 0 ? 1 : ret;
}
