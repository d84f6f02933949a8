/* buf.h -- a growable byte buffer, always NUL-terminated, for building text
 * (boards, replies, SQL-free records) above the rules core.
 *
 * Allocation failure is a broken invariant for this program (we never
 * handle a mail in a degraded way), so the append functions abort with a
 * message instead of returning an error.
 */
#ifndef ASHES_UTIL_BUF_H
#define ASHES_UTIL_BUF_H

#include <stdarg.h>
#include <stddef.h>

struct buf {
	char *data; /* NUL-terminated; NULL until the first append */
	size_t len;
	size_t cap;
};

#define BUF_INIT { NULL, 0, 0 }

void buf_append(struct buf *b, const void *data, size_t len);
void buf_puts(struct buf *b, const char *s);
void buf_putc(struct buf *b, char c);
void buf_printf(struct buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void buf_vprintf(struct buf *b, const char *fmt, va_list ap);
/* Empty the buffer, keeping its memory. */
void buf_reset(struct buf *b);
/* The text so far ("" if nothing was appended); owned by b. */
const char *buf_str(const struct buf *b);
/* Hand the text to the caller (who frees it) and empty b. */
char *buf_steal(struct buf *b);
void buf_free(struct buf *b);

#endif
