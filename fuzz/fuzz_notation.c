/* fuzz_notation.c -- libFuzzer target for notation_parse_move: any bytes,
 * in a few positions (the first byte picks one), must be refused with an
 * error or give a move whose canonical text parses back to the same move;
 * checking, explaining (core_check_info) and playing it must not
 * misbehave.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/notation.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Position number `which`: sizes 3..13, some with stacks of both colours
 * and taxes, one with a swap pending. */
static void fuzz_position(struct core_position *pos, unsigned which)
{
	struct core_variant v;
	enum core_error err;

	core_variant_default(&v);
	v.size = CORE_MIN_SIZE + (int)(which % 11);
	v.swap = which & 16;
	if (core_position_init(pos, &v, &err) < 0)
		abort();
	if (which & 32) {
		/* A fixed scatter of stacks, big and small. */
		for (int c = 0; c < pos->geom->ncells; c += 3)
			pos->stack[c] = (c % 2 ? 1 : -1) * (1 + c % 7);
		pos->stack[pos->geom->ncells / 2] = 1000000;
		pos->tax[0] = (int)(which >> 6) & 3;
		pos->tax[1] = 1;
		pos->ply = 7;
		core_position_refresh(pos);
	} else if (which & 64) {
		struct core_move m = { .kind = CORE_MOVE_GROWTH, .from = 0,
				       .to = -1 };
		/* One growth from the centre, so swap may be pending. */
		m.from = (int16_t)pos->geom->cell_at[pos->geom->radius][pos->geom->radius];
		m.to = 0;
		if (core_play(pos, &m, NULL, &err) < 0)
			abort();
	}
}

static bool same_move(const struct core_move *a, const struct core_move *b)
{
	return a->kind == b->kind && a->from == b->from && a->to == b->to &&
	       a->part == b->part && a->capture == b->capture;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct core_position pos, next;
	struct core_move move, again;
	enum core_error err;
	struct core_check_info info;
	char text[CORE_MOVE_TEXT_MAX];

	if (size < 1)
		return 0;
	fuzz_position(&pos, data[0]);
	data++;
	size--;
	if (notation_parse_move(&pos, (const char *)data, size, &move, &err) < 0) {
		if (err != CORE_ERR_SYNTAX && err != CORE_ERR_UNKNOWN_CELL &&
		    err != CORE_ERR_PART_OF_EMPTY)
			abort();
		if (err == CORE_ERR_PART_OF_EMPTY) {
			/* The parser filled the cells: the reason names them. */
			core_check_info(&pos, &move, err, &info);
			if (info.reason != CORE_REASON_PART_OF_EMPTY ||
			    !info.has_move)
				abort();
		}
		return 0;
	}
	notation_format_move(pos.geom, &move, text);
	if (strlen(text) >= CORE_MOVE_TEXT_MAX)
		abort();
	if (notation_parse_move(&pos, text, strlen(text), &again, &err) < 0 ||
	    !same_move(&move, &again))
		abort();
	next = pos;
	if (core_play(&next, &move, NULL, &err) < 0) {
		/* A refusal has a reason (never "legal") and changes nothing. */
		core_check_info(&pos, &move, err, &info);
		if (info.err != err || info.reason == CORE_REASON_LEGAL ||
		    (unsigned)info.reason >= CORE_REASON_COUNT ||
		    memcmp(&next.key, &pos.key, sizeof(pos.key)))
			abort();
		return 0;
	}
	if (next.key != core_position_key(&next))
		abort();
	return 0;
}
