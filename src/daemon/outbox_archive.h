/* outbox_archive.h -- the file of an "archive" mail (`archive GAME`,
 * src/server/archive_cmd.c): the game's archive (src/archive) made as a
 * .tar.gz when the outbox sends the mail, outside the service's
 * transaction, because it reads every mail of the game and signs with
 * the daemon's key, which the service knows nothing of.  Likewise the
 * file of an "export" mail (`export me`, src/server/account.c): the
 * player's data as JSON, with their keys' armour from the keyring. */
#ifndef ASHES_DAEMON_OUTBOX_ARCHIVE_H
#define ASHES_DAEMON_OUTBOX_ARCHIVE_H

#include <stddef.h>
#include <stdint.h>

#include "config/club_config.h"
#include "util/buf.h"

struct pgp_ctx;
struct store;
struct template_set;

/* The attachment's type. */
#define OUTBOX_ARCHIVE_TYPE "application/gzip"

/* What an archive mail carries: the .tar.gz, its file name
 * "game-N.tar.gz", and the words the mail adds to its text.  Free with
 * outbox_archive_file_free. */
struct outbox_archive_file {
	struct buf tgz;     /* the file's bytes (an export's JSON too) */
	char name[64];
	struct buf note;
	const char *type;   /* NULL: OUTBOX_ARCHIVE_TYPE */
};
/* An export's type. */
#define OUTBOX_EXPORT_TYPE "application/json"
void outbox_archive_file_free(struct outbox_archive_file *file);

enum outbox_archive_result {
	/* tgz holds it, note the command that checks it against the club's
	 * key (mail/archive-verify.txt) */
	OUTBOX_ARCHIVE_MADE = 0,
	/* It cannot be made, and trying again will not help (no keyring,
	 * no key to sign with, no such game): tgz stays empty, note holds
	 * the words for the reader (templates/mail/archive-unavailable.txt),
	 * and the mail goes without it. */
	OUTBOX_ARCHIVE_NONE,
	/* Not now (a busy store, a full disk, gpg away): try later. */
	OUTBOX_ARCHIVE_LATER,
};

/* The archive of game_id for the mail to recipient, made with the
 * daemon's store, keyring (pgp, NULL when [gpg] home is unset),
 * templates (the process's set, borrowed) and settings, into *file
 * (zeroed by the caller): the players' own copy when recipient is the
 * address of one of the game's players, else the public copy (no
 * addresses, no transport headers; src/archive/archive.h).  *error_r
 * (valid until the next call) says why for NONE and LATER, for the
 * log. */
enum outbox_archive_result outbox_archive_make(
	const struct config *cfg, struct store *store, struct pgp_ctx *pgp,
	struct template_set *templates, int64_t game_id, const char *recipient,
	int64_t now, struct outbox_archive_file *file, const char **error_r);

/* The export for the mail to recipient: the JSON of the player whose
 * address recipient is now (src/archive/archive_player.h), named
 * "ashes-export-NAME.json".  MADE; NONE when recipient is no player's
 * address any more (the mail says so: an export goes only where the
 * player's mail goes); LATER when the store failed. */
enum outbox_archive_result outbox_export_make(
	const struct config *cfg, struct store *store, struct pgp_ctx *pgp,
	struct template_set *templates, const char *recipient, int64_t now,
	struct outbox_archive_file *file, const char **error_r);

#endif
