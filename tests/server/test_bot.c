/* test_bot.c -- the practice opponent in the service (bot.c, bot_turn.c):
 * the bot made a player with the daemon's key, the move it owes and when,
 * its moves taken from mails signed by that key like anyone's, no mail
 * ever queued to it, its mails never rate-limited, hints that are legal
 * moves, and rated games only when the configuration says so. */
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/notation.h"
#include "core/record.h"
#include "server/server.h"
#include "store/store.h"
#include "store/store_bot.h"
#include "store/store_club.h"

#include "server_test.h"
#include "../check_run.h"

#define BOT_FP "B0B0B0B0B0B0B0B0B0B0B0B0B0B0B0B0B0B0B0B0"
#define BOT_ADDR "bot@" DOMAIN ".invalid"
#define BOT_DELAY 300

/* The service anew with a bot (and the rate limit, rated as given), and
 * the bot enlisted; alice registered. */
static void bot_setup(unsigned rate_limit, bool rated)
{
	struct server_config cfg;
	const char *error = NULL;

	test_config(&cfg, ts);
	cfg.sender_rate_limit = rate_limit;
	cfg.bot.enabled = true;
	cfg.bot.name = "Ashes bot";
	cfg.bot.levels = 0x3e;
	cfg.bot.max_games = 3;
	cfg.bot.rated = rated;
	cfg.bot.delay = BOT_DELAY;
	server_restart(&cfg);
	ck_assert_msg(server_bot_enlist(srv, BOT_FP, now, &error) == 0, "%s",
		      error);
	join(ALICE_FP, ALICE, "alice");
	mail_drop();
}

/* The game alice's `challenge bot` made. */
static int64_t bot_game(const char *options)
{
	char line[128];

	snprintf(line, sizeof(line), "challenge bot %s", options);
	return alice_challenges(line);
}

/* The bot's move in its turn, made as the bot thread makes it: due when
 * the delay passed, thought, and sent as a mail signed by its key. */
static struct server_outcome bot_moves(int64_t g)
{
	struct server_bot_turn turn;
	struct buf text = BUF_INIT, subject = BUF_INIT;
	struct server_outcome out;
	char move[CORE_MOVE_TEXT_MAX], want[96];
	const char *error = NULL;

	ck_assert_int_eq(server_bot_next(srv, now, 0, 0, &turn, &error), 1);
	ck_assert_int_eq(turn.game_id, g);
	ck_assert_int_eq(turn.ply, ply_of(g) + 1);
	/* Not before its delay (test_bot_due_and_skip). */
	if (turn.due > now)
		now = turn.due;
	ck_assert_int_eq(server_bot_think(&turn, 50, move, &error), 0);
	ck_assert_int_eq(server_bot_mail(srv, &turn, move, now, &text,
					 &subject, &error), 0);
	snprintf(want, sizeof(want), "move %" PRId64 " %d %s\n", g, turn.ply,
		 move);
	ck_assert_has(buf_str(&text), want);
	{
		/* as the bot thread hands it over: in process */
		struct mail m = { .fp = BOT_FP, .from = BOT_ADDR,
				  .subject = buf_str(&subject),
				  .body = buf_str(&text), .in_process = true };
		ck_assert_int_eq(deliver(&m, &out), 0);
	}
	buf_free(&text);
	buf_free(&subject);
	return out;
}

START_TEST(test_bot_enlisted)
{
	struct store_player *p = NULL;
	const char *error;
	int64_t id;

	bot_setup(0, false);
	ck_assert_int_eq(store_bot_player(st, &id, &error), 1);
	ck_assert_int_eq(store_player_by_fingerprint(st, BOT_FP, &p, &error),
			 1);
	ck_assert_int_eq(p->id, id);
	ck_assert_str_eq(p->name, "Ashes bot");
	store_player_free(&p);
	/* Again (a restart): the same player. */
	ck_assert_int_eq(server_bot_enlist(srv, BOT_FP, now, &error), 0);
	ck_assert_int_eq(store_bot_player(st, &id, &error), 1);
	ck_assert_int_eq(store_player_by_fingerprint(st, BOT_FP, &p, &error),
			 1);
	ck_assert_int_eq(p->id, id);
	store_player_free(&p);
}
END_TEST

/* The bot's key signs every mail the daemon sends: a mail signed by it
 * that came through the mailbox (a relay re-wrapped, say) is a copy and
 * speaks for nobody -- no resignation, no move, no answer; only the bot
 * thread's own, in process, counts, and that only for a move. */
START_TEST(test_bot_key_from_mailbox)
{
	struct mail m = { .fp = BOT_FP, .from = "erin@evil.example" };
	struct server_outcome out;
	char line[64];
	int64_t g;

	bot_setup(0, false);
	g = bot_game("level=1 size=3");
	snprintf(line, sizeof(line), "resign %" PRId64 "\n", g);
	m.body = line;
	deliver_is(&m, &out, SERVER_IGNORED);
	ck_assert_str_eq(out.outcome, "refused: own_key (signed by a key of "
			 "this daemon; not answered)");
	ck_assert_int_eq(status_of(g), STORE_GAME_ACTIVE);
	mail_count_is(0);
	/* even from the bot thread, the bot's mail plays moves only: no
	 * other act of the bot is ever recorded */
	m.in_process = true;
	deliver_is(&m, &out, SERVER_REFUSED);
	ck_assert_str_eq(out.outcome, "refused: line 1: bot_moves_only "
			 "(resign 1)");
	ck_assert_int_eq(status_of(g), STORE_GAME_ACTIVE);
}
END_TEST

/* A whole game against the bot: every bot move is taken from its signed
 * mail, none refused, and no mail is ever queued to the bot. */
START_TEST(test_bot_whole_game)
{
	const char *error;
	int64_t g;
	int plies = 0;

	bot_setup(0, false);
	g = bot_game("level=1 size=3");
	ck_assert_int_eq(status_of(g), STORE_GAME_ACTIVE);
	while (status_of(g) == STORE_GAME_ACTIVE && plies < 200) {
		struct server_bot_turn turn;
		struct outbox o;
		char text[CORE_MOVE_TEXT_MAX], line[96];
		int r;

		r = server_bot_next(srv, now + BOT_DELAY * 2, 0, 0, &turn,
				    &error);
		ck_assert_int_ge(r, 0);
		if (r == 0) {
			/* Alice's turn: her first legal move. */
			first_legal(g, text);
			snprintf(line, sizeof(line), "move %" PRId64 " %d %s",
				 g, ply_of(g) + 1, text);
			ck_assert_int_eq(ALICE_SAYS(line).status, SERVER_OK);
		} else {
			ck_assert_int_eq(bot_moves(g).status, SERVER_OK);
		}
		o = new_mail();
		ck_assert_uint_eq(count_to(&o, BOT_ADDR), 0);
		outbox_free(&o);
		plies++;
	}
	ck_assert_int_eq(status_of(g), STORE_GAME_FINISHED);
	/* The bot owes nothing in an ended game. */
	{
		struct server_bot_turn turn;
		ck_assert_int_eq(server_bot_next(srv, now + 86400, 0, 0, &turn,
						 &error), 0);
	}
}
END_TEST

/* The bot moves in every game it plays: its mails are never counted
 * against the sender rate limit, which stops anyone else. */
START_TEST(test_bot_not_rate_limited)
{
	char line[256], text[3][CORE_MOVE_TEXT_MAX];
	const char *error;
	int64_t g[3];

	bot_setup(2, false);
	now += 7200;
	ck_assert_int_eq(ALICE_SAYS("challenge bot size=3\n"
				    "challenge bot size=3\n"
				    "challenge bot size=3").status, SERVER_OK);
	mail_drop();
	for (int i = 0; i < 3; i++) {
		struct server_bot_turn t;
		/* games 1, 2, 3 of this store */
		g[i] = i + 1;
		ck_assert_int_eq(server_bot_next(srv, now + 86400, 0, 0, &t,
						 &error), 0);
		first_legal(g[i], text[i]);
	}
	now += 7200;
	snprintf(line, sizeof(line), "move 1 1 %s\nmove 2 1 %s\nmove 3 1 %s",
		 text[0], text[1], text[2]);
	ck_assert_int_eq(ALICE_SAYS(line).status, SERVER_OK);
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(bot_moves(g[i]).status, SERVER_OK);
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(ply_of(g[i]), 2);
	/* Alice, a fourth mail within the hour: refused as a flood. */
	ck_assert_int_eq(ALICE_SAYS("games").status, SERVER_OK);
	ck_assert_int_eq(ALICE_SAYS("games").status, SERVER_MAIL_REFUSED);
	mail_drop();
}
END_TEST

/* The bot's turn is due only after its delay, and a refused move is
 * skipped until the game moves on. */
START_TEST(test_bot_due_and_skip)
{
	struct server_bot_turn turn;
	const char *error;
	char text[CORE_MOVE_TEXT_MAX], line[96];
	int64_t g, moved;

	bot_setup(0, false);
	g = bot_game("level=1 size=3");
	/* Alice to move: the bot owes nothing. */
	ck_assert_int_eq(server_bot_next(srv, now + 86400, 0, 0, &turn,
					 &error), 0);
	first_legal(g, text);
	snprintf(line, sizeof(line), "move %" PRId64 " 1 %s", g, text);
	ck_assert_int_eq(ALICE_SAYS(line).status, SERVER_OK);
	moved = now;
	ck_assert_int_eq(server_bot_next(srv, now, 0, 0, &turn, &error), 1);
	ck_assert_int_eq(turn.due, moved + BOT_DELAY);
	ck_assert_int_eq(turn.ply, 2);
	ck_assert_int_eq(turn.level, 1);
	ck_assert_int_eq(server_bot_next(srv, now, g, 2, &turn, &error), 0);
}
END_TEST

/* A hint: asked by mail, answered by the bot thread's side of the
 * service with a mail of three legal moves, best first; asked twice, the
 * second is refused and it is answered once. */
START_TEST(test_bot_hint_legal)
{
	struct server_bot_hint hint;
	struct core_record rec;
	struct outbox o;
	const struct store_outbox_msg *m;
	const char *p, *error;
	int64_t g;
	int found = 0;

	bot_setup(0, false);
	g = bot_game("size=3");
	ck_assert_int_eq(ALICE_SAYS("hint 1").status, SERVER_OK);
	/* One hint a ply: each is a search (limits.c). */
	ck_assert_int_eq(ALICE_SAYS("hint 1").status, SERVER_REFUSED);
	o = new_mail();
	m = sent_to(&o, ALICE, "reply");
	ck_assert_has(m->body, "follow by mail");
	ck_assert_ptr_null(mail_to(&o, ALICE, "hint"));
	outbox_free(&o);
	/* The bot thread: the hint, thought and mailed. */
	ck_assert_int_eq(server_bot_hint_next(srv, now, &hint, &error), 1);
	ck_assert_int_eq(hint.game_id, g);
	ck_assert_int_eq(hint.ply, 1);
	ck_assert_int_eq(server_bot_hint_answer(srv, &hint, 500, now, &error),
			 0);
	ck_assert_int_eq(server_bot_hint_next(srv, now, &hint, &error), 0);
	o = new_mail();
	ck_assert_uint_eq(o.n, 1);
	m = sent_to(&o, ALICE, "hint");
	ck_assert_int_eq(game_of(m), g);
	position_of(g, &rec);
	for (p = strstr(m->body, "\n  1. "); p != NULL && found < 3;
	     p = strstr(p + 1, "\n  ")) {
		char text[CORE_MOVE_TEXT_MAX + 1];
		struct core_move mv;
		enum core_error err;

		if (sscanf(p, "\n  %*d. %32s", text) != 1)
			break;
		ck_assert_int_eq(notation_parse_move(&rec.pos, text,
						     strlen(text), &mv, &err), 0);
		ck_assert_int_eq(core_check_move(&rec.pos, &mv, &err), 0);
		found++;
	}
	ck_assert_int_eq(found, 3);
	record_free(&rec);
	outbox_free(&o);
}
END_TEST

/* The hint the bot thread mails is in its reader's language, the move
 * words the same: a Korean reader's has no English sentence of
 * mail/hint.txt left (the cases cannot show it: they run
 * server_handle() alone). */
START_TEST(test_bot_hint_in_language)
{
	struct server_bot_hint hint;
	struct outbox o;
	const struct store_outbox_msg *m;
	const char *error;

	bot_setup(0, false);
	bot_game("size=3");
	ck_assert_int_eq(ALICE_SAYS("set language ko").status, SERVER_OK);
	ck_assert_int_eq(ALICE_SAYS("hint 1").status, SERVER_OK);
	o = new_mail();
	outbox_free(&o);
	ck_assert_int_eq(server_bot_hint_next(srv, now, &hint, &error), 1);
	ck_assert_int_eq(server_bot_hint_answer(srv, &hint, 500, now, &error),
			 0);
	o = new_mail();
	m = sent_to(&o, ALICE, "hint");
	/* 최선의 수: the best moves */
	ck_assert_has(m->body, "\xec\xb5\x9c\xec\x84\xa0\xec\x9d\x98 \xec\x88\x98");
	ck_assert_has(m->body, "\n  1. ");
	ck_assert_has(m->body, "\"move 1 1 MOVE\"");
	ck_assert_lacks(m->body, "best moves for you");
	ck_assert_lacks(m->body, "playouts)");
	ck_assert_lacks(m->body, "Play one with");
	outbox_free(&o);
}
END_TEST

/* A hint whose game moved on before the bot thread came to it is
 * dropped: no mail about a position that is gone. */
START_TEST(test_bot_hint_stale)
{
	struct server_bot_hint hint;
	struct outbox o;
	const char *error;
	char text[CORE_MOVE_TEXT_MAX], line[96];
	int64_t g;

	bot_setup(0, false);
	g = bot_game("size=3");
	ck_assert_int_eq(ALICE_SAYS("hint 1").status, SERVER_OK);
	ck_assert_int_eq(server_bot_hint_next(srv, now, &hint, &error), 1);
	first_legal(g, text);
	snprintf(line, sizeof(line), "move %" PRId64 " 1 %s", g, text);
	ck_assert_int_eq(ALICE_SAYS(line).status, SERVER_OK);
	mail_drop();
	/* Thought about before her move came, answered after. */
	ck_assert_int_eq(server_bot_hint_answer(srv, &hint, 100, now, &error),
			 0);
	o = new_mail();
	ck_assert_ptr_null(mail_to(&o, ALICE, "hint"));
	outbox_free(&o);
	/* Asked, then moved before the bot thread looked: dropped on the
	 * way. */
	ck_assert_int_eq(bot_moves(g).status, SERVER_OK);
	snprintf(line, sizeof(line), "hint %" PRId64, g);
	ck_assert_int_eq(ALICE_SAYS(line).status, SERVER_OK);
	first_legal(g, text);
	snprintf(line, sizeof(line), "move %" PRId64 " 3 %s", g, text);
	ck_assert_int_eq(ALICE_SAYS(line).status, SERVER_OK);
	ck_assert_int_eq(server_bot_hint_next(srv, now, &hint, &error), 0);
	o = new_mail();
	ck_assert_ptr_null(mail_to(&o, ALICE, "hint"));
	outbox_free(&o);
}
END_TEST

/* Rated only when the configuration says so: the bot's games then
 * change alice's rating once they end. */
static void play_and_resign(int64_t g)
{
	char text[CORE_MOVE_TEXT_MAX], line[96];

	for (int i = 0; i < 3; i++) {
		first_legal(g, text);
		snprintf(line, sizeof(line), "move %" PRId64 " %d %s", g,
			 ply_of(g) + 1, text);
		ck_assert_int_eq(ALICE_SAYS(line).status, SERVER_OK);
		ck_assert_int_eq(bot_moves(g).status, SERVER_OK);
	}
	snprintf(line, sizeof(line), "resign %" PRId64, g);
	ck_assert_int_eq(ALICE_SAYS(line).status, SERVER_OK);
	ck_assert_int_eq(status_of(g), STORE_GAME_FINISHED);
}

START_TEST(test_bot_rated)
{
	struct server_bot_turn turn;
	struct store_rating r;
	struct store_player *p = NULL;
	const char *error;
	int rated = _i;

	bot_setup(0, rated);
	play_and_resign(bot_game("level=1 size=5"));
	ck_assert_int_eq(server_bot_next(srv, now, 0, 0, &turn, &error), 0);
	ck_assert_int_eq(store_player_by_fingerprint(st, ALICE_FP, &p, &error),
			 1);
	ck_assert_int_eq(store_rating_get(st, p->id, &r, &error), rated);
	store_player_free(&p);
	/* Once only. */
	ck_assert_int_eq(server_bot_next(srv, now, 0, 0, &turn, &error), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bot");
	TCase *tc = suite_add_tests(s, "bot", setup, teardown, 120,
		TESTS(test_bot_enlisted, test_bot_whole_game,
		test_bot_key_from_mailbox, test_bot_due_and_skip,
		test_bot_not_rate_limited, test_bot_hint_legal, test_bot_hint_in_language,
		test_bot_hint_stale));

	tcase_add_loop_test(tc, test_bot_rated, 0, 2);
	return test_run(s);
}
