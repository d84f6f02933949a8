# src/cli: the `ashes` command.  One file per group of subcommands; the
# table of subcommands is in src/cli/main.c (see src/cli/cli.h to add one).
bin_PROGRAMS += ashes
ashes_SOURCES = src/cli/cli.h src/cli/main.c src/cli/cli_game.c \
	src/cli/cli_play.c src/cli/cli_help.c src/cli/admin.h src/cli/admin.c \
	src/cli/admin_clock.c src/cli/admin_common.c src/cli/admin_club.c \
	src/cli/admin_account.c src/cli/admin_backup.c \
	src/cli/admin_retention.c \
	src/cli/site.c src/cli/status.c
# `ashes tournament` (src/cli/admin_tournament.c): an event replayed from
# its log; withdrawals and adjudications through the service.
ashes_SOURCES += src/cli/admin_tournament.c
nobase_dist_pkgdata_DATA += templates/admin-tournament-history.txt \
	templates/admin-tournament-pairings.txt
# libashes_config.a: the config, and settings_server() mapping it for the
# service as ashesd does (its mail settings are plain structs: no mail
# library).
# `ashes status` (src/cli/status.c): the daemon's health report and its
# pid file check, src/daemon's (libashes_daemon.a, first: above config).
ashes_LDADD = libashes_daemon.a libashes_config.a libashes_server.a \
	libashes_store.a libashes_render.a libashes_core.a libashes_util.a \
	$(SQLITE_LIBS) $(RSVG_LIBS)
# `ashes archive` (src/cli/archive.c): src/archive, and under it the
# mail layer's OpenPGP and MIME.
ashes_SOURCES += src/cli/archive.c
ashes_LDADD += $(ARCHIVE_LDADD)
# `ashes think` and `ashes play --vs-bot` (src/cli/cli_think.c,
# cli_bot.c): the bot's search, src/ai.
ashes_SOURCES += src/cli/cli_ai.h src/cli/cli_think.c src/cli/cli_bot.c \
	src/cli/cli_analyse.c
ashes_LDADD += libashes_ai.a libashes_core.a
nobase_dist_pkgdata_DATA += templates/play-bot-intro.txt

# Why `ashes record` refuses a record, and the list of `ashes games`
# (installed with the other templates).
nobase_dist_pkgdata_DATA += templates/record-error.txt templates/admin-games.txt

# tests/cli, shell tests of the command as users run it:
#   test_cli.sh    exact outputs, exit statuses, messages;
#   test_club.sh   the operator's ladder, league and ratings commands on a
#                  ladder that the real ashesd runs (--once over a folder
#                  of mails);
#   test_site.sh   `ashes site`: the pages of games the real ashesd ran,
#                  checked for their links and markup, and rendered by
#                  headless Chromium;
#   test_think.sh  `ashes think` and `ashes play --vs-bot`: output shape,
#                  repeatability;
#   test_analyse.sh  `ashes analyse` of a game ashesd played to its end:
#                  the same text twice, each position repeated exactly
#                  by the `ashes think` line printed for it.
cli_tests = tests/cli/test_cli.sh tests/cli/test_club.sh \
	tests/cli/test_site.sh tests/cli/test_think.sh \
	tests/cli/test_analyse.sh
dist_check_SCRIPTS += $(cli_tests)
TESTS += $(cli_tests)
# Its pages (src/render/site.c).
nobase_dist_pkgdata_DATA += templates/site/head.html \
	templates/site/index.html templates/site/game.html \
	templates/site/event.html

dist_man_MANS += man/ashes.1
