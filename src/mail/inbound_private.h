/* inbound_private.h -- what inbound.c (the entry point, the header block,
 * bounces) and inbound_body.c (text, keys, signature) share.  Not an
 * interface: nothing outside those two files includes it. */
#ifndef ASHES_MAIL_INBOUND_PRIVATE_H
#define ASHES_MAIL_INBOUND_PRIVATE_H

#include "mail/inbound.h"
#include "util/buf.h"

struct mailmime;

/* Record why the text cannot be used: the first problem found stands. */
void inbound_problem(struct inbound_msg *msg, enum inbound_problem p,
		     const char *detail);

/* Read the body of the parsed mail root (canon: the mail's bytes with
 * CRLF line ends, that root was parsed from) into msg: the text, the keys
 * and the signature, PGP/MIME or clearsigned.  Returns 0, the mail's own
 * faults recorded in msg; -1 with *error_r only when GPGME failed. */
int inbound_read_body(struct inbound_msg *msg,
		      const struct inbound_options *opts, struct mailmime *root,
		      const struct buf *canon, const char **error_r);

#endif
