/* config.c -- parse, check and print ashesd.conf; see config.h.
 *
 * One table (config_keys) says, for every key: where it is stored, its
 * type, range and default.  Defaults are applied by parsing their text
 * through the same code as the file, so a default can never be a value the
 * file would refuse, and --check-config prints them in the file's syntax.
 */
#include <config.h> /* autoconf's: _GNU_SOURCE */

#include "daemon/config.h"
#include "server/command.h"
#include "util/xstr.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>

enum config_key_type {
	KT_STRING,   /* char *, empty value = unset (NULL) */
	KT_PATH,     /* char *, must be absolute */
	KT_SECRET,   /* char *, never printed */
	KT_ADDRESS,  /* char *, local@domain */
	KT_URL,      /* struct config_server: url, host, port, implicit_tls */
	KT_BOOL,     /* bool */
	KT_UINT,     /* unsigned in [min, max] */
	KT_INT,      /* int in [min, max] */
	KT_DURATION, /* uint64_t milliseconds in [min, max] */
	KT_SIZE,     /* uint64_t bytes in [min, max] */
	KT_ENUM,     /* int, one of names[] */
};

struct config_name {
	const char *name;
	int value;      /* enum value; for KT_URL the default port */
	bool tls;       /* KT_URL: implicit TLS */
};

struct config_key {
	const char *section;
	const char *key;
	enum config_key_type type;
	size_t offset;
	const char *def;                  /* NULL: unset by default */
	const struct config_name *names;  /* KT_ENUM, KT_URL; {NULL} ends */
	uint64_t min, max;
};

static const struct config_name starttls_names[] = {
	{ "required", CONFIG_STARTTLS_REQUIRED, false },
	{ "optional", CONFIG_STARTTLS_OPTIONAL, false },
	{ "no", CONFIG_STARTTLS_NO, false },
	{ NULL, 0, false },
};
static const struct config_name imap_schemes[] = {
	{ "imap", 143, false },
	{ "imaps", 993, true },
	{ NULL, 0, false },
};
static const struct config_name smtp_schemes[] = {
	{ "smtp", 25, false },
	{ "smtps", 465, true },
	{ NULL, 0, false },
};
static const struct config_name imap_auth_names[] = {
	{ "login", CONFIG_IMAP_AUTH_LOGIN, false },
	{ "plain", CONFIG_IMAP_AUTH_PLAIN, false },
	{ NULL, 0, false },
};
static const struct config_name source_names[] = {
	{ "imap", CONFIG_SOURCE_IMAP, false },
	{ "maildir", CONFIG_SOURCE_MAILDIR, false },
	{ NULL, 0, false },
};
static const struct config_name tax_names[] = {
	{ "removed", CORE_TAX_REMOVED, false },
	{ "lost", CORE_TAX_LOST, false },
	{ NULL, 0, false },
};
static const struct config_name target_names[] = {
	{ "stderr", LOG_TARGET_STDERR, false },
	{ "syslog", LOG_TARGET_SYSLOG, false },
	{ "journal", LOG_TARGET_JOURNAL, false },
	{ NULL, 0, false },
};
static const struct config_name level_names[] = {
	{ "debug", LOG_LEVEL_DEBUG, false },
	{ "info", LOG_LEVEL_INFO, false },
	{ "notice", LOG_LEVEL_NOTICE, false },
	{ "warning", LOG_LEVEL_WARNING, false },
	{ "error", LOG_LEVEL_ERROR, false },
	{ NULL, 0, false },
};
static const struct config_name facility_names[] = {
	{ "daemon", LOG_DAEMON, false },
	{ "mail", LOG_MAIL, false },
	{ "user", LOG_USER, false },
	{ "local0", LOG_LOCAL0, false },
	{ "local1", LOG_LOCAL1, false },
	{ "local2", LOG_LOCAL2, false },
	{ "local3", LOG_LOCAL3, false },
	{ "local4", LOG_LOCAL4, false },
	{ "local5", LOG_LOCAL5, false },
	{ "local6", LOG_LOCAL6, false },
	{ "local7", LOG_LOCAL7, false },
	{ NULL, 0, false },
};

#define OFF(field) offsetof(struct config, field)
#define SEC 1000ull
#define MIN (60 * SEC)
#define HOUR (60 * MIN)
#define DAY (24 * HOUR)
#define DURATION_MAX (3650 * DAY)

#define SERVER_KEYS(sec, srv, schemes, default_timeout)                      \
	{ sec, "url", KT_URL, OFF(srv), NULL, schemes, 0, 0 },                \
	{ sec, "starttls", KT_ENUM, OFF(srv.starttls), "required",            \
	  starttls_names, 0, 0 },                                             \
	{ sec, "user", KT_STRING, OFF(srv.user), NULL, NULL, 0, 0 },          \
	{ sec, "password", KT_SECRET, OFF(srv.password), NULL, NULL, 0, 0 },  \
	{ sec, "password_file", KT_PATH, OFF(srv.password_file), NULL, NULL,  \
	  0, 0 },                                                             \
	{ sec, "ca_file", KT_PATH, OFF(srv.ca_file), NULL, NULL, 0, 0 },      \
	{ sec, "tls_verify", KT_BOOL, OFF(srv.tls_verify), "yes", NULL, 0, 0 }, \
	{ sec, "timeout", KT_DURATION, OFF(srv.timeout_ms), default_timeout,  \
	  NULL, SEC, HOUR }

static const struct config_key config_keys[] = {
	{ "source", "type", KT_ENUM, OFF(source.type), "imap", source_names, 0, 0 },
	{ "source", "maildir", KT_PATH, OFF(source.maildir), NULL, NULL, 0, 0 },

	SERVER_KEYS("imap", imap.server, imap_schemes, "30s"),
	{ "imap", "auth", KT_ENUM, OFF(imap.auth), "login", imap_auth_names, 0, 0 },
	{ "imap", "mailbox", KT_STRING, OFF(imap.mailbox), "INBOX", NULL, 0, 0 },
	{ "imap", "archive_folder", KT_STRING, OFF(imap.archive_folder), "Archive",
	  NULL, 0, 0 },
	{ "imap", "quarantine_folder", KT_STRING, OFF(imap.quarantine_folder),
	  "Quarantine", NULL, 0, 0 },
	{ "imap", "poll_interval", KT_DURATION, OFF(imap.poll_interval_ms), "60s",
	  NULL, SEC, DAY },
	{ "imap", "idle", KT_BOOL, OFF(imap.idle), "yes", NULL, 0, 0 },
	{ "imap", "reconnect_max", KT_DURATION, OFF(imap.reconnect_max_ms), "5m",
	  NULL, SEC, DAY },

	SERVER_KEYS("smtp", smtp.server, smtp_schemes, "60s"),
	{ "smtp", "from", KT_ADDRESS, OFF(smtp.from), NULL, NULL, 0, 0 },
	{ "smtp", "from_name", KT_STRING, OFF(smtp.from_name), NULL, NULL, 0, 0 },
	{ "smtp", "domain", KT_STRING, OFF(smtp.domain), NULL, NULL, 0, 0 },
	{ "smtp", "helo_name", KT_STRING, OFF(smtp.helo_name), NULL, NULL, 0, 0 },
	{ "smtp", "batch_size", KT_UINT, OFF(smtp.batch_size), "50", NULL, 1, 10000 },
	{ "smtp", "retry_initial", KT_DURATION, OFF(smtp.retry_initial_ms), "30s",
	  NULL, SEC, DAY },
	{ "smtp", "retry_max", KT_DURATION, OFF(smtp.retry_max_ms), "1h",
	  NULL, SEC, 7 * DAY },
	{ "smtp", "max_attempts", KT_UINT, OFF(smtp.max_attempts), "0", NULL,
	  0, 1000000 },
	{ "smtp", "give_up_after", KT_DURATION, OFF(smtp.give_up_after_ms), "5d",
	  NULL, 0, DURATION_MAX },

	{ "gpg", "home", KT_PATH, OFF(gpg.home),
	  ASHES_LOCALSTATEDIR "/lib/ashesd/gnupg", NULL, 0, 0 },
	{ "gpg", "sign_replies", KT_BOOL, OFF(gpg.sign_replies), "no", NULL, 0, 0 },
	{ "gpg", "signing_key", KT_STRING, OFF(gpg.signing_key), NULL, NULL, 0, 0 },
	{ "gpg", "require_signature", KT_BOOL, OFF(gpg.require_signature), "yes",
	  NULL, 0, 0 },
	{ "gpg", "max_signature_age", KT_DURATION, OFF(gpg.max_signature_age_ms),
	  "7d", NULL, MIN, DURATION_MAX },
	{ "gpg", "max_future_skew", KT_DURATION, OFF(gpg.max_future_skew_ms),
	  "10m", NULL, 0, DAY },

	{ "database", "path", KT_PATH, OFF(database.path),
	  ASHES_LOCALSTATEDIR "/lib/ashesd/ashesd.db", NULL, 0, 0 },
	{ "database", "busy_timeout", KT_DURATION, OFF(database.busy_timeout_ms),
	  "5s", NULL, 0, 10 * MIN },

	{ "game", "size", KT_INT, OFF(game.size), "5", NULL,
	  CORE_MIN_SIZE, CORE_MAX_SIZE },
	{ "game", "swap", KT_BOOL, OFF(game.swap), "no", NULL, 0, 0 },
	{ "game", "tax", KT_ENUM, OFF(game.tax_rule), "removed", tax_names, 0, 0 },
	{ "game", "draw_offers", KT_BOOL, OFF(game.draw_offers), "yes", NULL, 0, 0 },
	{ "game", "move_time", KT_DURATION, OFF(game.move_time_ms), "0", NULL,
	  0, 365 * DAY },
	{ "game", "max_listed_moves", KT_UINT, OFF(game.max_listed_moves), "0",
	  NULL, 0, 100000 },

	{ "templates", "dir", KT_PATH, OFF(templates.dir), NULL, NULL, 0, 0 },

	{ "log", "target", KT_ENUM, OFF(log.target), "stderr", target_names, 0, 0 },
	{ "log", "level", KT_ENUM, OFF(log.level), "info", level_names, 0, 0 },
	{ "log", "facility", KT_ENUM, OFF(log.facility), "daemon", facility_names,
	  0, 0 },

	{ "limits", "max_message_size", KT_SIZE, OFF(limits.max_message_size), "1M",
	  NULL, 4096, 1ull << 30 },
	{ "limits", "sender_rate_limit", KT_UINT, OFF(limits.sender_rate_limit),
	  "60", NULL, 0, 1000000 },
	/* The command parser reads at most COMMAND_MAX lines of one mail. */
	{ "limits", "max_commands", KT_UINT, OFF(limits.max_commands), "20", NULL,
	  1, COMMAND_MAX },
	{ "limits", "registrations_per_hour", KT_UINT,
	  OFF(limits.registrations_per_hour), "20", NULL, 0, 1000000 },
};

#define NKEYS (sizeof(config_keys) / sizeof(config_keys[0]))

/* ---------------------------------------------------------------- values */

int config_parse_bool(const char *s, bool *b_r, const char **error_r)
{
	static const char *const yes[] = { "yes", "true", "on", "1" };
	static const char *const no[] = { "no", "false", "off", "0" };

	for (size_t i = 0; i < 4; i++) {
		if (strcasecmp(s, yes[i]) == 0) {
			*b_r = true;
			return 0;
		}
		if (strcasecmp(s, no[i]) == 0) {
			*b_r = false;
			return 0;
		}
	}
	*error_r = "expected yes/no, true/false or on/off";
	return -1;
}

/* Digits only, no sign, no overflow past max. */
static int config_parse_number(const char **pp, uint64_t max, uint64_t *n_r)
{
	const char *p = *pp;
	uint64_t n = 0;

	if (!isdigit((unsigned char)*p))
		return -1;
	while (isdigit((unsigned char)*p)) {
		unsigned d = (unsigned)(*p - '0');

		if (n > (max - d) / 10)
			return -1;
		n = n * 10 + d;
		p++;
	}
	*pp = p;
	*n_r = n;
	return 0;
}

int config_parse_duration(const char *s, uint64_t *ms_r, const char **error_r)
{
	static const struct {
		const char *unit;
		uint64_t ms;
	} units[] = {
		/* "ms" before "m" so "500ms" is not read as minutes */
		{ "ms", 1 }, { "s", SEC }, { "m", MIN }, { "h", HOUR },
		{ "d", DAY }, { "w", 7 * DAY },
	};
	const char *p = s;
	uint64_t total = 0;

	if (*p == '\0') {
		*error_r = "empty duration";
		return -1;
	}
	if (strspn(s, "0123456789") == strlen(s)) {
		/* a bare number is seconds */
		if (config_parse_number(&p, DURATION_MAX / SEC, &total) < 0) {
			*error_r = "duration too long";
			return -1;
		}
		*ms_r = total * SEC;
		return 0;
	}
	while (*p != '\0') {
		uint64_t n, scale = 0;

		if (config_parse_number(&p, DURATION_MAX, &n) < 0) {
			*error_r = isdigit((unsigned char)*p) ? "duration too long"
				: "expected a number with a unit: 500ms, 30s, 10m, 2h, 7d, 1w";
			return -1;
		}
		for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
			size_t len = strlen(units[i].unit);

			if (strncmp(p, units[i].unit, len) == 0 &&
			    !isalpha((unsigned char)p[len])) {
				scale = units[i].ms;
				p += len;
				break;
			}
		}
		if (scale == 0) {
			*error_r = "unknown unit (use ms, s, m, h, d or w)";
			return -1;
		}
		if (n > DURATION_MAX / scale || total + n * scale > DURATION_MAX) {
			*error_r = "duration too long";
			return -1;
		}
		total += n * scale;
	}
	*ms_r = total;
	return 0;
}

int config_parse_size(const char *s, uint64_t *bytes_r, const char **error_r)
{
	const char *p = s;
	uint64_t n, scale = 1;
	const uint64_t max = 1ull << 50;

	if (config_parse_number(&p, max, &n) < 0) {
		*error_r = isdigit((unsigned char)*p) ? "size too large"
			: "expected a number with an optional K, M or G";
		return -1;
	}
	switch (toupper((unsigned char)*p)) {
	case '\0':
		break;
	case 'K':
		scale = 1024;
		break;
	case 'M':
		scale = 1024 * 1024;
		break;
	case 'G':
		scale = 1024 * 1024 * 1024;
		break;
	default:
		*error_r = "unknown unit (use K, M or G)";
		return -1;
	}
	if (*p != '\0') {
		p++;
		/* allow 1M, 1MB and 1MiB: all mean 1024*1024 here */
		if (strcasecmp(p, "B") != 0 && strcasecmp(p, "iB") != 0 && *p != '\0') {
			*error_r = "unknown unit (use K, M or G)";
			return -1;
		}
	}
	if (n > max / scale) {
		*error_r = "size too large";
		return -1;
	}
	*bytes_r = n * scale;
	return 0;
}

void config_format_duration(uint64_t ms, struct buf *out)
{
	static const struct {
		const char *unit;
		uint64_t ms;
	} units[] = {
		{ "d", DAY }, { "h", HOUR }, { "m", MIN }, { "s", SEC }, { "ms", 1 },
	};

	if (ms == 0) {
		buf_puts(out, "0");
		return;
	}
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (ms >= units[i].ms) {
			buf_printf(out, "%" PRIu64 "%s", ms / units[i].ms, units[i].unit);
			ms %= units[i].ms;
		}
	}
}

void config_format_size(uint64_t bytes, struct buf *out)
{
	static const char units[] = "GMK";

	for (int i = 0; i < 3; i++) {
		uint64_t scale = 1ull << (10 * (3 - i));

		if (bytes != 0 && bytes % scale == 0) {
			buf_printf(out, "%" PRIu64 "%c", bytes / scale, units[i]);
			return;
		}
	}
	buf_printf(out, "%" PRIu64, bytes);
}

/* ---------------------------------------------------------------- errors */

static void config_error(struct config_errors *errors, const char *file,
			 unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void config_error(struct config_errors *errors, const char *file,
			 unsigned line, const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;
	char **lines;

	if (line > 0)
		buf_printf(&b, "%s:%u: ", file, line);
	else
		buf_printf(&b, "%s: ", file);
	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	lines = realloc(errors->lines, (errors->count + 1) * sizeof(*lines));
	if (lines == NULL) {
		fputs("ashesd: out of memory\n", stderr);
		abort();
	}
	errors->lines = lines;
	errors->lines[errors->count++] = buf_steal(&b);
}

void config_errors_free(struct config_errors *errors)
{
	for (size_t i = 0; i < errors->count; i++)
		free(errors->lines[i]);
	free(errors->lines);
	errors->lines = NULL;
	errors->count = 0;
}

void config_errors_format(const struct config_errors *errors, struct buf *out)
{
	for (size_t i = 0; i < errors->count; i++) {
		buf_puts(out, errors->lines[i]);
		buf_putc(out, '\n');
	}
}

/* ---------------------------------------------------------------- storing */

static void config_wipe_free(char **p)
{
	if (*p != NULL) {
		explicit_bzero(*p, strlen(*p));
		free(*p);
		*p = NULL;
	}
}

static void config_set_string(char **field, const char *value)
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
		*error_r = k->names == imap_schemes
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

/* Store value into cfg for key k.  Returns 0, or -1 with a message in
 * *msg (a buf the caller frees). */
static int config_set(struct config *cfg, const struct config_key *k,
		      const char *value, struct buf *msg)
{
	void *field = (char *)cfg + k->offset;
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
	case KT_SIZE:
		if (k->type == KT_DURATION
		    ? config_parse_duration(value, &n, &error) < 0
		    : config_parse_size(value, &n, &error) < 0)
			break;
		if (n < k->min || n > k->max) {
			struct buf lo = BUF_INIT, hi = BUF_INIT;

			if (k->type == KT_DURATION) {
				config_format_duration(k->min, &lo);
				config_format_duration(k->max, &hi);
			} else {
				config_format_size(k->min, &lo);
				config_format_size(k->max, &hi);
			}
			buf_printf(msg, "[%s] %s: %s is out of range (%s..%s)",
				   k->section, k->key, value, buf_str(&lo), buf_str(&hi));
			buf_free(&lo);
			buf_free(&hi);
			return -1;
		}
		*(uint64_t *)field = n;
		return 0;
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
	}
	buf_printf(msg, "[%s] %s: bad value \"%s\": %s", k->section, k->key,
		   value, error);
	return -1;
}

/* ---------------------------------------------------------------- parsing */

struct config_parse {
	const char *file;
	struct config *cfg;
	struct config_errors *errors;
	unsigned lines[NKEYS]; /* line a key was set on, 0: default */
};

static bool config_section_known(const char *name)
{
	for (size_t i = 0; i < NKEYS; i++)
		if (strcmp(config_keys[i].section, name) == 0)
			return true;
	return false;
}

static ptrdiff_t config_key_find(const char *section, const char *key)
{
	for (size_t i = 0; i < NKEYS; i++)
		if (strcmp(config_keys[i].section, section) == 0 &&
		    strcmp(config_keys[i].key, key) == 0)
			return (ptrdiff_t)i;
	return -1;
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

/* ---------------------------------------------------------------- checks */

static unsigned config_line(const struct config_parse *ps, const char *section,
			    const char *key)
{
	ptrdiff_t i = config_key_find(section, key);

	return i < 0 ? 0 : ps->lines[i];
}

/* First line of a password file, without its line end.  Returns 0, or -1
 * with a message. */
static int config_read_password_file(const char *path, char **password_r,
				     struct buf *msg)
{
	char data[4096];
	ssize_t n;
	size_t len;
	int fd, ret = -1;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		buf_printf(msg, "cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	n = read(fd, data, sizeof(data) - 1);
	if (n < 0) {
		buf_printf(msg, "cannot read %s: %s", path, strerror(errno));
		goto out;
	}
	data[n] = '\0';
	len = strcspn(data, "\r\n");
	data[len] = '\0';
	if (len == 0) {
		buf_printf(msg, "%s holds no password on its first line", path);
		goto out;
	}
	*password_r = xstrdup(data);
	ret = 0;
out:
	explicit_bzero(data, sizeof(data));
	close(fd);
	return ret;
}

static void config_check_server(struct config_parse *ps, const char *section,
				struct config_server *srv, bool needed)
{
	unsigned pw_line = config_line(ps, section, "password");
	unsigned pwf_line = config_line(ps, section, "password_file");

	/* A url that was given but refused has its own message already. */
	if (needed && srv->url == NULL && config_line(ps, section, "url") == 0)
		config_error(ps->errors, ps->file, 0, "[%s] url is required", section);
	if (srv->password != NULL && srv->password_file != NULL) {
		config_error(ps->errors, ps->file, pwf_line,
			     "[%s] password and password_file are both set (line %u): keep one",
			     section, pw_line);
	} else if (srv->password_file != NULL) {
		struct buf msg = BUF_INIT;

		if (config_read_password_file(srv->password_file, &srv->password,
					      &msg) < 0)
			config_error(ps->errors, ps->file, pwf_line,
				     "[%s] password_file: %s", section, buf_str(&msg));
		buf_free(&msg);
	}
	if (srv->url != NULL && srv->user != NULL && srv->password == NULL &&
	    srv->password_file == NULL)
		config_error(ps->errors, ps->file, config_line(ps, section, "user"),
			     "[%s] user is set but neither password nor password_file", section);
	if (srv->user == NULL && (pw_line != 0 || pwf_line != 0))
		config_error(ps->errors, ps->file, pw_line != 0 ? pw_line : pwf_line,
			     "[%s] a password without a user", section);
	if (srv->ca_file != NULL && access(srv->ca_file, R_OK) < 0)
		config_error(ps->errors, ps->file, config_line(ps, section, "ca_file"),
			     "[%s] ca_file: cannot read %s: %s", section,
			     srv->ca_file, strerror(errno));
}

static void config_check_dir(struct config_parse *ps, const char *section,
			     const char *key, const char *dir, unsigned line)
{
	struct stat st;

	if (stat(dir, &st) < 0)
		config_error(ps->errors, ps->file, line, "[%s] %s: %s: %s",
			     section, key, dir, strerror(errno));
	else if (!S_ISDIR(st.st_mode))
		config_error(ps->errors, ps->file, line, "[%s] %s: %s is not a directory",
			     section, key, dir);
}

static void config_check(struct config_parse *ps, const struct config_overrides *ov)
{
	struct config *cfg = ps->cfg;
	bool imap = cfg->source.type == CONFIG_SOURCE_IMAP;

	if (ov != NULL && ov->maildir != NULL) {
		cfg->source.type = CONFIG_SOURCE_MAILDIR;
		config_set_string(&cfg->source.maildir, ov->maildir);
		imap = false;
		config_check_dir(ps, "source", "--maildir", cfg->source.maildir, 0);
	} else if (!imap) {
		if (cfg->source.maildir == NULL)
			config_error(ps->errors, ps->file, config_line(ps, "source", "type"),
				     "[source] type = maildir needs [source] maildir");
		else
			config_check_dir(ps, "source", "maildir", cfg->source.maildir,
					 config_line(ps, "source", "maildir"));
	}
	if (imap && cfg->imap.server.user == NULL)
		config_error(ps->errors, ps->file, 0,
			     "[imap] user is required with [source] type = imap");
	config_check_server(ps, "imap", &cfg->imap.server, imap);
	/* Without IMAP there may be no SMTP either (local runs): replies then
	 * stay in the outbox.  Reading real mail and never answering is a
	 * misconfiguration, so IMAP needs SMTP. */
	config_check_server(ps, "smtp", &cfg->smtp.server, imap);
	if (cfg->smtp.from == NULL)
		config_error(ps->errors, ps->file, 0,
			     "[smtp] from (the daemon's own address) is required");
	else if (cfg->smtp.domain == NULL)
		cfg->smtp.domain = xstrdup(strchr(cfg->smtp.from, '@') + 1);
	if (cfg->imap.mailbox == NULL)
		config_error(ps->errors, ps->file, config_line(ps, "imap", "mailbox"),
			     "[imap] mailbox must not be empty");
	if (cfg->imap.archive_folder == NULL ||
	    (cfg->imap.mailbox != NULL &&
	     strcmp(cfg->imap.archive_folder, cfg->imap.mailbox) == 0))
		config_error(ps->errors, ps->file, config_line(ps, "imap", "archive_folder"),
			     "[imap] archive_folder must be set, and differ from mailbox");
	if (cfg->imap.quarantine_folder == NULL ||
	    (cfg->imap.mailbox != NULL &&
	     strcmp(cfg->imap.quarantine_folder, cfg->imap.mailbox) == 0) ||
	    (cfg->imap.archive_folder != NULL &&
	     strcmp(cfg->imap.quarantine_folder, cfg->imap.archive_folder) == 0))
		config_error(ps->errors, ps->file,
			     config_line(ps, "imap", "quarantine_folder"),
			     "[imap] quarantine_folder must be set, and differ "
			     "from mailbox and archive_folder");
	if (cfg->smtp.retry_initial_ms > cfg->smtp.retry_max_ms)
		config_error(ps->errors, ps->file, config_line(ps, "smtp", "retry_initial"),
			     "[smtp] retry_initial is longer than retry_max");
	if (cfg->templates.dir != NULL)
		config_check_dir(ps, "templates", "dir", cfg->templates.dir,
				 config_line(ps, "templates", "dir"));
}

/* ---------------------------------------------------------------- API */

static void config_defaults(struct config_parse *ps)
{
	for (size_t i = 0; i < NKEYS; i++) {
		struct buf msg = BUF_INIT;

		if (config_keys[i].def == NULL)
			continue;
		if (config_set(ps->cfg, &config_keys[i], config_keys[i].def, &msg) < 0)
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
	config_server_free(&cfg->smtp.server);
	free(cfg->smtp.from);
	free(cfg->smtp.from_name);
	free(cfg->smtp.domain);
	free(cfg->smtp.helo_name);
	free(cfg->gpg.home);
	free(cfg->gpg.signing_key);
	free(cfg->database.path);
	free(cfg->templates.dir);
	free(cfg->source.maildir);
	memset(cfg, 0, sizeof(*cfg));
}

/* A string as the parser would read it back: quoted when blanks at
 * either end, a leading quote, or an empty value would otherwise be lost. */
static void config_dump_string(struct buf *out, const char *s)
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

void config_dump(const struct config *cfg, struct buf *out)
{
	const char *section = "";

	for (size_t i = 0; i < NKEYS; i++) {
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
		buf_printf(out, "%s = ", k->key);
		switch (k->type) {
		case KT_STRING:
		case KT_PATH:
		case KT_ADDRESS: {
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
			config_format_duration(*(const uint64_t *)field, out);
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
		}
		/* "key =" for an unset value, without a trailing blank */
		if (out->len > 0 && out->data[out->len - 1] == ' ')
			out->data[--out->len] = '\0';
		buf_putc(out, '\n');
	}
}
