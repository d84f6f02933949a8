/* test_worker.c -- the daemon's worker threads (src/daemon/worker.h): a
 * wake asks for a pass, a drain waits for a pass begun after it, a long
 * pass sees the order to stop, and stop joins the thread. */
#include <check.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "daemon/worker.h"
#include "../check_run.h"

struct counter {
	pthread_mutex_t lock;
	int passes;
	int finished;
	/* a pass that runs until told to stop */
	bool long_pass;
	bool saw_stop;
	struct worker *w;
};

static uint64_t counter_pass(void *ctx)
{
	struct counter *c = ctx;
	bool long_pass;

	pthread_mutex_lock(&c->lock);
	c->passes++;
	long_pass = c->long_pass;
	pthread_mutex_unlock(&c->lock);
	if (long_pass) {
		while (!worker_stopping(c->w)) {
			struct timespec ts = { 0, 1000000 };

			nanosleep(&ts, NULL);
		}
		pthread_mutex_lock(&c->lock);
		c->saw_stop = true;
		pthread_mutex_unlock(&c->lock);
	}
	/* never woken by the timer during the test */
	return 3600 * 1000;
}

static void counter_finish(void *ctx)
{
	struct counter *c = ctx;

	c->finished++;
}

static const struct worker_ops counter_ops = { counter_pass, counter_finish };

static int passes(struct counter *c)
{
	int n;

	pthread_mutex_lock(&c->lock);
	n = c->passes;
	pthread_mutex_unlock(&c->lock);
	return n;
}

/* The first pass runs at start; each drain adds at least one whole pass
 * and returns only after it; stop joins (finish ran) and clears the
 * pointer. */
START_TEST(test_drain_waits_for_a_pass)
{
	struct counter c = { .lock = PTHREAD_MUTEX_INITIALIZER };
	const char *e = NULL;
	int before;

	ck_assert_int_eq(worker_start(&counter_ops, &c, &c.w, &e), 0);
	ck_assert_ptr_nonnull(c.w);
	for (int i = 0; i < 50; i++) {
		before = passes(&c);
		worker_drain(c.w);
		ck_assert_int_gt(passes(&c), before);
	}
	worker_wake(c.w);
	worker_stop(&c.w);
	ck_assert_ptr_null(c.w);
	ck_assert_int_eq(c.finished, 1);
	/* NULL: nothing to do */
	worker_wake(NULL);
	worker_drain(NULL);
	worker_stop(&c.w);
}
END_TEST

/* A pass in hand learns of the stop through worker_stopping() on the
 * pointer its owner keeps (still set while the thread runs). */
START_TEST(test_stop_reaches_a_long_pass)
{
	struct counter c = { .lock = PTHREAD_MUTEX_INITIALIZER };
	const char *e = NULL;

	c.long_pass = true;
	ck_assert_int_eq(worker_start(&counter_ops, &c, &c.w, &e), 0);
	while (passes(&c) == 0) {
		struct timespec ts = { 0, 1000000 };

		nanosleep(&ts, NULL);
	}
	worker_stop(&c.w);
	ck_assert(c.saw_stop);
	ck_assert_int_eq(c.finished, 1);
}
END_TEST

TEST_MAIN("worker", "worker", NULL, NULL, 0, test_drain_waits_for_a_pass,
	  test_stop_reaches_a_long_pass)
