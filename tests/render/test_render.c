/* test_render.c -- legal-move lists (grouped, cut, one per line), the
 * templates that show them, move words and the variables of a position,
 * against expectations worked out by hand from RULES-SPEC.md.  (The text
 * board: test_board.c; the picture: test_svg.c and test_png.c.) */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/notation.h"
#include "render/render.h"
#include "../check_run.h"
#include "picture_test.h"

START_TEST(test_moves_grouped)
{
	struct core_position pos;
	struct buf growth = BUF_INIT, stacks = BUF_INIT;

	pt_position_p(&pos);
	ck_assert_uint_eq(render_legal_moves_cut(&pos, 0, &growth, &stacks, NULL),
			  18);
	ck_assert_str_eq(buf_str(&growth), "");
	ck_assert_str_eq(buf_str(&stacks),
			 "a1: a2 a3x b1\n"
			 "e3: a3x d2 e4\n"
			 "e5: a1x b2 c3 c5 d4 d5 e3x e4  /1-2: a1x e3x\n");
	/* Too long for one line: wrapped at 72 under the first target, and
	 * each split group on a line of its own. */
	pt_start(&pos, 5);
	pt_put(&pos, "e5", 3);
	buf_reset(&stacks);
	render_legal_moves_cut(&pos, 0, NULL, &stacks, NULL);
	ck_assert_str_eq(buf_str(&stacks),
			 "e5: a1 a5 b2 b5 c3 c5 d4 d5 e1 e2 e3 e4 e6 e7 e8 e9 "
			 "f5 f6 g5 g7 h5 h8 i5\n"
			 "    i9\n"
			 "    /1-2: a1 a5 b2 b5 c3 c5 d4 d5 e1 e2 e3 e4 e6 e7 e8 e9 "
			 "f5 f6 g5 g7 h5\n"
			 "    h8 i5 i9\n");
	buf_free(&growth);
	buf_free(&stacks);
}
END_TEST

/* The list cut at max moves: whole entries, the mover's stacks first,
 * up to the first that would pass max.  position_p's entries hold 3 (a1),
 * 3 (e3) and 12 (e5) moves. */
START_TEST(test_moves_cut)
{
	static const struct {
		size_t max, listed;
		const char *stacks;
	} want[] = {
		{ 0, 18, "a1: a2 a3x b1\ne3: a3x d2 e4\n"
			 "e5: a1x b2 c3 c5 d4 d5 e3x e4  /1-2: a1x e3x\n" },
		{ 2, 0, "" },
		{ 3, 3, "a1: a2 a3x b1\n" },
		{ 6, 6, "a1: a2 a3x b1\ne3: a3x d2 e4\n" },
		{ 17, 6, "a1: a2 a3x b1\ne3: a3x d2 e4\n" },
		{ 18, 18, "a1: a2 a3x b1\ne3: a3x d2 e4\n"
			  "e5: a1x b2 c3 c5 d4 d5 e3x e4  /1-2: a1x e3x\n" },
	};
	struct core_position pos;

	pt_position_p(&pos);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct buf stacks = BUF_INIT;
		size_t listed = 99;

		ck_assert_uint_eq(render_legal_moves_cut(&pos, want[i].max, NULL,
							 &stacks, &listed), 18);
		ck_assert_uint_eq(listed, want[i].listed);
		ck_assert_str_eq(buf_str(&stacks), want[i].stacks);
		buf_free(&stacks);
	}
}
END_TEST

/* Size 3 after c3-a1 c3-e5: White's 2-stack on a1 and growth from the
 * empty cells.  The stack's entry (14 moves: 7 whole, 7 split) comes
 * before any growth, which the cut drops first. */
START_TEST(test_moves_cut_growth_last)
{
	struct core_position pos;
	struct buf growth = BUF_INIT, stacks = BUF_INIT;
	struct buf all_growth = BUF_INIT, all_stacks = BUF_INIT;
	size_t n, listed;

	pt_start(&pos, 3);
	pt_play(&pos, "c3-a1");
	pt_play(&pos, "c3-e5");
	n = render_legal_moves_cut(&pos, 0, &all_growth, &all_stacks, NULL);
	ck_assert_str_eq(buf_str(&all_stacks),
			 "a1: a2 a3 b1 b2 c1 d4 e5x  /1: a2 a3 b1 b2 c1 c3 d4\n");
	ck_assert_ptr_nonnull(strstr(buf_str(&all_growth), "b2 =1: a2 b1 b4 d2\n"));
	/* Room for the stack alone. */
	ck_assert_uint_eq(n, 56);
	ck_assert_uint_eq(render_legal_moves_cut(&pos, 14, &growth, &stacks,
						 &listed), n);
	ck_assert_uint_eq(listed, 14);
	ck_assert_str_eq(buf_str(&stacks), buf_str(&all_stacks));
	ck_assert_str_eq(buf_str(&growth), "");
	/* Room for the stack and the first growth entry (b2: 4 moves). */
	buf_reset(&growth);
	buf_reset(&stacks);
	render_legal_moves_cut(&pos, 18, &growth, &stacks, &listed);
	ck_assert_uint_eq(listed, 18);
	ck_assert_str_eq(buf_str(&growth), "b2 =1: a2 b1 b4 d2\n");
	/* Less than the stack's entry: nothing, not the growth after it. */
	buf_reset(&growth);
	buf_reset(&stacks);
	render_legal_moves_cut(&pos, 13, &growth, &stacks, &listed);
	ck_assert_uint_eq(listed, 0);
	ck_assert_str_eq(buf_str(&growth), "");
	ck_assert_str_eq(buf_str(&stacks), "");
	buf_free(&growth);
	buf_free(&stacks);
	buf_free(&all_growth);
	buf_free(&all_stacks);
}
END_TEST

/* A move list for pos: `list` counts n moves and writes exactly want. */
static void ck_moves(size_t (*list)(const struct core_position *,
				    struct buf *),
		     const struct core_position *pos, size_t n,
		     const char *want)
{
	struct buf out = BUF_INIT;

	ck_assert_uint_eq(list(pos, &out), n);
	ck_assert_str_eq(buf_str(&out), want);
	buf_free(&out);
}

/* One move per line for a player (`moves GAME`): the stacks first, by
 * source, the whole stack before its parts, targets in reading order;
 * swap; growth last. */
START_TEST(test_moves_lines)
{
	struct core_position pos;
	struct buf out = BUF_INIT, plain = BUF_INIT;
	const char *s;

	pt_position_p(&pos);
	ck_moves(render_legal_moves_lines, &pos, 18,
		 "a1-a2\na1xa3\na1-b1\n"
		 "e3xa3\ne3-d2\ne3-e4\n"
		 "e5xa1\ne5-b2\ne5-c3\ne5-c5\ne5-d4\ne5-d5\ne5xe3\ne5-e4\n"
		 "e5xa1/1\ne5xe3/1\ne5xa1/2\ne5xe3/2\n");
	/* Growth after the stack's moves. */
	pt_start(&pos, 3);
	pt_play(&pos, "c3-a1");
	pt_play(&pos, "c3-e5");
	buf_reset(&out);
	ck_assert_uint_eq(render_legal_moves_lines(&pos, &out),
			  render_legal_moves_plain(&pos, &plain));
	s = buf_str(&out);
	{
		static const char head[] =
			"a1-a2\na1-a3\na1-b1\na1-b2\na1-c1\na1-d4\na1xe5\n"
			"a1-a2/1\na1-a3/1\na1-b1/1\na1-b2/1\na1-c1/1\n"
			"a1-c3/1\na1-d4/1\nb2-a2\n";

		ck_assert_int_eq(strncmp(s, head, strlen(head)), 0);
	}
	/* Swap between the stacks and growth. */
	pt_start_swap(&pos, 3, true);
	pt_play(&pos, "c3-a1");
	buf_reset(&out);
	render_legal_moves_lines(&pos, &out);
	ck_assert_int_eq(strncmp(buf_str(&out), "swap\nb2-", 8), 0);
	buf_free(&out);
	buf_free(&plain);
}
END_TEST

/* mail/legal-moves.txt as each reader chose (`set moves`), and as the
 * short list when the service set no choice. */
static const char *legal_moves_mail(const struct core_position *pos,
				    size_t max, const char *flag)
{
	static struct buf out = BUF_INIT;
	struct template_ctx *ctx = template_ctx_new();
	const char *error;

	render_position_ctx_max(pos, max, ctx);
	template_ctx_set(ctx, "game", "7");
	if (flag != NULL)
		template_ctx_set_bool(ctx, flag, true);
	buf_reset(&out);
	if (template_render(templates, "mail/legal-moves.txt", ctx, &out,
			    &error) < 0)
		ck_abort_msg("mail/legal-moves.txt: %s", error);
	template_ctx_free(&ctx);
	return buf_str(&out);
}

START_TEST(test_legal_moves_mail)
{
	static const char stack_head[] =
		"Stacks (FROM: targets; /K: split K pieces; x: capture):\n"
		"a1: a2 a3 b1 b2 c1 d4 e5x  /1: a2 a3 b1 b2 c1 c3 d4\n";
	struct core_position pos;
	const char *s;

	pt_start(&pos, 3);
	pt_play(&pos, "c3-a1");
	pt_play(&pos, "c3-e5");
	/* No choice set, and `moves short`: cut at max, with the note. */
	for (int i = 0; i < 2; i++) {
		s = legal_moves_mail(&pos, 18, i ? "moves_short" : NULL);
		ck_assert_int_eq(strncmp(s, "Legal moves (56), the first 18:\n", 32), 0);
		ck_assert_ptr_nonnull(strstr(s, stack_head));
		ck_assert_ptr_nonnull(strstr(s, "Growth from an empty cell (=N: "
					     "the size of the new stack):\n"
					     "b2 =1: a2 b1 b4 d2\n\n"
					     "38 more are not listed: send "
					     "\"moves 7\" for all of them.\n"));
		ck_assert(strstr(s, "Stacks") < strstr(s, "Growth"));
	}
	/* Under the limit: all of them, no note. */
	s = legal_moves_mail(&pos, 250, NULL);
	ck_assert_int_eq(strncmp(s, "Legal moves (56):\n", 18), 0);
	ck_assert_ptr_null(strstr(s, "moves 7"));
	ck_assert_ptr_nonnull(strstr(s, "d4 =1: b4 d2 d5 e4\n"));
	/* `moves full`: all, whatever the limit. */
	s = legal_moves_mail(&pos, 18, "moves_full");
	ck_assert_int_eq(strncmp(s, "Legal moves (56):\n", 18), 0);
	ck_assert_ptr_nonnull(strstr(s, stack_head));
	ck_assert_ptr_nonnull(strstr(s, "d4 =1: b4 d2 d5 e4\n"));
	ck_assert(strstr(s, "Stacks") < strstr(s, "Growth"));
	ck_assert_ptr_null(strstr(s, "moves 7"));
	/* `moves none`: how many, and how to ask. */
	s = legal_moves_mail(&pos, 18, "moves_none");
	ck_assert_str_eq(s, "White has 56 legal moves; send \"moves 7\" for "
			 "the list.\n");
}
END_TEST

/* The default of [game] max_listed_moves, 250, keeps the list in a "your
 * move" mail under 60 lines on a board of size 7, through games of
 * growth and of stacks alike (moves picked by a fixed sequence). */
START_TEST(test_default_limit_size_7)
{
	unsigned long seed = 12345;
	int worst = 0;

	for (int game = 0; game < 12; game++) {
		struct core_position pos;

		pt_start(&pos, 7);
		for (int ply = 0; ply < 80 && pos.result == CORE_ONGOING; ply++) {
			size_t cap = core_legal_moves_bound(&pos) + 1, n, pick;
			struct core_move *moves = malloc(cap * sizeof(*moves));
			enum core_error err;
			const char *s;
			int lines = 0;

			ck_assert_ptr_nonnull(moves);
			s = legal_moves_mail(&pos, 250, NULL);
			for (; *s != '\0'; s++)
				lines += *s == '\n';
			if (lines > worst)
				worst = lines;
			n = core_legal_moves(&pos, moves, cap);
			ck_assert_uint_gt(n, 0);
			seed = seed * 6364136223846793005UL + 1442695040888963407UL;
			pick = (size_t)(seed >> 33) % n;
			/* Every other game prefers moving its stacks. */
			for (size_t k = 0; game % 2 && k < n; k++)
				if (moves[(pick + k) % n].kind != CORE_MOVE_GROWTH) {
					pick = (pick + k) % n;
					break;
				}
			ck_assert_int_eq(core_play(&pos, &moves[pick], NULL, &err), 0);
			free(moves);
		}
	}
	ck_assert_int_lt(worst, 60);
	ck_assert_int_gt(worst, 30); /* the limit is what bounds it */
}
END_TEST

/* The html alternative keeps every line as it is (a text board wrapped
 * on a narrow screen would put cells under the wrong names) and scrolls
 * sideways instead; the text stays escaped. */
START_TEST(test_board_html)
{
	struct template_ctx *ctx = template_ctx_new();
	struct buf out = BUF_INIT;
	const char *error, *s, *pre;

	template_ctx_set(ctx, "subject", "[ashes #7] a <b> & c");
	template_ctx_set(ctx, "game", "7");
	template_ctx_set(ctx, "ply", "3");
	template_ctx_set(ctx, "image_cid", "board.x@example.org");
	template_ctx_set(ctx, "text", "    c5  .   .   W3 e5\n<script>&\n");
	ck_assert_int_eq(template_render(templates, "mail/board.html", ctx, &out,
					 &error), 0);
	s = buf_str(&out);
	pre = strstr(s, "<pre ");
	ck_assert_ptr_nonnull(pre);
	ck_assert_ptr_nonnull(strstr(pre, "white-space: pre;"));
	ck_assert_ptr_null(strstr(s, "pre-wrap"));
	/* The block around it scrolls, not the page. */
	ck_assert_ptr_nonnull(strstr(s, "<div style=\"overflow-x: auto;"));
	ck_assert(strstr(s, "<div style=\"overflow-x: auto;") < pre);
	ck_assert_ptr_nonnull(strstr(pre, ">    c5  .   .   W3 e5\n"
				     "&lt;script&gt;&amp;\n</pre>"));
	ck_assert_ptr_nonnull(strstr(s, "<title>[ashes #7] a &lt;b&gt; &amp; c"
				     "</title>"));
	ck_assert_ptr_nonnull(strstr(s, "name=\"viewport\""));
	template_ctx_free(&ctx);
	buf_free(&out);
}
END_TEST

START_TEST(test_moves_plain)
{
	struct core_position pos;
	struct buf out = BUF_INIT;

	pt_position_p(&pos);
	ck_moves(render_legal_moves_plain, &pos, 18,
		 "a1-a2\na1-b1\na1xa3\n"
		 "e3-d2\ne3-e4\ne3xa3\n"
		 "e5-b2\ne5-c3\ne5-c5\ne5-d4\ne5-d5\ne5-e4\n"
		 "e5xa1\ne5xa1/1\ne5xa1/2\ne5xe3\ne5xe3/1\ne5xe3/2\n");
	pt_start(&pos, 5);
	ck_assert_uint_eq(render_legal_moves_plain(&pos, &out), 384);
	buf_free(&out);
}
END_TEST

START_TEST(test_moves_growth_rings)
{
	struct core_position pos;
	struct buf growth = BUF_INIT;
	const char *s;

	/* N = 3 opening: from the centre, ring 1 gives a 1-stack and ring 2
	 * a 2-stack; from a ring-1 cell only ring 2 (size 1). */
	pt_start(&pos, 3);
	ck_assert_uint_eq(render_legal_moves_cut(&pos, 0, &growth, NULL, NULL),
			  48);
	s = buf_str(&growth);
	ck_assert_ptr_nonnull(strstr(s, "c3 =1: b2 b3 c2 c4 d3 d4  "
				     "=2: a1 a3 c1 c5 e3 e5\n"));
	ck_assert_ptr_nonnull(strstr(s, "b2 =1: a1 a2 b1 b4 d2 e5\n"));
	ck_assert_ptr_null(strstr(s, "a1 ="));
	buf_reset(&growth);
	/* With tax 2, growth from the centre of N = 5 pays only from ring 3
	 * on, and the corners give 2 (the spec's worked check). */
	pt_start(&pos, 5);
	pos.tax[CORE_WHITE] = 2;
	render_legal_moves_cut(&pos, 0, &growth, NULL, NULL);
	ck_assert_ptr_nonnull(strstr(buf_str(&growth),
				     "e5 =1: b2 b5 e2 e8 h5 h8  "
				     "=2: a1 a5 e1 e9 i5 i9\n"));
	/* N = 7 opening: 1,296 moves, no line wider than a mail. */
	buf_reset(&growth);
	pt_start(&pos, 7);
	ck_assert_uint_eq(render_legal_moves_cut(&pos, 0, &growth, NULL, NULL),
			  1296);
	ck_assert_int_le(pt_widest_line(buf_str(&growth)), RENDER_TEXT_WIDTH);
	ck_assert_ptr_nonnull(strstr(buf_str(&growth), "\n   ")); /* wrapped */
	buf_free(&growth);
}
END_TEST

START_TEST(test_moves_swap_listed)
{
	struct core_position pos;
	struct buf stacks = BUF_INIT, plain = BUF_INIT;

	pt_start_swap(&pos, 3, true);
	pt_play(&pos, "c3-a1");
	render_legal_moves_cut(&pos, 0, NULL, &stacks, NULL);
	ck_assert_str_eq(buf_str(&stacks), "swap\n");
	render_legal_moves_plain(&pos, &plain);
	ck_assert_ptr_nonnull(strstr(buf_str(&plain), "\nswap\n"));
	buf_free(&stacks);
	buf_free(&plain);
}
END_TEST

/* The words for `text` played in pos. */
static const char *words(const struct core_position *pos, const char *text)
{
	static struct buf out = BUF_INIT;
	struct core_move m = pt_parse(pos, text);
	const char *error;

	buf_reset(&out);
	if (render_move_words(templates, pos, &m, &out, &error) < 0)
		ck_abort_msg("words for %s: %s", text, error);
	return buf_str(&out);
}

START_TEST(test_words_each_kind)
{
	struct core_position pos;
	struct core_move pass = { CORE_MOVE_PASS, false, -1, -1, 0 };
	struct buf out = BUF_INIT;
	const char *error;

	pt_start(&pos, 3);
	ck_assert_str_eq(words(&pos, "c3-a1"), "White grew a 2-stack on a1 from c3.");
	pt_play(&pos, "c3-a1");
	ck_assert_str_eq(words(&pos, "c3-e5"), "Black grew a 2-stack on e5 from c3.");
	pt_play(&pos, "c3-e5");
	ck_assert_str_eq(words(&pos, "a1-a3/1"), "White split 1 from a1 to a3.");
	pt_play(&pos, "a1-a3/1");
	ck_assert_str_eq(words(&pos, "e5-c5"),
			 "Black moved the 2-stack from e5 to c5, now a 1-stack.");
	pt_play(&pos, "e5-c5");
	ck_assert_str_eq(words(&pos, "a3xc5"),
			 "White moved the 1-stack from a3 to c5 and captured a "
			 "Black 1-stack (spent).");
	ck_assert_str_eq(words(&pos, "a1-a2"),
			 "White moved the 1-stack from a1 to a2 (spent).");

	/* Splits: paying the tax, onto an enemy and onto one's own stack. */
	pt_start(&pos, 5);
	pt_put(&pos, "e5", 3);
	pt_put(&pos, "e6", -1);
	pt_put(&pos, "d4", 1);
	pos.tax[CORE_WHITE] = 1;
	ck_assert_str_eq(words(&pos, "e5-e3/2"),
			 "White split 2 from e5 to e3, arriving as a 1-stack after tax.");
	ck_assert_str_eq(words(&pos, "e5xe6/2"),
			 "White split 2 from e5 to e6 and captured a Black 1-stack, "
			 "arriving as a 1-stack after tax.");
	ck_assert_str_eq(words(&pos, "e5xd4/1"),
			 "White split 1 from e5 to d4 and captured its own 1-stack.");
	ck_assert_str_eq(words(&pos, "e5xd4"),
			 "White moved the 3-stack from e5 to d4 and captured its "
			 "own 1-stack, now a 4-stack.");

	pt_start_swap(&pos, 3, true);
	pt_play(&pos, "c3-a1");
	ck_assert_str_eq(words(&pos, "swap"), "Black swapped colours.");
	ck_assert_int_eq(render_move_words(templates, &pos, &pass, &out,
					   &error), 0);
	ck_assert_str_eq(buf_str(&out), "Black had no legal move and passed.");

	/* An illegal move is refused with the rules' reason, as a code
	 * word (callers only log it; players get render_move_refusal()). */
	buf_reset(&out);
	{
		struct core_move m = pt_parse(&pos, "a1-e5");

		ck_assert_int_eq(render_move_words(templates, &pos, &m, &out,
						   &error), -1);
		ck_assert_str_eq(error, "not_your_stack");
	}
	buf_free(&out);
}
END_TEST

START_TEST(test_position_ctx)
{
	struct core_position pos;
	struct template_ctx *ctx = template_ctx_new();
	struct buf out = BUF_INIT;
	const char *error;

	pt_position_p(&pos);
	render_position_ctx(&pos, ctx);
	ck_assert_str_eq(template_ctx_get(ctx, "turn"), "white");
	ck_assert_str_eq(template_ctx_get(ctx, "moves_count"), "18");
	ck_assert_str_eq(template_ctx_get(ctx, "tax_white"), "2");
	ck_assert_str_eq(template_ctx_get(ctx, "stacks_white"), "3");
	ck_assert_str_eq(template_ctx_get(ctx, "stacks_black"), "2");
	ck_assert_str_eq(template_ctx_get(ctx, "result"), "ongoing");
	ck_assert_ptr_null(template_ctx_get(ctx, "over"));
	ck_assert_int_eq(template_render(templates, "show.txt", ctx, &out,
					 &error), 0);
	ck_assert_ptr_nonnull(strstr(buf_str(&out),
				     "    a1  W1  .   B2 c1\n"
				     "Rows are named at both ends; cells run in "
				     "letter order: c5 d5 e5.\n"
				     "White to move, ply 1.\nTax: white 2, black 0.  "
				     "Stacks: white 3, black 2.\n"));
	template_ctx_free(&ctx);

	/* White spends its last stack with tax 3: eliminated. */
	pt_start(&pos, 3);
	pt_play(&pos, "c3-a1");
	pt_play(&pos, "c3-e5");
	pt_play(&pos, "a1-a3/1");
	pt_play(&pos, "e5-c5");
	pt_play(&pos, "a3xc5");
	pt_play(&pos, "c3-c1");
	pt_play(&pos, "a1-a2");
	ck_assert_int_eq(pos.result, CORE_RESULT_BLACK);
	ctx = template_ctx_new();
	render_position_ctx(&pos, ctx);
	ck_assert_str_eq(template_ctx_get(ctx, "moves_count"), "0");
	buf_reset(&out);
	ck_assert_int_eq(template_render(templates, "show.txt", ctx, &out,
					 &error), 0);
	ck_assert_ptr_nonnull(strstr(buf_str(&out),
				     "Game over at ply 7: Black wins by elimination.\n"));
	template_ctx_free(&ctx);
	buf_free(&out);
}
END_TEST

TEST_MAIN("render", "render", pt_setup, pt_teardown, 0, test_moves_grouped,
	  test_moves_cut, test_moves_cut_growth_last, test_moves_lines,
	  test_legal_moves_mail, test_default_limit_size_7, test_board_html,
	  test_moves_plain, test_moves_growth_rings, test_moves_swap_listed,
	  test_words_each_kind, test_position_ctx)
