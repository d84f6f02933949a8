/* main.c -- ashesd: command line, start-up, and the daemon's life cycle
 * around the mail loop (daemon_run_loop in loop.c). */
#include <config.h> /* autoconf's, from the build tree: PACKAGE_VERSION */

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/config.h"
#include "daemon/daemon.h"
#include "daemon/log.h"
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

int main(int argc, char **argv)
{
	struct daemon d;
	struct config_errors errors = { NULL, 0 };
	const char *config_arg = CONFIG_DEFAULT_PATH, *error;
	char *config_path = NULL, *pid_file = NULL, *maildir = NULL;
	bool check_config = false, detach = false;
	int ready_fd = -1, opt, status = 1;

	memset(&d, 0, sizeof(d));
	while ((opt = getopt_long(argc, argv, "c:fdp:m:Vh", long_options, NULL)) != -1) {
		switch (opt) {
		case 'c':
			config_arg = optarg;
			break;
		case OPT_CHECK_CONFIG:
			check_config = true;
			break;
		case 'f':
			detach = false;
			break;
		case 'd':
			detach = true;
			break;
		case 'p':
			free(pid_file);
			pid_file = absolute_path(optarg);
			break;
		case 'm':
			free(maildir);
			maildir = absolute_path(optarg);
			break;
		case OPT_ONCE:
			d.once = true;
			break;
		case 'V':
			printf("ashesd %s\n", PACKAGE_VERSION);
			status = 0;
			goto out;
		case 'h':
			usage(stdout);
			status = 0;
			goto out;
		default:
			usage(stderr);
			status = EXIT_USAGE;
			goto out;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "ashesd: unexpected argument \"%s\"\n", argv[optind]);
		usage(stderr);
		status = EXIT_USAGE;
		goto out;
	}
	if (detach && pid_file == NULL)
		pid_file = strdup(PIDFILE_DEFAULT_PATH);

	config_path = absolute_path(config_arg);
	d.config_path = config_path;
	d.overrides.maildir = maildir;
	d.detached = detach;
	if (config_load(config_path, &d.overrides, &d.cfg, &errors) < 0) {
		for (size_t i = 0; i < errors.count; i++)
			fprintf(stderr, "%s\n", errors.lines[i]);
		fprintf(stderr, "ashesd: %zu error%s in the configuration\n",
			errors.count, errors.count == 1 ? "" : "s");
		goto out;
	}
	if (check_config) {
		struct buf dump = BUF_INIT;

		config_dump(&d.cfg, &dump);
		printf("ok\n\n%s", buf_str(&dump));
		buf_free(&dump);
		status = fflush(stdout) == 0 ? 0 : 1;
		goto out;
	}

	if (detach) {
		if (daemon_detach(pid_file, &ready_fd, &error) < 0) {
			fprintf(stderr, "ashesd: cannot detach: %s\n", error);
			goto out;
		}
	} else if (pid_file != NULL && pidfile_create(pid_file, getpid(), &error) < 0) {
		fprintf(stderr, "ashesd: %s\n", error);
		free(pid_file);
		pid_file = NULL; /* not ours to remove */
		goto out;
	}
	daemon_log_open(&d);
	if (daemon_signals_init(&error) < 0) {
		log_error("cannot install signal handlers: %s", error);
		daemon_detach_ready(&ready_fd, error);
		goto out;
	}
	log_notice("ashesd %s starting (config %s, mail from %s)", PACKAGE_VERSION,
		   config_path, d.cfg.source.type == CONFIG_SOURCE_MAILDIR
		   ? d.cfg.source.maildir : d.cfg.imap.server.host);
	if (d.cfg.smtp.server.url == NULL)
		log_warning("no [smtp] url: replies stay in the outbox");
	/* Ready is reported by the loop (daemon_started) once the store,
	 * templates and mailbox are open, so a broken start-up is seen by
	 * whoever started us. */
	d.ready_fd = ready_fd;
	/* ------------------------------------------------------------------
	 * The mail loop (loop.c).  Everything around it -- config, reload,
	 * signals, readiness, pid file, logging -- is set up above and torn
	 * down below. */
	status = daemon_run_loop(&d) < 0 ? 1 : 0;
	daemon_detach_ready(&d.ready_fd, "start-up failed; see the log");
	/* ------------------------------------------------------------------ */

	daemon_notify("STOPPING=1");
	log_notice("ashesd stopped%s", status == 0 ? "" : " after an error");
out:
	if (pid_file != NULL && status != EXIT_USAGE)
		pidfile_remove(pid_file, getpid());
	config_errors_free(&errors);
	config_free(&d.cfg);
	log_close();
	free(config_path);
	free(pid_file);
	free(maildir);
	return status;
}
