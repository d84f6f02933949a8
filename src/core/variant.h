/* variant.h -- the options of a game (size, tax, swap, draw) as one table:
 * each option's key, its values, its default and how it is written.
 * Everything that reads or writes a variant goes through it: the stored
 * text of a game ("size=5 tax=removed swap draw=no"), the options of a
 * `challenge` command (size=7 swap tax=lost draw=no), the [game] keys of
 * ashesd.conf, the game record and the board text.
 *
 * Part of the rules core: no I/O, no allocation.  struct core_variant and
 * core_variant_default() are in core.h.
 */
#ifndef ASHES_CORE_VARIANT_H
#define ASHES_CORE_VARIANT_H

#include "core/core.h"

/* Longest variant text core_variant_format() writes, NUL included. */
#define CORE_VARIANT_TEXT_MAX 64
/* A number option's value, as a `challenge` may write it, has at most this
 * many digits: a longer word is malformed, while a shorter one out of range
 * (size=99) is a value the service refuses saying what the range is. */
#define CORE_VARIANT_NUMBER_DIGITS_MAX 6

enum core_variant_type {
	CORE_VARIANT_NUMBER, /* digits, in [min, max]: size */
	CORE_VARIANT_CHOICE, /* one of names[], the value is its index: tax */
	CORE_VARIANT_FLAG,   /* yes or no (1 or 0): swap, draw */
};

/* Which options a text may name. */
enum core_variant_scope {
	/* The rules of play: what a game record and the board text hold. */
	CORE_VARIANT_RULES,
	/* The rules and the service's own options (draw): a stored game. */
	CORE_VARIANT_ALL,
};

/* One option.  Read the fields; get and set the value with
 * core_variant_get() and core_variant_set(). */
struct core_variant_option {
	const char *key;          /* lower case: "size", "tax", "swap", "draw" */
	enum core_variant_type type;
	const char *const *names; /* CHOICE: by value, NULL-terminated */
	int min, max;             /* NUMBER: the range */
	int def;                  /* the default value */
	/* FLAG, default off: written as the bare key when on ("swap"), and
	 * a `challenge` may write it bare.  Other flags are written as
	 * "KEY=yes|no" when not at their default ("draw=no"). */
	bool bare;
	bool rules;               /* in CORE_VARIANT_RULES (not draw) */
	/* The error of a bad value: CORE_ERR_BAD_SIZE for size, else
	 * CORE_ERR_BAD_VARIANT. */
	enum core_error bad_value;
	int (*get)(const struct core_variant *v);
	void (*put)(struct core_variant *v, int value);
};

/* The i-th option, in the order of the variant text (size, tax, swap,
 * draw); NULL when i is past the last.  Only tests/core/test_variant.c
 * calls it: it walks the whole table (every option must round-trip
 * through the variant text), which lookups by key could not promise. */
const struct core_variant_option *core_variant_option_at(size_t i);

/* The option whose key is key[0 .. len-1], case-insensitive; NULL if
 * there is none. */
const struct core_variant_option *core_variant_option_find(const char *key,
							   size_t len);

/* Is value[0 .. len-1] well-formed for opt: "yes" or "no" for a flag, one
 * of the names for a choice (case-insensitive), at most
 * CORE_VARIANT_NUMBER_DIGITS_MAX digits for a number.  The range of a
 * number is not checked here: core_variant_set_option() does. */
bool core_variant_option_value_ok(const struct core_variant_option *opt,
				  const char *value, size_t len);

/* opt's value in v: the number, the index of the name, 1 or 0. */
int core_variant_get(const struct core_variant *v,
		     const struct core_variant_option *opt);

/* Set opt's value in v.  -1 with opt->bad_value, v unchanged, when value
 * is out of range (not a name's index, not 0 or 1 for a flag). */
int core_variant_set(struct core_variant *v,
		     const struct core_variant_option *opt, int value,
		     enum core_error *err_r);

/* Apply one option as a `challenge` writes it, key and value apart:
 * ("size", "7"), ("tax", "lost"), ("swap", "yes"|"no"), ("draw",
 * "yes"|"no"); case-insensitive.  -1 with v unchanged and
 * CORE_ERR_BAD_VARIANT for an unknown key or a bad value, or
 * CORE_ERR_BAD_SIZE for a size that is not 3..13 (more than 3 digits is
 * out of range too). */
int core_variant_set_option(struct core_variant *v, const char *key,
			    const char *value, enum core_error *err_r);

/* Apply one word of a variant text (word[0 .. len-1]): "size=7",
 * "tax=lost", "swap" (a bare flag is only ever written bare),
 * "draw=no" / "draw=yes"; case-insensitive.  Only the options of scope
 * are known.  -1 with v unchanged and the option's bad_value for a bad
 * value, else CORE_ERR_BAD_VARIANT ("size=" and "colour" alike). */
int core_variant_parse_word(struct core_variant *v,
			    enum core_variant_scope scope, const char *word,
			    size_t len, enum core_error *err_r);

/* Apply every word of a stored variant text (words apart by blanks; all
 * options known) to *v.  Options the text does not name keep their value
 * in *v, so set it first: core_variant_default(), and the draw default of
 * the service, which stored games before draw=... left unsaid.  -1 at the
 * first bad word, with its error; *v is then partly applied. */
int core_variant_parse(struct core_variant *v, const char *text,
		       enum core_error *err_r);

/* The canonical text of v's options in scope, into buf (len bytes, cut to
 * fit): "size=N tax=NAME", then " swap" when on, then " draw=no" when
 * draws are off (CORE_VARIANT_ALL only).  Returns buf. */
char *core_variant_format(const struct core_variant *v,
			  enum core_variant_scope scope, char *buf, size_t len);

#endif
