/* ladder.h -- a ladder's rules and positions: the places of its members
 * as a pure function of its event log (joined, challenged, accepted,
 * result, left, withdrawn, moved), and the checks of a challenge, an
 * acceptance, walkovers and absence against the rules.
 *
 * Pure: no I/O, no store, no mail, and never time().  The store keeps
 * the events (struct ladder_event is their in-memory form); the service
 * replays them into a struct ladder_standing, checks a command against
 * it, records the new event and applies it.  Every function that needs
 * the time is given it (`now`, epoch seconds).
 *
 * Places: 1 is the top.  A player joins at the bottom; a player who
 * leaves (or is withdrawn) frees their place and everyone below moves up
 * one.  What a result does (ladder_apply), with the positions at the
 * moment the result is recorded, not those of the challenge:
 *   - the challenger wins (normal, on time, or a walkover): with
 *     LADDER_WIN_TAKE (the default) the challenger takes the defender's
 *     place and the defender and everyone between move down one; with
 *     LADDER_WIN_SWAP the two swap places and those between stay.  A
 *     challenger who is already above the defender (another result moved
 *     them past) keeps their place: nothing moves;
 *   - the defender wins: nothing moves, unless the challenger lost on
 *     time: then the challenger drops time_loss_drop places (at most to
 *     the bottom), those passed move up one;
 *   - a draw or a cancelled challenge: nothing moves;
 *   - either player is no longer a member (left, withdrawn, while the
 *     game ran): nothing moves.  The one who stayed already rose a place
 *     if the leaver was above them; the leaver's result is void for the
 *     places.
 * Two challenges against the same defender therefore finish in a
 * well-defined way whatever their order: each result moves the players
 * from where the earlier results left them.
 * The effect of a result (win mode, time_loss_drop) and the acceptance
 * deadline are those in force when the challenge was made: the
 * CHALLENGED event carries them (ladder_challenge_event), so a reload
 * that changes the rules never changes a game in progress nor the
 * replay of the past.
 *
 * Every result closes the challenge (both players' open counts go down)
 * and, but for a cancelled one, starts the rematch wait between the two.
 * A walkover is the service's to record (RESULT, LADDER_RESULT_WALKOVER,
 * the challenger the winner) when ladder_due_walkovers names the game,
 * and also when the defender declines: declining is not a way to keep a
 * place.  Cancelled is for the challenger taking back an unaccepted
 * challenge, or the operator.
 *
 * Errors are codes (enum ladder_error) plus the numbers behind them in
 * a struct ladder_fault; ladder_error_name() gives a code word.  The
 * words players read belong in templates/.
 */
#ifndef ASHES_SERVER_LADDER_H
#define ASHES_SERVER_LADDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LADDER_DAY ((int64_t)86400)
/* A deadline that never comes (accept_within 0). */
#define LADDER_NEVER INT64_MAX

/* Bounds of the rules' numbers (ladder_rules_check). */
#define LADDER_MAX_RANGE 1000           /* challenge_range in places */
#define LADDER_MAX_OPEN 100             /* max_out, max_in */
#define LADDER_MAX_WAIT (365 * LADDER_DAY) /* every duration */

/* What a challenger's win does to the places. */
enum ladder_win {
	LADDER_WIN_TAKE = 0, /* "take": the defender's place; those between
			      * and the defender move down one */
	LADDER_WIN_SWAP,     /* "swap": the two swap, those between stay */
};

struct ladder_rules {
	/* How far up a player may challenge: challenge_range places above
	 * (1..LADDER_MAX_RANGE), or, if range_percent, challenge_range per
	 * cent (1..100) of the ladder's size at the time, rounded up and at
	 * least 1 place. */
	int challenge_range;
	bool range_percent;
	int max_out;            /* open challenges a player has made */
	int max_in;             /* open challenges a player has received */
	int64_t rematch_wait;   /* seconds after a result before the same
				 * two meet again; 0: none */
	int64_t accept_within;  /* seconds a defender has to accept; then a
				 * walkover.  0: no deadline */
	int time_loss_drop;     /* places a challenger losing on time drops
				 * (0..LADDER_MAX_RANGE) */
	int64_t absence_withdraw; /* seconds without activity before a
				   * member is withdrawn; 0: never */
	enum ladder_win win;
};

enum ladder_event_kind {
	LADDER_EVENT_JOINED = 1, /* player: at the bottom */
	LADDER_EVENT_LEFT,       /* player: by their own `ladder leave` */
	LADDER_EVENT_WITHDRAWN,  /* player: absent, removed by the config
				  * or the operator */
	LADDER_EVENT_CHALLENGED, /* player challenges other, in game */
	LADDER_EVENT_ACCEPTED,   /* game: the defender accepted */
	LADDER_EVENT_RESULT,     /* game ended: result, player won */
	LADDER_EVENT_MOVED,      /* player set to position by the operator */
};

enum ladder_result {
	LADDER_RESULT_NORMAL = 0, /* won on the board, or by resignation */
	LADDER_RESULT_TIME,       /* the loser's flag fell */
	LADDER_RESULT_WALKOVER,   /* not accepted in time, or declined: the
				   * challenger wins */
	LADDER_RESULT_DRAW,
	LADDER_RESULT_CANCELLED,  /* no game: nothing moves, no rematch wait */
};

/* One entry of a ladder's log.  Only the fields of its kind are used;
 * the others are 0.  Players are ids > 0, games ids > 0. */
struct ladder_event {
	enum ladder_event_kind kind;
	int64_t at;     /* epoch seconds */
	/* JOINED, LEFT, WITHDRAWN, MOVED: the player; CHALLENGED: the
	 * challenger; RESULT: the winner (draw, cancelled: 0 or either) */
	int64_t player;
	/* CHALLENGED: the defender; RESULT: the loser (draw, cancelled: 0
	 * or the other) */
	int64_t other;
	int64_t game;   /* CHALLENGED, ACCEPTED, RESULT */
	enum ladder_result result; /* RESULT */
	int position;   /* MOVED: the new place, 1..size */
	/* CHALLENGED: the rules the challenge is played under */
	int64_t accept_by;  /* a walkover at or after this; LADDER_NEVER */
	enum ladder_win win;
	int time_loss_drop;
};

/* A member, in place order. */
struct ladder_member {
	int64_t player;
	int64_t joined_at;  /* the JOINED event (the latest, after a return) */
	int out, in;        /* open challenges made and received */
};

/* An open challenge: made, not yet ended by a RESULT. */
struct ladder_challenge {
	int64_t game;
	int64_t challenger, defender;
	int64_t at;         /* challenged */
	bool accepted;
	int64_t accept_by;  /* from the event */
	enum ladder_win win;
	int time_loss_drop;
};

/* When two players last finished a game (a < b): the rematch wait. */
struct ladder_pair {
	int64_t a, b;
	int64_t last_result;
};

/* The ladder after a log: members[i] is at place i + 1.  Read the
 * fields; change it only with ladder_apply. */
struct ladder_standing {
	struct ladder_member *members;
	size_t nmembers;
	struct ladder_challenge *open; /* in the order they were made */
	size_t nopen;
	struct ladder_pair *pairs;     /* in the order first met */
	size_t npairs;
	size_t nevents;                /* events applied */
	size_t members_cap, open_cap, pairs_cap;
};

/* Every reason this module refuses something; the comment names the
 * fields of struct ladder_fault that say more. */
enum ladder_error {
	LADDER_OK = 0,
	/* ladder_rules_check: field, value, min, max */
	LADDER_ERR_RULE_RANGE,
	/* challenges (ladder_check_challenge, in this order) */
	LADDER_ERR_NOT_MEMBER,          /* value: the player */
	LADDER_ERR_SELF,
	LADDER_ERR_DEFENDER_NOT_MEMBER, /* value: the defender */
	LADDER_ERR_ALREADY_CHALLENGED,  /* game: the open one */
	LADDER_ERR_OUT_OF_RANGE,        /* place: the challenger's,
					 * defender_place, max: the range in
					 * places (a defender below is out of
					 * range too) */
	LADDER_ERR_TOO_MANY_OUT,        /* value: open, max: max_out */
	LADDER_ERR_TOO_MANY_IN,         /* value: open, max: max_in */
	LADDER_ERR_REMATCH_WAIT,        /* value: the last result's time,
					 * until: the first second allowed */
	/* acceptance (ladder_check_accept) */
	LADDER_ERR_UNKNOWN_GAME,        /* game: no open challenge is it */
	LADDER_ERR_NOT_DEFENDER,        /* value: the player, game */
	LADDER_ERR_ALREADY_ACCEPTED,    /* game */
	LADDER_ERR_TOO_LATE,            /* until: the deadline passed */
	/* events (ladder_apply, ladder_replay: index) */
	LADDER_ERR_ALREADY_MEMBER,      /* value: the player */
	LADDER_ERR_DUPLICATE_GAME,      /* game: already open */
	LADDER_ERR_WRONG_PLAYERS,       /* game: a result naming others */
	LADDER_ERR_POSITION_RANGE,      /* value: the place; min 1, max */
	LADDER_ERR_BAD_EVENT,           /* unknown kind or result, id <= 0 */
};

struct ladder_fault {
	enum ladder_error error;
	const char *field;   /* LADDER_ERR_RULE_RANGE: the rule's config key */
	int64_t value;       /* the number at fault, or 0 */
	int64_t min, max;    /* its accepted range, or 0 */
	int place, defender_place; /* LADDER_ERR_OUT_OF_RANGE */
	int64_t until;       /* LADDER_ERR_REMATCH_WAIT, LADDER_ERR_TOO_LATE */
	int64_t game;        /* the game concerned, or 0 */
	size_t index;        /* ladder_replay: the event at fault */
};

/* Code words: "ok", "out_of_range", ...; "unknown" for a code not in the
 * table.  Event kinds "joined", "left", "withdrawn", "challenged",
 * "accepted", "result", "moved"; results "normal", "time", "walkover",
 * "draw", "cancelled"; win modes "take", "swap". */
const char *ladder_error_name(enum ladder_error error);
const char *ladder_event_kind_name(enum ladder_event_kind kind);
const char *ladder_result_name(enum ladder_result result);
const char *ladder_win_name(enum ladder_win win);
/* The reverse of the names above (exact, lower case): 0 and *_r, or -1
 * for a word not in the table (the store reads its rows; the config
 * reads `win = take`). */
int ladder_event_kind_parse(const char *word, enum ladder_event_kind *kind_r);
int ladder_result_parse(const char *word, enum ladder_result *result_r);
int ladder_win_parse(const char *word, enum ladder_win *win_r);

/* --- Rules --- */

/* The defaults, as ashesd.conf(5) documents them: challenge_range 5
 * places, max_out 5, max_in 5, rematch_wait 7 days, accept_within 7
 * days, time_loss_drop 1, absence_withdraw 30 days, win take. */
void ladder_rules_default(struct ladder_rules *rules_r);
/* 0 if every rule is in range, else -1 and *fault_r (may be NULL):
 * LADDER_ERR_RULE_RANGE with field the config key ("challenge_range",
 * "max_out", "max_in", "rematch_wait", "accept_within",
 * "time_loss_drop", "absence_withdraw", "win"), value, min and max; the
 * first in that order.  Only the tests call it: the configuration bounds
 * each key itself (config_clubs.c). */
int ladder_rules_check(const struct ladder_rules *rules,
		       struct ladder_fault *fault_r);
/* The range in places for a ladder of size members: at least 1. */
int ladder_range_places(const struct ladder_rules *rules, size_t size);

/* --- The log --- */

/* A CHALLENGED event at now under rules: the acceptance deadline (now +
 * accept_within, or LADDER_NEVER), the win mode and time_loss_drop. */
void ladder_challenge_event(const struct ladder_rules *rules,
			    int64_t challenger, int64_t defender,
			    int64_t game, int64_t now,
			    struct ladder_event *event_r);

/* Free *standing (NULL is fine) and set it to NULL. */
void ladder_standing_free(struct ladder_standing **standing);

/* Apply one event.  0, or -1 and *fault_r with the standing unchanged
 * if the event cannot follow the log so far: a JOINED member
 * (ALREADY_MEMBER), LEFT/WITHDRAWN/MOVED of a non-member (NOT_MEMBER), a
 * CHALLENGED with a non-member (NOT_MEMBER, DEFENDER_NOT_MEMBER), with
 * oneself (SELF) or a game already open (DUPLICATE_GAME), an ACCEPTED or
 * RESULT of a game not open (UNKNOWN_GAME), an ACCEPTED twice
 * (ALREADY_ACCEPTED), a RESULT naming players other than the challenge's
 * or a walkover not won by the challenger (WRONG_PLAYERS), a MOVED
 * outside 1..size (POSITION_RANGE), anything malformed (BAD_EVENT).
 * The rules of a challenge (range, limits, waits) are not checked here:
 * the log is what happened, ladder_check_challenge what may happen. */
int ladder_apply(struct ladder_standing *standing,
		 const struct ladder_event *event,
		 struct ladder_fault *fault_r);
/* The standing after events[0..n), in order: 0 and *standing_r (the
 * caller frees it), or -1, *standing_r NULL and *fault_r as
 * ladder_apply's, index the event at fault.  The same log always gives
 * the same standing. */
int ladder_replay(const struct ladder_event *events, size_t n,
		  struct ladder_standing **standing_r,
		  struct ladder_fault *fault_r);

/* player's place (1 = top), or 0 if not a member. */
int ladder_position(const struct ladder_standing *standing, int64_t player);
/* The open challenge of game, or NULL. */
const struct ladder_challenge *
ladder_open_challenge(const struct ladder_standing *standing, int64_t game);
/* When a and b last finished a game (any result but cancelled), or -1
 * if never.  Outside ladder.c (the rematch wait) only the tests read it:
 * a result's replay is checked through it. */
int64_t ladder_last_result(const struct ladder_standing *standing,
			   int64_t a, int64_t b);

/* --- Checks --- */

/* May challenger challenge defender at now?  0, or -1 and *fault_r with
 * the first fault in the order of enum ladder_error: a challenger not a
 * member, oneself, a defender not a member, an open challenge between
 * the two either way, a defender not above within the range, the
 * challenger's open challenges at max_out, the defender's at max_in,
 * a result between the two less than rematch_wait ago (until =
 * last + rematch_wait: from then on it is allowed). */
int ladder_check_challenge(const struct ladder_rules *rules,
			   const struct ladder_standing *standing,
			   int64_t challenger, int64_t defender, int64_t now,
			   struct ladder_fault *fault_r);
/* Whom player may challenge at now: the members ladder_check_challenge
 * allows, top first, into out (room for standing->nmembers), *n_r
 * their number (maybe 0).  -1 and *fault_r (*n_r 0) if player may
 * challenge nobody for a reason of their own: not a member
 * (NOT_MEMBER) or at max_out (TOO_MANY_OUT). */
int ladder_challengeable(const struct ladder_rules *rules,
			 const struct ladder_standing *standing,
			 int64_t player, int64_t now, int64_t *out,
			 size_t *n_r, struct ladder_fault *fault_r);
/* May player accept the challenge of game at now?  0, or -1 and
 * *fault_r: UNKNOWN_GAME, NOT_DEFENDER, ALREADY_ACCEPTED, TOO_LATE
 * (now >= accept_by: it is a walkover now). */
int ladder_check_accept(const struct ladder_standing *standing,
			int64_t game, int64_t player, int64_t now,
			struct ladder_fault *fault_r);
/* The games of the open challenges not accepted by their deadline at
 * now (now >= accept_by), in the order they were made, into out (room
 * for standing->nopen); returns their number.  The service records a
 * RESULT walkover, the challenger the winner, for each. */
size_t ladder_due_walkovers(const struct ladder_standing *standing,
			    int64_t now, int64_t *out);
/* The members absent at now: last_active[i] is the last activity of
 * members[i] (a move, a challenge, an acceptance: the caller's, with
 * vacation time already left out, e.g. moved later by the vacation's
 * length); a member's joined_at counts as activity too.  A member is
 * absent when now >= max(last_active, joined_at) + absence_withdraw.
 * Their ids, top first, into out (room for standing->nmembers); returns
 * their number (0 if absence_withdraw is 0).  The caller records a
 * WITHDRAWN event for each. */
size_t ladder_absent(const struct ladder_rules *rules,
		     const struct ladder_standing *standing,
		     const int64_t *last_active, int64_t now, int64_t *out);

#endif
