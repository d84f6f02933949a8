/* test_hooks.c -- the tests' environment variables, read only in a build
 * configured with --enable-test-hooks; see test_hooks.h. */
#include <config.h> /* autoconf's: _GNU_SOURCE, ASHES_TEST_HOOKS */

#include "daemon/test_hooks.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/log.h"
#include "daemon/timing.h"

#ifdef ASHES_TEST_HOOKS

/* The value of the hook's variable, NULL when unset or empty. */
static const char *test_hook_get(const char *name)
{
	const char *v = getenv(name);

	return v != NULL && *v != '\0' ? v : NULL;
}

static bool test_hook_in(const char *name, const char *data, size_t size)
{
	const char *on = test_hook_get(name);

	return on != NULL && memmem(data, size, on, strlen(on)) != NULL;
}

const char *test_hook_clock_offset_file(void)
{
	return test_hook_get(TIMING_OFFSET_ENV);
}

void test_hook_kill_at(const char *point)
{
	const char *at = test_hook_get("ASHES_TEST_KILL_AT");

	if (at != NULL && strcmp(at, point) == 0) {
		log_notice("test hook: killing myself %s", point);
		raise(SIGKILL);
	}
}

void test_hook_crash_on(const char *data, size_t size)
{
	if (test_hook_in("ASHES_TEST_CRASH_ON", data, size)) {
		log_notice("test hook: crashing on this mail");
		raise(SIGSEGV);
	}
}

bool test_hook_fail_on(const char *data, size_t size)
{
	return test_hook_in("ASHES_TEST_FAIL_ON", data, size);
}

void test_hook_hang_on(const char *data, size_t size)
{
	if (!test_hook_in("ASHES_TEST_HANG_ON", data, size))
		return;
	log_notice("test hook: the loop hangs on this mail");
	/* In naps: a signal cuts one short, not the hang. */
	for (int i = 0; i < 3600; i++)
		sleep(1);
}

bool test_hook_no_pgp_scan(void)
{
	const char *v = test_hook_get("ASHES_TEST_NO_PGP_SCAN");

	return v != NULL && strcmp(v, "1") == 0;
}

#else /* a build without the tests' hooks: nothing is read */

const char *test_hook_clock_offset_file(void)
{
	return NULL;
}

void test_hook_kill_at(const char *point)
{
	(void)point;
}

void test_hook_crash_on(const char *data, size_t size)
{
	(void)data;
	(void)size;
}

bool test_hook_fail_on(const char *data, size_t size)
{
	(void)data;
	(void)size;
	return false;
}

void test_hook_hang_on(const char *data, size_t size)
{
	(void)data;
	(void)size;
}

bool test_hook_no_pgp_scan(void)
{
	return false;
}

#endif
