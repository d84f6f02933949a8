/* config_table.c -- the table of every key of ashesd.conf: section, name,
 * type, where it is stored, default and range.  Reading, storing and
 * printing by it are config_keys.c's; the keys of the named sections
 * ([ladder NAME]) are config_clubs.c's.  A new section's keys go here,
 * with its documentation in man/ashesd.conf.5.
 */
#include <config.h> /* autoconf's: _GNU_SOURCE */

#include <stddef.h>
#include <syslog.h>

#include "config/config_private.h"
#include "config/log.h"
#include "server/command.h"

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
	{ "imap", "sent_folder", KT_STRING, OFF(imap.sent_folder), "Sent",
	  NULL, 0, 0 },
	{ "imap", "replay_max", KT_UINT, OFF(imap.replay_max), "20000", NULL,
	  1, 1000000 },
	{ "imap", "replay_margin", KT_DURATION, OFF(imap.replay_margin_ms),
	  "1h", NULL, SEC, 7 * DAY },
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
	/* The club's language: checked against the templates' languages
	 * when the daemon starts (daemon/loop.c). */
	{ "templates", "language", KT_STRING, OFF(templates.language), "en",
	  NULL, 0, 0 },

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

	/* `ashes status`: its thresholds, 0 for "not checked"
	 * (config_check.c: a warning comes before its critical). */
	{ "status", "heartbeat_warning", KT_DURATION,
	  OFF(status.heartbeat_warning_ms), "3m", NULL, 0, 7 * DAY },
	{ "status", "heartbeat_critical", KT_DURATION,
	  OFF(status.heartbeat_critical_ms), "10m", NULL, 0, 7 * DAY },
	{ "status", "mailbox_warning", KT_DURATION,
	  OFF(status.mailbox_warning_ms), "15m", NULL, 0, 30 * DAY },
	{ "status", "mailbox_critical", KT_DURATION,
	  OFF(status.mailbox_critical_ms), "1h", NULL, 0, 30 * DAY },
	{ "status", "unsent_warning", KT_DURATION,
	  OFF(status.unsent_warning_ms), "30m", NULL, 0, 30 * DAY },
	{ "status", "unsent_critical", KT_DURATION,
	  OFF(status.unsent_critical_ms), "4h", NULL, 0, 30 * DAY },
	{ "status", "failed_warning", KT_UINT, OFF(status.failed_warning), "1",
	  NULL, 0, 1000000 },
	{ "status", "failed_critical", KT_UINT, OFF(status.failed_critical),
	  "20", NULL, 0, 1000000 },
	{ "status", "quarantined_warning", KT_UINT,
	  OFF(status.quarantined_warning), "1", NULL, 0, 1000000 },
	{ "status", "quarantined_critical", KT_UINT,
	  OFF(status.quarantined_critical), "10", NULL, 0, 1000000 },
	{ "status", "disk_free_warning", KT_SIZE, OFF(status.disk_free_warning),
	  "1G", NULL, 0, 1ull << 50 },
	{ "status", "disk_free_critical", KT_SIZE,
	  OFF(status.disk_free_critical), "100M", NULL, 0, 1ull << 50 },
	{ "status", "window", KT_DURATION, OFF(status.window_ms), "7d", NULL,
	  HOUR, 365 * DAY },

	/* How long what mails carry is kept (server/retention.h); 0 or
	 * never: for ever. */
	{ "retention", "sent_mail", KT_DURATION_OR_NEVER,
	  OFF(retention.sent_mail_ms), "30d", NULL, HOUR, 3650 * DAY },
	{ "retention", "refused_mail", KT_DURATION_OR_NEVER,
	  OFF(retention.refused_mail_ms), "14d", NULL, HOUR, 3650 * DAY },
	{ "retention", "raw_mail", KT_DURATION_OR_NEVER,
	  OFF(retention.raw_mail_ms), "90d", NULL, HOUR, 3650 * DAY },
};

const size_t config_nkeys = sizeof(config_keys) / sizeof(config_keys[0]);
_Static_assert(sizeof(config_keys) / sizeof(config_keys[0]) <= CONFIG_KEYS_MAX,
	       "raise CONFIG_KEYS_MAX");
