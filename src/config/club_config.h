/* club_config.h -- ashesd's configuration file: an INI-style file parsed
 * into one fully typed struct, checked as a whole, and printable with its
 * secrets masked (`ashesd --check-config`).  Read by ashesd and by `ashes`
 * (which finds the database through it).  Not named config.h: that is
 * autoconf's.
 *
 * Syntax: "[section]" lines, "key = value" lines, whole-line comments
 * starting with '#' or ';', blank lines.  A value runs to the end of the
 * line (so a password may hold '#'); surrounding blanks are dropped unless
 * the value is written in double quotes ("..." with \" and \\ escapes).
 * Durations: 500ms, 30s, 10m, 2h, 7d, 1w, or sums like 1h30m; a bare
 * number is seconds.  Sizes: 512, 512K, 1M, 2G (powers of 1024).
 * Booleans: yes/no, true/false, on/off, 1/0.
 *
 * Every section, key, default and check is described by one table in
 * config_keys.c (the [game] keys of the default variant by the rules
 * core's table, core/variant.h); man/ashesd.conf.5 documents the same
 * keys.  Unknown sections and keys, bad values, duplicated keys and missing
 * required keys are all reported, each as "FILE:LINE: message", not just
 * the first.
 *
 * Named sections, "[ladder NAME]", "[league NAME]" and "[tournament
 * NAME]", may repeat with
 * different names; each has its own table of keys (config_clubs.c).  A
 * key of theirs that [game] also has (size, swap, tax, draw_offers,
 * clock, weekends) takes the [game] value unless the section sets it.
 *
 * Files: config_read.c (the INI reader, loading), config_keys.c (the key
 * table, storing and printing values), config_clubs.c (the ladder and
 * league sections), config_values.c (durations, sizes, booleans, lists,
 * dates), config_check.c (the checks of the whole).
 *
 * Reload: load the new file into a fresh struct; only if that succeeds
 * free the old one and use the new (daemon.c does this on SIGHUP).
 */
#ifndef ASHES_CONFIG_CLUB_CONFIG_H
#define ASHES_CONFIG_CLUB_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/log.h"
#include "core/core.h"
#include "util/buf.h"

#ifndef ASHES_SYSCONFDIR
#define ASHES_SYSCONFDIR "/etc"
#endif
#ifndef ASHES_LOCALSTATEDIR
#define ASHES_LOCALSTATEDIR "/var"
#endif

#define CONFIG_DEFAULT_PATH ASHES_SYSCONFDIR "/ashesd/ashesd.conf"

/* STARTTLS for a plain (imap://, smtp://) URL; ignored for imaps://,
 * smtps://, which are TLS from the first byte. */
enum config_starttls {
	CONFIG_STARTTLS_REQUIRED = 0, /* refuse to log in without TLS */
	CONFIG_STARTTLS_OPTIONAL,     /* use it when offered */
	CONFIG_STARTTLS_NO,           /* never (loopback test servers) */
};

/* How the IMAP client logs in. */
enum config_imap_auth {
	CONFIG_IMAP_AUTH_LOGIN = 0, /* IMAP LOGIN */
	CONFIG_IMAP_AUTH_PLAIN,     /* AUTHENTICATE PLAIN (SASL) */
};

enum config_source_type {
	CONFIG_SOURCE_IMAP = 0,
	CONFIG_SOURCE_MAILDIR, /* a directory of .eml files */
};

/* A server URL split into what libetpan needs; libcurl takes `url`. */
struct config_server {
	char *url;           /* as written; NULL if unset */
	char *host;          /* parsed from url */
	unsigned port;       /* from url, else the scheme's default */
	bool implicit_tls;   /* imaps:// or smtps:// */
	enum config_starttls starttls;
	char *user;          /* NULL: no login/AUTH */
	char *password;      /* from `password` or read from password_file */
	char *password_file; /* path, NULL if the password was inline */
	char *ca_file;       /* NULL: the system's CA store */
	bool tls_verify;
	uint64_t timeout_ms; /* connect and per-command timeout */
};

struct config_imap {
	struct config_server server;
	enum config_imap_auth auth;
	char *mailbox;        /* folder to read, "INBOX" */
	char *archive_folder; /* handled mail moves here ("Archive") */
	char *quarantine_folder; /* a mail that keeps failing ("Quarantine") */
	uint64_t poll_interval_ms;
	bool idle;            /* use IDLE when the server offers it */
	uint64_t reconnect_max_ms; /* cap of the reconnect backoff */
};

struct config_smtp {
	struct config_server server; /* url NULL: replies stay in the outbox */
	char *from;           /* the daemon's address (From, loop checks) */
	char *from_name;      /* display name for From; NULL: none */
	char *domain;         /* of our Message-IDs; default: from's domain */
	char *helo_name;      /* EHLO name; NULL: libcurl's default */
	unsigned batch_size;  /* outbox messages per round */
	uint64_t idle_close_ms;    /* SMTP connection kept this long idle */
	uint64_t retry_initial_ms;
	uint64_t retry_max_ms;
	unsigned max_attempts;     /* 0: no limit by count */
	uint64_t give_up_after_ms; /* 0: no limit by age */
};

struct config_gpg {
	char *home;            /* GNUPGHOME of the daemon's own keyring */
	bool sign_replies;
	char *signing_key;     /* fingerprint/uid; NULL: first secret key */
	bool require_signature;
	uint64_t max_signature_age_ms;
	uint64_t max_future_skew_ms;
	/* the most one gpg run on a stranger's bytes may take (pgp.h's
	 * budget), and whether a signature over SHA-1 counts */
	uint64_t operation_timeout_ms;
	bool allow_sha1;
};

struct config_database {
	char *path;
	uint64_t busy_timeout_ms;
};

struct config_game {
	/* Defaults for `challenge` commands that don't name their options:
	 * size, swap, tax and draw_offers (the variant's draw_offers). */
	struct core_variant variant;
	/* The time control of a challenge that names none, as the service
	 * writes it (server/clock.h: "none", "days:3", "fischer:240h+36h",
	 * "fischer:240h+36h/240h"); checked and made canonical at load. */
	char *clock;
	bool weekends;             /* weekends are charged (on, the default) */
	/* Deprecated: a whole number of days 1..14 is read as clock =
	 * days:N (and 0 is left here); anything else but 0 is refused. */
	uint64_t move_time_ms;
	unsigned max_listed_moves; /* legal moves listed in a mail; 0: all */
};

/* Most [clock] reminders. */
#define CONFIG_REMINDERS_MAX 4

/* A list of whole hours, highest first, no two the same. */
struct config_hours {
	unsigned hours[CONFIG_REMINDERS_MAX];
	unsigned count;
};

/* What becomes of a game whose flag fell. */
enum config_timeout_claim {
	CONFIG_TIMEOUT_CLAIM_AUTO = 0, /* the game is lost on time at once */
	CONFIG_TIMEOUT_CLAIM_MANUAL,   /* it waits for the opponent's claim */
};

struct config_clock {
	struct config_hours reminders; /* hours left when a player is told */
	bool auto_vacation;      /* a falling flag spends vacation days */
	enum config_timeout_claim timeout_claim;
	unsigned vacation_start; /* a new player's vacation days */
	unsigned vacation_earn;  /* days earned per year */
	unsigned vacation_cap;   /* the most days a player may hold */
	/* A gap in the clock timer's runs longer than this (the daemon was
	 * away) gives the time back; 0: never. */
	uint64_t outage_grace_ms;
};

/* [site]: what `ashes site` publishes of a game. */
enum config_site_notes {
	CONFIG_SITE_NOTES_AFTER = 0, /* once the game is over */
	CONFIG_SITE_NOTES_NEVER,     /* not at all */
};
struct config_site {
	enum config_site_notes notes; /* the players' notes */
};

struct config_templates {
	char *dir; /* operator overrides; NULL: only the installed ones */
};

struct config_log {
	enum log_target target;
	enum log_level level;
	int facility; /* syslog facility, LOG_DAEMON by default */
};

struct config_limits {
	uint64_t max_message_size;    /* bytes; bigger mail is not parsed */
	unsigned sender_rate_limit;   /* mails per sender per hour; 0: none */
	unsigned registrations_per_hour; /* new players, all senders; 0: none */
	unsigned max_commands;        /* command lines read from one mail */
	/* What one player's mails may make the daemon send in an hour
	 * (all recipients; an archive weighs its game's mails); 0: no
	 * limit. */
	unsigned mails_per_hour;
	uint64_t bytes_per_hour;
	unsigned hints_per_hour;      /* `hint`s one player asks an hour */
	unsigned challenges_per_day;  /* from one player to the same one */
	unsigned open_challenges;     /* one player's unanswered, at once */
};

struct config_source {
	enum config_source_type type;
	char *maildir; /* for CONFIG_SOURCE_MAILDIR */
};

/* A list of player names, as written (the register rule: 2 to 24
 * letters, digits, '-' or '_', starting with a letter), none twice in any
 * case.  The config does not know the database: a name nobody registered
 * yet is pending, and joins when that player registers. */
struct config_members {
	char **names;
	size_t count;
};

/* A number of places, or a percentage of the places (challenge_range). */
struct config_places {
	unsigned n;   /* 1..1000 places, or 1..100 percent */
	bool percent; /* n is a percentage of the number of members */
};

/* What a ladder and a league share; the first member of both. */
struct config_club {
	char *name;  /* 1 to 32 of a-z, 0-9, '_', '-'; unique among both */
	/* Where the section began, for the service's messages about it
	 * ("ashesd.conf:42: ladder main: ..."). */
	char *file;
	unsigned line;
	struct config_members members;
	bool open;   /* players may join (and leave) by mail */
	/* The variant and time control of its games: [game]'s unless set. */
	struct core_variant variant;
	char *clock; /* canonical, as [game] clock */
	bool weekends;
	bool rated;
};

/* [ladder NAME].  Durations in milliseconds, as everywhere here. */
struct config_ladder {
	struct config_club club;
	struct config_places challenge_range; /* how far up one may challenge */
	unsigned max_out;          /* open challenges a member may make */
	unsigned max_in;           /* and receive */
	uint64_t rematch_wait_ms;  /* before the same two meet again */
	uint64_t accept_within_ms; /* else a walkover for the challenger */
	unsigned time_loss_drop;   /* places a challenger losing on time drops */
	uint64_t absence_withdraw_ms; /* no move this long: withdrawn; 0: never */
	bool standings_mail;       /* the weekly standings mail */
};

/* [league NAME]: round-robin groups, season after season. */
struct config_league {
	struct config_club club;
	unsigned group_size;       /* players per group, 2..50 */
	int64_t season_start;      /* the first season's: UTC midnight, epoch s */
	uint64_t season_length_ms;
	unsigned promote, relegate; /* per group, each at most group_size / 2 */
};

/* [tournament NAME]: one event -- a Swiss, a round robin or a
 * knockout (src/server/tournament.h, docs/tournaments.md). */
#define CONFIG_TIEBREAKS_MAX 6
struct config_tournament {
	struct config_club club;
	int format;                /* enum tournament_format */
	unsigned rounds;           /* swiss: 1..512 */
	bool twice;                /* round robin: `double = yes` */
	int64_t signup_until;      /* UTC midnight; 0: until start */
	int64_t start;             /* UTC midnight, epoch s (required) */
	unsigned max_players;      /* 2..256 */
	uint64_t round_deadline_ms; /* 0: none (the clocks decide) */
	int bye_points;            /* half points: 0, 1 (0.5), 2 (1) */
	/* as written (NULL: the format's defaults), and read */
	char *tiebreaks_text;
	int tiebreaks[CONFIG_TIEBREAKS_MAX]; /* enum tournament_tiebreak */
	size_t ntiebreaks;
	bool standings_mail;       /* the weekly standings mail */
};

/* [ratings]: Glicko-2. */
struct config_ratings {
	double tau;         /* the volatility constraint, 0.2..1.2 */
	uint64_t period_ms; /* the rating period (an idle player's RD grows) */
};

/* [bot]: the practice opponent (config_bot.c checks it). */
struct config_bot {
	bool enabled;
	char *name;           /* the bot player's name */
	char *levels_text;    /* "1-5", "1,2,3" as written */
	unsigned levels;      /* from levels_text: bit L set, level L offered */
	uint64_t think_ms;    /* thinking time per move */
	uint64_t delay_ms;    /* after its opponent moved, before it answers */
	unsigned max_games;   /* bot games open or under way at once */
	unsigned max_games_per_player; /* ... of one player */
	char *clock;          /* a bot game's clock unless it names one */
	bool rated;
};

/* [status]: when `ashes status` says WARNING and when CRITICAL (the
 * daemon's health, src/daemon/health.h); a threshold of 0 turns that
 * check off.  Durations are ages, in milliseconds: the heartbeat (the
 * loop's last turn), the last mailbox contact, the oldest unsent reply;
 * counts are within window_ms back from now; disk_free is a floor. */
struct config_status {
	uint64_t heartbeat_warning_ms, heartbeat_critical_ms;
	uint64_t mailbox_warning_ms, mailbox_critical_ms;
	uint64_t unsent_warning_ms, unsent_critical_ms;
	unsigned failed_warning, failed_critical;
	unsigned quarantined_warning, quarantined_critical;
	uint64_t disk_free_warning, disk_free_critical;
	uint64_t window_ms;
};

struct config {
	char *path; /* the file this came from (NULL: defaults only) */
	struct config_imap imap;
	struct config_smtp smtp;
	struct config_gpg gpg;
	struct config_database database;
	struct config_game game;
	struct config_clock clock;
	struct config_templates templates;
	struct config_site site;
	struct config_log log;
	struct config_limits limits;
	struct config_source source;
	struct config_ratings ratings;
	struct config_bot bot;
	struct config_status status;
	/* The [ladder NAME] and [league NAME] sections, in file order. */
	struct config_ladder *ladders;
	size_t nladders;
	struct config_league *leagues;
	size_t nleagues;
	struct config_tournament *tournaments;
	size_t ntournaments;
};

/* What the command line may override before the whole is checked
 * (so `--maildir DIR` makes the [imap] keys optional). */
struct config_overrides {
	const char *maildir; /* non-NULL: source type maildir at this dir */
};

/* Messages from a failed load, each "FILE:LINE: text" or "FILE: text". */
struct config_errors {
	char **lines;
	size_t count;
};

/* Parse path into *cfg (which need not be initialised).  Returns 0 with
 * *cfg filled, or -1 with *cfg left empty (config_free-safe) and every
 * problem appended to errors.  Passwords read here are registered with
 * log_add_secret().  Free *cfg with config_free() and errors with
 * config_errors_free() in both cases. */
int config_load(const char *path, const struct config_overrides *ov,
		struct config *cfg, struct config_errors *errors);
/* Every key at its built-in default, nothing checked: for a tool that
 * reads one section and has no configuration file (`ashes status`).
 * Free with config_free(). */
void config_defaults_only(struct config *cfg);
/* Same, from text in memory; name is used in messages. */
int config_load_string(const char *name, const char *text,
		       const struct config_overrides *ov,
		       struct config *cfg, struct config_errors *errors);
/* Register cfg's passwords with log_add_secret() (config_load does; a
 * reload, after log_clear_secrets(), for the config it keeps). */
void config_log_secrets(const struct config *cfg);
/* Release everything cfg owns (passwords are wiped) and zero it. */
void config_free(struct config *cfg);
void config_errors_free(struct config_errors *errors);
/* All messages joined by newlines, into out. */
void config_errors_format(const struct config_errors *errors, struct buf *out);

/* Append the effective configuration to out, as a config file that would
 * load to the same values, with passwords shown as "********". */
void config_dump(const struct config *cfg, struct buf *out);

/* The ladder or league called name (exactly: names are lower case), or
 * NULL. */
const struct config_ladder *config_ladder_find(const struct config *cfg,
					       const char *name);
const struct config_league *config_league_find(const struct config *cfg,
					       const char *name);
const struct config_tournament *
config_tournament_find(const struct config *cfg, const char *name);

/* Value parsers, shared with the tests and the command line.  Each
 * returns 0, or -1 with a static reason in *error_r. */
int config_parse_duration(const char *s, uint64_t *ms_r, const char **error_r);
int config_parse_size(const char *s, uint64_t *bytes_r, const char **error_r);
int config_parse_bool(const char *s, bool *b_r, const char **error_r);
/* "YYYY-MM-DD" (1970 to 9999, a real day) as the epoch second of its UTC
 * midnight. */
int config_parse_date(const char *s, int64_t *t_r, const char **error_r);
/* Shortest exact spelling ("7d", "1h30m", "500ms", "0") into out. */
void config_format_duration(uint64_t ms, struct buf *out);
void config_format_size(uint64_t bytes, struct buf *out);
/* The UTC date of t, "YYYY-MM-DD", into out. */
void config_format_date(int64_t t, struct buf *out);

#endif
