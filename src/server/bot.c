/* bot.c -- the practice opponent's commands: `challenge bot level=N`, a
 * game against the bot at once, and `hint GAME`, asking the bot's three
 * best moves for its opponent (bot_turn.c answers); and what is refused
 * for being the bot's (its key, its name, offers to it).  Its player id
 * is handle.c's, since queue.c and limits.c below ask it too.  The bot's
 * own moves come by mail, signed by the daemon's key, and are taken like
 * anyone's (bot_turn.c gives the daemon's bot thread what it needs). */
#include "server/server_private.h"

#include <stdio.h>
#include <string.h>

#include "ai/ai.h"
#include "core/variant.h"
#include "store/store_bot.h"

int bot_is_key(struct handle *h, const char *fpr)
{
	struct store_player *p = NULL;
	const char *error;
	int r;

	r = store_player_by_fingerprint(h->srv->store, fpr, &p, &error);
	if (r < 0)
		return server_store_fail(h, error);
	if (r == 0)
		return 0;
	r = server_is_bot(h, p->id);
	store_player_free(&p);
	return r;
}

int bot_refuse_named(struct handle *h, int64_t pid)
{
	int r = server_is_bot(h, pid);

	if (r <= 0)
		return r;
	return server_refuse(h, "bot_by_name");
}

int bot_refuse_offer(struct handle *h, const struct game *g, int64_t opp,
		     const char *what)
{
	int r = server_is_bot(h, opp);

	if (r <= 0)
		return r;
	game_refuse(h, "bot_no_offers", g->row->id);
	template_ctx_set(h->refusal, "what", what);
	return REFUSED;
}

/* The levels offered, "1, 2, 3", as "levels" in ctx. */
static void bot_levels_ctx(const struct server_bot_config *bc,
			   struct template_ctx *ctx)
{
	char text[32] = "";
	size_t len = 0;

	for (int l = AI_LEVEL_MIN; l <= AI_LEVEL_MAX; l++)
		if (bc->levels & (1u << l))
			len += (size_t)snprintf(text + len, sizeof(text) - len,
						"%s%d", len > 0 ? ", " : "", l);
	template_ctx_set(ctx, "levels", text);
}

/* The level a challenge names, or the lowest offered (a learner's). */
static int bot_level(const struct server_bot_config *bc,
		     const struct command *c)
{
	if (c->level != 0)
		return c->level;
	for (int l = AI_LEVEL_MIN; l <= AI_LEVEL_MAX; l++)
		if (bc->levels & (1u << l))
			return l;
	return AI_LEVEL_MIN;
}

/* A bot game's time control, over the challenge's (ctext,
 * GAME_CLOCK_TEXT_MAX): [bot] clock when it names none, and never
 * vacations, so that a game whose player stops moving ends on time and
 * frees its place (the clocks' timer ends it). */
static void bot_clock(const struct server_bot_config *bc, char *ctext)
{
	struct clock_control cc;
	bool vac;

	if (bc->clock == NULL ||
	    game_clock_text_parse(ctext, &cc, &vac, NULL) < 0)
		return;
	if (cc.kind == CLOCK_KIND_NONE) {
		bool off = cc.weekends_off;

		if (clock_control_parse(bc->clock, &cc, NULL) < 0)
			return;
		cc.weekends_off = off;
	}
	game_clock_text_format(&cc, false, ctext, GAME_CLOCK_TEXT_MAX);
}

int bot_offered(struct handle *h, int level)
{
	const struct server_bot_config *bc = &h->srv->cfg.bot;
	int64_t bot;

	if (server_bot_id(h, &bot) < 0)
		return -1;
	if (!bc->enabled || bot == 0)
		return server_refuse(h, "bot_disabled");
	if (level < AI_LEVEL_MIN || level > AI_LEVEL_MAX ||
	    (bc->levels & (1u << level)) == 0) {
		server_refuse(h, "bot_level");
		template_ctx_set_int(h->refusal, "level", level);
		bot_levels_ctx(bc, h->refusal);
		return REFUSED;
	}
	return 0;
}

int bot_game_start(struct handle *h, int level, char *vtext, char *ctext,
		   bool bot_white, struct game *g, struct template_ctx *out)
{
	const struct server_bot_config *bc = &h->srv->cfg.bot;
	const char *error;
	int64_t bot;
	size_t busy;
	int ret;

	if (server_bot_id(h, &bot) < 0)
		return -1;
	if ((ret = limits_bot_games(h)) != 0)
		return ret;
	bot_clock(bc, ctext);
	if (store_bot_games_busy(h->srv->store, &busy, &error) < 0)
		return server_store_fail(h, error);
	if (bc->max_games > 0 && busy >= bc->max_games) {
		server_refuse(h, "bot_busy");
		template_ctx_set_int(h->refusal, "max_games",
				     (long)bc->max_games);
		return REFUSED;
	}
	if (game_challenge_create_seated(h, vtext, ctext,
					 bot_white ? bot : h->me->id,
					 bot_white ? h->me->id : bot,
					 STORE_GAME_CHALLENGE, g) < 0)
		return -1;
	if (store_bot_game_add(h->srv->store, g->row->id, level, bc->rated,
			       h->now, &error) < 0)
		return server_store_fail(h, error);
	/* The bot takes every challenge: the game is under way at once. */
	g->row->status = STORE_GAME_ACTIVE;
	h->moved = true;
	if (game_clock_start(h, g) < 0 || game_save(h, g) < 0)
		return -1;
	game_ctx(h, g, out);
	template_ctx_set_int(out, "level", level);
	template_ctx_set_bool(out, "rated", bc->rated);
	return notice_game(h, g, 0, out);
}

/* challenge bot [level=N] [OPTION]...: a game under way at once, the
 * sender White and to move, the bot Black.  Refused when the operator
 * has no bot, the level is not offered, or the bot plays its most
 * games. */
int bot_challenge(struct handle *h, const struct command *c, struct game *g,
		  struct template_ctx *out)
{
	char vtext[CORE_VARIANT_TEXT_MAX], ctext[GAME_CLOCK_TEXT_MAX];
	int level = bot_level(&h->srv->cfg.bot, c), ret;

	if ((ret = bot_offered(h, level)) != 0)
		return ret;
	if ((ret = game_challenge_settings(h, c, vtext, ctext)) != 0)
		return ret;
	return bot_game_start(h, level, vtext, ctext, false, g, out);
}

/* hint GAME: in a game against the bot, its opponent to move.  The
 * search is the bot thread's (it would hold up everyone's mail here):
 * the hint is asked, and the three best moves follow by mail.  Never in
 * a game between people. */
int bot_hint(struct handle *h, const struct command *c, struct game *g,
	     struct template_ctx *out)
{
	struct store_bot_game bg;
	const char *error;
	int r;

	(void)c;
	r = store_bot_game_get(h->srv->store, g->row->id, &bg, &error);
	if (r < 0)
		return server_store_fail(h, error);
	if (r == 0)
		return game_refuse(h, "hint_not_bot", g->row->id);
	/* One hint a ply (store_bot_hint_add), so many an hour: each is
	 * a search of the bot's. */
	r = store_bot_hint_asked(h->srv->store, g->row->id,
				 g->rec.pos.ply + 1, &error);
	if (r < 0)
		return server_store_fail(h, error);
	if (r == 1) {
		game_refuse(h, "hint_once_a_ply", g->row->id);
		template_ctx_set_int(h->refusal, "ply", g->rec.pos.ply + 1);
		return REFUSED;
	}
	if ((r = limits_hint(h, g)) != 0)
		return r;
	r = store_bot_hint_add(h->srv->store, g->row->id, g->rec.pos.ply + 1,
			       h->me->id, h->inbound_id, h->now, &error);
	if (r < 0)
		return server_store_fail(h, error);
	game_names_ctx(g, out);
	template_ctx_set_int(out, "ply", g->rec.pos.ply + 1);
	template_ctx_set(out, "bot", game_player_of(g, CORE_WHITE) ==
			 h->me->id ? g->black : g->white);
	return 0;
}
