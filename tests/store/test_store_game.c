/* test_store_game.c -- the store's games (challenges included), their
 * moves, observers, and freeing the rows handed out. */
#include "store_fixture.h"

#define make_game(white, black, challenger, status, now) \
	add_game("size=5 tax=removed swap", white, black, challenger, status, now)

/* ---- games ---------------------------------------------------------- */

START_TEST(test_game_roundtrip)
{
	struct store_game *g = NULL;
	int64_t a, b, id;

	a = add_player("Alice", 1);
	b = add_player("Bob", 2);
	id = make_game(a, 0, a, STORE_GAME_OPEN, 500);
	ck_assert_int_eq(store_game_load(st, id, &g, &err), 1);
	ck_assert_str_eq(g->variant, "size=5 tax=removed swap");
	ck_assert_int_eq(g->white_id, a);
	ck_assert_int_eq(g->black_id, 0);
	ck_assert_int_eq(g->status, STORE_GAME_OPEN);
	ck_assert_int_eq(g->created, 500);
	ck_assert_int_eq(g->updated, 500);
	ck_assert_int_eq(g->ply, 0);
	ck_assert_ptr_null(g->result);
	ck_assert_ptr_null(g->clock_settings);
	ck_assert_int_eq(g->clock_side, 0);
	ck_assert_int_eq(g->remind_at, 0);
	ck_assert_int_eq(g->flag_fell_at, 0);

	g->black_id = b;
	g->status = STORE_GAME_FINISHED;
	g->swapped = true;
	g->result = strdup("0-1");
	g->end_reason = strdup("resignation");
	g->draw_offer_by = b;
	g->draw_offer_ply = 4;
	g->clock_settings = strdup("3d+1d");
	g->clock_white = 3600;
	g->clock_black = 7200;
	g->clock_turn_started = 650;
	g->clock_side = 1;
	g->deadline_at = 9000;
	g->remind_at = 8000;
	g->reminders_sent = 2;
	g->flag_fell_at = 9100;
	g->thread_message_id = strdup("game-1@ashes.example");
	ck_assert_int_eq(store_game_update(st, g, 700, &err), 0);
	store_game_free(&g);
	ck_assert_ptr_null(g);

	ck_assert_int_eq(store_game_load(st, id, &g, &err), 1);
	ck_assert_int_eq(g->black_id, b);
	ck_assert_int_eq(g->status, STORE_GAME_FINISHED);
	ck_assert(g->swapped);
	ck_assert_str_eq(g->result, "0-1");
	ck_assert_str_eq(g->end_reason, "resignation");
	ck_assert_int_eq(g->draw_offer_by, b);
	ck_assert_int_eq(g->draw_offer_ply, 4);
	ck_assert_str_eq(g->clock_settings, "3d+1d");
	ck_assert_int_eq(g->clock_white, 3600);
	ck_assert_int_eq(g->clock_black, 7200);
	ck_assert_int_eq(g->clock_turn_started, 650);
	ck_assert_int_eq(g->clock_side, 1);
	ck_assert_int_eq(g->deadline_at, 9000);
	ck_assert_int_eq(g->remind_at, 8000);
	ck_assert_int_eq(g->reminders_sent, 2);
	ck_assert_int_eq(g->flag_fell_at, 9100);
	ck_assert_str_eq(g->thread_message_id, "game-1@ashes.example");
	ck_assert_int_eq(g->created, 500);
	ck_assert_int_eq(g->updated, 700);

	g->id = id + 100;
	ck_assert_int_eq(store_game_update(st, g, 800, &err), -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	store_game_free(&g);
	ck_assert_int_eq(store_game_load(st, id + 100, &g, &err), 0);
	ck_assert_ptr_null(g);

	/* the schema refuses an active game without both players */
	make_game(a, b, a, STORE_GAME_ACTIVE, 1);
	{
		struct store_game bad = { 0 };
		int64_t bad_id;

		bad.variant = "size=5";
		bad.white_id = a;
		bad.challenger_id = a;
		bad.status = STORE_GAME_ACTIVE;
		ck_assert_int_eq(store_game_create(st, &bad, 1, &bad_id, &err),
				 -1);
		bad.white_id = 999; /* no such player */
		bad.challenger_id = 999;
		bad.status = STORE_GAME_OPEN;
		ck_assert_int_eq(store_game_create(st, &bad, 1, &bad_id, &err),
				 -1);
		ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	}
}
END_TEST

START_TEST(test_game_status_names)
{
	enum store_game_status s;
	int i;

	for (i = 0; i < STORE_GAME_STATUS_COUNT; i++) {
		const char *name = store_game_status_name(i);

		ck_assert_ptr_nonnull(name);
		ck_assert_int_eq(store_game_status_parse(name, &s), 0);
		ck_assert_int_eq(s, i);
	}
	ck_assert_ptr_null(store_game_status_name(STORE_GAME_STATUS_COUNT));
	ck_assert_int_eq(store_game_status_parse("ACTIVE", &s), -1);
	ck_assert_int_eq(store_game_status_parse(NULL, &s), -1);
}
END_TEST

/* Game id's clock runs out at `at` (stored at time 20). */
static void set_deadline(int64_t id, int64_t at)
{
	struct store_game *g = NULL;

	ck_assert_int_eq(store_game_load(st, id, &g, &err), 1);
	g->deadline_at = at;
	ck_assert_int_eq(store_game_update(st, g, 20, &err), 0);
	store_game_free(&g);
}

START_TEST(test_game_lists)
{
	int64_t a = add_player("Alice", 1), b = add_player("Bob", 2);
	int64_t c = add_player("Carol", 3);
	int64_t g1 = make_game(a, b, a, STORE_GAME_ACTIVE, 10);
	int64_t g2 = make_game(b, a, b, STORE_GAME_ACTIVE, 11); /* same players */
	int64_t g3 = make_game(c, 0, c, STORE_GAME_OPEN, 12);
	int64_t g4 = make_game(a, c, c, STORE_GAME_CHALLENGE, 13);
	struct store_game *list = NULL;
	size_t n = 0;

	ck_assert_int_eq(store_games_for_player(st, a, 0, &list, &n, &err), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert_int_eq(list[0].id, g4); /* newest first */
	ck_assert_int_eq(list[1].id, g2);
	ck_assert_int_eq(list[2].id, g1);
	store_rows_free(&list, n, sizeof(*list), store_game_clear);
	ck_assert_int_eq(store_games_for_player(st, a,
						1u << STORE_GAME_ACTIVE,
						&list, &n, &err), 0);
	ck_games(&list, n, 2, 0, 0);
	ck_assert_int_eq(store_games_for_player(st, c,
						(1u << STORE_GAME_OPEN) |
						(1u << STORE_GAME_CHALLENGE),
						&list, &n, &err), 0);
	ck_games(&list, n, 2, 0, 0);

	/* one status through its index, a mask, paging */
	ck_assert_int_eq(store_games_list(st, 1u << STORE_GAME_OPEN, 0, 0,
					  &list, &n, &err), 0);
	ck_games(&list, n, 1, 0, g3);
	ck_assert_int_eq(store_games_list(st, 0, 0, 2, &list, &n, &err), 0);
	ck_games(&list, n, 2, 1, g2);
	ck_assert_int_eq(store_games_list(st, 0, g2, 0, &list, &n, &err), 0);
	ck_games(&list, n, 2, 0, g3);
	ck_assert_int_eq(store_games_list(st, (1u << STORE_GAME_ACTIVE) |
					  (1u << STORE_GAME_CHALLENGE), 0, 0,
					  &list, &n, &err), 0);
	ck_games(&list, n, 3, 0, 0);
	ck_assert_int_eq(store_games_list(st, 1u << STORE_GAME_FINISHED, 0, 0,
					  &list, &n, &err), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_ptr_null(list);

	/* deadlines: only active games, due ones, earliest first */
	set_deadline(g2, 100);
	set_deadline(g1, 90);
	set_deadline(g3, 50); /* not active: never due */
	ck_assert_int_eq(store_games_due(st, 89, 0, &list, &n, &err), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_int_eq(store_games_due(st, 95, 0, &list, &n, &err), 0);
	ck_games(&list, n, 1, 0, g1);
	ck_assert_int_eq(store_games_due(st, 1000, 0, &list, &n, &err), 0);
	ck_games(&list, n, 2, 1, g2);
	ck_assert_int_eq(store_games_due(st, 1000, 1, &list, &n, &err), 0);
	ck_games(&list, n, 1, 0, 0);
}
END_TEST

/* finish game id at time `at` with result (NULL: none). */
static void finish_game(int64_t id, const char *result, int64_t at)
{
	struct store_game *g = NULL;

	ck_assert_int_eq(store_game_load(st, id, &g, &err), 1);
	g->status = STORE_GAME_FINISHED;
	free(g->result);
	g->result = result != NULL ? strdup(result) : NULL;
	ck_assert_int_eq(store_game_update(st, g, at, &err), 0);
	store_game_free(&g);
}

START_TEST(test_games_finished_for_player)
{
	struct store_game *list = NULL;
	size_t n = 0;
	int64_t a, b, c, g1, g2, g3, g4;

	a = add_player("Alice", 1);
	b = add_player("Bob", 2);
	c = add_player("Carol", 3);
	g1 = make_game(a, b, a, STORE_GAME_ACTIVE, 10);
	g2 = make_game(b, a, b, STORE_GAME_ACTIVE, 11);
	g3 = make_game(b, c, b, STORE_GAME_ACTIVE, 12); /* not alice's */
	g4 = make_game(a, c, a, STORE_GAME_ACTIVE, 13); /* still on */
	make_game(a, 0, a, STORE_GAME_OPEN, 14);
	ck_assert_int_eq(store_games_finished_for_player(st, a, 10, &list, &n,
							 &err), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_ptr_null(list);
	/* g2 ends first, then g1: the latest to end comes first, whatever
	 * the ids */
	finish_game(g2, "0-1", 100);
	finish_game(g1, "1/2-1/2", 200);
	finish_game(g3, "1-0", 300);
	ck_assert_int_eq(store_games_finished_for_player(st, a, 10, &list, &n,
							 &err), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(list[0].id, g1);
	ck_assert_str_eq(list[0].result, "1/2-1/2");
	ck_assert_int_eq(list[1].id, g2);
	ck_assert_int_eq(list[1].status, STORE_GAME_FINISHED);
	store_rows_free(&list, n, sizeof(*list), store_game_clear);
	/* the limit, and 0 for none */
	ck_assert_int_eq(store_games_finished_for_player(st, a, 1, &list, &n,
							 &err), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(list[0].id, g1);
	store_rows_free(&list, n, sizeof(*list), store_game_clear);
	finish_game(g4, "1-0", 200); /* the same time: the newer id first */
	ck_assert_int_eq(store_games_finished_for_player(st, a, 0, &list, &n,
							 &err), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert_int_eq(list[0].id, g4);
	ck_assert_int_eq(list[1].id, g1);
	store_rows_free(&list, n, sizeof(*list), store_game_clear);
	/* carol's: g3 and g4, as Black */
	ck_assert_int_eq(store_games_finished_for_player(st, c, 0, &list, &n,
							 &err), 0);
	ck_assert_uint_eq(n, 2);
	store_rows_free(&list, n, sizeof(*list), store_game_clear);
}
END_TEST

START_TEST(test_game_by_message_id)
{
	struct store_outbox_msg m = { 0 };
	struct store_game *g = NULL;
	int64_t a, b, id, found = 0;

	a = add_player("Alice", 1);
	b = add_player("Bob", 2);
	id = make_game(a, b, a, STORE_GAME_ACTIVE, 10);
	make_game(b, a, b, STORE_GAME_ACTIVE, 10);
	ck_assert_int_eq(store_game_load(st, id, &g, &err), 1);
	g->thread_message_id = strdup("root@ashes");
	ck_assert_int_eq(store_game_update(st, g, 11, &err), 0);
	store_game_free(&g);
	m.recipient = "bob@example.org";
	m.message_id = "move-3@ashes";
	m.kind = STORE_OUTBOX_KIND_YOUR_MOVE;
	m.subject = "[ashes #1] your move";
	m.body = "board\n";
	m.game_id = id;
	ck_assert_int_eq(store_outbox_enqueue(st, &m, 12, NULL, &err), 0);

	ck_assert_int_eq(store_game_by_message_id(st, "root@ashes", &found,
						  &err), 1);
	ck_assert_int_eq(found, id);
	found = 0;
	ck_assert_int_eq(store_game_by_message_id(st, "move-3@ashes", &found,
						  &err), 1);
	ck_assert_int_eq(found, id);
	ck_assert_int_eq(store_game_by_message_id(st, "other@elsewhere",
						  &found, &err), 0);
	ck_assert_int_eq(store_game_by_message_id(st, NULL, &found, &err), 0);
}
END_TEST

/* ---- moves ---------------------------------------------------------- */

START_TEST(test_moves)
{
	static const char *const texts[] = { "c3", "swap", "d4-e5", "pass",
					     "b2-c3/2" };
	struct store_game *g = NULL;
	struct store_move *recs = NULL;
	char **moves = NULL;
	size_t n = 0, i;
	int64_t a, b, id, other;

	a = add_player("Alice", 1);
	b = add_player("Bob", 2);
	id = make_game(a, b, a, STORE_GAME_ACTIVE, 10);
	other = make_game(a, b, a, STORE_GAME_ACTIVE, 10);

	ck_assert_int_eq(store_game_moves(st, id, &moves, &n, &err), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_ptr_null(moves[0]);
	store_strings_free(&moves);
	ck_assert_ptr_null(moves);

	for (i = 0; i < 5; i++)
		ck_assert_int_eq(store_move_append(st, id, (int)i + 1,
						   texts[i],
						   i == 3 ? 0 : (i % 2 ? b : a),
						   100 + (int64_t)i, 0, &err),
				 0);
	/* stale, duplicate and future plies change nothing */
	ck_assert_int_eq(store_move_append(st, id, 5, "a1", a, 200, 0, &err),
			 1);
	ck_assert_int_eq(store_move_append(st, id, 2, "a1", a, 200, 0, &err),
			 1);
	ck_assert_int_eq(store_move_append(st, id, 7, "a1", a, 200, 0, &err),
			 1);
	ck_assert_int_eq(store_move_append(st, id, 0, "a1", a, 200, 0, &err),
			 1);
	ck_assert_int_eq(store_move_append(st, 999, 1, "a1", a, 200, 0, &err),
			 -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	ck_assert_int_eq(store_move_append(st, id, 6, "", a, 200, 0, &err),
			 -1);
	/* concurrent games between the same players keep apart */
	ck_assert_int_eq(store_move_append(st, other, 1, "e5", a, 150, 0,
					   &err), 0);

	ck_assert_int_eq(store_game_load(st, id, &g, &err), 1);
	ck_assert_int_eq(g->ply, 5);
	ck_assert_int_eq(g->updated, 104);
	store_game_free(&g);

	ck_assert_int_eq(store_game_moves(st, id, &moves, NULL, &err), 0);
	for (i = 0; i < 5; i++)
		ck_assert_str_eq(moves[i], texts[i]);
	ck_assert_ptr_null(moves[5]);
	store_strings_free(&moves);

	ck_assert_int_eq(store_game_move_records(st, id, &recs, &n, &err), 0);
	ck_assert_uint_eq(n, 5);
	ck_assert_int_eq(recs[0].ply, 1);
	ck_assert_int_eq(recs[0].player_id, a);
	ck_assert_int_eq(recs[1].player_id, b);
	ck_assert_int_eq(recs[3].player_id, 0);
	ck_assert_int_eq(recs[4].played_at, 104);
	ck_assert_str_eq(recs[4].text, "b2-c3/2");
	store_rows_free(&recs, n, sizeof(*recs), store_move_clear);
	ck_assert_ptr_null(recs);
}
END_TEST

START_TEST(test_move_links_inbound)
{
	struct store_inbound in = { 0 };
	struct store_move *recs = NULL;
	char sha[65];
	size_t n;
	int64_t a, b, id, inbound = 0;

	a = add_player("Alice", 1);
	b = add_player("Bob", 2);
	id = make_game(a, b, a, STORE_GAME_ACTIVE, 10);
	test_sha(sha, 1);
	in.sha256 = sha;
	in.raw = "raw";
	in.raw_len = 3;
	ck_assert_int_eq(store_inbound_record(st, &in, &inbound, &err), 0);
	ck_assert_int_eq(store_move_append(st, id, 1, "c3", a, 20, inbound,
					   &err), 0);
	/* an inbound id that does not exist breaks a foreign key */
	ck_assert_int_eq(store_move_append(st, id, 2, "c4", b, 20,
					   inbound + 5, &err), -1);
	ck_assert_int_eq(store_game_move_records(st, id, &recs, &n, &err), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(recs[0].inbound_id, inbound);
	store_rows_free(&recs, n, sizeof(*recs), store_move_clear);
	ck_assert_int_eq(test_query_int(test_db, "SELECT ply FROM games"), 1);
}
END_TEST

/* ---- observers ------------------------------------------------------ */

START_TEST(test_observers)
{
	int64_t a, b, c, id, *ids = NULL;
	size_t n = 0;

	a = add_player("Alice", 1);
	b = add_player("Bob", 2);
	c = add_player("Carol", 3);
	id = make_game(a, b, a, STORE_GAME_ACTIVE, 10);
	ck_assert_int_eq(store_observer_list(st, id, &ids, &n, &err), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_int_eq(store_observer_add(st, id, c, 5, &err), 0);
	ck_assert_int_eq(store_observer_add(st, id, c, 6, &err), 1);
	ck_assert_int_eq(store_observer_add(st, id, a, 6, &err), 0);
	ck_assert_int_eq(store_observer_add(st, id + 9, a, 6, &err), -1);
	ck_assert_int_eq(store_observer_list(st, id, &ids, &n, &err), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(ids[0], a);
	ck_assert_int_eq(ids[1], c);
	free(ids);
	ck_assert_int_eq(store_observer_remove(st, id, c, &err), 1);
	ck_assert_int_eq(store_observer_remove(st, id, c, &err), 0);
	ck_assert_int_eq(store_observer_list(st, id, &ids, &n, &err), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(ids[0], a);
	free(ids);
}
END_TEST

/* ---- freeing rows ----------------------------------------------------- */

static int cleared;

static void count_clear(void *row)
{
	cleared += *(int *)row;
}

START_TEST(test_rows_free)
{
	int *rows = NULL;
	char **strings = NULL;

	/* Nothing handed out: nothing to clear, and no crash. */
	cleared = 0;
	store_rows_free(&rows, 3, sizeof(*rows), count_clear);
	ck_assert_int_eq(cleared, 0);
	store_strings_free(&strings);
	ck_assert_ptr_null(strings);

	/* Every row is cleared once, then the array goes. */
	rows = calloc(3, sizeof(*rows));
	rows[0] = 1;
	rows[1] = 10;
	rows[2] = 100;
	store_rows_free(&rows, 3, sizeof(*rows), count_clear);
	ck_assert_int_eq(cleared, 111);
	ck_assert_ptr_null(rows);

	/* Rows that own nothing need no clear function. */
	rows = calloc(2, sizeof(*rows));
	store_rows_free(&rows, 2, sizeof(*rows), NULL);
	ck_assert_ptr_null(rows);
}
END_TEST

static Suite *store_game_suite(void)
{
	Suite *s = suite_create("store_game");
	TCase *tc = tcase_create("api");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_game_roundtrip);
	tcase_add_test(tc, test_game_status_names);
	tcase_add_test(tc, test_game_lists);
	tcase_add_test(tc, test_games_finished_for_player);
	tcase_add_test(tc, test_game_by_message_id);
	tcase_add_test(tc, test_moves);
	tcase_add_test(tc, test_move_links_inbound);
	tcase_add_test(tc, test_observers);
	tcase_add_test(tc, test_rows_free);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run(store_game_suite());
}
