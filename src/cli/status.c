/* status.c -- `ashes status`: with MOVEs (or --size, --variant, `--`) the
 * side to move of a position (cli_game.c's cli_status); without, the
 * daemon's health, in the monitoring-plugin convention (exit 0 OK,
 * 1 WARNING, 2 CRITICAL, 3 UNKNOWN; daemon/health.h decides):
 *
 *   ashes status [-c CONFIG | --config CONFIG] [--db PATH]
 *                [--pid-file PATH] [--json]
 *
 * It gathers the facts: the row the daemon's loop writes every turn
 * (store/store_health.h), whether its process runs (the pid that row or
 * a pid file names, looked up in /proc: a stopped process is not running
 * normally), the outbox and the quarantine, the database's size and the
 * free disk of its file system; the thresholds come from [status] of the
 * configuration (the defaults without one).  It only reads: a missing
 * database is reported, never made, and no migration runs. */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include "cli/admin.h"
#include "cli/cli.h"
#include "config/club_config.h"
#include "daemon/health.h"
#include "daemon/pidfile.h"
#include "store/store.h"
#include "store/store_health.h"
#include "util/buf.h"

struct status_opts {
	struct admin_opts admin;    /* --db, --config (admin_db_path) */
	const char *pid_file;       /* NULL: the row's pid */
	bool json;
};

/* The health options only, into *o: 1 when argv holds nothing else (the
 * health report), 0 when it holds anything else (a position), -1 after
 * saying why on stderr. */
static int status_parse(int argc, char **argv, struct status_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->admin.db = cli_db_file;
	o->admin.config = cli_config_file;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
		const char **slot = NULL;

		if (strcmp(a, "--json") == 0) {
			o->json = true;
			continue;
		}
		if (strcmp(a, "-c") == 0 || strcmp(a, "--config") == 0)
			slot = &o->admin.config;
		else if (strcmp(a, "--db") == 0)
			slot = &o->admin.db;
		else if (strcmp(a, "--pid-file") == 0)
			slot = &o->pid_file;
		else if (strncmp(a, "--config=", 9) == 0)
			o->admin.config = a + 9;
		else if (strncmp(a, "--db=", 5) == 0)
			o->admin.db = a + 5;
		else if (strncmp(a, "--pid-file=", 11) == 0)
			o->pid_file = a + 11;
		else
			return 0;
		if (slot != NULL) {
			if (val == NULL) {
				fprintf(stderr, "ashes status: %s needs a value\n",
					a);
				return -1;
			}
			*slot = val;
			i++;
		}
	}
	return 1;
}

/* The process: the pid file's if one was named (or the default one is
 * there and the row names none alive), else the row's. */
static void status_process(const struct status_opts *o,
			   struct health_facts *f)
{
	const char *pf = o->pid_file;
	pid_t pid;
	char state;

	if (pf == NULL && !pidfile_process_state((pid_t)f->pid, &state))
		pf = PIDFILE_DEFAULT_PATH;
	if (pf != NULL && pidfile_read(pf, &pid) == 0 &&
	    (o->pid_file != NULL || pidfile_process_state(pid, &state)))
		f->pid = pid;
	if (pidfile_process_state((pid_t)f->pid, &state)) {
		f->process_state = state;
		f->process = state == 'T' || state == 't' ?
			     HEALTH_PROCESS_STOPPED : HEALTH_PROCESS_RUNNING;
	} else {
		f->process = f->pid == 0 ? HEALTH_PROCESS_EXITED :
			     HEALTH_PROCESS_GONE;
	}
}

/* The database file and its write-ahead log; the free disk of the file
 * system they are on (what an unprivileged writer may use). */
static void status_disk(const char *path, struct health_facts *f)
{
	struct buf wal = BUF_INIT, dir = BUF_INIT;
	struct statvfs vfs;
	struct stat sb;
	const char *slash = strrchr(path, '/');

	f->db_bytes = 0;
	if (stat(path, &sb) == 0)
		f->db_bytes += (int64_t)sb.st_size;
	buf_printf(&wal, "%s-wal", path);
	if (stat(buf_str(&wal), &sb) == 0)
		f->db_bytes += (int64_t)sb.st_size;
	if (slash == NULL)
		buf_puts(&dir, ".");
	else if (slash == path)
		buf_puts(&dir, "/");
	else
		buf_append(&dir, path, (size_t)(slash - path));
	f->disk_free = statvfs(buf_str(&dir), &vfs) == 0 ?
		       (int64_t)vfs.f_bavail * (int64_t)vfs.f_frsize : -1;
	buf_free(&wal);
	buf_free(&dir);
}

/* Everything from the store: 0, or -1 with why in *unknown (static). */
static int status_store(const char *path, int64_t window,
			struct health_facts *f)
{
	static char why[700];
	struct store_options so = { .no_migrate = true };
	struct store *st = NULL;
	struct store_health h;
	struct store_health_counts c;
	const char *e;
	int current = 0, known = 0, r, ret = -1;

	if (store_open(path, &so, &st, &e) < 0) {
		snprintf(why, sizeof(why), "database %s: %s", path, e);
		goto out;
	}
	if (store_schema_version(st, &current, &known, &e) < 0) {
		snprintf(why, sizeof(why), "database %s: %s", path, e);
		goto out;
	}
	if (current < known) {
		snprintf(why, sizeof(why), "database %s is at schema version "
			 "%d, this program's is %d (ashesd migrates it when it "
			 "starts)", path, current, known);
		goto out;
	}
	r = store_health_get(st, &h, &e);
	if (r < 0 || store_health_counts(st, f->now - window, &c, &e) < 0) {
		snprintf(why, sizeof(why), "database %s: %s", path, e);
		goto out;
	}
	f->recorded = r == 1;
	f->pid = h.pid;
	f->started = h.started;
	f->heartbeat = h.heartbeat;
	f->mailbox_contact = h.mailbox_contact;
	f->mailbox_waiting = h.mailbox_waiting;
	f->unsent = c.unsent;
	f->oldest_unsent = c.oldest_unsent;
	f->failed = c.failed;
	f->quarantined = c.quarantined;
	ret = 0;
out:
	store_close(&st);
	if (ret < 0)
		f->unknown = why;
	return ret;
}

static int status_health(struct status_opts *o)
{
	struct health_facts f;
	struct health_thresholds t;
	struct health_report r;
	struct config defaults;
	struct buf out = BUF_INIT;
	const struct config *cfg;
	const char *path;
	struct stat sb;
	static char why[600];
	int64_t now;

	if (admin_now("ashes status", &now) < 0)
		return HEALTH_UNKNOWN;
	config_defaults_only(&defaults);
	/* A named config that does not load is an answer: UNKNOWN. */
	cfg = admin_config(&o->admin, NULL) ? &o->admin.cfg : &defaults;
	health_thresholds_from(&cfg->status, &t);
	memset(&f, 0, sizeof(f));
	f.now = now;
	f.mailbox_waiting = -1;
	f.disk_free = -1;
	path = admin_db_path(&o->admin);
	f.db_path = path;
	if (o->admin.config != NULL && !o->admin.cfg_loaded) {
		snprintf(why, sizeof(why), "configuration %s does not load",
			 o->admin.config);
		f.unknown = why;
	} else if (stat(path, &sb) < 0) {
		snprintf(why, sizeof(why), "no database at %s: %s", path,
			 strerror(errno));
		f.unknown = why;
	} else if (status_store(path, t.window, &f) == 0) {
		status_process(o, &f);
		status_disk(path, &f);
	}
	health_evaluate(&f, &t, &r);
	if (o->json) {
		health_json(&f, &t, &r, &out);
		fputs(buf_str(&out), stdout);
	} else {
		health_text(&f, &t, &r, &out);
		admin_print_text(buf_str(&out));
	}
	buf_free(&out);
	config_free(&defaults);
	admin_done(&o->admin);
	return (int)r.state;
}

int cli_status_any(int argc, char **argv)
{
	struct status_opts o;
	int r = status_parse(argc, argv, &o);

	if (r < 0)
		return HEALTH_UNKNOWN;
	if (r == 0)
		return cli_status(argc, argv);
	return status_health(&o);
}
