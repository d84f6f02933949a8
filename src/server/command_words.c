/* command_words.c -- the small text helpers of the command language: a
 * line's blanks, words compared without case, and a command filled or
 * failed from them (command_private.h).  The grammar is command.c's and
 * command_args.c's. */
#include "server/command_private.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

bool command_is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

void command_trim(const char **s, size_t *len)
{
	while (*len > 0 && (command_is_blank(**s) || (unsigned char)**s == 0xa0)) {
		(*s)++;
		(*len)--;
	}
	while (*len > 0 && command_is_blank((*s)[*len - 1]))
		(*len)--;
}

bool command_starts_with_ci(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);
	return len >= n && strncasecmp(s, prefix, n) == 0;
}

void command_copy_cut(char *dst, size_t cap, const char *src, size_t len)
{
	if (len >= cap)
		len = cap - 1;
	memcpy(dst, src, len);
	dst[len] = '\0';
}

void command_copy_lower(char *dst, size_t cap, const char *src, size_t len)
{
	command_copy_cut(dst, cap, src, len);
	for (char *p = dst; *p; p++)
		*p = (char)tolower((unsigned char)*p);
}

bool command_word_is(const struct word *w, const char *lit)
{
	return w->len == strlen(lit) && strncasecmp(w->s, lit, w->len) == 0;
}

int command_fail(struct command *cmd, enum command_error err,
		const char *detail, size_t len)
{
	cmd->kind = COMMAND_INVALID;
	cmd->error = err;
	command_copy_cut(cmd->detail, sizeof(cmd->detail), detail, len);
	return -1;
}

int command_fail_str(struct command *cmd, enum command_error err,
		    const char *detail)
{
	return command_fail(cmd, err, detail, strlen(detail));
}

int command_take_code(struct command *cmd, const struct word *w)
{
	if (w->len < COMMAND_CODE_MIN || w->len > COMMAND_CODE_MAX)
		return command_fail(cmd, COMMAND_ERR_BAD_CODE, w->s, w->len);
	for (size_t i = 0; i < w->len; i++) {
		if (!isalnum((unsigned char)w->s[i]))
			return command_fail(cmd, COMMAND_ERR_BAD_CODE, w->s,
					    w->len);
		cmd->code[i] = (char)toupper((unsigned char)w->s[i]);
	}
	cmd->code[w->len] = '\0';
	return 0;
}

int command_no_more(struct command *cmd, const struct word *w, size_t nw,
		   size_t idx)
{
	if (nw > idx)
		return command_fail(cmd, COMMAND_ERR_EXTRA_ARG, w[idx].s, w[idx].len);
	return 0;
}

