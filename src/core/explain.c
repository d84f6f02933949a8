/* explain.c -- the words of the rules core: short error texts, names of
 * colours, results and end reasons, and the full sentence explaining why a
 * move is refused (shown to players in reply mails and by `ashes`).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/core-int.h"
#include "core/notation.h"

const char *core_error_string(enum core_error err)
{
	switch (err) {
	case CORE_OK: return "no error";
	case CORE_ERR_SYNTAX: return "not a move: write FROM-TO or FROM-TO/K";
	case CORE_ERR_UNKNOWN_CELL: return "no such cell on this board";
	case CORE_ERR_SAME_CELL: return "a move must go to another cell";
	case CORE_ERR_NOT_VISIBLE: return "the target is not visible from the start";
	case CORE_ERR_TARGET_BIGGER: return "the target is bigger than the moving stack";
	case CORE_ERR_NOT_YOUR_STACK: return "that stack is not yours";
	case CORE_ERR_GROWTH_NOT_OUTWARD: return "a growth move must go outward";
	case CORE_ERR_TAX_NOT_PAYABLE: return "the tax cannot be paid";
	case CORE_ERR_TOO_FAR_INWARD: return "the stack would shrink below nothing";
	case CORE_ERR_PART_TOO_BIG: return "the part is bigger than the stack";
	case CORE_ERR_PART_WHOLE_STACK: return "the part is the whole stack: leave the count off";
	case CORE_ERR_PART_ZERO: return "a part must have at least one piece";
	case CORE_ERR_PART_OF_EMPTY: return "an empty cell cannot be split";
	case CORE_ERR_SWAP_NOT_ALLOWED: return "swap is not allowed here";
	case CORE_ERR_PASS_NOT_FORCED: return "a player who can move must move";
	case CORE_ERR_GAME_OVER: return "the game is over";
	case CORE_ERR_BAD_SIZE: return "the board size must be 3 to 13";
	case CORE_ERR_BAD_VARIANT: return "unknown variant option";
	case CORE_ERR_RECORD: return "malformed game record";
	case CORE_ERR_NO_MEMORY: return "out of memory";
	case CORE_ERR_BAD_ARGUMENT: return "invalid argument";
	}
	return "unknown error";
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

static char *say(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static char *say(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (len == 0)
		return buf;
	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return buf;
}

/* "1 piece", "3 pieces" */
static const char *pieces(long n)
{
	return n == 1 || n == -1 ? "piece" : "pieces";
}

static char *explain_game_over(const struct core_position *pos, char *buf,
			       size_t len)
{
	enum core_result r = pos->result;
	const char *loser = r == CORE_RESULT_WHITE ? "black" : "white";

	switch (pos->end_reason) {
	case CORE_END_ELIMINATION:
		if (r == CORE_RESULT_DRAW)
			return say(buf, len, "the game is over: both players were eliminated by the same move, a draw");
		return say(buf, len, "the game is over: %s was eliminated, so %s won",
			   loser, core_result_name(r));
	case CORE_END_DOUBLE_PASS:
		return say(buf, len, "the game is over: neither player had a legal move, a draw");
	case CORE_END_RESIGNATION:
		return say(buf, len, "the game is over: %s resigned, so %s won",
			   loser, core_result_name(r));
	case CORE_END_AGREED_DRAW:
		return say(buf, len, "the game is over: the players agreed to a draw");
	case CORE_END_TIME:
		return say(buf, len, "the game is over: %s ran out of time, so %s won",
			   loser, core_result_name(r));
	default:
		return say(buf, len, "the game is over");
	}
}

char *core_explain_move(const struct core_position *pos,
			const struct core_move *move, enum core_error err,
			char *buf, size_t len)
{
	const struct core_geom *g = pos->geom;
	struct core_move m = *move;
	struct core_check_info in;
	char text[CORE_MOVE_TEXT_MAX], whole[CORE_MOVE_TEXT_MAX];
	const char *me = core_color_name(pos->to_move);
	const char *S, *T;

	core_check_detail(pos, &m, &in);
	switch (err) {
	case CORE_ERR_GAME_OVER:
		return explain_game_over(pos, buf, len);
	case CORE_ERR_SWAP_NOT_ALLOWED:
		if (!pos->variant.swap)
			return say(buf, len, "swap is not allowed: this game is played without the swap option");
		return say(buf, len, "swap is only allowed as black's first move (ply 2), and this is ply %d",
			   pos->ply + 1);
	case CORE_ERR_PASS_NOT_FORCED:
		return say(buf, len, "%s has a legal move and must move: a pass is never chosen, it is only forced when there is no legal move (and then it is recorded automatically)",
			   me);
	case CORE_ERR_BAD_SIZE:
		return say(buf, len, "the board size must be between %d and %d",
			   CORE_MIN_SIZE, CORE_MAX_SIZE);
	case CORE_ERR_SYNTAX:
		return say(buf, len, "that is not a move: write FROM-TO (like e5-c3), FROM-TO/K to move K pieces of a stack (like e5-c3/2), or swap");
	default:
		break;
	}
	if (m.kind > CORE_MOVE_SPLIT || m.from < 0 || m.from >= g->ncells ||
	    m.to < 0 || m.to >= g->ncells) {
		if (err == CORE_ERR_UNKNOWN_CELL)
			return say(buf, len, "there is no such cell on this board: columns run from a to %c and rows from 1 to %d",
				   'a' + 2 * g->radius, 2 * g->radius + 1);
		return say(buf, len, "%s", core_error_string(err));
	}
	if (err == CORE_ERR_SAME_CELL)
		m.capture = false; /* "d4-d4", not "d4xd4" */
	notation_format_move(g, &m, text);
	S = g->name[m.from];
	T = g->name[m.to];
	switch (err) {
	case CORE_ERR_SAME_CELL:
		return say(buf, len, "%s does not go anywhere: a move must end on another cell than %s",
			   text, S);
	case CORE_ERR_NOT_YOUR_STACK:
		return say(buf, len, "the stack on %s (%ld) is %s's, and it is %s's turn",
			   S, (long)in.s, core_color_name(pos->to_move ^ 1), me);
	case CORE_ERR_PART_OF_EMPTY:
		return say(buf, len, "%s is empty, so there is nothing to split: a growth move from %s is written without a count (%s-%s)",
			   S, S, S, T);
	case CORE_ERR_PART_ZERO:
		return say(buf, len, "%s moves no pieces: a part must have at least 1 piece",
			   text);
	case CORE_ERR_PART_WHOLE_STACK:
		m.kind = CORE_MOVE_WHOLE;
		notation_format_move(g, &m, whole);
		return say(buf, len, "%s names the whole stack on %s: leave the count off (%s)",
			   text, S, whole);
	case CORE_ERR_PART_TOO_BIG:
		return say(buf, len, "%s asks for %ld %s, but the stack on %s has only %ld",
			   text, (long)m.part, pieces(m.part), S, (long)in.s);
	case CORE_ERR_NOT_VISIBLE:
		if (in.blocker >= 0)
			return say(buf, len, "%s is not visible from %s: %s is in the way",
				   T, S, g->name[in.blocker]);
		return say(buf, len, "%s is not visible from %s: it is not on one of the six lines through %s",
			   T, S, S);
	case CORE_ERR_TARGET_BIGGER: {
		long t = in.t < 0 ? -in.t : in.t;
		if (m.kind == CORE_MOVE_GROWTH)
			return say(buf, len, "%s is empty, so %s is a growth move, which needs an empty target, but %s holds a stack (%ld)",
				   S, text, T, t);
		return say(buf, len, "the stack on %s (%ld) is bigger than the moving %s (%ld)",
			   T, t, m.kind == CORE_MOVE_SPLIT ? "part" : "stack",
			   (long)in.moving);
	}
	case CORE_ERR_GROWTH_NOT_OUTWARD:
		return say(buf, len, "%s is empty, so %s is a growth move, which must go away from the centre, but %s (distance %d) is no farther out than %s (distance %d)",
			   S, text, T, in.dt, S, in.ds);
	case CORE_ERR_TAX_NOT_PAYABLE:
		if (m.kind == CORE_MOVE_GROWTH)
			return say(buf, len, "growing from %s to %s gains %d %s, but %s's tax is %ld, which would leave %lld: a new stack needs at least 1 piece",
				   S, T, in.dt - in.ds, pieces(in.dt - in.ds),
				   me, (long)in.tax, (long long)in.arrive);
		return say(buf, len, "the part of %ld %s must pay %s's tax of %ld on arriving at %s, which would leave %lld: a new stack needs at least 1 piece",
			   (long)m.part, pieces(m.part), me, (long)in.tax, T,
			   (long long)in.arrive);
	case CORE_ERR_TOO_FAR_INWARD: {
		int closer = in.ds - in.dt;
		return say(buf, len, "the stack on %s (%ld) cannot move in to %s: it would lose %d %s (1, plus %d for coming %d %s closer to the centre), but it has only %ld",
			   S, (long)in.s, T, 1 + closer, pieces(1 + closer),
			   closer, closer, closer == 1 ? "step" : "steps",
			   (long)in.s);
	}
	case CORE_OK:
		return say(buf, len, "%s is a legal move", text);
	default:
		return say(buf, len, "%s: %s", text, core_error_string(err));
	}
}
