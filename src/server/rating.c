/* rating.c -- Glicko-2 ratings: the configuration, inactivity, one
 * period's update and the numbers shown; see rating.h. */
#include <config.h> /* autoconf's: _GNU_SOURCE */

#include "server/rating.h"

#include <limits.h>
#include <math.h>

/* Not M_PI: that is not ISO C. */
#define RATING_PI 3.14159265358979323846

/* -1 with *fault_r (may be NULL) filled. */
static int fail(struct rating_fault *fault_r, enum rating_error error,
		double value, double min, double max, size_t game)
{
	if (fault_r != NULL) {
		fault_r->error = error;
		fault_r->value = value;
		fault_r->min = min;
		fault_r->max = max;
		fault_r->game = game;
	}
	return -1;
}

/* Written so that NaN is never in range. */
static bool in_range(double x, double min, double max)
{
	return x >= min && x <= max;
}

static bool above_up_to(double x, double min, double max)
{
	return x > min && x <= max;
}

static double clamp(double x, double min, double max)
{
	return x < min ? min : x > max ? max : x;
}

/* --- The configuration --- */

void rating_config_default(struct rating_config *config_r)
{
	config_r->tau = 0.5;
	config_r->rd_new = 350.0;
	config_r->vol_new = 0.06;
	config_r->rd_max = 350.0;
	config_r->period_days = 7.0;
}

int rating_config_check(const struct rating_config *config,
			struct rating_fault *fault_r)
{
	if (!in_range(config->tau, RATING_TAU_MIN, RATING_TAU_MAX))
		return fail(fault_r, RATING_ERR_TAU_RANGE, config->tau,
			    RATING_TAU_MIN, RATING_TAU_MAX, RATING_NO_GAME);
	if (!above_up_to(config->rd_max, 0.0, RATING_RD_LIMIT))
		return fail(fault_r, RATING_ERR_RD_MAX_RANGE, config->rd_max,
			    0.0, RATING_RD_LIMIT, RATING_NO_GAME);
	if (!above_up_to(config->rd_new, 0.0, config->rd_max))
		return fail(fault_r, RATING_ERR_RD_NEW_RANGE, config->rd_new,
			    0.0, config->rd_max, RATING_NO_GAME);
	if (!in_range(config->vol_new, RATING_VOL_MIN, RATING_VOL_MAX))
		return fail(fault_r, RATING_ERR_VOL_NEW_RANGE, config->vol_new,
			    RATING_VOL_MIN, RATING_VOL_MAX, RATING_NO_GAME);
	if (!above_up_to(config->period_days, 0.0, RATING_PERIOD_DAYS_MAX))
		return fail(fault_r, RATING_ERR_PERIOD_RANGE,
			    config->period_days, 0.0, RATING_PERIOD_DAYS_MAX,
			    RATING_NO_GAME);
	return 0;
}

/* The rating period in whole seconds (period_days * 86400 rounded, at
 * least 1).  config must pass rating_config_check. */
static int64_t rating_period_seconds(const struct rating_config *config)
{
	/* At most 3660 * 86400: no overflow. */
	int64_t seconds = (int64_t)llround(config->period_days * 86400.0);

	return seconds < 1 ? 1 : seconds;
}

/* --- Ratings --- */

void rating_new(const struct rating_config *config, struct rating *rating_r)
{
	rating_r->r = RATING_NEW_R;
	rating_r->rd = config->rd_new;
	rating_r->vol = config->vol_new;
}

/* rating_check, naming game in the fault. */
static int check_rating(const struct rating *rating, size_t game,
			struct rating_fault *fault_r)
{
	if (!in_range(rating->r, RATING_R_MIN, RATING_R_MAX))
		return fail(fault_r, RATING_ERR_R_RANGE, rating->r,
			    RATING_R_MIN, RATING_R_MAX, game);
	if (!in_range(rating->rd, 0.0, RATING_RD_LIMIT))
		return fail(fault_r, RATING_ERR_RD_RANGE, rating->rd, 0.0,
			    RATING_RD_LIMIT, game);
	if (!in_range(rating->vol, RATING_VOL_MIN, RATING_VOL_MAX))
		return fail(fault_r, RATING_ERR_VOL_RANGE, rating->vol,
			    RATING_VOL_MIN, RATING_VOL_MAX, game);
	return 0;
}

int rating_check(const struct rating *rating, struct rating_fault *fault_r)
{
	return check_rating(rating, RATING_NO_GAME, fault_r);
}

/* rd > RATING_PROVISIONAL_RD: too few recent games to trust r (shown
 * "1464?", rating_round). */
static bool rating_provisional(const struct rating *rating)
{
	return rating->rd > RATING_PROVISIONAL_RD;
}

int64_t rating_periods_between(const struct rating_config *config,
			       int64_t last_played, int64_t now)
{
	uint64_t diff, periods;

	if (now <= last_played)
		return 0;
	/* In unsigned arithmetic: now - last_played may exceed INT64_MAX. */
	diff = (uint64_t)now - (uint64_t)last_played;
	periods = diff / (uint64_t)rating_period_seconds(config);
	return periods > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)periods;
}

/* Step 6 for periods periods at volatility vol, on the display scale:
 * sqrt(rd^2 + periods * (173.7178 vol)^2), at most rd_max.  The one
 * expression both rating_age and rating_update use, so that aging by
 * one period and an empty period give the same bits. */
static double grown_rd(double rd, double vol, double periods, double rd_max)
{
	double phi = rd / RATING_SCALE;
	double grown = RATING_SCALE * sqrt(phi * phi + periods * vol * vol);

	return grown > rd_max ? rd_max : grown;
}

int rating_age(const struct rating_config *config, struct rating *rating,
	       int64_t periods, struct rating_fault *fault_r)
{
	if (rating_config_check(config, fault_r) < 0 ||
	    rating_check(rating, fault_r) < 0)
		return -1;
	if (periods < 0)
		return fail(fault_r, RATING_ERR_PERIODS, (double)periods, 0.0,
			    0.0, RATING_NO_GAME);
	if (periods == 0)
		return 0;
	rating->rd = grown_rd(rating->rd, rating->vol, (double)periods,
			      config->rd_max);
	return 0;
}

/* Step 5's f(x), with delta2 = delta^2, phi2 = phi^2, a = ln(vol^2) and
 * tau2 = tau^2. */
static double volatility_f(double x, double delta2, double phi2, double v,
			   double a, double tau2)
{
	double ex = exp(x);
	double d = phi2 + v + ex;

	return ex * (delta2 - phi2 - v - ex) / (2.0 * d * d) - (x - a) / tau2;
}

double rating_volatility(double phi, double v, double delta, double vol,
			 double tau, int *iterations_r)
{
	double delta2 = delta * delta, phi2 = phi * phi, tau2 = tau * tau;
	double a = log(vol * vol);
	double A, B, C, fA, fB, fC;
	int k, iterations = 0;

	/* The initial bracket [A, B] (or [B, A]) of f's root. */
	A = a;
	if (delta2 > phi2 + v) {
		B = log(delta2 - phi2 - v);
	} else {
		/* f(a - tau) > 0 for tau <= 1.2 already (the first term of f
		 * is above -1/2 here): the bound is only a guard. */
		k = 1;
		while (k < RATING_MAX_ITERATIONS &&
		       volatility_f(a - k * tau, delta2, phi2, v, a, tau2) < 0)
			k++;
		B = a - k * tau;
	}
	fA = volatility_f(A, delta2, phi2, v, a, tau2);
	fB = volatility_f(B, delta2, phi2, v, a, tau2);
	/* Illinois: regula falsi that halves the stale end's f. */
	while (fabs(B - A) > RATING_EPSILON &&
	       iterations < RATING_MAX_ITERATIONS) {
		/* Equal only when both are 0 at one root: nothing to do. */
		if (fB == fA)
			break;
		C = A + (A - B) * fA / (fB - fA);
		fC = volatility_f(C, delta2, phi2, v, a, tau2);
		/* <= (not <): an exact root at C must end the bracket, or
		 * the loop would halve fA for ever. */
		if (fC * fB <= 0) {
			A = B;
			fA = fB;
		} else {
			fA /= 2.0;
		}
		B = C;
		fB = fC;
		iterations++;
	}
	if (iterations_r != NULL)
		*iterations_r = iterations;
	/* Stopped by the bound: fA may have been halved, B is as good. */
	if (fabs(B - A) > RATING_EPSILON &&
	    fabs(fB) < fabs(volatility_f(A, delta2, phi2, v, a, tau2)))
		return exp(B / 2.0);
	return exp(A / 2.0);
}

static bool valid_score(double score)
{
	return score == 0.0 || score == 0.5 || score == 1.0;
}

int rating_update(const struct rating_config *config,
		  const struct rating *player, const struct rating_game *games,
		  size_t n, struct rating *out_r, struct rating_fault *fault_r)
{
	struct rating p;
	double phi, v_inv = 0.0, sum = 0.0, v, delta, vol, rd_star;
	double phi_star, phi_new, r, rd;
	size_t i;

	if (rating_config_check(config, fault_r) < 0 ||
	    rating_check(player, fault_r) < 0)
		return -1;
	if (games == NULL && n > 0)
		return fail(fault_r, RATING_ERR_BAD_ARGUMENT, 0.0, 0.0, 0.0,
			    RATING_NO_GAME);
	for (i = 0; i < n; i++) {
		if (check_rating(&games[i].opponent, i, fault_r) < 0)
			return -1;
		if (!valid_score(games[i].score))
			return fail(fault_r, RATING_ERR_SCORE, games[i].score,
				    0.0, 1.0, i);
	}
	p = *player; /* out_r may be player */
	if (n == 0) {
		/* A period without games: step 6, nothing else moves. */
		out_r->r = p.r;
		out_r->rd = grown_rd(p.rd, p.vol, 1.0, config->rd_max);
		out_r->vol = p.vol;
		return 0;
	}

	/* Step 2: Glicko-2's scale.  mu - mu_j is taken from r - r_j, so
	 * two equal ratings are exactly equal here too. */
	phi = p.rd / RATING_SCALE;
	/* Steps 3 and 4: v (as 1 / v_inv) and delta (as v * sum). */
	for (i = 0; i < n; i++) {
		const struct rating *o = &games[i].opponent;
		double phi_j = o->rd / RATING_SCALE;
		double g = 1.0 / sqrt(1.0 + 3.0 * phi_j * phi_j /
				      (RATING_PI * RATING_PI));
		double e = 1.0 / (1.0 + exp(-g * (p.r - o->r) / RATING_SCALE));

		v_inv += g * g * e * (1.0 - e);
		sum += g * (games[i].score - e);
	}
	/* The bounds on r and rd keep e away from 0 and 1 (a gap of at
	 * most 30000 points is exp(173)): v_inv > 0, v finite. */
	v = 1.0 / v_inv;
	delta = v * sum;
	/* Step 5. */
	vol = rating_volatility(phi, v, delta, p.vol, config->tau, NULL);
	vol = clamp(vol, RATING_VOL_MIN, RATING_VOL_MAX);
	/* Step 6, capped: the deviation the games then shrink. */
	rd_star = grown_rd(p.rd, vol, 1.0, config->rd_max);
	phi_star = rd_star / RATING_SCALE;
	/* Step 7.  r' = r + 173.7178 (mu' - mu): r moves by the games
	 * alone, not by a round trip through mu. */
	phi_new = 1.0 / sqrt(1.0 / (phi_star * phi_star) + v_inv);
	r = p.r + RATING_SCALE * phi_new * phi_new * sum;
	rd = RATING_SCALE * phi_new;
	/* Step 8, kept within the bounds of a valid rating. */
	out_r->r = clamp(r, RATING_R_MIN, RATING_R_MAX);
	out_r->rd = rd > config->rd_max ? config->rd_max : rd;
	out_r->vol = vol;
	return 0;
}

int rating_update_pair(const struct rating_config *config,
		       const struct rating *a, const struct rating *b,
		       double score_a, struct rating *a_r, struct rating *b_r,
		       struct rating_fault *fault_r)
{
	struct rating_game game_a, game_b;
	struct rating new_a, new_b;

	game_a.opponent = *b;
	game_a.score = score_a;
	game_b.opponent = *a;
	game_b.score = 1.0 - score_a;
	/* The first update checks everything the second one reads (a, b
	 * and the score), so the second cannot fail: nothing is written
	 * unless both are done. */
	if (rating_update(config, a, &game_a, 1, &new_a, fault_r) < 0 ||
	    rating_update(config, b, &game_b, 1, &new_b, fault_r) < 0)
		return -1;
	*a_r = new_a;
	*b_r = new_b;
	return 0;
}

/* --- Display --- */

/* x rounded half away from zero, within int (NaN: 0). */
static int round_int(double x)
{
	if (isnan(x))
		return 0;
	if (x >= (double)INT_MAX)
		return INT_MAX;
	if (x <= (double)INT_MIN)
		return INT_MIN;
	return (int)round(x);
}

void rating_round(const struct rating *rating, struct rating_shown *shown_r)
{
	shown_r->r = round_int(rating->r);
	shown_r->rd = round_int(rating->rd);
	shown_r->provisional = rating_provisional(rating);
}
