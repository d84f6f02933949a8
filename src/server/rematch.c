/* rematch.c -- `rematch GAME`: after a game ended, one of its players
 * challenges the other again, colours swapped (who moved first moves
 * second: with the swap rule, the one who made the first move, whatever
 * seat the swap left them in), on the same board with the same variant
 * and clock.  The game's end mail offers it in one line (notice.c,
 * mail/result.txt).
 *
 * The challenge is the ordinary one (game.c's challenge settings and
 * creation, limits.c's bounds, the challenge notice): a rematch of a
 * ladder's or a league's game is a friendly game between the two, not
 * the ladder's, not the league's, unrated.  A rematch of a game against
 * the bot is the bot's game at the same level, under way at once as
 * `challenge bot` is (bot.c), the bot now on the other side -- moving
 * first if the player did.
 *
 * Refused: a game not over (finished), a sender who did not play it, and
 * a rematch that already stands for that game (waiting for its answer,
 * or taken: then the rematch of the rematch is the one to ask for). */
#include "server/server_private.h"

#include <stdio.h>
#include <string.h>

#include "core/variant.h"
#include "store/store_bot.h"
#include "store/store_note.h"

/* Does a rematch of g stand already?  0 no, REFUSED, -1. */
static int rematch_taken(struct handle *h, const struct game *g)
{
	enum store_game_status status = STORE_GAME_CHALLENGE;
	const char *error;
	int64_t id;
	int r, ret;

	r = store_rematch_find(h->srv->store, g->row->id, &id, &status,
			       &error);
	if (r < 0)
		return server_store_fail(h, error);
	if (r == 0)
		return 0;
	ret = game_refuse(h, status == STORE_GAME_CHALLENGE ||
			  status == STORE_GAME_OPEN ? "rematch_pending" :
			  "rematch_taken", g->row->id);
	template_ctx_set_int(h->refusal, "rematch", (long)id);
	return ret;
}

/* The challenge to the person opp, white_id and black_id seated: into ng,
 * the challenge notice sent.  0, REFUSED (limits.c), -1. */
static int rematch_person(struct handle *h, const struct game *g,
			  int64_t opp, int64_t white_id, int64_t black_id,
			  char *vtext, char *ctext, struct game *ng)
{
	struct store_player *target = NULL;
	struct template_ctx *ctx;
	const char *error;
	int ret;

	ret = store_player_load(h->srv->store, opp, &target, &error);
	if (ret < 0)
		return server_store_fail(h, error);
	if (ret == 0)
		return server_store_fail(h, "a game's player vanished");
	if ((ret = game_player_gone(h, opp)) != 0) {
		if (ret == 1) {
			server_refuse(h, "no_such_player");
			template_ctx_set(h->refusal, "name", target->name);
			ret = REFUSED;
		}
		store_player_free(&target);
		return ret;
	}
	/* One open challenge per pair, so many a day, so many out. */
	ret = limits_challenge(h, target);
	store_player_free(&target);
	if (ret != 0)
		return ret;
	if (game_challenge_create_seated(h, vtext, ctext, white_id, black_id,
					 STORE_GAME_CHALLENGE, ng) < 0)
		return -1;
	ctx = template_ctx_new();
	game_ctx(h, ng, ctx);
	template_ctx_set_int(ctx, "rematch_of", (long)g->row->id);
	ret = notice_send(h, ng, opp, NOTICE_CHALLENGE, ctx);
	template_ctx_free(&ctx);
	return ret;
}

int rematch_run(struct handle *h, const struct command *c, struct game *g,
		struct template_ctx *out)
{
	char vtext[CORE_VARIANT_TEXT_MAX], ctext[GAME_CLOCK_TEXT_MAX];
	struct store_bot_game bg;
	struct game ng;
	const char *error;
	int64_t opp, white_id, black_id;
	int color, ret, bot;

	(void)c;
	color = game_my_color(h, g);
	if (color < 0)
		return game_refuse(h, "not_your_game", g->row->id);
	if (g->row->status != STORE_GAME_FINISHED) {
		ret = game_refuse(h, "rematch_not_over", g->row->id);
		template_ctx_set(h->refusal, "status",
				 store_game_status_name(g->row->status));
		return ret;
	}
	if ((ret = rematch_taken(h, g)) != 0)
		return ret;
	opp = game_player_of(g, color == CORE_WHITE ? CORE_BLACK : CORE_WHITE);
	/* Who moved first moves second. */
	white_id = game_first_mover(g) == opp ? h->me->id : opp;
	black_id = white_id == opp ? h->me->id : opp;
	snprintf(vtext, sizeof(vtext), "%s", g->row->variant);
	snprintf(ctext, sizeof(ctext), "%s", g->row->clock_settings != NULL ?
		 g->row->clock_settings : "none");

	memset(&ng, 0, sizeof(ng));
	if ((bot = server_is_bot(h, opp)) < 0)
		return -1;
	if (bot) {
		/* The same level; a bot game stored before levels were
		 * recorded has none: the lowest offered. */
		ret = store_bot_game_get(h->srv->store, g->row->id, &bg, &error);
		if (ret < 0)
			return server_store_fail(h, error);
		if (ret == 0)
			bg.level = 1;
		if ((ret = bot_offered(h, bg.level)) == 0)
			ret = bot_game_start(h, bg.level, vtext, ctext,
					     white_id == opp, &ng, out);
	} else {
		ret = rematch_person(h, g, opp, white_id, black_id, vtext,
				     ctext, &ng);
		if (ret == 0)
			game_ctx(h, &ng, out);
	}
	if (ret == 0 && store_rematch_add(h->srv->store, ng.row->id,
					  g->row->id, &error) < 0)
		ret = server_store_fail(h, error);
	if (ret == 0) {
		template_ctx_set_int(out, "rematch_of", (long)g->row->id);
		template_ctx_set_bool(out, "bot", bot);
		template_ctx_set_bool(out, "me_white", white_id == h->me->id);
		template_ctx_set_bool(out, "me_black", black_id == h->me->id);
		template_ctx_set(out, "rival", white_id == opp ? ng.white :
				 ng.black);
	}
	game_free(&ng);
	return ret;
}
