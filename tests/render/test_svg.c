/* test_svg.c -- the board picture as SVG (render_svg.c): every cell with
 * its name, legible (size and contrast read from the picture itself),
 * stacks as discs, the last move as an arrow from its source to its
 * target, whose turn it is and both players' stacks and tax in words from
 * picture.txt (escaped), a background of its own, and a small,
 * self-contained document. */
#include <math.h>
#include <unistd.h>

#include "picture_test.h"
#include "../check_run.h"

/* WCAG relative luminance and contrast of two "#rrggbb" colours. */
static double luminance(const char *hex)
{
	unsigned v = (unsigned)strtoul(hex + 1, NULL, 16);
	double c[3] = { (v >> 16) / 255.0, ((v >> 8) & 255) / 255.0,
			(v & 255) / 255.0 };

	for (int i = 0; i < 3; i++)
		c[i] = c[i] <= 0.03928 ? c[i] / 12.92 :
			pow((c[i] + 0.055) / 1.055, 2.4);
	return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
}

static double contrast(const char *a, const char *b)
{
	double la = luminance(a), lb = luminance(b);

	return la > lb ? (la + 0.05) / (lb + 0.05) : (lb + 0.05) / (la + 0.05);
}

/* The value of attribute `attr` in the first element after `from`
 * (ck_abort if none); into out. */
static void attr(const char *from, const char *attr_name, char *out,
		 size_t len)
{
	char key[32];
	const char *p, *end;

	snprintf(key, sizeof(key), " %s=\"", attr_name);
	p = strstr(from, key);
	end = strchr(from, '>');
	ck_assert_msg(p != NULL && p < end, "no %s in %.60s", attr_name, from);
	p += strlen(key);
	snprintf(out, len, "%.*s", (int)strcspn(p, "\""), p);
}

static char *svg_of(const struct core_position *pos,
		    const struct core_move *last, struct template_set *set)
{
	struct render_picture pic = { .templates = set };
	struct buf out = BUF_INIT;
	const char *error = NULL;

	ck_assert_msg(render_picture_svg(pos, last, &pic, &out, &error) == 0,
		      "%s", error);
	return buf_steal(&out);
}

/* svg_of, which must hold each of the NULL-terminated want. */
static char *svg_has(const struct core_position *pos,
		     const struct core_move *last, struct template_set *set,
		     const char *const *want)
{
	char *s = svg_of(pos, last, set);

	for (; *want != NULL; want++)
		ck_assert_msg(strstr(s, *want) != NULL, "no %s in %s", *want, s);
	return s;
}

#define WANT(...) ((const char *const[]){ __VA_ARGS__, NULL })

START_TEST(test_cells_and_stacks)
{
	struct core_position pos;
	struct core_move last;
	char *s;
	int c, hexes = 0;
	const char *p;

	pt_position(&pos, &last);
	s = svg_of(&pos, &last, templates);
	ck_assert_int_eq(strncmp(s, "<svg xmlns=\"http://www.w3.org/2000/svg\" ", 40), 0);
	ck_assert_str_eq(s + strlen(s) - 7, "</svg>\n");
	/* one hexagon a cell, in the paths of the board's three fills */
	for (p = s; (p = strstr(p, "<path fill=")) != NULL; p++) {
		const char *d = strstr(p, " d=\"");

		for (d += 4; *d != '"'; d++)
			hexes += *d == 'M';
	}
	ck_assert_int_eq(hexes, 19);
	for (c = 0; c < pos.geom->ncells; c++) {
		char name[16];

		snprintf(name, sizeof(name), ">%s</text>", pos.geom->name[c]);
		ck_assert_int_eq(pt_count(s, name), 1);
	}
	/* discs: 5 stacks on the board and one a player */
	ck_assert_int_eq(pt_count(s, "<circle"), 5 + 2);
	ck_assert_int_eq(pt_count(s, "fill=\"#262626\" stroke"), 2 + 1);
	ck_assert_ptr_nonnull(strstr(s, "text-anchor=\"middle\">2</text>")); /* c5 */
	ck_assert_ptr_null(strstr(s, "text-anchor=\"middle\">3</text>"));
	free(s);
}
END_TEST

/* Cell names at least 12 px, at least 4.5:1 against every fill a cell
 * can have (the two rings and the last move's cells). */
START_TEST(test_names_legible)
{
	struct core_position pos;
	struct core_move last;
	char size[16], ink[16], fill[16];
	char *s;
	const char *g, *p;
	int fills = 0;

	pt_position(&pos, &last);
	s = svg_of(&pos, &last, templates);
	g = strstr(s, "<g class=\"names\"");
	ck_assert_ptr_nonnull(g);
	attr(g, "font-size", size, sizeof(size));
	attr(g, "fill", ink, sizeof(ink));
	ck_assert_int_ge(atoi(size), 12);
	for (p = s; (p = strstr(p, "<path fill=")) != NULL; p++) {
		attr(p, "fill", fill, sizeof(fill));
		ck_assert_msg(contrast(ink, fill) >= 4.5, "%s on %s: %.2f", ink,
			      fill, contrast(ink, fill));
		fills++;
	}
	ck_assert_int_eq(fills, 3);
	free(s);
}
END_TEST

/* The picture paints its own background: the first thing drawn covers
 * it all, and it is dark (so a dark-mode client shows no white frame and
 * a white one a framed picture); the board's light cells sit on it. */
START_TEST(test_own_background)
{
	struct core_position pos;
	char fill[16];
	char *s;
	const char *bg;

	pt_start(&pos, 5);
	s = svg_of(&pos, NULL, templates);
	bg = strchr(s, '\n') + 1;
	ck_assert_int_eq(strncmp(bg, "<rect width=\"100%\" height=\"100%\" ", 33), 0);
	attr(bg, "fill", fill, sizeof(fill));
	ck_assert(luminance(fill) < 0.05);
	ck_assert(contrast(fill, "#ffffff") > 10);
	free(s);
}
END_TEST

/* Whose turn, and each side's stacks and tax, in the words of
 * picture.txt; the side to move's panel outlined. */
START_TEST(test_turn_and_counts)
{
	struct core_position pos;
	struct core_move last;
	char *s;

	pt_position(&pos, &last);
	/* White: a1, c5, e3, tax 2; Black to move: c1, a3 */
	s = svg_has(&pos, &last, templates,
		    WANT(">White</text>", ">3 stacks, tax 2</text>",
			 ">Black to move</text>", ">2 stacks, tax 0</text>",
			 "<rect class=\"black on\"", "<rect class=\"white\""));
	ck_assert_int_eq(pt_count(s, "stroke=\"#f2c14e\""), 1);
	free(s);

	/* White to move, one black stack */
	pt_start(&pos, 3);
	pt_put(&pos, "c3", 2);
	pt_put(&pos, "e5", -1);
	free(svg_has(&pos, NULL, templates,
		     WANT(">White to move</text>", ">1 stack, tax 0</text>",
			  ">Black</text>", "<rect class=\"white on\"")));

	/* over: the winner's panel, nobody to move */
	pos.result = CORE_RESULT_BLACK;
	pos.end_reason = CORE_END_RESIGNATION;
	s = svg_has(&pos, NULL, templates,
		    WANT(">Black wins</text>", ">White</text>",
			 "<rect class=\"black on\""));
	ck_assert_ptr_null(strstr(s, "to move"));
	free(s);
	pos.result = CORE_RESULT_DRAW;
	s = svg_of(&pos, NULL, templates);
	ck_assert_int_eq(pt_count(s, ": draw</text>"), 2);
	ck_assert_ptr_null(strstr(s, " on\""));
	free(s);

	/* without templates: the panels, no words */
	s = svg_of(&pos, NULL, NULL);
	ck_assert_int_eq(pt_count(s, "<rect class="), 2);
	ck_assert_ptr_null(strstr(s, "stack"));
	free(s);
}
END_TEST

/* An arrow from the last move's source to its target: it starts at the
 * source (a cell left empty: its centre) and its head ends at the
 * target's disc; both cells lit. */
START_TEST(test_last_move_arrow)
{
	struct core_position pos;
	struct core_move last;
	double ex, ey, cx, cy, x0, y0, x1, y1, tx, ty;
	char *s;
	const char *a;

	pt_position(&pos, &last);
	s = svg_of(&pos, &last, templates);
	pt_centre(s, "e5", &ex, &ey);
	pt_centre(s, "c5", &cx, &cy);
	a = strstr(s, "<g class=\"arrow\"");
	ck_assert_ptr_nonnull(a);
	ck_assert_int_eq(pt_count(s, "class=\"arrow\""), 1);
	ck_assert_int_eq(sscanf(strstr(a, "<path d=\""), "<path d=\"M%lf %lfL%lf %lf",
				&x0, &y0, &x1, &y1), 4);
	ck_assert_int_eq(sscanf(strstr(strstr(a, "<path d=\"") + 1, "<path d=\""),
				"<path d=\"M%lf %lf", &tx, &ty), 2);
	/* e5 is empty now: from its centre (at disc height) ... */
	ck_assert_double_eq_tol(x0, ex, 0.2);
	ck_assert_double_eq_tol(y0, ey - 6, 0.2);
	/* ... towards c5, the head's tip at the edge of its disc */
	ck_assert(x1 < x0 && tx < x1);
	ck_assert_double_eq_tol(ty, cy - 6, 0.2);
	ck_assert(tx - cx > 12 && tx - cx < 16);
	/* drawn under the names, over the cells */
	ck_assert(a > strstr(s, "</g>"));
	ck_assert(a < strstr(s, "<g class=\"names\""));
	/* the two cells lit: one path of two hexagons */
	{
		const char *lit = strstr(s, "<path fill=\"#f2c14e\" d=\"");
		const char *end;

		ck_assert_ptr_nonnull(lit);
		end = strchr(lit + 24, '"');
		ck_assert_int_eq(pt_count(lit, "M") - pt_count(end, "M"), 2);
	}
	free(s);

	/* a swap has no cells: no arrow and nothing lit; nor has no move */
	last.kind = CORE_MOVE_SWAP;
	last.from = last.to = -1;
	s = svg_of(&pos, &last, templates);
	ck_assert_ptr_null(strstr(s, "class=\"arrow\""));
	ck_assert_ptr_null(strstr(s, "#f2c14e\" d="));
	free(s);
	s = svg_of(&pos, NULL, templates);
	ck_assert_ptr_null(strstr(s, "class=\"arrow\""));
	free(s);
}
END_TEST

/* A split leaves a stack on its source: the arrow starts at that disc's
 * edge, not under it. */
START_TEST(test_arrow_from_a_stack)
{
	struct core_position pos;
	struct core_move last;
	double ax, ay, x0, y0;
	char *s;
	const char *a;

	pt_start(&pos, 5);
	pt_put(&pos, "e5", 4);
	pt_put(&pos, "a1", -1);
	last = pt_play(&pos, "e5-e7/2");
	s = svg_of(&pos, &last, templates);
	pt_centre(s, "e5", &ax, &ay);
	a = strstr(s, "<g class=\"arrow\"");
	ck_assert_ptr_nonnull(a);
	ck_assert_int_eq(sscanf(strstr(a, "<path d=\""), "<path d=\"M%lf %lf",
				&x0, &y0), 2);
	ck_assert_double_eq_tol(hypot(x0 - ax, y0 - (ay - 6)), 14.5, 0.3);
	free(s);
}
END_TEST

/* The words are the operator's to change, and XML-escaped; a broken
 * template is an error, not a picture. */
START_TEST(test_words_escaped)
{
	char dir[] = "/tmp/ashes-svg-XXXXXX", path[64], tdir[512];
	const char *src = getenv("ASHES_SRCDIR"), *error = NULL;
	struct render_picture pic = { 0 };
	struct core_position pos;
	struct buf out = BUF_INIT;
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/picture.txt", dir);
	snprintf(tdir, sizeof(tdir), "%s/templates", src ? src : ".");
	f = fopen(path, "w");
	fputs("{{color}} <&> \"{{tax}}\"\n{{stacks}} 'x'\nnot shown\n", f);
	fclose(f);
	pic.templates = template_set_new(dir, tdir);
	pt_start(&pos, 3);
	ck_assert_int_eq(render_picture_svg(&pos, NULL, &pic, &out, &error), 0);
	ck_assert_ptr_nonnull(strstr(buf_str(&out),
		">white &lt;&amp;&gt; &quot;0&quot;</text>"));
	ck_assert_ptr_nonnull(strstr(buf_str(&out), ">0 &#39;x&#39;</text>"));
	ck_assert_ptr_null(strstr(buf_str(&out), "not shown"));
	template_set_free(&pic.templates);

	f = fopen(path, "w");
	fputs("{{#color}} never closed\n", f);
	fclose(f);
	pic.templates = template_set_new(dir, tdir);
	buf_reset(&out);
	ck_assert_int_eq(render_picture_svg(&pos, NULL, &pic, &out, &error), -1);
	ck_assert_ptr_nonnull(strstr(error, "picture.txt"));
	template_set_free(&pic.templates);
	unlink(path);
	rmdir(dir);
	buf_free(&out);
}
END_TEST

/* Self-contained (nothing fetched: no links, images, scripts or styles
 * from elsewhere) and small enough for a mail, at the biggest board too. */
START_TEST(test_small_and_self_contained)
{
	static const int sizes[] = { 3, 7, 13 };
	static const size_t max[] = { 6000, 20000, 64000 };

	for (size_t i = 0; i < 3; i++) {
		struct core_position pos;
		struct core_move last;
		char *s;

		pt_midgame(&pos, sizes[i], 4 * sizes[i], &last);
		s = svg_of(&pos, &last, templates);
		ck_assert_msg(strlen(s) < max[i], "size %d: %zu bytes", sizes[i],
			      strlen(s));
		ck_assert_ptr_null(strstr(s, "href"));
		ck_assert_ptr_null(strstr(s, "url("));
		ck_assert_ptr_null(strstr(s, "<image"));
		ck_assert_ptr_null(strstr(s, "<script"));
		ck_assert_ptr_null(strstr(s, "@import"));
		free(s);
	}
}
END_TEST

/* render_board_svg: the same picture without words. */
START_TEST(test_board_svg_no_words)
{
	struct core_position pos;
	struct core_move last;
	struct render_picture pic = { 0 };
	struct buf a = BUF_INIT, b = BUF_INIT;
	const char *error = NULL;

	pt_position(&pos, &last);
	render_board_svg(&pos, &last, &a);
	ck_assert_int_eq(render_picture_svg(&pos, &last, &pic, &b, &error), 0);
	ck_assert_str_eq(buf_str(&a), buf_str(&b));
	ck_assert_ptr_nonnull(strstr(buf_str(&a), "class=\"arrow\""));
	buf_free(&a);
	buf_free(&b);
}
END_TEST

TEST_MAIN("svg", "svg", pt_setup, pt_teardown, 0, test_cells_and_stacks,
	  test_names_legible, test_own_background, test_turn_and_counts,
	  test_last_move_arrow, test_arrow_from_a_stack, test_words_escaped,
	  test_small_and_self_contained, test_board_svg_no_words)
