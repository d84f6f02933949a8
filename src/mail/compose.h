/* compose.h -- turn an outgoing message (addresses, thread ids, UTF-8 text
 * and an optional HTML alternative) into the exact RFC 5322 bytes handed to
 * SMTP: CRLF line ends, folded and RFC 2047-encoded headers, UTF-8 text in
 * quoted-printable, multipart/alternative when there is HTML (with an
 * inline picture in a multipart/related beside the HTML), a file
 * attached in a multipart/mixed, and
 * optionally a multipart/signed (RFC 3156) wrapper made by the caller's
 * signing function.
 *
 * The one place that writes header text: callers give typed values (ids
 * without <>, a display name apart from its address, a command for
 * List-Unsubscribe) and this module writes the headers from them.  Knows
 * nothing of the rules or the store: the daemon fills the struct from an
 * outbox row.
 */
#ifndef ASHES_MAIL_COMPOSE_H
#define ASHES_MAIL_COMPOSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"

struct compose_msg {
	const char *from_address; /* "ashes@club.example" */
	/* Optional display name: From: "NAME" <ADDRESS> (RFC 2047-encoded
	 * when not ASCII); without it From is the bare address. */
	const char *from_name;
	const char *to;          /* one address, as "Name <a@b>" or "a@b" */
	const char *reply_to;    /* optional */
	const char *subject;     /* UTF-8; encoded as RFC 2047 when needed */
	const char *message_id;  /* "id@domain", without <> */
	const char *in_reply_to; /* optional "id@domain", without <> */
	const char *references;  /* optional "<a@b> <c@d>", as written */
	/* RFC 3834: an answer to a mail is Auto-Submitted: auto-replied, a
	 * notice nobody asked for auto-generated.  Every mail has one. */
	bool auto_reply;
	/* Optional List-Unsubscribe (RFC 2369): a mailto: link to
	 * unsubscribe_to whose subject and body (RFC 6068) are
	 * unsubscribe_command, e.g. "unobserve 12". */
	const char *unsubscribe_to;
	const char *unsubscribe_command;
	const char *x_loop;           /* optional: our own address */
	/* Optional whole Autocrypt header, folded, CRLF line ends, as
	 * autocrypt_format() writes it: the club's key for clients that
	 * encrypt (autocrypt.h).  Written as it is. */
	const char *autocrypt;
	int64_t date;                 /* unix seconds, for the Date header */
	const char *text;             /* UTF-8 text/plain body (required) */
	const char *html;             /* optional UTF-8 text/html alternative */
	/* Optional picture the html shows as <img src="cid:IMAGE_CID">: sent
	 * as a base64 part of a multipart/related (RFC 2387) beside the html,
	 * so the text/plain part stays the first alternative, untouched.
	 * Ignored without html. */
	const void *image;
	size_t image_len;
	const char *image_type;       /* "image/png" or "image/svg+xml" */
	const char *image_cid;        /* Content-ID without <> */
	/* The file name offered; NULL: by the type, "board.png" or
	 * "board.svg" (none for another type). */
	const char *image_name;
	/* Optional file attached after the text (and its html), the two in
	 * a multipart/mixed: sent in base64 as a part of its own,
	 * Content-Disposition: attachment with attachment_name, e.g. a
	 * game's archive, "game-12.tar.gz", "application/gzip".  Ignored
	 * without a name and a type. */
	const void *attachment;
	size_t attachment_len;
	const char *attachment_type;
	const char *attachment_name;  /* ASCII, no quote or backslash */
	/* Optional files after the text (and the attachment), each a part
	 * of the multipart/mixed of its own in base64, in order: the
	 * pictures of an analysis.  Shown inline where the reader can
	 * (Content-Disposition: inline, with the file name). */
	const struct compose_part *parts;
	size_t nparts;
};

/* One file of compose_msg.parts. */
struct compose_part {
	const void *data;
	size_t len;
	const char *type;             /* "image/png" */
	const char *name;             /* ASCII, no quote or backslash */
};

/* Sign `data` (the exact bytes of the MIME part to be covered) and return
 * an ASCII-armoured detached signature in *sig_r (caller frees), with the
 * hash algorithm name for micalg ("pgp-sha256") in *micalg_r (static).
 * 0 on success, -1 with *error_r. */
typedef int compose_sign_fn(void *ctx, const char *data, size_t len,
			    char **sig_r, const char **micalg_r,
			    const char **error_r);

/* Append the complete message to *out.  With `sign` non-NULL the body is
 * wrapped in multipart/signed.  Returns 0, or -1 with *error_r (static or
 * from the signer) when a required field is missing or signing failed; on
 * failure *out may hold a partial message and should be discarded. */
int compose_message(const struct compose_msg *m, compose_sign_fn *sign,
		    void *sign_ctx, struct buf *out, const char **error_r);

/* The header block of a mail the daemon reads back itself and never
 * sends (the bot's move, handed to the service in process): From, To,
 * Subject, Date, Message-ID and MIME-Version of m, nothing more, appended
 * to *out; the caller's body entity follows. */
void compose_plain_headers(const struct compose_msg *m, struct buf *out);

/* Quoted-printable encode len bytes of UTF-8 text with CRLF line ends and
 * soft breaks at 76 columns (RFC 2045 6.7); appends to *out.  Only
 * compose.c calls it in ashesd; exported, as compose_header is, so that
 * tests/mail/test_compose.c can check the breaks and the encoded words
 * on their own rather than inside a whole message. */
void compose_qp_encode(const char *text, size_t len, struct buf *out);

/* Append "Name: value" with RFC 2047 encoding of non-ASCII words and
 * folding at 78 columns, ending in CRLF. */
void compose_header(struct buf *out, const char *name, const char *value);

#endif
