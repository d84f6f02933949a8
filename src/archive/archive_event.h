/* archive_event.h -- an event's archive: the archives of all its games,
 * its log, its standings and one MANIFEST the daemon signs, in one
 * folder that anyone can check without the daemon or its database.
 *
 * What the folder holds (docs/tournaments.md, "The event archive"):
 *   log.txt           the event's log as text (server/tournament_log.h):
 *                     the rules, the players' names, every entry --
 *                     sign-ups, pairings, byes, results, withdrawals,
 *                     adjudications with who decided and why
 *   standings.txt     the standings replayed from the log, with every
 *                     tie-break's value
 *   crosstable.txt    the crosstable replayed from the log
 *   daemon-key.asc    the daemon's public key
 *   games/N/          the archive of game N (archive.h), as `ashes
 *                     archive export N` makes it
 *   MANIFEST          the sha256 of every other file, games' included
 *                     ("games/N/record.txt"), as sha256sum writes it
 *   MANIFEST.asc      the daemon's detached signature over MANIFEST
 *
 * Verify trusts none of it: it checks every game's archive as
 * archive_verify does, then replays the log, holds every result in it
 * against the verified game's record, and makes the standings and the
 * crosstable again to compare with the files.
 */
#ifndef ASHES_ARCHIVE_EVENT_H
#define ASHES_ARCHIVE_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "archive/archive.h"

struct buf;
struct tournament_log;

#define ARCHIVE_EVENT_LOG "log.txt"
#define ARCHIVE_EVENT_STANDINGS "standings.txt"
#define ARCHIVE_EVENT_CROSSTABLE "crosstable.txt"
#define ARCHIVE_EVENT_KEY "daemon-key.asc"
/* The most files an event archive may hold, games' included. */
#define ARCHIVE_EVENT_MAX_FILES 100000

struct archive_event_summary {
	size_t games;     /* game archives exported */
	size_t entries;   /* of the log */
	size_t files;     /* in MANIFEST */
	char signer[65];  /* the daemon key that signed MANIFEST */
};

/* Export the event of log (its entries and names, as the store has
 * them) into dir, a folder made here (it must not exist): every game of
 * its pairings that the store holds, by archive_export (src says which
 * copy), then log.txt, standings.txt, crosstable.txt, daemon-key.asc and
 * MANIFEST with its signature.  One line per game to out (may be NULL).
 * 0 with *sum_r; -1 with *error_r (a buffer of the module): no signing
 * key, a log that does not replay, a game that does not export, a file
 * that cannot be written (dir is removed again). */
int archive_event_export(const struct archive_source *src,
			 const struct tournament_log *log, const char *dir,
			 FILE *out, struct archive_event_summary *sum_r,
			 const char **error_r);

/* Does path look like an event archive (a folder with a log.txt that
 * begins as a log text does)? */
bool archive_event_dir(const char *path);

/* One game of an event archive as verify found it. */
struct archive_event_game {
	int64_t game;
	bool verified;        /* its archive verified (pinned or not) */
	enum archive_reason reason; /* else: why not (ARCHIVE_OK: verify
				     * did not run), and for people: */
	char why[160];
	char result[16];      /* the record's Result: "1-0", "0-1",
			       * "1/2-1/2", "*" */
	char white[65], black[65]; /* the record's White and Black */
};

/* The recomputation of verify, on what it read: the log text, the
 * exported standings and crosstable texts, and the games as their
 * archives verified (any order).  Says on out each game's agreement with
 * the log, each adjudication (no game record to agree with), and every
 * discrepancy, named: a log that does not read or replay, a result in
 * the log that the verified game's record does not give (or its players
 * not the log's), a game of the log whose archive is missing, a game
 * archive that does not verify -- but for a result mismatch of a game
 * the log decided itself (an adjudication, a withdrawal's forfeit: its
 * end is the log's word, no player signed it) --, a game archive of no
 * game in the log, a standings or crosstable line not what the replay
 * gives.  Returns the number of
 * discrepancies (0: all agree). */
size_t archive_event_check(const char *log_text, size_t log_len,
			   const char *standings, size_t standings_len,
			   const char *crosstable, size_t crosstable_len,
			   const struct archive_event_game *games,
			   size_t ngames, FILE *out);

/* Verify the event archive in folder path: MANIFEST (every file, games'
 * included, each sum right) and MANIFEST.asc by the key of
 * daemon-key.asc (by opts->daemon_key when given; each game's MANIFEST
 * must be signed by the same key), every game's archive as
 * archive_verify, then archive_event_check.  Lines to out.  0 all holds
 * and the key was pinned, ARCHIVE_VERIFY_UNPINNED all holds without
 * opts->daemon_key, 1 a discrepancy (*discrepancies_r their number, may
 * be NULL), -1 with *error_r when the check could not run. */
int archive_event_verify(const char *path,
			 const struct archive_verify_opts *opts, FILE *out,
			 size_t *discrepancies_r, const char **error_r);

/* ---- what export and verify share (archive_event.c) ---- */

/* The files of an event folder: every plain file at its top and every
 * file of games/N/ as "games/N/NAME", sorted; the games' numbers,
 * sorted. */
struct archive_event_files {
	char **names;
	size_t count, cap;
	int64_t *games;
	size_t ngames;
};
/* List dir: 0, or -1 with *error_r on anything an event archive does not
 * hold (a link, a folder but games/ and its game folders, a name
 * archive_name_ok refuses) or more than ARCHIVE_EVENT_MAX_FILES. */
int archive_event_list(const char *dir, struct archive_event_files *f,
		       const char **error_r);
void archive_event_files_free(struct archive_event_files *f);
/* Is name one MANIFEST of an event may list: a plain name, or
 * games/N/NAME? */
bool archive_event_name_ok(const char *name);
/* Read dir/name (name as archive_event_name_ok takes it) as
 * archive_read_file does. */
int archive_event_read(const char *dir, const char *name, size_t max,
		       struct buf *out);

#endif
