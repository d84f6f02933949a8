/* store_prune.h -- the part of the store's API (store.h, whose conventions
 * hold here) that an archive of a game needs: every inbound mail the
 * game's history refers to, and deleting a game that ended, with the
 * mails only it refers to (store_prune.c); and what [retention] keeps of
 * old mails (store_retention.c).  Not included by store.h: the archive
 * module (src/archive) and the retention pass (server/retention.c)
 * include it.
 */
#ifndef ASHES_STORE_PRUNE_H
#define ASHES_STORE_PRUNE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct store;

/* Where a game's history refers to an inbound mail. */
enum store_mail_ref {
	STORE_REF_MOVE = 0, /* moves.inbound_id: the mail of a ply */
	STORE_REF_NOTE,     /* game_messages: a note between the players */
	STORE_REF_CLOCK,    /* clock_events: a claim, a vacation day ... */
	STORE_REF_LADDER,   /* ladder_events of the game */
	STORE_REF_OUTBOX,   /* a mail we sent about the game, answering it */
};

/* One reference.  A mail referred to several times has several rows. */
struct store_game_mail {
	int64_t inbound_id;
	enum store_mail_ref ref;
	/* MOVE: the ply; NOTE: plies when sent; OUTBOX: plies when queued;
	 * else 0. */
	int ply;
	/* CLOCK: the event's kind ("claim"); LADDER: its kind ("accepted");
	 * OUTBOX: the mail's kind ("your-move", "result", "undone");
	 * MOVE, NOTE: NULL. */
	char *kind;
	int64_t at; /* when the row was written */
};
/* Free what one row owns: the clear function for store_rows_free. */
void store_game_mail_clear(void *row);

/* Every reference of game_id's history to an inbound mail (moves, notes,
 * clock events, ladder events, the outbox rows of the game), by inbound
 * id and then in the order above.  0 with *rows_r (free with
 * store_rows_free and store_game_mail_clear; NULL when none) and
 * *count_r; -1 on failure. */
int store_game_mails(struct store *store, int64_t game_id,
		     struct store_game_mail **rows_r, size_t *count_r,
		     const char **error_r);

/* Delete a game that ended (finished, cancelled, declined, withdrawn) and
 * everything that is only its: its moves, notes, clock history,
 * observers, digest items, the mails we sent about it, and the inbound
 * mails (raw bytes and their duplicate readings) nothing else refers to
 * any more.  Mails another game's history, a vacation, a ladder event or
 * another mail we sent refers to are kept.  The signature history keeps
 * every signature (a signed text is accepted once, ever); a deleted
 * mail's signature just no longer names it.  Atomic.
 *
 * 0 deleted, with *mails_r (may be NULL) the number of inbound mails
 * deleted; 1 refused, nothing changed, with *why_r (static text; may be
 * NULL) saying why: no such game, not ended, a game of a ladder or
 * league (their standings and ratings are built from it), or a mail
 * about it still waiting in the outbox; -1 on failure. */
int store_game_delete(struct store *store, int64_t game_id, int64_t *mails_r,
		      const char **why_r, const char **error_r);

/* ---- retention (store_retention.c) ---------------------------------- */

/* What is kept of a mail's raw bytes (inbound.reduced, sql/017). */
enum store_raw_kept {
	STORE_RAW_AS_RECEIVED = 0,
	STORE_RAW_REDUCED,	/* its signed parts only (pgp_reduce_mail) */
	STORE_RAW_DROPPED,	/* none: the row and its outcome stay */
};

/* Replace the raw bytes of inbound_id (a first reading, kept whole) by
 * raw/len, its reduced form, and mark it reduced at now.  sha256 stays
 * the digest of the mail as received.  0 done; 1 nothing changed (no
 * such mail, a duplicate, a truncated one, or its bytes were dropped);
 * -1 on failure. */
int store_inbound_reduce(struct store *store, int64_t inbound_id,
			 const void *raw, size_t len, int64_t now,
			 const char **error_r);
/* Drop the raw bytes of inbound_id, marked dropped at now: 0 done, 1
 * nothing changed (no such mail, dropped already), -1. */
int store_inbound_drop_raw(struct store *store, int64_t inbound_id,
			   int64_t now, const char **error_r);
/* What is kept of inbound_id: 1 with *kept_r, 0 no such mail, -1. */
int store_inbound_kept(struct store *store, int64_t inbound_id,
		       enum store_raw_kept *kept_r, const char **error_r);
/* Does a game's history (what store_game_mails() lists, and its notes
 * and conditional moves) refer to inbound_id?  1 yes, 0 no, -1. */
int store_inbound_in_game(struct store *store, int64_t inbound_id,
			  const char **error_r);
/* The first readings still kept as received (ids above after_id, at
 * most limit, 0 for all, ascending) that player_id sent: bound to them,
 * or signed by a key or sent from an address of theirs -- so call it
 * before those are deleted.  0 with *ids_r (free(); NULL when none) and
 * *count_r; -1. */
int store_inbound_of_player(struct store *store, int64_t player_id,
			    int64_t after_id, size_t limit, int64_t **ids_r,
			    size_t *count_r, const char **error_r);
/* Games (ids above after_id, at most limit, ascending) that ended (as
 * store_game_delete() counts it) and were last changed before `before`,
 * whose moves or answered mails still have a mail kept as received.
 * 0 with *ids_r (free()) and *count_r; -1. */
int store_retention_ended_games(struct store *store, int64_t before,
				int64_t after_id, size_t limit,
				int64_t **ids_r, size_t *count_r,
				const char **error_r);
/* Drop the bytes of at most limit mails received before `before` that
 * ran no command -- outcome refused or ignored, or duplicates -- oldest
 * first, marked dropped at now.  0 with the rows changed in *rows_r and
 * the bytes dropped in *bytes_r; -1. */
int store_retention_refused(struct store *store, int64_t before,
			    size_t limit, int64_t now, int64_t *rows_r,
			    int64_t *bytes_r, const char **error_r);
/* Drop the html, the board picture and the other pictures
 * (outbox_parts) of at most limit mails sent before `before`, oldest
 * first; their text, envelope and Message-ID stay.  0 with *rows_r and
 * *bytes_r as above; -1. */
int store_retention_outbox(struct store *store, int64_t before,
			   size_t limit, int64_t *rows_r, int64_t *bytes_r,
			   const char **error_r);
/* The bytes of the database's pages in use (its file less the pages
 * free): 0 with *bytes_r, -1. */
int store_bytes_used(struct store *store, int64_t *bytes_r,
		     const char **error_r);
/* Give the free pages back to the file system (SQLite's VACUUM: it
 * rewrites the file, so it needs room for a copy and waits for readers).
 * Not inside a transaction.  0 or -1. */
int store_vacuum(struct store *store, const char **error_r);

#endif
