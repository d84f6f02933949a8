/* tournament_log.c -- an event's log as text: building it, writing it,
 * reading it back; see tournament_log.h.  The lines are documented in
 * docs/tournaments.md ("The log as text"). */
#include <config.h> /* autoconf's: _GNU_SOURCE */

#include "server/tournament_log.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/record2.h"
#include "util/buf.h"
#include "util/xalloc.h"
#include "util/xstr.h"

/* Copy s into out (room for max + 1), cut at max bytes, every control
 * character made repl. */
static void clean_copy(char *out, const char *s, size_t max, char repl)
{
	size_t i;

	for (i = 0; s[i] != '\0' && i < max; i++)
		out[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? repl :
			 s[i];
	out[i] = '\0';
}

void tournament_log_init(struct tournament_log *log, const char *event,
			 const struct tournament_rules *rules)
{
	memset(log, 0, sizeof(*log));
	clean_copy(log->event, event, TOURNAMENT_LOG_NAME_MAX, '?');
	log->rules = *rules;
}

void tournament_log_free(struct tournament_log *log)
{
	size_t i;

	for (i = 0; i < log->nentries; i++)
		free(log->notes[i]);
	free(log->players);
	free(log->games);
	free(log->games_by_id);
	free(log->entries);
	free(log->by);
	free(log->notes);
	memset(log, 0, sizeof(*log));
}

void tournament_log_add_player(struct tournament_log *log, int64_t id,
			       const char *name)
{
	struct tournament_log_player *p = NULL;
	size_t i;

	for (i = 0; i < log->nplayers && p == NULL; i++)
		if (log->players[i].id == id)
			p = &log->players[i];
	if (p == NULL) {
		if (log->nplayers == log->players_cap) {
			log->players_cap = log->players_cap == 0 ? 16 :
					   2 * log->players_cap;
			log->players = xrealloc(log->players, log->players_cap *
						sizeof(*log->players));
		}
		p = &log->players[log->nplayers++];
		p->id = id;
	}
	clean_copy(p->name, name, TOURNAMENT_LOG_NAME_MAX, '?');
}

void tournament_log_add(struct tournament_log *log,
			const struct tournament_entry *e,
			enum tournament_by by, const char *note)
{
	size_t n = log->nentries;
	char *copy = NULL;

	if (n == log->entries_cap) {
		log->entries_cap = n == 0 ? 64 : 2 * n;
		log->entries = xrealloc(log->entries, log->entries_cap *
					sizeof(*log->entries));
		log->by = xrealloc(log->by, log->entries_cap *
				   sizeof(*log->by));
		log->notes = xrealloc(log->notes, log->entries_cap *
				      sizeof(*log->notes));
	}
	if (note != NULL && note[0] != '\0') {
		copy = xzalloc(TOURNAMENT_LOG_NOTE_MAX + 1);
		clean_copy(copy, note, TOURNAMENT_LOG_NOTE_MAX, ' ');
	}
	log->entries[n] = *e;
	log->by[n] = by;
	log->notes[n] = copy;
	log->nentries++;
}

void tournament_log_add_game(struct tournament_log *log, int64_t number,
			     int64_t game_id)
{
	if (log->ngames == log->games_cap) {
		log->games_cap = log->games_cap == 0 ? 16 : 2 * log->games_cap;
		log->games = xrealloc(log->games, log->games_cap *
				      sizeof(*log->games));
	}
	log->games[log->ngames].number = number;
	log->games[log->ngames++].game_id = game_id;
	log->indexed = false;
}

static int link_number_cmp(const void *a, const void *b)
{
	const struct tournament_log_game *x = a, *y = b;

	return x->number < y->number ? -1 : x->number > y->number;
}

/* A link's game id and its place among the links sorted by number. */
struct link_id {
	int64_t id;
	size_t index;
};

static int link_id_cmp(const void *a, const void *b)
{
	const struct link_id *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

int tournament_log_index(struct tournament_log *log)
{
	struct tournament_log_game *sorted;
	struct link_id *ids;
	size_t i, n = log->ngames;
	int ret = -1;

	sorted = xzalloc((n + 1) * sizeof(*sorted));
	ids = xzalloc((n + 1) * sizeof(*ids));
	if (n > 0)
		memcpy(sorted, log->games, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), link_number_cmp);
	for (i = 0; i < n; i++) {
		ids[i].id = sorted[i].game_id;
		ids[i].index = i;
	}
	qsort(ids, n, sizeof(*ids), link_id_cmp);
	for (i = 1; i < n; i++)
		if (sorted[i].number == sorted[i - 1].number ||
		    ids[i].id == ids[i - 1].id)
			goto out;
	if (n > 0)
		memcpy(log->games, sorted, n * sizeof(*sorted));
	free(log->games_by_id);
	log->games_by_id = xzalloc((n + 1) * sizeof(*log->games_by_id));
	for (i = 0; i < n; i++)
		log->games_by_id[i] = ids[i].index;
	log->indexed = true;
	ret = 0;
out:
	free(sorted);
	free(ids);
	return ret;
}

int64_t tournament_log_game_id(const struct tournament_log *log,
			       int64_t number)
{
	size_t lo = 0, hi = log->ngames, mid, i;

	if (!log->indexed) {
		for (i = 0; i < log->ngames; i++)
			if (log->games[i].number == number)
				return log->games[i].game_id;
		return 0;
	}
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (log->games[mid].number < number)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < log->ngames && log->games[lo].number == number ?
	       log->games[lo].game_id : 0;
}

int64_t tournament_log_game_number(const struct tournament_log *log,
				   int64_t game_id)
{
	size_t lo = 0, hi = log->ngames, mid, i;

	if (!log->indexed) {
		for (i = 0; i < log->ngames; i++)
			if (log->games[i].game_id == game_id)
				return log->games[i].number;
		return 0;
	}
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (log->games[log->games_by_id[mid]].game_id < game_id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < log->ngames &&
	       log->games[log->games_by_id[lo]].game_id == game_id ?
	       log->games[log->games_by_id[lo]].number : 0;
}

const char *tournament_log_name(const struct tournament_log *log,
				int64_t id)
{
	size_t i;

	for (i = 0; i < log->nplayers; i++)
		if (log->players[i].id == id)
			return log->players[i].name;
	return NULL;
}

const char *tournament_by_name(enum tournament_by by)
{
	return by == TOURNAMENT_BY_DAEMON ? "daemon" :
	       by == TOURNAMENT_BY_OPERATOR ? "operator" :
	       by == TOURNAMENT_BY_MAIL ? "mail" : "";
}

/* --- Writing --- */

void tournament_log_entry_line(const struct tournament_log *log, size_t i,
			       struct buf *out)
{
	const struct tournament_entry *e = &log->entries[i];
	char when[RECORD2_TIME_LEN + 1];

	buf_printf(out, "%s %s", record2_time_format(e->at < 0 ? 0 : e->at,
						     when),
		   tournament_kind_name(e->kind));
	switch (e->kind) {
	case TOURNAMENT_JOIN:
		buf_printf(out, " player=%" PRId64 " rating=%d", e->player,
			   e->rating);
		break;
	case TOURNAMENT_LEAVE:
	case TOURNAMENT_WITHDRAW:
	case TOURNAMENT_BYE:
		buf_printf(out, " round=%d player=%" PRId64, e->round,
			   e->player);
		break;
	case TOURNAMENT_PAIRING:
		buf_printf(out, " round=%d game=%" PRId64 " white=%" PRId64
			   " black=%" PRId64, e->round, e->game, e->player,
			   e->other);
		break;
	case TOURNAMENT_RESULT:
	case TOURNAMENT_ADJUDICATION:
		buf_printf(out, " game=%" PRId64 " white=%" PRId64
			   " black=%" PRId64 " outcome=%s", e->game, e->player,
			   e->other, tournament_outcome_name(e->outcome));
		break;
	}
	if (log->by[i] != TOURNAMENT_BY_NONE)
		buf_printf(out, " by=%s", tournament_by_name(log->by[i]));
	if (log->notes[i] != NULL)
		buf_printf(out, " note=%s", log->notes[i]);
}

void tournament_log_format(const struct tournament_log *log,
			   struct buf *out)
{
	const struct tournament_rules *r = &log->rules;
	size_t i;

	buf_printf(out, "%s %d\n", TOURNAMENT_LOG_MAGIC,
		   TOURNAMENT_LOG_VERSION);
	buf_printf(out, "event %s\n", log->event);
	buf_printf(out, "format %s\n", tournament_format_name(r->format));
	buf_printf(out, "rounds %d\n", r->rounds);
	buf_printf(out, "double %s\n", r->twice ? "yes" : "no");
	buf_printf(out, "bye_points %d\n", r->bye_points);
	buf_puts(out, "tiebreaks");
	for (i = 0; i < r->ntiebreaks; i++)
		buf_printf(out, " %s", tournament_tiebreak_name(r->tiebreaks[i]));
	buf_putc(out, '\n');
	for (i = 0; i < log->nplayers; i++)
		buf_printf(out, "player %" PRId64 " %s\n", log->players[i].id,
			   log->players[i].name);
	for (i = 0; i < log->ngames; i++)
		buf_printf(out, "game %" PRId64 " %" PRId64 "\n",
			   log->games[i].number, log->games[i].game_id);
	for (i = 0; i < log->nentries; i++) {
		tournament_log_entry_line(log, i, out);
		buf_putc(out, '\n');
	}
}

/* --- Reading --- */

/* A whole number in [min, max] from s[0..n): 0 and *v, or -1. */
static int read_number(const char *s, size_t n, int64_t min, int64_t max,
		       int64_t *v)
{
	int64_t x = 0;
	size_t i = 0;
	bool neg = n > 0 && s[0] == '-';

	if (neg)
		i++;
	if (i == n || n - i > 18)
		return -1;
	for (; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		x = x * 10 + (s[i] - '0');
	}
	if (neg)
		x = -x;
	if (x < min || x > max)
		return -1;
	*v = x;
	return 0;
}

/* The fields an entry line may have, as bits. */
enum field {
	F_ROUND = 1 << 0,
	F_PLAYER = 1 << 1,
	F_GAME = 1 << 2,
	F_WHITE = 1 << 3,
	F_BLACK = 1 << 4,
	F_OUTCOME = 1 << 5,
	F_RATING = 1 << 6,
	F_BY = 1 << 7,
	F_NOTE = 1 << 8,
};

/* The fields each kind must have, and those it may have besides (who
 * recorded it and a note: any kind). */
static unsigned kind_fields(enum tournament_entry_kind k, unsigned *may)
{
	*may = F_BY | F_NOTE;
	switch (k) {
	case TOURNAMENT_JOIN:
		return F_PLAYER | F_RATING;
	case TOURNAMENT_LEAVE:
	case TOURNAMENT_BYE:
		return F_ROUND | F_PLAYER;
	case TOURNAMENT_WITHDRAW:
		return F_ROUND | F_PLAYER;
	case TOURNAMENT_PAIRING:
		return F_ROUND | F_GAME | F_WHITE | F_BLACK;
	case TOURNAMENT_RESULT:
		return F_GAME | F_WHITE | F_BLACK | F_OUTCOME;
	case TOURNAMENT_ADJUDICATION:
		return F_GAME | F_WHITE | F_BLACK | F_OUTCOME;
	}
	return 0;
}

/* One entry line s[0..n) into log: NULL, or what is wrong. */
static const char *parse_entry(struct tournament_log *log, const char *s,
			       size_t n)
{
	struct tournament_entry e = { .kind = TOURNAMENT_JOIN };
	enum tournament_by by = TOURNAMENT_BY_NONE;
	const char *end = s + n, *w, *eq, *note = NULL;
	char word[32];
	unsigned seen = 0, need, may, bit;
	int64_t v;
	size_t len;

	/* the time, then the kind */
	w = memchr(s, ' ', n);
	if (w == NULL || record2_time_parse(s, (size_t)(w - s), &e.at) < 0)
		return "an entry begins with its time, YYYY-MM-DDTHH:MM:SSZ";
	s = w + 1;
	w = memchr(s, ' ', (size_t)(end - s));
	len = (size_t)((w != NULL ? w : end) - s);
	if (len >= sizeof(word))
		return "not an entry kind";
	memcpy(word, s, len);
	word[len] = '\0';
	if (tournament_kind_parse(word, &e.kind) < 0)
		return "not an entry kind";
	need = kind_fields(e.kind, &may);
	s = w != NULL ? w + 1 : end;
	while (s < end) {
		w = memchr(s, ' ', (size_t)(end - s));
		eq = memchr(s, '=', (size_t)((w != NULL ? w : end) - s));
		if (eq == NULL || eq == s || (size_t)(eq - s) >= sizeof(word))
			return "a field is NAME=VALUE";
		memcpy(word, s, (size_t)(eq - s));
		word[eq - s] = '\0';
		if (strcmp(word, "note") == 0) { /* the rest of the line */
			note = eq + 1;
			len = (size_t)(end - note);
			if (len == 0 || len > TOURNAMENT_LOG_NOTE_MAX)
				return "a note is 1 to 400 bytes";
			bit = F_NOTE;
			w = NULL;
		} else {
			len = (size_t)((w != NULL ? w : end) - (eq + 1));
			bit = strcmp(word, "round") == 0 ? F_ROUND :
			      strcmp(word, "player") == 0 ? F_PLAYER :
			      strcmp(word, "game") == 0 ? F_GAME :
			      strcmp(word, "white") == 0 ? F_WHITE :
			      strcmp(word, "black") == 0 ? F_BLACK :
			      strcmp(word, "outcome") == 0 ? F_OUTCOME :
			      strcmp(word, "rating") == 0 ? F_RATING :
			      strcmp(word, "by") == 0 ? F_BY : 0;
		}
		if (bit == 0 || !((need | may) & bit))
			return "a field this kind of entry does not have";
		if (seen & bit)
			return "a field given twice";
		seen |= bit;
		if (bit == F_OUTCOME || bit == F_BY) {
			if (len >= sizeof(word))
				return "not an outcome or a decider";
			memcpy(word, eq + 1, len);
			word[len] = '\0';
			if (bit == F_BY) {
				by = strcmp(word, "daemon") == 0 ?
				     TOURNAMENT_BY_DAEMON :
				     strcmp(word, "operator") == 0 ?
				     TOURNAMENT_BY_OPERATOR :
				     strcmp(word, "mail") == 0 ?
				     TOURNAMENT_BY_MAIL : TOURNAMENT_BY_NONE;
				if (by == TOURNAMENT_BY_NONE)
					return "by= is mail, daemon or operator";
			} else if (tournament_outcome_parse(word,
							    &e.outcome) < 0 ||
				   e.outcome == TOURNAMENT_UNFINISHED) {
				return "outcome= is white, black or draw";
			}
		} else if (bit != F_NOTE) {
			if (read_number(eq + 1, len, bit == F_RATING ? -99999 :
					bit == F_ROUND ? 0 : 1,
					bit == F_RATING ? 99999 :
					bit == F_ROUND ? TOURNAMENT_MAX_ROUNDS :
					INT64_MAX / 2, &v) < 0)
				return "a number out of range";
			if (bit == F_ROUND)
				e.round = (int)v;
			else if (bit == F_RATING)
				e.rating = (int)v;
			else if (bit == F_GAME)
				e.game = v;
			else if (bit == F_BLACK)
				e.other = v;
			else
				e.player = v; /* player=, white= */
		}
		s = w != NULL ? w + 1 : end;
	}
	if ((seen & need) != need)
		return "a field of this kind of entry is missing";
	if (note != NULL) {
		char *copy = xzalloc((size_t)(end - note) + 1);
		memcpy(copy, note, (size_t)(end - note));
		tournament_log_add(log, &e, by, copy);
		free(copy);
	} else {
		tournament_log_add(log, &e, by, NULL);
	}
	return NULL;
}

/* A header line (word, then the rest s[0..n)) into log: NULL, or what
 * is wrong. */
static const char *parse_header(struct tournament_log *log,
				const char *word, const char *s, size_t n,
				unsigned *seen)
{
	struct tournament_rules *r = &log->rules;
	char value[TOURNAMENT_LOG_NAME_MAX + 1];
	const char *sp;
	int64_t v;
	unsigned bit;

	bit = strcmp(word, "event") == 0 ? 1 : strcmp(word, "format") == 0 ?
	      2 : strcmp(word, "rounds") == 0 ? 4 :
	      strcmp(word, "double") == 0 ? 8 :
	      strcmp(word, "bye_points") == 0 ? 16 :
	      strcmp(word, "tiebreaks") == 0 ? 32 : 0;
	if (bit != 0 && (*seen & bit))
		return "a header line given twice";
	*seen |= bit;
	if (strcmp(word, "game") == 0) { /* NUMBER GAME-ID */
		int64_t id;
		sp = memchr(s, ' ', n);
		if (sp == NULL || read_number(s, (size_t)(sp - s), 1,
					      INT64_MAX / 2, &v) < 0 ||
		    read_number(sp + 1, n - (size_t)(sp + 1 - s), 1,
				INT64_MAX / 2, &id) < 0)
			return "game NUMBER GAME-ID";
		if (log->ngames >= TOURNAMENT_MAX_ENTRIES)
			return "too many games";
		tournament_log_add_game(log, v, id);
		return NULL;
	}
	if (strcmp(word, "player") == 0) {
		sp = memchr(s, ' ', n);
		if (sp == NULL || read_number(s, (size_t)(sp - s), 1,
					      INT64_MAX / 2, &v) < 0 ||
		    n - (size_t)(sp + 1 - s) == 0 ||
		    n - (size_t)(sp + 1 - s) > TOURNAMENT_LOG_NAME_MAX)
			return "player ID NAME (a name of 1 to 64 bytes)";
		if (tournament_log_name(log, v) != NULL)
			return "a player named twice";
		if (log->nplayers >= TOURNAMENT_MAX_PLAYERS * 4)
			return "too many players";
		memcpy(value, sp + 1, n - (size_t)(sp + 1 - s));
		value[n - (size_t)(sp + 1 - s)] = '\0';
		tournament_log_add_player(log, v, value);
		return NULL;
	}
	if (bit == 0)
		return "not a header line nor an entry";
	if (bit == 32) { /* the tie-breaks, blank-separated, maybe none */
		r->ntiebreaks = 0;
		while (n > 0) {
			sp = memchr(s, ' ', n);
			size_t len = sp != NULL ? (size_t)(sp - s) : n;
			if (len >= sizeof(value) ||
			    r->ntiebreaks == TOURNAMENT_MAX_TIEBREAKS)
				return "not a list of tie-breaks";
			memcpy(value, s, len);
			value[len] = '\0';
			if (tournament_tiebreak_parse(value,
				&r->tiebreaks[r->ntiebreaks++]) < 0)
				return "not a tie-break";
			n -= len + (sp != NULL);
			s += len + (sp != NULL);
		}
		return NULL;
	}
	if (n == 0 || n > TOURNAMENT_LOG_NAME_MAX)
		return "a header value is 1 to 64 bytes";
	memcpy(value, s, n);
	value[n] = '\0';
	switch (bit) {
	case 1:
		snprintf(log->event, sizeof(log->event), "%s", value);
		return NULL;
	case 2:
		return tournament_format_parse(value, &r->format) < 0 ?
		       "format is swiss, roundrobin or knockout" : NULL;
	case 4:
		if (read_number(s, n, 1, TOURNAMENT_MAX_ROUNDS, &v) < 0)
			return "rounds out of range";
		r->rounds = (int)v;
		return NULL;
	case 8:
		if (strcmp(value, "yes") != 0 && strcmp(value, "no") != 0)
			return "double is yes or no";
		r->twice = value[0] == 'y';
		return NULL;
	default:
		if (read_number(s, n, 0, TOURNAMENT_WIN, &v) < 0)
			return "bye_points out of range";
		r->bye_points = (int)v;
		return NULL;
	}
}

int tournament_log_parse(const char *text, size_t len,
			 struct tournament_log *log,
			 struct tournament_log_fault *fault_r)
{
	struct tournament_rules none;
	struct tournament_fault rf;
	const char *s, *nl, *what = NULL, *sp;
	char word[16], first[32];
	size_t i = 0, n, line = 0, k;
	unsigned seen = 0;

	memset(&none, 0, sizeof(none));
	tournament_log_init(log, "", &none);
	if (fault_r != NULL)
		memset(fault_r, 0, sizeof(*fault_r));
	snprintf(first, sizeof(first), "%s %d", TOURNAMENT_LOG_MAGIC,
		 TOURNAMENT_LOG_VERSION);
	while (i < len && what == NULL) {
		s = text + i;
		nl = memchr(s, '\n', len - i);
		n = nl != NULL ? (size_t)(nl - s) : len - i;
		i += n + (nl != NULL);
		line++;
		if (n > TOURNAMENT_LOG_LINE_MAX) {
			what = "a line longer than 1024 bytes";
			break;
		}
		for (k = 0; k < n && what == NULL; k++)
			if ((unsigned char)s[k] < 0x20 || s[k] == 0x7f)
				what = "a control character";
		if (what != NULL)
			break;
		if (line == 1) {
			if (n != strlen(first) || memcmp(s, first, n) != 0)
				what = "the first line is not "
				       "\"ashes-event-log 1\"";
			continue;
		}
		if (n > 0 && s[0] >= '0' && s[0] <= '9') {
			if (log->nentries >= TOURNAMENT_MAX_ENTRIES)
				what = "more than 200000 entries";
			else
				what = parse_entry(log, s, n);
			continue;
		}
		sp = memchr(s, ' ', n);
		k = sp != NULL ? (size_t)(sp - s) : n;
		if (k == 0 || k >= sizeof(word)) {
			what = "not a header line nor an entry";
			continue;
		}
		memcpy(word, s, k);
		word[k] = '\0';
		what = parse_header(log, word, sp != NULL ? sp + 1 : s + n,
				    sp != NULL ? n - k - 1 : 0, &seen);
	}
	if (what == NULL && line == 0)
		what = "empty";
	if (what == NULL && tournament_log_index(log) < 0) {
		what = "a game linked twice";
		line = 0;
	}
	if (what == NULL && (seen & 0x3f) != 0x3f) {
		what = "a header line is missing (event, format, rounds, "
		       "double, bye_points, tiebreaks)";
		line = 0;
	}
	if (what == NULL && tournament_rules_check(&log->rules, &rf) < 0) {
		what = "rules out of range";
		line = 0;
	}
	if (what != NULL) {
		if (fault_r != NULL) {
			fault_r->line = line;
			fault_r->what = what;
		}
		tournament_log_free(log);
		return -1;
	}
	return 0;
}
