/* store.h -- the SQLite store of ashesd: opening and migrating the database
 * (sql/NNN-*.sql), and every query the rest of the program needs, as named
 * functions.  Nothing outside src/store writes SQL.
 *
 * Conventions
 * - Every function takes the `struct store *` from store_open().  One store
 *   is used by one thread at a time.
 * - Return values: 0 success, -1 failure (*error_r set).  Lookups return
 *   1 found, 0 not found, -1 failure.  Inserts guarded by a uniqueness rule
 *   return 1 when the rule refused the row ("already there": name taken,
 *   key already bound, message already seen, signature already used);
 *   nothing was changed then, and an open transaction stays usable.
 * - Error strings handed back through `const char **error_r` belong to the
 *   store and stay valid until the next call on the same store (for
 *   store_open: until the next store_open in the same thread).  error_r may
 *   be NULL.  store_error_kind() tells a busy database from other failures.
 * - Times are int64 unix seconds given by the caller; the store reads no
 *   clock, so tests are deterministic.  A 0 id (game, player, inbound)
 *   means "none" and is stored as NULL.
 * - Transactions: store_begin() / store_commit() / store_rollback().  The
 *   server handles one inbound message in one transaction.  Outside a
 *   transaction each call is atomic on its own (multi-statement calls open
 *   their own transaction).  Transactions do not nest.
 * - Structs handed out (struct store_player, store_game, ...) are allocated
 *   by the store and owned by the caller, who frees one with the matching
 *   *_free(&ptr) function and an array of them with store_rows_free() and
 *   the type's *_clear function (both NULL the pointer; NULL is fine).
 *   Input structs are only read, never kept.
 * - Fingerprints are hex (40 or 64 digits), stored upper-case; a lower-case
 *   or space-separated fingerprint given to the store is normalised.
 *   SHA-256 digests are 64 lower-case hex digits, computed by the caller.
 * - Player names and mail addresses compare case-insensitively (ASCII).
 */
#ifndef ASHES_STORE_H
#define ASHES_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct store;

/* ---- opening, schema, transactions ------------------------------------ */

struct store_options {
	/* Directory holding NNN-name.sql migrations.  NULL: the installed
	 * ASHES_DATADIR "/sql", unless the copy of sql/ embedded in the
	 * program at build time knows more versions (an uninstalled build,
	 * or nothing installed at all). */
	const char *sql_dir;
	/* How long one statement waits for a lock held by another
	 * connection or process.  0: STORE_DEFAULT_BUSY_TIMEOUT_MS. */
	int busy_timeout_ms;
	/* How many more times store_begin() tries BEGIN IMMEDIATE after a
	 * whole busy timeout ran out.  0: STORE_DEFAULT_BEGIN_RETRIES;
	 * -1: no retry. */
	int begin_retries;
	/* Open without applying pending migrations (for `ashes db check` and
	 * for tests that build old schema versions; call store_migrate()
	 * yourself).  A database newer than the program is refused even so. */
	bool no_migrate;
	/* PRAGMA synchronous = NORMAL instead of FULL.  In WAL mode a crash
	 * of the process loses nothing either way, but after a power loss
	 * the last commits may be gone (while their mails were already
	 * archived).  For benchmarks and operators who accept that. */
	bool synchronous_normal;
};

#define STORE_DEFAULT_BUSY_TIMEOUT_MS 5000
#define STORE_DEFAULT_BEGIN_RETRIES 3

enum store_error_kind {
	STORE_ERROR_NONE = 0,
	STORE_ERROR_BUSY,   /* locked by another connection; try later */
	STORE_ERROR_SCHEMA, /* schema too new, missing/bad migration files */
	STORE_ERROR_USAGE,  /* bad argument, no such row to update, ... */
	STORE_ERROR_IO,     /* anything else SQLite reported */
	STORE_ERROR_FAULT,  /* injected by store_debug_fail_after() */
};

/* Open (creating if missing) the database at path, with WAL, foreign keys,
 * a busy timeout, and (unless options->no_migrate) every pending migration
 * applied.  options may be NULL for the defaults.  Refuses, with a clear
 * message, a database whose schema is newer than this program knows.
 * On success *store_r is set (free with store_close); on failure -1 and
 * *store_r is NULL. */
int store_open(const char *path, const struct store_options *options,
	       struct store **store_r, const char **error_r);
/* Close the database (rolling back an open transaction); NULLs *store. */
void store_close(struct store **store);

/* Apply migrations up to target_version (-1: the latest known), each in its
 * own transaction that also sets PRAGMA user_version.  Must not be called
 * inside a transaction.  Migrating to a version lower than the current one
 * is refused. */
int store_migrate(struct store *store, int target_version,
		  const char **error_r);
/* The database's PRAGMA user_version and the latest version this program
 * knows (the highest NNN among the migrations found). */
int store_schema_version(struct store *store, int *current_r, int *known_r,
			 const char **error_r);
/* Where the migrations came from: a directory path, or "(embedded)".
 * Owned by the store. */
const char *store_sql_source(const struct store *store);

/* BEGIN IMMEDIATE (the write lock is taken now, so a later statement never
 * fails half-way with SQLITE_BUSY); waits busy_timeout_ms and then retries
 * begin_retries times.  -1 with STORE_ERROR_BUSY if the lock never came. */
int store_begin(struct store *store, const char **error_r);
/* Commit.  On failure the transaction has been rolled back: nothing of it
 * is in the database. */
int store_commit(struct store *store, const char **error_r);
/* Roll back the open transaction (no-op without one).  Never fails in a
 * way the caller could act on, so it returns nothing.  After any failure
 * inside a transaction the caller rolls back: if SQLite already ended the
 * transaction itself (some I/O errors, a full disk), every later call
 * fails until store_rollback(), so nothing runs outside it by mistake. */
void store_rollback(struct store *store);
/* Inside a transaction: mark a point to roll back to (one mail of a
 * batch), and end it: ok keeps what was done since, !ok undoes only that,
 * leaving the transaction open.  -1 on failure. */
int store_savepoint(struct store *store, const char **error_r);
int store_savepoint_end(struct store *store, bool ok, const char **error_r);
/* True from store_begin() until store_commit() or store_rollback(). */
bool store_in_transaction(const struct store *store);

/* What kind the last failure was (STORE_ERROR_NONE after a success). */
enum store_error_kind store_error_kind(const struct store *store);

/* Check the database for `ashes db check`: PRAGMA integrity_check,
 * PRAGMA foreign_key_check, and the schema version against the program's.
 * -1 only when the checks could not run at all. */
struct store_check_report {
	bool ok;            /* integrity ok, no fk violations, version current */
	int schema_version; /* PRAGMA user_version */
	int known_version;  /* latest migration this program knows */
	long integrity_problems;
	long foreign_key_problems;
	char *text; /* one finding per line, ends "ok\n" when ok */
};
int store_check(struct store *store, struct store_check_report **report_r,
		const char **error_r);
void store_check_report_free(struct store_check_report **report);

/* ---- test hooks ------------------------------------------------------ */

/* Make the (n+1)-th SQLite step/exec from now on fail with
 * STORE_ERROR_FAULT (n = 0: the very next one); n < 0 switches it off.
 * ROLLBACK is never failed, so recovery can always be proven.  The fault
 * fires once, then the counter is off again. */
void store_debug_fail_after(struct store *store, long n);
/* Make the injected fault behave like SQLITE_FULL after which SQLite has
 * rolled back the whole transaction by itself (default: an I/O error that
 * fails only the statement). */
void store_debug_fault_rolls_back(struct store *store, bool rolls_back);
/* Number of SQLite step/exec calls made so far by this store. */
long store_debug_step_count(const struct store *store);

/* ---- freeing the rows handed out ------------------------------------- */

/* Free an array of count rows of row_size bytes that the store handed out
 * (games, moves, players, ...): clear each row with clear (NULL: the rows
 * own nothing), free the array and NULL the caller's pointer.  rows_p is
 * the address of that pointer (a struct store_game ** for games); a NULL
 * array is fine.  The one row of a lookup is an array of one:
 *	store_rows_free(&games, n, sizeof(*games), store_game_clear);
 */
void store_rows_free(void *rows_p, size_t count, size_t row_size,
		     void (*clear)(void *row));

/* ---- players -------------------------------------------------------- */

struct store_address {
	char *address;
	bool failing;          /* bounced / marked failing */
	int64_t failing_since; /* 0 when not failing */
	char *failing_reason;  /* NULL when not failing */
};

struct store_player {
	int64_t id;
	char *name;
	int64_t created;
	/* In the order they were added: the first non-failing address is the
	 * one to reply to. */
	struct store_address *addresses;
	size_t n_addresses;
	char **fingerprints; /* upper-case hex, in the order bound */
	size_t n_fingerprints;
};
/* Free what one struct store_player owns (not the struct itself; the
 * database is not touched): the clear function for store_rows_free. */
void store_player_clear(void *player);
/* Free one player; NULLs *player. */
void store_player_free(struct store_player **player);

/* Create a player with a name, a first address and a first key (either of
 * the last two may be NULL), atomically.  1 if the name is taken (case-
 * insensitively), the key already bound, or the address already belongs
 * to a player; nothing is created then.  *id_r (may be NULL) gets the id. */
int store_player_add(struct store *store, const char *name,
		     const char *address, const char *fingerprint,
		     int64_t now, int64_t *id_r, const char **error_r);
/* Bind one more key / address.  1 if already bound (to anyone); -1 with
 * STORE_ERROR_USAGE for no such player or a malformed key/address. */
int store_player_add_key(struct store *store, int64_t player_id,
			 const char *fingerprint, int64_t now,
			 const char **error_r);
int store_player_add_address(struct store *store, int64_t player_id,
			     const char *address, int64_t now,
			     const char **error_r);
/* Lookups: 1 and *player_r (caller frees) with addresses and keys, 0 if
 * no such player, -1 on failure. */
int store_player_load(struct store *store, int64_t player_id,
		      struct store_player **player_r, const char **error_r);
int store_player_by_name(struct store *store, const char *name,
			 struct store_player **player_r, const char **error_r);
int store_player_by_fingerprint(struct store *store, const char *fingerprint,
				struct store_player **player_r,
				const char **error_r);
int store_player_by_address(struct store *store, const char *address,
			    struct store_player **player_r,
			    const char **error_r);
/* All players ordered by id; free with store_rows_free and
 * store_player_clear. */
int store_player_list(struct store *store, struct store_player **players_r,
		      size_t *count_r, const char **error_r);

/* When player_id last played a move (in any game): 1 and *at_r, 0 if
 * never.  (A ladder withdraws members absent too long.) */
int store_player_last_move(struct store *store, int64_t player_id,
			   int64_t *at_r, const char **error_r);

/* Mark an address failing (a bounce came back) or, with failing = false,
 * working again.  1 if the address belongs to a player, 0 if unknown. */
int store_address_mark_failing(struct store *store, const char *address,
			       bool failing, int64_t now, const char *reason,
			       const char **error_r);

/* The longest address the store binds (RFC 5321's path limit less the
 * angle brackets); the service refuses longer ones before it asks. */
#define STORE_ADDRESS_MAX 254

/* ---- games and moves ------------------------------------------------ */

enum store_game_status {
	STORE_GAME_CHALLENGE = 0, /* offered to one named player */
	STORE_GAME_OPEN,          /* `challenge any`: anyone may accept */
	STORE_GAME_ACTIVE,
	STORE_GAME_FINISHED,
	STORE_GAME_DECLINED,
	STORE_GAME_WITHDRAWN,
	/* The clock ran out before the player whose flag fell had made a
	 * first move: no result (sql/008). */
	STORE_GAME_CANCELLED,
};
#define STORE_GAME_STATUS_COUNT 7
/* "challenge", "open", "active", ... as stored; NULL for a bad value. */
const char *store_game_status_name(enum store_game_status status);
/* 0 and *status_r, or -1 for an unknown name. */
int store_game_status_parse(const char *name,
			    enum store_game_status *status_r);

struct store_game {
	int64_t id;
	char *variant;   /* e.g. "size=5 tax=removed swap"; the server's text */
	int64_t challenger_id; /* who made the challenge */
	int64_t white_id;      /* 0 while not known (open challenge) */
	int64_t black_id;
	bool swapped;    /* Black used the swap */
	enum store_game_status status;
	int ply;         /* moves stored so far; kept by store_move_append */
	char *result;    /* e.g. "1-0", NULL while undecided */
	char *end_reason; /* e.g. "elimination", "resignation"; NULL */
	int64_t created;
	int64_t updated;
	int64_t draw_offer_by;  /* player with a pending draw offer, or 0 */
	int draw_offer_ply;     /* ply at which it was offered */
	/* Clocks (the service's clock.h): the time control as the service
	 * writes it, each colour's seconds left (for the side to move: at
	 * the start of its turn), when the turn of the side to move began
	 * (0: the clock has not started), which colour that is, when its
	 * flag falls, when its next reminder is due, how many of the
	 * reminder thresholds this turn has passed, and (timeout_claim =
	 * manual) when the flag fell with the game left for the opponent
	 * to claim. */
	char *clock_settings;   /* NULL: no clock */
	int64_t clock_white;
	int64_t clock_black;
	int64_t clock_turn_started;
	int clock_side;         /* 0 white, 1 black: the side to move */
	int64_t deadline_at;    /* 0: nothing due; see store_games_due */
	int64_t remind_at;      /* 0: no reminder to come */
	int reminders_sent;
	int64_t flag_fell_at;   /* 0: not fallen, or not left to claim */
	char *thread_message_id; /* Message-ID of the thread root, or NULL */
};
/* Free what one struct store_game owns (not the struct; the database is
 * not touched): the clear function for store_rows_free. */
void store_game_clear(void *game);
/* Free one game; NULLs *game. */
void store_game_free(struct store_game **game);

/* Insert a game from *game (its id, ply, created and updated are ignored;
 * created = updated = now).  The ids of players must exist. */
int store_game_create(struct store *store, const struct store_game *game,
		      int64_t now, int64_t *id_r, const char **error_r);
/* 1 and *game_r (caller frees), 0 if no such game, -1 on failure. */
int store_game_load(struct store *store, int64_t game_id,
		    struct store_game **game_r, const char **error_r);
/* Write every mutable field of *game (all but id, variant, challenger_id,
 * ply and created) and set updated = now.  -1 (STORE_ERROR_USAGE) if the
 * game does not exist. */
int store_game_update(struct store *store, const struct store_game *game,
		      int64_t now, const char **error_r);

/* Games a player takes part in (white, black, or challenger), or is the
 * target of; newest first.  statuses: a bit mask of (1 << status), 0 for
 * all.  Free with store_rows_free and store_game_clear. */
int store_games_for_player(struct store *store, int64_t player_id,
			   unsigned statuses, struct store_game **games_r,
			   size_t *count_r, const char **error_r);
/* The games a player played (white or black) that are finished, the
 * latest to end first, at most limit (0: no limit).  Free with
 * store_rows_free and store_game_clear. */
int store_games_finished_for_player(struct store *store, int64_t player_id,
				    size_t limit, struct store_game **games_r,
				    size_t *count_r, const char **error_r);
/* All games with a status in the mask (0: all), by id, at most limit
 * (0: no limit) starting after id after_id (0: from the start). */
int store_games_list(struct store *store, unsigned statuses,
		     int64_t after_id, size_t limit,
		     struct store_game **games_r, size_t *count_r,
		     const char **error_r);
/* Active games whose deadline_at is set and <= now, oldest deadline first,
 * at most limit (0: no limit): the clock/reminder work to do. */
int store_games_due(struct store *store, int64_t now, size_t limit,
		    struct store_game **games_r, size_t *count_r,
		    const char **error_r);
/* The game a mail belongs to, from one Message-ID of its References or
 * In-Reply-To: a game's thread root, or a message we sent for a game.
 * 1 and *game_id_r, 0 if none. */
int store_game_by_message_id(struct store *store, const char *message_id,
			     int64_t *game_id_r, const char **error_r);

struct store_move {
	int ply;
	char *text;        /* canonical move text */
	int64_t player_id; /* 0 for a forced pass */
	int64_t played_at;
	int64_t inbound_id; /* the mail it came from, or 0 */
};
/* Free what one struct store_move owns: the clear function for
 * store_rows_free. */
void store_move_clear(void *move);

/* Append the move of ply `ply` (1-based) to a game, and bump the game's
 * ply and updated.  1 if ply is not the game's next ply (stale or
 * duplicate: nothing changed); -1 if the game does not exist. */
int store_move_append(struct store *store, int64_t game_id, int ply,
		      const char *text, int64_t player_id, int64_t now,
		      int64_t inbound_id, const char **error_r);
/* The canonical move texts in ply order, as a NULL-terminated array (also
 * counted in *count_r, which may be NULL).  Free with
 * store_strings_free(). */
int store_game_moves(struct store *store, int64_t game_id, char ***moves_r,
		     size_t *count_r, const char **error_r);
/* The full move records in ply order; free with store_rows_free and
 * store_move_clear. */
int store_game_move_records(struct store *store, int64_t game_id,
			    struct store_move **moves_r, size_t *count_r,
			    const char **error_r);
/* Frees a NULL-terminated string array and NULLs *strings. */
void store_strings_free(char ***strings);

/* A ply's line of the game's record (store_record.c, sql/012): the
 * fields of core/record2.h's struct record2_annot a ply carries (its
 * enum record2_field bits in `fields`; the record's key= is the
 * signer's last 16 digits), as the service wrote them when it stored
 * the ply. */
struct store_ply_record {
	int ply;
	unsigned fields;
	char signer[65];    /* the signer's fingerprint, or "" */
	int64_t at;         /* the receipt */
	int64_t clock;      /* seconds left after the ply */
	char sha256[65];    /* of the signed part, or "" */
	int cond;           /* a conditional reply: its tree's base ply */
};
/* Write ply r->ply's line (replacing one there).  The ply must be
 * stored: its line goes when it is taken back. */
int store_ply_record_put(struct store *store, int64_t game_id,
			 const struct store_ply_record *r,
			 const char **error_r);
/* The lines of game_id's plies that have one, by ply; free() *rows_r. */
int store_ply_records(struct store *store, int64_t game_id,
		      struct store_ply_record **rows_r, size_t *count_r,
		      const char **error_r);

/* ---- taking moves back (store_game.c) -------------------------------- */

/* Both players agreed to take back the last move: remove the plies after
 * `keep` (the move and the forced passes it brought) from a game whose
 * ply is `ply` now, set its ply to keep, updated to now, and clear its
 * request to take back (answered).  The caller saves the rest of the
 * row (seats swapped back after a swap) with store_game_update.  1 if
 * the game's ply is not `ply` (a move came meanwhile: nothing changed);
 * -1 with STORE_ERROR_USAGE if keep is not in 0 .. ply - 1, for no such
 * game, or when the game does not hold plies keep + 1 .. ply.  The
 * game's conditional trees (store_conditional.h) go too: the position
 * history they were made for changed. */
int store_move_take_back(struct store *store, int64_t game_id, int ply,
			 int keep, int64_t now, const char **error_r);
/* The one pending request to take back a move in a game: 1 with the
 * player who asked and the game's ply when they did (the request counts
 * only while the game is still at that ply: a move ends it without
 * clearing it here); 0 if none (or no such game), with both zeroed. */
int store_undo_offer_get(struct store *store, int64_t game_id,
			 int64_t *player_id_r, int *ply_r,
			 const char **error_r);
/* Record the request of player_id at ply, replacing any other, or clear
 * it (player_id 0); updated = now.  -1 (STORE_ERROR_USAGE) for no such
 * game. */
int store_undo_offer_set(struct store *store, int64_t game_id,
			 int64_t player_id, int ply, int64_t now,
			 const char **error_r);

/* ---- notes between the players (store_message.c) --------------------- */

/* The longest note the store archives, in bytes (the command language
 * bounds it lower: COMMAND_TEXT_MAX). */
#define STORE_MESSAGE_MAX 1000

struct store_game_message {
	int64_t id;
	int64_t game_id;
	int ply;            /* plies the game had when it was sent */
	int64_t player_id;  /* who sent it */
	char *text;
	int64_t inbound_id; /* the signed mail it came in, or 0 */
	int64_t created;
};
/* Free what one note owns: the clear function for store_rows_free. */
void store_game_message_clear(void *msg);
/* Archive a note of player_id in a game.  -1 with STORE_ERROR_USAGE for
 * an empty text or one over STORE_MESSAGE_MAX bytes, a negative ply, or
 * an unknown game or player.  *id_r may be NULL. */
int store_game_message_add(struct store *store, int64_t game_id, int ply,
			   int64_t player_id, const char *text,
			   int64_t inbound_id, int64_t now, int64_t *id_r,
			   const char **error_r);
/* A game's notes in the order they were sent; free with store_rows_free
 * and store_game_message_clear. */
int store_game_messages(struct store *store, int64_t game_id,
			struct store_game_message **msgs_r, size_t *count_r,
			const char **error_r);

/* ---- observers ------------------------------------------------------ */

/* 1 if already observing / 0 added. */
int store_observer_add(struct store *store, int64_t game_id,
		       int64_t player_id, int64_t now, const char **error_r);
/* 1 removed, 0 was not observing. */
int store_observer_remove(struct store *store, int64_t game_id,
			  int64_t player_id, const char **error_r);
/* Player ids observing a game, ascending; caller frees *ids_r (free()). */
int store_observer_list(struct store *store, int64_t game_id,
			int64_t **ids_r, size_t *count_r,
			const char **error_r);

/* ---- player settings and the observers' digest (store_settings.c) ---- */

/* What a player chose with `set KEY VALUE` by mail or `ashes player set`
 * (sql/005).  A player who never set anything has the defaults. */
#define STORE_TIMEZONE_MAX 64
enum store_picture { STORE_PICTURE_PNG = 0, STORE_PICTURE_SVG,
		     STORE_PICTURE_NONE };
enum store_move_list { STORE_MOVES_SHORT = 0, STORE_MOVES_FULL,
		       STORE_MOVES_NONE };
struct store_settings {
	bool confirm;                /* a reply to one's own moves; default true */
	enum store_picture picture;  /* the board picture in mails; default png */
	enum store_move_list moves;  /* the legal-move list; default short */
	bool digest;                 /* observers: one daily digest instead of
				      * a mail per change; default false */
	bool reminders;              /* mails when a clock runs low; default
				      * true (sql/008) */
	/* The IANA time zone the player reads dates in and whose weekends
	 * are free when a game has weekends off; "" is UTC (sql/008).  The
	 * store checks the shape only (letters, digits, "/_+-", at most
	 * STORE_TIMEZONE_MAX - 1 bytes); the service checks the zone
	 * exists. */
	char timezone[STORE_TIMEZONE_MAX];
	bool standings;              /* the weekly standings mail of the
				      * ladders the player is in; default
				      * true (sql/009) */
	/* `set summary daily HH:MM`: minutes after local midnight of the
	 * daily summary, -1 for off (the default: every mail at once;
	 * sql/014); summary_word is its word, "off" or "daily 08:00". */
	int summary_at;
	char summary_word[16];
};
/* The defaults into *s_r. */
void store_settings_default(struct store_settings *s_r);
/* A player's settings: 0 with the stored ones, or the defaults when none
 * are stored (or player_id is 0); -1 on failure. */
int store_settings_get(struct store *store, int64_t player_id,
		       struct store_settings *s_r, const char **error_r);
/* Store all the settings of a player.  -1 with STORE_ERROR_USAGE for no
 * such player, a value out of its enum's range, or a timezone that is
 * neither "" nor of a zone name's shape. */
int store_settings_set(struct store *store, int64_t player_id,
		       const struct store_settings *s, int64_t now,
		       const char **error_r);

/* The keys and the words of their values, as players write them:
 * confirm on|off, pictures png|svg|none, moves full|short|none, digest
 * on|off, reminders on|off, timezone ZONE|UTC, standings on|off,
 * summary off|daily HH:MM (the command syntax, like
 * store_game_status_name()). */
enum store_setting_key {
	STORE_SETTING_CONFIRM = 0,
	STORE_SETTING_PICTURES,
	STORE_SETTING_MOVES,
	STORE_SETTING_DIGEST,
	STORE_SETTING_REMINDERS, /* on|off */
	STORE_SETTING_TIMEZONE,  /* a zone name, or "UTC" (stored as "") */
	STORE_SETTING_STANDINGS, /* on|off */
	STORE_SETTING_SUMMARY,   /* "off" or "daily HH:MM" */
	STORE_SETTING_COUNT
};
/* "confirm", ...; NULL for a bad key. */
const char *store_setting_name(enum store_setting_key key);
/* The words a key takes, "on|off"; NULL for a bad key. */
const char *store_setting_choices(enum store_setting_key key);
/* The word of key's value in s ("off", "svg"; the timezone's name, which
 * points into s, or "UTC" for ""); NULL for a bad key or a value out of
 * range. */
const char *store_setting_word(const struct store_settings *s,
			       enum store_setting_key key);
/* A key by its name (ASCII case-insensitive): 0 and *key_r, or -1. */
int store_setting_parse_key(const char *name, enum store_setting_key *key_r);
/* Set key in s to the value named by a word of it (case-insensitive): 0,
 * or -1 if value is none of key's words (s unchanged).  timezone takes
 * "UTC" in any case (stored as "") or a name of a zone's shape, kept as
 * given, its case included; summary "off" or "daily HH:MM" (00:00 to
 * 23:59, one space between). */
int store_setting_parse_value(struct store_settings *s,
			      enum store_setting_key key, const char *value);

/* An observer with `digest on` gets no mail per change of a game: the
 * change is noted, once per observer and game, and the daily digest
 * describes each game from the earliest ply noted. */
struct store_digest_item {
	int64_t player_id;
	int64_t game_id;
	int from_ply;    /* plies before this one were told already */
	int64_t created; /* when the first change was noted */
};
/* Note a change of game_id for observer player_id, to be described from
 * ply index from_ply on: a new item, or the one there with the earlier
 * from_ply of the two (its time kept). */
int store_digest_add(struct store *store, int64_t player_id, int64_t game_id,
		     int from_ply, int64_t now, const char **error_r);
/* Observers with an item noted before `before`, ascending; caller frees
 * *ids_r (free()). */
int store_digest_due(struct store *store, int64_t before, int64_t **ids_r,
		     size_t *count_r, const char **error_r);
/* All items of one observer, by game; caller frees *items_r (free()). */
int store_digest_items(struct store *store, int64_t player_id,
		       struct store_digest_item **items_r, size_t *count_r,
		       const char **error_r);
/* Forget an observer's items (their digest was queued in the same
 * transaction). */
int store_digest_clear(struct store *store, int64_t player_id,
		       const char **error_r);

/* ---- inbound messages and signatures -------------------------------- */

struct store_inbound {
	int64_t id;
	char *message_id;   /* without <>; NULL if the mail had none */
	char *sha256;       /* of the raw bytes, 64 lower-case hex */
	char *raw;          /* the raw bytes (NUL-terminated for convenience) */
	size_t raw_len;
	int64_t received;
	char *source;       /* mailbox source name, or NULL */
	char *sender_address;     /* From as seen, or NULL */
	char *sender_fingerprint; /* the verified signer, or NULL */
	int64_t player_id;  /* the player it was from, or 0 */
	char *outcome;      /* short text: "ok", "refused: ...", "bounce" */
	/* raw holds only the header block (a mail refused as too big: its
	 * bytes are not kept, sha256 is still of all of them). */
	bool raw_truncated;
	/* 0 for the first reading of a mail; else a later reading of the
	 * same bytes (an exact duplicate), recorded with its own time,
	 * source and outcome: the id of the first reading, which keeps the
	 * bytes (raw is empty here). */
	int64_t duplicate_of;
};
void store_inbound_free(struct store_inbound **in);

/* Was this message handled already: by the sha256 of its raw bytes, never
 * by Message-ID alone (an unsigned mail could take a player's next
 * Message-ID first).  1 and *inbound_id_r (may be NULL: the first
 * reading's id, never a duplicate's) if so. */
int store_inbound_seen(struct store *store, const char *sha256,
		       int64_t *inbound_id_r, const char **error_r);
/* Record a message (in->id ignored).  1 if the sha256 is already recorded
 * (nothing changed).  *id_r (may be NULL) gets the id.  With
 * in->duplicate_of set (a recorded first reading of the same sha256), the
 * row records a duplicate reading instead: raw is not kept, and the
 * sha256 may repeat; -1 (STORE_ERROR_USAGE) if duplicate_of is no first
 * reading of that sha256. */
int store_inbound_record(struct store *store, const struct store_inbound *in,
			 int64_t *id_r, const char **error_r);
/* Set the outcome text of a recorded message. */
int store_inbound_set_outcome(struct store *store, int64_t inbound_id,
			      const char *outcome, const char **error_r);
/* 1 and *in_r (caller frees), or 0 if no such message. */
int store_inbound_load(struct store *store, int64_t inbound_id,
		       struct store_inbound **in_r, const char **error_r);

/* The dak-style signature history: a signed text (by the sha256 of the
 * signed content) is accepted once, ever.  seen: 1 if recorded (and
 * *fingerprint_r, caller frees, may be NULL). */
int store_signature_seen(struct store *store, const char *content_sha256,
			 char **fingerprint_r, const char **error_r);
/* The sha256 of the signed part of inbound mail inbound_id, as recorded
 * with its signature: 1 and sha256_r (64 hex digits and a NUL), 0 if the
 * mail recorded none (sha256_r ""). */
int store_signature_by_inbound(struct store *store, int64_t inbound_id,
			       char sha256_r[65], const char **error_r);
/* 1 if that signed content was recorded before (a replay). */
int store_signature_record(struct store *store, const char *fingerprint,
			   int64_t signature_created,
			   const char *content_sha256, int64_t inbound_id,
			   int64_t now, const char **error_r);

/* ---- mailbox state (IMAP) ------------------------------------------- */

/* 1 and the UIDVALIDITY and last handled UID of a mailbox source, or 0 if
 * the source was never seen. */
int store_mailbox_state_get(struct store *store, const char *source,
			    uint32_t *uidvalidity_r, uint32_t *last_uid_r,
			    const char **error_r);
int store_mailbox_state_set(struct store *store, const char *source,
			    uint32_t uidvalidity, uint32_t last_uid,
			    int64_t now, const char **error_r);

/* ---- attempts (the poison-mail guard) -------------------------------- */

/* Count one more attempt at handling message uid of a mailbox source
 * (error: why the last one failed, or NULL), committed at once, before the
 * attempt: a mail that crashes the daemon still counts.  *attempts_r gets
 * the count, this one included.  Not inside a transaction. */
int store_attempt_hit(struct store *store, const char *source,
		      uint32_t uidvalidity, uint32_t uid, const char *error,
		      int64_t now, long *attempts_r, const char **error_r);
/* 1 with the count and the last error (caller frees; may be NULL), 0 if
 * the message has no failed attempt on record. */
int store_attempt_get(struct store *store, const char *source,
		      uint32_t uidvalidity, uint32_t uid, long *attempts_r,
		      char **last_error_r, const char **error_r);
/* The message was handled (or set aside): forget its attempts. */
int store_attempt_clear(struct store *store, const char *source,
			uint32_t uidvalidity, uint32_t uid,
			const char **error_r);

/* Address claims, the keys' lifecycle and key claims, names' skeletons
 * (store_identity.h). */
#include "store/store_identity.h"
/* The clocks' tables: vacations, the vacation bank, the clock history,
 * the timer's heartbeat (store_clock.h). */
#include "store/store_clock.h"
/* Counters that bound what one sender makes the daemon send and compute
 * (store_limits.h). */
#include "store/store_limits.h"
/* The outbox: each outgoing mail a typed envelope, its lanes and retries
 * (store_outbox.h). */
#include "store/store_outbox.h"
/* A club's competitions: ladders' event logs, league seasons, which game
 * belongs to which, ratings (store_club.h). */
#include "store/store_club.h"
/* The club's events: their logs, games and course (store_tournament.h). */
#include "store/store_tournament.h"
/* The daily summary's schedule and notes (store_summary.c). */
#include "store/store_summary.h"

#endif
