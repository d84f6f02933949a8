/* timer.c -- the service's timer: what the clocks owe at a given time,
 * done in one transaction of its own (server_clock_tick): the daemon's
 * absence given back, the flags that fell, in the order of their
 * deadlines, and the reminders, gathered so that a player gets one
 * reminder mail a day at most; the players' daily summaries
 * (summary.c); then the club's work (club_timer.c).  Deadlines live in the store only, so a
 * restart loses none and handles each once.  See server.h. */
#include "server/server_private.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The heartbeat is written at most this often (seconds). */
#define TIMER_HEARTBEAT_EVERY 60
/* Flags handled in one run: a bound, the rest wait for the next run. */
#define TIMER_MAX_FLAGS 1000
/* Games looked at for reminders in one run. */
#define TIMER_MAX_REMINDED 10000
/* A reminder mail also tells the games whose reminder would fall due
 * within this time: the next mail may only come a day later, so the
 * player hears of them now too. */
#define TIMER_GATHER CLOCK_DAY
/* One reminder mail per player in this time at most. */
#define TIMER_REMINDER_GAP CLOCK_DAY

/* The daemon was away from `last` to `now`, longer than the grace: the
 * clocks whose flag fell meanwhile get the time back, as if stopped. */
static int timer_outage(struct handle *h, int64_t last, int64_t now,
			struct server_tick_report *rep)
{
	int64_t gap = now - last, grace = h->srv->cfg.clock.outage_grace;
	struct store_game *rows = NULL;
	size_t n = 0;
	const char *error;
	int ret = 0;

	if (grace <= 0 || gap <= grace)
		return 0;
	if (store_games_due(h->srv->store, now, 0, &rows, &n, &error) < 0)
		return server_store_fail(h, error);
	for (size_t i = 0; ret == 0 && i < n; i++) {
		struct template_ctx *ctx;
		struct game g;
		int r;

		if (rows[i].deadline_at <= last)
			continue; /* fell while we were here: a flag */
		r = game_load(h, rows[i].id, &g, true);
		if (r <= 0) {
			ret = r < 0 ? -1 : 0;
			continue;
		}
		if (g.has_clock && clock_add_time(&g.clock, g.clock.to_move,
						  gap, NULL) == 0) {
			ret = flag_event(h, &g, STORE_CLOCK_OUTAGE,
					 game_player_of(&g, g.clock.to_move),
					 gap, NULL);
			if (ret == 0)
				ret = game_save(h, &g);
			if (ret == 0) {
				char span[64];
				ctx = template_ctx_new();
				game_ctx(h, &g, ctx);
				template_ctx_set_bool(ctx, "outage", true);
				game_clock_span(gap, span, sizeof(span));
				template_ctx_set(ctx, "given", span);
				server_set_utc(ctx, "away_from", last, false);
				ret = notice_send(h, &g, g.row->white_id,
						  NOTICE_CLOCK, ctx);
				if (ret == 0)
					ret = notice_send(h, &g, g.row->black_id,
							  NOTICE_CLOCK, ctx);
				template_ctx_free(&ctx);
			}
			rep->extended++;
		}
		game_free(&g);
	}
	store_rows_free(&rows, n, sizeof(*rows), store_game_clear);
	return ret;
}

/* Every flag that fell at or before now, the earliest deadline first. */
static int timer_flags(struct handle *h, int64_t now,
		       struct server_tick_report *rep)
{
	for (size_t i = 0; i < TIMER_MAX_FLAGS; i++) {
		struct store_game *rows = NULL;
		size_t n = 0;
		enum flag_outcome what;
		const char *error;
		struct game g;
		int r;

		if (store_games_due(h->srv->store, now, 1, &rows, &n,
				    &error) < 0)
			return server_store_fail(h, error);
		if (n == 0)
			return 0;
		r = game_load(h, rows[0].id, &g, true);
		store_rows_free(&rows, n, sizeof(*rows), store_game_clear);
		if (r <= 0)
			return r < 0 ? -1 : 0;
		r = flag_check(h, &g, now, &what);
		if (r == 0 && what == FLAG_NONE) {
			/* The row's deadline was stale (a pause came since):
			 * written anew.  Still due means the clock says no
			 * flag where the row says one: never loop on it. */
			r = game_save(h, &g);
			if (r == 0 && g.row->deadline_at != 0 &&
			    g.row->deadline_at <= now) {
				g.row->deadline_at = 0;
				r = game_save(h, &g) < 0 ? -1 : 1;
				if (r == 1) {
					game_free(&g);
					continue;
				}
			}
		}
		game_free(&g);
		if (r < 0)
			return -1;
		rep->flags += what == FLAG_LOST;
		rep->cancelled += what == FLAG_CANCELLED;
		rep->claimable += what == FLAG_CLAIMABLE;
		rep->vacation_days += what == FLAG_VACATION;
	}
	return 0;
}

/* One game in a player's reminder: told, and the thresholds it passed
 * marked, so the next reminder is of a later one. */
static int timer_remind_game(struct handle *h, int64_t id, int64_t now,
			     const char *zone, struct template_ctx *mail)
{
	struct template_ctx *item;
	struct game g;
	char span[64], when[80];
	int64_t opp;
	int r;

	r = game_load(h, id, &g, false);
	if (r <= 0)
		return r < 0 ? -1 : 0;
	if (!g.has_clock) {
		game_free(&g);
		return 0;
	}
	item = template_ctx_add(mail, "games");
	game_names_ctx(&g, item);
	opp = game_player_of(&g, g.clock.to_move) == g.row->white_id ?
	      g.row->black_id : g.row->white_id;
	template_ctx_set(item, "opponent_name",
			 opp == g.row->white_id ? g.white : g.black);
	game_clock_span(clock_remaining(&g.clock, g.clock.to_move, now), span,
			sizeof(span));
	template_ctx_set(item, "left", span);
	template_ctx_setf(item, "next_ply", "%d", g.row->ply + 1);
	if (g.row->deadline_at != 0 &&
	    clock_format_local(g.row->deadline_at, zone, when,
			       sizeof(when)) == 0)
		template_ctx_set(item, "deadline", when);
	/* Only the thresholds passed are told: a game told early, its
	 * reminder not yet due, gets its own when it is (a day later at
	 * the soonest). */
	for (size_t k = 0; k < h->srv->cfg.clock.nreminders &&
	     g.row->remind_at != 0 && g.row->remind_at <= now; k++) {
		g.row->reminders_sent++;
		game_clock_to_row(h, &g);
	}
	r = game_save(h, &g);
	game_free(&g);
	return r;
}

/* The reminders of pid's games in rows[] due by now wait until `until`
 * (the one-a-day rule). */
static int timer_put_off(struct handle *h, int64_t pid,
			 const struct store_game *rows, size_t n, int64_t now,
			 int64_t until)
{
	const char *error;

	for (size_t i = 0; i < n; i++) {
		struct store_game row = rows[i];
		int64_t to_move = row.clock_side == 1 ? row.black_id :
							 row.white_id;

		if (to_move != pid || row.remind_at > now)
			continue;
		row.remind_at = until;
		if (store_game_update(h->srv->store, &row, h->now, &error) < 0)
			return server_store_fail(h, error);
	}
	return 0;
}

/* Player pid's reminder: the games in rows[] (those whose reminder
 * falls due within the gathering time) where pid is to move.  *sent_r:
 * whether a mail was queued. */
static int timer_remind(struct handle *h, int64_t pid,
			const struct store_game *rows, size_t n, int64_t now,
			bool *sent_r)
{
	struct store_player_clock pc;
	struct store_settings s;
	struct store_player *p = NULL;
	struct template_ctx *mail = NULL;
	struct buf body = BUF_INIT, subject = BUF_INIT;
	const char *error;
	int ret = 0;

	*sent_r = false;
	if (server_recipient_settings(h, pid, &s) < 0 ||
	    store_player_clock_get(h->srv->store, pid, &pc, &error) < 0 ||
	    store_player_load(h->srv->store, pid, &p, &error) < 0)
		return h->error != NULL ? -1 : server_store_fail(h, error);
	/* One a day: the rest wait for the day to pass (the gathering
	 * makes that rare), their reminders put off until then so that
	 * nobody wakes for them before. */
	if (s.reminders && pc.last_reminder_at != 0 &&
	    now - pc.last_reminder_at < TIMER_REMINDER_GAP) {
		ret = timer_put_off(h, pid, rows, n, now,
				    pc.last_reminder_at + TIMER_REMINDER_GAP);
		goto out;
	}
	mail = template_ctx_new();
	for (size_t i = 0; ret == 0 && i < n; i++) {
		int64_t to_move = rows[i].clock_side == 1 ? rows[i].black_id :
							     rows[i].white_id;
		if (to_move == pid)
			ret = timer_remind_game(h, rows[i].id, now, s.timezone,
						mail);
	}
	/* Reminders off: the thresholds pass untold. */
	if (ret < 0 || !s.reminders || p == NULL)
		goto out;
	template_ctx_set(mail, "recipient", p->name);
	ret = server_render(h, "mail/reminder.txt", mail, &body);
	if (ret == 0)
		ret = server_render_line(h, "mail/subject-reminder.txt", mail,
					 &subject);
	if (ret == 0)
		ret = server_queue_notice(h, p, NULL, false,
					  STORE_OUTBOX_KIND_REMINDER, &subject,
					  &body);
	if (ret == 0) {
		pc.player_id = pid;
		pc.last_reminder_at = now;
		if (!pc.has_bank) {
			struct clock_bank b;
			clock_bank_open(&b, &h->srv->cfg.clock.vacation, now);
			pc.has_bank = true;
			pc.vacation_days = b.days;
			pc.accrued_at = b.accrued_at;
		}
		if (store_player_clock_set(h->srv->store, &pc, &error) < 0)
			ret = server_store_fail(h, error);
		*sent_r = ret == 0;
	}
out:
	template_ctx_free(&mail);
	buf_free(&body);
	buf_free(&subject);
	store_player_free(&p);
	return ret;
}

static int timer_reminders(struct handle *h, int64_t now,
			   struct server_tick_report *rep)
{
	struct store_game *rows = NULL;
	size_t n = 0;
	const char *error;
	int ret = 0;

	if (store_games_reminder_due(h->srv->store, now + TIMER_GATHER,
				     TIMER_MAX_REMINDED, &rows, &n,
				     &error) < 0)
		return server_store_fail(h, error);
	/* rows are by remind_at: those due now come first, and each player
	 * with one due is reminded of all theirs once. */
	for (size_t i = 0; ret == 0 && i < n && rows[i].remind_at <= now;
	     i++) {
		int64_t pid = rows[i].clock_side == 1 ? rows[i].black_id :
							 rows[i].white_id;
		bool done = false, sent;

		for (size_t j = 0; j < i; j++)
			if ((rows[j].clock_side == 1 ? rows[j].black_id :
			     rows[j].white_id) == pid)
				done = true;
		if (done)
			continue;
		ret = timer_remind(h, pid, rows, n, now, &sent);
		rep->reminders += sent;
	}
	store_rows_free(&rows, n, sizeof(*rows), store_game_clear);
	return ret;
}

/* When the events need the timer (club_tournament_next), outside a
 * transaction: they only read. */
static int timer_events_next(struct server *server, int64_t *at_r,
			     const char **error_r)
{
	struct handle h;
	int r;

	if (server->cfg.ntournaments == 0)
		return 0;
	server_handle_at(server, &h, 0);
	r = club_tournament_next(&h, at_r);
	template_ctx_free(&h.refusal);
	if (r < 0)
		*error_r = h.error != NULL ? h.error : "events: failure";
	return r;
}

/* Is there anything to do?  Looked at before the write lock is taken:
 * the daemon asks every round. */
static int timer_due(struct server *server, int64_t now, int64_t *last_r,
		     bool *have_last_r, const char **error_r)
{
	struct store_game *rows = NULL;
	size_t n = 0;
	int64_t at;
	int r;

	r = store_clock_heartbeat_get(server->store, last_r, error_r);
	if (r < 0)
		return -1;
	*have_last_r = r == 1;
	if (r == 0 || now - *last_r >= TIMER_HEARTBEAT_EVERY)
		return 1;
	r = store_games_next_deadline(server->store, &at, error_r);
	if (r < 0)
		return -1;
	if (r == 1 && at <= now)
		return 1;
	if (store_games_reminder_due(server->store, now, 1, &rows, &n,
				     error_r) < 0)
		return -1;
	store_rows_free(&rows, n, sizeof(*rows), store_game_clear);
	if (n > 0)
		return 1;
	/* A player's daily summary. */
	r = store_summary_next(server->store, &at, error_r);
	if (r < 0)
		return -1;
	if (r == 1 && at <= now)
		return 1;
	/* An event's start or a round's deadline. */
	r = timer_events_next(server, &at, error_r);
	if (r < 0)
		return -1;
	if (r == 1 && at <= now)
		return 1;
	/* A competition's game ended: its ladder and ratings move now,
	 * not at the next minute. */
	{
		int64_t *ids = NULL;
		if (store_game_club_pending(server->store, 1, &ids, &n,
					    error_r) < 0)
			return -1;
		free(ids);
		ids = NULL;
		/* An event's game ended: its next round may be due. */
		if (n == 0 && store_tournament_pending(server->store, 1, &ids,
						       &n, error_r) < 0)
			return -1;
		free(ids);
	}
	return n > 0;
}

int server_clock_tick(struct server *server, int64_t now,
		      struct server_tick_report *report, const char **error_r)
{
	struct server_tick_report rep;
	struct club_report club;
	struct handle h;
	const char *error;
	int64_t last = 0;
	bool have_last = false;
	int r;

	memset(&rep, 0, sizeof(rep));
	memset(&club, 0, sizeof(club));
	if (report != NULL)
		*report = rep;
	r = timer_due(server, now, &last, &have_last, error_r);
	if (r <= 0)
		return r;
	server_handle_at(server, &h, now);
	if (store_begin(server->store, &error) < 0) {
		*error_r = error;
		return -1;
	}
	/* Under the lock, the heartbeat again: another process may have
	 * run the timer meanwhile. */
	r = store_clock_heartbeat_get(server->store, &last, &error);
	if (r < 0)
		goto fail;
	have_last = r == 1;
	r = 0;
	if (have_last && last < now)
		r = timer_outage(&h, last, now, &rep);
	if (r == 0)
		r = timer_flags(&h, now, &rep);
	if (r == 0)
		r = timer_reminders(&h, now, &rep);
	if (r == 0)
		r = summary_tick(&h, &rep.summaries);
	if (r == 0)
		r = club_tick(&h, &club);
	if (r == 0 && (!have_last || last < now) &&
	    store_clock_heartbeat_set(server->store, now, &error) < 0)
		r = server_store_fail(&h, error);
	if (r == 0 && store_commit(server->store, &error) < 0)
		r = server_store_fail(&h, error);
	template_ctx_free(&h.refusal);
	if (r == 0) {
		rep.club_joined = club.joined;
		rep.club_withdrawn = club.withdrawn;
		rep.club_results = club.results;
		rep.club_rated = club.rated;
		rep.club_walkovers = club.walkovers;
		rep.club_seasons = club.seasons;
		rep.club_standings = club.standings;
		rep.event_results = club.events.results;
		rep.event_rated = club.events.rated;
		rep.event_rounds = club.events.rounds;
		rep.event_decided = club.events.decided;
		rep.event_ended = club.events.ended;
		if (report != NULL)
			*report = rep;
		return 0;
	}
	error = h.error;
fail:
	{
		/* Keep the text: the store's strings die at rollback, and
		 * the error may be errbuf itself. */
		char why[sizeof(server->errbuf) - 16];
		snprintf(why, sizeof(why), "%s",
			 error != NULL ? error : "failure");
		snprintf(server->errbuf, sizeof(server->errbuf),
			 "clock timer: %s", why);
	}
	store_rollback(server->store);
	*error_r = server->errbuf;
	return -1;
}

int server_clock_next(struct server *server, int64_t *at_r,
		      const char **error_r)
{
	struct store_game *rows = NULL;
	size_t n = 0;
	int r = store_games_next_deadline(server->store, at_r, error_r);

	if (r < 0)
		return -1;
	/* A reminder is due at its time too: the earliest of both. */
	if (store_games_reminder_due(server->store, INT64_MAX, 1, &rows, &n,
				     error_r) < 0)
		return -1;
	if (n > 0 && (r == 0 || rows[0].remind_at < *at_r)) {
		*at_r = rows[0].remind_at;
		r = 1;
	}
	store_rows_free(&rows, n, sizeof(*rows), store_game_clear);
	/* And an event's start or round deadline. */
	{
		int64_t at;
		int s = timer_events_next(server, &at, error_r);

		if (s < 0)
			return -1;
		if (s == 1 && (r == 0 || at < *at_r)) {
			*at_r = at;
			r = 1;
		}
	}
	/* And a daily summary at its time. */
	{
		int64_t at;
		int s = store_summary_next(server->store, &at, error_r);

		if (s < 0)
			return -1;
		if (s == 1 && (r == 0 || at < *at_r)) {
			*at_r = at;
			r = 1;
		}
	}
	return r;
}
