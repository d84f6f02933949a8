/* tests/test_file.h: a file of given text written for a test (a
 * template, a mail in a folder), the test failing when it cannot be. */
#ifndef ASHES_TESTS_TEST_FILE_H
#define ASHES_TESTS_TEST_FILE_H

#include <check.h>
#include <stdio.h>

/* dir/name (dir/sub/name when sub is neither NULL nor "") holding text. */
static inline void write_file_in(const char *dir, const char *sub,
				 const char *name, const char *text)
{
	char path[512];
	FILE *f;

	if (sub != NULL && sub[0] != '\0')
		snprintf(path, sizeof(path), "%s/%s/%s", dir, sub, name);
	else
		snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_ge(fputs(text, f), 0);
	ck_assert_int_eq(fclose(f), 0);
}

#endif
