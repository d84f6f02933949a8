# src/core: the rules.  Links against libc only.
noinst_LIBRARIES += libashes_core.a
libashes_core_a_SOURCES = \
	src/core/core.h src/core/notation.h src/core/record.h \
	src/core/variant.h src/core/core-int.h \
	src/core/geom.c src/core/rules.c src/core/movegen.c \
	src/core/movepick.c src/core/movepick-bb.h src/core/movepick-kept.h \
	src/core/lines.c \
	src/core/explain.c src/core/notation.c src/core/record.c \
	src/core/variant.c \
	src/core/record2.h src/core/record2-int.h src/core/record2.c \
	src/core/record2_check.c src/core/record2_parse.c \
	src/core/record2_replay.c

# tests/core: Check tests of the rules core.
core_test_ldadd = libashes_core.a $(CHECK_LIBS)
check_PROGRAMS += tests/core/test_rules
TESTS += tests/core/test_rules
tests_core_test_rules_SOURCES = tests/core/test_rules.c tests/core/core-test.h
tests_core_test_rules_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_core_test_rules_LDADD = $(core_test_ldadd)
check_PROGRAMS += tests/core/test_perft
TESTS += tests/core/test_perft
tests_core_test_perft_SOURCES = tests/core/test_perft.c tests/core/core-test.h
tests_core_test_perft_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_core_test_perft_LDADD = $(core_test_ldadd)
check_PROGRAMS += tests/core/test_movepick
TESTS += tests/core/test_movepick
tests_core_test_movepick_SOURCES = tests/core/test_movepick.c \
	tests/core/core-test.h
tests_core_test_movepick_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_core_test_movepick_LDADD = $(core_test_ldadd)
check_PROGRAMS += tests/core/test_record
TESTS += tests/core/test_record
tests_core_test_record_SOURCES = tests/core/test_record.c tests/core/core-test.h
tests_core_test_record_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_core_test_record_LDADD = $(core_test_ldadd)
check_PROGRAMS += tests/core/test_record2
TESTS += tests/core/test_record2
tests_core_test_record2_SOURCES = tests/core/test_record2.c \
	tests/core/record2-test.h tests/core/core-test.h
tests_core_test_record2_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_core_test_record2_LDADD = $(core_test_ldadd)
check_PROGRAMS += tests/core/test_record2_errors
TESTS += tests/core/test_record2_errors
tests_core_test_record2_errors_SOURCES = tests/core/test_record2_errors.c \
	tests/core/record2-test.h tests/core/core-test.h
tests_core_test_record2_errors_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_core_test_record2_errors_LDADD = $(core_test_ldadd)
check_PROGRAMS += tests/core/test_explain
TESTS += tests/core/test_explain
tests_core_test_explain_SOURCES = tests/core/test_explain.c tests/core/core-test.h
tests_core_test_explain_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_core_test_explain_LDADD = $(core_test_ldadd)
check_PROGRAMS += tests/core/test_variant
TESTS += tests/core/test_variant
tests_core_test_variant_SOURCES = tests/core/test_variant.c
tests_core_test_variant_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_core_test_variant_LDADD = $(core_test_ldadd)
