/* outbox.c -- the outbox sent by SMTP; see outbox.h. */
#include <config.h>

#include "daemon/outbox.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config/log.h"
#include "daemon/outbox_archive.h"
#include "mail/autocrypt.h"
#include "mail/compose.h"
#include "mail/imap_sent.h"
#include "mail/pgp.h"
#include "render/render.h"
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

/* The last pictures drawn, by their SVG: both players of a move (and
 * its observers) get the same drawing, and rasterising it is most of
 * what sending a reply costs (bench/README: libz, cairo and librsvg take
 * some 85% of the outbox's time), so each is drawn once.  Per thread:
 * whoever composes keeps its own; a few tens of KB an entry. */
#define OUTBOX_PNG_CACHE 8
struct outbox_png_entry {
	struct buf svg, png;
	uint64_t used;
};
static __thread struct outbox_png_entry outbox_png_cache[OUTBOX_PNG_CACHE];
static __thread uint64_t outbox_png_clock;

/* The PNG of svg[0 .. len-1], from the cache or drawn into it.  Returns
 * the entry (valid until the next call on this thread), or NULL with
 * *error_r when it could not be drawn. */
static const struct buf *outbox_png_of(const char *svg, size_t len,
				       const char **error_r)
{
	struct outbox_png_entry *e, *oldest = &outbox_png_cache[0];
	struct buf png = BUF_INIT;
	int i;

	for (i = 0; i < OUTBOX_PNG_CACHE; i++) {
		e = &outbox_png_cache[i];
		if (e->svg.len == len && len > 0 &&
		    memcmp(e->svg.data, svg, len) == 0) {
			e->used = ++outbox_png_clock;
			return &e->png;
		}
		if (e->used < oldest->used)
			oldest = e;
	}
	if (render_png_from_svg(svg, len, 0, &png, error_r) < 0) {
		buf_free(&png);
		return NULL;
	}
	buf_free(&oldest->svg);
	buf_free(&oldest->png);
	buf_append(&oldest->svg, svg, len);
	oldest->png = png;
	oldest->used = ++outbox_png_clock;
	return &oldest->png;
}

void outbox_forget_pictures(void)
{
	int i;

	for (i = 0; i < OUTBOX_PNG_CACHE; i++) {
		buf_free(&outbox_png_cache[i].svg);
		buf_free(&outbox_png_cache[i].png);
		outbox_png_cache[i].used = 0;
	}
}

/* The picture as it goes out: a PNG queued as its SVG drawing (the
 * service draws SVG in its transaction; the PNG, tens of milliseconds,
 * is drawn here, outside it) is rasterised (outbox_png_of).  If that
 * fails the SVG goes out as it is, with a warning: the mail is not held
 * up. */
static void outbox_picture(const struct store_outbox_msg *msg,
			   struct compose_msg *m)
{
	const struct buf *png;
	const char *e = NULL;

	m->image = msg->image;
	m->image_len = msg->image_len;
	m->image_type = msg->image_type;
	if (msg->image_type == NULL ||
	    strcmp(msg->image_type, STORE_OUTBOX_PNG) != 0 ||
	    msg->image_len == 0 || msg->image[0] != '<')
		return;
	png = outbox_png_of(msg->image, msg->image_len, &e);
	if (png == NULL) {
		log_warning("outbox %" PRId64 ": no PNG of the board (%s); "
			    "sending the SVG", msg->id, e);
		m->image_type = STORE_OUTBOX_SVG;
		return;
	}
	m->image = png->data;
	m->image_len = png->len;
}

/* The club's Autocrypt header (autocrypt.h), made once a thread for its
 * context, address and key: clients that only sign inside encryption
 * (Delta Chat) learn the club's key from it.  NULL when there is no
 * key, or it cannot encrypt (then said once in the log). */
static __thread struct {
	struct pgp_ctx *pgp;
	char who[512];
	char *header;
	bool done;
} outbox_ac;

static const char *outbox_autocrypt(const struct config *cfg,
				    struct pgp_ctx *pgp)
{
	struct buf key = BUF_INIT, h = BUF_INIT;
	const char *e = NULL;
	char who[512];
	bool enc = false;

	if (pgp == NULL || cfg->smtp.from == NULL)
		return NULL;
	snprintf(who, sizeof(who), "%s %s", cfg->smtp.from,
		 cfg->gpg.signing_key ? cfg->gpg.signing_key : "");
	if (outbox_ac.done && outbox_ac.pgp == pgp &&
	    strcmp(outbox_ac.who, who) == 0)
		return outbox_ac.header;
	free(outbox_ac.header);
	outbox_ac.header = NULL;
	outbox_ac.pgp = pgp;
	outbox_ac.done = true;
	snprintf(outbox_ac.who, sizeof(outbox_ac.who), "%s", who);
	if (pgp_club_key(pgp, cfg->gpg.signing_key, &key, &enc, &e) < 0) {
		log_info("outbox: no Autocrypt header on replies: %s", e);
	} else if (!enc) {
		log_warning("outbox: the club's key has no encryption subkey, so "
			    "replies carry no Autocrypt header and no client "
			    "can encrypt to the club (gpg --quick-add-key FPR "
			    "cv25519 encr never)");
	} else {
		autocrypt_format(cfg->smtp.from, key.data, key.len, &h);
		outbox_ac.header = buf_steal(&h);
	}
	buf_free(&key);
	return outbox_ac.header;
}

/* outbox_compose() with what sending adds to a row (NULL: nothing): the
 * file of an archive mail, or the words that say why it has none. */
static enum outbox_compose_error
outbox_compose_extra(const struct config *cfg, struct pgp_ctx *pgp,
		     const struct store_outbox_msg *msg,
		     const struct outbox_archive_file *extra, int64_t now,
		     struct buf *out, const char **error_r)
{
	static char errbuf[512];
	struct compose_msg m;
	struct compose_part parts[STORE_OUTBOX_PARTS_MAX];
	struct buf cid = BUF_INIT, text = BUF_INIT;
	struct pgp_signer signer = { pgp, cfg->gpg.signing_key };
	bool sign = cfg->gpg.sign_replies && pgp != NULL;
	enum outbox_compose_error ret = OUTBOX_COMPOSE_OK;
	char command[64];
	const char *e = NULL;

	if (msg->recipient == NULL || msg->subject == NULL ||
	    msg->message_id == NULL || msg->message_id[0] == '\0' ||
	    msg->body == NULL || cfg->smtp.from == NULL) {
		*error_r = "the outbox row lacks a recipient, Subject, Message-ID "
			   "or a body, or [smtp] from is unset";
		ret = OUTBOX_COMPOSE_BAD_ROW;
		goto out;
	}
	memset(&m, 0, sizeof(m));
	m.from_address = cfg->smtp.from;
	m.from_name = cfg->smtp.from_name;
	m.reply_to = cfg->smtp.from;
	m.to = msg->recipient;
	m.subject = msg->subject;
	m.message_id = msg->message_id;
	m.in_reply_to = msg->in_reply_to;
	m.references = msg->references;
	m.auto_reply = msg->auto_reply;
	m.x_loop = cfg->smtp.from;
	m.autocrypt = outbox_autocrypt(cfg, pgp);
	m.date = now;
	m.text = msg->body;
	if (extra != NULL && extra->note.len > 0) {
		buf_puts(&text, msg->body);
		buf_append(&text, extra->note.data, extra->note.len);
		m.text = buf_str(&text);
	}
	if (extra != NULL && extra->tgz.len > 0) {
		m.attachment = extra->tgz.data;
		m.attachment_len = extra->tgz.len;
		m.attachment_type = extra->type != NULL ? extra->type :
				    OUTBOX_ARCHIVE_TYPE;
		m.attachment_name = extra->name;
	}
	/* An observer can leave with one mail, as list mail allows (RFC
	 * 2369): the mailto's body is the command, and only a mail's signed
	 * text is read for commands. */
	if (msg->kind == STORE_OUTBOX_KIND_OBSERVER &&
	    msg->game_id != 0) {
		snprintf(command, sizeof(command), "unobserve %" PRId64,
			 msg->game_id);
		m.unsubscribe_to = cfg->smtp.from;
		m.unsubscribe_command = command;
	}
	if (msg->html != NULL) {
		m.html = msg->html;
		if (msg->image != NULL) {
			buf_printf(&cid, STORE_OUTBOX_IMAGE_CID_PREFIX "%s",
				   msg->message_id);
			/* PNG or SVG, as queued; compose names the part
			 * board.png or board.svg by it. */
			outbox_picture(msg, &m);
			m.image_cid = buf_str(&cid);
		}
	}
	/* The files after the text (an analysis's pictures), as queued:
	 * drawn before they were queued, outside the mail loop. */
	if (msg->nparts > 0 && msg->nparts <= STORE_OUTBOX_PARTS_MAX) {
		for (size_t i = 0; i < msg->nparts; i++) {
			parts[i].data = msg->parts[i].data;
			parts[i].len = msg->parts[i].len;
			parts[i].type = msg->parts[i].type;
			parts[i].name = msg->parts[i].name;
		}
		m.parts = parts;
		m.nparts = msg->nparts;
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
	buf_free(&cid);
	buf_free(&text);
	return ret;
}

enum outbox_compose_error
outbox_compose(const struct config *cfg, struct pgp_ctx *pgp,
	       const struct store_outbox_msg *msg, int64_t now, struct buf *out,
	       const char **error_r)
{
	return outbox_compose_extra(cfg, pgp, msg, NULL, now, out, error_r);
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

/* An archive mail's file, made now (outbox_archive.h): 1 made, or its
 * absence explained in file's note; 0 not now (deferred as a temporary
 * failure, stats counted); -1 the store failed. */
static int outbox_archive(const struct config *cfg, struct store *store,
			  struct pgp_ctx *pgp, struct template_set *templates,
			  const struct store_outbox_msg *msg, int64_t now,
			  struct outbox_archive_file *file,
			  struct outbox_stats *stats, const char **error_r)
{
	const char *why = NULL;

	enum outbox_archive_result made =
		msg->kind == STORE_OUTBOX_KIND_EXPORT ?
		outbox_export_make(cfg, store, pgp, templates, msg->recipient,
				   now, file, &why) :
		outbox_archive_make(cfg, store, pgp, templates, msg->game_id,
				    msg->recipient, now, file, &why);

	switch (made) {
	case OUTBOX_ARCHIVE_MADE:
		return 1;
	case OUTBOX_ARCHIVE_NONE:
		/* Retrying will not mend it: the mail says why instead. */
		log_warning("outbox %" PRId64 ": %s; the mail says so", msg->id,
			    why);
		return 1;
	case OUTBOX_ARCHIVE_LATER:
		break;
	}
	log_warning("outbox %" PRId64 ": %s", msg->id, why);
	return outbox_defer(cfg, store, msg, now, why, stats, error_r) < 0 ?
	       -1 : 0;
}

static __thread struct imap_sent *outbox_sent;

void outbox_set_sent_copy(struct imap_sent *sent)
{
	outbox_sent = sent;
}

/* The headers of msg, sent as bytes, into this thread's Sent folder. */
static void outbox_copy_sent(const struct store_outbox_msg *msg,
			     const struct buf *bytes)
{
	const char *e;

	if (outbox_sent == NULL)
		return;
	if (imap_sent_append(outbox_sent, bytes->data, bytes->len, &e) < 0)
		log_warning("outbox %lld: no copy in the Sent folder (a restore "
			    "would send it again): %s", (long long)msg->id, e);
}

int outbox_flush(const struct config *cfg, struct store *store,
		 struct smtp_sender *sender, struct pgp_ctx *pgp,
		 struct template_set *templates, int64_t now,
		 struct outbox_stats *stats, const char **error_r)
{
	return outbox_flush_lane(cfg, store, sender, pgp, templates, now,
				 STORE_OUTBOX_LANE_ALL, NULL, NULL, stats,
				 error_r);
}

int outbox_flush_lane(const struct config *cfg, struct store *store,
		      struct smtp_sender *sender, struct pgp_ctx *pgp,
		      struct template_set *templates, int64_t now,
		      enum store_outbox_lane lane,
		      bool (*stop)(void *stop_ctx), void *stop_ctx,
		      struct outbox_stats *stats, const char **error_r)
{
	struct store_outbox_msg *msgs = NULL;
	size_t n = 0, i;
	int ret = -1;

	memset(stats, 0, sizeof(*stats));
	if (store_outbox_due_lane(store, now, cfg->smtp.batch_size, lane,
				  &msgs, &n, error_r) < 0)
		return -1;
	/* The sender keeps its connection between these sends: one SMTP
	 * session for the batch. */
	for (i = 0; i < n; i++) {
		struct store_outbox_msg *msg = &msgs[i];
		struct buf bytes = BUF_INIT;
		struct outbox_archive_file file = { BUF_INIT, "", BUF_INIT,
						     NULL };
		const struct outbox_archive_file *extra = NULL;
		const char *rcpts[1] = { msg->recipient };
		const char *reply = NULL, *err = NULL;
		enum outbox_compose_error ce;
		enum smtp_result r;
		int code = 0;

		if (stop != NULL && stop(stop_ctx))
			break;
		if (msg->kind == STORE_OUTBOX_KIND_ARCHIVE ||
		    msg->kind == STORE_OUTBOX_KIND_EXPORT) {
			int made = outbox_archive(cfg, store, pgp, templates,
						  msg, now, &file, stats,
						  error_r);
			if (made <= 0) {
				outbox_archive_file_free(&file);
				if (made < 0)
					goto out;
				continue;
			}
			extra = &file;
		}
		ce = outbox_compose_extra(cfg, pgp, msg, extra, now, &bytes,
					  &err);
		outbox_archive_file_free(&file);
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
		if (r == SMTP_SENT)
			outbox_copy_sent(msg, &bytes);
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
