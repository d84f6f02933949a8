/* picture_test.h -- fixtures shared by the render tests (test_svg.c,
 * the SVG's elements; test_png.c, the PNG decoded back; test_board.c and
 * test_render.c, the text board and move lists): the real templates,
 * positions built by hand or played, the widest line of a text, and the
 * centre of a cell as the SVG draws it (read back from the picture
 * itself, so the tests do not repeat the layout's arithmetic). */
#ifndef ASHES_TEST_PICTURE_H
#define ASHES_TEST_PICTURE_H

#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/notation.h"
#include "render/render.h"

static struct template_set *templates;

static inline void pt_setup(void)
{
	const char *src = getenv("ASHES_SRCDIR");
	char dir[512];

	snprintf(dir, sizeof(dir), "%s/templates", src != NULL ? src : ".");
	templates = template_set_new(NULL, dir);
}

static inline void pt_teardown(void)
{
	template_set_free(&templates);
}

/* The start of a game of size N, with the swap rule or not. */
static inline void pt_start_swap(struct core_position *pos, int size,
				 bool swap)
{
	struct core_variant v;
	enum core_error err;

	core_variant_default(&v);
	v.size = size;
	v.swap = swap;
	ck_assert_int_eq(core_position_init(pos, &v, &err), 0);
}

static inline void pt_start(struct core_position *pos, int size)
{
	pt_start_swap(pos, size, false);
}

/* Put a stack by hand: > 0 white, < 0 black. */
static inline void pt_put(struct core_position *pos, const char *cell, int32_t stack)
{
	int c = core_cell_parse(pos->geom, cell, strlen(cell));

	ck_assert_int_ge(c, 0);
	pos->stack[c] = stack;
	core_position_refresh(pos);
}

/* The move text reads as in pos (the test fails if it does not). */
static inline struct core_move pt_parse(const struct core_position *pos,
					const char *text)
{
	struct core_move m;
	enum core_error err;

	if (notation_parse_move(pos, text, strlen(text), &m, &err) < 0)
		ck_abort_msg("cannot parse %s: %s", text, core_error_name(err));
	return m;
}

/* Play text in pos; returns the move as played. */
static inline struct core_move pt_play(struct core_position *pos,
				       const char *text)
{
	struct core_move m = pt_parse(pos, text);
	enum core_error err;

	if (core_play(pos, &m, NULL, &err) < 0)
		ck_abort_msg("cannot play %s: %s", text, core_error_name(err));
	return m;
}

/* N = 3, White to move, tax white 2: W1 a1, W3 e5, W1 e3, B2 c1, B1 a3.
 * With tax 2 no growth pays on N = 3, so only the three stacks move. */
static inline void pt_position_p(struct core_position *pos)
{
	pt_start(pos, 3);
	pt_put(pos, "a1", 1);
	pt_put(pos, "e5", 3);
	pt_put(pos, "e3", 1);
	pt_put(pos, "c1", -2);
	pt_put(pos, "a3", -1);
	pos->tax[CORE_WHITE] = 2;
	core_position_refresh(pos);
}

/* pt_position_p, then White plays e5-c5 (the W3 goes sideways: a W2 on
 * c5).  Black to move; `last` gets the move. */
static inline void pt_position(struct core_position *pos,
			       struct core_move *last)
{
	pt_position_p(pos);
	*last = pt_play(pos, "e5-c5");
}

/* A deterministic mid-game at size N: `plies` plies of a fixed
 * pseudo-random playout; `last` (may be NULL) gets the last move. */
static inline void pt_midgame(struct core_position *pos, int size, int plies,
		       struct core_move *last)
{
	static struct core_move moves[8192];
	uint64_t r = 88172645463325252ULL;

	pt_start(pos, size);
	for (int i = 0; i < plies && pos->result == CORE_ONGOING; i++) {
		size_t n = core_legal_moves(pos, moves, 8192);

		if (n == 0)
			break;
		if (n > 8192)
			n = 8192;
		r ^= r << 13;
		r ^= r >> 7;
		r ^= r << 17;
		if (last != NULL)
			*last = moves[r % n];
		core_play_unchecked(pos, &moves[r % n], NULL);
	}
}

/* The centre of cell `name` in an SVG from render_picture_svg(): its
 * name is drawn 17 units under it (render_svg.c). */
static inline void pt_centre(const char *svg, const char *name, double *x, double *y)
{
	char tail[16];
	const char *p, *line;

	snprintf(tail, sizeof(tail), "\">%s</text>", name);
	p = strstr(svg, tail);
	ck_assert_msg(p != NULL, "no cell %s", name);
	for (line = p; line > svg && line[-1] != '\n'; line--)
		;
	ck_assert_int_eq(sscanf(line, "<text x=\"%lf\" y=\"%lf\">", x, y), 2);
	*y -= 17;
}

/* The length of the longest line of s. */
static inline int pt_widest_line(const char *s)
{
	int widest = 0, col = 0;

	for (; *s != '\0'; s++) {
		if (*s == '\n') {
			col = 0;
			continue;
		}
		if (++col > widest)
			widest = col;
	}
	return widest;
}

/* How many times what occurs in s. */
static inline int pt_count(const char *s, const char *what)
{
	int n = 0;

	while ((s = strstr(s, what)) != NULL) {
		n++;
		s++;
	}
	return n;
}

#endif
