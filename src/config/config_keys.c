/* config_keys.c -- the table of every key of ashesd.conf (section, name,
 * type, range, default), storing a value by it, printing the whole back
 * (--check-config) and freeing it; see club_config.h.  The keys of the
 * named sections ([ladder NAME]) are config_clubs.c's.
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
#include "server/command.h"
#include "util/xstr.h"

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
static const struct config_name target_names[] = {
	{ "stderr", LOG_TARGET_STDERR, false },
	{ "syslog", LOG_TARGET_SYSLOG, false },
	{ "journal", LOG_TARGET_JOURNAL, false },
	{ NULL, 0, false },
};
/* [site] notes: when `ashes site` shows the players' notes. */
static const struct config_name site_notes_names[] = {
	{ "after", CONFIG_SITE_NOTES_AFTER, false },
	{ "never", CONFIG_SITE_NOTES_NEVER, false },
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
static const struct config_name timeout_claim_names[] = {
	{ "auto", CONFIG_TIMEOUT_CLAIM_AUTO, false },
	{ "manual", CONFIG_TIMEOUT_CLAIM_MANUAL, false },
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
#define SEC CONFIG_SEC
#define MIN CONFIG_MIN
#define HOUR CONFIG_HOUR
#define DAY CONFIG_DAY
#define DURATION_MAX CONFIG_DURATION_MAX

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

const struct config_key config_keys[] = {
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
	{ "smtp", "idle_close", KT_DURATION, OFF(smtp.idle_close_ms), "60s",
	  NULL, SEC, DAY },
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
	{ "gpg", "operation_timeout", KT_DURATION,
	  OFF(gpg.operation_timeout_ms), "5s", NULL, 100, MIN },
	{ "gpg", "allow_sha1", KT_BOOL, OFF(gpg.allow_sha1), "no", NULL, 0, 0 },

	{ "database", "path", KT_PATH, OFF(database.path),
	  ASHES_LOCALSTATEDIR "/lib/ashesd/ashesd.db", NULL, 0, 0 },
	{ "database", "busy_timeout", KT_DURATION, OFF(database.busy_timeout_ms),
	  "5s", NULL, 0, 10 * MIN },

	/* The default variant: the core's options (core/variant.h), their
	 * ranges, names and defaults; draw_offers is the option "draw". */
	{ "game", "size", KT_VARIANT, OFF(game.variant), "size", NULL, 0, 0 },
	{ "game", "swap", KT_VARIANT, OFF(game.variant), "swap", NULL, 0, 0 },
	{ "game", "tax", KT_VARIANT, OFF(game.variant), "tax", NULL, 0, 0 },
	{ "game", "draw_offers", KT_VARIANT, OFF(game.variant), "draw", NULL,
	  0, 0 },
	{ "game", "clock", KT_CLOCK, OFF(game.clock), "none", NULL, 0, 0 },
	{ "game", "weekends", KT_BOOL, OFF(game.weekends), "on", NULL, 0, 0 },
	/* Deprecated: read as clock = days:N (config_check.c). */
	{ "game", "move_time", KT_DURATION, OFF(game.move_time_ms), "0", NULL,
	  0, 365 * DAY },
	{ "game", "max_listed_moves", KT_UINT, OFF(game.max_listed_moves), "250",
	  NULL, 0, 100000 },

	/* The clocks' settings (server.h's struct server_clock_config). */
	{ "clock", "reminders", KT_HOURS, OFF(clock.reminders), "48h, 12h",
	  NULL, HOUR, 8760 * HOUR },
	{ "clock", "auto_vacation", KT_BOOL, OFF(clock.auto_vacation), "yes",
	  NULL, 0, 0 },
	{ "clock", "timeout_claim", KT_ENUM, OFF(clock.timeout_claim), "auto",
	  timeout_claim_names, 0, 0 },
	{ "clock", "vacation_start", KT_UINT, OFF(clock.vacation_start), "10",
	  NULL, 0, 365 },
	{ "clock", "vacation_earn", KT_UINT, OFF(clock.vacation_earn), "30",
	  NULL, 0, 365 },
	{ "clock", "vacation_cap", KT_UINT, OFF(clock.vacation_cap), "30",
	  NULL, 0, 365 },
	{ "clock", "outage_grace", KT_DURATION, OFF(clock.outage_grace_ms), "6h",
	  NULL, 0, 30 * DAY },

	{ "templates", "dir", KT_PATH, OFF(templates.dir), NULL, NULL, 0, 0 },

	{ "site", "notes", KT_ENUM, OFF(site.notes), "after", site_notes_names,
	  0, 0 },

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
	/* What one player can make the daemon send and compute (server.h's
	 * struct server_limits). */
	{ "limits", "mails_per_hour", KT_UINT, OFF(limits.mails_per_hour),
	  "200", NULL, 0, 1000000 },
	{ "limits", "bytes_per_hour", KT_SIZE, OFF(limits.bytes_per_hour),
	  "32M", NULL, 0, 1ull << 40 },
	{ "limits", "hints_per_hour", KT_UINT, OFF(limits.hints_per_hour),
	  "10", NULL, 0, 1000000 },
	{ "limits", "challenges_per_day", KT_UINT,
	  OFF(limits.challenges_per_day), "3", NULL, 0, 1000000 },
	{ "limits", "open_challenges", KT_UINT, OFF(limits.open_challenges),
	  "10", NULL, 0, 1000000 },

	/* Glicko-2's tau in millionths; the period as any duration. */
	{ "ratings", "tau", KT_DECIMAL, OFF(ratings.tau), "0.5", NULL,
	  200000, 1200000 },
	{ "ratings", "period", KT_DURATION, OFF(ratings.period_ms), "7d", NULL,
	  DAY, 365 * DAY },

	/* The practice opponent; levels is read by config_bot.c. */
	{ "bot", "enabled", KT_BOOL, OFF(bot.enabled), "no", NULL, 0, 0 },
	{ "bot", "name", KT_STRING, OFF(bot.name), "Ashes bot", NULL, 0, 0 },
	{ "bot", "levels", KT_STRING, OFF(bot.levels_text), "1-5", NULL, 0, 0 },
	{ "bot", "think_time", KT_DURATION, OFF(bot.think_ms), "2s", NULL,
	  100, 10 * MIN },
	{ "bot", "delay", KT_DURATION, OFF(bot.delay_ms), "5m", NULL, 0,
	  7 * DAY },
	{ "bot", "max_games", KT_UINT, OFF(bot.max_games), "10", NULL, 1,
	  100000 },
	{ "bot", "rated", KT_BOOL, OFF(bot.rated), "no", NULL, 0, 0 },
	{ "bot", "max_games_per_player", KT_UINT,
	  OFF(bot.max_games_per_player), "2", NULL, 0, 100000 },
	/* Never none (config_bot.c): an idle bot game ends on time. */
	{ "bot", "clock", KT_CLOCK, OFF(bot.clock), "days:3", NULL, 0, 0 },
};

const size_t config_nkeys = sizeof(config_keys) / sizeof(config_keys[0]);
_Static_assert(sizeof(config_keys) / sizeof(config_keys[0]) <= CONFIG_KEYS_MAX,
	       "raise CONFIG_KEYS_MAX");

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
		int r = k->type == KT_SIZE ? config_parse_size(value, &n, &error)
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
