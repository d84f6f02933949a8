/* store_club.c -- what a club's competitions keep (sql/009): each ladder's
 * event log, league seasons and their members, which game belongs to
 * which ladder or league and whether its result was applied, and the
 * service's small named values (server_state, sql/008); the ratings are
 * store_rating.c's.  See store_club.h. */
#include "store/store_private.h"

#include <stdlib.h>
#include <string.h>

/* The longest ladder, league or state name, as the CHECKs of sql/009. */
#define CLUB_NAME_MAX 32
#define LADDER_NOTE_MAX 200

/* ---- checking what a call is given ------------------------------------ */

/* Whether name is 1 to CLUB_NAME_MAX bytes of [a-z0-9_] and of the
 * characters in extra. */
static bool name_ok(const char *name, const char *extra)
{
	size_t n;

	if (name == NULL || name[0] == '\0')
		return false;
	for (n = 0; name[n] != '\0'; n++) {
		char c = name[n];

		if (n >= CLUB_NAME_MAX)
			return false;
		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		      c == '_' || strchr(extra, c) != NULL))
			return false;
	}
	return true;
}

/* A ladder's or a league's name: 1-32 bytes of [a-z0-9_-]. */
bool store_club_name_ok(const char *name)
{
	return name_ok(name, "-");
}

/* Whether word is one of the NULL-terminated words. */
static bool word_in(const char *word, const char *const *words)
{
	for (; *words != NULL; words++)
		if (strcmp(word, *words) == 0)
			return true;
	return false;
}

/* See store_private.h.  Without it the foreign keys would refuse the
 * row all the same, with a less helpful message. */
int store_club_refs_exist(struct store *store, int64_t p1, int64_t p2,
			  int64_t game, int64_t season, const char **error_r)
{
	static const char sql[] =
		"SELECT ?1 IS NULL OR EXISTS (SELECT 1 FROM players "
		"WHERE id = ?1), ?2 IS NULL OR EXISTS (SELECT 1 FROM players "
		"WHERE id = ?2), ?3 IS NULL OR EXISTS (SELECT 1 FROM games "
		"WHERE id = ?3), ?4 IS NULL OR EXISTS (SELECT 1 FROM "
		"league_seasons WHERE id = ?4)";
	sqlite3_stmt *st;
	bool ok[4];
	int rc, i;

	st = store_stmt_bind(store, sql, error_r, STORE_ID(p1), STORE_ID(p2),
			     STORE_ID(game), STORE_ID(season));
	rc = store_step_one(store, st, "finding players and games", error_r);
	if (rc < 0)
		return -1;
	if (rc == 0) /* a SELECT without FROM always has its row */
		return store_fail(store, error_r, STORE_ERROR_IO,
				  "finding players and games: no answer");
	for (i = 0; i < 4; i++)
		ok[i] = sqlite3_column_int(st, i) != 0;
	store_stmt_done(st);
	if (!ok[0] || !ok[1])
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "no player %lld",
				  (long long)(!ok[0] ? p1 : p2));
	if (!ok[2])
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "no game %lld", (long long)game);
	if (!ok[3])
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "no league season %lld", (long long)season);
	return 0;
}

/* ---- ladders: the event log -------------------------------------------- */

/* What each kind of event needs besides player_id (struct
 * store_ladder_event in store_club.h; the CHECKs of sql/009 agree). */
enum {
	NEEDS_OTHER = 1 << 0,
	NEEDS_GAME = 1 << 1,
	NEEDS_OUTCOME = 1 << 2,
	NEEDS_POSITION = 1 << 3,
	NEEDS_ACTOR = 1 << 4,
	NEEDS_RULES = 1 << 5,
};
static const struct {
	const char *kind;
	unsigned needs;
} event_kinds[] = {
	{ "joined", 0 },
	{ "left", 0 },
	{ "withdrawn", 0 },
	{ "challenged", NEEDS_OTHER | NEEDS_GAME | NEEDS_RULES },
	{ "accepted", NEEDS_GAME },
	{ "result", NEEDS_OTHER | NEEDS_GAME | NEEDS_OUTCOME },
	{ "moved", NEEDS_POSITION | NEEDS_ACTOR },
};
static const char *const event_outcomes[] = {
	"normal", "time", "walkover", "draw", "cancelled", NULL
};
static const char *const event_wins[] = { "take", "swap", NULL };
static const char *const event_actors[] = {
	"mail", "daemon", "operator", NULL
};

void store_ladder_event_clear(void *event)
{
	struct store_ladder_event *e = event;

	free(e->ladder);
	free(e->kind);
	free(e->outcome);
	free(e->actor);
	free(e->note);
	free(e->win);
}

/* 0 if ev is an event to record (its references aside), else -1 with
 * STORE_ERROR_USAGE. */
static int ladder_event_check(struct store *store,
			      const struct store_ladder_event *ev,
			      const char **error_r)
{
	const char *missing = NULL;
	unsigned needs = 0;
	size_t k;

	if (!store_club_name_ok(ev->ladder))
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "bad ladder name \"%.*s\"", CLUB_NAME_MAX + 1,
				  ev->ladder != NULL ? ev->ladder : "");
	for (k = 0; k < sizeof(event_kinds) / sizeof(event_kinds[0]); k++)
		if (ev->kind != NULL &&
		    strcmp(ev->kind, event_kinds[k].kind) == 0)
			break;
	if (k == sizeof(event_kinds) / sizeof(event_kinds[0]))
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "unknown ladder event \"%.*s\"", 16,
				  ev->kind != NULL ? ev->kind : "");
	needs = event_kinds[k].needs;
	if (ev->outcome != NULL && !word_in(ev->outcome, event_outcomes))
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "unknown outcome \"%.*s\"", 16, ev->outcome);
	if (ev->actor != NULL && !word_in(ev->actor, event_actors))
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "unknown actor \"%.*s\"", 16, ev->actor);
	if (ev->win != NULL && !word_in(ev->win, event_wins))
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "unknown win mode \"%.*s\"", 16, ev->win);
	if (ev->position < 0 || ev->time_loss_drop < 0)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "ladder position %d, drop %d", ev->position,
				  ev->time_loss_drop);
	if (ev->note != NULL && strlen(ev->note) > LADDER_NOTE_MAX)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "a ladder event's note of %zu bytes (at "
				  "most %d)", strlen(ev->note),
				  LADDER_NOTE_MAX);
	if (ev->player_id == 0)
		missing = "a player";
	else if ((needs & NEEDS_OTHER) && ev->other_id == 0)
		missing = "the other player";
	else if ((needs & NEEDS_GAME) && ev->game_id == 0)
		missing = "a game";
	else if ((needs & NEEDS_OUTCOME) && ev->outcome == NULL)
		missing = "an outcome";
	else if ((needs & NEEDS_POSITION) && ev->position == 0)
		missing = "a position";
	else if ((needs & NEEDS_ACTOR) && ev->actor == NULL)
		missing = "an actor";
	else if ((needs & NEEDS_RULES) && (ev->accept_by == 0 ||
					   ev->win == NULL))
		missing = "the rules it is played under";
	if (missing != NULL)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "a ladder event \"%s\" without %s",
				  ev->kind, missing);
	return 0;
}

int store_ladder_event_add(struct store *store,
			   const struct store_ladder_event *ev,
			   int64_t *id_r, const char **error_r)
{
	static const char sql[] =
		"INSERT INTO ladder_events (ladder, kind, at, player_id, "
		"other_id, game_id, outcome, position, actor, note, "
		"inbound_id, accept_by, win, time_loss_drop) VALUES (?1, ?2, "
		"?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)";
	sqlite3_stmt *st;

	store_ok(store);
	if (ladder_event_check(store, ev, error_r) < 0)
		return -1;
	if (store_club_refs_exist(store, ev->player_id, ev->other_id,
				  ev->game_id, 0, error_r) < 0)
		return -1;
	st = store_stmt_bind(store, sql, error_r, STORE_TEXT(ev->ladder),
			     STORE_TEXT(ev->kind), STORE_INT(ev->at),
			     STORE_INT(ev->player_id), STORE_ID(ev->other_id),
			     STORE_ID(ev->game_id), STORE_TEXT(ev->outcome),
			     STORE_ID(ev->position), STORE_TEXT(ev->actor),
			     STORE_TEXT(ev->note));
	if (st == NULL)
		return -1;
	/* An unknown mail is refused by its foreign key (USAGE too). */
	store_bind_id(st, 11, ev->inbound_id);
	store_bind_text(st, 13, ev->win);
	if (ev->win != NULL) {
		sqlite3_bind_int64(st, 12, ev->accept_by);
		sqlite3_bind_int(st, 14, ev->time_loss_drop);
	}
	if (store_run(store, st, "recording a ladder event", error_r) < 0)
		return -1;
	if (id_r != NULL)
		*id_r = sqlite3_last_insert_rowid(store->db);
	return 0;
}

static void ladder_event_read(sqlite3_stmt *st, void *elem)
{
	struct store_ladder_event *e = elem;

	e->id = store_col_int64(st, 0);
	e->ladder = store_col_strdup(st, 1);
	e->kind = store_col_strdup(st, 2);
	e->at = store_col_int64(st, 3);
	e->player_id = store_col_int64(st, 4);
	e->other_id = store_col_int64(st, 5);
	e->game_id = store_col_int64(st, 6);
	e->outcome = store_col_strdup(st, 7);
	e->position = sqlite3_column_int(st, 8);
	e->actor = store_col_strdup(st, 9);
	e->note = store_col_strdup(st, 10);
	e->inbound_id = store_col_int64(st, 11);
	e->accept_by = store_col_int64(st, 12);
	e->win = store_col_strdup(st, 13);
	e->time_loss_drop = sqlite3_column_int(st, 14);
}

int store_ladder_events(struct store *store, const char *ladder,
			struct store_ladder_event **events_r,
			size_t *count_r, const char **error_r)
{
	static const char sql[] =
		"SELECT id, ladder, kind, at, player_id, other_id, game_id, "
		"outcome, position, actor, note, inbound_id, accept_by, win, "
		"time_loss_drop FROM ladder_events "
		"WHERE ladder = ?1 ORDER BY id";

	return store_rows(store, sql, events_r, count_r,
			  ladder_event_read, store_ladder_event_clear,
			  "loading a ladder's events", error_r,
			  STORE_TEXT(ladder));
}

int store_ladder_names(struct store *store, char ***names_r,
		       size_t *count_r, const char **error_r)
{
	static const char sql[] =
		"SELECT DISTINCT ladder FROM ladder_events ORDER BY ladder";
	sqlite3_stmt *st;

	store_ok(store);
	st = store_stmt(store, sql, error_r);
	return store_collect_strings(store, st, 0, names_r, count_r,
				     "listing the ladders", error_r);
}

/* ---- which competition a game belongs to ------------------------------ */

#define GAME_CLUB_COLUMNS \
	"game_id, ladder, season_id, group_no, rated, applied_at"

void store_game_club_clear(struct store_game_club *gc)
{
	free(gc->ladder);
	gc->ladder = NULL;
}

/* store_game_club_clear as a clear function of store_collect. */
static void game_club_clear_row(void *elem)
{
	store_game_club_clear(elem);
}

static void game_club_read(sqlite3_stmt *st, void *elem)
{
	struct store_game_club *gc = elem;

	gc->game_id = store_col_int64(st, 0);
	gc->ladder = store_col_strdup(st, 1);
	gc->season_id = store_col_int64(st, 2);
	gc->group_no = sqlite3_column_int(st, 3);
	gc->rated = sqlite3_column_int(st, 4) != 0;
	gc->applied_at = store_col_int64(st, 5);
}

int store_game_club_set(struct store *store, const struct store_game_club *gc,
			const char **error_r)
{
	static const char sql[] =
		"INSERT INTO game_club (" GAME_CLUB_COLUMNS ") "
		"VALUES (?1, ?2, ?3, ?4, ?5, ?6)";
	sqlite3_stmt *st;

	store_ok(store);
	if (gc->game_id == 0)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "no game 0");
	if (gc->ladder == NULL && gc->season_id == 0)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "game %lld: neither a ladder nor a league "
				  "season", (long long)gc->game_id);
	if (gc->ladder != NULL && !store_club_name_ok(gc->ladder))
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "bad ladder name \"%.*s\"", CLUB_NAME_MAX + 1,
				  gc->ladder);
	/* A group is a season's: both or neither (the CHECK of sql/009). */
	if (gc->season_id != 0 ? gc->group_no < 1 : gc->group_no != 0)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "game %lld: group %d of league season %lld",
				  (long long)gc->game_id, gc->group_no,
				  (long long)gc->season_id);
	if (store_club_refs_exist(store, 0, 0, gc->game_id, gc->season_id,
				  error_r) < 0)
		return -1;
	st = store_stmt_bind(store, sql, error_r, STORE_INT(gc->game_id),
			     STORE_TEXT(gc->ladder), STORE_ID(gc->season_id),
			     STORE_ID(gc->group_no),
			     STORE_INT(gc->rated ? 1 : 0),
			     STORE_ID(gc->applied_at));
	return store_run_insert(store, st, "linking a game to a competition",
				error_r);
}

int store_game_club_get(struct store *store, int64_t game_id,
			struct store_game_club *gc_r, const char **error_r)
{
	static const char sql[] =
		"SELECT " GAME_CLUB_COLUMNS " FROM game_club "
		"WHERE game_id = ?1";
	sqlite3_stmt *st;
	int rc;

	store_ok(store);
	memset(gc_r, 0, sizeof(*gc_r));
	gc_r->game_id = game_id;
	st = store_stmt_bind(store, sql, error_r, STORE_INT(game_id));
	rc = store_step_one(store, st, "loading a game's competition",
			    error_r);
	if (rc <= 0)
		return rc;
	game_club_read(st, gc_r);
	store_stmt_done(st);
	return 1;
}

int store_result_applied(struct store *store, const char *table,
			 int64_t game_id, int64_t at, const char **error_r)
{
	/* The two statements read and write one row; the second only tells
	 * "applied before" from "not linked" when the first changed
	 * nothing, so the call needs no transaction of its own.  table is
	 * one of two names, never input. */
	bool events = strcmp(table, "tournament_games") == 0;
	const char *sql_apply = events ?
		"UPDATE tournament_games SET applied_at = ?2 "
		"WHERE game_id = ?1 AND applied_at IS NULL" :
		"UPDATE game_club SET applied_at = ?2 "
		"WHERE game_id = ?1 AND applied_at IS NULL";
	const char *sql_linked = events ?
		"SELECT 1 FROM tournament_games WHERE game_id = ?1" :
		"SELECT 1 FROM game_club WHERE game_id = ?1";
	sqlite3_stmt *st;
	int rc;

	store_ok(store);
	if (at == 0)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "game %lld applied at 0 (\"not yet\")",
				  (long long)game_id);
	st = store_stmt_bind(store, sql_apply, error_r, STORE_INT(game_id),
			     STORE_INT(at));
	if (store_run(store, st, "marking a result applied", error_r) < 0)
		return -1;
	if (sqlite3_changes(store->db) > 0)
		return 0;
	st = store_stmt_bind(store, sql_linked, error_r, STORE_INT(game_id));
	rc = store_query_int64(store, st, NULL, "finding a game's competition",
			       error_r);
	if (rc < 0)
		return -1;
	if (rc == 0)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "game %lld belongs to no %s",
				  (long long)game_id,
				  events ? "event" : "competition");
	return 1;
}

int store_game_club_applied(struct store *store, int64_t game_id, int64_t at,
			    const char **error_r)
{
	return store_result_applied(store, "game_club", game_id, at, error_r);
}

/* The ended games of table (game_club or tournament_games) whose result
 * is not applied yet, oldest first. */
int store_results_pending(struct store *store, const char *table,
			  size_t limit, int64_t **ids_r, size_t *count_r,
			  const char **error_r)
{
	/* "applied_at IS NULL" lets the partial index answer: few results
	 * wait at any time. */
	const char *sql = strcmp(table, "tournament_games") == 0 ?
		"SELECT c.game_id FROM tournament_games c JOIN games g "
		"ON g.id = c.game_id WHERE c.applied_at IS NULL "
		"AND g.status IN ('finished', 'cancelled') "
		"ORDER BY g.updated, g.id LIMIT ?1" :
		"SELECT c.game_id FROM game_club c JOIN games g "
		"ON g.id = c.game_id WHERE c.applied_at IS NULL "
		"AND g.status IN ('finished', 'cancelled') "
		"ORDER BY g.updated, g.id LIMIT ?1";

	return store_ids(store, ids_r, count_r, "listing results to apply",
			 error_r, sql, STORE_LIMIT(limit));
}

int store_game_club_pending(struct store *store, size_t limit,
			    int64_t **ids_r, size_t *count_r,
			    const char **error_r)
{
	return store_results_pending(store, "game_club", limit, ids_r,
				     count_r, error_r);
}

/* ---- leagues ------------------------------------------------------------ */

void store_league_season_clear(void *season)
{
	struct store_league_season *s = season;

	free(s->league);
}

int store_league_season_add(struct store *store, const char *league,
			    int number, int64_t starts, int64_t ends,
			    int64_t now, int64_t *id_r, const char **error_r)
{
	static const char sql_add[] =
		"INSERT INTO league_seasons (league, number, starts, ends, "
		"created) VALUES (?1, ?2, ?3, ?4, ?5)";
	static const char sql_id[] =
		"SELECT id FROM league_seasons "
		"WHERE league = ?1 AND number = ?2";
	sqlite3_stmt *st;
	int64_t id = 0;
	int rc;

	store_ok(store);
	if (!store_club_name_ok(league))
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "bad league name \"%.*s\"", CLUB_NAME_MAX + 1,
				  league != NULL ? league : "");
	if (number < 1)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "league season number %d", number);
	if (ends <= starts)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "a league season from %lld to %lld ends "
				  "before it begins", (long long)starts,
				  (long long)ends);
	st = store_stmt_bind(store, sql_add, error_r, STORE_TEXT(league),
			     STORE_INT(number), STORE_INT(starts),
			     STORE_INT(ends), STORE_INT(now));
	rc = store_run_insert(store, st, "adding a league season", error_r);
	if (rc < 0)
		return -1;
	if (rc == 0) {
		if (id_r != NULL)
			*id_r = sqlite3_last_insert_rowid(store->db);
		return 0;
	}
	/* There already: hand out its id. */
	st = store_stmt_bind(store, sql_id, error_r, STORE_TEXT(league),
			     STORE_INT(number));
	rc = store_query_int64(store, st, &id, "finding a league season",
			       error_r);
	if (rc < 0)
		return -1;
	if (rc == 0)
		return store_fail(store, error_r, STORE_ERROR_IO,
				  "league %s season %d refused but not there",
				  league, number);
	if (id_r != NULL)
		*id_r = id;
	return 1;
}

static void league_season_read(sqlite3_stmt *st, void *elem)
{
	struct store_league_season *s = elem;

	s->id = store_col_int64(st, 0);
	s->league = store_col_strdup(st, 1);
	s->number = sqlite3_column_int(st, 2);
	s->starts = store_col_int64(st, 3);
	s->ends = store_col_int64(st, 4);
	s->created = store_col_int64(st, 5);
}

int store_league_seasons(struct store *store, const char *league,
			 struct store_league_season **seasons_r,
			 size_t *count_r, const char **error_r)
{
	static const char sql[] =
		"SELECT id, league, number, starts, ends, created "
		"FROM league_seasons WHERE league = ?1 ORDER BY number";

	return store_rows(store, sql, seasons_r, count_r,
			  league_season_read, store_league_season_clear,
			  "listing a league's seasons", error_r,
			  STORE_TEXT(league));
}

int store_league_member_add(struct store *store,
			    const struct store_league_member *m,
			    const char **error_r)
{
	static const char sql[] =
		"INSERT INTO league_members (season_id, group_no, division, "
		"seed, player_id) VALUES (?1, ?2, ?3, ?4, ?5)";
	sqlite3_stmt *st;

	store_ok(store);
	if (m->group_no < 1 || m->division < 1 || m->seed < 1)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "a league member in group %d, division %d, "
				  "seed %d (each from 1)", m->group_no,
				  m->division, m->seed);
	if (m->season_id == 0)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "no league season 0");
	if (m->player_id == 0)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "no player 0");
	if (store_club_refs_exist(store, m->player_id, 0, 0, m->season_id,
				  error_r) < 0)
		return -1;
	st = store_stmt_bind(store, sql, error_r, STORE_INT(m->season_id),
			     STORE_INT(m->group_no), STORE_INT(m->division),
			     STORE_INT(m->seed), STORE_INT(m->player_id));
	return store_run_insert(store, st, "adding a league member", error_r);
}

static void league_member_read(sqlite3_stmt *st, void *elem)
{
	struct store_league_member *m = elem;

	m->season_id = store_col_int64(st, 0);
	m->group_no = sqlite3_column_int(st, 1);
	m->division = sqlite3_column_int(st, 2);
	m->seed = sqlite3_column_int(st, 3);
	m->player_id = store_col_int64(st, 4);
}

int store_league_members(struct store *store, int64_t season_id,
			 struct store_league_member **members_r,
			 size_t *count_r, const char **error_r)
{
	static const char sql[] =
		"SELECT season_id, group_no, division, seed, player_id "
		"FROM league_members WHERE season_id = ?1 "
		"ORDER BY group_no, seed, player_id";

	return store_rows(store, sql, members_r, count_r,
			  league_member_read, NULL,
			  "listing a season's members", error_r,
			  STORE_INT(season_id));
}

int store_league_games(struct store *store, int64_t season_id,
		       struct store_game_club **games_r, size_t *count_r,
		       const char **error_r)
{
	static const char sql[] =
		"SELECT " GAME_CLUB_COLUMNS " FROM game_club "
		"WHERE season_id = ?1 ORDER BY game_id";

	return store_rows(store, sql, games_r, count_r,
			  game_club_read, game_club_clear_row,
			  "listing a season's games", error_r,
			  STORE_INT(season_id));
}

/* ---- the service's own small state ------------------------------------ */

/* A state key: 1-32 bytes of [a-z0-9_]. */
static int state_key_check(struct store *store, const char *key,
			   const char **error_r)
{
	if (name_ok(key, ""))
		return 0;
	return store_fail(store, error_r, STORE_ERROR_USAGE,
			  "bad state name \"%.*s\"", CLUB_NAME_MAX + 1,
			  key != NULL ? key : "");
}

int store_state_get(struct store *store, const char *key, int64_t *value_r,
		    const char **error_r)
{
	static const char sql[] =
		"SELECT value FROM server_state WHERE key = ?1";
	sqlite3_stmt *st;

	store_ok(store);
	*value_r = 0;
	if (state_key_check(store, key, error_r) < 0)
		return -1;
	st = store_stmt_bind(store, sql, error_r, STORE_TEXT(key));
	return store_query_int64(store, st, value_r, "reading a state value",
				 error_r);
}

int store_state_set(struct store *store, const char *key, int64_t value,
		    const char **error_r)
{
	static const char sql[] =
		"INSERT INTO server_state (key, value) VALUES (?1, ?2) "
		"ON CONFLICT (key) DO UPDATE SET value = excluded.value";
	sqlite3_stmt *st;

	store_ok(store);
	if (state_key_check(store, key, error_r) < 0)
		return -1;
	st = store_stmt_bind(store, sql, error_r, STORE_TEXT(key),
			     STORE_INT(value));
	return store_run(store, st, "writing a state value", error_r);
}
