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
 * the mail's text, from mail/board.html.  0 or -1 (h->error). */
static int queue_board(struct handle *h, const struct game *g,
		       struct store_outbox_msg *m, struct buf *svg,
		       struct buf *html)
{
	struct template_ctx *ctx;
	const char *error;
	int ret;

	if (game_board_svg(g, m->ply, svg, &error) < 0)
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
	return 0;
}

/* The references of a mail: the sender's, the game's thread root and
 * the mail answered, as "<a> <b>". */
static void queue_references(const struct game *g, const char *answer_id,
			     const char *answer_refs, struct buf *refs)
{
	if (answer_refs != NULL && answer_refs[0] != '\0' &&
	    strlen(answer_refs) < 900)
		buf_puts(refs, answer_refs);
	if (g != NULL && g->row->thread_message_id != NULL) {
		if (refs->len > 0)
			buf_putc(refs, ' ');
		buf_printf(refs, "<%s>", g->row->thread_message_id);
	}
	if (answer_id != NULL) {
		if (refs->len > 0)
			buf_putc(refs, ' ');
		buf_printf(refs, "<%s>", answer_id);
	}
}

int server_queue_mail(struct handle *h, const char *to, struct game *g,
		      const char *kind, const char *subject,
		      const char *answer_id, const char *answer_refs,
		      const char *body, bool auto_reply)
{
	struct store_outbox_msg m;
	struct buf refs = BUF_INIT, svg = BUF_INIT, html = BUF_INIT;
	char id[256], token[MESSAGE_ID_TOKEN_BYTES * 2 + 1];
	const char *error;
	int ret = 0;

	if (to == NULL)
		return 0;
	if (message_id_token(token) < 0)
		return server_store_fail(h, "no random bytes for a Message-ID");
	memset(&m, 0, sizeof(m));
	m.game_id = g != NULL ? g->row->id : 0;
	m.ply = g != NULL ? g->row->ply : 0;
	command_message_id(id, sizeof(id), m.game_id, m.ply, h->inbound_id,
			   h->seq++, token, h->srv->domain);
	/* Stored without the angle brackets, like inbound Message-IDs. */
	id[strlen(id) - 1] = '\0';
	m.message_id = id + 1;
	m.kind = (char *)kind;
	m.recipient = (char *)to;
	m.subject = (char *)subject;
	m.auto_reply = auto_reply;
	m.body = (char *)body;
	m.inbound_id = h->inbound_id;
	queue_references(g, answer_id, answer_refs, &refs);
	if (refs.len > 0)
		m.references = (char *)buf_str(&refs);
	if (answer_id != NULL)
		m.in_reply_to = (char *)answer_id;
	else if (g != NULL)
		m.in_reply_to = g->row->thread_message_id;
	if (g != NULL && g->rec_ok &&
	    queue_board(h, g, &m, &svg, &html) < 0) {
		ret = -1;
		goto out;
	}
	if (store_outbox_enqueue(h->srv->store, &m, h->now, NULL, &error) < 0) {
		ret = server_store_fail(h, error);
		goto out;
	}
	h->queued++;
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
