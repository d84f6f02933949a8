/* admin_common.c -- what the operator's subcommands of `ashes` share
 * (admin.h): their options, the daemon's configuration and database,
 * the game service set up as the daemon sets it up, and the time they
 * act at.
 *
 * Every one takes --db PATH (before or after its name); without it,
 * $ASHES_DB, else the [database] path of the config file (--config FILE,
 * default CONFIG_DEFAULT_PATH, when it exists), else ADMIN_DEFAULT_DB.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "cli/admin.h"
#include "cli/cli.h"
#include "config/club_config.h"
#include "config/settings.h"
#include "render/template.h"
#include "server/server.h"
#include "store/store.h"
#include "util/buf.h"
#include "util/escape.h"

#define ADMIN_DEFAULT_DB ASHES_LOCALSTATEDIR "/lib/ashesd/ashesd.db"

int admin_usage(const char *text)
{
	fprintf(stderr, "usage: ashes %s\n", text);
	return CLI_EXIT_FAILURE;
}

int admin_parse(int argc, char **argv, struct admin_opts *o)
{
	static char *words[64];
	int n = 0;

	memset(o, 0, sizeof(*o));
	/* Given before the subcommand (main.c); after it, they win. */
	o->db = cli_db_file;
	o->config = cli_config_file;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(a, "--db") == 0 && val != NULL) {
			o->db = val;
			i++;
		} else if (strncmp(a, "--db=", 5) == 0) {
			o->db = a + 5;
		} else if (strcmp(a, "--config") == 0 && val != NULL) {
			o->config = val;
			i++;
		} else if (strcmp(a, "--all") == 0) {
			o->all = true;
		} else if (strcmp(a, "--retention") == 0) {
			o->retention = true;
		} else if (strcmp(a, "--vacuum") == 0) {
			o->vacuum = true;
		} else if (strcmp(a, "--status") == 0 && val != NULL) {
			o->status = val;
			i++;
		} else if (strcmp(a, "--limit") == 0 && val != NULL) {
			o->limit = atol(val);
			i++;
		} else if (strcmp(a, "--note") == 0 && val != NULL) {
			o->note = val;
			i++;
		} else if (strncmp(a, "--note=", 7) == 0) {
			o->note = a + 7;
		} else if (strcmp(a, "--language") == 0 && val != NULL) {
			o->language = val;
			i++;
		} else if (strncmp(a, "--language=", 11) == 0) {
			o->language = a + 11;
		} else if (a[0] == '-' && a[1] == '-') {
			fprintf(stderr, "ashes %s: unknown option %s\n", argv[0],
				a);
			return -1;
		} else if (n < 63) {
			words[n++] = argv[i];
		}
	}
	words[n] = NULL;
	o->argc = n;
	o->argv = words;
	return 0;
}

struct template_set *admin_language(struct template_set *ts,
				    const char *lang, const char *what)
{
	const char *langs[TEMPLATE_LANGUAGES_MAX];
	struct template_set *set = template_set_language(ts, lang);
	size_t n;

	if (set != NULL)
		return set;
	n = template_set_languages(ts, langs, TEMPLATE_LANGUAGES_MAX);
	fprintf(stderr, "ashes %s: no templates in language %s (there are:",
		what, lang);
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, " %s", langs[i]);
	fputs(")\n", stderr);
	return NULL;
}

bool admin_config(struct admin_opts *o, const char *hint)
{
	const char *conf = o->config != NULL ? o->config : CONFIG_DEFAULT_PATH;
	struct config_errors errors = { NULL, 0 };

	if (o->cfg_tried)
		return o->cfg_loaded;
	o->cfg_tried = true;
	if (o->config == NULL && access(conf, R_OK) != 0)
		return false;
	if (config_load(conf, NULL, &o->cfg, &errors) == 0) {
		o->cfg_loaded = true;
	} else {
		if (errors.count > 0)
			fprintf(stderr, "ashes: %s%s%s%s\n", errors.lines[0],
				hint != NULL ? " (" : "",
				hint != NULL ? hint : "",
				hint != NULL ? ")" : "");
		config_free(&o->cfg);
	}
	config_errors_free(&errors);
	return o->cfg_loaded;
}

/* Which database file: see the top of this file. */
const char *admin_db_path(struct admin_opts *o)
{
	const char *env = getenv("ASHES_DB");

	if (o->db != NULL)
		return o->db;
	if (env != NULL && env[0] != '\0')
		return env;
	if (admin_config(o, "use --db PATH") &&
	    o->cfg.database.path != NULL)
		return o->cfg.database.path; /* kept until admin_done() */
	return ADMIN_DEFAULT_DB;
}

int admin_open(struct admin_opts *o, bool no_migrate, struct store **st_r)
{
	struct store_options so;
	const char *path = admin_db_path(o), *error;

	memset(&so, 0, sizeof(so));
	so.no_migrate = no_migrate;
	if (store_open(path, &so, st_r, &error) < 0) {
		fprintf(stderr, "ashes: %s\n", error);
		return -1;
	}
	return 0;
}

int admin_server_open(struct admin_opts *o, struct store *st,
		      struct template_set **ts_r, struct server **srv_r,
		      const char **error_r)
{
	struct server_config cfg;
	int ret;

	server_config_default(&cfg);
	/* The daemon's own mapping: what the service decides by them (the
	 * clocks' reminders, our Message-IDs' domain) is the daemon's. */
	if (admin_config(o, NULL))
		settings_server(&o->cfg, &cfg);
	if (cfg.domain == NULL)
		cfg.domain = "localhost";
	/* The daemon reads [templates] dir first, then ASHES_TEMPLATES. */
	*ts_r = admin_config(o, NULL) && o->cfg.templates.dir != NULL ?
		template_set_new(o->cfg.templates.dir, cli_template_dir) :
		cli_templates();
	cfg.templates = *ts_r;
	ret = server_new(st, &cfg, srv_r, error_r);
	settings_server_done(&cfg);
	return ret;
}

int admin_service_run(struct admin_opts *o, const char *name,
		      admin_ask_fn *ask, const void *arg)
{
	struct store *st = NULL;
	struct template_set *ts = NULL;
	struct server *srv = NULL;
	struct buf out = BUF_INIT;
	const char *error;
	int rc = CLI_EXIT_FAILURE;

	if (admin_open(o, false, &st) < 0)
		goto out;
	if (admin_server_open(o, st, &ts, &srv, &error) < 0 ||
	    ask(srv, arg, &out, &error) < 0) {
		fprintf(stderr, "%s: %s\n", name, error);
		goto out;
	}
	admin_print_text(buf_str(&out));
	rc = CLI_EXIT_OK;
out:
	buf_free(&out);
	server_free(&srv);
	template_set_free(&ts);
	store_close(&st);
	return rc;
}

void admin_done(struct admin_opts *o)
{
	if (o->cfg_loaded)
		config_free(&o->cfg);
	o->cfg_loaded = false;
}

int admin_now(const char *cmd, int64_t *now_r)
{
	const char *env = getenv("ASHES_NOW");
	char *end;
	long long v;

	if (env == NULL || env[0] == '\0') {
		*now_r = (int64_t)time(NULL);
		return 0;
	}
	errno = 0;
	v = strtoll(env, &end, 10);
	if (errno != 0 || *end != '\0' || v < 0) {
		fprintf(stderr, "%s: ASHES_NOW is not a number of seconds: "
			"%s\n", cmd, env);
		return -1;
	}
	*now_r = (int64_t)v;
	return 0;
}

void admin_print_text(const char *text)
{
	struct buf b = BUF_INIT;

	escape_append(&b, text, strlen(text), ESCAPE_KEEP_LINES);
	fputs(buf_str(&b), stdout);
	buf_free(&b);
}
