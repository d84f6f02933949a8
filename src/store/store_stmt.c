/* store_stmt.c -- the prepared-statement cache, stepping statements,
 * collecting their rows into arrays, binding and reading columns, and
 * freeing the rows handed out; see store_private.h and store.h. */
#include "store/store_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- statements ----------------------------------------------------- */

sqlite3_stmt *store_stmt(struct store *s, const char *sql,
			  const char **error_r)
{
	sqlite3_stmt *st;
	int i, rc;

	for (i = 0; i < s->ncache; i++)
		if (s->cache[i].sql == sql)
			return s->cache[i].stmt;
	rc = sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT,
				&st, NULL);
	if (rc != SQLITE_OK) {
		store_fail_sqlite(s, error_r, rc, "preparing a statement");
		return NULL;
	}
	if (s->ncache == STORE_STMT_CACHE_MAX) {
		/* The store has a fixed set of statements (about 50); more
		 * than the cache holds is a bug in the store. */
		fputs("ashes: store statement cache full\n", stderr);
		abort();
	}
	s->cache[s->ncache].sql = sql;
	s->cache[s->ncache].stmt = st;
	s->ncache++;
	return st;
}

sqlite3_stmt *store_stmt_id(struct store *s, const char *sql, int64_t id,
			     const char **error_r)
{
	sqlite3_stmt *st = store_stmt(s, sql, error_r);

	if (st != NULL)
		sqlite3_bind_int64(st, 1, id);
	return st;
}

sqlite3_stmt *store_stmt_values(struct store *s, const char *sql,
				const char **error_r,
				const struct store_value *values, size_t n)
{
	sqlite3_stmt *st = store_stmt(s, sql, error_r);
	size_t i;

	for (i = 0; st != NULL && i < n; i++) {
		const struct store_value *v = &values[i];
		int at = (int)i + 1;

		switch (v->kind) {
		case STORE_V_INT:
			sqlite3_bind_int64(st, at, v->i);
			break;
		case STORE_V_REAL:
			sqlite3_bind_double(st, at, v->r);
			break;
		case STORE_V_TEXT:
			store_bind_text(st, at, v->t);
			break;
		case STORE_V_ID:
			store_bind_id(st, at, v->i);
			break;
		case STORE_V_NULL:
			break;
		}
	}
	return st;
}

/* store_run, and with unique_ok store_run_insert. */
static int run_to_end(struct store *s, sqlite3_stmt *st, bool unique_ok,
		      const char *what, const char **error_r)
{
	int rc;

	if (st == NULL)
		return -1;
	rc = store_step(s, st);
	store_stmt_done(st);
	if (rc == SQLITE_DONE)
		return 0;
	if (unique_ok && store_rc_is_unique(s, rc))
		return 1;
	return store_fail_sqlite(s, error_r, rc, what);
}

int store_run(struct store *s, sqlite3_stmt *st, const char *what,
	      const char **error_r)
{
	return run_to_end(s, st, false, what, error_r);
}

int store_run_insert(struct store *s, sqlite3_stmt *st, const char *what,
		     const char **error_r)
{
	return run_to_end(s, st, true, what, error_r);
}

int store_run_found(struct store *s, sqlite3_stmt *st, const char *what,
		    const char *what_row, int64_t id, const char **error_r)
{
	int r = store_run_changed(s, st, what, error_r);

	if (r == 0)
		return store_fail(s, error_r, STORE_ERROR_USAGE, "no %s %lld",
				  what_row, (long long)id);
	return r < 0 ? -1 : 0;
}

int store_query_int64(struct store *s, sqlite3_stmt *st, int64_t *value_r,
		      const char *what, const char **error_r)
{
	int rc;

	if (st == NULL)
		return -1;
	rc = store_step(s, st);
	if (rc == SQLITE_ROW && value_r != NULL)
		*value_r = sqlite3_column_int64(st, 0);
	store_stmt_done(st);
	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	return store_fail_sqlite(s, error_r, rc, what);
}

int store_query_id_int64(struct store *s, const char *sql, int64_t id,
			 int64_t *value_r, const char *what,
			 const char **error_r)
{
	sqlite3_stmt *st = store_stmt_id(s, sql, id, error_r);

	if (st == NULL)
		return -1;
	return store_query_int64(s, st, value_r, what, error_r);
}

int store_collect(struct store *s, sqlite3_stmt *st, size_t elem_size,
		  void (*read_row)(sqlite3_stmt *st, void *elem),
		  void (*clear_row)(void *elem), void *list_r,
		  size_t *count_r, const char *what, const char **error_r)
{
	char *list = NULL;
	size_t n = 0, cap = 0;
	int rc;

	memcpy(list_r, &list, sizeof(list));
	*count_r = 0;
	if (st == NULL)
		return -1;
	while ((rc = store_step(s, st)) == SQLITE_ROW) {
		list = store_array_grow(list, elem_size, n, &cap);
		read_row(st, list + n * elem_size);
		n++;
	}
	store_stmt_done(st);
	if (rc != SQLITE_DONE) {
		store_rows_free(&list, n, elem_size, clear_row);
		n = 0;
	}
	/* list_r points to a T *, as store_rows_free's rows_p does. */
	memcpy(list_r, &list, sizeof(list));
	*count_r = n;
	if (rc != SQLITE_DONE)
		return store_fail_sqlite(s, error_r, rc, what);
	return 0;
}

static void id_read(sqlite3_stmt *st, void *elem)
{
	*(int64_t *)elem = store_col_int64(st, 0);
}

int store_collect_ids(struct store *s, sqlite3_stmt *st, int64_t **ids_r,
		      size_t *count_r, const char *what, const char **error_r)
{
	return store_collect(s, st, sizeof(**ids_r), id_read, NULL, ids_r,
			     count_r, what, error_r);
}

int store_query_row(struct store *s, sqlite3_stmt *st,
		    void (*read_row)(sqlite3_stmt *st, void *row), void *row,
		    const char *what, const char **error_r)
{
	int rc = store_step_one(s, st, what, error_r);

	if (rc == 1) {
		read_row(st, row);
		store_stmt_done(st);
	}
	return rc;
}

int store_run_changed(struct store *s, sqlite3_stmt *st, const char *what,
		      const char **error_r)
{
	if (run_to_end(s, st, false, what, error_r) < 0)
		return -1;
	return sqlite3_changes(s->db) > 0 ? 1 : 0;
}

int store_collect_strings(struct store *s, sqlite3_stmt *st, int col,
			  char ***list_r, size_t *count_r, const char *what,
			  const char **error_r)
{
	char **list = NULL;
	size_t n = 0, cap = 0;
	int rc;

	*list_r = NULL;
	if (count_r != NULL)
		*count_r = 0;
	if (st == NULL)
		return -1;
	list = store_array_grow(list, sizeof(*list), n, &cap);
	while ((rc = store_step(s, st)) == SQLITE_ROW) {
		/* Keep room for the terminating NULL. */
		list = store_array_grow(list, sizeof(*list), n + 1, &cap);
		list[n++] = store_col_strdup(st, col);
	}
	store_stmt_done(st);
	list[n] = NULL;
	if (rc != SQLITE_DONE) {
		store_strings_free(&list);
		return store_fail_sqlite(s, error_r, rc, what);
	}
	*list_r = list;
	if (count_r != NULL)
		*count_r = n;
	return 0;
}

void store_stmt_done(sqlite3_stmt *st)
{
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
}

int store_bind_text(sqlite3_stmt *st, int i, const char *text)
{
	if (text == NULL)
		return sqlite3_bind_null(st, i);
	return sqlite3_bind_text(st, i, text, -1, SQLITE_TRANSIENT);
}

int store_bind_id(sqlite3_stmt *st, int i, int64_t id)
{
	if (id == 0)
		return sqlite3_bind_null(st, i);
	return sqlite3_bind_int64(st, i, id);
}

char *store_col_strdup(sqlite3_stmt *st, int i)
{
	const unsigned char *t;
	int n;
	char *p;

	if (sqlite3_column_type(st, i) == SQLITE_NULL)
		return NULL;
	t = sqlite3_column_text(st, i);
	n = sqlite3_column_bytes(st, i);
	p = xzalloc((size_t)n + 1);
	if (t != NULL)
		memcpy(p, t, (size_t)n);
	p[n] = '\0';
	return p;
}

int64_t store_col_int64(sqlite3_stmt *st, int i)
{
	return sqlite3_column_int64(st, i);
}

int store_fingerprint_normalise(const char *in, char *out, size_t outlen)
{
	size_t n = 0;

	for (; *in != '\0'; in++) {
		char c = *in;

		if (c == ' ' || c == '\t')
			continue;
		if (c >= 'a' && c <= 'f')
			c = (char)(c - 'a' + 'A');
		if (!((c >= '0' && c <= '9') || (c >= 'A' && c <= 'F')))
			return -1;
		if (n + 1 >= outlen)
			return -1;
		out[n++] = c;
	}
	out[n] = '\0';
	return n == 40 || n == 64 ? 0 : -1;
}

/* ---- rows ----------------------------------------------------------- */

void *store_array_grow(void *array, size_t elem_size, size_t n, size_t *cap)
{
	char *p;
	size_t newcap;

	if (n < *cap)
		return array;
	newcap = *cap ? *cap * 2 : 8;
	p = xrealloc(array, newcap * elem_size);
	memset(p + *cap * elem_size, 0, (newcap - *cap) * elem_size);
	*cap = newcap;
	return p;
}

void store_rows_free(void *rows_p, size_t count, size_t row_size,
		     void (*clear)(void *row))
{
	char *rows;
	size_t i;

	/* rows_p points to a T *; every object pointer has this size and
	 * representation on the platforms SQLite runs on. */
	memcpy(&rows, rows_p, sizeof(rows));
	if (rows == NULL)
		return;
	for (i = 0; clear != NULL && i < count; i++)
		clear(rows + i * row_size);
	free(rows);
	rows = NULL;
	memcpy(rows_p, &rows, sizeof(rows));
}

void store_string_clear(void *row)
{
	free(*(char **)row);
}

void store_strings_free(char ***strings)
{
	size_t n = 0;

	while (*strings != NULL && (*strings)[n] != NULL)
		n++;
	store_rows_free(strings, n, sizeof(**strings), store_string_clear);
}

int store_step_one(struct store *s, sqlite3_stmt *st, const char *what,
		   const char **error_r)
{
	int rc;

	if (st == NULL)
		return -1;
	rc = store_step(s, st);
	if (rc == SQLITE_ROW)
		return 1;
	store_stmt_done(st);
	if (rc == SQLITE_DONE)
		return 0;
	return store_fail_sqlite(s, error_r, rc, what);
}
