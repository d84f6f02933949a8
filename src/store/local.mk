# src/store: the SQLite store -- open, migrate (sql/NNN-*.sql) and every
# query.  The migrations are installed under $(pkgdatadir)/sql and also
# compiled in (store_sql_embedded.c) so an uninstalled program works.
STORE_SQL_FILES = sql/001-initial.sql sql/002-hostile-mail.sql \
	sql/003-outbox-envelope.sql sql/004-duplicates-recorded.sql \
	sql/005-player-settings.sql sql/006-undo-message.sql \
	sql/007-outbox-image-type.sql sql/008-clocks.sql \
	sql/009-clubs.sql sql/010-bot.sql sql/011-key-proofs.sql \
	sql/012-ply-records.sql sql/013-conditional-moves.sql sql/014-summary.sql \
	sql/015-notes-rematch.sql sql/016-analysis.sql \
	sql/017-league-members-key-first.sql sql/018-daemon-health.sql \
	sql/019-tournaments.sql
nobase_dist_pkgdata_DATA += $(STORE_SQL_FILES)
# How to write a migration, and the rules of its rows a test needs.
EXTRA_DIST += sql/README

noinst_LIBRARIES += libashes_store.a
libashes_store_a_CPPFLAGS = $(AM_CPPFLAGS) $(SQLITE_CFLAGS)
libashes_store_a_SOURCES = \
	src/store/store.h src/store/store_identity.h src/store/store_clock.h \
	src/store/store_club.h src/store/store_outbox.h \
	src/store/store_tournament.h \
	src/store/store_private.h \
	src/store/store.c \
	src/store/store_migrate.c \
	src/store/store_tx.c \
	src/store/store_stmt.c \
	src/store/store_player.c \
	src/store/store_game.c \
	src/store/store_inbound.c \
	src/store/store_outbox.c \
	src/store/store_mailbox.c \
	src/store/store_identity.c \
	src/store/store_settings.c \
	src/store/store_message.c \
	src/store/store_clock.c \
	src/store/store_club.c src/store/store_league.c \
	src/store/store_tournament.c \
	src/store/store_rating.c src/store/store_record.c
# The daily summary: its schedule and the notices noted for it.
libashes_store_a_SOURCES += src/store/store_summary.h src/store/store_summary.c
# The practice opponent ([bot]): its player and games.
libashes_store_a_SOURCES += src/store/store_bot.h src/store/store_bot.c
# The analyses of finished games asked (`analyse GAME`).
libashes_store_a_SOURCES += src/store/store_analysis.h \
	src/store/store_analysis.c
# The amplification limits: counters, an archive's weight, challenges.
libashes_store_a_SOURCES += src/store/store_limits.h src/store/store_limits.c
# Conditional moves (sql/013): the players' trees, the plies from them.
libashes_store_a_SOURCES += src/store/store_conditional.h \
	src/store/store_conditional.c
# A player's private notes on a game, and rematches.
libashes_store_a_SOURCES += src/store/store_note.h src/store/store_note.c
# The daemon's health (sql/NNN-daemon-health.sql): its row, and what
# `ashes status` counts.
libashes_store_a_SOURCES += src/store/store_health.h src/store/store_health.c
# The archive's part (src/archive): a game's mails, deleting a game.
libashes_store_a_SOURCES += src/store/store_prune.h src/store/store_prune.c
nodist_libashes_store_a_SOURCES = src/store/store_sql_embedded.c
EXTRA_DIST += src/store/embed-sql.sh
CLEANFILES += src/store/store_sql_embedded.c

src/store/store_sql_embedded.c: $(STORE_SQL_FILES) src/store/embed-sql.sh
	$(AM_V_GEN)$(MKDIR_P) src/store && files= && \
	for f in $(STORE_SQL_FILES); do files="$$files $(srcdir)/$$f"; done && \
	$(SHELL) $(srcdir)/src/store/embed-sql.sh $$files >$@.tmp && \
	mv $@.tmp $@

# tests/store: Check tests of every store function (games in
# test_store_game), the migrations, a database locked by another process,
# and injected faults; each one .c file of its name.
store_tests = tests/store/test_store tests/store/test_store_game \
	tests/store/test_store_schema tests/store/test_store_faults \
	tests/store/test_store_undo tests/store/test_store_outbox \
	tests/store/test_store_settings tests/store/test_store_clock \
	tests/store/test_store_club tests/store/test_store_rating \
	tests/store/test_store_health tests/store/test_store_tournament
check_PROGRAMS += $(store_tests)
TESTS += $(store_tests)
EXTRA_DIST += tests/store/store_fixture.h tests/store/store_test.h
STORE_TEST_LDADD = libashes_store.a libashes_util.a $(SQLITE_LIBS) \
	$(CHECK_LIBS)
tests_store_test_store_LDADD = $(STORE_TEST_LDADD)
tests_store_test_store_game_LDADD = $(STORE_TEST_LDADD)
tests_store_test_store_schema_LDADD = $(STORE_TEST_LDADD)
tests_store_test_store_faults_LDADD = $(STORE_TEST_LDADD)
tests_store_test_store_undo_LDADD = $(STORE_TEST_LDADD)
tests_store_test_store_outbox_LDADD = $(STORE_TEST_LDADD)
tests_store_test_store_settings_LDADD = $(STORE_TEST_LDADD)
tests_store_test_store_clock_LDADD = $(STORE_TEST_LDADD)
tests_store_test_store_club_LDADD = $(STORE_TEST_LDADD)
tests_store_test_store_rating_LDADD = $(STORE_TEST_LDADD)
tests_store_test_store_health_LDADD = $(STORE_TEST_LDADD)
tests_store_test_store_tournament_LDADD = $(STORE_TEST_LDADD)
# test_store_upgrade: a database of every earlier schema version, filled
# by the rules of upgrade_rules.h (a new migration adds its own there),
# upgraded, checked and played on through the service.
check_PROGRAMS += tests/store/test_store_upgrade
TESTS += tests/store/test_store_upgrade
tests_store_test_store_upgrade_SOURCES = tests/store/test_store_upgrade.c \
	tests/store/upgrade_rules.h
tests_store_test_store_upgrade_LDADD = $(server_test_ldadd)

# bench_store: one-move-mail transactions/s through the store alone, with
# 1,000 active games and again with 100,000 finished games.
EXTRA_PROGRAMS += bench/bench_store
bench_bins += bench/bench_store
bench_bench_store_SOURCES = tests/store/bench_store.c
bench_bench_store_CFLAGS = $(AM_CFLAGS) -O2
bench_bench_store_LDADD = libashes_store.a libashes_util.a $(SQLITE_LIBS)
