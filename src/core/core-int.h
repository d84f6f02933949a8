/* core-int.h -- internals shared by the files of the rules core (geometry
 * directions, key hashing, move-existence tests).  Not for other layers:
 * they use core.h, notation.h and record.h.
 */
#ifndef ASHES_CORE_INT_H
#define ASHES_CORE_INT_H

#include "core/core.h"

/* Axial steps of the six directions; direction d + 3 is the opposite of d. */
extern const int core_dir_dx[CORE_DIRECTIONS];
extern const int core_dir_dy[CORE_DIRECTIONS];

/* Direction from a to b if b lies on one of the six lines through a (and
 * b != a), else -1. */
int core_geom_direction(const struct core_geom *g, int a, int b);

/* Sign of the stacks of a colour: +1 white, -1 black. */
static inline int32_t core_sign(int color)
{
	return color == CORE_WHITE ? 1 : -1;
}

/* splitmix64's finaliser: a good 64-bit mixer for the position key. */
static inline uint64_t core_mix64(uint64_t z)
{
	z += UINT64_C(0x9e3779b97f4a7c15);
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* Key term of a non-empty stack value v (signed: owner and size) on cell c. */
static inline uint64_t core_key_stack(int c, int32_t v)
{
	return core_mix64(((uint64_t)(uint32_t)c << 32 | (uint32_t)v) ^
			  UINT64_C(0x5a3c9e1b7d2f4860));
}

/* Key terms of everything but the stacks (variant, taxes, turn, swap state,
 * result). */
uint64_t core_key_extras(const struct core_position *pos);

/* True if the side to move has at least one legal move (swap included). */
bool core_has_legal_move(const struct core_position *pos);

/* In movepick.c: the legal-move count of pos, and the count with move
 * number r put in *move_r when r is below it (core_legal_moves_from() with
 * cap 0 and 1). */
size_t core_legal_move_count(const struct core_position *pos);
size_t core_legal_move_at(const struct core_position *pos, size_t r,
			  struct core_move *move_r);

/* Size a stack of size s reaches by a whole-stack move from distance ds to
 * dt (may be negative: then the move is illegal). */
static inline int64_t core_whole_size(int32_t s, int ds, int dt)
{
	return dt > ds ? (int64_t)s + (dt - ds) : (int64_t)s - 1 - (ds - dt);
}

/* True if the swap is a legal move in pos (game still on). */
static inline bool core_swap_available(const struct core_position *pos)
{
	return pos->variant.swap && pos->ply == 1 &&
	       pos->to_move == CORE_BLACK && !pos->swapped;
}

/* What core_check_detail() found out about a move: the numbers behind its
 * answer, which core_check_info() hands on to whoever explains it. */
struct core_check_facts {
	int32_t s;       /* size at S */
	int32_t t;       /* signed stack value at T (0 empty) */
	int ds, dt;      /* distances of S and T from the centre */
	int blocker;     /* first stack between S and T, or -1 */
	int32_t moving;  /* size of the moving stack or part (0 for growth) */
	int64_t arrive;  /* size that would arrive at T (may be < 1) */
	int32_t tax;     /* the mover's tax before the move */
	bool onto_own;   /* T holds one of the mover's stacks */
};

/* core_check_move() with the numbers behind its answer.  Normalises
 * move->kind (growth vs whole by the content of S) and sets capture. */
enum core_error core_check_detail(const struct core_position *pos,
				  struct core_move *move,
				  struct core_check_facts *info_r);

/* text[0 .. len-1] is word, ignoring the case of ASCII letters (word is
 * lower case).  In variant.c, for notation.c and the variant table. */
bool core_word_is(const char *text, size_t len, const char *word);

/* Bitboards for boards of up to 127 cells (N <= 7).  Cell c is bit c + 1;
 * bit 0 is no cell, so a search for the highest stack on a ray that goes
 * down the cell numbers always finds one (bit 0 stands for the edge).
 * Cell numbers grow along directions 0, 1, 2 and shrink along 3, 4, 5, so
 * the nearest stack on a ray is its lowest or its highest set bit. */
typedef unsigned __int128 core_bits;
#define CORE_BB_MAX_SIZE 7

struct core_bb {
	core_bits ray[127][CORE_DIRECTIONS]; /* cells seen from c, no stacks */
	core_bits far[CORE_BB_MAX_SIZE + 1]; /* far[m]: distance >= m */
};

/* The bitboard tables of g's size, or NULL above CORE_BB_MAX_SIZE.  Built
 * with the geometry (so no locking here), read-only afterwards. */
const struct core_bb *core_bb_get(const struct core_geom *g);

static inline core_bits core_bb_bit(int c)
{
	return (core_bits)1 << (c + 1);
}

/* Cell of the lowest set bit of v (v != 0). */
static inline int core_bb_lowest(core_bits v)
{
	uint64_t lo = (uint64_t)v;

	return (lo ? __builtin_ctzll(lo) :
		64 + __builtin_ctzll((uint64_t)(v >> 64))) - 1;
}

/* Bits set in a and b together.  A popcount instruction is not in the
 * baseline x86-64 the project builds for (movepick.c has a copy built
 * with it for processors that have it), and the library call costs more
 * than this. */
static inline int core_bits_count2(core_bits a, core_bits b)
{
#ifdef __POPCNT__
	return __builtin_popcountll((uint64_t)a) +
	       __builtin_popcountll((uint64_t)(a >> 64)) +
	       __builtin_popcountll((uint64_t)b) +
	       __builtin_popcountll((uint64_t)(b >> 64));
#else
	const uint64_t m1 = UINT64_C(0x5555555555555555);
	const uint64_t m2 = UINT64_C(0x3333333333333333);
	const uint64_t m4 = UINT64_C(0x0f0f0f0f0f0f0f0f);
	uint64_t a0 = (uint64_t)a, a1 = (uint64_t)(a >> 64);
	uint64_t b0 = (uint64_t)b, b1 = (uint64_t)(b >> 64), sum;

	a0 -= (a0 >> 1) & m1;
	a1 -= (a1 >> 1) & m1;
	b0 -= (b0 >> 1) & m1;
	b1 -= (b1 >> 1) & m1;
	a0 = (a0 & m2) + ((a0 >> 2) & m2);
	a1 = (a1 & m2) + ((a1 >> 2) & m2);
	b0 = (b0 & m2) + ((b0 >> 2) & m2);
	b1 = (b1 & m2) + ((b1 >> 2) & m2);
	/* Nibbles hold <= 4: two words summed stay <= 8, a byte of a pair
	 * <= 16, of all four <= 32. */
	a0 += a1;
	b0 += b1;
	sum = ((a0 & m4) + ((a0 >> 4) & m4)) + ((b0 & m4) + ((b0 >> 4) & m4));
	return (int)((sum * UINT64_C(0x0101010101010101)) >> 56);
#endif
}

/* Bit number of the lowest set bit of v (v != 0). */
static inline int core_bits_lowest(core_bits v)
{
	uint64_t lo = (uint64_t)v;

	return lo ? __builtin_ctzll(lo) :
		64 + __builtin_ctzll((uint64_t)(v >> 64));
}

static inline uint64_t core_bits_reverse64(uint64_t x)
{
	x = __builtin_bswap64(x);
	x = (x & UINT64_C(0x0f0f0f0f0f0f0f0f)) << 4 |
	    ((x >> 4) & UINT64_C(0x0f0f0f0f0f0f0f0f));
	x = (x & UINT64_C(0x3333333333333333)) << 2 |
	    ((x >> 2) & UINT64_C(0x3333333333333333));
	return (x & UINT64_C(0x5555555555555555)) << 1 |
	       ((x >> 1) & UINT64_C(0x5555555555555555));
}

/* v with bit i moved to bit 127 - i. */
static inline core_bits core_bits_reverse(core_bits v)
{
	return (core_bits)core_bits_reverse64((uint64_t)v) << 64 |
	       core_bits_reverse64((uint64_t)(v >> 64));
}

/* Cell c at bit c (ncells <= 128): the occupied cells of st[0 .. n-1]
 * and those of the colour of `sign`. */
void core_occupancy(const int32_t *st, int n, int32_t sign, core_bits *occ_r,
		    core_bits *own_r);

/* The occupied cells of pos in the layout of struct core_bb (its size
 * must be <= CORE_BB_MAX_SIZE). */
static inline core_bits core_bb_occupied(const struct core_position *pos)
{
	core_bits occ, own;

	core_occupancy(pos->stack, pos->geom->ncells, 1, &occ, &own);
	return occ << 1;
}

/* Growth counts by line, for boards of up to 64 cells (N <= 5), in
 * lines.c.  A growth source sees, along each of its three lines, the run
 * of empty cells around it; how many of them are far enough out depends
 * only on the line's stacks, the source's place on it and the tax.  So
 * the counts are tabled per line and pattern of stacks: three lookups per
 * source instead of six ray scans.  A line's pattern is gathered from the
 * board word (cell c at bit c) by one multiply, with a constant found at
 * start-up (a "magic" as in chess programs' sliding-piece tables). */
#define CORE_LINES_MAX_SIZE 5
#define CORE_LINES_MAX 27          /* 3 (2R + 1) */
#define CORE_LINE_PATTERNS 4416    /* 2^len summed over the lines, N = 5 */
#define CORE_LINES_MAX_TAX (CORE_LINES_MAX_SIZE - 1) /* growth needs tax < R */

struct core_line {
	uint64_t mask, magic;
	uint16_t base;         /* first row of this line in pack[], total[] */
	uint8_t shift;         /* 64 - len */
};

struct core_lines {
	int nlines;
	struct core_line line[CORE_LINES_MAX];
	uint8_t lid[64][3];    /* the line of each orientation through c */
	uint8_t lpos[64][3];   /* 4 x c's place on it */
	/* [tax][row]: 4 bits a place, the growth targets of the empty cell
	 * there; and their sum over the line. */
	uint64_t pack[CORE_LINES_MAX_TAX][CORE_LINE_PATTERNS];
	uint16_t total[CORE_LINES_MAX_TAX][CORE_LINE_PATTERNS];
};

/* The tables of g's size, or NULL above CORE_LINES_MAX_SIZE. */
const struct core_lines *core_lines_get(const struct core_geom *g);
void core_lines_build(const struct core_geom *g);

/* The row of line l for the occupied cells occ. */
static inline uint32_t core_line_row(const struct core_line *l, uint64_t occ)
{
	return l->base + (uint32_t)(((occ & l->mask) * l->magic) >> l->shift);
}

/* Growth counts by line for N = 6 and 7, in lines.c: a source's visible
 * run of empty cells along a line is found from the line's pattern of
 * stacks (gathered from the occupied cells, a few per position), and the
 * cells of the run far enough out are counted by prefix sums along the
 * line: far[base + p * (CORE_BB_MAX_SIZE + 1) + m] is the number of the
 * line's first p cells at distance >= m. */
#define CORE_RUNS_MAX_LINES 39     /* 3 (2R + 1), N = 7 */
#define CORE_RUNS_MAX_ROWS 13      /* 2R + 1: the lines of one orientation */
#define CORE_RUNS_FAR_MAX (3 * (127 + 13) * (CORE_BB_MAX_SIZE + 1))

struct core_runs {
	int nlines;
	uint8_t len[CORE_RUNS_MAX_LINES];
	uint16_t base[CORE_RUNS_MAX_LINES];
	uint8_t lid[127][3], lpos[127][3];
	uint8_t far[CORE_RUNS_FAR_MAX];
	/* Place i of line l: its cell, and the least distance a growth
	 * from there reaches with tax 0 (dist + 1). */
	uint8_t cell[CORE_RUNS_MAX_LINES][16];
	/* cellx[l][i + 1] = cell[l][i], and a cell of the line at both
	 * ends (i = -1 and len), for branch-free look-ups beyond them. */
	uint8_t cellx[CORE_RUNS_MAX_LINES][16];
	uint8_t need[CORE_RUNS_MAX_LINES][16];
	/* [l][D]: bit i for each place of line l at distance <= D (the
	 * growth sources when D = R - 1 - tax; one interval). */
	uint16_t inner[CORE_RUNS_MAX_LINES][CORE_BB_MAX_SIZE];
	/* Lines 0 .. orient0-1 run along orientation 0, orient0 ..
	 * orient1-1 along 1: those are the rows, each a run of cell
	 * numbers, in cell order. */
	uint8_t orient0, orient1;
	uint8_t row[CORE_RUNS_MAX_LINES][16]; /* the row of each place */
};

/* The tables of g's size, or NULL if it is not 6 or 7. */
const struct core_runs *core_runs_get(const struct core_geom *g);

/* Build movepick.c's tables for g's size; geom.c calls it once. */
void core_pick_build(const struct core_geom *g);

/* For tests: count with the copy of the counter that needs no popcount
 * instruction (on), or with the best the processor allows (off).  Returns
 * whether the portable copy was in use.  Not thread-safe. */
bool core_pick_portable(bool on);

/* The empty cells visible from c: on its six rays, before the first
 * stack.  If blockers_r is not NULL, blockers_r[d] gets the first stack on
 * ray d, or -1. */
static inline __attribute__((always_inline))
core_bits core_bb_seen(const struct core_bb *b, int c, core_bits occ,
		       int *blockers_r)
{
	core_bits seen = 0;

	for (int d = 0; d < 3; d++) {
		core_bits ray = b->ray[c][d], block = ray & occ;
		core_bits low = block & -block;
		/* No stack: low - 1 is every bit. */
		seen |= ray & (low - 1);
		if (blockers_r != NULL)
			blockers_r[d] = low ? core_bb_lowest(low) : -1;
	}
	for (int d = 3; d < CORE_DIRECTIONS; d++) {
		core_bits ray = b->ray[c][d], block = (ray & occ) | 1;
		uint64_t hi = (uint64_t)(block >> 64);
		int top = hi ? 127 - __builtin_clzll(hi) :
			63 - __builtin_clzll((uint64_t)block);
		seen |= ray & ~((((core_bits)2) << top) - 1);
		if (blockers_r != NULL)
			blockers_r[d] = top - 1;
	}
	return seen;
}

/* names[i] of a table of n names indexed by an enum, or "unknown" for a
 * value past its end or without a name (one added to the enum only). */
static inline const char *core_table_name(const char *const *names,
					  size_t n, unsigned i)
{
	return i < n && names[i] != NULL ? names[i] : "unknown";
}

#endif
