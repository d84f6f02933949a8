/* outbox.c -- the outbox sent by SMTP; see outbox.h. */
#include <config.h>

#include "daemon/outbox.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/log.h"
#include "mail/compose.h"
#include "mail/pgp.h"
#include "store/store.h"
#include "util/buf.h"

uint64_t outbox_backoff_ms(const struct config_smtp *cfg, int attempts,
			   double rnd)
{
	uint64_t d = cfg->retry_initial_ms ? cfg->retry_initial_ms : 1000;
	int i;

	for (i = 1; i < attempts && d < cfg->retry_max_ms; i++)
		d *= 2;
	if (cfg->retry_max_ms && d > cfg->retry_max_ms)
		d = cfg->retry_max_ms;
	if (rnd < 0 || rnd >= 1)
		rnd = 0;
	return d - (uint64_t)((double)d * 0.2 * rnd);
}

/* The header block of an outbox row, one "Name: value" per line. */
struct row_headers {
	char *to, *subject, *message_id, *in_reply_to, *references;
	char *auto_submitted, *game, *kind;
};

static void row_headers_free(struct row_headers *h)
{
	free(h->to);
	free(h->subject);
	free(h->message_id);
	free(h->in_reply_to);
	free(h->references);
	free(h->auto_submitted);
	free(h->game);
	free(h->kind);
	memset(h, 0, sizeof(*h));
}

static void row_headers_parse(const char *block, struct row_headers *h)
{
	static const struct {
		const char *name;
		size_t off;
	} fields[] = {
		{ "To", offsetof(struct row_headers, to) },
		{ "Subject", offsetof(struct row_headers, subject) },
		{ "Message-ID", offsetof(struct row_headers, message_id) },
		{ "In-Reply-To", offsetof(struct row_headers, in_reply_to) },
		{ "References", offsetof(struct row_headers, references) },
		{ "Auto-Submitted", offsetof(struct row_headers, auto_submitted) },
		{ "X-Ashes-Game", offsetof(struct row_headers, game) },
		{ "X-Ashes-Kind", offsetof(struct row_headers, kind) },
	};
	const char *line = block;

	memset(h, 0, sizeof(*h));
	while (line && *line) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		const char *colon = memchr(line, ':', len);
		size_t i;

		if (len && line[len - 1] == '\r')
			len--;
		for (i = 0; colon && i < sizeof(fields) / sizeof(fields[0]); i++) {
			size_t nl = strlen(fields[i].name);
			const char *v = colon + 1;
			char **slot = (char **)((char *)h + fields[i].off);

			if ((size_t)(colon - line) != nl ||
			    strncasecmp(line, fields[i].name, nl) != 0)
				continue;
			while (*v == ' ' || *v == '\t')
				v++;
			free(*slot);
			*slot = strndup(v, len - (size_t)(v - line));
			break;
		}
		line = end ? end + 1 : NULL;
	}
}

struct sign_ctx {
	struct pgp_ctx *pgp;
	const char *key;
};

static int sign_part(void *vctx, const char *data, size_t len, char **sig_r,
		     const char **micalg_r, const char **error_r)
{
	struct sign_ctx *s = vctx;
	struct buf sig = BUF_INIT;

	if (pgp_sign_detached(s->pgp, s->key, data, len, &sig, error_r) < 0) {
		buf_free(&sig);
		return -1;
	}
	*sig_r = buf_steal(&sig);
	/* gpg's default digest for ed25519 and RSA keys of today */
	*micalg_r = "pgp-sha256";
	return 0;
}

int outbox_compose(const struct config *cfg, struct pgp_ctx *pgp,
		   const char *headers, const char *body, int64_t now,
		   struct buf *out, const char **error_r)
{
	struct row_headers h;
	struct compose_msg m;
	struct buf from = BUF_INIT, unsub = BUF_INIT;
	struct sign_ctx sc = { pgp, cfg->gpg.signing_key };
	int ret;

	row_headers_parse(headers, &h);
	if (cfg->smtp.from_name)
		buf_printf(&from, "\"%s\" <%s>", cfg->smtp.from_name, cfg->smtp.from);
	else
		buf_puts(&from, cfg->smtp.from ? cfg->smtp.from : "");
	memset(&m, 0, sizeof(m));
	m.from = buf_str(&from);
	m.reply_to = cfg->smtp.from;
	m.to = h.to;
	m.subject = h.subject;
	m.message_id = h.message_id;
	m.in_reply_to = h.in_reply_to;
	m.references = h.references;
	m.auto_submitted = h.auto_submitted ? h.auto_submitted : "auto-replied";
	m.x_loop = cfg->smtp.from;
	m.date = now;
	m.text = body;
	/* An observer can leave with one mail, as list mail allows. */
	if (h.kind && strcmp(h.kind, "observer") == 0 && h.game && cfg->smtp.from) {
		buf_printf(&unsub, "<mailto:%s?subject=unobserve%%20%s>",
			   cfg->smtp.from, h.game);
		m.list_unsubscribe = buf_str(&unsub);
	}
	ret = compose_message(&m, cfg->gpg.sign_replies && pgp ? sign_part : NULL,
			      &sc, out, error_r);
	row_headers_free(&h);
	buf_free(&from);
	buf_free(&unsub);
	return ret;
}

/* Whether a temporarily failed message has had its chances. */
static bool outbox_give_up(const struct config_smtp *cfg,
			   const struct store_outbox_msg *msg, int64_t now)
{
	if (cfg->max_attempts && msg->attempts + 1 >= (int)cfg->max_attempts)
		return true;
	return cfg->give_up_after_ms &&
	       (uint64_t)(now - msg->created) * 1000 >= cfg->give_up_after_ms;
}

int outbox_flush(const struct config *cfg, struct store *store,
		 struct smtp_sender *sender, struct pgp_ctx *pgp, int64_t now,
		 struct outbox_stats *stats, const char **error_r)
{
	struct store_outbox_msg *msgs = NULL;
	size_t n = 0, i;
	int ret = -1;

	memset(stats, 0, sizeof(*stats));
	if (store_outbox_due(store, now, cfg->smtp.batch_size, &msgs, &n,
			     error_r) < 0)
		return -1;
	for (i = 0; i < n; i++) {
		struct store_outbox_msg *msg = &msgs[i];
		struct buf bytes = BUF_INIT;
		const char *rcpts[1] = { msg->recipient };
		const char *reply = NULL, *err = NULL;
		enum smtp_result r;
		int code = 0;

		if (outbox_compose(cfg, pgp, msg->headers, msg->body, now, &bytes,
				   &err) < 0) {
			/* Our own row cannot become a mail: retrying will not
			 * help, an operator must look. */
			log_error("outbox %lld: cannot compose the mail: %s",
				  (long long)msg->id, err);
			if (store_outbox_mark_failed(store, msg->id, now, err,
						     error_r) < 0)
				goto out;
			stats->failed++;
			buf_free(&bytes);
			continue;
		}
		r = smtp_send(sender, cfg->smtp.from, rcpts, 1, bytes.data,
			      bytes.len, &reply, &code);
		buf_free(&bytes);
		if (r == SMTP_SENT) {
			log_info("outbox %lld: sent to %s", (long long)msg->id,
				 msg->recipient);
			if (store_outbox_mark_sent(store, msg->id, now, error_r) < 0)
				goto out;
			stats->sent++;
		} else if (r == SMTP_PERMFAIL || outbox_give_up(&cfg->smtp, msg, now)) {
			log_warning("outbox %lld: giving up on %s: %s",
				    (long long)msg->id, msg->recipient, reply);
			if (store_outbox_mark_failed(store, msg->id, now, reply,
						     error_r) < 0)
				goto out;
			stats->failed++;
		} else {
			uint64_t d = outbox_backoff_ms(&cfg->smtp, msg->attempts + 1,
						       (double)random() / ((double)RAND_MAX + 1));
			int64_t at = now + (int64_t)((d + 999) / 1000);

			log_info("outbox %lld: %s for %s, retry in %llus: %s",
				 (long long)msg->id, smtp_result_name(r),
				 msg->recipient, (unsigned long long)(at - now), reply);
			if (store_outbox_mark_retry(store, msg->id, at, reply,
						    error_r) < 0)
				goto out;
			stats->retried++;
			/* No reply code: the server itself is away; the rest
			 * of the batch waits for the next round. */
			if (code == 0) {
				stats->server_down = true;
				break;
			}
		}
	}
	ret = 0;
out:
	store_outbox_msgs_free(&msgs, n);
	return ret;
}
