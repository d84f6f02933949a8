/* swiss.c -- the pairing of a Swiss round: a bounded search in the
 * order of preference, and a perfect-matching test (Edmonds' blossom
 * algorithm) to finish it when the bound is reached; see swiss.h. */
#include <config.h> /* autoconf's: _GNU_SOURCE */

#include "server/swiss.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* The rules of a level (swiss.h). */
struct level {
	int colour_limit;  /* 0: any colours */
	bool second_bye;
	bool repeats;
};

static const struct level levels[SWISS_LEVELS] = {
	{ 1, false, false }, { 2, false, false }, { 0, false, false },
	{ 1, true, false },  { 2, true, false },  { 0, true, false },
	{ 0, true, true },
};

/* The work of one pairing.  Positions are ranks: rank[i] is the player
 * of rank i (0 the top); the search works on positions. */
struct swiss {
	const struct swiss_player *pl;
	size_t n;          /* players */
	const bool *met;
	size_t r;          /* active players, ranked */
	size_t *rank;      /* position -> player */
	size_t *group_start, *group_end; /* by position: its score group */
	const struct level *lv;
	ptrdiff_t bye;     /* position, or -1 */
	bool *paired;      /* by position */
	size_t *partner;   /* by position */
	size_t steps, max_steps;
	bool matched;      /* the matching test finished a level's work */
	/* the matching test */
	bool *adj;         /* r * r by position: allowed at the level */
	size_t *verts;     /* the positions still to pair */
	ptrdiff_t *match, *parent, *base, *queue;
	bool *used, *blossom, *on_path;
};

static int abs_int(int v)
{
	return v < 0 ? -v : v;
}

/* Whether a player of colour difference diff may take colour (+1 White,
 * -1 Black) under limit: within it, or nearer 0. */
static bool colour_allowed(int diff, int colour, int limit)
{
	int next = diff + colour;

	return limit == 0 || abs_int(next) <= limit ||
	       abs_int(next) < abs_int(diff);
}

/* Whether a (position) may have White against b at the level. */
static bool white_allowed(const struct swiss *sw, size_t a, size_t b)
{
	const struct swiss_player *pa = &sw->pl[sw->rank[a]];
	const struct swiss_player *pb = &sw->pl[sw->rank[b]];

	return colour_allowed(pa->colour_diff, 1, sw->lv->colour_limit) &&
	       colour_allowed(pb->colour_diff, -1, sw->lv->colour_limit);
}

/* Whether positions a and b may meet at the level. */
static bool allowed(const struct swiss *sw, size_t a, size_t b)
{
	if (!sw->lv->repeats && sw->met[sw->rank[a] * sw->n + sw->rank[b]])
		return false;
	return white_allowed(sw, a, b) || white_allowed(sw, b, a);
}

/* --- The matching test --- */

/* Edmonds' blossom algorithm on the vertices verts[0..m) (positions)
 * and the edges adj: whether they have a perfect matching.  The
 * textbook's augmenting-path search from each free vertex in turn; a
 * vertex left free once stays free (no augmenting path later either),
 * so the first failure answers.  O(m^3). */
static size_t lca(struct swiss *sw, size_t m, size_t a, size_t b)
{
	memset(sw->on_path, 0, m);
	for (;;) {
		a = (size_t)sw->base[a];
		sw->on_path[a] = true;
		if (sw->match[a] < 0)
			break;
		a = (size_t)sw->parent[sw->match[a]];
	}
	for (;;) {
		b = (size_t)sw->base[b];
		if (sw->on_path[b])
			return b;
		b = (size_t)sw->parent[sw->match[b]];
	}
}

static void mark_path(struct swiss *sw, size_t v, size_t b, size_t child)
{
	while ((size_t)sw->base[v] != b) {
		sw->blossom[sw->base[v]] = true;
		sw->blossom[sw->base[sw->match[v]]] = true;
		sw->parent[v] = (ptrdiff_t)child;
		child = (size_t)sw->match[v];
		v = (size_t)sw->parent[sw->match[v]];
	}
}

static bool edge(const struct swiss *sw, size_t a, size_t b)
{
	return sw->adj[sw->verts[a] * sw->r + sw->verts[b]];
}

/* The end of an augmenting path from root, or -1. */
static ptrdiff_t find_path(struct swiss *sw, size_t m, size_t root)
{
	size_t head = 0, tail = 0, v, to, i, b;

	for (i = 0; i < m; i++) {
		sw->used[i] = false;
		sw->parent[i] = -1;
		sw->base[i] = (ptrdiff_t)i;
	}
	sw->used[root] = true;
	sw->queue[tail++] = (ptrdiff_t)root;
	while (head < tail) {
		v = (size_t)sw->queue[head++];
		for (to = 0; to < m; to++) {
			if (!edge(sw, v, to) || sw->base[v] == sw->base[to] ||
			    sw->match[v] == (ptrdiff_t)to)
				continue;
			if (to == root || (sw->match[to] >= 0 &&
					   sw->parent[sw->match[to]] >= 0)) {
				b = lca(sw, m, v, to);
				memset(sw->blossom, 0, m);
				mark_path(sw, v, b, to);
				mark_path(sw, to, b, v);
				for (i = 0; i < m; i++) {
					if (!sw->blossom[sw->base[i]])
						continue;
					sw->base[i] = (ptrdiff_t)b;
					if (!sw->used[i]) {
						sw->used[i] = true;
						sw->queue[tail++] = (ptrdiff_t)i;
					}
				}
			} else if (sw->parent[to] < 0) {
				sw->parent[to] = (ptrdiff_t)v;
				if (sw->match[to] < 0)
					return (ptrdiff_t)to;
				sw->used[sw->match[to]] = true;
				sw->queue[tail++] = sw->match[to];
			}
		}
	}
	return -1;
}

/* Whether the positions not yet paired (but the bye) can all be paired
 * at the level. */
static bool can_finish(struct swiss *sw)
{
	size_t m = 0, i, j;
	ptrdiff_t u, pv, ppv;

	for (i = 0; i < sw->r; i++)
		if (!sw->paired[i] && (ptrdiff_t)i != sw->bye)
			sw->verts[m++] = i;
	if (m % 2 != 0)
		return false;
	for (i = 0; i < m; i++)
		sw->match[i] = -1;
	for (i = 0; i < m; i++) /* a greedy start */
		for (j = i + 1; j < m && sw->match[i] < 0; j++)
			if (sw->match[j] < 0 && edge(sw, i, j)) {
				sw->match[i] = (ptrdiff_t)j;
				sw->match[j] = (ptrdiff_t)i;
			}
	for (i = 0; i < m; i++) {
		if (sw->match[i] >= 0)
			continue;
		u = find_path(sw, m, i);
		if (u < 0)
			return false;
		while (u >= 0) { /* augment along the path */
			pv = sw->parent[u];
			ppv = sw->match[pv];
			sw->match[u] = pv;
			sw->match[pv] = u;
			u = ppv;
		}
	}
	return true;
}

/* --- The order of preference --- */

/* The first unpaired position (not the bye) from 0, or r. */
static size_t top_unpaired(const struct swiss *sw)
{
	size_t i;

	for (i = 0; i < sw->r; i++)
		if (!sw->paired[i] && (ptrdiff_t)i != sw->bye)
			return i;
	return sw->r;
}

/* The k-th candidate (0..) of position p in the order of preference
 * (swiss.h), or r when there are no more: the rest of S2 (from the top,
 * at or below p), then S1 below p, then the lower groups. */
static size_t candidate(const struct swiss *sw, size_t p, size_t k)
{
	size_t gs = sw->group_start[p], ge = sw->group_end[p];
	size_t s2 = gs + (ge - gs) / 2, from;

	if (p < s2) { /* in S1 */
		if (k < ge - s2)
			return s2 + k;
		k -= ge - s2;
		if (k < s2 - (p + 1))
			return p + 1 + k;
		k -= s2 - (p + 1);
	} else {
		if (k < ge - (p + 1))
			return p + 1 + k;
		k -= ge - (p + 1);
	}
	from = ge + k;
	return from < sw->r ? from : sw->r;
}

static void pair_up(struct swiss *sw, size_t a, size_t b, bool on)
{
	sw->paired[a] = sw->paired[b] = on;
	sw->partner[a] = b;
	sw->partner[b] = a;
}

/* The depth-first search: 1 paired, 0 no pairing, -1 out of steps. */
static int search(struct swiss *sw)
{
	size_t p = top_unpaired(sw), k, q;
	int got;

	if (p == sw->r)
		return 1;
	for (k = 0; (q = candidate(sw, p, k)) < sw->r; k++) {
		if (sw->paired[q] || (ptrdiff_t)q == sw->bye)
			continue;
		if (++sw->steps > sw->max_steps)
			return -1;
		if (!allowed(sw, p, q))
			continue;
		pair_up(sw, p, q, true);
		got = search(sw);
		if (got != 0)
			return got;
		pair_up(sw, p, q, false);
	}
	return 0;
}

/* The same order with the matching test instead of the search: true if
 * the positions left can be paired (and then they are). */
static bool finish(struct swiss *sw)
{
	size_t p, k, q;

	if (!can_finish(sw))
		return false;
	while ((p = top_unpaired(sw)) < sw->r) {
		for (k = 0; (q = candidate(sw, p, k)) < sw->r; k++) {
			if (sw->paired[q] || (ptrdiff_t)q == sw->bye ||
			    !sw->adj[p * sw->r + q])
				continue;
			pair_up(sw, p, q, true);
			if (can_finish(sw))
				break;
			pair_up(sw, p, q, false);
		}
		if (q == sw->r) /* cannot be: can_finish said it could */
			return false;
	}
	return true;
}

/* --- The pairing --- */

/* The bye candidates of the level, best first, into out; their number.
 * None (one entry, -1) for an even field. */
static size_t bye_candidates(const struct swiss *sw, ptrdiff_t *out)
{
	size_t n = 0, i, j;
	ptrdiff_t t;

	if (sw->r % 2 == 0) {
		out[0] = -1;
		return 1;
	}
	for (i = sw->r; i-- > 0;)
		if (sw->lv->second_bye || sw->pl[sw->rank[i]].byes == 0)
			out[n++] = (ptrdiff_t)i;
	if (!sw->lv->second_bye)
		return n;
	/* fewest byes first; among equals the lowest-ranked (stable) */
	for (i = 1; i < n; i++) {
		t = out[i];
		for (j = i; j > 0 && sw->pl[sw->rank[out[j - 1]]].byes >
				     sw->pl[sw->rank[t]].byes; j--)
			out[j] = out[j - 1];
		out[j] = t;
	}
	return n;
}

/* Pair at the level: true if a pairing was found (then in paired,
 * partner and bye). */
static bool pair_level(struct swiss *sw, ptrdiff_t *byes)
{
	size_t nbyes = bye_candidates(sw, byes), i, a, b;
	int got;

	for (a = 0; a < sw->r; a++)
		for (b = 0; b < sw->r; b++)
			sw->adj[a * sw->r + b] = a != b && allowed(sw, a, b);
	for (i = 0; i < nbyes; i++) {
		sw->bye = byes[i];
		memset(sw->paired, 0, sw->r);
		got = sw->steps < sw->max_steps ? search(sw) : -1;
		if (got == 1)
			return true;
		if (got < 0) {
			sw->matched = true;
			memset(sw->paired, 0, sw->r);
			if (finish(sw))
				return true;
		}
	}
	sw->bye = -1;
	return false;
}

/* Whether a (position) takes White against b: the rules of swiss.h. */
static bool takes_white(const struct swiss *sw, size_t a, size_t b,
			size_t board)
{
	const struct swiss_player *pa = &sw->pl[sw->rank[a]];
	const struct swiss_player *pb = &sw->pl[sw->rank[b]];
	size_t hi = a < b ? a : b;
	bool white;

	if (pa->colour_diff != pb->colour_diff)
		white = pa->colour_diff < pb->colour_diff;
	else if (pa->last_colour != pb->last_colour)
		white = pa->last_colour < pb->last_colour;
	else if (pa->last_colour != 0) /* the higher-ranked alternates */
		white = (hi == a) == (pa->last_colour < 0);
	else /* nobody has played: by board */
		white = (hi == a) == (board % 2 == 0);
	if (white && !white_allowed(sw, a, b))
		return false;
	if (!white && !white_allowed(sw, b, a))
		return true;
	return white;
}

static int compare_rank(const struct swiss_player *pl, size_t a, size_t b)
{
	if (pl[a].points != pl[b].points)
		return pl[a].points > pl[b].points ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* rank[0..r) by points, then seed (insertion: r is at most
 * TOURNAMENT_MAX_PLAYERS); the score groups. */
static void rank_players(struct swiss *sw)
{
	size_t i, j, t;

	for (i = 0; i < sw->n; i++) {
		if (!sw->pl[i].active)
			continue;
		t = i;
		for (j = sw->r; j > 0 &&
		     compare_rank(sw->pl, t, sw->rank[j - 1]) < 0; j--)
			sw->rank[j] = sw->rank[j - 1];
		sw->rank[j] = t;
		sw->r++;
	}
	for (i = 0; i < sw->r; i = j) {
		for (j = i + 1; j < sw->r && sw->pl[sw->rank[j]].points ==
					       sw->pl[sw->rank[i]].points; j++)
			;
		for (t = i; t < j; t++) {
			sw->group_start[t] = i;
			sw->group_end[t] = j;
		}
	}
}

int swiss_pair(const struct swiss_player *players, size_t n,
	       const bool *met, size_t max_steps, struct tournament_pair *pairs_r,
	       size_t *npairs_r, ptrdiff_t *bye_r,
	       struct swiss_report *report_r, struct tournament_fault *fault_r)
{
	struct swiss sw = { .pl = players, .n = n, .met = met, .bye = -1 };
	struct swiss_report report = { 0 };
	ptrdiff_t *byes;
	size_t i, k, np = 0;
	int ret = -1, lvl;

	*npairs_r = 0;
	*bye_r = -1;
	if (fault_r != NULL)
		memset(fault_r, 0, sizeof(*fault_r));
	if (n > TOURNAMENT_MAX_PLAYERS) {
		if (fault_r != NULL) {
			fault_r->error = TOURNAMENT_ERR_TOO_MANY;
			fault_r->value = (int64_t)n;
			fault_r->max = TOURNAMENT_MAX_PLAYERS;
		}
		return -1;
	}
	sw.max_steps = max_steps == 0 ? SWISS_STEPS : max_steps;
	sw.rank = xzalloc((n + 1) * sizeof(size_t));
	sw.group_start = xzalloc((n + 1) * sizeof(size_t));
	sw.group_end = xzalloc((n + 1) * sizeof(size_t));
	sw.partner = xzalloc((n + 1) * sizeof(size_t));
	sw.verts = xzalloc((n + 1) * sizeof(size_t));
	sw.paired = xzalloc(n + 1);
	sw.used = xzalloc(n + 1);
	sw.blossom = xzalloc(n + 1);
	sw.on_path = xzalloc(n + 1);
	sw.adj = xzalloc(n * n + 1);
	sw.match = xzalloc((n + 1) * sizeof(ptrdiff_t));
	sw.parent = xzalloc((n + 1) * sizeof(ptrdiff_t));
	sw.base = xzalloc((n + 1) * sizeof(ptrdiff_t));
	sw.queue = xzalloc((n + 1) * sizeof(ptrdiff_t));
	byes = xzalloc((n + 1) * sizeof(*byes));
	rank_players(&sw);
	if (sw.r < 2) {
		if (fault_r != NULL) {
			fault_r->error = TOURNAMENT_ERR_TOO_FEW;
			fault_r->value = (int64_t)sw.r;
			fault_r->min = 2;
		}
		goto out;
	}
	for (lvl = 0; lvl < SWISS_LEVELS; lvl++) {
		sw.lv = &levels[lvl];
		if (pair_level(&sw, byes))
			break;
	}
	/* level 6 pairs anyone with anyone: it cannot fail */
	report.level = lvl;
	report.steps = sw.steps > sw.max_steps ? sw.max_steps : sw.steps;
	report.matched = sw.matched;
	for (i = 0; i < sw.r; i++) {
		if ((ptrdiff_t)i == sw.bye || sw.partner[i] < i)
			continue;
		k = sw.partner[i];
		if (takes_white(&sw, i, k, np)) {
			pairs_r[np].white = sw.rank[i];
			pairs_r[np].black = sw.rank[k];
		} else {
			pairs_r[np].white = sw.rank[k];
			pairs_r[np].black = sw.rank[i];
		}
		np++;
	}
	*npairs_r = np;
	*bye_r = sw.bye < 0 ? -1 : (ptrdiff_t)sw.rank[sw.bye];
	if (report_r != NULL)
		*report_r = report;
	ret = 0;
out:
	free(sw.rank);
	free(sw.group_start);
	free(sw.group_end);
	free(sw.partner);
	free(sw.verts);
	free(sw.paired);
	free(sw.used);
	free(sw.blossom);
	free(sw.on_path);
	free(sw.adj);
	free(sw.match);
	free(sw.parent);
	free(sw.base);
	free(sw.queue);
	free(byes);
	return ret;
}

void swiss_players_of(const struct tournament_state *s,
		      struct swiss_player *players_r)
{
	size_t i;

	for (i = 0; i < s->nplayers; i++) {
		players_r[i].points = s->players[i].points;
		players_r[i].colour_diff =
			s->players[i].whites - s->players[i].blacks;
		players_r[i].last_colour = s->players[i].last_colour;
		players_r[i].byes = s->players[i].byes;
		players_r[i].active = !s->players[i].withdrawn;
	}
}

int swiss_pair_next(const struct tournament_state *s, size_t max_steps,
		    struct tournament_pair *pairs_r, size_t *npairs_r,
		    ptrdiff_t *bye_r, struct swiss_report *report_r,
		    struct tournament_fault *fault_r)
{
	struct swiss_player *pl = xzalloc((s->nplayers + 1) * sizeof(*pl));
	int ret;

	swiss_players_of(s, pl);
	ret = swiss_pair(pl, s->nplayers, s->met, max_steps, pairs_r,
			 npairs_r, bye_r, report_r, fault_r);
	free(pl);
	return ret;
}
