/* run.h -- running a helper program (gpg, tar) and waiting for it: the
 * one fork/exec the archive and the backup commands share.
 */
#ifndef ASHES_UTIL_RUN_H
#define ASHES_UTIL_RUN_H

/* Run argv (argv[0] a program found in PATH) with stdin from /dev/null
 * and stdout into out_path (created or truncated, mode 0600), or to
 * stderr when out_path is NULL; waits for it (through EINTR).  0 when it
 * exited with 0, -1 otherwise (a program that cannot be run says so on
 * stderr and exits 127). */
int run_program(char *const argv[], const char *out_path);

#endif
