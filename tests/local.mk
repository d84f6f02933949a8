# tests: shared test helpers and the test summary.

# --- shared ---
EXTRA_DIST += tests/summary.sh tests/lib.sh tests/e2e/lib.sh tests/e2e/test_limits.sh
TESTS += tests/e2e/test_limits.sh
# The layers call one way (README's Layout, src/server/server_private.h).
dist_check_SCRIPTS += scripts/layers
TESTS += scripts/layers
# make install holds every template and migration (the Debian package too).
dist_check_SCRIPTS += tests/test_install_data.sh
TESTS += tests/test_install_data.sh
# --- end shared ---

# ---- e2e mail-in (tests/e2e/test_inbound_*.sh) ----
TESTS += tests/e2e/test_inbound_sig.sh tests/e2e/test_inbound_mime.sh \
	tests/e2e/test_inbound_imap.sh
EXTRA_DIST += tests/e2e/lib-inbound.sh tests/e2e/test_inbound_sig.sh \
	tests/e2e/test_inbound_mime.sh tests/e2e/test_inbound_imap.sh
# ---- end e2e mail-in ----

# --- e2e game / recovery / config ---
# The whole loop on a private Postfix + Dovecot with the real ashesd
# (tests/e2e/lib.sh); each skips (77) without root.
TESTS += tests/e2e/test_game.sh tests/e2e/test_game_inline.sh \
	tests/e2e/test_recovery.sh tests/e2e/test_daemon_config.sh
EXTRA_DIST += tests/e2e/lib-game.sh tests/e2e/test_game.sh \
	tests/e2e/test_game_inline.sh tests/e2e/test_recovery.sh \
	tests/e2e/test_daemon_config.sh
# a game clock on real servers, ashesd's clock moved by its test hook
TESTS += tests/e2e/test_clock.sh
EXTRA_DIST += tests/e2e/test_clock.sh
# the daily summary on real servers: one a day at the player's time, a
# reply to it playing two games
TESTS += tests/e2e/test_summary.sh
EXTRA_DIST += tests/e2e/test_summary.sh
# a game's archive on real servers: export, verify, the hand check, tampering
TESTS += tests/e2e/test_archive.sh
EXTRA_DIST += tests/e2e/test_archive.sh
# conditional moves on real servers: a reply played from them, both
# players' mails, the archive verified
TESTS += tests/e2e/test_conditional.sh
EXTRA_DIST += tests/e2e/test_conditional.sh

# private notes seen by their author alone, in their archive; a rematch
TESTS += tests/e2e/test_notes.sh
EXTRA_DIST += tests/e2e/test_notes.sh
# a club ladder on real servers: challenge, result, standings mail
TESTS += tests/e2e/test_ladder.sh
EXTRA_DIST += tests/e2e/test_ladder.sh
# an event on real servers: a Swiss of six over three rounds, a withdrawal,
# a deadline decision, the final standings mail
TESTS += tests/e2e/test_tournament.sh
EXTRA_DIST += tests/e2e/test_tournament.sh
# a game against the bot by real signed mail, hints, its archive
TESTS += tests/e2e/test_bot.sh
EXTRA_DIST += tests/e2e/test_bot.sh
# a finished game analysed by mail: the bot thread's mail with pictures
TESTS += tests/e2e/test_analyse.sh
EXTRA_DIST += tests/e2e/test_analyse.sh
# the end-to-end benchmarks (run by bench/run as root) use lib-game.sh
EXTRA_DIST += bench/e2e-mail.sh bench/e2e-imap.sh
# --- end e2e game ---

# --- e2e hostile mail (tests/e2e/test_hostile_*.sh) ---
# The security review's cases, each through the real daemon on the
# private Postfix + Dovecot (tests/e2e/lib-hostile.sh); each skips (77)
# without root.
TESTS += tests/e2e/test_hostile_mime.sh tests/e2e/test_hostile_identity.sh \
	tests/e2e/test_hostile_flood.sh
EXTRA_DIST += tests/e2e/lib-hostile.sh tests/e2e/test_hostile_mime.sh \
	tests/e2e/test_hostile_identity.sh tests/e2e/test_hostile_flood.sh
# --- end e2e hostile mail ---

# --- e2e uptime ---
# a simulated day of mixed mail and reconnects: no descriptor, memory or
# gpg process may leak
TESTS += tests/e2e/test_uptime.sh
EXTRA_DIST += tests/e2e/test_uptime.sh
# --- end e2e uptime ---

# --- e2e clients' text (tests/e2e/test_clients_text.sh) ---
# Thunderbird's format=flowed, HTML-only webmail with a pasted clearsigned
# text, Gmail's U+00A0, client footers: each through the real daemon on
# the private Postfix + Dovecot; skips (77) without root.
TESTS += tests/e2e/test_clients_text.sh
EXTRA_DIST += tests/e2e/test_clients_text.sh
# --- end e2e clients' text ---
# --- e2e hostile amplification ---
# Issue 22, cases 6-8: what one sender can make the daemon send and
# compute (archives, the send budget, the outbox's lanes on a slow SMTP,
# challenges, hints, bot games), one stack and one daemon.
TESTS += tests/e2e/test_hostile_amplify.sh
EXTRA_DIST += tests/e2e/test_hostile_amplify.sh
# --- end e2e hostile amplification ---
# --- e2e hostile keys ---
# issue 22's identity cases through the real daemon, one stack: key
# proofs, the daemon's own keys, quoted relays, one code a day, notes,
# look-alike names, rate counters pruned.
TESTS += tests/e2e/test_hostile_keys.sh
EXTRA_DIST += tests/e2e/test_hostile_keys.sh
# --- end e2e hostile keys ---
# --- e2e OpenPGP denial of service and signatures ---
# Compression bombs, 6,000 signatures, the gpg budget (pre-scan off by
# its test hook), weak digests, an extended expiry, gpg's guarded
# revocation, a key too big: one stack, one daemon.
TESTS += tests/e2e/test_hostile_dos.sh
EXTRA_DIST += tests/e2e/test_hostile_dos.sh
# --- end e2e OpenPGP denial of service ---
# --- e2e hostile archive (issue 22, cases 10-14b) ---
# another pair's archive without addresses, verify's trust, a tar.gz
# bomb, escapes in the log and the listings, notes of a running game
TESTS += tests/e2e/test_hostile_archive.sh
EXTRA_DIST += tests/e2e/test_hostile_archive.sh
# --- end e2e hostile archive ---
# --- clients: keys where the client puts them, encrypted mail ---
# The Autocrypt header parser, the encrypted message's pre-scan, and
# encrypted mail as Thunderbird, Delta Chat and gpg -sea write it through
# inbound_parse (crypt-helper.sh makes the keys and mails).
check_PROGRAMS += tests/mail/test_crypt
TESTS += tests/mail/test_crypt
tests_mail_test_crypt_SOURCES = tests/mail/test_crypt.c \
	tests/mail/pgp_fixture.c tests/mail/pgp_fixture.h
tests_mail_test_crypt_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_mail_test_crypt_LDADD = libashes_mail.a libashes_util.a \
	$(ETPAN_LIBS) $(GPGME_LIBS) $(GNUTLS_LIBS) $(CHECK_LIBS)
EXTRA_DIST += tests/mail/crypt-helper.sh \
	tests/mail/client-mail.py
# --- end clients crypto ---
# --- e2e clients keys and encryption ---
TESTS += tests/e2e/test_clients_keys.sh
EXTRA_DIST += tests/e2e/test_clients_keys.sh
# --- end e2e clients keys ---
