/* clock.c -- time controls, a game's clocks, pauses and the vacation
 * bank; see clock.h.  Time zones and weekends are clock_zone.c's. */
#include <config.h> /* autoconf's: _GNU_SOURCE */

#include "server/clock.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "server/clock_private.h"

static const char *const clock_error_names[] = {
	[CLOCK_OK] = "ok",
	[CLOCK_ERR_EMPTY] = "empty",
	[CLOCK_ERR_TOO_LONG] = "too_long",
	[CLOCK_ERR_UNKNOWN_KIND] = "unknown_kind",
	[CLOCK_ERR_SYNTAX] = "syntax",
	[CLOCK_ERR_UNIT] = "unit",
	[CLOCK_ERR_DAYS_RANGE] = "days_range",
	[CLOCK_ERR_INITIAL_RANGE] = "initial_range",
	[CLOCK_ERR_INCREMENT_RANGE] = "increment_range",
	[CLOCK_ERR_CAP_RANGE] = "cap_range",
	[CLOCK_ERR_WEEKENDS] = "weekends",
	[CLOCK_ERR_ZONE_SYNTAX] = "zone_syntax",
	[CLOCK_ERR_ZONE_UNKNOWN] = "zone_unknown",
	[CLOCK_ERR_NOT_STARTED] = "not_started",
	[CLOCK_ERR_STARTED] = "started",
	[CLOCK_ERR_FLAG_FELL] = "flag_fell",
	[CLOCK_ERR_NO_CLOCK] = "no_clock",
	[CLOCK_ERR_PAUSE_RANGE] = "pause_range",
	[CLOCK_ERR_TOO_MANY_PAUSES] = "too_many_pauses",
	[CLOCK_ERR_ADJUST_RANGE] = "adjust_range",
	[CLOCK_ERR_BANK_SHORT] = "bank_short",
	[CLOCK_ERR_BAD_ARGUMENT] = "bad_argument",
};

const char *clock_error_name(enum clock_error error)
{
	size_t n = sizeof(clock_error_names) / sizeof(clock_error_names[0]);

	/* A code added to the enum but not here is "unknown", not NULL. */
	if ((unsigned)error >= n || clock_error_names[error] == NULL)
		return "unknown";
	return clock_error_names[error];
}

/* --- Time controls --- */

/* Digits at *p into *value_r, saturating at 999999999 (out of every
 * range); false if there is none. */
static bool parse_number(const char **p, int64_t *value_r)
{
	const char *s = *p;
	int64_t v = 0;

	if (!isdigit((unsigned char)*s))
		return false;
	for (; isdigit((unsigned char)*s); s++)
		if (v < 999999999)
			v = v * 10 + (*s - '0');
	if (v > 999999999)
		v = 999999999;
	*p = s;
	*value_r = v;
	return true;
}

/* A Fischer time "Nh" at *p.  0, -1 with CLOCK_ERR_UNIT (a number in
 * another unit or none), or -1 with CLOCK_ERR_SYNTAX. */
static int parse_hours(const char **p, int64_t *hours_r,
		       struct clock_fault *fault_r)
{
	if (!parse_number(p, hours_r))
		return fault(fault_r, CLOCK_ERR_SYNTAX, 0, 0, 0);
	if (**p == 'h' || **p == 'H') {
		(*p)++;
		return 0;
	}
	/* "240", "240+36h", "10d", "90m": a number, but not of hours */
	if (**p == '\0' || **p == '+' || **p == '/' ||
	    isalpha((unsigned char)**p))
		return fault(fault_r, CLOCK_ERR_UNIT, *hours_r, 0, 0);
	return fault(fault_r, CLOCK_ERR_SYNTAX, 0, 0, 0);
}

/* 0 if every field of *c is in range, else -1 and *fault_r as
 * clock_control_parse would give it. */
static int clock_control_check(const struct clock_control *c,
			       struct clock_fault *fault_r)
{
	fault_clear(fault_r);
	switch (c->kind) {
	case CLOCK_KIND_NONE:
		return 0;
	case CLOCK_KIND_DAYS:
		if (c->days < CLOCK_MIN_DAYS || c->days > CLOCK_MAX_DAYS)
			return fault(fault_r, CLOCK_ERR_DAYS_RANGE, c->days,
				     CLOCK_MIN_DAYS, CLOCK_MAX_DAYS);
		return 0;
	case CLOCK_KIND_FISCHER:
		if (c->initial_hours < 1 || c->initial_hours > CLOCK_MAX_HOURS)
			return fault(fault_r, CLOCK_ERR_INITIAL_RANGE,
				     c->initial_hours, 1, CLOCK_MAX_HOURS);
		if (c->increment_hours < 0 ||
		    c->increment_hours > CLOCK_MAX_HOURS)
			return fault(fault_r, CLOCK_ERR_INCREMENT_RANGE,
				     c->increment_hours, 0, CLOCK_MAX_HOURS);
		/* a cap below the initial time would take time away at the
		 * first move */
		if (c->cap_hours != 0 && (c->cap_hours < c->initial_hours ||
					  c->cap_hours > CLOCK_MAX_HOURS))
			return fault(fault_r, CLOCK_ERR_CAP_RANGE, c->cap_hours,
				     c->initial_hours, CLOCK_MAX_HOURS);
		return 0;
	}
	return fault(fault_r, CLOCK_ERR_BAD_ARGUMENT, 0, 0, 0);
}

int clock_control_parse(const char *text, struct clock_control *control_r,
			struct clock_fault *fault_r)
{
	struct clock_control c;
	const char *colon, *p;
	size_t len = strlen(text), klen;
	int64_t initial, increment, cap = 0, days;

	memset(&c, 0, sizeof(c));
	fault_clear(fault_r);
	if (len == 0)
		return fault(fault_r, CLOCK_ERR_EMPTY, 0, 0, 0);
	if (len >= CLOCK_SPEC_MAX)
		return fault(fault_r, CLOCK_ERR_TOO_LONG, (int64_t)len, 0,
			     CLOCK_SPEC_MAX - 1);
	colon = strchr(text, ':');
	klen = colon != NULL ? (size_t)(colon - text) : len;
	p = colon != NULL ? colon + 1 : text + len;

	if (klen == 4 && strncasecmp(text, "none", 4) == 0) {
		if (colon != NULL)
			return fault(fault_r, CLOCK_ERR_SYNTAX, 0, 0, 0);
		c.kind = CLOCK_KIND_NONE;
	} else if (klen == 4 && strncasecmp(text, "days", 4) == 0) {
		if (colon == NULL || !parse_number(&p, &days) || *p != '\0')
			return fault(fault_r, CLOCK_ERR_SYNTAX, 0, 0, 0);
		c.kind = CLOCK_KIND_DAYS;
		c.days = (int)days;
	} else if (klen == 7 && strncasecmp(text, "fischer", 7) == 0) {
		if (colon == NULL)
			return fault(fault_r, CLOCK_ERR_SYNTAX, 0, 0, 0);
		if (parse_hours(&p, &initial, fault_r) < 0)
			return -1;
		if (*p++ != '+')
			return fault(fault_r, CLOCK_ERR_SYNTAX, 0, 0, 0);
		if (parse_hours(&p, &increment, fault_r) < 0)
			return -1;
		if (*p == '/') {
			p++;
			if (parse_hours(&p, &cap, fault_r) < 0)
				return -1;
			/* "/0h" is no cap written out: refused, as the
			 * cap is below the initial time */
			if (cap == 0)
				return fault(fault_r, CLOCK_ERR_CAP_RANGE, 0,
					     initial, CLOCK_MAX_HOURS);
		}
		if (*p != '\0')
			return fault(fault_r, CLOCK_ERR_SYNTAX, 0, 0, 0);
		c.kind = CLOCK_KIND_FISCHER;
		c.initial_hours = (int)initial;
		c.increment_hours = (int)increment;
		c.cap_hours = (int)cap;
	} else {
		return fault(fault_r, CLOCK_ERR_UNKNOWN_KIND, 0, 0, 0);
	}
	if (clock_control_check(&c, fault_r) < 0)
		return -1;
	*control_r = c;
	return 0;
}

int clock_control_format(const struct clock_control *c, char *buf,
			 size_t size)
{
	int n = -1;

	if (clock_control_check(c, NULL) < 0 || size == 0)
		return -1;
	switch (c->kind) {
	case CLOCK_KIND_NONE:
		n = snprintf(buf, size, "none");
		break;
	case CLOCK_KIND_DAYS:
		n = snprintf(buf, size, "days:%d", c->days);
		break;
	case CLOCK_KIND_FISCHER:
		if (c->cap_hours != 0)
			n = snprintf(buf, size, "fischer:%dh+%dh/%dh",
				     c->initial_hours, c->increment_hours,
				     c->cap_hours);
		else
			n = snprintf(buf, size, "fischer:%dh+%dh",
				     c->initial_hours, c->increment_hours);
		break;
	}
	if (n < 0 || (size_t)n >= size) {
		buf[0] = '\0';
		return -1;
	}
	return 0;
}

int clock_weekends_parse(const char *text, bool *off_r,
			 struct clock_fault *fault_r)
{
	fault_clear(fault_r);
	if (strcasecmp(text, "off") == 0)
		*off_r = true;
	else if (strcasecmp(text, "on") == 0)
		*off_r = false;
	else
		return fault(fault_r, CLOCK_ERR_WEEKENDS, 0, 0, 0);
	return 0;
}

int64_t clock_control_initial(const struct clock_control *c)
{
	switch (c->kind) {
	case CLOCK_KIND_FISCHER:
		return c->initial_hours * CLOCK_HOUR;
	case CLOCK_KIND_DAYS:
		return c->days * CLOCK_DAY;
	case CLOCK_KIND_NONE:
		break;
	}
	return 0;
}

/* --- One game's clocks --- */

static bool has_clock(const struct clock_state *s)
{
	return s->control.kind != CLOCK_KIND_NONE;
}

int clock_init(struct clock_state *state, const struct clock_control *control,
	       struct clock_fault *fault_r)
{
	if (clock_control_check(control, NULL) < 0)
		return fault(fault_r, CLOCK_ERR_BAD_ARGUMENT, 0, 0, 0);
	fault_clear(fault_r);
	memset(state, 0, sizeof(*state));
	state->control = *control;
	state->player[CORE_WHITE].remaining = clock_control_initial(control);
	state->player[CORE_BLACK].remaining = clock_control_initial(control);
	state->to_move = CORE_WHITE;
	return 0;
}

int clock_set_zone(struct clock_state *state, enum core_color side,
		   const char *zone, struct clock_fault *fault_r)
{
	fault_clear(fault_r);
	if (zone == NULL || zone[0] == '\0') {
		state->player[side].zone[0] = '\0';
		return 0;
	}
	if (clock_zone_check(zone, fault_r) < 0)
		return -1;
	/* clock_zone_check bounds the length */
	strcpy(state->player[side].zone, zone);
	return 0;
}

int clock_start(struct clock_state *state, enum core_color to_move,
		int64_t now, struct clock_fault *fault_r)
{
	fault_clear(fault_r);
	if (state->started)
		return fault(fault_r, CLOCK_ERR_STARTED, 0, 0, 0);
	state->started = true;
	state->to_move = to_move;
	state->turn_started = now;
	return 0;
}

int64_t clock_elapsed(const struct clock_state *state, int64_t now)
{
	struct turn_view v;
	int64_t e;

	if (!state->started || !has_clock(state) || now <= state->turn_started)
		return 0;
	clock_zone_view_enter(&v, state, state->to_move);
	e = clock_zone_chargeable(&v, state->turn_started, now);
	clock_zone_view_leave(&v);
	return e;
}

int64_t clock_remaining(const struct clock_state *state, enum core_color side,
			int64_t now)
{
	int64_t r = state->player[side].remaining;

	if (side == state->to_move)
		r -= clock_elapsed(state, now);
	return r > 0 ? r : 0;
}

int64_t clock_deadline(const struct clock_state *state)
{
	struct turn_view v;
	int64_t d;

	if (!state->started || !has_clock(state))
		return CLOCK_NEVER;
	clock_zone_view_enter(&v, state, state->to_move);
	d = clock_zone_charged_by(&v, state->turn_started,
				  state->player[state->to_move].remaining);
	clock_zone_view_leave(&v);
	return d;
}

bool clock_flag_fallen(const struct clock_state *state, int64_t now)
{
	if (!state->started || !has_clock(state))
		return false;
	return clock_elapsed(state, now) >=
	       state->player[state->to_move].remaining;
}

/* Drop side's pauses over by the turn's start: no later turn meets
 * them. */
static void pauses_prune(struct clock_state *s, enum core_color side)
{
	struct clock_player *p = &s->player[side];
	size_t i, n = 0;

	if (!s->started)
		return;
	for (i = 0; i < p->npauses; i++)
		if (p->pauses[i].to > s->turn_started)
			p->pauses[n++] = p->pauses[i];
	p->npauses = n;
}

int clock_charge(struct clock_state *state, int64_t now,
		 struct clock_fault *fault_r)
{
	const struct clock_control *c = &state->control;
	struct clock_player *p = &state->player[state->to_move];
	int64_t left, gained, cap;

	fault_clear(fault_r);
	if (!state->started)
		return fault(fault_r, CLOCK_ERR_NOT_STARTED, 0, 0, 0);
	if (now < state->turn_started)
		now = state->turn_started; /* receipt before the turn: no time */
	if (has_clock(state)) {
		left = p->remaining - clock_elapsed(state, now);
		if (left <= 0)
			return fault(fault_r, CLOCK_ERR_FLAG_FELL,
				     clock_deadline(state), 0, 0);
		if (c->kind == CLOCK_KIND_FISCHER) {
			cap = c->cap_hours * CLOCK_HOUR;
			gained = left + c->increment_hours * CLOCK_HOUR;
			/* the cap stops the increment; it never takes away
			 * time the clock got otherwise (an adjustment) */
			if (cap != 0 && gained > cap)
				gained = left > cap ? left : cap;
			left = gained;
		} else {
			left = c->days * CLOCK_DAY;
		}
		if (left > CLOCK_MAX_REMAINING)
			left = CLOCK_MAX_REMAINING;
		p->remaining = left;
	}
	state->to_move = state->to_move == CORE_WHITE ? CORE_BLACK
						      : CORE_WHITE;
	state->turn_started = now;
	pauses_prune(state, CORE_WHITE);
	pauses_prune(state, CORE_BLACK);
	return 0;
}

static int interval_cmp(const void *a, const void *b)
{
	const struct clock_interval *x = a, *y = b;

	return (x->from > y->from) - (x->from < y->from);
}

int clock_pause_add(struct clock_state *state, enum core_color side,
		    int64_t from, int64_t to, struct clock_fault *fault_r)
{
	struct clock_player *p = &state->player[side];
	struct clock_interval all[CLOCK_MAX_PAUSES + 1];
	size_t i, n = 0;

	fault_clear(fault_r);
	if (to <= from)
		return fault(fault_r, CLOCK_ERR_PAUSE_RANGE, 0, 0, 0);
	pauses_prune(state, side);
	if (state->started && to <= state->turn_started)
		return 0; /* over before this turn: no turn meets it */
	memcpy(all, p->pauses, p->npauses * sizeof(all[0]));
	all[p->npauses].from = from;
	all[p->npauses].to = to;
	qsort(all, p->npauses + 1, sizeof(all[0]), interval_cmp);
	/* merge in place: all[n - 1] is the last merged stretch */
	for (i = 0; i <= p->npauses; i++) {
		if (n > 0 && all[i].from <= all[n - 1].to) {
			if (all[i].to > all[n - 1].to)
				all[n - 1].to = all[i].to;
		} else {
			all[n++] = all[i];
		}
	}
	if (n > CLOCK_MAX_PAUSES)
		return fault(fault_r, CLOCK_ERR_TOO_MANY_PAUSES, 0, 0,
			     CLOCK_MAX_PAUSES);
	memcpy(p->pauses, all, n * sizeof(all[0]));
	p->npauses = n;
	return 0;
}

int clock_add_time(struct clock_state *state, enum core_color side,
		   int64_t seconds, struct clock_fault *fault_r)
{
	int64_t r = state->player[side].remaining;

	fault_clear(fault_r);
	if (!has_clock(state))
		return fault(fault_r, CLOCK_ERR_NO_CLOCK, 0, 0, 0);
	if (seconds > CLOCK_MAX_REMAINING || seconds < -CLOCK_MAX_REMAINING ||
	    r + seconds < 0 || r + seconds > CLOCK_MAX_REMAINING)
		return fault(fault_r, CLOCK_ERR_ADJUST_RANGE,
			     seconds > CLOCK_MAX_REMAINING ||
			     seconds < -CLOCK_MAX_REMAINING ? seconds
							    : r + seconds,
			     0, CLOCK_MAX_REMAINING);
	state->player[side].remaining = r + seconds;
	return 0;
}

/* --- Vacation --- */

static int policy_cap(const struct clock_vacation_policy *policy)
{
	return policy->cap_days > 0 ? policy->cap_days : 0;
}

void clock_bank_open(struct clock_bank *bank,
		     const struct clock_vacation_policy *policy, int64_t now)
{
	int start = policy->start_days > 0 ? policy->start_days : 0;

	bank->days = start < policy_cap(policy) ? start : policy_cap(policy);
	bank->accrued_at = now;
}

void clock_bank_accrue(struct clock_bank *bank,
		       const struct clock_vacation_policy *policy, int64_t now)
{
	int64_t elapsed, earned, per_year = policy->earn_per_year;
	int cap = policy_cap(policy);

	if (now <= bank->accrued_at)
		return;
	if (per_year <= 0 || per_year > 366) {
		bank->accrued_at = now;
		return;
	}
	elapsed = now - bank->accrued_at;
	/* a century is as good as for ever, and keeps the product small */
	if (elapsed > 100 * CLOCK_YEAR)
		elapsed = 100 * CLOCK_YEAR;
	earned = elapsed * per_year / CLOCK_YEAR;
	if (earned == 0)
		return;
	if (bank->days < cap)
		bank->days = bank->days + earned < cap ? (int)(bank->days + earned)
						       : cap;
	/* count the time those days took, rounded up so no second earns
	 * twice; the remainder keeps earning towards the next day */
	bank->accrued_at += (earned * CLOCK_YEAR + per_year - 1) / per_year;
	if (bank->accrued_at > now)
		bank->accrued_at = now;
}

int clock_bank_spend(struct clock_bank *bank,
		     const struct clock_vacation_policy *policy, int days,
		     int64_t now, struct clock_fault *fault_r)
{
	fault_clear(fault_r);
	clock_bank_accrue(bank, policy, now);
	if (days < 1)
		return fault(fault_r, CLOCK_ERR_BAD_ARGUMENT, days, 1,
			     bank->days);
	if (days > bank->days)
		return fault(fault_r, CLOCK_ERR_BANK_SHORT, days, 0,
			     bank->days);
	bank->days -= days;
	return 0;
}

enum clock_flag clock_flag_check(struct clock_state *state,
				 struct clock_bank *bank,
				 const struct clock_vacation_policy *policy,
				 int64_t now, int *days_spent_r)
{
	struct clock_player *p = &state->player[state->to_move];
	int64_t overdue, need;

	if (days_spent_r != NULL)
		*days_spent_r = 0;
	if (!state->started || !has_clock(state))
		return CLOCK_FLAG_OK;
	overdue = clock_elapsed(state, now) - p->remaining;
	if (overdue < 0)
		return CLOCK_FLAG_OK;
	if (bank == NULL)
		return CLOCK_FLAG_FELL;
	/* enough whole days to leave time on the clock at now: one if the
	 * timer is on time, more after an outage */
	need = overdue / CLOCK_DAY + 1;
	clock_bank_accrue(bank, policy, now);
	if (need > bank->days ||
	    p->remaining + need * CLOCK_DAY > CLOCK_MAX_REMAINING)
		return CLOCK_FLAG_FELL;
	bank->days -= (int)need;
	p->remaining += need * CLOCK_DAY;
	if (days_spent_r != NULL)
		*days_spent_r = (int)need;
	return CLOCK_FLAG_VACATION;
}
