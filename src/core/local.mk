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

# tests/core: Check tests of the rules core.  Each is one .c file of the
# program's name (automake's default _SOURCES), compiled with AM_CFLAGS.
core_tests = tests/core/test_rules tests/core/test_perft \
	tests/core/test_movepick tests/core/test_record tests/core/test_record2 \
	tests/core/test_record2_errors tests/core/test_explain \
	tests/core/test_variant
check_PROGRAMS += $(core_tests)
TESTS += $(core_tests)
EXTRA_DIST += tests/core/core-test.h tests/core/record2-test.h
core_test_ldadd = libashes_core.a $(CHECK_LIBS)
tests_core_test_rules_LDADD = $(core_test_ldadd)
tests_core_test_perft_LDADD = $(core_test_ldadd)
tests_core_test_movepick_LDADD = $(core_test_ldadd)
tests_core_test_record_LDADD = $(core_test_ldadd)
tests_core_test_record2_LDADD = $(core_test_ldadd)
tests_core_test_record2_errors_LDADD = $(core_test_ldadd)
tests_core_test_explain_LDADD = $(core_test_ldadd)
tests_core_test_variant_LDADD = $(core_test_ldadd)
