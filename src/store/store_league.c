/* store_league.c -- an open league's sign-ups by mail (`league join
 * NAME`, `league leave NAME`; the table league_signups, sql/009); see
 * store_club.h.  The seasons and their members are store_club.c's. */
#include "store/store_private.h"

#include <stdlib.h>
#include <string.h>

int store_league_signup_set(struct store *store, const char *league,
			    int64_t player_id, bool joined, int64_t now,
			    const char **error_r)
{
	static const char sql[] =
		"INSERT INTO league_signups (league, player_id, joined, at) "
		"VALUES (?1, ?2, ?3, ?4) ON CONFLICT (league, player_id) DO "
		"UPDATE SET joined = excluded.joined, at = excluded.at";
	sqlite3_stmt *st;

	store_ok(store);
	if (!store_club_name_ok(league))
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "bad league name");
	if (store_club_refs_exist(store, player_id, 0, 0, 0, error_r) < 0)
		return -1;
	st = store_stmt_bind(store, sql, error_r, STORE_TEXT(league),
			     STORE_INT(player_id), STORE_INT(joined ? 1 : 0),
			     STORE_INT(now));
	return store_run(store, st, "recording a league sign-up", error_r);
}

int store_league_signup_get(struct store *store, const char *league,
			    int64_t player_id, bool *joined_r,
			    const char **error_r)
{
	static const char sql[] =
		"SELECT joined FROM league_signups WHERE league = ?1 AND "
		"player_id = ?2";
	sqlite3_stmt *st;
	int64_t joined = 0;
	int r;

	store_ok(store);
	*joined_r = false;
	st = store_stmt_bind(store, sql, error_r, STORE_TEXT(league),
			     STORE_INT(player_id));
	r = store_query_int64(store, st, &joined, "reading a league sign-up",
			      error_r);
	*joined_r = r == 1 && joined != 0;
	return r;
}

int store_league_signups(struct store *store, const char *league,
			 int64_t **ids_r, size_t *count_r,
			 const char **error_r)
{
	return store_ids(store, ids_r, count_r,
			 "listing a league's sign-ups", error_r,
			 "SELECT player_id FROM league_signups "
			 "WHERE league = ?1 AND joined = 1 "
			 "ORDER BY at, player_id", STORE_TEXT(league));
}
