/* recipient.c -- what each reader of a mail chose with `set KEY VALUE`,
 * as the mail to them honours it: the legal-move list (moves), their
 * own move shown in the next "your move" mail when no reply confirmed
 * it (confirm off), and an observer's notice kept for the daily digest
 * (digest on).  The picture (pictures) is queue.c's to attach, through
 * server_recipient_settings().  Reads the store only: the mails
 * themselves are notice.c's, reply.c's and digest.c's. */
#include "server/server_private.h"

#include <stdlib.h>

int server_recipient_settings(struct handle *h, int64_t player_id,
			      struct store_settings *s_r)
{
	const char *error;

	if (store_settings_get(h->srv->store, player_id, s_r, &error) < 0)
		return server_store_fail(h, error);
	return 0;
}

int recipient_moves_ctx(struct handle *h, int64_t player_id,
			struct template_ctx *ctx)
{
	struct store_settings s;

	if (server_recipient_settings(h, player_id, &s) < 0)
		return -1;
	/* One flag each, for mail/legal-moves.txt: a ctx shared by the
	 * mails of one change is worded for each reader in turn. */
	template_ctx_set_bool(ctx, "moves_full", s.moves == STORE_MOVES_FULL);
	template_ctx_set_bool(ctx, "moves_short", s.moves == STORE_MOVES_SHORT);
	template_ctx_set_bool(ctx, "moves_none", s.moves == STORE_MOVES_NONE);
	return 0;
}

int recipient_moves_from(struct handle *h, const struct game *g,
			 int64_t player_id, size_t from, size_t *from_r)
{
	struct store_settings s;
	struct store_move *moves = NULL;
	const char *error;
	size_t n = 0;

	*from_r = from;
	/* Nothing new (a resignation, a game begun), or nobody to tell. */
	if (player_id == 0 || from == 0 || !g->rec_ok ||
	    from >= g->rec.nplies)
		return 0;
	if (server_recipient_settings(h, player_id, &s) < 0)
		return -1;
	if (s.confirm)
		return 0;
	/* Who played each ply is the stored record's (a swap exchanges the
	 * seats, so colours do not say it); forced passes have nobody. */
	if (store_game_move_records(h->srv->store, g->row->id, &moves, &n,
				    &error) < 0)
		return server_store_fail(h, error);
	for (size_t i = from < n ? from : n; i-- > 0;)
		if (moves[i].player_id == player_id) {
			*from_r = i;
			break;
		}
	/* Their own move is among the new plies already (the opponent had
	 * to pass): nothing to add. */
	for (size_t i = from; i < n; i++)
		if (moves[i].player_id == player_id)
			*from_r = from;
	store_rows_free(&moves, n, sizeof(*moves), store_move_clear);
	return 0;
}

int recipient_last_moves_ctx(struct handle *h, const struct game *g,
			     size_t from, struct template_ctx *ctx)
{
	template_ctx_set_bool(ctx, "last_moves", false);
	template_ctx_set_bool(ctx, "has_last_moves", false);
	return game_last_moves_ctx(h, g, from, ctx);
}

int recipient_digest_note(struct handle *h, const struct game *g,
			  int64_t player_id, size_t from)
{
	struct store_settings s;
	const char *error;

	if (server_recipient_settings(h, player_id, &s) < 0)
		return -1;
	if (!s.digest)
		return 0;
	if (store_digest_add(h->srv->store, player_id, g->row->id, (int)from,
			     h->now, &error) < 0)
		return server_store_fail(h, error);
	return 1;
}
