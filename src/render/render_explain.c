/* render_explain.c -- why the rules refuse a move, in words: the variables
 * of a core_check_info for templates, and the two texts a refusal shows,
 * the short rule (templates/rule.txt) and the sentence naming cells and
 * numbers (templates/explain.txt).  The core gives codes and numbers only;
 * every word is in those templates, so an operator can reword them.
 */
#include <stdio.h>
#include <string.h>

#include "core/notation.h"
#include "render/render.h"

/* Set name to n, and name_one when n is one either way (1 or -1): what
 * the templates choose "piece" or "pieces" by. */
static void render_set_count(struct template_ctx *ctx, const char *name,
			     int64_t n)
{
	char one[32];

	template_ctx_set_int(ctx, name, n);
	snprintf(one, sizeof(one), "%s_one", name);
	template_ctx_set_bool(ctx, one, n == 1 || n == -1);
}

/* Set the flag `prefix` + `word` (a section name such as error_same_cell). */
static void render_flag(struct template_ctx *ctx, const char *prefix,
			const char *word)
{
	char key[64];

	snprintf(key, sizeof(key), "%s%s", prefix, word);
	template_ctx_set_bool(ctx, key, true);
}

/* What rule.txt needs: the flag of the error's section and the numbers
 * its words may name. */
static void render_rule_ctx(enum core_error err, struct template_ctx *ctx)
{
	template_ctx_set(ctx, "error", core_error_name(err));
	render_flag(ctx, "error_", core_error_name(err));
	template_ctx_set_int(ctx, "min_size", CORE_MIN_SIZE);
	template_ctx_set_int(ctx, "max_size", CORE_MAX_SIZE);
}

void render_check_ctx(const struct core_geom *g,
		      const struct core_check_info *info,
		      struct template_ctx *ctx)
{
	char text[CORE_MOVE_TEXT_MAX], column[2];
	struct core_move whole;
	enum core_color other = info->mover == CORE_WHITE ? CORE_BLACK :
		CORE_WHITE;

	render_rule_ctx(info->err, ctx);
	template_ctx_set(ctx, "reason", core_reason_name(info->reason));
	render_flag(ctx, "", core_reason_name(info->reason));
	template_ctx_set(ctx, "player", core_color_name(info->mover));
	template_ctx_set(ctx, "opponent", core_color_name(other));
	template_ctx_set_int(ctx, "ply", info->ply);
	template_ctx_set_int(ctx, "tax", info->tax);
	template_ctx_set(ctx, "winner", core_result_name(info->result));
	template_ctx_set(ctx, "loser", core_color_name(info->loser));
	column[0] = (char)('a' + info->board_width - 1);
	column[1] = '\0';
	template_ctx_set(ctx, "last_column", column);
	template_ctx_set_int(ctx, "last_row", info->board_width);
	if (!info->has_move)
		return;
	template_ctx_set(ctx, "move", notation_format_move(g, &info->move,
							   text));
	whole = info->move;
	whole.kind = CORE_MOVE_WHOLE;
	template_ctx_set(ctx, "whole_move", notation_format_move(g, &whole,
								 text));
	template_ctx_set(ctx, "from", g->name[info->move.from]);
	template_ctx_set(ctx, "to", g->name[info->move.to]);
	if (info->blocker >= 0)
		template_ctx_set(ctx, "blocker", g->name[info->blocker]);
	render_set_count(ctx, "part", info->move.part);
	template_ctx_set_bool(ctx, "moving_part",
			      info->move.kind == CORE_MOVE_SPLIT);
	template_ctx_set_int(ctx, "from_size", info->from_size);
	template_ctx_set_int(ctx, "to_size", info->to_size);
	template_ctx_set_int(ctx, "moving", info->moving);
	template_ctx_set_int(ctx, "from_dist", info->from_dist);
	template_ctx_set_int(ctx, "to_dist", info->to_dist);
	render_set_count(ctx, "gain", info->gain);
	template_ctx_set_int(ctx, "inward", info->inward);
	/* "1 step" only for exactly one; -1 never happens with this err. */
	template_ctx_set_bool(ctx, "inward_one", info->inward == 1);
	render_set_count(ctx, "loss", info->loss);
	/* int64: long may be 32 bits. */
	template_ctx_setf(ctx, "arrive", "%lld", (long long)info->arrive);
}

/* Render `name` with ctx into out as one line: the template's lines end
 * in newlines, the text is one phrase. */
static int render_line(struct template_set *set, const char *name,
		       const struct template_ctx *ctx, struct buf *out,
		       const char **error_r)
{
	size_t start = out->len;

	if (template_render(set, name, ctx, out, error_r) < 0)
		return -1;
	while (out->len > start && out->data[out->len - 1] == '\n')
		out->data[--out->len] = '\0';
	return 0;
}

int render_rule(struct template_set *set, enum core_error err,
		struct buf *out, const char **error_r)
{
	struct template_ctx *ctx = template_ctx_new();
	int rc;

	render_rule_ctx(err, ctx);
	rc = render_line(set, "rule.txt", ctx, out, error_r);
	template_ctx_free(&ctx);
	return rc;
}

int render_explain(struct template_set *set, const struct core_position *pos,
		   const struct core_move *move, enum core_error err,
		   struct buf *out, const char **error_r)
{
	struct template_ctx *ctx = template_ctx_new();
	struct core_check_info info;
	int rc;

	core_check_info(pos, move, err, &info);
	render_check_ctx(pos->geom, &info, ctx);
	rc = render_line(set, "explain.txt", ctx, out, error_r);
	template_ctx_free(&ctx);
	return rc;
}

int render_move_refusal(struct template_set *set,
			const struct core_position *pos,
			const struct core_move *move, enum core_error err,
			struct template_ctx *ctx, const char **error_r)
{
	struct buf text = BUF_INIT;
	int rc = -1;

	if (render_rule(set, err, &text, error_r) < 0)
		goto out;
	template_ctx_set(ctx, "rule", buf_str(&text));
	if (move != NULL) {
		buf_reset(&text);
		if (render_explain(set, pos, move, err, &text, error_r) < 0)
			goto out;
		template_ctx_set(ctx, "explain", buf_str(&text));
	}
	rc = 0;
out:
	buf_free(&text);
	return rc;
}
