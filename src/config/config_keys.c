/* config_keys.c -- storing a value of ashesd.conf by its key (the table
 * of keys is config_table.c's), printing the whole back (--check-config)
 * and freeing it; see club_config.h.  The keys of the named sections
 * ([ladder NAME]) are config_clubs.c's.
 *
 * Defaults are applied by parsing their text through the same code as the
 * file, so a default can never be a value the file would refuse, and
 * --check-config prints them in the file's syntax.  The [game] keys of the
 * default variant are the rules core's options: their values, ranges and
 * defaults come from its table (core/variant.h), read and printed as a
 * bool, a number or a name like any other key.
 */
#include <config.h> /* autoconf's: _GNU_SOURCE */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <syslog.h>

#include "config/config_private.h"
#include "core/variant.h"
#include "util/xstr.h"

ptrdiff_t config_key_find(const char *section, const char *key)
{
	for (size_t i = 0; i < config_nkeys; i++)
		if (strcmp(config_keys[i].section, section) == 0 &&
		    strcmp(config_keys[i].key, key) == 0)
			return (ptrdiff_t)i;
	return -1;
}

/* ---------------------------------------------------------------- storing */

void config_wipe_free(char **p)
{
	if (*p != NULL) {
		explicit_bzero(*p, strlen(*p));
		free(*p);
		*p = NULL;
	}
}

void config_set_string(char **field, const char *value)
{
	config_wipe_free(field);
	if (*value != '\0')
		*field = xstrdup(value);
}

/* Split "scheme://host[:port][/]" for the key's scheme list.  Userinfo in
 * the URL is refused: credentials belong in user/password(_file), where
 * they are masked, not in a URL that ends up in logs. */
static int config_set_url(const struct config_key *k, struct config_server *srv,
			  const char *value, const char **error_r)
{
	const struct config_name *scheme = NULL;
	const char *p, *host, *host_end;
	uint64_t port;

	for (const struct config_name *n = k->names; n->name != NULL; n++) {
		size_t len = strlen(n->name);

		if (strncasecmp(value, n->name, len) == 0 &&
		    strncmp(value + len, "://", 3) == 0) {
			scheme = n;
			break;
		}
	}
	if (scheme == NULL) {
		*error_r = strcmp(k->names[0].name, "imap") == 0
			? "expected imap://HOST[:PORT] or imaps://HOST[:PORT]"
			: "expected smtp://HOST[:PORT] or smtps://HOST[:PORT]";
		return -1;
	}
	host = value + strlen(scheme->name) + 3;
	if (strchr(host, '@') != NULL) {
		*error_r = "no user or password in the URL: use the user and password keys";
		return -1;
	}
	if (*host == '[') { /* [IPv6]:port */
		host_end = strchr(host, ']');
		if (host_end == NULL) {
			*error_r = "unterminated [IPv6 address]";
			return -1;
		}
		p = host_end + 1;
		host++;
	} else {
		host_end = host + strcspn(host, ":/");
		p = host_end;
	}
	if (host_end == host) {
		*error_r = "no host in the URL";
		return -1;
	}
	port = (uint64_t)scheme->value;
	if (*p == ':') {
		p++;
		if (config_parse_number(&p, 65535, &port) < 0 || port == 0) {
			*error_r = "bad port (1..65535)";
			return -1;
		}
	}
	if (*p == '/')
		p++;
	if (*p != '\0') {
		*error_r = "unexpected path after the host (the mailbox is a key of its own)";
		return -1;
	}
	config_set_string(&srv->url, value);
	free(srv->host);
	srv->host = strndup(host, (size_t)(host_end - host));
	if (srv->host == NULL)
		abort();
	srv->port = (unsigned)port;
	srv->implicit_tls = scheme->tls;
	return 0;
}

static bool config_address_ok(const char *s)
{
	const char *at = strchr(s, '@');

	if (at == NULL || at == s || at[1] == '\0' || strchr(at + 1, '@') != NULL)
		return false;
	for (const char *p = s; *p != '\0'; p++)
		if ((unsigned char)*p <= ' ' || strchr("<>()[],;:\"\\", *p) != NULL)
			return false;
	return true;
}

/* Room for the names of a choice among the core's options. */
#define CONFIG_VARIANT_NAMES 8

/* The core option a KT_VARIANT key names. */
static const struct core_variant_option *
config_variant_option(const struct config_key *k)
{
	const struct core_variant_option *opt =
		core_variant_option_find(k->def, strlen(k->def));

	if (opt == NULL)
		abort(); /* a row of config_keys names no option: a bug */
	return opt;
}

/* The core option of a KT_VARIANT key, and the key it reads as: a
 * KT_BOOL, KT_INT or KT_ENUM (names[], CONFIG_VARIANT_NAMES + 1 long,
 * filled from the option's) with the option's range, so its values and
 * messages are those of any other key of that type. */
static const struct core_variant_option *
config_variant_as(const struct config_key *k, struct config_key *as_r,
		  struct config_name *names)
{
	const struct core_variant_option *opt = config_variant_option(k);
	size_t n = 0;

	*as_r = *k;
	as_r->def = NULL;
	switch (opt->type) {
	case CORE_VARIANT_FLAG:
		as_r->type = KT_BOOL;
		break;
	case CORE_VARIANT_NUMBER:
		as_r->type = KT_INT;
		as_r->min = (uint64_t)opt->min;
		as_r->max = (uint64_t)opt->max;
		break;
	case CORE_VARIANT_CHOICE:
		as_r->type = KT_ENUM;
		for (; opt->names[n] != NULL; n++) {
			if (n == CONFIG_VARIANT_NAMES)
				abort(); /* raise CONFIG_VARIANT_NAMES */
			names[n] = (struct config_name){ opt->names[n], (int)n, false };
		}
		names[n] = (struct config_name){ NULL, 0, false };
		as_r->names = names;
		break;
	}
	return opt;
}

/* A KT_VARIANT key: read as the type it reads as, stored by the core. */
static int config_set_variant(const struct config_key *k,
			      struct core_variant *v, const char *value,
			      struct buf *msg)
{
	struct config_name names[CONFIG_VARIANT_NAMES + 1];
	struct config_key as;
	const struct core_variant_option *opt = config_variant_as(k, &as, names);
	enum core_error err;
	bool b = false;
	int n = 0;

	if (config_set_field(&as, as.type == KT_BOOL ? (void *)&b : (void *)&n,
			     value, msg) < 0)
		return -1;
	if (as.type == KT_BOOL)
		n = b;
	if (core_variant_set(v, opt, n, &err) < 0) {
		/* not reached: the ranges are the core's */
		buf_printf(msg, "[%s] %s: %s", k->section, k->key,
			   core_error_name(err));
		return -1;
	}
	return 0;
}

/* A bound of a KT_DURATION(_OR_NEVER), KT_SIZE or KT_DECIMAL key, as
 * the file writes it. */
static void config_format_bound(enum config_key_type type, uint64_t n,
				struct buf *out)
{
	if (type == KT_SIZE)
		config_format_size(n, out);
	else if (type == KT_DECIMAL)
		config_format_decimal(n, out);
	else
		config_format_duration(n, out);
}

int config_set_default(struct config *cfg, const struct config_key *k,
		       struct buf *msg)
{
	void *field = (char *)cfg + k->offset;

	if (k->type == KT_VARIANT) {
		const struct core_variant_option *opt = config_variant_option(k);
		enum core_error err;

		if (core_variant_set(field, opt, opt->def, &err) < 0) {
			buf_printf(msg, "[%s] %s: %s", k->section, k->key,
				   core_error_name(err));
			return -1;
		}
		return 0;
	}
	if (k->def == NULL)
		return 0;
	return config_set(cfg, k, k->def, msg);
}

int config_set(struct config *cfg, const struct config_key *k,
	       const char *value, struct buf *msg)
{
	return config_set_field(k, (char *)cfg + k->offset, value, msg);
}

int config_set_field(const struct config_key *k, void *field,
		     const char *value, struct buf *msg)
{
	const char *error = NULL;
	uint64_t n;
	bool b;

	switch (k->type) {
	case KT_STRING:
	case KT_SECRET:
		config_set_string(field, value);
		return 0;
	case KT_PATH:
		if (*value != '\0' && *value != '/') {
			buf_printf(msg, "[%s] %s: \"%s\" is not an absolute path",
				   k->section, k->key, value);
			return -1;
		}
		config_set_string(field, value);
		return 0;
	case KT_ADDRESS:
		if (*value != '\0' && !config_address_ok(value)) {
			buf_printf(msg, "[%s] %s: \"%s\" is not a plain mail address (local@domain)",
				   k->section, k->key, value);
			return -1;
		}
		config_set_string(field, value);
		return 0;
	case KT_URL:
		if (*value == '\0') {
			struct config_server *srv = field;

			config_set_string(&srv->url, "");
			free(srv->host);
			srv->host = NULL;
			srv->port = 0;
			return 0;
		}
		if (config_set_url(k, field, value, &error) < 0)
			break;
		return 0;
	case KT_BOOL:
		if (config_parse_bool(value, &b, &error) < 0)
			break;
		*(bool *)field = b;
		return 0;
	case KT_UINT:
	case KT_INT: {
		const char *p = value;

		if (config_parse_number(&p, UINT64_MAX, &n) < 0 || *p != '\0') {
			error = "expected a whole number";
			break;
		}
		if (n < k->min || n > k->max) {
			buf_printf(msg, "[%s] %s: %s is out of range (%" PRIu64 "..%" PRIu64 ")",
				   k->section, k->key, value, k->min, k->max);
			return -1;
		}
		if (k->type == KT_UINT)
			*(unsigned *)field = (unsigned)n;
		else
			*(int *)field = (int)n;
		return 0;
	}
	case KT_DURATION:
	case KT_DURATION_OR_NEVER:
	case KT_SIZE:
	case KT_DECIMAL: {
		bool never_ok = k->type == KT_DURATION_OR_NEVER;
		int r = never_ok && strcmp(value, "never") == 0 ? (n = 0, 0)
			: k->type == KT_SIZE ? config_parse_size(value, &n, &error)
			: k->type == KT_DECIMAL
			? config_parse_decimal(value, &n, &error)
			: config_parse_duration(value, &n, &error);

		if (r < 0)
			break;
		if ((n < k->min || n > k->max) && !(never_ok && n == 0)) {
			struct buf lo = BUF_INIT, hi = BUF_INIT;

			config_format_bound(k->type, k->min, &lo);
			config_format_bound(k->type, k->max, &hi);
			buf_printf(msg, "[%s] %s: %s is out of range (%s%s..%s)",
				   k->section, k->key, value,
				   never_ok ? "0 or " : "", buf_str(&lo),
				   buf_str(&hi));
			buf_free(&lo);
			buf_free(&hi);
			return -1;
		}
		if (k->type == KT_DECIMAL)
			*(double *)field = (double)n / 1e6;
		else
			*(uint64_t *)field = n;
		return 0;
	}
	case KT_ENUM:
		for (const struct config_name *e = k->names; e->name != NULL; e++) {
			if (strcmp(value, e->name) == 0) {
				*(int *)field = e->value;
				return 0;
			}
		}
		buf_printf(msg, "[%s] %s: \"%s\" is not one of:", k->section, k->key, value);
		for (const struct config_name *e = k->names; e->name != NULL; e++)
			buf_printf(msg, " %s", e->name);
		return -1;
	case KT_VARIANT:
		return config_set_variant(k, field, value, msg);
	case KT_DATE:
		if (config_parse_date(value, field, &error) < 0)
			break;
		return 0;
	case KT_PLACES:
	case KT_MEMBERS: {
		/* A list may be long: the message names the item at fault. */
		struct buf why = BUF_INIT;
		int r = k->type == KT_PLACES
			? config_parse_places(value, k->min, k->max, field, &why)
			: config_parse_members(value, field, &why);

		if (r < 0)
			buf_printf(msg, "[%s] %s: %s", k->section, k->key,
				   buf_str(&why));
		buf_free(&why);
		return r;
	}
	case KT_CLOCK:
	case KT_HOURS: {
		struct buf why = BUF_INIT;
		struct config_hours h;
		char *spec = NULL;
		int r = k->type == KT_CLOCK
			? config_parse_clock(value, &spec, &why)
			: config_parse_hours(value, k->min, k->max, &h, &why);

		if (r == 0 && k->type == KT_CLOCK) {
			free(*(char **)field);
			*(char **)field = spec;
		} else if (r == 0) {
			*(struct config_hours *)field = h;
		} else {
			buf_printf(msg, "[%s] %s: bad value \"%s\": %s",
				   k->section, k->key, value, buf_str(&why));
		}
		buf_free(&why);
		return r;
	}
	}
	buf_printf(msg, "[%s] %s: bad value \"%s\": %s", k->section, k->key,
		   value, error);
	return -1;
}

static void config_server_free(struct config_server *srv)
{
	free(srv->url);
	free(srv->host);
	free(srv->user);
	config_wipe_free(&srv->password);
	free(srv->password_file);
	free(srv->ca_file);
}

void config_free(struct config *cfg)
{
	free(cfg->path);
	config_server_free(&cfg->imap.server);
	free(cfg->imap.mailbox);
	free(cfg->imap.archive_folder);
	free(cfg->imap.quarantine_folder);
	free(cfg->imap.sent_folder);
	config_server_free(&cfg->smtp.server);
	free(cfg->smtp.from);
	free(cfg->smtp.from_name);
	free(cfg->smtp.domain);
	free(cfg->smtp.helo_name);
	free(cfg->gpg.home);
	free(cfg->gpg.signing_key);
	free(cfg->database.path);
	free(cfg->game.clock);
	free(cfg->templates.dir);
	free(cfg->templates.language);
	free(cfg->source.maildir);
	free(cfg->bot.name);
	free(cfg->bot.levels_text);
	free(cfg->bot.clock);
	config_clubs_free(cfg);
	memset(cfg, 0, sizeof(*cfg));
}

/* ---------------------------------------------------------------- printing */

/* Quoted when blanks at either end, a leading quote, or an empty value
 * would otherwise be lost. */
void config_dump_string(struct buf *out, const char *s)
{
	size_t len = strlen(s);

	if (len > 0 && s[0] != '"' && s[0] != ' ' && s[0] != '\t' &&
	    s[len - 1] != ' ' && s[len - 1] != '\t') {
		buf_puts(out, s);
		return;
	}
	buf_putc(out, '"');
	for (const char *p = s; *p != '\0'; p++) {
		if (*p == '"' || *p == '\\')
			buf_putc(out, '\\');
		buf_putc(out, *p);
	}
	buf_putc(out, '"');
}

void config_dump_value(const struct config_key *k, const void *field,
		       struct buf *out)
{
	switch (k->type) {
	case KT_STRING:
	case KT_PATH:
	case KT_ADDRESS:
	case KT_CLOCK: {
		const char *s = *(char *const *)field;

		if (s != NULL)
			config_dump_string(out, s);
		break;
	}
	case KT_SECRET:
		if (*(char *const *)field != NULL)
			buf_puts(out, "********");
		break;
	case KT_URL: {
		const struct config_server *srv = field;

		if (srv->url != NULL)
			buf_puts(out, srv->url);
		break;
	}
	case KT_BOOL:
		buf_puts(out, *(const bool *)field ? "yes" : "no");
		break;
	case KT_UINT:
		buf_printf(out, "%u", *(const unsigned *)field);
		break;
	case KT_INT:
		buf_printf(out, "%d", *(const int *)field);
		break;
	case KT_DURATION:
	case KT_DURATION_OR_NEVER:
		config_format_duration(*(const uint64_t *)field, out);
		break;
	case KT_MEMBERS: {
		const struct config_members *m = field;

		for (size_t i = 0; i < m->count; i++)
			buf_printf(out, "%s%s", i > 0 ? ", " : "", m->names[i]);
		break;
	}
	case KT_PLACES: {
		const struct config_places *p = field;

		buf_printf(out, "%u%s", p->n, p->percent ? "%" : "");
		break;
	}
	case KT_DATE:
		config_format_date(*(const int64_t *)field, out);
		break;
	case KT_DECIMAL:
		/* exact: the value was read as millionths */
		config_format_decimal((uint64_t)(*(const double *)field * 1e6 + 0.5),
				      out);
		break;
	case KT_HOURS:
		config_format_hours(field, out);
		break;
	case KT_SIZE:
		config_format_size(*(const uint64_t *)field, out);
		break;
	case KT_ENUM:
		for (const struct config_name *e = k->names; e->name != NULL; e++) {
			if (e->value == *(const int *)field) {
				buf_puts(out, e->name);
				break;
			}
		}
		break;
	case KT_VARIANT: {
		struct config_name names[CONFIG_VARIANT_NAMES + 1];
		struct config_key as;
		const struct core_variant_option *opt =
			config_variant_as(k, &as, names);
		int n = core_variant_get(field, opt);
		bool b = n != 0;

		config_dump_value(&as, as.type == KT_BOOL ? (const void *)&b
				  : (const void *)&n, out);
		break;
	}
	}
}

void config_dump_key(const struct config_key *k, const void *field,
		     struct buf *out)
{
	buf_printf(out, "%s = ", k->key);
	config_dump_value(k, field, out);
	/* "key =" for an unset value, without a trailing blank */
	if (out->len > 0 && out->data[out->len - 1] == ' ')
		out->data[--out->len] = '\0';
	buf_putc(out, '\n');
}

void config_dump(const struct config *cfg, struct buf *out)
{
	const char *section = "";

	for (size_t i = 0; i < config_nkeys; i++) {
		const struct config_key *k = &config_keys[i];
		const void *field = (const char *)cfg + k->offset;

		if (strcmp(section, k->section) != 0) {
			buf_printf(out, "%s[%s]\n", i > 0 ? "\n" : "", k->section);
			section = k->section;
		}
		if (k->type == KT_SECRET) {
			/* A password read from password_file is shown by that key. */
			const struct config_server *srv = (const void *)((const char *)field -
				offsetof(struct config_server, password));

			if (srv->password_file != NULL)
				continue;
		}
		config_dump_key(k, field, out);
	}
	config_clubs_dump(cfg, out);
}
