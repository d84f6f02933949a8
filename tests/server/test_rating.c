/* test_rating.c -- Glicko-2 ratings (server/rating.h): Glickman's worked
 * example to the paper's printed precision, periods without games, the
 * rd_max cap, a game's two updates as mirror images, the configuration's
 * and the ratings' refusals, extreme inputs (finite, bounded iterations),
 * whole rating periods between two times, the numbers shown, and the
 * same bits from the same inputs. */
#include <check.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "server/rating.h"
#include "../check_run.h"

#define D ((int64_t)86400)
#define N(a) (sizeof(a) / sizeof((a)[0]))

static struct rating rating(double r, double rd, double vol)
{
	struct rating x;

	x.r = r;
	x.rd = rd;
	x.vol = vol;
	return x;
}

static struct rating_game game(double r, double rd, double score)
{
	struct rating_game g;

	g.opponent = rating(r, rd, 0.06);
	g.score = score;
	return g;
}

static struct rating_config config(void)
{
	struct rating_config c;

	rating_config_default(&c);
	return c;
}

static bool same(const struct rating *a, const struct rating *b)
{
	return memcmp(a, b, sizeof(*a)) == 0;
}

/* --- Glickman's example --- */

/* Whether *r is shown provisional ("1464?"), as players read it. */
static bool provisional(const struct rating *r)
{
	struct rating_shown s;

	rating_round(r, &s);
	return s.provisional;
}

START_TEST(test_glickman_example)
{
	/* "Example of the Glicko-2 system", steps 1-8: tau 0.5. */
	struct rating_config c = config();
	struct rating p = rating(1500, 200, 0.06), out, again;
	struct rating_game games[] = {
		game(1400, 30, 1), game(1550, 100, 0), game(1700, 300, 0),
	};
	struct rating_game swapped[] = {
		game(1400, 30, 0), game(1550, 100, 1), game(1700, 300, 1),
	};
	struct rating_game reordered[] = { games[2], games[0], games[1] };
	int iterations;
	double vol;

	ck_assert(c.tau == 0.5);
	ck_assert_int_eq(rating_update(&c, &p, games, 3, &out, NULL), 0);
	ck_assert_msg(fabs(out.r - 1464.06) < 0.01, "r %.6f", out.r);
	ck_assert_msg(fabs(out.rd - 151.52) < 0.01, "rd %.6f", out.rd);
	ck_assert_msg(fabs(out.vol - 0.05999) < 0.00001, "vol %.8f",
		      out.vol);
	ck_assert(provisional(&out)); /* 151.52 > 110 */

	/* Step 5 from the paper's own intermediate numbers: phi 1.1513,
	 * v 1.7785, delta -0.4834. */
	vol = rating_volatility(1.1513, 1.7785, -0.4834, 0.06, 0.5,
				&iterations);
	ck_assert_msg(fabs(vol - 0.05999) < 0.00001, "vol %.8f", vol);
	ck_assert_int_gt(iterations, 0);
	ck_assert_int_lt(iterations, RATING_MAX_ITERATIONS);

	/* The same games in another order: the same period. */
	ck_assert_int_eq(rating_update(&c, &p, reordered, 3, &again, NULL),
			 0);
	ck_assert(fabs(again.r - out.r) < 1e-9);
	ck_assert(fabs(again.rd - out.rd) < 1e-9);
	ck_assert(fabs(again.vol - out.vol) < 1e-12);

	/* Wins and losses exchanged: a different result, above 1500. */
	ck_assert_int_eq(rating_update(&c, &p, swapped, 3, &again, NULL), 0);
	ck_assert_msg(again.r > 1500 + 50, "r %.6f", again.r);
	ck_assert(fabs(again.rd - out.rd) < 0.5); /* RD: the same games */

	/* In place: out_r may be the player. */
	again = p;
	ck_assert_int_eq(rating_update(&c, &again, games, 3, &again, NULL),
			 0);
	ck_assert(same(&again, &out));
}
END_TEST

/* --- Periods without games --- */

START_TEST(test_period_without_games)
{
	struct rating_config c = config();
	struct rating p = rating(1500, 200, 0.06), out, aged;

	/* Step 6: rd = sqrt(200^2 + (173.7178 * 0.06)^2); r, vol kept. */
	ck_assert_int_eq(rating_update(&c, &p, NULL, 0, &out, NULL), 0);
	ck_assert(out.r == 1500);
	ck_assert(out.vol == 0.06);
	ck_assert_msg(fabs(out.rd - 200.271417) < 0.000001, "rd %.8f",
		      out.rd);
	/* rating_age by one period is the same, bit for bit. */
	aged = p;
	ck_assert_int_eq(rating_age(&c, &aged, 1, NULL), 0);
	ck_assert(same(&aged, &out));
	/* Three periods: sqrt(200^2 + 3 * 10.423068^2). */
	aged = p;
	ck_assert_int_eq(rating_age(&c, &aged, 3, NULL), 0);
	ck_assert_msg(fabs(aged.rd - 200.813150) < 0.000001, "rd %.8f",
		      aged.rd);
	ck_assert(aged.r == 1500 && aged.vol == 0.06);
	/* An established player away for 100 weeks is provisional again. */
	aged = rating(1720.5, 50, 0.06);
	ck_assert(!provisional(&aged));
	ck_assert_int_eq(rating_age(&c, &aged, 100, NULL), 0);
	ck_assert_msg(fabs(aged.rd - 115.602918) < 0.000001, "rd %.8f",
		      aged.rd);
	ck_assert(aged.r == 1720.5);
	ck_assert(provisional(&aged));
	/* No periods: nothing changes, even above rd_max. */
	aged = rating(1600, 400, 0.07);
	ck_assert_int_eq(rating_age(&c, &aged, 0, NULL), 0);
	ck_assert(aged.r == 1600 && aged.rd == 400 && aged.vol == 0.07);
	/* A higher volatility grows RD faster. */
	aged = rating(1500, 200, 0.09);
	ck_assert_int_eq(rating_age(&c, &aged, 1, NULL), 0);
	ck_assert(aged.rd > out.rd + 0.3); /* 200.61 */
}
END_TEST

START_TEST(test_rd_max)
{
	struct rating_config c = config();
	struct rating p, out;
	struct rating_game far = game(11500, 350, 0);
	int i;

	/* A new player's RD stays at rd_max through an empty period. */
	rating_new(&c, &p);
	ck_assert_int_eq(rating_update(&c, &p, NULL, 0, &out, NULL), 0);
	ck_assert(out.rd == 350);
	ck_assert_int_eq(rating_age(&c, &p, INT64_MAX, NULL), 0);
	ck_assert(p.rd == 350);
	/* A game that says almost nothing (a 10000-point gap, lost as
	 * expected) does not lift it either: step 6 is capped first. */
	rating_new(&c, &p);
	ck_assert_int_eq(rating_update(&c, &p, &far, 1, &out, NULL), 0);
	ck_assert_msg(out.rd <= 350 && out.rd > 349.99, "rd %.8f", out.rd);
	/* A lower rd_max caps a rating stored before it was lowered. */
	c.rd_max = 200;
	c.rd_new = 200;
	p = rating(1500, 350, 0.06);
	ck_assert_int_eq(rating_age(&c, &p, 1, NULL), 0);
	ck_assert(p.rd == 200);
	/* Long runs of games and idle periods never pass it. */
	c = config();
	c.rd_max = 250;
	c.rd_new = 250;
	rating_new(&c, &p);
	for (i = 0; i < 300; i++) {
		struct rating_game g = game(1400 + (i % 7) * 50,
					    30 + (i % 5) * 80, (i % 3) / 2.0);

		if (i % 4 == 0)
			ck_assert_int_eq(rating_age(&c, &p, i, NULL), 0);
		else
			ck_assert_int_eq(rating_update(&c, &p, &g, 1, &p,
						       NULL), 0);
		ck_assert_msg(p.rd <= 250, "rd %.8f at %d", p.rd, i);
	}
}
END_TEST

/* --- A game between two players --- */

START_TEST(test_draw_between_equals)
{
	struct rating_config c = config();
	struct rating a = rating(1500, 200, 0.06), b = a, a2, b2;
	struct rating hi = rating(1843.25, 75, 0.05), lo;
	static const double others[] = { 1843.25, 1000.57, 2222.2, -42.5 };
	size_t i;

	ck_assert_int_eq(rating_update_pair(&c, &a, &b, 0.5, &a2, &b2, NULL),
			 0);
	ck_assert(a2.r == 1500 && b2.r == 1500);
	ck_assert(a2.rd < 200 - 10); /* a game was played: RD shrinks */
	ck_assert(same(&a2, &b2));
	/* Away from 1500 too: r is moved by the games, not rebuilt from
	 * mu (1000.57 does not survive (r - 1500) / 173.7178 and back). */
	for (i = 0; i < N(others); i++) {
		a = rating(others[i], 75, 0.05);
		b = a;
		ck_assert_int_eq(rating_update_pair(&c, &a, &b, 0.5, &a2, &b2,
						    NULL), 0);
		ck_assert_msg(a2.r == others[i] && b2.r == others[i],
			      "%.17g", a2.r);
		ck_assert(a2.rd < 75);
	}
	a = rating(1500, 200, 0.06);
	b = a;
	/* A win between equals moves both, in opposite directions. */
	ck_assert_int_eq(rating_update_pair(&c, &a, &b, 1, &a2, &b2, NULL),
			 0);
	ck_assert(a2.r > 1500 + 50 && b2.r < 1500 - 50);
	ck_assert(fabs((a2.r - 1500) + (b2.r - 1500)) < 1e-9);
	/* A draw between unequals pulls them together. */
	lo = rating(1400, 100, 0.06);
	ck_assert_int_eq(rating_update_pair(&c, &hi, &lo, 0.5, &a2, &b2,
					    NULL), 0);
	ck_assert(a2.r < hi.r && b2.r > lo.r);
}
END_TEST

START_TEST(test_pair_mirrored)
{
	struct rating_config c = config();
	struct rating a = rating(1612.4, 120, 0.058);
	struct rating b = rating(1450, 250, 0.071);
	struct rating a1, b1, a2, b2, single;
	struct rating_game g;
	double scores[] = { 1, 0.5, 0 };
	size_t i;

	for (i = 0; i < N(scores); i++) {
		/* a scores s against b <=> b scores 1 - s against a. */
		ck_assert_int_eq(rating_update_pair(&c, &a, &b, scores[i],
						    &a1, &b1, NULL), 0);
		ck_assert_int_eq(rating_update_pair(&c, &b, &a,
						    1 - scores[i], &b2, &a2,
						    NULL), 0);
		ck_assert(same(&a1, &a2) && same(&b1, &b2));
		/* Each is its own one-game period. */
		g.opponent = b;
		g.score = scores[i];
		ck_assert_int_eq(rating_update(&c, &a, &g, 1, &single, NULL),
				 0);
		ck_assert(same(&single, &a1));
		g.opponent = a;
		g.score = 1 - scores[i];
		ck_assert_int_eq(rating_update(&c, &b, &g, 1, &single, NULL),
				 0);
		ck_assert(same(&single, &b1));
		/* In place: both from the ratings before the game. */
		a2 = a;
		b2 = b;
		ck_assert_int_eq(rating_update_pair(&c, &a2, &b2, scores[i],
						    &a2, &b2, NULL), 0);
		ck_assert(same(&a1, &a2) && same(&b1, &b2));
	}
	/* Win and loss are not the same: the favourite wins a little,
	 * loses a lot; the uncertain outsider moves more. */
	ck_assert_int_eq(rating_update_pair(&c, &a, &b, 1, &a1, &b1, NULL), 0);
	ck_assert_int_eq(rating_update_pair(&c, &a, &b, 0, &a2, &b2, NULL), 0);
	ck_assert(a1.r > a.r && b1.r < b.r);
	ck_assert(a2.r < a.r && b2.r > b.r);
	ck_assert(a.r - a2.r > a1.r - a.r);
	ck_assert(fabs(b2.r - b.r) > fabs(a2.r - a.r));
}
END_TEST

/* --- Refusals --- */

START_TEST(test_config_refused)
{
	static const struct {
		int field; /* 0 tau, 1 rd_new, 2 vol_new, 3 rd_max, 4 days */
		double value;
		enum rating_error error;
		double min, max;
	} bad[] = {
		{ 0, 0.19, RATING_ERR_TAU_RANGE, 0.2, 1.2 },
		{ 0, 1.21, RATING_ERR_TAU_RANGE, 0.2, 1.2 },
		{ 0, -0.5, RATING_ERR_TAU_RANGE, 0.2, 1.2 },
		{ 1, 0, RATING_ERR_RD_NEW_RANGE, 0, 350 },
		{ 1, -30, RATING_ERR_RD_NEW_RANGE, 0, 350 },
		{ 1, 350.5, RATING_ERR_RD_NEW_RANGE, 0, 350 },
		{ 2, 0, RATING_ERR_VOL_NEW_RANGE, RATING_VOL_MIN,
		  RATING_VOL_MAX },
		{ 2, -0.06, RATING_ERR_VOL_NEW_RANGE, RATING_VOL_MIN,
		  RATING_VOL_MAX },
		{ 2, 1.5, RATING_ERR_VOL_NEW_RANGE, RATING_VOL_MIN,
		  RATING_VOL_MAX },
		{ 3, 0, RATING_ERR_RD_MAX_RANGE, 0, RATING_RD_LIMIT },
		{ 3, -350, RATING_ERR_RD_MAX_RANGE, 0, RATING_RD_LIMIT },
		{ 3, 1000.5, RATING_ERR_RD_MAX_RANGE, 0, RATING_RD_LIMIT },
		{ 4, 0, RATING_ERR_PERIOD_RANGE, 0, RATING_PERIOD_DAYS_MAX },
		{ 4, -7, RATING_ERR_PERIOD_RANGE, 0, RATING_PERIOD_DAYS_MAX },
		{ 4, 3661, RATING_ERR_PERIOD_RANGE, 0,
		  RATING_PERIOD_DAYS_MAX },
	};
	static const double not_numbers[] = { NAN, INFINITY, -INFINITY };
	struct rating_config c;
	struct rating_fault f;
	struct rating p = rating(1500, 200, 0.06), out = rating(1, 2, 3);
	double *fields[5];
	size_t i, j;

	c = config();
	ck_assert(c.tau == 0.5 && c.rd_new == 350 && c.vol_new == 0.06 &&
		  c.rd_max == 350 && c.period_days == 7);
	ck_assert_int_eq(rating_config_check(&c, &f), 0);
	fields[0] = &c.tau;
	fields[1] = &c.rd_new;
	fields[2] = &c.vol_new;
	fields[3] = &c.rd_max;
	fields[4] = &c.period_days;
	for (i = 0; i < N(bad); i++) {
		c = config();
		if (bad[i].field == 3)
			c.rd_new = 100; /* rd_max's own fault, not rd_new's */
		*fields[bad[i].field] = bad[i].value;
		memset(&f, 0, sizeof(f));
		ck_assert_int_eq(rating_config_check(&c, &f), -1);
		ck_assert_msg(f.error == bad[i].error, "%zu: %d", i,
			      (int)f.error);
		ck_assert(f.value == bad[i].value);
		ck_assert(f.min == bad[i].min && f.max == bad[i].max);
		ck_assert(f.game == RATING_NO_GAME);
		ck_assert_int_eq(rating_config_check(&c, NULL), -1);
		/* Every function that takes it refuses it, writing nothing. */
		ck_assert_int_eq(rating_update(&c, &p, NULL, 0, &out, &f), -1);
		ck_assert(f.error == bad[i].error);
		ck_assert(out.r == 1 && out.rd == 2 && out.vol == 3);
		out = p;
		ck_assert_int_eq(rating_age(&c, &out, 5, NULL), -1);
		ck_assert(same(&out, &p));
		out = rating(1, 2, 3);
	}
	for (i = 0; i < N(not_numbers); i++)
		for (j = 0; j < N(fields); j++) {
			c = config();
			*fields[j] = not_numbers[i];
			ck_assert_msg(rating_config_check(&c, &f) == -1,
				      "field %zu", j);
		}
	/* The edges themselves are accepted. */
	c = config();
	c.tau = 0.2;
	ck_assert_int_eq(rating_config_check(&c, NULL), 0);
	c.tau = 1.2;
	c.rd_max = RATING_RD_LIMIT;
	c.rd_new = RATING_RD_LIMIT;
	c.vol_new = RATING_VOL_MAX;
	c.period_days = RATING_PERIOD_DAYS_MAX;
	ck_assert_int_eq(rating_config_check(&c, NULL), 0);
	c.rd_new = 0.001;
	c.vol_new = RATING_VOL_MIN;
	c.period_days = 0.5;
	ck_assert_int_eq(rating_config_check(&c, NULL), 0);
	/* rd_new above a lowered rd_max: the max reported is rd_max. */
	c = config();
	c.rd_max = 300;
	ck_assert_int_eq(rating_config_check(&c, &f), -1);
	ck_assert(f.error == RATING_ERR_RD_NEW_RANGE);
	ck_assert(f.value == 350 && f.max == 300);
}
END_TEST

START_TEST(test_ratings_refused)
{
	struct rating_config c = config();
	struct rating p = rating(1500, 200, 0.06), out = rating(1, 2, 3);
	struct rating_game games[3] = {
		game(1400, 30, 1), game(1550, 100, 0), game(1700, 300, 0),
	};
	struct rating_fault f;
	struct rating bad[] = {
		rating(NAN, 200, 0.06), rating(RATING_R_MAX + 1, 200, 0.06),
		rating(RATING_R_MIN - 1, 200, 0.06),
		rating(1500, -1, 0.06), rating(1500, RATING_RD_LIMIT + 1, 0.06),
		rating(1500, INFINITY, 0.06), rating(1500, 200, 0),
		rating(1500, 200, RATING_VOL_MAX * 2),
		rating(1500, 200, NAN),
	};
	static const enum rating_error errors[] = {
		RATING_ERR_R_RANGE, RATING_ERR_R_RANGE, RATING_ERR_R_RANGE,
		RATING_ERR_RD_RANGE, RATING_ERR_RD_RANGE, RATING_ERR_RD_RANGE,
		RATING_ERR_VOL_RANGE, RATING_ERR_VOL_RANGE,
		RATING_ERR_VOL_RANGE,
	};
	static const double scores[] = { 0.7, -1, 2, 0.25, NAN };
	size_t i;

	for (i = 0; i < N(bad); i++) {
		ck_assert_int_eq(rating_check(&bad[i], &f), -1);
		ck_assert_msg(f.error == errors[i], "%zu: %d", i,
			      (int)f.error);
		/* The player at fault. */
		ck_assert_int_eq(rating_update(&c, &bad[i], games, 3, &out,
					       &f), -1);
		ck_assert(f.error == errors[i] && f.game == RATING_NO_GAME);
		/* The third opponent at fault. */
		games[2].opponent = bad[i];
		ck_assert_int_eq(rating_update(&c, &p, games, 3, &out, &f), -1);
		ck_assert(f.error == errors[i] && f.game == 2);
		/* b of a pair is game 0. */
		ck_assert_int_eq(rating_update_pair(&c, &p, &bad[i], 1, &out,
						    &out, &f), -1);
		ck_assert(f.error == errors[i] && f.game == 0);
		games[2].opponent = rating(1700, 300, 0.06);
		ck_assert(out.r == 1 && out.rd == 2 && out.vol == 3);
	}
	ck_assert_int_eq(rating_check(&p, &f), 0);
	ck_assert_int_eq(rating_update(&c, &p, games, 3, &out, &f), 0);
	for (i = 0; i < N(scores); i++) {
		out = rating(1, 2, 3);
		games[1].score = scores[i];
		ck_assert_int_eq(rating_update(&c, &p, games, 3, &out, &f), -1);
		ck_assert(f.error == RATING_ERR_SCORE && f.game == 1);
		ck_assert_int_eq(rating_update_pair(&c, &p, &p, scores[i], &out,
						    &out, &f), -1);
		ck_assert(f.error == RATING_ERR_SCORE);
		ck_assert(out.r == 1 && out.rd == 2 && out.vol == 3);
	}
	games[1].score = 0;
	ck_assert_int_eq(rating_update(&c, &p, NULL, 2, &out, &f), -1);
	ck_assert(f.error == RATING_ERR_BAD_ARGUMENT);
	out = p;
	ck_assert_int_eq(rating_age(&c, &out, -1, &f), -1);
	ck_assert(f.error == RATING_ERR_PERIODS && f.value == -1);
	ck_assert(same(&out, &p));
	ck_assert_int_eq(rating_age(&c, &bad[0], 1, &f), -1);
	ck_assert(f.error == RATING_ERR_R_RANGE);
	/* The bounds themselves are valid ratings. */
	out = rating(RATING_R_MIN, 0, RATING_VOL_MIN);
	ck_assert_int_eq(rating_check(&out, NULL), 0);
	out = rating(RATING_R_MAX, RATING_RD_LIMIT, RATING_VOL_MAX);
	ck_assert_int_eq(rating_check(&out, NULL), 0);
}
END_TEST

/* --- Extreme inputs --- */

START_TEST(test_extremes_finite)
{
	static const double rs[] = { RATING_R_MIN, 1500, RATING_R_MAX };
	static const double rds[] = { 0, 1e-9, 30, 350, RATING_RD_LIMIT };
	static const double vols[] = { RATING_VOL_MIN, 0.06, RATING_VOL_MAX };
	static const double scores[] = { 0, 0.5, 1 };
	struct rating_config c = config();
	struct rating p, out;
	struct rating_game g;
	size_t a, b, d, e, f, h, s;

	c.rd_max = RATING_RD_LIMIT;
	for (a = 0; a < N(rs); a++)
	for (b = 0; b < N(rds); b++)
	for (d = 0; d < N(vols); d++)
	for (e = 0; e < N(rs); e++)
	for (f = 0; f < N(rds); f++)
	for (h = 0; h < N(vols); h++)
	for (s = 0; s < N(scores); s++) {
		p = rating(rs[a], rds[b], vols[d]);
		g.opponent = rating(rs[e], rds[f], vols[h]);
		g.score = scores[s];
		ck_assert_int_eq(rating_update(&c, &p, &g, 1, &out, NULL), 0);
		ck_assert_msg(isfinite(out.r) && isfinite(out.rd) &&
			      isfinite(out.vol), "%g/%g/%g vs %g/%g/%g",
			      p.r, p.rd, p.vol, g.opponent.r,
			      g.opponent.rd, g.opponent.vol);
		/* Every output is a valid input again. */
		ck_assert_int_eq(rating_check(&out, NULL), 0);
		ck_assert(out.rd <= c.rd_max);
	}
	/* The greatest upset: 1500/350 beats 20000/0.  r rises by a bounded
	 * step (phi'^2 g <= (350/173.7178)^2 * 173.7178 points). */
	c = config();
	p = rating(1500, 350, 0.06);
	g.opponent = rating(RATING_R_MAX, 0, 0.06);
	g.score = 1;
	ck_assert_int_eq(rating_update(&c, &p, &g, 1, &out, NULL), 0);
	ck_assert(out.r > 1500 && out.r < 1500 + 706);
	ck_assert(out.vol > 0.06 && out.vol <= RATING_VOL_MAX);
	/* Tiny RDs: the expected result barely moves anyone. */
	p = rating(1500, 1e-9, 0.06);
	g.opponent = rating(1500, 1e-9, 0.06);
	g.score = 1;
	ck_assert_int_eq(rating_update(&c, &p, &g, 1, &out, NULL), 0);
	ck_assert(isfinite(out.r) && out.r > 1500 && out.r < 1500 + 20);
	ck_assert(out.rd > 0 && out.rd < 11);
}
END_TEST

START_TEST(test_volatility_bounded)
{
	/* v up to 1e76 is what a 30000-point gap gives; delta up to v (a
	 * whole upset). */
	static const double phis[] = { 0, 1e-9, 1.1513,
				       RATING_RD_LIMIT / RATING_SCALE };
	static const double vs[] = { 1.7785, 4, 1e5, 1e30, 1e76 };
	static const double vols[] = { RATING_VOL_MIN, 0.06, RATING_VOL_MAX };
	static const double taus[] = { RATING_TAU_MIN, 0.5, RATING_TAU_MAX };
	size_t i, j, k, l, m;
	int iterations;
	double vol;

	for (i = 0; i < N(phis); i++)
	for (j = 0; j < N(vs); j++)
	for (k = 0; k < 6; k++)
	for (l = 0; l < N(vols); l++)
	for (m = 0; m < N(taus); m++) {
		double deltas[] = { 0, 1, -1, 0.001, vs[j], -vs[j] };

		iterations = -1;
		vol = rating_volatility(phis[i], vs[j], deltas[k], vols[l],
					taus[m], &iterations);
		ck_assert_msg(isfinite(vol) && vol > 0, "%g", vol);
		/* Converged, not stopped by the bound. */
		ck_assert_msg(iterations >= 0 &&
			      iterations < RATING_MAX_ITERATIONS,
			      "phi %g v %g delta %g vol %g tau %g: %d",
			      phis[i], vs[j], deltas[k], vols[l], taus[m],
			      iterations);
		/* Nothing surprising (delta^2 < v): the volatility stays; a
		 * huge v (a game that says nothing) leaves it as it was. */
		if (fabs(deltas[k]) <= 1 && vs[j] >= 1e5)
			ck_assert_msg(fabs(vol / vols[l] - 1) < 1e-5,
				      "v %g: %.10g from %g", vs[j], vol,
				      vols[l]);
		if (deltas[k] == vs[j] && vs[j] >= 1e5)
			ck_assert(vol > vols[l]);
	}
}
END_TEST

/* --- Times and display --- */

START_TEST(test_periods_between)
{
	struct rating_config c = config();
	int64_t t = 1767225600; /* 2026-01-01 00:00 UTC */

	ck_assert_int_eq(rating_periods_between(&c, t, t), 0);
	ck_assert_int_eq(rating_periods_between(&c, t, t + 7 * D - 1), 0);
	ck_assert_int_eq(rating_periods_between(&c, t, t + 7 * D), 1);
	ck_assert_int_eq(rating_periods_between(&c, t, t + 21 * D + 5), 3);
	ck_assert_int_eq(rating_periods_between(&c, t, t - 30 * D), 0);
	ck_assert_int_eq(rating_periods_between(&c, 0, t), t / (7 * D));
	ck_assert_int_eq(rating_periods_between(&c, INT64_MIN, INT64_MAX),
			 (int64_t)(UINT64_MAX / (uint64_t)(7 * D)));
	c.period_days = 0.5;
	ck_assert_int_eq(rating_periods_between(&c, t, t + 3 * D), 6);
	/* A period shorter than a second counts whole seconds. */
	c.period_days = 1e-9;
	ck_assert_int_eq(rating_config_check(&c, NULL), 0);
	ck_assert_int_eq(rating_periods_between(&c, 0, INT64_MAX), INT64_MAX);
	ck_assert_int_eq(rating_periods_between(&c, INT64_MIN, INT64_MAX),
			 INT64_MAX);
}
END_TEST

START_TEST(test_new_and_shown)
{
	struct rating_config c = config();
	struct rating p;
	struct rating_shown s;

	rating_new(&c, &p);
	ck_assert(p.r == 1500 && p.rd == 350 && p.vol == 0.06);
	ck_assert(provisional(&p));
	c.rd_new = 300;
	c.vol_new = 0.05;
	rating_new(&c, &p);
	ck_assert(p.r == 1500 && p.rd == 300 && p.vol == 0.05);

	p = rating(1464.0507, 151.5165, 0.06);
	rating_round(&p, &s);
	ck_assert_int_eq(s.r, 1464);
	ck_assert_int_eq(s.rd, 152);
	ck_assert(s.provisional);
	/* 110 is the edge: decided on the stored RD, not the shown one. */
	p.rd = 110;
	ck_assert(!provisional(&p));
	rating_round(&p, &s);
	ck_assert(!s.provisional && s.r == 1464);
	p.rd = 110.0001;
	rating_round(&p, &s);
	ck_assert(s.provisional && s.rd == 110);
	/* Halves away from zero. */
	p = rating(1463.5, 40.5, 0.06);
	rating_round(&p, &s);
	ck_assert_int_eq(s.r, 1464);
	ck_assert_int_eq(s.rd, 41);
	p.r = 1463.4999;
	rating_round(&p, &s);
	ck_assert_int_eq(s.r, 1463);
	p.r = -0.5;
	rating_round(&p, &s);
	ck_assert_int_eq(s.r, -1);
	p = rating(RATING_R_MIN, RATING_RD_LIMIT, 0.06);
	rating_round(&p, &s);
	ck_assert(s.r == -10000 && s.provisional);
	/* Whatever a caller passes, the number fits an int. */
	p.r = -1e300;
	rating_round(&p, &s);
	ck_assert_int_eq(s.r, INT_MIN);
}
END_TEST

/* --- Determinism --- */

/* A fixed pseudo-random sequence (not libc's rand). */
static uint32_t next(uint32_t *state)
{
	*state = *state * 1664525u + 1013904223u;
	return *state >> 8;
}

/* 500 games among 6 players, ratings written over fill bytes. */
static void play_league(int fill, struct rating players[6])
{
	struct rating_config c = config();
	uint32_t state = 2026;
	int i;

	for (i = 0; i < 6; i++)
		rating_new(&c, &players[i]);
	for (i = 0; i < 500; i++) {
		int a = next(&state) % 6, b = (a + 1 + next(&state) % 5) % 6;
		double score = (next(&state) % 3) / 2.0;
		struct rating a2, b2;

		memset(&a2, fill, sizeof(a2));
		memset(&b2, fill, sizeof(b2));
		ck_assert_int_eq(rating_update_pair(&c, &players[a],
						    &players[b], score, &a2,
						    &b2, NULL), 0);
		players[a] = a2;
		players[b] = b2;
		if (i % 50 == 0)
			ck_assert_int_eq(rating_age(&c, &players[i % 6], 3,
						    NULL), 0);
	}
}

START_TEST(test_same_bits)
{
	struct rating x[6], y[6];
	int i;

	play_league(0x00, x);
	play_league(0xa5, y);
	ck_assert(memcmp(x, y, sizeof(x)) == 0);
	for (i = 0; i < 6; i++) {
		ck_assert_int_eq(rating_check(&x[i], NULL), 0);
		/* Many games: established, no longer provisional. */
		ck_assert_msg(x[i].rd < 110, "rd %.4f", x[i].rd);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("rating");
	TCase *glicko = tcase_create("glicko");
	TCase *refused = tcase_create("refused");
	TCase *edges = tcase_create("edges");

	tcase_add_test(glicko, test_glickman_example);
	tcase_add_test(glicko, test_period_without_games);
	tcase_add_test(glicko, test_rd_max);
	tcase_add_test(glicko, test_draw_between_equals);
	tcase_add_test(glicko, test_pair_mirrored);
	tcase_add_test(glicko, test_same_bits);
	suite_add_tcase(s, glicko);
	tcase_add_test(refused, test_config_refused);
	tcase_add_test(refused, test_ratings_refused);
	suite_add_tcase(s, refused);
	tcase_add_test(edges, test_extremes_finite);
	tcase_add_test(edges, test_volatility_bounded);
	tcase_add_test(edges, test_periods_between);
	tcase_add_test(edges, test_new_and_shown);
	suite_add_tcase(s, edges);
	return test_run(s);
}
