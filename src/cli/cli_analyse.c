/* cli_analyse.c -- `ashes analyse GAME` (and `analyze`): the bot's
 * analysis of a game in the daemon's database, the text the mail of
 * `analyse GAME` has (server_analysis_show, src/ai/analysis.c), at the
 * same playouts and seed unless --playouts and --seed say otherwise. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ai/ai.h"
#include "cli/admin.h"
#include "cli/cli.h"
#include "cli/cli_ai.h"
#include "server/server.h"
#include "util/buf.h"

#define ANALYSE_USAGE "analyse GAME [--playouts P] [--seed S]   [--db PATH]"

struct analyse_ask {
	int64_t game_id, now;
	long playouts;
	uint64_t seed;
};

static int analyse_ask(struct server *srv, const void *arg, struct buf *out,
		       const char **error_r)
{
	const struct analyse_ask *a = arg;

	return server_analysis_show(srv, a->game_id, a->playouts, a->seed,
				    a->now, out, error_r);
}

/* --playouts P and --seed S taken out of argv (the rest kept, in order,
 * for admin_parse): 0, or -1 after saying why. */
static int analyse_options(int *argc_r, char **argv, struct analyse_ask *a)
{
	int argc = *argc_r, kept = 1;
	long long v;

	for (int i = 1; i < argc; i++) {
		const char *opt = argv[i], *val = NULL;
		bool playouts = strncmp(opt, "--playouts", 10) == 0 &&
				(opt[10] == '\0' || opt[10] == '=');
		bool seed = strncmp(opt, "--seed", 6) == 0 &&
			    (opt[6] == '\0' || opt[6] == '=');

		if (!playouts && !seed) {
			argv[kept++] = argv[i];
			continue;
		}
		val = strchr(opt, '=');
		if (val != NULL)
			val++;
		else if (i + 1 < argc)
			val = argv[++i];
		if (val == NULL || (playouts ?
		    cli_ai_number(val, 1, 100000000, &v) :
		    cli_ai_number(val, 0, INT64_MAX, &v)) < 0) {
			fprintf(stderr, "ashes analyse: %s: %s\n", opt,
				playouts ? "not a number of playouts" :
				"not a seed");
			return -1;
		}
		if (playouts)
			a->playouts = (long)v;
		else
			a->seed = (uint64_t)v;
	}
	argv[kept] = NULL;
	*argc_r = kept;
	return 0;
}

int cli_analyse(int argc, char **argv)
{
	struct analyse_ask a = { 0, 0, AI_ANALYSIS_PLAYOUTS, AI_ANALYSIS_SEED };
	struct admin_opts o;
	char *end;
	int rc = CLI_EXIT_FAILURE;

	if (analyse_options(&argc, argv, &a) < 0)
		return admin_usage(ANALYSE_USAGE);
	if (admin_parse(argc, argv, &o) < 0 || o.argc != 1) {
		rc = admin_usage(ANALYSE_USAGE);
		goto out;
	}
	a.game_id = strtoll(o.argv[0][0] == '#' ? o.argv[0] + 1 : o.argv[0],
			    &end, 10);
	if (*end != '\0' || a.game_id <= 0) {
		fprintf(stderr, "ashes analyse: not a game number: %s\n",
			o.argv[0]);
		goto out;
	}
	if (admin_now("ashes analyse", &a.now) == 0)
		rc = admin_service_run(&o, "ashes analyse", analyse_ask, &a);
out:
	admin_done(&o);
	return rc;
}
