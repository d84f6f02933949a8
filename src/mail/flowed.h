/* flowed.h -- RFC 3676 format=flowed text back into the lines its writer
 * typed.  A pure function over bytes: no MIME, no allocation but the
 * output buffer.  Thunderbird (and any client sending format=flowed)
 * soft-wraps long lines at 72 columns by ending a line in a space; the
 * command reader must see the line as typed, or a long note is cut and
 * an option past the wrap is lost. */
#ifndef ASHES_MAIL_FLOWED_H
#define ASHES_MAIL_FLOWED_H

#include <stdbool.h>
#include <stddef.h>

#include "util/buf.h"

/* When format (a Content-Type's format parameter, NULL: none) names
 * flowed, replaces the contents of *text (CRLF or LF line ends) with
 * their decoding as RFC 3676 section 4 says: a line that ends in a space
 * (after its quote marks and space-stuffing are read) is joined with the
 * next line of the same quote depth, the space kept unless delsp (the
 * delsp parameter) is "yes"; the signature separator "-- " is never
 * flowed; space-stuffing is removed.  Quote marks are written back as
 * ">" per depth followed by one space before text ("> text", ">> text").
 * Every line comes out ending in LF, the last one too.  Otherwise leaves
 * *text alone. */
void flowed_decode_buf(const char *format, const char *delsp,
		       struct buf *text);

#endif
