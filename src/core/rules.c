/* rules.c -- positions and play: checking a move against RULES-SPEC.md,
 * applying it with its removals and tax, and the consequences the rules
 * force afterwards (elimination, forced passes, double-pass draw).
 */
#include <string.h>

#include "core/core-int.h"

/* Key term of a player's tax. */
static inline uint64_t key_tax(int color, int tax)
{
	return core_mix64((color == CORE_WHITE ? UINT64_C(0x7461782077686974) :
			   UINT64_C(0x74617820626c6163)) +
			  (uint64_t)(uint32_t)tax);
}

/* Key terms of the turn, swap state and result: with the taxes, what a
 * move may change besides the stacks. */
static inline uint64_t key_state(const struct core_position *pos)
{
	uint64_t k = 0;

	if (pos->to_move == CORE_BLACK)
		k ^= UINT64_C(0xb1ac4e70a5e5d3c1);
	if (pos->swapped)
		k ^= UINT64_C(0x5ea9bd0c8f1e2a77);
	/* Whether Black may still swap changes the legal moves. */
	if (core_swap_available(pos))
		k ^= UINT64_C(0x2c6f93e1d4b8a5f3);
	if (pos->result != CORE_ONGOING)
		k ^= core_mix64(UINT64_C(0x656e640000000000) |
				(uint64_t)pos->result << 8 | pos->end_reason);
	return k;
}

uint64_t core_key_extras(const struct core_position *pos)
{
	uint64_t k = core_mix64(UINT64_C(0x41736865730a0001) ^
				(uint64_t)pos->geom->size << 8 ^
				(uint64_t)pos->variant.tax_rule << 16 ^
				(uint64_t)pos->variant.swap << 17);

	return k ^ key_tax(CORE_WHITE, pos->tax[0]) ^
		key_tax(CORE_BLACK, pos->tax[1]) ^ key_state(pos);
}

uint64_t core_position_key(const struct core_position *pos)
{
	uint64_t k = core_key_extras(pos);

	for (int c = 0; c < pos->geom->ncells; c++)
		if (pos->stack[c] != 0)
			k ^= core_key_stack(c, pos->stack[c]);
	return k;
}

void core_position_refresh(struct core_position *pos)
{
	pos->nstacks[0] = pos->nstacks[1] = 0;
	for (int c = 0; c < pos->geom->ncells; c++) {
		if (pos->stack[c] > 0)
			pos->nstacks[CORE_WHITE]++;
		else if (pos->stack[c] < 0)
			pos->nstacks[CORE_BLACK]++;
	}
	pos->key = core_position_key(pos);
}

int core_position_init(struct core_position *pos_r,
		       const struct core_variant *v, enum core_error *err_r)
{
	const struct core_geom *g = core_geom_get(v->size);

	if (g == NULL) {
		*err_r = CORE_ERR_BAD_SIZE;
		return -1;
	}
	if (v->tax_rule != CORE_TAX_REMOVED && v->tax_rule != CORE_TAX_LOST) {
		*err_r = CORE_ERR_BAD_VARIANT;
		return -1;
	}
	memset(pos_r, 0, sizeof(*pos_r));
	pos_r->geom = g;
	pos_r->variant = *v;
	pos_r->to_move = CORE_WHITE;
	pos_r->last_kind = CORE_MOVE_PASS; /* irrelevant before ply 1 */
	pos_r->result = CORE_ONGOING;
	pos_r->end_reason = CORE_END_NONE;
	pos_r->key = core_position_key(pos_r);
	return 0;
}

bool core_can_grow(const struct core_position *pos, enum core_color color)
{
	const struct core_geom *g = pos->geom;
	int tax = pos->tax[color];
	/* The biggest gain is centre to edge, R. */
	int max_ds = g->radius - 1 - tax;

	if (max_ds < 0)
		return false;
	for (int s = 0; s < g->ncells; s++) {
		int ds = g->dist[s];
		if (pos->stack[s] != 0 || ds > max_ds)
			continue;
		for (int d = 0; d < CORE_DIRECTIONS; d++) {
			const int16_t *ray = g->ray_cells + g->ray_start[s][d];
			for (int c; (c = *ray++) >= 0 && pos->stack[c] == 0;) {
				if (g->dist[c] - ds - tax >= 1)
					return true;
			}
		}
	}
	return false;
}

/* True if the stack of size s on cell `from` (the mover's) has a move. */
static bool stack_has_move(const struct core_position *pos, int from,
			   int32_t s, int32_t sign, int32_t tax)
{
	const struct core_geom *g = pos->geom;
	int ds = g->dist[from];

	/* A split to an empty cell arrives with k - tax for k up to s - 1. */
	bool split_empty = s - 1 - tax >= 1;
	for (int d = 0; d < CORE_DIRECTIONS; d++) {
		const int16_t *ray = g->ray_cells + g->ray_start[from][d];
		for (int c; (c = *ray++) >= 0;) {
			int32_t t = pos->stack[c];
			if (t == 0) {
				if (split_empty ||
				    core_whole_size(s, ds, g->dist[c]) >= 0)
					return true;
				continue;
			}
			int32_t at = t < 0 ? -t : t;
			if (at <= s && core_whole_size(s, ds, g->dist[c]) >= 0)
				return true;
			if (at <= s - 1) {
				/* A split onto it: own arrives with k,
				 * the opponent's with k - tax. */
				if ((t > 0) == (sign > 0) || s - 1 - tax >= 1)
					return true;
			}
			break;
		}
	}
	return false;
}

bool core_has_legal_move(const struct core_position *pos)
{
	const struct core_geom *g = pos->geom;
	int me = pos->to_move;
	int32_t sign = core_sign(me), tax = pos->tax[me];

	if (core_swap_available(pos))
		return true;
	for (int c = 0; c < g->ncells; c++) {
		int32_t v = pos->stack[c] * sign;
		if (v > 0 && stack_has_move(pos, c, v, sign, tax))
			return true;
	}
	return core_can_grow(pos, me);
}

enum core_error core_check_detail(const struct core_position *pos,
				  struct core_move *move,
				  struct core_check_facts *info_r)
{
	const struct core_geom *g = pos->geom;
	struct core_check_facts info;
	int me = pos->to_move;
	int32_t sign = core_sign(me);

	memset(&info, 0, sizeof(info));
	info.blocker = -1;
	info.tax = pos->tax[me];
	if (info_r != NULL)
		*info_r = info;
	if (pos->result != CORE_ONGOING)
		return CORE_ERR_GAME_OVER;
	if (move->kind == CORE_MOVE_SWAP) {
		move->capture = false;
		return core_swap_available(pos) ? CORE_OK :
			CORE_ERR_SWAP_NOT_ALLOWED;
	}
	if (move->kind == CORE_MOVE_PASS) {
		/* At rest the side to move always has a move: forced
		 * passes are played by core_play itself. */
		return core_has_legal_move(pos) ? CORE_ERR_PASS_NOT_FORCED :
			CORE_OK;
	}
	if (move->kind > CORE_MOVE_SPLIT)
		return CORE_ERR_SYNTAX;
	if (move->from < 0 || move->from >= g->ncells ||
	    move->to < 0 || move->to >= g->ncells)
		return CORE_ERR_UNKNOWN_CELL;

	int from = move->from, to = move->to;
	int32_t v = pos->stack[from];
	info.s = v < 0 ? -v : v;
	info.t = pos->stack[to];
	info.ds = g->dist[from];
	info.dt = g->dist[to];
	info.onto_own = info.t != 0 && (info.t > 0) == (sign > 0);
	move->capture = info.t != 0;
	if (move->kind != CORE_MOVE_SPLIT)
		move->kind = v == 0 ? CORE_MOVE_GROWTH : CORE_MOVE_WHOLE;
	if (info_r != NULL)
		*info_r = info;

	if (from == to)
		return CORE_ERR_SAME_CELL;
	if (v != 0 && (v > 0) != (sign > 0))
		return CORE_ERR_NOT_YOUR_STACK;
	if (move->kind == CORE_MOVE_SPLIT) {
		if (v == 0)
			return CORE_ERR_PART_OF_EMPTY;
		if (move->part < 1)
			return CORE_ERR_PART_ZERO;
		if (move->part == info.s)
			return CORE_ERR_PART_WHOLE_STACK;
		if (move->part > info.s)
			return CORE_ERR_PART_TOO_BIG;
		info.moving = move->part;
	} else {
		info.moving = info.s;
	}

	int d = core_geom_direction(g, from, to);
	if (d < 0) {
		if (info_r != NULL)
			*info_r = info;
		return CORE_ERR_NOT_VISIBLE;
	}
	for (int c = g->neighbour[from][d]; c != to; c = g->neighbour[c][d]) {
		if (pos->stack[c] != 0) {
			info.blocker = c;
			break;
		}
	}
	int32_t at = info.t < 0 ? -info.t : info.t;
	switch (move->kind) {
	case CORE_MOVE_GROWTH:
		info.arrive = (int64_t)info.dt - info.ds - info.tax;
		break;
	case CORE_MOVE_WHOLE:
		info.arrive = core_whole_size(info.s, info.ds, info.dt);
		break;
	default:
		info.arrive = info.onto_own ? move->part :
			(int64_t)move->part - info.tax;
		break;
	}
	if (info_r != NULL)
		*info_r = info;
	if (info.blocker >= 0)
		return CORE_ERR_NOT_VISIBLE;
	if (at > info.moving)
		return CORE_ERR_TARGET_BIGGER;
	switch (move->kind) {
	case CORE_MOVE_GROWTH:
		if (info.dt <= info.ds)
			return CORE_ERR_GROWTH_NOT_OUTWARD;
		if (info.arrive < 1)
			return CORE_ERR_TAX_NOT_PAYABLE;
		break;
	case CORE_MOVE_WHOLE:
		if (info.arrive < 0)
			return CORE_ERR_TOO_FAR_INWARD;
		break;
	default:
		if (info.arrive < 1)
			return CORE_ERR_TAX_NOT_PAYABLE;
		break;
	}
	return CORE_OK;
}

int core_check_move(const struct core_position *pos, struct core_move *move,
		    enum core_error *err_r)
{
	enum core_error err = core_check_detail(pos, move, NULL);

	if (err != CORE_OK) {
		*err_r = err;
		return -1;
	}
	return 0;
}

static inline void set_stack(struct core_position *pos, int c, int32_t v)
{
	int32_t old = pos->stack[c];

	if (old != 0)
		pos->key ^= core_key_stack(c, old);
	if (v != 0)
		pos->key ^= core_key_stack(c, v);
	pos->stack[c] = v;
}

/* Remove the stack on c (t != 0); returns its owner. */
static inline int remove_stack(struct core_position *pos, int c)
{
	int owner = pos->stack[c] > 0 ? CORE_WHITE : CORE_BLACK;

	set_stack(pos, c, 0);
	pos->nstacks[owner]--;
	return owner;
}

static inline void add_tax(struct core_position *pos, int me, int owner)
{
	if (pos->variant.tax_rule == CORE_TAX_LOST)
		pos->tax[owner]++;
	else
		pos->tax[me]++;
}

/* The plies the rules force after a move: elimination, then passes. */
static void settle(struct core_position *pos, int *passes_r)
{
	int passes = 0;
	bool out_w = pos->nstacks[CORE_WHITE] == 0 &&
		!core_can_grow(pos, CORE_WHITE);
	bool out_b = pos->nstacks[CORE_BLACK] == 0 &&
		!core_can_grow(pos, CORE_BLACK);

	if (out_w || out_b) {
		pos->result = out_w && out_b ? CORE_RESULT_DRAW :
			out_w ? CORE_RESULT_BLACK : CORE_RESULT_WHITE;
		pos->end_reason = CORE_END_ELIMINATION;
		goto out;
	}
	/* Each player in turn who has no move passes; two in a row draw.
	 * (The second cannot happen in a real game: the biggest stack on
	 * the board always has a move, so only one side can be stuck; see
	 * t_double_pass_unreachable in tests/core/test_rules.c.) */
	while (!core_has_legal_move(pos)) {
		pos->ply++;
		pos->to_move ^= 1;
		pos->last_kind = CORE_MOVE_PASS;
		if (++passes == 2) {
			pos->result = CORE_RESULT_DRAW;
			pos->end_reason = CORE_END_DOUBLE_PASS;
			break;
		}
	}
out:
	if (passes_r != NULL)
		*passes_r = passes;
}

void core_play_unchecked(struct core_position *pos, const struct core_move *move,
			 int *forced_passes_r)
{
	const struct core_geom *g = pos->geom;
	int me = pos->to_move;
	int32_t sign = core_sign(me), tax = pos->tax[me];
	int from = move->from, to = move->to;
	int tax_before[2] = { pos->tax[0], pos->tax[1] };

	/* The key's other terms are updated for what changed only. */
	pos->key ^= key_state(pos);
	switch (move->kind) {
	case CORE_MOVE_GROWTH:
		set_stack(pos, to, sign * (g->dist[to] - g->dist[from] - tax));
		pos->nstacks[me]++;
		break;
	case CORE_MOVE_WHOLE: {
		int32_t s = pos->stack[from] * sign;
		int64_t ns = core_whole_size(s, g->dist[from], g->dist[to]);
		set_stack(pos, from, 0);
		if (pos->stack[to] != 0)
			add_tax(pos, me, remove_stack(pos, to));
		if (ns == 0) {
			/* Spent: the stack leaves the board. */
			pos->nstacks[me]--;
			add_tax(pos, me, me);
		} else {
			set_stack(pos, to, sign * (int32_t)ns);
		}
		break;
	}
	case CORE_MOVE_SPLIT: {
		int32_t s = pos->stack[from] * sign, k = move->part;
		int32_t t = pos->stack[to] * sign;
		set_stack(pos, from, sign * (s - k));
		if (t > 0) {
			/* Onto an own stack: no new stack, no tax paid. */
			add_tax(pos, me, remove_stack(pos, to));
			set_stack(pos, to, sign * k);
			pos->nstacks[me]++;
		} else {
			if (t < 0)
				add_tax(pos, me, remove_stack(pos, to));
			set_stack(pos, to, sign * (k - tax));
			pos->nstacks[me]++;
		}
		break;
	}
	case CORE_MOVE_SWAP:
		pos->swapped = !pos->swapped;
		pos->ply++;
		pos->last_kind = CORE_MOVE_SWAP;
		/* Black stays the colour to move. */
		goto settle;
	default: /* a pass */
		break;
	}
	pos->ply++;
	pos->to_move ^= 1;
	pos->last_kind = move->kind;
settle:
	settle(pos, forced_passes_r);
	pos->key ^= key_state(pos);
	for (int c = 0; c < 2; c++)
		if (pos->tax[c] != tax_before[c])
			pos->key ^= key_tax(c, tax_before[c]) ^
				key_tax(c, pos->tax[c]);
}

int core_play(struct core_position *pos, struct core_move *move,
	      int *forced_passes_r, enum core_error *err_r)
{
	enum core_error err = core_check_detail(pos, move, NULL);

	if (err != CORE_OK) {
		*err_r = err;
		return -1;
	}
	core_play_unchecked(pos, move, forced_passes_r);
	return 0;
}

int core_end_game(struct core_position *pos, enum core_end_reason reason,
		  enum core_color loser, enum core_error *err_r)
{
	if (pos->result != CORE_ONGOING) {
		*err_r = CORE_ERR_GAME_OVER;
		return -1;
	}
	if (reason != CORE_END_RESIGNATION && reason != CORE_END_AGREED_DRAW &&
	    reason != CORE_END_TIME) {
		*err_r = CORE_ERR_BAD_ARGUMENT;
		return -1;
	}
	pos->key ^= core_key_extras(pos);
	pos->end_reason = (uint8_t)reason;
	if (reason == CORE_END_AGREED_DRAW)
		pos->result = CORE_RESULT_DRAW;
	else
		pos->result = loser == CORE_WHITE ? CORE_RESULT_BLACK :
			CORE_RESULT_WHITE;
	pos->key ^= core_key_extras(pos);
	return 0;
}
