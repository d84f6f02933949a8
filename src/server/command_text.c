/* command_text.c -- the mail command language over a whole mail: which
 * lines of the body are commands (not quotes, attributions, signatures,
 * forwarded parts or key armour), read in order by command_parse_line()
 * (command.c) into a list. */
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

bool command_line_ends_text(const char *line, size_t len)
{
	/* Keep the raw line for the signature test: "-- " has a space. */
	if ((len == 3 && memcmp(line, "-- ", 3) == 0) ||
	    (len == 4 && memcmp(line, "-- \r", 4) == 0))
		return true;
	command_trim(&line, &len);
	if (len == 2 && memcmp(line, "--", 2) == 0)
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
	if (command_line_ends_text(line, len)) {
		/* A signature is normal; an original or forwarded message
		 * below is worth telling the player about. */
		if (!is_signature_rule(line, len))
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
	if (*have_subject && strcasecmp(cmd.text, subject_cmd->text) == 0)
		*have_subject = false;
	if (list->count >= COMMAND_MAX) {
		cmd.kind = COMMAND_INVALID;
		cmd.error = COMMAND_ERR_TOO_MANY;
		cmd.detail[0] = '\0';
	}
	*list_add(list, cap) = cmd;
}

void command_parse_mail(const char *subject, const char *body, size_t len,
			int64_t thread_game, struct command_list *list_r)
{
	struct command_list *list = list_r;
	struct command subject_cmd;
	bool have_subject, in_armor = false;
	size_t cap = 0, pos = 0;
	int lineno = 0;

	memset(list, 0, sizeof(*list));

	/* The Subject is not signed: it never runs.  If it reads as a
	 * command the body does not repeat, the reply says it was ignored. */
	have_subject = subject_is_command(subject, thread_game, &subject_cmd);

	while (pos < len) {
		const char *line = body + pos, *next = NULL;
		size_t llen = line_length(line, len - pos), next_len = 0;
		enum text_line sort;

		pos += llen + (pos + llen < len ? 1 : 0);
		lineno++;
		if (llen > 0 && line[llen - 1] == '\r')
			llen--;
		if (pos < len) {
			next = body + pos;
			next_len = line_length(next, len - pos);
		}

		sort = text_line_sort(line, llen, next, next_len, &in_armor,
				      list);
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
		list_add_line(list, &cap, line, llen, lineno, thread_game,
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
