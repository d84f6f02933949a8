/* store_tournament.c -- what the club's events keep (sql/019): each
 * event's log, which stored game is which event game, and when each
 * event began and ended.  See store_tournament.h. */
#include "store/store_private.h"

#include <stdlib.h>
#include <string.h>

#define TOURNAMENT_NOTE_MAX 200
#define TOURNAMENT_ROUND_MAX 512

/* What each kind needs besides player_id (the CHECKs of sql/019 agree). */
enum {
	NEEDS_OTHER_GAME = 1 << 0, /* other_id and game */
	NEEDS_OUTCOME = 1 << 1,
	NEEDS_ROUND = 1 << 2,      /* round >= 1 */
	ROUND_ZERO = 1 << 3,       /* round 0 */
};
static const struct {
	const char *kind;
	unsigned needs;
} entry_kinds[] = {
	{ "join", ROUND_ZERO },
	{ "leave", 0 },
	{ "withdraw", 0 },
	{ "pairing", NEEDS_OTHER_GAME | NEEDS_ROUND },
	{ "bye", NEEDS_ROUND },
	{ "result", NEEDS_OTHER_GAME | NEEDS_OUTCOME },
	{ "adjudication", NEEDS_OTHER_GAME | NEEDS_OUTCOME },
};
static const char *const entry_outcomes[] = { "white", "black", "draw", NULL };
static const char *const entry_actors[] = {
	"mail", "daemon", "operator", NULL
};

static bool tournament_word_in(const char *word, const char *const *words)
{
	for (; word != NULL && *words != NULL; words++)
		if (strcmp(word, *words) == 0)
			return true;
	return false;
}

void store_tournament_entry_clear(void *entry)
{
	struct store_tournament_entry *e = entry;

	free(e->tournament);
	free(e->kind);
	free(e->outcome);
	free(e->actor);
	free(e->note);
}

/* 0 if e is an entry to record (its references aside), else -1 with
 * STORE_ERROR_USAGE. */
static int entry_check(struct store *store,
		       const struct store_tournament_entry *e,
		       const char **error_r)
{
	const char *missing = NULL;
	unsigned needs;
	size_t k, nkinds = sizeof(entry_kinds) / sizeof(entry_kinds[0]);

	if (!store_club_name_ok(e->tournament))
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "bad event name \"%.*s\"", 33,
				  e->tournament != NULL ? e->tournament : "");
	for (k = 0; k < nkinds; k++)
		if (e->kind != NULL && strcmp(e->kind, entry_kinds[k].kind) == 0)
			break;
	if (k == nkinds)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "unknown event entry \"%.*s\"", 16,
				  e->kind != NULL ? e->kind : "");
	needs = entry_kinds[k].needs;
	if (e->outcome != NULL && !tournament_word_in(e->outcome,
						      entry_outcomes))
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "unknown outcome \"%.*s\"", 16, e->outcome);
	if (!tournament_word_in(e->actor, entry_actors))
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "unknown actor \"%.*s\"", 16,
				  e->actor != NULL ? e->actor : "");
	if (e->round < 0 || e->round > TOURNAMENT_ROUND_MAX ||
	    ((needs & NEEDS_ROUND) && e->round < 1) ||
	    ((needs & ROUND_ZERO) && e->round != 0))
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "an event entry \"%s\" of round %d", e->kind,
				  e->round);
	if (e->game < 0)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "event game number %lld", (long long)e->game);
	if (e->note != NULL && strlen(e->note) > TOURNAMENT_NOTE_MAX)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "an event entry's note of %zu bytes (at "
				  "most %d)", strlen(e->note),
				  TOURNAMENT_NOTE_MAX);
	if (e->player_id == 0)
		missing = "a player";
	else if ((needs & NEEDS_OTHER_GAME) && e->other_id == 0)
		missing = "the other player";
	else if ((needs & NEEDS_OTHER_GAME) && e->game == 0)
		missing = "a game";
	else if ((needs & NEEDS_OUTCOME) && e->outcome == NULL)
		missing = "an outcome";
	if (missing != NULL)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "an event entry \"%s\" without %s", e->kind,
				  missing);
	return 0;
}

int store_tournament_entry_add(struct store *store,
			       const struct store_tournament_entry *e,
			       int64_t *id_r, const char **error_r)
{
	static const char sql[] =
		"INSERT INTO tournament_entries (tournament, kind, at, round, "
		"player_id, other_id, game, outcome, rating, actor, note, "
		"inbound_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, "
		"?11, ?12)";
	bool join;
	sqlite3_stmt *st;

	store_ok(store);
	if (entry_check(store, e, error_r) < 0)
		return -1;
	if (store_club_refs_exist(store, e->player_id, e->other_id, 0, 0,
				  error_r) < 0)
		return -1;
	join = strcmp(e->kind, "join") == 0;
	st = store_stmt_bind(store, sql, error_r, STORE_TEXT(e->tournament),
			     STORE_TEXT(e->kind), STORE_INT(e->at),
			     STORE_INT(e->round), STORE_INT(e->player_id),
			     STORE_ID(e->other_id), STORE_ID(e->game),
			     STORE_TEXT(e->outcome),
			     join ? (struct store_value)STORE_INT(e->rating)
				  : (struct store_value)STORE_NULL,
			     STORE_TEXT(e->actor), STORE_TEXT(e->note),
			     STORE_ID(e->inbound_id));
	/* An unknown mail is refused by its foreign key. */
	if (store_run(store, st, "recording an event entry", error_r) < 0)
		return -1;
	if (id_r != NULL)
		*id_r = sqlite3_last_insert_rowid(store->db);
	return 0;
}

static void entry_read(sqlite3_stmt *st, void *elem)
{
	struct store_tournament_entry *e = elem;

	e->id = store_col_int64(st, 0);
	e->tournament = store_col_strdup(st, 1);
	e->kind = store_col_strdup(st, 2);
	e->at = store_col_int64(st, 3);
	e->round = sqlite3_column_int(st, 4);
	e->player_id = store_col_int64(st, 5);
	e->other_id = store_col_int64(st, 6);
	e->game = store_col_int64(st, 7);
	e->outcome = store_col_strdup(st, 8);
	e->rating = sqlite3_column_int(st, 9);
	e->actor = store_col_strdup(st, 10);
	e->note = store_col_strdup(st, 11);
	e->inbound_id = store_col_int64(st, 12);
}

int store_tournament_entries(struct store *store, const char *tournament,
			     struct store_tournament_entry **entries_r,
			     size_t *count_r, const char **error_r)
{
	static const char sql[] =
		"SELECT id, tournament, kind, at, round, player_id, other_id, "
		"game, outcome, rating, actor, note, inbound_id "
		"FROM tournament_entries WHERE tournament = ?1 ORDER BY id";

	return store_rows(store, sql, entries_r, count_r, entry_read,
			  store_tournament_entry_clear,
			  "loading an event's log", error_r,
			  STORE_TEXT(tournament));
}

int store_tournament_names(struct store *store, char ***names_r,
			   size_t *count_r, const char **error_r)
{
	static const char sql[] =
		"SELECT tournament FROM tournament_entries UNION "
		"SELECT name FROM tournaments ORDER BY 1";
	sqlite3_stmt *st;

	store_ok(store);
	st = store_stmt(store, sql, error_r);
	return store_collect_strings(store, st, 0, names_r, count_r,
				     "listing the events", error_r);
}

int store_tournament_next_game(struct store *store, const char *tournament,
			       int64_t *number_r, const char **error_r)
{
	static const char sql[] =
		"SELECT coalesce(max(game), 0) + 1 FROM tournament_entries "
		"WHERE tournament = ?1";
	sqlite3_stmt *st;
	int r;

	store_ok(store);
	*number_r = 1;
	st = store_stmt_bind(store, sql, error_r, STORE_TEXT(tournament));
	r = store_query_int64(store, st, number_r, "numbering an event game",
			      error_r);
	return r < 0 ? -1 : 0;
}

/* ---- the event's games ------------------------------------------------ */

#define TOURNAMENT_GAME_COLUMNS \
	"game_id, tournament, round, number, rated, applied_at"

void store_tournament_game_clear(void *game)
{
	struct store_tournament_game *tg = game;

	free(tg->tournament);
	tg->tournament = NULL;
}

static void tournament_game_read(sqlite3_stmt *st, void *elem)
{
	struct store_tournament_game *tg = elem;

	tg->game_id = store_col_int64(st, 0);
	tg->tournament = store_col_strdup(st, 1);
	tg->round = sqlite3_column_int(st, 2);
	tg->number = store_col_int64(st, 3);
	tg->rated = sqlite3_column_int(st, 4) != 0;
	tg->applied_at = store_col_int64(st, 5);
}

int store_tournament_game_add(struct store *store,
			      const struct store_tournament_game *tg,
			      const char **error_r)
{
	static const char sql[] =
		"INSERT INTO tournament_games (" TOURNAMENT_GAME_COLUMNS ") "
		"VALUES (?1, ?2, ?3, ?4, ?5, ?6)";
	sqlite3_stmt *st;

	store_ok(store);
	if (tg->game_id <= 0)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "no game %lld", (long long)tg->game_id);
	if (!store_club_name_ok(tg->tournament))
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "bad event name \"%.*s\"", 33,
				  tg->tournament != NULL ? tg->tournament : "");
	if (tg->round < 1 || tg->round > TOURNAMENT_ROUND_MAX ||
	    tg->number < 1)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "game %lld: round %d, event game %lld",
				  (long long)tg->game_id, tg->round,
				  (long long)tg->number);
	if (store_club_refs_exist(store, 0, 0, tg->game_id, 0, error_r) < 0)
		return -1;
	st = store_stmt_bind(store, sql, error_r, STORE_INT(tg->game_id),
			     STORE_TEXT(tg->tournament), STORE_INT(tg->round),
			     STORE_INT(tg->number),
			     STORE_INT(tg->rated ? 1 : 0),
			     STORE_ID(tg->applied_at));
	return store_run_insert(store, st, "linking a game to an event",
				error_r);
}

int store_tournament_game_get(struct store *store, int64_t game_id,
			      struct store_tournament_game *tg_r,
			      const char **error_r)
{
	static const char sql[] =
		"SELECT " TOURNAMENT_GAME_COLUMNS " FROM tournament_games "
		"WHERE game_id = ?1";
	int r;

	store_ok(store);
	memset(tg_r, 0, sizeof(*tg_r));
	r = store_query_row(store, store_stmt_bind(store, sql, error_r,
						   STORE_INT(game_id)),
			    tournament_game_read, tg_r,
			    "loading a game's event", error_r);
	tg_r->game_id = game_id;
	return r;
}

int store_tournament_game_of(struct store *store, const char *tournament,
			     int64_t number, int64_t *game_id_r,
			     const char **error_r)
{
	static const char sql[] =
		"SELECT game_id FROM tournament_games WHERE tournament = ?1 "
		"AND number = ?2";
	sqlite3_stmt *st;

	store_ok(store);
	*game_id_r = 0;
	st = store_stmt_bind(store, sql, error_r, STORE_TEXT(tournament),
			     STORE_INT(number));
	return store_query_int64(store, st, game_id_r,
				 "finding an event's game", error_r);
}

int store_tournament_games(struct store *store, const char *tournament,
			   struct store_tournament_game **games_r,
			   size_t *count_r, const char **error_r)
{
	static const char sql[] =
		"SELECT " TOURNAMENT_GAME_COLUMNS " FROM tournament_games "
		"WHERE tournament = ?1 ORDER BY number";

	return store_rows(store, sql, games_r, count_r, tournament_game_read,
			  store_tournament_game_clear,
			  "loading an event's games", error_r,
			  STORE_TEXT(tournament));
}

int store_tournament_game_applied(struct store *store, int64_t game_id,
				  int64_t at, const char **error_r)
{
	return store_result_applied(store, "tournament_games", game_id, at,
				    error_r);
}

int store_tournament_pending(struct store *store, size_t limit,
			     int64_t **ids_r, size_t *count_r,
			     const char **error_r)
{
	return store_results_pending(store, "tournament_games", limit, ids_r,
				     count_r, error_r);
}

/* ---- the event's course ------------------------------------------------ */

struct tournament_times {
	int64_t started, ended;
};

static void times_read(sqlite3_stmt *st, void *row)
{
	struct tournament_times *t = row;

	t->started = store_col_int64(st, 0);
	t->ended = store_col_int64(st, 1);
}

int store_tournament_times(struct store *store, const char *tournament,
			   int64_t *started_r, int64_t *ended_r,
			   const char **error_r)
{
	static const char sql[] =
		"SELECT started_at, ended_at FROM tournaments WHERE name = ?1";
	struct tournament_times t = { 0, 0 };
	int r;

	store_ok(store);
	r = store_query_row(store, store_stmt_bind(store, sql, error_r,
						   STORE_TEXT(tournament)),
			    times_read, &t, "reading an event's course",
			    error_r);
	*started_r = t.started;
	*ended_r = t.ended;
	return r;
}

int store_tournament_mark(struct store *store, const char *tournament,
			  int64_t started_at, int64_t ended_at,
			  const char **error_r)
{
	static const char sql[] =
		"INSERT INTO tournaments (name, started_at, ended_at) "
		"VALUES (?1, ?2, ?3) ON CONFLICT (name) DO UPDATE SET "
		"started_at = coalesce(started_at, excluded.started_at), "
		"ended_at = coalesce(ended_at, excluded.ended_at) "
		"WHERE (started_at IS NULL AND excluded.started_at IS NOT NULL) "
		"OR (ended_at IS NULL AND excluded.ended_at IS NOT NULL)";
	sqlite3_stmt *st;
	int rc;

	store_ok(store);
	if (!store_club_name_ok(tournament))
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "bad event name");
	st = store_stmt_bind(store, sql, error_r, STORE_TEXT(tournament),
			     STORE_ID(started_at), STORE_ID(ended_at));
	rc = store_run_changed(store, st, "recording an event's course",
			       error_r);
	return rc < 0 ? -1 : rc == 1 ? 0 : 1;
}
