/* bot_turn.c -- what the daemon's bot thread asks of the service: the
 * bot made a player (its key the daemon's signing key), the move it owes
 * first, the thinking, and the text of the mail that plays the move.
 * The move itself is taken by server_handle() from that mail, signed and
 * verified like anyone's: nothing here applies a move. */
#include "server/server_private.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "ai/ai.h"
#include "core/notation.h"
#include "store/store_bot.h"

/* The bot is never written to; its address only makes it a confirmed
 * player, and ".invalid" (RFC 2606) can reach nobody. */
static void bot_address(const struct server *server, char *buf, size_t size)
{
	snprintf(buf, size, "bot@%s.invalid", server->domain);
}

int server_bot_enlist(struct server *server, const char *fingerprint,
		      int64_t now, const char **error_r)
{
	const char *name = server->cfg.bot.name != NULL ?
			   server->cfg.bot.name : "Ashes bot";
	struct store_player *p = NULL;
	char address[STORE_ADDRESS_MAX + 1];
	int64_t id = 0;
	int r;

	if (store_begin(server->store, error_r) < 0)
		return -1;
	r = store_player_by_fingerprint(server->store, fingerprint, &p,
					error_r);
	if (r == 1)
		id = p->id;
	store_player_free(&p);
	if (r == 0) {
		bot_address(server, address, sizeof(address));
		r = store_player_add(server->store, name, address, fingerprint,
				     now, &id, error_r);
		if (r == 1) {
			snprintf(server->errbuf, sizeof(server->errbuf),
				 "[bot] name \"%s\" is another player's", name);
			*error_r = server->errbuf;
			r = -1;
		}
	}
	if (r >= 0)
		r = store_bot_set_player(server->store, id, now, error_r);
	if (r >= 0)
		r = store_commit(server->store, error_r);
	if (r < 0) {
		store_rollback(server->store);
		return -1;
	}
	return 0;
}

/* The rated bot games that ended, rated once each, in one transaction
 * of their own.  0 or -1 (h->error). */
static int bot_rate_ended(struct handle *h)
{
	int64_t *ids = NULL;
	size_t n = 0;
	const char *error;
	int ret = 0;

	if (store_bot_games_unapplied(h->srv->store, &ids, &n, &error) < 0)
		return server_store_fail(h, error);
	if (n == 0)
		return 0;
	if (store_begin(h->srv->store, &error) < 0) {
		free(ids);
		return server_store_fail(h, error);
	}
	for (size_t i = 0; i < n && ret == 0; i++) {
		struct game g;
		bool rated;

		memset(&g, 0, sizeof(g));
		ret = game_load(h, ids[i], &g, false);
		if (ret == 1)
			ret = club_rate_game(h, &g, g.row->updated, &rated);
		if (ret == 0 && store_bot_game_applied(h->srv->store, ids[i],
						       h->now, &error) < 0)
			ret = server_store_fail(h, error);
		game_free(&g);
	}
	free(ids);
	if (ret == 0 && store_commit(h->srv->store, &error) < 0)
		ret = server_store_fail(h, error);
	if (ret < 0)
		store_rollback(h->srv->store);
	return ret < 0 ? -1 : 0;
}

/* If the bot is to move in game id, its turn into *turn_r: 1, else 0. */
static int bot_turn_of(struct handle *h, int64_t bot, int64_t id,
		       struct server_bot_turn *turn_r)
{
	struct store_bot_game bg;
	struct game g;
	const char *error;
	int ret;

	memset(&g, 0, sizeof(g));
	ret = game_load(h, id, &g, true);
	if (ret <= 0 || !g.rec_ok || g.row->status != STORE_GAME_ACTIVE ||
	    g.rec.pos.result != CORE_ONGOING ||
	    game_player_of(&g, g.rec.pos.to_move) != bot) {
		game_free(&g);
		return ret < 0 ? -1 : 0;
	}
	ret = store_bot_game_get(h->srv->store, id, &bg, &error);
	if (ret < 0)
		ret = server_store_fail(h, error);
	if (ret == 1) {
		turn_r->game_id = id;
		turn_r->ply = g.rec.pos.ply + 1;
		turn_r->level = bg.level;
		/* The last change of the game is its opponent's move (or
		 * the game begun). */
		turn_r->due = g.row->updated + h->srv->cfg.bot.delay;
		turn_r->pos = g.rec.pos;
	}
	game_free(&g);
	return ret;
}

int server_bot_next(struct server *server, int64_t now, int64_t skip_game,
		    int skip_ply, struct server_bot_turn *turn_r,
		    const char **error_r)
{
	struct server_bot_turn t;
	struct handle h;
	int64_t bot, *ids = NULL;
	size_t n = 0;
	const char *error;
	int ret, found = 0;

	server_handle_at(server, &h, now);
	memset(turn_r, 0, sizeof(*turn_r));
	ret = bot_rate_ended(&h);
	if (ret == 0)
		ret = server_bot_id(&h, &bot);
	if (ret == 0 && bot != 0 &&
	    store_bot_games_active(server->store, &ids, &n, &error) < 0)
		ret = server_store_fail(&h, error);
	for (size_t i = 0; ret == 0 && bot != 0 && i < n; i++) {
		int r = bot_turn_of(&h, bot, ids[i], &t);
		if (r < 0)
			ret = -1;
		else if (r == 1 && !(t.game_id == skip_game &&
				     t.ply == skip_ply) &&
			 (found == 0 || t.due < turn_r->due)) {
			*turn_r = t;
			found = 1;
		}
	}
	free(ids);
	template_ctx_free(&h.refusal);
	if (ret < 0) {
		*error_r = h.error != NULL ? h.error : "bot: store failure";
		return -1;
	}
	return found;
}

int server_bot_think(const struct server_bot_turn *turn, int64_t think_ms,
		     char *move, const char **error_r)
{
	struct ai_options opt;
	struct core_move m;
	enum core_error err;
	size_t ntop = 0;

	ai_options_default(&opt, turn->level);
	/* The same game and ply, the same seed: a move can be repeated. */
	opt.seed = (uint64_t)turn->game_id * 1000003u + (uint64_t)turn->ply;
	if (think_ms > 0)
		opt.time_ms = think_ms;
	if (ai_choose(&turn->pos, &opt, &m, NULL, 0, &ntop, &err) < 0) {
		*error_r = core_error_name(err);
		return -1;
	}
	notation_format_move(turn->pos.geom, &m, move);
	return 0;
}

int server_bot_mail(struct server *server, const struct server_bot_turn *turn,
		    const char *move, int64_t now, struct buf *text,
		    struct buf *subject, const char **error_r)
{
	unsigned char raw[8];
	char token[sizeof(raw) * 2 + 1];
	struct template_ctx *ctx;
	struct handle h;
	int ret;

	/* The signed text must differ from every earlier one (the replay
	 * history takes a text once, ever), even for the same move at
	 * the same ply after a move was taken back. */
	if (getrandom(raw, sizeof(raw), 0) != (ssize_t)sizeof(raw)) {
		*error_r = "bot: no random bytes";
		return -1;
	}
	for (size_t i = 0; i < sizeof(raw); i++)
		snprintf(token + 2 * i, 3, "%02x", raw[i]);
	server_handle_at(server, &h, now);
	ctx = template_ctx_new();
	template_ctx_setf(ctx, "game", "%" PRId64, turn->game_id);
	template_ctx_set_int(ctx, "ply", turn->ply);
	template_ctx_set_int(ctx, "level", turn->level);
	template_ctx_set(ctx, "move", move);
	template_ctx_set(ctx, "name", server->cfg.bot.name != NULL ?
			 server->cfg.bot.name : "Ashes bot");
	template_ctx_set(ctx, "token", token);
	server_set_utc(ctx, "time", now, true);
	ret = server_render(&h, "mail/bot-move.txt", ctx, text);
	if (ret == 0)
		ret = server_render_line(&h, "mail/subject-bot-move.txt", ctx,
					 subject);
	template_ctx_free(&ctx);
	if (ret < 0)
		*error_r = h.error != NULL ? h.error : "bot: template failure";
	return ret;
}

/* ---- hints ------------------------------------------------------------ */

/* The hints a mail shows, best first. */
#define BOT_HINTS 3

/* Load the game of hint h (into g) if it still stands at h's ply with
 * the asker to play: 1, 0 (moved on: drop the hint), -1. */
static int bot_hint_game(struct handle *h, const struct store_bot_hint *sh,
			 struct game *g)
{
	int ret;

	memset(g, 0, sizeof(*g));
	ret = game_load(h, sh->game_id, g, true);
	if (ret <= 0)
		return ret;
	return g->rec_ok && g->row->status == STORE_GAME_ACTIVE &&
	       g->rec.pos.result == CORE_ONGOING &&
	       g->rec.pos.ply + 1 == sh->ply &&
	       game_player_of(g, g->rec.pos.to_move) == sh->player_id;
}

int server_bot_hint_next(struct server *server, int64_t now,
			 struct server_bot_hint *hint_r, const char **error_r)
{
	struct store_bot_hint sh;
	struct handle h;
	struct game g;
	int ret;

	server_handle_at(server, &h, now);
	memset(hint_r, 0, sizeof(*hint_r));
	for (;;) {
		ret = store_bot_hint_next(server->store, &sh, error_r);
		if (ret <= 0)
			break;
		ret = bot_hint_game(&h, &sh, &g);
		if (ret == 1) {
			hint_r->id = sh.id;
			hint_r->game_id = sh.game_id;
			hint_r->player_id = sh.player_id;
			hint_r->inbound_id = sh.inbound_id;
			hint_r->ply = sh.ply;
			hint_r->pos = g.rec.pos;
		}
		game_free(&g);
		if (ret < 0) {
			*error_r = h.error != NULL ? h.error : "bot: store failure";
			break;
		}
		if (ret == 1)
			break;
		/* The game moved on: nothing to hint at any more. */
		if (store_bot_hint_done(server->store, sh.id, now,
					error_r) < 0) {
			ret = -1;
			break;
		}
	}
	template_ctx_free(&h.refusal);
	return ret;
}

/* The hint mail of hint to its player, in the game's thread: 0 or -1. */
static int bot_hint_mail(struct handle *h, const struct store_bot_hint *sh,
			 struct game *g, const struct ai_candidate *top,
			 size_t n)
{
	struct store_player *p = NULL;
	struct buf body = BUF_INIT, subject = BUF_INIT;
	struct template_ctx *ctx;
	const char *error;
	int ret;

	ret = store_player_load(h->srv->store, sh->player_id, &p, &error);
	if (ret <= 0)
		return ret < 0 ? server_store_fail(h, error) : 0;
	/* In the reader's language (language.c). */
	if (server_write_to(h, p->id) < 0) {
		store_player_free(&p);
		return -1;
	}
	ctx = template_ctx_new();
	game_names_ctx(g, ctx);
	template_ctx_set(ctx, "recipient", p->name);
	template_ctx_set_int(ctx, "ply", sh->ply);
	template_ctx_list(ctx, "hints");
	for (size_t i = 0; i < n; i++) {
		struct template_ctx *it = template_ctx_add(ctx, "hints");
		char text[CORE_MOVE_TEXT_MAX];

		notation_format_move(g->rec.pos.geom, &top[i].move, text);
		template_ctx_set_int(it, "rank", (long)i + 1);
		template_ctx_set(it, "move", text);
		template_ctx_set_int(it, "visits", top[i].visits);
		template_ctx_set_int(it, "percent",
				     (long)(top[i].value * 100.0 + 0.5));
	}
	ret = server_render(h, "mail/hint.txt", ctx, &body);
	if (ret == 0)
		ret = game_subject(h, g, sh->player_id, "hint", &subject);
	if (ret == 0)
		ret = server_queue_notice(h, p, g, false,
					  STORE_OUTBOX_KIND_HINT, &subject,
					  &body);
	template_ctx_free(&ctx);
	buf_free(&body);
	buf_free(&subject);
	store_player_free(&p);
	return ret;
}

int server_bot_hint_answer(struct server *server,
			   const struct server_bot_hint *hint,
			   int64_t think_ms, int64_t now,
			   const char **error_r)
{
	struct ai_candidate top[BOT_HINTS];
	struct store_bot_hint sh;
	struct ai_options opt;
	struct core_move best;
	enum core_error err;
	struct handle h;
	struct game g;
	size_t n = 0;
	int ret;

	/* A search as the bot's level 4 plays, outside any transaction. */
	ai_options_default(&opt, 4);
	opt.seed = (uint64_t)hint->game_id * 1000003u + (uint64_t)hint->ply;
	if (think_ms > 0)
		opt.time_ms = think_ms;
	if (ai_choose(&hint->pos, &opt, &best, top, BOT_HINTS, &n, &err) < 0)
		n = 0;
	memset(&sh, 0, sizeof(sh));
	sh.id = hint->id;
	sh.game_id = hint->game_id;
	sh.ply = hint->ply;
	sh.player_id = hint->player_id;
	server_handle_at(server, &h, now);
	/* The outbox row's mail: the one that asked. */
	h.inbound_id = hint->inbound_id;
	memset(&g, 0, sizeof(g));
	if (store_begin(server->store, error_r) < 0)
		return -1;
	/* Answered once: 0 when another pass answered it meanwhile. */
	ret = store_bot_hint_done(server->store, sh.id, now, error_r);
	if (ret < 0)
		goto out;
	if (ret == 1)
		ret = bot_hint_game(&h, &sh, &g);
	if (ret == 1 && n > 0)
		ret = bot_hint_mail(&h, &sh, &g, top, n);
	if (ret < 0)
		*error_r = h.error != NULL ? h.error : "bot: store failure";
	else if (store_commit(server->store, error_r) < 0)
		ret = -1;
out:
	if (ret < 0)
		store_rollback(server->store);
	game_free(&g);
	template_ctx_free(&h.refusal);
	return ret < 0 ? -1 : 0;
}
