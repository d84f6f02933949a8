# src/util: small helpers shared by every layer above core.
noinst_LIBRARIES += libashes_util.a
libashes_util_a_SOURCES = src/util/buf.c src/util/buf.h \
	src/util/xalloc.c src/util/xalloc.h src/util/xstr.c src/util/xstr.h \
	src/util/escape.c src/util/escape.h \
	src/util/msgid.c src/util/msgid.h \
	src/util/name_table.c src/util/name_table.h \
	src/util/json.c src/util/json.h \
	src/util/width.c src/util/width.h \
	src/util/run.c src/util/run.h
# headers the tests share: every Check program's main() and the
# service tests' stand-in digest
EXTRA_DIST += tests/check_run.h tests/server/digest_test.h tests/test_file.h

# tests/util: the JSON writer
check_PROGRAMS += tests/util/test_json
TESTS += tests/util/test_json
tests_util_test_json_LDADD = libashes_util.a $(CHECK_LIBS)
