/* timing.h -- ashesd's wall clock and how long its loop may sleep.
 *
 * Every "now" the mail loop gives the game service, the outbox and the
 * guard comes from timing_now(), and so does the loop's wait: time(NULL),
 * or, as a test hook (test_hooks.h: only in a build configured with
 * --enable-test-hooks), time(NULL) plus the whole seconds (an optional
 * sign and digits; may be negative) held in the file that the
 * environment variable ASHESD_TEST_CLOCK_OFFSET_FILE names.  The file is read again
 * at every call (a few bytes), so a test can move the daemon's time while
 * it runs; a missing or garbled file counts as 0, logged once (and again
 * if it goes bad after reading well).  Never set in production.
 *
 * Not thread-safe (the daemon is single-threaded).
 */
#ifndef ASHES_DAEMON_TIMING_H
#define ASHES_DAEMON_TIMING_H

#include <stddef.h>
#include <stdint.h>

/* The test hook's environment variable. */
#define TIMING_OFFSET_ENV "ASHESD_TEST_CLOCK_OFFSET_FILE"
/* The largest offset taken (about a hundred years); beyond is garbled. */
#define TIMING_OFFSET_MAX ((int64_t)100 * 366 * 86400)

/* Read the environment (once, at start-up; again for tests).  Logs a
 * notice when the test hook is set. */
void timing_init(void);

/* Epoch seconds: time(NULL) plus the test offset (0 unless the hook is
 * set).  Calls timing_init() first if it never ran. */
int64_t timing_now(void);

/* What a mail is charged at: its receipt time (the mailbox's, epoch
 * seconds) moved by the offset the last timing_now() read -- the test
 * hook moves the mailbox's time too -- and never after now.  0 (unknown)
 * stays 0, and so does a time that would fall before 1970. */
int64_t timing_received(int64_t received, int64_t now);

/* How long the loop may wait for mail: poll_ms, cut so that it wakes at
 * the earliest of the ndue times in due[] (epoch seconds; 0 entries are
 * ignored).  A time already come gives at most 1 s, so a deadline the
 * loop could not serve (the store busy) is tried again soon without
 * spinning.  At most 0x7fffffff. */
unsigned int timing_wait_ms(uint64_t poll_ms, int64_t now,
			    const int64_t *due, size_t ndue);

#endif
