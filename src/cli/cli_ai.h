/* cli_ai.h -- what `ashes think` and `ashes play --vs-bot` share: the
 * bot's options on the command line (src/cli/cli_think.c). */
#ifndef ASHES_CLI_AI_H
#define ASHES_CLI_AI_H

#include <stdbool.h>

#include "ai/ai.h"

/* The bot's options taken out of argv: the level (level_opt: "--level"
 * for think, "--vs-bot" for play; level 5 if not given), --seed S, --time
 * T (2s, 1500ms, 0.5s; a bare number is seconds), --playouts P, and those
 * named in `extra` (NULL-terminated, each taking a value, e.g. "--as")
 * into extra_r[] in the same order.  The other words are
 * kept, in order, in argv (argc_r says how many), for cli_game_setup().
 * opt_r gets the level's defaults with the options applied; --playouts
 * without --time bounds by playouts alone (repeatable output).  0, or
 * -1 after saying why and then usage (the command's usage line) on
 * stderr (name: the command, for messages). */
int cli_ai_options(const char *name, const char *usage,
		   const char *level_opt, int *argc_r, char **argv,
		   const char *const *extra, const char **extra_r,
		   struct ai_options *opt_r);

/* A whole number in min .. max from text (as --seed and --playouts
 * take it): 0, or -1. */
int cli_ai_number(const char *text, long long min, long long max,
		  long long *v_r);

/* A level from its text (1..5): 0, or -1 after saying why on stderr. */
int cli_ai_level(const char *name, const char *text, int *level_r);

#endif
