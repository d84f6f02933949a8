/* xstr.c -- string copies that abort on allocation failure; see xstr.h. */
#include "util/xstr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *xstrdup(const char *s)
{
	char *d;

	if (s == NULL)
		return NULL;
	d = strdup(s);
	if (d == NULL) {
		fputs("ashes: out of memory\n", stderr);
		abort();
	}
	return d;
}
