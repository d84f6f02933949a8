/* test_store_account.c -- a player's own account in the store (sql/NNN-accounts.sql,
 * store_account.c): one waiting code of each purpose a player, its wrong
 * tries counted, replaced by a new one; an address moved only when it is
 * no other player's; a player forgotten -- what goes, what stays, the
 * name given only if free; and the export's sections, by name and in
 * order, refusing one that is not there. */
#include "store_fixture.h"

START_TEST(test_account_codes)
{
	struct store_account_code c;
	int64_t a = add_player("alice", 1), b = add_player("bob", 2);
	int tries = 0;

	ck_assert_int_eq(store_account_code_get(st, a, STORE_ACCOUNT_ADDRESS,
						&c, &err), 0);
	ck_assert_int_eq(store_account_code_set(st, a, STORE_ACCOUNT_ADDRESS,
						"a@new.example", "CODEAAAAAA",
						100, &err), 0);
	ck_assert_int_eq(store_account_code_set(st, a, STORE_ACCOUNT_DELETE,
						"ignored@x", "CODEDDDDDD", 100,
						&err), 0);
	/* an address change needs an address */
	ck_usage(store_account_code_set(st, b, STORE_ACCOUNT_ADDRESS, NULL,
					"CODEBBBBBB", 100, &err));
	ck_usage(store_account_code_set(st, b, STORE_ACCOUNT_ADDRESS,
					"no-at-sign", "CODEBBBBBB", 100, &err));
	ck_assert_int_eq(store_account_code_miss(st, a, STORE_ACCOUNT_ADDRESS,
						 &tries, &err), 0);
	ck_assert_int_eq(tries, 1);
	ck_assert_int_eq(store_account_code_miss(st, a, STORE_ACCOUNT_ADDRESS,
						 &tries, &err), 0);
	ck_assert_int_eq(tries, 2);
	ck_assert_int_eq(store_account_code_get(st, a, STORE_ACCOUNT_ADDRESS,
						&c, &err), 1);
	ck_assert_str_eq(c.address, "a@new.example");
	ck_assert_str_eq(c.code, "CODEAAAAAA");
	ck_assert_int_eq(c.tries, 2);
	store_account_code_clear(&c);
	ck_assert_int_eq(store_account_code_get(st, a, STORE_ACCOUNT_DELETE,
						&c, &err), 1);
	ck_assert_ptr_null(c.address);
	ck_assert_int_eq(c.tries, 0);
	store_account_code_clear(&c);
	/* a new code replaces the old, tries back to none */
	ck_assert_int_eq(store_account_code_set(st, a, STORE_ACCOUNT_ADDRESS,
						"a@other.example", "CODECCCCCC",
						200, &err), 0);
	ck_assert_int_eq(store_account_code_get(st, a, STORE_ACCOUNT_ADDRESS,
						&c, &err), 1);
	ck_assert_str_eq(c.address, "a@other.example");
	ck_assert_int_eq(c.tries, 0);
	ck_assert_int_eq(c.created, 200);
	store_account_code_clear(&c);
	ck_assert_int_eq(count("account_codes"), 2);
	ck_assert_int_eq(store_account_code_delete(st, a, STORE_ACCOUNT_ADDRESS,
						   &err), 0);
	ck_assert_int_eq(count("account_codes"), 1);
	/* one of each purpose a player, by the schema too */
	ck_schema_refuses("INSERT INTO account_codes (player_id, purpose, "
			  "address, code, created) VALUES (1, 'delete', NULL, "
			  "'CODEXXXXXX', 1)");
	ck_schema_refuses("INSERT INTO account_codes (player_id, purpose, "
			  "address, code, created) VALUES (2, 'address', NULL, "
			  "'CODEXXXXXX', 1)");
}
END_TEST

START_TEST(test_account_move_address)
{
	struct store_player *p = NULL;
	int64_t a = add_player("alice", 1);

	add_player("bob", 2);
	ck_assert_int_eq(store_player_add_address(st, a, "alice@second.example",
						  50, &err), 0);
	/* bob's address: nothing changes */
	ck_assert_int_eq(store_player_move_address(st, a, "BOB@example.org", 60,
						   &err), 1);
	ck_assert_int_eq(store_player_load(st, a, &p, &err), 1);
	ck_assert_uint_eq(p->n_addresses, 2);
	store_player_free(&p);
	/* a new one: the only one after */
	ck_assert_int_eq(store_player_move_address(st, a, "alice@new.example",
						   60, &err), 0);
	ck_assert_int_eq(store_player_load(st, a, &p, &err), 1);
	ck_assert_uint_eq(p->n_addresses, 1);
	ck_assert_str_eq(p->addresses[0].address, "alice@new.example");
	store_player_free(&p);
	/* one of hers: the others go */
	ck_assert_int_eq(store_player_add_address(st, a, "alice@third.example",
						  70, &err), 0);
	ck_assert_int_eq(store_player_move_address(st, a, "alice@third.example",
						   80, &err), 0);
	ck_assert_int_eq(store_player_load(st, a, &p, &err), 1);
	ck_assert_uint_eq(p->n_addresses, 1);
	ck_assert_str_eq(p->addresses[0].address, "alice@third.example");
	store_player_free(&p);
}
END_TEST

static int rows_seen;

static int count_row(void *ctx, const struct store_account_cell *cells,
		     size_t n)
{
	(void)ctx;
	ck_assert_uint_ge(n, 1);
	ck_assert_str_eq(cells[0].name, "address");
	rows_seen++;
	return 0;
}

static int stop_row(void *ctx, const struct store_account_cell *cells,
		    size_t n)
{
	(void)ctx;
	(void)cells;
	(void)n;
	return -1;
}

START_TEST(test_account_forget)
{
	struct store_player *p = NULL;
	int64_t a = add_player("alice", 1), b = add_player("bob", 2);
	int64_t g = add_game("size=3 tax=removed", a, b, a, STORE_GAME_FINISHED,
			     10);

	ck_assert_int_eq(store_account_code_set(st, a, STORE_ACCOUNT_DELETE,
						NULL, "CODEDDDDDD", 100, &err),
			 0);
	ck_assert_int_eq(exec_rc("INSERT INTO vacations (player_id, from_at, "
				 "to_at, created) VALUES (1, 10, 20, 5)"),
			 SQLITE_OK);
	ck_assert_int_eq(store_player_deleted(st, a, &err), 0);
	/* a name taken (any case): nothing changes */
	ck_assert_int_eq(store_player_forget(st, a, "BOB", 500, &err), 1);
	ck_assert_int_eq(count("player_addresses"), 2);
	ck_assert_int_eq(store_player_forget(st, a, "deleted-0000000000000001",
					     500, &err), 0);
	ck_assert_int_eq(store_player_deleted(st, a, &err), 1);
	ck_assert_int_eq(store_player_deleted(st, b, &err), 0);
	ck_assert_int_eq(count("player_addresses"), 1);
	ck_assert_int_eq(count("account_codes"), 0);
	ck_assert_int_eq(count("vacations"), 0);
	/* the key stays, revoked: it finds nobody */
	ck_assert_int_eq(count("player_keys"), 2);
	ck_assert_int_eq(store_player_load(st, a, &p, &err), 1);
	ck_assert_str_eq(p->name, "deleted-0000000000000001");
	ck_assert_uint_eq(p->n_fingerprints, 0);
	ck_assert_uint_eq(p->n_addresses, 0);
	store_player_free(&p);
	/* the game stays */
	ck_assert_int_eq(count("games"), 1);
	(void)g;
	/* the sections: by name, the addresses' rows, a stop, none more */
	ck_assert_str_eq(store_account_section_name(STORE_ACCOUNT_GAMES),
			 "games");
	ck_assert_ptr_null(store_account_section_name(STORE_ACCOUNT_SECTIONS));
	rows_seen = 0;
	ck_assert_int_eq(store_account_rows(st, STORE_ACCOUNT_ADDRESSES, b,
					    count_row, NULL, &err), 0);
	ck_assert_int_eq(rows_seen, 1);
	ck_assert_int_eq(store_account_rows(st, STORE_ACCOUNT_ADDRESSES, b,
					    stop_row, NULL, &err), -1);
	ck_usage(store_account_rows(st, STORE_ACCOUNT_SECTIONS, b, count_row,
				    NULL, &err));
}
END_TEST

TEST_MAIN("store_account", "account", setup, teardown, 0,
	  test_account_codes, test_account_move_address, test_account_forget)
