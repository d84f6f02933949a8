/* knockout.c -- an event's knockout bracket: the draw, each match's
 * games and winner, the next game's colours, the places; see
 * knockout.h. */
#include <config.h> /* autoconf's: _GNU_SOURCE */

#include "server/knockout.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

size_t knockout_size(size_t n)
{
	size_t p = 2;

	if (n < 2 || n > TOURNAMENT_MAX_PLAYERS)
		return 0;
	while (p < n)
		p *= 2;
	return p;
}

int knockout_rounds(size_t n)
{
	size_t p = knockout_size(n);
	int r = 0;

	while (p > 1) {
		p /= 2;
		r++;
	}
	return r;
}

void knockout_lines(size_t size, size_t *lines)
{
	size_t len, i;

	/* each line's seed s is followed by its first opponent, the seed
	 * 2 len - 1 - s of a bracket twice as large */
	lines[0] = 0;
	for (len = 1; len < size; len *= 2)
		for (i = len; i-- > 0;) {
			lines[2 * i + 1] = 2 * len - 1 - lines[i];
			lines[2 * i] = lines[i];
		}
}

/* What the player of index p scored in the counted game g. */
static int score(const struct tournament_game *g, size_t p)
{
	if (g->outcome == TOURNAMENT_DRAWN)
		return TOURNAMENT_DRAW;
	if ((g->outcome == TOURNAMENT_WHITE_WINS && g->white == p) ||
	    (g->outcome == TOURNAMENT_BLACK_WINS && g->black == p))
		return TOURNAMENT_WIN;
	return 0;
}

static bool of_match(const struct tournament_game *g,
		     const struct knockout_match *m)
{
	return g->round == m->round && m->a >= 0 && m->b >= 0 &&
	       ((g->white == (size_t)m->a && g->black == (size_t)m->b) ||
		(g->white == (size_t)m->b && g->black == (size_t)m->a));
}

/* The match's games in state (in game order) and its winner. */
static void decide(const struct tournament_state *s,
		   struct knockout_match *m)
{
	const struct tournament_game *g;
	size_t a = (size_t)m->a, b = (size_t)m->b, i;
	int counted = 0, sa, sb;

	for (i = 0; i < s->ngames; i++) {
		g = &s->games[i];
		if (!of_match(g, m))
			continue;
		m->games++;
		if (!g->counts) {
			m->pending = true;
			continue;
		}
		sa = score(g, a);
		sb = score(g, b);
		counted++;
		if (counted <= 2) {
			m->points_a += sa;
			m->points_b += sb;
			if (counted == 2 && m->points_a != m->points_b)
				m->winner = m->points_a > m->points_b ? m->a :
								    m->b;
		} else if (m->winner < 0 && sa != sb) {
			m->winner = sa > sb ? m->a : m->b; /* a decider */
		}
		if (m->winner >= 0)
			break;
		if (counted == 2 + KNOCKOUT_DECIDERS) { /* all drawn */
			m->winner = m->a < m->b ? m->a : m->b;
			break;
		}
	}
	if (m->winner >= 0)
		return;
	if (s->players[a].withdrawn || s->players[b].withdrawn) {
		m->walkover = true;
		if (s->players[a].withdrawn && s->players[b].withdrawn)
			m->winner = m->a < m->b ? m->a : m->b;
		else
			m->winner = s->players[a].withdrawn ? m->b : m->a;
	}
}

int knockout_bracket(const struct tournament_state *s,
		     struct knockout_match *matches, size_t *nmatches_r,
		     struct tournament_fault *fault_r)
{
	size_t n = s->nplayers, size = knockout_size(n), per, off, prev, i,
	       k, *lines;
	struct knockout_match *m;
	int rounds = knockout_rounds(n), round;
	bool found;

	*nmatches_r = 0;
	if (fault_r != NULL)
		memset(fault_r, 0, sizeof(*fault_r));
	if (size == 0) {
		if (fault_r != NULL) {
			fault_r->error = n < 2 ? TOURNAMENT_ERR_TOO_FEW :
					 TOURNAMENT_ERR_TOO_MANY;
			fault_r->value = (int64_t)n;
			fault_r->min = 2;
			fault_r->max = TOURNAMENT_MAX_PLAYERS;
		}
		return -1;
	}
	lines = xzalloc(size * sizeof(*lines));
	knockout_lines(size, lines);
	off = prev = 0;
	for (round = 1; round <= rounds; round++) {
		per = size >> round;
		for (i = 0; i < per; i++) {
			m = &matches[off + i];
			memset(m, 0, sizeof(*m));
			m->round = round;
			m->slot = i;
			m->winner = -1;
			if (round == 1) {
				m->a = lines[2 * i] < n ? (ptrdiff_t)lines[2 * i] : -1;
				m->b = lines[2 * i + 1] < n ?
				       (ptrdiff_t)lines[2 * i + 1] : -1;
				if (m->a < 0 || m->b < 0) { /* a bye */
					m->winner = m->a < 0 ? m->b : m->a;
					m->walkover = true;
					continue;
				}
			} else {
				m->a = matches[prev + 2 * i].winner;
				m->b = matches[prev + 2 * i + 1].winner;
			}
			if (m->a >= 0 && m->b >= 0)
				decide(s, m);
		}
		/* every game of the round belongs to one of its matches */
		for (k = 0; k < s->ngames; k++) {
			if (s->games[k].round != round)
				continue;
			found = false;
			for (i = 0; i < per && !found; i++)
				found = of_match(&s->games[k], &matches[off + i]);
			if (!found) {
				if (fault_r != NULL) {
					fault_r->error =
						TOURNAMENT_ERR_WRONG_PLAYERS;
					fault_r->game = s->games[k].game;
					fault_r->value = s->games[k].game;
				}
				free(lines);
				return -1;
			}
		}
		prev = off;
		off += per;
	}
	free(lines);
	*nmatches_r = off;
	return 0;
}

int knockout_next_game(const struct tournament_state *s,
		       const struct knockout_match *m,
		       struct tournament_pair *pair_r)
{
	size_t hi, lo, i;

	if (m->winner >= 0 || m->a < 0 || m->b < 0 || m->pending)
		return 0;
	hi = (size_t)(m->a < m->b ? m->a : m->b);
	lo = (size_t)(m->a < m->b ? m->b : m->a);
	if (m->games == 0) {
		pair_r->white = hi;
		pair_r->black = lo;
		return 1;
	}
	if (m->games == 1) { /* swapped: as the first game was played */
		for (i = 0; i < s->ngames; i++)
			if (of_match(&s->games[i], m)) {
				pair_r->white = s->games[i].black;
				pair_r->black = s->games[i].white;
				return 1;
			}
		return 0;
	}
	/* deciders: the lower seed first, then alternating */
	pair_r->white = (m->games - 2) % 2 == 0 ? lo : hi;
	pair_r->black = (m->games - 2) % 2 == 0 ? hi : lo;
	return 1;
}

void knockout_places(const struct tournament_state *s,
		     const struct knockout_match *matches, size_t nmatches,
		     int *places)
{
	size_t size = knockout_size(s->nplayers), i;
	const struct knockout_match *m;
	ptrdiff_t loser;

	memset(places, 0, s->nplayers * sizeof(*places));
	for (i = 0; i < nmatches; i++) {
		m = &matches[i];
		if (m->winner < 0 || m->a < 0 || m->b < 0)
			continue;
		loser = m->winner == m->a ? m->b : m->a;
		places[loser] = 1 + (int)(size >> m->round);
		if (m->round == knockout_rounds(s->nplayers))
			places[m->winner] = 1;
	}
}
