/* command_thread.c -- game numbers, and the game a mail's Subject and
 * thread name: the "[ashes #N]" tag, our Message-IDs in References, the
 * Subject cleaned of reply tags, and whether the signed text confirms
 * the thread's game.
 * (command.c is the grammar of one line; command_text.c the lines of a
 * body.) */
#include "server/command.h"
#include "server/command_private.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define N_ELEMENTS(a) (sizeof(a) / sizeof((a)[0]))

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
	command_copy_cut(buf, len, s, n);
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
	    !command_is_blank(s[wl]))
		return 0;
	for (i = wl; i < len && command_is_blank(s[i]); i++)
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

