/* store_fixture.h -- the fixture of the store API tests (every
 * tests/store/test_store_*.c that works through an open store, and
 * tests/archive/test_store_prune.c): a fresh store per test in `st`, the
 * last error in `err`, the players, games and mails to act with, row
 * counts, and SQL run past the API to test what the schema refuses. */
#ifndef ASHES_TESTS_STORE_FIXTURE_H
#define ASHES_TESTS_STORE_FIXTURE_H

#include "store_test.h"

static struct store *st;

static inline void setup(void)
{
	dir_setup();
	st = test_open();
}

static inline void teardown(void)
{
	store_close(&st);
	ck_assert_ptr_null(st);
	dir_teardown();
}

/* The last call failed with STORE_ERROR_USAGE. */
#define ck_usage(call) do { \
		ck_assert_int_eq((call), -1); \
		ck_assert_int_eq(store_error_kind(st), STORE_ERROR_USAGE); \
	} while (0)

/* SQLite's answer to sql on a new connection with foreign keys on (0:
 * SQLITE_OK): what the schema itself refuses. */
static inline int exec_rc(const char *sql)
{
	sqlite3 *db;
	int rc;

	ck_assert_int_eq(sqlite3_open_v2(test_db, &db, SQLITE_OPEN_READWRITE,
					 NULL), SQLITE_OK);
	sqlite3_busy_timeout(db, 5000);
	ck_assert_int_eq(sqlite3_exec(db, "PRAGMA foreign_keys = ON", NULL,
				      NULL, NULL), SQLITE_OK);
	rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
	sqlite3_close(db);
	return rc;
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

/* A new game of white and black (0: none yet) in `variant`, challenged
 * by `challenger`, with `status`, created at `now`; its id. */
static inline int64_t add_game(const char *variant, int64_t white,
			       int64_t black, int64_t challenger,
			       enum store_game_status status, int64_t now)
{
	struct store_game g = { 0 };
	int64_t id = 0;

	g.variant = (char *)variant;
	g.white_id = white;
	g.black_id = black;
	g.challenger_id = challenger;
	g.status = status;
	ck_assert_int_eq(store_game_create(st, &g, now, &id, &err), 0);
	return id;
}

/* A new inbound mail of `raw` with digest n, received at `received`; its
 * id. */
static inline int64_t add_inbound_raw(unsigned n, const char *raw,
				      int64_t received)
{
	struct store_inbound in = { 0 };
	char sha[65];
	int64_t id = 0;

	test_sha(sha, n);
	in.sha256 = sha;
	in.raw = (char *)raw;
	in.raw_len = strlen(raw);
	in.received = received;
	ck_assert_int_eq(store_inbound_record(st, &in, &id, &err), 0);
	return id;
}

/* Make game a club game: of `ladder`, or of league season `season`'s
 * group `group`; rated or not. */
static inline void link_game(int64_t game, const char *ladder,
			     int64_t season, int group, bool rated)
{
	struct store_game_club gc = { 0 };

	gc.game_id = game;
	gc.ladder = (char *)ladder;
	gc.season_id = season;
	gc.group_no = group;
	gc.rated = rated;
	ck_assert_int_eq(store_game_club_set(st, &gc, &err), 0);
}

/* The schema itself refuses sql, or takes it. */
#define ck_schema_refuses(sql) \
	ck_assert_msg(exec_rc(sql) != 0, "accepted: %s", sql)
#define ck_schema_takes(sql) \
	ck_assert_msg(exec_rc(sql) == 0, "refused: %s", sql)

/* Set a game's status, updated at `now`. */
static inline void set_status(int64_t id, enum store_game_status status,
			      int64_t now)
{
	struct store_game *g = NULL;

	ck_assert_int_eq(store_game_load(st, id, &g, &err), 1);
	g->status = status;
	ck_assert_int_eq(store_game_update(st, g, now, &err), 0);
	store_game_free(&g);
}

static inline long long count(const char *table)
{
	char sql[128];

	snprintf(sql, sizeof(sql), "SELECT count(*) FROM %s", table);
	return test_query_int(test_db, sql);
}

/* A listing gave `want` games and, when id is not 0, the one at `at` is
 * game id; the rows are freed for the next listing. */
static inline void ck_games(struct store_game **list, size_t n, size_t want,
		     size_t at, int64_t id)
{
	ck_assert_uint_eq(n, want);
	if (id != 0)
		ck_assert_int_eq((*list)[at].id, id);
	store_rows_free(list, n, sizeof(**list), store_game_clear);
}

#endif
