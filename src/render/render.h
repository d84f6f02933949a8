/* render.h -- a position turned into what players see: the board as text
 * (hex layout, each row named at its ends, W3 / B12 stacks), the legal-move
 * list (grouped compactly, or one per line), the last move in words, why a
 * move is refused, and a picture of the board (SVG, or PNG made from
 * it) for the text/html alternative of a mail.
 *
 * Sentences are not written here: they are templates (see template.h),
 * rendered by the caller with the variables render_position_ctx() sets, or
 * by render_move_words() for a ply.  The text produced here is only cells,
 * numbers and the notation's own signs.  Output is appended to a struct buf.
 */
#ifndef ASHES_RENDER_RENDER_H
#define ASHES_RENDER_RENDER_H

#include <stddef.h>

#include "core/core.h"
#include "render/template.h"
#include "util/buf.h"

/* Width the text of a mail is meant to fit (move lists, and boards up to
 * size 9), and the width no board exceeds (RFC 5322's line length). */
#define RENDER_TEXT_WIDTH 72
#define RENDER_BOARD_WIDTH_MAX 78

/* The widest line render_board() draws for a board of `size`:
 * RENDER_TEXT_WIDTH up to size 9, RENDER_BOARD_WIDTH_MAX above. */
int render_board_width(int size);

/* The board as text (render_text.c), one line per row, top row first,
 * pointy-top hexagons (each row shifted half a cell from the next, as in
 * the picture), each line ended by '\n'.  A stack is "W3" / "B12", an
 * empty cell ".".  Each row begins with the name of its first cell and,
 * where render_board_key() says so, ends with the name of its last; the
 * cells between run in letter order ("e9  .   .   .   .   .  i9": e9 f9
 * g9 h9 i9).  Cells are 4 columns apart, or 3 where 4 would be wider than
 * render_board_width() (sizes 10 to 13: two stacks may then touch,
 * "W3B12"; and on a row too wide for a blank after its name, a two-digit
 * stack on its first cell steps a column right, "a13 W12.").  Stack labels longer than 3 characters (sizes >= 100) are
 * drawn as "*1", "*2"... and listed after the board ("*1 = W123 (e5)"). */
void render_board(const struct core_position *pos, struct buf *out);

/* What the key under a board (board-key.txt) says about render_board()
 * of geometry g: true if every row also ends with its last cell's name
 * (false: sizes where only the first fits).  The top row's names as an
 * example, "e9 f9 ... i9" ("c5 d5 e5" at size 3), are appended to
 * example. */
bool render_board_key(const struct core_geom *g, struct buf *example);

/* The legal moves of the side to move, grouped, lines wrapped to
 * RENDER_TEXT_WIDTH, each ended by '\n':
 *   stacks (the mover's own), by source in reading order; whole-stack
 *   targets, then split parts with the same targets joined ("/1-3"); an
 *   "x" after a target marks a capture:
 *     "c3: d4 e5 f6x  /1: d4 e5  /2-3: d4"
 *   (a source that does not fit one line gets a line per group);
 *   "swap" on its own line after them where it is legal;
 *   growth (empty FROM), by source then by the size of the new stack:
 *     "e5 =1: d4 d5 e4  =2: c3 c5"
 * Stack lines (and swap) go to `stacks` and growth lines to `growth`
 * (either may be NULL to skip it).  The list is cut to at most `max`
 * moves (0: all): whole entries (one source's line or lines) in the order
 * stacks, swap, growth, up to the first that would pass max; the moves
 * listed in *listed_r (may be NULL).  Returns the number of legal moves.
 * Exported, though only render.c's template variables use it, so that
 * tests/render/test_render.c can check the lists without a template. */
size_t render_legal_moves_cut(const struct core_position *pos, size_t max,
			      struct buf *growth, struct buf *stacks,
			      size_t *listed_r);

/* Every legal move in canonical notation, one per line, sorted in byte
 * order (`ashes legal`).  Returns the count. */
size_t render_legal_moves_plain(const struct core_position *pos,
				struct buf *out);

/* Every legal move in canonical notation, one per line, for a player:
 * the mover's stacks first (by source in reading order, the whole stack
 * then each part, targets in reading order), then swap, then growth (by
 * source, targets in reading order).  Returns the count. */
size_t render_legal_moves_lines(const struct core_position *pos,
				struct buf *out);

/* Variables describing a position, for templates:
 *   board (render_board()), board_row (render_board_key()'s example) and
 *   the flag board_both_ends (its result), for board-key.txt;
 *   moves_growth, moves_stacks (as above), moves_count;
 *   moves_short_growth, moves_short_stacks (the list cut at no limit: the
 *   same; see render_position_ctx_max()), moves_listed, moves_unlisted
 *   (0) and the flag moves_cut (unset);
 *   turn (white|black), ply (plies played), next_ply, size, variant,
 *   tax_white, tax_black, stacks_white, stacks_black,
 *   result (ongoing|white|black|draw), end_reason, and the flags
 *   ongoing, over, won_white, won_black, draw, turn_white, turn_black,
 *   must_pass (the side to move has no legal move), and how a game
 *   ended: by_elimination, by_double_pass, by_resignation, by_agreement,
 *   by_time. */
void render_position_ctx(const struct core_position *pos,
			 struct template_ctx *ctx);

/* render_position_ctx() with the short list cut at `max` moves (0: all),
 * as render_legal_moves_cut() does: moves_short_stacks,
 * moves_short_growth, moves_listed (the moves in them), moves_unlisted
 * (the rest) and moves_cut (set when moves_unlisted > 0).  The full list
 * (moves_stacks, moves_growth) is set too. */
void render_position_ctx_max(const struct core_position *pos, size_t max,
			     struct template_ctx *ctx);

/* The ply in words ("Black split 2 from c3 to e5 and captured a White
 * 1-stack"), from the template move-words.txt of `set`, without a final
 * newline, appended to out.  -1 with *error_r (template or rules error;
 * valid until the next call on set). */
int render_move_words(struct template_set *set,
		      const struct core_position *before,
		      const struct core_move *move, struct buf *out,
		      const char **error_r);

/* ---- dates in words (render_date.c) ---- */

/* A local date and time as the reader's calendar names it. */
struct render_date {
	int year, month, day; /* month 1..12 */
	int weekday;          /* 1 Monday .. 7 Sunday */
	int hour, minute;
	const char *zone;     /* its abbreviation, "CET", "UTC" */
};

/* The date in words ("Thursday 3 December 2026, 14:00 CET") from the
 * template calendar.txt of `set` (its month_N, weekday_N and date
 * lines; see render_date.c), without a newline, appended to out.  -1
 * with *error_r on a template error or a line calendar.txt lacks. */
int render_date(struct template_set *set, const struct render_date *d,
		struct buf *out, const char **error_r);

/* A span of time ("1 day 3 hours", "5 hours 12 minutes", "7 minutes":
 * the two largest units, the days' and hours' or the hours' and
 * minutes', or the minutes alone) in words, from the span line of
 * calendar.txt, rendered with days, hours, minutes, the flags days_one,
 * hours_one, minutes_one (for the singular) and which form applies:
 * with_days, with_hours, minutes_only.  Appended to out, without a
 * newline; a negative span is 0.  -1 with *error_r as render_date(). */
int render_span(struct template_set *set, int64_t seconds, struct buf *out,
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

/* ---- the board picture (render_svg.c, render_png.c) ---- */

/* The MIME types of the two pictures a mail can carry. */
#define RENDER_PNG_TYPE "image/png"
#define RENDER_SVG_TYPE "image/svg+xml"

/* How a picture is drawn; all zero (or a NULL pointer) is valid: no
 * words, the natural size. */
struct render_picture {
	/* picture.txt of this set gives the words beside each player's disc
	 * (the side and its turn or result; its stacks and tax); NULL: the
	 * panels show the discs and the turn without words. */
	struct template_set *templates;
	/* PNG only: the width in pixels (the height follows, at most
	 * RENDER_PNG_MAX_SIDE either way); 0: the natural size, where cell
	 * names are 12 px high (about 650 px wide at size 7). */
	int width;
};
#define RENDER_PNG_MAX_SIDE 4096

/* The board as a self-contained SVG picture on its own dark background:
 * above the board a panel per player (disc, words, the side to move or
 * the winner outlined), below it hexagons with their cell names, stacks
 * as discs (white / black) with their size, and `last` (may be NULL: the
 * ply that led here) as an arrow from its source to its target, both
 * cells lit.  Appended to out; -1 with *error_r (the template's error,
 * valid until the next call on pic->templates) if the words could not be
 * rendered, and out may then hold part of a picture. */
int render_picture_svg(const struct core_position *pos,
		       const struct core_move *last,
		       const struct render_picture *pic, struct buf *out,
		       const char **error_r);

/* render_picture_svg() without words, which cannot fail. */
void render_board_svg(const struct core_position *pos,
		      const struct core_move *last, struct buf *out);

/* The same picture as a PNG: librsvg draws the SVG into a cairo image
 * surface, written as an opaque 8-bit indexed PNG (the picture's own
 * colours exact, smoothed edges to the nearest of a small palette), about
 * 18 KB at size 7.  pic->width pixels wide (0: the natural size).
 * Appended to out; -1 with *error_r (static, or valid until the next call
 * in this thread; a template's error as render_picture_svg()) on a
 * template error, a width out of range, or when librsvg, cairo or zlib
 * fail.  Takes tens of milliseconds (see `make bench`, bench_picture). */
int render_board_png(const struct core_position *pos,
		     const struct core_move *last,
		     const struct render_picture *pic, struct buf *out,
		     const char **error_r);

/* The PNG of an SVG picture made by render_picture_svg() (len bytes),
 * `width` pixels wide (0: its own width): what render_board_png() does
 * after drawing the SVG, for a caller that kept the SVG.  Same errors. */
int render_png_from_svg(const char *svg, size_t len, int width,
			struct buf *out, const char **error_r);

#endif
