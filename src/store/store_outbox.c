/* store_outbox.c -- the durable queue of mail to send, with its retry
 * state; see store.h.  The one module that writes and reads the outbox
 * envelope, versioned as OpenSMTPD's envelope_dump_buffer /
 * envelope_load_buffer: rows are written in version 2 (typed columns) and
 * read in either version; a version-1 row's header block is parsed here
 * and nowhere else.  The picture's type (sql/007) is a column of version
 * 2: the migration typed the rows already there. */
#include "store/store_private.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/msgid.h"

/* The envelope version store_outbox_enqueue writes (sql/003). */
#define OUTBOX_ENVELOPE_VERSION 2

/* The kind column's words, by enum store_outbox_kind: the one place they
 * are written or read. */
static const char *const outbox_kind_words[] = {
	[STORE_OUTBOX_KIND_REPLY] = "reply",
	[STORE_OUTBOX_KIND_YOUR_MOVE] = "your-move",
	[STORE_OUTBOX_KIND_RESULT] = "result",
	[STORE_OUTBOX_KIND_UNDONE] = "undone",
	[STORE_OUTBOX_KIND_OBSERVER] = "observer",
	[STORE_OUTBOX_KIND_NOTICE] = "notice",
	[STORE_OUTBOX_KIND_ARCHIVE] = "archive",
	[STORE_OUTBOX_KIND_CHALLENGE] = "challenge",
	[STORE_OUTBOX_KIND_DRAW] = "draw",
	[STORE_OUTBOX_KIND_MESSAGE] = "message",
	[STORE_OUTBOX_KIND_UNDO] = "undo",
	[STORE_OUTBOX_KIND_CLOCK] = "clock",
	[STORE_OUTBOX_KIND_LADDER] = "ladder",
	[STORE_OUTBOX_KIND_STANDINGS] = "standings",
	[STORE_OUTBOX_KIND_REMINDER] = "reminder",
	[STORE_OUTBOX_KIND_HINT] = "hint",
	[STORE_OUTBOX_KIND_DIGEST] = "digest",
	[STORE_OUTBOX_KIND_SUMMARY] = "summary",
	[STORE_OUTBOX_KIND_ANALYSIS] = "analysis",
	[STORE_OUTBOX_KIND_TOURNAMENT] = "tournament",
};

const char *store_outbox_kind_name(enum store_outbox_kind kind)
{
	return (size_t)kind < sizeof(outbox_kind_words) /
			      sizeof(*outbox_kind_words) ?
	       outbox_kind_words[kind] : NULL;
}

enum store_outbox_kind store_outbox_kind_of(const char *word)
{
	size_t i;

	if (word == NULL)
		return STORE_OUTBOX_KIND_NONE;
	for (i = 0; i < sizeof(outbox_kind_words) / sizeof(*outbox_kind_words);
	     i++)
		if (outbox_kind_words[i] != NULL &&
		    strcmp(outbox_kind_words[i], word) == 0)
			return (enum store_outbox_kind)i;
	return STORE_OUTBOX_KIND_OTHER;
}

/* A file of a mail, as read (sql/016). */
static void part_clear(void *elem)
{
	struct store_outbox_part *p = elem;

	free(p->name);
	free(p->type);
	free(p->data);
}

void store_outbox_msg_clear(void *elem)
{
	struct store_outbox_msg *m = elem;

	free(m->recipient);
	free(m->message_id);
	free(m->subject);
	free(m->in_reply_to);
	free(m->references);
	free(m->body);
	free(m->html);
	free(m->image);
	free(m->image_type);
	free(m->last_error);
	store_rows_free(&m->parts, m->nparts, sizeof(*m->parts), part_clear);
	memset(m, 0, sizeof(*m));
}

void store_outbox_msgs_free(struct store_outbox_msg **msgs, size_t count)
{
	store_rows_free(msgs, count, sizeof(**msgs), store_outbox_msg_clear);
}

/* ---- version 1: a block of header lines ------------------------------ */

/* A malloc'ed, terminated copy of n bytes of s. */
static char *copy_n(const char *s, size_t n)
{
	char *p = xzalloc(n + 1);

	memcpy(p, s, n);
	return p;
}

/* A malloc'ed copy of an id without its <>; NULL unless it has them. */
static char *bare_id_copy(const char *v)
{
	char *p;

	if (!msgid_bracketed(v))
		return NULL;
	p = xstrdup(v);
	msgid_bare(v, p, strlen(v) + 1);
	return p;
}

/* A decimal number filling all of s, in [min, max]; else 0. */
static int64_t parse_num(const char *s, int64_t min, int64_t max)
{
	long long v;
	char *end;

	if (s == NULL || *s < '0' || *s > '9')
		return 0;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno != 0 || *end != '\0' || v < min || v > max)
		return 0;
	return v;
}

/* The header block of a version-1 row (one "Name: value" per line, ended
 * by \n or \r\n, as server.c wrote it before sql/003) into the typed
 * fields, as the outbox of that time read it: a value starts after the
 * blanks following the colon, the last of a repeated name wins, other
 * names are skipped.  recipient and message_id come from their columns
 * (the block's To and Message-ID were written from the same values); the
 * block's Message-ID stands in if the column is NULL, and its
 * X-Ashes-Game if game_id is.  Without an Auto-Submitted line, a reply
 * (or a row of no kind) was auto-replied, anything else auto-generated.
 * A missing Subject leaves subject NULL: such a row cannot be sent. */
static void envelope_load_v1(struct store_outbox_msg *m, const char *block)
{
	enum { SUBJECT, MESSAGE_ID, IN_REPLY_TO, REFERENCES, AUTO_SUBMITTED,
	       GAME, PLY, KIND, NFIELDS };
	static const char *const names[NFIELDS] = {
		"Subject", "Message-ID", "In-Reply-To", "References",
		"Auto-Submitted", "X-Ashes-Game", "X-Ashes-Ply", "X-Ashes-Kind",
	};
	char *v[NFIELDS] = { NULL };
	const char *line = block;
	size_t i;

	while (line != NULL && *line != '\0') {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		const char *colon = memchr(line, ':', len);

		if (len > 0 && line[len - 1] == '\r')
			len--;
		for (i = 0; colon != NULL && i < NFIELDS; i++) {
			size_t nl = strlen(names[i]);
			const char *val = colon + 1;

			if ((size_t)(colon - line) != nl ||
			    strncasecmp(line, names[i], nl) != 0)
				continue;
			while (*val == ' ' || *val == '\t')
				val++;
			free(v[i]);
			v[i] = copy_n(val, (size_t)(val - line) < len ?
					len - (size_t)(val - line) : 0);
			break;
		}
		line = end ? end + 1 : NULL;
	}

	m->kind = store_outbox_kind_of(v[KIND]);
	m->subject = v[SUBJECT];
	v[SUBJECT] = NULL;
	if (m->message_id == NULL && v[MESSAGE_ID] != NULL)
		m->message_id = bare_id_copy(v[MESSAGE_ID]);
	if (v[IN_REPLY_TO] != NULL) {
		m->in_reply_to = bare_id_copy(v[IN_REPLY_TO]);
		if (m->in_reply_to == NULL) /* as written, then */
			m->in_reply_to = xstrdup(v[IN_REPLY_TO]);
	}
	m->references = v[REFERENCES];
	v[REFERENCES] = NULL;
	if (v[AUTO_SUBMITTED] != NULL)
		m->auto_reply = strcmp(v[AUTO_SUBMITTED], "auto-replied") == 0;
	else
		switch (m->kind) {
		case STORE_OUTBOX_KIND_NONE:
		case STORE_OUTBOX_KIND_REPLY:
			m->auto_reply = true;
			break;
		default:
			m->auto_reply = false;
		}
	if (m->game_id == 0)
		m->game_id = parse_num(v[GAME], 1, INT64_MAX);
	if (m->game_id != 0)
		m->ply = (int)parse_num(v[PLY], 0, INT32_MAX);
	for (i = 0; i < NFIELDS; i++)
		free(v[i]);
}

/* ---- reading and writing rows ---------------------------------------- */

#define OUTBOX_COLUMNS \
	"id, version, kind, recipient, message_id, subject, in_reply_to, " \
	"refs, auto_reply, game_id, ply, inbound_id, body, html, image, " \
	"created, attempts, next_attempt_at, sent_at, failed, last_error, " \
	"headers, image_type"

static void msg_read(sqlite3_stmt *st, void *elem)
{
	struct store_outbox_msg *m = elem;

	m->id = store_col_int64(st, 0);
	m->version = sqlite3_column_int(st, 1);
	m->recipient = store_col_strdup(st, 3);
	m->message_id = store_col_strdup(st, 4);
	m->game_id = store_col_int64(st, 9);
	m->inbound_id = store_col_int64(st, 11);
	m->body = store_col_strdup(st, 12);
	m->created = store_col_int64(st, 15);
	m->attempts = sqlite3_column_int(st, 16);
	m->next_attempt_at = store_col_int64(st, 17);
	m->sent_at = store_col_int64(st, 18);
	m->failed = sqlite3_column_int(st, 19) != 0;
	m->last_error = store_col_strdup(st, 20);
	if (m->version == 1) {
		char *block = store_col_strdup(st, 21);

		envelope_load_v1(m, block != NULL ? block : "");
		free(block);
		return;
	}
	/* version 2 (the schema's CHECK allows no other) */
	m->kind = store_outbox_kind_of(
		(const char *)sqlite3_column_text(st, 2));
	m->subject = store_col_strdup(st, 5);
	m->in_reply_to = store_col_strdup(st, 6);
	m->references = store_col_strdup(st, 7);
	m->auto_reply = sqlite3_column_int(st, 8) != 0;
	m->ply = sqlite3_column_int(st, 10);
	m->html = store_col_strdup(st, 13);
	if (sqlite3_column_type(st, 14) != SQLITE_NULL) {
		const void *p = sqlite3_column_blob(st, 14);
		size_t n = (size_t)sqlite3_column_bytes(st, 14);

		/* one byte more, a NUL: SVG can be read as a string */
		m->image = xzalloc(n + 1);
		if (n > 0)
			memcpy(m->image, p, n);
		m->image_len = n;
		/* sql/007 typed the pictures queued before it */
		m->image_type = store_col_strdup(st, 22);
	}
}

static void part_read(sqlite3_stmt *st, void *elem)
{
	struct store_outbox_part *p = elem;
	const void *data = sqlite3_column_blob(st, 2);

	p->name = store_col_strdup(st, 0);
	p->type = store_col_strdup(st, 1);
	p->len = (size_t)sqlite3_column_bytes(st, 2);
	p->data = xzalloc(p->len + 1);
	if (p->len > 0)
		memcpy(p->data, data, p->len);
}

static int msgs_collect(struct store *s, sqlite3_stmt *st,
			struct store_outbox_msg **msgs_r, size_t *count_r,
			const char *what, const char **error_r)
{
	static const char sql[] =
		"SELECT name, type, data FROM outbox_parts WHERE outbox_id = ?1 "
		"ORDER BY seq";

	if (store_collect(s, st, sizeof(**msgs_r), msg_read,
			  store_outbox_msg_clear, msgs_r, count_r, what,
			  error_r) < 0)
		return -1;
	/* The files after the text (sql/016), with each row. */
	for (size_t i = 0; i < *count_r; i++) {
		struct store_outbox_msg *m = &(*msgs_r)[i];

		if (store_rows(s, sql, &m->parts, &m->nparts, part_read,
			       part_clear, "reading a mail's files", error_r,
			       STORE_INT(m->id)) < 0) {
			store_outbox_msgs_free(msgs_r, *count_r);
			*count_r = 0;
			return -1;
		}
	}
	return 0;
}

/* The files of outbox row id, after it was written. */
static int parts_enqueue(struct store *store, int64_t id,
			 const struct store_outbox_msg *msg,
			 const char **error_r)
{
	static const char sql[] =
		"INSERT INTO outbox_parts (outbox_id, seq, name, type, data) "
		"VALUES (?1, ?2, ?3, ?4, ?5)";

	for (size_t i = 0; i < msg->nparts; i++) {
		const struct store_outbox_part *p = &msg->parts[i];
		sqlite3_stmt *st;

		/* ?5, the file, is a blob: bound by hand. */
		st = store_stmt_bind(store, sql, error_r, STORE_INT(id),
				     STORE_INT((int64_t)i + 1),
				     STORE_TEXT(p->name), STORE_TEXT(p->type),
				     STORE_NULL);
		if (st != NULL)
			sqlite3_bind_blob64(st, 5, p->data != NULL ?
					    (const void *)p->data : "",
					    p->len, SQLITE_TRANSIENT);
		if (store_run(store, st, "queueing a mail's file",
			      error_r) < 0)
			return -1;
	}
	return 0;
}

/* An id as the envelope keeps it: no <> around it. */
static bool bare_id(const char *id)
{
	return id == NULL || (id[0] != '\0' && id[0] != '<');
}

int store_outbox_enqueue(struct store *store,
			 const struct store_outbox_msg *msg, int64_t now,
			 int64_t *id_r, const char **error_r)
{
	static const char sql[] =
		"INSERT INTO outbox (version, kind, recipient, message_id, "
		"subject, in_reply_to, refs, auto_reply, game_id, ply, "
		"inbound_id, body, html, image, created, next_attempt_at, "
		"image_type) "
		"VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, "
		"?13, ?14, ?15, ?16, ?17)";
	const char *image_type = msg->image_type;
	sqlite3_stmt *st;
	int64_t id;

	store_ok(store);
	if (msg->nparts > STORE_OUTBOX_PARTS_MAX ||
	    (msg->nparts > 0 && msg->parts == NULL))
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "a mail carries at most %d files",
				  STORE_OUTBOX_PARTS_MAX);
	if (msg->recipient == NULL ||
	    store_outbox_kind_name(msg->kind) == NULL ||
	    msg->message_id == NULL || msg->subject == NULL ||
	    msg->body == NULL)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "an outbox message needs a recipient, a "
				  "kind, a Message-ID, a subject and a body");
	if (!bare_id(msg->message_id) || !bare_id(msg->in_reply_to))
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "outbox Message-IDs are stored without <>");
	if (msg->image != NULL && msg->html == NULL)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "an outbox picture needs the html that "
				  "shows it");
	/* Pictures were SVG before they had a type. */
	if (msg->image != NULL && image_type == NULL)
		image_type = STORE_OUTBOX_SVG;
	if (msg->image == NULL && image_type != NULL)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "an outbox picture type without a picture");
	if (image_type != NULL && strcmp(image_type, STORE_OUTBOX_PNG) != 0 &&
	    strcmp(image_type, STORE_OUTBOX_SVG) != 0)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "an outbox picture is %s or %s, not %s",
				  STORE_OUTBOX_PNG, STORE_OUTBOX_SVG,
				  image_type);
	/* ?14, the picture, is a blob: bound by hand below. */
	st = store_stmt_bind(store, sql, error_r,
			     STORE_INT(OUTBOX_ENVELOPE_VERSION),
			     STORE_TEXT(store_outbox_kind_name(msg->kind)),
			     STORE_TEXT(msg->recipient),
			     STORE_TEXT(msg->message_id),
			     STORE_TEXT(msg->subject),
			     STORE_TEXT(msg->in_reply_to),
			     STORE_TEXT(msg->references),
			     STORE_INT(msg->auto_reply ? 1 : 0),
			     STORE_ID(msg->game_id), STORE_INT(msg->ply),
			     STORE_ID(msg->inbound_id), STORE_TEXT(msg->body),
			     STORE_TEXT(msg->html), STORE_NULL, STORE_INT(now),
			     STORE_INT(msg->next_attempt_at != 0 ?
				       msg->next_attempt_at : now),
			     STORE_TEXT(image_type));
	if (st != NULL && msg->image != NULL)
		sqlite3_bind_blob64(st, 14, msg->image, msg->image_len,
				    SQLITE_TRANSIENT);
	if (store_run(store, st, "queueing a message", error_r) < 0)
		return -1;
	id = sqlite3_last_insert_rowid(store->db);
	if (parts_enqueue(store, id, msg, error_r) < 0)
		return -1;
	if (id_r != NULL)
		*id_r = id;
	return 0;
}

/* The lane's condition on a row, its number in ?9. */
#define OUTBOX_LANE_WHERE \
	"AND (?9 = 0 OR (?9 = 1 AND kind IS NOT 'archive') OR " \
	"(?9 = 2 AND kind = 'archive')) "

int store_outbox_due_lane(struct store *store, int64_t now, size_t limit,
			  enum store_outbox_lane lane,
			  struct store_outbox_msg **msgs_r, size_t *count_r,
			  const char **error_r)
{
	/* The WHERE matches the partial index outbox_due. */
	static const char sql[] =
		"SELECT " OUTBOX_COLUMNS " FROM outbox WHERE sent_at IS NULL "
		"AND failed = 0 AND next_attempt_at <= ?1 " OUTBOX_LANE_WHERE
		"ORDER BY next_attempt_at, id LIMIT ?2";
	sqlite3_stmt *st;

	store_ok(store);
	*msgs_r = NULL;
	*count_r = 0;
	st = store_stmt_bind(store, sql, error_r, STORE_INT(now),
			     STORE_LIMIT(limit));
	if (st == NULL)
		return -1;
	sqlite3_bind_int(st, 9, (int)lane);
	return msgs_collect(store, st, msgs_r, count_r,
			    "listing due messages", error_r);
}

int store_outbox_due(struct store *store, int64_t now, size_t limit,
		     struct store_outbox_msg **msgs_r, size_t *count_r,
		     const char **error_r)
{
	return store_outbox_due_lane(store, now, limit, STORE_OUTBOX_LANE_ALL,
				     msgs_r, count_r, error_r);
}

int store_outbox_next_due_lane(struct store *store,
			       enum store_outbox_lane lane, int64_t *at_r,
			       const char **error_r)
{
	static const char sql[] =
		"SELECT min(next_attempt_at) FROM outbox WHERE sent_at IS NULL "
		"AND failed = 0 " OUTBOX_LANE_WHERE;
	sqlite3_stmt *st;
	int rc, ret;

	store_ok(store);
	st = store_stmt(store, sql, error_r);
	if (st == NULL)
		return -1;
	sqlite3_bind_int(st, 9, (int)lane);
	rc = store_step(store, st);
	if (rc != SQLITE_ROW) {
		store_stmt_done(st);
		return store_fail_sqlite(store, error_r, rc,
					 "finding the next due message");
	}
	ret = sqlite3_column_type(st, 0) == SQLITE_NULL ? 0 : 1;
	if (ret == 1 && at_r != NULL)
		*at_r = store_col_int64(st, 0);
	store_stmt_done(st);
	return ret;
}

int store_outbox_next_due(struct store *store, int64_t *at_r,
			  const char **error_r)
{
	return store_outbox_next_due_lane(store, STORE_OUTBOX_LANE_ALL, at_r,
					  error_r);
}

/* Run an UPDATE of one pending outbox row (id in ?1); -1 with
 * STORE_ERROR_USAGE if no pending row had that id. */
static int outbox_update(struct store *s, const char *sql, int64_t id,
			 int64_t t, const char *text, const char *what,
			 const char **error_r)
{
	sqlite3_stmt *st;

	store_ok(s);
	st = store_stmt_bind(s, sql, error_r, STORE_INT(id), STORE_INT(t),
			     STORE_TEXT(text));
	if (store_run(s, st, what, error_r) < 0)
		return -1;
	if (sqlite3_changes(s->db) == 0)
		return store_fail(s, error_r, STORE_ERROR_USAGE,
				  "%s: no pending outbox message %lld", what,
				  (long long)id);
	return 0;
}

int store_outbox_mark_sent(struct store *store, int64_t id, int64_t now,
			   const char **error_r)
{
	static const char sql[] =
		"UPDATE outbox SET sent_at = ?2, attempts = attempts + 1 "
		"WHERE id = ?1 AND sent_at IS NULL AND failed = 0";

	return outbox_update(store, sql, id, now, NULL, "marking sent",
			     error_r);
}

int store_outbox_mark_retry(struct store *store, int64_t id,
			    int64_t next_attempt_at, const char *error,
			    const char **error_r)
{
	static const char sql[] =
		"UPDATE outbox SET next_attempt_at = ?2, last_error = ?3, "
		"attempts = attempts + 1 "
		"WHERE id = ?1 AND sent_at IS NULL AND failed = 0";

	return outbox_update(store, sql, id, next_attempt_at, error,
			     "marking for retry", error_r);
}

int store_outbox_mark_failed(struct store *store, int64_t id, int64_t now,
			     const char *error, const char **error_r)
{
	/* next_attempt_at keeps the time it failed, for `outbox list`. */
	static const char sql[] =
		"UPDATE outbox SET failed = 1, next_attempt_at = ?2, "
		"last_error = ?3, attempts = attempts + 1 "
		"WHERE id = ?1 AND sent_at IS NULL AND failed = 0";

	return outbox_update(store, sql, id, now, error, "marking failed",
			     error_r);
}

int store_outbox_list(struct store *store, enum store_outbox_filter filter,
		      int64_t after_id, size_t limit,
		      struct store_outbox_msg **msgs_r, size_t *count_r,
		      const char **error_r)
{
	static const char sql[] =
		"SELECT " OUTBOX_COLUMNS " FROM outbox WHERE id > ?1 AND "
		"(?2 = 0 OR (?2 = 1 AND sent_at IS NULL AND failed = 0) OR "
		"(?2 = 2 AND sent_at IS NOT NULL) OR (?2 = 3 AND failed = 1)) "
		"ORDER BY id LIMIT ?3";
	sqlite3_stmt *st;

	store_ok(store);
	*msgs_r = NULL;
	*count_r = 0;
	if ((unsigned)filter > STORE_OUTBOX_FAILED)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "bad outbox filter %d", (int)filter);
	st = store_stmt_bind(store, sql, error_r, STORE_INT(after_id),
			     STORE_INT((int)filter), STORE_LIMIT(limit));
	return msgs_collect(store, st, msgs_r, count_r, "listing the outbox",
			    error_r);
}

int store_outbox_by_message_id(struct store *store, const char *message_id,
			       struct store_outbox_msg **msg_r,
			       const char **error_r)
{
	static const char sql[] =
		"SELECT " OUTBOX_COLUMNS " FROM outbox WHERE message_id = ?1 "
		"ORDER BY id LIMIT 1";
	sqlite3_stmt *st;
	size_t n = 0;

	store_ok(store);
	*msg_r = NULL;
	if (message_id == NULL)
		return 0;
	st = store_stmt_bind(store, sql, error_r, STORE_TEXT(message_id));
	if (st == NULL)
		return -1;
	if (msgs_collect(store, st, msg_r, &n, "finding a sent message",
			 error_r) < 0)
		return -1;
	return n > 0 ? 1 : 0;
}
