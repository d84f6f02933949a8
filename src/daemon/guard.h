/* guard.h -- the mail loop's poison-mail guard: a mail that crashed the
 * daemon, or failed to be read, GUARD_MAX_ATTEMPTS times is set aside
 * instead of tried again, so one mail never stops or delays the others for
 * ever.
 *
 * A crash leaves no chance to count anything, so the UIDs in hand are
 * named in a small in-flight file (DATABASE.inflight) before they are read
 * and handled, and the file is removed after the commit.  It is written,
 * not synced: the page cache outlives a crash of the process, and after a
 * crash of the machine a mail only gets one attempt fewer counted.  What
 * the file names at start-up was in hand when the daemon died: each of
 * those mails gets an attempt counted by the service (committed at once).
 */
#ifndef ASHES_DAEMON_GUARD_H
#define ASHES_DAEMON_GUARD_H

#include <stddef.h>
#include <stdint.h>

struct server;

#define GUARD_MAX_ATTEMPTS 3

struct guard {
	struct server *server; /* borrowed: it keeps the count */
	char source[512];      /* the mailbox source's name (a copy: the
				* loop's struct is copied on reload) */
	char path[1024];       /* the in-flight file */
};

/* Set up for the database at db_path (the in-flight file goes beside
 * it) and a mailbox source; nothing is read or written yet. */
void guard_init(struct guard *g, const char *db_path, struct server *server,
		const char *source);
/* Name the mails in hand (replacing the list named before in one write,
 * so a crash in another thread never finds the file empty; not
 * thread-safe: callers in several threads hold a lock).  Failure is
 * logged: the guard then only misses a crash, the mail is handled all
 * the same. */
void guard_inflight_set(struct guard *g, uint32_t uidvalidity,
			const uint32_t *uids, size_t n);
void guard_inflight_clear(struct guard *g);
/* At start-up: count an attempt for each mail the in-flight file names. */
void guard_recover(struct guard *g, int64_t now);
/* The failed attempts at a mail so far, and the last reason (caller
 * frees; may be NULL).  -1 on a store failure (logged). */
int guard_attempts(struct guard *g, uint32_t uidvalidity, uint32_t uid,
		   long *attempts_r, char **why_r);
/* Count a failed attempt (error: why).  Logged. */
void guard_count_failure(struct guard *g, uint32_t uidvalidity, uint32_t uid,
			 const char *error, int64_t now);
/* The mail was handled or set aside: forget its attempts. */
void guard_forget(struct guard *g, uint32_t uidvalidity, uint32_t uid);

#endif
