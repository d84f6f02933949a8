/* server.c -- the game service: one inbound mail, one store transaction. */
#include "server/server.h"
#include "server/server_private.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <sys/random.h>

#include "core/notation.h"
#include "core/record.h"
#include "render/render.h"
#include "render/template.h"
#include "server/command.h"
#include "store/store.h"
#include "util/buf.h"


void server_config_default(struct server_config *cfg_r)
{
	memset(cfg_r, 0, sizeof(*cfg_r));
	core_variant_default(&cfg_r->default_variant);
	cfg_r->draw_default = true;
}

int server_new(struct store *store, const struct server_config *cfg,
	       struct server **server_r, const char **error_r)
{
	struct server *srv;

	*server_r = NULL;
	if (cfg->domain == NULL || cfg->domain[0] == '\0') {
		*error_r = "server: no Message-ID domain configured";
		return -1;
	}
	if (cfg->templates == NULL) {
		*error_r = "server: no template set";
		return -1;
	}
	srv = calloc(1, sizeof(*srv));
	if (srv == NULL) {
		*error_r = "server: out of memory";
		return -1;
	}
	srv->store = store;
	srv->cfg = *cfg;
	srv->domain = strdup(cfg->domain);
	if (srv->domain == NULL) {
		free(srv);
		*error_r = "server: out of memory";
		return -1;
	}
	srv->cfg.domain = srv->domain;
	*server_r = srv;
	return 0;
}

void server_free(struct server **server)
{
	if (*server == NULL)
		return;
	free((*server)->domain);
	free(*server);
	*server = NULL;
}

/* --- small helpers ------------------------------------------------------ */

const char *server_player_address(const struct store_player *p)
{
	for (size_t i = 0; i < p->n_addresses; i++)
		if (!p->addresses[i].failing)
			return p->addresses[i].address;
	return p->n_addresses > 0 ? p->addresses[0].address : NULL;
}

const char *server_bare_id(const char *id, char *buf, size_t len)
{
	size_t n = strlen(id);

	if (n >= 2 && id[0] == '<' && id[n - 1] == '>') {
		id++;
		n -= 2;
	}
	if (n >= len)
		n = len - 1;
	memcpy(buf, id, n);
	buf[n] = '\0';
	return buf;
}

/* Start a refusal with reason code `code` (a section name in
 * mail/refusal.txt). */
int server_refuse(struct handle *h, const char *code)
{
	template_ctx_free(&h->refusal);
	h->refusal = template_ctx_new();
	template_ctx_set_bool(h->refusal, code, true);
	template_ctx_set(h->refusal, "code", code);
	return REFUSED;
}

static int refuse_game(struct handle *h, const char *code, int64_t game)
{
	server_refuse(h, code);
	template_ctx_setf(h->refusal, "game", "%" PRId64, game);
	return REFUSED;
}

int server_store_fail(struct handle *h, const char *error)
{
	h->error = error != NULL ? error : "store failure";
	return -1;
}

int server_render(struct handle *h, const char *name,
		  const struct template_ctx *ctx, struct buf *out)
{
	const char *error;

	if (template_render(h->srv->cfg.templates, name, ctx, out, &error) < 0) {
		snprintf(h->srv->errbuf, sizeof(h->srv->errbuf), "%s", error);
		h->error = h->srv->errbuf;
		return -1;
	}
	return 0;
}

/* Render into a string value of ctx (trailing newlines dropped, so values
 * compose inside other templates). */
int server_render_into(struct handle *h, const char *name,
		       const struct template_ctx *src, struct template_ctx *dst,
		       const char *key)
{
	struct buf b = BUF_INIT;
	int ret = server_render(h, name, src, &b);

	if (ret == 0) {
		while (b.len > 0 && b.data[b.len - 1] == '\n')
			b.data[--b.len] = '\0';
		template_ctx_set(dst, key, buf_str(&b));
	}
	buf_free(&b);
	return ret;
}

static void game_free(struct game *g)
{
	store_game_free(&g->row);
	if (g->rec_ok)
		record_free(&g->rec);
	g->rec_ok = false;
}

static void copy_name(char *dst, const char *src)
{
	snprintf(dst, COMMAND_NAME_MAX + 1, "%s", src != NULL ? src : "");
}

static int player_name(struct handle *h, int64_t id, char *dst)
{
	struct store_player *p = NULL;
	const char *error;
	int ret;

	dst[0] = '\0';
	if (id == 0)
		return 0;
	if (h->me != NULL && h->me->id == id) {
		copy_name(dst, h->me->name);
		return 0;
	}
	ret = store_player_load(h->srv->store, id, &p, &error);
	if (ret < 0)
		return server_store_fail(h, error);
	if (ret == 1)
		copy_name(dst, p->name);
	store_player_free(&p);
	return 0;
}

/* Parse the stored variant text: core options, plus the service's own
 * draw=yes|no. */
static int variant_parse(const char *text, struct core_variant *v_r,
			 bool *draws_r, bool draw_default)
{
	char word[64];
	enum core_error err;

	core_variant_default(v_r);
	*draws_r = draw_default;
	while (text != NULL && *text != '\0') {
		size_t n = strcspn(text, " ");
		if (n > 0) {
			if (n >= sizeof(word))
				return -1;
			memcpy(word, text, n);
			word[n] = '\0';
			if (strcmp(word, "draw=no") == 0)
				*draws_r = false;
			else if (strcmp(word, "draw=yes") == 0)
				*draws_r = true;
			else if (notation_parse_variant_option(v_r, word,
							       &err) < 0)
				return -1;
		}
		text += n;
		while (*text == ' ')
			text++;
	}
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
static int game_load(struct handle *h, int64_t id, struct game *g,
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
		refuse_game(h, "no_such_game", id);
		return 0;
	}
	if (variant_parse(g->row->variant, &v, &g->draws,
			  h->srv->cfg.draw_default) < 0) {
		game_free(g);
		return server_store_fail(h, "stored game has a bad variant");
	}
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
	if (player_name(h, g->row->white_id, g->white) < 0 ||
	    player_name(h, g->row->black_id, g->black) < 0 ||
	    player_name(h, g->row->challenger_id, g->challenger) < 0) {
		game_free(g);
		return -1;
	}
	if (g->row->challenger_id == g->row->white_id)
		copy_name(g->opponent, g->black);
	else
		copy_name(g->opponent, g->white);
	if (g->opponent[0] == '\0')
		copy_name(g->opponent, "anyone");
	return 1;
}

static int64_t player_of_color(const struct game *g, enum core_color c)
{
	return c == CORE_WHITE ? g->row->white_id : g->row->black_id;
}

/* The sender's colour in g, or -1 if the sender does not play in it. */
static int my_color(const struct handle *h, const struct game *g)
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
static void game_names_ctx(const struct game *g, struct template_ctx *ctx)
{
	template_ctx_setf(ctx, "game", "%" PRId64, g->row->id);
	template_ctx_set(ctx, "white_name", g->white);
	template_ctx_set(ctx, "black_name", g->black);
	template_ctx_set(ctx, "challenger", g->challenger);
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
static void game_ctx(const struct handle *h, const struct game *g,
		     struct template_ctx *ctx)
{
	size_t max = h->srv->cfg.max_listed_moves;

	render_position_ctx(&g->rec.pos, ctx);
	/* A list longer than the operator wants in a mail: say how to get
	 * it instead (`moves GAME` lists every move). */
	template_ctx_set_bool(ctx, "moves_cut",
			      max > 0 &&
			      core_legal_moves(&g->rec.pos, NULL, 0) > max);
	game_names_ctx(g, ctx);
	template_ctx_set(ctx, "to_move_name",
			 g->rec.pos.to_move == CORE_WHITE ? g->white : g->black);
}

/* Describe the plies from index `from` of the record in words (the last
 * move(s) that led to the current position). */
static int last_moves_ctx(struct handle *h, const struct game *g, size_t from,
			  struct template_ctx *ctx)
{
	struct core_position pos;
	enum core_error err;
	const char *error;
	struct buf words = BUF_INIT;
	int ret = 0;

	if (from >= g->rec.nplies)
		return 0;
	if (core_position_init(&pos, &g->rec.variant, &err) < 0)
		return server_store_fail(h, core_error_string(err));
	for (size_t i = 0; i < g->rec.nplies; i++) {
		struct core_move m = g->rec.plies[i];
		if (m.kind == CORE_MOVE_PASS)
			continue; /* not reached: passes follow their move */
		if (i >= from) {
			char text[CORE_MOVE_TEXT_MAX];
			struct template_ctx *item =
				template_ctx_add(ctx, "last_moves");
			buf_reset(&words);
			if (render_move_words(h->srv->cfg.templates, &pos, &m,
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
	return ret;
}

/* Subject of every mail about game g: "[ashes #12] alice vs bob". */
static int game_subject(struct handle *h, const struct game *g,
			struct buf *out)
{
	struct template_ctx *ctx = template_ctx_new();
	int ret;

	buf_printf(out, "[ashes #%" PRId64 "] ", g->row->id);
	game_names_ctx(g, ctx);
	ret = server_render(h, "mail/subject-game.txt", ctx, out);
	template_ctx_free(&ctx);
	while (out->len > 0 && (out->data[out->len - 1] == '\n' ||
				out->data[out->len - 1] == '\r'))
		out->data[--out->len] = '\0';
	return ret;
}

/* The random part of our Message-IDs: a forged delivery report must name
 * a mail we really sent, and nobody can guess one from the game, ply and
 * inbound numbers. */
#define MESSAGE_ID_TOKEN_BYTES 8

static int message_id_token(char *hex)
{
	unsigned char raw[MESSAGE_ID_TOKEN_BYTES];
	size_t i;

	if (getrandom(raw, sizeof(raw), 0) != (ssize_t)sizeof(raw))
		return -1;
	for (i = 0; i < sizeof(raw); i++)
		snprintf(hex + 2 * i, 3, "%02x", raw[i]);
	return 0;
}

/* Queue one mail.  `g` (may be NULL) threads it into the game's thread,
 * whose root becomes this mail if the game has none yet; `answer_id` and
 * `answer_refs` (may be NULL) thread it under the sender's mail. */
int server_queue_mail(struct handle *h, const char *to, struct game *g,
		      const char *kind, const char *subject,
		      const char *answer_id, const char *answer_refs,
		      const char *body, bool auto_reply)
{
	struct store_outbox_msg m;
	struct buf hdr = BUF_INIT, refs = BUF_INIT;
	char id[256], token[MESSAGE_ID_TOKEN_BYTES * 2 + 1];
	const char *error;
	int64_t game_id = g != NULL ? g->row->id : 0;
	int ply = g != NULL ? g->row->ply : 0;
	int ret = 0;

	if (to == NULL)
		return 0;
	if (message_id_token(token) < 0)
		return server_store_fail(h, "no random bytes for a Message-ID");
	command_message_id(id, sizeof(id), game_id, ply, h->inbound_id,
			   h->seq++, token, h->srv->domain);
	buf_printf(&hdr, "To: %s\n", to);
	buf_printf(&hdr, "Subject: %s\n", subject);
	buf_printf(&hdr, "Message-ID: %s\n", id);
	if (answer_refs != NULL && answer_refs[0] != '\0' &&
	    strlen(answer_refs) < 900)
		buf_puts(&refs, answer_refs);
	if (g != NULL && g->row->thread_message_id != NULL) {
		if (refs.len > 0)
			buf_putc(&refs, ' ');
		buf_printf(&refs, "<%s>", g->row->thread_message_id);
	}
	if (answer_id != NULL) {
		if (refs.len > 0)
			buf_putc(&refs, ' ');
		buf_printf(&refs, "<%s>", answer_id);
		buf_printf(&hdr, "In-Reply-To: <%s>\n", answer_id);
	} else if (g != NULL && g->row->thread_message_id != NULL) {
		buf_printf(&hdr, "In-Reply-To: <%s>\n",
			   g->row->thread_message_id);
	}
	if (refs.len > 0)
		buf_printf(&hdr, "References: %s\n", buf_str(&refs));
	buf_printf(&hdr, "Auto-Submitted: %s\n",
		   auto_reply ? "auto-replied" : "auto-generated");
	if (game_id != 0) {
		buf_printf(&hdr, "X-Ashes-Game: %" PRId64 "\n", game_id);
		buf_printf(&hdr, "X-Ashes-Ply: %d\n", ply);
	}
	buf_printf(&hdr, "X-Ashes-Kind: %s\n", kind);

	memset(&m, 0, sizeof(m));
	m.recipient = (char *)to;
	/* Stored without the angle brackets, like inbound Message-IDs. */
	id[strlen(id) - 1] = '\0';
	m.message_id = id + 1;
	m.headers = (char *)buf_str(&hdr);
	m.body = (char *)body;
	m.game_id = game_id;
	m.inbound_id = h->inbound_id;
	if (store_outbox_enqueue(h->srv->store, &m, h->now, NULL, &error) < 0) {
		ret = server_store_fail(h, error);
		goto out;
	}
	h->queued++;
	if (g != NULL && g->row->thread_message_id == NULL) {
		g->row->thread_message_id = strdup(id + 1);
		if (g->row->thread_message_id == NULL ||
		    store_game_update(h->srv->store, g->row, h->now,
				      &error) < 0) {
			ret = server_store_fail(h, "cannot record the game's thread");
			goto out;
		}
	}
out:
	buf_free(&hdr);
	buf_free(&refs);
	return ret;
}

/* Queue a notice about game g to player `pid` from template `tpl` with
 * the game's variables (plus `extra`, may be NULL, merged by the caller
 * into ctx before). */
static int notify(struct handle *h, struct game *g, int64_t pid,
		  const char *tpl, const char *kind, struct template_ctx *ctx)
{
	struct store_player *p = NULL;
	struct buf body = BUF_INIT, subject = BUF_INIT;
	const char *error;
	int ret;

	if (pid == 0)
		return 0;
	ret = store_player_load(h->srv->store, pid, &p, &error);
	if (ret < 0)
		return server_store_fail(h, error);
	if (ret == 0)
		return 0;
	template_ctx_set(ctx, "recipient", p->name);
	ret = server_render(h, tpl, ctx, &body);
	if (ret == 0)
		ret = game_subject(h, g, &subject);
	if (ret == 0)
		ret = server_queue_mail(h, server_player_address(p), g, kind,
				 buf_str(&subject), NULL, NULL, buf_str(&body),
				 false);
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
	if (last_moves_ctx(h, g, from, ctx) < 0) {
		template_ctx_free(&ctx);
		return -1;
	}
	*ctx_r = ctx;
	return 0;
}

/* After a game changed: "your move" to the player to move, the result to
 * both players when it is over, and a notice to every observer. */
static int notify_game(struct handle *h, struct game *g, size_t from,
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
	if (g->row->status == STORE_GAME_FINISHED) {
		ret = notify(h, g, g->row->white_id, "mail/result.txt",
			     "result", ctx);
		if (ret == 0)
			ret = notify(h, g, g->row->black_id, "mail/result.txt",
				     "result", ctx);
	} else {
		ret = notify(h, g, player_of_color(g, g->rec.pos.to_move),
			     "mail/your-move.txt", "your-move", ctx);
	}
	if (ret == 0 &&
	    store_observer_list(h->srv->store, g->row->id, &obs, &nobs,
				&error) < 0)
		ret = server_store_fail(h, error);
	for (size_t i = 0; ret == 0 && i < nobs; i++)
		ret = notify(h, g, obs[i], "mail/observer.txt", "observer",
			     ctx);
	free(obs);
	template_ctx_free(&own);
	return ret;
}

static int game_save(struct handle *h, struct game *g)
{
	const char *error;

	if (store_game_update(h->srv->store, g->row, h->now, &error) < 0)
		return server_store_fail(h, error);
	return 0;
}

static int set_row_text(char **field, const char *text)
{
	free(*field);
	*field = text != NULL ? strdup(text) : NULL;
	return text != NULL && *field == NULL ? -1 : 0;
}

/* Copy the record's end of game into the row. */
static int game_finish_row(struct handle *h, struct game *g)
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

/* --- the commands -------------------------------------------------------- */

static int need_player(struct handle *h)
{
	if (h->me == NULL)
		return server_refuse(h, "not_registered");
	return 0;
}

static int cmd_help(struct handle *h, struct template_ctx *out)
{
	return server_render_into(h, "mail/help.txt", h->reply, out, "output");
}

static int cmd_challenge(struct handle *h, const struct command *c,
			 struct template_ctx *out)
{
	struct core_variant v = h->srv->cfg.default_variant;
	bool draws = h->srv->cfg.draw_default;
	struct store_player *target = NULL;
	struct store_game row;
	struct game g;
	char vtext[128], opt[80];
	enum core_error err;
	const char *error;
	int64_t id;
	int ret;

	if (need_player(h) != 0)
		return REFUSED;
	for (size_t i = 0; i < c->noptions; i++) {
		const struct command_option *o = &c->options[i];
		if (strcmp(o->key, "draw") == 0) {
			draws = strcmp(o->value, "yes") == 0;
			continue;
		}
		if (strcmp(o->key, "swap") == 0) {
			v.swap = strcmp(o->value, "yes") == 0;
			continue;
		}
		snprintf(opt, sizeof(opt), "%s=%s", o->key, o->value);
		if (notation_parse_variant_option(&v, opt, &err) < 0) {
			server_refuse(h, "bad_option");
			template_ctx_set(h->refusal, "option", opt);
			template_ctx_set(h->refusal, "rule",
					 core_error_string(err));
			return REFUSED;
		}
	}
	if (strcmp(c->name, "any") != 0) {
		ret = store_player_by_name(h->srv->store, c->name, &target,
					   &error);
		if (ret < 0)
			return server_store_fail(h, error);
		if (ret == 0) {
			server_refuse(h, "no_such_player");
			template_ctx_set(h->refusal, "name", c->name);
			return REFUSED;
		}
		if (target->id == h->me->id) {
			store_player_free(&target);
			return server_refuse(h, "challenge_self");
		}
	}
	notation_format_variant(&v, vtext, sizeof(vtext));
	if (!draws)
		strncat(vtext, " draw=no", sizeof(vtext) - strlen(vtext) - 1);

	memset(&row, 0, sizeof(row));
	row.variant = vtext;
	row.challenger_id = h->me->id;
	row.white_id = h->me->id;
	row.black_id = target != NULL ? target->id : 0;
	row.status = target != NULL ? STORE_GAME_CHALLENGE : STORE_GAME_OPEN;
	store_player_free(&target);
	if (store_game_create(h->srv->store, &row, h->now, &id, &error) < 0)
		return server_store_fail(h, error);
	ret = game_load(h, id, &g, true);
	if (ret != 1)
		return ret < 0 ? -1 : server_store_fail(h, "new game vanished");
	if (h->first_game == 0)
		h->first_game = id;
	game_ctx(h, &g, out);
	template_ctx_set_bool(out, "open", g.row->status == STORE_GAME_OPEN);
	ret = server_render_into(h, "mail/cmd-challenge.txt", out, out, "output");
	if (ret == 0 && g.row->status == STORE_GAME_CHALLENGE) {
		struct template_ctx *ctx = template_ctx_new();
		game_ctx(h, &g, ctx);
		ret = notify(h, &g, g.row->black_id, "mail/challenge.txt",
			     "challenge", ctx);
		template_ctx_free(&ctx);
	}
	game_free(&g);
	return ret;
}

/* Load game c->game for a command; 1 loaded, REFUSED-ish 0, -1. */
static int load_for(struct handle *h, const struct command *c, struct game *g)
{
	int ret = game_load(h, c->game, g, true);

	if (ret == 1 && h->first_game == 0)
		h->first_game = c->game;
	return ret;
}

static int refuse_status(struct handle *h, const struct game *g)
{
	refuse_game(h, "wrong_status", g->row->id);
	template_ctx_set(h->refusal, "status",
			 store_game_status_name(g->row->status));
	return REFUSED;
}

static int cmd_accept(struct handle *h, const struct command *c,
		      struct template_ctx *out)
{
	struct game g;
	int ret;

	if (need_player(h) != 0)
		return REFUSED;
	ret = load_for(h, c, &g);
	if (ret <= 0)
		return ret < 0 ? -1 : REFUSED;
	if (g.row->status != STORE_GAME_CHALLENGE &&
	    g.row->status != STORE_GAME_OPEN)
		ret = refuse_status(h, &g);
	else if (g.row->challenger_id == h->me->id)
		ret = refuse_game(h, "own_challenge", g.row->id);
	else if (g.row->status == STORE_GAME_CHALLENGE &&
		 g.row->black_id != h->me->id)
		ret = refuse_game(h, "not_challenged", g.row->id);
	else
		ret = 0;
	if (ret != 0)
		goto out;
	if (g.row->black_id == 0)
		g.row->black_id = h->me->id;
	copy_name(g.black, h->me->name);
	copy_name(g.opponent, h->me->name);
	g.row->status = STORE_GAME_ACTIVE;
	if ((ret = game_save(h, &g)) < 0)
		goto out;
	game_ctx(h, &g, out);
	ret = server_render_into(h, "mail/cmd-accept.txt", out, out, "output");
	if (ret == 0)
		ret = notify_game(h, &g, 0, out);
out:
	game_free(&g);
	return ret;
}

static int cmd_decline_withdraw(struct handle *h, const struct command *c,
				struct template_ctx *out)
{
	bool withdraw = c->kind == COMMAND_WITHDRAW;
	struct template_ctx *ctx;
	struct game g;
	int64_t other;
	int ret;

	if (need_player(h) != 0)
		return REFUSED;
	ret = load_for(h, c, &g);
	if (ret <= 0)
		return ret < 0 ? -1 : REFUSED;
	ret = 0;
	if (withdraw) {
		if (g.row->status != STORE_GAME_CHALLENGE &&
		    g.row->status != STORE_GAME_OPEN)
			ret = refuse_status(h, &g);
		else if (g.row->challenger_id != h->me->id)
			ret = refuse_game(h, "not_challenger", g.row->id);
	} else {
		if (g.row->status != STORE_GAME_CHALLENGE)
			ret = refuse_status(h, &g);
		else if (g.row->black_id != h->me->id)
			ret = refuse_game(h, "not_challenged", g.row->id);
	}
	if (ret != 0)
		goto out;
	g.row->status = withdraw ? STORE_GAME_WITHDRAWN : STORE_GAME_DECLINED;
	if ((ret = game_save(h, &g)) < 0)
		goto out;
	game_ctx(h, &g, out);
	template_ctx_set_bool(out, withdraw ? "withdrawn" : "declined", true);
	ret = server_render_into(h, "mail/cmd-decline.txt", out, out, "output");
	other = withdraw ? g.row->black_id : g.row->challenger_id;
	if (ret == 0 && other != 0) {
		ctx = template_ctx_new();
		game_ctx(h, &g, ctx);
		template_ctx_set_bool(ctx, withdraw ? "withdrawn" : "declined",
				      true);
		ret = notify(h, &g, other, "mail/challenge-closed.txt",
			     "challenge", ctx);
		template_ctx_free(&ctx);
	}
out:
	game_free(&g);
	return ret;
}

/* Common checks for commands that act in a running game as one of its
 * players.  0 ok (*color_r set), REFUSED, -1. */
static int need_active_player(struct handle *h, struct game *g, int *color_r)
{
	if (g->row->status != STORE_GAME_ACTIVE)
		return refuse_status(h, g);
	*color_r = my_color(h, g);
	if (*color_r < 0)
		return refuse_game(h, "not_your_game", g->row->id);
	return 0;
}

static int refuse_move(struct handle *h, const struct game *g,
		       const struct core_move *m, enum core_error err,
		       const char *text)
{
	char why[256];

	refuse_game(h, "illegal_move", g->row->id);
	template_ctx_set(h->refusal, "move", text);
	template_ctx_set(h->refusal, "rule", core_error_string(err));
	if (m != NULL)
		template_ctx_set(h->refusal, "explain",
				 core_explain_move(&g->rec.pos, m, err, why,
						   sizeof(why)));
	return REFUSED;
}

static int cmd_move(struct handle *h, const struct command *c,
		    struct template_ctx *out)
{
	struct game g;
	struct core_move m;
	enum core_error err;
	const char *error;
	char text[CORE_MOVE_TEXT_MAX];
	size_t before;
	int color, next, ret;

	if (need_player(h) != 0)
		return REFUSED;
	ret = load_for(h, c, &g);
	if (ret <= 0)
		return ret < 0 ? -1 : REFUSED;
	if ((ret = need_active_player(h, &g, &color)) != 0)
		goto out;
	next = g.rec.pos.ply + 1;
	if (c->ply != 0 && c->ply != next) {
		ret = refuse_game(h, "stale_ply", g.row->id);
		template_ctx_set_int(h->refusal, "next_ply", next);
		template_ctx_set_int(h->refusal, "given_ply", c->ply);
		goto out;
	}
	if (color != g.rec.pos.to_move) {
		ret = refuse_game(h, "not_your_turn", g.row->id);
		template_ctx_set(h->refusal, "to_move_name",
				 g.rec.pos.to_move == CORE_WHITE ? g.white :
				 g.black);
		goto out;
	}
	if (notation_parse_move(&g.rec.pos, c->move, strlen(c->move), &m,
				&err) < 0) {
		ret = refuse_move(h, &g, NULL, err, c->move);
		goto out;
	}
	before = g.rec.nplies;
	if (record_play(&g.rec, &m, &err) < 0) {
		ret = refuse_move(h, &g, &m, err, c->move);
		goto out;
	}
	for (size_t i = before; i < g.rec.nplies; i++) {
		const struct core_move *p = &g.rec.plies[i];
		ret = store_move_append(h->srv->store, g.row->id, (int)i + 1,
					notation_format_move(g.rec.pos.geom, p,
							     text),
					i == before ? h->me->id : 0, h->now,
					h->inbound_id, &error);
		if (ret < 0) {
			ret = server_store_fail(h, error);
			goto out;
		}
		if (ret == 1) {
			/* Someone else stored this ply meanwhile: stale. */
			ret = refuse_game(h, "stale_ply", g.row->id);
			template_ctx_set_int(h->refusal, "next_ply", next + 1);
			template_ctx_set_int(h->refusal, "given_ply", next);
			goto out;
		}
		g.row->ply = (int)i + 1;
	}
	if (m.kind == CORE_MOVE_SWAP) {
		int64_t t = g.row->white_id;
		char n[COMMAND_NAME_MAX + 1];
		g.row->white_id = g.row->black_id;
		g.row->black_id = t;
		g.row->swapped = true;
		copy_name(n, g.white);
		copy_name(g.white, g.black);
		copy_name(g.black, n);
	}
	/* A move answers a pending draw offer of the opponent: declined. */
	if (g.row->draw_offer_by != 0 && g.row->draw_offer_by != h->me->id)
		g.row->draw_offer_by = 0;
	if ((ret = game_finish_row(h, &g)) < 0 || (ret = game_save(h, &g)) < 0)
		goto out;
	game_ctx(h, &g, out);
	template_ctx_set_int(out, "move_ply", next);
	template_ctx_set(out, "move",
			 notation_format_move(g.rec.pos.geom,
					      &g.rec.plies[before], text));
	template_ctx_set_bool(out, "bare", c->bare);
	if ((ret = last_moves_ctx(h, &g, before, out)) < 0)
		goto out;
	ret = server_render_into(h, "mail/cmd-move.txt", out, out, "output");
	if (ret == 0)
		ret = notify_game(h, &g, before, out);
out:
	game_free(&g);
	return ret;
}

static int cmd_preview(struct handle *h, const struct command *c,
		       struct template_ctx *out)
{
	struct game g;
	struct core_move m;
	struct core_position after;
	enum core_error err;
	char text[CORE_MOVE_TEXT_MAX];
	int ret;

	ret = load_for(h, c, &g);
	if (ret <= 0)
		return ret < 0 ? -1 : REFUSED;
	if (g.row->status != STORE_GAME_ACTIVE) {
		ret = refuse_status(h, &g);
		goto out;
	}
	if (notation_parse_move(&g.rec.pos, c->move, strlen(c->move), &m,
				&err) < 0) {
		ret = refuse_move(h, &g, NULL, err, c->move);
		goto out;
	}
	after = g.rec.pos;
	if (core_play(&after, &m, NULL, &err) < 0) {
		ret = refuse_move(h, &g, &m, err, c->move);
		goto out;
	}
	{
		const char *error;
		struct buf words = BUF_INIT;
		if (render_move_words(h->srv->cfg.templates, &g.rec.pos, &m,
				      &words, &error) < 0) {
			buf_free(&words);
			snprintf(h->srv->errbuf, sizeof(h->srv->errbuf), "%s",
				 error);
			h->error = h->srv->errbuf;
			ret = -1;
			goto out;
		}
		template_ctx_set(out, "words", buf_str(&words));
		buf_free(&words);
	}
	game_ctx(h, &g, out);
	render_position_ctx(&after, out);
	template_ctx_set(out, "move",
			 notation_format_move(after.geom, &m, text));
	ret = server_render_into(h, "mail/cmd-preview.txt", out, out, "output");
out:
	game_free(&g);
	return ret;
}

static int cmd_resign(struct handle *h, const struct command *c,
		      struct template_ctx *out)
{
	struct game g;
	enum core_error err;
	int color, ret;

	if (need_player(h) != 0)
		return REFUSED;
	ret = load_for(h, c, &g);
	if (ret <= 0)
		return ret < 0 ? -1 : REFUSED;
	if ((ret = need_active_player(h, &g, &color)) != 0)
		goto out;
	if (record_end(&g.rec, CORE_END_RESIGNATION, (enum core_color)color,
		       &err) < 0) {
		ret = refuse_move(h, &g, NULL, err, "resign");
		goto out;
	}
	if ((ret = game_finish_row(h, &g)) < 0 || (ret = game_save(h, &g)) < 0)
		goto out;
	game_ctx(h, &g, out);
	ret = server_render_into(h, "mail/cmd-resign.txt", out, out, "output");
	if (ret == 0)
		ret = notify_game(h, &g, g.rec.nplies, out);
out:
	game_free(&g);
	return ret;
}

static int cmd_draw(struct handle *h, const struct command *c,
		    struct template_ctx *out)
{
	struct template_ctx *ctx;
	struct game g;
	enum core_error err;
	int color, ret;
	int64_t opp;

	if (need_player(h) != 0)
		return REFUSED;
	ret = load_for(h, c, &g);
	if (ret <= 0)
		return ret < 0 ? -1 : REFUSED;
	if ((ret = need_active_player(h, &g, &color)) != 0)
		goto out;
	if (!g.draws) {
		ret = refuse_game(h, "draws_not_allowed", g.row->id);
		goto out;
	}
	opp = player_of_color(&g, color == CORE_WHITE ? CORE_BLACK :
			      CORE_WHITE);
	switch (c->draw) {
	case COMMAND_DRAW_OFFER:
		if (g.row->draw_offer_by == h->me->id) {
			ret = refuse_game(h, "draw_already_offered", g.row->id);
			goto out;
		}
		if (g.row->draw_offer_by == opp) {
			ret = refuse_game(h, "draw_offer_pending", g.row->id);
			goto out;
		}
		g.row->draw_offer_by = h->me->id;
		g.row->draw_offer_ply = g.rec.pos.ply;
		break;
	case COMMAND_DRAW_ACCEPT:
	case COMMAND_DRAW_DECLINE:
		if (g.row->draw_offer_by != opp) {
			ret = refuse_game(h, "no_draw_offer", g.row->id);
			goto out;
		}
		g.row->draw_offer_by = 0;
		if (c->draw == COMMAND_DRAW_ACCEPT) {
			if (record_end(&g.rec, CORE_END_AGREED_DRAW,
				       CORE_WHITE, &err) < 0) {
				ret = refuse_move(h, &g, NULL, err, "draw");
				goto out;
			}
			if ((ret = game_finish_row(h, &g)) < 0)
				goto out;
		}
		break;
	}
	if ((ret = game_save(h, &g)) < 0)
		goto out;
	game_ctx(h, &g, out);
	template_ctx_set_bool(out, c->draw == COMMAND_DRAW_OFFER ? "offer" :
			      c->draw == COMMAND_DRAW_ACCEPT ? "accept" :
			      "decline", true);
	template_ctx_set(out, "me", h->me->name);
	ret = server_render_into(h, "mail/cmd-draw.txt", out, out, "output");
	if (ret != 0)
		goto out;
	if (c->draw == COMMAND_DRAW_ACCEPT) {
		ret = notify_game(h, &g, g.rec.nplies, out);
	} else {
		ctx = template_ctx_new();
		game_ctx(h, &g, ctx);
		template_ctx_set(ctx, "me", h->me->name);
		template_ctx_set_bool(ctx, c->draw == COMMAND_DRAW_OFFER ?
				      "offer" : "decline", true);
		ret = notify(h, &g, opp, "mail/draw.txt", "draw", ctx);
		template_ctx_free(&ctx);
	}
out:
	game_free(&g);
	return ret;
}

/* board, moves, history: a view of one game, for anyone. */
static int cmd_view(struct handle *h, const struct command *c,
		    struct template_ctx *out)
{
	struct game g;
	const char *tpl;
	int ret;

	ret = load_for(h, c, &g);
	if (ret <= 0)
		return ret < 0 ? -1 : REFUSED;
	game_ctx(h, &g, out);
	if (c->kind == COMMAND_HISTORY) {
		size_t need = record_format(&g.rec, NULL, 0);
		char *text = malloc(need + 1);
		if (text == NULL) {
			ret = server_store_fail(h, "out of memory");
			goto out;
		}
		record_format(&g.rec, text, need + 1);
		template_ctx_set(out, "record", text);
		free(text);
		if ((ret = last_moves_ctx(h, &g, 0, out)) < 0)
			goto out;
		tpl = "mail/cmd-history.txt";
	} else if (c->kind == COMMAND_MOVES) {
		struct buf plain = BUF_INIT;
		render_legal_moves_plain(&g.rec.pos, &plain);
		template_ctx_set(out, "moves_plain", buf_str(&plain));
		buf_free(&plain);
		tpl = "mail/cmd-moves.txt";
	} else {
		if (g.rec.nplies > 0 &&
		    (ret = last_moves_ctx(h, &g, g.rec.nplies - 1, out)) < 0)
			goto out;
		tpl = "mail/cmd-board.txt";
	}
	ret = server_render_into(h, tpl, out, out, "output");
out:
	game_free(&g);
	return ret;
}

static int cmd_games(struct handle *h, struct template_ctx *out)
{
	struct store_game *games = NULL;
	size_t n = 0;
	const char *error;
	unsigned mask = (1u << STORE_GAME_CHALLENGE) | (1u << STORE_GAME_OPEN) |
			(1u << STORE_GAME_ACTIVE);
	int ret = 0;

	if (need_player(h) != 0)
		return REFUSED;
	if (store_games_for_player(h->srv->store, h->me->id, mask, &games, &n,
				   &error) < 0)
		return server_store_fail(h, error);
	template_ctx_list(out, "games");
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

		template_ctx_setf(it, "game", "%" PRId64, r->id);
		template_ctx_set(it, "status", store_game_status_name(r->status));
		template_ctx_set(it, "variant", r->variant);
		template_ctx_set_int(it, "next_ply", r->ply + 1);
		if ((ret = player_name(h, opp, name)) < 0)
			break;
		template_ctx_set(it, "opponent", name[0] ? name : "anyone");
		template_ctx_set_bool(it, "active",
				      r->status == STORE_GAME_ACTIVE);
		template_ctx_set_bool(it, "my_turn",
				      r->status == STORE_GAME_ACTIVE &&
				      to_move == h->me->id);
		template_ctx_set_bool(it, "waiting_me",
				      r->status == STORE_GAME_CHALLENGE &&
				      r->black_id == h->me->id);
		template_ctx_set_bool(it, "open", r->status == STORE_GAME_OPEN);
	}
	store_games_free(&games, n);
	if (ret < 0)
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
		template_ctx_setf(it, "game", "%" PRId64, games[i].id);
		template_ctx_set(it, "variant", games[i].variant);
		ret = player_name(h, games[i].challenger_id, name);
		template_ctx_set(it, "challenger", name);
	}
	store_games_free(&games, n);
	if (ret < 0)
		return -1;
	return server_render_into(h, "mail/cmd-games.txt", out, out, "output");
}

static int cmd_observe(struct handle *h, const struct command *c,
		       struct template_ctx *out)
{
	bool add = c->kind == COMMAND_OBSERVE;
	struct game g;
	const char *error;
	int ret;

	if (need_player(h) != 0)
		return REFUSED;
	ret = load_for(h, c, &g);
	if (ret <= 0)
		return ret < 0 ? -1 : REFUSED;
	if (add && my_color(h, &g) >= 0) {
		ret = refuse_game(h, "observe_own", g.row->id);
		goto out;
	}
	ret = add ? store_observer_add(h->srv->store, g.row->id, h->me->id,
				       h->now, &error) :
		    store_observer_remove(h->srv->store, g.row->id, h->me->id,
					  &error);
	if (ret < 0) {
		ret = server_store_fail(h, error);
		goto out;
	}
	game_ctx(h, &g, out);
	template_ctx_set_bool(out, add ? "observe" : "unobserve", true);
	/* observer_add: 1 already; observer_remove: 0 was not. */
	template_ctx_set_bool(out, "no_change", add ? ret == 1 : ret == 0);
	ret = server_render_into(h, "mail/cmd-observe.txt", out, out, "output");
out:
	game_free(&g);
	return ret;
}

/* Codes of the refusal template for command-language errors. */
static const char *parse_error_code(enum command_error err)
{
	switch (err) {
	case COMMAND_OK: return "ok";
	case COMMAND_ERR_UNKNOWN: return "e_unknown";
	case COMMAND_ERR_MISSING_ARG: return "e_missing_arg";
	case COMMAND_ERR_EXTRA_ARG: return "e_extra_arg";
	case COMMAND_ERR_BAD_GAME: return "e_bad_game";
	case COMMAND_ERR_BAD_PLY: return "e_bad_ply";
	case COMMAND_ERR_BAD_MOVE: return "e_bad_move";
	case COMMAND_ERR_BAD_NAME: return "e_bad_name";
	case COMMAND_ERR_UNKNOWN_OPTION: return "e_unknown_option";
	case COMMAND_ERR_BAD_OPTION: return "e_bad_option";
	case COMMAND_ERR_DUPLICATE_OPTION: return "e_duplicate_option";
	case COMMAND_ERR_BAD_DRAW: return "e_bad_draw";
	case COMMAND_ERR_NO_GAME: return "e_no_game";
	case COMMAND_ERR_TOO_MANY: return "e_too_many";
	case COMMAND_ERR_THREAD_UNCONFIRMED: return "e_thread_unconfirmed";
	case COMMAND_ERR_BAD_CODE: return "e_bad_code";
	case COMMAND_ERR_BAD_KEY_ACTION: return "e_bad_key_action";
	}
	return "e_unknown";
}

/* A command from a player whose address is not confirmed yet. */
static int refuse_pending(struct handle *h)
{
	struct store_claim claim;
	const char *error;
	int r;

	server_refuse(h, "not_confirmed");
	r = store_claim_get(h->srv->store, h->me->id, &claim, &error);
	if (r < 0)
		return server_store_fail(h, error);
	if (r == 1)
		template_ctx_set(h->refusal, "address", claim.address);
	store_claim_clear(&claim);
	return REFUSED;
}

static int run_command(struct handle *h, const struct command *c,
		       struct template_ctx *out)
{
	if (c->kind == COMMAND_INVALID) {
		server_refuse(h, parse_error_code(c->error));
		template_ctx_set(h->refusal, "detail", c->detail);
		return REFUSED;
	}
	/* An unknown sender may only register (or ask for help, or confirm
	 * a claim, in an unsigned club); a player who has not confirmed an
	 * address yet, only that. */
	if (c->kind != COMMAND_REGISTER && c->kind != COMMAND_HELP &&
	    c->kind != COMMAND_CONFIRM) {
		if (h->me == NULL)
			return server_refuse(h, "not_registered");
		if (identity_pending(h->me))
			return refuse_pending(h);
	}
	switch (c->kind) {
	case COMMAND_HELP: return cmd_help(h, out);
	case COMMAND_REGISTER: return identity_register(h, c, out);
	case COMMAND_CONFIRM: return identity_confirm(h, c, out);
	case COMMAND_KEY_REPLACE: return identity_key_replace(h, c, out);
	case COMMAND_CHALLENGE: return cmd_challenge(h, c, out);
	case COMMAND_ACCEPT: return cmd_accept(h, c, out);
	case COMMAND_DECLINE:
	case COMMAND_WITHDRAW: return cmd_decline_withdraw(h, c, out);
	case COMMAND_MOVE: return cmd_move(h, c, out);
	case COMMAND_PREVIEW: return cmd_preview(h, c, out);
	case COMMAND_RESIGN: return cmd_resign(h, c, out);
	case COMMAND_DRAW: return cmd_draw(h, c, out);
	case COMMAND_BOARD:
	case COMMAND_MOVES:
	case COMMAND_HISTORY: return cmd_view(h, c, out);
	case COMMAND_GAMES: return cmd_games(h, out);
	case COMMAND_OBSERVE:
	case COMMAND_UNOBSERVE: return cmd_observe(h, c, out);
	case COMMAND_INVALID: break;
	}
	return server_refuse(h, "e_unknown");
}

/* --- one message ------------------------------------------------------- */

static int identify(struct handle *h)
{
	const struct server_inbound *msg = h->msg;
	const char *error;
	int ret = 0;

	if (msg->fingerprint != NULL)
		ret = store_player_by_fingerprint(h->srv->store,
						  msg->fingerprint, &h->me,
						  &error);
	else if (msg->weak_identity && msg->mail_refusal == NULL &&
		 server_address_usable(msg->from_address))
		/* Only where the operator chose to trust From (unsigned
		 * clubs): a refused mail's From is nobody's word. */
		ret = store_player_by_address(h->srv->store, msg->from_address,
					      &h->me, &error);
	return ret < 0 ? server_store_fail(h, error) : 0;
}

/* The reply to the sender: every command's result in order, the refusal
 * if one stopped the rest.  Goes to the registered address (From only
 * for a sender still unknown after the commands). */
int server_queue_reply(struct handle *h, const char *kind)
{
	const struct server_inbound *msg = h->msg;
	struct buf body = BUF_INIT, subject = BUF_INIT;
	struct game g = { 0 };
	bool have_game = false;
	char *to = NULL;
	int ret;

	/* A player is answered where their mail goes (a confirmed address,
	 * else the one they claim); a stranger at From, if it is usable. */
	if (h->me != NULL) {
		if (server_reply_address(h, h->me, &to) < 0)
			return -1;
	} else if (server_address_usable(msg->from_address)) {
		to = strdup(msg->from_address);
		if (to == NULL)
			return server_store_fail(h, "out of memory");
	}
	/* A refused mail says why it was refused, not that it was weak. */
	template_ctx_set_bool(h->reply, "weak", (msg->weak_identity ||
						 msg->fingerprint == NULL) &&
			      h->mail_refusal == NULL);
	template_ctx_set_bool(h->reply, "unsigned_text_ignored",
			      msg->unsigned_text_ignored);
	if (h->me != NULL)
		template_ctx_set(h->reply, "name", h->me->name);
	ret = server_render(h, "mail/reply.txt", h->reply, &body);
	if (ret < 0)
		goto out;
	if (h->first_game != 0) {
		ret = game_load(h, h->first_game, &g, false);
		if (ret < 0)
			goto out;
		have_game = ret == 1;
	}
	if (have_game) {
		ret = game_subject(h, &g, &subject);
	} else {
		char clean[COMMAND_TEXT_MAX];
		command_subject_clean(msg->subject, clean, sizeof(clean));
		ret = server_render(h, "mail/subject-reply.txt", h->reply, &subject);
		while (subject.len > 0 && subject.data[subject.len - 1] == '\n')
			subject.data[--subject.len] = '\0';
		if (clean[0] != '\0' && ret == 0) {
			buf_reset(&subject);
			buf_printf(&subject, "Re: %s", clean);
		}
	}
	if (ret < 0)
		goto out;
	{
		struct buf refs = BUF_INIT;
		if (msg->references != NULL)
			buf_puts(&refs, msg->references);
		ret = server_queue_mail(h, to, have_game ? &g : NULL, kind,
				 buf_str(&subject), h->message_id,
				 buf_str(&refs), buf_str(&body), true);
		buf_free(&refs);
	}
out:
	if (have_game)
		game_free(&g);
	else
		store_game_free(&g.row);
	buf_free(&body);
	buf_free(&subject);
	free(to);
	return ret;
}

static int run_commands(struct handle *h, struct server_outcome *out)
{
	const struct server_inbound *msg = h->msg;
	struct command_list list;
	int64_t thread;
	int ret = 0;

	/* The headers say which game's thread this is; only the signed text
	 * can confirm it (a header can be changed on the way). */
	thread = command_thread_game(msg->subject, msg->references,
				     h->srv->domain);
	if (thread > 0 &&
	    !command_thread_confirmed(msg->body, msg->body != NULL ?
				      msg->body_len : 0, thread))
		thread = -1;
	command_parse_mail(msg->subject, msg->body != NULL ? msg->body : "",
			   msg->body != NULL ? msg->body_len : 0, thread,
			   &list);
	template_ctx_set_bool(h->reply, "skipped_quoted", list.skipped_quoted);
	template_ctx_set_bool(h->reply, "subject_ignored", list.subject_ignored);
	template_ctx_list(h->reply, "results");
	if (list.count == 0) {
		out->status = SERVER_NO_COMMANDS;
		template_ctx_set_bool(h->reply, "no_commands", true);
		snprintf(out->outcome, sizeof(out->outcome), "no commands");
	}
	for (size_t i = 0; i < list.count; i++) {
		const struct command *c = &list.items[i];
		struct template_ctx *item = template_ctx_add(h->reply,
							     "results");
		template_ctx_set(item, "text", c->text);
		template_ctx_set_int(item, "line", c->line);
		template_ctx_set_bool(item, "from_subject", c->line == 0);
		if (h->srv->cfg.max_commands > 0 &&
		    i >= h->srv->cfg.max_commands) {
			server_refuse(h, "e_too_many");
			ret = REFUSED;
		} else {
			ret = run_command(h, c, item);
		}
		if (ret < 0)
			break;
		if (ret == REFUSED) {
			template_ctx_set(h->refusal, "text", c->text);
			template_ctx_set_int(h->refusal, "line", c->line);
			ret = server_render_into(h, "mail/refusal.txt", h->refusal,
					  item, "refusal");
			if (ret < 0)
				break;
			template_ctx_set_bool(item, "refused", true);
			template_ctx_set_bool(h->reply, "not_run",
					      i + 1 < list.count ||
					      list.stopped_early);
			out->status = SERVER_REFUSED;
			out->failed_line = c->line;
			snprintf(out->outcome, sizeof(out->outcome),
				 "refused: line %d: %s (%s)", c->line,
				 template_ctx_get(h->refusal, "code"), c->text);
			break;
		}
		out->commands_run++;
	}
	command_list_free(&list);
	if (ret < 0)
		return -1;
	if (out->status == SERVER_OK)
		snprintf(out->outcome, sizeof(out->outcome), "ok: %zu command%s",
			 out->commands_run, out->commands_run == 1 ? "" : "s");
	return server_queue_reply(h, "reply");
}

static int handle_in_transaction(struct handle *h, struct server_outcome *out)
{
	const struct server_inbound *msg = h->msg;
	struct store *st = h->srv->store;
	struct store_inbound in;
	const char *error;
	int64_t seen_id;
	int ret;

	if (msg->message_id != NULL && msg->message_id[0] != '\0')
		h->message_id = server_bare_id(msg->message_id, h->msgid,
					       sizeof(h->msgid));
	ret = store_inbound_seen(st, msg->raw_sha256, &seen_id, &error);
	if (ret < 0)
		return server_store_fail(h, error);
	if (ret == 1) {
		out->status = SERVER_DUPLICATE;
		out->inbound_id = seen_id;
		snprintf(out->outcome, sizeof(out->outcome), "duplicate");
		return 0;
	}
	if (identify(h) < 0)
		return -1;
	memset(&in, 0, sizeof(in));
	in.message_id = (char *)h->message_id;
	in.sha256 = (char *)msg->raw_sha256;
	in.raw = (char *)msg->raw;
	in.raw_len = msg->raw_len;
	in.raw_truncated = msg->raw_truncated;
	in.received = h->now;
	in.source = (char *)msg->source;
	in.sender_address = (char *)msg->from_address;
	in.sender_fingerprint = (char *)msg->fingerprint;
	in.player_id = h->me != NULL ? h->me->id : 0;
	in.outcome = "handling";
	ret = store_inbound_record(st, &in, &h->inbound_id, &error);
	if (ret < 0)
		return server_store_fail(h, error);
	if (ret == 1) {
		/* seen() said no, record() says yes: another process got it
		 * between; it is a duplicate all the same. */
		out->status = SERVER_DUPLICATE;
		snprintf(out->outcome, sizeof(out->outcome), "duplicate");
		return 0;
	}
	out->inbound_id = h->inbound_id;

	ret = intake_decide(h, out);
	if (ret < 0)
		return -1;
	if (ret == 1)
		goto record;
	if (msg->signed_sha256 != NULL && msg->fingerprint != NULL) {
		ret = store_signature_record(st, msg->fingerprint,
					     msg->signature_time,
					     msg->signed_sha256, h->inbound_id,
					     h->now, &error);
		if (ret < 0)
			return server_store_fail(h, error);
		if (ret == 1) {
			out->status = SERVER_REPLAY;
			snprintf(out->outcome, sizeof(out->outcome),
				 "replay: signed text used before");
			template_ctx_set_bool(h->reply, "replay", true);
			if (server_queue_reply(h, "reply") < 0)
				return -1;
			goto record;
		}
	}
	if (run_commands(h, out) < 0)
		return -1;
record:
	out->player_id = h->me != NULL ? h->me->id : 0;
	if (store_inbound_set_outcome(st, h->inbound_id, out->outcome,
				      &error) < 0)
		return server_store_fail(h, error);
	return 0;
}

/* One message inside the open transaction.  0 handled (out filled), -1
 * with *error_r (the caller rolls back); *mail_fault_r tells a failure
 * that is the mail's own (a value the store's rules refuse) from one of
 * the machinery (busy, I/O, a template missing). */
static int handle_one(struct server *server, const struct server_inbound *msg,
		      int64_t now, struct server_outcome *out,
		      bool *mail_fault_r, const char **error_r)
{
	struct handle h;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	out->failed_line = -1;
	*mail_fault_r = false;
	if (msg->raw_sha256 == NULL) {
		*error_r = "server: message without a sha256";
		return -1;
	}
	memset(&h, 0, sizeof(h));
	h.srv = server;
	h.msg = msg;
	h.now = now;
	h.reply = template_ctx_new();
	if (handle_in_transaction(&h, out) < 0) {
		/* Keep the text: the store's strings die at rollback. */
		snprintf(server->errbuf, sizeof(server->errbuf), "%s",
			 h.error != NULL ? h.error : "failure");
		*error_r = server->errbuf;
		*mail_fault_r = h.error != NULL &&
			store_error_kind(server->store) == STORE_ERROR_USAGE;
		ret = -1;
	} else {
		out->queued = h.queued;
	}
	store_player_free(&h.me);
	template_ctx_free(&h.reply);
	template_ctx_free(&h.refusal);
	return ret;
}

/* A mail whose own data broke a rule of the store (after its effects were
 * rolled back to its savepoint): record it as failed, with why, so it is
 * neither retried for ever nor holding up the mails behind it. */
static int record_failed(struct server *server,
			 const struct server_inbound *msg, int64_t now,
			 const char *why, struct server_outcome *out)
{
	struct store_inbound in;
	const char *error;
	char outcome[sizeof(out->outcome)];

	snprintf(outcome, sizeof(outcome), "failed: %s", why);
	memset(out, 0, sizeof(*out));
	out->failed_line = -1;
	out->status = SERVER_FAILED;
	snprintf(out->outcome, sizeof(out->outcome), "%s", outcome);
	memset(&in, 0, sizeof(in));
	in.sha256 = (char *)msg->raw_sha256;
	in.raw = (char *)msg->raw;
	in.raw_len = msg->raw_len;
	in.raw_truncated = msg->raw_truncated;
	in.received = now;
	in.source = (char *)msg->source;
	in.outcome = outcome;
	return store_inbound_record(server->store, &in, &out->inbound_id,
				    &error) < 0 ? -1 : 0;
}

int server_handle_batch(struct server *server,
			const struct server_inbound *msgs, size_t count,
			int64_t now, struct server_outcome *outs,
			const char **error_r)
{
	const char *error;
	size_t i;

	for (i = 0; i < count; i++) {
		memset(&outs[i], 0, sizeof(outs[i]));
		outs[i].failed_line = -1;
	}
	if (store_begin(server->store, &error) < 0) {
		*error_r = error;
		return -1;
	}
	for (i = 0; i < count; i++) {
		bool mail_fault = false;
		int r;

		if (store_savepoint(server->store, error_r) < 0)
			break;
		r = handle_one(server, &msgs[i], now, &outs[i], &mail_fault,
			       error_r);
		if (store_savepoint_end(server->store, r == 0, &error) < 0 &&
		    r == 0) {
			*error_r = error;
			break;
		}
		if (r == 0)
			continue;
		/* One mail's own fault costs only that mail. */
		if (!mail_fault || record_failed(server, &msgs[i], now, *error_r,
						 &outs[i]) < 0)
			break;
	}
	if (i == count && store_commit(server->store, &error) == 0)
		return 0;
	if (i == count) {
		snprintf(server->errbuf, sizeof(server->errbuf), "%s", error);
		*error_r = server->errbuf;
	}
	/* Nothing of the batch stays: no outcome claims a queued mail. */
	store_rollback(server->store);
	for (i = 0; i < count; i++) {
		outs[i].queued = 0;
		outs[i].inbound_id = 0;
	}
	return -1;
}

int server_handle(struct server *server, const struct server_inbound *msg,
		  int64_t now, struct server_outcome *out,
		  const char **error_r)
{
	return server_handle_batch(server, msg, 1, now, out, error_r);
}

int server_key_bound(struct server *server, const char *fpr,
		     const char **error_r)
{
	struct store_player *p = NULL;
	int r = store_player_by_fingerprint(server->store, fpr, &p, error_r);

	store_player_free(&p);
	return r;
}

int server_help_text(struct server *server, struct buf *out,
		     const char **error_r)
{
	struct template_ctx *ctx = template_ctx_new();
	int ret = template_render(server->cfg.templates, "mail/help.txt", ctx,
				  out, error_r);
	template_ctx_free(&ctx);
	return ret;
}

/* Load and replay a game for a caller outside any message (the admin
 * command, mail-out's picture).  0, or -1 with *error_r in errbuf. */
/* An operator reads times as UTC dates, not seconds. */
static void set_time(struct template_ctx *ctx, const char *key, int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;
	char text[32];

	gmtime_r(&tt, &tm);
	strftime(text, sizeof(text), "%Y-%m-%d %H:%M:%S UTC", &tm);
	template_ctx_set(ctx, key, text);
}

static int game_load_outside(struct server *server, struct handle *h,
			     int64_t game_id, struct game *g,
			     const char **error_r)
{
	int ret;

	memset(h, 0, sizeof(*h));
	h->srv = server;
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

int server_game_show(struct server *server, int64_t game_id,
		     struct buf *out, const char **error_r)
{
	struct handle h;
	struct game g;
	struct store_move *moves = NULL;
	size_t n = 0;
	const char *error;
	int ret;

	if (game_load_outside(server, &h, game_id, &g, error_r) < 0)
		return -1;
	h.reply = template_ctx_new();
	game_ctx(&h, &g, h.reply);
	set_time(h.reply, "created", g.row->created);
	set_time(h.reply, "updated", g.row->updated);
	if (store_game_move_records(server->store, game_id, &moves, &n,
				    &error) < 0) {
		ret = server_store_fail(&h, error);
		goto out;
	}
	template_ctx_list(h.reply, "plies");
	template_ctx_set_bool(h.reply, "any_plies", n > 0);
	for (size_t i = 0; i < n; i++) {
		struct template_ctx *it = template_ctx_add(h.reply, "plies");
		char name[COMMAND_NAME_MAX + 1];
		template_ctx_set_int(it, "ply", moves[i].ply);
		template_ctx_set(it, "move", moves[i].text);
		set_time(it, "played_at", moves[i].played_at);
		template_ctx_setf(it, "inbound", "%" PRId64,
				  moves[i].inbound_id);
		if ((ret = player_name(&h, moves[i].player_id, name)) < 0)
			goto out;
		template_ctx_set(it, "player", name[0] ? name : "(forced)");
	}
	ret = server_render(&h, "admin-game.txt", h.reply, out);
out:
	if (ret < 0) {
		snprintf(server->errbuf, sizeof(server->errbuf), "%s", h.error);
		*error_r = server->errbuf;
	}
	store_moves_free(&moves, n);
	template_ctx_free(&h.reply);
	game_free(&g);
	return ret < 0 ? -1 : 0;
}

int server_board_svg(struct server *server, int64_t game_id, int ply,
		     struct buf *out, const char **error_r)
{
	struct handle h;
	struct game g;
	struct core_position pos;
	const struct core_move *last = NULL;
	enum core_error err;

	if (game_load_outside(server, &h, game_id, &g, error_r) < 0)
		return -1;
	if (ply < 0 || (size_t)ply > g.rec.nplies) {
		snprintf(server->errbuf, sizeof(server->errbuf),
			 "game %" PRId64 " has no ply %d", game_id, ply);
		*error_r = server->errbuf;
		game_free(&g);
		return -1;
	}
	/* Replay to that ply: the mail shows the board it was written for,
	 * even if it is sent after later moves. */
	if (core_position_init(&pos, &g.rec.variant, &err) < 0) {
		game_free(&g);
		*error_r = core_error_string(err);
		return -1;
	}
	for (size_t i = 0; i < (size_t)ply; i++) {
		if (g.rec.plies[i].kind == CORE_MOVE_PASS)
			continue; /* played by the move before it */
		core_play_unchecked(&pos, &g.rec.plies[i], NULL);
		last = &g.rec.plies[i];
		/* Forced passes came with that move. */
		while (pos.ply > (int)i + 1 && (int)i + 1 < ply)
			i++;
	}
	render_board_svg(&pos, last, out);
	game_free(&g);
	return 0;
}

/* Every template the service renders (partials are checked through
 * these).  move-words.txt is render's, used for the last moves. */
static const char *const server_templates[] = {
	"mail/challenge-closed.txt",
	"mail/challenge.txt",
	"mail/cmd-accept.txt",
	"mail/cmd-board.txt",
	"mail/cmd-challenge.txt",
	"mail/cmd-confirm.txt",
	"mail/cmd-decline.txt",
	"mail/cmd-draw.txt",
	"mail/cmd-games.txt",
	"mail/cmd-history.txt",
	"mail/cmd-key.txt",
	"mail/cmd-move.txt",
	"mail/cmd-moves.txt",
	"mail/cmd-observe.txt",
	"mail/cmd-preview.txt",
	"mail/cmd-register.txt",
	"mail/cmd-resign.txt",
	"mail/draw.txt",
	"mail/help.txt",
	"mail/key-revoked.txt",
	"mail/mail-refused.txt",
	"mail/observer.txt",
	"mail/refusal.txt",
	"mail/reply.txt",
	"mail/result.txt",
	"mail/subject-game.txt",
	"mail/subject-reply.txt",
	"mail/your-move.txt",
	"move-words.txt",
	NULL,
};

int server_check_templates(struct server *server, const char **error_r)
{
	for (const char *const *n = server_templates; *n != NULL; n++)
		if (template_check(server->cfg.templates, *n, error_r) < 0)
			return -1;
	return 0;
}
