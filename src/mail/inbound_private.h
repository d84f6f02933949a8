/* inbound_private.h -- what inbound.c (the entry point, the header block,
 * bounces) and inbound_body.c (text, keys, signature) share.  Not an
 * interface: nothing outside src/mail includes it. */
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

/* ---- shared by inbound_body.c and inbound_crypt.c ---- */

/* Keep a copy of the key data (once: a copy found again only adds
 * in_signed). */
void inbound_add_key(struct inbound_msg *msg, const char *data, size_t len,
		     bool attached, bool in_signed);
/* The command text (finished: LF, final LF, no BOM) and its pasted keys. */
void inbound_set_text(struct inbound_msg *msg, const struct buf *text,
		      bool html);
/* Freshness of a good signature against opts->now. */
void inbound_freshness(struct inbound_msg *msg,
		       const struct inbound_options *opts);
/* The digest of signed content (line ends and trailing blanks aside). */
void inbound_canon_digest(const char *s, size_t len, char *hex);
/* Make msg->signed_sha256 the digest of the signature (signer, time,
 * content). */
void inbound_signature_id(struct inbound_msg *msg);
/* Import the first usable key the mail carries; how many were taken. */
int inbound_import(struct inbound_msg *msg,
		   const struct inbound_options *opts, const char **error_r);

/* ---- inbound_crypt.c: key files, the Autocrypt header, encryption ---- */

/* Whether the single part m of the given type, decoded to dec, is a
 * public key file: application/pgp-keys, or a key by its name (*.asc,
 * *.pub, *.gpg, *.key: GpgOL sends application/octet-stream) or its
 * content (armor, or a binary public key packet) as an attachment of
 * another type. */
bool inbound_key_file(struct mailmime *m, const char *type,
		      const struct buf *dec);

/* The Autocrypt header of msg->from_addr in the header block hdrs (len
 * bytes, read up to its empty line), as a key the mail carries: inside
 * the signature (in_signed) when hdrs are a signed part's headers. */
void inbound_autocrypt(struct inbound_msg *msg, const char *hdrs,
		       size_t len, bool in_signed);

/* Whether the mail root is encrypted: PGP/MIME multipart/encrypted
 * (RFC 3156 section 4), or an armored PGP MESSAGE in its text. */
bool inbound_is_encrypted(struct mailmime *root);

/* Read an encrypted mail: decrypted with the club's key (pgp.h,
 * pgp_decrypt_verify, under the budget and capped at the mail size
 * limit), then its content read as any mail (a multipart/signed entity
 * inside), or as signed by the one-pass signature inside the
 * encryption.  Returns as inbound_read_body. */
int inbound_read_encrypted(struct inbound_msg *msg,
			   const struct inbound_options *opts,
			   struct mailmime *root, const struct buf *canon,
			   const char **error_r);

/* The encrypted OpenPGP message of an encrypted mail, as it came: the
 * second part of a PGP/MIME multipart/encrypted (transfer encoding
 * undone; *pgp_mime_r true), else the armored PGP MESSAGE block of its
 * text part.  True with the bytes appended to *data_r; false (nothing
 * appended) when root is not encrypted or its encrypted part cannot be
 * decoded.  pgp_reduce.c keeps exactly this of such a mail. */
bool inbound_encrypted_message(struct mailmime *root, struct buf *data_r,
			       bool *pgp_mime_r);

/* For a signature by an unknown key, msg->carried_fpr: the primary key
 * among the keys the mail carries that made it (pgp_carried_primary). */
void inbound_name_carried_key(struct inbound_msg *msg,
			      const struct inbound_options *opts);

#endif
