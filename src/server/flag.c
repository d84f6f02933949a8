/* flag.c -- a flag that falls: the clock of the player to move ran out.
 * First the vacation bank (auto_vacation, if the game allows vacations):
 * a day of it, added to every game of the player, saves the flag as Little
 * Golem does.  Else a player who never moved has the game cancelled (no
 * result); else the game is lost on time -- or, with timeout_claim =
 * manual, left to the opponent, who may `claim GAME` or keep waiting
 * (a move before the claim counts).  Every such change goes into the
 * game's clock history and is told to both players. */
#include "server/server_private.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

int flag_event(struct handle *h, const struct game *g,
	       enum store_clock_kind kind, int64_t player_id, int64_t seconds,
	       const char *note)
{
	const char *error;

	if (store_clock_event_add(h->srv->store, g->row->id, kind, player_id,
				  seconds, note, h->inbound_id, h->now,
				  &error) < 0)
		return server_store_fail(h, error);
	return 0;
}

/* Tell both players of g what happened to the clock: the flags of
 * mail/clock-notice.txt (one set by the caller in ctx). */
static int flag_tell(struct handle *h, struct game *g,
		     struct template_ctx *ctx)
{
	int ret = notice_send(h, g, g->row->white_id, NOTICE_CLOCK, ctx);

	if (ret == 0)
		ret = notice_send(h, g, g->row->black_id, NOTICE_CLOCK, ctx);
	return ret;
}

/* The same days, 24 hours each, go to the player's other games that
 * allow vacations: a vacation day is the player's, not one game's. */
static int flag_days_elsewhere(struct handle *h, const struct game *g,
			       int64_t pid, int days)
{
	struct store_game *rows = NULL;
	size_t n = 0;
	const char *error;
	int ret = 0;

	if (store_games_for_player(h->srv->store, pid,
				   1u << STORE_GAME_ACTIVE, &rows, &n,
				   &error) < 0)
		return server_store_fail(h, error);
	for (size_t i = 0; ret == 0 && i < n; i++) {
		struct game other;
		int side, r;

		if (rows[i].id == g->row->id || rows[i].clock_settings == NULL)
			continue;
		r = game_load(h, rows[i].id, &other, false);
		if (r <= 0) {
			ret = r < 0 ? -1 : 0;
			continue;
		}
		side = other.row->white_id == pid ? CORE_WHITE : CORE_BLACK;
		if (other.has_clock && other.vacation_ok &&
		    clock_add_time(&other.clock, (enum core_color)side,
				   days * CLOCK_DAY, NULL) == 0) {
			ret = flag_event(h, &other, STORE_CLOCK_VACATION_DAY,
					 pid, days * CLOCK_DAY, NULL);
			if (ret == 0)
				ret = game_save(h, &other);
		}
		game_free(&other);
	}
	store_rows_free(&rows, n, sizeof(*rows), store_game_clear);
	return ret;
}

/* A vacation day saved the flag of pid. */
static int flag_vacation(struct handle *h, struct game *g, int64_t pid,
			 int days, const struct clock_bank *bank)
{
	struct template_ctx *ctx;
	int ret;

	if (game_clock_bank_put(h, pid, bank) < 0 ||
	    flag_event(h, g, STORE_CLOCK_VACATION_DAY, pid, days * CLOCK_DAY,
		       NULL) < 0 ||
	    game_save(h, g) < 0 || flag_days_elsewhere(h, g, pid, days) < 0)
		return -1;
	ctx = template_ctx_new();
	game_ctx(h, g, ctx);
	template_ctx_set_bool(ctx, "vacation_day", true);
	template_ctx_set(ctx, "flag_name", g->clock.to_move == CORE_WHITE ?
			 g->white : g->black);
	template_ctx_set_int(ctx, "days_spent", days);
	template_ctx_set_int(ctx, "days_left", bank->days);
	ret = flag_tell(h, g, ctx);
	template_ctx_free(&ctx);
	return ret;
}

/* The flag fell for good. */
static int flag_fall(struct handle *h, struct game *g, int64_t deadline,
		     enum flag_outcome *what_r)
{
	enum core_color side = g->clock.to_move;
	int64_t pid = game_player_of(g, side);
	struct template_ctx *ctx;
	enum core_error err;
	int ret;

	/* White before ply 1, Black before ply 2: never moved. */
	if (g->rec.pos.ply < 2) {
		*what_r = FLAG_CANCELLED;
		g->row->status = STORE_GAME_CANCELLED;
		g->row->draw_offer_by = 0;
		if (flag_event(h, g, STORE_CLOCK_CANCEL, pid, 0, NULL) < 0 ||
		    game_save(h, g) < 0)
			return -1;
		ctx = template_ctx_new();
		game_ctx(h, g, ctx);
		template_ctx_set_bool(ctx, "cancelled", true);
		template_ctx_set(ctx, "flag_name",
				 side == CORE_WHITE ? g->white : g->black);
		ret = notice_game(h, g, g->rec.nplies, ctx);
		template_ctx_free(&ctx);
		return ret;
	}
	if (flag_event(h, g, STORE_CLOCK_FLAG, pid, 0, NULL) < 0)
		return -1;
	if (h->srv->cfg.clock.manual_claim) {
		*what_r = FLAG_CLAIMABLE;
		g->row->flag_fell_at = deadline;
		if (game_save(h, g) < 0)
			return -1;
		ctx = template_ctx_new();
		game_ctx(h, g, ctx);
		template_ctx_set_bool(ctx, "claimable", true);
		template_ctx_set(ctx, "flag_name",
				 side == CORE_WHITE ? g->white : g->black);
		template_ctx_set(ctx, "claimer_name",
				 side == CORE_WHITE ? g->black : g->white);
		ret = flag_tell(h, g, ctx);
		template_ctx_free(&ctx);
		return ret;
	}
	*what_r = FLAG_LOST;
	if (record_end(&g->rec, CORE_END_TIME, side, &err) < 0)
		return server_store_fail(h, core_error_name(err));
	if (game_finish_row(h, g) < 0 || game_save(h, g) < 0)
		return -1;
	ctx = template_ctx_new();
	game_ctx(h, g, ctx);
	template_ctx_set_bool(ctx, "on_time", true);
	template_ctx_set(ctx, "flag_name",
			 side == CORE_WHITE ? g->white : g->black);
	ret = notice_game(h, g, g->rec.nplies, ctx);
	template_ctx_free(&ctx);
	return ret;
}

int flag_check(struct handle *h, struct game *g, int64_t at,
	       enum flag_outcome *what_r)
{
	const struct server_clock_config *cc = &h->srv->cfg.clock;
	struct clock_state *s = &g->clock;
	int64_t pid, deadline;

	*what_r = FLAG_NONE;
	if (!g->has_clock || !s->started || !g->rec_ok ||
	    g->row->status != STORE_GAME_ACTIVE || g->row->flag_fell_at != 0 ||
	    !clock_flag_fallen(s, at))
		return 0;
	pid = game_player_of(g, s->to_move);
	deadline = clock_deadline(s);
	/* A game not yet begun by both players is cancelled, never saved
	 * by a vacation day. */
	if (cc->auto_vacation && g->vacation_ok && g->rec.pos.ply >= 2) {
		struct clock_bank bank;
		int days = 0;

		if (game_clock_bank_get(h, pid, &bank) < 0)
			return -1;
		if (clock_flag_check(s, &bank, &cc->vacation, at, &days) ==
		    CLOCK_FLAG_VACATION) {
			*what_r = FLAG_VACATION;
			return flag_vacation(h, g, pid, days, &bank);
		}
	}
	return flag_fall(h, g, deadline, what_r);
}

/* claim GAME: the opponent of a player whose flag fell (timeout_claim =
 * manual) takes the win on time. */
int flag_claim(struct handle *h, const struct command *c, struct game *g,
	       struct template_ctx *out)
{
	enum core_color side = g->clock.to_move;
	enum core_error err;
	enum flag_outcome what;

	(void)c;
	/* A flag due by now falls first (the timer may not have run). */
	if (g->row->flag_fell_at == 0 && flag_check(h, g, h->received,
						    &what) < 0)
		return -1;
	if (g->row->status != STORE_GAME_ACTIVE) {
		game_ctx(h, g, out);
		template_ctx_set_bool(out, "ended", true);
		return 0;
	}
	if (g->row->flag_fell_at == 0)
		return game_refuse(h, "no_flag", g->row->id);
	if (game_player_of(g, side) == h->me->id)
		return game_refuse(h, "claim_own_flag", g->row->id);
	if (record_end(&g->rec, CORE_END_TIME, side, &err) < 0)
		return server_store_fail(h, core_error_name(err));
	if (flag_event(h, g, STORE_CLOCK_CLAIM, h->me->id, 0, NULL) < 0 ||
	    game_finish_row(h, g) < 0 || game_save(h, g) < 0)
		return -1;
	game_ctx(h, g, out);
	template_ctx_set_bool(out, "on_time", true);
	template_ctx_set(out, "flag_name",
			 side == CORE_WHITE ? g->white : g->black);
	return notice_game(h, g, g->rec.nplies, out);
}
