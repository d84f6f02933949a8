/* undo.c -- `offer undo GAME`, `accept undo GAME`, `decline undo GAME`:
 * both players agree to take back the last move.  The player who just
 * moved asks, while the opponent has not moved since: normally while it
 * is the opponent's turn, and also when the move left the opponent no
 * legal move (a forced pass is no move of theirs, so the mover, to move
 * again, may still ask).  The opponent accepts (the move, and any forced
 * passes it brought, leave the store, and the mover is to move again) or
 * declines, or simply moves, which ends the request as a move ends a
 * draw offer.
 *
 * The request is the game's undo_offer_by/undo_offer_ply (sql/006): it
 * counts only while the game still has the plies it had when it was
 * made, so a move ends it without play.c knowing of it.  The game is
 * then loaded again from the store, by the same replay as every other
 * mail's, so what the players see next is what the store holds. */
#include "server/server_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/notation.h"
#include "render/render.h"

/* The last ply a player made, not a forced pass: 1 with its index in
 * the record and who made it (the stored ply says so, swap or not), 0
 * if there is none, -1. */
static int undo_last_move(struct handle *h, const struct game *g,
			  size_t *index_r, int64_t *player_r)
{
	struct store_move *moves = NULL;
	size_t n = 0;
	const char *error;
	int ret = 0;

	if (store_game_move_records(h->srv->store, g->row->id, &moves, &n,
				    &error) < 0)
		return server_store_fail(h, error);
	/* game_load replayed exactly these plies. */
	if (n != g->rec.nplies) {
		ret = server_store_fail(h, "stored plies do not match the game");
		goto out;
	}
	for (size_t i = n; i-- > 0;) {
		if (moves[i].player_id != 0) {
			*index_r = i;
			*player_r = moves[i].player_id;
			ret = 1;
			break;
		}
	}
out:
	store_rows_free(&moves, n, sizeof(*moves), store_move_clear);
	return ret;
}

/* The move to take back, for the templates: its ply (1-based) and text,
 * whether it was the swap, and whether forced passes came with it. */
static void undo_move_vars(const struct game *g, const struct core_move *m,
			   size_t index, bool passes,
			   struct template_ctx *ctx)
{
	char text[CORE_MOVE_TEXT_MAX];

	template_ctx_set_int(ctx, "undo_ply", (long)index + 1);
	template_ctx_set(ctx, "undo_move",
			 notation_format_move(g->rec.pos.geom, m, text));
	template_ctx_set_bool(ctx, "undo_swap", m->kind == CORE_MOVE_SWAP);
	template_ctx_set_bool(ctx, "undo_passes", passes);
}

/* The same while the move stands, with the plies from it on in words
 * (mail/last-moves.txt). */
static int undo_move_ctx(struct handle *h, const struct game *g,
			 size_t index, struct template_ctx *ctx)
{
	undo_move_vars(g, &g->rec.plies[index], index,
		       g->rec.nplies > index + 1, ctx);
	return game_last_moves_ctx(h, g, index, ctx);
}

/* And once it is gone, from the position it was played in (the game's
 * now): "undo_words". */
static int undo_taken_ctx(struct handle *h, const struct game *g,
			  const struct core_move *m, size_t index,
			  bool passes, struct template_ctx *ctx)
{
	struct buf words = BUF_INIT;
	const char *error;

	undo_move_vars(g, m, index, passes, ctx);
	if (render_move_words(h->ts, &g->rec.pos, m, &words,
			      &error) < 0) {
		buf_free(&words);
		snprintf(h->srv->errbuf, sizeof(h->srv->errbuf), "%s", error);
		return server_store_fail(h, h->srv->errbuf);
	}
	template_ctx_set(ctx, "undo_words", buf_str(&words));
	buf_free(&words);
	return 0;
}

/* The other player of g gets undo.txt (offer or decline, with flag
 * `what`): the position did not change. */
static int undo_notice(struct handle *h, struct game *g, int64_t to,
		       size_t index, const char *what)
{
	struct template_ctx *ctx = template_ctx_new();
	int ret;

	game_names_ctx(g, ctx);
	template_ctx_set(ctx, "me", h->me->name);
	template_ctx_set_bool(ctx, what, true);
	ret = undo_move_ctx(h, g, index, ctx);
	if (ret == 0)
		ret = notice_send(h, g, to, NOTICE_UNDO, ctx);
	template_ctx_free(&ctx);
	return ret;
}

static int undo_offer(struct handle *h, struct game *g, int64_t pending_by,
		      int64_t opp, struct template_ctx *out)
{
	char text[CORE_MOVE_TEXT_MAX];
	const char *error;
	size_t index = 0;
	int64_t who = 0;
	int ret;

	ret = undo_last_move(h, g, &index, &who);
	if (ret < 0)
		return -1;
	if (ret == 0)
		return game_refuse(h, "undo_nothing", g->row->id);
	if (who != h->me->id) {
		game_refuse(h, "undo_not_last_mover", g->row->id);
		template_ctx_set_int(h->refusal, "last_ply", (long)index + 1);
		template_ctx_set(h->refusal, "last_move",
				 notation_format_move(g->rec.pos.geom,
						      &g->rec.plies[index],
						      text));
		return REFUSED;
	}
	if (pending_by == h->me->id)
		return game_refuse(h, "undo_already_offered", g->row->id);
	if (store_undo_offer_set(h->srv->store, g->row->id, h->me->id,
				 g->row->ply, h->now, &error) < 0)
		return server_store_fail(h, error);
	game_names_ctx(g, out);
	template_ctx_set_bool(out, "offer", true);
	if (undo_move_ctx(h, g, index, out) < 0)
		return -1;
	return undo_notice(h, g, opp, index, "offer");
}

static int undo_decline(struct handle *h, struct game *g, int64_t opp,
			struct template_ctx *out)
{
	const char *error;
	size_t index = 0;
	int64_t who = 0;
	int ret;

	ret = undo_last_move(h, g, &index, &who);
	if (ret <= 0)
		return ret < 0 ? -1 :
		       server_store_fail(h, "a request to take back no move");
	if (store_undo_offer_set(h->srv->store, g->row->id, 0, 0, h->now,
				 &error) < 0)
		return server_store_fail(h, error);
	game_names_ctx(g, out);
	template_ctx_set_bool(out, "decline", true);
	if (undo_move_ctx(h, g, index, out) < 0)
		return -1;
	return undo_notice(h, g, opp, index, "decline");
}

/* The move is gone: the mover, to move again, and every observer get
 * undo.txt with the position (kind "undone": the position changed). */
static int undo_notices_undone(struct handle *h, struct game *g,
			       int64_t mover, struct template_ctx *ctx)
{
	int64_t *obs = NULL;
	size_t nobs = 0;
	const char *error;
	int ret;

	template_ctx_set(ctx, "me", h->me->name);
	template_ctx_set_bool(ctx, "undone", true);
	ret = notice_send(h, g, mover, NOTICE_UNDONE, ctx);
	if (ret == 0 &&
	    store_observer_list(h->srv->store, g->row->id, &obs, &nobs,
				&error) < 0)
		ret = server_store_fail(h, error);
	template_ctx_set_bool(ctx, "undone", false);
	template_ctx_set_bool(ctx, "undone_observer", true);
	for (size_t i = 0; ret == 0 && i < nobs; i++) {
		/* `set digest on`: the digest tells the game as it is then
		 * (from the ply it went back to). */
		ret = recipient_digest_note(h, g, obs[i], g->rec.nplies);
		if (ret == 0)
			ret = notice_send(h, g, obs[i], NOTICE_UNDONE, ctx);
		else if (ret == 1)
			ret = 0;
	}
	free(obs);
	return ret;
}

static int undo_accept(struct handle *h, struct game *g, int64_t opp,
		       struct template_ctx *out)
{
	struct template_ctx *ctx = NULL;
	struct core_move taken;
	const char *error;
	size_t index = 0;
	int64_t who = 0, id = g->row->id;
	bool passes;
	int ret;

	/* The request stands only while the game is at its ply, so the
	 * last move is the asker's. */
	ret = undo_last_move(h, g, &index, &who);
	if (ret <= 0 || who != opp)
		return ret < 0 ? -1 :
		       server_store_fail(h, "the request to take back names "
					 "another player's move");
	taken = g->rec.plies[index];
	passes = g->rec.nplies > index + 1;
	ret = store_move_take_back(h->srv->store, id, g->row->ply, (int)index,
				   h->now, &error);
	if (ret != 0)
		return ret < 0 ? server_store_fail(h, error) :
		       game_refuse(h, "no_undo_offer", id);
	h->moved = true;
	if (taken.kind == CORE_MOVE_SWAP) {
		/* The swap exchanged the seats (play_move); taking it back
		 * gives them back: the asker, White since the swap, is
		 * Black again. */
		g->row->white_id = g->row->black_id;
		g->row->black_id = opp;
		g->row->swapped = false;
		g->row->ply = (int)index;
		if (g->has_clock) {
			/* The clocks go back with their players. */
			struct clock_player t = g->clock.player[CORE_WHITE];
			g->clock.player[CORE_WHITE] =
				g->clock.player[CORE_BLACK];
			g->clock.player[CORE_BLACK] = t;
			g->clock.to_move = g->clock.to_move == CORE_WHITE ?
					   CORE_BLACK : CORE_WHITE;
		}
		if (game_save(h, g) < 0)
			return -1;
	}
	/* Replayed from the store, as the next mail will see it. */
	game_free(g);
	ret = game_load(h, id, g, true);
	if (ret != 1)
		return ret < 0 ? -1 : server_store_fail(h, "the game vanished");
	/* The turn went back: the clock of the player to move now runs. */
	if (game_clock_hand_over(h, g) < 0 || game_save(h, g) < 0)
		return -1;
	game_ctx(h, g, out);
	template_ctx_set_bool(out, "accept", true);
	ctx = template_ctx_new();
	game_ctx(h, g, ctx);
	ret = undo_taken_ctx(h, g, &taken, index, passes, out);
	if (ret == 0)
		ret = undo_taken_ctx(h, g, &taken, index, passes, ctx);
	if (ret == 0)
		ret = undo_notices_undone(h, g, opp, ctx);
	template_ctx_free(&ctx);
	return ret;
}

int undo_run(struct handle *h, const struct command *c, struct game *g,
	     struct template_ctx *out)
{
	int color = game_my_color(h, g);
	int64_t opp = game_player_of(g, color == CORE_WHITE ? CORE_BLACK :
					CORE_WHITE);
	int64_t by = 0;
	const char *error;
	bool pending;
	int at = 0, r;

	if (c->undo == COMMAND_UNDO_OFFER &&
	    (r = bot_refuse_offer(h, g, opp, "take-back")) != 0)
		return r;
	r = store_undo_offer_get(h->srv->store, g->row->id, &by, &at, &error);
	if (r < 0)
		return server_store_fail(h, error);
	/* A request counts while the game is where it was made: a move by
	 * either player since ended it. */
	pending = r == 1 && at == g->row->ply;
	if (c->undo == COMMAND_UNDO_OFFER)
		return undo_offer(h, g, pending ? by : 0, opp, out);
	if (pending && by == h->me->id)
		return game_refuse(h, "undo_own_offer", g->row->id);
	if (!pending || by != opp)
		return game_refuse(h, "no_undo_offer", g->row->id);
	if (c->undo == COMMAND_UNDO_DECLINE)
		return undo_decline(h, g, opp, out);
	return undo_accept(h, g, opp, out);
}
