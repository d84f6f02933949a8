/* replay.c -- after `ashes db restore`: the mails the archive folder
 * received since the backup handled again, and the replies the Sent
 * folder shows as sent marked so; see loop_private.h (loop_replay).
 *
 * Why this loses nothing: every input of the club is a mail, and every
 * mail handled was moved to the archive folder with its INTERNALDATE (the
 * mailbox's receipt) kept.  The restored database knows every mail
 * handled before the backup (by its sha256: a duplicate then changes
 * nothing and is not answered), so reading from a little before the
 * backup ([imap] replay_margin) catches a mail that was received before
 * it but handled after.  The mails are handled in archive order, which is
 * the order they were handled in, through the normal batch path: the same
 * checks, the same decisions, so the games end where they were.  One mail
 * a transaction, each handled at the time the mailbox received it (not
 * the hour of the replay): a day of a player's mails read in one minute
 * must not trip [limits] sender_rate_limit, and a move in time then is
 * in time now.
 *
 * Why no reply goes twice: a reply's Message-ID is a keyed hash of the
 * mail it answers (reply_id.h), so the mail handled again queues its
 * replies under the Message-IDs they went out with; the outbox copied the
 * headers of each mail it sent to the Sent folder (outbox.h), so before
 * the outbox starts, a pending reply whose token is there is marked sent.
 * A reply whose copy failed (the IMAP server away at that moment) is sent
 * again: mail programs fold two mails of one Message-ID together.
 *
 * Bounded: at most [imap] replay_max mails; LOOP_REPLAY_STALLS rounds
 * without progress (IMAP away, a mail that cannot be handled now) end it;
 * the Sent folder gives at most IMAP_SENT_IDS_MAX ids.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/club_config.h"
#include "config/log.h"
#include "config/settings.h"
#include "daemon/daemon.h"
#include "daemon/loop_private.h"
#include "daemon/reply_id.h"
#include "daemon/timing.h"
#include "mail/imap_sent.h"
#include "mail/source.h"
#include "store/store.h"
#include "store/store_backup.h"
#include "store/store_outbox.h"

/* Rounds without a mail handled before the replay gives up. */
#define LOOP_REPLAY_STALLS 5
/* Wait between two such rounds (the source reconnects meanwhile). */
#define LOOP_REPLAY_WAIT_MS 2000
/* Pending outbox rows read at once. */
#define LOOP_REPLAY_OUTBOX_PAGE 200

/* The mails since `since`, handled through the batch path with the
 * replay source in place of the mailbox's.  0 and *handled_r, or -1. */
static int replay_mails(struct loop *l, const struct config *cfg,
			int64_t since, size_t *handled_r)
{
	struct mail_source_settings ms;
	struct mail_source *src = NULL, *saved = l->source;
	char saved_name[sizeof(l->source_name)];
	size_t left = 0, cut = 0, stalls = 0, rounds = 0;
	size_t max_rounds = (size_t)cfg->imap.replay_max + LOOP_REPLAY_STALLS + 1;
	const char *e;
	int ret = -1;

	*handled_r = 0;
	settings_mail_source(cfg, &ms);
	ms.replay_since = since;
	ms.replay_max = cfg->imap.replay_max;
	ms.event = NULL;
	if (mail_source_open(&ms, &src, &e) < 0) {
		log_error("replay: %s", e);
		return -1;
	}
	memcpy(saved_name, l->source_name, sizeof(saved_name));
	snprintf(l->source_name, sizeof(l->source_name), "replay:imap://%s@%s/%s",
		 cfg->imap.server.user ? cfg->imap.server.user : "",
		 cfg->imap.server.host ? cfg->imap.server.host : "",
		 cfg->imap.archive_folder);
	l->source = src;
	l->replaying = true;
	l->replay_now = 0;
	while (rounds++ < max_rounds) {
		int r;

		/* Ready is told after the replay: systemd waits as long as
		 * it makes progress (2 minutes more at each batch). */
		daemon_notify("EXTEND_TIMEOUT_USEC=120000000");
		r = loop_take_batch(l, cfg);

		if (r > 0) {
			*handled_r += (size_t)r;
			stalls = 0;
			continue;
		}
		if (r < 0)
			continue;
		if (mail_source_replay_status(src, &left, &cut) && left == 0) {
			ret = 0;
			break;
		}
		if (++stalls > LOOP_REPLAY_STALLS) {
			log_error("replay: stopped after %zu rounds without "
				  "progress (%zu mails handled, %zu left)",
				  stalls - 1, *handled_r, left);
			break;
		}
		if (mail_source_wait(src, LOOP_REPLAY_WAIT_MS, &e) < 0)
			log_warning("replay: %s", e);
	}
	if (cut > 0)
		log_warning("replay: %zu more mails than [imap] replay_max "
			    "(%u) were received since; they are not read "
			    "again", cut, cfg->imap.replay_max);
	l->replaying = false;
	l->source = saved;
	memcpy(l->source_name, saved_name, sizeof(saved_name));
	mail_source_close(&src);
	return ret;
}

struct replay_tokens {
	char (*tok)[17];
	size_t n, cap;
};

static void replay_token_add(void *ctx, const char *id, size_t len)
{
	struct replay_tokens *t = ctx;
	char tok[17];

	if (!reply_id_token_of(id, len, tok))
		return;
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 256;
		t->tok = realloc(t->tok, t->cap * sizeof(*t->tok));
		if (t->tok == NULL)
			abort();
	}
	memcpy(t->tok[t->n++], tok, sizeof(tok));
}

static int replay_token_cmp(const void *a, const void *b)
{
	return memcmp(a, b, 16);
}

/* Every pending outbox row whose token is in t marked sent.  0 and
 * *found_r, or -1. */
static int replay_mark_sent(struct loop *l, const struct replay_tokens *t,
			    size_t *found_r)
{
	int64_t after = 0, now = timing_now();
	const char *e;

	*found_r = 0;
	for (;;) {
		struct store_outbox_msg *msgs = NULL;
		size_t n = 0;

		if (store_outbox_list(l->store, STORE_OUTBOX_PENDING, after,
				      LOOP_REPLAY_OUTBOX_PAGE, &msgs, &n,
				      &e) < 0) {
			log_error("replay: the outbox: %s", e);
			return -1;
		}
		for (size_t i = 0; i < n; i++) {
			char tok[17];

			after = msgs[i].id;
			if (msgs[i].message_id == NULL ||
			    !reply_id_token_of(msgs[i].message_id,
					       strlen(msgs[i].message_id), tok) ||
			    bsearch(tok, t->tok, t->n, sizeof(*t->tok),
				    replay_token_cmp) == NULL)
				continue;
			if (store_outbox_mark_sent(l->store, msgs[i].id, now,
						   &e) < 0) {
				log_error("replay: outbox %lld: %s",
					  (long long)msgs[i].id, e);
				store_outbox_msgs_free(&msgs, n);
				return -1;
			}
			log_info("replay: outbox %lld (<%s>) is in the Sent "
				 "folder: sent before, not sent again",
				 (long long)msgs[i].id, msgs[i].message_id);
			(*found_r)++;
		}
		store_outbox_msgs_free(&msgs, n);
		if (n < LOOP_REPLAY_OUTBOX_PAGE)
			return 0;
	}
}

/* The Sent folder's tokens since `since`, then the pending replies among
 * them marked sent.  0 and *found_r, or -1. */
static int replay_sent(struct loop *l, const struct config *cfg,
		       int64_t since, size_t *found_r, size_t *copies_r)
{
	struct mail_source_settings ms;
	struct replay_tokens t = { NULL, 0, 0 };
	struct imap_sent *sent = NULL;
	const char *e;
	int ret = -1;

	*found_r = 0;
	*copies_r = 0;
	settings_mail_source(cfg, &ms);
	if (imap_sent_open(&ms, cfg->imap.sent_folder, &sent, &e) < 0 ||
	    imap_sent_ids(sent, since, replay_token_add, &t, &e) < 0) {
		log_error("replay: Sent folder %s: %s", cfg->imap.sent_folder, e);
		goto out;
	}
	*copies_r = t.n;
	if (t.n > 1)
		qsort(t.tok, t.n, sizeof(*t.tok), replay_token_cmp);
	ret = replay_mark_sent(l, &t, found_r);
out:
	imap_sent_close(&sent);
	free(t.tok);
	return ret;
}

int loop_replay(struct loop *l, const struct config *cfg)
{
	int64_t taken = 0, since;
	size_t handled = 0, found = 0, copies = 0;
	const char *e;
	int r;

	r = store_backup_replay_due(l->store, &taken, &e);
	if (r < 0) {
		log_error("replay: %s", e);
		return -1;
	}
	if (r == 0)
		return 0;
	if (cfg->source.type == CONFIG_SOURCE_MAILDIR) {
		log_warning("replay: the database was restored, but a folder "
			    "source keeps no archive to read again");
	} else {
		since = taken - (int64_t)(cfg->imap.replay_margin_ms / 1000);
		log_notice("replay: the database was restored from a backup "
			   "taken at %lld; reading again what %s received "
			   "since %lld", (long long)taken,
			   cfg->imap.archive_folder, (long long)since);
		if (replay_mails(l, cfg, since, &handled) < 0 ||
		    replay_sent(l, cfg, since, &found, &copies) < 0) {
			log_error("replay: not finished; ashesd stops (start "
				  "it again to finish it)");
			return -1;
		}
	}
	if (store_backup_replay_done(l->store, timing_now(),
				     (int64_t)handled, &e) < 0) {
		log_error("replay: %s", e);
		return -1;
	}
	log_notice("replay: done: %zu mails handled again, %zu replies found "
		   "already sent (%zu copies in %s)", handled, found, copies,
		   cfg->imap.sent_folder);
	return 0;
}
