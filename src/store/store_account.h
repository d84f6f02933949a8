/* store_account.h -- the part of the store's API (store.h, whose
 * conventions hold here) for a player's own account (sql/NNN-accounts.sql): changes
 * waiting for a code (a new address, a deletion), the rows an export
 * reads, and forgetting a deleted player
 * (store_account.c).  Included by store.h. */
#ifndef ASHES_STORE_ACCOUNT_H
#define ASHES_STORE_ACCOUNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct store;

/* What a code waits for. */
enum store_account_purpose {
	STORE_ACCOUNT_ADDRESS = 0,	/* "address": mail moves to address */
	STORE_ACCOUNT_DELETE,		/* "delete": the player goes */
};

/* A change waiting for its code, one of each purpose a player. */
struct store_account_code {
	int64_t player_id;
	enum store_account_purpose purpose;
	char *address;		/* ADDRESS: the new address; else NULL */
	char *code;
	int64_t created;
	int tries;		/* wrong codes given so far */
};
void store_account_code_clear(struct store_account_code *c);
/* Set (or replace, tries back to 0) the player's change of purpose;
 * address is required for ADDRESS, ignored for DELETE. */
int store_account_code_set(struct store *store, int64_t player_id,
			   enum store_account_purpose purpose,
			   const char *address, const char *code, int64_t now,
			   const char **error_r);
/* 1 and *code_r (clear it), 0 if none. */
int store_account_code_get(struct store *store, int64_t player_id,
			   enum store_account_purpose purpose,
			   struct store_account_code *code_r,
			   const char **error_r);
/* Count one wrong code: 0 and the tries so far in *tries_r. */
int store_account_code_miss(struct store *store, int64_t player_id,
			    enum store_account_purpose purpose, int *tries_r,
			    const char **error_r);
int store_account_code_delete(struct store *store, int64_t player_id,
			      enum store_account_purpose purpose,
			      const char **error_r);

/* Make address the player's one address (the others go), atomically: 1
 * if it is another player's (nothing changed). */
int store_player_move_address(struct store *store, int64_t player_id,
			      const char *address, int64_t now,
			      const char **error_r);

/* The sections of an export, each a query of the player's rows (the
 * columns named in docs/export-schema.md); MOVES, by a game's id. */
enum store_account_section {
	STORE_ACCOUNT_PLAYER = 0,
	STORE_ACCOUNT_KEYS,
	STORE_ACCOUNT_ADDRESSES,
	STORE_ACCOUNT_CLAIMS,
	STORE_ACCOUNT_SETTINGS,
	STORE_ACCOUNT_GAMES,
	STORE_ACCOUNT_MOVES,		/* id: a game's */
	STORE_ACCOUNT_RATING,
	STORE_ACCOUNT_RATING_CHANGES,
	STORE_ACCOUNT_LADDER_EVENTS,
	STORE_ACCOUNT_LEAGUE_MEMBERS,
	STORE_ACCOUNT_LEAGUE_SIGNUPS,
	STORE_ACCOUNT_NOTES,
	STORE_ACCOUNT_MESSAGES,
	STORE_ACCOUNT_VACATIONS,
	STORE_ACCOUNT_VACATION_BANK,
	STORE_ACCOUNT_OBSERVING,
	STORE_ACCOUNT_SECTIONS		/* how many */
};
/* One column of a row: SQL NULL, an integer, a real, or text (UTF-8 as
 * stored, len bytes, not NUL-terminated for the caller's purpose). */
struct store_account_cell {
	const char *name;
	enum { STORE_CELL_NULL, STORE_CELL_INT, STORE_CELL_REAL,
	       STORE_CELL_TEXT } type;
	int64_t i;
	double r;
	const char *text;
	size_t len;
};
/* The section's name in an export ("keys", "games", ...). */
const char *store_account_section_name(enum store_account_section s);
/* Call row(ctx, cells, ncells) for each row of section s for id (a
 * player's, or for MOVES a game's), in order; the cells are valid for
 * the call.  A row() returning -1 stops it: -1 (the store's error says
 * nothing then: *error_r "stopped").  0 done. */
int store_account_rows(struct store *store, enum store_account_section s,
		       int64_t id,
		       int (*row)(void *ctx,
				  const struct store_account_cell *cells,
				  size_t ncells),
		       void *ctx, const char **error_r);

/* Forget a player, atomically: addresses, settings, notes, vacations,
 * the vacation bank, observations, digest and summary items, league
 * signups, and address, key and account claims go; the keys stay (they prove the games) but are
 * revoked (no mail signed by them speaks for anyone again); the name
 * becomes new_name and players.deleted is set.  The caller ends the
 * games first.  1 if new_name is taken (nothing changed). */
int store_player_forget(struct store *store, int64_t player_id,
			const char *new_name, int64_t now,
			const char **error_r);
/* 1 if the player was deleted, 0 if not (or no such player). */
int store_player_deleted(struct store *store, int64_t player_id,
			 const char **error_r);
#endif
