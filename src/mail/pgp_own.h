/* pgp_own.h -- which keys of the keyring are the daemon's own: those it
 * holds a secret for (its signing key, which is also the bot's).  Every
 * mail the daemon sends is signed with one, so a mail that comes back
 * signed by one is a copy, never an order; and no player may bind one. */
#ifndef ASHES_MAIL_PGP_OWN_H
#define ASHES_MAIL_PGP_OWN_H

#include "mail/pgp.h"

/* The fingerprints (upper-case hex, primaries and subkeys) of every key
 * with a secret part in ctx's keyring, as a NULL-terminated array in
 * *fprs_r (free with pgp_fprs_free; never NULL on success) and their
 * number in *n_r.  0, or -1 with *error_r when gpg failed. */
int pgp_secret_fprs(struct pgp_ctx *ctx, char ***fprs_r, unsigned int *n_r,
		    const char **error_r);

#endif
