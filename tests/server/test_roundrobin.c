/* test_roundrobin.c -- an event's round robin (server/roundrobin.h):
 * for every field of 2-40, single and double, every pair meets exactly
 * once (twice, the colours swapped, the second in the second cycle), a
 * player plays at most once a round and an odd field's players each sit
 * out once a cycle, and colours are balanced: whites and blacks differ
 * by at most one (by none for an odd field or a double round robin). */
#include <check.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "server/roundrobin.h"
#include "../check_run.h"

#define MAXN 40

static void check_field(size_t n, bool twice)
{
	int rounds = roundrobin_rounds(n, twice), cycle, r;
	int met[MAXN][MAXN] = { { 0 } }, first[MAXN][MAXN] = { { 0 } };
	int whites[MAXN] = { 0 }, blacks[MAXN] = { 0 }, sat[MAXN] = { 0 };
	struct tournament_pair p[MAXN / 2];
	size_t np, i, a, b;
	ptrdiff_t bye;
	bool in_round[MAXN];

	cycle = (int)(n % 2 == 0 ? n - 1 : n);
	ck_assert_int_eq(rounds, twice ? 2 * cycle : cycle);
	for (r = 1; r <= rounds; r++) {
		np = roundrobin_round(n, twice, r, p, &bye);
		ck_assert_uint_eq(np, n / 2);
		memset(in_round, 0, sizeof(in_round));
		for (i = 0; i < np; i++) {
			a = p[i].white;
			b = p[i].black;
			ck_assert(a < n && b < n && a != b);
			ck_assert(!in_round[a] && !in_round[b]);
			in_round[a] = in_round[b] = true;
			whites[a]++;
			blacks[b]++;
			met[a][b]++;
			if (met[a][b] + met[b][a] == 1) {
				first[a][b] = r;
			} else { /* the return game: swapped, a cycle later */
				ck_assert(twice);
				ck_assert_int_eq(met[b][a], 1);
				ck_assert_int_eq(first[b][a] + cycle, r);
			}
		}
		if (n % 2 == 1) {
			ck_assert(bye >= 0 && (size_t)bye < n && !in_round[bye]);
			sat[bye]++;
		} else {
			ck_assert_int_eq(bye, -1);
		}
	}
	for (a = 0; a < n; a++) {
		for (b = a + 1; b < n; b++)
			ck_assert_int_eq(met[a][b] + met[b][a], twice ? 2 : 1);
		ck_assert_int_eq(sat[a], n % 2 == 1 ? (twice ? 2 : 1) : 0);
		if (twice || n % 2 == 1)
			ck_assert_int_eq(whites[a], blacks[a]);
		else
			ck_assert_int_le(abs(whites[a] - blacks[a]), 1);
	}
}

START_TEST(test_every_field)
{
	size_t n;

	for (n = 2; n <= MAXN; n++) {
		check_field(n, false);
		check_field(n, true);
	}
}
END_TEST

START_TEST(test_out_of_range)
{
	struct tournament_pair p[2];
	ptrdiff_t bye = 5;

	ck_assert_int_eq(roundrobin_rounds(1, false), 0);
	ck_assert_int_eq(roundrobin_rounds(TOURNAMENT_MAX_PLAYERS + 1, true),
			 0);
	ck_assert_uint_eq(roundrobin_round(4, false, 0, p, &bye), 0);
	ck_assert_int_eq(bye, -1);
	ck_assert_uint_eq(roundrobin_round(4, false, 4, p, &bye), 0);
	ck_assert_uint_eq(roundrobin_round(4, true, 6, p, &bye), 2);
	ck_assert_uint_eq(roundrobin_round(4, true, 7, p, &bye), 0);
	/* three: one game a round, the third player sitting out */
	ck_assert_uint_eq(roundrobin_round(3, false, 1, p, &bye), 1);
	ck_assert_uint_eq((size_t)bye + p[0].white + p[0].black, 0 + 1 + 2);
}
END_TEST

TEST_MAIN("roundrobin", "roundrobin", NULL, NULL, 0, test_every_field,
	  test_out_of_range)
