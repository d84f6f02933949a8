/* server_private.h -- what the game service's files share: the service
 * itself, the mail in hand, a loaded game, and the helpers every command
 * uses (refusals, rendering, queueing mail).  Not for use outside
 * src/server.
 */
#ifndef ASHES_SERVER_PRIVATE_H
#define ASHES_SERVER_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/record.h"
#include "render/template.h"
#include "server/command.h"
#include "server/server.h"
#include "store/store.h"
#include "util/buf.h"

struct server {
	struct store *store;
	struct server_config cfg;
	char *domain;
	char errbuf[512];
};

/* Everything about the message in hand. */
struct handle {
	struct server *srv;
	const struct server_inbound *msg;
	int64_t now;
	int64_t inbound_id;
	struct store_player *me; /* NULL: not registered */
	int64_t first_game;      /* first game a command touched, for the
				  * reply's subject and thread */
	int seq;                 /* Message-ID counter within this message */
	size_t queued;
	const char *error;       /* system failure (rolls back) */
	/* The mail's Message-ID without <> (callers may pass either), or
	 * NULL. */
	char msgid[256];
	const char *message_id;
	/* Refusal of the current command: the reason code and its values,
	 * rendered by mail/refusal.txt. */
	struct template_ctx *refusal;
	struct template_ctx *reply; /* the reply's variables */
	/* The whole mail is refused (a code of mail/mail-refused.txt): from
	 * the mail layer, or the service's own (rate limit). */
	const char *mail_refusal;
	char refusal_detail[256];
	/* This mail made a confirmation code (register): the one mail a
	 * claimed, unconfirmed address ever gets from us. */
	bool code_sent;
	/* The failure is the mail's own (a value the store's rules refuse),
	 * not the machinery's: record it and go on, never retry it. */
	bool mail_fault;
};

/* A game as the service works with it: the stored row and the replayed
 * record. */
struct game {
	struct store_game *row;
	struct core_record rec;
	bool rec_ok;
	bool draws;
	char white[COMMAND_NAME_MAX + 1];
	char black[COMMAND_NAME_MAX + 1];
	char challenger[COMMAND_NAME_MAX + 1];
	char opponent[COMMAND_NAME_MAX + 1]; /* "anyone" for open */
};

#define REFUSED 1

/* A Message-ID as we store it: "<id@x>" -> "id@x" (cut to fit len) in
 * buf, which is returned; one without both angle brackets as it is. */
const char *server_bare_id(const char *id, char *buf, size_t len);
/* The address to write to: the first one not failing (NULL if none). */
const char *server_player_address(const struct store_player *p);
/* Start a refusal of the current command with reason `code` (a section of
 * mail/refusal.txt); returns REFUSED. */
int server_refuse(struct handle *h, const char *code);
/* Note a system failure (rolls the mail back); returns -1. */
int server_store_fail(struct handle *h, const char *error);
/* Render template `name` with ctx, appended to out; -1 on a template
 * error (h->error set). */
int server_render(struct handle *h, const char *name,
		  const struct template_ctx *ctx, struct buf *out);
/* Render into the string value `key` of dst, trailing newlines dropped. */
int server_render_into(struct handle *h, const char *name,
		       const struct template_ctx *src,
		       struct template_ctx *dst, const char *key);
/* Queue one mail to `to` (nothing when NULL); see server.c. */
int server_queue_mail(struct handle *h, const char *to, struct game *g,
		      const char *kind, const char *subject,
		      const char *answer_id, const char *answer_refs,
		      const char *body, bool auto_reply);
/* The reply to the sender of the mail in hand (h->reply's variables). */
int server_queue_reply(struct handle *h, const char *kind);

/* True when `addr` can be bound or written to: 3 to STORE_ADDRESS_MAX
 * bytes, one '@' with text on both sides, no space, control character or
 * angle bracket.  An unsigned header may hold anything. */
bool server_address_usable(const char *addr);
/* The address a player's mail goes to: a bound, working one; else, for
 * the mail that made a confirmation code, the claimed address (unless
 * another player confirmed it first); else NULL -- a claimed address gets
 * nothing but its code. */
int server_reply_address(struct handle *h, const struct store_player *p,
			 char **addr_r);

/* intake.c: the decisions about the mail as a whole, after it was
 * recorded and before its commands: revocations it carries, bounces,
 * loops, the rate limit, refusals and whom to answer.  0: go on to the
 * commands; 1: decided (out filled); -1: failure. */
int intake_decide(struct handle *h, struct server_outcome *out);

/* identity.c: the account commands. */
int identity_register(struct handle *h, const struct command *c,
		      struct template_ctx *out);
int identity_confirm(struct handle *h, const struct command *c,
		     struct template_ctx *out);
int identity_key_replace(struct handle *h, const struct command *c,
			 struct template_ctx *out);
/* A player who registered but has not confirmed an address yet may only
 * confirm (or ask for help, or register again for a new code). */
bool identity_pending(const struct store_player *p);

#endif
