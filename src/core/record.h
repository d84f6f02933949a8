/* record.h -- the text game record: a variant header and numbered plies,
 * including swap and forced passes, that round-trips exactly.  Loading a
 * record replays and validates every move.  Format: docs/record-format.md.
 * This module allocates (the ply list grows), but never in the move loop.
 */
#ifndef ASHES_CORE_RECORD_H
#define ASHES_CORE_RECORD_H

#include "core/core.h"

struct core_record {
	struct core_variant variant;
	struct core_move *plies; /* every ply, forced passes included */
	size_t nplies, cap;
	struct core_position pos; /* the position after the last ply */
};

/* Start an empty record for a variant.  -1 on a bad variant. */
int record_init(struct core_record *rec, const struct core_variant *v,
		enum core_error *err_r);
void record_free(struct core_record *rec);

/* Play one ply (checked) and append it and any forced passes.  On error the
 * record is unchanged. */
int record_play(struct core_record *rec, struct core_move *move,
		enum core_error *err_r);

/* Parse move text and play it (the usual path for user input).  A `pass`
 * token is accepted only where the last ply is a forced pass that the
 * caller's text has not yet mentioned (*pending_passes counts those; may be
 * NULL to refuse `pass`). */
int record_play_text(struct core_record *rec, const char *text, size_t len,
		     int *pending_passes, enum core_error *err_r);

/* End by resignation / agreed draw / time (appended to the record). */
int record_end(struct core_record *rec, enum core_end_reason reason,
	       enum core_color loser, enum core_error *err_r);

/* Serialise to text.  Writes at most len bytes (NUL included) and returns
 * the length the full text needs (like snprintf). */
size_t record_format(const struct core_record *rec, char *buf, size_t len);

/* Parse and replay a record text.  -1 with CORE_ERR_RECORD (or the error of
 * the first illegal ply) and *line_r set to the offending line (1-based). */
int record_parse(struct core_record *rec_r, const char *text, size_t len,
		 int *line_r, enum core_error *err_r);

/* record_parse(), and on failure a sentence for people in msg (msglen
 * bytes, NUL included), e.g. "ply 7 (a1-e5/3): a1-e5/3 names the whole
 * stack on a1: leave the count off (a1-e5)".  msg may be NULL. */
int record_parse_detail(struct core_record *rec_r, const char *text,
			size_t len, int *line_r, enum core_error *err_r,
			char *msg, size_t msglen);

#endif
