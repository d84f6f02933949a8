/* worker.h -- a thread of the daemon's own that does a pass of work when
 * asked, or when its own timer says: the shape the outbox sender
 * (outbox_thread.c) and the bot (bot_thread.c) share.
 *
 * The mail loop wakes a worker without waiting (worker_wake), or wakes it
 * and waits for the pass that covers everything committed before the call
 * (worker_drain, for `ashesd --once`).  A pass returns how long to sleep
 * unasked.  Signals are blocked in the thread: they stay the loop's.
 */
#ifndef ASHES_DAEMON_WORKER_H
#define ASHES_DAEMON_WORKER_H

#include <stdbool.h>
#include <stdint.h>

struct worker;

struct worker_ops {
	/* One pass on the thread; returns the milliseconds to sleep before
	 * the next unless woken. */
	uint64_t (*pass)(void *ctx);
	/* On the thread, after its last pass (may be NULL). */
	void (*finish)(void *ctx);
};

/* Start the thread on ctx (borrowed until worker_stop); *w_r is set
 * before the thread runs, so a pass may read it.  0, or -1 with the
 * pthread error's text in *error_r (static) and *w_r NULL. */
int worker_start(const struct worker_ops *ops, void *ctx, struct worker **w_r,
		 const char **error_r);

/* Ask for a pass now; does not wait.  NULL: nothing to do. */
void worker_wake(struct worker *w);

/* Ask for a pass and wait until one that began after this call ended (or
 * the worker was told to stop).  NULL: nothing to do. */
void worker_drain(struct worker *w);

/* On the thread, in a long pass: whether to stop after the work in hand. */
bool worker_stopping(struct worker *w);

/* Tell the thread to stop after its pass in hand, join it and free;
 * *wp becomes NULL.  The ctx is the caller's to free afterwards. */
void worker_stop(struct worker **wp);

#endif
