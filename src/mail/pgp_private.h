/* pgp_private.h -- the GPGME context and error helpers shared by pgp.c
 * (context, verification), pgp_keys.c (import, forget, key state) and
 * pgp_sign.c (signing).  Not an interface: nothing outside those files
 * includes it; the mail layer's callers use pgp.h. */
#ifndef ASHES_MAIL_PGP_PRIVATE_H
#define ASHES_MAIL_PGP_PRIVATE_H

#include <gpgme.h>
#include <stdbool.h>

#include "mail/pgp.h"

/* Signing (sub)key -> primary key fingerprints already looked up: the
 * lookup runs gpg once more, and a subkey's primary never changes (gpg
 * requires a signing subkey's back-signature). */
#define PGP_PRIMARY_CACHE 64

struct pgp_primary {
	char signing[PGP_FPR_MAX + 1];
	char primary[PGP_FPR_MAX + 1];
};

struct pgp_ctx {
	gpgme_ctx_t gpg;
	char *home;	/* GNUPGHOME as given (NULL: gpg's default) */
	char error[256];
	struct pgp_primary primary[PGP_PRIMARY_CACHE];
	unsigned int primary_next;
	/* Contexts on the same home for other threads (pgp_ctx_sibling),
	 * owned by this one. */
	struct pgp_ctx *siblings[PGP_SIBLINGS_MAX];
};

/* Write "what: gpgme's words for err" (just what when err is 0) into
 * ctx->error and return it, for *error_r. */
const char *pgp_fail(struct pgp_ctx *ctx, const char *what, gpgme_error_t err);

/* Errors of a GPGME operation that come from the data (a hostile or
 * broken mail) rather than from gpg itself. */
bool pgp_data_error(gpgme_error_t err);

#endif
