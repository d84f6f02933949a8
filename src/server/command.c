/* command.c -- the mail command language: the grammar of one line, read
 * by the command table's parse column (command_table.h), row for row as
 * command_keywords.c holds its keywords, and the reasons a line is none.
 * command_text.c picks the lines of a body that are commands;
 * command_near.c tells misspelt keywords and lines of prose;
 * command_thread.c reads the game a mail's subject and thread name. */
#include "server/command.h"
#include "server/command_private.h"

#include "core/variant.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static command_args_parser parse_help, parse_no_args, parse_register,
	parse_confirm, parse_key, parse_challenge, parse_challenge_bot,
	parse_game_arg, parse_answer, parse_move, parse_preview, parse_draw,
	parse_offer, parse_message, parse_conditional;

/* The command table's parse column, row i reading the line that
 * command_keywords[i] (command_keywords.c) starts. */
#define PARSER_ROW(kind_, word_, name_, parse_, ...) parse_,
static command_args_parser *const parsers[COMMAND_NKEYWORDS] = {
	COMMAND_TABLE(PARSER_ROW)
};

#define N_ELEMENTS(a) (sizeof(a) / sizeof((a)[0]))

#define ERROR_ROW(code_, section_, text_) { section_, text_ },
static const struct {
	const char *section, *text;
} errors[] = { COMMAND_ERRORS(ERROR_ROW) };

const char *command_error_string(enum command_error err)
{
	return (size_t)err < N_ELEMENTS(errors) ? errors[err].text :
	       "unknown error";
}

const char *command_error_section(enum command_error err)
{
	return (size_t)err < N_ELEMENTS(errors) ? errors[err].section :
	       "e_unknown";
}

/* --- small text helpers ------------------------------------------------ */

/* The most words a line is read for: a challenge's options, or a
 * conditional line's moves (one more, to say there are too many). */
#define MAX_WORDS (COMMAND_COND_MOVES + 4 > COMMAND_MAX_OPTIONS + 8 ? \
		   COMMAND_COND_MOVES + 4 : COMMAND_MAX_OPTIONS + 8)

/* Splits s into blank-separated words, filling at most cap of w; returns
 * how many there are (may be more than cap). */
static size_t split_words(const char *s, size_t len, struct word *w,
			  size_t cap)
{
	size_t n = 0, i = 0;

	while (i < len) {
		while (i < len && command_is_blank(s[i]))
			i++;
		if (i >= len)
			break;
		size_t start = i;
		while (i < len && !command_is_blank(s[i]))
			i++;
		if (n < cap) {
			w[n].s = s + start;
			w[n].len = i - start;
		}
		n++;
	}
	return n;
}

/* --- parsing one line --------------------------------------------------- */

static int parse_ply(const struct word *w, int *ply_r)
{
	int v = 0;

	if (w->len == 0 || w->len > 6)
		return -1;
	for (size_t i = 0; i < w->len; i++) {
		if (!isdigit((unsigned char)w->s[i]))
			return -1;
		v = v * 10 + (w->s[i] - '0');
	}
	if (v <= 0)
		return -1;
	*ply_r = v;
	return 0;
}

/* A `challenge` option, KEY=VALUE or a bare flag.  The options and their
 * values are the rules core's table (core/variant.h): anything else is
 * refused by name so a typo never silently changes a game.  Only the form
 * is checked here; a size out of range is the service's to refuse, saying
 * what the range is. */
static int parse_option(struct command *cmd, const struct word *w)
{
	const char *eq = memchr(w->s, '=', w->len);
	size_t klen = eq != NULL ? (size_t)(eq - w->s) : w->len;
	const char *val = eq != NULL ? eq + 1 : NULL;
	size_t vlen = eq != NULL ? w->len - klen - 1 : 0;
	const struct core_variant_option *spec;
	struct command_option *opt;

	spec = core_variant_option_find(w->s, klen);
	if (spec == NULL)
		return command_parse_clock_option(cmd, w, klen, val, vlen);
	for (size_t i = 0; i < cmd->noptions; i++)
		if (strcmp(cmd->options[i].key, spec->key) == 0)
			return command_fail_str(cmd, COMMAND_ERR_DUPLICATE_OPTION,
					spec->key);
	if (cmd->noptions >= COMMAND_MAX_OPTIONS)
		return command_fail(cmd, COMMAND_ERR_EXTRA_ARG, w->s, w->len);
	if (val == NULL) {
		/* a bare flag ("swap") means yes */
		if (spec->type != CORE_VARIANT_FLAG || !spec->bare)
			return command_fail(cmd, COMMAND_ERR_BAD_OPTION, w->s, w->len);
		val = "yes";
		vlen = 3;
	}
	if (vlen == 0 || vlen >= COMMAND_OPTION_VALUE_MAX ||
	    !core_variant_option_value_ok(spec, val, vlen))
		return command_fail(cmd, COMMAND_ERR_BAD_OPTION, w->s, w->len);
	opt = &cmd->options[cmd->noptions++];
	command_copy_lower(opt->key, sizeof(opt->key), spec->key, strlen(spec->key));
	/* names and yes/no in lower case; a number is digits only */
	command_copy_lower(opt->value, sizeof(opt->value), val, vlen);
	return 0;
}

int command_need_game(struct command *cmd, const struct word *w, size_t nw,
		     size_t idx, const char *what)
{
	if (nw <= idx)
		return command_fail_str(cmd, COMMAND_ERR_MISSING_ARG, what);
	if (command_parse_game(w[idx].s, w[idx].len, &cmd->game) < 0)
		return command_fail(cmd, COMMAND_ERR_BAD_GAME, w[idx].s, w[idx].len);
	return 0;
}

/* GAME as the last word, at w[idx]; in a game's thread it may be left
 * off (for commands that cannot be stale). */
int command_game_last(struct command *cmd, const struct word *w, size_t nw,
		     size_t idx, int64_t thread_game)
{
	if (nw <= idx && thread_game > 0) {
		cmd->game = thread_game;
		return 0;
	}
	if (command_need_game(cmd, w, nw, idx, "GAME") < 0)
		return -1;
	return command_no_more(cmd, w, nw, idx + 1);
}

static int set_move(struct command *cmd, const struct word *w)
{
	if (!command_looks_like_move(w->s, w->len))
		return command_fail(cmd, COMMAND_ERR_BAD_MOVE, w->s, w->len);
	command_copy_lower(cmd->move, sizeof(cmd->move), w->s, w->len);
	return 0;
}

/* help [TOPIC].  Never refused: a person asking for help gets it.  Words
 * that name no topic ("help me please") give the general help, with the
 * words in detail and the topic they are a slip of, if any, in
 * suggestion, so the reply can say there is no help on them. */
static int parse_help(struct command *cmd, const struct word *w, size_t nw,
		      const char *end, int64_t thread_game)
{
	const char *near;

	if (nw == 1 || (nw == 2 && command_help_topic(&w[1], cmd->topic,
						      sizeof(cmd->topic))))
		return 0;
	command_copy_cut(cmd->detail, sizeof(cmd->detail), w[1].s,
		 (size_t)(end - w[1].s));
	near = command_near_keyword(w[1].s, w[1].len, true);
	if (near != NULL)
		command_copy_cut(cmd->suggestion, sizeof(cmd->suggestion), near,
			 strlen(near));
	return 0;
}

/* games, settings: nothing after the keyword. */
static int parse_no_args(struct command *cmd, const struct word *w, size_t nw,
			 const char *end, int64_t thread_game)
{
	return command_no_more(cmd, w, nw, 1);
}

/* register NAME */
static int parse_register(struct command *cmd, const struct word *w,
			  size_t nw, const char *end, int64_t thread_game)
{
	if (nw < 2)
		return command_fail_str(cmd, COMMAND_ERR_MISSING_ARG, "NAME");
	if (!command_name_ok(w[1].s, w[1].len))
		return command_fail(cmd, COMMAND_ERR_BAD_NAME, w[1].s, w[1].len);
	command_copy_cut(cmd->name, sizeof(cmd->name), w[1].s, w[1].len);
	return command_no_more(cmd, w, nw, 2);
}

/* confirm CODE: the code kept in upper case. */
static int parse_confirm(struct command *cmd, const struct word *w,
			 size_t nw, const char *end, int64_t thread_game)
{
	if (nw < 2)
		return command_fail_str(cmd, COMMAND_ERR_MISSING_ARG, "CODE");
	if (command_take_code(cmd, &w[1]) < 0)
		return -1;
	return command_no_more(cmd, w, nw, 2);
}

/* key replace */
static int parse_key(struct command *cmd, const struct word *w, size_t nw,
		     const char *end, int64_t thread_game)
{
	if (nw < 2)
		return command_fail_str(cmd, COMMAND_ERR_MISSING_ARG, "replace");
	if (!command_word_is(&w[1], "replace"))
		return command_fail(cmd, COMMAND_ERR_BAD_KEY_ACTION, w[1].s, w[1].len);
	return command_no_more(cmd, w, nw, 2);
}

/* challenge bot [level=N] [OPTION]...: a game against the practice
 * opponent.  The level's form only (one digit, 1-9): which levels are
 * offered is the service's to say. */
static int parse_challenge_bot(struct command *cmd, const struct word *w,
			       size_t nw, const char *end, int64_t thread_game)
{
	command_copy_cut(cmd->name, sizeof(cmd->name), "bot", 3);
	for (size_t i = 2; i < nw; i++) {
		if (!command_starts_with_ci(w[i].s, w[i].len, "level=")) {
			if (parse_option(cmd, &w[i]) < 0)
				return -1;
			continue;
		}
		if (cmd->level != 0)
			return command_fail_str(cmd,
						COMMAND_ERR_DUPLICATE_OPTION,
						"level");
		if (w[i].len != 7 || w[i].s[6] < '1' || w[i].s[6] > '9')
			return command_fail(cmd, COMMAND_ERR_BAD_OPTION, w[i].s,
					    w[i].len);
		cmd->level = w[i].s[6] - '0';
	}
	return 0;
}

/* challenge PLAYER|any [OPTION]... */
static int parse_challenge(struct command *cmd, const struct word *w,
			   size_t nw, const char *end, int64_t thread_game)
{
	if (nw < 2)
		return command_fail_str(cmd, COMMAND_ERR_MISSING_ARG, "PLAYER or any");
	if (command_word_is(&w[1], "any"))
		command_copy_cut(cmd->name, sizeof(cmd->name), "any", 3);
	else if (command_name_ok(w[1].s, w[1].len))
		command_copy_cut(cmd->name, sizeof(cmd->name), w[1].s, w[1].len);
	else
		return command_fail(cmd, COMMAND_ERR_BAD_NAME, w[1].s, w[1].len);
	for (size_t i = 2; i < nw; i++)
		if (parse_option(cmd, &w[i]) < 0)
			return -1;
	return 0;
}

/* withdraw, resign, board, moves, history, observe, unobserve: GAME,
 * which a game's thread may leave off. */
static int parse_game_arg(struct command *cmd, const struct word *w,
			  size_t nw, const char *end, int64_t thread_game)
{
	return command_game_last(cmd, w, nw, 1, thread_game);
}

/* accept|decline GAME (a challenge), accept|decline undo GAME, and
 * accept|decline draw GAME (as `draw accept GAME`). */
static int parse_answer(struct command *cmd, const struct word *w,
			size_t nw, const char *end, int64_t thread_game)
{
	bool yes = cmd->kind == COMMAND_ACCEPT;

	if (nw >= 2 && command_word_is(&w[1], "undo")) {
		cmd->kind = COMMAND_UNDO;
		cmd->undo = yes ? COMMAND_UNDO_ACCEPT : COMMAND_UNDO_DECLINE;
		return command_game_last(cmd, w, nw, 2, thread_game);
	}
	if (nw >= 2 && command_word_is(&w[1], "draw")) {
		cmd->kind = COMMAND_DRAW;
		cmd->draw = yes ? COMMAND_DRAW_ACCEPT : COMMAND_DRAW_DECLINE;
		return command_game_last(cmd, w, nw, 2, thread_game);
	}
	return command_game_last(cmd, w, nw, 1, thread_game);
}

/* offer undo GAME, offer draw GAME: the game optional in its thread */
static int parse_offer(struct command *cmd, const struct word *w, size_t nw,
		       const char *end, int64_t thread_game)
{
	if (nw < 2)
		return command_fail_str(cmd, COMMAND_ERR_MISSING_ARG, "undo or draw");
	if (command_word_is(&w[1], "undo")) {
		cmd->kind = COMMAND_UNDO;
		cmd->undo = COMMAND_UNDO_OFFER;
	} else if (command_word_is(&w[1], "draw")) {
		cmd->kind = COMMAND_DRAW;
		cmd->draw = COMMAND_DRAW_OFFER;
	} else {
		return command_fail(cmd, COMMAND_ERR_BAD_OFFER, w[1].s, w[1].len);
	}
	return command_game_last(cmd, w, nw, 2, thread_game);
}

/* move GAME PLY MOVE */
static int parse_move(struct command *cmd, const struct word *w, size_t nw,
		      const char *end, int64_t thread_game)
{
	if (command_need_game(cmd, w, nw, 1, "GAME") < 0)
		return -1;
	if (nw < 3)
		return command_fail_str(cmd, COMMAND_ERR_MISSING_ARG, "PLY");
	if (parse_ply(&w[2], &cmd->ply) < 0)
		return command_fail(cmd, COMMAND_ERR_BAD_PLY, w[2].s, w[2].len);
	if (nw < 4)
		return command_fail_str(cmd, COMMAND_ERR_MISSING_ARG, "MOVE");
	if (set_move(cmd, &w[3]) < 0)
		return -1;
	return command_no_more(cmd, w, nw, 4);
}

/* conditional GAME THEIRS MINE [THEIRS MINE]... | conditional GAME |
 * conditional GAME cancel.  The moves are checked for their shape here,
 * their count (pairs, at most COMMAND_COND_DEPTH of them); the service
 * plays them through the rules. */
static int parse_conditional(struct command *cmd, const struct word *w,
			     size_t nw, const char *end, int64_t thread_game)
{
	char count[24];

	if (command_need_game(cmd, w, nw, 1, "GAME") < 0)
		return -1;
	if (nw == 2) {
		cmd->cond_action = COMMAND_COND_SHOW;
		return 0;
	}
	if (command_word_is(&w[2], "cancel")) {
		cmd->cond_action = COMMAND_COND_CANCEL;
		return command_no_more(cmd, w, nw, 3);
	}
	snprintf(count, sizeof(count), "%zu", nw - 2);
	if (nw - 2 > COMMAND_COND_MOVES)
		return command_fail_str(cmd, COMMAND_ERR_COND_DEPTH, count);
	if ((nw - 2) % 2 != 0)
		return command_fail_str(cmd, COMMAND_ERR_COND_PAIRS, count);
	cmd->cond_action = COMMAND_COND_SET;
	for (size_t i = 2; i < nw; i++) {
		if (!command_looks_like_move(w[i].s, w[i].len))
			return command_fail(cmd, COMMAND_ERR_BAD_MOVE, w[i].s,
					    w[i].len);
		command_copy_lower(cmd->cond[cmd->ncond],
				   sizeof(cmd->cond[0]), w[i].s, w[i].len);
		cmd->ncond++;
	}
	return 0;
}

/* preview GAME MOVE, or preview MOVE in the thread */
static int parse_preview(struct command *cmd, const struct word *w,
			 size_t nw, const char *end, int64_t thread_game)
{
	if (nw == 2 && thread_game > 0 &&
	    command_looks_like_move(w[1].s, w[1].len)) {
		cmd->game = thread_game;
		return set_move(cmd, &w[1]);
	}
	if (command_need_game(cmd, w, nw, 1, "GAME") < 0)
		return -1;
	if (nw < 3)
		return command_fail_str(cmd, COMMAND_ERR_MISSING_ARG, "MOVE");
	if (set_move(cmd, &w[2]) < 0)
		return -1;
	return command_no_more(cmd, w, nw, 3);
}

/* draw offer|accept|decline GAME, the game optional in its thread */
static int parse_draw(struct command *cmd, const struct word *w, size_t nw,
		      const char *end, int64_t thread_game)
{
	if (nw < 2)
		return command_fail_str(cmd, COMMAND_ERR_MISSING_ARG,
				"offer, accept or decline");
	if (command_word_is(&w[1], "offer"))
		cmd->draw = COMMAND_DRAW_OFFER;
	else if (command_word_is(&w[1], "accept"))
		cmd->draw = COMMAND_DRAW_ACCEPT;
	else if (command_word_is(&w[1], "decline"))
		cmd->draw = COMMAND_DRAW_DECLINE;
	else
		return command_fail(cmd, COMMAND_ERR_BAD_DRAW, w[1].s, w[1].len);
	return command_game_last(cmd, w, nw, 2, thread_game);
}

/* message GAME TEXT (and note GAME TEXT): TEXT is the rest of the line,
 * as written.  GAME may be followed by ':' or ','  ("message 12: good
 * game!"). */
static int parse_message(struct command *cmd, const struct word *w,
			 size_t nw, const char *end, int64_t thread_game)
{
	struct word game;
	const char *text;
	size_t len;

	if (nw < 2)
		return command_fail_str(cmd, COMMAND_ERR_MISSING_ARG, "GAME");
	game = w[1];
	if (game.len > 1 && (game.s[game.len - 1] == ':' ||
			     game.s[game.len - 1] == ','))
		game.len--;
	if (command_parse_game(game.s, game.len, &cmd->game) < 0)
		return command_fail(cmd, COMMAND_ERR_BAD_GAME, w[1].s, w[1].len);
	if (nw < 3)
		return command_fail_str(cmd, COMMAND_ERR_MISSING_ARG, "TEXT");
	text = w[2].s;
	/* as a C string: a NUL byte ends it (and must not empty it) */
	len = strnlen(text, (size_t)(end - text));
	command_trim(&text, &len);
	if (len == 0)
		return command_fail_str(cmd, COMMAND_ERR_MISSING_ARG, "TEXT");
	if (len >= sizeof(cmd->note)) {
		/* detail: how long it may be, for the refusal */
		command_fail_str(cmd, COMMAND_ERR_TEXT_TOO_LONG, "");
		snprintf(cmd->detail, sizeof(cmd->detail), "%zu",
			 sizeof(cmd->note) - 1);
		return -1;
	}
	command_copy_cut(cmd->note, sizeof(cmd->note), text, len);
	return 0;
}

/* A line that starts with no keyword: a bare move (or `swap`) in a game's
 * thread, or `swap GAME`.  Returns 0, or -1 with cmd failed. */
static int parse_bare_move(struct command *cmd, const struct word *w,
			   size_t nw, int64_t thread_game)
{
	if (!command_looks_like_move(w[0].s, w[0].len))
		return command_fail(cmd, COMMAND_ERR_UNKNOWN, w[0].s, w[0].len);
	cmd->kind = COMMAND_MOVE;
	cmd->bare = true;
	if (set_move(cmd, &w[0]) < 0)
		return -1;
	if (nw >= 2 && command_word_is(&w[0], "swap")) {
		/* `swap 12` names the game itself */
		if (command_need_game(cmd, w, nw, 1, "GAME") < 0 ||
		    command_no_more(cmd, w, nw, 2) < 0)
			return -1;
		return 0;
	}
	if (command_no_more(cmd, w, nw, 1) < 0)
		return -1;
	if (thread_game <= 0)
		return command_fail(cmd, thread_game < 0 ?
			    COMMAND_ERR_THREAD_UNCONFIRMED :
			    COMMAND_ERR_NO_GAME, w[0].s, w[0].len);
	cmd->game = thread_game;
	return 0;
}

/* A refused line that names a game: the first game number among its
 * words (after the keyword), so the refusal can go to that game's
 * thread. */
static void refused_game(struct command *cmd, const struct word *w, size_t nw)
{
	for (size_t i = 1; i < nw && cmd->game == 0; i++)
		(void)command_parse_game(w[i].s, w[i].len, &cmd->game);
}

int command_parse_line(const char *line, size_t len, int64_t thread_game,
		       struct command *cmd_r)
{
	struct word w[MAX_WORDS];
	size_t nw, nread;
	struct command *cmd = cmd_r;
	const struct command_keyword *kw;
	const char *near;

	memset(cmd, 0, sizeof(*cmd));
	command_trim(&line, &len);
	command_copy_cut(cmd->text, sizeof(cmd->text), line, len);
	nw = split_words(line, len, w, N_ELEMENTS(w));
	nread = nw < N_ELEMENTS(w) ? nw : N_ELEMENTS(w);
	if (nw == 0)
		return command_fail_str(cmd, COMMAND_ERR_UNKNOWN, "");
	kw = command_keyword_find(w, nread);
	if (kw != NULL) {
		cmd->kind = kw->kind;
		/* A message, a note or a plea for help is a sentence: its
		 * words are not counted. */
		if (nw > N_ELEMENTS(w) && kw->kind != COMMAND_MESSAGE &&
		    kw->kind != COMMAND_NOTE && kw->kind != COMMAND_HELP)
			command_fail(cmd, COMMAND_ERR_EXTRA_ARG,
			     w[N_ELEMENTS(w) - 1].s,
			     w[N_ELEMENTS(w) - 1].len);
		else if (parsers[kw - command_keywords](cmd, w, nread, line + len,
							thread_game) == 0)
			return 0;
		if (kw->names_game)
			refused_game(cmd, w, nread);
		return -1;
	}
	if (nw > N_ELEMENTS(w))
		command_fail(cmd, COMMAND_ERR_UNKNOWN, w[0].s, w[0].len);
	else if (parse_bare_move(cmd, w, nw, thread_game) == 0)
		return 0;
	if (cmd->error != COMMAND_ERR_UNKNOWN)
		return -1;
	/* No keyword: the word it is a slip of, if any ("chalenge"). */
	near = command_near_keyword(w[0].s, w[0].len, false);
	if (near != NULL) {
		struct word k = { near, strlen(near) };

		command_copy_cut(cmd->suggestion, sizeof(cmd->suggestion), near,
			 k.len);
		if (command_keyword_find(&k, 1)->names_game)
			refused_game(cmd, w, nread);
	}
	return -1;
}
