/* tests/check_run.h: what every Check program's main() does -- make a
 * suite of a list of tests, run it, print Check's report, and turn its
 * failures into the exit status -- so each program states only which
 * tests it has. */
#ifndef ASHES_TESTS_CHECK_RUN_H
#define ASHES_TESTS_CHECK_RUN_H

#include <check.h>

/* A list of tests for suite_add_tests and test_suite: a NULL-terminated
 * array of the START_TEST names given. */
#define TESTS(...) ((const TTest *const[]){ __VA_ARGS__, NULL })

/* Add to s a test case `name` of the NULL-terminated tests, each run
 * between before and after (both NULL: no fixture), in a time limit of
 * `timeout` seconds (0: Check's default).  Returns the test case, for
 * what else it needs (loop tests). */
static inline TCase *suite_add_tests(Suite *s, const char *name,
				     SFun before, SFun after, double timeout,
				     const TTest *const *tests)
{
	TCase *tc = tcase_create(name);

	if (before != NULL || after != NULL)
		tcase_add_checked_fixture(tc, before, after);
	if (timeout > 0)
		tcase_set_timeout(tc, timeout);
	for (; *tests != NULL; tests++)
		tcase_add_test(tc, *tests);
	suite_add_tcase(s, tc);
	return tc;
}

/* A suite `name` of one test case `tcase` (see suite_add_tests). */
static inline Suite *test_suite(const char *name, const char *tcase,
				SFun before, SFun after, double timeout,
				const TTest *const *tests)
{
	Suite *s = suite_create(name);

	suite_add_tests(s, tcase, before, after, timeout, tests);
	return s;
}

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

/* The main() of a program of one suite: test_suite(name, tcase, before,
 * after, timeout, the tests that follow) run by test_run. */
#define TEST_MAIN(name, tcase, before, after, timeout, ...) \
	int main(void) \
	{ \
		return test_run(test_suite(name, tcase, before, after, \
					   timeout, TESTS(__VA_ARGS__))); \
	}

#endif
