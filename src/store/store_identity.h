/* store_identity.h -- the part of the store's API (store.h, whose
 * conventions hold here) that says who a player is: address claims and
 * their codes, the keys' lifecycle (bound, revoked, replaced), key
 * claims waiting for a mail signed by the new key, and names' skeletons
 * for look-alikes (store_identity.c, sql/011).  Included by store.h, after
 * the player rows it uses. */
#ifndef ASHES_STORE_IDENTITY_H
#define ASHES_STORE_IDENTITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct store;
struct store_player;

/* A pending claim: `register` named an address, and the code mailed there
 * must come back signed by the player's key before the address is bound. */
struct store_claim {
	int64_t player_id;
	char *address;
	char *code;
	int64_t created;
};
/* Free the strings of a claim filled by store_claim_get (NULL-safe). */
void store_claim_clear(struct store_claim *claim);
/* Set (or replace) the one pending claim of a player. */
int store_claim_set(struct store *store, int64_t player_id,
		    const char *address, const char *code, int64_t now,
		    const char **error_r);
/* 1 and *claim_r (clear with store_claim_clear), 0 if none. */
int store_claim_get(struct store *store, int64_t player_id,
		    struct store_claim *claim_r, const char **error_r);
/* The player whose claim of address holds code: 1 and *player_id_r. */
int store_claim_find(struct store *store, const char *address,
		     const char *code, int64_t *player_id_r,
		     const char **error_r);
int store_claim_delete(struct store *store, int64_t player_id,
		       const char **error_r);

/* A revocation for a bound key came in: the key identifies nobody from
 * now on (lookups by fingerprint skip it, player loads leave it out).  1
 * and *player_id_r (may be NULL) if it was bound and not yet revoked, 0
 * otherwise. */
int store_key_revoke(struct store *store, const char *fingerprint,
		     int64_t now, int64_t *player_id_r, const char **error_r);
/* Bind new_fpr to the player and revoke old_fpr, atomically: 1 if the new
 * key is bound already (to anyone; nothing changed). */
int store_key_replace(struct store *store, int64_t player_id,
		      const char *old_fpr, const char *new_fpr, int64_t now,
		      const char **error_r);

/* A pending key claim: `key replace` signed by the player's key
 * old_fingerprint offered fingerprint, which binds only when a mail
 * signed by it brings back code (sql/011-key-proofs.sql). */
struct store_key_claim {
	int64_t player_id;
	char *fingerprint;
	char *old_fingerprint;
	char *code;
	int64_t created;
};
void store_key_claim_clear(struct store_key_claim *claim);
/* Set (or replace) the one pending key claim of a player. */
int store_key_claim_set(struct store *store, int64_t player_id,
			const char *fingerprint, const char *old_fingerprint,
			const char *code, int64_t now, const char **error_r);
/* The claim of fingerprint whose code is code: 1 and *claim_r (clear it),
 * 0 if none. */
int store_key_claim_find(struct store *store, const char *fingerprint,
			 const char *code, struct store_key_claim *claim_r,
			 const char **error_r);
/* 1 if the key is or was bound to a player (revoked ones too: a key is
 * bound once, ever), 0 if never. */
int store_key_known(struct store *store, const char *fingerprint,
		    const char **error_r);
/* 1 if some player's pending claim names fingerprint, 0 if none. */
int store_key_claimed(struct store *store, const char *fingerprint,
		      const char **error_r);
/* Drop the claim of a player; or, by fingerprint (player_id 0), every
 * claim of that key, or (old != NULL) every claim made by the key old. */
int store_key_claim_delete(struct store *store, int64_t player_id,
			   const char *fingerprint, const char *old,
			   const char **error_r);

/* A name's skeleton (sql/011-key-proofs.sql): case folded, 0/o, 1/l/I
 * and 5/s made one, trailing - and _ dropped, into out (at least
 * strlen(name) + 1 bytes). */
void store_name_skeleton(const char *name, char *out, size_t outlen);
/* A player whose name has the skeleton of name (itself, in any case,
 * included): 1 and *player_r (caller frees), 0 if none. */
int store_player_by_skeleton(struct store *store, const char *name,
			     struct store_player **player_r,
			     const char **error_r);

#endif
