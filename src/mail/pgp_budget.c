/* pgp_budget.c -- the wall-time budget of one gpg operation on bytes a
 * stranger sent (pgp_private.h): past it, the gpg process is killed and
 * the operation fails, so that no mail holds up the mailbox for long.
 *
 * gpgme_cancel_async() alone does not do it: GPGME (1.18) notices the
 * cancel only when gpg next writes, and a gpg expanding a compressed
 * packet writes nothing for hours; cancelling closes the pipes but
 * leaves gpg running, and GPGME spawns gpg detached, so the daemon has
 * no child to kill.  So while an operation runs under a budget, the
 * context names its GNUPGHOME on gpg's command line in a spelling of its
 * own -- the same directory with its own number of trailing slashes,
 * ".../gnupg/", ".../gnupg//", ... -- and a watchdog thread that wakes at
 * the deadline kills the gpg processes of our user whose command line
 * holds that spelling and that hold a pipe to this process (gpg's end of
 * GPGME's pipes; never a gpg-agent, which holds none).  GPGME then sees
 * the pipes close and returns.  gpg strips trailing slashes from its
 * home, so it reads the same keyring and talks to the same agent. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "mail/pgp_private.h"

/* Contexts of one process get 1 to PGP_BUDGET_TAGS trailing slashes,
 * in turn: more are never in use at once. */
#define PGP_BUDGET_TAGS 256

static atomic_uint pgp_budget_serial;

void pgp_budget_tag_home(struct pgp_ctx *ctx)
{
	unsigned int serial = atomic_fetch_add(&pgp_budget_serial, 1);
	size_t n, k;

	ctx->tag_home[0] = '\0';
	if (ctx->home == NULL)
		return;
	n = strlen(ctx->home);
	while (n > 1 && ctx->home[n - 1] == '/')
		n--;
	k = serial % PGP_BUDGET_TAGS + 1;
	if (n + k >= sizeof(ctx->tag_home))
		return;		/* too long: no kill, the budget only waits */
	memcpy(ctx->tag_home, ctx->home, n);
	memset(ctx->tag_home + n, '/', k);
	ctx->tag_home[n + k] = '\0';
}

/* The pipe inodes this process holds, sorted (for bsearch). */
static int pgp_cmp_ino(const void *a, const void *b)
{
	ino_t x = *(const ino_t *)a, y = *(const ino_t *)b;

	return x < y ? -1 : x > y;
}

static size_t pgp_pipes(const char *fddir, ino_t *inos, size_t max)
{
	char path[320], link[64];
	struct dirent *de;
	size_t n = 0;
	DIR *d = opendir(fddir);
	ssize_t k;

	if (d == NULL)
		return 0;
	while (n < max && (de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", fddir, de->d_name);
		k = readlink(path, link, sizeof(link) - 1);
		if (k <= 6 || memcmp(link, "pipe:[", 6) != 0)
			continue;
		link[k] = '\0';
		inos[n++] = (ino_t)strtoull(link + 6, NULL, 10);
	}
	closedir(d);
	return n;
}

/* Whether the command line of process pid (NUL-separated) holds
 * "--homedir" followed by home. */
static bool pgp_cmdline_has_home(const char *pid, const char *home)
{
	char path[320], buf[8192];
	size_t n = 0, i;
	ssize_t k;
	int fd;

	snprintf(path, sizeof(path), "/proc/%s/cmdline", pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return false;
	while (n < sizeof(buf) - 1 &&
	       (k = read(fd, buf + n, sizeof(buf) - 1 - n)) > 0)
		n += (size_t)k;
	close(fd);
	buf[n] = '\0';
	for (i = 0; i < n; i += strlen(buf + i) + 1)
		if (strcmp(buf + i, "--homedir") == 0 && i + 10 < n &&
		    strcmp(buf + i + 10, home) == 0)
			return true;
	return false;
}

/* Kill our user's gpg processes with ctx's spelling of the home that
 * share a pipe with us.  Returns how many. */
static int pgp_budget_kill(const char *tag_home)
{
	ino_t ours[512], theirs[64];
	char fddir[320];
	struct dirent *de;
	struct stat st;
	size_t n_ours, n, i;
	int killed = 0;
	DIR *d;

	n_ours = pgp_pipes("/proc/self/fd", ours, 512);
	qsort(ours, n_ours, sizeof(*ours), pgp_cmp_ino);
	if ((d = opendir("/proc")) == NULL)
		return 0;
	while ((de = readdir(d)) != NULL) {
		pid_t pid = (pid_t)atol(de->d_name);

		if (pid <= 1 || pid == getpid())
			continue;
		snprintf(fddir, sizeof(fddir), "/proc/%s", de->d_name);
		if (stat(fddir, &st) < 0 || st.st_uid != geteuid() ||
		    !pgp_cmdline_has_home(de->d_name, tag_home))
			continue;
		snprintf(fddir, sizeof(fddir), "/proc/%s/fd", de->d_name);
		n = pgp_pipes(fddir, theirs, 64);
		for (i = 0; i < n; i++)
			if (bsearch(&theirs[i], ours, n_ours, sizeof(*ours),
				    pgp_cmp_ino) != NULL)
				break;
		if (i < n && kill(pid, SIGKILL) == 0)
			killed++;
	}
	closedir(d);
	return killed;
}

static void pgp_budget_add_ms(struct timespec *t, unsigned int ms)
{
	t->tv_sec += ms / 1000;
	t->tv_nsec += (long)(ms % 1000) * 1000000L;
	if (t->tv_nsec >= 1000000000L) {
		t->tv_sec++;
		t->tv_nsec -= 1000000000L;
	}
}

static void *pgp_budget_watch(void *arg)
{
	struct pgp_budget *b = arg;
	struct timespec t = b->deadline;
	int rc = 0;

	pthread_mutex_lock(&b->lock);
	while (!b->done && rc != ETIMEDOUT)
		rc = pthread_cond_timedwait(&b->cond, &b->lock, &t);
	while (!b->done) {
		/* past the deadline: gpg goes, and any gpg the operation
		 * starts after it (the next step of an import) */
		b->fired = true;
		pthread_mutex_unlock(&b->lock);
		if (b->ctx->tag_home[0] != '\0')
			pgp_budget_kill(b->ctx->tag_home);
		pthread_mutex_lock(&b->lock);
		clock_gettime(CLOCK_MONOTONIC, &t);
		pgp_budget_add_ms(&t, 100);
		rc = 0;
		while (!b->done && rc != ETIMEDOUT)
			rc = pthread_cond_timedwait(&b->cond, &b->lock, &t);
	}
	pthread_mutex_unlock(&b->lock);
	return NULL;
}

void pgp_budget_begin(struct pgp_ctx *ctx, struct pgp_budget *b)
{
	pthread_condattr_t ca;
	sigset_t block, old;

	memset(b, 0, sizeof(*b));
	b->ctx = ctx;
	if (ctx->budget_ms == 0)
		return;
	if (ctx->tag_home[0] != '\0')
		gpgme_ctx_set_engine_info(ctx->gpg, GPGME_PROTOCOL_OpenPGP,
					  NULL, ctx->tag_home);
	pthread_mutex_init(&b->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&b->cond, &ca);
	pthread_condattr_destroy(&ca);
	clock_gettime(CLOCK_MONOTONIC, &b->deadline);
	pgp_budget_add_ms(&b->deadline, ctx->budget_ms);
	/* A library's thread takes none of the process's signals (the
	 * daemon's are its loop's); faults still kill. */
	sigfillset(&block);
	sigdelset(&block, SIGSEGV);
	sigdelset(&block, SIGBUS);
	sigdelset(&block, SIGFPE);
	sigdelset(&block, SIGILL);
	sigdelset(&block, SIGABRT);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	if (pthread_create(&b->thread, NULL, pgp_budget_watch, b) == 0)
		b->watching = true;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!b->watching) {
		pthread_cond_destroy(&b->cond);
		pthread_mutex_destroy(&b->lock);
	}
}

bool pgp_budget_end(struct pgp_budget *b)
{
	struct pgp_ctx *ctx = b->ctx;

	if (ctx == NULL || ctx->budget_ms == 0)
		return false;
	if (b->watching) {
		pthread_mutex_lock(&b->lock);
		b->done = true;
		pthread_cond_signal(&b->cond);
		pthread_mutex_unlock(&b->lock);
		pthread_join(b->thread, NULL);
		pthread_cond_destroy(&b->cond);
		pthread_mutex_destroy(&b->lock);
	}
	if (ctx->tag_home[0] != '\0')
		gpgme_ctx_set_engine_info(ctx->gpg, GPGME_PROTOCOL_OpenPGP,
					  NULL, ctx->home);
	b->ctx = NULL;
	return b->fired;
}

const char *pgp_budget_fail(struct pgp_ctx *ctx)
{
	snprintf(ctx->error, sizeof(ctx->error), "gpg ran past its budget "
		 "of %u.%03u s and was stopped", ctx->budget_ms / 1000,
		 ctx->budget_ms % 1000);
	return ctx->error;
}
