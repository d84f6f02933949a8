/* source.c -- choose a mailbox source backend by name and dispatch to it. */
#include "config.h"

#include "mail/source.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const struct mail_source_vfuncs *const mail_source_backends[] = {
	&mail_source_imap,
	&mail_source_dir,
};

int mail_source_open(const struct mail_source_settings *set,
		     struct mail_source **src_r, const char **error_r)
{
	size_t i;

	*src_r = NULL;
	if (set->backend == NULL) {
		*error_r = "mail source: no backend given";
		return -1;
	}
	for (i = 0; i < sizeof(mail_source_backends) /
			sizeof(mail_source_backends[0]); i++) {
		if (strcmp(mail_source_backends[i]->name, set->backend) == 0) {
			int r = mail_source_backends[i]->open(set, src_r,
							      error_r);

			if (r == 0)
				(*src_r)->facts.waiting = -1;
			return r;
		}
	}
	*error_r = "mail source: unknown backend (use \"imap\" or \"dir\")";
	return -1;
}

void mail_source_set_state(struct mail_source *src,
			   const struct mail_source_state *state)
{
	src->state = *state;
}

void mail_source_get_state(const struct mail_source *src,
			   struct mail_source_state *state_r)
{
	*state_r = src->state;
}

void mail_source_get_facts(const struct mail_source *src,
			   struct mail_source_facts *facts_r)
{
	*facts_r = src->facts;
}

void mail_source_note_contact(struct mail_source *src, long waiting)
{
	src->facts.contacts++;
	if (waiting >= 0)
		src->facts.waiting = waiting;
}

void mail_source_note_handed_out(struct mail_source *src)
{
	if (src->facts.waiting > 0)
		src->facts.waiting--;
}

enum mail_source_result mail_source_next(struct mail_source *src,
					 struct mail_source_message *msg_r,
					 const char **error_r)
{
	memset(msg_r, 0, sizeof(*msg_r));
	return src->v->next(src, msg_r, error_r);
}

int mail_source_mark_handled(struct mail_source *src, uint32_t uid,
			     const char **error_r)
{
	return src->v->mark_handled(src, uid, error_r);
}

int mail_source_set_aside(struct mail_source *src, uint32_t uid,
			  const char **error_r)
{
	return src->v->set_aside(src, uid, error_r);
}

int mail_source_wait(struct mail_source *src, unsigned int max_ms,
		     const char **error_r)
{
	return src->v->wait(src, max_ms, error_r);
}

void mail_source_interrupt(struct mail_source *src)
{
	if (src->v->interrupt != NULL)
		src->v->interrupt(src);
}

void mail_source_close(struct mail_source **srcp)
{
	struct mail_source *src = *srcp;

	if (src == NULL)
		return;
	*srcp = NULL;
	src->v->close(src);
}

const char *mail_source_error(struct mail_source *src, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(src->error, sizeof(src->error), fmt, ap);
	va_end(ap);
	return src->error;
}

int mail_source_wake_init(int fds[2])
{
	if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) < 0) {
		fds[0] = fds[1] = -1;
		return -1;
	}
	return 0;
}

int mail_source_sleep(const int fds[2], unsigned int ms)
{
	struct pollfd pfd = { .fd = fds[0], .events = POLLIN };
	char drain[64];
	int r;

	r = poll(&pfd, 1, (int)ms);
	if (r > 0) {
		while (read(fds[0], drain, sizeof(drain)) > 0)
			;
		return 0;
	}
	/* A signal (r < 0, EINTR) counts as a wake-up too. */
	return r == 0 ? 1 : 0;
}

void mail_source_wake(const int fds[2])
{
	ssize_t r;

	/* write() is async-signal-safe; a full pipe already wakes. */
	r = write(fds[1], "", 1);
	(void)r;
}

void mail_source_wake_close(int fds[2])
{
	if (fds[0] >= 0)
		close(fds[0]);
	if (fds[1] >= 0)
		close(fds[1]);
	fds[0] = fds[1] = -1;
}
