/* render_svg.c -- the board as a self-contained SVG picture (see
 * render_board_svg() in render.h): pointy-top hexagons laid out like the
 * text board, each with its cell name, stacks as discs with their size. */
#include "render/render.h"

#include <stdio.h>

/* Hexagon radius in SVG user units; the picture scales anyway. */
#define SVG_HEX 28.0
#define SVG_SQRT3 1.7320508075688772

static void svg_centre(const struct core_geom *g, int c, double *px,
		       double *py)
{
	*px = SVG_HEX * SVG_SQRT3 * (g->x[c] - g->y[c] / 2.0);
	*py = -SVG_HEX * 1.5 * g->y[c];
}

static void svg_hexagon(struct buf *out, double cx, double cy, double r,
			const char *attrs)
{
	/* cos and sin of 30, 90, ..., 330 degrees: a pointy-top hexagon. */
	static const double corner[6][2] = {
		{ SVG_SQRT3 / 2, 0.5 }, { 0, 1 }, { -SVG_SQRT3 / 2, 0.5 },
		{ -SVG_SQRT3 / 2, -0.5 }, { 0, -1 }, { SVG_SQRT3 / 2, -0.5 },
	};
	int k;

	buf_puts(out, "<polygon points=\"");
	for (k = 0; k < 6; k++)
		buf_printf(out, "%s%.1f,%.1f", k ? " " : "",
			   cx + r * corner[k][0], cy + r * corner[k][1]);
	buf_printf(out, "\" %s/>\n", attrs);
}

void render_board_svg(const struct core_position *pos,
		      const struct core_move *last, struct buf *out)
{
	const struct core_geom *g = pos->geom;
	double half_w = SVG_HEX * SVG_SQRT3 * (g->radius + 0.5) + 6;
	double half_h = SVG_HEX * (1.5 * g->radius + 1) + 6;
	int c;

	buf_printf(out,
		   "<svg xmlns=\"http://www.w3.org/2000/svg\" "
		   "width=\"%.0f\" height=\"%.0f\" viewBox=\"%.1f %.1f %.1f %.1f\" "
		   "font-family=\"DejaVu Sans, Verdana, sans-serif\">\n",
		   2 * half_w, 2 * half_h, -half_w, -half_h, 2 * half_w,
		   2 * half_h);
	buf_printf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		   "height=\"%.1f\" fill=\"#f4ecd8\"/>\n",
		   -half_w, -half_h, 2 * half_w, 2 * half_h);
	for (c = 0; c < g->ncells; c++) {
		double cx, cy;
		/* Rings alternate in shade so distances read at a glance. */
		const char *fill = g->dist[c] % 2 ? "#d9c7a0" : "#e6d8b5";
		bool marked = last != NULL && last->from >= 0 &&
			(c == last->from || c == last->to);
		char attrs[96];

		svg_centre(g, c, &cx, &cy);
		snprintf(attrs, sizeof(attrs),
			 "fill=\"%s\" stroke=\"%s\" stroke-width=\"%s\"",
			 marked ? "#f2c14e" : fill, "#8a7650",
			 marked ? "2" : "1");
		svg_hexagon(out, cx, cy, SVG_HEX, attrs);
		buf_printf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"9\" "
			   "fill=\"#7a6a48\" text-anchor=\"middle\">%s</text>\n",
			   cx, cy + SVG_HEX * 0.72, g->name[c]);
	}
	for (c = 0; c < g->ncells; c++) {
		int32_t v = pos->stack[c];
		double cx, cy;
		int size = v < 0 ? -v : v;

		if (v == 0)
			continue;
		svg_centre(g, c, &cx, &cy);
		buf_printf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" "
			   "fill=\"%s\" stroke=\"#222\" stroke-width=\"1.5\"/>\n",
			   cx, cy - 3, SVG_HEX * 0.5, v > 0 ? "#fbfbf7" : "#262626");
		buf_printf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\" "
			   "font-weight=\"bold\" fill=\"%s\" "
			   "text-anchor=\"middle\">%d</text>\n",
			   cx, cy + 2.5, size >= 100 ? 11 : 14,
			   v > 0 ? "#222" : "#fbfbf7", size);
	}
	buf_puts(out, "</svg>\n");
}
