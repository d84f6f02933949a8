/* loop.c -- ashesd's mail loop: mail source -> mail layer (parse,
 * verify, classify: no decisions, no store) -> game service (every
 * decision about the mail, in one store transaction) -> archive ->
 * outbox -> SMTP.
 *
 * This is the one place that wires the layers together, and it only
 * wires: whether a mail is a duplicate, a replay, a bounce of ours, an
 * automatic mail, over the rate limit, refused or read, the service
 * decides (server.h); where the mailbox stopped and how often a mail
 * failed, the service records (server_mailbox_*, server_attempt*).  The
 * loop opens the store and hands it to the service and the outbox; it
 * makes no query of its own.
 *
 * The order of the steps is what makes "applied and answered exactly
 * once" hold when the daemon is killed at any point:
 *   1. server_handle_batch() commits the moves, the replies (into the
 *      outbox), the counters and the record of the message in one
 *      transaction;
 *   2. only then is the mailbox state saved and the message archived, so a
 *      crash before 2 hands the message out again, and the service's
 *      sha256 record turns the second handling into a no-op (the rate
 *      counter included);
 *   3. the outbox is sent afterwards, at least once per row (outbox.h).
 * The mails waiting in the mailbox are taken in batches (LOOP_BATCH_MAX)
 * into one transaction, so a burst costs one commit (one fsync) per batch
 * rather than per mail; if a batch fails, its mails are taken one by one
 * so that one bad mail cannot hold up the others.
 * A message the machinery cannot handle now (store busy, gpg not running)
 * is left in the mailbox and tried again on the next round.
 */
#include <config.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "daemon/daemon.h"
#include "daemon/guard.h"
#include "daemon/loop_private.h"
#include "config/log.h"
#include "daemon/outbox.h"
#include "daemon/settings.h"
#include "daemon/timing.h"
#include "mail/inbound.h"
#include "mail/pgp.h"
#include "mail/smtp.h"
#include "mail/source.h"
#include "render/template.h"
#include "server/server.h"
#include "store/store.h"


/* Test hook: ASHES_TEST_KILL_AT=after-commit|after-archive makes the
 * daemon kill itself with SIGKILL at that point of handling a mail, so
 * the e2e tests can prove that a crash there loses nothing and repeats
 * nothing.  Unset in production. */
static void loop_test_kill(const char *point)
{
	const char *at = getenv("ASHES_TEST_KILL_AT");

	if (at && strcmp(at, point) == 0) {
		log_notice("test hook: killing myself %s", point);
		raise(SIGKILL);
	}
}

/* Test hook: ASHES_TEST_CRASH_ON=TEXT makes the daemon die of SIGSEGV
 * while reading any mail whose bytes hold TEXT, as a parser bug would, so
 * the e2e tests can prove such a mail is set aside after GUARD_MAX_ATTEMPTS
 * crashes and the mail behind it still goes through.  Unset in
 * production. */
static void loop_test_crash(const char *data, size_t size)
{
	const char *on = getenv("ASHES_TEST_CRASH_ON");

	if (on != NULL && *on != '\0' && memmem(data, size, on, strlen(on))) {
		log_notice("test hook: crashing on this mail");
		raise(SIGSEGV);
	}
}

static void loop_source_event(void *ctx, enum mail_source_event ev,
			      const char *detail)
{
	struct loop *l = ctx;

	/* The source reports an outage once when it starts and once when it
	 * ends, so the log tells an operator without flooding. */
	if (ev == MAIL_SOURCE_EVENT_DOWN) {
		l->imap_down = true;
		log_warning("mailbox %s unreachable: %s (retrying with backoff)",
			    l->source_name, detail ? detail : "");
	} else {
		l->imap_down = false;
		log_notice("mailbox %s reachable again", l->source_name);
	}
}

/* Everything that depends on the config: opened at start and again on
 * SIGHUP (into a fresh struct, swapped in only if all of it opened). */
static void loop_close(struct loop *l)
{
	mail_source_close(&l->source);
	smtp_sender_free(&l->smtp);
	server_free(&l->server);
	template_set_free(&l->templates);
	pgp_ctx_free(&l->pgp);
	store_close(&l->store);
}

static int loop_open(struct loop *l, const struct config *cfg,
		     const char **error_r)
{
	static char err[768];
	struct store_options so;
	struct server_config sc;
	struct mail_source_settings ms;
	const char *e = NULL;

	memset(l, 0, sizeof(*l));
	memset(&so, 0, sizeof(so));
	so.busy_timeout_ms = (int)cfg->database.busy_timeout_ms;
	if (store_open(cfg->database.path, &so, &l->store, &e) < 0) {
		snprintf(err, sizeof(err), "database %s: %s", cfg->database.path, e);
		goto fail;
	}
	l->templates = template_set_new(cfg->templates.dir, getenv("ASHES_TEMPLATES"));
	server_config_default(&sc);
	settings_server(cfg, &sc);
	sc.templates = l->templates;
	if (server_new(l->store, &sc, &l->server, &e) < 0) {
		settings_server_done(&sc);
		snprintf(err, sizeof(err), "game server: %s", e);
		goto fail;
	}
	settings_server_done(&sc);
	/* A broken override folder is refused now, not on the first mail. */
	if (server_check_templates(l->server, &e) < 0 ||
	    template_check(l->templates, "mail/board.html", &e) < 0) {
		snprintf(err, sizeof(err), "templates: %s", e);
		goto fail;
	}
	if (cfg->gpg.home) {
		/* gpg wants its home private; create it on first start */
		if (mkdir(cfg->gpg.home, 0700) < 0 && errno != EEXIST) {
			snprintf(err, sizeof(err), "gpg home %s: %s", cfg->gpg.home,
				 strerror(errno));
			goto fail;
		}
		if (pgp_ctx_new(cfg->gpg.home, &l->pgp, &e) < 0) {
			snprintf(err, sizeof(err), "gpg home %s: %s", cfg->gpg.home, e);
			goto fail;
		}
	}
	settings_mail_source(cfg, &ms);
	ms.event = loop_source_event;
	ms.event_context = l;
	if (cfg->source.type == CONFIG_SOURCE_MAILDIR)
		snprintf(l->source_name, sizeof(l->source_name), "dir:%s",
			 cfg->source.maildir);
	else
		snprintf(l->source_name, sizeof(l->source_name), "imap://%s@%s:%u/%s",
			 cfg->imap.server.user ? cfg->imap.server.user : "",
			 cfg->imap.server.host ? cfg->imap.server.host : "",
			 cfg->imap.server.port,
			 cfg->imap.mailbox ? cfg->imap.mailbox : "INBOX");
	guard_init(&l->guard, cfg->database.path, l->server, l->source_name);
	if (mail_source_open(&ms, &l->source, &e) < 0) {
		snprintf(err, sizeof(err), "mailbox %s: %s", l->source_name, e);
		goto fail;
	}
	if (cfg->smtp.server.url) {
		struct smtp_settings ss;

		settings_smtp(cfg, &ss);
		if (smtp_sender_new(&ss, &l->smtp, &e) < 0) {
			snprintf(err, sizeof(err), "smtp %s: %s", cfg->smtp.server.url, e);
			goto fail;
		}
	}
	{
		struct mail_source_state st = { 0, 0 };

		if (server_mailbox_state(l->server, l->source_name,
					 &st.uidvalidity, &st.last_uid, &e) < 0) {
			snprintf(err, sizeof(err), "database: %s", e);
			goto fail;
		}
		mail_source_set_state(l->source, &st);
	}
	return 0;
fail:
	loop_close(l);
	*error_r = err;
	return -1;
}

/* "<id@x>" -> "id@x" into a static-sized buffer owned by the caller. */
static const char *strip_angles(const char *id, char *buf, size_t len)
{
	size_t n;

	if (id == NULL)
		return NULL;
	if (*id == '<')
		id++;
	snprintf(buf, len, "%s", id);
	n = strlen(buf);
	if (n && buf[n - 1] == '>')
		buf[n - 1] = '\0';
	return buf;
}

/* What a mail the game cannot read gets as a reason (templates know the
 * words for each code). */
static const char *sig_refusal(const struct inbound_msg *im)
{
	switch (im->sig.status) {
	case PGP_SIG_BAD:
		return "bad_signature";
	case PGP_SIG_KEY_EXPIRED:
		return "key_expired";
	case PGP_SIG_KEY_REVOKED:
		return "key_revoked";
	case PGP_SIG_SIG_EXPIRED:
		return "signature_expired";
	case PGP_SIG_UNKNOWN_KEY:
		return "unknown_key";
	case PGP_SIG_ERROR:
		return "bad_signature";
	case PGP_SIG_GOOD:
		if (im->freshness == INBOUND_FRESH_TOO_OLD)
			return "signature_too_old";
		if (im->freshness == INBOUND_FRESH_FUTURE)
			return "signature_future";
		return NULL;
	case PGP_SIG_NONE:
	default:
		return "unsigned";
	}
}

static char *join_references(const struct inbound_msg *im)
{
	struct buf b = BUF_INIT;
	size_t i;

	for (i = 0; i < im->references.count; i++) {
		if (b.len)
			buf_putc(&b, ' ');
		buf_puts(&b, im->references.items[i]);
	}
	if (im->in_reply_to) {
		if (b.len)
			buf_putc(&b, ' ');
		buf_puts(&b, im->in_reply_to);
	}
	return b.len ? buf_steal(&b) : (buf_free(&b), NULL);
}

static void loop_save_state(struct loop *l)
{
	struct mail_source_state st;
	const char *e;

	mail_source_get_state(l->source, &st);
	if (server_mailbox_save(l->server, l->source_name, st.uidvalidity,
				st.last_uid, timing_now(), &e) < 0)
		log_error("saving the mailbox state: %s", e);
}


static void pending_free(struct pending *p)
{
	inbound_strs_free(&p->offered);
	inbound_strs_free(&p->revoked);
	free(p->data);
	free(p->refs);
	inbound_msg_free(&p->im);
	memset(p, 0, sizeof(*p));
}

/* Read and verify the mail in p (its bytes in p->data) into p->im.  0,
 * or -1 when the machinery failed (gpg, memory): try again later. */
static int loop_read(struct loop *l, const struct config *cfg,
		     struct pending *p, const char **error_r)
{
	const char *our[2];
	struct inbound_options opts;
	const char *e = NULL;

	settings_inbound(cfg, our, &opts);
	/* Signatures are judged by the real clock, gpg's: the test clock
	 * (timing.h) moves the game's time, not the signers'. */
	opts.now = time(NULL);
	opts.pgp = l->pgp;
	if (inbound_parse(p->data, p->size, &opts, &p->im, &e) < 0)
		goto fail;
	/* Signed by a key we do not know, with a key inside: the register
	 * path.  Import it and read the mail again; only then, so that the
	 * keyring grows only with keys that signed what they carry. */
	if (p->im->sig.status == PGP_SIG_UNKNOWN_KEY && p->im->key_count > 0) {
		inbound_msg_free(&p->im);
		opts.import_keys = true;
		if (inbound_parse(p->data, p->size, &opts, &p->im, &e) < 0)
			goto fail;
	}
	return 0;
fail:
	log_error("uid %u: cannot read the mail now: %s", p->uid, e);
	*error_r = e;
	return -1;
}

/* What the mail layer found, as the service takes it: the mail's
 * identity and text, and the facts a refusal is worded with. */
static void loop_facts(struct loop *l, const struct config *cfg,
		       struct pending *p)
{
	struct server_inbound *si = &p->si;
	const struct inbound_msg *im = p->im;

	p->refs = join_references(im);
	memset(si, 0, sizeof(*si));
	si->from_address = im->from_addr;
	si->message_id = strip_angles(im->message_id, p->mid, sizeof(p->mid));
	si->raw_sha256 = im->raw_sha256;
	si->raw = p->data;
	si->raw_len = p->size;
	si->subject = im->subject;
	si->references = p->refs;
	si->source = l->source_name;
	si->body = im->text ? im->text : "";
	si->body_len = strlen(si->body);
	si->unsigned_text_ignored = im->text_outside_signature;
	si->key_offered = im->key_count > 0 || im->imported_fprs.count > 0;
	si->signer = im->sig.fpr;
	si->signature_time = (int64_t)im->sig.created;
	si->problem = im->problem_detail;
	si->size = im->raw_size;
	si->size_limit = (size_t)cfg->limits.max_message_size;
}

/* Read, verify and classify one mail into p->si.  0: ready for the
 * server; -1: the machinery failed (gpg, store), try it again later. */
static int loop_prepare(struct loop *l, const struct config *cfg,
			struct pending *p, int64_t now, const char **error_r)
{
	struct server_inbound *si = &p->si;
	struct inbound_msg *im;

	loop_test_crash(p->data, p->size);
	if (loop_read(l, cfg, p, error_r) < 0)
		return -1;
	im = p->im;
	loop_facts(l, cfg, p);
	/* A move is charged at its receipt, never at the signature's time
	 * (the sender's to choose), nor later than now. */
	si->received = timing_received(p->received, now);
	switch (im->verdict) {
	case CLASSIFY_NORMAL:
		break;
	case CLASSIFY_OVERSIZED:
		/* Only the header block is worth keeping of it. */
		p->refusal = "too_big";
		si->raw_len = im->header_len;
		si->raw_truncated = true;
		break;
	case CLASSIFY_BOUNCE:
		/* The service marks an address failing only for a report
		 * naming one of our Message-IDs. */
		si->silent_outcome = "bounce";
		si->bounce_ids = (const char *const *)im->bounce_message_ids.items;
		si->bounce_id_count = im->bounce_message_ids.count;
		return 0;
	default:
		/* Loops and automatic mail are archived, never answered. */
		si->silent_outcome = classify_verdict_name(im->verdict);
		return 0;
	}
	if (p->refusal == NULL && im->problem != INBOUND_OK)
		p->refusal = "unreadable";
	if (p->refusal == NULL) {
		/* Unsigned mail is "unsigned" too: whether the club reads it
		 * anyway is the service's decision. */
		p->refusal = sig_refusal(im);
		if (p->refusal == NULL) {
			si->fingerprint = im->sig.fpr;
			si->signed_sha256 = im->signed_sha256;
		}
	}
	if (im->key_count > 0)
		loop_import_revocations(l, p);
	if (p->refusal == NULL && si->fingerprint != NULL && im->key_count > 0)
		loop_import_offered(l, p);
	si->mail_refusal = p->refusal;
	return 0;
}

static void loop_log_outcome(const struct pending *p)
{
	const struct inbound_msg *im = p->im;
	const char *from = im->from_addr ? im->from_addr : "?";

	if (p->out.status == SERVER_DUPLICATE)
		log_info("uid %u: seen before; nothing to do", p->uid);
	else if (p->si.silent_outcome)
		log_info("uid %u: not answered (%s) from %s", p->uid,
			 p->si.silent_outcome, from);
	else if (p->out.status == SERVER_MAIL_REFUSED)
		log_notice("uid %u: mail from %s%s%s: %s", p->uid, from,
			   im->sig.fpr[0] ? " signed by " : "", im->sig.fpr,
			   p->out.outcome);
	else
		log_info("uid %u: %s from %s: %s (%zu queued)", p->uid,
			 p->si.message_id ? p->si.message_id : "(no Message-ID)",
			 from, p->out.outcome, p->out.queued);
}

/* Most mails taken into one store transaction: a burst (after an outage,
 * or a busy club) costs one commit per batch instead of one per mail. */
#define LOOP_BATCH_MAX 32

/* Set aside a mail that crashed the daemon or failed GUARD_MAX_ATTEMPTS
 * times: recorded (raw, unparsed: parsing is what failed) and moved to the
 * quarantine folder, the operator told in the log.  0, or -1 when even
 * that could not be done now (it is tried again next round). */
static int loop_set_aside(struct loop *l, const struct mail_source_message *m,
			  long attempts, const char *why, int64_t now)
{
	struct server_inbound si;
	struct server_outcome out;
	char sha[INBOUND_SHA256_HEX_LEN + 1], outcome[256];
	const char *e;

	inbound_sha256_hex(m->data, m->size, sha);
	snprintf(outcome, sizeof(outcome), "quarantined after %ld attempts: %s",
		 attempts, why ? why : "failed");
	memset(&si, 0, sizeof(si));
	si.raw_sha256 = sha;
	si.raw = m->data;
	si.raw_len = m->size;
	si.source = l->source_name;
	si.received = timing_received(m->received, now);
	si.silent_outcome = outcome;
	if (server_handle(l->server, &si, now, &out, &e) < 0) {
		log_error("uid %u: cannot record it for the quarantine now: %s",
			  m->uid, e);
		return -1;
	}
	if (mail_source_set_aside(l->source, m->uid, &e) < 0)
		log_error("uid %u: not moved to the quarantine folder yet: %s",
			  m->uid, e);
	log_error("uid %u: set aside in the quarantine folder after %ld "
		  "attempts (%s); recorded as inbound %lld", m->uid, attempts,
		  why ? why : "failed", (long long)out.inbound_id);
	guard_forget(&l->guard, m->uidvalidity, m->uid);
	return 0;
}

/* Handle the prepared mails one at a time, each named alone in the
 * in-flight file: after a crash, only the mail in hand is counted. */
static size_t loop_one_by_one(struct loop *l, struct pending *batch, size_t n,
			      int64_t now)
{
	size_t i;
	const char *e;

	for (i = 0; i < n; i++) {
		guard_inflight_set(&l->guard, batch[i].uidvalidity, &batch[i].uid, 1);
		if (server_handle(l->server, &batch[i].si, now, &batch[i].out,
				  &e) < 0) {
			/* The store or templates, not the mail: the service
			 * records a mail's own faults and goes on. */
			log_error("uid %u: not handled now, will retry: %s",
				  batch[i].uid, e);
			break;
		}
	}
	return i;
}

/* Take the mails that are there, up to LOOP_BATCH_MAX, into batch[]:
 * copied, read and verified.  A mail that failed GUARD_MAX_ATTEMPTS times
 * is set aside instead (counted in *aside_r).  Returns how many are in
 * batch[]; *rescan_r when the mailbox changed UIDVALIDITY, *careful_r when
 * one of them failed before (the batch is then taken one by one). */
static size_t loop_fetch(struct loop *l, const struct config *cfg,
			 struct pending *batch, int64_t now, size_t *aside_r,
			 int *rescan_r, bool *careful_r)
{
	size_t n = 0;
	const char *e;

	while (n < LOOP_BATCH_MAX) {
		struct mail_source_message m;
		enum mail_source_result r = mail_source_next(l->source, &m, &e);
		char *why = NULL;
		long attempts = 0;

		if (r == MAIL_SOURCE_RESCAN) {
			log_notice("mailbox %s changed UIDVALIDITY: scanning it again",
				   l->source_name);
			*rescan_r = 1;
			break;
		}
		if (r != MAIL_SOURCE_MESSAGE)
			break;
		if (guard_attempts(&l->guard, m.uidvalidity, m.uid, &attempts,
				   &why) < 0)
			break;
		if (attempts >= GUARD_MAX_ATTEMPTS) {
			int ok = loop_set_aside(l, &m, attempts, why, now);

			free(why);
			if (ok < 0)
				break;
			(*aside_r)++;
			continue;
		}
		free(why);
		batch[n].attempts = attempts;
		*careful_r |= attempts > 0;
		batch[n].uid = m.uid;
		batch[n].uidvalidity = m.uidvalidity;
		batch[n].received = m.received;
		batch[n].size = m.size;
		batch[n].data = malloc(m.size + 1);
		if (batch[n].data == NULL) {
			log_error("uid %u: out of memory", m.uid);
			break;
		}
		memcpy(batch[n].data, m.data, m.size);
		batch[n].data[m.size] = '\0';
		guard_inflight_set(&l->guard, m.uidvalidity, &m.uid, 1);
		if (loop_prepare(l, cfg, &batch[n], now, &e) < 0) {
			/* Counted: a mail that makes gpg fail every time must
			 * not hold up the mail behind it for ever. */
			guard_count_failure(&l->guard, m.uidvalidity, m.uid, e,
					    now);
			guard_inflight_clear(&l->guard);
			pending_free(&batch[n]);
			break;
		}
		n++;
	}
	return n;
}

/* Take the mails that are there (up to LOOP_BATCH_MAX), hand them to the
 * server in one transaction, then archive them.  Returns the number of
 * mails handled or set aside, 0 when there was nothing (or nothing could
 * be done now: the mail stays and is offered again after the next wait),
 * -1 after a RESCAN (call again at once). */
static int loop_take_batch(struct loop *l, const struct config *cfg)
{
	struct pending batch[LOOP_BATCH_MAX];
	struct server_inbound sis[LOOP_BATCH_MAX];
	struct server_outcome outs[LOOP_BATCH_MAX];
	uint32_t uids[LOOP_BATCH_MAX];
	size_t n, i, handled = 0, aside = 0;
	int64_t now = timing_now();
	const char *e;
	int rescan = 0;
	/* A mail that failed before is handled on its own. */
	bool careful = false;

	memset(batch, 0, sizeof(batch));
	n = loop_fetch(l, cfg, batch, now, &aside, &rescan, &careful);
	if (n == 0)
		goto out;
	for (i = 0; i < n; i++) {
		sis[i] = batch[i].si;
		uids[i] = batch[i].uid;
	}
	if (!careful) {
		guard_inflight_set(&l->guard, batch[0].uidvalidity, uids, n);
		if (server_handle_batch(l->server, sis, n, now, outs, &e) == 0) {
			for (i = 0; i < n; i++)
				batch[i].out = outs[i];
			handled = n;
		} else {
			log_warning("a batch of %zu mails failed (%s); taking "
				    "them one by one", n, e);
		}
	}
	if (handled == 0)
		handled = loop_one_by_one(l, batch, n, now);
	guard_inflight_clear(&l->guard);
	log_debug("%zu of %zu mails handled in one transaction", handled, n);
	loop_test_kill("after-commit");
	for (i = 0; i < handled; i++) {
		loop_log_outcome(&batch[i]);
		loop_drop_unbound_keys(l, &batch[i]);
		if (batch[i].attempts > 0)
			guard_forget(&l->guard, batch[i].uidvalidity,
				     batch[i].uid);
		if (mail_source_mark_handled(l->source, batch[i].uid, &e) < 0)
			log_warning("uid %u: handled, but not archived yet: %s",
				    batch[i].uid, e);
	}
out:
	if (handled || rescan || aside)
		loop_save_state(l);
	if (handled)
		loop_test_kill("after-archive");
	for (i = 0; i < n; i++)
		pending_free(&batch[i]);
	if (rescan && handled == 0)
		return -1;
	return (int)(handled + aside);
}


static struct loop *current_loop;

static void loop_on_signal(void)
{
	if (current_loop && current_loop->source)
		mail_source_interrupt(current_loop->source);
}

static int loop_reload(struct daemon *d, const struct config *next,
		       const char **error_r)
{
	struct loop fresh, *l = d->context;

	if (loop_open(&fresh, next, error_r) < 0)
		return -1;
	loop_close(l);
	*l = fresh;
	return 0;
}

int daemon_run_loop(struct daemon *d)
{
	struct loop l;
	const char *e;
	int ret = -1;

	timing_init();
	if (loop_open(&l, &d->cfg, &e) < 0) {
		log_error("%s", e);
		daemon_detach_ready(&d->ready_fd, e);
		return -1;
	}
	d->context = &l;
	d->reload_hook = loop_reload;
	current_loop = &l;
	daemon_set_signal_hook(loop_on_signal);
	log_notice("reading %s; database %s", l.source_name, d->cfg.database.path);
	guard_recover(&l.guard, timing_now());
	daemon_started(d);
	loop_flush_outbox(&l, &d->cfg);
	while (!daemon_check_signals(d)) {
		int r;

		loop_send_digests(&l);
		r = loop_take_batch(&l, &d->cfg);

		if (r != 0) {
			/* Answer what was handled before looking for more. */
			loop_flush_outbox(&l, &d->cfg);
			continue;
		}
		if (!l.imap_down)
			loop_clock_tick(&l);
		loop_flush_outbox(&l, &d->cfg);
		if (d->once)
			break;
		if (mail_source_wait(l.source, loop_wait_ms(&l, &d->cfg), &e) < 0 &&
		    !l.imap_down)
			log_debug("waiting for mail: %s", e);
	}
	ret = 0;
	daemon_set_signal_hook(NULL);
	current_loop = NULL;
	loop_close(&l);
	d->context = NULL;
	return ret;
}
