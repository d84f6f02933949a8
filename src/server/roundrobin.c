/* roundrobin.c -- the rounds of an event's round robin, from the
 * league's circle method; see roundrobin.h. */
#include <config.h> /* autoconf's: _GNU_SOURCE */

#include "server/roundrobin.h"

#include <stdlib.h>

#include "server/league.h"
#include "util/xalloc.h"

int roundrobin_rounds(size_t n, bool twice)
{
	size_t cycle = n % 2 == 0 ? n - 1 : n;

	if (n < 2 || n > TOURNAMENT_MAX_PLAYERS)
		return 0;
	return (int)(twice ? 2 * cycle : cycle);
}

size_t roundrobin_round(size_t n, bool twice, int round,
			struct tournament_pair *pairs_r, ptrdiff_t *bye_r)
{
	int rounds = roundrobin_rounds(n, twice), cycle;
	struct league_pairing *all;
	bool *playing, swap;
	size_t ngames, i, np = 0;

	*bye_r = -1;
	if (rounds == 0 || round < 1 || round > rounds)
		return 0;
	cycle = twice ? rounds / 2 : rounds;
	swap = round > cycle;
	if (swap)
		round -= cycle;
	all = xzalloc((league_game_count(n) + 1) * sizeof(*all));
	playing = xzalloc(n + 1);
	ngames = league_pairings(n, all);
	for (i = 0; i < ngames; i++) {
		if (all[i].round != round)
			continue;
		pairs_r[np].white = swap ? all[i].black : all[i].white;
		pairs_r[np].black = swap ? all[i].white : all[i].black;
		playing[all[i].white] = playing[all[i].black] = true;
		np++;
	}
	for (i = 0; i < n && n % 2 == 1; i++)
		if (!playing[i])
			*bye_r = (ptrdiff_t)i;
	free(all);
	free(playing);
	return np;
}
