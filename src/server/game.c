/* game.c -- a game as the service works with it: loaded from the store
 * and replayed through the rules core, described for templates (names,
 * position, last moves, subject), pictured at a ply, and saved; and the
 * settings a challenge asks for (play.c's and bot.c's). */
#include "server/server_private.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/notation.h"
#include "core/variant.h"
#include "render/render.h"
#include "store/store_conditional.h"

int game_refuse(struct handle *h, const char *code, int64_t game)
{
	server_refuse(h, code);
	template_ctx_setf(h->refusal, "game", "%" PRId64, game);
	return REFUSED;
}

int game_refuse_status(struct handle *h, const struct game *g)
{
	game_refuse(h, "wrong_status", g->row->id);
	template_ctx_set(h->refusal, "status",
			 store_game_status_name(g->row->status));
	return REFUSED;
}

/* A refusal worded by the rules' templates (rule.txt, explain.txt): the
 * rule broken, and with a move, why in this position.  REFUSED, or -1 on
 * a template error. */
int game_refuse_rule(struct handle *h, const struct core_position *pos,
		     const struct core_move *m, enum core_error err)
{
	const char *error;

	if (render_move_refusal(h->ts, pos, m, err, h->refusal,
				&error) < 0) {
		snprintf(h->srv->errbuf, sizeof(h->srv->errbuf), "%s", error);
		return server_store_fail(h, h->srv->errbuf);
	}
	return REFUSED;
}

void game_free(struct game *g)
{
	store_game_free(&g->row);
	if (g->rec_ok)
		record_free(&g->rec);
	g->rec_ok = false;
}

void game_copy_name(char *dst, const char *src)
{
	snprintf(dst, COMMAND_NAME_MAX + 1, "%s", src != NULL ? src : "");
}

int game_player_name(struct handle *h, int64_t id, char *dst)
{
	struct store_player *p = NULL;
	const char *error;
	int ret;

	dst[0] = '\0';
	if (id == 0)
		return 0;
	if (h->me != NULL && h->me->id == id) {
		game_copy_name(dst, h->me->name);
		return 0;
	}
	ret = store_player_load(h->srv->store, id, &p, &error);
	if (ret < 0)
		return server_store_fail(h, error);
	if (ret == 1)
		game_copy_name(dst, p->name);
	store_player_free(&p);
	return 0;
}

/* A game that ended by resignation, agreement or time: the moves do not
 * say so, the row does. */
static int game_end_replay(struct game *g)
{
	enum core_end_reason reason = CORE_END_NONE;
	enum core_color loser = CORE_WHITE;
	enum core_error err;

	for (int r = CORE_END_ELIMINATION; r <= CORE_END_TIME; r++)
		if (g->row->end_reason != NULL &&
		    strcmp(g->row->end_reason,
			   core_end_reason_name((enum core_end_reason)r)) == 0)
			reason = (enum core_end_reason)r;
	if (reason == CORE_END_NONE || g->row->result == NULL)
		return -1;
	if (strcmp(g->row->result, "1-0") == 0)
		loser = CORE_BLACK;
	return record_end(&g->rec, reason, loser, &err);
}

/* Load a game and replay its moves.  1 found, 0 no such game (refusal
 * set), -1 failure. */
int game_load(struct handle *h, int64_t id, struct game *g,
		     bool replay)
{
	char **moves = NULL;
	size_t n = 0;
	const char *error;
	enum core_error err;
	struct core_variant v;
	int ret;

	memset(g, 0, sizeof(*g));
	ret = store_game_load(h->srv->store, id, &g->row, &error);
	if (ret < 0)
		return server_store_fail(h, error);
	if (ret == 0) {
		game_refuse(h, "no_such_game", id);
		return 0;
	}
	/* From the defaults of the rules, not the club's: the stored text
	 * names every rule that differs from them; only draw=, absent,
	 * follows the club's setting. */
	core_variant_default(&v);
	v.draw_offers = h->srv->cfg.default_variant.draw_offers;
	if (core_variant_parse(&v, g->row->variant, &err) < 0) {
		game_free(g);
		return server_store_fail(h, "stored game has a bad variant");
	}
	g->draws = v.draw_offers;
	if (!replay)
		goto names;
	if (record_init(&g->rec, &v, &err) < 0) {
		game_free(g);
		return server_store_fail(h, "stored game has a bad variant");
	}
	g->rec_ok = true;
	if (g->row->ply > 0) {
		if (store_game_moves(h->srv->store, id, &moves, &n, &error) < 0) {
			game_free(g);
			return server_store_fail(h, error);
		}
		for (size_t i = 0; i < n; i++) {
			/* Forced passes were appended by the record when the
			 * move before them was replayed. */
			if (i < g->rec.nplies)
				continue;
			if (record_play_text(&g->rec, moves[i],
					     strlen(moves[i]), NULL,
					     &err) < 0) {
				store_strings_free(&moves);
				game_free(g);
				return server_store_fail(h, "stored game does not replay");
			}
		}
		store_strings_free(&moves);
	}
	if (g->row->status == STORE_GAME_FINISHED &&
	    g->rec.pos.result == CORE_ONGOING && game_end_replay(g) < 0) {
		game_free(g);
		return server_store_fail(h, "stored game has a bad end");
	}
names:
	if (game_player_name(h, g->row->white_id, g->white) < 0 ||
	    game_player_name(h, g->row->black_id, g->black) < 0 ||
	    game_player_name(h, g->row->challenger_id, g->challenger) < 0) {
		game_free(g);
		return -1;
	}
	if (g->row->challenger_id == g->row->white_id)
		game_copy_name(g->opponent, g->black);
	else
		game_copy_name(g->opponent, g->white);
	if (game_clock_load(h, g) < 0) {
		game_free(g);
		return -1;
	}
	return 1;
}

int64_t game_player_of(const struct game *g, enum core_color c)
{
	return c == CORE_WHITE ? g->row->white_id : g->row->black_id;
}

int64_t game_challenged(const struct game *g)
{
	return g->row->challenger_id == g->row->white_id ? g->row->black_id :
							   g->row->white_id;
}

int64_t game_first_mover(const struct game *g)
{
	return g->row->swapped ? g->row->black_id : g->row->white_id;
}

/* The sender's colour in g, or -1 if the sender does not play in it. */
int game_my_color(const struct handle *h, const struct game *g)
{
	if (h->me == NULL)
		return -1;
	if (g->row->white_id == h->me->id)
		return CORE_WHITE;
	if (g->row->black_id == h->me->id)
		return CORE_BLACK;
	return -1;
}

/* The game's names and settings, without the position (cheap: subjects). */
void game_names_ctx(const struct game *g, struct template_ctx *ctx)
{
	template_ctx_setf(ctx, "game", "%" PRId64, g->row->id);
	template_ctx_set(ctx, "white_name", g->white);
	template_ctx_set(ctx, "black_name", g->black);
	template_ctx_set(ctx, "challenger", g->challenger);
	/* A rematch's challenger may sit Black (rematch.c). */
	template_ctx_set_bool(ctx, "challenger_black",
			      g->row->challenger_id != 0 &&
			      g->row->challenger_id == g->row->black_id);
	/* Unset for an open challenge: the templates say "anyone". */
	if (g->opponent[0] != '\0')
		template_ctx_set(ctx, "opponent", g->opponent);
	template_ctx_set(ctx, "status",
			 store_game_status_name(g->row->status));
	template_ctx_set_bool(ctx, "draws_allowed", g->draws);
	template_ctx_set(ctx, "variant", g->row->variant);
	if (g->row->result != NULL)
		template_ctx_set(ctx, "result_text", g->row->result);
	if (g->row->draw_offer_by != 0)
		template_ctx_set(ctx, "draw_offered_by",
				 g->row->draw_offer_by == g->row->white_id ?
				 g->white : g->black);
}

/* Everything about the game: names, settings and the position (board,
 * legal moves, taxes: the costly part, so build it once per game and
 * message where possible). */
void game_ctx(const struct handle *h, const struct game *g,
		     struct template_ctx *ctx)
{
	size_t max = h->srv->cfg.max_listed_moves;

	/* The short list stops at the operator's limit; the mail says how
	 * to get the rest (`moves GAME` lists every move). */
	render_position_ctx_max(&g->rec.pos, max, ctx);
	game_names_ctx(g, ctx);
	template_ctx_set(ctx, "to_move_name",
			 g->rec.pos.to_move == CORE_WHITE ? g->white : g->black);
	/* A cancelled game stands where it stopped, but nobody is to
	 * move in it. */
	if (g->row->status == STORE_GAME_CANCELLED) {
		template_ctx_set_bool(ctx, "ongoing", false);
		template_ctx_set_bool(ctx, "cancelled_game", true);
	}
	game_clock_ctx(h, g, ctx);
}

/* Describe the plies from index `from` of the record in words (the last
 * move(s) that led to the current position). */
int game_last_moves_ctx(struct handle *h, const struct game *g, size_t from,
			struct template_ctx *ctx)
{
	struct core_position pos;
	struct store_cond_ply *conds = NULL;
	size_t nconds = 0;
	enum core_error err;
	const char *error;
	struct buf words = BUF_INIT;
	int ret = 0;

	if (from >= g->rec.nplies)
		return 0;
	/* Which words these are: a notice to a reader of another language
	 * words them again (notice.c). */
	template_ctx_set_int(ctx, "last_moves_from", (long)from);
	template_ctx_set(ctx, "last_moves_lang", template_set_lang(h->ts));
	if (core_position_init(&pos, &g->rec.variant, &err) < 0)
		return server_store_fail(h, core_error_name(err));
	/* Which of them were played from conditional moves (said once
	 * they are played, and only then). */
	if (store_cond_plies(h->srv->store, g->row->id, &conds, &nconds,
			     &error) < 0)
		return server_store_fail(h, error);
	for (size_t i = 0; i < g->rec.nplies; i++) {
		struct core_move m = g->rec.plies[i];
		if (m.kind == CORE_MOVE_PASS)
			continue; /* not reached: passes follow their move */
		if (i >= from) {
			char text[CORE_MOVE_TEXT_MAX];
			struct template_ctx *item =
				template_ctx_add(ctx, "last_moves");
			buf_reset(&words);
			if (render_move_words(h->ts, &pos, &m,
					      &words, &error) < 0) {
				snprintf(h->srv->errbuf, sizeof(h->srv->errbuf),
					 "%s", error);
				h->error = h->srv->errbuf;
				ret = -1;
				break;
			}
			template_ctx_set(item, "words", buf_str(&words));
			template_ctx_set_bool(ctx, "has_last_moves", true);
			template_ctx_set(item, "move",
					 notation_format_move(pos.geom, &m,
							      text));
			template_ctx_set_int(item, "ply", (long)i + 1);
			for (size_t k = 0; k < nconds; k++)
				if (conds[k].ply == (int)i + 1)
					template_ctx_set(item, "cond_name",
						pos.to_move == CORE_WHITE ?
						g->white : g->black);
		}
		/* Legal by construction: the record replayed it. */
		core_play_unchecked(&pos, &m, NULL);
		/* core_play appends forced passes itself: skip them. */
		while (pos.ply > (int)i + 1 && i + 1 < g->rec.nplies) {
			i++;
			if (i >= from) {
				struct template_ctx *item =
					template_ctx_add(ctx, "last_moves");
				template_ctx_set(item, "move", "pass");
				template_ctx_set_bool(item, "pass", true);
				template_ctx_set_int(item, "ply", (long)i + 1);
			}
		}
	}
	buf_free(&words);
	free(conds);
	return ret;
}

/* The colour to move and the next ply: from the replayed record, else
 * (a game loaded without replay) from the row: plies alternate, except
 * that a swap leaves Black to move (and the seats are swapped then). */
static enum core_color game_to_move(const struct game *g, int *next_ply_r)
{
	if (g->rec_ok) {
		*next_ply_r = g->rec.pos.ply + 1;
		return g->rec.pos.to_move;
	}
	*next_ply_r = g->row->ply + 1;
	return (g->row->ply % 2 == 1) != g->row->swapped ? CORE_BLACK :
							    CORE_WHITE;
}

/* The variables of mail/subject-game.txt that depend on who reads it:
 * whether they play (and on which side of a challenge), their opponent,
 * whose turn it is, a draw offer, and a result as won, lost or drawn. */
static void game_subject_ctx(const struct game *g, int64_t recipient,
			     struct template_ctx *ctx)
{
	const struct store_game *r = g->row;
	bool white = recipient != 0 && recipient == r->white_id;
	bool black = recipient != 0 && recipient == r->black_id;
	bool player = white || black;
	int next_ply;
	enum core_color to_move = game_to_move(g, &next_ply);
	int64_t winner = 0;
	char key[48];

	snprintf(key, sizeof(key), "status_%s",
		 store_game_status_name(r->status));
	template_ctx_set_bool(ctx, key, true);
	template_ctx_set_bool(ctx, "player", player);
	template_ctx_set_bool(ctx, "is_challenger",
			      recipient != 0 && recipient == r->challenger_id);
	template_ctx_set_bool(ctx, "is_challenged",
			      player && recipient != r->challenger_id);
	if (player && (white ? g->black : g->white)[0] != '\0')
		template_ctx_set(ctx, "other", white ? g->black : g->white);
	template_ctx_set_int(ctx, "next_ply", next_ply);
	template_ctx_set(ctx, "to_move_name",
			 to_move == CORE_WHITE ? g->white : g->black);
	template_ctx_set_bool(ctx, "my_turn",
			      player && game_player_of(g, to_move) == recipient);
	template_ctx_set_bool(ctx, "draw_offer_to_me",
			      player && r->draw_offer_by != 0 &&
			      r->draw_offer_by != recipient);
	template_ctx_set_bool(ctx, "draw_offer_by_me",
			      player && r->draw_offer_by == recipient);
	if (r->status != STORE_GAME_FINISHED || r->result == NULL)
		return;
	if (strcmp(r->result, "1-0") == 0)
		winner = r->white_id;
	else if (strcmp(r->result, "0-1") == 0)
		winner = r->black_id;
	template_ctx_set_bool(ctx, "drawn", winner == 0);
	if (winner == 0)
		return;
	template_ctx_set(ctx, "winner",
			 winner == r->white_id ? g->white : g->black);
	template_ctx_set(ctx, "loser",
			 winner == r->white_id ? g->black : g->white);
	template_ctx_set_bool(ctx, "won", player && recipient == winner);
	template_ctx_set_bool(ctx, "lost", player && recipient != winner);
}

/* One header line, whatever the template renders: from `start` on, every
 * run of blanks and line ends becomes one space, none at the end (so the
 * template's sections may take lines of their own). */
static void game_subject_squeeze(struct buf *out, size_t start)
{
	size_t w = start;
	bool blank = false;

	for (size_t i = start; i < out->len; i++) {
		char c = out->data[i];
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			blank = w > start;
			continue;
		}
		if (blank)
			out->data[w++] = ' ';
		blank = false;
		out->data[w++] = c;
	}
	out->len = w;
	if (out->data != NULL)
		out->data[w] = '\0';
}

/* The "[ashes #N] " tag is written here, not by the template: it is what
 * finds a game from a reply's Subject (command_thread_game()), so an
 * operator's template cannot lose it. */
int game_subject(struct handle *h, const struct game *g, int64_t recipient,
		 const char *kind, struct buf *out)
{
	struct template_ctx *ctx = template_ctx_new();
	size_t start;
	int ret;

	buf_printf(out, "[ashes #%" PRId64 "] ", g->row->id);
	start = out->len;
	game_names_ctx(g, ctx);
	game_subject_ctx(g, recipient, ctx);
	if (kind != NULL) {
		char key[48];
		snprintf(key, sizeof(key), "kind_%s", kind);
		template_ctx_set_bool(ctx, key, true);
	}
	ret = server_render(h, "mail/subject-game.txt", ctx, out);
	template_ctx_free(&ctx);
	game_subject_squeeze(out, start);
	return ret;
}

int game_note_first(struct handle *h, int64_t id)
{
	struct store_game *row = NULL;
	const char *error;
	int ret;

	if (h->first_game != 0 || id <= 0)
		return 0;
	ret = store_game_load(h->srv->store, id, &row, &error);
	store_game_free(&row);
	if (ret < 0)
		return server_store_fail(h, error);
	if (ret == 1)
		h->first_game = id;
	return 0;
}

int game_save(struct handle *h, struct game *g)
{
	const char *error;

	game_clock_to_row(h, g);
	if (store_game_update(h->srv->store, g->row, h->now, &error) < 0)
		return server_store_fail(h, error);
	/* As the store has it now (an ended game's clocks stop then). */
	g->row->updated = h->now;
	return 0;
}

static int set_row_text(char **field, const char *text)
{
	free(*field);
	*field = text != NULL ? strdup(text) : NULL;
	return text != NULL && *field == NULL ? -1 : 0;
}

/* Copy the record's end of game into the row. */
int game_finish_row(struct handle *h, struct game *g)
{
	const struct core_position *pos = &g->rec.pos;
	const char *result = "1/2-1/2";

	if (pos->result == CORE_ONGOING)
		return 0;
	if (pos->result == CORE_RESULT_WHITE)
		result = "1-0";
	else if (pos->result == CORE_RESULT_BLACK)
		result = "0-1";
	g->row->status = STORE_GAME_FINISHED;
	g->row->draw_offer_by = 0;
	if (set_row_text(&g->row->result, result) < 0 ||
	    set_row_text(&g->row->end_reason,
			 core_end_reason_name(pos->end_reason)) < 0)
		return server_store_fail(h, "out of memory");
	return 0;
}

/* The board the mail about ply `ply` was written for, even if it is sent
 * after later moves. */
int game_board_picture(struct handle *h, const struct game *g, int ply,
		       struct buf *out, const char **error_r)
{
	struct render_picture pic = { .templates = h->ts };
	struct core_position pos;
	const struct core_move *last = NULL;
	enum core_error err;

	if (ply < 0 || (size_t)ply > g->rec.nplies) {
		*error_r = "no ply there";
		return -1;
	}
	if (core_position_init(&pos, &g->rec.variant, &err) < 0) {
		*error_r = core_error_name(err);
		return -1;
	}
	for (size_t i = 0; i < (size_t)ply; i++) {
		if (g->rec.plies[i].kind == CORE_MOVE_PASS)
			continue; /* played by the move before it */
		core_play_unchecked(&pos, &g->rec.plies[i], NULL);
		last = &g->rec.plies[i];
		/* Forced passes came with that move. */
		while (pos.ply > (int)i + 1 && (int)i + 1 < ply)
			i++;
	}
	return render_picture_svg(&pos, last, &pic, out, error_r);
}

static bool game_challenge_is_clock(const struct command_option *o)
{
	return strcmp(o->key, "clock") == 0 ||
	       strcmp(o->key, "weekends") == 0 ||
	       strcmp(o->key, "vacation") == 0;
}

/* The time control of a challenge: its clock=, weekends= and vacation=
 * options over the club's default, as the stored text into buf.  0, or
 * REFUSED naming the accepted forms. */
static int game_challenge_clock(struct handle *h, const struct command *c,
				char *buf, size_t size)
{
	const struct server_clock_config *cc = &h->srv->cfg.clock;
	struct clock_control control;
	struct clock_fault f;
	bool vacation_ok = true;

	if (clock_control_parse(cc->default_clock != NULL ?
				cc->default_clock : "none", &control,
				NULL) < 0)
		clock_control_parse("none", &control, NULL);
	control.weekends_off = cc->default_weekends_off;
	for (size_t i = 0; i < c->noptions; i++) {
		const struct command_option *o = &c->options[i];
		int r = 0;

		if (strcmp(o->key, "clock") == 0) {
			bool off = control.weekends_off;
			r = clock_control_parse(o->value, &control, &f);
			control.weekends_off = off;
		} else if (strcmp(o->key, "weekends") == 0) {
			r = clock_weekends_parse(o->value,
						 &control.weekends_off, &f);
		} else if (strcmp(o->key, "vacation") == 0) {
			if (strcmp(o->value, "yes") == 0 ||
			    strcmp(o->value, "no") == 0)
				vacation_ok = strcmp(o->value, "yes") == 0;
			else
				r = -1, f.error = CLOCK_ERR_SYNTAX;
		}
		if (r < 0) {
			server_refuse(h, "bad_clock");
			template_ctx_setf(h->refusal, "option", "%s=%s", o->key,
					  o->value);
			template_ctx_set_bool(h->refusal, o->key, true);
			template_ctx_set(h->refusal, "fault",
					 clock_error_name(f.error));
			/* A number out of its range says the range. */
			if (f.max != 0) {
				template_ctx_set_bool(h->refusal, "range", true);
				template_ctx_set_int(h->refusal, "value",
						     (long)f.value);
				template_ctx_set_int(h->refusal, "min",
						     (long)f.min);
				template_ctx_set_int(h->refusal, "max",
						     (long)f.max);
			}
			return REFUSED;
		}
	}
	game_clock_text_format(&control, vacation_ok, buf, size);
	return 0;
}

int game_challenge_create(struct handle *h, char *vtext, char *ctext,
			  int64_t black_id, enum store_game_status status,
			  struct game *g)
{
	return game_challenge_create_seated(h, vtext, ctext, h->me->id,
					    black_id, status, g);
}

int game_challenge_create_seated(struct handle *h, char *vtext, char *ctext,
				 int64_t white_id, int64_t black_id,
				 enum store_game_status status, struct game *g)
{
	struct store_game row = {
		.variant = vtext, .status = status,
		.challenger_id = h->me->id, .white_id = white_id,
		.black_id = black_id,
	};
	const char *error;
	int64_t id;
	int ret;

	if (strcmp(ctext, "none") != 0) {
		struct clock_control cc;
		bool vac;
		/* Both clocks hold the initial time until the game begins. */
		(void)game_clock_text_parse(ctext, &cc, &vac, NULL);
		row.clock_settings = ctext;
		row.clock_white = row.clock_black = clock_control_initial(&cc);
	}
	if (store_game_create(h->srv->store, &row, h->now, &id, &error) < 0)
		return server_store_fail(h, error);
	ret = game_load(h, id, g, true);
	if (ret != 1)
		return ret < 0 ? -1 : server_store_fail(h, "new game vanished");
	if (h->first_game == 0)
		h->first_game = id;
	return 0;
}

int game_player_named(struct handle *h, const char *name,
		      struct store_player **p_r)
{
	const char *error;
	int ret = store_player_by_name(h->srv->store, name, p_r, &error);
	int gone;

	if (ret < 0)
		return server_store_fail(h, error);
	if (ret == 1 && (gone = game_player_gone(h, (*p_r)->id)) != 0) {
		/* A deleted player (account.c) is no one to challenge. */
		store_player_free(p_r);
		if (gone < 0)
			return -1;
		ret = 0;
	}
	if (ret == 0) {
		server_refuse(h, "no_such_player");
		template_ctx_set(h->refusal, "name", name);
		return REFUSED;
	}
	return 0;
}

int game_player_gone(struct handle *h, int64_t pid)
{
	const char *error;
	int ret = store_player_deleted(h->srv->store, pid, &error);

	return ret < 0 ? server_store_fail(h, error) : ret;
}

/* A challenge's options (play.c's `challenge`, bot.c's `challenge bot`):
 * the time control, then the variant, over the service's defaults. */
int game_challenge_settings(struct handle *h, const struct command *c,
			    char *vtext, char *ctext)
{
	struct core_variant v = h->srv->cfg.default_variant;
	enum core_error err;
	int ret;

	if ((ret = game_challenge_clock(h, c, ctext, GAME_CLOCK_TEXT_MAX)) != 0)
		return ret;
	for (size_t i = 0; i < c->noptions; i++) {
		const struct command_option *o = &c->options[i];
		if (game_challenge_is_clock(o))
			continue;
		if (core_variant_set_option(&v, o->key, o->value, &err) < 0) {
			server_refuse(h, "bad_option");
			template_ctx_setf(h->refusal, "option", "%s=%s", o->key,
					  o->value);
			return game_refuse_rule(h, NULL, NULL, err);
		}
	}
	core_variant_format(&v, CORE_VARIANT_ALL, vtext, CORE_VARIANT_TEXT_MAX);
	return 0;
}
