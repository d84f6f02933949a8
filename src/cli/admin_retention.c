/* admin_retention.c -- `ashes db prune --retention [--vacuum]`: the
 * [retention] rules of the configuration (server/retention.h) applied at
 * once, batch after batch until nothing is left, as the daemon applies
 * them between mails; what was dropped and the database's bytes in use
 * before and after printed.  --vacuum gives the freed pages back to the
 * file system.  Now is ASHES_NOW when set (admin.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli/admin.h"
#include "cli/cli.h"
#include "config/club_config.h"
#include "server/retention.h"
#include "store/store.h"
#include "store/store_prune.h"

/* The passes at most: each handles a batch of every rule, so this is
 * far more rows than a club holds; only a bug loops this long. */
#define PRUNE_MAX_PASSES 1000000

/* [retention] of the configuration file, else of the defaults. */
static int prune_limits(struct admin_opts *o, struct retention_limits *lim)
{
	const struct config_overrides ov = { .maildir = "/" };
	struct config_errors errors = { NULL, 0 };
	struct config def;
	const struct config_retention *r;
	bool own = false;

	if (admin_config(o, "use --config FILE"))
		r = &o->cfg.retention;
	/* Only [retention] is read of it: the rest what a file needs. */
	else if (config_load_string("(defaults)", "[smtp]\nfrom = "
				    "ashes@localhost\n", &ov, &def,
				    &errors) == 0) {
		r = &def.retention;
		own = true;
	} else {
		fprintf(stderr, "ashes db prune: %s\n", errors.count > 0 ?
			errors.lines[0] : "no configuration");
		config_errors_free(&errors);
		return -1;
	}
	lim->sent_mail = (int64_t)(r->sent_mail_ms / 1000);
	lim->refused_mail = (int64_t)(r->refused_mail_ms / 1000);
	lim->raw_mail = (int64_t)(r->raw_mail_ms / 1000);
	if (own)
		config_free(&def);
	config_errors_free(&errors);
	return 0;
}

int admin_db_prune(struct admin_opts *o)
{
	const char *cmd = "ashes db prune", *error = NULL;
	struct retention_limits lim;
	struct retention_report r;
	struct retention_cursor cur = { 0 };
	struct store *st = NULL;
	int64_t now = 0, before = 0, after = 0;
	int rc = CLI_EXIT_FAILURE, passes = 0;

	if (!o->retention || o->argc != 1)
		return admin_usage("db prune --retention [--vacuum] "
				   "[--db PATH] [--config FILE]");
	if (prune_limits(o, &lim) < 0 || admin_now(cmd, &now) < 0 ||
	    admin_open(o, false, &st) < 0)
		goto out;
	memset(&r, 0, sizeof(r));
	if (store_bytes_used(st, &before, &error) < 0)
		goto fail;
	do {
		r.more = false;
		if (retention_run(st, &lim, now, 0, &cur, &r, &error) < 0)
			goto fail;
	} while (r.more && ++passes < PRUNE_MAX_PASSES);
	if ((o->vacuum && store_vacuum(st, &error) < 0) ||
	    store_bytes_used(st, &after, &error) < 0)
		goto fail;
	printf("sent mails: %" PRId64 " kept their text, dropped their html "
	       "and pictures (%" PRId64 " bytes)\n", r.sent_rows, r.sent_bytes);
	printf("refused, ignored and duplicate mails: %" PRId64 " dropped "
	       "their bytes (%" PRId64 " bytes)\n", r.refused_rows,
	       r.refused_bytes);
	printf("mails of ended games: %" PRId64 " reduced to their signed "
	       "parts (%" PRId64 " bytes less)\n", r.reduced_rows,
	       r.reduced_bytes);
	if (r.unreducible > 0)
		printf("left as they were: %" PRId64 " (%s)\n", r.unreducible,
		       r.unreducible_why != NULL ? r.unreducible_why : "?");
	printf("database: %" PRId64 " bytes in use before, %" PRId64
	       " after%s\n", before, after, o->vacuum ? " (vacuumed)" : "");
	rc = CLI_EXIT_OK;
	goto out;
fail:
	fprintf(stderr, "%s: %s\n", cmd, error != NULL ? error : "failed");
out:
	store_close(&st);
	return rc;
}
