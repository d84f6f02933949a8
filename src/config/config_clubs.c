/* config_clubs.c -- the named sections of ashesd.conf, [ladder NAME] and
 * [league NAME]: their key tables, a section begun by its header, the
 * values they take from [game], the checks of each, printing and freeing;
 * see club_config.h.
 *
 * A section's struct starts with a struct config_club, so what both kinds
 * share (name, members, variant, clock) is handled once, and the rest by
 * the same key types as every other key (config_keys.c).  A key of theirs
 * that [game] also has takes [game]'s value, after the whole file is
 * read, unless the section sets it: [game] may come after the section.
 */
#include <config.h> /* autoconf's: _GNU_SOURCE */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config_private.h"
#include "server/tournament.h"
#include "util/xalloc.h"
#include "util/xstr.h"

#define DAY CONFIG_DAY
#define HOUR CONFIG_HOUR

/* The keys both kinds have, in the order --check-config prints them.
 * The variant's, clock and weekends are [game]'s by default (their def
 * here is only the core option's key, as for [game]). */
#define CLUB_KEYS(sec, type)                                                 \
	{ sec, "members", KT_MEMBERS, offsetof(type, club.members), "",       \
	  NULL, 0, 0 },                                                       \
	{ sec, "open", KT_BOOL, offsetof(type, club.open), "no", NULL, 0, 0 }, \
	{ sec, "size", KT_VARIANT, offsetof(type, club.variant), "size",      \
	  NULL, 0, 0 },                                                       \
	{ sec, "swap", KT_VARIANT, offsetof(type, club.variant), "swap",      \
	  NULL, 0, 0 },                                                       \
	{ sec, "tax", KT_VARIANT, offsetof(type, club.variant), "tax",        \
	  NULL, 0, 0 },                                                       \
	{ sec, "draw_offers", KT_VARIANT, offsetof(type, club.variant),       \
	  "draw", NULL, 0, 0 },                                               \
	{ sec, "clock", KT_CLOCK, offsetof(type, club.clock), NULL, NULL,     \
	  0, 0 },                                                             \
	{ sec, "weekends", KT_BOOL, offsetof(type, club.weekends), NULL,      \
	  NULL, 0, 0 },                                                       \
	{ sec, "rated", KT_BOOL, offsetof(type, club.rated), "yes", NULL,     \
	  0, 0 }

#define LADDER(field) offsetof(struct config_ladder, field)
#define LEAGUE(field) offsetof(struct config_league, field)
#define TOURNAMENT(field) offsetof(struct config_tournament, field)

static const struct config_key ladder_keys[] = {
	CLUB_KEYS("ladder", struct config_ladder),
	/* places above one's own, or a percentage of the members */
	{ "ladder", "challenge_range", KT_PLACES, LADDER(challenge_range), "3",
	  NULL, 1, 1000 },
	{ "ladder", "max_out", KT_UINT, LADDER(max_out), "2", NULL, 1, 100 },
	{ "ladder", "max_in", KT_UINT, LADDER(max_in), "2", NULL, 1, 100 },
	{ "ladder", "rematch_wait", KT_DURATION, LADDER(rematch_wait_ms), "7d",
	  NULL, 0, 365 * DAY },
	{ "ladder", "accept_within", KT_DURATION, LADDER(accept_within_ms), "7d",
	  NULL, HOUR, 60 * DAY },
	{ "ladder", "time_loss_drop", KT_UINT, LADDER(time_loss_drop), "1", NULL,
	  0, 1000 },
	{ "ladder", "absence_withdraw", KT_DURATION_OR_NEVER,
	  LADDER(absence_withdraw_ms), "30d", NULL, DAY, 3650 * DAY },
	{ "ladder", "standings_mail", KT_BOOL, LADDER(standings_mail), "yes",
	  NULL, 0, 0 },
};

static const struct config_key league_keys[] = {
	CLUB_KEYS("league", struct config_league),
	/* a group smaller than 2 plays no game */
	{ "league", "group_size", KT_UINT, LEAGUE(group_size), "10", NULL, 2, 50 },
	/* required: no default */
	{ "league", "season_start", KT_DATE, LEAGUE(season_start), NULL, NULL,
	  0, 0 },
	{ "league", "season_length", KT_DURATION, LEAGUE(season_length_ms),
	  "90d", NULL, 7 * DAY, 730 * DAY },
	/* and each at most group_size / 2 (config_clubs_check) */
	{ "league", "promote", KT_UINT, LEAGUE(promote), "2", NULL, 0, 25 },
	{ "league", "relegate", KT_UINT, LEAGUE(relegate), "2", NULL, 0, 25 },
};

static const struct config_name tournament_formats[] = {
	{ "swiss", TOURNAMENT_SWISS, false },
	{ "roundrobin", TOURNAMENT_ROUNDROBIN, false },
	{ "knockout", TOURNAMENT_KNOCKOUT, false },
	{ NULL, 0, false },
};
/* In half points, as the event counts them. */
static const struct config_name tournament_byes[] = {
	{ "0", 0, false }, { "0.5", 1, false }, { "1", 2, false },
	{ NULL, 0, false },
};

static const struct config_key tournament_keys[] = {
	CLUB_KEYS("tournament", struct config_tournament),
	{ "tournament", "format", KT_ENUM, TOURNAMENT(format), "swiss",
	  tournament_formats, 0, 0 },
	{ "tournament", "rounds", KT_UINT, TOURNAMENT(rounds), "5", NULL, 1,
	  TOURNAMENT_MAX_ROUNDS },
	{ "tournament", "double", KT_BOOL, TOURNAMENT(twice), "no", NULL, 0, 0 },
	/* optional: no default, 0 = until start (config_clubs_check) */
	{ "tournament", "signup_until", KT_DATE, TOURNAMENT(signup_until), NULL,
	  NULL, 0, 0 },
	/* required: no default */
	{ "tournament", "start", KT_DATE, TOURNAMENT(start), NULL, NULL, 0, 0 },
	{ "tournament", "max_players", KT_UINT, TOURNAMENT(max_players), "256",
	  NULL, 2, TOURNAMENT_MAX_PLAYERS },
	{ "tournament", "round_deadline", KT_DURATION_OR_NEVER,
	  TOURNAMENT(round_deadline_ms), "0", NULL, HOUR, 365 * DAY },
	{ "tournament", "bye_points", KT_ENUM, TOURNAMENT(bye_points), "1",
	  tournament_byes, 0, 0 },
	/* read by tournament_tiebreak_parse (config_clubs_check) */
	{ "tournament", "tiebreaks", KT_STRING, TOURNAMENT(tiebreaks_text), NULL,
	  NULL, 0, 0 },
	{ "tournament", "standings_mail", KT_BOOL, TOURNAMENT(standings_mail),
	  "yes", NULL, 0, 0 },
};

#define NKEYS(keys) (sizeof(keys) / sizeof((keys)[0]))
_Static_assert(NKEYS(ladder_keys) <= CONFIG_CLUB_KEYS_MAX &&
	       NKEYS(league_keys) <= CONFIG_CLUB_KEYS_MAX &&
	       NKEYS(tournament_keys) <= CONFIG_CLUB_KEYS_MAX,
	       "raise CONFIG_CLUB_KEYS_MAX");
_Static_assert(offsetof(struct config_ladder, club) == 0 &&
	       offsetof(struct config_league, club) == 0 &&
	       offsetof(struct config_tournament, club) == 0,
	       "a section's struct starts with its struct config_club");
_Static_assert(CONFIG_TIEBREAKS_MAX == TOURNAMENT_MAX_TIEBREAKS,
	       "the config's tie-breaks are the event's");

const struct config_club_kind config_club_kinds[CONFIG_CLUB_KINDS] = {
	[CONFIG_CLUB_LADDER] = {
		"ladder", ladder_keys, NKEYS(ladder_keys),
		sizeof(struct config_ladder),
		offsetof(struct config, ladders),
		offsetof(struct config, nladders),
	},
	[CONFIG_CLUB_LEAGUE] = {
		"league", league_keys, NKEYS(league_keys),
		sizeof(struct config_league),
		offsetof(struct config, leagues),
		offsetof(struct config, nleagues),
	},
	[CONFIG_CLUB_TOURNAMENT] = {
		"tournament", tournament_keys, NKEYS(tournament_keys),
		sizeof(struct config_tournament),
		offsetof(struct config, tournaments),
		offsetof(struct config, ntournaments),
	},
};

/* The longest NAME of [ladder NAME]. */
#define CLUB_NAME_MAX 32

/* ---------------------------------------------------------------- access */

static size_t *club_count(const struct config *cfg,
			  const struct config_club_kind *kind)
{
	return (size_t *)((char *)cfg + kind->count_offset);
}

static void **club_list(const struct config *cfg,
			const struct config_club_kind *kind)
{
	return (void **)((char *)cfg + kind->list_offset);
}

/* The i-th section of kind: its struct, which starts with its club. */
static struct config_club *club_at(const struct config *cfg,
				   const struct config_club_kind *kind,
				   size_t i)
{
	return (struct config_club *)((char *)*club_list(cfg, kind) +
				      i * kind->size);
}

/* The section of any kind called name, or NULL; *kind_r its kind. */
static const struct config_club *club_find(const struct config *cfg,
					   const char *name,
					   const struct config_club_kind **kind_r)
{
	for (size_t k = 0; k < CONFIG_CLUB_KINDS; k++) {
		const struct config_club_kind *kind = &config_club_kinds[k];

		for (size_t i = 0; i < *club_count(cfg, kind); i++) {
			const struct config_club *club = club_at(cfg, kind, i);

			if (strcmp(club->name, name) == 0) {
				*kind_r = kind;
				return club;
			}
		}
	}
	return NULL;
}

const struct config_ladder *config_ladder_find(const struct config *cfg,
					       const char *name)
{
	for (size_t i = 0; i < cfg->nladders; i++)
		if (strcmp(cfg->ladders[i].club.name, name) == 0)
			return &cfg->ladders[i];
	return NULL;
}

const struct config_league *config_league_find(const struct config *cfg,
					       const char *name)
{
	for (size_t i = 0; i < cfg->nleagues; i++)
		if (strcmp(cfg->leagues[i].club.name, name) == 0)
			return &cfg->leagues[i];
	return NULL;
}

const struct config_tournament *
config_tournament_find(const struct config *cfg, const char *name)
{
	for (size_t i = 0; i < cfg->ntournaments; i++)
		if (strcmp(cfg->tournaments[i].club.name, name) == 0)
			return &cfg->tournaments[i];
	return NULL;
}

/* A key that [game] has too: [game]'s value unless the section sets it. */
static ptrdiff_t club_game_key(const struct config_key *k)
{
	return config_key_find("game", k->key);
}

/* ---------------------------------------------------------------- reading */

static bool club_name_ok(const char *name)
{
	size_t len = strlen(name);

	return len >= 1 && len <= CLUB_NAME_MAX &&
	       strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_-") == len;
}

bool config_club_begin(struct config_parse *ps, const char *kind_name,
		       const char *name, unsigned line,
		       struct config_cursor *cur)
{
	const struct config_club_kind *kind = NULL, *other;
	const struct config_club *taken;
	struct config_club *club;
	size_t k, *count;

	for (k = 0; k < CONFIG_CLUB_KINDS; k++) {
		if (strcmp(config_club_kinds[k].section, kind_name) == 0) {
			kind = &config_club_kinds[k];
			break;
		}
	}
	if (kind == NULL)
		return false;
	/* Until the header is taken, its keys are skipped (reported once,
	 * here). */
	cur->ok = false;
	cur->kind = -1;
	if (*name == '\0') {
		config_error(ps->errors, ps->file, line,
			     "[%s] needs a name: [%s NAME]", kind_name, kind_name);
		return true;
	}
	if (!club_name_ok(name)) {
		config_error(ps->errors, ps->file, line,
			     "[%s %s]: \"%s\" is not a %s name (1 to %d of a-z, "
			     "0-9, '_' and '-')", kind_name, name, name,
			     kind_name, CLUB_NAME_MAX);
		return true;
	}
	taken = club_find(ps->cfg, name, &other);
	if (taken != NULL && other == kind) {
		config_error(ps->errors, ps->file, line,
			     "[%s %s] is defined twice (first on line %u)",
			     kind_name, name, taken->line);
		return true;
	}
	if (taken != NULL) {
		config_error(ps->errors, ps->file, line,
			     "[%s %s]: the name %s is taken by [%s %s] (line "
			     "%u): a ladder, a league and a tournament may not "
			     "share a name",
			     kind_name, name, name, other->section, name,
			     taken->line);
		return true;
	}
	count = club_count(ps->cfg, kind);
	*club_list(ps->cfg, kind) = xrealloc(*club_list(ps->cfg, kind),
					     (*count + 1) * kind->size);
	ps->club_lines[k] = xrealloc(ps->club_lines[k], (*count + 1) *
				     sizeof(*ps->club_lines[k]));
	memset(&ps->club_lines[k][*count], 0, sizeof(*ps->club_lines[k]));
	club = club_at(ps->cfg, kind, *count);
	memset(club, 0, kind->size);
	club->name = xstrdup(name);
	club->file = xstrdup(ps->file);
	club->line = line;
	/* The section's own defaults now; [game]'s once the file is read. */
	for (size_t i = 0; i < kind->nkeys; i++) {
		const struct config_key *key = &kind->keys[i];
		struct buf msg = BUF_INIT;

		if (key->def != NULL && club_game_key(key) < 0 &&
		    config_set_field(key, (char *)club + key->offset, key->def,
				     &msg) < 0)
			config_error(ps->errors, "(built-in default)", 0, "%s",
				     buf_str(&msg));
		buf_free(&msg);
	}
	cur->ok = true;
	cur->kind = (int)k;
	cur->index = (*count)++;
	snprintf(cur->section, sizeof(cur->section), "%s %s", kind_name, name);
	return true;
}

const struct config_key *config_club_key(struct config_parse *ps,
					 const struct config_cursor *cur,
					 const char *key, void **field_r,
					 unsigned **line_r, bool **refused_r)
{
	const struct config_club_kind *kind = &config_club_kinds[cur->kind];
	struct config_club_lines *lines = &ps->club_lines[cur->kind][cur->index];

	for (size_t i = 0; i < kind->nkeys; i++) {
		if (strcmp(kind->keys[i].key, key) == 0) {
			*field_r = (char *)club_at(ps->cfg, kind, cur->index) +
				kind->keys[i].offset;
			*line_r = &lines->keys[i];
			*refused_r = &lines->refused[i];
			return &kind->keys[i];
		}
	}
	return NULL;
}

void config_club_lines_free(struct config_parse *ps)
{
	for (size_t k = 0; k < CONFIG_CLUB_KINDS; k++) {
		free(ps->club_lines[k]);
		ps->club_lines[k] = NULL;
	}
}

/* ---------------------------------------------------------------- checks */

/* Index of key in kind's table (it is there: a bug otherwise). */
static size_t club_key_index(const struct config_club_kind *kind,
			     const char *key)
{
	for (size_t i = 0; i < kind->nkeys; i++)
		if (strcmp(kind->keys[i].key, key) == 0)
			return i;
	abort();
}

/* The line of key in a section, or the section's own when it is unset. */
static unsigned club_line(const struct config_club *club,
			  const struct config_club_kind *kind,
			  const struct config_club_lines *lines,
			  const char *key)
{
	unsigned line = lines->keys[club_key_index(kind, key)];

	return line != 0 ? line : club->line;
}

/* [game]'s value for each key of the section that [game] has and the
 * section does not set, read as the section's own would be. */
static void club_inherit(struct config_parse *ps, struct config_club *club,
			 const struct config_club_kind *kind,
			 const struct config_club_lines *lines)
{
	for (size_t i = 0; i < kind->nkeys; i++) {
		const struct config_key *key = &kind->keys[i];
		ptrdiff_t gi = club_game_key(key);
		struct buf value = BUF_INIT, msg = BUF_INIT;

		if (gi < 0 || lines->keys[i] != 0)
			continue;
		config_dump_value(&config_keys[gi],
				  (char *)ps->cfg + config_keys[gi].offset, &value);
		if (config_set_field(key, (char *)club + key->offset,
				     buf_str(&value), &msg) < 0)
			/* not reached: [game]'s values are the same type */
			config_error(ps->errors, ps->file, club->line, "%s",
				     buf_str(&msg));
		buf_free(&value);
		buf_free(&msg);
	}
}

/* promote and relegate, each at most half a group: so together they never
 * take more than the whole group. */
static void league_check(struct config_parse *ps,
			 const struct config_league *league,
			 const struct config_club_lines *lines)
{
	const struct config_club_kind *kind = &config_club_kinds[CONFIG_CLUB_LEAGUE];
	static const char *const keys[] = { "promote", "relegate" };
	unsigned values[] = { league->promote, league->relegate };
	size_t size_key = club_key_index(kind, "group_size");

	if (lines->refused[size_key])
		return;
	for (size_t i = 0; i < 2; i++) {
		size_t ki = club_key_index(kind, keys[i]);

		if (lines->refused[ki] || values[i] <= league->group_size / 2)
			continue;
		config_error(ps->errors, ps->file,
			     lines->keys[ki] != 0 ? lines->keys[ki]
			     : club_line(&league->club, kind, lines, "group_size"),
			     "[league %s] %s (%u) is more than half of "
			     "group_size (%u): at most %u", league->club.name,
			     keys[i], values[i], league->group_size,
			     league->group_size / 2);
	}
}

/* The key's line if it was set and taken, else 0. */
static unsigned club_key_line(const struct config_club_kind *kind,
			      const struct config_club_lines *lines,
			      const char *key)
{
	size_t i = club_key_index(kind, key);

	return lines->refused[i] ? 0 : lines->keys[i];
}

/* tiebreaks read by the event's own parser (each word once), the
 * format's defaults when unset; signup_until not after start; rounds
 * only for a Swiss, double only for a round robin. */
static void tournament_check(struct config_parse *ps,
			     struct config_tournament *t,
			     const struct config_club_lines *lines)
{
	const struct config_club_kind *kind =
		&config_club_kinds[CONFIG_CLUB_TOURNAMENT];
	const char *name = t->club.name;
	struct tournament_rules rules;
	unsigned line;

	tournament_rules_default((enum tournament_format)t->format, &rules);
	t->ntiebreaks = 0;
	if (t->tiebreaks_text == NULL) {
		for (size_t i = 0; i < rules.ntiebreaks; i++)
			t->tiebreaks[t->ntiebreaks++] = (int)rules.tiebreaks[i];
	} else {
		char *copy = xstrdup(t->tiebreaks_text), *save = NULL;

		line = club_line(&t->club, kind, lines, "tiebreaks");
		for (char *w = strtok_r(copy, ", \t", &save); w != NULL;
		     w = strtok_r(NULL, ", \t", &save)) {
			enum tournament_tiebreak tb;
			bool twice = false;

			if (tournament_tiebreak_parse(w, &tb) < 0) {
				config_error(ps->errors, ps->file, line,
					     "[tournament %s] tiebreaks: \"%s\" "
					     "is not a tie-break (buchholz, "
					     "buchholz_cut1, sonneborn_berger, "
					     "direct, wins, rating)", name, w);
				continue;
			}
			for (size_t i = 0; i < t->ntiebreaks; i++)
				twice = twice || t->tiebreaks[i] == (int)tb;
			if (twice) {
				config_error(ps->errors, ps->file, line,
					     "[tournament %s] tiebreaks: %s is "
					     "named twice", name, w);
				continue;
			}
			/* 6 words, none twice, are all there are */
			t->tiebreaks[t->ntiebreaks++] = (int)tb;
		}
		free(copy);
	}
	if (t->signup_until != 0 && t->start != 0 &&
	    t->signup_until > t->start &&
	    club_key_line(kind, lines, "start") != 0 &&
	    (line = club_key_line(kind, lines, "signup_until")) != 0)
		config_error(ps->errors, ps->file, line,
			     "[tournament %s] signup_until is after start: the "
			     "sign-up closes when the event starts at the "
			     "latest", name);
	/* (the default as --check-config prints it reads back) */
	if (t->format != TOURNAMENT_SWISS && t->rounds != (unsigned)rules.rounds &&
	    (line = club_key_line(kind, lines, "rounds")) != 0)
		config_error(ps->errors, ps->file, line,
			     "[tournament %s] rounds is for format = swiss (a "
			     "%s has as many rounds as its field needs)", name,
			     tournament_format_name(
				     (enum tournament_format)t->format));
	if (t->format != TOURNAMENT_ROUNDROBIN && t->twice &&
	    (line = club_key_line(kind, lines, "double")) != 0)
		config_error(ps->errors, ps->file, line,
			     "[tournament %s] double is for format = "
			     "roundrobin", name);
	if (t->club.members.count > t->max_players &&
	    club_key_line(kind, lines, "members") != 0)
		config_error(ps->errors, ps->file,
			     club_line(&t->club, kind, lines, "max_players"),
			     "[tournament %s] lists %zu members, more than "
			     "max_players (%u)", name, t->club.members.count,
			     t->max_players);
}

void config_clubs_check(struct config_parse *ps)
{
	for (size_t k = 0; k < CONFIG_CLUB_KINDS; k++) {
		const struct config_club_kind *kind = &config_club_kinds[k];

		for (size_t i = 0; i < *club_count(ps->cfg, kind); i++) {
			struct config_club *club = club_at(ps->cfg, kind, i);
			const struct config_club_lines *lines = &ps->club_lines[k][i];
			size_t mi = club_key_index(kind, "members");
			size_t oi = club_key_index(kind, "open");

			club_inherit(ps, club, kind, lines);
			for (size_t j = 0; j < kind->nkeys; j++)
				if (kind->keys[j].def == NULL &&
				    club_game_key(&kind->keys[j]) < 0 &&
				    lines->keys[j] == 0 &&
				    kind->keys[j].type != KT_STRING &&
				    strcmp(kind->keys[j].key,
					   "signup_until") != 0)
					config_error(ps->errors, ps->file,
						     club->line,
						     "[%s %s] %s is required",
						     kind->section, club->name,
						     kind->keys[j].key);
			/* One member could play nobody; an open section fills
			 * by mail. */
			if (!club->open && club->members.count < 2 &&
			    !lines->refused[mi] && !lines->refused[oi])
				config_error(ps->errors, ps->file,
					     club_line(club, kind, lines,
						       "members"),
					     "[%s %s] has %zu member%s and open "
					     "= no: list at least 2 members, or "
					     "set open = yes", kind->section,
					     club->name, club->members.count,
					     club->members.count == 1 ? "" : "s");
			if (k == CONFIG_CLUB_LEAGUE)
				league_check(ps, (const struct config_league *)club,
					     lines);
			if (k == CONFIG_CLUB_TOURNAMENT)
				tournament_check(ps,
						 (struct config_tournament *)club,
						 lines);
		}
	}
}

/* ---------------------------------------------------------------- printing */

void config_clubs_dump(const struct config *cfg, struct buf *out)
{
	for (size_t k = 0; k < CONFIG_CLUB_KINDS; k++) {
		const struct config_club_kind *kind = &config_club_kinds[k];

		for (size_t i = 0; i < *club_count(cfg, kind); i++) {
			const struct config_club *club = club_at(cfg, kind, i);

			buf_printf(out, "\n[%s %s]\n", kind->section, club->name);
			for (size_t j = 0; j < kind->nkeys; j++)
				config_dump_key(&kind->keys[j],
						(const char *)club +
						kind->keys[j].offset, out);
		}
	}
}

void config_clubs_free(struct config *cfg)
{
	for (size_t k = 0; k < CONFIG_CLUB_KINDS; k++) {
		const struct config_club_kind *kind = &config_club_kinds[k];

		for (size_t i = 0; i < *club_count(cfg, kind); i++) {
			struct config_club *club = club_at(cfg, kind, i);

			free(club->name);
			free(club->file);
			config_members_free(&club->members);
			free(club->clock);
			if (k == CONFIG_CLUB_TOURNAMENT)
				free(((struct config_tournament *)club)
				     ->tiebreaks_text);
		}
		free(*club_list(cfg, kind));
		*club_list(cfg, kind) = NULL;
		*club_count(cfg, kind) = 0;
	}
}
