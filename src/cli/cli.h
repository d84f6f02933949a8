/* cli.h -- the `ashes` command: one function per subcommand, dispatched by
 * name from the table in main.c, plus the helpers the subcommands share
 * (game options and moves from the command line, the template set).
 *
 * Adding a subcommand (e.g. `ashes db ...`):
 *   1. write `int cli_db(int argc, char **argv);` in its own file
 *      src/cli/cli_db.c -- argv[0] is the subcommand's name, options
 *      follow; return the exit status (CLI_EXIT_*);
 *   2. declare it below;
 *   3. add { "db", cli_db, "one-line summary" } to cli_commands[] in
 *      main.c (the order there is the order of `ashes help`);
 *   4. list the file in src/cli/local.mk (ashes_SOURCES) and, if it needs a
 *      higher layer, its library in ashes_LDADD (higher layers first);
 *   5. document it in man/ashes.1 and, for player-facing words, in
 *      templates/help-cli.txt.
 */
#ifndef ASHES_CLI_H
#define ASHES_CLI_H

#include <stdbool.h>

#include "core/core.h"
#include "core/record.h"
#include "render/template.h"

/* Exit statuses shared by every subcommand. */
enum cli_exit {
	CLI_EXIT_OK = 0,
	CLI_EXIT_FAILURE = 1, /* usage, files, templates, anything else */
	CLI_EXIT_INVALID = 2, /* an illegal or malformed move or record */
	/* archive verify without --daemon-key: the plies hold, and what
	 * only the archive's signer vouches for is not proven */
	CLI_EXIT_UNPINNED = 3,
};

struct cli_command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary; /* one line for `ashes help` */
};

/* The table of subcommands, terminated by a { NULL } entry. */
extern const struct cli_command cli_commands[];

/* Template folder given by `--templates DIR` before the subcommand or by
 * the environment variable ASHES_TEMPLATES; NULL if neither. */
extern const char *cli_template_dir;

/* `--db PATH` and `--config FILE` given before the subcommand (as git's
 * global options): the database subcommands read them as if given after
 * their name, where they may also stand.  NULL if not given. */
extern const char *cli_db_file;
extern const char *cli_config_file;

/* A template set reading cli_template_dir, then the installed folder (or,
 * run from a build tree while none is installed, the source tree's: see
 * template_set_new()).  Free with template_set_free(). */
struct template_set *cli_templates(void);

/* Render template `name` with ctx to stdout; prints the error and returns
 * -1 if the template is missing or broken. */
int cli_render(struct template_set *set, const char *name,
	       const struct template_ctx *ctx);

/* Options a position command takes besides --size N and --variant OPT. */
enum cli_game_opt {
	CLI_OPT_DEPTH = 1 << 0,   /* --depth D (perft) */
	CLI_OPT_PICTURE = 1 << 1, /* --svg, --png FILE (show) */
};

/* A game set up from `[--size N] [--variant OPT]... [MOVE]...` and the
 * options of enum cli_game_opt.  depth is -1 unless --depth was given. */
struct cli_game {
	struct core_record rec;
	int depth;
	bool svg;
	const char *png; /* --png FILE, or NULL */
	int pending_passes; /* forced passes a `pass` token may still name */
};

/* Parse the options and play the MOVEs of argv[1..argc-1] into g: options
 * may stand anywhere among the MOVEs (a MOVE never starts with "--"); after
 * "--" every word is a MOVE.  opts: the enum cli_game_opt accepted.
 * Returns CLI_EXIT_OK, or the exit status after printing the reason on
 * stderr (an illegal MOVE names its ply).  g->rec is always initialised
 * and must be freed with record_free(). */
int cli_game_setup(struct cli_game *g, int argc, char **argv, unsigned opts);

/* Play one move text (a MOVE, `swap` or a forced `pass`) into g.  0, or -1
 * with a sentence on why in buf (len bytes) naming the ply. */
int cli_game_play(struct cli_game *g, const char *text, char *buf,
		  size_t len);

/* The three status lines of `ashes status`. */
void cli_print_status(const struct core_position *pos);

int cli_legal(int argc, char **argv);
int cli_status(int argc, char **argv);
/* `ashes status`: the daemon's health without MOVEs (src/cli/status.c),
 * else cli_status. */
int cli_status_any(int argc, char **argv);
int cli_show(int argc, char **argv);
int cli_perft(int argc, char **argv);
int cli_record(int argc, char **argv);
int cli_export(int argc, char **argv);
int cli_play(int argc, char **argv);
/* The pieces of `ashes play` that `ashes play --vs-bot` (cli_bot.c) uses
 * too: render `name` with the position's variables; say in words the
 * plies of g from index first on (the first played in before); take back
 * the last ply a player chose (-1 if none). */
void cli_play_show(struct template_set *set, const struct core_position *pos,
		   const char *name);
void cli_play_say(struct template_set *set, const struct cli_game *g,
		  const struct core_position *before, size_t first);
int cli_play_undo(struct cli_game *g);
/* The next command typed at the terminal (a prompt for the side to move in
 * pos when interactive), trimmed, in *cmd_r (inside *line, a getline
 * buffer).  Blank lines are skipped, and the commands that only show
 * something (help, moves, board) are answered here.  1, or 0 at the end
 * of input. */
int cli_play_read(struct template_set *set, const struct core_position *pos,
		  bool interactive, char **line, size_t *cap, char **cmd_r);
/* Play the move typed as cmd in g, then say it and show the board: 0, or
 * -1 after printing why it was refused. */
int cli_play_move(struct template_set *set, struct cli_game *g,
		  const char *cmd);
/* The turn of the player at the terminal: read a command (cli_play_read)
 * and do it: resign, undo (with undo(g, arg): -1 if there is nothing to
 * take back) or a move.  -1 when the player quits or the input ends, 1
 * after a move, else 0. */
int cli_play_turn(struct template_set *set, struct cli_game *g,
		  bool interactive, char **line, size_t *cap,
		  int (*undo)(struct cli_game *g, void *arg), void *arg);
/* The end of a game at the terminal: show how it ended (if it did), then
 * free the getline buffer line, the templates and the game. */
void cli_play_end(struct template_set *set, struct cli_game *g, char *line);
/* The bot (src/cli/cli_think.c, cli_bot.c): `ashes think`, and `ashes
 * play`, which plays the bot with --vs-bot and two people without. */
int cli_think(int argc, char **argv);
/* `ashes analyse GAME` (src/cli/cli_analyse.c). */
int cli_analyse(int argc, char **argv);
int cli_play_any(int argc, char **argv);
int cli_help(int argc, char **argv);

/* Administration (src/cli/admin.c, admin_clock.c, admin_club.c): the
 * daemon's database and the club's competitions. */
int cli_db(int argc, char **argv);
int cli_games(int argc, char **argv);
int cli_game(int argc, char **argv);
int cli_clock(int argc, char **argv);
int cli_player(int argc, char **argv);
int cli_inbound(int argc, char **argv);
int cli_outbox(int argc, char **argv);
int cli_ladder(int argc, char **argv);
int cli_league(int argc, char **argv);
/* An event of the configuration (src/cli/admin_tournament.c). */
int cli_tournament(int argc, char **argv);
int cli_ratings(int argc, char **argv);
/* The club's game pages (src/cli/site.c). */
int cli_site(int argc, char **argv);
/* A game's archive: export, verify, prune (src/cli/archive.c). */
int cli_archive(int argc, char **argv);

#endif
