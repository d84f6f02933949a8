/* archive_cmd.c -- the `archive GAME` command: a game's archive
 * (src/archive: its record, its players' signed mails, their keys and a
 * MANIFEST the daemon signs) mailed to the sender as a .tar.gz.
 *
 * The service only decides and queues: a mail of kind "archive" about
 * the game, its text from mail/archive.txt.  The archive itself is made
 * by the daemon's outbox when it sends the mail (outbox_archive.c),
 * outside this transaction: it reads every mail of the game and signs
 * with the daemon's key, and the service knows nothing of gpg.
 *
 * Who may ask (the row's gate, GATE_PLAYER_OR_FINISHED): a player of the
 * game at any time once it began, anyone registered once it is finished.
 * While a game runs its archive holds the notes its players sent each
 * other, which `history` shows only to them; a finished game is the
 * club's record, as its result is. */
#include "server/server_private.h"

#include <stdlib.h>

int archive_cmd_run(struct handle *h, const struct command *c,
		    struct game *g, struct template_ctx *out)
{
	struct template_ctx *ctx;
	struct buf body = BUF_INIT, subject = BUF_INIT;
	char *to = NULL;
	int64_t weight = 0;
	int ret;

	/* Once a day per game, within the hour's bytes (limits.c). */
	if ((ret = limits_archive(h, g, &weight)) != 0)
		return ret;
	if (server_reply_address(h, h->me, &to) < 0)
		return -1;
	game_names_ctx(g, out);
	if (to == NULL)
		return 0; /* no address that works: the gate lets no such
			   * player through */
	template_ctx_set(out, "address", to);
	ctx = template_ctx_new();
	game_names_ctx(g, ctx);
	template_ctx_set(ctx, "name", h->me->name);
	template_ctx_set_int(ctx, "plies", g->row->ply);
	ret = server_render(h, "mail/archive.txt", ctx, &body);
	if (ret == 0)
		ret = game_subject(h, g, h->me->id, "archive", &subject);
	/* An answer to the sender's mail, in the game's thread; no
	 * picture: the attachment is the point. */
	if (ret == 0)
		ret = server_queue_mail(h, to, h->me->id, g, false,
					STORE_OUTBOX_KIND_ARCHIVE,
					buf_str(&subject), NULL, NULL,
					buf_str(&body), true);
	/* What the attachment will weigh: the game's mails. */
	if (ret == 0)
		ret = limits_charge(h, 0, weight);
	template_ctx_free(&ctx);
	buf_free(&body);
	buf_free(&subject);
	free(to);
	return ret;
}
