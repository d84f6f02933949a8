/* store_prune.c -- what an archive of a game needs from the store: the
 * inbound mails a game's history refers to, and deleting an ended game
 * with the mails only it refers to; see store_prune.h. */
#include "store/store_prune.h"

#include <stdlib.h>
#include <string.h>

#include "store/store_private.h"

void store_game_mail_clear(void *row)
{
	free(((struct store_game_mail *)row)->kind);
}

static void game_mail_read(sqlite3_stmt *st, void *elem)
{
	struct store_game_mail *m = elem;

	m->inbound_id = store_col_int64(st, 0);
	m->ref = (enum store_mail_ref)sqlite3_column_int(st, 1);
	m->ply = sqlite3_column_int(st, 2);
	m->kind = store_col_strdup(st, 3);
	m->at = store_col_int64(st, 4);
}

int store_game_mails(struct store *store, int64_t game_id,
		     struct store_game_mail **rows_r, size_t *count_r,
		     const char **error_r)
{
	/* The numbers are enum store_mail_ref's. */
	static const char sql[] =
		"SELECT inbound_id, 0 AS r, ply, NULL, played_at FROM moves "
		"WHERE game_id = ?1 AND inbound_id IS NOT NULL "
		"UNION ALL SELECT inbound_id, 1, ply, NULL, created "
		"FROM game_messages WHERE game_id = ?1 "
		"AND inbound_id IS NOT NULL "
		"UNION ALL SELECT inbound_id, 2, 0, kind, at FROM clock_events "
		"WHERE game_id = ?1 AND inbound_id IS NOT NULL "
		"UNION ALL SELECT inbound_id, 3, 0, kind, at FROM ladder_events "
		"WHERE game_id = ?1 AND inbound_id IS NOT NULL "
		"UNION ALL SELECT inbound_id, 4, coalesce(ply, 0), kind, created "
		"FROM outbox WHERE game_id = ?1 AND inbound_id IS NOT NULL "
		"ORDER BY 1, 2, 5";

	return store_rows(store, sql, rows_r, count_r,
			  game_mail_read, store_game_mail_clear,
			  "listing a game's mails", error_r,
			  STORE_INT(game_id));
}

/* Why game_id may not be deleted: NULL if it may; a reason if not; -1
 * into *ret_r on failure. */
static const char *delete_refusal(struct store *store, int64_t game_id,
				  int *ret_r, const char **error_r)
{
	static const char sql_status[] =
		"SELECT CASE WHEN status IN ('finished', 'cancelled', "
		"'declined', 'withdrawn') THEN 1 ELSE 0 END "
		"FROM games WHERE id = ?1";
	static const char sql_club[] =
		"SELECT (SELECT count(*) FROM game_club WHERE game_id = ?1) + "
		"(SELECT count(*) FROM ladder_events WHERE game_id = ?1)";
	static const char sql_queued[] =
		"SELECT count(*) FROM outbox WHERE game_id = ?1 "
		"AND sent_at IS NULL AND failed = 0";
	sqlite3_stmt *st;
	int64_t v = 0;
	int r;

	*ret_r = 0;
	if ((st = store_stmt(store, sql_status, error_r)) == NULL)
		goto fail;
	sqlite3_bind_int64(st, 1, game_id);
	r = store_query_int64(store, st, &v, "checking a game", error_r);
	if (r < 0)
		goto fail;
	if (r == 0)
		return "no such game";
	if (v == 0)
		return "the game has not ended";
	if ((st = store_stmt(store, sql_club, error_r)) == NULL)
		goto fail;
	sqlite3_bind_int64(st, 1, game_id);
	if (store_query_int64(store, st, &v, "checking a game", error_r) < 0)
		goto fail;
	if (v > 0)
		return "a game of a ladder or league (its standings and "
		       "ratings are built from it)";
	if ((st = store_stmt(store, sql_queued, error_r)) == NULL)
		goto fail;
	sqlite3_bind_int64(st, 1, game_id);
	if (store_query_int64(store, st, &v, "checking a game", error_r) < 0)
		goto fail;
	if (v > 0)
		return "a mail about it is still waiting in the outbox";
	return NULL;
fail:
	*ret_r = -1;
	return NULL;
}

/* The distinct inbound ids game_id's history refers to; caller frees. */
static int game_inbound_ids(struct store *store, int64_t game_id,
			    int64_t **ids_r, size_t *count_r,
			    const char **error_r)
{
	struct store_game_mail *rows = NULL;
	size_t n = 0, k = 0;

	*ids_r = NULL;
	*count_r = 0;
	if (store_game_mails(store, game_id, &rows, &n, error_r) < 0)
		return -1;
	if (n > 0) {
		*ids_r = xzalloc(n * sizeof(**ids_r));
		/* The rows come by inbound id. */
		for (size_t i = 0; i < n; i++)
			if (k == 0 || (*ids_r)[k - 1] != rows[i].inbound_id)
				(*ids_r)[k++] = rows[i].inbound_id;
	}
	*count_r = k;
	store_rows_free(&rows, n, sizeof(*rows), store_game_mail_clear);
	return 0;
}

/* Delete inbound mail id unless something still refers to it: 1 deleted,
 * 0 kept, -1 on failure. */
static int delete_mail_if_unused(struct store *store, int64_t id,
				 const char **error_r)
{
	static const char sql_used[] =
		"SELECT EXISTS (SELECT 1 FROM moves WHERE inbound_id = ?1) "
		"OR EXISTS (SELECT 1 FROM game_messages WHERE inbound_id = ?1) "
		"OR EXISTS (SELECT 1 FROM game_notes WHERE inbound_id = ?1) "
		"OR EXISTS (SELECT 1 FROM clock_events WHERE inbound_id = ?1) "
		"OR EXISTS (SELECT 1 FROM ladder_events WHERE inbound_id = ?1) "
		"OR EXISTS (SELECT 1 FROM outbox WHERE inbound_id = ?1) "
		"OR EXISTS (SELECT 1 FROM vacations WHERE inbound_id = ?1)";
	/* The signature stays: a signed text counts once, ever. */
	static const char sql_unname[] =
		"UPDATE signatures SET inbound_id = NULL WHERE inbound_id = ?1";
	static const char sql_dups[] =
		"DELETE FROM inbound WHERE duplicate_of = ?1";
	static const char sql_delete[] = "DELETE FROM inbound WHERE id = ?1";
	static const char *const steps[] = { sql_unname, sql_dups, sql_delete };
	sqlite3_stmt *st;
	int64_t used = 0;

	if ((st = store_stmt(store, sql_used, error_r)) == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	if (store_query_int64(store, st, &used, "checking a mail's use",
			      error_r) < 0)
		return -1;
	if (used != 0)
		return 0;
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		if ((st = store_stmt(store, steps[i], error_r)) == NULL)
			return -1;
		sqlite3_bind_int64(st, 1, id);
		if (store_run(store, st, "deleting a mail", error_r) < 0)
			return -1;
	}
	return 1;
}

int store_game_delete(struct store *store, int64_t game_id, int64_t *mails_r,
		      const char **why_r, const char **error_r)
{
	static const char sql_outbox[] =
		"DELETE FROM outbox WHERE game_id = ?1";
	/* Moves, notes, clock events, observers, digest items and rating
	 * changes go with it (ON DELETE CASCADE). */
	static const char sql_game[] = "DELETE FROM games WHERE id = ?1";
	int64_t *ids = NULL, deleted = 0;
	size_t n = 0;
	const char *why;
	int ret = -1, r;

	store_ok(store);
	if (mails_r != NULL)
		*mails_r = 0;
	if (why_r != NULL)
		*why_r = NULL;
	if (store_atomic_begin(store, error_r) < 0)
		return -1;
	why = delete_refusal(store, game_id, &r, error_r);
	if (r < 0)
		goto out;
	if (why != NULL) {
		if (why_r != NULL)
			*why_r = why;
		ret = 1;
		goto out;
	}
	if (game_inbound_ids(store, game_id, &ids, &n, error_r) < 0)
		goto out;
	for (size_t i = 0; i < 2; i++) {
		sqlite3_stmt *st = store_stmt(store, i == 0 ? sql_outbox :
					      sql_game, error_r);
		if (st == NULL)
			goto out;
		sqlite3_bind_int64(st, 1, game_id);
		if (store_run(store, st, "deleting a game", error_r) < 0)
			goto out;
	}
	for (size_t i = 0; i < n; i++) {
		if ((r = delete_mail_if_unused(store, ids[i], error_r)) < 0)
			goto out;
		deleted += r;
	}
	if (mails_r != NULL)
		*mails_r = deleted;
	ret = 0;
out:
	free(ids);
	/* A refusal changed nothing: keep nothing of the checks either. */
	if (store_atomic_end(store, ret == 0, error_r) < 0 && ret == 0)
		ret = -1;
	return ret;
}
