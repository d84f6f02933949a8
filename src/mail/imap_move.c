/* imap_move.c -- the "imap" mailbox source moving messages out of the
 * mailbox: handled ones to the archive folder (batched), set-aside ones to
 * the quarantine folder (at once).
 *
 * Archive: UID STORE +FLAGS (\Seen), then a move, for a batch of handled
 * UIDs at once (Dovecot spends ~5 ms on each command): sent before the next
 * scan, before waiting, on close and every IMAP_ARCHIVE_BATCH messages.  A
 * failed batch is dropped: its UIDs are at or below last_uid, so the next
 * scan finds them still there and archives them ("leftovers").  A batch
 * only ever holds UIDs of the connection it is sent on: a disconnect
 * empties it and a mark made while disconnected is left to that scan, so
 * a reconnect to a recreated mailbox (new UIDVALIDITY, UIDs from 1 again)
 * never archives a message that was not handed out.
 *
 * Set aside (quarantine): a move of one message, sent at once, without
 * \Seen so an operator sees it as new.  The folder is created (once per
 * connection) before the first set-aside.  A set-aside UID is taken out of
 * the archive batch and never enters it again: while one is not done (the
 * connection dropped, or the server refused) it waits in is->aside, which a
 * reconnect keeps, the scan skips it as a leftover and next() retries it
 * before each scan; after IMAP_SET_ASIDE_TRIES refusals it is no longer
 * retried and stays in the mailbox, neither archived nor handed out.
 *
 * What a crash does: is->aside lives in memory only.  A message whose
 * set-aside move did not happen before the process died is in the mailbox
 * with a UID at or below the saved last UID: the next process archives it
 * as a leftover (\Seen, archive folder), it is never handed out again.  The
 * caller has recorded what it decided about it; only the quarantine folder
 * misses it.  Once the move happened, the message is only in quarantine.
 * Without MOVE a crash between COPY and EXPUNGE leaves it in both: in
 * quarantine and, after the next scan, in the archive.
 *
 * The move: UID MOVE where the server has MOVE, else UID COPY, \Deleted and
 * (UID) EXPUNGE; the flags travel with the message.
 */
#include "config.h"

#include "mail/imap_private.h"

#include <stdlib.h>
#include <string.h>

/* UID STORE +FLAGS.SILENT (FLAG) on SET.  Returns 0, or -1 with *error_r. */
static int imap_store_flag(struct imap_source *is, struct mailimap_set *set,
			   struct mailimap_flag *flag, const char *what,
			   const char **error_r)
{
	struct mailimap_flag_list *fl = mailimap_flag_list_new_empty();
	struct mailimap_store_att_flags *flags;
	int r;

	mailimap_flag_list_add(fl, flag);
	flags = mailimap_store_att_flags_new_add_flags_silent(fl);
	r = mailimap_uid_store(is->imap, set, flags);
	mailimap_store_att_flags_free(flags);
	if (r != MAILIMAP_NO_ERROR) {
		imap_failed(is, what, r, error_r);
		return -1;
	}
	return 0;
}

/* Move the messages of SET from the selected mailbox into FOLDER: UID MOVE,
 * or UID COPY + \Deleted + EXPUNGE.  Returns 0, or -1 with *error_r. */
static int imap_move_uids(struct imap_source *is, struct mailimap_set *set,
			  const char *folder, const char **error_r)
{
	int r;

	if (is->has_move) {
		r = mailimap_uid_move(is->imap, set, folder);
		if (r != MAILIMAP_NO_ERROR) {
			imap_failed(is, "UID MOVE", r, error_r);
			return -1;
		}
		return 0;
	}
	r = mailimap_uid_copy(is->imap, set, folder);
	if (r != MAILIMAP_NO_ERROR) {
		imap_failed(is, "UID COPY", r, error_r);
		return -1;
	}
	if (imap_store_flag(is, set, mailimap_flag_new_deleted(),
			    "UID STORE \\Deleted", error_r) < 0)
		return -1;
	/* Without UIDPLUS, EXPUNGE also removes other \Deleted mail: in our
	 * own mailbox only our own moved copies carry \Deleted. */
	r = is->has_uidplus ? mailimap_uid_expunge(is->imap, set) :
			      mailimap_expunge(is->imap);
	if (r != MAILIMAP_NO_ERROR) {
		imap_failed(is, "EXPUNGE", r, error_r);
		return -1;
	}
	return 0;
}

void imap_archive_add(struct imap_source *is, uint32_t uid)
{
	if (is->n_archive == is->cap_archive) {
		is->cap_archive = is->cap_archive ? is->cap_archive * 2 : 64;
		is->archive_uids = realloc(is->archive_uids, is->cap_archive *
					   sizeof(*is->archive_uids));
		if (is->archive_uids == NULL)
			abort();
	}
	is->archive_uids[is->n_archive++] = uid;
}

/* Take UID out of the archive batch, if it is there. */
static void imap_archive_remove(struct imap_source *is, uint32_t uid)
{
	size_t i, n = 0;

	for (i = 0; i < is->n_archive; i++) {
		if (is->archive_uids[i] != uid)
			is->archive_uids[n++] = is->archive_uids[i];
	}
	is->n_archive = n;
}

int imap_archive_flush(struct imap_source *is, const char **error_r)
{
	struct mailimap_set *set;
	size_t i;
	int ret = -1;

	if (is->n_archive == 0)
		return 0;
	if (is->imap == NULL) {
		is->n_archive = 0;
		*error_r = mail_source_error(&is->src, "IMAP %s:%u: not "
					     "connected", is->host, is->port);
		return -1;
	}
	set = mailimap_set_new_empty();
	for (i = 0; i < is->n_archive; i++)
		mailimap_set_add_single(set, is->archive_uids[i]);
	is->n_archive = 0;
	if (imap_store_flag(is, set, mailimap_flag_new_seen(),
			    "UID STORE \\Seen", error_r) < 0)
		goto out;
	ret = imap_move_uids(is, set, is->archive, error_r);
out:
	mailimap_set_free(set);
	return ret;
}

int imap_mark_handled(struct mail_source *src, uint32_t uid,
		      const char **error_r)
{
	struct imap_source *is = (struct imap_source *)src;

	/* The caller committed: whatever happens below, this UID is done
	 * (a failed move is redone by a later scan). */
	if (uid > src->state.last_uid)
		src->state.last_uid = uid;
	/* A replay reads the archive: what it hands out stays there. */
	if (is->replay_since > 0)
		return 0;
	/* Set aside already: it goes to quarantine, not to the archive. */
	if (imap_set_aside_queued(is, uid))
		return 0;
	/* Disconnected: the scan after the reconnect archives it as a
	 * leftover.  Not queued: if the mailbox came back with a new
	 * UIDVALIDITY, this UID names another message, never handed out. */
	if (is->imap == NULL)
		return 0;
	/* Batched: sent before the next scan, wait or close, or now if
	 * the batch is large. */
	imap_archive_add(is, uid);
	if (is->n_archive >= IMAP_ARCHIVE_BATCH)
		return imap_archive_flush(is, error_r);
	return 0;
}

static struct imap_aside *imap_aside_find(const struct imap_source *is,
					  uint32_t uid)
{
	size_t i;

	for (i = 0; i < is->n_aside; i++) {
		if (is->aside[i].uid == uid)
			return &is->aside[i];
	}
	return NULL;
}

bool imap_set_aside_queued(const struct imap_source *is, uint32_t uid)
{
	return imap_aside_find(is, uid) != NULL;
}

int imap_set_aside_flush(struct imap_source *is, const char **error_r)
{
	struct mailimap_set *set = NULL;
	size_t i, n;
	int r, ret = -1;

	for (i = 0; i < is->n_aside; i++) {
		if (is->aside[i].refusals >= IMAP_SET_ASIDE_TRIES)
			continue;
		if (set == NULL)
			set = mailimap_set_new_empty();
		mailimap_set_add_single(set, is->aside[i].uid);
	}
	if (set == NULL)
		return 0;
	if (is->imap == NULL) {
		*error_r = mail_source_error(&is->src, "IMAP %s:%u: not "
					     "connected; the message is set "
					     "aside after reconnecting",
					     is->host, is->port);
		goto out;
	}
	if (!is->quarantine_created) {
		/* "Already exists" is the usual answer. */
		r = mailimap_create(is->imap, is->quarantine);
		if (r != MAILIMAP_NO_ERROR) {
			imap_failed(is, "CREATE", r, error_r);
			if (is->imap == NULL)
				goto out;
		}
		is->quarantine_created = true;
	}
	if (imap_move_uids(is, set, is->quarantine, error_r) < 0) {
		if (is->imap == NULL)
			goto out;	/* connection trouble: not a refusal */
		for (i = 0; i < is->n_aside; i++) {
			if (is->aside[i].refusals < IMAP_SET_ASIDE_TRIES)
				is->aside[i].refusals++;
		}
		goto out;
	}
	/* Done: keep only those given up on (the scan must still skip them). */
	for (i = n = 0; i < is->n_aside; i++) {
		if (is->aside[i].refusals >= IMAP_SET_ASIDE_TRIES)
			is->aside[n++] = is->aside[i];
	}
	is->n_aside = n;
	ret = 0;
out:
	mailimap_set_free(set);
	return ret;
}

int imap_set_aside(struct mail_source *src, uint32_t uid,
		   const char **error_r)
{
	struct imap_source *is = (struct imap_source *)src;
	struct imap_aside *a;

	/* The caller decided: this UID is done, whatever happens below. */
	if (uid > src->state.last_uid)
		src->state.last_uid = uid;
	if (is->replay_since > 0)
		return 0;
	imap_archive_remove(is, uid);
	a = imap_aside_find(is, uid);
	if (a == NULL) {
		if (is->n_aside == is->cap_aside) {
			is->cap_aside = is->cap_aside ? is->cap_aside * 2 : 8;
			is->aside = realloc(is->aside, is->cap_aside *
					    sizeof(*is->aside));
			if (is->aside == NULL)
				abort();
		}
		a = &is->aside[is->n_aside++];
		a->uid = uid;
	}
	a->refusals = 0;
	return imap_set_aside_flush(is, error_r);
}
