/* render_svg.c -- the board as a self-contained SVG picture (see
 * render_picture_svg() in render.h), the one drawing behind both pictures
 * a mail can carry: render_png.c rasterises exactly this.
 *
 * Above the board, a panel per player: its disc, the words of
 * picture.txt (the side and its turn or result; its stacks and tax), and
 * the panel of the side to move (or of the winner) outlined.  Below, the
 * board: pointy-top hexagons laid out like the text board, each with its
 * cell name, stacks as discs with their size, and the last move as an
 * arrow from its source to its target.
 *
 * The picture paints its own background, dark, so it looks the same on a
 * client's white and in its dark mode.  Text is at least 12 px at the
 * natural size, with the contrasts noted in picture.h.  Hexagons of one
 * fill are one <path> and cell names one <g>, so the document stays small
 * (about 15 KB at size 7, mid-game). */
#include "render/render.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/picture.h"

const uint32_t picture_rgb[PIC_NCOLOURS] = {
	[PIC_BG] = 0x1f2329,
	[PIC_PANEL] = 0x2c323a,
	[PIC_PANEL_ON] = 0x3b4250,
	[PIC_ACCENT] = 0xf2c14e,
	[PIC_LIGHT] = 0xfbfbf7,
	[PIC_DETAIL] = 0xc9ced6,
	[PIC_RING_EVEN] = 0xe9dcbc,
	[PIC_RING_ODD] = 0xdccb9f,
	[PIC_HEX_LINE] = 0x8a7650,
	[PIC_NAME] = 0x4a3b1e,
	[PIC_DARK] = 0x262626,
	[PIC_ARROW] = 0xb3261e,
};

/* A hexagon, in SVG user units (= pixels at the natural size): from its
 * centre to its top corner, and to its sides.  A regular one would be
 * 24.25 wide for 28 high; 24 puts every cell's centre on a whole pixel,
 * so that every cell, disc and name is drawn alike wherever it is, and
 * the PNG compresses the repeats. */
#define SVG_HEX 28
#define SVG_HEX_HALF_W 24
/* Around the picture and between its parts. */
#define SVG_MARGIN 10.0
/* A player's panel; the narrowest picture still fits "White to move". */
#define SVG_PANEL_H 44.0
#define SVG_MIN_W 380.0
/* A stack's disc sits this much above its cell's centre, its name this
 * much below (baseline), so both fit the hexagon. */
#define SVG_DISC 12.5
#define SVG_DISC_UP 6.0
#define SVG_NAME_DOWN 17.0
#define SVG_PANEL_DISC 13.0
/* Cell names and stack sizes, in px at the natural size. */
#define SVG_NAME_PX 12
#define SVG_SIZE_PX 13
#define SVG_SIZE_PX_SMALL 11 /* sizes of 3 digits or more */
/* The arrow of the last move: line width, and its head. */
#define SVG_ARROW_W 4
#define SVG_ARROW_HEAD 13.0
#define SVG_ARROW_HALF 7.0

/* "#rrggbb" of a colour of picture.h. */
struct svg_hex {
	char s[8];
};

static struct svg_hex col(enum picture_colour c)
{
	struct svg_hex h;

	snprintf(h.s, sizeof(h.s), "#%06x", (unsigned)picture_rgb[c]);
	return h;
}

/* Where things are: the board's centre, the picture's size. */
struct svg_frame {
	double ox, oy, w, h;
};

static void svg_layout(const struct core_geom *g, struct svg_frame *f)
{
	/* Half the board's extent: the middle row is 2R + 1 hexagons wide,
	 * and a column of rows 1.5 R + 1 radii high. */
	double half_w = SVG_HEX_HALF_W * (2 * g->radius + 1) + 1;
	double half_h = SVG_HEX * 3 / 2 * g->radius + SVG_HEX + 1;

	f->w = ceil(2 * half_w + 2 * SVG_MARGIN);
	if (f->w < SVG_MIN_W)
		f->w = SVG_MIN_W;
	f->ox = f->w / 2;
	f->oy = 2 * SVG_MARGIN + SVG_PANEL_H + half_h;
	f->h = ceil(f->oy + half_h + SVG_MARGIN);
}

static void svg_centre(const struct svg_frame *f, const struct core_geom *g,
		       int c, double *px, double *py)
{
	*px = f->ox + SVG_HEX_HALF_W * (2 * g->x[c] - g->y[c]);
	*py = f->oy - SVG_HEX * 3 / 2 * g->y[c];
}

static bool svg_last_cell(const struct core_move *last, int c)
{
	return last != NULL && last->from >= 0 &&
	       (c == last->from || c == last->to);
}

/* Every cell of one fill as one path of pointy-top hexagons (each from
 * its top corner, clockwise): the cells of ring parity `parity`, or with
 * parity -1 the last move's two cells. */
static void svg_cells(struct buf *out, const struct svg_frame *f,
		      const struct core_position *pos,
		      const struct core_move *last, enum picture_colour fill,
		      int parity)
{
	const struct core_geom *g = pos->geom;
	bool any = false;
	int c;

	for (c = 0; c < g->ncells; c++) {
		double cx, cy;

		if (parity >= 0 ? (g->dist[c] % 2 != parity ||
				   svg_last_cell(last, c))
				: !svg_last_cell(last, c))
			continue;
		if (!any)
			buf_printf(out, "<path fill=\"%s\" d=\"", col(fill).s);
		any = true;
		svg_centre(f, g, c, &cx, &cy);
		buf_printf(out, "M%.0f %.0fl%d %dv%dl%d %d%d %dv%dz",
			   cx, cy - SVG_HEX, SVG_HEX_HALF_W, SVG_HEX / 2,
			   SVG_HEX, -SVG_HEX_HALF_W, SVG_HEX / 2,
			   -SVG_HEX_HALF_W, -SVG_HEX / 2, -SVG_HEX);
	}
	if (any)
		buf_puts(out, "\"/>\n");
}

static void svg_disc(struct buf *out, double cx, double cy, double r,
		     bool white, enum picture_colour line)
{
	buf_printf(out, "<circle cx=\"%.0f\" cy=\"%.0f\" r=\"%.1f\" fill=\"%s\" "
		   "stroke=\"%s\" stroke-width=\"1.5\"/>\n", cx, cy, r,
		   col(white ? PIC_LIGHT : PIC_DARK).s, col(line).s);
}

/* The last move as an arrow from its source to its target, between the
 * discs on them (from the centre of a cell left empty).  The cells in
 * between are empty (a stack there would have blocked the move), so the
 * arrow only ever crosses the board's own colours. */
static void svg_arrow(struct buf *out, const struct svg_frame *f,
		      const struct core_position *pos,
		      const struct core_move *last)
{
	const struct core_geom *g = pos->geom;
	double x0, y0, x1, y1, dx, dy, len, ux, uy, bx, by, s0, s1;

	if (last == NULL || last->from < 0 || last->to < 0 ||
	    last->from == last->to)
		return;
	svg_centre(f, g, last->from, &x0, &y0);
	svg_centre(f, g, last->to, &x1, &y1);
	/* From disc centre to disc centre, over the cell names. */
	y0 -= SVG_DISC_UP;
	y1 -= SVG_DISC_UP;
	dx = x1 - x0;
	dy = y1 - y0;
	len = sqrt(dx * dx + dy * dy);
	ux = dx / len;
	uy = dy / len;
	s0 = pos->stack[last->from] != 0 ? SVG_DISC + 2 : 0;
	s1 = pos->stack[last->to] != 0 ? SVG_DISC + 2 : 6;
	x0 += ux * s0;
	y0 += uy * s0;
	x1 -= ux * s1;
	y1 -= uy * s1;
	bx = x1 - ux * SVG_ARROW_HEAD;
	by = y1 - uy * SVG_ARROW_HEAD;
	buf_printf(out, "<g class=\"arrow\" fill=\"%s\" stroke=\"%s\">"
		   "<path d=\"M%.1f %.1fL%.1f %.1f\" stroke-width=\"%d\"/>"
		   "<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fz\" "
		   "stroke=\"none\"/></g>\n",
		   col(PIC_ARROW).s, col(PIC_ARROW).s, x0, y0,
		   bx + ux, by + uy, SVG_ARROW_W, x1, y1,
		   bx - uy * SVG_ARROW_HALF, by + ux * SVG_ARROW_HALF,
		   bx + uy * SVG_ARROW_HALF, by - ux * SVG_ARROW_HALF);
}

/* The two lines of words for side `color` from picture.txt (see
 * render.h) into line[0] and line[1], XML-escaped. */
static int svg_words(struct template_set *set,
		     const struct core_position *pos, enum core_color color,
		     struct buf line[2], const char **error_r)
{
	struct template_ctx *ctx = template_ctx_new();
	struct buf text = BUF_INIT;
	enum core_result mine = color == CORE_WHITE ? CORE_RESULT_WHITE :
		CORE_RESULT_BLACK;
	bool over = pos->result != CORE_ONGOING;
	const char *s;
	int ret, i;

	template_ctx_set(ctx, "color", core_color_name(color));
	template_ctx_set_int(ctx, "stacks", pos->nstacks[color]);
	template_ctx_set_int(ctx, "tax", pos->tax[color]);
	template_ctx_set_bool(ctx, "stacks_one", pos->nstacks[color] == 1);
	template_ctx_set_bool(ctx, "to_move", !over && pos->to_move == color);
	template_ctx_set_bool(ctx, "over", over);
	template_ctx_set_bool(ctx, "draw", pos->result == CORE_RESULT_DRAW);
	template_ctx_set_bool(ctx, "won", pos->result == mine);
	template_ctx_set_bool(ctx, "lost", over && pos->result != mine &&
			      pos->result != CORE_RESULT_DRAW);
	ret = template_render(set, "picture.txt", ctx, &text, error_r);
	template_ctx_free(&ctx);
	s = buf_str(&text);
	for (i = 0; ret == 0 && i < 2; i++) {
		size_t n = strcspn(s, "\n");
		char *piece = strndup(s, n);

		template_html_escape(&line[i], piece);
		free(piece);
		s += n;
		if (*s == '\n')
			s++;
	}
	buf_free(&text);
	return ret;
}

/* A player's panel: disc, words, outlined when it is the side to move
 * (or the winner). */
static int svg_panel(struct buf *out, const struct svg_frame *f,
		     const struct core_position *pos, enum core_color color,
		     struct template_set *set, const char **error_r)
{
	double pw = (f->w - 3 * SVG_MARGIN) / 2;
	double x = SVG_MARGIN + (color == CORE_WHITE ? 0 : pw + SVG_MARGIN);
	double y = SVG_MARGIN;
	bool on = pos->result == CORE_ONGOING ? pos->to_move == color :
		pos->result == (color == CORE_WHITE ? CORE_RESULT_WHITE :
				CORE_RESULT_BLACK);
	struct buf line[2] = { BUF_INIT, BUF_INIT };
	int ret = 0;

	buf_printf(out, "<rect class=\"%s%s\" x=\"%.1f\" y=\"%.1f\" "
		   "width=\"%.1f\" height=\"%.0f\" rx=\"8\" fill=\"%s\"",
		   core_color_name(color), on ? " on" : "", x, y, pw,
		   SVG_PANEL_H, col(on ? PIC_PANEL_ON : PIC_PANEL).s);
	if (on)
		buf_printf(out, " stroke=\"%s\" stroke-width=\"2.5\"",
			   col(PIC_ACCENT).s);
	buf_puts(out, "/>\n");
	svg_disc(out, x + 24, y + SVG_PANEL_H / 2, SVG_PANEL_DISC,
		 color == CORE_WHITE,
		 color == CORE_WHITE ? PIC_DARK : PIC_DETAIL);
	if (set != NULL &&
	    (ret = svg_words(set, pos, color, line, error_r)) == 0)
		buf_printf(out, "<text x=\"%.1f\" y=\"%.0f\" font-size=\"14\" "
			   "font-weight=\"bold\" fill=\"%s\">%s</text>\n"
			   "<text x=\"%.1f\" y=\"%.0f\" font-size=\"12\" "
			   "fill=\"%s\">%s</text>\n",
			   x + 46, y + 19, col(PIC_LIGHT).s, buf_str(&line[0]),
			   x + 46, y + 36, col(PIC_DETAIL).s,
			   buf_str(&line[1]));
	buf_free(&line[0]);
	buf_free(&line[1]);
	return ret;
}

int render_picture_svg(const struct core_position *pos,
		       const struct core_move *last,
		       const struct render_picture *pic, struct buf *out,
		       const char **error_r)
{
	const struct core_geom *g = pos->geom;
	struct template_set *set = pic != NULL ? pic->templates : NULL;
	struct svg_frame f;
	int c;

	svg_layout(g, &f);
	buf_printf(out,
		   "<svg xmlns=\"http://www.w3.org/2000/svg\" "
		   "width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
		   "font-family=\"" PICTURE_FONTS "\">\n"
		   "<rect width=\"100%%\" height=\"100%%\" fill=\"%s\"/>\n",
		   f.w, f.h, f.w, f.h, col(PIC_BG).s);
	if (svg_panel(out, &f, pos, CORE_WHITE, set, error_r) < 0 ||
	    svg_panel(out, &f, pos, CORE_BLACK, set, error_r) < 0)
		return -1;

	/* Crisp edges: the grid's lines stay sharp, and the PNG a fifth
	 * smaller than with smoothed ones. */
	buf_printf(out, "<g stroke=\"%s\" shape-rendering=\"crispEdges\">\n",
		   col(PIC_HEX_LINE).s);
	svg_cells(out, &f, pos, last, PIC_RING_EVEN, 0);
	svg_cells(out, &f, pos, last, PIC_RING_ODD, 1);
	svg_cells(out, &f, pos, last, PIC_ACCENT, -1);
	buf_puts(out, "</g>\n");
	/* Under the names, so that a name the arrow crosses stays whole. */
	svg_arrow(out, &f, pos, last);

	buf_printf(out, "<g class=\"names\" font-size=\"%d\" fill=\"%s\" "
		   "text-anchor=\"middle\">\n", SVG_NAME_PX, col(PIC_NAME).s);
	for (c = 0; c < g->ncells; c++) {
		double cx, cy;

		svg_centre(&f, g, c, &cx, &cy);
		buf_printf(out, "<text x=\"%.0f\" y=\"%.0f\">%s</text>\n",
			   cx, cy + SVG_NAME_DOWN, g->name[c]);
	}
	buf_puts(out, "</g>\n");

	for (c = 0; c < g->ncells; c++) {
		int32_t v = pos->stack[c];
		double cx, cy;
		int size = v < 0 ? -v : v;

		if (v == 0)
			continue;
		svg_centre(&f, g, c, &cx, &cy);
		svg_disc(out, cx, cy - SVG_DISC_UP, SVG_DISC, v > 0, PIC_DARK);
		/* The digits' middle on the disc's centre. */
		buf_printf(out, "<text x=\"%.0f\" y=\"%.1f\" font-size=\"%d\" "
			   "font-weight=\"bold\" fill=\"%s\" "
			   "text-anchor=\"middle\">%d</text>\n",
			   cx, cy - SVG_DISC_UP + 4.5,
			   size >= 100 ? SVG_SIZE_PX_SMALL : SVG_SIZE_PX,
			   col(v > 0 ? PIC_DARK : PIC_LIGHT).s, size);
	}
	buf_puts(out, "</svg>\n");
	return 0;
}

void render_board_svg(const struct core_position *pos,
		      const struct core_move *last, struct buf *out)
{
	/* Without words nothing can fail. */
	(void)render_picture_svg(pos, last, NULL, out, NULL);
}
