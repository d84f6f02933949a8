/* command_text.c -- the mail command language over a whole mail: which
 * lines of the body are commands (not quotes, attributions, signatures,
 * forwarded parts, key armour, or a letter's opening words before the
 * first command), read in order by command_parse_line() (command.c) into
 * a list. */
#include "server/command.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* --- lines to skip ----------------------------------------------------- */

/* True if s (len bytes) ends with suffix, ignoring case. */
static bool ends_with_ci(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);
	return len >= n && strncasecmp(s + len - n, suffix, n) == 0;
}

/* The line a phone's or web mail's program puts below what was written,
 * where a signature would be: "Sent from my iPhone", "Get Outlook for
 * Android". */
static bool is_client_signature(const char *line, size_t len)
{
	static const char *const marks[] = {
		"Sent from my ", "Sent from Mail for ", "Sent from Outlook",
		"Sent from Yahoo Mail", "Get Outlook for ",
		"Von meinem iPhone gesendet", "Envoy\xc3\xa9 de mon ",
	};

	command_trim(&line, &len);
	if (len > 60)
		return false;
	for (size_t i = 0; i < sizeof(marks) / sizeof(marks[0]); i++)
		if (command_starts_with_ci(line, len, marks[i]))
			return true;
	return false;
}

bool command_line_ends_text(const char *line, size_t len)
{
	/* Keep the raw line for the signature test: "-- " has a space. */
	if ((len == 3 && memcmp(line, "-- ", 3) == 0) ||
	    (len == 4 && memcmp(line, "-- \r", 4) == 0))
		return true;
	command_trim(&line, &len);
	if ((len == 2 && memcmp(line, "--", 2) == 0) ||
	    is_client_signature(line, len))
		return true;
	/* Outlook, and forwarded messages in several clients. */
	if (command_starts_with_ci(line, len, "-----Original Message-----") ||
	    command_starts_with_ci(line, len, "----- Original Message -----") ||
	    command_starts_with_ci(line, len,
				   "-------- Original Message --------") ||
	    command_starts_with_ci(line, len,
				   "-------- Forwarded Message --------") ||
	    command_starts_with_ci(line, len,
				   "---------- Forwarded message ---------") ||
	    command_starts_with_ci(line, len, "Begin forwarded message:"))
		return true;
	/* Outlook on the web: a rule of underscores before the quoted
	 * headers. */
	if (len >= 10) {
		size_t i = 0;
		while (i < len && line[i] == '_')
			i++;
		if (i == len)
			return true;
	}
	return false;
}

/* A reply attribution: "On <date>, <name> wrote:" (Thunderbird, Gmail,
 * Apple Mail, mutt's default), "<name> wrote:" (older Thunderbird), and
 * mutt's "* Name <x@y> [2026-01-03 10:00]:".  The line before may be the
 * first half of a Gmail attribution wrapped in two. */
static bool is_attribution(const char *line, size_t len, const char *next,
			   size_t next_len)
{
	command_trim(&line, &len);
	if (len == 0)
		return false;
	if (ends_with_ci(line, len, "wrote:") ||
	    ends_with_ci(line, len, "writes:"))
		return true;
	if (line[0] == '*' && len > 3 && line[len - 1] == ':' &&
	    line[len - 2] == ']' && memchr(line, '[', len) != NULL)
		return true;
	if (next != NULL && command_starts_with_ci(line, len, "On ")) {
		command_trim(&next, &next_len);
		if (ends_with_ci(next, next_len, "wrote:"))
			return true;
	}
	return false;
}

/* Outlook quotes the mail it answers without ">", below a block of its
 * headers: "From: ..." and then "Sent: ..." (or "Date:"; in German "Von:"
 * and "Gesendet:", in French "De :" and "Envoy\u00e9 :").  True if
 * line and next start such a block. */
static bool is_quoted_headers(const char *line, size_t len, const char *next,
			      size_t next_len)
{
	static const char *const pairs[][2] = {
		{ "From:", "Sent:" }, { "From:", "Date:" },
		{ "Von:", "Gesendet:" }, { "De :", "Envoy\xc3\xa9 :" },
		{ "De:", "Envoy\xc3\xa9:" }, { "De :", "Date :" },
	};

	if (next == NULL)
		return false;
	command_trim(&line, &len);
	command_trim(&next, &next_len);
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++)
		if (command_starts_with_ci(line, len, pairs[i][0]) &&
		    command_starts_with_ci(next, next_len, pairs[i][1]))
			return true;
	return false;
}

/* True if the line is quoted text ("> ..."). */
static bool is_quoted(const char *line, size_t len)
{
	command_trim(&line, &len);
	return len > 0 && line[0] == '>';
}

/* True if the line (len bytes) is "--" between blanks: a signature. */
static bool is_signature_rule(const char *line, size_t len)
{
	command_trim(&line, &len);
	return len == 2 && memcmp(line, "--", 2) == 0;
}

/* True if the line holds nothing but blanks. */
static bool is_blank_line(const char *line, size_t len)
{
	command_trim(&line, &len);
	return len == 0;
}

/* What a line of the body is to the command reader. */
enum text_line {
	TEXT_LINE_COMMAND, /* read it as a command */
	TEXT_LINE_SKIP,    /* not for us: go on with the next line */
	TEXT_LINE_END,     /* the text for us ends here */
};

/* Sorts the line (len bytes, no newline; next: the line after it as
 * raw bytes, or NULL), tracking key armour in *in_armor and noting
 * skipped quoted text in list. */
static enum text_line text_line_sort(const char *line, size_t len,
				     const char *next, size_t next_len,
				     bool *in_armor,
				     struct command_list *list)
{
	if (command_line_ends_text(line, len) ||
	    is_quoted_headers(line, len, next, next_len)) {
		/* A signature is normal; an original or forwarded message
		 * below is worth telling the player about. */
		if (!is_signature_rule(line, len) &&
		    !is_client_signature(line, len))
			list->skipped_quoted = true;
		return TEXT_LINE_END;
	}
	/* A pasted public key (for `register`) travels with the commands;
	 * its armour is data, never commands. */
	if (*in_armor || command_starts_with_ci(line, len, "-----BEGIN PGP ")) {
		*in_armor = !command_starts_with_ci(line, len, "-----END PGP ");
		return TEXT_LINE_SKIP;
	}
	if (is_quoted(line, len) || is_attribution(line, len, next, next_len)) {
		list->skipped_quoted = true;
		return TEXT_LINE_SKIP;
	}
	return is_blank_line(line, len) ? TEXT_LINE_SKIP : TEXT_LINE_COMMAND;
}

/* --- the whole mail ------------------------------------------------------ */

/* A new last entry of list (cap: its allocated size), uninitialised.
 * Aborts when out of memory. */
static struct command *list_add(struct command_list *list, size_t *cap)
{
	if (list->count == *cap) {
		size_t ncap = *cap == 0 ? 8 : *cap * 2;
		struct command *n = realloc(list->items, ncap * sizeof(*n));
		if (n == NULL) {
			fprintf(stderr, "out of memory\n");
			abort();
		}
		list->items = n;
		*cap = ncap;
	}
	return &list->items[list->count++];
}

/* True if the Subject, cleaned of its Re:/[ashes #N] tags, reads as a
 * command; it is then parsed into *cmd_r. */
static bool subject_is_command(const char *subject, int64_t thread_game,
			       struct command *cmd_r)
{
	char clean[COMMAND_TEXT_MAX];

	if (subject == NULL)
		return false;
	command_subject_clean(subject, clean, sizeof(clean));
	return clean[0] != '\0' &&
	       command_parse_line(clean, strlen(clean), thread_game,
				  cmd_r) == 0;
}

/* Bytes of s (len bytes) before its first newline, or len. */
static size_t line_length(const char *s, size_t len)
{
	const char *nl = memchr(s, '\n', len);

	return nl != NULL ? (size_t)(nl - s) : len;
}

/* Are a and b the same command text, but for case and a sentence's mark
 * at the end (Subject "Help!", body "help")? */
static bool same_text(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);

	while (la > 0 && strchr(".!?", a[la - 1]) != NULL)
		la--;
	while (lb > 0 && strchr(".!?", b[lb - 1]) != NULL)
		lb--;
	return la == lb && strncasecmp(a, b, la) == 0;
}

/* Parses a command line (line number lineno) onto the end of list, or a
 * COMMAND_ERR_TOO_MANY entry once it holds COMMAND_MAX.  Clears
 * *have_subject when the line is the Subject's command. */
static void list_add_line(struct command_list *list, size_t *cap,
			  const char *line, size_t len, int lineno,
			  int64_t thread_game,
			  const struct command *subject_cmd, bool *have_subject)
{
	struct command cmd;

	command_parse_line(line, len, thread_game, &cmd);
	cmd.line = lineno;
	if (*have_subject && same_text(cmd.text, subject_cmd->text))
		*have_subject = false;
	if (list->count >= COMMAND_MAX) {
		cmd.kind = COMMAND_INVALID;
		cmd.error = COMMAND_ERR_TOO_MANY;
		cmd.detail[0] = '\0';
	}
	*list_add(list, cap) = cmd;
}

/* Reading a body line by line. */
struct text_cursor {
	const char *body;
	size_t len, pos;
	int lineno;
	bool in_armor;
};

/* The next line of the body (without its newline and CR) and the raw
 * line after it (NULL at the end).  False at the end of the body. */
static bool cursor_next(struct text_cursor *c, const char **line_r,
			size_t *len_r, const char **next_r, size_t *next_len_r)
{
	const char *line = c->body + c->pos;
	size_t llen;

	if (c->pos >= c->len)
		return false;
	llen = line_length(line, c->len - c->pos);
	c->pos += llen + (c->pos + llen < c->len ? 1 : 0);
	c->lineno++;
	if (llen > 0 && line[llen - 1] == '\r')
		llen--;
	*line_r = line;
	*len_r = llen;
	*next_r = NULL;
	*next_len_r = 0;
	if (c->pos < c->len) {
		*next_r = c->body + c->pos;
		*next_len_r = line_length(*next_r, c->len - c->pos);
	}
	return true;
}

/* What command_line_below() looks for. */
enum line_below {
	BELOW_COMMAND,	/* a line that reads as a valid command */
	BELOW_SLIP,	/* a line starting with a slip of a keyword ("resgn") */
};

/* Does a command line below the cursor (in the text for us) hold what
 * want names?  Then a closing ("Thanks,") or a sign-off above it is no
 * end of the text: the command runs, or the slip gets its answer.  For
 * BELOW_COMMAND, when there is none, list notes the quoted text skipped
 * below. */
static bool command_line_below(struct text_cursor c, enum line_below want,
			       int64_t thread_game, struct command_list *list)
{
	struct command_list scratch;
	const char *line, *next;
	size_t llen, next_len, wl;
	struct command cmd;

	memset(&scratch, 0, sizeof(scratch));
	while (cursor_next(&c, &line, &llen, &next, &next_len)) {
		enum text_line sort = text_line_sort(line, llen, next,
						     next_len, &c.in_armor,
						     &scratch);
		if (sort == TEXT_LINE_END)
			break;
		if (sort != TEXT_LINE_COMMAND)
			continue;
		if (want == BELOW_COMMAND) {
			if (command_parse_line(line, llen, thread_game,
					       &cmd) == 0)
				return true;
			continue;
		}
		command_trim(&line, &llen);
		for (wl = 0; wl < llen && line[wl] != ' ' && line[wl] != '\t';
		     wl++)
			;
		if (command_near_keyword(line, wl, false) != NULL)
			return true;
	}
	if (want == BELOW_COMMAND)
		list->skipped_quoted = list->skipped_quoted ||
				       scratch.skipped_quoted;
	return false;
}

/* Is the line a sign-off: a closing ("Thanks,"), a mail program's
 * footer ("Sent with Proton Mail secure email."), or below a command a
 * bare name ("Tina")?  It ends the text only where no command follows. */
static bool is_signoff(const char *line, size_t len,
		       const struct command_list *list)
{
	return command_line_is_closing(line, len) ||
	       command_line_is_client_footer(line, len) ||
	       (list->count > 0 && command_line_is_name(line, len));
}

void command_parse_mail(const char *subject, const char *body, size_t len,
			int64_t thread_game, struct command_list *list_r)
{
	struct command_list *list = list_r;
	struct command subject_cmd;
	struct text_cursor cur = { body, len, 0, 0, false };
	const char *line, *next;
	size_t llen, next_len, cap = 0;
	bool have_subject;

	memset(list, 0, sizeof(*list));

	/* The Subject is not signed: it never runs.  If it reads as a
	 * command the body does not repeat, the reply says it was ignored. */
	have_subject = subject_is_command(subject, thread_game, &subject_cmd);

	while (cursor_next(&cur, &line, &llen, &next, &next_len)) {
		enum text_line sort;

		sort = text_line_sort(line, llen, next, next_len,
				      &cur.in_armor, list);
		if (sort == TEXT_LINE_END)
			break;
		if (sort == TEXT_LINE_SKIP)
			continue;
		if (list->count > 0 &&
		    list->items[list->count - 1].kind == COMMAND_INVALID) {
			/* A line after the refused one: never run. */
			list->stopped_early = true;
			break;
		}
		if (is_signoff(line, llen, list) &&
		    !command_line_below(cur, BELOW_COMMAND, thread_game,
					list)) {
			/* "Thanks,\nAlice" with no command after it: a
			 * signature without its "-- " line, and as usual
			 * as one, so the reply need not mention it.  But a
			 * slip below is answered. */
			if (command_line_below(cur, BELOW_SLIP, thread_game,
					       list))
				continue;
			break;
		}
		if (list->count == 0 && command_line_is_prose(line, llen)) {
			/* "Hi there," before the first command: a letter's
			 * opening, not a command gone wrong. */
			list->skipped_prose = true;
			continue;
		}
		list_add_line(list, &cap, line, llen, cur.lineno, thread_game,
			      &subject_cmd, &have_subject);
	}
	list->subject_ignored = have_subject;
}

void command_list_free(struct command_list *list)
{
	free(list->items);
	list->items = NULL;
	list->count = 0;
}
