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
 * or register again for a fresh code -- which counts as registering, and
 * one key gets at most one code to an address a day).
 *
 * A key, likewise, binds only after a mail signed by it: `key replace`
 * (signed by the old key, the new one inside the signed content) answers
 * with a code that must come back signed by the new key.  Until then the
 * old key stays, and the claim binds nobody and blocks nobody: the new
 * key's real owner may still register with it.  A key the daemon holds
 * a secret for (its own, the bot's) is never bound.  A name that looks
 * like another (its skeleton, store_name_skeleton()) is refused.
 */
#include "server/server_private.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>

/* Letters and digits that cannot be misread for each other. */
static const char code_alphabet[] = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
#define IDENTITY_REGISTER_WINDOW 3600
/* One code a day from one key to one address; a few a day to one address
 * from all keys together (so that a squatter's claim cannot keep the
 * address's owner from registering, nor many keys flood it). */
#define IDENTITY_CODE_WINDOW (24 * 3600)
#define IDENTITY_CODES_PER_ADDRESS 3
/* How long a key claim waits for its proof. */
#define IDENTITY_KEY_CLAIM_WINDOW (7 * 24 * 3600)

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

int identity_new_code(struct handle *h, char *code)
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

int identity_code_allowed(struct handle *h, const char *address,
				 bool *ok_r)
{
	const char *fpr = h->msg->fingerprint, *error;
	char key[STORE_ADDRESS_MAX + 96];
	long count = 0;

	*ok_r = false;
	snprintf(key, sizeof(key), "code:%s:%s", fpr != NULL ? fpr : "-",
		 address);
	if (store_rate_hit(h->srv->store, key, h->now, IDENTITY_CODE_WINDOW,
			   &count, &error) < 0)
		return server_store_fail(h, error);
	if (count > 1)
		return 0;
	snprintf(key, sizeof(key), "codes:%s", address);
	if (store_rate_hit(h->srv->store, key, h->now, IDENTITY_CODE_WINDOW,
			   &count, &error) < 0)
		return server_store_fail(h, error);
	*ok_r = count <= IDENTITY_CODES_PER_ADDRESS;
	return 0;
}

static int identity_refuse_code(struct handle *h, const char *address)
{
	h->no_reply = true;
	server_refuse(h, "code_sent_today");
	template_ctx_set(h->refusal, "address", address);
	return REFUSED;
}

/* Does c->name look like a name already taken (a player's, pending ones
 * included, or the bot's)?  *like_r gets that name (or NULL). */
static int identity_name_look_alike(struct handle *h, const char *name,
				    char *like, size_t likelen, bool *found_r)
{
	const char *bot = h->srv->cfg.bot.name;
	struct store_player *other = NULL;
	char a[COMMAND_NAME_MAX + 1], b[COMMAND_NAME_MAX + 1];
	const char *error;
	int r;

	*found_r = false;
	r = store_player_by_skeleton(h->srv->store, name, &other, &error);
	if (r < 0)
		return server_store_fail(h, error);
	if (r == 1) {
		snprintf(like, likelen, "%s", other->name);
		store_player_free(&other);
		*found_r = true;
		return 0;
	}
	if (bot != NULL) {
		store_name_skeleton(name, a, sizeof(a));
		store_name_skeleton(bot, b, sizeof(b));
		if (strcmp(a, b) == 0) {
			snprintf(like, likelen, "%s", bot);
			*found_r = true;
		}
	}
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

/* A new player reads the language their first mail's Content-Language
 * asks for, if the club has it (the reply to this mail is in it
 * already: language.c); else the club's default, which an unset
 * language follows.  `set language` changes it. */
static int identity_first_language(struct handle *h)
{
	const char *lang = server_lang_of_mail(h);
	struct store_settings s;
	const char *error;

	if (lang == NULL)
		return 0;
	if (server_recipient_settings(h, h->me->id, &s) < 0)
		return -1;
	if (store_setting_parse_value(&s, STORE_SETTING_LANGUAGE, lang) < 0)
		return 0;
	if (store_settings_set(h->srv->store, h->me->id, &s, h->now,
			       &error) < 0)
		return server_store_fail(h, error);
	return 0;
}


int identity_register(struct handle *h, const struct command *c,
		      struct game *g, struct template_ctx *out)
{
	const struct server_inbound *msg = h->msg;
	struct store_player *other = NULL;
	const char *error, *from = msg->from_address;
	char like[COMMAND_NAME_MAX + 1];
	bool busy, code_ok;
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
		/* Registered, not confirmed: a fresh code, to this From --
		 * a registration like any (the hourly limit counts it), and
		 * at most one code a day from this key to that address. */
		if (strcasecmp(h->me->name, c->name) != 0) {
			server_refuse(h, "already_registered");
			template_ctx_set(h->refusal, "name", h->me->name);
			return REFUSED;
		}
		if (identity_register_busy(h, &busy) < 0)
			return -1;
		if (busy)
			return server_refuse(h, "registrations_busy");
		if (identity_code_allowed(h, from, &code_ok) < 0)
			return -1;
		if (!code_ok)
			return identity_refuse_code(h, from);
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
	/* A deleted player's name (account.c) is no one's to take. */
	if (strncasecmp(c->name, ACCOUNT_DELETED_PREFIX,
			strlen(ACCOUNT_DELETED_PREFIX)) == 0) {
		server_refuse(h, "name_reserved");
		template_ctx_set(h->refusal, "name", c->name);
		return REFUSED;
	}
	if (identity_name_look_alike(h, c->name, like, sizeof(like),
				     &busy) < 0)
		return -1;
	if (busy) {
		server_refuse(h, "name_looks_like");
		template_ctx_set(h->refusal, "name", c->name);
		template_ctx_set(h->refusal, "like", like);
		return REFUSED;
	}
	if (identity_register_busy(h, &busy) < 0)
		return -1;
	if (busy)
		return server_refuse(h, "registrations_busy");
	/* A key bound once (revoked since) binds nobody again; said before
	 * the code limit, which is about mail to the address. */
	ret = store_key_known(h->srv->store, msg->fingerprint, &error);
	if (ret < 0)
		return server_store_fail(h, error);
	if (ret == 1)
		return server_refuse(h, "key_taken");
	if (identity_code_allowed(h, from, &code_ok) < 0)
		return -1;
	if (!code_ok)
		return identity_refuse_code(h, from);
	ret = store_player_add(h->srv->store, c->name, NULL, msg->fingerprint,
			       h->now, &id, &error);
	if (ret < 0)
		return server_store_fail(h, error);
	if (ret == 1)
		return server_refuse(h, "key_taken");
	ret = store_player_load(h->srv->store, id, &h->me, &error);
	if (ret != 1)
		return server_store_fail(h, error);
	if (identity_first_language(h) < 0)
		return -1;
	/* Whoever claimed this key with `key replace` never proved it: the
	 * key's owner has just signed with it. */
	if (msg->fingerprint != NULL &&
	    store_key_claim_delete(h->srv->store, 0, msg->fingerprint, NULL,
				   &error) < 0)
		return server_store_fail(h, error);
claim:
	if (identity_claim(h, from, out) < 0)
		return -1;
	template_ctx_set(out, "name", h->me->name);
	if (msg->fingerprint != NULL)
		template_ctx_set(out, "fingerprint", msg->fingerprint);
	return 0;
}

/* Does the player still hold key fpr?  (A claim made by a key since
 * revoked or replaced has lapsed.) */
static bool identity_holds(const struct store_player *p, const char *fpr)
{
	for (size_t i = 0; i < p->n_fingerprints; i++)
		if (strcasecmp(p->fingerprints[i], fpr) == 0)
			return true;
	return false;
}

/* `confirm CODE` signed by a key no player holds: the proof a `key
 * replace` waits for.  The key binds to the player who claimed it, in
 * place of the key that signed the claim. */
static int identity_confirm_key(struct handle *h, const struct command *c,
				struct template_ctx *out)
{
	const struct server_inbound *msg = h->msg;
	struct store_key_claim claim;
	struct store_player *p = NULL;
	const char *error;
	int ret;

	ret = store_key_claim_find(h->srv->store, msg->fingerprint, c->code,
				   &claim, &error);
	if (ret < 0)
		return server_store_fail(h, error);
	if (ret == 0)
		return server_refuse(h, "not_registered");
	ret = store_player_load(h->srv->store, claim.player_id, &p, &error);
	if (ret < 0) {
		store_key_claim_clear(&claim);
		return server_store_fail(h, error);
	}
	if (ret == 0 || h->now - claim.created > IDENTITY_KEY_CLAIM_WINDOW ||
	    !identity_holds(p, claim.old_fingerprint)) {
		ret = store_key_claim_delete(h->srv->store, claim.player_id,
					     NULL, NULL, &error);
		store_key_claim_clear(&claim);
		store_player_free(&p);
		if (ret < 0)
			return server_store_fail(h, error);
		return server_refuse(h, "key_claim_lapsed");
	}
	ret = store_key_replace(h->srv->store, p->id, claim.old_fingerprint,
				claim.fingerprint, h->now, &error);
	if (ret == 0)
		ret = store_key_claim_delete(h->srv->store, 0,
					     claim.fingerprint, NULL, &error);
	if (ret < 0) {
		store_key_claim_clear(&claim);
		store_player_free(&p);
		return server_store_fail(h, error);
	}
	if (ret == 1) {
		store_key_claim_clear(&claim);
		store_player_free(&p);
		return server_refuse(h, "key_taken");
	}
	template_ctx_set_bool(out, "key_bound", true);
	template_ctx_set(out, "name", p->name);
	template_ctx_set(out, "old", claim.old_fingerprint);
	template_ctx_set(out, "new", claim.fingerprint);
	store_key_claim_clear(&claim);
	/* The key is the player's now: the reply goes where their mail
	 * goes. */
	store_player_free(&p);
	ret = store_player_by_fingerprint(h->srv->store, msg->fingerprint,
					  &h->me, &error);
	if (ret != 1)
		return server_store_fail(h, ret < 0 ? error : "key not bound");
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
	if (h->me == NULL && msg->fingerprint != NULL)
		return identity_confirm_key(h, c, out);
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

/* Is fpr one of the daemon's own keys (the mail layer said so, or it is
 * the bot's)?  1, 0, -1. */
static int identity_own_key(struct handle *h, const char *fpr)
{
	const struct server_inbound *msg = h->msg;

	for (size_t i = 0; i < msg->own_offered_count; i++)
		if (strcasecmp(msg->own_offered_fprs[i], fpr) == 0)
			return 1;
	return bot_is_key(h, fpr);
}

int identity_key_replace(struct handle *h, const struct command *c,
			 struct game *g, struct template_ctx *out)
{
	const struct server_inbound *msg = h->msg;
	struct store_player *other = NULL;
	char code[IDENTITY_CODE_LEN + 1];
	const char *error, *fresh = NULL;
	size_t i, n = 0;
	int ret;

	(void)c;
	(void)g;
	if (msg->fingerprint == NULL)
		return server_refuse(h, "key_replace_unsigned");
	if (msg->own_offered_count > 0) {
		server_refuse(h, "key_replace_own_key");
		template_ctx_set(h->refusal, "fingerprint",
				 msg->own_offered_fprs[0]);
		return REFUSED;
	}
	for (i = 0; i < msg->offered_count; i++)
		if (strcasecmp(msg->offered_fprs[i], msg->fingerprint) != 0) {
			fresh = msg->offered_fprs[i];
			n++;
		}
	if (n == 0 && msg->offered_outside > 0)
		return server_refuse(h, "key_replace_outside");
	if (n != 1) {
		server_refuse(h, "key_replace_needs_one");
		template_ctx_set_int(h->refusal, "count", (long)n);
		return REFUSED;
	}
	ret = identity_own_key(h, fresh);
	if (ret < 0)
		return -1;
	if (ret == 1) {
		server_refuse(h, "key_replace_own_key");
		template_ctx_set(h->refusal, "fingerprint", fresh);
		return REFUSED;
	}
	ret = store_player_by_fingerprint(h->srv->store, fresh, &other, &error);
	store_player_free(&other);
	if (ret < 0)
		return server_store_fail(h, error);
	if (ret == 1)
		return server_refuse(h, "key_taken");
	/* Nothing binds yet: the new key must sign the code. */
	if (identity_new_code(h, code) < 0)
		return -1;
	if (store_key_claim_set(h->srv->store, h->me->id, fresh,
				msg->fingerprint, code, h->now, &error) < 0)
		return server_store_fail(h, error);
	template_ctx_set(out, "old", msg->fingerprint);
	template_ctx_set(out, "new", fresh);
	template_ctx_set(out, "code", code);
	return 0;
}
