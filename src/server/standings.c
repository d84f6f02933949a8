/* standings.c -- an event's standings: points, then the tie-breaks in
 * the order the rules give, each one only among the players still tied;
 * see tournament.h. */
#include <config.h> /* autoconf's: _GNU_SOURCE */

#include "server/tournament.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* What p scored in the counted game g, in half points. */
static int game_score(const struct tournament_game *g, size_t p)
{
	if (g->outcome == TOURNAMENT_DRAWN)
		return TOURNAMENT_DRAW;
	if (g->outcome == TOURNAMENT_WHITE_WINS)
		return p == g->white ? TOURNAMENT_WIN : 0;
	if (g->outcome == TOURNAMENT_BLACK_WINS)
		return p == g->black ? TOURNAMENT_WIN : 0;
	return 0; /* a forfeit of both */
}

/* The tie-break t of player p that does not depend on who else is tied
 * (all but direct). */
static int64_t tiebreak_value(const struct tournament_state *s,
			      enum tournament_tiebreak t, size_t p)
{
	const struct tournament_game *g;
	int64_t sum = 0, lowest = INT64_MAX, opp;
	size_t i, o;
	bool any = false;

	switch (t) {
	case TOURNAMENT_TB_WINS:
		return s->players[p].wins;
	case TOURNAMENT_TB_RATING:
		return s->players[p].rating;
	case TOURNAMENT_TB_DIRECT:
		return 0;
	case TOURNAMENT_TB_BUCHHOLZ:
	case TOURNAMENT_TB_BUCHHOLZ_CUT1:
	case TOURNAMENT_TB_SONNEBORN_BERGER:
		break;
	}
	for (i = 0; i < s->ngames; i++) {
		g = &s->games[i];
		if (!g->counts || (g->white != p && g->black != p))
			continue;
		o = g->white == p ? g->black : g->white;
		opp = s->players[o].points;
		if (t == TOURNAMENT_TB_SONNEBORN_BERGER)
			sum += (int64_t)game_score(g, p) * opp;
		else
			sum += opp;
		if (opp < lowest)
			lowest = opp;
		any = true;
	}
	if (t == TOURNAMENT_TB_BUCHHOLZ_CUT1 && any)
		sum -= lowest;
	return sum;
}

/* Direct encounter among the players of rows[0..n): into each row's
 * tiebreak[k] the points scored against the others, if every two of
 * them met in a game that counts; else 0 for all. */
static void direct_values(const struct tournament_state *s,
			  struct tournament_row *rows, size_t n, size_t k)
{
	size_t np = s->nplayers, i, j;
	bool *in = xzalloc(np + 1), *met = xzalloc(np * np + 1);
	int64_t *points = xzalloc((np + 1) * sizeof(*points));
	const struct tournament_game *g;
	bool all = true;

	for (i = 0; i < n; i++)
		in[rows[i].player] = true;
	for (i = 0; i < s->ngames; i++) {
		g = &s->games[i];
		if (!g->counts || !in[g->white] || !in[g->black])
			continue;
		met[g->white * np + g->black] = met[g->black * np + g->white] =
			true;
		points[g->white] += game_score(g, g->white);
		points[g->black] += game_score(g, g->black);
	}
	for (i = 0; i < n && all; i++)
		for (j = i + 1; j < n && all; j++)
			if (!met[rows[i].player * np + rows[j].player])
				all = false;
	for (i = 0; i < n; i++)
		rows[i].tiebreak[k] = all ? points[rows[i].player] : 0;
	free(in);
	free(met);
	free(points);
}

/* Whether a goes before b on tie-break k: the higher value, then the
 * better seed. */
static bool row_before(const struct tournament_row *a,
		       const struct tournament_row *b, size_t k)
{
	if (a->tiebreak[k] != b->tiebreak[k])
		return a->tiebreak[k] > b->tiebreak[k];
	return a->player < b->player;
}

/* Sort rows[0..n) by row_before on k (insertion: a run of tied players
 * is short, and the event at most TOURNAMENT_MAX_PLAYERS). */
static void sort_run(struct tournament_row *rows, size_t n, size_t k)
{
	struct tournament_row r;
	size_t i, j;

	for (i = 1; i < n; i++) {
		r = rows[i];
		for (j = i; j > 0 && row_before(&r, &rows[j - 1], k); j--)
			rows[j] = rows[j - 1];
		rows[j] = r;
	}
}

static int points_compare(const void *pa, const void *pb)
{
	const struct tournament_row *a = pa, *b = pb;

	if (a->points != b->points)
		return a->points > b->points ? -1 : 1;
	return a->player < b->player ? -1 : a->player > b->player;
}

/* Whether rows a and b are equal on points and tie-breaks [0, k). */
static bool tied(const struct tournament_row *a,
		 const struct tournament_row *b, size_t k)
{
	size_t i;

	if (a->points != b->points)
		return false;
	for (i = 0; i < k; i++)
		if (a->tiebreak[i] != b->tiebreak[i])
			return false;
	return true;
}

void tournament_standings(const struct tournament_state *s,
			  const struct tournament_rules *rules,
			  struct tournament_row *rows)
{
	size_t n = 0, nt = rules->ntiebreaks, i, j, k, p;

	if (nt > TOURNAMENT_MAX_TIEBREAKS)
		nt = TOURNAMENT_MAX_TIEBREAKS;
	memset(rows, 0, s->nplayers * sizeof(*rows));
	for (p = 0; p < s->nplayers; p++) {
		if (s->players[p].removed)
			continue;
		rows[n].player = p;
		rows[n].points = s->players[p].points;
		for (k = 0; k < nt; k++)
			rows[n].tiebreak[k] =
				tiebreak_value(s, rules->tiebreaks[k], p);
		n++;
	}
	qsort(rows, n, sizeof(*rows), points_compare);
	/* each tie-break orders the runs still tied on all before it */
	for (k = 0; k < nt; k++) {
		for (i = 0; i < n; i = j) {
			for (j = i + 1; j < n && tied(&rows[i], &rows[j], k); j++)
				;
			if (rules->tiebreaks[k] == TOURNAMENT_TB_DIRECT)
				direct_values(s, &rows[i], j - i, k);
			sort_run(&rows[i], j - i, k);
		}
	}
	/* the removed, last, in seed order */
	for (p = 0; p < s->nplayers; p++)
		if (s->players[p].removed)
			rows[n++].player = p;
	for (i = 0; i < n; i++)
		rows[i].rank = (int)i + 1;
}
