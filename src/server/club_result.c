/* club_result.c -- the end of a competition's game: its ladder's result
 * (ladder.c moves the places) and, for a rated game, both players'
 * Glicko-2 ratings (rating.c), each applied once (store_game_club's
 * applied_at) by the timer, in the order the games ended.  The ratings
 * as players read them (`ratings`) and the operator's recomputation from
 * the rated games (`ashes ratings --recompute`), which must give the same
 * numbers, are here too.
 *
 * Not rated: a game of fewer than CLUB_RATED_PLIES plies, a walkover,
 * and a second loss on time in a row by the same player (so timeouts
 * cannot be farmed: the first counts, the second does not). */
#include "server/server_private.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Fewer plies than this and a game is not rated. */
#define CLUB_RATED_PLIES 4

/* A player's rating at `at`: the stored one, grown by the rating periods
 * they sat out, or a new player's. */
static int club_rating_at(struct handle *h, int64_t pid, int64_t at,
			  struct store_rating *row_r, struct rating *r_r)
{
	const struct rating_config *cfg = &h->srv->cfg.rating;
	const char *error;
	int found = store_rating_get(h->srv->store, pid, row_r, &error);

	if (found < 0)
		return server_store_fail(h, error);
	if (found == 0) {
		rating_new(cfg, r_r);
		return 0;
	}
	r_r->r = row_r->r;
	r_r->rd = row_r->rd;
	r_r->vol = row_r->vol;
	if (row_r->last_played != 0 && at > row_r->last_played &&
	    rating_age(cfg, r_r, rating_periods_between(cfg,
							row_r->last_played,
							at), NULL) < 0)
		return server_store_fail(h, "a stored rating out of range");
	return 0;
}

static int club_rating_store(struct handle *h, int64_t game_id,
			     struct store_rating *row, const struct rating *before,
			     const struct rating *after, int64_t at,
			     bool lost_on_time)
{
	const struct store_rating_change c = {
		.game_id = game_id, .player_id = row->player_id, .at = at,
		.r_before = before->r, .rd_before = before->rd,
		.vol_before = before->vol,
		.r_after = after->r, .rd_after = after->rd,
		.vol_after = after->vol,
	};
	const char *error;

	row->r = after->r;
	row->rd = after->rd;
	row->vol = after->vol;
	row->games++;
	row->last_played = at;
	row->last_lost_on_time = lost_on_time;
	if (store_rating_set(h->srv->store, row, &error) < 0 ||
	    store_rating_change_add(h->srv->store, &c, &error) < 0)
		return server_store_fail(h, error);
	return 0;
}

int club_rate_game(struct handle *h, const struct game *g, int64_t at,
		   bool *rated_r)
{
	const struct store_game *r = g->row;
	struct store_rating wrow, brow;
	struct rating w, b, w2, b2;
	bool on_time = r->end_reason != NULL &&
		       strcmp(r->end_reason, "time") == 0;
	double score_w;
	int64_t loser = 0;

	*rated_r = false;
	if (r->status != STORE_GAME_FINISHED || r->result == NULL ||
	    r->ply < CLUB_RATED_PLIES)
		return 0;
	if (strcmp(r->result, "1-0") == 0) {
		score_w = 1.0;
		loser = r->black_id;
	} else if (strcmp(r->result, "0-1") == 0) {
		score_w = 0.0;
		loser = r->white_id;
	} else {
		score_w = 0.5;
	}
	if (club_rating_at(h, r->white_id, at, &wrow, &w) < 0 ||
	    club_rating_at(h, r->black_id, at, &brow, &b) < 0)
		return -1;
	wrow.player_id = r->white_id;
	brow.player_id = r->black_id;
	/* A second loss on time in a row is not rated. */
	if (on_time && loser != 0 &&
	    (loser == r->white_id ? wrow : brow).last_lost_on_time)
		return 0;
	if (rating_update_pair(&h->srv->cfg.rating, &w, &b, score_w, &w2, &b2,
			       NULL) < 0)
		return server_store_fail(h, "a rating out of range");
	if (club_rating_store(h, r->id, &wrow, &w, &w2, at,
			      on_time && loser == r->white_id) < 0 ||
	    club_rating_store(h, r->id, &brow, &b, &b2, at,
			      on_time && loser == r->black_id) < 0)
		return -1;
	*rated_r = true;
	return 0;
}

/* The ladder result of game g (loaded with its row), if its challenge is
 * still open in the ladder. */
static int club_ladder_result(struct handle *h, const struct game *g,
			      const char *ladder)
{
	const struct store_game *r = g->row;
	struct ladder_standing *st = NULL;
	const struct ladder_challenge *ch;
	struct ladder_event ev;
	int ret = club_ladder_standing(h, ladder, &st);

	if (ret < 0)
		return -1;
	ch = ladder_open_challenge(st, r->id);
	if (ch == NULL)
		goto out; /* answered already (a walkover, a decline) */
	memset(&ev, 0, sizeof(ev));
	ev.kind = LADDER_EVENT_RESULT;
	ev.at = h->now;
	ev.game = r->id;
	ev.player = ch->challenger;
	ev.other = ch->defender;
	if (r->status == STORE_GAME_CANCELLED) {
		ev.result = LADDER_RESULT_CANCELLED;
	} else if (r->result == NULL || (strcmp(r->result, "1-0") != 0 &&
					 strcmp(r->result, "0-1") != 0)) {
		ev.result = LADDER_RESULT_DRAW;
	} else {
		int64_t winner = strcmp(r->result, "1-0") == 0 ? r->white_id :
								 r->black_id;
		ev.player = winner;
		ev.other = winner == ch->challenger ? ch->defender :
						      ch->challenger;
		ev.result = r->end_reason != NULL &&
			    strcmp(r->end_reason, "time") == 0 ?
			    LADDER_RESULT_TIME : LADDER_RESULT_NORMAL;
	}
	ret = club_ladder_record(h, ladder, st, &ev, "daemon", r->result);
out:
	ladder_standing_free(&st);
	return ret;
}

/* One ended game of a competition: its ladder result and ratings. */
static int club_result_one(struct handle *h, int64_t game_id,
			   size_t *rated_r)
{
	struct store_game_club gc;
	struct game g;
	const char *error;
	bool rated = false;
	int r, ret = 0;

	r = store_game_club_get(h->srv->store, game_id, &gc, &error);
	if (r <= 0)
		return r < 0 ? server_store_fail(h, error) : 0;
	r = game_load(h, game_id, &g, false);
	if (r <= 0) {
		store_game_club_clear(&gc);
		return r < 0 ? -1 : 0;
	}
	if (gc.ladder != NULL)
		ret = club_ladder_result(h, &g, gc.ladder);
	if (ret == 0 && gc.rated)
		ret = club_rate_game(h, &g, h->now, &rated);
	if (ret == 0 && store_game_club_applied(h->srv->store, game_id, h->now,
						&error) < 0)
		ret = server_store_fail(h, error);
	*rated_r += rated;
	game_free(&g);
	store_game_club_clear(&gc);
	return ret;
}

int club_apply_results(struct handle *h, size_t limit, size_t *applied_r,
		       size_t *rated_r)
{
	int64_t *ids = NULL;
	size_t n = 0;
	const char *error;
	int ret = 0;

	if (store_game_club_pending(h->srv->store, limit, &ids, &n,
				    &error) < 0)
		return server_store_fail(h, error);
	for (size_t i = 0; ret == 0 && i < n; i++) {
		ret = club_result_one(h, ids[i], rated_r);
		*applied_r += ret == 0;
	}
	free(ids);
	return ret;
}

/* ---- what players and operators read ------------------------------------ */

/* The ratings list for templates (ratings[place, name, rating, rd,
 * provisional, games, me], my_rating ...).  0 or -1. */
static int club_ratings_ctx(struct handle *h, int64_t reader,
			    struct template_ctx *ctx)
{
	struct store_rating *all = NULL;
	size_t n = 0;
	const char *error;
	int ret = 0;

	if (store_ratings(h->srv->store, &all, &n, &error) < 0)
		return server_store_fail(h, error);
	template_ctx_list(ctx, "ratings");
	template_ctx_set_bool(ctx, "any_ratings", n > 0);
	for (size_t i = 0; ret == 0 && i < n; i++) {
		struct template_ctx *it = template_ctx_add(ctx, "ratings");
		struct rating r = { all[i].r, all[i].rd, all[i].vol };
		struct rating_shown shown;
		char name[COMMAND_NAME_MAX + 1];

		rating_round(&r, &shown);
		template_ctx_set_int(it, "place", (long)i + 1);
		template_ctx_set_int(it, "rating", shown.r);
		template_ctx_set_int(it, "rd", shown.rd);
		template_ctx_set_bool(it, "provisional", shown.provisional);
		template_ctx_set_int(it, "games", all[i].games);
		ret = game_player_name(h, all[i].player_id, name);
		template_ctx_set(it, "name", name);
		if (all[i].player_id == reader) {
			template_ctx_set_bool(it, "me", true);
			template_ctx_set_int(ctx, "my_rating", shown.r);
			template_ctx_set_int(ctx, "my_rd", shown.rd);
			template_ctx_set_bool(ctx, "my_provisional",
					      shown.provisional);
			template_ctx_set_int(ctx, "my_place", (long)i + 1);
		}
	}
	free(all);
	return ret;
}

int club_ratings(struct handle *h, const struct command *c, struct game *g,
		 struct template_ctx *out)
{
	(void)c;
	(void)g;
	return club_ratings_ctx(h, h->me->id, out);
}

int server_ratings_show(struct server *server, struct buf *out,
			const char **error_r)
{
	struct template_ctx *ctx = template_ctx_new();
	struct handle h;
	int ret;

	server_handle_at(server, &h, 0);
	ret = club_ratings_ctx(&h, 0, ctx);
	if (ret == 0)
		ret = server_render(&h, "admin-ratings.txt", ctx, out);
	if (ret < 0) {
		snprintf(server->errbuf, sizeof(server->errbuf), "%s",
			 h.error != NULL ? h.error : "failure");
		*error_r = server->errbuf;
	}
	template_ctx_free(&ctx);
	return ret;
}

int server_ratings_recompute(struct server *server, size_t *games_r,
			     const char **error_r)
{
	struct handle h;
	int64_t *ids = NULL;
	size_t n = 0;
	const char *error;
	int ret = 0;

	*games_r = 0;
	server_handle_at(server, &h, 0);
	if (store_begin(server->store, &error) < 0) {
		*error_r = error;
		return -1;
	}
	/* The rated games before the ratings go: their order is the
	 * applied_at the store keeps, which no recomputation changes. */
	if (store_rated_games(server->store, &ids, &n, &error) < 0 ||
	    store_ratings_clear(server->store, &error) < 0)
		ret = server_store_fail(&h, error);
	for (size_t i = 0; ret == 0 && i < n; i++) {
		struct store_game_club gc;
		struct game g;
		bool rated;
		int r = store_game_club_get(server->store, ids[i], &gc,
					    &error);

		if (r <= 0) {
			ret = r < 0 ? server_store_fail(&h, error) : 0;
			continue;
		}
		h.now = gc.applied_at;
		r = game_load(&h, ids[i], &g, false);
		if (r > 0) {
			ret = club_rate_game(&h, &g, gc.applied_at, &rated);
			*games_r += rated;
			game_free(&g);
		} else if (r < 0) {
			ret = -1;
		}
		store_game_club_clear(&gc);
	}
	free(ids);
	template_ctx_free(&h.refusal);
	if (ret == 0 && store_commit(server->store, &error) < 0)
		ret = server_store_fail(&h, error);
	if (ret < 0) {
		snprintf(server->errbuf, sizeof(server->errbuf),
			 "ratings: %s", h.error != NULL ? h.error : "failure");
		store_rollback(server->store);
		*error_r = server->errbuf;
		return -1;
	}
	return 0;
}
