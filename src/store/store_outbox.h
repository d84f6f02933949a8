/* store_outbox.h -- the part of the store's API (store.h, whose
 * conventions hold here) that keeps the outbox: each outgoing mail a
 * typed, versioned envelope, its kind an enum stored as its word through
 * one table, its lanes, its retries and their end (store_outbox.c).
 * Included by store.h. */
#ifndef ASHES_STORE_OUTBOX_H
#define ASHES_STORE_OUTBOX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct store;

/* ---- outbox --------------------------------------------------------- */

/* What an outbox row is.  Stored as a word, through one table
 * (store_outbox.c) so that no layer compares or writes the words. */
enum store_outbox_kind {
	STORE_OUTBOX_KIND_NONE = 0,	/* no kind (an old row without one) */
	STORE_OUTBOX_KIND_OTHER,	/* a word the table does not hold */
	STORE_OUTBOX_KIND_REPLY,	/* "reply": the answer to a mail */
	STORE_OUTBOX_KIND_YOUR_MOVE,	/* "your-move" */
	STORE_OUTBOX_KIND_RESULT,	/* "result": a game ended */
	STORE_OUTBOX_KIND_UNDONE,	/* "undone": a move taken back */
	STORE_OUTBOX_KIND_OBSERVER,	/* "observer": to a game's observer */
	STORE_OUTBOX_KIND_NOTICE,	/* "notice": e.g. a key revoked */
	STORE_OUTBOX_KIND_ARCHIVE,	/* "archive": carries a game's archive */
	STORE_OUTBOX_KIND_CHALLENGE,	/* "challenge" (or one closed) */
	STORE_OUTBOX_KIND_DRAW,		/* "draw": a draw offered */
	STORE_OUTBOX_KIND_MESSAGE,	/* "message": a player's message */
	STORE_OUTBOX_KIND_UNDO,		/* "undo": an undo asked for */
	STORE_OUTBOX_KIND_CLOCK,	/* "clock": a flag, a vacation, time */
	STORE_OUTBOX_KIND_LADDER,	/* "ladder": e.g. a walkover */
	STORE_OUTBOX_KIND_STANDINGS,	/* "standings": a club's table */
	STORE_OUTBOX_KIND_REMINDER,	/* "reminder": a move is due */
	STORE_OUTBOX_KIND_HINT,		/* "hint": the bot's hint */
	STORE_OUTBOX_KIND_DIGEST,	/* "digest": an observer's digest */
	STORE_OUTBOX_KIND_SUMMARY,	/* "summary": a player's daily summary */
	STORE_OUTBOX_KIND_ANALYSIS,	/* "analysis": a game's analysis */
	STORE_OUTBOX_KIND_TOURNAMENT,	/* "tournament": a round paired, an
					 * event's final standings */
};

/* A file a mail carries after its text (sql/016): the pictures of an
 * analysis.  Sent as an attachment of its own, in order. */
struct store_outbox_part {
	char *name;         /* the file name offered: [a-z0-9.-], 1-64 */
	char *type;         /* STORE_OUTBOX_PNG or STORE_OUTBOX_SVG */
	char *data;         /* with a NUL after len bytes, when read */
	size_t len;
};
/* The most parts one mail carries. */
#define STORE_OUTBOX_PARTS_MAX 8

/* A mail to send, as a typed envelope (in the way of OpenSMTPD's
 * envelope.c): store_outbox.c alone writes and reads the row, the mail
 * layer (compose.h) alone turns it into header text.  Rows are written in
 * envelope version 2; a version-1 row (queued by an ashesd before
 * sql/003, as a block of header lines) is read into the same fields.
 * Everything a player sees is decided when the mail is queued: its text,
 * and for a mail about a game the html and the board picture. */
struct store_outbox_msg {
	int64_t id;
	int version;        /* envelope version the row was written in */
	enum store_outbox_kind kind; /* what the mail is; stored as its word */
	char *recipient;    /* the one envelope recipient, also the To */
	char *message_id;   /* our Message-ID, without <> */
	char *subject;      /* UTF-8 */
	char *in_reply_to;  /* without <>, or NULL */
	char *references;   /* "<a> <b>", space separated, or NULL */
	bool auto_reply;    /* an answer to a mail (Auto-Submitted: auto-replied), else a notice (auto-generated) */
	int64_t game_id;    /* or 0 */
	int ply;            /* plies played when queued (with game_id) */
	int64_t inbound_id; /* the mail this answers, or 0 */
	char *body;         /* text/plain, UTF-8 */
	char *html;         /* the text/html alternative, already rendered, or NULL */
	char *image;        /* the board picture the html shows, or NULL */
	size_t image_len;
	/* STORE_OUTBOX_PNG or STORE_OUTBOX_SVG: the type the recipient
	 * gets (a row queued before sql/007 reads as SVG); NULL without a
	 * picture.  To enqueue a picture without a type is to give SVG.  A
	 * PNG may be queued as PNG bytes or as its SVG drawing (bytes
	 * starting with '<'): the service queues the drawing and the outbox
	 * rasterises it when sending, outside the service's transaction. */
	char *image_type;
	/* The files after the text, in order (NULL and 0: none); read with
	 * every row, written by store_outbox_enqueue in its transaction. */
	struct store_outbox_part *parts;
	size_t nparts;
	int64_t created;
	int attempts;
	int64_t next_attempt_at;
	int64_t sent_at;    /* 0 while not sent */
	bool failed;        /* permanently failed; no more attempts */
	char *last_error;   /* NULL if none */
};
/* The html shows the picture as <img src="cid:board.MESSAGE_ID">: the
 * Content-ID of the picture's part is this prefix and the message_id
 * (unique per mail, as RFC 2392 wants). */
#define STORE_OUTBOX_IMAGE_CID_PREFIX "board."
/* The types a picture may have (sql/007). */
#define STORE_OUTBOX_PNG "image/png"
#define STORE_OUTBOX_SVG "image/svg+xml"

/* The kind a row's word names (NULL: STORE_OUTBOX_KIND_NONE). */
enum store_outbox_kind store_outbox_kind_of(const char *word);
/* The word a kind is stored as; NULL for NONE, OTHER or no such kind. */
const char *store_outbox_kind_name(enum store_outbox_kind kind);

/* Free outbox rows: store_rows_free() with store_outbox_msg_clear. */
void store_outbox_msg_clear(void *msg);
void store_outbox_msgs_free(struct store_outbox_msg **msgs, size_t count);

/* Queue a message in the current envelope version (msg->id, version,
 * attempts, sent_at, failed, last_error are ignored; next_attempt_at =
 * now if msg->next_attempt_at is 0).  -1 with STORE_ERROR_USAGE unless
 * recipient, message_id, subject and body are set, kind is one the table
 * names (not NONE or OTHER), the ids come
 * without <>, and an image comes with html.  *id_r may be NULL. */
int store_outbox_enqueue(struct store *store,
			 const struct store_outbox_msg *msg, int64_t now,
			 int64_t *id_r, const char **error_r);
/* At most limit (0: no limit) unsent, not failed messages with
 * next_attempt_at <= now, oldest first.  Free with store_outbox_msgs_free.
 * These two ask of every lane together: the daemon asks lane by lane
 * (below), the store's tests of the whole outbox. */
int store_outbox_due(struct store *store, int64_t now, size_t limit,
		     struct store_outbox_msg **msgs_r, size_t *count_r,
		     const char **error_r);
/* The earliest next_attempt_at of a pending message: 1 and *at_r, or 0
 * if nothing is pending. */
int store_outbox_next_due(struct store *store, int64_t *at_r,
			  const char **error_r);
/* The outbox's lanes: mails that carry an archive (kind "archive",
 * megabytes) go out on a lane of their own, so that no reply waits
 * behind one (daemon/outbox_thread.h). */
enum store_outbox_lane {
	STORE_OUTBOX_LANE_ALL = 0,
	STORE_OUTBOX_LANE_SMALL, /* everything but archives */
	STORE_OUTBOX_LANE_LARGE, /* archives only */
};
/* store_outbox_due() and store_outbox_next_due() for one lane. */
int store_outbox_due_lane(struct store *store, int64_t now, size_t limit,
			  enum store_outbox_lane lane,
			  struct store_outbox_msg **msgs_r, size_t *count_r,
			  const char **error_r);
int store_outbox_next_due_lane(struct store *store,
			       enum store_outbox_lane lane, int64_t *at_r,
			       const char **error_r);
/* The three marks apply to a pending message only (not sent, not
 * failed): -1 with STORE_ERROR_USAGE otherwise, so a message is never
 * marked sent twice. */
/* After the SMTP server accepted it.  attempts += 1. */
int store_outbox_mark_sent(struct store *store, int64_t id, int64_t now,
			   const char **error_r);
/* A temporary failure: attempts += 1, retry at next_attempt_at. */
int store_outbox_mark_retry(struct store *store, int64_t id,
			    int64_t next_attempt_at, const char *error,
			    const char **error_r);
/* A permanent failure: attempts += 1, failed, never retried. */
int store_outbox_mark_failed(struct store *store, int64_t id, int64_t now,
			     const char *error, const char **error_r);

enum store_outbox_filter {
	STORE_OUTBOX_ALL = 0,
	STORE_OUTBOX_PENDING, /* not sent, not failed */
	STORE_OUTBOX_SENT,
	STORE_OUTBOX_FAILED,
};
/* Messages by id, at most limit (0: no limit) after after_id. */
int store_outbox_list(struct store *store, enum store_outbox_filter filter,
		      int64_t after_id, size_t limit,
		      struct store_outbox_msg **msgs_r, size_t *count_r,
		      const char **error_r);
/* The message we sent with that Message-ID (to match a bounce): 1 and
 * *msg_r (caller frees with store_outbox_msgs_free(msg_r, 1)), or 0. */
int store_outbox_by_message_id(struct store *store, const char *message_id,
			       struct store_outbox_msg **msg_r,
			       const char **error_r);

#endif
