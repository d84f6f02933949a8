/* message.c -- `message GAME TEXT`: a note from one player of a game to
 * the other, relayed by mail and archived with the game (the game's
 * `history` shows the notes to its players, `ashes game show` to the
 * operator).  The table in commands.c has loaded the game; this file
 * checks who may write, archives the note and mails it on.
 *
 * The note is relayed as the sender signed it, one line, quoted ("> "
 * after a "NAME wrote:" line) so that even a relay we sign holds no line
 * the command reader would run, and the mail that carries it says whose
 * key signed it: the opponent cannot check a signature on a relayed
 * text, so the service vouches for it.  A note holding a control, bidi
 * or invisible character is refused, naming it. */
#include "server/server_private.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Has this mail already sent a note in game g?  1 yes, 0 no, -1.  One
 * note per game and mail: a mail of 64 `message` lines must not become
 * 64 mails to the opponent (the rate limit counts mails, not lines). */
static int message_sent_already(struct handle *h, const struct game *g)
{
	struct store_game_message *notes = NULL;
	size_t n = 0;
	const char *error;
	int found = 0;

	if (h->inbound_id == 0)
		return 0;
	if (store_game_messages(h->srv->store, g->row->id, &notes, &n,
				&error) < 0)
		return server_store_fail(h, error);
	for (size_t i = 0; i < n; i++)
		if (notes[i].inbound_id == h->inbound_id)
			found = 1;
	store_rows_free(&notes, n, sizeof(*notes), store_game_message_clear);
	return found;
}

int message_send(struct handle *h, const struct command *c, struct game *g,
		 struct template_ctx *out)
{
	const struct server_inbound *msg = h->msg;
	struct template_ctx *ctx;
	const char *error;
	char bad[64];
	int64_t opp;
	int color, ret;

	if (g->row->status != STORE_GAME_ACTIVE &&
	    g->row->status != STORE_GAME_FINISHED)
		return game_refuse_status(h, g);
	color = game_my_color(h, g);
	if (color < 0)
		return game_refuse(h, "not_your_game", g->row->id);
	/* The command language hands over a trimmed, non-empty text; an
	 * empty one is refused here too, should that ever change. */
	if (c->note[0] == '\0') {
		server_refuse(h, "e_missing_arg");
		template_ctx_set(h->refusal, "detail", "TEXT");
		return REFUSED;
	}
	if (server_text_bad_char(c->note, bad, sizeof(bad))) {
		ret = game_refuse(h, "message_bad_text", g->row->id);
		template_ctx_set(h->refusal, "char", bad);
		return ret;
	}
	if ((ret = message_sent_already(h, g)) != 0)
		return ret < 0 ? -1 : game_refuse(h, "message_once", g->row->id);
	opp = game_player_of(g, color == CORE_WHITE ? CORE_BLACK : CORE_WHITE);
	if (store_game_message_add(h->srv->store, g->row->id, g->row->ply,
				   h->me->id, c->note, h->inbound_id, h->now,
				   NULL, &error) < 0)
		return server_store_fail(h, error);

	game_names_ctx(g, out);
	template_ctx_set(out, "note", c->note);
	template_ctx_set_int(out, "sent_ply", g->row->ply);
	template_ctx_set_bool(out, "sent_at_start", g->row->ply == 0);
	template_ctx_set(out, "to_name", color == CORE_WHITE ? g->black :
			 g->white);

	ctx = template_ctx_new();
	game_names_ctx(g, ctx);
	template_ctx_set(ctx, "me", h->me->name);
	template_ctx_set(ctx, "note", c->note);
	template_ctx_set_int(ctx, "sent_ply", g->row->ply);
	template_ctx_set_bool(ctx, "sent_at_start", g->row->ply == 0);
	template_ctx_set_bool(ctx, "over",
			      g->row->status == STORE_GAME_FINISHED);
	/* What the service vouches for: the key gpg verified, or that
	 * there was none (a club that takes unsigned mail). */
	if (msg->fingerprint != NULL && !h->weak)
		template_ctx_set(ctx, "fingerprint", msg->fingerprint);
	else
		template_ctx_set_bool(ctx, "unsigned", true);
	ret = notice_send(h, g, opp, NOTICE_MESSAGE, ctx);
	template_ctx_free(&ctx);
	return ret;
}

int message_list_ctx(struct handle *h, const struct game *g,
		     struct template_ctx *ctx)
{
	struct store_game_message *notes = NULL;
	size_t n = 0;
	const char *error;
	int ret = 0;

	template_ctx_list(ctx, "notes");
	if (game_my_color(h, g) < 0)
		return 0;
	if (store_game_messages(h->srv->store, g->row->id, &notes, &n,
				&error) < 0)
		return server_store_fail(h, error);
	template_ctx_set_bool(ctx, "has_notes", n > 0);
	for (size_t i = 0; i < n && ret == 0; i++) {
		struct template_ctx *it = template_ctx_add(ctx, "notes");
		char from[COMMAND_NAME_MAX + 1];
		ret = game_player_name(h, notes[i].player_id, from);
		template_ctx_set_int(it, "sent_ply", notes[i].ply);
		template_ctx_set_bool(it, "sent_at_start", notes[i].ply == 0);
		template_ctx_set(it, "note", notes[i].text);
		template_ctx_set(it, "from", from);
		template_ctx_set_bool(it, "mine",
				      notes[i].player_id == h->me->id);
		server_set_utc(it, "sent_at", notes[i].created, false);
	}
	store_rows_free(&notes, n, sizeof(*notes), store_game_message_clear);
	return ret;
}
