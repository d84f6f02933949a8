/* store_clock.c -- what the game clocks keep besides a game's own row
 * (sql/008): vacations, each player's vacation bank and last reminder, a
 * game's clock history, the timer's heartbeat, and the timer's queries
 * over games (the next deadline, the reminders due); see store.h. */
#include "store/store_private.h"

#include <stdlib.h>
#include <string.h>

/* The key of the timer's heartbeat in server_state (store_state_get). */
#define HEARTBEAT_KEY "clock_heartbeat"

#define CLOCK_EVENT_NOTE_MAX 200

/* ---- vacations ------------------------------------------------------ */

int store_vacation_add(struct store *store, int64_t player_id, int64_t from,
		       int64_t to, int days, int64_t inbound_id, int64_t now,
		       int64_t *id_r, const char **error_r)
{
	/* Selecting the values from the player's row makes "no such
	 * player" no row inserted, told apart from other failures. */
	static const char sql[] =
		"INSERT INTO vacations (player_id, from_at, to_at, days, "
		"inbound_id, created) SELECT ?1, ?2, ?3, ?4, ?5, ?6 "
		"FROM players WHERE id = ?1";
	sqlite3_stmt *st;

	store_ok(store);
	if (to <= from)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "a vacation from %lld to %lld ends before "
				  "it begins", (long long)from, (long long)to);
	if (days < 0)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "a vacation of %d days from the bank", days);
	st = store_stmt_bind(store, sql, error_r, STORE_INT(player_id),
			     STORE_INT(from), STORE_INT(to), STORE_INT(days),
			     STORE_ID(inbound_id), STORE_INT(now));
	if (store_run(store, st, "booking a vacation", error_r) < 0)
		return -1;
	if (sqlite3_changes(store->db) == 0)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "no player %lld", (long long)player_id);
	if (id_r != NULL)
		*id_r = sqlite3_last_insert_rowid(store->db);
	return 0;
}

static void vacation_read(sqlite3_stmt *st, void *elem)
{
	struct store_vacation *v = elem;

	v->id = store_col_int64(st, 0);
	v->player_id = store_col_int64(st, 1);
	v->from = store_col_int64(st, 2);
	v->to = store_col_int64(st, 3);
	v->days = sqlite3_column_int(st, 4);
	v->inbound_id = store_col_int64(st, 5);
	v->created = store_col_int64(st, 6);
}

int store_vacations_for_player(struct store *store, int64_t player_id,
			       int64_t after, struct store_vacation **vacs_r,
			       size_t *count_r, const char **error_r)
{
	static const char sql[] =
		"SELECT id, player_id, from_at, to_at, days, inbound_id, "
		"created FROM vacations WHERE player_id = ?1 AND to_at > ?2 "
		"ORDER BY from_at, id";

	return store_rows(store, sql, vacs_r, count_r,
			  vacation_read, NULL,
			  "listing a player's vacations", error_r,
			  STORE_INT(player_id), STORE_INT(after));
}

int store_vacation_cut(struct store *store, int64_t id, int64_t to, int days,
		       const char **error_r)
{
	/* The two statements take exclusive cases of the same vacation
	 * (ending inside it, or at or before its start), so each is the
	 * whole change and the call needs no transaction of its own. */
	static const char sql_cut[] =
		"UPDATE vacations SET to_at = ?2, days = ?3 "
		"WHERE id = ?1 AND from_at < ?2 AND to_at >= ?2";
	static const char sql_delete[] =
		"DELETE FROM vacations WHERE id = ?1 AND from_at >= ?2";
	sqlite3_stmt *st;

	store_ok(store);
	if (days < 0)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "a vacation of %d days from the bank", days);
	st = store_stmt_bind(store, sql_cut, error_r, STORE_INT(id),
			     STORE_INT(to), STORE_INT(days));
	if (store_run(store, st, "cutting a vacation short", error_r) < 0)
		return -1;
	if (sqlite3_changes(store->db) > 0)
		return 0;
	st = store_stmt_bind(store, sql_delete, error_r, STORE_INT(id),
			     STORE_INT(to));
	if (store_run(store, st, "cancelling a vacation", error_r) < 0)
		return -1;
	if (sqlite3_changes(store->db) > 0)
		return 0;
	return store_fail(store, error_r, STORE_ERROR_USAGE,
			  "no vacation %lld that ends at %lld or later",
			  (long long)id, (long long)to);
}

/* ---- a player's bank and last reminder -------------------------------- */

static void player_clock_read(sqlite3_stmt *st, void *row)
{
	struct store_player_clock *pc = row;

	/* The CHECK of sql/008 keeps the two NULL together. */
	pc->has_bank = sqlite3_column_type(st, 0) != SQLITE_NULL;
	pc->vacation_days = sqlite3_column_int(st, 0);
	pc->accrued_at = store_col_int64(st, 1);
	pc->last_reminder_at = store_col_int64(st, 2);
}

int store_player_clock_get(struct store *store, int64_t player_id,
			   struct store_player_clock *pc_r,
			   const char **error_r)
{
	static const char sql[] =
		"SELECT vacation_days, accrued_at, last_reminder_at "
		"FROM player_clock WHERE player_id = ?1";
	sqlite3_stmt *st;

	store_ok(store);
	memset(pc_r, 0, sizeof(*pc_r));
	pc_r->player_id = player_id;
	st = store_stmt_bind(store, sql, error_r, STORE_INT(player_id));
	return store_query_row(store, st, player_clock_read, pc_r,
			       "loading a player's clock", error_r);
}

int store_player_clock_set(struct store *store,
			   const struct store_player_clock *pc,
			   const char **error_r)
{
	static const char sql[] =
		"INSERT INTO player_clock (player_id, vacation_days, "
		"accrued_at, last_reminder_at) SELECT ?1, ?2, ?3, ?4 "
		"FROM players WHERE id = ?1 ON CONFLICT (player_id) DO UPDATE "
		"SET vacation_days = excluded.vacation_days, "
		"accrued_at = excluded.accrued_at, "
		"last_reminder_at = excluded.last_reminder_at";
	sqlite3_stmt *st;

	store_ok(store);
	if (pc->has_bank && pc->vacation_days < 0)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "a bank of %d vacation days",
				  pc->vacation_days);
	st = store_stmt_bind(store, sql, error_r, STORE_INT(pc->player_id));
	if (st == NULL)
		return -1;
	if (pc->has_bank) {
		sqlite3_bind_int(st, 2, pc->vacation_days);
		sqlite3_bind_int64(st, 3, pc->accrued_at);
	}
	store_bind_id(st, 4, pc->last_reminder_at);
	return store_run_found(store, st, "saving a player's clock",
			       "player", pc->player_id, error_r);
}

/* ---- a game's clock history ------------------------------------------- */

void store_clock_event_clear(void *event)
{
	struct store_clock_event *e = event;

	free(e->note);
}

/* The kinds' stored names, by enum store_clock_kind: the one place they
 * are spelled (each within the CHECK of sql/008). */
static const char *const clock_kind_names[] = {
	[STORE_CLOCK_ADJUST] = "adjust",
	[STORE_CLOCK_VACATION] = "vacation",
	[STORE_CLOCK_VACATION_DAY] = "vacation_day",
	[STORE_CLOCK_OUTAGE] = "outage",
	[STORE_CLOCK_FLAG] = "flag",
	[STORE_CLOCK_CLAIM] = "claim",
	[STORE_CLOCK_CANCEL] = "cancel",
	[STORE_CLOCK_VACATION_OVER] = "vacation_over",
	[STORE_CLOCK_OTHER] = "other",
};

const char *store_clock_kind_name(enum store_clock_kind kind)
{
	return (unsigned)kind < STORE_CLOCK_OTHER ? clock_kind_names[kind] :
	       clock_kind_names[STORE_CLOCK_OTHER];
}

/* The kind a stored name names; STORE_CLOCK_OTHER for none. */
static enum store_clock_kind clock_kind_read(const char *name)
{
	for (int k = 0; k < STORE_CLOCK_OTHER; k++)
		if (name != NULL && strcmp(name, clock_kind_names[k]) == 0)
			return (enum store_clock_kind)k;
	return STORE_CLOCK_OTHER;
}

int store_clock_event_add(struct store *store, int64_t game_id,
			  enum store_clock_kind kind, int64_t player_id,
			  int64_t seconds, const char *note,
			  int64_t inbound_id, int64_t now,
			  const char **error_r)
{
	/* As in store_vacation_add: no game row, no event row. */
	static const char sql[] =
		"INSERT INTO clock_events (game_id, at, kind, player_id, "
		"seconds, note, inbound_id) SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7 "
		"FROM games WHERE id = ?1";
	sqlite3_stmt *st;

	store_ok(store);
	if ((unsigned)kind >= STORE_CLOCK_OTHER)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "bad clock event kind %d", (int)kind);
	if (note != NULL && strlen(note) > CLOCK_EVENT_NOTE_MAX)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "a clock event's note of %zu bytes (at "
				  "most %d)", strlen(note),
				  CLOCK_EVENT_NOTE_MAX);
	st = store_stmt_bind(store, sql, error_r, STORE_INT(game_id),
			     STORE_INT(now),
			     STORE_TEXT(clock_kind_names[kind]),
			     STORE_ID(player_id), STORE_INT(seconds),
			     STORE_TEXT(note), STORE_ID(inbound_id));
	return store_run_found(store, st, "recording a clock event",
			       "game", game_id, error_r);
}

static void clock_event_read(sqlite3_stmt *st, void *elem)
{
	struct store_clock_event *e = elem;

	e->id = store_col_int64(st, 0);
	e->game_id = store_col_int64(st, 1);
	e->at = store_col_int64(st, 2);
	e->kind = clock_kind_read((const char *)sqlite3_column_text(st, 3));
	e->player_id = store_col_int64(st, 4);
	e->seconds = store_col_int64(st, 5);
	e->note = store_col_strdup(st, 6);
	e->inbound_id = store_col_int64(st, 7);
}

int store_clock_events(struct store *store, int64_t game_id,
		       struct store_clock_event **events_r, size_t *count_r,
		       const char **error_r)
{
	static const char sql[] =
		"SELECT id, game_id, at, kind, player_id, seconds, note, "
		"inbound_id FROM clock_events WHERE game_id = ?1 ORDER BY id";

	return store_rows(store, sql, events_r, count_r,
			  clock_event_read, store_clock_event_clear,
			  "loading a game's clock history", error_r,
			  STORE_INT(game_id));
}

/* ---- the timer -------------------------------------------------------- */

/* The heartbeat is one of the service's named values (store_club.c):
 * 0 from store_state_get when it never ran. */
int store_clock_heartbeat_get(struct store *store, int64_t *at_r,
			      const char **error_r)
{
	return store_state_get(store, HEARTBEAT_KEY, at_r, error_r);
}

int store_clock_heartbeat_set(struct store *store, int64_t at,
			      const char **error_r)
{
	return store_state_set(store, HEARTBEAT_KEY, at, error_r);
}

int store_games_next_deadline(struct store *store, int64_t *at_r,
			      const char **error_r)
{
	/* "deadline_at IS NOT NULL" lets the partial index games_deadline
	 * answer. */
	static const char sql[] =
		"SELECT deadline_at FROM games WHERE deadline_at IS NOT NULL "
		"AND status = 'active' ORDER BY deadline_at LIMIT 1";
	sqlite3_stmt *st;

	store_ok(store);
	*at_r = 0;
	st = store_stmt(store, sql, error_r);
	return store_query_int64(store, st, at_r,
				 "finding the next deadline", error_r);
}

int store_games_reminder_due(struct store *store, int64_t before,
			     size_t limit, struct store_game **games_r,
			     size_t *count_r, const char **error_r)
{
	static const char sql[] =
		"SELECT " STORE_GAME_COLUMNS " FROM games WHERE remind_at "
		"IS NOT NULL AND remind_at <= ?1 AND status = 'active' "
		"ORDER BY remind_at, id LIMIT ?2";

	return store_games_query(store, sql, before, limit, games_r, count_r,
				 "listing reminders due", error_r);
}
