/* intake.c -- the game service's decisions about a mail as a whole, taken
 * in its one transaction after the duplicate check, before any command
 * runs: so a mail handed out twice (a crash before the mailbox heard of
 * the commit) changes nothing twice, the rate counter included.
 *
 * In order: revocation certificates it carried (self-proving: no
 * signature needed), a mail signed by one of the daemon's own keys (a
 * copy of a mail we sent: recorded, never answered), delivery reports (only one naming a Message-ID of
 * ours marks an address failing), loops and automatic mail (recorded,
 * never answered), the sender rate limit, and a refusal of the whole mail
 * with the backscatter rule: mail whose sender nobody verified is answered
 * at most once a day per address (a bad signature by the key of the
 * player registered there: the first few a day), and never at an address
 * that is not usable or is an unknown one of our own domain.
 */
#include "server/server_private.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "util/msgid.h"

/* A day, for the one refusal an unverified address may get. */
#define INTAKE_REFUSAL_WINDOW (24 * 3600)
#define INTAKE_RATE_WINDOW 3600

/* A delivery report: mark the address a mail of ours went to failing --
 * only for a report that names one of our Message-IDs (unguessable, see
 * command_message_id()); a recipient line anyone can write is no proof. */
static int intake_bounce(struct handle *h, struct server_outcome *out)
{
	const struct server_inbound *msg = h->msg;
	size_t i, marked = 0;

	for (i = 0; i < msg->bounce_id_count; i++) {
		struct store_outbox_msg *sent = NULL;
		const char *error;
		char id[512];
		int r;

		r = store_outbox_by_message_id(h->srv->store,
					       msgid_bare(msg->bounce_ids[i], id,
						       sizeof(id)),
					       &sent, &error);
		if (r < 0)
			return server_store_fail(h, error);
		if (r == 0)
			continue;
		r = store_address_mark_failing(h->srv->store, sent->recipient,
					       true, h->now, "our mail bounced",
					       &error);
		store_outbox_msgs_free(&sent, 1);
		if (r < 0)
			return server_store_fail(h, error);
		marked += (size_t)r;
	}
	snprintf(out->outcome, sizeof(out->outcome),
		 marked ? "ignored: bounce (%zu address%s marked failing)" :
			  "ignored: bounce (names no mail of ours)",
		 marked, marked == 1 ? "" : "es");
	return 0;
}

/* Revocation certificates the mail carried and the mail layer imported:
 * the key identifies nobody from now on, and its player is told at the
 * address they confirmed. */
static int intake_revocations(struct handle *h, size_t *revoked_r)
{
	const struct server_inbound *msg = h->msg;
	size_t i;

	*revoked_r = 0;
	for (i = 0; i < msg->revoked_count; i++) {
		struct store_player *p = NULL;
		struct template_ctx *ctx;
		struct template_set *was;
		struct buf body = BUF_INIT, subject = BUF_INIT;
		const char *error;
		int64_t pid = 0;
		int r;

		r = store_key_revoke(h->srv->store, msg->revoked_fprs[i], h->now,
				     &pid, &error);
		if (r < 0)
			return server_store_fail(h, error);
		if (r == 0)
			continue;
		(*revoked_r)++;
		r = store_player_load(h->srv->store, pid, &p, &error);
		if (r < 0)
			return server_store_fail(h, error);
		if (r == 0)
			continue;
		/* In the reader's language (language.c); the sender's
		 * again after. */
		was = h->ts;
		if (server_write_to(h, p->id) < 0) {
			store_player_free(&p);
			return -1;
		}
		ctx = template_ctx_new();
		template_ctx_set(ctx, "name", p->name);
		template_ctx_set(ctx, "fingerprint", msg->revoked_fprs[i]);
		template_ctx_set_bool(ctx, "keys_left", p->n_fingerprints > 0);
		r = server_render(h, server_notices[NOTICE_KEY_REVOKED].template,
				  ctx, &body);
		if (r == 0)
			r = server_render_line(h, "mail/subject-key-revoked.txt",
					       ctx, &subject);
		if (r == 0)
			r = server_queue_notice(
				h, p, NULL, false,
				server_notices[NOTICE_KEY_REVOKED].kind,
				&subject, &body);
		h->ts = was;
		template_ctx_free(&ctx);
		buf_free(&body);
		buf_free(&subject);
		store_player_free(&p);
		if (r < 0)
			return -1;
	}
	return 0;
}

/* Is addr on our own domain?  Such an address that no player holds is a
 * forged sender: answering it only makes a bounce. */
static bool intake_our_domain(const struct handle *h, const char *addr)
{
	const char *ours = h->srv->cfg.our_address, *a, *b;

	if (ours == NULL || (a = strrchr(ours, '@')) == NULL ||
	    (b = strrchr(addr, '@')) == NULL)
		return false;
	return strcasecmp(a, b) == 0;
}

/* Whether to answer a refused mail, and the outcome note when not. */
/* Refusals a day for a registered player whose own key made a signature
 * that did not verify (a mail program that changes the text after
 * signing: the player needs each answer while trying to fix it). */
#define INTAKE_PLAYER_TRIES 3

/* How many refusals today the From address may get (into *allowed_r): a
 * bad signature that names the key of the player registered at that
 * address gets INTAKE_PLAYER_TRIES, anything else one.  A forger who
 * copies that player's signature gets no more than those few. */
static int intake_refusals_allowed(struct handle *h, long *allowed_r)
{
	const struct server_inbound *msg = h->msg;
	struct store_player *p = NULL;
	const char *error;
	int r;

	*allowed_r = 1;
	if (msg->signer == NULL || msg->signer[0] == '\0' ||
	    (strcmp(h->mail_refusal, "bad_signature") != 0 &&
	     strcmp(h->mail_refusal, "bad_signature_nbsp") != 0))
		return 0;
	r = store_player_by_address(h->srv->store, msg->from_address, &p,
				    &error);
	if (r < 0)
		return server_store_fail(h, error);
	for (size_t i = 0; r > 0 && i < p->n_fingerprints; i++)
		if (strcasecmp(p->fingerprints[i], msg->signer) == 0)
			*allowed_r = INTAKE_PLAYER_TRIES;
	store_player_free(&p);
	return 0;
}

static int intake_answer_refusal(struct handle *h, const char **why_r)
{
	const struct server_inbound *msg = h->msg;
	const char *from = msg->from_address, *error;
	struct store_player *p = NULL;
	char key[STORE_ADDRESS_MAX + 16];
	long count = 0, allowed;
	int r;

	*why_r = NULL;
	if (msg->fingerprint != NULL && h->me != NULL)
		return 0; /* a verified player: the reply goes to them */
	if (!server_address_usable(from)) {
		*why_r = "no usable From address";
		return 0;
	}
	if (intake_our_domain(h, from)) {
		r = store_player_by_address(h->srv->store, from, &p, &error);
		store_player_free(&p);
		if (r < 0)
			return server_store_fail(h, error);
		if (r == 0) {
			*why_r = "From is an unknown address of our own domain";
			return 0;
		}
	}
	snprintf(key, sizeof(key), "refusal:%s", from);
	if (store_rate_hit(h->srv->store, key, h->now, INTAKE_REFUSAL_WINDOW,
			   &count, &error) < 0)
		return server_store_fail(h, error);
	if (intake_refusals_allowed(h, &allowed) < 0)
		return -1;
	if (count > allowed)
		*why_r = "this address had its refusal today";
	return 0;
}

/* A mail signed by a player's own key: they are there and reading, so
 * the marks bounces left on their addresses are lifted (the next bounce
 * marks them again).  An unsigned From proves nothing. */
static int intake_player_alive(struct handle *h)
{
	struct store_player *me = h->me;
	const char *error;

	if (h->msg->fingerprint == NULL || me == NULL)
		return 0;
	for (size_t i = 0; i < me->n_addresses; i++) {
		if (!me->addresses[i].failing)
			continue;
		if (store_address_mark_failing(h->srv->store,
					       me->addresses[i].address, false,
					       h->now, NULL, &error) < 0)
			return server_store_fail(h, error);
		me->addresses[i].failing = false;
	}
	return 0;
}

/* The values mail/mail-refused.txt words a refusal with: who signed,
 * when, how big the mail was, what the decoder said, the hourly limit. */
static void intake_refusal_vars(struct handle *h)
{
	const struct server_inbound *msg = h->msg;
	struct template_ctx *r = h->reply;

	template_ctx_set_int(r, "per_hour", (long)h->srv->cfg.sender_rate_limit);
	if (msg->signer != NULL && msg->signer[0] != '\0')
		template_ctx_set(r, "signer", msg->signer);
	if (msg->signature_time != 0)
		server_set_utc(r, "signed_at", msg->signature_time, false);
	template_ctx_setf(r, "size", "%zu", msg->size);
	template_ctx_setf(r, "size_limit", "%zu", msg->size_limit);
	if (msg->problem != NULL)
		template_ctx_set(r, "problem", msg->problem);
}

/* A mail out of the mailbox signed by one of the daemon's own keys is a
 * copy of a mail we sent (a signed relay, a bot move, re-wrapped): it
 * speaks for nobody.  1 (and out filled) when this mail is one, 0 when
 * not, -1. */
static int intake_own_signer(struct handle *h, struct server_outcome *out)
{
	const struct server_inbound *msg = h->msg;
	int bot = 0;

	if (msg->fingerprint == NULL || msg->in_process)
		return 0;
	if (!msg->own_signer) {
		bot = bot_is_key(h, msg->fingerprint);
		if (bot <= 0)
			return bot;
	}
	out->status = SERVER_IGNORED;
	snprintf(out->outcome, sizeof(out->outcome),
		 "refused: own_key (signed by a key of this daemon; "
		 "not answered)");
	return 1;
}

int intake_decide(struct handle *h, struct server_outcome *out)
{
	const struct server_inbound *msg = h->msg;
	const char *why = NULL, *error, *rate_key;
	size_t revoked = 0;
	int own;

	/* A revocation certificate proves itself, whoever carried it (the
	 * mail layer has imported it already): taken first. */
	if (intake_revocations(h, &revoked) < 0)
		return -1;
	if (revoked > 0) {
		/* The certificate was the point of the mail; and commands
		 * signed by a key it revoked must not run. */
		out->status = SERVER_IGNORED;
		snprintf(out->outcome, sizeof(out->outcome),
			 "key revoked (%zu)", revoked);
		return 1;
	}
	/* Then, before anything else of the mail is acted on: the daemon's
	 * own keys authorise nothing that arrives by mail. */
	own = intake_own_signer(h, out);
	if (own != 0)
		return own;
	if (msg->silent_outcome != NULL) {
		out->status = SERVER_IGNORED;
		if (strcmp(msg->silent_outcome, "bounce") == 0)
			return intake_bounce(h, out) < 0 ? -1 : 1;
		snprintf(out->outcome, sizeof(out->outcome), "ignored: %s",
			 msg->silent_outcome);
		return 1;
	}
	/* A flood from one sender -- signed or not, refused or not -- is
	 * answered once more, then ignored for the rest of the hour.  A
	 * verified signer is counted by key, anyone else by address. */
	rate_key = msg->fingerprint != NULL ? msg->fingerprint :
		   msg->from_address;
	/* The daemon's own bot moves in every game it plays: not counted
	 * (only the bot thread's own, intake_own_signer() saw to that). */
	if (msg->fingerprint != NULL && msg->in_process) {
		int bot = bot_is_key(h, msg->fingerprint);
		if (bot < 0)
			return -1;
		if (bot == 1)
			rate_key = NULL;
	}
	if (h->srv->cfg.sender_rate_limit > 0 && rate_key != NULL) {
		long count = 0, limit = (long)h->srv->cfg.sender_rate_limit;

		if (store_rate_hit(h->srv->store, rate_key, h->now,
				   INTAKE_RATE_WINDOW, &count, &error) < 0)
			return server_store_fail(h, error);
		if (count > limit + 1) {
			out->status = SERVER_IGNORED;
			snprintf(out->outcome, sizeof(out->outcome),
				 "ignored: rate-limited");
			return 1;
		}
		if (count == limit + 1)
			h->mail_refusal = "rate_limited";
	}
	/* What this sender's mails made us send this hour. */
	if (h->mail_refusal == NULL) {
		int r = limits_gate(h, out);
		if (r != 0)
			return r;
	}
	if (h->mail_refusal == NULL)
		return intake_player_alive(h);
	/* The mail as a whole cannot be read as commands: answer once with
	 * why (if the sender may be answered), and run nothing. */
	out->status = SERVER_MAIL_REFUSED;
	if (intake_answer_refusal(h, &why) < 0)
		return -1;
	snprintf(out->outcome, sizeof(out->outcome), "refused: %s%s%s%s",
		 h->mail_refusal, why ? " (not answered: " : "", why ? why : "",
		 why ? ")" : "");
	if (why != NULL)
		return 1;
	template_ctx_set_bool(h->reply, "mail_refused", true);
	template_ctx_set_bool(h->reply, h->mail_refusal, true);
	intake_refusal_vars(h);
	return server_queue_reply(h) < 0 ? -1 : 1;
}
