/* server.h -- the game service: one inbound mail (already verified and
 * decoded by the mail layer) in; store changes and outgoing mails out, all
 * in ONE store transaction.
 *
 * The service knows the rules (through core), the store (through its named
 * functions) and text (through templates/mail/ (*.txt)); it knows nothing of
 * IMAP, SMTP, MIME or OpenPGP.
 *
 * What server_handle() does with a message, in one transaction (the
 * service takes every decision about a mail; the daemon only wires):
 *  1. idempotence: a message already handled (the same raw bytes, by
 *     sha256; never by Message-ID alone, which anyone can take first)
 *     is recorded as a duplicate of its first reading and changes nothing
 *     else, queuing nothing (SERVER_DUPLICATE) -- the rate counter, the
 *     bounce marks and the replay history included;
 *  2. the mail as a whole (intake.c): revocations it carries, a
 *     delivery report (only one naming one of our Message-IDs marks an
 *     address failing), loops and automatic mail, whether an unsigned
 *     mail is read (server_config.require_signature), the sender rate
 *     limit, a refusal and whether to answer it (unverified senders are
 *     answered once a day at most); a mail signed by a player lifts the
 *     failing marks of their addresses;
 *  3. the signature history: a signed text (sha256 of the signed content)
 *     is accepted once, ever (SERVER_REPLAY, answered once);
 *  4. identity: the verified fingerprint decides who the sender is (or,
 *     without a signature, the registered From address: a weak identity
 *     the reply warns about).  An unknown sender may only `register`;
 *  5. the commands (command.h), in order, through the command table
 *     (commands.c) and the rules core; the first refused command stops
 *     the rest, earlier ones keep their effect;
 *  6. the outbox: one reply to the sender (at the player's registered
 *     address; only a not-yet-registered sender is answered at From),
 *     "your move" notices to the player to move, notices to observers;
 *  7. the record that the message was handled, with its outcome.
 * Any failure (store error, template error) rolls everything back: nothing
 * is queued and the message may be handled again later.
 *
 * Outgoing mails are typed envelopes (struct store_outbox_msg: kind,
 * recipient, our Message-ID, subject, threading, game and ply, the text,
 * and for a mail about a game the html alternative and the board picture
 * at that ply, rendered when queued).  The mail layer (compose.c) alone
 * turns one into RFC 5322 headers; sending never calls back into the
 * service.
 */
#ifndef ASHES_SERVER_SERVER_H
#define ASHES_SERVER_SERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/core.h"
#include "core/record2.h"
#include "server/clock.h"
#include "server/ladder.h"
#include "server/league.h"
#include "server/rating.h"
#include "server/tournament.h"
#include "util/buf.h"

struct store;
struct template_set;

/* The clocks' settings (the [clock] section of ashesd.conf). */
#define SERVER_REMINDERS_MAX 4
struct server_clock_config {
	/* The time control of a challenge that names none (clock.h's
	 * spec: "none", "days:3", "fischer:240h+36h/240h"), and whether its
	 * weekends are off.  NULL: "none". */
	const char *default_clock;
	bool default_weekends_off;
	/* A player is reminded when their clock has this many hours left,
	 * highest first (48, 12); a threshold at or above what a turn began
	 * with is skipped.  No more than one reminder mail a day goes to a
	 * player: several games are told in one.  nreminders 0: none. */
	int reminder_hours[SERVER_REMINDERS_MAX];
	size_t nreminders;
	/* The vacation bank (start 10 days, 30 earned a year, cap 30). */
	struct clock_vacation_policy vacation;
	/* A flag that would fall spends vacation days first (the game and
	 * the bank permitting). */
	bool auto_vacation;
	/* timeout_claim = manual: a fallen flag waits for the opponent's
	 * `claim GAME` (who may keep waiting) instead of ending the game. */
	bool manual_claim;
	/* A gap between two runs of the timer longer than this (the daemon
	 * was away, or could not read its mailbox) gives the time back to
	 * every clock whose flag fell in it, instead of flagging.  Seconds;
	 * 0: never. */
	int64_t outage_grace;
};

/* A club's competition as the configuration lists it ([ladder NAME],
 * [league NAME]).  What the service keeps is the event log and the games
 * (the store); this is the rules.  server_new() copies it all. */
struct server_club {
	const char *name;
	const char *where;   /* "ashesd.conf:42", for the operator's log */
	const char *const *members; /* player names, pending until they
				     * register */
	size_t nmembers;
	bool open;           /* players may join and leave by mail */
	struct core_variant variant;
	const char *clock;   /* a time control spec (clock.h) */
	bool weekends_off;
	bool rated;
};
struct server_ladder {
	struct server_club club;
	struct ladder_rules rules;
	bool standings_mail; /* the weekly standings mail */
};
struct server_league {
	struct server_club club;
	struct league_rules rules;
};
/* [tournament NAME]: one event (tournament.h's rules, with when it
 * starts and what bounds its rounds).  Times are epoch seconds. */
struct server_tournament {
	struct server_club club;
	struct tournament_rules rules;
	int64_t signup_until;  /* sign-up by mail closes (<= start) */
	int64_t start;         /* round 1 is paired at or after it */
	size_t max_players;    /* entrants at most */
	/* a game still running this long after its round was paired is
	 * decided (club_tournament.c); 0: none */
	int64_t round_deadline;
	bool standings_mail;   /* the weekly standings mail */
};

/* The practice opponent ([bot] in ashesd.conf; bot.c, bot_turn.c).  The
 * bot is a player whose key is the daemon's signing key: the daemon's
 * bot thread plays its moves as signed mails through server_handle(),
 * like anyone's.  It never gets mail. */
struct server_bot_config {
	bool enabled;        /* `challenge bot` is taken */
	const char *name;    /* the bot player's name, e.g. "Ashes bot" */
	unsigned levels;     /* bit L set: level L (1..5) is offered */
	size_t max_games;    /* bot games open or under way at once; 0: any */
	bool rated;          /* its games are rated */
	int64_t delay;       /* seconds it waits after its opponent moved */
	int64_t think_ms;    /* its thinking time per move */
	size_t max_games_per_player; /* one player's bot games at once; 0: any */
	/* The time control of a bot game whose challenge names none (a
	 * clock spec, clock.h; vacations are not taken): so that a game
	 * whose player stops moving ends on time.  NULL: none. */
	const char *clock;
};

/* What one player's mails may make the daemon send and compute
 * ([limits] in ashesd.conf; limits.c).  Counted in the service's
 * transaction; 0: no limit. */
struct server_limits {
	/* Mails queued and their bytes (an archive weighs its game's
	 * mails), to anyone, from one player's mails in an hour: past it,
	 * one notice saying when it resets, and nothing more until then. */
	unsigned mails_per_hour;
	uint64_t bytes_per_hour;
	unsigned hints_per_hour;     /* `hint`s of one player an hour */
	unsigned challenges_per_day; /* from one player to the same one */
	unsigned open_challenges;    /* one player's unanswered at once */
};

struct server_config {
	/* Domain of our Message-IDs, e.g. "ashes.example.org".  Required. */
	const char *domain;
	/* Templates (templates/mail/ (*.txt) and help-commands.txt).  Required;
	 * owned by the caller and must outlive the server. */
	struct template_set *templates;
	/* Options a challenge starts from (size=5, no swap, tax=removed,
	 * draw offers allowed, from server_config_default()); draw_offers is
	 * also what a stored game without draw= follows. */
	struct core_variant default_variant;
	/* Most legal moves listed in a "your move" mail before the list is
	 * cut (with a note to send `moves GAME`).  0: all. */
	size_t max_listed_moves;
	/* Commands run from one mail; the next one is refused as "too many".
	 * 0: COMMAND_MAX. */
	size_t max_commands;
	/* Mails answered per sender (the verified key, else From) per hour: the next one is
	 * answered once, saying so, and the rest of the hour are recorded
	 * unanswered.  0: no limit. */
	unsigned sender_rate_limit;
	/* New players per hour, all senders together.  0: no limit. */
	unsigned registrations_per_hour;
	/* Only signed mail is read (the default).  When false, an unsigned
	 * mail (mail_refusal "unsigned") is read as from its registered From
	 * address: a weak identity the reply warns about. */
	bool require_signature;
	/* Our own From address: a refusal is never sent to an address of our
	 * own domain that is no player's (a forged sender there only makes
	 * bounces).  May be NULL. */
	const char *our_address;
	struct server_clock_config clock;
	/* The club's ladders and leagues, and the ratings' settings. */
	const struct server_ladder *ladders;
	size_t nladders;
	const struct server_league *leagues;
	size_t nleagues;
	const struct server_tournament *tournaments;
	size_t ntournaments;
	struct rating_config rating;
	struct server_bot_config bot;
	struct server_limits limits;
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
	/* When our mailbox received the mail (IMAP INTERNALDATE): what a
	 * move is charged at, never the signature's time, which the sender
	 * chooses.  0 (unknown) or later than server_handle()'s now: now. */
	int64_t received;
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
	/* What is wrong with the mail as a whole, as decided from the mail
	 * layer's reading (server_inbound_from_mail()), as a code (a section
	 * of templates/mail/mail-refused.txt): unsigned,
	 * bad_signature, bad_signature_nbsp, unknown_key, key_expired, key_revoked,
	 * signature_expired, signature_too_old, signature_future, too_big,
	 * unreadable, signature_refused (the OpenPGP pre-scan), gpg_budget,
	 * weak_digest, encrypted (not to the club's key, or refused; problem
	 * then says why).  The service decides what follows: "unsigned" is a weak
	 * identity where require_signature is off; anything else is recorded
	 * and answered once with why (the backscatter rules permitting), and
	 * no command runs.  NULL: nothing wrong. */
	const char *mail_refusal;
	/* The facts a refusal is worded with (templates, not here): the
	 * fingerprint gpg named whatever its verdict, the decoder's reason
	 * for an unreadable mail, the mail's size and the limit. */
	const char *signer;
	const char *problem;
	size_t size;
	size_t size_limit;
	/* What the mail is when it is no mail to answer: "bounce" (a delivery
	 * report), a classifier's verdict ("loop", "auto-reply", ...), or the
	 * loop's record of a mail set aside unread.  Recorded, never
	 * answered. */
	const char *silent_outcome;
	const char *source;       /* mailbox source name, may be NULL */
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
	/* The signer is a key the daemon holds a secret for (its signing
	 * key, the bot's): the mail layer says so.  Such mail out of the
	 * mailbox is a copy of our own (a signed relay re-wrapped):
	 * recorded, never answered, and no command of it runs. */
	bool own_signer;
	/* The mail was made in this process -- the bot's move, which the
	 * bot thread hands over directly -- and never came through the
	 * mailbox: the only mail the bot's key may sign. */
	bool in_process;
	/* Keys this mail carried that the daemon holds a secret for: never
	 * offered to bind (`key replace` refuses them by name). */
	const char *const *own_offered_fprs;
	size_t own_offered_count;
	/* Keys the mail carried outside what its signature covers (beside
	 * a clearsigned text): anyone on the way can swap them, so they are
	 * never offered; `key replace` says so. */
	size_t offered_outside;
};

/* What server_inbound_from_mail() keeps beside the mail layer's reading
 * for the server_inbound it fills to point into. */
struct server_mail_facts {
	char *references;	/* References and In-Reply-To, joined */
	char message_id[512];	/* the mail's, without <> */
	/* A key of the mail too big to read, as the reply words it (the
	 * problem of an unknown_key refusal), or "". */
	char key_note[160];
};

/* The service's inbound for what the mail layer read of a mail (raw,
 * raw_len bytes): its identity, text and facts, and what the service
 * makes of the mail as a whole -- mail_refusal (and fingerprint when
 * there is none) or silent_outcome.  im, raw and facts must outlive
 * *si; free facts with server_mail_facts_free().  Left to the caller:
 * received, source, and what takes the keyring -- own_signer, the keys
 * revoked and offered. */
struct inbound_msg;
void server_inbound_from_mail(const struct inbound_msg *im, const char *raw,
			      size_t raw_len, size_t size_limit,
			      struct server_mail_facts *facts,
			      struct server_inbound *si);
void server_mail_facts_free(struct server_mail_facts *facts);

enum server_status {
	SERVER_OK = 0,       /* every command ran */
	SERVER_REFUSED,      /* a command was refused; the reply says why */
	SERVER_DUPLICATE,    /* handled before: recorded as a duplicate,
			      * nothing else changed or queued */
	SERVER_REPLAY,       /* a signed text used before; answered, no effect */
	SERVER_NO_COMMANDS,  /* nothing to do; a short reply was queued */
	SERVER_MAIL_REFUSED, /* msg->mail_refusal: recorded, answered why */
	SERVER_IGNORED,      /* msg->silent_outcome: recorded, not answered */
	SERVER_FAILED,       /* the mail's own data broke a rule of the store:
			      * nothing of it applied; recorded with why */
};

struct server_outcome {
	enum server_status status;
	int64_t inbound_id;  /* the recorded message (for a duplicate: its
			      * first reading) */
	int64_t player_id;   /* the sender as identified, or 0 */
	size_t commands_run; /* commands that succeeded */
	int failed_line;     /* line of the refused command (0: subject), or -1 */
	size_t queued;       /* outbox messages queued */
	/* "ok", "refused: line 3: ...", "duplicate of inbound 7", ... as
	 * recorded. */
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

/* The longest window any of the service's rate counters uses (the sender
 * limit and registrations an hour, a refusal or a confirmation code a
 * day, and the amplification limits of limits.c: an archive of a game and
 * the challenges to one player a day), with a day to spare: a counter whose window began before now
 * less this is over, and server_prune_rates() deletes it (the daemon
 * calls it from its periodic work). */
#define SERVER_RATE_WINDOW_MAX (2 * 24 * 3600)
int server_prune_rates(struct server *server, int64_t now,
		       const char **error_r);

/* Does a player hold the key fpr (bound, not revoked), or does a pending
 * `key replace` claim it (it waits for a mail signed by it)?  1 yes, 0
 * no, -1 with *error_r.  The mail layer drops a key a mail brought that no
 * player holds after the mail was handled (a refused registration), so
 * refused mail cannot grow the keyring. */
int server_key_bound(struct server *server, const char *fpr,
		     const char **error_r);

/* The mailbox the loop reads (mailbox.c): where it stopped per source
 * (0 and 0 for a source never seen), and the failed attempts at one mail
 * (counted and committed at once, outside any transaction, before the
 * attempt: a mail that crashes the daemon still counts).  Each 0, or -1
 * with *error_r.  *why_r: the last failure's reason (caller frees; may be
 * NULL). */
int server_mailbox_state(struct server *server, const char *source,
			 uint32_t *uidvalidity_r, uint32_t *last_uid_r,
			 const char **error_r);
int server_mailbox_save(struct server *server, const char *source,
			uint32_t uidvalidity, uint32_t last_uid, int64_t now,
			const char **error_r);
int server_attempt_count(struct server *server, const char *source,
			 uint32_t uidvalidity, uint32_t uid, const char *why,
			 int64_t now, long *attempts_r, const char **error_r);
int server_attempts(struct server *server, const char *source,
		    uint32_t uidvalidity, uint32_t uid, long *attempts_r,
		    char **why_r, const char **error_r);
int server_attempts_forget(struct server *server, const char *source,
			   uint32_t uidvalidity, uint32_t uid,
			   const char **error_r);

/* Load and parse every template the service uses (and their partials),
 * so a broken or incomplete override folder is refused at start-up and on
 * reload rather than on the first mail.  -1 with *error_r
 * ("path:line: reason", valid until the next call on the template set). */
int server_check_templates(struct server *server, const char **error_r);

/* `ashes game show ID`: players, status, the board and every stored ply
 * with its player, time and inbound message, the clocks at now and
 * their history, from templates/
 * admin-game.txt, appended to out.  -1 with *error_r ("no game 12", a
 * store or template error; valid until the next call). */
int server_game_show(struct server *server, int64_t game_id, int64_t now,
		     struct buf *out, const char **error_r);

/* The daily digests (digest.c): every observer who chose `set digest on`
 * and has changes noted before the UTC day of `now` began gets one mail
 * about them, queued in the outbox, and the notes are forgotten -- in
 * one transaction of its own (not inside another), so it may run as
 * often as the caller likes: at most one digest per observer per day,
 * nothing lost when it fails or the process dies.  The number of digests
 * queued, or -1 with *error_r (rolled back; valid until the next call). */
int server_send_digests(struct server *server, int64_t now,
			const char **error_r);

/* ---- the clocks' timer (timer.c) ----------------------------------- */

struct server_tick_report {
	size_t flags;        /* games lost on time */
	size_t cancelled;    /* games cancelled: no first move */
	size_t claimable;    /* flags fallen, left to the opponent's claim */
	size_t vacation_days;/* vacation days spent to save a flag */
	size_t extended;     /* clocks given back the daemon's absence */
	size_t reminders;    /* reminder mails queued */
	/* The club's work (ladders, leagues, ratings). */
	size_t club_joined;    /* listed members who joined a ladder */
	size_t club_withdrawn; /* absent or no longer listed */
	size_t club_results;   /* ended games applied to ladders/ratings */
	size_t club_rated;     /* of which rated */
	size_t club_walkovers; /* challenges not accepted in time */
	size_t club_seasons;   /* league seasons begun */
	size_t club_standings; /* weekly standings mails queued */
	size_t event_results;  /* event results taken into the logs */
	size_t event_rated;    /* of which rated */
	size_t event_rounds;   /* event rounds paired */
	size_t event_decided;  /* event games decided at a deadline */
	size_t event_ended;    /* events ended (final standings mailed) */
	size_t summaries;      /* daily summaries queued (summary.c) */
};

/* Everything the clocks owe at `now`, in ONE transaction of its own:
 * after a gap in the heartbeat longer than outage_grace, time given back
 * to the clocks whose flag fell in it; then every flag that fell at or
 * before now, in the order of the deadlines (a vacation day spent, the
 * game lost on time, cancelled, or left to claim), and the reminders
 * due (one mail per player per day at most), and the players' daily
 * summaries due (`set summary daily HH:MM`).  Mails are queued in the
 * outbox.  Run it after the mails waiting were handled: a move received
 * before its deadline must count.  0 (report may be NULL), or -1 with
 * *error_r (rolled back; valid until the next call). */
int server_clock_tick(struct server *server, int64_t now,
		      struct server_tick_report *report,
		      const char **error_r);
/* When the timer must run next: 1 and the earliest deadline or reminder
 * due of any game (a reminder put off by the one-a-day rule counts at
 * the time it was put off to) or daily summary due, 0 if none. */
int server_clock_next(struct server *server, int64_t *at_r,
		      const char **error_r);

/* ---- the club's competitions, for the operator (admin_club.c,
 * club_result.c) ------------------------------------------------------ */

/* `ashes ratings`: every rated player, best first
 * (templates/admin-ratings.txt), appended to out.  -1 with *error_r. */
int server_ratings_show(struct server *server, struct buf *out,
			const char **error_r);
/* `ashes ratings --recompute`: forget every rating and rebuild them from
 * the rated games, in the order their results were applied, in one
 * transaction: the same numbers as the games gave one by one.  *games_r:
 * the games that counted.  -1 with *error_r (nothing changed). */
int server_ratings_recompute(struct server *server, size_t *games_r,
			     const char **error_r);
/* `ashes ladder show NAME`: the standings at now
 * (templates/admin-ladder.txt); `ashes ladder history NAME`: every event
 * of its log, who recorded it and why (admin-ladder-history.txt).  -1
 * with *error_r ("no ladder NAME in the configuration"). */
int server_ladder_show(struct server *server, const char *ladder,
		       int64_t now, struct buf *out, const char **error_r);
int server_ladder_history(struct server *server, const char *ladder,
			  struct buf *out, const char **error_r);
/* `ashes ladder move NAME PLAYER POS`: the operator puts a member at
 * place pos (1 = top), recorded in the log as the operator's, with note
 * (may be NULL).  -1 with *error_r (no such ladder, player not a member,
 * pos out of range). */
int server_ladder_move(struct server *server, const char *ladder,
		       const char *player, int pos, const char *note,
		       int64_t now, struct buf *out, const char **error_r);
/* `ashes league show NAME`: the seasons, the current one's groups and
 * standings (templates/admin-league.txt).  -1 with *error_r. */
/* The operator's part in the events ([tournament NAME]; the rules are
 * docs/tournaments.md's), each output rendered from admin-tournament.txt
 * (the event's entrants, round, pairings, standings, crosstable): show
 * (reads); withdraw PLAYER (a WITHDRAW entry by the operator with note,
 * may be NULL: their running games resigned, later ones forfeited, as a
 * withdrawal by mail); adjudicate GAME (a stored game id) RESULT
 * ("white", "black", "draw") with note (required): an ADJUDICATION by
 * the operator, replacing any result, and a game still running ended
 * with it.  Each in a transaction of its own.  0, or -1 with *error_r (no
 * such event, player or game of the event, an event over, a player not
 * entered, a bad result). */
int server_tournament_show(struct server *server, const char *name,
			   int64_t now, struct buf *out, const char **error_r);
int server_tournament_withdraw(struct server *server, const char *name,
			       const char *player, const char *note,
			       int64_t now, struct buf *out,
			       const char **error_r);
int server_tournament_adjudicate(struct server *server, const char *name,
				 int64_t game_id, const char *result,
				 const char *note, int64_t now,
				 struct buf *out, const char **error_r);
int server_league_show(struct server *server, const char *league,
		       int64_t now, struct buf *out, const char **error_r);

/* `ashes clock GAME`: the computation of a game's clocks at now, for the
 * operator (templates/admin-clock.txt), appended to out.  -1 with
 * *error_r ("no game 12", ...). */
int server_clock_show(struct server *server, int64_t game_id, int64_t now,
		      struct buf *out, const char **error_r);
/* `ashes game adjust GAME +24h [white|black]`: add seconds (negative:
 * take) to a clock -- side NULL: the player to move -- recorded in the
 * game's clock history with note (may be NULL), both players told.
 * -1 with *error_r (no such game, no clock, not running, out of range). */
int server_clock_adjust(struct server *server, int64_t game_id,
			const char *side, int64_t seconds, const char *note,
			int64_t now, struct buf *out, const char **error_r);

/* ---- the practice opponent (bot_turn.c), for the daemon's bot thread -- */

/* Make the player holding the key fingerprint (the daemon's signing key)
 * the bot, named cfg.bot.name: created the first time (with an address
 * under ".invalid" that no mail is ever queued to), renamed when the
 * configuration changed its name.  In a transaction of its own.  0, or -1
 * with *error_r (the name or the key is another player's). */
int server_bot_enlist(struct server *server, const char *fingerprint,
		      int64_t now, const char **error_r);

/* One move the bot owes: the game, the ply it plays, its level, when it
 * may play (the game's last change plus cfg.bot.delay) and the position
 * it plays in. */
struct server_bot_turn {
	int64_t game_id;
	int ply;
	int level;
	int64_t due;
	struct core_position pos;
};

/* The bot's move due first of all its games (games whose turn is not the
 * bot's are skipped, and so is game skip_game at ply skip_ply: a move
 * that was refused is not tried again at once): 1 and *turn_r, 0 when it
 * owes none.  Rates the rated bot games that ended first, in a
 * transaction of its own.  -1 with *error_r. */
int server_bot_next(struct server *server, int64_t now, int64_t skip_game,
		    int skip_ply, struct server_bot_turn *turn_r,
		    const char **error_r);

/* Think about turn for think_ms at most (0: the level's own bound): the
 * move's canonical text into move (CORE_MOVE_TEXT_MAX bytes).  Touches
 * no store: run it outside any transaction.  -1 with *error_r. */
int server_bot_think(const struct server_bot_turn *turn, int64_t think_ms,
		     char *move, const char **error_r);

/* A hint a player asked (`hint GAME`), answered by the bot thread: the
 * game, the ply the player is to play, the position, who asked. */
struct server_bot_hint {
	int64_t id;
	int64_t game_id;
	int64_t player_id;
	int64_t inbound_id;  /* the mail that asked (0: none) */
	int ply;
	struct core_position pos;
};

/* The oldest hint waiting: 1 and *hint_r, 0 when none waits.  A hint
 * whose game moved on (or ended) meanwhile is dropped on the way, with
 * no mail.  -1 with *error_r. */
int server_bot_hint_next(struct server *server, int64_t now,
			 struct server_bot_hint *hint_r, const char **error_r);

/* Answer hint: the bot's three best moves for the player (a level 4
 * search, think_ms at most; thought outside any transaction), mailed to
 * them (mail/hint.txt) in the game's thread, in a transaction of its own
 * -- unless the game moved on meanwhile: then dropped.  0, or -1 with
 * *error_r (nothing changed). */
int server_bot_hint_answer(struct server *server,
			   const struct server_bot_hint *hint,
			   int64_t think_ms, int64_t now,
			   const char **error_r);

/* The bot's mail playing move in turn: its text (mail/bot-move.txt: the
 * command as a player writes it) and subject, appended to text and
 * subject.  -1 with *error_r (a template error). */
int server_bot_mail(struct server *server, const struct server_bot_turn *turn,
		    const char *move, int64_t now, struct buf *text,
		    struct buf *subject, const char **error_r);

/* ---- the analysis of a finished game (analysis.c) ---- */

/* An analysis a player asked (`analyse GAME`), for the bot thread. */
struct server_analysis {
	int64_t id;
	int64_t game_id;
	int64_t player_id;   /* who asked: the mail goes to them */
	int64_t inbound_id;  /* the mail that asked (0: none) */
};

/* The oldest analysis waiting: 1 and *req_r, 0 when none waits, -1
 * with *error_r. */
int server_analysis_next(struct server *server, int64_t now,
			 struct server_analysis *req_r, const char **error_r);

/* Answer req: the analysis of its game at AI_ANALYSIS_PLAYOUTS and
 * AI_ANALYSIS_SEED (src/ai/ai.h), computed outside any transaction
 * (seconds; bench/bench_analysis), with the pictures of its biggest
 * drops, mailed to the player who asked (mail/analysis.txt) in a
 * transaction of its own that marks it answered -- once: a request
 * answered meanwhile, or whose game or player is gone, gets no mail.
 * 0, or -1 with *error_r (nothing changed: try again later). */
int server_analysis_answer(struct server *server,
			   const struct server_analysis *req, int64_t now,
			   const char **error_r);

/* `ashes analyse GAME`: the same text the mail has (without its
 * greeting and pictures) at `playouts` and `seed`, appended to out.  0,
 * or -1 with *error_r ("no game 12"). */
int server_analysis_show(struct server *server, int64_t game_id,
			 long playouts, uint64_t seed, int64_t now,
			 struct buf *out, const char **error_r);

/* ---- a game's record lines (game_record.c) ---- */

struct core_variant;
struct store_game;
struct store_move;
struct store_ply_record;

/* The line of each of the n stored plies (moves: as the store holds
 * them; NULL: loaded here) of game row, variant v: those the store holds
 * (sql/012), and those it lacks written now -- in a move's transaction
 * after its plies and clocks, or on the first read of a ply stored
 * before there were lines.  With lines_r (may be NULL) the lines, n of
 * them (caller frees).  The sha256 is the one the service recorded with
 * the signature (store_signature_by_inbound).  0 or -1 with *error_r. */
int game_record_plies(struct store *st, const struct store_game *row,
		      const struct core_variant *v,
		      const struct store_move *moves, size_t n,
		      struct store_ply_record **lines_r, const char **error_r);
/* A stored line as the record's annotation (the key in its short
 * form). */
void game_record_annot(const struct store_ply_record *r,
		       struct record2_annot *a);
/* The seat of player pid after `plies` plies (before the swap at ply 2
 * the players held the seats they give up by it): a core_color, or -1
 * for neither. */
int game_record_seat(const struct store_game *row, int64_t pid,
		     size_t plies);
/* The plies of moves[0 .. n-1] stored by time at. */
size_t game_record_plies_at(const struct store_move *moves, size_t n,
			    int64_t at);
/* A copy of text fit for a record's text (controls made blanks, no
 * blanks at the ends), or NULL when nothing is left. */
char *game_record_clean(const char *text);
/* Comments to place among a record's plies: each after `after` plies
 * (at most `plies`), by at, mails of one second by their inbound ids
 * (the order read; 0: none), else as added. */
struct game_record_note {
	size_t after;
	int64_t at;
	int64_t mail;
	size_t seq;
	struct record2_comment c; /* its text is the list's */
};
struct game_record_notes {
	struct game_record_note *v;
	size_t n, cap;
	size_t plies;
};
/* Add c (its text, malloc'ed or NULL, becomes the list's). */
void game_record_note(struct game_record_notes *ns, size_t after,
		      int64_t at, int64_t mail,
		      const struct record2_comment *c);
void game_record_notes_sort(struct game_record_notes *ns);
void game_record_notes_free(struct game_record_notes *ns);

/* What the tags both records begin with say. */
struct game_record_head {
	const char *event, *site;
	const char *white, *white_key, *black, *black_key;
	const struct core_record *core; /* replayed, ended as the row says */
	enum record2_termination term;
};
/* The tags of game row both records begin with, Event to Termination.
 * -1 with *e_r for a value the format refuses (those it may refuse,
 * names and keys, are left out instead). */
int game_record_tags(struct record2 *rec, const struct store_game *row,
		     const struct game_record_head *hd,
		     enum record2_error *e_r);
/* Set a tag the format may refuse (a name it cannot hold): left out
 * then, and when value is NULL or "". */
void game_record_tag(struct record2 *rec, const char *key,
		     const char *value);

#endif
