# src/server: the game service and the mail command language.  Knows the
# rules (core), text (render) and the store; nothing of IMAP or SMTP.
noinst_LIBRARIES += libashes_server.a
libashes_server_a_SOURCES = \
	src/server/command.c src/server/command.h

# tests/server: Check tests for the command language and the service.
check_PROGRAMS += tests/server/test_command
TESTS += tests/server/test_command
tests_server_test_command_SOURCES = tests/server/test_command.c
tests_server_test_command_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_server_test_command_LDADD = libashes_server.a libashes_util.a \
	$(CHECK_LIBS)
