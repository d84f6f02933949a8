/* store_tx.c -- transactions and savepoints, the error every call
 * records, and the fault injector every SQLite step/exec goes through; see
 * store.h and store_private.h. */
#include "store/store_private.h"

#include <stdarg.h>
#include <stdio.h>

/* ---- errors --------------------------------------------------------- */

void store_ok(struct store *s)
{
	s->error_kind = STORE_ERROR_NONE;
	s->error[0] = '\0';
}

int store_fail(struct store *s, const char **error_r,
	       enum store_error_kind kind, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->error, sizeof(s->error), fmt, ap);
	va_end(ap);
	s->error_kind = kind;
	if (error_r != NULL)
		*error_r = s->error;
	return -1;
}

int store_fail_sqlite(struct store *s, const char **error_r, int rc,
		      const char *what)
{
	enum store_error_kind kind;
	const char *msg;

	if (s->fault_fired) {
		s->fault_fired = false;
		return store_fail(s, error_r, STORE_ERROR_FAULT,
				  "%s: injected fault", what);
	}
	if (s->tx_lost) {
		s->tx_lost = false;
		return store_fail(s, error_r, STORE_ERROR_IO,
				  "%s: the transaction was rolled back after "
				  "an earlier failure; roll back and start "
				  "again", what);
	}
	switch (rc & 0xff) {
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		kind = STORE_ERROR_BUSY;
		break;
	case SQLITE_CONSTRAINT:
	case SQLITE_MISMATCH:
	case SQLITE_RANGE:
		kind = STORE_ERROR_USAGE;
		break;
	default:
		kind = STORE_ERROR_IO;
	}
	msg = sqlite3_errmsg(s->db);
	if ((rc & 0xff) == SQLITE_BUSY)
		msg = "database is locked by another process (busy timeout "
		      "ran out)";
	return store_fail(s, error_r, kind, "%s: %s", what, msg);
}

bool store_rc_is_unique(struct store *s, int rc)
{
	if (s->fault_fired)
		return false;
	return rc == SQLITE_CONSTRAINT_UNIQUE ||
	       rc == SQLITE_CONSTRAINT_PRIMARYKEY;
}

enum store_error_kind store_error_kind(const struct store *store)
{
	return store->error_kind;
}

/* ---- the fault injector and the call wrappers ---------------------- */

void store_debug_fail_after(struct store *store, long n)
{
	store->fail_countdown = n < 0 ? -1 : n;
	store->fault_fired = false;
}

void store_debug_fault_rolls_back(struct store *store, bool rolls_back)
{
	store->fault_rolls_back = rolls_back;
}

long store_debug_step_count(const struct store *store)
{
	return store->step_count;
}

/* True if this call is the one to fail. */
static bool fault_now(struct store *s)
{
	s->step_count++;
	if (s->fail_countdown < 0)
		return false;
	if (s->fail_countdown > 0) {
		s->fail_countdown--;
		return false;
	}
	s->fail_countdown = -1;
	s->fault_fired = true;
	return true;
}

/* What every step/exec goes through: SQLITE_OK to go on, or the error to
 * report instead of making the call. */
static int call_gate(struct store *s)
{
	/* SQLite ended the caller's transaction after an error: never let a
	 * later call run in autocommit mode as if it were still inside. */
	if (s->tx_open && sqlite3_get_autocommit(s->db)) {
		s->tx_lost = true;
		return SQLITE_ABORT_ROLLBACK;
	}
	if (!fault_now(s))
		return SQLITE_OK;
	if (s->fault_rolls_back) {
		/* as SQLite does after SQLITE_FULL or some I/O errors */
		if (!sqlite3_get_autocommit(s->db))
			sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		return SQLITE_FULL;
	}
	return SQLITE_IOERR;
}

int store_step(struct store *s, sqlite3_stmt *st)
{
	int rc = call_gate(s);

	return rc != SQLITE_OK ? rc : sqlite3_step(st);
}


int store_exec(struct store *s, const char *sql)
{
	int rc = call_gate(s);

	return rc != SQLITE_OK ? rc :
		sqlite3_exec(s->db, sql, NULL, NULL, NULL);
}

int store_exec_nofault(struct store *s, const char *sql)
{
	return sqlite3_exec(s->db, sql, NULL, NULL, NULL);
}

/* ---- transactions --------------------------------------------------- */

bool store_in_transaction(const struct store *store)
{
	return store->tx_open;
}

/* Exec BEGIN IMMEDIATE or COMMIT, trying again begin_retries times while
 * the database is busy (each try waits up to the busy timeout inside
 * SQLite).  On success the transaction is open or not, as tx_open_after
 * says. */
static int exec_retrying(struct store *s, const char *sql, bool tx_open_after)
{
	int attempt, rc = SQLITE_OK;

	for (attempt = 0; attempt <= s->begin_retries; attempt++) {
		rc = store_exec(s, sql);
		if (rc == SQLITE_OK) {
			s->savepoint_depth = 0;
			s->tx_open = tx_open_after;
			return rc;
		}
		if ((rc & 0xff) != SQLITE_BUSY || s->fault_fired)
			break;
	}
	return rc;
}

int store_begin(struct store *store, const char **error_r)
{
	int rc;

	store_ok(store);
	if (store_in_transaction(store))
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "a transaction is already open");
	rc = exec_retrying(store, "BEGIN IMMEDIATE", true);
	if (rc == SQLITE_OK)
		return 0;
	return store_fail_sqlite(store, error_r, rc, "starting a transaction");
}

int store_commit(struct store *store, const char **error_r)
{
	int rc;

	store_ok(store);
	if (!store_in_transaction(store))
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "no transaction is open (it may have been "
				  "rolled back by an earlier error)");
	rc = exec_retrying(store, "COMMIT", false);
	if (rc == SQLITE_OK)
		return 0;
	store_fail_sqlite(store, error_r, rc, "committing");
	store_rollback(store);
	return -1;
}

void store_rollback(struct store *store)
{
	if (store->db != NULL && !sqlite3_get_autocommit(store->db))
		store_exec_nofault(store, "ROLLBACK");
	store->tx_open = false;
	store->savepoint_depth = 0;
}

#define ATOMIC_MAX_DEPTH 16

int store_savepoint(struct store *store, const char **error_r)
{
	store_ok(store);
	if (!store_in_transaction(store))
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "a savepoint needs an open transaction");
	return store_atomic_begin(store, error_r);
}

int store_savepoint_end(struct store *store, bool ok, const char **error_r)
{
	return store_atomic_end(store, ok, error_r);
}

int store_atomic_begin(struct store *s, const char **error_r)
{
	int rc;

	if (s->savepoint_depth >= ATOMIC_MAX_DEPTH)
		return store_fail(s, error_r, STORE_ERROR_USAGE,
				  "store calls nested too deeply");
	if (!store_in_transaction(s)) {
		if (store_begin(s, error_r) < 0)
			return -1;
		s->atomic_owns |= 1u << s->savepoint_depth;
	} else {
		rc = store_exec(s, "SAVEPOINT store_atomic");
		if (rc != SQLITE_OK)
			return store_fail_sqlite(s, error_r, rc,
						 "starting a savepoint");
		s->atomic_owns &= ~(1u << s->savepoint_depth);
	}
	s->savepoint_depth++;
	return 0;
}

int store_atomic_end(struct store *s, bool ok, const char **error_r)
{
	bool owns;
	int rc;

	if (s->savepoint_depth == 0) {
		/* The transaction was ended under us (an error SQLite
		 * answered with a rollback of its own). */
		return ok ? store_fail(s, error_r, STORE_ERROR_IO,
				       "transaction lost") : -1;
	}
	s->savepoint_depth--;
	owns = s->atomic_owns & (1u << s->savepoint_depth);
	if (owns) {
		int depth = s->savepoint_depth;

		if (!ok) {
			store_rollback(s);
			return -1;
		}
		/* store_commit resets the depth; keep ours. */
		rc = store_commit(s, error_r);
		s->savepoint_depth = depth;
		return rc;
	}
	if (ok) {
		rc = store_exec(s, "RELEASE store_atomic");
		if (rc == SQLITE_OK)
			return 0;
		store_fail_sqlite(s, error_r, rc, "releasing a savepoint");
	}
	store_exec_nofault(s, "ROLLBACK TO store_atomic");
	store_exec_nofault(s, "RELEASE store_atomic");
	return -1;
}

/* store_open has no store to keep its error in. */
static _Thread_local char open_error[512];

int store_open_fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(open_error, sizeof(open_error), fmt, ap);
	va_end(ap);
	return -1;
}

const char *store_open_error(void)
{
	return open_error;
}
