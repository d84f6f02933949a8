/* store_identity.c -- who a player is, beyond the first binding: address
 * claims waiting for their confirmation code, and the key lifecycle
 * (revoked by a certificate, replaced by the player); see store.h. */
#include "store/store_private.h"

#include <stdlib.h>
#include <string.h>

/* A query taking a fingerprint as ?1 and yielding one integer: the
 * fingerprint normalised into fpr (72 bytes), then store_query_int64().
 * 0 (and nothing run) when it is NULL or not a fingerprint. */
static int fpr_query_int64(struct store *store, const char *sql,
			   const char *fingerprint, char *fpr,
			   int64_t *value_r, const char *what,
			   const char **error_r)
{
	sqlite3_stmt *st;

	if (fingerprint == NULL ||
	    store_fingerprint_normalise(fingerprint, fpr, 72) < 0)
		return 0;
	st = store_stmt_bind(store, sql, error_r, STORE_TEXT(fpr));
	return store_query_int64(store, st, value_r, what, error_r);
}

/* A count(*) of rows for a fingerprint: 1 if any, 0 if none (or not a
 * fingerprint), -1 on failure. */
static int fpr_count_any(struct store *store, const char *sql,
			 const char *fingerprint, const char *what,
			 const char **error_r)
{
	char fpr[72];
	int64_t n = 0;

	if (fpr_query_int64(store, sql, fingerprint, fpr, &n, what,
			    error_r) < 0)
		return -1;
	return n > 0 ? 1 : 0;
}

int store_claim_set(struct store *store, int64_t player_id,
		    const char *address, const char *code, int64_t now,
		    const char **error_r)
{
	static const char sql[] =
		"INSERT INTO address_claims (player_id, address, code, created) "
		"VALUES (?1, ?2, ?3, ?4) ON CONFLICT (player_id) DO UPDATE "
		"SET address = ?2, code = ?3, created = ?4";
	sqlite3_stmt *st;

	store_ok(store);
	if (address == NULL || strchr(address, '@') == NULL ||
	    strlen(address) > STORE_ADDRESS_MAX || code == NULL)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "not a claimable address: %s",
				  address ? address : "(null)");
	st = store_stmt_bind(store, sql, error_r, STORE_INT(player_id),
			     STORE_TEXT(address), STORE_TEXT(code),
			     STORE_INT(now));
	return store_run(store, st, "recording an address claim", error_r);
}

static void claim_read(sqlite3_stmt *st, void *row)
{
	struct store_claim *c = row;

	c->address = store_col_strdup(st, 0);
	c->code = store_col_strdup(st, 1);
	c->created = store_col_int64(st, 2);
}

int store_claim_get(struct store *store, int64_t player_id,
		    struct store_claim *claim_r, const char **error_r)
{
	static const char sql[] =
		"SELECT address, code, created FROM address_claims "
		"WHERE player_id = ?1";
	sqlite3_stmt *st;
	int rc;

	store_ok(store);
	memset(claim_r, 0, sizeof(*claim_r));
	st = store_stmt_bind(store, sql, error_r, STORE_INT(player_id));
	rc = store_query_row(store, st, claim_read, claim_r,
			     "loading a claim", error_r);
	if (rc == 1)
		claim_r->player_id = player_id;
	return rc;
}

int store_claim_find(struct store *store, const char *address,
		     const char *code, int64_t *player_id_r,
		     const char **error_r)
{
	static const char sql[] =
		"SELECT player_id FROM address_claims WHERE address = ?1 "
		"AND code = ?2";
	sqlite3_stmt *st;

	store_ok(store);
	if (address == NULL || code == NULL)
		return 0;
	st = store_stmt_bind(store, sql, error_r, STORE_TEXT(address),
			     STORE_TEXT(code));
	return store_query_int64(store, st, player_id_r, "finding a claim",
				 error_r);
}

void store_claim_clear(struct store_claim *claim)
{
	free(claim->address);
	free(claim->code);
	memset(claim, 0, sizeof(*claim));
}

int store_claim_delete(struct store *store, int64_t player_id,
		       const char **error_r)
{
	static const char sql[] =
		"DELETE FROM address_claims WHERE player_id = ?1";

	return store_run_sql(store, store_run, sql, "dropping a claim",
			     error_r, STORE_INT(player_id));
}

int store_key_revoke(struct store *store, const char *fingerprint,
		     int64_t now, int64_t *player_id_r, const char **error_r)
{
	static const char sql_find[] =
		"SELECT player_id FROM player_keys WHERE fingerprint = ?1 "
		"AND revoked IS NULL";
	static const char sql[] =
		"UPDATE player_keys SET revoked = ?2 WHERE fingerprint = ?1 "
		"AND revoked IS NULL";
	char fpr[72];
	sqlite3_stmt *st;
	int64_t pid = 0;
	int r;

	store_ok(store);
	r = fpr_query_int64(store, sql_find, fingerprint, fpr, &pid,
			    "finding a key", error_r);
	if (r <= 0)
		return r;
	st = store_stmt_bind(store, sql, error_r, STORE_TEXT(fpr),
			     STORE_INT(now));
	if (store_run(store, st, "revoking a key", error_r) < 0)
		return -1;
	if (player_id_r != NULL)
		*player_id_r = pid;
	return 1;
}

int store_key_replace(struct store *store, int64_t player_id,
		      const char *old_fpr, const char *new_fpr, int64_t now,
		      const char **error_r)
{
	int ret;

	store_ok(store);
	if (store_atomic_begin(store, error_r) < 0)
		return -1;
	ret = store_player_add_key(store, player_id, new_fpr, now, error_r);
	if (ret == 0 && store_key_revoke(store, old_fpr, now, NULL,
					 error_r) < 0)
		ret = -1;
	if (store_atomic_end(store, ret == 0, error_r) < 0 && ret == 0)
		ret = -1;
	return ret;
}

/* ---- key claims: a new key binds after a mail signed by it ---------- */

void store_key_claim_clear(struct store_key_claim *claim)
{
	free(claim->fingerprint);
	free(claim->old_fingerprint);
	free(claim->code);
	memset(claim, 0, sizeof(*claim));
}

int store_key_claim_set(struct store *store, int64_t player_id,
			const char *fingerprint, const char *old_fingerprint,
			const char *code, int64_t now, const char **error_r)
{
	static const char sql[] =
		"INSERT INTO key_claims (player_id, fingerprint, "
		"old_fingerprint, code, created) VALUES (?1, ?2, ?3, ?4, ?5) "
		"ON CONFLICT (player_id) DO UPDATE SET fingerprint = ?2, "
		"old_fingerprint = ?3, code = ?4, created = ?5";
	char fpr[72], old[72];
	sqlite3_stmt *st;

	store_ok(store);
	if (fingerprint == NULL || old_fingerprint == NULL || code == NULL ||
	    store_fingerprint_normalise(fingerprint, fpr, sizeof(fpr)) < 0 ||
	    store_fingerprint_normalise(old_fingerprint, old, sizeof(old)) < 0)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "not a claimable key: %s",
				  fingerprint ? fingerprint : "(null)");
	st = store_stmt_bind(store, sql, error_r, STORE_INT(player_id),
			     STORE_TEXT(fpr), STORE_TEXT(old), STORE_TEXT(code),
			     STORE_INT(now));
	return store_run(store, st, "recording a key claim", error_r);
}

static void key_claim_read(sqlite3_stmt *st, void *row)
{
	struct store_key_claim *c = row;

	c->player_id = store_col_int64(st, 0);
	c->fingerprint = store_col_strdup(st, 1);
	c->old_fingerprint = store_col_strdup(st, 2);
	c->code = store_col_strdup(st, 3);
	c->created = store_col_int64(st, 4);
}

int store_key_claim_find(struct store *store, const char *fingerprint,
			 const char *code, struct store_key_claim *claim_r,
			 const char **error_r)
{
	static const char sql[] =
		"SELECT player_id, fingerprint, old_fingerprint, code, created "
		"FROM key_claims WHERE fingerprint = ?1 AND code = ?2 "
		"ORDER BY created DESC LIMIT 1";
	char fpr[72];
	sqlite3_stmt *st;

	store_ok(store);
	memset(claim_r, 0, sizeof(*claim_r));
	if (fingerprint == NULL || code == NULL ||
	    store_fingerprint_normalise(fingerprint, fpr, sizeof(fpr)) < 0)
		return 0;
	st = store_stmt_bind(store, sql, error_r, STORE_TEXT(fpr),
			     STORE_TEXT(code));
	return store_query_row(store, st, key_claim_read, claim_r,
			       "finding a key claim", error_r);
}

int store_key_claimed(struct store *store, const char *fingerprint,
		      const char **error_r)
{
	static const char sql[] =
		"SELECT count(*) FROM key_claims WHERE fingerprint = ?1";

	store_ok(store);
	return fpr_count_any(store, sql, fingerprint, "counting key claims",
			     error_r);
}

int store_key_claim_delete(struct store *store, int64_t player_id,
			   const char *fingerprint, const char *old,
			   const char **error_r)
{
	static const char sql_player[] =
		"DELETE FROM key_claims WHERE player_id = ?1";
	static const char sql_fpr[] =
		"DELETE FROM key_claims WHERE fingerprint = ?1";
	static const char sql_old[] =
		"DELETE FROM key_claims WHERE old_fingerprint = ?1";
	const char *key = old != NULL ? old : fingerprint;
	char fpr[72];
	sqlite3_stmt *st;

	store_ok(store);
	if (player_id == 0 && (key == NULL ||
	    store_fingerprint_normalise(key, fpr, sizeof(fpr)) < 0))
		return 0;
	st = store_stmt(store, player_id != 0 ? sql_player :
			old != NULL ? sql_old : sql_fpr, error_r);
	if (st == NULL)
		return -1;
	if (player_id != 0)
		sqlite3_bind_int64(st, 1, player_id);
	else
		sqlite3_bind_text(st, 1, fpr, -1, SQLITE_TRANSIENT);
	return store_run(store, st, "dropping key claims", error_r);
}

int store_key_known(struct store *store, const char *fingerprint,
		    const char **error_r)
{
	static const char sql[] =
		"SELECT count(*) FROM player_keys WHERE fingerprint = ?1";

	store_ok(store);
	return fpr_count_any(store, sql, fingerprint, "looking up a key",
			     error_r);
}
