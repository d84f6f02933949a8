/* admin_account.c -- the operator's part of a player's account: `ashes
 * player delete NAME` (as `delete me CODE` deletes, by the service:
 * src/server/account.c) and `ashes player export NAME [FILE]` (the JSON
 * `export me` mails, src/archive/archive_player.h: the keys' armour from
 * the daemon's keyring when the configuration names one). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/archive_player.h"
#include "cli/admin.h"
#include "cli/cli.h"
#include "config/settings.h"
#include "mail/pgp.h"
#include "server/server.h"
#include "store/store.h"
#include "util/buf.h"

struct delete_cmd {
	const char *name;
	int64_t now;
};

static int delete_ask(struct server *srv, const void *arg, struct buf *out,
		      const char **error_r)
{
	const struct delete_cmd *cmd = arg;

	return server_player_delete(srv, cmd->name, cmd->now, out, error_r);
}

int admin_player_delete(struct admin_opts *o)
{
	struct delete_cmd cmd;

	/* o->argv: "delete" NAME */
	if (o->argc != 2)
		return admin_usage("player delete NAME [--db PATH] "
				   "[--config FILE]");
	cmd.name = o->argv[1];
	if (admin_now("ashes player delete", &cmd.now) < 0)
		return CLI_EXIT_FAILURE;
	return admin_service_run(o, "ashes player delete", delete_ask, &cmd);
}

int admin_player_export(struct admin_opts *o)
{
	static const char *const cmd = "ashes player export";
	struct store *st = NULL;
	struct store_player *p = NULL;
	struct pgp_ctx *pgp = NULL;
	struct buf json = BUF_INIT;
	const char *error, *path;
	char site[256];
	int64_t now;
	FILE *f = NULL;
	int rc = CLI_EXIT_FAILURE, r;

	/* o->argv: "export" NAME [FILE] */
	if (o->argc != 2 && o->argc != 3)
		return admin_usage("player export NAME [FILE] [--db PATH] "
				   "[--config FILE]");
	path = o->argc == 3 ? o->argv[2] : NULL;
	if (admin_now(cmd, &now) < 0 || admin_open(o, false, &st) < 0)
		goto out;
	r = store_player_by_name(st, o->argv[1], &p, &error);
	if (r != 1) {
		fprintf(stderr, "%s: %s\n", cmd, r == 0 ? "no such player" :
			error);
		goto out;
	}
	site[0] = '\0';
	if (admin_config(o, NULL)) {
		settings_site(&o->cfg, site, sizeof(site));
		if (o->cfg.gpg.home != NULL &&
		    pgp_ctx_new(o->cfg.gpg.home, &pgp, &error) < 0) {
			fprintf(stderr, "%s: %s: %s\n", cmd, o->cfg.gpg.home,
				error);
			goto out;
		}
	}
	if (archive_player_export(st, pgp, p->id, site[0] ? site : NULL, now,
				  &json, &error) < 0) {
		fprintf(stderr, "%s: %s\n", cmd, error);
		goto out;
	}
	f = path != NULL ? fopen(path, "wx") : stdout;
	if (f == NULL) {
		perror(path);
		goto out;
	}
	if (fwrite(json.data, 1, json.len, f) != json.len ||
	    (path != NULL ? fclose(f) : fflush(f)) != 0) {
		perror(path != NULL ? path : "stdout");
		f = NULL;
		goto out;
	}
	f = NULL;
	rc = CLI_EXIT_OK;
out:
	if (f != NULL && f != stdout)
		fclose(f);
	buf_free(&json);
	pgp_ctx_free(&pgp);
	store_player_free(&p);
	store_close(&st);
	return rc;
}
