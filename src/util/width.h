/* width.h -- how many columns a UTF-8 text takes on a terminal or in a
 * mail reader's fixed-width font: East Asian wide and fullwidth
 * characters (Hangul syllables, CJK ideographs, fullwidth forms) take
 * two, combining marks and zero-width characters none, the rest one.  So
 * tables and wrapped lines stay aligned whatever the language.
 *
 * A small table of ranges (Unicode 15's East_Asian_Width W and F, and the
 * general categories Mn/Me plus Hangul's medial and final jamo for zero)
 * rather than wcwidth(3): that needs a UTF-8 locale selected with
 * setlocale(), which is process-wide and would change how every thread
 * of the daemon formats and parses text.
 */
#ifndef ASHES_UTIL_WIDTH_H
#define ASHES_UTIL_WIDTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"

/* The columns of code point c: 0, 1 or 2 (controls: 0). */
int width_char(uint32_t c);
/* The columns of the UTF-8 text s; a byte that is not part of a
 * well-formed sequence counts one column (as a reader shows U+FFFD). */
size_t width_text(const char *s);
/* The same for the first len bytes of s. */
size_t width_textn(const char *s, size_t len);
/* Append s, then blanks up to `columns` display columns (nothing more
 * if s is as wide or wider). */
void width_pad(struct buf *out, const char *s, size_t columns);

#endif
