/* render.c -- legal-move lists, the variables templates use to describe
 * positions and moves, and the move in words; see render.h.  The board
 * text is in render_text.c, the picture in render_svg.c. */
#include "render/render.h"
#include "util/width.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/notation.h"

/* Cells in reading order: by column, then by row (a1 a2 ... b1 ...). */
struct render_cells {
	const struct core_geom *g;
	int16_t order[CORE_MAX_CELLS];
};

static void render_cells_init(struct render_cells *rc,
			      const struct core_geom *g)
{
	int R = g->radius, x, y, n = 0;

	rc->g = g;
	for (x = -R; x <= R; x++)
		for (y = -R; y <= R; y++)
			if (g->cell_at[x + R][y + R] >= 0)
				rc->order[n++] = g->cell_at[x + R][y + R];
}

/* ------------------------------------------------------ legal moves -- */

/* The legal moves of pos in a new array (caller frees); count in *n_r. */
static struct core_move *render_moves(const struct core_position *pos,
				      size_t *n_r)
{
	size_t cap = core_legal_moves_bound(pos) + 1;
	struct core_move *moves = NULL;
	size_t n;

	for (;;) {
		moves = realloc(moves, cap * sizeof(*moves));
		if (moves == NULL) {
			fputs("ashes: out of memory\n", stderr);
			abort();
		}
		n = core_legal_moves(pos, moves, cap);
		if (n <= cap)
			break;
		cap = n;
	}
	*n_r = n;
	return moves;
}

/* Appends words to lines no wider than RENDER_TEXT_WIDTH display columns
 * (util/width.h: a wide character counts two); continuation
 * lines are indented to line up after the source's label. */
struct render_wrap {
	struct buf *out;
	int col;    /* characters on the current line */
	int indent; /* for continuation lines */
};

static void wrap_start(struct render_wrap *w, struct buf *out,
		       const char *label)
{
	w->out = out;
	buf_puts(out, label);
	w->col = (int)width_text(label);
	w->indent = w->col;
}

/* A word, after `gap` blanks unless it starts a line. */
static void wrap_word(struct render_wrap *w, const char *word, int gap)
{
	int n = (int)width_text(word);

	if (w->col > w->indent && w->col + gap + n > RENDER_TEXT_WIDTH) {
		buf_printf(w->out, "\n%*s", w->indent, "");
		w->col = w->indent;
	} else if (w->col > 0) {
		buf_printf(w->out, "%*s", gap, "");
		w->col += gap;
	}
	buf_puts(w->out, word);
	w->col += n;
}

static void wrap_end(struct render_wrap *w)
{
	buf_putc(w->out, '\n');
}

/* Target names of moves[] in reading order, with "x" on captures, space
 * separated; the group label `label` goes with the first target so a line
 * never ends on a label. */
static void render_targets(struct render_wrap *w, const struct render_cells *rc,
			   const struct core_move *moves, size_t n,
			   const char *label, int gap)
{
	const struct core_geom *g = rc->g;
	bool first = true;
	int i;

	for (i = 0; i < g->ncells; i++) {
		int t = rc->order[i];
		size_t k;

		for (k = 0; k < n; k++) {
			char word[48];

			if (moves[k].to != t)
				continue;
			snprintf(word, sizeof(word), "%s%s%s",
				 first ? label : "", g->name[t],
				 moves[k].capture ? "x" : "");
			wrap_word(w, word, first ? gap : 1);
			first = false;
			break;
		}
	}
}

static int render_cmp_move_target(const void *a, const void *b)
{
	const struct core_move *ma = a, *mb = b;

	if (ma->part != mb->part)
		return ma->part < mb->part ? -1 : 1;
	return ma->to - mb->to;
}

/* Do split parts k1 and k2 reach the same targets (captures alike)? */
static bool render_same_targets(const struct core_move *a, size_t na,
				const struct core_move *b, size_t nb)
{
	size_t i;

	if (na != nb)
		return false;
	for (i = 0; i < na; i++)
		if (a[i].to != b[i].to || a[i].capture != b[i].capture)
			return false;
	return true;
}

/* The moves of one stack (group: its moves sorted by part then target):
 * "c3: d4 e5 f6x  /1: d4 e5  /2-3: d4".  With `broken`, every split
 * group starts a new line under the first target. */
static void render_stack_entry(struct buf *out, const struct render_cells *rc,
			       const struct core_move *group, size_t ng,
			       bool broken)
{
	struct render_wrap w;
	char label[16];
	size_t i = 0;

	/* Continuation lines line up under the first target. */
	snprintf(label, sizeof(label), "%s: ", rc->g->name[group[0].from]);
	wrap_start(&w, out, label);
	if (group[0].kind == CORE_MOVE_WHOLE) {
		while (i < ng && group[i].kind == CORE_MOVE_WHOLE)
			i++;
		render_targets(&w, rc, group, i, "", 0);
	}
	/* Splits: runs of parts with identical targets share a label. */
	while (i < ng) {
		size_t a = i, b, next;
		int32_t k1 = group[i].part, k2 = k1;
		char glabel[40];

		while (i < ng && group[i].part == k1)
			i++;
		b = i;
		for (;;) {
			next = i;
			while (next < ng && group[next].part == group[i].part)
				next++;
			if (i < ng && group[i].part == k2 + 1 &&
			    render_same_targets(group + a, b - a, group + i,
						next - i)) {
				k2 = group[i].part;
				i = next;
			} else {
				break;
			}
		}
		if (k1 == k2)
			snprintf(glabel, sizeof(glabel), "/%ld: ", (long)k1);
		else
			snprintf(glabel, sizeof(glabel), "/%ld-%ld: ",
				 (long)k1, (long)k2);
		if (broken && w.col > w.indent) {
			buf_printf(out, "\n%*s", w.indent, "");
			w.col = w.indent;
		}
		render_targets(&w, rc, group + a, b - a, glabel,
			       w.col > w.indent ? 2 : 0);
	}
	wrap_end(&w);
}

/* A growth entry: "e5 =1: d4 d5 e4  =2: c3 c5" (group: the moves from
 * one empty cell, sorted by target; ring: room for as many). */
static void render_growth_entry(struct buf *out, const struct render_cells *rc,
				const struct core_position *pos,
				const struct core_move *group, size_t ng,
				struct core_move *ring)
{
	const struct core_geom *g = rc->g;
	int from = group[0].from, tax = pos->tax[pos->to_move];
	int size, maxsize = 0;
	struct render_wrap w;
	bool first = true;
	char label[16];
	size_t i;

	/* By target ring, shown as the new stack's size dT - dS - tax,
	 * smallest first. */
	for (i = 0; i < ng; i++) {
		size = g->dist[group[i].to] - g->dist[from] - tax;
		if (size > maxsize)
			maxsize = size;
	}
	snprintf(label, sizeof(label), "%s ", g->name[from]);
	wrap_start(&w, out, label);
	for (size = 1; size <= maxsize; size++) {
		size_t m = 0;
		char glabel[16];

		for (i = 0; i < ng; i++)
			if (g->dist[group[i].to] - g->dist[from] - tax == size)
				ring[m++] = group[i];
		if (m == 0)
			continue;
		snprintf(glabel, sizeof(glabel), "=%d: ", size);
		render_targets(&w, rc, ring, m, glabel, first ? 0 : 2);
		first = false;
	}
	wrap_end(&w);
}

/* A stack's entry on one line if it fits; otherwise each group on its
 * own line(s), so long lists of parts stay readable. */
static void render_stack_entry_fit(struct buf *out,
				   const struct render_cells *rc,
				   const struct core_move *group, size_t ng)
{
	struct buf one = BUF_INIT;

	render_stack_entry(&one, rc, group, ng, false);
	if (strchr(one.data, '\n') == one.data + one.len - 1)
		buf_append(out, one.data, one.len);
	else
		render_stack_entry(out, rc, group, ng, true);
	buf_free(&one);
}

/* The grouped list of moves[n] (pos's legal moves), cut at max moves
 * (0: none); see render_legal_moves_cut().  Returns the moves listed. */
static size_t render_grouped(const struct core_position *pos,
			     const struct core_move *moves, size_t n,
			     size_t max, struct buf *growth, struct buf *stacks)
{
	struct render_cells rc;
	const struct core_geom *g = pos->geom;
	struct core_move *group = malloc((n + 1) * sizeof(*group));
	struct core_move *ring = malloc((n + 1) * sizeof(*ring));
	struct buf entry = BUF_INIT;
	size_t listed = 0, i;
	bool cut = false;
	int pass, s;

	if (group == NULL || ring == NULL) {
		fputs("ashes: out of memory\n", stderr);
		abort();
	}
	render_cells_init(&rc, g);
	/* The mover's stacks first (pass 0), then swap, growth last. */
	for (pass = 0; pass < 3 && !cut; pass++) {
		struct buf *out = pass == 2 ? growth : stacks;

		if (pass == 1) {
			for (i = 0; i < n; i++)
				if (moves[i].kind == CORE_MOVE_SWAP)
					break;
			if (i == n)
				continue;
			if (max > 0 && listed + 1 > max) {
				cut = true;
				break;
			}
			listed++;
			if (out != NULL)
				buf_puts(out, "swap\n");
			continue;
		}
		for (s = 0; s < g->ncells && !cut; s++) {
			int from = rc.order[s];
			size_t ng = 0;

			for (i = 0; i < n; i++)
				if (moves[i].from == from &&
				    (moves[i].kind == CORE_MOVE_GROWTH) ==
				    (pass == 2))
					group[ng++] = moves[i];
			if (ng == 0)
				continue;
			if (max > 0 && listed + ng > max) {
				cut = true;
				break;
			}
			listed += ng;
			if (out == NULL)
				continue;
			/* Sort by part (0 = whole stack or growth) then
			 * target. */
			qsort(group, ng, sizeof(*group), render_cmp_move_target);
			buf_reset(&entry);
			if (pass == 2)
				render_growth_entry(&entry, &rc, pos, group, ng,
						    ring);
			else
				render_stack_entry_fit(&entry, &rc, group, ng);
			buf_append(out, entry.data, entry.len);
		}
	}
	buf_free(&entry);
	free(ring);
	free(group);
	return listed;
}

size_t render_legal_moves_cut(const struct core_position *pos, size_t max,
			      struct buf *growth, struct buf *stacks,
			      size_t *listed_r)
{
	size_t n;
	struct core_move *moves = render_moves(pos, &n);
	size_t listed = render_grouped(pos, moves, n, max, growth, stacks);

	if (listed_r != NULL)
		*listed_r = listed;
	free(moves);
	return n;
}

/* Stacks, then swap, then growth (render_legal_moves_lines()). */
static int render_move_rank(const struct core_move *m)
{
	return m->kind == CORE_MOVE_GROWTH ? 2 : m->kind == CORE_MOVE_SWAP;
}

/* By rank, source, part (the whole stack, 0, first) and target: cell
 * numbers are reading order (a1 a2 .. b1 ..). */
static int render_cmp_move_lines(const void *a, const void *b)
{
	const struct core_move *ma = a, *mb = b;
	int ra = render_move_rank(ma), rb = render_move_rank(mb);

	if (ra != rb)
		return ra - rb;
	if (ma->from != mb->from)
		return ma->from - mb->from;
	if (ma->part != mb->part)
		return ma->part < mb->part ? -1 : 1;
	return ma->to - mb->to;
}

size_t render_legal_moves_lines(const struct core_position *pos,
				struct buf *out)
{
	size_t n, i;
	struct core_move *moves = render_moves(pos, &n);
	char text[CORE_MOVE_TEXT_MAX];

	qsort(moves, n, sizeof(*moves), render_cmp_move_lines);
	for (i = 0; i < n; i++) {
		buf_puts(out, notation_format_move(pos->geom, &moves[i], text));
		buf_putc(out, '\n');
	}
	free(moves);
	return n;
}

static int render_cmp_str(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

size_t render_legal_moves_plain(const struct core_position *pos,
				struct buf *out)
{
	size_t n, i;
	struct core_move *moves = render_moves(pos, &n);
	char (*text)[CORE_MOVE_TEXT_MAX] = malloc((n + 1) * sizeof(*text));

	if (text == NULL) {
		fputs("ashes: out of memory\n", stderr);
		abort();
	}
	for (i = 0; i < n; i++)
		notation_format_move(pos->geom, &moves[i], text[i]);
	qsort(text, n, sizeof(*text), render_cmp_str);
	for (i = 0; i < n; i++) {
		buf_puts(out, text[i]);
		buf_putc(out, '\n');
	}
	free(text);
	free(moves);
	return n;
}

/* ------------------------------------------------- template variables -- */

void render_position_ctx(const struct core_position *pos,
			 struct template_ctx *ctx)
{
	render_position_ctx_max(pos, 0, ctx);
}

void render_position_ctx_max(const struct core_position *pos, size_t max,
			     struct template_ctx *ctx)
{
	struct buf b = BUF_INIT, stacks = BUF_INIT;
	char variant[64];
	size_t n, listed;
	struct core_move *moves;
	bool over = pos->result != CORE_ONGOING;

	render_board(pos, &b);
	template_ctx_set(ctx, "board", buf_str(&b));
	buf_reset(&b);
	template_ctx_set_bool(ctx, "board_both_ends",
			      render_board_key(pos->geom, &b));
	template_ctx_set(ctx, "board_row", buf_str(&b));
	buf_reset(&b);
	moves = render_moves(pos, &n);
	render_grouped(pos, moves, n, 0, &b, &stacks);
	template_ctx_set(ctx, "moves_growth", buf_str(&b));
	template_ctx_set(ctx, "moves_stacks", buf_str(&stacks));
	/* The short list: the same unless something is left out. */
	listed = n;
	if (max > 0 && max < n) {
		buf_reset(&b);
		buf_reset(&stacks);
		listed = render_grouped(pos, moves, n, max, &b, &stacks);
	}
	template_ctx_set(ctx, "moves_short_growth", buf_str(&b));
	template_ctx_set(ctx, "moves_short_stacks", buf_str(&stacks));
	template_ctx_set_int(ctx, "moves_listed", (long)listed);
	template_ctx_set_int(ctx, "moves_unlisted", (long)(n - listed));
	template_ctx_set_bool(ctx, "moves_cut", listed < n);
	free(moves);
	template_ctx_set_int(ctx, "moves_count", (long)n);
	template_ctx_set(ctx, "turn", core_color_name(pos->to_move));
	template_ctx_set_bool(ctx, "turn_white", pos->to_move == CORE_WHITE);
	template_ctx_set_bool(ctx, "turn_black", pos->to_move == CORE_BLACK);
	template_ctx_set_int(ctx, "ply", pos->ply);
	template_ctx_set_int(ctx, "next_ply", pos->ply + 1);
	template_ctx_set_int(ctx, "size", pos->variant.size);
	template_ctx_set(ctx, "variant",
			 notation_format_variant(&pos->variant, variant,
						 sizeof(variant)));
	template_ctx_set_int(ctx, "tax_white", pos->tax[CORE_WHITE]);
	template_ctx_set_int(ctx, "tax_black", pos->tax[CORE_BLACK]);
	template_ctx_set_int(ctx, "stacks_white", pos->nstacks[CORE_WHITE]);
	template_ctx_set_int(ctx, "stacks_black", pos->nstacks[CORE_BLACK]);
	template_ctx_set(ctx, "result",
			 core_result_name((enum core_result)pos->result));
	template_ctx_set(ctx, "end_reason",
			 over ? core_end_reason_name(
				 (enum core_end_reason)pos->end_reason) : "");
	template_ctx_set_bool(ctx, "ongoing", !over);
	template_ctx_set_bool(ctx, "over", over);
	template_ctx_set_bool(ctx, "won_white", pos->result == CORE_RESULT_WHITE);
	template_ctx_set_bool(ctx, "won_black", pos->result == CORE_RESULT_BLACK);
	template_ctx_set_bool(ctx, "draw", pos->result == CORE_RESULT_DRAW);
	template_ctx_set_bool(ctx, "must_pass", !over && n == 0);
	template_ctx_set_bool(ctx, "by_elimination",
			      pos->end_reason == CORE_END_ELIMINATION);
	template_ctx_set_bool(ctx, "by_double_pass",
			      pos->end_reason == CORE_END_DOUBLE_PASS);
	template_ctx_set_bool(ctx, "by_resignation",
			      pos->end_reason == CORE_END_RESIGNATION);
	template_ctx_set_bool(ctx, "by_agreement",
			      pos->end_reason == CORE_END_AGREED_DRAW);
	template_ctx_set_bool(ctx, "by_time", pos->end_reason == CORE_END_TIME);
	buf_free(&b);
	buf_free(&stacks);
}

/* Variables describing one ply played in `before` (which must be legal
 * there), for the template move-words.txt:
 *   player, opponent (white|black; the side that moved and the other),
 *   move (canonical text), from, to, part, size (of the stack at TO after
 *   the move), moved_size (the whole stack before it), left (what a split
 *   leaves on FROM), captured_color, captured_size;
 *   flags: growth, whole, split, swap, pass, spent, captured,
 *   captured_own, outward, taxed (a split arriving smaller than its part).
 * -1 with the rules' reason if the move is not legal in `before`. */
static int render_move_ctx(const struct core_position *before,
			   const struct core_move *move,
			   struct template_ctx *ctx, enum core_error *err_r)
{
	const struct core_geom *g = before->geom;
	enum core_color mover = (enum core_color)before->to_move;
	struct core_position after = *before;
	struct core_move m = *move;
	char text[CORE_MOVE_TEXT_MAX];

	template_ctx_set(ctx, "player", core_color_name(mover));
	template_ctx_set(ctx, "opponent", core_color_name(
				 mover == CORE_WHITE ? CORE_BLACK : CORE_WHITE));
	template_ctx_set_bool(ctx, "pass", m.kind == CORE_MOVE_PASS);
	template_ctx_set_bool(ctx, "swap", m.kind == CORE_MOVE_SWAP);
	template_ctx_set_bool(ctx, "growth", m.kind == CORE_MOVE_GROWTH);
	template_ctx_set_bool(ctx, "whole", m.kind == CORE_MOVE_WHOLE);
	template_ctx_set_bool(ctx, "split", m.kind == CORE_MOVE_SPLIT);
	if (m.kind == CORE_MOVE_PASS) {
		template_ctx_set(ctx, "move", "pass");
		return 0;
	}
	if (core_play(&after, &m, NULL, err_r) < 0)
		return -1;
	template_ctx_set(ctx, "move", notation_format_move(g, &m, text));
	if (m.kind == CORE_MOVE_SWAP)
		return 0;
	{
		int32_t target = before->stack[m.to];
		int32_t mine = before->stack[m.from];
		int size = core_stack_size(&after, m.to);
		bool captured = target != 0;

		template_ctx_set(ctx, "from", g->name[m.from]);
		template_ctx_set(ctx, "to", g->name[m.to]);
		template_ctx_set_int(ctx, "part", m.part);
		template_ctx_set_int(ctx, "size", size);
		template_ctx_set_int(ctx, "moved_size", mine < 0 ? -mine : mine);
		template_ctx_set_int(ctx, "left",
				     core_stack_size(&after, m.from));
		template_ctx_set_bool(ctx, "outward",
				      g->dist[m.to] > g->dist[m.from]);
		/* A split that does not land on the mover's own stack pays
		 * the tax: the part arrives smaller than it left. */
		template_ctx_set_bool(ctx, "taxed", m.kind == CORE_MOVE_SPLIT &&
				      size != m.part);
		template_ctx_set_bool(ctx, "spent",
				      m.kind == CORE_MOVE_WHOLE && size == 0);
		template_ctx_set_bool(ctx, "captured", captured);
		if (captured) {
			bool own = (target > 0) == (mover == CORE_WHITE);

			template_ctx_set(ctx, "captured_color",
					 core_color_name(target > 0 ? CORE_WHITE :
							 CORE_BLACK));
			template_ctx_set_int(ctx, "captured_size",
					     target < 0 ? -target : target);
			template_ctx_set_bool(ctx, "captured_own", own);
		}
	}
	return 0;
}

int render_move_words(struct template_set *set,
		      const struct core_position *before,
		      const struct core_move *move, struct buf *out,
		      const char **error_r)
{
	struct template_ctx *ctx = template_ctx_new();
	enum core_error err;
	size_t start = out->len;
	int rc = -1;

	if (render_move_ctx(before, move, ctx, &err) < 0) {
		*error_r = core_error_name(err);
		goto out;
	}
	if (template_render(set, "move-words.txt", ctx, out, error_r) < 0)
		goto out;
	/* The template's lines end in newlines; the words are one phrase. */
	while (out->len > start && (out->data[out->len - 1] == '\n' ||
				    out->data[out->len - 1] == ' ')) {
		out->data[--out->len] = '\0';
	}
	rc = 0;
out:
	template_ctx_free(&ctx);
	return rc;
}
