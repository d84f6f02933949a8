/* inbound.h -- the one entry point that turns the raw bytes of a received
 * mail into a "verified message" for the daemon: headers, the loop/bounce/
 * size classification, the command text in UTF-8, the OpenPGP signature
 * status with the signer's fingerprint, the key material carried, and the
 * digests the replay history needs.
 *
 * Knows nothing of the rules or the store.  It reads no clock: freshness of
 * a signature is judged against opts->now.  Trust is not decided here: a
 * GOOD signature only says which key signed; the caller binds the
 * fingerprint to a player.  Only the signed text is ever given as the
 * command text of a signed mail.
 */
#ifndef ASHES_MAIL_INBOUND_H
#define ASHES_MAIL_INBOUND_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "mail/classify.h"
#include "mail/pgp.h"
#include "util/buf.h"

#define INBOUND_DEFAULT_MAX_SIZE (1024 * 1024)
#define INBOUND_DEFAULT_MAX_AGE (7 * 24 * 3600)
#define INBOUND_DEFAULT_MAX_FUTURE (10 * 60)

/* A SHA-256 digest in lower-case hex, without the NUL. */
#define INBOUND_SHA256_HEX_LEN 64

struct inbound_options {
	/* NULL-terminated list of the daemon's own addresses (From-self and
	 * X-Loop filters); may be NULL. */
	const char *const *our_addrs;
	size_t max_size;	/* 0 = INBOUND_DEFAULT_MAX_SIZE */
	time_t now;		/* the caller's clock, for freshness */
	long max_age;		/* seconds; 0 = INBOUND_DEFAULT_MAX_AGE */
	long max_future;	/* seconds; 0 = INBOUND_DEFAULT_MAX_FUTURE */
	/* Context whose GNUPGHOME holds the known public keys.  NULL: no
	 * verification (signature status stays NONE or ERROR). */
	struct pgp_ctx *pgp;
	/* When the signer's key is unknown and the mail carries a public
	 * key, import it into pgp's keyring and verify again (the register
	 * path).  The imported fingerprints are reported.  Importing is safe
	 * in that only a key that verifies the signature makes it GOOD, but
	 * it grows the keyring: the daemon should parse without this first
	 * and again with it only for a register command with key_count > 0. */
	bool import_keys;
};

enum inbound_sig_kind {
	INBOUND_UNSIGNED = 0,
	INBOUND_PGP_MIME,	/* RFC 3156 multipart/signed */
	INBOUND_CLEARSIGNED,	/* -----BEGIN PGP SIGNED MESSAGE----- */
	/* signed inside the encryption, one pass (gpg --encrypt --sign):
	 * the decrypted content is what is signed */
	INBOUND_ENCRYPTED_SIGNED,
};

enum inbound_freshness {
	INBOUND_FRESH_OK = 0,	/* or not applicable (no good signature) */
	INBOUND_FRESH_TOO_OLD,	/* created before now - max_age */
	INBOUND_FRESH_FUTURE,	/* created after now + max_future */
};

/* Why the text could not be read (the mail gets a clear reply). */
enum inbound_problem {
	INBOUND_OK = 0,
	INBOUND_NO_TEXT,	/* no text/plain or text/html part */
	INBOUND_UNDECODABLE,	/* bad transfer encoding or charset */
	INBOUND_BAD_MIME,	/* MIME structure cannot be parsed */
	/* encrypted, and the club cannot decrypt it (not to its key, or
	 * refused: problem_detail says which) */
	INBOUND_ENCRYPTED,
};

struct inbound_strs {
	char **items;
	size_t count;
};

/* Add a copy of s unless the list holds it already (aborts when out of
 * memory, like xstrdup); free the copies and the array, leaving it empty. */
void inbound_strs_add(struct inbound_strs *l, const char *s);
void inbound_strs_free(struct inbound_strs *l);

struct inbound_key {
	char *data;		/* armored text or binary packets */
	size_t len;
	bool attached;		/* application/pgp-keys part (else pasted) */
	/* Inside what the mail's signature covers (the clearsigned text, the
	 * PGP/MIME signed part): only such a key may be offered for a key
	 * binding, since whoever carries the mail can swap the rest. */
	bool in_signed;
};

/* A Content-Language value is kept to this many bytes. */
#define INBOUND_LANGUAGE_MAX 128

struct inbound_msg {
	enum classify_verdict verdict; /* anything but NORMAL: do not answer,
					* except OVERSIZED (brief answer) */
	enum inbound_problem problem;
	char *problem_detail;	/* English reason for problem, or NULL */

	/* headers (NULL / 0 when absent); text is UTF-8 */
	char *message_id;	/* with <> */
	char *from_addr;	/* bare addr-spec */
	char *subject;		/* RFC 2047 decoded */
	char *in_reply_to;	/* first id, with <> */
	struct inbound_strs references;
	time_t date;
	/* The first Content-Language header, cut to INBOUND_LANGUAGE_MAX
	 * bytes: unsigned, so only ever a hint for the language of the
	 * reply to a sender still unknown. */
	char *content_language;

	/* The mail was encrypted (PGP/MIME or inline) and has been
	 * decrypted: what follows is read from its content. */
	bool decrypted;

	/* signature */
	enum inbound_sig_kind sig_kind;
	struct pgp_sig sig;	/* status NONE when unsigned */
	enum inbound_freshness freshness;
	/* For a signature by an unknown key: the primary fingerprint of the
	 * key the mail carries that made it (a signing subkey's primary),
	 * as the sender's mail program shows it; "" when none does. */
	char carried_fpr[PGP_FPR_MAX + 1];
	/* The replay history's key: sha256 over the signer's fingerprint,
	 * the signature's creation time and the signed content (just the
	 * content when no signer is named).  The same signature sent again
	 * keeps it; the same text signed again gets a new one.  "" when
	 * unsigned. */
	char signed_sha256[INBOUND_SHA256_HEX_LEN + 1];
	bool text_outside_signature; /* unsigned text was ignored */

	char raw_sha256[INBOUND_SHA256_HEX_LEN + 1];
	size_t raw_size;
	/* For CLASSIFY_OVERSIZED: the bytes of the header block, all that is
	 * worth keeping of a mail too big to read (0 otherwise). */
	size_t header_len;

	/* Command text, UTF-8 with LF line ends: the signed text of a signed
	 * mail, else the body text.  NULL when verdict != NORMAL or problem. */
	char *text;
	bool text_from_html;

	/* public keys found (in the signed content when signed) */
	struct inbound_key *keys;
	size_t key_count;
	struct inbound_strs imported_fprs; /* with opts->import_keys */

	/* for CLASSIFY_BOUNCE: what the report is about */
	struct inbound_strs bounce_message_ids; /* with <> */
	struct inbound_strs bounce_recipients;

	/* A clearsigned text/plain with a bad signature held U+00A0 (Gmail
	 * makes them of double blanks), and no alternative verified: the
	 * refusal names the cause. */
	bool sig_nbsp;
};

/* Parse and verify one mail of len bytes (CRLF or LF line ends).  Returns
 * 0 with a new *msg_r for every mail, however broken or hostile (the
 * result says why it cannot be used); -1 with a static or per-thread
 * *error_r only when the machinery fails (GPGME cannot run), so the caller
 * should retry later.  Free the result with inbound_msg_free(). */
int inbound_parse(const char *raw, size_t len,
		  const struct inbound_options *opts,
		  struct inbound_msg **msg_r, const char **error_r);
void inbound_msg_free(struct inbound_msg **msg);

/* The form of a mail encrypted to the club that the game's archive keeps
 * (docs/record-format.md), which proves the mail's signature to anyone
 * without the club's secret key: the mail's header block (its MIME
 * fields aside) over, for a multipart/signed entity inside the
 * encryption, that entity as it was signed; for a one-pass signed
 * message, a text/plain part (parameter ashes-signed-content=mime when
 * what is signed is a MIME entity, =text when it is the text) holding
 * the signed message without its encryption, armored (gpg --verify,
 * gpgv check it).  inbound_parse reads that form as it reads the mail.
 * 1 with the form appended to *out_r (max: the cap on the decrypted
 * bytes); 0 when raw is not encrypted, already in that form or only
 * encrypted, not signed (nothing appended: keep raw); -1 with *error_r
 * when pgp cannot decrypt it or GPGME failed.  Caller's buffer. */
int inbound_archive_form(struct pgp_ctx *pgp, const char *raw, size_t len,
			 size_t max, struct buf *out_r, const char **error_r);

/* True when the mail is signed by a key in the keyring, the signature is
 * good and fresh: then msg->sig.fpr says who spoke.  The daemon does
 * not call it (server/intake_mail.c needs each reason, not yes or no);
 * the tests, fuzz and bench, which only ask whether, do. */
bool inbound_msg_signature_ok(const struct inbound_msg *msg);

/* SHA-256 (GnuTLS's) of len bytes at data, as INBOUND_SHA256_HEX_LEN
 * lower-case hex digits and a NUL in hex_r: the digest the store keys a
 * mail by, for a mail kept without inbound_parse too.  Cannot fail. */
void inbound_sha256_hex(const void *data, size_t len,
			char hex_r[INBOUND_SHA256_HEX_LEN + 1]);

#endif
