/* command.h -- the mail command language: turns a mail's Subject and text
 * body into a list of commands, one per line, ignoring what is not meant
 * for us (quoted text, reply attributions, signatures, forwarded parts).
 *
 * This module only reads text: it knows the grammar (templates/
 * help-commands.txt documents it for players) but not the rules or the
 * store.  Move text is checked for its shape only; the service asks the
 * rules core whether a move is legal in its game.
 *
 * Parsing never fails as a whole: the first line that is not a valid
 * command becomes a COMMAND_INVALID entry (with the reason) and ends the
 * list, because commands run in order and the first failure stops the rest.
 */
#ifndef ASHES_SERVER_COMMAND_H
#define ASHES_SERVER_COMMAND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum command_kind {
	COMMAND_INVALID = 0, /* a line that failed to parse: see error */
	COMMAND_HELP,
	COMMAND_REGISTER,    /* name */
	COMMAND_CHALLENGE,   /* name (player or "any"), options */
	COMMAND_ACCEPT,      /* game */
	COMMAND_DECLINE,     /* game */
	COMMAND_WITHDRAW,    /* game */
	COMMAND_MOVE,        /* game, ply (0 = the thread's current), move */
	COMMAND_PREVIEW,     /* game, move */
	COMMAND_RESIGN,      /* game */
	COMMAND_DRAW,        /* draw action, game */
	COMMAND_BOARD,       /* game */
	COMMAND_MOVES,       /* game */
	COMMAND_HISTORY,     /* game */
	COMMAND_GAMES,
	COMMAND_OBSERVE,     /* game */
	COMMAND_UNOBSERVE,   /* game */
};

/* Why a line is not a command.  command_error_string() gives a short
 * English reason; `detail` in the command names the offending word. */
enum command_error {
	COMMAND_OK = 0,
	COMMAND_ERR_UNKNOWN,        /* first word is no command and no move */
	COMMAND_ERR_MISSING_ARG,    /* detail: what is missing */
	COMMAND_ERR_EXTRA_ARG,      /* detail: the extra word */
	COMMAND_ERR_BAD_GAME,       /* detail: the word given for GAME */
	COMMAND_ERR_BAD_PLY,        /* detail: the word given for PLY */
	COMMAND_ERR_BAD_MOVE,       /* detail: the word given for MOVE */
	COMMAND_ERR_BAD_NAME,       /* detail: the name */
	COMMAND_ERR_UNKNOWN_OPTION, /* detail: the key */
	COMMAND_ERR_BAD_OPTION,     /* detail: key=value */
	COMMAND_ERR_DUPLICATE_OPTION, /* detail: the key */
	COMMAND_ERR_BAD_DRAW,       /* detail: the word after "draw" */
	COMMAND_ERR_NO_GAME,        /* a bare move outside a game's thread */
	COMMAND_ERR_TOO_MANY,       /* more than COMMAND_MAX commands */
};

enum command_draw_action {
	COMMAND_DRAW_OFFER = 0,
	COMMAND_DRAW_ACCEPT,
	COMMAND_DRAW_DECLINE,
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
/* A mail with more commands than this is refused at the extra line. */
#define COMMAND_MAX 64

/* One key=value option of `challenge` (a bare word such as `swap` has the
 * value "yes").  Keys are lower case; values as written. */
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
	int64_t game;  /* 0 when not given */
	int ply;       /* 0 when not given */
	char move[COMMAND_MOVE_MAX];       /* lower case, blanks removed */
	char name[COMMAND_NAME_MAX + 1];   /* register / challenge target */
	enum command_draw_action draw;
	struct command_option options[COMMAND_MAX_OPTIONS];
	size_t noptions;
	/* For COMMAND_INVALID only. */
	enum command_error error;
	char detail[COMMAND_DETAIL_MAX];
};

struct command_list {
	struct command *items; /* owned; free with command_list_free() */
	size_t count;
	/* True when lines were skipped as quoted text, attribution, signature
	 * or a forwarded/original message: the reply may mention it. */
	bool skipped_quoted;
	/* True when the list ends at a COMMAND_INVALID entry and more
	 * command lines followed it (they were not parsed, and not run). */
	bool stopped_early;
};

/* Parse a mail.  `subject` may be NULL; its Re:/Fwd:/[ashes #N] tags are
 * removed, and what is left counts as a command only if it parses as one
 * (a subject like "Hello" is ignored; a subject repeated as the first body
 * line runs once).  `thread_game` is the game of the thread the mail
 * replies to (from command_thread_game()), or 0: bare moves need it.
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

/* Message-ID for a mail the service sends about a game (game 0: about no
 * game): "<ashes.GAME.PLY.INBOUND.SEQ@domain>" written into buf (len
 * bytes), where INBOUND is the id of the mail being handled and SEQ counts
 * the mails queued while handling it.  Deterministic (tests and retries
 * agree) and unique, with no randomness. */
char *command_message_id(char *buf, size_t len, int64_t game, int ply,
			 int64_t inbound, int seq, const char *domain);

/* Strip leading "Re:", "Fwd:", "Fw:", "AW:", "WG:", "SV:" tags and any
 * "[ashes #N]" tag from a subject, copying what is left (trimmed) to buf. */
void command_subject_clean(const char *subject, char *buf, size_t len);

/* Short English text for an error, e.g. "unknown command". */
const char *command_error_string(enum command_error err);

/* "help", "register", ... for a kind. */
const char *command_kind_name(enum command_kind kind);

/* Parse "12" or "#12" into a game id (> 0).  -1 if not a game number. */
int command_parse_game(const char *word, size_t len, int64_t *game_r);

#endif
