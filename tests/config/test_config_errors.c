/* test_config_errors.c -- ashesd.conf refused: every error reported at
 * its FILE:LINE, bad values one by one, and the keys each source type
 * requires.  (What is accepted: test_config.c.) */
#include <config.h>

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/club_config.h"
#include "util/buf.h"

#include "config_test.h"
#include "daemon_test.h"
#include "../check_run.h"

static size_t count_lines(const char *s)
{
	size_t n = 0;

	for (; *s != '\0'; s++)
		n += *s == '\n';
	return n;
}

/* Every error is reported, each with its own line. */
START_TEST(test_errors_with_lines)
{
	static const char text[] =
		"key = before any section\n"               /* 1 */
		"[smtp]\n"                                 /* 2 */
		"from = ashes@example.org\n"               /* 3 */
		"frm = typo\n"                             /* 4 */
		"from = again@example.org\n"               /* 5 */
		"batch_size = many\n"                      /* 6 */
		"batch_size2\n"                            /* 7 */
		"[nonsense]\n"                             /* 8 */
		"whatever = 1\n"                           /* 9 */
		"[game]\n"                                 /* 10 */
		"size = 99\n"                              /* 11 */
		"tax = both\n"                             /* 12 */
		"swap = maybe\n"                           /* 13 */
		"move_time = 3 days\n"                     /* 14 */
		"[database\n"                              /* 15 */
		"[database]\n"                             /* 16 */
		"path = relative/db.sqlite\n"              /* 17 */
		"busy_timeout = \"5s\n"                    /* 18 */
		"[limits]\n"                               /* 19 */
		"max_message_size = 12Q\n"                 /* 20 */
		"max_message_size = 2K\n"                  /* 21: duplicate */
		"[source]\n"                               /* 22 */
		"type = pop3\n";                           /* 23 */
	static const char *const expected[] = {
		"t.conf:1: key \"key\" before any [section]",
		"t.conf:4: unknown key \"frm\" in [smtp]",
		"t.conf:5: [smtp] from is set twice (first on line 3)",
		"t.conf:6: [smtp] batch_size: bad value \"many\": expected a whole number",
		"t.conf:7: expected \"key = value\" or \"[section]\"",
		"t.conf:8: unknown section [nonsense]",
		"t.conf:11: [game] size: 99 is out of range (3..13)",
		"t.conf:12: [game] tax: \"both\" is not one of: removed lost",
		"t.conf:13: [game] swap: bad value \"maybe\"",
		"t.conf:14: [game] move_time: bad value \"3 days\"",
		"t.conf:15: bad section header",
		"t.conf:17: [database] path: \"relative/db.sqlite\" is not an absolute path",
		"t.conf:18: [database] busy_timeout: unterminated quoted value",
		"t.conf:20: [limits] max_message_size: bad value \"12Q\"",
		"t.conf:21: [limits] max_message_size is set twice (first on line 20)",
		"t.conf:23: [source] type: \"pop3\" is not one of: imap maildir",
	};
	struct config cfg;
	char *errors;

	ck_assert_int_lt(load(text, &cfg, &errors), 0);
	for (size_t i = 0; i < sizeof(expected) / sizeof(expected[0]); i++)
		ck_assert_msg(strstr(errors, expected[i]) != NULL,
			      "missing \"%s\" in:\n%s", expected[i], errors);
	/* Line 9 is inside the unknown section: reported once, at line 8. */
	ck_assert_ptr_null(strstr(errors, "t.conf:9:"));
	/* The failed load leaves nothing behind. */
	ck_assert_ptr_null(cfg.smtp.from);
	ck_assert_ptr_null(cfg.path);
	free(errors);
}
END_TEST

START_TEST(test_bad_values)
{
	static const struct {
		const char *line, *message;
	} cases[] = {
		{ "[imap]\nurl = http://example.org\n", "t.conf:2: [imap] url: bad value \"http://example.org\": expected imap://" },
		{ "[imap]\nurl = imap://user:pw@example.org\n", "no user or password in the URL" },
		{ "[imap]\nurl = imap://example.org:0\n", "bad port" },
		{ "[imap]\nurl = imap://example.org:99999\n", "bad port" },
		{ "[imap]\nurl = imap://example.org/INBOX\n", "unexpected path" },
		{ "[imap]\nurl = imap://\n", "no host" },
		{ "[smtp]\nurl = imaps://example.org\n", "expected smtp://" },
		{ "[smtp]\nfrom = Ashes <a@b.example>\n", "t.conf:2: [smtp] from: \"Ashes <a@b.example>\" is not a plain mail address" },
		{ "[smtp]\nfrom = nobody\n", "is not a plain mail address" },
		{ "[imap]\npoll_interval = 10ms\n", "t.conf:2: [imap] poll_interval: 10ms is out of range (1s..1d)" },
		{ "[limits]\nmax_message_size = 1K\n", "t.conf:2: [limits] max_message_size: 1K is out of range (4K..1G)" },
		{ "[smtp]\nbatch_size = 0\n", "batch_size: 0 is out of range (1..10000)" },
		{ "[limits]\nmax_commands = 65\n", "t.conf:2: [limits] max_commands: 65 is out of range (1..64)" },
		{ "[log]\nlevel = loud\n", "[log] level: \"loud\" is not one of: debug info notice warning error" },
		{ "[log]\ntarget = file\n", "[log] target: \"file\" is not one of: stderr syslog journal" },
		{ "[imap]\nstarttls = sometimes\n", "[imap] starttls: \"sometimes\" is not one of: required optional no" },
		{ "[imap]\nidle =\n", "[imap] idle: bad value \"\"" },
		{ "[smtp]\nretry_initial = 2h\nretry_max = 1h\n", "t.conf:2: [smtp] retry_initial is longer than retry_max" },
		{ "[templates]\ndir = /nonexistent/ashes-templates\n", "t.conf:2: [templates] dir: /nonexistent/ashes-templates: No such file or directory" },
		{ "[smtp]\nca_file = /nonexistent/ca.pem\n", "t.conf:2: [smtp] ca_file: cannot read /nonexistent/ca.pem" },
		{ "[imap]\npassword = x\n", "t.conf:2: [imap] a password without a user" },
		{ "[gpg]\nhome = \"a\"b\n", "text after the closing quote" },
		{ "[imap]\narchive_folder = INBOX\n", "t.conf:2: [imap] archive_folder must be set, and differ from mailbox" },
		{ "[imap]\narchive_folder =\n", "t.conf:2: [imap] archive_folder must be set" },
		{ "[imap]\nmailbox =\n", "t.conf:2: [imap] mailbox must not be empty" },
		{ "[imap]\nauth = cram-md5\n", "[imap] auth: \"cram-md5\" is not one of: login plain" },
		/* [status]: a warning before its critical, free disk the
		 * other way round. */
		{ "[status]\nheartbeat_warning = 20m\n", "t.conf:2: [status] heartbeat_warning is more than heartbeat_critical" },
		{ "[status]\nfailed_warning = 5\nfailed_critical = 2\n", "t.conf:2: [status] failed_warning is more than failed_critical" },
		{ "[status]\ndisk_free_critical = 2G\n", "t.conf:2: [status] disk_free_critical is more than disk_free_warning" },
		{ "[status]\nwindow = 10m\n", "t.conf:2: [status] window: 10m is out of range (1h..365d)" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct buf text = BUF_INIT;
		struct config cfg;
		char *errors;

		/* A valid base, so only the case's own error shows. */
		buf_printf(&text, "[source]\ntype = maildir\nmaildir = %s\n", tmpdir);
		if (strstr(cases[i].line, "from =") == NULL)
			buf_puts(&text, "[smtp]\nfrom = a@b.example\n");
		{
			/* shift the expected line numbers: put the case first */
			struct buf all = BUF_INIT;

			buf_puts(&all, cases[i].line);
			buf_puts(&all, buf_str(&text));
			ck_assert_msg(load(buf_str(&all), &cfg, &errors) < 0,
				      "accepted: %s", cases[i].line);
			buf_free(&all);
		}
		ck_assert_msg(strstr(errors, cases[i].message) != NULL,
			      "case %zu: expected \"%s\" in:\n%s", i, cases[i].message, errors);
		free(errors);
		buf_free(&text);
	}
	{
		/* A refused url is reported once, not also as missing. */
		struct config cfg;
		char *errors;

		ck_assert(load("[imap]\nurl = http://example.org\nuser = u\npassword = p\n"
			       "[smtp]\nurl = smtp://127.0.0.1\nfrom = a@b.example\n",
			       &cfg, &errors) < 0);
		ck_assert_ptr_nonnull(strstr(errors, "[imap] url: bad value"));
		ck_assert_msg(strstr(errors, "[imap] url is required") == NULL, "%s", errors);
		free(errors);
	}
}
END_TEST

START_TEST(test_required_imap)
{
	struct config cfg;
	char *errors;

	/* An empty file means source = imap: its keys and [smtp] are needed. */
	ck_assert_int_lt(load("", &cfg, &errors), 0);
	ck_assert_uint_eq(count_lines(errors), 4);
	ck_assert_ptr_nonnull(strstr(errors, "t.conf: [imap] url is required"));
	ck_assert_ptr_nonnull(strstr(errors, "t.conf: [imap] user is required"));
	ck_assert_ptr_nonnull(strstr(errors, "t.conf: [smtp] url is required"));
	ck_assert_ptr_nonnull(strstr(errors, "t.conf: [smtp] from (the daemon's own address) is required"));
	free(errors);

	ck_assert_int_lt(load("[imap]\nurl = imap://h\nuser = u\n"
			      "[smtp]\nurl = smtp://h\nfrom = a@b.example\nuser = s\n",
			      &cfg, &errors), 0);
	ck_assert_ptr_nonnull(strstr(errors, "t.conf:3: [imap] user is set but neither password nor password_file"));
	ck_assert_ptr_nonnull(strstr(errors, "t.conf:7: [smtp] user is set but neither password nor password_file"));
	ck_assert_uint_eq(count_lines(errors), 2);
	free(errors);
}
END_TEST

START_TEST(test_required_maildir)
{
	struct config_errors errors = { NULL, 0 };
	struct config_overrides ov = { .maildir = tmpdir };
	struct config cfg;
	char *joined;

	ck_assert_int_lt(load("[source]\ntype = maildir\n[smtp]\nfrom = a@b.example\n",
			      &cfg, &joined), 0);
	ck_assert_ptr_nonnull(strstr(joined, "t.conf:2: [source] type = maildir needs [source] maildir"));
	ck_assert_uint_eq(count_lines(joined), 1);
	free(joined);

	ck_assert_int_lt(load("[source]\ntype = maildir\nmaildir = /nonexistent/maildir\n"
			      "[smtp]\nfrom = a@b.example\n", &cfg, &joined), 0);
	ck_assert_ptr_nonnull(strstr(joined, "t.conf:3: [source] maildir: /nonexistent/maildir: No such file"));
	free(joined);

	/* --maildir overrides an imap source and makes [imap] optional. */
	ck_assert_int_eq(config_load_string("t.conf", "[smtp]\nfrom = a@b.example\n",
					    &ov, &cfg, &errors), 0);
	ck_assert_uint_eq(errors.count, 0);
	ck_assert_int_eq(cfg.source.type, CONFIG_SOURCE_MAILDIR);
	ck_assert_str_eq(cfg.source.maildir, tmpdir);
	config_free(&cfg);

	ov.maildir = "/nonexistent/dir";
	ck_assert_int_lt(config_load_string("t.conf", "[smtp]\nfrom = a@b.example\n",
					    &ov, &cfg, &errors), 0);
	ck_assert_uint_eq(errors.count, 1);
	ck_assert_ptr_nonnull(strstr(errors.lines[0], "--maildir: /nonexistent/dir"));
	config_errors_free(&errors);
	ck_assert_ptr_null(errors.lines);
}
END_TEST

TEST_MAIN("daemon_config", "errors", daemon_test_setup, daemon_test_teardown,
	  0, test_errors_with_lines, test_bad_values, test_required_imap,
	  test_required_maildir)
