/* admin_club.c -- the operator's commands for the club's competitions:
 * `ashes ladder show|history NAME`, `ashes ladder move NAME PLAYER POS
 * [--note TEXT]`, `ashes league show NAME` and `ashes ratings
 * [--recompute]`.  The ladders and leagues are those of the daemon's
 * configuration file (--config FILE), mapped into the service as the
 * daemon maps them; the service decides and words everything, this file
 * only reads the command line.  Now is ASHES_NOW when set (admin.h).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/admin.h"
#include "cli/cli.h"
#include "server/server.h"
#include "store/store.h"
#include "util/buf.h"

#define LADDER_USAGE "ladder show NAME | ladder history NAME | " \
	"ladder move NAME PLAYER POS [--note TEXT] [--config FILE] " \
	"[--db PATH]"
#define LEAGUE_USAGE "league show NAME [--config FILE] [--db PATH]"
#define RATINGS_USAGE "ratings [--recompute] [--config FILE] [--db PATH]"

/* What a command asks of the service. */
enum club_action {
	CLUB_LADDER_SHOW,
	CLUB_LADDER_HISTORY,
	CLUB_LADDER_MOVE,
	CLUB_LEAGUE_SHOW,
	CLUB_RATINGS_SHOW,
	CLUB_RATINGS_RECOMPUTE,
};

/* One command as read from the command line. */
struct club_cmd {
	const char *name;    /* "ashes ladder move", for messages */
	enum club_action action;
	const char *club;    /* the ladder's or league's NAME */
	const char *player;  /* ladder move */
	int pos;
	const char *note;
	int64_t now;
};

/* POS, a place on a ladder: a whole number from 1 (the top).  0 and
 * *pos_r, or -1 after saying what a POS is.  A place past INT_MAX is
 * still a place: it is handed on as INT_MAX for the service to refuse
 * with the ladder's real range. */
static int club_position(const char *cmd, const char *word, int *pos_r)
{
	size_t digits = strspn(word, "0123456789");
	long long v = 0;

	if (digits == 0 || word[digits] != '\0')
		goto bad;
	for (size_t i = 0; i < digits && v <= INT_MAX; i++)
		v = v * 10 + (word[i] - '0');
	if (v == 0)
		goto bad;
	*pos_r = v > INT_MAX ? INT_MAX : (int)v;
	return 0;
bad:
	fprintf(stderr, "%s: POS is a place from 1 (the top), not %s\n", cmd,
		word);
	return -1;
}

/* Ask the service for cmd (a struct club_cmd); what it says goes to
 * out.  -1 with *error_r. */
static int club_ask(struct server *srv, const void *arg, struct buf *out,
		    const char **error_r)
{
	const struct club_cmd *cmd = arg;
	size_t games;

	switch (cmd->action) {
	case CLUB_LADDER_SHOW:
		return server_ladder_show(srv, cmd->club, cmd->now, out,
					  error_r);
	case CLUB_LADDER_HISTORY:
		return server_ladder_history(srv, cmd->club, out, error_r);
	case CLUB_LADDER_MOVE:
		return server_ladder_move(srv, cmd->club, cmd->player,
					  cmd->pos, cmd->note, cmd->now, out,
					  error_r);
	case CLUB_LEAGUE_SHOW:
		return server_league_show(srv, cmd->club, cmd->now, out,
					  error_r);
	case CLUB_RATINGS_SHOW:
		return server_ratings_show(srv, out, error_r);
	case CLUB_RATINGS_RECOMPUTE:
		if (server_ratings_recompute(srv, &games, error_r) < 0)
			return -1;
		buf_printf(out, "ratings recomputed from %zu rated game(s)\n",
			   games);
		return 0;
	}
	*error_r = "unknown command";
	return -1;
}

int cli_ladder(int argc, char **argv)
{
	struct admin_opts o;
	struct club_cmd cmd = { .name = NULL };
	const char *sub;
	int rc = CLI_EXIT_FAILURE;

	if (admin_parse(argc, argv, &o) < 0 || o.argc < 2)
		goto usage;
	sub = o.argv[0];
	cmd.club = o.argv[1];
	if (strcmp(sub, "show") == 0 && o.argc == 2 && o.note == NULL) {
		cmd.name = "ashes ladder show";
		cmd.action = CLUB_LADDER_SHOW;
	} else if (strcmp(sub, "history") == 0 && o.argc == 2 &&
		   o.note == NULL) {
		cmd.name = "ashes ladder history";
		cmd.action = CLUB_LADDER_HISTORY;
	} else if (strcmp(sub, "move") == 0 && o.argc == 4) {
		cmd.name = "ashes ladder move";
		cmd.action = CLUB_LADDER_MOVE;
		cmd.player = o.argv[2];
		cmd.note = o.note;
		if (club_position(cmd.name, o.argv[3], &cmd.pos) < 0)
			goto out;
	} else {
		goto usage;
	}
	if (admin_now(cmd.name, &cmd.now) == 0)
		rc = admin_service_run(&o, cmd.name, club_ask, &cmd);
	goto out;
usage:
	rc = admin_usage(LADDER_USAGE);
out:
	admin_done(&o);
	return rc;
}

int cli_league(int argc, char **argv)
{
	struct admin_opts o;
	struct club_cmd cmd = { .name = "ashes league show",
				.action = CLUB_LEAGUE_SHOW };
	int rc = CLI_EXIT_FAILURE;

	if (admin_parse(argc, argv, &o) < 0 || o.argc != 2 ||
	    strcmp(o.argv[0], "show") != 0 || o.note != NULL) {
		rc = admin_usage(LEAGUE_USAGE);
		goto out;
	}
	cmd.club = o.argv[1];
	if (admin_now(cmd.name, &cmd.now) == 0)
		rc = admin_service_run(&o, cmd.name, club_ask, &cmd);
out:
	admin_done(&o);
	return rc;
}

int cli_ratings(int argc, char **argv)
{
	struct admin_opts o;
	struct club_cmd cmd = { .name = "ashes ratings",
				.action = CLUB_RATINGS_SHOW };
	char *rest[64];
	int n = 0, rc;

	/* --recompute is this command's own: the shared options are
	 * admin_parse()'s, the rest go to it. */
	for (int i = 0; i < argc && n < 63; i++) {
		if (i > 0 && strcmp(argv[i], "--recompute") == 0)
			cmd.action = CLUB_RATINGS_RECOMPUTE;
		else
			rest[n++] = argv[i];
	}
	rest[n] = NULL;
	if (admin_parse(n, rest, &o) < 0 || o.argc != 0 || o.note != NULL) {
		rc = admin_usage(RATINGS_USAGE);
		goto out;
	}
	if (cmd.action == CLUB_RATINGS_RECOMPUTE)
		cmd.name = "ashes ratings --recompute";
	rc = admin_service_run(&o, cmd.name, club_ask, &cmd);
out:
	admin_done(&o);
	return rc;
}
