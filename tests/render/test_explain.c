/* test_explain.c -- the words of a refusal: every section of
 * templates/rule.txt and templates/explain.txt, word for word, and
 * render_move_refusal() filling a refusal template.  A change of wording
 * shows up here as a diff of expected text.  (The reason codes and numbers
 * behind them are tested in tests/core/test_explain.c.)
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/notation.h"
#include "render/render.h"
#include "../check_run.h"

static struct template_set *templates;
static struct buf out;

static void setup(void)
{
	const char *src = getenv("ASHES_SRCDIR");
	char dir[512];

	snprintf(dir, sizeof(dir), "%s/templates", src != NULL ? src : ".");
	templates = template_set_new(NULL, dir);
	memset(&out, 0, sizeof(out));
}

static void teardown(void)
{
	buf_free(&out);
	template_set_free(&templates);
}

/* Size N, stacks "e5=W3 c3=B2 ...", taxes, `to_move`, at ply 10. */
static void pos_of(struct core_position *p, int size, const char *stacks,
		   int tax_w, int tax_b, enum core_color to_move)
{
	struct core_variant v;
	enum core_error err;
	char list[256], *save = NULL;

	core_variant_default(&v);
	v.size = size;
	ck_assert_int_eq(core_position_init(p, &v, &err), 0);
	snprintf(list, sizeof(list), "%s", stacks);
	for (char *t = strtok_r(list, " ", &save); t != NULL;
	     t = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(t, '=');
		int c = core_cell_parse(p->geom, t, (size_t)(eq - t));

		ck_assert_int_ge(c, 0);
		p->stack[c] = (eq[1] == 'W' ? 1 : -1) * atoi(eq + 2);
	}
	p->tax[CORE_WHITE] = tax_w;
	p->tax[CORE_BLACK] = tax_b;
	p->to_move = (uint8_t)to_move;
	p->ply = 10;
	core_position_refresh(p);
}

/* The explanation of `text` in p: parsed, checked, and the refusal (or
 * "legal") in words.  A text the notation refuses is explained with what
 * it could read (the parser fills the cells it found). */
static const char *why(const struct core_position *p, const char *text)
{
	struct core_move m = { .kind = CORE_MOVE_WHOLE, .from = -1, .to = -1 };
	enum core_error err = CORE_OK;
	const char *error;

	if (notation_parse_move(p, text, strlen(text), &m, &err) == 0)
		core_check_move(p, &m, &err);
	buf_reset(&out);
	if (render_explain(templates, p, &m, err, &out, &error) < 0)
		ck_abort_msg("%s", error);
	return buf_str(&out);
}

static const char *rule(enum core_error err)
{
	const char *error;

	buf_reset(&out);
	if (render_rule(templates, err, &out, &error) < 0)
		ck_abort_msg("%s", error);
	return buf_str(&out);
}

START_TEST(t_rules)
{
	static const char *const words[] = {
		[CORE_OK] = "no error",
		[CORE_ERR_SYNTAX] = "not a move: write FROM-TO or FROM-TO/K",
		[CORE_ERR_UNKNOWN_CELL] = "no such cell on this board",
		[CORE_ERR_SAME_CELL] = "a move must go to another cell",
		[CORE_ERR_NOT_VISIBLE] = "the target is not visible from the start",
		[CORE_ERR_TARGET_BIGGER] = "the target is bigger than the moving stack",
		[CORE_ERR_NOT_YOUR_STACK] = "that stack is not yours",
		[CORE_ERR_GROWTH_NOT_OUTWARD] = "a growth move must go outward",
		[CORE_ERR_TAX_NOT_PAYABLE] = "the tax cannot be paid",
		[CORE_ERR_TOO_FAR_INWARD] = "the stack would shrink below nothing",
		[CORE_ERR_PART_TOO_BIG] = "the part is bigger than the stack",
		[CORE_ERR_PART_WHOLE_STACK] = "the part is the whole stack: leave the count off",
		[CORE_ERR_PART_ZERO] = "a part must have at least one piece",
		[CORE_ERR_PART_OF_EMPTY] = "an empty cell cannot be split",
		[CORE_ERR_SWAP_NOT_ALLOWED] = "swap is not allowed here",
		[CORE_ERR_PASS_NOT_FORCED] = "a player who can move must move",
		[CORE_ERR_GAME_OVER] = "the game is over",
		[CORE_ERR_BAD_SIZE] = "the board size must be 3 to 13",
		[CORE_ERR_BAD_VARIANT] = "unknown variant option",
		[CORE_ERR_RECORD] = "malformed game record",
		[CORE_ERR_NO_MEMORY] = "out of memory",
		[CORE_ERR_BAD_ARGUMENT] = "invalid argument",
	};

	for (size_t e = 0; e < sizeof(words) / sizeof(words[0]); e++)
		ck_assert_str_eq(rule((enum core_error)e), words[e]);
	ck_assert_str_eq(rule((enum core_error)99), "unknown error");
	ck_assert_str_eq(rule((enum core_error)-1), "unknown error");
}
END_TEST

/* A refused move and the sentence for it, in a size-5 position with
 * these stacks and taxes. */
struct why_case {
	const char *stacks;
	int tax_w, tax_b;
	enum core_color to_move;
	const char *move, *want;
};

static void ck_why(const struct why_case *cases, size_t n)
{
	struct core_position p;

	for (size_t i = 0; i < n; i++) {
		pos_of(&p, 5, cases[i].stacks, cases[i].tax_w, cases[i].tax_b,
		       cases[i].to_move);
		ck_assert_str_eq(why(&p, cases[i].move), cases[i].want);
	}
}

START_TEST(t_sight_and_size)
{
	static const struct why_case cases[] = {
		{ "a1=W1 c3=B1 e9=B1", 0, 0, CORE_WHITE, "a1-d4",
		  "d4 is not visible from a1: c3 is in the way" },
		{ "a1=W1 c3=B1 e9=B1", 0, 0, CORE_WHITE, "a1-b3",
		  "b3 is not visible from a1: it is not on one of the six lines through a1" },
		{ "a1=W1 c3=B1 e9=B1", 0, 0, CORE_WHITE, "b2-d4",
		  "d4 is not visible from b2: c3 is in the way" },
		{ "d4=W2 e9=B1", 0, 0, CORE_WHITE, "d4-d4",
		  "d4-d4 does not go anywhere: a move must end on another cell than d4" },
		{ "d4=W2 b2=B3", 0, 0, CORE_WHITE, "d4-b2",
		  "the stack on b2 (3) is bigger than the moving stack (2)" },
		{ "d4=W5 b2=W3 e9=B1", 0, 0, CORE_WHITE, "d4xb2/2",
		  "the stack on b2 (3) is bigger than the moving part (2)" },
		{ "a1=B1 e9=W1", 0, 0, CORE_WHITE, "e5-a1",
		  "e5 is empty, so e5xa1 is a growth move, which needs an empty target, but a1 holds a stack (1)" },
	};

	ck_why(cases, sizeof(cases) / sizeof(cases[0]));
}
END_TEST

START_TEST(t_growth_and_tax)
{
	static const struct why_case cases[] = {
		{ "", 0, 0, CORE_WHITE, "d4-e4",
		  "d4 is empty, so d4-e4 is a growth move, which must go away from the centre, but e4 (distance 1) is no farther out than d4 (distance 1)" },
		{ "", 4, 0, CORE_WHITE, "e5-a1",
		  "growing from e5 to a1 gains 4 pieces, but white's tax is 4, which would leave 0: a new stack needs at least 1 piece" },
		{ "", 0, 2, CORE_BLACK, "d4-c3",
		  "growing from d4 to c3 gains 1 piece, but black's tax is 2, which would leave -1: a new stack needs at least 1 piece" },
		{ "d4=W5 e9=B1", 2, 0, CORE_WHITE, "d4-b2/2",
		  "the part of 2 pieces must pay white's tax of 2 on arriving at b2, which would leave 0: a new stack needs at least 1 piece" },
		{ "d4=W5 b2=B1 e9=B1", 1, 0, CORE_WHITE, "d4xb2/1",
		  "the part of 1 piece must pay white's tax of 1 on arriving at b2, which would leave 0: a new stack needs at least 1 piece" },
		{ "a1=W2 e9=B1", 0, 0, CORE_WHITE, "a1-e5",
		  "the stack on a1 (2) cannot move in to e5: it would lose 5 pieces (1, plus 4 for coming 4 steps closer to the centre), but it has only 2" },
		{ "a1=W1 e9=B1", 0, 0, CORE_WHITE, "a1-b2",
		  "the stack on a1 (1) cannot move in to b2: it would lose 2 pieces (1, plus 1 for coming 1 step closer to the centre), but it has only 1" },
	};

	ck_why(cases, sizeof(cases) / sizeof(cases[0]));
}
END_TEST

START_TEST(t_parts_and_owner)
{
	static const struct why_case cases[] = {
		{ "d4=W5 b2=B2 a1=W1 e9=B1", 0, 0, CORE_WHITE, "d4-c3/5",
		  "d4-c3/5 names the whole stack on d4: leave the count off (d4-c3)" },
		{ "d4=W5 b2=B2 a1=W1 e9=B1", 0, 0, CORE_WHITE, "d4xb2/5",
		  "d4xb2/5 names the whole stack on d4: leave the count off (d4xb2)" },
		{ "d4=W5 b2=B2 a1=W1 e9=B1", 0, 0, CORE_WHITE, "a1-b1/1",
		  "a1-b1/1 names the whole stack on a1: leave the count off (a1-b1)" },
		{ "d4=W5 b2=B2 a1=W1 e9=B1", 0, 0, CORE_WHITE, "d4-c3/7",
		  "d4-c3/7 asks for 7 pieces, but the stack on d4 has only 5" },
		{ "d4=W5 b2=B2 a1=W1 e9=B1", 0, 0, CORE_WHITE, "d4-c3/0",
		  "d4-c3/0 moves no pieces: a part must have at least 1 piece" },
		{ "d4=W5 b2=B2 a1=W1 e9=B1", 0, 0, CORE_WHITE, "e5-f6/2",
		  "e5 is empty, so there is nothing to split: a growth move from e5 is written without a count (e5-f6)" },
		{ "d4=W5 b2=B2 a1=W1 e9=B1", 0, 0, CORE_WHITE, "b2-a1",
		  "the stack on b2 (2) is black's, and it is white's turn" },
	};
	struct core_position p;

	ck_why(cases, sizeof(cases) / sizeof(cases[0]));
	/* the last position, with the other side to move */
	pos_of(&p, 5, "d4=W5 b2=B2 a1=W1 e9=B1", 0, 0, CORE_WHITE);
	p.to_move = CORE_BLACK;
	core_position_refresh(&p);
	ck_assert_str_eq(why(&p, "d4-c3"),
			 "the stack on d4 (5) is white's, and it is black's turn");
}
END_TEST

START_TEST(t_swap_pass_legal)
{
	struct core_variant v;
	struct core_position p;
	enum core_error err;

	core_variant_default(&v);
	v.swap = true;
	ck_assert_int_eq(core_position_init(&p, &v, &err), 0);
	ck_assert_str_eq(why(&p, "swap"),
			 "swap is only allowed as black's first move (ply 2), and this is ply 1");
	v.swap = false;
	ck_assert_int_eq(core_position_init(&p, &v, &err), 0);
	ck_assert_str_eq(why(&p, "e5-a1"), "e5-a1 is a legal move");
	ck_assert_str_eq(why(&p, "swap"),
			 "swap is not allowed: this game is played without the swap option");
	ck_assert_str_eq(why(&p, "pass"),
			 "white has a legal move and must move: a pass is never chosen, it is only forced when there is no legal move (and then it is recorded automatically)");
}
END_TEST

/* The sentence for a game that ended with `result` by `reason`. */
static const char *over(enum core_result result, enum core_end_reason reason)
{
	struct core_position p;

	pos_of(&p, 5, "", 0, 0, CORE_WHITE);
	p.result = (uint8_t)result;
	p.end_reason = (uint8_t)reason;
	core_position_refresh(&p);
	return why(&p, "e5-a1");
}

START_TEST(t_game_over)
{
	ck_assert_str_eq(over(CORE_RESULT_BLACK, CORE_END_ELIMINATION),
			 "the game is over: white was eliminated, so black won");
	ck_assert_str_eq(over(CORE_RESULT_DRAW, CORE_END_ELIMINATION),
			 "the game is over: both players were eliminated by the same move, a draw");
	ck_assert_str_eq(over(CORE_RESULT_DRAW, CORE_END_DOUBLE_PASS),
			 "the game is over: neither player had a legal move, a draw");
	ck_assert_str_eq(over(CORE_RESULT_BLACK, CORE_END_RESIGNATION),
			 "the game is over: white resigned, so black won");
	ck_assert_str_eq(over(CORE_RESULT_DRAW, CORE_END_AGREED_DRAW),
			 "the game is over: the players agreed to a draw");
	ck_assert_str_eq(over(CORE_RESULT_WHITE, CORE_END_TIME),
			 "the game is over: black ran out of time, so white won");
	ck_assert_str_eq(over(CORE_RESULT_WHITE, CORE_END_NONE),
			 "the game is over");
}
END_TEST

START_TEST(t_unreadable)
{
	struct core_position p;
	struct core_move m;
	enum core_error err;
	const char *error;

	pos_of(&p, 5, "", 0, 0, CORE_WHITE);
	ck_assert_str_eq(why(&p, "e5"),
			 "that is not a move: write FROM-TO (like e5-c3), FROM-TO/K to move K pieces of a stack (like e5-c3/2), or swap");
	ck_assert_str_eq(why(&p, "z1-e5"),
			 "there is no such cell on this board: columns run from a to i and rows from 1 to 9");
	pos_of(&p, 13, "", 0, 0, CORE_WHITE);
	ck_assert_str_eq(why(&p, "z1-e5"),
			 "there is no such cell on this board: columns run from a to y and rows from 1 to 25");
	buf_reset(&out);
	ck_assert_int_eq(render_explain(templates, &p, NULL, CORE_ERR_BAD_SIZE,
					&out, &error), 0);
	ck_assert_str_eq(buf_str(&out),
			 "the board size must be between 3 and 13");
	/* Nothing to name: the rule; an error that does not fit the move:
	 * the move and the rule. */
	buf_reset(&out);
	ck_assert_int_eq(render_explain(templates, &p, NULL,
					CORE_ERR_NOT_VISIBLE, &out, &error), 0);
	ck_assert_str_eq(buf_str(&out),
			 "the target is not visible from the start");
	pos_of(&p, 3, "", 0, 0, CORE_WHITE);
	ck_assert_int_eq(notation_parse_move(&p, "c3-a1", 5, &m, &err), 0);
	buf_reset(&out);
	ck_assert_int_eq(render_explain(templates, &p, &m, CORE_ERR_BAD_VARIANT,
					&out, &error), 0);
	ck_assert_str_eq(buf_str(&out), "c3-a1: unknown variant option");
}
END_TEST

/* What the service does with a refused move: rule and explain in the
 * refusal template's context, rendered as players read it. */
START_TEST(t_move_refusal)
{
	struct core_position p;
	struct template_ctx *ctx = template_ctx_new();
	struct core_move m;
	enum core_error err;
	const char *error;

	pos_of(&p, 5, "a1=W4 e9=B1", 0, 0, CORE_BLACK);
	ck_assert_int_eq(notation_parse_move(&p, "a1-e5", 5, &m, &err), 0);
	ck_assert_int_eq(core_check_move(&p, &m, &err), -1);
	ck_assert_int_eq(render_move_refusal(templates, &p, &m, err, ctx,
					     &error), 0);
	ck_assert_str_eq(template_ctx_get(ctx, "rule"),
			 "that stack is not yours");
	ck_assert_str_eq(template_ctx_get(ctx, "explain"),
			 "the stack on a1 (4) is white's, and it is black's turn");
	/* As mail/refusal.txt words an illegal move. */
	template_ctx_set(ctx, "move", "a1-e5");
	template_ctx_set(ctx, "game", "7");
	ck_assert_int_eq(template_render_text(templates, "refusal",
					      "{{move}} is not legal in game {{game}}: {{explain}} (rule: {{rule}}).",
					      ctx, &out, &error), 0);
	ck_assert_str_eq(buf_str(&out),
			 "a1-e5 is not legal in game 7: the stack on a1 (4) is white's, and it is black's turn (rule: that stack is not yours).");
	template_ctx_free(&ctx);

	/* No move read: the rule alone, and no "explain". */
	ctx = template_ctx_new();
	ck_assert_int_eq(render_move_refusal(templates, &p, NULL,
					     CORE_ERR_UNKNOWN_CELL, ctx,
					     &error), 0);
	ck_assert_str_eq(template_ctx_get(ctx, "rule"),
			 "no such cell on this board");
	ck_assert_ptr_null(template_ctx_get(ctx, "explain"));
	template_ctx_free(&ctx);

	/* The option refusal of a challenge: the rule alone, no position. */
	ctx = template_ctx_new();
	ck_assert_int_eq(render_move_refusal(templates, NULL, NULL,
					     CORE_ERR_BAD_SIZE, ctx, &error), 0);
	ck_assert_str_eq(template_ctx_get(ctx, "rule"),
			 "the board size must be 3 to 13");
	ck_assert_ptr_null(template_ctx_get(ctx, "explain"));
	ck_assert_int_eq(render_move_refusal(templates, NULL, NULL,
					     CORE_ERR_BAD_VARIANT, ctx,
					     &error), 0);
	ck_assert_str_eq(template_ctx_get(ctx, "rule"),
			 "unknown variant option");
	template_ctx_free(&ctx);
}
END_TEST

/* The variables a template may use besides the sentence's own section. */
START_TEST(t_check_ctx)
{
	struct core_position p;
	struct template_ctx *ctx = template_ctx_new();
	struct core_check_info info;
	struct core_move m;
	enum core_error err;

	pos_of(&p, 5, "a1=W1 c3=B1 e9=B1", 0, 0, CORE_WHITE);
	ck_assert_int_eq(notation_parse_move(&p, "a1-d4", 5, &m, &err), 0);
	ck_assert_int_eq(core_check_move(&p, &m, &err), -1);
	core_check_info(&p, &m, err, &info);
	render_check_ctx(p.geom, &info, ctx);
	ck_assert_str_eq(template_ctx_get(ctx, "reason"), "blocked");
	ck_assert_str_eq(template_ctx_get(ctx, "blocked"), "1");
	ck_assert_str_eq(template_ctx_get(ctx, "error"), "not_visible");
	ck_assert_str_eq(template_ctx_get(ctx, "error_not_visible"), "1");
	ck_assert_ptr_null(template_ctx_get(ctx, "off_line"));
	ck_assert_str_eq(template_ctx_get(ctx, "move"), "a1-d4");
	ck_assert_str_eq(template_ctx_get(ctx, "from"), "a1");
	ck_assert_str_eq(template_ctx_get(ctx, "to"), "d4");
	ck_assert_str_eq(template_ctx_get(ctx, "blocker"), "c3");
	ck_assert_str_eq(template_ctx_get(ctx, "from_size"), "1");
	ck_assert_str_eq(template_ctx_get(ctx, "player"), "white");
	ck_assert_str_eq(template_ctx_get(ctx, "ply"), "11");
	template_ctx_free(&ctx);
}
END_TEST

TEST_MAIN("render explain", "explain", setup, teardown, 0, t_rules,
	  t_sight_and_size, t_growth_and_tax, t_parts_and_owner,
	  t_swap_pass_legal, t_game_over, t_unreadable, t_move_refusal,
	  t_check_ctx)
