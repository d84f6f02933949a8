# src/archive: a game's archive -- its record, its players' signed mails
# with what each signature covers, their keys and a MANIFEST the daemon
# signs -- exported from the store and verified without it (`ashes
# archive`).  It wires the store, the mail layer's OpenPGP and MIME and
# the rules core, at the level of the daemon and the command.
noinst_LIBRARIES += libashes_archive.a
libashes_archive_a_CPPFLAGS = $(AM_CPPFLAGS)
# Export: the facts gathered from the store, the record, the files.
libashes_archive_a_SOURCES = src/archive/archive.h \
	src/archive/archive_private.h src/archive/archive_gather.c \
	src/archive/archive_record.c src/archive/archive_bind.c \
	src/archive/archive_manifest.c src/archive/archive_fs.c \
	src/archive/archive_export.c src/archive/archive_all.c \
	src/archive/archive_notes.c
# A player's export (`export me`, `ashes player export`): JSON.
libashes_archive_a_SOURCES += src/archive/archive_player.h \
	src/archive/archive_player.c
# Verify, trusting nothing the export wrote: the rules and the clocks
# run again from the signed mails, in a child of its own.
libashes_archive_a_SOURCES += src/archive/archive_verify.c \
	src/archive/archive_verify_mail.c src/archive/archive_clock.c \
	src/archive/archive_verify_cond.c \
	src/archive/archive_verify_child.c src/archive/archive_untar.c
# An event's archive: its games' archives, its log, its standings, one
# MANIFEST; verify recomputes the standings from the verified games.
libashes_archive_a_SOURCES += src/archive/archive_event.h \
	src/archive/archive_event.c src/archive/archive_event_verify.c
# README.txt of every archive; notes.txt of a player's own copy.
nobase_dist_pkgdata_DATA += templates/archive/README.txt \
	templates/archive/notes.txt
# What links the archive, higher layers first.
ARCHIVE_LDADD = libashes_archive.a libashes_server.a libashes_mail.a \
	libashes_store.a libashes_render.a libashes_core.a libashes_util.a \
	$(ETPAN_LIBS) $(GPGME_LIBS) $(GNUTLS_LIBS) $(SQLITE_LIBS)

# tests/archive: what needs no mail stack -- the signed text's binding,
# MANIFEST, the bytes a signature covers, links refused (test_archive);
# verify's check of a record's clocks (test_archive_clock);
# the store's part: a game's mails, deleting an ended game
# (test_store_prune); and the whole command on games the real ashesd ran
# over a folder of signed mails: export, verify, the README's hand-check
# line, every tampering, export --all and prune (test_archive_cli.sh).
check_PROGRAMS += tests/archive/test_archive tests/archive/test_store_prune
TESTS += tests/archive/test_archive tests/archive/test_store_prune
tests_archive_test_archive_LDADD = $(ARCHIVE_LDADD) $(CHECK_LIBS)
check_PROGRAMS += tests/archive/test_archive_clock
# An event archive's recomputation on logs built in memory.
check_PROGRAMS += tests/archive/test_archive_event
TESTS += tests/archive/test_archive_event
tests_archive_test_archive_event_LDADD = $(ARCHIVE_LDADD) $(CHECK_LIBS)
TESTS += tests/archive/test_archive_clock
tests_archive_test_archive_clock_LDADD = $(ARCHIVE_LDADD) $(CHECK_LIBS)
EXTRA_DIST += tests/store/store_fixture.h tests/store/store_test.h
tests_archive_test_store_prune_CPPFLAGS = $(AM_CPPFLAGS) $(SQLITE_CFLAGS)
# The store's own tests' link (src/store/local.mk).
tests_archive_test_store_prune_LDADD = $(STORE_TEST_LDADD)
dist_check_SCRIPTS += tests/archive/test_archive_cli.sh
TESTS += tests/archive/test_archive_cli.sh
# Conditional moves in the archive: a reply played from them verified,
# forged ones caught.
dist_check_SCRIPTS += tests/archive/test_archive_cond.sh
TESTS += tests/archive/test_archive_cond.sh
# A finished game's archive still verifies after [retention] reduced
# its mails (gpg, K-9, Thunderbird encrypted, inline, bare replies).
dist_check_SCRIPTS += tests/archive/test_archive_retention.sh
TESTS += tests/archive/test_archive_retention.sh
# An event's archive on an event the real ashesd ran: the operator's
# commands, export --event, verify, forgeries named, the event's page.
dist_check_SCRIPTS += tests/archive/test_archive_event.sh
TESTS += tests/archive/test_archive_event.sh
# The .tar.gz bomb of test_archive_cli.sh and tests/e2e/test_hostile_archive.sh.
EXTRA_DIST += tests/archive/tar-bomb.py
