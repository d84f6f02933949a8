/* test_store_undo.c -- what sql/006 added to the store: taking the last
 * plies of a game back (store_move_take_back), the pending request to
 * do so (store_undo_offer_get/set), and the notes the players send each
 * other (store_game_message_add, store_game_messages); and the plies'
 * record lines (sql/012), which go with the plies taken back; and the
 * conditional moves (sql/013), which a take-back clears. */
#include "store_fixture.h"
#include "store/store_conditional.h"

static int64_t alice, bob;

/* An active game of alice (White) and bob. */
#define new_game() add_game("size=3", alice, bob, alice, STORE_GAME_ACTIVE, 100)

/* The players, and a game of theirs with `plies` moves stored; ply 4,
 * if there is one, is a forced pass (no player). */
static int64_t game_with_plies(int plies)
{
	int64_t id;
	char text[16];

	alice = add_player("alice", 1);
	bob = add_player("bob", 2);
	id = new_game();
	for (int p = 1; p <= plies; p++) {
		int64_t who = p == 4 ? 0 : p % 2 == 1 ? alice : bob;
		snprintf(text, sizeof(text), p == 4 ? "pass" : "m%d", p);
		ck_assert_int_eq(store_move_append(st, id, p, text, who,
						   100 + p, 0, &err), 0);
	}
	return id;
}

static int ply_of(int64_t id)
{
	struct store_game *g = NULL;
	int ply;

	ck_assert_int_eq(store_game_load(st, id, &g, &err), 1);
	ply = g->ply;
	store_game_free(&g);
	return ply;
}

START_TEST(test_take_back)
{
	int64_t id = game_with_plies(5), by;
	struct store_game *g = NULL;
	char **moves = NULL;
	size_t n = 0;
	int at;

	ck_assert_int_eq(store_undo_offer_set(st, id, bob, 5, 200, &err), 0);
	/* plies 4 (a forced pass) and 5 go together */
	ck_assert_int_eq(store_move_take_back(st, id, 5, 3, 300, &err), 0);
	ck_assert_int_eq(store_game_load(st, id, &g, &err), 1);
	ck_assert_int_eq(g->ply, 3);
	ck_assert_int_eq(g->updated, 300);
	store_game_free(&g);
	ck_assert_int_eq(store_game_moves(st, id, &moves, &n, &err), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert_str_eq(moves[2], "m3");
	ck_assert_ptr_null(moves[3]);
	store_strings_free(&moves);
	ck_assert_int_eq(count("moves"), 3);
	/* the request was answered */
	ck_assert_int_eq(store_undo_offer_get(st, id, &by, &at, &err), 0);
	ck_assert_int_eq(by, 0);
	ck_assert_int_eq(at, 0);
	/* the game goes on from ply 3 */
	ck_assert_int_eq(store_move_append(st, id, 5, "x", alice, 400, 0,
					   &err), 1);
	ck_assert_int_eq(store_move_append(st, id, 4, "m4b", alice, 400, 0,
					   &err), 0);
	ck_assert_int_eq(ply_of(id), 4);
	/* back to no ply at all */
	ck_assert_int_eq(store_move_take_back(st, id, 4, 0, 500, &err), 0);
	ck_assert_int_eq(ply_of(id), 0);
	ck_assert_int_eq(count("moves"), 0);
}
END_TEST

START_TEST(test_take_back_refused)
{
	int64_t id = game_with_plies(3);
	char *before = test_dump(test_db), *after;

	/* a move came meanwhile (the game is at 3, not 2): no change */
	ck_assert_int_eq(store_move_take_back(st, id, 2, 1, 300, &err), 1);
	/* nothing to take, or below zero */
	ck_assert_int_eq(store_move_take_back(st, id, 3, 3, 300, &err), -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	ck_assert_int_eq(store_move_take_back(st, id, 3, -1, 300, &err), -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	ck_assert_int_eq(store_move_take_back(st, id + 9, 3, 2, 300, &err),
			 -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	after = test_dump(test_db);
	ck_assert_str_eq(before, after);
	free(after);
	/* a game whose ply does not count its rows: refused whole */
	test_exec(test_db, "DELETE FROM moves WHERE ply = 2");
	free(before);
	before = test_dump(test_db);
	ck_assert_int_eq(store_move_take_back(st, id, 3, 1, 300, &err), -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	after = test_dump(test_db);
	ck_assert_str_eq(before, after);
	free(after);
	free(before);
}
END_TEST

/* In the service's transaction, rolled back: nothing of it stays; and a
 * fault at any step of it leaves the database as it was. */
START_TEST(test_take_back_atomic)
{
	int64_t id = game_with_plies(5);
	char *before = test_dump(test_db), *after;
	long n;

	ck_assert_int_eq(store_begin(st, &err), 0);
	ck_assert_int_eq(store_move_take_back(st, id, 5, 2, 300, &err), 0);
	store_rollback(st);
	after = test_dump(test_db);
	ck_assert_str_eq(before, after);
	free(after);
	for (n = 0;; n++) {
		int rc;
		store_debug_fail_after(st, n);
		rc = store_move_take_back(st, id, 5, 2, 300, &err);
		store_debug_fail_after(st, -1);
		if (rc == 0)
			break;
		ck_assert_int_eq(rc, -1);
		ck_assert_int_eq(store_error_kind(st), STORE_ERROR_FAULT);
		after = test_dump(test_db);
		ck_assert_msg(strcmp(before, after) == 0,
			      "fault at call %ld left changes behind", n);
		free(after);
	}
	ck_assert_int_ge(n, 3);
	ck_assert_int_eq(ply_of(id), 2);
	free(before);
}
END_TEST

START_TEST(test_undo_offer)
{
	int64_t id = game_with_plies(2), by = -1;
	struct store_game *g = NULL;
	int at = -1;

	ck_assert_int_eq(store_undo_offer_get(st, id, &by, &at, &err), 0);
	ck_assert_int_eq(by, 0);
	ck_assert_int_eq(at, 0);
	ck_assert_int_eq(store_undo_offer_set(st, id, bob, 2, 200, &err), 0);
	ck_assert_int_eq(store_undo_offer_get(st, id, &by, &at, &err), 1);
	ck_assert_int_eq(by, bob);
	ck_assert_int_eq(at, 2);
	/* saving the rest of the row keeps the request */
	ck_assert_int_eq(store_game_load(st, id, &g, &err), 1);
	ck_assert_int_eq(g->updated, 200);
	g->draw_offer_by = alice;
	ck_assert_int_eq(store_game_update(st, g, 250, &err), 0);
	store_game_free(&g);
	ck_assert_int_eq(store_undo_offer_get(st, id, &by, &at, &err), 1);
	ck_assert_int_eq(by, bob);
	/* another request replaces it; 0 clears it */
	ck_assert_int_eq(store_undo_offer_set(st, id, alice, 3, 260, &err), 0);
	ck_assert_int_eq(store_undo_offer_get(st, id, &by, &at, &err), 1);
	ck_assert_int_eq(by, alice);
	ck_assert_int_eq(at, 3);
	ck_assert_int_eq(store_undo_offer_set(st, id, 0, 0, 270, &err), 0);
	ck_assert_int_eq(store_undo_offer_get(st, id, &by, &at, &err), 0);
	/* no such game, no such player */
	ck_assert_int_eq(store_undo_offer_set(st, id + 9, bob, 2, 280, &err),
			 -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	ck_assert_int_eq(store_undo_offer_get(st, id + 9, &by, &at, &err), 0);
	ck_assert_int_eq(store_undo_offer_set(st, id, 999, 2, 280, &err), -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
}
END_TEST

START_TEST(test_messages)
{
	int64_t id = game_with_plies(2), other, mid = 0, inbound = 0;
	struct store_game_message *m = NULL;
	struct store_inbound in = { 0 };
	char sha[65], big[STORE_MESSAGE_MAX + 2];
	size_t n = 9;

	ck_assert_int_eq(store_game_messages(st, id, &m, &n, &err), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_ptr_null(m);
	test_sha(sha, 1);
	in.sha256 = sha;
	in.raw = "x";
	in.raw_len = 1;
	in.received = 150;
	ck_assert_int_eq(store_inbound_record(st, &in, &inbound, &err), 0);
	ck_assert_int_eq(store_game_message_add(st, id, 2, alice, "good luck",
						inbound, 300, &mid, &err), 0);
	ck_assert_int_gt(mid, 0);
	ck_assert_int_eq(store_game_message_add(st, id, 2, bob, "thanks", 0,
						301, NULL, &err), 0);
	other = new_game();
	ck_assert_int_eq(store_game_messages(st, id, &m, &n, &err), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(m[0].id, mid);
	ck_assert_int_eq(m[0].game_id, id);
	ck_assert_int_eq(m[0].ply, 2);
	ck_assert_int_eq(m[0].player_id, alice);
	ck_assert_str_eq(m[0].text, "good luck");
	ck_assert_int_eq(m[0].inbound_id, inbound);
	ck_assert_int_eq(m[0].created, 300);
	ck_assert_int_eq(m[1].player_id, bob);
	ck_assert_str_eq(m[1].text, "thanks");
	ck_assert_int_eq(m[1].inbound_id, 0);
	store_rows_free(&m, n, sizeof(*m), store_game_message_clear);
	ck_assert_ptr_null(m);
	ck_assert_int_eq(store_game_messages(st, other, &m, &n, &err), 0);
	ck_assert_uint_eq(n, 0);

	/* the bounds: empty, one byte over, a player, a game */
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	ck_assert_int_eq(store_game_message_add(st, id, 2, alice, "", 0, 302,
						NULL, &err), -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	ck_assert_int_eq(store_game_message_add(st, id, 2, alice, big, 0, 302,
						NULL, &err), -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	big[STORE_MESSAGE_MAX] = '\0';
	ck_assert_int_eq(store_game_message_add(st, id, 2, alice, big, 0, 302,
						NULL, &err), 0);
	ck_assert_int_eq(store_game_message_add(st, id, 2, 0, "hi", 0, 302,
						NULL, &err), -1);
	ck_assert_int_eq(store_game_message_add(st, id, -1, alice, "hi", 0,
						302, NULL, &err), -1);
	ck_assert_int_eq(store_game_message_add(st, id + 9, 2, alice, "hi", 0,
						302, NULL, &err), -1);
	ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE);
	ck_assert_int_eq(count("game_messages"), 3);
}
END_TEST

START_TEST(test_ply_records)
{
	int64_t id = game_with_plies(5);
	struct store_ply_record r = { 0 }, *rows = NULL;
	size_t n = 0;

	r.fields = 0x30;
	snprintf(r.signer, sizeof(r.signer), "%s",
		 "0123456789ABCDEF0123456789ABCDEF01234567");
	r.at = 1000;
	r.clock = 259200;
	snprintf(r.sha256, sizeof(r.sha256), "%064d", 7);
	for (int p = 5; p >= 1; p -= 2) {
		r.ply = p;
		ck_assert_int_eq(store_ply_record_put(st, id, &r, &err), 0);
	}
	/* written again: replaced */
	r.ply = 3;
	r.at = 1003;
	ck_assert_int_eq(store_ply_record_put(st, id, &r, &err), 0);
	ck_assert_int_eq(store_ply_records(st, id, &rows, &n, &err), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert_int_eq(rows[0].ply, 1);
	ck_assert_int_eq(rows[1].ply, 3);
	ck_assert_int_eq(rows[1].at, 1003);
	ck_assert_int_eq(rows[2].ply, 5);
	ck_assert_uint_eq(rows[2].fields, 0x30);
	ck_assert_str_eq(rows[2].signer, r.signer);
	ck_assert_int_eq(rows[2].clock, 259200);
	ck_assert_str_eq(rows[2].sha256, r.sha256);
	free(rows);
	/* no line for a ply not stored */
	r.ply = 6;
	ck_assert_int_eq(store_ply_record_put(st, id, &r, &err), -1);
	/* a ply taken back takes its line along */
	ck_assert_int_eq(store_move_take_back(st, id, 5, 3, 300, &err), 0);
	ck_assert_int_eq(store_ply_records(st, id, &rows, &n, &err), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(rows[1].ply, 3);
	free(rows);
	ck_assert_int_eq(count("ply_records"), 2);
}
END_TEST

/* Conditional moves (sql/013): a tree, its lines, moving down, a
 * conditional ply; a take-back clears the game's trees. */
START_TEST(test_conditional)
{
	int64_t id = game_with_plies(1);
	struct store_cond_tree t = { 0 }, got;
	struct store_cond_tree *all = NULL;
	struct store_cond_ply *plies = NULL;
	size_t n = 0;

	t.game_id = id;
	t.player_id = alice;
	t.inbound_id = add_inbound_raw(7, "conditional 1 m2 m3", 150);
	t.received = 150;
	t.base_ply = 1;
	snprintf(t.sha256, sizeof(t.sha256), "%064d", 7);
	/* no tree, no line */
	ck_assert_int_eq(store_cond_line_add(st, id, alice, "m2 m3", &err), -1);
	ck_assert_int_eq(store_cond_tree_set(st, &t, &err), 0);
	ck_assert_int_eq(store_cond_line_add(st, id, alice, "m2 m3", &err), 0);
	ck_assert_int_eq(store_cond_line_add(st, id, alice, "x2 y3 m4 m5",
					     &err), 0);
	ck_assert_int_eq(store_cond_tree_get(st, id, alice, &got, &err), 1);
	ck_assert_int_eq(got.base_ply, 1);
	ck_assert_int_eq(got.played, 0);
	ck_assert_int_eq(got.received, 150);
	ck_assert_uint_eq(got.nlines, 2);
	ck_assert_int_eq(got.lines[1].seq, 2);
	ck_assert_str_eq(got.lines[1].moves, "x2 y3 m4 m5");
	store_cond_tree_clear(&got);
	ck_assert_int_eq(store_cond_tree_get(st, id, bob, &got, &err), 0);
	/* moved down: one line left */
	ck_assert_int_eq(store_cond_line_delete(st, id, alice, 1, &err), 0);
	ck_assert_int_eq(store_cond_tree_played(st, id, alice, 1, &err), 0);
	ck_assert_int_eq(store_cond_trees(st, id, &all, &n, &err), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(all[0].played, 1);
	ck_assert_uint_eq(all[0].nlines, 1);
	store_cond_tree_clear(&all[0]);
	free(all);
	/* set again: replaced, its lines gone */
	ck_assert_int_eq(store_cond_tree_set(st, &t, &err), 0);
	ck_assert_int_eq(store_cond_tree_get(st, id, alice, &got, &err), 1);
	ck_assert_uint_eq(got.nlines, 0);
	store_cond_tree_clear(&got);
	/* a conditional ply, which goes with its move */
	ck_assert_int_eq(store_move_append(st, id, 2, "m2", bob, 160, 0, &err),
			 0);
	ck_assert_int_eq(store_move_append(st, id, 3, "m3", alice, 160,
					   t.inbound_id, &err), 0);
	ck_assert_int_eq(store_cond_ply_add(st, id, 3, 1, &err), 0);
	ck_assert_int_eq(store_cond_plies(st, id, &plies, &n, &err), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(plies[0].ply, 3);
	ck_assert_int_eq(plies[0].base_ply, 1);
	free(plies);
	ck_assert_int_eq(store_move_take_back(st, id, 3, 2, 170, &err), 0);
	ck_assert_int_eq(store_cond_plies(st, id, &plies, &n, &err), 0);
	ck_assert_uint_eq(n, 0);
	free(plies);
	ck_assert_int_eq(store_cond_tree_get(st, id, alice, &got, &err), 0);
	/* delete: 1 when there was one */
	ck_assert_int_eq(store_cond_tree_set(st, &t, &err), 0);
	ck_assert_int_eq(store_cond_tree_delete(st, id, 0, &err), 1);
	ck_assert_int_eq(store_cond_tree_delete(st, id, alice, &err), 0);
}
END_TEST

static Suite *store_undo_suite(void)
{
	Suite *s = suite_create("store_undo");
	TCase *tc = tcase_create("api");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_take_back);
	tcase_add_test(tc, test_take_back_refused);
	tcase_add_test(tc, test_take_back_atomic);
	tcase_add_test(tc, test_undo_offer);
	tcase_add_test(tc, test_messages);
	tcase_add_test(tc, test_ply_records);
	tcase_add_test(tc, test_conditional);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run(store_undo_suite());
}
