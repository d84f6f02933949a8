/* digest.c -- the daily digest of an observer who chose `set digest on`:
 * their notices were noted instead of sent (recipient_digest_note()), and
 * once a day one mail tells, game by game, what happened since and how
 * the game stands (templates/mail/digest.txt).
 *
 * A day is a UTC day.  An observer is due when a change was noted before
 * today began; their digest then covers every change noted so far, and
 * the notes are deleted in the same transaction that queues the mail.  So
 * a digest goes out at most once a day (what is noted after it waits for
 * tomorrow), running twice sends nothing twice, and a failure or a crash
 * before the commit leaves the notes for the next run. */
#include "server/server_private.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define DIGEST_DAY 86400

/* One observer's digest: rendered and queued, their notes cleared.  0
 * (1 in *sent_r when a mail was queued), or -1 (h->error). */
static int digest_one(struct handle *h, int64_t pid, const char *date,
		      bool *sent_r)
{
	struct store_player *p = NULL;
	struct store_digest_item *items = NULL;
	struct template_ctx *ctx = template_ctx_new();
	struct buf body = BUF_INIT, subject = BUF_INIT;
	struct template_set *was = h->ts;
	const char *error;
	size_t n = 0, shown = 0;
	int ret;

	*sent_r = false;
	ret = store_player_load(h->srv->store, pid, &p, &error);
	if (ret < 0 || store_digest_items(h->srv->store, pid, &items, &n,
					  &error) < 0) {
		ret = server_store_fail(h, error);
		goto out;
	}
	if (ret == 1) {
		struct store_settings s;
		if (server_recipient_settings(h, pid, &s) < 0) {
			ret = -1;
			goto out;
		}
		/* In the reader's language (language.c). */
		h->ts = server_lang_set(h->srv, s.language);
		/* Turned off since: the notes still come, once. */
		template_ctx_set_bool(ctx, "digest_on", s.digest);
		template_ctx_set(ctx, "recipient", p->name);
		template_ctx_set(ctx, "date", date);
		template_ctx_list(ctx, "games");
	}
	ret = 0;
	for (size_t i = 0; p != NULL && i < n && ret == 0; i++) {
		struct game g;
		struct template_ctx *it;
		int r = game_load(h, items[i].game_id, &g, true);

		if (r < 0) {
			ret = -1;
			break;
		}
		if (r == 0)
			continue; /* gone: nothing to tell */
		it = template_ctx_add(ctx, "games");
		game_ctx(h, &g, it);
		ret = game_last_moves_ctx(h, &g, (size_t)items[i].from_ply, it);
		game_free(&g);
		shown++;
	}
	template_ctx_free(&h->refusal); /* game_load's "no such game" */
	if (ret == 0 && shown > 0) {
		ret = server_render(h, "mail/digest.txt", ctx, &body);
		if (ret == 0)
			ret = server_render_line(h, "mail/subject-digest.txt", ctx,
						 &subject);
		/* Nothing queued for a player with no working address: as
		 * for the notices they would have had. */
		if (ret == 0)
			ret = server_queue_notice(h, p, NULL, false,
						  STORE_OUTBOX_KIND_DIGEST,
						  &subject, &body);
		*sent_r = ret == 0 && server_player_address(p) != NULL;
	}
	if (ret == 0 && store_digest_clear(h->srv->store, pid, &error) < 0)
		ret = server_store_fail(h, error);
out:
	h->ts = was;
	free(items);
	store_player_free(&p);
	template_ctx_free(&ctx);
	buf_free(&body);
	buf_free(&subject);
	return ret;
}

int server_send_digests(struct server *server, int64_t now,
			const char **error_r)
{
	struct handle h;
	int64_t *due = NULL, day = now - now % DIGEST_DAY;
	size_t n = 0;
	const char *error;
	char date[16];
	time_t tt = (time_t)now;
	struct tm tm;
	int sent = 0, ret = 0;

	server_handle_at(server, &h, now);
	gmtime_r(&tt, &tm);
	strftime(date, sizeof(date), "%Y-%m-%d", &tm);
	/* The daemon asks every round: look before taking the write lock
	 * (and look again under it). */
	if (store_digest_due(server->store, day, &due, &n, &error) < 0) {
		*error_r = error;
		return -1;
	}
	free(due);
	due = NULL;
	if (n == 0)
		return 0;
	if (store_begin(server->store, &error) < 0) {
		*error_r = error;
		return -1;
	}
	if (store_digest_due(server->store, day, &due, &n, &error) < 0)
		ret = server_store_fail(&h, error);
	for (size_t i = 0; ret == 0 && i < n; i++) {
		bool one;
		ret = digest_one(&h, due[i], date, &one);
		sent += one;
	}
	free(due);
	if (ret == 0 && store_commit(server->store, &error) < 0)
		ret = server_store_fail(&h, error);
	if (ret < 0) {
		/* Keep the text: the store's strings die at rollback. */
		snprintf(server->errbuf, sizeof(server->errbuf), "digest: %s",
			 h.error != NULL ? h.error : "failure");
		store_rollback(server->store);
		*error_r = server->errbuf;
		return -1;
	}
	return sent;
}
