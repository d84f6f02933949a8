# src/server: the game service and the mail command language.  Knows the
# rules (core), text (render) and the store; nothing of IMAP or SMTP.
noinst_LIBRARIES += libashes_server.a
# The pipeline and the mail in hand: server.h's API, one mail in one
# transaction, its intake, the one reply, the bookkeeping of the mailbox.
libashes_server_a_SOURCES = src/server/server.h src/server/server.c \
	src/server/server_private.h src/server/intake.c src/server/reply.c \
	src/server/handle.c src/server/language.c src/server/mailbox.c \
	src/server/admin.c
# A mail as the mail layer read it, as the service takes it: linked only
# by what reads real mail (it needs libashes_mail.a).
libashes_server_a_SOURCES += src/server/intake_mail.c
# The command language: one table (command_table.h), its reader, the
# gates and the dispatch (commands.c); client footers and bare names
# below the last command (command_signoff.c).
libashes_server_a_SOURCES += src/server/command_table.h src/server/commands.c \
	src/server/command.h src/server/command_private.h src/server/command.c \
	src/server/command_args.c src/server/command_keywords.c \
	src/server/command_near.c src/server/command_signoff.c
libashes_server_a_SOURCES += src/server/command_text.c \
	src/server/command_thread.c src/server/command_words.c
# The handlers, and the one writer of a ply's record line.
libashes_server_a_SOURCES += src/server/play.c src/server/conditional.c \
	src/server/view.c \
	src/server/identity.c src/server/account.c src/server/message.c src/server/undo.c \
	src/server/settings.c src/server/help.c src/server/archive_cmd.c \
	src/server/game.c src/server/game_record.c
# A player's private notes on a game, and a game over played again.
libashes_server_a_SOURCES += src/server/note.c src/server/rematch.c
# How long old mails keep their bytes ([retention]), and a deleted
# player's mails reduced to what proves their games.
libashes_server_a_SOURCES += src/server/retention.h src/server/retention.c
# The mails out, and what one player's mails may make the club send.
libashes_server_a_SOURCES += src/server/notice.c src/server/queue.c \
	src/server/recipient.c src/server/digest.c src/server/summary.c src/server/limits.c
# The clocks: the arithmetic (clock.h, pure), a game's clocks, a flag
# that falls, the vacation bank, the timer the daemon's loop runs.
libashes_server_a_SOURCES += src/server/clock.h src/server/clock.c \
	src/server/clock_private.h src/server/clock_zone.c src/server/timer.c \
	src/server/game_clock.c src/server/flag.c src/server/vacation.c \
	src/server/admin_clock.c
# The competitions: their rules (ladder.h, league.h, rating.h) and the
# club's work on them.
libashes_server_a_SOURCES += src/server/rating.h src/server/rating.c \
	src/server/ladder.h src/server/ladder.c src/server/league.h \
	src/server/league.c src/server/club.c src/server/club_ladder.c
# The events (tournament.h): the log's replay, the standings, and the
# pairings of each format (swiss.h, roundrobin.h, knockout.h); pure.
libashes_server_a_SOURCES += src/server/tournament.h \
	src/server/tournament.c src/server/standings.c \
	src/server/swiss.h src/server/swiss.c src/server/roundrobin.h \
	src/server/roundrobin.c src/server/knockout.h src/server/knockout.c
# The log as text (the event archive's log.txt, `ashes tournament
# history`), and the standings, pairings and crosstable shown of it.
libashes_server_a_SOURCES += src/server/tournament_log.h \
	src/server/tournament_log.c src/server/tournament_text.c
libashes_server_a_SOURCES += src/server/club_result.c \
	src/server/club_timer.c src/server/club_league.c \
	src/server/club_league_view.c src/server/admin_club.c
# The events run: their logs as stored, the timer's rounds, the commands.
libashes_server_a_SOURCES += src/server/club_tournament_log.c \
	src/server/club_tournament.c src/server/club_tournament_cmd.c
# The practice opponent (bot.c, bot_turn.c) thinks with src/ai: its
# objects go into this library, so that whatever links the service links
# the search with it (the layers: core <- ai <- server).
libashes_server_a_SOURCES += src/server/bot.c src/server/bot_turn.c
# The analysis of a finished game (analysis.c), computed by src/ai.
libashes_server_a_SOURCES += src/server/analysis.c
libashes_server_a_LIBADD = $(libashes_ai_a_OBJECTS)

# tests/server: Check tests for the command language and the service,
# each one .c file of its name unless it lists its _SOURCES.  Without the
# store:
#   test_command        the command language;
#   test_command_clock  the clocks' commands: challenge options, vacation,
#                       claim;
#   test_command_mail   a mail's body as mail programs write a reply: what
#                       must be ignored;
#   test_first_mails    the mail as people write it, and a corpus of
#                       first mails as mail programs send them
#                       (tests/server/first-mails/README);
#   test_clock          the clock arithmetic (clock.c, clock_zone.c): time
#                       controls, Fischer and days per move, weekends off
#                       across DST, vacations and the exact deadline,
#                       a daily summary's local time across DST;
#   test_rating         Glicko-2 (rating.c): Glickman's worked example,
#                       inactivity, the cap, a game's two updates,
#                       refusals and extreme inputs;
#   test_ladder         a ladder's rules and places from its event log
#                       (ladder.c): every refusal of a challenge, what each
#                       result does, races, replay;
#   test_league         round-robin leagues (league.c): groups, pairings,
#                       tie-breaks, seasons;
#   test_swiss          the Swiss pairing (swiss.c) against a brute force;
#   test_roundrobin     an event's round robin (roundrobin.c);
#   test_knockout       knockout brackets and matches (knockout.c);
#   test_standings      an event's log replayed (tournament.c) into its
#                       standings (standings.c): every tie-break,
#                       withdrawals, a thousand random events;
#   test_tournament_log an event's log as text (tournament_log.c) read
#                       back, its refusals, and the standings, pairings
#                       and crosstable shown of it (tournament_text.c).
server_unit_tests = tests/server/test_command \
	tests/server/test_command_clock tests/server/test_command_mail \
	tests/server/test_first_mails \
	tests/server/test_clock tests/server/test_rating \
	tests/server/test_ladder tests/server/test_league \
	tests/server/test_swiss tests/server/test_roundrobin \
	tests/server/test_knockout tests/server/test_standings \
	tests/server/test_tournament_log
check_PROGRAMS += $(server_unit_tests)
TESTS += $(server_unit_tests)
EXTRA_DIST += tests/server/server_test.h tests/server/command_test.h \
	tests/server/first-mails
tests_server_test_clock_SOURCES = tests/server/test_clock.c \
	tests/server/clock_test.h tests/server/clock_weekends.c \
	tests/server/clock_vacation.c tests/server/clock_daily.c
server_unit_ldadd = libashes_server.a libashes_core.a libashes_util.a \
	$(CHECK_LIBS)
# The clock and the ladders need no rules of the game.
server_util_ldadd = libashes_server.a libashes_util.a $(CHECK_LIBS)
tests_server_test_command_LDADD = $(server_unit_ldadd)
tests_server_test_command_clock_LDADD = $(server_unit_ldadd)
tests_server_test_command_mail_LDADD = $(server_unit_ldadd)
tests_server_test_first_mails_LDADD = $(server_unit_ldadd)
tests_server_test_clock_LDADD = $(server_util_ldadd)
tests_server_test_rating_LDADD = libashes_server.a $(CHECK_LIBS)
tests_server_test_ladder_SOURCES = tests/server/test_ladder.c \
	tests/server/ladder_test.h tests/server/ladder_results.c
tests_server_test_ladder_LDADD = $(server_util_ldadd)
tests_server_test_league_LDADD = $(server_util_ldadd)
# The events' tests share a log builder and a seeded generator.
EXTRA_DIST += tests/server/event_test.h
tests_server_test_swiss_LDADD = $(server_util_ldadd)
tests_server_test_roundrobin_LDADD = $(server_util_ldadd)
tests_server_test_knockout_LDADD = $(server_util_ldadd)
tests_server_test_standings_SOURCES = tests/server/test_standings.c \
	tests/server/standings_random.c tests/server/event_test.h
tests_server_test_standings_LDADD = $(server_util_ldadd)
tests_server_test_tournament_log_LDADD = $(server_unit_ldadd)

# Templates of the service's mails and of the command grammar (also
# included by `ashes help`).
nobase_dist_pkgdata_DATA += templates/help-commands.txt \
	templates/help-topics.txt templates/mail/archive-unavailable.txt \
	templates/mail/archive-verify.txt templates/mail/archive.txt \
	templates/mail/bot-move.txt templates/mail/challenge-closed.txt \
	templates/mail/challenge.txt templates/mail/clock-notice.txt \
	templates/mail/clocks.txt templates/mail/cmd-accept.txt \
	templates/mail/cmd-archive.txt templates/mail/cmd-board.txt \
	templates/mail/cmd-challenge-bot.txt templates/mail/cmd-challenge.txt \
	templates/mail/cmd-claim.txt templates/mail/cmd-confirm.txt \
	templates/mail/cmd-decline.txt templates/mail/cmd-draw.txt \
	templates/mail/cmd-games.txt templates/mail/cmd-hint.txt \
	templates/mail/cmd-history.txt templates/mail/cmd-key.txt \
	templates/mail/cmd-ladder.txt templates/mail/cmd-league.txt \
	templates/mail/cmd-message.txt templates/mail/cmd-move.txt \
	templates/mail/cmd-moves.txt templates/mail/cmd-observe.txt \
	templates/mail/cmd-preview.txt templates/mail/cmd-ratings.txt \
	templates/mail/cmd-register.txt templates/mail/cmd-resign.txt \
	templates/mail/cmd-set.txt templates/mail/cmd-settings.txt \
	templates/mail/cmd-undo.txt templates/mail/cmd-vacation.txt \
	templates/mail/digest.txt templates/mail/draw.txt \
	templates/mail/game-state.txt templates/mail/help.txt \
	templates/mail/hint.txt templates/mail/key-revoked.txt \
	templates/mail/ladder-notice.txt templates/mail/ladder.txt \
	templates/mail/last-moves.txt templates/mail/league.txt \
	templates/mail/legal-moves.txt templates/mail/mail-refused.txt \
	templates/mail/message.txt templates/mail/observer.txt \
	templates/mail/refusal.txt templates/mail/reminder.txt \
	templates/mail/reply.txt templates/mail/result.txt \
	templates/mail/standings.txt templates/mail/subject-bot-move.txt \
	templates/mail/subject-digest.txt templates/mail/subject-game.txt \
	templates/mail/subject-key-revoked.txt \
	templates/mail/subject-reminder.txt templates/mail/subject-reply.txt \
	templates/mail/subject-standings.txt templates/mail/undo.txt \
	templates/mail/your-move.txt templates/rules.md
# The daily summary (server/summary.c).
nobase_dist_pkgdata_DATA += templates/mail/summary.txt \
	templates/mail/summary-observed.txt templates/mail/summary-result.txt \
	templates/mail/subject-summary.txt

# The analysis of a finished game (analysis.c).
nobase_dist_pkgdata_DATA += templates/mail/cmd-analyse.txt \
	templates/mail/analysis.txt

# Conditional moves (conditional.c).
nobase_dist_pkgdata_DATA += templates/mail/cmd-conditional.txt \
	templates/mail/conditional-lines.txt \
	templates/mail/conditional-played.txt

# The events (club_tournament*.c).
nobase_dist_pkgdata_DATA += templates/mail/cmd-tournament.txt \
	templates/mail/tournament.txt templates/mail/tournament-round.txt \
	templates/mail/tournament-final.txt \
	templates/mail/subject-tournament.txt templates/admin-tournament.txt

# The private notes (note.c) and the rematch (rematch.c).
nobase_dist_pkgdata_DATA += templates/mail/cmd-note.txt \
	templates/mail/cmd-notes.txt templates/mail/my-notes.txt \
	templates/mail/my-notes-list.txt templates/mail/cmd-rematch.txt

# The service over a real store:
#   test_server    the service's commands, game by game;
#   test_settings  the players' settings (settings.c, recipient.c): what a
#                  mail stores and what the mails to each reader honour,
#                  and the observers' daily digest (digest.c) under
#                  injected faults;
#   test_intake    the mail as a whole (intake.c) and the account commands
#                  (identity.c): what the hostile-mail review found, case
#                  by case;
#   test_timer     the clocks' timer (timer.c): exact deadlines, order,
#                  faults, outages;
#   test_club      the club's ladders and ratings in the service (club*.c):
#                  joins, challenges, results, walkovers, withdrawals,
#                  standings, recomputation;
#   test_bot       the practice opponent in the service (bot.c, bot_turn.c);
#   test_tournament  the events run by the timer (club_tournament*.c): a
#                  Swiss of six over three rounds with a withdrawal and a
#                  deadline decision, the operator's withdraw and
#                  adjudicate, a reload;
#   test_cases     the service driven by case files
#                  (tests/server/cases/*.case): the mails that go in and
#                  the exact mails queued for each, as curl's tests/data.
server_tests = tests/server/test_server tests/server/test_settings \
	tests/server/test_intake tests/server/test_timer \
	tests/server/test_club tests/server/test_bot tests/server/test_cases \
	tests/server/test_tournament
check_PROGRAMS += $(server_tests)
TESTS += $(server_tests)
EXTRA_DIST += tests/server/cases
tests_server_test_cases_SOURCES = tests/server/test_cases.c \
	tests/server/cases_run.h tests/server/cases_input.c \
	tests/server/cases_service.c tests/server/cases_expect.c \
	tests/server/cases_driver.c tests/server/cases_driver.h
# (the mail layer for retention.c's reductions: a deleted player's mails)
server_test_ldadd = libashes_server.a libashes_mail.a libashes_render.a \
	libashes_store.a libashes_core.a libashes_util.a $(SQLITE_LIBS) \
	$(RSVG_LIBS) $(ETPAN_LIBS) $(GPGME_LIBS) $(GNUTLS_LIBS) $(CHECK_LIBS)
tests_server_test_server_LDADD = $(server_test_ldadd)
tests_server_test_settings_LDADD = $(server_test_ldadd)
tests_server_test_intake_CPPFLAGS = $(AM_CPPFLAGS) $(SQLITE_CFLAGS)
tests_server_test_intake_LDADD = $(server_test_ldadd)
# [retention]'s rules on a store (retention.c): each rule's old rows
# changed, young ones kept, outcomes kept; a deleted player's mails.
check_PROGRAMS += tests/server/test_retention
TESTS += tests/server/test_retention
tests_server_test_retention_CPPFLAGS = $(AM_CPPFLAGS) $(SQLITE_CFLAGS)
tests_server_test_retention_LDADD = libashes_server.a libashes_mail.a \
	libashes_store.a libashes_core.a libashes_util.a $(ETPAN_LIBS) \
	$(GPGME_LIBS) $(GNUTLS_LIBS) $(SQLITE_LIBS) $(CHECK_LIBS)
tests_server_test_timer_LDADD = $(server_test_ldadd)
tests_server_test_club_LDADD = $(server_test_ldadd)
tests_server_test_tournament_LDADD = $(server_test_ldadd)
tests_server_test_bot_LDADD = $(server_test_ldadd)
tests_server_test_cases_LDADD = $(server_test_ldadd)
#   test_analysis  the analysis of a finished game (src/ai/analysis.c,
#                  analysis.c): deterministic, repeated by the estimate
#                  `ashes think` prints, asked and mailed with pictures.
check_PROGRAMS += tests/server/test_analysis
TESTS += tests/server/test_analysis
tests_server_test_analysis_LDADD = $(server_test_ldadd)

# `ashes db|games|game|player|outbox` (src/cli/admin.c), as operators run
# them.
dist_check_SCRIPTS += tests/server/test_admin.sh
TESTS += tests/server/test_admin.sh
nobase_dist_pkgdata_DATA += templates/admin-game.txt templates/admin-clock.txt \
	templates/admin-ladder.txt templates/admin-ladder-history.txt \
	templates/admin-league.txt templates/admin-ratings.txt

# The account commands (account.c): address, export me, delete me.
nobase_dist_pkgdata_DATA += templates/mail/cmd-address.txt \
	templates/mail/cmd-export.txt templates/mail/cmd-delete.txt \
	templates/mail/address-code.txt templates/mail/address-moved.txt \
	templates/mail/export.txt templates/mail/export-unavailable.txt \
	templates/mail/subject-account.txt

# test_account_export: a player's export parsed back by python3, before
# and after `ashes player delete` (src/archive/archive_player.c).
check_PROGRAMS += tests/server/test_account_export
TESTS += tests/server/test_account_export
tests_server_test_account_export_LDADD = libashes_archive.a \
	$(server_test_ldadd)
