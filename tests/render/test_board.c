/* test_board.c -- the text board read as a player reads it: every cell of
 * every size found by the names printed at the row ends (never by the
 * code's own coordinates), the widths mails allow, and the line under the
 * board that says how to read it. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "render/render.h"
#include "../check_run.h"
#include "picture_test.h"

/* ---- a player's reading of the board ---- */

/* One thing printed on a row line: a name ("d8"), a stack ("W3", "B12"),
 * a marker ("*1") or an empty cell ("."), and where it starts. */
struct token {
	char text[16];
	int col;
	bool name;
};

#define ROW_MAX 32
struct row {
	struct token t[ROW_MAX];
	int n;
};

/* Reads a line the way the key under the board tells a player to: a
 * lower-case letter and digits is a name, W or B and digits a stack, *
 * and digits a marker, "." an empty cell.  Things may touch ("W3B12"):
 * a capital letter, "*" or "." starts a new one. */
static void read_row(const char *line, size_t len, struct row *r)
{
	size_t i = 0;

	r->n = 0;
	while (i < len) {
		struct token *t = &r->t[r->n];
		size_t start = i, k = 0;

		if (line[i] == ' ') {
			i++;
			continue;
		}
		ck_assert_int_lt(r->n, ROW_MAX);
		t->col = (int)i;
		t->name = line[i] >= 'a' && line[i] <= 'z';
		ck_assert_msg(t->name || line[i] == 'W' || line[i] == 'B' ||
			      line[i] == '*' || line[i] == '.',
			      "unreadable at column %zu: %.*s", i, (int)len, line);
		t->text[k++] = line[i++];
		if (line[start] != '.')
			while (i < len && line[i] >= '0' && line[i] <= '9' &&
			       k < sizeof(t->text) - 1)
				t->text[k++] = line[i++];
		t->text[k] = '\0';
		r->n++;
	}
}

/* The board's row lines, read: rows[i] is the i-th line from the top,
 * *legend_r where the legend ("*1 = ...") starts (or the end). */
static int read_board(const char *board, struct row *rows, int max,
		      const char **legend_r)
{
	const char *s = board;
	int n = 0;

	while (*s != '\0' && *s != '*') {
		const char *eol = strchr(s, '\n');

		ck_assert_ptr_nonnull(eol);
		ck_assert_int_lt(n, max);
		read_row(s, (size_t)(eol - s), &rows[n++]);
		s = eol + 1;
	}
	*legend_r = s;
	return n;
}

/* The cell named `want` found as a player finds it: the line whose first
 * name has the same row number, then as many cells on from that name as
 * the letters are apart.  With right names, also counted back from the
 * line's last name, which must agree.  The cell's token (copied to
 * tok_r); false if no line or no such cell. */
static bool find_cell(const struct row *rows, int nrows, const char *want,
		      bool right, struct token *tok_r)
{
	for (int i = 0; i < nrows; i++) {
		const struct row *r = &rows[i];
		const struct token *first = &r->t[0];
		int cells = r->n - 1 - (right ? 1 : 0), k;

		ck_assert_msg(first->name, "a row begins with a name: %s",
			      first->text);
		if (strcmp(first->text + 1, want + 1) != 0)
			continue;
		k = want[0] - first->text[0];
		if (k < 0 || k >= cells)
			return false;
		if (right) {
			const struct token *last = &r->t[r->n - 1];

			ck_assert_msg(last->name, "a row ends with a name");
			ck_assert_str_eq(last->text + 1, first->text + 1);
			/* Counting back from the right gives the same. */
			ck_assert_int_eq(cells - 1 - (last->text[0] - want[0]), k);
		}
		*tok_r = r->t[1 + k];
		return true;
	}
	return false;
}

/* For every size and every cell, with a lone stack there: the player's
 * reading of the labels lands on that stack, and nothing else on the
 * board is one.  A stack anywhere else would mean a move to the wrong
 * cell. */
START_TEST(test_every_cell_found_by_its_names)
{
	for (int size = CORE_MIN_SIZE; size <= CORE_MAX_SIZE; size++) {
		struct core_position pos;
		struct buf example = BUF_INIT;
		bool right;

		pt_start(&pos, size);
		right = render_board_key(pos.geom, &example);
		/* Both ends named wherever that fits: all but size 13. */
		ck_assert_int_eq(right, size < 13);
		for (int c = 0; c < pos.geom->ncells; c++) {
			struct row rows[2 * CORE_MAX_SIZE];
			struct buf out = BUF_INIT;
			const char *legend;
			struct token tok;
			int nrows, stacks = 0;

			memset(pos.stack, 0, sizeof(pos.stack));
			pos.stack[c] = c % 2 ? -(c % 97 + 1) : c % 97 + 1;
			render_board(&pos, &out);
			nrows = read_board(buf_str(&out), rows, 2 * CORE_MAX_SIZE,
					   &legend);
			ck_assert_int_eq(nrows, 2 * size - 1);
			ck_assert_str_eq(legend, "");
			ck_assert_msg(find_cell(rows, nrows, pos.geom->name[c],
						right, &tok),
				      "size %d: %s not found in\n%s", size,
				      pos.geom->name[c], buf_str(&out));
			ck_assert_msg(tok.text[0] == (c % 2 ? 'B' : 'W') &&
				      atoi(tok.text + 1) == c % 97 + 1,
				      "size %d: %s read as %s in\n%s", size,
				      pos.geom->name[c], tok.text, buf_str(&out));
			for (int i = 0; i < nrows; i++)
				for (int k = 0; k < rows[i].n; k++)
					stacks += rows[i].t[k].text[0] == 'W' ||
						rows[i].t[k].text[0] == 'B';
			ck_assert_int_eq(stacks, 1);
			buf_free(&out);
		}
		buf_free(&example);
	}
}
END_TEST

/* Every row's names are its first and last cells, every cell is on its
 * row, and nothing but the cells: on a board full of stacks as wide as
 * they get, where neighbours may touch. */
START_TEST(test_full_board_rows)
{
	for (int size = CORE_MIN_SIZE; size <= CORE_MAX_SIZE; size++) {
		struct core_position pos;
		struct row rows[2 * CORE_MAX_SIZE];
		struct buf out = BUF_INIT, example = BUF_INIT;
		const char *legend;
		bool right;
		int nrows, cells = 0;

		pt_start(&pos, size);
		right = render_board_key(pos.geom, &example);
		for (int c = 0; c < pos.geom->ncells; c++)
			pos.stack[c] = c % 3 ? -(10 + c % 90) : 99;
		render_board(&pos, &out);
		nrows = read_board(buf_str(&out), rows, 2 * CORE_MAX_SIZE,
				   &legend);
		ck_assert_int_eq(nrows, 2 * size - 1);
		for (int i = 0; i < nrows; i++) {
			const struct row *r = &rows[i];
			int n = r->n - 1 - (right ? 1 : 0);

			/* Row numbers from 2N - 1 at the top down to 1. */
			ck_assert_int_eq(atoi(r->t[0].text + 1), 2 * size - 1 - i);
			for (int k = 1; k <= n; k++)
				ck_assert_msg(!r->t[k].name, "size %d row %d: %s",
					      size, i, r->t[k].text);
			if (right) {
				char last[8];

				snprintf(last, sizeof(last), "%c%s",
					 r->t[0].text[0] + n - 1,
					 r->t[0].text + 1);
				ck_assert_str_eq(r->t[r->n - 1].text, last);
			}
			cells += n;
		}
		ck_assert_int_eq(cells, pos.geom->ncells);
		/* Each stack where its name says. */
		for (int c = 0; c < pos.geom->ncells; c++) {
			struct token tok;
			char label[8];

			ck_assert(find_cell(rows, nrows, pos.geom->name[c], right,
					    &tok));
			snprintf(label, sizeof(label), "%c%d",
				 c % 3 ? 'B' : 'W', c % 3 ? 10 + c % 90 : 99);
			ck_assert_str_eq(tok.text, label);
		}
		buf_free(&out);
		buf_free(&example);
	}
}
END_TEST

/* No line wider than a mail: 72 columns up to size 9, 78 (RFC 5322's
 * line) at sizes 10 to 13, with two-digit stacks everywhere. */
START_TEST(test_widths)
{
	for (int size = CORE_MIN_SIZE; size <= CORE_MAX_SIZE; size++) {
		struct core_position pos;
		struct buf out = BUF_INIT;
		int limit = size <= 9 ? 72 : 78;

		ck_assert_int_eq(render_board_width(size), limit);
		pt_start(&pos, size);
		for (int c = 0; c < pos.geom->ncells; c++)
			pos.stack[c] = c % 2 ? -99 : 88;
		render_board(&pos, &out);
		ck_assert_msg(pt_widest_line(buf_str(&out)) <= limit,
			      "size %d: %d columns\n%s", size,
			      pt_widest_line(buf_str(&out)), buf_str(&out));
		buf_free(&out);
	}
}
END_TEST

/* Up to size 9 cells are 4 columns apart: no two stacks ever touch, and
 * a name touches a two-digit stack only on the middle row of size 9,
 * the one row too wide for the blank, when the stack beside it leaves
 * no room to step aside. */
START_TEST(test_no_touching_up_to_size_9)
{
	for (int size = CORE_MIN_SIZE; size <= 9; size++) {
		struct core_position pos;
		struct row rows[2 * CORE_MAX_SIZE];
		struct buf out = BUF_INIT;
		const char *legend;
		int nrows;

		pt_start(&pos, size);
		for (int c = 0; c < pos.geom->ncells; c++)
			pos.stack[c] = -(10 + c % 90);
		render_board(&pos, &out);
		nrows = read_board(buf_str(&out), rows, 2 * CORE_MAX_SIZE,
				   &legend);
		for (int i = 0; i < nrows; i++)
			for (int k = 1; k < rows[i].n; k++) {
				const struct token *a = &rows[i].t[k - 1];
				bool touch = a->col + (int)strlen(a->text) ==
					rows[i].t[k].col;

				ck_assert_msg(!touch || (size == 9 && i == 8 &&
							 k == 1),
					      "size %d, line %d: %s touches %s",
					      size, i, a->text, rows[i].t[k].text);
			}
		buf_free(&out);
	}
}
END_TEST

/* The position and its drawing the hand-made boards below share; the
 * buffer is freed after each test. */
static struct core_position board_pos;
static struct buf board_out = BUF_INIT;

/* board_pos drawn afresh. */
static const char *drawn(void)
{
	buf_reset(&board_out);
	render_board(&board_pos, &board_out);
	return buf_str(&board_out);
}

static void board_teardown(void)
{
	buf_free(&board_out);
	pt_teardown();
}

/* The exact look of two small boards: names at both ends, "." empty,
 * the stacks' labels on their cells; three-digit stacks as markers with
 * a legend naming their cells. */
START_TEST(test_board_n3_exact)
{
	pt_start(&board_pos, 3);
	ck_assert_str_eq(drawn(),
			 "    c5  .   .   .  e5\n"
			 "  b4  .   .   .   .  e4\n"
			 "a3  .   .   .   .   .  e3\n"
			 "  a2  .   .   .   .  d2\n"
			 "    a1  .   .   .  c1\n");
	pt_put(&board_pos, "a1", 1);
	pt_put(&board_pos, "e5", 3);
	pt_put(&board_pos, "e3", 12);
	pt_put(&board_pos, "c1", -2);
	pt_put(&board_pos, "a3", -123);
	ck_assert_str_eq(drawn(),
			 "    c5  .   .   W3 e5\n"
			 "  b4  .   .   .   .  e4\n"
			 "a3  *1  .   .   .  W12 e3\n"
			 "  a2  .   .   .   .  d2\n"
			 "    a1  W1  .   B2 c1\n"
			 "*1 = B123 (a3)\n");
}
END_TEST

/* Size 13, the widest: cells 3 apart, names on the left only, the
 * middle row's name right against its first cell's column. */
START_TEST(test_board_n13_rows)
{
	const char *s;

	pt_start(&board_pos, 13);
	pt_put(&board_pos, "a13", -12);
	pt_put(&board_pos, "b13", 3);
	pt_put(&board_pos, "y13", 45);
	s = drawn();
	ck_assert_ptr_nonnull(strstr(s, "\n"
				     "a13B12 W3 .  .  .  .  .  .  .  .  .  .  .  "
				     ".  .  .  .  .  .  .  .  .  .  . W45\n"));
	ck_assert_int_eq(strncmp(s, "                 m25  .  .  .", 29), 0);
	ck_assert_int_eq(pt_widest_line(s), 78);
	/* The 12-stack the opening grows on a13 steps aside from the name
	 * when the cell beside it is empty. */
	pt_put(&board_pos, "b13", 0);
	ck_assert_ptr_nonnull(strstr(drawn(), "\na13 B12.  .  .  "));
}
END_TEST

/* Size 9's middle row has no room for the blank after its name either;
 * a two-digit stack there steps right, clear of both neighbours. */
START_TEST(test_board_n9_middle_row)
{
	const char *s;

	pt_start(&board_pos, 9);
	pt_put(&board_pos, "a9", 16);
	pt_put(&board_pos, "q9", -16);
	s = drawn();
	ck_assert_ptr_nonnull(strstr(s, "\na9 W16 .   .   "));
	ck_assert_ptr_nonnull(strstr(s, "  .  B16 q9\n"));
	ck_assert_int_eq(pt_widest_line(s), 72);
}
END_TEST

/* The line under the board, as `ashes show` prints it: how to read the
 * names, with the top row as the example. */
START_TEST(test_key_under_board)
{
	static const struct {
		int size;
		const char *line;
	} want[] = {
		{ 3, "\nRows are named at both ends; cells run in letter order: "
		     "c5 d5 e5.\n" },
		{ 5, "\nRows are named at both ends; cells run in letter order: "
		     "e9 f9 ... i9.\n" },
		{ 9, "\nRows are named at both ends; cells run in letter order: "
		     "i17 j17 ... q17.\n" },
		{ 13, "\nRows are named at their left end; cells run in letter "
		      "order: m25 n25 ... y25.\n" },
	};

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct core_position pos;
		struct template_ctx *ctx = template_ctx_new();
		struct buf out = BUF_INIT;
		const char *error, *s;

		pt_start(&pos, want[i].size);
		render_position_ctx(&pos, ctx);
		ck_assert_int_eq(template_render(templates, "show.txt", ctx, &out,
						 &error), 0);
		s = buf_str(&out);
		ck_assert_msg(strstr(s, want[i].line) != NULL, "%s", s);
		/* Right under the board's last row, the one of a1. */
		{
			const char *key = strstr(s, want[i].line);
			const char *prev = key;

			while (prev > s && prev[-1] != '\n')
				prev--;
			prev += strspn(prev, " ");
			ck_assert_int_eq(strncmp(prev, "a1 ", 3), 0);
		}
		ck_assert_int_le(pt_widest_line(s), render_board_width(want[i].size));
		template_ctx_free(&ctx);
		buf_free(&out);
	}
}
END_TEST

TEST_MAIN("board", "board", pt_setup, board_teardown, 60,
	  test_every_cell_found_by_its_names, test_full_board_rows,
	  test_widths, test_no_touching_up_to_size_9, test_board_n3_exact,
	  test_board_n13_rows, test_board_n9_middle_row, test_key_under_board)
