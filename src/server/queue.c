/* queue.c -- one outgoing mail into the outbox, as a typed envelope
 * (store_outbox.c writes and reads it; the mail layer alone turns it into
 * RFC 5322 headers).  What the mail shows is decided here, when it is
 * queued: its text, and for a mail about a game the board picture and
 * the html that shows it, so sending never comes back to the service. */
#include "server/server_private.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "server/command.h"

/* The random part of our Message-IDs: a forged delivery report must name
 * a mail we really sent, and nobody can guess one from the game, ply and
 * inbound numbers. */
#define MESSAGE_ID_TOKEN_BYTES 8
_Static_assert(MESSAGE_ID_TOKEN_BYTES * 2 + 1 == 17,
	       "server_config.reply_token writes 16 hex digits");

static int message_id_token(char *hex)
{
	unsigned char raw[MESSAGE_ID_TOKEN_BYTES];
	size_t i;

	if (getrandom(raw, sizeof(raw), 0) != (ssize_t)sizeof(raw))
		return -1;
	for (i = 0; i < sizeof(raw); i++)
		snprintf(hex + 2 * i, 3, "%02x", raw[i]);
	return 0;
}

/* The text/html alternative of a mail about game g: the board as the
 * mail was written for it (a picture the html shows by Content-ID) above
 * the mail's text, from mail/board.html.  The picture is stored as SVG;
 * for a reader who takes PNG (the default: most webmail shows no SVG)
 * the envelope says so and the outbox draws the PNG when it sends,
 * outside this transaction, because drawing one takes tens of
 * milliseconds.  0 or -1 (h->error). */
static int queue_board(struct handle *h, const struct game *g,
		       enum store_picture picture, struct store_outbox_msg *m,
		       struct buf *svg, struct buf *html)
{
	struct template_ctx *ctx;
	const char *error;
	int ret;

	if (game_board_picture(h, g, m->ply, svg, &error) < 0)
		return server_store_fail(h, error);
	ctx = template_ctx_new();
	template_ctx_set(ctx, "subject", m->subject);
	template_ctx_setf(ctx, "game", "%" PRId64, m->game_id);
	template_ctx_set_int(ctx, "ply", m->ply);
	template_ctx_setf(ctx, "image_cid", "%s%s", STORE_OUTBOX_IMAGE_CID_PREFIX,
			  m->message_id);
	template_ctx_set(ctx, "text", m->body);
	ret = server_render(h, "mail/board.html", ctx, html);
	template_ctx_free(&ctx);
	if (ret < 0)
		return -1;
	m->html = (char *)buf_str(html);
	m->image = svg->data;
	m->image_len = svg->len;
	m->image_type = (char *)(picture == STORE_PICTURE_SVG ?
				 STORE_OUTBOX_SVG : STORE_OUTBOX_PNG);
	return 0;
}

/* The picture the recipient takes (PNG for anyone who is no player). */
static int queue_picture(struct handle *h, int64_t recipient_id,
			 enum store_picture *picture_r)
{
	struct store_settings s;

	*picture_r = STORE_PICTURE_PNG;
	if (recipient_id == 0)
		return 0;
	if (server_recipient_settings(h, recipient_id, &s) < 0)
		return -1;
	*picture_r = s.picture;
	return 0;
}

/* A References value stays one bounded header line (RFC 5322 3.6.4 lets
 * a long list lose its middle: the first, the thread's root and the mail
 * answered are what threading needs), of at most this many ids. */
#define QUEUE_REFERENCES_MAX 900
#define QUEUE_REFERENCES_IDS 32
#define QUEUE_REFERENCE_ID_MAX 250

struct queue_ref {
	const char *id; /* "<...>", not NUL-terminated */
	size_t len;
	bool keep;      /* ours to thread by: never dropped */
};

/* Append "<...>" id (len bytes) to refs unless it is there already; a
 * full list loses its second (oldest but the first) id to make room. */
static void queue_ref_add(struct queue_ref *refs, size_t *n, const char *id,
			  size_t len, bool keep)
{
	size_t i;

	for (i = 0; i < *n; i++) {
		if (refs[i].len == len && memcmp(refs[i].id, id, len) == 0) {
			refs[i].keep |= keep;
			return;
		}
	}
	if (*n == QUEUE_REFERENCES_IDS) {
		for (i = 1; i < *n && refs[i].keep; i++)
			;
		if (i == *n)
			return;
		memmove(&refs[i], &refs[i + 1], (*n - i - 1) * sizeof(*refs));
		(*n)--;
	}
	refs[*n].id = id;
	refs[*n].len = len;
	refs[*n].keep = keep;
	(*n)++;
}

/* The ids of the sender's References: well-formed "<...>" tokens only
 * (no blank, control character or bracket inside, not too long). */
static void queue_refs_parse(const char *text, struct queue_ref *refs,
			     size_t *n)
{
	const char *p = text;

	while (p != NULL && (p = strchr(p, '<')) != NULL) {
		size_t len = 1;
		bool ok = true;

		while (p[len] != '\0' && p[len] != '>') {
			unsigned char c = (unsigned char)p[len];
			if (c <= ' ' || c >= 0x7f || c == '<') {
				ok = false;
				break;
			}
			len++;
		}
		if (p[len] != '>') {
			p += len;
			continue;
		}
		len++;
		if (ok && len > 2 && len <= QUEUE_REFERENCE_ID_MAX)
			queue_ref_add(refs, n, p, len, false);
		p += len;
	}
}

/* The references of a mail: the sender's, the game's thread root and
 * the mail answered, as "<a> <b>" -- each id once, where it first comes,
 * and the line bounded by dropping the oldest ids after the first. */
static void queue_references(const struct game *g, const char *answer_id,
			     const char *answer_refs, struct buf *out)
{
	struct queue_ref refs[QUEUE_REFERENCES_IDS];
	char root[QUEUE_REFERENCE_ID_MAX + 3], answer[QUEUE_REFERENCE_ID_MAX + 3];
	size_t n = 0, total = 0, i;
	int len;

	if (answer_refs != NULL)
		queue_refs_parse(answer_refs, refs, &n);
	if (g != NULL && g->row->thread_message_id != NULL) {
		len = snprintf(root, sizeof(root), "<%s>",
			       g->row->thread_message_id);
		if (len > 0 && (size_t)len < sizeof(root))
			queue_ref_add(refs, &n, root, (size_t)len, true);
	}
	if (answer_id != NULL) {
		len = snprintf(answer, sizeof(answer), "<%s>", answer_id);
		if (len > 0 && (size_t)len < sizeof(answer))
			queue_ref_add(refs, &n, answer, (size_t)len, true);
	}
	for (i = 0; i < n; i++)
		total += refs[i].len + (i > 0);
	/* Too long: the oldest after the first go, never ours. */
	for (i = 1; total > QUEUE_REFERENCES_MAX && i < n;) {
		if (refs[i].keep) {
			i++;
			continue;
		}
		total -= refs[i].len + 1;
		memmove(&refs[i], &refs[i + 1], (n - i - 1) * sizeof(*refs));
		n--;
	}
	for (i = 0; i < n; i++) {
		if (i > 0)
			buf_putc(out, ' ');
		buf_append(out, refs[i].id, refs[i].len);
	}
}

int server_queue_mail(struct handle *h, const char *to,
		      int64_t recipient_id, struct game *g, bool picture,
		      enum store_outbox_kind kind, const char *subject,
		      const char *answer_id, const char *answer_refs,
		      const char *body, bool auto_reply)
{
	return server_queue_mail_parts(h, to, recipient_id, g, picture, kind,
				       subject, answer_id, answer_refs, body,
				       auto_reply, NULL, 0);
}

int server_queue_mail_parts(struct handle *h, const char *to,
			    int64_t recipient_id, struct game *g,
			    bool picture, enum store_outbox_kind kind,
			    const char *subject, const char *answer_id,
			    const char *answer_refs, const char *body,
			    bool auto_reply, struct store_outbox_part *parts,
			    size_t nparts)
{
	int64_t parts_len = 0;

	struct store_outbox_msg m;
	struct buf refs = BUF_INIT, svg = BUF_INIT, html = BUF_INIT;
	char id[256], token[MESSAGE_ID_TOKEN_BYTES * 2 + 1];
	enum store_picture taken = STORE_PICTURE_NONE;
	const char *error;
	int ret = 0;

	if (to == NULL)
		return 0;
	/* The bot has no mailbox: nothing is ever sent to it. */
	if ((ret = server_is_bot(h, recipient_id)) != 0)
		return ret < 0 ? -1 : 0;
	if (h->srv->cfg.reply_token != NULL && h->msg != NULL &&
	    h->msg->raw_sha256 != NULL) {
		if (h->srv->cfg.reply_token(h->srv->cfg.reply_token_ctx,
					    h->msg->raw_sha256, (int)kind,
					    h->seq, token) < 0)
			return server_store_fail(h, "cannot make a reply's "
						 "Message-ID");
	} else if (message_id_token(token) < 0) {
		return server_store_fail(h, "no random bytes for a Message-ID");
	}
	memset(&m, 0, sizeof(m));
	m.game_id = g != NULL ? g->row->id : 0;
	m.ply = g != NULL ? g->row->ply : 0;
	command_message_id(id, sizeof(id), m.game_id, m.ply, h->inbound_id,
			   h->seq++, token, h->srv->domain);
	/* Stored without the angle brackets, like inbound Message-IDs. */
	id[strlen(id) - 1] = '\0';
	m.message_id = id + 1;
	m.kind = kind;
	m.recipient = (char *)to;
	m.subject = (char *)subject;
	m.auto_reply = auto_reply;
	m.body = (char *)body;
	m.inbound_id = h->inbound_id;
	m.parts = parts;
	m.nparts = nparts;
	for (size_t i = 0; i < nparts; i++)
		parts_len += (int64_t)parts[i].len;
	queue_references(g, answer_id, answer_refs, &refs);
	if (refs.len > 0)
		m.references = (char *)buf_str(&refs);
	if (answer_id != NULL)
		m.in_reply_to = (char *)answer_id;
	else if (g != NULL)
		m.in_reply_to = g->row->thread_message_id;
	if (g != NULL && g->rec_ok && picture &&
	    queue_picture(h, recipient_id, &taken) < 0) {
		ret = -1;
		goto out;
	}
	if (taken != STORE_PICTURE_NONE &&
	    queue_board(h, g, taken, &m, &svg, &html) < 0) {
		ret = -1;
		goto out;
	}
	if (store_outbox_enqueue(h->srv->store, &m, h->now, NULL, &error) < 0) {
		ret = server_store_fail(h, error);
		goto out;
	}
	h->queued++;
	/* What the sender's mail made us send counts against the sender
	 * (limits.c); an observer's mails are the observer's choice. */
	if (kind != STORE_OUTBOX_KIND_OBSERVER &&
	    limits_charge(h, 1, (int64_t)(strlen(body) +
			  (m.html != NULL ? strlen(m.html) : 0) +
			  m.image_len + parts_len)) < 0) {
		ret = -1;
		goto out;
	}
	if (g != NULL && g->row->thread_message_id == NULL) {
		g->row->thread_message_id = strdup(id + 1);
		if (g->row->thread_message_id == NULL ||
		    store_game_update(h->srv->store, g->row, h->now,
				      &error) < 0) {
			ret = server_store_fail(h, "cannot record the game's thread");
			goto out;
		}
	}
out:
	buf_free(&refs);
	buf_free(&svg);
	buf_free(&html);
	return ret;
}

int server_queue_notice(struct handle *h, const struct store_player *p,
			struct game *g, bool picture,
			enum store_outbox_kind kind, const struct buf *subject,
			const struct buf *body)
{
	return server_queue_mail(h, server_player_address(p), p->id, g,
				 picture, kind, buf_str(subject), NULL, NULL,
				 buf_str(body), false);
}
