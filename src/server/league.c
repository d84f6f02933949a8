/* league.c -- round-robin groups, pairings, standings with tie-breaks,
 * promotion and relegation, season arithmetic; see league.h. */
#include <config.h> /* autoconf's: _GNU_SOURCE */

#include "server/league.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

static const char *const league_error_names[] = {
	[LEAGUE_OK] = "ok",
	[LEAGUE_ERR_RULE_RANGE] = "rule_range",
	[LEAGUE_ERR_TOO_FEW] = "too_few",
	[LEAGUE_ERR_NO_ROOM] = "no_room",
	[LEAGUE_ERR_PLAYER_RANGE] = "player_range",
	[LEAGUE_ERR_SELF] = "self",
	[LEAGUE_ERR_DUPLICATE_GAME] = "duplicate_game",
	[LEAGUE_ERR_BAD_OUTCOME] = "bad_outcome",
	[LEAGUE_ERR_BAD_STANDINGS] = "bad_standings",
};

const char *league_error_name(enum league_error error)
{
	size_t n = sizeof(league_error_names) / sizeof(league_error_names[0]);

	if ((unsigned)error >= n || league_error_names[error] == NULL)
		return "unknown";
	return league_error_names[error];
}

/* Set *fault_r (may be NULL); returns -1. */
static int fault(struct league_fault *fault_r, enum league_error error,
		 int64_t value, int64_t min, int64_t max)
{
	if (fault_r != NULL) {
		memset(fault_r, 0, sizeof(*fault_r));
		fault_r->error = error;
		fault_r->value = value;
		fault_r->min = min;
		fault_r->max = max;
	}
	return -1;
}

static int fault_range(struct league_fault *fault_r, const char *field,
		       int64_t value, int64_t min, int64_t max)
{
	fault(fault_r, LEAGUE_ERR_RULE_RANGE, value, min, max);
	if (fault_r != NULL)
		fault_r->field = field;
	return -1;
}

static void fault_clear(struct league_fault *fault_r)
{
	if (fault_r != NULL)
		memset(fault_r, 0, sizeof(*fault_r));
}

/* --- Rules --- */

void league_rules_default(struct league_rules *rules_r)
{
	memset(rules_r, 0, sizeof(*rules_r));
	rules_r->group_size = 10;
	rules_r->promote = 2;
	rules_r->relegate = 2;
	rules_r->season_start = 0;
	rules_r->season_length = 91 * LEAGUE_DAY;
}

int league_rules_check(const struct league_rules *r,
		       struct league_fault *fault_r)
{
	fault_clear(fault_r);
	if (r->group_size < LEAGUE_MIN_GROUP || r->group_size > LEAGUE_MAX_GROUP)
		return fault_range(fault_r, "group_size", r->group_size,
				   LEAGUE_MIN_GROUP, LEAGUE_MAX_GROUP);
	if (r->promote < 0 || r->promote > r->group_size / 2)
		return fault_range(fault_r, "promote", r->promote, 0,
				   r->group_size / 2);
	if (r->relegate < 0 || r->relegate > r->group_size / 2)
		return fault_range(fault_r, "relegate", r->relegate, 0,
				   r->group_size / 2);
	if (r->season_start < 0)
		return fault_range(fault_r, "season_start", r->season_start,
				   0, INT64_MAX);
	if (r->season_length < LEAGUE_MIN_SEASON ||
	    r->season_length > LEAGUE_MAX_SEASON)
		return fault_range(fault_r, "season_length",
				   r->season_length, LEAGUE_MIN_SEASON,
				   LEAGUE_MAX_SEASON);
	return 0;
}

/* --- Groups --- */

int league_groups(size_t nplayers, int group_size,
		  struct league_group *groups_r, size_t max_groups,
		  size_t *ngroups_r, struct league_fault *fault_r)
{
	size_t size = (size_t)group_size, g, i, rest;

	*ngroups_r = 0;
	fault_clear(fault_r);
	if (group_size < LEAGUE_MIN_GROUP)
		return fault_range(fault_r, "group_size", group_size,
				   LEAGUE_MIN_GROUP, LEAGUE_MAX_GROUP);
	if (nplayers < 2)
		return fault(fault_r, LEAGUE_ERR_TOO_FEW, (int64_t)nplayers, 2,
			     0);
	if (nplayers <= size) {
		if (max_groups < 1)
			return fault(fault_r, LEAGUE_ERR_NO_ROOM, 1, 0, 0);
		groups_r[0].first = 0;
		groups_r[0].count = nplayers;
		*ngroups_r = 1;
		return 0;
	}
	g = (nplayers + size - 1) / size;
	rest = nplayers - (g - 2) * size; /* the last two: size < rest */
	if (rest / 2 < 2) /* 3 players, groups of 2: one group of 3 */
		g--;
	if (g > max_groups)
		return fault(fault_r, LEAGUE_ERR_NO_ROOM, (int64_t)g, 0,
			     (int64_t)max_groups);
	for (i = 0; i < g; i++) {
		groups_r[i].first = i * size;
		groups_r[i].count = size;
	}
	if (rest / 2 < 2) {
		groups_r[g - 1].count = rest;
	} else {
		groups_r[g - 2].count = (rest + 1) / 2;
		groups_r[g - 1].first = groups_r[g - 2].first +
			groups_r[g - 2].count;
		groups_r[g - 1].count = rest / 2;
	}
	*ngroups_r = g;
	return 0;
}

/* --- Pairings --- */

size_t league_game_count(size_t count)
{
	return count < 2 ? 0 : count * (count - 1) / 2;
}

size_t league_pairings(size_t count, struct league_pairing *out)
{
	/* The circle method: with an even number m + 1 of places (a sit-out
	 * place added for an odd count), place m stays and the others turn
	 * round it.  In round r, m meets r, and (r + i) meets (r - i) mod m.
	 * The fixed place takes black in even rounds and white in odd
	 * ones; (r + i) always takes white: over the rounds every player
	 * is (r + i) as often as (r - i), give or take the game with m. */
	size_t places = count + (count % 2), m = places - 1, r, i, n = 0;
	size_t a, b;

	if (count < 2)
		return 0;
	for (r = 0; r < m; r++) {
		a = r % 2 == 0 ? r : m;
		b = r % 2 == 0 ? m : r;
		if (a < count && b < count) {
			out[n].round = (int)r + 1;
			out[n].white = a;
			out[n].black = b;
			n++;
		}
		for (i = 1; i < places / 2; i++) {
			a = (r + i) % m;
			b = (r + m - i) % m;
			if (a < count && b < count) {
				out[n].round = (int)r + 1;
				out[n].white = a;
				out[n].black = b;
				n++;
			}
		}
	}
	return n;
}

/* --- Standings --- */

/* The points white and black scored in g. */
static void game_points(const struct league_game *g, int *white_r,
			int *black_r)
{
	*white_r = *black_r = 0;
	switch (g->outcome) {
	case LEAGUE_WHITE_WINS:
		*white_r = LEAGUE_WIN_POINTS;
		break;
	case LEAGUE_BLACK_WINS:
		*black_r = LEAGUE_WIN_POINTS;
		break;
	case LEAGUE_DRAW:
		*white_r = *black_r = LEAGUE_DRAW_POINTS;
		break;
	case LEAGUE_UNPLAYED:
		break;
	}
}

static int check_games(size_t count, const struct league_game *games,
		       size_t ngames, struct league_fault *fault_r)
{
	bool *met = xzalloc(count * count);
	size_t i, w, b;
	int ret = -1;

	for (i = 0; i < ngames; i++) {
		w = games[i].white;
		b = games[i].black;
		if (w >= count || b >= count) {
			fault(fault_r, LEAGUE_ERR_PLAYER_RANGE,
			      (int64_t)(w >= count ? w : b), 0,
			      (int64_t)count - 1);
			goto out;
		}
		if (w == b) {
			fault(fault_r, LEAGUE_ERR_SELF, (int64_t)w, 0, 0);
			goto out;
		}
		if ((unsigned)games[i].outcome > LEAGUE_DRAW) {
			fault(fault_r, LEAGUE_ERR_BAD_OUTCOME,
			      games[i].outcome, 0, LEAGUE_DRAW);
			goto out;
		}
		if (met[w * count + b]) {
			fault(fault_r, LEAGUE_ERR_DUPLICATE_GAME, (int64_t)w,
			      (int64_t)b, 0);
			goto out;
		}
		met[w * count + b] = met[b * count + w] = true;
	}
	ret = 0;
out:
	free(met);
	return ret;
}

/* Rows better first: the order of the header. */
static int row_compare(const void *pa, const void *pb)
{
	const struct league_row *a = pa, *b = pb;

	if (a->points != b->points)
		return a->points > b->points ? -1 : 1;
	if (a->head_to_head != b->head_to_head)
		return a->head_to_head > b->head_to_head ? -1 : 1;
	if (a->sonneborn_berger != b->sonneborn_berger)
		return a->sonneborn_berger > b->sonneborn_berger ? -1 : 1;
	if (a->wins != b->wins)
		return a->wins > b->wins ? -1 : 1;
	return a->player < b->player ? -1 : a->player > b->player;
}

int league_standings(size_t count, const struct league_game *games,
		     size_t ngames, struct league_row *rows_r,
		     struct league_fault *fault_r)
{
	struct league_row *row = rows_r; /* by player index until sorted */
	const struct league_game *g;
	size_t i;
	int pw, pb;

	fault_clear(fault_r);
	if (check_games(count, games, ngames, fault_r) < 0)
		return -1;
	memset(row, 0, count * sizeof(*row));
	for (i = 0; i < count; i++)
		row[i].player = i;
	for (i = 0; i < ngames; i++) {
		g = &games[i];
		if (g->outcome == LEAGUE_UNPLAYED)
			continue;
		game_points(g, &pw, &pb);
		row[g->white].points += pw;
		row[g->black].points += pb;
		row[g->white].played++;
		row[g->black].played++;
		if (g->outcome == LEAGUE_DRAW) {
			row[g->white].draws++;
			row[g->black].draws++;
		} else {
			row[pw > pb ? g->white : g->black].wins++;
			row[pw > pb ? g->black : g->white].losses++;
		}
	}
	/* the tie-breaks need everyone's total first */
	for (i = 0; i < ngames; i++) {
		g = &games[i];
		if (g->outcome == LEAGUE_UNPLAYED)
			continue;
		game_points(g, &pw, &pb);
		row[g->white].sonneborn_berger +=
			(int64_t)pw * row[g->black].points;
		row[g->black].sonneborn_berger +=
			(int64_t)pb * row[g->white].points;
		if (row[g->white].points == row[g->black].points) {
			row[g->white].head_to_head += pw;
			row[g->black].head_to_head += pb;
		}
	}
	qsort(row, count, sizeof(*row), row_compare);
	for (i = 0; i < count; i++)
		row[i].rank = (int)i + 1;
	return 0;
}

/* --- Seasons --- */

/* Whether the count rows are a ranking of players 0..count-1 (each once,
 * ranks 1..count in order). */
static bool rows_valid(const struct league_row *rows, size_t count)
{
	bool *seen = xzalloc(count);
	bool ok = true;
	size_t i;

	for (i = 0; i < count && ok; i++) {
		if (rows[i].player >= count || seen[rows[i].player] ||
		    rows[i].rank != (int)i + 1)
			ok = false;
		else
			seen[rows[i].player] = true;
	}
	free(seen);
	return ok;
}

/* Where the player of rank (1..) in group k of ngroups goes: -1 up, 1
 * down, 0 stays. */
static int movement(size_t k, size_t ngroups, size_t count, size_t rank,
		    int promote, int relegate)
{
	if (k > 0 && rank <= (size_t)promote)
		return -1;
	if (k + 1 < ngroups && rank + (size_t)relegate > count)
		return 1;
	return 0;
}

/* Append to order_r at *n the players of group k moving by move. */
static void take(const int64_t *players, const struct league_group *groups,
		 size_t ngroups, const struct league_row *rows, size_t k,
		 int move, int promote, int relegate, int64_t *order_r,
		 size_t *n)
{
	const struct league_group *gr = &groups[k];
	size_t r;

	for (r = 0; r < gr->count; r++)
		if (movement(k, ngroups, gr->count, r + 1, promote,
			     relegate) == move)
			order_r[(*n)++] =
				players[gr->first + rows[gr->first + r].player];
}

int league_next_season(const int64_t *players, size_t nplayers,
		       const struct league_group *groups, size_t ngroups,
		       const struct league_row *rows, int promote,
		       int relegate, int64_t *order_r,
		       struct league_fault *fault_r)
{
	size_t k, n = 0;

	fault_clear(fault_r);
	if (promote < 0)
		return fault_range(fault_r, "promote", promote, 0, 0);
	if (relegate < 0)
		return fault_range(fault_r, "relegate", relegate, 0, 0);
	/* the groups are consecutive slices of all the players */
	for (k = 0; k < ngroups; k++) {
		if (groups[k].first != n ||
		    groups[k].first + groups[k].count > nplayers ||
		    !rows_valid(&rows[groups[k].first], groups[k].count))
			return fault(fault_r, LEAGUE_ERR_BAD_STANDINGS,
				     (int64_t)k, 0, 0);
		n += groups[k].count;
	}
	if (n != nplayers)
		return fault(fault_r, LEAGUE_ERR_BAD_STANDINGS,
			     (int64_t)ngroups, 0, 0);
	n = 0;
	for (k = 0; k < ngroups; k++) {
		if (k > 0)
			take(players, groups, ngroups, rows, k - 1, 1,
			     promote, relegate, order_r, &n);
		take(players, groups, ngroups, rows, k, 0, promote, relegate,
		     order_r, &n);
		if (k + 1 < ngroups)
			take(players, groups, ngroups, rows, k + 1, -1,
			     promote, relegate, order_r, &n);
	}
	return 0;
}

int64_t league_season_of(const struct league_rules *rules, int64_t t)
{
	if (t < rules->season_start || rules->season_length <= 0)
		return 0;
	return 1 + (t - rules->season_start) / rules->season_length;
}

int64_t league_season_start(const struct league_rules *rules, int64_t season)
{
	if (season < 1)
		season = 1;
	return rules->season_start + (season - 1) * rules->season_length;
}
