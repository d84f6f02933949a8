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

/* The first line of every record: the format and its version. */
#define RECORD_MAGIC "ashes-record 1"

/* What is wrong with a record text that does not load.  A code and the
 * facts its words need (struct record_fault_info); the words are the
 * caller's (templates/record-error.txt for `ashes record`), named by
 * record_fault_name().  The fields each one sets are listed beside it. */
enum record_fault {
	RECORD_FAULT_NONE = 0,
	RECORD_FAULT_EMPTY,           /* no line but blanks and comments */
	RECORD_FAULT_NUL,             /* a NUL byte in a line */
	RECORD_FAULT_MAGIC,           /* the first line is not RECORD_MAGIC */
	RECORD_FAULT_NO_VARIANT,      /* nothing after the first line */
	RECORD_FAULT_VARIANT_LINE,    /* the second line is not "variant: ..." */
	RECORD_FAULT_OPTION_TOO_LONG, /* text: longer than any option */
	RECORD_FAULT_OPTION,          /* text: an option notation refuses (err) */
	RECORD_FAULT_VARIANT,         /* the options make no game (err) */
	RECORD_FAULT_PLY_UNNUMBERED,  /* ply: neither "N. MOVE" nor the result */
	RECORD_FAULT_PLY_MISNUMBERED, /* ply, numbered: another number */
	RECORD_FAULT_PLY_UNREADABLE,  /* ply, text: not a move (err) */
	RECORD_FAULT_PLY_FORCED,      /* ply: "(forced)" after what is no pass */
	RECORD_FAULT_PLY_NOT_PASS,    /* ply: the replay forces a pass there */
	RECORD_FAULT_PASS_MISSING,    /* ply: the forced pass is left out */
	RECORD_FAULT_PASS_NOT_FORCED, /* ply, move_text, geom, check
				       * (check.mover can move): a pass
				       * nothing forced */
	RECORD_FAULT_PLY_ILLEGAL,     /* ply, move_text, geom, check: the rules
				       * refuse it (err) */
	RECORD_FAULT_RESULT_UNKNOWN,  /* text: not ongoing, white, black, draw */
	RECORD_FAULT_RESULT_NO_REASON, /* a decided result without (reason) */
	RECORD_FAULT_RESULT_TRAILING, /* words after "result: ongoing" */
	RECORD_FAULT_RESULT_GAME_ON,  /* result, end_reason: the plies leave
				       * the game on */
	RECORD_FAULT_RESULT_MISMATCH, /* result, played_result,
				       * played_end_reason: the plies end it
				       * otherwise */
	RECORD_FAULT_RESULT_REASON,   /* result, end_reason: that result cannot
				       * end that way */
	RECORD_FAULT_RESULT_END,      /* record_end() refused the result (err) */
	RECORD_FAULT_AFTER_RESULT,    /* a line after the result line */
};
#define RECORD_FAULT_COUNT (RECORD_FAULT_AFTER_RESULT + 1)

/* Code word of a fault ("ply_illegal", "result_mismatch"), for template
 * sections and logs; "unknown" for a value out of range. */
const char *record_fault_name(enum record_fault fault);

/* Why record_parse_detail() refused a text.  Fields a fault does not use
 * are 0 (text NULL, geom NULL). */
struct record_fault_info {
	enum record_fault fault;
	enum core_error err;      /* as record_parse() gives it */
	int line;                 /* 1-based; 0 for a text without lines */
	size_t ply;               /* the ply the line is, or should be */
	size_t numbered;          /* the number the line gives that ply */
	/* The words at fault: a part of the parsed text (so valid while it
	 * is), text_len bytes, not NUL-terminated, no NUL inside. */
	const char *text;
	size_t text_len;
	/* The refused ply in canonical notation, as the replay read it. */
	char move_text[CORE_MOVE_TEXT_MAX];
	const struct core_geom *geom; /* the board of the refused ply */
	struct core_check_info check; /* why the rules refused it */
	enum core_result result;            /* what the result line says */
	enum core_end_reason end_reason;
	enum core_result played_result;     /* how the plies ended the game */
	enum core_end_reason played_end_reason;
};

/* Parse and replay a record text.  -1 with CORE_ERR_RECORD (or the error of
 * the first illegal ply) and *line_r set to the offending line (1-based). */
int record_parse(struct core_record *rec_r, const char *text, size_t len,
		 int *line_r, enum core_error *err_r);

/* record_parse(), and on failure what is wrong in *fault_r (may be NULL):
 * the line, the error, the fault and its facts, e.g. for ply 7 "a1-e5/3"
 * RECORD_FAULT_PLY_ILLEGAL with err CORE_ERR_PART_WHOLE_STACK and check
 * naming a1 and e5.  No text for people: see enum record_fault. */
int record_parse_detail(struct core_record *rec_r, const char *text,
			size_t len, struct record_fault_info *fault_r);

#endif
