/* core.h -- the Ashes rules: board geometry, positions, moves, legal-move
 * generation and play, as fixed by RULES-SPEC.md.
 *
 * No I/O, no clock, no randomness, no allocation in the move loop; links
 * against libc only.  Everything above (render, store, server, cli) reaches
 * the rules through this header and the ones beside it (notation.h,
 * record.h).
 *
 * Conventions: functions return 0 on success and -1 on failure, with the
 * reason in an `enum core_error *err_r`; output parameters end in _r.
 * A cell is an index 0 .. ncells-1 into the board of its position's size.
 */
#ifndef ASHES_CORE_H
#define ASHES_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CORE_MIN_SIZE 3
#define CORE_MAX_SIZE 13
#define CORE_DEFAULT_SIZE 5
/* 3N(N-1)+1 for N = 13 */
#define CORE_MAX_CELLS 469
/* Longest canonical move text, "m13-m13/2147483647" plus NUL, rounded up. */
#define CORE_MOVE_TEXT_MAX 32
/* Longest cell name ("m13") plus NUL. */
#define CORE_CELL_NAME_MAX 4

enum core_color { CORE_WHITE = 0, CORE_BLACK = 1 };

enum core_tax_rule {
	CORE_TAX_REMOVED = 0, /* tax = stacks removed by the player's moves */
	CORE_TAX_LOST = 1,    /* tax = the player's own stacks removed by anyone */
};

/* The named options of a game: size=N, swap, tax=removed|lost, and the
 * service's draw=yes|no.  Read and written by the table in variant.h. */
struct core_variant {
	int size;
	bool swap;
	enum core_tax_rule tax_rule;
	bool draw_offers; /* may the players agree a draw; not a rule of play */
};

/* Cells on all rays of all cells of the biggest board, terminators
 * included (sum over cells and directions of ray length + 1, N = 13). */
#define CORE_RAY_CELLS_MAX 28782

/* Board geometry for one size, built once and shared read-only. */
#define CORE_DIRECTIONS 6
struct core_geom {
	int size;   /* N */
	int radius; /* R = N - 1 */
	int ncells;
	int8_t x[CORE_MAX_CELLS], y[CORE_MAX_CELLS];
	int8_t dist[CORE_MAX_CELLS]; /* max(|x|, |y|, |x - y|) */
	/* neighbour[c][d]: the next cell from c in direction d, or -1. */
	int16_t neighbour[CORE_MAX_CELLS][CORE_DIRECTIONS];
	char name[CORE_MAX_CELLS][CORE_CELL_NAME_MAX];
	/* cell_at[x + R][y + R]: the cell at axial (x, y), or -1. */
	int16_t cell_at[2 * CORE_MAX_SIZE - 1][2 * CORE_MAX_SIZE - 1];
	/* The cells seen from c looking in direction d, nearest first, end
	 * at -1: ray_cells + ray_start[c][d].  A flat list walks faster than
	 * following neighbour[] (no chain of dependent loads). */
	uint16_t ray_start[CORE_MAX_CELLS][CORE_DIRECTIONS];
	int16_t ray_cells[CORE_RAY_CELLS_MAX];
};

enum core_move_kind {
	CORE_MOVE_GROWTH = 0, /* an empty stack moved outward: a new stack */
	CORE_MOVE_WHOLE = 1,  /* the mover's whole stack */
	CORE_MOVE_SPLIT = 2,  /* a proper part of the mover's stack */
	CORE_MOVE_SWAP = 3,   /* Black's colour swap at ply 2 of a swap game */
	CORE_MOVE_PASS = 4,   /* forced pass, recorded by the server */
};

/* One ply.  `capture` is set by the generator and by core_check_move: it is
 * true exactly when T held a stack (of either colour) before the move, so
 * the canonical text can be printed without the position. */
struct core_move {
	uint8_t kind;    /* enum core_move_kind */
	bool capture;
	int16_t from, to; /* cells; -1 for swap and pass */
	int32_t part;     /* k for a split, 0 otherwise */
};

enum core_result {
	CORE_ONGOING = 0,
	CORE_RESULT_WHITE = 1, /* white won */
	CORE_RESULT_BLACK = 2, /* black won */
	CORE_RESULT_DRAW = 3,
};

enum core_end_reason {
	CORE_END_NONE = 0,
	CORE_END_ELIMINATION,
	CORE_END_DOUBLE_PASS,  /* both players in turn had no legal move */
	CORE_END_RESIGNATION,
	CORE_END_AGREED_DRAW,
	CORE_END_TIME,
};

/* Every reason the rules or the notation refuse something.  Its code word
 * is core_error_name(); core_check_info() gives the cells and numbers
 * behind it.  The words people read are templates/rule.txt (the rule) and
 * templates/explain.txt (why, here), rendered by src/render. */
enum core_error {
	CORE_OK = 0,
	CORE_ERR_SYNTAX,           /* not FROM-TO or FROM-TO/K */
	CORE_ERR_UNKNOWN_CELL,     /* no such cell on this board */
	CORE_ERR_SAME_CELL,        /* T == S */
	CORE_ERR_NOT_VISIBLE,      /* not on a line, or a stack in between */
	CORE_ERR_TARGET_BIGGER,    /* T holds a bigger stack than the mover */
	CORE_ERR_NOT_YOUR_STACK,   /* S holds the opponent's stack */
	CORE_ERR_GROWTH_NOT_OUTWARD, /* empty S, dT <= dS */
	CORE_ERR_TAX_NOT_PAYABLE,  /* growth or split would arrive with < 1 */
	CORE_ERR_TOO_FAR_INWARD,   /* whole stack would shrink below 0 */
	CORE_ERR_PART_TOO_BIG,     /* k > s */
	CORE_ERR_PART_WHOLE_STACK, /* k == s: leave the count off */
	CORE_ERR_PART_ZERO,        /* k < 1 */
	CORE_ERR_PART_OF_EMPTY,    /* /K on an empty cell */
	CORE_ERR_SWAP_NOT_ALLOWED, /* not a swap game, or not ply 2 */
	CORE_ERR_PASS_NOT_FORCED,  /* a player with a legal move must move */
	CORE_ERR_GAME_OVER,
	CORE_ERR_BAD_SIZE,         /* size outside 3..13 */
	CORE_ERR_BAD_VARIANT,      /* unknown variant option */
	CORE_ERR_RECORD,           /* malformed game record */
	CORE_ERR_NO_MEMORY,
	CORE_ERR_BAD_ARGUMENT,     /* e.g. an unknown end reason */
};

struct core_position {
	const struct core_geom *geom;
	struct core_variant variant;
	/* > 0: white stack of that size, < 0: black, 0: empty. */
	int32_t stack[CORE_MAX_CELLS];
	int tax[2];         /* indexed by enum core_color */
	int nstacks[2];     /* stacks on the board per colour */
	uint8_t to_move;    /* enum core_color */
	int ply;            /* plies played so far; the next one is ply + 1 */
	bool swapped;       /* a swap was played: players hold swapped colours */
	uint8_t last_kind;  /* kind of the last ply, for the double-pass rule */
	uint8_t result;     /* enum core_result */
	uint8_t end_reason; /* enum core_end_reason */
	uint64_t key;       /* position key, see core_position_key() */
};

/* Geometry for size N (3..13), or NULL for other sizes.  Built on first
 * use into static storage; never freed. */
const struct core_geom *core_geom_get(int size);

/* The default variant: size 5, no swap, tax=removed, draws allowed (the
 * defaults of the table in variant.c). */
void core_variant_default(struct core_variant *v_r);

/* Set up the empty starting position, White to move.  -1 with
 * CORE_ERR_BAD_SIZE if the size is outside 3..13. */
int core_position_init(struct core_position *pos_r,
		       const struct core_variant *v, enum core_error *err_r);

/* Fill moves[0 .. cap-1] with the legal moves for the side to move and
 * return how many legal moves there are (which may exceed cap: call again
 * with a bigger array).  Includes swap where allowed; never includes pass.
 * Returns 0 when the game is over or the side to move must pass.  No
 * allocation. */
size_t core_legal_moves(const struct core_position *pos,
			struct core_move *moves, size_t cap);

/* Like core_legal_moves, but fill moves[] with the legal moves number
 * first .. first + cap - 1 of the generator's fixed order (so `first = r,
 * cap = 1` fetches the r-th move without listing the others).  Returns
 * the total count.  Counting alone (cap 0) is cheap: splits are counted
 * by ranges, not one by one. */
size_t core_legal_moves_from(const struct core_position *pos, size_t first,
			     struct core_move *moves, size_t cap);

/* The fast path for random play: count the legal moves, n, and when
 * n > 0 put move number r % n of the generator's fixed order (the order of
 * core_legal_moves_from) in *move_r, without listing the others.  The
 * caller brings the randomness: a uniform r gives a uniform legal move (up
 * to the bias of r % n).  Returns n; 0 when the game is over or the side
 * to move must pass (then *move_r is untouched).  No allocation. */
size_t core_legal_move_pick(const struct core_position *pos, uint64_t r,
			    struct core_move *move_r);

/* What core_legal_move_pick() rebuilds from the stacks on every call (the
 * occupied cells, and each line's stacks; at N = 6 and 7 also each line's
 * moves), kept by a playout across its moves instead: a move changes at
 * most two cells.  Caller-owned scratch (~17 KB: keep it off small
 * stacks), no allocation; internal fields.  It describes the position whose key
 * it holds, and is rebuilt from the stacks whenever that key differs from
 * the position's (so positions edited by hand and refreshed are safe). */
struct core_pick_growths {
	/* N = 6, 7: the growths at one tax, line by line (line, their
	 * sums, and each cell's over its three lines), but for the lines
	 * dirty since (bit l for line l). */
	uint64_t dirty;
	uint32_t total;
	uint16_t sum[40];
	uint8_t line[40][16];
	uint8_t cell[128];
	uint16_t rows[13];      /* the cells' sums by row (core-int.h) */
};

struct core_pick_stack {
	/* N = 6, 7: the moves of the stack at one place of a line along
	 * it that do not depend on the tax, the empty cells it sees there,
	 * and s - at for the opponent's stacks at the ends (or INT32_MIN). */
	uint32_t whole;
	uint8_t empty;
	int32_t d[2];
};

struct core_pick_state {
	uint64_t key;
	int size;
	uint64_t occ[2], white[2];      /* cell c at bit c % 64, word c / 64 */
	uint32_t pat[40];               /* N = 6, 7: each line's stacks */
	bool kept;                      /* kept across moves: the below */
	uint8_t gvalid;                 /* bit t: growths[t] kept */
	uint64_t sdirty;                /* bit l: stacks[l] stale */
	struct core_pick_stack stacks[40][16];
	struct core_pick_growths growths[7]; /* by tax (growth needs < R) */
};

/* Set ps to describe pos (call once before the first use of ps). */
void core_pick_state_init(struct core_pick_state *ps,
			  const struct core_position *pos);

/* core_legal_move_pick() through ps (brought up to date first if it
 * describes another position): the same count and the same move. */
size_t core_legal_move_pick_with(struct core_pick_state *ps,
				 const struct core_position *pos, uint64_t r,
				 struct core_move *move_r);

/* Is `move` (legal in pos, as the generator gives it) quiet: does it
 * remove nothing from the board (land on no stack, spend no stack to 0),
 * so that it never adds to the mover's tax? */
bool core_move_quiet(const struct core_position *pos,
		     const struct core_move *move);

/* The quiet moves (core_move_quiet()).
 * core_legal_move_pick_with() over them alone: returns their count, and
 * when it is > 0 puts quiet move number r % count, in the generator's
 * order, in *move_r.  0 when no legal move is quiet (*move_r untouched). */
size_t core_quiet_move_pick_with(struct core_pick_state *ps,
				 const struct core_position *pos, uint64_t r,
				 struct core_move *move_r);

/* core_play_unchecked(), keeping ps up to date: if ps described pos
 * before the move, only the cells the move changed are redone. */
void core_play_picked(struct core_position *pos, struct core_pick_state *ps,
		      const struct core_move *move, int *forced_passes_r);

/* Upper bound on the legal-move count in pos, for sizing arrays. */
size_t core_legal_moves_bound(const struct core_position *pos);

/* 0 if `move` (from/to/part/kind as parsed) is legal for the side to move;
 * sets move->capture, and sets kind to growth or whole stack by what FROM
 * holds (both are written FROM-TO).  -1 with the precise reason otherwise
 * (core_check_info() gives the cells and numbers behind it). */
int core_check_move(const struct core_position *pos, struct core_move *move,
		    enum core_error *err_r);

/* Check and apply one ply, then apply the consequences the rules force:
 * elimination, forced passes (recorded as plies), double-pass draw.
 * `forced_passes_r` (may be NULL) gets how many pass plies were added after
 * the move.  -1 and pos unchanged if the move is illegal. */
int core_play(struct core_position *pos, struct core_move *move,
	      int *forced_passes_r, enum core_error *err_r);

/* Apply a move known to be legal (from core_legal_moves); the fast path for
 * perft and playouts.  Same consequences as core_play. */
void core_play_unchecked(struct core_position *pos, const struct core_move *move,
			 int *forced_passes_r);

/* End the game by resignation, agreed draw or time.  `loser` is ignored for
 * CORE_END_AGREED_DRAW.  -1 with CORE_ERR_GAME_OVER if already over. */
int core_end_game(struct core_position *pos, enum core_end_reason reason,
		  enum core_color loser, enum core_error *err_r);

/* True if `color` could make a growth move now (whoever is to move). */
bool core_can_grow(const struct core_position *pos, enum core_color color);

/* Whose stack is at cell c: 0 none, 1 white, 2 black; and its size. */
static inline int core_stack_size(const struct core_position *pos, int c)
{
	int32_t v = pos->stack[c];
	return v < 0 ? -v : v;
}

/* After setting pos->stack[] (or tax[]) by hand, e.g. to build a test
 * position: recompute nstacks[] and key.  Does not apply elimination or
 * passes. */
void core_position_refresh(struct core_position *pos);

/* Position key: a 64-bit hash of stacks, taxes, side to move and swap state
 * (Zobrist-style, deterministic constants).  Equal positions, equal keys. */
uint64_t core_position_key(const struct core_position *pos);

/* Leaf count to `depth` plies (a finished game is one leaf). */
uint64_t core_perft(const struct core_position *pos, int depth);

/* Cell from its name ("e5", case-insensitive) or -1. */
int core_cell_parse(const struct core_geom *g, const char *name, size_t len);

/* Code word of an error, stable for logs and template sections:
 * "not_visible", "part_too_big", ...; "unknown" for a value out of range. */
const char *core_error_name(enum core_error err);

/* Why a move got the answer it got, finer than enum core_error where the
 * explanation differs (a stack in the way or no line at all; how a game
 * ended; ...).  Each has a section of templates/explain.txt, named by
 * core_reason_name(). */
enum core_reason {
	CORE_REASON_LEGAL = 0,      /* CORE_OK: the move is legal */
	CORE_REASON_RULE_ONLY,      /* nothing to add to the rule: the move
				     * was not given or names no cells */
	CORE_REASON_RULE_OF_MOVE,   /* the move and the rule (an error that
				     * does not fit the move) */
	CORE_REASON_SYNTAX,
	CORE_REASON_UNKNOWN_CELL,   /* board_width says what exists */
	CORE_REASON_BAD_SIZE,
	CORE_REASON_GAME_OVER,      /* over, how unknown */
	CORE_REASON_OVER_ELIMINATION,      /* loser eliminated */
	CORE_REASON_OVER_BOTH_ELIMINATED,  /* by the same move: a draw */
	CORE_REASON_OVER_DOUBLE_PASS,
	CORE_REASON_OVER_RESIGNATION,
	CORE_REASON_OVER_AGREED_DRAW,
	CORE_REASON_OVER_TIME,
	CORE_REASON_SWAP_NOT_IN_VARIANT,   /* a game without the swap option */
	CORE_REASON_SWAP_WRONG_PLY,        /* only Black's first move: ply 2 */
	CORE_REASON_PASS_NOT_FORCED,
	CORE_REASON_SAME_CELL,
	CORE_REASON_NOT_YOUR_STACK,
	CORE_REASON_PART_OF_EMPTY,
	CORE_REASON_PART_ZERO,
	CORE_REASON_PART_WHOLE_STACK,
	CORE_REASON_PART_TOO_BIG,
	CORE_REASON_BLOCKED,        /* not visible: `blocker` is in the way */
	CORE_REASON_OFF_LINE,       /* not visible: not on a line through FROM */
	CORE_REASON_GROWTH_ONTO_STACK, /* a growth needs an empty target */
	CORE_REASON_TARGET_BIGGER,
	CORE_REASON_GROWTH_NOT_OUTWARD,
	CORE_REASON_GROWTH_TAX,     /* the new stack would have < 1 piece */
	CORE_REASON_SPLIT_TAX,      /* the part would arrive with < 1 piece */
	CORE_REASON_TOO_FAR_INWARD,
};
#define CORE_REASON_COUNT (CORE_REASON_TOO_FAR_INWARD + 1)

/* Code word of a reason ("blocked", "over_time"); "unknown" if out of
 * range. */
const char *core_reason_name(enum core_reason reason);

/* The cells and numbers behind the answer to a move, for its explanation.
 * Fields that do not concern the reason are 0 (cells -1). */
struct core_check_info {
	enum core_error err;     /* as given */
	enum core_reason reason;
	/* Both cells are on the board: `move` and the fields up to `loss`
	 * are known.  move.kind is growth or whole by what FROM holds, as
	 * core_check_move() sets it. */
	bool has_move;
	struct core_move move;
	int blocker;             /* the first stack between FROM and TO, or -1 */
	int32_t from_size;       /* the stack on FROM (0: empty) */
	int32_t to_size;         /* the stack on TO, either colour (0: empty) */
	int32_t moving;          /* the moving stack or part */
	int from_dist, to_dist;  /* distances of FROM and TO from the centre */
	int gain;                /* to_dist - from_dist: a growth's size before
				  * tax */
	int inward;              /* from_dist - to_dist: steps towards the
				  * centre */
	int loss;                /* 1 + inward: what a whole stack moving in
				  * loses */
	int64_t arrive;          /* what would arrive on TO (may be < 1) */
	int32_t tax;             /* the mover's tax */
	enum core_color mover;   /* the side to move */
	int ply;                 /* the ply the move would be (ply + 1) */
	enum core_result result; /* of a finished game */
	enum core_color loser;   /* the side that did not win it */
	int board_width;         /* columns (a, b, ...) = rows (1, 2, ...) */
};

/* Fill *info_r with why `move` got `err` in pos (err as core_check_move()
 * or the notation gave it; CORE_OK for a legal move).  `move` may be NULL
 * when there was no move to read.  Never fails: an err that does not fit
 * the move gives CORE_REASON_RULE_OF_MOVE or CORE_REASON_RULE_ONLY.  No
 * text and no allocation. */
void core_check_info(const struct core_position *pos,
		     const struct core_move *move, enum core_error err,
		     struct core_check_info *info_r);

const char *core_color_name(enum core_color c); /* "white" / "black" */
const char *core_result_name(enum core_result r); /* ongoing|white|black|draw */
const char *core_end_reason_name(enum core_end_reason r);

#endif
