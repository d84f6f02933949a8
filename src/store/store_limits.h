/* store_limits.h -- the part of the store's API (store.h, whose
 * conventions hold here) that bounds what one sender can make the daemon
 * send and compute: amounts counted in fixed windows (the rate_limits
 * table of sql/001, now with an amount and the window's start), what an
 * archive of a game weighs, open challenges between players and bot
 * games per player (store_limits.c).  The service counts in its one
 * transaction, so a mail handed out twice counts once.  Included by
 * store.h. */
#ifndef ASHES_STORE_LIMITS_H
#define ASHES_STORE_LIMITS_H

#include <stddef.h>
#include <stdint.h>

struct store;

/* ---- counters of one sender in a window (store_mailbox.c) ---- */

/* Count one message from sender (an address or fingerprint, compared
 * case-insensitively) in a fixed window of window_seconds: when the
 * current window is older than that a new one starts at now.  *count_r
 * gets the number of messages in the current window, this one included;
 * the caller compares it with its limit (and answers a flood once, when
 * count == limit + 1). */
int store_rate_hit(struct store *store, const char *sender, int64_t now,
		   int64_t window_seconds, long *count_r,
		   const char **error_r);
/* The current count without counting (0 if none or the window is over). */
int store_rate_get(struct store *store, const char *sender, int64_t now,
		   int64_t window_seconds, long *count_r,
		   const char **error_r);
/* Forget senders whose window started before `before`. */
int store_rate_prune(struct store *store, int64_t before,
		     const char **error_r);

/* ---- amounts (store_limits.c) ---- */

/* Add amount to key's counter in a fixed window of window_seconds (when
 * the current window is that old or older a new one starts at now, from
 * 0), as store_rate_hit() counts one.  *total_r: the counter after,
 * *start_r: when its window began (either may be NULL). */
int store_rate_add(struct store *store, const char *key, int64_t now,
		   int64_t window_seconds, int64_t amount, int64_t *total_r,
		   int64_t *start_r, const char **error_r);
/* key's counter and its window's start, without counting: 0 and 0 when
 * there is none or its window is over. */
int store_rate_peek(struct store *store, const char *key, int64_t now,
		    int64_t window_seconds, int64_t *total_r,
		    int64_t *start_r, const char **error_r);

/* The bytes of the mails an archive of game_id carries (its moves',
 * notes', clock and ladder events' and requests' inbound mails, each
 * once), into *bytes_r: what its .tar.gz weighs at most before
 * compression. */
int store_game_mail_bytes(struct store *store, int64_t game_id,
			  int64_t *bytes_r, const char **error_r);

/* The open challenge (status 'challenge') between players a and b, made
 * by either: 1 and *game_id_r, 0 if none. */
int store_game_challenge_between(struct store *store, int64_t a, int64_t b,
				 int64_t *game_id_r, const char **error_r);
/* The challenges player_id made that wait for an answer (status
 * 'challenge' or 'open'), into *count_r. */
int store_game_challenges_out(struct store *store, int64_t player_id,
			      size_t *count_r, const char **error_r);
/* The bot games player_id plays that are not over, into *count_r. */
int store_bot_games_of(struct store *store, int64_t player_id,
		       size_t *count_r, const char **error_r);

#endif
