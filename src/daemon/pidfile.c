/* pidfile.c -- exclusive pid file with stale-pid detection; see pidfile.h. */
#include <config.h> /* autoconf's: _GNU_SOURCE */

#include "daemon/pidfile.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char pidfile_error[512];

int pidfile_read(const char *path, pid_t *pid_r)
{
	char data[32];
	ssize_t n;
	char *end;
	long pid;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -1;
	n = read(fd, data, sizeof(data) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	data[n] = '\0';
	errno = 0;
	pid = strtol(data, &end, 10);
	if (errno != 0 || end == data || (*end != '\n' && *end != '\0') ||
	    pid <= 0 || pid > 0x3fffffff)
		return -1;
	*pid_r = (pid_t)pid;
	return 0;
}

/* The kernel's short name of a process ("ashesd"), or "" if unknown. */
static void pidfile_comm(const char *which, char *out, size_t size)
{
	char path[64];
	ssize_t n;
	int fd;

	out[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%s/comm", which);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, out, size - 1);
	close(fd);
	if (n <= 0) {
		out[0] = '\0';
		return;
	}
	out[n] = '\0';
	out[strcspn(out, "\n")] = '\0';
}

/* Does pid name a live process that could be another ashesd? */
static bool pidfile_pid_alive(pid_t pid)
{
	char which[32], theirs[32], ours[32];

	if (pid == getpid())
		return false; /* our own leftover (same pid after a reboot) */
	if (kill(pid, 0) < 0 && errno == ESRCH)
		return false;
	/* After a reboot or a long downtime the pid may belong to an
	 * unrelated program; only a process of our own name blocks us. */
	snprintf(which, sizeof(which), "%ld", (long)pid);
	pidfile_comm(which, theirs, sizeof(theirs));
	pidfile_comm("self", ours, sizeof(ours));
	if (theirs[0] != '\0' && ours[0] != '\0' && strcmp(theirs, ours) != 0)
		return false;
	return true;
}

int pidfile_process_state(pid_t pid, char *state_r)
{
	char which[32], name[32], path[64], stat[512];
	const char *p;
	ssize_t n;
	int fd;

	*state_r = 0;
	if (pid <= 0)
		return 0;
	snprintf(which, sizeof(which), "%ld", (long)pid);
	pidfile_comm(which, name, sizeof(name));
	if (strcmp(name, "ashesd") != 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, stat, sizeof(stat) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	stat[n] = '\0';
	/* "PID (COMM) STATE ...": the name may hold ") ", the last one ends it. */
	p = strrchr(stat, ')');
	if (p == NULL || p[1] != ' ' || p[2] == '\0' || p[2] == 'Z' ||
	    p[2] == 'X')
		return 0;
	*state_r = p[2];
	return 1;
}

int pidfile_create(const char *path, pid_t pid, const char **error_r)
{
	char line[32];
	int len;

	len = snprintf(line, sizeof(line), "%ld\n", (long)pid);
	/* A few rounds: another starting daemon may reclaim the same stale
	 * file between our unlink and our open. */
	for (int tries = 0; tries < 5; tries++) {
		pid_t old;
		int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY,
			      0644);

		if (fd >= 0) {
			if (write(fd, line, (size_t)len) != len) {
				snprintf(pidfile_error, sizeof(pidfile_error),
					 "cannot write pid file %s: %s", path,
					 strerror(errno));
				close(fd);
				unlink(path);
				*error_r = pidfile_error;
				return -1;
			}
			close(fd);
			return 0;
		}
		if (errno != EEXIST) {
			snprintf(pidfile_error, sizeof(pidfile_error),
				 "cannot create pid file %s: %s", path, strerror(errno));
			*error_r = pidfile_error;
			return -1;
		}
		if (pidfile_read(path, &old) == 0 && pidfile_pid_alive(old)) {
			snprintf(pidfile_error, sizeof(pidfile_error),
				 "already running as pid %ld (pid file %s)",
				 (long)old, path);
			*error_r = pidfile_error;
			return -1;
		}
		if (unlink(path) < 0 && errno != ENOENT) {
			snprintf(pidfile_error, sizeof(pidfile_error),
				 "cannot remove stale pid file %s: %s", path,
				 strerror(errno));
			*error_r = pidfile_error;
			return -1;
		}
	}
	snprintf(pidfile_error, sizeof(pidfile_error),
		 "pid file %s keeps reappearing", path);
	*error_r = pidfile_error;
	return -1;
}

int pidfile_remove(const char *path, pid_t pid)
{
	pid_t found;

	if (pidfile_read(path, &found) < 0 || found != pid)
		return -1;
	return unlink(path);
}
