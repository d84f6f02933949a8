/* admin_clock.c -- the operator's commands for the clocks of
 * correspondence games: `ashes clock ID` (a game's clocks as the
 * service computes them now) and `ashes game adjust ID DURATION
 * [white|black] [--note TEXT]` (time given or taken, both players told
 * by mail: the notices wait in the outbox for the daemon to send, as its
 * other mails).  The service decides and words everything; this file
 * only reads the command line.  Now is ASHES_NOW when set (admin.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/admin.h"
#include "cli/cli.h"
#include "server/server.h"
#include "store/store.h"
#include "util/buf.h"

#define CLOCK_USAGE "clock ID [--db PATH]"
#define ADJUST_USAGE "game adjust ID DURATION [white|black] " \
	"[--note TEXT] [--db PATH]"

/* A game number as the operator writes it ("12" or "#12"): 0 and *id_r,
 * or -1 after saying so, naming cmd. */
static int clock_game_id(const char *cmd, const char *word, int64_t *id_r)
{
	const char *p = word[0] == '#' ? word + 1 : word;
	char *end;
	long long v;

	errno = 0;
	v = strtoll(p, &end, 10);
	if (errno != 0 || end == p || *end != '\0' || v <= 0) {
		fprintf(stderr, "%s: not a game number: %s\n", cmd, word);
		return -1;
	}
	*id_r = (int64_t)v;
	return 0;
}

/* DURATION: a sign, a whole number from 1 and h or d ("+24h", "-2h",
 * "+1d"): 0 and the seconds, or -1 after saying what a DURATION is.
 * More than a clock can hold (CLOCK_MAX_REMAINING) is refused here, so
 * the arithmetic cannot overflow; the service checks the result. */
static int clock_duration(const char *word, int64_t *seconds_r)
{
	const char *p;
	int64_t n = 0, unit;
	size_t digits;

	if (word[0] != '+' && word[0] != '-')
		goto bad;
	p = word + 1;
	digits = strspn(p, "0123456789");
	if (digits == 0 || (p[digits] != 'h' && p[digits] != 'd') ||
	    p[digits + 1] != '\0')
		goto bad;
	unit = p[digits] == 'h' ? CLOCK_HOUR : CLOCK_DAY;
	for (size_t i = 0; i < digits; i++) {
		n = n * 10 + (p[i] - '0');
		if (n * unit > CLOCK_MAX_REMAINING) {
			fprintf(stderr, "ashes game adjust: %s is more than a "
				"clock holds (%" PRId64 "d)\n", word,
				CLOCK_MAX_REMAINING / CLOCK_DAY);
			return -1;
		}
	}
	if (n == 0)
		goto bad;
	*seconds_r = word[0] == '-' ? -n * unit : n * unit;
	return 0;
bad:
	fprintf(stderr, "ashes game adjust: DURATION is +Nh, -Nh, +Nd or -Nd, "
		"not %s\n", word);
	return -1;
}

/* One command as read from the command line. */
struct clock_cmd {
	const char *name;    /* "ashes clock", for messages */
	int64_t game_id;
	int64_t now;
	/* game adjust */
	bool adjust;
	const char *side;    /* "white", "black" or NULL: the player to move */
	int64_t seconds;
	const char *note;
};

/* Ask the service for cmd (a struct clock_cmd): a game's clocks, or an
 * adjustment.  -1 with *error_r. */
static int clock_ask(struct server *srv, const void *arg, struct buf *out,
		     const char **error_r)
{
	const struct clock_cmd *cmd = arg;

	if (cmd->adjust)
		return server_clock_adjust(srv, cmd->game_id, cmd->side,
					   cmd->seconds, cmd->note, cmd->now,
					   out, error_r);
	return server_clock_show(srv, cmd->game_id, cmd->now, out, error_r);
}

int cli_clock(int argc, char **argv)
{
	struct admin_opts o;
	struct clock_cmd cmd = { .name = "ashes clock" };
	int rc = CLI_EXIT_FAILURE;

	if (admin_parse(argc, argv, &o) < 0 || o.argc != 1 ||
	    o.note != NULL) {
		admin_done(&o);
		return admin_usage(CLOCK_USAGE);
	}
	if (clock_game_id(cmd.name, o.argv[0], &cmd.game_id) == 0 &&
	    admin_now(cmd.name, &cmd.now) == 0)
		rc = admin_service_run(&o, cmd.name, clock_ask, &cmd);
	admin_done(&o);
	return rc;
}

int admin_game_adjust(struct admin_opts *o)
{
	struct clock_cmd cmd = { .name = "ashes game adjust", .adjust = true };

	/* o->argv: "adjust" ID DURATION [SIDE] */
	if (o->argc < 3 || o->argc > 4)
		return admin_usage(ADJUST_USAGE);
	if (clock_game_id(cmd.name, o->argv[1], &cmd.game_id) < 0 ||
	    clock_duration(o->argv[2], &cmd.seconds) < 0)
		return CLI_EXIT_FAILURE;
	if (o->argc == 4) {
		if (strcasecmp(o->argv[3], "white") != 0 &&
		    strcasecmp(o->argv[3], "black") != 0) {
			fprintf(stderr, "%s: the side is white or black, "
				"not %s\n", cmd.name, o->argv[3]);
			return CLI_EXIT_FAILURE;
		}
		cmd.side = strcasecmp(o->argv[3], "white") == 0 ? "white" :
			   "black";
	}
	cmd.note = o->note;
	if (admin_now(cmd.name, &cmd.now) < 0)
		return CLI_EXIT_FAILURE;
	return admin_service_run(o, cmd.name, clock_ask, &cmd);
}
