/* admin_clock.c -- the operator's hand on the clocks: `ashes clock GAME`
 * shows how a game's clocks are computed (templates/admin-clock.txt),
 * `ashes game adjust GAME +24h` gives or takes time, recorded in the
 * game's clock history and told to both players. */
#include "server/server_private.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* One side's clock for admin-clock.txt: an item of "sides". */
static int admin_clock_side(struct handle *h, const struct game *g,
			    enum core_color side, struct template_ctx *ctx)
{
	const struct clock_player *p = &g->clock.player[side];
	struct template_ctx *it = template_ctx_add(ctx, "sides");
	struct clock_bank bank;
	char span[64];
	int64_t pid = game_player_of(g, side);

	template_ctx_set(it, "side", side == CORE_WHITE ? "White" : "Black");
	template_ctx_set(it, "name", side == CORE_WHITE ? g->white : g->black);
	template_ctx_set(it, "zone", p->zone[0] ? p->zone : "UTC");
	template_ctx_setf(it, "stored", "%" PRId64, p->remaining);
	game_clock_span(clock_remaining(&g->clock, side,
					game_clock_now(h, g)), span,
			sizeof(span));
	template_ctx_set(it, "left", span);
	template_ctx_set_int(it, "left_seconds",
			     (long)clock_remaining(&g->clock, side,
						   game_clock_now(h, g)));
	for (size_t i = 0; i < p->npauses; i++) {
		struct template_ctx *pi = template_ctx_add(it, "pauses");
		server_set_utc(pi, "from", p->pauses[i].from, false);
		if (p->pauses[i].to == CLOCK_NEVER)
			template_ctx_set(pi, "to", "(no end)");
		else
			server_set_utc(pi, "to", p->pauses[i].to, false);
	}
	if (pid != 0) {
		if (game_clock_bank_get(h, pid, &bank) < 0)
			return -1;
		template_ctx_set_int(it, "vacation_days", bank.days);
	}
	return 0;
}

int server_clock_show(struct server *server, int64_t game_id, int64_t now,
		      struct buf *out, const char **error_r)
{
	struct handle h;
	struct game g;
	struct template_ctx *ctx;
	int ret;

	if (admin_game_load(server, &h, game_id, now, &g, error_r) < 0)
		return -1;
	ctx = template_ctx_new();
	game_names_ctx(&g, ctx);
	game_clock_ctx(&h, &g, ctx);
	server_set_utc(ctx, "now", now, true);
	if (g.has_clock) {
		const struct clock_state *s = &g.clock;
		char span[64];

		/* An ended game has no turn: its clocks stopped. */
		template_ctx_set_bool(ctx, "started", s->started &&
				      g.row->status == STORE_GAME_ACTIVE);
		template_ctx_set_bool(ctx, "not_started", !s->started);
		template_ctx_set_bool(ctx, "ended", s->started &&
				      g.row->status != STORE_GAME_ACTIVE);
		if (s->started && g.row->status == STORE_GAME_ACTIVE) {
			server_set_utc(ctx, "turn_started", s->turn_started,
				       true);
			template_ctx_set(ctx, "to_move_side",
					 s->to_move == CORE_WHITE ? "White" :
					 "Black");
			game_clock_span(clock_elapsed(s, now), span,
					sizeof(span));
			template_ctx_set(ctx, "elapsed", span);
			template_ctx_setf(ctx, "elapsed_seconds", "%" PRId64,
					  clock_elapsed(s, now));
		}
		if (g.row->deadline_at != 0)
			server_set_utc(ctx, "deadline", g.row->deadline_at,
				       true);
		if (g.row->remind_at != 0)
			server_set_utc(ctx, "remind_at", g.row->remind_at,
				       true);
		template_ctx_set_int(ctx, "reminders_sent",
				     g.row->reminders_sent);
	}
	ret = 0;
	if (g.has_clock && (admin_clock_side(&h, &g, CORE_WHITE, ctx) < 0 ||
			    admin_clock_side(&h, &g, CORE_BLACK, ctx) < 0))
		ret = -1;
	if (ret == 0)
		ret = admin_clock_history(&h, &g, ctx);
	if (ret == 0)
		ret = server_render(&h, "admin-clock.txt", ctx, out);
	if (ret < 0) {
		snprintf(server->errbuf, sizeof(server->errbuf), "%s",
			 h.error != NULL ? h.error : "failure");
		*error_r = server->errbuf;
	}
	template_ctx_free(&ctx);
	template_ctx_free(&h.refusal);
	game_free(&g);
	return ret;
}

/* What adjust changes, in the open transaction: 0 or -1 with errbuf. */
static int admin_adjust(struct handle *h, struct game *g, const char *side,
			int64_t seconds, const char *note, struct buf *out)
{
	struct server *server = h->srv;
	struct template_ctx *ctx;
	enum core_color c;
	char span[64];
	int ret;

	if (!g->has_clock) {
		snprintf(server->errbuf, sizeof(server->errbuf),
			 "game %" PRId64 " has no clock", g->row->id);
		return -1;
	}
	if (g->row->status != STORE_GAME_ACTIVE &&
	    g->row->status != STORE_GAME_CHALLENGE &&
	    g->row->status != STORE_GAME_OPEN) {
		snprintf(server->errbuf, sizeof(server->errbuf),
			 "game %" PRId64 " is %s: its clocks stand still",
			 g->row->id, store_game_status_name(g->row->status));
		return -1;
	}
	if (side == NULL)
		c = g->clock.to_move;
	else if (strcmp(side, "white") == 0)
		c = CORE_WHITE;
	else if (strcmp(side, "black") == 0)
		c = CORE_BLACK;
	else {
		snprintf(server->errbuf, sizeof(server->errbuf),
			 "no side \"%s\": white or black", side);
		return -1;
	}
	if (clock_add_time(&g->clock, c, seconds, NULL) < 0) {
		snprintf(server->errbuf, sizeof(server->errbuf),
			 "%s's clock cannot take that: it would fall below "
			 "nothing or above ten years",
			 c == CORE_WHITE ? g->white : g->black);
		return -1;
	}
	/* Time given to a fallen flag (timeout_claim = manual) lifts it. */
	if (seconds > 0 && c == g->clock.to_move &&
	    !clock_flag_fallen(&g->clock, h->now))
		g->row->flag_fell_at = 0;
	ret = flag_event(h, g, STORE_CLOCK_ADJUST, game_player_of(g, c),
			 seconds, note);
	if (ret == 0)
		ret = game_save(h, g);
	if (ret < 0) {
		snprintf(server->errbuf, sizeof(server->errbuf), "%s", h->error);
		return -1;
	}
	ctx = template_ctx_new();
	game_ctx(h, g, ctx);
	template_ctx_set_bool(ctx, "adjusted", true);
	template_ctx_set_bool(ctx, "taken", seconds < 0);
	/* span: the operator's English; given: the players' words */
	game_clock_span(seconds < 0 ? -seconds : seconds, span, sizeof(span));
	game_clock_given_ctx(h, seconds < 0 ? -seconds : seconds, ctx);
	template_ctx_set(ctx, "adjusted_name",
			 c == CORE_WHITE ? g->white : g->black);
	if (note != NULL)
		template_ctx_set(ctx, "note", note);
	ret = 0;
	if (g->row->status == STORE_GAME_ACTIVE) {
		ret = notice_send(h, g, g->row->white_id, NOTICE_CLOCK, ctx);
		if (ret == 0)
			ret = notice_send(h, g, g->row->black_id, NOTICE_CLOCK,
					  ctx);
	}
	template_ctx_free(&ctx);
	if (ret < 0) {
		snprintf(server->errbuf, sizeof(server->errbuf), "%s", h->error);
		return -1;
	}
	{
		char left[64];
		game_clock_span(clock_remaining(&g->clock, c, h->now), left,
				sizeof(left));
		buf_printf(out, "game %" PRId64 ": %s %s %s %s, who now has "
			   "%s\n", g->row->id, seconds < 0 ? "took" : "gave",
			   span, seconds < 0 ? "from" : "to",
			   c == CORE_WHITE ? g->white : g->black, left);
	}
	return 0;
}

int server_clock_adjust(struct server *server, int64_t game_id,
			const char *side, int64_t seconds, const char *note,
			int64_t now, struct buf *out, const char **error_r)
{
	struct handle h;
	struct game g;
	const char *error;

	if (store_begin(server->store, &error) < 0) {
		*error_r = error;
		return -1;
	}
	if (admin_game_load(server, &h, game_id, now, &g, error_r) < 0) {
		store_rollback(server->store);
		return -1;
	}
	if (admin_adjust(&h, &g, side, seconds, note, out) < 0) {
		game_free(&g);
		store_rollback(server->store);
		*error_r = server->errbuf;
		return -1;
	}
	game_free(&g);
	if (store_commit(server->store, &error) < 0) {
		snprintf(server->errbuf, sizeof(server->errbuf), "%s", error);
		*error_r = server->errbuf;
		return -1;
	}
	return 0;
}
