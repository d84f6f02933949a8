/* cli_bot.c -- `ashes play --vs-bot LEVEL`: one person at the terminal
 * against the bot (src/ai); the board, the moves in words and the
 * commands are those of `ashes play` (cli_play.c), whose pieces it uses. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_ai.h"
#include "core/notation.h"

/* The options only `play --vs-bot` takes (with a value each). */
static const char *const bot_extra[] = { "--as", NULL };

/* The bot's move in g, played and said in words.  0, or -1 after saying
 * why on stderr. */
static int bot_move(struct template_set *set, struct cli_game *g,
		    const struct ai_options *opt)
{
	struct core_position before = g->rec.pos;
	size_t first = g->rec.nplies;
	struct core_move move;
	enum core_error err;

	if (ai_choose(&before, opt, &move, NULL, 0, NULL, &err) < 0 ||
	    record_play(&g->rec, &move, &err) < 0) {
		fprintf(stderr, "ashes play: the bot: %s\n",
			core_error_name(err));
		return -1;
	}
	cli_play_say(set, g, &before, first);
	cli_play_show(set, &g->rec.pos, "show.txt");
	return 0;
}

/* Take back the player's last move and the bot's answer to it: back to
 * the player's turn (cli_play_turn's undo; arg: the player's moves here,
 * an int).  -1 if the player has made no move here. */
static int bot_undo(struct cli_game *g, void *arg)
{
	int *moves = arg;
	int human = g->rec.pos.to_move; /* undo is asked on the player's turn */

	if (*moves == 0)
		return -1;
	do {
		if (cli_play_undo(g) < 0)
			return -1;
	} while (g->rec.pos.to_move != human);
	(*moves)--;
	return 0;
}

/* The game against the bot: `as` the player's colour ("white" unless
 * --as). */
static int bot_play(int argc, char **argv, const char *as,
		    const struct ai_options *opt)
{
	struct cli_game g;
	struct template_set *set;
	struct template_ctx *ctx;
	char *line = NULL;
	size_t cap = 0;
	bool interactive = isatty(STDIN_FILENO);
	int human = CORE_WHITE, moves = 0, rc; /* moves: the player's here */

	if (as != NULL && strcasecmp(as, "black") == 0) {
		human = CORE_BLACK;
	} else if (as != NULL && strcasecmp(as, "white") != 0) {
		fprintf(stderr, "ashes play: --as %s: white or black\n", as);
		return CLI_EXIT_FAILURE;
	}
	rc = cli_game_setup(&g, argc, argv, 0);
	if (rc != CLI_EXIT_OK) {
		record_free(&g.rec);
		return rc;
	}
	set = cli_templates();
	ctx = template_ctx_new();
	template_ctx_setf(ctx, "level", "%d", opt->level);
	template_ctx_set(ctx, "colour", core_color_name((enum core_color)human));
	rc = cli_render(set, "play-bot-intro.txt", ctx);
	template_ctx_free(&ctx);
	if (rc < 0) {
		rc = CLI_EXIT_FAILURE;
		goto out;
	}
	rc = CLI_EXIT_OK;
	cli_play_show(set, &g.rec.pos, "show.txt");
	while (g.rec.pos.result == CORE_ONGOING) {
		int turn;

		if (g.rec.pos.to_move != human) {
			if (bot_move(set, &g, opt) < 0) {
				rc = CLI_EXIT_FAILURE;
				break;
			}
			continue;
		}
		turn = cli_play_turn(set, &g, interactive, &line, &cap,
				     bot_undo, &moves);
		if (turn < 0)
			break;
		moves += turn;
	}
out:
	cli_play_end(set, &g, line);
	return rc;
}

static const char bot_usage[] =
	"usage: ashes play --vs-bot LEVEL [--as white|black] [--seed S] "
	"[--time T] [--playouts P] [--size N] [--variant OPT]... [MOVE]...\n";

int cli_play_any(int argc, char **argv)
{
	const char *extra[1] = { NULL };
	struct ai_options opt;
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strncmp(argv[i], "--vs-bot", 8) == 0 &&
		    (argv[i][8] == '\0' || argv[i][8] == '='))
			break;
	if (i >= argc || strcmp(argv[i], "--") == 0)
		return cli_play(argc, argv);
	if (cli_ai_options("play", bot_usage, "--vs-bot", &argc, argv,
			   bot_extra, extra, &opt) < 0)
		return CLI_EXIT_FAILURE;
	return bot_play(argc, argv, extra[0], &opt);
}
