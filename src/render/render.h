/* render.h -- a position turned into what players see: the board as text
 * (hex layout, coordinates on the edges, W3 / B12 stacks), the legal-move
 * list (grouped compactly, or one per line), the last move in words, why a
 * move is refused, and an SVG picture of the board for the text/html
 * alternative of a mail.
 *
 * Sentences are not written here: the caller renders a template (see
 * template.h) with the variables render_position_ctx() and
 * render_move_ctx() set.  The text produced here is only cells, numbers and
 * the notation's own signs.  Output is appended to a struct buf.
 */
#ifndef ASHES_RENDER_RENDER_H
#define ASHES_RENDER_RENDER_H

#include <stddef.h>

#include "core/core.h"
#include "render/template.h"
#include "util/buf.h"

/* Width the board text is meant to fit for N <= 7 (mail clients). */
#define RENDER_TEXT_WIDTH 72

/* The board as text, one line per row (row numbers on the left, column
 * letters on the top, bottom and lower-right edges, diagonals reading
 * down-right), each line ended by '\n'.  A stack is "W3" / "B12", an empty
 * cell ".".  Stack labels longer than 3 characters (sizes >= 100) are
 * drawn as "*1", "*2"... and listed after the board ("*1 = W123"). */
void render_board(const struct core_position *pos, struct buf *out);

/* The legal moves of the side to move, grouped, lines wrapped to
 * RENDER_TEXT_WIDTH, each ended by '\n':
 *   growth (empty FROM), by source then by the size of the new stack:
 *     "e5 =1: d4 d5 e4  =2: c3 c5"
 *   stacks, by source; whole-stack targets, then split parts with the same
 *   targets joined ("/1-3"); an "x" after a target marks a capture:
 *     "c3: d4 e5 f6x  /1: d4 e5  /2-3: d4"
 *   (a source that does not fit one line gets a line per group);
 *   "swap" on its own line where it is legal.
 * Growth lines go to `growth` and the rest to `stacks` (either may be
 * NULL to skip it).  Returns the number of legal moves. */
size_t render_legal_moves(const struct core_position *pos, struct buf *growth,
			  struct buf *stacks);

/* Every legal move in canonical notation, one per line, sorted in byte
 * order.  Returns the count. */
size_t render_legal_moves_plain(const struct core_position *pos,
				struct buf *out);

/* Variables describing a position, for templates:
 *   board, moves_growth, moves_stacks (as above), moves_count,
 *   turn (white|black), ply (plies played), next_ply, size, variant,
 *   tax_white, tax_black, stacks_white, stacks_black,
 *   result (ongoing|white|black|draw), end_reason, and the flags
 *   ongoing, over, won_white, won_black, draw, turn_white, turn_black,
 *   must_pass (the side to move has no legal move), and how a game
 *   ended: by_elimination, by_double_pass, by_resignation, by_agreement,
 *   by_time. */
void render_position_ctx(const struct core_position *pos,
			 struct template_ctx *ctx);

/* Variables describing one ply played in `before` (which must be legal
 * there), for the template move-words.txt:
 *   player, opponent (white|black; the side that moved and the other),
 *   move (canonical text), from, to, part, size (of the stack at TO after
 *   the move), moved_size (the whole stack before it), left (what a split
 *   leaves on FROM), captured_color, captured_size;
 *   flags: growth, whole, split, swap, pass, spent, captured,
 *   captured_own, outward, taxed (a split arriving smaller than its part).
 * -1 with the rules' reason if the move is not legal in `before`. */
int render_move_ctx(const struct core_position *before,
		    const struct core_move *move, struct template_ctx *ctx,
		    enum core_error *err_r);

/* The ply in words ("Black split 2 from c3 to e5 and captured a White
 * 1-stack"), from the template move-words.txt of `set`, without a final
 * newline, appended to out.  -1 with *error_r (template or rules error;
 * valid until the next call on set). */
int render_move_words(struct template_set *set,
		      const struct core_position *before,
		      const struct core_move *move, struct buf *out,
		      const char **error_r);

/* ---- why a move is refused (render_explain.c) ---- */

/* Variables of a check for templates/explain.txt and rule.txt:
 *   reason, error (code words, for logs) and the flags named by them:
 *   the reason's word (blocked, over_time, ...; exactly one) and
 *   error_ + the error's word (error_not_visible, ...; exactly one);
 *   player, opponent (the side to move and the other), ply (of the move),
 *   tax (the mover's), winner, loser (of a finished game), last_column,
 *   last_row (of the board), min_size, max_size (of any board);
 *   where the move names two cells of the board: move (canonical text),
 *   whole_move (the same without a count), from, to, blocker (if a stack
 *   is in the way), part, from_size, to_size, moving (the stack or part
 *   that moves), from_dist, to_dist, gain, inward, loss, arrive (see
 *   struct core_check_info), and the flags moving_part (a split) and
 *   part_one, gain_one, inward_one, loss_one (the count is one). */
void render_check_ctx(const struct core_geom *g,
		      const struct core_check_info *info,
		      struct template_ctx *ctx);

/* The rule behind err in a few words ("the target is not visible from the
 * start"), from rule.txt of `set`, one line without a newline, appended
 * to out.  -1 with *error_r on a template error (valid until the next
 * call on set). */
int render_rule(struct template_set *set, enum core_error err,
		struct buf *out, const char **error_r);

/* Why `move` (may be NULL: nothing was read) got err in pos, naming cells
 * and numbers ("c3 is not visible from e5: d4 is in the way"), from
 * explain.txt, one line, appended to out.  Same errors as render_rule(). */
int render_explain(struct template_set *set, const struct core_position *pos,
		   const struct core_move *move, enum core_error err,
		   struct buf *out, const char **error_r);

/* What a refusal of a move shows, set in ctx: "rule" (render_rule()) and,
 * if move is not NULL, "explain" (render_explain(); pos may be NULL when
 * move is).  This is the call for refusal templates such as
 * mail/refusal.txt.  -1 with *error_r on a template error (ctx may then
 * hold "rule" alone). */
int render_move_refusal(struct template_set *set,
			const struct core_position *pos,
			const struct core_move *move, enum core_error err,
			struct template_ctx *ctx, const char **error_r);

/* A self-contained SVG picture of the board: hexagons with their cell
 * names, stacks as discs (white / black) with their size.  `last` (may be
 * NULL) is the ply that led here, outlined on the board. */
void render_board_svg(const struct core_position *pos,
		      const struct core_move *last, struct buf *out);

#endif
