/* server_private.h -- what the game service's files share.  Not for use
 * outside src/server.
 *
 * The files, each calling only the ones below it in this list (so a
 * feature to come adds a file on top, not a case in the middle; the
 * script scripts/layers checks it):
 *   timer.c     the clocks' timer: flags, reminders, the daemon's absence,
 *               in a transaction of its own;
 *   admin_clock.c  `ashes clock`, `ashes game adjust`, the clock history;
 *   admin_club.c  `ashes ladder show|history|move`;
 *   server.c    one mail, one transaction: duplicate, intake, replay,
 *               identity, commands, outcome (server.h's pipeline);
 *   intake.c    decisions about the mail as a whole (bounce, loops, rate
 *               limit, refusals, revocations);
 *   intake_mail.c  what the mail layer read of a mail made into the
 *               service's inbound, its refusal code decided;
 *   commands.c  the command table: who may run each command, its
 *               handler and the template of its result; the gate, the
 *               game loading and the rendering happen there, once;
 *   reply.c     the one reply to the sender;
 *   account.c   address, export me, delete me, `ashes player delete`: a
 *               player's own account, moved, exported or deleted (the
 *               deleted player's games resigned through play.c);
 *   archive_cmd.c  archive GAME: the game's archive, built and attached
 *               by the daemon's outbox when it sends the mail;
 *   rematch.c   rematch GAME: the opponent of a game over challenged
 *               again, colours swapped (a bot game: the bot at once);
 *   play.c      challenge, accept, decline, withdraw, move, preview,
 *               resign, draw;
 *   conditional.c  conditional GAME ...: a player's conditional moves,
 *               and the reply played from them in the opponent's move;
 *   view.c      board, moves, history, games, observe, unobserve;
 *   identity.c  register, confirm, key replace; where a player's mail goes;
 *   message.c   message: a note to the opponent, archived with the game;
 *   undo.c      offer|accept|decline undo: a move taken back by agreement;
 *   settings.c  set KEY VALUE, settings: what a player chose;
 *   vacation.c  vacation: a player's clocks stopped for some days;
 *   help.c      help [TOPIC]: the general help, the rules, one command;
 *   bot_turn.c  what the daemon's bot thread asks: the bot's turn, its
 *               thinking, the mail that plays its move;
 *   bot.c       challenge bot, hint; what is refused for being the bot's
 *               (its key, its name, offers to it);
 *   analysis.c  analyse GAME: the request; the analysis the bot thread
 *               computes and mails with its pictures; `ashes analyse`;
 *   club_timer.c  the club's work the timer runs (joins, results,
 *               walkovers, absences, seasons, the weekly mail);
 *   club_tournament.c  the events' timer: begun, rounds paired, deadlines,
 *               ended with the final standings;
 *   club_tournament_cmd.c  the `tournament` command, the event's view,
 *               the operator's show, withdraw and adjudicate;
 *   club_tournament_log.c  an event as stored: its log replayed, entries
 *               recorded, its games created, results taken, decided;
 *   club_ladder.c  the ladder commands, and a ladder challenge answered;
 *   club_league.c  the leagues' seasons begun, the league command;
 *   club_league_view.c  a league season as stored, with its standings;
 *   club_result.c  a competition game's end: ladder result, ratings;
 *   club.c      what the competitions share: configuration, standings,
 *               the games they create, members;
 *   flag.c      a flag that falls (by the timer or a late move), claim;
 *   notice.c    the notices a change of a game sends (your move, result,
 *               observers, challenges);
 *   summary.c   the daily summary of a player who chose `set summary
 *               daily HH:MM`: their non-urgent notices noted instead
 *               of sent, and the one mail a day;

 *   note.c      note, notes: the notes a player keeps for themselves on
 *               a game, and their list in the author's own mails;
 *   digest.c    the daily digest of the games an observer follows;
 *   queue.c     one outgoing mail into the outbox, as a typed envelope;
 *   limits.c    what one player's mails may make the daemon send and
 *               compute;
 *   recipient.c what each reader chose, as a mail to them honours it: the
 *               legal-move list, their own move shown when no reply
 *               confirmed it, an observer's notice kept for the digest;
 *   game_record.c  the one writer of a ply's record line, stored with
 *               the ply; a game's record for `history` and the archive;
 *   admin.c     operator views (`ashes game show`);
 *   game.c      a game loaded, replayed, described and saved; a
 *               challenge's settings;
 *   game_clock.c  a game's clocks from the row and back, the clock's part
 *               in a move, the vacation bank, the clocks mails show;
 *   language.c  the language a mail is written in (h->ts): a reader's,
 *               a new sender's Content-Language; dates in the reader's
 *               words;
 *   clock.c, clock_zone.c  the clock arithmetic (clock.h), calling
 *               nothing of the service (clock_private.h);
 *   tournament_text.c, tournament_log.c  the standings, pairings and
 *               crosstable shown of an event, and its log as text
 *               (tournament_log.h), pure;
 *   swiss.c, roundrobin.c, knockout.c, standings.c,
 *   tournament.c  an event's pairings (swiss.h, roundrobin.h,
 *               knockout.h: the round robin's from league.c), its
 *               standings and its log (tournament.h), pure;
 *   ladder.c, league.c, rating.c  a ladder's, a league's and the
 *               ratings' rules (ladder.h, league.h, rating.h), likewise;
 *   mailbox.c   the mailbox bookkeeping the loop asks the service for;
 *   retention.c  [retention]: old mails' bytes reduced or dropped, a
 *               deleted player's mails reduced (retention.h: on the
 *               store and the command language's threads alone, so low
 *               here that account.c's deletion calls it);
 *   handle.c    the mail in hand: refusals, rendering, failures, the bot's
 *               player id;
 *   command_text.c, command_signoff.c, command.c, command_args.c,
 *   command_near.c  the command language (command.h): text in, commands
 *               out, nothing of the service;
 *   command_keywords.c  the command table's keywords, a move's shape, a
 *               name's, the help topics, for the files above;
 *   command_thread.c, command_words.c  game numbers and threads, a
 *               line's words: the language's helpers.
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
	/* When the mailbox received the mail in hand (<= now; now outside
	 * a mail): the time a move is charged at. */
	int64_t received;
	int64_t inbound_id;
	struct store_player *me; /* NULL: not registered */
	/* The template set of the mail being written: its reader's language
	 * (language.c).  The sender's while the commands run and for the
	 * reply; each notice switches to its reader's. */
	struct template_set *ts;
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
	/* The whole mail is refused (a code of mail/mail-refused.txt): the
	 * service's decision from what the mail layer found. */
	const char *mail_refusal;
	/* The sender is known by an unsigned From at most (a club that
	 * does not require signatures): replies say so. */
	bool weak;
	/* This mail made a confirmation code (register): the one mail a
	 * claimed, unconfirmed address ever gets from us. */
	bool code_sent;
	/* Nothing at all is sent in answer to this mail: a code went to
	 * its address today already, and a refusal there would be the
	 * very mail the limit stops (identity.c). */
	bool no_reply;
	/* The failure is the mail's own (a value the store's rules refuse),
	 * not the machinery's: record it and go on, never retry it. */
	bool mail_fault;
	/* Every command of the mail was a move, and each was taken: a
	 * player with confirmations off gets no reply (reply.c). */
	bool only_moves;
	/* A command of this mail changed a game's position (a move, a game
	 * begun, a move taken back): its reply shows the board. */
	bool moved;
	/* The mail's commands, while commands_run() runs them (else NULL):
	 * for a handler that must know the others in its mail (note.c). */
	const struct command_list *commands;
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
	char opponent[COMMAND_NAME_MAX + 1]; /* "" for an open challenge */
	/* The game's clocks (game_clock.c), from the row's columns, the
	 * players' zones and vacations: has_clock false for a game
	 * without time control. */
	bool has_clock;
	bool vacation_ok;         /* the game allows vacations */
	struct clock_state clock;
};

/* A handler's answer besides 0 (done) and -1 (failure): refused, with
 * h->refusal saying why. */
#define REFUSED 1

/* ---- commands.c: the command table ---------------------------------- */

/* A command's handler: the game is loaded when the row's gate is
 * GATE_GAME or above (else zeroed: a handler that makes one loads it into
 * g and the table frees it).  0 done (the row's template is then rendered
 * into out's "output"), REFUSED, or -1. */
typedef int server_command_fn(struct handle *h, const struct command *c,
			      struct game *g, struct template_ctx *out);

/* Run the commands of the mail in hand (h->msg) and queue the reply.
 * 0, or -1 (h->error). */
int commands_run(struct handle *h, struct server_outcome *out);
/* The commands of the mail in hand as commands_run() reads them (the
 * thread's game only where the signed text confirms it); the caller
 * frees list_r with command_list_free(). */
void commands_parse(const struct handle *h, struct command_list *list_r);
/* Check every template the table and the service name (server.h). */
int commands_check_templates(struct server *server, const char **error_r);

/* The handlers, by file. */
server_command_fn bot_challenge, bot_hint;
server_command_fn play_challenge, play_accept, play_decline, play_move,
	play_preview, play_resign, play_draw;
server_command_fn view_game, view_games, view_observe;
server_command_fn identity_register, identity_confirm, identity_key_replace;
server_command_fn account_address, account_confirm, account_export,
	account_delete_run;
server_command_fn settings_set, settings_show;
server_command_fn message_send;
server_command_fn undo_run;
server_command_fn help_run;
server_command_fn archive_cmd_run;
server_command_fn conditional_run;

/* ---- conditional.c: conditional moves ------------------------------- */

/* What a move did to the conditional moves of the player it left to
 * move. */
struct conditional_result {
	int64_t owner;  /* whose tree it met (0: none) */
	bool played;    /* its reply was played ... */
	int ply;        /* ... as this ply, */
	char move[CORE_MOVE_TEXT_MAX]; /* this move; */
	size_t left;    /* lines of the tree that go on below it */
	bool missed;    /* the tree held no reply to it: cleared */
};
/* The move at record index `before` of g, made by the mail in hand's
 * sender, is stored with its clock and record line: if the player it
 * leaves to move has conditional moves holding it, play their reply now
 * in g (stored, clocked at h->received, recorded) and move the tree down
 * a level; else clear the tree.  The caller then saves g.  0 or -1. */
int conditional_answer(struct handle *h, struct game *g, size_t before,
		       struct conditional_result *res);
/* After g was saved: the mail to the owner whose reply was played
 * (mail/conditional-played.txt), unless the game ended.  0 or -1. */
int conditional_notice(struct handle *h, struct game *g, size_t before,
		       const struct conditional_result *res);
/* Player `player`'s conditional moves in g as the list "cond_lines"
 * (mail/cmd-conditional.txt's), with cond_at and cond_count; nothing
 * when there are none.  0 or -1. */
int conditional_show_ctx(struct handle *h, const struct game *g,
			 int64_t player, struct template_ctx *ctx);
server_command_fn analysis_run;

server_command_fn rematch_run;

/* ---- limits.c: what one player's mails may make us send and compute */

/* Count mails queued, and their bytes, for the sender of the mail in
 * hand (not the bot's, not outside a mail).  0 or -1. */
int limits_charge(struct handle *h, int64_t mails, int64_t bytes);
/* Before any command runs: a sender whose hour of mails or bytes is
 * spent gets one notice (h->mail_refusal "send_budget", 0), then every
 * mail of theirs is ignored until it resets (1, *out filled).  -1. */
int limits_gate(struct handle *h, struct server_outcome *out);
/* `archive GAME`: once per player and game a day, within the hour's
 * bytes.  0 with the archive's weight in *bytes_r (counted as asked),
 * REFUSED, -1. */
int limits_archive(struct handle *h, const struct game *g,
		   int64_t *bytes_r);
/* `export me`: once a player a day (the refusal says when it was and
 * when it may be asked again).  0 (counted), REFUSED, -1. */
int limits_export(struct handle *h);
/* `hint GAME`: [limits] hints_per_hour.  0 (counted), REFUSED, -1. */
int limits_hint(struct handle *h, const struct game *g);
/* `challenge NAME|any`: one open challenge between two players, the
 * sender's open challenges, challenges to one player a day.  target NULL
 * for `challenge any`.  0 (counted), REFUSED, -1. */
int limits_challenge(struct handle *h, const struct store_player *target);
/* `challenge bot`: [bot] max_games_per_player.  0, REFUSED, -1. */
int limits_bot_games(struct handle *h);

/* ---- bot.c: the practice opponent ------------------------------------ */

/* Does the club offer its bot at this level?  0, REFUSED (no bot, a level
 * not offered), -1. */
int bot_offered(struct handle *h, int level);
/* A game against the bot under way at once, at level (bot_offered()),
 * with the variant and time control given ([bot] clock when it has
 * none), the bot White when bot_white, else Black; loaded into g, its
 * variables in out, the player told when it is their move.  0, REFUSED
 * (the sender's most bot games, the bot's most), -1. */
int bot_game_start(struct handle *h, int level, char *vtext, char *ctext,
		   bool bot_white, struct game *g, struct template_ctx *out);

/* Is fpr the bot's key?  1 yes, 0 no, -1 failure. */
int bot_is_key(struct handle *h, const char *fpr);
/* A `challenge NAME` naming the bot: REFUSED (played with `challenge
 * bot`), 0 for anyone else, -1. */
int bot_refuse_named(struct handle *h, int64_t pid);
/* An offer (`what`: a draw, a take-back) to opp: refused at once when opp
 * is the bot, which agrees to none, so that no offer waits for an answer
 * that never comes.  0 if opp is not the bot, REFUSED, -1. */
int bot_refuse_offer(struct handle *h, const struct game *g, int64_t opp,
		     const char *what);

/* ---- message.c ------------------------------------------------------ */

/* The notes of game g as the list "notes" (and the flag "has_notes") in
 * ctx, for a player of the game only: they are between the two players.
 * 0 or -1. */
int message_list_ctx(struct handle *h, const struct game *g,
		     struct template_ctx *ctx);

/* ---- game_record.c -------------------------------------------------- */

/* Game g's record, version 2 (core/record2.h), from the store: tags, each
 * ply's line as written (its signer, receipt and sha256), the clock
 * history and, with notes, the players' notes.  *text_r (caller frees)
 * or -1. */
int game_record_text(struct handle *h, const struct game *g, bool notes,
		     char **text_r);
/* Write the lines of g's plies that have none (game_record_plies()):
 * a move's, in its transaction.  0 or -1. */
int game_record_lines(struct handle *h, const struct game *g);

/* ---- reply.c -------------------------------------------------------- */

/* The reply to the sender of the mail in hand (h->reply's variables).
 * 0 or -1. */
int server_queue_reply(struct handle *h);

/* ---- identity.c ----------------------------------------------------- */

/* A player who registered but has not confirmed an address yet may only
 * confirm (or ask for help, or register again for a new code). */
bool identity_pending(const struct store_player *p);
/* The address a player's mail goes to: a bound, working one; else, for
 * the mail that made a confirmation code, the claimed address (unless
 * another player confirmed it first); else NULL -- a claimed address gets
 * nothing but its code. */
int server_reply_address(struct handle *h, const struct store_player *p,
			 char **addr_r);

/* Confirmation codes: IDENTITY_CODE_LEN letters and digits that cannot
 * be misread, 50 bits: no guessing within the rate limit. */
#define IDENTITY_CODE_LEN 10
/* A fresh code into code (IDENTITY_CODE_LEN + 1 bytes).  0 or -1. */
int identity_new_code(struct handle *h, char *code);
/* May a code go to address now?  Counts the attempt.  *ok_r false when
 * this key sent one there today already, or the address had its codes
 * for the day (then nothing at all may go there).  0 or -1. */
int identity_code_allowed(struct handle *h, const char *address,
			  bool *ok_r);
/* A deleted player's name starts with this (account.c); `register`
 * refuses it. */
#define ACCOUNT_DELETED_PREFIX "deleted-"

/* ---- intake.c ------------------------------------------------------- */

/* The decisions about the mail as a whole, after it was recorded and
 * before its commands: revocations it carries, bounces, loops, the
 * signature, the rate limit, refusals and whom to answer.  0: go on to
 * the commands (h->msg's fingerprint, if any, is the verified signer);
 * 1: decided (out filled); -1: failure. */
int intake_decide(struct handle *h, struct server_outcome *out);
/* The signer the service takes the mail from: the fingerprint when gpg
 * verified a good, fresh signature, else NULL. */
const char *intake_signer(const struct server_inbound *msg);

/* ---- recipient.c: what each reader chose ---------------------------- */

/* The settings of player `player_id` (0: nobody, the defaults) into
 * *s_r, for a mail to them (the picture queue.c attaches, the move list,
 * a reply or not, the digest).  0, or -1 (h->error). */
int server_recipient_settings(struct handle *h, int64_t player_id,
			      struct store_settings *s_r);
/* Set exactly one of the flags moves_full, moves_short, moves_none in
 * ctx, as player `player_id` chose (`set moves`): how the mail to them
 * lists the legal moves.  0 or -1. */
int recipient_moves_ctx(struct handle *h, int64_t player_id,
			struct template_ctx *ctx);
/* The first ply (an index into g's record) a "your move" mail to
 * player_id describes when the game changed from ply index `from`: from
 * itself, or the player's own move before it when confirmations are off
 * (a mail of moves only got no reply: this mail confirms the move).  0
 * or -1. */
int recipient_moves_from(struct handle *h, const struct game *g,
			 int64_t player_id, size_t from, size_t *from_r);
/* Replace the last moves in ctx (game_last_moves_ctx's list and flag)
 * by the plies from index `from`.  0 or -1. */
int recipient_last_moves_ctx(struct handle *h, const struct game *g,
			     size_t from, struct template_ctx *ctx);
/* An observer with `digest on` gets no notice now: the change of g from
 * ply index `from` is noted for their daily digest.  1 noted (send
 * nothing), 0 send the notice, -1 failure. */
int recipient_digest_note(struct handle *h, const struct game *g,
			  int64_t player_id, size_t from);

/* ---- notice.c ------------------------------------------------------- */

/* The notices the service sends besides replies: kind word (the
 * envelope's kind) and template. */
enum server_notice {
	NOTICE_YOUR_MOVE = 0,
	NOTICE_RESULT,
	NOTICE_OBSERVER,
	NOTICE_CHALLENGE,
	NOTICE_CHALLENGE_CLOSED,
	NOTICE_DRAW,
	NOTICE_KEY_REVOKED,
	NOTICE_MESSAGE,
	NOTICE_UNDO,
	NOTICE_UNDONE,
	NOTICE_CLOCK,
	NOTICE_LADDER,
	NOTICE_CONDITIONAL,
	NOTICE_COUNT
};
extern const struct server_notice_def {
	enum store_outbox_kind kind;
	const char *template;
	/* What the mail is, for its subject (game_subject()'s kind); NULL:
	 * the game as it stands for the reader. */
	const char *subject;
	/* The mail shows a position that changed (the board picture goes
	 * with it); a mail that changes no position carries none. */
	bool picture;
} server_notices[NOTICE_COUNT];


/* Queue notice `n` about game g to player `pid` (0: nobody) with the
 * variables in ctx (plus "recipient", and the flag "recipient_to_move":
 * it is pid's turn).  The subject is worded for pid; a string
 * "subject_kind" in ctx, if set, is its kind instead of the notice's
 * subject word (a template telling several events).  0 or -1. */
int notice_send(struct handle *h, struct game *g, int64_t pid,
		enum server_notice n, struct template_ctx *ctx);
/* After a game changed: "your move" to the player to move, the result to
 * both players when it is over, and a notice to every observer.  `given`
 * (may be NULL) already holds game_ctx() and the last moves from `from`. */
int notice_game(struct handle *h, struct game *g, size_t from,
		struct template_ctx *given);

/* ---- summary.c: the daily summary ---------------------------------- */

/* Notice n to player p about g (may be NULL), rendered from template
 * tpl with ctx (as notice_send() has made it for p): held back for p's
 * daily summary when p chose one and it is not urgent (a game's end, a
 * new challenge, a deadline within a day, ...).  1 noted (send
 * nothing), 0 send it now, -1 failure. */
int summary_note(struct handle *h, struct game *g,
		 const struct store_player *p, enum server_notice n,
		 const char *tpl, struct template_ctx *ctx);
/* The clocks' timer's part, in its transaction: each player whose
 * summary is due at h->now gets it (and the next one scheduled), a
 * player who turned it off gets what was noted.  0 with the number of
 * summaries queued in *sent_r, or -1. */
int summary_tick(struct handle *h, size_t *sent_r);

/* ---- note.c: a player's private notes ------------------------------ */

/* `note GAME TEXT`, `notes GAME`. */
server_command_fn note_run, note_list_run;
/* How many of the author's latest notes a notice or `board` lists
 * (`notes GAME` and `history GAME`: all). */
#define NOTE_SHOWN 5
/* The notes player pid (0: nobody) kept on game g, for a mail to pid
 * alone: the list "my_notes" (ply, at_start, at, text), its last `shown`
 * (0: all) with the flags my_notes_any, my_notes_more and the counts
 * my_notes_count, my_notes_shown; nothing for someone who does not play
 * in g.  Whatever an earlier reader's notes left in ctx is cleared
 * first: one ctx serves several readers.  0 or -1. */
int note_ctx(struct handle *h, const struct game *g, int64_t pid,
	     size_t shown, struct template_ctx *ctx);
/* Remove what note_ctx() set. */
void note_ctx_clear(struct template_ctx *ctx);
/* Before each command of the mail in hand runs (its gate passed): a mail
 * that holds a note and a line that changes a game runs nothing (its
 * signed text, note and all, would go into that game's archive).  0, or
 * REFUSED naming both lines. */
int note_mail_check(struct handle *h);

/* ---- queue.c -------------------------------------------------------- */

/* Queue one mail to `to` (nothing when NULL), player `recipient_id` (0:
 * not a player; their settings choose the picture).  `g` (may be NULL)
 * threads it into the game's thread (whose root becomes this mail if the
 * game has none yet) and, with `picture` (the mail shows a position that
 * changed: a notice so marked in server_notices[], a reply to a mail that
 * moved a game), gives it the board picture; `answer_id` and
 * `answer_refs` (may be NULL) thread it under the sender's mail.  0 or
 * -1. */
int server_queue_mail(struct handle *h, const char *to,
		      int64_t recipient_id, struct game *g, bool picture,
		      enum store_outbox_kind kind, const char *subject,
		      const char *answer_id, const char *answer_refs,
		      const char *body, bool auto_reply);
/* server_queue_mail() with files after the text (parts[0 .. nparts-1],
 * at most STORE_OUTBOX_PARTS_MAX; borrowed): an analysis's pictures.
 * Their bytes count against the sender as the mail's do.  0 or -1. */
int server_queue_mail_parts(struct handle *h, const char *to,
			    int64_t recipient_id, struct game *g,
			    bool picture, enum store_outbox_kind kind,
			    const char *subject, const char *answer_id,
			    const char *answer_refs, const char *body,
			    bool auto_reply, struct store_outbox_part *parts,
			    size_t nparts);
/* A notice to player p (server_queue_mail() to their address, no mail
 * it answers, auto-generated).  0 or -1. */
int server_queue_notice(struct handle *h, const struct store_player *p,
			struct game *g, bool picture,
			enum store_outbox_kind kind, const struct buf *subject,
			const struct buf *body);

/* ---- game.c --------------------------------------------------------- */

/* Load game `id` and (with replay) replay its moves.  1 found, 0 no such
 * game (refusal set), -1 failure. */
int game_load(struct handle *h, int64_t id, struct game *g, bool replay);
void game_free(struct game *g);
int game_save(struct handle *h, struct game *g);
/* Copy the record's end of game into the row. */
int game_finish_row(struct handle *h, struct game *g);
/* The name of player `id` into dst (COMMAND_NAME_MAX + 1); "" for 0. */
int game_player_name(struct handle *h, int64_t id, char *dst);
void game_copy_name(char *dst, const char *src);
int64_t game_player_of(const struct game *g, enum core_color c);
/* The player a challenge of g is made to: the seat that is not the
 * challenger's (a rematch's challenger may sit Black); 0 for an open
 * challenge nobody accepted yet. */
int64_t game_challenged(const struct game *g);
/* The player who moved first in g: White's seat, unless a swap moved
 * them to Black's (a rematch has them move second). */
int64_t game_first_mover(const struct game *g);
/* The sender's colour in g, or -1 if the sender does not play in it. */
int game_my_color(const struct handle *h, const struct game *g);
/* The game's names and settings, without the position (cheap). */
void game_names_ctx(const struct game *g, struct template_ctx *ctx);
/* Everything about the game: names, settings and the position (board,
 * legal moves, taxes: the costly part). */
void game_ctx(const struct handle *h, const struct game *g,
	      struct template_ctx *ctx);
/* Describe the plies from index `from` of the record in words. */
int game_last_moves_ctx(struct handle *h, const struct game *g, size_t from,
			struct template_ctx *ctx);
/* Subject of a mail about game g to player `recipient` (0: none, or not
 * a player): "[ashes #12] " and what the mail wants of the reader, from
 * mail/subject-game.txt -- "your move (ply 21) vs bob", "waiting for bob
 * (ply 22)", "finished: you won", "alice challenges you".  `kind` (may
 * be NULL) names the mail -- "reply", or a notice's subject word
 * (server_notices[].subject) -- as the template's flag kind_KIND.
 * Appended to out; 0 or -1 (template error). */
int game_subject(struct handle *h, const struct game *g, int64_t recipient,
		 const char *kind, struct buf *out);
/* Make game `id` the mail's first game (the reply's subject and thread)
 * if none is set yet and the game exists -- for a game named by a line
 * that did not run; the caller checks that the sender may see it.  0 or
 * -1. */
int game_note_first(struct handle *h, int64_t id);
/* The board after `ply` plies, the ply that led there drawn as an arrow,
 * with the players' panels worded by picture.txt, as an SVG picture
 * appended to out.  -1 with *error_r. */
int game_board_picture(struct handle *h, const struct game *g, int ply,
		       struct buf *out, const char **error_r);
/* Refusals about a game: "no_such_game" and the like, with its number;
 * "wrong_status" with its status. */
int game_refuse(struct handle *h, const char *code, int64_t game);
int game_refuse_status(struct handle *h, const struct game *g);
/* A refusal worded by the rules' templates (rule.txt, explain.txt): the
 * rule broken (err), and with a move m in pos, why in this position.
 * REFUSED, or -1 on a template error. */
int game_refuse_rule(struct handle *h, const struct core_position *pos,
		     const struct core_move *m, enum core_error err);
/* A challenge's options: the variant's text into vtext
 * (CORE_VARIANT_TEXT_MAX bytes) and the time control's into ctext
 * (GAME_CLOCK_TEXT_MAX).  0, REFUSED (a bad option), or -1. */
int game_challenge_settings(struct handle *h, const struct command *c,
			    char *vtext, char *ctext);
/* A new game the sender challenges black_id to (0: anyone, with status
 * STORE_GAME_OPEN), the sender white, with the options of
 * game_challenge_settings(); loaded into g, the mail's first game if it
 * has none.  0 or -1. */
int game_challenge_create(struct handle *h, char *vtext, char *ctext,
			  int64_t black_id, enum store_game_status status,
			  struct game *g);
/* The same with the seats given (the sender one of them: a rematch's
 * challenger may sit Black). */
int game_challenge_create_seated(struct handle *h, char *vtext, char *ctext,
				 int64_t white_id, int64_t black_id,
				 enum store_game_status status, struct game *g);
/* The player called `name` into *p_r (free with store_player_free): 0,
 * REFUSED (no_such_player, the name in the refusal) or -1. */
/* Was player pid deleted (`delete me`, `ashes player delete`)?  1 yes, 0
 * no, -1. */
int game_player_gone(struct handle *h, int64_t pid);
int game_player_named(struct handle *h, const char *name,
		      struct store_player **p_r);

/* ---- game_clock.c: a game's clocks ------------------------------------ */

/* The longest stored time control text, NUL included. */
#define GAME_CLOCK_TEXT_MAX 64
/* The stored text of a time control: the spec, then " weekends=off" and
 * " vacation=no" when so ("days:3 weekends=off").  0, or -1 with
 * *fault_r (may be NULL). */
int game_clock_text_parse(const char *text, struct clock_control *c_r,
			  bool *vacation_ok_r, struct clock_fault *fault_r);
void game_clock_text_format(const struct clock_control *c, bool vacation_ok,
			    char *buf, size_t size);
/* g->clock from g->row, the players' zones and vacations (game_load
 * does it).  0 or -1. */
int game_clock_load(struct handle *h, struct game *g);
/* g->clock into the row: both clocks, the turn, its deadline and next
 * reminder, none for a game not active (game_save does it). */
void game_clock_to_row(const struct handle *h, struct game *g);
/* The game began: the clock of the player to move runs from
 * h->received.  0 or -1. */
int game_clock_start(struct handle *h, struct game *g);
/* The record took a move of the player whose clock ran (swapped: it was
 * a swap, the seats changed hands): their clock is charged at
 * h->received, the next player's runs.  0 or -1. */
int game_clock_after_move(struct handle *h, struct game *g, bool swapped);
/* The turn went back (a move taken back): the time spent is charged to
 * the player whose clock ran, the player to move now has theirs
 * running.  0 or -1. */
int game_clock_hand_over(struct handle *h, struct game *g);
/* A player's vacation bank, opened with the policy's start days the
 * first time it is asked for, accrued up to h->now; and stored.  0 or
 * -1. */
int game_clock_bank_get(struct handle *h, int64_t pid,
			struct clock_bank *b_r);
int game_clock_bank_put(struct handle *h, int64_t pid,
			const struct clock_bank *b);
/* The time g's clocks stand at: h->now, or when an ended game ended. */
int64_t game_clock_now(const struct handle *h, const struct game *g);
/* "3 days 4 hours": the two largest units of a span. */
void game_clock_span(int64_t seconds, char *buf, size_t size);
/* The same in the words of h->ts's calendar.txt (render_span()): what a
 * player reads; game_clock_span() is the operator's (CLI, log). */
void game_clock_span_words(const struct handle *h, int64_t seconds,
			   char *buf, size_t size);
/* given (a span a clock notice tells: time given back after an outage,
 * an operator's adjustment) in h->ts's words, and given_seconds, so that
 * game_clock_left_ctx() can word it again. */
void game_clock_given_ctx(const struct handle *h, int64_t seconds,
			  struct template_ctx *ctx);
/* clock_white, clock_black (the time left), and given if set, again in
 * h->ts's words: a ctx shared by readers of different languages is
 * worded anew for each. */
void game_clock_left_ctx(const struct handle *h, const struct game *g,
			 struct template_ctx *ctx);
/* The clock variables of every mail about g (has_clock, clock,
 * clock_white, clock_black, deadline in UTC, ...). */
void game_clock_ctx(const struct handle *h, const struct game *g,
		    struct template_ctx *ctx);
/* What depends on the reader: the deadline in their zone, their
 * vacation days (a player of g).  0 or -1. */
int game_clock_reader_ctx(struct handle *h, const struct game *g,
			  int64_t reader, struct template_ctx *ctx);

/* ---- flag.c: a flag that falls --------------------------------------- */

enum flag_outcome {
	FLAG_NONE = 0,  /* time left, no clock, or not running */
	FLAG_VACATION,  /* vacation days were spent: the game goes on */
	FLAG_LOST,      /* lost on time */
	FLAG_CANCELLED, /* the player out of time never moved: no result */
	FLAG_CLAIMABLE, /* timeout_claim = manual: left to the opponent */
};
/* Has the flag of the player to move in g (loaded with replay) fallen
 * at `at`?  If so, act on it -- vacation days, a loss, a cancel, or a
 * claim offered -- record it in the clock history, save the game and
 * tell the players (and observers of an ended game).  0 with *what_r,
 * or -1. */
int flag_check(struct handle *h, struct game *g, int64_t at,
	       enum flag_outcome *what_r);
/* Record an entry of g's clock history (store_clock_event_add).  0 or
 * -1. */
int flag_event(struct handle *h, const struct game *g,
	       enum store_clock_kind kind, int64_t player_id, int64_t seconds,
	       const char *note);
server_command_fn flag_claim;

/* ---- club.c, club_ladder.c, club_league.c, club_result.c,
 * club_timer.c: the club's ladders, leagues and ratings ---------------- */

/* The configuration's ladder / league of that name (any case), or
 * NULL. */
const struct server_ladder *club_ladder_find(const struct server *srv,
					     const char *name);
const struct server_league *club_league_find(const struct server *srv,
					     const char *name);
/* Does the configuration list player `name` (any case) in club? */
bool club_listed(const struct server_club *club, const char *name);
/* A ladder's standing, replayed from its log (free it with
 * ladder_standing_free).  0 or -1. */
int club_ladder_standing(struct handle *h, const char *ladder,
			 struct ladder_standing **standing_r);
/* Apply ev to the standing and record it in the log, by actor ("mail",
 * "daemon", "operator") with note (may be NULL).  An event that cannot
 * follow the log is a failure of the caller (-1), never recorded. */
int club_ladder_record(struct handle *h, const char *ladder,
		       struct ladder_standing *standing,
		       const struct ladder_event *ev, const char *actor,
		       const char *note);
/* A game of the club's variant and clock, White against Black, created
 * active (the caller starts its clock) or as a challenge, and linked to
 * nothing: club_game_create's first half, and an event's games'
 * (club_tournament_log.c).  0 and *id_r, or -1. */
int club_game_new(struct handle *h, const struct server_club *club,
		  int64_t white, int64_t black, bool active, int64_t *id_r);
/* A game of a competition: white against black with the club's variant
 * and time control, a challenge to black (active false) or a game under
 * way (active: the caller starts its clock), linked to the ladder or to
 * the season's group.  0 and *id_r, or -1. */
int club_game_create(struct handle *h, const struct server_club *club,
		     int64_t white, int64_t black, bool active,
		     const char *ladder, int64_t season_id, int group_no,
		     int64_t *id_r);
/* Game id of a competition begun: its clock started and White told
 * "your move", with kind = name (e.g. "league", "spring") and the
 * numbers key1 = value1 and key2 = value2 (key2 may be NULL) for the
 * mail.  0 or -1. */
int club_game_begin(struct handle *h, int64_t id, const char *kind,
		    const char *name, const char *key1, int value1,
		    const char *key2, int value2);
/* The ladder of a game (caller frees; NULL: none) and whether it is
 * rated (rated_r may be NULL).  0 or -1. */
int club_game_ladder(struct handle *h, int64_t game_id, char **ladder_r,
		     bool *rated_r);
/* The configuration's members into the ladders: a listed player seen
 * registered for the first time joins at the bottom; a member of a
 * closed ladder no longer listed is withdrawn once their open games have
 * ended.  Counts added to *joined_r, *withdrawn_r.  0 or -1. */
int club_sync(struct handle *h, size_t *joined_r, size_t *withdrawn_r);

/* club_ladder.c.  The `ladder` command. */
server_command_fn club_ladder_run;
/* The standing of ladder l for templates (mail/ladder.txt's variables:
 * ladder, size, standing[place, name, me], challenges, the reader's
 * my_place and whom they may challenge, the rules) for reader (0:
 * nobody).  0 or -1. */
int club_ladder_ctx(struct handle *h, const struct server_ladder *l,
		    int64_t reader, struct template_ctx *ctx);
/* The sender answered a challenge (COMMAND_ACCEPT, COMMAND_DECLINE,
 * COMMAND_WITHDRAW) of game g: if it is a ladder's, the ladder records
 * it (accepted; a decline is a walkover for the challenger; a withdrawal
 * cancels).  0, REFUSED (accepted too late), -1. */
int club_ladder_answer(struct handle *h, struct game *g,
		       enum command_kind answer);

/* club_result.c.  The results of ended competition games, once each, in
 * the order they ended (at most limit, 0: all): the ladder's result
 * event and the ratings.  0 or -1. */
int club_apply_results(struct handle *h, size_t limit, size_t *applied_r,
		       size_t *rated_r);
/* Rate finished game g at `at` if it counts (at least 4 plies, not a
 * second loss on time in a row): *rated_r.  0 or -1. */
int club_rate_game(struct handle *h, const struct game *g, int64_t at,
		   bool *rated_r);
server_command_fn club_ratings;

/* ---- club_tournament_log.c, club_tournament.c,
 * club_tournament_cmd.c: the club's events ---------------------------- */

/* The configuration's event of that name (any case), or NULL. */
const struct server_tournament *club_tournament_find(const struct server *srv,
						     const char *name);
/* An event as stored: its log (entries, with when each was recorded),
 * the replay of it, its stored games, and when it began and ended (0:
 * not yet).  Free with event_free. */
struct event_view {
	const struct server_tournament *t;
	struct tournament_entry *entries;
	int64_t *ats;
	size_t nentries, room;
	struct tournament_state *state;
	struct store_tournament_game *links; /* by number */
	size_t nlinks;
	int64_t started_at, ended_at;
};
/* club_tournament_log.c.  Event t loaded and replayed.  0 or -1 (a log
 * that does not replay is a broken store). */
int event_load(struct handle *h, const struct server_tournament *t,
	       struct event_view *v);
void event_free(struct event_view *v);
/* Record entry e (at h->now) by actor ("mail", "daemon", "operator")
 * with note (may be NULL): replayed with the log first, so an entry that
 * cannot follow is the caller's failure (-1) and never recorded; v then
 * holds the new state.  0 or -1. */
int event_record(struct handle *h, struct event_view *v,
		 const struct tournament_entry *e, const char *actor,
		 const char *note);
/* The stored game of an event game number, or NULL (none created). */
const struct store_tournament_game *event_link_of(const struct event_view *v,
						  int64_t number);
/* When round was paired (its first PAIRING or BYE entry), or 0. */
int64_t event_round_paired_at(const struct event_view *v, int round);
/* Whether every game of round has a result (or is a forfeit). */
bool event_round_done(const struct event_view *v, int round);
/* A game of round, White against Black: its PAIRING recorded and, unless
 * a player has withdrawn (a round robin's scheduled game, lost by
 * them), the game created with the event's settings and linked
 * (*game_id_r; 0: none).  The caller starts it.  0 or -1. */
int event_game_create(struct handle *h, struct event_view *v, int round,
		      int64_t white, int64_t black, int64_t *number_r,
		      int64_t *game_id_r);
/* The results of ended event games, once each, in the order they ended
 * (at most limit; 0: all): their RESULT entries and ratings.  0 or -1. */
int event_take_results(struct handle *h, size_t limit, size_t *taken_r,
		       size_t *rated_r);
/* Game game_id of event v decided: an ADJUDICATION by actor with note,
 * and a game still running ended with it through its normal end (a win
 * as on time, a draw as agreed), its players told.  0, REFUSED
 * (tournament_no_such_game: not a game of this event), -1. */
int event_decide(struct handle *h, struct event_view *v, int64_t game_id,
		 enum tournament_outcome outcome, const char *actor,
		 const char *note);
/* Every running game of player pid in event v resigned for them (a
 * withdrawal), the players told.  0 or -1. */
int event_resign_games(struct handle *h, struct event_view *v, int64_t pid);

/* club_tournament.c.  The events' work the timer runs at h->now: the
 * results taken, an event begun at its start (sign-up closed, round 1
 * paired), the next round paired when every game of the last ended, the
 * games still running at a round's deadline decided, an event over
 * ended with the final standings mailed.  0 or -1. */
struct event_report {
	size_t results, rated, rounds, decided, ended;
};
int club_tournament_tick(struct handle *h, struct event_report *rep);
/* When the events need the timer next: an event's start (once it has two
 * entrants) or a running game's round deadline.  1 and *at_r, 0 if
 * none, -1. */
int club_tournament_next(struct handle *h, int64_t *at_r);
/* club_tournament_log.c too.  A player's rating as an event seeds it
 * (rounded; a new player's if none).  0 or -1. */
int event_rating_of(struct handle *h, int64_t pid, int *rating_r);
/* The rounds event v has: Swiss `rounds`, a round robin's cycle (or
 * two) for its entrants, a knockout's bracket. */
int event_rounds(const struct event_view *v);
/* club_tournament_cmd.c.  The `tournament` command. */
server_command_fn club_tournament_run;
/* Event t for templates (mail/tournament.txt's variables) for reader (0:
 * the operator).  0 or -1. */
int club_tournament_ctx(struct handle *h, const struct server_tournament *t,
			int64_t reader, struct template_ctx *ctx);
/* Round `round` of v for templates: pairings[board, white, black, game,
 * white_wins, black_wins, drawn, forfeit, adjudicated, running, me],
 * byes[name], and for reader my_white, my_opponent, my_game,
 * my_no_game, my_bye.  0 or -1. */
int event_round_ctx(struct handle *h, const struct event_view *v, int round,
		    int64_t reader, struct template_ctx *ctx);
/* Whether pid is an entrant of event t (for the weekly mail): 1, 0, -1. */
int club_tournament_entered(struct handle *h,
			    const struct server_tournament *t, int64_t pid);

/* club_league.c.  The `league` command; a league's season begun when
 * its start comes (groups, games, clocks), at most once per season.
 * The number of seasons begun added to *seasons_r.  0 or -1. */
server_command_fn club_league_run;
int club_league_tick(struct handle *h, size_t *seasons_r);

/* A season's members, groups and standings, and its games. */
struct league_view {
	struct store_league_member *members; /* by group, then seed */
	size_t nmembers;
	int64_t *players;             /* the members' ids, in that order */
	struct league_group *groups;  /* consecutive slices of players */
	size_t ngroups;
	struct league_row *standing;  /* group g's rows at groups[g].first */
	struct store_game_club *links; /* the season's games, by id */
	struct store_game **games;    /* each one's row */
	size_t ngames;
};

/* club_league_view.c.  Season season_id as stored, with every group's
 * standings (free with league_view_free).  0 or -1. */
int league_view_load(struct handle *h, int64_t season_id,
		     struct league_view *v);
void league_view_free(struct league_view *v);
/* How a game's row counts in the standings. */
enum league_outcome league_view_outcome(const struct store_game *r);
/* The group number (1..) of group g of v. */
int league_view_group_no(const struct league_view *v, size_t g);
/* The group and place of pid in v: 1 and *g_r, *row_r; 0 if not in. */
int league_view_find(const struct league_view *v, int64_t pid, size_t *g_r,
		     const struct league_row **row_r);

/* club_timer.c.  The club's work at h->now, in the timer's transaction
 * (timer.c): members synced, results applied, walkovers, absences, the
 * leagues' seasons, the weekly standings.  0 or -1. */
struct club_report {
	size_t joined, withdrawn, results, rated, walkovers, seasons,
		standings;
	struct event_report events;
};
int club_tick(struct handle *h, struct club_report *rep);

/* ---- admin.c ---------------------------------------------------------- */

/* A game for the operator at time now (a handle made for it into h): 0,
 * or -1 with *error_r ("no game 12"; server->errbuf). */
int admin_game_load(struct server *server, struct handle *h,
		    int64_t game_id, int64_t now, struct game *g,
		    const char **error_r);

/* g's clock history as the list "clock_events" (and the flag
 * "any_clock_events") in ctx.  0 or -1. */
int admin_clock_history(struct handle *h, const struct game *g,
			struct template_ctx *ctx);

/* ---- vacation.c: the `vacation` command ------------------------------ */

server_command_fn vacation_run;

/* ---- handle.c ------------------------------------------------------- */

/* ---- language.c: the language of the mail being written ---- */

/* The set for language lang ("de"); the club's default for NULL, "" or a
 * language the club does not have. */
struct template_set *server_lang_set(const struct server *srv,
				     const char *lang);
/* Write the next mail for player_id (0: nobody known, the club's
 * default): h->ts becomes their language's set.  0 or -1 (h->error). */
int server_write_to(struct handle *h, int64_t player_id);
/* The club's language the mail in hand's Content-Language asks for
 * ("de"), or NULL. */
const char *server_lang_of_mail(const struct handle *h);
/* Write the reply to a sender not identified (no verified key of a
 * player): h->ts becomes the language the mail's Content-Language asks
 * for, else that of the player whose address the mail's From: names,
 * else the club's default.  0 or -1 (h->error). */
int server_write_to_sender(struct handle *h);
/* The languages offered, "en|de|ko", appended to out. */
void server_lang_choices(const struct server *srv, struct buf *out);

/* t as the reader's local date and time in zone (NULL or "": UTC):
 * KEY "2026-12-03 14:00 CET" and KEY_long in words from the reader's
 * calendar.txt ("Thursday 3 December 2026, 14:00 CET"; h->ts).  0, or
 * -1 (h->error) on a template error. */
int server_set_local(struct handle *h, struct template_ctx *ctx,
		     const char *key, int64_t t, const char *zone);

/* The set of the club's language ([templates] language), else English. */
struct template_set *server_default_set(const struct server *srv);

/* The address to write to: the first one not failing (NULL if none). */
const char *server_player_address(const struct store_player *p);
/* True when `addr` can be bound or written to: 3 to STORE_ADDRESS_MAX
 * bytes, one '@' with text on both sides, no space, control character or
 * angle bracket.  An unsigned header may hold anything. */
bool server_address_usable(const char *addr);
/* The first character of a player's text (a message, a note) that it may
 * not hold -- a control, bidi or invisible character, or bytes that are
 * not UTF-8: true, with "U+202E (RIGHT-TO-LEFT OVERRIDE)" in what;
 * false when the text is plain. */
bool server_text_bad_char(const char *text, char *what, size_t whatlen);
/* Start a refusal of the current command with reason `code` (a section of
 * mail/refusal.txt); returns REFUSED. */
int server_refuse(struct handle *h, const char *code);
/* Note a system failure (rolls the mail back); returns -1. */
int server_store_fail(struct handle *h, const char *error);
/* Render template `name` with ctx, appended to out; -1 on a template
 * error (h->error set). */
int server_render(struct handle *h, const char *name,
		  const struct template_ctx *ctx, struct buf *out);
/* The same for one line (a subject): trailing line ends dropped. */
int server_render_line(struct handle *h, const char *name,
		       const struct template_ctx *ctx, struct buf *out);
/* Render into the string value `key` of dst, trailing newlines dropped. */
int server_render_into(struct handle *h, const char *name,
		       const struct template_ctx *src,
		       struct template_ctx *dst, const char *key);
/* Set `key` of ctx to time t as a UTC date, "2026-12-01 10:00 UTC" (with
 * `seconds`, "2026-12-01 10:00:00 UTC": the operator's views). */
void server_set_utc(struct template_ctx *ctx, const char *key, int64_t t,
		    bool seconds);
/* The bot's player id, 0 while no bot is enlisted: asked of the store
 * each time, since the bot's own thread enlists it.  0 or -1. */
int server_bot_id(struct handle *h, int64_t *id_r);
/* Is player pid the bot?  1 yes, 0 no, -1 failure.  The bot gets no
 * mail: queue.c drops every mail to it; limits.c counts none of its
 * sends. */
int server_is_bot(struct handle *h, int64_t pid);
/* A handle for work outside any mail at time now (the timer, the
 * operator's views and changes): received = now. */
void server_handle_at(struct server *server, struct handle *h, int64_t now);

#endif
