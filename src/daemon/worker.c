/* worker.c -- a thread that works in passes, when asked or when its timer
 * says; see worker.h. */
#include <config.h>

#include "daemon/worker.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct worker {
	struct worker_ops ops;
	void *ctx;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;	/* to the thread: look again, or stop */
	pthread_cond_t done;	/* from the thread: a pass is over */
	/* Under lock: passes asked for (each wake or drain adds one), the
	 * last asked-for pass that ran to its end, and the order to stop. */
	uint64_t wanted;
	uint64_t passed;
	bool stop;
};

bool worker_stopping(struct worker *w)
{
	bool stop;

	pthread_mutex_lock(&w->lock);
	stop = w->stop;
	pthread_mutex_unlock(&w->lock);
	return stop;
}

/* Wait on w->wake (lock held) for ms, or until asked for a pass or to
 * stop.  The monotonic clock: a test clock or a changed wall clock does
 * not stretch the sleep. */
static void worker_sleep(struct worker *w, uint64_t asked, uint64_t ms)
{
	struct timespec until;

	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_sec += (time_t)(ms / 1000);
	until.tv_nsec += (long)(ms % 1000) * 1000000;
	if (until.tv_nsec >= 1000000000) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000;
	}
	while (!w->stop && w->wanted == asked) {
		if (pthread_cond_timedwait(&w->wake, &w->lock, &until) ==
		    ETIMEDOUT)
			break;
	}
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;

	pthread_mutex_lock(&w->lock);
	while (!w->stop) {
		uint64_t asked = w->wanted, ms;

		pthread_mutex_unlock(&w->lock);
		ms = w->ops.pass(w->ctx);
		pthread_mutex_lock(&w->lock);
		/* Everything committed before `asked` was asked for has been
		 * looked at. */
		w->passed = asked;
		pthread_cond_broadcast(&w->done);
		worker_sleep(w, asked, ms);
	}
	pthread_mutex_unlock(&w->lock);
	if (w->ops.finish != NULL)
		w->ops.finish(w->ctx);
	return NULL;
}

int worker_start(const struct worker_ops *ops, void *ctx, struct worker **w_r,
		 const char **error_r)
{
	static char err[256];
	struct worker *w;
	pthread_condattr_t ca;
	sigset_t all, old;
	int rc;

	*w_r = NULL;
	w = calloc(1, sizeof(*w));
	if (w == NULL)
		abort();
	w->ops = *ops;
	w->ctx = ctx;
	pthread_mutex_init(&w->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&w->wake, &ca);
	pthread_condattr_destroy(&ca);
	pthread_cond_init(&w->done, NULL);
	/* Signals are the mail loop's (daemon.c): the thread inherits a
	 * mask that blocks them all. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	/* Set before the thread runs: its passes may ask worker_stopping()
	 * of the pointer the caller keeps. */
	*w_r = w;
	rc = pthread_create(&w->thread, NULL, worker_main, w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		snprintf(err, sizeof(err), "cannot start a thread: %s",
			 strerror(rc));
		pthread_cond_destroy(&w->wake);
		pthread_cond_destroy(&w->done);
		pthread_mutex_destroy(&w->lock);
		free(w);
		*w_r = NULL;
		*error_r = err;
		return -1;
	}
	return 0;
}

void worker_wake(struct worker *w)
{
	if (w == NULL)
		return;
	pthread_mutex_lock(&w->lock);
	w->wanted++;
	pthread_cond_signal(&w->wake);
	pthread_mutex_unlock(&w->lock);
}

void worker_drain(struct worker *w)
{
	uint64_t target;

	if (w == NULL)
		return;
	pthread_mutex_lock(&w->lock);
	target = ++w->wanted;
	pthread_cond_signal(&w->wake);
	while (w->passed < target && !w->stop)
		pthread_cond_wait(&w->done, &w->lock);
	pthread_mutex_unlock(&w->lock);
}

void worker_stop(struct worker **wp)
{
	struct worker *w = *wp;

	if (w == NULL)
		return;
	pthread_mutex_lock(&w->lock);
	w->stop = true;
	pthread_cond_signal(&w->wake);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	/* Only now: until the join, the thread's passes ask
	 * worker_stopping() of the pointer the caller keeps in *wp. */
	*wp = NULL;
	pthread_cond_destroy(&w->wake);
	pthread_cond_destroy(&w->done);
	pthread_mutex_destroy(&w->lock);
	free(w);
}
