/* cli_think.c -- `ashes think`: the bot's choice in a position, with the
 * candidates it weighed (visits and mean result) and its estimate of the
 * side to move's chance (the figure `analyse` prints, src/ai/analysis.c),
 * and the bot's options on the command line that `ashes play --vs-bot`
 * shares. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_ai.h"
#include "core/notation.h"

/* Candidates `ashes think` shows. */
#define THINK_TOP 5

/* Does opt (maybe `--name=value`) name the option `name`? */
static bool think_opt_is(const char *opt, const char *name)
{
	size_t n = strlen(name);

	return strncmp(opt, name, n) == 0 &&
		(opt[n] == '\0' || opt[n] == '=');
}

int cli_ai_number(const char *text, long long min, long long max,
		  long long *v_r)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(text, &end, 10);
	if (errno != 0 || end == text || *end != '\0' || v < min || v > max)
		return -1;
	*v_r = v;
	return 0;
}

/* A duration ("2s", "1500ms", "0.5s", "2") in milliseconds: 0, or -1. */
static int think_time(const char *text, int64_t *ms_r)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(text, &end);
	if (errno != 0 || end == text || v <= 0)
		return -1;
	if (strcmp(end, "ms") == 0)
		;
	else if (*end == '\0' || strcmp(end, "s") == 0)
		v *= 1000.0;
	else
		return -1;
	if (v < 1 || v > 3600e3)
		return -1;
	*ms_r = (int64_t)v;
	return 0;
}

int cli_ai_level(const char *name, const char *text, int *level_r)
{
	long long v;

	if (cli_ai_number(text, AI_LEVEL_MIN, AI_LEVEL_MAX, &v) < 0) {
		fprintf(stderr, "ashes %s: level %s: not a level (%d to %d)\n",
			name, text, AI_LEVEL_MIN, AI_LEVEL_MAX);
		return -1;
	}
	*level_r = (int)v;
	return 0;
}

/* cli_ai_options without the usage line. */
static int ai_options_parse(const char *name, const char *level_opt,
			    int *argc_r, char **argv,
			    const char *const *extra, const char **extra_r,
			    struct ai_options *opt_r)
{
	const char *level = NULL, *seed = NULL, *time = NULL, *playouts = NULL;
	int argc = *argc_r, i, kept = 1, level_n = AI_LEVEL_MAX;
	long long v;
	bool moves_only = false;

	for (i = 1; i < argc; i++) {
		const char *opt = argv[i], **slot = NULL, *val;
		size_t k;

		if (strcmp(opt, "--") == 0)
			moves_only = true;
		if (!moves_only && think_opt_is(opt, level_opt))
			slot = &level;
		else if (!moves_only && think_opt_is(opt, "--seed"))
			slot = &seed;
		else if (!moves_only && think_opt_is(opt, "--time"))
			slot = &time;
		else if (!moves_only && think_opt_is(opt, "--playouts"))
			slot = &playouts;
		for (k = 0; extra != NULL && extra[k] != NULL && slot == NULL &&
		     !moves_only; k++)
			if (think_opt_is(opt, extra[k]))
				slot = &extra_r[k];
		if (slot == NULL) {
			argv[kept++] = argv[i];
			continue;
		}
		val = strchr(opt, '=');
		if (val != NULL) {
			val++;
		} else if (i + 1 < argc) {
			val = argv[++i];
		} else {
			fprintf(stderr, "ashes %s: %s needs a value\n", name,
				opt);
			return -1;
		}
		*slot = val;
	}
	argv[kept] = NULL;
	*argc_r = kept;
	if (level != NULL && cli_ai_level(name, level, &level_n) < 0)
		return -1;
	ai_options_default(opt_r, level_n);
	if (seed != NULL) {
		if (cli_ai_number(seed, 0, INT64_MAX, &v) < 0) {
			fprintf(stderr, "ashes %s: --seed %s: not a number\n",
				name, seed);
			return -1;
		}
		opt_r->seed = (uint64_t)v;
	}
	if (playouts != NULL) {
		if (cli_ai_number(playouts, 1, 100000000, &v) < 0) {
			fprintf(stderr, "ashes %s: --playouts %s: not a number "
				"of playouts\n", name, playouts);
			return -1;
		}
		opt_r->max_playouts = (long)v;
		opt_r->time_ms = -1; /* the playouts alone, unless --time */
	}
	if (time != NULL && think_time(time, &opt_r->time_ms) < 0) {
		fprintf(stderr, "ashes %s: --time %s: not a duration (2s, "
			"1500ms)\n", name, time);
		return -1;
	}
	return 0;
}

int cli_ai_options(const char *name, const char *usage,
		   const char *level_opt, int *argc_r, char **argv,
		   const char *const *extra, const char **extra_r,
		   struct ai_options *opt_r)
{
	if (ai_options_parse(name, level_opt, argc_r, argv, extra, extra_r,
			     opt_r) < 0) {
		fputs(usage, stderr);
		return -1;
	}
	return 0;
}

static const char think_usage[] =
	"usage: ashes think [--size N] [--variant OPT]... [--level L] "
	"[--seed S] [--time T] [--playouts P] [MOVE]...\n";

int cli_think(int argc, char **argv)
{
	struct cli_game g;
	struct ai_options opt;
	struct ai_candidate top[THINK_TOP];
	struct ai_estimate est;
	struct core_move move;
	enum core_error err;
	char text[CORE_MOVE_TEXT_MAX];
	size_t ntop, k;
	long playouts;
	int rc;

	if (cli_ai_options("think", think_usage, "--level", &argc, argv, NULL,
			   NULL, &opt) < 0)
		return CLI_EXIT_FAILURE;
	rc = cli_game_setup(&g, argc, argv, 0);
	if (rc != CLI_EXIT_OK)
		goto out;
	if (ai_choose(&g.rec.pos, &opt, &move, top, THINK_TOP, &ntop,
		      &err) < 0) {
		fprintf(stderr, "ashes think: %s\n",
			err == CORE_ERR_GAME_OVER ? "the game is over" :
			"no legal move: the rules pass for the side to move");
		rc = CLI_EXIT_FAILURE;
		goto out;
	}
	printf("move: %s\n", notation_format_move(g.rec.pos.geom, &move,
						  text));
	printf("candidates (%s to move, level %d):\n",
	       core_color_name((enum core_color)g.rec.pos.to_move), opt.level);
	for (k = 0; k < ntop; k++)
		printf("  %-12s visits %7ld  value %.3f\n",
		       notation_format_move(g.rec.pos.geom, &top[k].move, text),
		       top[k].visits, top[k].value);
	/* The figure an analysis prints for this position (ai.h): at
	 * --playouts, or the analysis's own budget, and --seed. */
	playouts = opt.max_playouts > 0 && opt.time_ms < 0 ?
		opt.max_playouts : AI_ANALYSIS_PLAYOUTS;
	if (ai_estimate(&g.rec.pos, playouts, opt.seed, &est, &err) < 0) {
		fprintf(stderr, "ashes think: %s\n", core_error_name(err));
		rc = CLI_EXIT_FAILURE;
		goto out;
	}
	printf("chance: %.3f (%s to move; %ld playouts, seed %llu)\n",
	       est.chance, core_color_name((enum core_color)g.rec.pos.to_move),
	       playouts, (unsigned long long)opt.seed);
out:
	record_free(&g.rec);
	return rc;
}
