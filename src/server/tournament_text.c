/* tournament_text.c -- what is shown of a replayed event: its standings
 * with every tie-break's value, a round's pairings, the crosstable; see
 * tournament_log.h.  These are tables of numbers and names, the same for
 * the operator's `ashes tournament show`, the event archive's
 * standings.txt (which verify makes again and compares byte for byte)
 * and the club's pages; the words around them are the templates'. */
#include <config.h> /* autoconf's: _GNU_SOURCE */

#include "server/tournament_log.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/knockout.h"
#include "util/buf.h"
#include "util/xalloc.h"

const char *tournament_player_label(const struct tournament_log *log,
				    int64_t id, char *buf, size_t len)
{
	const char *name = log != NULL ? tournament_log_name(log, id) : NULL;

	if (name != NULL)
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "#%" PRId64, id);
	return buf;
}

/* v in units of 1/den points, as "2", "2.5", "2.25" (den 2 or 4). */
static const char *fraction_text(int64_t v, int den, char *buf, size_t len)
{
	int64_t whole = v / den, rest = v % den;
	const char *sign = v < 0 ? "-" : "";

	if (whole < 0)
		whole = -whole;
	if (rest < 0)
		rest = -rest;
	if (rest == 0)
		snprintf(buf, len, "%s%" PRId64, sign, whole);
	else if (den == 2)
		snprintf(buf, len, "%s%" PRId64 ".5", sign, whole);
	else
		snprintf(buf, len, "%s%" PRId64 ".%s", sign, whole,
			 rest == 1 ? "25" : rest == 2 ? "5" : "75");
	return buf;
}

const char *tournament_points_text(int64_t half_points, char *buf,
				   size_t len)
{
	return fraction_text(half_points, 2, buf, len);
}

const char *tournament_tiebreak_text(enum tournament_tiebreak t,
				     int64_t value, char *buf, size_t len)
{
	switch (t) {
	case TOURNAMENT_TB_BUCHHOLZ:
	case TOURNAMENT_TB_BUCHHOLZ_CUT1:
	case TOURNAMENT_TB_DIRECT:
		return fraction_text(value, 2, buf, len);
	case TOURNAMENT_TB_SONNEBORN_BERGER: /* half points times half */
		return fraction_text(value, 4, buf, len);
	case TOURNAMENT_TB_WINS:
	case TOURNAMENT_TB_RATING:
		break;
	}
	snprintf(buf, len, "%" PRId64, value);
	return buf;
}

const char *tournament_game_result(const struct tournament_game *g)
{
	if (g->forfeit)
		return g->outcome == TOURNAMENT_WHITE_WINS ? "+:-" :
		       g->outcome == TOURNAMENT_BLACK_WINS ? "-:+" : "-:-";
	switch (g->outcome) {
	case TOURNAMENT_WHITE_WINS:
		return "1-0";
	case TOURNAMENT_BLACK_WINS:
		return "0-1";
	case TOURNAMENT_DRAWN:
		return "1/2-1/2";
	case TOURNAMENT_UNFINISHED:
		break;
	}
	return "*";
}

/* The width of column heading name: at least 6. */
static int column_width(const char *name)
{
	size_t n = strlen(name);

	return n < 6 ? 6 : (int)n;
}

/* Each entrant's knockout place into places (0: still in), or all 0 when
 * the bracket does not read. */
static void knockout_places_of(const struct tournament_state *s,
			       int *places)
{
	size_t size = knockout_size(s->nplayers), n = 0;
	struct knockout_match *m;

	memset(places, 0, s->nplayers * sizeof(*places));
	if (size == 0)
		return;
	m = xzalloc(size * sizeof(*m));
	if (knockout_bracket(s, m, &n, NULL) == 0)
		knockout_places(s, m, n, places);
	free(m);
}

void tournament_knockout_order(const int *places,
			       struct tournament_row *rows, size_t n)
{
	struct tournament_row row;
	size_t i, j;
	int p;

	/* insertion: stable, and an event has at most 256 entrants */
	for (i = 1; i < n; i++) {
		row = rows[i];
		p = places[row.player] > 0 ? places[row.player] : 1;
		for (j = i; j > 0; j--) {
			size_t q = rows[j - 1].player;
			if ((places[q] > 0 ? places[q] : 1) <= p)
				break;
			rows[j] = rows[j - 1];
		}
		rows[j] = row;
	}
	for (i = 0; i < n; i++)
		rows[i].rank = (int)i + 1;
}

void tournament_standings_text(const struct tournament_log *log,
			       const struct tournament_state *s,
			       struct buf *out)
{
	const struct tournament_rules *r = &log->rules;
	bool ko = r->format == TOURNAMENT_KNOCKOUT;
	struct tournament_row *rows = xzalloc((s->nplayers + 1) *
					      sizeof(*rows));
	int *places = xzalloc((s->nplayers + 1) * sizeof(*places));
	const struct tournament_player *p;
	char a[32], name[TOURNAMENT_LOG_NAME_MAX + 1];
	size_t i, k;

	tournament_standings(s, r, rows);
	if (ko) {
		knockout_places_of(s, places);
		tournament_knockout_order(places, rows, s->nplayers);
	}
	buf_puts(out, "  rank");
	if (ko)
		buf_puts(out, "  place");
	buf_puts(out, "  points");
	for (k = 0; k < r->ntiebreaks; k++)
		buf_printf(out, "  %*s", column_width(tournament_tiebreak_name(
			   r->tiebreaks[k])),
			   tournament_tiebreak_name(r->tiebreaks[k]));
	buf_puts(out, "  status     player\n");
	for (i = 0; i < s->nplayers; i++) {
		p = &s->players[rows[i].player];
		buf_printf(out, "%6d", rows[i].rank);
		if (ko) {
			if (places[rows[i].player] > 0)
				buf_printf(out, "  %5d",
					   places[rows[i].player]);
			else
				buf_puts(out, "      -");
		}
		buf_printf(out, "  %6s", tournament_points_text(rows[i].points,
								a, sizeof(a)));
		for (k = 0; k < r->ntiebreaks; k++)
			buf_printf(out, "  %*s",
				   column_width(tournament_tiebreak_name(
					   r->tiebreaks[k])),
				   tournament_tiebreak_text(r->tiebreaks[k],
					   rows[i].tiebreak[k], a, sizeof(a)));
		buf_printf(out, "  %-9s  %s (%" PRId64 ")\n",
			   p->removed ? "removed" : p->withdrawn ?
			   "withdrawn" : "in",
			   tournament_player_label(log, p->player, name,
						   sizeof(name)),
			   p->player);
	}
	free(places);
	free(rows);
}

void tournament_pairings_text(const struct tournament_log *log,
			      const struct tournament_state *s, int round,
			      struct buf *out)
{
	char w[TOURNAMENT_LOG_NAME_MAX + 24], b[TOURNAMENT_LOG_NAME_MAX + 24];
	char name[TOURNAMENT_LOG_NAME_MAX + 1];
	const struct tournament_game *g;
	char num[24];
	int64_t id;
	size_t i, board = 0;

	buf_puts(out, "  board    game  white                     "
		 "black                     result\n");
	for (i = 0; i < s->ngames; i++) {
		g = &s->games[i];
		if (g->round != round)
			continue;
		snprintf(w, sizeof(w), "%s (%" PRId64 ")",
			 tournament_player_label(log, s->players[g->white].player,
						 name, sizeof(name)),
			 s->players[g->white].player);
		snprintf(b, sizeof(b), "%s (%" PRId64 ")",
			 tournament_player_label(log, s->players[g->black].player,
						 name, sizeof(name)),
			 s->players[g->black].player);
		id = tournament_log_game_id(log, g->game);
		if (id > 0)
			snprintf(num, sizeof(num), "%" PRId64, id);
		else
			snprintf(num, sizeof(num), "-");
		buf_printf(out, "  %5zu  %6s  %-24s  %-24s  %s%s\n",
			   ++board, num, w, b, tournament_game_result(g),
			   g->adjudicated ? " (adjudicated)" : "");
	}
	for (i = 0; i < s->nbyes; i++)
		if (s->byes[i].round == round)
			buf_printf(out, "      -     bye  %s (%" PRId64 ")\n",
				   tournament_player_label(log,
					s->players[s->byes[i].player].player,
					name, sizeof(name)),
				   s->players[s->byes[i].player].player);
}

/* Player p's cell of round in the crosstable (rank_of: each player's
 * rank), into buf. */
static void cross_cell(const struct tournament_state *s, const int *rank_of,
		       size_t p, int round, char *buf, size_t len)
{
	const struct tournament_game *g;
	size_t i, o;
	int sc;
	char part[24];

	buf[0] = '\0';
	for (i = 0; i < s->ngames; i++) {
		g = &s->games[i];
		if (g->round != round || (g->white != p && g->black != p))
			continue;
		o = g->white == p ? g->black : g->white;
		if (!g->counts && g->outcome == TOURNAMENT_UNFINISHED) {
			snprintf(part, sizeof(part), "*%d%c", rank_of[o],
				 g->white == p ? 'w' : 'b');
		} else if (!g->counts) { /* removed */
			snprintf(part, sizeof(part), "x%d", rank_of[o]);
		} else {
			sc = g->outcome == TOURNAMENT_DRAWN ? 1 :
			     (g->outcome == TOURNAMENT_WHITE_WINS &&
			      g->white == p) ||
			     (g->outcome == TOURNAMENT_BLACK_WINS &&
			      g->black == p) ? 2 : 0;
			if (g->forfeit)
				snprintf(part, sizeof(part), "%cF",
					 sc == 2 ? '+' : '-');
			else
				snprintf(part, sizeof(part), "%c%d%c",
					 sc == 2 ? '+' : sc == 1 ? '=' : '-',
					 rank_of[o], g->white == p ? 'w' : 'b');
		}
		/* a knockout match: its games one after another */
		if (strlen(buf) + strlen(part) + 2 < len)
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
				 buf[0] != '\0' ? "," : "", part);
	}
	for (i = 0; i < s->nbyes && buf[0] == '\0'; i++)
		if (s->byes[i].round == round && s->byes[i].player == p)
			snprintf(buf, len, "bye");
	if (buf[0] == '\0')
		snprintf(buf, len, ".");
}

void tournament_crosstable_text(const struct tournament_log *log,
				const struct tournament_state *s,
				struct buf *out)
{
	struct tournament_row *rows = xzalloc((s->nplayers + 1) *
					      sizeof(*rows));
	int *rank_of = xzalloc((s->nplayers + 1) * sizeof(*rank_of));
	char cell[64], pts[16], name[TOURNAMENT_LOG_NAME_MAX + 1];
	size_t i;
	int r;

	tournament_standings(s, &log->rules, rows);
	if (log->rules.format == TOURNAMENT_KNOCKOUT) {
		int *places = xzalloc((s->nplayers + 1) * sizeof(*places));
		knockout_places_of(s, places);
		tournament_knockout_order(places, rows, s->nplayers);
		free(places);
	}
	for (i = 0; i < s->nplayers; i++)
		rank_of[rows[i].player] = rows[i].rank;
	buf_printf(out, "  rank  %-23s", "player");
	for (r = 1; r <= s->rounds_paired; r++) {
		snprintf(cell, sizeof(cell), "r%d", r);
		buf_printf(out, "  %8s", cell);
	}
	buf_puts(out, "  points\n");
	for (i = 0; i < s->nplayers; i++) {
		buf_printf(out, "%6d  %-23s", rows[i].rank,
			   tournament_player_label(log,
				s->players[rows[i].player].player, name,
				sizeof(name)));
		for (r = 1; r <= s->rounds_paired; r++) {
			cross_cell(s, rank_of, rows[i].player, r, cell,
				   sizeof(cell));
			buf_printf(out, "  %8s", cell);
		}
		buf_printf(out, "  %6s\n", tournament_points_text(
				   rows[i].points, pts, sizeof(pts)));
	}
	free(rank_of);
	free(rows);
}
