/* tournament.c -- an event's names, rules and the replay of its log into
 * entrants, games and scores; see tournament.h.  The ranking is in
 * standings.c. */
#include <config.h> /* autoconf's: _GNU_SOURCE */

#include "server/tournament.h"

#include <stdlib.h>
#include <string.h>

#include "util/name_table.h"
#include "util/xalloc.h"

#define COUNT(a) NAME_TABLE_COUNT(a)

static const char *const error_names[] = {
	[TOURNAMENT_OK] = "ok",
	[TOURNAMENT_ERR_RULE_RANGE] = "rule_range",
	[TOURNAMENT_ERR_BAD_ENTRY] = "bad_entry",
	[TOURNAMENT_ERR_TOO_MANY] = "too_many",
	[TOURNAMENT_ERR_ALREADY_ENTERED] = "already_entered",
	[TOURNAMENT_ERR_NOT_ENTERED] = "not_entered",
	[TOURNAMENT_ERR_SELF] = "self",
	[TOURNAMENT_ERR_TWICE_IN_ROUND] = "twice_in_round",
	[TOURNAMENT_ERR_DUPLICATE_GAME] = "duplicate_game",
	[TOURNAMENT_ERR_UNKNOWN_GAME] = "unknown_game",
	[TOURNAMENT_ERR_WRONG_PLAYERS] = "wrong_players",
	[TOURNAMENT_ERR_DUPLICATE_RESULT] = "duplicate_result",
	[TOURNAMENT_ERR_NO_ROOM] = "no_room",
	[TOURNAMENT_ERR_TOO_FEW] = "too_few",
};

static const char *const format_names[] = {
	[TOURNAMENT_SWISS] = "swiss",
	[TOURNAMENT_ROUNDROBIN] = "roundrobin",
	[TOURNAMENT_KNOCKOUT] = "knockout",
};

static const char *const tiebreak_names[] = {
	[TOURNAMENT_TB_BUCHHOLZ] = "buchholz",
	[TOURNAMENT_TB_BUCHHOLZ_CUT1] = "buchholz_cut1",
	[TOURNAMENT_TB_SONNEBORN_BERGER] = "sonneborn_berger",
	[TOURNAMENT_TB_DIRECT] = "direct",
	[TOURNAMENT_TB_WINS] = "wins",
	[TOURNAMENT_TB_RATING] = "rating",
};

static const char *const kind_names[] = {
	[TOURNAMENT_JOIN] = "join",
	[TOURNAMENT_LEAVE] = "leave",
	[TOURNAMENT_WITHDRAW] = "withdraw",
	[TOURNAMENT_PAIRING] = "pairing",
	[TOURNAMENT_BYE] = "bye",
	[TOURNAMENT_RESULT] = "result",
	[TOURNAMENT_ADJUDICATION] = "adjudication",
};

static const char *const outcome_names[] = {
	[TOURNAMENT_UNFINISHED] = "unfinished",
	[TOURNAMENT_WHITE_WINS] = "white",
	[TOURNAMENT_BLACK_WINS] = "black",
	[TOURNAMENT_DRAWN] = "draw",
};

#define NAME(table, i) name_table_name(table, COUNT(table), (unsigned)(i))
#define PARSE(table, word, type, r)                                        \
	do {                                                               \
		unsigned i_;                                               \
		if (name_table_parse(table, COUNT(table), word, &i_) < 0)          \
			return -1;                                         \
		*(r) = (type)i_;                                           \
		return 0;                                                  \
	} while (0)

const char *tournament_error_name(enum tournament_error e)
{
	return NAME(error_names, e);
}

const char *tournament_format_name(enum tournament_format f)
{
	return NAME(format_names, f);
}

const char *tournament_tiebreak_name(enum tournament_tiebreak t)
{
	return NAME(tiebreak_names, t);
}

const char *tournament_kind_name(enum tournament_entry_kind k)
{
	return NAME(kind_names, k);
}

const char *tournament_outcome_name(enum tournament_outcome o)
{
	return NAME(outcome_names, o);
}

int tournament_format_parse(const char *word, enum tournament_format *r)
{
	PARSE(format_names, word, enum tournament_format, r);
}

int tournament_tiebreak_parse(const char *word, enum tournament_tiebreak *r)
{
	PARSE(tiebreak_names, word, enum tournament_tiebreak, r);
}

int tournament_kind_parse(const char *word, enum tournament_entry_kind *r)
{
	PARSE(kind_names, word, enum tournament_entry_kind, r);
}

int tournament_outcome_parse(const char *word, enum tournament_outcome *r)
{
	PARSE(outcome_names, word, enum tournament_outcome, r);
}

/* --- Faults --- */

static int fault(struct tournament_fault *fault_r, enum tournament_error e,
		 int64_t value, size_t index)
{
	if (fault_r != NULL) {
		memset(fault_r, 0, sizeof(*fault_r));
		fault_r->error = e;
		fault_r->value = value;
		fault_r->index = index;
	}
	return -1;
}

static int fault_range(struct tournament_fault *fault_r, const char *field,
		       int64_t value, int64_t min, int64_t max)
{
	fault(fault_r, TOURNAMENT_ERR_RULE_RANGE, value, 0);
	if (fault_r != NULL) {
		fault_r->field = field;
		fault_r->min = min;
		fault_r->max = max;
	}
	return -1;
}

static int fault_game(struct tournament_fault *fault_r,
		      enum tournament_error e, int64_t game, size_t index)
{
	fault(fault_r, e, game, index);
	if (fault_r != NULL)
		fault_r->game = game;
	return -1;
}

/* --- Rules --- */

void tournament_rules_default(enum tournament_format format,
			      struct tournament_rules *r)
{
	static const enum tournament_tiebreak swiss[] = {
		TOURNAMENT_TB_BUCHHOLZ_CUT1, TOURNAMENT_TB_BUCHHOLZ,
		TOURNAMENT_TB_DIRECT, TOURNAMENT_TB_WINS, TOURNAMENT_TB_RATING,
	};
	static const enum tournament_tiebreak robin[] = {
		TOURNAMENT_TB_DIRECT, TOURNAMENT_TB_SONNEBORN_BERGER,
		TOURNAMENT_TB_WINS, TOURNAMENT_TB_RATING,
	};
	static const enum tournament_tiebreak knockout[] = {
		TOURNAMENT_TB_RATING,
	};
	const enum tournament_tiebreak *tb = format == TOURNAMENT_SWISS ? swiss :
		format == TOURNAMENT_ROUNDROBIN ? robin : knockout;
	size_t n = format == TOURNAMENT_SWISS ? COUNT(swiss) :
		format == TOURNAMENT_ROUNDROBIN ? COUNT(robin) : COUNT(knockout);

	memset(r, 0, sizeof(*r));
	r->format = format;
	r->rounds = 5;
	r->bye_points = TOURNAMENT_WIN;
	memcpy(r->tiebreaks, tb, n * sizeof(*tb));
	r->ntiebreaks = n;
}

int tournament_rules_check(const struct tournament_rules *r,
			   struct tournament_fault *fault_r)
{
	size_t i, j;

	if (fault_r != NULL)
		memset(fault_r, 0, sizeof(*fault_r));
	if (r->format < TOURNAMENT_SWISS || r->format > TOURNAMENT_KNOCKOUT)
		return fault_range(fault_r, "format", r->format,
				   TOURNAMENT_SWISS, TOURNAMENT_KNOCKOUT);
	if (r->rounds < 1 || r->rounds > TOURNAMENT_MAX_ROUNDS)
		return fault_range(fault_r, "rounds", r->rounds, 1,
				   TOURNAMENT_MAX_ROUNDS);
	if (r->bye_points < 0 || r->bye_points > TOURNAMENT_WIN)
		return fault_range(fault_r, "bye_points", r->bye_points, 0,
				   TOURNAMENT_WIN);
	if (r->ntiebreaks > TOURNAMENT_MAX_TIEBREAKS)
		return fault_range(fault_r, "tiebreaks",
				   (int64_t)r->ntiebreaks, 0,
				   TOURNAMENT_MAX_TIEBREAKS);
	for (i = 0; i < r->ntiebreaks; i++) {
		if (r->tiebreaks[i] < TOURNAMENT_TB_BUCHHOLZ ||
		    r->tiebreaks[i] > TOURNAMENT_TB_RATING)
			return fault_range(fault_r, "tiebreaks", (int64_t)i,
					   TOURNAMENT_TB_BUCHHOLZ,
					   TOURNAMENT_TB_RATING);
		for (j = 0; j < i; j++)
			if (r->tiebreaks[j] == r->tiebreaks[i])
				return fault_range(fault_r, "tiebreaks",
						   (int64_t)i, 0, 0);
	}
	return 0;
}

/* --- The state --- */

void tournament_state_free(struct tournament_state **state)
{
	struct tournament_state *s = *state;

	if (s == NULL)
		return;
	free(s->players);
	free(s->games);
	free(s->byes);
	free(s->met);
	free(s);
	*state = NULL;
}

ptrdiff_t tournament_player_index(const struct tournament_state *s,
				  int64_t player)
{
	size_t i;

	for (i = 0; i < s->nplayers; i++)
		if (s->players[i].player == player)
			return (ptrdiff_t)i;
	return -1;
}

bool tournament_met(const struct tournament_state *s, size_t a, size_t b)
{
	return a < s->nplayers && b < s->nplayers &&
	       s->met[a * s->nplayers + b];
}

/* The replay's work: the entrants in the making, then the index of each
 * entry's players and games. */
struct replay {
	const struct tournament_entry *entries;
	size_t n;
	struct tournament_state *s;
	size_t *by_id;     /* player indices sorted by player id */
	size_t *game_entry; /* for each game: the PAIRING's entry */
	size_t *bye_entry;  /* for each bye: its entry */
};

static int seed_compare(const void *pa, const void *pb)
{
	const struct tournament_player *a = pa, *b = pb;

	if (a->rating != b->rating)
		return a->rating > b->rating ? -1 : 1;
	return a->player < b->player ? -1 : a->player > b->player;
}

/* An id and an index, to sort indices by id. */
struct id_index {
	int64_t id;
	size_t index;
};

static int id_compare(const void *pa, const void *pb)
{
	const struct id_index *a = pa, *b = pb;

	return a->id < b->id ? -1 : a->id > b->id;
}

/* The indices 0..n) sorted by ids[i] (a stride apart) into out. */
static void sort_by_id(const void *first, size_t stride, size_t n,
		       size_t *out)
{
	struct id_index *t = xzalloc((n + 1) * sizeof(*t));
	size_t i;

	for (i = 0; i < n; i++) {
		memcpy(&t[i].id, (const char *)first + i * stride,
		       sizeof(t[i].id));
		t[i].index = i;
	}
	qsort(t, n, sizeof(*t), id_compare);
	for (i = 0; i < n; i++)
		out[i] = t[i].index;
	free(t);
}

/* The index of player among the entrants, or -1 (binary search). */
static ptrdiff_t find_player(const struct replay *rp, int64_t player)
{
	size_t lo = 0, hi = rp->s->nplayers, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (rp->s->players[rp->by_id[mid]].player < player)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < rp->s->nplayers &&
	    rp->s->players[rp->by_id[lo]].player == player)
		return (ptrdiff_t)rp->by_id[lo];
	return -1;
}

/* The JOIN, LEAVE and WITHDRAW entries in log order: the entrants, then
 * their seed order and the index by id. */
static int replay_entrants(struct replay *rp, struct tournament_fault *f)
{
	struct tournament_state *s = rp->s;
	const struct tournament_entry *e;
	struct tournament_player *p;
	size_t i, j;

	s->players = xzalloc(TOURNAMENT_MAX_PLAYERS * sizeof(*s->players));
	for (i = 0; i < rp->n; i++) {
		e = &rp->entries[i];
		if (e->kind != TOURNAMENT_JOIN && e->kind != TOURNAMENT_LEAVE &&
		    e->kind != TOURNAMENT_WITHDRAW)
			continue;
		if (e->player <= 0 || e->round < 0 ||
		    e->round > TOURNAMENT_MAX_ROUNDS ||
		    (e->kind == TOURNAMENT_JOIN && e->round != 0))
			return fault(f, TOURNAMENT_ERR_BAD_ENTRY, e->player, i);
		p = NULL;
		for (j = 0; j < s->nplayers; j++)
			if (s->players[j].player == e->player)
				p = &s->players[j];
		if (e->kind == TOURNAMENT_JOIN) {
			if (p != NULL)
				return fault(f, TOURNAMENT_ERR_ALREADY_ENTERED,
					     e->player, i);
			if (s->nplayers == TOURNAMENT_MAX_PLAYERS) {
				fault(f, TOURNAMENT_ERR_TOO_MANY,
				      TOURNAMENT_MAX_PLAYERS + 1, i);
				if (f != NULL)
					f->max = TOURNAMENT_MAX_PLAYERS;
				return -1;
			}
			p = &s->players[s->nplayers++];
			p->player = e->player;
			p->rating = e->rating;
			continue;
		}
		if (p == NULL || p->withdrawn)
			return fault(f, TOURNAMENT_ERR_NOT_ENTERED, e->player, i);
		if (e->round == 0) { /* before the start: no entrant */
			*p = s->players[--s->nplayers];
			continue;
		}
		p->withdrawn = true;
		p->by_operator = e->kind == TOURNAMENT_WITHDRAW;
		p->withdrawn_round = e->round;
	}
	qsort(s->players, s->nplayers, sizeof(*s->players), seed_compare);
	rp->by_id = xzalloc((s->nplayers + 1) * sizeof(*rp->by_id));
	sort_by_id(&s->players[0].player, sizeof(*s->players), s->nplayers,
		   rp->by_id);
	return 0;
}

static int game_compare(const void *pa, const void *pb)
{
	const struct tournament_game *a = pa, *b = pb;

	if (a->round != b->round)
		return a->round < b->round ? -1 : 1;
	return a->game < b->game ? -1 : a->game > b->game;
}

static int bye_compare(const void *pa, const void *pb)
{
	const struct tournament_bye *a = pa, *b = pb;

	if (a->round != b->round)
		return a->round < b->round ? -1 : 1;
	return a->player < b->player ? -1 : a->player > b->player;
}

/* The PAIRING and BYE entries: the games and byes, sorted. */
static int replay_pairings(struct replay *rp, struct tournament_fault *f)
{
	struct tournament_state *s = rp->s;
	const struct tournament_entry *e;
	struct tournament_game *g;
	ptrdiff_t w, b;
	size_t i, ngames = 0, nbyes = 0;

	for (i = 0; i < rp->n; i++) {
		e = &rp->entries[i];
		if (e->kind == TOURNAMENT_PAIRING)
			ngames++;
		else if (e->kind == TOURNAMENT_BYE)
			nbyes++;
	}
	s->games = xzalloc((ngames + 1) * sizeof(*s->games));
	s->byes = xzalloc((nbyes + 1) * sizeof(*s->byes));
	for (i = 0; i < rp->n; i++) {
		e = &rp->entries[i];
		if (e->kind != TOURNAMENT_PAIRING && e->kind != TOURNAMENT_BYE)
			continue;
		if (e->round < 1 || e->round > TOURNAMENT_MAX_ROUNDS ||
		    e->player <= 0 ||
		    (e->kind == TOURNAMENT_PAIRING &&
		     (e->other <= 0 || e->game <= 0)))
			return fault(f, TOURNAMENT_ERR_BAD_ENTRY, e->player, i);
		w = find_player(rp, e->player);
		if (w < 0)
			return fault(f, TOURNAMENT_ERR_NOT_ENTERED, e->player, i);
		if (e->round > s->rounds_paired)
			s->rounds_paired = e->round;
		if (e->kind == TOURNAMENT_BYE) {
			rp->bye_entry[s->nbyes] = i;
			s->byes[s->nbyes].round = e->round;
			s->byes[s->nbyes++].player = (size_t)w;
			continue;
		}
		b = find_player(rp, e->other);
		if (b < 0)
			return fault(f, TOURNAMENT_ERR_NOT_ENTERED, e->other, i);
		if (w == b)
			return fault(f, TOURNAMENT_ERR_SELF, e->player, i);
		g = &s->games[s->ngames++];
		g->round = e->round;
		g->game = e->game;
		g->white = (size_t)w;
		g->black = (size_t)b;
		rp->game_entry[s->ngames - 1] = i;
	}
	return 0;
}

/* The game of id game (games sorted by id into order), or -1. */
static ptrdiff_t find_game(const struct tournament_state *s,
			   const size_t *order, int64_t game)
{
	size_t lo = 0, hi = s->ngames, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (s->games[order[mid]].game < game)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < s->ngames && s->games[order[lo]].game == game)
		return (ptrdiff_t)order[lo];
	return -1;
}


/* Refuse a game id twice and a player twice in a round; *order_r: the
 * games' indices by game id (the caller frees it). */
static int replay_check(struct replay *rp, bool knockout, size_t **order_r,
			struct tournament_fault *f)
{
	struct tournament_state *s = rp->s;
	size_t np = s->nplayers, i, k, p, with, entry, *cell;
	size_t *order = xzalloc((s->ngames + 1) * sizeof(*order));
	/* by round and player: 1 + the opponent, np + 1 a bye, 0 nothing */
	size_t *seen = xzalloc(((size_t)s->rounds_paired + 1) * (np + 1) *
			       sizeof(*seen));
	int round, ret = -1;

	*order_r = order;
	sort_by_id(&s->games[0].game, sizeof(*s->games), s->ngames, order);
	for (i = 1; i < s->ngames; i++)
		if (s->games[order[i]].game == s->games[order[i - 1]].game) {
			k = rp->game_entry[order[i]] > rp->game_entry[order[i - 1]] ?
			    order[i] : order[i - 1];
			fault_game(f, TOURNAMENT_ERR_DUPLICATE_GAME,
				   s->games[k].game, rp->game_entry[k]);
			goto out;
		}
	/* every game's two players and every bye's player, once a round;
	 * a knockout match's games are all of its round */
	for (i = 0; i < 2 * s->ngames + s->nbyes; i++) {
		if (i < 2 * s->ngames) {
			k = i / 2;
			round = s->games[k].round;
			p = i % 2 == 0 ? s->games[k].white : s->games[k].black;
			with = 1 + (i % 2 == 0 ? s->games[k].black :
				    s->games[k].white);
			entry = rp->game_entry[k];
		} else {
			k = i - 2 * s->ngames;
			round = s->byes[k].round;
			p = s->byes[k].player;
			with = np + 1;
			entry = rp->bye_entry[k];
		}
		cell = &seen[(size_t)round * np + p];
		if (*cell != 0 && !(knockout && *cell == with && with <= np)) {
			fault(f, TOURNAMENT_ERR_TWICE_IN_ROUND,
			      s->players[p].player, entry);
			if (f != NULL)
				f->min = round;
			goto out;
		}
		*cell = with;
	}
	ret = 0;
out:
	free(seen);
	return ret;
}

/* The RESULT and ADJUDICATION entries, into the games. */
static int replay_results(struct replay *rp, const size_t *order,
			  struct tournament_fault *f)
{
	struct tournament_state *s = rp->s;
	const struct tournament_entry *e;
	struct tournament_game *g;
	bool *resulted = xzalloc(s->ngames + 1);
	ptrdiff_t k, w, b;
	size_t i;
	int ret = -1;

	for (i = 0; i < rp->n; i++) {
		e = &rp->entries[i];
		if (e->kind != TOURNAMENT_RESULT &&
		    e->kind != TOURNAMENT_ADJUDICATION)
			continue;
		if (e->game <= 0 || e->outcome < TOURNAMENT_WHITE_WINS ||
		    e->outcome > TOURNAMENT_DRAWN) {
			fault_game(f, TOURNAMENT_ERR_BAD_ENTRY, e->game, i);
			goto out;
		}
		k = find_game(s, order, e->game);
		if (k < 0) {
			fault_game(f, TOURNAMENT_ERR_UNKNOWN_GAME, e->game, i);
			goto out;
		}
		g = &s->games[k];
		w = find_player(rp, e->player);
		b = find_player(rp, e->other);
		if (w < 0 || b < 0 || w == b ||
		    !((size_t)w == g->white || (size_t)w == g->black) ||
		    !((size_t)b == g->white || (size_t)b == g->black)) {
			fault_game(f, TOURNAMENT_ERR_WRONG_PLAYERS, e->game, i);
			goto out;
		}
		if (e->kind == TOURNAMENT_RESULT) {
			if (resulted[k]) {
				fault_game(f, TOURNAMENT_ERR_DUPLICATE_RESULT,
					   e->game, i);
				goto out;
			}
			resulted[k] = true;
			if (g->adjudicated) /* the decision stands */
				continue;
		}
		g->adjudicated = e->kind == TOURNAMENT_ADJUDICATION;
		g->outcome = e->outcome;
		g->white = (size_t)w; /* a swap: the colours played */
		g->black = (size_t)b;
	}
	ret = 0;
out:
	free(resulted);
	return ret;
}

/* What p scored in g, in half points (g counts). */
static int score_of(const struct tournament_game *g, size_t p)
{
	bool white = p == g->white;

	switch (g->outcome) {
	case TOURNAMENT_WHITE_WINS:
		return white ? TOURNAMENT_WIN : 0;
	case TOURNAMENT_BLACK_WINS:
		return white ? 0 : TOURNAMENT_WIN;
	case TOURNAMENT_DRAWN:
		return TOURNAMENT_DRAW;
	case TOURNAMENT_UNFINISHED: /* a forfeit of both */
		break;
	}
	return 0;
}

/* The withdrawal rules (tournament.h): forfeits, and a round-robin
 * withdrawal under half played removed. */
static void replay_withdrawals(struct tournament_state *s,
			       const struct tournament_rules *rules)
{
	struct tournament_game *g;
	int64_t scheduled;
	size_t i;
	bool ww, bw;

	for (i = 0; i < s->ngames; i++) {
		g = &s->games[i];
		if (g->outcome != TOURNAMENT_UNFINISHED) {
			g->counts = true;
			s->players[g->white].finished++;
			s->players[g->black].finished++;
			continue;
		}
		ww = s->players[g->white].withdrawn;
		bw = s->players[g->black].withdrawn;
		if (!ww && !bw)
			continue; /* still running */
		g->forfeit = g->counts = true;
		if (!(ww && bw))
			g->outcome = ww ? TOURNAMENT_BLACK_WINS :
				     TOURNAMENT_WHITE_WINS;
	}
	if (rules->format != TOURNAMENT_ROUNDROBIN || s->nplayers < 2)
		return;
	scheduled = (int64_t)(s->nplayers - 1) * (rules->twice ? 2 : 1);
	for (i = 0; i < s->nplayers; i++)
		if (s->players[i].withdrawn &&
		    2 * (int64_t)s->players[i].finished < scheduled)
			s->players[i].removed = true;
	for (i = 0; i < s->ngames; i++) {
		g = &s->games[i];
		if (s->players[g->white].removed ||
		    s->players[g->black].removed)
			g->counts = false;
	}
}

/* Each player's points and counts from the games that count and the
 * byes; colours from the games finished on the board, in round order. */
static void replay_totals(struct tournament_state *s,
			  const struct tournament_rules *rules)
{
	const struct tournament_game *g;
	struct tournament_player *p;
	size_t i, k, who;
	int sc;

	for (i = 0; i < s->ngames; i++) {
		g = &s->games[i];
		if (g->counts && !g->forfeit) {
			s->players[g->white].whites++;
			s->players[g->white].last_colour = 1;
			s->players[g->black].blacks++;
			s->players[g->black].last_colour = -1;
		}
		if (!g->counts)
			continue;
		for (k = 0; k < 2; k++) {
			who = k == 0 ? g->white : g->black;
			p = &s->players[who];
			sc = score_of(g, who);
			p->points += sc;
			p->played++;
			if (sc == TOURNAMENT_WIN) {
				p->wins++;
				p->forfeit_wins += g->forfeit;
			} else if (sc == TOURNAMENT_DRAW) {
				p->draws++;
			} else {
				p->losses++;
				p->forfeit_losses += g->forfeit;
			}
		}
	}
	for (i = 0; i < s->nbyes; i++) {
		p = &s->players[s->byes[i].player];
		if (p->removed)
			continue;
		p->byes++;
		if (rules->format == TOURNAMENT_SWISS)
			p->points += rules->bye_points;
	}
	for (i = 0; i < s->nplayers; i++)
		if (s->players[i].removed)
			s->players[i].points = 0;
}

int tournament_replay(const struct tournament_entry *entries, size_t n,
		      const struct tournament_rules *rules,
		      struct tournament_state **state_r,
		      struct tournament_fault *fault_r)
{
	struct replay rp = { .entries = entries, .n = n };
	size_t *order = NULL, i;
	int ret = -1;

	*state_r = NULL;
	if (fault_r != NULL)
		memset(fault_r, 0, sizeof(*fault_r));
	if (n > TOURNAMENT_MAX_ENTRIES) {
		fault(fault_r, TOURNAMENT_ERR_TOO_MANY, (int64_t)n, 0);
		if (fault_r != NULL)
			fault_r->max = TOURNAMENT_MAX_ENTRIES;
		return -1;
	}
	for (i = 0; i < n; i++)
		if (entries[i].kind < TOURNAMENT_JOIN ||
		    entries[i].kind > TOURNAMENT_ADJUDICATION)
			return fault(fault_r, TOURNAMENT_ERR_BAD_ENTRY,
				     entries[i].kind, i);
	rp.s = xzalloc(sizeof(*rp.s));
	rp.game_entry = xzalloc((n + 1) * sizeof(*rp.game_entry));
	rp.bye_entry = xzalloc((n + 1) * sizeof(*rp.bye_entry));
	if (replay_entrants(&rp, fault_r) < 0 ||
	    replay_pairings(&rp, fault_r) < 0 ||
	    replay_check(&rp, rules->format == TOURNAMENT_KNOCKOUT, &order,
			 fault_r) < 0 ||
	    replay_results(&rp, order, fault_r) < 0)
		goto out;
	/* the order of the state: games by round and id, byes by round */
	qsort(rp.s->games, rp.s->ngames, sizeof(*rp.s->games), game_compare);
	qsort(rp.s->byes, rp.s->nbyes, sizeof(*rp.s->byes), bye_compare);
	rp.s->met = xzalloc(rp.s->nplayers * rp.s->nplayers + 1);
	for (i = 0; i < rp.s->ngames; i++) {
		rp.s->met[rp.s->games[i].white * rp.s->nplayers +
			  rp.s->games[i].black] = true;
		rp.s->met[rp.s->games[i].black * rp.s->nplayers +
			  rp.s->games[i].white] = true;
	}
	replay_withdrawals(rp.s, rules);
	replay_totals(rp.s, rules);
	*state_r = rp.s;
	rp.s = NULL;
	ret = 0;
out:
	tournament_state_free(&rp.s);
	free(order);
	free(rp.by_id);
	free(rp.game_entry);
	free(rp.bye_entry);
	return ret;
}
