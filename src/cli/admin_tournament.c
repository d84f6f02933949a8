/* admin_tournament.c -- the operator's commands for the club's events
 * ([tournament NAME] sections): `ashes tournament show NAME`, `history
 * NAME`, `pairings NAME [ROUND]`, `withdraw NAME PLAYER [--note WHY]`
 * and `adjudicate NAME GAME RESULT --note WHY`; and the event's log as
 * the store and the configuration give it (admin_tournament_log), which
 * `ashes archive export --event` and `ashes site` use too.
 *
 * What is shown is replayed from the event's log, as the daemon replays
 * it (server/tournament.h): nothing about positions is stored.  `show`,
 * `withdraw` and `adjudicate` are the service's (server.h: the same view
 * of the event as the mail `tournament NAME`, and the decisions recorded
 * as the operator's, as the daemon would); `history` and `pairings` are
 * the log's text and tables (tournament_log.h), in the words of
 * templates/admin-tournament-history.txt and -pairings.txt.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/admin.h"
#include "cli/cli.h"
#include "config/club_config.h"
#include "config/settings.h"
#include "core/record2.h"
#include "render/template.h"
#include "server/server.h"
#include "server/tournament.h"
#include "server/tournament_log.h"
#include "store/store.h"
#include "util/buf.h"

#define TOURNAMENT_USAGE \
	"tournament show NAME | tournament history NAME |\n" \
	"       tournament pairings NAME [ROUND] |\n" \
	"       tournament withdraw NAME PLAYER [--note WHY] |\n" \
	"       tournament adjudicate NAME GAME white|black|draw --note WHY\n" \
	"       (GAME: the game's number, as `ashes games` lists it)\n" \
	"       [--config FILE] [--db PATH]"

/* The rules of event name as the daemon takes them from its
 * configuration (settings_server(), the one mapping): 0, or -1 after
 * saying why on stderr (no configuration, no such section). */
static int tour_rules(struct admin_opts *o, const char *cmd,
		      const char *name, struct tournament_rules *r)
{
	struct server_config set;
	int ret = -1;

	if (!admin_config(o, "give --config FILE")) {
		fprintf(stderr, "%s: needs the daemon's configuration "
			"(--config FILE) for the rules of %s\n", cmd, name);
		return -1;
	}
	memset(&set, 0, sizeof(set));
	settings_server(&o->cfg, &set);
	for (size_t i = 0; i < set.ntournaments && ret < 0; i++)
		if (strcasecmp(set.tournaments[i].club.name, name) == 0) {
			*r = set.tournaments[i].rules;
			ret = 0;
		}
	settings_server_done(&set);
	if (ret < 0)
		fprintf(stderr, "%s: the configuration has no [tournament "
			"%s]\n", cmd, name);
	return ret;
}

/* Who recorded a stored entry. */
static enum tournament_by tour_by(const char *actor)
{
	if (actor == NULL)
		return TOURNAMENT_BY_NONE;
	return strcmp(actor, "daemon") == 0 ? TOURNAMENT_BY_DAEMON :
	       strcmp(actor, "operator") == 0 ? TOURNAMENT_BY_OPERATOR :
	       strcmp(actor, "mail") == 0 ? TOURNAMENT_BY_MAIL :
	       TOURNAMENT_BY_NONE;
}

/* Name player id in log once, from the store. */
static void tour_name(struct store *st, struct tournament_log *log,
		      int64_t id)
{
	struct store_player *p = NULL;
	const char *error;
	char num[32];

	if (id <= 0 || tournament_log_name(log, id) != NULL)
		return;
	if (store_player_load(st, id, &p, &error) == 1)
		tournament_log_add_player(log, id, p->name);
	else {
		snprintf(num, sizeof(num), "#%" PRId64, id);
		tournament_log_add_player(log, id, num);
	}
	store_player_free(&p);
}

int admin_tournament_log(struct admin_opts *o, struct store *st,
			 const char *cmd, const char *name,
			 struct tournament_log *log)
{
	struct tournament_rules rules;
	struct store_tournament_entry *es = NULL;
	struct store_tournament_game *gs = NULL;
	struct tournament_entry e;
	const char *error;
	size_t n = 0, ng = 0, i;
	int ret = -1;

	memset(log, 0, sizeof(*log));
	if (tour_rules(o, cmd, name, &rules) < 0)
		return -1;
	if (store_tournament_entries(st, name, &es, &n, &error) < 0 ||
	    store_tournament_games(st, name, &gs, &ng, &error) < 0) {
		fprintf(stderr, "%s: %s\n", cmd, error);
		goto out;
	}
	tournament_log_init(log, name, &rules);
	for (i = 0; i < n; i++) {
		memset(&e, 0, sizeof(e));
		if (tournament_kind_parse(es[i].kind, &e.kind) < 0 ||
		    (es[i].outcome != NULL &&
		     tournament_outcome_parse(es[i].outcome, &e.outcome) < 0)) {
			fprintf(stderr, "%s: entry %" PRId64 " of the log is of "
				"no kind known here\n", cmd, es[i].id);
			tournament_log_free(log);
			goto out;
		}
		e.at = es[i].at;
		e.round = es[i].round;
		e.player = es[i].player_id;
		e.other = es[i].other_id;
		e.game = es[i].game;
		e.rating = es[i].rating;
		/* the replay reads a round of these kinds only */
		if (e.kind == TOURNAMENT_RESULT ||
		    e.kind == TOURNAMENT_ADJUDICATION)
			e.round = 0;
		tour_name(st, log, e.player);
		tour_name(st, log, e.other);
		tournament_log_add(log, &e, tour_by(es[i].actor), es[i].note);
	}
	for (i = 0; i < ng; i++)
		tournament_log_add_game(log, gs[i].number, gs[i].game_id);
	/* the store's links are unique (UNIQUE, PRIMARY KEY) */
	(void)tournament_log_index(log);
	ret = 0;
out:
	store_rows_free(&es, n, sizeof(*es), store_tournament_entry_clear);
	store_rows_free(&gs, ng, sizeof(*gs), store_tournament_game_clear);
	return ret;
}

/* What a command asks. */
enum tour_action {
	TOUR_SHOW,
	TOUR_HISTORY,
	TOUR_PAIRINGS,
	TOUR_WITHDRAW,
	TOUR_ADJUDICATE,
};

/* ROUND, GAME: a whole number from 1, at most max; -1 after saying so. */
static int tour_number(const char *cmd, const char *what, const char *word,
		       int64_t max, int64_t *v_r)
{
	char *end;
	long long v = strtoll(word, &end, 10);

	if (*end != '\0' || end == word || v < 1 || v > max) {
		fprintf(stderr, "%s: %s is a number from 1 to %" PRId64
			", not %s\n", cmd, what, max, word);
		return -1;
	}
	*v_r = v;
	return 0;
}

/* The event's log replayed: 0 and *state_r, or -1 after saying why. */
static int tour_replay(const char *cmd, const struct tournament_log *log,
		       struct tournament_state **state_r)
{
	struct tournament_fault f;

	if (tournament_replay(log->entries, log->nentries, &log->rules,
			      state_r, &f) < 0) {
		fprintf(stderr, "%s: the log of %s does not replay: %s at "
			"entry %zu\n", cmd, log->event,
			tournament_error_name(f.error), f.index + 1);
		return -1;
	}
	return 0;
}

/* `history` and `pairings` into ctx for their templates. */
static int tour_view(const char *cmd, enum tour_action action,
		     const struct tournament_log *log, int round,
		     struct template_ctx *ctx)
{
	struct tournament_state *s = NULL;
	struct buf b = BUF_INIT;

	template_ctx_set(ctx, "name", log->event);
	if (action == TOUR_HISTORY) {
		tournament_log_format(log, &b);
		template_ctx_set(ctx, "log", buf_str(&b));
		template_ctx_set_int(ctx, "entries", (long long)log->nentries);
		buf_free(&b);
		return 0;
	}
	if (tour_replay(cmd, log, &s) < 0)
		return -1;
	if (round == 0)
		round = s->rounds_paired;
	if (round > s->rounds_paired) {
		fprintf(stderr, "%s: %s has %d round(s) paired, not %d\n", cmd,
			log->event, s->rounds_paired, round);
		tournament_state_free(&s);
		return -1;
	}
	template_ctx_set_int(ctx, "paired", s->rounds_paired);
	template_ctx_set_int(ctx, "round", round);
	if (round > 0)
		tournament_pairings_text(log, s, round, &b);
	template_ctx_set(ctx, "pairings", buf_str(&b));
	buf_free(&b);
	tournament_state_free(&s);
	return 0;
}

/* RESULT as the operator writes it: the service's word. */
static int tour_result(const char *cmd, const char *word, const char **r)
{
	*r = strcmp(word, "1-0") == 0 || strcmp(word, "white") == 0 ? "white" :
	     strcmp(word, "0-1") == 0 || strcmp(word, "black") == 0 ? "black" :
	     strcmp(word, "1/2-1/2") == 0 || strcmp(word, "draw") == 0 ?
	     "draw" : NULL;
	if (*r == NULL) {
		fprintf(stderr, "%s: RESULT is white (1-0), black (0-1) or "
			"draw (1/2-1/2), not %s\n", cmd, word);
		return -1;
	}
	return 0;
}

/* What `show`, `withdraw` and `adjudicate` ask the service. */
struct tour_cmd {
	enum tour_action action;
	const char *name, *player, *result, *note;
	int64_t game, now;
};

static int tour_ask(struct server *srv, const void *arg, struct buf *out,
		    const char **error_r)
{
	const struct tour_cmd *c = arg;

	switch (c->action) {
	case TOUR_WITHDRAW:
		return server_tournament_withdraw(srv, c->name, c->player,
						  c->note, c->now, out,
						  error_r);
	case TOUR_ADJUDICATE:
		return server_tournament_adjudicate(srv, c->name, c->game,
						    c->result, c->note, c->now,
						    out, error_r);
	default:
		return server_tournament_show(srv, c->name, c->now, out,
					      error_r);
	}
}

int cli_tournament(int argc, char **argv)
{
	struct admin_opts o;
	struct tournament_log log;
	struct tour_cmd c = { .action = TOUR_SHOW };
	struct store *st = NULL;
	struct template_set *ts = NULL;
	struct template_ctx *ctx = template_ctx_new();
	const char *sub;
	int64_t round = 0;
	char cmd[64];
	int rc = CLI_EXIT_FAILURE;

	memset(&log, 0, sizeof(log));
	if (admin_parse(argc, argv, &o) < 0 || o.argc < 2)
		goto usage;
	sub = o.argv[0];
	c.name = o.argv[1];
	snprintf(cmd, sizeof(cmd), "ashes tournament %s", sub);
	if (strcmp(sub, "show") == 0 && o.argc == 2 && o.note == NULL)
		c.action = TOUR_SHOW;
	else if (strcmp(sub, "history") == 0 && o.argc == 2 && o.note == NULL)
		c.action = TOUR_HISTORY;
	else if (strcmp(sub, "pairings") == 0 && o.argc <= 3 &&
		 o.note == NULL)
		c.action = TOUR_PAIRINGS;
	else if (strcmp(sub, "withdraw") == 0 && o.argc == 3)
		c.action = TOUR_WITHDRAW;
	else if (strcmp(sub, "adjudicate") == 0 && o.argc == 4 &&
		 o.note != NULL && o.note[0] != '\0')
		c.action = TOUR_ADJUDICATE;
	else
		goto usage;
	if (c.action == TOUR_PAIRINGS && o.argc == 3 &&
	    tour_number(cmd, "ROUND", o.argv[2], TOURNAMENT_MAX_ROUNDS,
			&round) < 0)
		goto out;
	if (c.action == TOUR_ADJUDICATE &&
	    (tour_number(cmd, "GAME", o.argv[2], INT64_MAX / 2, &c.game) < 0 ||
	     tour_result(cmd, o.argv[3], &c.result) < 0))
		goto out;
	c.player = c.action == TOUR_WITHDRAW ? o.argv[2] : NULL;
	c.note = o.note;
	if (admin_now(cmd, &c.now) < 0)
		goto out;
	if (c.action == TOUR_SHOW || c.action == TOUR_WITHDRAW ||
	    c.action == TOUR_ADJUDICATE) {
		if (!admin_config(&o, "give --config FILE"))
			fprintf(stderr, "%s: needs the daemon's configuration "
				"(--config FILE) for its events\n", cmd);
		else
			rc = admin_service_run(&o, cmd, tour_ask, &c);
		goto out;
	}
	if (admin_open(&o, false, &st) < 0 ||
	    admin_tournament_log(&o, st, cmd, c.name, &log) < 0 ||
	    tour_view(cmd, c.action, &log, (int)round, ctx) < 0)
		goto out;
	ts = cli_templates();
	if (cli_render(ts, c.action == TOUR_HISTORY ?
		       "admin-tournament-history.txt" :
		       "admin-tournament-pairings.txt", ctx) < 0)
		goto out;
	rc = CLI_EXIT_OK;
	goto out;
usage:
	rc = admin_usage(TOURNAMENT_USAGE);
out:
	tournament_log_free(&log);
	template_set_free(&ts);
	template_ctx_free(&ctx);
	store_close(&st);
	admin_done(&o);
	return rc;
}
