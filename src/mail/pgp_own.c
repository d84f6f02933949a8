/* pgp_own.c -- the keys the daemon holds a secret for (its signing key,
 * which is the bot's): a mail signed by one of them, or carrying one to
 * bind, speaks for nobody, since every mail we send is signed with it
 * and anyone can copy one back.  See pgp.h. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "mail/pgp_own.h"
#include "mail/pgp_private.h"

int pgp_secret_fprs(struct pgp_ctx *ctx, char ***fprs_r, unsigned int *n_r,
		    const char **error_r)
{
	gpgme_key_t key = NULL;
	gpgme_error_t err;
	char **list = NULL;
	unsigned int n = 0;

	*fprs_r = NULL;
	*n_r = 0;
	err = gpgme_op_keylist_start(ctx->gpg, NULL, 1);
	while (err == 0 && (err = gpgme_op_keylist_next(ctx->gpg, &key)) == 0) {
		/* the primary and every subkey: a signature names a subkey,
		 * an offered key its primary */
		for (gpgme_subkey_t sk = key->subkeys; sk != NULL; sk = sk->next) {
			char **grown;

			if (sk->fpr == NULL)
				continue;
			grown = realloc(list, (n + 2) * sizeof(*list));
			if (grown == NULL)
				abort();
			list = grown;
			list[n] = strdup(sk->fpr);
			if (list[n] == NULL)
				abort();
			list[++n] = NULL;
		}
		gpgme_key_unref(key);
	}
	gpgme_op_keylist_end(ctx->gpg);
	if (gpg_err_code(err) != GPG_ERR_EOF) {
		pgp_fprs_free(&list);
		*error_r = pgp_fail(ctx, "listing the secret keys", err);
		return -1;
	}
	if (list == NULL) {
		list = calloc(1, sizeof(*list));
		if (list == NULL)
			abort();
	}
	*fprs_r = list;
	*n_r = n;
	return 0;
}
