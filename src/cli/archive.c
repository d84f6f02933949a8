/* archive.c -- `ashes archive export|verify|prune`: a game's archive
 * (src/archive/archive.h) made from the daemon's database and keyring,
 * checked by anyone without either, and the database pruned of ended
 * games whose archives are safe.
 *
 *   ashes archive export GAME [-o PATH] [--full]   a folder, or PATH.tar.gz
 *   ashes archive export --all DIR [--full]  every game changed since the
 *                                            last run, DIR/game-N.tar.gz
 *   ashes archive export --event NAME DIR [--full]  an event: its games'
 *                                            archives, its log, its
 *                                            standings (archive_event.h)
 *   (a public copy unless --full: see archive_source.public_copy)
 *   ashes archive verify PATH [--daemon-key FPR]  (a game's or an
 *                                            event's)
 *   ashes archive prune --before DATE --archive DIR [--dry-run]
 *
 * export and prune read the daemon's configuration (--config, as the
 * other administration commands) for its database, its keyring ([gpg]
 * home), its signing key and its replay window; verify reads nothing but
 * the archive.
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "archive/archive.h"
#include "archive/archive_event.h"
#include "cli/admin.h"
#include "cli/cli.h"
#include "config/settings.h"
#include "core/record2.h"
#include "mail/inbound.h"
#include "mail/pgp.h"
#include "render/template.h"
#include "server/tournament_log.h"
#include "store/store.h"

#define ARCHIVE_USAGE \
	"archive export GAME [-o PATH] [--full] |\n" \
	"       archive export --all DIR [--full] |\n" \
	"       archive export --event NAME DIR [--full] |\n" \
	"       archive verify PATH [--daemon-key FPR] |\n" \
	"       archive prune --before DATE --archive DIR [--dry-run]\n" \
	"       (export and prune: [--db PATH] [--config FILE])"

/* The options of `ashes archive`. */
struct archive_cli {
	const char *words[8];
	int nwords;
	const char *out;        /* -o PATH */
	const char *all;        /* --all DIR */
	const char *event;      /* --event NAME */
	const char *daemon_key; /* --daemon-key FPR */
	const char *before;     /* --before DATE */
	const char *dir;        /* --archive DIR */
	bool dry_run;
	bool full;              /* --full: the players' own copy */
	struct admin_opts admin;
};

static int archive_usage(void)
{
	return admin_usage(ARCHIVE_USAGE);
}

/* argv[1] is the action; -1 after saying why on stderr. */
static int archive_parse(int argc, char **argv, struct archive_cli *a)
{
	static const struct {
		const char *name;
		size_t off;
	} valued[] = {
		{ "-o", offsetof(struct archive_cli, out) },
		{ "--all", offsetof(struct archive_cli, all) },
		{ "--event", offsetof(struct archive_cli, event) },
		{ "--daemon-key", offsetof(struct archive_cli, daemon_key) },
		{ "--before", offsetof(struct archive_cli, before) },
		{ "--archive", offsetof(struct archive_cli, dir) },
		{ "--db", offsetof(struct archive_cli, admin.db) },
		{ "--config", offsetof(struct archive_cli, admin.config) },
	};

	memset(a, 0, sizeof(*a));
	a->admin.db = cli_db_file;
	a->admin.config = cli_config_file;
	for (int i = 1; i < argc; i++) {
		size_t k;

		for (k = 0; k < sizeof(valued) / sizeof(valued[0]); k++)
			if (strcmp(argv[i], valued[k].name) == 0)
				break;
		if (k < sizeof(valued) / sizeof(valued[0])) {
			if (i + 1 >= argc) {
				fprintf(stderr, "ashes archive: %s needs a "
					"value\n", argv[i]);
				return -1;
			}
			*(const char **)((char *)a + valued[k].off) =
				argv[++i];
		} else if (strcmp(argv[i], "--dry-run") == 0) {
			a->dry_run = true;
		} else if (strcmp(argv[i], "--full") == 0) {
			a->full = true;
		} else if (argv[i][0] == '-' && argv[i][1] != '\0') {
			fprintf(stderr, "ashes archive: unknown option %s\n",
				argv[i]);
			return -1;
		} else if (a->nwords < 8) {
			a->words[a->nwords++] = argv[i];
		}
	}
	return 0;
}

/* The daemon's side of an archive: its configuration, database and
 * keyring.  -1 after saying why on stderr. */
struct archive_daemon {
	struct store *store;
	struct pgp_ctx *pgp;
	struct template_set *templates;
	char site[256];
	struct archive_source src;
};

static int archive_daemon_open(struct archive_cli *a, const char *cmd,
			       struct archive_daemon *d)
{
	const struct config *cfg = &a->admin.cfg;
	struct inbound_options in;
	const char *addrs[2], *error;
	int64_t now;

	memset(d, 0, sizeof(*d));
	if (admin_now(cmd, &now) < 0)
		return -1;
	if (!admin_config(&a->admin, "give --config FILE")) {
		fprintf(stderr, "%s: needs the daemon's configuration "
			"(--config FILE) for its keyring\n", cmd);
		return -1;
	}
	if (cfg->gpg.home == NULL) {
		fprintf(stderr, "%s: the configuration names no [gpg] home\n",
			cmd);
		return -1;
	}
	if (admin_open(&a->admin, false, &d->store) < 0)
		return -1;
	if (pgp_ctx_new(cfg->gpg.home, &d->pgp, &error) < 0) {
		fprintf(stderr, "%s: %s: %s\n", cmd, cfg->gpg.home, error);
		return -1;
	}
	d->templates = cfg->templates.dir != NULL ?
		template_set_new(cfg->templates.dir, cli_template_dir) :
		cli_templates();
	settings_site(cfg, d->site, sizeof(d->site));
	settings_inbound(cfg, addrs, &in);
	d->src.store = d->store;
	d->src.pgp = d->pgp;
	d->src.signing_key = cfg->gpg.signing_key;
	d->src.site = d->site[0] != '\0' ? d->site : NULL;
	d->src.draw_offers = cfg->game.variant.draw_offers;
	d->src.max_age = in.max_age > 0 ? in.max_age :
			 INBOUND_DEFAULT_MAX_AGE;
	d->src.max_future = in.max_future > 0 ? in.max_future :
			    INBOUND_DEFAULT_MAX_FUTURE;
	d->src.now = now;
	d->src.templates = d->templates;
	return 0;
}

static void archive_daemon_close(struct archive_daemon *d)
{
	pgp_ctx_free(&d->pgp);
	store_close(&d->store);
	template_set_free(&d->templates);
}

/* A failure of export: the missing signing key gets the command that
 * makes one. */
static void archive_export_error(const struct archive_cli *a,
				 const char *cmd, const char *error)
{
	fprintf(stderr, "%s: %s\n", cmd, error);
	if (strstr(error, "no key to sign") != NULL)
		fprintf(stderr, "%s: make the daemon a signing key, as its "
			"user:\n  gpg --homedir %s --batch --passphrase '' "
			"--quick-gen-key 'ashesd <%s>' ed25519 sign never\n"
			"and publish its fingerprint (see ashes(1), "
			"ARCHIVES)\n", cmd, a->admin.cfg.gpg.home,
			a->admin.cfg.smtp.from != NULL ?
			a->admin.cfg.smtp.from : "ADDRESS");
}

/* export --event NAME DIR. */
static int archive_export_event_cmd(struct archive_cli *a)
{
	const char *cmd = "ashes archive export --event", *error;
	struct archive_daemon d;
	struct archive_event_summary sum;
	struct tournament_log log;
	int ret = CLI_EXIT_FAILURE;

	memset(&log, 0, sizeof(log));
	if (a->nwords != 2 || a->all != NULL || a->out != NULL)
		return archive_usage();
	if (archive_daemon_open(a, cmd, &d) < 0)
		goto out;
	d.src.public_copy = !a->full;
	if (admin_tournament_log(&a->admin, d.store, cmd, a->event,
				 &log) < 0)
		goto out;
	if (archive_event_export(&d.src, &log, a->words[1], stdout, &sum,
				 &error) < 0) {
		archive_export_error(a, cmd, error);
		goto out;
	}
	printf("%s: event %s, %zu game(s), %zu log entries, %zu files; "
	       "MANIFEST signed by %s%s\n", a->words[1], a->event, sum.games,
	       sum.entries, sum.files, sum.signer,
	       a->full ? "" : "; public copies");
	ret = CLI_EXIT_OK;
out:
	tournament_log_free(&log);
	archive_daemon_close(&d);
	admin_done(&a->admin);
	return ret;
}

static int archive_export_cmd(struct archive_cli *a)
{
	const char *cmd = "ashes archive export", *error, *path;
	struct archive_daemon d;
	struct archive_summary sum;
	char def[64], *end;
	long long game = 0;
	size_t n = 0;
	int ret = CLI_EXIT_FAILURE;

	if (a->event != NULL)
		return archive_export_event_cmd(a);
	if (a->all != NULL ? a->nwords != 1 || a->out != NULL :
	    a->nwords != 2)
		return archive_usage();
	if (a->all == NULL) {
		errno = 0;
		game = strtoll(a->words[1], &end, 10);
		if (errno != 0 || *end != '\0' || game <= 0) {
			fprintf(stderr, "%s: not a game number: %s\n", cmd,
				a->words[1]);
			return CLI_EXIT_FAILURE;
		}
	}
	if (archive_daemon_open(a, cmd, &d) < 0)
		goto out;
	/* What leaves the club is the public copy, unless the operator
	 * says it is for the players themselves. */
	d.src.public_copy = !a->full;
	if (a->all != NULL) {
		if (archive_export_all(&d.src, a->all, stdout, &n,
				       &error) < 0) {
			archive_export_error(a, cmd, error);
			goto out;
		}
		printf("%s: %zu game(s) exported\n", a->all, n);
		ret = CLI_EXIT_OK;
		goto out;
	}
	snprintf(def, sizeof(def), "game-%lld", game);
	path = a->out != NULL ? a->out : def;
	if (archive_export(&d.src, game, path, &sum, &error) < 0) {
		archive_export_error(a, cmd, error);
		goto out;
	}
	printf("%s: game %lld, %zu plies, %zu mails, %zu files; MANIFEST "
	       "signed by %s%s\n", path, game, sum.plies, sum.mails,
	       sum.files, sum.signer, a->full ? "" : "; a public copy");
	ret = CLI_EXIT_OK;
out:
	archive_daemon_close(&d);
	admin_done(&a->admin);
	return ret;
}

/* verify of an event's archive (archive_event.h). */
static int archive_verify_event_cmd(struct archive_cli *a,
				    const struct archive_verify_opts *opts)
{
	const char *error;
	size_t n = 0;
	int r;

	r = archive_event_verify(a->words[1], opts, stdout, &n, &error);
	fflush(stdout);
	if (r < 0) {
		fprintf(stderr, "ashes archive verify: %s: %s\n", a->words[1],
			error);
		return CLI_EXIT_FAILURE;
	}
	if (r == 1) {
		fprintf(stderr, "ashes archive verify: %s: %zu "
			"discrepanc%s\n", a->words[1], n, n == 1 ? "y" : "ies");
		return CLI_EXIT_INVALID;
	}
	if (r == ARCHIVE_VERIFY_UNPINNED) {
		fprintf(stderr, "ashes archive verify: %s: not verified "
			"against the club's key (no --daemon-key)\n",
			a->words[1]);
		return CLI_EXIT_UNPINNED;
	}
	return CLI_EXIT_OK;
}

static int archive_verify_cmd(struct archive_cli *a)
{
	struct archive_verify_opts opts = { a->daemon_key };
	struct archive_verdict v;
	const char *error;
	int r;

	if (a->nwords != 2)
		return archive_usage();
	if (archive_event_dir(a->words[1]))
		return archive_verify_event_cmd(a, &opts);
	r = archive_verify(a->words[1], &opts, stdout, &v, &error);
	fflush(stdout);
	if (r < 0) {
		fprintf(stderr, "ashes archive verify: %s: %s\n", a->words[1],
			error);
		return CLI_EXIT_FAILURE;
	}
	if (r == 1) {
		fprintf(stderr, "ashes archive verify: %s: %s\n", a->words[1],
			archive_reason_name(v.reason));
		return CLI_EXIT_INVALID;
	}
	if (r == ARCHIVE_VERIFY_UNPINNED) {
		fprintf(stderr, "ashes archive verify: %s: not verified against "
			"the club's key (no --daemon-key): the plies are signed "
			"by the keys the record names, the rest is only the "
			"word of key %s\n", a->words[1], v.signer);
		return CLI_EXIT_UNPINNED;
	}
	return CLI_EXIT_OK;
}

/* DATE: YYYY-MM-DD (its first second, UTC) or YYYY-MM-DDTHH:MM:SSZ. */
static int archive_date(const char *s, int64_t *t_r)
{
	char full[RECORD2_TIME_LEN + 1];

	if (strlen(s) == 10) {
		snprintf(full, sizeof(full), "%sT00:00:00Z", s);
		s = full;
	}
	return record2_time_parse(s, strlen(s), t_r);
}

static int archive_prune_cmd(struct archive_cli *a)
{
	const char *cmd = "ashes archive prune", *error;
	struct archive_daemon d;
	size_t deleted = 0, kept = 0;
	int64_t before;
	int ret = CLI_EXIT_FAILURE;

	if (a->nwords != 1 || a->before == NULL || a->dir == NULL)
		return archive_usage();
	if (archive_date(a->before, &before) < 0) {
		fprintf(stderr, "%s: not a date (YYYY-MM-DD, or "
			"YYYY-MM-DDTHH:MM:SSZ): %s\n", cmd, a->before);
		return CLI_EXIT_FAILURE;
	}
	if (archive_daemon_open(a, cmd, &d) < 0)
		goto out;
	if (archive_prune(&d.src, a->dir, before, a->dry_run, stdout,
			  &deleted, &kept, &error) < 0) {
		fprintf(stderr, "%s: %s\n", cmd, error);
		goto out;
	}
	printf("%zu game(s) %s, %zu kept\n", deleted,
	       a->dry_run ? "would be deleted" : "deleted", kept);
	ret = CLI_EXIT_OK;
out:
	archive_daemon_close(&d);
	admin_done(&a->admin);
	return ret;
}

int cli_archive(int argc, char **argv)
{
	struct archive_cli a;

	if (archive_parse(argc, argv, &a) < 0 || a.nwords < 1)
		return archive_usage();
	if (strcmp(a.words[0], "export") == 0)
		return archive_export_cmd(&a);
	if (strcmp(a.words[0], "verify") == 0)
		return archive_verify_cmd(&a);
	if (strcmp(a.words[0], "prune") == 0)
		return archive_prune_cmd(&a);
	fprintf(stderr, "ashes archive: no action %s\n", a.words[0]);
	return archive_usage();
}
