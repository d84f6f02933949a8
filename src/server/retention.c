/* retention.c -- what the club keeps of old mails, and of a deleted
 * player's (see retention.h).  The store finds and writes
 * (store_retention.c), the mail layer reduces (pgp_reduce_mail); the
 * rules and the batches are here. */
#include "server/retention.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mail/inbound.h"
#include "mail/pgp.h"
#include "server/command.h"
#include "store/store.h"
#include "store/store_prune.h"
#include "util/buf.h"

/* One of our own Message-IDs, in a shape safe to write back. */
static bool retention_our_id(const char *id)
{
	size_t n = id != NULL ? strlen(id) : 0;

	return n > 9 && n < 256 && strncmp(id, "<ashes.", 7) == 0 &&
	       id[n - 1] == '>' && strchr(id, '@') != NULL &&
	       strcspn(id, " \t\r\n\"(),;:\\[]") == n;
}

char *retention_thread_headers(const char *subject, const char *in_reply_to,
			     char *const *refs, size_t nrefs)
{
	struct buf h = BUF_INIT;
	int64_t tag = command_thread_game(subject, NULL, NULL);
	bool any = false;

	if (tag > 0)
		buf_printf(&h, "Subject: [ashes #%" PRId64 "]\r\n", tag);
	if (retention_our_id(in_reply_to))
		buf_printf(&h, "In-Reply-To: %s\r\n", in_reply_to);
	for (size_t i = 0; i < nrefs; i++) {
		if (!retention_our_id(refs[i]))
			continue;
		buf_printf(&h, "%s %s", any ? "\r\n" : "References:", refs[i]);
		any = true;
	}
	if (any)
		buf_puts(&h, "\r\n");
	return buf_steal(&h);
}

/* The reduced form of in: its signed parts under its thread lines.
 * 0 with it in *out, -1 with *why_r (the mail's own fault). */
static int reduce_form(const struct store_inbound *in, struct buf *out,
		       const char **why_r)
{
	struct inbound_options opts;
	struct inbound_msg *msg = NULL;
	enum pgp_reduced_kind kind;
	char *thread = NULL;
	int ret = -1;

	/* Read without a keyring: only the headers and the text as the
	 * daemon read them are wanted here, the signature stays as it
	 * was. */
	memset(&opts, 0, sizeof(opts));
	opts.max_size = in->raw_len + 1;
	opts.now = (time_t)in->received;
	if (inbound_parse(in->raw, in->raw_len, &opts, &msg, why_r) < 0)
		return -1;
	thread = retention_thread_headers(msg->subject, msg->in_reply_to,
					msg->references.items,
					msg->references.count);
	ret = pgp_reduce_mail(in->raw, in->raw_len, thread, msg->text, out,
			      &kind, why_r);
	free(thread);
	inbound_msg_free(&msg);
	return ret;
}

/* retention_reduce_mail, dropping the bytes where they cannot be
 * reduced when drop_else. */
static int reduce_one(struct store *st, int64_t inbound_id, int64_t now,
		      bool drop_else, struct retention_report *r,
		      const char **error_r)
{
	struct store_inbound *in = NULL;
	enum store_raw_kept kept;
	struct buf out = BUF_INIT;
	const char *why = NULL;
	int ret = -1, k;

	if ((k = store_inbound_kept(st, inbound_id, &kept, error_r)) < 0)
		return -1;
	if (k == 0 || kept != STORE_RAW_AS_RECEIVED)
		return 0;
	if (store_inbound_load(st, inbound_id, &in, error_r) != 1)
		return -1;
	if (in->duplicate_of != 0 || in->raw_len == 0) {
		ret = 0;
		goto out;
	}
	if (in->raw_truncated)
		why = "kept only in part (too big)";
	else if (reduce_form(in, &out, &why) == 0) {
		if ((k = store_inbound_reduce(st, inbound_id, out.data,
					      out.len, now, error_r)) < 0)
			goto out;
		if (k == 0) {
			r->reduced_rows++;
			r->reduced_bytes += (int64_t)in->raw_len -
					    (int64_t)out.len;
		}
		ret = k == 0;
		goto out;
	}
	if (drop_else) {
		if (store_inbound_drop_raw(st, inbound_id, now, error_r) < 0)
			goto out;
		r->dropped_rows++;
		r->dropped_bytes += (int64_t)in->raw_len;
	} else {
		r->unreducible++;
		r->unreducible_why = why;
	}
	ret = 0;
out:
	buf_free(&out);
	store_inbound_free(&in);
	return ret;
}

int retention_reduce_mail(struct store *st, int64_t inbound_id,
			  int64_t now, struct retention_report *report,
			  const char **error_r)
{
	return reduce_one(st, inbound_id, now, false, report, error_r);
}

int retention_reduce_player(struct store *st, int64_t player_id,
			    int64_t now, struct retention_report *report,
			    const char **error_r)
{
	int64_t after = 0;

	for (;;) {
		int64_t *ids = NULL;
		size_t n = 0;
		int r = 0;

		if (store_inbound_of_player(st, player_id, after,
					    RETENTION_BATCH, &ids, &n,
					    error_r) < 0)
			return -1;
		for (size_t i = 0; i < n && r >= 0; i++) {
			int used = store_inbound_in_game(st, ids[i], error_r);

			after = ids[i];
			if (used < 0)
				r = -1;
			else if (used == 1)
				r = reduce_one(st, ids[i], now, true, report,
					       error_r);
			else if ((r = store_inbound_drop_raw(st, ids[i], now,
							     error_r)) == 0)
				report->dropped_rows++;
		}
		free(ids);
		if (r < 0)
			return -1;
		if (n < RETENTION_BATCH)
			return 0;
	}
}

/* The mails of ended game game_id kept as received, reduced: how many
 * were looked at in *n_r.  0 or -1. */
static int reduce_game(struct store *st, int64_t game_id, int64_t now,
		       struct retention_report *r, size_t *n_r,
		       const char **error_r)
{
	struct store_game_mail *rows = NULL;
	size_t n = 0;
	int ret = 0;

	if (store_game_mails(st, game_id, &rows, &n, error_r) < 0)
		return -1;
	/* The rows come by inbound id: each mail once. */
	for (size_t i = 0; i < n && ret >= 0; i++)
		if (i == 0 || rows[i].inbound_id != rows[i - 1].inbound_id)
			ret = reduce_one(st, rows[i].inbound_id, now, false, r,
					 error_r);
	*n_r += n;
	store_rows_free(&rows, n, sizeof(*rows), store_game_mail_clear);
	return ret < 0 ? -1 : 0;
}

/* One rule's batch in a transaction of its own. */
static int in_tx(struct store *st, int (*fn)(struct store *, void *,
					     const char **),
		 void *arg, const char **error_r)
{
	if (store_begin(st, error_r) < 0)
		return -1;
	if (fn(st, arg, error_r) < 0) {
		store_rollback(st);
		return -1;
	}
	return store_commit(st, error_r);
}

struct pass {
	const struct retention_limits *lim;
	int64_t now;
	size_t batch;
	struct retention_cursor *cur;
	struct retention_report *r;
};

static int pass_sent(struct store *st, void *arg, const char **error_r)
{
	struct pass *p = arg;
	int64_t rows = 0, bytes = 0;

	if (store_retention_outbox(st, p->now - p->lim->sent_mail, p->batch,
				   &rows, &bytes, error_r) < 0)
		return -1;
	p->r->sent_rows += rows;
	p->r->sent_bytes += bytes;
	p->r->more |= (size_t)rows == p->batch;
	return 0;
}

static int pass_refused(struct store *st, void *arg, const char **error_r)
{
	struct pass *p = arg;
	int64_t rows = 0, bytes = 0;

	if (store_retention_refused(st, p->now - p->lim->refused_mail,
				    p->batch, p->now, &rows, &bytes,
				    error_r) < 0)
		return -1;
	p->r->refused_rows += rows;
	p->r->refused_bytes += bytes;
	p->r->more |= (size_t)rows == p->batch;
	return 0;
}

static int pass_raw(struct store *st, void *arg, const char **error_r)
{
	struct pass *p = arg;
	int64_t *games = NULL;
	size_t n = 0, mails = 0, i;
	int ret = -1;

	/* A few games at a time, whole: a game is some tens of mails. */
	if (store_retention_ended_games(st, p->now - p->lim->raw_mail,
					p->cur->game, p->batch / 8 + 1,
					&games, &n, error_r) < 0)
		return -1;
	for (i = 0; i < n && mails < p->batch; i++) {
		if (reduce_game(st, games[i], p->now, p->r, &mails,
				error_r) < 0)
			goto out;
		p->cur->game = games[i];
	}
	if (i < n || n == p->batch / 8 + 1)
		p->r->more = true;
	else
		p->cur->game = 0;	/* the end: the next pass begins again */
	ret = 0;
out:
	free(games);
	return ret;
}

int retention_run(struct store *st, const struct retention_limits *lim,
		  int64_t now, size_t batch, struct retention_cursor *cur,
		  struct retention_report *report, const char **error_r)
{
	struct pass p = { lim, now, batch ? batch : RETENTION_BATCH, cur,
			  report };

	if (lim->sent_mail > 0 && in_tx(st, pass_sent, &p, error_r) < 0)
		return -1;
	if (lim->refused_mail > 0 &&
	    in_tx(st, pass_refused, &p, error_r) < 0)
		return -1;
	if (lim->raw_mail > 0 && in_tx(st, pass_raw, &p, error_r) < 0)
		return -1;
	return 0;
}
