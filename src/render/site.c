/* site.c -- a club's game pages (site.h): the index and a page per game
 * from templates/site/ (*.html), and the board after every ply as SVG.
 * Here are only the facts as template variables (names, numbers, times
 * as "2024-05-01 12:00 UTC" and the page's own times also in words, from
 * the set's calendar.txt, durations as "2d 3h 5m") and the replay of a
 * game's plies; every word and every tag is the templates', in the set's
 * language. */
#include "render/site.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/core.h"
#include "core/record.h"
#include "core/variant.h"
#include "render/render.h"
#include "util/xalloc.h"

static __thread char site_error[200];

void site_page_name(int64_t game, char *buf, size_t len)
{
	snprintf(buf, len, "game-%" PRId64 ".html", game);
}

void site_board_dir_name(int64_t game, char *buf, size_t len)
{
	snprintf(buf, len, "game-%" PRId64, game);
}

void site_board_name(int64_t game, size_t ply, char *buf, size_t len)
{
	snprintf(buf, len, "game-%" PRId64 "/ply-%zu.svg", game, ply);
}

void site_archive_name(int64_t game, char *buf, size_t len)
{
	snprintf(buf, len, SITE_ARCHIVE_DIR "/game-%" PRId64 ".tar.gz", game);
}

/* key = t as "2024-05-01 12:00 UTC"; unset for 0 (never). */
static void site_set_utc(struct template_ctx *ctx, const char *key, int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;
	char buf[40];

	if (t == 0 || gmtime_r(&tt, &tm) == NULL)
		return;
	strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M UTC", &tm);
	template_ctx_set(ctx, key, buf);
}

/* key_long = t in words from set's calendar.txt ("Thursday 3 December
 * 2026, 14:00 UTC"); unset for 0.  -1 with *error_r (render_date()'s). */
static int site_set_long(struct template_set *set, struct template_ctx *ctx,
			 const char *key, int64_t t, const char **error_r)
{
	time_t tt = (time_t)t;
	struct tm tm;
	struct render_date d;
	struct buf words = BUF_INIT;
	char long_key[64];
	int ret;

	if (t == 0 || gmtime_r(&tt, &tm) == NULL)
		return 0;
	d = (struct render_date){ tm.tm_year + 1900, tm.tm_mon + 1,
		tm.tm_mday, tm.tm_wday == 0 ? 7 : tm.tm_wday, tm.tm_hour,
		tm.tm_min, "UTC" };
	ret = render_date(set, &d, &words, error_r);
	if (ret == 0) {
		snprintf(long_key, sizeof(long_key), "%s_long", key);
		template_ctx_set(ctx, long_key, buf_str(&words));
	}
	buf_free(&words);
	return ret;
}

/* key = seconds as "2d 3h 5m" (the units that are not 0; under a
 * minute, "40s"; "-" before time taken). */
static void site_set_duration(struct template_ctx *ctx, const char *key,
			      int64_t seconds)
{
	uint64_t s = seconds < 0 ? (uint64_t)0 - (uint64_t)seconds :
		(uint64_t)seconds;
	uint64_t d = s / 86400, h = s / 3600 % 24, m = s / 60 % 60;
	struct buf b = BUF_INIT;

	buf_puts(&b, seconds < 0 ? "-" : "");
	if (s < 60)
		buf_printf(&b, "%" PRIu64 "s", s);
	if (d > 0)
		buf_printf(&b, "%" PRIu64 "d", d);
	if (h > 0)
		buf_printf(&b, "%s%" PRIu64 "h", d > 0 ? " " : "", h);
	if (m > 0)
		buf_printf(&b, "%s%" PRIu64 "m", d + h > 0 ? " " : "", m);
	template_ctx_set(ctx, key, buf_str(&b));
	buf_free(&b);
}

/* What a game page and its row of the index share: who, what, when,
 * how it ended, its competition. */
static void site_game_ctx(const struct site_game *g, struct template_ctx *ctx)
{
	char name[64];

	template_ctx_setf(ctx, "game", "%" PRId64, g->id);
	site_page_name(g->id, name, sizeof(name));
	template_ctx_set(ctx, "page", name);
	template_ctx_set(ctx, "white", g->white);
	template_ctx_set(ctx, "black", g->black);
	template_ctx_set(ctx, "challenger", g->challenger);
	template_ctx_set_bool(ctx, "swapped", g->swapped);
	template_ctx_set(ctx, "status", g->status);
	template_ctx_set(ctx, "variant", g->variant);
	template_ctx_set_int(ctx, "plies", g->ply);
	template_ctx_set(ctx, "result", g->result);
	template_ctx_set_bool(ctx, "won_white",
			      g->result && strcmp(g->result, "1-0") == 0);
	template_ctx_set_bool(ctx, "won_black",
			      g->result && strcmp(g->result, "0-1") == 0);
	template_ctx_set_bool(ctx, "draw",
			      g->result && strcmp(g->result, "1/2-1/2") == 0);
	template_ctx_set(ctx, "end_reason", g->end_reason);
	/* The same flags as render_position_ctx()'s, for the words. */
	for (int r = CORE_END_ELIMINATION; r <= CORE_END_TIME; r++) {
		static const char *const flags[] = {
			[CORE_END_ELIMINATION] = "by_elimination",
			[CORE_END_DOUBLE_PASS] = "by_double_pass",
			[CORE_END_RESIGNATION] = "by_resignation",
			[CORE_END_AGREED_DRAW] = "by_agreement",
			[CORE_END_TIME] = "by_time",
		};
		template_ctx_set_bool(ctx, flags[r], g->end_reason != NULL &&
			strcmp(g->end_reason, core_end_reason_name(
				(enum core_end_reason)r)) == 0);
	}
	site_set_utc(ctx, "created", g->created);
	site_set_utc(ctx, "updated", g->updated);
	if (g->ended)
		site_set_utc(ctx, "ended", g->updated);
	template_ctx_set(ctx, "ladder", g->ladder);
	template_ctx_set(ctx, "league", g->league);
	if (g->league != NULL) {
		template_ctx_set_int(ctx, "season", g->season);
		template_ctx_set_int(ctx, "group", g->group);
	}
}

void site_event_page_name(const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "event-%s.html", name);
}

/* An event's variables for the index and its page: name, page, format,
 * entrants, paired, ended. */
static void site_event_ctx(const struct site_event *ev,
			   struct template_ctx *ctx)
{
	char page[96];

	site_event_page_name(ev->name, page, sizeof(page));
	template_ctx_set(ctx, "name", ev->name);
	template_ctx_set(ctx, "page", page);
	template_ctx_set(ctx, "format", ev->format);
	template_ctx_set_int(ctx, "entrants", (long)ev->entrants);
	template_ctx_set_int(ctx, "paired", ev->paired);
	template_ctx_set_bool(ctx, "ended", ev->ended);
}

/* Variables every page has: index, made (and made_long), lang (the
 * set's language, for <html lang>).  -1 with *error_r. */
static int site_page_ctx(struct template_set *set, struct template_ctx *ctx,
			 int64_t made, const char **error_r)
{
	template_ctx_set(ctx, "index", SITE_INDEX);
	template_ctx_set(ctx, "lang", template_set_lang(set));
	site_set_utc(ctx, "made", made);
	return site_set_long(set, ctx, "made", made, error_r);
}

int site_index_html(struct template_set *set, const struct site_index *idx,
		    int64_t made, struct buf *out, const char **error_r)
{
	struct template_ctx *ctx = template_ctx_new();
	int ret = -1;

	if (site_page_ctx(set, ctx, made, error_r) < 0)
		goto out;
	template_ctx_list(ctx, "games");
	template_ctx_set_bool(ctx, "any_games", idx->ngames > 0);
	for (size_t i = 0; i < idx->ngames; i++)
		site_game_ctx(&idx->games[i], template_ctx_add(ctx, "games"));
	template_ctx_list(ctx, "standings");
	for (size_t i = 0; i < idx->nstandings; i++) {
		const struct site_standing *s = &idx->standings[i];
		struct template_ctx *it = template_ctx_add(ctx, "standings");

		template_ctx_set(it, "kind", s->kind);
		template_ctx_set_bool(it, "is_ladder",
				      strcmp(s->kind, "ladder") == 0);
		template_ctx_set(it, "name", s->name);
		template_ctx_set(it, "text", s->text);
	}
	template_ctx_set(ctx, "ratings", idx->ratings);
	template_ctx_list(ctx, "events");
	for (size_t i = 0; i < idx->nevents; i++)
		site_event_ctx(&idx->events[i], template_ctx_add(ctx,
								 "events"));
	ret = template_render(set, "site/index.html", ctx, out, error_r);
out:
	template_ctx_free(&ctx);
	return ret;
}

int site_event_html(struct template_set *set, const struct site_event *ev,
		    int64_t made, struct buf *out, const char **error_r)
{
	struct template_ctx *ctx = template_ctx_new();
	int ret = -1;

	if (site_page_ctx(set, ctx, made, error_r) < 0)
		goto out;
	site_event_ctx(ev, ctx);
	template_ctx_list(ctx, "rounds");
	for (size_t i = 0; i < ev->nrounds; i++) {
		struct template_ctx *it = template_ctx_add(ctx, "rounds");

		template_ctx_set_int(it, "round", ev->rounds[i].round);
		template_ctx_set(it, "pairings", ev->rounds[i].pairings);
	}
	template_ctx_set(ctx, "crosstable", ev->crosstable);
	template_ctx_set(ctx, "standings", ev->standings);
	ret = template_render(set, "site/event.html", ctx, out, error_r);
out:
	template_ctx_free(&ctx);
	return ret;
}

/* The clock's variables: clock, clock_white, clock_black (left), and
 * for a running clock turn_started and the flag turn_white or
 * turn_black. */
static void site_clock_ctx(const struct site_game *g,
			   struct template_ctx *ctx)
{
	if (g->clock == NULL)
		return;
	template_ctx_set(ctx, "clock", g->clock);
	site_set_duration(ctx, "clock_white", g->clock_white);
	site_set_duration(ctx, "clock_black", g->clock_black);
	if (g->clock_turn_started == 0 || g->ended)
		return;
	site_set_utc(ctx, "turn_started", g->clock_turn_started);
	template_ctx_set_bool(ctx, "turn_white", g->clock_side == 0);
	template_ctx_set_bool(ctx, "turn_black", g->clock_side != 0);
}

/* The boards' list: one item per board, 0 .. nplies, with the ply that
 * led to it and the plies to step to. */
static void site_boards_ctx(const struct site_game *g,
			    struct template_ctx *ctx)
{
	char name[64];

	template_ctx_list(ctx, "boards");
	template_ctx_set_int(ctx, "last_ply", (long)g->nplies);
	for (size_t k = 0; k <= g->nplies; k++) {
		struct template_ctx *it = template_ctx_add(ctx, "boards");

		template_ctx_set_int(it, "ply", (long)k);
		site_board_name(g->id, k, name, sizeof(name));
		template_ctx_set(it, "board", name);
		template_ctx_set_bool(it, "first", k == 0);
		template_ctx_set_bool(it, "last", k == g->nplies);
		if (k > 0) {
			const struct site_ply *p = &g->plies[k - 1];
			template_ctx_set_int(it, "prev", (long)k - 1);
			template_ctx_set(it, "move", p->move);
			template_ctx_set(it, "player", p->player);
			template_ctx_set_bool(it, "forced", p->player == NULL);
			site_set_utc(it, "at", p->at);
		}
		if (k < g->nplies)
			template_ctx_set_int(it, "next", (long)k + 1);
	}
}

int site_game_html(struct template_set *set, const struct site_game *g,
		   int64_t made, struct buf *out, const char **error_r)
{
	struct template_ctx *ctx = template_ctx_new();
	char name[64];
	int ret = -1;

	site_game_ctx(g, ctx);
	site_clock_ctx(g, ctx);
	/* The page's own times in words too; the lists' stay short. */
	if (site_page_ctx(set, ctx, made, error_r) < 0 ||
	    site_set_long(set, ctx, "created", g->created, error_r) < 0 ||
	    site_set_long(set, ctx, "updated", g->updated, error_r) < 0 ||
	    (g->ended &&
	     site_set_long(set, ctx, "ended", g->updated, error_r) < 0) ||
	    (!g->ended && g->clock != NULL && site_set_long(set, ctx,
		"turn_started", g->clock_turn_started, error_r) < 0))
		goto out;
	template_ctx_list(ctx, "moves");
	template_ctx_set_bool(ctx, "any_moves", g->nplies > 0);
	for (size_t i = 0; i < g->nplies; i++) {
		struct template_ctx *it = template_ctx_add(ctx, "moves");

		template_ctx_set_int(it, "ply", (long)i + 1);
		template_ctx_set(it, "move", g->plies[i].move);
		template_ctx_set(it, "player", g->plies[i].player);
		template_ctx_set_bool(it, "forced", g->plies[i].player == NULL);
		site_set_utc(it, "at", g->plies[i].at);
	}
	site_boards_ctx(g, ctx);
	template_ctx_list(ctx, "notes");
	template_ctx_set_bool(ctx, "notes_later", g->notes_later);
	template_ctx_set_bool(ctx, "notes_never", g->notes_never);
	for (size_t i = 0; i < g->nnotes && !g->notes_later &&
	     !g->notes_never; i++) {
		struct template_ctx *it = template_ctx_add(ctx, "notes");

		template_ctx_set_int(it, "after_ply", g->notes[i].ply);
		template_ctx_set(it, "from", g->notes[i].from);
		template_ctx_set(it, "note", g->notes[i].text);
		site_set_utc(it, "at", g->notes[i].at);
	}
	template_ctx_list(ctx, "clock_events");
	for (size_t i = 0; i < g->nclock_events; i++) {
		const struct site_clock_event *e = &g->clock_events[i];
		struct template_ctx *it = template_ctx_add(ctx, "clock_events");

		site_set_utc(it, "at", e->at);
		template_ctx_set(it, "kind", e->kind);
		template_ctx_set(it, "player", e->player);
		if (e->seconds != 0)
			site_set_duration(it, "seconds", e->seconds);
		template_ctx_set(it, "note", e->note);
	}
	site_archive_name(g->id, name, sizeof(name));
	template_ctx_set(ctx, "archive", name);
	template_ctx_set(ctx, "archive_dir", SITE_ARCHIVE_DIR);
	template_ctx_set_bool(ctx, "archived", g->archived);
	template_ctx_set(ctx, "club_key", g->club_key);
	ret = template_render(set, "site/game.html", ctx, out, error_r);
out:
	template_ctx_free(&ctx);
	return ret;
}

/* The game's end as its row says it, on the last position: the plies
 * show an elimination or a double pass; a resignation, an agreement or
 * a loss on time only the row knows. */
static void site_end(const struct site_game *g, struct core_position *pos)
{
	enum core_end_reason reason = CORE_END_NONE;
	enum core_error err;

	if (pos->result != CORE_ONGOING || g->result == NULL ||
	    g->end_reason == NULL)
		return;
	for (int r = CORE_END_RESIGNATION; r <= CORE_END_TIME; r++)
		if (strcmp(g->end_reason,
			   core_end_reason_name((enum core_end_reason)r)) == 0)
			reason = (enum core_end_reason)r;
	/* A row the rules would not end so is drawn as the plies left it. */
	if (reason != CORE_END_NONE)
		(void)core_end_game(pos, reason, strcmp(g->result, "1-0") == 0 ?
				    CORE_BLACK : CORE_WHITE, &err);
}

/* The position before the first ply and after each of g's plies into
 * pos[0 .. nplies], and the plies into rec.  -1 with *error_r. */
static int site_replay(const struct site_game *g, struct core_record *rec,
		       struct core_position *pos, const char **error_r)
{
	struct core_variant v;
	enum core_error err;

	/* From the rules' defaults: the stored text names every rule that
	 * differs (draw=, the one other option, is no rule of play). */
	core_variant_default(&v);
	if (core_variant_parse(&v, g->variant != NULL ? g->variant : "",
			       &err) < 0 ||
	    record_init(rec, &v, &err) < 0) {
		snprintf(site_error, sizeof(site_error),
			 "game %" PRId64 ": its variant \"%s\" does not read "
			 "(%s)", g->id, g->variant ? g->variant : "",
			 core_error_name(err));
		*error_r = site_error;
		return -1;
	}
	pos[0] = rec->pos;
	for (size_t i = 0; i < g->nplies; i++) {
		size_t before = rec->nplies;

		/* Forced passes came with the move before them. */
		if (i < rec->nplies)
			continue;
		if (record_play_text(rec, g->plies[i].move,
				     strlen(g->plies[i].move), NULL,
				     &err) < 0) {
			snprintf(site_error, sizeof(site_error),
				 "game %" PRId64 ": ply %zu (%s) does not "
				 "replay (%s)", g->id, i + 1,
				 g->plies[i].move, core_error_name(err));
			*error_r = site_error;
			return -1;
		}
		for (size_t j = before; j < rec->nplies && j < g->nplies; j++)
			pos[j + 1] = rec->pos;
	}
	if (rec->nplies != g->nplies) {
		snprintf(site_error, sizeof(site_error),
			 "game %" PRId64 ": %zu plies stored, %zu replayed",
			 g->id, g->nplies, rec->nplies);
		*error_r = site_error;
		return -1;
	}
	site_end(g, &pos[g->nplies]);
	return 0;
}

int site_game_boards(struct template_set *set, const struct site_game *g,
		     site_board_fn *put, void *arg, const char **error_r)
{
	struct render_picture pic = { .templates = set, .width = 0 };
	struct core_record rec;
	struct core_position *pos;
	struct buf svg = BUF_INIT;
	int ret = -1;

	memset(&rec, 0, sizeof(rec));
	pos = xzalloc((g->nplies + 1) * sizeof(*pos));
	if (site_replay(g, &rec, pos, error_r) < 0)
		goto out;
	for (size_t k = 0; k <= g->nplies; k++) {
		buf_reset(&svg);
		if (render_picture_svg(&pos[k], k > 0 ? &rec.plies[k - 1] :
				       NULL, &pic, &svg, error_r) < 0 ||
		    put(arg, k, &svg, error_r) < 0)
			goto out;
	}
	ret = 0;
out:
	buf_free(&svg);
	record_free(&rec);
	free(pos);
	return ret;
}
