/* store_inbound.c -- the archive of inbound mail (the idempotence record:
 * every reading of a mail, a duplicate's pointing at the first) and the
 * dak-style signature history; see store.h. */
#include "store/store_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void inbound_clear(void *row)
{
	struct store_inbound *p = row;

	free(p->message_id);
	free(p->sha256);
	free(p->raw);
	free(p->source);
	free(p->sender_address);
	free(p->sender_fingerprint);
	free(p->outcome);
}

void store_inbound_free(struct store_inbound **in)
{
	store_rows_free(in, 1, sizeof(**in), inbound_clear);
}

/* 64 lower-case hex digits?  The schema checks too; this gives the caller
 * a clear message instead of a CHECK failure. */
static bool sha256_ok(const char *hex)
{
	size_t i;

	if (hex == NULL)
		return false;
	for (i = 0; hex[i] != '\0'; i++)
		if (!((hex[i] >= '0' && hex[i] <= '9') ||
		      (hex[i] >= 'a' && hex[i] <= 'f')))
			return false;
	return i == 64;
}

int store_inbound_seen(struct store *store, const char *sha256,
		       int64_t *inbound_id_r, const char **error_r)
{
	static const char sql[] = "SELECT id FROM inbound "
				  "WHERE sha256 = ?1 AND duplicate_of IS NULL";
	sqlite3_stmt *st;

	store_ok(store);
	st = store_stmt_bind(store, sql, error_r, STORE_TEXT(sha256));
	return store_query_int64(store, st, inbound_id_r, "looking up an inbound message", error_r);
}

/* A duplicate reading must name the first reading of the same bytes:
 * 0 yes, -1 (usage) no. */
static int duplicate_ok(struct store *store, const struct store_inbound *in,
			const char **error_r)
{
	int64_t first = 0;
	int r = store_inbound_seen(store, in->sha256, &first, error_r);

	if (r < 0)
		return -1;
	if (r == 0 || first != in->duplicate_of)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "inbound %lld is not the first reading of "
				  "that mail",
				  (long long)in->duplicate_of);
	return 0;
}

int store_inbound_record(struct store *store, const struct store_inbound *in,
			 int64_t *id_r, const char **error_r)
{
	static const char sql[] =
		"INSERT INTO inbound (message_id, sha256, raw, received, "
		"source, sender_address, sender_fingerprint, player_id, "
		"outcome, raw_truncated, duplicate_of) "
		"VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)";
	sqlite3_stmt *st;
	int rc;

	store_ok(store);
	if (!sha256_ok(in->sha256))
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "not a sha256 digest (64 lower-case hex "
				  "digits): %s",
				  in->sha256 ? in->sha256 : "(null)");
	if (in->duplicate_of != 0 && duplicate_ok(store, in, error_r) < 0)
		return -1;
	st = store_stmt_bind(store, sql, error_r, STORE_TEXT(in->message_id),
			     STORE_TEXT(in->sha256));
	if (st == NULL)
		return -1;
	/* zeroblob for an empty mail (a NULL pointer would bind NULL), and
	 * for a duplicate: its bytes are the first reading's. */
	if (in->raw_len == 0 || in->raw == NULL || in->duplicate_of != 0)
		sqlite3_bind_zeroblob(st, 3, 0);
	else
		sqlite3_bind_blob64(st, 3, in->raw, in->raw_len,
				    SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, in->received);
	store_bind_text(st, 5, in->source);
	store_bind_text(st, 6, in->sender_address);
	store_bind_text(st, 7, in->sender_fingerprint);
	store_bind_id(st, 8, in->player_id);
	store_bind_text(st, 9, in->outcome);
	sqlite3_bind_int(st, 10, in->raw_truncated && in->duplicate_of == 0);
	store_bind_id(st, 11, in->duplicate_of);
	rc = store_run_insert(store, st, "recording an inbound message", error_r);
	if (rc != 0)
		return rc;
	if (id_r != NULL)
		*id_r = sqlite3_last_insert_rowid(store->db);
	return 0;
}

int store_inbound_set_outcome(struct store *store, int64_t inbound_id,
			      const char *outcome, const char **error_r)
{
	static const char sql[] =
		"UPDATE inbound SET outcome = ?2 WHERE id = ?1";
	sqlite3_stmt *st;

	store_ok(store);
	st = store_stmt_bind(store, sql, error_r, STORE_INT(inbound_id),
			     STORE_TEXT(outcome));
	return store_run_found(store, st, "setting an outcome",
			       "inbound message", inbound_id, error_r);
}

/* A new inbound message read into *(struct store_inbound **)row. */
static void inbound_new_read(sqlite3_stmt *st, void *row)
{
	struct store_inbound *in = xzalloc(sizeof(*in));
	const void *raw;

	in->id = store_col_int64(st, 0);
	in->message_id = store_col_strdup(st, 1);
	in->sha256 = store_col_strdup(st, 2);
	raw = sqlite3_column_blob(st, 3);
	in->raw_len = (size_t)sqlite3_column_bytes(st, 3);
	in->raw = xzalloc(in->raw_len + 1);
	if (raw != NULL)
		memcpy(in->raw, raw, in->raw_len);
	in->raw[in->raw_len] = '\0';
	in->received = store_col_int64(st, 4);
	in->source = store_col_strdup(st, 5);
	in->sender_address = store_col_strdup(st, 6);
	in->sender_fingerprint = store_col_strdup(st, 7);
	in->player_id = store_col_int64(st, 8);
	in->outcome = store_col_strdup(st, 9);
	in->raw_truncated = store_col_int64(st, 10) != 0;
	in->duplicate_of = store_col_int64(st, 11);
	*(struct store_inbound **)row = in;
}

int store_inbound_load(struct store *store, int64_t inbound_id,
		       struct store_inbound **in_r, const char **error_r)
{
	static const char sql[] =
		"SELECT id, message_id, sha256, raw, received, source, "
		"sender_address, sender_fingerprint, player_id, outcome, "
		"raw_truncated, duplicate_of FROM inbound WHERE id = ?1";
	sqlite3_stmt *st;

	store_ok(store);
	*in_r = NULL;
	st = store_stmt_bind(store, sql, error_r, STORE_INT(inbound_id));
	return store_query_row(store, st, inbound_new_read, in_r,
			       "loading an inbound message", error_r);
}

/* ---- signatures ----------------------------------------------------- */

int store_signature_seen(struct store *store, const char *content_sha256,
			 char **fingerprint_r, const char **error_r)
{
	static const char sql[] =
		"SELECT fingerprint FROM signatures WHERE content_sha256 = ?1";
	sqlite3_stmt *st;
	int rc;

	store_ok(store);
	if (fingerprint_r != NULL)
		*fingerprint_r = NULL;
	st = store_stmt_bind(store, sql, error_r, STORE_TEXT(content_sha256));
	rc = store_step_one(store, st, "looking up a signature", error_r);
	if (rc <= 0)
		return rc;
	if (fingerprint_r != NULL)
		*fingerprint_r = store_col_strdup(st, 0);
	store_stmt_done(st);
	return 1;
}

int store_signature_record(struct store *store, const char *fingerprint,
			   int64_t signature_created,
			   const char *content_sha256, int64_t inbound_id,
			   int64_t now, const char **error_r)
{
	static const char sql[] =
		"INSERT INTO signatures (content_sha256, fingerprint, "
		"signature_created, inbound_id, recorded) "
		"VALUES (?1, ?2, ?3, ?4, ?5)";
	char fpr[72];
	sqlite3_stmt *st;

	store_ok(store);
	if (!sha256_ok(content_sha256))
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "not a sha256 digest (64 lower-case hex "
				  "digits): %s",
				  content_sha256 ? content_sha256 : "(null)");
	if (fingerprint == NULL ||
	    store_fingerprint_normalise(fingerprint, fpr, sizeof(fpr)) < 0)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "not an OpenPGP fingerprint: %s",
				  fingerprint ? fingerprint : "(null)");
	st = store_stmt_bind(store, sql, error_r, STORE_TEXT(content_sha256),
			     STORE_TEXT(fpr), STORE_INT(signature_created),
			     STORE_ID(inbound_id), STORE_INT(now));
	return store_run_insert(store, st, "recording a signature", error_r);
}

int store_signature_by_inbound(struct store *store, int64_t inbound_id,
			       char sha256_r[65], const char **error_r)
{
	/* A mail holds one signed part; should two rows name it, the
	 * first recorded is the one its commands ran from. */
	static const char sql[] =
		"SELECT content_sha256 FROM signatures WHERE inbound_id = ?1 "
		"ORDER BY recorded, content_sha256 LIMIT 1";
	sqlite3_stmt *st;
	const unsigned char *s;
	int rc;

	store_ok(store);
	sha256_r[0] = '\0';
	st = store_stmt_bind(store, sql, error_r, STORE_INT(inbound_id));
	rc = store_step_one(store, st, "looking up a mail's signature",
			    error_r);
	if (rc <= 0)
		return rc;
	s = sqlite3_column_text(st, 0);
	snprintf(sha256_r, 65, "%s", s != NULL ? (const char *)s : "");
	store_stmt_done(st);
	return sha256_r[0] != '\0' ? 1 : 0;
}
