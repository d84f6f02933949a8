/* store_account.c -- a player's own account: codes waiting for a change,
 * the rows an export reads, forgetting a deleted player;
 * see store_account.h. */
#include "store/store_private.h"

#include <stdlib.h>
#include <string.h>

static const char *const purpose_names[] = {
	[STORE_ACCOUNT_ADDRESS] = "address",
	[STORE_ACCOUNT_DELETE] = "delete",
};

static const char *purpose_name(enum store_account_purpose p)
{
	return (unsigned)p < sizeof(purpose_names) / sizeof(*purpose_names) ?
	       purpose_names[p] : NULL;
}

void store_account_code_clear(struct store_account_code *c)
{
	free(c->address);
	free(c->code);
	memset(c, 0, sizeof(*c));
}

int store_account_code_set(struct store *store, int64_t player_id,
			   enum store_account_purpose purpose,
			   const char *address, const char *code, int64_t now,
			   const char **error_r)
{
	static const char sql[] =
		"INSERT INTO account_codes (player_id, purpose, address, code, "
		"created, tries) VALUES (?1, ?2, ?3, ?4, ?5, 0) "
		"ON CONFLICT (player_id, purpose) DO UPDATE "
		"SET address = ?3, code = ?4, created = ?5, tries = 0";
	const char *word = purpose_name(purpose);

	store_ok(store);
	if (purpose != STORE_ACCOUNT_ADDRESS)
		address = NULL;
	if (word == NULL || code == NULL ||
	    (purpose == STORE_ACCOUNT_ADDRESS &&
	     (address == NULL || strchr(address, '@') == NULL ||
	      strlen(address) > STORE_ADDRESS_MAX)))
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "not an account change: %s %s",
				  word ? word : "(none)",
				  address ? address : "");
	return store_run_sql(store, store_run, sql, "recording an account code",
			     error_r, STORE_INT(player_id), STORE_TEXT(word),
			     STORE_TEXT(address), STORE_TEXT(code),
			     STORE_INT(now));
}

static void code_read(sqlite3_stmt *st, void *row)
{
	struct store_account_code *c = row;

	c->address = store_col_strdup(st, 0);
	c->code = store_col_strdup(st, 1);
	c->created = store_col_int64(st, 2);
	c->tries = (int)store_col_int64(st, 3);
}

int store_account_code_get(struct store *store, int64_t player_id,
			   enum store_account_purpose purpose,
			   struct store_account_code *code_r,
			   const char **error_r)
{
	static const char sql[] =
		"SELECT address, code, created, tries FROM account_codes "
		"WHERE player_id = ?1 AND purpose = ?2";
	int rc;

	store_ok(store);
	memset(code_r, 0, sizeof(*code_r));
	rc = store_query_row(store, store_stmt_bind(store, sql, error_r,
						    STORE_INT(player_id),
						    STORE_TEXT(purpose_name(purpose))),
			     code_read, code_r, "loading an account code",
			     error_r);
	if (rc == 1) {
		code_r->player_id = player_id;
		code_r->purpose = purpose;
	}
	return rc;
}

int store_account_code_miss(struct store *store, int64_t player_id,
			    enum store_account_purpose purpose, int *tries_r,
			    const char **error_r)
{
	static const char sql[] =
		"UPDATE account_codes SET tries = tries + 1 "
		"WHERE player_id = ?1 AND purpose = ?2 RETURNING tries";
	int64_t n = 0;
	int rc;

	store_ok(store);
	*tries_r = 0;
	rc = store_query_int64(store, store_stmt_bind(store, sql, error_r,
						      STORE_INT(player_id),
						      STORE_TEXT(purpose_name(purpose))),
			       &n, "counting a wrong code", error_r);
	if (rc < 0)
		return -1;
	*tries_r = (int)n;
	return 0;
}

int store_account_code_delete(struct store *store, int64_t player_id,
			      enum store_account_purpose purpose,
			      const char **error_r)
{
	static const char sql[] =
		"DELETE FROM account_codes WHERE player_id = ?1 AND purpose = ?2";

	return store_run_sql(store, store_run, sql, "dropping an account code",
			     error_r, STORE_INT(player_id),
			     STORE_TEXT(purpose_name(purpose)));
}

int store_player_move_address(struct store *store, int64_t player_id,
			      const char *address, int64_t now,
			      const char **error_r)
{
	static const char sql_owner[] =
		"SELECT player_id FROM player_addresses WHERE address = ?1";
	static const char sql_drop[] =
		"DELETE FROM player_addresses WHERE player_id = ?1 "
		"AND address <> ?2";
	int64_t owner = 0;
	int rc;

	store_ok(store);
	rc = store_query_int64(store, store_stmt_bind(store, sql_owner, error_r,
						      STORE_TEXT(address)),
			       &owner, "finding an address's owner", error_r);
	if (rc < 0)
		return -1;
	if (rc == 1 && owner != player_id)
		return 1;
	if (store_atomic_begin(store, error_r) < 0)
		return -1;
	rc = 0;
	if (owner != player_id)
		rc = store_player_add_address(store, player_id, address, now,
					      error_r);
	if (rc == 0)
		rc = store_run_sql(store, store_run, sql_drop,
				   "dropping the old addresses", error_r,
				   STORE_INT(player_id), STORE_TEXT(address));
	if (store_atomic_end(store, rc == 0, error_r) < 0)
		return -1;
	return rc;
}

/* The export's queries, one a section, ?1 the player's id (MOVES: the
 * game's).  Column names are the JSON keys: docs/export-schema.md lists
 * them and must change with them. */
static const struct {
	const char *name;
	const char *sql;
} sections[STORE_ACCOUNT_SECTIONS] = {
	[STORE_ACCOUNT_PLAYER] = { "player",
		"SELECT id, name, created, deleted FROM players WHERE id = ?1" },
	[STORE_ACCOUNT_KEYS] = { "keys",
		"SELECT fingerprint, created AS bound, revoked FROM player_keys "
		"WHERE player_id = ?1 ORDER BY created, fingerprint" },
	[STORE_ACCOUNT_ADDRESSES] = { "addresses",
		"SELECT address, created, failing, failing_since, "
		"failing_reason FROM player_addresses WHERE player_id = ?1 "
		"ORDER BY id" },
	[STORE_ACCOUNT_CLAIMS] = { "pending_changes",
		"SELECT 'address' AS kind, address, created FROM address_claims "
		"WHERE player_id = ?1 UNION ALL "
		"SELECT 'key', fingerprint, created FROM key_claims "
		"WHERE player_id = ?1 UNION ALL "
		"SELECT purpose, address, created FROM account_codes "
		"WHERE player_id = ?1" },
	[STORE_ACCOUNT_SETTINGS] = { "settings",
		"SELECT * FROM player_settings WHERE player_id = ?1" },
	[STORE_ACCOUNT_GAMES] = { "games",
		"SELECT g.id, g.variant, g.status, g.result, g.end_reason, "
		"g.created, g.updated, g.ply AS plies, g.clock_settings, "
		"w.name AS white, b.name AS black, c.name AS challenger, "
		"CASE WHEN g.white_id = ?1 THEN 'white' WHEN g.black_id = ?1 "
		"THEN 'black' ELSE NULL END AS colour, "
		"gc.ladder, gc.season_id AS league_season, gc.rated "
		"FROM games g LEFT JOIN players w ON w.id = g.white_id "
		"LEFT JOIN players b ON b.id = g.black_id "
		"LEFT JOIN players c ON c.id = g.challenger_id "
		"LEFT JOIN game_club gc ON gc.game_id = g.id "
		"WHERE g.white_id = ?1 OR g.black_id = ?1 OR "
		"g.challenger_id = ?1 ORDER BY g.id" },
	[STORE_ACCOUNT_MOVES] = { "moves",
		"SELECT m.ply, m.move, p.name AS player, m.played_at "
		"FROM moves m LEFT JOIN players p ON p.id = m.player_id "
		"WHERE m.game_id = ?1 ORDER BY m.ply" },
	[STORE_ACCOUNT_RATING] = { "rating",
		"SELECT r, rd, vol, games, last_played FROM ratings "
		"WHERE player_id = ?1" },
	[STORE_ACCOUNT_RATING_CHANGES] = { "rating_changes",
		"SELECT game_id, at, r_before, rd_before, r_after, rd_after "
		"FROM rating_changes WHERE player_id = ?1 ORDER BY at, game_id" },
	[STORE_ACCOUNT_LADDER_EVENTS] = { "ladder_events",
		"SELECT e.ladder, e.kind, e.at, p.name AS player, "
		"o.name AS other, e.game_id, e.outcome, e.position, e.actor "
		"FROM ladder_events e LEFT JOIN players p ON p.id = e.player_id "
		"LEFT JOIN players o ON o.id = e.other_id "
		"WHERE e.player_id = ?1 OR e.other_id = ?1 ORDER BY e.id" },
	[STORE_ACCOUNT_LEAGUE_MEMBERS] = { "league_seasons",
		"SELECT s.league, s.number AS season, s.starts, s.ends, "
		"m.division, m.group_no, m.seed FROM league_members m "
		"JOIN league_seasons s ON s.id = m.season_id "
		"WHERE m.player_id = ?1 ORDER BY s.starts, s.league" },
	[STORE_ACCOUNT_LEAGUE_SIGNUPS] = { "league_signups",
		"SELECT league, joined, at FROM league_signups "
		"WHERE player_id = ?1 ORDER BY at, league" },
	[STORE_ACCOUNT_NOTES] = { "notes",
		"SELECT game_id, ply, text, created FROM game_notes "
		"WHERE player_id = ?1 ORDER BY id" },
	[STORE_ACCOUNT_MESSAGES] = { "messages_sent",
		"SELECT game_id, ply, text, created FROM game_messages "
		"WHERE player_id = ?1 ORDER BY id" },
	[STORE_ACCOUNT_VACATIONS] = { "vacations",
		"SELECT from_at, to_at, days, created FROM vacations "
		"WHERE player_id = ?1 ORDER BY from_at" },
	[STORE_ACCOUNT_VACATION_BANK] = { "vacation_bank",
		"SELECT vacation_days, accrued_at FROM player_clock "
		"WHERE player_id = ?1" },
	[STORE_ACCOUNT_OBSERVING] = { "observing",
		"SELECT game_id, created FROM observers WHERE player_id = ?1 "
		"ORDER BY game_id" },
};

const char *store_account_section_name(enum store_account_section s)
{
	return (unsigned)s < STORE_ACCOUNT_SECTIONS ? sections[s].name : NULL;
}

/* The most columns a section's row has (player_settings grows). */
#define ACCOUNT_COLUMNS_MAX 32

int store_account_rows(struct store *store, enum store_account_section s,
		       int64_t id,
		       int (*row)(void *ctx,
				  const struct store_account_cell *cells,
				  size_t ncells),
		       void *ctx, const char **error_r)
{
	struct store_account_cell cells[ACCOUNT_COLUMNS_MAX];
	sqlite3_stmt *st;
	int rc, n, ret = -1;

	store_ok(store);
	if ((unsigned)s >= STORE_ACCOUNT_SECTIONS)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "no export section %d", (int)s);
	st = store_stmt_id(store, sections[s].sql, id, error_r);
	if (st == NULL)
		return -1;
	n = sqlite3_column_count(st);
	if (n > ACCOUNT_COLUMNS_MAX)
		n = ACCOUNT_COLUMNS_MAX;
	while ((rc = store_step(store, st)) == SQLITE_ROW) {
		for (int i = 0; i < n; i++) {
			struct store_account_cell *c = &cells[i];

			memset(c, 0, sizeof(*c));
			c->name = sqlite3_column_name(st, i);
			switch (sqlite3_column_type(st, i)) {
			case SQLITE_INTEGER:
				c->type = STORE_CELL_INT;
				c->i = sqlite3_column_int64(st, i);
				break;
			case SQLITE_FLOAT:
				c->type = STORE_CELL_REAL;
				c->r = sqlite3_column_double(st, i);
				break;
			case SQLITE_NULL:
				c->type = STORE_CELL_NULL;
				break;
			default:
				c->type = STORE_CELL_TEXT;
				c->text = (const char *)
					sqlite3_column_text(st, i);
				c->len = (size_t)sqlite3_column_bytes(st, i);
				if (c->text == NULL)
					c->type = STORE_CELL_NULL;
				break;
			}
		}
		if (row(ctx, cells, (size_t)n) < 0) {
			store_stmt_done(st);
			*error_r = "stopped";
			return -1;
		}
	}
	if (rc != SQLITE_DONE)
		store_fail_sqlite(store, error_r, rc, "reading an export");
	else
		ret = 0;
	store_stmt_done(st);
	return ret;
}

int store_player_forget(struct store *store, int64_t player_id,
			const char *new_name, int64_t now,
			const char **error_r)
{
	/* What goes: everything about the person that no game needs.  The
	 * keys stay for the games' signatures, revoked. */
	static const char *const drops[] = {
		"DELETE FROM player_addresses WHERE player_id = ?1",
		"DELETE FROM player_settings WHERE player_id = ?1",
		"DELETE FROM game_notes WHERE player_id = ?1",
		"DELETE FROM vacations WHERE player_id = ?1",
		"DELETE FROM player_clock WHERE player_id = ?1",
		"DELETE FROM observers WHERE player_id = ?1",
		"DELETE FROM digest_items WHERE player_id = ?1",
		"DELETE FROM summary_items WHERE player_id = ?1",
		"DELETE FROM league_signups WHERE player_id = ?1",
		"DELETE FROM address_claims WHERE player_id = ?1",
		"DELETE FROM key_claims WHERE player_id = ?1",
		"DELETE FROM account_codes WHERE player_id = ?1",
		"UPDATE player_keys SET revoked = ?2 WHERE player_id = ?1 "
		"AND revoked IS NULL",
	};
	static const char sql_name[] =
		"SELECT id FROM players WHERE name = ?1 AND id <> ?2";
	static const char sql_rename[] =
		"UPDATE players SET name = ?2, deleted = ?3 WHERE id = ?1";
	int64_t other = 0;
	int rc;
	bool ok = false;

	store_ok(store);
	rc = store_query_int64(store, store_stmt_bind(store, sql_name, error_r,
						      STORE_TEXT(new_name),
						      STORE_INT(player_id)),
			       &other, "checking a name", error_r);
	if (rc != 0)
		return rc;
	if (store_atomic_begin(store, error_r) < 0)
		return -1;
	for (size_t i = 0; i < sizeof(drops) / sizeof(*drops); i++) {
		static const char *what = "forgetting a player";

		if (strstr(drops[i], "?2") != NULL)
			rc = store_run(store, store_stmt_bind(store, drops[i],
							      error_r,
							      STORE_INT(player_id),
							      STORE_INT(now)),
				       what, error_r);
		else
			rc = store_run(store, store_stmt_id(store, drops[i],
							    player_id, error_r),
				       what, error_r);
		if (rc < 0)
			goto out;
	}
	if (store_run_found(store, store_stmt_bind(store, sql_rename, error_r,
						   STORE_INT(player_id),
						   STORE_TEXT(new_name),
						   STORE_INT(now)),
			    "renaming a player", "player", player_id,
			    error_r) < 0)
		goto out;
	ok = true;
out:
	if (store_atomic_end(store, ok, error_r) < 0)
		return -1;
	return ok ? 0 : -1;
}

int store_player_deleted(struct store *store, int64_t player_id,
			 const char **error_r)
{
	static const char sql[] =
		"SELECT 1 FROM players WHERE id = ?1 AND deleted IS NOT NULL";

	store_ok(store);
	return store_query_id_int64(store, sql, player_id, NULL,
				    "asking whether a player was deleted",
				    error_r);
}
