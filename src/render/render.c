/* render.c -- board text, legal-move lists, the variables templates use to
 * describe positions and moves, and the move in words; see render.h.
 * The SVG picture is in render_svg.c. */
#include "render/render.h"

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

/* "W3", "B12" or "." */
static void render_stack_label(const struct core_position *pos, int c,
			       char *buf, size_t len)
{
	int32_t v = pos->stack[c];

	if (v == 0)
		snprintf(buf, len, ".");
	else
		snprintf(buf, len, "%c%ld", v > 0 ? 'W' : 'B',
			 (long)(v > 0 ? v : -(long)v));
}

/* ------------------------------------------------------- board text -- */

/* The board is drawn on a canvas of (2N + 1) lines.  Cell (x, y) sits on
 * line R - y + 1 at column unit u = 2x - y + 2R, so row neighbours are two
 * units apart and the rows above and below are shifted by one: a hexagon.
 * One unit is two characters; a cell label takes the 3 characters around
 * its centre. */
struct render_canvas {
	int lines, width;
	char *cells;
};

static void canvas_put(struct render_canvas *cv, int line, int col,
		       const char *s)
{
	size_t i, n = strlen(s);

	for (i = 0; i < n; i++) {
		int at = col + (int)i;

		if (line >= 0 && line < cv->lines && at >= 0 && at < cv->width)
			cv->cells[line * cv->width + at] = s[i];
	}
}

/* A label centred on unit u: one character on the centre, two starting
 * one to the left, three around it. */
static void canvas_label(struct render_canvas *cv, int line, int margin,
			 int u, const char *s)
{
	int centre = margin + 2 * u;
	int n = (int)strlen(s);

	canvas_put(cv, line, n == 1 ? centre : centre - 1, s);
}

void render_board(const struct core_position *pos, struct buf *out)
{
	const struct core_geom *g = pos->geom;
	int R = g->radius;
	/* Row numbers sit two units left of the centre row's first cell
	 * (u = 0), right-aligned in 3 characters. */
	int margin = 4;
	struct render_canvas cv;
	struct buf legend = BUF_INIT;
	int nlegend = 0;
	int x, y, line, c;

	cv.lines = 2 * R + 3;
	cv.width = margin + 2 * (4 * R + 2) + 3;
	cv.cells = malloc((size_t)cv.lines * (size_t)cv.width);
	if (cv.cells == NULL) {
		fputs("ashes: out of memory\n", stderr);
		abort();
	}
	memset(cv.cells, ' ', (size_t)cv.lines * (size_t)cv.width);

	for (c = 0; c < g->ncells; c++) {
		char label[16];

		x = g->x[c];
		y = g->y[c];
		render_stack_label(pos, c, label, sizeof(label));
		if (strlen(label) > 3) {
			/* Too wide for the grid: a marker and a legend line. */
			buf_printf(&legend, "*%d = %s (%s)\n", ++nlegend, label,
				   g->name[c]);
			snprintf(label, sizeof(label), "*%d", nlegend);
		}
		canvas_label(&cv, R - y + 1, margin, 2 * x - y + 2 * R, label);
	}
	for (y = -R; y <= R; y++) {
		char num[16];
		int first = y >= 0 ? y : -y;

		snprintf(num, sizeof(num), "%3d", y + R + 1);
		canvas_put(&cv, R - y + 1, margin + 2 * (first - 2) - 1, num);
	}
	for (x = -R; x <= R; x++) {
		char letter[2] = { (char)('a' + x + R), '\0' };

		/* Each column is a diagonal running down-right: its letter
		 * continues the diagonal one step past the last cell, and for
		 * the columns that reach the top row one step before it. */
		y = (x <= 0 ? -R : x - R) - 1;
		canvas_label(&cv, R - y + 1, margin, 2 * x - y + 2 * R, letter);
		if (x >= 0) {
			y = R + 1;
			canvas_label(&cv, R - y + 1, margin, 2 * x - y + 2 * R,
				     letter);
		}
	}
	for (line = 0; line < cv.lines; line++) {
		const char *row = cv.cells + line * cv.width;
		int len = cv.width;

		while (len > 0 && row[len - 1] == ' ')
			len--;
		buf_append(out, row, (size_t)len);
		buf_putc(out, '\n');
	}
	buf_append(out, legend.data ? legend.data : "", legend.len);
	buf_free(&legend);
	free(cv.cells);
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

/* Appends words to lines no wider than RENDER_TEXT_WIDTH; continuation
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
	w->col = (int)strlen(label);
	w->indent = w->col;
}

/* A word, after `gap` blanks unless it starts a line. */
static void wrap_word(struct render_wrap *w, const char *word, int gap)
{
	int n = (int)strlen(word);

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

size_t render_legal_moves(const struct core_position *pos, struct buf *growth,
			  struct buf *stacks)
{
	struct render_cells rc;
	const struct core_geom *g = pos->geom;
	size_t n, i;
	struct core_move *moves = render_moves(pos, &n);
	struct core_move *group = malloc((n + 1) * sizeof(*group));
	struct core_move *ring = malloc((n + 1) * sizeof(*ring));
	int tax = pos->tax[pos->to_move];
	int s;

	if (group == NULL || ring == NULL) {
		fputs("ashes: out of memory\n", stderr);
		abort();
	}
	render_cells_init(&rc, g);
	for (s = 0; s < g->ncells; s++) {
		int from = rc.order[s];
		size_t ng = 0;
		struct render_wrap w;
		char label[16];

		for (i = 0; i < n; i++)
			if (moves[i].from == from)
				group[ng++] = moves[i];
		if (ng == 0)
			continue;
		/* Sort by part (0 = whole stack or growth) then target. */
		qsort(group, ng, sizeof(*group), render_cmp_move_target);
		if (group[0].kind == CORE_MOVE_GROWTH) {
			int size, maxsize = 0;
			bool first = true;

			if (growth == NULL)
				continue;
			/* By target ring, shown as the new stack's size
			 * dT - dS - tax, smallest first. */
			for (i = 0; i < ng; i++) {
				size = g->dist[group[i].to] - g->dist[from] - tax;
				if (size > maxsize)
					maxsize = size;
			}
			snprintf(label, sizeof(label), "%s ", g->name[from]);
			wrap_start(&w, growth, label);
			for (size = 1; size <= maxsize; size++) {
				size_t m = 0;
				char glabel[16];

				for (i = 0; i < ng; i++)
					if (g->dist[group[i].to] - g->dist[from] -
					    tax == size)
						ring[m++] = group[i];
				if (m == 0)
					continue;
				snprintf(glabel, sizeof(glabel), "=%d: ", size);
				render_targets(&w, &rc, ring, m, glabel,
					       first ? 0 : 2);
				first = false;
			}
			wrap_end(&w);
			continue;
		}
		if (stacks == NULL)
			continue;
		/* One line if it fits; otherwise each group on its own
		 * line(s), so long lists of parts stay readable. */
		{
			struct buf one = BUF_INIT;

			render_stack_entry(&one, &rc, group, ng, false);
			if (strchr(one.data, '\n') == one.data + one.len - 1)
				buf_append(stacks, one.data, one.len);
			else
				render_stack_entry(stacks, &rc, group, ng, true);
			buf_free(&one);
		}
	}
	for (i = 0; i < n; i++)
		if (moves[i].kind == CORE_MOVE_SWAP && stacks != NULL)
			buf_puts(stacks, "swap\n");
	free(ring);
	free(group);
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
	struct buf b = BUF_INIT, stacks = BUF_INIT;
	char variant[64];
	size_t n;
	bool over = pos->result != CORE_ONGOING;

	render_board(pos, &b);
	template_ctx_set(ctx, "board", buf_str(&b));
	buf_reset(&b);
	n = render_legal_moves(pos, &b, &stacks);
	template_ctx_set(ctx, "moves_growth", buf_str(&b));
	template_ctx_set(ctx, "moves_stacks", buf_str(&stacks));
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

int render_move_ctx(const struct core_position *before,
		    const struct core_move *move, struct template_ctx *ctx,
		    enum core_error *err_r)
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
