/* tournament_log.h -- an event's log as text, and what the operator and
 * the event archive print of it: the standings, a round's pairings and
 * the crosstable.
 *
 * The text form is the event archive's log.txt and what `ashes
 * tournament history` prints: a header (the event's name, the rules the
 * replay needs, the players' names by id), then one entry a line.  It is
 * written here and read back here (tournament_log_parse), so that
 * `ashes archive verify` replays exactly what the export wrote and
 * nothing else.  docs/tournaments.md, "The log as text", is the account
 * of every line for people who check one by hand.
 *
 * The standings text (standings.txt of the archive, and the standings of
 * `ashes tournament show`) is a function of the replayed state and the
 * rules: verify makes it again from the verified log and compares it
 * line by line with what was exported, so it is never parsed.
 *
 * Pure: no I/O, no store, never time().  Texts are built in a struct buf
 * the caller owns.
 */
#ifndef ASHES_SERVER_TOURNAMENT_LOG_H
#define ASHES_SERVER_TOURNAMENT_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "server/tournament.h"

struct buf;

/* The first line of every log text, and its version. */
#define TOURNAMENT_LOG_MAGIC "ashes-event-log"
#define TOURNAMENT_LOG_VERSION 1
/* Bounds of what a log text may hold: a line, a name, a note. */
#define TOURNAMENT_LOG_LINE_MAX 1024
#define TOURNAMENT_LOG_NAME_MAX 64
#define TOURNAMENT_LOG_NOTE_MAX 400

/* Who recorded an entry: a player's mail, the daemon (the config, the
 * timer, a round's deadline) or the operator (`ashes tournament`). */
enum tournament_by {
	TOURNAMENT_BY_NONE = 0,
	TOURNAMENT_BY_DAEMON,
	TOURNAMENT_BY_OPERATOR,
	TOURNAMENT_BY_MAIL,
};

struct tournament_log_player {
	int64_t id;
	char name[TOURNAMENT_LOG_NAME_MAX + 1];
};

/* The entries' game numbers are the event's own (1, 2, ...); the stored
 * game (its archive's Game) of a number, when the daemon made one. */
struct tournament_log_game {
	int64_t number, game_id;
};

/* An event's log with what the text adds to the entries: the event's
 * name and rules, the players' names, and per entry who decided it and
 * the operator's note (NULL: none).  Fill it with tournament_log_init,
 * _add_player and _add, or tournament_log_parse; free it with
 * tournament_log_free. */
struct tournament_log {
	char event[TOURNAMENT_LOG_NAME_MAX + 1];
	struct tournament_rules rules;
	struct tournament_log_player *players;
	size_t nplayers, players_cap;
	/* sorted by number, and games_by_id the indices by game_id, once
	 * tournament_log_index ran (indexed) */
	struct tournament_log_game *games;
	size_t ngames, games_cap;
	size_t *games_by_id;
	bool indexed;
	struct tournament_entry *entries;
	enum tournament_by *by;
	char **notes;
	size_t nentries, entries_cap;
};

/* Where a log text does not read: its line (1..) and what is wrong
 * (static text). */
struct tournament_log_fault {
	size_t line;
	const char *what;
};

/* An empty log of event (cut to TOURNAMENT_LOG_NAME_MAX bytes) under
 * rules. */
void tournament_log_init(struct tournament_log *log, const char *event,
			 const struct tournament_rules *rules);
void tournament_log_free(struct tournament_log *log);
/* Name the player id (a second name for an id replaces the first); the
 * name's control characters become '?' and it is cut to
 * TOURNAMENT_LOG_NAME_MAX bytes. */
void tournament_log_add_player(struct tournament_log *log, int64_t id,
			       const char *name);
/* Append entry e with who decided it and a note (may be NULL; its line
 * breaks and control characters become blanks, cut to
 * TOURNAMENT_LOG_NOTE_MAX bytes). */
void tournament_log_add(struct tournament_log *log,
			const struct tournament_entry *e,
			enum tournament_by by, const char *note);
/* Link the event's game number to the stored game game_id (appended:
 * the links are indexed again by the next tournament_log_index). */
void tournament_log_add_game(struct tournament_log *log, int64_t number,
			     int64_t game_id);
/* Sort the links so that the lookups below are binary searches: 0, or
 * -1 when a number or a game is linked twice (the links then stay as
 * they were, looked up in order).  tournament_log_parse indexes. */
int tournament_log_index(struct tournament_log *log);
/* The stored game of number, or 0; the number of stored game_id, or 0
 * (logarithmic once indexed, else in order). */
int64_t tournament_log_game_id(const struct tournament_log *log,
			       int64_t number);
int64_t tournament_log_game_number(const struct tournament_log *log,
				   int64_t game_id);
/* The name of player id, or NULL. */
const char *tournament_log_name(const struct tournament_log *log,
				int64_t id);
/* "daemon", "operator", "mail"; "" for none. */
const char *tournament_by_name(enum tournament_by by);

/* The whole text of log (header and entries) appended to out. */
void tournament_log_format(const struct tournament_log *log,
			   struct buf *out);
/* Entry i's line (no newline) appended to out. */
void tournament_log_entry_line(const struct tournament_log *log, size_t i,
			       struct buf *out);
/* Read a log text (of len bytes; it need not end in NUL): 0 and *log_r
 * (the caller frees it), or -1, *log_r empty, and *fault_r: a line longer
 * than TOURNAMENT_LOG_LINE_MAX, a control character, a missing or other
 * first line, an unknown header word or entry kind, a field missing,
 * foreign to its kind, given twice or out of range, rules that
 * tournament_rules_check refuses, more than TOURNAMENT_MAX_ENTRIES
 * entries or TOURNAMENT_MAX_PLAYERS names.  Whether the entries make a
 * log is tournament_replay's to say. */
int tournament_log_parse(const char *text, size_t len,
			 struct tournament_log *log_r,
			 struct tournament_log_fault *fault_r);

/* --- What is shown of a replayed event (tournament_text.c) --- */

/* A player's name from the log, else "#ID". */
const char *tournament_player_label(const struct tournament_log *log,
				    int64_t id, char *buf, size_t len);
/* Points (half points) as people read them: "2", "2.5". */
const char *tournament_points_text(int64_t half_points, char *buf,
				   size_t len);
/* Tie-break t's value as people read it (buchholz and direct in points,
 * sonneborn_berger in points with quarters, wins and rating whole). */
const char *tournament_tiebreak_text(enum tournament_tiebreak t,
				     int64_t value, char *buf, size_t len);
/* A game's result as the records write it: "1-0", "0-1", "1/2-1/2";
 * "*" while unfinished; "+:-", "-:+", "-:-" for a forfeit. */
const char *tournament_game_result(const struct tournament_game *g);

/* A knockout's standings rows[0..n) (tournament_standings') ordered by
 * how far each went -- places (knockout_places, 0: still in, counted as
 * 1) -- keeping their order among equals; ranks 1..n again. */
void tournament_knockout_order(const int *places,
			       struct tournament_row *rows, size_t n);
/* The standings of state under log->rules, appended to out: a heading
 * line, then one line per player, best first (a knockout: by how far
 * each went) -- rank, a knockout's place ("-": still in), points, every
 * tie-break's value, in/withdrawn/removed, name (id).  The same state
 * always gives the same bytes. */
void tournament_standings_text(const struct tournament_log *log,
			       const struct tournament_state *state,
			       struct buf *out);
/* The games and byes of round (1..) of state, appended to out, one a
 * line: board, the stored game ("-": none was created), White, Black,
 * result; then the byes. */
void tournament_pairings_text(const struct tournament_log *log,
			      const struct tournament_state *state,
			      int round, struct buf *out);
/* The crosstable, appended to out: per player in standings order, per
 * round the opponent's rank with the colour and the score ("+3w" won
 * against rank 3 with White, "=5b", "-2w", "+F" / "-F" a forfeit, "bye",
 * "." no game). */
void tournament_crosstable_text(const struct tournament_log *log,
				const struct tournament_state *state,
				struct buf *out);

#endif
