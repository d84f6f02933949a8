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

#endif
