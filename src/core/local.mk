# src/core: the rules.  Links against libc only.
noinst_LIBRARIES += libashes_core.a
libashes_core_a_SOURCES = src/util/buf.c \
	src/core/core.h \
	src/core/notation.h \
	src/core/record.h
