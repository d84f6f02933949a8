/* name_table.c -- an enum's code words both ways; see name_table.h. */
#include <config.h> /* autoconf's: _GNU_SOURCE */

#include "util/name_table.h"

#include <string.h>

const char *name_table_name(const char *const *names, size_t n, unsigned i)
{
	if (i >= n || names[i] == NULL)
		return "unknown";
	return names[i];
}

int name_table_parse(const char *const *names, size_t n, const char *word,
		     unsigned *i_r)
{
	unsigned i;

	for (i = 0; i < n; i++)
		if (names[i] != NULL && strcmp(names[i], word) == 0) {
			*i_r = i;
			return 0;
		}
	return -1;
}
