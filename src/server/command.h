/* command.h -- the mail command language: turns a mail's Subject and text
 * body into a list of commands, one per line, ignoring what is not meant
 * for us (quoted text, reply attributions, signatures, forwarded parts,
 * a letter's greeting before the commands and its closing after them).
 *
 * This module only reads text: it knows the grammar (templates/
 * help-commands.txt and help-topics.txt document it for players) but not
 * the rules or the store.  Move text is checked for its shape only ("z9-a1"
 * is a move; the service asks the rules core, which knows there is no z9).
 * The `challenge` options and their values are the core's table
 * (core/variant.h), checked here for their form only (size=99 is for the
 * service to refuse); a `set` is checked for its shape only, its keys and
 * values are the settings handler's.
 *
 * Parsing never fails as a whole: the first line that is not a valid
 * command becomes a COMMAND_INVALID entry (with the reason, and the
 * keyword a misspelt word is a slip of) and ends the list, because
 * commands run in order and the first failure stops the rest.
 *
 * Files: command_table.h the commands and the errors, a row each;
 * command.c the grammar of one line; command_keywords.c the table's
 * keywords, a move's shape and a name's; command_text.c the lines of a
 * body; command_near.c slips of keywords, prose and closings;
 * command_thread.c game numbers, subjects and threads.
 */
#ifndef ASHES_SERVER_COMMAND_H
#define ASHES_SERVER_COMMAND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "server/command_table.h"

/* The commands and the errors are rows of command_table.h. */
#define COMMAND_KIND_ENUM(kind, ...) COMMAND_##kind,
enum command_kind {
	COMMAND_INVALID = 0, /* a line that failed to parse: see error */
	COMMAND_TABLE(COMMAND_KIND_ENUM)
};

/* Why a line is not a command; `detail` in the command names the
 * offending word. */
#define COMMAND_ERROR_ENUM(code, ...) COMMAND_##code,
enum command_error {
	COMMAND_ERRORS(COMMAND_ERROR_ENUM)
};

/* vacation: show the bank, N days from now, from DATE to DATE (both
 * days included, in the player's zone), or cancel what is booked. */
enum command_vacation_action {
	COMMAND_VACATION_SHOW = 0,
	COMMAND_VACATION_DAYS,
	COMMAND_VACATION_DATES,
	COMMAND_VACATION_CANCEL,
};
/* ladder list | ladder NAME | ladder challenge NAME PLAYER |
 * ladder join NAME | ladder leave NAME; league NAME | league join NAME |
 * league leave NAME. */
enum command_club_action {
	COMMAND_CLUB_SHOW = 0, /* ladder NAME, league NAME */
	COMMAND_CLUB_LIST,     /* ladder list (league list) */
	COMMAND_CLUB_CHALLENGE,
	COMMAND_CLUB_JOIN,
	COMMAND_CLUB_LEAVE,
};
/* A ladder's or league's name: 1-32 of a-z 0-9 _ - (ashesd.conf). */
#define COMMAND_CLUB_MAX 32
/* The most days one `vacation N` may name (the bank's cap bounds it
 * lower). */
#define COMMAND_VACATION_DAYS_MAX 365

enum command_draw_action {
	COMMAND_DRAW_OFFER = 0,
	COMMAND_DRAW_ACCEPT,
	COMMAND_DRAW_DECLINE,
};

/* conditional GAME THEIRS MINE ... | conditional GAME |
 * conditional GAME cancel */
enum command_cond_action {
	COMMAND_COND_SET = 0,
	COMMAND_COND_SHOW,
	COMMAND_COND_CANCEL,
};
/* The deepest conditional line: move pairs (THEIRS MINE), and so moves. */
#define COMMAND_COND_DEPTH 8
#define COMMAND_COND_MOVES (2 * COMMAND_COND_DEPTH)

enum command_undo_action {
	COMMAND_UNDO_OFFER = 0,
	COMMAND_UNDO_ACCEPT,
	COMMAND_UNDO_DECLINE,
};

#define COMMAND_NAME_MIN 2
#define COMMAND_NAME_MAX 24
#define COMMAND_MAX_OPTIONS 8
#define COMMAND_OPTION_KEY_MAX 16
#define COMMAND_OPTION_VALUE_MAX 32
/* Longer than any canonical move: input may say "C3 x E5 / 2" loosely. */
#define COMMAND_MOVE_MAX 40
#define COMMAND_TEXT_MAX 200
#define COMMAND_DETAIL_MAX 64
/* Confirmation codes: letters and digits, compared ignoring case. */
#define COMMAND_CODE_MIN 6
#define COMMAND_CODE_MAX 32
/* `address ADDR`: as long as an address the store binds. */
#define COMMAND_ADDRESS_MAX 254
/* A mail with more commands than this is refused at the extra line. */
#define COMMAND_MAX 64

/* One key=value option of `challenge` (a bare word such as `swap` has the
 * value "yes").  Keys and values are lower case, ready for
 * core_variant_set_option(). */
struct command_option {
	char key[COMMAND_OPTION_KEY_MAX];
	char value[COMMAND_OPTION_VALUE_MAX];
};

struct command {
	enum command_kind kind;
	/* Line number in the body, 1-based, counting every line as sent
	 * (quoted and blank ones too) so the player can find it; 0 means the
	 * command came from the Subject. */
	int line;
	/* The line as written (trimmed, cut to fit), for replies. */
	char text[COMMAND_TEXT_MAX];
	/* A bare move or bare `swap`: game and ply came from the thread. */
	bool bare;
	/* 0 when not given.  Set on a COMMAND_INVALID line too when its
	 * words held a game number ("move 1 1 z9-a1": 1), so the reply
	 * can stay in the game's thread. */
	int64_t game;
	int ply;       /* 0 when not given */
	char move[COMMAND_MOVE_MAX];       /* lower case, blanks removed */
	/* `conditional`: what it asks, and the line's moves (lower case,
	 * as move above), THEIRS MINE in turn. */
	enum command_cond_action cond_action;
	char cond[COMMAND_COND_MOVES][COMMAND_MOVE_MAX];
	size_t ncond;
	char name[COMMAND_NAME_MAX + 1];   /* register / challenge target */
	char code[COMMAND_CODE_MAX + 1];   /* confirm, delete me; upper case */
	char address[COMMAND_ADDRESS_MAX + 1]; /* address ADDR */
	enum command_draw_action draw;
	enum command_undo_action undo;
	/* `vacation`: the action, N days, or the dates as year, month, day
	 * (checked for their shape; the service says if there is no such
	 * date). */
	enum command_vacation_action vacation;
	int vacation_days;
	int vacation_from[3];
	int vacation_to[3];
	/* `ladder`, `league`: the action and the competition's name (lower
	 * case); `ladder challenge` names the player in name. */
	enum command_club_action club_action;
	char club[COMMAND_CLUB_MAX + 1];
	/* `challenge` options; for `set`, options[0] is KEY (lower case) and
	 * VALUE (as given: one word, checked for its shape only). */
	struct command_option options[COMMAND_MAX_OPTIONS];
	size_t noptions;
	/* `challenge bot level=N`: N (1-9 as written; 0: not given). */
	int level;
	/* `message`, `note`: the text after GAME, trimmed, never empty. */
	char note[COMMAND_TEXT_MAX];
	/* `help`: "" for the general help, "rules", "undo", or a command
	 * keyword, lower case. */
	char topic[COMMAND_NAME_MAX + 1];
	/* For COMMAND_INVALID: why, and the offending word.  For a `help`
	 * whose words name no topic: those words (the general help is sent,
	 * saying there is no help on them). */
	enum command_error error;
	char detail[COMMAND_DETAIL_MAX];
	/* The keyword (or help topic) a misspelt word is close to, e.g.
	 * "challenge" for "chalenge": "" when none is. */
	char suggestion[COMMAND_NAME_MAX + 1];
};

struct command_list {
	struct command *items; /* owned; free with command_list_free() */
	size_t count;
	/* True when lines were skipped as quoted text, attribution, signature
	 * or a forwarded/original message: the reply may mention it. */
	bool skipped_quoted;
	/* True when lines before the first command were skipped as plain
	 * words to a person (a greeting, "I'd like to play"): see
	 * command_line_is_prose().  (A closing, "Thanks,", ends the text
	 * as a signature does, unmentioned: command_line_is_closing().) */
	bool skipped_prose;
	/* True when the list ends at a COMMAND_INVALID entry and more
	 * command lines followed it (they were not parsed, and not run). */
	bool stopped_early;
	/* The Subject reads as a command the body does not hold: it was not
	 * run (headers are not signed), and the reply says so. */
	bool subject_ignored;
};

/* Parse a mail.  Only the body -- the signed text of a signed mail --
 * carries commands: no signature covers the Subject, so a Subject that
 * reads as a command (its Re:/Fwd:/[ashes #N] tags removed) is not run,
 * and list_r->subject_ignored says so unless the body holds the same
 * line.  `subject` may be NULL.  `thread_game` is the game of the thread
 * the mail replies to, confirmed by the signed text (see
 * command_thread_confirmed()), or 0 when there is none, or -1 when the
 * headers name a game the text does not confirm: bare moves need it.
 * The list always ends at the first COMMAND_INVALID entry, if any.
 * Never fails; list_r is filled (possibly empty) and must be freed. */
void command_parse_mail(const char *subject, const char *body, size_t len,
			int64_t thread_game, struct command_list *list_r);

/* Parse one line (already trimmed of quotes etc.) into cmd.  Returns 0 or
 * -1 with cmd->kind == COMMAND_INVALID and cmd->error set.  A line that is
 * only a move (bare move) needs thread_game != 0. */
int command_parse_line(const char *line, size_t len, int64_t thread_game,
		       struct command *cmd_r);

void command_list_free(struct command_list *list);

/* Which lines of a body count: true if `line` (without its newline) is
 * the start of text to drop entirely (signature, original message, a
 * forwarded message), so everything from here on is ignored. */
bool command_line_ends_text(const char *line, size_t len);

/* The game of a mail's thread: the N of a "[ashes #N]" tag in the subject,
 * else of a Message-ID of ours ("<ashes.N.*@domain>", see
 * command_message_id()) in `references` (References and In-Reply-To text,
 * may be NULL).  `domain` may be NULL to accept any domain.  0 if none. */
int64_t command_thread_game(const char *subject, const char *references,
			    const char *domain);

/* Does the signed text confirm that the mail is about `game`?  The
 * thread's game comes from unsigned headers (Subject, References), which
 * anyone on the way can change; the text -- quoted lines included, since
 * a reply quotes the mail it answers -- must name the game too: a
 * "[ashes #N]" tag, "game N", or a "move N PLY" line.  False when it
 * names none, or only other games. */
bool command_thread_confirmed(const char *body, size_t len, int64_t game);

/* Message-ID for a mail the service sends about a game (game 0: about no
 * game): "<ashes.GAME.PLY.INBOUND.SEQ.TOKEN@domain>" written into buf (len
 * bytes), where INBOUND is the id of the mail being handled, SEQ counts
 * the mails queued while handling it, and TOKEN (letters and digits; may
 * be NULL or "" for none) is the caller's random part, so that nobody can
 * guess our Message-IDs to forge a delivery report naming one. */
char *command_message_id(char *buf, size_t len, int64_t game, int ply,
			 int64_t inbound, int seq, const char *token,
			 const char *domain);

/* Strip leading "Re:", "Fwd:", "Fw:", "AW:", "WG:", "SV:" tags and any
 * "[ashes #N]" tag from a subject, copying what is left (trimmed) to buf. */
void command_subject_clean(const char *subject, char *buf, size_t len);

/* For the tests, whose corpus (tests/server/first-mails) writes what the
 * reader made of each mail; the service words a refusal from its section
 * instead.  A short English reason, e.g. "unknown command"; a kind's
 * name, "help", "undo". */
const char *command_error_string(enum command_error err);
const char *command_kind_name(enum command_kind kind);
/* The section of mail/refusal.txt that words a refusal for err. */
const char *command_error_section(enum command_error err);

/* Would `register` take s[0 .. len-1] as a player name: 2 to 24 letters,
 * digits, '-' or '_', starting with a letter, and no command word or
 * move.  (The config's ladder members are checked by it.) */
bool command_name_ok(const char *s, size_t len);

/* Parse "12" or "#12" into a game id (> 0).  -1 if not a game number. */
int command_parse_game(const char *word, size_t len, int64_t *game_r);

/* ---- command_keywords.c, for command_text.c and command_near.c ---- */

/* The i-th keyword, then (with topics) the other help topics ("rules",
 * "undo"); NULL past the last. */
const char *command_keyword_at(size_t i, bool topics);
/* Could the word (len bytes) start a command: a keyword, also with a
 * sentence's mark after it ("Help!"), or a move's shape? */
bool command_word_starts_command(const char *word, size_t len);

/* ---- command_near.c ---- */

/* The keyword (with topics: or help topic) the word is a slip of, e.g.
 * "challenge" for "chalenge", "move" for "mvoe"; NULL if none.  Guesses
 * only where a slip is likely and no common word is meant ("hey" is not
 * "key", "love" not "move"). */
const char *command_near_keyword(const char *word, size_t len, bool topics);

/* Is the line plainly words to a person and no command: its first word
 * is no keyword, no move and no slip of a keyword, and it reads like
 * prose (a greeting word first; or it ends in ',' or ':'; or it is
 * several words ending in punctuation; or four words or more with no
 * option and at most one number).  The reader skips such lines before a
 * mail's first command only. */
bool command_line_is_prose(const char *line, size_t len);

/* Is the line a letter's closing ("Thanks,", "Best regards", "Cheers!"):
 * a closing word first, at most four words, no number?  Such a line ends
 * the text as a signature would, unless a command follows it. */
bool command_line_is_closing(const char *line, size_t len);

/* ---- command_signoff.c ---- */

/* Is the line a mail program's footer ("Sent with Proton Mail secure
 * email.", "Sent from my Android device with K-9 Mail. Please excuse my
 * brevity.", "Get Outlook for Android")?  With no command (or slip of
 * one) below it, it ends the text as a signature does. */
bool command_line_is_client_footer(const char *line, size_t len);

/* Is the line a bare name ("Tina", "Mary-Jane O'Neill"): one to three
 * words of letters, the first no keyword, move or slip of one?  Below
 * the last command, with nothing but sign-offs after it, it ends the
 * text. */
bool command_line_is_name(const char *line, size_t len);

/* ---- command.c, for command_text.c ---- */

/* Narrow *s and *len to the text without surrounding blanks (and leading
 * 0xa0 bytes, Latin-1 no-break spaces). */
void command_trim(const char **s, size_t *len);
/* True if s (len bytes) starts with prefix, ignoring case. */
bool command_starts_with_ci(const char *s, size_t len, const char *prefix);

#endif
