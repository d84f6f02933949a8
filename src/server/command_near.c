/* command_near.c -- reading a mail as a person writes it: the keyword a
 * misspelt word is a slip of ("chalenge": did you mean challenge?), and
 * the lines of prose ("Hi there, I'd like to play.") that come before the
 * first command and are skipped rather than refused.  Both are guesses,
 * so both are cautious: a guess never runs a command, it only changes
 * what a refusal says or lets a greeting pass. */
#include "server/command.h"
#include "server/command_private.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

#define N_ELEMENTS(a) (sizeof(a) / sizeof((a)[0]))

/* Longest word compared (a keyword is at most 9 letters). */
#define NEAR_WORD_MAX COMMAND_NAME_MAX

/* Edit distance of a and b (any case, at most NEAR_WORD_MAX letters
 * each), counting a swap of two neighbours as one edit, as typing slips
 * do ("mvoe"). */
static int edit_distance(const char *a, size_t la, const char *b, size_t lb)
{
	int d[NEAR_WORD_MAX + 1][NEAR_WORD_MAX + 1];

	for (size_t i = 0; i <= la; i++)
		d[i][0] = (int)i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (int)j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			int ca = tolower((unsigned char)a[i - 1]);
			int cb = tolower((unsigned char)b[j - 1]);
			int best = d[i - 1][j - 1] + (ca != cb);

			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 &&
			    ca == tolower((unsigned char)b[j - 2]) &&
			    cb == tolower((unsigned char)a[i - 2]) &&
			    d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	}
	return d[la][lb];
}

/* The distance of w (len letters) from keyword k if w is a slip of it,
 * else -1.  A slip is one edit (two for a keyword of six letters or
 * more) that keeps the first letter (or swaps it with the second:
 * "hlep"); keywords of three letters get no guesses ("hey" is not
 * "key"); and a four-letter keyword does not take a changed letter,
 * which mostly makes another real word ("love", "drew", "held"). */
static int slip_distance(const char *w, size_t len, const char *k)
{
	size_t kl = strlen(k);
	int d, max = kl <= 5 ? 1 : 2;
	char a0, a1;

	if (kl < 4 || len < 3 || len > NEAR_WORD_MAX)
		return -1;
	for (size_t i = 0; i < len; i++)
		if (!isalpha((unsigned char)w[i]) || (unsigned char)w[i] >= 0x80)
			return -1;
	a0 = (char)tolower((unsigned char)w[0]);
	a1 = (char)tolower((unsigned char)w[1]);
	if (a0 != k[0] && !(a0 == k[1] && a1 == k[0]))
		return -1;
	if (len > kl + (size_t)max || kl > len + (size_t)max)
		return -1;
	d = edit_distance(w, len, k, kl);
	if (d == 0 || d > max)
		return -1;
	if (kl == 4 && len == 4 && d == 1) {
		/* only a swap of neighbours: exactly two places differ */
		size_t diff = 0;
		for (size_t i = 0; i < 4; i++)
			diff += tolower((unsigned char)w[i]) != k[i];
		if (diff != 2)
			return -1;
	}
	return d;
}

/* len without the marks a sentence puts after a word ("Help!", "Hi,"). */
static size_t bare_length(const char *word, size_t len)
{
	while (len > 0 && strchr(".,;:!?", word[len - 1]) != NULL)
		len--;
	return len;
}

const char *command_near_keyword(const char *word, size_t len, bool topics)
{
	const char *best = NULL, *k;
	int best_d = 99;

	len = bare_length(word, len);
	for (size_t i = 0; (k = command_keyword_at(i, topics)) != NULL; i++) {
		int d = slip_distance(word, len, k);

		/* a word that is a keyword is no slip of another */
		if (len == strlen(k) && strncasecmp(word, k, len) == 0)
			return NULL;

		if (d > 0 && d < best_d) {
			best = k;
			best_d = d;
		}
	}
	return best;
}

/* --- prose ---------------------------------------------------------------- */

/* First words of a greeting, a thank-you or a polite opening. */
static const char *const greetings[] = {
	"hi", "hello", "hey", "hiya", "howdy", "dear", "greetings", "good",
	"morning", "afternoon", "evening", "thanks", "thank", "cheers",
	"hallo", "hola", "bonjour", "ciao", "hej", "moin", "salut", "ok",
	"okay", "please", "sorry",
};

/* Length of the first word of s (len bytes, trimmed). */
static size_t first_word(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len && !command_is_blank(s[i]))
		i++;
	return i;
}

bool command_line_is_prose(const char *line, size_t len)
{
	size_t wl, bl, words = 0, numbers = 0;
	char last;

	command_trim(&line, &len);
	if (len == 0)
		return false;
	wl = first_word(line, len);
	bl = bare_length(line, wl);
	/* Anything a command could be, or a slip of one, is the parser's
	 * to answer, however the line ends. */
	if (bl == 0 || command_word_starts_command(line, wl) ||
	    command_near_keyword(line, wl, false) != NULL)
		return false;
	for (size_t i = 0; i < N_ELEMENTS(greetings); i++)
		if (bl == strlen(greetings[i]) &&
		    strncasecmp(line, greetings[i], bl) == 0)
			return true;
	/* the words, the numbers among them, and any option's '=' */
	for (size_t i = 0; i < len;) {
		size_t n = first_word(line + i, len - i);
		bool digit = false;

		if (memchr(line + i, '=', n) != NULL)
			return false;
		for (size_t j = 0; j < n; j++)
			digit = digit || isdigit((unsigned char)line[i + j]);
		words++;
		numbers += digit;
		for (i += n; i < len && command_is_blank(line[i]); i++)
			;
	}
	last = line[len - 1];
	/* a salutation or an introduction: "Dear Ashes," "Here is my move:" */
	if (last == ',' || last == ':')
		return true;
	/* a sentence: "I'd like to play." */
	if (words >= 2 && strchr(".!?;)", last) != NULL)
		return true;
	/* a sentence without its full stop, with no command's numbers in
	 * it: "I would like to play a game" */
	return words >= 4 && numbers <= 1;
}

/* First words of a letter's closing. */
static const char *const closings[] = {
	"thanks", "thank", "thx", "ta", "cheers", "regards", "best", "kind",
	"warm", "warmest", "yours", "sincerely", "love", "bye", "ciao",
	"greetings", "many", "all", "take", "see", "talk", "hugs", "merci",
	"cordialement", "amicalement", "saludos", "gruss", "viele", "liebe",
	"beste", "mfg", "lg",
};

bool command_line_is_closing(const char *line, size_t len)
{
	size_t wl, bl, words = 0;
	bool known = false;

	command_trim(&line, &len);
	if (len == 0 || len > 40)
		return false;
	wl = first_word(line, len);
	bl = bare_length(line, wl);
	for (size_t i = 0; i < N_ELEMENTS(closings) && !known; i++)
		known = bl == strlen(closings[i]) &&
			strncasecmp(line, closings[i], bl) == 0;
	if (!known)
		return false;
	for (size_t i = 0; i < len;) {
		size_t n = first_word(line + i, len - i);

		for (size_t j = 0; j < n; j++)
			if (isdigit((unsigned char)line[i + j]) ||
			    line[i + j] == '=')
				return false;
		words++;
		for (i += n; i < len && command_is_blank(line[i]); i++)
			;
	}
	return words <= 4;
}
