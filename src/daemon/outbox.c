/* outbox.c -- the outbox sent by SMTP; see outbox.h. */
#include <config.h>

#include "daemon/outbox.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "daemon/log.h"
#include "mail/compose.h"
#include "mail/pgp.h"
#include "render/template.h"
#include "server/server.h"
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
	char *auto_submitted, *game, *ply, *kind;
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
	free(h->ply);
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
		{ "X-Ashes-Ply", offsetof(struct row_headers, ply) },
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
			if (*slot == NULL)
				abort(); /* as buf.h: out of memory is fatal */
			break;
		}
		line = end ? end + 1 : NULL;
	}
}

int outbox_server_board(void *server, int64_t game, int ply, struct buf *out,
			const char **error_r)
{
	return server_board_svg(server, game, ply, out, error_r);
}

/* A decimal number filling all of s, in [min, max]. */
static bool parse_num(const char *s, long long min, long long max,
		      long long *v_r)
{
	char *end;

	if (s == NULL || *s < '0' || *s > '9')
		return false;
	errno = 0;
	*v_r = strtoll(s, &end, 10);
	return errno == 0 && *end == '\0' && *v_r >= min && *v_r <= max;
}

/* The text/html alternative of a mail about a game: the board picture
 * into *svg, the html (templates mail/board.html, which shows the picture
 * and the text) into *html_r, the picture's Content-ID into cid.  -1 (the
 * mail then goes text-only) when the row names no game, or the picture or
 * the template failed (logged: an operator should see it). */
static int outbox_html_part(const struct outbox_html *html,
			    const struct row_headers *h, const char *body,
			    struct buf *svg, struct buf *html_r, struct buf *cid)
{
	struct template_ctx *ctx;
	long long game, ply;
	const char *e = NULL;
	int ret;

	if (html == NULL || html->templates == NULL || html->board == NULL ||
	    !parse_num(h->game, 1, INT64_MAX, &game) ||
	    !parse_num(h->ply, 0, INT32_MAX, &ply))
		return -1;
	if (html->board(html->board_ctx, game, (int)ply, svg, &e) < 0) {
		log_warning("outbox %s: no board picture for game %lld ply %lld, "
			    "sending text only: %s", h->message_id, game, ply, e);
		return -1;
	}
	/* Unique per mail (RFC 2392): our Message-ID is. */
	buf_puts(cid, "board.");
	buf_append(cid, h->message_id + 1, strlen(h->message_id) - 2);
	ctx = template_ctx_new();
	template_ctx_set(ctx, "subject", h->subject);
	template_ctx_setf(ctx, "game", "%lld", game);
	template_ctx_setf(ctx, "ply", "%lld", ply);
	template_ctx_set(ctx, "image_cid", buf_str(cid));
	template_ctx_set(ctx, "text", body);
	ret = template_render(html->templates, "mail/board.html", ctx, html_r, &e);
	template_ctx_free(&ctx);
	if (ret < 0)
		log_warning("outbox %s: html template failed, sending text only: %s",
			    h->message_id, e);
	return ret;
}

enum outbox_compose_error
outbox_compose(const struct config *cfg, struct pgp_ctx *pgp,
	       const struct outbox_html *html, const char *headers,
	       const char *body, int64_t now, struct buf *out,
	       const char **error_r)
{
	static char errbuf[512];
	struct row_headers h;
	struct compose_msg m;
	struct buf from = BUF_INIT, unsub = BUF_INIT, svg = BUF_INIT;
	struct buf html_text = BUF_INIT, cid = BUF_INIT;
	struct pgp_signer signer = { pgp, cfg->gpg.signing_key };
	bool sign = cfg->gpg.sign_replies && pgp != NULL;
	enum outbox_compose_error ret = OUTBOX_COMPOSE_OK;
	const char *e = NULL;

	row_headers_parse(headers, &h);
	if (h.to == NULL || h.subject == NULL || h.message_id == NULL ||
	    h.message_id[0] != '<' || strlen(h.message_id) < 3 ||
	    body == NULL || cfg->smtp.from == NULL) {
		*error_r = "the outbox row lacks To, Subject, Message-ID or a "
			   "body, or [smtp] from is unset";
		ret = OUTBOX_COMPOSE_BAD_ROW;
		goto out;
	}
	if (cfg->smtp.from_name)
		buf_printf(&from, "\"%s\" <%s>", cfg->smtp.from_name, cfg->smtp.from);
	else
		buf_puts(&from, cfg->smtp.from);
	memset(&m, 0, sizeof(m));
	m.from = buf_str(&from);
	m.reply_to = cfg->smtp.from;
	m.to = h.to;
	m.subject = h.subject;
	m.message_id = h.message_id;
	m.in_reply_to = h.in_reply_to;
	m.references = h.references;
	/* RFC 3834: answers to a mail are auto-replied, notices nobody asked
	 * for (your move, observers, results) auto-generated.  The server
	 * writes it in the row; a row without one goes by its kind. */
	if (h.auto_submitted)
		m.auto_submitted = h.auto_submitted;
	else if (h.kind == NULL || strcmp(h.kind, "reply") == 0)
		m.auto_submitted = "auto-replied";
	else
		m.auto_submitted = "auto-generated";
	m.x_loop = cfg->smtp.from;
	m.date = now;
	m.text = body;
	/* An observer can leave with one mail, as list mail allows (RFC
	 * 2369).  The command goes in the body (RFC 6068 body=): only the
	 * signed text is read for commands, never the Subject. */
	if (h.kind && strcmp(h.kind, "observer") == 0 && h.game) {
		buf_printf(&unsub, "<mailto:%s?subject=unobserve%%20%s"
			   "&body=unobserve%%20%s>", cfg->smtp.from, h.game,
			   h.game);
		m.list_unsubscribe = buf_str(&unsub);
	}
	if (outbox_html_part(html, &h, body, &svg, &html_text, &cid) == 0) {
		m.html = buf_str(&html_text);
		m.image = svg.data;
		m.image_len = svg.len;
		m.image_type = "image/svg+xml";
		m.image_cid = buf_str(&cid);
		m.image_name = "board.svg";
	}
	if (compose_message(&m, sign ? pgp_compose_sign : NULL, &signer, out,
			    &e) < 0) {
		/* the fields were checked above: only signing is left */
		snprintf(errbuf, sizeof(errbuf), "signing with %s: %s",
			 cfg->gpg.signing_key ? cfg->gpg.signing_key : "the default key",
			 e);
		*error_r = errbuf;
		ret = sign ? OUTBOX_COMPOSE_SIGN_FAILED : OUTBOX_COMPOSE_BAD_ROW;
	}
out:
	row_headers_free(&h);
	buf_free(&from);
	buf_free(&unsub);
	buf_free(&svg);
	buf_free(&html_text);
	buf_free(&cid);
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

/* A jitter value in [0, 1): seeded once per process, so that two
 * daemons (or a restarted one) do not pick the same delays. */
static double outbox_jitter(void)
{
	static bool seeded;

	if (!seeded) {
		srandom((unsigned)time(NULL) ^ ((unsigned)getpid() << 16));
		seeded = true;
	}
	return (double)random() / ((double)RAND_MAX + 1);
}

/* A temporary failure: retry later, or give up when the config says the
 * message had its chances (then it is failed like a 5xx, with why). */
static int outbox_defer(const struct config *cfg, struct store *store,
			const struct store_outbox_msg *msg, int64_t now,
			const char *why, struct outbox_stats *stats,
			const char **error_r)
{
	if (outbox_give_up(&cfg->smtp, msg, now)) {
		struct buf e = BUF_INIT;
		int ret;

		buf_printf(&e, "gave up after %d attempts: %s", msg->attempts + 1,
			   why);
		log_warning("outbox %lld: giving up on %s: %s", (long long)msg->id,
			    msg->recipient, buf_str(&e));
		ret = store_outbox_mark_failed(store, msg->id, now, buf_str(&e),
					       error_r);
		buf_free(&e);
		if (ret == 0)
			stats->failed++;
		return ret;
	}
	{
		uint64_t d = outbox_backoff_ms(&cfg->smtp, msg->attempts + 1,
					       outbox_jitter());
		int64_t at = now + (int64_t)((d + 999) / 1000);

		log_info("outbox %lld: temporary failure for %s, retry in %llds: %s",
			 (long long)msg->id, msg->recipient, (long long)(at - now),
			 why);
		if (store_outbox_mark_retry(store, msg->id, at, why, error_r) < 0)
			return -1;
		stats->retried++;
	}
	return 0;
}

int outbox_flush(const struct config *cfg, struct store *store,
		 struct smtp_sender *sender, struct pgp_ctx *pgp,
		 const struct outbox_html *html, int64_t now,
		 struct outbox_stats *stats, const char **error_r)
{
	struct store_outbox_msg *msgs = NULL;
	size_t n = 0, i;
	int ret = -1;

	memset(stats, 0, sizeof(*stats));
	if (store_outbox_due(store, now, cfg->smtp.batch_size, &msgs, &n,
			     error_r) < 0)
		return -1;
	/* The sender keeps its connection between these sends: one SMTP
	 * session for the batch. */
	for (i = 0; i < n; i++) {
		struct store_outbox_msg *msg = &msgs[i];
		struct buf bytes = BUF_INIT;
		const char *rcpts[1] = { msg->recipient };
		const char *reply = NULL, *err = NULL;
		enum outbox_compose_error ce;
		enum smtp_result r;
		int code = 0;

		ce = outbox_compose(cfg, pgp, html, msg->headers, msg->body, now,
				    &bytes, &err);
		if (ce == OUTBOX_COMPOSE_BAD_ROW) {
			/* Our own row cannot become a mail: retrying will not
			 * help, an operator must look. */
			log_error("outbox %lld: cannot compose the mail: %s",
				  (long long)msg->id, err);
			buf_free(&bytes);
			if (store_outbox_mark_failed(store, msg->id, now, err,
						     error_r) < 0)
				goto out;
			stats->failed++;
			continue;
		}
		if (ce == OUTBOX_COMPOSE_SIGN_FAILED) {
			/* gpg is the trouble, not the message: keep it, and
			 * let the rest of the batch wait too (it would fail
			 * the same way). */
			log_error("outbox %lld: %s", (long long)msg->id, err);
			buf_free(&bytes);
			if (outbox_defer(cfg, store, msg, now, err, stats,
					 error_r) < 0)
				goto out;
			break;
		}
		r = smtp_send(sender, cfg->smtp.from, rcpts, 1, bytes.data,
			      bytes.len, &reply, &code);
		buf_free(&bytes);
		if (reply == NULL)
			reply = smtp_result_name(r);
		if (r == SMTP_SENT) {
			log_info("outbox %lld: sent to %s", (long long)msg->id,
				 msg->recipient);
			if (store_outbox_mark_sent(store, msg->id, now, error_r) < 0)
				goto out;
			stats->sent++;
		} else if (r == SMTP_PERMFAIL) {
			log_warning("outbox %lld: refused for %s: %s",
				    (long long)msg->id, msg->recipient, reply);
			if (store_outbox_mark_failed(store, msg->id, now, reply,
						     error_r) < 0)
				goto out;
			stats->failed++;
		} else {
			if (outbox_defer(cfg, store, msg, now, reply, stats,
					 error_r) < 0)
				goto out;
			/* Only a 4xx to this message's MAIL/RCPT/DATA is about
			 * this message.  No reply code (refused, timeout, TLS
			 * or certificate trouble), 421 (the server is closing)
			 * or a 5xx that smtp.c calls temporary (535: our login
			 * refused) is about the server or our setup: the
			 * others would fail the same way and spend their
			 * attempts, so the rest of the batch waits. */
			if (code < 400 || code >= 500 || code == 421) {
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
