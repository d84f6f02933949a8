/* xalloc.c -- allocation that aborts on failure; see xalloc.h. */
#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>

/* The one message for every caller: what ran out does not matter. */
static void __attribute__((noreturn)) xalloc_die(void)
{
	fputs("ashes: out of memory\n", stderr);
	abort();
}

void *xzalloc(size_t size)
{
	void *p = calloc(1, size ? size : 1);

	if (p == NULL)
		xalloc_die();
	return p;
}

void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (p == NULL)
		xalloc_die();
	return p;
}
