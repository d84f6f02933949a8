/* play.c -- the commands that make and play games: challenge, accept,
 * decline, withdraw, move, preview, resign, draw.  The table in
 * commands.c has already checked who may run each one and loaded the
 * game; a handler checks what is particular to it, changes the game,
 * fills the variables of its template and sends the notices. */
#include "server/server_private.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/notation.h"
#include "core/variant.h"
#include "render/render.h"

/* A move the rules refuse. */
static int refuse_move(struct handle *h, const struct game *g,
		       const struct core_move *m, enum core_error err,
		       const char *text)
{
	game_refuse(h, "illegal_move", g->row->id);
	template_ctx_set(h->refusal, "move", text);
	return game_refuse_rule(h, &g->rec.pos, m, err);
}

int play_challenge(struct handle *h, const struct command *c, struct game *g,
		   struct template_ctx *out)
{
	struct store_player *target = NULL;
	struct template_ctx *ctx;
	char vtext[CORE_VARIANT_TEXT_MAX], ctext[GAME_CLOCK_TEXT_MAX];
	int ret;

	if ((ret = game_challenge_settings(h, c, vtext, ctext)) != 0)
		return ret;
	if (strcmp(c->name, "any") != 0) {
		if ((ret = game_player_named(h, c->name, &target)) != 0)
			return ret;
		if (target->id == h->me->id) {
			store_player_free(&target);
			return server_refuse(h, "challenge_self");
		}
		/* The bot is played with `challenge bot level=N`. */
		if ((ret = bot_refuse_named(h, target->id)) != 0) {
			store_player_free(&target);
			return ret;
		}
	}
	/* One open challenge per pair, so many a day, so many out. */
	if ((ret = limits_challenge(h, target)) != 0) {
		store_player_free(&target);
		return ret;
	}

	ret = game_challenge_create(h, vtext, ctext,
				    target != NULL ? target->id : 0,
				    target != NULL ? STORE_GAME_CHALLENGE :
						     STORE_GAME_OPEN, g);
	store_player_free(&target);
	if (ret < 0)
		return -1;
	game_ctx(h, g, out);
	template_ctx_set_bool(out, "open", g->row->status == STORE_GAME_OPEN);
	if (g->row->status != STORE_GAME_CHALLENGE)
		return 0;
	ctx = template_ctx_new();
	game_ctx(h, g, ctx);
	ret = notice_send(h, g, game_challenged(g), NOTICE_CHALLENGE, ctx);
	template_ctx_free(&ctx);
	return ret;
}

int play_accept(struct handle *h, const struct command *c, struct game *g,
		struct template_ctx *out)
{
	int ret;

	(void)c;
	if (g->row->status != STORE_GAME_CHALLENGE &&
	    g->row->status != STORE_GAME_OPEN)
		return game_refuse_status(h, g);
	if (g->row->challenger_id == h->me->id)
		return game_refuse(h, "own_challenge", g->row->id);
	if (g->row->status == STORE_GAME_CHALLENGE &&
	    game_challenged(g) != h->me->id)
		return game_refuse(h, "not_challenged", g->row->id);
	/* A ladder's challenge: accepted in time, recorded in its log. */
	if ((ret = club_ladder_answer(h, g, COMMAND_ACCEPT)) != 0)
		return ret;
	/* An open challenge: the challenger sits White, Black is taken. */
	if (g->row->black_id == 0) {
		g->row->black_id = h->me->id;
		game_copy_name(g->black, h->me->name);
	}
	game_copy_name(g->opponent, h->me->name);
	g->row->status = STORE_GAME_ACTIVE;
	h->moved = true;
	if (game_clock_start(h, g) < 0 || game_save(h, g) < 0)
		return -1;
	game_ctx(h, g, out);
	return notice_game(h, g, 0, out);
}

/* decline (the challenged player) and withdraw (the challenger). */
int play_decline(struct handle *h, const struct command *c, struct game *g,
		 struct template_ctx *out)
{
	bool withdraw = c->kind == COMMAND_WITHDRAW;
	const char *what = withdraw ? "withdrawn" : "declined";
	struct template_ctx *ctx;
	int64_t other;
	int ret;

	if (withdraw) {
		if (g->row->status != STORE_GAME_CHALLENGE &&
		    g->row->status != STORE_GAME_OPEN)
			return game_refuse_status(h, g);
		if (g->row->challenger_id != h->me->id)
			return game_refuse(h, "not_challenger", g->row->id);
	} else {
		if (g->row->status != STORE_GAME_CHALLENGE)
			return game_refuse_status(h, g);
		if (game_challenged(g) != h->me->id)
			return game_refuse(h, "not_challenged", g->row->id);
	}
	/* A ladder's challenge declined is a walkover, withdrawn nothing. */
	if ((ret = club_ladder_answer(h, g, c->kind)) != 0)
		return ret;
	g->row->status = withdraw ? STORE_GAME_WITHDRAWN : STORE_GAME_DECLINED;
	if (game_save(h, g) < 0)
		return -1;
	game_ctx(h, g, out);
	template_ctx_set_bool(out, what, true);
	other = withdraw ? game_challenged(g) : g->row->challenger_id;
	if (other == 0)
		return 0;
	ctx = template_ctx_new();
	game_ctx(h, g, ctx);
	template_ctx_set_bool(ctx, what, true);
	ret = notice_send(h, g, other, NOTICE_CHALLENGE_CLOSED, ctx);
	template_ctx_free(&ctx);
	return ret;
}

/* Store the plies the record gained from index `before` (the move and
 * the passes it forced).  0, REFUSED (someone stored the ply meanwhile:
 * stale), -1. */
static int play_store_plies(struct handle *h, struct game *g, size_t before)
{
	char text[CORE_MOVE_TEXT_MAX];
	const char *error;
	int next = (int)before + 1;

	for (size_t i = before; i < g->rec.nplies; i++) {
		const struct core_move *p = &g->rec.plies[i];
		int r = store_move_append(h->srv->store, g->row->id, (int)i + 1,
					  notation_format_move(g->rec.pos.geom,
							       p, text),
					  i == before ? h->me->id : 0, h->now,
					  h->inbound_id, &error);
		if (r < 0)
			return server_store_fail(h, error);
		if (r == 1) {
			game_refuse(h, "stale_ply", g->row->id);
			template_ctx_set_int(h->refusal, "next_ply", next + 1);
			template_ctx_set_int(h->refusal, "given_ply", next);
			return REFUSED;
		}
		g->row->ply = (int)i + 1;
	}
	return 0;
}

/* A move received after the mover's flag fell comes too late: the game
 * is lost on time (or cancelled) as the timer would have had it -- unless
 * the club leaves a fallen flag to the opponent's claim (timeout_claim =
 * manual), when a move before the claim counts.  0 in time, REFUSED, -1. */
static int play_in_time(struct handle *h, struct game *g)
{
	enum flag_outcome what;

	if (!g->has_clock || h->srv->cfg.clock.manual_claim)
		return 0;
	if (flag_check(h, g, h->received, &what) < 0)
		return -1;
	if (what != FLAG_LOST && what != FLAG_CANCELLED)
		return 0;
	game_refuse(h, "out_of_time", g->row->id);
	server_set_utc(h->refusal, "deadline", clock_deadline(&g->clock),
		       false);
	template_ctx_set_bool(h->refusal, "cancelled",
			      what == FLAG_CANCELLED);
	return REFUSED;
}

int play_move(struct handle *h, const struct command *c, struct game *g,
	      struct template_ctx *out)
{
	struct core_move m;
	enum core_error err;
	char text[CORE_MOVE_TEXT_MAX];
	struct conditional_result cond;
	size_t before = g->rec.nplies;
	int next = g->rec.pos.ply + 1, ret;

	if (notation_parse_move(&g->rec.pos, c->move, strlen(c->move), &m,
				&err) < 0)
		return refuse_move(h, g, NULL, err, c->move);
	if ((ret = play_in_time(h, g)) != 0)
		return ret;
	if (record_play(&g->rec, &m, &err) < 0)
		return refuse_move(h, g, &m, err, c->move);
	if ((ret = play_store_plies(h, g, before)) != 0)
		return ret;
	h->moved = true;
	if (m.kind == CORE_MOVE_SWAP) {
		int64_t t = g->row->white_id;
		char n[COMMAND_NAME_MAX + 1];
		g->row->white_id = g->row->black_id;
		g->row->black_id = t;
		g->row->swapped = true;
		game_copy_name(n, g->white);
		game_copy_name(g->white, g->black);
		game_copy_name(g->black, n);
	}
	/* A move answers a pending draw offer of the opponent: declined. */
	if (g->row->draw_offer_by != 0 && g->row->draw_offer_by != h->me->id)
		g->row->draw_offer_by = 0;
	/* The reply the opponent's conditional moves hold, at once. */
	if (game_clock_after_move(h, g, m.kind == CORE_MOVE_SWAP) < 0 ||
	    game_record_lines(h, g) < 0 ||
	    conditional_answer(h, g, before, &cond) < 0 ||
	    game_finish_row(h, g) < 0 || game_save(h, g) < 0)
		return -1;
	game_ctx(h, g, out);
	template_ctx_set_int(out, "move_ply", next);
	template_ctx_set(out, "move",
			 notation_format_move(g->rec.pos.geom,
					      &g->rec.plies[before], text));
	template_ctx_set_bool(out, "bare", c->bare);
	/* For the owner's "your move" alone (no other template says it). */
	template_ctx_set_bool(out, "cond_missed", cond.missed);
	if (game_last_moves_ctx(h, g, before, out) < 0 ||
	    notice_game(h, g, before, out) < 0)
		return -1;
	return conditional_notice(h, g, before, &cond);
}

int play_preview(struct handle *h, const struct command *c, struct game *g,
		 struct template_ctx *out)
{
	struct core_move m;
	struct core_position after;
	enum core_error err;
	char text[CORE_MOVE_TEXT_MAX];
	struct buf words = BUF_INIT;
	const char *error;

	if (g->row->status != STORE_GAME_ACTIVE)
		return game_refuse_status(h, g);
	if (notation_parse_move(&g->rec.pos, c->move, strlen(c->move), &m,
				&err) < 0)
		return refuse_move(h, g, NULL, err, c->move);
	after = g->rec.pos;
	if (core_play(&after, &m, NULL, &err) < 0)
		return refuse_move(h, g, &m, err, c->move);
	if (render_move_words(h->ts, &g->rec.pos, &m, &words,
			      &error) < 0) {
		buf_free(&words);
		snprintf(h->srv->errbuf, sizeof(h->srv->errbuf), "%s", error);
		return server_store_fail(h, h->srv->errbuf);
	}
	template_ctx_set(out, "words", buf_str(&words));
	buf_free(&words);
	game_ctx(h, g, out);
	render_position_ctx(&after, out);
	/* The turn after the previewed move, not the game's. */
	template_ctx_set(out, "to_move_name",
			 after.to_move == CORE_WHITE ? g->white : g->black);
	template_ctx_set(out, "move", notation_format_move(after.geom, &m, text));
	return 0;
}

int play_resign(struct handle *h, const struct command *c, struct game *g,
		struct template_ctx *out)
{
	enum core_error err;

	(void)c;
	if (record_end(&g->rec, CORE_END_RESIGNATION,
		       (enum core_color)game_my_color(h, g), &err) < 0)
		return refuse_move(h, g, NULL, err, "resign");
	if (game_finish_row(h, g) < 0 || game_save(h, g) < 0)
		return -1;
	game_ctx(h, g, out);
	return notice_game(h, g, g->rec.nplies, out);
}

/* draw offer|accept|decline.  0, REFUSED, -1. */
static int play_draw_change(struct handle *h, const struct command *c,
			    struct game *g, int64_t opp)
{
	enum core_error err;

	if (c->draw == COMMAND_DRAW_OFFER) {
		if (g->row->draw_offer_by == h->me->id)
			return game_refuse(h, "draw_already_offered",
					   g->row->id);
		if (g->row->draw_offer_by == opp)
			return game_refuse(h, "draw_offer_pending", g->row->id);
		g->row->draw_offer_by = h->me->id;
		g->row->draw_offer_ply = g->rec.pos.ply;
		return 0;
	}
	if (g->row->draw_offer_by != opp)
		return game_refuse(h, "no_draw_offer", g->row->id);
	g->row->draw_offer_by = 0;
	if (c->draw != COMMAND_DRAW_ACCEPT)
		return 0;
	if (record_end(&g->rec, CORE_END_AGREED_DRAW, CORE_WHITE, &err) < 0)
		return refuse_move(h, g, NULL, err, "draw");
	return game_finish_row(h, g);
}

int play_draw(struct handle *h, const struct command *c, struct game *g,
	      struct template_ctx *out)
{
	const char *what = c->draw == COMMAND_DRAW_OFFER ? "offer" :
			   c->draw == COMMAND_DRAW_ACCEPT ? "accept" : "decline";
	int color = game_my_color(h, g);
	struct template_ctx *ctx;
	int64_t opp;
	int ret;

	if (!g->draws)
		return game_refuse(h, "draws_not_allowed", g->row->id);
	opp = game_player_of(g, color == CORE_WHITE ? CORE_BLACK : CORE_WHITE);
	if (c->draw == COMMAND_DRAW_OFFER &&
	    (ret = bot_refuse_offer(h, g, opp, "draw")) != 0)
		return ret;
	if ((ret = play_draw_change(h, c, g, opp)) != 0)
		return ret;
	if (game_save(h, g) < 0)
		return -1;
	game_ctx(h, g, out);
	template_ctx_set_bool(out, what, true);
	template_ctx_set(out, "me", h->me->name);
	if (c->draw == COMMAND_DRAW_ACCEPT)
		return notice_game(h, g, g->rec.nplies, out);
	ctx = template_ctx_new();
	game_ctx(h, g, ctx);
	template_ctx_set(ctx, "me", h->me->name);
	template_ctx_set_bool(ctx, what, true);
	ret = notice_send(h, g, opp, NOTICE_DRAW, ctx);
	template_ctx_free(&ctx);
	return ret;
}
