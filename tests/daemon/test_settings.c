/* test_settings.c -- the config as the mail source, SMTP sender, inbound
 * parser and server see it: TLS modes, ports, auth, limits, game
 * defaults, the clocks. */
#include <config.h>

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/club_config.h"
#include "config/settings.h"
#include "../check_run.h"

static void load(const char *text, struct config *cfg)
{
	struct config_errors errors = { NULL, 0 };

	if (config_load_string("t.conf", text, NULL, cfg, &errors) < 0) {
		struct buf b = BUF_INIT;

		config_errors_format(&errors, &b);
		ck_abort_msg("%s", buf_str(&b));
	}
	config_errors_free(&errors);
}

/* A [imap] or [smtp] url with its starttls setting, and the TLS mode
 * (enum mail_tls or smtp_security) and port they make. */
struct url_case {
	const char *url, *starttls;
	int mode;
	unsigned port;
};

/* Load section (imap or smtp) with c's url and starttls, then rest. */
static void load_url(const char *section, const struct url_case *c,
		     const char *rest, struct config *cfg)
{
	char text[600];

	snprintf(text, sizeof(text), "[%s]\nurl = %s\nstarttls = %s\n%s",
		 section, c->url, c->starttls, rest);
	load(text, cfg);
}

/* test_imap_source's (the first four) and test_smtp's. */
static const struct url_case url_cases[] = {
	{ "imaps://mx.example.org", "required", MAIL_TLS_IMPLICIT, 993 },
	{ "imap://mx.example.org", "required", MAIL_TLS_STARTTLS, 143 },
	{ "imap://mx.example.org:1143", "optional", MAIL_TLS_STARTTLS, 1143 },
	{ "imap://127.0.0.1:10143", "no", MAIL_TLS_NONE, 10143 },
	{ "smtps://mx.example.org", "required", SMTP_IMPLICIT_TLS, 465 },
	{ "smtp://mx.example.org:587", "required", SMTP_STARTTLS_REQUIRED, 587 },
	{ "smtp://mx.example.org", "optional", SMTP_STARTTLS_OPTIONAL, 25 },
	{ "smtp://mx.example.org:2525", "no", SMTP_PLAIN, 2525 },
};

START_TEST(test_imap_source)
{
	const struct url_case *c = &url_cases[_i];
	struct mail_source_settings set;
	struct config cfg;

	load_url("imap", c,
		 "user = u\npassword = pw\n"
		 "auth = plain\nmailbox = Games\narchive_folder = Done\n"
		 "poll_interval = 2m\ntimeout = 20s\nreconnect_max = 90s\n"
		 "tls_verify = no\n"
		 "[smtp]\nurl = smtp://mx.example.org\nfrom = a@b.example\n",
		 &cfg);
	settings_mail_source(&cfg, &set);
	ck_assert_str_eq(set.backend, "imap");
	ck_assert_str_eq(set.host, _i == 3 ? "127.0.0.1" : "mx.example.org");
	ck_assert_uint_eq(set.port, c->port);
	ck_assert_int_eq(set.tls, c->mode);
	ck_assert(set.tls_no_verify);
	ck_assert_int_eq(set.auth, MAIL_SOURCE_AUTH_PLAIN);
	ck_assert_str_eq(set.user, "u");
	ck_assert_str_eq(set.password, "pw");
	ck_assert_str_eq(set.mailbox, "Games");
	ck_assert_str_eq(set.archive, "Done");
	ck_assert_uint_eq(set.poll_ms, 120000);
	ck_assert_uint_eq(set.timeout_ms, 20000);
	ck_assert_uint_eq(set.backoff_max_ms, 90000);
	ck_assert_ptr_null(set.path);
	config_free(&cfg);
}
END_TEST

START_TEST(test_dir_source)
{
	struct mail_source_settings set;
	struct config cfg;

	load("[source]\ntype = maildir\nmaildir = /tmp\n[smtp]\nfrom = a@b.example\n", &cfg);
	settings_mail_source(&cfg, &set);
	ck_assert_str_eq(set.backend, "dir");
	ck_assert_str_eq(set.path, "/tmp");
	ck_assert_ptr_null(set.host);
	ck_assert_uint_eq(set.poll_ms, 60000);
	config_free(&cfg);
}
END_TEST

START_TEST(test_smtp)
{
	const struct url_case *c = &url_cases[_i];
	struct smtp_settings set;
	struct config cfg;

	load_url("smtp", c,
		 "from = a@b.example\n"
		 "user = s\npassword = spw\nhelo_name = ashes.example\n"
		 "timeout = 45s\nca_file = /dev/null\n"
		 "[source]\ntype = maildir\nmaildir = /tmp\n", &cfg);
	settings_smtp(&cfg, &set);
	ck_assert_str_eq(set.host, "mx.example.org");
	ck_assert_uint_eq(set.port, c->port);
	ck_assert_int_eq(set.security, c->mode);
	ck_assert(!set.tls_no_verify);
	ck_assert_str_eq(set.ca_file, "/dev/null");
	ck_assert_str_eq(set.user, "s");
	ck_assert_str_eq(set.password, "spw");
	ck_assert_str_eq(set.helo_name, "ashes.example");
	ck_assert_uint_eq(set.timeout_ms, 45000);
	config_free(&cfg);
}
END_TEST

START_TEST(test_inbound_and_server)
{
	struct inbound_options opts;
	struct server_config srv;
	struct config cfg;
	const char *addrs[2];

	load("[source]\ntype = maildir\nmaildir = /tmp\n"
	     "[smtp]\nfrom = ashes@games.example.org\n"
	     "[gpg]\nmax_signature_age = 2d\nmax_future_skew = 0\n"
	     "[limits]\nmax_message_size = 256K\nmax_commands = 7\n"
	     "[game]\nsize = 7\nswap = yes\ntax = lost\ndraw_offers = no\n"
	     "max_listed_moves = 300\n", &cfg);
	settings_inbound(&cfg, addrs, &opts);
	ck_assert_str_eq(opts.our_addrs[0], "ashes@games.example.org");
	ck_assert_ptr_null(opts.our_addrs[1]);
	ck_assert_uint_eq(opts.max_size, 262144);
	ck_assert_int_eq(opts.max_age, 2 * 86400);
	/* a configured 0 must not become the parser's 10-minute default */
	ck_assert_int_eq(opts.max_future, 1);

	memset(&srv, 0, sizeof(srv));
	settings_server(&cfg, &srv);
	/* domain defaults to the From address's */
	ck_assert_str_eq(srv.domain, "games.example.org");
	ck_assert_int_eq(srv.default_variant.size, 7);
	ck_assert(srv.default_variant.swap);
	ck_assert_int_eq(srv.default_variant.tax_rule, CORE_TAX_LOST);
	ck_assert(!srv.default_variant.draw_offers);
	ck_assert_uint_eq(srv.max_listed_moves, 300);
	ck_assert_uint_eq(srv.max_commands, 7);
	/* signatures are required unless the club says otherwise */
	ck_assert(srv.require_signature);
	config_free(&cfg);
	load("[source]\ntype = maildir\nmaildir = /tmp\n"
	     "[smtp]\nfrom = ashes@games.example.org\n"
	     "[gpg]\nrequire_signature = no\n", &cfg);
	settings_server(&cfg, &srv);
	ck_assert(!srv.require_signature);
	config_free(&cfg);

	load("[source]\ntype = maildir\nmaildir = /tmp\n"
	     "[smtp]\nfrom = ashes@games.example.org\ndomain = mid.example\n", &cfg);
	settings_server(&cfg, &srv);
	ck_assert_str_eq(srv.domain, "mid.example");
	/* the documented default, not the parser's cap */
	ck_assert_uint_eq(srv.max_commands, 20);
	settings_inbound(&cfg, addrs, &opts);
	ck_assert_int_eq(opts.max_future, 600);
	ck_assert_int_eq(opts.max_age, 7 * 86400);
	config_free(&cfg);
}
END_TEST

/* The clock settings' vacation rules and how a timeout is claimed. */
static void vacation_is(const struct server_clock_config *c, int start,
			int earn, int cap, bool automatic, bool manual_claim)
{
	ck_assert_int_eq(c->vacation.start_days, start);
	ck_assert_int_eq(c->vacation.earn_per_year, earn);
	ck_assert_int_eq(c->vacation.cap_days, cap);
	ck_assert(c->auto_vacation == automatic);
	ck_assert(c->manual_claim == manual_claim);
}

/* The clocks' settings: [game] clock and weekends, and [clock], as the
 * service takes them (server_clock_config). */
START_TEST(test_clock)
{
	struct server_config srv;
	struct config cfg;
	const struct server_clock_config *c = &srv.clock;

	/* The defaults are the service's own (server_config_default). */
	memset(&srv, 0x5a, sizeof(srv));
	load("[source]\ntype = maildir\nmaildir = /tmp\n"
	     "[smtp]\nfrom = ashes@games.example.org\n", &cfg);
	settings_server(&cfg, &srv);
	ck_assert_str_eq(c->default_clock, "none");
	ck_assert(!c->default_weekends_off);
	ck_assert_uint_eq(c->nreminders, 2);
	ck_assert_int_eq(c->reminder_hours[0], 48);
	ck_assert_int_eq(c->reminder_hours[1], 12);
	ck_assert_int_eq(c->reminder_hours[2], 0);
	vacation_is(c, 10, 30, 30, true, false);
	ck_assert_int_eq(c->outage_grace, 6 * 3600);
	config_free(&cfg);

	memset(&srv, 0x5a, sizeof(srv));
	load("[source]\ntype = maildir\nmaildir = /tmp\n"
	     "[smtp]\nfrom = ashes@games.example.org\n"
	     "[game]\nclock = fischer:240h+36h/240h\nweekends = off\n"
	     "[clock]\nreminders = 1h, 3d, 24h, 6h\nauto_vacation = no\n"
	     "timeout_claim = manual\nvacation_start = 0\n"
	     "vacation_earn = 365\nvacation_cap = 7\n"
	     "outage_grace = 1h30m\n", &cfg);
	settings_server(&cfg, &srv);
	ck_assert_str_eq(c->default_clock, "fischer:240h+36h/240h");
	ck_assert(c->default_weekends_off);
	ck_assert_uint_eq(c->nreminders, 4);
	ck_assert_int_eq(c->reminder_hours[0], 72);
	ck_assert_int_eq(c->reminder_hours[1], 24);
	ck_assert_int_eq(c->reminder_hours[2], 6);
	ck_assert_int_eq(c->reminder_hours[3], 1);
	vacation_is(c, 0, 365, 7, false, true);
	ck_assert_int_eq(c->outage_grace, 5400);
	config_free(&cfg);

	/* No reminders; the old move_time read as days per move; no grace. */
	memset(&srv, 0x5a, sizeof(srv));
	load("[source]\ntype = maildir\nmaildir = /tmp\n"
	     "[smtp]\nfrom = ashes@games.example.org\n"
	     "[game]\nmove_time = 5d\n"
	     "[clock]\nreminders = none\noutage_grace = 0\n", &cfg);
	settings_server(&cfg, &srv);
	ck_assert_str_eq(c->default_clock, "days:5");
	ck_assert_uint_eq(c->nreminders, 0);
	ck_assert_int_eq(c->reminder_hours[0], 0);
	ck_assert_int_eq(c->outage_grace, 0);
	config_free(&cfg);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("daemon_settings");
	TCase *tc = suite_add_tests(s, "settings", NULL, NULL, 0,
				    TESTS(test_dir_source,
					  test_inbound_and_server,
					  test_clock));

	tcase_add_loop_test(tc, test_imap_source, 0, 4);
	tcase_add_loop_test(tc, test_smtp, 4, 8);
	return test_run(s);
}
