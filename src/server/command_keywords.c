/* command_keywords.c -- the words that start a command: the command
 * table's keywords (command_table.h) with each row's name, kind and
 * whether its line names a game; a move's shape; what may be a player's
 * name; the help topics.  The data only: command.c takes each row's
 * parser from the same table, indexed as command_keywords[], and reads
 * the rest of the line.  Kept below command.c so that command_args.c and
 * command_near.c, which command.c calls, can ask what a keyword and a
 * name are without calling back up. */
#include "server/command.h"
#include "server/command_private.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

#define N_ELEMENTS(a) (sizeof(a) / sizeof((a)[0]))

#define KEYWORD_ROW(kind_, word_, name_, parse_, names_game_, ...) \
	{ word_, name_, COMMAND_##kind_, names_game_ },
const struct command_keyword command_keywords[COMMAND_NKEYWORDS] = {
	COMMAND_TABLE(KEYWORD_ROW)
};

/* Help topics besides the keywords. */
static const char *const extra_topics[] = { "rules", "undo", "clock",
					     "bot" };

const char *command_kind_name(enum command_kind kind)
{
	for (size_t i = 0; i < COMMAND_NKEYWORDS; i++)
		if (command_keywords[i].kind == kind)
			return command_keywords[i].name;
	return "invalid";
}

/* w without the punctuation a sentence puts after a word ("Help!",
 * "games?", "Hi,"). */
static struct word word_bare(const struct word *w)
{
	struct word b = *w;

	while (b.len > 0 && strchr(".,;:!?", b.s[b.len - 1]) != NULL)
		b.len--;
	return b;
}

/* Something shaped like a cell name: a letter and 1 to 3 digits.  Which
 * cells a board has is the rules core's to say ("z9": no such cell on
 * this board), so any letter will do here, as in core/notation.c. */
static size_t scan_cell(const char *s, size_t len)
{
	size_t i = 1;

	if (len < 2 || !isalpha((unsigned char)s[0]) ||
	    (unsigned char)s[0] >= 0x80)
		return 0;
	while (i < len && i < 4 && isdigit((unsigned char)s[i]))
		i++;
	return i >= 2 ? i : 0;
}

bool command_looks_like_move(const char *s, size_t len)
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

bool command_name_ok(const char *s, size_t len)
{
	struct word w = { s, len };

	if (len < COMMAND_NAME_MIN || len > COMMAND_NAME_MAX)
		return false;
	if (!isalpha((unsigned char)s[0]))
		return false;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (!isalnum(c) && c != '-' && c != '_')
			return false;
	}
	/* Keywords as names would make commands ambiguous to read. */
	for (size_t i = 0; i < COMMAND_NKEYWORDS; i++)
		if (command_word_is(&w, command_keywords[i].word))
			return false;
	/* Nor a name that reads as a move ("c3e5"), for the same reason. */
	return !command_word_is(&w, "any") && !command_word_is(&w, "bot") &&
	       !command_looks_like_move(s, len);
}

const struct command_keyword *command_keyword_find(const struct word *w,
						   size_t nw)
{
	struct word b = word_bare(&w[0]);

	for (size_t i = 0; i < COMMAND_NKEYWORDS; i++) {
		const char *k = command_keywords[i].word;
		const char *second = strchr(k, ' ');
		size_t klen = second != NULL ? (size_t)(second - k) : strlen(k);

		if (b.len == klen && strncasecmp(b.s, k, klen) == 0 &&
		    (second == NULL ||
		     (nw >= 2 && command_word_is(&w[1], second + 1))))
			return &command_keywords[i];
	}
	return NULL;
}

bool command_help_topic(const struct word *w, char *topic_r, size_t cap)
{
	struct word b = word_bare(w);

	for (size_t i = 0; i < COMMAND_NKEYWORDS; i++)
		if (command_word_is(&b, command_keywords[i].word)) {
			command_copy_cut(topic_r, cap, command_keywords[i].word,
					 strlen(command_keywords[i].word));
			return true;
		}
	for (size_t i = 0; i < N_ELEMENTS(extra_topics); i++)
		if (command_word_is(&b, extra_topics[i])) {
			command_copy_cut(topic_r, cap, extra_topics[i],
					 strlen(extra_topics[i]));
			return true;
		}
	return false;
}

const char *command_keyword_at(size_t i, bool topics)
{
	/* one word each: "challenge bot" is no slip of anything */
	for (size_t k = 0; k < COMMAND_NKEYWORDS; k++)
		if (strchr(command_keywords[k].word, ' ') == NULL && i-- == 0)
			return command_keywords[k].word;
	return topics && i < N_ELEMENTS(extra_topics) ? extra_topics[i] : NULL;
}

bool command_word_starts_command(const char *word, size_t len)
{
	struct word w = { word, len }, b = word_bare(&w);

	return command_keyword_find(&w, 1) != NULL ||
	       command_looks_like_move(w.s, w.len) ||
	       command_looks_like_move(b.s, b.len);
}
