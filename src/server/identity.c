/* identity.c -- the account commands of the game service: `register`,
 * `confirm` and `key replace`, and where a player's mail goes.
 *
 * A key says who a player is; an address is only where their mail goes,
 * and anyone can write any address into a From header.  So `register`
 * binds the name to the signing key at once, but the address only when
 * the code mailed to it comes back in a mail signed by that key
 * (`confirm CODE`).  Until then the claim blocks nobody: the address's
 * real owner can register and confirm it for themselves, and a squatter's
 * claim never binds.  A pending player may only confirm (or ask for help,
 * or register again for a fresh code).
 */
#include "server/server_private.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>

/* Letters and digits that cannot be misread for each other. */
static const char code_alphabet[] = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
#define IDENTITY_CODE_LEN 10 /* 50 bits: no guessing within the rate limit */
#define IDENTITY_REGISTER_WINDOW 3600

bool identity_pending(const struct store_player *p)
{
	return p != NULL && p->n_addresses == 0;
}

int server_reply_address(struct handle *h, const struct store_player *p,
			 char **addr_r)
{
	struct store_claim claim;
	const char *error, *a = server_player_address(p);
	int r;

	*addr_r = NULL;
	if (a != NULL) {
		*addr_r = strdup(a);
		return *addr_r == NULL ? server_store_fail(h, "out of memory") : 0;
	}
	if (!h->code_sent)
		return 0;
	r = store_claim_get(h->srv->store, p->id, &claim, &error);
	if (r < 0)
		return server_store_fail(h, error);
	if (r == 1) {
		struct store_player *owner = NULL;

		r = store_player_by_address(h->srv->store, claim.address,
					    &owner, &error);
		if (r < 0) {
			store_claim_clear(&claim);
			return server_store_fail(h, error);
		}
		if (owner == NULL || owner->id == p->id) {
			*addr_r = claim.address;
			claim.address = NULL;
		}
		store_player_free(&owner);
	}
	store_claim_clear(&claim);
	return 0;
}

static int identity_new_code(struct handle *h, char *code)
{
	unsigned char raw[IDENTITY_CODE_LEN];
	size_t i;

	if (getrandom(raw, sizeof(raw), 0) != (ssize_t)sizeof(raw))
		return server_store_fail(h, "no random bytes for a code");
	for (i = 0; i < sizeof(raw); i++)
		code[i] = code_alphabet[raw[i] % (sizeof(code_alphabet) - 1)];
	code[sizeof(raw)] = '\0';
	return 0;
}

/* Record a claim of `address` for the player in hand and say in `out`
 * where the code went. */
static int identity_claim(struct handle *h, const char *address,
			  struct template_ctx *out)
{
	char code[IDENTITY_CODE_LEN + 1];
	const char *error;

	if (identity_new_code(h, code) < 0)
		return -1;
	if (store_claim_set(h->srv->store, h->me->id, address, code, h->now,
			    &error) < 0)
		return server_store_fail(h, error);
	template_ctx_set(out, "code", code);
	template_ctx_set(out, "claim_address", address);
	h->code_sent = true;
	return 0;
}

/* Too many new players this hour, all senders together: a flood of
 * throw-away keys would fill the keyring and the database. */
static int identity_register_busy(struct handle *h, bool *busy_r)
{
	unsigned limit = h->srv->cfg.registrations_per_hour;
	const char *error;
	long count = 0;

	*busy_r = false;
	if (limit == 0)
		return 0;
	if (store_rate_hit(h->srv->store, "registrations:", h->now,
			   IDENTITY_REGISTER_WINDOW, &count, &error) < 0)
		return server_store_fail(h, error);
	*busy_r = count > (long)limit;
	return 0;
}

int identity_register(struct handle *h, const struct command *c,
		      struct game *g, struct template_ctx *out)
{
	const struct server_inbound *msg = h->msg;
	struct store_player *other = NULL;
	const char *error, *from = msg->from_address;
	bool busy;
	int64_t id;
	int ret;

	(void)g;
	if (!server_address_usable(from)) {
		server_refuse(h, "bad_address");
		template_ctx_set(h->refusal, "address", from ? from : "");
		return REFUSED;
	}
	if (h->me != NULL && !identity_pending(h->me)) {
		server_refuse(h, "already_registered");
		template_ctx_set(h->refusal, "name", h->me->name);
		return REFUSED;
	}
	if (h->me != NULL) {
		/* Registered, not confirmed: a fresh code, to this From. */
		if (strcasecmp(h->me->name, c->name) != 0) {
			server_refuse(h, "already_registered");
			template_ctx_set(h->refusal, "name", h->me->name);
			return REFUSED;
		}
		goto claim;
	}
	if (msg->fingerprint == NULL && !h->weak)
		return server_refuse(h, "no_identity");
	ret = store_player_by_name(h->srv->store, c->name, &other, &error);
	if (ret < 0)
		return server_store_fail(h, error);
	store_player_free(&other);
	if (ret == 1) {
		server_refuse(h, "name_taken");
		template_ctx_set(h->refusal, "name", c->name);
		return REFUSED;
	}
	if (identity_register_busy(h, &busy) < 0)
		return -1;
	if (busy)
		return server_refuse(h, "registrations_busy");
	ret = store_player_add(h->srv->store, c->name, NULL, msg->fingerprint,
			       h->now, &id, &error);
	if (ret < 0)
		return server_store_fail(h, error);
	if (ret == 1)
		return server_refuse(h, "key_taken");
	ret = store_player_load(h->srv->store, id, &h->me, &error);
	if (ret != 1)
		return server_store_fail(h, error);
claim:
	if (identity_claim(h, from, out) < 0)
		return -1;
	template_ctx_set(out, "name", h->me->name);
	if (msg->fingerprint != NULL)
		template_ctx_set(out, "fingerprint", msg->fingerprint);
	return 0;
}

int identity_confirm(struct handle *h, const struct command *c,
		     struct game *g, struct template_ctx *out)
{
	const struct server_inbound *msg = h->msg;
	struct store_claim claim;
	const char *error;
	int64_t pid = 0;
	int ret;

	(void)g;
	memset(&claim, 0, sizeof(claim));
	if (h->me == NULL && msg->fingerprint == NULL && h->weak) {
		/* An unsigned club: the claim is found by address and code. */
		ret = store_claim_find(h->srv->store, msg->from_address,
				       c->code, &pid, &error);
		if (ret < 0)
			return server_store_fail(h, error);
		if (ret == 1 &&
		    store_player_load(h->srv->store, pid, &h->me, &error) < 0)
			return server_store_fail(h, error);
	}
	if (h->me == NULL)
		return server_refuse(h, "not_registered");
	ret = store_claim_get(h->srv->store, h->me->id, &claim, &error);
	if (ret < 0)
		return server_store_fail(h, error);
	if (ret == 0) {
		server_refuse(h, "nothing_to_confirm");
		template_ctx_set(h->refusal, "name", h->me->name);
		return REFUSED;
	}
	if (strcasecmp(claim.code, c->code) != 0) {
		store_claim_clear(&claim);
		return server_refuse(h, "bad_code");
	}
	ret = store_player_add_address(h->srv->store, h->me->id, claim.address,
				       h->now, &error);
	if (ret < 0) {
		store_claim_clear(&claim);
		return server_store_fail(h, error);
	}
	if (ret == 1) {
		/* Another player confirmed it first: they read mail there
		 * too.  The operator can sort it out (`ashes player`). */
		server_refuse(h, "address_taken");
		template_ctx_set(h->refusal, "address", claim.address);
		store_claim_clear(&claim);
		return REFUSED;
	}
	template_ctx_set(out, "name", h->me->name);
	template_ctx_set(out, "address", claim.address);
	store_claim_clear(&claim);
	pid = h->me->id;
	if (store_claim_delete(h->srv->store, pid, &error) < 0)
		return server_store_fail(h, error);
	/* Reload: the reply now goes to the confirmed address. */
	store_player_free(&h->me);
	if (store_player_load(h->srv->store, pid, &h->me, &error) != 1)
		return server_store_fail(h, error);
	return 0;
}

int identity_key_replace(struct handle *h, const struct command *c,
			 struct game *g, struct template_ctx *out)
{
	const struct server_inbound *msg = h->msg;
	const char *error, *fresh = NULL;
	size_t i, n = 0;
	int ret;

	(void)c;
	(void)g;
	if (msg->fingerprint == NULL)
		return server_refuse(h, "key_replace_unsigned");
	for (i = 0; i < msg->offered_count; i++)
		if (strcasecmp(msg->offered_fprs[i], msg->fingerprint) != 0) {
			fresh = msg->offered_fprs[i];
			n++;
		}
	if (n != 1) {
		server_refuse(h, "key_replace_needs_one");
		template_ctx_set_int(h->refusal, "count", (long)n);
		return REFUSED;
	}
	ret = store_key_replace(h->srv->store, h->me->id, msg->fingerprint,
				fresh, h->now, &error);
	if (ret < 0)
		return server_store_fail(h, error);
	if (ret == 1)
		return server_refuse(h, "key_taken");
	template_ctx_set(out, "old", msg->fingerprint);
	template_ctx_set(out, "new", fresh);
	return 0;
}
