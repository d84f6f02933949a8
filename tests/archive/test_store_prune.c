/* test_store_prune.c -- the store's part of archives (store_prune.h): the
 * mails a game's history refers to (store_game_mails), and deleting an
 * ended game with the mails only it refers to (store_game_delete) --
 * keeping the mails other games, their replies and the signature history
 * refer to, refusing games that have not ended, club games and games
 * with mail still queued, and leaving nothing half done when a write
 * fails. */
#include "../store/store_fixture.h"

#include "store/store_prune.h"

static int64_t alice, bob, carol;
/* Game A (alice - bob, finished), game B (alice - carol, active). */
static int64_t game_a, game_b;
/* The mails: A's challenge, A's move 1, A's note, a mail with A's move
 * 2 that B's reply refers to too, B's move 1; a duplicate reading of
 * A's move 1. */
static int64_t in_challenge, in_move, in_note, in_shared, in_b, in_dup;

#define new_game(white, black, status) \
	add_game("size=3", white, black, white, status, 100)

static int64_t new_mail(unsigned n, int64_t duplicate_of)
{
	struct store_inbound in = { 0 };
	char sha[65];
	int64_t id = 0;

	test_sha(sha, duplicate_of != 0 ? 2 : n);
	in.sha256 = sha;
	in.raw = "From: x@example.org\r\n\r\nmove\r\n";
	in.raw_len = strlen(in.raw);
	in.received = 200 + n;
	in.outcome = "ok";
	in.duplicate_of = duplicate_of;
	ck_assert_int_eq(store_inbound_record(st, &in, &id, &err), 0);
	return id;
}

static void new_reply(int64_t game, int64_t inbound, bool sent)
{
	struct store_outbox_msg m = { 0 };
	char mid[64];
	int64_t id = 0;

	snprintf(mid, sizeof(mid), "ashes.%lld.%lld@club.example",
		 (long long)game, (long long)inbound);
	m.kind = STORE_OUTBOX_KIND_REPLY;
	m.recipient = "alice@example.org";
	m.message_id = mid;
	m.subject = "Re: game";
	m.body = "ok";
	m.game_id = game;
	m.inbound_id = inbound;
	ck_assert_int_eq(store_outbox_enqueue(st, &m, 300, &id, &err), 0);
	if (sent)
		ck_assert_int_eq(store_outbox_mark_sent(st, id, 301, &err), 0);
}

static void club_setup(void)
{
	char sha[65], fpr[41];
	struct store_game g_row, *g = NULL;

	setup();
	alice = add_player("alice", 1);
	bob = add_player("bob", 2);
	carol = add_player("carol", 3);
	game_a = new_game(alice, bob, STORE_GAME_ACTIVE);
	game_b = new_game(alice, carol, STORE_GAME_ACTIVE);
	in_challenge = new_mail(1, 0);
	in_move = new_mail(2, 0);
	in_dup = new_mail(7, in_move);
	in_note = new_mail(3, 0);
	in_shared = new_mail(4, 0);
	in_b = new_mail(5, 0);
	new_reply(game_a, in_challenge, true);
	ck_assert_int_eq(store_move_append(st, game_a, 1, "a1-a2", alice, 210,
					   in_move, &err), 0);
	new_reply(game_a, in_move, true);
	ck_assert_int_eq(store_game_message_add(st, game_a, 1, bob, "hi",
						in_note, 220, NULL, &err), 0);
	ck_assert_int_eq(store_move_append(st, game_a, 2, "b1-b2", bob, 230,
					   in_shared, &err), 0);
	new_reply(game_b, in_shared, true);
	ck_assert_int_eq(store_move_append(st, game_b, 1, "c1-c2", alice, 240,
					   in_b, &err), 0);
	new_reply(game_b, in_b, false);
	test_sha(sha, 99);
	test_fpr(fpr, 1);
	ck_assert_int_eq(store_signature_record(st, fpr, 205, sha, in_move,
						206, &err), 0);
	/* A ends. */
	ck_assert_int_eq(store_game_load(st, game_a, &g, &err), 1);
	g_row = *g;
	g_row.status = STORE_GAME_FINISHED;
	g_row.result = "1-0";
	g_row.end_reason = "resignation";
	ck_assert_int_eq(store_game_update(st, &g_row, 400, &err), 0);
	store_game_free(&g);
}

static bool mail_there(int64_t id)
{
	struct store_inbound *in = NULL;
	int r = store_inbound_load(st, id, &in, &err);

	ck_assert_int_ge(r, 0);
	store_inbound_free(&in);
	return r == 1;
}

START_TEST(test_game_mails)
{
	struct store_game_mail *rows = NULL;
	size_t n = 0;

	ck_assert_int_eq(store_game_mails(st, game_a, &rows, &n, &err), 0);
	/* challenge (outbox), move (move, outbox), note, shared (move) */
	ck_assert_uint_eq(n, 5);
	ck_assert_int_eq(rows[0].inbound_id, in_challenge);
	ck_assert_int_eq(rows[0].ref, STORE_REF_OUTBOX);
	ck_assert_str_eq(rows[0].kind, "reply");
	ck_assert_int_eq(rows[1].inbound_id, in_move);
	ck_assert_int_eq(rows[1].ref, STORE_REF_MOVE);
	ck_assert_int_eq(rows[1].ply, 1);
	ck_assert_ptr_null(rows[1].kind);
	ck_assert_int_eq(rows[2].inbound_id, in_move);
	ck_assert_int_eq(rows[2].ref, STORE_REF_OUTBOX);
	ck_assert_int_eq(rows[3].inbound_id, in_note);
	ck_assert_int_eq(rows[3].ref, STORE_REF_NOTE);
	ck_assert_int_eq(rows[4].inbound_id, in_shared);
	ck_assert_int_eq(rows[4].ref, STORE_REF_MOVE);
	ck_assert_int_eq(rows[4].ply, 2);
	store_rows_free(&rows, n, sizeof(*rows), store_game_mail_clear);
	ck_assert_ptr_null(rows);
	/* no such game: nothing */
	ck_assert_int_eq(store_game_mails(st, 999, &rows, &n, &err), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_ptr_null(rows);
}
END_TEST

START_TEST(test_delete)
{
	struct store_game *g = NULL;
	const char *why = "x";
	int64_t mails = -1;

	ck_assert_int_eq(store_game_delete(st, game_a, &mails, &why, &err), 0);
	ck_assert_ptr_null(why);
	/* the challenge, the move (with its duplicate reading), the note */
	ck_assert_int_eq(mails, 3);
	ck_assert(!mail_there(in_challenge));
	ck_assert(!mail_there(in_move));
	ck_assert(!mail_there(in_dup));
	ck_assert(!mail_there(in_note));
	/* game B's reply refers to the shared mail: kept */
	ck_assert(mail_there(in_shared));
	ck_assert(mail_there(in_b));
	ck_assert_int_eq(store_game_load(st, game_a, &g, &err), 0);
	ck_assert_int_eq(store_game_load(st, game_b, &g, &err), 1);
	store_game_free(&g);
	ck_assert_int_eq(count("moves"), 1);
	ck_assert_int_eq(count("game_messages"), 0);
	ck_assert_int_eq(count("outbox"), 2);
	/* the signature history keeps the signature, without its mail */
	ck_assert_int_eq(count("signatures"), 1);
	ck_assert_int_eq(test_query_int(test_db, "SELECT count(*) FROM "
					"signatures WHERE inbound_id IS NULL"),
			 1);
	ck_assert_int_eq(test_query_int(test_db, "SELECT count(*) FROM "
					"pragma_foreign_key_check"), 0);
	/* once is enough */
	ck_assert_int_eq(store_game_delete(st, game_a, NULL, &why, &err), 1);
	ck_assert_str_eq(why, "no such game");
}
END_TEST

START_TEST(test_delete_refused)
{
	struct store_game_club gc = { 0 };
	const char *why = NULL;
	char *before, *after;
	int64_t game_c;

	before = test_dump(test_db);
	/* not ended */
	ck_assert_int_eq(store_game_delete(st, game_b, NULL, &why, &err), 1);
	ck_assert_str_eq(why, "the game has not ended");
	ck_assert_int_eq(store_game_delete(st, 999, NULL, &why, &err), 1);
	ck_assert_str_eq(why, "no such game");
	after = test_dump(test_db);
	ck_assert_str_eq(before, after);
	free(after);
	free(before);
	/* a mail about it still queued */
	new_reply(game_a, in_challenge, false);
	ck_assert_int_eq(store_game_delete(st, game_a, NULL, &why, &err), 1);
	ck_assert_str_eq(why, "a mail about it is still waiting in the outbox");
	ck_assert(mail_there(in_move));
	/* a ladder's game */
	game_c = new_game(bob, carol, STORE_GAME_FINISHED);
	gc.game_id = game_c;
	gc.ladder = "main";
	ck_assert_int_eq(store_game_club_set(st, &gc, &err), 0);
	ck_assert_int_eq(store_game_delete(st, game_c, NULL, &why, &err), 1);
	ck_assert_str_eq(why, "a game of a ladder or league (its standings "
			 "and ratings are built from it)");
	ck_assert_int_eq(count("games"), 3);
}
END_TEST

/* A write that fails half way leaves everything as it was; the same
 * deletion then goes through. */
START_TEST(test_delete_atomic)
{
	char *before = test_dump(test_db), *after;
	long n;
	int r = -1;

	for (n = 0; n < 200 && r != 0; n++) {
		store_debug_fail_after(st, n);
		r = store_game_delete(st, game_a, NULL, NULL, &err);
		store_debug_fail_after(st, -1);
		if (r != 0) {
			ck_assert_int_eq(r, -1);
			ck_assert_int_eq(store_error_kind(st),
					 STORE_ERROR_FAULT);
			after = test_dump(test_db);
			ck_assert_str_eq(before, after);
			free(after);
		}
	}
	ck_assert_int_eq(r, 0);
	/* it failed at least once before it went through */
	ck_assert_int_gt(n, 5);
	ck_assert(!mail_there(in_move));
	free(before);
}
END_TEST

static Suite *store_prune_suite(void)
{
	Suite *s = suite_create("store_prune");
	TCase *tc = tcase_create("api");

	tcase_add_checked_fixture(tc, club_setup, teardown);
	tcase_add_test(tc, test_game_mails);
	tcase_add_test(tc, test_delete);
	tcase_add_test(tc, test_delete_refused);
	tcase_add_test(tc, test_delete_atomic);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run(store_prune_suite());
}
