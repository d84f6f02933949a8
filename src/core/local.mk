# src/core: the rules.  Links against libc only.
noinst_LIBRARIES += libashes_core.a
libashes_core_a_SOURCES = \
	src/core/core.h src/core/notation.h src/core/record.h \
	src/core/core-int.h \
	src/core/geom.c src/core/rules.c src/core/movegen.c \
	src/core/explain.c src/core/notation.c src/core/record.c
