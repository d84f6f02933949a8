/* test_first_mails.c -- the mail as people write it: greetings and
 * sentences before the commands, closings after them, the lines mail
 * programs add, slips of a keyword ("chalenge"); and the corpus in
 * tests/server/first-mails/, real-looking mails as Thunderbird, Gmail,
 * Outlook and Apple Mail write them, each with the commands it must
 * yield (see that folder's README). */
#include <check.h>
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/command.h"
#include "../check_run.h"
#include "command_test.h"

START_TEST(test_near_miss)
{
	static const struct { const char *word, *near; } slips[] = {
		{ "chalenge", "challenge" }, { "acept", "accept" },
		{ "mvoe", "move" }, { "hlep", "help" }, { "regster", "register" },
		{ "challange", "challenge" }, { "Resing", "resign" },
		{ "drwa", "draw" }, { "moev", "move" }, { "hep", "help" },
		{ "boad", "board" }, { "histroy", "history" },
		{ "setings", "settings" }, { "mesage", "message" },
		{ "ofer", "offer" }, { "Chalenge,", "challenge" },
		{ "acceptt", "accept" }, { "registre", "register" },
	};
	static const char *const words[] = {
		"hey", "hi", "love", "more", "drew", "held", "hello", "dear",
		"james", "hell", "sett", "kez", "thanks", "please",
		"here", "i'd", "c3-e5", "move", "x", "", "regards", "best",
		"mode", "sorry", "often",
	};
	struct command c;
	char buf[64];

	for (size_t i = 0; i < sizeof(slips) / sizeof(slips[0]); i++) {
		const char *k = command_near_keyword(slips[i].word,
						     strlen(slips[i].word),
						     false);
		ck_assert_msg(k != NULL && strcmp(k, slips[i].near) == 0,
			      "%s -> %s", slips[i].word, k ? k : "(none)");
	}
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		const char *k = command_near_keyword(words[i], strlen(words[i]),
						     false);
		ck_assert_msg(k == NULL, "%s -> %s", words[i], k);
	}
	ck_assert_str_eq(command_near_keyword("gmaes", 5, false), "games");
	ck_assert_str_eq(command_near_keyword("game", 4, false), "games");
	/* topics only for help */
	ck_assert_ptr_null(command_near_keyword("rulez", 5, false));
	ck_assert_str_eq(command_near_keyword("rulez", 5, true), "rules");

	/* the refusal of an unknown word carries the guess */
	c = refused("chalenge bob", 0, COMMAND_ERR_UNKNOWN, NULL);
	ck_assert_str_eq(c.detail, "chalenge");
	ck_assert_str_eq(c.suggestion, "challenge");
	c = line("frobnicate", 0);
	ck_assert_str_eq(c.suggestion, "");
	snprintf(buf, sizeof(buf), "acept 4");
	c = line(buf, 0);
	ck_assert_str_eq(c.suggestion, "accept");
	ck_assert_int_eq(c.game, 4);
}
END_TEST

START_TEST(test_prose_lines)
{
	static const char *const prose[] = {
		"Hi there, I'd like to play",
		"Hi",
		"Hello!",
		"Dear Ashes,",
		"Good morning",
		"Thanks for the game",
		"I'd like to play.",
		"Here is my move:",
		"Alice,",
		"I would like to join the club please",
		"This is my first game, how does it work?",
		"I want to play on a 7 board",
		"Sorry",
		"  Hey Bob :)",
	};
	static const char *const not_prose[] = {
		"register alice", "help", "Help!", "c3-e5", "c3-e5.",
		"swap", "move 12 7 c3-e5", "chalenge bob.", "Chalenge bob, please!",
		"Mvoe 12 3 c3-e5", "frobnicate", "frobnicate 12",
		"xyz abc", "Accept my challenge please.", "games", "",
		"bob 12 13 14 15", "size=7 swap and tax lost",
		"I want 2 games on 7 boards",
	};

	for (size_t i = 0; i < sizeof(prose) / sizeof(prose[0]); i++)
		ck_assert_msg(command_line_is_prose(prose[i], strlen(prose[i])),
			      "prose: %s", prose[i]);
	for (size_t i = 0; i < sizeof(not_prose) / sizeof(not_prose[0]); i++)
		ck_assert_msg(!command_line_is_prose(not_prose[i],
						     strlen(not_prose[i])),
			      "not prose: %s", not_prose[i]);
}
END_TEST

START_TEST(test_prose_in_mail)
{
	struct command_list l;

	/* greetings and sentences before the first command are skipped */
	l = parsed_as(NULL,
		  "Hi there, I'd like to play\n"
		  "\n"
		  "Dear Ashes,\n"
		  "here is my registration:\n"
		  "register alice\n"
		  "games\n", 0, 2, 0, COMMAND_REGISTER);
	ck_assert_int_eq(l.items[0].line, 5);
	ck_assert(l.skipped_prose);
	ck_assert(!l.stopped_early);
	command_list_free(&l);

	/* a mail of nothing but prose has no commands, and says why */
	l = parse(NULL, "Hello!\nHow do I play this game?\n", 0);
	ck_assert_uint_eq(l.count, 0);
	ck_assert(l.skipped_prose);
	command_list_free(&l);

	/* after the first command, an unknown line stops the rest */
	l = parsed_as(NULL, "games\nI'd like to play too.\nboard 3\n", 0, 2,
		      1, COMMAND_INVALID);
	ck_assert_int_eq(l.items[1].error, COMMAND_ERR_UNKNOWN);
	ck_assert(l.stopped_early);
	ck_assert(!l.skipped_prose);
	command_list_free(&l);

	/* a slip of a keyword is never prose: it is refused, with a guess */
	l = parse(NULL, "Hi,\nchalenge bob size=7\ngames\n", 0);
	ck_assert_uint_eq(l.count, 1);
	ck_assert_int_eq(l.items[0].error, COMMAND_ERR_UNKNOWN);
	ck_assert_str_eq(l.items[0].suggestion, "challenge");
	ck_assert(l.skipped_prose);
	ck_assert(l.stopped_early);
	command_list_free(&l);

	/* nor is a word that is neither prose nor a command */
	l = parse(NULL, "frobnicate 12\nregister alice\n", 0);
	ck_assert_uint_eq(l.count, 1);
	ck_assert_int_eq(l.items[0].error, COMMAND_ERR_UNKNOWN);
	ck_assert(!l.skipped_prose);
	command_list_free(&l);

	/* a bare move in a thread is a command, however short */
	l = parsed_as(NULL, "Hi Bob!\nc3-e5\n", 12, 1, 0, COMMAND_MOVE);
	command_list_free(&l);
}
END_TEST

START_TEST(test_closing_in_mail)
{
	struct command_list l;

	/* "Thanks,\nAlice" after the commands ends the text, as a
	 * signature would, and as unremarked */
	l = parsed_as(NULL, "register alice\n\nThanks,\nAlice\n", 0, 1,
		      0, COMMAND_REGISTER);
	ck_assert(!l.skipped_prose);
	ck_assert(!l.stopped_early);
	command_list_free(&l);
	count_is(NULL, "games\nBest regards,\nBob Smith\nBob's Garage Ltd\n",
		 0, 1);

	/* ... but not when a command follows: that one would be lost */
	l = parsed_as(NULL, "games\nThanks!\nboard 3\n", 0, 2,
		      1, COMMAND_INVALID);
	ck_assert_str_eq(l.items[1].detail, "Thanks!");
	ck_assert(l.stopped_early);
	command_list_free(&l);

	/* a command below only in quoted text does not count */
	count_is(NULL, "resign 3\nCheers\n\nOn Mon, Ashes wrote:\n> board 3\n",
		 0, 1);

	/* a closing with a number is no closing */
	ck_assert(!command_line_is_closing("thanks 12", 9));
	ck_assert(command_line_is_closing("Kind regards,", 13));
	ck_assert(!command_line_is_closing("Thanks, and here are my moves", 29));
}
END_TEST

/* What mail programs add around what was written. */
START_TEST(test_client_lines)
{
	struct command_list l;

	l = parse(NULL, "c3-e5\n\nSent from my iPhone\n\n> On 3 Jan 2026, at "
		  "10:00, Ashes <ashes@example.org> wrote:\n>\n> move 12 7 "
		  "MOVE\n", 12);
	ck_assert_uint_eq(l.count, 1);
	ck_assert(!l.skipped_quoted);
	command_list_free(&l);

	/* Outlook quotes without ">", below its headers */
	l = parsed_as(NULL,
		  "resign 12\r\n\r\n"
		  "From: Ashes <ashes@example.org>\r\n"
		  "Sent: Saturday, January 3, 2026 10:00 AM\r\n"
		  "To: Alice <alice@example.org>\r\n"
		  "Subject: [ashes #12] Your move\r\n\r\n"
		  "move 12 7 MOVE\r\n", 12, 1, 0, COMMAND_RESIGN);
	ck_assert(l.skipped_quoted);
	command_list_free(&l);

	/* a line that only starts like a header is no quote */
	l = parsed_as(NULL, "games\nFrom: me\nboard 3\n", 0, 2,
		      1, COMMAND_INVALID);
	command_list_free(&l);
}
END_TEST

/* --- the corpus ------------------------------------------------------------ */

static const char *const draw_words[] = { "offer", "accept", "decline" };

/* A command as the corpus files write it (README). */
static void format_command(const struct command *c, char *buf, size_t len)
{
	const char *kind = command_kind_name(c->kind);
	size_t n;

	switch (c->kind) {
	case COMMAND_INVALID:
		n = (size_t)snprintf(buf, len, "refused: %s: %s",
				     command_error_string(c->error),
				     c->detail);
		if (c->suggestion[0] != '\0' && n < len)
			snprintf(buf + n, len - n, " (did you mean %s?)",
				 c->suggestion);
		return;
	case COMMAND_HELP:
		if (c->topic[0] != '\0')
			snprintf(buf, len, "help %s", c->topic);
		else if (c->detail[0] != '\0')
			snprintf(buf, len, "help (no topic: %s)", c->detail);
		else
			snprintf(buf, len, "help");
		return;
	case COMMAND_REGISTER:
		snprintf(buf, len, "register %s", c->name);
		return;
	case COMMAND_CHALLENGE:
		n = (size_t)snprintf(buf, len, "challenge %s", c->name);
		for (size_t i = 0; i < c->noptions && n < len; i++)
			n += (size_t)snprintf(buf + n, len - n, " %s=%s",
					      c->options[i].key,
					      c->options[i].value);
		return;
	case COMMAND_MOVE:
		if (c->bare)
			snprintf(buf, len, "move %" PRId64 " - %s", c->game,
				 c->move);
		else
			snprintf(buf, len, "move %" PRId64 " %d %s", c->game,
				 c->ply, c->move);
		return;
	case COMMAND_PREVIEW:
		snprintf(buf, len, "preview %" PRId64 " %s", c->game, c->move);
		return;
	case COMMAND_DRAW:
	case COMMAND_UNDO:
		snprintf(buf, len, "%s %s %" PRId64, kind,
			 draw_words[c->kind == COMMAND_DRAW ? (int)c->draw :
				    (int)c->undo], c->game);
		return;
	case COMMAND_CONFIRM:
		snprintf(buf, len, "confirm %s", c->code);
		return;
	case COMMAND_KEY_REPLACE:
		snprintf(buf, len, "key replace");
		return;
	case COMMAND_SET:
		snprintf(buf, len, "set %s %s", c->options[0].key,
			 c->options[0].value);
		return;
	case COMMAND_MESSAGE:
		snprintf(buf, len, "message %" PRId64 " %s", c->game, c->note);
		return;
	case COMMAND_GAMES:
	case COMMAND_SETTINGS:
		snprintf(buf, len, "%s", kind);
		return;
	default:
		snprintf(buf, len, "%s %" PRId64, kind, c->game);
		return;
	}
}

/* One corpus file, read whole. */
struct first_mail {
	char *text;
	const char *body;
	int64_t thread;
	char subject[256];
	char expect[COMMAND_MAX][256];
	size_t nexpect;
	char flags[128];
};

/* Reads path into m: the header lines (README) up to the first empty
 * line, then the body.  Fails the test on a malformed file. */
static void first_mail_read(const char *path, struct first_mail *m)
{
	FILE *f = fopen(path, "rb");
	long size;
	char *p;

	memset(m, 0, sizeof(*m));
	ck_assert_msg(f != NULL, "%s: cannot open", path);
	ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
	size = ftell(f);
	rewind(f);
	m->text = malloc((size_t)size + 1);
	ck_assert_ptr_nonnull(m->text);
	ck_assert_uint_eq(fread(m->text, 1, (size_t)size, f), (size_t)size);
	m->text[size] = '\0';
	fclose(f);
	for (p = m->text; *p != '\0' && *p != '\n';) {
		char *eol = strchr(p, '\n'), *val;

		ck_assert_msg(eol != NULL, "%s: no body", path);
		*eol = '\0';
		val = strchr(p, ':');
		ck_assert_msg(val != NULL, "%s: bad header line: %s", path, p);
		*val++ = '\0';
		while (*val == ' ')
			val++;
		if (strcmp(p, "Thread") == 0)
			m->thread = strtoll(val, NULL, 10);
		else if (strcmp(p, "Subject") == 0)
			snprintf(m->subject, sizeof(m->subject), "%s", val);
		else if (strcmp(p, "Expect") == 0 && m->nexpect < COMMAND_MAX)
			snprintf(m->expect[m->nexpect++],
				 sizeof(m->expect[0]), "%s", val);
		else if (strcmp(p, "Flags") == 0)
			snprintf(m->flags, sizeof(m->flags), " %s ", val);
		else
			ck_assert_msg(strcmp(p, "Client") == 0,
				      "%s: unknown header %s", path, p);
		p = eol + 1;
	}
	ck_assert_msg(*p == '\n', "%s: no empty line before the body", path);
	m->body = p + 1;
}

static bool has_flag(const struct first_mail *m, const char *flag)
{
	char word[40];

	snprintf(word, sizeof(word), " %s ", flag);
	return strstr(m->flags, word) != NULL;
}

/* Checks the commands the body yields (with line ends as given, or all
 * made CRLF) against the file's expectations. */
static void first_mail_check(const char *name, const struct first_mail *m,
			     const char *body)
{
	struct command_list l = parse(m->subject[0] != '\0' ? m->subject :
				      NULL, body, m->thread);
	char got[256];

	for (size_t i = 0; i < l.count || i < m->nexpect; i++) {
		if (i < l.count)
			format_command(&l.items[i], got, sizeof(got));
		ck_assert_msg(i < l.count && i < m->nexpect &&
			      strcmp(got, m->expect[i]) == 0,
			      "%s: command %zu: expected \"%s\", got \"%s\"",
			      name, i + 1, i < m->nexpect ? m->expect[i] : "",
			      i < l.count ? got : "");
	}
	ck_assert_msg(l.skipped_prose == has_flag(m, "prose"),
		      "%s: skipped_prose is %d", name, l.skipped_prose);
	ck_assert_msg(l.skipped_quoted == has_flag(m, "quoted"),
		      "%s: skipped_quoted is %d", name, l.skipped_quoted);
	ck_assert_msg(l.stopped_early == has_flag(m, "stopped"),
		      "%s: stopped_early is %d", name, l.stopped_early);
	ck_assert_msg(l.subject_ignored == has_flag(m, "subject"),
		      "%s: subject_ignored is %d", name, l.subject_ignored);
	command_list_free(&l);
}

/* The body with every line end made CRLF, as Outlook sends it. */
static char *crlf_copy(const char *body)
{
	char *out = malloc(strlen(body) * 2 + 1), *q = out;

	ck_assert_ptr_nonnull(out);
	for (const char *p = body; *p != '\0'; p++) {
		if (*p == '\n' && (p == body || p[-1] != '\r'))
			*q++ = '\r';
		*q++ = *p;
	}
	*q = '\0';
	return out;
}

START_TEST(test_corpus)
{
	const char *src = getenv("ASHES_SRCDIR");
	char dir[4096], path[8192];
	struct dirent *e;
	size_t files = 0;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/tests/server/first-mails",
		 src != NULL ? src : "..");
	d = opendir(dir);
	ck_assert_msg(d != NULL, "%s: cannot open", dir);
	while ((e = readdir(d)) != NULL) {
		size_t n = strlen(e->d_name);
		struct first_mail *m;
		char *crlf;

		if (n < 6 || strcmp(e->d_name + n - 5, ".mail") != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		m = malloc(sizeof(*m));
		ck_assert_ptr_nonnull(m);
		first_mail_read(path, m);
		first_mail_check(e->d_name, m, m->body);
		crlf = crlf_copy(m->body);
		first_mail_check(e->d_name, m, crlf);
		free(crlf);
		free(m->text);
		free(m);
		files++;
	}
	closedir(d);
	ck_assert_uint_ge(files, 20);
}
END_TEST

TEST_MAIN("first-mails", "mail", NULL, NULL, 0, test_near_miss,
	  test_prose_lines, test_prose_in_mail, test_closing_in_mail,
	  test_client_lines, test_corpus)
