/* test_explain.c -- core_check_info(): for every case the explanation of a
 * refusal distinguishes, the reason code and the cells and numbers the
 * sentence names.  The sentences themselves (templates/explain.txt) are
 * tested in tests/render/test_explain.c.
 */
#include "core-test.h"
#include "../check_run.h"

/* Parse `text` in p, check it, and describe the answer.  A text the
 * notation refuses is described with what it could read (the parser fills
 * the cells it found). */
static struct core_check_info check(const struct core_position *p,
				    const char *text)
{
	struct core_check_info info;
	struct core_move m = { .kind = CORE_MOVE_WHOLE, .from = -1, .to = -1 };
	enum core_error err = CORE_OK;

	if (notation_parse_move(p, text, strlen(text), &m, &err) == 0)
		core_check_move(p, &m, &err);
	core_check_info(p, &m, err, &info);
	return info;
}

static int cell(const struct core_position *p, const char *name)
{
	int c = core_cell_parse(p->geom, name, strlen(name));

	ck_assert_msg(c >= 0, "bad cell %s", name);
	return c;
}

/* The reason, and the move's cells when it has some. */
#define ck_reason(info, want) \
	ck_assert_str_eq(core_reason_name((info).reason), core_reason_name(want))

START_TEST(t_info_sight)
{
	struct core_position p;
	struct core_check_info in;

	setup_pos(&p, 5, "a1=W1 c3=B1 e9=B1", 0, 0, CORE_WHITE);
	in = check(&p, "a1-d4");
	ck_reason(in, CORE_REASON_BLOCKED);
	ck_assert_int_eq(in.err, CORE_ERR_NOT_VISIBLE);
	ck_assert(in.has_move);
	ck_assert_int_eq(in.move.from, cell(&p, "a1"));
	ck_assert_int_eq(in.move.to, cell(&p, "d4"));
	ck_assert_int_eq(in.blocker, cell(&p, "c3"));
	ck_assert_int_eq(in.from_size, 1);
	ck_assert_int_eq(in.moving, 1);
	in = check(&p, "a1-b3");
	ck_reason(in, CORE_REASON_OFF_LINE);
	ck_assert_int_eq(in.blocker, -1);
	/* A growth is blocked the same way; its kind is known. */
	in = check(&p, "b2-d4");
	ck_reason(in, CORE_REASON_BLOCKED);
	ck_assert_int_eq(in.move.kind, CORE_MOVE_GROWTH);
	ck_assert_int_eq(in.blocker, cell(&p, "c3"));
}
END_TEST

START_TEST(t_info_same_cell)
{
	struct core_position p;
	struct core_check_info in;

	setup_pos(&p, 5, "d4=W2 e9=B1", 0, 0, CORE_WHITE);
	in = check(&p, "d4-d4");
	ck_reason(in, CORE_REASON_SAME_CELL);
	ck_assert_int_eq(in.move.from, cell(&p, "d4"));
	ck_assert_int_eq(in.move.to, cell(&p, "d4"));
	/* Written "d4-d4", not "d4xd4", though d4 holds a stack. */
	ck_assert(!in.move.capture);
}
END_TEST

START_TEST(t_info_target_bigger)
{
	struct core_position p;
	struct core_check_info in;

	setup_pos(&p, 5, "d4=W2 b2=B3", 0, 0, CORE_WHITE);
	in = check(&p, "d4-b2");
	ck_reason(in, CORE_REASON_TARGET_BIGGER);
	ck_assert_int_eq(in.move.kind, CORE_MOVE_WHOLE);
	ck_assert(in.move.capture);
	ck_assert_int_eq(in.to_size, 3);
	ck_assert_int_eq(in.moving, 2);
	/* A part: the part is what must not be smaller. */
	setup_pos(&p, 5, "d4=W5 b2=W3 e9=B1", 0, 0, CORE_WHITE);
	in = check(&p, "d4xb2/2");
	ck_reason(in, CORE_REASON_TARGET_BIGGER);
	ck_assert_int_eq(in.move.kind, CORE_MOVE_SPLIT);
	ck_assert_int_eq(in.to_size, 3);
	ck_assert_int_eq(in.moving, 2);
	/* A growth needs an empty target. */
	setup_pos(&p, 5, "a1=B1 e9=W1", 0, 0, CORE_WHITE);
	in = check(&p, "e5-a1");
	ck_reason(in, CORE_REASON_GROWTH_ONTO_STACK);
	ck_assert_int_eq(in.err, CORE_ERR_TARGET_BIGGER);
	ck_assert_int_eq(in.move.kind, CORE_MOVE_GROWTH);
	ck_assert(in.move.capture);
	ck_assert_int_eq(in.to_size, 1);
}
END_TEST

START_TEST(t_info_growth)
{
	struct core_position p;
	struct core_check_info in;

	setup_pos(&p, 5, "", 0, 0, CORE_WHITE);
	in = check(&p, "d4-e4");
	ck_reason(in, CORE_REASON_GROWTH_NOT_OUTWARD);
	ck_assert_int_eq(in.from_dist, 1);
	ck_assert_int_eq(in.to_dist, 1);
	in = check(&p, "a1-e5");
	ck_reason(in, CORE_REASON_GROWTH_NOT_OUTWARD);
	ck_assert_int_eq(in.from_dist, 4);
	ck_assert_int_eq(in.to_dist, 0);
	setup_pos(&p, 5, "", 4, 0, CORE_WHITE);
	in = check(&p, "e5-a1");
	ck_reason(in, CORE_REASON_GROWTH_TAX);
	ck_assert_int_eq(in.err, CORE_ERR_TAX_NOT_PAYABLE);
	ck_assert_int_eq(in.gain, 4);
	ck_assert_int_eq(in.tax, 4);
	ck_assert_int_eq(in.arrive, 0);
	ck_assert_int_eq(in.mover, CORE_WHITE);
	/* Black's tax is the one that counts on Black's move. */
	setup_pos(&p, 5, "", 0, 2, CORE_BLACK);
	in = check(&p, "d4-c3");
	ck_reason(in, CORE_REASON_GROWTH_TAX);
	ck_assert_int_eq(in.gain, 1);
	ck_assert_int_eq(in.tax, 2);
	ck_assert_int_eq(in.arrive, -1);
	ck_assert_int_eq(in.mover, CORE_BLACK);
}
END_TEST

START_TEST(t_info_split_tax)
{
	struct core_position p;
	struct core_check_info in;

	setup_pos(&p, 5, "d4=W5 e9=B1", 2, 0, CORE_WHITE);
	in = check(&p, "d4-b2/2");
	ck_reason(in, CORE_REASON_SPLIT_TAX);
	ck_assert_int_eq(in.move.part, 2);
	ck_assert_int_eq(in.tax, 2);
	ck_assert_int_eq(in.arrive, 0);
	ck_assert_int_eq(in.move.to, cell(&p, "b2"));
	setup_pos(&p, 5, "d4=W5 b2=B2 e9=B1", 2, 0, CORE_WHITE);
	in = check(&p, "d4xb2/2");
	ck_reason(in, CORE_REASON_SPLIT_TAX);
	ck_assert_int_eq(in.arrive, 0);
}
END_TEST

START_TEST(t_info_too_far_inward)
{
	struct core_position p;
	struct core_check_info in;

	setup_pos(&p, 5, "a1=W2 e9=B1", 0, 0, CORE_WHITE);
	in = check(&p, "a1-e5");
	ck_reason(in, CORE_REASON_TOO_FAR_INWARD);
	ck_assert_int_eq(in.from_size, 2);
	ck_assert_int_eq(in.inward, 4);
	ck_assert_int_eq(in.loss, 5);
	ck_assert_int_eq(in.arrive, -3);
	in = check(&p, "a1-c3");
	ck_assert_int_eq(in.inward, 2);
	ck_assert_int_eq(in.loss, 3);
	setup_pos(&p, 5, "a1=W1 e9=B1", 0, 0, CORE_WHITE);
	in = check(&p, "a1-b2");
	ck_reason(in, CORE_REASON_TOO_FAR_INWARD);
	ck_assert_int_eq(in.inward, 1);
	ck_assert_int_eq(in.loss, 2);
	ck_assert_int_eq(in.from_size, 1);
}
END_TEST

START_TEST(t_info_parts)
{
	struct core_position p;
	struct core_check_info in;

	setup_pos(&p, 5, "d4=W5 b2=B2 a1=W1 e9=B1", 0, 0, CORE_WHITE);
	in = check(&p, "d4-c3/5");
	ck_reason(in, CORE_REASON_PART_WHOLE_STACK);
	ck_assert_int_eq(in.move.part, 5);
	ck_assert_int_eq(in.from_size, 5);
	in = check(&p, "d4xb2/5");
	ck_reason(in, CORE_REASON_PART_WHOLE_STACK);
	ck_assert(in.move.capture);
	in = check(&p, "d4-c3/7");
	ck_reason(in, CORE_REASON_PART_TOO_BIG);
	ck_assert_int_eq(in.move.part, 7);
	ck_assert_int_eq(in.from_size, 5);
	in = check(&p, "d4-c3/0");
	ck_reason(in, CORE_REASON_PART_ZERO);
	ck_assert_int_eq(in.move.part, 0);
	in = check(&p, "e5-f6/2");
	ck_reason(in, CORE_REASON_PART_OF_EMPTY);
	ck_assert_int_eq(in.from_size, 0);
	ck_assert_int_eq(in.move.from, cell(&p, "e5"));
	ck_assert_int_eq(in.move.to, cell(&p, "f6"));
}
END_TEST

START_TEST(t_info_not_your_stack)
{
	struct core_position p;
	struct core_check_info in;

	setup_pos(&p, 5, "d4=W5 b2=B2", 0, 0, CORE_WHITE);
	in = check(&p, "b2-a1");
	ck_reason(in, CORE_REASON_NOT_YOUR_STACK);
	ck_assert_int_eq(in.from_size, 2);
	ck_assert_int_eq(in.mover, CORE_WHITE);
	ck_assert_int_eq(in.move.from, cell(&p, "b2"));
}
END_TEST

START_TEST(t_info_swap_pass)
{
	struct core_variant v;
	struct core_position p;
	struct core_check_info in;
	enum core_error err;

	core_variant_default(&v);
	v.swap = true;
	ck_assert_int_eq(core_position_init(&p, &v, &err), 0);
	in = check(&p, "swap");
	ck_reason(in, CORE_REASON_SWAP_WRONG_PLY);
	ck_assert_int_eq(in.ply, 1);
	ck_assert(!in.has_move);
	play_ok(&p, "e5-a1");
	play_ok(&p, "swap");
	in = check(&p, "swap");
	ck_reason(in, CORE_REASON_SWAP_WRONG_PLY);
	ck_assert_int_eq(in.ply, 3);
	v.swap = false;
	ck_assert_int_eq(core_position_init(&p, &v, &err), 0);
	play_ok(&p, "e5-a1");
	in = check(&p, "swap");
	ck_reason(in, CORE_REASON_SWAP_NOT_IN_VARIANT);
	in = check(&p, "pass");
	ck_reason(in, CORE_REASON_PASS_NOT_FORCED);
	ck_assert_int_eq(in.mover, CORE_BLACK);
}
END_TEST

/* A finished game: how it ended, and who lost. */
static struct core_check_info over(enum core_result result,
				   enum core_end_reason reason)
{
	struct core_position p;
	struct core_check_info in;

	setup_pos(&p, 5, "", 0, 0, CORE_WHITE);
	p.result = (uint8_t)result;
	p.end_reason = (uint8_t)reason;
	core_position_refresh(&p);
	in = check(&p, "e5-a1");
	ck_assert_int_eq(in.err, CORE_ERR_GAME_OVER);
	ck_assert_int_eq(in.result, result);
	return in;
}

START_TEST(t_info_game_over)
{
	struct core_check_info in;

	in = over(CORE_RESULT_BLACK, CORE_END_ELIMINATION);
	ck_reason(in, CORE_REASON_OVER_ELIMINATION);
	ck_assert_int_eq(in.loser, CORE_WHITE);
	in = over(CORE_RESULT_DRAW, CORE_END_ELIMINATION);
	ck_reason(in, CORE_REASON_OVER_BOTH_ELIMINATED);
	in = over(CORE_RESULT_DRAW, CORE_END_DOUBLE_PASS);
	ck_reason(in, CORE_REASON_OVER_DOUBLE_PASS);
	in = over(CORE_RESULT_WHITE, CORE_END_RESIGNATION);
	ck_reason(in, CORE_REASON_OVER_RESIGNATION);
	ck_assert_int_eq(in.loser, CORE_BLACK);
	in = over(CORE_RESULT_DRAW, CORE_END_AGREED_DRAW);
	ck_reason(in, CORE_REASON_OVER_AGREED_DRAW);
	in = over(CORE_RESULT_BLACK, CORE_END_TIME);
	ck_reason(in, CORE_REASON_OVER_TIME);
	ck_assert_int_eq(in.loser, CORE_WHITE);
	in = over(CORE_RESULT_WHITE, CORE_END_NONE);
	ck_reason(in, CORE_REASON_GAME_OVER);
	/* Over is over, whatever was written. */
	in = over(CORE_RESULT_WHITE, CORE_END_TIME);
	ck_assert(!in.has_move);
}
END_TEST

START_TEST(t_info_unreadable)
{
	struct core_position p;
	struct core_check_info in;
	struct core_move m = { .kind = CORE_MOVE_WHOLE, .from = -1, .to = -1 };

	setup_pos(&p, 5, "", 0, 0, CORE_WHITE);
	in = check(&p, "e5");
	ck_reason(in, CORE_REASON_SYNTAX);
	in = check(&p, "z1-e5");
	ck_reason(in, CORE_REASON_UNKNOWN_CELL);
	ck_assert_int_eq(in.board_width, 9);
	core_check_info(&p, &m, CORE_ERR_UNKNOWN_CELL, &in);
	ck_reason(in, CORE_REASON_UNKNOWN_CELL);
	ck_assert(!in.has_move);
	setup_pos(&p, 3, "", 0, 0, CORE_WHITE);
	core_check_info(&p, NULL, CORE_ERR_UNKNOWN_CELL, &in);
	ck_assert_int_eq(in.board_width, 5);
	core_check_info(&p, NULL, CORE_ERR_BAD_SIZE, &in);
	ck_reason(in, CORE_REASON_BAD_SIZE);
	/* No move, or one without cells: the rule is all there is. */
	core_check_info(&p, NULL, CORE_ERR_NOT_VISIBLE, &in);
	ck_reason(in, CORE_REASON_RULE_ONLY);
	ck_assert(!in.has_move);
	ck_assert_int_eq(in.move.from, -1);
	ck_assert_int_eq(in.blocker, -1);
	m.kind = CORE_MOVE_SWAP;
	core_check_info(&p, &m, CORE_ERR_NOT_VISIBLE, &in);
	ck_reason(in, CORE_REASON_RULE_ONLY);
	m.kind = CORE_MOVE_WHOLE;
	m.from = 0;
	m.to = (int16_t)p.geom->ncells;
	core_check_info(&p, &m, CORE_ERR_NOT_VISIBLE, &in);
	ck_reason(in, CORE_REASON_RULE_ONLY);
	/* An error that does not fit a readable move: the move and the
	 * rule. */
	m.to = 1;
	core_check_info(&p, &m, CORE_ERR_BAD_VARIANT, &in);
	ck_reason(in, CORE_REASON_RULE_OF_MOVE);
	ck_assert(in.has_move);
	ck_assert_int_eq(in.move.to, 1);
}
END_TEST

START_TEST(t_info_legal)
{
	struct core_position p;
	struct core_check_info in;

	setup_pos(&p, 5, "", 1, 0, CORE_WHITE);
	in = check(&p, "e5-a1");
	ck_reason(in, CORE_REASON_LEGAL);
	ck_assert_int_eq(in.err, CORE_OK);
	ck_assert_int_eq(in.move.kind, CORE_MOVE_GROWTH);
	ck_assert_int_eq(in.gain, 4);
	ck_assert_int_eq(in.arrive, 3);
	ck_assert_int_eq(in.ply, 11); /* setup_pos plays from ply 10 */
}
END_TEST

/* Every refusal of every move text on a busy board gets a reason that
 * fits its error (and never reads outside the board). */
START_TEST(t_info_fits_error)
{
	struct core_position p;
	struct core_check_info in;
	char text[CORE_MOVE_TEXT_MAX];

	setup_pos(&p, 4, "a1=W3 b2=B2 c3=W1 d4=B5 b1=W2 g7=B1", 2, 1,
		  CORE_WHITE);
	for (int from = 0; from < p.geom->ncells; from++) {
		for (int to = 0; to < p.geom->ncells; to++) {
			for (int part = 0; part <= 6; part++) {
				struct core_move m = {
					.kind = part == 0 ? CORE_MOVE_WHOLE :
						CORE_MOVE_SPLIT,
					.from = (int16_t)from,
					.to = (int16_t)to,
					.part = part,
				};
				enum core_error err = CORE_OK;

				notation_format_move(p.geom, &m, text);
				core_check_move(&p, &m, &err);
				core_check_info(&p, &m, err, &in);
				ck_assert(in.has_move);
				ck_assert_msg(in.reason != CORE_REASON_RULE_OF_MOVE &&
					      in.reason != CORE_REASON_RULE_ONLY,
					      "%s: %s has no reason", text,
					      core_error_name(err));
				ck_assert(in.blocker >= -1 &&
					  in.blocker < p.geom->ncells);
			}
		}
	}
}
END_TEST

TEST_MAIN("core explain", "check info", NULL, NULL, 0, t_info_sight,
	  t_info_same_cell, t_info_target_bigger, t_info_growth,
	  t_info_split_tax, t_info_too_far_inward, t_info_parts,
	  t_info_not_your_stack, t_info_swap_pass, t_info_game_over,
	  t_info_unreadable, t_info_legal, t_info_fits_error)
