/* msgid.h -- a Message-ID as the store keeps and the service compares it:
 * without its angle brackets.  Mail carries "<id@host>" (a header, a
 * delivery report, a reference); everything past the mail layer speaks
 * of "id@host".  The one normaliser for every layer that meets both.
 */
#ifndef ASHES_UTIL_MSGID_H
#define ASHES_UTIL_MSGID_H

#include <stdbool.h>
#include <stddef.h>

/* id without its angle brackets -- a leading '<' and a trailing '>' each
 * dropped when there, so a broken "<id" keeps what it names -- copied
 * into buf (len > 0; cut at len - 1 bytes).  Returns buf, or NULL when id
 * is NULL. */
const char *msgid_bare(const char *id, char *buf, size_t len);

/* Is id a whole "<...>" with something inside? */
bool msgid_bracketed(const char *id);

#endif
