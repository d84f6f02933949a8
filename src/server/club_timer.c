/* club_timer.c -- the club's work that no mail asks for, run by the
 * clocks' timer in its transaction (timer.c): the configuration's members
 * brought into the ladders, the results of ended games applied to the
 * ladders and ratings, the walkovers of challenges not accepted in time,
 * the members absent too long withdrawn, the leagues' seasons begun, and
 * the weekly standings mail.  Each is idempotent: what is done is in the
 * store, so a run that fails or is repeated does nothing twice. */
#include "server/server_private.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Results applied in one run: the rest wait for the next. */
#define CLUB_RESULTS_PER_RUN 500
/* The standings mail goes out once in this time. */
#define CLUB_STANDINGS_EVERY (7 * LADDER_DAY)

/* Tell both players of ladder game g what the ladder did (flags of
 * mail/ladder-notice.txt in ctx). */
static int club_tell(struct handle *h, struct game *g, int64_t a, int64_t b,
		     struct template_ctx *ctx)
{
	int ret = notice_send(h, g, a, NOTICE_LADDER, ctx);

	if (ret == 0 && b != 0)
		ret = notice_send(h, g, b, NOTICE_LADDER, ctx);
	return ret;
}

/* The challenges of ladder l not accepted in time: walkovers. */
static int club_walkovers(struct handle *h, const struct server_ladder *l,
			  size_t *count_r)
{
	struct ladder_standing *st = NULL;
	int64_t *due = NULL;
	size_t n;
	int ret = club_ladder_standing(h, l->club.name, &st);

	if (ret < 0)
		return -1;
	due = calloc(st->nopen + 1, sizeof(*due));
	if (due == NULL) {
		ladder_standing_free(&st);
		return server_store_fail(h, "out of memory");
	}
	n = ladder_due_walkovers(st, h->now, due);
	for (size_t i = 0; ret == 0 && i < n; i++) {
		const struct ladder_challenge *ch =
			ladder_open_challenge(st, due[i]);
		struct template_ctx *ctx;
		struct ladder_event ev;
		const char *error;
		struct game g;
		int r;

		if (ch == NULL)
			continue;
		memset(&ev, 0, sizeof(ev));
		ev.kind = LADDER_EVENT_RESULT;
		ev.at = h->now;
		ev.game = due[i];
		ev.player = ch->challenger;
		ev.other = ch->defender;
		ev.result = LADDER_RESULT_WALKOVER;
		ret = club_ladder_record(h, l->club.name, st, &ev, "daemon",
					 "not accepted in time");
		if (ret < 0)
			break;
		if (store_game_club_applied(h->srv->store, ev.game, h->now,
					    &error) < 0) {
			ret = server_store_fail(h, error);
			break;
		}
		r = game_load(h, ev.game, &g, true);
		if (r <= 0) {
			ret = r < 0 ? -1 : 0;
			continue;
		}
		/* The challenge is over: nobody may accept it now. */
		if (g.row->status == STORE_GAME_CHALLENGE) {
			g.row->status = STORE_GAME_DECLINED;
			ret = game_save(h, &g);
		}
		if (ret == 0) {
			ctx = template_ctx_new();
			game_ctx(h, &g, ctx);
			template_ctx_set(ctx, "ladder", l->club.name);
			template_ctx_set_bool(ctx, "walkover", true);
			ret = club_tell(h, &g, g.row->white_id,
					g.row->black_id, ctx);
			template_ctx_free(&ctx);
		}
		game_free(&g);
		*count_r += ret == 0;
	}
	free(due);
	ladder_standing_free(&st);
	return ret;
}

/* When pid was last active for the ladder's absence rule: their last move
 * or, if later, when they joined; moved on by the vacations they took
 * since -- vacation does not count as absence. */
static int club_last_active(struct handle *h, int64_t pid, int64_t joined_at,
			    int64_t *at_r)
{
	struct store_vacation *v = NULL;
	const char *error;
	size_t n = 0;
	int64_t at = 0;

	if (store_player_last_move(h->srv->store, pid, &at, &error) < 0)
		return server_store_fail(h, error);
	if (at < joined_at)
		at = joined_at;
	if (store_vacations_for_player(h->srv->store, pid, at, &v, &n,
				       &error) < 0)
		return server_store_fail(h, error);
	for (size_t i = 0; i < n; i++) {
		int64_t from = v[i].from > at ? v[i].from : at;
		int64_t to = v[i].to < h->now ? v[i].to : h->now;
		if (to > from)
			at += to - from;
	}
	free(v);
	*at_r = at;
	return 0;
}

/* The members of ladder l absent too long: withdrawn, and told. */
static int club_absences(struct handle *h, const struct server_ladder *l,
			 size_t *count_r)
{
	struct ladder_standing *st = NULL;
	int64_t *last = NULL, *out = NULL;
	size_t n;
	int ret;

	if (l->rules.absence_withdraw <= 0)
		return 0;
	ret = club_ladder_standing(h, l->club.name, &st);
	if (ret < 0)
		return -1;
	last = calloc(st->nmembers + 1, sizeof(*last));
	out = calloc(st->nmembers + 1, sizeof(*out));
	if (last == NULL || out == NULL)
		ret = server_store_fail(h, "out of memory");
	for (size_t i = 0; ret == 0 && i < st->nmembers; i++)
		ret = club_last_active(h, st->members[i].player,
				       st->members[i].joined_at, &last[i]);
	n = ret == 0 ? ladder_absent(&l->rules, st, last, h->now, out) : 0;
	for (size_t i = 0; ret == 0 && i < n; i++) {
		struct ladder_event ev;

		memset(&ev, 0, sizeof(ev));
		ev.kind = LADDER_EVENT_WITHDRAWN;
		ev.at = h->now;
		ev.player = out[i];
		ret = club_ladder_record(h, l->club.name, st, &ev, "daemon",
					 "absent");
		*count_r += ret == 0;
	}
	free(last);
	free(out);
	ladder_standing_free(&st);
	return ret;
}

/* ---- the weekly standings ----------------------------------------------- */

/* One member's standings mail: every ladder they are in and every event
 * they play in while it runs (each with its standings mail on).  *sent_r
 * when queued. */
static int club_standings_one(struct handle *h, int64_t pid, bool *sent_r)
{
	struct store_player *p = NULL;
	struct store_settings s;
	struct template_ctx *mail;
	struct buf body = BUF_INIT, subject = BUF_INIT;
	const char *error;
	size_t shown = 0;
	int ret = 0;

	*sent_r = false;
	if (store_settings_get(h->srv->store, pid, &s, &error) < 0)
		return server_store_fail(h, error);
	if (!s.standings)
		return 0;
	ret = store_player_load(h->srv->store, pid, &p, &error);
	if (ret <= 0)
		return ret < 0 ? server_store_fail(h, error) : 0;
	ret = 0;
	mail = template_ctx_new();
	template_ctx_set(mail, "recipient", p->name);
	for (size_t i = 0; ret == 0 && i < h->srv->cfg.nladders; i++) {
		const struct server_ladder *l = &h->srv->cfg.ladders[i];
		struct ladder_standing *st = NULL;
		struct template_ctx *it;

		if (!l->standings_mail)
			continue;
		ret = club_ladder_standing(h, l->club.name, &st);
		if (ret == 0 && ladder_position(st, pid) > 0) {
			it = template_ctx_add(mail, "ladders");
			ret = club_ladder_ctx(h, l, pid, it);
			shown++;
		}
		ladder_standing_free(&st);
	}
	/* The events the player is in, while they run. */
	for (size_t i = 0; ret == 0 && i < h->srv->cfg.ntournaments; i++) {
		const struct server_tournament *t = &h->srv->cfg.tournaments[i];
		int64_t started = 0, ended = 0;
		int in;

		if (!t->standings_mail)
			continue;
		if (store_tournament_times(h->srv->store, t->club.name,
					   &started, &ended, &error) < 0) {
			ret = server_store_fail(h, error);
			break;
		}
		if (started == 0 || ended != 0)
			continue;
		in = club_tournament_entered(h, t, pid);
		if (in < 0)
			ret = -1;
		else if (in == 1) {
			ret = club_tournament_ctx(h, t, pid,
					template_ctx_add(mail, "tournaments"));
			template_ctx_set_bool(mail, "any_tournaments", true);
			shown++;
		}
	}
	if (ret == 0 && shown > 0) {
		ret = server_render(h, "mail/standings.txt", mail, &body);
		if (ret == 0)
			ret = server_render_line(h, "mail/subject-standings.txt",
						 mail, &subject);
		if (ret == 0)
			ret = server_queue_notice(h, p, NULL, false,
						  STORE_OUTBOX_KIND_STANDINGS,
						  &subject, &body);
		*sent_r = ret == 0 && server_player_address(p) != NULL;
	}
	template_ctx_free(&mail);
	buf_free(&body);
	buf_free(&subject);
	store_player_free(&p);
	return ret;
}

static int club_standings(struct handle *h, size_t *count_r)
{
	struct store_player *players = NULL;
	const char *error;
	int64_t last = 0;
	size_t n = 0;
	int r, ret = 0;

	if (h->srv->cfg.nladders == 0 && h->srv->cfg.ntournaments == 0)
		return 0;
	r = store_state_get(h->srv->store, "standings_mail", &last, &error);
	if (r < 0)
		return server_store_fail(h, error);
	/* The first run starts the week; the mail comes a week later. */
	if (r == 1 && h->now - last < CLUB_STANDINGS_EVERY)
		return 0;
	if (r == 1) {
		if (store_player_list(h->srv->store, &players, &n,
				      &error) < 0)
			return server_store_fail(h, error);
		for (size_t i = 0; ret == 0 && i < n; i++) {
			bool sent;
			ret = club_standings_one(h, players[i].id, &sent);
			*count_r += sent;
		}
		store_rows_free(&players, n, sizeof(*players),
				store_player_clear);
	}
	if (ret == 0 && store_state_set(h->srv->store, "standings_mail",
					h->now, &error) < 0)
		ret = server_store_fail(h, error);
	return ret;
}

int club_tick(struct handle *h, struct club_report *rep)
{
	int ret = club_sync(h, &rep->joined, &rep->withdrawn);

	if (ret == 0)
		ret = club_apply_results(h, CLUB_RESULTS_PER_RUN, &rep->results,
					 &rep->rated);
	for (size_t i = 0; ret == 0 && i < h->srv->cfg.nladders; i++) {
		const struct server_ladder *l = &h->srv->cfg.ladders[i];
		ret = club_walkovers(h, l, &rep->walkovers);
		if (ret == 0)
			ret = club_absences(h, l, &rep->withdrawn);
	}
	if (ret == 0)
		ret = club_league_tick(h, &rep->seasons);
	if (ret == 0)
		ret = club_tournament_tick(h, &rep->events);
	if (ret == 0)
		ret = club_standings(h, &rep->standings);
	return ret;
}
