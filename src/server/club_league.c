/* club_league.c -- the leagues: a season begun when its start comes (the
 * players seeded -- the first season by rating, a later one by the last
 * season's standings with promotion and relegation -- split into groups,
 * every game of every group created with the league's settings, its clock
 * started and White told "your move"), at most once per season; and the
 * `league` command by mail: `league list`, `league NAME` (the season's
 * standings, the reader's group, place and games), and the operator's
 * `ashes league show NAME` (server_league_show).  The rules are
 * league.c's; the standings are computed from the games' results, never
 * stored.  A league's players are the configuration's: joining by mail
 * is refused (mail/refusal.txt league_join_config). */
#include "server/server_private.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- the players of a season ------------------------------------------ */

/* A player as seeded by rating: the rated first, best first; then the
 * unrated; ties by name. */
struct league_seed {
	int64_t id;
	bool rated;
	double r;
	char name[COMMAND_NAME_MAX + 1];
};

static int seed_compare(const void *pa, const void *pb)
{
	const struct league_seed *a = pa, *b = pb;
	int c;

	if (a->rated != b->rated)
		return a->rated ? -1 : 1;
	if (a->rated && a->r != b->r)
		return a->r > b->r ? -1 : 1;
	c = strcasecmp(a->name, b->name);
	return c != 0 ? c : a->id < b->id ? -1 : a->id > b->id;
}

/* The configuration's members who are registered and not in order[0 ..
 * *count_r) yet, seeded by rating, appended to order (*count_r grows).
 * One not registered yet is pending: in from the first season begun
 * after they register. */
static int league_newcomers(struct handle *h, const struct server_league *l,
			    int64_t *order, size_t *count_r)
{
	const struct server_club *club = &l->club;
	struct league_seed *seeds = calloc(club->nmembers + 1,
					   sizeof(*seeds));
	size_t n = 0;
	int ret = 0;

	if (seeds == NULL)
		return server_store_fail(h, "out of memory");
	for (size_t i = 0; ret == 0 && i < club->nmembers; i++) {
		struct store_player *p = NULL;
		struct store_rating rating;
		const char *error;
		bool have = false;
		int rated = 0, r = store_player_by_name(h->srv->store,
							club->members[i], &p,
							&error);

		if (r == 1)
			rated = store_rating_get(h->srv->store, p->id, &rating,
						 &error);
		if (r < 0 || rated < 0) {
			ret = server_store_fail(h, error);
		} else if (r == 1) {
			for (size_t k = 0; k < *count_r && !have; k++)
				have = order[k] == p->id;
			for (size_t k = 0; k < n && !have; k++)
				have = seeds[k].id == p->id;
			if (!have) {
				seeds[n].id = p->id;
				seeds[n].rated = rated == 1;
				seeds[n].r = rating.r;
				game_copy_name(seeds[n].name, p->name);
				n++;
			}
		}
		store_player_free(&p);
	}
	qsort(seeds, n, sizeof(*seeds), seed_compare);
	for (size_t i = 0; ret == 0 && i < n; i++)
		order[(*count_r)++] = seeds[i].id;
	free(seeds);
	return ret;
}

/* An open league's sign-ups by mail not in order yet, in the order they
 * signed up, after the configuration's members.  order has room for
 * them (league_order counted them). */
static int league_signed_up(struct handle *h, const struct server_league *l,
			    const int64_t *ids, size_t nids, int64_t *order,
			    size_t *count_r)
{
	(void)h;
	for (size_t i = 0; l->club.open && i < nids; i++) {
		bool have = false;
		for (size_t k = 0; k < *count_r && !have; k++)
			have = order[k] == ids[i];
		if (!have)
			order[(*count_r)++] = ids[i];
	}
	return 0;
}

/* The seed order of a new season: after season prev_id (0: none), its
 * players as promotion and relegation leave them, less those a closed
 * league no longer lists; then the configuration's members not in it
 * yet.  Into *order_r (caller frees), *count_r. */
static int league_order(struct handle *h, const struct server_league *l,
			int64_t prev_id, int64_t **order_r, size_t *count_r)
{
	struct league_view v;
	struct league_fault fault;
	int64_t *next = NULL;
	size_t n = 0;
	int ret = 0;

	int64_t *signed_up = NULL;
	size_t nsigned = 0;
	const char *error;

	memset(&v, 0, sizeof(v));
	*count_r = 0;
	if (prev_id != 0)
		ret = league_view_load(h, prev_id, &v);
	if (ret == 0 && l->club.open &&
	    store_league_signups(h->srv->store, l->club.name, &signed_up,
				 &nsigned, &error) < 0)
		ret = server_store_fail(h, error);
	*order_r = calloc(v.nmembers + l->club.nmembers + nsigned + 1,
			  sizeof(**order_r));
	next = calloc(v.nmembers + 1, sizeof(*next));
	if (ret == 0 && (*order_r == NULL || next == NULL))
		ret = server_store_fail(h, "out of memory");
	if (ret == 0 && v.nmembers > 0 &&
	    league_next_season(v.players, v.nmembers, v.groups, v.ngroups,
			       v.standing, l->rules.promote,
			       l->rules.relegate, next, &fault) < 0) {
		snprintf(h->srv->errbuf, sizeof(h->srv->errbuf),
			 "league %s: no next season: %s", l->club.name,
			 league_error_name(fault.error));
		ret = server_store_fail(h, h->srv->errbuf);
	}
	for (size_t i = 0; ret == 0 && i < v.nmembers; i++) {
		char name[COMMAND_NAME_MAX + 1];
		bool stays;

		ret = game_player_name(h, next[i], name);
		/* The players are the ones the league lists, and in an open
		 * league those signed up by mail (not those who left). */
		stays = club_listed(&l->club, name);
		for (size_t k = 0; !stays && k < nsigned; k++)
			stays = signed_up[k] == next[i];
		if (ret == 0 && stays)
			(*order_r)[n++] = next[i];
	}
	*count_r = n;
	if (ret == 0)
		ret = league_newcomers(h, l, *order_r, count_r);
	if (ret == 0)
		ret = league_signed_up(h, l, signed_up, nsigned, *order_r,
				       count_r);
	free(signed_up);
	free(next);
	league_view_free(&v);
	return ret;
}

/* ---- a season begun ---------------------------------------------------- */

/* Group group_no of season (season_id, number): its members (players in
 * seed order, count) and every game of its round robin. */
static int league_group_begin(struct handle *h, const struct server_league *l,
			      int64_t season_id, int number, int group_no,
			      const int64_t *players, size_t count)
{
	struct league_pairing *pairings;
	size_t np;
	int ret = 0;

	for (size_t i = 0; ret == 0 && i < count; i++) {
		struct store_league_member m;
		const char *error;

		m.season_id = season_id;
		m.group_no = group_no;
		m.division = group_no;
		m.seed = (int)i + 1;
		m.player_id = players[i];
		if (store_league_member_add(h->srv->store, &m, &error) < 0)
			ret = server_store_fail(h, error);
	}
	pairings = calloc(league_game_count(count) + 1, sizeof(*pairings));
	if (pairings == NULL)
		return server_store_fail(h, "out of memory");
	np = ret == 0 ? league_pairings(count, pairings) : 0;
	for (size_t i = 0; ret == 0 && i < np; i++) {
		int64_t id;

		ret = club_game_create(h, &l->club,
				       players[pairings[i].white],
				       players[pairings[i].black], true, NULL,
				       season_id, group_no, &id);
		if (ret == 0)
			ret = club_game_begin(h, id, "league", l->club.name,
					      "season", number, "group",
					      group_no);
	}
	free(pairings);
	return ret;
}

/* Begin season `number` of league l unless it exists: its groups and
 * games.  Fewer than two players: no season yet (the next run tries
 * again). */
static int league_begin(struct handle *h, const struct server_league *l,
			int number, size_t *seasons_r)
{
	struct store_league_season *seasons = NULL;
	struct league_group *groups = NULL;
	struct league_fault fault;
	int64_t *order = NULL, prev = 0, id;
	size_t nseasons = 0, count = 0, ngroups = 0;
	const char *error;
	int ret = 0, r;

	if (store_league_seasons(h->srv->store, l->club.name, &seasons,
				 &nseasons, &error) < 0)
		return server_store_fail(h, error);
	for (size_t i = 0; i < nseasons; i++) {
		if (seasons[i].number == number)
			goto out;
		/* The latest before it: a season the daemon was away for
		 * was never begun. */
		if (seasons[i].number < number)
			prev = seasons[i].id;
	}
	ret = league_order(h, l, prev, &order, &count);
	if (ret < 0 || count < 2)
		goto out;
	groups = calloc(count / 2 + 1, sizeof(*groups));
	if (groups == NULL) {
		ret = server_store_fail(h, "out of memory");
		goto out;
	}
	if (league_groups(count, l->rules.group_size, groups, count / 2 + 1,
			  &ngroups, &fault) < 0) {
		snprintf(h->srv->errbuf, sizeof(h->srv->errbuf),
			 "league %s: no groups: %s", l->club.name,
			 league_error_name(fault.error));
		ret = server_store_fail(h, h->srv->errbuf);
		goto out;
	}
	r = store_league_season_add(h->srv->store, l->club.name, number,
				    league_season_start(&l->rules, number),
				    league_season_start(&l->rules, number + 1),
				    h->now, &id, &error);
	if (r != 0) {
		ret = r < 0 ? server_store_fail(h, error) : 0;
		goto out;
	}
	for (size_t g = 0; ret == 0 && g < ngroups; g++)
		ret = league_group_begin(h, l, id, number, (int)g + 1,
					 order + groups[g].first,
					 groups[g].count);
	*seasons_r += ret == 0;
out:
	free(groups);
	free(order);
	store_rows_free(&seasons, nseasons, sizeof(*seasons),
			store_league_season_clear);
	return ret;
}

int club_league_tick(struct handle *h, size_t *seasons_r)
{
	int ret = 0;

	for (size_t i = 0; ret == 0 && i < h->srv->cfg.nleagues; i++) {
		const struct server_league *l = &h->srv->cfg.leagues[i];
		int64_t number = league_season_of(&l->rules, h->now);

		if (number > 0 && number <= INT32_MAX)
			ret = league_begin(h, l, (int)number, seasons_r);
	}
	return ret;
}

/* ---- the `league` command ------------------------------------------------ */

/* The league a command names, or REFUSED (no_such_league). */
static int league_named(struct handle *h, const char *name,
			const struct server_league **l_r)
{
	*l_r = club_league_find(h->srv, name);
	if (*l_r != NULL)
		return 0;
	server_refuse(h, "no_such_league");
	template_ctx_set(h->refusal, "league", name);
	return REFUSED;
}

/* The latest season of a league: 1 and *season_r (clear it with
 * store_league_season_clear), 0 if none began yet. */
static int league_latest(struct handle *h, const char *league,
			 struct store_league_season *season_r)
{
	struct store_league_season *seasons = NULL;
	size_t n = 0;
	const char *error;

	memset(season_r, 0, sizeof(*season_r));
	if (store_league_seasons(h->srv->store, league, &seasons, &n,
				 &error) < 0)
		return server_store_fail(h, error);
	if (n > 0) {
		*season_r = seasons[n - 1];
		memset(&seasons[n - 1], 0, sizeof(seasons[n - 1]));
	}
	store_rows_free(&seasons, n, sizeof(*seasons),
			store_league_season_clear);
	return n > 0;
}

/* The state of league game r for templates: in play (ply, who is to
 * move, whether it is reader's turn), won (winner, by_time,
 * by_resignation), drawn, cancelled. */
static int league_game_ctx(struct handle *h, const struct store_game *r,
			   int64_t reader, struct template_ctx *it)
{
	struct game g;
	int ret = game_load(h, r->id, &g, true);

	if (ret <= 0)
		return ret < 0 ? -1 : server_store_fail(h, "game vanished");
	template_ctx_setf(it, "game", "%" PRId64, r->id);
	template_ctx_set(it, "white", g.white);
	template_ctx_set(it, "black", g.black);
	if (r->status == STORE_GAME_ACTIVE && g.rec_ok) {
		int64_t pid = game_player_of(&g, g.rec.pos.to_move);
		template_ctx_set_bool(it, "in_play", true);
		template_ctx_set_int(it, "next_ply", g.rec.pos.ply + 1);
		template_ctx_set(it, "to_move", pid == r->white_id ? g.white :
				 g.black);
		template_ctx_set_bool(it, "my_turn", reader != 0 &&
				      pid == reader);
	} else if (r->status == STORE_GAME_CANCELLED) {
		template_ctx_set_bool(it, "cancelled", true);
	} else {
		enum league_outcome o = league_view_outcome(r);
		template_ctx_set_bool(it, "drawn", o == LEAGUE_DRAW);
		if (o == LEAGUE_WHITE_WINS || o == LEAGUE_BLACK_WINS)
			template_ctx_set(it, "winner", o == LEAGUE_WHITE_WINS ?
					 g.white : g.black);
		template_ctx_set_bool(it, "by_time", r->end_reason != NULL &&
				      strcmp(r->end_reason, "time") == 0);
		template_ctx_set_bool(it, "by_resignation",
				      r->end_reason != NULL &&
				      strcmp(r->end_reason, "resignation") ==
				      0);
	}
	game_free(&g);
	return 0;
}

/* Group g of v for templates: its rows (reader's marked), the places
 * that go up or down. */
static int league_group_ctx(struct handle *h, const struct server_league *l,
			    const struct league_view *v, size_t g,
			    int64_t reader, struct template_ctx *it)
{
	const struct league_group *grp = &v->groups[g];
	bool played = false;
	int ret = 0;

	/* Before a game ends the seeds alone would say who goes up. */
	for (size_t k = 0; k < grp->count; k++)
		played = played || v->standing[grp->first + k].played > 0;
	template_ctx_set_int(it, "group", league_view_group_no(v, g));
	template_ctx_set_int(it, "size", (long)grp->count);
	for (size_t k = 0; ret == 0 && k < grp->count; k++) {
		const struct league_row *row = &v->standing[grp->first + k];
		struct template_ctx *line = template_ctx_add(it, "rows");
		int64_t pid = v->players[grp->first + row->player];
		char name[COMMAND_NAME_MAX + 1];

		ret = game_player_name(h, pid, name);
		template_ctx_set_int(line, "place", row->rank);
		template_ctx_set(line, "name", name);
		template_ctx_set_int(line, "points", row->points);
		template_ctx_set_bool(line, "points_one", row->points == 1);
		template_ctx_set_int(line, "played", row->played);
		template_ctx_set_int(line, "wins", row->wins);
		template_ctx_set_int(line, "draws", row->draws);
		template_ctx_set_int(line, "losses", row->losses);
		template_ctx_setf(line, "sb", "%" PRId64,
				  row->sonneborn_berger);
		template_ctx_set_bool(line, "me", reader != 0 &&
				      pid == reader);
		/* Where the season's end takes them, as things stand. */
		template_ctx_set_bool(line, "up", played && g > 0 &&
				      row->rank <= l->rules.promote);
		template_ctx_set_bool(line, "down", played &&
				      g + 1 < v->ngroups &&
				      row->rank > (int)grp->count -
						  l->rules.relegate);
	}
	return ret;
}

/* The latest season of l for templates (mail/league.txt): its
 * standings, and for reader (0: nobody, the operator) their place and
 * the games of their group. */
static int league_show(struct handle *h, const struct server_league *l,
		       int64_t reader, struct template_ctx *out)
{
	struct store_league_season season;
	struct league_view v;
	const struct league_row *mine = NULL;
	size_t my_group = 0;
	int ret, r;

	template_ctx_set(out, "league", l->club.name);
	template_ctx_set_bool(out, "reader", reader != 0);
	template_ctx_set_int(out, "group_size", l->rules.group_size);
	template_ctx_set_int(out, "promote", l->rules.promote);
	template_ctx_set_int(out, "relegate", l->rules.relegate);
	template_ctx_set_bool(out, "rated", l->club.rated);
	template_ctx_set_int(out, "season_days",
			     (long)(l->rules.season_length / LEAGUE_DAY));
	r = league_latest(h, l->club.name, &season);
	if (r <= 0) {
		/* Before the first start, or waiting for two players. */
		int64_t now = league_season_of(&l->rules, h->now);
		template_ctx_set_bool(out, "no_season", true);
		template_ctx_set_bool(out, "waiting", now > 0);
		server_set_utc(out, "first_start",
			       league_season_start(&l->rules, 1), false);
		return r;
	}
	template_ctx_set_int(out, "season", season.number);
	server_set_utc(out, "season_starts", season.starts, false);
	server_set_utc(out, "season_ends", season.ends, false);
	template_ctx_set_bool(out, "season_over", h->now >= season.ends);
	ret = league_view_load(h, season.id, &v);
	template_ctx_list(out, "groups");
	template_ctx_set_int(out, "groups_count", (long)v.ngroups);
	for (size_t g = 0; ret == 0 && g < v.ngroups; g++)
		ret = league_group_ctx(h, l, &v, g, reader,
				       template_ctx_add(out, "groups"));
	if (ret == 0 && league_view_find(&v, reader, &my_group, &mine) == 1) {
		template_ctx_set_int(out, "my_group", league_view_group_no(&v,
								    my_group));
		template_ctx_set_int(out, "my_place", mine->rank);
		template_ctx_set_int(out, "my_points", mine->points);
		template_ctx_set_bool(out, "my_points_one", mine->points == 1);
		template_ctx_list(out, "my_games");
		for (size_t i = 0; ret == 0 && i < v.ngames; i++)
			if (v.links[i].group_no == league_view_group_no(&v, my_group))
				ret = league_game_ctx(h, v.games[i], reader,
					template_ctx_add(out, "my_games"));
	}
	league_view_free(&v);
	store_league_season_clear(&season);
	return ret;
}

/* league list: every league of the configuration, its season and the
 * reader's place in it. */
static int league_list(struct handle *h, struct template_ctx *out)
{
	int ret = 0;

	template_ctx_list(out, "leagues");
	template_ctx_set_bool(out, "any_leagues", h->srv->cfg.nleagues > 0);
	for (size_t i = 0; ret == 0 && i < h->srv->cfg.nleagues; i++) {
		const struct server_league *l = &h->srv->cfg.leagues[i];
		struct template_ctx *it = template_ctx_add(out, "leagues");
		struct store_league_season season;
		const struct league_row *mine = NULL;
		struct league_view v;
		size_t g;
		int r;

		template_ctx_set(it, "name", l->club.name);
		template_ctx_set_int(it, "members", (long)l->club.nmembers);
		r = league_latest(h, l->club.name, &season);
		if (r < 0) {
			ret = -1;
			break;
		}
		if (r == 0) {
			server_set_utc(it, "first_start",
				       league_season_start(&l->rules, 1),
				       false);
			continue;
		}
		template_ctx_set_int(it, "season", season.number);
		ret = league_view_load(h, season.id, &v);
		template_ctx_set_int(it, "players", (long)v.nmembers);
		if (ret == 0 && h->me != NULL &&
		    league_view_find(&v, h->me->id, &g, &mine) == 1) {
			template_ctx_set_int(it, "my_group",
					     league_view_group_no(&v, g));
			template_ctx_set_int(it, "my_place", mine->rank);
		}
		league_view_free(&v);
		store_league_season_clear(&season);
	}
	return ret;
}

/* league join NAME, league leave NAME: an open league's players sign up
 * by mail, for the next season; a closed one's are the configuration's
 * (league_join_config), as are the members an open one lists. */
static int league_signup(struct handle *h, const struct server_league *l,
			 bool join, struct template_ctx *out)
{
	const char *code = NULL, *error;
	bool joined = false;
	int r;

	r = store_league_signup_get(h->srv->store, l->club.name, h->me->id,
				    &joined, &error);
	if (r < 0)
		return server_store_fail(h, error);
	if (!l->club.open)
		code = "league_join_config";
	else if (club_listed(&l->club, h->me->name))
		code = "league_listed";
	else if (join && joined)
		code = "league_already_joined";
	else if (!join && !joined)
		code = "league_not_joined";
	if (code != NULL) {
		server_refuse(h, code);
		template_ctx_set(h->refusal, "league", l->club.name);
		template_ctx_set_bool(h->refusal, "join", join);
		return REFUSED;
	}
	if (store_league_signup_set(h->srv->store, l->club.name, h->me->id,
				    join, h->now, &error) < 0)
		return server_store_fail(h, error);
	template_ctx_set(out, "league", l->club.name);
	template_ctx_set_bool(out, join ? "signed_up" : "signed_off", true);
	server_set_utc(out, "next_season",
		       league_season_start(&l->rules,
					   league_season_of(&l->rules,
							    h->now) + 1),
		       false);
	return 0;
}

int club_league_run(struct handle *h, const struct command *c, struct game *g,
		    struct template_ctx *out)
{
	const struct server_league *l = NULL;
	int ret;

	(void)g;
	if (c->club_action == COMMAND_CLUB_LIST) {
		template_ctx_set_bool(out, "list", true);
		return league_list(h, out);
	}
	if ((ret = league_named(h, c->club, &l)) != 0)
		return ret;
	if (c->club_action == COMMAND_CLUB_JOIN ||
	    c->club_action == COMMAND_CLUB_LEAVE)
		return league_signup(h, l, c->club_action == COMMAND_CLUB_JOIN,
				     out);
	template_ctx_set_bool(out, "show", true);
	return league_show(h, l, h->me != NULL ? h->me->id : 0, out);
}

/* ---- the operator's view ------------------------------------------------ */

int server_league_show(struct server *server, const char *league,
		       int64_t now, struct buf *out, const char **error_r)
{
	const struct server_league *l = club_league_find(server, league);
	struct store_league_season *seasons = NULL;
	struct template_ctx *ctx;
	struct handle h;
	size_t n = 0;
	const char *error;
	int ret = 0;

	if (l == NULL) {
		snprintf(server->errbuf, sizeof(server->errbuf),
			 "no league \"%s\" in the configuration", league);
		*error_r = server->errbuf;
		return -1;
	}
	server_handle_at(server, &h, now);
	ctx = template_ctx_new();
	if (store_league_seasons(server->store, l->club.name, &seasons, &n,
				 &error) < 0)
		ret = server_store_fail(&h, error);
	template_ctx_list(ctx, "seasons");
	for (size_t i = 0; ret == 0 && i < n; i++) {
		struct template_ctx *it = template_ctx_add(ctx, "seasons");
		struct store_league_member *m = NULL;
		size_t nm = 0;

		template_ctx_set_int(it, "number", seasons[i].number);
		server_set_utc(it, "starts", seasons[i].starts, false);
		server_set_utc(it, "ends", seasons[i].ends, false);
		server_set_utc(it, "created", seasons[i].created, false);
		if (store_league_members(server->store, seasons[i].id, &m, &nm,
					 &error) < 0)
			ret = server_store_fail(&h, error);
		template_ctx_set_int(it, "players", (long)nm);
		template_ctx_set_int(it, "groups", nm > 0 ?
				     m[nm - 1].group_no : 0);
		free(m);
	}
	if (ret == 0)
		ret = league_show(&h, l, 0, ctx);
	if (ret == 0)
		ret = server_render(&h, "admin-league.txt", ctx, out);
	template_ctx_free(&ctx);
	store_rows_free(&seasons, n, sizeof(*seasons),
			store_league_season_clear);
	if (ret < 0) {
		/* h.error may be server->errbuf itself. */
		char why[sizeof(server->errbuf) - 48];
		snprintf(why, sizeof(why), "%s", h.error != NULL ? h.error :
			 "failure");
		snprintf(server->errbuf, sizeof(server->errbuf),
			 "league %s: %s", l->club.name, why);
		*error_r = server->errbuf;
		return -1;
	}
	return 0;
}
