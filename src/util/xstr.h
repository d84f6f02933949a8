/* xstr.h -- string copies that abort on allocation failure, the policy of
 * util/buf.h: this program never handles a mail in a degraded way, so
 * running out of memory is a broken invariant, not an error to pass up.
 */
#ifndef ASHES_UTIL_XSTR_H
#define ASHES_UTIL_XSTR_H

/* A copy of s (caller frees), or NULL when s is NULL.  Aborts with a
 * message if memory runs out. */
char *xstrdup(const char *s);

#endif
