# src/mail: bytes in and out of the world (IMAP, SMTP, MIME, OpenPGP).
noinst_LIBRARIES += libashes_mail.a
libashes_mail_a_SOURCES =
libashes_mail_a_CPPFLAGS = $(AM_CPPFLAGS) $(ETPAN_CFLAGS) $(GPGME_CFLAGS) \
	$(CURL_CFLAGS) $(GNUTLS_CFLAGS)
# What the tests link: the MIME and OpenPGP side, and the transports'.
mail_test_ldadd = libashes_mail.a libashes_util.a \
	$(ETPAN_LIBS) $(GPGME_LIBS) $(GNUTLS_LIBS) $(CHECK_LIBS)
mail_stack_test_ldadd = libashes_mail.a libashes_util.a \
	$(ETPAN_LIBS) $(CURL_LIBS) $(GNUTLS_LIBS) $(CHECK_LIBS)

# --- mime/pgp ---
libashes_mail_a_SOURCES += \
	src/mail/pgp.c src/mail/pgp_keys.c src/mail/pgp_sign.c \
	src/mail/pgp.h src/mail/pgp_private.h \
	src/mail/mime.c src/mail/mime_limits.c src/mail/html.c src/mail/mime.h \
	src/mail/classify.c src/mail/classify.h \
	src/mail/inbound.c src/mail/inbound_body.c src/mail/inbound.h \
	src/mail/inbound_private.h
# MIME read as mail programs write it; the quoted HTML of webmail.
mime_tests = tests/mail/test_mime tests/mail/test_mime_html
check_PROGRAMS += $(mime_tests)
TESTS += $(mime_tests)
tests_mail_test_mime_LDADD = $(mail_test_ldadd)
tests_mail_test_mime_html_LDADD = $(mail_test_ldadd)
EXTRA_DIST += tests/mail/inbound_test.h
check_PROGRAMS += tests/mail/test_pgp
TESTS += tests/mail/test_pgp
# one program from two files, so gpg-helper.sh makes the fixtures once
tests_mail_test_pgp_SOURCES = tests/mail/test_pgp.c \
	tests/mail/test_pgp_keys.c tests/mail/test_pgp_limits.c \
	tests/mail/pgp_fixture.c tests/mail/pgp_fixture.h
tests_mail_test_pgp_CPPFLAGS = $(AM_CPPFLAGS) $(GPGME_CFLAGS)
tests_mail_test_pgp_LDADD = $(mail_test_ldadd)
EXTRA_DIST += tests/mail/gpg-helper.sh
# What a game's archive takes from the keyring and from a mail.
libashes_mail_a_SOURCES += src/mail/pgp_export.c src/mail/pgp_public.c \
	src/mail/pgp_reduce.c
# The shape pre-scan of a stranger's OpenPGP blob, and the budget of gpg.
libashes_mail_a_SOURCES += src/mail/pgp_scan.c src/mail/pgp_scan.h \
	src/mail/pgp_budget.c
# Encrypted mail: decrypting, the Autocrypt header, the
# inbound reading of both.
libashes_mail_a_SOURCES += src/mail/pgp_decrypt.c src/mail/autocrypt.c \
	src/mail/autocrypt.h src/mail/inbound_crypt.c
check_PROGRAMS += tests/mail/test_pgp_scan
TESTS += tests/mail/test_pgp_scan
tests_mail_test_pgp_scan_LDADD = libashes_mail.a libashes_util.a \
	$(CHECK_LIBS)
EXTRA_DIST += tests/mail/pgp-bomb.py
# --- end mime/pgp ---

# --- compose ---
libashes_mail_a_SOURCES += src/mail/compose.c src/mail/compose.h
check_PROGRAMS += tests/mail/test_compose
TESTS += tests/mail/test_compose
tests_mail_test_compose_LDADD = libashes_mail.a libashes_util.a \
	$(GNUTLS_LIBS) $(CHECK_LIBS)
# --- end compose ---

# --- transports ---
libashes_mail_a_SOURCES += \
	src/mail/source.c src/mail/source.h \
	src/mail/imap.c src/mail/imap.h \
	src/mail/imap_move.c src/mail/imap_session.c src/mail/imap_private.h \
	src/mail/imap_replay.c src/mail/imap_sent.c src/mail/imap_sent.h \
	src/mail/maildir_source.c \
	src/mail/smtp.c src/mail/smtp.h
check_PROGRAMS += tests/mail/test_imap tests/mail/test_imap_aside
TESTS += tests/mail/test_imap tests/mail/test_imap_aside
tests_mail_test_imap_SOURCES = tests/mail/test_imap.c \
	tests/mail/imap_fixture.h \
	tests/mail/test_imap_stack.c tests/mail/test_imap_stack.h
tests_mail_test_imap_LDADD = $(mail_stack_test_ldadd)
tests_mail_test_imap_aside_SOURCES = tests/mail/test_imap_aside.c \
	tests/mail/imap_fixture.h \
	tests/mail/test_imap_stack.c tests/mail/test_imap_stack.h
tests_mail_test_imap_aside_LDADD = $(tests_mail_test_imap_LDADD)
# A folder read back by date (the replay after a restore) and the Sent
# folder's header copies, on a real Dovecot.
check_PROGRAMS += tests/mail/test_imap_replay
TESTS += tests/mail/test_imap_replay
tests_mail_test_imap_replay_SOURCES = tests/mail/test_imap_replay.c \
	tests/mail/imap_fixture.h \
	tests/mail/test_imap_stack.c tests/mail/test_imap_stack.h
tests_mail_test_imap_replay_LDADD = $(tests_mail_test_imap_LDADD)
check_PROGRAMS += tests/mail/test_smtp
TESTS += tests/mail/test_smtp
tests_mail_test_smtp_SOURCES = tests/mail/test_smtp.c \
	tests/mail/test_imap_stack.c tests/mail/test_imap_stack.h
tests_mail_test_smtp_LDADD = $(mail_stack_test_ldadd)
check_PROGRAMS += tests/mail/test_source_dir
TESTS += tests/mail/test_source_dir
tests_mail_test_source_dir_LDADD = $(mail_stack_test_ldadd)
EXTRA_DIST += tests/stack/mailstack
# --- end transports ---

# --- clients' text ---
# RFC 3676 format=flowed read back into the lines the player typed.
libashes_mail_a_SOURCES += src/mail/flowed.c src/mail/flowed.h \
	src/mail/inbound_clients.c src/mail/inbound_clients.h
# test_flowed: format=flowed read back; test_html_lines: HTML to text
# keeps the lines a browser shows (html.c).
text_tests = tests/mail/test_flowed tests/mail/test_html_lines
check_PROGRAMS += $(text_tests)
TESTS += $(text_tests)
tests_mail_test_flowed_LDADD = $(mail_test_ldadd)
tests_mail_test_html_lines_LDADD = $(mail_test_ldadd)
# --- end clients' text ---
# --- the daemon's own keys ---
libashes_mail_a_SOURCES += src/mail/pgp_own.c src/mail/pgp_own.h
# which keys a mail carries inside its signed content
check_PROGRAMS += tests/mail/test_inbound_keys
TESTS += tests/mail/test_inbound_keys
tests_mail_test_inbound_keys_LDADD = $(mail_test_ldadd)
# --- end own keys ---
