/* store_summary.c -- the daily summary's schedule (the summary_* columns
 * of player_settings) and the notices noted for it (summary_items), both
 * of sql/014; see store_summary.h. */
#include "store/store_private.h"

#include <stdlib.h>

static void summary_due_read(sqlite3_stmt *st, void *elem)
{
	struct store_summary_due *d = elem;

	d->player_id = store_col_int64(st, 0);
	d->at = sqlite3_column_int(st, 1);
	d->due = store_col_int64(st, 2);
	d->sent = store_col_int64(st, 3);
	d->chosen = store_col_int64(st, 4);
}

int store_summary_due(struct store *store, int64_t now, size_t limit,
		      struct store_summary_due **rows_r, size_t *count_r,
		      const char **error_r)
{
	/* A player turned off with notes left: an `at` of -1 tells the
	 * service to send them once. */
	static const char sql[] =
		"SELECT player_id, summary_at, summary_due, summary_sent, "
		"updated FROM player_settings "
		"WHERE summary_at >= 0 AND summary_due <= ?1 "
		"UNION SELECT DISTINCT i.player_id, -1, 0, 0, 0 "
		"FROM summary_items i LEFT JOIN player_settings p "
		"ON p.player_id = i.player_id "
		"WHERE coalesce(p.summary_at, -1) < 0 "
		"ORDER BY 1 LIMIT ?2";

	return store_rows(store, sql, rows_r, count_r, summary_due_read,
			  NULL, "listing summaries due", error_r,
			  STORE_INT(now), STORE_LIMIT(limit));
}

int store_summary_next(struct store *store, int64_t *at_r,
		       const char **error_r)
{
	static const char sql[] =
		"SELECT d FROM (SELECT summary_due AS d FROM player_settings "
		"WHERE summary_at >= 0 UNION ALL SELECT 0 FROM summary_items i "
		"LEFT JOIN player_settings p ON p.player_id = i.player_id "
		"WHERE coalesce(p.summary_at, -1) < 0) ORDER BY d LIMIT 1";

	store_ok(store);
	return store_query_int64(store, store_stmt(store, sql, error_r), at_r,
				 "finding the next summary", error_r);
}

int store_summary_schedule(struct store *store, int64_t player_id,
			   int64_t due, int64_t sent, const char **error_r)
{
	static const char sql[] =
		"UPDATE player_settings SET summary_due = ?2, "
		"summary_sent = ?3 WHERE player_id = ?1";

	return store_run_sql(store, store_run, sql,
			     "scheduling a summary", error_r,
			     STORE_INT(player_id), STORE_INT(due),
			     STORE_INT(sent));
}

void store_summary_item_clear(void *item)
{
	struct store_summary_item *it = item;

	free(it->kind);
	free(it->text);
	it->kind = it->text = NULL;
}

int store_summary_add(struct store *store, int64_t player_id,
		      int64_t game_id, const char *kind, const char *text,
		      int64_t now, const char **error_r)
{
	static const char sql[] =
		"INSERT INTO summary_items (player_id, game_id, kind, text, "
		"created) VALUES (?1, ?2, ?3, ?4, ?5)";

	return store_run_sql(store, store_run, sql,
			     "noting a notice for a summary", error_r,
			     STORE_INT(player_id), STORE_ID(game_id),
			     STORE_TEXT(kind),
			     STORE_TEXT(text != NULL ? text : ""),
			     STORE_INT(now));
}

static void summary_item_read(sqlite3_stmt *st, void *elem)
{
	struct store_summary_item *it = elem;

	it->id = store_col_int64(st, 0);
	it->game_id = store_col_int64(st, 1);
	it->kind = store_col_strdup(st, 2);
	it->text = store_col_strdup(st, 3);
	it->created = store_col_int64(st, 4);
}

int store_summary_items(struct store *store, int64_t player_id,
			struct store_summary_item **items_r,
			size_t *count_r, const char **error_r)
{
	static const char sql[] =
		"SELECT id, game_id, kind, text, created FROM summary_items "
		"WHERE player_id = ?1 ORDER BY id";

	return store_rows(store, sql, items_r, count_r, summary_item_read,
			  store_summary_item_clear, "loading a summary",
			  error_r, STORE_INT(player_id));
}

int store_summary_clear(struct store *store, int64_t player_id,
			const char **error_r)
{
	static const char sql[] =
		"DELETE FROM summary_items WHERE player_id = ?1";

	return store_run_sql(store, store_run, sql, "clearing a summary",
			     error_r, STORE_INT(player_id));
}
