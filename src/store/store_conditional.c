/* store_conditional.c -- the rows of conditional moves (sql/013): the
 * players' trees, their lines, the plies played from them; see
 * store_conditional.h. */
#include "store/store_private.h"
#include "store/store_conditional.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void store_cond_tree_clear(struct store_cond_tree *t)
{
	for (size_t i = 0; i < t->nlines; i++)
		free(t->lines[i].moves);
	free(t->lines);
	memset(t, 0, sizeof(*t));
}

static void tree_read(sqlite3_stmt *st, void *elem)
{
	struct store_cond_tree *t = elem;
	const unsigned char *s;

	memset(t, 0, sizeof(*t));
	t->game_id = store_col_int64(st, 0);
	t->player_id = store_col_int64(st, 1);
	t->inbound_id = store_col_int64(st, 2);
	if ((s = sqlite3_column_text(st, 3)) != NULL)
		snprintf(t->sha256, sizeof(t->sha256), "%s", (const char *)s);
	t->received = store_col_int64(st, 4);
	t->base_ply = sqlite3_column_int(st, 5);
	t->played = sqlite3_column_int(st, 6);
}

static void line_read(sqlite3_stmt *st, void *elem)
{
	struct store_cond_line *l = elem;

	l->seq = sqlite3_column_int(st, 0);
	l->moves = store_col_strdup(st, 1);
}

static void line_clear(void *elem)
{
	free(((struct store_cond_line *)elem)->moves);
}

/* The lines of tree t into it. */
static int tree_lines(struct store *store, struct store_cond_tree *t,
		      const char **error_r)
{
	static const char sql[] =
		"SELECT seq, moves FROM conditional_lines "
		"WHERE game_id = ?1 AND player_id = ?2 ORDER BY seq";

	return store_rows(store, sql, &t->lines, &t->nlines, line_read,
			  line_clear, "loading conditional lines", error_r,
			  STORE_INT(t->game_id), STORE_INT(t->player_id));
}

#define TREE_COLUMNS "game_id, player_id, inbound_id, sha256, received, " \
	"base_ply, played"

int store_cond_tree_get(struct store *store, int64_t game_id,
			int64_t player_id, struct store_cond_tree *t_r,
			const char **error_r)
{
	static const char sql[] =
		"SELECT " TREE_COLUMNS " FROM conditional_trees "
		"WHERE game_id = ?1 AND player_id = ?2";
	sqlite3_stmt *st;
	int r;

	store_ok(store);
	memset(t_r, 0, sizeof(*t_r));
	st = store_stmt_bind(store, sql, error_r, STORE_INT(game_id),
			     STORE_INT(player_id));
	r = store_query_row(store, st, tree_read, t_r,
			    "loading a conditional tree", error_r);
	if (r == 1 && tree_lines(store, t_r, error_r) < 0) {
		store_cond_tree_clear(t_r);
		return -1;
	}
	return r;
}

int store_cond_trees(struct store *store, int64_t game_id,
		     struct store_cond_tree **trees_r, size_t *count_r,
		     const char **error_r)
{
	static const char sql[] =
		"SELECT " TREE_COLUMNS " FROM conditional_trees "
		"WHERE game_id = ?1 ORDER BY player_id";

	if (store_rows(store, sql, trees_r, count_r, tree_read, NULL,
		       "loading conditional trees", error_r,
		       STORE_INT(game_id)) < 0)
		return -1;
	for (size_t i = 0; i < *count_r; i++) {
		if (tree_lines(store, &(*trees_r)[i], error_r) < 0) {
			for (size_t k = 0; k < *count_r; k++)
				store_cond_tree_clear(&(*trees_r)[k]);
			free(*trees_r);
			*trees_r = NULL;
			*count_r = 0;
			return -1;
		}
	}
	return 0;
}

int store_cond_tree_set(struct store *store, const struct store_cond_tree *t,
			const char **error_r)
{
	static const char sql_drop[] =
		"DELETE FROM conditional_trees "
		"WHERE game_id = ?1 AND player_id = ?2";
	static const char sql_add[] =
		"INSERT INTO conditional_trees (" TREE_COLUMNS ") "
		"VALUES (?1, ?2, ?3, ?4, ?5, ?6, 0)";
	int ret;

	store_ok(store);
	if (t->base_ply < 0 || t->inbound_id == 0)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "a conditional tree needs its mail and ply");
	if (store_atomic_begin(store, error_r) < 0)
		return -1;
	ret = store_run_sql(store, store_run, sql_drop,
			    "replacing a conditional tree", error_r,
			    STORE_INT(t->game_id), STORE_INT(t->player_id));
	if (ret == 0)
		ret = store_run_sql(store, store_run_insert, sql_add,
				    "recording a conditional tree", error_r,
				    STORE_INT(t->game_id),
				    STORE_INT(t->player_id),
				    STORE_INT(t->inbound_id),
				    STORE_TEXT(t->sha256),
				    STORE_INT(t->received),
				    STORE_INT(t->base_ply));
	if (store_atomic_end(store, ret == 0, error_r) < 0 && ret == 0)
		ret = -1;
	return ret;
}

int store_cond_line_add(struct store *store, int64_t game_id,
			int64_t player_id, const char *moves,
			const char **error_r)
{
	/* No row when there is no tree: the caller's mistake. */
	static const char sql[] =
		"INSERT INTO conditional_lines (game_id, player_id, seq, moves) "
		"SELECT ?1, ?2, coalesce((SELECT max(seq) FROM "
		"conditional_lines WHERE game_id = ?1 AND player_id = ?2), 0) "
		"+ 1, ?3 FROM conditional_trees "
		"WHERE game_id = ?1 AND player_id = ?2";
	int r;

	store_ok(store);
	if (moves == NULL || *moves == '\0')
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "an empty conditional line");
	r = store_run_sql(store, store_run_changed, sql,
			  "adding a conditional line", error_r,
			  STORE_INT(game_id), STORE_INT(player_id),
			  STORE_TEXT(moves));
	if (r == 0)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "no conditional tree of player %lld in "
				  "game %lld", (long long)player_id,
				  (long long)game_id);
	return r < 0 ? -1 : 0;
}

int store_cond_line_delete(struct store *store, int64_t game_id,
			   int64_t player_id, int seq, const char **error_r)
{
	static const char sql[] =
		"DELETE FROM conditional_lines "
		"WHERE game_id = ?1 AND player_id = ?2 AND seq = ?3";

	return store_run_sql(store, store_run, sql,
			     "removing a conditional line", error_r,
			     STORE_INT(game_id), STORE_INT(player_id),
			     STORE_INT(seq));
}

int store_cond_tree_played(struct store *store, int64_t game_id,
			   int64_t player_id, int played,
			   const char **error_r)
{
	static const char sql[] =
		"UPDATE conditional_trees SET played = ?3 "
		"WHERE game_id = ?1 AND player_id = ?2";

	return store_run_sql(store, store_run, sql,
			     "moving a conditional tree down", error_r,
			     STORE_INT(game_id), STORE_INT(player_id),
			     STORE_INT(played));
}

int store_cond_tree_delete(struct store *store, int64_t game_id,
			   int64_t player_id, const char **error_r)
{
	static const char sql[] =
		"DELETE FROM conditional_trees "
		"WHERE game_id = ?1 AND (?2 = 0 OR player_id = ?2)";

	return store_run_sql(store, store_run_changed, sql,
			     "clearing a conditional tree", error_r,
			     STORE_INT(game_id), STORE_INT(player_id));
}

int store_cond_ply_add(struct store *store, int64_t game_id, int ply,
		       int base_ply, const char **error_r)
{
	static const char sql[] =
		"INSERT INTO conditional_plies (game_id, ply, base_ply) "
		"VALUES (?1, ?2, ?3)";

	return store_run_sql(store, store_run_insert, sql,
			     "recording a conditional ply", error_r,
			     STORE_INT(game_id), STORE_INT(ply),
			     STORE_INT(base_ply));
}

static void ply_read(sqlite3_stmt *st, void *elem)
{
	struct store_cond_ply *p = elem;

	p->ply = sqlite3_column_int(st, 0);
	p->base_ply = sqlite3_column_int(st, 1);
}

int store_cond_plies(struct store *store, int64_t game_id,
		     struct store_cond_ply **plies_r, size_t *count_r,
		     const char **error_r)
{
	static const char sql[] =
		"SELECT ply, base_ply FROM conditional_plies "
		"WHERE game_id = ?1 ORDER BY ply";

	return store_rows(store, sql, plies_r, count_r, ply_read, NULL,
			  "loading conditional plies", error_r,
			  STORE_INT(game_id));
}
