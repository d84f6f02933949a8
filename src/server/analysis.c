/* analysis.c -- `analyse GAME` (and `analyze`): the bot's analysis of a
 * finished game, by mail.  The command only asks (one analysis a game a
 * day, a bounded queue: the search is seconds to a minute of the bot's,
 * never run in the mail-reading transaction); the daemon's bot thread
 * takes the requests one at a time when it has no move to make
 * (server_analysis_next / _answer), computes the analysis
 * (src/ai/analysis.c, outside any transaction), draws the positions of
 * the three biggest drops and queues the mail with them.  `ashes
 * analyse` prints the same text (server_analysis_show).
 *
 * Every figure is the bot's estimate at a fixed budget and seed, and
 * each position is printed as the `ashes think` line that repeats it. */
#include "server/server_private.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ai/ai.h"
#include "core/notation.h"
#include "core/variant.h"
#include "render/render.h"
#include "store/store_analysis.h"

/* Analyses that may wait at once, of every game: each costs the bot
 * thread up to a minute (bench/bench_analysis). */
#define ANALYSIS_QUEUE_MAX 20

/* A chance as the mail and `ashes think` print it. */
static void analysis_set_chance(struct template_ctx *ctx, const char *key,
				double v)
{
	template_ctx_setf(ctx, key, "%.3f", v);
}

/* The words of `ashes think` that set up g's variant: "--size 5" and
 * "--variant W" for each other option the rules have. */
static void analysis_variant_args(const struct game *g, struct buf *out)
{
	char text[CORE_VARIANT_TEXT_MAX];
	char *save = NULL, *w;

	notation_format_variant(&g->rec.variant, text, sizeof(text));
	for (w = strtok_r(text, " ", &save); w != NULL;
	     w = strtok_r(NULL, " ", &save)) {
		if (strncmp(w, "size=", 5) == 0)
			buf_printf(out, " --size %s", w + 5);
		else
			buf_printf(out, " --variant %s", w);
	}
}

/* The player of colour c in g, by name. */
static const char *analysis_name(const struct game *g, int c)
{
	return c == CORE_WHITE ? g->white : g->black;
}

/* The turning point's sentence's facts into ctx. */
static void analysis_turning_ctx(const struct game *g,
				 const struct ai_analysis *a,
				 struct template_ctx *ctx)
{
	const struct ai_analysis_ply *p;

	if (a->nplies == 0) {
		template_ctx_set_bool(ctx, "no_moves", true);
		return;
	}
	if (a->winner < 0) {
		/* A draw: its story is the biggest swing. */
		template_ctx_set_bool(ctx, "turning_drawn", true);
		if (a->ndrops == 0)
			return;
		p = &a->plies[a->drops[0]];
		template_ctx_set_int(ctx, "turning_ply", p->ply);
		template_ctx_set(ctx, "turning_name", analysis_name(g, p->mover));
		goto move;
	}
	template_ctx_set(ctx, "winner_name", analysis_name(g, a->winner));
	if (a->turning < 0) {
		template_ctx_set_bool(ctx, "turning_off_board", true);
		return;
	}
	p = &a->plies[a->turning];
	template_ctx_set_bool(ctx, "turning", true);
	template_ctx_set_int(ctx, "turning_ply", p->ply);
	template_ctx_set(ctx, "turning_name", analysis_name(g, p->mover));
	analysis_set_chance(ctx, "turning_from", p->mover == a->winner ?
			    p->before : 1.0 - p->before);
	analysis_set_chance(ctx, "turning_to", p->mover == a->winner ?
			    p->after : 1.0 - p->after);
	/* Ahead from the first move on, or from a later one. */
	if (a->ahead_from == 0 &&
	    (a->plies[0].mover == a->winner ? a->plies[0].before :
	     1.0 - a->plies[0].before) > 0.5)
		template_ctx_set_bool(ctx, "turning_led", true);
	else
		template_ctx_set_int(ctx, "ahead_from",
				     a->plies[a->ahead_from].ply);
move:
	{
		char text[CORE_MOVE_TEXT_MAX];

		notation_format_move(g->rec.pos.geom, &p->move, text);
		template_ctx_set(ctx, "turning_move", text);
		analysis_set_chance(ctx, "turning_before", p->before);
		analysis_set_chance(ctx, "turning_after", p->after);
	}
}

/* The position before move p, replayed from g's record (forced passes
 * with the moves they follow). */
static void analysis_position(const struct game *g,
			      const struct ai_analysis_ply *p,
			      struct core_position *pos_r)
{
	enum core_error err;
	size_t moves = 0;

	core_position_init(pos_r, &g->rec.variant, &err);
	for (size_t i = 0; i < g->rec.nplies && moves < p->moves_before; i++) {
		if (g->rec.plies[i].kind == CORE_MOVE_PASS)
			continue;
		core_play_unchecked(pos_r, &g->rec.plies[i], NULL);
		moves++;
	}
}

/* The analysis a of g as the variables of mail/analysis.txt, into ctx;
 * recipient NULL for the operator's copy.  with_pictures: the drops
 * name their picture files (picture_ext: "png" or "svg"). */
static void analysis_ctx(const struct game *g, const struct ai_analysis *a,
			 const char *recipient, const char *picture_ext,
			 struct template_ctx *ctx)
{
	struct buf args = BUF_INIT, line = BUF_INIT;
	char text[CORE_MOVE_TEXT_MAX];

	game_names_ctx(g, ctx);
	if (recipient != NULL)
		template_ctx_set(ctx, "recipient", recipient);
	template_ctx_set_int(ctx, "playouts", a->playouts);
	template_ctx_setf(ctx, "seed", "%" PRIu64, a->seed);
	template_ctx_set_int(ctx, "moves", (long)a->nplies);
	analysis_variant_args(g, &args);
	template_ctx_list(ctx, "plies");
	buf_printf(&line, "ashes think%s --playouts %ld --seed %" PRIu64,
		   buf_str(&args), a->playouts, a->seed);
	for (size_t i = 0; i < a->nplies; i++) {
		const struct ai_analysis_ply *p = &a->plies[i];
		struct template_ctx *it = template_ctx_add(ctx, "plies");

		template_ctx_set_int(it, "ply", p->ply);
		template_ctx_set(it, "name", analysis_name(g, p->mover));
		template_ctx_set(it, "color",
				 core_color_name((enum core_color)p->mover));
		notation_format_move(g->rec.pos.geom, &p->move, text);
		template_ctx_set(it, "move", text);
		analysis_set_chance(it, "before", p->before);
		analysis_set_chance(it, "after", p->after);
		template_ctx_setf(it, "change", "%+.3f", p->after - p->before);
		notation_format_move(g->rec.pos.geom, &p->best, text);
		template_ctx_set(it, "best", text);
		template_ctx_set_bool(it, "best_played",
				      memcmp(&p->best, &p->move,
					     sizeof(p->move)) == 0);
		template_ctx_set(it, "position", buf_str(&line));
		/* The next position's line: this one and the move. */
		notation_format_move(g->rec.pos.geom, &p->move, text);
		buf_printf(&line, " %s", text);
	}
	template_ctx_list(ctx, "drops");
	for (size_t d = 0; d < a->ndrops; d++) {
		const struct ai_analysis_ply *p = &a->plies[a->drops[d]];
		struct template_ctx *it = template_ctx_add(ctx, "drops");

		template_ctx_set_int(it, "rank", (long)d + 1);
		template_ctx_set_int(it, "ply", p->ply);
		template_ctx_set(it, "name", analysis_name(g, p->mover));
		notation_format_move(g->rec.pos.geom, &p->move, text);
		template_ctx_set(it, "move", text);
		analysis_set_chance(it, "before", p->before);
		analysis_set_chance(it, "after", p->after);
		analysis_set_chance(it, "drop", p->before - p->after);
		notation_format_move(g->rec.pos.geom, &p->best, text);
		template_ctx_set(it, "best", text);
		template_ctx_set_bool(it, "best_played",
				      memcmp(&p->best, &p->move,
					     sizeof(p->move)) == 0);
		if (picture_ext != NULL)
			template_ctx_setf(it, "picture", "ply-%d.%s", p->ply,
					  picture_ext);
	}
	template_ctx_set_bool(ctx, "any_drops", a->ndrops > 0);
	analysis_turning_ctx(g, a, ctx);
	buf_free(&args);
	buf_free(&line);
}

/* ---- the command ------------------------------------------------------ */

int analysis_run(struct handle *h, const struct command *c, struct game *g,
		 struct template_ctx *out)
{
	struct store_analysis today;
	const char *error;
	size_t waiting;
	int64_t bot;
	int r;

	(void)c;
	/* The gate let a player of a game under way through: the analysis
	 * of a game still played would be advice. */
	if (g->row->status != STORE_GAME_FINISHED)
		return game_refuse(h, "analysis_not_over", g->row->id);
	/* The bot's thread computes it: without the bot, nothing would. */
	if (server_bot_id(h, &bot) < 0)
		return -1;
	if (!h->srv->cfg.bot.enabled || bot == 0)
		return server_refuse(h, "analysis_disabled");
	r = store_analysis_today(h->srv->store, g->row->id, h->now, &today,
				 &error);
	if (r < 0)
		return server_store_fail(h, error);
	if (r == 1) {
		char name[COMMAND_NAME_MAX + 1];

		if (game_player_name(h, today.player_id, name) < 0)
			return -1;
		game_refuse(h, "analysis_once_a_day", g->row->id);
		template_ctx_set(h->refusal, "asked_by", name);
		template_ctx_set_bool(h->refusal, "asked_by_me",
				      today.player_id == h->me->id);
		template_ctx_set_bool(h->refusal, "waiting",
				      today.answered == 0);
		server_set_utc(h->refusal, "next",
			       (STORE_ANALYSIS_DAY(h->now) + 1) * 86400, false);
		return REFUSED;
	}
	if (store_analysis_waiting(h->srv->store, &waiting, &error) < 0)
		return server_store_fail(h, error);
	if (waiting >= ANALYSIS_QUEUE_MAX) {
		game_refuse(h, "analysis_queue_full", g->row->id);
		template_ctx_set_int(h->refusal, "max", ANALYSIS_QUEUE_MAX);
		return REFUSED;
	}
	r = store_analysis_add(h->srv->store, g->row->id, h->me->id,
			       h->inbound_id, h->now, &error);
	if (r < 0)
		return server_store_fail(h, error);
	game_names_ctx(g, out);
	template_ctx_set_int(out, "ahead", (long)waiting);
	template_ctx_set_bool(out, "any_ahead", waiting > 0);
	template_ctx_set_int(out, "playouts", AI_ANALYSIS_PLAYOUTS);
	template_ctx_set_int(out, "seed", AI_ANALYSIS_SEED);
	return 0;
}

/* ---- the bot thread's part ---------------------------------------------- */

int server_analysis_next(struct server *server, int64_t now,
			 struct server_analysis *req_r, const char **error_r)
{
	struct store_analysis a;
	int r;

	(void)now;
	memset(req_r, 0, sizeof(*req_r));
	r = store_analysis_next(server->store, &a, error_r);
	if (r == 1) {
		req_r->id = a.id;
		req_r->game_id = a.game_id;
		req_r->player_id = a.player_id;
		req_r->inbound_id = a.inbound_id;
	}
	return r;
}

/* The pictures of a's drops into parts[] (PNG or SVG: what the player
 * chose; none for `set pictures none`), *n_r of them.  0 or -1. */
static int analysis_pictures(struct handle *h, const struct game *g,
			     const struct ai_analysis *a,
			     enum store_picture picture,
			     struct store_outbox_part *parts, size_t *n_r)
{
	struct render_picture pic = { .templates = h->ts };
	const char *error = NULL;
	int ret = 0;

	*n_r = 0;
	if (picture == STORE_PICTURE_NONE)
		return 0;
	for (size_t d = 0; d < a->ndrops && ret == 0; d++) {
		const struct ai_analysis_ply *p = &a->plies[a->drops[d]];
		struct store_outbox_part *part = &parts[*n_r];
		struct core_position pos;
		struct buf img = BUF_INIT, name = BUF_INIT;
		bool svg = picture == STORE_PICTURE_SVG;

		analysis_position(g, p, &pos);
		/* The position the move was played in, the bot's preferred
		 * move drawn as its arrow. */
		ret = svg ? render_picture_svg(&pos, &p->best, &pic, &img,
					       &error) :
			render_board_png(&pos, &p->best, &pic, &img, &error);
		if (ret < 0) {
			buf_free(&img);
			ret = server_store_fail(h, error);
			break;
		}
		buf_printf(&name, "ply-%d.%s", p->ply, svg ? "svg" : "png");
		part->len = img.len;
		part->data = buf_steal(&img);
		part->name = buf_steal(&name);
		part->type = (char *)(svg ? STORE_OUTBOX_SVG : STORE_OUTBOX_PNG);
		(*n_r)++;
	}
	return ret;
}

int server_analysis_answer(struct server *server,
			   const struct server_analysis *req, int64_t now,
			   const char **error_r)
{
	struct store_outbox_part parts[AI_ANALYSIS_DROPS];
	struct store_settings settings;
	struct store_player *p = NULL;
	struct buf body = BUF_INIT, subject = BUF_INIT;
	struct template_ctx *ctx = NULL;
	struct ai_analysis a;
	struct handle h;
	struct game g;
	enum core_error err;
	size_t nparts = 0;
	const char *error;
	int ret, r;

	memset(&a, 0, sizeof(a));
	memset(&g, 0, sizeof(g));
	server_handle_at(server, &h, now);
	h.inbound_id = req->inbound_id;
	/* Read and computed outside any transaction: the search takes
	 * seconds, and the mail loop's transactions go on meanwhile. */
	ret = game_load(&h, req->game_id, &g, true);
	if (ret == 1 && !g.rec_ok)
		ret = 0;
	if (ret == 1)
		ret = store_player_load(server->store, req->player_id, &p,
					&error) < 0 ? server_store_fail(&h, error) :
			p == NULL ? 0 : 1;
	if (ret == 1 && ai_analyse(&g.rec, AI_ANALYSIS_PLAYOUTS,
				   AI_ANALYSIS_SEED, &a, &err) < 0)
		ret = server_store_fail(&h, core_error_name(err));
	if (ret == 1)
		ret = server_recipient_settings(&h, p->id, &settings) < 0 ? -1 : 1;
	/* In the reader's language (language.c). */
	if (ret == 1)
		h.ts = server_lang_set(server, settings.language);
	if (ret == 1)
		ret = analysis_pictures(&h, &g, &a, settings.picture, parts,
					&nparts) < 0 ? -1 : 1;
	if (ret == 1) {
		ctx = template_ctx_new();
		analysis_ctx(&g, &a, p->name, nparts == 0 ? NULL :
			     settings.picture == STORE_PICTURE_SVG ? "svg" :
			     "png", ctx);
		if (server_render(&h, "mail/analysis.txt", ctx, &body) < 0 ||
		    game_subject(&h, &g, p->id, "analysis", &subject) < 0)
			ret = -1;
	}
	if (ret < 0) {
		*error_r = h.error != NULL ? h.error : "analysis: failure";
		goto out;
	}
	if (store_begin(server->store, error_r) < 0) {
		ret = -1;
		goto out;
	}
	/* Answered once (0: another pass answered it meanwhile); a game
	 * or player gone is dropped, with no mail. */
	r = store_analysis_done(server->store, req->id, now, &error);
	if (r < 0)
		*error_r = error;
	else if (r == 1 && ret == 1 &&
		 server_queue_mail_parts(&h, server_player_address(p), p->id,
					 &g, false, STORE_OUTBOX_KIND_ANALYSIS,
					 buf_str(&subject), NULL, NULL,
					 buf_str(&body), false, parts,
					 nparts) < 0) {
		*error_r = h.error != NULL ? h.error : "analysis: failure";
		r = -1;
	}
	if (r >= 0 && store_commit(server->store, error_r) < 0)
		r = -1;
	if (r < 0)
		store_rollback(server->store);
	ret = r < 0 ? -1 : 0;
out:
	for (size_t i = 0; i < nparts; i++) {
		free(parts[i].data);
		free(parts[i].name);
	}
	template_ctx_free(&ctx);
	template_ctx_free(&h.refusal);
	buf_free(&body);
	buf_free(&subject);
	store_player_free(&p);
	ai_analysis_free(&a);
	game_free(&g);
	return ret < 0 ? -1 : 0;
}

/* ---- the operator's copy ------------------------------------------------ */

int server_analysis_show(struct server *server, int64_t game_id,
			 long playouts, uint64_t seed, int64_t now,
			 struct buf *out, const char **error_r)
{
	struct template_ctx *ctx;
	struct ai_analysis a;
	struct handle h;
	struct game g;
	enum core_error err;
	int ret;

	memset(&g, 0, sizeof(g));
	if (admin_game_load(server, &h, game_id, now, &g, error_r) < 0)
		return -1;
	if (!g.rec_ok) {
		game_free(&g);
		*error_r = "the game's moves do not replay";
		return -1;
	}
	if (ai_analyse(&g.rec, playouts, seed, &a, &err) < 0) {
		game_free(&g);
		*error_r = core_error_name(err);
		return -1;
	}
	ctx = template_ctx_new();
	analysis_ctx(&g, &a, NULL, NULL, ctx);
	ret = server_render(&h, "mail/analysis.txt", ctx, out);
	if (ret < 0)
		*error_r = h.error != NULL ? h.error : "template failure";
	template_ctx_free(&ctx);
	template_ctx_free(&h.refusal);
	ai_analysis_free(&a);
	game_free(&g);
	return ret;
}
