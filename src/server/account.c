/* account.c -- a player's own account by signed mail: `address NEW`
 * (their mail moved to a new address), `export me` (what the club holds
 * about them, mailed), `delete me` (they leave), and the operator's
 * `ashes player delete NAME`.
 *
 * Each is signed by the player's key: an address is only where mail
 * goes, and anyone can write any From.  So a new address, like a first
 * one (identity.c), binds only when the code mailed to it comes back in
 * a mail signed by the same key -- `confirm CODE`, sent from any address
 * (the new one, naturally): the signature says who, the code that the
 * new address reads its mail.  One change waits at a time, for
 * ACCOUNT_ADDRESS_WINDOW, with ACCOUNT_TRIES wrong codes at most; the
 * codes to an address are limited as a registration's are, and the old
 * address is told once the mail has moved.
 *
 * The export is made by the daemon's outbox when it sends the mail (the
 * keys' armour is the keyring's, which the service knows nothing of):
 * the service decides, once a day (limits.c), and queues a mail of kind
 * "export" to the player's address.
 *
 * A deletion needs a code too (`delete me`, then `delete me CODE` within
 * ACCOUNT_DELETE_WINDOW), so that a mail replayed or written in haste
 * deletes nobody.  Then the player's open games are resigned and their
 * challenges withdrawn or declined through play.c, as if they had sent
 * the commands, so clocks, ladders and ratings settle as usual; what is
 * the person's goes (store_player_forget()); the name becomes
 * ACCOUNT_DELETED_PREFIX and the key's long id, and the games, their
 * moves and their signatures stay, for they are the other players'
 * games too. */
#include "server/server_private.h"
#include "server/retention.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* How long a code for a new address, and one for a deletion, holds. */
#define ACCOUNT_ADDRESS_WINDOW (2 * 24 * 3600)
#define ACCOUNT_DELETE_WINDOW (24 * 3600)
/* Wrong codes before a waiting change is dropped. */
#define ACCOUNT_TRIES 5
/* The most games one deletion ends (a player has far fewer: the limits
 * on challenges bound them). */
#define ACCOUNT_GAMES_MAX 1000

/* The account commands change who a key's owner is: an unsigned mail
 * (a club that takes them) cannot ask. */
static int account_signed(struct handle *h)
{
	if (h->msg->fingerprint == NULL || h->weak)
		return server_refuse(h, "account_unsigned");
	return 0;
}

/* Render the one-line subject of an account mail (`what` a flag of
 * mail/subject-account.txt) into subject.  0 or -1. */
static int account_subject(struct handle *h, const char *what,
			   struct buf *subject)
{
	struct template_ctx *ctx = template_ctx_new();
	int ret;

	template_ctx_set_bool(ctx, what, true);
	ret = server_render_line(h, "mail/subject-account.txt", ctx, subject);
	template_ctx_free(&ctx);
	return ret;
}

/* A mail about the account to `to` (an address the player gave, or
 * their old one), rendered from template with ctx. */
static int account_mail(struct handle *h, const char *to, const char *what,
			const char *template, struct template_ctx *ctx)
{
	struct buf body = BUF_INIT, subject = BUF_INIT;
	int ret;

	ret = server_render(h, template, ctx, &body);
	if (ret == 0)
		ret = account_subject(h, what, &subject);
	if (ret == 0)
		ret = server_queue_mail(h, to, h->me->id, NULL, false,
					STORE_OUTBOX_KIND_NOTICE,
					buf_str(&subject), h->message_id,
					NULL, buf_str(&body), true);
	buf_free(&body);
	buf_free(&subject);
	return ret;
}

int account_address(struct handle *h, const struct command *c,
		    struct game *g, struct template_ctx *out)
{
	struct store_player *owner = NULL;
	char code[IDENTITY_CODE_LEN + 1];
	struct template_ctx *ctx;
	const char *error, *to = c->address;
	bool ok;
	int ret;

	(void)g;
	if ((ret = account_signed(h)) != 0)
		return ret;
	if (!server_address_usable(to)) {
		server_refuse(h, "bad_new_address");
		template_ctx_set(h->refusal, "address", to);
		return REFUSED;
	}
	ret = store_player_by_address(h->srv->store, to, &owner, &error);
	if (ret < 0)
		return server_store_fail(h, error);
	if (owner != NULL) {
		bool mine = owner->id == h->me->id;

		store_player_free(&owner);
		server_refuse(h, mine ? "address_already_yours" :
			      "address_taken");
		template_ctx_set(h->refusal, "address", to);
		return REFUSED;
	}
	if (identity_code_allowed(h, to, &ok) < 0)
		return -1;
	if (!ok) {
		server_refuse(h, "address_code_sent_today");
		template_ctx_set(h->refusal, "address", to);
		return REFUSED;
	}
	if (identity_new_code(h, code) < 0)
		return -1;
	if (store_account_code_set(h->srv->store, h->me->id,
				   STORE_ACCOUNT_ADDRESS, to, code, h->now,
				   &error) < 0)
		return server_store_fail(h, error);
	ctx = template_ctx_new();
	template_ctx_set(ctx, "name", h->me->name);
	template_ctx_set(ctx, "code", code);
	server_set_utc(ctx, "until", h->now + ACCOUNT_ADDRESS_WINDOW, false);
	ret = account_mail(h, to, "address_code", "mail/address-code.txt",
			   ctx);
	template_ctx_free(&ctx);
	template_ctx_set(out, "address", to);
	server_set_utc(out, "until", h->now + ACCOUNT_ADDRESS_WINDOW, false);
	return ret;
}

/* A code given for a waiting change of purpose p: 0 it is the one (the
 * change is dropped, done or not), REFUSED (wrong: counted, the change
 * dropped at the last try; or its time is up), -1.  `what` prefixes the
 * refusals' codes: "address" or "delete". */
static int account_code_check(struct handle *h,
			      const struct store_account_code *pending,
			      const char *given, int64_t window,
			      const char *what)
{
	char reason[48];
	const char *error;
	int tries = 0;

	if (h->now - pending->created > window) {
		if (store_account_code_delete(h->srv->store, h->me->id,
					      pending->purpose, &error) < 0)
			return server_store_fail(h, error);
		snprintf(reason, sizeof(reason), "%s_expired", what);
		return server_refuse(h, reason);
	}
	if (strcasecmp(pending->code, given) != 0) {
		if (store_account_code_miss(h->srv->store, h->me->id,
					    pending->purpose, &tries,
					    &error) < 0)
			return server_store_fail(h, error);
		if (tries >= ACCOUNT_TRIES &&
		    store_account_code_delete(h->srv->store, h->me->id,
					      pending->purpose, &error) < 0)
			return server_store_fail(h, error);
		snprintf(reason, sizeof(reason), "%s_%s", what,
			 tries >= ACCOUNT_TRIES ? "tries" : "bad_code");
		server_refuse(h, reason);
		template_ctx_set_int(h->refusal, "left", ACCOUNT_TRIES - tries);
		template_ctx_set_int(h->refusal, "tries", ACCOUNT_TRIES);
		return REFUSED;
	}
	if (store_account_code_delete(h->srv->store, h->me->id,
				      pending->purpose, &error) < 0)
		return server_store_fail(h, error);
	return 0;
}

/* `confirm CODE` for a waiting new address: the player's mail moves
 * there and the old address is told. */
static int account_address_move(struct handle *h,
				const struct store_account_code *pending,
				const struct command *c,
				struct template_ctx *out)
{
	struct template_ctx *ctx;
	const char *error, *a;
	char *old = NULL;
	int64_t pid = h->me->id;
	int ret;

	if ((ret = account_code_check(h, pending, c->code,
				      ACCOUNT_ADDRESS_WINDOW, "address")) != 0)
		return ret;
	if ((a = server_player_address(h->me)) != NULL &&
	    (old = strdup(a)) == NULL)
		return server_store_fail(h, "out of memory");
	ret = store_player_move_address(h->srv->store, pid, pending->address,
					h->now, &error);
	if (ret < 0) {
		free(old);
		return server_store_fail(h, error);
	}
	if (ret == 1) {
		/* Someone confirmed it for themselves meanwhile. */
		free(old);
		server_refuse(h, "address_taken");
		template_ctx_set(h->refusal, "address", pending->address);
		return REFUSED;
	}
	template_ctx_set_bool(out, "address_moved", true);
	template_ctx_set(out, "name", h->me->name);
	template_ctx_set(out, "address", pending->address);
	if (old != NULL && strcasecmp(old, pending->address) != 0) {
		ctx = template_ctx_new();
		template_ctx_set(ctx, "name", h->me->name);
		template_ctx_set(ctx, "old", old);
		template_ctx_set(ctx, "address", pending->address);
		ret = account_mail(h, old, "address_moved",
				   "mail/address-moved.txt", ctx);
		template_ctx_free(&ctx);
		template_ctx_set(out, "old", old);
	}
	free(old);
	if (ret < 0)
		return -1;
	/* Reload: the reply goes to the new address. */
	store_player_free(&h->me);
	if (store_player_load(h->srv->store, pid, &h->me, &error) != 1)
		return server_store_fail(h, error);
	return 0;
}

int account_confirm(struct handle *h, const struct command *c,
		    struct game *g, struct template_ctx *out)
{
	struct store_account_code pending;
	const char *error;
	int ret;

	/* A registered player's change of address, signed by their key;
	 * anything else is identity.c's (a first address, a new key). */
	if (h->me == NULL || identity_pending(h->me) ||
	    h->msg->fingerprint == NULL || h->weak)
		return identity_confirm(h, c, g, out);
	ret = store_account_code_get(h->srv->store, h->me->id,
				     STORE_ACCOUNT_ADDRESS, &pending, &error);
	if (ret < 0)
		return server_store_fail(h, error);
	if (ret == 0)
		return identity_confirm(h, c, g, out);
	ret = account_address_move(h, &pending, c, out);
	store_account_code_clear(&pending);
	return ret;
}

int account_export(struct handle *h, const struct command *c,
		   struct game *g, struct template_ctx *out)
{
	struct template_ctx *ctx;
	struct buf body = BUF_INIT, subject = BUF_INIT;
	char *to = NULL;
	int ret;

	(void)c;
	(void)g;
	if ((ret = account_signed(h)) != 0)
		return ret;
	if (server_reply_address(h, h->me, &to) < 0)
		return -1;
	if (to == NULL)
		return server_store_fail(h, "a registered player without an "
					 "address");
	if ((ret = limits_export(h)) != 0) {
		free(to);
		return ret;
	}
	ctx = template_ctx_new();
	template_ctx_set(ctx, "name", h->me->name);
	ret = server_render(h, "mail/export.txt", ctx, &body);
	if (ret == 0)
		ret = account_subject(h, "export", &subject);
	/* The file is the outbox's to make when it sends the mail, for the
	 * player whose address it goes to then. */
	if (ret == 0)
		ret = server_queue_mail(h, to, h->me->id, NULL, false,
					STORE_OUTBOX_KIND_EXPORT,
					buf_str(&subject), h->message_id, NULL,
					buf_str(&body), true);
	template_ctx_set(out, "address", to);
	template_ctx_free(&ctx);
	buf_free(&body);
	buf_free(&subject);
	free(to);
	return ret;
}

/* End player p's open games as if they had sent the commands: resign
 * those under way, withdraw their challenges, decline those to them.
 * h->me is p meanwhile.  The count in *ended_r.  0 or -1. */
static int account_end_games(struct handle *h, struct store_player *p,
			     size_t *ended_r)
{
	const unsigned open = 1u << STORE_GAME_CHALLENGE |
			      1u << STORE_GAME_OPEN | 1u << STORE_GAME_ACTIVE;
	struct store_player *was = h->me;
	struct store_game *games = NULL;
	const char *error;
	size_t n = 0;
	int ret = 0;

	*ended_r = 0;
	if (store_games_for_player(h->srv->store, p->id, open, &games, &n,
				   &error) < 0)
		return server_store_fail(h, error);
	if (n > ACCOUNT_GAMES_MAX)
		n = ACCOUNT_GAMES_MAX;
	h->me = p;
	for (size_t i = 0; i < n && ret == 0; i++) {
		struct template_ctx *ctx = template_ctx_new();
		struct command c;
		struct game gm;

		memset(&c, 0, sizeof(c));
		memset(&gm, 0, sizeof(gm));
		c.game = games[i].id;
		if (games[i].status == STORE_GAME_ACTIVE)
			c.kind = COMMAND_RESIGN;
		else if (games[i].challenger_id == p->id)
			c.kind = COMMAND_WITHDRAW;
		else
			c.kind = COMMAND_DECLINE;
		ret = game_load(h, c.game, &gm, true);
		if (ret == 1)
			ret = c.kind == COMMAND_RESIGN ?
			      play_resign(h, &c, &gm, ctx) :
			      play_decline(h, &c, &gm, ctx);
		if (ret == REFUSED) {
			snprintf(h->srv->errbuf, sizeof(h->srv->errbuf),
				 "game %" PRId64 " of %s could not be ended",
				 c.game, p->name);
			ret = server_store_fail(h, h->srv->errbuf);
		} else if (ret == 0) {
			(*ended_r)++;
		}
		game_free(&gm);
		template_ctx_free(&ctx);
	}
	h->me = was;
	store_rows_free(&games, n, sizeof(*games), store_game_clear);
	return ret < 0 ? -1 : 0;
}

/* Delete player p (see the top of this file); the new name into
 * new_name (COMMAND_NAME_MAX + 1), the games ended in *ended_r.  0 or
 * -1. */
static int account_delete(struct handle *h, struct store_player *p,
			  char *new_name, size_t *ended_r)
{
	const char *error, *fpr;
	int ret = 1;

	struct retention_report rep;

	if (account_end_games(h, p, ended_r) < 0)
		return -1;
	/* Every mail of theirs kept as received: reduced to what proves a
	 * game (its signed part and signature, no header), the others'
	 * bytes dropped -- while their keys and addresses still find them.
	 * The mail in hand is among them. */
	memset(&rep, 0, sizeof(rep));
	if (retention_reduce_player(h->srv->store, p->id, h->now, &rep,
				    &error) < 0)
		return server_store_fail(h, error);
	/* The key's long id (its last 16 hex digits, as gpg shows it):
	 * unique while keys are; else, or should two collide, the id. */
	for (int attempt = 0; attempt < 2 && ret == 1; attempt++) {
		fpr = p->n_fingerprints > 0 ? p->fingerprints[0] : NULL;
		if (attempt == 0 && fpr != NULL && strlen(fpr) >= 16)
			snprintf(new_name, COMMAND_NAME_MAX + 1, "%s%s",
				 ACCOUNT_DELETED_PREFIX,
				 fpr + strlen(fpr) - 16);
		else
			snprintf(new_name, COMMAND_NAME_MAX + 1, "%s%" PRId64,
				 ACCOUNT_DELETED_PREFIX, p->id);
		ret = store_player_forget(h->srv->store, p->id, new_name,
					  h->now, &error);
		if (ret < 0)
			return server_store_fail(h, error);
	}
	if (ret == 1)
		return server_store_fail(h, "no free name for a deleted "
					 "player");
	return 0;
}

int account_delete_run(struct handle *h, const struct command *c,
		       struct game *g, struct template_ctx *out)
{
	struct store_account_code pending;
	char code[IDENTITY_CODE_LEN + 1], name[COMMAND_NAME_MAX + 1];
	const char *error;
	size_t ended = 0;
	int ret;

	(void)g;
	if ((ret = account_signed(h)) != 0)
		return ret;
	if (c->code[0] == '\0') {
		if (identity_new_code(h, code) < 0)
			return -1;
		if (store_account_code_set(h->srv->store, h->me->id,
					   STORE_ACCOUNT_DELETE, NULL, code,
					   h->now, &error) < 0)
			return server_store_fail(h, error);
		template_ctx_set(out, "code", code);
		server_set_utc(out, "until", h->now + ACCOUNT_DELETE_WINDOW,
			       false);
		return 0;
	}
	/* Nothing may run as a player who is gone: the last line. */
	if (h->commands != NULL && h->commands->count > 0 &&
	    &h->commands->items[h->commands->count - 1] != c)
		return server_refuse(h, "delete_not_last");
	ret = store_account_code_get(h->srv->store, h->me->id,
				     STORE_ACCOUNT_DELETE, &pending, &error);
	if (ret < 0)
		return server_store_fail(h, error);
	if (ret == 0)
		return server_refuse(h, "delete_nothing_pending");
	ret = account_code_check(h, &pending, c->code, ACCOUNT_DELETE_WINDOW,
				 "delete");
	store_account_code_clear(&pending);
	if (ret != 0)
		return ret;
	/* h->me keeps its addresses in memory: the reply, the last mail,
	 * goes to the address the player had. */
	if (account_delete(h, h->me, name, &ended) < 0)
		return -1;
	template_ctx_set_bool(out, "deleted", true);
	template_ctx_set(out, "new_name", name);
	template_ctx_set_int(out, "ended", (long)ended);
	return 0;
}

int server_player_delete(struct server *server, const char *name,
			 int64_t now, struct buf *out, const char **error_r)
{
	struct store_player *p = NULL;
	char new_name[COMMAND_NAME_MAX + 1];
	struct handle h;
	const char *error;
	size_t ended = 0;
	int r;

	if (store_begin(server->store, &error) < 0) {
		*error_r = error;
		return -1;
	}
	server_handle_at(server, &h, now);
	r = store_player_by_name(server->store, name, &p, &error);
	if (r == 1 && store_player_deleted(server->store, p->id, &error) == 1)
		r = 2;
	if (r != 1) {
		store_rollback(server->store);
		store_player_free(&p);
		snprintf(server->errbuf, sizeof(server->errbuf), "%s",
			 r < 0 ? error : r == 2 ? "that player is deleted "
			 "already" : "no such player");
		*error_r = server->errbuf;
		return -1;
	}
	if (account_delete(&h, p, new_name, &ended) < 0) {
		store_rollback(server->store);
		store_player_free(&p);
		*error_r = h.error != NULL ? h.error : "the deletion failed";
		return -1;
	}
	if (store_commit(server->store, &error) < 0) {
		store_player_free(&p);
		snprintf(server->errbuf, sizeof(server->errbuf), "%s", error);
		*error_r = server->errbuf;
		return -1;
	}
	buf_printf(out, "%s is deleted: now %s; %zu open game%s ended.\n",
		   p->name, new_name, ended, ended == 1 ? "" : "s");
	store_player_free(&p);
	return 0;
}
