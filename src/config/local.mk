# src/config: ashesd.conf -- read, checked, printed -- and the process-wide
# logger its [log] section sets up.  Linked by ashesd and by `ashes` (which
# finds the database through the config) without the rest of the daemon.
# Above server (the command limit and player names, the clock module's time
# controls and calendar) and core (the variant table): libashes_server.a
# lends it command.o and clock.o (and what they need).
noinst_LIBRARIES += libashes_config.a
# The file read, its keys, values and checks, the clubs and the bot.
libashes_config_a_SOURCES = src/config/club_config.h \
	src/config/config_private.h src/config/config_read.c \
	src/config/config_keys.c src/config/config_table.c \
	src/config/config_values.c \
	src/config/config_check.c src/config/config_clubs.c src/config/config_bot.c
# The logger, and the config mapped onto the layers' settings.
libashes_config_a_SOURCES += src/config/log.c src/config/log.h \
	src/config/settings.c src/config/settings.h

# tests/config: the config file's syntax, values, checks and dump
# (test_config), the configs refused (test_config_errors), the clocks'
# keys (test_config_clock), and the ladders, leagues and ratings
# (test_config_clubs).  The temp-directory helpers are the daemon
# tests' (tests/daemon/daemon_test.h).
config_tests = tests/config/test_config tests/config/test_config_errors \
	tests/config/test_config_clock tests/config/test_config_clubs
check_PROGRAMS += $(config_tests)
TESTS += $(config_tests)
EXTRA_DIST += tests/config/config_test.h
config_test_cppflags = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/daemon
config_test_ldadd = libashes_config.a libashes_server.a libashes_core.a \
	libashes_util.a $(CHECK_LIBS)
tests_config_test_config_CPPFLAGS = $(config_test_cppflags)
tests_config_test_config_LDADD = $(config_test_ldadd)
tests_config_test_config_errors_CPPFLAGS = $(config_test_cppflags)
tests_config_test_config_errors_LDADD = $(config_test_ldadd)
tests_config_test_config_clock_CPPFLAGS = $(config_test_cppflags)
tests_config_test_config_clock_LDADD = $(config_test_ldadd)
tests_config_test_config_clubs_CPPFLAGS = $(config_test_cppflags)
tests_config_test_config_clubs_LDADD = $(config_test_ldadd)
# [bot] (config_bot.c).
check_PROGRAMS += tests/config/test_config_bot
TESTS += tests/config/test_config_bot
tests_config_test_config_bot_LDADD = $(config_test_ldadd)
