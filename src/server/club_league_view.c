/* club_league_view.c -- a league season as stored: its members by group
 * and seed, the games of each group with their results, and each group's
 * standings computed from them (league.c's rules).  The season's
 * beginning and the `league` command (club_league.c) read it. */
#include "server/server_private.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


void league_view_free(struct league_view *v)
{
	for (size_t i = 0; i < v->ngames; i++) {
		store_game_club_clear(&v->links[i]);
		if (v->games != NULL)
			store_game_free(&v->games[i]);
	}
	free(v->links);
	free(v->games);
	free(v->members);
	free(v->players);
	free(v->groups);
	free(v->standing);
	memset(v, 0, sizeof(*v));
}

/* How a game's row counts: only a finished game with a result counts
 * (a cancelled one, its first move never made, counts for nobody). */
enum league_outcome league_view_outcome(const struct store_game *r)
{
	if (r->status != STORE_GAME_FINISHED || r->result == NULL)
		return LEAGUE_UNPLAYED;
	if (strcmp(r->result, "1-0") == 0)
		return LEAGUE_WHITE_WINS;
	if (strcmp(r->result, "0-1") == 0)
		return LEAGUE_BLACK_WINS;
	if (strcmp(r->result, "1/2-1/2") == 0)
		return LEAGUE_DRAW;
	return LEAGUE_UNPLAYED;
}

/* Player pid's index in group g of v, or -1. */
static long league_view_index(const struct league_view *v, size_t g,
			      int64_t pid)
{
	for (size_t i = 0; i < v->groups[g].count; i++)
		if (v->players[v->groups[g].first + i] == pid)
			return (long)i;
	return -1;
}

/* The group number (1..) of group g of v. */
int league_view_group_no(const struct league_view *v, size_t g)
{
	return v->members[v->groups[g].first].group_no;
}

/* Group g's standings from its games' results.  0 or -1. */
static int league_view_standings(struct handle *h, struct league_view *v,
				 size_t g)
{
	struct league_game *lg = calloc(v->ngames + 1, sizeof(*lg));
	struct league_fault fault;
	size_t n = 0;
	int ret = 0;

	if (lg == NULL)
		return server_store_fail(h, "out of memory");
	for (size_t i = 0; i < v->ngames; i++) {
		long w, b;

		if (v->links[i].group_no != league_view_group_no(v, g))
			continue;
		w = league_view_index(v, g, v->games[i]->white_id);
		b = league_view_index(v, g, v->games[i]->black_id);
		if (w < 0 || b < 0)
			continue; /* not of this group's players: no result */
		lg[n].white = (size_t)w;
		lg[n].black = (size_t)b;
		lg[n].outcome = league_view_outcome(v->games[i]);
		n++;
	}
	if (league_standings(v->groups[g].count, lg, n,
			     v->standing + v->groups[g].first, &fault) < 0) {
		snprintf(h->srv->errbuf, sizeof(h->srv->errbuf),
			 "league season %" PRId64 " group %d: no standings: "
			 "%s", v->members[0].season_id, league_view_group_no(v, g),
			 league_error_name(fault.error));
		ret = server_store_fail(h, h->srv->errbuf);
	}
	free(lg);
	return ret;
}

/* Season season_id as stored, with every group's standings.  0 or -1. */
int league_view_load(struct handle *h, int64_t season_id,
		     struct league_view *v)
{
	const char *error;
	int ret = 0;

	memset(v, 0, sizeof(*v));
	if (store_league_members(h->srv->store, season_id, &v->members,
				 &v->nmembers, &error) < 0 ||
	    store_league_games(h->srv->store, season_id, &v->links,
			       &v->ngames, &error) < 0)
		return server_store_fail(h, error);
	v->players = calloc(v->nmembers + 1, sizeof(*v->players));
	v->groups = calloc(v->nmembers + 1, sizeof(*v->groups));
	v->standing = calloc(v->nmembers + 1, sizeof(*v->standing));
	v->games = calloc(v->ngames + 1, sizeof(*v->games));
	if (v->players == NULL || v->groups == NULL || v->standing == NULL ||
	    v->games == NULL)
		return server_store_fail(h, "out of memory");
	for (size_t i = 0; i < v->nmembers; i++) {
		v->players[i] = v->members[i].player_id;
		if (i == 0 || v->members[i].group_no !=
			      v->members[i - 1].group_no)
			v->groups[v->ngroups++].first = i;
		v->groups[v->ngroups - 1].count++;
	}
	for (size_t i = 0; ret == 0 && i < v->ngames; i++) {
		int r = store_game_load(h->srv->store, v->links[i].game_id,
					&v->games[i], &error);
		if (r <= 0)
			ret = server_store_fail(h, r < 0 ? error :
						"a league game vanished");
	}
	for (size_t g = 0; ret == 0 && g < v->ngroups; g++)
		ret = league_view_standings(h, v, g);
	return ret;
}

/* The group and place of pid in v: 1 and *g_r, *row_r; 0 if not in. */
int league_view_find(const struct league_view *v, int64_t pid, size_t *g_r,
		     const struct league_row **row_r)
{
	for (size_t g = 0; pid != 0 && g < v->ngroups; g++) {
		long i = league_view_index(v, g, pid);
		if (i < 0)
			continue;
		for (size_t k = 0; k < v->groups[g].count; k++) {
			const struct league_row *row =
				&v->standing[v->groups[g].first + k];
			if (row->player == (size_t)i) {
				*g_r = g;
				*row_r = row;
				return 1;
			}
		}
	}
	return 0;
}

