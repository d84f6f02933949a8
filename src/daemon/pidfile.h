/* pidfile.h -- the pid file of `ashesd --daemon`: created exclusively so two
 * daemons never share one database, with a stale file (its process gone,
 * or the pid reused by another program) reclaimed instead of blocking a
 * restart after a crash.
 *
 * Error texts returned through error_r live in a static buffer, valid until
 * the next pidfile_* call (the daemon is single-threaded).
 */
#ifndef ASHES_DAEMON_PIDFILE_H
#define ASHES_DAEMON_PIDFILE_H

#include <sys/types.h>

#define PIDFILE_DEFAULT_PATH "/run/ashesd/ashesd.pid"

/* Write pid to path, which must not name a live ashesd.  An existing file
 * is reclaimed if its pid is dead, unreadable garbage, or a process whose
 * name differs from ours.  Returns 0, or -1 with *error_r ("already
 * running as pid N", or the system error). */
int pidfile_create(const char *path, pid_t pid, const char **error_r);

/* The pid written in path.  Returns 0, or -1 if missing or not a pid. */
int pidfile_read(const char *path, pid_t *pid_r);

/* Is pid a live ashesd (the kernel's name of it "ashesd"), and in which
 * state (/proc's letter: R, S, D, T for stopped, t traced...)?  1 with
 * *state_r, or 0 when there is no such process, it is a zombie, or it is
 * another program.  For `ashes status`. */
int pidfile_process_state(pid_t pid, char *state_r);

/* Remove path if it still holds pid (a successor may own it by now).
 * Returns 0 if removed, -1 if not (missing, or another pid). */
int pidfile_remove(const char *path, pid_t pid);

#endif
