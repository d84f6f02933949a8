# fuzz: libFuzzer targets for the move and record parsers.
#
# Every `make check` runs each target's entry point over its seed corpus
# (fuzz/corpus/NAME) through a small Check driver.  Configured with
# CC=clang --enable-fuzzing, fuzz/fuzz_notation and fuzz/fuzz_record are
# real libFuzzer programs (the core compiled into them with the fuzzer's
# coverage and ASan), and `make fuzz-run` runs each for FUZZ_SECONDS.

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
EXTRA_DIST += fuzz/corpus fuzz/run

FUZZ_SECONDS = 60
if FUZZING
noinst_PROGRAMS += fuzz/fuzz_notation fuzz/fuzz_record
fuzz_core_sources = src/core/geom.c src/core/rules.c src/core/movegen.c \
	src/core/explain.c src/core/notation.c src/core/record.c
fuzz_fuzz_notation_SOURCES = fuzz/fuzz_notation.c $(fuzz_core_sources)
fuzz_fuzz_notation_CFLAGS = $(AM_CFLAGS) -fsanitize=fuzzer,address,undefined
fuzz_fuzz_notation_LDFLAGS = -fsanitize=fuzzer,address,undefined
fuzz_fuzz_record_SOURCES = fuzz/fuzz_record.c $(fuzz_core_sources)
fuzz_fuzz_record_CFLAGS = $(AM_CFLAGS) -fsanitize=fuzzer,address,undefined
fuzz_fuzz_record_LDFLAGS = -fsanitize=fuzzer,address,undefined
fuzz-run: fuzz/fuzz_notation fuzz/fuzz_record
	$(SHELL) $(srcdir)/fuzz/run '$(abs_top_builddir)' '$(abs_top_srcdir)' $(FUZZ_SECONDS)
else
fuzz-run:
	@echo "fuzz-run: configure with CC=clang --enable-fuzzing first" >&2; exit 1
endif
.PHONY: fuzz-run
