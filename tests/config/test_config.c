/* test_config.c -- ashesd.conf parsing: value types, defaults, every key,
 * password files, masking in the dump, and that the dump loads back to
 * the same config; files, the example and the man page.  Refused configs
 * (every error path with FILE:LINE, required keys per source type) are
 * test_config_errors.c's. */
#include <config.h>

#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>

#include "config/club_config.h"
#include "config/log.h"
#include "util/buf.h"

#include "config_test.h"
#include "daemon_test.h"
#include "../check_run.h"

/* A maildir config: the smallest valid file. */
static const char *minimal(void)
{
	static char text[600];

	snprintf(text, sizeof(text),
		 "[source]\ntype = maildir\nmaildir = %s\n[smtp]\nfrom = ashes@example.org\n",
		 tmpdir);
	return text;
}

START_TEST(test_durations)
{
	static const struct {
		const char *text;
		uint64_t ms;
	} good[] = {
		{ "30s", 30000 }, { "10m", 600000 }, { "2h", 7200000 },
		{ "7d", 604800000 }, { "1w", 604800000 }, { "1h30m", 5400000 },
		{ "500ms", 500 }, { "45", 45000 }, { "0", 0 }, { "1m30s", 90000 },
	};
	static const char *const bad[] = {
		"", "10x", "-1", "1.5h", "m", "10 s", "s10", "99999999999999999999d", "1h 2m",
	};
	const char *error;
	uint64_t ms;

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		error = NULL;
		ck_assert_msg(config_parse_duration(good[i].text, &ms, &error) == 0,
			      "%s: %s", good[i].text, error);
		ck_assert_uint_eq(ms, good[i].ms);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		error = NULL;
		ck_assert_msg(config_parse_duration(bad[i], &ms, &error) < 0,
			      "\"%s\" was accepted", bad[i]);
		ck_assert_ptr_nonnull(error);
	}
}
END_TEST

START_TEST(test_duration_format_round_trip)
{
	static const uint64_t values[] = {
		0, 1, 500, 1000, 60000, 90000, 5400000, 86400000, 7 * 86400000ull,
		86400000ull + 3600000 + 60000 + 1000 + 1,
	};
	static const char *const texts[] = {
		"0", "1ms", "500ms", "1s", "1m", "1m30s", "1h30m", "1d", "7d",
		"1d1h1m1s1ms",
	};

	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		struct buf b = BUF_INIT;
		const char *error;
		uint64_t back;

		config_format_duration(values[i], &b);
		ck_assert_str_eq(buf_str(&b), texts[i]);
		ck_assert_int_eq(config_parse_duration(buf_str(&b), &back, &error), 0);
		ck_assert_uint_eq(back, values[i]);
		buf_free(&b);
	}
}
END_TEST

START_TEST(test_sizes)
{
	static const struct {
		const char *text;
		uint64_t bytes;
	} good[] = {
		{ "1M", 1048576 }, { "512K", 524288 }, { "2G", 2147483648ull },
		{ "100", 100 }, { "1MiB", 1048576 }, { "1mb", 1048576 }, { "3k", 3072 },
	};
	static const char *const bad[] = { "", "1T", "x", "1.5M", "-1", "1Mx", "M" };
	const char *error;
	uint64_t n;

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		ck_assert_msg(config_parse_size(good[i].text, &n, &error) == 0,
			      "%s: %s", good[i].text, error);
		ck_assert_uint_eq(n, good[i].bytes);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(config_parse_size(bad[i], &n, &error) < 0,
			      "\"%s\" was accepted", bad[i]);
	{
		struct buf b = BUF_INIT;

		config_format_size(1048576, &b);
		config_format_size(1000, &b);
		config_format_size(3072, &b);
		ck_assert_str_eq(buf_str(&b), "1M10003K");
		buf_free(&b);
	}
}
END_TEST

START_TEST(test_booleans)
{
	static const char *const yes[] = { "yes", "true", "on", "1", "YES", "On" };
	static const char *const no[] = { "no", "false", "off", "0", "No", "FALSE" };
	const char *error;
	bool b;

	for (size_t i = 0; i < 6; i++) {
		b = false;
		ck_assert_int_eq(config_parse_bool(yes[i], &b, &error), 0);
		ck_assert(b);
		b = true;
		ck_assert_int_eq(config_parse_bool(no[i], &b, &error), 0);
		ck_assert(!b);
	}
	ck_assert_int_lt(config_parse_bool("maybe", &b, &error), 0);
	ck_assert_int_lt(config_parse_bool("", &b, &error), 0);
}
END_TEST

START_TEST(test_defaults)
{
	struct config cfg;
	char *errors;

	ck_assert_msg(load(minimal(), &cfg, &errors) == 0, "%s", errors);
	free(errors);
	ck_assert_int_eq(cfg.source.type, CONFIG_SOURCE_MAILDIR);
	ck_assert_str_eq(cfg.source.maildir, tmpdir);
	ck_assert_str_eq(cfg.smtp.from, "ashes@example.org");
	ck_assert_ptr_null(cfg.smtp.server.url);
	ck_assert_str_eq(cfg.imap.mailbox, "INBOX");
	ck_assert_str_eq(cfg.imap.archive_folder, "Archive");
	ck_assert_int_eq(cfg.imap.auth, CONFIG_IMAP_AUTH_LOGIN);
	ck_assert_str_eq(cfg.smtp.domain, "example.org");
	ck_assert_ptr_null(cfg.smtp.helo_name);
	ck_assert_uint_eq(cfg.game.max_listed_moves, 250);
	ck_assert_uint_eq(cfg.imap.poll_interval_ms, 60000);
	ck_assert(cfg.imap.idle);
	ck_assert(cfg.imap.server.tls_verify);
	ck_assert_int_eq(cfg.imap.server.starttls, CONFIG_STARTTLS_REQUIRED);
	ck_assert_uint_eq(cfg.smtp.batch_size, 50);
	ck_assert_uint_eq(cfg.smtp.retry_initial_ms, 30000);
	ck_assert_uint_eq(cfg.smtp.retry_max_ms, 3600000);
	ck_assert(cfg.gpg.require_signature);
	ck_assert(!cfg.gpg.sign_replies);
	ck_assert_uint_eq(cfg.gpg.max_signature_age_ms, 7 * 86400000ull);
	ck_assert_uint_eq(cfg.gpg.max_future_skew_ms, 600000);
	ck_assert_str_eq(cfg.gpg.home, ASHES_LOCALSTATEDIR "/lib/ashesd/gnupg");
	ck_assert_str_eq(cfg.database.path, ASHES_LOCALSTATEDIR "/lib/ashesd/ashesd.db");
	ck_assert_uint_eq(cfg.database.busy_timeout_ms, 5000);
	ck_assert_int_eq(cfg.game.variant.size, CORE_DEFAULT_SIZE);
	ck_assert(!cfg.game.variant.swap);
	ck_assert_int_eq(cfg.game.variant.tax_rule, CORE_TAX_REMOVED);
	ck_assert(cfg.game.variant.draw_offers);
	ck_assert_uint_eq(cfg.game.move_time_ms, 0);
	ck_assert_str_eq(cfg.game.clock, "none");
	ck_assert(cfg.game.weekends);
	ck_assert_uint_eq(cfg.clock.reminders.count, 2);
	ck_assert_uint_eq(cfg.clock.reminders.hours[0], 48);
	ck_assert_uint_eq(cfg.clock.reminders.hours[1], 12);
	ck_assert(cfg.clock.auto_vacation);
	ck_assert_int_eq(cfg.clock.timeout_claim, CONFIG_TIMEOUT_CLAIM_AUTO);
	ck_assert_uint_eq(cfg.clock.vacation_start, 10);
	ck_assert_uint_eq(cfg.clock.vacation_earn, 30);
	ck_assert_uint_eq(cfg.clock.vacation_cap, 30);
	ck_assert_uint_eq(cfg.clock.outage_grace_ms, 6 * 3600000ull);
	ck_assert_ptr_null(cfg.templates.dir);
	ck_assert_int_eq(cfg.log.target, LOG_TARGET_STDERR);
	ck_assert_int_eq(cfg.log.level, LOG_LEVEL_INFO);
	ck_assert_int_eq(cfg.log.facility, LOG_DAEMON);
	ck_assert_uint_eq(cfg.limits.max_message_size, 1048576);
	ck_assert_uint_eq(cfg.limits.sender_rate_limit, 60);
	ck_assert_str_eq(cfg.path, "t.conf");
	config_free(&cfg);
	ck_assert_ptr_null(cfg.path);
}
END_TEST

START_TEST(test_every_key)
{
	struct config cfg;
	struct buf text = BUF_INIT;
	char *errors;
	char ca[300];

	snprintf(ca, sizeof(ca), "%s/ca.pem", tmpdir);
	daemon_test_write(ca, "not really a certificate\n", 0644);
	buf_printf(&text,
		"# a comment\n"
		"; another comment\n"
		"[source]\n"
		"type = imap\n"
		"[imap]\n"
		"url = imap://127.0.0.1:1143\n"
		"starttls = no\n"
		"user = ashes\n"
		"password = \"  pass # word  \"\n"
		"auth = plain\n"
		"mailbox = Games\n"
		"archive_folder = Games/Done\n"
		"poll_interval = 2m\n"
		"idle = off\n"
		"ca_file = %s\n"
		"tls_verify = false\n"
		"timeout = 10s\n"
		"reconnect_max = 1h\n"
		"\n"
		"[smtp]\n"
		"url = smtps://[::1]:4465/\n"
		"starttls = optional\n"
		"user = sender\n"
		"password = p#w; x\n"
		"from = ashes@example.org\n"
		"from_name = Ashes Club\n"
		"domain = mid.example.org\n"
		"helo_name = ashes.example.org\n"
		"ca_file = %s\n"
		"tls_verify = no\n"
		"timeout = 1m30s\n"
		"batch_size = 7\n"
		"retry_initial = 5s\n"
		"retry_max = 10m\n"
		"max_attempts = 9\n"
		"give_up_after = 2d\n"
		"[gpg]\n"
		"home = /srv/ashes/gnupg\n"
		"sign_replies = yes\n"
		"signing_key = 0123456789ABCDEF\n"
		"require_signature = no\n"
		"max_signature_age = 3d\n"
		"max_future_skew = 2m\n"
		"[database]\n"
		"path = /srv/ashes/db.sqlite\n"
		"busy_timeout = 250ms\n"
		"[game]\n"
		"size = 7\n"
		"swap = yes\n"
		"tax = lost\n"
		"draw_offers = no\n"
		"clock = Fischer:240h+36h/240h\n"
		"weekends = off\n"
		"move_time = 0\n"
		"max_listed_moves = 120\n"
		"[clock]\n"
		"reminders = 12h, 3d,1h\n"
		"auto_vacation = no\n"
		"timeout_claim = manual\n"
		"vacation_start = 5\n"
		"vacation_earn = 12\n"
		"vacation_cap = 20\n"
		"outage_grace = 0\n"
		"[templates]\n"
		"dir = %s\n"
		"[log]\n"
		"target = journal\n"
		"level = debug\n"
		"facility = local3\n"
		"[limits]\n"
		"max_message_size = 512K\n"
		"sender_rate_limit = 0\n"
		"max_commands = 5\n",
		ca, ca, tmpdir);
	ck_assert_msg(load(buf_str(&text), &cfg, &errors) == 0, "%s", errors);
	free(errors);
	ck_assert_int_eq(cfg.source.type, CONFIG_SOURCE_IMAP);
	ck_assert_str_eq(cfg.imap.server.url, "imap://127.0.0.1:1143");
	ck_assert_str_eq(cfg.imap.server.host, "127.0.0.1");
	ck_assert_uint_eq(cfg.imap.server.port, 1143);
	ck_assert(!cfg.imap.server.implicit_tls);
	ck_assert_int_eq(cfg.imap.server.starttls, CONFIG_STARTTLS_NO);
	ck_assert_str_eq(cfg.imap.server.user, "ashes");
	ck_assert_str_eq(cfg.imap.server.password, "  pass # word  ");
	ck_assert_int_eq(cfg.imap.auth, CONFIG_IMAP_AUTH_PLAIN);
	ck_assert_str_eq(cfg.imap.mailbox, "Games");
	ck_assert_str_eq(cfg.imap.archive_folder, "Games/Done");
	ck_assert_uint_eq(cfg.imap.poll_interval_ms, 120000);
	ck_assert(!cfg.imap.idle);
	ck_assert_str_eq(cfg.imap.server.ca_file, ca);
	ck_assert(!cfg.imap.server.tls_verify);
	ck_assert_uint_eq(cfg.imap.server.timeout_ms, 10000);
	ck_assert_uint_eq(cfg.imap.reconnect_max_ms, 3600000);
	ck_assert_str_eq(cfg.smtp.server.host, "::1");
	ck_assert_uint_eq(cfg.smtp.server.port, 4465);
	ck_assert(cfg.smtp.server.implicit_tls);
	ck_assert_int_eq(cfg.smtp.server.starttls, CONFIG_STARTTLS_OPTIONAL);
	ck_assert_str_eq(cfg.smtp.server.password, "p#w; x");
	ck_assert_str_eq(cfg.smtp.from_name, "Ashes Club");
	ck_assert_str_eq(cfg.smtp.domain, "mid.example.org");
	ck_assert_str_eq(cfg.smtp.helo_name, "ashes.example.org");
	ck_assert(!cfg.smtp.server.tls_verify);
	ck_assert_uint_eq(cfg.smtp.server.timeout_ms, 90000);
	ck_assert_uint_eq(cfg.smtp.batch_size, 7);
	ck_assert_uint_eq(cfg.smtp.retry_initial_ms, 5000);
	ck_assert_uint_eq(cfg.smtp.retry_max_ms, 600000);
	ck_assert_uint_eq(cfg.smtp.max_attempts, 9);
	ck_assert_uint_eq(cfg.smtp.give_up_after_ms, 2 * 86400000ull);
	ck_assert_str_eq(cfg.gpg.home, "/srv/ashes/gnupg");
	ck_assert(cfg.gpg.sign_replies);
	ck_assert_str_eq(cfg.gpg.signing_key, "0123456789ABCDEF");
	ck_assert(!cfg.gpg.require_signature);
	ck_assert_uint_eq(cfg.gpg.max_signature_age_ms, 3 * 86400000ull);
	ck_assert_uint_eq(cfg.gpg.max_future_skew_ms, 120000);
	ck_assert_str_eq(cfg.database.path, "/srv/ashes/db.sqlite");
	ck_assert_uint_eq(cfg.database.busy_timeout_ms, 250);
	ck_assert_int_eq(cfg.game.variant.size, 7);
	ck_assert(cfg.game.variant.swap);
	ck_assert_int_eq(cfg.game.variant.tax_rule, CORE_TAX_LOST);
	ck_assert(!cfg.game.variant.draw_offers);
	ck_assert_str_eq(cfg.game.clock, "fischer:240h+36h/240h");
	ck_assert(!cfg.game.weekends);
	ck_assert_uint_eq(cfg.game.move_time_ms, 0);
	ck_assert_uint_eq(cfg.game.max_listed_moves, 120);
	ck_assert_uint_eq(cfg.clock.reminders.count, 3);
	ck_assert_uint_eq(cfg.clock.reminders.hours[0], 72);
	ck_assert_uint_eq(cfg.clock.reminders.hours[1], 12);
	ck_assert_uint_eq(cfg.clock.reminders.hours[2], 1);
	ck_assert(!cfg.clock.auto_vacation);
	ck_assert_int_eq(cfg.clock.timeout_claim, CONFIG_TIMEOUT_CLAIM_MANUAL);
	ck_assert_uint_eq(cfg.clock.vacation_start, 5);
	ck_assert_uint_eq(cfg.clock.vacation_earn, 12);
	ck_assert_uint_eq(cfg.clock.vacation_cap, 20);
	ck_assert_uint_eq(cfg.clock.outage_grace_ms, 0);
	ck_assert_str_eq(cfg.templates.dir, tmpdir);
	ck_assert_int_eq(cfg.log.target, LOG_TARGET_JOURNAL);
	ck_assert_int_eq(cfg.log.level, LOG_LEVEL_DEBUG);
	ck_assert_int_eq(cfg.log.facility, LOG_LOCAL3);
	ck_assert_uint_eq(cfg.limits.max_message_size, 524288);
	ck_assert_uint_eq(cfg.limits.sender_rate_limit, 0);
	ck_assert_uint_eq(cfg.limits.max_commands, 5);
	config_free(&cfg);
	buf_free(&text);
}
END_TEST

START_TEST(test_default_ports)
{
	static const struct {
		const char *imap, *smtp;
		unsigned imap_port, smtp_port;
		bool tls;
	} cases[] = {
		{ "imap://mail.example.org", "smtp://mail.example.org", 143, 25, false },
		{ "imaps://mail.example.org/", "smtps://mail.example.org", 993, 465, true },
	};

	for (size_t i = 0; i < 2; i++) {
		struct buf text = BUF_INIT;
		struct config cfg;
		char *errors;

		buf_printf(&text, "[imap]\nurl = %s\nuser = u\npassword = p\n"
			   "[smtp]\nurl = %s\nfrom = a@b.example\n",
			   cases[i].imap, cases[i].smtp);
		ck_assert_msg(load(buf_str(&text), &cfg, &errors) == 0, "%s", errors);
		free(errors);
		ck_assert_str_eq(cfg.imap.server.host, "mail.example.org");
		ck_assert_uint_eq(cfg.imap.server.port, cases[i].imap_port);
		ck_assert_uint_eq(cfg.smtp.server.port, cases[i].smtp_port);
		ck_assert(cfg.imap.server.implicit_tls == cases[i].tls);
		ck_assert(cfg.smtp.server.implicit_tls == cases[i].tls);
		/* no [smtp] user: no AUTH, and no password needed */
		ck_assert_ptr_null(cfg.smtp.server.user);
		config_free(&cfg);
		buf_free(&text);
	}
}
END_TEST

START_TEST(test_password_file)
{
	struct buf text = BUF_INIT, dump = BUF_INIT;
	char pw[300], empty[300];
	struct config cfg;
	char *errors;

	snprintf(pw, sizeof(pw), "%s/imap.password", tmpdir);
	snprintf(empty, sizeof(empty), "%s/empty.password", tmpdir);
	daemon_test_write(pw, "s3cret-from-file\nsecond line ignored\n", 0600);
	daemon_test_write(empty, "\n", 0600);

	buf_printf(&text, "[imap]\nurl = imaps://h\nuser = u\npassword_file = %s\n"
		   "[smtp]\nurl = smtp://h\nfrom = a@b.example\n", pw);
	ck_assert_msg(load(buf_str(&text), &cfg, &errors) == 0, "%s", errors);
	free(errors);
	ck_assert_str_eq(cfg.imap.server.password, "s3cret-from-file");
	ck_assert_str_eq(cfg.imap.server.password_file, pw);
	config_dump(&cfg, &dump);
	ck_assert_ptr_null(strstr(buf_str(&dump), "s3cret"));
	ck_assert_ptr_nonnull(strstr(buf_str(&dump), pw));
	config_free(&cfg);
	buf_free(&dump);

	/* Unreadable, empty, and both ways at once: each at its own line. */
	buf_reset(&text);
	buf_printf(&text, "[imap]\nurl = imaps://h\nuser = u\npassword_file = %s/none\n"
		   "[smtp]\nurl = smtp://h\nfrom = a@b.example\nuser = s\n"
		   "password_file = %s\n", tmpdir, empty);
	ck_assert_int_lt(load(buf_str(&text), &cfg, &errors), 0);
	ck_assert_msg(strstr(errors, "t.conf:4: [imap] password_file: cannot read") != NULL, "%s", errors);
	ck_assert_msg(strstr(errors, "No such file or directory") != NULL, "%s", errors);
	ck_assert_msg(strstr(errors, "t.conf:9: [smtp] password_file: ") != NULL &&
		      strstr(errors, "holds no password on its first line") != NULL, "%s", errors);
	free(errors);

	buf_reset(&text);
	buf_printf(&text, "[imap]\nurl = imaps://h\nuser = u\npassword = x\npassword_file = %s\n"
		   "[smtp]\nurl = smtp://h\nfrom = a@b.example\n", pw);
	ck_assert_int_lt(load(buf_str(&text), &cfg, &errors), 0);
	ck_assert_msg(strstr(errors, "t.conf:5: [imap] password and password_file are both set (line 4)") != NULL,
		      "%s", errors);
	free(errors);
	buf_free(&text);
}
END_TEST

START_TEST(test_dump_masks_and_round_trips)
{
	struct buf text = BUF_INIT, dump1 = BUF_INIT, dump2 = BUF_INIT;
	struct config cfg, again;
	char *errors;

	buf_printf(&text, "[imap]\nurl = imap://h:1\nuser = u\npassword = inline-secret\n"
		   "[smtp]\nurl = smtp://h\nuser = s\npassword = \" other secret \"\n"
		   "from = a@b.example\nfrom_name = \"  spaced  \"\n"
		   "[game]\nclock = days:3\n[clock]\nreminders = 1d, 90m30m\n"
		   "outage_grace = 90m\n[limits]\nmax_message_size = 1536K\n");
	ck_assert_msg(load(buf_str(&text), &cfg, &errors) == 0, "%s", errors);
	free(errors);
	config_dump(&cfg, &dump1);
	ck_assert_ptr_null(strstr(buf_str(&dump1), "inline-secret"));
	ck_assert_ptr_null(strstr(buf_str(&dump1), "other secret"));
	ck_assert_ptr_nonnull(strstr(buf_str(&dump1), "\npassword = ********\n"));
	ck_assert_ptr_nonnull(strstr(buf_str(&dump1), "\nclock = days:3\n"));
	ck_assert_ptr_nonnull(strstr(buf_str(&dump1), "\nreminders = 24h, 2h\n"));
	ck_assert_ptr_nonnull(strstr(buf_str(&dump1), "\noutage_grace = 1h30m\n"));
	ck_assert_ptr_nonnull(strstr(buf_str(&dump1), "\nmove_time = 0\n"));
	ck_assert_ptr_nonnull(strstr(buf_str(&dump1), "\nmax_message_size = 1536K\n"));
	ck_assert_ptr_nonnull(strstr(buf_str(&dump1), "\nfrom_name = \"  spaced  \"\n"));
	ck_assert_ptr_nonnull(strstr(buf_str(&dump1), "\nca_file =\n"));
	/* Loads back to the same config (the mask is just another password). */
	ck_assert_msg(load(buf_str(&dump1), &again, &errors) == 0, "%s\n%s",
		      errors, buf_str(&dump1));
	free(errors);
	config_dump(&again, &dump2);
	ck_assert_str_eq(buf_str(&dump1), buf_str(&dump2));
	ck_assert_str_eq(again.smtp.from_name, "  spaced  ");
	config_free(&cfg);
	config_free(&again);
	buf_free(&text);
	buf_free(&dump1);
	buf_free(&dump2);
}
END_TEST

START_TEST(test_load_file)
{
	struct config_errors errors = { NULL, 0 };
	struct config cfg;
	char path[300];

	snprintf(path, sizeof(path), "%s/ashesd.conf", tmpdir);
	ck_assert_int_lt(config_load(path, NULL, &cfg, &errors), 0);
	ck_assert_uint_eq(errors.count, 1);
	ck_assert_ptr_nonnull(strstr(errors.lines[0], "ashesd.conf: cannot open: No such file"));
	config_errors_free(&errors);

	daemon_test_write(path, minimal(), 0644);
	ck_assert_int_eq(config_load(path, NULL, &cfg, &errors), 0);
	ck_assert_str_eq(cfg.path, path);
	config_free(&cfg);

	/* Windows line ends are fine. */
	{
		struct buf crlf = BUF_INIT;

		for (const char *p = minimal(); *p != '\0'; p++) {
			if (*p == '\n')
				buf_putc(&crlf, '\r');
			buf_putc(&crlf, *p);
		}
		daemon_test_write(path, buf_str(&crlf), 0644);
		ck_assert_int_eq(config_load(path, NULL, &cfg, &errors), 0);
		ck_assert_str_eq(cfg.smtp.from, "ashes@example.org");
		config_free(&cfg);
		buf_free(&crlf);
	}

	/* So is a byte order mark. */
	{
		struct buf bom = BUF_INIT;

		buf_puts(&bom, "\xef\xbb\xbf");
		buf_puts(&bom, minimal());
		daemon_test_write(path, buf_str(&bom), 0644);
		ck_assert_int_eq(config_load(path, NULL, &cfg, &errors), 0);
		config_free(&cfg);
		buf_free(&bom);
	}

	/* A NUL byte is an error at its line, not a silent truncation. */
	{
		int fd = open(path, O_WRONLY | O_TRUNC);

		ck_assert_int_eq(write(fd, "[smtp]\nfrom = a@b\0.example\n", 27), 27);
		close(fd);
		ck_assert_int_lt(config_load(path, NULL, &cfg, &errors), 0);
		ck_assert_ptr_nonnull(strstr(errors.lines[0], "ashesd.conf:2: NUL byte"));
		config_errors_free(&errors);
	}
}
END_TEST

START_TEST(test_contrib_example)
{
	struct config_errors errors = { NULL, 0 };
	struct config cfg;
	char path[1024];
	const char *src = getenv("ASHES_SRCDIR");

	ck_assert_ptr_nonnull(src);
	snprintf(path, sizeof(path), "%s/contrib/ashesd.conf", src);
	if (config_load(path, NULL, &cfg, &errors) < 0) {
		struct buf b = BUF_INIT;

		config_errors_format(&errors, &b);
		ck_abort_msg("%s", buf_str(&b));
	}
	ck_assert_int_eq(cfg.source.type, CONFIG_SOURCE_IMAP);
	ck_assert(cfg.imap.server.implicit_tls);
	ck_assert_uint_eq(cfg.smtp.server.port, 587);
	config_free(&cfg);
}
END_TEST

/* Every key the parser knows (as --check-config lists them) is described
 * in ashesd.conf(5), under its own section, and shown in the example. */
START_TEST(test_every_key_documented)
{
	struct buf dump = BUF_INIT;
	struct config cfg;
	char *man, *example, *errors;
	const char *section_in_man = NULL;
	char section[64] = "";
	size_t keys = 0;

	read_config_docs(&man, &example);
	ck_assert_msg(load(minimal(), &cfg, &errors) == 0, "%s", errors);
	free(errors);
	config_dump(&cfg, &dump);
	for (char *line = strtok(dump.data, "\n"); line != NULL; line = strtok(NULL, "\n")) {
		char key[64], want[128], want2[128], want3[128];

		if (sscanf(line, "[%63[^]]]", section) == 1) {
			snprintf(want, sizeof(want), "\n.SH \"[%s]\"\n", section);
			section_in_man = strstr(man, want);
			ck_assert_msg(section_in_man != NULL, "no %s section in the man page", section);
			snprintf(want, sizeof(want), "\n[%s]\n", section);
			ck_assert_msg(strstr(example, want) != NULL, "no [%s] in the example", section);
			continue;
		}
		ck_assert_int_eq(sscanf(line, "%63s =", key), 1);
		keys++;
		/* after the section's heading, before the next heading */
		snprintf(want, sizeof(want), "\n.BI %s \"", key);
		snprintf(want2, sizeof(want2), "\n.BR %s \"", key);
		{
			const char *next = strstr(section_in_man + 1, "\n.SH ");
			const char *a = strstr(section_in_man, want);
			const char *b = strstr(section_in_man, want2);
			const char *hit = a != NULL && (b == NULL || a < b) ? a : b;

			ck_assert_msg(hit != NULL && (next == NULL || hit < next),
				      "[%s] %s is not documented in ashesd.conf.5", section, key);
		}
		snprintf(want, sizeof(want), "\n%s =", key);
		snprintf(want3, sizeof(want3), "\n#%s =", key);
		ck_assert_msg(strstr(example, want) != NULL || strstr(example, want3) != NULL,
			      "[%s] %s is not in contrib/ashesd.conf", section, key);
	}
	ck_assert_uint_ge(keys, 50);
	config_free(&cfg);
	buf_free(&dump);
	free(man);
	free(example);
}
END_TEST

TEST_MAIN("daemon_config", "config", daemon_test_setup, daemon_test_teardown,
	  0, test_durations, test_duration_format_round_trip, test_sizes,
	  test_booleans, test_defaults, test_every_key, test_default_ports,
	  test_password_file, test_dump_masks_and_round_trips, test_load_file,
	  test_contrib_example, test_every_key_documented)
