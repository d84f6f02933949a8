/* archive_player.h -- the export of a player (`export me` by mail,
 * `ashes player export NAME`): everything the club holds about them as
 * one JSON document, its layout docs/export-schema.md ("schema": 1).
 *
 * It reads the store through its export sections (store_account.h) and
 * the keyring for each key's armour: it sits with the archive, above the
 * store and the mail layer's OpenPGP. */
#ifndef ASHES_ARCHIVE_PLAYER_H
#define ASHES_ARCHIVE_PLAYER_H

#include <stdint.h>

#include "util/buf.h"

struct pgp_ctx;
struct store;

/* The version of the layout; docs/export-schema.md says what changes
 * it. */
#define ARCHIVE_PLAYER_SCHEMA 1

/* Player player_id's export at time now into json (appended), for the
 * club named site (NULL: none), with each key's armour from pgp (NULL:
 * "armored" is null, as for a key the keyring lost).  0, or -1 with
 * *error_r (no such player, the store failed). */
int archive_player_export(struct store *store, struct pgp_ctx *pgp,
			  int64_t player_id, const char *site, int64_t now,
			  struct buf *json, const char **error_r);

#endif
