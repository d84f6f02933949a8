/* main.c -- `ashes`: local play, inspection and administration.  Reads
 * the options every subcommand shares (before the subcommand, as git's),
 * finds the subcommand in cli_commands[] and runs it; see cli.h for how to
 * add one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

const struct cli_command cli_commands[] = {
	{ "legal", cli_legal, "list every legal move after MOVE..." },
	{ "status", cli_status_any,
	  "the daemon's health (--json); with MOVE...: side to move, taxes, "
	  "result" },
	{ "show", cli_show, "draw the board after MOVE..." },
	{ "perft", cli_perft, "count the leaves of the move tree to --depth D" },
	{ "play", cli_play_any,
	  "two players at one terminal, or one against the bot (--vs-bot L)" },
	{ "think", cli_think, "the bot's move and the candidates it weighed" },
	{ "analyse", cli_analyse,
	  "GAME: the bot's analysis of a game in the database (analyze)" },
	{ "analyze", cli_analyse, "GAME: the same as analyse" },
	{ "record", cli_record, "check and replay a game record file" },
	{ "export", cli_export, "print the game record of MOVE..." },
	{ "db", cli_db, "migrate|check|prune|backup|restore the daemon's database" },
	{ "games", cli_games, "list the open games (--all: ended ones too)" },
	{ "game", cli_game,
	  "show ID | adjust ID +24h [white|black]: one game, its clocks" },
	{ "clock", cli_clock, "ID: a game's clocks, as they stand now" },
	{ "player", cli_player,
	  "list | add | key | set | delete | export: players and their data" },
	{ "ladder", cli_ladder,
	  "show | history | move NAME ...: a ladder of the configuration" },
	{ "league", cli_league, "show NAME: a league's seasons and standings" },
	{ "tournament", cli_tournament,
	  "show | history | pairings | withdraw | adjudicate NAME ...: an event" },
	{ "ratings", cli_ratings,
	  "the players' ratings (--recompute: rebuilt from the games)" },
	{ "site", cli_site,
	  "DIR: the club's game pages, a static HTML site in DIR" },
	{ "archive", cli_archive,
	  "export|verify|prune: a game's signed archive, checkable by anyone" },
	{ "outbox", cli_outbox, "list the mails queued, sent and failed" },
	{ "inbound", cli_inbound, "list the mails read and what became of each" },
	{ "help", cli_help, "this text" },
	{ NULL, NULL, NULL },
};

const char *cli_template_dir;
const char *cli_db_file;
const char *cli_config_file;

/* The options before the subcommand, as git's: each sets the global it
 * names.  They take a value, as `--name VALUE` or `--name=VALUE`. */
static const struct main_option {
	const char *name;
	const char **value_r;
} main_options[] = {
	{ "--templates", &cli_template_dir },
	{ "--db", &cli_db_file },
	{ "--config", &cli_config_file },
	{ NULL, NULL },
};

static void main_usage(void)
{
	const struct cli_command *c;

	fputs("usage: ashes [--templates DIR] [--db PATH] [--config FILE] "
	      "COMMAND [ARG]...\ncommands:", stderr);
	for (c = cli_commands; c->name != NULL; c++)
		fprintf(stderr, " %s", c->name);
	fputs("\n(`ashes help` for more)\n", stderr);
}

int main(int argc, char **argv)
{
	const struct cli_command *c;
	int i = 1;

	cli_template_dir = getenv("ASHES_TEMPLATES");
	while (i < argc && strncmp(argv[i], "--", 2) == 0) {
		const struct main_option *o;
		size_t n = 0;

		if (strcmp(argv[i], "--help") == 0)
			return cli_help(1, (char *[]){ "help", NULL });
		for (o = main_options; o->name != NULL; o++) {
			n = strlen(o->name);
			if (strncmp(argv[i], o->name, n) == 0 &&
			    (argv[i][n] == '\0' || argv[i][n] == '='))
				break;
		}
		if (o->name == NULL) {
			fprintf(stderr, "ashes: unknown option %s\n", argv[i]);
			main_usage();
			return CLI_EXIT_FAILURE;
		}
		if (argv[i][n] == '=') {
			*o->value_r = argv[i] + n + 1;
			i++;
		} else if (i + 1 < argc) {
			*o->value_r = argv[i + 1];
			i += 2;
		} else {
			fprintf(stderr, "ashes: %s needs a value\n", argv[i]);
			main_usage();
			return CLI_EXIT_FAILURE;
		}
	}
	if (i >= argc) {
		main_usage();
		return CLI_EXIT_FAILURE;
	}
	for (c = cli_commands; c->name != NULL; c++)
		if (strcmp(c->name, argv[i]) == 0)
			return c->run(argc - i, argv + i);
	fprintf(stderr, "ashes: unknown command '%s'\n", argv[i]);
	main_usage();
	return CLI_EXIT_FAILURE;
}
