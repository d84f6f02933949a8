/* archive.h -- a game's archive: everything that proves a game move by
 * move from its players' own signed mails, in one folder (or the same as
 * a .tar.gz) that anyone can check without the daemon or its database.
 *
 * What an archive holds (README.txt, written into each, says it for the
 * people who check one by hand):
 *   record.txt        the game record, version 2 (docs/record-format.md):
 *                     tags, and per ply the signer's key, the receipt
 *                     time, the clock, the sha256 of the signed part
 *   NNNN.eml          the mail of ply NNNN, byte for byte as received
 *                     (a public copy: only what its signature covers)
 *   NNNN.signed       its signed MIME part exactly as signed, and
 *   NNNN.sig          its detached signature (PGP/MIME), or
 *   NNNN.asc          its clearsigned block (an inline signed mail)
 *   mail-NN.*         the same for every other mail that changed the game
 *                     (challenge, accept, notes, draw, undo, resignation,
 *                     claims), in the order received
 *   notes.txt         in a player's own copy of a game over only: the
 *                     notes that player kept for themselves (`note`)
 *   keys.asc          every signer's public key, and the daemon's;
 *   keys.gpg          the same as a keyring file for gpgv
 *   MANIFEST          the sha256 of every other file (sha256sum -c)
 *   MANIFEST.asc      the daemon's detached signature over MANIFEST
 *
 * The archive wires the store, the mail layer's OpenPGP and MIME reading
 * and the rules core: it sits with the daemon and the command, above all
 * of them.  Messages for people go to the FILE * the caller gives.
 */
#ifndef ASHES_ARCHIVE_H
#define ASHES_ARCHIVE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct pgp_ctx;
struct store;
struct template_set;

/* What an export reads: the daemon's database and keyring, and what its
 * configuration says. */
struct archive_source {
	struct store *store;
	struct pgp_ctx *pgp;     /* on the daemon's GNUPGHOME */
	const char *signing_key; /* [gpg] signing_key; NULL: the first
				  * secret key of the keyring */
	const char *site;        /* the club's domain, or NULL */
	/* Whether draws are allowed in a game whose stored variant does not
	 * say (the daemon's [game] default). */
	bool draw_offers;
	/* The daemon's replay window ([gpg] max_signature_age; the mail
	 * layer's 10 minutes ahead): written into the record. */
	int64_t max_age, max_future;
	int64_t now;             /* for the record's Annotator line only */
	/* Where archive/README.txt comes from. */
	struct template_set *templates;
	/* The copy for someone who did not play the game (and for the
	 * club's pages): each mail only as its signature covers it, with
	 * no header but the thread's (Subject's "[ashes #N]", our own
	 * Message-IDs in In-Reply-To and References), and the players'
	 * keys with their user IDs replaced by one naming the player (see
	 * docs/record-format.md).  false: the players' own copy, every mail
	 * byte for byte as received, every key as the keyring has it. */
	bool public_copy;
	/* The player whose own copy this is, once the game is over: their
	 * private notes on it go in as notes.txt (archive_notes.c).  0: no
	 * one's notes -- the public copy, the operator's export. */
	int64_t notes_of;
};

/* What an export made. */
struct archive_summary {
	int64_t game_id;
	size_t plies;    /* in the record, forced passes included */
	size_t mails;    /* NNNN.eml and mail-NN.eml files */
	size_t files;    /* in MANIFEST */
	char signer[65]; /* the daemon key that signed MANIFEST */
};

/* Write the archive of game_id to path: a folder (created; it must not
 * exist, or be empty), or, when path ends in ".tar.gz", the same folder
 * (named game-N) packed by tar into that file (written aside, then
 * renamed into place).  0 with *sum_r filled; -1 with *error_r (static
 * or in a buffer of the module, valid until the next call): no such
 * game, no secret key in the keyring (the message says how to make
 * one), a mail that cannot be read, a file that cannot be written. */
int archive_export(const struct archive_source *src, int64_t game_id,
		   const char *path, struct archive_summary *sum_r,
		   const char **error_r);

/* Why an archive does not verify.  archive_reason_name() gives the words
 * verify prints. */
enum archive_reason {
	ARCHIVE_OK = 0,
	ARCHIVE_TAMPERED_MAIL,    /* a signature that does not verify, a
				   * mail that is not what was signed, a
				   * sha256 the record does not give */
	ARCHIVE_MISSING_PLY,      /* a ply without its mail */
	ARCHIVE_WRONG_PLY,        /* a signed text that does not say this
				   * game, ply and move; signatures out of
				   * order or outside the replay window */
	ARCHIVE_ILLEGAL_MOVE,     /* the rules refuse a ply of the record */
	ARCHIVE_FOREIGN_SIGNER,   /* signed by a key that is not the
				   * mover's, or by none in keys.asc */
	ARCHIVE_RESULT_MISMATCH,  /* the result or termination is not what
				   * the plies and the signed mails give */
	ARCHIVE_UNSIGNED,         /* a ply whose mail is not signed */
	ARCHIVE_BAD_RECORD,       /* record.txt does not read */
	ARCHIVE_TAMPERED_MANIFEST, /* MANIFEST: a sum, a file missing or
				    * not listed, or its signature */
	ARCHIVE_CLOCK_MISMATCH,   /* a clock= the times do not give */
	ARCHIVE_LATE_MOVE,        /* a ply received after its flag fell */
	ARCHIVE_FORGED_CONDITIONAL, /* a ply from conditional moves whose
				     * mail was signed or received after
				     * the move it answers, or whose lines
				     * do not hold it */
};
#define ARCHIVE_REASON_COUNT (ARCHIVE_FORGED_CONDITIONAL + 1)

/* "tampered mail", "missing ply", ...; "ok"; "unknown" out of range. */
const char *archive_reason_name(enum archive_reason reason);

struct archive_verify_opts {
	/* The daemon's fingerprint as the club publishes it (40 or 64 hex
	 * digits, any case, blanks ignored): MANIFEST.asc must be made by
	 * that key.  NULL: by any key of keys.asc, named in the output, and
	 * the archive is not "verified" (ARCHIVE_VERIFY_UNPINNED). */
	const char *daemon_key;
};

/* The first discrepancy verify found; and what the archive holds. */
struct archive_verdict {
	enum archive_reason reason;
	size_t ply;        /* the ply at fault, or 0 */
	char detail[512];  /* what exactly, for people */
	/* Once the record was read: its Game, plies, Result. */
	int64_t game;
	size_t plies;
	char result[16];
	/* Once MANIFEST.asc was checked: the key that signed it. */
	char signer[65];
};

/* What archive_verify() returns when every check passed but no
 * daemon_key was given: the plies are proven by the signatures of the
 * keys the record names, and what only MANIFEST.asc's signer vouches
 * for (that these keys are the players', the names, the tags, that no
 * mail was left out) is not, since nobody said whose key that is. */
#define ARCHIVE_VERIFY_UNPINNED 2

/* Check the archive at path (a folder, or a .tar.gz unpacked by tar into
 * a temporary folder) with no database and a keyring of its own (a fresh
 * GNUPGHOME, deleted afterwards) into which keys.asc is imported: every
 * ply's signature and signed text (game, ply and move; how firmly the
 * signed text binds a bare move to its game is said per ply), the
 * signers, the signature times, the replay of the record through the
 * rules and its result, then MANIFEST and MANIFEST.asc.  One line per ply
 * and a summary go to out.  0 verified, MANIFEST.asc by opts->daemon_key;
 * ARCHIVE_VERIFY_UNPINNED when all holds but no daemon_key was given
 * (out says what is and is not proven); 1 at the first discrepancy, with
 * *v_r (also printed to out); -1 with *error_r when the check could not
 * run (no gpg, an unreadable path, a daemon_key that is not a whole
 * fingerprint, a .tar.gz past the bounds of what verify unpacks: one
 * file 32 MiB, all 256 MiB, 10000 entries).  A .tar.gz is unpacked into
 * a temporary folder under $TMPDIR, removed on every path (a signal
 * too: the check runs in a child, which the signal ends). */
int archive_verify(const char *path, const struct archive_verify_opts *opts,
		   FILE *out, struct archive_verdict *v_r,
		   const char **error_r);

/* Export every game changed since the last run into dir, as
 * dir/game-N.tar.gz, keeping what each game was when exported (its
 * `updated`, plies, mails and clock events, and which copy: public or
 * the players' own) in the state file
 * dir/.ashes-archive-state (written aside and renamed).  A game that is
 * not what the state says (or that has no state, or whose file is gone)
 * is exported again.  Says one line per game
 * exported to out.  0 with *exported_r (may be NULL) the count; -1 with
 * *error_r at the first failure (the games exported before it are in the
 * state). */
int archive_export_all(const struct archive_source *src, const char *dir,
		       FILE *out, size_t *exported_r, const char **error_r);

/* Delete from the database every game that ended before `before` (epoch
 * seconds; by its last update) whose archive dir/game-N.tar.gz (or the
 * folder dir/game-N) exists and verifies; every other such game is kept,
 * and named on out with why (no archive, the archive does not verify and
 * why, a game of a ladder or league, a mail still queued).  With dry_run
 * nothing is deleted.  0 with *deleted_r and *kept_r (may be NULL);
 * -1 with *error_r on a failure of the store. */
int archive_prune(const struct archive_source *src, const char *dir,
		  int64_t before, bool dry_run, FILE *out, size_t *deleted_r,
		  size_t *kept_r, const char **error_r);

#endif
