/* xalloc.h -- memory allocation that aborts on failure, the policy of
 * util/buf.h: this program never handles a mail in a degraded way, so
 * running out of memory is a broken invariant, not an error to pass up.
 * Every "out of memory" abort of util, store and the template engine goes
 * through here.
 */
#ifndef ASHES_UTIL_XALLOC_H
#define ASHES_UTIL_XALLOC_H

#include <stddef.h>

/* size zeroed bytes (at least one, so never NULL); caller frees. */
void *xzalloc(size_t size);
/* realloc(p, size), never NULL (size 0 gives a one-byte block). */
void *xrealloc(void *p, size_t size);

#endif
