/* admin.h -- what the operator's subcommands of `ashes` (admin.c,
 * admin_clock.c, admin_club.c) share: their options, the daemon's
 * configuration and database, the game service set up as the daemon sets
 * it up, and the time they act at.  Internal to src/cli.
 */
#ifndef ASHES_CLI_ADMIN_H
#define ASHES_CLI_ADMIN_H

#include <stdbool.h>
#include <stdint.h>

#include "config/club_config.h"

struct buf;
struct tournament_log;
struct server;
struct store;
struct template_set;

/* Options every admin subcommand shares, parsed out of argv. */
struct admin_opts {
	const char *db;
	const char *config;
	int argc;             /* what is left: the words after the name */
	char **argv;
	bool all;
	const char *status;
	long limit;
	const char *note;     /* --note TEXT (game adjust) */
	bool retention;       /* --retention (db prune) */
	bool vacuum;          /* --vacuum (db prune) */
	const char *language; /* --language L (site) */
	/* The configuration file, once read (admin_config()). */
	struct config cfg;
	bool cfg_tried, cfg_loaded;
};

/* The set of ts's language lang (template_set_language()); NULL after
 * saying on stderr, as "ashes WHAT: ...", which languages ts has. */
struct template_set *admin_language(struct template_set *ts,
				    const char *lang, const char *what);

/* Print "usage: ashes TEXT" on stderr; CLI_EXIT_FAILURE. */
int admin_usage(const char *text);

/* Split argv (argv[0]: the subcommand's name) into options and words.
 * -1 after saying so on stderr for an unknown option. */
int admin_parse(int argc, char **argv, struct admin_opts *o);

/* The configuration file (--config FILE; else CONFIG_DEFAULT_PATH when it
 * exists), read once: true if it was read into o->cfg.  A file that does
 * not load counts as none, its first problem said on stderr (with hint,
 * if not NULL, in brackets) the first time. */
bool admin_config(struct admin_opts *o, const char *hint);

/* Which database file (see the top of admin_common.c): --db, $ASHES_DB,
 * the config's [database] path, else the default.  Owned by o. */
const char *admin_db_path(struct admin_opts *o);

/* Open the database (see the top of admin.c for which file); no_migrate:
 * leave its schema as it is.  -1 after saying why on stderr. */
int admin_open(struct admin_opts *o, bool no_migrate, struct store **st_r);

/* `ashes db backup FILE` and `ashes db restore FILE` (admin_backup.c): a
 * CLI exit status. */
int admin_db_backup(struct admin_opts *o, const char *file);
int admin_db_restore(struct admin_opts *o, const char *file);

/* The game service over st as the daemon would set it up: the Message-ID
 * domain, our address, the game defaults and the template folder of the
 * configuration file (without one: domain "localhost", the templates of
 * --templates / ASHES_TEMPLATES).  -1 with *error_r.  Free *srv_r with
 * server_free() before *ts_r with template_set_free() (both may be set
 * on failure). */
int admin_server_open(struct admin_opts *o, struct store *st,
		      struct template_set **ts_r, struct server **srv_r,
		      const char **error_r);

/* What admin_service_run() asks the service: 0 with the answer in out,
 * or -1 with *error_r. */
typedef int admin_ask_fn(struct server *srv, const void *arg,
			 struct buf *out, const char **error_r);
/* Open the database and the service (admin_open, admin_server_open), ask
 * it, print its answer (admin_print_text): a CLI exit status, after
 * "name: why" on stderr on failure. */
int admin_service_run(struct admin_opts *o, const char *name,
		      admin_ask_fn *ask, const void *arg);

/* Release what admin_parse() and admin_config() took. */
void admin_done(struct admin_opts *o);

/* Now, in epoch seconds: time(NULL), unless the environment variable
 * ASHES_NOW holds a number of seconds (the tests set it).  -1 after
 * saying so on stderr, naming cmd ("ashes game adjust"), if ASHES_NOW is
 * set to anything else. */
int admin_now(const char *cmd, int64_t *now_r);

/* `ashes game adjust ID DURATION [white|black] [--note TEXT]` with
 * o's words from "adjust" on (admin_clock.c); a CLI exit status. */
int admin_game_adjust(struct admin_opts *o);

/* `ashes player delete NAME` and `ashes player export NAME [FILE]`
 * (admin_account.c), o->argv[0] the word "delete" or "export": a CLI exit
 * status. */
int admin_player_delete(struct admin_opts *o);
int admin_player_export(struct admin_opts *o);

/* `ashes db prune --retention [--vacuum]` with o's words from "prune"
 * on (admin_retention.c); a CLI exit status. */
int admin_db_prune(struct admin_opts *o);

/* The log of event name (admin_tournament.c): the rules of its
 * [tournament NAME] section of the configuration, its entries, the
 * players' names and its stored games, into *log (the caller frees it
 * with tournament_log_free).  -1 after saying why on stderr, naming cmd
 * ("ashes tournament show"). */
int admin_tournament_log(struct admin_opts *o, struct store *st,
			 const char *cmd, const char *name,
			 struct tournament_log *log);
/* Print a text the service or the store made (it may hold what players
 * and strangers wrote: notes, subjects, Message-IDs) to stdout, every
 * control character but its own newlines and tabs escaped
 * (util/escape.h), so that nothing in it acts on the terminal. */
void admin_print_text(const char *text);

#endif
