/* mime.h -- MIME reading for inbound mail, on top of libetpan's parser:
 * content types, transfer decoding (quoted-printable, base64), charset
 * conversion to UTF-8 (iconv), a crude but safe HTML-to-text, the body text
 * part of a message, the exact raw bytes of a multipart/signed entity's
 * signed part (RFC 3156), and armored OpenPGP blocks inside text.
 *
 * libetpan's struct mailmime is used only inside src/mail (mime.c and
 * inbound*.c); it never leaves this layer.  All parse offsets refer to the
 * buffer given to mime_parse, which must outlive the tree.
 */
#ifndef ASHES_MAIL_MIME_H
#define ASHES_MAIL_MIME_H

#include <stdbool.h>
#include <stddef.h>

#include "util/buf.h"

struct mailmime;

/* The deepest a mail may nest, counted in containers: multipart parts
 * with a boundary and message/rfc822 parts (what libetpan parses as
 * nested; a part without Content-Type in a multipart/digest is one), the
 * mail itself not counted -- so 32 multiparts inside each other are fine,
 * 33 are refused.  Comments "( ( ... ) )" in a header may nest as deep.
 * libetpan recurses without limit on both, so deeper mail would overflow
 * the stack; real mail nests a handful of levels. */
#define MIME_MAX_DEPTH 32

/* Parse a whole message (headers and body).  data must stay alive and
 * unchanged while the tree is used.  Returns -1 with a static error if
 * mime_check_structure refuses it or libetpan cannot parse it at all.
 * Free with mime_free(). */
int mime_parse(const char *data, size_t len, struct mailmime **mime_r,
	       const char **error_r);

/* Walk data as libetpan's mailmime_parse will, without recursion, and
 * refuse (-1, static error) a mail nested deeper than MIME_MAX_DEPTH, a
 * header whose comments nest deeper, or a boundary libetpan mishandles.
 * Otherwise 0, and *depth_r (if not NULL) is the mail's depth as counted
 * for MIME_MAX_DEPTH.  mime_parse calls it first. */
int mime_check_structure(const char *data, size_t len, unsigned *depth_r,
			 const char **error_r);

/* Refuse (-1, static error) a header block, starting at data, whose
 * comments nest deeper than MIME_MAX_DEPTH: call it before giving a
 * header to libetpan's mailimf_* parsers yourself. */
int mime_check_header(const char *data, size_t len, const char **error_r);
void mime_free(struct mailmime **mime);

/* The body entity of a parsed message (the entity below the top-level
 * message headers), or m itself if m is not a message. */
struct mailmime *mime_message_body(struct mailmime *m);

/* Lower-case "type/subtype" of an entity in out (truncated to outlen);
 * an entity without Content-Type is "text/plain" (RFC 2045 5.2). */
void mime_type(const struct mailmime *m, char *out, size_t outlen);
/* A Content-Type parameter ("boundary", "charset", "protocol"...), owned
 * by the tree, or NULL. */
const char *mime_param(const struct mailmime *m, const char *name);
/* True if the entity says Content-Disposition: attachment. */
bool mime_is_attachment(const struct mailmime *m);

/* Append the entity's body, with its transfer encoding undone, to *out.
 * Returns -1 with a static error if it cannot be decoded. */
int mime_decode(const struct mailmime *m, struct buf *out,
		const char **error_r);

/* Convert text in charset (NULL or "" meaning us-ascii) to UTF-8 appended
 * to *out.  Input that is not valid in its charset, or an unknown charset,
 * gives -1 and a reason in *error_r (valid until the next call in this
 * thread).  NUL bytes are refused too: they have no place in a command. */
int mime_to_utf8(const char *charset, const char *in, size_t len,
		 struct buf *out, const char **error_r);

/* Append a plain-text rendering of UTF-8 HTML to *out (html.c): tags
 * removed, script/style/head content dropped, block tags become line
 * breaks, entities decoded (named basics and numeric), blank lines
 * dropped.  What the sender's client quoted -- any <blockquote> (Apple
 * Mail, Thunderbird, Gmail), Gmail's gmail_quote and Thunderbird's
 * moz-cite-prefix divs, Yahoo's yahoo_quoted, and Outlook's reply header
 * (id divRplyFwdMsg or appendonsend) with everything after it -- is
 * dropped and stands as one line "> (quoted text)", which the command
 * reader skips as quoted.  Never fails. */
void mime_html_to_text(const char *html, size_t len, struct buf *out);

/* The entity holding the readable text below root: the first inline
 * text/plain, else the first inline text/html (*is_html_r set).  Parts of
 * attached messages are not searched.  NULL if there is none. */
struct mailmime *mime_find_text_part(struct mailmime *root, bool *is_html_r);

/* The first multipart/signed entity of protocol application/pgp-signature
 * at or below m (PGP/MIME, RFC 3156), or NULL.  The depth is mime_parse's
 * bound. */
struct mailmime *mime_find_pgp_signed(struct mailmime *m);

/* Copy in to *out with every line end made CRLF (bare LF and bare CR). */
void mime_to_crlf(const char *in, size_t len, struct buf *out);

/* For a multipart/signed entity ms inside the buffer raw: the exact bytes
 * of its first (signed) part, headers included, without the CRLF that
 * belongs to the following boundary, plus both parts.  Returns -1 with a
 * static error if ms is not a well-formed two-part multipart/signed. */
int mime_signed_parts(const struct mailmime *ms, const char *raw, size_t rawlen,
		      const char **signed_r, size_t *signed_len_r,
		      struct mailmime **signed_part_r,
		      struct mailmime **sig_part_r, const char **error_r);

/* Find the next armored block "-----BEGIN <label>-----" ... "-----END
 * <label>-----" in text at or after *pos; set *start_r and *len_r (covering
 * both armor lines) and advance *pos.  Returns false when there is none. */
bool mime_find_armor(const char *text, size_t len, const char *label,
		     size_t *pos, size_t *start_r, size_t *len_r);

/* Find a clearsigned block: from a "-----BEGIN PGP SIGNED MESSAGE-----"
 * line to the end of the "-----END PGP SIGNATURE-----" line after it. */
bool mime_find_clearsigned(const char *text, size_t len, size_t *start_r,
			   size_t *len_r);

/* Calls fn for each entity below root, depth first, root first; parts of
 * attached messages (message/rfc822) are visited too. */
void mime_walk(struct mailmime *root,
	       void (*fn)(struct mailmime *m, void *ctx), void *ctx);

#endif
