/* notice.c -- the mails the service sends besides replies: after a game
 * changed, "your move" to the player to move, the result to both players,
 * a notice to every observer; and the notices of one event (a challenge,
 * a challenge closed, a draw offer, a key revoked).  Each notice has a
 * kind (the envelope's), a template and a subject word, in
 * server_notices[]; the subject is worded for each reader.  A reader
 * with a daily summary gets the non-urgent ones in it (summary.c). */
#include "server/server_private.h"

#include <stdlib.h>
#include <string.h>

const struct server_notice_def server_notices[NOTICE_COUNT] = {
	[NOTICE_YOUR_MOVE] = { STORE_OUTBOX_KIND_YOUR_MOVE,
			       "mail/your-move.txt", "your_move", true },
	[NOTICE_RESULT] = { STORE_OUTBOX_KIND_RESULT, "mail/result.txt",
			    "result", true },
	[NOTICE_OBSERVER] = { STORE_OUTBOX_KIND_OBSERVER, "mail/observer.txt",
			      "observer", true },
	[NOTICE_CHALLENGE] = { STORE_OUTBOX_KIND_CHALLENGE,
			       "mail/challenge.txt", "challenge" },
	[NOTICE_CHALLENGE_CLOSED] = { STORE_OUTBOX_KIND_CHALLENGE,
				      "mail/challenge-closed.txt",
				      "challenge_closed" },
	[NOTICE_DRAW] = { STORE_OUTBOX_KIND_DRAW, "mail/draw.txt", "draw" },
	[NOTICE_KEY_REVOKED] = { STORE_OUTBOX_KIND_NOTICE,
				 "mail/key-revoked.txt", NULL },
	[NOTICE_MESSAGE] = { STORE_OUTBOX_KIND_MESSAGE, "mail/message.txt",
			     "message" },
	[NOTICE_UNDO] = { STORE_OUTBOX_KIND_UNDO, "mail/undo.txt", "undo" },
	/* A move taken back: the position changed. */
	[NOTICE_UNDONE] = { STORE_OUTBOX_KIND_UNDONE, "mail/undo.txt",
			    "undone", true },
	/* What happened to a clock: a flag, a vacation, time given. */
	[NOTICE_CLOCK] = { STORE_OUTBOX_KIND_CLOCK, "mail/clock-notice.txt",
			   "clock" },
	/* What a ladder did with a game: a walkover. */
	[NOTICE_LADDER] = { STORE_OUTBOX_KIND_LADDER,
			    "mail/ladder-notice.txt", "ladder" },
	/* A reply played from the reader's conditional moves. */
	[NOTICE_CONDITIONAL] = { STORE_OUTBOX_KIND_NOTICE,
				 "mail/conditional-played.txt", "conditional",
				 true },
};

/* Is it player pid's turn in g?  (A draw offer reads differently to the
 * player who may answer it by moving.) */
static bool notice_to_move(const struct game *g, int64_t pid)
{
	return g->rec_ok && g->row->status == STORE_GAME_ACTIVE &&
	       game_player_of(g, g->rec.pos.to_move) == pid;
}

/* The words of the last moves and the clocks' time left a shared ctx
 * holds, again in the language of h->ts if they were worded in another
 * (a game's notices go to readers of different languages). */
static int notice_reword(struct handle *h, const struct game *g,
			 struct template_ctx *ctx)
{
	const char *lang = template_ctx_get(ctx, "last_moves_lang");
	const char *from = template_ctx_get(ctx, "last_moves_from");

	if (g != NULL && g->has_clock &&
	    (template_ctx_get(ctx, "clock_white") != NULL ||
	     template_ctx_get(ctx, "given_seconds") != NULL))
		game_clock_left_ctx(h, g, ctx);
	if (g == NULL || lang == NULL || from == NULL ||
	    strcmp(lang, template_set_lang(h->ts)) == 0)
		return 0;
	return recipient_last_moves_ctx(h, g, (size_t)strtoul(from, NULL, 10),
					ctx);
}

static int notice_send_to(struct handle *h, struct game *g, int64_t pid,
			  enum server_notice n, struct template_ctx *ctx,
			  const char *tpl, enum store_outbox_kind kind,
			  const char *about);

int notice_send(struct handle *h, struct game *g, int64_t pid,
		enum server_notice n, struct template_ctx *ctx)
{
	const char *tpl = server_notices[n].template;
	enum store_outbox_kind kind = server_notices[n].kind;
	/* One template may tell several events (an offer, a decline). */
	const char *about = template_ctx_get(ctx, "subject_kind");
	struct template_set *was = h->ts;
	int ret;

	if (pid == 0)
		return 0;
	/* Written in the reader's language; the sender's again after. */
	ret = server_write_to(h, pid);
	if (ret == 0)
		ret = notice_reword(h, g, ctx);
	if (ret == 0)
		ret = notice_send_to(h, g, pid, n, ctx, tpl, kind, about);
	h->ts = was;
	/* The ctx may be the sender's reply's too: its words are theirs
	 * again. */
	if (ret == 0)
		ret = notice_reword(h, g, ctx);
	return ret;
}

/* notice_send() in the reader's language. */
static int notice_send_to(struct handle *h, struct game *g, int64_t pid,
			  enum server_notice n, struct template_ctx *ctx,
			  const char *tpl, enum store_outbox_kind kind,
			  const char *about)
{
	struct store_player *p = NULL;
	struct buf body = BUF_INIT, subject = BUF_INIT;
	const char *error;
	int ret;

	ret = store_player_load(h->srv->store, pid, &p, &error);
	if (ret < 0)
		return server_store_fail(h, error);
	if (ret == 0)
		return 0;
	template_ctx_set(ctx, "recipient", p->name);
	template_ctx_set_bool(ctx, "recipient_to_move", notice_to_move(g, pid));
	/* The deadline in the reader's zone, their vacation days. */
	if (game_clock_reader_ctx(h, g, pid, ctx) < 0) {
		store_player_free(&p);
		return -1;
	}
	/* The legal moves as this reader chose (`set moves`). */
	ret = recipient_moves_ctx(h, pid, ctx);
	/* The reader's own notes on the game, in their "your move" and
	 * result mails only; and never what an earlier reader's left. */
	if (ret == 0 && (n == NOTICE_YOUR_MOVE || n == NOTICE_RESULT))
		ret = note_ctx(h, g, pid, NOTE_SHOWN, ctx);
	else
		note_ctx_clear(ctx);
	/* The end of a game offers its rematch, in the colour the reader
	 * would play (rematch.c: who moved first moves second). */
	template_ctx_set_bool(ctx, "rematch_white", n == NOTICE_RESULT &&
			      g->row->status == STORE_GAME_FINISHED &&
			      pid != game_first_mover(g));
	template_ctx_set_bool(ctx, "rematch_black", n == NOTICE_RESULT &&
			      g->row->status == STORE_GAME_FINISHED &&
			      pid == game_first_mover(g));
	/* `set summary daily HH:MM`: held back for the summary instead. */
	if (ret == 0)
		ret = summary_note(h, g, p, n, tpl, ctx);
	if (ret == 1) {
		store_player_free(&p);
		return 0;
	}
	if (ret == 0)
		ret = server_render(h, tpl, ctx, &body);
	note_ctx_clear(ctx);
	template_ctx_set_bool(ctx, "rematch_white", false);
	template_ctx_set_bool(ctx, "rematch_black", false);
	if (ret == 0)
		ret = game_subject(h, g, pid, about != NULL ? about :
				   server_notices[n].subject, &subject);
	if (ret == 0)
		ret = server_queue_notice(h, p, g, server_notices[n].picture,
					  kind, &subject, &body);
	buf_free(&body);
	buf_free(&subject);
	store_player_free(&p);
	return ret;
}

/* The game's state, the last plies from `from`, and (for a notice to the
 * player to move) the legal moves: the variables of your-move.txt,
 * observer.txt and result.txt. */
static int notice_ctx(struct handle *h, struct game *g, size_t from,
		      struct template_ctx **ctx_r)
{
	struct template_ctx *ctx = template_ctx_new();

	game_ctx(h, g, ctx);
	if (game_last_moves_ctx(h, g, from, ctx) < 0) {
		template_ctx_free(&ctx);
		return -1;
	}
	*ctx_r = ctx;
	return 0;
}

int notice_game(struct handle *h, struct game *g, size_t from,
		struct template_ctx *given)
{
	struct template_ctx *ctx = given, *own = NULL;
	int64_t *obs = NULL;
	size_t nobs = 0;
	const char *error;
	int ret = 0;

	/* `given` already holds game_ctx() and the last moves from `from`. */
	if (ctx == NULL) {
		if (notice_ctx(h, g, from, &own) < 0)
			return -1;
		ctx = own;
	}
	if (g->row->status == STORE_GAME_FINISHED ||
	    g->row->status == STORE_GAME_CANCELLED) {
		ret = notice_send(h, g, g->row->white_id, NOTICE_RESULT, ctx);
		if (ret == 0)
			ret = notice_send(h, g, g->row->black_id,
					  NOTICE_RESULT, ctx);
	} else {
		int64_t pid = game_player_of(g, g->rec.pos.to_move);
		size_t shown;
		/* Without confirmations (`set confirm off`) this mail shows
		 * the player's own last move too; then the plies from `from`
		 * are put back for the others. */
		ret = recipient_moves_from(h, g, pid, from, &shown);
		if (ret == 0 && shown != from)
			ret = recipient_last_moves_ctx(h, g, shown, ctx);
		if (ret == 0)
			ret = notice_send(h, g, pid, NOTICE_YOUR_MOVE, ctx);
		if (ret == 0 && shown != from)
			ret = recipient_last_moves_ctx(h, g, from, ctx);
	}
	if (ret == 0 &&
	    store_observer_list(h->srv->store, g->row->id, &obs, &nobs,
				&error) < 0)
		ret = server_store_fail(h, error);
	for (size_t i = 0; ret == 0 && i < nobs; i++) {
		/* `set digest on`: noted for the daily digest instead. */
		ret = recipient_digest_note(h, g, obs[i], from);
		if (ret == 0)
			ret = notice_send(h, g, obs[i], NOTICE_OBSERVER, ctx);
		else if (ret == 1)
			ret = 0;
	}
	free(obs);
	template_ctx_free(&own);
	return ret;
}
