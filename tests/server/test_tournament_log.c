/* test_tournament_log.c -- an event's log as text (tournament_log.h):
 * every kind of entry written and read back to the same text and the
 * same standings, every refusal of the reader naming its line, and what
 * is shown of an event -- standings with each tie-break's value, a
 * round's pairings, the crosstable -- on a hand-computed event; then a
 * hundred seeded random events whose text read back replays to the same
 * standings. */
#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/tournament.h"
#include "server/tournament_log.h"
#include "util/buf.h"
#include "../check_run.h"
#include "event_test.h"

#define T0 1764669600 /* 2025-12-02T10:00:00Z */

/* Four players, two rounds, worked by hand in the standings test. */
static void small_event(struct tournament_log *log)
{
	static const char *names[] = { "alice", "bob", "carol", "dave" };
	struct tournament_rules rules;
	struct tournament_entry e;
	int64_t i;

	tournament_rules_default(TOURNAMENT_SWISS, &rules);
	rules.rounds = 2;
	tournament_log_init(log, "winter cup", &rules);
	for (i = 1; i <= 4; i++) {
		tournament_log_add_player(log, i, names[i - 1]);
		e = (struct tournament_entry){ .kind = TOURNAMENT_JOIN,
			.at = T0, .player = i, .rating = 2000 - (int)i };
		tournament_log_add(log, &e, TOURNAMENT_BY_NONE, NULL);
	}
#define PAIR(r, g, w, b) \
	e = (struct tournament_entry){ .kind = TOURNAMENT_PAIRING, \
		.at = T0 + 60 * (r), .round = (r), .game = (g), \
		.player = (w), .other = (b) }; \
	tournament_log_add(log, &e, TOURNAMENT_BY_NONE, NULL)
#define RESULT(k, g, w, b, o, by, note) \
	e = (struct tournament_entry){ .kind = (k), .at = T0 + 3600, \
		.game = (g), .player = (w), .other = (b), .outcome = (o) }; \
	tournament_log_add(log, &e, (by), (note))
	for (i = 11; i <= 13; i++)
		tournament_log_add_game(log, i, 100 + i);
	PAIR(1, 11, 1, 3);
	PAIR(1, 12, 2, 4);
	RESULT(TOURNAMENT_RESULT, 11, 1, 3, TOURNAMENT_WHITE_WINS,
	       TOURNAMENT_BY_NONE, NULL);
	RESULT(TOURNAMENT_RESULT, 12, 2, 4, TOURNAMENT_DRAWN,
	       TOURNAMENT_BY_NONE, NULL);
	PAIR(2, 13, 4, 1);
	PAIR(2, 14, 3, 2);
	RESULT(TOURNAMENT_RESULT, 13, 4, 1, TOURNAMENT_BLACK_WINS,
	       TOURNAMENT_BY_NONE, NULL);
	RESULT(TOURNAMENT_ADJUDICATION, 14, 3, 2, TOURNAMENT_DRAWN,
	       TOURNAMENT_BY_OPERATOR, "mail outage\nall week");
}

static struct tournament_state *replay_log(const struct tournament_log *log)
{
	struct tournament_state *s = NULL;
	struct tournament_fault f;

	if (tournament_replay(log->entries, log->nentries, &log->rules, &s,
			      &f) < 0)
		ck_abort_msg("replay: %s at %zu", tournament_error_name(f.error),
			     f.index);
	return s;
}

START_TEST(log_text_round_trip)
{
	struct tournament_log log, back;
	struct tournament_log_fault f;
	struct buf a = BUF_INIT, b = BUF_INIT;
	struct tournament_entry e;

	small_event(&log);
	e = (struct tournament_entry){ .kind = TOURNAMENT_BYE, .at = T0,
		.round = 2, .player = 4 };
	/* not a log the replay takes (4 plays in round 2): the text does
	 * not judge, it only carries */
	tournament_log_add(&log, &e, TOURNAMENT_BY_NONE, NULL);
	e = (struct tournament_entry){ .kind = TOURNAMENT_WITHDRAW, .at = T0,
		.round = 2, .player = 3 };
	tournament_log_add(&log, &e, TOURNAMENT_BY_NONE, "asked by phone");
	e = (struct tournament_entry){ .kind = TOURNAMENT_LEAVE, .at = T0,
		.round = 0, .player = 2 };
	tournament_log_add(&log, &e, TOURNAMENT_BY_NONE, NULL);
	tournament_log_format(&log, &a);
	ck_assert_ptr_nonnull(strstr(a.data,
		"\n2025-12-02T11:00:00Z adjudication game=14 white=3 "
		"black=2 outcome=draw by=operator note=mail outage all week\n"));
	ck_assert_ptr_nonnull(strstr(a.data,
		"\n2025-12-02T10:01:00Z pairing round=1 game=11 white=1 "
		"black=3\n"));
	ck_assert_ptr_nonnull(strstr(a.data, "\nplayer 3 carol\n"));
	ck_assert_ptr_nonnull(strstr(a.data, "\nplayer 4 dave\ngame 11 111\n"
				     "game 12 112\ngame 13 113\n2025-"));
	ck_assert_ptr_nonnull(strstr(a.data, "\ntiebreaks buchholz_cut1 "
				     "buchholz direct wins rating\n"));
	ck_assert_ptr_nonnull(strstr(a.data, " withdraw round=2 player=3 "
				     "note=asked by phone\n"));
	ck_assert_int_eq(strncmp(a.data, "ashes-event-log 1\nevent winter "
				 "cup\nformat swiss\nrounds 2\n", 46), 0);
	ck_assert_int_eq(tournament_log_parse(a.data, a.len, &back, &f), 0);
	ck_assert_uint_eq(back.nentries, log.nentries);
	ck_assert_str_eq(back.event, "winter cup");
	ck_assert_int_eq(back.by[11], TOURNAMENT_BY_OPERATOR);
	tournament_log_format(&back, &b);
	ck_assert_str_eq(a.data, b.data);
	ck_assert_int_eq(memcmp(back.entries, log.entries,
				log.nentries * sizeof(*log.entries)), 0);
	buf_free(&a);
	buf_free(&b);
	tournament_log_free(&log);
	tournament_log_free(&back);
}
END_TEST

/* The text of log with line `line` (1..) replaced by with. */
static void replaced(const char *text, size_t line, const char *with,
		     struct buf *out)
{
	const char *s = text, *nl;
	size_t k = 1;

	buf_reset(out);
	while (*s != '\0') {
		nl = strchr(s, '\n');
		if (k++ == line)
			buf_printf(out, "%s\n", with);
		else
			buf_append(out, s, (size_t)(nl - s) + 1);
		s = nl + 1;
	}
}

START_TEST(log_text_refusals)
{
	static const struct {
		size_t line;
		const char *with, *what;
	} cases[] = {
		{ 1, "ashes-event-log 2", "first line" },
		{ 3, "format ladder", "format is" },
		{ 4, "rounds 0", "rounds out of range" },
		{ 5, "double maybe", "double is" },
		{ 6, "bye_points 3", "bye_points out of range" },
		{ 7, "tiebreaks buchholz luck", "not a tie-break" },
		{ 7, "tiebreaks wins wins", "rules out of range" },
		{ 8, "player 1 alice\nplayer 1 eve", "named twice" },
		{ 8, "player x alice", "player ID NAME" },
		{ 12, "game 11 x", "game NUMBER GAME-ID" },
		{ 12, "game 12 111", "linked twice" },
		{ 9, "2025-12-02 join player=1 rating=1", "its time" },
		{ 9, "2025-12-02T10:00:00Z jump player=1", "entry kind" },
		{ 9, "2025-12-02T10:00:00Z join player=1", "is missing" },
		{ 9, "2025-12-02T10:00:00Z join player=1 rating=1 game=3",
		  "does not have" },
		{ 9, "2025-12-02T10:00:00Z join player=1 player=2 rating=1",
		  "given twice" },
		{ 9, "2025-12-02T10:00:00Z join player=0 rating=1",
		  "out of range" },
		{ 9, "2025-12-02T10:00:00Z join player=1x rating=1",
		  "out of range" },
		{ 9, "2025-12-02T10:00:00Z join player rating=1",
		  "NAME=VALUE" },
		{ 13, "2025-12-02T10:01:00Z pairing round=513 game=11 "
		  "white=1 black=3", "out of range" },
		{ 15, "2025-12-02T11:00:00Z result game=11 white=1 black=3 "
		  "outcome=unfinished", "outcome=" },
		{ 20, "2025-12-02T11:00:00Z adjudication game=14 white=3 "
		  "black=2 outcome=draw by=me", "by= is" },
		{ 9, "who knows", "not a header line" },
		{ 2, "event a\tb", "control character" },
	};
	struct tournament_log log, back;
	struct tournament_log_fault f;
	struct buf a = BUF_INIT, b = BUF_INIT;
	size_t i;

	small_event(&log);
	tournament_log_format(&log, &a);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		replaced(a.data, cases[i].line, cases[i].with, &b);
		ck_assert_msg(tournament_log_parse(b.data, b.len, &back,
						   &f) < 0, "case %zu read",
			      i);
		ck_assert_msg(strstr(f.what, cases[i].what) != NULL,
			      "case %zu: %s", i, f.what);
		ck_assert_msg(f.line == cases[i].line ||
			      (f.line == 0 && (cases[i].line == 7 ||
						 cases[i].line == 12)) ||
			      f.line == cases[i].line + 1, "case %zu: line %zu",
			      i, f.line);
		ck_assert_uint_eq(back.nentries, 0);
	}
	/* a header line missing; a line too long */
	replaced(a.data, 6, "", &b);
	ck_assert_int_lt(tournament_log_parse(b.data, b.len, &back, &f), 0);
	buf_reset(&b);
	buf_puts(&b, a.data);
	for (i = 0; i < 1100; i++)
		buf_putc(&b, 'x');
	ck_assert_int_lt(tournament_log_parse(b.data, b.len, &back, &f), 0);
	ck_assert_str_eq(f.what, "a line longer than 1024 bytes");
	ck_assert_int_lt(tournament_log_parse("", 0, &back, &f), 0);
	buf_free(&a);
	buf_free(&b);
	tournament_log_free(&log);
}
END_TEST

/* The small event by hand: alice 2 (beat carol, dave), bob 1 (two
 * draws, one adjudicated), carol and dave ½; Buchholz alice 1 (carol ½
 * + dave ½), bob 1, carol 3 (2 + 1), dave 3; cut one the lowest; carol
 * and dave equal on all but rating (they never met, so direct is 0). */
START_TEST(standings_text_by_hand)
{
	struct tournament_log log;
	struct tournament_state *s;
	struct buf out = BUF_INIT;

	small_event(&log);
	s = replay_log(&log);
	tournament_standings_text(&log, s, &out);
	ck_assert_str_eq(out.data,
"  rank  points  buchholz_cut1  buchholz  direct    wins  rating  status     player\n"
"     1       2            0.5         1       0       2    1999  in         alice (1)\n"
"     2       1            0.5         1       0       0    1998  in         bob (2)\n"
"     3     0.5              2         3       0       0    1997  in         carol (3)\n"
"     4     0.5              2         3       0       0    1996  in         dave (4)\n");
	buf_reset(&out);
	tournament_pairings_text(&log, s, 2, &out);
	ck_assert_str_eq(out.data,
"  board    game  white                     black                     result\n"
"      1     113  dave (4)                  alice (1)                 0-1\n"
"      2       -  carol (3)                 bob (2)                   1/2-1/2 (adjudicated)\n");
	buf_reset(&out);
	tournament_crosstable_text(&log, s, &out);
	ck_assert_str_eq(out.data,
"  rank  player                         r1        r2  points\n"
"     1  alice                         +3w       +4b       2\n"
"     2  bob                           =4w       =3b       1\n"
"     3  carol                         -1b       =2w     0.5\n"
"     4  dave                          =2b       -1w     0.5\n");
	buf_free(&out);
	tournament_state_free(&s);
	tournament_log_free(&log);
}
END_TEST

/* Sonneborn-Berger in quarter points, a withdrawal's forfeit, a bye and
 * a knockout's places, as the text shows them. */
START_TEST(standings_text_values)
{
	char buf[32];
	struct tournament_log log;
	struct tournament_state *s;
	struct tournament_entry e;
	struct buf out = BUF_INIT;

	ck_assert_str_eq(tournament_tiebreak_text(
		TOURNAMENT_TB_SONNEBORN_BERGER, 7, buf, sizeof(buf)), "1.75");
	ck_assert_str_eq(tournament_tiebreak_text(
		TOURNAMENT_TB_SONNEBORN_BERGER, 6, buf, sizeof(buf)), "1.5");
	ck_assert_str_eq(tournament_tiebreak_text(TOURNAMENT_TB_BUCHHOLZ, 5,
						  buf, sizeof(buf)), "2.5");
	ck_assert_str_eq(tournament_tiebreak_text(TOURNAMENT_TB_RATING, -5,
						  buf, sizeof(buf)), "-5");
	ck_assert_str_eq(tournament_points_text(-3, buf, sizeof(buf)),
			 "-1.5");
	small_event(&log);
	e = (struct tournament_entry){ .kind = TOURNAMENT_PAIRING, .at = T0,
		.round = 3, .game = 15, .player = 1, .other = 2 };
	tournament_log_add(&log, &e, TOURNAMENT_BY_NONE, NULL);
	e = (struct tournament_entry){ .kind = TOURNAMENT_BYE, .at = T0,
		.round = 3, .player = 3 };
	tournament_log_add(&log, &e, TOURNAMENT_BY_NONE, NULL);
	e = (struct tournament_entry){ .kind = TOURNAMENT_WITHDRAW, .at = T0,
		.round = 3, .player = 2 };
	tournament_log_add(&log, &e, TOURNAMENT_BY_NONE, "moved away");
	s = replay_log(&log);
	tournament_pairings_text(&log, s, 3, &out);
	ck_assert_ptr_nonnull(strstr(out.data, "  +:-\n"));
	ck_assert_ptr_nonnull(strstr(out.data, "\n      -     bye  carol (3)\n"));
	buf_reset(&out);
	tournament_crosstable_text(&log, s, &out);
	ck_assert_ptr_nonnull(strstr(out.data, "\n     1  alice                         "
				     "+2w       +4b        +F       3\n"));
	ck_assert_ptr_nonnull(strstr(out.data, "       bye     1.5\n"));
	ck_assert_ptr_nonnull(strstr(out.data, "        -F       1\n"));
	buf_reset(&out);
	tournament_standings_text(&log, s, &out);
	/* alice 3 after the forfeit; carol 1.5 with the bye */
	ck_assert_ptr_nonnull(strstr(out.data, "\n     1       3 "));
	ck_assert_ptr_nonnull(strstr(out.data, "withdrawn  bob (2)\n"));
	tournament_state_free(&s);
	tournament_log_free(&log);
	buf_free(&out);
}
END_TEST

START_TEST(standings_text_knockout)
{
	struct tournament_rules rules;
	struct tournament_log log;
	struct tournament_state *s;
	struct tournament_entry e;
	struct buf out = BUF_INIT;
	int64_t i, g = 0;

	tournament_rules_default(TOURNAMENT_KNOCKOUT, &rules);
	tournament_log_init(&log, "cup", &rules);
	for (i = 1; i <= 4; i++) {
		e = (struct tournament_entry){ .kind = TOURNAMENT_JOIN,
			.player = i, .rating = 2000 - (int)i };
		tournament_log_add(&log, &e, TOURNAMENT_BY_NONE, NULL);
	}
	/* round 1: 1-4 and 2-3, two games each, the higher seed wins
	 * both */
	for (i = 0; i < 4; i++) {
		int64_t hi = i < 2 ? 1 : 2, lo = i < 2 ? 4 : 3;
		int64_t w = i % 2 == 0 ? hi : lo, b = i % 2 == 0 ? lo : hi;
		e = (struct tournament_entry){ .kind = TOURNAMENT_PAIRING,
			.round = 1, .game = ++g, .player = w, .other = b };
		tournament_log_add(&log, &e, TOURNAMENT_BY_NONE, NULL);
		e.kind = TOURNAMENT_RESULT;
		e.round = 0;
		e.outcome = w == hi ? TOURNAMENT_WHITE_WINS :
			    TOURNAMENT_BLACK_WINS;
		tournament_log_add(&log, &e, TOURNAMENT_BY_NONE, NULL);
	}
	s = replay_log(&log);
	tournament_standings_text(&log, s, &out);
	ck_assert_ptr_nonnull(strstr(out.data, "  rank  place  points  "
				     "rating  status"));
	/* 3 and 4 out in the semi-finals: place 3; 1 and 2 still in, and
	 * first whatever their points */
	ck_assert_ptr_nonnull(strstr(out.data, "\n     1      -       2    1999"));
	ck_assert_ptr_nonnull(strstr(out.data, "\n     3      3       0    1997"));
	ck_assert_ptr_nonnull(strstr(out.data, "\n     4      3       0    1996"));
	tournament_state_free(&s);
	tournament_log_free(&log);
	buf_free(&out);
}
END_TEST

/* A knockout ranks by how far each went: the top seed, through on a
 * bye with no points, above the player a decider put out with 1. */
START_TEST(standings_text_knockout_order)
{
	static const struct { int64_t w, b; int o; } games[] = {
		{ 2, 3, TOURNAMENT_DRAWN },
		{ 3, 2, TOURNAMENT_DRAWN },
		{ 3, 2, TOURNAMENT_BLACK_WINS }, /* the decider: 2 goes on */
	};
	struct tournament_rules rules;
	struct tournament_log log;
	struct tournament_state *s;
	struct tournament_entry e;
	struct buf out = BUF_INIT;
	int64_t i;

	tournament_rules_default(TOURNAMENT_KNOCKOUT, &rules);
	tournament_log_init(&log, "cup", &rules);
	for (i = 1; i <= 3; i++) {
		e = (struct tournament_entry){ .kind = TOURNAMENT_JOIN,
			.player = i, .rating = 2000 - (int)i };
		tournament_log_add(&log, &e, TOURNAMENT_BY_NONE, NULL);
	}
	e = (struct tournament_entry){ .kind = TOURNAMENT_BYE, .round = 1,
		.player = 1 };
	tournament_log_add(&log, &e, TOURNAMENT_BY_NONE, NULL);
	for (i = 0; i < 3; i++) {
		e = (struct tournament_entry){ .kind = TOURNAMENT_PAIRING,
			.round = 1, .game = i + 1, .player = games[i].w,
			.other = games[i].b };
		tournament_log_add(&log, &e, TOURNAMENT_BY_NONE, NULL);
		e.kind = TOURNAMENT_RESULT;
		e.round = 0;
		e.outcome = (enum tournament_outcome)games[i].o;
		tournament_log_add(&log, &e, TOURNAMENT_BY_NONE, NULL);
	}
	s = replay_log(&log);
	tournament_standings_text(&log, s, &out);
	ck_assert_str_eq(out.data,
"  rank  place  points  rating  status     player\n"
"     1      -       2    1998  in         #2 (2)\n"
"     2      -       0    1999  in         #1 (1)\n"
"     3      3       1    1997  in         #3 (3)\n");
	buf_reset(&out);
	tournament_crosstable_text(&log, s, &out);
	/* a match's games one after another, the opponent's rank */
	ck_assert_ptr_nonnull(strstr(out.data, "\n     1  #2" "                       "
				     "=3w,=3b,+3b       2\n"));
	ck_assert_ptr_nonnull(strstr(out.data, "\n     2  #1" "                       "
				     "     bye       0\n"));
	tournament_state_free(&s);
	tournament_log_free(&log);
	buf_free(&out);
}
END_TEST

/* A random Swiss event of n players and rounds, every game ended, some
 * adjudicated with notes, a withdrawal. */
static void random_event(uint64_t seed, struct tournament_log *log)
{
	struct tournament_rules rules;
	struct tournament_entry e;
	size_t n = 4 + rng_below(&seed, 12), i;
	int rounds = 2 + (int)rng_below(&seed, 4), r;
	int64_t game = 100, id;
	char name[32];

	tournament_rules_default(TOURNAMENT_SWISS, &rules);
	rules.rounds = rounds;
	rules.bye_points = (int)rng_below(&seed, 3);
	tournament_log_init(log, "random", &rules);
	for (i = 1; i <= n; i++) {
		snprintf(name, sizeof(name), "player %zu", i);
		tournament_log_add_player(log, (int64_t)i, name);
		e = (struct tournament_entry){ .kind = TOURNAMENT_JOIN,
			.at = T0, .player = (int64_t)i,
			.rating = 1200 + (int)rng_below(&seed, 800) };
		tournament_log_add(log, &e, TOURNAMENT_BY_NONE, NULL);
	}
	for (r = 1; r <= rounds; r++) {
		/* pair 1..n in a shuffled order, odd one a bye */
		int64_t order[16];
		for (i = 0; i < n; i++)
			order[i] = (int64_t)i + 1;
		for (i = n - 1; i > 0; i--) {
			size_t j = rng_below(&seed, i + 1);
			id = order[i];
			order[i] = order[j];
			order[j] = id;
		}
		for (i = 0; i + 1 < n; i += 2) {
			e = (struct tournament_entry){ .kind =
				TOURNAMENT_PAIRING, .at = T0 + r, .round = r,
				.game = ++game, .player = order[i],
				.other = order[i + 1] };
			tournament_log_add(log, &e, TOURNAMENT_BY_NONE, NULL);
			e.kind = rng_below(&seed, 8) == 0 ?
				 TOURNAMENT_ADJUDICATION : TOURNAMENT_RESULT;
			e.round = 0;
			e.outcome = rng_outcome(&seed);
			tournament_log_add(log, &e,
					   e.kind == TOURNAMENT_RESULT ?
					   TOURNAMENT_BY_NONE :
					   TOURNAMENT_BY_DAEMON,
					   e.kind == TOURNAMENT_RESULT ? NULL :
					   "the round's deadline");
		}
		if (n % 2 == 1) {
			e = (struct tournament_entry){ .kind = TOURNAMENT_BYE,
				.at = T0 + r, .round = r,
				.player = order[n - 1] };
			tournament_log_add(log, &e, TOURNAMENT_BY_NONE, NULL);
		}
	}
}

START_TEST(random_events_read_back)
{
	uint64_t seed;

	for (seed = 1; seed <= 100; seed++) {
		struct tournament_log log, back;
		struct tournament_log_fault f;
		struct tournament_state *s, *t;
		struct buf a = BUF_INIT, b = BUF_INIT, sa = BUF_INIT,
			   sb = BUF_INIT;

		random_event(seed, &log);
		tournament_log_format(&log, &a);
		ck_assert_msg(tournament_log_parse(a.data, a.len, &back, &f) == 0,
			      "seed %llu: line %zu: %s",
			      (unsigned long long)seed, f.line, f.what);
		tournament_log_format(&back, &b);
		ck_assert_str_eq(a.data, b.data);
		s = replay_log(&log);
		t = replay_log(&back);
		tournament_standings_text(&log, s, &sa);
		tournament_standings_text(&back, t, &sb);
		ck_assert_str_eq(sa.data, sb.data);
		tournament_state_free(&s);
		tournament_state_free(&t);
		tournament_log_free(&log);
		tournament_log_free(&back);
		buf_free(&a);
		buf_free(&b);
		buf_free(&sa);
		buf_free(&sb);
	}
}
END_TEST

int main(void)
{
	return test_run(test_suite("tournament_log", "text", NULL, NULL, 60,
		TESTS(log_text_round_trip, log_text_refusals,
		      standings_text_by_hand, standings_text_values,
		      standings_text_knockout, standings_text_knockout_order,
		      random_events_read_back)));
}
