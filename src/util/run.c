/* run.c -- running a helper program and waiting for it; see run.h. */
#include "util/run.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int run_program(char *const argv[], const char *out_path)
{
	pid_t pid;
	int status;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int in = open("/dev/null", O_RDONLY);
		int out = out_path != NULL ?
			  open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600) : 2;

		if (out < 0)
			_exit(126);
		if (in >= 0)
			dup2(in, 0);
		dup2(out, 1);
		execvp(argv[0], argv);
		fprintf(stderr, "ashes: cannot run %s: %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}
