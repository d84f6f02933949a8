/* test_analysis.c -- the analysis of a finished game: the computation
 * (src/ai/analysis.c) is deterministic and consistent with the estimate
 * `ashes think` prints, and the service's side (analysis.c): asked by
 * mail, computed and mailed by the bot thread's calls with a picture
 * per drop, once; the queue bounded. */
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ai/ai.h"
#include "core/notation.h"
#include "core/record.h"
#include "server/server.h"
#include "store/store.h"
#include "store/store_analysis.h"

#include "server_test.h"
#include "../check_run.h"

#define BOT_FP "B0B0B0B0B0B0B0B0B0B0B0B0B0B0B0B0B0B0B0B0"

/* A whole game on a board of 3 that Black wins on the board at ply 11
 * (tests/cli/test_think.sh plays it too). */
static const char *const game_moves[] = {
	"d4-d5", "b3-b4", "c3-b2", "c3-d3", "c3-e5", "d3-a3",
	"b2-b3", "b4-e4", "e5-b2", "a3-a1", "d5-e5",
};
#define GAME_PLIES (sizeof(game_moves) / sizeof(game_moves[0]))

static void game_record(struct core_record *rec, size_t plies)
{
	struct core_variant v;
	enum core_error err;

	core_variant_default(&v);
	v.size = 3;
	ck_assert_int_eq(record_init(rec, &v, &err), 0);
	for (size_t i = 0; i < plies; i++)
		ck_assert_int_eq(record_play_text(rec, game_moves[i],
						  strlen(game_moves[i]), NULL,
						  &err), 0);
}

/* The same game, budget and seed: the same figures, to the bit. */
START_TEST(test_analysis_deterministic)
{
	struct core_record rec;
	struct ai_analysis a, b;
	enum core_error err;

	game_record(&rec, GAME_PLIES);
	ck_assert_int_eq(rec.pos.result, CORE_RESULT_BLACK);
	ck_assert_int_eq(ai_analyse(&rec, 200, 5, &a, &err), 0);
	ck_assert_int_eq(ai_analyse(&rec, 200, 5, &b, &err), 0);
	ck_assert_uint_eq(a.nplies, GAME_PLIES);
	ck_assert_uint_eq(b.nplies, a.nplies);
	for (size_t i = 0; i < a.nplies; i++) {
		ck_assert(a.plies[i].before == b.plies[i].before);
		ck_assert(a.plies[i].after == b.plies[i].after);
		ck_assert(memcmp(&a.plies[i].best, &b.plies[i].best,
				 sizeof(a.plies[i].best)) == 0);
		ck_assert_int_eq(a.plies[i].ply, (int)i + 1);
	}
	ck_assert_uint_eq(a.ndrops, b.ndrops);
	ck_assert_int_eq(a.turning, b.turning);
	ck_assert_int_eq(a.winner, CORE_BLACK);
	/* The drops, biggest first, each a real drop. */
	ck_assert_uint_ge(a.ndrops, 1);
	ck_assert_uint_le(a.ndrops, AI_ANALYSIS_DROPS);
	for (size_t d = 0; d < a.ndrops; d++) {
		const struct ai_analysis_ply *p = &a.plies[a.drops[d]];

		ck_assert(p->before - p->after > 0);
		if (d > 0) {
			const struct ai_analysis_ply *q = &a.plies[a.drops[d - 1]];

			ck_assert(q->before - q->after >= p->before - p->after);
		}
	}
	/* Another seed is another search. */
	ai_analysis_free(&b);
	ck_assert_int_eq(ai_analyse(&rec, 200, 6, &b, &err), 0);
	ck_assert(a.plies[0].before != b.plies[0].before ||
		  a.plies[1].before != b.plies[1].before);
	ai_analysis_free(&a);
	ai_analysis_free(&b);
	record_free(&rec);
}
END_TEST

/* Each "before" is the estimate of the position the move was played in
 * (what `ashes think --playouts P --seed S MOVES` prints as chance), and
 * "after" one minus the next one; the last move's "after" is the
 * result. */
START_TEST(test_analysis_repeats_the_estimate)
{
	struct core_record rec, upto;
	struct ai_analysis a;
	struct ai_estimate est;
	enum core_error err;

	game_record(&rec, GAME_PLIES);
	ck_assert_int_eq(ai_analyse(&rec, AI_ANALYSIS_PLAYOUTS,
				    AI_ANALYSIS_SEED, &a, &err), 0);
	for (size_t i = 0; i < a.nplies; i++) {
		game_record(&upto, a.plies[i].moves_before);
		ck_assert_int_eq(ai_estimate(&upto.pos, AI_ANALYSIS_PLAYOUTS,
					     AI_ANALYSIS_SEED, &est, &err), 0);
		ck_assert(est.chance == a.plies[i].before);
		ck_assert(memcmp(&est.best, &a.plies[i].best,
				 sizeof(est.best)) == 0);
		if (i + 1 < a.nplies)
			ck_assert(a.plies[i].after ==
				  1.0 - a.plies[i + 1].before);
		record_free(&upto);
	}
	/* White's last move lost the game: nothing left to estimate. */
	ck_assert(a.plies[a.nplies - 1].after == 0.0);
	ai_analysis_free(&a);
	record_free(&rec);
}
END_TEST

/* The service with a bot enlisted; alice, bob and carol registered. */
static void analysis_setup(void)
{
	struct server_config cfg;
	const char *error = NULL;

	test_config(&cfg, ts);
	cfg.bot.enabled = true;
	cfg.bot.name = "Ashes bot";
	cfg.bot.levels = 0x3e;
	server_restart(&cfg);
	ck_assert_msg(server_bot_enlist(srv, BOT_FP, now, &error) == 0, "%s",
		      error);
	register_three();
}

/* Alice and bob play the game to its end: its id. */
static int64_t finished_game(void)
{
	int64_t g = start_game("size=3");
	char rest[32];

	for (size_t i = 0; i < GAME_PLIES; i++) {
		snprintf(rest, sizeof(rest), "%zu %s", i + 1, game_moves[i]);
		if (i % 2 == 0)
			ALICE_GAME("move", g, rest);
		else
			BOB_GAME("move", g, rest);
	}
	ck_assert_int_eq(status_of(g), STORE_GAME_FINISHED);
	mail_drop();
	return g;
}

/* Asked by mail, answered by the bot thread's calls: one mail to the
 * asker with the figures of every move, the turning point and a PNG per
 * drop; answered once. */
START_TEST(test_analysis_mailed)
{
	struct server_analysis req;
	const struct store_outbox_msg *m;
	struct outbox o;
	const char *error = NULL;
	int64_t g;

	analysis_setup();
	g = finished_game();
	ck_assert_int_eq(CAROL_SAYS("analyse 1").status, SERVER_OK);
	o = new_mail();
	ck_assert_has(sent_to(&o, CAROL, "reply")->body, "follows by");
	ck_assert_ptr_null(mail_to(&o, CAROL, "analysis"));
	outbox_free(&o);
	ck_assert_int_eq(server_analysis_next(srv, now, &req, &error), 1);
	ck_assert_int_eq(req.game_id, g);
	ck_assert_int_eq(server_analysis_answer(srv, &req, now, &error), 0);
	ck_assert_int_eq(server_analysis_next(srv, now, &req, &error), 0);
	/* Answered already: no second mail. */
	ck_assert_int_eq(server_analysis_answer(srv, &req, now, &error), 0);
	o = new_mail();
	ck_assert_uint_eq(o.n, 1);
	m = sent_to(&o, CAROL, "analysis");
	ck_assert_int_eq(game_of(m), g);
	ck_assert_has(m->subject, "the analysis you asked for");
	ck_assert_has(m->body, "carol, the bot's analysis of game 1");
	ck_assert_has(m->body, "\n  11. alice (white) d5-e5  ");
	ck_assert_has(m->body, "\nTurning point");
	ck_assert_has(m->body, "ply 1: ashes think --size 3 --variant "
		      "tax=removed --playouts 400 --seed 1\n");
	ck_assert_uint_ge(m->nparts, 1);
	ck_assert_uint_le(m->nparts, AI_ANALYSIS_DROPS);
	for (size_t i = 0; i < m->nparts; i++) {
		ck_assert_str_eq(m->parts[i].type, "image/png");
		ck_assert_int_eq(memcmp(m->parts[i].data, "\x89PNG", 4), 0);
		ck_assert_has(m->body, m->parts[i].name);
	}
	outbox_free(&o);
}
END_TEST

/* The analysis mail, which the bot thread sends, is in its reader's
 * language: no English sentence of mail/analysis.txt left in the German
 * and the Korean one (the cases cannot show it: they run
 * server_handle() alone). */
START_TEST(test_analysis_in_language)
{
	static const struct {
		const char *lang, *says;
	} want[] = {
		{ "de", "Partie 1" },
		{ "ko", "\xea\xb2\x8c\xec\x9e\x84 1" }, /* 게임 1 */
	};
	static const char *const english[] = {
		"the bot's analysis", "as you asked", "Turning point",
		"the analysis you asked for", "(white)", "(black)",
	};
	struct server_analysis req;
	const struct store_outbox_msg *m;
	struct outbox o;
	const char *error = NULL;
	char cmd[32];

	analysis_setup();
	finished_game();
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		snprintf(cmd, sizeof(cmd), "set language %s", want[i].lang);
		ck_assert_int_eq(CAROL_SAYS(cmd).status, SERVER_OK);
		now += 2 * 86400; /* one analysis a day */
		ck_assert_int_eq(CAROL_SAYS("analyse 1").status, SERVER_OK);
		o = new_mail(); /* the replies: not what this is about */
		outbox_free(&o);
		ck_assert_int_eq(server_analysis_next(srv, now, &req, &error), 1);
		ck_assert_int_eq(server_analysis_answer(srv, &req, now, &error), 0);
		o = new_mail();
		m = sent_to(&o, CAROL, "analysis");
		ck_assert_has(m->body, want[i].says);
		for (size_t e = 0; e < sizeof(english) / sizeof(english[0]); e++) {
			ck_assert_lacks(m->body, english[e]);
			ck_assert_lacks(m->subject, english[e]);
		}
		outbox_free(&o);
	}
}
END_TEST

/* The queue is bounded: with 20 analyses waiting, a 21st is refused. */
START_TEST(test_analysis_queue_bounded)
{
	const char *error = NULL;
	struct outbox o;
	int64_t g;

	analysis_setup();
	g = finished_game();
	for (int64_t k = 1; k <= 20; k++)
		ck_assert_int_eq(store_analysis_add(st, g, 1, 0,
						    now - k * 86400, &error), 0);
	ck_assert_int_eq(ALICE_SAYS("analyse 1").status, SERVER_REFUSED);
	o = new_mail();
	ck_assert_has(sent_to(&o, ALICE, "reply")->body,
		      "the bot has 20 analyses to make already");
	outbox_free(&o);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("analysis");

	suite_add_tests(s, "analysis", setup, teardown, 120,
		TESTS(test_analysis_deterministic,
		test_analysis_repeats_the_estimate, test_analysis_mailed,
		test_analysis_in_language, test_analysis_queue_bounded));
	return test_run(s);
}
