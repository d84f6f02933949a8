/* view.c -- the commands that read: board, moves and history of a game,
 * the sender's games (in play, and the last finished) and the open
 * challenges, and observing a game. */
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
	/* The sender's own notes (note.c): the latest on the board, all in
	 * the history; nothing for someone who does not play. */
	if (c->kind != COMMAND_MOVES &&
	    note_ctx(h, g, h->me->id, c->kind == COMMAND_HISTORY ? 0 :
		     NOTE_SHOWN, out) < 0)
		return -1;
	if (c->kind == COMMAND_HISTORY) {
		char *text;
		/* The notes are between the players: only theirs. */
		if (game_record_text(h, g, game_my_color(h, g) >= 0,
				     &text) < 0)
			return -1;
		template_ctx_set(out, "record", text);
		free(text);
		if (message_list_ctx(h, g, out) < 0)
			return -1;
		return game_last_moves_ctx(h, g, 0, out);
	}
	if (c->kind == COMMAND_MOVES) {
		struct buf plain = BUF_INIT;
		/* The player's own stacks first, growth last. */
		render_legal_moves_lines(&g->rec.pos, &plain);
		template_ctx_set(out, "moves_plain", buf_str(&plain));
		buf_free(&plain);
		return 0;
	}
	if (g->rec.nplies > 0)
		return game_last_moves_ctx(h, g, g->rec.nplies - 1, out);
	return 0;
}

/* How many finished games `games` lists, the latest first: enough to
 * find a recent result, short enough for a mail. */
#define VIEW_FINISHED_LISTED 10

/* The flags of mail/cmd-games.txt (and render_position_ctx()) for how a
 * game ended, from the row's end_reason (core_end_reason_name()). */
static const struct {
	const char *reason, *flag;
} view_end_flags[] = {
	{ "elimination", "by_elimination" },
	{ "double pass", "by_double_pass" },
	{ "resignation", "by_resignation" },
	{ "agreed draw", "by_agreement" },
	{ "time", "by_time" },
};

/* The sender's finished games, the latest first: "finished" items with
 * the opponent, the result for the sender (won, lost, drawn) and how the
 * game ended.  0 or -1. */
static int view_finished(struct handle *h, struct template_ctx *out)
{
	struct store_game *games = NULL;
	size_t n = 0;
	const char *error;
	int ret = 0;

	if (store_games_finished_for_player(h->srv->store, h->me->id,
					    VIEW_FINISHED_LISTED, &games, &n,
					    &error) < 0)
		return server_store_fail(h, error);
	template_ctx_list(out, "finished");
	template_ctx_set_bool(out, "has_finished", n > 0);
	for (size_t i = 0; i < n && ret == 0; i++) {
		struct template_ctx *it = template_ctx_add(out, "finished");
		const struct store_game *r = &games[i];
		bool white = r->white_id == h->me->id;
		const char *res = r->result != NULL ? r->result : "";
		char name[COMMAND_NAME_MAX + 1];

		template_ctx_setf(it, "game", "%" PRId64, r->id);
		template_ctx_set(it, "variant", r->variant);
		template_ctx_set_int(it, "plies", r->ply);
		template_ctx_set_bool(it, "plies_one", r->ply == 1);
		template_ctx_set(it, "result_text", res);
		if ((ret = game_player_name(h, white ? r->black_id : r->white_id,
					    name)) < 0)
			break;
		template_ctx_set(it, "opponent", name);
		template_ctx_set_bool(it, "won", strcmp(res, white ? "1-0" :
							"0-1") == 0);
		template_ctx_set_bool(it, "lost", strcmp(res, white ? "0-1" :
							 "1-0") == 0);
		template_ctx_set_bool(it, "drawn", strcmp(res, "1/2-1/2") == 0);
		for (size_t k = 0; k < sizeof(view_end_flags) /
				       sizeof(view_end_flags[0]); k++)
			if (r->end_reason != NULL &&
			    strcmp(r->end_reason, view_end_flags[k].reason) == 0)
				template_ctx_set_bool(it, view_end_flags[k].flag,
						      true);
	}
	store_rows_free(&games, n, sizeof(*games), store_game_clear);
	return ret < 0 ? -1 : 0;
}

/* games: the sender's challenges and games in play (with whose turn it
 * is), their last finished games, and the open challenges of others. */
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
	template_ctx_set_bool(out, "has_games", n > 0);
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
		bool active = r->status == STORE_GAME_ACTIVE;

		template_ctx_setf(it, "game", "%" PRId64, r->id);
		template_ctx_set(it, "status", store_game_status_name(r->status));
		template_ctx_set(it, "variant", r->variant);
		template_ctx_set_int(it, "next_ply", r->ply + 1);
		if ((ret = game_player_name(h, opp, name)) < 0)
			break;
		if (name[0] != '\0')
			template_ctx_set(it, "opponent", name);
		template_ctx_set_bool(it, "active", active);
		template_ctx_set_bool(it, "my_turn",
				      active && to_move == h->me->id);
		/* The opponent's turn: say whose, so a list of waits reads
		 * as one. */
		template_ctx_set_bool(it, "their_turn",
				      active && to_move != h->me->id);
		template_ctx_set_bool(it, "waiting_me",
				      r->status == STORE_GAME_CHALLENGE &&
				      r->challenger_id != h->me->id);
		template_ctx_set_bool(it, "open", r->status == STORE_GAME_OPEN);
	}
	store_rows_free(&games, n, sizeof(*games), store_game_clear);
	if (ret < 0 || view_finished(h, out) < 0)
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
		template_ctx_set_bool(out, "has_open_games", true);
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
