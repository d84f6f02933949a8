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

/* The tie-breaks that do not depend on who else is tied, for every
 * player, from one pass over the games. */
struct values {
	int64_t *buchholz, *lowest, *sonneborn_berger;
	bool *met_any;
};

static void values_compute(const struct tournament_state *s,
			   struct values *v)
{
	const struct tournament_game *g;
	size_t n = s->nplayers, i, k, p, o;
	int64_t opp;

	v->buchholz = xzalloc((n + 1) * sizeof(int64_t));
	v->lowest = xzalloc((n + 1) * sizeof(int64_t));
	v->sonneborn_berger = xzalloc((n + 1) * sizeof(int64_t));
	v->met_any = xzalloc(n + 1);
	for (i = 0; i < s->ngames; i++) {
		g = &s->games[i];
		if (!g->counts)
			continue;
		for (k = 0; k < 2; k++) {
			p = k == 0 ? g->white : g->black;
			o = k == 0 ? g->black : g->white;
			opp = s->players[o].points;
			v->buchholz[p] += opp;
			v->sonneborn_berger[p] += (int64_t)game_score(g, p) * opp;
			if (!v->met_any[p] || opp < v->lowest[p])
				v->lowest[p] = opp;
			v->met_any[p] = true;
		}
	}
}

static void values_free(struct values *v)
{
	free(v->buchholz);
	free(v->lowest);
	free(v->sonneborn_berger);
	free(v->met_any);
}

/* Player p's tie-break t (direct: 0, computed by the group). */
static int64_t tiebreak_value(const struct tournament_state *s,
			      const struct values *v,
			      enum tournament_tiebreak t, size_t p)
{
	switch (t) {
	case TOURNAMENT_TB_BUCHHOLZ:
		return v->buchholz[p];
	case TOURNAMENT_TB_BUCHHOLZ_CUT1:
		return v->buchholz[p] - (v->met_any[p] ? v->lowest[p] : 0);
	case TOURNAMENT_TB_SONNEBORN_BERGER:
		return v->sonneborn_berger[p];
	case TOURNAMENT_TB_WINS:
		return s->players[p].wins;
	case TOURNAMENT_TB_RATING:
		return s->players[p].rating;
	case TOURNAMENT_TB_DIRECT:
		break;
	}
	return 0;
}

/* Direct encounter among the players of rows[0..n): into each row's
 * tiebreak[k] the points scored against the others, if every two of
 * them met in a game that counts; else 0 for all.  slot: for every
 * player -1 (and so again on return). */
static void direct_values(const struct tournament_state *s,
			  struct tournament_row *rows, size_t n, size_t k,
			  ptrdiff_t *slot)
{
	bool *met, all = true;
	int64_t *points;
	const struct tournament_game *g;
	size_t i, j;
	ptrdiff_t a, b;

	if (n < 2) {
		for (i = 0; i < n; i++)
			rows[i].tiebreak[k] = 0;
		return;
	}
	met = xzalloc(n * n);
	points = xzalloc(n * sizeof(*points));
	for (i = 0; i < n; i++)
		slot[rows[i].player] = (ptrdiff_t)i;
	for (i = 0; i < s->ngames; i++) {
		g = &s->games[i];
		a = slot[g->white];
		b = slot[g->black];
		if (!g->counts || a < 0 || b < 0)
			continue;
		met[(size_t)a * n + (size_t)b] = met[(size_t)b * n + (size_t)a] =
			true;
		points[a] += game_score(g, g->white);
		points[b] += game_score(g, g->black);
	}
	for (i = 0; i < n && all; i++)
		for (j = i + 1; j < n && all; j++)
			if (!met[i * n + j])
				all = false;
	for (i = 0; i < n; i++) {
		rows[i].tiebreak[k] = all ? points[i] : 0;
		slot[rows[i].player] = -1;
	}
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
	ptrdiff_t *slot = xzalloc((s->nplayers + 1) * sizeof(*slot));
	struct values v;

	if (nt > TOURNAMENT_MAX_TIEBREAKS)
		nt = TOURNAMENT_MAX_TIEBREAKS;
	values_compute(s, &v);
	for (p = 0; p < s->nplayers; p++)
		slot[p] = -1;
	memset(rows, 0, s->nplayers * sizeof(*rows));
	for (p = 0; p < s->nplayers; p++) {
		if (s->players[p].removed)
			continue;
		rows[n].player = p;
		rows[n].points = s->players[p].points;
		for (k = 0; k < nt; k++)
			rows[n].tiebreak[k] =
				tiebreak_value(s, &v, rules->tiebreaks[k], p);
		n++;
	}
	qsort(rows, n, sizeof(*rows), points_compare);
	/* each tie-break orders the runs still tied on all before it */
	for (k = 0; k < nt; k++) {
		for (i = 0; i < n; i = j) {
			for (j = i + 1; j < n && tied(&rows[i], &rows[j], k); j++)
				;
			if (rules->tiebreaks[k] == TOURNAMENT_TB_DIRECT)
				direct_values(s, &rows[i], j - i, k, slot);
			sort_run(&rows[i], j - i, k);
		}
	}
	/* the removed, last, in seed order */
	for (p = 0; p < s->nplayers; p++)
		if (s->players[p].removed)
			rows[n++].player = p;
	for (i = 0; i < n; i++)
		rows[i].rank = (int)i + 1;
	values_free(&v);
	free(slot);
}
