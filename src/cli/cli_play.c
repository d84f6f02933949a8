/* cli_play.c -- `ashes play`: two people at one terminal take turns typing
 * moves; the board, the last move in words and the legal moves on request
 * come from the same templates and renderers as the reply mails. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "render/render.h"
#include "util/buf.h"

/* Render `name` with the variables of the current position. */
void cli_play_show(struct template_set *set, const struct core_position *pos,
		   const char *name)
{
	struct template_ctx *ctx = template_ctx_new();

	render_position_ctx(pos, ctx);
	cli_render(set, name, ctx);
	template_ctx_free(&ctx);
}

/* Say in words the plies from index `first` on, the first played in
 * `before` (the rest are forced passes, each by the other side). */
void cli_play_say(struct template_set *set, const struct cli_game *g,
		  const struct core_position *before, size_t first)
{
	struct core_position pos = *before;
	size_t i;

	for (i = first; i < g->rec.nplies; i++) {
		struct buf words = BUF_INIT;
		const char *error;

		if (render_move_words(set, &pos, &g->rec.plies[i], &words,
				      &error) < 0)
			fprintf(stderr, "ashes: %s\n", error);
		else
			printf("%s\n", buf_str(&words));
		buf_free(&words);
		pos.to_move = pos.to_move == CORE_WHITE ? CORE_BLACK : CORE_WHITE;
		pos.ply++;
	}
}

/* Take back the last ply a player chose (and the forced passes after it):
 * replay the record without it.  -1 if there is nothing to take back. */
int cli_play_undo(struct cli_game *g)
{
	struct core_record rec;
	enum core_error err;
	size_t last = g->rec.nplies, i;

	while (last > 0 && g->rec.plies[last - 1].kind == CORE_MOVE_PASS)
		last--;
	if (last == 0)
		return -1;
	last--;
	if (record_init(&rec, &g->rec.variant, &err) < 0)
		return -1;
	for (i = 0; i < last; i++) {
		struct core_move m = g->rec.plies[i];

		/* record_play adds the forced passes by itself. */
		if (m.kind == CORE_MOVE_PASS)
			continue;
		if (record_play(&rec, &m, &err) < 0) {
			record_free(&rec);
			return -1;
		}
	}
	record_free(&g->rec);
	g->rec = rec;
	g->pending_passes = 0;
	return 0;
}

int cli_play_read(struct template_set *set, const struct core_position *pos,
		  bool interactive, char **line, size_t *cap, char **cmd_r)
{
	for (;;) {
		char *cmd;
		ssize_t n;

		/* A prompt only for a person: piped input gets clean
		 * lines. */
		if (interactive) {
			printf("%s, ply %d> ",
			       core_color_name((enum core_color)pos->to_move),
			       pos->ply + 1);
			fflush(stdout);
		}
		n = getline(line, cap, stdin);
		if (n < 0) {
			putchar('\n');
			return 0;
		}
		cmd = *line;
		while (*cmd == ' ' || *cmd == '\t')
			cmd++;
		while (n > 0 && ((*line)[n - 1] == '\n' ||
				 (*line)[n - 1] == '\r' ||
				 (*line)[n - 1] == ' ' ||
				 (*line)[n - 1] == '\t'))
			(*line)[--n] = '\0';
		if (*cmd == '\0')
			continue;
		if (strcmp(cmd, "help") == 0 || strcmp(cmd, "?") == 0) {
			cli_render(set, "play-help.txt", NULL);
		} else if (strcmp(cmd, "moves") == 0) {
			cli_play_show(set, pos, "moves.txt");
		} else if (strcmp(cmd, "board") == 0) {
			cli_play_show(set, pos, "show.txt");
		} else {
			*cmd_r = cmd;
			return 1;
		}
	}
}

int cli_play_move(struct template_set *set, struct cli_game *g,
		  const char *cmd)
{
	struct core_position before = g->rec.pos;
	size_t first = g->rec.nplies;
	char why[384];

	if (cli_game_play(g, cmd, why, sizeof(why)) < 0) {
		printf("error: %s\n", why);
		return -1;
	}
	cli_play_say(set, g, &before, first);
	cli_play_show(set, &g->rec.pos, "show.txt");
	return 0;
}

int cli_play_turn(struct template_set *set, struct cli_game *g,
		  bool interactive, char **line, size_t *cap,
		  int (*undo)(struct cli_game *g, void *arg), void *arg)
{
	char *cmd;

	if (cli_play_read(set, &g->rec.pos, interactive, line, cap,
			  &cmd) == 0 || strcmp(cmd, "quit") == 0)
		return -1;
	if (strcmp(cmd, "resign") == 0) {
		enum core_error err;

		record_end(&g->rec, CORE_END_RESIGNATION,
			   (enum core_color)g->rec.pos.to_move, &err);
	} else if (strcmp(cmd, "undo") == 0) {
		if (undo(g, arg) < 0)
			printf("error: nothing to undo\n");
		else
			cli_play_show(set, &g->rec.pos, "show.txt");
	} else if (cli_play_move(set, g, cmd) == 0) {
		return 1;
	}
	return 0;
}

void cli_play_end(struct template_set *set, struct cli_game *g, char *line)
{
	if (g->rec.pos.result != CORE_ONGOING)
		cli_play_show(set, &g->rec.pos, "play-over.txt");
	free(line);
	template_set_free(&set);
	record_free(&g->rec);
}

/* cli_play_turn's undo for two players at one terminal. */
static int play_undo(struct cli_game *g, void *arg)
{
	return cli_play_undo(g);
}

int cli_play(int argc, char **argv)
{
	struct cli_game g;
	struct template_set *set;
	char *line = NULL;
	size_t cap = 0;
	bool interactive = isatty(STDIN_FILENO);
	int rc = cli_game_setup(&g, argc, argv, 0);

	if (rc != CLI_EXIT_OK) {
		record_free(&g.rec);
		return rc;
	}
	set = cli_templates();
	if (cli_render(set, "play-intro.txt", NULL) < 0) {
		rc = CLI_EXIT_FAILURE;
		goto out;
	}
	cli_play_show(set, &g.rec.pos, "show.txt");
	while (g.rec.pos.result == CORE_ONGOING &&
	       cli_play_turn(set, &g, interactive, &line, &cap, play_undo,
			     NULL) >= 0)
		;
out:
	cli_play_end(set, &g, line);
	return rc;
}
