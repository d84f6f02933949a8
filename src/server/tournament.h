/* tournament.h -- an event (Swiss, round robin or knockout): its log of
 * entries, the replay of that log into the entrants' scores and games,
 * and the standings with their tie-breaks.  The pairings of each format
 * are their own modules over the replayed state: swiss.h, roundrobin.h,
 * knockout.h.  docs/tournaments.md is the players' and operators' account
 * of every rule below.
 *
 * Pure: no I/O, no store, no mail, never time(), no randomness.  The
 * store keeps the entries (struct tournament_entry is their in-memory
 * form); the service replays them (tournament_replay), ranks the result
 * (tournament_standings) and pairs the next round from it.  Positions are
 * never stored: they are always replayed, so the same log always gives
 * the same standings, and so does any order of it that keeps the JOIN,
 * LEAVE and WITHDRAW entries in their order and each game's
 * ADJUDICATIONs in theirs (`at` is kept for the archive and never
 * read).
 *
 * Points are counted in half points so that every sum is whole: a win 2,
 * a draw 1 (Ashes has draws: both players stuck, both eliminated, an
 * agreed draw), a loss 0; a Swiss bye bye_points (0..2, default 2).  The
 * mails show them halved (1, ½, 0).  A round robin's sit-out (an odd
 * field) and a knockout's bye are recorded as BYE entries too but score
 * nothing: every round-robin player sits out once, and a knockout is not
 * ranked by points.
 *
 * Entrants and seeds: the players of the JOIN entries (round 0) not
 * taken out again by a LEAVE or WITHDRAW of round 0.  Their seed order is
 * by rating at sign-up, higher first, then by player id, lower first:
 * never the order of sign-up, so that the seeds do not depend on the
 * order of the log.
 *
 * Colours: a game's colours are those of its RESULT (or ADJUDICATION)
 * when there is one, else those of its PAIRING: with the `swap` variant
 * the two players exchange colours during the game, and the colour a
 * player ended with is the one they played.
 *
 * Withdrawals (LEAVE by the player's mail, WITHDRAW by the operator),
 * with round R = the rounds paired at that moment (0: before the start):
 *   - R = 0: the player is no entrant at all (they may JOIN again);
 *   - else the player is paired in no round after R (swiss.h,
 *     knockout.h leave them out), and every game of theirs without a
 *     result -- a game of a round <= R still running, or a round-robin
 *     game of a later round, which the service pairs all the same --
 *     counts as lost by them and won by the opponent (a forfeit; both
 *     withdrawn: lost by both).  A forfeit counts for points and every
 *     tie-break like a game played;
 *   - round robin only: if the player finished fewer than half of their
 *     scheduled games ((entrants - 1), twice that with `double`; a
 *     forfeit is not a finished game), all of their games are removed:
 *     they count for nobody, and the player is ranked after everyone,
 *     with 0 points (`removed`).
 *
 * Results: a RESULT closes a game once; an ADJUDICATION (the daemon at a
 * round's deadline, or the operator) replaces any RESULT of its game, and
 * the last ADJUDICATION of a game is the one that counts.
 *
 * Errors are codes (enum tournament_error) plus the numbers behind them
 * in a struct tournament_fault; tournament_error_name() gives a code word.
 * The words players read belong in templates/.
 */
#ifndef ASHES_SERVER_TOURNAMENT_H
#define ASHES_SERVER_TOURNAMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Half points. */
#define TOURNAMENT_WIN 2
#define TOURNAMENT_DRAW 1

/* Bounds: an event's entrants, rounds, log and tie-break list. */
#define TOURNAMENT_MAX_PLAYERS 256
#define TOURNAMENT_MAX_ROUNDS 512
#define TOURNAMENT_MAX_ENTRIES 200000
#define TOURNAMENT_MAX_TIEBREAKS 6

enum tournament_format {
	TOURNAMENT_SWISS = 1,
	TOURNAMENT_ROUNDROBIN,
	TOURNAMENT_KNOCKOUT,
};

enum tournament_tiebreak {
	/* the sum of the points of every opponent met (a bye: none) */
	TOURNAMENT_TB_BUCHHOLZ = 1,
	/* the same less the lowest of those (none: 0) */
	TOURNAMENT_TB_BUCHHOLZ_CUT1,
	/* for every game, the points scored in it times the opponent's
	 * points (in quarter points) */
	TOURNAMENT_TB_SONNEBORN_BERGER,
	/* the points scored in the games among the players still tied,
	 * if every two of them have met; else it separates nobody */
	TOURNAMENT_TB_DIRECT,
	/* games won (forfeits included, byes not) */
	TOURNAMENT_TB_WINS,
	/* rating at sign-up, higher first */
	TOURNAMENT_TB_RATING,
};

enum tournament_entry_kind {
	TOURNAMENT_JOIN = 1,     /* player, rating; round 0 */
	TOURNAMENT_LEAVE,        /* player (their mail), round */
	TOURNAMENT_WITHDRAW,     /* player (the operator), round */
	TOURNAMENT_PAIRING,      /* round, game, player White, other Black */
	TOURNAMENT_BYE,          /* round, player */
	TOURNAMENT_RESULT,       /* game, player White, other Black, outcome */
	TOURNAMENT_ADJUDICATION, /* the same, decided by the daemon or the
				  * operator */
};

enum tournament_outcome {
	TOURNAMENT_UNFINISHED = 0,
	TOURNAMENT_WHITE_WINS,
	TOURNAMENT_BLACK_WINS,
	TOURNAMENT_DRAWN,
};

/* One entry of an event's log.  Only the fields of its kind are used;
 * the others are 0.  Players and games are ids > 0. */
struct tournament_entry {
	enum tournament_entry_kind kind;
	int64_t at;       /* epoch seconds (kept, never read here) */
	int round;        /* 1.. (JOIN 0; LEAVE, WITHDRAW 0..) */
	int64_t player;   /* JOIN, LEAVE, WITHDRAW, BYE: the player;
			   * PAIRING, RESULT, ADJUDICATION: White */
	int64_t other;    /* PAIRING, RESULT, ADJUDICATION: Black */
	int64_t game;     /* PAIRING, RESULT, ADJUDICATION */
	enum tournament_outcome outcome; /* RESULT, ADJUDICATION */
	int rating;       /* JOIN */
};

struct tournament_rules {
	enum tournament_format format;
	bool twice;       /* round robin: `double = yes` */
	int rounds;       /* swiss: 1..TOURNAMENT_MAX_ROUNDS */
	int bye_points;   /* half points, 0..2 */
	enum tournament_tiebreak tiebreaks[TOURNAMENT_MAX_TIEBREAKS];
	size_t ntiebreaks;
};

/* An entrant, in seed order (index 0 the top seed). */
struct tournament_player {
	int64_t player;
	int rating;
	bool withdrawn;     /* LEAVE or WITHDRAW after the start */
	bool by_operator;   /* the latter */
	int withdrawn_round;
	bool removed;       /* round robin, under half played */
	/* from the games that count */
	int points;         /* half points, byes included */
	int played;         /* games that count, forfeits included */
	int finished;       /* games with a result (no forfeits) */
	int wins, draws, losses;         /* forfeits included */
	int forfeit_wins, forfeit_losses; /* of those */
	int byes;
	/* of the games finished on the board (a forfeit has no colours) */
	int whites, blacks;
	int last_colour;    /* +1 White, -1 Black, 0 none yet */
};

/* A game of the event: indices into the players. */
struct tournament_game {
	int round;
	int64_t game;
	size_t white, black;   /* as the result has them, else the pairing */
	enum tournament_outcome outcome; /* TOURNAMENT_UNFINISHED: none yet */
	bool adjudicated;
	/* how it counts: a forfeit (outcome set from the withdrawal), or not
	 * at all (removed, or unfinished without a withdrawal) */
	bool forfeit;
	bool counts;
};

/* A game to pair (the pairing modules' output): indices into the
 * players. */
struct tournament_pair {
	size_t white, black;
};

struct tournament_bye {
	int round;
	size_t player;
};

/* The event after its log.  Read the fields; free it with
 * tournament_state_free. */
struct tournament_state {
	struct tournament_player *players; /* seed order */
	size_t nplayers;
	struct tournament_game *games;     /* by round, then game id */
	size_t ngames;
	struct tournament_bye *byes;       /* by round */
	size_t nbyes;
	int rounds_paired;                 /* the highest round seen */
	bool *met;   /* nplayers * nplayers: paired at least once */
};

/* One line of the standings. */
struct tournament_row {
	size_t player;  /* index into the state's players */
	int rank;       /* 1.., no two the same */
	int points;     /* half points */
	/* the rules' tie-breaks, in their order (direct: as it was
	 * computed for the group the player was tied in, else 0) */
	int64_t tiebreak[TOURNAMENT_MAX_TIEBREAKS];
};

enum tournament_error {
	TOURNAMENT_OK = 0,
	TOURNAMENT_ERR_RULE_RANGE,    /* field, value, min, max */
	TOURNAMENT_ERR_BAD_ENTRY,     /* index: unknown kind or outcome, an
				       * id <= 0, a round out of range */
	TOURNAMENT_ERR_TOO_MANY,      /* value: entries or players, max */
	TOURNAMENT_ERR_ALREADY_ENTERED, /* value: the player */
	TOURNAMENT_ERR_NOT_ENTERED,   /* value: the player */
	TOURNAMENT_ERR_SELF,          /* value: the player */
	TOURNAMENT_ERR_TWICE_IN_ROUND, /* value: the player, min: round */
	TOURNAMENT_ERR_DUPLICATE_GAME, /* game */
	TOURNAMENT_ERR_UNKNOWN_GAME,  /* game: a result of no pairing */
	TOURNAMENT_ERR_WRONG_PLAYERS, /* game: a result naming others */
	TOURNAMENT_ERR_DUPLICATE_RESULT, /* game: a second RESULT */
	TOURNAMENT_ERR_NO_ROOM,       /* value: needed, max: the room */
	TOURNAMENT_ERR_TOO_FEW,       /* value: players to pair, min */
};

struct tournament_fault {
	enum tournament_error error;
	const char *field;   /* RULE_RANGE: the config key */
	int64_t value;
	int64_t min, max;
	int64_t game;
	size_t index;        /* tournament_replay: the entry at fault */
};

/* Code words: errors "ok", "bad_entry", ...; formats "swiss",
 * "roundrobin", "knockout"; tie-breaks "buchholz", "buchholz_cut1",
 * "sonneborn_berger", "direct", "wins", "rating"; kinds "join", "leave",
 * "withdraw", "pairing", "bye", "result", "adjudication"; outcomes
 * "unfinished", "white", "black", "draw".  "unknown" for a code not in
 * a table.  The parsers take exactly those words: 0 and *_r, or -1. */
const char *tournament_error_name(enum tournament_error error);
const char *tournament_format_name(enum tournament_format format);
const char *tournament_tiebreak_name(enum tournament_tiebreak tiebreak);
const char *tournament_kind_name(enum tournament_entry_kind kind);
const char *tournament_outcome_name(enum tournament_outcome outcome);
int tournament_format_parse(const char *word, enum tournament_format *r);
int tournament_tiebreak_parse(const char *word,
			      enum tournament_tiebreak *r);
int tournament_kind_parse(const char *word, enum tournament_entry_kind *r);
int tournament_outcome_parse(const char *word, enum tournament_outcome *r);

/* --- Rules --- */

/* The defaults of format, as ashesd.conf(5) documents them: 5 Swiss
 * rounds, single round robin, bye_points 2 (a win); tie-breaks for
 * Swiss buchholz_cut1, buchholz, direct, wins, rating; for round robin
 * direct, sonneborn_berger, wins, rating; for knockout rating. */
void tournament_rules_default(enum tournament_format format,
			      struct tournament_rules *rules_r);
/* 0 if every rule is in range, else -1 and *fault_r (may be NULL):
 * RULE_RANGE with field "format", "rounds", "bye_points" or
 * "tiebreaks" (an unknown one, value its index, or one named twice). */
int tournament_rules_check(const struct tournament_rules *rules,
			   struct tournament_fault *fault_r);

/* --- The log --- */

/* The state after entries[0..n): 0 and *state_r (the caller frees it),
 * or -1, *state_r NULL and *fault_r with index the entry at fault: a
 * malformed entry (BAD_ENTRY), a JOIN of an entrant (ALREADY_ENTERED),
 * a LEAVE, WITHDRAW, PAIRING or BYE of a non-entrant (NOT_ENTERED), a
 * pairing with oneself (SELF), a player paired or given a bye twice in
 * a round (TWICE_IN_ROUND; in a knockout a match's games are all of its
 * round: twice against the same opponent is allowed), a game id paired twice (DUPLICATE_GAME), a
 * result of no pairing (UNKNOWN_GAME), naming other players
 * (WRONG_PLAYERS) or a second RESULT (DUPLICATE_RESULT); more than
 * TOURNAMENT_MAX_ENTRIES entries or TOURNAMENT_MAX_PLAYERS entrants
 * (TOO_MANY).  Then the withdrawal rules of the header, with rules'
 * format and twice. */
int tournament_replay(const struct tournament_entry *entries, size_t n,
		      const struct tournament_rules *rules,
		      struct tournament_state **state_r,
		      struct tournament_fault *fault_r);
void tournament_state_free(struct tournament_state **state);
/* The index of player among the entrants, or -1. */
ptrdiff_t tournament_player_index(const struct tournament_state *state,
				  int64_t player);
/* Whether the players of indices a and b were ever paired. */
bool tournament_met(const struct tournament_state *state, size_t a,
		    size_t b);

/* --- Standings (standings.c) --- */

/* The standings of state into rows_r (room for state->nplayers), best
 * first: by points; then by each of rules' tie-breaks in turn, each one
 * ordering only the players still equal on everything before it; then by
 * seed.  Removed players come last, in seed order.  Never fails. */
void tournament_standings(const struct tournament_state *state,
			  const struct tournament_rules *rules,
			  struct tournament_row *rows_r);

#endif
