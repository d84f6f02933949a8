/* admin.c -- the service's views for the operator (`ashes game show`):
 * a game's players, status, board, every stored ply (those played from
 * conditional moves marked), the notes its players sent each other, a
 * pending request to take back a move, the conditional moves waiting
 * and the clock history, worded by templates/admin-game.txt. */
#include "server/server_private.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "store/store_conditional.h"

int admin_game_load(struct server *server, struct handle *h,
		    int64_t game_id, int64_t now, struct game *g,
		    const char **error_r)
{
	int ret;

	server_handle_at(server, h, now);
	ret = game_load(h, game_id, g, true);
	template_ctx_free(&h->refusal);
	if (ret > 0)
		return 0;
	if (ret == 0)
		snprintf(server->errbuf, sizeof(server->errbuf),
			 "no game %" PRId64, game_id);
	else
		snprintf(server->errbuf, sizeof(server->errbuf),
			 "game %" PRId64 ": %s", game_id, h->error);
	*error_r = server->errbuf;
	return -1;
}

/* The notes the players sent each other, every one: "notes". */
static int admin_notes(struct handle *h, const struct game *g)
{
	struct store_game_message *notes = NULL;
	size_t n = 0;
	const char *error;
	int ret = 0;

	if (store_game_messages(h->srv->store, g->row->id, &notes, &n,
				&error) < 0)
		return server_store_fail(h, error);
	template_ctx_list(h->reply, "notes");
	template_ctx_set_bool(h->reply, "any_notes", n > 0);
	for (size_t i = 0; i < n && ret == 0; i++) {
		struct template_ctx *it = template_ctx_add(h->reply, "notes");
		char name[COMMAND_NAME_MAX + 1];
		template_ctx_set_int(it, "sent_ply", notes[i].ply);
		template_ctx_set(it, "note", notes[i].text);
		server_set_utc(it, "sent_at", notes[i].created, true);
		template_ctx_setf(it, "inbound", "%" PRId64,
				  notes[i].inbound_id);
		ret = game_player_name(h, notes[i].player_id, name);
		template_ctx_set(it, "from", name);
	}
	store_rows_free(&notes, n, sizeof(*notes), store_game_message_clear);
	return ret;
}

/* The conditional moves waiting in g, each player's tree as stored:
 * "cond_trees" (player, from, played, received, inbound, lines). */
static int admin_cond_trees(struct handle *h, const struct game *g)
{
	struct store_cond_tree *t = NULL;
	size_t n = 0;
	const char *error;
	int ret = 0;

	if (store_cond_trees(h->srv->store, g->row->id, &t, &n, &error) < 0)
		return server_store_fail(h, error);
	template_ctx_list(h->reply, "cond_trees");
	for (size_t i = 0; i < n; i++) {
		struct template_ctx *it;
		char name[COMMAND_NAME_MAX + 1];

		if (ret == 0 && t[i].nlines > 0 &&
		    g->row->status == STORE_GAME_ACTIVE &&
		    (ret = game_player_name(h, t[i].player_id, name)) == 0) {
			it = template_ctx_add(h->reply, "cond_trees");
			template_ctx_set(it, "player", name);
			template_ctx_set_int(it, "from", t[i].base_ply);
			template_ctx_set_int(it, "played", t[i].played);
			server_set_utc(it, "received", t[i].received, true);
			template_ctx_setf(it, "inbound", "%" PRId64,
					  t[i].inbound_id);
			template_ctx_list(it, "lines");
			for (size_t k = 0; k < t[i].nlines; k++)
				template_ctx_set(template_ctx_add(it, "lines"),
						 "moves", t[i].lines[k].moves);
		}
		store_cond_tree_clear(&t[i]);
	}
	free(t);
	return ret;
}

/* Mark the items of "plies" played from conditional moves. */
static int admin_cond_plies(struct handle *h, const struct game *g,
			    struct template_ctx **items, size_t n)
{
	struct store_cond_ply *c = NULL;
	size_t nc = 0;
	const char *error;

	if (store_cond_plies(h->srv->store, g->row->id, &c, &nc, &error) < 0)
		return server_store_fail(h, error);
	for (size_t i = 0; i < nc; i++)
		if (c[i].ply >= 1 && (size_t)c[i].ply <= n)
			template_ctx_set_int(items[c[i].ply - 1], "cond_from",
					     c[i].base_ply);
	free(c);
	return 0;
}

/* A request to take back a move that still counts (the game is at its
 * ply): "undo_asked_by", "undo_asked_ply". */
static int admin_undo_request(struct handle *h, const struct game *g)
{
	char name[COMMAND_NAME_MAX + 1];
	const char *error;
	int64_t by;
	int ply, r;

	r = store_undo_offer_get(h->srv->store, g->row->id, &by, &ply, &error);
	if (r < 0)
		return server_store_fail(h, error);
	if (r == 0 || ply != g->row->ply ||
	    g->row->status != STORE_GAME_ACTIVE)
		return 0;
	if (game_player_name(h, by, name) < 0)
		return -1;
	template_ctx_set(h->reply, "undo_asked_by", name);
	template_ctx_set_int(h->reply, "undo_asked_ply", ply);
	return 0;
}

/* The game's clock history: "clock_events" (admin_clock.c shows it too). */
int admin_clock_history(struct handle *h, const struct game *g,
			struct template_ctx *ctx)
{
	struct store_clock_event *ev = NULL;
	size_t n = 0;
	const char *error;
	int ret = 0;

	if (store_clock_events(h->srv->store, g->row->id, &ev, &n,
			       &error) < 0)
		return server_store_fail(h, error);
	template_ctx_list(ctx, "clock_events");
	template_ctx_set_bool(ctx, "any_clock_events", n > 0);
	for (size_t i = 0; i < n && ret == 0; i++) {
		struct template_ctx *it = template_ctx_add(ctx, "clock_events");
		char name[COMMAND_NAME_MAX + 1], span[64];

		template_ctx_set(it, "kind", store_clock_kind_name(ev[i].kind));
		server_set_utc(it, "at", ev[i].at, true);
		if (ev[i].seconds != 0) {
			game_clock_span(ev[i].seconds < 0 ? -ev[i].seconds :
					ev[i].seconds, span, sizeof(span));
			template_ctx_setf(it, "seconds", "%s%s",
					  ev[i].seconds < 0 ? "-" : "+", span);
		}
		if (ev[i].note != NULL)
			template_ctx_set(it, "note", ev[i].note);
		if (ev[i].inbound_id != 0)
			template_ctx_setf(it, "inbound", "%" PRId64,
					  ev[i].inbound_id);
		ret = game_player_name(h, ev[i].player_id, name);
		if (name[0] != '\0')
			template_ctx_set(it, "player", name);
	}
	store_rows_free(&ev, n, sizeof(*ev), store_clock_event_clear);
	return ret;
}

int server_game_show(struct server *server, int64_t game_id, int64_t now,
		     struct buf *out, const char **error_r)
{
	struct handle h;
	struct game g;
	struct store_move *moves = NULL;
	struct template_ctx **items = NULL;
	size_t n = 0;
	const char *error;
	int ret;

	if (admin_game_load(server, &h, game_id, now, &g, error_r) < 0)
		return -1;
	h.reply = template_ctx_new();
	game_ctx(&h, &g, h.reply);
	server_set_utc(h.reply, "created", g.row->created, true);
	server_set_utc(h.reply, "updated", g.row->updated, true);
	if (store_game_move_records(server->store, game_id, &moves, &n,
				    &error) < 0) {
		ret = server_store_fail(&h, error);
		goto out;
	}
	template_ctx_list(h.reply, "plies");
	template_ctx_set_bool(h.reply, "any_plies", n > 0);
	items = calloc(n + 1, sizeof(*items));
	for (size_t i = 0; i < n; i++) {
		struct template_ctx *it = template_ctx_add(h.reply, "plies");
		char name[COMMAND_NAME_MAX + 1];
		items[i] = it;
		template_ctx_set_int(it, "ply", moves[i].ply);
		template_ctx_set(it, "move", moves[i].text);
		server_set_utc(it, "played_at", moves[i].played_at, true);
		template_ctx_setf(it, "inbound", "%" PRId64,
				  moves[i].inbound_id);
		if ((ret = game_player_name(&h, moves[i].player_id, name)) < 0)
			goto out;
		template_ctx_set(it, "player", name[0] ? name : "(forced)");
	}
	if ((ret = admin_cond_plies(&h, &g, items, n)) < 0 ||
	    (ret = admin_notes(&h, &g)) < 0 ||
	    (ret = admin_undo_request(&h, &g)) < 0 ||
	    (ret = admin_cond_trees(&h, &g)) < 0 ||
	    (ret = admin_clock_history(&h, &g, h.reply)) < 0)
		goto out;
	ret = server_render(&h, "admin-game.txt", h.reply, out);
out:
	if (ret < 0) {
		snprintf(server->errbuf, sizeof(server->errbuf), "%s", h.error);
		*error_r = server->errbuf;
	}
	free(items);
	store_rows_free(&moves, n, sizeof(*moves), store_move_clear);
	template_ctx_free(&h.reply);
	game_free(&g);
	return ret < 0 ? -1 : 0;
}
