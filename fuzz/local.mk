# fuzz: libFuzzer targets for the move and record parsers, and for the
# path of a received mail (inbound: inbound_parse and the command reader
# over any bytes; command: the command reader alone; mime: the MIME
# nesting limits checked against what libetpan parses).
#
# Every `make check` runs each target's entry point over its seed corpus
# (fuzz/corpus/NAME) through a small Check driver.  Configured with
# CC=clang --enable-fuzzing, fuzz/fuzz_NAME are real libFuzzer programs
# (our code compiled into them with the fuzzer's coverage and ASan; the
# system's libetpan and GPGME are linked as they are), and `make fuzz-run`
# runs each for FUZZ_SECONDS.

fuzz_check_ldadd = libashes_core.a $(CHECK_LIBS)
check_PROGRAMS += fuzz/check_fuzz_notation fuzz/check_fuzz_record
TESTS += fuzz/check_fuzz_notation fuzz/check_fuzz_record
fuzz_check_fuzz_notation_SOURCES = fuzz/fuzz_notation.c fuzz/corpus_check.c
fuzz_check_fuzz_notation_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_CORPUS='"notation"'
fuzz_check_fuzz_notation_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
fuzz_check_fuzz_notation_LDADD = $(fuzz_check_ldadd)
fuzz_check_fuzz_record_SOURCES = fuzz/fuzz_record.c fuzz/corpus_check.c
fuzz_check_fuzz_record_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_CORPUS='"record"'
fuzz_check_fuzz_record_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
fuzz_check_fuzz_record_LDADD = $(fuzz_check_ldadd)

fuzz_mail_check_ldadd = libashes_mail.a libashes_server.a libashes_core.a \
	libashes_util.a $(ETPAN_LIBS) $(GPGME_LIBS) $(GNUTLS_LIBS) $(CHECK_LIBS)
check_PROGRAMS += fuzz/check_fuzz_inbound fuzz/check_fuzz_command \
	fuzz/check_fuzz_mime
TESTS += fuzz/check_fuzz_inbound fuzz/check_fuzz_command fuzz/check_fuzz_mime
# the OpenPGP pre-scan (pgp_scan.h)
check_PROGRAMS += fuzz/check_fuzz_pgp_scan
TESTS += fuzz/check_fuzz_pgp_scan
fuzz_check_fuzz_pgp_scan_SOURCES = fuzz/fuzz_pgp_scan.c fuzz/corpus_check.c
fuzz_check_fuzz_pgp_scan_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_CORPUS='"pgp_scan"'
fuzz_check_fuzz_pgp_scan_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
fuzz_check_fuzz_pgp_scan_LDADD = libashes_mail.a libashes_util.a $(CHECK_LIBS)
fuzz_check_fuzz_inbound_SOURCES = fuzz/fuzz_inbound.c fuzz/corpus_check.c
fuzz_check_fuzz_inbound_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_CORPUS='"inbound"'
fuzz_check_fuzz_inbound_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
fuzz_check_fuzz_inbound_LDADD = $(fuzz_mail_check_ldadd)
fuzz_check_fuzz_command_SOURCES = fuzz/fuzz_command.c fuzz/corpus_check.c
fuzz_check_fuzz_command_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_CORPUS='"command"'
fuzz_check_fuzz_command_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
fuzz_check_fuzz_command_LDADD = libashes_server.a libashes_core.a $(CHECK_LIBS)
fuzz_check_fuzz_mime_SOURCES = fuzz/fuzz_mime.c fuzz/corpus_check.c
fuzz_check_fuzz_mime_CPPFLAGS = $(AM_CPPFLAGS) $(ETPAN_CFLAGS) -DFUZZ_CORPUS='"mime"'
fuzz_check_fuzz_mime_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
fuzz_check_fuzz_mime_LDADD = $(fuzz_mail_check_ldadd)
EXTRA_DIST += fuzz/corpus fuzz/run fuzz/mail.dict

FUZZ_SECONDS = 60
if FUZZING
noinst_PROGRAMS += fuzz/fuzz_notation fuzz/fuzz_record
fuzz_core_sources = src/core/geom.c src/core/rules.c src/core/movegen.c \
	src/core/explain.c src/core/notation.c src/core/record.c \
	src/core/variant.c
fuzz_fuzz_notation_SOURCES = fuzz/fuzz_notation.c $(fuzz_core_sources)
fuzz_fuzz_notation_CFLAGS = $(AM_CFLAGS) -fsanitize=fuzzer,address,undefined
fuzz_fuzz_notation_LDFLAGS = -fsanitize=fuzzer,address,undefined
fuzz_fuzz_record_SOURCES = fuzz/fuzz_record.c $(fuzz_core_sources)
fuzz_fuzz_record_CFLAGS = $(AM_CFLAGS) -fsanitize=fuzzer,address,undefined
fuzz_fuzz_record_LDFLAGS = -fsanitize=fuzzer,address,undefined
fuzz_mail_sources = src/mail/inbound.c src/mail/inbound_body.c \
	src/mail/mime.c src/mail/mime_limits.c src/mail/html.c \
	src/mail/classify.c src/mail/pgp.c src/mail/pgp_keys.c \
	src/mail/pgp_scan.c src/mail/pgp_budget.c \
	src/util/buf.c src/util/xalloc.c src/util/xstr.c
noinst_PROGRAMS += fuzz/fuzz_inbound fuzz/fuzz_command fuzz/fuzz_mime
noinst_PROGRAMS += fuzz/fuzz_pgp_scan
fuzz_fuzz_pgp_scan_SOURCES = fuzz/fuzz_pgp_scan.c src/mail/pgp_scan.c \
	src/util/buf.c src/util/xalloc.c src/util/xstr.c
fuzz_fuzz_pgp_scan_CFLAGS = $(AM_CFLAGS) -fsanitize=fuzzer,address,undefined
fuzz_fuzz_pgp_scan_LDFLAGS = -fsanitize=fuzzer,address,undefined
fuzz_command_sources = src/server/command.c src/server/command_text.c \
	src/server/command_near.c src/server/command_thread.c \
	src/server/command_args.c src/server/command_words.c \
	src/server/command_signoff.c src/server/command_keywords.c \
	src/core/variant.c
fuzz_fuzz_inbound_SOURCES = fuzz/fuzz_inbound.c $(fuzz_mail_sources) \
	$(fuzz_command_sources)
fuzz_fuzz_inbound_CPPFLAGS = $(AM_CPPFLAGS) $(ETPAN_CFLAGS) $(GPGME_CFLAGS) \
	$(GNUTLS_CFLAGS)
fuzz_fuzz_inbound_CFLAGS = $(AM_CFLAGS) -fsanitize=fuzzer,address,undefined
fuzz_fuzz_inbound_LDFLAGS = -fsanitize=fuzzer,address,undefined
fuzz_fuzz_inbound_LDADD = $(ETPAN_LIBS) $(GPGME_LIBS) $(GNUTLS_LIBS)
fuzz_fuzz_command_SOURCES = fuzz/fuzz_command.c $(fuzz_command_sources)
fuzz_fuzz_command_CFLAGS = $(AM_CFLAGS) -fsanitize=fuzzer,address,undefined
fuzz_fuzz_command_LDFLAGS = -fsanitize=fuzzer,address,undefined
fuzz_fuzz_mime_SOURCES = fuzz/fuzz_mime.c $(fuzz_mail_sources)
fuzz_fuzz_mime_CPPFLAGS = $(AM_CPPFLAGS) $(ETPAN_CFLAGS) $(GPGME_CFLAGS) \
	$(GNUTLS_CFLAGS)
fuzz_fuzz_mime_CFLAGS = $(AM_CFLAGS) -fsanitize=fuzzer,address,undefined
fuzz_fuzz_mime_LDFLAGS = -fsanitize=fuzzer,address,undefined
fuzz_fuzz_mime_LDADD = $(ETPAN_LIBS) $(GPGME_LIBS) $(GNUTLS_LIBS)
fuzz-run: fuzz/fuzz_notation fuzz/fuzz_record fuzz/fuzz_inbound \
		fuzz/fuzz_command fuzz/fuzz_mime fuzz/fuzz_pgp_scan
	$(SHELL) $(srcdir)/fuzz/run '$(abs_top_builddir)' '$(abs_top_srcdir)' $(FUZZ_SECONDS)
else
fuzz-run:
	@echo "fuzz-run: configure with CC=clang --enable-fuzzing first" >&2; exit 1
endif
.PHONY: fuzz-run
