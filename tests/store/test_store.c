/* test_store.c -- every query of the store: players, games, moves,
 * observers, inbound archive, signatures, outbox, mailbox state, rate
 * limits, transactions and the uniqueness rules. */
#include "store_test.h"

static struct store *st;
static const char *err;

static void setup(void)
{
	test_dir_make();
	st = test_open();
	err = NULL;
}

static void teardown(void)
{
	store_close(&st);
	ck_assert_ptr_null(st);
	test_dir_remove();
}

static int64_t add_player(const char *name, unsigned n)
{
	char fpr[41], addr[64];
	int64_t id = 0;

	test_fpr(fpr, n);
	snprintf(addr, sizeof(addr), "%s@example.org", name);
	ck_assert_int_eq(store_player_add(st, name, addr, fpr, 1000 + n, &id,
					  &err), 0);
	ck_assert_int_gt(id, 0);
	return id;
}

static long long count(const char *table)
{
	char sql[128];

	snprintf(sql, sizeof(sql), "SELECT count(*) FROM %s", table);
	return test_query_int(test_db, sql);
}

/* ---- players -------------------------------------------------------- */

START_TEST(test_player_add_and_lookups)
{
	struct store_player *p = NULL;
	char fpr[41], lower[64];
	int64_t id;
	size_t i;

	id = add_player("Alice", 1);
	test_fpr(fpr, 1);
	/* lower case with spaces: normalised to the stored form */
	for (i = 0; i < 40; i++) {
		lower[i + i / 4] = (char)(fpr[i] >= 'A' ? fpr[i] + 32 : fpr[i]);
		if (i % 4 == 3)
			lower[i + i / 4 + 1] = ' ';
	}
	lower[49] = '\0';
	ck_assert_int_eq(store_player_by_fingerprint(st, lower, &p, &err), 1);
	ck_assert_int_eq(p->id, id);
	ck_assert_str_eq(p->name, "Alice");
	ck_assert_int_eq(p->created, 1001);
	ck_assert_uint_eq(p->n_fingerprints, 1);
	ck_assert_str_eq(p->fingerprints[0], fpr);
	ck_assert_uint_eq(p->n_addresses, 1);
	ck_assert_str_eq(p->addresses[0].address, "Alice@example.org");
	ck_assert(!p->addresses[0].failing);
	store_player_free(&p);
	ck_assert_ptr_null(p);

	ck_assert_int_eq(store_player_by_name(st, "aLICE", &p, &err), 1);
	ck_assert_int_eq(p->id, id);
	store_player_free(&p);
	ck_assert_int_eq(store_player_by_address(st, "ALICE@EXAMPLE.ORG", &p,
						 &err), 1);
	ck_assert_int_eq(p->id, id);
	store_player_free(&p);
	ck_assert_int_eq(store_player_load(st, id, &p, &err), 1);
	ck_assert_str_eq(p->name, "Alice");
	store_player_free(&p);

	ck_assert_int_eq(store_player_by_name(st, "Bob", &p, &err), 0);
	ck_assert_ptr_null(p);
	ck_assert_int_eq(store_player_load(st, id + 1, &p, &err), 0);
	test_fpr(fpr, 2);
	ck_assert_int_eq(store_player_by_fingerprint(st, fpr, &p, &err), 0);
	ck_assert_int_eq(store_player_by_fingerprint(st, "nonsense", &p,
						     &err), 0);
	ck_assert_int_eq(store_player_by_address(st, "bob@example.org", &p,
						 &err), 0);
	ck_assert_ptr_null(p);
}
END_TEST

START_TEST(test_player_more_keys_and_addresses)
{
	struct store_player *p = NULL;
	char fpr[41], fpr64[65];
	int64_t id, other;

	id = add_player("Alice", 1);
	other = add_player("Bob", 2);
	test_fpr(fpr, 3);
	ck_assert_int_eq(store_player_add_key(st, id, fpr, 5, &err), 0);
	test_sha(fpr64, 9); /* 64 hex digits: a v5 fingerprint */
	ck_assert_int_eq(store_player_add_key(st, id, fpr64, 6, &err), 0);
	ck_assert_int_eq(store_player_add_address(st, id, "a2@example.org", 7,
						  &err), 0);
	ck_assert_int_eq(store_player_load(st, id, &p, &err), 1);
	ck_assert_uint_eq(p->n_fingerprints, 3);
	ck_assert_uint_eq(p->n_addresses, 2);
	ck_assert_str_eq(p->addresses[1].address, "a2@example.org");
	store_player_free(&p);

	/* a key bound once: to anyone */
	ck_assert_int_eq(store_player_add_key(st, other, fpr, 8, &err), 1);
	ck_assert_int_eq(store_player_add_key(st, id, fpr, 8, &err), 1);
	ck_assert_int_eq(store_player_add_address(st, other,
						  "A2@Example.ORG", 8, &err),
			 1);
	ck_assert_int_eq(store_player_by_fingerprint(st, fpr, &p, &err), 1);
	ck_assert_int_eq(p->id, id);
	store_player_free(&p);

	/* refusals that are the caller's mistake */
	ck_assert_int_eq(store_player_add_key(st, id, "12AB", 8, &err), -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	ck_assert_ptr_nonnull(strstr(err, "fingerprint"));
	test_fpr(fpr, 4);
	ck_assert_int_eq(store_player_add_key(st, 999, fpr, 8, &err), -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	ck_assert_int_eq(store_player_add_address(st, id, "no-at-sign", 8,
						  &err), -1);
	ck_assert_int_eq(count("player_keys"), 4);
	ck_assert_int_eq(count("player_addresses"), 3);
}
END_TEST

START_TEST(test_player_unique_rules_are_atomic)
{
	char fpr[41];
	int64_t id = 0;

	add_player("Alice", 1);
	/* name taken, case-insensitively */
	test_fpr(fpr, 2);
	ck_assert_int_eq(store_player_add(st, "ALICE", "x@example.org", fpr,
					  5, &id, &err), 1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_NONE);
	/* key already bound: the new name must not be left behind */
	test_fpr(fpr, 1);
	ck_assert_int_eq(store_player_add(st, "Carol", "c@example.org", fpr,
					  5, &id, &err), 1);
	/* address already taken */
	test_fpr(fpr, 3);
	ck_assert_int_eq(store_player_add(st, "Dave", "alice@EXAMPLE.org",
					  fpr, 5, &id, &err), 1);
	ck_assert_int_eq(count("players"), 1);
	ck_assert_int_eq(count("player_keys"), 1);
	ck_assert_int_eq(count("player_addresses"), 1);
	/* a player without key or address (require_signature = no, admin) */
	ck_assert_int_eq(store_player_add(st, "Eve", NULL, NULL, 5, &id,
					  &err), 0);
	ck_assert_int_eq(count("players"), 2);
	/* names are 1..64 characters */
	ck_assert_int_eq(store_player_add(st, "", NULL, NULL, 5, &id, &err),
			 -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
}
END_TEST

START_TEST(test_player_list_and_failing_address)
{
	struct store_player *list = NULL, *p = NULL;
	size_t n = 0;
	int64_t a, b;

	a = add_player("Alice", 1);
	b = add_player("Bob", 2);
	ck_assert_int_eq(store_player_list(st, &list, &n, &err), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(list[0].id, a);
	ck_assert_int_eq(list[1].id, b);
	ck_assert_str_eq(list[1].name, "Bob");
	ck_assert_uint_eq(list[1].n_fingerprints, 1);
	store_players_free(&list, n);
	ck_assert_ptr_null(list);

	ck_assert_int_eq(store_address_mark_failing(st, "BOB@example.org",
						    true, 77, "550 no such user",
						    &err), 1);
	ck_assert_int_eq(store_address_mark_failing(st, "bob@example.org",
						    true, 99, "again", &err),
			 1);
	ck_assert_int_eq(store_player_load(st, b, &p, &err), 1);
	ck_assert(p->addresses[0].failing);
	ck_assert_int_eq(p->addresses[0].failing_since, 77);
	ck_assert_str_eq(p->addresses[0].failing_reason, "again");
	store_player_free(&p);
	ck_assert_int_eq(store_address_mark_failing(st, "bob@example.org",
						    false, 100, NULL, &err),
			 1);
	ck_assert_int_eq(store_player_load(st, b, &p, &err), 1);
	ck_assert(!p->addresses[0].failing);
	ck_assert_int_eq(p->addresses[0].failing_since, 0);
	ck_assert_ptr_null(p->addresses[0].failing_reason);
	store_player_free(&p);
	ck_assert_int_eq(store_address_mark_failing(st, "nobody@example.org",
						    true, 1, "x", &err), 0);
}
END_TEST

/* ---- games ---------------------------------------------------------- */

static int64_t make_game(int64_t white, int64_t black, int64_t challenger,
			 enum store_game_status status, int64_t now)
{
	struct store_game g = { 0 };
	int64_t id = 0;

	g.variant = "size=5 tax=removed swap";
	g.white_id = white;
	g.black_id = black;
	g.challenger_id = challenger;
	g.status = status;
	ck_assert_int_eq(store_game_create(st, &g, now, &id, &err), 0);
	return id;
}

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
	g->deadline_at = 9000;
	g->reminders_sent = 2;
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
	ck_assert_int_eq(g->deadline_at, 9000);
	ck_assert_int_eq(g->reminders_sent, 2);
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

START_TEST(test_game_lists)
{
	struct store_game *list = NULL, *g = NULL;
	size_t n = 0;
	int64_t a, b, c, g1, g2, g3, g4;

	a = add_player("Alice", 1);
	b = add_player("Bob", 2);
	c = add_player("Carol", 3);
	g1 = make_game(a, b, a, STORE_GAME_ACTIVE, 10);
	g2 = make_game(b, a, b, STORE_GAME_ACTIVE, 11); /* same players */
	g3 = make_game(c, 0, c, STORE_GAME_OPEN, 12);
	g4 = make_game(a, c, c, STORE_GAME_CHALLENGE, 13);

	ck_assert_int_eq(store_games_for_player(st, a, 0, &list, &n, &err), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert_int_eq(list[0].id, g4); /* newest first */
	ck_assert_int_eq(list[1].id, g2);
	ck_assert_int_eq(list[2].id, g1);
	store_games_free(&list, n);
	ck_assert_int_eq(store_games_for_player(st, a,
						1u << STORE_GAME_ACTIVE,
						&list, &n, &err), 0);
	ck_assert_uint_eq(n, 2);
	store_games_free(&list, n);
	ck_assert_int_eq(store_games_for_player(st, c,
						(1u << STORE_GAME_OPEN) |
						(1u << STORE_GAME_CHALLENGE),
						&list, &n, &err), 0);
	ck_assert_uint_eq(n, 2);
	store_games_free(&list, n);

	/* one status through its index, a mask, paging */
	ck_assert_int_eq(store_games_list(st, 1u << STORE_GAME_OPEN, 0, 0,
					  &list, &n, &err), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(list[0].id, g3);
	store_games_free(&list, n);
	ck_assert_int_eq(store_games_list(st, 0, 0, 2, &list, &n, &err), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(list[1].id, g2);
	store_games_free(&list, n);
	ck_assert_int_eq(store_games_list(st, 0, g2, 0, &list, &n, &err), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(list[0].id, g3);
	store_games_free(&list, n);
	ck_assert_int_eq(store_games_list(st, (1u << STORE_GAME_ACTIVE) |
					  (1u << STORE_GAME_CHALLENGE), 0, 0,
					  &list, &n, &err), 0);
	ck_assert_uint_eq(n, 3);
	store_games_free(&list, n);
	ck_assert_int_eq(store_games_list(st, 1u << STORE_GAME_FINISHED, 0, 0,
					  &list, &n, &err), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_ptr_null(list);

	/* deadlines: only active games, due ones, earliest first */
	ck_assert_int_eq(store_game_load(st, g2, &g, &err), 1);
	g->deadline_at = 100;
	ck_assert_int_eq(store_game_update(st, g, 20, &err), 0);
	store_game_free(&g);
	ck_assert_int_eq(store_game_load(st, g1, &g, &err), 1);
	g->deadline_at = 90;
	ck_assert_int_eq(store_game_update(st, g, 20, &err), 0);
	store_game_free(&g);
	ck_assert_int_eq(store_game_load(st, g3, &g, &err), 1);
	g->deadline_at = 50; /* not active: never due */
	ck_assert_int_eq(store_game_update(st, g, 20, &err), 0);
	store_game_free(&g);
	ck_assert_int_eq(store_games_due(st, 89, 0, &list, &n, &err), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_int_eq(store_games_due(st, 95, 0, &list, &n, &err), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(list[0].id, g1);
	store_games_free(&list, n);
	ck_assert_int_eq(store_games_due(st, 1000, 0, &list, &n, &err), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(list[1].id, g2);
	store_games_free(&list, n);
	ck_assert_int_eq(store_games_due(st, 1000, 1, &list, &n, &err), 0);
	ck_assert_uint_eq(n, 1);
	store_games_free(&list, n);
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
	m.headers = "Subject: [ashes #1] your move\n";
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
	store_moves_free(&recs, n);
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
	store_moves_free(&recs, n);
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

/* ---- inbound and signatures ---------------------------------------- */

START_TEST(test_inbound)
{
	static const char raw[] = "From: a@example.org\r\n\r\nmove\0binary";
	struct store_inbound in = { 0 }, *got = NULL;
	char sha[65], sha2[65];
	int64_t id = 0, seen = 0, a;

	a = add_player("Alice", 1);
	test_sha(sha, 1);
	test_sha(sha2, 2);
	ck_assert_int_eq(store_inbound_seen(st, sha, &seen, &err), 0);
	in.message_id = "m1@example.org";
	in.sha256 = sha;
	in.raw = (char *)raw;
	in.raw_len = sizeof(raw) - 1;
	in.received = 42;
	in.source = "imap:INBOX";
	in.sender_address = "a@example.org";
	in.sender_fingerprint = "ABCD";
	in.player_id = a;
	ck_assert_int_eq(store_inbound_record(st, &in, &id, &err), 0);
	ck_assert_int_gt(id, 0);

	/* seen by the bytes only: a Message-ID anyone can take first */
	ck_assert_int_eq(store_inbound_seen(st, sha, &seen, &err), 1);
	ck_assert_int_eq(seen, id);
	ck_assert_int_eq(store_inbound_seen(st, sha2, &seen, &err), 0);
	ck_assert_int_eq(store_inbound_seen(st, NULL, NULL, &err), 0);

	/* the same Message-ID with other bytes is another mail */
	in.sha256 = sha2;
	ck_assert_int_eq(store_inbound_record(st, &in, NULL, &err), 0);
	/* the same bytes: recorded once */
	in.message_id = "m2@example.org";
	in.sha256 = sha;
	ck_assert_int_eq(store_inbound_record(st, &in, NULL, &err), 1);
	test_sha(sha2, 3);
	in.sha256 = sha2;
	in.raw_len = 0;
	ck_assert_int_eq(store_inbound_record(st, &in, NULL, &err), 0);
	in.sha256 = "ABC";
	ck_assert_int_eq(store_inbound_record(st, &in, NULL, &err), -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	ck_assert_int_eq(count("inbound"), 3);

	ck_assert_int_eq(store_inbound_set_outcome(st, id, "ok: move 12 7",
						   &err), 0);
	ck_assert_int_eq(store_inbound_set_outcome(st, id + 50, "x", &err),
			 -1);
	ck_assert_int_eq(store_inbound_load(st, id, &got, &err), 1);
	ck_assert_str_eq(got->message_id, "m1@example.org");
	ck_assert_str_eq(got->sha256, sha);
	ck_assert_uint_eq(got->raw_len, sizeof(raw) - 1);
	ck_assert_mem_eq(got->raw, raw, sizeof(raw) - 1);
	ck_assert_int_eq(got->received, 42);
	ck_assert_str_eq(got->source, "imap:INBOX");
	ck_assert_str_eq(got->sender_address, "a@example.org");
	ck_assert_str_eq(got->sender_fingerprint, "ABCD");
	ck_assert_int_eq(got->player_id, a);
	ck_assert_str_eq(got->outcome, "ok: move 12 7");
	store_inbound_free(&got);
	ck_assert_ptr_null(got);
	ck_assert_int_eq(store_inbound_load(st, id + 50, &got, &err), 0);
}
END_TEST

/* ---- address claims, key lifecycle, attempts, savepoints ------------- */

START_TEST(test_claims_and_keys)
{
	struct store_claim c;
	struct store_player *p = NULL;
	char fpr[41], fpr2[41], fpr9[41];
	int64_t a, pid = 0, id = 0;

	a = add_player("Alice", 1);
	test_fpr(fpr, 1);
	test_fpr(fpr2, 2);
	test_fpr(fpr9, 9);
	/* a pending player: a key, no address, one claim */
	ck_assert_int_eq(store_player_add(st, "Mallory", NULL, fpr9, 5, &id,
					  &err), 0);
	ck_assert_int_eq(store_claim_get(st, id, &c, &err), 0);
	ck_assert_int_eq(store_claim_set(st, id, "Alice@example.org",
					 "ABCDEF2345", 6, &err), 0);
	/* a claim blocks nobody: alice's own address stays hers */
	ck_assert_int_eq(store_player_by_address(st, "alice@example.org", &p,
						 &err), 1);
	ck_assert_int_eq(p->id, a);
	store_player_free(&p);
	ck_assert_int_eq(store_claim_set(st, id, "m@example.org",
					 "ZZZZZZ2345", 7, &err), 0);
	ck_assert_int_eq(store_claim_get(st, id, &c, &err), 1);
	ck_assert_str_eq(c.address, "m@example.org");
	ck_assert_str_eq(c.code, "ZZZZZZ2345");
	ck_assert_int_eq(c.created, 7);
	store_claim_clear(&c);
	ck_assert_int_eq(store_claim_find(st, "M@example.org", "ZZZZZZ2345",
					  &pid, &err), 1);
	ck_assert_int_eq(pid, id);
	ck_assert_int_eq(store_claim_find(st, "m@example.org", "ABCDEF2345",
					  &pid, &err), 0);
	ck_assert_int_eq(store_claim_set(st, id, "no-at-sign", "ABCDEF2345", 8,
					 &err), -1);
	ck_assert_int_eq(store_claim_delete(st, id, &err), 0);
	ck_assert_int_eq(store_claim_get(st, id, &c, &err), 0);

	/* a revoked key identifies nobody */
	ck_assert_int_eq(store_key_revoke(st, fpr, 10, &pid, &err), 1);
	ck_assert_int_eq(pid, a);
	ck_assert_int_eq(store_key_revoke(st, fpr, 11, NULL, &err), 0);
	ck_assert_int_eq(store_player_by_fingerprint(st, fpr, &p, &err), 0);
	ck_assert_int_eq(store_player_load(st, a, &p, &err), 1);
	ck_assert_uint_eq(p->n_fingerprints, 0);
	store_player_free(&p);
	/* replacing: the new key binds, the old one stops */
	ck_assert_int_eq(store_key_replace(st, id, fpr9, fpr2, 12, &err), 0);
	ck_assert_int_eq(store_player_by_fingerprint(st, fpr2, &p, &err), 1);
	ck_assert_int_eq(p->id, id);
	store_player_free(&p);
	ck_assert_int_eq(store_player_by_fingerprint(st, fpr9, &p, &err), 0);
	/* a key bound before (even revoked) is never bound again */
	ck_assert_int_eq(store_key_replace(st, id, fpr2, fpr, 13, &err), 1);
	ck_assert_int_eq(store_player_by_fingerprint(st, fpr2, &p, &err), 1);
	store_player_free(&p);
}
END_TEST

START_TEST(test_attempts_and_savepoints)
{
	long n = 0;
	char *why = NULL;
	char sha[65];
	struct store_inbound in = { 0 };

	ck_assert_int_eq(store_attempt_get(st, "imap", 7, 42, &n, &why, &err), 0);
	ck_assert_int_eq(store_attempt_hit(st, "imap", 7, 42, NULL, 1, &n, &err),
			 0);
	ck_assert_int_eq(n, 1);
	ck_assert_int_eq(store_attempt_hit(st, "imap", 7, 42, "crashed", 2, &n,
					   &err), 0);
	ck_assert_int_eq(n, 2);
	ck_assert_int_eq(store_attempt_hit(st, "imap", 8, 42, NULL, 2, &n, &err),
			 0);
	ck_assert_int_eq(n, 1);
	ck_assert_int_eq(store_attempt_get(st, "imap", 7, 42, &n, &why, &err), 1);
	ck_assert_int_eq(n, 2);
	ck_assert_str_eq(why, "crashed");
	free(why);
	ck_assert_int_eq(store_attempt_clear(st, "imap", 7, 42, &err), 0);
	ck_assert_int_eq(store_attempt_get(st, "imap", 7, 42, &n, NULL, &err), 0);

	/* a savepoint undoes one mail of a batch, not the batch */
	ck_assert_int_eq(store_savepoint(st, &err), -1);
	ck_assert_int_eq(store_begin(st, &err), 0);
	test_sha(sha, 1);
	in.sha256 = sha;
	in.received = 1;
	ck_assert_int_eq(store_inbound_record(st, &in, NULL, &err), 0);
	ck_assert_int_eq(store_savepoint(st, &err), 0);
	test_sha(sha, 2);
	ck_assert_int_eq(store_inbound_record(st, &in, NULL, &err), 0);
	ck_assert_int_eq(store_savepoint_end(st, false, &err), -1);
	ck_assert_int_eq(store_savepoint(st, &err), 0);
	test_sha(sha, 3);
	in.raw = "Subject: big\r\n";
	in.raw_len = strlen(in.raw);
	in.raw_truncated = true;
	ck_assert_int_eq(store_inbound_record(st, &in, NULL, &err), 0);
	ck_assert_int_eq(store_savepoint_end(st, true, &err), 0);
	ck_assert_int_eq(store_commit(st, &err), 0);
	ck_assert_int_eq(count("inbound"), 2);
	ck_assert_int_eq(store_inbound_seen(st, sha, NULL, &err), 1);
	test_sha(sha, 2);
	ck_assert_int_eq(store_inbound_seen(st, sha, NULL, &err), 0);
}
END_TEST

START_TEST(test_signatures)
{
	char sha[65], fpr[41], fpr2[41], *who = NULL;

	test_sha(sha, 7);
	test_fpr(fpr, 1);
	test_fpr(fpr2, 2);
	ck_assert_int_eq(store_signature_seen(st, sha, &who, &err), 0);
	ck_assert_ptr_null(who);
	ck_assert_int_eq(store_signature_record(st, fpr, 1000, sha, 0, 1001,
						&err), 0);
	/* accepted once, ever: the same signed text again, even re-signed by
	 * another key, is a replay */
	ck_assert_int_eq(store_signature_record(st, fpr, 1000, sha, 0, 2000,
						&err), 1);
	ck_assert_int_eq(store_signature_record(st, fpr2, 3000, sha, 0, 3001,
						&err), 1);
	ck_assert_int_eq(store_signature_seen(st, sha, &who, &err), 1);
	ck_assert_str_eq(who, fpr);
	free(who);
	ck_assert_int_eq(store_signature_seen(st, sha, NULL, &err), 1);
	ck_assert_int_eq(store_signature_record(st, "zz", 1, sha, 0, 1, &err),
			 -1);
	ck_assert_int_eq(store_signature_record(st, fpr, 1, "short", 0, 1,
						&err), -1);
	ck_assert_int_eq(count("signatures"), 1);
}
END_TEST

/* ---- outbox --------------------------------------------------------- */

static int64_t enqueue(const char *to, const char *msgid, int64_t now,
		       int64_t at)
{
	struct store_outbox_msg m = { 0 };
	int64_t id = 0;

	m.recipient = (char *)to;
	m.message_id = (char *)msgid;
	m.headers = "Subject: [ashes #1] x\r\n";
	m.body = "body\r\n";
	m.next_attempt_at = at;
	ck_assert_int_eq(store_outbox_enqueue(st, &m, now, &id, &err), 0);
	return id;
}

START_TEST(test_outbox)
{
	struct store_outbox_msg *msgs = NULL, *one = NULL;
	size_t n = 0;
	int64_t m1, m2, m3, at = 0;

	ck_assert_int_eq(store_outbox_next_due(st, &at, &err), 0);
	m1 = enqueue("a@example.org", "r1@ashes", 100, 0);
	m2 = enqueue("b@example.org", "r2@ashes", 101, 0);
	m3 = enqueue("c@example.org", NULL, 102, 500);

	ck_assert_int_eq(store_outbox_next_due(st, &at, &err), 1);
	ck_assert_int_eq(at, 100);
	ck_assert_int_eq(store_outbox_due(st, 99, 0, &msgs, &n, &err), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_int_eq(store_outbox_due(st, 200, 0, &msgs, &n, &err), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(msgs[0].id, m1);
	ck_assert_str_eq(msgs[0].recipient, "a@example.org");
	ck_assert_str_eq(msgs[0].message_id, "r1@ashes");
	ck_assert_str_eq(msgs[0].headers, "Subject: [ashes #1] x\r\n");
	ck_assert_str_eq(msgs[0].body, "body\r\n");
	ck_assert_int_eq(msgs[0].created, 100);
	ck_assert_int_eq(msgs[0].attempts, 0);
	ck_assert_int_eq(msgs[0].sent_at, 0);
	ck_assert(!msgs[0].failed);
	store_outbox_msgs_free(&msgs, n);
	ck_assert_ptr_null(msgs);
	ck_assert_int_eq(store_outbox_due(st, 200, 1, &msgs, &n, &err), 0);
	ck_assert_uint_eq(n, 1);
	store_outbox_msgs_free(&msgs, n);

	/* m1 sent; m2 temporary failure, retried later; m3 permanent */
	ck_assert_int_eq(store_outbox_mark_sent(st, m1, 201, &err), 0);
	ck_assert_int_eq(store_outbox_mark_retry(st, m2, 400, "421 busy",
						 &err), 0);
	ck_assert_int_eq(store_outbox_due(st, 300, 0, &msgs, &n, &err), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_int_eq(store_outbox_next_due(st, &at, &err), 1);
	ck_assert_int_eq(at, 400);
	ck_assert_int_eq(store_outbox_due(st, 600, 0, &msgs, &n, &err), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(msgs[0].id, m2);
	ck_assert_int_eq(msgs[0].attempts, 1);
	ck_assert_str_eq(msgs[0].last_error, "421 busy");
	ck_assert_int_eq(msgs[1].id, m3);
	store_outbox_msgs_free(&msgs, n);
	ck_assert_int_eq(store_outbox_mark_failed(st, m3, 601, "550 no user",
						  &err), 0);

	/* a finished message cannot change state again */
	ck_assert_int_eq(store_outbox_mark_sent(st, m1, 700, &err), -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	ck_assert_int_eq(store_outbox_mark_retry(st, m3, 700, "x", &err), -1);
	ck_assert_int_eq(store_outbox_mark_failed(st, 999, 700, "x", &err),
			 -1);

	ck_assert_int_eq(store_outbox_list(st, STORE_OUTBOX_ALL, 0, 0, &msgs,
					   &n, &err), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert_int_eq(msgs[0].sent_at, 201);
	ck_assert_int_eq(msgs[0].attempts, 1);
	ck_assert(msgs[2].failed);
	ck_assert_str_eq(msgs[2].last_error, "550 no user");
	store_outbox_msgs_free(&msgs, n);
	ck_assert_int_eq(store_outbox_list(st, STORE_OUTBOX_PENDING, 0, 0,
					   &msgs, &n, &err), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(msgs[0].id, m2);
	store_outbox_msgs_free(&msgs, n);
	ck_assert_int_eq(store_outbox_list(st, STORE_OUTBOX_SENT, 0, 0, &msgs,
					   &n, &err), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(msgs[0].id, m1);
	store_outbox_msgs_free(&msgs, n);
	ck_assert_int_eq(store_outbox_list(st, STORE_OUTBOX_FAILED, 0, 0,
					   &msgs, &n, &err), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(msgs[0].id, m3);
	store_outbox_msgs_free(&msgs, n);
	ck_assert_int_eq(store_outbox_list(st, STORE_OUTBOX_ALL, m1, 1, &msgs,
					   &n, &err), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(msgs[0].id, m2);
	store_outbox_msgs_free(&msgs, n);
	ck_assert_int_eq(store_outbox_list(st, (enum store_outbox_filter)9, 0,
					   0, &msgs, &n, &err), -1);

	ck_assert_int_eq(store_outbox_by_message_id(st, "r2@ashes", &one,
						    &err), 1);
	ck_assert_int_eq(one->id, m2);
	store_outbox_msgs_free(&one, 1);
	ck_assert_int_eq(store_outbox_by_message_id(st, "nope@ashes", &one,
						    &err), 0);
	ck_assert_ptr_null(one);

	{
		struct store_outbox_msg bad = { 0 };

		ck_assert_int_eq(store_outbox_enqueue(st, &bad, 1, NULL, &err),
				 -1);
		ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	}
}
END_TEST

/* ---- mailbox state and rate limits --------------------------------- */

START_TEST(test_mailbox_state)
{
	uint32_t v = 0, uid = 0;

	ck_assert_int_eq(store_mailbox_state_get(st, "imap:INBOX", &v, &uid,
						 &err), 0);
	ck_assert_int_eq(store_mailbox_state_set(st, "imap:INBOX", 1234, 17,
						 5, &err), 0);
	ck_assert_int_eq(store_mailbox_state_get(st, "imap:INBOX", &v, &uid,
						 &err), 1);
	ck_assert_uint_eq(v, 1234);
	ck_assert_uint_eq(uid, 17);
	ck_assert_int_eq(store_mailbox_state_set(st, "imap:INBOX",
						 4294967295u, 4294967294u, 6,
						 &err), 0);
	ck_assert_int_eq(store_mailbox_state_set(st, "maildir:/x", 1, 1, 6,
						 &err), 0);
	ck_assert_int_eq(store_mailbox_state_get(st, "imap:INBOX", &v, &uid,
						 &err), 1);
	ck_assert_uint_eq(v, 4294967295u);
	ck_assert_uint_eq(uid, 4294967294u);
	ck_assert_int_eq(count("mailbox_state"), 2);
	ck_assert_int_eq(store_mailbox_state_set(st, NULL, 1, 1, 6, &err), -1);
}
END_TEST

START_TEST(test_rate_limits)
{
	long c = -1;
	int i;

	for (i = 1; i <= 5; i++) {
		ck_assert_int_eq(store_rate_hit(st, "flood@example.org",
						1000 + i, 60, &c, &err), 0);
		ck_assert_int_eq(c, i);
	}
	/* compared case-insensitively; others have their own counter */
	ck_assert_int_eq(store_rate_hit(st, "FLOOD@example.org", 1010, 60, &c,
					&err), 0);
	ck_assert_int_eq(c, 6);
	ck_assert_int_eq(store_rate_hit(st, "calm@example.org", 1010, 60, &c,
					&err), 0);
	ck_assert_int_eq(c, 1);
	ck_assert_int_eq(store_rate_get(st, "flood@example.org", 1020, 60, &c,
					&err), 0);
	ck_assert_int_eq(c, 6);
	/* the window (started at 1001) is over at 1061 */
	ck_assert_int_eq(store_rate_get(st, "flood@example.org", 1061, 60, &c,
					&err), 0);
	ck_assert_int_eq(c, 0);
	ck_assert_int_eq(store_rate_hit(st, "flood@example.org", 1061, 60, &c,
					&err), 0);
	ck_assert_int_eq(c, 1);
	ck_assert_int_eq(store_rate_get(st, "unknown@example.org", 1061, 60,
					&c, &err), 0);
	ck_assert_int_eq(c, 0);
	ck_assert_int_eq(store_rate_hit(st, "x", 1, 0, &c, &err), -1);

	ck_assert_int_eq(store_rate_prune(st, 1050, &err), 0);
	ck_assert_int_eq(count("rate_limits"), 1);
}
END_TEST

/* ---- transactions --------------------------------------------------- */

START_TEST(test_transactions)
{
	char fpr[41];
	int64_t id;

	ck_assert(!store_in_transaction(st));
	ck_assert_int_eq(store_begin(st, &err), 0);
	ck_assert(store_in_transaction(st));
	ck_assert_int_eq(store_begin(st, &err), -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	add_player("Alice", 1);
	/* another connection sees nothing yet */
	ck_assert_int_eq(count("players"), 0);
	store_rollback(st);
	ck_assert(!store_in_transaction(st));
	ck_assert_int_eq(count("players"), 0);
	ck_assert_int_eq(store_commit(st, &err), -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	store_rollback(st); /* harmless without a transaction */

	/* a uniqueness refusal inside a transaction keeps it usable and
	 * undoes only the refused call */
	ck_assert_int_eq(store_begin(st, &err), 0);
	add_player("Alice", 1);
	test_fpr(fpr, 1);
	ck_assert_int_eq(store_player_add(st, "Bob", "b@example.org", fpr, 3,
					  &id, &err), 1);
	add_player("Carol", 3);
	ck_assert(store_in_transaction(st));
	ck_assert_int_eq(store_commit(st, &err), 0);
	ck_assert_int_eq(count("players"), 2);
	ck_assert_int_eq(count("player_addresses"), 2);
	ck_assert_int_eq(test_query_int(test_db, "SELECT count(*) FROM "
					"players WHERE name = 'Bob'"), 0);

	/* closing with an open transaction rolls it back */
	ck_assert_int_eq(store_begin(st, &err), 0);
	add_player("Dave", 4);
	store_close(&st);
	ck_assert_int_eq(count("players"), 2);
	st = test_open();
}
END_TEST

static Suite *store_suite(void)
{
	Suite *s = suite_create("store");
	TCase *tc = tcase_create("api");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_player_add_and_lookups);
	tcase_add_test(tc, test_player_more_keys_and_addresses);
	tcase_add_test(tc, test_player_unique_rules_are_atomic);
	tcase_add_test(tc, test_player_list_and_failing_address);
	tcase_add_test(tc, test_game_roundtrip);
	tcase_add_test(tc, test_game_status_names);
	tcase_add_test(tc, test_game_lists);
	tcase_add_test(tc, test_game_by_message_id);
	tcase_add_test(tc, test_moves);
	tcase_add_test(tc, test_move_links_inbound);
	tcase_add_test(tc, test_observers);
	tcase_add_test(tc, test_inbound);
	tcase_add_test(tc, test_signatures);
	tcase_add_test(tc, test_claims_and_keys);
	tcase_add_test(tc, test_attempts_and_savepoints);
	tcase_add_test(tc, test_outbox);
	tcase_add_test(tc, test_mailbox_state);
	tcase_add_test(tc, test_rate_limits);
	tcase_add_test(tc, test_transactions);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run(store_suite());
}
