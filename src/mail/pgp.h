/* pgp.h -- OpenPGP through GPGME for the mail layer: verify detached
 * (PGP/MIME) and clearsigned signatures, import public keys, sign the
 * daemon's own replies, take revocations and updates of known keys, and
 * time a verification for the bench.
 *
 * Each context has its own GNUPGHOME (given by the caller) and uses the
 * OpenPGP protocol only.  Trust is NOT taken from the web of trust: a keyring
 * holding only imported public keys gives a good signature the validity
 * "unknown", so we report the signer's fingerprint and the GPGME summary
 * bits and the caller decides by its fingerprint binding.
 *
 * Errors: functions return 0 or -1; on -1 *error_r points to a message that
 * stays valid until the next call on the same context.
 *
 * Threads: a context is used by one thread at a time; contexts may be
 * made and used in any thread (GPGME is set up once, whichever comes
 * first), several at once on the same GNUPGHOME (pgp_ctx_sibling).
 */
#ifndef ASHES_MAIL_PGP_H
#define ASHES_MAIL_PGP_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "util/buf.h"

struct pgp_ctx;

enum pgp_sig_status {
	PGP_SIG_NONE = 0,	/* not signed */
	PGP_SIG_GOOD,		/* valid signature by a usable key */
	PGP_SIG_BAD,		/* the data does not match the signature */
	PGP_SIG_KEY_EXPIRED,	/* good math, but the key had expired */
	PGP_SIG_KEY_REVOKED,	/* good math, but the key is revoked */
	PGP_SIG_SIG_EXPIRED,	/* the signature itself has expired */
	PGP_SIG_UNKNOWN_KEY,	/* public key not in our keyring */
	PGP_SIG_ERROR,		/* malformed signature or other failure */
};

#define PGP_FPR_MAX 64

/* Why a signature was refused before or beside gpg's verdict (status
 * PGP_SIG_ERROR then), with the words in pgp_sig.why. */
enum pgp_refusal {
	PGP_REFUSED_NONE = 0,
	PGP_REFUSED_SHAPE,	/* the pre-scan (pgp_scan.h) refused it */
	PGP_REFUSED_BUDGET,	/* gpg ran past its budget and was stopped */
	PGP_REFUSED_WEAK_DIGEST, /* good, but over SHA-1, RIPEMD-160, MD5 */
};

struct pgp_sig {
	enum pgp_sig_status status;
	/* Fingerprint of the signer's primary key (upper-case hex), the one
	 * to bind to a player even when a subkey made the signature; for an
	 * unknown key, the issuer as the signature names it. */
	char fpr[PGP_FPR_MAX + 1];
	/* The (sub)key that made the signature. */
	char signing_fpr[PGP_FPR_MAX + 1];
	time_t created;		/* signature creation time (0 if unknown) */
	time_t expires;		/* signature expiry, 0 = never */
	unsigned int summary;	/* GPGME_SIGSUM_* bits, for logs and tests */
	int nsigs;		/* signatures found; only the first is used */
	enum pgp_refusal refused;
	/* For a refusal: what was wrong, in English ("a compressed data
	 * packet (tag 8) in a signature, ...", "the digest SHA1"). */
	char why[200];
	char digest[16];	/* the digest algorithm's name, "" if unknown */
};

/* Returns a short English name for the status ("good", "bad", ...). */
const char *pgp_sig_status_name(enum pgp_sig_status status);

/* Open a context on GNUPGHOME gnupghome (must exist).  On failure returns
 * -1 and a static error message.  Free with pgp_ctx_free(). */
int pgp_ctx_new(const char *gnupghome, struct pgp_ctx **ctx_r,
		const char **error_r);
void pgp_ctx_free(struct pgp_ctx **ctx);

/* The default budget of one gpg operation on a stranger's bytes. */
#define PGP_BUDGET_DEFAULT_MS 5000

/* How a context treats bytes strangers send.  budget_ms: the most wall
 * time one gpg operation on them (a verify, a key listing or import of
 * key data) may take before gpg is killed and the operation fails (0:
 * no limit); a clearsigned verify's output is also bounded (by its
 * input's size).  allow_sha1: a good signature over SHA-1 counts (never
 * over RIPEMD-160 or MD5).  scan: the shape pre-scan of pgp_scan.h runs
 * before gpg sees a signature or key data (off only in tests of the
 * budget).  A new context has PGP_BUDGET_DEFAULT_MS, no SHA-1, the scan
 * on; its siblings made later copy its limits. */
struct pgp_limits {
	unsigned int budget_ms;
	bool allow_sha1;
	bool scan;
};
void pgp_ctx_set_limits(struct pgp_ctx *ctx, const struct pgp_limits *lim);

/* The most contexts pgp_ctx_sibling() makes beside one context. */
#define PGP_SIBLINGS_MAX 3

/* Another context on ctx's GNUPGHOME (the i-th, i < PGP_SIBLINGS_MAX),
 * for another thread to use while ctx is in use: a GPGME context serves
 * one thread at a time, while the keyring is shared (gpg locks it).  Made
 * on the first call with i and kept, with what it caches, until ctx is
 * freed (pgp_ctx_free frees its siblings).  Call it from the thread that
 * uses ctx, before handing the sibling to another.  0 with *sibling_r
 * (owned by ctx), or -1 with *error_r. */
int pgp_ctx_sibling(struct pgp_ctx *ctx, unsigned int i,
		    struct pgp_ctx **sibling_r, const char **error_r);

/* Verify a detached signature sig over data.  The result (including BAD,
 * UNKNOWN_KEY, and ERROR for data that is not a signature) is in *sig_r
 * and the function returns 0; -1 only if GPGME or gpg could not run.  A
 * signature the pre-scan refuses, one gpg cannot judge within the
 * budget, and a good one over a weak digest are ERROR with refused and
 * why set (see struct pgp_limits). */
int pgp_verify_detached(struct pgp_ctx *ctx, const void *data, size_t len,
			const void *sig, size_t siglen, struct pgp_sig *sig_r,
			const char **error_r);

/* Verify a clearsigned block (from -----BEGIN PGP SIGNED MESSAGE----- to
 * -----END PGP SIGNATURE-----).  The signed text, as gpg recovers it, is
 * appended to *text_r (caller's buffer).  Returns as pgp_verify_detached. */
int pgp_verify_clearsigned(struct pgp_ctx *ctx, const void *data, size_t len,
			   struct pgp_sig *sig_r, struct buf *text_r,
			   const char **error_r);

/* The most key material one import reads, armored or binary, in bytes.
 * A player's key without photos is a few KiB (armored, an ed25519 key is
 * under 1 KiB, an RSA-4096 key about 3 KiB, more with certifications);
 * anything near this is bulk we do not want in the keyring. */
#define PGP_KEY_MAX_BYTES (64 * 1024)

/* Import a new player's public key from the armored or binary data (the
 * register path).  The data must hold either one key not yet in the
 * keyring and nothing else, or only keys already there (then nothing is
 * imported: keys we hold change only through pgp_import_known).  Photo
 * IDs and other attribute user IDs are dropped on the way in.  The
 * fingerprints (primary, upper-case hex) of the key imported or of the
 * keys already present are returned as a NULL-terminated array in
 * *fprs_r (free with pgp_fprs_free); *count_r gets their number.
 * Returns -1, with *fprs_r NULL, *count_r 0 and the keyring unchanged, if
 * the data is larger than PGP_KEY_MAX_BYTES, holds a secret key, holds a
 * new key together with any other, holds no usable public key, holds
 * what key data never does (pgp_scan.h), or gpg ran past the budget. */
int pgp_import_keys(struct pgp_ctx *ctx, const void *data, size_t len,
		    char ***fprs_r, unsigned int *count_r,
		    const char **error_r);
void pgp_fprs_free(char ***fprs);

/* What pgp_import_known did.  revoked is a NULL-terminated array of the
 * primary fingerprints (upper-case hex) of keys revoked after the import
 * and not before; revoked_count its length (the array is NULL when 0).
 * changed: gpg took something new (a revocation, a signature, a subkey or
 * a user ID) into the keyring. */
struct pgp_known_import {
	char **revoked;
	unsigned int revoked_count;
	bool changed;
};

/* Frees what r holds and zeroes it; r itself is the caller's. */
void pgp_known_import_free(struct pgp_known_import *r);

/* Take into the keyring what data brings for keys it already holds: a
 * revocation certificate (bare, as gpg --gen-revoke writes it, or as gpg
 * keeps it under openpgp-revocs.d with its leading ':'), or a refreshed
 * copy of a known key (its revocation, new self-signatures, subkeys).
 * Never adds a key: if data holds a key not in the keyring, nothing is
 * imported and -1 is returned.  A revocation for a key not in the
 * keyring changes nothing: 0 with an empty *r.  Certifications of a known key by other keys are dropped
 * (nobody may grow another player's key).  Fills *r (zeroed first; free
 * with pgp_known_import_free) and returns 0; -1 with *r empty if the data
 * is larger than PGP_KEY_MAX_BYTES, holds a secret key or a key not in
 * the keyring, holds what key data never does (the pre-scan of
 * pgp_scan.h: a compressed packet, say, or no OpenPGP data at all), gpg
 * ran past the budget, or gpg failed. */
int pgp_import_known(struct pgp_ctx *ctx, const void *data, size_t len,
		     struct pgp_known_import *r, const char **error_r);

/* Drop the public key fpr (a 40 or 64 hex digit primary fingerprint)
 * from the keyring: a key a mail brought that no player holds after all
 * (the registration was refused), so that refused mails cannot grow the
 * keyring.  Never a key with a secret part (the daemon's own).  0 when
 * the key is gone or was not there; -1 with *error_r. */
int pgp_forget_key(struct pgp_ctx *ctx, const char *fpr, const char **error_r);

/* Whether the keyring holds the key whose primary fingerprint is fpr (40
 * or 64 hex digits, any case; a subkey's fingerprint is "not known") and
 * whether that key is revoked.  Returns 0 with *known_r and *revoked_r
 * set (*revoked_r false for an unknown key); -1 if fpr is not a
 * fingerprint or gpg failed. */
int pgp_key_state(struct pgp_ctx *ctx, const char *fpr, bool *known_r,
		  bool *revoked_r, const char **error_r);

/* Make an armored detached signature over data with the secret key
 * signer_fpr (no passphrase), appended to *sig_r.  signer_fpr NULL or
 * "": gpg's default key (the first secret key in the keyring). */
int pgp_sign_detached(struct pgp_ctx *ctx, const char *signer_fpr,
		      const void *data, size_t len, struct buf *sig_r,
		      const char **error_r);

/* The signer for compose_message() (compose.h's compose_sign_fn): sign
 * with the key fpr in ctx.  The armored signature in *sig_r is the
 * caller's to free(); *micalg_r is static ("pgp-sha256"). */
struct pgp_signer {
	struct pgp_ctx *ctx;
	const char *fpr;
};
int pgp_compose_sign(void *signer, const char *data, size_t len,
		     char **sig_r, const char **micalg_r, const char **error_r);

/* Wrap the MIME entity part (its own headers, a blank line and a body) in
 * an RFC 3156 multipart/signed entity signed by signer_fpr.  The lines of
 * part are canonicalised to CRLF first (that is what is signed and sent).
 * Appends to *out_r a Content-Type header line, a blank line and the body,
 * all with CRLF line ends. */
int pgp_mime_sign(struct pgp_ctx *ctx, const char *signer_fpr,
		  const char *part, size_t len, struct buf *out_r,
		  const char **error_r);

/* For the bench: run gpgme_op_verify on (data, sig) rounds times and give
 * the median wall time of one call in seconds.  Returns -1 if one failed
 * or the signature is not good. */
int pgp_time_verify(struct pgp_ctx *ctx, const void *data, size_t len,
		    const void *sig, size_t siglen, unsigned int rounds,
		    double *median_r, const char **error_r);

/* ---- encrypted mail (pgp_decrypt.c) ---- */

enum pgp_decrypt_status {
	PGP_DECRYPT_OK = 0,	/* decrypted */
	PGP_DECRYPT_NO_KEY,	/* encrypted, but to no key we hold */
	PGP_DECRYPT_REFUSED,	/* pre-scan, budget or output cap: why */
	PGP_DECRYPT_FAILED,	/* gpg could not decrypt it: why */
};

struct pgp_decrypted {
	enum pgp_decrypt_status status;
	/* The signature inside the encryption (a one-pass signed message,
	 * gpg --encrypt --sign), as pgp_verify_detached reports one;
	 * status NONE when the message was only encrypted (the content may
	 * then be a signed MIME entity of its own). */
	struct pgp_sig sig;
	char why[200];
};

/* Decrypt the OpenPGP message data (armored or binary) with the secret
 * keys of ctx's keyring and verify the signature inside it, in one gpg
 * run under the context's budget; the pre-scan (PGP_SCAN_ENCRYPTED) runs
 * first.  The decrypted content, at most max_out bytes (more: REFUSED),
 * is appended to *plain_r only when OK.  0 with *r filled for every
 * message however hostile; -1 with *error_r only when GPGME fails. */
int pgp_decrypt_verify(struct pgp_ctx *ctx, const void *data, size_t len,
		       size_t max_out, struct buf *plain_r,
		       struct pgp_decrypted *r, const char **error_r);

/* The same message with its encryption layer taken off and nothing else
 * (gpg --unwrap): for a one-pass signed message, the signed message
 * itself, binary, which gpg --verify or gpgv check without any secret
 * key -- what the archive keeps.  Same limits and returns; r->sig stays
 * empty. */
int pgp_decrypt_unwrap(struct pgp_ctx *ctx, const void *data, size_t len,
		       size_t max_out, struct buf *signed_r,
		       struct pgp_decrypted *r, const char **error_r);

/* Verify a signed message (gpg --sign: what pgp_decrypt_unwrap gives of
 * a one-pass signed and encrypted message), armored or binary, and give
 * its content: the pre-scan PGP_SCAN_SIGNED_MESSAGE, the budget and the
 * output cap max_out as pgp_decrypt_verify; the signature in r->sig
 * (ERROR when there is none).  Returns as pgp_decrypt_verify. */
int pgp_verify_message(struct pgp_ctx *ctx, const void *data, size_t len,
		       size_t max_out, struct buf *plain_r,
		       struct pgp_decrypted *r, const char **error_r);

/* Of the key data a mail carried (not imported), the primary
 * fingerprint of the key holding the (sub)key issuer (a fingerprint or a
 * key ID, as an unknown signature names it): what the sender's mail
 * program shows as their key.  Pre-scanned, at most PGP_KEY_MAX_BYTES,
 * listed under the budget.  1 with it in primary_r; 0 when none holds
 * it (or the data cannot be read). */
int pgp_carried_primary(struct pgp_ctx *ctx, const void *data, size_t len,
			const char *issuer, char primary_r[PGP_FPR_MAX + 1]);

/* The club's own public key for its Autocrypt header: the secret key
 * name picks (as pgp_export_signer), exported with its own signatures
 * only, binary, appended to *key_r; *can_encrypt_r says whether it has
 * a usable encryption (sub)key -- without one, no client can encrypt
 * to the club and the header is not worth sending.  -1 with *error_r
 * when the keyring holds no such key. */
int pgp_club_key(struct pgp_ctx *ctx, const char *name, struct buf *key_r,
		 bool *can_encrypt_r, const char **error_r);

/* ---- for a game's archive (pgp_export.c) ---- */

/* Append the public keys fprs (a NULL-terminated array of primary
 * fingerprints) as the keyring of ctx holds them, each key with its own
 * signatures only (no certifications by others), to *out_r: armored, or
 * (armor false) as binary packets, which a file can hold as a keyring for
 * gpgv.  -1 if a key is not in the keyring or gpg failed. */
int pgp_export_keys(struct pgp_ctx *ctx, const char *const *fprs, bool armor,
		    struct buf *out_r, const char **error_r);

/* The secret key that signs for the daemon: the first usable one that
 * name (a fingerprint, key id or user id; NULL or "": any) lists.  0 with
 * its primary fingerprint in fpr_r; -1 with *error_r when the keyring
 * holds none. */
int pgp_export_signer(struct pgp_ctx *ctx, const char *name,
		      char fpr_r[PGP_FPR_MAX + 1], const char **error_r);

/* The most key data pgp_export_load_keys() reads: an archive's keys are
 * a handful of players' and the daemon's. */
#define PGP_EXPORT_KEYS_MAX (1024 * 1024)

/* Import every public key of data (an archive's keys.asc) into the
 * keyring of ctx, which should be a fresh one of its own: unlike
 * pgp_import_keys() this takes any number of keys.  0 with *count_r the
 * keys gpg took; -1 if data is larger than PGP_EXPORT_KEYS_MAX, holds a
 * secret key, or gpg failed. */
int pgp_export_load_keys(struct pgp_ctx *ctx, const void *data, size_t len,
			 unsigned int *count_r, const char **error_r);

enum pgp_signed_kind {
	PGP_SIGNED_NONE = 0, /* no signature found */
	PGP_SIGNED_MIME,     /* RFC 3156: the signed part and its signature */
	PGP_SIGNED_CLEAR,    /* the clearsigned block */
	/* a signed message (armored, gpg --sign): the archive's form of a
	 * one-pass signed, encrypted mail (inbound_archive_form) */
	PGP_SIGNED_MESSAGE,
};

/* The bytes of a raw mail that its OpenPGP signature covers, exactly as
 * inbound_parse() gives them to gpg: for PGP/MIME the signed part
 * (headers included, CRLF line ends) appended to *signed_r and the
 * signature (transfer encoding undone) to *sig_r; for an inline mail the
 * clearsigned block (from its BEGIN to its END line) to *signed_r and
 * nothing to *sig_r.  0 with *kind_r (PGP_SIGNED_NONE, nothing appended,
 * for an unsigned mail); -1 with a static *error_r for a mail whose MIME
 * cannot be read.  A mail in the archive's form of a one-pass signed,
 * encrypted mail gives PGP_SIGNED_MESSAGE, its armored signed message in
 * *signed_r. */
int pgp_export_signed(const char *raw, size_t len,
		      enum pgp_signed_kind *kind_r, struct buf *signed_r,
		      struct buf *sig_r, const char **error_r);

/* ---- for a game's archive given to others (pgp_public.c) ---- */

/* The public keys fprs (NULL-terminated), each as pgp_export_keys()
 * gives it but, where labels[i] is not NULL, without its user IDs and
 * attributes (a player's address, a photo) and their signatures, and
 * with one User ID packet holding labels[i] instead.  That packet bears
 * no self-signature (only the key's owner could make one): gpg takes
 * such a key only with --allow-non-selfsigned-uid, and gpgv not at all;
 * a signature check needs no user ID, only the key.  Appended armored to
 * *armored_r and as packets to *binary_r; -1 with *error_r. */
int pgp_public_keys(struct pgp_ctx *ctx, const char *const *fprs,
		    const char *const *labels, struct buf *armored_r,
		    struct buf *binary_r, const char **error_r);

/* A mail holding of the raw mail only what its signature covers and the
 * signature, so that pgp_export_signed() and inbound_parse() read the
 * same signed bytes, signature and text from it as from the raw mail:
 * headers (the caller's lines, each CRLF-ended), MIME-Version, then a
 * multipart/signed of the signed part exactly and the signature
 * (PGP/MIME), or a text/plain part of the clearsigned block in the
 * charset the daemon read it in (inline); for an unsigned mail, text (as
 * the daemon read it) as text/plain.  No header of the raw mail is
 * kept.  Appended to *out_r; -1 with *error_r for a mail whose MIME
 * cannot be read. */
int pgp_public_mail(const char *raw, size_t len, const char *headers,
		    const char *text, struct buf *out_r,
		    const char **error_r);

/* ---- a stored mail reduced to its proof (pgp_reduce.c) ---- */

enum pgp_reduced_kind {
	PGP_REDUCED_MIME,	/* the signed part and signature, RFC 3156 */
	PGP_REDUCED_CLEAR,	/* the clearsigned block */
	PGP_REDUCED_MESSAGE,	/* an armored signed message (gpg --sign) */
	/* signed and encrypted (Thunderbird, RFC 9788; gpg -se): the
	 * encrypted OpenPGP message as it came */
	PGP_REDUCED_ENCRYPTED,
	PGP_REDUCED_TEXT,	/* unsigned: the text as the daemon read it */
};
/* "PGP/MIME", "clearsigned", ... for the log.  Static. */
const char *pgp_reduced_kind_name(enum pgp_reduced_kind kind);

/* The mail of len bytes reduced to what proves what its sender signed,
 * and nothing else, appended to *out_r:
 * - PGP/MIME (multipart/signed): MIME-Version, a Content-Type of
 *   multipart/signed (protocol, micalg, a boundary of its own), the
 *   signed part byte for byte (with the CRLF line ends it was verified
 *   in) and the signature part;
 * - inline: a text/plain of the clearsigned block exactly, in the
 *   charset it was read in (a mail's first block: the one the daemon
 *   verifies; anything around it was never signed);
 * - an armored signed message: a text/plain of it;
 * - signed and encrypted: the signature is inside the encryption, so
 *   what proves it is the encrypted OpenPGP message as received (the
 *   club's key decrypts it, and a game's archive keeps it decrypted,
 *   inbound_archive_form): a multipart/encrypted of its version part and
 *   that message, or a text/plain of its armor;
 * - unsigned, not encrypted: text (the text as the daemon read it) as
 *   text/plain; with text NULL, refused.
 * No header of the mail is kept: headers (NULL or the caller's lines,
 * each CRLF-ended) go first -- the thread lines that bind a bare move to
 * its game, say.  Before anything is appended the result is read again
 * and must give the same signed bytes and signature (or encrypted
 * message).  Reducing a reduced mail gives it again.  0 with *kind_r;
 * -1 with a static *error_r, nothing appended, for a mail whose MIME
 * cannot be read within mime_parse's limits (mime_limits.c) or that
 * holds nothing to keep. */
int pgp_reduce_mail(const char *raw, size_t len, const char *headers,
		    const char *text, struct buf *out_r,
		    enum pgp_reduced_kind *kind_r, const char **error_r);

#endif
