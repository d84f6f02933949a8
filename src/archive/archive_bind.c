/* archive_bind.c -- does a player's signed text say what the record says
 * of it: this move, as this ply, of this game?  PGP/MIME signs the body
 * and not the headers (RFC 9788), so a bare move answering a "your move"
 * mail is bound to its game and ply only when the signed text itself says
 * them -- by quoting the line that mail asked to send back ("move 12 7
 * MOVE") -- and otherwise only by the unsigned In-Reply-To header.  The
 * commands are read by the daemon's own reader (server/command.h). */
#include "archive/archive_private.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/notation.h"
#include "server/command.h"

/* The next blank-separated word of s[*i .. len): its start and length. */
static bool bind_word(const char *s, size_t len, size_t *i,
		      const char **w_r, size_t *n_r)
{
	while (*i < len && (s[*i] == ' ' || s[*i] == '\t'))
		(*i)++;
	if (*i >= len)
		return false;
	*w_r = s + *i;
	while (*i < len && s[*i] != ' ' && s[*i] != '\t')
		(*i)++;
	*n_r = (size_t)(s + *i - *w_r);
	return true;
}

static bool bind_word_is(const char *w, size_t n, const char *word)
{
	return n == strlen(word) && strncasecmp(w, word, n) == 0;
}

static bool bind_word_number(const char *w, size_t n, int64_t want)
{
	char buf[24];

	if (n > 0 && w[0] == '#') {
		w++;
		n--;
	}
	snprintf(buf, sizeof(buf), "%" PRId64, want);
	return n == strlen(buf) && memcmp(w, buf, n) == 0;
}

/* Does the line, its quote marks ("> > ") taken off, read exactly "move
 * GAME PLY MOVE" -- the line a "your move" mail asks to send back? */
static bool bind_quoted_line(const char *s, size_t len, int64_t game,
			     size_t ply)
{
	const char *w;
	size_t i = 0, n;

	while (i < len && (s[i] == '>' || s[i] == ' ' || s[i] == '\t'))
		i++;
	return bind_word(s, len, &i, &w, &n) && bind_word_is(w, n, "move") &&
	       bind_word(s, len, &i, &w, &n) &&
	       bind_word_number(w, n, game) &&
	       bind_word(s, len, &i, &w, &n) &&
	       bind_word_number(w, n, (int64_t)ply) &&
	       bind_word(s, len, &i, &w, &n) && bind_word_is(w, n, "MOVE") &&
	       !bind_word(s, len, &i, &w, &n);
}

static bool bind_quotes(const char *text, int64_t game, size_t ply)
{
	const char *p = text;

	while (*p != '\0') {
		const char *end = strchr(p, '\n');
		size_t n = end != NULL ? (size_t)(end - p) : strlen(p);
		if (bind_quoted_line(p, n, game, ply))
			return true;
		p += n;
		if (*p == '\n')
			p++;
	}
	return false;
}

void archive_bind(const char *text, const struct core_position *pos,
		  int64_t game, size_t ply, const char *move,
		  enum archive_binding *bind_r, char *other_r,
		  size_t other_len)
{
	struct command_list list;
	size_t len = strlen(text);

	*bind_r = ARCHIVE_BIND_NONE;
	if (other_r != NULL && other_len > 0)
		other_r[0] = '\0';
	command_parse_mail(NULL, text, len, game, &list);
	for (size_t i = 0; i < list.count; i++) {
		const struct command *c = &list.items[i];
		char canon[CORE_MOVE_TEXT_MAX];
		enum archive_binding b;
		enum core_error err;
		struct core_move m;

		if (c->kind != COMMAND_MOVE)
			continue;
		/* The player's way of writing it ("c3e5", "C3xE5"), as the
		 * rules read it on the board of that ply. */
		if (notation_parse_move(pos, c->move, strlen(c->move), &m,
					&err) == 0)
			notation_format_move(pos->geom, &m, canon);
		else
			snprintf(canon, sizeof(canon), "%s", c->move);
		if (c->game != game || strcmp(canon, move) != 0 ||
		    (!c->bare && c->ply != (int)ply)) {
			if (other_r != NULL && other_r[0] == '\0' && c->bare)
				snprintf(other_r, other_len, "%s (a move alone)",
					 c->text);
			else if (other_r != NULL && other_r[0] == '\0')
				snprintf(other_r, other_len, "%s", c->text);
			continue;
		}
		if (!c->bare || bind_quotes(text, game, ply))
			b = ARCHIVE_BIND_TEXT;
		else if (command_thread_confirmed(text, len, game))
			b = ARCHIVE_BIND_GAME;
		else
			b = ARCHIVE_BIND_HEADER;
		if (b > *bind_r)
			*bind_r = b;
	}
	command_list_free(&list);
}

/* A line "resign GAME" (any case, the game as "12" or "#12"). */
static bool bind_names_resign(const char *text, int64_t game)
{
	for (const char *p = text; *p != '\0';) {
		const char *end = strchr(p, '\n'), *w;
		size_t n = end != NULL ? (size_t)(end - p) : strlen(p), i = 0, k;

		if (bind_word(p, n, &i, &w, &k) && bind_word_is(w, k, "resign") &&
		    bind_word(p, n, &i, &w, &k) && bind_word_number(w, k, game))
			return true;
		p += n;
		if (*p == '\n')
			p++;
	}
	return false;
}

enum archive_binding archive_bind_resign(const char *text, int64_t game)
{
	struct command_list list;
	size_t len = strlen(text);
	bool found = false;

	command_parse_mail(NULL, text, len, game, &list);
	for (size_t i = 0; i < list.count && !found; i++)
		found = list.items[i].kind == COMMAND_RESIGN &&
			list.items[i].game == game;
	command_list_free(&list);
	if (!found)
		return ARCHIVE_BIND_NONE;
	/* `resign` alone is the thread's: bound by the text only where the
	 * text names the game, in the command or elsewhere. */
	return bind_names_resign(text, game) ||
	       command_thread_confirmed(text, len, game) ? ARCHIVE_BIND_TEXT :
	       ARCHIVE_BIND_HEADER;
}
