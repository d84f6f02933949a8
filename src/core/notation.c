/* notation.c -- the move notation (FROM-TO, FROMxTO, FROMTO, FROM-TO/K,
 * swap, pass) and the variant options (size=N, swap, tax=removed|lost).
 */
#include <stdio.h>
#include <string.h>

#include "core/notation.h"

static bool word_is(const char *text, size_t len, const char *word)
{
	size_t n = strlen(word);

	if (len != n)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = text[i];
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (c != word[i])
			return false;
	}
	return true;
}

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

	if (word_is(text, len, "swap") || word_is(text, len, "pass")) {
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

int notation_parse_variant_option(struct core_variant *v, const char *text,
				  enum core_error *err_r)
{
	size_t len = strlen(text);

	if (word_is(text, len, "swap")) {
		v->swap = true;
		return 0;
	}
	if (word_is(text, len, "tax=removed")) {
		v->tax_rule = CORE_TAX_REMOVED;
		return 0;
	}
	if (word_is(text, len, "tax=lost")) {
		v->tax_rule = CORE_TAX_LOST;
		return 0;
	}
	if (len > 5 && word_is(text, 5, "size=")) {
		int n = 0;
		for (size_t i = 5; i < len; i++) {
			if (!is_digit(text[i]) || i > 7) {
				*err_r = CORE_ERR_BAD_SIZE;
				return -1;
			}
			n = n * 10 + (text[i] - '0');
		}
		if (n < CORE_MIN_SIZE || n > CORE_MAX_SIZE) {
			*err_r = CORE_ERR_BAD_SIZE;
			return -1;
		}
		v->size = n;
		return 0;
	}
	*err_r = CORE_ERR_BAD_VARIANT;
	return -1;
}

char *notation_format_variant(const struct core_variant *v, char *buf,
			      size_t len)
{
	snprintf(buf, len, "size=%d tax=%s%s", v->size,
		 v->tax_rule == CORE_TAX_LOST ? "lost" : "removed",
		 v->swap ? " swap" : "");
	return buf;
}
