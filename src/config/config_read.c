/* config_read.c -- reading ashesd.conf: the INI syntax (sections, keys,
 * quoted values, comments), every problem collected as "FILE:LINE:
 * message", and the load as a whole (defaults, lines, checks); see
 * club_config.h.  Named sections ([ladder NAME]) are config_clubs.c's.
 */
#include <config.h> /* autoconf's: _GNU_SOURCE */

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/config_private.h"
#include "util/xstr.h"

/* ---------------------------------------------------------------- parsing */

static bool config_section_known(const char *name)
{
	for (size_t i = 0; i < config_nkeys; i++)
		if (strcmp(config_keys[i].section, name) == 0)
			return true;
	return false;
}

static char *config_trim(char *s)
{
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		*--end = '\0';
	return s;
}

/* A quoted value "..." in place; returns 0 or -1 with error. */
static int config_unquote(char *s, const char **error_r)
{
	char *r = s + 1, *w = s;

	for (;;) {
		if (*r == '\0') {
			*error_r = "unterminated quoted value";
			return -1;
		}
		if (*r == '"')
			break;
		if (*r == '\\') {
			r++;
			if (*r != '"' && *r != '\\') {
				*error_r = "only \\\" and \\\\ are escapes in a quoted value";
				return -1;
			}
		}
		*w++ = *r++;
	}
	if (*config_trim(r + 1) != '\0') {
		*error_r = "text after the closing quote";
		return -1;
	}
	*w = '\0';
	return 0;
}

/* A "[...]" line: the section it starts, into *cur. */
static void config_parse_header(struct config_parse *ps, char *line,
				unsigned lineno, struct config_cursor *cur)
{
	char *end = strchr(line, ']');
	size_t kind_len;

	cur->kind = -1;
	if (end == NULL || *config_trim(end + 1) != '\0') {
		config_error(ps->errors, ps->file, lineno,
			     "bad section header (expected [name])");
		cur->ok = false;
		cur->section[0] = '\0';
		return;
	}
	*end = '\0';
	line = config_trim(line + 1);
	snprintf(cur->section, sizeof(cur->section), "%s", line);
	/* "[ladder NAME]": a kind and a name */
	kind_len = strcspn(line, " \t");
	if (line[kind_len] != '\0') {
		line[kind_len] = '\0';
		if (config_club_begin(ps, line, config_trim(line + kind_len + 1),
				      lineno, cur))
			return;
		line[kind_len] = ' ';
	} else if (config_club_begin(ps, line, "", lineno, cur)) {
		return;
	}
	cur->ok = config_section_known(line);
	if (!cur->ok)
		config_error(ps->errors, ps->file, lineno,
			     "unknown section [%s]", cur->section);
}

static void config_parse_line(struct config_parse *ps, char *line,
			      unsigned lineno, struct config_cursor *cur)
{
	const struct config_key *k;
	struct config_key named;
	struct buf msg = BUF_INIT;
	const char *error;
	char *eq, *key, *value;
	unsigned *key_line;
	bool plain_refused, *refused = &plain_refused;
	void *field;

	line = config_trim(line);
	if (*line == '\0' || *line == '#' || *line == ';')
		return;
	if (*line == '[') {
		config_parse_header(ps, line, lineno, cur);
		return;
	}
	eq = strchr(line, '=');
	if (eq == NULL) {
		config_error(ps->errors, ps->file, lineno,
			     "expected \"key = value\" or \"[section]\"");
		return;
	}
	*eq = '\0';
	key = config_trim(line);
	value = config_trim(eq + 1);
	if (cur->section[0] == '\0' && cur->ok) {
		config_error(ps->errors, ps->file, lineno,
			     "key \"%s\" before any [section]", key);
		return;
	}
	if (!cur->ok)
		return; /* reported once at the section header */
	if (cur->kind >= 0) {
		k = config_club_key(ps, cur, key, &field, &key_line,
				    &refused);
	} else {
		ptrdiff_t ki = config_key_find(cur->section, key);

		k = ki < 0 ? NULL : &config_keys[ki];
		if (k != NULL) {
			field = (char *)ps->cfg + k->offset;
			key_line = &ps->lines[ki];
		}
	}
	if (k == NULL) {
		config_error(ps->errors, ps->file, lineno,
			     "unknown key \"%s\" in [%s]", key, cur->section);
		return;
	}
	if (*key_line != 0) {
		config_error(ps->errors, ps->file, lineno,
			     "[%s] %s is set twice (first on line %u)",
			     cur->section, key, *key_line);
		return;
	}
	*key_line = lineno;
	if (*value == '"' && config_unquote(value, &error) < 0) {
		config_error(ps->errors, ps->file, lineno, "[%s] %s: %s",
			     cur->section, key, error);
		*refused = true;
		return;
	}
	/* messages name the section as written: "[ladder main] open: ..." */
	named = *k;
	named.section = cur->section;
	if (config_set_field(&named, field, value, &msg) < 0) {
		config_error(ps->errors, ps->file, lineno, "%s", buf_str(&msg));
		*refused = true;
	}
	buf_free(&msg);
}

static void config_parse_text(struct config_parse *ps, const char *text)
{
	/* "no section yet" is not an unknown one */
	struct config_cursor cur = { .section = "", .ok = true, .kind = -1 };
	unsigned lineno = 0;
	const char *p = text;

	/* A UTF-8 byte order mark, as some editors write it, is not text. */
	if (strncmp(p, "\xef\xbb\xbf", 3) == 0)
		p += 3;
	while (*p != '\0') {
		size_t len = strcspn(p, "\n");
		char *line = strndup(p, len);

		if (line == NULL)
			abort();
		lineno++;
		config_parse_line(ps, line, lineno, &cur);
		free(line);
		p += len;
		if (*p == '\n')
			p++;
	}
}

/* ---------------------------------------------------------------- API */

static void config_defaults(struct config_parse *ps)
{
	for (size_t i = 0; i < config_nkeys; i++) {
		struct buf msg = BUF_INIT;

		if (config_set_default(ps->cfg, &config_keys[i], &msg) < 0)
			config_error(ps->errors, "(built-in default)", 0, "%s",
				     buf_str(&msg));
		buf_free(&msg);
	}
}

void config_defaults_only(struct config *cfg)
{
	struct config_errors errors = { NULL, 0 };
	struct config_parse ps = { .file = "(defaults)", .cfg = cfg,
				   .errors = &errors };

	memset(cfg, 0, sizeof(*cfg));
	config_defaults(&ps);
	config_errors_free(&errors);
}

int config_load_string(const char *name, const char *text,
		       const struct config_overrides *ov,
		       struct config *cfg, struct config_errors *errors)
{
	struct config_parse ps = { .file = name, .cfg = cfg, .errors = errors };
	size_t before = errors->count;

	memset(cfg, 0, sizeof(*cfg));
	config_defaults(&ps);
	config_parse_text(&ps, text);
	config_check(&ps, ov);
	config_club_lines_free(&ps);
	if (errors->count > before) {
		config_free(cfg);
		return -1;
	}
	cfg->path = xstrdup(name);
	config_log_secrets(cfg);
	return 0;
}

void config_log_secrets(const struct config *cfg)
{
	log_add_secret(cfg->imap.server.password);
	log_add_secret(cfg->smtp.server.password);
}

int config_load(const char *path, const struct config_overrides *ov,
		struct config *cfg, struct config_errors *errors)
{
	struct buf text = BUF_INIT;
	char chunk[8192];
	ssize_t n;
	int fd, ret;

	memset(cfg, 0, sizeof(*cfg));
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		config_error(errors, path, 0, "cannot open: %s", strerror(errno));
		return -1;
	}
	while ((n = read(fd, chunk, sizeof(chunk))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			config_error(errors, path, 0, "cannot read: %s", strerror(errno));
			close(fd);
			buf_free(&text);
			return -1;
		}
		buf_append(&text, chunk, (size_t)n);
	}
	close(fd);
	if (text.len != strlen(buf_str(&text))) {
		/* a NUL byte: report its line rather than silently truncating */
		unsigned line = 1;

		for (const char *p = buf_str(&text); *p != '\0'; p++)
			line += *p == '\n';
		config_error(errors, path, line, "NUL byte in the file");
		buf_free(&text);
		return -1;
	}
	ret = config_load_string(path, buf_str(&text), ov, cfg, errors);
	if (text.data != NULL)
		explicit_bzero(text.data, text.len); /* inline passwords */
	buf_free(&text);
	return ret;
}
