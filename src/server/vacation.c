/* vacation.c -- the `vacation` command.
 *
 * The bank (game_clock.c) opens with the policy's start days the first
 * time it is asked for and earns days as time passes, up to the cap.
 * `vacation N` stops the clocks of all the player's games
 * (those that allow vacations) from now for N days; `vacation from DATE
 * to DATE` over those days, both included, in the player's zone;
 * `vacation cancel` gives back the days not begun.  A vacation is stored
 * once (store_vacation_*) and game_clock.c makes a pause of it in every
 * game it loads, so a pause freezes a clock and never refills one.  The
 * opponents are told. */
#include "server/server_private.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Booked vacations a player may hold at once: a game's clock keeps
 * CLOCK_MAX_PAUSES pauses, and a vacation day spent for a flag is not
 * one. */
#define VACATION_MAX_BOOKED (CLOCK_MAX_PAUSES - 2)

/* The player's zone ("" for UTC). */
static int vacation_zone(struct handle *h, char zone[STORE_TIMEZONE_MAX])
{
	struct store_settings s;

	if (server_recipient_settings(h, h->me->id, &s) < 0)
		return -1;
	memcpy(zone, s.timezone, STORE_TIMEZONE_MAX);
	return 0;
}

static void vacation_set_time(struct template_ctx *ctx, const char *key,
			      int64_t t, const char *zone)
{
	char when[80];

	if (clock_format_local(t, zone, when, sizeof(when)) == 0)
		template_ctx_set(ctx, key, when);
}

/* The first second of the day after y-m-d in zone. */
static int vacation_day_after(const char *zone, const int ymd[3],
			      int64_t *t_r)
{
	if (clock_local_day_start(zone, ymd[0], ymd[1], ymd[2] + 1, t_r) == 0)
		return 0;
	if (ymd[1] < 12)
		return clock_local_day_start(zone, ymd[0], ymd[1] + 1, 1, t_r);
	return clock_local_day_start(zone, ymd[0] + 1, 1, 1, t_r);
}

/* [from, to) and the days a command asks for, or REFUSED. */
static int vacation_span(struct handle *h, const struct command *c,
			 const char *zone, int64_t *from_r, int64_t *to_r,
			 int *days_r)
{
	int64_t first, last;

	if (c->vacation == COMMAND_VACATION_DAYS) {
		*days_r = c->vacation_days;
		*from_r = h->now;
		*to_r = h->now + c->vacation_days * CLOCK_DAY;
		return 0;
	}
	if (clock_local_day_start(zone, c->vacation_from[0],
				  c->vacation_from[1], c->vacation_from[2],
				  &first) < 0 ||
	    clock_local_day_start(zone, c->vacation_to[0], c->vacation_to[1],
				  c->vacation_to[2], &last) < 0 ||
	    vacation_day_after(zone, c->vacation_to, to_r) < 0)
		return server_refuse(h, "vacation_no_date");
	if (last < first)
		return server_refuse(h, "vacation_order");
	if (*to_r <= h->now)
		return server_refuse(h, "vacation_past");
	*days_r = (int)(clock_local_day_of(zone, last) -
			clock_local_day_of(zone, first) + 1);
	if (*days_r > COMMAND_VACATION_DAYS_MAX) {
		server_refuse(h, "vacation_too_long");
		template_ctx_set_int(h->refusal, "max",
				     COMMAND_VACATION_DAYS_MAX);
		return REFUSED;
	}
	/* A vacation from today begins now: the past is charged already. */
	*from_r = first > h->now ? first : h->now;
	return 0;
}

/* The games of the player that a vacation stops (or no longer stops):
 * saved with their new deadlines, the opponent told, listed in out as
 * "paused" or, for a game that takes no vacation, "not_paused". */
static int vacation_games(struct handle *h, enum store_clock_kind what,
			  int64_t from, int64_t to, struct template_ctx *out)
{
	struct store_game *rows = NULL;
	size_t n = 0;
	const char *error;
	int ret = 0;

	if (store_games_for_player(h->srv->store, h->me->id,
				   1u << STORE_GAME_ACTIVE, &rows, &n,
				   &error) < 0)
		return server_store_fail(h, error);
	for (size_t i = 0; ret == 0 && i < n; i++) {
		struct template_ctx *ctx, *item;
		struct game g;
		int64_t opp;
		int r;

		if (rows[i].clock_settings == NULL)
			continue;
		r = game_load(h, rows[i].id, &g, true);
		if (r <= 0) {
			ret = r < 0 ? -1 : 0;
			continue;
		}
		if (!g.has_clock) {
			game_free(&g);
			continue;
		}
		item = template_ctx_add(out, g.vacation_ok ? "paused" :
					"not_paused");
		template_ctx_setf(item, "game", "%" PRId64, g.row->id);
		template_ctx_set_bool(out, g.vacation_ok ? "has_paused" :
				      "has_not_paused", true);
		if (!g.vacation_ok) {
			game_free(&g);
			continue;
		}
		opp = g.row->white_id == h->me->id ? g.row->black_id :
						      g.row->white_id;
		ret = flag_event(h, &g, what, h->me->id, 0, NULL);
		if (ret == 0)
			ret = game_save(h, &g);
		if (ret == 0) {
			ctx = template_ctx_new();
			game_ctx(h, &g, ctx);
			/* The notice's flag is the event's name. */
			template_ctx_set_bool(ctx, store_clock_kind_name(what),
					      true);
			template_ctx_set(ctx, "away_name", h->me->name);
			server_set_utc(ctx, "away_from", from, false);
			server_set_utc(ctx, "away_to", to, false);
			ret = notice_send(h, &g, opp, NOTICE_CLOCK, ctx);
			template_ctx_free(&ctx);
		}
		game_free(&g);
	}
	store_rows_free(&rows, n, sizeof(*rows), store_game_clear);
	return ret;
}

/* vacation cancel: the days not begun go back to the bank; a vacation
 * under way ends now. */
static int vacation_cancel(struct handle *h, struct clock_bank *bank,
			   const struct store_vacation *v, size_t n,
			   struct template_ctx *out)
{
	const char *error;
	int back = 0;

	for (size_t i = 0; i < n; i++) {
		int used = 0;

		if (v[i].from < h->now)
			used = (int)((h->now - v[i].from + CLOCK_DAY - 1) /
				     CLOCK_DAY);
		if (used > v[i].days)
			used = v[i].days;
		back += v[i].days - used;
		if (store_vacation_cut(h->srv->store, v[i].id,
				       v[i].from < h->now ? h->now : v[i].from,
				       used, &error) < 0)
			return server_store_fail(h, error);
	}
	bank->days += back;
	if (bank->days > h->srv->cfg.clock.vacation.cap_days)
		bank->days = h->srv->cfg.clock.vacation.cap_days;
	template_ctx_set_bool(out, "cancelled", true);
	template_ctx_set_int(out, "days_back", back);
	if (n == 0)
		return 0;
	if (game_clock_bank_put(h, h->me->id, bank) < 0)
		return -1;
	return vacation_games(h, STORE_CLOCK_VACATION_OVER, v[0].from, h->now, out);
}

int vacation_run(struct handle *h, const struct command *c, struct game *g,
		 struct template_ctx *out)
{
	const struct clock_vacation_policy *policy =
		&h->srv->cfg.clock.vacation;
	struct store_vacation *v = NULL;
	struct clock_bank bank;
	struct clock_fault f;
	char zone[STORE_TIMEZONE_MAX];
	const char *error;
	int64_t from = 0, to = 0;
	size_t n = 0;
	int days = 0, ret = 0;

	(void)g;
	if (vacation_zone(h, zone) < 0 ||
	    game_clock_bank_get(h, h->me->id, &bank) < 0)
		return -1;
	if (store_vacations_for_player(h->srv->store, h->me->id, h->now, &v,
				       &n, &error) < 0)
		return server_store_fail(h, error);
	if (c->vacation == COMMAND_VACATION_CANCEL) {
		ret = vacation_cancel(h, &bank, v, n, out);
		goto show;
	}
	if (c->vacation == COMMAND_VACATION_SHOW)
		goto show;
	if ((ret = vacation_span(h, c, zone, &from, &to, &days)) != 0)
		goto out;
	if (clock_bank_spend(&bank, policy, days, h->now, &f) < 0) {
		server_refuse(h, "vacation_short");
		template_ctx_set_int(h->refusal, "asked", days);
		template_ctx_set_int(h->refusal, "balance", bank.days);
		ret = REFUSED;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		if (v[i].from < to && from < v[i].to) {
			server_refuse(h, "vacation_overlap");
			vacation_set_time(h->refusal, "from", v[i].from, zone);
			vacation_set_time(h->refusal, "to", v[i].to, zone);
			ret = REFUSED;
			goto out;
		}
	}
	if (n >= VACATION_MAX_BOOKED) {
		server_refuse(h, "vacation_too_many");
		template_ctx_set_int(h->refusal, "max", VACATION_MAX_BOOKED);
		ret = REFUSED;
		goto out;
	}
	if (store_vacation_add(h->srv->store, h->me->id, from, to, days,
			       h->inbound_id, h->now, NULL, &error) < 0) {
		ret = server_store_fail(h, error);
		goto out;
	}
	if (game_clock_bank_put(h, h->me->id, &bank) < 0) {
		ret = -1;
		goto out;
	}
	template_ctx_set_bool(out, "booked", true);
	template_ctx_set_int(out, "days", days);
	vacation_set_time(out, "from", from, zone);
	vacation_set_time(out, "to", to, zone);
	ret = vacation_games(h, STORE_CLOCK_VACATION, from, to, out);
	if (ret != 0)
		goto out;
	free(v);
	v = NULL;
	if (store_vacations_for_player(h->srv->store, h->me->id, h->now, &v,
				       &n, &error) < 0) {
		ret = server_store_fail(h, error);
		goto out;
	}
show:
	if (ret != 0)
		goto out;
	template_ctx_set_int(out, "days_left", bank.days);
	template_ctx_set_int(out, "earn_per_year", policy->earn_per_year);
	template_ctx_set_int(out, "cap_days", policy->cap_days);
	if (c->vacation == COMMAND_VACATION_CANCEL)
		n = 0; /* all of them were cut: none is still booked */
	for (size_t i = 0; i < n; i++) {
		struct template_ctx *item = template_ctx_add(out, "vacations");
		vacation_set_time(item, "from", v[i].from, zone);
		vacation_set_time(item, "to", v[i].to, zone);
		template_ctx_set_int(item, "days", v[i].days);
		template_ctx_set_bool(out, "has_vacations", true);
	}
out:
	free(v);
	return ret;
}
