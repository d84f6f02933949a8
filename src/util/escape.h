/* escape.h -- text from outside (mail headers, signed lines, notes, the
 * outcome of a mail) made safe for a terminal and for the log: every
 * control character a terminal acts on -- C0 (ESC, CR, BS...), DEL, C1
 * (U+0080..U+009F, U+009B the one-byte CSI among them) -- and the
 * invisible characters that reorder or hide text (bidi overrides and
 * isolates, zero-width characters, line and paragraph separators) are
 * written as \xHH or \uXXXX, and so is every byte that is not UTF-8 (a
 * lone 0x9B is a CSI to an 8-bit terminal).  Everything else is copied.
 * One helper for the log writer (config/log.c) and every listing of
 * `ashes` that prints stored mail data. */
#ifndef ASHES_UTIL_ESCAPE_H
#define ASHES_UTIL_ESCAPE_H

#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"

/* Keep LF and TAB as they are: for a text block printed whole (the
 * newlines are its own); by default they are escaped too, so a value can
 * never start a line of its own. */
#define ESCAPE_KEEP_LINES 1u

/* Append the len bytes of s to *out, escaped as above. */
void escape_append(struct buf *out, const char *s, size_t len,
		   unsigned flags);

/* Length of the UTF-8 sequence at s (at most len bytes, len >= 1) and
 * its code point; 0 when it is not one (bad lead, short, overlong,
 * surrogate, past U+10FFFF, as RFC 3629 says).  Also the JSON writer's
 * (json.c). */
size_t escape_utf8(const unsigned char *s, size_t len, uint32_t *cp);

/* A new string (xmalloc'd; free it): s escaped with no flags; "-" for
 * NULL. */
char *escape_str(const char *s);

#endif
