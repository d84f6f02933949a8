/* tests/check_run.h: the end of every Check program's main() -- run a
 * suite, print Check's report, and turn its failures into the exit
 * status, so each program states only which tests it has. */
#ifndef ASHES_TESTS_CHECK_RUN_H
#define ASHES_TESTS_CHECK_RUN_H

#include <check.h>

/* Run every test of s (CK_ENV and CK_FORK are honoured as Check reads
 * them); frees the runner and with it s.  Returns how many failed. */
static inline int test_failures(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed;
}

/* The exit status of a test program that runs s: 0 when all passed. */
static inline int test_run(Suite *s)
{
	return test_failures(s) != 0;
}

#endif
