/* inbound_clients.h -- what mail clients do to a player's text on its way,
 * undone before the commands are read (called by inbound_body.c): the
 * soft line breaks of format=flowed (RFC 3676); Gmail's text/plain, whose
 * double blanks became U+00A0 (its HTML alternative keeps them).  Kept
 * out of
 * inbound_body.c so the reading of signatures there stays one concern. */
#ifndef ASHES_MAIL_INBOUND_CLIENTS_H
#define ASHES_MAIL_INBOUND_CLIENTS_H

#include <libetpan/libetpan.h>
#include <stdbool.h>

#include "util/buf.h"

/* When part (a text/plain entity) says format=flowed, joins the soft line
 * breaks of *text (its decoded UTF-8) as its delsp says; otherwise leaves
 * it alone.  Only for text whose trailing spaces the signature covers (a
 * PGP/MIME part) or that is not signed: a clearsigned text's are not
 * signed (gpg drops them), so its line breaks stay as gpg returns them. */
void inbound_unflow(const struct mailmime *part, struct buf *text);

/* The text/html sibling of part in its multipart/alternative, or NULL:
 * where Gmail keeps the spaces its text/plain changed. */
struct mailmime *inbound_html_alternative(const struct mailmime *part);

/* Does s (len bytes, UTF-8) hold a U+00A0 no-break space? */
bool inbound_has_nbsp(const char *s, size_t len);

/* Gmail's case, decided from the bytes alone so that the inbound reading
 * and the archive's export (pgp_export.c) take the same block: the
 * clearsigned block (n bytes) of the text/plain part plain holds U+00A0,
 * and plain's text/html alternative, rendered (mime_html_to_text), holds
 * a clearsigned block without one.  Then true, with the rendering in
 * *html_text and its block at *start_r, *n_r; else false. */
bool inbound_nbsp_html_block(const struct mailmime *plain, const char *block,
			     size_t n, struct buf *html_text, size_t *start_r,
			     size_t *n_r);

#endif
