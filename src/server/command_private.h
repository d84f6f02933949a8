/* command_private.h -- what the files of the command language share: a
 * line's words and the helpers that fill a struct command from them.  Not
 * for use outside src/server/command*.c.
 *
 * command.c reads a line by the command table (command_table.h) and holds
 * the grammar of most commands; command_args.c the arguments of `set`,
 * `vacation` and the clock options of `challenge`; command_keywords.c
 * the table's keywords, a move's shape and a name's, below both;
 * command_words.c the helpers below them all. */
#ifndef ASHES_SERVER_COMMAND_PRIVATE_H
#define ASHES_SERVER_COMMAND_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "server/command.h"

/* One word of a line: not NUL-terminated. */
struct word {
	const char *s;
	size_t len;
};

/* Reads the arguments of a command (w[0] is its keyword, nw words in all,
 * the line ending at `end`) into cmd.  Returns 0, or -1 with cmd failed
 * (see command_fail()). */
typedef int command_args_parser(struct command *cmd, const struct word *w,
				size_t nw, const char *end,
				int64_t thread_game);

/* command_words.c */
/* A blank between words: space, tab, CR, FF, VT. */
bool command_is_blank(char c);
/* Make cmd COMMAND_INVALID with err and detail (cut to fit); -1. */
int command_fail(struct command *cmd, enum command_error err,
		 const char *detail, size_t len);
int command_fail_str(struct command *cmd, enum command_error err,
		     const char *detail);
/* Copy len bytes of src into dst (cap bytes), cut to fit, NUL
 * terminated; copy_lower in ASCII lower case. */
void command_copy_cut(char *dst, size_t cap, const char *src, size_t len);
void command_copy_lower(char *dst, size_t cap, const char *src, size_t len);
/* w is the literal word lit, ignoring case. */
bool command_word_is(const struct word *w, const char *lit);
/* w is a confirmation code: into cmd->code in upper case; 0, or -1
 * (COMMAND_ERR_BAD_CODE). */
int command_take_code(struct command *cmd, const struct word *w);
/* The extra word w[idx], if there is one, fails the command. */
int command_no_more(struct command *cmd, const struct word *w, size_t nw,
		    size_t idx);
/* command_keywords.c */
/* A row of the command table (command_table.h), its language's words:
 * command_keywords[i] is the table's row i, as command.c's parsers[i]. */
struct command_keyword {
	const char *word; /* "challenge bot": two words, the second picking */
	const char *name; /* command_kind_name() */
	enum command_kind kind;
	bool names_game; /* a refused line may still say which game */
};
#define COMMAND_KEYWORD_COUNT(...) +1
enum { COMMAND_NKEYWORDS = 0 COMMAND_TABLE(COMMAND_KEYWORD_COUNT) };
extern const struct command_keyword command_keywords[COMMAND_NKEYWORDS];
/* The row the first words of w (nw of them) start: the keyword any case,
 * the first word also with a sentence's mark after it ("Help!"); NULL if
 * none. */
const struct command_keyword *command_keyword_find(const struct word *w,
						   size_t nw);
/* The shape of a move: FROM[-x]TO[/K], `swap` or `pass` (which the rules
 * refuse by name, since passes are forced).  The rules core decides the
 * rest, so a shape it would read is never refused here. */
bool command_looks_like_move(const char *s, size_t len);
/* The help topic named by w ("rules", "undo" or a keyword, any case, a
 * question mark allowed), lower case into topic_r; false if none. */
bool command_help_topic(const struct word *w, char *topic_r, size_t cap);

/* command.c */
/* GAME at w[idx] (what: how a missing one is named) into cmd->game. */
int command_need_game(struct command *cmd, const struct word *w, size_t nw,
		      size_t idx, const char *what);
/* GAME as the last word, at w[idx]; in a game's thread it may be left
 * off. */
int command_game_last(struct command *cmd, const struct word *w, size_t nw,
		      size_t idx, int64_t thread_game);

/* command_args.c */
command_args_parser command_parse_set, command_parse_vacation,
	command_parse_club;
/* address ADDR; export me; delete me [CODE] (the account commands). */
command_args_parser command_parse_address, command_parse_export,
	command_parse_delete;
/* A clock option of `challenge` (clock=, weekends=, vacation=): the key
 * is w's first klen bytes, the value val (NULL when bare).  0 or -1 with
 * COMMAND_ERR_UNKNOWN_OPTION for a key that is no option at all. */
int command_parse_clock_option(struct command *cmd, const struct word *w,
			       size_t klen, const char *val, size_t vlen);

#endif
