/* archive_clock.c -- the clock after each ply of a game, for the record's
 * clock= annotations.  The store keeps a game's clocks only as they stand
 * (and the clock history besides the moves), so they are rebuilt here the
 * way the service ran them (server/clock.h): started when the game was
 * accepted, charged at each ply's storing, the seats' clocks exchanged by
 * the swap, the operator's and the vacation bank's time added when it
 * was.  What the store does not keep cannot be rebuilt: the time a move
 * taken back had cost.  A rebuilt clock is an annotation, not a proof. */
#include "archive/archive_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "server/clock.h"

/* The stored time control ("fischer:72h+12h weekends=off vacation=no"):
 * the first word, and weekends=; vacation= does not change a clock. */
static int clock_text_parse(const char *text, struct clock_control *c_r)
{
	char buf[128], *save = NULL, *word;
	bool first = true;

	snprintf(buf, sizeof(buf), "%s", text);
	for (word = strtok_r(buf, " ", &save); word != NULL;
	     word = strtok_r(NULL, " ", &save), first = false) {
		if (first) {
			if (clock_control_parse(word, c_r, NULL) < 0)
				return -1;
		} else if (strncasecmp(word, "weekends=", 9) == 0 &&
			   clock_weekends_parse(word + 9, &c_r->weekends_off,
						NULL) < 0) {
			return -1;
		}
	}
	return first ? -1 : 0;
}

/* A player's zone and vacations onto side. */
static int clock_player(const struct archive_source *src,
			struct clock_state *s, enum core_color side,
			int64_t pid, const char **error_r)
{
	struct store_settings set;
	struct store_vacation *v = NULL;
	size_t n = 0;

	if (pid == 0)
		return 0;
	if (store_settings_get(src->store, pid, &set, error_r) < 0 ||
	    store_vacations_for_player(src->store, pid, 0, &v, &n,
				       error_r) < 0)
		return -1;
	(void)clock_set_zone(s, side, set.timezone, NULL);
	for (size_t i = 0; i < n; i++)
		(void)clock_pause_add(s, side, v[i].from, v[i].to, NULL);
	free(v);
	return 0;
}

/* When the first turn began: the receipt of the mail that accepted the
 * game (the first your-move we sent, at ply 0), else the game's start. */
static int64_t clock_started(const struct archive_game *g)
{
	int64_t at = 0;

	for (size_t i = 0; i < g->nmails; i++) {
		const struct archive_mail *m = &g->mails[i];
		if ((m->sent & ARCHIVE_SENT_YOUR_MOVE) && m->sent_ply == 0)
			at = m->in->received;
	}
	return at != 0 ? at : g->row->created;
}

/* The seat a player held at time `at` of the game: before the swap the
 * players held the seats they give up by it. */
static int clock_side_of(const struct archive_game *g, int64_t pid,
			 size_t plies_before)
{
	bool swapped = g->row->swapped && plies_before >= 2;
	int side = pid == g->row->white_id ? CORE_WHITE :
		   pid == g->row->black_id ? CORE_BLACK : -1;

	if (side < 0 || !g->row->swapped || swapped)
		return side;
	return !side;
}

/* The clock events up to `until` (and after the one at *next), applied. */
static void clock_events_until(const struct archive_game *g,
			       struct clock_state *s, size_t *next,
			       int64_t until, size_t plies_before)
{
	for (; *next < g->nevents && g->events[*next].at <= until; (*next)++) {
		const struct store_clock_event *e = &g->events[*next];
		int side;

		if (e->seconds == 0 ||
		    (strcmp(e->kind, "adjust") != 0 &&
		     strcmp(e->kind, "outage") != 0 &&
		     strcmp(e->kind, "vacation_day") != 0))
			continue;
		side = clock_side_of(g, e->player_id, plies_before);
		if (side >= 0)
			(void)clock_add_time(s, (enum core_color)side,
					     e->seconds, NULL);
	}
}

int archive_clock_plies(const struct archive_source *src,
			const struct archive_game *g, int64_t *clock_r,
			bool *clocked_r, const char **error_r)
{
	struct clock_control c;
	struct clock_state s;
	struct core_record rec;
	enum core_error err;
	size_t ev = 0;
	int64_t first_white, first_black;

	*clocked_r = false;
	if (g->row->clock_settings == NULL ||
	    clock_text_parse(g->row->clock_settings, &c) < 0 ||
	    c.kind == CLOCK_KIND_NONE || clock_init(&s, &c, NULL) < 0)
		return 0;
	*clocked_r = true;
	/* The seats as the game began. */
	first_white = g->row->swapped ? g->row->black_id : g->row->white_id;
	first_black = g->row->swapped ? g->row->white_id : g->row->black_id;
	if (clock_player(src, &s, CORE_WHITE, first_white, error_r) < 0 ||
	    clock_player(src, &s, CORE_BLACK, first_black, error_r) < 0)
		return -1;
	if (record_init(&rec, &g->core.variant, &err) < 0) {
		*error_r = "the game's variant";
		return -1;
	}
	(void)clock_start(&s, CORE_WHITE, clock_started(g), NULL);
	for (size_t i = 0; i < g->nmoves; i++) {
		const struct store_move *mv = &g->moves[i];
		enum core_color mover = s.to_move;
		bool swap = strcmp(mv->text, "swap") == 0;

		if (i < rec.nplies) {
			/* A forced pass (the mover is to move again): the
			 * passer's clock stands. */
			clock_r[i] = s.player[!s.to_move].remaining;
			continue;
		}
		clock_events_until(g, &s, &ev, mv->played_at, i);
		if (clock_charge(&s, mv->played_at, NULL) < 0) {
			/* A flag that fell and was not claimed: the move
			 * counted with nothing left (game_clock.c). */
			s.player[mover].remaining =
				clock_elapsed(&s, mv->played_at) + 1;
			(void)clock_charge(&s, mv->played_at, NULL);
		}
		clock_r[i] = s.player[mover].remaining;
		if (record_play_text(&rec, mv->text, strlen(mv->text), NULL,
				     &err) < 0)
			break; /* the gathered replay said it plays */
		if (swap) {
			struct clock_player t = s.player[CORE_WHITE];
			s.player[CORE_WHITE] = s.player[CORE_BLACK];
			s.player[CORE_BLACK] = t;
		}
		s.to_move = rec.pos.to_move;
	}
	record_free(&rec);
	return 0;
}
