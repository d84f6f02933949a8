/* rating.h -- Glicko-2 ratings of the club's players: a new player's
 * rating, the growth of its deviation while they do not play, the update
 * of one rating period, and the rounded numbers that are shown.
 *
 * Pure: no I/O, no store, no mail, and never time().  The caller passes
 * every time (epoch seconds) and every rating; the store keeps the
 * doubles.  Same inputs, same outputs: the arithmetic is plain IEEE-754
 * double, each sum in the caller's order, every output field written,
 * so `ashes ratings --recompute` replays the live updates bit for bit on
 * one build.  (Builds whose libm rounds exp() or log() differently, or
 * that fuse multiply-adds, may differ in the last bits; the rounding for
 * display, rating_round(), is the only place ratings become integers.)
 *
 * The method is Glickman's "Example of the Glicko-2 system" (2013), step
 * by step: ratings are shown on the Glicko scale (a new player
 * 1500 / 350 / 0.06) and computed on Glicko-2's own scale, mu = (r -
 * 1500) / 173.7178 and phi = RD / 173.7178; the new volatility is the
 * root that step 5 finds with the Illinois algorithm, to 0.000001, in at
 * most RATING_MAX_ITERATIONS steps.
 *
 * Rating periods.  A game between two players is rated on its own, as
 * its own period (rating_update_pair): ratings move after every rated
 * game, as on DGS and the online servers, not once a week.  The period
 * of the configuration (period_days) is the unit of inactivity: a
 * player's RD grows by step 6 once for each whole period in which they
 * played nothing (rating_age), up to rd_max.  The service ages a rating
 * by rating_periods_between(last_played, now) periods before it shows
 * it or rates a game with it.  Every update also applies step 6 once
 * itself (the game's own period), so a rating's RD grows a little even
 * between games played on the same day.
 *
 * Errors are codes (enum rating_error) plus the number at fault in a
 * struct rating_fault.  The words players and operators read belong in
 * templates/.
 */
#ifndef ASHES_SERVER_RATING_H
#define ASHES_SERVER_RATING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Glicko-2's scale factor: 400 / ln(10). */
#define RATING_SCALE 173.7178
/* A new player's rating on the display scale. */
#define RATING_NEW_R 1500.0

/* The configuration's ranges.  tau: the system constant (how fast a
 * volatility may change); Glickman suggests 0.3 to 1.2. */
#define RATING_TAU_MIN 0.2
#define RATING_TAU_MAX 1.2
/* The longest rating period: ten years. */
#define RATING_PERIOD_DAYS_MAX 3660.0

/* What a rating may hold, in and out.  The bounds keep every exponent of
 * the method finite (a rating gap of 30000 points is exp(173), far from
 * overflow) and no real pool comes near them; outputs are clamped to
 * them, so an output is always a valid input. */
#define RATING_R_MIN (-10000.0)
#define RATING_R_MAX 20000.0
#define RATING_RD_LIMIT 1000.0 /* rd in [0, RATING_RD_LIMIT] */
#define RATING_VOL_MIN 0.000001
#define RATING_VOL_MAX 1.0

/* An RD above this is provisional: shown with a '?' (DGS, lichess). */
#define RATING_PROVISIONAL_RD 110.0
/* Step 5's bound on iterations.  Ordinary ratings converge in a few;
 * the bounds' extremes (a 30000-point gap, vol 0.000001) in about 250,
 * where f is nearly flat at one end of the bracket and the Illinois
 * halvings must catch up. */
#define RATING_MAX_ITERATIONS 1000
/* Step 5's convergence tolerance. */
#define RATING_EPSILON 0.000001

/* A game is not in any rating_update fault: the player's or the
 * configuration's own value is. */
#define RATING_NO_GAME ((size_t)-1)

/* Every reason this module refuses something.  value, min and max of
 * struct rating_fault say which number and what range; "above min"
 * means min itself is refused too. */
enum rating_error {
	RATING_OK = 0,
	RATING_ERR_TAU_RANGE,     /* value: tau; min, max */
	RATING_ERR_RD_MAX_RANGE,  /* value: rd_max; above min (0), max */
	RATING_ERR_RD_NEW_RANGE,  /* value: rd_new; above min (0), max:
				   * rd_max */
	RATING_ERR_VOL_NEW_RANGE, /* value: vol_new; min, max */
	RATING_ERR_PERIOD_RANGE,  /* value: period_days; above min (0),
				   * max */
	RATING_ERR_R_RANGE,       /* a rating's r: value; min, max */
	RATING_ERR_RD_RANGE,      /* a rating's rd: value; min, max */
	RATING_ERR_VOL_RANGE,     /* a rating's vol: value; min, max */
	RATING_ERR_SCORE,         /* a score not 0, 0.5 or 1: value */
	RATING_ERR_PERIODS,       /* periods < 0: value; min 0 */
	RATING_ERR_BAD_ARGUMENT,  /* a caller's mistake (NULL games) */
};

struct rating_fault {
	enum rating_error error;
	double value;    /* the number at fault (may be NaN), or 0 */
	double min, max; /* its accepted range, or 0 */
	/* For rating_update: the index of the game whose opponent or score
	 * is at fault, or RATING_NO_GAME.  rating_update_pair: 0 for b. */
	size_t game;
};

/* A player's rating on the display scale: r (1500 for a new player),
 * rd (the rating deviation, 350) and vol (the volatility, 0.06, which is
 * the same on both scales). */
struct rating {
	double r, rd, vol;
};

/* The rating rules, from the configuration. */
struct rating_config {
	double tau;         /* RATING_TAU_MIN..RATING_TAU_MAX, 0.5 */
	double rd_new;      /* a new player's RD: (0, rd_max], 350 */
	double vol_new;     /* a new player's volatility, 0.06 */
	double rd_max;      /* no RD grows above it: (0, RD_LIMIT], 350 */
	double period_days; /* a rating period: (0, PERIOD_DAYS_MAX], 7 */
};

/* One game of a rating period: the opponent's rating before the period
 * and the player's score, 1 (a win), 0.5 (a draw) or 0 (a loss). */
struct rating_game {
	struct rating opponent;
	double score;
};

/* A rating as shown: r and rd rounded to whole points (half away from
 * zero), and whether it is provisional (decided on the unrounded rd). */
struct rating_shown {
	int r, rd;
	bool provisional;
};

/* --- The configuration --- */

/* tau 0.5, rd_new 350, vol_new 0.06, rd_max 350, period_days 7. */
void rating_config_default(struct rating_config *config_r);
/* 0 if every field is in range (NaN never is), else -1 and *fault_r
 * (may be NULL): the first fault in the order tau, rd_max, rd_new,
 * vol_new, period_days (rd_max first: rd_new's range depends on it).
 * rating_age and rating_update start with it; outside rating.c only the
 * tests call it, to pin each bound. */
int rating_config_check(const struct rating_config *config,
			struct rating_fault *fault_r);

/* --- Ratings --- */

/* A new player's rating: 1500, rd_new, vol_new.  config must pass
 * rating_config_check. */
void rating_new(const struct rating_config *config, struct rating *rating_r);
/* 0 if *rating is within the bounds above (a stored rating read back),
 * else -1 and *fault_r (RATING_ERR_R_RANGE, _RD_RANGE, _VOL_RANGE), the
 * first of r, rd, vol at fault.  As rating_config_check, called outside
 * rating.c by the tests alone. */
int rating_check(const struct rating *rating, struct rating_fault *fault_r);

/* The whole rating periods from last_played to now: floor((now -
 * last_played) / the period in whole seconds), 0 if now is not after
 * last_played.  Never overflows.  config must pass rating_config_check. */
int64_t rating_periods_between(const struct rating_config *config,
			       int64_t last_played, int64_t now);
/* periods (>= 0) rating periods without a game: step 6 that many times,
 * rd = sqrt(rd^2 + periods * (173.7178 vol)^2), at most rd_max; r and
 * vol unchanged.  0 periods changes nothing.  -1 and *rating unchanged
 * if config or *rating is invalid (as rating_config_check,
 * rating_check) or periods < 0 (RATING_ERR_PERIODS). */
int rating_age(const struct rating_config *config, struct rating *rating,
	       int64_t periods, struct rating_fault *fault_r);

/* One rating period of *player with n games (steps 1 to 8): *out_r is
 * the rating after it.  Each game's opponent is taken as it was before
 * the period.  n == 0 (games may be NULL) is a period without games:
 * step 6 alone, as rating_age by one period.  The RD after step 6 is
 * capped at rd_max before the games shrink it, so no output RD is above
 * rd_max.  out_r may be player.  -1 and *out_r unchanged if config,
 * *player or an opponent is invalid, or a score is not 0, 0.5 or 1
 * (fault_r->game says which game).  The club rates one game at a time
 * (rating_update_pair); the tests use this general form for Glickman's
 * worked example, three games in one period. */
int rating_update(const struct rating_config *config,
		  const struct rating *player, const struct rating_game *games,
		  size_t n, struct rating *out_r, struct rating_fault *fault_r);
/* One finished game between a and b, its own rating period: a scored
 * score_a (1, 0.5, 0), b 1 - score_a; both updated from the ratings
 * before the game into *a_r and *b_r (which may be a and b).  Mirror
 * image: rating_update_pair(b, a, 1 - score_a) gives the same two
 * ratings, exchanged.  -1 and nothing written as rating_update. */
int rating_update_pair(const struct rating_config *config,
		       const struct rating *a, const struct rating *b,
		       double score_a, struct rating *a_r, struct rating *b_r,
		       struct rating_fault *fault_r);

/* Step 5 alone, on Glicko-2's scale: the new volatility from phi (the
 * player's deviation), v (step 3), delta (step 4), the volatility vol
 * and tau.  *iterations_r (may be NULL): the Illinois iterations it
 * took, at most RATING_MAX_ITERATIONS (if it stops there, the end of the
 * bracket where |f| is smaller is taken).  For inputs as rating_update
 * computes them from valid ratings (v up to about 1e76) the result is
 * finite and positive; it is not clamped.  Declared here for the tests
 * alone, which check it on the paper's numbers and over extreme inputs. */
double rating_volatility(double phi, double v, double delta, double vol,
			 double tau, int *iterations_r);

/* --- Display --- */

/* The numbers shown; the ratings themselves stay doubles. */
void rating_round(const struct rating *rating, struct rating_shown *shown_r);

#endif
