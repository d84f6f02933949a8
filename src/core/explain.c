/* explain.c -- what the rules core says about a refusal, without words:
 * the code words of errors and reasons (for logs and template sections),
 * the names of colours, results and end reasons, and core_check_info(),
 * the cells and numbers behind the answer to a move.  The sentences people
 * read are templates/rule.txt and templates/explain.txt, rendered by
 * src/render/render_explain.c.
 */
#include <string.h>

#include "core/core-int.h"

/* Indexed by enum core_error: the code words of errors. */
static const char *const core_error_names[] = {
	[CORE_OK] = "ok",
	[CORE_ERR_SYNTAX] = "syntax",
	[CORE_ERR_UNKNOWN_CELL] = "unknown_cell",
	[CORE_ERR_SAME_CELL] = "same_cell",
	[CORE_ERR_NOT_VISIBLE] = "not_visible",
	[CORE_ERR_TARGET_BIGGER] = "target_bigger",
	[CORE_ERR_NOT_YOUR_STACK] = "not_your_stack",
	[CORE_ERR_GROWTH_NOT_OUTWARD] = "growth_not_outward",
	[CORE_ERR_TAX_NOT_PAYABLE] = "tax_not_payable",
	[CORE_ERR_TOO_FAR_INWARD] = "too_far_inward",
	[CORE_ERR_PART_TOO_BIG] = "part_too_big",
	[CORE_ERR_PART_WHOLE_STACK] = "part_whole_stack",
	[CORE_ERR_PART_ZERO] = "part_zero",
	[CORE_ERR_PART_OF_EMPTY] = "part_of_empty",
	[CORE_ERR_SWAP_NOT_ALLOWED] = "swap_not_allowed",
	[CORE_ERR_PASS_NOT_FORCED] = "pass_not_forced",
	[CORE_ERR_GAME_OVER] = "game_over",
	[CORE_ERR_BAD_SIZE] = "bad_size",
	[CORE_ERR_BAD_VARIANT] = "bad_variant",
	[CORE_ERR_RECORD] = "record",
	[CORE_ERR_NO_MEMORY] = "no_memory",
	[CORE_ERR_BAD_ARGUMENT] = "bad_argument",
};

const char *core_error_name(enum core_error err)
{
	return core_table_name(core_error_names,
			       sizeof(core_error_names) /
				       sizeof(core_error_names[0]),
			       (unsigned)err);
}

/* Indexed by enum core_reason: the code words of reasons.  Distinct from
 * the error words where the two could meet in one template context. */
static const char *const core_reason_names[CORE_REASON_COUNT] = {
	[CORE_REASON_LEGAL] = "legal",
	[CORE_REASON_RULE_ONLY] = "rule_only",
	[CORE_REASON_RULE_OF_MOVE] = "rule_of_move",
	[CORE_REASON_SYNTAX] = "syntax",
	[CORE_REASON_UNKNOWN_CELL] = "unknown_cell",
	[CORE_REASON_BAD_SIZE] = "bad_size",
	[CORE_REASON_GAME_OVER] = "game_over",
	[CORE_REASON_OVER_ELIMINATION] = "over_elimination",
	[CORE_REASON_OVER_BOTH_ELIMINATED] = "over_both_eliminated",
	[CORE_REASON_OVER_DOUBLE_PASS] = "over_double_pass",
	[CORE_REASON_OVER_RESIGNATION] = "over_resignation",
	[CORE_REASON_OVER_AGREED_DRAW] = "over_agreed_draw",
	[CORE_REASON_OVER_TIME] = "over_time",
	[CORE_REASON_SWAP_NOT_IN_VARIANT] = "swap_not_in_variant",
	[CORE_REASON_SWAP_WRONG_PLY] = "swap_wrong_ply",
	[CORE_REASON_PASS_NOT_FORCED] = "pass_not_forced",
	[CORE_REASON_SAME_CELL] = "same_cell",
	[CORE_REASON_NOT_YOUR_STACK] = "not_your_stack",
	[CORE_REASON_PART_OF_EMPTY] = "part_of_empty",
	[CORE_REASON_PART_ZERO] = "part_zero",
	[CORE_REASON_PART_WHOLE_STACK] = "part_whole_stack",
	[CORE_REASON_PART_TOO_BIG] = "part_too_big",
	[CORE_REASON_BLOCKED] = "blocked",
	[CORE_REASON_OFF_LINE] = "off_line",
	[CORE_REASON_GROWTH_ONTO_STACK] = "growth_onto_stack",
	[CORE_REASON_TARGET_BIGGER] = "target_bigger",
	[CORE_REASON_GROWTH_NOT_OUTWARD] = "growth_not_outward",
	[CORE_REASON_GROWTH_TAX] = "growth_tax",
	[CORE_REASON_SPLIT_TAX] = "split_tax",
	[CORE_REASON_TOO_FAR_INWARD] = "too_far_inward",
};

const char *core_reason_name(enum core_reason reason)
{
	return core_table_name(core_reason_names, CORE_REASON_COUNT,
			       (unsigned)reason);
}

const char *core_color_name(enum core_color c)
{
	return c == CORE_BLACK ? "black" : "white";
}

const char *core_result_name(enum core_result r)
{
	switch (r) {
	case CORE_ONGOING: return "ongoing";
	case CORE_RESULT_WHITE: return "white";
	case CORE_RESULT_BLACK: return "black";
	case CORE_RESULT_DRAW: return "draw";
	}
	return "?";
}

const char *core_end_reason_name(enum core_end_reason r)
{
	switch (r) {
	case CORE_END_NONE: return "none";
	case CORE_END_ELIMINATION: return "elimination";
	case CORE_END_DOUBLE_PASS: return "double pass";
	case CORE_END_RESIGNATION: return "resignation";
	case CORE_END_AGREED_DRAW: return "agreed draw";
	case CORE_END_TIME: return "time";
	}
	return "?";
}

/* How a finished game ended, as a reason. */
static enum core_reason check_game_over(const struct core_position *pos)
{
	switch (pos->end_reason) {
	case CORE_END_ELIMINATION:
		return pos->result == CORE_RESULT_DRAW ?
			CORE_REASON_OVER_BOTH_ELIMINATED :
			CORE_REASON_OVER_ELIMINATION;
	case CORE_END_DOUBLE_PASS: return CORE_REASON_OVER_DOUBLE_PASS;
	case CORE_END_RESIGNATION: return CORE_REASON_OVER_RESIGNATION;
	case CORE_END_AGREED_DRAW: return CORE_REASON_OVER_AGREED_DRAW;
	case CORE_END_TIME: return CORE_REASON_OVER_TIME;
	default: return CORE_REASON_GAME_OVER;
	}
}

/* The reason for an err that concerns a move with both cells on the board
 * (info->move normalised, the numbers filled in). */
static enum core_reason check_move_reason(const struct core_check_info *info)
{
	enum core_move_kind kind = (enum core_move_kind)info->move.kind;

	switch (info->err) {
	case CORE_OK: return CORE_REASON_LEGAL;
	case CORE_ERR_SAME_CELL: return CORE_REASON_SAME_CELL;
	case CORE_ERR_NOT_YOUR_STACK: return CORE_REASON_NOT_YOUR_STACK;
	case CORE_ERR_PART_OF_EMPTY: return CORE_REASON_PART_OF_EMPTY;
	case CORE_ERR_PART_ZERO: return CORE_REASON_PART_ZERO;
	case CORE_ERR_PART_WHOLE_STACK: return CORE_REASON_PART_WHOLE_STACK;
	case CORE_ERR_PART_TOO_BIG: return CORE_REASON_PART_TOO_BIG;
	case CORE_ERR_NOT_VISIBLE:
		return info->blocker >= 0 ? CORE_REASON_BLOCKED :
			CORE_REASON_OFF_LINE;
	case CORE_ERR_TARGET_BIGGER:
		return kind == CORE_MOVE_GROWTH ? CORE_REASON_GROWTH_ONTO_STACK :
			CORE_REASON_TARGET_BIGGER;
	case CORE_ERR_GROWTH_NOT_OUTWARD: return CORE_REASON_GROWTH_NOT_OUTWARD;
	case CORE_ERR_TAX_NOT_PAYABLE:
		return kind == CORE_MOVE_GROWTH ? CORE_REASON_GROWTH_TAX :
			CORE_REASON_SPLIT_TAX;
	case CORE_ERR_TOO_FAR_INWARD: return CORE_REASON_TOO_FAR_INWARD;
	default: return CORE_REASON_RULE_OF_MOVE;
	}
}

void core_check_info(const struct core_position *pos,
		     const struct core_move *move, enum core_error err,
		     struct core_check_info *info_r)
{
	const struct core_geom *g = pos->geom;
	struct core_check_info info;
	struct core_check_facts in;
	struct core_move m;

	memset(&info, 0, sizeof(info));
	info.err = err;
	info.blocker = -1;
	info.move.from = info.move.to = -1;
	info.mover = (enum core_color)pos->to_move;
	info.ply = pos->ply + 1;
	info.result = (enum core_result)pos->result;
	info.loser = pos->result == CORE_RESULT_WHITE ? CORE_BLACK : CORE_WHITE;
	info.board_width = 2 * g->radius + 1;
	info.tax = pos->tax[pos->to_move];

	/* Reasons that do not depend on the move come first, as a move
	 * that cannot be read still gets them. */
	switch (err) {
	case CORE_ERR_GAME_OVER:
		info.reason = check_game_over(pos);
		goto out;
	case CORE_ERR_SWAP_NOT_ALLOWED:
		info.reason = pos->variant.swap ? CORE_REASON_SWAP_WRONG_PLY :
			CORE_REASON_SWAP_NOT_IN_VARIANT;
		goto out;
	case CORE_ERR_PASS_NOT_FORCED:
		info.reason = CORE_REASON_PASS_NOT_FORCED;
		goto out;
	case CORE_ERR_BAD_SIZE:
		info.reason = CORE_REASON_BAD_SIZE;
		goto out;
	case CORE_ERR_SYNTAX:
		info.reason = CORE_REASON_SYNTAX;
		goto out;
	default:
		break;
	}
	if (move == NULL || move->kind > CORE_MOVE_SPLIT ||
	    move->from < 0 || move->from >= g->ncells ||
	    move->to < 0 || move->to >= g->ncells) {
		info.reason = err == CORE_ERR_UNKNOWN_CELL ?
			CORE_REASON_UNKNOWN_CELL : CORE_REASON_RULE_ONLY;
		goto out;
	}

	/* The numbers as the rules saw them (whatever err says). */
	m = *move;
	core_check_detail(pos, &m, &in);
	if (err == CORE_ERR_SAME_CELL)
		m.capture = false; /* "d4-d4", not "d4xd4" */
	info.has_move = true;
	info.move = m;
	info.blocker = in.blocker;
	info.from_size = in.s;
	info.to_size = in.t < 0 ? -in.t : in.t;
	info.moving = in.moving;
	info.from_dist = in.ds;
	info.to_dist = in.dt;
	info.gain = in.dt - in.ds;
	info.inward = in.ds - in.dt;
	info.loss = 1 + info.inward;
	info.arrive = in.arrive;
	info.tax = in.tax;
	info.reason = check_move_reason(&info);
out:
	*info_r = info;
}
