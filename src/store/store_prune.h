/* store_prune.h -- the part of the store's API (store.h, whose conventions
 * hold here) that an archive of a game needs: every inbound mail the
 * game's history refers to, and deleting a game that ended, with the
 * mails only it refers to (store_prune.c).  Not included by store.h: the
 * archive module (src/archive) includes it.
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

#endif
