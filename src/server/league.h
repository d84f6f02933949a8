/* league.h -- round-robin leagues: players split into groups by seed,
 * the pairings of a group (every pair once, colours balanced), a group's
 * standings with their tie-breaks, promotion and relegation at a
 * season's end, and which season a time falls in.
 *
 * Pure: no I/O, no store, no mail, never time(), no randomness.  The
 * caller owns every array; players are ids (int64_t) or indices into a
 * group, top seed first.  Errors are codes (enum league_error) plus the
 * numbers behind them in a struct league_fault; league_error_name()
 * gives a code word.  The words players read belong in templates/.
 *
 * Divisions: the groups are ordered, group 0 (the top seeds) is the
 * first division, group k the division k + 1; each group is its own
 * division.  At a season's end the top `promote` of each group but the
 * first go up one group and the bottom `relegate` of each group but the
 * last go down one (league_next_season).
 *
 * Points: a win 2, a draw 1, a loss 0 (the 1 / ½ / 0 of the mails,
 * doubled so that all sums are whole).  A game lost on time or by
 * forfeit is a loss; a game not played (yet) counts for nobody.
 * Ties on points are broken, in this order (league_standings):
 *   1. head-to-head: the points scored in the games among the players
 *      tied on points (all of them, once; not again among those still
 *      tied);
 *   2. Sonneborn-Berger: for every game, the points the player scored in
 *      it times the opponent's total points (so the sum of the beaten
 *      opponents' points twice and the drawn ones' once);
 *   3. the number of wins;
 *   4. the seed: the better (lower) index in the group.  Never random.
 */
#ifndef ASHES_SERVER_LEAGUE_H
#define ASHES_SERVER_LEAGUE_H

#include <stddef.h>
#include <stdint.h>

#define LEAGUE_DAY ((int64_t)86400)

#define LEAGUE_WIN_POINTS 2
#define LEAGUE_DRAW_POINTS 1

/* Bounds of the rules' numbers (league_rules_check). */
#define LEAGUE_MIN_GROUP 2
#define LEAGUE_MAX_GROUP 64
#define LEAGUE_MIN_SEASON LEAGUE_DAY
#define LEAGUE_MAX_SEASON (3660 * LEAGUE_DAY)

struct league_rules {
	int group_size;        /* players per group, 2..LEAGUE_MAX_GROUP */
	int promote;           /* up from each group at the season's end */
	int relegate;          /* down from each group */
	int64_t season_start;  /* epoch seconds: season 1 begins */
	int64_t season_length; /* seconds, LEAGUE_MIN..MAX_SEASON */
};

/* A group: players[first .. first + count) of the seed order. */
struct league_group {
	size_t first, count;
};

/* A game of a group's round robin: indices into the group. */
struct league_pairing {
	int round;   /* 1.. */
	size_t white, black;
};

enum league_outcome {
	LEAGUE_UNPLAYED = 0, /* not finished (yet): counts for nobody */
	LEAGUE_WHITE_WINS,
	LEAGUE_BLACK_WINS,
	LEAGUE_DRAW,
};

/* A game of a group and how it ended: indices into the group. */
struct league_game {
	size_t white, black;
	enum league_outcome outcome;
};

/* One line of a group's standings. */
struct league_row {
	size_t player;   /* index into the group (its seed, 0 = top) */
	int rank;        /* 1.., no two the same */
	int points;      /* LEAGUE_WIN_POINTS a win, LEAGUE_DRAW_POINTS... */
	int played, wins, draws, losses;
	int head_to_head; /* points among those tied with them on points */
	int64_t sonneborn_berger;
};

enum league_error {
	LEAGUE_OK = 0,
	LEAGUE_ERR_RULE_RANGE,    /* field: the config key; value, min, max */
	LEAGUE_ERR_TOO_FEW,       /* value: players, min: 2 */
	LEAGUE_ERR_NO_ROOM,       /* value: what was needed, max: the room */
	LEAGUE_ERR_PLAYER_RANGE,  /* value: an index, max: the last valid */
	LEAGUE_ERR_SELF,          /* value: a player paired with themself */
	LEAGUE_ERR_DUPLICATE_GAME, /* value, min: the two players */
	LEAGUE_ERR_BAD_OUTCOME,   /* value: the outcome */
	LEAGUE_ERR_BAD_STANDINGS, /* value: the group whose rows are not a
				   * ranking of its players */
};

struct league_fault {
	enum league_error error;
	const char *field; /* LEAGUE_ERR_RULE_RANGE */
	int64_t value;
	int64_t min, max;
};

/* "ok", "too_few", ...; "unknown" for a code not in the table. */
const char *league_error_name(enum league_error error);

/* --- Rules --- */

/* The defaults, as ashesd.conf(5) documents them: groups of 10 (Little
 * Golem plays 9-11), promote 2, relegate 2, seasons of 91 days (13
 * weeks) from season_start 0 (the caller sets the start date). */
void league_rules_default(struct league_rules *rules_r);
/* 0 if every rule is in range, else -1 and *fault_r (may be NULL):
 * LEAGUE_ERR_RULE_RANGE, field the key ("group_size", "promote",
 * "relegate", "season_start", "season_length"), value, min, max.
 * promote and relegate are 0..group_size / 2 each, so that nobody is
 * both promoted and relegated in a full group.  Only the tests call it
 * (and tests/server/cases_input.c, on a case's [league]): the
 * configuration bounds each key itself (config_clubs.c). */
int league_rules_check(const struct league_rules *rules,
		       struct league_fault *fault_r);

/* --- Groups --- */

/* Split nplayers (in seed order) into groups of group_size: groups of
 * exactly group_size from the top, and the rest balanced over the last
 * two groups, so that no group is smaller than 2:
 *   - nplayers <= group_size: one group of all;
 *   - else g = ceil(nplayers / group_size) groups; the first g - 2 hold
 *     group_size each; the last two share the rest, the larger first
 *     (23 by 10: 10, 7, 6; 21 by 10: 10, 6, 5; 12 by 10: 6, 6);
 *   - if that would leave a group of 1 (only for group_size 2 and an
 *     odd count), the last two are one group of 3 (5 by 2: 2, 3).
 * So every group has 2..group_size players, but for that group of 3.
 * Into groups_r (room for max_groups; nplayers / 2 always suffice), the
 * number into *ngroups_r.  -1 and *fault_r: fewer than 2 players
 * (TOO_FEW), group_size below 2 (RULE_RANGE, field "group_size"), no
 * room (NO_ROOM). */
int league_groups(size_t nplayers, int group_size,
		  struct league_group *groups_r, size_t max_groups,
		  size_t *ngroups_r, struct league_fault *fault_r);

/* --- A group's games --- */

/* The number of games of a group of count: count * (count - 1) / 2. */
size_t league_game_count(size_t count);
/* The round robin of a group of count (>= 2) by the circle method:
 * count - 1 rounds (count rounds, one player sitting out each, for an
 * odd count), every pair exactly once, and each player's whites and
 * blacks differ by at most one (by none for an odd count).  Into
 * pairings_r (room for league_game_count(count)) in round order;
 * returns their number (0 for count < 2). */
size_t league_pairings(size_t count, struct league_pairing *pairings_r);

/* The standings of a group of count players from its games (indices
 * into the group; unplayed ones count for nobody), into rows_r (room
 * for count) in rank order, with the tie-breaks of the header.  -1 and
 * *fault_r: an index >= count (PLAYER_RANGE), a game with oneself
 * (SELF), a pair that met twice (DUPLICATE_GAME), an unknown outcome
 * (BAD_OUTCOME). */
int league_standings(size_t count, const struct league_game *games,
		     size_t ngames, struct league_row *rows_r,
		     struct league_fault *fault_r);

/* --- Seasons --- */

/* The next season's seed order from this one's: players (this season's
 * seed order, nplayers), its groups, and rows: for each group g its
 * count rows in rank order at rows[groups[g].first ...] (as
 * league_standings gives them; player indices into the group).  Group
 * by group, top first: those relegated from the group above (by rank),
 * those who stay (by rank), those promoted from the group below (by
 * rank).  In a group of count, rank r goes up if r <= promote (not from
 * the first group), else down if r > count - relegate (not from the
 * last group).  Into order_r (room for nplayers).  The caller drops
 * those who left, adds newcomers at the end, and splits the order with
 * league_groups; group sizes are kept, so when more come up to a group
 * than go down from it the lowest newcomers stay where they were.  -1
 * and *fault_r (BAD_STANDINGS, value the group) if the rows of a group
 * are not a ranking of its players or the groups are not consecutive
 * slices of all the players (value ngroups: they do not reach the
 * end), or RULE_RANGE for a negative promote or relegate. */
int league_next_season(const int64_t *players, size_t nplayers,
		       const struct league_group *groups, size_t ngroups,
		       const struct league_row *rows, int promote,
		       int relegate, int64_t *order_r,
		       struct league_fault *fault_r);

/* The season that t falls in: 0 before season_start, else 1 + the
 * whole season_lengths since then. */
int64_t league_season_of(const struct league_rules *rules, int64_t t);
/* The first second of season (>= 1); a season ends where the next
 * begins. */
int64_t league_season_start(const struct league_rules *rules,
			    int64_t season);

#endif
