/* notation.h -- the canonical move notation: parse FROM-TO, FROMxTO,
 * FROMTO, FROM-TO/K, swap, pass (case-insensitive) and print the canonical
 * form (lower case, `x` exactly on captures, `/K` only for splits).
 * Part of the rules core: no I/O, no allocation.
 */
#ifndef ASHES_CORE_NOTATION_H
#define ASHES_CORE_NOTATION_H

#include "core/core.h"

/* Parse `text` (len bytes; surrounding blanks are not allowed) in the
 * context of pos, which decides the kind (an empty FROM is a growth, /K a
 * split).  Only the syntax and the cell names are checked here: call
 * core_check_move() or core_play() for legality.  -1 with CORE_ERR_SYNTAX,
 * CORE_ERR_UNKNOWN_CELL or CORE_ERR_PART_OF_EMPTY otherwise (for the last,
 * *move_r is filled, so core_check_info() can name the cells). */
int notation_parse_move(const struct core_position *pos, const char *text,
			size_t len, struct core_move *move_r,
			enum core_error *err_r);

/* Canonical text of a move into buf (CORE_MOVE_TEXT_MAX bytes); returns buf. */
char *notation_format_move(const struct core_geom *g,
			   const struct core_move *move, char *buf);

/* Options text "size=N", "swap", "tax=removed|lost" applied to *v: the
 * rules' options only (draw=... is the service's, see variant.h).
 * -1 with CORE_ERR_BAD_SIZE or CORE_ERR_BAD_VARIANT. */
int notation_parse_variant_option(struct core_variant *v, const char *text,
				  enum core_error *err_r);

/* "size=5 tax=removed" (+ " swap") for a variant, without the service's
 * options (the game record, the board text); returns buf. */
char *notation_format_variant(const struct core_variant *v, char *buf,
			      size_t len);

#endif
