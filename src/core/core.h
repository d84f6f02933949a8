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

/* The named options of a game: size=N, swap, tax=removed|lost. */
struct core_variant {
	int size;
	bool swap;
	enum core_tax_rule tax_rule;
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

/* Every reason the rules or the notation refuse something.  The text of each
 * is core_error_string(); core_explain_move() gives a sentence with cells. */
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

/* The default variant: size 5, no swap, tax=removed. */
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

/* Upper bound on the legal-move count in pos, for sizing arrays. */
size_t core_legal_moves_bound(const struct core_position *pos);

/* 0 if `move` (from/to/part/kind as parsed) is legal for the side to move;
 * sets move->capture, and sets kind to growth or whole stack by what FROM
 * holds (both are written FROM-TO).  -1 with the precise reason otherwise
 * (core_explain_move() turns it into a sentence). */
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

/* Short fixed text of an error ("target is bigger than the moving stack"). */
const char *core_error_string(enum core_error err);

/* A full sentence on why `move` is refused in pos, naming cells and sizes,
 * e.g. "c3 is not visible from e5: d4 is in the way".  Writes at most len
 * bytes (NUL included) and returns buf. */
char *core_explain_move(const struct core_position *pos,
			const struct core_move *move, enum core_error err,
			char *buf, size_t len);

const char *core_color_name(enum core_color c); /* "white" / "black" */
const char *core_result_name(enum core_result r); /* ongoing|white|black|draw */
const char *core_end_reason_name(enum core_end_reason r);

#endif
