/* render_text.c -- the board as text (render_board() and render_board_key()
 * in render.h): pointy-top hexagons, one text line per row, each row
 * named at its ends by its first and last cells.
 *
 * Why names at the row ends and no column letters: a column is a
 * diagonal on this board, and a letter printed above or below the board
 * stands straight over a cell of another column (the "h" over g8), so a
 * player who read it as a chess board sent a legal move to the wrong
 * cell.  A row is a text line, and its cells run in letter order from
 * the name at its left: counting along a line is something nobody
 * misreads. */
#include "render/render.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "W3", "B12" or "." */
static void text_stack_label(const struct core_position *pos, int c,
			     char *buf, size_t len)
{
	int32_t v = pos->stack[c];

	if (v == 0)
		snprintf(buf, len, ".");
	else
		snprintf(buf, len, "%c%ld", v > 0 ? 'W' : 'B',
			 (long)(v > 0 ? v : -(long)v));
}

/* Where things go.  Cell (x, y) is at unit u = 2x - y + 2R (0 for the
 * middle row's first cell), its label centred on column
 * margin + pitch * u / 2: row neighbours are `pitch` columns apart and
 * the rows above and below are shifted by half of that, a hexagon.  A
 * label takes the column of its centre ("."), the one after it too
 * ("W3"), and the one before it as well ("B12"). */
struct text_layout {
	int pitch;  /* 4; 3 where 4 would not fit */
	bool right; /* rows named at their right end too */
	int margin; /* the centre column of the middle row's first cell */
	int width;  /* no line is wider */
};

int render_board_width(int size)
{
	return size <= 9 ? RENDER_TEXT_WIDTH : RENDER_BOARD_WIDTH_MAX;
}

/* Row y's first and last cells. */
static void text_row_ends(const struct core_geom *g, int y, int *first_r,
			  int *last_r)
{
	int R = g->radius;
	int x0 = y > 0 ? y - R : -R, x1 = y < 0 ? y + R : R;

	*first_r = g->cell_at[x0 + R][y + R];
	*last_r = g->cell_at[x1 + R][y + R];
}

static int text_unit(const struct core_geom *g, int c)
{
	return 2 * g->x[c] - g->y[c] + 2 * g->radius;
}

static int text_centre(const struct text_layout *l, int u)
{
	return l->margin + l->pitch * u / 2;
}

/* The smallest margin that leaves `gap` blanks (1, or 0: tight) between
 * each row's first name and a two-digit stack on its first cell. */
static int text_margin(const struct core_geom *g, const struct text_layout *l,
		       int gap)
{
	struct text_layout at0 = *l;
	int margin = 0;

	at0.margin = 0; /* centres as offsets from the margin */
	for (int y = -g->radius; y <= g->radius; y++) {
		int first, last;
		int need;

		text_row_ends(g, y, &first, &last);
		need = (int)strlen(g->name[first]) + 1 + gap -
			text_centre(&at0, text_unit(g, first));
		if (need > margin)
			margin = need;
	}
	return margin;
}

/* The widest line with `margin`, each right name `gap` blanks after a
 * stack's second column. */
static int text_width(const struct core_geom *g, const struct text_layout *l,
		      int margin, int gap)
{
	struct text_layout at = *l;
	int widest = 0;

	at.margin = margin;
	for (int y = -g->radius; y <= g->radius; y++) {
		int first, last, end;

		text_row_ends(g, y, &first, &last);
		end = text_centre(&at, text_unit(g, last)) + 2;
		if (l->right)
			end += gap + (int)strlen(g->name[last]);
		if (end > widest)
			widest = end;
	}
	return widest;
}

/* The roomiest layout that fits render_board_width(): a pitch of 4 before
 * 3 (3 lets two stacks touch: "W3B12"), names at both ends before the
 * left alone.  A name is a blank away from its row's cells, except on
 * rows too wide for one (the middle row of sizes 9 and 13): there a left
 * name ends right before the column only a two-digit stack uses (and
 * render_board() moves that stack aside where it can), a right name
 * would touch any stack ("W3q9"), so the left is tightened first. */
static void text_layout(const struct core_geom *g, struct text_layout *l)
{
	static const struct {
		int pitch;
		bool right;
	} tries[] = { { 4, true }, { 3, true }, { 4, false }, { 3, false } };
	int limit = render_board_width(g->size);
	size_t i;

	for (i = 0; i < sizeof(tries) / sizeof(tries[0]); i++) {
		l->pitch = tries[i].pitch;
		l->right = tries[i].right;
		l->margin = text_margin(g, l, 1);
		l->width = text_width(g, l, l->margin, 1);
		if (l->width <= limit)
			return;
		l->margin = text_margin(g, l, 0);
		if (text_width(g, l, l->margin, 0) <= limit) {
			l->width = text_width(g, l, l->margin, 1);
			if (l->width > limit)
				l->width = limit;
			return;
		}
	}
	/* Pitch 3, left names, tight: 6N columns, 78 at N = 13. */
	abort(); /* a size past CORE_MAX_SIZE: a broken invariant */
}

static void text_put(char *line, int width, int col, const char *s)
{
	for (; *s != '\0'; s++, col++)
		if (col >= 0 && col < width)
			line[col] = *s;
}

/* A stack label around centre column `at` (see struct text_layout). */
static void text_put_label(char *line, int width, int at, const char *s)
{
	text_put(line, width, strlen(s) == 3 ? at - 1 : at, s);
}

void render_board(const struct core_position *pos, struct buf *out)
{
	const struct core_geom *g = pos->geom;
	int R = g->radius;
	struct text_layout l;
	struct buf legend = BUF_INIT;
	int nlegend = 0;
	char *line;

	text_layout(g, &l);
	line = malloc((size_t)l.width);
	if (line == NULL) {
		fputs("ashes: out of memory\n", stderr);
		abort();
	}
	for (int y = R; y >= -R; y--) {
		char labels[2 * CORE_MAX_SIZE - 1][16];
		int first, last, cf, cl, n, ncells, len = l.width;
		bool tight;

		text_row_ends(g, y, &first, &last);
		cf = text_centre(&l, text_unit(g, first));
		cl = text_centre(&l, text_unit(g, last));
		ncells = g->x[last] - g->x[first] + 1;
		memset(line, ' ', (size_t)l.width);

		/* The row's cells, left to right. */
		for (int i = 0; i < ncells; i++) {
			int c = g->cell_at[g->x[first] + i + R][y + R];

			text_stack_label(pos, c, labels[i], sizeof(labels[i]));
			if (strlen(labels[i]) > 3) {
				/* Too wide for the grid: a marker and a
				 * legend line. */
				buf_printf(&legend, "*%d = %s (%s)\n",
					   ++nlegend, labels[i], g->name[c]);
				snprintf(labels[i], sizeof(labels[i]), "*%d",
					 nlegend);
			}
			text_put_label(line, l.width,
				       text_centre(&l, text_unit(g, c)),
				       labels[i]);
		}
		/* The names: a blank from the cells where the line has
		 * room (see text_layout()).  Where it has none, a two-digit
		 * stack on the first cell steps one column right rather than
		 * run into the name ("a13 W12." not "a13W12"), unless that
		 * runs it into a stack beside it. */
		n = (int)strlen(g->name[first]);
		tight = cf - 2 - n < 0;
		if (tight && strlen(labels[0]) == 3 &&
		    (ncells == 1 || strlen(labels[1]) == 1)) {
			text_put(line, l.width, cf - 1, " ");
			text_put(line, l.width, cf, labels[0]);
		}
		text_put(line, l.width, tight ? cf - 1 - n : cf - 2 - n,
			 g->name[first]);
		if (l.right) {
			n = (int)strlen(g->name[last]);
			text_put(line, l.width,
				 cl + 3 + n <= l.width ? cl + 3 : cl + 2,
				 g->name[last]);
		}
		while (len > 0 && line[len - 1] == ' ')
			len--;
		buf_append(out, line, (size_t)len);
		buf_putc(out, '\n');
	}
	buf_append(out, legend.data ? legend.data : "", legend.len);
	buf_free(&legend);
	free(line);
}

bool render_board_key(const struct core_geom *g, struct buf *example)
{
	struct text_layout l;
	int R = g->radius, n = g->size;

	/* The top row: from (0, R) to (R, R), n cells. */
	for (int x = 0; x <= R; x++) {
		if (n > 3 && x >= 2 && x < R)
			continue;
		if (x > 0)
			buf_puts(example, n > 3 && x == R ? " ... " : " ");
		buf_puts(example, g->name[g->cell_at[x + R][2 * R]]);
	}
	text_layout(g, &l);
	return l.right;
}
