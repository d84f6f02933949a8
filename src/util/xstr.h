/* xstr.h -- string copies that abort on allocation failure, the policy of
 * util/xalloc.h.  The one aborting strdup: no module keeps a copy of its
 * own.
 */
#ifndef ASHES_UTIL_XSTR_H
#define ASHES_UTIL_XSTR_H

/* A copy of s (caller frees), or NULL when s is NULL.  Aborts with a
 * message if memory runs out. */
char *xstrdup(const char *s);

#endif
