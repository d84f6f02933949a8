/* config_read.c -- reading ashesd.conf: the INI syntax (sections, keys,
 * quoted values, comments), every problem collected as "FILE:LINE:
 * message", and the load as a whole (defaults, lines, checks); see
 * club_config.h.
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

/* ---------------------------------------------------------------- errors */


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

static void config_parse_line(struct config_parse *ps, char *line, unsigned lineno,
			      char *section, size_t section_size, bool *section_ok)
{
	const char *error;
	char *eq, *key, *value;
	ptrdiff_t ki;

	line = config_trim(line);
	if (*line == '\0' || *line == '#' || *line == ';')
		return;
	if (*line == '[') {
		char *end = strchr(line, ']');

		if (end == NULL || *config_trim(end + 1) != '\0') {
			config_error(ps->errors, ps->file, lineno,
				     "bad section header (expected [name])");
			*section_ok = false;
			section[0] = '\0';
			return;
		}
		*end = '\0';
		line = config_trim(line + 1);
		snprintf(section, section_size, "%s", line);
		*section_ok = config_section_known(section);
		if (!*section_ok)
			config_error(ps->errors, ps->file, lineno,
				     "unknown section [%s]", section);
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
	if (section[0] == '\0' && *section_ok) {
		config_error(ps->errors, ps->file, lineno,
			     "key \"%s\" before any [section]", key);
		return;
	}
	if (!*section_ok)
		return; /* reported once at the section header */
	ki = config_key_find(section, key);
	if (ki < 0) {
		config_error(ps->errors, ps->file, lineno,
			     "unknown key \"%s\" in [%s]", key, section);
		return;
	}
	if (ps->lines[ki] != 0) {
		config_error(ps->errors, ps->file, lineno,
			     "[%s] %s is set twice (first on line %u)",
			     section, key, ps->lines[ki]);
		return;
	}
	ps->lines[ki] = lineno;
	if (*value == '"' && config_unquote(value, &error) < 0) {
		config_error(ps->errors, ps->file, lineno, "[%s] %s: %s",
			     section, key, error);
		return;
	}
	{
		struct buf msg = BUF_INIT;

		if (config_set(ps->cfg, &config_keys[ki], value, &msg) < 0)
			config_error(ps->errors, ps->file, lineno, "%s", buf_str(&msg));
		buf_free(&msg);
	}
}

static void config_parse_text(struct config_parse *ps, const char *text)
{
	char section[64] = "";
	bool section_ok = true; /* "no section yet" is not an unknown one */
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
		config_parse_line(ps, line, lineno, section, sizeof(section),
				  &section_ok);
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
	if (errors->count > before) {
		config_free(cfg);
		return -1;
	}
	cfg->path = xstrdup(name);
	log_add_secret(cfg->imap.server.password);
	log_add_secret(cfg->smtp.server.password);
	return 0;
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
