/* server.c -- the game service: one inbound mail, one store transaction
 * (see server.h for the steps, server_private.h for the files). */
#include "server/server_private.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/msgid.h"

void server_config_default(struct server_config *cfg_r)
{
	memset(cfg_r, 0, sizeof(*cfg_r));
	core_variant_default(&cfg_r->default_variant);
	cfg_r->require_signature = true;
	cfg_r->clock.reminder_hours[0] = 48;
	cfg_r->clock.reminder_hours[1] = 12;
	cfg_r->clock.nreminders = 2;
	cfg_r->clock.vacation.start_days = 10;
	cfg_r->clock.vacation.earn_per_year = 30;
	cfg_r->clock.vacation.cap_days = 30;
	cfg_r->clock.auto_vacation = true;
	cfg_r->clock.manual_claim = false;
	cfg_r->clock.outage_grace = 6 * CLOCK_HOUR;
	rating_config_default(&cfg_r->rating);
}

int server_new(struct store *store, const struct server_config *cfg,
	       struct server **server_r, const char **error_r)
{
	struct server *srv;

	*server_r = NULL;
	if (cfg->domain == NULL || cfg->domain[0] == '\0') {
		*error_r = "server: no Message-ID domain configured";
		return -1;
	}
	if (cfg->templates == NULL) {
		*error_r = "server: no template set";
		return -1;
	}
	srv = calloc(1, sizeof(*srv));
	if (srv == NULL) {
		*error_r = "server: out of memory";
		return -1;
	}
	srv->store = store;
	srv->cfg = *cfg;
	srv->domain = strdup(cfg->domain);
	if (srv->domain == NULL) {
		free(srv);
		*error_r = "server: out of memory";
		return -1;
	}
	srv->cfg.domain = srv->domain;
	/* The competitions' arrays are the service's own (their strings
	 * stay the caller's, as the domain's do not). */
	srv->cfg.ladders = NULL;
	srv->cfg.leagues = NULL;
	if (cfg->nladders > 0) {
		struct server_ladder *l = calloc(cfg->nladders, sizeof(*l));
		if (l != NULL)
			memcpy(l, cfg->ladders, cfg->nladders * sizeof(*l));
		srv->cfg.ladders = l;
	}
	if (cfg->nleagues > 0) {
		struct server_league *l = calloc(cfg->nleagues, sizeof(*l));
		if (l != NULL)
			memcpy(l, cfg->leagues, cfg->nleagues * sizeof(*l));
		srv->cfg.leagues = l;
	}
	srv->cfg.tournaments = NULL;
	if (cfg->ntournaments > 0) {
		struct server_tournament *t = calloc(cfg->ntournaments,
						     sizeof(*t));
		if (t != NULL)
			memcpy(t, cfg->tournaments,
			       cfg->ntournaments * sizeof(*t));
		srv->cfg.tournaments = t;
	}
	if ((cfg->nladders > 0 && srv->cfg.ladders == NULL) ||
	    (cfg->nleagues > 0 && srv->cfg.leagues == NULL) ||
	    (cfg->ntournaments > 0 && srv->cfg.tournaments == NULL)) {
		server_free(&srv);
		*error_r = "server: out of memory";
		return -1;
	}
	*server_r = srv;
	return 0;
}

void server_free(struct server **server)
{
	if (*server == NULL)
		return;
	free((*server)->domain);
	free((void *)(*server)->cfg.ladders);
	free((void *)(*server)->cfg.leagues);
	free((void *)(*server)->cfg.tournaments);
	free(*server);
	*server = NULL;
}

/* What the mail layer found, and what this club accepts: an unsigned
 * mail is a weak identity where the operator allows unsigned play, and
 * refused elsewhere. */
static void classify(struct handle *h)
{
	const struct server_inbound *msg = h->msg;

	h->mail_refusal = msg->mail_refusal;
	h->weak = msg->weak_identity;
	if (h->mail_refusal != NULL &&
	    strcmp(h->mail_refusal, "unsigned") == 0 &&
	    !h->srv->cfg.require_signature) {
		h->mail_refusal = NULL;
		h->weak = true;
	}
}

static int identify(struct handle *h)
{
	const struct server_inbound *msg = h->msg;
	const char *error;
	int ret = 0;

	if (msg->fingerprint != NULL && msg->own_signer && !msg->in_process)
		return 0; /* our own key, from the mailbox: nobody (intake.c) */
	if (msg->fingerprint != NULL)
		ret = store_player_by_fingerprint(h->srv->store,
						  msg->fingerprint, &h->me,
						  &error);
	else if (h->weak && h->mail_refusal == NULL &&
		 server_address_usable(msg->from_address))
		/* Only where the operator chose to trust From (unsigned
		 * clubs): a refused mail's From is nobody's word. */
		ret = store_player_by_address(h->srv->store, msg->from_address,
					      &h->me, &error);
	return ret < 0 ? server_store_fail(h, error) : 0;
}

/* An exact duplicate of a mail handled before (seen_id, its first
 * reading): recorded as such -- when, from which mailbox, pointing at the
 * first -- and nothing else: no answer, no rate count, no effect. */
static int record_duplicate(struct handle *h, int64_t seen_id,
			    struct server_outcome *out)
{
	const struct server_inbound *msg = h->msg;
	struct store_inbound in;
	const char *error;

	out->status = SERVER_DUPLICATE;
	out->inbound_id = seen_id;
	snprintf(out->outcome, sizeof(out->outcome),
		 "duplicate of inbound %" PRId64, seen_id);
	memset(&in, 0, sizeof(in));
	in.message_id = (char *)h->message_id;
	in.sha256 = (char *)msg->raw_sha256;
	in.received = h->now;
	in.source = (char *)msg->source;
	in.sender_address = (char *)msg->from_address;
	in.sender_fingerprint = (char *)msg->fingerprint;
	in.outcome = out->outcome;
	in.duplicate_of = seen_id;
	if (store_inbound_record(h->srv->store, &in, NULL, &error) != 0)
		return server_store_fail(h, error);
	return 0;
}

/* A replayed signed text is refused in the thread of the game its
 * commands name first (read from the signed text, as commands_run()
 * reads it; it is the same text the first time) -- for a sender who may
 * see that game.  0 or -1. */
static int replay_game(struct handle *h)
{
	struct command_list list;
	int ret = 0;

	if (h->me == NULL || identity_pending(h->me))
		return 0;
	commands_parse(h, &list);
	for (size_t i = 0; i < list.count && ret == 0; i++)
		if (list.items[i].game > 0) {
			ret = game_note_first(h, list.items[i].game);
			break;
		}
	command_list_free(&list);
	return ret;
}

static int handle_in_transaction(struct handle *h, struct server_outcome *out)
{
	const struct server_inbound *msg = h->msg;
	struct store *st = h->srv->store;
	struct store_inbound in;
	const char *error;
	int64_t seen_id;
	int ret;

	if (msg->message_id != NULL && msg->message_id[0] != '\0')
		h->message_id = msgid_bare(msg->message_id, h->msgid,
					       sizeof(h->msgid));
	ret = store_inbound_seen(st, msg->raw_sha256, &seen_id, &error);
	if (ret < 0)
		return server_store_fail(h, error);
	if (ret == 1)
		return record_duplicate(h, seen_id, out);
	classify(h);
	if (identify(h) < 0)
		return -1;
	memset(&in, 0, sizeof(in));
	in.message_id = (char *)h->message_id;
	in.sha256 = (char *)msg->raw_sha256;
	in.raw = (char *)msg->raw;
	in.raw_len = msg->raw_len;
	in.raw_truncated = msg->raw_truncated;
	in.received = h->now;
	in.source = (char *)msg->source;
	in.sender_address = (char *)msg->from_address;
	in.sender_fingerprint = (char *)msg->fingerprint;
	in.player_id = h->me != NULL ? h->me->id : 0;
	in.outcome = "handling";
	ret = store_inbound_record(st, &in, &h->inbound_id, &error);
	if (ret < 0)
		return server_store_fail(h, error);
	if (ret == 1) {
		/* seen() said no, record() says yes: another process got it
		 * between; it is a duplicate all the same. */
		ret = store_inbound_seen(st, msg->raw_sha256, &seen_id, &error);
		if (ret < 0)
			return server_store_fail(h, error);
		if (ret == 0)
			return server_store_fail(h, "inbound mail both seen and unseen");
		return record_duplicate(h, seen_id, out);
	}
	out->inbound_id = h->inbound_id;

	ret = intake_decide(h, out);
	if (ret < 0)
		return -1;
	if (ret == 1)
		goto record;
	if (msg->signed_sha256 != NULL && msg->fingerprint != NULL) {
		ret = store_signature_record(st, msg->fingerprint,
					     msg->signature_time,
					     msg->signed_sha256, h->inbound_id,
					     h->now, &error);
		if (ret < 0)
			return server_store_fail(h, error);
		if (ret == 1) {
			out->status = SERVER_REPLAY;
			snprintf(out->outcome, sizeof(out->outcome),
				 "replay: signed text used before");
			template_ctx_set_bool(h->reply, "replay", true);
			if (replay_game(h) < 0 ||
			    server_queue_reply(h) < 0)
				return -1;
			goto record;
		}
	}
	if (commands_run(h, out) < 0)
		return -1;
record:
	out->player_id = h->me != NULL ? h->me->id : 0;
	if (store_inbound_set_outcome(st, h->inbound_id, out->outcome,
				      &error) < 0)
		return server_store_fail(h, error);
	return 0;
}

/* One message inside the open transaction.  0 handled (out filled), -1
 * with *error_r (the caller rolls back); *mail_fault_r tells a failure
 * that is the mail's own (a value the store's rules refuse) from one of
 * the machinery (busy, I/O, a template missing). */
static int handle_one(struct server *server, const struct server_inbound *msg,
		      int64_t now, struct server_outcome *out,
		      bool *mail_fault_r, const char **error_r)
{
	struct handle h;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	out->failed_line = -1;
	*mail_fault_r = false;
	if (msg->raw_sha256 == NULL) {
		*error_r = "server: message without a sha256";
		return -1;
	}
	memset(&h, 0, sizeof(h));
	h.srv = server;
	h.msg = msg;
	h.now = now;
	/* A move is charged at the mailbox's receipt of its mail, which is
	 * never later than now. */
	h.received = msg->received > 0 && msg->received < now ?
		     msg->received : now;
	h.reply = template_ctx_new();
	if (handle_in_transaction(&h, out) < 0) {
		/* Keep the text: the store's strings die at rollback. */
		snprintf(server->errbuf, sizeof(server->errbuf), "%s",
			 h.error != NULL ? h.error : "failure");
		*error_r = server->errbuf;
		*mail_fault_r = h.error != NULL &&
			store_error_kind(server->store) == STORE_ERROR_USAGE;
		ret = -1;
	} else {
		out->queued = h.queued;
	}
	store_player_free(&h.me);
	template_ctx_free(&h.reply);
	template_ctx_free(&h.refusal);
	return ret;
}

/* A mail whose own data broke a rule of the store (after its effects were
 * rolled back to its savepoint): record it as failed, with why, so it is
 * neither retried for ever nor holding up the mails behind it. */
static int record_failed(struct server *server,
			 const struct server_inbound *msg, int64_t now,
			 const char *why, struct server_outcome *out)
{
	struct store_inbound in;
	const char *error;
	char outcome[sizeof(out->outcome)];

	snprintf(outcome, sizeof(outcome), "failed: %s", why);
	memset(out, 0, sizeof(*out));
	out->failed_line = -1;
	out->status = SERVER_FAILED;
	snprintf(out->outcome, sizeof(out->outcome), "%s", outcome);
	memset(&in, 0, sizeof(in));
	in.sha256 = (char *)msg->raw_sha256;
	in.raw = (char *)msg->raw;
	in.raw_len = msg->raw_len;
	in.raw_truncated = msg->raw_truncated;
	in.received = now;
	in.source = (char *)msg->source;
	in.outcome = outcome;
	return store_inbound_record(server->store, &in, &out->inbound_id,
				    &error) < 0 ? -1 : 0;
}

int server_handle_batch(struct server *server,
			const struct server_inbound *msgs, size_t count,
			int64_t now, struct server_outcome *outs,
			const char **error_r)
{
	const char *error;
	size_t i;

	for (i = 0; i < count; i++) {
		memset(&outs[i], 0, sizeof(outs[i]));
		outs[i].failed_line = -1;
	}
	if (store_begin(server->store, &error) < 0) {
		*error_r = error;
		return -1;
	}
	for (i = 0; i < count; i++) {
		bool mail_fault = false;
		int r;

		if (store_savepoint(server->store, error_r) < 0)
			break;
		r = handle_one(server, &msgs[i], now, &outs[i], &mail_fault,
			       error_r);
		if (store_savepoint_end(server->store, r == 0, &error) < 0 &&
		    r == 0) {
			*error_r = error;
			break;
		}
		if (r == 0)
			continue;
		/* One mail's own fault costs only that mail. */
		if (!mail_fault || record_failed(server, &msgs[i], now, *error_r,
						 &outs[i]) < 0)
			break;
	}
	if (i == count && store_commit(server->store, &error) == 0)
		return 0;
	if (i == count) {
		snprintf(server->errbuf, sizeof(server->errbuf), "%s", error);
		*error_r = server->errbuf;
	}
	/* Nothing of the batch stays: no outcome claims a queued mail. */
	store_rollback(server->store);
	for (i = 0; i < count; i++) {
		outs[i].queued = 0;
		outs[i].inbound_id = 0;
	}
	return -1;
}

int server_handle(struct server *server, const struct server_inbound *msg,
		  int64_t now, struct server_outcome *out,
		  const char **error_r)
{
	return server_handle_batch(server, msg, 1, now, out, error_r);
}

int server_key_bound(struct server *server, const char *fpr,
		     const char **error_r)
{
	struct store_player *p = NULL;
	int r = store_player_by_fingerprint(server->store, fpr, &p, error_r);

	store_player_free(&p);
	/* A key a `key replace` claims stays until its proof comes back
	 * (signed by it, which gpg can check only with the key). */
	if (r == 0)
		r = store_key_claimed(server->store, fpr, error_r);
	return r;
}

int server_prune_rates(struct server *server, int64_t now,
		       const char **error_r)
{
	const char *error;

	if (store_begin(server->store, &error) < 0 ||
	    store_rate_prune(server->store, now - SERVER_RATE_WINDOW_MAX,
			     &error) < 0) {
		store_rollback(server->store);
		*error_r = error;
		return -1;
	}
	if (store_commit(server->store, &error) < 0) {
		*error_r = error;
		return -1;
	}
	return 0;
}

int server_check_templates(struct server *server, const char **error_r)
{
	return commands_check_templates(server, error_r);
}
