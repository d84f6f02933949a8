/* main.c -- `ashes`: local play, inspection and (later) administration.
 * Finds the subcommand in cli_commands[] and runs it; see cli.h for how to
 * add one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

const struct cli_command cli_commands[] = {
	{ "legal", cli_legal, "list every legal move after MOVE..." },
	{ "status", cli_status, "side to move, taxes and result after MOVE..." },
	{ "show", cli_show, "draw the board after MOVE..." },
	{ "perft", cli_perft, "count the leaves of the move tree to --depth D" },
	{ "play", cli_play, "two players at one terminal" },
	{ "record", cli_record, "check and replay a game record file" },
	{ "export", cli_export, "print the game record of MOVE..." },
	{ "db", cli_db, "migrate|check the daemon's database" },
	{ "games", cli_games, "list the games in the database" },
	{ "game", cli_game, "show ID: players, board and plies of one game" },
	{ "player", cli_player, "list | add NAME ADDRESS [KEY] | key NAME KEY" },
	{ "outbox", cli_outbox, "list the mails queued, sent and failed" },
	{ "inbound", cli_inbound, "list the mails read and what became of each" },
	{ "help", cli_help, "this text" },
	{ NULL, NULL, NULL },
};

const char *cli_template_dir;

static void main_usage(void)
{
	const struct cli_command *c;

	fputs("usage: ashes [--templates DIR] COMMAND [ARG]...\ncommands:", stderr);
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
		if (strcmp(argv[i], "--templates") == 0 && i + 1 < argc) {
			cli_template_dir = argv[i + 1];
			i += 2;
		} else if (strncmp(argv[i], "--templates=", 12) == 0) {
			cli_template_dir = argv[i] + 12;
			i++;
		} else if (strcmp(argv[i], "--help") == 0) {
			return cli_help(1, (char *[]){ "help", NULL });
		} else {
			fprintf(stderr, "ashes: unknown option %s\n", argv[i]);
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
