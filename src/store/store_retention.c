/* store_retention.c -- what [retention] changes in the store: a mail's
 * raw bytes replaced by their reduced form or dropped (the row, its
 * outcome, sender and sha256 stay), a sent mail's html and pictures
 * dropped (its text stays), and the batches the retention pass works
 * through; see store_prune.h.  The rules are the service's
 * (server/retention.c); this file only finds and writes. */
#include "store/store_prune.h"

#include <stdlib.h>
#include <string.h>

#include "store/store_private.h"

/* A game that ended, as store_game_delete() counts them. */
#define RETENTION_ENDED "('finished', 'cancelled', 'declined', 'withdrawn')"

int store_inbound_reduce(struct store *store, int64_t inbound_id,
			 const void *raw, size_t len, int64_t now,
			 const char **error_r)
{
	/* A duplicate holds no bytes, a truncated mail not all of them:
	 * neither has a form to reduce to. */
	static const char sql[] =
		"UPDATE inbound SET raw = ?2, reduced = 'signed', "
		"reduced_at = ?3 WHERE id = ?1 AND duplicate_of IS NULL "
		"AND raw_truncated = 0 AND coalesce(reduced, '') <> 'dropped'";
	sqlite3_stmt *st;
	int r;

	store_ok(store);
	if ((st = store_stmt(store, sql, error_r)) == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, inbound_id);
	if (len == 0 || raw == NULL)
		sqlite3_bind_zeroblob(st, 2, 0);
	else
		sqlite3_bind_blob64(st, 2, raw, len, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, now);
	r = store_run_changed(store, st, "reducing a mail", error_r);
	return r < 0 ? -1 : r == 1 ? 0 : 1;
}

int store_inbound_drop_raw(struct store *store, int64_t inbound_id,
			   int64_t now, const char **error_r)
{
	static const char sql[] =
		"UPDATE inbound SET raw = zeroblob(0), reduced = 'dropped', "
		"reduced_at = ?2 WHERE id = ?1 "
		"AND coalesce(reduced, '') <> 'dropped'";
	int r = store_run_sql(store, store_run_changed, sql,
			      "dropping a mail's bytes", error_r,
			      STORE_INT(inbound_id), STORE_INT(now));

	return r < 0 ? -1 : r == 1 ? 0 : 1;
}

int store_inbound_kept(struct store *store, int64_t inbound_id,
		       enum store_raw_kept *kept_r, const char **error_r)
{
	static const char sql[] =
		"SELECT CASE reduced WHEN 'signed' THEN 1 "
		"WHEN 'dropped' THEN 2 ELSE 0 END FROM inbound WHERE id = ?1";
	int64_t v = 0;
	int r = store_query_id_int64(store, sql, inbound_id, &v,
				     "reading what is kept of a mail",
				     error_r);

	*kept_r = (enum store_raw_kept)v;
	return r;
}

int store_inbound_in_game(struct store *store, int64_t inbound_id,
			  const char **error_r)
{
	/* What store_game_mails() lists, and a game's notes: what an
	 * archive of a game may need. */
	static const char sql[] =
		"SELECT EXISTS (SELECT 1 FROM moves WHERE inbound_id = ?1) "
		"OR EXISTS (SELECT 1 FROM game_messages WHERE inbound_id = ?1) "
		"OR EXISTS (SELECT 1 FROM game_notes WHERE inbound_id = ?1) "
		"OR EXISTS (SELECT 1 FROM clock_events WHERE inbound_id = ?1) "
		"OR EXISTS (SELECT 1 FROM ladder_events WHERE inbound_id = ?1 "
		"AND game_id IS NOT NULL) "
		"OR EXISTS (SELECT 1 FROM conditional_trees "
		"WHERE inbound_id = ?1) "
		"OR EXISTS (SELECT 1 FROM outbox WHERE inbound_id = ?1 "
		"AND game_id IS NOT NULL)";
	int64_t v = 0;

	if (store_query_id_int64(store, sql, inbound_id, &v,
				 "checking a mail's use", error_r) < 0)
		return -1;
	return v != 0;
}

int store_inbound_of_player(struct store *store, int64_t player_id,
			    int64_t after_id, size_t limit, int64_t **ids_r,
			    size_t *count_r, const char **error_r)
{
	/* By the player the mail was bound to, or by a key or address of
	 * theirs (a refused mail names nobody): call it before those go. */
	static const char sql[] =
		"SELECT id FROM inbound WHERE id > ?2 AND reduced IS NULL "
		"AND duplicate_of IS NULL AND (player_id = ?1 "
		"OR sender_fingerprint IN (SELECT fingerprint FROM player_keys "
		"WHERE player_id = ?1) "
		"OR EXISTS (SELECT 1 FROM player_addresses a "
		"WHERE a.player_id = ?1 AND a.address = inbound.sender_address)) "
		"ORDER BY id LIMIT ?3";

	return store_ids(store, ids_r, count_r, "listing a player's mails",
			 error_r, sql, STORE_INT(player_id), STORE_INT(after_id),
			 STORE_LIMIT(limit));
}

int store_retention_ended_games(struct store *store, int64_t before,
				int64_t after_id, size_t limit,
				int64_t **ids_r, size_t *count_r,
				const char **error_r)
{
	/* Through the moves and the outbox of each game (both indexed by
	 * game): a game with no mail left as received is passed over. */
	static const char sql[] =
		"SELECT g.id FROM games g WHERE g.status IN " RETENTION_ENDED
		" AND g.updated < ?1 AND g.id > ?2 AND ("
		"EXISTS (SELECT 1 FROM moves m JOIN inbound i "
		"ON i.id = m.inbound_id WHERE m.game_id = g.id "
		"AND i.reduced IS NULL AND i.duplicate_of IS NULL "
		"AND i.raw_truncated = 0) "
		"OR EXISTS (SELECT 1 FROM outbox o JOIN inbound i "
		"ON i.id = o.inbound_id WHERE o.game_id = g.id "
		"AND i.reduced IS NULL AND i.duplicate_of IS NULL "
		"AND i.raw_truncated = 0)) ORDER BY g.id LIMIT ?3";

	return store_ids(store, ids_r, count_r, "listing ended games",
			 error_r, sql, STORE_INT(before), STORE_INT(after_id),
			 STORE_LIMIT(limit));
}

struct retention_row {
	int64_t id;
	int64_t bytes;
};

static void retention_row_read(sqlite3_stmt *st, void *elem)
{
	struct retention_row *r = elem;

	r->id = store_col_int64(st, 0);
	r->bytes = store_col_int64(st, 1);
}

/* The rows sql (SELECT id, bytes ... ?1 before, ?2 limit) finds, each
 * given to each(): 0 with their count and bytes, -1. */
static int retention_batch(struct store *store, const char *sql,
			   const char *what, int64_t before, size_t limit,
			   int (*each)(struct store *store, int64_t id,
				       int64_t now, const char **error_r),
			   int64_t now, int64_t *rows_r, int64_t *bytes_r,
			   const char **error_r)
{
	struct retention_row *rows = NULL;
	size_t n = 0;
	int ret = -1;

	*rows_r = 0;
	*bytes_r = 0;
	if (store_rows(store, sql, &rows, &n, retention_row_read, NULL, what,
		       error_r, STORE_INT(before), STORE_LIMIT(limit)) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (each(store, rows[i].id, now, error_r) < 0)
			goto out;
		*bytes_r += rows[i].bytes;
	}
	*rows_r = (int64_t)n;
	ret = 0;
out:
	free(rows);
	return ret;
}

int store_retention_refused(struct store *store, int64_t before,
			    size_t limit, int64_t now, int64_t *rows_r,
			    int64_t *bytes_r, const char **error_r)
{
	/* What ran no command: refused (unsigned where signatures are
	 * required, a bad or old signature...), ignored (a bounce, an
	 * auto-reply, a flood) and exact duplicates (no bytes of their
	 * own: marked, so they leave the index). */
	static const char sql[] =
		"SELECT id, length(raw) FROM inbound WHERE reduced IS NULL "
		"AND received < ?1 AND (outcome LIKE 'refused:%' "
		"OR outcome LIKE 'ignored:%' OR duplicate_of IS NOT NULL) "
		"ORDER BY received LIMIT ?2";

	return retention_batch(store, sql, "listing refused mails", before,
			       limit, store_inbound_drop_raw, now, rows_r,
			       bytes_r, error_r);
}

/* Drop the html and pictures of sent mail id. */
static int outbox_strip(struct store *store, int64_t id, int64_t now,
			const char **error_r)
{
	static const char sql_strip[] =
		"UPDATE outbox SET html = NULL, image = NULL, "
		"image_type = NULL WHERE id = ?1";
	static const char sql_parts[] =
		"DELETE FROM outbox_parts WHERE outbox_id = ?1";

	(void)now;
	if (store_run_sql(store, store_run, sql_strip,
			  "dropping a sent mail's html", error_r,
			  STORE_INT(id)) < 0)
		return -1;
	return store_run_sql(store, store_run, sql_parts,
			     "dropping a sent mail's pictures", error_r,
			     STORE_INT(id));
}

int store_retention_outbox(struct store *store, int64_t before,
			   size_t limit, int64_t *rows_r, int64_t *bytes_r,
			   const char **error_r)
{
	static const char sql[] =
		"SELECT id, length(html) + coalesce(length(image), 0) + "
		"coalesce((SELECT sum(length(data)) FROM outbox_parts p "
		"WHERE p.outbox_id = outbox.id), 0) FROM outbox "
		"WHERE sent_at IS NOT NULL AND html IS NOT NULL "
		"AND sent_at < ?1 ORDER BY sent_at LIMIT ?2";

	return retention_batch(store, sql, "listing sent mails", before,
			       limit, outbox_strip, 0, rows_r, bytes_r,
			       error_r);
}

int store_bytes_used(struct store *store, int64_t *bytes_r,
		     const char **error_r)
{
	/* Pages in use: what the file holds less its free pages (the file
	 * shrinks only by store_vacuum). */
	static const char sql[] =
		"SELECT (p.page_count - f.freelist_count) * s.page_size "
		"FROM pragma_page_count() p, pragma_freelist_count() f, "
		"pragma_page_size() s";
	sqlite3_stmt *st;

	store_ok(store);
	*bytes_r = 0;
	if ((st = store_stmt(store, sql, error_r)) == NULL)
		return -1;
	return store_query_int64(store, st, bytes_r, "measuring the database",
				 error_r) < 0 ? -1 : 0;
}

int store_vacuum(struct store *store, const char **error_r)
{
	int rc;

	store_ok(store);
	if (store_in_transaction(store))
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "VACUUM inside a transaction");
	rc = store_exec(store, "VACUUM");
	return rc == SQLITE_OK ? 0 :
	       store_fail_sqlite(store, error_r, rc, "VACUUM");
}
