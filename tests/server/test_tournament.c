/* test_tournament.c -- the club's events run by the service's timer,
 * against a real SQLite file: a Swiss of six over three rounds begun at
 * its start, each round paired only when every game of the one before
 * has a result (fed in by mail), a withdrawal by mail in round 2 (the
 * running game resigned, the player in no later round), a game still
 * running at round 3's deadline decided by the clocks as the daemon's,
 * and the final standings mailed to each entrant once; the operator's
 * withdraw and adjudicate; a reload that changes the event's rules
 * changes no round already paired. */
#include <check.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/notation.h"
#include "core/record.h"
#include "render/template.h"
#include "server/server.h"
#include "server/tournament.h"
#include "store/store.h"

#include "server_test.h"
#include "../check_run.h"

#define DAY 86400
#define NPLAYERS 6

static const char *const names[NPLAYERS] = {
	"ann", "ben", "cat", "dan", "eva", "fay"
};
static char fps[NPLAYERS][41], addrs[NPLAYERS][64];
static int64_t ids[NPLAYERS];
static struct server_tournament event;

/* The service with event "open6": a Swiss of `rounds` of the six, days:5
 * a move, the round deadline `deadline` seconds (0: none). */
static void event_server(int rounds, int64_t deadline)
{
	struct server_config cfg;

	test_config(&cfg, ts);
	memset(&event, 0, sizeof(event));
	event.club.name = "open6";
	event.club.where = "test.conf:1";
	event.club.members = names;
	event.club.nmembers = NPLAYERS;
	core_variant_default(&event.club.variant);
	event.club.variant.size = 3;
	event.club.clock = "days:5";
	event.club.rated = true;
	tournament_rules_default(TOURNAMENT_SWISS, &event.rules);
	event.rules.rounds = rounds;
	event.start = now - 10 * 3600; /* the day began: it starts now */
	event.signup_until = event.start;
	event.max_players = TOURNAMENT_MAX_PLAYERS;
	event.round_deadline = deadline;
	event.standings_mail = true;
	cfg.tournaments = &event;
	cfg.ntournaments = 1;
	cfg.clock.outage_grace = 0;
	cfg.clock.auto_vacation = false;
	server_restart(&cfg);
}

/* The six registered, with ratings 1800, 1750, ... (the seeds). */
static void six_players(void)
{
	const char *error;

	for (int i = 0; i < NPLAYERS; i++) {
		struct store_player *p = NULL;
		struct store_rating r = { 0 };

		memset(fps[i], 'A' + i, 40);
		fps[i][40] = '\0';
		snprintf(addrs[i], sizeof(addrs[i]), "%s@example.org",
			 names[i]);
		join(fps[i], addrs[i], names[i]);
		ck_assert_int_eq(store_player_by_name(st, names[i], &p,
						      &error), 1);
		ids[i] = p->id;
		store_player_free(&p);
		r.player_id = ids[i];
		r.r = 1800 - 50 * i;
		r.rd = 60;
		r.vol = 0.06;
		r.games = 10;
		ck_assert_int_eq(store_rating_set(st, &r, &error), 0);
	}
	mail_drop();
}

static int who(int64_t pid)
{
	for (int i = 0; i < NPLAYERS; i++)
		if (ids[i] == pid)
			return i;
	ck_abort_msg("no player %" PRId64, pid);
	return -1;
}

static struct server_tick_report tick(void)
{
	struct server_tick_report r;
	const char *error = NULL;

	now += 60;
	ck_assert_msg(server_clock_tick(srv, now, &r, &error) == 0, "%s",
		      error);
	return r;
}

/* The stored games of round `round`: ids into games (room 8). */
static size_t round_games(int round, int64_t *games)
{
	struct store_tournament_game *tg = NULL;
	const char *error;
	size_t n = 0, k = 0;

	ck_assert_int_eq(store_tournament_games(st, "open6", &tg, &n, &error),
			 0);
	for (size_t i = 0; i < n; i++)
		if (tg[i].round == round)
			games[k++] = tg[i].game_id;
	store_rows_free(&tg, n, sizeof(*tg), store_tournament_game_clear);
	return k;
}

static void players_of(int64_t game, int *white, int *black)
{
	struct store_game *g = NULL;
	const char *error;

	ck_assert_int_eq(store_game_load(st, game, &g, &error), 1);
	*white = who(g->white_id);
	*black = who(g->black_id);
	store_game_free(&g);
}

/* The player `loser` (an index) resigns game g. */
static void resigns(int loser, int64_t g)
{
	game_says(fps[loser], addrs[loser], "resign", g, "");
}

/* The log's entries of a kind, by actor (NULL: any). */
static size_t entries(const char *kind, const char *actor)
{
	struct store_tournament_entry *e = NULL;
	const char *error;
	size_t n = 0, k = 0;

	ck_assert_int_eq(store_tournament_entries(st, "open6", &e, &n, &error),
			 0);
	for (size_t i = 0; i < n; i++)
		k += strcmp(e[i].kind, kind) == 0 &&
		     (actor == NULL || strcmp(e[i].actor, actor) == 0);
	store_rows_free(&e, n, sizeof(*e), store_tournament_entry_clear);
	return k;
}

static void show(struct buf *out)
{
	const char *error = NULL;

	buf_reset(out);
	ck_assert_msg(server_tournament_show(srv, "open6", now, out, &error) ==
		      0, "%s", error);
}

START_TEST(test_swiss_six_three_rounds)
{
	int64_t g[8], g2[8];
	bool met[NPLAYERS][NPLAYERS] = { { false } };
	struct server_tick_report r;
	struct outbox o;
	struct buf text = BUF_INIT;
	int w, b, leaver = -1;
	size_t n;

	six_players();
	event_server(3, 4 * DAY);
	r = tick();
	ck_assert_uint_eq(r.event_rounds, 1);
	n = round_games(1, g);
	ck_assert_uint_eq(n, 3);
	/* every entrant the round's mail, White of each game "your move" */
	o = new_mail();
	for (int i = 0; i < NPLAYERS; i++)
		ck_assert_uint_eq(count_to(&o, addrs[i]),
				  mail_to(&o, addrs[i], "your-move") ? 2 : 1);
	for (size_t i = 0; i < n; i++) {
		players_of(g[i], &w, &b);
		ck_assert_ptr_nonnull(mail_to(&o, addrs[w], "your-move"));
		ck_assert_has(sent_to(&o, addrs[w], "tournament")->body,
			      "You play White");
		ck_assert_has(sent_to(&o, addrs[b], "tournament")->body,
			      "You play Black");
	}
	outbox_free(&o);
	/* the Dutch split: seeds 1-4, 2-5, 3-6, the top seed White */
	players_of(g[0], &w, &b);
	ck_assert_int_eq(w, 0);
	ck_assert_int_eq(b, 3);

	/* Round 1: White wins every game; nothing is paired while one
	 * runs. */
	for (size_t i = 0; i < n; i++) {
		players_of(g[i], &w, &b);
		met[w][b] = met[b][w] = true;
		resigns(b, g[i]);
		r = tick();
		ck_assert_uint_eq(r.event_rounds, i + 1 == n ? 1 : 0);
	}
	ck_assert_uint_eq(round_games(2, g2), 3);
	for (size_t i = 0; i < 3; i++) {
		players_of(g2[i], &w, &b);
		ck_assert_msg(!met[w][b], "%s and %s met twice", names[w],
			      names[b]);
		met[w][b] = met[b][w] = true;
	}
	mail_drop();

	/* Round 2: the Black player of the second game leaves by mail; their
	 * game is resigned for them at once; the others are won by Black. */
	players_of(g2[1], &w, &leaver);
	{
		char body[64];

		snprintf(body, sizeof(body), "tournament leave open6\n");
		ck_assert_int_eq(send_as(fps[leaver], addrs[leaver], NULL,
					 body).status, SERVER_OK);
	}
	ck_assert_int_eq(status_of(g2[1]), STORE_GAME_FINISHED);
	ck_assert_uint_eq(entries("leave", "mail"), 1);
	players_of(g2[0], &w, &b);
	resigns(w, g2[0]);
	r = tick();
	ck_assert_uint_eq(r.event_rounds, 0);
	players_of(g2[2], &w, &b);
	resigns(w, g2[2]);
	r = tick();
	ck_assert_uint_eq(r.event_rounds, 1);
	/* Round 3: five still in, two games and a bye; the leaver is in
	 * none of them. */
	n = round_games(3, g);
	ck_assert_uint_eq(n, 2);
	ck_assert_uint_eq(entries("bye", NULL), 1);
	for (size_t i = 0; i < n; i++) {
		players_of(g[i], &w, &b);
		ck_assert_int_ne(w, leaver);
		ck_assert_int_ne(b, leaver);
		ck_assert_msg(!met[w][b], "%s and %s met twice", names[w],
			      names[b]);
	}
	mail_drop();

	/* One game ends; the other is still running at the deadline: White
	 * moved once, so Black's clock ran and Black has less time left. */
	players_of(g[0], &w, &b);
	resigns(b, g[0]);
	r = tick();
	ck_assert_uint_eq(r.event_ended, 0);
	players_of(g[1], &w, &b);
	{
		char mv[32], line[40];

		first_legal(g[1], mv);
		snprintf(line, sizeof(line), "1 %s", mv);
		game_says(fps[w], addrs[w], "move", g[1], line);
	}
	now += 2 * DAY;
	r = tick();
	ck_assert_uint_eq(r.event_decided, 0); /* not yet */
	mail_drop();
	now += 2 * DAY;
	r = tick();
	ck_assert_uint_eq(r.event_decided, 1);
	ck_assert_uint_eq(r.event_ended, 1);
	ck_assert_uint_eq(entries("adjudication", "daemon"), 1);
	ck_assert_int_eq(status_of(g[1]), STORE_GAME_FINISHED);
	o = new_mail();
	ck_assert_has(sent_to(&o, addrs[w], "result")->body, "deadline");
	/* the final standings, once to each entrant (the leaver too) */
	for (int i = 0; i < NPLAYERS; i++) {
		const struct store_outbox_msg *m =
			sent_to(&o, addrs[i], "tournament");

		ck_assert_has(m->subject, "final standings");
		ck_assert_has(m->body, "is over");
		ck_assert_has(m->body, "Crosstable");
	}
	outbox_free(&o);
	r = tick();
	ck_assert_uint_eq(r.event_ended, 0);
	mail_count_is(0);

	/* The standings: 1 + 1 + ... : six games of two points and three
	 * decided wins, the bye a point: 3 * 2 + 3 * 2 + 2 * 2 + 2 = 18
	 * half points in all; the leaver withdrawn. */
	show(&text);
	ck_assert_has(buf_str(&text), "It is over");
	ck_assert_has(buf_str(&text), "withdrawn");
	{
		const char *p = strstr(buf_str(&text), "Standings:");
		int half = 0, rows = 0;

		ck_assert_ptr_nonnull(p);
		for (int i = 0; i < NPLAYERS; i++) {
			char name[16], pts[16];
			const char *line = strstr(p, "\n  ");

			ck_assert_ptr_nonnull(line);
			ck_assert_int_eq(sscanf(line, "\n  %*d. %15s %15s", name,
						pts), 2);
			half += atoi(pts) * 2 + (strstr(pts, "\u00bd") ? 1 : 0);
			rows++;
			p = line + 3;
		}
		ck_assert_int_eq(rows, NPLAYERS);
		ck_assert_int_eq(half, 18);
	}
	buf_free(&text);
}
END_TEST

/* The operator withdraws a player and decides a game; both are recorded
 * as the operator's, with the note. */
START_TEST(test_operator_withdraw_adjudicate)
{
	struct buf out = BUF_INIT;
	const char *error = NULL;
	int64_t g[8];
	int w, b;

	six_players();
	event_server(2, 0);
	tick();
	ck_assert_uint_eq(round_games(1, g), 3);
	players_of(g[0], &w, &b);
	ck_assert_int_eq(server_tournament_adjudicate(srv, "open6", g[0],
						      "draw", "agreed by phone",
						      now, &out, &error), 0);
	ck_assert_has(buf_str(&out), "Adjudicated: game");
	ck_assert_int_eq(status_of(g[0]), STORE_GAME_FINISHED);
	ck_assert_uint_eq(entries("adjudication", "operator"), 1);
	/* refused: no note, a bad result, a game of no event */
	ck_assert_int_eq(server_tournament_adjudicate(srv, "open6", g[1],
						      "draw", "", now, &out,
						      &error), -1);
	ck_assert_int_eq(server_tournament_adjudicate(srv, "open6", g[1],
						      "1-0", "x", now, &out,
						      &error), -1);
	ck_assert_int_eq(server_tournament_adjudicate(srv, "open6", 999,
						      "white", "x", now, &out,
						      &error), -1);
	ck_assert_has(error, "not a game of this tournament");
	players_of(g[1], &w, &b);
	buf_reset(&out);
	ck_assert_int_eq(server_tournament_withdraw(srv, "open6", names[b],
						    "illness", now, &out,
						    &error), 0);
	ck_assert_has(buf_str(&out), "Withdrawn: ");
	ck_assert_uint_eq(entries("withdraw", "operator"), 1);
	ck_assert_int_eq(status_of(g[1]), STORE_GAME_FINISHED);
	ck_assert_int_eq(server_tournament_withdraw(srv, "open6", names[b],
						    NULL, now, &out, &error),
			 -1);
	ck_assert_has(error, "is not an entrant");
	ck_assert_int_eq(server_tournament_withdraw(srv, "nosuch", names[b],
						    NULL, now, &out, &error),
			 -1);
	buf_free(&out);
}
END_TEST

/* A reload with other rules (more rounds, another bye) changes nothing
 * of round 1: its pairing is in the log, written once. */
START_TEST(test_reload_keeps_pairings)
{
	int64_t g[8], again[8];
	size_t n, m;

	six_players();
	event_server(3, 0);
	tick();
	n = round_games(1, g);
	event_server(5, DAY);
	event.rules.bye_points = 0;
	tick();
	m = round_games(1, again);
	ck_assert_uint_eq(n, m);
	for (size_t i = 0; i < n; i++)
		ck_assert_int_eq(g[i], again[i]);
	ck_assert_uint_eq(round_games(2, again), 0);
	ck_assert_uint_eq(entries("pairing", NULL), 3);
}
END_TEST

/* A rated event's game of four plies or more moves both players'
 * Glicko-2 ratings when its result is taken, once. */
START_TEST(test_rated_game)
{
	struct store_rating_change *c = NULL;
	const char *error;
	int64_t g[8];
	size_t n = 0;
	int w, b;

	six_players();
	event_server(1, 0);
	tick();
	ck_assert_uint_eq(round_games(1, g), 3);
	players_of(g[0], &w, &b);
	for (int ply = 1; ply <= 4; ply++) {
		char mv[32], line[48];
		int who = ply % 2 == 1 ? w : b;

		first_legal(g[0], mv);
		snprintf(line, sizeof(line), "%d %s", ply, mv);
		game_says(fps[who], addrs[who], "move", g[0], line);
		if (status_of(g[0]) != STORE_GAME_ACTIVE)
			break;
	}
	if (status_of(g[0]) == STORE_GAME_ACTIVE)
		resigns(b, g[0]);
	ck_assert_uint_eq(tick().event_rated, 1);
	ck_assert_int_eq(store_rating_changes(st, g[0], &c, &n, &error), 0);
	ck_assert_uint_eq(n, 2);
	free(c);
	ck_assert_uint_eq(tick().event_rated, 0);
}
END_TEST

TEST_MAIN("tournament", "events", setup, teardown, 120,
	  test_swiss_six_three_rounds, test_operator_withdraw_adjudicate,
	  test_reload_keeps_pairings, test_rated_game)
