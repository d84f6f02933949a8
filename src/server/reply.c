/* reply.c -- the one reply to the sender of a mail: every command's
 * result in order, the refusal if one stopped the rest, or why the mail
 * as a whole was not read.  It goes to the registered address (From only
 * for a sender still unknown after the commands), in the thread of the
 * first game the mail touched.  A player who chose `set confirm off`
 * gets none for a mail that only played moves. */
#include "server/server_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A player who turned confirmations off (`set confirm off`) gets no
 * reply to a mail that only played moves, every one of them taken: the
 * next "your move" mail shows their move (recipient.c).  Anything else a
 * reply would say -- a refusal, another command's result, a note about
 * the mail itself -- is always sent.  1 skip, 0 send, -1 failure. */
static int reply_unwanted(struct handle *h)
{
	struct store_settings s;

	if (h->no_reply)
		return 1;
	if (!h->only_moves || h->me == NULL || h->msg->unsigned_text_ignored ||
	    template_ctx_get(h->reply, "subject_ignored") != NULL)
		return 0;
	if (server_recipient_settings(h, h->me->id, &s) < 0)
		return -1;
	return s.confirm ? 0 : 1;
}

int server_queue_reply(struct handle *h)
{
	const struct server_inbound *msg = h->msg;
	struct buf body = BUF_INIT, subject = BUF_INIT;
	struct game g = { 0 };
	bool have_game = false;
	char *to = NULL;
	int ret;

	ret = reply_unwanted(h);
	if (ret != 0)
		return ret < 0 ? -1 : 0;
	/* A player is answered where their mail goes (a confirmed address,
	 * else the one they claim); a stranger at From, if it is usable. */
	if (h->me != NULL) {
		if (server_reply_address(h, h->me, &to) < 0)
			return -1;
	} else if (server_address_usable(msg->from_address)) {
		to = strdup(msg->from_address);
		if (to == NULL)
			return server_store_fail(h, "out of memory");
	}
	/* A refused mail says why it was refused, not that it was weak. */
	template_ctx_set_bool(h->reply, "weak", (h->weak ||
						 msg->fingerprint == NULL) &&
			      h->mail_refusal == NULL);
	template_ctx_set_bool(h->reply, "unsigned_text_ignored",
			      msg->unsigned_text_ignored);
	if (h->me != NULL)
		template_ctx_set(h->reply, "name", h->me->name);
	ret = server_render(h, "mail/reply.txt", h->reply, &body);
	if (ret < 0)
		goto out;
	if (h->first_game != 0) {
		ret = game_load(h, h->first_game, &g, true);
		if (ret < 0)
			goto out;
		have_game = ret == 1;
	}
	if (have_game) {
		ret = game_subject(h, &g, h->me != NULL ? h->me->id : 0,
				   "reply", &subject);
	} else {
		char clean[COMMAND_TEXT_MAX];
		command_subject_clean(msg->subject, clean, sizeof(clean));
		ret = server_render_line(h, "mail/subject-reply.txt", h->reply,
					 &subject);
		if (clean[0] != '\0' && ret == 0) {
			buf_reset(&subject);
			buf_printf(&subject, "Re: %s", clean);
		}
	}
	if (ret < 0)
		goto out;
	{
		struct buf refs = BUF_INIT;
		if (msg->references != NULL)
			buf_puts(&refs, msg->references);
		ret = server_queue_mail(h, to, h->me != NULL ? h->me->id : 0,
					have_game ? &g : NULL, h->moved,
					STORE_OUTBOX_KIND_REPLY,
					buf_str(&subject), h->message_id,
					buf_str(&refs), buf_str(&body), true);
		buf_free(&refs);
	}
out:
	if (have_game)
		game_free(&g);
	else
		store_game_free(&g.row);
	buf_free(&body);
	buf_free(&subject);
	free(to);
	return ret;
}
