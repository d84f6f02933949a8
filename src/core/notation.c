/* notation.c -- the move notation (FROM-TO, FROMxTO, FROMTO, FROM-TO/K,
 * swap, pass), and the variant options of the rules (size=N, swap,
 * tax=removed|lost) by the table of variant.c.
 */
#include <stdio.h>
#include <string.h>

#include "core/notation.h"
#include "core/variant.h"
#include "core/core-int.h"

static bool is_letter(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Length of a cell-shaped token (letter + digits) at text, or 0. */
static size_t cell_token(const char *text, size_t len)
{
	size_t i = 1;

	if (len < 2 || !is_letter(text[0]) || !is_digit(text[1]))
		return 0;
	while (i < len && is_digit(text[i]))
		i++;
	return i;
}

int notation_parse_move(const struct core_position *pos, const char *text,
			size_t len, struct core_move *move_r,
			enum core_error *err_r)
{
	const struct core_geom *g = pos->geom;
	struct core_move m = { .kind = CORE_MOVE_WHOLE, .from = -1, .to = -1 };
	size_t a, b, i;
	int from, to;

	if (core_word_is(text, len, "swap") || core_word_is(text, len, "pass")) {
		m.kind = (text[0] == 's' || text[0] == 'S') ?
			CORE_MOVE_SWAP : CORE_MOVE_PASS;
		*move_r = m;
		return 0;
	}
	a = cell_token(text, len);
	if (a == 0)
		goto syntax;
	i = a;
	if (i < len && (text[i] == '-' || text[i] == 'x' || text[i] == 'X'))
		i++;
	b = cell_token(text + i, len - i);
	if (b == 0)
		goto syntax;
	size_t bstart = i;
	i += b;
	if (i < len) {
		int64_t k = 0;
		if (text[i] != '/' || i + 1 == len)
			goto syntax;
		for (i++; i < len; i++) {
			if (!is_digit(text[i]))
				goto syntax;
			/* A huge count is simply too big: clamp, don't wrap. */
			if (k < INT32_MAX)
				k = k * 10 + (text[i] - '0');
		}
		m.kind = CORE_MOVE_SPLIT;
		m.part = k > INT32_MAX ? INT32_MAX : (int32_t)k;
	}
	from = core_cell_parse(g, text, a);
	to = core_cell_parse(g, text + bstart, b);
	if (from < 0 || to < 0) {
		*err_r = CORE_ERR_UNKNOWN_CELL;
		return -1;
	}
	m.from = (int16_t)from;
	m.to = (int16_t)to;
	m.capture = pos->stack[to] != 0;
	if (pos->stack[from] == 0) {
		if (m.kind == CORE_MOVE_SPLIT) {
			/* Hand the move back so the error can be explained. */
			*move_r = m;
			*err_r = CORE_ERR_PART_OF_EMPTY;
			return -1;
		}
		m.kind = CORE_MOVE_GROWTH;
	}
	*move_r = m;
	return 0;
syntax:
	*err_r = CORE_ERR_SYNTAX;
	return -1;
}

char *notation_format_move(const struct core_geom *g,
			   const struct core_move *move, char *buf)
{
	switch (move->kind) {
	case CORE_MOVE_SWAP:
		strcpy(buf, "swap");
		break;
	case CORE_MOVE_PASS:
		strcpy(buf, "pass");
		break;
	default:
		if (move->from < 0 || move->from >= g->ncells ||
		    move->to < 0 || move->to >= g->ncells) {
			strcpy(buf, "?");
			break;
		}
		if (move->kind == CORE_MOVE_SPLIT)
			snprintf(buf, CORE_MOVE_TEXT_MAX, "%s%c%s/%ld",
				 g->name[move->from], move->capture ? 'x' : '-',
				 g->name[move->to], (long)move->part);
		else
			snprintf(buf, CORE_MOVE_TEXT_MAX, "%s%c%s",
				 g->name[move->from], move->capture ? 'x' : '-',
				 g->name[move->to]);
		break;
	}
	return buf;
}

/* The variant options are read and written by the table in variant.c; these
 * two keep the rules' part of it under the names records and the command
 * line use. */
int notation_parse_variant_option(struct core_variant *v, const char *text,
				  enum core_error *err_r)
{
	return core_variant_parse_word(v, CORE_VARIANT_RULES, text,
				       strlen(text), err_r);
}

char *notation_format_variant(const struct core_variant *v, char *buf,
			      size_t len)
{
	return core_variant_format(v, CORE_VARIANT_RULES, buf, len);
}
