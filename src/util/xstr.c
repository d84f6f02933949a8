/* xstr.c -- string copies that abort on allocation failure; see xstr.h. */
#include "util/xstr.h"

#include <string.h>

#include "util/xalloc.h"

char *xstrdup(const char *s)
{
	size_t n;

	if (s == NULL)
		return NULL;
	n = strlen(s) + 1;
	return memcpy(xrealloc(NULL, n), s, n);
}
