/* server.h -- the game service: one inbound mail (already verified and
 * decoded by the mail layer) in; store changes and outgoing mails out, all
 * in ONE store transaction.
 *
 * The service knows the rules (through core), the store (through its named
 * functions) and text (through templates/mail/ (*.txt)); it knows nothing of
 * IMAP, SMTP, MIME or OpenPGP.
 *
 * What server_handle() does with a message, in one transaction:
 *  1. idempotence: a message already handled (the same raw bytes, by
 *     sha256; never by Message-ID alone, which anyone can take first)
 *     changes nothing and queues nothing (SERVER_DUPLICATE);
 *  1b. the mail as a whole (intake.c): revocations it carries, a
 *     delivery report naming one of our Message-IDs, loops and automatic
 *     mail, the sender rate limit, a refusal and whether to answer it
 *     (unverified senders are answered once a day at most);
 *  2. the signature history: a signed text (sha256 of the signed content)
 *     is accepted once, ever (SERVER_REPLAY, answered once);
 *  3. identity: the verified fingerprint decides who the sender is (or,
 *     without a signature, the registered From address: a weak identity
 *     the reply warns about).  An unknown sender may only `register`;
 *  4. the commands (command.h), in order, through the rules core; the first
 *     refused command stops the rest, earlier ones keep their effect;
 *  5. the outbox: one reply to the sender (at the player's registered
 *     address; only a not-yet-registered sender is answered at From),
 *     "your move" notices to the player to move, notices to observers;
 *  6. the record that the message was handled, with its outcome.
 * Any failure (store error, template error) rolls everything back: nothing
 * is queued and the message may be handled again later.
 *
 * Outbox messages are structured, not finished RFC 5322 mails: the store
 * row holds the envelope recipient, our Message-ID, a header block and a
 * UTF-8 text/plain body.  The header block holds exactly these lines, each
 * ended by "\n":
 *   To: <address>
 *   Subject: [ashes #GAME] ...        (stable per game; ASCII)
 *   Message-ID: <ashes.GAME.PLY.INBOUND.SEQ@domain>
 *   In-Reply-To: <...>                (if answering or in a game thread)
 *   References: <...> <...>           (if any)
 *   Auto-Submitted: auto-replied      (replies) | auto-generated (notices)
 *   X-Ashes-Game: GAME                (if about a game)
 *   X-Ashes-Ply: N                    (the plies played when queued)
 *   X-Ashes-Kind: reply|your-move|observer|challenge|result
 * The mail-out layer adds From, Reply-To, Date, MIME-Version and
 * Content-Type (and may add a text/html alternative with the board
 * picture from server_board_svg(X-Ashes-Game, X-Ashes-Ply); observers'
 * mails, X-Ashes-Kind: observer, may get a List-Unsubscribe that sends
 * "unobserve GAME"), then signs and sends.
 */
#ifndef ASHES_SERVER_SERVER_H
#define ASHES_SERVER_SERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/core.h"
#include "util/buf.h"

struct store;
struct template_set;

struct server_config {
	/* Domain of our Message-IDs, e.g. "ashes.example.org".  Required. */
	const char *domain;
	/* Templates (templates/mail/ (*.txt) and help-commands.txt).  Required;
	 * owned by the caller and must outlive the server. */
	struct template_set *templates;
	/* Options a challenge starts from (size=5, no swap, tax=removed when
	 * zeroed by server_config_default()). */
	struct core_variant default_variant;
	/* Whether games allow draw offers unless the challenge says draw=no. */
	bool draw_default;
	/* Most legal moves listed in a "your move" mail before the list is
	 * cut (with a note to send `moves GAME`).  0: all. */
	size_t max_listed_moves;
	/* Commands run from one mail; the next one is refused as "too many".
	 * 0: COMMAND_MAX. */
	size_t max_commands;
	/* Mails answered per sender (msg->rate_key) per hour: the next one is
	 * answered once, saying so, and the rest of the hour are recorded
	 * unanswered.  0: no limit. */
	unsigned sender_rate_limit;
	/* New players per hour, all senders together.  0: no limit. */
	unsigned registrations_per_hour;
	/* Our own From address: a refusal is never sent to an address of our
	 * own domain that is no player's (a forged sender there only makes
	 * bounces).  May be NULL. */
	const char *our_address;
};

/* Defaults: no domain, no templates, default variant, draws allowed. */
void server_config_default(struct server_config *cfg_r);

struct server;

/* One inbound mail as the mail layer hands it over.  Every string is
 * NUL-terminated and only read during server_handle(). */
struct server_inbound {
	/* Verified signer (hex fingerprint), or NULL for an unsigned mail
	 * (only passed on when the daemon runs with require_signature = no). */
	const char *fingerprint;
	/* The From address (bare addr-spec).  Identifies an unsigned sender
	 * and is the address a `register` binds; replies to a registered
	 * player never go here but to the registered address. */
	const char *from_address;
	/* The identity is weak (no signature, or one the mail layer did not
	 * trust fully): the reply says so. */
	bool weak_identity;
	/* A public key came with the mail (attached or pasted) and the mail
	 * layer imported it; `register` is only meaningful with a key. */
	bool key_offered;
	const char *message_id;   /* with or without <>; may be NULL */
	const char *raw_sha256;   /* 64 lower-case hex digits; required */
	const char *raw;          /* raw bytes for the archive; may be NULL */
	size_t raw_len;
	/* sha256 of the signed content and the signature's creation time,
	 * for the replay history; NULL / 0 when unsigned. */
	const char *signed_sha256;
	int64_t signature_time;
	const char *subject;      /* decoded Subject, may be NULL */
	/* References and In-Reply-To, space separated, may be NULL. */
	const char *references;
	const char *body;         /* the (signed) text, UTF-8 */
	size_t body_len;
	/* Text outside the signed part was ignored: the reply says so. */
	bool unsigned_text_ignored;
	/* Set by the mail layer when the mail cannot be taken as commands at
	 * all: the reason code (a section of templates/mail/mail-refused.txt:
	 * unsigned, bad_signature, unknown_key, key_expired, key_revoked,
	 * signature_expired, signature_too_old, signature_future, too_big,
	 * unreadable, rate_limited) and a detail shown with it (a
	 * fingerprint, a size, the decoder's words).  The message is recorded
	 * and answered once with why; no command runs.  NULL: a normal mail. */
	const char *mail_refusal;
	const char *mail_refusal_detail;
	/* Set for mail that is archived and never answered (a loop, an
	 * auto-reply, a bounce, a flood): the outcome word to record. */
	const char *silent_outcome;
	const char *source;       /* mailbox source name, may be NULL */
	/* What this mail counts as for the sender rate limit: the verified
	 * signer's fingerprint, else the From address; NULL: not counted.
	 * Counted in the transaction, after the duplicate check, so a mail
	 * handed out twice counts once. */
	const char *rate_key;
	/* A delivery report (silent_outcome "bounce"): the Message-IDs it
	 * names.  Only one of ours marks the address we sent it to failing. */
	const char *const *bounce_ids;
	size_t bounce_id_count;
	/* Bound keys a revocation certificate in this mail revoked (the mail
	 * layer imported it; gpg checked it is the key's own). */
	const char *const *revoked_fprs;
	size_t revoked_count;
	/* Keys this mail carried that the mail layer imported (not the
	 * signer's): what `key replace` binds. */
	const char *const *offered_fprs;
	size_t offered_count;
	/* raw holds only the header block (a mail too big to keep). */
	bool raw_truncated;
};

enum server_status {
	SERVER_OK = 0,       /* every command ran */
	SERVER_REFUSED,      /* a command was refused; the reply says why */
	SERVER_DUPLICATE,    /* handled before: nothing changed or queued */
	SERVER_REPLAY,       /* a signed text used before; answered, no effect */
	SERVER_NO_COMMANDS,  /* nothing to do; a short reply was queued */
	SERVER_MAIL_REFUSED, /* msg->mail_refusal: recorded, answered why */
	SERVER_IGNORED,      /* msg->silent_outcome: recorded, not answered */
	SERVER_FAILED,       /* the mail's own data broke a rule of the store:
			      * nothing of it applied; recorded with why */
};

struct server_outcome {
	enum server_status status;
	int64_t inbound_id;  /* the recorded message (existing for duplicate) */
	int64_t player_id;   /* the sender as identified, or 0 */
	size_t commands_run; /* commands that succeeded */
	int failed_line;     /* line of the refused command (0: subject), or -1 */
	size_t queued;       /* outbox messages queued */
	/* "ok", "refused: line 3: ...", "duplicate", ... as recorded. */
	char outcome[256];
};

/* A service over an open store.  The store and templates are borrowed.
 * -1 with *error_r (static text) if the config lacks domain or templates. */
int server_new(struct store *store, const struct server_config *cfg,
	       struct server **server_r, const char **error_r);
void server_free(struct server **server);

/* Handle one inbound mail as described at the top of this file.
 * Returns 0 when the message was handled (whatever its commands did, see
 * out->status) and the transaction committed; -1 with *error_r when
 * nothing could be done (store busy or broken, template missing): the
 * transaction was rolled back, nothing queued, and the caller should try
 * the message again later.  *error_r is valid until the next call. */
int server_handle(struct server *server, const struct server_inbound *msg,
		  int64_t now, struct server_outcome *out,
		  const char **error_r);

/* Handle `count` messages in ONE store transaction (group commit): the
 * same as server_handle() for each, in order, with outs[i] for msgs[i],
 * but one commit (one fsync) for all of them.  If any message fails,
 * the whole batch is rolled back, nothing is queued, and -1 is returned:
 * the caller should then retry the messages one by one with
 * server_handle() so one bad message cannot hold up the others.  The
 * mail-in layer may mark messages seen only after 0 is returned. */
int server_handle_batch(struct server *server,
			const struct server_inbound *msgs, size_t count,
			int64_t now, struct server_outcome *outs,
			const char **error_r);

/* Does a player hold the key fpr (bound, not revoked)?  1 yes, 0 no, -1
 * with *error_r.  The mail layer drops a key a mail brought that no
 * player holds after the mail was handled (a refused registration), so
 * refused mail cannot grow the keyring. */
int server_key_bound(struct server *server, const char *fpr,
		     const char **error_r);

/* Load and parse every template the service uses (and their partials),
 * so a broken or incomplete override folder is refused at start-up and on
 * reload rather than on the first mail.  -1 with *error_r
 * ("path:line: reason", valid until the next call on the template set). */
int server_check_templates(struct server *server, const char **error_r);

/* Render the mailed `help` text (templates/mail/help.txt, which includes
 * templates/help-commands.txt) into out.  -1 on a template error. */
int server_help_text(struct server *server, struct buf *out,
		     const char **error_r);

/* `ashes game show ID`: players, status, the board and every stored ply
 * with its player, time and inbound message, from templates/
 * admin-game.txt, appended to out.  -1 with *error_r ("no game 12", a
 * store or template error; valid until the next call). */
int server_game_show(struct server *server, int64_t game_id,
		     struct buf *out, const char **error_r);

/* The board of game_id after `ply` plies (as in X-Ashes-Ply), with the ply
 * that led there outlined, as a self-contained SVG picture appended to
 * out: for the text/html alternative of a mail.  -1 with *error_r (no
 * such game or ply, store failure). */
int server_board_svg(struct server *server, int64_t game_id, int ply,
		     struct buf *out, const char **error_r);

#endif
