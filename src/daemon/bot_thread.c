/* bot_thread.c -- the practice opponent on its own thread; see
 * bot_thread.h. */
#include <config.h>

#include "daemon/bot_thread.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "config/club_config.h"
#include "config/log.h"
#include "config/settings.h"
#include "daemon/outbox_thread.h"
#include "daemon/timing.h"
#include "daemon/worker.h"
#include "mail/compose.h"
#include "mail/inbound.h"
#include "mail/pgp.h"
#include "render/template.h"
#include "server/server.h"
#include "store/store.h"
#include "util/buf.h"

/* Longest sleep unasked: the mail loop wakes the thread after every
 * batch it handled; this bounds what a missed wake could cost. */
#define BOT_THREAD_MAX_SLEEP_MS 60000
/* How soon to look again after the store or gpg failed. */
#define BOT_THREAD_RETRY_MS 5000

struct bot_thread {
	const struct config *cfg;	/* borrowed */
	struct outbox_thread *outbox;	/* borrowed, may be NULL */
	struct store *store;
	struct template_set *templates;	/* borrowed: the process's */
	struct server *server;
	struct pgp_ctx *pgp;
	char fpr[PGP_FPR_MAX + 1];	/* the daemon's signing key: the bot's */
	char address[320];		/* the bot's From */
	struct worker *w;
	/* The thread's own: a move the service refused, not tried again
	 * until the game moves on. */
	int64_t skip_game;
	int skip_ply;
};

static bool bot_thread_stopping(struct bot_thread *bt)
{
	return worker_stopping(bt->w);
}

/* The bot's move as a mail: headers (compose.c's) over a PGP/MIME
 * entity signed with the daemon's key, into raw.  0 or -1 with *error_r. */
static int bot_thread_compose(struct bot_thread *bt,
			      const struct server_bot_turn *turn,
			      const char *text, const char *subject,
			      struct buf *raw, const char **error_r)
{
	struct compose_msg m;
	struct buf part = BUF_INIT, to = BUF_INIT, mid = BUF_INIT;
	unsigned char rnd[8];
	char token[17];
	int ret;

	if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd)) {
		*error_r = "no random bytes for a Message-ID";
		return -1;
	}
	for (size_t i = 0; i < sizeof(rnd); i++)
		snprintf(token + 2 * i, 3, "%02x", rnd[i]);
	buf_printf(&to, "<%s>", bt->cfg->smtp.from);
	buf_printf(&mid, "ashes-bot.%" PRId64 ".%d.%s@%s", turn->game_id,
		   turn->ply, token, bt->cfg->smtp.domain);
	memset(&m, 0, sizeof(m));
	m.from_name = bt->cfg->bot.name;
	m.from_address = bt->address;
	m.to = buf_str(&to);
	m.subject = subject;
	m.date = (int64_t)time(NULL);
	m.message_id = buf_str(&mid);
	compose_plain_headers(&m, raw);
	buf_puts(&part, "Content-Type: text/plain; charset=utf-8\r\n"
		 "Content-Transfer-Encoding: 8bit\r\n\r\n");
	buf_puts(&part, text);
	ret = pgp_mime_sign(bt->pgp, bt->fpr, part.data, part.len, raw,
			    error_r);
	buf_free(&part);
	buf_free(&to);
	buf_free(&mid);
	return ret;
}

/* Make the move of turn: think, write, sign, read back (gpg verifying)
 * and hand it to the service.  0 when the service took the mail (the
 * move, or its refusal, recorded), -1 when the machinery failed (try
 * again later). */
static int bot_thread_play(struct bot_thread *bt,
			   const struct server_bot_turn *turn)
{
	const struct config *cfg = bt->cfg;
	struct buf text = BUF_INIT, subject = BUF_INIT, raw = BUF_INIT;
	struct inbound_options opts;
	struct inbound_msg *im = NULL;
	struct server_outcome out;
	struct server_inbound si;
	struct server_mail_facts facts = { 0 };
	char move[CORE_MOVE_TEXT_MAX];
	const char *our[2], *e = NULL;
	struct timespec t0, t1;
	int64_t now;
	int ret = -1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (server_bot_think(turn, (int64_t)cfg->bot.think_ms, move, &e) < 0) {
		log_error("bot: game %" PRId64 " ply %d: no move: %s",
			  turn->game_id, turn->ply, e);
		bt->skip_game = turn->game_id;
		bt->skip_ply = turn->ply;
		ret = 0;
		goto out;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	now = timing_now();
	if (server_bot_mail(bt->server, turn, move, now, &text, &subject,
			    &e) < 0 ||
	    bot_thread_compose(bt, turn, buf_str(&text), buf_str(&subject),
			       &raw, &e) < 0)
		goto fail;
	settings_inbound(cfg, our, &opts);
	/* Signatures are judged by the real clock, as loop.c does. */
	opts.now = time(NULL);
	opts.pgp = bt->pgp;
	if (inbound_parse(raw.data, raw.len, &opts, &im, &e) < 0)
		goto fail;
	server_inbound_from_mail(im, raw.data, raw.len,
				 (size_t)cfg->limits.max_message_size, &facts,
				 &si);
	if (si.fingerprint == NULL || im->text == NULL) {
		/* The daemon's own key does not verify (expired, revoked,
		 * not in its keyring): nothing the service could take. */
		log_error("bot: game %" PRId64 " ply %d: the mail signed with "
			  "%s does not verify (signature status %d)",
			  turn->game_id, turn->ply, bt->fpr,
			  (int)im->sig.status);
		goto fail_quiet;
	}
	si.received = now;
	si.source = "bot";
	/* Made here, never read from the mailbox: the one mail the bot's
	 * key may sign (a copy mailed back is refused, intake.c). */
	si.in_process = true;
	if (server_handle(bt->server, &si, now, &out, &e) < 0)
		goto fail;
	/* The mail it queued for the bot's opponent: out now. */
	outbox_thread_wake(bt->outbox);
	if (out.status == SERVER_OK) {
		log_info("bot: game %" PRId64 " ply %d: %s (level %d, thought "
			 "%ld ms)", turn->game_id, turn->ply, move, turn->level,
			 (long)((t1.tv_sec - t0.tv_sec) * 1000 +
				(t1.tv_nsec - t0.tv_nsec) / 1000000));
	} else {
		log_warning("bot: game %" PRId64 " ply %d: %s: %s",
			    turn->game_id, turn->ply, move, out.outcome);
		bt->skip_game = turn->game_id;
		bt->skip_ply = turn->ply;
	}
	ret = 0;
	goto out;
fail:
	log_error("bot: game %" PRId64 " ply %d: %s", turn->game_id,
		  turn->ply, e != NULL ? e : "failure");
fail_quiet:
	ret = -1;
out:
	server_mail_facts_free(&facts);
	inbound_msg_free(&im);
	buf_free(&text);
	buf_free(&subject);
	buf_free(&raw);
	return ret;
}

/* The hints asked, one after the other: 0, or -1 when the store
 * failed (try again later). */
static int bot_thread_hints(struct bot_thread *bt)
{
	struct server_bot_hint hint;
	const char *e;
	int r;

	while (!bot_thread_stopping(bt)) {
		r = server_bot_hint_next(bt->server, timing_now(), &hint, &e);
		if (r == 0)
			return 0;
		if (r < 0 || server_bot_hint_answer(bt->server, &hint,
						     (int64_t)bt->cfg->bot.think_ms,
						     timing_now(), &e) < 0) {
			log_error("bot: hint: %s", e);
			return -1;
		}
		log_info("bot: game %" PRId64 " ply %d: hint answered",
			 hint.game_id, hint.ply);
		outbox_thread_wake(bt->outbox);
	}
	return 0;
}

/* One analysis asked (`analyse GAME`), when no move is due: 0 none
 * waited or one was answered, -1 when the store failed (try again
 * later).  One a pass, so that a move falling due waits at most one
 * analysis (bench/bench_analysis: up to a minute on a big board). */
static int bot_thread_analysis(struct bot_thread *bt)
{
	struct server_analysis req;
	const char *e;
	int r;

	r = server_analysis_next(bt->server, timing_now(), &req, &e);
	if (r == 0)
		return 0;
	if (r < 0 || server_analysis_answer(bt->server, &req, timing_now(),
					     &e) < 0) {
		log_error("bot: analysis: %s", e);
		return -1;
	}
	log_info("bot: game %" PRId64 ": analysis answered", req.game_id);
	outbox_thread_wake(bt->outbox);
	return 1;
}

/* The hints asked, then every move due now, one after the other, then
 * the analyses asked while no move is due; how long to sleep unasked
 * after: until the next move falls due. */
static uint64_t bot_thread_pass(struct bot_thread *bt)
{
	struct server_bot_turn turn;
	const char *e;

	while (!bot_thread_stopping(bt)) {
		int64_t now;
		int r;

		if (bot_thread_hints(bt) < 0)
			return BOT_THREAD_RETRY_MS;
		now = timing_now();
		r = server_bot_next(bt->server, now, bt->skip_game,
				    bt->skip_ply, &turn, &e);

		if (r < 0) {
			log_error("bot: %s", e);
			return BOT_THREAD_RETRY_MS;
		}
		if (r == 0 || turn.due > now) {
			/* Nothing to play now: an analysis, if one waits,
			 * and look again. */
			int a = bot_thread_analysis(bt);

			if (a < 0)
				return BOT_THREAD_RETRY_MS;
			if (a == 1)
				continue;
		}
		if (r == 0)
			return BOT_THREAD_MAX_SLEEP_MS;
		if (turn.due > now)
			return (uint64_t)(turn.due - now) * 1000 <
			       BOT_THREAD_MAX_SLEEP_MS ?
			       (uint64_t)(turn.due - now) * 1000 :
			       BOT_THREAD_MAX_SLEEP_MS;
		if (bot_thread_play(bt, &turn) < 0)
			return BOT_THREAD_RETRY_MS;
	}
	return 0;
}

/* The worker's pass (worker.h). */
static uint64_t bot_thread_work(void *ctx)
{
	return bot_thread_pass(ctx);
}

static const struct worker_ops bot_thread_ops = { bot_thread_work, NULL };

static void bot_thread_free(struct bot_thread *bt)
{
	server_free(&bt->server);
	pgp_ctx_free(&bt->pgp);
	store_close(&bt->store);
	free(bt);
}

/* The thread's own store, service and gpg context, and the bot player
 * made.  0, or -1 with err filled. */
static int bot_thread_open(struct bot_thread *bt, char *err, size_t errlen)
{
	const struct config *cfg = bt->cfg;
	struct server_config sc;
	struct store_options so;
	const char *e = NULL;

	if (cfg->gpg.home == NULL) {
		snprintf(err, errlen, "bot: [gpg] home is needed to sign its "
			 "moves");
		return -1;
	}
	memset(&so, 0, sizeof(so));
	so.busy_timeout_ms = (int)cfg->database.busy_timeout_ms;
	so.no_migrate = true;	/* the mail loop's connection did it */
	if (store_open(cfg->database.path, &so, &bt->store, &e) < 0) {
		snprintf(err, errlen, "bot: database %s: %s",
			 cfg->database.path, e);
		return -1;
	}
	server_config_default(&sc);
	settings_server(cfg, &sc);
	sc.templates = bt->templates;
	if (server_new(bt->store, &sc, &bt->server, &e) < 0) {
		settings_server_done(&sc);
		snprintf(err, errlen, "bot: game server: %s", e);
		return -1;
	}
	settings_server_done(&sc);
	if (pgp_ctx_new(cfg->gpg.home, &bt->pgp, &e) < 0 ||
	    pgp_export_signer(bt->pgp, cfg->gpg.signing_key, bt->fpr,
			      &e) < 0) {
		snprintf(err, errlen, "bot: gpg home %s: %s", cfg->gpg.home, e);
		return -1;
	}
	snprintf(bt->address, sizeof(bt->address), "bot@%s.invalid",
		 cfg->smtp.domain);
	if (server_bot_enlist(bt->server, bt->fpr, timing_now(), &e) < 0) {
		snprintf(err, errlen, "bot: %s", e);
		return -1;
	}
	return 0;
}

int bot_thread_start(const struct config *cfg, struct outbox_thread *outbox,
		     struct template_set *templates, struct bot_thread **bt_r,
		     const char **error_r)
{
	static char err[768];
	struct bot_thread *bt;
	const char *e = NULL;

	*bt_r = NULL;
	if (!cfg->bot.enabled)
		return 0;
	bt = calloc(1, sizeof(*bt));
	if (bt == NULL)
		abort();
	bt->cfg = cfg;
	bt->outbox = outbox;
	bt->templates = templates;
	if (bot_thread_open(bt, err, sizeof(err)) < 0)
		goto fail;
	if (worker_start(&bot_thread_ops, bt, &bt->w, &e) < 0) {
		snprintf(err, sizeof(err), "bot: %s", e);
		goto fail;
	}
	log_notice("bot: %s plays as key %s", cfg->bot.name, bt->fpr);
	*bt_r = bt;
	return 0;
fail:
	bot_thread_free(bt);
	*error_r = err;
	return -1;
}

void bot_thread_wake(struct bot_thread *bt)
{
	if (bt != NULL)
		worker_wake(bt->w);
}

void bot_thread_drain(struct bot_thread *bt)
{
	if (bt != NULL)
		worker_drain(bt->w);
}

void bot_thread_stop(struct bot_thread **btp)
{
	struct bot_thread *bt = *btp;

	if (bt == NULL)
		return;
	*btp = NULL;
	worker_stop(&bt->w);
	bot_thread_free(bt);
}
