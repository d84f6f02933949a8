/* conditional.c -- conditional moves: `conditional GAME THEIRS MINE
 * [THEIRS MINE]...` while the opponent is to move, `conditional GAME` to
 * see them, `conditional GAME cancel`; and the reply played from them,
 * in the transaction of the opponent's move (play.c).
 *
 * The lines of one mail for one game make a tree, stored with the mail
 * that set it (sql/013, store/store_conditional.h); the first such line
 * of a later mail replaces the tree.  Each move of a line is played
 * through the rules on receipt, from the position the tree starts at:
 * a line the rules refuse, or that gives another reply than a line
 * before it after the same moves of the opponent, or one too many, is
 * not stored and says why in the reply, and the other lines of the mail
 * stand (the command itself succeeds: a refusal would stop the lines
 * after it).  The bounds: COMMAND_COND_DEPTH move pairs a line (the
 * reader's), CONDITIONAL_LINES lines a tree.
 *
 * When the opponent's move is one a line holds, the reply is played at
 * once, at the receipt of the opponent's mail (its clock charged
 * nothing), stored as the tree mail's ply (moves.inbound_id: that mail
 * signed it) and as a conditional ply (its record line says cond=, the
 * tree's base ply, game_record.c), and the tree moves down a level; a
 * move it does not hold clears it, and the player's "your move" says
 * so.  Nothing about a tree reaches the opponent before a reply is
 * played from it: no notice is sent when it is set, and only the
 * sender's own commands show it. */
#include "server/server_private.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/notation.h"
#include "render/render.h"
#include "store/store_conditional.h"

/* The most lines a tree holds. */
#define CONDITIONAL_LINES 16

/* A stored line's moves, split. */
struct cond_words {
	char w[COMMAND_COND_MOVES][COMMAND_MOVE_MAX];
	size_t n;
};

static void cond_split(const char *moves, struct cond_words *cw)
{
	const char *p = moves;

	cw->n = 0;
	while (*p != '\0' && cw->n < COMMAND_COND_MOVES) {
		size_t k = strcspn(p, " ");
		snprintf(cw->w[cw->n++], COMMAND_MOVE_MAX, "%.*s", (int)k, p);
		p += k;
		while (*p == ' ')
			p++;
	}
}

/* The name of the sender's opponent in g. */
static const char *cond_other(const struct handle *h, const struct game *g)
{
	return game_my_color(h, g) == CORE_WHITE ? g->black : g->white;
}

/* The pairs of cw from index `from` on as the list "pairs" of item:
 * theirs, mine, their plies, and `then` after the first. */
static void cond_pairs_ctx(const struct cond_words *cw, size_t from,
			   int first_ply, struct template_ctx *item)
{
	template_ctx_list(item, "pairs");
	for (size_t i = from; i + 1 < cw->n; i += 2) {
		struct template_ctx *p = template_ctx_add(item, "pairs");

		template_ctx_set(p, "theirs", cw->w[i]);
		template_ctx_set(p, "mine", cw->w[i + 1]);
		template_ctx_set_int(p, "theirs_ply",
				     first_ply + (long)(i - from));
		template_ctx_set_int(p, "mine_ply",
				     first_ply + (long)(i - from) + 1);
		template_ctx_set_bool(p, "then", i > from);
	}
}

/* A line not stored: the reason (a section of mail/refusal.txt, worded
 * with h->refusal's values) into out's "refusal", and the command goes
 * on.  0 or -1. */
static int cond_not_stored(struct handle *h, struct template_ctx *out)
{
	template_ctx_set_bool(out, "cond_refused", true);
	return server_render_into(h, "mail/refusal.txt", h->refusal, out,
				  "refusal");
}

/* Move `text` of a line, the ply after pos, is refused by the rules
 * (m: the move read, or NULL): REFUSED, or -1. */
static int cond_illegal(struct handle *h, const struct game *g,
			const struct core_position *pos,
			const struct core_move *m, enum core_error err,
			const char *text)
{
	game_refuse(h, "cond_illegal", g->row->id);
	template_ctx_set_int(h->refusal, "cond_ply", pos->ply + 1);
	template_ctx_set(h->refusal, "move", text);
	return game_refuse_rule(h, pos, m, err);
}

/* Play the line's moves from pos, each checked by the rules in its own
 * position, their canonical text into cw.  0 good; REFUSED with
 * h->refusal saying which ply and why; -1. */
static int cond_check_line(struct handle *h, const struct game *g,
			   const struct command *c, struct cond_words *cw)
{
	struct core_position pos = g->rec.pos, after;

	cw->n = 0;
	for (size_t k = 0; k < c->ncond; k++) {
		int ply = pos.ply + 1;
		struct core_move m;
		enum core_error err;

		if (pos.result != CORE_ONGOING) {
			game_refuse(h, "cond_game_over", g->row->id);
			template_ctx_set_int(h->refusal, "cond_ply", ply - 1);
			return REFUSED;
		}
		if (notation_parse_move(&pos, c->cond[k], strlen(c->cond[k]),
					&m, &err) < 0)
			return cond_illegal(h, g, &pos, NULL, err, c->cond[k]);
		/* The seats change hands with the swap: a tree is of one
		 * seat. */
		if (m.kind == CORE_MOVE_SWAP) {
			game_refuse(h, "cond_swap", g->row->id);
			template_ctx_set_int(h->refusal, "cond_ply", ply);
			return REFUSED;
		}
		after = pos;
		if (core_play(&after, &m, NULL, &err) < 0)
			return cond_illegal(h, g, &pos, &m, err, c->cond[k]);
		notation_format_move(pos.geom, &m, cw->w[cw->n++]);
		pos = after;
		/* A forced pass: the line's turns no longer alternate. */
		if (pos.ply != ply && k + 1 < c->ncond) {
			game_refuse(h, "cond_pass", g->row->id);
			template_ctx_set_int(h->refusal, "cond_ply", ply);
			return REFUSED;
		}
	}
	return 0;
}

/* Does line cw agree with the tree's lines: where the opponent's moves
 * are the same, the same reply?  0 yes; REFUSED naming the line it
 * disagrees with. */
static int cond_agrees(struct handle *h, const struct game *g,
		       const struct store_cond_tree *t,
		       const struct cond_words *cw)
{
	for (size_t l = 0; l < t->nlines; l++) {
		struct cond_words o;

		cond_split(t->lines[l].moves, &o);
		for (size_t i = 0; i + 1 < cw->n && i + 1 < o.n; i += 2) {
			if (strcmp(o.w[i], cw->w[i]) != 0)
				break;
			if (strcmp(o.w[i + 1], cw->w[i + 1]) == 0)
				continue;
			game_refuse(h, "cond_disagree", g->row->id);
			template_ctx_set_int(h->refusal, "cond_ply",
					     t->base_ply + (long)i + 2);
			template_ctx_set_int(h->refusal, "cond_line",
					     t->lines[l].seq);
			template_ctx_set(h->refusal, "theirs", cw->w[i]);
			template_ctx_set(h->refusal, "mine", cw->w[i + 1]);
			template_ctx_set(h->refusal, "other_mine", o.w[i + 1]);
			return REFUSED;
		}
	}
	return 0;
}

/* The tree this mail's lines go into: the one it began, else a new one
 * replacing what the sender had (*replaced_r).  0 or -1. */
static int cond_tree_of_mail(struct handle *h, const struct game *g,
			     struct store_cond_tree *t, bool *replaced_r)
{
	const char *error;
	int r;

	*replaced_r = false;
	r = store_cond_tree_get(h->srv->store, g->row->id, h->me->id, t,
				&error);
	if (r < 0)
		return server_store_fail(h, error);
	if (r == 1 && t->inbound_id == h->inbound_id)
		return 0;
	*replaced_r = r == 1 && t->nlines > 0;
	store_cond_tree_clear(t);
	t->game_id = g->row->id;
	t->player_id = h->me->id;
	t->inbound_id = h->inbound_id;
	t->received = h->received;
	t->base_ply = (int)g->rec.nplies;
	if (store_signature_by_inbound(h->srv->store, h->inbound_id,
				       t->sha256, &error) < 0 ||
	    store_cond_tree_set(h->srv->store, t, &error) < 0)
		return server_store_fail(h, error);
	return 0;
}

/* conditional GAME THEIRS MINE ... */
static int cond_set(struct handle *h, const struct command *c,
		    struct game *g, struct template_ctx *out)
{
	struct store_cond_tree t;
	struct cond_words cw;
	const char *error;
	bool replaced;
	int ret;

	memset(&t, 0, sizeof(t));
	if ((ret = cond_tree_of_mail(h, g, &t, &replaced)) < 0)
		return -1;
	template_ctx_set_bool(out, "cond_replaced", replaced);
	template_ctx_set_int(out, "cond_from", t.base_ply + 1);
	ret = cond_check_line(h, g, c, &cw);
	if (ret == 0 && t.nlines >= CONDITIONAL_LINES) {
		game_refuse(h, "cond_too_many", g->row->id);
		template_ctx_set_int(h->refusal, "max", CONDITIONAL_LINES);
		ret = REFUSED;
	}
	if (ret == 0)
		ret = cond_agrees(h, g, &t, &cw);
	if (ret == REFUSED) {
		store_cond_tree_clear(&t);
		return cond_not_stored(h, out);
	}
	if (ret == 0) {
		char moves[COMMAND_COND_MOVES * (CORE_MOVE_TEXT_MAX + 1)];
		size_t n = 0;

		for (size_t i = 0; i < cw.n; i++)
			n += (size_t)snprintf(moves + n, sizeof(moves) - n,
					      "%s%s", i > 0 ? " " : "",
					      cw.w[i]);
		if (store_cond_line_add(h->srv->store, g->row->id, h->me->id,
					moves, &error) < 0)
			ret = server_store_fail(h, error);
	}
	if (ret == 0) {
		template_ctx_set_bool(out, "cond_stored", true);
		template_ctx_set_int(out, "cond_seq", (long)t.nlines + 1);
		cond_pairs_ctx(&cw, 0, t.base_ply + 1, out);
	}
	store_cond_tree_clear(&t);
	return ret;
}

/* The sender's tree of g, as it stands, as the list "cond_lines" (each
 * with its pairs from where the tree stands) and cond_at, the ply it
 * answers.  1 there is one, 0 none, -1. */
static int cond_tree_ctx(struct handle *h, const struct game *g,
			 int64_t player, struct template_ctx *out)
{
	struct store_cond_tree t;
	const char *error;
	int r;

	r = store_cond_tree_get(h->srv->store, g->row->id, player, &t,
				&error);
	if (r < 0)
		return server_store_fail(h, error);
	if (r == 0 || t.nlines == 0 || g->row->status != STORE_GAME_ACTIVE) {
		store_cond_tree_clear(&t);
		return 0;
	}
	template_ctx_list(out, "cond_lines");
	for (size_t i = 0; i < t.nlines; i++) {
		struct template_ctx *it = template_ctx_add(out, "cond_lines");
		struct cond_words cw;
		size_t from = 2 * (size_t)t.played;

		cond_split(t.lines[i].moves, &cw);
		template_ctx_set_int(it, "seq", (long)i + 1);
		cond_pairs_ctx(&cw, from, t.base_ply + (int)from + 1, it);
	}
	template_ctx_set_int(out, "cond_at", t.base_ply + 2 * t.played + 1);
	template_ctx_set_int(out, "cond_count", (long)t.nlines);
	server_set_utc(out, "cond_received", t.received, false);
	store_cond_tree_clear(&t);
	return 1;
}

int conditional_run(struct handle *h, const struct command *c,
		    struct game *g, struct template_ctx *out)
{
	const char *error;
	int r;

	game_ctx(h, g, out);
	template_ctx_set(out, "other", cond_other(h, g));
	template_ctx_set_int(out, "cond_max_lines", CONDITIONAL_LINES);
	template_ctx_set_int(out, "cond_max_pairs", COMMAND_COND_DEPTH);
	switch (c->cond_action) {
	case COMMAND_COND_SHOW:
		template_ctx_set_bool(out, "cond_show", true);
		r = cond_tree_ctx(h, g, h->me->id, out);
		if (r >= 0)
			template_ctx_set_bool(out, "cond_any", r == 1);
		return r < 0 ? -1 : 0;
	case COMMAND_COND_CANCEL:
		template_ctx_set_bool(out, "cond_cancel", true);
		r = store_cond_tree_delete(h->srv->store, g->row->id,
					   h->me->id, &error);
		if (r < 0)
			return server_store_fail(h, error);
		template_ctx_set_bool(out, "cond_any", r == 1);
		return 0;
	case COMMAND_COND_SET:
		break;
	}
	/* While the sender waits: on their turn they move. */
	if (game_my_color(h, g) == (int)g->rec.pos.to_move) {
		game_refuse(h, "cond_your_turn", g->row->id);
		template_ctx_set(h->refusal, "other", cond_other(h, g));
		return REFUSED;
	}
	template_ctx_set_bool(out, "cond_set", true);
	return cond_set(h, c, g, out);
}

int conditional_show_ctx(struct handle *h, const struct game *g,
			 int64_t player, struct template_ctx *ctx)
{
	return cond_tree_ctx(h, g, player, ctx) < 0 ? -1 : 0;
}

/* ---- the reply, in the transaction of the opponent's move ---------- */

/* Store the reply the record gained at index `at` (and the forced passes
 * after it) as the tree mail's, and as a conditional ply.  0 or -1. */
static int cond_store_reply(struct handle *h, struct game *g, size_t at,
			    const struct store_cond_tree *t)
{
	char text[CORE_MOVE_TEXT_MAX];
	const char *error;

	for (size_t i = at; i < g->rec.nplies; i++) {
		int r = store_move_append(h->srv->store, g->row->id,
					  (int)i + 1,
					  notation_format_move(
						  g->rec.pos.geom,
						  &g->rec.plies[i], text),
					  i == at ? t->player_id : 0, h->now,
					  i == at ? t->inbound_id :
					  h->inbound_id, &error);
		if (r < 0)
			return server_store_fail(h, error);
		if (r == 1)
			return server_store_fail(h, "a conditional reply "
						 "found its ply taken");
		g->row->ply = (int)i + 1;
	}
	if (store_cond_ply_add(h->srv->store, g->row->id, (int)at + 1,
			       t->base_ply, &error) < 0)
		return server_store_fail(h, error);
	return 0;
}

/* The tree after its reply at level `played`: the lines that go on
 * below the opponent's move `theirs` stay, the others go, and it moves
 * down (or goes, with nothing left).  *left_r: lines left.  0 or -1. */
static int cond_move_down(struct handle *h, const struct store_cond_tree *t,
			  const char *theirs, size_t *left_r)
{
	size_t level = 2 * (size_t)t->played;
	const char *error;

	*left_r = 0;
	for (size_t i = 0; i < t->nlines; i++) {
		struct cond_words cw;

		cond_split(t->lines[i].moves, &cw);
		if (cw.n > level + 2 && strcmp(cw.w[level], theirs) == 0) {
			(*left_r)++;
			continue;
		}
		if (store_cond_line_delete(h->srv->store, t->game_id,
					   t->player_id, t->lines[i].seq,
					   &error) < 0)
			return server_store_fail(h, error);
	}
	if ((*left_r == 0 &&
	     store_cond_tree_delete(h->srv->store, t->game_id, t->player_id,
				    &error) < 0) ||
	    (*left_r > 0 &&
	     store_cond_tree_played(h->srv->store, t->game_id, t->player_id,
				    t->played + 1, &error) < 0))
		return server_store_fail(h, error);
	return 0;
}

/* The reply tree t holds to the move at index `before` of g, into
 * reply: 1, or 0 when it holds none (or stands elsewhere). */
static int cond_find(const struct game *g, const struct store_cond_tree *t,
		     size_t before, char reply[COMMAND_MOVE_MAX])
{
	size_t level = 2 * (size_t)t->played;
	char text[CORE_MOVE_TEXT_MAX];

	if ((size_t)t->base_ply + level != before)
		return 0;
	for (size_t i = 0; i < t->nlines; i++) {
		struct cond_words cw;
		bool same = true;

		cond_split(t->lines[i].moves, &cw);
		if (cw.n < level + 2)
			continue;
		/* The line the game followed up to here, and this move. */
		for (size_t k = 0; k <= level && same; k++)
			same = strcmp(cw.w[k], notation_format_move(
					      g->rec.pos.geom,
					      &g->rec.plies[t->base_ply + k],
					      text)) == 0;
		if (same) {
			snprintf(reply, COMMAND_MOVE_MAX, "%s",
				 cw.w[level + 1]);
			return 1;
		}
	}
	return 0;
}

int conditional_answer(struct handle *h, struct game *g, size_t before,
		       struct conditional_result *res)
{
	struct store_cond_tree t;
	char reply[COMMAND_MOVE_MAX];
	struct core_move m;
	enum core_error err;
	const char *error;
	int64_t owner;
	int r, ret = -1;

	memset(res, 0, sizeof(*res));
	if (g->rec.pos.result != CORE_ONGOING) {
		/* The game is over: no tree of it will apply. */
		if (store_cond_tree_delete(h->srv->store, g->row->id, 0,
					   &error) < 0)
			return server_store_fail(h, error);
		return 0;
	}
	owner = h->me->id == g->row->white_id ? g->row->black_id :
		g->row->white_id;
	if (owner == 0)
		return 0;
	r = store_cond_tree_get(h->srv->store, g->row->id, owner, &t, &error);
	if (r <= 0)
		return r < 0 ? server_store_fail(h, error) : 0;
	res->owner = owner;
	/* The move left the owner to move, one ply on, and a line holds
	 * it: else the tree is done with (a miss; a forced pass of the
	 * owner's misses too, though no mail of theirs says so). */
	if (game_player_of(g, g->rec.pos.to_move) != owner ||
	    g->rec.nplies != before + 1 || !cond_find(g, &t, before, reply) ||
	    notation_parse_move(&g->rec.pos, reply, strlen(reply), &m,
				&err) < 0 ||
	    record_play(&g->rec, &m, &err) < 0) {
		res->missed = t.nlines > 0;
		if (store_cond_tree_delete(h->srv->store, g->row->id, owner,
					   &error) < 0) {
			server_store_fail(h, error);
			goto out;
		}
		ret = 0;
		goto out;
	}
	res->played = true;
	res->ply = (int)before + 2;
	notation_format_move(g->rec.pos.geom, &g->rec.plies[before + 1],
			     res->move);
	/* Charged at the receipt of the opponent's move: no time. */
	if (cond_store_reply(h, g, before + 1, &t) < 0 ||
	    game_clock_after_move(h, g, false) < 0 ||
	    game_record_lines(h, g) < 0)
		goto out;
	if (g->rec.pos.result != CORE_ONGOING) {
		if (store_cond_tree_delete(h->srv->store, g->row->id, 0,
					   &error) < 0) {
			server_store_fail(h, error);
			goto out;
		}
	} else if (cond_move_down(h, &t, notation_format_move(
					  g->rec.pos.geom,
					  &g->rec.plies[before], reply),
				  &res->left) < 0) {
		goto out;
	}
	ret = 0;
out:
	store_cond_tree_clear(&t);
	return ret;
}

int conditional_notice(struct handle *h, struct game *g, size_t before,
		       const struct conditional_result *res)
{
	struct template_ctx *ctx;
	int ret;

	/* An end of the game is told to both by the result. */
	if (!res->played || g->row->status != STORE_GAME_ACTIVE)
		return 0;
	ctx = template_ctx_new();
	game_ctx(h, g, ctx);
	template_ctx_set(ctx, "other", h->me->name);
	template_ctx_set_int(ctx, "cond_ply", res->ply);
	template_ctx_set(ctx, "cond_move", res->move);
	template_ctx_set_bool(ctx, "cond_more", res->left > 0);
	ret = game_last_moves_ctx(h, g, before, ctx);
	if (ret == 0 && res->left > 0)
		ret = conditional_show_ctx(h, g, res->owner, ctx);
	if (ret == 0)
		ret = notice_send(h, g, res->owner, NOTICE_CONDITIONAL, ctx);
	template_ctx_free(&ctx);
	return ret;
}
