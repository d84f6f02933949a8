/* admin.c -- the operator's subcommands of `ashes`: the database schema
 * (`db migrate|check`; `db prune --retention` is admin_retention.c's,
 * `db backup|restore` admin_backup.c's), games (`games`, `game show ID`; `game adjust` is
 * in admin_clock.c), players (`player list|add|key|set`), the outbox
 * (`outbox list`) and the mails read (`inbound list`).  What they share
 * is admin_common.c's (admin.h).  They read and change the same SQLite file as ashesd,
 * through the store (and the service for `game`); the WAL lets them run
 * while the daemon does.
 *
 * Every one takes --db PATH (before or after its name); without it,
 * $ASHES_DB, else the [database] path of the config file (--config FILE,
 * default CONFIG_DEFAULT_PATH, when it exists), else ADMIN_DEFAULT_DB.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "cli/admin.h"
#include "cli/cli.h"
#include "config/club_config.h"
#include "config/settings.h"
#include "server/server.h"
#include "store/store.h"
#include "util/buf.h"
#include "util/escape.h"
#include "util/width.h"
#include "util/xalloc.h"

static void format_time(int64_t t, char *buf, size_t len)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (t == 0 || gmtime_r(&tt, &tm) == NULL)
		snprintf(buf, len, "-");
	else
		strftime(buf, len, "%Y-%m-%d %H:%M", &tm);
}

/* ---- db ---------------------------------------------------------------- */

#define DB_USAGE \
	"db migrate|check | db prune --retention [--vacuum] |\n" \
	"       db backup|restore FILE   [--db PATH]"

int cli_db(int argc, char **argv)
{
	struct admin_opts o;
	struct store *st = NULL;
	const char *error;
	int rc = CLI_EXIT_FAILURE, before, after, known;

	if (admin_parse(argc, argv, &o) < 0 || o.argc < 1 || o.argc > 2 ||
	    (o.argc == 2) != (strcmp(o.argv[0], "backup") == 0 ||
			      strcmp(o.argv[0], "restore") == 0))
		return admin_usage(DB_USAGE);
	if (strcmp(o.argv[0], "prune") == 0) {
		rc = admin_db_prune(&o);
	} else if (strcmp(o.argv[0], "backup") == 0) {
		rc = admin_db_backup(&o, o.argv[1]);
	} else if (strcmp(o.argv[0], "restore") == 0) {
		rc = admin_db_restore(&o, o.argv[1]);
	} else if (strcmp(o.argv[0], "migrate") == 0) {
		if (admin_open(&o, true, &st) < 0)
			goto out;
		if (store_schema_version(st, &before, &known, &error) < 0 ||
		    store_migrate(st, -1, &error) < 0 ||
		    store_schema_version(st, &after, &known, &error) < 0) {
			fprintf(stderr, "ashes db migrate: %s\n", error);
			goto out;
		}
		printf("schema version %d -> %d (latest known %d, from %s)\n",
		       before, after, known, store_sql_source(st));
		rc = CLI_EXIT_OK;
	} else if (strcmp(o.argv[0], "check") == 0) {
		struct store_check_report *rep = NULL;
		if (admin_open(&o, true, &st) < 0)
			goto out;
		if (store_check(st, &rep, &error) < 0) {
			fprintf(stderr, "ashes db check: %s\n", error);
			goto out;
		}
		admin_print_text(rep->text);
		rc = rep->ok ? CLI_EXIT_OK : CLI_EXIT_FAILURE;
		store_check_report_free(&rep);
	} else {
		rc = admin_usage(DB_USAGE);
	}
out:
	store_close(&st);
	admin_done(&o);
	return rc;
}

/* ---- games ------------------------------------------------------------- */

static const char *player_name_of(struct store *st, int64_t id, char *buf,
				  size_t len)
{
	struct store_player *p = NULL;
	const char *error;

	if (id == 0)
		return "-";
	if (store_player_load(st, id, &p, &error) == 1)
		snprintf(buf, len, "%s", p->name);
	else
		snprintf(buf, len, "#%" PRId64, id);
	store_player_free(&p);
	return buf;
}

/* One row of `ashes games` into the list `games` of ctx, each column
 * padded to the width of its heading in admin-games.txt. */
static void games_row(struct store *st, const struct store_game *g,
		      struct template_ctx *ctx)
{
	struct template_ctx *item = template_ctx_add(ctx, "games");
	char w[64], b[64], t[32];
	struct buf pad = BUF_INIT;

	format_time(g->updated, t, sizeof(t));
	template_ctx_setf(item, "game", "%6" PRId64, g->id);
	template_ctx_setf(item, "status", "%-10s",
			  store_game_status_name(g->status));
	/* Names are UTF-8: padded by display columns (a Hangul name's
	 * syllables take two each), so the columns stay aligned. */
	width_pad(&pad, player_name_of(st, g->white_id, w, sizeof(w)), 16);
	template_ctx_set(item, "white", buf_str(&pad));
	buf_reset(&pad);
	width_pad(&pad, player_name_of(st, g->black_id, b, sizeof(b)), 16);
	template_ctx_set(item, "black", buf_str(&pad));
	buf_free(&pad);
	template_ctx_setf(item, "ply", "%5d", g->ply);
	template_ctx_setf(item, "result", "%-7s",
			  g->result ? g->result : "-");
	template_ctx_setf(item, "updated", "%-16s", t);
	template_ctx_set(item, "variant", g->variant);
}

int cli_games(int argc, char **argv)
{
	struct admin_opts o;
	struct store *st = NULL;
	struct store_game *games = NULL, *any = NULL;
	struct template_set *ts = NULL;
	struct template_ctx *ctx = template_ctx_new();
	size_t n = 0, n_any = 0;
	const char *error;
	unsigned mask = (1u << STORE_GAME_CHALLENGE) | (1u << STORE_GAME_OPEN) |
			(1u << STORE_GAME_ACTIVE);
	int rc = CLI_EXIT_FAILURE;

	if (admin_parse(argc, argv, &o) < 0 || o.argc != 0) {
		template_ctx_free(&ctx);
		return admin_usage("games [--all | --status STATUS] [--limit N] "
				   "[--db PATH]");
	}
	if (o.all)
		mask = 0;
	if (o.status != NULL) {
		enum store_game_status s;
		if (store_game_status_parse(o.status, &s) < 0) {
			fprintf(stderr, "ashes games: unknown status %s\n",
				o.status);
			goto out;
		}
		mask = 1u << s;
	}
	if (admin_open(&o, false, &st) < 0)
		goto out;
	if (store_games_list(st, mask, 0, o.limit > 0 ? (size_t)o.limit : 0,
			     &games, &n, &error) < 0) {
		fprintf(stderr, "ashes games: %s\n", error);
		goto out;
	}
	template_ctx_list(ctx, "games");
	for (size_t i = 0; i < n; i++)
		games_row(st, &games[i], ctx);
	template_ctx_set_bool(ctx, "none", n == 0);
	if (n == 0 && o.status != NULL) {
		template_ctx_set(ctx, "listed_status", o.status);
	} else if (n == 0 && mask == 0) {
		template_ctx_set_bool(ctx, "listed_all", true);
	} else if (n == 0) {
		/* None open: say whether --all would show ended ones. */
		if (store_games_list(st, 0, 0, 1, &any, &n_any, &error) < 0) {
			fprintf(stderr, "ashes games: %s\n", error);
			goto out;
		}
		template_ctx_set_bool(ctx, "listed_open", true);
		template_ctx_set_bool(ctx, "others", n_any > 0);
	}
	ts = cli_templates();
	if (cli_render(ts, "admin-games.txt", ctx) < 0)
		goto out;
	rc = CLI_EXIT_OK;
out:
	store_rows_free(&games, n, sizeof(*games), store_game_clear);
	store_rows_free(&any, n_any, sizeof(*any), store_game_clear);
	template_set_free(&ts);
	template_ctx_free(&ctx);
	store_close(&st);
	admin_done(&o);
	return rc;
}

#define GAME_USAGE "game show ID | game adjust ID DURATION [white|black] " \
	"[--note TEXT]   [--db PATH]"

/* `ashes game show`'s question: game id[0] at time id[1]. */
static int game_show_ask(struct server *srv, const void *arg,
			 struct buf *out, const char **error_r)
{
	const int64_t *id_now = arg;

	return server_game_show(srv, id_now[0], id_now[1], out, error_r);
}

int cli_game(int argc, char **argv)
{
	struct admin_opts o;
	int64_t id_now[2];
	char *end;
	int rc = CLI_EXIT_FAILURE;

	if (admin_parse(argc, argv, &o) < 0 || o.argc < 1)
		return admin_usage(GAME_USAGE);
	if (strcmp(o.argv[0], "adjust") == 0) {
		rc = admin_game_adjust(&o);
		goto out;
	}
	if (o.argc != 2 || strcmp(o.argv[0], "show") != 0) {
		rc = admin_usage(GAME_USAGE);
		goto out;
	}
	id_now[0] = strtoll(o.argv[1][0] == '#' ? o.argv[1] + 1 : o.argv[1],
			    &end, 10);
	if (*end != '\0' || id_now[0] <= 0) {
		fprintf(stderr, "ashes game show: not a game number: %s\n",
			o.argv[1]);
		goto out;
	}
	if (admin_now("ashes game show", &id_now[1]) == 0)
		rc = admin_service_run(&o, "ashes game show", game_show_ask,
				       id_now);
out:
	admin_done(&o);
	return rc;
}

/* ---- players ----------------------------------------------------------- */

#define PLAYER_USAGE "player list | player add NAME ADDRESS [FINGERPRINT] | " \
	"player delete NAME | player export NAME [FILE] | " \
	"player key NAME FINGERPRINT | player set NAME KEY VALUE   [--db PATH]"

/* `player list`: the settings a player changed from the defaults, as
 * "confirm off, moves none" (nothing for a player who changed none). */
static void player_settings_print(struct store *st, int64_t id)
{
	struct store_settings s, def;
	const char *error;
	bool any = false;

	if (store_settings_get(st, id, &s, &error) < 0)
		return;
	store_settings_default(&def);
	for (int k = 0; k < STORE_SETTING_COUNT; k++) {
		const char *w = store_setting_word(&s, (enum store_setting_key)k);
		if (strcmp(w, store_setting_word(&def,
						 (enum store_setting_key)k)) == 0)
			continue;
		printf("%s%s %s", any ? ", " : "\tsettings ",
		       store_setting_name((enum store_setting_key)k), w);
		any = true;
	}
	if (any)
		putchar('\n');
}

/* Whether the templates (--templates, ASHES_TEMPLATES, the installed
 * ones) lack language lang; says so, naming those they have. */
static bool player_language_missing(const char *lang)
{
	struct template_set *ts = cli_templates();
	bool missing = admin_language(ts, lang, "player set") == NULL;

	template_set_free(&ts);
	return missing;
}

/* `player set NAME KEY VALUE`: what a player would set with `set KEY
 * VALUE` by mail.  A CLI exit code. */
static int player_set(struct store *st, char **argv, int64_t now)
{
	struct store_player *p = NULL;
	struct store_settings s;
	enum store_setting_key key;
	const char *error;
	int ret, rc = CLI_EXIT_FAILURE;

	ret = store_player_by_name(st, argv[0], &p, &error);
	if (ret != 1) {
		fprintf(stderr, "ashes player set: %s\n",
			ret == 0 ? "no such player" : error);
		goto out;
	}
	if (store_setting_parse_key(argv[1], &key) < 0) {
		fprintf(stderr, "ashes player set: no setting %s (", argv[1]);
		for (int k = 0; k < STORE_SETTING_COUNT; k++)
			fprintf(stderr, "%s%s", k > 0 ? ", " : "",
				store_setting_name((enum store_setting_key)k));
		fputs(")\n", stderr);
		goto out;
	}
	if (store_settings_get(st, p->id, &s, &error) < 0) {
		fprintf(stderr, "ashes player set: %s\n", error);
		goto out;
	}
	if (store_setting_parse_value(&s, key, argv[2]) < 0) {
		fprintf(stderr, "ashes player set: %s is %s, not %s\n",
			store_setting_name(key), store_setting_choices(key),
			argv[2]);
		goto out;
	}
	/* The store knows a zone name's shape; the tz database its zones. */
	if (key == STORE_SETTING_TIMEZONE && s.timezone[0] != '\0' &&
	    clock_zone_check(s.timezone, NULL) < 0) {
		fprintf(stderr, "ashes player set: no time zone %s in the tz "
			"database\n", s.timezone);
		goto out;
	}
	/* The store knows a language's shape; the templates which exist. */
	if (key == STORE_SETTING_LANGUAGE && s.language[0] != '\0' &&
	    player_language_missing(s.language))
		goto out;
	if (store_settings_set(st, p->id, &s, now, &error) < 0) {
		fprintf(stderr, "ashes player set: %s\n", error);
		goto out;
	}
	printf("%s: %s %s\n", p->name, store_setting_name(key),
	       store_setting_word(&s, key));
	rc = CLI_EXIT_OK;
out:
	store_player_free(&p);
	return rc;
}

int cli_player(int argc, char **argv)
{
	struct admin_opts o;
	struct store *st = NULL;
	struct store_player *players = NULL, *p = NULL;
	size_t n = 0;
	const char *error;
	int rc = CLI_EXIT_FAILURE, ret;
	int64_t now;

	if (admin_parse(argc, argv, &o) < 0 || o.argc < 1)
		return admin_usage(PLAYER_USAGE);
	if (admin_now("ashes player", &now) < 0)
		goto out;
	if (strcmp(o.argv[0], "list") == 0 && o.argc == 1) {
		if (admin_open(&o, false, &st) < 0)
			goto out;
		if (store_player_list(st, &players, &n, &error) < 0) {
			fprintf(stderr, "ashes player list: %s\n", error);
			goto out;
		}
		for (size_t i = 0; i < n; i++) {
			struct store_claim claim;

			char *name = escape_str(players[i].name);

			printf("%" PRId64 "\t%s\n", players[i].id, name);
			free(name);
			for (size_t k = 0; k < players[i].n_addresses; k++) {
				const struct store_address *a =
					&players[i].addresses[k];
				/* A bounce's text says why it fails. */
				char *addr = escape_str(a->address);
				char *why = escape_str(a->failing_reason ?
						       a->failing_reason : "?");

				printf("\taddress %s%s%s%s\n", addr,
				       a->failing ? "  (failing: " : "",
				       a->failing ? why : "",
				       a->failing ? ")" : "");
				free(addr);
				free(why);
			}
			if (store_claim_get(st, players[i].id, &claim,
					    &error) == 1) {
				char *addr = escape_str(claim.address);
				printf("\tclaims  %s  (not confirmed)\n",
				       addr);
				free(addr);
			}
			store_claim_clear(&claim);
			for (size_t k = 0; k < players[i].n_fingerprints; k++)
				printf("\tkey     %s\n",
				       players[i].fingerprints[k]);
			player_settings_print(st, players[i].id);
		}
		rc = CLI_EXIT_OK;
	} else if (strcmp(o.argv[0], "add") == 0 &&
		   (o.argc == 3 || o.argc == 4)) {
		int64_t id;
		if (admin_open(&o, false, &st) < 0)
			goto out;
		ret = store_player_add(st, o.argv[1], o.argv[2],
				       o.argc == 4 ? o.argv[3] : NULL, now,
				       &id, &error);
		if (ret != 0) {
			fprintf(stderr, "ashes player add: %s\n",
				ret == 1 ? "the name, address or key is taken" :
				error);
			goto out;
		}
		printf("player %" PRId64 " %s\n", id, o.argv[1]);
		rc = CLI_EXIT_OK;
	} else if (strcmp(o.argv[0], "key") == 0 && o.argc == 3) {
		if (admin_open(&o, false, &st) < 0)
			goto out;
		ret = store_player_by_name(st, o.argv[1], &p, &error);
		if (ret != 1) {
			fprintf(stderr, "ashes player key: %s\n",
				ret == 0 ? "no such player" : error);
			goto out;
		}
		ret = store_player_add_key(st, p->id, o.argv[2], now,
					   &error);
		if (ret != 0) {
			fprintf(stderr, "ashes player key: %s\n",
				ret == 1 ? "that key is already bound" : error);
			goto out;
		}
		printf("key bound to %s\n", p->name);
		rc = CLI_EXIT_OK;
	} else if (strcmp(o.argv[0], "delete") == 0) {
		rc = admin_player_delete(&o);
	} else if (strcmp(o.argv[0], "export") == 0) {
		rc = admin_player_export(&o);
	} else if (strcmp(o.argv[0], "set") == 0 && o.argc == 4) {
		if (admin_open(&o, false, &st) < 0)
			goto out;
		rc = player_set(st, o.argv + 1, now);
	} else if (strcmp(o.argv[0], "set") == 0 && o.argc == 5 &&
		   strcasecmp(o.argv[2], "summary") == 0) {
		/* `player set NAME summary daily 08:00`: two words, one
		 * value, as by mail. */
		char value[64], *args[3] = { o.argv[1], o.argv[2], value };

		snprintf(value, sizeof(value), "%s %s", o.argv[3], o.argv[4]);
		if (admin_open(&o, false, &st) < 0)
			goto out;
		rc = player_set(st, args, now);
	} else {
		rc = admin_usage(PLAYER_USAGE);
	}
out:
	store_player_free(&p);
	store_rows_free(&players, n, sizeof(*players), store_player_clear);
	store_close(&st);
	admin_done(&o);
	return rc;
}

/* ---- outbox ------------------------------------------------------------ */

int cli_outbox(int argc, char **argv)
{
	struct admin_opts o;
	struct store *st = NULL;
	struct store_outbox_msg *msgs = NULL;
	size_t n = 0;
	const char *error;
	enum store_outbox_filter filter = STORE_OUTBOX_ALL;
	int rc = CLI_EXIT_FAILURE;

	if (admin_parse(argc, argv, &o) < 0 || o.argc != 1 ||
	    strcmp(o.argv[0], "list") != 0)
		return admin_usage("outbox list [--status pending|sent|failed] "
				   "[--limit N] [--db PATH]");
	if (o.status != NULL) {
		if (strcmp(o.status, "pending") == 0)
			filter = STORE_OUTBOX_PENDING;
		else if (strcmp(o.status, "sent") == 0)
			filter = STORE_OUTBOX_SENT;
		else if (strcmp(o.status, "failed") == 0)
			filter = STORE_OUTBOX_FAILED;
		else {
			fprintf(stderr, "ashes outbox list: unknown status %s\n",
				o.status);
			goto out;
		}
	}
	if (admin_open(&o, false, &st) < 0)
		goto out;
	if (store_outbox_list(st, filter, 0, o.limit > 0 ? (size_t)o.limit : 0,
			      &msgs, &n, &error) < 0) {
		fprintf(stderr, "ashes outbox list: %s\n", error);
		goto out;
	}
	printf("%6s  %-8s %3s  %-16s  %-28s  %s\n", "ID", "STATE", "TRY",
	       "CREATED", "TO", "SUBJECT / LAST ERROR");
	for (size_t i = 0; i < n; i++) {
		const struct store_outbox_msg *m = &msgs[i];
		char t[32];
		char *to = escape_str(m->recipient);
		char *subject = escape_str(m->subject ? m->subject : "");
		format_time(m->created, t, sizeof(t));
		printf("%6" PRId64 "  %-8s %3d  %-16s  %-28s  %.199s\n", m->id,
		       m->sent_at != 0 ? "sent" : m->failed ? "failed" :
		       "pending", m->attempts, t, to, subject);
		free(to);
		free(subject);
		if (m->last_error != NULL) {
			/* A server's answer: its text is the server's. */
			char *e = escape_str(m->last_error);
			printf("%6s  %-8s %3s  %-16s  %-28s  error: %s\n", "", "",
			       "", "", "", e);
			free(e);
		}
	}
	rc = CLI_EXIT_OK;
out:
	store_outbox_msgs_free(&msgs, n);
	store_close(&st);
	admin_done(&o);
	return rc;
}

/* ---- inbound ----------------------------------------------------------- */

/* Every mail the daemon recorded, oldest first, one line each with what
 * became of it (an exact duplicate too, naming its first reading): what
 * an operator (and the e2e tests) look at to see why a mail had no
 * effect.  Inbound rows are never deleted, so their ids run
 * from 1 without gaps and a walk by id until the first missing one sees
 * them all without a listing function in the store. */
int cli_inbound(int argc, char **argv)
{
	struct admin_opts o;
	struct store *st = NULL;
	const char *error;
	int rc = CLI_EXIT_FAILURE, ret;
	int64_t id;

	if (admin_parse(argc, argv, &o) < 0 || o.argc != 1 ||
	    strcmp(o.argv[0], "list") != 0)
		return admin_usage("inbound list [--db PATH]");
	if (admin_open(&o, false, &st) < 0)
		goto out;
	printf("%6s  %-16s  %-16s  %-28s  %s\n", "ID", "RECEIVED", "PLAYER",
	       "FROM", "OUTCOME");
	for (id = 1;; id++) {
		struct store_inbound *in = NULL;
		char t[32], name[64];

		ret = store_inbound_load(st, id, &in, &error);
		if (ret < 0) {
			fprintf(stderr, "ashes inbound list: %s\n", error);
			goto out;
		}
		if (ret == 0)
			break;
		/* All but the id and the time came in the mail, or say
		 * what was in it: escaped (util/escape.h). */
		char *who, *from, *outcome, *mid, *key;

		format_time(in->received, t, sizeof(t));
		who = escape_str(player_name_of(st, in->player_id, name,
						sizeof(name)));
		from = escape_str(in->sender_address);
		outcome = escape_str(in->outcome);
		mid = escape_str(in->message_id);
		key = escape_str(in->sender_fingerprint);
		printf("%6" PRId64 "  %-16s  %-16s  %-28s  %s\n", in->id, t,
		       who, from, outcome);
		/* A duplicate keeps no bytes: they are its first reading's. */
		if (in->duplicate_of != 0)
			printf("%6s  message-id %s  key %s  duplicate of %"
			       PRId64 "\n", "", mid, key, in->duplicate_of);
		else
			printf("%6s  message-id %s  key %s  bytes %zu\n", "",
			       mid, key, in->raw_len);
		free(who);
		free(from);
		free(outcome);
		free(mid);
		free(key);
		store_inbound_free(&in);
	}
	rc = CLI_EXIT_OK;
out:
	store_close(&st);
	admin_done(&o);
	return rc;
}
