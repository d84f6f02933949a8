/* config_check.c -- the checks of ashesd.conf as a whole, after every
 * line was read: what one source type requires of the others, password
 * files, readable CA files, existing directories, folders that differ,
 * the deprecated [game] move_time, the ladders and leagues
 * (config_clubs.c); see club_config.h.
 */
#include <config.h> /* autoconf's: _GNU_SOURCE */

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/config_private.h"
#include "config/log.h"
#include "server/clock.h"
#include "util/xstr.h"

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

/* A primary language subtag as the templates' folders are named: two or
 * three of a-z (render/template.h checks the same). */
static bool config_language_shape(const char *lang)
{
	size_t n = strspn(lang, "abcdefghijklmnopqrstuvwxyz");

	return lang[n] == '\0' && (n == 2 || n == 3);
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

/* [game] move_time, from before the clocks: a whole number of days 1..14
 * is the time control days:N (said once at each load, so the operator
 * updates the file); any other time per move has no clock of that shape,
 * and a file that also names [game] clock says two things. */

/* Is folder unset, or the same as one of the others (NULL: none)? */
static bool folder_clash(const char *folder, const char *a, const char *b,
			 const char *c)
{
	const char *others[] = { a, b, c };

	if (folder == NULL)
		return true;
	for (size_t i = 0; i < 3; i++)
		if (others[i] != NULL && strcmp(folder, others[i]) == 0)
			return true;
	return false;
}

static void config_check_move_time(struct config_parse *ps)
{
	struct config_game *game = &ps->cfg->game;
	unsigned line = config_line(ps, "game", "move_time");
	uint64_t ms = game->move_time_ms;
	struct buf spec = BUF_INIT, written = BUF_INIT;

	if (ms == 0)
		return;
	config_format_duration(ms, &written);
	if (config_line(ps, "game", "clock") != 0) {
		config_error(ps->errors, ps->file, line,
			     "[game] move_time and [game] clock are both set "
			     "(clock on line %u): keep clock (move_time is "
			     "deprecated)", config_line(ps, "game", "clock"));
	} else if (ms % CONFIG_DAY != 0 ||
		   ms / CONFIG_DAY < (uint64_t)CLOCK_MIN_DAYS ||
		   ms / CONFIG_DAY > (uint64_t)CLOCK_MAX_DAYS) {
		config_error(ps->errors, ps->file, line,
			     "[game] move_time = %s is no longer read: it is "
			     "deprecated, and only %d to %d whole days stand "
			     "for a clock (days:N); set [game] clock instead",
			     buf_str(&written), CLOCK_MIN_DAYS,
			     CLOCK_MAX_DAYS);
	} else {
		buf_printf(&spec, "days:%u", (unsigned)(ms / CONFIG_DAY));
		config_set_string(&game->clock, buf_str(&spec));
		game->move_time_ms = 0;
		log_warning("%s:%u: [game] move_time is deprecated: move_time "
			    "= %s is read as clock = %s; write that instead",
			    ps->file, line, buf_str(&written), buf_str(&spec));
	}
	buf_free(&spec);
	buf_free(&written);
}

/* [status] low at most high when both are set (0 is "not checked"),
 * else an error at the key out of order: a warning comes before its
 * critical for ages and counts, after it for free disk. */
static void config_check_order(struct config_parse *ps, const char *low_key,
			       uint64_t low, const char *high_key,
			       uint64_t high)
{
	if (low == 0 || high == 0 || low <= high)
		return;
	config_error(ps->errors, ps->file,
		     config_line(ps, "status", low_key) != 0
		     ? config_line(ps, "status", low_key)
		     : config_line(ps, "status", high_key),
		     "[status] %s is more than %s", low_key, high_key);
}

/* The thresholds of `ashes status` in order.  (A heartbeat warning
 * shorter than [imap] poll_interval is fine: the loop then turns at least
 * twice within it, loop_health.c.) */
static void config_check_status(struct config_parse *ps)
{
	const struct config_status *st = &ps->cfg->status;
	const struct {
		const char *low_key;
		uint64_t low;
		const char *high_key;
		uint64_t high;
	} pairs[] = {
		{ "heartbeat_warning", st->heartbeat_warning_ms,
		  "heartbeat_critical", st->heartbeat_critical_ms },
		{ "mailbox_warning", st->mailbox_warning_ms,
		  "mailbox_critical", st->mailbox_critical_ms },
		{ "unsent_warning", st->unsent_warning_ms,
		  "unsent_critical", st->unsent_critical_ms },
		{ "failed_warning", st->failed_warning,
		  "failed_critical", st->failed_critical },
		{ "quarantined_warning", st->quarantined_warning,
		  "quarantined_critical", st->quarantined_critical },
		{ "disk_free_critical", st->disk_free_critical,
		  "disk_free_warning", st->disk_free_warning },
	};

	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++)
		config_check_order(ps, pairs[i].low_key, pairs[i].low,
				   pairs[i].high_key, pairs[i].high);
}

void config_check(struct config_parse *ps, const struct config_overrides *ov)
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
	if (folder_clash(cfg->imap.quarantine_folder, cfg->imap.mailbox,
			 cfg->imap.archive_folder, NULL))
		config_error(ps->errors, ps->file,
			     config_line(ps, "imap", "quarantine_folder"),
			     "[imap] quarantine_folder must be set, and differ "
			     "from mailbox and archive_folder");
	/* The headers appended there must never be read as mail. */
	if (folder_clash(cfg->imap.sent_folder, cfg->imap.mailbox,
			 cfg->imap.archive_folder, cfg->imap.quarantine_folder))
		config_error(ps->errors, ps->file,
			     config_line(ps, "imap", "sent_folder"),
			     "[imap] sent_folder must be set, and differ "
			     "from mailbox, archive_folder and "
			     "quarantine_folder");
	if (cfg->smtp.retry_initial_ms > cfg->smtp.retry_max_ms)
		config_error(ps->errors, ps->file, config_line(ps, "smtp", "retry_initial"),
			     "[smtp] retry_initial is longer than retry_max");
	if (cfg->templates.dir != NULL)
		config_check_dir(ps, "templates", "dir", cfg->templates.dir,
				 config_line(ps, "templates", "dir"));
	/* The shape here; that the templates have it, at start-up. */
	if (cfg->templates.language != NULL &&
	    strcmp(cfg->templates.language, "en") != 0 &&
	    !config_language_shape(cfg->templates.language))
		config_error(ps->errors, ps->file,
			     config_line(ps, "templates", "language"),
			     "[templates] language must be a language's "
			     "primary subtag in lower case (en, de, ko), not "
			     "'%s'", cfg->templates.language);
	config_check_move_time(ps);
	if (cfg->clock.vacation_start > cfg->clock.vacation_cap)
		config_error(ps->errors, ps->file,
			     config_line(ps, "clock", "vacation_start") != 0
			     ? config_line(ps, "clock", "vacation_start")
			     : config_line(ps, "clock", "vacation_cap"),
			     "[clock] vacation_start (%u days) is more than "
			     "vacation_cap (%u)", cfg->clock.vacation_start,
			     cfg->clock.vacation_cap);
	/* After move_time, which may set [game] clock they take. */
	config_clubs_check(ps);
	config_bot_check(ps);
	config_check_status(ps);
}
