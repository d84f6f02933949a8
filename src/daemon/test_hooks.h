/* test_hooks.h -- the one switch for the environment variables through
 * which the tests steer a running ashesd: a crash, a kill or a failing
 * gpg at a chosen point, a hung loop, the OpenPGP pre-scan off, the clock
 * moved.
 *
 * They are compiled in only by ./configure --enable-test-hooks, which
 * scripts/build (what `make check`, scripts/test and the demo build with)
 * turns on; a build without it -- a packager's, a production one --
 * reads none of these variables, and every function here answers "not
 * set".  The tests that use them: tests/e2e (lib.sh's E2E_CLOCK_OFFSET
 * and E2E_DAEMON_ENV), tests/daemon/test_daemon.c (the clock).
 */
#ifndef ASHES_DAEMON_TEST_HOOKS_H
#define ASHES_DAEMON_TEST_HOOKS_H

#include <stdbool.h>
#include <stddef.h>

/* ASHESD_TEST_CLOCK_OFFSET_FILE (timing.h): the file holding the seconds
 * the daemon's clock is moved by, or NULL. */
const char *test_hook_clock_offset_file(void);

/* ASHES_TEST_KILL_AT=after-commit|after-archive: the daemon kills itself
 * with SIGKILL at that point of handling a mail, so the tests prove that
 * a crash there loses nothing and repeats nothing. */
void test_hook_kill_at(const char *point);

/* ASHES_TEST_CRASH_ON=TEXT: the daemon dies of SIGSEGV while reading a
 * mail whose bytes hold TEXT, as a parser bug would (in whichever worker
 * reads it), so the tests prove such a mail is set aside after
 * GUARD_MAX_ATTEMPTS crashes and the mail behind it still goes through. */
void test_hook_crash_on(const char *data, size_t size);

/* ASHES_TEST_FAIL_ON=TEXT: true when reading a mail whose bytes hold TEXT
 * is to fail as if gpg could not run, so the tests prove that the mails
 * before it are handled, and it and those behind it are offered again. */
bool test_hook_fail_on(const char *data, size_t size);

/* ASHES_TEST_HANG_ON=TEXT: the mail loop stops (sleeps, for an hour at
 * most) when it takes a mail whose bytes hold TEXT, as a loop stuck in a
 * library call would, so the tests prove the watchdog pings stop and
 * `ashes status` sees the heartbeat age (tests/daemon/test_ashesd.c,
 * tests/daemon/test_status.sh). */
void test_hook_hang_on(const char *data, size_t size);

/* ASHES_TEST_NO_PGP_SCAN=1: the OpenPGP shape pre-scan is off, so the
 * tests prove the gpg budget alone stops a compression bomb. */
bool test_hook_no_pgp_scan(void);

#endif
