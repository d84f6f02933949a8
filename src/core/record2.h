/* record2.h -- the game record, version 2 ("ashes-record 2"): header tags
 * (event, game, site, players and their keys, dates, variant, time
 * control, result, termination), one line per ply with what proves it
 * (signer, receipt time, clock left, sha256 of the signed part), comments
 * (messages, plies taken back and the undo agreements, clock adjustments,
 * vacation days) and a result line.  Format: docs/record-format.md.
 *
 * Reading is strict: every malformed line is a code and its line number
 * (struct record2_fault), never words.  A version 1 text reads too, as a
 * record2 with its moves and no annotations.  record2_replay() plays the
 * plies through the rules and checks the result against them.
 *
 * Part of the rules core: no I/O.  This module allocates (tags, plies,
 * comments); the move loop it calls does not.
 */
#ifndef ASHES_CORE_RECORD2_H
#define ASHES_CORE_RECORD2_H

#include "core/core.h"
#include "core/record.h"

/* The first line of a version 2 record. */
#define RECORD2_MAGIC "ashes-record 2"
/* The longest line, in bytes without its line end. */
#define RECORD2_LINE_MAX 4096
/* The longest tag key ("WhiteKey"), NUL excluded. */
#define RECORD2_TAG_KEY_MAX 32
/* A fingerprint's short form: its last 16 hex digits, upper case. */
#define RECORD2_KEY_SHORT 16
/* A sha256 in lower-case hex. */
#define RECORD2_SHA256_HEX 64
/* "2026-12-01T10:00:00Z" */
#define RECORD2_TIME_LEN 20
/* The last time a record can write: 9999-12-31T23:59:59Z. */
#define RECORD2_TIME_MAX INT64_C(253402300799)
/* Bounds of the numbers of annotations: a clock (seconds), a clock
 * adjustment (either sign), vacation days. */
#define RECORD2_SECONDS_MAX INT64_C(999999999999)
#define RECORD2_DAYS_MAX 99999

/* Result tag values. */
enum record2_result {
	RECORD2_RESULT_NONE = 0, /* "*": running, or cancelled */
	RECORD2_RESULT_WHITE,    /* "1-0" */
	RECORD2_RESULT_BLACK,    /* "0-1" */
	RECORD2_RESULT_DRAW,     /* "1/2-1/2" */
};

/* Termination tag values: how the game ended, or that it did not. */
enum record2_termination {
	RECORD2_TERM_ONGOING = 0,
	RECORD2_TERM_ELIMINATION,
	RECORD2_TERM_DOUBLE_PASS,  /* "double-pass" */
	RECORD2_TERM_RESIGNATION,
	RECORD2_TERM_AGREEMENT,
	RECORD2_TERM_TIME,
	RECORD2_TERM_CANCELLED,    /* stopped before it really began */
};

/* Fields of an annotation, in the order they are written. */
enum record2_field {
	RECORD2_F_PLY = 1 << 0,     /* ply=N: the ply an undo took back */
	RECORD2_F_SIDE = 1 << 1,    /* side=white|black: whose clock */
	RECORD2_F_SECONDS = 1 << 2, /* seconds=+N|-N: a clock adjustment */
	RECORD2_F_DAYS = 1 << 3,    /* days=N: vacation days spent */
	RECORD2_F_KEY = 1 << 4,     /* key=16 HEX: the signer's short key */
	RECORD2_F_AT = 1 << 5,      /* at=TIME: received (UTC) */
	RECORD2_F_CLOCK = 1 << 6,   /* clock=N: seconds left after a ply */
	RECORD2_F_SHA256 = 1 << 7,  /* sha256=64 hex: of the signed part */
	/* cond=N: a reply played from the mover's conditional moves, set
	 * by the mail (sha256=) the daemon read after ply N. */
	RECORD2_F_COND = 1 << 8,
};

/* The facts in braces after a ply or in a comment.  `fields` says which
 * are present (enum record2_field bits); the others are 0 / "". */
struct record2_annot {
	unsigned fields;
	size_t ply;
	enum core_color side;
	int64_t seconds;
	int days;
	char key[RECORD2_KEY_SHORT + 1];
	int64_t at;    /* epoch seconds */
	int64_t clock;
	char sha256[RECORD2_SHA256_HEX + 1];
	size_t cond;   /* RECORD2_F_COND: the plies before the tree's mail */
};

/* One ply: the move in canonical notation ("e5-a1", "d4xb2/3", "swap",
 * "pass" for a forced pass) and its annotation. */
struct record2_ply {
	char move[CORE_MOVE_TEXT_MAX];
	struct record2_annot annot;
	int line; /* where it was read; 0 when built in memory */
};

struct record2_tag {
	char *key;   /* "White", "X-Club-Note" */
	char *value;
	int line;
};

enum record2_comment_kind {
	RECORD2_COMMENT_MESSAGE = 0, /* a note between the players */
	RECORD2_COMMENT_UNDONE,      /* a ply played, then taken back */
	RECORD2_COMMENT_UNDO,        /* the agreement that took it back */
	RECORD2_COMMENT_CLOCK,       /* the operator adjusted a clock */
	RECORD2_COMMENT_VACATION,    /* vacation days spent on a clock */
	RECORD2_COMMENT_OTHER,       /* a kind this reader does not know */
};

/* A comment: after `after` plies (0: before the first), in the order of
 * the text.  It does not change the replay. */
struct record2_comment {
	enum record2_comment_kind kind;
	size_t after;
	struct record2_annot annot; /* all but UNDONE and OTHER */
	/* UNDONE: the ply taken back and the number it had. */
	size_t number;
	struct record2_ply undone;
	/* MESSAGE: the note (required); UNDO, CLOCK, VACATION: a note or
	 * NULL; OTHER: the whole line after "; " (kept, not read). */
	char *text;
	int line;
};

/* A record, version 2.  Tags in their order; plies from ply 1; comments
 * in the order they are written, `after` never decreasing. */
struct record2 {
	int version; /* the version of the text it was read from, else 2 */
	struct record2_tag *tags;
	size_t ntags, tags_cap;
	struct record2_ply *plies;
	size_t nplies, plies_cap;
	struct record2_comment *comments;
	size_t ncomments, comments_cap;
	int result_line; /* the line of "result: ..." when read */
};

/* Why a text does not read, a record does not replay, or a builder
 * refused a value.  Each has a code word (record2_error_name()); the
 * fields of struct record2_fault it sets are named beside it. */
enum record2_error {
	RECORD2_OK = 0,
	RECORD2_ERR_EMPTY,        /* no text at all */
	RECORD2_ERR_NUL,          /* a NUL byte */
	RECORD2_ERR_LINE_LONG,    /* a line over RECORD2_LINE_MAX */
	RECORD2_ERR_ENCODING,     /* not UTF-8, or a control character */
	RECORD2_ERR_MAGIC,        /* the first line names no known version */
	RECORD2_ERR_TAG,          /* tag: not "Key: value" */
	RECORD2_ERR_TAG_TWICE,    /* tag: given twice */
	RECORD2_ERR_TAG_VALUE,    /* tag: Game, Site or a text value */
	RECORD2_ERR_TAG_MISSING,  /* tag: Variant, Result or Termination */
	RECORD2_ERR_FINGERPRINT,  /* not 40 or 64 (tags) / 16 (key=) upper
				   * hex digits */
	RECORD2_ERR_SHA256,       /* not 64 lower-case hex digits */
	RECORD2_ERR_TIME,         /* not YYYY-MM-DDTHH:MM:SSZ, or no such
				   * moment */
	RECORD2_ERR_VARIANT,      /* core_err: not a canonical variant */
	RECORD2_ERR_RESULT,       /* not 1-0, 0-1, 1/2-1/2 or * */
	RECORD2_ERR_TERMINATION,  /* not a termination */
	RECORD2_ERR_RESULT_TERMINATION, /* tag: a result that termination
					 * cannot give (1-0 by agreement) */
	RECORD2_ERR_LINE,         /* no ply, comment or result line */
	RECORD2_ERR_PLY_NUMBER,   /* ply, numbered: plies count 1, 2, 3 */
	RECORD2_ERR_MOVE,         /* ply: not a move in canonical notation
				   * on this board */
	RECORD2_ERR_ANNOTATION,   /* ply: braces, a field unknown, twice,
				   * out of order, missing or out of range */
	RECORD2_ERR_CLOCK,        /* ply: clock= in a game without clock */
	RECORD2_ERR_PASS_SIGNED,  /* ply: key= or sha256= on a forced pass */
	RECORD2_ERR_COMMENT,      /* not "; KIND ...", or an undone ply
				   * numbered before the plies it follows */
	RECORD2_ERR_TEXT,         /* a comment's text: missing, or blanks
				   * at its ends */
	RECORD2_ERR_RESULT_LINE,  /* not what the Result and Termination
				   * tags say */
	RECORD2_ERR_TRUNCATED,    /* the text ends before the result line */
	RECORD2_ERR_AFTER_RESULT, /* a line after the result line */
	RECORD2_ERR_VERSION1,     /* core_err, v1: a version 1 text the
				   * version 1 reader refuses */
	/* Replay (record2_replay()). */
	RECORD2_ERR_PLY_ILLEGAL,  /* ply, core_err: the rules refuse it */
	RECORD2_ERR_PASS_NOT_FORCED, /* ply: a pass where a move is legal */
	RECORD2_ERR_PASS_MISSING, /* ply: the replay forces a pass there */
	RECORD2_ERR_NOT_CANONICAL, /* ply: "e5xa1" onto an empty cell, or
				    * "-" onto a stack */
	RECORD2_ERR_SIGNER,       /* ply: key= is not the mover's key */
	RECORD2_ERR_GAME_ON,      /* tag: Termination says the moves ended
				   * the game; they leave it running */
	RECORD2_ERR_RESULT_MISMATCH, /* tag: the moves ended it otherwise */
	RECORD2_ERR_NO_DRAWS,     /* tag: an agreed draw in a draw=no game */
	RECORD2_ERR_NO_MEMORY,
};
#define RECORD2_ERR_COUNT (RECORD2_ERR_NO_MEMORY + 1)

/* Code word of an error ("ply_number", "sha256"); "unknown" out of
 * range. */
const char *record2_error_name(enum record2_error error);

/* What is wrong and where.  Fields an error does not use are 0 / "". */
struct record2_fault {
	enum record2_error error;
	int line;        /* 1-based; 0 for a record built in memory */
	size_t ply;      /* the ply at fault, 1-based */
	size_t numbered; /* PLY_NUMBER: the number the line gives */
	char tag[RECORD2_TAG_KEY_MAX + 1]; /* the tag at fault */
	enum core_error core_err; /* the rules' or the notation's reason */
	enum record_fault v1;     /* VERSION1: the version 1 reader's */
};

/* An empty record (version 2, nothing in it). */
void record2_init(struct record2 *rec);
/* Free everything rec holds and leave it empty; rec may be empty. */
void record2_free(struct record2 *rec);

/* Read a record text of version 2 or 1 into *rec_r (freed with
 * record2_free() after a success; left empty after a failure).  A
 * version 1 text is replayed by record_parse(); a version 2 text is only
 * read here: record2_replay() checks its moves.  -1 with *line_r (may be
 * NULL) the offending line and *error_r its error. */
int record2_parse(const char *text, size_t len, struct record2 *rec_r,
		  int *line_r, enum record2_error *error_r);
/* The same, with what is wrong in *fault_r (may be NULL). */
int record2_parse_detail(const char *text, size_t len, struct record2 *rec_r,
			 struct record2_fault *fault_r);

/* Write the version 2 text of rec.  Writes at most len bytes (NUL
 * included) and returns the length the full text needs (like snprintf).
 * A record read from any text, or built with the functions below and
 * given Variant, Result and Termination, writes a text that reads back
 * the same. */
size_t record2_format(const struct record2 *rec, char *buf, size_t len);

/* Replay rec's plies through the rules into *out (a new record, freed
 * with record_free() after a success, left empty after a failure) and
 * check the Result and Termination tags against the end the plies reach;
 * resignation, agreement and time are applied to *out.  With WhiteKey and
 * BlackKey both given, each ply's key= must be the key of the player who
 * made it (the swap exchanges the players' colours).  -1 with what is
 * wrong in *fault_r (may be NULL): the ply or tag and its line. */
int record2_replay(const struct record2 *rec, struct core_record *out,
		   struct record2_fault *fault_r);

/* A record with the Variant, Result and Termination of a replayed game
 * and its plies without annotations, into *rec_r (left empty on error).
 * The start of a full record: add the other tags and the annotations. */
int record2_from_core(struct record2 *rec_r, const struct core_record *core,
		      enum record2_error *error_r);

/* The value of a tag, or NULL. */
const char *record2_tag_get(const struct record2 *rec, const char *key);
/* Set a tag (replacing its value where it is, else added last).  Keys are
 * a capital letter and up to 31 letters, digits and '_'; the value must be
 * what the format allows for that tag (see docs/record-format.md).  -1
 * with the error, rec unchanged. */
int record2_tag_set(struct record2 *rec, const char *key, const char *value,
		    enum record2_error *error_r);

/* Add the next ply: `move` in canonical notation ("pass" for a forced
 * pass), `annot` its facts (NULL: none).  Set the tags first: the move's
 * cells are checked against the Variant tag's board when there is one,
 * and a clock= needs a TimeControl other than "none".  Legality is
 * record2_replay()'s.  -1 with the error, rec unchanged. */
int record2_ply_add(struct record2 *rec, const char *move,
		    const struct record2_annot *annot,
		    enum record2_error *error_r);

/* Add a comment after the plies so far (c->after and c->line are
 * ignored; c->text is copied).  -1 with the error, rec unchanged. */
int record2_comment_add(struct record2 *rec, const struct record2_comment *c,
			enum record2_error *error_r);

/* The Result and Termination tags, read.  -1 with the error when one is
 * missing or malformed. */
int record2_outcome(const struct record2 *rec, enum record2_result *result_r,
		    enum record2_termination *term_r,
		    enum record2_error *error_r);

const char *record2_result_name(enum record2_result r);     /* "1-0" */
const char *record2_termination_name(enum record2_termination t);
/* The tag values of a position's end: RECORD2_TERM_ONGOING for
 * CORE_END_NONE, RECORD2_RESULT_NONE for CORE_ONGOING (the caller tells a
 * cancelled game from a running one). */
enum record2_termination record2_termination_of(enum core_end_reason r);
enum record2_result record2_result_of(enum core_result r);

/* "YYYY-MM-DDTHH:MM:SSZ" of t (0 .. RECORD2_TIME_MAX) into buf
 * (RECORD2_TIME_LEN + 1 bytes); returns buf. */
char *record2_time_format(int64_t t, char *buf);
/* The time text[0 .. len-1] names, in epoch seconds.  -1 unless it is
 * exactly YYYY-MM-DDTHH:MM:SSZ and such a moment exists. */
int record2_time_parse(const char *text, size_t len, int64_t *t_r);

#endif
