/* summary.c -- the daily summary of a player who chose `set summary daily
 * HH:MM`: their non-urgent notices are noted instead of sent
 * (summary_note(), from notice_send()), and once a day, at the first run
 * of the clocks' timer at or after HH:MM in the player's zone, one mail
 * (templates/mail/summary.txt) lists every game where it is their move
 * (the board, the last move in words, the clocks, the line to send
 * back), the games where they wait, and what was noted since.
 *
 * Urgent notices still go at once: a game's end (noted too, as a line
 * of what happened), a new challenge, a key revoked, a ladder's
 * walkover, and anything about a game whose deadline for the reader
 * falls within SUMMARY_URGENT.  Replies never pass here.
 *
 * The schedule is the store's (sql/014): the instant the next summary is
 * due, worked out here (clock_daily_next(): at most one a local day, a
 * day of 23 or 25 hours across a change of summer time) whenever the
 * store has reset it, and again after each summary.  The notes are
 * deleted in the timer's transaction that queues the mail, as the
 * observers' digest does (digest.c): running twice sends nothing twice,
 * a crash before the commit keeps them.  A player who turns the summary
 * off gets what was noted in one last summary at the next timer run. */
#include "server/server_private.h"

#include <stdlib.h>
#include <string.h>

/* A deadline nearer than this makes a notice about the game urgent. */
#define SUMMARY_URGENT CLOCK_DAY
/* Players summarised in one timer run: a bound, the rest wait for the
 * next run. */
#define SUMMARY_MAX_PLAYERS 1000

/* Is notice n (about g, may be NULL) to pid urgent, never held back? */
static bool summary_urgent(const struct handle *h, const struct game *g,
			   int64_t pid, enum server_notice n)
{
	switch (n) {
	case NOTICE_YOUR_MOVE:
	case NOTICE_OBSERVER:
	case NOTICE_CHALLENGE_CLOSED:
	case NOTICE_DRAW:
	case NOTICE_MESSAGE:
	case NOTICE_UNDO:
	case NOTICE_UNDONE:
	case NOTICE_CLOCK:
		break;
	default: /* results, new challenges, keys, ladders */
		return true;
	}
	if (g == NULL || g->row == NULL)
		return false;
	if (g->row->status == STORE_GAME_FINISHED ||
	    g->row->status == STORE_GAME_CANCELLED)
		return true;
	/* The reader's own deadline within a day: a reminder's business,
	 * which cannot wait for tomorrow's summary. */
	return g->row->status == STORE_GAME_ACTIVE && g->rec_ok &&
	       game_player_of(g, g->rec.pos.to_move) == pid &&
	       g->row->deadline_at != 0 &&
	       g->row->deadline_at - h->now <= SUMMARY_URGENT;
}

int summary_note(struct handle *h, struct game *g,
		 const struct store_player *p, enum server_notice n,
		 const char *tpl, struct template_ctx *ctx)
{
	struct store_settings s;
	struct buf text = BUF_INIT;
	const char *error, *kind;
	int ret = 0;

	bool send = false;

	if (server_recipient_settings(h, p->id, &s) < 0)
		return -1;
	if (s.summary_at < 0)
		return 0;
	/* A game's end goes at once, and is told again among what
	 * happened; the rest that is urgent only goes. */
	if (n == NOTICE_RESULT && g != NULL && g->row != NULL)
		send = true;
	else if (summary_urgent(h, g, p->id, n))
		return 0;
	/* What the summary shows of it: the mail itself for an event, the
	 * plies for an observed game; nothing for a "your move", which the
	 * summary shows from the game as it then stands. */
	switch (n) {
	case NOTICE_YOUR_MOVE:
	case NOTICE_UNDONE:
		kind = "your_move";
		break;
	case NOTICE_OBSERVER:
		kind = "observer";
		ret = server_render(h, "mail/summary-observed.txt", ctx, &text);
		break;
	case NOTICE_RESULT:
		kind = "result";
		ret = server_render(h, "mail/summary-result.txt", ctx, &text);
		break;
	case NOTICE_DRAW:
	case NOTICE_UNDO:
		/* An offer: told while the game goes on. */
		kind = "offer";
		ret = server_render(h, tpl, ctx, &text);
		break;
	default:
		kind = "event";
		ret = server_render(h, tpl, ctx, &text);
		break;
	}
	/* Its blank lines at the end are the summary's to put. */
	while (ret == 0 && text.len > 0 && text.data[text.len - 1] == '\n')
		text.data[--text.len] = '\0';
	if (ret == 0 &&
	    store_summary_add(h->srv->store, p->id,
			      g != NULL && g->row != NULL ? g->row->id : 0, kind,
			      buf_str(&text), h->now, &error) < 0)
		ret = server_store_fail(h, error);
	buf_free(&text);
	return ret < 0 ? -1 : send ? 0 : 1;
}

/* Is note `it` still worth telling?  An offer is not once its game is
 * over (its result says what became of it). */
static int summary_item_live(struct handle *h,
			     const struct store_summary_item *it, bool *live_r)
{
	struct store_game *row = NULL;
	const char *error;
	int r;

	*live_r = it->text != NULL && it->text[0] != '\0';
	if (!*live_r || strcmp(it->kind, "offer") != 0 || it->game_id == 0)
		return 0;
	r = store_game_load(h->srv->store, it->game_id, &row, &error);
	if (r < 0)
		return server_store_fail(h, error);
	*live_r = r == 1 && row->status == STORE_GAME_ACTIVE;
	store_game_free(&row);
	return 0;
}

/* One game of pid's into the summary: where it is their move, the board,
 * the last move in words, the clocks and the line to send; else a line
 * of the games they wait in, counted in *to_move_r or *waiting_r. */
static int summary_game(struct handle *h, int64_t pid, int64_t id,
			struct template_ctx *mail, size_t *to_move_r,
			size_t *waiting_r)
{
	bool mine;
	struct template_ctx *it;
	struct game g;
	int64_t mover;
	int r;

	r = game_load(h, id, &g, true);
	if (r <= 0)
		return r < 0 ? -1 : 0;
	if (!g.rec_ok || g.row->status != STORE_GAME_ACTIVE) {
		game_free(&g);
		return 0;
	}
	mover = game_player_of(&g, g.rec.pos.to_move);
	mine = mover == pid;
	*(mine ? to_move_r : waiting_r) += 1;
	it = template_ctx_add(mail, mine ? "to_move" : "waiting");
	game_ctx(h, &g, it);
	template_ctx_set(it, "opponent_name",
			 pid == g.row->white_id ? g.black : g.white);
	r = game_clock_reader_ctx(h, &g, pid, it);
	if (r == 0 && mine) {
		/* The opponent's last move, in words. */
		r = game_last_moves_ctx(h, &g, g.rec.nplies > 0 ?
					g.rec.nplies - 1 : 0, it);
		if (r == 0)
			r = recipient_moves_ctx(h, pid, it);
	}
	game_free(&g);
	return r;
}

/* The games pid plays, as the summary lists them.  0 or -1. */
static int summary_games(struct handle *h, int64_t pid,
			 struct template_ctx *mail, size_t *to_move_r)
{
	size_t waiting = 0;
	struct store_game *rows = NULL;
	size_t n = 0;
	const char *error;
	int ret = 0;

	*to_move_r = 0;
	if (store_games_for_player(h->srv->store, pid,
				   1u << STORE_GAME_ACTIVE, &rows, &n,
				   &error) < 0)
		return server_store_fail(h, error);
	template_ctx_list(mail, "to_move");
	template_ctx_list(mail, "waiting");
	/* Oldest game first, as a player numbers them. */
	for (size_t i = n; ret == 0 && i-- > 0;)
		ret = summary_game(h, pid, rows[i].id, mail, to_move_r,
				   &waiting);
	template_ctx_set_bool(mail, "has_waiting", waiting > 0);
	store_rows_free(&rows, n, sizeof(*rows), store_game_clear);
	template_ctx_free(&h->refusal); /* game_load's "no such game" */
	return ret;
}

/* Player pid's summary: rendered and queued when it has anything to
 * tell (a game to move in, or a note), the notes cleared.  `on`: the
 * summary is still chosen (else this is the last, of what was noted
 * before it was turned off).  0 (*sent_r: a mail was queued), -1. */
static int summary_one(struct handle *h, int64_t pid, bool on,
		       bool *sent_r)
{
	struct store_player *p = NULL;
	struct store_summary_item *items = NULL;
	struct template_ctx *mail = template_ctx_new();
	struct buf body = BUF_INIT, subject = BUF_INIT;
	struct store_settings s;
	struct template_set *was = h->ts;
	const char *error;
	size_t n = 0, to_move = 0, events = 0;
	char date[80];
	int ret;

	*sent_r = false;
	ret = store_player_load(h->srv->store, pid, &p, &error);
	if (ret < 0 || store_summary_items(h->srv->store, pid, &items, &n,
					   &error) < 0) {
		ret = server_store_fail(h, error);
		goto out;
	}
	if (ret == 0 || server_recipient_settings(h, pid, &s) < 0) {
		ret = ret == 0 ? 0 : -1;
		goto out;
	}
	/* In the reader's language (language.c). */
	h->ts = server_lang_set(h->srv, s.language);
	ret = summary_games(h, pid, mail, &to_move);
	template_ctx_list(mail, "events");
	for (size_t i = 0; ret == 0 && i < n; i++) {
		bool live;

		ret = summary_item_live(h, &items[i], &live);
		if (ret == 0 && live) {
			struct template_ctx *it =
				template_ctx_add(mail, "events");
			template_ctx_set(it, "text", items[i].text);
			events++;
		}
	}
	/* A quiet day (no move to make, nothing noted that is still to
	 * tell): no mail. */
	if (ret < 0 || (to_move == 0 && events == 0))
		goto clear;
	if (clock_format_local(h->now, s.timezone, date, sizeof(date)) < 0)
		date[0] = '\0';
	template_ctx_set(mail, "recipient", p->name);
	if (server_set_local(h, mail, "date", h->now, s.timezone) < 0) {
		ret = -1;
		goto out;
	}
	template_ctx_setf(mail, "day", "%.10s", date);
	template_ctx_setf(mail, "summary_time", "%02d:%02d",
			  s.summary_at >= 0 ? s.summary_at / 60 : 0,
			  s.summary_at >= 0 ? s.summary_at % 60 : 0);
	template_ctx_set_int(mail, "to_move_count", (long long)to_move);
	template_ctx_set_bool(mail, "has_to_move", to_move > 0);
	template_ctx_set_bool(mail, "summary_on", on);
	template_ctx_set_bool(mail, "has_events", events > 0);
	ret = server_render(h, "mail/summary.txt", mail, &body);
	if (ret == 0)
		ret = server_render_line(h, "mail/subject-summary.txt", mail,
					 &subject);
	/* Nothing queued for a player with no working address: as for the
	 * notices they would have had. */
	if (ret == 0)
		ret = server_queue_notice(h, p, NULL, false,
					  STORE_OUTBOX_KIND_SUMMARY, &subject,
					  &body);
	*sent_r = ret == 0 && server_player_address(p) != NULL;
clear:
	if (ret == 0 && store_summary_clear(h->srv->store, pid, &error) < 0)
		ret = server_store_fail(h, error);
out:
	h->ts = was;
	store_rows_free(&items, n, sizeof(*items), store_summary_item_clear);
	store_player_free(&p);
	template_ctx_free(&mail);
	buf_free(&body);
	buf_free(&subject);
	return ret;
}

int summary_tick(struct handle *h, size_t *sent_r)
{
	struct store_summary_due *rows = NULL;
	size_t n = 0;
	const char *error;
	int ret = 0;

	*sent_r = 0;
	if (store_summary_due(h->srv->store, h->now, SUMMARY_MAX_PLAYERS,
			      &rows, &n, &error) < 0)
		return server_store_fail(h, error);
	for (size_t i = 0; ret == 0 && i < n; i++) {
		const struct store_summary_due *d = &rows[i];
		struct store_settings s;
		int64_t due = d->due, sent = d->sent;
		bool one = false;

		if (d->at < 0) { /* turned off: what was noted, once */
			ret = summary_one(h, d->player_id, false, &one);
			*sent_r += one;
			continue;
		}
		if (server_recipient_settings(h, d->player_id, &s) < 0) {
			ret = -1;
			break;
		}
		/* Chosen or moved to another zone since: the first time
		 * due at or after the choice, on a day after the last. */
		if (due == 0)
			due = clock_daily_next(s.timezone, d->at, d->chosen,
					       d->sent);
		if (due <= h->now) {
			ret = summary_one(h, d->player_id, true, &one);
			*sent_r += one;
			sent = h->now;
			due = clock_daily_next(s.timezone, d->at, h->now,
					       h->now);
		}
		if (ret == 0 &&
		    store_summary_schedule(h->srv->store, d->player_id, due,
					   sent, &error) < 0)
			ret = server_store_fail(h, error);
	}
	free(rows);
	return ret;
}
