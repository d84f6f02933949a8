/* test_health.c -- the daemon's health as `ashes status` judges it
 * (src/daemon/health.h), a pure function: facts and thresholds in, a
 * state, its checks and the summary line out; the text form's perfdata
 * and the JSON form's fields.  The real daemon and command:
 * tests/daemon/test_status.sh. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/club_config.h"
#include "daemon/health.h"
#include "util/buf.h"
#include "../check_run.h"

#define NOW 1000000

/* A daemon in good health: running, beating, reading, sending. */
static struct health_facts healthy(void)
{
	struct health_facts f = {
		.now = NOW, .db_path = "/var/lib/ashesd/ashesd.db",
		.recorded = true, .pid = 4242,
		.process = HEALTH_PROCESS_RUNNING, .process_state = 'S',
		.started = NOW - 3600, .heartbeat = NOW - 20,
		.mailbox_contact = NOW - 20, .mailbox_waiting = 0,
		.db_bytes = 5 << 20, .disk_free = (int64_t)20 << 30,
	};

	return f;
}

/* The [status] defaults, as the table gives them. */
static struct health_thresholds defaults(void)
{
	struct health_thresholds t;
	struct config cfg;

	config_defaults_only(&cfg);
	health_thresholds_from(&cfg.status, &t);
	config_free(&cfg);
	return t;
}

static const struct health_check *check_of(const struct health_report *r,
					   const char *name)
{
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(r->checks[i].name, name) == 0)
			return &r->checks[i];
	ck_abort_msg("no check %s", name);
	return NULL;
}

START_TEST(test_defaults)
{
	struct health_thresholds t = defaults();

	ck_assert_int_eq(t.heartbeat[0], 180);
	ck_assert_int_eq(t.heartbeat[1], 600);
	ck_assert_int_eq(t.mailbox[0], 900);
	ck_assert_int_eq(t.mailbox[1], 3600);
	ck_assert_int_eq(t.unsent[0], 1800);
	ck_assert_int_eq(t.unsent[1], 4 * 3600);
	ck_assert_int_eq(t.failed[0], 1);
	ck_assert_int_eq(t.failed[1], 20);
	ck_assert_int_eq(t.quarantined[0], 1);
	ck_assert_int_eq(t.quarantined[1], 10);
	ck_assert_int_eq(t.disk_free[0], 1 << 30);
	ck_assert_int_eq(t.disk_free[1], 100 << 20);
	ck_assert_int_eq(t.window, 7 * 86400);
}
END_TEST

START_TEST(test_ok)
{
	struct health_facts f = healthy();
	struct health_thresholds t = defaults();
	struct health_report r;

	health_evaluate(&f, &t, &r);
	ck_assert_int_eq(r.state, HEALTH_OK);
	ck_assert_uint_eq(r.n, HEALTH_CHECKS);
	for (size_t i = 0; i < r.n; i++)
		ck_assert_msg(r.checks[i].state == HEALTH_OK, "%s: %s",
			      r.checks[i].name, r.checks[i].text);
	ck_assert_str_eq(r.summary, "ASHESD OK - running as pid 4242, up 1h, "
			 "heartbeat 20s old");
	ck_assert_str_eq(check_of(&r, "mailbox")->text,
			 "mailbox reached 20s ago, 0 mails waiting");
	ck_assert_str_eq(check_of(&r, "outbox")->text, "no reply unsent");
	ck_assert_str_eq(check_of(&r, "disk")->text,
			 "database 5.0 MiB, 20.0 GiB free");
}
END_TEST

/* The heartbeat crosses its warning, then its critical threshold; at
 * exactly the threshold it counts as crossed. */
START_TEST(test_heartbeat)
{
	struct health_facts f = healthy();
	struct health_thresholds t = defaults();
	struct health_report r;

	f.heartbeat = NOW - 179;
	health_evaluate(&f, &t, &r);
	ck_assert_int_eq(r.state, HEALTH_OK);
	f.heartbeat = NOW - 180;
	health_evaluate(&f, &t, &r);
	ck_assert_int_eq(r.state, HEALTH_WARNING);
	ck_assert_str_eq(r.summary, "ASHESD WARNING - heartbeat 3m old "
			 "(warning at 3m)");
	f.heartbeat = NOW - 242;
	f.mailbox_contact = NOW - 242;
	health_evaluate(&f, &t, &r);
	ck_assert_str_eq(check_of(&r, "heartbeat")->text,
			 "heartbeat 4m2s old (warning at 3m)");
	f.heartbeat = NOW - 600;
	health_evaluate(&f, &t, &r);
	ck_assert_int_eq(r.state, HEALTH_CRITICAL);
	ck_assert_str_eq(r.summary, "ASHESD CRITICAL - heartbeat 10m old "
			 "(critical at 10m)");
	/* 0: not checked. */
	t.heartbeat[0] = t.heartbeat[1] = 0;
	health_evaluate(&f, &t, &r);
	ck_assert_int_eq(r.state, HEALTH_OK);
}
END_TEST

/* A stopped process is critical at once, before its heartbeat ages; a
 * gone one and a clean stop too. */
START_TEST(test_process)
{
	struct health_facts f = healthy();
	struct health_thresholds t = defaults();
	struct health_report r;

	f.process = HEALTH_PROCESS_STOPPED;
	f.process_state = 'T';
	health_evaluate(&f, &t, &r);
	ck_assert_int_eq(r.state, HEALTH_CRITICAL);
	ck_assert_str_eq(r.summary, "ASHESD CRITICAL - pid 4242 is stopped "
			 "(state T), not running normally");
	/* Both, the process first. */
	f.heartbeat = NOW - 240;
	health_evaluate(&f, &t, &r);
	ck_assert_str_eq(r.summary, "ASHESD CRITICAL - pid 4242 is stopped "
			 "(state T), not running normally, heartbeat 4m old "
			 "(warning at 3m)");
	f.process = HEALTH_PROCESS_GONE;
	health_evaluate(&f, &t, &r);
	ck_assert_int_eq(r.state, HEALTH_CRITICAL);
	ck_assert_str_eq(check_of(&r, "process")->text,
			 "not running (pid 4242 is gone)");
	f.process = HEALTH_PROCESS_EXITED;
	f.pid = 0;
	health_evaluate(&f, &t, &r);
	ck_assert_str_eq(check_of(&r, "process")->text,
			 "not running (stopped cleanly 4m ago)");
}
END_TEST

START_TEST(test_mailbox_outbox_counts)
{
	struct health_facts f = healthy();
	struct health_thresholds t = defaults();
	struct health_report r;

	/* Never reached since a start 20 minutes ago: warning. */
	f.mailbox_contact = 0;
	f.mailbox_waiting = -1;
	f.started = NOW - 1200;
	health_evaluate(&f, &t, &r);
	ck_assert_int_eq(check_of(&r, "mailbox")->state, HEALTH_WARNING);
	ck_assert_str_eq(check_of(&r, "mailbox")->text,
			 "mailbox not reached since the start 20m ago "
			 "(warning at 15m)");
	f = healthy();
	f.mailbox_waiting = 1;
	f.unsent = 3;
	f.oldest_unsent = NOW - 5 * 3600;
	health_evaluate(&f, &t, &r);
	ck_assert_int_eq(r.state, HEALTH_CRITICAL);
	ck_assert_str_eq(check_of(&r, "mailbox")->text,
			 "mailbox reached 20s ago, 1 mail waiting");
	ck_assert_str_eq(check_of(&r, "outbox")->text,
			 "3 replies unsent, the oldest 5h old (critical at 4h)");

	f = healthy();
	f.failed = 1;
	f.quarantined = 10;
	health_evaluate(&f, &t, &r);
	ck_assert_int_eq(check_of(&r, "failed")->state, HEALTH_WARNING);
	ck_assert_str_eq(check_of(&r, "failed")->text,
			 "1 reply failed in the last 7d (warning at 1)");
	ck_assert_int_eq(check_of(&r, "quarantine")->state, HEALTH_CRITICAL);
	/* Worst first in the summary. */
	ck_assert_str_eq(r.summary, "ASHESD CRITICAL - 10 mails quarantined in "
			 "the last 7d (critical at 10), 1 reply failed in the "
			 "last 7d (warning at 1)");
}
END_TEST

/* Free disk is a floor. */
START_TEST(test_disk)
{
	struct health_facts f = healthy();
	struct health_thresholds t = defaults();
	struct health_report r;

	f.disk_free = (1 << 30) - 1;
	health_evaluate(&f, &t, &r);
	ck_assert_int_eq(r.state, HEALTH_WARNING);
	ck_assert_str_eq(check_of(&r, "disk")->text, "database 5.0 MiB, 1024.0 "
			 "MiB free (warning below 1.0 GiB)");
	f.disk_free = 50 << 20;
	health_evaluate(&f, &t, &r);
	ck_assert_int_eq(r.state, HEALTH_CRITICAL);
	f.disk_free = -1;
	health_evaluate(&f, &t, &r);
	ck_assert_int_eq(r.state, HEALTH_UNKNOWN);
	/* Critical wins over unknown. */
	f.process = HEALTH_PROCESS_GONE;
	health_evaluate(&f, &t, &r);
	ck_assert_int_eq(r.state, HEALTH_CRITICAL);
}
END_TEST

START_TEST(test_unknown)
{
	struct health_facts f = healthy();
	struct health_thresholds t = defaults();
	struct health_report r;

	f.unknown = "no database at /x.db: No such file or directory";
	health_evaluate(&f, &t, &r);
	ck_assert_int_eq(r.state, HEALTH_UNKNOWN);
	ck_assert_uint_eq(r.n, 1);
	ck_assert_str_eq(r.summary, "ASHESD UNKNOWN - no database at /x.db: "
			 "No such file or directory");
	/* A database no daemon wrote to: unknown, the rest still read. */
	f = healthy();
	f.recorded = false;
	health_evaluate(&f, &t, &r);
	ck_assert_int_eq(r.state, HEALTH_UNKNOWN);
	ck_assert_str_eq(r.checks[0].name, "daemon");
	ck_assert_uint_eq(r.n, 5);
}
END_TEST

START_TEST(test_text_perfdata)
{
	struct health_facts f = healthy();
	struct health_thresholds t = defaults();
	struct health_report r;
	struct buf out = BUF_INIT;
	const char *nl;

	f.unsent = 2;
	f.oldest_unsent = NOW - 60;
	health_evaluate(&f, &t, &r);
	health_text(&f, &t, &r, &out);
	nl = strchr(buf_str(&out), '\n');
	ck_assert_ptr_nonnull(nl);
	ck_assert_int_eq(strncmp(buf_str(&out), "ASHESD OK - running as pid "
				 "4242, up 1h, heartbeat 20s old | "
				 "heartbeat=20s;180;600 waiting=0 unsent=2 "
				 "oldest_unsent=60s;1800;14400 failed=0;1;20 "
				 "quarantined=0;1;10 db_size=5242880B "
				 "disk_free=21474836480B;1073741824:;104857600:\n",
				 (size_t)(nl - buf_str(&out) + 1)), 0);
	ck_assert_ptr_nonnull(strstr(buf_str(&out), "\nheartbeat  OK       "
				     "heartbeat 20s old\n"));
	buf_free(&out);
}
END_TEST

START_TEST(test_json)
{
	struct health_facts f = healthy();
	struct health_thresholds t = defaults();
	struct health_report r;
	struct buf out = BUF_INIT;
	const char *s;

	f.db_path = "/tmp/a \"b\"\\c\n.db";
	health_evaluate(&f, &t, &r);
	health_json(&f, &t, &r, &out);
	s = buf_str(&out);
	ck_assert_int_eq(strncmp(s, "{\"version\":1,\"state\":\"OK\",\"exit\":0,", 35), 0);
	ck_assert_ptr_nonnull(strstr(s, "\"path\":\"/tmp/a \\\"b\\\"\\\\c\\u000a.db\""));
	ck_assert_ptr_nonnull(strstr(s, "\"daemon\":{\"recorded\":true,\"pid\":4242,"
				     "\"process\":\"running\",\"process_state\":\"S\","
				     "\"started\":996400,\"heartbeat\":999980,"
				     "\"heartbeat_age\":20}"));
	ck_assert_ptr_nonnull(strstr(s, "\"mailbox\":{\"contact\":999980,"
				     "\"contact_age\":20,\"waiting\":0}"));
	ck_assert_ptr_nonnull(strstr(s, "\"outbox\":{\"unsent\":0,"
				     "\"oldest_unsent_age\":null,\"failed\":0}"));
	ck_assert_ptr_nonnull(strstr(s, "\"thresholds\":{\"heartbeat\":[180,600],"));
	ck_assert_ptr_nonnull(strstr(s, "{\"name\":\"heartbeat\",\"state\":\"OK\","
				     "\"text\":\"heartbeat 20s old\"}"));
	ck_assert_int_eq(s[strlen(s) - 1], '\n');
	ck_assert_int_eq(s[strlen(s) - 2], '}');
	buf_free(&out);
}
END_TEST

TEST_MAIN("health", "health", NULL, NULL, 0, test_defaults, test_ok,
	  test_heartbeat, test_process, test_mailbox_outbox_counts, test_disk,
	  test_unknown, test_text_perfdata, test_json)
