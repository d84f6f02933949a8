/* corpus_check.c -- run a fuzz target's entry point over its seed corpus
 * (fuzz/corpus/FUZZ_CORPUS/ in the source tree) as an ordinary Check test,
 * so every `make check` exercises the targets without libFuzzer.
 */
#include <check.h>
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

START_TEST(t_corpus)
{
	const char *src = getenv("ASHES_SRCDIR");
	char dir[4096], path[8192];
	struct dirent *de;
	DIR *d;
	int n = 0;

	snprintf(dir, sizeof(dir), "%s/fuzz/corpus/%s", src ? src : ".",
		 FUZZ_CORPUS);
	d = opendir(dir);
	ck_assert_msg(d != NULL, "cannot open %s", dir);
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		FILE *f = fopen(path, "rb");
		ck_assert_msg(f != NULL, "cannot open %s", path);
		static uint8_t buf[1 << 20];
		size_t len = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		/* The target aborts on a broken invariant. */
		LLVMFuzzerTestOneInput(buf, len);
		n++;
	}
	closedir(d);
	ck_assert_int_gt(n, 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("fuzz corpus " FUZZ_CORPUS);
	TCase *tc = tcase_create("corpus");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, t_corpus);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed != 0;
}
