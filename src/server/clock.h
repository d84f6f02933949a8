/* clock.h -- the clock arithmetic of correspondence games: time controls
 * (their text, as a `challenge` option and a config default write them),
 * one game's two clocks, weekends off in each player's time zone, pauses
 * (vacations) and the vacation bank that can save a falling flag.
 *
 * Pure: no I/O but the zone files, no store, no mail, and never time().
 * Every function that needs the time is given it (`now`, epoch seconds),
 * so tests and the service decide what "now" is.  Time is charged from
 * the daemon's receipt of a mail, never from a signature's own time: the
 * caller passes that receipt time as `now` when it charges a move.
 *
 * Errors are codes (enum clock_error) plus the numbers behind them in a
 * struct clock_fault; clock_error_name() gives a code word.  The words
 * players read belong in templates/.
 *
 * Not thread-safe: weekends in a player's zone are computed with libc's
 * tz database by setting TZ for the length of one call (and restoring
 * it).  The daemon is single-threaded.
 */
#ifndef ASHES_SERVER_CLOCK_H
#define ASHES_SERVER_CLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/core.h"

struct tm;

#define CLOCK_HOUR ((int64_t)3600)
#define CLOCK_DAY ((int64_t)86400)
/* The year of vacation earnings: 365 days. */
#define CLOCK_YEAR (365 * CLOCK_DAY)
/* A deadline that never comes (no clock, not started, an endless pause). */
#define CLOCK_NEVER INT64_MAX

/* Bounds of a time control's numbers: Fischer in whole hours up to a
 * year, days per move as lichess offers them. */
#define CLOCK_MAX_HOURS 8760
#define CLOCK_MIN_DAYS 1
#define CLOCK_MAX_DAYS 14
/* A clock never holds more than this (ten years), whatever is added. */
#define CLOCK_MAX_REMAINING (3660 * CLOCK_DAY)
/* The longest spec, NUL included: the size of a command option value. */
#define CLOCK_SPEC_MAX 32
/* The longest zone name, NUL included ("America/Argentina/ComodRivadavia"
 * is 32). */
#define CLOCK_ZONE_MAX 64
/* Pauses kept per player and game: the current and the booked ones. */
#define CLOCK_MAX_PAUSES 8

enum clock_kind {
	CLOCK_KIND_NONE = 0, /* "none": no clock */
	CLOCK_KIND_FISCHER,  /* "fischer:240h+36h/240h", the cap optional */
	CLOCK_KIND_DAYS,     /* "days:3": a fixed time per move */
};

/* Every reason this module refuses something.  value, min and max of
 * struct clock_fault say which number and what range, where one is at
 * fault (the comment names them). */
enum clock_error {
	CLOCK_OK = 0,
	CLOCK_ERR_EMPTY,           /* an empty spec */
	CLOCK_ERR_TOO_LONG,        /* value: its length; max: the longest */
	CLOCK_ERR_UNKNOWN_KIND,    /* not fischer:, days: or none */
	CLOCK_ERR_SYNTAX,          /* a known kind, malformed after it */
	CLOCK_ERR_UNIT,            /* a Fischer time not in hours ("240",
				    * "10d"); value: the number */
	CLOCK_ERR_DAYS_RANGE,      /* value: the days; min, max */
	CLOCK_ERR_INITIAL_RANGE,   /* value: the hours; min, max */
	CLOCK_ERR_INCREMENT_RANGE, /* value: the hours; min, max */
	CLOCK_ERR_CAP_RANGE,       /* value: the cap; min: the initial time,
				    * max */
	CLOCK_ERR_WEEKENDS,        /* `weekends=` neither on nor off */
	CLOCK_ERR_ZONE_SYNTAX,     /* not a zone name (empty, "../x", too
				    * long: value, max) */
	CLOCK_ERR_ZONE_UNKNOWN,    /* no such zone in the tz database */
	CLOCK_ERR_NOT_STARTED,     /* a move charged before clock_start */
	CLOCK_ERR_STARTED,         /* clock_start on a running clock */
	CLOCK_ERR_FLAG_FELL,       /* a move charged at or after the
				    * deadline; value: the deadline */
	CLOCK_ERR_NO_CLOCK,        /* time added to a game without clock */
	CLOCK_ERR_PAUSE_RANGE,     /* a pause that ends before it starts */
	CLOCK_ERR_TOO_MANY_PAUSES, /* max: CLOCK_MAX_PAUSES */
	CLOCK_ERR_ADJUST_RANGE,    /* a clock taken below 0 or above the
				    * most: value: the result; min, max */
	CLOCK_ERR_BANK_SHORT,      /* value: the days asked; max: the balance */
	CLOCK_ERR_BAD_ARGUMENT,    /* a caller's mistake (invalid control) */
};

struct clock_fault {
	enum clock_error error;
	int64_t value;    /* the number at fault, or 0 */
	int64_t min, max; /* its accepted range, or 0 */
};

/* A time control.  Only the fields of its kind are used; the others are
 * 0.  weekends_off is the separate `weekends=off` option. */
struct clock_control {
	enum clock_kind kind;
	int initial_hours;   /* fischer: 1..CLOCK_MAX_HOURS */
	int increment_hours; /* fischer: 0..CLOCK_MAX_HOURS, added per move */
	int cap_hours;       /* fischer: 0 (no cap) or initial..MAX_HOURS */
	int days;            /* days: CLOCK_MIN_DAYS..CLOCK_MAX_DAYS */
	bool weekends_off;   /* no time charged Saturday and Sunday */
};

/* [from, to): epoch seconds; to may be CLOCK_NEVER. */
struct clock_interval {
	int64_t from, to;
};

struct clock_player {
	/* Seconds left: for the player to move, at the start of the turn
	 * (clock_remaining() gives it at any moment); for the other, as
	 * their last move left it. */
	int64_t remaining;
	/* The IANA zone whose Saturday and Sunday are not charged when
	 * weekends are off; "" is UTC. */
	char zone[CLOCK_ZONE_MAX];
	/* Times not charged to this player (vacations), sorted, disjoint. */
	struct clock_interval pauses[CLOCK_MAX_PAUSES];
	size_t npauses;
};

/* One game's clocks.  Plain data: copy it, store its fields. */
struct clock_state {
	struct clock_control control;
	struct clock_player player[2]; /* by enum core_color */
	enum core_color to_move;
	bool started;                  /* clock_start was called */
	/* When the turn of to_move began: the receipt of the mail that
	 * ended the previous turn (or the start). */
	int64_t turn_started;
};

/* The vacation bank's rules, from the configuration. */
struct clock_vacation_policy {
	int start_days;    /* a new player's balance */
	int earn_per_year; /* days earned in 365 days, spread evenly */
	int cap_days;      /* the most a bank holds */
};

/* One player's vacation days. */
struct clock_bank {
	int days;           /* whole days left */
	int64_t accrued_at; /* earnings are counted up to here */
};

/* What clock_flag_check did. */
enum clock_flag {
	CLOCK_FLAG_OK = 0,    /* time left (or no clock): nothing happened */
	CLOCK_FLAG_VACATION,  /* vacation days spent, 24 h each, added */
	CLOCK_FLAG_FELL,      /* out of time: the game is lost on time */
};

/* Code words: "ok", "syntax", ..., "unknown" for a code not in the
 * table. */
const char *clock_error_name(enum clock_error error);

/* --- Time controls --- */

/* Parse a spec: "none", "days:N", "fischer:Ih+Jh" or "fischer:Ih+Jh/Kh"
 * (case is ignored, hours whole).  0 and *control_r (weekends_off false);
 * -1 and *fault_r (may be NULL) if malformed or out of range: the first
 * fault found, left to right, the ranges last. */
int clock_control_parse(const char *text, struct clock_control *control_r,
			struct clock_fault *fault_r);
/* The canonical spec of *control (without weekends_off) into buf, NUL
 * terminated: 0, or -1 if the control is invalid or size too small
 * (CLOCK_SPEC_MAX always suffices). */
int clock_control_format(const struct clock_control *control, char *buf,
			 size_t size);
/* `weekends=` VALUE: "off" sets *off_r, "on" clears it; -1 and
 * CLOCK_ERR_WEEKENDS otherwise. */
int clock_weekends_parse(const char *text, bool *off_r,
			 struct clock_fault *fault_r);
/* Seconds on each clock when a game starts (the period for days per
 * move); 0 for none. */
int64_t clock_control_initial(const struct clock_control *control);

/* --- Time zones --- */

/* 0 if zone names a zone of the tz database ($TZDIR, else
 * /usr/share/zoneinfo: a regular file starting with "TZif"); -1 with
 * CLOCK_ERR_ZONE_SYNTAX (not a name: empty, absolute, "..", odd
 * characters, too long, the leap-second "right/" zones, "localtime") or
 * CLOCK_ERR_ZONE_UNKNOWN.  Names are case-sensitive. */
int clock_zone_check(const char *zone, struct clock_fault *fault_r);

/* t as a local date and time in zone ("" or NULL: UTC; a zone that
 * does not exist: UTC), "2026-12-03 14:00 CET", into buf.  0, or -1 if
 * buf is too small. */
int clock_format_local(int64_t t, const char *zone, char *buf, size_t size);
/* t in zone as clock_format_local() takes it: the broken-down local
 * time into *tm_r and the zone's abbreviation ("CET", "UTC") into abbr.
 * 0, or -1. */
int clock_local_parts(int64_t t, const char *zone, struct tm *tm_r,
		      char *abbr, size_t abbr_size);
/* The first second of the civil day year-month-day in zone (as
 * clock_format_local takes it): 0 and *t_r, or -1 if there is no such
 * date (2027-02-30) or it is before 1970 or after 9999. */
int clock_local_day_start(const char *zone, int year, int month, int day,
			  int64_t *t_r);
/* The local day number (days since 1970-01-01) of t in zone. */
int64_t clock_local_day_of(const char *zone, int64_t t);
/* A daily event at local time `minute` (minutes after midnight, 0 ..
 * 1439) on local day number `day` in zone (as clock_format_local takes
 * it): the first instant of that day at which the local clock reads that
 * time or later.  So a time a spring-forward gap skips falls at the
 * gap's end, a time an autumn night has twice falls at its first, and a
 * day has 23 or 25 hours across a change. */
int64_t clock_daily_at(const char *zone, int64_t day, int minute);
/* The next daily event at `minute` in zone: the first clock_daily_at()
 * at or after `from` on a local day after the one of `last` (0: no
 * last), so that there is one a local day at most. */
int64_t clock_daily_next(const char *zone, int minute, int64_t from,
			 int64_t last);

/* --- One game's clocks --- */

/* Both clocks at the control's initial time, not started, zones UTC, no
 * pauses, White to move.  -1 (CLOCK_ERR_BAD_ARGUMENT) if the control is
 * invalid. */
int clock_init(struct clock_state *state, const struct clock_control *control,
	       struct clock_fault *fault_r);
/* The zone of side's weekends ("" or NULL: UTC).  -1 as clock_zone_check
 * (the zone unchanged). */
int clock_set_zone(struct clock_state *state, enum core_color side,
		   const char *zone, struct clock_fault *fault_r);
/* The first move is due: to_move's clock runs from now.  -1
 * (CLOCK_ERR_STARTED) if already started. */
int clock_start(struct clock_state *state, enum core_color to_move,
		int64_t now, struct clock_fault *fault_r);
/* The player to move moved; now is the receipt of their mail.  Their
 * clock loses the chargeable time since the turn started; Fischer adds
 * the increment (up to the cap, which never takes time away); days per
 * move refills the period.  Then the other player is to move from now.
 * -1 and the state unchanged if not started (CLOCK_ERR_NOT_STARTED) or
 * if the flag has fallen at now (CLOCK_ERR_FLAG_FELL: check the flag
 * first, see clock_flag_check).  A game without clock only changes
 * turns.  A now before the turn started charges nothing. */
int clock_charge(struct clock_state *state, int64_t now,
		 struct clock_fault *fault_r);
/* The chargeable seconds of the player to move from the turn's start to
 * now: wall time less their pauses and (weekends off) the Saturdays and
 * Sundays of their zone.  0 if not started or no clock. */
int64_t clock_elapsed(const struct clock_state *state, int64_t now);
/* side's seconds left at now (not below 0).  The player not to move has
 * what their last move left. */
int64_t clock_remaining(const struct clock_state *state, enum core_color side,
			int64_t now);
/* The epoch second at which the flag of the player to move falls: the
 * first moment their chargeable time reaches what they had, skipping
 * weekends and pauses.  A move received one second earlier is in time.
 * CLOCK_NEVER without clock, before the start, or in an endless pause. */
int64_t clock_deadline(const struct clock_state *state);
/* Whether the flag of the player to move has fallen at now: now >=
 * clock_deadline(). */
bool clock_flag_fallen(const struct clock_state *state, int64_t now);

/* side is away (on vacation) over [from, to): none of it is charged to
 * them, in whichever turn it falls.  A pause freezes a clock, never
 * refills it.  Overlapping and touching pauses merge; pauses over before
 * the turn started are dropped.  -1 if to <= from
 * (CLOCK_ERR_PAUSE_RANGE) or there is no room
 * (CLOCK_ERR_TOO_MANY_PAUSES), the state unchanged. */
int clock_pause_add(struct clock_state *state, enum core_color side,
		    int64_t from, int64_t to, struct clock_fault *fault_r);
/* Add seconds (negative: take) to side's clock: an operator's
 * adjustment, or a vacation day spent for another game of the player
 * (Little Golem adds the 24 h to all their games).  Not capped.  -1 if
 * the game has no clock (CLOCK_ERR_NO_CLOCK) or the result would be
 * below 0 or above CLOCK_MAX_REMAINING (CLOCK_ERR_ADJUST_RANGE). */
int clock_add_time(struct clock_state *state, enum core_color side,
		   int64_t seconds, struct clock_fault *fault_r);

/* --- Vacation --- */

/* A new player's bank: the policy's start days (at most its cap),
 * earning from now. */
void clock_bank_open(struct clock_bank *bank,
		     const struct clock_vacation_policy *policy, int64_t now);
/* Add the whole days earned up to now, up to the cap (days earned while
 * the bank is full are lost).  A bank never loses days here. */
void clock_bank_accrue(struct clock_bank *bank,
		       const struct clock_vacation_policy *policy, int64_t now);
/* Accrue, then take days (>= 1) from the bank: `vacation 5`.  -1 and
 * CLOCK_ERR_BANK_SHORT (value: days, max: the balance) if it has fewer,
 * CLOCK_ERR_BAD_ARGUMENT if days < 1; the bank is accrued either way. */
int clock_bank_spend(struct clock_bank *bank,
		     const struct clock_vacation_policy *policy, int days,
		     int64_t now, struct clock_fault *fault_r);

/* The timer's question at now: has the flag of the player to move
 * fallen?  If it has and bank is not NULL (auto_vacation, and the game
 * allows vacation), spend the days needed to bring the clock back above
 * 0 (24 h each, usually one) if the bank has them all: they are added to
 * the clock and *days_spent_r says how many; the caller tells the
 * players and adds the same time to the player's other games
 * (clock_add_time).  Else the flag fell: the bank is not touched.
 * days_spent_r may be NULL. */
enum clock_flag clock_flag_check(struct clock_state *state,
				 struct clock_bank *bank,
				 const struct clock_vacation_policy *policy,
				 int64_t now, int *days_spent_r);

#endif
