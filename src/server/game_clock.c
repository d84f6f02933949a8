/* game_clock.c -- a game's clocks as the service keeps them: the stored
 * time control ("days:3 weekends=off"), the clock state (clock.h) built
 * from the row, the players' zones and vacations, and written back with
 * the deadline and the next reminder; the clock's part in the start of a
 * game, a move, a move taken back; and the clock variables every mail
 * about a game shows.
 *
 * Time is charged at h->received, the mailbox's receipt of the mail,
 * never at a signature's time.  A flag that falls is timer.c's and
 * flag.c's business; this file only says when. */
#include "server/server_private.h"

#include "render/render.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- the stored text of a time control ------------------------------ */

int game_clock_text_parse(const char *text, struct clock_control *c_r,
			  bool *vacation_ok_r, struct clock_fault *fault_r)
{
	char buf[GAME_CLOCK_TEXT_MAX], *save = NULL, *word;
	bool first = true;

	*vacation_ok_r = true;
	if (text == NULL || strlen(text) >= sizeof(buf)) {
		if (fault_r != NULL) {
			memset(fault_r, 0, sizeof(*fault_r));
			fault_r->error = CLOCK_ERR_TOO_LONG;
		}
		return -1;
	}
	snprintf(buf, sizeof(buf), "%s", text);
	for (word = strtok_r(buf, " ", &save); word != NULL;
	     word = strtok_r(NULL, " ", &save), first = false) {
		if (first) {
			if (clock_control_parse(word, c_r, fault_r) < 0)
				return -1;
		} else if (strncasecmp(word, "weekends=", 9) == 0) {
			if (clock_weekends_parse(word + 9, &c_r->weekends_off,
						 fault_r) < 0)
				return -1;
		} else if (strcasecmp(word, "vacation=no") == 0) {
			*vacation_ok_r = false;
		} else if (strcasecmp(word, "vacation=yes") != 0) {
			if (fault_r != NULL) {
				memset(fault_r, 0, sizeof(*fault_r));
				fault_r->error = CLOCK_ERR_SYNTAX;
			}
			return -1;
		}
	}
	if (first)
		return clock_control_parse("", c_r, fault_r);
	return 0;
}

void game_clock_text_format(const struct clock_control *c, bool vacation_ok,
			    char *buf, size_t size)
{
	char spec[CLOCK_SPEC_MAX];

	if (clock_control_format(c, spec, sizeof(spec)) < 0)
		snprintf(spec, sizeof(spec), "none");
	snprintf(buf, size, "%s%s%s", spec,
		 c->kind != CLOCK_KIND_NONE && c->weekends_off ?
		 " weekends=off" : "",
		 c->kind != CLOCK_KIND_NONE && !vacation_ok ?
		 " vacation=no" : "");
}

/* ---- the state from the row, and back -------------------------------- */

/* side's zone and vacations into g->clock. */
static int game_clock_player(struct handle *h, struct game *g,
			     enum core_color side)
{
	int64_t pid = side == CORE_WHITE ? g->row->white_id :
					   g->row->black_id;
	struct store_settings s;
	struct store_vacation *v = NULL;
	size_t n = 0;
	const char *error;

	if (pid == 0)
		return 0;
	if (store_settings_get(h->srv->store, pid, &s, &error) < 0)
		return server_store_fail(h, error);
	/* A zone that vanished from the tz database counts as UTC. */
	(void)clock_set_zone(&g->clock, side, s.timezone, NULL);
	if (!g->vacation_ok)
		return 0;
	if (store_vacations_for_player(h->srv->store, pid,
				       g->clock.started ?
				       g->clock.turn_started : 0,
				       &v, &n, &error) < 0)
		return server_store_fail(h, error);
	/* More than CLOCK_MAX_PAUSES booked: the earliest count (the
	 * vacation command books no more than that). */
	for (size_t i = 0; i < n; i++)
		(void)clock_pause_add(&g->clock, side, v[i].from, v[i].to,
				      NULL);
	free(v);
	return 0;
}

int game_clock_load(struct handle *h, struct game *g)
{
	const struct store_game *r = g->row;
	struct clock_control c;

	g->has_clock = false;
	g->vacation_ok = true;
	if (r->clock_settings == NULL)
		return 0;
	if (game_clock_text_parse(r->clock_settings, &c, &g->vacation_ok,
				  NULL) < 0 ||
	    clock_init(&g->clock, &c, NULL) < 0)
		return server_store_fail(h, "stored game has a bad clock");
	if (c.kind == CLOCK_KIND_NONE)
		return 0;
	g->has_clock = true;
	g->clock.player[CORE_WHITE].remaining = r->clock_white;
	g->clock.player[CORE_BLACK].remaining = r->clock_black;
	g->clock.to_move = r->clock_side == 1 ? CORE_BLACK : CORE_WHITE;
	g->clock.started = r->clock_turn_started != 0;
	g->clock.turn_started = r->clock_turn_started;
	if (game_clock_player(h, g, CORE_WHITE) < 0 ||
	    game_clock_player(h, g, CORE_BLACK) < 0)
		return -1;
	return 0;
}

/* The reminder thresholds in seconds, highest first. */
static int64_t game_clock_threshold(const struct handle *h, size_t i)
{
	return (int64_t)h->srv->cfg.clock.reminder_hours[i] * CLOCK_HOUR;
}

/* When the player to move has `left` seconds on the clock: the deadline
 * of the same clock holding that much less. */
static int64_t game_clock_when_left(const struct clock_state *s,
				    int64_t left)
{
	struct clock_state copy = *s;
	struct clock_player *p = &copy.player[copy.to_move];

	if (p->remaining <= left)
		return copy.turn_started;
	p->remaining -= left;
	return clock_deadline(&copy);
}

/* A turn began: the thresholds at or above what it begins with are not
 * reminded of (a 48-hour reminder in a 24-hour game would come with
 * every move). */
static void game_clock_turn_begun(const struct handle *h, struct game *g)
{
	const struct clock_state *s = &g->clock;
	int64_t left = s->player[s->to_move].remaining;
	size_t i = 0;

	while (i < h->srv->cfg.clock.nreminders &&
	       game_clock_threshold(h, i) >= left)
		i++;
	g->row->reminders_sent = (int)i;
}

void game_clock_to_row(const struct handle *h, struct game *g)
{
	struct store_game *r = g->row;
	const struct clock_state *s = &g->clock;
	size_t next = (size_t)(r->reminders_sent < 0 ? 0 : r->reminders_sent);
	int64_t at;

	r->deadline_at = 0;
	r->remind_at = 0;
	if (!g->has_clock)
		return;
	r->clock_white = s->player[CORE_WHITE].remaining;
	r->clock_black = s->player[CORE_BLACK].remaining;
	r->clock_turn_started = s->started ? s->turn_started : 0;
	r->clock_side = s->to_move == CORE_BLACK ? 1 : 0;
	if (r->status != STORE_GAME_ACTIVE || !s->started)
		r->flag_fell_at = 0;
	if (r->status != STORE_GAME_ACTIVE || !s->started ||
	    r->flag_fell_at != 0)
		return;
	at = clock_deadline(s);
	r->deadline_at = at == CLOCK_NEVER ? 0 : at;
	if (r->deadline_at == 0 || next >= h->srv->cfg.clock.nreminders)
		return;
	at = game_clock_when_left(s, game_clock_threshold(h, next));
	r->remind_at = at == CLOCK_NEVER ? 0 : at;
}

/* ---- the clock's part in a game's life ------------------------------- */

int game_clock_start(struct handle *h, struct game *g)
{
	if (!g->has_clock || g->clock.started)
		return 0;
	if (clock_start(&g->clock, g->rec.pos.to_move, h->received, NULL) < 0)
		return server_store_fail(h, "clock already running");
	game_clock_turn_begun(h, g);
	return 0;
}

int game_clock_after_move(struct handle *h, struct game *g, bool swapped)
{
	struct clock_state *s = &g->clock;
	struct clock_fault f;

	if (!g->has_clock || !s->started)
		return 0;
	if (clock_charge(s, h->received, &f) < 0) {
		/* The flag fell and the opponent let the game go on
		 * (timeout_claim = manual), not claiming it.  The mover
		 * had nothing left: one second, so the charge leaves them
		 * the increment (their move counts). */
		if (f.error != CLOCK_ERR_FLAG_FELL)
			return server_store_fail(h, "clock charge failed");
		s->player[s->to_move].remaining =
			clock_elapsed(s, h->received) + 1;
		if (clock_charge(s, h->received, NULL) < 0)
			return server_store_fail(h, "clock charge failed");
	}
	g->row->flag_fell_at = 0;
	if (swapped) {
		/* The seats changed hands: each clock goes with its player. */
		struct clock_player t = s->player[CORE_WHITE];
		s->player[CORE_WHITE] = s->player[CORE_BLACK];
		s->player[CORE_BLACK] = t;
	}
	/* A forced pass leaves the mover to move again. */
	s->to_move = g->rec.pos.to_move;
	game_clock_turn_begun(h, g);
	return 0;
}

int game_clock_hand_over(struct handle *h, struct game *g)
{
	struct clock_state *s = &g->clock;
	struct clock_player *p;

	if (!g->has_clock || !s->started)
		return 0;
	/* The time the player to move spent is theirs, without increment. */
	p = &s->player[s->to_move];
	p->remaining -= clock_elapsed(s, h->received);
	if (p->remaining < 0)
		p->remaining = 0;
	s->to_move = g->rec.pos.to_move;
	s->turn_started = h->received;
	g->row->flag_fell_at = 0;
	game_clock_turn_begun(h, g);
	return 0;
}

/* ---- the vacation bank ----------------------------------------------- */

int game_clock_bank_get(struct handle *h, int64_t pid, struct clock_bank *b_r)
{
	const struct clock_vacation_policy *policy =
		&h->srv->cfg.clock.vacation;
	struct store_player_clock pc;
	const char *error;

	if (store_player_clock_get(h->srv->store, pid, &pc, &error) < 0)
		return server_store_fail(h, error);
	if (!pc.has_bank) {
		clock_bank_open(b_r, policy, h->now);
		return 0;
	}
	b_r->days = pc.vacation_days;
	b_r->accrued_at = pc.accrued_at;
	clock_bank_accrue(b_r, policy, h->now);
	return 0;
}

int game_clock_bank_put(struct handle *h, int64_t pid,
			const struct clock_bank *b)
{
	struct store_player_clock pc;
	const char *error;

	if (store_player_clock_get(h->srv->store, pid, &pc, &error) < 0)
		return server_store_fail(h, error);
	pc.player_id = pid;
	pc.has_bank = true;
	pc.vacation_days = b->days;
	pc.accrued_at = b->accrued_at;
	if (store_player_clock_set(h->srv->store, &pc, &error) < 0)
		return server_store_fail(h, error);
	return 0;
}

/* ---- what mails show ------------------------------------------------- */

int64_t game_clock_now(const struct handle *h, const struct game *g)
{
	/* An ended game's clocks stopped when it ended: its row was last
	 * written then. */
	if (g->row->status != STORE_GAME_ACTIVE && g->row->updated != 0 &&
	    g->row->updated < h->now)
		return g->row->updated;
	return h->now;
}

/* "3 days 4 hours", "5 hours 20 minutes", "12 minutes": the two largest
 * units, as a clock is read. */
void game_clock_span(int64_t seconds, char *buf, size_t size)
{
	int64_t d, hr, m;

	if (seconds < 0)
		seconds = 0;
	d = seconds / CLOCK_DAY;
	hr = seconds % CLOCK_DAY / CLOCK_HOUR;
	m = seconds % CLOCK_HOUR / 60;
	if (d > 0)
		snprintf(buf, size, "%" PRId64 " day%s %" PRId64 " hour%s", d,
			 d == 1 ? "" : "s", hr, hr == 1 ? "" : "s");
	else if (hr > 0)
		snprintf(buf, size, "%" PRId64 " hour%s %" PRId64 " minute%s",
			 hr, hr == 1 ? "" : "s", m, m == 1 ? "" : "s");
	else
		snprintf(buf, size, "%" PRId64 " minute%s", m,
			 m == 1 ? "" : "s");
}

void game_clock_span_words(const struct handle *h, int64_t seconds,
			   char *buf, size_t size)
{
	struct template_set *ts = h->ts != NULL ? h->ts :
				  server_default_set(h->srv);
	struct buf out = BUF_INIT;
	const char *error;

	/* A calendar without its span line (an operator's old copy) still
	 * tells the time, in English. */
	if (render_span(ts, seconds, &out, &error) == 0)
		snprintf(buf, size, "%s", buf_str(&out));
	else
		game_clock_span(seconds, buf, size);
	buf_free(&out);
}

void game_clock_left_ctx(const struct handle *h, const struct game *g,
			 struct template_ctx *ctx)
{
	int64_t now = game_clock_now(h, g);
	const char *given = template_ctx_get(ctx, "given_seconds");
	char span[64];

	if (given != NULL)
		game_clock_given_ctx(h, strtoll(given, NULL, 10), ctx);
	game_clock_span_words(h, clock_remaining(&g->clock, CORE_WHITE, now),
			      span, sizeof(span));
	template_ctx_set(ctx, "clock_white", span);
	game_clock_span_words(h, clock_remaining(&g->clock, CORE_BLACK, now),
			      span, sizeof(span));
	template_ctx_set(ctx, "clock_black", span);
}

void game_clock_given_ctx(const struct handle *h, int64_t seconds,
			  struct template_ctx *ctx)
{
	char span[64];

	template_ctx_set_int(ctx, "given_seconds", seconds);
	game_clock_span_words(h, seconds, span, sizeof(span));
	template_ctx_set(ctx, "given", span);
}

void game_clock_ctx(const struct handle *h, const struct game *g,
		    struct template_ctx *ctx)
{
	const struct clock_state *s = &g->clock;
	char text[GAME_CLOCK_TEXT_MAX];

	template_ctx_set_bool(ctx, "has_clock", g->has_clock);
	if (!g->has_clock)
		return;
	game_clock_text_format(&s->control, g->vacation_ok, text,
			       sizeof(text));
	template_ctx_set(ctx, "clock", text);
	template_ctx_set_bool(ctx, "clock_days", s->control.kind ==
			      CLOCK_KIND_DAYS);
	template_ctx_set_int(ctx, "clock_period_days", s->control.days);
	template_ctx_set_bool(ctx, "weekends_off", s->control.weekends_off);
	template_ctx_set_bool(ctx, "vacation_no", !g->vacation_ok);
	game_clock_left_ctx(h, g, ctx);
	template_ctx_set_bool(ctx, "clock_running", s->started &&
			      g->row->status == STORE_GAME_ACTIVE &&
			      g->row->flag_fell_at == 0);
	if (g->row->flag_fell_at != 0 &&
	    g->row->status == STORE_GAME_ACTIVE) {
		template_ctx_set_bool(ctx, "flag_fallen", true);
		template_ctx_set(ctx, "flag_fallen_name",
				 s->to_move == CORE_WHITE ? g->white : g->black);
		server_set_utc(ctx, "flag_fell_at", g->row->flag_fell_at,
			       false);
	}
	if (g->row->deadline_at != 0 &&
	    g->row->status == STORE_GAME_ACTIVE) {
		template_ctx_set(ctx, "clock_to_move_name",
				 s->to_move == CORE_WHITE ? g->white : g->black);
		server_set_utc(ctx, "deadline", g->row->deadline_at, false);
	}
}

int game_clock_reader_ctx(struct handle *h, const struct game *g,
			  int64_t reader, struct template_ctx *ctx)
{
	struct store_settings s;
	struct clock_bank bank;
	const char *error;

	if (!g->has_clock || reader == 0)
		return 0;
	/* The ctx may have told another reader before, in their words. */
	template_ctx_set_bool(ctx, "reader_plays", false);
	game_clock_left_ctx(h, g, ctx);
	if (store_settings_get(h->srv->store, reader, &s, &error) < 0)
		return server_store_fail(h, error);
	if (g->row->deadline_at != 0 && g->row->status == STORE_GAME_ACTIVE &&
	    server_set_local(h, ctx, "deadline", g->row->deadline_at,
			     s.timezone) < 0)
		return -1;
	if (reader != g->row->white_id && reader != g->row->black_id)
		return 0;
	if (game_clock_bank_get(h, reader, &bank) < 0)
		return -1;
	template_ctx_set_int(ctx, "my_vacation_days", bank.days);
	template_ctx_set_bool(ctx, "reader_plays", true);
	return 0;
}
