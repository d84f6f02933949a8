/* loop_keys.c -- the key material a mail carries, wired between the mail
 * layer (which imports and forgets keys in the keyring) and the service
 * (which knows which keys players hold): revocation certificates, a new
 * key for `key replace`, and the keys a refused mail brought, which leave
 * the keyring again. */
#include <config.h>

#include <string.h>
#include <strings.h>
#include <time.h>

#include "config/log.h"
#include "daemon/loop_private.h"
#include "mail/pgp.h"
#include "mail/pgp_own.h"
#include "server/server.h"

/* Key material in any mail, signed or not: a revocation certificate (or a
 * refreshed copy carrying one) for a key in our keyring revokes it.  The
 * certificate proves itself -- gpg takes it only for the key it names --
 * and nothing new enters the keyring this way (pgp_import_known). */
void loop_import_revocations(struct loop *l, struct pending *p)
{
	const struct inbound_msg *im = p->im;
	size_t i;
	unsigned int k;

	for (i = 0; l->pgp != NULL && i < im->key_count; i++) {
		struct pgp_known_import r;
		const char *e;

		memset(&r, 0, sizeof(r));
		if (pgp_import_known(l->pgp, im->keys[i].data, im->keys[i].len,
				     &r, &e) < 0) {
			log_debug("uid %u: key material not taken: %s", p->uid, e);
			continue;
		}
		p->known_keys_changed |= r.changed;
		for (k = 0; k < r.revoked_count; k++) {
			log_notice("uid %u: key %s revoked by a certificate",
				   p->uid, r.revoked[k]);
			inbound_strs_add(&p->revoked, r.revoked[k]);
		}
		pgp_known_import_free(&r);
	}
	p->si.revoked_fprs = (const char *const *)p->revoked.items;
	p->si.revoked_count = p->revoked.count;
}

/* How long the list of our own keys is trusted before gpg is asked
 * again (a signing key made while the daemon runs). */
#define LOOP_OWN_KEYS_TTL 60

bool loop_own_key(struct loop *l, const char *fpr)
{
	int64_t now = (int64_t)time(NULL);
	const char *e;
	size_t i;

	if (l->pgp == NULL || fpr == NULL)
		return false;
	if (l->own_fprs == NULL || now - l->own_fprs_at >= LOOP_OWN_KEYS_TTL ||
	    now < l->own_fprs_at) {
		char **fprs = NULL;
		unsigned int n = 0;

		if (pgp_secret_fprs(l->pgp, &fprs, &n, &e) < 0) {
			log_warning("our own keys: %s (treating %s as ours)", e,
				    fpr);
			return true;
		}
		pgp_fprs_free(&l->own_fprs);
		l->own_fprs = fprs;
		l->own_fprs_at = now;
	}
	for (i = 0; l->own_fprs[i] != NULL; i++)
		if (strcasecmp(l->own_fprs[i], fpr) == 0)
			return true;
	return false;
}

void loop_own_keys_free(struct loop *l)
{
	pgp_fprs_free(&l->own_fprs);
}

/* A signed mail from a known key that carries another key inside what
 * its signature covers: import it, so that `key replace` can claim it.
 * A key outside the signature (an attachment beside a clearsigned text)
 * is anybody's on the way and is never taken; one of our own keys is
 * never offered (the service refuses it by name).  The keyring grows only
 * with keys a known player sent under their own signature (the pgp layer
 * caps their size and count); a key that cannot be imported is simply not
 * offered. */
void loop_import_offered(struct loop *l, struct pending *p)
{
	const struct inbound_msg *im = p->im;
	size_t i;

	for (i = 0; i < im->key_count; i++) {
		char **fprs = NULL;
		unsigned int n = 0, k;
		const char *e;

		if (!im->keys[i].in_signed) {
			log_info("uid %u: a key outside the signed content is "
				 "not taken", p->uid);
			p->si.offered_outside++;
			continue;
		}
		if (pgp_import_keys(l->pgp, im->keys[i].data, im->keys[i].len,
				    &fprs, &n, &e) < 0) {
			log_info("uid %u: a key in the mail was not imported: %s",
				 p->uid, e);
			continue;
		}
		for (k = 0; k < n; k++) {
			if (strcasecmp(fprs[k], im->sig.fpr) == 0)
				continue;
			if (loop_own_key(l, fprs[k])) {
				log_warning("uid %u: the mail offers our own key "
					    "%s: refused", p->uid, fprs[k]);
				inbound_strs_add(&p->own_offered, fprs[k]);
			} else {
				inbound_strs_add(&p->offered, fprs[k]);
			}
		}
		pgp_fprs_free(&fprs);
	}
	p->si.offered_fprs = (const char *const *)p->offered.items;
	p->si.offered_count = p->offered.count;
	p->si.own_offered_fprs = (const char *const *)p->own_offered.items;
	p->si.own_offered_count = p->own_offered.count;
}

/* Keys a handled mail brought that no player holds now (a refused or
 * failed registration, a `key replace` refused) leave the keyring again:
 * refused mail must not grow it. */
void loop_drop_unbound_keys(struct loop *l, const struct pending *p)
{
	const struct inbound_strs *lists[2] = { &p->im->imported_fprs,
						&p->offered };
	size_t i, k;

	for (k = 0; k < 2; k++)
		for (i = 0; l->pgp != NULL && i < lists[k]->count; i++) {
			const char *fpr = lists[k]->items[i], *e;
			int r = server_key_bound(l->server, fpr, &e);

			if (r < 0)
				log_warning("uid %u: key %s: %s", p->uid, fpr, e);
			else if (r == 0 && pgp_forget_key(l->pgp, fpr, &e) < 0)
				log_warning("uid %u: key %s stays: %s", p->uid,
					    fpr, e);
			else if (r == 0)
				log_info("uid %u: key %s dropped: no player "
					 "holds it", p->uid, fpr);
		}
}
