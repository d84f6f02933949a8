/* view.c -- the commands that read: board, moves and history of a game,
 * the sender's games and the open challenges, and observing a game. */
#include "server/server_private.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/render.h"

/* board, moves, history: a view of one game, for any player. */
int view_game(struct handle *h, const struct command *c, struct game *g,
	      struct template_ctx *out)
{
	game_ctx(h, g, out);
	if (c->kind == COMMAND_HISTORY) {
		size_t need = record_format(&g->rec, NULL, 0);
		char *text = malloc(need + 1);
		if (text == NULL)
			return server_store_fail(h, "out of memory");
		record_format(&g->rec, text, need + 1);
		template_ctx_set(out, "record", text);
		free(text);
		return game_last_moves_ctx(h, g, 0, out);
	}
	if (c->kind == COMMAND_MOVES) {
		struct buf plain = BUF_INIT;
		render_legal_moves_plain(&g->rec.pos, &plain);
		template_ctx_set(out, "moves_plain", buf_str(&plain));
		buf_free(&plain);
		return 0;
	}
	if (g->rec.nplies > 0)
		return game_last_moves_ctx(h, g, g->rec.nplies - 1, out);
	return 0;
}

int view_games(struct handle *h, const struct command *c, struct game *g,
	       struct template_ctx *out)
{
	struct store_game *games = NULL;
	size_t n = 0;
	const char *error;
	unsigned mask = (1u << STORE_GAME_CHALLENGE) | (1u << STORE_GAME_OPEN) |
			(1u << STORE_GAME_ACTIVE);
	int ret = 0;

	(void)c;
	(void)g;
	if (store_games_for_player(h->srv->store, h->me->id, mask, &games, &n,
				   &error) < 0)
		return server_store_fail(h, error);
	template_ctx_list(out, "games");
	for (size_t i = 0; i < n && ret == 0; i++) {
		struct template_ctx *it = template_ctx_add(out, "games");
		const struct store_game *r = &games[i];
		char name[COMMAND_NAME_MAX + 1];
		/* Plies alternate colours, except that a swap leaves Black
		 * to move (and the service swaps the seats at that ply). */
		bool black_next = (r->ply % 2 == 1) != r->swapped;
		int64_t to_move = black_next ? r->black_id : r->white_id;
		int64_t opp = r->white_id == h->me->id ? r->black_id :
			      r->white_id;

		template_ctx_setf(it, "game", "%" PRId64, r->id);
		template_ctx_set(it, "status", store_game_status_name(r->status));
		template_ctx_set(it, "variant", r->variant);
		template_ctx_set_int(it, "next_ply", r->ply + 1);
		if ((ret = game_player_name(h, opp, name)) < 0)
			break;
		if (name[0] != '\0')
			template_ctx_set(it, "opponent", name);
		template_ctx_set_bool(it, "active",
				      r->status == STORE_GAME_ACTIVE);
		template_ctx_set_bool(it, "my_turn",
				      r->status == STORE_GAME_ACTIVE &&
				      to_move == h->me->id);
		template_ctx_set_bool(it, "waiting_me",
				      r->status == STORE_GAME_CHALLENGE &&
				      r->black_id == h->me->id);
		template_ctx_set_bool(it, "open", r->status == STORE_GAME_OPEN);
	}
	store_rows_free(&games, n, sizeof(*games), store_game_clear);
	if (ret < 0)
		return -1;
	/* Open challenges by others that the sender could accept. */
	if (store_games_list(h->srv->store, 1u << STORE_GAME_OPEN, 0, 20,
			     &games, &n, &error) < 0)
		return server_store_fail(h, error);
	template_ctx_list(out, "open_games");
	for (size_t i = 0; i < n && ret == 0; i++) {
		struct template_ctx *it;
		char name[COMMAND_NAME_MAX + 1];
		if (games[i].challenger_id == h->me->id)
			continue;
		it = template_ctx_add(out, "open_games");
		template_ctx_setf(it, "game", "%" PRId64, games[i].id);
		template_ctx_set(it, "variant", games[i].variant);
		ret = game_player_name(h, games[i].challenger_id, name);
		template_ctx_set(it, "challenger", name);
	}
	store_rows_free(&games, n, sizeof(*games), store_game_clear);
	return ret < 0 ? -1 : 0;
}

int view_observe(struct handle *h, const struct command *c, struct game *g,
		 struct template_ctx *out)
{
	bool add = c->kind == COMMAND_OBSERVE;
	const char *error;
	int ret;

	if (add && game_my_color(h, g) >= 0)
		return game_refuse(h, "observe_own", g->row->id);
	ret = add ? store_observer_add(h->srv->store, g->row->id, h->me->id,
				       h->now, &error) :
		    store_observer_remove(h->srv->store, g->row->id, h->me->id,
					  &error);
	if (ret < 0)
		return server_store_fail(h, error);
	game_ctx(h, g, out);
	template_ctx_set_bool(out, add ? "observe" : "unobserve", true);
	/* observer_add: 1 already; observer_remove: 0 was not. */
	template_ctx_set_bool(out, "no_change", add ? ret == 1 : ret == 0);
	return 0;
}
