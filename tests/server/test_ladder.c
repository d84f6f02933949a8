/* test_ladder.c -- a ladder's rules and positions (server/ladder.h):
 * the rules and their refusals, every refusal of a challenge with its
 * numbers, malformed events, and the replay of a log (the same log, the
 * same standing).  What results do is ladder_results.c's.  Every time
 * is given: nothing sleeps. */
#include "ladder_test.h"

#include <stdarg.h>
#include "../check_run.h"

void lad_apply(struct lad *l, const struct ladder_event *e)
{
	struct ladder_fault f;

	ck_assert_uint_lt(l->n, sizeof(l->log) / sizeof(l->log[0]));
	ck_assert_msg(ladder_apply(l->s, e, &f) == 0, "event %zu: %s",
		      l->n, ladder_error_name(f.error));
	l->log[l->n++] = *e;
}

void lad_join(struct lad *l, int64_t player, int64_t at)
{
	struct ladder_event e = { .kind = LADDER_EVENT_JOINED, .at = at,
				  .player = player };

	lad_apply(l, &e);
}

void lad_leave(struct lad *l, int64_t player, int64_t at)
{
	struct ladder_event e = { .kind = LADDER_EVENT_WITHDRAWN, .at = at,
				  .player = player };

	lad_apply(l, &e);
}

/* The default rules and players 1..n joined at T0. */
void lad_init(struct lad *l, int n)
{
	int i;

	memset(l, 0, sizeof(*l));
	ladder_rules_default(&l->rules);
	ck_assert_int_eq(ladder_replay(NULL, 0, &l->s, NULL), 0);
	for (i = 1; i <= n; i++)
		lad_join(l, i, T0);
}

/* A challenge the rules allow, recorded. */
void lad_challenge(struct lad *l, int64_t c, int64_t d, int64_t game,
			  int64_t at)
{
	struct ladder_fault f;
	struct ladder_event e;

	ck_assert_msg(ladder_check_challenge(&l->rules, l->s, c, d, at, &f)
		      == 0, "%lld -> %lld: %s", (long long)c, (long long)d,
		      ladder_error_name(f.error));
	ladder_challenge_event(&l->rules, c, d, game, at, &e);
	lad_apply(l, &e);
}

void lad_result(struct lad *l, int64_t game, enum ladder_result kind,
		       int64_t winner, int64_t loser, int64_t at)
{
	struct ladder_event e = { .kind = LADDER_EVENT_RESULT, .at = at,
				  .game = game, .result = kind,
				  .player = winner, .other = loser };

	lad_apply(l, &e);
}

/* The places are exactly the n ids given, top first. */
void lad_order(const struct lad *l, size_t n, ...)
{
	va_list ap;
	size_t i;

	ck_assert_uint_eq(l->s->nmembers, n);
	va_start(ap, n);
	for (i = 0; i < n; i++) {
		int64_t want = va_arg(ap, int);

		ck_assert_msg(l->s->members[i].player == want,
			      "place %zu: %lld, not %lld", i + 1,
			      (long long)l->s->members[i].player,
			      (long long)want);
		ck_assert_int_eq(ladder_position(l->s, want), (int)i + 1);
	}
	va_end(ap);
}

void standing_eq(const struct ladder_standing *a,
			const struct ladder_standing *b)
{
	size_t i;

	ck_assert_uint_eq(a->nmembers, b->nmembers);
	ck_assert_uint_eq(a->nopen, b->nopen);
	ck_assert_uint_eq(a->npairs, b->npairs);
	ck_assert_uint_eq(a->nevents, b->nevents);
	for (i = 0; i < a->nmembers; i++) {
		ck_assert_int_eq(a->members[i].player, b->members[i].player);
		ck_assert_int_eq(a->members[i].joined_at,
				 b->members[i].joined_at);
		ck_assert_int_eq(a->members[i].out, b->members[i].out);
		ck_assert_int_eq(a->members[i].in, b->members[i].in);
	}
	for (i = 0; i < a->nopen; i++) {
		ck_assert_int_eq(a->open[i].game, b->open[i].game);
		ck_assert_int_eq(a->open[i].challenger, b->open[i].challenger);
		ck_assert_int_eq(a->open[i].defender, b->open[i].defender);
		ck_assert_int_eq(a->open[i].at, b->open[i].at);
		ck_assert_int_eq(a->open[i].accepted, b->open[i].accepted);
		ck_assert_int_eq(a->open[i].accept_by, b->open[i].accept_by);
		ck_assert_int_eq(a->open[i].win, b->open[i].win);
		ck_assert_int_eq(a->open[i].time_loss_drop,
				 b->open[i].time_loss_drop);
	}
	for (i = 0; i < a->npairs; i++) {
		ck_assert_int_eq(a->pairs[i].a, b->pairs[i].a);
		ck_assert_int_eq(a->pairs[i].b, b->pairs[i].b);
		ck_assert_int_eq(a->pairs[i].last_result,
				 b->pairs[i].last_result);
	}
}

/* The replay of the log is the standing built event by event. */
void lad_done(struct lad *l)
{
	struct ladder_standing *r = NULL;
	struct ladder_fault f;

	ck_assert_int_eq(ladder_replay(l->log, l->n, &r, &f), 0);
	standing_eq(l->s, r);
	ladder_standing_free(&r);
	ladder_standing_free(&l->s);
	ck_assert_ptr_null(l->s);
}

/* challenger -> defender at now is refused with error; returns the
 * fault for its numbers. */
static struct ladder_fault refused(const struct lad *l, int64_t c, int64_t d,
				   int64_t now, enum ladder_error error)
{
	struct ladder_fault f;

	ck_assert_int_eq(ladder_check_challenge(&l->rules, l->s, c, d, now,
						&f), -1);
	ck_assert_str_eq(ladder_error_name(f.error), ladder_error_name(error));
	return f;
}

/* challenger -> defender at now is allowed. */
static void allowed(const struct lad *l, int64_t c, int64_t d, int64_t now)
{
	struct ladder_fault f;

	ck_assert_msg(ladder_check_challenge(&l->rules, l->s, c, d, now,
					     &f) == 0,
		      "%lld -> %lld refused: %s", (long long)c, (long long)d,
		      ladder_error_name(f.error));
}

/* --- Rules --- */

START_TEST(test_rules)
{
	struct ladder_rules r;
	struct ladder_fault f;
	enum ladder_win w;
	enum ladder_result res;
	enum ladder_event_kind k;

	ladder_rules_default(&r);
	ck_assert_int_eq(ladder_rules_check(&r, &f), 0);
	ck_assert_int_eq(r.challenge_range, 5);
	ck_assert(!r.range_percent);
	ck_assert_int_eq(r.max_out, 5);
	ck_assert_int_eq(r.max_in, 5);
	ck_assert_int_eq(r.rematch_wait, 7 * D);
	ck_assert_int_eq(r.accept_within, 7 * D);
	ck_assert_int_eq(r.time_loss_drop, 1);
	ck_assert_int_eq(r.absence_withdraw, 30 * D);
	ck_assert_int_eq(r.win, LADDER_WIN_TAKE);

#define REFUSE(stmt, key, lo, hi)                                          \
	do {                                                               \
		ladder_rules_default(&r);                                  \
		stmt;                                                      \
		ck_assert_int_eq(ladder_rules_check(&r, &f), -1);          \
		ck_assert_int_eq(f.error, LADDER_ERR_RULE_RANGE);          \
		ck_assert_str_eq(f.field, key);                            \
		ck_assert_int_eq(f.min, lo);                               \
		ck_assert_int_eq(f.max, hi);                               \
	} while (0)
	REFUSE(r.challenge_range = -1, "challenge_range", 1, LADDER_MAX_RANGE);
	REFUSE(r.challenge_range = 0, "challenge_range", 1, LADDER_MAX_RANGE);
	REFUSE((r.range_percent = true, r.challenge_range = 101),
	       "challenge_range", 1, 100);
	REFUSE(r.max_out = 0, "max_out", 1, LADDER_MAX_OPEN);
	REFUSE(r.max_in = 0, "max_in", 1, LADDER_MAX_OPEN);
	REFUSE(r.max_in = LADDER_MAX_OPEN + 1, "max_in", 1, LADDER_MAX_OPEN);
	REFUSE(r.rematch_wait = -1, "rematch_wait", 0, LADDER_MAX_WAIT);
	REFUSE(r.accept_within = -D, "accept_within", 0, LADDER_MAX_WAIT);
	REFUSE(r.time_loss_drop = -1, "time_loss_drop", 0, LADDER_MAX_RANGE);
	REFUSE(r.absence_withdraw = LADDER_MAX_WAIT + 1, "absence_withdraw",
	       0, LADDER_MAX_WAIT);
	REFUSE(r.win = (enum ladder_win)2, "win", 0, 1);
	/* the edges are allowed: no waits, 100% */
	ladder_rules_default(&r);
	r.rematch_wait = r.accept_within = r.absence_withdraw = 0;
	r.time_loss_drop = 0;
	r.range_percent = true;
	r.challenge_range = 100;
	ck_assert_int_eq(ladder_rules_check(&r, NULL), 0);

	ck_assert_str_eq(ladder_error_name(LADDER_ERR_OUT_OF_RANGE),
			 "out_of_range");
	ck_assert_str_eq(ladder_error_name((enum ladder_error)999), "unknown");
	ck_assert_int_eq(ladder_win_parse("swap", &w), 0);
	ck_assert_int_eq(w, LADDER_WIN_SWAP);
	ck_assert_int_eq(ladder_win_parse("jump", &w), -1);
	ck_assert_int_eq(ladder_result_parse("walkover", &res), 0);
	ck_assert_int_eq(res, LADDER_RESULT_WALKOVER);
	ck_assert_int_eq(ladder_event_kind_parse("moved", &k), 0);
	ck_assert_int_eq(k, LADDER_EVENT_MOVED);
	ck_assert_str_eq(ladder_event_kind_name(LADDER_EVENT_WITHDRAWN),
			 "withdrawn");
	ck_assert_str_eq(ladder_result_name(LADDER_RESULT_TIME), "time");
}
END_TEST

/* --- Challenges --- */

START_TEST(test_range_places)
{
	struct lad l;
	struct ladder_fault f;

	lad_init(&l, 10);
	l.rules.challenge_range = 3;
	allowed(&l, 5, 2, T0);
	allowed(&l, 5, 4, T0);
	f = refused(&l, 5, 1, T0, LADDER_ERR_OUT_OF_RANGE);
	ck_assert_int_eq(f.place, 5);
	ck_assert_int_eq(f.defender_place, 1);
	ck_assert_int_eq(f.value, 4);
	ck_assert_int_eq(f.max, 3);
	/* down the ladder is never in range */
	f = refused(&l, 5, 6, T0, LADDER_ERR_OUT_OF_RANGE);
	ck_assert_int_eq(f.place, 5);
	ck_assert_int_eq(f.defender_place, 6);
	l.rules.challenge_range = 4;
	allowed(&l, 5, 1, T0);
	lad_done(&l);
}
END_TEST

START_TEST(test_range_percent)
{
	struct lad l;
	struct ladder_fault f;
	int i;

	lad_init(&l, 20);
	l.rules.range_percent = true;
	l.rules.challenge_range = 10;
	ck_assert_int_eq(ladder_range_places(&l.rules, 20), 2);
	allowed(&l, 10, 8, T0);
	f = refused(&l, 10, 7, T0, LADDER_ERR_OUT_OF_RANGE);
	ck_assert_int_eq(f.max, 2);
	/* 10% of 25 is 2.5 places: rounded up */
	for (i = 21; i <= 25; i++)
		lad_join(&l, i, T0);
	allowed(&l, 10, 7, T0);
	f = refused(&l, 10, 6, T0, LADDER_ERR_OUT_OF_RANGE);
	ck_assert_int_eq(f.max, 3);
	/* a small ladder still has a place in range */
	ck_assert_int_eq(ladder_range_places(&l.rules, 5), 1);
	ck_assert_int_eq(ladder_range_places(&l.rules, 0), 1);
	l.rules.challenge_range = 25;
	ck_assert_int_eq(ladder_range_places(&l.rules, 20), 5);
	lad_done(&l);
}
END_TEST

START_TEST(test_members_and_self)
{
	struct lad l;
	struct ladder_fault f;

	lad_init(&l, 4);
	f = refused(&l, 99, 1, T0, LADDER_ERR_NOT_MEMBER);
	ck_assert_int_eq(f.value, 99);
	refused(&l, 3, 3, T0, LADDER_ERR_SELF);
	f = refused(&l, 3, 99, T0, LADDER_ERR_DEFENDER_NOT_MEMBER);
	ck_assert_int_eq(f.value, 99);
	lad_leave(&l, 2, T0 + D);
	/* a withdrawn player is no longer challengeable, nor challenges */
	refused(&l, 3, 2, T0 + D, LADDER_ERR_DEFENDER_NOT_MEMBER);
	refused(&l, 2, 1, T0 + D, LADDER_ERR_NOT_MEMBER);
	/* not a member is said before oneself */
	refused(&l, 2, 2, T0 + D, LADDER_ERR_NOT_MEMBER);
	lad_order(&l, 3, 1, 3, 4);
	lad_done(&l);
}
END_TEST

START_TEST(test_open_limits)
{
	struct lad l;
	struct ladder_fault f;

	lad_init(&l, 9);
	l.rules.max_out = 2;
	l.rules.max_in = 2;
	lad_challenge(&l, 8, 7, 1, T0);
	lad_challenge(&l, 8, 6, 2, T0);
	f = refused(&l, 8, 5, T0, LADDER_ERR_TOO_MANY_OUT);
	ck_assert_int_eq(f.value, 2);
	ck_assert_int_eq(f.max, 2);
	lad_challenge(&l, 6, 5, 3, T0);
	lad_challenge(&l, 7, 5, 4, T0);
	ck_assert_int_eq(l.s->members[4].in, 2);
	f = refused(&l, 9, 5, T0, LADDER_ERR_TOO_MANY_IN);
	ck_assert_int_eq(f.value, 2);
	ck_assert_int_eq(f.max, 2);
	/* both at their limit: the challenger's is named */
	refused(&l, 8, 5, T0, LADDER_ERR_TOO_MANY_OUT);
	/* a result frees a place on both sides */
	lad_result(&l, 3, LADDER_RESULT_NORMAL, 5, 6, T0 + D);
	ck_assert_int_eq(l.s->members[4].in, 1);
	ck_assert_int_eq(l.s->members[5].out, 0);
	lad_challenge(&l, 9, 5, 5, T0 + D);
	lad_result(&l, 1, LADDER_RESULT_NORMAL, 7, 8, T0 + D);
	lad_challenge(&l, 8, 4, 6, T0 + D);
	lad_done(&l);
}
END_TEST

START_TEST(test_already_challenged)
{
	struct lad l;
	struct ladder_fault f;

	lad_init(&l, 4);
	l.rules.rematch_wait = 0;
	lad_challenge(&l, 3, 2, 31, T0);
	f = refused(&l, 3, 2, T0, LADDER_ERR_ALREADY_CHALLENGED);
	ck_assert_int_eq(f.game, 31);
	/* either way, and before the range */
	f = refused(&l, 2, 3, T0, LADDER_ERR_ALREADY_CHALLENGED);
	ck_assert_int_eq(f.game, 31);
	lad_result(&l, 31, LADDER_RESULT_DRAW, 0, 0, T0 + D);
	lad_challenge(&l, 3, 2, 32, T0 + D);
	lad_done(&l);
}
END_TEST

START_TEST(test_rematch_wait)
{
	struct lad l;
	struct ladder_fault f;
	int64_t t1 = T0 + 3 * D;

	lad_init(&l, 6);
	lad_challenge(&l, 3, 2, 1, T0);
	lad_result(&l, 1, LADDER_RESULT_NORMAL, 2, 3, t1);
	ck_assert_int_eq(ladder_last_result(l.s, 2, 3), t1);
	ck_assert_int_eq(ladder_last_result(l.s, 3, 2), t1);
	f = refused(&l, 3, 2, t1 + 7 * D - 1, LADDER_ERR_REMATCH_WAIT);
	ck_assert_int_eq(f.until, t1 + 7 * D);
	allowed(&l, 3, 2, t1 + 7 * D);
	/* a win turns the tables: the wait holds the other way too */
	lad_challenge(&l, 5, 4, 2, T0);
	lad_result(&l, 2, LADDER_RESULT_NORMAL, 5, 4, t1);
	lad_order(&l, 6, 1, 2, 3, 5, 4, 6);
	f = refused(&l, 4, 5, t1 + 1, LADDER_ERR_REMATCH_WAIT);
	ck_assert_int_eq(f.until, t1 + 7 * D);
	/* a draw starts the wait, a cancelled challenge does not */
	lad_challenge(&l, 6, 4, 3, t1);
	lad_result(&l, 3, LADDER_RESULT_DRAW, 0, 0, t1 + D);
	refused(&l, 6, 4, t1 + D + 1, LADDER_ERR_REMATCH_WAIT);
	lad_challenge(&l, 6, 5, 4, t1);
	lad_result(&l, 4, LADDER_RESULT_CANCELLED, 0, 0, t1 + D);
	ck_assert_int_eq(ladder_last_result(l.s, 5, 6), -1);
	lad_challenge(&l, 6, 5, 5, t1 + D + 1);
	/* a result logged with an earlier time never shortens the wait */
	lad_challenge(&l, 3, 2, 6, t1 + 7 * D);
	lad_result(&l, 6, LADDER_RESULT_NORMAL, 2, 3, t1 - D);
	ck_assert_int_eq(ladder_last_result(l.s, 2, 3), t1);
	/* no wait at all */
	l.rules.rematch_wait = 0;
	allowed(&l, 6, 4, t1 + D);
	lad_done(&l);
}
END_TEST

START_TEST(test_challengeable)
{
	struct lad l;
	struct ladder_fault f;
	int64_t out[8];
	size_t n;

	lad_init(&l, 8);
	l.rules.challenge_range = 3;
	l.rules.max_in = 1;
	ck_assert_int_eq(ladder_challengeable(&l.rules, l.s, 6, T0, out, &n,
					      &f), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert_int_eq(out[0], 3);
	ck_assert_int_eq(out[1], 4);
	ck_assert_int_eq(out[2], 5);
	lad_challenge(&l, 7, 5, 1, T0); /* 5 at max_in */
	lad_challenge(&l, 6, 4, 2, T0);
	lad_result(&l, 2, LADDER_RESULT_NORMAL, 4, 6, T0 + D);
	ck_assert_int_eq(ladder_challengeable(&l.rules, l.s, 6, T0 + 2 * D,
					      out, &n, &f), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(out[0], 3);
	ck_assert_int_eq(ladder_challengeable(&l.rules, l.s, 6, T0 + 8 * D,
					      out, &n, &f), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(out[0], 3);
	ck_assert_int_eq(out[1], 4);
	ck_assert_int_eq(ladder_challengeable(&l.rules, l.s, 1, T0, out, &n,
					      &f), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_int_eq(ladder_challengeable(&l.rules, l.s, 99, T0, out, &n,
					      &f), -1);
	ck_assert_int_eq(f.error, LADDER_ERR_NOT_MEMBER);
	l.rules.max_out = 1;
	ck_assert_int_eq(ladder_challengeable(&l.rules, l.s, 7, T0, out, &n,
					      &f), -1);
	ck_assert_int_eq(f.error, LADDER_ERR_TOO_MANY_OUT);
	ck_assert_int_eq(f.value, 1);
	ck_assert_uint_eq(n, 0);
	lad_done(&l);
}
END_TEST


/* --- The log --- */

/* e is refused with error and the standing is unchanged (lad_done
 * compares it with the replay of the events accepted). */
static void event_refused(struct lad *l, struct ladder_event e,
			  enum ladder_error error)
{
	struct ladder_fault f;
	size_t before = l->s->nevents;

	ck_assert_int_eq(ladder_apply(l->s, &e, &f), -1);
	ck_assert_str_eq(ladder_error_name(f.error), ladder_error_name(error));
	ck_assert_uint_eq(l->s->nevents, before);
}

START_TEST(test_event_errors)
{
	struct ladder_event e = { .kind = LADDER_EVENT_JOINED, .at = T0 };
	struct ladder_standing *r = NULL;
	struct ladder_fault f;
	struct lad l;

	lad_init(&l, 4);
	e.player = 2;
	event_refused(&l, e, LADDER_ERR_ALREADY_MEMBER);
	e.player = 0;
	event_refused(&l, e, LADDER_ERR_BAD_EVENT);
	e.kind = (enum ladder_event_kind)0;
	e.player = 5;
	event_refused(&l, e, LADDER_ERR_BAD_EVENT);
	e.kind = LADDER_EVENT_LEFT;
	e.player = 9;
	event_refused(&l, e, LADDER_ERR_NOT_MEMBER);

	memset(&e, 0, sizeof(e));
	e.kind = LADDER_EVENT_CHALLENGED;
	e.game = 7;
	e.accept_by = LADDER_NEVER;
	e.player = 9, e.other = 1;
	event_refused(&l, e, LADDER_ERR_NOT_MEMBER);
	e.player = 1, e.other = 9;
	event_refused(&l, e, LADDER_ERR_DEFENDER_NOT_MEMBER);
	e.player = 2, e.other = 2;
	event_refused(&l, e, LADDER_ERR_SELF);
	e.player = 3, e.other = 2, e.game = 0;
	event_refused(&l, e, LADDER_ERR_BAD_EVENT);
	lad_challenge(&l, 3, 2, 7, T0);
	e.player = 4, e.other = 1, e.game = 7;
	event_refused(&l, e, LADDER_ERR_DUPLICATE_GAME);

	memset(&e, 0, sizeof(e));
	e.kind = LADDER_EVENT_RESULT;
	e.game = 99;
	e.player = 3, e.other = 2;
	event_refused(&l, e, LADDER_ERR_UNKNOWN_GAME);
	e.game = 7;
	e.player = 4;
	event_refused(&l, e, LADDER_ERR_WRONG_PLAYERS);
	e.player = 3;
	e.result = (enum ladder_result)42;
	event_refused(&l, e, LADDER_ERR_BAD_EVENT);
	e.kind = LADDER_EVENT_ACCEPTED;
	e.game = 99;
	event_refused(&l, e, LADDER_ERR_UNKNOWN_GAME);
	ck_assert_uint_eq(l.s->nopen, 1);
	ck_assert_int_eq(l.s->members[2].out, 1);

	/* a log with a bad event replays to nothing, naming it */
	e.kind = LADDER_EVENT_JOINED;
	e.player = 1;
	l.log[l.n] = e;
	ck_assert_int_eq(ladder_replay(l.log, l.n + 1, &r, &f), -1);
	ck_assert_ptr_null(r);
	ck_assert_int_eq(f.error, LADDER_ERR_ALREADY_MEMBER);
	ck_assert_uint_eq(f.index, l.n);
	lad_done(&l);
}
END_TEST

/* A reproducible sequence of numbers (no libc randomness). */
static uint32_t next(uint32_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

/* Every member's open counts are those of the open challenges. */
static void counts_consistent(const struct ladder_standing *s)
{
	size_t i, j;
	int out, in;

	for (i = 0; i < s->nmembers; i++) {
		out = in = 0;
		for (j = 0; j < s->nopen; j++) {
			out += s->open[j].challenger == s->members[i].player;
			in += s->open[j].defender == s->members[i].player;
		}
		ck_assert_int_eq(s->members[i].out, out);
		ck_assert_int_eq(s->members[i].in, in);
	}
}

START_TEST(test_replay_deterministic)
{
	static struct lad l;
	struct ladder_standing *a = NULL, *b = NULL;
	struct ladder_event e;
	uint32_t x = 2463534242u;
	int64_t t = T0, game = 0, c, d;
	size_t i, k;

	lad_init(&l, 12);
	l.rules.rematch_wait = 3 * D;
	for (i = 0; i < 3000 && l.n < 4000; i++) {
		t += next(&x) % (6 * 3600);
		memset(&e, 0, sizeof(e));
		e.at = t;
		switch (next(&x) % 8) {
		case 0: /* someone joins, or comes back */
			e.kind = LADDER_EVENT_JOINED;
			e.player = 1 + next(&x) % 20;
			if (ladder_position(l.s, e.player) == 0)
				lad_apply(&l, &e);
			break;
		case 1:
			if (l.s->nmembers < 4 || next(&x) % 3 != 0)
				break;
			e.kind = LADDER_EVENT_LEFT;
			e.player = l.s->members[next(&x) % l.s->nmembers].player;
			lad_apply(&l, &e);
			break;
		case 2:
		case 3:
			if (l.s->nmembers < 2)
				break;
			k = 1 + next(&x) % (l.s->nmembers - 1);
			c = l.s->members[k].player;
			d = l.s->members[next(&x) % k].player;
			if (ladder_check_challenge(&l.rules, l.s, c, d, t,
						   NULL) == 0)
				lad_challenge(&l, c, d, ++game, t);
			break;
		case 4:
			if (l.s->nopen == 0)
				break;
			k = next(&x) % l.s->nopen;
			if (ladder_check_accept(l.s, l.s->open[k].game,
						l.s->open[k].defender, t,
						NULL) < 0)
				break;
			e.kind = LADDER_EVENT_ACCEPTED;
			e.game = l.s->open[k].game;
			lad_apply(&l, &e);
			break;
		case 5:
		case 6:
			if (l.s->nopen == 0)
				break;
			k = next(&x) % l.s->nopen;
			e.kind = LADDER_EVENT_RESULT;
			e.game = l.s->open[k].game;
			e.result = (enum ladder_result)(next(&x) % 5);
			e.player = l.s->open[k].challenger;
			e.other = l.s->open[k].defender;
			if (e.result != LADDER_RESULT_WALKOVER &&
			    next(&x) % 2 == 0) {
				e.player = l.s->open[k].defender;
				e.other = l.s->open[k].challenger;
			}
			lad_apply(&l, &e);
			break;
		case 7:
			if (l.s->nmembers == 0)
				break;
			e.kind = LADDER_EVENT_MOVED;
			e.player = l.s->members[next(&x) % l.s->nmembers].player;
			e.position = 1 + (int)(next(&x) % l.s->nmembers);
			lad_apply(&l, &e);
			break;
		}
		counts_consistent(l.s);
	}
	ck_assert_uint_gt(l.n, 1000);
	ck_assert_uint_gt(game, 100);
	ck_assert_int_eq(ladder_replay(l.log, l.n, &a, NULL), 0);
	ck_assert_int_eq(ladder_replay(l.log, l.n, &b, NULL), 0);
	standing_eq(a, b);
	ck_assert_uint_eq(a->nevents, l.n);
	ladder_standing_free(&a);
	ladder_standing_free(&b);
	ladder_standing_free(&b); /* twice is harmless */
	lad_done(&l);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("ladder");
	TCase *rules = tcase_create("rules");
	TCase *challenges = tcase_create("challenges");
	TCase *results = tcase_create("results");
	TCase *log = tcase_create("log");

	tcase_add_test(rules, test_rules);
	suite_add_tcase(s, rules);
	tcase_add_test(challenges, test_range_places);
	tcase_add_test(challenges, test_range_percent);
	tcase_add_test(challenges, test_members_and_self);
	tcase_add_test(challenges, test_open_limits);
	tcase_add_test(challenges, test_already_challenged);
	tcase_add_test(challenges, test_rematch_wait);
	tcase_add_test(challenges, test_challengeable);
	suite_add_tcase(s, challenges);
	ladder_test_results(results);
	suite_add_tcase(s, results);
	tcase_add_test(log, test_event_errors);
	tcase_add_test(log, test_replay_deterministic);
	suite_add_tcase(s, log);
	return test_run(s);
}
