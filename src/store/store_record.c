/* store_record.c -- each ply's line of the game's record (sql/012): what
 * the record's ply line carries besides the move, written once when the
 * ply is stored and read back by `history` and `archive export`.  The
 * store keeps the facts as given; server/game_record.c decides them. */
#include "store/store_private.h"

#include <stdio.h>
#include <string.h>

int store_ply_record_put(struct store *store, int64_t game_id,
			 const struct store_ply_record *r,
			 const char **error_r)
{
	static const char sql[] =
		"INSERT OR REPLACE INTO ply_records (game_id, ply, fields, "
		"signer, at, clock, sha256, cond) "
		"VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)";

	return store_run_sql(store, store_run, sql,
			     "recording a ply's record line",
			     error_r, STORE_INT(game_id), STORE_INT(r->ply),
			     STORE_INT(r->fields), STORE_TEXT(r->signer),
			     STORE_INT(r->at), STORE_INT(r->clock),
			     STORE_TEXT(r->sha256), STORE_INT(r->cond));
}

static void ply_record_read(sqlite3_stmt *st, void *elem)
{
	struct store_ply_record *r = elem;
	const unsigned char *t;

	r->ply = sqlite3_column_int(st, 0);
	r->fields = (unsigned)store_col_int64(st, 1);
	if ((t = sqlite3_column_text(st, 2)) != NULL)
		snprintf(r->signer, sizeof(r->signer), "%s", (const char *)t);
	r->at = store_col_int64(st, 3);
	r->clock = store_col_int64(st, 4);
	if ((t = sqlite3_column_text(st, 5)) != NULL)
		snprintf(r->sha256, sizeof(r->sha256), "%s", (const char *)t);
	r->cond = sqlite3_column_int(st, 6);
}

int store_ply_records(struct store *store, int64_t game_id,
		      struct store_ply_record **rows_r, size_t *count_r,
		      const char **error_r)
{
	static const char sql[] =
		"SELECT ply, fields, signer, at, clock, sha256, cond FROM "
		"ply_records WHERE game_id = ?1 ORDER BY ply";
	sqlite3_stmt *st;

	store_ok(store);
	*rows_r = NULL;
	*count_r = 0;
	st = store_stmt_id(store, sql, game_id, error_r);
	if (st == NULL)
		return -1;
	return store_collect(store, st, sizeof(**rows_r), ply_record_read,
			     NULL, rows_r, count_r,
			     "loading a game's ply lines", error_r);
}
