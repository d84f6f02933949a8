/* ladder.c -- a ladder's rules, the replay of its log into places, and
 * the checks of challenges, acceptances, walkovers and absence; see
 * ladder.h. */
#include <config.h> /* autoconf's: _GNU_SOURCE */

#include "server/ladder.h"

#include <stdlib.h>
#include <string.h>

#include "util/name_table.h"
#include "util/xalloc.h"

static const char *const ladder_error_names[] = {
	[LADDER_OK] = "ok",
	[LADDER_ERR_RULE_RANGE] = "rule_range",
	[LADDER_ERR_NOT_MEMBER] = "not_member",
	[LADDER_ERR_SELF] = "self",
	[LADDER_ERR_DEFENDER_NOT_MEMBER] = "defender_not_member",
	[LADDER_ERR_ALREADY_CHALLENGED] = "already_challenged",
	[LADDER_ERR_OUT_OF_RANGE] = "out_of_range",
	[LADDER_ERR_TOO_MANY_OUT] = "too_many_out",
	[LADDER_ERR_TOO_MANY_IN] = "too_many_in",
	[LADDER_ERR_REMATCH_WAIT] = "rematch_wait",
	[LADDER_ERR_UNKNOWN_GAME] = "unknown_game",
	[LADDER_ERR_NOT_DEFENDER] = "not_defender",
	[LADDER_ERR_ALREADY_ACCEPTED] = "already_accepted",
	[LADDER_ERR_TOO_LATE] = "too_late",
	[LADDER_ERR_ALREADY_MEMBER] = "already_member",
	[LADDER_ERR_DUPLICATE_GAME] = "duplicate_game",
	[LADDER_ERR_WRONG_PLAYERS] = "wrong_players",
	[LADDER_ERR_POSITION_RANGE] = "position_range",
	[LADDER_ERR_BAD_EVENT] = "bad_event",
};

static const char *const kind_names[] = {
	[LADDER_EVENT_JOINED] = "joined",
	[LADDER_EVENT_LEFT] = "left",
	[LADDER_EVENT_WITHDRAWN] = "withdrawn",
	[LADDER_EVENT_CHALLENGED] = "challenged",
	[LADDER_EVENT_ACCEPTED] = "accepted",
	[LADDER_EVENT_RESULT] = "result",
	[LADDER_EVENT_MOVED] = "moved",
};

static const char *const result_names[] = {
	[LADDER_RESULT_NORMAL] = "normal",
	[LADDER_RESULT_TIME] = "time",
	[LADDER_RESULT_WALKOVER] = "walkover",
	[LADDER_RESULT_DRAW] = "draw",
	[LADDER_RESULT_CANCELLED] = "cancelled",
};

static const char *const win_names[] = {
	[LADDER_WIN_TAKE] = "take",
	[LADDER_WIN_SWAP] = "swap",
};

#define COUNT(a) NAME_TABLE_COUNT(a)

const char *ladder_error_name(enum ladder_error error)
{
	return name_table_name(ladder_error_names, COUNT(ladder_error_names), error);
}

const char *ladder_event_kind_name(enum ladder_event_kind kind)
{
	return name_table_name(kind_names, COUNT(kind_names), kind);
}

const char *ladder_result_name(enum ladder_result result)
{
	return name_table_name(result_names, COUNT(result_names), result);
}

const char *ladder_win_name(enum ladder_win win)
{
	return name_table_name(win_names, COUNT(win_names), win);
}

int ladder_event_kind_parse(const char *word, enum ladder_event_kind *kind_r)
{
	unsigned i;

	if (name_table_parse(kind_names, COUNT(kind_names), word, &i) < 0)
		return -1;
	*kind_r = (enum ladder_event_kind)i;
	return 0;
}

int ladder_result_parse(const char *word, enum ladder_result *result_r)
{
	unsigned i;

	if (name_table_parse(result_names, COUNT(result_names), word, &i) < 0)
		return -1;
	*result_r = (enum ladder_result)i;
	return 0;
}

int ladder_win_parse(const char *word, enum ladder_win *win_r)
{
	unsigned i;

	if (name_table_parse(win_names, COUNT(win_names), word, &i) < 0)
		return -1;
	*win_r = (enum ladder_win)i;
	return 0;
}

/* --- Faults --- */

static void fault_clear(struct ladder_fault *fault_r)
{
	if (fault_r != NULL)
		memset(fault_r, 0, sizeof(*fault_r));
}

/* Set *fault_r (may be NULL) to error with value; returns -1. */
static int fault(struct ladder_fault *fault_r, enum ladder_error error,
		 int64_t value)
{
	if (fault_r != NULL) {
		memset(fault_r, 0, sizeof(*fault_r));
		fault_r->error = error;
		fault_r->value = value;
	}
	return -1;
}

static int fault_range(struct ladder_fault *fault_r, const char *field,
		       int64_t value, int64_t min, int64_t max)
{
	fault(fault_r, LADDER_ERR_RULE_RANGE, value);
	if (fault_r != NULL) {
		fault_r->field = field;
		fault_r->min = min;
		fault_r->max = max;
	}
	return -1;
}

static int fault_game(struct ladder_fault *fault_r, enum ladder_error error,
		      int64_t value, int64_t game)
{
	fault(fault_r, error, value);
	if (fault_r != NULL)
		fault_r->game = game;
	return -1;
}

/* --- Rules --- */

void ladder_rules_default(struct ladder_rules *rules_r)
{
	memset(rules_r, 0, sizeof(*rules_r));
	/* club ladders let a player challenge 2-5 places up; DGS 10 */
	rules_r->challenge_range = 5;
	rules_r->range_percent = false;
	rules_r->max_out = 5;
	rules_r->max_in = 5;
	rules_r->rematch_wait = 7 * LADDER_DAY;
	rules_r->accept_within = 7 * LADDER_DAY;
	rules_r->time_loss_drop = 1;
	rules_r->absence_withdraw = 30 * LADDER_DAY;
	rules_r->win = LADDER_WIN_TAKE;
}

int ladder_rules_check(const struct ladder_rules *r,
		       struct ladder_fault *fault_r)
{
	int range_max = r->range_percent ? 100 : LADDER_MAX_RANGE;

	fault_clear(fault_r);
	if (r->challenge_range < 1 || r->challenge_range > range_max)
		return fault_range(fault_r, "challenge_range",
				   r->challenge_range, 1, range_max);
	if (r->max_out < 1 || r->max_out > LADDER_MAX_OPEN)
		return fault_range(fault_r, "max_out", r->max_out, 1,
				   LADDER_MAX_OPEN);
	if (r->max_in < 1 || r->max_in > LADDER_MAX_OPEN)
		return fault_range(fault_r, "max_in", r->max_in, 1,
				   LADDER_MAX_OPEN);
	if (r->rematch_wait < 0 || r->rematch_wait > LADDER_MAX_WAIT)
		return fault_range(fault_r, "rematch_wait", r->rematch_wait,
				   0, LADDER_MAX_WAIT);
	if (r->accept_within < 0 || r->accept_within > LADDER_MAX_WAIT)
		return fault_range(fault_r, "accept_within", r->accept_within,
				   0, LADDER_MAX_WAIT);
	if (r->time_loss_drop < 0 || r->time_loss_drop > LADDER_MAX_RANGE)
		return fault_range(fault_r, "time_loss_drop",
				   r->time_loss_drop, 0, LADDER_MAX_RANGE);
	if (r->absence_withdraw < 0 || r->absence_withdraw > LADDER_MAX_WAIT)
		return fault_range(fault_r, "absence_withdraw",
				   r->absence_withdraw, 0, LADDER_MAX_WAIT);
	if ((unsigned)r->win >= COUNT(win_names))
		return fault_range(fault_r, "win", r->win, 0,
				   (int64_t)COUNT(win_names) - 1);
	return 0;
}

int ladder_range_places(const struct ladder_rules *rules, size_t size)
{
	int64_t places;

	if (!rules->range_percent)
		places = rules->challenge_range;
	else /* rounded up: 10% of a ladder of 5 is still a place */
		places = ((int64_t)size * rules->challenge_range + 99) / 100;
	return places < 1 ? 1 : (int)places;
}

/* --- The log --- */

void ladder_challenge_event(const struct ladder_rules *rules,
			    int64_t challenger, int64_t defender,
			    int64_t game, int64_t now,
			    struct ladder_event *event_r)
{
	*event_r = (struct ladder_event){
		.kind = LADDER_EVENT_CHALLENGED, .at = now, .game = game,
		.player = challenger, .other = defender,
		.accept_by = rules->accept_within > 0 ?
			     now + rules->accept_within : LADDER_NEVER,
		.win = rules->win, .time_loss_drop = rules->time_loss_drop,
	};
}

/* --- The standing --- */

/* An empty ladder; free it with ladder_standing_free.  Never NULL. */
static struct ladder_standing *ladder_standing_new(void)
{
	return xzalloc(sizeof(struct ladder_standing));
}

void ladder_standing_free(struct ladder_standing **standing)
{
	struct ladder_standing *s = *standing;

	if (s == NULL)
		return;
	free(s->members);
	free(s->open);
	free(s->pairs);
	free(s);
	*standing = NULL;
}

/* Room for one more of n items of size in *array of *cap. */
static void grow(void **array, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return;
	*cap = *cap == 0 ? 16 : *cap * 2;
	*array = xrealloc(*array, *cap * size);
}

/* The index of player in members, or -1. */
static ptrdiff_t member_index(const struct ladder_standing *s, int64_t player)
{
	size_t i;

	for (i = 0; i < s->nmembers; i++)
		if (s->members[i].player == player)
			return (ptrdiff_t)i;
	return -1;
}

static ptrdiff_t open_index(const struct ladder_standing *s, int64_t game)
{
	size_t i;

	for (i = 0; i < s->nopen; i++)
		if (s->open[i].game == game)
			return (ptrdiff_t)i;
	return -1;
}

static struct ladder_member *member_of(struct ladder_standing *s,
				       int64_t player)
{
	ptrdiff_t i = member_index(s, player);

	return i < 0 ? NULL : &s->members[i];
}

int ladder_position(const struct ladder_standing *standing, int64_t player)
{
	return (int)(member_index(standing, player) + 1);
}

const struct ladder_challenge *
ladder_open_challenge(const struct ladder_standing *standing, int64_t game)
{
	ptrdiff_t i = open_index(standing, game);

	return i < 0 ? NULL : &standing->open[i];
}

int64_t ladder_last_result(const struct ladder_standing *standing,
			   int64_t a, int64_t b)
{
	int64_t lo = a < b ? a : b, hi = a < b ? b : a;
	size_t i;

	for (i = 0; i < standing->npairs; i++)
		if (standing->pairs[i].a == lo && standing->pairs[i].b == hi)
			return standing->pairs[i].last_result;
	return -1;
}

/* Move the member at index from to index to (both < nmembers); those
 * between shift one place towards from. */
static void member_move(struct ladder_standing *s, size_t from, size_t to)
{
	struct ladder_member m = s->members[from];

	if (from > to)
		memmove(&s->members[to + 1], &s->members[to],
			(from - to) * sizeof(m));
	else if (from < to)
		memmove(&s->members[from], &s->members[from + 1],
			(to - from) * sizeof(m));
	s->members[to] = m;
}

static void pair_record(struct ladder_standing *s, int64_t a, int64_t b,
			int64_t at)
{
	int64_t lo = a < b ? a : b, hi = a < b ? b : a;
	size_t i;

	for (i = 0; i < s->npairs; i++)
		if (s->pairs[i].a == lo && s->pairs[i].b == hi) {
			/* a log out of time order never shortens a wait */
			if (at > s->pairs[i].last_result)
				s->pairs[i].last_result = at;
			return;
		}
	grow((void **)&s->pairs, &s->pairs_cap, s->npairs, sizeof(*s->pairs));
	s->pairs[s->npairs].a = lo;
	s->pairs[s->npairs].b = hi;
	s->pairs[s->npairs].last_result = at;
	s->npairs++;
}

/* --- Events --- */

static int apply_joined(struct ladder_standing *s, const struct ladder_event *e,
			struct ladder_fault *fault_r)
{
	struct ladder_member *m;
	size_t i;

	if (member_index(s, e->player) >= 0)
		return fault(fault_r, LADDER_ERR_ALREADY_MEMBER, e->player);
	grow((void **)&s->members, &s->members_cap, s->nmembers,
	     sizeof(*s->members));
	m = &s->members[s->nmembers++];
	memset(m, 0, sizeof(*m));
	m->player = e->player;
	m->joined_at = e->at;
	/* a player back before the games of their last stay ended */
	for (i = 0; i < s->nopen; i++) {
		if (s->open[i].challenger == e->player)
			m->out++;
		if (s->open[i].defender == e->player)
			m->in++;
	}
	return 0;
}

static int apply_left(struct ladder_standing *s, const struct ladder_event *e,
		      struct ladder_fault *fault_r)
{
	ptrdiff_t i = member_index(s, e->player);

	if (i < 0)
		return fault(fault_r, LADDER_ERR_NOT_MEMBER, e->player);
	/* everyone below moves up one; open challenges stay until their
	 * results, which then move nobody */
	memmove(&s->members[i], &s->members[i + 1],
		(s->nmembers - (size_t)i - 1) * sizeof(*s->members));
	s->nmembers--;
	return 0;
}

static int apply_challenged(struct ladder_standing *s,
			    const struct ladder_event *e,
			    struct ladder_fault *fault_r)
{
	struct ladder_member *c = member_of(s, e->player);
	struct ladder_member *d = member_of(s, e->other);

	if (c == NULL)
		return fault(fault_r, LADDER_ERR_NOT_MEMBER, e->player);
	if (e->player == e->other)
		return fault(fault_r, LADDER_ERR_SELF, e->player);
	if (d == NULL)
		return fault(fault_r, LADDER_ERR_DEFENDER_NOT_MEMBER, e->other);
	if (open_index(s, e->game) >= 0)
		return fault_game(fault_r, LADDER_ERR_DUPLICATE_GAME, 0,
				  e->game);
	if ((unsigned)e->win >= COUNT(win_names) || e->time_loss_drop < 0)
		return fault_game(fault_r, LADDER_ERR_BAD_EVENT, 0, e->game);
	c->out++;
	d->in++;
	grow((void **)&s->open, &s->open_cap, s->nopen, sizeof(*s->open));
	s->open[s->nopen++] = (struct ladder_challenge){
		.game = e->game, .at = e->at,
		.challenger = e->player, .defender = e->other,
		.accept_by = e->accept_by, .win = e->win,
		.time_loss_drop = e->time_loss_drop,
	};
	return 0;
}

static int apply_accepted(struct ladder_standing *s,
			  const struct ladder_event *e,
			  struct ladder_fault *fault_r)
{
	ptrdiff_t i = open_index(s, e->game);

	if (i < 0)
		return fault_game(fault_r, LADDER_ERR_UNKNOWN_GAME, 0, e->game);
	if (s->open[i].accepted)
		return fault_game(fault_r, LADDER_ERR_ALREADY_ACCEPTED, 0,
				  e->game);
	s->open[i].accepted = true;
	return 0;
}

/* Whether the players a RESULT names fit the challenge ch. */
static bool result_players_fit(const struct ladder_challenge *ch,
			       const struct ladder_event *e)
{
	bool forward = e->player == ch->challenger &&
		e->other == ch->defender;
	bool backward = e->player == ch->defender &&
		e->other == ch->challenger;

	switch (e->result) {
	case LADDER_RESULT_NORMAL:
	case LADDER_RESULT_TIME:
		return forward || backward;
	case LADDER_RESULT_WALKOVER:
		return forward;
	case LADDER_RESULT_DRAW:
	case LADDER_RESULT_CANCELLED:
		return (e->player == 0 && e->other == 0) || forward ||
			backward;
	}
	return false;
}

/* The places a result moves (see ladder.h), ch still open. */
static void result_move(struct ladder_standing *s,
			const struct ladder_challenge *ch,
			const struct ladder_event *e)
{
	ptrdiff_t c = member_index(s, ch->challenger);
	ptrdiff_t d = member_index(s, ch->defender);
	struct ladder_member tmp;
	size_t to;

	if (c < 0 || d < 0)
		return; /* a player left while the game ran */
	if (e->result == LADDER_RESULT_DRAW ||
	    e->result == LADDER_RESULT_CANCELLED)
		return;
	if (e->player == ch->challenger) {
		if (c < d)
			return; /* already above: keeps the better place */
		if (ch->win == LADDER_WIN_SWAP) {
			tmp = s->members[c];
			s->members[c] = s->members[d];
			s->members[d] = tmp;
		} else {
			member_move(s, (size_t)c, (size_t)d);
		}
		return;
	}
	/* the defender won: only a challenger's time loss costs places */
	if (e->result != LADDER_RESULT_TIME)
		return;
	to = (size_t)c + (size_t)ch->time_loss_drop;
	if (to > s->nmembers - 1)
		to = s->nmembers - 1;
	member_move(s, (size_t)c, to);
}

static int apply_result(struct ladder_standing *s,
			const struct ladder_event *e,
			struct ladder_fault *fault_r)
{
	ptrdiff_t i = open_index(s, e->game);
	struct ladder_challenge ch;
	struct ladder_member *m;

	if (i < 0)
		return fault_game(fault_r, LADDER_ERR_UNKNOWN_GAME, 0, e->game);
	if ((unsigned)e->result >= COUNT(result_names))
		return fault_game(fault_r, LADDER_ERR_BAD_EVENT, 0, e->game);
	ch = s->open[i];
	if (!result_players_fit(&ch, e))
		return fault_game(fault_r, LADDER_ERR_WRONG_PLAYERS, 0,
				  e->game);
	result_move(s, &ch, e);
	if ((m = member_of(s, ch.challenger)) != NULL)
		m->out--;
	if ((m = member_of(s, ch.defender)) != NULL)
		m->in--;
	memmove(&s->open[i], &s->open[i + 1],
		(s->nopen - (size_t)i - 1) * sizeof(*s->open));
	s->nopen--;
	if (e->result != LADDER_RESULT_CANCELLED)
		pair_record(s, ch.challenger, ch.defender, e->at);
	return 0;
}

static int apply_moved(struct ladder_standing *s, const struct ladder_event *e,
		       struct ladder_fault *fault_r)
{
	ptrdiff_t i = member_index(s, e->player);

	if (i < 0)
		return fault(fault_r, LADDER_ERR_NOT_MEMBER, e->player);
	if (e->position < 1 || (size_t)e->position > s->nmembers) {
		fault(fault_r, LADDER_ERR_POSITION_RANGE, e->position);
		if (fault_r != NULL) {
			fault_r->min = 1;
			fault_r->max = (int64_t)s->nmembers;
		}
		return -1;
	}
	member_move(s, (size_t)i, (size_t)e->position - 1);
	return 0;
}

/* The ids an event of its kind needs are > 0. */
static bool event_ids_valid(const struct ladder_event *e)
{
	switch (e->kind) {
	case LADDER_EVENT_JOINED:
	case LADDER_EVENT_LEFT:
	case LADDER_EVENT_WITHDRAWN:
	case LADDER_EVENT_MOVED:
		return e->player > 0;
	case LADDER_EVENT_CHALLENGED:
		return e->player > 0 && e->other > 0 && e->game > 0;
	case LADDER_EVENT_ACCEPTED:
	case LADDER_EVENT_RESULT:
		return e->game > 0;
	}
	return false;
}

int ladder_apply(struct ladder_standing *standing,
		 const struct ladder_event *event,
		 struct ladder_fault *fault_r)
{
	int ret = -1;

	fault_clear(fault_r);
	if (!event_ids_valid(event))
		return fault_game(fault_r, LADDER_ERR_BAD_EVENT, 0,
				  event->game);
	/* each checks everything before it changes anything */
	switch (event->kind) {
	case LADDER_EVENT_JOINED:
		ret = apply_joined(standing, event, fault_r);
		break;
	case LADDER_EVENT_LEFT:
	case LADDER_EVENT_WITHDRAWN:
		ret = apply_left(standing, event, fault_r);
		break;
	case LADDER_EVENT_CHALLENGED:
		ret = apply_challenged(standing, event, fault_r);
		break;
	case LADDER_EVENT_ACCEPTED:
		ret = apply_accepted(standing, event, fault_r);
		break;
	case LADDER_EVENT_RESULT:
		ret = apply_result(standing, event, fault_r);
		break;
	case LADDER_EVENT_MOVED:
		ret = apply_moved(standing, event, fault_r);
		break;
	}
	if (ret == 0)
		standing->nevents++;
	return ret;
}

int ladder_replay(const struct ladder_event *events, size_t n,
		  struct ladder_standing **standing_r,
		  struct ladder_fault *fault_r)
{
	struct ladder_standing *s = ladder_standing_new();
	size_t i;

	fault_clear(fault_r);
	for (i = 0; i < n; i++)
		if (ladder_apply(s, &events[i], fault_r) < 0) {
			if (fault_r != NULL)
				fault_r->index = i;
			ladder_standing_free(&s);
			*standing_r = NULL;
			return -1;
		}
	*standing_r = s;
	return 0;
}

/* --- Checks --- */

/* An open challenge between a and b, either way, or NULL. */
static const struct ladder_challenge *
open_between(const struct ladder_standing *s, int64_t a, int64_t b)
{
	size_t i;

	for (i = 0; i < s->nopen; i++)
		if ((s->open[i].challenger == a && s->open[i].defender == b) ||
		    (s->open[i].challenger == b && s->open[i].defender == a))
			return &s->open[i];
	return NULL;
}

int ladder_check_challenge(const struct ladder_rules *rules,
			   const struct ladder_standing *s,
			   int64_t challenger, int64_t defender, int64_t now,
			   struct ladder_fault *fault_r)
{
	ptrdiff_t c = member_index(s, challenger);
	ptrdiff_t d = member_index(s, defender);
	const struct ladder_challenge *ch;
	int range = ladder_range_places(rules, s->nmembers);
	int64_t last;

	fault_clear(fault_r);
	if (c < 0)
		return fault(fault_r, LADDER_ERR_NOT_MEMBER, challenger);
	if (challenger == defender)
		return fault(fault_r, LADDER_ERR_SELF, challenger);
	if (d < 0)
		return fault(fault_r, LADDER_ERR_DEFENDER_NOT_MEMBER, defender);
	if ((ch = open_between(s, challenger, defender)) != NULL)
		return fault_game(fault_r, LADDER_ERR_ALREADY_CHALLENGED, 0,
				  ch->game);
	if (d >= c || c - d > range) {
		fault(fault_r, LADDER_ERR_OUT_OF_RANGE, c - d);
		if (fault_r != NULL) {
			fault_r->place = (int)c + 1;
			fault_r->defender_place = (int)d + 1;
			fault_r->min = 1;
			fault_r->max = range;
		}
		return -1;
	}
	if (s->members[c].out >= rules->max_out) {
		fault(fault_r, LADDER_ERR_TOO_MANY_OUT, s->members[c].out);
		if (fault_r != NULL)
			fault_r->max = rules->max_out;
		return -1;
	}
	if (s->members[d].in >= rules->max_in) {
		fault(fault_r, LADDER_ERR_TOO_MANY_IN, s->members[d].in);
		if (fault_r != NULL)
			fault_r->max = rules->max_in;
		return -1;
	}
	last = ladder_last_result(s, challenger, defender);
	if (last >= 0 && rules->rematch_wait > 0 &&
	    now < last + rules->rematch_wait) {
		fault(fault_r, LADDER_ERR_REMATCH_WAIT, last);
		if (fault_r != NULL)
			fault_r->until = last + rules->rematch_wait;
		return -1;
	}
	return 0;
}

int ladder_challengeable(const struct ladder_rules *rules,
			 const struct ladder_standing *s, int64_t player,
			 int64_t now, int64_t *out, size_t *n_r,
			 struct ladder_fault *fault_r)
{
	ptrdiff_t c = member_index(s, player);
	size_t i, n = 0;

	*n_r = 0;
	fault_clear(fault_r);
	if (c < 0)
		return fault(fault_r, LADDER_ERR_NOT_MEMBER, player);
	if (s->members[c].out >= rules->max_out) {
		fault(fault_r, LADDER_ERR_TOO_MANY_OUT, s->members[c].out);
		if (fault_r != NULL)
			fault_r->max = rules->max_out;
		return -1;
	}
	for (i = 0; i < (size_t)c; i++)
		if (ladder_check_challenge(rules, s, player,
					   s->members[i].player, now,
					   NULL) == 0)
			out[n++] = s->members[i].player;
	*n_r = n;
	return 0;
}

int ladder_check_accept(const struct ladder_standing *s, int64_t game,
			int64_t player, int64_t now,
			struct ladder_fault *fault_r)
{
	const struct ladder_challenge *ch = ladder_open_challenge(s, game);

	fault_clear(fault_r);
	if (ch == NULL)
		return fault_game(fault_r, LADDER_ERR_UNKNOWN_GAME, 0, game);
	if (ch->defender != player)
		return fault_game(fault_r, LADDER_ERR_NOT_DEFENDER, player,
				  game);
	if (ch->accepted)
		return fault_game(fault_r, LADDER_ERR_ALREADY_ACCEPTED, 0,
				  game);
	if (now >= ch->accept_by) {
		fault_game(fault_r, LADDER_ERR_TOO_LATE, 0, game);
		if (fault_r != NULL)
			fault_r->until = ch->accept_by;
		return -1;
	}
	return 0;
}

size_t ladder_due_walkovers(const struct ladder_standing *s, int64_t now,
			    int64_t *out)
{
	size_t i, n = 0;

	for (i = 0; i < s->nopen; i++)
		if (!s->open[i].accepted && now >= s->open[i].accept_by)
			out[n++] = s->open[i].game;
	return n;
}

size_t ladder_absent(const struct ladder_rules *rules,
		     const struct ladder_standing *s,
		     const int64_t *last_active, int64_t now, int64_t *out)
{
	size_t i, n = 0;
	int64_t last;

	if (rules->absence_withdraw <= 0)
		return 0;
	for (i = 0; i < s->nmembers; i++) {
		last = last_active[i];
		/* a new member's silence counts from their joining */
		if (last < s->members[i].joined_at)
			last = s->members[i].joined_at;
		if (now >= last + rules->absence_withdraw)
			out[n++] = s->members[i].player;
	}
	return n;
}
