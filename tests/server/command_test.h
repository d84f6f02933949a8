/* command_test.h -- what the command language's test programs share
 * (test_command.c, test_command_mail.c, test_command_clock.c,
 * test_first_mails.c): a mail's commands, or one line's, read as the
 * service reads them. */
#ifndef ASHES_TESTS_SERVER_COMMAND_TEST_H
#define ASHES_TESTS_SERVER_COMMAND_TEST_H

#include <check.h>
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

/* The line text, in thread, reads as a command of kind; the command. */
static inline struct command kind_is(const char *text, int64_t thread,
				     enum command_kind kind)
{
	struct command c = line(text, thread);

	ck_assert_msg(c.kind == kind, "%s: kind %d, not %d", text,
		      (int)c.kind, (int)kind);
	return c;
}

/* The line text, in thread, reads as a command of kind for game; the
 * command. */
static inline struct command command_is(const char *text, int64_t thread,
					enum command_kind kind, int64_t game)
{
	struct command c = kind_is(text, thread, kind);

	ck_assert_msg(c.game == game, "%s: game %lld, not %lld", text,
		      (long long)c.game, (long long)game);
	return c;
}

/* The line text, in thread, names game; the command. */
static inline struct command game_is(const char *text, int64_t thread,
				     int64_t game)
{
	struct command c = line(text, thread);

	ck_assert_msg(c.game == game, "%s: game %lld, not %lld", text,
		      (long long)c.game, (long long)game);
	return c;
}

/* The mail (see parse) holds n commands, the one at i of kind; the list,
 * which the caller frees. */
static inline struct command_list parsed_as(const char *subject,
					    const char *body, int64_t thread,
					    size_t n, size_t i,
					    enum command_kind kind)
{
	struct command_list l = parse(subject, body, thread);

	ck_assert_uint_eq(l.count, n);
	ck_assert_msg(l.items[i].kind == kind, "command %zu: kind %d, not %d",
		      i, (int)l.items[i].kind, (int)kind);
	return l;
}

/* The first command of the mail (see parse) is refused with err. */
static inline void first_refused(const char *subject, const char *body,
				 int64_t thread, enum command_error err)
{
	struct command_list l = parse(subject, body, thread);

	ck_assert_msg(l.items[0].error == err, "error %d, not %d",
		      (int)l.items[0].error, (int)err);
	command_list_free(&l);
}

/* The mail (see parse) holds n commands. */
static inline void count_is(const char *subject, const char *body,
			    int64_t thread, size_t n)
{
	struct command_list l = parse(subject, body, thread);

	ck_assert_uint_eq(l.count, n);
	command_list_free(&l);
}

/* The line text, in thread, is refused with err -- and with detail when
 * that is not NULL; the command. */
static inline struct command refused(const char *text, int64_t thread,
				     enum command_error err,
				     const char *detail)
{
	struct command c = line(text, thread);

	ck_assert_msg(c.error == err, "%s: error %d, not %d", text,
		      (int)c.error, (int)err);
	if (detail != NULL)
		ck_assert_str_eq(c.detail, detail);
	return c;
}

/* One line refused: see refused(). */
struct refusal {
	const char *text;
	int64_t thread;
	enum command_error err;
	const char *detail;
};

/* Each of the n lines is refused as it says. */
static inline void refused_all(const struct refusal *r, size_t n)
{
	for (size_t i = 0; i < n; i++)
		refused(r[i].text, r[i].thread, r[i].err, r[i].detail);
}

/* refused_all of the refusals given, { text, thread, err, detail }. */
#define REFUSED(...) \
	refused_all((const struct refusal[]){ __VA_ARGS__ }, \
		    sizeof((const struct refusal[]){ __VA_ARGS__ }) / \
		    sizeof(struct refusal))

#endif
