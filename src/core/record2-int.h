/* record2-int.h -- what the files of the version 2 record share: the
 * checks of every value (one set for the reader and the builders, so a
 * built record writes a text that reads), the fields each line allows, and
 * the snprintf-style writer.  Not for other layers: they use record2.h.
 */
#ifndef ASHES_CORE_RECORD2_INT_H
#define ASHES_CORE_RECORD2_INT_H

#include "core/record2.h"

/* Fields a ply allows, and a forced pass (no signer, no signed mail). */
#define RECORD2_PLY_FIELDS \
	(RECORD2_F_KEY | RECORD2_F_AT | RECORD2_F_CLOCK | RECORD2_F_SHA256 | \
	 RECORD2_F_COND)
#define RECORD2_PASS_FIELDS (RECORD2_F_AT | RECORD2_F_CLOCK)

/* What a comment kind is called and which fields it allows and needs. */
struct record2_comment_rule {
	const char *name;
	unsigned allowed, required;
	bool text_required, text_allowed;
};

/* Indexed by enum record2_comment_kind up to OTHER (NULL name). */
extern const struct record2_comment_rule record2_comment_rules[];

/* The length of the comment kind word at the start of s (a lower-case
 * letter, then lower-case letters, digits and '-'), 0 if there is none. */
size_t record2_kind_word(const char *s, size_t len);
/* The kind the word s[0 .. len-1] names; RECORD2_COMMENT_OTHER for a
 * word this reader does not know. */
enum record2_comment_kind record2_kind_find(const char *s, size_t len);

/* text[0 .. len-1] is UTF-8 without control characters but tab. */
bool record2_encoding_ok(const char *text, size_t len);

/* A free text (tag value, note): not empty, encoding_ok, no blank at
 * either end. */
bool record2_text_ok(const char *text, size_t len);

/* A tag key: a capital letter, then letters, digits and '_'. */
bool record2_tag_key_ok(const char *key, size_t len);

/* RECORD2_OK if value suits the tag `key` (NUL-terminated); else the
 * error, with *core_err_r for a variant. */
enum record2_error record2_tag_check(const char *key, const char *value,
				     size_t len, enum core_error *core_err_r);

/* The variant of a Variant tag value, which must be canonical (as
 * core_variant_format() writes it).  -1 with *core_err_r. */
int record2_variant_read(const char *text, size_t len,
			 struct core_variant *v_r, enum core_error *core_err_r);

/* Result and termination values; -1 for none. */
int record2_result_read(const char *text, size_t len,
			enum record2_result *r_r);
int record2_termination_read(const char *text, size_t len,
			     enum record2_termination *t_r);
/* Can a game end with this result this way? */
bool record2_outcome_ok(enum record2_result r, enum record2_termination t);

/* RECORD2_OK if move[0 .. len-1] is canonical notation: "swap", "pass",
 * or FROM-TO, FROMxTO with "/K" for a split, lower case, no leading zero;
 * with g (may be NULL) the cells must exist on that board. */
enum record2_error record2_move_check(const struct core_geom *g,
				      const char *move, size_t len);

/* RECORD2_OK if annot's fields are all allowed, the required ones there
 * and every value in range.  A forced pass (`pass`) gets
 * RECORD2_ERR_PASS_SIGNED for a key or sha256. */
enum record2_error record2_annot_check(const struct record2_annot *annot,
				       unsigned allowed, unsigned required,
				       bool pass);

/* Hex digits: n of them, upper case (keys) or lower case (sha256). */
bool record2_hex_ok(const char *s, size_t len, size_t n, bool upper);

/* The checks a ply gets wherever it comes from (the reader, the
 * builders): its move on the board of rec's Variant, its fields, and a
 * clock only where rec's TimeControl is not "none". */
enum record2_error record2_ply_check(const struct record2 *rec,
				     const struct record2_ply *p);

/* The board of the record's Variant tag, or NULL without one. */
const struct core_geom *record2_geom(const struct record2 *rec);

/* The tag entry for key, or NULL. */
const struct record2_tag *record2_tag_find(const struct record2 *rec,
					   const char *key);

/* Copy len bytes into a new NUL-terminated string; NULL when out of
 * memory. */
char *record2_strndup(const char *s, size_t len);

/* Room for one more entry in an array of `size`-byte elements. */
int record2_grow(void **array, size_t *cap, size_t n, size_t size);

/* snprintf-style appender: counts everything, writes what fits. */
struct record2_out {
	char *buf;
	size_t len, n;
};
void record2_out_printf(struct record2_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* open (" {" after a move, "{" in a comment), then "f=v ...}", for an
 * annotation with fields; nothing for one without. */
void record2_out_annot(struct record2_out *o, const struct record2_annot *a,
		       const char *open);
/* "N. MOVE[ (forced)][ {…}]" without the line end. */
void record2_out_ply(struct record2_out *o, size_t number,
		     const struct record2_ply *p);

#endif
