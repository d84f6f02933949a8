/* command.c -- the mail command language: the grammar of one line, and
 * the game a mail's subject and thread name (command_text.c picks the
 * lines of a body that are commands). */
#include "server/command.h"

#include "core/variant.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

struct word {
	const char *s;
	size_t len;
};

/* Reads the arguments of a command (w[0] is its keyword, nw words in all)
 * into cmd.  Returns 0, or -1 with cmd failed (see fail()). */
typedef int command_args_parser(struct command *cmd, const struct word *w,
				size_t nw, int64_t thread_game);

static command_args_parser parse_no_args, parse_register, parse_confirm,
	parse_key, parse_challenge, parse_game_arg, parse_move, parse_preview,
	parse_draw;

/* The commands: keyword, kind, and what reads the rest of the line. */
struct keyword {
	const char *word;
	enum command_kind kind;
	command_args_parser *parse;
};

static const struct keyword keywords[] = {
	{ "help", COMMAND_HELP, parse_no_args },
	{ "register", COMMAND_REGISTER, parse_register },
	{ "challenge", COMMAND_CHALLENGE, parse_challenge },
	{ "accept", COMMAND_ACCEPT, parse_game_arg },
	{ "decline", COMMAND_DECLINE, parse_game_arg },
	{ "withdraw", COMMAND_WITHDRAW, parse_game_arg },
	{ "move", COMMAND_MOVE, parse_move },
	{ "preview", COMMAND_PREVIEW, parse_preview },
	{ "resign", COMMAND_RESIGN, parse_game_arg },
	{ "draw", COMMAND_DRAW, parse_draw },
	{ "board", COMMAND_BOARD, parse_game_arg },
	{ "moves", COMMAND_MOVES, parse_game_arg },
	{ "history", COMMAND_HISTORY, parse_game_arg },
	{ "games", COMMAND_GAMES, parse_no_args },
	{ "observe", COMMAND_OBSERVE, parse_game_arg },
	{ "unobserve", COMMAND_UNOBSERVE, parse_game_arg },
	{ "confirm", COMMAND_CONFIRM, parse_confirm },
	{ "key", COMMAND_KEY_REPLACE, parse_key },
};

#define N_ELEMENTS(a) (sizeof(a) / sizeof((a)[0]))

const char *command_kind_name(enum command_kind kind)
{
	for (size_t i = 0; i < N_ELEMENTS(keywords); i++)
		if (keywords[i].kind == kind)
			return keywords[i].word;
	return "invalid";
}

const char *command_error_string(enum command_error err)
{
	switch (err) {
	case COMMAND_OK: return "no error";
	case COMMAND_ERR_UNKNOWN: return "unknown command";
	case COMMAND_ERR_MISSING_ARG: return "missing argument";
	case COMMAND_ERR_EXTRA_ARG: return "unexpected extra word";
	case COMMAND_ERR_BAD_GAME: return "not a game number";
	case COMMAND_ERR_BAD_PLY: return "not a ply number";
	case COMMAND_ERR_BAD_MOVE: return "not a move";
	case COMMAND_ERR_BAD_NAME:
		return "a player name is 2 to 24 letters, digits, '-' or '_', starting with a letter";
	case COMMAND_ERR_UNKNOWN_OPTION: return "unknown option";
	case COMMAND_ERR_BAD_OPTION: return "bad option value";
	case COMMAND_ERR_DUPLICATE_OPTION: return "option given twice";
	case COMMAND_ERR_BAD_DRAW:
		return "draw takes offer, accept or decline";
	case COMMAND_ERR_NO_GAME:
		return "a move without a game number only works in a reply to the game's own mail";
	case COMMAND_ERR_TOO_MANY: return "too many commands in one mail";
	case COMMAND_ERR_THREAD_UNCONFIRMED:
		return "the signed text does not name the game";
	case COMMAND_ERR_BAD_CODE: return "not a confirmation code";
	case COMMAND_ERR_BAD_KEY_ACTION: return "unknown key action";
	}
	return "unknown error";
}

/* --- small text helpers ------------------------------------------------ */

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

void command_trim(const char **s, size_t *len)
{
	while (*len > 0 && (is_blank(**s) || (unsigned char)**s == 0xa0)) {
		(*s)++;
		(*len)--;
	}
	while (*len > 0 && is_blank((*s)[*len - 1]))
		(*len)--;
}

bool command_starts_with_ci(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);
	return len >= n && strncasecmp(s, prefix, n) == 0;
}

static void copy_cut(char *dst, size_t cap, const char *src, size_t len)
{
	if (len >= cap)
		len = cap - 1;
	memcpy(dst, src, len);
	dst[len] = '\0';
}

static void copy_lower(char *dst, size_t cap, const char *src, size_t len)
{
	copy_cut(dst, cap, src, len);
	for (char *p = dst; *p; p++)
		*p = (char)tolower((unsigned char)*p);
}

#define MAX_WORDS (COMMAND_MAX_OPTIONS + 8)

static size_t split_words(const char *s, size_t len, struct word *w,
			  size_t cap)
{
	size_t n = 0, i = 0;

	while (i < len) {
		while (i < len && is_blank(s[i]))
			i++;
		if (i >= len)
			break;
		size_t start = i;
		while (i < len && !is_blank(s[i]))
			i++;
		if (n < cap) {
			w[n].s = s + start;
			w[n].len = i - start;
		}
		n++;
	}
	return n;
}

static bool word_is(const struct word *w, const char *lit)
{
	return w->len == strlen(lit) && strncasecmp(w->s, lit, w->len) == 0;
}

/* --- parsing one line --------------------------------------------------- */

int command_parse_game(const char *word, size_t len, int64_t *game_r)
{
	int64_t v = 0;
	size_t i = 0;

	if (len > 0 && word[0] == '#')
		i++;
	if (i >= len || len - i > 15)
		return -1;
	for (; i < len; i++) {
		if (!isdigit((unsigned char)word[i]))
			return -1;
		v = v * 10 + (word[i] - '0');
	}
	if (v <= 0)
		return -1;
	*game_r = v;
	return 0;
}

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

/* Cell name: a letter a..m and 1..2 digits. */
static size_t scan_cell(const char *s, size_t len)
{
	size_t i = 0;
	char c;

	if (len < 2)
		return 0;
	c = (char)tolower((unsigned char)s[0]);
	if (c < 'a' || c > 'm')
		return 0;
	i = 1;
	while (i < len && i < 3 && isdigit((unsigned char)s[i]))
		i++;
	return i >= 2 ? i : 0;
}

/* The shape of a move: FROM[-x]TO[/K], `swap` or `pass` (which the rules
 * refuse by name, since passes are forced).  The rules core decides the
 * rest. */
static bool looks_like_move(const char *s, size_t len)
{
	size_t n, i = 0;

	if ((len == 4 && strncasecmp(s, "swap", 4) == 0) ||
	    (len == 4 && strncasecmp(s, "pass", 4) == 0))
		return true;
	n = scan_cell(s, len);
	if (n == 0)
		return false;
	i = n;
	if (i < len && (s[i] == '-' || s[i] == 'x' || s[i] == 'X'))
		i++;
	n = scan_cell(s + i, len - i);
	if (n == 0)
		return false;
	i += n;
	if (i < len && s[i] == '/') {
		size_t digits = 0;
		i++;
		while (i < len && isdigit((unsigned char)s[i]) && digits < 9) {
			i++;
			digits++;
		}
		if (digits == 0)
			return false;
	}
	return i == len;
}

static int fail(struct command *cmd, enum command_error err,
		const char *detail, size_t len)
{
	cmd->kind = COMMAND_INVALID;
	cmd->error = err;
	copy_cut(cmd->detail, sizeof(cmd->detail), detail, len);
	return -1;
}

static int fail_str(struct command *cmd, enum command_error err,
		    const char *detail)
{
	return fail(cmd, err, detail, strlen(detail));
}

static bool valid_name(const struct word *w)
{
	if (w->len < COMMAND_NAME_MIN || w->len > COMMAND_NAME_MAX)
		return false;
	if (!isalpha((unsigned char)w->s[0]))
		return false;
	for (size_t i = 0; i < w->len; i++) {
		unsigned char c = (unsigned char)w->s[i];
		if (!isalnum(c) && c != '-' && c != '_')
			return false;
	}
	/* Keywords as names would make commands ambiguous to read. */
	for (size_t i = 0; i < N_ELEMENTS(keywords); i++)
		if (word_is(w, keywords[i].word))
			return false;
	/* Nor a name that reads as a move ("c3e5"), for the same reason. */
	return !word_is(w, "any") && !looks_like_move(w->s, w->len);
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
		return fail(cmd, COMMAND_ERR_UNKNOWN_OPTION, w->s, klen);
	for (size_t i = 0; i < cmd->noptions; i++)
		if (strcmp(cmd->options[i].key, spec->key) == 0)
			return fail_str(cmd, COMMAND_ERR_DUPLICATE_OPTION,
					spec->key);
	if (cmd->noptions >= COMMAND_MAX_OPTIONS)
		return fail(cmd, COMMAND_ERR_EXTRA_ARG, w->s, w->len);
	if (val == NULL) {
		/* a bare flag ("swap") means yes */
		if (spec->type != CORE_VARIANT_FLAG || !spec->bare)
			return fail(cmd, COMMAND_ERR_BAD_OPTION, w->s, w->len);
		val = "yes";
		vlen = 3;
	}
	if (vlen == 0 || vlen >= COMMAND_OPTION_VALUE_MAX ||
	    !core_variant_option_value_ok(spec, val, vlen))
		return fail(cmd, COMMAND_ERR_BAD_OPTION, w->s, w->len);
	opt = &cmd->options[cmd->noptions++];
	copy_lower(opt->key, sizeof(opt->key), spec->key, strlen(spec->key));
	/* names and yes/no in lower case; a number is digits only */
	copy_lower(opt->value, sizeof(opt->value), val, vlen);
	return 0;
}

static int need_game(struct command *cmd, const struct word *w, size_t nw,
		     size_t idx, const char *what)
{
	if (nw <= idx)
		return fail_str(cmd, COMMAND_ERR_MISSING_ARG, what);
	if (command_parse_game(w[idx].s, w[idx].len, &cmd->game) < 0)
		return fail(cmd, COMMAND_ERR_BAD_GAME, w[idx].s, w[idx].len);
	return 0;
}

static int no_more(struct command *cmd, const struct word *w, size_t nw,
		   size_t idx)
{
	if (nw > idx)
		return fail(cmd, COMMAND_ERR_EXTRA_ARG, w[idx].s, w[idx].len);
	return 0;
}

static int set_move(struct command *cmd, const struct word *w)
{
	if (!looks_like_move(w->s, w->len))
		return fail(cmd, COMMAND_ERR_BAD_MOVE, w->s, w->len);
	copy_lower(cmd->move, sizeof(cmd->move), w->s, w->len);
	return 0;
}

/* help, games: nothing after the keyword. */
static int parse_no_args(struct command *cmd, const struct word *w, size_t nw,
			 int64_t thread_game)
{
	(void)thread_game;
	return no_more(cmd, w, nw, 1);
}

/* register NAME */
static int parse_register(struct command *cmd, const struct word *w,
			  size_t nw, int64_t thread_game)
{
	(void)thread_game;
	if (nw < 2)
		return fail_str(cmd, COMMAND_ERR_MISSING_ARG, "NAME");
	if (!valid_name(&w[1]))
		return fail(cmd, COMMAND_ERR_BAD_NAME, w[1].s, w[1].len);
	copy_cut(cmd->name, sizeof(cmd->name), w[1].s, w[1].len);
	return no_more(cmd, w, nw, 2);
}

/* confirm CODE: the code kept in upper case. */
static int parse_confirm(struct command *cmd, const struct word *w,
			 size_t nw, int64_t thread_game)
{
	(void)thread_game;
	if (nw < 2)
		return fail_str(cmd, COMMAND_ERR_MISSING_ARG, "CODE");
	if (w[1].len < COMMAND_CODE_MIN || w[1].len > COMMAND_CODE_MAX)
		return fail(cmd, COMMAND_ERR_BAD_CODE, w[1].s, w[1].len);
	for (size_t i = 0; i < w[1].len; i++) {
		if (!isalnum((unsigned char)w[1].s[i]))
			return fail(cmd, COMMAND_ERR_BAD_CODE, w[1].s,
				    w[1].len);
		cmd->code[i] = (char)toupper((unsigned char)w[1].s[i]);
	}
	cmd->code[w[1].len] = '\0';
	return no_more(cmd, w, nw, 2);
}

/* key replace */
static int parse_key(struct command *cmd, const struct word *w, size_t nw,
		     int64_t thread_game)
{
	(void)thread_game;
	if (nw < 2)
		return fail_str(cmd, COMMAND_ERR_MISSING_ARG, "replace");
	if (!word_is(&w[1], "replace"))
		return fail(cmd, COMMAND_ERR_BAD_KEY_ACTION, w[1].s, w[1].len);
	return no_more(cmd, w, nw, 2);
}

/* challenge PLAYER|any [OPTION]... */
static int parse_challenge(struct command *cmd, const struct word *w,
			   size_t nw, int64_t thread_game)
{
	(void)thread_game;
	if (nw < 2)
		return fail_str(cmd, COMMAND_ERR_MISSING_ARG, "PLAYER or any");
	if (word_is(&w[1], "any"))
		copy_cut(cmd->name, sizeof(cmd->name), "any", 3);
	else if (valid_name(&w[1]))
		copy_cut(cmd->name, sizeof(cmd->name), w[1].s, w[1].len);
	else
		return fail(cmd, COMMAND_ERR_BAD_NAME, w[1].s, w[1].len);
	for (size_t i = 2; i < nw; i++)
		if (parse_option(cmd, &w[i]) < 0)
			return -1;
	return 0;
}

/* accept, decline, withdraw, resign, board, moves, history, observe,
 * unobserve: GAME, which a game's thread may leave off. */
static int parse_game_arg(struct command *cmd, const struct word *w,
			  size_t nw, int64_t thread_game)
{
	if (nw < 2 && thread_game > 0) {
		/* In a game's thread the game number may be left off for
		 * commands that cannot be stale. */
		cmd->game = thread_game;
		return 0;
	}
	if (need_game(cmd, w, nw, 1, "GAME") < 0)
		return -1;
	return no_more(cmd, w, nw, 2);
}

/* move GAME PLY MOVE */
static int parse_move(struct command *cmd, const struct word *w, size_t nw,
		      int64_t thread_game)
{
	(void)thread_game;
	if (need_game(cmd, w, nw, 1, "GAME") < 0)
		return -1;
	if (nw < 3)
		return fail_str(cmd, COMMAND_ERR_MISSING_ARG, "PLY");
	if (parse_ply(&w[2], &cmd->ply) < 0)
		return fail(cmd, COMMAND_ERR_BAD_PLY, w[2].s, w[2].len);
	if (nw < 4)
		return fail_str(cmd, COMMAND_ERR_MISSING_ARG, "MOVE");
	if (set_move(cmd, &w[3]) < 0)
		return -1;
	return no_more(cmd, w, nw, 4);
}

/* preview GAME MOVE, or preview MOVE in the thread */
static int parse_preview(struct command *cmd, const struct word *w,
			 size_t nw, int64_t thread_game)
{
	if (nw == 2 && thread_game > 0 && looks_like_move(w[1].s, w[1].len)) {
		cmd->game = thread_game;
		return set_move(cmd, &w[1]);
	}
	if (need_game(cmd, w, nw, 1, "GAME") < 0)
		return -1;
	if (nw < 3)
		return fail_str(cmd, COMMAND_ERR_MISSING_ARG, "MOVE");
	if (set_move(cmd, &w[2]) < 0)
		return -1;
	return no_more(cmd, w, nw, 3);
}

/* draw offer|accept|decline GAME, the game optional in its thread */
static int parse_draw(struct command *cmd, const struct word *w, size_t nw,
		      int64_t thread_game)
{
	if (nw < 2)
		return fail_str(cmd, COMMAND_ERR_MISSING_ARG,
				"offer, accept or decline");
	if (word_is(&w[1], "offer"))
		cmd->draw = COMMAND_DRAW_OFFER;
	else if (word_is(&w[1], "accept"))
		cmd->draw = COMMAND_DRAW_ACCEPT;
	else if (word_is(&w[1], "decline"))
		cmd->draw = COMMAND_DRAW_DECLINE;
	else
		return fail(cmd, COMMAND_ERR_BAD_DRAW, w[1].s, w[1].len);
	if (nw < 3 && thread_game > 0) {
		cmd->game = thread_game;
		return 0;
	}
	if (need_game(cmd, w, nw, 2, "GAME") < 0)
		return -1;
	return no_more(cmd, w, nw, 3);
}

/* A line that starts with no keyword: a bare move (or `swap`) in a game's
 * thread, or `swap GAME`.  Returns 0, or -1 with cmd failed. */
static int parse_bare_move(struct command *cmd, const struct word *w,
			   size_t nw, int64_t thread_game)
{
	if (!looks_like_move(w[0].s, w[0].len))
		return fail(cmd, COMMAND_ERR_UNKNOWN, w[0].s, w[0].len);
	cmd->kind = COMMAND_MOVE;
	cmd->bare = true;
	if (set_move(cmd, &w[0]) < 0)
		return -1;
	if (nw >= 2 && word_is(&w[0], "swap")) {
		/* `swap 12` names the game itself */
		if (need_game(cmd, w, nw, 1, "GAME") < 0 ||
		    no_more(cmd, w, nw, 2) < 0)
			return -1;
		return 0;
	}
	if (no_more(cmd, w, nw, 1) < 0)
		return -1;
	if (thread_game <= 0)
		return fail(cmd, thread_game < 0 ?
			    COMMAND_ERR_THREAD_UNCONFIRMED :
			    COMMAND_ERR_NO_GAME, w[0].s, w[0].len);
	cmd->game = thread_game;
	return 0;
}

/* The command whose keyword w is (any case), or NULL. */
static const struct keyword *keyword_find(const struct word *w)
{
	for (size_t i = 0; i < N_ELEMENTS(keywords); i++)
		if (word_is(w, keywords[i].word))
			return &keywords[i];
	return NULL;
}

int command_parse_line(const char *line, size_t len, int64_t thread_game,
		       struct command *cmd_r)
{
	struct word w[MAX_WORDS];
	size_t nw;
	struct command *cmd = cmd_r;
	const struct keyword *kw;

	memset(cmd, 0, sizeof(*cmd));
	command_trim(&line, &len);
	copy_cut(cmd->text, sizeof(cmd->text), line, len);
	nw = split_words(line, len, w, N_ELEMENTS(w));
	if (nw == 0)
		return fail_str(cmd, COMMAND_ERR_UNKNOWN, "");
	if (nw > N_ELEMENTS(w))
		return fail(cmd, COMMAND_ERR_EXTRA_ARG, w[N_ELEMENTS(w) - 1].s,
			    w[N_ELEMENTS(w) - 1].len);
	kw = keyword_find(&w[0]);
	if (kw == NULL)
		return parse_bare_move(cmd, w, nw, thread_game);
	cmd->kind = kw->kind;
	return kw->parse(cmd, w, nw, thread_game);
}

/* --- subject and thread -------------------------------------------------- */

/* Length of a "[ashes #N]" tag at s, or 0; *game_r gets N. */
static size_t scan_tag(const char *s, size_t len, int64_t *game_r)
{
	size_t i = 0, start;
	int64_t g;

	if (len < 9 || s[0] != '[' || strncasecmp(s + 1, "ashes", 5) != 0)
		return 0;
	i = 6;
	while (i < len && s[i] == ' ')
		i++;
	start = i;
	while (i < len && s[i] != ']')
		i++;
	if (i >= len)
		return 0;
	if (command_parse_game(s + start, i - start, &g) < 0)
		return 0;
	if (game_r != NULL)
		*game_r = g;
	return i + 1;
}

static size_t scan_reply_prefix(const char *s, size_t len)
{
	static const char *const prefixes[] = {
		"re:", "fwd:", "fw:", "aw:", "wg:", "sv:", "vs:", "re :",
		"fwd :", "tr:",
	};
	for (size_t i = 0; i < N_ELEMENTS(prefixes); i++)
		if (command_starts_with_ci(s, len, prefixes[i]))
			return strlen(prefixes[i]);
	return 0;
}

void command_subject_clean(const char *subject, char *buf, size_t len)
{
	const char *s = subject != NULL ? subject : "";
	size_t n = strlen(s), skip;
	bool again = true;

	while (again) {
		again = false;
		command_trim(&s, &n);
		if ((skip = scan_reply_prefix(s, n)) > 0 ||
		    (skip = scan_tag(s, n, NULL)) > 0) {
			s += skip;
			n -= skip;
			again = true;
		}
	}
	copy_cut(buf, len, s, n);
}

int64_t command_thread_game(const char *subject, const char *references,
			    const char *domain)
{
	int64_t game = 0;

	if (subject != NULL) {
		for (const char *p = subject; *p != '\0'; p++)
			if (*p == '[' && scan_tag(p, strlen(p), &game) > 0)
				return game;
	}
	if (references == NULL)
		return 0;
	/* The newest reference is last: scan all and keep the last match. */
	for (const char *p = strstr(references, "<ashes."); p != NULL;
	     p = strstr(p + 1, "<ashes.")) {
		const char *q = p + 7, *end = strchr(p, '>'), *at;
		int64_t g;
		size_t n = 0;

		if (end == NULL)
			break;
		while (q + n < end && isdigit((unsigned char)q[n]))
			n++;
		if (n == 0 || command_parse_game(q, n, &g) < 0)
			continue;
		at = memchr(q, '@', (size_t)(end - q));
		if (at == NULL)
			continue;
		if (domain != NULL &&
		    ((size_t)(end - at - 1) != strlen(domain) ||
		     strncasecmp(at + 1, domain, strlen(domain)) != 0))
			continue;
		game = g;
	}
	return game;
}

char *command_message_id(char *buf, size_t len, int64_t game, int ply,
			 int64_t inbound, int seq, const char *token,
			 const char *domain)
{
	bool tok = token != NULL && token[0] != '\0';

	snprintf(buf, len, "<ashes.%" PRId64 ".%d.%" PRId64 ".%d%s%s@%s>", game,
		 ply, inbound, seq, tok ? "." : "", tok ? token : "", domain);
	return buf;
}

/* The number after `word` at s (len bytes), if s starts with word and
 * blanks: 1 and *game_r, else 0. */
static int game_after_word(const char *s, size_t len, const char *word,
			   int64_t *game_r)
{
	size_t wl = strlen(word), i, start;

	if (len <= wl || !command_starts_with_ci(s, len, word) ||
	    !is_blank(s[wl]))
		return 0;
	for (i = wl; i < len && is_blank(s[i]); i++)
		;
	start = i;
	if (i < len && s[i] == '#')
		i++;
	while (i < len && isdigit((unsigned char)s[i]))
		i++;
	if (i == start || (i < len && isalnum((unsigned char)s[i])))
		return 0;
	return command_parse_game(s + start, i - start, game_r) == 0;
}

bool command_thread_confirmed(const char *body, size_t len, int64_t game)
{
	size_t i;

	if (body == NULL || game <= 0)
		return false;
	for (i = 0; i < len; i++) {
		int64_t g = 0;
		bool word_start = i == 0 || !isalnum((unsigned char)body[i - 1]);

		if (body[i] == '[' && scan_tag(body + i, len - i, &g) > 0 &&
		    g == game)
			return true;
		if (word_start &&
		    (game_after_word(body + i, len - i, "game", &g) ||
		     game_after_word(body + i, len - i, "move", &g)) &&
		    g == game)
			return true;
	}
	return false;
}
