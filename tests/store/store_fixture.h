/* store_fixture.h -- the fixture of the store API tests (test_store.c,
 * test_store_game.c): a fresh store per test in `st`, the last error in
 * `err`, players to act with, and row counts. */
#ifndef ASHES_TESTS_STORE_FIXTURE_H
#define ASHES_TESTS_STORE_FIXTURE_H

#include "store_test.h"

static struct store *st;
static const char *err;

static inline void setup(void)
{
	test_dir_make();
	st = test_open();
	err = NULL;
}

static inline void teardown(void)
{
	store_close(&st);
	ck_assert_ptr_null(st);
	test_dir_remove();
}

static inline int64_t add_player(const char *name, unsigned n)
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

static inline long long count(const char *table)
{
	char sql[128];

	snprintf(sql, sizeof(sql), "SELECT count(*) FROM %s", table);
	return test_query_int(test_db, sql);
}

#endif
