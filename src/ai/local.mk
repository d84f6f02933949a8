# src/ai: the practice opponent's search (UCT over the rules core) and its
# five levels.  Links against the core and libc only.
noinst_LIBRARIES += libashes_ai.a
libashes_ai_a_SOURCES = src/ai/ai.h src/ai/ai-int.h src/ai/ai.c \
	src/ai/mcts.c src/ai/playout.c src/ai/analysis.c
ai_libs = libashes_ai.a libashes_core.a

# tests/ai: Check tests of the search and the levels.
check_PROGRAMS += tests/ai/test_ai
TESTS += tests/ai/test_ai
EXTRA_DIST += tests/core/core-test.h
tests_ai_test_ai_LDADD = $(ai_libs) $(CHECK_LIBS)
