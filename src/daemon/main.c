/* main.c -- ashesd: command line, start-up, and the daemon's life cycle
 * around the mail loop (daemon_run_loop in loop.c). */
#include <config.h> /* autoconf's, from the build tree: PACKAGE_VERSION */

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/club_config.h"
#include "daemon/daemon.h"
#include "config/log.h"
#include "daemon/pidfile.h"
#include "util/buf.h"

enum {
	EXIT_USAGE = 2, /* bad command line; 1 is any other failure */
};

enum {
	OPT_CHECK_CONFIG = 256,
	OPT_ONCE,
};

static const struct option long_options[] = {
	{ "config", required_argument, NULL, 'c' },
	{ "check-config", no_argument, NULL, OPT_CHECK_CONFIG },
	{ "foreground", no_argument, NULL, 'f' },
	{ "daemon", no_argument, NULL, 'd' },
	{ "pid-file", required_argument, NULL, 'p' },
	{ "maildir", required_argument, NULL, 'm' },
	{ "once", no_argument, NULL, OPT_ONCE },
	{ "version", no_argument, NULL, 'V' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: ashesd [OPTION]...\n"
		"Run games of Ashes by OpenPGP-signed mail.\n"
		"\n"
		"  -c, --config=PATH    configuration file (default %s)\n"
		"      --check-config   check the configuration, print it with secrets\n"
		"                       masked, and exit (0 if it is valid)\n"
		"  -f, --foreground     stay in the foreground, log to stderr (default)\n"
		"  -d, --daemon         detach as a classic daemon and log to syslog\n"
		"  -p, --pid-file=PATH  write the pid here (with --daemon, default %s)\n"
		"  -m, --maildir=DIR    read mail from a directory of .eml files, not IMAP\n"
		"      --once           handle the mail that is there, then exit\n"
		"  -V, --version        print the version and exit\n"
		"  -h, --help           print this help and exit\n"
		"\n"
		"Signals: SIGHUP reloads the configuration and templates; SIGTERM and\n"
		"SIGINT finish the message in hand and exit.  See ashesd(8),\n"
		"ashesd.conf(5).\n",
		CONFIG_DEFAULT_PATH, PIDFILE_DEFAULT_PATH);
}

/* path made absolute against the current directory, because a daemon
 * chdirs to / and reloads later.  Caller frees. */
static char *absolute_path(const char *path)
{
	struct buf b = BUF_INIT;
	char *cwd;

	if (path[0] == '/')
		return strdup(path);
	cwd = getcwd(NULL, 0);
	if (cwd == NULL)
		return strdup(path);
	buf_printf(&b, "%s/%s", cwd, path);
	free(cwd);
	return buf_steal(&b);
}

/* What the command line asks for. */
struct main_args {
	const char *config_arg; /* -c as given */
	char *pid_file;         /* absolute, or NULL; owned */
	char *maildir;          /* absolute, or NULL; owned */
	bool check_config, detach, once;
};

/* Reads the options into *a (which the caller frees, even on exit).
 * Returns -1 to go on, or the status to exit with now (--version, --help,
 * a bad command line). */
static int main_parse_args(int argc, char **argv, struct main_args *a)
{
	int opt;

	while ((opt = getopt_long(argc, argv, "c:fdp:m:Vh", long_options, NULL)) != -1) {
		switch (opt) {
		case 'c':
			a->config_arg = optarg;
			break;
		case OPT_CHECK_CONFIG:
			a->check_config = true;
			break;
		case 'f':
			a->detach = false;
			break;
		case 'd':
			a->detach = true;
			break;
		case 'p':
			free(a->pid_file);
			a->pid_file = absolute_path(optarg);
			break;
		case 'm':
			free(a->maildir);
			a->maildir = absolute_path(optarg);
			break;
		case OPT_ONCE:
			a->once = true;
			break;
		case 'V':
			printf("ashesd %s\n", PACKAGE_VERSION);
			return 0;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "ashesd: unexpected argument \"%s\"\n", argv[optind]);
		usage(stderr);
		return EXIT_USAGE;
	}
	if (a->detach && a->pid_file == NULL)
		a->pid_file = strdup(PIDFILE_DEFAULT_PATH);
	return -1;
}

/* Loads d->config_path into d->cfg, printing every error to stderr.
 * Returns 0, or -1 (errors, freed by the caller, then hold the lines). */
static int main_load_config(struct daemon *d, struct config_errors *errors)
{
	if (config_load(d->config_path, &d->overrides, &d->cfg, errors) < 0) {
		for (size_t i = 0; i < errors->count; i++)
			fprintf(stderr, "%s\n", errors->lines[i]);
		fprintf(stderr, "ashesd: %zu error%s in the configuration\n",
			errors->count, errors->count == 1 ? "" : "s");
		return -1;
	}
	return 0;
}

/* --check-config: prints "ok" and the configuration, secrets masked.
 * Returns the exit status (1 if stdout could not be written). */
static int main_check_config(const struct daemon *d)
{
	struct buf dump = BUF_INIT;

	config_dump(&d->cfg, &dump);
	printf("ok\n\n%s", buf_str(&dump));
	buf_free(&dump);
	return fflush(stdout) == 0 ? 0 : 1;
}

/* Detaches (--daemon) or writes the pid file (*pid_file, if any; freed
 * and set to NULL if it is not ours).  Returns 0, or -1 with the reason on
 * stderr. */
static int main_claim_process(bool detach, char **pid_file, int *ready_fd_r)
{
	const char *error;

	if (detach) {
		if (daemon_detach(*pid_file, ready_fd_r, &error) < 0) {
			fprintf(stderr, "ashesd: cannot detach: %s\n", error);
			return -1;
		}
	} else if (*pid_file != NULL &&
		   pidfile_create(*pid_file, getpid(), &error) < 0) {
		fprintf(stderr, "ashesd: %s\n", error);
		free(*pid_file);
		*pid_file = NULL; /* not ours to remove */
		return -1;
	}
	return 0;
}

/* Opens the log and installs the signal handlers, then logs the start.
 * Returns 0, or -1 (logged, and told to a waiting parent via *ready_fd). */
static int main_start_logging(struct daemon *d, int *ready_fd)
{
	const char *error;

	daemon_log_open(d);
	if (daemon_signals_init(&error) < 0) {
		log_error("cannot install signal handlers: %s", error);
		daemon_detach_ready(ready_fd, error);
		return -1;
	}
	log_notice("ashesd %s starting (config %s, mail from %s)", PACKAGE_VERSION,
		   d->config_path, d->cfg.source.type == CONFIG_SOURCE_MAILDIR
		   ? d->cfg.source.maildir : d->cfg.imap.server.host);
	if (d->cfg.smtp.server.url == NULL)
		log_warning("no [smtp] url: replies stay in the outbox");
	return 0;
}

/* Runs the mail loop (loop.c) until it stops.  Returns the exit status. */
static int main_run(struct daemon *d, int ready_fd)
{
	int status;

	/* Ready is reported by the loop (daemon_started) once the store,
	 * templates and mailbox are open, so a broken start-up is seen by
	 * whoever started us. */
	d->ready_fd = ready_fd;
	/* ------------------------------------------------------------------
	 * The mail loop (loop.c).  Everything around it -- config, reload,
	 * signals, readiness, pid file, logging -- is set up in main() and
	 * torn down there. */
	status = daemon_run_loop(d) < 0 ? 1 : 0;
	daemon_detach_ready(&d->ready_fd, "start-up failed; see the log");
	/* ------------------------------------------------------------------ */

	daemon_notify("STOPPING=1");
	log_notice("ashesd stopped%s", status == 0 ? "" : " after an error");
	return status;
}

int main(int argc, char **argv)
{
	struct daemon d;
	struct config_errors errors = { NULL, 0 };
	struct main_args a = { .config_arg = CONFIG_DEFAULT_PATH };
	char *config_path = NULL;
	int exit_now, ready_fd = -1, status = 1;

	memset(&d, 0, sizeof(d));
	exit_now = main_parse_args(argc, argv, &a);
	if (exit_now >= 0) {
		status = exit_now;
		goto out;
	}

	config_path = absolute_path(a.config_arg);
	d.config_path = config_path;
	d.overrides.maildir = a.maildir;
	d.detached = a.detach;
	d.once = a.once;
	if (main_load_config(&d, &errors) < 0)
		goto out;
	if (a.check_config) {
		status = main_check_config(&d);
		goto out;
	}
	if (main_claim_process(a.detach, &a.pid_file, &ready_fd) < 0 ||
	    main_start_logging(&d, &ready_fd) < 0)
		goto out;
	status = main_run(&d, ready_fd);
out:
	if (a.pid_file != NULL && status != EXIT_USAGE)
		pidfile_remove(a.pid_file, getpid());
	config_errors_free(&errors);
	config_free(&d.cfg);
	log_close();
	free(config_path);
	free(a.pid_file);
	free(a.maildir);
	return status;
}
