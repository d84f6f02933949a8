/* limits.c -- what one player's mails may make the daemon send and
 * compute ([limits] in ashesd.conf, server.h's struct server_limits):
 * the mails and bytes queued for a player's mails in an hour, one
 * archive of a game per player a day, hints an hour and one a ply, one
 * open challenge per pair of players, challenges from one player to the
 * same one a day, and a player's open challenges and bot games at once.
 *
 * Every count is a rate_limits row (store_limits.h) written in the
 * service's one transaction: a mail handed out twice counts once, and a
 * refused command counts nothing.  What a limit refuses is worded in
 * mail/refusal.txt (a command) or mail/mail-refused.txt (the mail), and
 * the refusal code is in the outcome the daemon logs. */
#include "server/server_private.h"

#include <inttypes.h>
#include <stdio.h>
#include <time.h>

#include "store/store_bot.h"

#define LIMITS_HOUR 3600
#define LIMITS_DAY (24 * 3600)

/* Whether the mail in hand is a player's whose sends are counted: the
 * daemon's own bot plays in every game it has and is not. */
static int limits_counted(struct handle *h)
{
	int bot;

	if (h->msg == NULL || h->me == NULL)
		return 0;
	bot = server_is_bot(h, h->me->id);
	return bot < 0 ? -1 : !bot;
}

/* A counter's key for player pid: "what:pid". */
static void limits_key(char *buf, size_t size, const char *what, int64_t pid)
{
	snprintf(buf, size, "%s:%" PRId64, what, pid);
}

/* Add amount to counter key in a window of window seconds: 0, or -1
 * with h->error set. */
static int limits_add(struct handle *h, const char *key, int64_t window,
		      int64_t amount)
{
	const char *error;

	if (store_rate_add(h->srv->store, key, h->now, window, amount, NULL,
			   NULL, &error) < 0)
		return server_store_fail(h, error);
	return 0;
}

/* bytes as a reader reads them: "12.3 MB", "45 KB", "300 bytes". */
static void limits_size_ctx(struct template_ctx *ctx, const char *key,
			    uint64_t bytes)
{
	if (bytes >= 1000000)
		template_ctx_setf(ctx, key, "%.1f MB", (double)bytes / 1e6);
	else if (bytes >= 1000)
		template_ctx_setf(ctx, key, "%" PRIu64 " KB", bytes / 1000);
	else
		template_ctx_setf(ctx, key, "%" PRIu64 " bytes", bytes);
}

/* "HH:MM UTC" of t, as key. */
static void limits_hhmm_ctx(struct template_ctx *ctx, const char *key,
			    int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;
	char text[32];

	gmtime_r(&tt, &tm);
	strftime(text, sizeof(text), "%H:%M UTC", &tm);
	template_ctx_set(ctx, key, text);
}

int limits_charge(struct handle *h, int64_t mails, int64_t bytes)
{
	const struct server_limits *lim = &h->srv->cfg.limits;
	char key[64];
	int r;

	if (lim->mails_per_hour == 0 && lim->bytes_per_hour == 0)
		return 0;
	if ((r = limits_counted(h)) <= 0)
		return r;
	limits_key(key, sizeof(key), "sent-mails", h->me->id);
	if (limits_add(h, key, LIMITS_HOUR, mails) < 0)
		return -1;
	limits_key(key, sizeof(key), "sent-bytes", h->me->id);
	return limits_add(h, key, LIMITS_HOUR, bytes > 0 ? bytes : 0);
}

/* The sender's hour so far: mails and bytes queued, when the hour that
 * is spent resets (0: not spent) and when the bytes' hour resets. */
static int limits_budget(struct handle *h, int64_t *mails_r,
			 int64_t *bytes_r, int64_t *resets_r,
			 int64_t *bytes_resets_r)
{
	const struct server_limits *lim = &h->srv->cfg.limits;
	int64_t ms = 0, bs = 0;
	char key[64];
	const char *error;

	*resets_r = 0;
	limits_key(key, sizeof(key), "sent-mails", h->me->id);
	if (store_rate_peek(h->srv->store, key, h->now, LIMITS_HOUR, mails_r,
			    &ms, &error) < 0)
		return server_store_fail(h, error);
	limits_key(key, sizeof(key), "sent-bytes", h->me->id);
	if (store_rate_peek(h->srv->store, key, h->now, LIMITS_HOUR, bytes_r,
			    &bs, &error) < 0)
		return server_store_fail(h, error);
	*bytes_resets_r = (bs != 0 ? bs : h->now) + LIMITS_HOUR;
	if (lim->mails_per_hour > 0 && *mails_r >= lim->mails_per_hour)
		*resets_r = ms + LIMITS_HOUR;
	if (lim->bytes_per_hour > 0 && *bytes_r >= 0 &&
	    (uint64_t)*bytes_r >= lim->bytes_per_hour &&
	    bs + LIMITS_HOUR > *resets_r)
		*resets_r = bs + LIMITS_HOUR;
	return 0;
}

/* The budget's facts for a reader, into ctx. */
static void limits_budget_ctx(struct handle *h, struct template_ctx *ctx,
			      int64_t resets)
{
	const struct server_limits *lim = &h->srv->cfg.limits;

	if (lim->mails_per_hour > 0)
		template_ctx_set_int(ctx, "mails_per_hour",
				     (long)lim->mails_per_hour);
	if (lim->bytes_per_hour > 0)
		limits_size_ctx(ctx, "bytes_per_hour", lim->bytes_per_hour);
	if (resets != 0)
		limits_hhmm_ctx(ctx, "resets_at", resets);
}

int limits_gate(struct handle *h, struct server_outcome *out)
{
	const struct server_limits *lim = &h->srv->cfg.limits;
	int64_t mails = 0, bytes = 0, resets = 0, bresets = 0, notices = 0;
	char key[96];
	const char *error;
	int r;

	if (lim->mails_per_hour == 0 && lim->bytes_per_hour == 0)
		return 0;
	if ((r = limits_counted(h)) <= 0)
		return r;
	if (limits_budget(h, &mails, &bytes, &resets, &bresets) < 0)
		return -1;
	if (resets == 0)
		return 0;
	/* One notice for a spent hour, then nothing until it resets. */
	snprintf(key, sizeof(key), "sent-notice:%" PRId64 ":%" PRId64,
		 h->me->id, resets);
	if (store_rate_add(h->srv->store, key, h->now, LIMITS_HOUR, 1,
			   &notices, NULL, &error) < 0)
		return server_store_fail(h, error);
	if (notices > 1) {
		out->status = SERVER_IGNORED;
		snprintf(out->outcome, sizeof(out->outcome),
			 "ignored: send budget spent (%" PRId64 " mails, %"
			 PRId64 " bytes this hour)", mails, bytes);
		return 1;
	}
	h->mail_refusal = "send_budget";
	limits_budget_ctx(h, h->reply, resets);
	return 0;
}

int limits_archive(struct handle *h, const struct game *g, int64_t *bytes_r)
{
	const struct server_limits *lim = &h->srv->cfg.limits;
	int64_t asked = 0, at = 0, weight = 0, mails = 0, used = 0;
	int64_t resets = 0, bresets = 0;
	char key[96];
	const char *error;
	bool alone;
	int counted;

	*bytes_r = 0;
	/* One archive of a game per player a day: it does not change
	 * while the game runs faster than that, and once it is over not
	 * at all. */
	snprintf(key, sizeof(key), "archive:%" PRId64 ":%" PRId64, h->me->id,
		 g->row->id);
	if (store_rate_peek(h->srv->store, key, h->now, LIMITS_DAY, &asked,
			    &at, &error) < 0)
		return server_store_fail(h, error);
	if (asked > 0) {
		game_refuse(h, "archive_sent_today", g->row->id);
		limits_hhmm_ctx(h->refusal, "at", at);
		server_set_utc(h->refusal, "again_at", at + LIMITS_DAY, false);
		return REFUSED;
	}
	if (store_game_mail_bytes(h->srv->store, g->row->id, &weight,
				  &error) < 0)
		return server_store_fail(h, error);
	if ((counted = limits_counted(h)) < 0)
		return -1;
	if (lim->bytes_per_hour > 0 && counted) {
		if (limits_budget(h, &mails, &used, &resets, &bresets) < 0)
			return -1;
		/* Too big for any hour, or for what is left of this one. */
		alone = (uint64_t)weight > lim->bytes_per_hour;
		if (alone || (uint64_t)(used + weight) > lim->bytes_per_hour) {
			game_refuse(h, alone ? "archive_too_big" :
				    "archive_over_budget", g->row->id);
			limits_size_ctx(h->refusal, "size", (uint64_t)weight);
			limits_budget_ctx(h, h->refusal, alone ? 0 : bresets);
			return REFUSED;
		}
	}
	if (limits_add(h, key, LIMITS_DAY, 1) < 0)
		return -1;
	*bytes_r = weight;
	return 0;
}

int limits_export(struct handle *h)
{
	int64_t asked = 0, at = 0;
	char key[64];
	const char *error;

	/* What the club holds about a player changes by the move, not by
	 * the minute, and each export reads all of it. */
	limits_key(key, sizeof(key), "export", h->me->id);
	if (store_rate_peek(h->srv->store, key, h->now, LIMITS_DAY, &asked,
			    &at, &error) < 0)
		return server_store_fail(h, error);
	if (asked > 0) {
		server_refuse(h, "export_sent_today");
		limits_hhmm_ctx(h->refusal, "at", at);
		server_set_utc(h->refusal, "again_at", at + LIMITS_DAY, false);
		return REFUSED;
	}
	return limits_add(h, key, LIMITS_DAY, 1) < 0 ? -1 : 0;
}

int limits_hint(struct handle *h, const struct game *g)
{
	const struct server_limits *lim = &h->srv->cfg.limits;
	int64_t n = 0, start = 0;
	char key[64];
	const char *error;

	if (lim->hints_per_hour == 0)
		return 0;
	limits_key(key, sizeof(key), "hints", h->me->id);
	if (store_rate_peek(h->srv->store, key, h->now, LIMITS_HOUR, &n,
			    &start, &error) < 0)
		return server_store_fail(h, error);
	if (n >= lim->hints_per_hour) {
		game_refuse(h, "hint_limit", g->row->id);
		template_ctx_set_int(h->refusal, "per_hour",
				     (long)lim->hints_per_hour);
		limits_hhmm_ctx(h->refusal, "resets_at", start + LIMITS_HOUR);
		return REFUSED;
	}
	return limits_add(h, key, LIMITS_HOUR, 1);
}

int limits_challenge(struct handle *h, const struct store_player *target)
{
	const struct server_limits *lim = &h->srv->cfg.limits;
	int64_t open = 0, n = 0, start = 0;
	size_t out = 0;
	char key[96];
	const char *error;
	int r;

	if (target != NULL) {
		/* One open challenge between two players: the second would
		 * only be a second mail to the same person. */
		r = store_game_challenge_between(h->srv->store, h->me->id,
						 target->id, &open, &error);
		if (r < 0)
			return server_store_fail(h, error);
		if (r == 1) {
			game_refuse(h, "challenge_open", open);
			template_ctx_set(h->refusal, "name", target->name);
			return REFUSED;
		}
	}
	if (lim->open_challenges > 0) {
		if (store_game_challenges_out(h->srv->store, h->me->id, &out,
					      &error) < 0)
			return server_store_fail(h, error);
		if (out >= lim->open_challenges) {
			server_refuse(h, "challenges_out");
			template_ctx_set_int(h->refusal, "value", (long)out);
			template_ctx_set_int(h->refusal, "max",
					     (long)lim->open_challenges);
			return REFUSED;
		}
	}
	if (target == NULL || lim->challenges_per_day == 0)
		return 0;
	snprintf(key, sizeof(key), "challenge:%" PRId64 ":%" PRId64,
		 h->me->id, target->id);
	if (store_rate_peek(h->srv->store, key, h->now, LIMITS_DAY, &n, &start,
			    &error) < 0)
		return server_store_fail(h, error);
	if (n >= lim->challenges_per_day) {
		server_refuse(h, "challenges_today");
		template_ctx_set(h->refusal, "name", target->name);
		template_ctx_set_int(h->refusal, "max",
				     (long)lim->challenges_per_day);
		server_set_utc(h->refusal, "again_at", start + LIMITS_DAY,
			       false);
		return REFUSED;
	}
	return limits_add(h, key, LIMITS_DAY, 1);
}

int limits_bot_games(struct handle *h)
{
	const struct server_bot_config *bc = &h->srv->cfg.bot;
	size_t n = 0;
	const char *error;

	if (bc->max_games_per_player == 0)
		return 0;
	if (store_bot_games_of(h->srv->store, h->me->id, &n, &error) < 0)
		return server_store_fail(h, error);
	if (n < bc->max_games_per_player)
		return 0;
	server_refuse(h, "bot_games_per_player");
	template_ctx_set_int(h->refusal, "value", (long)n);
	template_ctx_set_int(h->refusal, "max", (long)bc->max_games_per_player);
	return REFUSED;
}
