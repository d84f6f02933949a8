/* command_test.h -- what the command language's test programs share
 * (test_command.c, test_command_mail.c, test_command_clock.c,
 * test_first_mails.c): a mail's commands, or one line's, read as the
 * service reads them. */
#ifndef ASHES_TESTS_SERVER_COMMAND_TEST_H
#define ASHES_TESTS_SERVER_COMMAND_TEST_H

#include <stdint.h>
#include <string.h>

#include "server/command.h"

/* The commands of a mail (subject may be NULL); the caller frees the
 * list with command_list_free(). */
static inline struct command_list parse(const char *subject,
					const char *body, int64_t thread)
{
	struct command_list l;
	command_parse_mail(subject, body, strlen(body), thread, &l);
	return l;
}

static inline struct command line(const char *text, int64_t thread)
{
	struct command c;
	command_parse_line(text, strlen(text), thread, &c);
	return c;
}

#endif
