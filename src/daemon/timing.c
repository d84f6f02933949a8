/* timing.c -- ashesd's wall clock (with the test offset) and the loop's
 * wait; see timing.h. */
#include <config.h> /* autoconf's: _GNU_SOURCE */

#include "daemon/timing.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config/log.h"
#include "daemon/test_hooks.h"

/* timing_now() runs on the mail loop and on the outbox thread
 * (outbox_thread.h): the offset it keeps is shared under this lock. */
static pthread_mutex_t timing_lock = PTHREAD_MUTEX_INITIALIZER;

static struct {
	bool initialised;
	char *offset_file;  /* NULL: no test hook */
	int64_t offset;     /* what the file said at the last timing_now() */
	bool complained;    /* the file's trouble was logged */
} timing;

void timing_init(void)
{
	const char *path = test_hook_clock_offset_file();

	free(timing.offset_file);
	timing.offset_file = NULL;
	timing.offset = 0;
	timing.complained = false;
	timing.initialised = true;
	if (path == NULL)
		return;
	timing.offset_file = strdup(path);
	if (timing.offset_file == NULL)
		abort();
	log_notice("test hook: the clock is moved by the seconds in %s "
		   "(%s; not for production)", path, TIMING_OFFSET_ENV);
}

/* The offset in the file: 0 and the seconds, or -1 with why. */
static int timing_read_offset(const char *path, int64_t *offset_r,
			      const char **why_r)
{
	char text[64], *end;
	ssize_t n;
	long long v;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);

	if (fd < 0) {
		*why_r = strerror(errno);
		return -1;
	}
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (n < 0) {
		*why_r = strerror(errno);
		return -1;
	}
	text[n] = '\0';
	errno = 0;
	v = strtoll(text, &end, 10);
	while (isspace((unsigned char)*end))
		end++;
	if (end == text || *end != '\0' || errno != 0 ||
	    v > TIMING_OFFSET_MAX || v < -TIMING_OFFSET_MAX) {
		*why_r = "not a whole number of seconds";
		return -1;
	}
	*offset_r = (int64_t)v;
	return 0;
}

int64_t timing_now(void)
{
	const char *why;
	int64_t offset = 0;

	pthread_mutex_lock(&timing_lock);
	if (!timing.initialised)
		timing_init();
	if (timing.offset_file != NULL) {
		if (timing_read_offset(timing.offset_file, &offset, &why) < 0) {
			offset = 0;
			if (!timing.complained)
				log_warning("test hook: %s: %s; the clock is "
					    "not moved", timing.offset_file,
					    why);
			timing.complained = true;
		} else {
			timing.complained = false;
		}
	}
	timing.offset = offset;
	pthread_mutex_unlock(&timing_lock);
	return (int64_t)time(NULL) + offset;
}

int64_t timing_received(int64_t received, int64_t now)
{
	int64_t t;

	if (received <= 0)
		return 0;
	pthread_mutex_lock(&timing_lock);
	t = received + timing.offset;
	pthread_mutex_unlock(&timing_lock);
	if (t <= 0)
		return 0;
	return t < now ? t : now;
}

unsigned int timing_wait_ms(uint64_t poll_ms, int64_t now,
			    const int64_t *due, size_t ndue)
{
	uint64_t ms = poll_ms;
	size_t i;

	for (i = 0; i < ndue; i++) {
		if (due[i] == 0)
			continue;
		if (due[i] <= now) {
			if (ms > 1000)
				ms = 1000;
		} else if ((uint64_t)(due[i] - now) < ms / 1000 + 1 &&
			   (uint64_t)(due[i] - now) * 1000 < ms) {
			ms = (uint64_t)(due[i] - now) * 1000;
		}
	}
	return ms > 0x7fffffff ? 0x7fffffff : (unsigned int)ms;
}
