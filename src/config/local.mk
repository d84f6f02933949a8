# src/config: ashesd.conf -- read, checked, printed -- and the process-wide
# logger its [log] section sets up.  Linked by ashesd and by `ashes` (which
# finds the database through the config) without the rest of the daemon.
# Above server (the command limit and player names, the clock module's time
# controls and calendar) and core (the variant table): libashes_server.a
# lends it command.o and clock.o (and what they need).
noinst_LIBRARIES += libashes_config.a
libashes_config_a_SOURCES = \
	src/config/club_config.h src/config/config_private.h \
	src/config/config_read.c src/config/config_keys.c \
	src/config/config_values.c src/config/config_check.c \
	src/config/config_clubs.c src/config/config_bot.c \
	src/config/log.c src/config/log.h \
	src/config/settings.c src/config/settings.h

# tests/config: the config file's syntax, values, checks and dump
# (test_config), the configs refused (test_config_errors), the clocks'
# keys (test_config_clock), and the ladders, leagues and ratings
# (test_config_clubs).  The temp-directory helpers are the daemon
# tests' (tests/daemon/daemon_test.h).
check_PROGRAMS += tests/config/test_config tests/config/test_config_errors \
	tests/config/test_config_clock tests/config/test_config_clubs
TESTS += tests/config/test_config tests/config/test_config_errors \
	tests/config/test_config_clock tests/config/test_config_clubs
tests_config_test_config_SOURCES = tests/config/test_config.c \
	tests/config/config_test.h
tests_config_test_config_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/daemon
tests_config_test_config_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_config_test_config_LDADD = libashes_config.a libashes_server.a \
	libashes_core.a libashes_util.a $(CHECK_LIBS)
tests_config_test_config_errors_SOURCES = tests/config/test_config_errors.c \
	tests/config/config_test.h
tests_config_test_config_errors_CPPFLAGS = $(tests_config_test_config_CPPFLAGS)
tests_config_test_config_errors_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_config_test_config_errors_LDADD = $(tests_config_test_config_LDADD)
tests_config_test_config_clock_SOURCES = tests/config/test_config_clock.c \
	tests/config/config_test.h
tests_config_test_config_clock_CPPFLAGS = $(tests_config_test_config_CPPFLAGS)
tests_config_test_config_clock_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_config_test_config_clock_LDADD = $(tests_config_test_config_LDADD)
tests_config_test_config_clubs_SOURCES = tests/config/test_config_clubs.c \
	tests/config/config_test.h
tests_config_test_config_clubs_CPPFLAGS = $(tests_config_test_config_CPPFLAGS)
tests_config_test_config_clubs_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_config_test_config_clubs_LDADD = $(tests_config_test_config_LDADD)
# [bot] (config_bot.c).
check_PROGRAMS += tests/config/test_config_bot
TESTS += tests/config/test_config_bot
tests_config_test_config_bot_SOURCES = tests/config/test_config_bot.c \
	tests/config/config_test.h
tests_config_test_config_bot_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_config_test_config_bot_LDADD = $(tests_config_test_config_LDADD)
