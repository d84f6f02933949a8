/* store_player.c -- players, their mail addresses and OpenPGP keys; see
 * store.h. */
#include "store/store_private.h"

#include <stdlib.h>
#include <string.h>

static void address_clear(void *elem)
{
	struct store_address *a = elem;

	free(a->address);
	free(a->failing_reason);
}

void store_player_clear(void *player)
{
	struct store_player *p = player;

	free(p->name);
	store_rows_free(&p->addresses, p->n_addresses, sizeof(*p->addresses),
			address_clear);
	store_rows_free(&p->fingerprints, p->n_fingerprints,
			sizeof(*p->fingerprints), store_string_clear);
}

static void player_read(sqlite3_stmt *st, void *elem)
{
	struct store_player *p = elem;

	p->id = store_col_int64(st, 0);
	p->name = store_col_strdup(st, 1);
	p->created = store_col_int64(st, 2);
}

void store_player_free(struct store_player **player)
{
	store_rows_free(player, 1, sizeof(**player), store_player_clear);
}

static const char sql_key_insert[] =
	"INSERT INTO player_keys (fingerprint, player_id, created) "
	"VALUES (?1, ?2, ?3)";
static const char sql_address_insert[] =
	"INSERT INTO player_addresses (player_id, address, created) "
	"VALUES (?1, ?2, ?3)";

/* Insert one row with (a, player_id, now): 0, 1 on a uniqueness clash,
 * -1 on failure. */
static int insert_bound(struct store *s, const char *sql, const char *text,
			int64_t player_id, int64_t now, const char *what,
			const char **error_r)
{
	sqlite3_stmt *st = store_stmt(s, sql, error_r);

	if (st == NULL)
		return -1;
	if (sql == sql_key_insert) {
		sqlite3_bind_text(st, 1, text, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(st, 2, player_id);
	} else {
		sqlite3_bind_int64(st, 1, player_id);
		sqlite3_bind_text(st, 2, text, -1, SQLITE_TRANSIENT);
	}
	sqlite3_bind_int64(st, 3, now);
	return store_run_insert(s, st, what, error_r);
}

static int check_address(struct store *s, const char *address,
			 const char **error_r)
{
	if (address == NULL || strchr(address, '@') == NULL)
		return store_fail(s, error_r, STORE_ERROR_USAGE,
				  "not a mail address: %s",
				  address ? address : "(null)");
	return 0;
}

int store_player_add(struct store *store, const char *name,
		     const char *address, const char *fingerprint,
		     int64_t now, int64_t *id_r, const char **error_r)
{
	static const char sql[] =
		"INSERT INTO players (name, created) VALUES (?1, ?2)";
	char fpr[72];
	sqlite3_stmt *st;
	int64_t id = 0;
	int rc, ret = -1;

	store_ok(store);
	if (fingerprint != NULL &&
	    store_fingerprint_normalise(fingerprint, fpr, sizeof(fpr)) < 0)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "not an OpenPGP fingerprint: %s",
				  fingerprint);
	if (address != NULL && check_address(store, address, error_r) < 0)
		return -1;
	if (store_atomic_begin(store, error_r) < 0)
		return -1;
	st = store_stmt(store, sql, error_r);
	if (st == NULL)
		goto out;
	store_bind_text(st, 1, name);
	sqlite3_bind_int64(st, 2, now);
	rc = store_step(store, st);
	store_stmt_done(st);
	if (store_rc_is_unique(store, rc)) {
		ret = 1;
		goto out;
	} else if (rc != SQLITE_DONE) {
		store_fail_sqlite(store, error_r, rc, "adding a player");
		goto out;
	}
	id = sqlite3_last_insert_rowid(store->db);
	if (address != NULL) {
		ret = insert_bound(store, sql_address_insert, address, id, now,
				   "adding an address", error_r);
		if (ret != 0)
			goto out;
		ret = -1;
	}
	if (fingerprint != NULL) {
		ret = insert_bound(store, sql_key_insert, fpr, id, now,
				   "binding a key", error_r);
		if (ret != 0)
			goto out;
	}
	ret = 0;
out:
	if (store_atomic_end(store, ret == 0, error_r) < 0 && ret == 0)
		ret = -1;
	if (ret == 0 && id_r != NULL)
		*id_r = id;
	return ret;
}

/* Is there a player with this id?  1, 0, -1. */
static int player_exists(struct store *s, int64_t id, const char **error_r)
{
	static const char sql[] = "SELECT 1 FROM players WHERE id = ?1";
	sqlite3_stmt *st = store_stmt(s, sql, error_r);
	int rc;

	if (st == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	rc = store_step(s, st);
	store_stmt_done(st);
	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	return store_fail_sqlite(s, error_r, rc, "looking up a player");
}

static int add_bound(struct store *s, const char *sql, const char *text,
		     int64_t player_id, int64_t now, const char *what,
		     const char **error_r)
{
	int ret = player_exists(s, player_id, error_r);

	if (ret < 0)
		return -1;
	if (ret == 0)
		return store_fail(s, error_r, STORE_ERROR_USAGE,
				  "no player with id %lld",
				  (long long)player_id);
	return insert_bound(s, sql, text, player_id, now, what, error_r);
}

int store_player_add_key(struct store *store, int64_t player_id,
			 const char *fingerprint, int64_t now,
			 const char **error_r)
{
	char fpr[72];

	store_ok(store);
	if (fingerprint == NULL ||
	    store_fingerprint_normalise(fingerprint, fpr, sizeof(fpr)) < 0)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "not an OpenPGP fingerprint: %s",
				  fingerprint ? fingerprint : "(null)");
	return add_bound(store, sql_key_insert, fpr, player_id, now,
			 "binding a key", error_r);
}

int store_player_add_address(struct store *store, int64_t player_id,
			     const char *address, int64_t now,
			     const char **error_r)
{
	store_ok(store);
	if (check_address(store, address, error_r) < 0)
		return -1;
	return add_bound(store, sql_address_insert, address, player_id, now,
			 "adding an address", error_r);
}

static void address_read(sqlite3_stmt *st, void *elem)
{
	struct store_address *a = elem;

	a->address = store_col_strdup(st, 0);
	a->failing = sqlite3_column_int(st, 1) != 0;
	a->failing_since = store_col_int64(st, 2);
	a->failing_reason = store_col_strdup(st, 3);
}

static void string_read(sqlite3_stmt *st, void *elem)
{
	*(char **)elem = store_col_strdup(st, 0);
}

/* Fill p->addresses and p->fingerprints for p->id. */
static int player_load_details(struct store *s, struct store_player *p,
			       const char **error_r)
{
	static const char sql_addr[] =
		"SELECT address, failing, failing_since, failing_reason "
		"FROM player_addresses WHERE player_id = ?1 ORDER BY id";
	static const char sql_keys[] =
		"SELECT fingerprint FROM player_keys WHERE player_id = ?1 "
		"AND revoked IS NULL ORDER BY created, fingerprint";
	sqlite3_stmt *st;

	st = store_stmt_bind(s, sql_addr, error_r, STORE_INT(p->id));
	if (store_collect(s, st, sizeof(*p->addresses), address_read,
			  address_clear, &p->addresses, &p->n_addresses,
			  "loading addresses", error_r) < 0)
		return -1;
	st = store_stmt_bind(s, sql_keys, error_r, STORE_INT(p->id));
	return store_collect(s, st, sizeof(*p->fingerprints), string_read,
			     store_string_clear, &p->fingerprints,
			     &p->n_fingerprints, "loading keys", error_r);
}

int store_player_load(struct store *store, int64_t player_id,
		      struct store_player **player_r, const char **error_r)
{
	static const char sql[] =
		"SELECT id, name, created FROM players WHERE id = ?1";
	struct store_player *p;
	sqlite3_stmt *st;
	int rc;

	store_ok(store);
	*player_r = NULL;
	st = store_stmt_bind(store, sql, error_r, STORE_INT(player_id));
	rc = store_step_one(store, st, "loading a player", error_r);
	if (rc <= 0)
		return rc;
	p = xzalloc(sizeof(*p));
	player_read(st, p);
	store_stmt_done(st);
	if (player_load_details(store, p, error_r) < 0) {
		store_player_free(&p);
		return -1;
	}
	*player_r = p;
	return 1;
}

/* Run sql (one text parameter, yielding a player id) and load that
 * player. */
static int player_by(struct store *s, const char *sql, const char *key,
		     struct store_player **player_r, const char **error_r)
{
	sqlite3_stmt *st;
	int64_t id;
	int rc;

	store_ok(s);
	*player_r = NULL;
	if (key == NULL)
		return 0;
	st = store_stmt_bind(s, sql, error_r, STORE_TEXT(key));
	if (st == NULL)
		return -1;
	rc = store_step(s, st);
	id = rc == SQLITE_ROW ? store_col_int64(st, 0) : 0;
	store_stmt_done(st);
	if (rc == SQLITE_DONE)
		return 0;
	if (rc != SQLITE_ROW)
		return store_fail_sqlite(s, error_r, rc, "finding a player");
	return store_player_load(s, id, player_r, error_r);
}

int store_player_by_name(struct store *store, const char *name,
			 struct store_player **player_r, const char **error_r)
{
	static const char sql[] = "SELECT id FROM players WHERE name = ?1";

	return player_by(store, sql, name, player_r, error_r);
}

void store_name_skeleton(const char *name, char *out, size_t outlen)
{
	size_t n = 0;

	if (outlen == 0)
		return;
	for (; *name != '\0' && n + 1 < outlen; name++) {
		char c = *name == 'I' ? 'l' : *name;

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (c == '0')
			c = 'o';
		else if (c == '1')
			c = 'l';
		else if (c == '5')
			c = 's';
		out[n++] = c;
	}
	while (n > 0 && (out[n - 1] == '-' || out[n - 1] == '_'))
		n--;
	out[n] = '\0';
}

int store_player_by_skeleton(struct store *store, const char *name,
			     struct store_player **player_r,
			     const char **error_r)
{
	/* The expression of the index players_skeleton, as written there. */
	static const char sql[] =
		"SELECT id FROM players WHERE "
		"rtrim(replace(replace(replace(lower(replace(name, 'I', 'l')), "
		"'0', 'o'), '1', 'l'), '5', 's'), '-_') = ?1 "
		"ORDER BY id LIMIT 1";
	char skel[128];

	store_name_skeleton(name != NULL ? name : "", skel, sizeof(skel));
	return player_by(store, sql, skel, player_r, error_r);
}

int store_player_by_fingerprint(struct store *store, const char *fingerprint,
				struct store_player **player_r,
				const char **error_r)
{
	static const char sql[] =
		"SELECT player_id FROM player_keys WHERE fingerprint = ?1 "
		"AND revoked IS NULL";
	char fpr[72];

	if (fingerprint == NULL ||
	    store_fingerprint_normalise(fingerprint, fpr, sizeof(fpr)) < 0) {
		*player_r = NULL;
		store_ok(store);
		return 0;
	}
	return player_by(store, sql, fpr, player_r, error_r);
}

int store_player_by_address(struct store *store, const char *address,
			    struct store_player **player_r,
			    const char **error_r)
{
	static const char sql[] =
		"SELECT player_id FROM player_addresses WHERE address = ?1";

	return player_by(store, sql, address, player_r, error_r);
}

int store_player_list(struct store *store, struct store_player **players_r,
		      size_t *count_r, const char **error_r)
{
	static const char sql[] =
		"SELECT id, name, created FROM players ORDER BY id";
	sqlite3_stmt *st;
	size_t i;

	store_ok(store);
	*players_r = NULL;
	*count_r = 0;
	st = store_stmt(store, sql, error_r);
	if (store_collect(store, st, sizeof(**players_r), player_read,
			  store_player_clear, players_r, count_r,
			  "listing players", error_r) < 0)
		return -1;
	for (i = 0; i < *count_r; i++) {
		if (player_load_details(store, &(*players_r)[i],
					error_r) < 0) {
			store_rows_free(players_r, *count_r,
					sizeof(**players_r),
					store_player_clear);
			*count_r = 0;
			return -1;
		}
	}
	return 0;
}

int store_address_mark_failing(struct store *store, const char *address,
			       bool failing, int64_t now, const char *reason,
			       const char **error_r)
{
	static const char sql[] =
		"UPDATE player_addresses SET failing = ?2, "
		"failing_since = CASE WHEN ?2 THEN coalesce(failing_since, ?3) "
		"END, failing_reason = CASE WHEN ?2 THEN ?4 END "
		"WHERE address = ?1";
	sqlite3_stmt *st;

	store_ok(store);
	if (address == NULL)
		return 0;
	st = store_stmt_bind(store, sql, error_r, STORE_TEXT(address),
			     STORE_INT(failing ? 1 : 0), STORE_INT(now),
			     STORE_TEXT(reason));
	return store_run_changed(store, st, "marking an address", error_r);
}

int store_player_last_move(struct store *store, int64_t player_id,
			   int64_t *at_r, const char **error_r)
{
	static const char sql[] =
		"SELECT played_at FROM moves WHERE player_id = ?1 "
		"ORDER BY played_at DESC LIMIT 1";
	sqlite3_stmt *st;

	store_ok(store);
	*at_r = 0;
	st = store_stmt_bind(store, sql, error_r, STORE_INT(player_id));
	return store_query_int64(store, st, at_r, "finding a player's last "
				 "move", error_r);
}
