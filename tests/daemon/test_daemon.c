#include <check.h>
#include <stdlib.h>
int main(void)
{
	Suite *s = suite_create("x");
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed != 0;
}
