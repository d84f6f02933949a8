/* test_archive_event.c -- the recomputation of an event archive's verify
 * (archive_event_check, archive_event.h) on logs built in memory: a log
 * whose results agree with the games' verified records and whose
 * standings and crosstable are what the replay gives passes; each
 * forgery is named -- a result changed in the log, a standings line
 * changed, a game's archive missing or not verified, a game archive of
 * no pairing, players swapped, a record with a result the log lacks, a
 * log that does not read or replay -- and an adjudication is shown as
 * having no game record to agree with.  The MANIFEST and the games'
 * signatures are test_archive_event.sh's, on a real export. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/archive_event.h"
#include "server/tournament.h"
#include "server/tournament_log.h"
#include "util/buf.h"
#include "../check_run.h"

#define T0 1764669600

/* What an event archive holds, as texts, and its games as verified. */
struct event_files {
	struct buf log, standings, crosstable;
	struct archive_event_game games[8];
	size_t ngames;
};

/* Four players, two rounds; game numbers 1-4 are stored games 101-104,
 * game 4 adjudicated by the operator. */
static void make_event(struct event_files *f)
{
	static const char *names[] = { "alice", "bob", "carol", "dave" };
	static const struct { int round; int64_t w, b; int o; } games[] = {
		{ 1, 1, 3, TOURNAMENT_WHITE_WINS },
		{ 1, 2, 4, TOURNAMENT_DRAWN },
		{ 2, 4, 1, TOURNAMENT_BLACK_WINS },
		{ 2, 3, 2, TOURNAMENT_DRAWN },
	};
	static const char *results[] = { "1-0", "1/2-1/2", "0-1", "*" };
	struct tournament_rules rules;
	struct tournament_log log;
	struct tournament_state *s = NULL;
	struct tournament_fault fault;
	struct tournament_entry e;
	int64_t i;

	memset(f, 0, sizeof(*f));
	tournament_rules_default(TOURNAMENT_SWISS, &rules);
	rules.rounds = 2;
	tournament_log_init(&log, "autumn", &rules);
	for (i = 1; i <= 4; i++) {
		tournament_log_add_player(&log, i, names[i - 1]);
		e = (struct tournament_entry){ .kind = TOURNAMENT_JOIN,
			.at = T0, .player = i, .rating = 2000 - (int)i };
		tournament_log_add(&log, &e, TOURNAMENT_BY_MAIL, NULL);
	}
	for (i = 0; i < 4; i++) {
		tournament_log_add_game(&log, i + 1, 101 + i);
		e = (struct tournament_entry){ .kind = TOURNAMENT_PAIRING,
			.at = T0, .round = games[i].round, .game = i + 1,
			.player = games[i].w, .other = games[i].b };
		tournament_log_add(&log, &e, TOURNAMENT_BY_DAEMON, NULL);
		e.kind = i == 3 ? TOURNAMENT_ADJUDICATION : TOURNAMENT_RESULT;
		e.round = 0;
		e.outcome = (enum tournament_outcome)games[i].o;
		tournament_log_add(&log, &e, i == 3 ? TOURNAMENT_BY_OPERATOR :
				   TOURNAMENT_BY_DAEMON,
				   i == 3 ? "no moves for a month" : NULL);
		f->games[i].game = 101 + i;
		f->games[i].verified = true;
		snprintf(f->games[i].result, sizeof(f->games[i].result), "%s",
			 results[i]);
		snprintf(f->games[i].white, sizeof(f->games[i].white), "%s",
			 names[games[i].w - 1]);
		snprintf(f->games[i].black, sizeof(f->games[i].black), "%s",
			 names[games[i].b - 1]);
	}
	f->ngames = 4;
	tournament_log_format(&log, &f->log);
	ck_assert_int_eq(tournament_replay(log.entries, log.nentries,
					   &log.rules, &s, &fault), 0);
	tournament_standings_text(&log, s, &f->standings);
	tournament_crosstable_text(&log, s, &f->crosstable);
	tournament_state_free(&s);
	tournament_log_free(&log);
}

static void free_event(struct event_files *f)
{
	buf_free(&f->log);
	buf_free(&f->standings);
	buf_free(&f->crosstable);
}

/* Check f: the discrepancies, and what was said into *said (freed by
 * the caller). */
static size_t check(const struct event_files *f, char **said)
{
	size_t len = 0, n;
	FILE *out = open_memstream(said, &len);

	ck_assert_ptr_nonnull(out);
	n = archive_event_check(f->log.data, f->log.len, f->standings.data,
				f->standings.len, f->crosstable.data,
				f->crosstable.len, f->games, f->ngames, out);
	fclose(out);
	if (getenv("SHOW") != NULL)
		fprintf(stderr, "%s----\n", *said);
	return n;
}

/* Replace the first from in b by to. */
static void edit(struct buf *b, const char *from, const char *to)
{
	char *at = strstr(b->data, from), *copy;

	ck_assert_msg(at != NULL, "no %s in %s", from, b->data);
	copy = malloc(b->len + strlen(to) + 1);
	memcpy(copy, b->data, (size_t)(at - b->data));
	strcpy(copy + (at - b->data), to);
	strcat(copy, at + strlen(from));
	buf_reset(b);
	buf_puts(b, copy);
	free(copy);
}

START_TEST(event_agrees)
{
	struct event_files f;
	char *said = NULL;

	make_event(&f);
	ck_assert_uint_eq(check(&f, &said), 0);
	ck_assert_ptr_null(strstr(said, "DISCREPANCY"));
	ck_assert_ptr_nonnull(strstr(said, "event autumn: swiss, 12 entries, "
				     "4 players, 2 round(s) paired, 4 game(s)"));
	ck_assert_ptr_nonnull(strstr(said, "game 101: 1-0 (White alice, Black "
				     "carol), as its verified record\n"));
	ck_assert_ptr_nonnull(strstr(said, "game 104: adjudicated 1/2-1/2 "
		"(White carol, Black bob) by operator, note: no moves for a "
		"month: no game record to agree with; its record stands at *\n"));
	ck_assert_ptr_nonnull(strstr(said, "standings.txt: 5 lines, as the "
				     "log replayed gives them\n"));
	ck_assert_ptr_nonnull(strstr(said, "crosstable.txt: 5 lines"));
	free(said);
	free_event(&f);
}
END_TEST

/* A result in the log changed (and the standings made to match it):
 * the game's verified record disagrees. */
START_TEST(event_result_forged)
{
	struct event_files f;
	char *said = NULL;

	make_event(&f);
	edit(&f.log, "game=1 white=1 black=3 outcome=white",
	     "game=1 white=1 black=3 outcome=black");
	ck_assert_uint_ge(check(&f, &said), 1);
	ck_assert_ptr_nonnull(strstr(said, "DISCREPANCY: game 101: the log "
		"says 0-1 (White alice, Black carol), its verified record 1-0 "
		"(White alice, Black carol)\n"));
	/* the exported standings are the honest ones: the replay of the
	 * forged log disagrees with them too */
	ck_assert_ptr_nonnull(strstr(said, "DISCREPANCY: standings.txt:2 is "));
	free(said);
	free_event(&f);
}
END_TEST

START_TEST(event_standings_forged)
{
	struct event_files f;
	char *said = NULL;

	make_event(&f);
	edit(&f.standings, "carol (3)", "dave (4)!");
	ck_assert_uint_eq(check(&f, &said), 1);
	ck_assert_ptr_nonnull(strstr(said, "DISCREPANCY: standings.txt:4 is \""));
	ck_assert_ptr_nonnull(strstr(said, "dave (4)!\"; the log replayed "
				     "gives \""));
	free(said);
	free_event(&f);
	/* a forged line with a terminal's escape: said, escaped */
	free_event(&f);
	make_event(&f);
	edit(&f.standings, "carol (3)", "carol\x1b[2J (3)");
	ck_assert_uint_eq(check(&f, &said), 1);
	ck_assert_ptr_null(strchr(said, '\x1b'));
	ck_assert_ptr_nonnull(strstr(said, "carol\\x1b[2J (3)\"; the log "));
	free(said);
	free_event(&f);
	/* a line dropped at the end */
	free_event(&f);
	make_event(&f);
	f.crosstable.len -= 10;
	f.crosstable.data[f.crosstable.len] = '\0';
	ck_assert_uint_ge(check(&f, &said), 1);
	ck_assert_ptr_nonnull(strstr(said, "DISCREPANCY: crosstable.txt:5 is"));
	free(said);
	free_event(&f);
}
END_TEST

START_TEST(event_game_missing_or_unverified)
{
	struct event_files f;
	char *said = NULL;

	make_event(&f);
	f.games[1] = f.games[3];
	f.ngames = 3; /* game 2 (stored 102) gone */
	ck_assert_uint_eq(check(&f, &said), 1);
	ck_assert_ptr_nonnull(strstr(said, "DISCREPANCY: game 102: the log has "
		"its result 1/2-1/2 (White bob, Black dave) and the archive no "
		"game of it\n"));
	free(said);
	free_event(&f);
	make_event(&f);
	f.games[0].verified = false;
	f.games[0].reason = ARCHIVE_TAMPERED_MAIL;
	snprintf(f.games[0].why, sizeof(f.games[0].why), "tampered mail");
	ck_assert_uint_eq(check(&f, &said), 1);
	ck_assert_ptr_nonnull(strstr(said, "DISCREPANCY: game 101: its archive "
		"does not verify (tampered mail), so the log's result 1-0 is "
		"not proven\n"));
	free(said);
	/* the adjudicated game's archive ends with no signed end: its
	 * result is the adjudication's, said and not counted; another
	 * failure of its archive counts */
	free_event(&f);
	make_event(&f);
	f.games[3].verified = false;
	f.games[3].reason = ARCHIVE_RESULT_MISMATCH;
	snprintf(f.games[3].why, sizeof(f.games[3].why), "result mismatch: "
		 "the record ends by agreement");
	ck_assert_uint_eq(check(&f, &said), 0);
	ck_assert_ptr_nonnull(strstr(said, "game 104: its end is the log's "
		"adjudication, which no player signed (result mismatch: the "
		"record ends by agreement)\n"));
	free(said);
	f.ngames = 3; /* the adjudicated game's archive gone */
	ck_assert_uint_eq(check(&f, &said), 1);
	ck_assert_ptr_nonnull(strstr(said, "DISCREPANCY: game 104: the log "
				     "links it, and the archive has no game of "
				     "it\n"));
	free(said);
	f.ngames = 4;
	f.games[3].reason = ARCHIVE_TAMPERED_MAIL;
	snprintf(f.games[3].why, sizeof(f.games[3].why), "tampered mail");
	ck_assert_uint_eq(check(&f, &said), 1);
	ck_assert_ptr_nonnull(strstr(said, "DISCREPANCY: game 104: its archive "
				     "does not verify (tampered mail)\n"));
	free(said);
	free_event(&f);
}
END_TEST

START_TEST(event_games_foreign)
{
	struct event_files f;
	char *said = NULL;

	/* a game archive the log never paired */
	make_event(&f);
	f.games[4] = f.games[0];
	f.games[4].game = 999;
	f.ngames = 5;
	ck_assert_uint_eq(check(&f, &said), 1);
	ck_assert_ptr_nonnull(strstr(said, "DISCREPANCY: games/999: a game "
				     "the event's log never paired"));
	free(said);
	/* the players the other way round in the record */
	free_event(&f);
	make_event(&f);
	snprintf(f.games[2].white, sizeof(f.games[2].white), "alice");
	snprintf(f.games[2].black, sizeof(f.games[2].black), "dave");
	ck_assert_uint_eq(check(&f, &said), 1);
	ck_assert_ptr_nonnull(strstr(said, "DISCREPANCY: game 103: the log says "
		"0-1 (White dave, Black alice), its verified record 0-1 (White "
		"alice, Black dave)\n"));
	free(said);
	/* a record that ended while the log has no result of it */
	free_event(&f);
	make_event(&f);
	/* the last line, the adjudication, dropped */
	f.log.data[--f.log.len] = '\0';
	f.log.len = (size_t)(strrchr(f.log.data, '\n') + 1 - f.log.data);
	f.log.data[f.log.len] = '\0';
	snprintf(f.games[3].result, sizeof(f.games[3].result), "1-0");
	ck_assert_uint_ge(check(&f, &said), 1);
	ck_assert_ptr_nonnull(strstr(said, "DISCREPANCY: games/104: its "
		"verified record says 1-0 and the log has no result of it\n"));
	free(said);
	free_event(&f);
}
END_TEST

START_TEST(event_log_broken)
{
	struct event_files f;
	char *said = NULL;

	make_event(&f);
	edit(&f.log, "ashes-event-log 1", "ashes-event-log 9");
	ck_assert_uint_eq(check(&f, &said), 1);
	ck_assert_ptr_nonnull(strstr(said, "DISCREPANCY: log.txt:1 does not "
				     "read: the first line"));
	free(said);
	free_event(&f);
	/* a result of a game never paired */
	free_event(&f);
	make_event(&f);
	edit(&f.log, "result game=2 ", "result game=7 ");
	ck_assert_uint_eq(check(&f, &said), 1);
	ck_assert_ptr_nonnull(strstr(said, "DISCREPANCY: log.txt: entry 8 "
				     "does not replay: unknown_game"));
	free(said);
	free_event(&f);
}
END_TEST

/* A round robin of three, one withdrawn after round 1: their later game
 * is paired and never made (no archive, a forfeit); their finished game
 * stands (1 of 2 finished: half, not under it). */
START_TEST(event_roundrobin_forfeit)
{
	struct tournament_rules rules;
	struct tournament_log log;
	struct tournament_state *s = NULL;
	struct tournament_fault fault;
	struct tournament_entry e;
	struct event_files f;
	char *said = NULL;
	int64_t i;

	memset(&f, 0, sizeof(f));
	tournament_rules_default(TOURNAMENT_ROUNDROBIN, &rules);
	tournament_log_init(&log, "spring", &rules);
	for (i = 1; i <= 3; i++) {
		tournament_log_add_player(&log, i, i == 1 ? "ann" : i == 2 ?
					  "ben" : "cat");
		e = (struct tournament_entry){ .kind = TOURNAMENT_JOIN,
			.player = i, .rating = 1600 - (int)i };
		tournament_log_add(&log, &e, TOURNAMENT_BY_MAIL, NULL);
	}
	e = (struct tournament_entry){ .kind = TOURNAMENT_PAIRING,
		.round = 1, .game = 1, .player = 1, .other = 2 };
	tournament_log_add(&log, &e, TOURNAMENT_BY_DAEMON, NULL);
	tournament_log_add_game(&log, 1, 31);
	e = (struct tournament_entry){ .kind = TOURNAMENT_RESULT, .game = 1,
		.player = 1, .other = 2, .outcome = TOURNAMENT_BLACK_WINS };
	tournament_log_add(&log, &e, TOURNAMENT_BY_DAEMON, NULL);
	e = (struct tournament_entry){ .kind = TOURNAMENT_WITHDRAW,
		.round = 1, .player = 2 };
	tournament_log_add(&log, &e, TOURNAMENT_BY_OPERATOR, "ill");
	e = (struct tournament_entry){ .kind = TOURNAMENT_PAIRING,
		.round = 2, .game = 2, .player = 3, .other = 2 };
	tournament_log_add(&log, &e, TOURNAMENT_BY_DAEMON, NULL);
	tournament_log_format(&log, &f.log);
	ck_assert_int_eq(tournament_replay(log.entries, log.nentries,
					   &log.rules, &s, &fault), 0);
	tournament_standings_text(&log, s, &f.standings);
	tournament_crosstable_text(&log, s, &f.crosstable);
	f.games[0] = (struct archive_event_game){ .game = 31,
		.verified = true, .result = "0-1", .white = "ann",
		.black = "ben" };
	f.ngames = 1;
	ck_assert_uint_eq(check(&f, &said), 0);
	ck_assert_ptr_nonnull(strstr(said, "the event's game 2: never made, no "
				     "archive (a forfeit)\n"));
	ck_assert_ptr_nonnull(strstr(f.crosstable.data, "+F"));
	free(said);
	tournament_state_free(&s);
	tournament_log_free(&log);
	free_event(&f);
}
END_TEST

int main(void)
{
	return test_run(test_suite("archive_event", "check", NULL, NULL, 30,
		TESTS(event_agrees, event_result_forged,
		      event_standings_forged, event_game_missing_or_unverified,
		      event_games_foreign, event_log_broken,
		      event_roundrobin_forfeit)));
}
