/* store_settings.c -- what each player chose with `set KEY VALUE` (the
 * table player_settings, sql/005, sql/008 and sql/009), the keys and
 * words they are written with, and the observer notices noted for the
 * daily digest (the table digest_items); see store.h.  The daily
 * summary's schedule and notes are store_summary.c's. */
#include "store/store_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <strings.h>

/* ---- the keys and their words ---------------------------------------- */

/* Each key's words, in the order of its enum (bools: "off", "on"); a
 * key without words (timezone) takes a name of its own shape. */
static const char *const picture_words[] = { "png", "svg", "none", NULL };
static const char *const moves_words[] = { "short", "full", "none", NULL };
static const char *const bool_words[] = { "off", "on", NULL };

static const struct {
	const char *name;
	const char *choices; /* as help and refusals list them */
	const char *const *words;
} setting_keys[STORE_SETTING_COUNT] = {
	[STORE_SETTING_CONFIRM] = { "confirm", "on|off", bool_words },
	[STORE_SETTING_PICTURES] = { "pictures", "png|svg|none",
				     picture_words },
	[STORE_SETTING_MOVES] = { "moves", "full|short|none", moves_words },
	[STORE_SETTING_DIGEST] = { "digest", "on|off", bool_words },
	[STORE_SETTING_REMINDERS] = { "reminders", "on|off", bool_words },
	[STORE_SETTING_TIMEZONE] = { "timezone",
				     "a zone such as Europe/Berlin, or UTC",
				     NULL },
	[STORE_SETTING_STANDINGS] = { "standings", "on|off", bool_words },
	[STORE_SETTING_SUMMARY] = { "summary", "off|daily HH:MM", NULL },
	/* The service words the choices from the languages it has. */
	[STORE_SETTING_LANGUAGE] = { "language", "a language such as de",
				     NULL },
};

/* The word of the language "" (the club's default). */
#define LANGUAGE_DEFAULT "default"

/* Whether s->language is a value to store: "" or 2-3 of a-z. */
static bool language_ok(const char *lang, size_t size)
{
	size_t n;

	if (memchr(lang, '\0', size) == NULL)
		return false;
	for (n = 0; lang[n] != '\0'; n++)
		if (lang[n] < 'a' || lang[n] > 'z')
			return false;
	return n == 0 || n == 2 || n == 3;
}

/* ---- summary: off, or daily HH:MM -------------------------------------- */

/* s->summary_word from s->summary_at. */
static void summary_word_set(struct store_settings *s)
{
	if (s->summary_at < 0 || s->summary_at >= 24 * 60)
		snprintf(s->summary_word, sizeof(s->summary_word), "off");
	else
		snprintf(s->summary_word, sizeof(s->summary_word),
			 "daily %02d:%02d", s->summary_at / 60,
			 s->summary_at % 60);
}

/* "off" -> -1, "daily HH:MM" (H or HH, 00:00 .. 23:59) -> minutes, else
 * -2. */
static int summary_parse(const char *v)
{
	int hh = 0, mm = 0, n = 0;

	if (strcasecmp(v, "off") == 0)
		return -1;
	if (strncasecmp(v, "daily ", 6) != 0)
		return -2;
	v += 6;
	while (*v >= '0' && *v <= '9' && n < 3)
		hh = hh * 10 + (*v++ - '0'), n++;
	if (n == 0 || n > 2 || *v++ != ':')
		return -2;
	for (n = 0; *v >= '0' && *v <= '9' && n < 3; n++)
		mm = mm * 10 + (*v++ - '0');
	if (n != 2 || *v != '\0' || hh > 23 || mm > 59)
		return -2;
	return hh * 60 + mm;
}

/* The word of the time zone "" (UTC), which any case of it sets. */
#define TIMEZONE_UTC "UTC"

/* Whether tz has the shape of a zone name: 1 .. STORE_TIMEZONE_MAX - 1
 * bytes of letters, digits and "/_+-", not starting with "/" and without
 * "..", so that it can only name a file under the zone directory.  The
 * CHECK of sql/008 keeps the same characters. */
static bool timezone_shape_ok(const char *tz)
{
	size_t n;

	if (tz[0] == '\0' || tz[0] == '/' || strstr(tz, "..") != NULL)
		return false;
	for (n = 0; tz[n] != '\0'; n++) {
		char c = tz[n];

		if (n >= STORE_TIMEZONE_MAX - 1)
			return false;
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || strchr("/_+-", c) != NULL))
			return false;
	}
	return true;
}

/* Whether s->timezone is a value to store: "" (UTC) or a zone name. */
static bool timezone_ok(const struct store_settings *s)
{
	if (memchr(s->timezone, '\0', sizeof(s->timezone)) == NULL)
		return false;
	return s->timezone[0] == '\0' || timezone_shape_ok(s->timezone);
}

void store_settings_default(struct store_settings *s_r)
{
	/* The rest off, empty or zero: no digest, no summary, and UTC (no
	 * timezone). */
	*s_r = (struct store_settings){
		.confirm = true,
		.picture = STORE_PICTURE_PNG,
		.moves = STORE_MOVES_SHORT,
		.reminders = true,
		.standings = true,
		.summary_at = -1,
	};
	summary_word_set(s_r);
}

const char *store_setting_name(enum store_setting_key key)
{
	return (unsigned)key < STORE_SETTING_COUNT ? setting_keys[key].name :
	       NULL;
}

const char *store_setting_choices(enum store_setting_key key)
{
	return (unsigned)key < STORE_SETTING_COUNT ?
	       setting_keys[key].choices : NULL;
}

/* The index of key's value in its word list. */
static int setting_index(const struct store_settings *s,
			 enum store_setting_key key)
{
	switch (key) {
	case STORE_SETTING_CONFIRM: return s->confirm ? 1 : 0;
	case STORE_SETTING_PICTURES: return (int)s->picture;
	case STORE_SETTING_MOVES: return (int)s->moves;
	case STORE_SETTING_DIGEST: return s->digest ? 1 : 0;
	case STORE_SETTING_REMINDERS: return s->reminders ? 1 : 0;
	case STORE_SETTING_STANDINGS: return s->standings ? 1 : 0;
	case STORE_SETTING_TIMEZONE:
	case STORE_SETTING_SUMMARY:
	case STORE_SETTING_LANGUAGE:
	case STORE_SETTING_COUNT: break;
	}
	return -1;
}

const char *store_setting_word(const struct store_settings *s,
			       enum store_setting_key key)
{
	int i;

	if (key == STORE_SETTING_TIMEZONE) {
		if (!timezone_ok(s))
			return NULL;
		return s->timezone[0] == '\0' ? TIMEZONE_UTC : s->timezone;
	}
	if (key == STORE_SETTING_LANGUAGE) {
		if (!language_ok(s->language, sizeof(s->language)))
			return NULL;
		return s->language[0] == '\0' ? LANGUAGE_DEFAULT : s->language;
	}
	if (key == STORE_SETTING_SUMMARY)
		return memchr(s->summary_word, '\0',
			      sizeof(s->summary_word)) != NULL ?
		       s->summary_word : NULL;
	i = setting_index(s, key);
	if (i < 0)
		return NULL;
	/* A value out of its enum's range has no word. */
	for (int k = 0; k <= i; k++)
		if (setting_keys[key].words[k] == NULL)
			return NULL;
	return setting_keys[key].words[i];
}

int store_setting_parse_key(const char *name, enum store_setting_key *key_r)
{
	if (name == NULL)
		return -1;
	for (int k = 0; k < STORE_SETTING_COUNT; k++)
		if (strcasecmp(name, setting_keys[k].name) == 0) {
			*key_r = (enum store_setting_key)k;
			return 0;
		}
	return -1;
}

int store_setting_parse_value(struct store_settings *s,
			      enum store_setting_key key, const char *value)
{
	int i;

	if ((unsigned)key >= STORE_SETTING_COUNT || value == NULL)
		return -1;
	if (key == STORE_SETTING_TIMEZONE) {
		/* A zone name keeps its case: zone files are named so. */
		if (strcasecmp(value, TIMEZONE_UTC) == 0)
			s->timezone[0] = '\0';
		else if (timezone_shape_ok(value))
			memcpy(s->timezone, value, strlen(value) + 1);
		else
			return -1;
		return 0;
	}
	if (key == STORE_SETTING_LANGUAGE) {
		char lang[STORE_LANGUAGE_MAX];
		size_t n = strlen(value);

		if (strcasecmp(value, LANGUAGE_DEFAULT) == 0) {
			s->language[0] = '\0';
			return 0;
		}
		if (n != 2 && n != 3)
			return -1;
		for (size_t k = 0; k <= n; k++)
			lang[k] = (char)tolower((unsigned char)value[k]);
		if (!language_ok(lang, sizeof(lang)))
			return -1;
		memcpy(s->language, lang, n + 1);
		return 0;
	}
	if (key == STORE_SETTING_SUMMARY) {
		int at = summary_parse(value);

		if (at < -1)
			return -1;
		s->summary_at = at;
		summary_word_set(s);
		return 0;
	}
	for (i = 0; setting_keys[key].words[i] != NULL; i++)
		if (strcasecmp(value, setting_keys[key].words[i]) == 0)
			break;
	if (setting_keys[key].words[i] == NULL)
		return -1;
	switch (key) {
	case STORE_SETTING_CONFIRM: s->confirm = i == 1; break;
	case STORE_SETTING_PICTURES: s->picture = (enum store_picture)i; break;
	case STORE_SETTING_MOVES: s->moves = (enum store_move_list)i; break;
	case STORE_SETTING_DIGEST: s->digest = i == 1; break;
	case STORE_SETTING_REMINDERS: s->reminders = i == 1; break;
	case STORE_SETTING_STANDINGS: s->standings = i == 1; break;
	case STORE_SETTING_TIMEZONE:
	case STORE_SETTING_SUMMARY:
	case STORE_SETTING_LANGUAGE:
	case STORE_SETTING_COUNT: return -1;
	}
	return 0;
}

/* ---- stored settings ------------------------------------------------- */

/* The word of a stored column, as its enum; -1 for one the CHECK of
 * sql/005 would not let in. */
static int word_index(const char *const *words, const unsigned char *text)
{
	if (text == NULL)
		return -1;
	for (int i = 0; words[i] != NULL; i++)
		if (strcmp((const char *)text, words[i]) == 0)
			return i;
	return -1;
}

int store_settings_get(struct store *store, int64_t player_id,
		       struct store_settings *s_r, const char **error_r)
{
	static const char sql[] =
		"SELECT confirm, pictures, moves, digest, reminders, timezone, "
		"standings, summary_at, language FROM player_settings "
		"WHERE player_id = ?1";
	const unsigned char *tz;
	sqlite3_stmt *st;
	int rc, pic, moves;

	store_ok(store);
	store_settings_default(s_r);
	if (player_id == 0)
		return 0;
	st = store_stmt_bind(store, sql, error_r, STORE_INT(player_id));
	rc = store_step_one(store, st, "loading a player's settings", error_r);
	if (rc <= 0)
		return rc;
	pic = word_index(picture_words, sqlite3_column_text(st, 1));
	moves = word_index(moves_words, sqlite3_column_text(st, 2));
	s_r->confirm = sqlite3_column_int(st, 0) != 0;
	s_r->digest = sqlite3_column_int(st, 3) != 0;
	s_r->reminders = sqlite3_column_int(st, 4) != 0;
	s_r->standings = sqlite3_column_int(st, 6) != 0;
	s_r->summary_at = sqlite3_column_int(st, 7);
	summary_word_set(s_r);
	/* The CHECK of sql/008 keeps it short enough; cut it all the same
	 * rather than write past the array. */
	tz = sqlite3_column_text(st, 5);
	if (tz != NULL && (size_t)sqlite3_column_bytes(st, 5) <
	    sizeof(s_r->timezone))
		memcpy(s_r->timezone, tz,
		       (size_t)sqlite3_column_bytes(st, 5) + 1);
	/* NNN-language.sql's CHECK keeps the shape; a longer value is not read. */
	if (sqlite3_column_text(st, 8) != NULL &&
	    (size_t)sqlite3_column_bytes(st, 8) < sizeof(s_r->language))
		memcpy(s_r->language, sqlite3_column_text(st, 8),
		       (size_t)sqlite3_column_bytes(st, 8) + 1);
	if (pic >= 0)
		s_r->picture = (enum store_picture)pic;
	if (moves >= 0)
		s_r->moves = (enum store_move_list)moves;
	store_stmt_done(st);
	return 0;
}

int store_settings_set(struct store *store, int64_t player_id,
		       const struct store_settings *s, int64_t now,
		       const char **error_r)
{
	static const char sql_exists[] = "SELECT 1 FROM players WHERE id = ?1";
	static const char sql[] =
		"INSERT INTO player_settings (player_id, confirm, pictures, "
		"moves, digest, reminders, timezone, standings, summary_at, "
		"language, updated) VALUES (?1, ?2, ?3, ?4, ?5, ?7, ?8, ?9, "
		"?10, ?11, ?6) "
		"ON CONFLICT (player_id) DO UPDATE SET confirm = ?2, "
		"pictures = ?3, moves = ?4, digest = ?5, reminders = ?7, "
		"timezone = ?8, standings = ?9, summary_at = ?10, language = ?11, "
		/* A new time or zone: the service works the next summary
		 * out anew (sql/014). */
		"summary_due = CASE WHEN summary_at = ?10 AND timezone = ?8 "
		"THEN summary_due ELSE 0 END, updated = ?6";
	const char *pic = store_setting_word(s, STORE_SETTING_PICTURES);
	const char *moves = store_setting_word(s, STORE_SETTING_MOVES);
	sqlite3_stmt *st;
	int rc;

	store_ok(store);
	if (pic == NULL || moves == NULL || s->summary_at < -1 ||
	    s->summary_at >= 24 * 60)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "settings out of range: pictures %d, moves "
				  "%d, summary %d", (int)s->picture,
				  (int)s->moves, s->summary_at);
	if (!timezone_ok(s))
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "not a time zone name: %.*s",
				  (int)sizeof(s->timezone), s->timezone);
	if (!language_ok(s->language, sizeof(s->language)))
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "not a language: %.*s",
				  (int)sizeof(s->language), s->language);
	st = store_stmt_bind(store, sql_exists, error_r, STORE_INT(player_id));
	rc = store_query_int64(store, st, NULL, "finding a player", error_r);
	if (rc < 0)
		return -1;
	if (rc == 0)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "no player %lld", (long long)player_id);
	st = store_stmt_bind(store, sql, error_r, STORE_INT(player_id),
			     STORE_INT(s->confirm ? 1 : 0), STORE_TEXT(pic),
			     STORE_TEXT(moves), STORE_INT(s->digest ? 1 : 0),
			     STORE_INT(now), STORE_INT(s->reminders ? 1 : 0),
			     STORE_TEXT(s->timezone),
			     STORE_INT(s->standings ? 1 : 0),
			     STORE_INT(s->summary_at), STORE_TEXT(s->language));
	return store_run(store, st, "saving a player's settings", error_r);
}

/* ---- the observers' digest ------------------------------------------- */

int store_digest_add(struct store *store, int64_t player_id, int64_t game_id,
		     int from_ply, int64_t now, const char **error_r)
{
	/* A change noted before keeps its time (the digest is due a day
	 * after the first change) and the earliest ply (nothing is lost
	 * when a later change starts earlier, as after a take-back). */
	static const char sql[] =
		"INSERT INTO digest_items (player_id, game_id, from_ply, created) "
		"VALUES (?1, ?2, ?3, ?4) ON CONFLICT (player_id, game_id) "
		"DO UPDATE SET from_ply = min(from_ply, excluded.from_ply)";
	sqlite3_stmt *st;

	store_ok(store);
	if (from_ply < 0)
		return store_fail(store, error_r, STORE_ERROR_USAGE,
				  "digest from ply %d", from_ply);
	st = store_stmt_bind(store, sql, error_r, STORE_INT(player_id),
			     STORE_INT(game_id), STORE_INT(from_ply),
			     STORE_INT(now));
	return store_run(store, st, "noting a change for a digest", error_r);
}

int store_digest_due(struct store *store, int64_t before, int64_t **ids_r,
		     size_t *count_r, const char **error_r)
{
	return store_ids(store, ids_r, count_r, "listing digests due", error_r,
			 "SELECT DISTINCT player_id FROM digest_items "
			 "WHERE created < ?1 ORDER BY player_id",
			 STORE_INT(before));
}

static void digest_item_read(sqlite3_stmt *st, void *elem)
{
	struct store_digest_item *it = elem;

	it->player_id = store_col_int64(st, 0);
	it->game_id = store_col_int64(st, 1);
	it->from_ply = sqlite3_column_int(st, 2);
	it->created = store_col_int64(st, 3);
}

int store_digest_items(struct store *store, int64_t player_id,
		       struct store_digest_item **items_r, size_t *count_r,
		       const char **error_r)
{
	static const char sql[] =
		"SELECT player_id, game_id, from_ply, created FROM digest_items "
		"WHERE player_id = ?1 ORDER BY game_id";

	return store_rows(store, sql, items_r, count_r,
			  digest_item_read, NULL,
			  "loading a digest", error_r, STORE_INT(player_id));
}

int store_digest_clear(struct store *store, int64_t player_id,
		       const char **error_r)
{
	static const char sql[] =
		"DELETE FROM digest_items WHERE player_id = ?1";

	return store_run_sql(store, store_run, sql, "clearing a digest",
			     error_r, STORE_INT(player_id));
}
